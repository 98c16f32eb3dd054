"""Turning parsed office entries into text, and the comparison rules every check shares.

Normalisation rules (documented in tasks/FORMAT.md §5):

- Text: runs of whitespace (spaces, tabs, newlines) collapse to one space and the ends are stripped,
  so line wrapping in a PDF or an email never decides a check. "ci" comparisons also casefold.
- Numbers: a value is a number when it is an int/float (not a bool) or a string that reads as one:
  optional sign, optional leading currency symbol ($ € £ ¥), digits with or without correctly
  grouped thousands commas, optional decimals. So ``1200 == "1,200" == 1200.0 == "$1,200.00"``.
  ``"15%"``, ``"1.2.3"``, ``"12,00"``, ``"nan"`` and ``"1e3"`` are *not* numbers (they compare as text),
  because reading them as numbers would silently guess a locale or a meaning.
  Two numbers are equal within an absolute tolerance of 1e-6.
- Dates: two ISO dates/date-times are equal when they denote the same moment
  (``"2026-03-10" == "2026-03-10 00:00:00" == "2026-03-10T00:00"``).
- Booleans equal booleans, or the words true/false (any case).
- Empty: ``None`` and a blank string are the same empty cell.
- Cell addresses: ``"B3"`` is row 3, column 2 (1-based, as in excel ``set_cell``); ``"Budget!B3"``
  names the sheet too.
"""

from __future__ import annotations

import math
import re

# The counts an agent writes in words ('three invoices'): one table for every reader of counts.
NUMBER_WORDS: dict[str, int] = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
# after a number, a month makes it a day of a date, not a count: "the 13 October key accounts weekly"
NOT_A_DAY = (r"(?!\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)(?:uary|ruary|ch|il|e|y|ust|tember|ober|ember)?"
             r"\b)")
from datetime import date, datetime, time
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

_WS = re.compile(r"\s+")
_NUMBER = re.compile(r"^([+-]?)[$€£¥]?([+-]?)(\d{1,3}(?:,\d{3})+|\d+|(?=\.\d))(\.\d+)?$")
_CELL = re.compile(r"^(?:(?P<sheet>[^!]+)!)?\$?(?P<col>[A-Za-z]{1,3})\$?(?P<row>[1-9]\d*)$")
_COLUMN = re.compile(r"^[A-Za-z]{1,3}$")
NUMBER_TOLERANCE = 1e-6


# ---- text ------------------------------------------------------------------------------------
def collapse(text: Any) -> str:
    """Whitespace runs to one space, ends stripped; the form every text comparison uses."""
    return _WS.sub(" ", "" if text is None else str(text)).strip()


def norm(text: Any, case_sensitive: bool = True) -> str:
    """Collapsed text, casefolded unless ``case_sensitive``."""
    out = collapse(text)
    return out if case_sensitive else out.casefold()


def text_contains(haystack: str, needle: str, case_sensitive: bool = False) -> bool:
    """Whether ``needle`` occurs in ``haystack`` once both are normalised."""
    return norm(needle, case_sensitive) in norm(haystack, case_sensitive)


def as_list(value: Any) -> list:
    """A single value or a list of values, always as a list (``None`` is no values)."""
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple, set)) else [value]


