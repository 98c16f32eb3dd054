"""A task's reference states kept on disk beside its template: built once per machine, not once per process.

Grading an episode compares the agent's office with the task's initial office and the office its gold
solution makes, and reads what the agent wrote against every value the initial office states. For a
lived-in world of a thousand files that is the expensive part of a first finish (measured on a 2-core
machine: parsing the template 8 s, replaying the gold 4 s, reading every value of the office 11 s),
and every new server process (``serve``, each private server of ``eval``) paid it again. Here each is
stored as a pickle under ``<cache root>/refs/``, named by a digest of everything it depends on: the
template (its cache key names its content), the task's own fields (gold, answer, checks), and the
source of the code that computes it (apps, testbed, evaluators, the session). A change to any of
them makes another name; an old file is simply never read again (``prune`` removes the oldest past a
byte budget).

Pickles execute code when loaded, so a file is loaded only from a folder this user owns that nobody else
may write to (checked on the open descriptors), and is written atomically (``mkstemp`` + rename).
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import stat
import tempfile
import threading
from pathlib import Path
from typing import Any, Callable, TypeVar

from officesim.testbed import pickles

T = TypeVar("T")

_PACKAGE = Path(__file__).resolve().parent.parent  # the officesim package root
_CODE_DIRS = ("apps", "testbed", "evaluators", "server", "tasks")
MAX_BYTES = int(float(os.environ.get("OFFICESIM_REFSTORE_MB") or 2048)) << 20

_code: str | None = None
_lock = threading.Lock()


def code_version() -> str:
    """A digest of the Python source that computes reference states (once per process)."""
    global _code
    if _code is None:
        h = hashlib.sha256()
        for folder in _CODE_DIRS:
            base = _PACKAGE / folder
            for path in sorted(base.rglob("*.py")) if base.is_dir() else []:
                if "suite" in path.parts or "hard" in path.parts:
                    continue  # built task data, not code
                h.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
        _code = h.hexdigest()[:16]
    return _code


def task_digest(task: Any, template: Path, *extra: str) -> str:
    """The name of a task's reference states: its template, its fields, the code, and ``extra``."""
    fields = task.model_dump(mode="json", exclude={"source_dir"})
    h = hashlib.sha256(json.dumps(fields, sort_keys=True, default=str).encode())
    h.update(f"\0{Path(template).name}\0{code_version()}\0{chr(0).join(extra)}".encode())
    return h.hexdigest()[:32]


def _folder() -> Path | None:
    """``<cache root>/refs``, made private; None when it is not ours alone (then nothing is stored)."""
    from officesim.testbed.materialise import cache_root

    folder = cache_root() / "refs"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        for place in (folder.parent, folder):
            fd = os.open(place, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
            try:
                info = os.fstat(fd)
            finally:
                os.close(fd)
            if info.st_uid != os.geteuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                return None
    except OSError:
        return None
    return folder


def load(kind: str, digest: str) -> Any | None:
    """The stored value, or None when there is none (or it cannot be trusted or read)."""
    folder = _folder()
    if folder is None:
        return None
    try:
        fd = os.open(folder / f"{kind}-{digest}.pickle", os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if info.st_uid != os.geteuid() or not stat.S_ISREG(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return None
        with os.fdopen(os.dup(fd), "rb") as handle:
            return pickles.load(handle, kept=True)
    except Exception:  # a truncated or stale file is computed again
        return None
    finally:
        os.close(fd)


def stored_size(kind: str, digest: str) -> int | None:
    """The bytes of the stored pickle of ``kind`` for ``digest`` (one ``stat``), None when there is none:
    what a cache holding the value weighs it by, without walking the value."""
    folder = _folder()
    if folder is None:
        return None
    try:
        return os.stat(folder / f"{kind}-{digest}.pickle", follow_symlinks=False).st_size
    except OSError:
        return None


def store(kind: str, digest: str, value: Any) -> None:
    """Keep ``value`` (a failure to write costs only the next start's time)."""
    folder = _folder()
    if folder is None:
        return
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{kind}-", dir=folder)
        with os.fdopen(fd, "wb") as out:
            pickle.dump(value, out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, folder / f"{kind}-{digest}.pickle")
    except Exception:
        try:
            os.unlink(tmp)
        except (OSError, UnboundLocalError):
            pass
        return
    try:
        prune(folder)
    except OSError:  # a cache that cannot be pruned now is pruned by the next store
        pass


def cached(kind: str, digest: str, compute: Callable[[], T]) -> T:
    """The stored value of ``kind`` for ``digest``, else ``compute()`` stored."""
    hit = load(kind, digest)
    if hit is not None:
        return hit
    value = compute()
    store(kind, digest, value)
    return value


def prune(folder: Path | None = None, budget: int | None = None) -> int:
    """Remove the least recently used files past the byte budget; returns how many were removed."""
    folder = folder or _folder()
    if folder is None:
        return 0
    budget = MAX_BYTES if budget is None else budget
    with _lock:
        entries = []
        try:
            listing = list(os.scandir(folder))
        except OSError:
            return 0
        for entry in listing:
            try:  # another process may prune the same folder: a file gone since the listing is skipped
                if entry.name.endswith(".pickle") and entry.is_file(follow_symlinks=False):
                    info = entry.stat(follow_symlinks=False)
                    entries.append((max(info.st_atime, info.st_mtime), info.st_size, entry.name))
            except OSError:
                continue
        total = sum(size for _t, size, _n in entries)
        removed = 0
        for _t, size, name in sorted(entries):
            if total <= budget:
                break
            try:
                (folder / name).unlink()
            except OSError:
                continue
            total -= size
            removed += 1
        return removed
