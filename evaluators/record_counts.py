"""Counts an agent states of the office's records and of its own work, against what those hold.

"They've placed 85 orders with us so far this year" is a count of the rows of the orders table that
name the customer the sentence is about, in this year: a number the records give. "We took 185 orders
in October" counts that table's rows of one month; "only three reviews could be booked" counts the
meetings the episode booked; "recorded 14 deliveries" the rows the episode changed. Each count is
compared with every count its sentence could mean (with and without each party it names, each period
it names, each date column), and is false only where none of them, no number the task gives and no
count of the gold's own work is it.

A count is read only where the sentence leaves no other condition unread: a word after the noun that is
not a period, a party, a verb of having or taking, or a filler ("three orders arrived late", "12
customers who ordered in October") leaves it unjudged. Pure functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Iterable

from officesim.evaluators.claims import Claim, claims_in
from officesim.evaluators.records import Records, fold, name_key
from officesim.evaluators.text import NOT_A_DAY, NUMBER_WORDS, number_of as _number

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_NUMBER = r"\d{1,4}|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
# a count, up to two words, then a plural noun: "85 orders", "four quarterly business reviews"
_COUNTED = re.compile(r"(?i)(?<![\w.,£$€/:#-])(?P<n>" + _NUMBER + r")" + NOT_A_DAY +
                      r"\s+(?P<between>(?:[a-z'’-]+\s+){0,3}?)(?P<noun>[a-z]{2,}(?<!s)(?<!u)(?<!i)s)\b(?![-'’]\w)")
# what makes the number a part, a rank or a selection rather than a count of everything the sentence names
_SELECTION = re.compile(r"(?i)\b(?:of|other|remaining|last|first|top|next|previous|another|further|extra|additional|"
                        r"more|those|these|each|every|per|about|around|roughly|nearly|almost|over|under|some|"
                        r"than|least|most|up to)\s+(?:the\s+)?$")
_SUBSET_WORD = re.compile(r"(?i)\b(?:overdue|unpaid|outstanding|open|late|pending|held|on hold|past due|disputed|"
                          r"duplicates?|flagged|cancell?ed|undelivered|not yet due)\b")
_CLAUSE_END = re.compile(r"[;,:(]|\.(?:\s|$)|\s[-–—]\s|\bbut\b|\bwhile\b|\bwhereas\b|\band\b")
_MEASURES = re.compile(r"(?i)^(?:days|weeks|months|years|hours|hrs|minutes|mins|nights|seconds|quarters|people|staff|"
                       r"times|percent|points|units|items|pieces|pcs|lines|rows|cells|columns|pages|words|files|"
                       r"attachments|steps|things|ones|others|parts)$")
# the words a sentence may add to a count of rows without naming another condition
_PLAIN = frozenset("""a an the we us our they them their you your i me my he she his her it its with from by for so far
this that year years month months total altogether in on at to of all across placed place places taken took take
takes had has have having made make makes received receive got get gets logged recorded listed raised issued sent
booked is are was were been be there overall far date year-to-date ytd calendar""".split())
# ... said just before the count: "the three reviews", "these 4", "all the 12 …"; not "The figures are based on
# all 421 supplier invoices"
_POINTS_BACK_END = re.compile(r"(?i)\b(?:that|this|these|those|it|which|such|the|its|their|our|your|his|her|both)"
                             r"(?:['’]s|\s+(?:is|are|was|were|makes?|gives?|leaves?|comes to|come to))?\s+"
                             r"(?:(?:other|remaining|first|last|same|only|whole|all)\s+)?$")
_LIST_FOLLOWS = re.compile(r"\s*(?:\(|:|[-–—]\s)")
# a count of what the text has just listed or named: "That is eight contracts in total", "the three reviews"
_POINTS_BACK = re.compile(r"(?i)\b(?:that|this|these|those|it|which|such|the|its|their|our|your|his|her|both)\b")
_NEGATED = re.compile(r"(?i)\b(?:not|no|never|none|couldn['’]t|could not|can['’]t|cannot|didn['’]t|did not|wasn['’]t|"
                      r"weren['’]t|unable|failed|without|except|apart from|besides|if|unless|would|should|will)\b")
_THIS_YEAR = re.compile(r"(?i)\b(?:this year|year to date|year-to-date|ytd|so far in (?P<y>20\d\d)|in (?P<y2>20\d\d))\b")
_MONTH = re.compile(r"(?i)\b(?P<m>" + "|".join(_MONTHS) + r")(?:\s+(?P<y>20\d\d))?\b")
_OPEN_PERIOD = re.compile(r"(?i)\b(?:since|from|after|before|until|till|between|within|last|past|previous|recent|"
                          r"recently|earlier|later|next|week|weeks|days|quarter|q[1-4])\b")
# the work a count may be of: rows the episode changed, meetings it booked
_ROW_VERB = re.compile(r"(?i)\b(?:record(?:ed|ing)?|updat(?:ed|ing)|mark(?:ed|ing)|logg(?:ed|ing)|enter(?:ed|ing)|"
                       r"fill(?:ed|ing) in|flagg(?:ed|ing)|set|add(?:ed|ing)|chang(?:ed|ing)|correct(?:ed|ing)|"
                       r"fix(?:ed|ing)|amend(?:ed|ing))\b")
_BOOK_VERB = re.compile(r"(?i)\b(?:book(?:ed|ing)?|schedul(?:ed|ing)|set up|arrang(?:ed|ing)|creat(?:ed|ing)|"
                        r"put in|sent (?:out )?invit\w*|in (?:the|your|my) (?:calendar|diary))\b")
_MEETINGS = re.compile(r"(?i)^(?:meetings|reviews|calls|sessions|interviews|intros|introductions|appointments|slots|"
                       r"catch-ups|check-ins|visits|demos|workshops|trainings|briefings|events|qbrs|invites|"
                       r"invitations|bookings|syncs|one-to-ones|1:1s|handovers|inductions|walkthroughs)$")
MAX_KEYS = 6


@dataclass(frozen=True)
class Work:
    """What the episode and the gold did that a count may be of."""

    rows_done: tuple[int, ...] = ()  # rows the episode changed, per workbook sheet it changed
    rows_gold: tuple[int, ...] = ()  # ... and the gold
    events: tuple[tuple[str, date], ...] = ()  # the meetings the episode booked: (title, day)
    gold_events: int = 0
    given: frozenset[int] = field(default_factory=frozenset)  # whole numbers the task's and the gold's texts state
    # (name, n): the rows the episode or the gold changed in one sheet that name a party n times ("Ashgrove
    # Electrical, 4 invoices" of the payment run it writes)
    named_rows: frozenset[tuple[str, int]] = field(default_factory=frozenset)


def stem(word: str) -> str:
    """A noun's singular, for matching "deliveries" with "delivery", "orders" with "orders_2026.xlsx"."""
    w = fold(word)
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("sses", "ches", "shes", "xes")):
        return w[:-2]
    return w[:-1] if w.endswith("s") and not w.endswith("ss") else w




