"""WorkBench's tables read back from a parsed office, and the check that judges them.

An imported WorkBench task (tasks/workbench/) is graded on its end state: the outcome comparison
(evaluators/outcome.py) finds every change the gold run does not make, and ``workbench_rows`` checks
what that comparison leaves to checks because it is free wording elsewhere: the exact subject and body
of a sent email, the exact name of an event. Values compare as WorkBench compares its tables:
without case, except ``status``, ``list_name`` and ``board``; a new email's id is not compared (two
sends in either order are the same outcome).
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime
from typing import Any

from officesim.apps.workbench_core import TABLES, USER
from officesim.apps.workbench_store import DIRECTORY, PLOTS, SHEETS, calendar_path
from officesim.evaluators.registry import CheckResult, check
from officesim.evaluators.state import EvalState

CASE_SENSITIVE = ("status", "list_name", "board")  # WorkBench's fields_not_to_convert
Row = dict[str, Any]


def _text(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return str(value)


def _body(text: Any) -> str:
    text = str(text or "").replace("\r\n", "\n")
    return text[:-1] if text.endswith("\n") else text


def tables_from_state(files: dict[str, dict], user: str = USER) -> dict[str, list[Row] | None]:
    """WorkBench's tables in a parsed office (None for a table whose file is missing or unreadable)."""
    user = user.lower()
    out: dict[str, list[Row] | None] = {"emails": []}
    mail = re.compile(rf"^emails/{re.escape(user)}/(?:(sent)/)?([^/]+)\.eml$", re.I)
    for path, entry in files.items():
        m = mail.match(path)
        if not m or entry.get("kind") != "eml":
            continue
        outbox = bool(m.group(1))
        other = (entry.get("to") or [None])[0] if outbox else entry.get("from")
        out["emails"].append({"email_id": m.group(2), "inbox/outbox": "outbox" if outbox else "inbox",
                              "sender/recipient": other, "subject": entry.get("subject"),
                              "sent_datetime": entry.get("date"), "body": _body(entry.get("body"))})
    ics = files.get(calendar_path(user))
    if ics is None or ics.get("kind") != "ics":
        out["calendar"] = None
    else:
        rows = []
        for ev in ics.get("events", []):
            try:
                minutes = (datetime.strptime(ev["end"], "%Y-%m-%d %H:%M:%S")
                           - datetime.strptime(ev["start"], "%Y-%m-%d %H:%M:%S")).total_seconds() / 60
                duration = str(int(minutes)) if minutes == int(minutes) else str(minutes)
            except (TypeError, ValueError, KeyError):
                duration = None
            rows.append({"event_id": ev.get("uid"), "event_name": ev.get("summary"),
                         "participant_email": (ev.get("attendees") or [None])[0], "event_start": ev.get("start"),
                         "duration": duration})
        out["calendar"] = rows
    for table, (path, _sheet) in SHEETS.items():
        entry = files.get(path)
        sheets = (entry or {}).get("sheets") if (entry or {}).get("kind") == "xlsx" else None
        if not sheets:
            out[table] = None
            continue
        values = next(iter(sheets.values()))
        header = [str(h) for h in (values[0] if values else [])]
        out[table] = [{h: _text(row[i] if i < len(row) else None) for i, h in enumerate(header)}
                      for row in values[1:] if any(v not in (None, "") for v in row)]
    out["plots"] = [{"file_path": p} for p in sorted(files) if p.startswith(f"{PLOTS}/") and p.endswith(".png")]
    directory = files.get(DIRECTORY)
    out["directory"] = None if directory is None else [
        {"email_address": line.strip()} for line in str(directory.get("text", "")).splitlines()[1:] if line.strip()]
    return out


def same_field(field: str, a: Any, b: Any) -> bool:
    """WorkBench's comparison of one value: case-insensitive but for status, list_name and board."""
    a, b = _text(a), _text(b)
    if a is None or b is None:
        return a is b
    if field == "duration":
        try:
            return float(a) == float(b)
        except ValueError:
            pass
    return a == b if field in CASE_SENSITIVE else a.lower() == b.lower()


