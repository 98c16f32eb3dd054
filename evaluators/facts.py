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

import bisect
import itertools
import math
import re
from contextvars import ContextVar
from functools import lru_cache, wraps
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any, Callable

from number_parser import parse_number

from officesim.evaluators.text import NUMBER_WORDS, as_number, collapse

MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]
_MONTH = r"(?P<{}>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_WEEKDAY = r"(?:(?P<wd>mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday)?\.?,?\s+(?:the\s+)?)?"
_WEEKDAY_REQUIRED = _WEEKDAY[:-1]  # the same, not optional
WEEKDAY_KEYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
_DAY = r"(?P<{}>[0-3]?\d)(?:st|nd|rd|th)?"
_DATE_PATTERNS = [
    re.compile(r"(?<!\d)(?:(?<!\w)" + _WEEKDAY_REQUIRED + r")?(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?!\d)",
               re.I),  # "Friday 2026-08-20" says its weekday too
    re.compile(r"(?<![\w])" + _WEEKDAY + _DAY.format("d") + r"\s+(?:of\s+)?" + _MONTH.format("mn")
               + r"(?:,?\s+(?P<y>\d{4}))?(?!\w)", re.I),
    re.compile(r"(?<![\w])" + _WEEKDAY + _MONTH.format("mn") + r"\s+" + _DAY.format("d")
               + r"(?:,?\s+(?P<y>\d{4}))?(?!\w)", re.I),
    re.compile(r"(?<![\w/.])" + _WEEKDAY + r"(?P<a>\d{1,2})[/.](?P<b>\d{1,2})[/.](?P<y>\d{4})(?![\d/])", re.I),
    # with a weekday, a year or a month may be left out: "Thu 15/01", "Thursday the 15th"
    re.compile(r"(?<![\w])" + _WEEKDAY_REQUIRED + r"(?P<a>\d{1,2})/(?P<b>\d{1,2})(?![\d/])", re.I),
    re.compile(r"(?<![\w])" + _WEEKDAY_REQUIRED + r"(?P<d>[0-3]?\d)(?:st|nd|rd|th)(?!\w)(?!\s+(?:of\s+)?" + _MONTH.format("x") + r")", re.I),
]
# the first day of a range that gives its month once ("14-16 Dec 2026", "Mon 14 – Wed 16 December"):
# read apart, as the pattern's last group (the second day is read by the patterns above)
_OTHER_WEEKDAY = r"(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday)?\.?,?\s+)?"
_RANGE_START = re.compile(r"(?<![\w/.-])" + _WEEKDAY + _DAY.format("d") + r"\s*(?:–|—|-|to|until|till|through|and)\s*"
                          + _OTHER_WEEKDAY + r"[0-3]?\d(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH.format("mn")
                          + r"(?:,?\s+(?P<y>\d{4}))?(?!\w)", re.I)