def _tables(records: Records, noun: str) -> list[str]:
    """The tables whose file or sheet is named for what the noun counts ("orders" -> orders_2026.xlsx)."""
    found = records.__dict__.setdefault("_tables_named", {})
    if not found:  # each table's name words, once per records
        tables = {e.collection for e in records.entities if "#" in e.collection
                  and not e.collection.endswith(("#lines", "#mail"))}
        found[""] = [(c, {stem(w) for w in re.findall(r"[a-z]+", c.lower())}) for c in sorted(tables)]
    key = stem(noun)
    if key not in found:
        found[key] = [c for c, words in found[""] if key in words]
    return found[key]


def office_counts(records: Records, noun: str) -> set[int]:
    """Every count of the office's things a plural noun may give: the rows of a table named for it, and the
    distinct names under a column headed by it ("all fourteen suppliers": the Supplier column's names)."""
    found = records.__dict__.setdefault("_office_counts", {})
    key = stem(noun)
    if key not in found:
        counts = {len(_rows(records, t)) for t in _tables(records, noun)}
        names: dict[tuple[str, str], set[str]] = {}
        for e in records.entities:
            for label, name in e.names:
                words = label.lower().split()
                if words and stem(words[-1]) == key:
                    names.setdefault((e.collection, label), set()).add(name)
        found[key] = counts | {len(v) for v in names.values()}
    return found[key]


