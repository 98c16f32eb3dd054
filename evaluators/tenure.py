"""Since when someone has been with the firm: "As you only joined us in 2025", "Mei Roth, who has been with
us since 2018", against the start date of their staff row ("Start date", "Joined", "Hired").

The person is the one written to where the clause says "you", else the person named last before it in the
sentence. A year (or a month and year) that is not their start date's is false. Pure function of the records."""

from __future__ import annotations

import re
from datetime import date

from officesim.evaluators.records import FULL_NAME, GENERIC, Records, name_key
from officesim.evaluators.roles import NAME_COLUMN, _rows_named

_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_PLACE = r"(?:us|(?:the|our|this)\s+(?:[a-z]+\s+){0,2}?(?:company|firm|team|business|department|group))"
_JOINED = re.compile(r"(?i)\b(?:joined(?:\s+" + _PLACE + r")?|started(?:\s+(?:with|at)\s+" + _PLACE + r")?|"
                     r"(?:been|worked)\s+(?:with|at|in|for)\s+" + _PLACE + r"\s+since|(?:been|worked)\s+here\s+since|"
                     r"with\s+us\s+since|here\s+since|"
                     r"came\s+on\s+board|was\s+hired)\s+(?:back\s+)?(?:in\s+)?(?:(?P<month>" + _MONTHS
                     + r")\s+)?(?P<year>(?:19|20)\d{2})\b")
_START_LABEL = re.compile(r"(?i)\b(?:start|started|joined|joining|hired|hire|employed)\b")
_NOT_PLAIN = re.compile(r"(?i)\b(?:if|unless|not|n't|never|will|would)\b")


def _start_dates(records: Records, person: str) -> list[date]:
    return [a.value for i in _rows_named(records, person) for label, a in records.entities[i].values("date")
            if isinstance(a.value, date) and _START_LABEL.search(label or "")]


_FIRST_OR_PRONOUN = re.compile(r"\b(?:[A-Z][a-z]+|[Ss]he|[Hh]e)\b")


def _person_before(text: str, start: int, clause: str, records: Records) -> list[str]:
    """Whom a clause says joined: a full name in it, else a first name (or he/she) of the last person the text
    named in full before it ("... is Mei Roth, copied here. Mei has been with our sales team since 2018")."""
    named = [name_key(n.group(0)) for n in FULL_NAME.finditer(clause)]
    people = [k for k in named if _start_dates(records, k)][-1:]
    if people:
        return people
    earlier = [name_key(n.group(0)) for n in FULL_NAME.finditer(text, 0, start)]
    earlier = [k for k in dict.fromkeys(reversed(earlier)) if _start_dates(records, k)]
    for word in reversed([w.group(0) for w in _FIRST_OR_PRONOUN.finditer(clause)]):
        if word.lower() in ("he", "she"):
            return earlier[:1]
        kin = [k for k in earlier if k.split()[0] == word.lower()]
        if kin:
            return kin[:1]
    return []


def joined_problems(text: str, addressees: list[str], records: Records) -> list[str]:
    """Each "joined in <year>" said of someone whose staff row starts in another year (see the module rules)."""
    to = {k for a in addressees[:20] for i in records.by_key.get(a.lower(), ())[:GENERIC]
          for label, k in records.entities[i].names if NAME_COLUMN.match(label)}
    out = []
    for m in _JOINED.finditer(text):
        start = max(text.rfind(".", 0, m.start()), text.rfind("\n", 0, m.start())) + 1
        clause = text[start:m.start()]
        if _NOT_PLAIN.search(clause[-40:]):
            continue
        if re.search(r"(?i)\byou\b", clause[-30:]):
            people = list(to) if len(to) == 1 else []
        else:
            people = _person_before(text, start, clause, records)
        if not people:
            continue
        starts = _start_dates(records, people[0])
        if not starts:
            continue
        year = int(m.group("year"))
        month = m.group("month")
        if any(d.year == year and (not month or d.strftime("%B").lower() == month.lower()) for d in starts):
            continue
        out.append(f"{' '.join(text[start:m.end()].split())[:90]!r} says {people[0]} joined in "
                   f"{(month + ' ') if month else ''}{year}, but their row gives {starts[0].isoformat()}")
    return out


_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                 "ten": 10, "a": 1}
# "Rafael hasn't yet completed the two years' service", "under two years' service", "more than five years with us"
_SERVICE = re.compile(r"(?i)\b(?:(?P<short>(?:has|have)\s*(?:n't|not)\s+(?:yet\s+)?(?:completed|reached|done|got|served)|"
                      r"not\s+yet\s+(?:completed|reached|served)|under|less than|fewer than|short of)|"
                      r"(?P<long>over|more than|at least|(?:has|have)\s+(?:already\s+)?(?:completed|served|done)))\s+"
                      r"(?:the\s+|his\s+|her\s+|their\s+)?(?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|a)"
                      r"\s+years?['’]?\s+(?:of\s+)?(?:service|with us|here|at the (?:company|firm))")