_TIME_PATTERNS = [
    re.compile(r"(?<![\d:.])(?P<h>[0-2]?\d)(?::(?P<m>[0-5]\d))(?::[0-5]\d)?(?:\s*(?P<ap>[ap])\.?\s?m\b\.?)?(?!\d|:\d)", re.I),
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
    """A value found in text, and where. ``weekday`` (0 = Monday) is the weekday written beside a date;
    ``precision`` the rounding a number written with a scale word carries ("7.19 billion": 5e6);
    ``currency`` the currency written with an amount."""

    value: Any
    start: int
    end: int
    weekday: int | None = None
    precision: float = 0.0
    currency: str | None = None
    unscaled: float | None = None  # a number written with a scale word, as written ("36,455 million": 36455)


# The simulated now, set while a task's checks run (evaluators/registry.py): a date written with a
# weekday but no month ("Thursday the 15th") is the one nearest to it.
REFERENCE_NOW: ContextVar[datetime | None] = ContextVar("officesim_reference_now", default=None)


# ---- finding values ------------------------------------------------------------------------------
_LONG_TEXT = 8_192  # characters: the values of a longer text are read once for the checks that ask of it


def _read_once(read: Callable[..., list[Mention]]) -> Callable[..., list[Mention]]:
    """``read`` (dates, times or numbers of a text), remembered for the last few long texts (a whole mail
    or document, which each check and each fact asks of again), as a fresh list each time."""
    cached = lru_cache(maxsize=4)(lambda text, args, _now: tuple(read(text, *args)))

    @wraps(read)
    def once(text: str, *args: Any) -> list[Mention]:
        if len(text) <= _LONG_TEXT:
            return read(text, *args)
        return list(cached(text, args, REFERENCE_NOW.get()))

    return once


_CLOCK_AFTER = re.compile(r":[0-5]\d\b")


@_read_once
def dates_in(text: str, year: int | None = None) -> list[Mention]:
    """Dates written in ``text``; a date without a year takes ``year`` (else it matches any year:
    its value is then a (month, day) pair). Slashed dates keep both readings (d/m and m/d), unless a
    weekday beside them picks one; a weekday with a bare ordinal ("Thursday the 15th") is the nearest
    such day to the simulated now."""
    out = []
    for i, pattern in enumerate(_DATE_PATTERNS):
        for m in pattern.finditer(text):
            groups = m.groupdict()
            weekday = WEEKDAY_KEYS.index(groups["wd"].lower()[:3]) if groups.get("wd") else None
            try:
                if i == 0:
                    values = [date(int(m["y"]), int(m["m"]), int(m["d"]))]
                elif i in (3, 4):
                    a, b = int(m["a"]), int(m["b"])
                    y = int(m["y"]) if groups.get("y") else year
                    if y is None:
                        values = [v for v in ((b, a), (a, b)) if 1 <= v[0] <= 12 and 1 <= v[1] <= 31]
                    else:
                        values = [v for v in (_date(y, b, a), _date(y, a, b)) if v is not None]
                    agreeing = [v for v in values if isinstance(v, date) and v.weekday() == weekday]
                    values = agreeing or values
                elif i == 5:
                    values = [_nearest_day(int(m["d"]), weekday, year)]
                else:
                    if not m["y"] and _CLOCK_AFTER.match(text, m.end()) and not m.group(0).rstrip()[-1:].isalpha():
                        continue  # "[Sun 06 Dec 16:44]": a month then an hour, not 16 December
                    month = _month(m["mn"])
                    day = int(m["d"])
                    if m["y"]:
                        values = [date(int(m["y"]), month, day)]
                    else:
                        values = yearless_readings(month, day, weekday, year) if year else [(month, day)]
            except ValueError:
                continue
            out += [Mention(v, m.start(), m.end(), weekday=weekday) for v in dict.fromkeys(values) if v is not None]
    for m in _RANGE_START.finditer(text):  # the range's first day, over its own words only
        weekday = WEEKDAY_KEYS.index(m["wd"].lower()[:3]) if m["wd"] else None
        try:
            first = date(int(m["y"]), _month(m["mn"]), int(m["d"])) if m["y"] else \
                (_yearless(_month(m["mn"]), int(m["d"]), weekday, year) if year else (_month(m["mn"]), int(m["d"])))
        except ValueError:
            continue
        out.append(Mention(first, m.start(), m.end("d"), weekday=weekday))
    return _drop_nested(out)


def _drop_nested(mentions: list[Mention]) -> list[Mention]:
    """Mentions inside a longer one of the same list are the same words read twice ("Thu 15/01/2026").

    One sweep by start (a longer span that holds another starts no later and ends no earlier: among those
    starting before, the furthest end; among those starting at the same place, the longest), not a test of
    every pair, which a text of a thousand dates made quadratic."""
    order = sorted(range(len(mentions)), key=lambda k: (mentions[k].start, -mentions[k].end))
    nested: set[int] = set()
    reach = -1  # the furthest end of the mentions that start before the current start
    k = 0
    while k < len(order):
        start, last = mentions[order[k]].start, k
        while last < len(order) and mentions[order[last]].start == start:
            last += 1
        longest = mentions[order[k]].end  # the group of this start is sorted by end, longest first
        for j in order[k:last]:
            if reach >= mentions[j].end or longest > mentions[j].end:
                nested.add(j)
        reach = max(reach, longest)
        k = last
    return [m for k, m in enumerate(mentions) if k not in nested]


def yearless_readings(month: int, day: int, weekday: int | None, year: int) -> list[date]:
    """The readings of a date written without its year: the one ``_yearless`` picks first, then the
    simulated year's own when the writer may have meant it (no weekday picks): in December, "due 16
    February" of an overdue invoice is last February's, and "meet on 16 February" next February's."""
    first = _yearless(month, day, weekday, year)
    if weekday is not None or first.year == year:
        return [first]
    own = _date(year, month, day)
    return [first, own] if own is not None else [first]


def _yearless(month: int, day: int, weekday: int | None, year: int) -> date:
    """A date written without its year ("30 January", "Friday 29 January"): in ``year``, unless the
    simulated now is more than half a year from it, where a writer means the nearest one (in December,
    "30 January" is next month); a weekday written beside it picks the year it agrees with."""
    own = date(year, month, day)
    now = REFERENCE_NOW.get()
    options = []
    for y in (year - 1, year, year + 1):
        try:
            options.append(date(y, month, day))
        except ValueError:  # 29 February
            continue
    if now is None:
        return own
    near = [d for d in options if abs((d - now.date()).days) <= 183] or [own]
    agreeing = [d for d in near if weekday is not None and d.weekday() == weekday]
    if own in near and (not agreeing or own in agreeing):
        return own
    return min(agreeing or near, key=lambda d: abs((d - now.date()).days))


def _nearest_day(day: int, weekday: int | None, year: int | None) -> date | None:
    """The date nearest the simulated now (or 1 July of ``year``) whose day of month is ``day`` and whose
    weekday is ``weekday``, within two months either way; else that day in the now's month (a weekday
    that cannot agree, which the weekday check reports)."""
    now = REFERENCE_NOW.get()
    base = now.date() if now else (date(year, 7, 1) if year else None)
    if base is None:
        return None
    found = []
    for shift in range(-2, 3):
        y, mo = base.year + (base.month - 1 + shift) // 12, (base.month - 1 + shift) % 12 + 1
        d = _date(y, mo, day)
        if d is not None and (weekday is None or d.weekday() == weekday):
            found.append(d)
    if found:
        return min(found, key=lambda d: abs((d - base).days))
    return _date(base.year, base.month, day)


_WEEKDAYS = ["mon", "tues", "wednes", "thurs", "fri", "satur", "sun"]
_WEEKDAY_AFTER = re.compile(r"(?i)\s*(?:\(\s*|,\s*)(?:which is\s+|that is\s+|that's\s+|it's\s+)?(?:a\s+)?"
                            r"(mon|tues|wednes|thurs|fri|satur|sun)day\b(?!,?\s*(?:the\s+)?\d)"
                            # "9–11 November (Monday to Wednesday)": the weekdays of the range, not of its last day
                            r"(?!\s*(?:to|-|–|—|and|through|until|till)\b)")


def weekday_conflicts(text: str, year: int | None = None) -> list[str]:
    """Dates written with a weekday that is not theirs ("Tuesday 15 January" when the 15th is a
    Thursday), as 'the written words (a Thursday)'."""
    out = []
    found = dates_in(text, year)
    for m in found:
        weekday = m.weekday
        if weekday is None and isinstance(m.value, date) and (after := _WEEKDAY_AFTER.match(text, m.end)):
            # "notice must be given by 30 January 2027 (a Monday)": the weekday said of the date after it
            weekday = _WEEKDAYS.index(after.group(1).lower())
            if m.value.weekday() == weekday or (not re.search(r"\d{4}", text[m.start:m.end])
                                                and _yearless_agrees(m.value, weekday)):
                continue
            if any(o.start == m.start and o.end == m.end and isinstance(o.value, date) and o.value.weekday() == weekday
                   for o in found):
                continue
            out.append(f"{text[m.start:after.end()].strip()!r} ({m.value.isoformat()} is a {m.value.strftime('%A')})")
            continue
        if m.weekday is None or not isinstance(m.value, date) or m.value.weekday() == m.weekday:
            continue
        if any(o.start == m.start and o.end == m.end and isinstance(o.value, date) and o.value.weekday() == o.weekday
               for o in found):
            continue  # another reading of the same words agrees
        if not re.search(r"\d{4}|['’/.-]\d{2}\b", text[m.start:m.end]) and _yearless_agrees(m.value, m.weekday):
            continue  # "Friday 29 January" written in December: next year's 29 January, a Friday
        out.append(f"{text[m.start:m.end].strip()!r} ({m.value.isoformat()} is a {m.value.strftime('%A')})")
    return list(dict.fromkeys(out))


def _yearless_agrees(value: date, weekday: int) -> bool:
    """Whether a date written without its year has ``weekday`` in the year that puts it nearest the
    simulated now (a January date written in December is next year's)."""
    now = REFERENCE_NOW.get()
    if now is None:
        return False
    candidates = [d for d in (_date(now.year + k, value.month, value.day) for k in (-1, 0, 1)) if d is not None]
    nearest = min(candidates, key=lambda d: abs((d - now.date()).days))
    return nearest != value and nearest.weekday() == weekday


def _date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _month(name: str) -> int:
    key = name.lower().rstrip(".")[:3]
    return next(i for i, full in enumerate(MONTHS, start=1) if full.startswith(key))


_RANGE_JOIN = re.compile(r"\s*(?:-|–|—|to|until|till)\s*", re.I)


@_read_once
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
        # a pattern's own matches do not overlap: only those of the patterns before it are tested (by
        # bisection: a text of a thousand times made the test of every pair quadratic)
        before = _Spans(taken)
        for m in pattern.finditer(text):
            if before.overlaps(m.start(), m.end()):
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


_SCALE = re.compile(r"\s?(?P<word>thousand|million|billion|trillion|(?P<abbr>k|m|mn|bn|b))\b", re.I)
_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9,
           "trillion": 1e12}