def counts_office_things(claim: Claim, text: str, records: Records) -> bool:
    """Whether a bare count is one of the office's counts of the things its noun names ("about 47% of the
    £1,171,211.67 invoiced by all fourteen suppliers this year"): true context, not a stray number."""
    m = _COUNTED.match(text, claim.start)
    if claim.kind != "number" or claim.currency or m is None or _MEASURES.match(m.group("noun")):
        return False
    return _number(m.group("n")) in office_counts(records, m.group("noun"))


def _rows(records: Records, table: str) -> list[int]:
    found = records.__dict__.setdefault("_rows_of", {})
    if table not in found:
        found[table] = [i for i, e in enumerate(records.entities) if e.collection == table]
    return found[table]


def _periods(text: str, year: int | None) -> list[tuple[int, int | None]]:
    """(year, month or None for the whole year) for each period the sentence names."""
    out: list[tuple[int, int | None]] = []
    for m in _MONTH.finditer(text):
        if m.group("m").lower() == "may" and not m.group("y"):
            continue  # "may" is a verb as often as a month
        y = int(m.group("y")) if m.group("y") else year
        if y:
            out.append((y, _MONTHS.index(m.group("m").lower()) + 1))
    for m in _THIS_YEAR.finditer(text):
        y = m.group("y") or m.group("y2")
        if y or year:
            out.append((int(y) if y else year, None))
    return out


def _in(d: date, period: tuple[int, int | None]) -> bool:
    return d.year == period[0] and (period[1] is None or d.month == period[1])


def row_counts(records: Records, table: str, keys: Iterable[str], periods: list[tuple[int, int | None]],
               days: Iterable[date] = (), whole: bool = True) -> set[int]:
    """Every count of the table's rows the sentence could mean: all of them (``whole``: where the sentence
    names no party itself) or those naming one of ``keys``, in each of ``periods`` or on each of ``days``
    by each of their date columns, or in none."""
    rows = _rows(records, table)
    groups = ([rows] if whole else []) + [[i for i in records.by_key.get(k, ()) if records.entities[i].collection == table] for k in keys]
    out: set[int] = set()
    for group in groups:
        if not group:
            continue
        out.add(len(group))
        labels = {label for i in group for label, c in records.entities[i].attributes if c.kind == "date"}
        for period in periods:
            for label in labels:
                out.add(sum(1 for i in group if any(lab == label and c.kind == "date" and isinstance(c.value, date)
                                                    and _in(c.value, period)
                                                    for lab, c in records.entities[i].attributes)))
            for day in days:
                out.add(sum(1 for i in group if any(lab == label and c.kind == "date" and c.value == day
                                                    for lab, c in records.entities[i].attributes)))
    return out


def _window(text: str, start: int) -> str:
    end = _CLAUSE_END.search(text, start)
    return text[start:end.start() if end else len(text)]


_WRITTEN_TO = re.compile(r"(?i)\b(?:sent|e-?mailed|mailed|wrote|written|notified|contacted|copied|chased|forwarded|"
                         r"replied|invited|letters?|reminders?)\b(?:\s+\w+){0,3}\s+(?:to|for)\s+(?:all\s+|the\s+|all the\s+)?$")
# "12 customers have had their letter": whom the episode wrote to, in the passive
_GOT_MAIL = re.compile(r"(?i)\s+(?:have|has|were|was)\s+(?:now\s+|all\s+|each\s+|already\s+|just\s+)*(?:had|received|got|"
                       r"been (?:sent|written to|mailed|e-?mailed|notified|told|contacted|invited))\b")
# the words that make a second count one of the set a first count gave: "20 invoices from 11 suppliers"
_OF_THAT_SET = re.compile(r"(?i)\b(?:from|across|over|between|for|by|to|with|among|of)\s+(?:just\s+|only\s+)?$")


