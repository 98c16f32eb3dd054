"""Open, read and write files under a root without ever following a link: the one way into an office.

Files in an office are agent-controlled: a shell command or a program may plant a symbolic link under
any name at any moment, including the name of a file an operation is about to write or a folder on
its way. So nothing here checks a path and then opens it again. A file is opened **once**, relative to
the root's descriptor, with the kernel refusing every link on the way:

- ``openat2(2)`` with ``RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS`` (Linux >= 5.6);
- where the kernel or a seccomp profile refuses that call, a walk of directory descriptors, each
  component opened with ``O_NOFOLLOW`` relative to the one before.

What is then checked (a regular file, its size) is the open descriptor (``fstat``), never the path.
A write goes to a temporary file made by ``mkstemp`` in the target's directory, pinned by that
directory's descriptor (``/proc/self/fd/N``), and is renamed onto the target name relative to the same
descriptor: a link planted at the final name is replaced, never followed, and a file shared with a
template by a hard link keeps its bytes (the name gets a new inode).

Errors are ``OSError``s; :class:`LinkRefused` (``ELOOP``) and :class:`NotRegular` say why in words.
``testbed/office.py`` turns them into the agent-facing ``OpError``.
"""

from __future__ import annotations

import ctypes
import errno
import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import Iterator

RESOLVE_NO_MAGICLINKS = 0x02
RESOLVE_NO_SYMLINKS = 0x04
RESOLVE_BENEATH = 0x08
_RESOLVE = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS
_SYS_OPENAT2 = 437  # the same number on every architecture Linux added it to (5.6)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class LinkRefused(OSError):
    """A component of the path is a symbolic link (or leads out of the root)."""


class NotRegular(OSError):
    """The name is a folder, a device, a pipe or a socket where a regular file is expected."""


class _OpenHow(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64)]


_libc = None
_openat2_works: bool | None = None  # None: not tried yet


def _syscall():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
        _libc.syscall.restype = ctypes.c_long
    return _libc.syscall


def has_openat2() -> bool:
    """Whether this kernel (and its seccomp profile) lets us use openat2; tried once per process."""
    global _openat2_works
    if _openat2_works is None:
        try:
            fd = _openat2(os.open("/", os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC), ".", os.O_RDONLY | os.O_DIRECTORY, 0,
                          close_dir=True)
            os.close(fd)
            _openat2_works = True
        except OSError:
            _openat2_works = False
    return _openat2_works


def _openat2(dir_fd: int, rel: str, flags: int, mode: int, close_dir: bool = False) -> int:
    how = _OpenHow(flags | _CLOEXEC, mode if flags & (os.O_CREAT | getattr(os, "O_TMPFILE", 0)) else 0, _RESOLVE)
    try:
        fd = _syscall()(ctypes.c_long(_SYS_OPENAT2), ctypes.c_int(dir_fd), os.fsencode(rel),
                        ctypes.byref(how), ctypes.c_size_t(ctypes.sizeof(how)))
        if fd < 0:
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err), rel)
        return int(fd)
    finally:
        if close_dir:
            os.close(dir_fd)


def _parts(rel: str | os.PathLike) -> list[str]:
    """The components of a path relative to the root; '..' and absolute paths are refused."""
    pure = PurePosixPath(os.fspath(rel))
    if pure.is_absolute():
        raise LinkRefused(errno.EXDEV, "an absolute path where one relative to the office was expected", str(rel))
    parts = [p for p in pure.parts if p not in ("", ".")]
    if ".." in parts:
        raise LinkRefused(errno.EXDEV, "'..' leads out of the office", str(rel))
    return parts


def _refusal(exc: OSError, rel: str, dir_fd: int | None = None, part: str | None = None) -> OSError:
    """The error to raise for a failed open: a link (ELOOP, EXDEV, or ENOTDIR where the component
    is a link, as O_DIRECTORY | O_NOFOLLOW reports one) is a LinkRefused."""
    if exc.errno == errno.ENOTDIR and dir_fd is not None and part is not None:
        try:
            if stat.S_ISLNK(os.stat(part, dir_fd=dir_fd, follow_symlinks=False).st_mode):
                exc = OSError(errno.ELOOP, "a link")
        except OSError:
            pass
    if exc.errno in (errno.ELOOP, errno.EXDEV):
        return LinkRefused(exc.errno, "the path goes through a symbolic link, which the office never follows", rel)
    if exc.errno == errno.ENOTDIR:
        return FileNotFoundError(errno.ENOENT, "a folder on the way is not a folder", rel)
    return exc


