"""The private office of one session: a directory, and path resolution confined to it.

Every path an agent gives goes through ``Office.resolve``. Relative paths are taken from the office
root; ``/testbed/...`` (the OfficeBench container's root) maps to the office root so OfficeBench
prompts work unchanged; anything else that is absolute, any ``..`` component, NUL bytes, and
symlinks that lead outside are refused with ``OpError('path_outside_office')``.
"""

from __future__ import annotations

import errno
import os
import stat
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import IO, Iterator

from officesim.testbed import safefs
from officesim.testbed.errors import OpError

OFFICEBENCH_ROOT = "/testbed"


class Office:
    """A directory holding one office: data/, emails/<user>/, calendar/<user>.ics."""

    def __init__(self, root: str | os.PathLike):
        self.root = Path(root).resolve()

    # -- paths ---------------------------------------------------------------------------------
    def resolve(self, path: str) -> Path:
        """Map an agent-supplied path to a real path inside the office, or refuse it."""
        if not isinstance(path, str) or not path.strip():
            raise OpError("bad_arguments", "a path must be a non-empty string")
        if "\x00" in path:
            raise OpError("path_outside_office", "the path contains a NUL byte")
        raw = path.strip()
        pure = PurePosixPath(raw)
        if ".." in pure.parts:
            raise OpError("path_outside_office", f"'{raw}' uses '..'; paths must stay inside the office")
        if pure.is_absolute():
            root_str = str(self.root)
            if raw == OFFICEBENCH_ROOT or raw.startswith(OFFICEBENCH_ROOT + "/"):
                pure = PurePosixPath(raw[len(OFFICEBENCH_ROOT):].lstrip("/") or ".")
            elif raw == root_str or raw.startswith(root_str + "/"):
                pure = PurePosixPath(raw[len(root_str):].lstrip("/") or ".")
            else:
                raise OpError("path_outside_office", f"'{raw}' is outside the office; use a path relative to the office root")
        _check_lengths(raw, pure.parts)
        candidate = self.root.joinpath(*pure.parts) if pure.parts else self.root
        # Follow symlinks of every existing component: the real target must stay inside.
        real = Path(os.path.realpath(candidate))
        if real != self.root and self.root not in real.parents:
            raise OpError("path_outside_office", f"'{raw}' leads outside the office")
        return candidate

    def relpath(self, path: Path) -> str:
        """The office-relative POSIX path of a real path inside the office."""
        return Path(path).resolve().relative_to(self.root).as_posix()

    # -- opening files (testbed/safefs.py: once, relative to the root, no link followed) ----------
    def inner(self, path: str | os.PathLike) -> str:
        """The office-relative form of an agent path or of a path ``resolve`` returned (not resolved
        again on disk: links are the opener's to refuse)."""
        if isinstance(path, str) and not os.path.isabs(path):
            return PurePosixPath(self.resolve(path).relative_to(self.root)).as_posix()
        full = Path(os.path.abspath(os.fspath(path)))
        if full != self.root and self.root not in full.parents:
            full = self.resolve(str(path))
        return full.relative_to(self.root).as_posix() or "."

    def read_bytes(self, path: str | os.PathLike, label: str | None = None) -> bytes:
        """The bytes of a regular file of the office (an agent path or one ``resolve`` returned),
        opened once without following any link, refused past the file size limit (``TooLarge``)."""
        from officesim.testbed import guards

        rel = self.inner(path)
        shown = label or rel
        try:
            return safefs.read_beneath(self.root, rel, guards.MAX_FILE_BYTES)
        except OSError as exc:
            if exc.errno == errno.EFBIG:
                raise guards.TooLarge(f"{shown} is over the limit of {guards.MAX_FILE_BYTES >> 20} MB for a "
                                      f"file to open") from None
            raise self._error(exc, shown) from None

    @contextmanager
    def replacing(self, path: str | os.PathLike, label: str | None = None) -> Iterator[IO[bytes]]:
        """A file to write a file's new content into; it replaces the file when the block succeeds
        (a temporary from ``mkstemp`` in the same folder, renamed relative to the folder's descriptor).
        Missing folders are made; no link is followed, a link at the name is replaced."""
        rel = self.inner(path)
        try:
            with safefs.replacing(self.root, rel) as handle:
                yield handle
        except OSError as exc:
            if isinstance(exc, (safefs.LinkRefused, safefs.NotRegular, FileNotFoundError)):
                raise self._error(exc, label or rel) from None
            raise

    def write_bytes(self, path: str | os.PathLike, data: bytes, label: str | None = None) -> None:
        """Replace (or create) a file of the office with ``data``, atomically and without links."""
        with self.replacing(path, label) as handle:
            handle.write(data)

    def kind(self, path: str | os.PathLike) -> str:
        """'file', 'folder', 'link', 'other' or 'missing' for the entry itself (a link is not followed;
        a link on the way reads as 'link'). For choosing what to say or do, never to open by path later."""
        rel = self.inner(path)
        try:
            info = safefs.stat_beneath(self.root, rel)
        except safefs.LinkRefused:
            return "link"
        except OSError:
            return "missing"
        if info is None:
            return "missing"
        if stat.S_ISLNK(info.st_mode):
            return "link"
        if stat.S_ISDIR(info.st_mode):
            return "folder"
        return "file" if stat.S_ISREG(info.st_mode) else "other"

    def listdir(self, path: str | os.PathLike) -> list[str]:
        """The names in a folder of the office (reached without links), sorted; [] when there is none."""
        rel = self.inner(path)
        try:
            fd = safefs.open_dir(self.root, rel)
        except OSError:
            return []
        try:
            return sorted(os.listdir(fd))
        finally:
            os.close(fd)

    def unlink(self, path: str | os.PathLike) -> None:
        """Remove a file (a link as a link) of the office."""
        rel = self.inner(path)
        try:
            safefs.unlink_beneath(self.root, rel)
        except OSError as exc:
            raise self._error(exc, rel) from None

    @staticmethod
    def _error(exc: OSError, shown: str) -> OpError:
        """The agent-facing error for a refused or failed open."""
        if isinstance(exc, safefs.LinkRefused):
            return OpError("path_outside_office", f"{shown}: the path goes through a symbolic link; the office "
                                                  f"never follows links")
        if isinstance(exc, safefs.NotRegular):
            return OpError("wrong_file_type", f"{shown}: {exc.strerror}")
        if isinstance(exc, (FileNotFoundError, NotADirectoryError)):
            return OpError("file_not_found", f"file not found: {shown}")
        return OpError("corrupt_file", f"{shown} could not be read: {exc.strerror or exc}")

    # -- well-known places ---------------------------------------------------------------------
    def mailbox(self, user: str, folder: str = "inbox") -> Path:
        """emails/<user>/ holds the inbox; emails/<user>/sent/ holds sent mail.

        An existing folder that differs only in case is the user's (OfficeBench keeps mail in
        ``emails/Bob/``); a new one is the address in lower case, or a name as written.
        """
        base = self.resolve(f"emails/{self._existing('emails', _safe_name(user))}")
        return base if folder == "inbox" else base / folder

    def calendar(self, user: str) -> Path:
        """calendar/<user>.ics; an existing file that differs only in case is the user's."""
        return self.resolve(f"calendar/{self._existing('calendar', _safe_name(user) + '.ics')}")

    def _existing(self, parent: str, name: str) -> str:
        """``name``, or the entry of ``parent`` that equals it but for case (the first, sorted)."""
        folder = self.root / parent
        if (folder / name).exists() or not folder.is_dir():
            return name
        wanted = name.casefold()
        try:
            same = sorted(e for e in os.listdir(folder) if e.casefold() == wanted)
        except OSError:
            return name
        return same[0] if same else name

    def files(self) -> list[str]:
        """Every regular file of the office, as sorted office-relative paths."""
        out = []
        for dirpath, _dirs, names in os.walk(self.root):
            for name in names:
                full = Path(dirpath) / name
                if full.is_file() and not full.is_symlink():
                    out.append(full.relative_to(self.root).as_posix())
        return sorted(out)


