"""Execution-based checks: predicates computed over the parsed office rather than compared with one
expected value (no calendar overlap, a slot common to several people, a sorted column...). They
accept every correct outcome when a task has more than one.
"""

from __future__ import annotations

import math
import operator
import re
from datetime import datetime
from typing import Any, Literal

from officesim.evaluators.exact import cell_mismatch, events_named, list_events
from officesim.evaluators.registry import CellRef, CheckResult, ColumnRef, check
from officesim.evaluators.state import EvalState, calendar_events, cell_value, get_entry, office_path, xlsx_sheet
from officesim.evaluators.text import (
    NUMBER_TOLERANCE,
    as_datetime,
    as_number,
    document_text,
    cell_name,
    column_index,
    is_empty,
    norm,
    parse_cell,
    show,
    values_equal,
)

Op = Literal["<", "<=", ">", ">=", "==", "!="]
_OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


# ---- calendar --------------------------------------------------------------------------------
def _span(event: dict) -> tuple[datetime, datetime] | None:
    """(start, end) of a timed event; None for all-day or unreadable ones. No end means an instant."""
    if event.get("all_day"):
        return None
    start = as_datetime(event.get("start"))
    if start is None:
        return None
    end = as_datetime(event.get("end")) or start
    return start, max(start, end)


def _overlap(a: tuple[datetime, datetime], b: tuple[datetime, datetime]) -> bool:
    """Whether two spans share time; back-to-back events (one ends as the next starts) do not."""
    return a[0] < b[1] and b[0] < a[1]


def _label(event: dict) -> str:
    return f"{show(event.get('summary'))} {event.get('start')} - {event.get('end')}"


@check("calendar_no_overlap")
def calendar_no_overlap(state: EvalState, *, user: str) -> CheckResult:
    """No two timed events of ``user`` overlap (all-day events and back-to-back events are fine)."""
    timed = sorted(((s, e) for e in calendar_events(state, user) if (s := _span(e))), key=lambda x: x[0])
    who = f"calendar of {user.strip().lower()}"
    for i, (span_a, a) in enumerate(timed):
        for span_b, b in timed[i + 1:]:
            if span_b[0] >= span_a[1]:
                break
            if _overlap(span_a, span_b):
                return CheckResult.fail(f"{who}: {_label(a)} overlaps {_label(b)}")
    return CheckResult.ok(f"{who}: no overlap among {len(timed)} timed event(s)")