def count_problems(text: str, records: Records, work: Work, year: int | None,
                   context: str = "", about: Iterable[str] = (), listed: bool = False) -> list[tuple[str, str]]:
    """(count as written, what the office or the episode gives instead) for each count of ``text`` that
    no count of its records or of the work is; ``context`` is the sentence a pronoun points back to,
    ``about`` the keys of what the statement is bound to; ``listed``: the text is an item of a list under a
    heading, whose counts break down the set the heading names ("- Umber Freight, 2 invoices, £16,388.15"
    under "This run, by supplier:"), not the tables' rows."""
    out: list[tuple[str, str]] = []
    ids = {c.value for c in claims_in(text, year=year, kinds=("id",))}
    seen: set[str] = set()
    for m in _COUNTED.finditer(text):
        noun_stem = stem(m.group("noun"))
        earlier = seen - {noun_stem}
        seen.add(noun_stem)
        if earlier and _OF_THAT_SET.search(text[max(0, m.start() - 12):m.start()]):
            continue  # "20 unpaid invoices due by 20 November, from 11 suppliers": the parties of those 20
        n, noun, between = m.group("n"), m.group("noun"), m.group("between").split()
        if n.isdigit() and (len(n) == 4 or n.startswith("0")):
            continue  # a year, or a code
        value = _number(n)
        if value in work.given or value == len(ids) or _MEASURES.match(noun) \
                or _SELECTION.search(text[max(0, m.start() - 20):m.start()]):
            continue
        if _LIST_FOLLOWS.match(text, m.end()) or text[:m.start()].rstrip().endswith("("):
            continue  # "three orders (SO-1, SO-2 and SO-3)": counts its list; "(15 orders)": of the clause before
        clause_start = max((c.end() for c in _CLAUSE_END.finditer(text, 0, m.start())), default=0)
        before, after = text[clause_start:m.start()], _window(text, m.end())
        if _NEGATED.search(before) or _NEGATED.search(after) or _POINTS_BACK_END.search(before) or re.match(r"\s+of\b", text[m.end():]):
            continue
        if _WRITTEN_TO.search(before) or _GOT_MAIL.match(text, m.end()):
            continue  # "Letters sent to 12 customers": whom the episode wrote to (actions.py counts those), not a table
        said = f"{m.group(0)}"
        if _MEETINGS.match(noun) and (_BOOK_VERB.search(before) or _BOOK_VERB.search(after)) and work.events:
            wrong = _booked_problem(value, noun, text, work, year)
            if wrong:
                out.append((said, wrong))
            continue
        if _ROW_VERB.search(before) and work.rows_done:
            counts = {*work.rows_done, sum(work.rows_done), *work.rows_gold, sum(work.rows_gold)}
            if value not in counts:
                out.append((said, f"counts {value} {noun}, but the episode changed "
                                  f"{' and '.join(str(k) for k in work.rows_done)} row(s) of the office's workbooks"))
            continue
        tables = _tables(records, noun) if not listed else []
        named_by = {w for t in tables for w in re.findall(r"[a-z]+", t.lower())}  # "supplier invoices" of supplier_invoices
        if not tables or between and not all(fold(w) in _PLAIN or fold(w) in named_by for w in between):
            continue
        if _SUBSET_WORD.search(text[text.rfind("\n", 0, m.start()) + 1:m.start()]):
            continue  # "Total overdue: £5,018.39 across 4 invoices": a part of the rows by their state, not a table's
        if value in work.rows_gold or (work.gold_events and value == work.gold_events):
            continue  # "Nine contracts in total": the set the task works on, as many as the gold's rows or meetings
        if any((name_key(k), value) in work.named_rows for k in records.keys_in(text) if not k.startswith("#")):
            continue  # "Ashgrove Electrical, 4 invoices": its rows in the set the task writes (the payment run)
        words = [fold(w) for w in re.findall(r"[A-Za-z][A-Za-z'’-]*", after)]
        own = [k for k in records.keys_in(text) if not k.startswith("#")]
        keys = [*own, *records.keys_in(context), *about]
        named = {w for k in keys for w in k.split()}
        if _OPEN_PERIOD.search(after) or any(w not in _PLAIN and w not in _MONTHS and w not in named for w in words):
            continue
        periods = _periods(after, year)
        days = [c.value for c in claims_in(text, year=year, kinds=("date",)) if isinstance(c.value, date)]
        keys = [k for k in dict.fromkeys(keys) if not k.startswith("#")][:MAX_KEYS]
        counts = set().union(*(row_counts(records, t, keys, periods, days, whole=not own) for t in tables))
        if counts and value not in counts:
            near = sorted(counts, key=lambda k: abs(k - value))[:3]
            out.append((said, f"counts {value} {noun}, but the office's {', '.join(tables)[:120]} "
                              f"hold {' or '.join(str(k) for k in near)} for what the sentence names"))
    return out