_CURRENCY_AFTER = re.compile(r"\s?(?P<code>USD|EUR|GBP|JPY|CHF|CAD|AUD|dollars?|euros?|pounds?)\b", re.I)
_CURRENCY_BEFORE = re.compile(r"(?P<code>USD|EUR|GBP|JPY|CHF|CAD|AUD)\s?$", re.I)
_CURRENCY_NAMES = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "dollar": "USD", "dollars": "USD", "euro": "EUR",
                   "euros": "EUR", "pound": "GBP", "pounds": "GBP"}
_NUMBER_WORD = (r"(?:zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
                r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|"
                r"thousand|million|one)")
_NUMBER_WORDS = re.compile(r"\b" + _NUMBER_WORD + r"(?:(?:[\s-]+|\s+and\s+)" + _NUMBER_WORD + r")*\b", re.I)


class _Spans:
    """Spans of a text (dates, times) and a quick test whether a stretch overlaps one of them: a
    sheet's text holds thousands of dates and numbers, and testing every pair took most of reading."""

    def __init__(self, spans: list[tuple[int, int]]):
        spans = sorted(spans)
        self.starts = [s for s, _e in spans]
        self.reach = list(itertools.accumulate((e for _s, e in spans), max))  # furthest end so far

    def overlaps(self, start: int, end: int) -> bool:
        i = bisect.bisect_left(self.starts, end)  # the spans that start before ``end``
        return i > 0 and self.reach[i - 1] > start


