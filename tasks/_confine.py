"""Keeping a benchmark import inside its bounds: what it reads stays in the source, what it writes stays
in ``--out``, and a source it cannot import leaves nothing half-written.

- :class:`SourceError` is a source that cannot be imported as it is; its message is one line naming
  the file and the field.
- :func:`inside` resolves a path (symbolic links followed) and refuses it unless it lies in a root.
- :func:`check_tree` refuses a folder to be copied that holds a link out of the source, a link to a
  folder, or anything but regular files and folders.
- :func:`staging` gives a temporary folder inside ``out``; :func:`install` moves a finished task
  folder from it to its place in ``out`` (replacing an earlier one, never following a link there).
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import Iterator


class SourceError(ValueError):
    """A benchmark source that cannot be imported: the file, the field, what is wrong (one line)."""

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))


def relative(value: object, where: str) -> PurePosixPath:
    """A relative path given by a source, refused when absolute or climbing out with '..'."""
    text = str(value).strip()
    if not text:
        raise SourceError(f"{where}: an empty path")
    path = PurePosixPath(text.replace("\\", "/"))
    if path.is_absolute() or (len(text) > 1 and text[1] == ":"):
        raise SourceError(f"{where}: absolute path {text!r} refused")
    if ".." in path.parts:
        raise SourceError(f"{where}: path {text!r} leaves its folder ('..')")
    return path


def inside(path: Path, root: Path, where: str) -> Path:
    """``path`` resolved (links followed); refused unless it is ``root`` or lies under it."""
    real_root = Path(root).resolve()
    try:
        real = Path(path).resolve(strict=False)
    except (OSError, RuntimeError) as exc:  # a loop of links
        raise SourceError(f"{where}: cannot be resolved ({exc})") from None
    if real != real_root and real_root not in real.parents:
        raise SourceError(f"{where}: leads outside {root} (to {real})")
    return real


def check_tree(folder: Path, source_root: Path, where: str) -> None:
    """Refuse a folder to copy that holds a link leading out of ``source_root``, a link to a folder,
    or a special file (a pipe would block the copy, a device would copy the host's data)."""
    inside(folder, source_root, where)
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode):
                real = inside(path, source_root, f"{where}: link {path.relative_to(folder)}")
                if not real.is_file():
                    raise SourceError(f"{where}: link {path.relative_to(folder)} does not lead to a file")
            elif not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                raise SourceError(f"{where}: {path.relative_to(folder)} is not a regular file")


def copy_tree(src: Path, dest: Path) -> None:
    """Copy a folder checked by :func:`check_tree`: a link (inside the source, to a file) is copied as
    the file it names; files come out writable whatever the source's modes."""
    shutil.copytree(src, dest, symlinks=False, copy_function=shutil.copyfile)
    for path in [dest, *dest.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)


@contextmanager
def staging(out: Path, prefix: str) -> Iterator[Path]:
    """A temporary folder inside ``out`` (so moves out of it are renames), removed in any case."""
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{prefix}-", dir=out))
    try:
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def install(built: Path, out: Path, name: str) -> Path:
    """Move the finished folder ``built`` to ``out/name``, replacing what is there (a link there is
    removed, never followed)."""
    relative(name, "task id")
    if len(PurePosixPath(name).parts) != 1:
        raise SourceError(f"task id {name!r} is not a plain folder name")
    dest = out / name
    inside(dest.parent, out, f"task {name}")
    if dest.is_symlink() or dest.is_file():
        dest.unlink()
    elif dest.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{name}-old-", dir=out))
        os.replace(dest, old / name)
        shutil.rmtree(old, ignore_errors=True)
    os.replace(built, dest)
    return dest
