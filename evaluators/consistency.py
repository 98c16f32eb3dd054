"""What a text says of its own lists: a count of its lines of one kind, a total of the day spans its lines
give. The text is its own record here: "most of them (5) are password expiry" over a list with four such
lines, or "together these orders arrived 31 days late" under four lines whose promised and delivered
dates are 27 days apart in all, is false whatever the office holds.
"""

from __future__ import annotations

import re
from datetime import date

from officesim.evaluators.claims import claims_in
from officesim.evaluators.text import NUMBER_WORDS, number_of as _number

_NUMBER = r"(?P<n>\d{1,3}|" + "|".join(NUMBER_WORDS) + r")"
_ITEM = re.compile(r"^\s*(?:[-*•–]|\d{1,2}[.)]|#\d)")
# "(5) are password expiry", "three of them are printer jams", "two were VPN slow"
_KIND_COUNT = re.compile(r"(?i)(?<![\w.,£$€/-])" + _NUMBER + r"\)?\s+(?:of (?:them|these|those)\s+)?(?:are|were)\s+"
                         r"(?:for\s+|about\s+)?(?P<phrase>[a-z][\w'’ -]{2,40}?)(?=\s*(?:[,.;:()!?]|$|\s(?:and|plus|but|while)\s))")
# "together these orders arrived 31 days late", "27 days late in total"
_DAYS_TOTAL = re.compile(r"(?i)(?<![\w.,£$€/-])" + _NUMBER + r"\s+(?P<kind>calendar\s+|working\s+|business\s+)?days?\b")
_TOTAL_WORDS = re.compile(r"(?i)\b(?:in total|total|totalling|together|combined|altogether|in all|between them|all told)\b")


_STATE = re.compile(r"(?:(?:already|still|now|currently|all|both|also)\s+)*(?:done|open|closed|late|overdue|due|paid|unpaid|"
                    r"new|pending|approved|rejected|held|on hold|resolved|outstanding|cleared|waiting)(?:\s+\w+)?")


# a line that opens with an identifier and a dash ("#5102 — Password expiry"), bounded: linear in the line
_ID_LINE = re.compile(r"\s{0,8}#?[A-Za-z]{0,8}-?\d{1,10}\s{1,4}[—–-]\s")




def _item_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if _ITEM.match(line) or _ID_LINE.match(line)]


def kind_count_problems(text: str) -> list[str]:
    """A count of the text's own list lines of one kind ("most of them (5) are password expiry") that is
    not how many of its lines say that kind."""
    items = [line.casefold() for line in _item_lines(text)]
    if len(items) < 2:
        return []
    out = []
    for m in _KIND_COUNT.finditer(text):
        phrase = " ".join(m.group("phrase").casefold().split())
        if len(phrase) < 4 or _STATE.fullmatch(phrase):
            continue  # a state every line may carry without saying it ("15 of them are already overdue")
        having = sum(1 for line in items if phrase in line and not re.search(
            rf"(?:\bnot|n't|\bno)\s+(?:\w+\s+)?{re.escape(phrase)}", line))  # "not approved" is not "approved"
        n = _number(m.group("n"))
        if having >= 2 and having != n:  # a kind its lines carry, at least two of them
            out.append(f"{m.group(0).strip()!r} counts {n} of its list as {phrase!r}, but {having} of its lines say so")
    return out


def day_total_problems(text: str, year: int | None) -> list[str]:
    """A total of days late or early over the text's own lines ("Together these orders arrived 31 days late"
    under lines each giving a promised and a delivered date) that is not the sum of their differences, in
    calendar or working days."""
    spans: list[tuple[date, date]] = []
    for line in _item_lines(text):
        days = [c.value for c in claims_in(line, year=year, kinds=("date",)) if isinstance(c.value, date)]
        if len(days) == 2:
            spans.append((min(days), max(days)))
    if len(spans) < 2:
        return []
    calendar = sum((b - a).days for a, b in spans)
    working = sum(sum(1 for k in range(1, (b - a).days + 1) if date.fromordinal(a.toordinal() + k).weekday() < 5)
                  for a, b in spans)
    allowed = {calendar, working}  # days late are a difference of two dates, not a span counted at both ends
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+|\n", text):
        if not _TOTAL_WORDS.search(sentence) or _item_lines(sentence):
            continue
        for m in _DAYS_TOTAL.finditer(sentence):
            if not re.match(r"(?i)\s+(?:late|early|overdue|behind|after)\b", sentence[m.end():]) and \
                    not re.search(r"(?i)\b(?:late|early|overdue|behind)\b", sentence):
                continue
            n = _number(m.group("n"))
            if n not in allowed:
                out.append(f"{sentence.strip()[:90]!r} totals {n} days, but its lines' dates are {calendar} days apart "
                           f"in all")
    return out
