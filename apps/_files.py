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


def existing_file(ctx: OfficeContext, path: str, suffixes: tuple[str, ...], what: str) -> Path:
    """Resolve ``path`` in the office; it must exist, be a file and end with one of ``suffixes``."""
    real = ctx.office.resolve(path)
    if not real.exists():
        raise OpError("file_not_found", f"file not found: {path}")
    if not real.is_file():
        raise OpError("wrong_file_type", f"{path} is a folder, not {_a(what)} file")
    if suffixes and real.suffix.lower() not in suffixes:
        raise OpError("wrong_file_type", f"{path} is not {_a(what)} file (expected {', '.join(suffixes)})")
    return real


def new_file(ctx: OfficeContext, path: str, suffixes: tuple[str, ...], what: str, overwrite: bool = True) -> Path:
    """Resolve a path to write a ``what`` file to, creating its folder; refuses the wrong extension."""
    real = ctx.office.resolve(path)
    if suffixes and real.suffix.lower() not in suffixes:
        raise OpError("wrong_file_type", f"{path} must end with {' or '.join(suffixes)} for {_a(what)} file")
    if real.exists() and real.is_dir():
        raise OpError("wrong_file_type", f"{path} is a folder")
    if real.exists() and not overwrite:
        raise OpError("file_exists", f"{path} already exists")
    real.parent.mkdir(parents=True, exist_ok=True)
    return real


@contextmanager
def reported_as_corrupt(path: str) -> Iterator[None]:
    """Turn a library's failure to read ``path`` into the agent-facing ``corrupt_file`` error."""
    try:
        yield
    except ConversionError as exc:
        raise OpError("corrupt_file", f"{path}: {exc}") from None
