"""What checks look at: the parsed office (FORMAT §3), the agent's answer, and the task's clock.

The accessors here turn "the file is missing / is not what the check expects / could not be parsed"
into ``CheckError`` with a message that names the file, so every check fails the same clear way.
"""

from __future__ import annotations

import difflib
import posixpath
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

OFFICEBENCH_ROOT = "/testbed/"


class CheckError(Exception):
    """A check cannot look at what it needs (missing file, wrong kind...): the check fails with this message."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class EvalState:
    """The office after the session, as checks see it."""

    files: dict[str, dict] = field(default_factory=dict)
    answer: str | None = None
    timezone: str = "UTC"
    now: datetime | None = None
    instruction: str = ""  # the task's request: figures it states are not candidates of a hedge
    # What closed-world reading of written text compares with (evaluators/claims.py): the initial office,
    # the office the gold solution leaves and its answer, and who the user is. None where unknown (a
    # state built by hand): then only the expected facts, the instruction and the neutral values count.
    before: dict[str, dict] | None = None
    gold: dict[str, dict] | None = None
    gold_answer: str | None = None
    user: str | None = None
    user_name: str | None = None
    people: dict[str, str] = field(default_factory=dict)
    # whether the office's pictures may hold references the grading has not read (a scanned invoice's
    # number): a lived-in world's pictures are receipts whose text it wrote, with none
    pictures_hold_ids: bool = True
    # the on-disk name of the initial office's derived values (testbed/refstore.py): what the grading reads
    # of a lived-in office once per machine (every value it states) is kept there; None: computed here
    reference_key: str | None = None
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)  # derived once per state

    def written(self, path: str) -> bool:
        """Whether the agent wrote the entry at ``path`` (new or changed since the initial office)."""
        if self.before is None:
            return True
        old, new = self.before.get(path), self.files.get(path)
        if old is not None and new is not None and old.get("kind") == new.get("kind") == "image":
            return old.get("sha256") != new.get("sha256") or old.get("digest") != new.get("digest")  # OCR text aside
        return old != new

    @property
    def year(self) -> int | None:
        """The simulated year: a date written without one ("13 April") is read in it."""
        return self.now.year if self.now else None


def office_path(path: str) -> str:
    """An office path in the key form of ``EvalState.files`` (``/testbed/x`` and ``./x`` mean ``x``)."""
    raw = str(path).strip()
    if raw.startswith(OFFICEBENCH_ROOT):
        raw = raw[len(OFFICEBENCH_ROOT):]
    raw = posixpath.normpath(raw.lstrip("/")) if raw else raw
    return "" if raw == "." else raw


def near_names(state: EvalState, path: str) -> str:
    """A hint listing files the author may have meant, for 'not found' messages."""
    folder = posixpath.dirname(path)
    siblings = sorted(p for p in state.files if posixpath.dirname(p) == folder)
    close = difflib.get_close_matches(path, list(state.files), n=3, cutoff=0.85)
    if close:
        return f" (did you mean {', '.join(close)}?)"
    if siblings:
        shown = ", ".join(posixpath.basename(p) for p in siblings[:8])
        more = f" and {len(siblings) - 8} more" if len(siblings) > 8 else ""
        return f" ({folder or 'the office root'} holds: {shown}{more})"
    return f" ({folder}/ is empty or missing)" if folder else ""


def find_entry(state: EvalState, path: str) -> dict | None:
    """The parsed entry at ``path``, or None when there is no such file."""
    return state.files.get(office_path(path))


def get_entry(state: EvalState, path: str, kind: str | tuple[str, ...] | None = None) -> dict:
    """The parsed entry at ``path`` of one of ``kind``; CheckError when missing, corrupt or of another kind."""
    key = office_path(path)
    entry = state.files.get(key)
    if entry is None:
        raise CheckError(f"{key}: file not found{near_names(state, key)}")
    kinds = (kind,) if isinstance(kind, str) else kind
    found = entry.get("kind", "unknown")
    if found == "corrupt":
        wanted = f" as {'/'.join(kinds)}" if kinds else ""
        raise CheckError(f"{key}: the file could not be read{wanted} ({entry.get('error') or 'corrupt file'})")
    if kinds and found not in kinds:
        raise CheckError(f"{key}: is a {found} file, expected {' or '.join(kinds)}")
    return entry


def xlsx_sheet(state: EvalState, path: str, sheet: str | None) -> tuple[str, list[list[Any]]]:
    """(sheet name, rows) of a workbook sheet; ``None`` means the first sheet."""
    entry = get_entry(state, path, "xlsx")
    sheets = entry.get("sheets") or {}
    order = entry.get("sheet_order") or list(sheets)
    if sheet is None:
        if not order:
            raise CheckError(f"{office_path(path)}: the workbook has no sheets")
        sheet = order[0]
    if sheet not in sheets:
        raise CheckError(f"{office_path(path)}: {missing_sheet(sheet, order)}")
    return sheet, sheets[sheet] or []


def missing_sheet(sheet: str, order: list[str]) -> str:
    """'no sheet X (sheets: ...)', pointing out a name that differs only in case or spaces."""
    near = [s for s in order if s.strip().casefold() == sheet.strip().casefold()]
    hint = f"; {near[0]!r} differs only in case or spaces" if near else ""
    return f"no sheet {sheet!r} (sheets: {', '.join(map(repr, order)) or 'none'}{hint})"


def cell_value(rows: list[list[Any]], row: int, col: int) -> Any:
    """The value at 1-based (row, col); outside the used range is an empty cell."""
    if row - 1 < len(rows) and col - 1 < len(rows[row - 1] or []):
        return rows[row - 1][col - 1]
    return None


def calendar_events(state: EvalState, user: str) -> list[dict]:
    """Events of ``calendar/<user>.ics`` (case aside: OfficeBench's offices have ``calendar/Bob.ics``);
    a missing calendar is an empty one."""
    path = f"calendar/{user.strip().lower()}.ics"
    if office_path(path) not in state.files:
        same = sorted(p for p in state.files if p.casefold() == path.casefold())
        if not same:
            return []
        path = same[0]
    return list(get_entry(state, path, "ics").get("events") or [])


def sent_now(state: EvalState, user: str) -> list[tuple[str, dict]]:
    """(path, entry) of the messages ``user`` sent during the episode: their sent folder without the
    messages the office already held (a lived-in office has hundreds; an old reply is not this one)."""
    before = state.before or {}
    return [(path, e) for path, e in mailbox(state, user, "sent") if before.get(path) != e]


def mailbox(state: EvalState, user: str, folder: str) -> list[tuple[str, dict]]:
    """(path, entry) of every message in ``user``'s ``folder`` ("inbox" or "sent"), by path."""
    who = user.strip().lower()
    return sorted(
        (path, e)
        for path, e in state.files.items()
        if e.get("kind") == "eml" and str(e.get("mailbox", "")).lower() == who and e.get("folder") == folder
    )