def _booked_problem(value: int, noun: str, text: str, work: Work, year: int | None) -> str | None:
    """A count of meetings booked against the meetings the episode booked (all, of the noun's kind, on a
    day the sentence names)."""
    key = stem(noun)
    counts = {len(work.events), work.gold_events, sum(1 for title, _d in work.events if key in title.lower())}
    days = {d for _t, d in work.events}
    for day in days:
        if str(day.day) in text:
            counts.add(sum(1 for _t, d in work.events if d == day))
    if value in counts:
        return None
    return f"counts {value} {noun} booked, but the episode booked {len(work.events)}"


def _new_rows(before: dict[str, dict], after: dict[str, dict], limit: int | None = None):
    """Per workbook sheet of ``after``: the rows ``before`` did not hold as they are (changed or added)."""
    for path, entry in after.items():
        old = before.get(path) or {}
        if entry.get("kind") != "xlsx" or old == entry:
            continue
        for sheet, rows in (entry.get("sheets") or {}).items():
            was = (old.get("sheets") or {}).get(sheet) or []
            yield [row for r, row in enumerate(rows[:limit]) if r >= len(was) or list(row) != list(was[r])]


def named_rows(before: dict[str, dict], after: dict[str, dict]) -> frozenset[tuple[str, int]]:
    """For each sheet of ``after`` whose rows ``before`` did not hold as they are: how many of those rows
    name each party (a text cell), as (name key, count)."""
    out: set[tuple[str, int]] = set()
    for rows in _new_rows(before, after, 5000):
        tally: dict[str, int] = {}
        for row in rows:
            for name in {name_key(c) for c in row if isinstance(c, str) and any(ch.isalpha() for ch in c)}:
                tally[name] = tally.get(name, 0) + 1
        out |= set(tally.items())
    return frozenset(out)


def changed_rows(before: dict[str, dict], after: dict[str, dict]) -> tuple[int, ...]:
    """How many rows each workbook sheet of ``after`` holds that ``before`` did not hold as they are (a row
    changed or added), for each sheet with any."""
    counts = (sum(1 for row in rows if any(c not in (None, "") for c in row)) for rows in _new_rows(before, after))
    return tuple(n for n in counts if n)


# "each at the standard £1,500", "£1,250 each", "each for GBP 1,250.00": one amount said of every row written
_EACH_AMOUNT = re.compile(r"(?i)\beach\s+(?:(?:at|of|for|is|was|worth|costing)\s+)?(?:(?:the|a|our)\s+)?(?:(?:standard|usual|"
                          r"same|normal|monthly|flat)\s+)?(?=(?:£|\$|€|GBP|EUR|USD))|(?<=\d)\s+each\b")


def each_amount_problems(text: str, before: dict[str, dict], after: dict[str, dict]) -> list[str]:
    """An amount said of each of the rows an outcome wrote ("I've added the missing recharges, each at the
    standard £1,500") where those rows (two or more in one sheet) all hold another one amount. Sheets whose new
    rows hold several amounts are not read."""
    amounts: set[float] = set()
    for rows in _new_rows(before, after, 5000):
        if len(rows) < 2:
            continue
        for j in range(max((len(r) for r in rows), default=0)):
            cells = [r[j] if j < len(r) else None for r in rows]
            if all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in cells) and \
                    any(not float(c).is_integer() or abs(c) >= 100 for c in cells) and len({abs(float(c)) for c in cells}) == 1:
                amounts.add(abs(float(cells[0])))
    if not amounts:
        return []
    out = []
    for m in _EACH_AMOUNT.finditer(text):
        near = text[m.end():m.end() + 20] if m.group(0).lower().startswith("each") else text[max(0, m.start() - 20):m.start()]
        said = [c for c in claims_in(near, year=None, kinds=("number",)) if c.currency]
        if not said:
            continue
        value = abs(float(said[-1].value if not m.group(0).lower().startswith("each") else said[0].value))
        if not any(abs(value - a) <= 0.005 for a in amounts):
            out.append(f"{' '.join(text[max(0, m.start() - 60):m.end() + 20].split())!r} gives each row written "
                       f"{value:,.2f}, but they hold {', '.join(f'{a:,.2f}' for a in sorted(amounts))}")
    return out
