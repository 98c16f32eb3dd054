"""What reading a file produced, cached by the file's content (sha256), for read-only operations.

Agents read the same unchanged files again and again: every session of a task starts from the same
template, and the evaluation's gold replay repeats the reads. Parsing a small .docx or .xlsx costs
10-30 ms of CPU (python-docx and openpyxl build the whole package), hashing it a few microseconds.
Values are stored pickled and every hit returns a fresh copy, so callers may mutate what they get.
A file whose content changed has another digest, so it can never be served a stale value.
"""

from __future__ import annotations

import hashlib
import pickle
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Callable, TypeVar

from officesim.testbed.guards import read_bounded

T = TypeVar("T")

_LIMIT = 1024
_BYTES = 64 << 20  # pickled values kept in all (each worker process has its own cache)
_cache: "OrderedDict[tuple, bytes]" = OrderedDict()
_size = 0
_lock = threading.Lock()


def by_content(path: Path, key: tuple, compute: Callable[[], T]) -> T:
    """``compute()`` (which reads ``path``), or a copy of its earlier result for the same bytes and key."""
    try:
        digest = hashlib.sha256(read_bounded(path, Path(path).name)).hexdigest()  # TooLarge past the file limit
    except OSError:
        return compute()  # unreadable: let the operation report it as it always does
    full = (digest, *key)
    with _lock:
        blob = _cache.get(full)
        if blob is not None:
            _cache.move_to_end(full)
    if blob is not None:
        return pickle.loads(blob)
    value = compute()
    try:
        blob = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # an exotic value (e.g. an openpyxl object) is simply not cached
        return value
    if len(blob) > _BYTES // 8:  # a huge value would push everything else out
        return value
    global _size
    with _lock:
        if full not in _cache:
            _cache[full] = blob
            _size += len(blob)
        while len(_cache) > _LIMIT or _size > _BYTES:
            _size -= len(_cache.popitem(last=False)[1])
    return value


def clear() -> None:
    global _size
    with _lock:
        _cache.clear()
        _size = 0
