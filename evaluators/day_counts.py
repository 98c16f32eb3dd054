"""Day counts a text gives of the things it names, against the dates of their records.

"It was submitted 45 days after the expense", "she gave 8 days' notice", "5 days of annual leave", "13
days overdue", "Redfern's deadline is 45 days away": a number of days said of an item (named in the
sentence or the two before it, or the person written to) is a span between two of its dates, or between
one of them and today, or a number of days its record holds ("Notice (days): 30"). Where the item's
records and the text's nearby dates give no such span, the count is false.

A count with a bound ("more than 30 days", "within 5 working days"), a count in a sentence about a rule
(policy, window, limit, allowed, must), a count the task's own texts give, and a count of an item with
fewer than two dates are not read. Working days are accepted only where the text says working days.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Iterable

from officesim.evaluators.claims import BEFORE_IT, MAX_CLAIMS, _sentence_at, claims_in
from officesim.evaluators.records import Records
from officesim.evaluators.statements import about_others
from officesim.evaluators.text import NUMBER_WORDS

DAY_SPAN = re.compile(r"(?i)(?<![\w.,£$€/:-])(?P<n>\d{1,3}|" + "|".join(NUMBER_WORDS) + r")\s+"
                   r"(?P<kind>calendar\s+|working\s+|business\s+)?days?(?:'|’|'s|’s)?(?![\w-])")
_BOUND = re.compile(r"(?i)\b(?:more than|less than|(?:worse|longer|later|shorter|greater|bigger) than|beyond|fewer than|at least|at most|within|inside|inside of|outside|up to|under|over|no more than|"
                    r"no less than|not more than|maximum|minimum|min\.?|max\.?|about|around|roughly|approximately|"
                    r"nearly|almost|some|every|each|per|another|extra|further|first|last|next|other)\s+$")
_RULE = re.compile(r"(?i)\b(?:polic(?:y|ies)|rules?|window|limit|allow\w*|must|need\w*|requires?|required|terms?|"
                   r"guidance|handbook|grace|standard|usual(?:ly)?|normally|typical(?:ly)?|SLA|target|promise\w*|"
                   r"if|unless|would|could|should|may|might|will|plan\w*|expect\w*)\b")
_BETWEEN_EVENTS = re.compile(r"(?i)\s*(?:(?:of\s+)?notice|late|after|before|overdue|ago|away|ahead|early|earlier|later|"
                             r"left|to go|until|since|in advance|beforehand|past|from)\b")
_EXACT = re.compile(r"(?i)\s*(?:late|early|overdue|ago|away|ahead|earlier|later)\b")
_FROM_TODAY = re.compile(r"(?i)\s*(?:late|overdue|ago|away|ahead|left|to go|until|since|past|remaining|old|"
                         r"from (?:now|today)|outstanding|open|waiting|in arrears)\b")
_IN_FROM_TODAY = re.compile(r"(?i)\b(?:in|due in|comes? in)\s+$")  # "reaches its deadline in 75 days"
_FROM_DAY = re.compile(r"(?i)\s*(?:(?:of|off)\s+(?:[a-z]+\s+){0,2})?(?:from|starting(?:\s+on)?|beginning(?:\s+on)?)\s+"
                       r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?\d")
_OFF = re.compile(r"(?i)\s*(?:off|of\s+(?:annual\s+|sick\s+|unpaid\s+)?leave|(?:annual\s+|sick\s+)?leave|holiday)\b")
_SUMMED = re.compile(r"(?i)(?:\s+(?:late|overdue|early|of\s+delay))?\s*(?:in total|in all|altogether|combined|overall|"
                     r"between them|all told)\b")
_BEFORE_A_DAY = re.compile(r"(?i)\s+(?:before|ahead of|prior to|in advance of)\s+(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?"
                           r"(?:the\s+)?\d")
# "74 days before the change takes effect": from today to a day the text gives elsewhere
_BEFORE_IT = re.compile(r"(?i)\s+" + BEFORE_IT)
_COUNT_RANGE = re.compile(r"(?i)\b\d{1,3}\s*(?:to|-|–|—|or)\s*$")
_LIST_LINE = re.compile(r"[ \t]*(?:[-*•–]|\d{1,2}[.)])\s+\S")
MAX_DATES = 12  # dates of one row, and of a text's window, paired with one another
MAX_ROWS = 40  # rows of the things one sentence names


def _weekdays(a: date, b: date) -> int:
    """Weekdays from ``a`` to ``b``, both counted."""
    a, b = min(a, b), max(a, b)
    if (b - a).days > 3_000:
        return -1
    return sum(1 for k in range((b - a).days + 1) if (a + timedelta(days=k)).weekday() < 5)


# how many of the items had a count ("4 were 9 days late", "two of them were paid 8 days late")
_SOME_WERE = re.compile(r"(?i)(?:^|[\s(,;:-])(?:\d{1,3}|" + "|".join(NUMBER_WORDS) + r"|both|all|most|some|several|the rest|"
                        r"the others?)(?:\s+of\s+(?:them|these|those))?(?:\s+[a-z]+){0,1}\s+(?:were|was|are|had been|have been)"
                        r"\s+(?:(?:paid|delivered|settled|sent|filed|closed|received|all|each)\s+){0,2}$")


def _dates(values: Iterable[object]) -> list[date]:
    out = []
    for v in values:
        if isinstance(v, datetime):
            v = v.date()
        if isinstance(v, date) and v not in out:
            out.append(v)
    return out[:MAX_DATES]


_LATER = re.compile(r"(?i)(?:'|’)?\s+(?:later|after(?:wards)?)\b")
_CLAUSE_BREAK = re.compile(r"(?i)[,;:()]|\s[–—-]\s|\b(?:and|but|so|because|since|while|whereas|which)\b")


def _clause_of(sentence: str, at: int) -> str:
    """The clause of ``sentence`` that the position ``at`` stands in."""
    starts = [0, *(m.end() for m in _CLAUSE_BREAK.finditer(sentence) if m.end() <= at)]
    ends = [m.start() for m in _CLAUSE_BREAK.finditer(sentence) if m.start() > at] + [len(sentence)]
    return sentence[max(starts):min(ends)]


def _given_of(n: int, ids: list[str], texts: str, records: Records) -> bool:
    """Whether the task's texts give ``n`` days in a sentence or line that names one of ``ids``."""
    for m in DAY_SPAN.finditer(texts):
        word = m.group("n").lower()
        if (int(word) if word.isdigit() else NUMBER_WORDS.get(word)) != n:
            continue
        found = _sentence_at(texts, m.start())
        if found and set(records.keys_in(found[2])) & set(ids):
            return True
    return False