def open_root(root: str | os.PathLike) -> int:
    """A descriptor of the root folder itself (the office's own place is trusted: it is ours)."""
    return os.open(os.fspath(root), os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)


def open_beneath(root: str | os.PathLike | int, rel: str | os.PathLike, flags: int = os.O_RDONLY,
                 mode: int = 0o644) -> int:
    """Open ``rel`` under ``root`` (a path or a folder descriptor) following no link at any component.

    ``flags`` are ``os.open``'s; ``O_NOFOLLOW`` and ``O_CLOEXEC`` are always added. Returns the descriptor.
    """
    parts = _parts(rel)
    text = "/".join(parts) or "."
    own_root = not isinstance(root, int)
    root_fd = open_root(root) if own_root else root
    try:
        if not parts:  # the root itself: a folder, which a reader's descriptor check refuses as a file
            if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
                raise NotRegular(errno.EISDIR, "the office's root is a folder", text)
            return os.dup(root_fd)
        if has_openat2():
            try:
                return _openat2(root_fd, text, flags | os.O_NOFOLLOW, mode)
            except OSError as exc:
                raise _refusal(exc, text) from None
        return _walk_open(root_fd, parts, flags, mode, text)
    finally:
        if own_root:
            os.close(root_fd)


def _walk_open(root_fd: int, parts: list[str], flags: int, mode: int, text: str) -> int:
    """The fallback: each folder opened with O_NOFOLLOW relative to the one before."""
    current = root_fd
    try:
        for part in parts[:-1]:
            try:
                nxt = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | _CLOEXEC, dir_fd=current)
            except OSError as exc:
                raise _refusal(exc, text, current, part) from None
            if current != root_fd:
                os.close(current)
            current = nxt
        try:
            return os.open(parts[-1], flags | os.O_NOFOLLOW | _CLOEXEC, mode, dir_fd=current)
        except OSError as exc:
            raise _refusal(exc, text) from None
    finally:
        if current != root_fd:
            os.close(current)


def open_dir(root: str | os.PathLike | int, rel: str | os.PathLike, create: bool = False) -> int:
    """A descriptor of the folder ``rel`` under ``root``; with ``create``, missing folders are made
    one at a time, each relative to its parent's descriptor (``mkdirat``), never through a link."""
    parts = _parts(rel)
    own_root = not isinstance(root, int)
    root_fd = open_root(root) if own_root else root
    current = os.dup(root_fd)
    try:
        for part in parts:
            flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | _CLOEXEC
            try:
                nxt = os.open(part, flags, dir_fd=current)
            except FileNotFoundError:
                if not create:
                    raise
                try:
                    os.mkdir(part, 0o755, dir_fd=current)
                except FileExistsError:
                    pass
                try:
                    nxt = os.open(part, flags, dir_fd=current)
                except OSError as exc:
                    raise _refusal(exc, "/".join(parts), current, part) from None
            except OSError as exc:
                raise _refusal(exc, "/".join(parts), current, part) from None
            os.close(current)
            current = nxt
        return current
    except BaseException:
        os.close(current)
        raise
    finally:
        if own_root:
            os.close(root_fd)


def fstat_regular(fd: int, rel: str) -> os.stat_result:
    """The descriptor's status, refusing anything but a regular file."""
    info = os.fstat(fd)
    if stat.S_ISDIR(info.st_mode):
        raise NotRegular(errno.EISDIR, "it is a folder, not a file", rel)
    if not stat.S_ISREG(info.st_mode):
        raise NotRegular(errno.EINVAL, "it is not a regular file (a device, a pipe or a socket)", rel)
    return info


def read_beneath(root: str | os.PathLike | int, rel: str | os.PathLike, limit: int) -> bytes:
    """The bytes of the regular file ``rel`` under ``root``: opened once, checked on the descriptor.

    ``O_NONBLOCK`` so a planted pipe cannot hang the open; a file larger than ``limit`` raises
    ``OSError(EFBIG)`` before anything is read (the caller names the limit)."""
    fd = open_beneath(root, rel, os.O_RDONLY | os.O_NONBLOCK)
    try:
        info = fstat_regular(fd, os.fspath(rel))
        if info.st_size > limit:
            raise OSError(errno.EFBIG, f"the file is {info.st_size} bytes, over the limit of {limit}", os.fspath(rel))
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(limit + 1)
        if len(data) > limit:
            raise OSError(errno.EFBIG, f"the file grew past the limit of {limit} bytes while read", os.fspath(rel))
        return data
    finally:
        os.close(fd)