# ---- values ----------------------------------------------------------------------------------
def as_number(value: Any) -> float | None:
    """The numeric reading of a value, or None when it is not a number (see module rules)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    if not isinstance(value, str):
        return None
    m = _NUMBER.match(value.strip())
    if not m or (m.group(1) and m.group(2)):
        return None
    sign = "-" if "-" in (m.group(1) + m.group(2)) else ""
    return float(sign + (m.group(3).replace(",", "") or "0") + (m.group(4) or ""))


def as_datetime(value: Any, timezone: str | None = None) -> datetime | None:
    """The naive local moment an ISO date or date-time denotes (a date is its midnight), or None.

    A time with an offset (``...Z``, ``+02:00``) is converted to ``timezone`` first when one is given,
    so it compares with the office's local wall-clock times.
    """
    if isinstance(value, datetime):
        return _local(value, timezone)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day)
    if not isinstance(value, str) or not re.match(r"^\s*\d{4}-\d{2}-\d{2}", value):
        return None
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    return _local(parsed, timezone)


def _local(moment: datetime, timezone: str | None) -> datetime:
    if moment.tzinfo is not None and timezone:
        try:
            moment = moment.astimezone(ZoneInfo(timezone))
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return moment.replace(tzinfo=None)


def is_empty(value: Any) -> bool:
    """None and blank strings are both an empty cell."""
    return value is None or (isinstance(value, str) and not value.strip())


_CLOCK = re.compile(r"^\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(?:([ap])\.?\s?m\.?)?\s*$", re.I)


def as_time_of_day(value: Any) -> time | None:
    """The time of day a cell holds: a time value, or text such as '8:00', '08:00:00', '8:00 AM' or
    '8:00 p.m.' (minutes written); None for anything else (a date-time is a moment, not a time of day)."""
    if isinstance(value, time):
        return value.replace(tzinfo=None, microsecond=0)
    if not isinstance(value, str):
        return None
    m = _CLOCK.match(value)
    if not m:
        return None
    hour, minute, second = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
    if m.group(4):
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if m.group(4).lower() == "p" else 0)
    if hour > 23 or minute > 59 or second > 59:
        return None
    return time(hour, minute, second)


def values_equal(expected: Any, found: Any, case_sensitive: bool = True) -> bool:
    """Equality of two cell-like values under the module's rules (numbers, dates, bools, text)."""
    if is_empty(expected) or is_empty(found):
        return is_empty(expected) and is_empty(found)
    if isinstance(expected, bool) or isinstance(found, bool):
        return norm(format_value(expected), False) == norm(format_value(found), False)
    a, b = as_number(expected), as_number(found)
    if a is not None and b is not None:
        return math.isclose(a, b, rel_tol=0.0, abs_tol=NUMBER_TOLERANCE)
    da, db = as_datetime(expected), as_datetime(found)
    if da is not None and db is not None:
        return da == db
    ta, tb = as_time_of_day(expected), as_time_of_day(found)
    if ta is not None and tb is not None:  # '8:00' is 08:00, 8:00 AM and a time cell of 8:00
        return ta == tb
    return norm(expected, case_sensitive) == norm(found, case_sensitive)


def format_number(value: float | int) -> str:
    """A number as people write it: 1200 not 1200.0, 0.1 not 0.1000000001."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, float):
        return f"{value:.10g}" if abs(value) >= 1e-4 else repr(value)
    return str(value)


def format_value(value: Any) -> str:
    """A value as text (no quotes): numbers plainly, booleans as TRUE/FALSE, None as ''."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        return format_number(value)
    return str(value)


def show(value: Any, limit: int = 120) -> str:
    """A value as it should appear in a check message: strings quoted, empties named."""
    if is_empty(value):
        return "an empty cell" if value is None else repr(value)
    if isinstance(value, str):
        text = value if len(value) <= limit else value[: limit - 3] + "..."
        return repr(text)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(v, limit) for v in value) + "]"
    return format_value(value)


# ---- cell addresses --------------------------------------------------------------------------
def column_index(letters: str) -> int:
    """Column letters to a 1-based index: A -> 1, Z -> 26, AA -> 27."""
    if not _COLUMN.match(letters or ""):
        raise ValueError(f"{letters!r} is not a column letter like B")
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - 64)
    return n


def column_letter(index: int) -> str:
    """A 1-based column index to letters: 1 -> A, 27 -> AA."""
    if index < 1:
        raise ValueError(f"column index {index} is not 1 or more")
    letters = ""
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def parse_cell(ref: str) -> tuple[str | None, int, int]:
    """``"B3"`` -> (None, 3, 2); ``"Budget!B3"`` -> ("Budget", 3, 2); row and column 1-based."""
    m = _CELL.match((ref or "").strip())
    if not m:
        raise ValueError(f"{ref!r} is not a cell address like B3 or Budget!B3")
    sheet = m.group("sheet")
    if sheet and len(sheet) >= 2 and sheet[0] == sheet[-1] == "'":
        sheet = sheet[1:-1]
    return sheet, int(m.group("row")), column_index(m.group("col"))