def same_row(expected: Row, row: Row) -> bool:
    return all(same_field(f, v, row.get(f)) for f, v in expected.items())


def _show(row: Row) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in row.items())


@check("workbench_rows")
def workbench_rows(state: EvalState, *, table: str, present: list[dict[str, Any]] = [],  # noqa: B006
                   absent: list[str] = []) -> CheckResult:  # noqa: B006
    """WorkBench's ``table`` (emails, calendar, crm, tasks, plots) holds each ``present`` row (the fields
    given, compared as WorkBench compares them, each row matched once) and no row whose id is in
    ``absent``; with neither, the table is merely readable."""
    if table not in TABLES:
        return CheckResult.fail(f"unknown WorkBench table {table!r}; tables: {', '.join(TABLES)}")
    rows = tables_from_state(state.files).get(table)
    if rows is None:
        return CheckResult.fail(f"the {table} table is missing or unreadable in the office")
    id_col = TABLES[table][0]
    problems = []
    ids = Counter(r.get(id_col) for r in rows)
    for key in absent:
        if ids.get(key):
            problems.append(f"{id_col} {key} is still there")
    left = list(rows)
    for want in present:
        match = next((i for i, r in enumerate(left) if same_row(want, r)), None)
        if match is None:
            near = next((r for r in rows if want.get(id_col) is not None and r.get(id_col) == want.get(id_col)), None)
            found = f"; found {_show({k: near.get(k) for k in want})}" if near else ""
            problems.append(f"no row {_show(want)}{found}")
        else:
            left.pop(match)
    if problems:
        return CheckResult.fail(f"{table}: " + "; ".join(problems))
    said = [f"{len(present)} row(s) as expected"] if present else []
    said += [f"{len(absent)} removed"] if absent else []
    return CheckResult.ok(f"{table}: " + (", ".join(said) or f"readable ({len(rows)} rows)"))


# ---- several accepted end states ------------------------------------------------------------------
def state_digest(table: str, rows: list[Row]) -> str:
    """One table's end state, as WorkBench compares it but in any row order and without the ids of
    sent mail (which follow the order of sending): a digest that two equal end states share."""
    import hashlib
    import json

    columns = TABLES[table][1]
    canon = []
    for row in rows:
        values = []
        for col in columns:
            if table == "emails" and col == "email_id" and row.get("inbox/outbox") == "outbox":
                continue
            value = _text(row.get(col))
            if col == "duration" and value is not None:
                try:
                    value = _text(float(value))
                except ValueError:
                    pass
            values.append("" if value is None else (value if col in CASE_SENSITIVE else value.lower()))
        canon.append(values)
    return hashlib.sha256(json.dumps(sorted(canon)).encode()).hexdigest()[:16]


@check("workbench_state")
def workbench_state(state: EvalState, *, table: str, accepted: list[str]) -> CheckResult:
    """WorkBench's ``table`` is, as a whole, one of the ``accepted`` end states (``state_digest`` of each
    reading of an ambiguous query, or of each order of independent writes): for a task whose query has
    several defensible readings, the table's files are free (§7) and this check judges them."""
    if table not in TABLES:
        return CheckResult.fail(f"unknown WorkBench table {table!r}; tables: {', '.join(TABLES)}")
    rows = tables_from_state(state.files).get(table)
    if rows is None:
        return CheckResult.fail(f"the {table} table is missing or unreadable in the office")
    digest = state_digest(table, rows)
    if digest in accepted:
        return CheckResult.ok(f"{table}: the end state of accepted reading {accepted.index(digest) + 1} of {len(accepted)}")
    return CheckResult.fail(f"{table}: the end state ({len(rows)} rows) is none of the {len(accepted)} accepted readings")
