"""Closed-world reading of what an agent writes: every fact it states must be one the task supports.

A check that a mail, a document, an event or an answer states the expected facts (evaluators/facts.py)
also reads every other *claim* of the kinds those facts are — numbers and amounts, dates (with their
weekday), times, e-mail addresses, identifiers, people and organisations the office knows — and each
must be supported:

- an expected fact, or a value the instruction gives;
- a value the gold solution writes in the same place (its mail, document, event or answer), or of an
  event the agent's own calendar holds (a mail agreeing with the meeting it booked);
- neutral: today, the current year, the user, the people the text is addressed to.

Anything else of an expected fact's kind is a false or hedged statement ("4,690.99 (5,100 with the
hotel)", "May 15, or at the latest May 19", "first X, correction: Y") and fails, with a message that
names it. Values of kinds the check does not expect but the gold writes in the same place are read too
(``beside_kinds``): amounts anywhere, dates on a line with an expected fact, counts against the gold's
count in the same place. An expected value joined to another of its kind as one answer ("X, or Y",
"Y, correction, X") is a hedge however true Y is of something (``hedge_problems``). Whatever kind is
expected, a weekday must agree with its date, a mail's greeting must name one of its recipients, and an
expected fact stated under a negation ("we can no longer offer the demo") fails unless the gold states
it under one too.
"""

from __future__ import annotations

import bisect
import copy
import re
import threading
from collections import OrderedDict
from functools import lru_cache
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any, Callable, Iterable, Iterator

from sentencex import segment

from officesim.evaluators.derived import Operand, days_between, one_step, tolerance, total_of
from officesim.evaluators.facts import (
    IDENTIFIER,
    Mention,
    REFERENCE_NOW,
    dates_in,
    dotted_times_in,
    own_text,
    fact_of,
    phone_key,
    phone_spans,
    find,
    number_fact,
    numbers_in,
    same_number,
    times_in,
    weekday_conflicts,
)
from officesim.evaluators.state import EvalState
from officesim.evaluators.text import as_list, collapse, document_text, show

KINDS = ("number", "date", "time", "email", "id", "phone", "person", "org")

_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_EXTENSIONS = r"\.(?:xlsx|xls|docx|doc|pdf|eml|ics|txt|csv|png|jpe?g|md|json|pptx|zip)\b"
_PATH = re.compile(r"(?<![\w])(?:/?[\w.-]+/)*[\w.-]+" + _EXTENSIONS, re.I)
# Where a path can be: a run of its characters, cut before a third slash in a row (no path holds "///"),
# and where one can end: an extension after a character of a name.
_PATH_RUN = re.compile(r"(?:[\w.-]|/(?!//))+")
_PATH_END = re.compile(r"(?<=[\w.-])" + _EXTENSIONS, re.I)
_URL = re.compile(r"https?://\S+")
_LIST_MARK = re.compile(r"^[ \t]*(?:\(?\d{1,2}[.)]|#\d{1,2})(?=\s)", re.M)
_ORDINAL = re.compile(r"(?:st|nd|rd|th)\b", re.I)  # matched where a number ends
_GENERIC_DOMAINS = {"example", "gmail", "googlemail", "yahoo", "outlook", "hotmail", "mail", "email", "company", "test",
                    "localhost", "corp", "org", "com", "net", "icloud", "proton", "protonmail", "live", "msn", "aol"}


@dataclass(frozen=True)
class Claim:
    """One fact-like mention in written text: its kind, normalised value and the words as written."""

    kind: str
    value: Any
    text: str
    precision: float = 0.0
    currency: str | None = None
    start: int = field(default=-1, compare=False)
    end: int = field(default=-1, compare=False)
    unscaled: float | None = None


# ---- the office's people and organisations ---------------------------------------------------------
@dataclass(frozen=True)
class Person:
    address: str
    first: str | None
    last: str | None


@dataclass
class Directory:
    """People (by address, named from it: ``dana.ortiz@x`` is Dana Ortiz) and organisations (by the
    name of their mail domain: ``northwind.test`` is Northwind) that the office knows."""

    people: dict[str, Person] = field(default_factory=dict)
    orgs: dict[str, re.Pattern] = field(default_factory=dict)
    _full: list[tuple[re.Pattern, str]] = field(default_factory=list)

    def add(self, address: str, name: str | None = None) -> None:
        address = address.strip().lower().rstrip(".")
        if "@" not in address:
            return
        local, _, domain = address.partition("@")
        parts = [p for p in re.split(r"[._\-+]", local) if p.isalpha()]
        if name and len(name.split()) >= 2:
            first, last = name.split()[0], name.split()[-1]
        elif name:
            first, last = name.strip(), (parts[-1].title() if len(parts) >= 2 else None)
        else:
            first = parts[0].title() if parts else None
            last = parts[-1].title() if len(parts) >= 2 else None
        if address not in self.people or (name and self.people[address].first != first):
            self.people[address] = Person(address, first, last)
            if first and last:
                self._full.append((re.compile(rf"(?<!\w){re.escape(first)}\s+{re.escape(last)}(?!\w)"
                                              rf"|(?<!\w){re.escape(last)},\s*{re.escape(first)}(?!\w)", re.I), address))
        labels = [x for x in domain.split(".")[:-1] if x]
        label = labels[-1] if labels else ""
        if len(label) >= 4 and label not in _GENERIC_DOMAINS and label not in self.orgs:
            self.orgs[label] = re.compile(r"(?<!\w)" + r"[\s\-]?".join(map(re.escape, label)) + r"(?!\w)", re.I)

    def persons_in(self, text: str) -> list[tuple[Mention, str]]:
        """Full names ("Dana Ortiz", "Ortiz, Dana") of known people written in ``text``, with their address."""
        return [(Mention(m.group(0), m.start(), m.end()), address) for pattern, address in self._full
                for m in pattern.finditer(text)]

    def orgs_in(self, text: str) -> list[tuple[Mention, str]]:
        return [(Mention(m.group(0), m.start(), m.end()), label) for label, pattern in self.orgs.items()
                for m in pattern.finditer(text)]

    def named(self, word: str) -> list[Person]:
        """People whose first or last name is ``word`` (ci)."""
        w = word.casefold()
        return [p for p in self.people.values() if w in {(p.first or "").casefold(), (p.last or "").casefold()}]


def build_directory(files: Iterable[dict], people: dict[str, str] | None = None, user: str | None = None,
                    user_name: str | None = None) -> Directory:
    """The directory of an office's parsed entries: every address of its mail, calendars and documents."""
    d = Directory()
    if user:
        d.add(user, user_name)
    for name, address in (people or {}).items():
        d.add(address, name)
    add_files(d, files)
    return d


def add_files(d: Directory, files: Iterable[dict]) -> None:
    """Add every address of the parsed entries' mail, calendars and documents to ``d``."""
    for entry in files:
        kind = entry.get("kind")
        if kind == "eml":
            for a in [entry.get("from"), *(entry.get("to") or []), *(entry.get("cc") or [])]:
                if a:
                    d.add(str(a))
            text = str(entry.get("body") or "")
        elif kind == "ics":
            for e in entry.get("events") or []:
                for a in e.get("attendees") or []:
                    d.add(str(a))
            continue
        elif kind in ("text", "xlsx", "docx"):
            text = document_text(entry)
        else:
            continue
        for m in _EMAIL.finditer(text[:200_000]):
            d.add(m.group(0))