def stat_beneath(root: str | os.PathLike | int, rel: str | os.PathLike) -> os.stat_result | None:
    """The status of the entry ``rel`` itself (a link is reported as a link, not followed), or None
    when it does not exist. For messages and listings only: never a licence to open the path later."""
    parts = _parts(rel)
    if not parts:
        return os.stat(root) if not isinstance(root, int) else os.fstat(root)
    try:
        folder = open_dir(root, "/".join(parts[:-1]))
    except (FileNotFoundError, NotADirectoryError):
        return None
    try:
        return os.stat(parts[-1], dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return None
    finally:
        os.close(folder)


def _temporary_in(dir_fd: int, suffix: str) -> tuple[int, str]:
    """``mkstemp`` in the folder held by ``dir_fd`` (reached through the descriptor, not its path):
    O_CREAT | O_EXCL with a random name, so no planted name is ever opened. Returns (fd, name)."""
    fd, full = tempfile.mkstemp(prefix=".tmp-", suffix=suffix, dir=f"/proc/self/fd/{dir_fd}")
    return fd, os.path.basename(full)


@contextmanager
def replacing(root: str | os.PathLike | int, rel: str | os.PathLike, mode: int | None = None) -> Iterator:
    """A binary file to write the new content of ``rel`` into; on success it replaces ``rel``
    atomically (rename in the same folder descriptor), on failure it is removed and ``rel`` is untouched.

    Missing folders on the way are created (never through a link). The file keeps the mode of a regular
    file it replaces, else ``mode`` (default 0644)."""
    parts = _parts(rel)
    if not parts:
        raise NotRegular(errno.EISDIR, "the office's root is a folder", ".")
    folder = open_dir(root, "/".join(parts[:-1]), create=True)
    name = parts[-1]
    try:
        try:
            old = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            old = None
        if old is not None and stat.S_ISDIR(old.st_mode):
            raise NotRegular(errno.EISDIR, "it is a folder, not a file", "/".join(parts))
        keep = stat.S_IMODE(old.st_mode) if old is not None and stat.S_ISREG(old.st_mode) else None
        fd, tmp = _temporary_in(folder, Path(name).suffix)
        done = False
        try:
            os.fchmod(fd, keep if keep is not None else (0o644 if mode is None else mode))
            with os.fdopen(fd, "wb") as handle:
                yield handle
            os.rename(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
            done = True
        finally:
            if not done:
                try:
                    os.unlink(tmp, dir_fd=folder)
                except FileNotFoundError:
                    pass
    finally:
        os.close(folder)


def write_beneath(root: str | os.PathLike | int, rel: str | os.PathLike, data: bytes, mode: int | None = None) -> None:
    """Replace (or create) ``rel`` under ``root`` with ``data``, atomically and following no link."""
    with replacing(root, rel, mode) as handle:
        handle.write(data)


def unlink_beneath(root: str | os.PathLike | int, rel: str | os.PathLike) -> None:
    """Remove the entry ``rel`` (a link is removed as a link); its folder is reached without links."""
    parts = _parts(rel)
    folder = open_dir(root, "/".join(parts[:-1]))
    try:
        os.unlink(parts[-1], dir_fd=folder)
    finally:
        os.close(folder)


def copy_out_of_link(root: str | os.PathLike | int, rel: str | os.PathLike) -> bool:
    """Give ``rel`` a private inode if it shares one with another name (a hard link to a template):
    read through its descriptor, written to a temporary beside it, renamed over it. Returns whether
    it copied. A link or anything but a regular file is left alone."""
    try:
        fd = open_beneath(root, rel, os.O_RDONLY | os.O_NONBLOCK)
    except (LinkRefused, FileNotFoundError):
        return False
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_nlink < 2:
            return False
        with replacing(root, rel, stat.S_IMODE(info.st_mode)) as out, os.fdopen(os.dup(fd), "rb") as src:
            while chunk := src.read(1 << 20):
                out.write(chunk)
        return True
    finally:
        os.close(fd)