def cell_name(row: int, col: int) -> str:
    """(3, 2) -> ``"B3"``."""
    return f"{column_letter(col)}{row}"


def is_cell_ref(ref: Any) -> bool:
    return isinstance(ref, str) and bool(_CELL.match(ref.strip()))


def is_column_ref(ref: Any) -> bool:
    return isinstance(ref, str) and bool(_COLUMN.match(ref.strip()))


# ---- flattening entries ----------------------------------------------------------------------
def _xlsx_text(entry: dict) -> str:
    sheets = entry.get("sheets") or {}
    order = entry.get("sheet_order") or list(sheets)
    lines: list[str] = []
    for name in order:
        lines.append(str(name))
        for row in sheets.get(name) or []:
            cells = [format_value(v) for v in row]
            lines.append("\t".join(cells).rstrip())
    return "\n".join(lines)


def _docx_text(entry: dict) -> str:
    lines = [str(p) for p in entry.get("paragraphs") or []]
    for table in entry.get("tables") or []:
        for row in table:
            lines.append(" | ".join(format_value(c) for c in row))
    return "\n".join(lines)


def _eml_text(entry: dict) -> str:
    names = [a.get("filename", "") for a in entry.get("attachments") or [] if isinstance(a, dict)]
    lines = [
        f"Subject: {entry.get('subject') or ''}",
        f"From: {entry.get('from') or ''}",
        f"To: {', '.join(entry.get('to') or [])}",
    ]
    if entry.get("cc"):
        lines.append(f"Cc: {', '.join(entry['cc'])}")
    if entry.get("date"):
        lines.append(f"Date: {entry['date']}")
    if names:
        lines.append(f"Attachments: {', '.join(names)}")
    lines += ["", str(entry.get("body") or "")]
    return "\n".join(lines)


def event_text(event: dict) -> str:
    """One calendar event as a block of text (also used in check messages)."""
    when = f"{event.get('start') or ''} - {event.get('end') or ''}".strip(" -")
    lines = [str(event.get("summary") or ""), when]
    for key in ("location", "description"):
        if event.get(key):
            lines.append(str(event[key]))
    if event.get("attendees"):
        lines.append(", ".join(event["attendees"]))
    return "\n".join(lines)


def _ics_text(entry: dict) -> str:
    return "\n\n".join(event_text(e) for e in entry.get("events") or [])


_FLATTEN = {
    "xlsx": _xlsx_text,
    "docx": _docx_text,
    "pdf": lambda e: "\n".join(str(p) for p in e.get("pages") or []),
    "eml": _eml_text,
    "ics": _ics_text,
    "text": lambda e: str(e.get("text") or ""),
    "image": lambda e: str(e.get("text") or ""),  # what OCR read, when grading asked for it (server/grading.py)
}


def document_text(entry: dict) -> str:
    """All searchable text of a parsed entry (FORMAT §3); binaries and corrupt files have none, images
    the text OCR read when a check names them (else none).

    xlsx: each sheet's name, then its rows as tab-separated cells; docx: paragraphs, then table rows
    as `` | ``-joined cells; pdf: pages; eml: subject/from/to/cc/date/attachment-name lines, a blank
    line, the body; ics: one block per event (summary, times, location, description, attendees).
    """
    flatten = _FLATTEN.get((entry or {}).get("kind", ""))
    return flatten(entry) if flatten else ""


def number_of(word: str) -> int:
    """A whole number written in digits or in words ("12", "twelve")."""
    low = word.lower()
    return NUMBER_WORDS[low] if low in NUMBER_WORDS else int(low)