NAME_MAX = 255  # bytes of one file or folder name (Linux file systems)
PATH_MAX = 4096  # bytes of a whole path


def _check_lengths(raw: str, parts: tuple[str, ...]) -> None:
    """Refuse a path the file system would refuse as too long, as a bad argument naming the limit."""
    if len(raw.encode("utf-8", "surrogatepass")) > PATH_MAX - 256:  # room for the office's own place
        raise OpError("bad_arguments", f"the path has {len(raw.encode('utf-8', 'surrogatepass')):,} bytes; "
                                       f"a path may have at most {PATH_MAX - 256:,}")
    for part in parts:
        size = len(part.encode("utf-8", "surrogatepass"))
        if size > NAME_MAX:
            raise OpError("bad_arguments", f"the name '{part[:40]}…' has {size:,} bytes; a file or folder name "
                                           f"may have at most {NAME_MAX}")


def _safe_name(user: str) -> str:
    """A user identifier usable as one path component: an email address in lower case, or a
    person's name as written (OfficeBench's offices name mailboxes and calendars ``Bob``)."""
    name = (user or "").strip()
    if "@" in name:
        name = name.lower()
    if not name or "/" in name or "\x00" in name or name in (".", ".."):
        raise OpError("bad_arguments", f"'{user}' is not a valid user")
    _check_lengths(name + ".ics", (name + ".ics",))  # a mailbox folder or a calendar file is named by it
    return name


def own_files(root: str | os.PathLike) -> int:
    """Give the office at ``root`` a private copy of every file it shares with its template (hard links
    of a linked office), before anything that may write a file in place (a shell command, a program):
    its changes must stay in the session. Returns how many files were copied."""
    copied = 0
    base = Path(root)
    for dirpath, _dirnames, filenames in os.walk(str(root)):  # os.walk does not enter linked folders
        for name in filenames:
            rel = (Path(dirpath) / name).relative_to(base).as_posix()
            try:
                copied += safefs.copy_out_of_link(base, rel)  # opened once, no link followed, fd checked
            except (FileNotFoundError, safefs.LinkRefused):
                continue
    return copied