def _said_of(text: str, m: re.Match, records: Records, hedges: str = r"if|unless|would|will"
             ) -> tuple[int, str, date, int] | None:
    """For a mention of years of service: where its sentence starts, whom it is said of, their one start date,
    and the years it says; None where its clause is a condition or names no one with one start date."""
    start = max(text.rfind(".", 0, m.start()), text.rfind("\n", 0, m.start())) + 1
    clause = text[start:m.start()]
    if re.search(rf"(?i)\b(?:{hedges})\b", clause[-40:]):
        return None
    people = _person_before(text, start, clause, records)
    starts = _start_dates(records, people[0]) if people else []
    if len(starts) != 1:
        return None
    word = m.group("n").lower()
    return start, people[0], starts[0], int(word) if word.isdigit() else _NUMBER_WORDS[word]


def service_problems(text: str, records: Records, today: date | None) -> list[str]:
    """Years of service said of someone that their staff row's start date contradicts ("hasn't yet completed
    the two years' service" of someone who joined in 2016): at today's date, in whole years."""
    if today is None:
        return []
    out = []
    for m in _SERVICE.finditer(text):
        said = _said_of(text, m, records)
        if said is None:
            continue
        start, person, joined, n = said
        years = (today - joined).days / 365.25
        if (m.group("short") and years >= n) or (m.group("long") and years < n):
            out.append(f"{' '.join(text[start:m.end()].split())[:100]!r} says of {person} "
                       f"{'less' if m.group('short') else 'more'} than {n} years' service, but their row starts "
                       f"{joined.isoformat()}")
    return out


_YEARS_ON = re.compile(r"(?i)\b(?:reaches|reached|hits|hit|completes|completed|passes|passed|will (?:reach|hit|complete|pass))\s+"
                       r"(?:(?:his|her|their)\s+)?(?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\s+years?['’]?\s+"
                       r"(?:(?:of\s+)?service\s+|with us\s+|here\s+)?on\s+")
_ABOUT_YEARS = re.compile(r"(?i)\b(?P<w>nearly|almost|just under|just over|about|around|roughly|over|more than)\s+"
                          r"(?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\s+years?['’]?\s+"
                          r"(?:(?:of\s+)?service|with (?:us|the (?:company|firm))|here|at the (?:company|firm))")


_ABOUT_YEARS_AFTER = re.compile(r"(?i)\b(?:been|worked|served)\s+(?:with (?:us|the (?:company|firm))|here|at the (?:company|firm))\s+"
                                r"(?:for\s+)?(?P<w>nearly|almost|just under|just over|about|around|roughly|over|more than)\s+"
                                r"(?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\s+years?\b")


def anniversary_problems(text: str, records: Records, today: date | None, year: int | None) -> list[str]:
    """The day someone reaches N years' service ("she reaches two years with us on 2 November"), which must be
    their start date N years on; and "nearly seven years with the company", which must be within a year of
    their service at today's date."""
    from officesim.evaluators.claims import claims_in

    out = []
    for m in _YEARS_ON.finditer(text):
        start = max(text.rfind(".", 0, m.start()), text.rfind("\n", 0, m.start()), text.rfind("—", 0, m.start())) + 1
        clause = text[start:m.start()]
        people = _person_before(text, start, clause, records) or _person_before(text, 0, text[:m.start()][-200:], records)
        starts = _start_dates(records, people[0]) if people else []
        said = [c.value for c in claims_in(text[m.end():m.end() + 40], year=year, kinds=("date",))[:1]
                if isinstance(c.value, date)]
        if len(starts) != 1 or not said:
            continue
        word = m.group("n").lower()
        n = int(word) if word.isdigit() else _NUMBER_WORDS[word]
        try:
            due = starts[0].replace(year=starts[0].year + n)
        except ValueError:  # 29 February
            due = date(starts[0].year + n, 3, 1)
        if abs((said[0] - due).days) > 1:
            out.append(f"{' '.join(text[start:m.end() + 20].split())[:100]!r} gives the day {people[0]} reaches {n} "
                       f"years' service as {said[0].isoformat()}, but their row starts {starts[0].isoformat()}")
    if today is not None:
        for m in [*_ABOUT_YEARS.finditer(text), *_ABOUT_YEARS_AFTER.finditer(text)]:
            said = _said_of(text, m, records, r"if|unless|would|will|not|n't")
            if said is None:
                continue
            start, person, joined, n = said
            years = (today - joined).days / 365.25
            w = m.group("w").lower()
            low, high = ((n - 1, n) if w in ("nearly", "almost", "just under") else
                         (n, n + 1) if w in ("just over", "over", "more than") else (n - 1, n + 1))
            if not (low - 0.05 <= years <= high + 0.05):
                out.append(f"{' '.join(text[start:m.end()].split())[:100]!r} says {w} {n} years of {person}, "
                           f"but their row starts {joined.isoformat()}")
    return out