@_read_once
def numbers_in(text: str) -> list[Mention]:
    """Numbers written in ``text``, outside dates and clock times: in digits (a scale word after them
    multiplies: "7.19 billion", "$7,192 million") or in words ("five", "twenty-one"; number-parser
    reads them; a lone "one" is a pronoun too often to count). A sign counts only when it is attached
    ("-151.5"), so a dash after a label ("Team total - 151.5 hours") is not a minus."""
    spans = [(d.start, d.end) for d in dates_in(text)] + [(t.start, t.end) for t in times_in(text)]
    claimed = _Spans(spans)
    out = []
    for m in _NUMBER.finditer(text):
        start, end = m.start("num"), m.end("num")
        if claimed.overlaps(start, end):
            continue
        value = _read_number(m["num"])
        if value is None:
            continue
        between = text[m.start("sign"):start] if m["sign"] else ""
        if m["sign"] in ("-", "−") and not re.search(r"\s", between):
            value = -value
        symbol = m["cur"] or None
        before = _CURRENCY_BEFORE.search(text[max(0, m.start() - 5):m.start()])
        currency = _CURRENCY_NAMES.get(symbol) if symbol else (before["code"].upper() if before else None)
        stop, precision, unscaled = end, 0.0, None
        scale = _SCALE.match(text, end)
        if scale and (not scale["abbr"] or currency):
            factor = _SCALES[scale["word"].lower()]
            decimals = len(m["num"].rpartition(".")[2]) if "." in m["num"] else 0
            unscaled = value
            value, precision, stop = value * factor, factor * 10 ** -decimals / 2, scale.end()
        after = _CURRENCY_AFTER.match(text, stop)
        if after and currency is None:
            currency = _CURRENCY_NAMES.get(after["code"].lower(), after["code"].upper())
        begin = m.start() if not m["sign"] or not re.search(r"\s", between) else (m.start("cur") if m["cur"] else start)
        out.append(Mention(value, begin, stop, precision=precision, currency=currency, unscaled=unscaled))
    claimed = _Spans(spans + [(n.start, n.end) for n in out])
    for m in _NUMBER_WORDS.finditer(text):
        if m.group(0).lower() == "one" or claimed.overlaps(m.start(), m.end()):
            continue
        value = parse_number(m.group(0).replace("-", " "))
        if value is not None:
            out.append(Mention(float(value), m.start(), m.end()))
    return sorted(out, key=lambda x: x.start)


def same_number(found: Mention, wanted: float, wanted_precision: float = 0.0) -> bool:
    """Whether a written number is ``wanted``: equal, or equal at the rounding a scale word gives
    either of them ("7,192 million" is "7.19 billion")."""
    if found.unscaled is not None and not wanted_precision and abs(found.unscaled - wanted) <= 1e-6:
        return True  # "36,455 million" states 36455 as written
    return abs(found.value - wanted) <= max(1e-6, found.precision, wanted_precision) + 1e-9


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