# ---- claims in text ----------------------------------------------------------------------------------
def path_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` names files (``_PATH``'s matches), found in time linear in the text: the pattern
    alone tries every start of a long run of name characters ("a.a.a.a...") to its end, quadratic. A
    match lies within one run (``_PATH_RUN``) and ends at the run's last extension it reaches, so the
    pattern is run on each run that has an extension, up to its last one: the same matches."""
    out = []
    for run in _PATH_RUN.finditer(text):
        last = None
        for last in _PATH_END.finditer(text, run.start(), run.end()):
            pass
        if last is not None:
            out += [(m.start(), m.end()) for m in _PATH.finditer(text, run.start(), last.end())]
    return out


def _mask(text: str, spans: Iterable[tuple[int, int]]) -> str:
    chars = list(text)
    for s, e in spans:
        chars[s:e] = " " * (e - s)
    return "".join(chars)


def claims_in(text: str, *, year: int | None, directory: Directory | None = None,
              kinds: Iterable[str] = KINDS, dotted_times: bool = False) -> list[Claim]:
    """Every fact-like mention of ``kinds`` in ``text``. File names and links are not claims; a number
    glued to letters ("4B", "Q3") is part of a name, a list mark ("1.") is layout, "15th" is a day."""
    kinds = frozenset(kinds)
    emails, rest, masked = _plain_claims(text, year, kinds, dotted_times, REFERENCE_NOW.get())
    out = list(emails)
    if directory is not None and "person" in kinds:
        out += [Claim("person", address, m.value, start=m.start, end=m.end) for m, address in directory.persons_in(masked)]
    if directory is not None and "org" in kinds:
        out += [Claim("org", label, m.value, start=m.start, end=m.end) for m, label in directory.orgs_in(masked)]
    return out + list(rest)


@lru_cache(maxsize=1024)
def _plain_claims(text: str, year: int | None, kinds: frozenset[str], dotted_times: bool,
                  now: Any) -> tuple[tuple[Claim, ...], tuple[Claim, ...], str]:
    """The claims of ``text`` that need no directory (mail addresses; ids, dates, times, numbers) and the
    text with links, paths and addresses masked, where people and organisations are then read. Cached:
    a grading reads the same mail once for each check it might match (``now`` is the simulated now a
    weekday-only date is read against)."""
    read = _every_plain_claim(text, year, now)
    mails = read.mails if "email" in kinds else ()
    out = [*(read.ids if "id" in kinds else ()), *(read.phones if "phone" in kinds else ()),
           *(read.dates if "date" in kinds else ())]
    if "time" in kinds:  # "10.00" is a time or an amount: both readings are claims of the same words
        out += [*read.times, *(read.dotted if dotted_times else ())]
    out += [c for c in read.numbers if c.kind in kinds]  # numbers, and days written as ordinals ("15th")
    return mails, tuple(out), read.people_text


@dataclass(frozen=True)
class _PlainClaims:
    mails: tuple[Claim, ...]
    ids: tuple[Claim, ...]
    phones: tuple[Claim, ...]
    dates: tuple[Claim, ...]
    times: tuple[Claim, ...]
    dotted: tuple[Claim, ...]
    numbers: tuple[Claim, ...]
    people_text: str


@lru_cache(maxsize=4096)
def _every_plain_claim(text: str, year: int | None, now: Any) -> _PlainClaims:
    """The claims of every kind ``_plain_claims`` reads, read once per text (the masking that each kind's
    reading needs does not depend on the kinds asked for)."""
    masked = _mask(text, [*((m.start(), m.end()) for m in _URL.finditer(text)), *path_spans(text)])
    emails = [m for m in _EMAIL.finditer(masked)]
    mails = tuple(Claim("email", m.group(0).lower().rstrip("."), m.group(0), start=m.start(), end=m.end())
                  for m in emails)
    masked = _mask(masked, [(m.start(), m.end()) for m in emails])
    people_text = masked
    found = [m for m in IDENTIFIER.finditer(masked) if _is_identifier(m)]
    ids = tuple(Claim("id", _id_value(m), m.group(0), start=m.start(), end=m.end()) for m in found)
    masked = _mask(masked, [(m.start(), m.end()) for m in found])
    spans = phone_spans(masked)  # one number to call, not amounts
    phones = tuple(Claim("phone", phone_key(masked[a:b]), masked[a:b], start=a, end=b) for a, b in spans)
    masked = _mask(masked, spans)
    masked = _mask(masked, [(m.start(), m.end()) for m in _LIST_MARK.finditer(masked)])
    dates = dates_in(masked, year)
    times = times_in(masked)
    # a dotted reading inside a time read whole ("3.30" of "3.30pm") is the same words, not a second time
    dotted = tuple(Claim("time", m.value, masked[m.start:m.end], start=m.start, end=m.end)
                   for m in dotted_times_in(masked) if not any(t.start <= m.start < t.end for t in times))
    date_claims = tuple(Claim("date", m.value, masked[m.start:m.end], start=m.start, end=m.end) for m in dates)
    time_claims = tuple(Claim("time", m.value, masked[m.start:m.end], start=m.start, end=m.end) for m in times)
    masked = _mask(masked, [(m.start, m.end) for m in [*dates, *times]])
    numbers: list[Claim] = []
    for m in numbers_in(masked):
        glued_after = masked[m.end:m.end + 1].isalpha() and not _ORDINAL.match(masked, m.end)
        glued_before = m.start > 0 and masked[m.start - 1].isalpha()
        if glued_after or glued_before:
            continue
        if _ORDINAL.match(masked, m.end):
            if float(m.value).is_integer() and 1 <= m.value <= 31:
                numbers.append(Claim("date", ("day", int(m.value)), masked[m.start:m.end + 2], start=m.start,
                                     end=m.end + 2))
            continue
        numbers.append(Claim("number", m.value, masked[m.start:m.end].strip(), m.precision, m.currency, m.start, m.end,
                             m.unscaled))
    return _PlainClaims(mails, ids, phones, date_claims, time_claims, dotted, tuple(numbers), people_text)


_NOT_PREFIX = re.compile(r"(?i)(?:on|at|by|to|in|of|and|the|is|was|from|until|till|before|after|total|sum|for|"
                         r"jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|"
                         r"usd|eur|gbp|chf|cad|aud|jpy|am|pm|[kmb]|bn|mn|q)$")


def _id_value(m: re.Match) -> str:
    """An identifier's value: "PO-1234", "po 1234" and "PO1234" are one."""
    return re.sub(r"[^0-9A-Za-z]", "", m["prefix"] + m["digits"]).upper()


def _is_identifier(m: re.Match) -> bool:
    """An identifier ("PO-1234", "INV 0042", "A1234"): a prefix that is not a word of a sentence, then
    at least three digits; a prefix apart from its digits by a space must be in capitals ("PO 1234",
    not "Invoice 2026")."""
    digits = re.sub(r"\D", "", m["digits"])
    gap = m.group(0)[len(m["prefix"]):len(m.group(0)) - len(m["digits"])]
    if len(digits) < 3 or _NOT_PREFIX.match(m["prefix"]):
        return False
    if "\n" in gap or re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}", m["digits"]):
        return False  # a word ending one line and a date opening the next ("Lovell\n- 2026-12-02") are no id
    if any(ch.isspace() for ch in gap):  # "PO 1234", "PO: 1234"; not "Quayside Print Works: 2026 invoicing"
        return m["prefix"].isupper() and len(m["prefix"]) >= 2
    return m["prefix"][0].isupper()


def same_claim(a: Claim, b: Claim) -> bool:
    """Whether two claims state the same value (``b`` the supporting one)."""
    if a.kind != b.kind:
        return False
    if a.kind == "number":
        if a.currency and b.currency and a.currency != b.currency:
            return False
        return same_number(Mention(a.value, 0, 0, precision=a.precision, unscaled=a.unscaled), b.value, b.precision)
    if a.kind == "date":
        return _same_day(a.value, b.value)
    if a.kind == "time":
        return a.value == b.value
    if a.kind == "id":
        return a.value == b.value or re.sub(r"\D", "", a.value) == re.sub(r"\D", "", b.value)
    return a.value == b.value


def _same_day(x: Any, y: Any) -> bool:
    """Whether two written dates agree: full dates by value, a date without a year by month and day,
    a bare ordinal ("the 15th", ("day", 15)) by its day."""
    def parts(v: Any) -> tuple:
        if isinstance(v, date):
            return (v.year, v.month, v.day)
        if isinstance(v, tuple) and v and v[0] == "day":
            return (None, None, v[1])
        return (None, *v) if isinstance(v, tuple) else (None, None, None)
    return all(p is None or q is None or p == q for p, q in zip(parts(x), parts(y))) and parts(x)[2] == parts(y)[2]


# ---- what supports a claim ------------------------------------------------------------------------
@dataclass
class Support:
    """What a written text may state: the expected facts, the instruction, the gold's own text in the
    same place, the agent's own calendar, and the neutral values (today, the user, the addressees)."""

    expected: list[Any]
    texts: list[str] = field(default_factory=list)
    addresses: list[str] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    context: list[str] = field(default_factory=list)
    # values the gold writes in other places, each with its line's words (``text_sources``): true of the
    # outcome, but beside an expected value of their kind only in the role the gold gives them
    elsewhere: list[tuple[Claim, set[str], int]] = field(default_factory=list)


def expected_kinds(expected: Iterable[Any], *, year: int | None, directory: Directory | None) -> set[str]:
    """The kinds of claim the expected facts are: only those kinds are read closed-world."""
    kinds: set[str] = set()
    for fact in _flat(expected):
        kind, _value = fact_of(fact)
        if kind == "datetime":
            kinds |= {"date", "time"}
        elif kind != "text":
            kinds.add(kind)
        else:
            kinds |= {c.kind for c in claims_in(str(fact), year=year, directory=directory)}
    return kinds


def _flat(items: Iterable[Any]) -> list[Any]:
    out = []
    for item in as_list(items):
        out += _flat(item) if isinstance(item, (list, tuple)) else [item]
    return out


def _claims_of_fact(fact: Any, *, year: int | None, directory: Directory | None) -> list[Claim]:
    kind, value = fact_of(fact)
    out = claims_in(str(fact), year=year, directory=directory)
    if kind == "number":
        written = number_fact(fact)
        out.append(Claim("number", value, str(fact), written.precision if written else 0.0,
                         written.currency if written else None))
    elif kind == "date":
        out.append(Claim("date", value, str(fact)))
    elif kind == "time":
        out.append(Claim("time", value.replace(second=0), str(fact)))
    elif kind == "datetime":
        out += [Claim("date", value.date(), str(fact)), Claim("time", value.time().replace(second=0), str(fact))]
    elif kind == "text" and IDENTIFIER.fullmatch(str(fact).strip()):
        m = IDENTIFIER.fullmatch(str(fact).strip())
        out.append(Claim("id", re.sub(r"[^0-9A-Za-z]", "", m["prefix"] + m["digits"]).upper(), str(fact)))
        digits = re.sub(r"\D", "", m["digits"])
        out.append(Claim("number", float(digits), digits))
    return out


def supported_claims(support: Support, *, year: int | None, now: datetime | None,
                     directory: Directory | None) -> list[Claim]:
    out = list(support.claims)
    for fact in _flat(support.expected):
        out += _claims_of_fact(fact, year=year, directory=directory)
    for text in support.texts:
        out += claims_in(str(text or ""), year=year, directory=directory, dotted_times=True)
    for address in support.addresses:
        out.append(Claim("email", address.strip().lower(), address))
        if directory is not None:
            out.append(Claim("person", address.strip().lower(), address))
            label = address.strip().lower().partition("@")[2].split(".")
            if len(label) >= 2:
                out.append(Claim("org", label[-2], address))
    if now is not None:
        out.append(Claim("number", float(now.year), str(now.year)))
    years = {c.value.year for c in out if c.kind == "date" and isinstance(c.value, date)}
    out += [Claim("number", float(y), str(y)) for y in years]
    return out


def stray_claims(text: str, support: Support, *, year: int | None, now: datetime | None,
                 directory: Directory | None, sources: list[tuple[Claim, set[str], int]] | None = None,
                 names: str = "", true_context: Callable[[Claim, str, bool], bool] | None = None) -> list[Claim]:
    """Claims of ``text`` of an expected fact's kind that nothing supports (``names``: the instruction's
    and the office's text, lower case, where "Midterm 1" is a name)."""
    kinds = expected_kinds(support.expected, year=year, directory=directory)
    beside = beside_kinds(support, kinds, year)
    read = kinds | beside
    if not read:
        return []
    # beside an item's identifier its dates and amounts are read even where the gold writes none: "your
    # first invoice BS-2608-0290 was paid on 3 October" must be that invoice's row
    by_id = {"date", "number"} - read if "id" in kinds else set()
    allowed = supported_claims(support, year=year, now=now, directory=directory)
    written = claims_in(text, year=year, directory=directory, kinds=read | by_id,
                        dotted_times="time" in kinds and any(c.kind == "time" for c in allowed))
    if beside or by_id:
        written = [c for c in written if c.kind in kinds
                   or (c.kind in beside and _beside_read(c, text, support.expected, year))
                   or (c.kind in by_id and (_money(c) or c.kind == "date") and _beside_id(c, text))]
    roles = _roles(support.texts, year) if beside or "number" in kinds else {}
    spans: dict[tuple, list[Claim]] = {}
    for claim in written:
        spans.setdefault((claim.start, claim.end), []).append(claim)
    factors = multiples_of(support.texts)  # the task's own multipliers and words, read once per text
    told = " ".join(str(t or "") for t in support.texts).lower()
    out = []
    for readings in spans.values():  # "11/06/2026" or "10.00" is true when one of its readings is
        if (beside or by_id) and all(c.kind not in kinds for c in readings):
            if roles and any(_takes_role(c, text, roles) for c in readings) \
                    and not (sources and any(_restates_unit(c, text, sources, year) for c in readings)):
                out.append(readings[0])
                continue
            if not any(_money(c) or c.kind == "date" for c in readings):
                continue  # a count beside the facts is read only against the gold's count in its place
        if support.texts and any(_task_limit(c, text, str(support.texts[0]), year) for c in readings):
            continue  # "with the lower £30,000 threshold": the limit the task itself sets
        if factors and any(_task_multiple(c, text, factors, written) for c in readings):
            continue  # "exceed 150% of the annual value", "(1.5x would be £68,250.00)": the task's own rule
        if sources is not None and any(_unbound(c, text, [*sources, *support.elsewhere], support.expected, year)
                                       and not (c.kind == "number" and derived(c, text, written, [], year=year, now=now))
                                       for c in readings):  # a rate worked out beside its item is not another's
            out.append(readings[0])
            continue
        if any(same_claim(c, a) for c in readings for a in allowed):
            continue
        if now is not None and any(_today(c, text, now, support.expected, year) for c in readings):
            continue
        if now is not None and support.texts and any(_window_end(c, now, str(support.texts[0])) for c in readings):
            continue
        if now is not None and told and any(_named_weekday(c, text, now, told) for c in readings):
            continue  # "Friday's payment run (20 November)": the date of the weekday the task names
        if any(_days_from(c, text, year) for c in readings):
            continue
        if support.context and any(context_value(c, text, support.context, year) for c in readings):
            continue
        if sources is not None and any(_office_value(c, text, sources, support.expected, year) for c in readings):
            continue
        if support.elsewhere and any(_elsewhere_value(c, text, support.elsewhere, support.expected, year)
                                     for c in readings):
            continue
        if names and any(c.kind == "number" and _named_number(c, text, names) for c in readings):
            continue
        if names and any(c.kind in ("org", "person") and _named_apart(c, text, names, support.expected, year,
                                                                      directory=directory, sources=sources)
                         for c in readings):
            continue
        if sources is not None and any(c.kind == "phone" and any(same_claim(c, v) for v, _w, _u in sources)
                                       for c in readings):
            continue  # a number the office lists (the old one a reply says it replaced); a hedge is read apart
        if any(_own_count(c, text, support.texts) and not (roles and _takes_role(c, text, roles)) for c in readings):
            continue
        if any(_listed_count(c, text) for c in readings):
            continue  # "Tickets waiting on me (4)" over the four it lists
        out.append(readings[0])
    if out and "number" in read:
        stated = Stated(written, out)
        out = [c for c in out if not (c.kind == "number" and derived(c, text, written, out, year=year, now=now,
                                                                         stated=stated))]
    if out and true_context is not None:  # true of what its statement is about (evaluators/truth.py)
        facts = [f for fact in _flat(support.expected) for f in _claims_of_fact(fact, year=year, directory=directory)]

        def beside_fact(c: Claim) -> bool:
            """A second value of an expected fact's kind in its sentence: an alternative to the fact
            ("4,690.99 (5,100 if you count the hotel)"), however true of something it is."""
            at = _sentence_at(text, c.start)
            if at is None or c.kind == "id":  # an identifier beside another is context, not an alternative
                return False  # ("SO-72680, the last of three orders that day, after SO-72674 and SO-72678")
            beside = [w for w in written if w.kind == c.kind and at[0] <= w.start < at[1] and not same_claim(w, c)
                      and any(same_claim(w, f) for f in facts)]
            if not beside:
                return False
            # the fact nearest it says how they stand: "annual value £75,000.00, invoiced £134,651.76 (of
            # which £46,042.75 not yet paid)" gives a part of the second fact, no alternative to the first
            nearest = min(beside, key=lambda w: min(abs(w.start - c.end), abs(c.start - w.end)))
            return not _part_of(nearest, c, text)

        # a value beside the fact is an alternative to it, unless the reader explains it as something else
        # (``beside=True``): a person with a value of their own record ("Omar Nair ... is on leave 18-19
        # November"), a date some span after a date of their record ("six months with us on 1 November")
        out = [c for c in out if not true_context(c, text, beside_fact(c))]
    unique: dict[tuple, Claim] = {}
    for c in out:
        unique.setdefault((c.kind, c.text), c)
    return list(unique.values())


_OF = re.compile(r"(?i)\s*(?:out\s+)?of(?:\s+(?:the|a|an|your|their|his|her))?\s*")


def _part_of(fact: Claim, other: Claim, text: str) -> bool:
    """Whether an expected value is given as a part of the other ("£480.00 of the £516.00 claimed") or as the
    whole the other is a part of ("£134,651.76 (of which £46,042.75 not yet paid)"):
    the whole it is a part of, not an alternative answer."""
    start = other.start  # a currency code written before the amount is not part of its claim: "(GBP 15,142.82 unpaid)"
    code = _CODE_BEFORE.search(text, max(fact.end, start - 6), start)
    start = code.start() if code else start
    return fact.end <= start and (_OF.fullmatch(text, fact.end, start) is not None
                                  or _OF_WHICH.fullmatch(text, fact.end, start) is not None
                                  or _PART_AFTER.match(text, other.end) is not None
                                  or (text[:start].rstrip().endswith("(")
                                      and _STATE_AFTER.match(text, other.end) is not None))


_CODE_BEFORE = re.compile(r"\b[A-Z]{3}\s*$")


# the other said as a part of what comes before it: "invoiced £128,172.62 across 37 invoices (£32,314.27 of
# it still unpaid)"
_PART_AFTER = re.compile(r"(?i)\s+of (?:it|that|this|which|them|these|those|the total|the amount)\b")
# ... or in a parenthesis saying which part: "invoiced £112,467.86 across 38 invoices (£8,487.25 unpaid)"
_STATE_AFTER = re.compile(r"(?i)\s+(?:(?:is|are)\s+)?(?:still\s+|not yet\s+)?(?:unpaid|outstanding|paid|overdue|open|due|"
                          r"owed|owing|pending|disputed|on hold|held)\b")


# the expected value as the whole of which the other is a part: "£134,651.76 (of which £46,042.75 not yet
# paid)", "£2,400.00, including £180.00 of VAT"
_OF_WHICH = re.compile(r"(?i)(?:\s+[a-z]+){0,3}\s*[,(—–-]?\s*(?:of which|of that|including|incl\.?|among which)\s+(?:only\s+|about\s+|some\s+)?")


# ---- values beside the expected facts ------------------------------------------------------------------
def beside_kinds(support: Support, kinds: set[str], year: int | None) -> set[str]:
    """Kinds the gold's own text in the same place states beyond the expected facts' ("the 20 unpaid
    invoices, £39,262.58 in all"; an order's amount and date beside its number): an agent need not state
    such values, but those it states are read too, so that none of them is false."""
    out: set[str] = set()
    for text in support.texts[1:]:
        for c in claims_in(str(text or ""), year=year, kinds=("number", "date")):
            if c.kind not in kinds:
                out.add(c.kind)
    return out


def _money(claim: Claim) -> bool:
    """An amount (a currency, or two decimals), not a count."""
    return claim.kind == "number" and (bool(claim.currency) or re.search(r"\.\d\d$", claim.text) is not None)


def _beside_read(claim: Claim, text: str, expected: list[Any], year: int | None) -> bool:
    """Which values of a kind the expected facts are not are read: amounts and counts anywhere (a count
    only against the gold's, ``_takes_role``), dates only on a line that states an expected fact (an
    order's date beside its number; a reply-by date a mail proposes is the writer's own)."""
    if claim.kind == "number":
        return True
    if claim.kind != "date":
        return False
    lo, hi = _line_span(text, claim.start, claim.end)
    line = text[lo:hi].replace(claim.text, " ")
    if any(find(line, f, year=year) is not None for f in _flat(expected)):
        return True
    # beside another item's identifier ("your other order SO-70454 shipped on 3 February") it is that item's
    return "id" in _item_values(line, expected, year) and _beside_id(claim, text)


LIMIT_WORD = re.compile(r"(?i)\b(?:limit|cap|allowance|maximum|ceiling|threshold|cut-?off)s?\b")


# an amount said as a bound: "contracts of £30,000+", "£30,000 or more", "at least £30,000"
_AT_LEAST_AFTER = re.compile(r"(?i)\+|\s+(?:or|and)\s+(?:more|above|over|upwards)\b")
_AT_LEAST_BEFORE = re.compile(r"(?i)\b(?:at least|over|above|under|below|more than|less than)\s+$")


def _task_limit(claim: Claim, text: str, instruction: str, year: int | None) -> bool:
    """Whether an amount is the limit the instruction sets, named as a limit where it is written ("the
    lower £30,000 threshold", "under the £5,000 approval limit") and where the instruction gives it."""
    if not _money(claim) or not (LIMIT_WORD.search(text, max(0, claim.start - 30), claim.end + 30)
                                 or _AT_LEAST_AFTER.match(text, claim.end)
                                 or _AT_LEAST_BEFORE.search(text, max(0, claim.start - 16), claim.start)):
        return False
    return any(same_claim(claim, c) and LIMIT_WORD.search(instruction, max(0, c.start - 40), c.end + 40)
               for c in claims_in(instruction, year=year, kinds=("number",)))


_MULTIPLE = re.compile(r"(?i)(?<![\w.])(?P<n>\d{1,2}(?:\.\d{1,2})?)\s*(?:x|×|times)(?![\w])|(?P<w>one and a half|twice|double|"
                       r"two and a half|three|four|five|two)(?:\s+times)?(?=\s+(?:the|its|their|an?|what|as)\b)")
_MULTIPLE_WORDS = {"one and a half": 1.5, "twice": 2.0, "double": 2.0, "two": 2.0, "two and a half": 2.5, "three": 3.0,
                   "four": 4.0, "five": 5.0}


def multiple_phrases(text: str) -> list[tuple[re.Match, float]]:
    """Each multiple a text sets ("more than one and a half times … annual value", "2x"), with its value."""
    out = []
    for m in _MULTIPLE.finditer(str(text or "")):
        if m.group("n"):
            out.append((m, float(m.group("n"))))
        elif m.group("w") and (m.group(0).lower().endswith("times") or m.group("w").lower() in ("twice", "double")
                               or "half" in m.group("w").lower()):
            out.append((m, _MULTIPLE_WORDS[m.group("w").lower()]))
    return out


def multiples_of(texts: Iterable[Any]) -> set[float]:
    """The multipliers a task's words set as a rule ("more than one and a half times … annual value", "2x")."""
    return {v for t in texts for _m, v in multiple_phrases(str(t or ""))} - {0.0, 1.0}


def _task_multiple(claim: Claim, text: str, factors: set[float], written: list[Claim]) -> bool:
    """Whether a number is one of the task's multipliers (``multiples_of``) as a percentage ("150%" for "one and a
    half times"), or an amount that multiplier makes of an amount in the same line ("annual value £45,500.00 …
    (1.5x would be £68,250.00)")."""
    if claim.kind != "number" or not factors:
        return False
    if not claim.currency and re.match(r"\s*(?:%|per ?cent)", text[claim.end:claim.end + 9], re.I):
        return any(abs(float(claim.value) - 100 * f) < 0.01 for f in factors)
    if not _money(claim):
        return False
    lo = text.rfind("\n", 0, claim.start) + 1
    hi = text.find("\n", claim.end)
    line = [w for w in written if lo <= w.start and (hi < 0 or w.end <= hi) and _money(w) and w is not claim]
    return any(abs(float(w.value) * f - float(claim.value)) <= 0.011 for w in line for f in factors)


def _unbound(claim: Claim, text: str, units: list[tuple[Claim, set[str], int]], expected: list[Any],
             year: int | None) -> bool:
    """A date or an amount in a clause about another item, named by an identifier the office or the work
    knows, that no place naming that item states ("CTR-2314 with Umber Freight expires 28 February
    2027", where 28 February is the expiry of the contract the answer is about)."""
    if not (claim.kind == "date" or _money(claim)):
        return False
    clause = _clause_of(claim, text)
    ids = claims_in(clause, year=year, kinds=("id",))
    if not ids:  # a list line's head names its item: "- UF-2601-0001: £4,635.70, due 10 February 2026"
        lo, hi = _line_span(text, claim.start, claim.end)
        head, colon, _rest = text[lo:claim.start].partition(": ")
        ids = claims_in(head, year=year, kinds=("id",)) if colon else []
        clause = text[lo:hi] if ids else clause
    if not ids or any(find(clause, f, year=year) is not None for f in _flat(expected)
                      if fact_of(f)[0] == "text" and IDENTIFIER.fullmatch(str(f).strip())):
        return False
    for item in ids:
        places = {u for v, _w, u in units if same_claim(v, item)}
        if places and not any(u in places and same_claim(claim, v) for v, _w, u in units) \
                and not _named_beside(claim, text, units, places):
            return True
    return False


_BREAK = re.compile(r"[,;:()\[\]—–]|\s-\s|\.(?:\s|$)")


def _named_beside(claim: Claim, text: str, units: list[tuple[Claim, set[str], int]], places: set[int]) -> bool:
    """Whether the value is another thing's, named beside it in its sentence: "EXP-1077 (Dublin hotel)
    is approved, within the £185.00 a night cap for Dublin" quotes the policy's line "Dublin: £185.00 a
    night", not the claim's amount. The line must be a short one (a line of text, not a table's row with
    its header), all its words in the sentence, one of them in the words right beside the value."""
    found = _sentence_at(text, claim.start)
    if found is None:
        return False
    start, _end, sentence = found
    at, end = claim.start - start, claim.end - start
    before = sentence[:at]
    cut_at = max([m.end() for m in _BREAK.finditer(before)], default=0)
    after = sentence[end:]
    stop = _BREAK.search(after)
    near = content_words(before[cut_at:] + " " + (after[:stop.start()] if stop else after))
    if not near:
        return False
    said = content_words(sentence)
    return any(u not in places and 0 < len(words) <= 8 and words <= said and words & near and same_claim(claim, v)
               for v, words, u in units)


def _beside_id(claim: Claim, text: str) -> bool:
    """Whether the line of a value names an item by its identifier."""
    lo, hi = _line_span(text, claim.start, claim.end)
    return bool(claims_in(text[lo:hi].replace(claim.text, " "), year=None, kinds=("id",)))


def _role(text: str, start: int, end: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The two words before and after a value within its line: its place in a sentence ("the 20 unpaid
    invoices", "orders over £10,000.00")."""
    lo, hi = _line_span(text, start, end)
    before = re.findall(r"[a-z]+", text[lo:start].casefold())[-2:]
    after = re.findall(r"[a-z]+", text[end:hi].casefold())[:2]
    return tuple(before), tuple(after)


def _line_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the line that holds a value starts and ends (a number's span may open with the space or line
    break before it)."""
    while start < end and text[start].isspace():
        start += 1
    hi = text.find("\n", start)
    return text.rfind("\n", 0, start) + 1, len(text) if hi < 0 else hi


def _roles(texts: list[str], year: int | None) -> dict[tuple, list[Claim]]:
    """The gold's amounts and counts by their place (``_role``), each place the gold fills with one value
    only (a list's places, filled with many, say nothing)."""
    places: dict[tuple, list[Claim]] = {}
    for text in texts[1:]:
        text = str(text or "")
        for c in claims_in(text, year=year, kinds=("number",)):
            before, after = _role(text, c.start, c.end)
            for key in (("before", before, _money(c)), ("after", after, _money(c))):
                if key[1]:
                    places.setdefault(key, []).append(c)
    return {k: v for k, v in places.items() if all(same_claim(v[0], c) for c in v)}


def _restates_unit(claim: Claim, text: str, sources: list[tuple[Claim, set[str], int]], year: int | None) -> bool:
    """Whether a value's clause restates one row of the office with it: two more of the clause's values
    in the row that states it ("SO-71910, dated 23 September 2026 (20 x Standing Desk at £520.00)" is the
    order's row, its quantity not a count of the gold's)."""
    clause = _clause_of(claim, text)
    others = [c for c in claims_in(clause, year=year, kinds=VALUE_KINDS) if c.text != claim.text]
    if len(others) < 2:
        return False
    units = {u for v, _w, u in sources if same_claim(claim, v)}
    cover = _cover(others, [s for s in sources if s[2] in units])
    return any(len(h) >= 2 for h in cover.values())


def _cover(others: list[Claim], sources: list[tuple[Claim, set[str], int]],
           words: set[str] | None = None) -> dict[int, set[int]]:
    """Which of a clause's values (``others``, by position) each unit of the office states; with
    ``words``, only the units that share one of them (the units the clause names)."""
    cover: dict[int, set[int]] = {}
    for value, around, u in sources:
        if words is None or words & around:
            hits = {k for k, c in enumerate(others) if same_claim(c, value)}
            if hits:
                cover.setdefault(u, set()).update(hits)
    return cover


def _takes_role(claim: Claim, text: str, roles: dict[tuple, list[Claim]]) -> bool:
    """Whether a value stands where the gold states another value of its sort ("the 30 unpaid invoices"
    where the gold writes "the 20 unpaid invoices"): a false count or amount, however the office supports
    the number."""
    if claim.kind != "number":
        return False
    before, after = _role(text, claim.start, claim.end)
    for key in (("before", before, _money(claim)), ("after", after, _money(claim))):
        gold = roles.get(key) if key[1] else None
        if gold and not same_claim(claim, gold[0]):
            return True
    return False


# ---- figures worked out from stated values ------------------------------------------------------------
_CUE = re.compile(r"(?i)(?<![\w-])(?:total|sum|altogether|in all|combined|together|difference|over|above|beyond|"
                  r"exceed\w*|excess|more|less|fewer|under|below|short|remaining|left|balance|outstanding|net|per|"
                  r"each|a (?:night|day|head|month|year|week|unit|person|piece)|average|mean|late|early|overdue|"
                  r"after|before|earlier|later|days?|weeks?|nights?|up|down|increase\w*|decrease\w*|rise|rose|"
                  r"fall|fell|grew|growth|drop\w*|change\w*|sav(?:ing|ed)|extra|additional|covered|reimburs\w*|disallow\w*|"
                  r"deduct\w*|withheld|rest|behind|ahead|between them|all told)(?![\w-])|%")
_TOTAL = re.compile(r"(?i)(?<![\w-])(?:total|sum|altogether|in all|combined|between them|together|overall|"
                    r"all told)(?![\w-])")
_RESULT_BEFORE = re.compile(r"(?i)\b(?:so|leaving|leaves|that's|that is|which is)\s+(?:the\s+|a\s+)?[$€£]?\s*$")
_PERCENT = re.compile(r"\s*(?:%|per ?cent\b)", re.I)
_DAYS = re.compile(r"\s*(?:calendar\s+|working\s+|business\s+)?days?\b", re.I)


class Stated:
    """The supported numbers of a text (``written`` less ``strays``) by position, read once for all its
    figures: each figure's operands are those of its sentence, and its total's those before it."""

    def __init__(self, written: list[Claim], strays: list[Claim]):
        unsupported = {(c.start, c.end) for c in strays}
        self.numbers = sorted((c for c in written if c.kind == "number" and (c.start, c.end) not in unsupported),
                              key=lambda c: (c.start, c.end))
        self.starts = [c.start for c in self.numbers]
        self.priced = [c for c in self.numbers if c.currency]
        self.priced_ends = [c.end for c in self.priced]

    def near(self, claim: Claim, lo: int, hi: int) -> list[Claim]:
        """The numbers of ``[lo, hi)``, the ``NEAR`` nearest to ``claim`` when there are more."""
        found = self.numbers[bisect.bisect_left(self.starts, lo):bisect.bisect_left(self.starts, hi)]
        found = [c for c in found if (c.start, c.end) != (claim.start, claim.end)]
        if len(found) > NEAR:
            found = sorted(sorted(found, key=lambda c: abs(c.start - claim.start))[:NEAR], key=lambda c: c.start)
        return found

    def listed_before(self, claim: Claim) -> list[Claim]:
        """The numbers with a currency that end before ``claim`` starts, in order."""
        return self.priced[:bisect.bisect_right(self.priced_ends, claim.start)]


NEAR = 32  # a figure is worked out from the nearest numbers of its sentence: a sentence of a thousand numbers
# would try half a million pairs for each of its figures


def _totals(value: float, written: str, listed: list[Claim], currency: str | None) -> bool:
    """``any(total_of(value, written, listed[-k:], currency) for k >= 3)`` in one pass from the end: the
    sums of the suffixes are kept as they grow, and ``total_of`` decides where one comes near."""
    tol = tolerance(written) * 1.0001
    count, total = 0, 0.0
    for k, c in enumerate(reversed(listed), start=1):
        if currency is None or c.currency in (None, currency):
            count, total = count + 1, total + c.value
        if k >= 3 and count >= 3 and abs(total - value) <= 2 * tol + 1e-6 * abs(value) and total_of(
                value, written, [Operand(x.value, x.currency) for x in listed[-k:]], currency):
            return True
    return False


# multiples and fractions a task writes in words ("one and a half times their annual value")
WORD_FACTORS = {"one and a half": 1.5, "two and a half": 2.5, "a half": 0.5, "half": 0.5, "a quarter": 0.25,
                "three quarters": 0.75, "a third": 1 / 3, "two thirds": 2 / 3, "double": 2.0, "twice": 2.0,
                "triple": 3.0, "three times": 3.0}


def word_factors(text: str) -> set[float]:
    """The multiples and fractions ``text`` writes in words."""
    low = (text or "").casefold()
    return {v for w, v in WORD_FACTORS.items() if re.search(rf"\b{re.escape(w)}\b", low)}


def scaled_by_words(claim: Claim, text: str, task: str, year: int | None) -> bool:
    """Whether a number is a multiple or fraction the task writes in words (1.5 for "one and a half
    times"), or an amount of its sentence scaled by one ("its £87,750.00 line": 1.5 x £58,500.00)."""
    factors = word_factors(task)
    if claim.kind != "number" or not factors:
        return False
    tol = tolerance(claim.text) * 1.0001
    if not claim.currency and any(abs(float(claim.value) - f) <= tol for f in factors):
        return True
    at = _sentence_at(text, claim.start)
    if at is None or not claim.currency:
        return False
    amounts = [float(c.value) for c in claims_in(at[2], year=year, kinds=("number",)) if c.currency == claim.currency]
    return any(abs(abs(float(claim.value)) - abs(a) * f) <= tol for a in amounts[:20] for f in factors)


def column_totals(text: str, year: int | None) -> list[float]:
    """The sums of each column of amounts of the tables and lists a text writes: lines next to each other
    that give as many amounts each, the k-th amount of every line summed ("Bramble | CTR-2307 | £45,500.00
    | £78,932.01" and the lines under it give "Between them that is £319,572.49 invoiced against
    £181,500.00")."""
    rows: list[list[float]] = []
    out: list[float] = []

    def close() -> None:
        for block in (rows, rows[:-1]):  # a "Total" line under the rows is not one of them
            if len(block) >= 2:
                out.extend(sum(r[k] for r in block) for k in range(len(block[0])))
        rows.clear()

    for line in text.splitlines()[:MAX_CLAIMS]:
        amounts = [abs(float(c.value)) for c in claims_in(line, year=year, kinds=("number",)) if c.currency]
        if not amounts:
            close()
            continue
        if rows and len(amounts) != len(rows[0]):
            close()
        rows.append(amounts)
    close()
    return out


# "before the change takes effect": an event the text dates elsewhere, not a date written right after
BEFORE_IT = r"(?:before|until|ahead of|prior to|in advance of)\s+(?:the|this|that|it|these|our|your)\b(?!\s+\d)"
_DAYS_BEFORE_IT = re.compile(r"(?i)\s*days?['’]?\s+(?:(?:notice|warning)\s+)?" + BEFORE_IT)


def derived(claim: Claim, text: str, written: list[Claim], strays: list[Claim], *, year: int | None,
            now: datetime | None, stated: Stated | None = None) -> bool:
    """Whether an unsupported number is worked out, in one step, from supported values the same sentence
    states (a difference, a rate, a share: "£740, £240 over the £500 cap"), as days between its dates
    ("due 3 November, paid 10 November, 7 days late"), or as the total of the amounts listed before it.
    Only where the words around it say it is worked out ("over", "per", "a night", "late", "total", "%"):
    a bare second value beside an expected one stays a second answer."""
    found = _sentence_at(text, claim.start)
    if found is None:
        return False
    lo, hi = found[0], found[1]
    window = text[max(lo, claim.start - 40):min(hi, claim.end + 40)]
    factor = _FACTOR_AFTER.match(text, claim.end) or _factor_before(text, lo, claim.start) or \
        _RATIO_AFTER.match(text, claim.end)  # "about 1.73 times the contract value": a quotient
    if not factor and not _CUE.search(window.replace(claim.text, " ")):
        return False  # ("3 x £289.00" beside "£867.00" is a product's factor)
    stated = stated or Stated(written, strays)
    near = [Operand(c.value, c.currency) for c in stated.near(claim, lo, hi)]
    if one_step(claim.value, claim.text, near, currency=claim.currency,
                percent=_PERCENT.match(text, claim.end) is not None):
        return True
    before = _sentence_at(text, lo - 1) if lo > 0 else None
    before = before or (_sentence_at(text, lo - 2) if lo > 1 else None)
    said_of = _CUE.search(text[claim.end:min(hi, claim.end + 40)]) or _RESULT_BEFORE.search(text, lo, claim.start)
    if before is not None and said_of and text[before[1]:lo].count("\n") < 2:  # "£60.00 of £84.50. So £24.50
        # can't be covered": the operands stand in the sentence before, in the same paragraph, and the words
        # right after the figure (or a "so" right before it) say it is worked out
        near = [Operand(c.value, c.currency) for c in stated.near(claim, before[0], hi)]
        if one_step(claim.value, claim.text, near, currency=claim.currency,
                    percent=_PERCENT.match(text, claim.end) is not None):
            return True
    if _DAYS.match(text, claim.end):
        days = [c.value for c in claims_in(text[lo:hi], year=year, kinds=("date",)) if isinstance(c.value, date)]
        if days_between(claim.value, days + ([now.date()] if now is not None else [])):
            return True
        if now is not None and _DAYS_BEFORE_IT.match(text, claim.end) and any(
                abs((d - now.date()).days) == claim.value for c in claims_in(text, year=year, kinds=("date",))
                if isinstance(d := c.value, date)):
            return True  # "74 days before the change takes effect": from today to the day the text gives it
    if claim.currency and _TOTAL.search(window):
        return _totals(claim.value, claim.text, stated.listed_before(claim), claim.currency) or any(
            abs(abs(float(claim.value)) - t) <= tolerance(claim.text) * 1.0001 for t in column_totals(text, year))
    return False


# ---- values of the office, bound to their labels --------------------------------------------------------
_STOP = set("""the and for with from that this these those are was were you your our has have had will all per
not but its into over under each than then there their them they she his her him who what when which where
about would could should can may might must been being also just only any some more most such very please
thanks thank regards best dear hello team""".split())


def content_words(text: str) -> set[str]:
    """The words of a text that say what it is about (three letters or more, not a function word); a
    plural is its singular."""
    return {w.rstrip("s") if len(w) > 4 else w for w in re.findall(r"[a-z]{3,}", text.casefold()) if w not in _STOP}


VALUE_KINDS = ("number", "date", "time", "id", "email", "phone")


@lru_cache(maxsize=1 << 17)
def _value_claims(text: str, year: int | None) -> tuple[Claim, ...]:
    """The values one line of the office states, read once per process: the tasks of a lived-in office
    share its thousand files."""
    return tuple(claims_in(text, year=year, kinds=VALUE_KINDS))


@lru_cache(maxsize=1 << 17)
def _content_words(text: str) -> frozenset[str]:
    return frozenset(content_words(text))


def office_sources(files: dict[str, dict], year: int | None) -> list[tuple[Claim, set[str], int]]:
    """Every value the office states, with the words beside it and the unit it belongs to: a row of a
    table (its cells and the table's header), an event (its title, place and times), a line of text."""
    out: list[tuple[Claim, set[str], int]] = []
    units = iter(range(1 << 62))

    def unit(line: str, context: str = "", values: str | None = None, own: list[Claim] | None = None) -> None:
        words, number = _content_words(line + " " + context), next(units)
        out.extend((c, words, number) for c in _value_claims(values or line, year))
        out.extend((c, words, number) for c in own or ())  # the document's own identifiers: its lines are of it

    for entry in files.values():
        kind = entry.get("kind")
        if kind == "xlsx":
            for rows in (entry.get("sheets") or {}).values():
                header = " ".join(str(c) for c in (rows[0] if rows else []) if c is not None)
                for row in rows[:20000]:
                    unit(" | ".join("" if c is None else str(c) for c in row), header)
            continue
        if kind == "ics":
            for e in entry.get("events") or []:
                said = " ".join(str(e.get(k) or "") for k in ("summary", "location", "description"))
                unit(said, values=f"{said}\n{e.get('start') or ''}\n{e.get('end') or ''}")
            continue
        if kind == "eml":
            if entry.get("date"):  # the day a mail came in is a fact of the office ("told us on 28 September")
                unit(f"{entry.get('from') or ''} {entry.get('subject') or ''}", values=str(entry["date"])[:10])
            lines = [str(entry.get("subject") or ""), *str(entry.get("body") or "").splitlines()]
        elif kind in ("docx", "text", "pdf"):
            lines = document_text(entry).splitlines()
            if len(lines) <= SHORT_DOCUMENT:  # a credit note's "Amount credited: £463.04" is CN-SC-2611-045's
                own = [c for c in claims_in("\n".join(lines[:6]), year=year, kinds=("id",))]
                # and the day a dated title gives ("Key accounts weekly — minutes of 29 September 2026"): "A129
                # moved to you at the 29 September meeting" cites the minutes' line "A129: moves from Asha Kovac"
                own += [c for c in claims_in(lines[0] if lines else "", year=year, kinds=("date",))][:1]
                for line in lines:
                    if any(ch.isdigit() or ch == "@" for ch in line):
                        unit(line, own=[c for c in own if c.text not in line])
                continue
        else:
            continue
        for line in lines[:5000]:
            if any(ch.isdigit() or ch == "@" for ch in line):
                unit(line)
    return out


SHORT_DOCUMENT = 60  # lines of a document whose every line is about the identifiers it opens with


def _office_value(claim: Claim, text: str, sources: list[tuple[Claim, set[str], int]], expected: list[Any],
                  year: int | None) -> bool:
    """Whether a value the text states is one the office states in the same role: either the clause
    around it restates one unit of the office (it names the unit, sharing a word with its row, header or
    event, and another value of the clause stands in the same unit: "Ana: 74, 72, 97, average 80.05",
    "Sync 11:00-12:00"; a date alone does not bind a clause to every event of that day), or the clause
    states none of the expected facts (else it would be a second answer: "4,690.99 (5,100 with the
    hotel)") and shares a word with a place in the office that states the same value ("the taxi alone
    was 1,500")."""
    clause, offset, label = "", 0, ""
    found = _sentence_at(text, claim.start)
    if found is not None:
        start, _end, sentence = found
        clause = _clauses(sentence, claim.start - start, claim.end - start)[0]
        head = re.match(r"\s*([^:\n]{1,40}):\s", sentence)
        if head and head.end() <= claim.start - start:
            label = head.group(1)  # "Amount approved: £480.00 of the £516.00 claimed" is about the amounts
        if not _unvalued_words(clause, year):
            clause = sentence  # values after a label ("Liam: 74 and 72", "Nap: 1:00 PM - 2:00 PM") are the label's
        offset = start + sentence.find(clause)
    if not clause:
        return False
    units = {u for value, _around, u in sources if same_claim(claim, value)}
    if not units:
        return False
    ids: list[Claim] = []
    aside = _aside(text, claim)
    if aside is not None:
        # an aside in brackets is a statement of its own about the item its sentence names: "A129 - the renewal
        # proposal (moved over to you from Asha at the 29 September meeting) - due 22/09/2026" says when A129
        # moved, which the minutes' line "A129: moves from Asha Kovac to Dmitri Mensah" of 29 September states
        lo, hi = aside
        ids = [c for c in claims_in(clause, year=year, kinds=("id",)) if not lo <= c.start + offset < hi]
        offset, clause = lo, text[lo:hi]
    others = ids + [c for c in claims_in(clause, year=year, kinds=VALUE_KINDS)
                    if not (c.start + offset <= claim.start < c.end + offset)]
    words = content_words(clause.replace(claim.text, " ")) | content_words(label)
    # which of the clause's other values each unit the clause names states: the value is bound to a unit
    # stating it only when no unit states more of them ("Section A, 9:00 AM (1:00 PM ...) to 11:00 AM" is
    # Section A's row, 9:00-11:00, not Section B's, 11:00-1:00 PM, which shares only the 11:00)
    cover = _cover(others, sources, words)
    best = max((len(v) for v in cover.values()), default=0)
    if best and any(len(cover.get(u, ())) == best for u in units):
        return True
    if _named_beside(claim, text, sources, set()):
        return True  # another thing's value, named right beside it ("within the £185.00 a night cap for Dublin")
    named = {k for k, c in enumerate(others) if c.kind == "id"}
    if named and any(hits & named for hits in cover.values()):
        return False  # a value beside an item's identifier is that item's, and its row does not state it
    if any(_rival_kind(f, claim) and find(clause, f, year=year) is not None for f in _flat(expected)):
        return False
    return any(same_claim(claim, value) and words & around for value, around, _u in sources)


def _aside(text: str, claim: Claim) -> tuple[int, int] | None:
    """Where the bracketed aside a date stands in starts and ends (inside its brackets), on its line; None if
    it stands in none or the aside holds other dates or amounts (a second figure, not a remark)."""
    if claim.kind != "date":
        return None
    line_lo = text.rfind("\n", 0, claim.start) + 1
    open_at = text.rfind("(", line_lo, claim.start)
    if open_at < 0 or text.find(")", open_at, claim.start) >= 0:
        return None
    close_at = text.find(")", claim.end)
    line_hi = text.find("\n", claim.end)
    if close_at < 0 or (0 <= line_hi < close_at):
        return None
    inside = [c for c in claims_in(text[open_at + 1:close_at], year=None, kinds=("date", "number"))
              if not (c.kind == "date" and open_at + 1 + c.start == claim.start)]
    return None if inside else (open_at + 1, close_at)


@lru_cache(maxsize=1024)
def _unvalued_words(clause: str, year: int | None) -> frozenset[str]:
    """The content words of a clause with its values masked, once per clause (each of its values asks)."""
    return frozenset(content_words(_mask(clause, [(i.start, i.end) for i in claims_in(clause, year=year,
                                                                                       kinds=VALUE_KINDS)])))


def _rival_kind(fact: Any, claim: Claim) -> bool:
    """Whether an expected fact is a value a claim could be a second answer for: a date beside an expected
    date, an amount beside an expected amount, not a date beside a required word ("bank", "held")."""
    kind = fact_of(fact)[0]
    if kind == "text":
        return IDENTIFIER.fullmatch(str(fact).strip()) is not None or _is_name(fact) \
            or claim.kind not in ("date", "time", "number")
    if kind == "datetime":
        return claim.kind in ("date", "time")
    return kind == claim.kind


def text_sources(texts: Iterable[str], year: int | None) -> list[tuple[Claim, set[str], int]]:
    """The values of ``texts``, each with the words of its line and the line as its unit (numbered apart
    from ``office_sources``' units)."""
    out: list[tuple[Claim, set[str], int]] = []
    number = 1 << 62
    for text in texts:
        for line in str(text or "").splitlines():
            number += 1
            words = _content_words(line)
            out.extend((c, words, number) for c in claims_in(line, year=year, kinds=VALUE_KINDS, dotted_times=True))
    return out


def _elsewhere_value(claim: Claim, text: str, units: list[tuple[Claim, set[str], int]], expected: list[Any],
                     year: int | None) -> bool:
    """Whether a value the gold writes in another place supports a claim: anywhere, except in a clause that
    also states an expected fact of its kind, where it would be a second answer ("highest in 2014, at
    $4,983,791, or $4,611,210", the second being 2015's row of the gold's table) unless the clause restates
    the line that holds it (``_office_value``)."""
    if not any(same_claim(claim, value) for value, _w, _u in units):
        return False
    whole = _clause_of(claim, text)
    clause = whole.replace(claim.text, " ")
    kinds = {"date", "time"} if claim.kind in ("date", "time") else {claim.kind}
    rivals = [f for f in _flat(expected) if fact_of(f)[0] in kinds | ({"datetime"} if "date" in kinds else set())
              and find(clause, f, year=year) is not None]
    if rivals and claim.kind == "number":  # the expected figure worked out from it: "$357.50 (3.25 h at 110/h)"
        numbers = claims_in(whole, year=year, kinds=("number",))
        for fact in rivals:
            wanted = number_fact(fact)
            operands = [Operand(c.value, c.currency) for c in numbers if wanted is None or not same_number(c, wanted.value)]
            if wanted is not None and any(o.value == claim.value for o in operands) \
                    and one_step(wanted.value, str(fact), operands):
                return True
    return not rivals or _office_value(claim, text, units, expected, year)


def _sentence_of(claim: Claim, text: str) -> str:
    """The sentence of ``text`` that states ``claim``."""
    found = _sentence_at(text, claim.start)
    return found[2] if found is not None else ""


def _clause_of(claim: Claim, text: str) -> str:
    """The clause of ``text`` that states ``claim``."""
    found = _sentence_at(text, claim.start)
    if found is None:
        return ""
    start, _end, sentence = found
    return _clauses(sentence, claim.start - start, claim.end - start)[0]


def _today(claim: Claim, text: str, now: datetime, expected: list[Any], year: int | None) -> bool:
    """Today's date is neutral ("Date: 26 March 2026", "as of today, 26 March"), except beside an
    expected date in one clause, where it is a second value of that date ("on 30 March (26 March by
    the other count)")."""
    if claim.kind != "date" or not _same_day(claim.value, now.date()):
        return False
    if claim.start > 0 and re.search(r"(?i)(?:\bto|\buntil|\btill|\bthrough|[-–—])\s*$", text[max(0, claim.start - 12):claim.start]):
        return True  # "questions from 26 October to 16 November 2026": a span up to today
    clause = _clause_of(claim, text)
    dates = [f for f in _flat(expected) if fact_of(f)[0] in ("date", "datetime")]
    return not any(find(clause.replace(claim.text, " "), f, year=year) is not None for f in dates)


_SPAN = re.compile(r"(?i)\b(\d{1,4})[\s-]+(day|week)s?\b")


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY_BEFORE = re.compile(r"(?i)\b(" + "|".join(_WEEKDAYS) + r")(?:['’]s)?\b[^.\n()]{0,30}?[(,:–—-]?\s*(?:on\s+)?$")


def _named_weekday(claim: Claim, text: str, now: datetime, told: str) -> bool:
    """Whether a date is the date of the weekday written right before it, which the task's words (``told``, in
    lower case) name, within a week of today ("so it will not go into Friday's payment run (20 November)")."""
    if claim.kind != "date" or not isinstance(claim.value, date):
        return False
    m = _WEEKDAY_BEFORE.search(text, max(0, claim.start - 45), claim.start)
    if m is None or _WEEKDAYS.index(m.group(1).lower()) != claim.value.weekday():
        return False
    return m.group(1).lower() in told and abs((claim.value - now.date()).days) <= 7


def _window_end(claim: Claim, now: datetime, instruction: str) -> bool:
    """A date the instruction's own span of days or weeks from today gives ("the next 180 days" ends on
    5 June): the edge of the window the agent was asked to look in."""
    if claim.kind != "date" or not isinstance(claim.value, date):
        return False
    gap = abs((claim.value - now.date()).days)
    return any(gap == int(n) * (7 if unit.lower() == "week" else 1) for n, unit in _SPAN.findall(instruction))


def _days_from(claim: Claim, text: str, year: int | None) -> bool:
    """A date its sentence works out from another date and a span of days it states: "placed on 16
    October, so the 30-day period ended on 15 November" (the other date is read on its own)."""
    if claim.kind != "date" or not isinstance(claim.value, date):
        return False
    found = _sentence_at(text, claim.start)
    if found is None:
        return False
    lo, _hi, sentence = found
    spans = {int(n) for n, _unit in _SPAN.findall(sentence) if _unit.lower() == "day"}
    others = [c.value for c in claims_in(sentence, year=year, kinds=("date",))
              if isinstance(c.value, date) and c.start + lo != claim.start]
    return any(abs((claim.value - d).days) in spans for d in others)


def _label_words(text: str, year: int | None) -> set[str]:
    """The content words of a text with its values (dates, times, numbers...) left out: "Handover, week
    of 15 June" is about a handover and a week, not about June."""
    spans = [(c.start, c.end) for c in claims_in(text, year=year, kinds=VALUE_KINDS) if c.start >= 0]
    return content_words(_mask(text, spans))


def context_value(claim: Claim, text: str, context: list[str], year: int | None) -> bool:
    """Whether a value is one a kept line of the same file states, restated in a clause about the same
    thing (sharing a word other than a value's with that line: "5 x Footrest at 62 EUR each" beside "to
    quote for 5 x Footrest"), or a factor of a product the text works out ("Total: 310 (5 x 62)"); beside
    another line's fact it is a second value ("Tuesday 16 June (15 June by the other count)" under
    "Handover, week of 15 June")."""
    lines = [line for line in context
             if any(same_claim(claim, c) for c in claims_in(line, year=year, kinds=(claim.kind,)))]
    if not lines:
        return False
    if claim.kind == "number" and (_FACTOR_AFTER.match(text, claim.end) or _factor_before(text, 0, claim.start)):
        return True
    words = _label_words(_clause_of(claim, text), year)
    return bool(words) and any(words & _label_words(line, year) for line in lines)


_FACTOR_AFTER = re.compile(r"\s*[x×*]\s*[$€£]?\d")
_RATIO_AFTER = re.compile(r"(?i)\s*(?:x|×|times)(?![\w-])")
_FACTOR_BEFORE = re.compile(r"\d\s*[x×*]\s*$")


def _factor_before(text: str, lo: int, end: int) -> bool:
    """``_FACTOR_BEFORE.search(text[lo:end])`` read backwards from ``end`` (a digit, then "x", "×" or "*",
    then only spaces), without copying or scanning what comes before: it is asked of every value."""
    i = end
    while i > lo and text[i - 1].isspace():
        i -= 1
    if i <= lo or text[i - 1] not in "x×*":
        return False
    i -= 1
    while i > lo and text[i - 1].isspace():
        i -= 1
    return i > lo and text[i - 1].isdecimal()


def _named_apart(claim: Claim, text: str, names: str, expected: list[Any], year: int | None, *,
                 directory: Directory | None = None,
                 sources: list[tuple[Claim, set[str], int]] | None = None) -> bool:
    """A person or organisation the office or the gold's work names, in a clause that states no expected
    fact of its kind ("I reconciled Northgate Bank's statement", "agendas went to Ironvale Logistics" beside
    "Bramble Office Supply is the idle supplier"): context, not a second answer. A clause that ties two
    people together ("Anton Hart will look after Mei Ito") is context only where one place of the office
    names them both."""
    if claim.text.casefold() not in names:
        return False
    lo, hi = _line_span(text, claim.start, claim.end)
    line = text[lo:hi]
    kinds = _item_values(line.replace(claim.text, " "), expected, year)
    if (_ITEM_LINE.match(line) and kinds) or len(kinds) >= 2:
        return False  # "- Ivy Lane Bakeries: review Monday 9 November at 11:30", "2026-10-17 — Vantage
        # Security — SO-71732": one more item of the list, not a remark
    # a list line is one statement ("- Anton Hart: Nina Lund" pairs a name with an expected one)
    clause = _aside_of(claim, text) or (line if _ITEM_LINE.match(line) else _clause_of(claim, text))
    if claim.kind == "person" and directory is not None and sources is not None \
            and any(not _named_together(claim, other, sources) for other in _related_people(claim, clause, names, directory)):
        return False
    clause = clause.replace(claim.text, " ")
    return not any(fact_of(f)[0] == "text" and find(clause, f, year=year) is not None and _is_name(f)
                   for f in _flat(expected))


_COORDINATION = re.compile(r"(?i)\s*(?:,|and|or|&|/|,\s*and|,\s*or)\s*")


def _related_people(claim: Claim, clause: str, names: str, directory: Directory) -> list[Claim]:
    """The other people of the office a clause names in a relation with ``claim`` (not a list of names:
    "Anton Hart and Mei Ito")."""
    at = clause.find(claim.text)
    out = []
    for other in claims_in(clause, year=None, directory=directory, kinds=("person",)):
        if other.value == claim.value or other.text.casefold() not in names or at < 0:
            continue
        lo, hi = sorted(((at, at + len(claim.text)), (other.start, other.end)))
        if _COORDINATION.fullmatch(clause[lo[1]:hi[0]]) or _new_statement(clause, lo[1], hi):
            continue
        out.append(other)
    return out


def _new_statement(clause: str, gap: int, later: tuple[int, int]) -> bool:
    """Whether the later of two names opens a statement of its own after a comma ("Bjorn Silva withdrew
    his leave, Lucia Nair is off until 16 December"): two remarks side by side, no relation."""
    if not re.search(r"[,;]\s*$", clause[gap:later[0]]):
        return False
    after = " ".join(re.split(r"[,;.]", clause[later[1]:], maxsplit=1)[0].split()[:3])
    return _ASIDE_VERB.search(after) is not None or _STATEMENT_VERB.search(after) is not None


_STATEMENT_VERB = re.compile(r"(?i)\b(?:\w{3,}ed|withdrew|took|gave|went|came|left|returns|starts|ends|leaves|"
                             r"gets|got|needs|asked|says|said)\b")


def _named_together(claim: Claim, other: Claim, sources: list[tuple[Claim, set[str], int]]) -> bool:
    """Whether one unit of the office (a row, an event, a line) names both people."""
    wanted = content_words(claim.text) | content_words(other.text)
    return bool(wanted) and any(wanted <= around for _value, around, _u in sources)


_ITEM_LINE = re.compile(r"\s*(?:[-*•–]|\d{1,2}[.)])\s|\s*[^:\n]{1,60}:\s")


def _item_values(line: str, expected: list[Any], year: int | None) -> set[str]:
    """The kinds the expected facts are (a date, a time, an amount, an identifier) of which a line states
    values: what makes a line an item of a list rather than a remark."""
    kinds: set[str] = set()
    for fact in _flat(expected):
        kind, _value = fact_of(fact)
        kinds |= {"date", "time"} if kind == "datetime" else {kind}
        if kind == "text" and IDENTIFIER.fullmatch(str(fact).strip()):
            kinds.add("id")
    kinds &= {"number", "date", "time", "id"}
    return {c.kind for c in claims_in(line, year=year, kinds=kinds)} if kinds else set()


_ASIDE_VERB = re.compile(r"(?i)\b(?:is|are|was|were|has|have|had|will|would|can|could|does|did|joined|started|"
                         r"left|leaves|takes|took|covers|covered)\b")


def _aside_of(claim: Claim, text: str) -> str | None:
    """The parenthesis around a claim when it is a statement of its own ("Amara Jensen (Omar Nair has
    approved leave that week)"), not a second reading of a value ("Amara Jensen (Omar Nair by the other
    count)")."""
    lo = text.rfind("(", 0, claim.start)
    if lo < 0 or text.rfind(")", lo, claim.start) >= 0 or "\n" in text[lo:claim.start]:
        return None
    hi = text.find(")", claim.end)
    if hi < 0 or "\n" in text[claim.end:hi]:
        return None
    aside = text[lo + 1:hi]
    return aside if _ASIDE_VERB.search(aside) else None


_MEASURES = {"days", "weeks", "months", "years", "hours", "minutes", "seconds", "nights", "mornings",
             "afternoons", "evenings", "weekdays", "percent", "points", "pounds", "euros", "dollars", "pence"}
_COUNTED = re.compile(r"\s+(?:[a-z]+\s+)?([a-z]{3,}s)\b")


def _own_count(claim: Claim, text: str, texts: list[str]) -> bool:
    """A count the agent gives of something the gold counts nowhere ("I marked 39 payments as cleared"
    where the gold's mail counts no payments): true or not, no source states it, so it is read only
    against the gold's count in the same place (``_takes_role``)."""
    if claim.kind != "number" or _money(claim) or claim.currency or not float(claim.value).is_integer() \
            or not 1 < claim.value < 10000 or "." in claim.text:
        return False
    m = _COUNTED.match(text, claim.end)
    if not m:
        return False
    noun = m.group(1).casefold()
    if noun in _MEASURES:
        return False  # "9 days late" is a span the dates around it decide, not a tally of things
    gold = "\n".join(str(t or "") for t in texts[1:]).casefold()
    return re.search(rf"\d[\d,]*\s+(?:[a-z]+\s+)?{re.escape(noun)}\b", gold) is None


_LIST_LINE = re.compile(r"^\s*(?:[-•*–·]|\d{1,3}[.)]|[a-z][.)])\s+\S")


def _list_sizes(text: str) -> set[int]:
    """The sizes of the lists a text writes: runs of list items, or of table rows (with and without the first,
    which may be a header)."""
    sizes, items, rows = set(), 0, 0
    for line in [*text.splitlines(), ""]:
        if _LIST_LINE.match(line):
            items += 1
            continue
        if line.count("|") >= 2 and not re.fullmatch(r"[\s|:-]*", line):
            rows += 1
            continue
        if re.fullmatch(r"[\s|:-]+", line) and rows:
            continue  # a table's rule under its header
        sizes |= {items} | ({rows, rows - 1} if rows else set())
        items = rows = 0
    return {n for n in sizes if n >= 2}


def _listed_count(claim: Claim, text: str) -> bool:
    """A count that is the number of items of a list the same text writes ("Tickets waiting on me (4)" over four
    rows): worked out from the text itself."""
    if claim.kind != "number" or _money(claim) or claim.currency or "." in claim.text \
            or not float(claim.value).is_integer():
        return False
    return int(claim.value) in _list_sizes(text)


def _named_number(claim: Claim, text: str, names: str) -> bool:
    """A number that is part of a name the instruction or the office uses ("Midterm 1" for midterm1,
    "Room 4", "Team 2")."""
    word = re.search(r"([A-Za-z]{3,})[\s#-]*$", text[max(0, claim.start - 30):claim.start])
    return bool(word) and re.search(r"(?<![a-z])" + re.escape(word.group(1).casefold()) + r"[\s#-]*"
                                    + re.escape(claim.text.lstrip("$€£¥")) + r"(?!\d)", names) is not None


# ---- polarity ----------------------------------------------------------------------------------------
_IDIOMS = re.compile(r"(?:do not|don't|dont) hesitate|no later than|not later than|no problem|no worries|not only|"
                     r"if not|no\.\s*\d|\bno:\s*\d|nothing else|not sure whether|"
                     # "the next deadline is not until 31 March": when it is, said as late ("isn't due until")
                     r"(?:not|n't|n’t)\s+(?:\w+\s+)?(?:until|till|before)\b|"
                     # the writer's absence, not the event's: "I can't make our meeting X at 14:00, could you rebook it"
                     r"(?:can't|can’t|cannot|can not|won't be able to|will not be able to|unable to|not be able to)\s+"
                     r"(?:make|attend|join|be at|be there for|come to|chair|host|run|lead|cover)\b|"
                     # "our Budget check-in on 2 December can't go ahead with me": it goes on without the writer
                     r"(?:can't|can’t|cannot|can not|won't|will not)\s+(?:go ahead|take place|happen|go on|run)\s+"
                     r"(?:with me|without me|while I(?:'m|’m| am) (?:away|off|out))|"
                     # a search that found nothing says what is missing, not that the item is not so:
                     # "I could not find your approval for PO-4505"
                     r"(?:could not|couldn't|couldn’t|cannot|can't|can’t|did not|didn't|didn’t|unable to|not able to)\s+"
                     r"(?:find|locate|trace|see|match)\b|"
                     # ... or where it was looked for: "Order SO-72664 doesn't appear on your account"
                     r"(?:doesn't|doesn’t|does not|don't|don’t|do not|didn't|didn’t|did not)\s+(?:appear|show up|exist|"
                     r"come up)\s+(?:on|in|under|among|against)\b", re.I)
_NEGATION = re.compile(r"(?<!\w)(?<![A-Za-z]-)(?:not|never|cannot|can't|won't|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|"
                       r"shouldn't|couldn't|wouldn't|no longer|unable|unavailable|cancel(?:l)?ed|cancel(?:l)?ing|"
                       r"cancel(?:l)?ation|call(?:ed)? off|postponed|withdrawn|void)(?![\w-])|n't\b", re.I)


def sentences(text: str) -> list[tuple[int, int, str]]:
    """(start, end, sentence) of ``text``, each line on its own first (a line is never one sentence with
    the next), then split by sentencex."""
    return list(_sentences(text))


@lru_cache(maxsize=64)
def _sentences(text: str) -> tuple[tuple[int, int, str], ...]:
    """``sentences``, read once per text: a text's values each look up their sentence."""
    out, offset = [], 0
    for line in text.splitlines(keepends=True):
        if line.strip():
            at = 0
            for sentence in segment("en", line):
                start = line.find(sentence, at) if sentence else -1
                if start < 0:
                    continue
                at = start + len(sentence)
                out.append((offset + start, offset + at, sentence))
        offset += len(line)
    return tuple(out)


@lru_cache(maxsize=64)
def _sentence_starts(text: str) -> list[int]:
    return [start for start, _end, _s in _sentences(text)]


def _sentence_at(text: str, pos: int) -> tuple[int, int, str] | None:
    """The sentence of ``text`` that holds position ``pos`` (sentences do not overlap), found by bisection:
    a value's sentence is looked up for each value, and a scan of every sentence made that quadratic."""
    k = bisect.bisect_right(_sentence_starts(text), pos) - 1
    if k >= 0:
        found = _sentences(text)[k]
        if pos < found[1]:
            return found
    return None


def negated(sentence: str) -> bool:
    """Whether a sentence says something does not hold ("no longer", "do NOT", "cancelled")."""
    return _NEGATION.search(_IDIOMS.sub(" ", sentence)) is not None


# (the runs of spaces are tried where they start only, "(?<!\s)": from each space of a long run the pattern
# read to its end, quadratic; a run that does not break from its start breaks from none of its spaces)
_CLAUSE_BREAK = re.compile(r";|:(?=\s)|,\s*(?=(?:but|and|while|although|though|whereas|so|yet|not)\b)"
                           r"|(?<!\s)\s+(?:but|while|although|whereas)\s+|\s(?=(?:rather than|instead of)\b)"
                           # a second verb of the same subject: "placed X on hold and will not pay it"
                           r"|(?<!\s)\s+and\s+(?=(?:will|would|shall|won't|wont|cannot|can't|do|does|did|don't|doesn't|"
                           r"didn't|have|has|had|is|are|was|were|we|i|they|he|she|it|hasn't|haven't|hadn't|isn't|aren't|wasn't|"
                           r"weren't|has not|have not|is not|was not|still|never)\b)"
                           # a second amount as a new subject: "£480.00 is reimbursed and the £36.00 above the cap is not"
                           r"|(?<!\s)\s+and\s+(?=the\s+[£$€]\s?\d)"
                           # a spaced dash before a new subject: "on 17 November at 10am - the 9:00 slot wasn't free"
                           r"|(?<!\s)\s+[-–—]\s+(?=(?:the|my|our|your|their|its|his|her|this|that|these|those|i|we|"
                           r"they|he|she|it|there|could|can|would|will|please)\b)", re.I)


def _clauses(sentence: str, start: int, end: int) -> list[str]:
    """The clause of ``sentence`` that holds the span: "arrived on time, but the fan does not work" is
    two statements, and only the second one is negated."""
    bounds = _clause_bounds(sentence)
    return [sentence[a:b] for a, b in zip(bounds, bounds[1:]) if a <= start < b or a < end <= b] or [sentence]


# what the gold says of an item it leaves out: a statement that does not include it agrees
_EXCLUDED = re.compile(r"(?i)\b(?:left (?:[\w-]+ ){0,3}out|excluded|omitted|held (?:[\w-]+ ){0,3}back|"
                       r"kept (?:[\w-]+ ){0,3}out|dropped|skipped|removed)\b")
# a sentence that opens with a reason or a condition: its first comma ends it ("As that invoice has not
# been paid yet, we will deduct £33.17" negates the payment, not the deduction)
_OPENING_CLAUSE = re.compile(r"(?i)\s*(?:as|since|because|although|though|while|whereas|given that|now that|once|if|"
                             r"when|unless|until)\b[^,;:\n]{3,120}?,\s*")


@lru_cache(maxsize=1024)
def _clause_bounds(sentence: str) -> tuple[int, ...]:
    """Where the clauses of a sentence start and end, once per sentence (each of its values asks)."""
    opening = _OPENING_CLAUSE.match(sentence)
    inner = [opening.end()] if opening else []
    return tuple(sorted({0, *inner, *(m.end() for m in _CLAUSE_BREAK.finditer(sentence)), len(sentence)}))


def _masked(text: str, fact: Any, year: int | None, limit: int = 20) -> tuple[list[Mention], str]:
    """Every place ``text`` states ``fact``, and the text with each of them blanked out (``find`` gives
    the first; each found one is masked before looking again)."""
    out: list[Mention] = []
    while len(out) < limit:
        found = find(text, fact, year=year)
        if found is None or found.end <= found.start:
            break
        out.append(found)
        text = text[:found.start] + " " * (found.end - found.start) + text[found.end:]
    return out, text


def _occurrences(text: str, fact: Any, year: int | None, limit: int = 20) -> list[Mention]:
    """Every place ``text`` states ``fact``."""
    return _masked(text, fact, year, limit)[0]


_NAME = re.compile(r"[A-Z][\w'’&.-]*(?:\s+(?:of|and|&|the|de|van|von)?\s*[A-Z][\w'’&.-]*)*")


def _is_name(fact: Any) -> bool:
    """Whether an expected fact is a name (a person, a customer): a report of what was not done to
    someone names them in a negated clause ("I did not send Beacon Hill Schools a letter", "so I haven't
    changed Ada's number"), where only a negation right before the name denies the name itself."""
    kind, value = fact_of(fact)
    return kind == "text" and not IDENTIFIER.fullmatch(str(value).strip()) and _NAME.fullmatch(str(value).strip()) is not None


# words that say nothing of what a negated clause is about: the negation itself, and calendar names
_NOT_ABOUT = {"not", "never", "cannot", "longer", "unable", "unavailable", "cancelled", "canceled", "cancelling",
              "canceling", "cancellation", "called", "call", "off", "postponed", "withdrawn", "void",
              "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
              "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
              "november", "december"}


def _without(text: str, fact: Any, year: int | None) -> str:
    """``text`` with every statement of ``fact`` blanked out."""
    return _masked(text, fact, year)[1]


def _lines_stating(text: str, fact: Any, year: int | None) -> list[str]:
    """The lines of a long ``text`` (a whole office) that state ``fact``; found by its words first, so a
    thousand files are not split into sentences for each fact."""
    out = []
    for found in _occurrences(text, fact, year):
        lo, hi = text.rfind("\n", 0, found.start) + 1, text.find("\n", found.end)
        out.append(text[lo:hi if hi >= 0 else len(text)])
    return out


@lru_cache(maxsize=16)
def _negated_lines(office: str) -> str:
    """The lines of an office's text that negate something: the only ones that can support a negated
    statement, a few hundred of a hundred thousand (reading a fact in the whole office took minutes)."""
    return "\n".join(line for line in office.splitlines() if negated(line))


def _words_before(text: str, start: int, words: int = 1) -> str:
    return " ".join(text[max(0, start - 60):start].split()[-words:])


def _clauses_stating(texts: Iterable[str], fact: Any, year: int | None) -> Iterator[str]:
    """The clause of each sentence of ``texts`` that states ``fact``; for a list item, with the heading
    it stands under ("Paid in the ledger, not yet shown by the bank:" over "- TF-2610-0343")."""
    for text in texts:
        for a, _b, sentence in sentences(str(text or "")):
            if (m := find(sentence, fact, year=year)) is not None:
                yield from _clauses(sentence, m.start, m.end)
                heading = heading_over(str(text or ""), a + m.start)
                if heading:
                    yield heading


HEADED_ITEMS = 200  # list lines walked back over to find their heading: bounded work per item


def heading_over(text: str, at: int) -> str | None:
    """The line ending in a colon that the list item at ``at`` stands under, if it is one (within
    ``HEADED_ITEMS`` lines above it)."""
    end = at
    start = text.rfind("\n", 0, end) + 1
    if not _HEADED_LINE.match(text, start, end):
        return None
    for _ in range(HEADED_ITEMS):
        if start == 0:
            return None
        end = start - 1
        start = text.rfind("\n", 0, end) + 1
        line = text[start:end]
        if not line.strip():  # one blank line may stand between a heading and its list
            above = text[text.rfind("\n", 0, max(start - 1, 0)) + 1:max(start - 1, 0)] if start else ""
            return above if above.rstrip().endswith(":") and not _HEADED_LINE.match(above) else None
        if not _HEADED_LINE.match(line):
            return line if line.rstrip().endswith(":") else None
    return None


# a list item, or a row of a table written with bars ("| Chloe Kovac | 1 Dec | Tue 17 Nov, 15:00 |")
_HEADED_LINE = re.compile(r"\s*(?:[-*•·–]|\d{1,3}[.)])\s+|\s*\|")


# ---- hedges --------------------------------------------------------------------------------------------
# what joins two values of one kind into one hedged answer: "16 December, or 14 December", "14 December,
# correction, 16 December", "16 December (14 December by the other count)"
_HEDGE_GAP = re.compile(r"(?i)^[\s,;:\-–—]*(?:(?:or|either)(?:\s+(?:rather|maybe|possibly|perhaps|else))?|"
                        r"correction|corrected|sorry|i mean|i meant|make that|rather|perhaps|possibly|maybe)"
                        r"(?![\w-])[\s,;:\-–—]*(?:it'?s|it is|to)?\s*$")
_ALTERNATIVE_AFTER = re.compile(r"(?i)\s*(?:by|on|in|under|per|according to)\s+(?:the\s+|an?\s+)?(?:other|another|"
                                r"second|alternative|different|previous|earlier|old)\b|\s*(?:or so|at the latest|"
                                r"at the earliest|at most|at least|perhaps|possibly|maybe)\b")
_BETWEEN = re.compile(r"(?i)\bbetween\s*$")


def hedge_problems(text: str, expected: Iterable[Any], *, year: int | None,
                   directory: Directory | None = None) -> list[str]:
    """An expected fact joined to another value of its kind as one answer, with "or", a correction or a
    parenthesis that offers the other as a reading of its own, or a range that runs backwards ("between
    16 December and 14 December"): a hedge, however true the other value is of something in the office."""
    facts = _flat(expected)
    kinds = expected_kinds(facts, year=year, directory=directory) & {"number", "date", "time", "id", "phone", "org",
                                                                     "person"}
    if not kinds:
        return []
    wanted = [c for f in facts for c in _claims_of_fact(f, year=year, directory=directory) if c.kind in kinds]
    written = sorted(claims_in(text, year=year, kinds=kinds), key=lambda c: (c.start, c.end))
    out = []
    for a, b in zip(written, written[1:]):
        if a.kind != b.kind or b.start < a.end:
            continue
        a_ok, b_ok = (any(same_claim(c, w) for w in wanted) for c in (a, b))
        if a_ok == b_ok:
            continue
        gap = text[a.end:b.start]
        if "\n" in gap or len(gap) > 30:
            continue
        # a range where one value is wanted: an amount is one figure, whichever way the range runs; a
        # span of days may hold the wanted day, unless it runs backwards
        backwards = (_BETWEEN.search(text[max(0, a.start - 12):a.start]) and re.fullmatch(r"\s+and\s+", gap)
                     and isinstance(a.value, (int, float, date)) and type(a.value) is type(b.value)
                     and (b.value < a.value or a.kind == "number"))
        offered = re.fullmatch(r"\s*\(\s*", gap) and _ALTERNATIVE_AFTER.match(text, b.end)
        if _HEDGE_GAP.match(gap) or backwards or offered:
            out.append(f"hedges {show(a.text)} with {show(b.text)}: {show(text[max(0, a.start - 20):b.end + 25].strip(), 90)}")
    return out


# a decision refused, with the refused item right after it: "I can't approve 30-31 December", "we are
# unable to accept the return of SO-71834" (the date or item is what is refused, not denied)
_REFUSAL = re.compile(r"(?i)\b(?:can ?not|can't|can’t|unable to|won't be able to|will not be able to|not able to|"
                      r"won't|will not|couldn't|could not)\s+(?:\w+\s+){0,2}?(?:approve|accept|grant|allow|authori[sz]e|"
                      r"agree to|sign off|sign|refund|take back)\b[^.;:\n]{0,40}$")


def polarity_problems(text: str, expected: Iterable[Any], support_texts: list[str], *, year: int | None,
                      office: str = "") -> list[str]:
    """Expected facts stated only in a negated sentence, where the gold states them plainly. A negation
    of the fact in ``support_texts`` (the instruction, the gold's text) allows it; one in ``office`` only
    where it is about the same thing (a word of the agent's clause besides the fact): "Keiko joins on not
    16 November" is not supported by someone's withdrawn leave on 16 November."""
    out = []
    spans = sentences(text)
    plain: set[str] = set()
    negative: dict[str, list[str]] = {}
    for fact in _flat(expected):
        if negated(str(fact)):
            plain.add(str(fact))  # the fact is itself a negation ("not delivered"): its sentence is too
            continue
        around: list[str] = []
        refused: list[str] = []  # "I can't approve 30-31 December": what is refused, not a denial of the date
        found_all = _occurrences(text, fact, year)
        for found in found_all:  # one negated statement is enough: "opens 13 May" in
            here = [_without_asides(clause, text[found.start:found.end])  # the subject, "not 13 May" below
                    for s in spans if s[0] <= found.start < s[1] or s[0] < found.end <= s[1]
                    for clause in _clauses(s[2], found.start - s[0], found.end - s[0])]
            if here and all(negated(c) for c in here) and (not _is_name(fact) or negated(_words_before(text, found.start))):
                if _REFUSAL.search(text[max(0, found.start - 60):found.start]):
                    refused = refused or here
                    continue
                around = here
                break
        if not around and refused and len(found_all) == 1:
            around = refused  # the refusal is the only place the fact stands: it is not stated as a fact
        if not around:
            if found_all:
                plain.add(str(fact))
            continue
        negative[str(fact)] = around
    for fact in _flat(expected):
        around = negative.get(str(fact))
        if around is None:
            continue
        group = next((g for g in as_list(expected) if isinstance(g, (list, tuple)) and fact in _flat(g)), None)
        if group is not None and plain & {str(f) for f in _flat(group)}:
            continue  # one of a choice of wordings is stated plainly ("held ... not been delivered")
        if any(negated(c) or _EXCLUDED.search(c) or _REJECTED.search(c) for c in _clauses_stating(support_texts, fact, year)):
            continue  # the gold negates it too, or leaves it out: "I didn't include X" where it "left out X";
            # or refuses it: "EXP-1135 can't be paid" where the gold has to "reject EXP-1135"
        about = {w for c in around for w in content_words(_without(c, fact, year))} - content_words(str(fact)) - _NOT_ABOUT
        if about and office and any(negated(c) and about & content_words(c)
                                    for c in _clauses_stating(_lines_stating(_negated_lines(office), fact, year),
                                                              fact, year)):
            continue
        out.append(f"states {show(str(fact))} under a negation ({show(collapse(around[0]), 90)})")
    return out


_REJECTED = re.compile(r"(?i)\b(?:reject(?:s|ed|ing)?|declin(?:e|es|ed|ing)|refus(?:e|es|ed|ing)|turn(?:ed)? down)\b")


def _without_asides(clause: str, fact: str) -> str:
    """A clause without its parentheses that do not hold the fact: "(not any number given in the notice)"
    is a remark of its own, not a negation of the bank details beside it."""
    return re.sub(r"\([^()]*\)", lambda m: m.group(0) if fact in m.group(0) else " ", clause)


# ---- greetings -----------------------------------------------------------------------------------------
_GREETING = re.compile(r"^\s*(?:dear|hi|hello|hey|good (?:morning|afternoon|evening)|greetings|to)\b[ \t,]*"
                       r"(?:(?:mr|mrs|ms|miss|dr|prof)\.?\s+)?(?P<name>[A-Z][\w'’\-]*(?:[ \t]+[A-Z][\w'’\-]*)?)", re.I)
_GREETED = r"(?!and\b)[A-Z][\w'’\-]*(?:[ \t]+(?!and\b)[A-Z][\w'’\-]*)?"
# a greeting line of several names and nothing else: "Hi Joel and Mei,", "Dear Ana, Ben & Cy"
_GREETING_MANY = re.compile(r"^\s*(?:dear|hi|hello|hey|good (?:morning|afternoon|evening)|greetings|to)\b[ \t,]*"
                            rf"(?P<name>{_GREETED}(?:[ \t]*(?:,|&|\band\b)[ \t]*{_GREETED})+)[ \t]*[,!.:]?[ \t]*$", re.I)


# words that greet the recipients as a group ("Hi all"), never one person
GROUP_GREETINGS = {"all", "everyone", "everybody", "team", "folks", "both", "there", "colleagues", "guys", "y'all",
                     "sir", "madam", "sirs", "friends", "you"}


# ---- decisions ---------------------------------------------------------------------------------------
_DECISIONS = {"approved": "approved", "approve": "approved", "accepted": "approved", "rejected": "rejected",
              "reject": "rejected", "declined": "rejected", "decline": "rejected", "refused": "rejected",
              "partly": "partly", "partially": "partly", "part": "partly", "full": "full", "fully": "full",
              "hold": "hold", "paid": "paid", "unpaid": "unpaid"}


def _decisions(words: Iterable[str]) -> set[str]:
    return {_DECISIONS[w] for w in words if w in _DECISIONS}


# a decision word that states a nil amount decides nothing: "rejected (approved amount £0.00)", "rejected
# (nothing approved)"
_NIL_DECISION = re.compile(r"(?i)\b(?:approved|paid|refunded|reimbursed)(?:\s+(?:amount|total|sum))?\s*(?:of\s+|[:=]\s*)?"
                           r"[£$€]?\s?0(?:\.00)?(?![\d]|[.,]\d)|[£$€]\s?0(?:\.00)?\s+(?:approved|paid|refunded|reimbursed)\b|"
                           r"\b(?:nothing|none(?: of it)?|no part(?: of it)?|not a penny)\s+(?:is\s+|was\s+|has been\s+|being\s+)?"
                           r"(?:approved|paid|refunded|reimbursed)\b")


# a decision left to someone or to come decides nothing yet: "whose line manager Zoe Farah should approve it",
# "not mine to approve"
_OPEN_DECISION = re.compile(r"(?i)\b(?:should|must|will|would|can|could|may|might|shall|needs? to|has to|have to|"
                            r"ought to|to|asked to|able to)\s+(?:\w+\s+)?(?:approve|reject|decline|refuse|hold|pay|accept)\b")


def _decision_words(text: str, year: int | None) -> Iterator[tuple[Claim, str, set[str]]]:
    """Each identifier of ``text`` with its clause and the decisions said of it: the words of its clause
    between the identifiers around it ("X repeats Y; we put X on hold" holds X, not Y)."""
    ids = claims_in(text, year=year, kinds=("id",))
    for claim in ids:
        clause = _clause_of(claim, text)
        lo = max([c.end for c in ids if c.end <= claim.start], default=0)
        hi = min([c.start for c in ids if c.start >= claim.end], default=len(text))
        at = text.rfind(clause, 0, claim.start + len(clause))
        if at >= 0:
            lo, hi = max(lo, at), min(hi, at + len(clause))
        yield claim, clause, _decisions(content_words(_OPEN_DECISION.sub(" ", _NIL_DECISION.sub(" ", text[lo:hi]))))


def decided_items(texts: Iterable[str], year: int | None) -> dict[Any, set[str]]:
    """What the gold decides of each item it names by its identifier (approved, partly, on hold...;
    nothing for an item it names only: "it repeats your invoice BS-2608-0290")."""
    out: dict[Any, set[str]] = {}
    for text in texts:
        for claim, _clause, words in _decision_words(str(text or ""), year):
            out.setdefault(claim.value, set()).update(words)
    return out


def decision_problems(text: str, decided: dict[Any, set[str]], *, year: int | None) -> list[str]:
    """An item the gold decides somewhere ("I've partly approved EXP-1079") given another decision in
    this text ("Clara's EXP-1079 was approved in full as well"): a remark about another item may not
    change what the work decides of it. A negated clause is left to the polarity rules."""
    out = []
    vocabulary = set().union(*decided.values()) if decided else set()
    for claim, clause, words in _decision_words(text, year):
        said = decided.get(claim.value)
        if said is None or negated(clause):
            continue
        # an item the work names but decides nothing of takes none of the decisions it makes of others
        extra = words - said if said else words & vocabulary
        if "partly" not in said:  # "paid in full", "approved in full": the whole of what the work decides
            extra.discard("full")
        if extra:
            out.append(f"says {show(claim.text)} is {', '.join(sorted(extra))}, where the work decides it "
                       f"{', '.join(sorted(said)) or 'nothing of the kind'}")
    return out


_AS_OF = re.compile(r"(?i)\b(?:as (?:of|at|on)|counting (?:to|from)|up to)\s+(?:today,?\s+)?(?:\w+day,?\s+)?$")


def rebound_problems(text: str, support: Support, sources: list[tuple[Claim, set[str], int]], *,
                     year: int | None) -> list[str]:
    """An expected value given to another item than the one the work gives it to ("I've partly approved
    EXP-1079: £60.00" where the work writes "EXP-1080: £60.00"), when the office does not state the value
    of the item named: the value is right, what it is said of is not."""
    out = []
    facts = [f for fact in _flat(support.expected) for f in _claims_of_fact(fact, year=year, directory=None)
             if f.kind in ("number", "date")]
    if not facts:
        return out
    for claim in claims_in(text, year=year, kinds=("number", "date")):
        if not any(same_claim(claim, f) for f in facts):
            continue
        if claim.kind == "date" and _AS_OF.search(text, max(0, claim.start - 24), claim.start):
            continue  # "(194 days overdue as of 16 Nov)": the day counted to, not the item's
        ids = claims_in(_sentence_of(claim, text), year=year, kinds=("id",))
        named = {str(c.value) for c in ids}
        if not named:
            continue
        theirs: set[str] = set()
        for gold in support.texts:
            gold = str(gold or "")
            for g in claims_in(gold, year=year, kinds=("number", "date")):
                if same_claim(g, claim):
                    theirs |= {str(c.value) for c in claims_in(_sentence_of(g, gold), year=year, kinds=("id",))}
        if not theirs or named & theirs:
            continue
        stating = {u for v, _w, u in sources if same_claim(v, claim)}
        if any(u in stating and str(v.value) in named for v, _w, u in sources if v.kind == "id"):
            continue  # the office states it of the item named too
        out.append(f"gives {show(claim.text)} to {', '.join(sorted({c.text for c in ids}))}, where the work "
                   f"gives it to another item")
    return out


def greeting_problem(body: str, recipients: Iterable[str], directory: Directory | None,
                     copied: Iterable[str] = ()) -> str | None:
    """A message that greets a known person other than its recipients ("Dear Omar" to Dana); a greeting of
    several people that names one it is to may name those ``copied`` in too ("Hi Anton, Rafael and Aiko")."""
    if directory is None:
        return None
    first = next((line for line in str(body or "").splitlines() if line.strip()), "")
    m = _GREETING_MANY.match(first) or _GREETING.match(first)
    if not m:
        return None
    words = [w for w in re.split(r"[\s\-]+", m["name"]) if w]
    if words and words[0].casefold() in GROUP_GREETINGS:
        return None  # "Hi all", "Dear team" greet the recipients, not a list named "All Staff"
    addressed = {a.strip().lower() for a in recipients}
    theirs = set()
    for a in addressed:
        p = directory.people.get(a)
        local = a.partition("@")[0]
        theirs |= {x.casefold() for x in [p and p.first, p and p.last] if x} | {x for x in re.split(r"[._\-+]", local) if x}
    parts = re.split(r"\s*(?:,|&|\band\b)\s*", m["name"])
    if len(parts) >= 2 and any(w.casefold() in theirs for part in parts for w in re.split(r"[\s\-]+", part) if w):
        addressed |= {a.strip().lower() for a in copied}
        for a in addressed:
            p = directory.people.get(a)
            theirs |= {x.casefold() for x in [p and p.first, p and p.last] if x} | \
                {x for x in re.split(r"[._\-+]", a.partition("@")[0]) if x}
    # each person greeted ("Hi Joel and Mei") must be one of its recipients
    for part in parts:
        words = [w for w in re.split(r"[\s\-]+", part) if w]
        if len(words) == 2:
            # "Hi Teo Moreau" to Teo Fischer: a full name is that person's, whoever shares the first name
            first, last = (w.casefold() for w in words)
            mine = [directory.people.get(a) for a in addressed]
            if not any(p and (p.first or "").casefold() == first and (p.last or "").casefold() == last for p in mine):
                other = [p for p in directory.named(words[1]) if (p.first or "").casefold() == first
                         and (p.last or "").casefold() == last and p.address not in addressed]
                if other:
                    return f"greets {show(part)}, but the message goes to {', '.join(sorted(addressed))}"
        if not words or any(w.casefold() in theirs for w in words):
            continue
        if [p for w in words for p in directory.named(w) if p.address not in addressed]:
            return f"greets {show(part)}, but the message goes to {', '.join(sorted(addressed))}"
    return None


# ---- the one entry point -----------------------------------------------------------------------------
_RANK = re.compile(r"^([ \t]*)(\d{1,3})(?=\t)")


def _without_ranks(text: str) -> str:
    """``text`` with a table's numbering blanked out: rows (tab-separated lines) whose first cells count
    1, 2, 3... down the table are ranked, and the rank is layout, not a figure ("1 Alice 78 75")."""
    lines = text.split("\n")
    marks = [_RANK.match(line) for line in lines]
    out, k = list(lines), 0
    while k < len(lines):
        run = k
        while run < len(lines) and marks[run] and int(marks[run][2]) == run - k + 1:
            run += 1
        if run - k >= 2:
            for j in range(k, run):
                m = marks[j]
                out[j] = m[1] + " " * len(m[2]) + lines[j][m.end():]
            k = run
        else:
            k += 1
    return "\n".join(out)


def doubled(text: str) -> str | None:
    """The first line of a text that is one block of lines written over again (a memo's content written
    twice), when the block states a figure; None otherwise. Lines repeated within a varied text (the
    same slot on two days under their own headings) are not a doubled text."""
    lines = [collapse(line) for line in text.splitlines() if line.strip()]
    n = len(lines)
    for k in range(1, n // 2 + 1):
        if n % k == 0 and lines == lines[:k] * (n // k) and any(ch.isdigit() for line in lines[:k] for ch in line):
            return lines[0]
    return None


def known_ids(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The identifiers ``text`` (the office, the instruction, the gold) holds, and their prefixes: read
    without the other kinds (a lived-in office is a megabyte of text), so a file's name counts too."""
    values = frozenset(_id_value(m) for m in IDENTIFIER.finditer(text) if _is_identifier(m))
    return values, frozenset(_id_prefix(v) for v in values)


def _id_prefix(value: str) -> str:
    return re.match(r"[A-Za-z]*", value).group(0).upper()


_CELL = re.compile(r"\$?[A-Z]{1,3}\$?\d{1,7}")
_COMMON_IDS = re.compile(r"(?:ISO|EN|IEC|RFC|BS|IEEE|ANSI|DIN|FY|CY|Q|H|W|WK)\d+", re.I)


def invented_ids(text: str, known: tuple[frozenset[str], frozenset[str]], year: int | None) -> list[Claim]:
    """Identifiers that neither the office, the instruction nor the gold holds ("your agreement AGR-2041",
    "PO-9999"): an honest agent cites only references it has read, whatever the check of the place reads.
    A standard or a year ("ISO 9001", "FY2026") is common knowledge, unless the office uses its prefix."""
    values, prefixes = known
    return [c for c in claims_in(text, year=year, kinds=("id",)) if str(c.value) not in values
            and not _CELL.fullmatch(c.text)  # "H278": where the agent wrote it
            and (_id_prefix(str(c.value)) in prefixes or not _COMMON_IDS.fullmatch(str(c.value)))]


MAX_LINE = 2_000  # characters: a longer line of written text is read as lines of at most this many
MAX_CLAIMS = 1_000  # values one written text may state and still be read value by value (the suite's texts:
# 34 at most)


def bounded_lines(text: str) -> str:
    """``text`` with every line longer than ``MAX_LINE`` broken into lines of at most that many characters
    (at its last space past the middle of each piece, else anywhere): each value of a text is read
    against its line and sentence, and one line of 256 KB made that quadratic. Texts of shorter lines,
    all that people write, come back unchanged."""
    if len(text) <= MAX_LINE or max(map(len, text.split("\n"))) <= MAX_LINE:
        return text
    out = []
    for line in text.split("\n"):
        while len(line) > MAX_LINE:
            cut = line.rfind(" ", MAX_LINE // 2, MAX_LINE)
            if cut < 0:
                out.append(line[:MAX_LINE])
                line = line[MAX_LINE:]
            else:
                out.append(line[:cut])
                line = line[cut + 1:]
        out.append(line)
    return "\n".join(out)


# what, said after an item in its sentence, sets it aside ("CTR-2314 has already passed, so it is not
# included", "#5109 was resolved in a later update", "A182 is not yet due")
SET_ASIDE = re.compile(r"(?i)\b(?:not included|excluded|so (?:it|they) (?:is|are) out|(?:it's|they're) out|"
                        r"(?:after|outside|beyond|past) (?:the|our|that|this) (?:[\w-]+ ){0,2}(?:window|period|range|cut-?off)|left (?:it |them )?(?:out|off|alone)|leaving (?:it |them )?(?:out|off|alone)|(?:is|are|was|were) genuine|(?:was|were|been|is|are) (?:later |since |now |already )?(?:marked |set )?(?:as )?(?:resolved|closed|withdrawn|cancell?ed)|"
                        r"already (?:passed|expired|closed|resolved|paid|ended|over)|(?:has|have) (?:already )?passed|"
                        r"no longer|not (?:on|in) (?:the|this|my|our|your) (?:list|digest|report|summary|mail)|"
                        r"not (?:yet )?due|(?:is|are|was|were)(?: not|n't)|isn't|aren't|wasn't|weren't|"
                        r"out of scope|do(?:es)? not (?:need|qualify|count|apply)|do(?:es)?n't (?:need|qualify|count|apply)|"
                        r"(?:was|were|been) resolved|not a (?:duplicate|match)|(?:did|have|has|had)(?: both| all| each| also)? ordered|did order|ordered recently|"
                        r"(?:both|all|each|also) ordered (?:on|in|this|last|since|recently)|(?:are|is) (?:all )?(?:active|fine)|"
                        r"so (?:I have|I've|we have|we've) (?:left|not|skipped)|"
                        r"(?:stays?|staying|is|are|falls?|remains?|sits?) (?:just |still |well )?(?:under|below|within) "
                        r"(?:the |our |that )?(?:line|threshold|limit|cut-?off|cap|bar)|"
                        r"(?:close|near)(?: to it)?,? but (?:not|under|below|stays|does not|doesn't|isn't))\b")


_YEAR_BEFORE = re.compile(r"(?i)(?:\b(?:in|of|for|since|during|from|to|until|till|than|vs\.?|versus|and|or|year|fy|"
                          r"q[1-4]|h[12]|quarter|jan\w*|feb\w*|mar\w*|apr\w*|may|jun\w*|jul\w*|aug\w*|sep\w*|oct\w*|"
                          r"nov\w*|dec\w*)|[(,/–-])\s*$")


def a_year(claim: Claim, text: str, year: int | None) -> bool:
    """Whether a number is a year near the task's ("Q3 2025", "in 2025", "(2025)") rather than a figure
    ("sold 2025 units")."""
    if claim.kind != "number" or claim.currency or not re.fullmatch(r"(?:19|20)\d\d", claim.text.strip()):
        return False
    if year is not None and abs(float(claim.value) - year) > 10:
        return False
    after = re.match(r"\s*([A-Za-z]+)", text[claim.end:claim.end + 20])
    return _YEAR_BEFORE.search(text[max(0, claim.start - 12):claim.start]) is not None or \
        after is None or after.group(1).lower() in {"and", "or", "vs", "versus", "to", "compared", "was", "were", "is"}


_AT_HOUR = re.compile(r"(?i)\b(?:at|from|by|until|till)\s+$")
_NOT_HOUR = re.compile(r"(?i)\s*(?:[%£$€]|(?:days?|weeks?|months?|years?|per|of|percent|items?|invoices?|orders?)\b)")


def an_hour(claim: Claim, text: str, texts: Iterable[str], year: int | None) -> bool:
    """Whether a bare number is an hour ("the hour I've booked tomorrow at 9") that a time of the task's texts
    (its expected facts, the gold's writing) has: 9 for 09:00, 2 for 14:00."""
    if claim.kind != "number" or claim.currency or not float(claim.value).is_integer() or not 1 <= claim.value <= 23 \
            or not _AT_HOUR.search(text, max(0, claim.start - 8), claim.start) or _NOT_HOUR.match(text, claim.end):
        return False
    n = int(claim.value)
    hours = {c.value.hour for t in texts for c in claims_in(str(t or ""), year=year, kinds=("time",))
             if hasattr(c.value, "hour") and c.value.minute == 0}
    return n in hours or (n < 12 and n + 12 in hours)


_SECTION_WORD = re.compile(r"(?i)\b(?:section|clause|rule|paragraph|para|part|article|point|step|item|version)\s+$")


def section_of(claim: Claim, text: str, texts: Iterable[Any], units: list[tuple[Claim, set[str], int]]) -> bool:
    """Whether a number is a section of a source ("under section 2 of the travel policy"): a whole number written
    after "section", "rule" or the like, that a task text numbers a line with ("2. Hotels", "Section 2"), or that
    a line of the office states beside a word of the sentence ("2. Hotels. A night's hotel may cost …" for "a
    Hamburg hotel night")."""
    if claim.kind != "number" or claim.currency or not float(claim.value).is_integer() \
            or not _SECTION_WORD.search(text, max(0, claim.start - 12), claim.start):
        return False
    n = int(claim.value)
    numbered = re.compile(rf"(?im)^\s*(?:(?:section|clause|rule|part|article|version)\s+)?{n}(?:[.):]|\s+[A-Z])"
                          rf"|\b(?:section|clause|rule|part|article|version)\s+{n}\b")
    if any(numbered.search(str(t or "")) for t in texts):
        return True
    at = _sentence_at(text, claim.start)
    words = content_words(at[2] if at else text) - {"section", "clause", "rule", "paragraph", "part", "article", "policy"}
    return any(u.kind == "number" and not u.currency and float(u.value) == n and words & around for u, around, _i in units)


def _reference(claim: Claim, text: str) -> bool:
    """Whether a claim names an item: an identifier, or a number written as one ("#5110")."""
    return claim.kind == "id" or (claim.kind == "number" and "#" in text[max(0, claim.start - 1):claim.start + 1])


def set_aside(text: str, claim: Claim) -> bool:
    """Whether the sentence of ``text`` that states ``claim`` sets it aside after it ("Vantage Security
    (CTR-2314) ... has already passed; they are not on this list")."""
    return any(a <= claim.start < b and SET_ASIDE.search(sentence, claim.end - a) for a, b, sentence in sentences(text))


def closed_world_problems(text: str, support: Support, *, year: int | None, now: datetime | None,
                          directory: Directory | None, recipients: Iterable[str] | None = None,
                          sources: list[tuple[Claim, set[str], int]] | None = None, body: str | None = None,
                          names: str = "", decided: dict[Any, set[str]] | None = None,
                          known: tuple[frozenset[str], frozenset[str]] | None = None,
                          true_context: Callable[[Claim, str, bool], bool] | None = None,
                          greeted: Iterable[str] | None = None) -> list[str]:
    """Everything false or unsupported in a written ``text`` (see the module rules), as messages
    (``known``: the identifiers of the office, the instruction and the gold, ``known_ids``)."""
    text, body = bounded_lines(text), None if body is None else bounded_lines(body)
    stated = len(claims_in(text, year=year, kinds=VALUE_KINDS))
    if stated > MAX_CLAIMS:  # each value is read against its sentence and the office: bounded work per text
        return [f"states {stated:,} values (numbers, dates, times, identifiers...), more than the {MAX_CLAIMS:,} "
                "the grading reads one by one in one text, so none of them can be checked against the task"]
    problems = []
    strays = stray_claims(_without_ranks(text), support, year=year, now=now, directory=directory, sources=sources,
                          names=names, true_context=true_context)
    if known is not None:
        seen = {(c.kind, c.text) for c in strays}
        given = {str(c.value) for t in [*support.texts, *map(str, _flat(support.expected))]
                 for c in claims_in(str(t or ""), year=year, kinds=("id",))}
        strays += [c for c in invented_ids(text, known, year) if (c.kind, c.text) not in seen and str(c.value) not in given]
    strays = [c for c in strays if not (_reference(c, text) and set_aside(text, c))]  # named to say it is left out
    strays = [c for c in strays if not a_year(c, text, year)]  # "Q3 2025", "in 2025": when, not a figure
    strays = [c for c in strays if not section_of(c, text, support.texts, sources or [])]  # "section 5 of …"
    strays = [c for c in strays if not an_hour(c, text, [*support.texts, *map(str, _flat(support.expected))], year)]
    if strays:
        problems.append("also states " + ", ".join(f"{show(c.text)} ({c.kind})" for c in strays[:5])
                        + ", which neither the task nor its sources support")
    def day(conflict: str) -> str:
        return conflict.rpartition("(")[2]

    conflicts = weekday_conflicts(text, year)
    if conflicts:  # the sources are read only when the text has a conflict: a pair they write is theirs
        given = {day(w) for t in [*support.texts, names] for w in weekday_conflicts(str(t), year)}
        problems += [f"writes {w}: the weekday is wrong" for w in conflicts if day(w) not in given]
    problems += polarity_problems(text, support.expected, support.texts, year=year, office=names)  # as a source says it
    if not any(hedge_problems(str(t), support.expected, year=year, directory=directory) for t in support.texts):
        problems += hedge_problems(text, support.expected, year=year, directory=directory)
    problems += decision_problems(text, decided or {}, year=year)
    if sources is not None:
        problems += rebound_problems(text, support, sources, year=year)
    twice = doubled(body if body is not None else text)
    if twice and not any(doubled(str(t)) for t in support.texts):
        problems.append(f"says everything twice (from {show(twice, 60)} on)")
    if recipients is not None:
        # the greeting names whom the message is to (``greeted``), not someone only copied in
        greeting = greeting_problem(text if body is None else body, greeted or recipients, directory,
                                    copied=recipients or ())
        if greeting:
            problems.append(greeting)
    return problems


def calendar_claims(files: dict[str, dict], before: dict[str, dict] | None) -> list[Claim]:
    """Dates and times of the events the agent's office holds that the initial office does not: a mail
    may state the meeting the agent itself booked."""
    return [c for _about, c in calendar_events(files, before)]


def calendar_events(files: dict[str, dict], before: dict[str, dict] | None) -> list[tuple[str, Claim]]:
    """``calendar_claims``, each with the words of its event (title, description, attendees): what a
    statement must name for the event's date or time to be its own."""
    out = []
    for path, entry in files.items():
        if entry.get("kind") != "ics":
            continue
        old = {(e.get("summary"), e.get("start"), e.get("end")) for e in ((before or {}).get(path) or {}).get("events") or []}
        for e in entry.get("events") or []:
            if (e.get("summary"), e.get("start"), e.get("end")) in old:
                continue
            words = " ".join(str(w) for w in [e.get("summary") or "", e.get("description") or "",
                                               *(e.get("attendees") or [])])[:2_000]
            for key in ("start", "end"):
                value = str(e.get(key) or "")
                try:
                    moment = datetime.fromisoformat(value)
                except ValueError:
                    continue
                out.append((words, Claim("date", moment.date(), value)))
                if len(value) > 10:
                    out.append((words, Claim("time", time(moment.hour, moment.minute), value)))
    return out


# ---- reading a graded state ----------------------------------------------------------------------------
_SHARED: "OrderedDict[tuple, tuple[tuple, Any]]" = OrderedDict()
_SHARED_LOCK = threading.Lock()


def forget_task(*anchors: Any) -> None:
    """Drop the per-task values computed from these objects (a task's parsed offices that a worker lets
    go, server/grade.py): the values hold their anchors, so they would keep them alive."""
    gone = {id(a) for a in anchors if a is not None}
    with _SHARED_LOCK:
        for key in [k for k, (held, _v) in _SHARED.items() if any(id(a) in gone for a in held)]:
            del _SHARED[key]


def _per_task(name: str, anchors: tuple, compute: Callable[[], Any]) -> Any:
    """A value that depends only on a task's initial and gold offices (the same parsed objects for every
    episode of the task, server/grading.py), computed once for all its evaluations: in a lived-in office
    of a thousand files, reading every value of the office costs more than the rest of the grading."""
    key = (name, *map(id, anchors))
    with _SHARED_LOCK:
        hit = _SHARED.get(key)
        if hit is not None and all(a is b for a, b in zip(hit[0], anchors)):
            _SHARED.move_to_end(key)
            return hit[1]
    value = compute()
    with _SHARED_LOCK:
        _SHARED[key] = (anchors, value)  # the anchors are kept, so their ids cannot be reused meanwhile
        while len(_SHARED) > 64:
            _SHARED.popitem(last=False)
    return value


def _stored_sources(state: EvalState, before: dict[str, dict]) -> list[tuple[Claim, set[str], int]]:
    """Every value the initial office states (``office_sources``), from the machine's store of reference
    states when the state names its key: reading a lived-in office's thousand files costs ~11 s."""
    if not state.reference_key:
        return office_sources(before, state.year)
    from officesim.testbed import refstore

    return refstore.cached("sources", f"{state.reference_key}-{state.year}", lambda: office_sources(before, state.year))


def directory_of(state: EvalState) -> Directory:
    """The office's directory (initial office, gold's and the agent's), built once per state; the part of
    the initial and gold offices once per task."""
    if "directory" not in state.memo:
        before, gold = state.before or {}, state.gold or {}
        who = f"directory-{sorted((state.people or {}).items())}-{state.user}-{state.user_name}"
        base = _per_task(who, (before, gold),
                         lambda: build_directory([*before.values(), *gold.values()], state.people, state.user,
                                                 state.user_name))
        own = [e for p, e in state.files.items() if before.get(p) is not e and before.get(p) != e]
        if own:
            d = copy.deepcopy(base)
            add_files(d, own)
            state.memo["directory"] = d
        else:
            state.memo["directory"] = base
    return state.memo["directory"]


def mail_said(entry: dict) -> str:
    """What a message's sender wrote: its subject, then its own text (a quoted original left out)."""
    return f"{entry.get('subject') or ''}\n{own_text(entry.get('body') or '')}"


def gold_written(state: EvalState) -> list[str]:
    """Everything the gold solution wrote: the lines it added to files (a new message's own words) and
    its answer; the rest of a file it changed is the office's, not the gold's."""
    if "gold_written" not in state.memo:
        out = []
        for path, entry in (state.gold or {}).items():
            old = (state.before or {}).get(path)
            if state.before is not None and old == entry:
                continue
            out.append(mail_said(entry) if entry.get("kind") == "eml" else _added_lines(old, entry))
        if state.gold_answer:
            out.append(str(state.gold_answer))
        state.memo["gold_written"] = out
    return state.memo["gold_written"]


def gold_mail(state: EvalState, sender: str | None = None, to: Iterable[str] | None = None) -> list[str]:
    """The own words of the messages the gold sends (from ``sender``; to exactly ``to`` when some do),
    else everything the gold wrote."""
    sent = [e for p, e in (state.gold or {}).items()
            if e.get("kind") == "eml" and (state.before is None or state.before.get(p) != e)
            and (sender is None or str(e.get("mailbox") or "").lower() == sender.strip().lower())]
    if to is not None:
        wanted = {a.strip().lower() for a in to}
        same = [e for e in sent if {str(a).lower() for a in e.get("to") or []} == wanted]
        sent = same or sent
    return [mail_said(e) for e in sent] or gold_written(state)


def gold_file(state: EvalState, path: str) -> list[str]:
    """What the gold wrote in a file the agent wrote (the lines it added or changed), else everything the
    gold wrote."""
    entry = (state.gold or {}).get(path)
    return [_added_lines((state.before or {}).get(path), entry)] if entry is not None else gold_written(state)


def gold_kept(state: EvalState, path: str) -> list[str]:
    """The lines of a file the gold kept as the office had them: their values are the file's own, and
    may be restated in a line that is about the same thing (``context_value``)."""
    entry, old = (state.gold or {}).get(path), (state.before or {}).get(path)
    if entry is None or old is None:
        return []
    added = {collapse(line) for line in _added_lines(old, entry).splitlines()}
    return [line for line in document_text(entry).splitlines() if line.strip() and collapse(line) not in added]


def added_text(state: EvalState, path: str) -> str:
    """The lines of a file the agent added (all of a new file): what it wrote there, not what it kept."""
    return _added_lines((state.before or {}).get(path), state.files.get(path) or {})


def _added_lines(old: dict | None, entry: dict) -> str:
    text = document_text(entry)
    if old is None:
        return text
    kept = {}
    for line in document_text(old).splitlines():
        kept[collapse(line)] = kept.get(collapse(line), 0) + 1
    out = []
    for line in text.splitlines():
        key = collapse(line)
        if kept.get(key):
            kept[key] -= 1
            continue
        out.append(line)
    return "\n".join(out)


# The reader of true context (evaluators/truth.py registers it, so that this module imports nothing above
# it): for a state, whether a value written in a text is true of what its statement is about.
_TRUE_CONTEXT: list[Callable[[EvalState], Callable[[Claim, str, bool], bool] | None]] = []


def register_true_context(reader: Callable[[EvalState], Callable[[Claim, str, bool], bool] | None]) -> None:
    _TRUE_CONTEXT[:] = [reader]


def office_memo(state: EvalState) -> None:
    """Fill ``state.memo`` with what every written place of a state is read against, once per task: the
    office's values (``sources``), its text (``names``) and its identifiers (``known_ids``)."""
    if "sources" in state.memo:
        return
    before, gold = state.before or {}, state.gold or {}
    state.memo["sources"] = _per_task(f"sources-{state.year}", (before,), lambda: _stored_sources(state, before))
    key = f"{state.instruction}-{state.gold_answer}"
    office_text = _per_task(f"text-{key}", (before, gold), lambda: _stored(state, "text", lambda: "\n".join(
        [state.instruction, *(document_text(e) for e in before.values()), *gold_written(state)])))
    state.memo["names"] = _per_task(f"names-{key}", (before, gold), office_text.casefold)
    # a scanned picture's text is read only when a check names it: with such pictures, or no office
    # to read against, no identifier is taken for invented
    scans = state.before is None or (
        state.pictures_hold_ids and any(e.get("kind") == "image" for e in before.values()))
    state.memo["known_ids"] = None if scans else _per_task(
        f"ids-{key}", (before, gold),
        lambda: _stored(state, "ids", lambda: known_ids(f"{office_text}\n{state.gold_answer or ''}")))


def _stored(state: EvalState, kind: str, compute: Callable[[], Any]) -> Any:
    """A value of the task's office text, from the machine's store when the state names its initial office:
    named by that office (``reference_key``), the instruction, the gold's answer and what the gold wrote,
    which are all it is computed from (reading a lived-in office's text for identifiers costs ~1 s)."""
    if not state.reference_key:
        return compute()
    import hashlib

    from officesim.testbed import refstore

    parts = [state.instruction or "", str(state.gold_answer), *gold_written(state)]
    digest = hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]
    return refstore.cached(kind, f"{state.reference_key}-{digest}", compute)


def gold_recipients(state: EvalState) -> list[str]:
    """Whom the gold's new mail goes to: people the task involves, whom any text may name ("Lucia Nair
    covers Luca Weber" in an answer about the one absence left uncovered)."""
    if "gold_recipients" not in state.memo:
        before = state.before or {}
        state.memo["gold_recipients"] = sorted({str(a).lower() for p, e in (state.gold or {}).items()
                                                if e.get("kind") == "eml" and p not in before
                                                for a in [*(e.get("to") or []), *(e.get("cc") or [])]})
    return state.memo["gold_recipients"]


def written_problems(state: EvalState, text: str, expected: Any, *, counterpart: list[str],
                     recipients: Iterable[str] | None = None, body: str | None = None,
                     context: list[str] | None = None, greeted: Iterable[str] | None = None) -> list[str]:
    """What is false or unsupported in ``text`` the agent wrote, where ``expected`` are the facts it must
    state, ``counterpart`` what the gold wrote in the same place and ``context`` the lines of that place
    the gold kept (see the module rules)."""
    addresses = [a for a in [state.user, *(recipients or []), *gold_recipients(state)] if a]
    support = Support(expected=list(as_list(expected)), texts=[state.instruction, *counterpart],
                      addresses=addresses, claims=calendar_claims(state.files, state.before),
                      context=list(context or []))
    # what the gold writes anywhere is true of the outcome (the hours it books, the rate it applies)
    if "gold_sources" not in state.memo:
        state.memo["gold_sources"] = text_sources(gold_written(state), state.year)
        state.memo["gold_decided"] = decided_items(gold_written(state), state.year)
    support.elsewhere = state.memo["gold_sources"]
    office_memo(state)
    return closed_world_problems(text, support, year=state.year, now=state.now, directory=directory_of(state),
                                 recipients=recipients, sources=state.memo["sources"], body=body,
                                 names=state.memo["names"], decided=state.memo["gold_decided"],
                                 known=state.memo["known_ids"],
                                 true_context=_TRUE_CONTEXT[0](state) if _TRUE_CONTEXT else None,
                                 greeted=greeted)
