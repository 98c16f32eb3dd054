"""Small helpers every file-based app uses: find an existing file of the right type, prepare a new one."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from officesim.testbed.convert import ConversionError
from officesim.apps.registry import OfficeContext, OpError


def _a(word: str) -> str:
    """'a Word file', 'an Excel file'."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _checked(ctx: OfficeContext, path: str, suffixes: tuple[str, ...], what: str) -> Path:
    real = ctx.office.resolve(path)
    if suffixes and real.suffix.lower() not in suffixes:
        raise OpError("wrong_file_type", f"{path} is not {_a(what)} file (expected {', '.join(suffixes)})")
    return real


def read_existing(ctx: OfficeContext, path: str, suffixes: tuple[str, ...], what: str) -> tuple[Path, bytes]:
    """An existing ``what`` file's resolved path and its bytes, read once through a descriptor that
    followed no link (what is checked, regular file and size, is that descriptor)."""
    real = _checked(ctx, path, suffixes, what)
    try:
        return real, ctx.office.read_bytes(real, path)
    except OpError as exc:
        if exc.code == "wrong_file_type" and ctx.office.kind(real) == "folder":
            raise OpError("wrong_file_type", f"{path} is a folder, not {_a(what)} file") from None
        raise


def new_file(ctx: OfficeContext, path: str, suffixes: tuple[str, ...], what: str, overwrite: bool = True) -> Path:
    """Resolve a path to write a ``what`` file to; refuses the wrong extension, a folder, and (without
    ``overwrite``) an existing name. The write itself is ``Office.write_bytes`` (makes the folders)."""
    real = ctx.office.resolve(path)
    if suffixes and real.suffix.lower() not in suffixes:
        raise OpError("wrong_file_type", f"{path} must end with {' or '.join(suffixes)} for {_a(what)} file")
    kind = ctx.office.kind(real)
    if kind == "folder":
        raise OpError("wrong_file_type", f"{path} is a folder")
    if kind != "missing" and not overwrite:
        raise OpError("file_exists", f"{path} already exists")
    return real


@contextmanager
def reported_as_corrupt(path: str) -> Iterator[None]:
    """Turn a library's failure to read ``path`` into the agent-facing ``corrupt_file`` error."""
    try:
        yield
    except ConversionError as exc:
        raise OpError("corrupt_file", f"{path}: {exc}") from None