def day_count_problems(text: str, records: Records, *, today: date | None, addressed: Iterable[str] = (),
                       given: Iterable[int] = (), year: int | None = None, answered: Iterable[date] = (),
                       given_texts: str = "") -> list[str]:
    """Day counts of ``text`` that no two dates of what their sentence names give (see the module rules);
    ``addressed``: the keys of whom the text is written to; ``given``: day counts the task's texts state
    (``given_texts``: those texts, to tell which item they give a count of);
    ``answered``: the day of the message a reply answers ("only 8 days after your request")."""
    answered = list(answered)
    said = set(given)
    out: list[str] = []
    whole: list[date] | None = None  # every date the text gives, read once and only if a count needs them
    for m in list(DAY_SPAN.finditer(text))[:MAX_CLAIMS]:
        word = m.group("n").lower()
        n = int(word) if word.isdigit() else NUMBER_WORDS[word]
        if n < 2 or _BOUND.search(text, max(0, m.start() - 24), m.start()):
            continue
        if _SUMMED.match(text, m.end()):
            continue  # "That is 27 days late in total": the sum of several items' spans
        if _COUNT_RANGE.search(text, max(0, m.start() - 12), m.start()):
            continue  # "each arrived 10 to 15 days after its original": the bounds of many items' counts
        found = _sentence_at(text, m.start())
        if found is None:
            continue
        lo, hi, sentence = found
        if about_others(sentence, m.start() - lo):
            continue  # "…YE-2608-0256 (paid 27 Sep); the other six were all paid 8 days late": not of what it names
        clause = _clause_of(sentence, m.start() - lo)
        if _RULE.search(clause):
            continue
        some = _SOME_WERE.search(text, max(lo, m.start() - 40), m.start())
        if some and not re.search(r"(?i)\bthe\s+[a-z]+\s*$", text[max(lo, some.start() - 20):some.start() + 1]) \
                and not [k for k in records.keys_in(sentence) if k.startswith("#")]:
            continue  # "4 were 9 days late and 4 were 8 days late": a breakdown of items it does not name
        start = lo
        line_at = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.start())
        line_end = len(text) if line_end < 0 else line_end
        item = bool(_LIST_LINE.match(text, line_at))
        if item:
            # a list item is about what it names, not the items above it ("- PO-4836: promised 9 November,
            # delivered 15 November (6 days late)" under a line of 5 and 14 November)
            start, hi = line_at, line_end
        else:
            for _ in range(2):  # the sentence and the two before it in its paragraph name what it is about
                before = _sentence_at(text, start - 2) if start > 1 else None
                if before is None or text[before[1]:start].count("\n") >= 2:
                    break
                start = before[0]
        if sentence.rstrip().endswith(":"):
            # a heading is about the lines it heads: "reaches its notice deadline in 75 days:" over "- CTR-2377
            # (Redfern IT Services): expiry 31 March 2027; ... notice Saturday 30 January 2027"
            block = re.compile(r"\n\s*\n").search(text, hi + 1)
            hi = block.start() if block else len(text)
        window = text[start:hi]
        # an identifier names the item more closely than its party ("Upland Outdoor ... SO-72566"): the
        # party's other rows are not what the count is of
        ids = [k for k in records.keys_in(text[max(start, lo):hi]) if k.startswith("#")] or \
            [k for k in records.keys_in(window) if k.startswith("#")]
        if n in said and not (ids and given_texts and not _given_of(n, ids, given_texts, records)):
            continue  # a count the task's texts give (its rule, its figure); of an item named by its identifier,
            # only where they give it of that item ("WP-2606-0178, paid 9 days after it was due" where 9 is
            # another invoice's delay the gold states)
        keys = ids or [*records.keys_in(window), *addressed]
        rows = sorted({i for k in keys for i in records.by_key.get(k, ())[:MAX_ROWS]})[:MAX_ROWS]
        row_dates = [_dates(a.value for _l, a in records.entities[i].attributes if a.kind == "date") for i in rows]
        # an item's identifier names all its records: the claim row and the mail that submitted it
        for k in keys:
            if k.startswith("#"):
                row_dates.append(_dates(a.value for i in records.by_key.get(k, ())[:MAX_ROWS]
                                        for _l, a in records.entities[i].attributes if a.kind == "date"))
        row_dates = [d for d in row_dates if d]
        if sum(len(d) for d in row_dates) < 2 and not (answered and claims_in(window, year=year, kinds=("date",))) \
                and not (today and (_BEFORE_A_DAY.match(text, m.end()) or _BEFORE_IT.match(text, m.end()))):
            continue  # nothing dated to count between (but the day of the request a reply answers)
        numbers = {int(a.value) for i in rows for _l, a in records.entities[i].attributes
                   if a.kind == "number" and float(a.value).is_integer()}
        if n in numbers:
            continue  # "30 days' notice": the row's own Notice (days)
        near = _dates(c.value for c in claims_in(window, year=year, kinds=("date",))[:MAX_DATES])
        # rows that hold a date the text gives are the ones it speaks of ("your leave, 9–11 November"), not
        # the person's other leave
        meant = [row for row in row_dates if set(row) & set(near)]
        # today is an end only of a count said from now ("12 days overdue", "45 days away"), not of a length
        # ("off for 8 working days from Tuesday 1 December") or a span between two events ("8 days' notice")
        now = today if today and (_FROM_TODAY.match(text, m.end()) or
                                  _IN_FROM_TODAY.search(text[max(0, m.start() - 12):m.start()]) or
                                  # "Letters sent (74 days before 1 January 2027)": from today, when they went
                                  _BEFORE_A_DAY.match(text, m.end()) or _BEFORE_IT.match(text, m.end())) else None
        every = [*near, *(d for row in row_dates for d in row), *([now] if now else [])]
        if now and _BEFORE_IT.match(text, m.end()):
            if whole is None:
                whole = _dates(c.value for c in claims_in(text, year=year, kinds=("date",))[:MAX_DATES * 2])
            every += whole
        every = list(dict.fromkeys(every))[:MAX_DATES * 8]
        pairs = [(a, b) for row in (meant or row_dates) for a in row for b in row if a < b]
        pairs += [(a, b) for a in near for b in every if a != b]
        pairs += [(a, b) for a in near for b in answered if a != b]
        if not (item and ids and meant):
            # "Your request arrived on 18 October, 22 days ahead": the leave it was ahead of is dated elsewhere
            # in the text; a list item whose own record holds its dates is about those dates only (the next
            # item's "13 November" is not what "- PO-4784: ... delivered 8 November (5 days late)" counts to)
            if whole is None:
                whole = _dates(c.value for c in claims_in(text, year=year, kinds=("date",))[:MAX_DATES * 2])
            pairs += [(a, b) for a in near for b in whole if a != b]
        if now:
            pairs += [(now, b) for b in every if b != now]
        # working days where the text says so, or where the count is a length ("4 days of leave"), not a
        # span between two events ("8 days' notice", "45 days late")
        between = bool(_BETWEEN_EVENTS.match(text, m.end()))
        working = (bool(m.group("kind")) and m.group("kind").strip().lower() in ("working", "business")) or \
            not between
        # a span between two events is their difference ("promised 5 November, delivered 8 November: 3 days
        # late"); only a length counts both ends ("leave from 9 to 12 November, 4 days")
        inclusive = not between or not _EXACT.match(text, m.end())
        said = [c for c in claims_in(sentence[:m.start() - lo], year=year, kinds=("date",))
                if isinstance(c.value, date)] if _LATER.match(text, m.end()) else []
        if len({c.value for c in said}) == 2:
            # "placed on 16 October and reached us on 30 November, 52 days later": the span between the two
            # days the sentence gives before the count, not today's distance from either
            first, second = sorted({c.value for c in said})
            pairs = [(first, second)]
        if _FROM_DAY.match(text, m.end()):
            # "off for 8 working days from Tuesday 1 December": a length that starts on the day it gives
            start_day = [c.value for c in claims_in(text[m.end():m.end() + 60], year=year, kinds=("date",))
                         if isinstance(c.value, date)][:1]
            if start_day:
                pairs = [(a, b) for a, b in pairs if start_day[0] in (a, b)]
        spans = set()
        length = bool(_OFF.match(text, m.end()))  # "two days off": a length of leave, both ends counted
        for a, b in pairs:
            days = abs((b - a).days)
            # a length counts both ends ("Monday 9 to Wednesday 11 November, three days off"); a span between
            # two events may be said either way
            spans.update((days + 1,) if length else (days, days + 1) if inclusive else (days,))
            if working:
                wd = _weekdays(a, b)
                spans.update((wd,) if length else (wd, wd - 1))
        if n in spans:
            continue
        shown = " ".join(sentence.split())
        out.append(f"{shown[:90]!r} gives {m.group(0).strip()}, which no two dates of what it names give "
                   f"(nor today and one of them)")
    return out
