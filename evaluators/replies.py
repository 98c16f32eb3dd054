"""What a reply restates of the message it answers.

A reply that gives back the dates of a request ("your annual leave from 10 to 12 November is approved")
gives them as the request does: the request stands in the quoted mail, not in any sheet, so the records
cannot say it. A range that keeps one end of a range of the quoted message and moves the other is a false
restatement; a range of other days entirely is about something else, and is left to the other readings.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from officesim.evaluators.claims import claims_in
from officesim.evaluators.facts import QUOTE_HEADER
from officesim.evaluators.text import NUMBER_WORDS

# what stands between the two ends of a range: "10-11 November", "from 10 to 12 November", "until"
_GAP = re.compile(r"(?i)\s*(?:-|–|—|to|until|till|through|thru)\s*(?:[A-Za-z]+,?\s+)?")
_ADDRESSED = re.compile(r"(?i)\b(?:you|your|yours)\b")
# a decision on the request opens the sentence: "Approved — three days, Tuesday 27 to Thursday 29 October"
_DECIDED = re.compile(r"(?i)(?:approved|confirmed|agreed|granted|booked|declined|rejected|that's fine|all fine)\b")
_PART = re.compile(r"(?i)\b(?:only|instead|rather|part|partly|but not|except|apart from|first|last|remaining|rest)\b")


def answered_days(body: Any, year: int | None) -> list[date]:
    """The day of the message a reply answers, as its "On ... wrote:" header gives it ("14 December is only 8
    days after your request" counts from it)."""
    for line in str(body or "").splitlines():
        if QUOTE_HEADER.match(line) and line.lstrip().startswith("On "):
            return [c.value for c in claims_in(line, year=year, kinds=("date",))
                    if isinstance(c.value, date)][:1]
    return []


def quoted_text(body: Any) -> str:
    """The message a reply quotes: the lines after its "On ... wrote:" header, without their ``>``."""
    lines = str(body or "").splitlines()
    for n, line in enumerate(lines):
        if QUOTE_HEADER.match(line):
            return "\n".join(re.sub(r"^\s*>\s?", "", rest) for rest in lines[n + 1:])
    return ""


def date_ranges(text: str, year: int | None) -> list[tuple[date, date, int, int]]:
    """Each range of days ``text`` writes (first day, last day, where it starts and ends). A numeric date that
    reads both ways ("07/12/2026") gives its ranges in one order at both ends (7–9 December, or 12 July–12
    September), never one end read day-first and the other month-first."""
    spans: dict[tuple[int, int], list[date]] = {}
    for c in claims_in(text, year=year, kinds=("date",)):
        if isinstance(c.value, date):
            spans.setdefault((c.start, c.end), []).append(c.value)
    ends = sorted(spans.items())
    out = []
    for ((a_lo, a_hi), firsts), ((b_lo, b_hi), lasts) in zip(ends, ends[1:]):
        if not _GAP.fullmatch(text[a_hi:b_lo]):
            continue
        pairs = list(zip(firsts, lasts)) if len(firsts) == len(lasts) else [(x, y) for x in firsts for y in lasts]
        out += [(x, y, a_lo, b_hi) for x, y in pairs if x < y]
    return out


def restated_range_problems(own: str, quoted: str, year: int | None) -> list[str]:
    """Ranges a reply gives of its reader's own request ("your leave from 10 to 12 November") that keep one
    end of a range the quoted message gives and move the other."""
    asked = date_ranges(quoted, year)
    if not asked:
        return []
    given = date_ranges(own, year)
    out = []
    for first, last, lo, hi in given:
        start = max(own.rfind("\n", 0, lo), max(own.rfind(". ", 0, lo), 0))
        end = min(x for x in (own.find("\n", hi), own.find(". ", hi), len(own)) if x >= 0)
        if not (_ADDRESSED.search(own[start:end]) or _DECIDED.match(own[start:lo].lstrip(" \n-—–:,")))\
                or _PART.search(own[start:end]):
            continue  # not of the reader's own request, or a part of it said as a part ("only 10-11 November")
        readings = {(x, y) for x, y, l2, h2 in given if (l2, h2) == (lo, hi)}
        if any((a, b) in readings for a, b, _l, _h in asked):
            continue  # one reading of the range is the message's
        for a, b, _l, _h in asked:
            if (first == a) != (last == b) and not any((x, y) == (a, b) for x, y, _l, _h in given):
                out.append(f"{own[lo:hi]!r} restates the range of the message it answers as {first:%d %B}–{last:%d %B}, "
                           f"but that message gives {a:%d %B}–{b:%d %B}")
                break
    return out


# "your training day on Monday 28 December", "your day off on 29 December": one day of the reader's own request
_YOUR_DAY = re.compile(r"(?i)\byour\s+(?P<noun>(?:[a-z-]+\s+){0,2}?(?:training|leave|holiday|day off|absence|"
                       r"appointment|course|session|request|day))\b")


def restated_day_problems(own: str, quoted: str, year: int | None) -> list[str]:
    """A day a reply gives of its reader's own request ("your training day on Monday 28 December is approved")
    that the message it answers does not give, where that message gives one day or one range and names what
    the reply says it of: the request stands in the quoted mail, so the day must be one of its days."""
    asked = [c.value for c in claims_in(quoted, year=year, kinds=("date",)) if isinstance(c.value, date)]
    ranges = date_ranges(quoted, year)
    if not asked or len(set(asked)) > 2 and not ranges:
        return []
    days = set(asked) | {a + timedelta(days=k) for a, b, _l, _h in ranges for k in range((b - a).days + 1)}
    out = []
    for m in _YOUR_DAY.finditer(own):
        noun = m.group("noun").split()[-1].lower()
        if noun not in quoted.lower():
            continue  # the request says nothing of that kind: not a restatement of it
        end = min(x for x in (own.find("\n", m.end()), own.find(". ", m.end()), own.find(";", m.end()), len(own)) if x >= 0)
        if _OTHER_LEAVE.match(own, m.end()):
            continue  # "your leave already approved from 8 to 19 December": another of their leave, not the request
        said = [c for c in claims_in(own[m.end():end], year=year, kinds=("date",)) if isinstance(c.value, date)][:1]
        if said and said[0].value not in days and not _PART.search(own[m.start():end]):
            out.append(f"{' '.join(own[m.start():end].split())[:90]!r} gives {said[0].text} as the day of the request "
                       f"it answers, but that message gives {', '.join(sorted({d.strftime('%d %B') for d in asked}))}")
    return out


_OTHER_LEAVE = re.compile(r"(?i)\s+(?:that\s+(?:is|was|has been)\s+|which\s+(?:is|was|has been)\s+)?(?:already|previously|earlier|"
                          r"also|approved|booked|existing|other)\b")
_NOTICE_SAID = re.compile(r"(?i)\b(?P<bound>more than|over|at least|under|less than|fewer than|only|just)?\s*"
                          r"(?P<n>\d{1,2}|" + "|".join(NUMBER_WORDS) + r")\s+(?P<unit>weeks?|days?)(?:['’]s?|s['’])?\s+"
                          r"(?:of\s+)?notice\b")
_NOTICE_RULE = re.compile(r"(?i)\b(?:polic(?:y|ies)|rules?|requires?|required|asks? for|needs?|must|minimum|at least|"
                          r"should|would|if|unless|for (?:leave|anything|requests?) (?:of|longer|over|more))\b")

def notice_problems(own: str, quoted: str, answered: list[date], year: int | None) -> list[str]:
    """Notice a reply says its reader gave ("thanks for giving more than two weeks' notice") that the days
    between the request's arrival and the first day it asks for do not give; a rule's notice ("the policy asks
    for two weeks' notice") is not read."""
    asked = [c.value for c in claims_in(quoted, year=year, kinds=("date",)) if isinstance(c.value, date)]
    if not asked or not answered:
        return []
    given = (min(asked) - answered[0]).days
    if given < 0:
        return []
    out = []
    for m in _NOTICE_SAID.finditer(own):
        start = max(own.rfind(". ", 0, m.start()), own.rfind("\n", 0, m.start()), -1) + 1
        end = min(x for x in (own.find(". ", m.end()), own.find("\n", m.end()), len(own)) if x >= 0)
        if _NOTICE_RULE.search(own[start:end]):
            continue
        word = m.group("n").lower()
        n = int(word) if word.isdigit() else NUMBER_WORDS[word]
        days = n * 7 if m.group("unit").lower().startswith("week") else n
        bound = (m.group("bound") or "").lower()
        ok = {"more than": given > days, "over": given > days, "under": given < days, "less than": given < days,
              "fewer than": given < days}.get(bound, abs(given - days) <= 1 if m.group("unit").lower().startswith("day")
                                               else abs(given - days) <= 3)
        if not ok:
            out.append(f"{' '.join(own[start:end].split())[:90]!r} says {m.group(0).strip()}, but the request arrived "
                       f"{answered[0]:%d %B} for {min(asked):%d %B}: {given} days")
    return out
