"""The office diff: what changed between two parsed offices, item by item, for people to read.

Reports show it as what an agent did (``changes`` in the record). Judging those changes against
the gold solution's office is grading's job (evaluators/outcome.py). Everything here is a pure
function over parsed states (testbed/parse.py). Event UIDs, DTSTAMPs, Message-ID and Date headers
are not changes.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable

State = dict[str, dict]


@dataclass(frozen=True)
class Change:
    """One change: a whole file added/removed/modified, or one item (cell, paragraph, event) of it."""

    path: str
    action: str  # "added" | "removed" | "modified"
    item: str | None = None  # e.g. "sheet Budget: B3", "paragraph 2", "event 'Standup'"
    detail: str | None = None  # e.g. "1200 -> 1300", "added", "start 09:30 -> 10:00"
    before: Any = None
    after: Any = None

    def describe(self) -> str:
        """The item and what happened to it, without the path."""
        return " ".join(x for x in (self.item, self.detail) if x)

    def __str__(self) -> str:
        inner = self.describe()
        return f"{self.path}: {self.action}" + (f" ({inner})" if inner else "")


# ---- comparison ignoring what legitimately varies ------------------------------------------------
def _event_key(ev: dict) -> tuple:
    """An event as it is compared and sorted: every field as text, so that two events of one title and
    time, one with a place and one without, sort (None beside a string did not: the grading crashed)."""
    return (str(ev.get("summary") or ""), str(ev.get("start") or ""), str(ev.get("end") or ""),
            bool(ev.get("all_day")), str(ev.get("location") or ""), str(ev.get("description") or ""),
            tuple(sorted(str(a).lower() for a in ev.get("attendees") or [])))


def comparable(entry: dict | None) -> Any:
    """The part of an entry that matters when deciding whether a file changed."""
    if entry is None:
        return None
    kind = entry.get("kind")
    if kind == "eml":
        return {k: v for k, v in entry.items() if k not in ("message_id", "date")}
    if kind == "ics":
        return ("ics", entry.get("user"), sorted(_event_key(e) for e in entry.get("events", [])))
    return entry


def same(a: dict | None, b: dict | None) -> bool:
    return comparable(a) == comparable(b)


# ---- formatting ----------------------------------------------------------------------------------
def _show(value: Any, limit: int = 40) -> str:
    if value is None:
        return "empty"
    if isinstance(value, str):
        text = value if len(value) <= limit else value[: limit - 3] + "..."
        return repr(text)
    return str(value)


def _show_pair(old: Any, new: Any, limit: int = 40) -> str:
    """``old -> new``; long texts that share a beginning are shown from just before they differ."""
    if isinstance(old, str) and isinstance(new, str) and max(len(old), len(new)) > limit:
        common = 0
        for x, y in zip(old, new):
            if x != y:
                break
            common += 1
        cut = max(0, common - 10)
        if cut > 0:
            return f"{_show('...' + old[cut:], limit)} -> {_show('...' + new[cut:], limit)}"
    return f"{_show(old, limit)} -> {_show(new, limit)}"


def _cell_name(row: int, col: int) -> str:
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(65 + rem) + letters
    return f"{letters}{row + 1}"


def _message_summary(entry: dict) -> str:
    to = ", ".join(entry.get("to") or []) or "nobody"
    cc = entry.get("cc") or []
    extra = f" cc {', '.join(cc)}" if cc else ""
    return f"from {entry.get('from') or '?'} to {to}{extra}: {_show(entry.get('subject'), 60)}"


# ---- item-level changes per kind -----------------------------------------------------------------
def cell_changes(before: dict | None, after: dict | None) -> dict[tuple[str, int, int], tuple[Any, Any]]:
    """(sheet, row, col) -> (old, new) for every cell whose value differs (0-based indices)."""
    b_sheets = (before or {}).get("sheets", {})
    a_sheets = (after or {}).get("sheets", {})
    out: dict[tuple[str, int, int], tuple[Any, Any]] = {}
    for name in list(b_sheets) + [s for s in a_sheets if s not in b_sheets]:
        b_rows, a_rows = b_sheets.get(name, []), a_sheets.get(name, [])
        for r in range(max(len(b_rows), len(a_rows))):
            b_row = b_rows[r] if r < len(b_rows) else []
            a_row = a_rows[r] if r < len(a_rows) else []
            for c in range(max(len(b_row), len(a_row))):
                old = b_row[c] if c < len(b_row) else None
                new = a_row[c] if c < len(a_row) else None
                if old != new or type(old) is not type(new) and not _numeric_equal(old, new):
                    out[(name, r, c)] = (old, new)
    return out


def _numeric_equal(a: Any, b: Any) -> bool:
    return (isinstance(a, (int, float)) and isinstance(b, (int, float))
            and not isinstance(a, bool) and not isinstance(b, bool) and a == b)


def _xlsx_changes(path: str, b: dict | None, a: dict | None) -> list[Change]:
    b_sheets, a_sheets = (b or {}).get("sheets", {}), (a or {}).get("sheets", {})
    out = [Change(path, "modified", f"sheet {s}", "added") for s in a_sheets if s not in b_sheets]
    out += [Change(path, "modified", f"sheet {s}", "removed") for s in b_sheets if s not in a_sheets]
    for (sheet, r, c), (old, new) in cell_changes(b, a).items():
        if sheet in b_sheets and sheet in a_sheets:
            out.append(Change(path, "modified", f"sheet {sheet}: {_cell_name(r, c)}",
                              _show_pair(old, new), old, new))
    if not out and (b or {}).get("sheet_order") != (a or {}).get("sheet_order"):
        out.append(Change(path, "modified", "sheet order", f"{b.get('sheet_order')} -> {a.get('sheet_order')}"))
    return out


def _docx_changes(path: str, b: dict, a: dict) -> list[Change]:
    out: list[Change] = []
    old, new = b.get("paragraphs", []), a.get("paragraphs", [])
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        pairs = min(i2 - i1, j2 - j1) if op == "replace" else 0
        for k in range(pairs):
            out.append(Change(path, "modified", f"paragraph {j1 + k + 1}",
                              _show_pair(old[i1 + k], new[j1 + k]), old[i1 + k], new[j1 + k]))
        for i in range(i1 + pairs, i2):
            out.append(Change(path, "modified", f"paragraph {i + 1}", f"removed: {_show(old[i])}", old[i], None))
        for j in range(j1 + pairs, j2):
            out.append(Change(path, "modified", f"paragraph {j + 1}", f"added: {_show(new[j])}", None, new[j]))
    b_tables, a_tables = b.get("tables", []), a.get("tables", [])
    for t in range(max(len(b_tables), len(a_tables))):
        bt = b_tables[t] if t < len(b_tables) else None
        at = a_tables[t] if t < len(a_tables) else None
        if bt == at:
            continue
        if bt is None or at is None:
            out.append(Change(path, "modified", f"table {t + 1}", "added" if bt is None else "removed"))
        elif len(bt) != len(at) or any(len(x) != len(y) for x, y in zip(bt, at)):
            out.append(Change(path, "modified", f"table {t + 1}",
                              f"reshaped {len(bt)}x{len(bt[0]) if bt else 0} -> {len(at)}x{len(at[0]) if at else 0}"))
        else:
            for r, (brow, arow) in enumerate(zip(bt, at)):
                for c, (x, y) in enumerate(zip(brow, arow)):
                    if x != y:
                        out.append(Change(path, "modified", f"table {t + 1} cell ({r + 1}, {c + 1})",
                                          _show_pair(x, y), x, y))
    return out


def event_changes(b_events: Iterable[dict], a_events: Iterable[dict]) -> list[tuple[str, str, str]]:
    """(summary casefolded, item, detail) for events added, removed or changed (UIDs ignored).

    Events are compared by content; a removed and an added event with the same summary are
    reported together as one changed event.
    """
    b_list, a_list = list(b_events), list(a_events)
    b_keys, a_keys = Counter(map(_event_key, b_list)), Counter(map(_event_key, a_list))
    removed = list((b_keys - a_keys).elements())
    added = list((a_keys - b_keys).elements())
    out: list[tuple[str, str, str]] = []
    fields = ("summary", "start", "end", "all_day", "location", "description", "attendees")
    for old in removed:
        match = next((n for n in added if n[0].casefold() == old[0].casefold()), None)
        label = f"event {old[0]!r}"
        if match is None:
            out.append((old[0].casefold(), label, f"removed ({old[1]})"))
            continue
        added.remove(match)
        diffs = [f"{f} {_show_pair(x, y)}" for f, x, y in zip(fields, old, match) if x != y]
        out.append((old[0].casefold(), label, "changed: " + ", ".join(diffs)))
    for new in added:
        out.append((new[0].casefold(), f"event {new[0]!r}", f"added ({new[1]})"))
    return out


def _ics_changes(path: str, b: dict | None, a: dict | None) -> list[Change]:
    return [Change(path, "modified", item, detail)
            for _s, item, detail in event_changes((b or {}).get("events", []), (a or {}).get("events", []))]


def _eml_changes(path: str, b: dict, a: dict) -> list[Change]:
    out = []
    for field in ("from", "to", "cc", "subject", "in_reply_to"):
        if b.get(field) != a.get(field):
            out.append(Change(path, "modified", field, _show_pair(b.get(field), a.get(field))))
    if b.get("body") != a.get("body"):
        out.append(Change(path, "modified", "body", "changed"))
    if b.get("attachments") != a.get("attachments"):
        names = lambda e: [x.get("filename") for x in e.get("attachments", [])]  # noqa: E731
        out.append(Change(path, "modified", "attachments", f"{names(b)} -> {names(a)}"))
    return out


def _pdf_changes(path: str, b: dict, a: dict) -> list[Change]:
    bp, ap = b.get("pages", []), a.get("pages", [])
    if len(bp) != len(ap):
        return [Change(path, "modified", "pages", f"{len(bp)} -> {len(ap)}")]
    return [Change(path, "modified", f"page {i + 1}", "text changed") for i, (x, y) in enumerate(zip(bp, ap)) if x != y]


def _text_changes(path: str, b: dict, a: dict) -> list[Change]:
    old, new = b.get("text", "").splitlines(), a.get("text", "").splitlines()
    plus = minus = 0
    for line in difflib.ndiff(old, new):
        plus += line.startswith("+ ")
        minus += line.startswith("- ")
    return [Change(path, "modified", "text", f"+{plus}/-{minus} lines")]


def _modified(path: str, b: dict, a: dict) -> list[Change]:
    kind = b.get("kind")
    if kind != a.get("kind"):
        why = f": {a.get('error')}" if a.get("kind") == "corrupt" else ""
        return [Change(path, "modified", None, f"{kind} -> {a.get('kind')}{why}")]
    handler = {"xlsx": _xlsx_changes, "docx": _docx_changes, "ics": _ics_changes, "eml": _eml_changes,
               "pdf": _pdf_changes, "text": _text_changes}.get(kind)
    changes = handler(path, b, a) if handler else []
    if not changes:
        if kind == "image" and (b.get("width"), b.get("height")) != (a.get("width"), a.get("height")):
            return [Change(path, "modified", "image", f"{b.get('width')}x{b.get('height')} -> {a.get('width')}x{a.get('height')}")]
        return [Change(path, "modified", None, "content changed")]
    return changes


def _added(path: str, a: dict) -> Change:
    kind = a.get("kind")
    if kind == "eml":
        return Change(path, "added", "message", _message_summary(a))
    if kind == "ics":
        return Change(path, "added", None, f"{len(a.get('events', []))} events")
    return Change(path, "added", None, None if kind != "corrupt" else f"corrupt: {a.get('error')}")


def file_changes(path: str, before: dict | None, after: dict | None) -> list[Change]:
    """The changes of one file between two parsed entries (None = the file does not exist)."""
    if same(before, after):
        return []
    if before is None:
        return [_added(path, after)]
    if after is None:
        detail = _message_summary(before) if before.get("kind") == "eml" else None
        return [Change(path, "removed", "message" if detail else None, detail)]
    return _modified(path, before, after)


def diff_states(before: State, after: State) -> list[Change]:
    """Every change from ``before`` to ``after``, item-level where the format allows."""
    out: list[Change] = []
    for path in sorted(set(before) | set(after)):
        out.extend(file_changes(path, before.get(path), after.get(path)))
    return out
