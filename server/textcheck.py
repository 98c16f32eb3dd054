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


def _bad(text: str) -> re.Match | None:
    return None if text.isascii() else LONE_SURROGATE.search(text)


def _key(where: str, key: str) -> str:
    shown = key if len(key) <= _KEY_SHOWN else key[:_KEY_SHOWN] + "..."
    if shown.isidentifier():
        return f"{where}.{shown}" if where else shown
    return f"{where}[{shown!r}]"


def lone_surrogate(value: Any, where: str = "") -> str | None:
    """Where in ``value`` (a JSON value: text, numbers, lists, objects) the first lone surrogate is,
    as a readable location with the code point (``"args.file_path: \\ud800 at character 4"``); None
    when every text and every key is valid Unicode. Walks iteratively, so nesting depth costs no
    recursion."""
    stack: list[tuple[str, Any]] = [(where, value)]
    while stack:
        at, item = stack.pop()
        if isinstance(item, str):
            found = _bad(item)
            if found:
                return f"{at or 'the text'}: \\u{ord(found.group()):04x} at character {found.start() + 1}"
        elif isinstance(item, dict):
            for key, sub in reversed(list(item.items())):
                found = _bad(key) if isinstance(key, str) else None
                if found:
                    return (f"a key of {at or 'the object'}: \\u{ord(found.group()):04x} at character "
                            f"{found.start() + 1}")
                stack.append((_key(at, str(key)), sub))
        elif isinstance(item, (list, tuple)):
            for index in range(len(item) - 1, -1, -1):
                stack.append((f"{at}[{index}]", item[index]))
    return None


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
