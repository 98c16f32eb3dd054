"""Response bodies as JSON bytes: orjson, with parts that repeat from response to response encoded once.

A response that carries the tools and both prompts (some 30 kB in ``all_operations`` mode) sends
what changes only with the current app, so ``Encoded`` keeps them encoded beside their value. The
standard library's encoder takes over for what orjson refuses (an integer beyond 64 bits), with the
same output otherwise: dates, dataclasses and other non-JSON values become their ``str``. Text that is
not Unicode (a lone surrogate: a file name of undecodable bytes, say) goes out as U+FFFD, so a body
can always be encoded, whatever a session holds (server/textcheck.py).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from officesim.server.textcheck import replace_lone_surrogates

_OPTIONS = (orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
            | orjson.OPT_PASSTHROUGH_SUBCLASS)


class Encoded:
    """A JSON value and its encoding, made once and put into many bodies."""

    __slots__ = ("value", "data", "fragment")

    def __init__(self, value: Any):
        self.value = value
        self.data = dumps(value)
        self.fragment = orjson.Fragment(self.data)


def _fast_default(value: Any) -> Any:
    if isinstance(value, Encoded):
        return value.fragment
    return str(value)


def _plain_default(value: Any) -> Any:
    if isinstance(value, Encoded):
        return value.value
    return str(value)


def dumps(content: Any) -> bytes:
    """``content`` as compact UTF-8 JSON."""
    try:
        return orjson.dumps(content, default=_fast_default, option=_OPTIONS)
    except (orjson.JSONEncodeError, TypeError):
        text = json.dumps(content, ensure_ascii=False, separators=(",", ":"), default=_plain_default)
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:  # only lone surrogates cannot be encoded; in JSON they sit inside strings
            return replace_lone_surrogates(text).encode("utf-8")
