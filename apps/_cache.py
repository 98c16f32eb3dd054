"""What reading a file produced, cached by the file's content (sha256), for read-only operations.

Agents read the same unchanged files again and again: every session of a task starts from the same
template, and the evaluation's gold replay repeats the reads. Parsing a small .docx or .xlsx costs
10-30 ms of CPU (python-docx and openpyxl build the whole package), hashing it a few microseconds.
Values are stored pickled and every hit returns a fresh copy, so callers may mutate what they get.
A file whose content changed has another digest, so it can never be served a stale value.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import threading
from collections import OrderedDict
from typing import Callable, TypeVar

from officesim.testbed import pickles

T = TypeVar("T")

# Sized by bytes only: a lived-in inbox alone is 600+ entries, so a count of entries let two worlds'
# inboxes push each other out (8.4 s a listing instead of 0.57 s). Override: OFFICESIM_CONTENT_CACHE_MB.
_BYTES = int(float(os.environ.get("OFFICESIM_CONTENT_CACHE_MB") or 128)) << 20  # pickled values, per process
_cache: "OrderedDict[tuple, bytes]" = OrderedDict()
_size = 0
_lock = threading.Lock()


def by_content(data: bytes, key: tuple, compute: Callable[[], T]) -> T:
    """``compute()`` (which parses ``data``, the bytes the operation read once), or a copy of its
    earlier result for the same bytes and key. The key is the digest of the very bytes parsed: no
    second read of the file can make them differ."""
    full = (hashlib.sha256(data).hexdigest(), *key)
    with _lock:
        blob = _cache.get(full)
        if blob is not None:
            _cache.move_to_end(full)
    if blob is not None:
        return pickles.loads(blob)
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
        while _size > _BYTES:
            _size -= len(_cache.popitem(last=False)[1])
    return value


def clear() -> None:
    global _size
    with _lock:
        _cache.clear()
        _size = 0
