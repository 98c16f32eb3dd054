"""Loading large pickles with the cyclic garbage collector paused.

A lived-in office's reference states are pickles of ~100,000 small objects (claims, entities, parsed
cells). Unpickling them allocates nothing but new containers, so the collector's generations fill and it
runs again and again over a heap that only grows: measured on a 2-core machine, loading a 5.5 MB record
index took 1.3-1.5 s with the collector and 0.27-0.39 s without it. No cycle the load makes can become
garbage while it runs, and cycles other threads drop meanwhile are collected later, so nothing is lost by
pausing it; it is resumed (if it was on) as soon as the last load in the process ends.

Resumed, the collector would still walk every loaded object once, on the next allocation (~0.3-0.7 s for
a lived-in task's states). A process that keeps what it loads for many requests and is itself replaced
past a memory budget (a worker, server/worker.py) calls ``freeze_loaded()``: after a load of states it
keeps (``kept=True``: the store's reference states, a task's references in a worker), what is in memory
is left out of every later collection (``gc.freeze``), as a pre-forking server does with what it
imported. It is still freed when no longer referenced; only garbage cycles among it would outlive their
use, and a worker is replaced past its budget anyway. Loads of passing values (a cached file's parse for
one read) do not freeze: the cycles an operation leaves behind would then outlive it.
"""

from __future__ import annotations

import gc
import pickle
import threading
from contextlib import contextmanager
from typing import IO, Any, Iterator

_lock = threading.Lock()
_paused = 0  # loads in progress in this process (threads share the one collector)
_was_enabled = False
_freeze = False  # freeze_loaded(): objects in memory when a kept load ends are left out of later collections
_kept = False  # a kept load ran in the current paused window


def freeze_loaded() -> None:
    """From now on in this process, what a load leaves in memory is moved out of the collector's reach."""
    global _freeze
    _freeze = True


@contextmanager
def collector_paused(kept: bool = False) -> Iterator[None]:
    """The cyclic collector off for the block (nested and concurrent blocks resume it once, at the end);
    ``kept``: the block loads states the process keeps (frozen at the end after ``freeze_loaded()``)."""
    global _paused, _was_enabled, _kept
    with _lock:
        if _paused == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _paused += 1
        _kept = _kept or kept
    try:
        yield
    finally:
        with _lock:
            _paused -= 1
            if _paused == 0:
                if _freeze and _kept:
                    gc.freeze()
                _kept = False
                if _was_enabled:
                    gc.enable()


def loads(data: bytes, kept: bool = False) -> Any:
    """``pickle.loads`` with the collector paused (``kept``: see ``collector_paused``)."""
    with collector_paused(kept):
        return pickle.loads(data)


def load(handle: IO[bytes], kept: bool = False) -> Any:
    """``pickle.load`` with the collector paused (``kept``: see ``collector_paused``)."""
    with collector_paused(kept):
        return pickle.load(handle)