def _remembered(compute: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``compute`` of an expected fact, remembered per fact (and simulated now, which a date written as a
    weekday and a day reads): the checks ask the same fact of every line and every value of a text."""
    cached = lru_cache(maxsize=4096)(lambda expected, _kind, _now: compute(expected))

    @wraps(compute)
    def remembered(expected: Any) -> Any:
        try:
            return cached(expected, type(expected), REFERENCE_NOW.get())
        except TypeError:  # a fact that cannot be a key
            return compute(expected)

    return remembered


@_remembered
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
    written = number_fact(expected)
    if written is not None:
        return "number", written.value
    text = collapse(expected)
    if _ISO_DATE.match(text):
        return "date", date.fromisoformat(text)
    m = _ISO_DATETIME.match(text)
    if m:
        return "datetime", datetime.fromisoformat(f"{m.group(1)} {_pad(m.group(2))}")
    if _CLOCK.match(text):
        return "time", time.fromisoformat(_pad(text))
    return "text", text


@_remembered
def number_fact(expected: Any) -> Mention | None:
    """An expected fact written as one amount ("7.19 billion", "$4,690.99", "4,690.99 EUR"), with its
    rounding and currency; None when it is not a single number."""
    if isinstance(expected, bool) or not isinstance(expected, (str, int, float)):
        return None
    text = collapse(expected)
    found = numbers_in(text)
    if len(found) != 1 or _ISO_DATE.match(text) or _CLOCK.match(text):
        return None
    rest = (text[:found[0].start] + text[found[0].end:]).strip(" $€£¥")
    return found[0] if not rest or _CURRENCY_AFTER.fullmatch(" " + rest) or _CURRENCY_BEFORE.fullmatch(rest + " ") else None


_DOTTED_TIME = re.compile(r"(?<![\d.,:$€£¥])([01]?\d|2[0-3])[.h]([0-5]\d)(?![\d,:]|\.\d)(?!\s?%)")


def dotted_times_in(text: str) -> list[Mention]:
    """Clock times written with a dot or an h ("10.00", "14h30"): read as times only where a time is
    expected, since "10.00" is also an amount."""
    return [Mention(time(int(m.group(1)), int(m.group(2))), m.start(), m.end()) for m in _DOTTED_TIME.finditer(text)]


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
    if len(body) <= _CACHED_TEXT:
        try:
            return _find_cached(body, expected, type(expected), case_sensitive, year, REFERENCE_NOW.get())
        except TypeError:  # a fact that cannot be a key
            pass
    return _find(body, expected, case_sensitive, year)


_CACHED_TEXT = 8_192  # characters: a clause or a line, which the closed-world reading asks about once per value


@lru_cache(maxsize=2048)
def _find_cached(body: str, expected: Any, _kind: type, case_sensitive: bool, year: int | None,
                 _now: datetime | None) -> Mention | None:
    """``find`` of one fact in a short text, remembered: the reading of a text's values asks the same
    clause for the same facts once per value (``_now``, the simulated now, is part of the question)."""
    return _find(body, expected, case_sensitive, year)


def _find(body: str, expected: Any, case_sensitive: bool, year: int | None) -> Mention | None:
    kind, value = fact_of(expected)
    if kind == "number":
        wanted = number_fact(expected)
        return next((m for m in numbers_in(body) if same_number(m, value, wanted.precision if wanted else 0.0)
                     and not (wanted and wanted.currency and m.currency and m.currency != wanted.currency)), None)
    if kind == "date":
        return next((m for m in dates_in(body, year) if _same_date(m.value, value)), None)
    if kind == "time":
        return next((m for m in times_in(body) + dotted_times_in(body) if m.value == value.replace(second=0)), None)
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
    if needle[0] in "+0" and phone_spans(needle) == [(0, len(needle))]:  # a phone number, in any ordinary form
        return phone_in(body, needle)
    share = _SHARE.fullmatch(needle.strip())
    if share:  # '4%' as '4 per cent', '4 percent', 'four per cent'
        n = share["n"]
        words = [re.escape(n)] + ([_SMALL[int(n)]] if n.isdigit() and int(n) < len(_SMALL) else [])
        m = re.compile(rf"(?i)(?<![\w.,])(?:{'|'.join(words)})(?:\.0+)?(?:\s*%|\s*(?:per\s?cent|pct)\b)").search(body)
        return Mention(m.group(0), m.start(), m.end()) if m else None
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
    counted = _COUNTED.fullmatch(needle)
    if m is None and counted and int(counted["n"]) < len(_SMALL):  # '2 questions' as 'two questions'
        m = _words_pattern(f"{_SMALL[int(counted['n'])]} {counted['rest']}", case_sensitive).search(body)
    if m is None and counted and re.fullmatch(r"[a-z]+s", counted["rest"]):  # '30 days' as 'a 30-day window'
        m = _words_pattern(f"{counted['n']}-{counted['rest'][:-1]}", case_sensitive, plural=False).search(body)
    if m is None and IDENTIFIER.fullmatch(needle):
        m = _identifier_pattern(needle).search(body)
    if m is None and _PERSON_NAME.fullmatch(needle):
        first, last = needle.split()
        m = _words_pattern(f"{last}, {first}", case_sensitive, plural=False).search(body)
    return Mention(m.group(0), m.start(), m.end()) if m else None


# A count before a noun ('2 questions'), stated also with the count in words ('two questions').
_COUNTED = re.compile(r"(?P<n>\d{1,2}) (?P<rest>[A-Za-z].*)")
_SMALL = list(NUMBER_WORDS)
_SHARE = re.compile(r"(?P<n>\d{1,3}(?:\.\d{1,2})?)\s*%")


# An identifier: letters then digits, with or without a separator ("PO-1234", "INV 0042", "B12").
IDENTIFIER = re.compile(r"(?P<prefix>[A-Za-z]{1,6})[\s#:_\-./]*(?P<digits>\d[\d\-]*\d|\d)")
_PERSON_NAME = re.compile(r"[A-Z][a-z'’]+ [A-Z][a-z'’-]+")


def _identifier_pattern(needle: str) -> re.Pattern:
    """An identifier in any of its written forms: separators aside, the prefix optional ("PO 1234",
    "po1234", "1234" for "PO-1234"), never a part of a longer number or identifier."""
    m = IDENTIFIER.fullmatch(needle)
    digits = r"[\s\-]?".join(re.escape(d) for d in re.sub(r"\D", "", m["digits"]))
    return re.compile(r"(?<![\w\-])(?:" + re.escape(m["prefix"]) + r"[\s#:_\-./]*)?" + digits + r"(?![\w]|[\-.,]\d)", re.I)


def _words_pattern(needle: str, case_sensitive: bool, plural: bool = True) -> re.Pattern:
    parts = [re.escape(p).replace(r"\-", r"[\s\-‐]+") for p in needle.split()]
    left = (r"(?<!\w)" + (r"(?<!\d[.,])" if needle[0].isdigit() else "")) if needle[0].isalnum() else ""
    # a plural of the last word is the same word ("Wednesdays" states "Wednesday"); "Rental" is not "Rent"
    if needle[-1].isalpha():
        right = r"(?:e?s)?(?!\w)" if plural else r"(?!\w)"
    else:
        right = r"(?!\w)(?![.,]\d)" if needle[-1].isalnum() else ""
    return re.compile(left + r"[\s\-‐]+".join(parts) + right, 0 if case_sensitive else re.I)


def _rival_between(text: str, group: list[Any], others: list[Any], *, year: int | None) -> bool | None:
    """Whether the lines of ``text`` from the first to the last of ``group``'s facts hold a line
    stating none of them, a value of one of their kinds (a number, date, time or identifier) that is
    not the group's own, or a fact of another group (None: the text does not state the whole group)."""
    found = [find(text, f, year=year) for f in group]
    if any(m is None for m in found):
        return None
    lo, hi = min(m.start for m in found), max(m.end for m in found)
    # whole lines: a rival before the first fact on its line, or after the last on its own, is between too
    lo, hi = text.rfind("\n", 0, lo) + 1, (text.find("\n", hi) + 1 or len(text) + 1) - 1
    at = 0
    for line in text.splitlines(keepends=True):  # consecutive lines, each stating one of the group's facts
        if at < hi and lo < at + len(line) and line.strip() and not any(at <= m.start < at + len(line) for m in found):
            return True
        at += len(line)
    chars = list(text)
    for m in found:
        chars[m.start:m.end] = " " * (m.end - m.start)
        joined = _RANGE_JOIN.match(text, m.end)  # "14:00 to 15:00": the range's end is the same thing's
        if joined:
            end = next(iter([*times_in(text[joined.end():joined.end() + 12]),
                             *dates_in(text[joined.end():joined.end() + 30], year)]), None)
            if end is not None and end.start == 0:
                chars[joined.end():joined.end() + end.end] = " " * end.end
    between = "".join(chars[lo:hi])
    own = [fact_of(f) for f in group]
    if any(find(between, f, year=year) is not None for f in others if f not in group):
        return True
    for kind, value in own:
        if kind == "number" and any(not same_number(m, value) for m in numbers_in(between)):
            return True
        if kind in ("date", "datetime") and any(not _same_date(m.value, value if kind == "date" else value.date())
                                                for m in dates_in(between, year)):
            return True
        if kind in ("time", "datetime"):
            wanted = (value if kind == "time" else value.time()).replace(second=0)
            if any(m.value != wanted for m in times_in(between)):
                return True
        if kind == "text" and IDENTIFIER.fullmatch(collapse(value)) and any(
                re.sub(r"\W", "", m.group(0)).lower() != re.sub(r"\W", "", collapse(value)).lower()
                for m in IDENTIFIER.finditer(between) if len(re.sub(r"\D", "", m.group(0))) >= 3):
            return True
    return False


def unbound(text: Any, groups: list[list[Any]] | None, *, case_sensitive: bool = False, year: int | None = None,
            stretch: bool = True) -> list[list[Any]]:
    """The groups of facts that belong together (an event and its time, a count and its noun) that no
    single line of ``text`` states together, nor one stretch of lines with no other value of their kinds
    and no other group's fact between them ("Order number: SO-71029" above "Order date: 1 May 2026";
    not "Budget review: 11:00" above "Standup: 10:00" for the review at 10:00); without ``stretch``, only
    one line (a table's row)."""
    groups = list(groups or [])
    body = str(text or "")
    lines = body.splitlines()
    days = {m.value for m in dates_in(body, year) if isinstance(m.value, date)}
    headed = _days_above(lines, year)
    heads = _date_headings(lines, year)

    def on_line(n: int, line: str, fact: Any, group: list[Any]) -> bool:
        if states(line, fact, case_sensitive=case_sensitive, year=year):
            return True
        kind, value = fact_of(fact)  # one day's schedule: the date said once above, each line its time;
        # or a schedule of several days, each under a line that gives its date ("Monday 14 December:")
        if kind == "date" and heads[n] is not None and _same_date(heads[n], value) and all(
                any(fact_of(f)[0] == "date" and _same_date(m.value, fact_of(f)[1]) for f in group)
                for m in dates_in(line, year) if isinstance(m.value, date)):
            return True  # a list grouped under date headings ("2 December 2026" over "- CTR-2447 ..."), where
            # the line gives no day of its own that the group does not ("Safety walk - Tuesday 21 July")
        return kind == "datetime" and (days == {value.date()} or headed[n] == value.date()) \
            and states(line, value.time(), year=year)

    cards = _cards(lines) if stretch else []
    out = []
    for k, group in enumerate(groups):
        if any(all(on_line(n, line, f, group) for f in group) for n, line in enumerate(lines)):
            continue
        if any(_card_states(card, group, case_sensitive=case_sensitive, year=year) for card in cards):
            continue
        if stretch and _sole_item_states(body, group, case_sensitive=case_sensitive, year=year):
            continue
        others = [f for j, g in enumerate(groups) if j != k for f in g]
        if stretch and any(_rival_between(chunk, group, others, year=year) is False
                           for chunk in _stretches(lines, len(group),
                                                   lambda line: any(find(line, f, year=year) for f in group))):
            continue
        out.append(group)
    return out


_LABEL_LINE = re.compile(r"^\s*(?:[-*•]\s*)?(?P<label>[A-Za-z][\w ()/&'’.-]{0,40}?)\s*:\s+\S")
_LIST_MARK = re.compile(r"^\s*(?:[-*•–]|\d{1,3}[.)])\s")
_HEADING_FILL = re.compile(r"(?i)\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|[^\w]+")
CARD_LINES = 12  # a card longer than this is a table or a document, not one thing's fields


def _cards(lines: list[str]) -> list[list[str]]:
    """Each run of two or more consecutive "Label: value" lines ("Invoice number: KP-2608-0297" above
    "Amount invoiced: GBP 2,436.95"): one thing's fields, which its labels tell apart."""
    out, run = [], []
    for line in [*lines, ""]:
        m = _LABEL_LINE.match(line)
        if m and len(m.group("label").split()) <= 5:
            run.append(line)
            continue
        if 2 <= len(run) <= CARD_LINES:
            out.append(run)
        run = []
    return out


def _sole_item_states(text: str, group: list[Any], *, case_sensitive: bool, year: int | None) -> bool:
    """Whether a text about one item alone states every fact of ``group``: its identifier is the only one
    of its series the text names ("Thank you for your email about order SO-72604." then "The order was
    placed on 13 November 2026."), so what it says of an order is that order's."""
    return _card_states(text.splitlines(), group, case_sensitive=case_sensitive, year=year)


def _card_states(card: list[str], group: list[Any], *, case_sensitive: bool, year: int | None) -> bool:
    """Whether one card states every fact of ``group`` and is about the group's identifier alone: the
    card names no other identifier of its series (letters before the digits), so each labelled value is
    that thing's."""
    idents = [collapse(v) for k, v in map(fact_of, group) if k == "text" and IDENTIFIER.fullmatch(collapse(v))]
    if len(idents) != 1:
        return False
    series = re.match(r"[A-Za-z]*", idents[0]).group(0).lower()
    own = re.sub(r"\W", "", idents[0]).lower()
    text = "\n".join(card)
    if any(re.sub(r"\W", "", m.group(0)).lower() != own and re.match(r"[A-Za-z]*", m.group(0)).group(0).lower() == series
           for m in IDENTIFIER.finditer(text)):
        return False
    return all(states(text, f, case_sensitive=case_sensitive, year=year) for f in group)


def _date_headings(lines: list[str], year: int | None) -> list[date | None]:
    """For each line, the date of the heading it stands under: a line that gives one date and at most
    three other words ("2 December 2026", "Deadline 1 April 2027:"), over the block of lines right
    below it (one blank line after the heading allowed), as a list grouped by date writes it."""
    out: list[date | None] = [None] * len(lines)
    for n, line in enumerate(lines):
        if not line.strip() or _LIST_MARK.match(line) or line.rstrip().endswith(".") or times_in(line):
            continue  # a sentence ("Today is 19 October 2026.") is not a heading
        found = [m for m in dates_in(line, year) if isinstance(m.value, date)]
        if len(found) != 1:
            continue
        rest = line[:found[0].start] + " " + line[found[0].end:]
        if len(_HEADING_FILL.sub(" ", rest).split()) > 3:
            continue
        k = n + 1
        if k < len(lines) and not lines[k].strip():
            k += 1
        while k < len(lines) and lines[k].strip():
            out[k] = found[0].value
            k += 1
    return out


def _stretches(lines: list[str], size: int, starts: Callable[[str], bool]) -> list[str]:
    """Each run of ``size`` written lines (blank lines between them kept) from each line on: where a group may
    stand as a stretch, whatever another line above says of one of its facts (a subject naming the order
    above "Order number: SO-71029" and "Order date: 1 May 2026")."""
    out = []
    for i, line in enumerate(lines):
        if not line.strip() or not starts(line):
            continue
        run, written = [], 0
        for later in lines[i:]:
            run.append(later)
            written += bool(later.strip())
            if written == size:
                break
        out.append("\n".join(run))
    return out


def _days_above(lines: list[str], year: int | None) -> list[date | None]:
    """For each line, the day of the nearest line above it (or itself) that states one date and no time:
    a schedule's day heading ("Monday 14 December:" over "09:30-10:00 Stefan Moreau")."""
    out: list[date | None] = []
    day = None
    for line in lines:
        if not line.strip():
            out.append(day)
            continue
        dates = {m.value for m in dates_in(line, year) if isinstance(m.value, date)}
        if len(dates) == 1 and not times_in(line):
            day = next(iter(dates))
        elif len(dates) > 1:
            day = None
        out.append(day)
    return out


_PHONE = re.compile(r"(?<![\w.,:/-])(?:\+\d{1,3}|0)\d*(?:[ ()-]+\d{2,}){2,}(?![\d:/])")


def phone_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` writes phone numbers ("+44 7700 900852", "020 7946 0018"): their digits are one
    number to call, not amounts."""
    return [(m.start(), m.end()) for m in _PHONE.finditer(text) if len(re.sub(r"\D", "", m.group(0))) >= 9]


_COMPACT_PHONE = re.compile(r"(?<![\w.,:/-])(?:\+\d{10,14}|0\d{9,10}|0\d{4} \d{6})(?![\d:/])")


def phone_in(body: str, needle: str) -> Mention | None:
    """Where ``body`` writes the phone number ``needle`` in any ordinary form: spaced, hyphenated, in
    brackets or run together ("+44 7700 900852", "+447700900852", "07700 900852"), or None."""
    key = phone_key(needle)
    for m in [*_PHONE.finditer(body), *_COMPACT_PHONE.finditer(body)]:
        if len(re.sub(r"\D", "", m.group(0))) >= 9 and phone_key(m.group(0)) == key:
            return Mention(m.group(0), m.start(), m.end())
    return None


def phone_key(written: str) -> str:
    """A phone number by its last nine digits: "+44 20 7946 5829" and "020 7946 5829" are one number."""
    return re.sub(r"\D", "", written)[-9:]


def rebound(text: Any, groups: list[list[Any]] | None, *, year: int | None = None,
            people: Callable[[str], set[str]] | None = None) -> list[tuple[list[Any], str]]:
    """Groups whose item another line pairs with another identifier of the item's own shape: two answers
    for one item. An item named by its first fact ("Wren House Hostels: last order SO-71971" and, below
    it, "Wren House Hostels: last order SO-70351"), or one that is itself an identifier whose other facts
    another line gives an order no group names ("PO-4789: promised 11 November, delivered 13 November"
    and "PO-4388: promised 11 November, delivered 13 November"), or one whose other facts are people
    (``people``: who a line names) that another line gives someone no group names ("14 December: Mira
    Iyer" and "14 December: Rosa Tanaka"). (group, that line) for each."""
    out = []
    lines = str(text or "").splitlines()
    named = {re.sub(r"\D", "", str(f)) for group in groups or [] for f in group
             if fact_of(f)[0] == "text" and IDENTIFIER.fullmatch(str(f).strip())}
    named_people = {p for group in groups or [] for f in group[1:] for p in (people(str(f)) if people else ())}
    # the items themselves ("I've moved Ines Wolff's start date") pair nobody with another item
    named_people |= {p for group in groups or [] if group for p in (people(str(group[0])) if people else ())}
    for group in groups or []:
        if len(group) < 2:
            continue
        own_people = {p for f in group[1:] for p in (people(str(f)) if people else ())}
        if own_people and not IDENTIFIER.fullmatch(str(group[0]).strip()):
            for line in lines:
                if not states(line, group[0], year=year) or all(states(line, f, year=year) for f in group):
                    continue
                if people(line) - named_people:
                    out.append((group, line.strip()))
                    break
            continue
        if fact_of(group[0])[0] != "text":
            continue
        if IDENTIFIER.fullmatch(str(group[0]).strip()):
            own, rest = str(group[0]).strip(), group[1:]
            for line in lines:
                if states(line, own, year=year) or not all(states(line, f, year=year) for f in rest):
                    continue
                if any(re.sub(r"\D", "", x) not in named for x in _rival_ids(line, own)):
                    out.append((group, line.strip()))
                    break
            continue
        ids = [str(f).strip() for f in group[1:] if fact_of(f)[0] == "text" and IDENTIFIER.fullmatch(str(f).strip())]
        for line in lines:
            if not ids or not states(line, group[0], year=year) or all(states(line, f, year=year) for f in group):
                continue
            if any(_rival_ids(line, own) for own in ids):
                out.append((group, line.strip()))
                break
    return out


def _rival_ids(line: str, own: str) -> list[str]:
    """Identifiers of ``line`` with the prefix of ``own`` but other digits."""
    m = IDENTIFIER.fullmatch(own)
    digits = re.sub(r"\D", "", m["digits"])
    shape = re.compile(rf"(?<![\w-]){re.escape(m['prefix'])}[\s#:_\-./]*(\d[\d\-]*\d|\d)(?![\w-])", re.I)
    return [x[0] for x in shape.finditer(line) if re.sub(r"\D", "", x[1]) != digits]


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
        wanted = number_fact(expected)
        return [body[m.start:m.end].strip() for m in numbers_in(body)
                if not same_number(m, value, wanted.precision if wanted else 0.0) and round(m.value, 6) not in own]
    if kind == "date":
        return [body[m.start:m.end] for m in dates_in(body, year) if not _same_date(m.value, value)]
    if kind == "time":
        return [body[m.start:m.end] for m in times_in(body) if m.value != value.replace(second=0)]
    return []


# ---- a message's own words -----------------------------------------------------------------------
QUOTE_HEADER = re.compile(r"^\s*(?:On .{0,200}wrote:|-{2,}\s*(?:Original|Forwarded) [Mm]essage\s*-{2,}|From:\s.+)\s*$")


def own_text(body: Any) -> str:
    """A message body without the original it replies to or forwards: quoted ``>`` lines and
    everything after an "On ... wrote:" or "---------- Forwarded message ----------" line."""
    lines = []
    for line in str(body or "").splitlines():
        if QUOTE_HEADER.match(line):
            break
        if line.lstrip().startswith(">"):
            continue
        lines.append(line)
    return "\n".join(lines)
