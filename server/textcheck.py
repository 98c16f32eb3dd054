"""Text that is not Unicode: lone UTF-16 surrogates, found at the boundary and never stored.

JSON may spell a surrogate code point as an escape (``"\\ud800"``), and Python's ``json`` turns an
unpaired one into a ``str`` that cannot be encoded as UTF-8: stored in a session's history it would
make every later answer that carries the history fail. The HTTP routes (server/routes/common.py) and
the MCP endpoint (server/mcp.py) refuse such requests with a message naming where the bad text is;
what goes out (``replace_lone_surrogates``) never carries one, whatever an operation produced (a file
name of undecodable bytes is a surrogate-escaped ``str`` in Python).
"""

from __future__ import annotations

import re
from typing import Any

LONE_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"
_KEY_SHOWN = 60  # characters of a key shown in a location


def _bad(text: str) -> int | None:
    """The index of the first lone surrogate in ``text``, or None (encoding is the fast scan: only a
    surrogate stops UTF-8)."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def _segment(key: object) -> str:
    if isinstance(key, int):
        return f"[{key}]"
    shown = str(key) if len(str(key)) <= _KEY_SHOWN else str(key)[:_KEY_SHOWN] + "..."
    return f".{shown}" if shown.isidentifier() else f"[{shown!r}]"


def _location(where: str, node: tuple | None) -> str:
    """The readable path of a node of the walk: ``where`` then its keys and indexes."""
    segments: list[str] = []
    while node is not None:
        node, key = node
        segments.append(_segment(key))
    text = where + "".join(reversed(segments))
    return text[1:] if text.startswith(".") else text


def lone_surrogate(value: Any, where: str = "") -> str | None:
    """Where in ``value`` (a JSON value: text, numbers, lists, objects) the first lone surrogate is,
    as a readable location with the code point (``"args.file_path: \\ud800 at character 4"``); None
    when every text and every key is valid Unicode. Walks iteratively, so nesting depth costs no
    recursion, and spells a location only for what it found."""
    stack: list[tuple[Any, tuple | None]] = [(value, None)]
    while stack:
        item, node = stack.pop()
        if isinstance(item, str):
            found = _bad(item)
            if found is not None:
                return f"{_location(where, node) or 'the text'}: \\u{ord(item[found]):04x} at character {found + 1}"
        elif isinstance(item, dict):
            for key, sub in reversed(item.items()):
                found = _bad(key) if isinstance(key, str) else None
                if found is not None:
                    return (f"a key of {_location(where, node) or 'the object'}: \\u{ord(key[found]):04x} at "
                            f"character {found + 1}")
                if isinstance(sub, (str, dict, list, tuple)):
                    stack.append((sub, (node, key)))
        elif isinstance(item, (list, tuple)):
            for index in range(len(item) - 1, -1, -1):
                sub = item[index]
                if isinstance(sub, (str, dict, list, tuple)):
                    stack.append((sub, (node, index)))
    return None


def may_hold_lone_surrogate(body: bytes) -> bool:
    """False when the JSON ``body`` cannot decode to a lone surrogate, so it need not be walked: UTF-8
    with neither a ``\\u`` escape nor a surrogate's three bytes (Python's ``json`` reads UTF-8 with
    surrogatepass). A UTF-16 or UTF-32 body (a byte-order mark or a NUL in its first four bytes, as
    ``json`` detects them) is always walked."""
    if body[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in body[:4]:
        return True
    return b"\\u" in body or b"\xed" in body


def bad_unicode_message(location: str) -> str:
    """The message of a refused request: where the bad text is and what to send instead."""
    return (f"bad unicode in {location}: a lone UTF-16 surrogate is not text; send valid Unicode (a character "
            f"beyond U+FFFF as its surrogate pair in one escape sequence, or as UTF-8)")


def replace_lone_surrogates(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, so it encodes as UTF-8."""
    return text if text.isascii() else LONE_SURROGATE.sub(REPLACEMENT, text)


def clean(value: Any) -> Any:
    """``value`` (a JSON value) with every lone surrogate in its texts and keys replaced by U+FFFD;
    values without one come back as they are."""
    if isinstance(value, str):
        return replace_lone_surrogates(value)
    if isinstance(value, dict):
        return {clean(k): clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value
