"""Keeping a benchmark import inside its bounds: what it reads stays in the source, what it writes stays
in ``--out``, and a source it cannot import leaves nothing half-written.

- :class:`SourceError` is a source that cannot be imported as it is; its message is one line naming
  the file and the field.
- :func:`inside` resolves a path (symbolic links followed) and refuses it unless it lies in a root.
- :func:`check_tree` refuses a folder to be copied that holds a link out of the source, a link to a
  folder, a hard-linked file, or anything but regular files and folders.
- :func:`open_source` opens a file of the source for reading, checked on the open descriptor: a regular
  file, inside the source, with one link (a hard link shares its data with a file that may be anywhere
  on the host, as a symbolic link out of the source would: both are refused). Every file an import
  reads or copies goes through it.
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
from typing import BinaryIO, Iterator


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


def _hard_link(links: int) -> str:
    return (f"is a hard link ({links} names share its data, and the others may be files anywhere on the host): "
            "refused like a link out of the source; copy the source without hard links (cp -r, not cp -al)")


def check_tree(folder: Path, source_root: Path, where: str) -> None:
    """Refuse a folder to copy that holds a link leading out of ``source_root``, a link to a folder,
    a hard-linked file, or a special file (a pipe would block the copy, a device would copy the
    host's data). The copy checks each file again on its open descriptor (:func:`open_source`)."""
    inside(folder, source_root, where)
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                real = inside(path, source_root, f"{where}: link {path.relative_to(folder)}")
                if not real.is_file():
                    raise SourceError(f"{where}: link {path.relative_to(folder)} does not lead to a file")
            elif stat.S_ISREG(info.st_mode):
                if info.st_nlink > 1:
                    raise SourceError(f"{where}: {path.relative_to(folder)} {_hard_link(info.st_nlink)}")
            elif not stat.S_ISDIR(info.st_mode):
                raise SourceError(f"{where}: {path.relative_to(folder)} is not a regular file")


def open_source(path: Path, source_root: Path, where: str) -> BinaryIO:
    """The file ``path`` of the source, open for reading in binary. A symbolic link is followed only to
    a file inside ``source_root`` (:func:`inside`); the file it names is opened without following a
    link, and what is checked is the open descriptor, never the path again: a regular file, with one
    link (a hard link is refused as a link out of the source would be), lying inside the source (a
    folder swapped for a link meanwhile leads elsewhere, and is refused)."""
    real = inside(path, source_root, where)
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise SourceError(f"{where}: cannot be opened ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SourceError(f"{where}: is not a regular file")
        if info.st_nlink > 1:
            raise SourceError(f"{where}: {_hard_link(info.st_nlink)}")
        try:
            opened = Path(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:  # no /proc: the resolved path, opened without following its last part, stands
            opened = real
        root = Path(source_root).resolve()
        if opened != root and root not in opened.parents:
            raise SourceError(f"{where}: leads outside {source_root} (to {opened})")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_source_text(path: Path, source_root: Path, where: str) -> str:
    """The UTF-8 text of a source file opened by :func:`open_source` (UnicodeDecodeError when not UTF-8)."""
    with open_source(path, source_root, where) as fh:
        return fh.read().decode("utf-8")


def copy_tree(src: Path, dest: Path, source_root: Path | None = None, where: str | None = None) -> None:
    """Copy a folder checked by :func:`check_tree`: each file read through :func:`open_source` (checked
    again on its descriptor), a link (inside ``source_root``, to a file) copied as the file it names;
    files come out writable whatever the source's modes."""
    root = Path(source_root if source_root is not None else src)

    def copy(from_path: str, to_path: str) -> str:
        label = f"{where or src}: {Path(from_path).relative_to(src)}"
        with open_source(Path(from_path), root, label) as fh, open(to_path, "xb") as out:
            shutil.copyfileobj(fh, out)
        return to_path

    shutil.copytree(src, dest, symlinks=False, copy_function=copy)
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
