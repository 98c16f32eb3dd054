"""Facts in free text: strict on the fact, free on the form.

A check that a mail, a document or an answer *states* a fact looks for that value, not for a
string of characters:

- a number matches the same number in any common written form — ``3750``, ``3,750.00``, ``$3,750``,
  ``3 750,00 €``, ``42.4`` for ``42.40`` — and never a part of another number ("10" is not in "100",
  nor in a date such as 2026-04-10);
- a date (``2026-04-13``) matches ``13 April 2026``, ``April 13``, ``Monday 13 April``, ``13/04/2026``;
- a time (``09:00``) matches ``9:00``, ``9 am``, ``9:00 AM``; ``14:30`` matches ``2:30 pm``;
- anything else is text: whitespace collapsed, and whole words only ("Rent" is not in "Rental"; a
  plural is the same word: "Wednesdays" states "Wednesday").

A reply's or forward's quoted original is not the sender's own text (``own_text``). And an answer that
names several candidates of the expected kind is a hedge (``other_candidates``), not an answer.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any

from officesim.evaluators.text import as_number, collapse

MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]
_MONTH = r"(?P<{}>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_WEEKDAY = r"(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday)?\.?,?\s+(?:the\s+)?)?"
_DAY = r"(?P<{}>[0-3]?\d)(?:st|nd|rd|th)?"
_DATE_PATTERNS = [
    re.compile(r"(?<!\d)(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?!\d)"),
    re.compile(r"(?<![\w])" + _WEEKDAY + _DAY.format("d") + r"\s+(?:of\s+)?" + _MONTH.format("mn")
               + r"(?:,?\s+(?P<y>\d{4}))?(?!\w)", re.I),
    re.compile(r"(?<![\w])" + _WEEKDAY + _MONTH.format("mn") + r"\s+" + _DAY.format("d")
               + r"(?:,?\s+(?P<y>\d{4}))?(?!\w)", re.I),
    re.compile(r"(?<![\d/.])(?P<a>\d{1,2})[/.](?P<b>\d{1,2})[/.](?P<y>\d{4})(?![\d/])"),
]
_TIME_PATTERNS = [
    re.compile(r"(?<![\d:.])(?P<h>[0-2]?\d)(?::(?P<m>[0-5]\d))(?::[0-5]\d)?(?:\s*(?P<ap>[ap])\.?\s?m\b\.?)?(?![\d:])", re.I),
    re.compile(r"(?<![\d:.])(?P<h>[01]?\d)(?:\.(?P<m>[0-5]\d))?\s*(?P<ap>[ap])\.?\s?m\b\.?", re.I),
    re.compile(r"\b(?P<word>noon|midday|midnight)\b", re.I),
]
_NUMBER = re.compile(
    r"(?<![\w.,])(?P<sign>[-−+]?)\s?(?P<cur>[$€£¥])?\s?(?P<num>"
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?"           # 3,750 / 3,750.00
    r"|\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:,\d{1,2})?"  # 3 750 / 3 750,00
    r"|\d{1,3}(?:\.\d{3})+,\d{1,2}"           # 3.750,00
    r"|\d+,\d{1,2}(?!\d)"                      # 12,50
    r"|\d+(?:\.\d+)?|\.\d+"                    # 3750 / 42.4 / .5
    r")(?![\d]|[.,]\d)"
)


Fact = str | int | float  # a fact as task files write it: text, or a number


@dataclass(frozen=True)
class Mention:
    """A value found in text, and where."""

    value: Any
    start: int
    end: int


# ---- finding values ------------------------------------------------------------------------------
def dates_in(text: str, year: int | None = None) -> list[Mention]:
    """Dates written in ``text``; a date without a year takes ``year`` (else it matches any year:
    its value is then a (month, day) pair). Slashed dates keep both readings (d/m and m/d)."""
    out = []
    for i, pattern in enumerate(_DATE_PATTERNS):
        for m in pattern.finditer(text):
            try:
                if i == 0:
                    values = [date(int(m["y"]), int(m["m"]), int(m["d"]))]
                elif i == 3:
                    a, b, y = int(m["a"]), int(m["b"]), int(m["y"])
                    values = [_date(y, b, a), _date(y, a, b)]
                    values = [v for v in values if v is not None]
                else:
                    month = _month(m["mn"])
                    day = int(m["d"])
                    y = int(m["y"]) if m["y"] else year
                    values = [date(y, month, day)] if y else [(month, day)]
            except ValueError:
                continue
            out += [Mention(v, m.start(), m.end()) for v in dict.fromkeys(values)]
    return out


def _date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _month(name: str) -> int:
    key = name.lower().rstrip(".")[:3]
    return next(i for i, full in enumerate(MONTHS, start=1) if full.startswith(key))


_RANGE_JOIN = re.compile(r"\s*(?:-|–|—|to|until|till)\s*", re.I)


def times_in(text: str) -> list[Mention]:
    """Clock times written in ``text`` (9:00, 09:00, 9 am, 2:30 pm, 14:30, noon); in a range whose end
    alone carries the meridiem (4:00-5:00 PM) the start shares it where that keeps the range in order."""
    out = _clock_mentions(text)
    for k in range(len(out) - 1):
        first, second = out[k], out[k + 1]
        if not _RANGE_JOIN.fullmatch(text[first.end:second.start]):
            continue
        if re.search(r"[ap]\.?\s?m\b|noon|midnight", text[first.start:first.end], re.I) is None and \
                re.search(r"p\.?\s?m\b", text[second.start:second.end], re.I) and 1 <= first.value.hour < 12:
            later = first.value.replace(hour=first.value.hour + 12)
            if later <= second.value:
                out[k] = Mention(later, first.start, first.end)
    return out


def _clock_mentions(text: str) -> list[Mention]:
    out, taken = [], []
    for pattern in _TIME_PATTERNS:
        for m in pattern.finditer(text):
            if any(s < m.end() and m.start() < e for s, e in taken):
                continue
            groups = m.groupdict()
            if groups.get("word"):
                value = time(0, 0) if groups["word"].lower() == "midnight" else time(12, 0)
            else:
                hour, minute = int(m["h"]), int(m["m"] or 0)
                ap = (groups.get("ap") or "").lower()
                if ap:
                    if not 1 <= hour <= 12:
                        continue
                    hour = hour % 12 + (12 if ap == "p" else 0)
                if hour > 23:
                    continue
                value = time(hour, minute)
            taken.append((m.start(), m.end()))
            out.append(Mention(value, m.start(), m.end()))
    return sorted(out, key=lambda mention: mention.start)


def numbers_in(text: str) -> list[Mention]:
    """Numbers written in ``text``, outside dates and clock times."""
    claimed = [(d.start, d.end) for d in dates_in(text)] + [(t.start, t.end) for t in times_in(text)]
    out = []
    for m in _NUMBER.finditer(text):
        start, end = m.start("num"), m.end("num")
        if any(s < end and start < e for s, e in claimed):
            continue
        value = _read_number(m["num"])
        if value is None:
            continue
        if m["sign"] in ("-", "−"):
            value = -value
        out.append(Mention(value, m.start(), m.end()))
    return out


def _read_number(raw: str) -> float | None:
    s = raw.replace("\u00a0", " ").replace("\u202f", " ")
    if "," in s and ("." in s and s.rfind(",") > s.rfind(".") or re.search(r",\d{1,2}$", s)):
        s = s.replace(".", "").replace(" ", "").replace(",", ".")  # decimal comma
    else:
        s = s.replace(",", "").replace(" ", "")
    try:
        value = float(s)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


# ---- what kind of fact a check names -------------------------------------------------------------
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_ISO_DATETIME = re.compile(r"^(\d{4}-\d{2}-\d{2})[ T](\d{1,2}:\d{2}(?::\d{2})?)$")
_CLOCK = re.compile(r"^\d{1,2}:\d{2}(?::\d{2})?$")


def fact_of(expected: Any) -> tuple[str, Any]:
    """(kind, value) of an expected fact: number, date, time, datetime or text."""
    if isinstance(expected, datetime):
        return "datetime", expected
    if isinstance(expected, date):
        return "date", expected
    if isinstance(expected, time):
        return "time", expected
    number = as_number(expected)
    if number is not None:
        return "number", number
    text = collapse(expected)
    if _ISO_DATE.match(text):
        return "date", date.fromisoformat(text)
    m = _ISO_DATETIME.match(text)
    if m:
        return "datetime", datetime.fromisoformat(f"{m.group(1)} {_pad(m.group(2))}")
    if _CLOCK.match(text):
        return "time", time.fromisoformat(_pad(text))
    return "text", text


def _pad(clock: str) -> str:
    parts = clock.split(":")
    return ":".join([parts[0].zfill(2)] + parts[1:] + (["00"] if len(parts) == 2 else []))


def _same_date(found: Any, wanted: date) -> bool:
    if isinstance(found, tuple):
        return found == (wanted.month, wanted.day)
    return found == wanted


def find(text: Any, expected: Any, *, case_sensitive: bool = False, year: int | None = None) -> Mention | None:
    """Where ``text`` states ``expected`` (see the module rules), or None. A list of facts is a
    choice: the first of them that the text states (``["Monday", "2026-03-16"]``)."""
    if isinstance(expected, (list, tuple)):
        return next((m for m in (find(text, e, case_sensitive=case_sensitive, year=year) for e in expected)
                     if m is not None), None)
    body = str(text or "")
    kind, value = fact_of(expected)
    if kind == "number":
        return next((m for m in numbers_in(body) if math.isclose(m.value, value, rel_tol=0, abs_tol=1e-6)), None)
    if kind == "date":
        return next((m for m in dates_in(body, year) if _same_date(m.value, value)), None)
    if kind == "time":
        return next((m for m in times_in(body) if m.value == value.replace(second=0)), None)
    if kind == "datetime":
        day = next((m for m in dates_in(body, year) if _same_date(m.value, value.date())), None)
        clock = next((m for m in times_in(body) if m.value == value.time().replace(second=0)), None)
        return day if day and clock else None
    return _find_words(body, value, case_sensitive)


def _find_words(body: str, needle: str, case_sensitive: bool) -> Mention | None:
    """``needle`` as whole words (its ends do not continue a word), whitespace-insensitive. A needle
    that ends in a number ("Venue cost estimate: 588") ends in that number in any common form
    ("588.00", "$588") and not in a longer one ("588.75")."""
    if not needle:
        return Mention(needle, 0, 0)
    head, _, last = needle.rpartition(" ")
    number = as_number(last) if head else None
    if number is not None:
        for m in _words_pattern(head, case_sensitive, plural=False).finditer(body):
            after = body[m.end():m.end() + 40]
            lead = re.match(r"\s*", after).end()
            first = next(iter(numbers_in(after[lead:])), None)
            if first is not None and first.start == 0 and math.isclose(first.value, number, rel_tol=0, abs_tol=1e-6):
                return Mention(needle, m.start(), m.end() + lead + first.end)
        return None
    m = _words_pattern(needle, case_sensitive).search(body)
    return Mention(m.group(0), m.start(), m.end()) if m else None


def _words_pattern(needle: str, case_sensitive: bool, plural: bool = True) -> re.Pattern:
    parts = [re.escape(p) for p in needle.split()]
    left = (r"(?<!\w)" + (r"(?<!\d[.,])" if needle[0].isdigit() else "")) if needle[0].isalnum() else ""
    # a plural of the last word is the same word ("Wednesdays" states "Wednesday"); "Rental" is not "Rent"
    if needle[-1].isalpha():
        right = r"(?:e?s)?(?!\w)" if plural else r"(?!\w)"
    else:
        right = r"(?!\w)(?![.,]\d)" if needle[-1].isalnum() else ""
    return re.compile(left + r"\s+".join(parts) + right, 0 if case_sensitive else re.I)


def states(text: Any, expected: Any, *, case_sensitive: bool = False, year: int | None = None) -> bool:
    """Whether ``text`` states the fact ``expected`` (see the module rules)."""
    return find(text, expected, case_sensitive=case_sensitive, year=year) is not None


def other_candidates(text: Any, expected: Any, *, year: int | None = None, ignore: Any = ()) -> list[str]:
    """Values of the expected kind that ``text`` states besides ``expected``: a hedge when non-empty.

    Numbers that ``ignore`` states (e.g. the question's own figures) are not candidates.
    """
    if isinstance(expected, (list, tuple)):
        stated = [e for e in expected if states(text, e, year=year)]
        return other_candidates(text, stated[0], year=year, ignore=ignore) if stated else []
    body = str(text or "")
    kind, value = fact_of(expected)
    ignored = str(ignore or "")
    if kind == "number":
        own = {round(m.value, 6) for m in numbers_in(ignored)}
        return [body[m.start:m.end].strip() for m in numbers_in(body)
                if not math.isclose(m.value, value, rel_tol=0, abs_tol=1e-6) and round(m.value, 6) not in own]
    if kind == "date":
        return [body[m.start:m.end] for m in dates_in(body, year) if not _same_date(m.value, value)]
    if kind == "time":
        return [body[m.start:m.end] for m in times_in(body) if m.value != value.replace(second=0)]
    return []


# ---- a message's own words -----------------------------------------------------------------------
_QUOTE_HEADER = re.compile(r"^\s*(?:On .{0,200}wrote:|-{2,}\s*(?:Original|Forwarded) [Mm]essage\s*-{2,}|From:\s.+)\s*$")


def own_text(body: Any) -> str:
    """A message body without the original it replies to or forwards: quoted ``>`` lines and
    everything after an "On ... wrote:" or "---------- Forwarded message ----------" line."""
    lines = []
    for line in str(body or "").splitlines():
        if _QUOTE_HEADER.match(line):
            break
        if line.lstrip().startswith(">"):
            continue
        lines.append(line)
    return "\n".join(lines)
