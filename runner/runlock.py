"""One run per run directory: ``eval`` holds an exclusive lock on its ``--out`` while it runs.

Two runs on one directory (two ``--resume`` of the same interrupted run, say) would both run the
remaining episodes and write duplicate records. The lock is ``flock`` on ``<out>/.officesim.lock``,
which the kernel releases when the holder ends however it ends (``kill -9`` included), so a stale
lock never blocks anybody. The file names the holder (pid, host, start time), so a second run can say
who is running; it refuses at once, or with ``wait`` waits until the first has finished.
Re-entrant within a process (the CLI takes it before ``--overwrite`` clears the directory, and
``run_eval`` takes it again).
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

LOCK_NAME = ".officesim.lock"

_held: dict[Path, int] = {}  # directory -> how many times this process holds it
_held_lock = threading.Lock()


class RunDirBusy(Exception):
    """Another process is running on the directory."""


def holder(out: Path) -> dict:
    """What the lock file says about its holder ({} when unreadable)."""
    try:
        return json.loads((Path(out) / LOCK_NAME).read_text() or "{}")
    except (OSError, ValueError):
        return {}


def _describe(info: dict) -> str:
    if not info.get("pid"):
        return "another officesim process"
    where = f" on {info['host']}" if info.get("host") and info["host"] != socket.gethostname() else ""
    since = f", running since {info['started']}" if info.get("started") else ""
    return f"officesim eval (pid {info['pid']}{where}{since})"


@contextmanager
def run_dir_lock(out: Path, wait: bool = False, on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the run directory ``out`` (created if missing) for the block; RunDirBusy if another
    process holds it, unless ``wait``, which waits for it (calling ``on_wait`` once with why)."""
    out = Path(out).resolve()
    with _held_lock:
        if out in _held:
            _held[out] += 1
            reentered = True
        else:
            reentered = False
    if reentered:
        try:
            yield
        finally:
            with _held_lock:
                _held[out] -= 1
        return
    out.mkdir(parents=True, exist_ok=True)
    fd = os.open(out / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            message = f"{out} is in use by {_describe(holder(out))}"
            if not wait:
                raise RunDirBusy(f"{message}; wait for it to finish (or pass --wait), or choose another --out") from None
            if on_wait:
                on_wait(f"{message}; waiting for it to finish")
            fcntl.flock(fd, fcntl.LOCK_EX)
        info = {"pid": os.getpid(), "host": socket.gethostname(), "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(info) + "\n").encode(), 0)
        with _held_lock:
            _held[out] = 1
        try:
            yield
        finally:
            with _held_lock:
                _held.pop(out, None)
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)  # releases the lock