def _named_events(line: str, calendars: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """The events of each person's calendar that ``line`` names by title, longest titles first (Tom's
    "lunch with David" is not Bob's "lunch"); a title both calendars hold is the nearest person's named
    before it ("Bob's dinner"), else everyone's who holds it."""
    lowered = line.casefold()
    titles = sorted({norm(e.get("summary"), False) for events in calendars.values() for e in events
                     if norm(e.get("summary"), False)}, key=len, reverse=True)
    found: dict[str, list[dict]] = {who: [] for who in calendars}
    for title in titles:
        for m in re.finditer(rf"(?<!\w){re.escape(title)}(?!\w)", lowered):
            holders = [who for who, events in calendars.items() if events_named(events, title)]
            before = {who: lowered.rfind(who.casefold(), 0, m.start()) for who in holders}
            named = [who for who in holders if before[who] >= 0]
            owners = [max(named, key=lambda who: before[who])] if named else holders
            for who in owners:
                found[who] += events_named(calendars[who], title)
            lowered = lowered[:m.start()] + " " * (m.end() - m.start()) + lowered[m.end():]
    return found


@check("stated_overlaps")
def stated_overlaps(state: EvalState, *, file: str, users: list[str]) -> CheckResult:
    """Every line of ``file`` that names an event of each of two of ``users``' calendars (by title)
    pairs events that overlap: each event it names overlaps one it names of another person. A list of
    clashes with one more, false, clash fails ("Bob's dinner against Tom's lunch with David")."""
    path = office_path(file)
    calendars = {u: [e for e in calendar_events(state, u) if _span(e)] for u in users}
    lines = [line for line in document_text(get_entry(state, file)).splitlines() if line.strip()]
    for line in lines:
        named = {who: events for who, events in _named_events(line, calendars).items() if events}
        if len(named) < 2:
            continue
        for who, events in named.items():
            others = [e for other, evs in named.items() if other != who for e in evs]
            titles: dict[str, list[dict]] = {}  # a title held twice (two classes) is one item: either will do
            for event in events:
                titles.setdefault(norm(event.get("summary"), False), []).append(event)
            for same in titles.values():
                if not any(_overlap(_span(e), _span(o)) for e in same for o in others):
                    return CheckResult.fail(f"{path}: {show(line.strip())} pairs {who}'s {_label(same[0])} with events "
                                            f"it does not overlap ({'; '.join(_label(o) for o in others)})")
    return CheckResult.ok(f"{path}: every line naming two people's events names overlapping ones")


def _slot_problems(state: EvalState, users: list[str], summary: str, slot: tuple[datetime, datetime]) -> list[str]:
    """Why ``slot`` is not a common event of ``users`` (missing there, or clashing with another event)."""
    problems = []
    for user in users:
        events = calendar_events(state, user)
        mine = [e for e in events_named(events, summary) if _span(e) == slot]
        if not mine:
            problems.append(f"{user} has no {show(summary)} at {slot[0]:%Y-%m-%d %H:%M:%S}")
            continue
        clashes = [e for e in events if e is not mine[0] and (s := _span(e)) and _overlap(s, slot)]
        if clashes:
            problems.append(f"{user}'s {show(summary)} overlaps {_label(clashes[0])}")
    return problems


@check("common_event")
def common_event(
    state: EvalState, *, users: list[str], summary: str, duration_minutes: float | None = None
) -> CheckResult:
    """Every user's calendar has an event titled ``summary`` (ci) at the same start and end, and none of
    them has another timed event overlapping it; with ``duration_minutes``, it lasts exactly that long.
    """
    people = [u.strip().lower() for u in users]
    if not people:
        return CheckResult.fail("common_event needs at least one user")
    slots = sorted({s for e in events_named(calendar_events(state, people[0]), summary) if (s := _span(e))})
    if not slots:
        events = calendar_events(state, people[0])
        return CheckResult.fail(f"calendar of {people[0]}: no timed event {show(summary)} ({list_events(events)})")
    failures = []
    for slot in slots:
        problems = _slot_problems(state, people, summary, slot)
        length = (slot[1] - slot[0]).total_seconds() / 60
        if duration_minutes is not None and not math.isclose(length, duration_minutes, abs_tol=NUMBER_TOLERANCE):
            problems.insert(0, f"it lasts {length:g} min, expected {duration_minutes:g}")
        if not problems:
            return CheckResult.ok(f"{show(summary)} {slot[0]:%Y-%m-%d %H:%M:%S} - {slot[1]:%H:%M:%S} is common to {', '.join(people)} with no clash")
        failures.append((problems, slot))
    problems, slot = min(failures, key=lambda f: len(f[0]))
    return CheckResult.fail(f"{show(summary)} at {slot[0]:%Y-%m-%d %H:%M:%S} - {slot[1]:%H:%M:%S}: {'; '.join(problems)}")


# ---- spreadsheets ------------------------------------------------------------------------------
def _comparable(a: Any, b: Any) -> tuple[Any, Any] | None:
    """Both values as numbers, or both as moments; None when they cannot be ordered."""
    na, nb = as_number(a), as_number(b)
    if na is not None and nb is not None:
        return na, nb
    da, db = as_datetime(a), as_datetime(b)
    if da is not None and db is not None:
        return da, db
    return None


@check("cell_compare")
def cell_compare(
    state: EvalState, *, file: str, cell: CellRef, op: Op, value: Any, sheet: str | None = None
) -> CheckResult:
    """The cell's value ``op`` ``value`` holds; ordering needs numbers or dates, == and != follow value equality."""
    ref_sheet, row, col = parse_cell(cell)
    name, rows = xlsx_sheet(state, file, sheet if sheet is not None else ref_sheet)
    found = cell_value(rows, row, col)
    where = f"{office_path(file)} {name}!{cell_name(row, col)}"
    if isinstance(value, (int, float)) and not isinstance(value, bool) and isinstance(found, str) and op != "!=" \
            and as_number(found) is not None:  # a number is wanted as a number, never text that reads as one
        return CheckResult.fail(f"{where}: expected a number {op} {show(value)}, found the text {show(found)}")
    if op in ("==", "!="):
        holds = values_equal(value, found) == (op == "==")
    else:
        pair = _comparable(found, value)
        if pair is None:
            return CheckResult.fail(f"{where}: expected a value {op} {show(value)}, found {show(found)}, which cannot be compared")
        holds = _OPS[op](*pair)
    if holds:
        return CheckResult.ok(f"{where} is {show(found)}, which is {op} {show(value)}")
    return CheckResult.fail(f"{where}: expected a value {op} {show(value)}, found {show(found)}")


def _column(rows: list[list[Any]], column: str, header_rows: int) -> list[Any]:
    """The column's values below the header rows, trailing empty cells dropped."""
    col = column_index(column.strip())
    values = [cell_value(rows, r, col) for r in range(header_rows + 1, len(rows) + 1)]
    while values and is_empty(values[-1]):
        values.pop()
    return values


def _sort_key(values: list[Any]) -> tuple[list[Any], str] | None:
    """Values as one orderable type (numbers, dates or casefolded text) and its name; None if mixed."""
    for conv, kind in ((as_number, "numbers"), (as_datetime, "dates")):
        keys = [conv(v) for v in values]
        if all(k is not None for k in keys):
            return keys, kind
    if all(isinstance(v, str) for v in values):
        return [norm(v, False) for v in values], "text values"
    return None


@check("column_sorted")
def column_sorted(
    state: EvalState,
    *,
    file: str,
    column: ColumnRef,
    descending: bool = False,
    sheet: str | None = None,
    header_rows: int = 1,
) -> CheckResult:
    """The column below ``header_rows`` is sorted (numbers/dates by value, text ci); empty cells are skipped."""
    name, rows = xlsx_sheet(state, file, sheet)
    col = column.strip().upper()
    where = f"{office_path(file)} {name} column {col}"
    cells = [(header_rows + i + 1, v) for i, v in enumerate(_column(rows, col, header_rows)) if not is_empty(v)]
    if len(cells) < 2:
        return CheckResult.fail(f"{where}: expected values to sort, found {len(cells)} below the header")
    keyed = _sort_key([v for _, v in cells])
    if keyed is None:
        return CheckResult.fail(f"{where}: mixes numbers and text ({show([v for _, v in cells][:8])}), so it cannot be sorted")
    keys, kind = keyed
    order = "descending" if descending else "ascending"
    for i in range(len(keys) - 1):
        bad = keys[i] < keys[i + 1] if descending else keys[i] > keys[i + 1]
        if bad:
            (r1, v1), (r2, v2) = cells[i], cells[i + 1]
            return CheckResult.fail(f"{where}: not in {order} order: {col}{r1} {show(v1)} comes before {col}{r2} {show(v2)}")
    return CheckResult.ok(f"{where}: {len(keys)} {kind} in {order} order")


@check("column_values")
def column_values(
    state: EvalState,
    *,
    file: str,
    column: ColumnRef,
    values: list[Any],
    sheet: str | None = None,
    header_rows: int = 1,
) -> CheckResult:
    """The column below ``header_rows`` equals ``values`` in order (trailing empty cells ignored)."""
    name, rows = xlsx_sheet(state, file, sheet)
    col = column.strip().upper()
    where = f"{office_path(file)} {name}"
    found = _column(rows, col, header_rows)
    wanted = list(values)
    while wanted and is_empty(wanted[-1]):
        wanted.pop()
    for i in range(max(len(found), len(wanted))):
        e = wanted[i] if i < len(wanted) else None
        g = found[i] if i < len(found) else None
        why = cell_mismatch(e, g)
        if why:
            return CheckResult.fail(
                f"{where}!{col}{header_rows + i + 1}: {why} "
                f"(expected {len(wanted)} values below the header, found {len(found)})"
            )
    return CheckResult.ok(f"{where} column {col} holds the expected {len(wanted)} values")
