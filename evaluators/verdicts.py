"""A verdict per value an agent wrote, against what the office's records say about what it is about.

Each statement (evaluators/statements.py) is bound to the entities it names (evaluators/records.py:
an identifier, an address or a name in it), else to those of the heading it stands under, else to
those of the mail's subject. Each value it states (an amount, a date, a time, an identifier, a phone,
an address) then gets a verdict:

- **true** when the task's scope supports it (an expected fact, the instruction, what the gold
  solution writes, today, the agent's own new events, the addressees), when it is an attribute of a
  bound entity in any ordinary form, or when it follows in one step from such values and the other
  values of the same text (a sum, a difference, days between two dates);
- **false** when it is another entity's value and no bound entity's ("IL-2609-0309 was paid on 3 Sep"
  where 3 Sep is the date of another ledger row only), when the words before it name one attribute of
  the entity and it is another's ("ordered on" the delivery date), when it is an amount or a past date
  about a bound entity that no record, no scope and no arithmetic gives, or when it names an
  identifier the office does not have;
- otherwise not judged. A statement with a value that is neither true nor bound is **unread**: the
  record counts it, so what is not graded is visible.

A count with a list under it ("Three invoices are still open:" over four items) is compared with the
items it heads, in digits or words. Everything here is a pure function of its arguments.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache
from datetime import date, datetime, timedelta
from typing import Any, Callable, Iterable

from officesim.evaluators.claims import (MAX_CLAIMS, multiples_of, multiple_phrases, SET_ASIDE, Claim, _sentence_at, bounded_lines, claims_in, column_totals,
                                         same_claim, scaled_by_words)
from itertools import combinations

from dateutil.relativedelta import relativedelta

from officesim.evaluators.derived import Operand, days_between, one_step, tolerance, total_of
from officesim.evaluators.facts import dates_in
from officesim.evaluators.records import (ANCHOR_COLUMN, GENERIC, Change, fold, fold_words, Entity, Records, id_key, label_words, name_key,
                                          month_totals, shown, table_totals)
from officesim.evaluators.record_counts import MAX_KEYS, Work, count_problems
from officesim.evaluators.roles import role_problems
from officesim.evaluators.statements import Statement, cut, items_under, span_gap, table_under
from officesim.evaluators.text import NOT_A_DAY, NUMBER_WORDS, number_of as _number

READ_KINDS = ("number", "date", "time", "id", "phone", "email")
MAX_OPERANDS = 60
MEASURE = _MEASURE = re.compile(r"\s*(?:%|per ?cent|days?|weeks?|months?|years?|hours?|hrs?|minutes?|mins?|nights?|"
                      r"working|business|calendar|items?|units?|pcs|people|staff|times)\b", re.I)
_CLAUSE = re.compile(r"[;,]\s|\band\b|\bbut\b|\(|\)")
_PLAN = re.compile(r"(?i)\b(?:will|shall|by|until|till|before|next|plan|planned|propose|proposed|suggest|deadline|"
                   r"follow[- ]up|remind|reminder|if|unless|should|could|would|please)\b")
_BOUNDARY = re.compile(r"(?i)\b(?:since|from|until|till|after|before|between|as of|through|up to|starting|ending|"
                       r"and)\s+(?:the\s+)?(?:[A-Za-z]+,?\s+)?$")
_SPAN = re.compile(r"(?i)\b(?:next|last|past|within|over|in|for|every|per|each|after|before)\s*$")
# "taking over three of Aiko's customers": over is the verb's, no bound
_HANDED_OVER = re.compile(r"(?i)\b(?:tak(?:e|es|ing|en)|took|hand(?:s|ed|ing)?|mov(?:e|es|ed|ing)|pass(?:es|ed|ing)?|"
                          r"c[oa]m(?:e|es|ing)|go(?:es|ing)?|went|gone|turn(?:s|ed|ing)?|sign(?:s|ed|ing)?)\s+over\s*$")
_COUNT = re.compile(r"(?i)(?<![\w.,£$€])(\d{1,3}|" + "|".join(NUMBER_WORDS) +
                    r")" + NOT_A_DAY + r"\s+(?:[a-z'’-]+\s+){0,3}?([a-z]{3,}s)\b")


@dataclass(frozen=True)
class Verdict:
    """One value's verdict: the statement, the value as written, and what the office says."""

    statement: str
    value: str
    kind: str
    verdict: str  # "true" or "false"
    why: str  # for false: what the office says instead

    def message(self) -> str:
        return f"{_quote(self.statement)}: {self.value!s} {self.why}"


@dataclass
class Scope:
    """What any written text of the task may state whatever it is about (see the module rules)."""

    claims: list[Claim] = field(default_factory=list)  # given: the instruction, today, addressees
    # the agent's own new events' dates and times, each with its words: true of what the event names
    events: list[tuple[str, Claim]] = field(default_factory=list)
    written: list[Claim] = field(default_factory=list)  # what the gold writes: true unless about another item
    about: list[tuple[frozenset[int], Claim]] = field(default_factory=list)  # ... with the entities it is about
    now: datetime | None = None
    year: int | None = None
    known: tuple[frozenset[str], frozenset[str]] | None = None  # claims.known_ids; None: ids not read
    texts: tuple[str, ...] = ()  # the instruction's and the gold's own words
    changed: dict[str, list[Change]] = field(default_factory=dict)  # records.changed_cells of the gold
    done: dict[str, list[Change]] = field(default_factory=dict)  # ... and of the episode
    roles: dict[str, frozenset[str]] = field(default_factory=dict)  # roles.given_roles of the gold and the episode
    work: Work = field(default_factory=Work)  # what the episode and the gold did that a count may be of
    # whether a line of the office or the task states a limit with the words a text gives it ("£60.00 daily meals
    # limit" and the policy's "Meals: £60.00 per day"); None where no office is read
    stated_limit: Callable[[Claim, str], bool] | None = None


@dataclass
class Reading:
    """The verdicts on one written text, and its statements that could not be read."""

    statements: int = 0
    verdicts: list[Verdict] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)

    @property
    def false(self) -> list[Verdict]:
        return [v for v in self.verdicts if v.verdict == "false"]


def _quote(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[:limit - 1] + "…")


def _money(c: Claim) -> bool:
    if c.kind != "number":
        return False
    return bool(c.currency) or re.search(r"\d[.,]\d\d$", c.text.strip()) is not None or "," in c.text


def _plain_count(c: Claim, text: str) -> bool:
    """A bare small whole number (a count, a rank, a year): not an amount a record gives."""
    if c.kind != "number" or _money(c):
        return False
    v = float(c.value)
    return v.is_integer() and (abs(v) < 1000 or 1900 <= v <= 2100)


class Binder:
    """Binds statements to the entities of the records they name."""

    def __init__(self, records: Records, neutral: Iterable[str] = ()):
        self.records = records
        self.neutral = {n.lower() for n in neutral}

    def bind(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        """The entities ``text`` is about and where their keys stand: its identifiers' entities when it
        names some, else those of the names and addresses it writes (the addressees and the user
        excepted: "Hi Anton" is not about Anton)."""
        found = self.records.keys_in(text)
        ids = {k: span for k, span in found.items() if k.startswith("#")}
        chosen = ids or {k: span for k, span in found.items() if k not in self.neutral}
        entities: list[int] = []
        for key in chosen:  # a key of many rows (a customer of 100 orders) is about its rows of the tables
            entities += self.records.named(key) or self.records.masters(key)  # that list it once
        if not ids:  # a mail met by its subject's words, from another party than the one the text names
            entities = [i for i in entities if not self._other_party(i, found)]
        return sorted(set(entities)), list(found.values())

    def _other_party(self, i: int, found: dict[str, tuple[int, int]]) -> bool:
        e = self.records.entities[i]
        if e.collection != "mail" or not e.names:
            return False
        return e.names[0][1] not in found and any(k in self.records.senders for k in found)


    def rival_names(self, text: str) -> list[tuple[str, str, list[str]]]:
        """Names a statement gives to the items it names that belong to other items of the same table:
        to what its identifiers name ("IL-2606-0199 from Kestrel Paper Co." where IL-2606-0199 is another
        supplier's invoice; "PO-4793 (Zephyr Couriers)" where the order's Supplier is Ironvale Logistics,
        however many rows name Zephyr), else to the one row a person's or a party's name names ("Teo Sato
        (Warehouse Lead)" where his Job title is Logistics Coordinator): (the name as written, the item it
        is not about, the anchors as written)."""
        records = self.records
        found = records.keys_in(text)
        anchors = [k for k in found if k.startswith("#")]
        by_id = bool(anchors)
        if by_id:
            items = {i for k in anchors for i in (records.named(k) or records.masters(k))}
        else:  # names of one row each under a column of names ("Name", "Supplier")
            items = set()
            for k in found:
                if "@" in k or k in self.neutral:
                    continue
                rows = [i for i in records.by_key.get(k, ())[:GENERIC] if records.entities[i].names]
                rows = [i for i in rows if any(own == k and _ANCHOR_COLUMN.search(label)
                                               for label, own in records.entities[i].names)]
                if rows and len(rows) <= 3:
                    anchors.append(k)
                    items |= set(rows)
        if not items:
            return []
        collections = {records.entities[i].collection for i in items}
        keys = set().union(*[records.entities[i].keys for i in items])
        out = []
        named_at = [span for k, span in found.items() if not k.startswith("#") and "@" not in k and k not in self.neutral]
        id_at = [found[k] for k in anchors if k.startswith("#")]
        for key, (start, end) in found.items():
            if key.startswith("#") or "@" in key or key in self.neutral or key in keys:
                continue
            if by_id and not any((_nearest_to(anchor, (start, end), named_at) or _bracketed_after(text, anchor, start))
                                 and not _LIST_BREAK.search(text[min(anchor[1], end):max(anchor[0], start)])
                                 for anchor in id_at):
                continue  # a name nearer another name than the identifier is another item's, listed beside it
            rival = None
            if by_id:
                others = records.named(key)
                if others and any(records.entities[o].collection in collections for o in others):
                    rival = min(items)
            if rival is None and not self._person(key):  # a person stands in many columns (owner, manager)
                for i in sorted(items):
                    if any(own != key and label in records.name_labels.get((records.entities[i].collection, key), ())
                           for label, own in records.entities[i].names):
                        rival = i  # the row whose column names another
                        break
            if rival is not None and not by_id and any(records.entities[m].collection in collections
                                                       for m in records.masters(key)):
                rival = None  # another party of the same list, named beside it ("Gull Point and Upland Outdoor")
            if rival is not None and (_DENIED.search(text[max(0, start - 40):start])
                                      or _DENIED_AFTER.match(text[end:end + 40])):
                # "SO-72664 is not Heron Bay Resorts' order", "| Heron Bay | SO-72664 | Not their order"; a
                # denial further on is of something else ("one of Umber Freight's invoices rather than yours")
                rival = None
            if rival is not None:
                out.append((text[start:end], records.entities[rival].name,
                            [text[a:b] for k, (a, b) in found.items() if k in anchors]))
        return out

    def _person(self, key: str) -> bool:
        return any(self.records.entities[i].collection == "person" for i in self.records.by_key.get(key, ())[:GENERIC])


_LIST_BREAK = re.compile(r"(?i);|\)\s*,?\s*(?:and|or)\b|,\s+(?:and|or)\b")  # "…SO-71029'), and Nettle Cross"


def _bracketed_after(text: str, anchor: tuple[int, int], start: int) -> bool:
    """Whether a name stands in the bracket that follows the identifier's own words: "- CTR-2468 Kite Field
    Sports (Asha Rahman): ..." gives the contract its owner, not another item listed beside it."""
    if start <= anchor[1] or start - anchor[1] > 60 or not text[max(0, start - 2):start].strip() == "(":
        return False
    between = text[anchor[1]:start - 1]
    return not re.search(r"[(),;:]|\band\b|\bor\b", between)


def _nearest_to(anchor: tuple[int, int], span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    """Whether ``span`` is the name nearest the identifier at ``anchor`` ("IL-2606-0199 from Kestrel Paper
    Co."), not one of several items listed beside it ("Teasel Vets (24 Sep) and Dovetail Joinery (SO-71029)")."""
    def gap(s: tuple[int, int]) -> int:
        return max(s[0] - anchor[1], anchor[0] - s[1], 0)
    return all(gap(span) <= gap(other) for other in spans if other != span)


_DENIED = re.compile(r"(?i)\b(?:not|never|no longer|rather than|instead of|neither|nor)\b|n't\b")
# a denial right after a name, before its clause ends: "Heron Bay | SO-72664 | Not their order", "Zephyr isn't"
_DENIED_AFTER = re.compile(r"(?i)[^.;,!?\n]{0,25}?(?:\b(?:not|never|no longer|neither|nor)\b|n't\b)")
_ANCHOR_COLUMN = ANCHOR_COLUMN


def _said_together(name: str, ids: list[str], texts: Iterable[str]) -> bool:
    """Whether the task's own words put ``name`` on a line with one of ``ids``."""
    name = name.casefold()
    return any(name in line.casefold() and any(i.casefold() in line.casefold() for i in ids)
               for t in texts for line in t.splitlines())


def read(text: str, records: Records, scope: Scope, *, subject: str = "",
         neutral: Iterable[str] = (), addressee: str = "") -> Reading:
    """The verdicts on every value of ``text`` (see the module rules); a statement that speaks to
    ``addressee`` ("your six-month date is 25 November") and names nothing else is about them."""
    binder = Binder(records, neutral)
    home = next((n.partition("@")[2].rpartition(".")[0] for n in neutral if "@" in n), "")  # the user's comes first
    text = bounded_lines(text)  # each statement is read against its line: no line of 256 KB
    statements = cut(text)
    reading = Reading(statements=len(statements))
    values = 0
    about_subject = binder.bind(subject)[0] if subject else []
    you = addressed(records, addressee) if addressee else []
    bound: list[list[int]] = []
    owned: list[list[int]] = []  # what each statement names itself, or points back to
    all_numbers = [c for c in claims_in(text, year=scope.year, kinds=("number",)) if not _plain_count(c, text)]
    all_dates = [c.value for c in claims_in(text, year=scope.year, kinds=("date",)) if isinstance(c.value, date)]
    columns = column_totals(text, scope.year)
    sole = sole_item(text, records)
    short = short_names(text, records)
    for i, st in enumerate(statements):
        if values > MAX_CLAIMS:  # past what any person writes: the rest is left unread, in linear time
            reading.unread += [s.text[:200] for s in statements[i:]]
            break
        under_items = items_under(statements, i) if st.form == "heading" else []
        own, spans = binder.bind(st.text)
        if not own and any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", st.text) for w in short):
            # "Idris is copied here" after "Idris Berg, one of our Regional Sales Managers, …": Idris Berg
            own = binder.bind(full_names(st.text, short))[0]
        pointed = [] if own else _pointed_back(st, statements, i, owned)
        entities = own or (you if _YOU.search(st.text) else []) \
            or (bound[st.head] if st.head is not None and st.head < len(bound) else []) or pointed or about_subject
        bound.append(entities)
        owned.append(own or pointed)
        unread = False
        readings: dict[tuple[int, int], list[Claim]] = {}
        for c in _values(st, spans, scope.year):  # "01/10/2026" is read both ways: true if one reading is
            readings.setdefault((c.start, c.end), []).append(c)
        values += len(readings)
        listed = _listed_items(st, statements, i, owned) if not (own or pointed) else []
        summed = _listed_items(st, statements, i, owned, _TOTAL_OF_LISTED, records) if not (own or listed) else []
        if not summed and st.form == "heading" and _TOTAL_OF_LISTED.search(st.text):
            # "These eight customers got no letter; between them the agreements are worth £495,500 a year:"
            # over the items below it, each named by its own identifier
            below = [_owners(records, binder.bind(it.text)[0], it.text, strict=True)
                     for it in items_under(statements, i)[:LINES_UNDER]]
            summed = below if len(below) >= 2 and all(below) else []
        if summed:  # "Together that is GBP 4,500." under four ledger lines of -1,250: their sum
            written = _sum_written_above(statements, i, scope.year)
            for place, same_words in list(readings.items()):
                if any(c.kind == "number" and _money(c) and abs(abs(float(c.value)) - w) <= 0.011
                       for c in same_words for w in written):
                    # the sum of the amounts the items above give, each of which is read against its own row
                    del readings[place]
                    continue
                wrong = _not_their_sum(same_words, st, summed, records)
                if wrong is not None:
                    reading.verdicts.append(wrong)
                    break
                if _is_their_sum(same_words, summed, records):
                    del readings[place]  # the sum itself: true, whatever the line it points back to says
        if listed:  # "Each one is a standard recharge of GBP 1,500." under four ledger lines: said of each
            for same_words in readings.values():
                wrong = _not_of_each(same_words, st, listed, records, scope, all_numbers, all_dates, columns, sole)
                if wrong is not None:
                    reading.verdicts.append(wrong)
            readings = {}
        for same_words in readings.values():
            verdicts = [_judge(c, st, entities, records, scope, all_numbers, all_dates,
                               _antecedent(statements, i), columns, sole, person=bool(you) and entities is you)
                        for c in same_words]
            if st.form == "heading" and not any(v is not None and v.verdict == "true" for v in verdicts):
                # "you now also have Aiko's North customer:" over "- Sorrel Bay Cafes …": said of what it heads
                under = [e for it in under_items[:LINES_UNDER] for e in binder.bind(it.text)[0]]
                again = [_judge(c, st, under, records, scope, all_numbers, all_dates, _antecedent(statements, i),
                                columns, sole) for c in same_words] if under else []
                verdicts = [v for v in again if v is not None and v.verdict == "true"][:1] or verdicts
            if any(v is not None and v.verdict == "true" for v in verdicts):
                reading.verdicts.append(next(v for v in verdicts if v is not None and v.verdict == "true"))
                continue
            if any(v is None for v in verdicts):
                unread = True  # bound or not, a value no reading decides is not graded: say so
                continue
            reading.verdicts.append(verdicts[0])
        if unread:
            reading.unread.append(st.text)
        reading.verdicts += days_problems(st, entities, records, scope, all_dates)
        reading.verdicts += weeks_left_problems(st, scope)
        # "It has three contracts, all of them with suppliers:" over three items: the count of the list it heads
        heads = len(under_items)
        reading.verdicts += [Verdict(st.text, said, "count", "false", why) for said, why in count_problems(
            st.text, records, scope.work, scope.year, statements[i - 1].text if i else "",
            [*(name_key(full) for word, full in short.items() if word in st.text),
             *(k for e in entities[:GENERIC] for k in records.entities[e].keys if not k.startswith("#"))][:MAX_KEYS],
            listed=st.form == "item" and st.head is not None) if not (heads and _leading_number(said) == heads)]
        reading.verdicts += span_count_problems(st, scope.year)
        reading.verdicts += bracket_range_problems(st, records, scope.year)
        reading.verdicts += quantity_problems(st, records)
        reading.verdicts += product_problems(st, records)
        reading.verdicts += affiliation_problems(st, records, home)
        reading.verdicts += first_day_problems(st, entities, records, scope.year)
        if own:
            reading.verdicts += not_yet_problems(st, own, records)
        reading.verdicts += span_date_problems(st, records, scope.year, scope.now.date() if scope.now else None)
        reading.verdicts += range_end_problems(st, entities, records, scope.year)
        reading.verdicts += changed_value_problems(st, records, scope)
        reading.verdicts += shift_problems(st, records, scope)
        # only what the statement names itself: a category said under a heading may be the heading's
        reading.verdicts += category_problems(st, own, spans, records, scope)
        if not own and st.form in ("sentence", "label"):
            reading.verdicts += listed_category_problems(statements, i, records)
        reading.verdicts += flag_problems(st, own or pointed, records)  # "As it renews automatically, …"
        fixed = _FIXED_TERM.search(st.text) if st.form == "heading" else None
        if fixed and not _FLAG_DENIED.search(st.text[:fixed.start()]):
            # "Beacon Hill Schools - ends 31 August 2027" under "Customers on fixed-term agreements (no letter):"
            for under in _lines_under(text, statements, i):
                # the rows of what the line names that hold a yes or no (a party's contract): all of them yes
                rows = sorted({j for k in records.keys_in(under.text) for j in records.by_key.get(k, ())[:FLAG_ROWS]
                               if records.entities[j].flags})[:ALIGNED_ENTITIES]
                if rows and all(v for j in rows for _l, v in records.entities[j].flags):
                    reading.verdicts += flag_problems(
                        Statement(under.start, under.end, f"{under.text}; fixed-term", under.form, i), rows, records)
        if not (own or pointed):  # "None of the nine renews automatically." under the nine: said of each
            over = _listed_items(st, statements, i, owned, _OVER_LISTED)
            if over:
                reading.verdicts += flag_problems(st, [k for items in over for k in items], records)
        reading.verdicts += party_mail_day_problems(st, records, scope.year)
        reading.verdicts += party_never_problems(st, records)
        reading.verdicts += their_person_problems(st, [*entities, *(bound[i - 1] if i else [])], records)
        reading.verdicts += your_item_problems(st, addressee, records)
        if own:
            reading.verdicts += relative_day_problems(st, own, records, scope)
            reading.verdicts += comparison_problems(st, own, records, scope)
            reading.verdicts += state_problems(st, own, spans, records, scope)
            reading.verdicts += measure_problems(st, own, records, scope)
        elif you and _YOUR.search(st.text):
            # "As your leave on 19-20 October has been approved": the reader's own rows, but those the task or
            # the episode changes (the leave it approves), which the workbook's checks read
            # (state_problems leaves out the rows whose state the task or the episode sets)
            reading.verdicts += state_problems(st, list(you), spans, records, scope)
        rivals = [Verdict(st.text, name, "name", "false", f"is not who or what {item} names")
                  for name, item, ids in binder.rival_names(st.text) if not _said_together(name, ids, scope.texts)]
        reading.verdicts += rivals
        reading.verdicts += [Verdict(st.text, role, "role", "false", f"is not {person}'s role: the office gives {held}")
                             for role, person, held in role_problems(st.text, records, scope.roles,
                                                                     [records.entities[k] for k in
                                                                      [*entities, *(bound[i - 1] if i else []),
                                                                       *about_subject][:GENERIC * 3]])
                             if role not in {v.value for v in rivals}]
        if st.form == "heading":
            wrong = _count_problem(st, statements, i)
            if wrong:
                reading.verdicts.append(wrong)
    reading.verdicts += listed_counts(text, scope.year)
    reading.verdicts += odd_item_problems(text, statements, records)
    reading.verdicts += _shares(text, statements, binder, records, scope)
    reading.verdicts += times_problems(text, scope.year)
    reading.verdicts += rule_multiple_problems(text, records, scope)
    reading.verdicts += bracketed_amount_problems(text, records)
    reading.verdicts += _invented(text, records, scope)
    reading.verdicts += _hedges(text, scope.year)
    reading.verdicts += prose_hedges(statements)
    return reading


# words that leave what a sentence states open: "probably approved", "might or might not be approved",
# "I think I've recorded most", "a few may have slipped through", "I'm not sure about Teo's"
_UNSURE = re.compile(r"(?i)\b(?:probably|possibly|perhaps|maybe|presumably|not (?:sure|certain)|unsure|uncertain|"
                     r"might or might not|may or may not|(?:may|might) have (?:missed|slipped|overlooked|skipped)|"
                     r"(?:may|might) (?:well |already |even )*have (?:already )?(?:been )?(?!to\b)[a-z]+|(?:wasn't|weren't|isn't|"
                     r"am not|'m not|not entirely|not quite) (?:sure|certain)|could be [\w.£$€-]+ or [\w.£$€-]+|"
                     r"worth (?:double-?)?checking(?! with\b)|unclear (?:whether|if)|(?:it is|it's) (?:not clear|unclear)|(?:could|can)(?:n't| ?not) tell|"
                     r"hard to (?:say|tell)|(?:might|may) (?:still|really|actually) (?:be|fit|free|work|have)|"
                     r"may not be able to|pencil+ed in|provisional(?:ly)?|tentative(?:ly)?|(?:may|might) have to (?:move|change|shift)|"
                     r"not (?:completely|fully|totally|entirely|100%) (?:sure|certain)|(?:have|has|had) not (?:yet )?decided|"
                     r"haven't (?:yet )?decided|(?:may|might) belong|"
                     # "our list prices may rise by around 4% …, subject to final board approval"
                     r"subject to (?:(?:final|formal|board|management|their|his|her|the)\s+){0,3}(?:approval|sign-?off|confirmation)|"
                     r"(?:may|might) (?:have )?slip(?:ped)? through|I (?:think|believe|guess|suppose) (?=I|we|it|they|"
                     r"the|these|this|that|most|all|some|you|he|she)|(?:(?<=, )|(?<=\())I (?:think|believe|guess)(?= *[,.;!)]| *$))\b")
# where a clause turns to another statement: a proposal after it does not make the doubt before it a question
_TURN = re.compile(r"(?i),\s*(?:though|although|but|so|and so)\b|\s[-–—]\s")
# a doubt phrased with "whether": "I am not sure whether notice is still possible", "it depends on whether"
_UNSURE_WHETHER = re.compile(r"(?i)\b(?:not (?:sure|certain|clear)|unsure|uncertain|unclear|depends on|(?:have|has|had) not (?:yet )?decided(?: yet)?|(?:don't|do not|"
                             r"didn't|did not) know|(?:can't|cannot|couldn't|could not) (?:tell|say))\s+(?:whether|if)\b"
                             r"(?!\s+(?:you|we|I)\b)")  # "not sure whether you want it": a question to the reader
# a question, a request, a proposal or a condition: open by design, not a hedged statement
_OPEN_BY_DESIGN = re.compile(r"(?i)\?\s*$|\b(?:could you|can you|would you|will you|please|let me know|let's|"
                             r"we could|you could|you might|you may|shall we|if|whether|in case|"
                             # advice: "so it's probably the one to price first", "probably worth a call"
                             r"should|ought to|the (?:one|ones|thing|first|next) to|best to|makes? sense|"
                             r"suggest|recommend)\b")


# another person's doubt, reported: "Omar mentioned your number may have changed" is not the writer's hedge
_REPORTED = re.compile(r"(?i)\b(?:mentioned|said|says|told (?:me|us)|wrote|writes|heard|suggested|reported|"
                       r"thinks|thought|believes|according to|noted)\b")


_YOU = re.compile(r"(?i)\byour?\b")
_YOUR = re.compile(r"(?i)\byour\b")


def addressed(records: Records, address: str) -> list[int]:
    """The entities about the person at ``address``: their own (by address) and the rows that name them in
    full (their directory row, their leave), unless so many name them that none is about them in particular."""
    found = records.__dict__.setdefault("_addressed", {})
    if address not in found:
        own = list(records.by_key.get(address.lower(), ()))[:GENERIC]
        # their own name, not their manager's or their team's that their directory row also holds: the
        # name whose words are those of the address ("viktor.moss@" is Viktor Moss)
        local = set(re.split(r"[._+-]+", address.lower().partition("@")[0]))
        names = {k for i in own for k in records.entities[i].keys if "@" not in k and not k.startswith("#")
                 and len(k.split()) >= 2 and set(k.split()) <= local}
        rows = [i for k in sorted(names) for i in records.named(k)]
        found[address] = list(dict.fromkeys([*own, *rows]))[:GENERIC]
    return found[address]


def prose_hedges(statements: list[Statement]) -> list[Verdict]:
    """A statement that leaves what it states open ("Probably approved - I still need to check with HR"):
    an outcome says what the office shows, or asks; a question, a request, a proposal or a condition is
    not a hedge."""
    out = []
    for st in statements:
        m = _UNSURE.search(st.text)
        # a question, a request or a condition opens its own clause only ("We may already have paid it; if
        # so, please refund ..." still leaves the payment open; "probably fine to pay, though you may want to
        # hold it" leaves the decision open whatever the proposal after it)
        lo = max(st.text.rfind(";", 0, m.start()), st.text.rfind(".", 0, m.start())) + 1 if m else 0
        hi = min([i for i in (st.text.find(";", m.end()), st.text.find(". ", m.end()),
                              *(b.start() for b in [_TURN.search(st.text, m.end())] if b)) if i >= 0]
                 or [len(st.text)]) if m else 0
        clause = _UNSURE_WHETHER.sub(" ", st.text[lo:hi])  # "not sure whether" doubts, it does not ask
        if m and not _OPEN_BY_DESIGN.search(clause) and not _REPORTED.search(st.text[lo:m.start()]):
            out.append(Verdict(st.text, m.group(0), "hedge", "false",
                               "leaves what it states open: an outcome states what the office shows, or asks"))
    return out


_HEDGE = re.compile(r"(?i)\(\s*(?:or|maybe|possibly|perhaps|or maybe|or possibly|otherwise|alternatively)\b[^()\n]{0,60}\)")


_YEAR = re.compile(r"(?:19|20)\d\d")
_WAS = re.compile(r"(?i)\b(?:used to|previously|originally|formerly|instead of|moved|changed|no longer|old|earlier|"
                  r"rather than|replac\w*|rescheduled|postponed|pushed back|brought forward)\b")


def changed_value_problems(st: Statement, records: Records, scope: Scope) -> list[Verdict]:
    """A value said of a row the task changes, under its column's words, that is not what the task sets
    it to ("PO-4792 delivered 2026-11-13" where the task records 2026-11-12; "Ines's start date stays 7
    December" where it moves to 14 December). The old value is fine where the statement says it was; the
    value the episode itself set there is for the workbook's checks to judge."""
    if not scope.changed:
        return []
    keys = list(records.keys_in(st.text))
    cells = [cell for key in keys for cell in scope.changed.get(key, ())]
    if not cells:
        return []
    done = [cell for key in keys for cell in scope.done.get(key, ())]
    rows = {i for key in keys for i in records.named(key)}
    readings: dict[tuple[int, int], list[Claim]] = {}  # "12/11/2026" is read both ways: fine if one reading is
    # "invoiced in 2026", "invoiced in 2026 GBP 134,651.76" (the currency is the next amount's): a year is no
    # value, nor the end of the words that label the next one
    values = [c for c in claims_in(st.text, year=scope.year, kinds=("date", "number", "time"))
              if not (c.kind == "number" and _YEAR.fullmatch(c.text.strip()))]
    for c in values:
        readings.setdefault((c.start, c.end), []).append(c)
    out = []
    for (start, end), same_words in readings.items():
        if any(c.kind == "number" for c in same_words) and MEASURE.match(st.text, end):
            continue  # "within 30 days", "12%": a measure, not a cell's count
        if _BOUNDARY.search(st.text[max(0, start - 30):start]):
            continue  # "no order since 30 November": the bound of a range, not a cell's value
        if any(same_claim(c, a) and (not about or about & rows) for c in same_words for about, a in scope.about):
            continue  # the gold says it of this row too (or of nothing in particular)
        # the words that label a value stand between it and the value before it ("from 28/12 to 30/12")
        after = max([c.end for c in values if c.end <= start], default=0)
        found = [_changed_value(c, st, cells, done, scope.year, after) for c in same_words]
        if all(found):
            out.append(found[0])
    return out


def _changed_value(c: Claim, st: Statement, cells: list[Change], done: list[Change], year: int | None,
                   after: int = 0) -> Verdict | None:
    """One reading of one value against the cells the task sets (``changed_value_problems``)."""
    words = label_words(re.split(r"[,;:(|]|\band\b", st.text[max(after, c.start - 40):c.start])[-1])
    said = [(label, new, old) for label, new, old in cells if words & label_words(label)
            and any(n.kind == c.kind and (c.kind != "number" or bool(n.currency) == bool(c.currency)
                                          or (c.currency and "." in n.text)) for n in new)]  # a sheet's 1040.0
    if not said or any(same_claim(c, n) for _l, new, _o in said for n in new):
        return None
    if any(same_claim(c, n) for label, new, _o in done if words & label_words(label) for n in new):
        return None  # what the episode set there: the checks of the workbook judge it
    if any(same_claim(c, o) for _l, _n, old in said for o in old) and (_WAS.search(st.text) or any(
            same_claim(d, n) for d in claims_in(st.text, year=year, kinds=(c.kind,)) for _l, new, _o in said
            for n in new)):
        return None  # "moved from 7 December to 14 December", "7 December, now 14 December"
    label, new, _old = said[0]
    return Verdict(st.text, c.text, c.kind, "false",
                   f"is not what the task sets {label!r} to: {shown(next(n for n in new if n.kind == c.kind))}")


# categories named by words every sentence uses: "the other three absences" says no expense Category "Other"
_FILLER_CATEGORIES = frozenset({"other", "others", "general", "misc", "none", "various", "standard", "normal"})


def _category_at(text: str, value: str) -> re.Match | None:
    """Where ``text`` (case-folded) says a category's value as a word (a plural too: "shredders")."""
    return re.search(r"(?<![\w-])" + re.escape(value).replace(r"\ ", r"\s+") + r"(?:e?s)?(?![\w-])", text)


def _rows_dated(records: Records, rows: Iterable[int], d: Claim) -> set[int]:
    """The rows of ``rows`` one of whose dates is ``d``: what a statement giving that date is about."""
    return {i for i in rows if any(same_claim(d, a) for _l, a in records.entities[i].attributes if a.kind == "date")}


def _category_anchors(st: Statement, entities: list[int], records: Records, year: int | None
                      ) -> list[tuple[int, int, str, list[int]]]:
    """What a statement names and where: (start, end, key, rows). An identifier or a name names its rows;
    a name that many rows mention (a customer with 100 orders) names its row of the table that lists it
    once (``Records.masters``). Of the rows a name binds (a person's leave rows), those whose dates the
    statement gives: "Nina Lund has approved leave on 10-11 November" is about that leave row."""
    dates = [c for c in claims_in(st.text, year=year, kinds=("date",)) if isinstance(c.value, date)]
    out = []
    chosen = set(entities)
    for key, (a, b) in records.keys_in(st.text).items():
        rows = [i for i in records.named(key) if i in chosen] or \
            ([] if "@" in key else records.masters(key))
        if dates and len(rows) > 1:
            dated = set().union(*(_rows_dated(records, rows, d) for d in dates))
            rows = [i for i in rows if i in dated] or rows
        if rows:
            out.append((a, b, key, rows))
    return out


CATEGORY_REACH = 40  # characters between a category word and the name it is said of, at most


def category_problems(st: Statement, entities: list[int], spans: list[tuple[int, int]], records: Records,
                      scope: Scope) -> list[Verdict]:
    """Another value of a column of categories said of a row that the statement names ("Upland Outdoor
    (South region)" where Upland's Region is North; "SO-72551 (21 standing desks)" for an order of
    shredders; "Gull Point Marinas (West)" where the customer list says South). A category word is said of
    the name or identifier nearest it (within ``CATEGORY_REACH`` characters), so two rows' categories
    swapped in one sentence are read; it is not read where the row's own value is said nearer that name,
    where the word is part of a name, where a denial stands right before it, or where the task's own
    words say it on a line naming that row."""
    low = st.text.casefold()
    anchors = _category_anchors(st, entities, records, scope.year)
    if not anchors:
        return []
    out = []
    for a, b, key, rows in anchors:
        others = [(x, y) for x, y, k, _r in anchors if k != key]
        lines = None
        for entity in (records.entities[i] for i in rows):
            for label, own in entity.words:
                values = records.categories.get((entity.collection, label))
                own_key = fold_words(own)
                if not values or own_key not in values:
                    continue
                held = {fold_words(v) for i in rows for lab, v in records.entities[i].words if lab == label}
                owns = [m.span() for m in re.finditer(re.escape(own_key).replace(r"\ ", r"\s+"), low)]
                for value in sorted(values - held - _FILLER_CATEGORIES):
                    at = _category_at(low, value)
                    if at is None or any(s <= at.start() < e for s, e in spans):
                        continue
                    if _bracketed_before(low, at.span(), a):
                        continue  # "Omar Nair, 29 Oct (training): Amara Jensen": the bracket is said of Omar
                    if st.form == "heading" and at.start() > b and "," in low[b:at.start()] \
                            and low.rstrip().endswith(":") and not any(x >= at.end() for x, _y in others):
                        continue  # "Alongside Wren House Hostels, you now also have Aiko's North customer:": of what it heads
                    near = span_gap(at.span(), (a, b))
                    if near > CATEGORY_REACH or any(span_gap(at.span(), o) < near for o in others) or \
                            _NOT_BEFORE.search(low[max(0, at.start() - 30):at.start()]):
                        continue
                    if any(span_gap(o, (a, b)) <= near and not any(span_gap(o, x) < span_gap(o, (a, b))
                                                                    for x in others) for o in owns):
                        continue  # the row's own value is said of it, nearer than this one
                    if lines is None:
                        lines = [line.casefold() for t in scope.texts for line in str(t).splitlines()
                                 if low[a:b] in line.casefold()]
                    if any(_category_at(line, value) for line in lines):
                        continue  # the task's own words say it on a line naming the row
                    out.append(Verdict(st.text, st.text[at.start():at.end()], "category", "false",
                                       f"is not what the office says of {entity.name}: its {label!r} is {own!r}"))
                    return out
    return out


def _bracketed_before(text: str, span: tuple[int, int], anchor: int) -> bool:
    """Whether the words at ``span`` stand in brackets that close before ``anchor``: a bracket is said of
    what stands before it, not of a name after it."""
    opened, closed = text.rfind("(", 0, span[0]), text.find(")", span[1])
    return opened >= 0 and closed >= 0 and closed < anchor and ")" not in text[opened:span[0]] \
        and "(" not in text[span[1]:closed] and "\n" not in text[opened:closed]


_NOT_BEFORE = re.compile(r"(?i)\b(?:not|never|no longer|yet to be|isn't|wasn't|aren't|weren't|hasn't|haven't|"
                         r"still|un|awaiting|pending)\W+(?:\w+\W+){0,2}$")


_ALL_LISTED = re.compile(r"(?i)\b(?:all (?:three|four|five|six|seven|eight|nine|ten|\d{1,2}|of them|of these|of those)|"
                         r"both(?: of them)?|each of (?:them|these|those)|every one of (?:them|these|those)|"
                         r"they (?:are|were) all|these are all|all are)\b")


_EACH_LISTED = re.compile(r"(?i)\b(?:each(?: one| of them| of these| of those)?|every one(?: of them)?|all (?:of them|of these|"
                          r"of those|three|four|five|six|seven|eight|nine|ten|\d{1,2})|both(?: of them)?|they (?:are|were) all)\b")


_OVER_LISTED = re.compile(r"(?i)\b(?:none of|neither of|not one of|all of|each of|every one of|both of|all (?:three|four|five|six|seven|"
                          r"eight|nine|ten|\d{1,2})|both|they all|all are|none)\b")
_TOTAL_OF_LISTED = re.compile(r"(?i)\b(?:together|in total|altogether|in all|combined|between them|all told|"
                              r"(?:that|this|these|they) (?:is|are|come to|comes to|add up to|total)|totals?|totalling)\b")


def odd_item_problems(text: str, statements: list[Statement], records: Records) -> list[Verdict]:
    """An item of a list about one party that belongs to another ("The late orders were:" over seven
    Pinecrest orders and PO-4463, a Yarrow Energy order): in a list of three items or more, each naming one
    identifier, where every other item's row holds the same name under a column and the text names it, an
    item whose row holds another name there, which its own line does not give, is not of that list."""
    out = []
    low = text.casefold()
    for k, st in enumerate(statements):
        if st.form != "heading":
            continue
        items = items_under(statements, k)[:50]
        rows = []
        for item in items:
            ids = [key for key in records.keys_in(item.text) if key.startswith("#")]
            found = records.masters(ids[0]) if len(ids) == 1 else []
            rows.append((item, records.entities[found[0]] if found else None))
        if len(rows) < 3 or any(e is None for _i, e in rows):
            continue
        labels = {label for _i, e in rows for label, _k in e.names}
        for label in labels:
            values = [next((v for l, v in e.names if l == label), None) for _i, e in rows]
            common = {v for v in values if v and values.count(v) >= len(values) - 1}
            if len(common) != 1:
                continue
            party = next(iter(common))
            if values.count(party) < 2 or party not in low:
                continue
            for (item, e), value in zip(rows, values):
                if value and value != party and value not in item.text.casefold():
                    out.append(Verdict(item.text, item.text.strip()[:40], "name", "false",
                                       f"is listed with {party}'s, but its {label!r} is {value} ({e.name})"))
                    return out
    return out


def _sum_written_above(statements: list[Statement], i: int, year: int | None) -> set[float]:
    """The sums of the amounts the list items right above statement ``i`` write, position by position (each
    item's one amount; or, where each writes as many, the sum of their first ones, of their second ones…:
    "annual value £45,500.00, invoiced £78,932.01" three times under "Together those three have invoiced
    £319,572.49 against combined annual values of £181,500.00"); at least two items, read back at most 50."""
    rows: list[list[float]] = []
    j = i - 1
    while j >= 0 and statements[j].form == "item" and i - j <= 50:
        money = [abs(float(c.value)) for c in claims_in(statements[j].text, year=year, kinds=("number",)) if _money(c)]
        if not money:
            return set()
        rows.append(money)
        j -= 1
    if len(rows) < 2:
        return set()
    if all(len(set(r)) == 1 for r in rows):
        return {sum(r[0] for r in rows)}
    if len({len(r) for r in rows}) != 1:
        return set()
    return {sum(r[k] for r in rows) for k in range(len(rows[0]))}


def _is_their_sum(same_words: list[Claim], listed: list[list[int]], records: Records) -> bool:
    total = _sum_of_listed(listed, records)
    return total is not None and any(c.kind == "number" and abs(abs(float(c.value)) - total) <= 0.011 for c in same_words)


def _listed_amounts(listed: list[list[int]], records: Records) -> list[float] | None:
    """Each listed item's one amount (its one figure, or its one under a column of amounts), or None where an
    item has none or several."""
    amounts = []
    for items in listed:
        figures = [(label, abs(float(a.value))) for i in items for label, a in records.entities[i].values("number")]
        named = {v for label, v in figures if _AMOUNT_LABEL.search(label or "")}
        found = named if named else {v for _l, v in figures}
        if len(found) != 1:
            return None
        amounts.append(next(iter(found)))
    return amounts


def _sum_of_listed(listed: list[list[int]], records: Records) -> float | None:
    """The sum of the listed items' amounts (each item's one amount), or None where an item has none or several."""
    amounts = _listed_amounts(listed, records)
    return None if amounts is None else sum(amounts)


_BOUND_SAID = re.compile(r"(?i)\b(?:above|over|under|below|exceed(?:s|ing)?|beyond|more than|less than|greater than|"
                         r"at least|at most|up to|min(?:imum)?|max(?:imum)?|threshold(?: of)?|limit(?: of)?)\s*"
                         r"(?:of\s+)?(?:GBP|EUR|USD|£|\$|€)?\s*$")


_COUNT_BEFORE = re.compile(r"(?i)(?<![\w.,£$€/-])(\d{1,3}|" + "|".join(NUMBER_WORDS) + r")\s+(?=[a-z])(?!(?:days?|weeks?|"
                           r"months?|years?|hours?|minutes?|per ?cent|%)\b)")


def _not_their_sum(same_words: list[Claim], st: Statement, listed: list[list[int]], records: Records) -> Verdict | None:
    """A false verdict where an amount said of the listed items together is not the sum of their amounts
    (each item's one amount: its one figure, or its one under a column of amounts)."""
    amounts = _listed_amounts(listed, records)
    if amounts is None:
        return None
    total = sum(amounts)
    for c in same_words:
        if c.kind != "number" or not _money(c) or _BOUND_SAID.search(st.text[max(0, c.start - 30):c.start]):
            continue  # "the 6 orders above GBP 10,000.00": a threshold, not their sum
        counted = [_number(n) for n in _COUNT_BEFORE.findall(st.text[max(0, c.start - 60):c.start])]
        if counted and len(listed) not in counted:
            continue  # "4 have your written approval (GBP 44,160.62 in total) and 2 do not:": the four's sum
        said = abs(float(c.value))
        if abs(said - total) > 0.011 and not any(abs(said - a) <= 0.011 for a in amounts):
            return Verdict(st.text, shown(c), c.kind, "false",
                           f"is said of the {len(listed)} items listed above together, but their amounts add up to {total:,.2f}")
    return None


def _listed_items(st: Statement, statements: list[Statement], i: int, owned: list[list[int]],
                  words: re.Pattern | None = None, records: Records | None = None) -> list[list[int]]:
    """What each item of the list right above a statement that names nothing stands for, where the
    statement says something of each of them ("Each one is a standard recharge of GBP 1,500."): at least
    two items, each naming a few records, the list read back at most 50 items (bounded work). With
    ``records``, an item naming a party of many rows (a customer with its orders) stands for that party's own
    rows (its customer row, its contract row: "Between them these agreements are worth £490,000 a year")."""
    if not (words or _EACH_LISTED).search(st.text) or st.form in ("item", "heading") or st.text.rstrip().endswith(":"):
        return []  # a heading speaks of the items below it, not of those above
    out = []
    j = i - 1
    while j >= 0 and statements[j].form == "item" and i - j <= 50:
        rows = owned[j]
        if records is not None:  # the party's own rows: its customer row and its contract row
            keys = records.keys_in(statements[j].text)
            own = sorted({r for k in keys if not k.startswith("#") for r in _own_rows(records, k)})
            # an item naming its own identifiers stands for their rows ("| BS-2610-0392 | Birchwood Stationers |
            # ... | £7,762.40 |"), not for its party's contract
            ided = sorted({r for k in keys if k.startswith("#") for r in records.by_key.get(k, ())[:9]})
            if len(rows) > 8 and 0 < len(ided) <= 8:
                rows = ided
            elif 0 < len(own) <= NAMED_RECORDS:
                rows = own if len(rows) > 8 else sorted({*rows, *own})
        if not rows or len(rows) > 8:
            return []
        out.append(rows)
        j -= 1
    return out if len(out) >= 2 else []


BRACKET_REACH = 30  # characters between a name and the bracket that gives its value


_RANGE_WORD = re.compile(r"(?i)\s*(?:-|–|—|to|until|till|through|and)\s*")
_BRACKET = re.compile(r"\(([^()\n]{4,60})\)")


_AT_PARTY = re.compile(r"(?i)^\s*(?:,\s*)?(?:at|from|of)\s+(?:the\s+)?$")


def _domain_parties(records: Records) -> dict[str, str]:
    """The parties people mail from: mail domain -> the organisation whose name it spells."""
    parties = records.__dict__.get("_domain_party")
    if parties is None:
        from officesim.evaluators.records import _parties_by_domain
        spelled = _parties_by_domain(records)
        domains = {k.partition("@")[2].rpartition(".")[0] for e in records.entities if e.collection == "person"
                   for k in e.keys if "@" in k}
        parties = records.__dict__["_domain_party"] = {d: spelled[d] for d in domains if d in spelled}
    return parties


def _works_at(records: Records, person: str) -> set[str]:
    """The parties a person works for: the one their mail domain spells, else the one every sheet row
    naming them names ("Driftwood Facilities | Mira Holm | mira@driftwoodfacilities.test")."""
    parties = _domain_parties(records)
    known = set(parties.values())
    domains = {k.partition("@")[2].rpartition(".")[0] for i in records.by_key.get(person, ())[:GENERIC]
               if records.entities[i].collection == "person" for k in records.entities[i].keys if "@" in k}
    works = {parties[d] for d in domains if d in parties}
    if not works and person not in known and "@" not in person and not person.startswith("#"):
        rows = [records.entities[i] for i in records.by_key.get(person, ())[:GENERIC]
                if records.entities[i].collection.rpartition("#")[0].endswith((".xlsx", ".xlsm"))]
        beside = [{k for k in e.keys if k in known} for e in rows]
        if beside and all(len(b) == 1 for b in beside):
            works = set().union(*beside)
    return works


# "your question about when SO-71994 will ship", "your order SO-71994": an item of the reader's own party
_YOUR_ITEM = re.compile(r"(?i)\byour\s+(?:[a-z'’-]+\s+){0,5}?(?=[A-Z]{1,5}-\d)")


def your_item_problems(st: Statement, addressee: str, records: Records) -> list[Verdict]:
    """An item named as the reader's own ("your order SO-71994") in a mail to someone at one party, where the
    office's rows of the item name another party and never the reader's (another customer's order)."""
    party = _domain_parties(records).get(addressee.lower().partition("@")[2].rpartition(".")[0]) if addressee else None
    if party is None:
        return []
    known = set(_domain_parties(records).values())
    out = []
    for m in _YOUR_ITEM.finditer(st.text):
        ids = claims_in(st.text[m.end():m.end() + 20], year=None, kinds=("id",))
        if not ids or ids[0].start != 0:
            continue
        key = "#" + re.sub(r"[^0-9A-Z]", "", str(ids[0].value).upper())
        rows = [records.entities[i] for i in records.by_key.get(key, ())[:GENERIC]
                if not records.entities[i].collection.endswith("#lines")]
        named = {k for e in rows for k in e.keys if k in known}
        if named and party not in named:
            out.append(Verdict(st.text, ids[0].text, "id", "false",
                               f"is {', '.join(sorted(n.title() for n in named))}'s in the office's records, not the "
                               f"reader's ({party.title()})"))
    return out


# "their account manager is Ingrid Ortiz", "their contact, Ingrid Ortiz": someone of the party the sentence
# is about
_THEIR_PERSON = re.compile(r"(?i)\b(?:their|its)\s+(?:[a-z-]+\s+){0,2}(?:manager|contact|rep|representative|lead|"
                           r"director|owner|person|signatory)\b")


def their_person_problems(st: Statement, entities: list[int], records: Records) -> list[Verdict]:
    """A person given as someone of the party the statement is about ("their account manager is Ingrid
    Ortiz" after a sentence about Elmstead Uniforms) who works for another party."""
    if not _THEIR_PERSON.search(st.text):
        return []
    known = set(_domain_parties(records).values())
    out = []
    for person, (ps, pe) in records.keys_in(st.text).items():
        if person in known or person.startswith("#") or "@" in person:
            continue
        # the party of what the statement is about, not of the person's own rows
        about = {k for i in entities if person not in records.entities[i].keys
                 for k in records.entities[i].keys if k in known}
        if len(about) != 1:
            continue
        works = _works_at(records, person)
        if works and not works & about:
            out.append(Verdict(st.text, st.text[ps:pe], "person", "false",
                               f"is given as {next(iter(about))}'s, but works at {', '.join(sorted(works))}"))
    return out[:1]


def affiliation_problems(st: Statement, records: Records, home: str = "") -> list[Verdict]:
    """A person said to be at an organisation ("Leila Duarte at Juniper Dental") whose mail address is
    another organisation's (her address is at oakmerelibraries.test), or named in a list item about one
    outside party alone while they work for another outside party ("Marigold Care Homes ... with Sofia
    Wolff", who is at Rowan Park Gyms): where a person works is the party whose name their mail domain
    spells (``home``: the user's own mail domain, whose people work with every party)."""
    found = records.keys_in(st.text)
    if len(found) < 2:
        return []
    parties = _domain_parties(records)
    known = set(parties.values())
    out = []
    for person, (ps, pe) in found.items():
        domains = {k.partition("@")[2].rpartition(".")[0] for i in records.by_key.get(person, ())[:GENERIC]
                   if records.entities[i].collection == "person" for k in records.entities[i].keys if "@" in k}
        works = _works_at(records, person)
        if not works:
            continue
        for org, (os_, _oe) in found.items():
            if org in known and os_ > pe and _AT_PARTY.match(st.text[pe:os_]) and org not in works:
                out.append(Verdict(st.text, st.text[os_:_oe], "org", "false",
                                   f"is not where {st.text[ps:pe]} works: their mail is at {', '.join(sorted(works))}"))
        named_orgs = [k for k in found if k in known]
        if st.form == "item" and len(named_orgs) == 1 and home and home not in domains \
                and not works & set(named_orgs) and found[named_orgs[0]][0] < ps:
            out.append(Verdict(st.text, st.text[ps:pe], "person", "false",
                               f"is named in a line about {named_orgs[0]}, but works at {', '.join(sorted(works))}"))
    return out[:1]


_NOT_YET = re.compile(r"(?i)\b(?:not|never)\s+(?:yet\s+|been\s+|yet been\s+|actually\s+)*(?P<verb>delivered|paid|approved|received|shipped|arrived)\b"
                      r"|\b(?:is|are|was|were)\s+(?:still\s+)?(?P<un>undelivered|unpaid|unapproved)\b"
                      # "TF-2610-0370 is still awaiting payment"
                      r"|\b(?:is|are)\s+(?:still\s+)?(?:awaiting|pending|waiting for|due for)\s+(?P<wait>payment|delivery|approval)\b")
_AWAITED = {"payment": "paid", "delivery": "delivered", "approval": "approved"}
_DONE_LABEL = {"delivered": r"deliver|received|arriv", "received": r"deliver|received|arriv", "arrived": r"deliver|received|arriv",
               "shipped": r"ship|dispatch", "paid": r"paid|payment", "approved": r"approv"}


def not_yet_problems(st: Statement, own: list[int], records: Records) -> list[Verdict]:
    """A thing said not to have happened to an item the statement names ("the goods on PO-4554 have not
    been delivered yet") where the item's row records it: a date under a column of that event
    ("Delivered": 2026-08-21) or that state ("Status": Delivered)."""
    out = []
    # the rows of the identifiers it names (a person has many rows: their leave of another week may be approved)
    own = [i for k in records.keys_in(st.text) if k.startswith("#") for i in records.named(k)]
    for m in _NOT_YET.finditer(st.text):
        verb = (m.group("verb") or (m.group("un") or "")[2:] or _AWAITED[m.group("wait").lower()]).lower()
        label = re.compile(rf"(?i){_DONE_LABEL.get(verb, re.escape(verb))}")
        for i in own[:GENERIC]:
            e = records.entities[i]
            if "#" not in e.collection or e.collection.endswith(("#lines", "#mail")):
                continue
            dated = [a for l, a in e.values("date") if label.search(l or "")]
            stated = [v for _l, v in e.states if label.search(v) and not re.match(r"(?i)\s*(?:un|not|non|awaiting|pending)", v)]
            if dated or stated:
                out.append(Verdict(st.text, m.group(0), "state", "false",
                                   f"is said of {e.name}, which records it ({(dated[0].text if dated else stated[0])})"))
                return out
    return out


_FIRST_DAY = re.compile(r"(?i)\b(?:his|her|their|your|the|my)\s+first\s+day\b(?:\s+(?:here|with us|at \w+))?\s*(?:is|will be|was|on|,|:|-|–)?\s*$")
_START_LABEL = re.compile(r"(?i)\bstart|\bjoin|first day")


def first_day_problems(st: Statement, entities: list[int], records: Records, year: int | None) -> list[Verdict]:
    """A date given as someone's first day ("their intro meetings are booked for his first day, Tuesday 27
    October") that is not the start date of the person the statement is about."""
    out = []
    for c in claims_in(st.text, year=year, kinds=("date",)):
        if not isinstance(c.value, date) or not _FIRST_DAY.search(st.text[max(0, c.start - 40):c.start]):
            continue
        starts = {a.value for i in entities[:GENERIC] for label, a in records.entities[i].values("date")
                  if _START_LABEL.search(label or "") and isinstance(a.value, date)}
        if starts and c.value not in starts:
            out.append(Verdict(st.text, c.text, "date", "false",
                               f"is given as a first day, but the start date the office gives is "
                               f"{', '.join(d.isoformat() for d in sorted(starts)[:2])}"))
    return out


_TIMES_OF = re.compile(r"(?i)(?<![\w.,])(\d{1,5})\s*[x×]\s+(?=[A-Za-z])")
_QUANTITY_LABEL = re.compile(r"(?i)\b(?:qty|quantity|units|pieces|pcs)\b")


def quantity_problems(st: Statement, records: Records) -> list[Verdict]:
    """A quantity written "N x Product" right after an item's identifier ("SO-72521 (42 x Desk Lamp)")
    that is not the quantity its row gives."""
    out = []
    for m in _TIMES_OF.finditer(st.text):
        window = st.text[max(0, m.start() - 40):m.start()]
        before = [(span, k) for k, span in records.keys_in(window).items() if k.startswith("#")]
        if not before:
            continue
        (_s, _e), key = max(before, key=lambda x: x[0][1])
        shown_id = window[_s:_e]
        said = int(m.group(1))
        held = {int(a.value) for i in records.named(key) for label, a in records.entities[i].values("number")
                if _QUANTITY_LABEL.search(label or "") and float(a.value).is_integer()}
        # a quantity a message or document of the office gives with it ("return 2 of the 20 desks on SO-71910")
        told = {int(a.value) for i in records.named(key) if "#" not in records.entities[i].collection
                or records.entities[i].collection.endswith(("#lines", "#mail"))
                for _l, a in records.entities[i].values("number") if float(a.value).is_integer()}
        if held and said not in held and said not in told:
            out.append(Verdict(st.text, m.group(0).strip(), "number", "false",
                               f"is the quantity given to {shown_id}, but its row gives {', '.join(map(str, sorted(held)))}"))
    return out


_PRODUCT_LABEL = re.compile(r"(?i)\b(?:product|item|goods|description|article)\b")
_QTY_THING = re.compile(r"(?i)(?<![\w.,£$€])(?P<n>\d{1,4})\s+(?:x\s+)?(?P<what>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,3}?)\s+"
                        r"(?:on|for|in|from|under|of)\s+(?:(?:her|his|their|your|our|the)\s+)?(?:order\s+)?$")
_FILLER = {"the", "a", "an", "of", "new", "more", "extra", "units", "unit", "pieces", "items", "item", "boxes", "box",
           "packs", "pack", "sets", "set", "her", "his", "their", "your", "our"}


def product_problems(st: Statement, records: Records) -> list[Verdict]:
    """What an order's quantity is of, said right before its identifier ("her 9 coffee machines on SO-71499"),
    where the row's product shares no word with it (it is 9 x Paper A4 (5 reams))."""
    out = []
    for key, (lo, _hi) in records.keys_in(st.text).items():
        if not key.startswith("#"):
            continue
        m = _QTY_THING.search(st.text[max(0, lo - 60):lo])
        if not m:
            continue
        said = {w.rstrip("s") for w in m.group("what").lower().split() if w not in _FILLER and len(w) > 2}
        if not said:
            continue
        for i in records.named(key):
            e = records.entities[i]
            qty = {int(a.value) for label, a in e.values("number") if _QUANTITY_LABEL.search(label or "")
                   and float(a.value).is_integer()}
            products = [k for label, k in e.names if _PRODUCT_LABEL.search(label or "")] + \
                [w for label, w in e.words if _PRODUCT_LABEL.search(label or "")]
            if not qty or not products or int(m.group("n")) not in qty:
                continue
            held = {w.rstrip("s") for p in products for w in p.lower().split()}
            if not said & held:
                out.append(Verdict(st.text, m.group(0).strip(), "name", "false",
                                   f"is not what {st.text[lo:_hi]} is of: its row gives {', '.join(products)}"))
            break
    return out[:1]


_PERIOD_AFTER = re.compile(r"(?i)\b(?:is|are|was|were|will be|'s)\s+(?:(?:also|still|both|then)\s+)?(?:on\s+(?:annual\s+|sick\s+)?leave|away|off|"
                           r"out of (?:the )?office|on holiday|on a course|on training)\s+(?:from\s+|between\s+)?"
                           r"(?P<period>[^.;:\n()]{4,60}?)(?=[.;,:\n]|$)")
_AWAY = re.compile(r"(?i)\b(?:on (?:annual |sick )?leave|away|off work|out of (?:the )?office|on holiday)\b")
_NOT_COUNTED = re.compile(r"(?i)withdrawn|rejected|declined|cancell?ed|refused")


def bracket_range_problems(st: Statement, records: Records, year: int | None) -> list[Verdict]:
    """A period said of a name — in brackets right after it ("Amara Jensen's leave (9 to 11 November
    2026)") or as when they are away ("Clara Chen is on annual leave from 29 October to 3 November") —
    that is not the first and last day of one of that one's rows, though a row of theirs starts or ends
    there; a row withdrawn or rejected gives no period of absence."""
    out = []
    periods = [(m, m.group(1)) for m in _BRACKET.finditer(st.text)]
    periods += [(m, m.group("period")) for m in _PERIOD_AFTER.finditer(st.text)]
    for m, said in periods:
        found = [d for d in dates_in(said, year) if isinstance(d.value, date) and not isinstance(d.value, datetime)]
        spans = sorted({(d.start, d.end) for d in found})
        if len(spans) != 2 or not _RANGE_WORD.fullmatch(said[spans[0][1]:spans[1][0]]):
            continue  # a period: two days joined as a range ("9 to 11 November"), not "issued 06/11/2026"
        days = sorted({d.value for d in found})
        if len(days) != 2:
            continue
        before = [(span, k) for k, span in records.keys_in(st.text[:m.start()]).items()]
        if not before:
            continue
        (_start, end), key = max(before, key=lambda x: x[0][1])
        if m.start() - end > BRACKET_REACH or _CLAUSE.search(st.text[end:m.start()]):
            continue
        rows = [records.entities[i] for i in (records.named(key) or records.masters(key))]
        # said as an absence ("is on leave from", "(29 to 30 October) ... are both on annual leave"): a
        # withdrawn or rejected request is none
        away = m.re is _PERIOD_AFTER or _AWAY.search(st.text[m.end():]) is not None
        dropped = [e for e in rows if away and any(_NOT_COUNTED.search(v) for _l, v in e.states)]
        rows = [e for e in rows if e not in dropped]
        held = [{a.value for _l, a in e.values("date") if isinstance(a.value, date)} for e in rows]
        if any(set(days) <= own for own in held):
            continue
        gone = next((e for e in dropped if set(days) <= {a.value for _l, a in e.values("date")}), None)
        if gone is not None:
            out.append(Verdict(st.text, said, "date", "false", f"is a period {st.text[_start:end]} is said to be away, "
                               f"but that request is {', '.join(v for _l, v in gone.states)} ({gone.name})"))
            continue
        near = [own for own in held if len(own) >= 2 and (own & set(days) or (  # a row of theirs the period overlaps
            min(own) <= days[1] and days[0] <= max(own) and (max(own) - min(own)).days <= 60))]
        if near:
            out.append(Verdict(st.text, said, "date", "false",
                               f"is the period given to {st.text[_start:end]}, but its records give "
                               f"{' to '.join(d.isoformat() for d in sorted(near[0])[:2])}"))
    return out


def _not_of_each(same_words: list[Claim], st: Statement, listed: list[list[int]], records: Records, scope: Scope,
                 numbers: list[Claim], dates: list[date], columns: Iterable[float], sole: list[int]) -> Verdict | None:
    """A false verdict where a value said of each listed item (an amount, a date) is not one of an item's
    own values of its kind, nor found true of it by the reading, though that item has values of that kind."""
    for items in listed:
        own_numbers = [abs(float(a.value)) for i in items for _l, a in records.entities[i].values("number")]
        if any(c.kind == "number" and any(abs(abs(float(c.value)) - n) < 0.005 for n in own_numbers) for c in same_words):
            continue  # "a standard recharge of GBP 1,250" of lines of -1,250: the amount, whatever its sign
        judged = [_judge(c, st, items, records, scope, numbers, dates, "", columns, sole) for c in same_words]
        if any(v is not None and v.verdict == "true" for v in judged):
            continue
        false = next((v for v in judged if v is not None and v.verdict == "false"), None)
        if false is not None:
            return false
        for c in same_words:
            if c.kind not in ("number", "date") or (c.kind == "number" and not _money(c)):
                continue
            own = [a for i in items for _l, a in records.entities[i].values(c.kind)]
            if own and not any(same_claim(c, a) or (c.kind == "number" and abs(abs(float(a.value)) - abs(float(c.value))) < 0.005)
                               for a in own):
                return Verdict(st.text, shown(c), c.kind, "false",
                               f"is said of each item listed above, but {records.entities[items[0]].name} gives "
                               f"{', '.join(sorted({shown(a) for a in own})[:3])}")
    return None


def listed_category_problems(statements: list[Statement], i: int, records: Records) -> list[Verdict]:
    """A category said of all the items listed right above a statement that names none ("All three are
    supplier contracts" under three contracts, one of them a customer's): each item's row, named by its one
    identifier, must hold that category."""
    st = statements[i]
    low = st.text.casefold()
    if not _ALL_LISTED.search(st.text) or _NOT_BEFORE.search(low):
        return []
    rows: list[int] = []
    j = i - 1
    while j >= 0 and statements[j].form == "item" and i - j <= 50:  # a list of 50 items at most: bounded work
        ids = [k for k in records.keys_in(statements[j].text) if k.startswith("#")]
        if len(ids) != 1:
            return []
        rows += records.masters(ids[0])[:1]
        j -= 1
    if len(rows) < 2:
        return []
    out = []
    for r in rows:
        entity = records.entities[r]
        for label, own in entity.words:
            values = records.categories.get((entity.collection, label))
            if not values or fold_words(own) not in values:
                continue
            said = [v for v in sorted(values) if _category_at(low, v)]
            if said and fold_words(own) not in said:
                out.append(Verdict(st.text, said[0], "category", "false",
                                   f"is said of every item listed above, but {entity.name}'s {label!r} is {own!r}"))
    return out[:1]


# a party's message and its day: "Cobalt Software Ltd told us on 26 September that ...", "Quayside wrote on 19 June"
_WROTE_ON = re.compile(r"(?i)\b(?:wrote(?: to us| in)?|e-?mailed(?: us)?|told us|informed us|notified us|let us know|"
                       r"sent (?:us )?(?:their|its|the|new|a|an)?\s*(?:[a-z]+\s+){0,3}?|got in touch|contacted us|"
                       r"gave (?:us )?notice(?: of [a-z ]{0,30}?)?)\s+on\s+$")


def party_mail_day_problems(st: Statement, records: Records, year: int | None) -> list[Verdict]:
    """A day a party is said to have written on ("Cobalt Software Ltd told us on 26 September") where no
    message from that party (the organisation whose domain it mails from) is of that day, though it wrote."""
    out = []
    for c in claims_in(st.text, year=year, kinds=("date",)):
        if not isinstance(c.value, date) or not _WROTE_ON.search(st.text[max(0, c.start - 60):c.start]):
            continue
        party = _sender_named_before(st.text, c.start, records)
        if party is None:
            continue
        days = {a.value for e in records.mails_from(party) for label, a in e.attributes
                if label == "sent" and isinstance(a.value, date)}
        if days and not any(_same_date(c, d) for d in days):
            out.append(Verdict(st.text, shown(c), "date", "false",
                               f"is not a day {party.title()} wrote on: its messages are of "
                               f"{', '.join(sorted(d.isoformat() for d in days))[:80]}"))
    return out


def _sender_named_before(text: str, at: int, records: Records) -> str | None:
    """The organisation that sends mail (``Records.senders``) named last before ``at``, if any."""
    parties = [(a, k) for k, (a, _b) in records.keys_in(text[:at]).items() if k in records.senders]
    return max(parties)[1] if parties else None


# a party said never to have done what one of its messages does: "Quayside has never changed its bank details"
_NEVER = re.compile(r"(?i)\b(?:has|have|had)\s+(?:never|not)\s+(?:once\s+)?(?:[a-z]+ed|sent|written|asked|told)\b"
                    r"|\bnever\s+(?:[a-z]+ed|sent|wrote|asked|told)\b")


_SINCE = re.compile(r"(?i)\b(?:since|after|recently|lately|in the (?:last|past)|within|this (?:year|month|quarter|week)|"
                    r"yet|again)\b")


def party_never_problems(st: Statement, records: Records) -> list[Verdict]:
    """A party said never to have done a thing (a denial of what it did) where a message from that party
    says it in its subject: at least two words of the subject (not the party's) follow the denial."""
    m = _NEVER.search(st.text)
    if m is None or _SINCE.search(st.text, m.end()):
        return []  # "has not changed its bank details since June": a denial of a later change only
    party = _sender_named_before(st.text, m.start(), records)
    if party is None:
        return []
    said = _word_set(st.text[m.start():]) - _word_set(party)
    for mail in records.mails_from(party):
        for key in mail.keys:
            words = _word_set(key) - _word_set(party)
            if not key.startswith("#") and "@" not in key and len(words & said) >= 2 and len(words) <= 6:
                return [Verdict(st.text, st.text[m.start():m.end()], "state", "false",
                                f"is denied of {party.title()}, but its message {mail.name} is about {key!r}")]
    return []


_FLAG_DENIED = re.compile(r"(?i)\b(?:not|n't|no|never|none|neither|nor|without|rather than|instead of)\b|n't\b")
_FIXED_TERM = re.compile(r"(?i)\bfixed[- ]term\b")
_FLAG_CLAUSE = re.compile(r"(?i)[,;:()]|\b(?:but|while|whereas|although|though)\b")


LINES_UNDER = 60  # lines read under one heading
FLAG_ROWS = 2_000  # rows of one name read for the yes-or-no rows among them (a party's contract among its orders)


def _lines_under(text: str, statements: list[Statement], i: int) -> list[Statement]:
    """The lines right under heading ``i``: its items, or plain lines one per line up to a blank line."""
    out = []
    for j in range(i + 1, min(len(statements), i + 1 + LINES_UNDER)):
        st, last = statements[j], statements[j - 1]
        gap = text[last.end:st.start]
        if st.form == "heading" or gap.count("\n") > (2 if j == i + 1 else 1) or "\n" not in gap:
            break
        out.append(st)
    return out


def flag_problems(st: Statement, entities: list[int], records: Records) -> list[Verdict]:
    """A yes or no said of a row the statement names where the row holds the other ("CTR-2381 renews
    automatically" where its Auto-renew is No): every word of the column's name (four letters or more, as
    the start of a written word) stands in one clause, which a denial before them makes a no."""
    rows = [i for i in entities if records.entities[i].flags][:ALIGNED_ENTITIES]
    if not rows:
        return []
    bounds = [0, *(m.end() for m in _FLAG_CLAUSE.finditer(st.text)), len(st.text)]
    # each clause is about the rows it names, else those the clause before it was about: "Ironvale's contract
    # (CTR-2335) expires on 31 January 2027 and does not renew automatically; Redfern's (CTR-2328) renews"
    about: list[set[int]] = []
    for a, b in zip(bounds, bounds[1:]):
        keys = set(records.keys_in(st.text[a:b]))
        named = {i for i in rows if keys & set(records.entities[i].keys)}
        if named and about and re.search(r"(?i)\b(?:both|all|each|all of them)\b", st.text[a:b]):
            named |= about[-1]  # "Heron Bay and Marigold both auto-renew": said of the rows before "and" too
        about.append(named or (about[-1] if about else set(rows)))
    # a clause that plans or supposes says nothing of the row ("if it renews automatically, …")
    # "both auto-renew if we miss 2 December" states the flag; the condition after it does not make it a plan
    clauses = [(st.text[a:b], of, b) for (a, b), of in zip(zip(bounds, bounds[1:]), about)
               if not _plans(_CONDITION_AFTER.split(st.text[a:b], maxsplit=1)[0])]
    for i in rows:
        for label, value in records.entities[i].flags:
            stems = [w.casefold() for w in re.findall(r"[A-Za-z]{4,}", label)]
            if not stems:
                continue
            for clause, of, end in clauses:
                if i not in of:
                    continue
                if any(w.startswith("renew") for w in stems) and _FIXED_TERM.search(clause) \
                        and not _FLAG_DENIED.search(clause[:_FIXED_TERM.search(clause).start()]):
                    if value:  # "CTR-2426 is a fixed-term agreement" where it renews automatically
                        return [Verdict(st.text, clause.strip()[:60], "state", "false",
                                        f"is not what the office says of {records.entities[i].name}: its {label!r} is Yes")]
                    break
                words = [w.casefold() for w in re.findall(r"[A-Za-z]+", clause)]
                at = [next((k for k, w in enumerate(words) if w.startswith(stem)), None) for stem in stems]
                if any(a is None for a in at):
                    continue
                given = words[max(at) + 1] if max(at) + 1 < len(words) else ""
                if not given and (after := re.match(r"\s*[:=]?\s*([A-Za-z]+)", st.text[end:end + 12])):
                    given = after.group(1).casefold()  # "(…, auto-renew: No)": the value past the clause's colon
                said = given in ("yes", "y", "true") if given in ("yes", "y", "true", "no", "n", "false") \
                    else not _FLAG_DENIED.search(" ".join(words[:max(at)]))  # "auto-renew: no" gives its value
                if said != value:
                    return [Verdict(st.text, clause.strip()[:60], "state", "false",
                                    f"is not what the office says of {records.entities[i].name}: its {label!r} is "
                                    f"{'Yes' if value else 'No'}")]
                break
    return []


def state_problems(st: Statement, entities: list[int], spans: list[tuple[int, int]], records: Records,
                   scope: Scope) -> list[Verdict]:
    """Another value of a column of states said of a row the statement names ("Nina Lund has approved
    annual leave on 10-11 November" where that leave's Status is Pending): the row is the one every name
    and date within a few words of the state word names, in a statement that plans nothing and does not
    deny it. Rows the task or the episode changes are left to the workbook's checks; a state the task's
    own words say there is no rival; short states ("open", "paid", "held") are said of too much in
    passing to be read."""
    if _plans(st.text) or not entities:
        return []
    rows = {i for i in entities if records.entities[i].states}
    changed = {k for k in records.keys_in(st.text) if k in scope.changed or k in scope.done}

    def state_set(i: int) -> bool:
        """Whether the task or the episode set this row's state column (not another table's row of the same
        person: a probation tracker's review date leaves their leave's Status to be read)."""
        labels = {label for label, _own in records.entities[i].states}
        return any(label in labels for k in changed.intersection(records.entities[i].keys)
                   for label, _new, _old in [*scope.changed.get(k, ()), *scope.done.get(k, ())])

    rows = {i for i in rows if not state_set(i)}
    if not rows:
        return []
    anchors: list[tuple[int, int, set[int]]] = []
    for key, (a, b) in records.keys_in(st.text).items():
        named = rows.intersection(records.named(key))
        if named:
            anchors.append((a, b, named))
    for d in claims_in(st.text, year=scope.year, kinds=("date",)):
        dated = _rows_dated(records, rows, d)
        if dated:
            anchors.append((d.start, d.end, dated))
    low = st.text.casefold()
    lines = [line.casefold() for t in scope.texts for line in str(t).splitlines()
             if any(low[a:b] and low[a:b] in line.casefold() for a, b, _r in anchors)]
    values = {v for i in rows for label, _own in records.entities[i].states
              for v in records.states.get((records.entities[i].collection, label), ()) if len(v) >= 6}
    for value in sorted(values):
        at = _category_at(low, value)
        if at is None or any(a <= at.start() < b for a, b in spans) or \
                _NOT_BEFORE.search(low[max(0, at.start() - 30):at.start()]):
            continue
        near = [r for a, b, r in anchors if abs(at.start() - b) <= 40 or abs(a - at.end()) <= 40]
        if not near:
            continue
        target = set.intersection(*near) or min(((min(abs(at.start() - b), abs(a - at.end())), r) for a, b, r in anchors
                                                 if abs(at.start() - b) <= 40 or abs(a - at.end()) <= 40),
                                                key=lambda x: x[0])[1]
        held = [(label, own) for i in target for label, own in records.entities[i].states]
        if not held or any(fold_words(own) == value for _l, own in held) or any(_category_at(line, value) for line in lines):
            continue
        entity = records.entities[min(target)]
        label, own = held[0]
        return [Verdict(st.text, st.text[at.start():at.end()], "state", "false",
                        f"is not what the office says of {entity.name}: its {label!r} is {own!r}")]
    return []


# an amount compared with a limit: "its annual value is under the £30,000 threshold", "over £5,000"
_COMPARED = re.compile(r"(?i)\b(?P<op>under|below|less than|lower than|over|above|more than|greater than|exceeds?|"
                       r"exceeding)\s+(?:the\s+|our\s+|its\s+|their\s+|a\s+)?(?:[a-z'’-]+\s+){0,2}?(?=[£$€]\s?\d)")


_MONEY_LABEL = re.compile(r"(?i)\b(?:value|amount|total|price|cost|spend|budget|fee|salary|revenue)\b")


def comparison_problems(st: Statement, entities: list[int], records: Records, scope: Scope) -> list[Verdict]:
    """An item said to be under or over an amount ("CTR-2447 was left out because its annual value is under
    the £30,000 threshold") where none of its amounts is: the statement names one identifier, and the
    amounts compared are the item's own (those whose label a word of the statement says, where one does)."""
    ids = [k for k in records.keys_in(st.text) if k.startswith("#")]
    if len(ids) != 1 or not entities or _plans(st.text) or _NOT_BEFORE.search(st.text):
        return []
    rows = [i for i in entities if records.entities[i].collection != "mail"
            and not records.entities[i].collection.endswith(("#lines", "#mail"))]
    amounts = [(label, float(a.value)) for i in rows for label, a in records.entities[i].values("number")
               if label and (a.currency or not float(a.value).is_integer() or _MONEY_LABEL.search(label))]
    if not amounts:
        return []
    words = _word_set(st.text)
    named = [(l, v) for l, v in amounts if label_words(l) & {w[:5] for w in words}] or amounts
    out = []
    for m in _COMPARED.finditer(st.text):
        limit = next(iter(claims_in(st.text[m.end():m.end() + 20], year=scope.year, kinds=("number",))), None)
        if limit is None or not limit.currency:
            continue
        below = m.group("op").lower() in ("under", "below", "less than", "lower than")
        bound = float(limit.value)

        def holds(v: float) -> bool:
            return v < bound if below else v > bound

        said = [c for c in claims_in(st.text[max(0, m.start() - 60):m.start()], year=scope.year, kinds=("number",))
                if c.currency][-1:]
        if said and holds(float(said[0].value)):
            continue  # "a refund of £1,040.00, which is above the £1,000.00 limit": the amount just before it
        if not any(holds(v) for _l, v in named):
            label, v = named[0]
            out.append(Verdict(st.text, st.text[m.start():m.end()] + limit.text, "comparison", "false",
                               f"is not true of {records.entities[rows[0]].name}: its {label!r} is {v:,.2f}"))
    return out


_MEASURED = re.compile(r"(?i)(?<![\w.,£$€])(?P<n>\d{1,3})(?:\s*-\s*|\s+)(?P<unit>days?|weeks?|months?|hours?|minutes?|"
                       r"mins?|nights?)\b(?P<after>(?:[\s'’-]+[a-z]+){0,3})")


_RULE_SPAN = re.compile(r"(?i)[\s'’-]+(?:window|rule|limit|cut-?off|threshold|maximum|minimum|allowance)\b")
_RELATIVE_SPAN = re.compile(r"(?i)[\s'’-]+(?:ago|left|remaining|away|to go|from now|from today|later|earlier|before|after|"
                            r"overdue|late|early|since|until|till|past|beyond|ahead|out)\b")


_WEEKS_FROM_NOW = re.compile(r"(?i)(?<![\w.,-])(?P<n>\d{1,2}|" + "|".join(NUMBER_WORDS) + r")\s+weeks?\s+"
                             r"(?:left|away|to go|from now|from today|remaining)\b")


_WEEKS_RULE = re.compile(r"(?i)\b(?:at least|at most|within|up to|no later than|no more than|more than|less than|"
                         r"fewer than|minimum|maximum|must|should|policy|rule)\b")


def weeks_left_problems(st: Statement, scope: Scope) -> list[Verdict]:
    """A span of weeks from today ("so Aiko has only about three weeks left to act") that no date of its
    sentence is near: 30 January is eleven weeks away on 16 November."""
    if scope.now is None:
        return []
    out = []
    today = scope.now.date()
    for m in _WEEKS_FROM_NOW.finditer(st.text):
        if _WEEKS_RULE.search(st.text[max(0, m.start() - 24):m.start()]):
            continue  # "at least two weeks ahead", "within three weeks": a rule, not a span of now
        days = [c.value for c in claims_in(st.text, year=scope.year, kinds=("date",)) if isinstance(c.value, date)]
        if not days:
            continue
        n = _number(m.group("n"))
        if not any(abs(abs((d - today).days) / 7 - n) <= 1 for d in days):
            out.append(Verdict(st.text, m.group(0), "number", "false",
                               f"counts {n} weeks from today ({today:%d %B %Y}), but "
                               f"{', '.join(f'{d:%d %B %Y}' for d in days)} is not that far"))
    return out


_DUE_RELATIVE = re.compile(r"(?i)\b(?P<label>due|expires?|expiring|ends?|ending)\s+(?:on\s+)?(?P<rel>today|tomorrow|yesterday)\b")
_OFFSET = {"today": 0, "tomorrow": 1, "yesterday": -1}


def relative_day_problems(st: Statement, entities: list[int], records: Records, scope: Scope) -> list[Verdict]:
    """A day said as today, tomorrow or yesterday of what the statement names ("Mei's A133 falls due
    today") where its row's date of that kind is another day."""
    if scope.now is None:
        return []
    out = []
    for m in _DUE_RELATIVE.finditer(st.text):
        stem = m.group("label").lower()[:3]
        dates = {c.value for label, c, _i in _attrs(records, _owners(records, entities, st.text), "date")
                 if isinstance(c.value, date) and stem in (label or "").lower()}
        if not dates or re.search(r"(?i)\b(?:not|n't|no longer|if|until)\b", st.text[max(0, m.start() - 25):m.start()]):
            continue
        day = scope.now.date() + timedelta(days=_OFFSET[m.group("rel").lower()])
        if day not in dates:
            out.append(Verdict(st.text, m.group(0), "date", "false",
                               f"gives {m.group('rel')} ({day:%d %B %Y}), but its {m.group('label')} date is "
                               f"{', '.join(sorted(f'{d:%d %B %Y}' for d in dates))}"))
    return out


def measure_problems(st: Statement, entities: list[int], records: Records, scope: Scope) -> list[Verdict]:
    """A duration said of a row that the statement names ("a 30-day notice period", "45 minutes") where
    the row states that duration under a label the words around it name ("Notice period (days)": 90):
    a small whole number is otherwise read as a count and left alone."""
    out = []
    spans = records.keys_in(st.text) if _MEASURED.search(st.text) else {}
    for m in _MEASURED.finditer(st.text):
        n = float(m.group("n"))
        unit = m.group("unit").casefold()[:3]
        before = re.split(r"[,|;]", st.text[max(0, m.start() - 30):m.start()])[-1]  # its own cell or clause
        if _RULE_SPAN.match(m.group("after")):
            continue  # "well outside the 60-day window": a rule's span (the policy's), not the row's duration
        if _OTHERS_CLAUSE.search(re.split(r"[;:]|\band\b", st.text[:m.start()])[-1]):
            continue  # "the longest was 9 days (YE-2608-0256); the other six were 8 days late": of the others
        relative = _RELATIVE_SPAN.match(m.group("after"))
        if relative and not any(label_words(relative.group(0)) & label_words(label)
                                for label, _a, _i in _attrs(records, entities, "number")):
            continue  # "passed 14 days ago", "75 days left": a span from today, not the row's duration; but
            # "9 days late" of a row with a "Days late" column is that column's
        words = label_words(before + " " + m.group("after"))
        if not words:
            continue
        labelled = [(label, a, i) for label, a, i in _attrs(records, entities, "number")
                    if words & label_words(label) and (unit in label.casefold() or "period" in label.casefold()
                                                       or "duration" in label.casefold() or "length" in label.casefold())]
        if not labelled or any(float(a.value) == n for _l, a, _i in labelled):
            continue
        if any(c.kind == "number" and float(c.value) == n and (not about or about & set(entities))
               for about, c in scope.about):
            continue  # the gold says it of this row (a figure it worked out)
        label, value, i = labelled[0]
        at = [spans[k] for k in records.entities[i].keys if k in spans]
        if at and all(start >= m.end("unit") for start, _end in at):
            continue  # "six at 9 days and Saltmarsh Cleaning's SC-2608-0265 at 8": said of others, before it is named
        out.append(Verdict(st.text, m.group(0).strip(), "number", "false",
                           f"is not what the office says of {records.entities[i].name}: its {label!r} is {shown(value)}"))
    return out


def _hedges(text: str, year: int | None) -> list[Verdict]:
    """A value followed by another of its kind offered as an alternative in parentheses ("£1,425.00 (or
    £1,044.00)", "at 10:30 (or 11:00)"): one of them is not what the office says, whichever is true."""
    out = []
    for m in _HEDGE.finditer(text):
        inside = claims_in(m.group(0), year=year, kinds=("number", "date", "time"))
        window = text[max(0, m.start() - 60):m.start()]
        # the value right before it, or before a noun or two ("the 8 invoices (or 9)")
        before = [c for c in claims_in(window, year=year, kinds=("number", "date", "time"))
                  if re.fullmatch(r"[\s,;]*(?:[A-Za-z][\w'’-]*\s*){0,2}", window[c.end:])]
        if inside and before and {c.kind for c in inside} & {c.kind for c in before}:
            out.append(Verdict(text[max(0, m.start() - 40):m.end()].strip(), m.group(0), inside[0].kind, "false",
                               "offers another value as an alternative: the office has one"))
    for m in _HEDGE_OR.finditer(text):  # "1 October, or maybe 9 October"
        after = [c for c in claims_in(text[m.end():m.end() + 40], year=year, kinds=("number", "date", "time"))
                 if c.start <= 1]
        window = text[max(0, m.start() - 40):m.start()]
        before = [c for c in claims_in(window, year=year, kinds=("number", "date", "time"))
                  if not window[c.end:].strip(" ,;")]
        if after and before and {c.kind for c in after} & {c.kind for c in before}:
            out.append(Verdict(text[max(0, m.start() - 40):m.end() + 40].strip(), after[0].text, after[0].kind, "false",
                               "offers another value as an alternative: the office has one"))
    return out


_HEDGE_OR = re.compile(r"(?i)(?<![\w-])or[ \t]+(?:maybe|possibly|perhaps|else|rather|even)[ \t]+(?=\S)")  # starts only at "or"


def statements_about(text: str, records: Records, year: int | None, neutral: Iterable[str] = (),
                     subject: str = "") -> list[tuple[frozenset[int], Claim]]:
    """(the entities a statement is about, a value it states) for every value of ``text``: what the gold
    says of which item."""
    binder = Binder(records, neutral)
    about_subject = binder.bind(subject)[0] if subject else []
    bound: list[list[int]] = []
    owned: list[list[int]] = []
    out = []
    statements = cut(text)
    for i, st in enumerate(statements):
        own, spans = binder.bind(st.text)
        pointed = [] if own else _pointed_back(st, statements, i, owned)
        entities = own or (bound[st.head] if st.head is not None and st.head < len(bound) else []) \
            or pointed or about_subject
        bound.append(entities)
        owned.append(own or pointed)
        out += [(frozenset(entities), c) for c in _values(st, spans, year)]
    return out


def _values(st: Statement, key_spans: list[tuple[int, int]], year: int | None) -> list[Claim]:
    """The values a statement states (its keys are what it is about, not what it says of it)."""
    out = []
    for c in claims_in(st.text, year=year, kinds=READ_KINDS):
        if any(s <= c.start < e for s, e in key_spans) or c.kind in ("id", "email"):
            continue
        if _plain_count(c, st.text) or (c.kind == "number" and _MEASURE.match(st.text, c.end)):
            continue
        if _OTHERS_CLAUSE.search(st.text, 0, c.start):
            continue  # "A180 and A181 are overdue; the rest are due between 8 and 15 December": of others
        out.append(c)
    return out


# a clause about the items the statement does not name: from its opening words to the value
# the end of an item's own term, not a range's bound: "a contract (CTR-2321) that runs until 30 November 2027"
_RUNS_UNTIL = re.compile(r"(?i)\b(?:runs?|running|ran|is valid|valid|lasts?|in force|continues?|term(?: runs)?)\s+"
                         r"(?:until|till|through|to)\s*$")


def _attrs(records: Records, entities: list[int], kind: str) -> list[tuple[str, Claim, int]]:
    return [(label, c, i) for i in entities for label, c in records.entities[i].attributes if c.kind == kind]


_WORDS = re.compile(r"[^\W_]{3,}")


@lru_cache(maxsize=4096)
def _word_set(text: str) -> frozenset[str]:
    """The words of ``text`` (three letters or more), case-folded, once per text."""
    return frozenset(w.casefold() for w in _WORDS.findall(text))


def _named_in_words(entity: Entity, text: str, bound: list[Entity]) -> bool:
    """Whether ``text`` names ``entity`` in its own words, in any order: most (two thirds, at least two) of
    the words of one of its names, two of them not words of what the statement is bound to ("the Willowby
    Packaging direct debit" names the statement line "Direct debit Willowby Packaging", which no key
    lookup finds; "Gull Point account review" does not name another customer's "account review")."""
    words = _word_set(text)
    theirs = {w for e in bound for k in e.keys for w in _word_set(k)}
    for key in entity.keys:
        if key.startswith("#") or "@" in key:
            continue
        own = _word_set(key)
        said = own & words
        if len(own) >= 2 and len(said) >= max(2, -(-2 * len(own) // 3)) and len(said - theirs) >= 2:
            return True
    return False


# a short lead-in before it too: "For context, they've placed 97 orders this year worth £180,838.50"
_ANAPHOR = re.compile(r"(?i)^\W*(?:(?:for context|in total|overall|altogether|in all|all told|by comparison|"
                      r"for reference|so far|this year|in (?:q[1-4]|20\d\d)),?\s+)?"
                      r"(?:of (?:that|this|these|those|which|them|it)|(?:that|this|these|those|it|they)\b)")


_POINTS_BACK = re.compile(r"(?i)\b(?:this|that|it|its|they|their|them)\b(?!\s+(?:week|month|year|morning|afternoon|quarter|time)\b)")


def _pointed_back(st: Statement, statements: list[Statement], i: int, owned: list[list[int]]) -> list[int]:
    """What a statement that names nothing points back to ("this is one of our largest contracts"): the
    one item the statement before it names, if it names one (a few records of one key), else nothing."""
    if i == 0 or not _POINTS_BACK.search(st.text) or not owned[i - 1]:
        return []
    before = owned[i - 1]
    return before if len(before) <= 4 else []


def _antecedent(statements: list[Statement], i: int) -> str:
    """The statement before the ``i``-th where that one opens by pointing back to it ("Invoices from
    Saltmarsh total £134,651.76." / "Of that, £46,042.75 is not yet paid."), else "". A short remark
    between them is passed over ("Bramble has invoiced £78,932.01 under CTR-2307. You may want to look at
    it. That is 28 invoices, £7,146.61 of which is still unpaid"): the two before, in one paragraph."""
    if i == 0 or not _ANAPHOR.match(statements[i].text):
        return ""
    before = statements[i - 1]
    if i > 1 and len(before.text) <= 60 and not any(ch.isdigit() for ch in before.text) \
            and "\n\n" not in before.text and statements[i - 2].form == before.form == "sentence":
        return f"{statements[i - 2].text} {before.text}"
    return before.text


_OTHERS_CLAUSE = re.compile(r"(?i)\b(?:everything|anything|all|everyone|anyone) else\b|\bthe (?:rest|others)\b|"
                            r"\b(?:all )?the (?:other|remaining) (?:(?:\d{1,3}|" + "|".join(NUMBER_WORDS) + r")\b|"
                            r"(?:ones|actions|items|invoices|orders|contracts|rows|payments|claims|customers|"
                            r"suppliers|deliveries|people|requests)\b)")


# the day a change takes effect, not the day notice is due: "formal notice: from 1 March 2027, our prices rise"
_TAKES_EFFECT = re.compile(r"(?i)\b(?:from|effective(?: from| on)?|starting(?: on| from)?|as of|beginning|"
                           r"with effect from)\s*$")


def _of_event(records: Records, words: str, entities: list[int], person: bool = False) -> bool:
    """Whether a statement about ``entities`` may give the date or time of an event whose ``words`` (title,
    description, attendees) are these: it names no item by an identifier, or the event names one it names;
    said to a ``person`` ("your review is on 17 November"), an event that names them."""
    if not person and not any(k.startswith("#") for e in entities[:200] for k in records.entities[e].keys):
        return True
    keys = set(records.keys_in(words))
    return any(keys.intersection(records.entities[e].keys) for e in entities[:200])


def _judge(c: Claim, st: Statement, entities: list[int], records: Records, scope: Scope,
           numbers: list[Claim], dates: list[date], antecedent: str = "", columns: Iterable[float] = (),
           sole: list[int] = (), person: bool = False) -> Verdict | None:
    def verdict(kind: str, why: str = "") -> Verdict:
        return Verdict(st.text, shown(c), c.kind, kind, why)

    # a day of the month the task names ("recharged on the 1st of each month") allows the day, not any date
    # of an item: "RENT-07-810 (Legal, 1 June 2026)" is read against that line's own date
    by_rule = any(same_claim(c, s) for s in scope.claims if isinstance(s.value, tuple))
    if any(same_claim(c, s) for s in scope.claims if not isinstance(s.value, tuple)) or (by_rule and not entities):
        return verdict("true")
    if scope.now is not None and c.kind == "date" and _same_date(c, scope.now.date()):
        # today, unless it is said as a date of the item the statement names that the item has otherwise:
        # "SO-72660, placed on 1 December" where the order's date is 26 November
        wrong = _today_as_own(c, st, entities, records)
        return verdict("false", wrong) if wrong else verdict("true")
    if any(same_claim(c, s) and _of_event(records, about, entities, person) for about, s in scope.events):
        # "your review is booked for 20 October at 14:00": the day of the event the agent booked, unless the
        # statement is about an item the event does not name ("CTR-2314 expires 31 March 2027", the day of
        # another contract's reminder)
        return verdict("true")
    if c.kind == "time" and entities and _BOOKED.search(st.text):
        # "Your probation review is booked for Friday 11 December, 14:00-15:00" where the episode booked the
        # event that names them at 15:00: another event's time (of the gold's other mails) is not theirs
        theirs = [s for about, s in scope.events if s.kind == "time" and _of_event(records, about, entities, True)]
        if theirs and not any(same_claim(c, s) for s in theirs):
            return verdict("false", f"is not a time of the event booked for {records.entities[entities[0]].name} "
                                    f"({', '.join(sorted({shown(s) for s in theirs}))[:60]})")
    gold_says = any(same_claim(c, s) for s in scope.written)
    if _money(c) and said_as_limit(c, st.text):
        # "£41.80, under the £60.00 daily limit": the policy's figure, true where a line of the office states
        # it with the words the statement gives; a limit no record, task or gold states is false
        if scope.stated_limit is not None and scope.stated_limit(c, st.text):
            return verdict("true")
        if not gold_says and not records.holders(c):
            return verdict("false", "is given as a limit, but no record of the office or the task states it")
        return None
    clause_at = max((m.end() for m in _CLAUSE.finditer(st.text, 0, c.start)), default=0)
    if entities and _OTHERS_CLAUSE.search(st.text, clause_at, c.start):
        # "A133 is due tomorrow, and everything else falls due between 27 October and 3 November": the
        # items it names are not what this clause is about
        return verdict("true") if gold_says else None
    own = _attrs(records, entities, c.kind)
    matching = [(label, a, i) for label, a, i in own if same_claim(c, a)]
    # the labels that say what a value is are those of the items the statement names by their own
    # identifier: "PO-4851 was due on 23 November" is the order's due (its Promised), not the Due of
    # the invoice that refers to the order
    labelled_own = _attrs(records, _owners(records, entities, st.text), c.kind)
    if c.kind == "date" and isinstance(c.value, date) and "notic" in _gap_words(c, st) and not _TAKES_EFFECT.search(
            st.text[max(0, c.start - 30):c.start]) and not (
            gold_says and any(same_claim(c, g) and about.intersection(entities) for about, g in scope.about)):
        wrong = _notice_date_problem(c, _owners(records, entities, st.text, strict=True), records)
        if wrong:  # "notice by 2027-04-30", the contract's expiry, where notice is due 30 days before it
            return verdict("false", wrong)
    if gold_says and any(same_claim(c, g) and ((not about and not person) or about.intersection(entities))
                         for about, g in scope.about):
        # the gold states this value of this item (a figure it worked out, a correction); but not under
        # the name of another of its columns: "promised 15 July, delivered 11 July", dates swapped
        wrong = matching and _wrong_label(c, st, labelled_own, matching,
                                          _owners(records, entities, st.text, strict=True))
        return verdict("false", wrong) if wrong else verdict("true")
    if matching:
        wrong = _wrong_label(c, st, labelled_own, matching, _owners(records, entities, st.text, strict=True)) \
            or _of_another(c, st, records, matching)
        return verdict("false", wrong) if wrong else verdict("true")
    if c.kind == "date" and date_after_span(c, st.text, records, today=scope.now.date() if scope.now else None):
        return verdict("true")  # "six months on is 6 November": a date of its record, a span the statement gives on
    if c.kind == "number" and _money(c) and said_as_rate(st.text, c) and any(
            _per_unit(c, st.text, _attrs(records, about, "number"), records, about, scope.year)
            for about in (entities, sole) if about):
        return verdict("true")  # "yours was £182.00 a night": the item's amount over its nights
    if _derived(c, records, entities, numbers, dates) or sum_of_rows(c, st.text, records) \
            or (antecedent and sum_of_rows(c, f"{antecedent} {st.text}", records)):
        return verdict("true")
    if c.kind == "number" and _money(c) and any(abs(abs(float(c.value)) - t) <= tolerance(c.text) * 1.0001
                                                for t in columns):
        return verdict("true")  # the total of a column of the text's own table
    if c.kind == "number" and _money(c) and scaled_by_words(c, st.text, " ".join(scope.texts[:1]), scope.year):
        return verdict("true")  # "its £87,750.00 line": an amount of it times the task's "one and a half"
    # the gold says it only of other items (another order's date in the gold's sheet): no warrant for this one
    of_others = gold_says and all(about and not about.intersection(entities)
                                  for about, g in scope.about if same_claim(c, g))
    bound = _BOUND_BEFORE.search(st.text[max(0, c.start - 14):c.start])
    if bound and any(bound.group(1).lower() in (label or "").lower() for label, _a, _i in labelled_own):
        bound = None  # "a customer since 14 April 2019": its "Customer since" column
    if (not gold_says or of_others) and (c.kind == "date" or _money(c)) and not _plans(st.text) \
            and not bound:  # "actions raised since 6 October": a bound of a span, not the row's Raised
        words = _gap_words(c, st)
        labelled = [(label, a, i) for label, a, i in labelled_own if words and label and words & label_words(label)]
        if labelled:  # "CTR-2300 expires 31 January 2027" where its Expiry is 28 February: the labelled value
            label, value, i = labelled[0]
            return verdict("false", f"is given as {label!r}, but the office's {label!r} of {records.entities[i].name} "
                                    f"is {shown(value)}")
    if entities and (c.kind == "date" or _money(c)) and of_others:
        wrong = _against_gold(c, st, entities, records, scope)
        if wrong:
            return verdict("false", wrong)
    if not entities:
        return verdict("true") if gold_says else None
    if _BOUNDARY.search(st.text[max(0, c.start - 30):c.start]) and not _RUNS_UNTIL.search(st.text[max(0, c.start - 30):c.start]):
        if c.kind == "date" and isinstance(c.value, date) and _OVERDUE_SINCE.search(st.text[max(0, c.start - 30):c.start]):
            # "A129, overdue since 22 October": the day its due date passed
            dues = [a.value for _l, a, _i in labelled_own or own if isinstance(a.value, date) and label_words(_l) & _DUE_WORDS]
            if dues and not any(abs((c.value - d).days) <= 1 for d in dues):
                return verdict("false", f"is given as the day it fell overdue, but the office's due date of "
                                        f"{records.entities[entities[0]].name} is "
                                        f"{', '.join(sorted({d.isoformat() for d in dues}))}")
        return verdict("true") if gold_says else None  # "orders since 1 August": a range's end, not an attribute
    if c.kind == "date" and _MAIL_VERB.search(st.text[max(0, c.start - 60):c.start]) \
            and mail_between_on(c, entities, records):
        return verdict("true")  # "I answered the second message (SO-72071) on 30 November": that reply's day
    if (c.kind == "date" or _money(c)) and not _plans(st.text):
        swapped = _same_column_of_another(c, st, records, entities)
        if swapped:
            return verdict("false", swapped)
    holders = records.holders(c)
    collections = {records.entities[i].collection for i in entities}
    if holders and all(records.entities[h].collection in collections for h in holders):
        if any(_named_in_words(records.entities[h], st.text, [records.entities[e] for e in entities])
               for h in holders):
            return verdict("true")  # the statement names that other item too ("the Willowby direct debit of £245.01")
        # another item's value beside this one: false even where the gold states it (of that other item)
        rival = records.entities[holders[0]]
        theirs = ", ".join(sorted({shown(a) for _l, a, _i in own}))[:120] or "none"
        return verdict("false", f"is not what the office says of {records.entities[entities[0]].name} "
                                f"({theirs}); it is {rival.name}'s")
    if gold_says:
        return verdict("true")
    owners = _owners(records, entities, st.text, strict=True)
    if holders and owners and c.kind == "date" and _checkable(c, st, scope) \
            and _STATED.search(st.text[max(0, c.start - 40):c.start]) and [a for _l, a, i in own if i in owners] \
            and not any(_named_in_words(records.entities[h], st.text, [records.entities[e] for e in entities])
                        for h in holders[:50]):
        # "A129 was due on 22 October" where A129's date is 22 September: another thing's date (a meeting's,
        # another line's) does not make it this item's
        theirs = ", ".join(sorted({shown(a) for _l, a, i in own if i in owners}))[:120]
        return verdict("false", f"is not what the office says of {records.entities[owners[0]].name} ({theirs})")
    if not holders and own and _checkable(c, st, scope):
        theirs = ", ".join(sorted({shown(a) for _l, a, _i in own}))[:120]
        return verdict("false", f"is not what the office says of {records.entities[entities[0]].name} ({theirs}), "
                                "and no record of the office, the task or a sum of them gives it")
    stranger = _held_by_strangers(c, st, entities, holders, records, scope, numbers)
    if stranger:
        return verdict("false", stranger)
    return None


# an amount named as a limit ("under the £60.00 daily meals limit", "above the £160.00 Lisbon cap"): a rule
# the decision is measured by, not an amount of the item the statement names
LIMIT_AFTER = re.compile(r"(?i)(?:\s+(?!limit|cap|above|over|below|under|beyond|more|less|than|within|past|into)"
                         r"[\w'’-]+){0,3}?\s+(?:limit|cap|allowance|maximum|ceiling|threshold)s?\b")
_LIMIT_BEFORE = re.compile(r"(?i)\b(?:(?:limit|cap|allowance|maximum|ceiling|threshold)\s+(?:of|is|was|at)|"
                           r"(?:caps?|capped|limits?|limited)\b(?:\s+[\w'’-]+){0,4}?\s+(?:at|to))\s+$")


def said_as_limit(c: Claim, text: str) -> bool:
    """Whether an amount is said as a limit: "the £60.00 daily limit", "a cap of £160.00"."""
    return bool(LIMIT_AFTER.match(text, c.end)) or bool(_LIMIT_BEFORE.search(text[max(0, c.start - 30):c.start]))


_BOOKED = re.compile(r"(?i)\b(?:booked|scheduled|set up|invited?|invitation|calendar|meeting|review|call)\b")


def _today_as_own(c: Claim, st: Statement, entities: list[int], records: Records) -> str | None:
    """Why today's date, said under the name of one of the named item's own dates, is not that date."""
    if _plans(st.text) or _BOUNDARY.search(st.text[max(0, c.start - 30):c.start]):
        return None
    owners = _owners(records, entities, st.text, strict=True)
    own = _attrs(records, owners, "date")
    if not own or any(same_claim(c, a) for _l, a, _i in own):
        return None
    words = _gap_words(c, st)
    labelled = [(label, a, i) for label, a, i in own if words and label and words & label_words(label)]
    if not labelled:
        return None
    label, value, i = labelled[0]
    return f"is given as {label!r}, but the office's {label!r} of {records.entities[i].name} is {shown(value)}"


def _own_rows(records: Records, key: str) -> list[int]:
    """The rows of the tables that hold ``key`` in one row only (a customer's row of the customer list, of the
    contracts register), once per records and key."""
    found = records.__dict__.setdefault("_own_rows", {})
    if key not in found:
        by_table: dict[str, list[int]] = {}
        for i in records.by_key.get(key, ()):
            e = records.entities[i]
            if "#" in e.collection and not e.collection.endswith(("#lines", "#mail")):
                by_table.setdefault(e.collection, []).append(i)
        found[key] = sorted(rows[0] for rows in by_table.values() if len(rows) == 1)
    return found[key]


NAMED_RECORDS = 4  # an item's own records (a contacts row, a contract row); more is a party with many rows


def _held_by_strangers(c: Claim, st: Statement, entities: list[int], holders: list[int], records: Records,
                       scope: Scope, numbers: list[Claim]) -> str | None:
    """Why an amount or date said of an item the statement names is false (or None): the item has values of that
    kind, none of them is this one, and only records that share no name or identifier with it hold it.
    "Kite Field Sports … (£41,000 a year)" where its row says £14,000 and £41,000 is another customer's: that
    the value stands somewhere in the office is no warrant for saying it of this customer."""
    if not (c.kind == "date" or _money(c)) or not _checkable(c, st, scope):
        return None
    spans = records.keys_in(st.text)
    said = [k for k in spans if any(k in records.entities[e].keys for e in entities)]
    # the item's own rows: the tables that list it once (its contacts row, its contract row); the rows that
    # only mention it (its orders) are read elsewhere, as sums and the like
    named = sorted({i for k in said for i in _own_rows(records, k)})
    if not named or len(named) > NAMED_RECORDS:
        return None
    theirs = [a for e in named for label, a in records.entities[e].values(c.kind)
              if c.kind == "date" or _money(a) or _MONEY_LABEL.search(label)]
    if not theirs or any(same_claim(c, a) for a in theirs) or _derived(c, records, named, numbers, []):
        return None
    # a record about this item is one that holds what the statement calls it by, its row's identifiers or its
    # address (a mail they sent), not one that shares some other name with its row (another contract's owner)
    kin = set(said) | {k for e in named for k in records.entities[e].keys if "@" in k or k.startswith("#")}
    if c.kind == "date" and _MAIL_VERB.search(st.text[max(0, c.start - 60):c.start]) and any(
            records.entities[h].collection == "mail" for h in holders):
        return None  # "Amara Ueda wrote on 10 October 2026": the day of a message, not a date of her row
    if any(kin.intersection(records.entities[h].keys) for h in holders[:200]) or any(
            _named_in_words(records.entities[h], st.text, [records.entities[e] for e in entities]) for h in holders[:50]):
        return None  # a record about this item, or one the statement names too, holds it
    shown_theirs = ", ".join(sorted({shown(a) for a in theirs}))[:120]
    held = f"; only records about other things hold it (e.g. {records.entities[holders[0]].name})" if holders else \
        ", and no record of the office gives it"
    start, end = spans[said[0]]
    return f"is not what the office says of {st.text[start:end]} ({shown_theirs}){held}"


# a verb of writing before a date: the date is a mail's, not the item's
_MAIL_VERB = re.compile(r"(?i)\b(?:answered|replied|responded|wrote|written|e-?mailed|sent|forwarded|chased|"
                        r"received|got back|heard back|reminded)\b(?:(?!\b(?:due|ordered|paid|delivered|invoiced)\b)[^.;\n])*$")


def mail_between_on(c: Claim, entities: list[int], records: Records) -> bool:
    """Whether a mail between the parties of the mails a statement is about (their senders and
    recipients) was sent on the claimed day."""
    parties = {str(a.value) for i in entities if records.entities[i].collection == "mail"
               for label, a in records.entities[i].attributes if label in ("from", "to") and a.kind == "email"}
    if not parties or not isinstance(c.value, date):
        return False
    index = records.__dict__.get("_mail_days")
    if index is None:  # each address: the days a mail from or to it was sent; once per records
        index = {}
        for e in records.entities:
            if e.collection != "mail":
                continue
            days = {a.value for label, a in e.attributes if label == "sent" and isinstance(a.value, date)}
            for label, a in e.attributes:
                if label in ("from", "to", "cc") and a.kind == "email":
                    index.setdefault(str(a.value), set()).update(days)
        records.__dict__["_mail_days"] = index
    outside = {p for p in parties if not any(p.partition("@")[2] == q.partition("@")[2] for q in parties if q != p)}
    return any(c.value in index.get(p, ()) for p in (outside or parties))


_OVERDUE_SINCE = re.compile(r"(?i)\b(?:overdue|late|past (?:its |their )?due(?: date)?|outstanding)\s+since\s+(?:the\s+)?"
                            r"(?:[A-Za-z]+,?\s+)?$")
_DUE_WORDS = {"due", "deadl"}
ALIGNED_ENTITIES = 12  # a statement bound to more items than this is about a group, not one item


def _notice_date_problem(c: Claim, owners: list[int], records: Records) -> str | None:
    """Why a date said to be an item's notice date is not (or None): the item states no notice date but
    a notice period and an end, and the date is not the end less the period."""
    from officesim.evaluators.timing import DEADLINE_LABEL, notice_deadlines

    for i in owners[:3]:
        e = records.entities[i]
        if any(label_words(l) & {"notic"} for l, _a in e.values("date")):
            continue  # a notice date of its own: read as any labelled value
        found = [(l, a.value) for l, a in e.values("date") if isinstance(a.value, date) and DEADLINE_LABEL.search(l)]
        due = notice_deadlines(records, i, found)
        # a deadline on a weekend may be given as the Friday before it or the Monday after
        near = {d + timedelta(days=k) for _l, d in due for k in range(-2, 3) if d.weekday() >= 5} | {d for _l, d in due}
        if due and not any(_same_date(c, d) for d in near):
            return (f"is given as the notice date, but {e.name} ends {', '.join(sorted({d.isoformat() for _l, d in found}))} "
                    f"and notice is due by {', '.join(sorted({d.isoformat() for _l, d in due}))}")
    return None


def gold_values_of(scope: Scope, entities: Iterable[int], kind: str) -> list[Claim]:
    """The values of one kind (a date; an amount) the gold's own texts give of what ``entities`` are."""
    ents = set(entities)
    return [g for about, g in scope.about if about and about & ents and g.kind == kind
            and (kind != "number" or _money(g))]


def _against_gold(c: Claim, st: Statement, entities: list[int], records: Records, scope: Scope) -> str | None:
    """Why a date or an amount that is no attribute of the item it is said of, and no step from them,
    contradicts what the task's solution gives that item (or None): the gold gives this item its own
    value of that kind, and this one is what it gives only other items ("Mei's six-month date,
    20 December", where 20 December is Grace's and Mei's is 25 December). Called only for such a value: one
    nothing states may be worked out over rows or sentences ("Of that, £7,512.66 is not yet paid")."""
    if len(entities) > ALIGNED_ENTITIES:
        return None
    if c.kind == "date" and not (_STATED.search(st.text[max(0, c.start - 40):c.start]) or _gap_words(c, st) & {
            w for _l, a, _i in _attrs(records, entities, "date") for w in label_words(_l)}):
        return None  # a date of something else the sentence tells ("moved to you from Asha on 29 September")
    mine = gold_values_of(scope, entities, c.kind)
    if not mine or any(same_claim(c, g) for g in mine):
        return None
    theirs = {i for about, g in scope.about if same_claim(c, g) for i in about}
    bound = [records.entities[e] for e in entities]
    if any(_named_in_words(records.entities[i], st.text, bound) for i in sorted(theirs)[:20]):
        return None  # the sentence names that other item too: "a Willowby direct debit of £245.01 and the charge"
    this = records.entities[entities[0]].name
    given = ", ".join(dict.fromkeys(shown(g) for g in mine))[:120]
    whose = sorted({records.entities[i].name for i in theirs})
    return f"is what the task gives of {', '.join(whose[:2])}, not of {this} (its is {given})"


ROWS_SUMMED = 600  # rows of one name a sum is worked out over (a supplier's invoices of a year)


def sum_of_rows(c: Claim, text: str, records: Records, involved: frozenset[str] | None = None) -> bool:
    """Whether an amount is the total of one column over the rows of one table that name something the
    statement names: all of them, those with or without a value under another column ("of which
    £46,042.75 not yet paid": the rows with no Paid date), or those of one value of a column of few values
    ("£12,400 of it for Freight"); each of these over the rows of one year of a date column too ("invoiced
    this year ... of which £2,083.79 not yet paid", where older rows are unpaid too). True context a careful
    writer works out; an amount a slip makes is not one of these sums (``involved``: only over what the task
    names, see ``true_of_records``)."""
    if c.kind != "number" or not _money(c):
        return False
    value, tol = abs(float(c.value)), tolerance(c.text) * 1.0001
    text_keys = _keys_of(records, text)
    for key in text_keys:
        if involved is not None and key not in involved:
            continue  # only of what the task is about (see ``true_of_records``)
        groups: dict[str, list[Entity]] = {}
        for i in records.by_key.get(key, ())[:ROWS_SUMMED]:
            e = records.entities[i]
            if "#" in e.collection and not e.collection.endswith(("#lines", "#mail")):
                groups.setdefault(e.collection, []).append(e)
        for rows in groups.values():
            if len(rows) < 2:
                continue
            # a column of amounts: one whose values are money (a currency, or pence); a round value in it
            # (980.00) is an amount too
            money = {label for e in rows for label, a in e.attributes
                     if label and a.kind == "number" and (a.currency or not float(a.value).is_integer())}
            amounts: dict[str, list[tuple[Entity, float]]] = {}
            for e in rows:
                for label, a in e.attributes:
                    if label in money and a.kind == "number":
                        amounts.setdefault(label, []).append((e, float(a.value)))
            for label, pairs in amounts.items():
                labels = {l for e, _v in pairs for l, _a in e.attributes} | {l for e, _v in pairs for l, _w in e.names}
                # the sums over all the rows (None) and over the rows of each year of a date column: of
                # every row ("all"), of those with a value under a column, of one word of a column
                # each sum with how many rows it adds: a "sum" of one row is that row's own amount, which
                # another item's figure beside this one must not pass for ("WP-2609-0313, £2,340.47")
                sums: dict[tuple | None, dict[tuple, tuple[float, int]]] = {}
                for e, v in pairs:
                    have = {l for l, _a in e.attributes} | {l for l, _w in e.names}
                    marks = [("all",), *(("has", l) for l in have), *(("word", l, w) for l, w in e.words),
                             # the rows that also name another thing the text names ("Saltmarsh Cleaning" of CC-310)
                             *(("key", k) for k in e.keys if k != key and k in text_keys),
                             # the rows of one kind of reference: supplier invoices (YE-2607-0224), not the
                             # recharges (RENT-07-410) or the payroll (PAY-07-410) of the same ledger
                             *(("form", _REFERENCE_FORM.sub("9", a.text)) for _l, a in e.attributes[:3] if a.kind == "id")]
                    marks = list(dict.fromkeys(marks))  # a row counts once under each mark
                    dated = [(l, a.value) for l, a in e.attributes if a.kind == "date" and isinstance(a.value, date)]
                    # a year, a quarter or a month of a date column: "£55,403.72 in Q3", "£27,497.86 in July"
                    years = {(l, d.year) for l, d in dated} | {(l, d.year, "q", (d.month - 1) // 3) for l, d in dated} \
                        | {(l, d.year, "m", d.month) for l, d in dated}
                    for scope in (None, *years):
                        into = sums.setdefault(scope, {})
                        for mark in marks:
                            total, n = into.get(mark, (0.0, 0))
                            into[mark] = (total + v, n + 1)
                for into in sums.values():
                    if any(n >= 2 and abs(abs(t) - value) <= tol for t, n in into.values()):
                        return True
                    every, rows_in = into[("all",)]
                    if any(rows_in - into.get(("has", l), (0.0, 0))[1] >= 2
                           and abs(abs(every - into.get(("has", l), (0.0, 0))[0]) - value) <= tol for l in labels):
                        return True  # the rows without a value under that column
    return False


_REFERENCE_FORM = re.compile(r"[A-Za-z]+(?=-\d)|\d")  # "YE-2607-0224" -> "9-9999-9999": a reference's shape


def _owners(records: Records, entities: list[int], text: str, strict: bool = False) -> list[int]:
    """The bound entities whose own identifier (the first their record states) ``text`` writes; all of
    them (none if ``strict``) when none is (a row that only refers to an identifier, an invoice naming its order, is another
    thing than the one the identifier names)."""
    keys = {k for k in _keys_of(records, text) if k.startswith("#")}
    if not keys:
        return [] if strict else entities
    owners = []
    for i in entities:
        first = next((c for _l, c in records.entities[i].attributes if c.kind == "id"), None)
        if first is not None and id_key(str(first.value)) in keys:
            owners.append(i)
    return owners or ([] if strict else entities)


def _same_date(c: Claim, day: date) -> bool:
    return same_claim(c, Claim("date", day, day.isoformat()))


_WHOLE = re.compile(r"(?i)\b(?:all|every|total|overall|whole|altogether|combined|in all|across)\b")
def whole_table_total(c: Claim, text: str, records: Records) -> bool:
    """Whether an amount its sentence says is of everything ("all", "total", "overall") is the total of a
    column over a whole table of the office (``table_totals``)."""
    if c.kind != "number" or not _money(c):
        return False
    at = _sentence_at(text, c.start)
    if at is None or not _WHOLE.search(at[2]):
        return False
    value, tol = abs(float(c.value)), tolerance(c.text) * 1.0001
    totals = table_totals(records)
    k = bisect_left(totals, value - tol)
    return k < len(totals) and totals[k] <= value + tol


_MONTH_NAMED = re.compile(r"(?i)\b(?:in\s+|for\s+|than\s+|above\s+|below\s+|over\s+|under\s+)?(?P<month>january|february|march|"
                          r"april|may|june|july|august|september|october|november|december)(?:\s+(?P<year>20\d\d))?\b")


def month_total(c: Claim, text: str, records: Records, year: int | None) -> bool:
    """Whether an amount is the total of a column of amounts over a whole table's rows of a month its sentence
    names ("That's a little above September (£344,977.50)"): the month of the year it names, else of the task's."""
    if c.kind != "number" or not _money(c) or year is None:
        return False
    at = _sentence_at(text, c.start)
    if at is None:
        return False
    totals = None
    value, tol = round(abs(float(c.value)), 2), tolerance(c.text) * 1.0001
    for m in _MONTH_NAMED.finditer(at[2]):
        if m.group("month").lower() == "may" and not m.group(0)[:1].isupper() and not m.group("year"):
            continue  # "may" the verb
        totals = month_totals(records) if totals is None else totals
        month = [n.lower() for n in ("January", "February", "March", "April", "May", "June", "July", "August",
                                     "September", "October", "November", "December")].index(m.group("month").lower()) + 1
        key = (int(m.group("year")) if m.group("year") else year, month)
        if any(abs(t - value) <= tol for t in totals.get(key, ())):
            return True
    return False


def short_names(text: str, records: Records) -> dict[str, str]:
    """The first words a text uses alone for names it has written in full ("Elmstead Uniforms 27, … Elmstead
    has the largest unpaid balance"): first word -> the full name, where no other name it writes shares
    that word."""
    firsts: dict[str, set[str]] = {}
    for key, (lo, hi) in _keys_of(records, text).items():
        written = text[lo:hi].split()
        if len(written) >= 2 and len(written[0]) >= 4 and written[0][:1].isupper() and "@" not in key:
            firsts.setdefault(written[0], set()).add(text[lo:hi])
    out = {w: next(iter(names)) for w, names in firsts.items() if len(names) == 1}
    # a party called by its first word with a possessive ("Ironvale's £128,172.62 comes from 37 invoices")
    # where the text never writes it in full: the one party of the office whose name starts with that word
    for m in _POSSESSIVE_FIRST.finditer(text):
        word = m.group(1)
        if word not in out:
            owners = _party_firsts(records).get(fold(word), ())
            if len(owners) == 1:
                out[word] = next(iter(owners))
    return out


_POSSESSIVE_FIRST = re.compile(r"(?<![\w-])([A-Z][a-z]{3,})(?:'s|’s)(?![\w-])")


def _party_firsts(records: Records) -> dict[str, set[str]]:
    """First word -> the names of two words or more under a column of parties (a supplier, a customer), once
    per records."""
    found = records.__dict__.get("_party_firsts")
    if found is None:
        found = {}
        for (_collection, key), labels in records.name_labels.items():
            words = key.split()
            if len(words) >= 2 and "@" not in key and any(ANCHOR_COLUMN.search(label) for label in labels):
                found.setdefault(words[0], set()).add(key)
        records.__dict__["_party_firsts"] = found
    return found


def full_names(text: str, short: dict[str, str]) -> str:
    """``text`` with each name written by its first word alone (``short_names``) written in full."""
    for word, name in short.items():
        rest = name[len(word):]
        text = re.sub(rf"(?<![\w-]){re.escape(word)}(?!{re.escape(rest)})(?![\w-])", name, text)
    return text


_KEYS_SEEN: dict[tuple[int, str], tuple[Records, dict[str, tuple[int, int]]]] = {}


def _keys_of(records: Records, text: str) -> dict[str, tuple[int, int]]:
    """``records.keys_in(text)``, once per text: every value of a long statement asks for it."""
    key = (id(records), text)
    hit = _KEYS_SEEN.get(key)
    if hit is None or hit[0] is not records:  # the records are kept with it: an id is not reused meanwhile
        if len(_KEYS_SEEN) > 512:
            _KEYS_SEEN.clear()
        hit = _KEYS_SEEN[key] = (records, records.keys_in(text))
    return hit[1]


_OF_ITEM = re.compile(r"(?i)^\s*(?:,\s*)?(?:of|dated|issued|issued on|raised on|from|\()?\s*$")


def _same_column_of_another(c: Claim, st: Statement, records: Records, entities: list[int]) -> str | None:
    """A value given to an item the statement names by its own identifier that is, under the same column,
    another row's of the same table and not this item's ("PO-4658, Redfern IT Services, £10,618.24" where
    £10,618.24 is PO-4773's Amount and PO-4658's is £11,361.66): two items' values swapped, or None. The
    other row named in the statement too makes it a comparison, not a swap."""
    owners = _owners(records, entities, st.text, strict=True)
    if not owners:
        return None
    tables = {records.entities[o].collection for o in owners}
    words = _gap_words(c, st)
    mine = [records.entities[o] for o in owners]
    for h in records.holders(c)[:50]:
        other = records.entities[h]
        if h in entities or other.collection not in tables or _named_in_words(other, st.text, mine):
            continue
        labels = [label for label, a in other.attributes if label and a.kind == c.kind and same_claim(c, a)]
        if words:  # what the writer calls it must be that column ("ordered 16 October": its Ordered)
            labels = [label for label in labels if words & label_words(label)]
        for label in labels:
            for own in mine:
                theirs = [a for l, a in own.attributes if l == label and a.kind == c.kind]
                if theirs and not any(same_claim(c, a) for a in theirs):
                    return (f"is {other.name}'s {label!r}, not {own.name}'s (the office's {label!r} of "
                            f"{own.name} is {shown(theirs[0])})")
    return None


def _of_another(c: Claim, st: Statement, records: Records, matching: list[tuple[str, Claim, int]]) -> str | None:
    """A value written right after an identifier ("invoice UF-2611-0394 of 15 November") that is an
    attribute of another item the statement names, not of that identifier's (the duplicate's date given
    to the original), or None."""
    before = [(end, key, start) for key, (start, end) in _keys_of(records, st.text).items()
              if key.startswith("#") and end <= c.start and _OF_ITEM.match(st.text[end:c.start])]
    if not before:
        return None
    _end, key, start = max(before)
    near = set(records.named(key))
    if not near or any(i in near for _l, _a, i in matching):
        return None
    return (f"is given to {st.text[start:_end]}, but it is {records.entities[matching[0][2]].name}'s, "
            f"not {st.text[start:_end]}'s")


# "is not due until 25 December", "was due by 3 May": a due date stated, not a plan's deadline
_DUE_ON = re.compile(r"(?i)\b(?:is|was|are|were|isn't|wasn't|aren't|weren't|not|falls?|fell|falling)\s+(?:due|payable)\s+"
                     r"(?:until|till|by|before|on)\b")
_STATED = re.compile(r"(?i)\b(?:is|was|are|were|falls?|fell|due|starts?|started|ends?|ended|expires?|expired|runs?|ran|"
                     r"renews?|renewed|dated)\b(?:\s+[\w,]+){0,3}?\s*$")
_PROPOSED = re.compile(r"(?i)\b(?:let's|let us|how about|what about|can we|could we|shall we|propose|suggest|free|"
                       r"available|instead|new|now|moved|extended|revised|changed|agreed|rescheduled)\b|\?")


_CONDITION_AFTER = re.compile(r"(?i)\s(?:if|unless|should)\s(?:we|you|they|nobody|no one|notice)\b")


def _plans(text: str) -> bool:
    """Whether a statement plans, proposes or sets a deadline ("will", "by Friday", "until"), where "is not
    due until 25 December" states a due date rather than a plan."""
    return _PLAN.search(_DUE_ON.sub("due on", text)) is not None


_COARSE_CLAUSE = re.compile(r"(?i);|,\s*(?:so|and so|but|which|because)\b|\.\s")
_NEXT_CONJUNCT = re.compile(r"(?i)\s(?:and|but|so|while|whereas)\s(?!(?:\d|the \d))")


def _checkable(c: Claim, st: Statement, scope: Scope) -> bool:
    """Whether a value no record gives is false rather than the writer's own (a plan, a deadline it
    proposes): an amount, or a past date, in a clause that plans nothing ("At £130,500 a year this is
    one of our largest contracts, so please decide in time" states the amount; the plan is the next clause)."""
    lo = max((m.end() for m in _COARSE_CLAUSE.finditer(st.text, 0, c.start)), default=0)
    hi = next((m.start() for m in _COARSE_CLAUSE.finditer(st.text, c.end)), len(st.text))
    # up to the next conjunct: "expires on 31 January 2027 and renews automatically unless we give notice"
    # states the expiry; the condition is the renewal's
    turn = _NEXT_CONJUNCT.search(st.text, c.end, hi)
    if _plans(st.text[lo:turn.start() if turn else hi]):
        return False
    if c.kind == "number":
        return _money(c)
    if c.kind == "date" and isinstance(c.value, date) and scope.now is not None:
        if c.value <= scope.now.date():
            return True
        # a later date stated as the item's ("A129 was due on 22 October", "the call is on Monday 23
        # November"), not proposed ("let's meet on 25 November", "how about the 25th?")
        return _STATED.search(st.text[max(0, c.start - 40):c.start]) is not None and not _PROPOSED.search(st.text)
    return c.kind == "phone"


_POSTFIX_LABEL = re.compile(r"\s+[A-Za-z][A-Za-z ]{0,24}?\s*[/|,;]\s*")


def _gap_words(c: Claim, st: Statement) -> set[str]:
    """The words between ``c`` and the value or clause break before it: what the writer says it is."""
    before = st.text[:c.start]
    cut_at = max((m.end() for m in _CLAUSE.finditer(before)), default=0)
    last = None
    for d in claims_in(before, year=None, kinds=READ_KINDS):
        if d.end > cut_at:
            cut_at, last = d.end, d
    if last is not None and cut_at == last.end and _POSTFIX_LABEL.fullmatch(before[cut_at:]):
        return set()  # "2 October promised / 4 October delivered": the word after a value is that value's label
    words = label_words(before[cut_at:])
    if not words and last is not None and last.kind == "id":
        # the verb stands before the item it is about: "We paid invoice RI-2606-0189 on 15 July"
        start = max((m.end() for m in _CLAUSE.finditer(before, 0, last.start)), default=0)
        start = max([start, *(d.end for d in claims_in(before[:last.start], year=None, kinds=READ_KINDS))])
        words = label_words(before[start:last.start])
    return words


_DATE_BOUND = re.compile(r"(?i)\b(?:since|after|before|until|till|prior to|no later than|earlier than|later than)\s+"
                           r"(?:the\s+)?$")
_PAIRED = re.compile(r"(?i)\s*(?:against|vs\.?|versus|compared (?:with|to))\s+(?:a |an |the |its |their )?[£$€]?\s?\d")


def _wrong_label(c: Claim, st: Statement, own: list[tuple[str, Claim, int]],
                 matching: list[tuple[str, Claim, int]], owners: Iterable[int] = ()) -> str | None:
    """Why ``c`` is the entity's value under another name than the one written before it ("ordered on"
    the delivery date), or None."""
    words = _gap_words(c, st)
    if not words or _PAIRED.match(st.text, c.end):
        return None  # "closest to its contract: £108,894.93 against £101,000": the words are of the pair
    if _DATE_BOUND.search(st.text, max(0, c.start - 20), c.start):
        return None  # "the 17 actions raised since 8 September": a bound of the label's values, not one of them
    # only another column of an item the value belongs to, or of an item the statement names by its own
    # identifier ("PO-4649 ordered 16 June", the Issued of the invoice that refers to it, where the order's
    # Ordered is 13 June): "Rosa's leave starts on 27 November" is her leave's From, whatever the Start of a
    # contract she owns
    holders = {i for _l, _a, i in matching} | set(owners)
    named = [(label, a) for label, a, i in own if i in holders and label and words & label_words(label)]
    if not named or any(same_claim(c, a) for _l, a in named):
        return None
    if any(words & label_words(label) for label, _a, _i in matching):
        return None
    label, value = named[0]
    theirs = next(l for l, _a, _i in matching)
    return f"is given as {label!r}, but the office's {label!r} is {shown(value)} ({shown(c)} is its {theirs!r})"


def _derived(c: Claim, records: Records, entities: list[int], numbers: list[Claim], dates: list[date]) -> bool:
    if c.kind != "number":
        return False
    values = [a for _l, a, _i in _attrs(records, entities, "number")] + [n for n in numbers if n.start != c.start]
    if _money(c):  # an amount is not worked out with a count or a term ("£3,616.20" + "45" days is no amount)
        values = [a for a in values if a.currency or _money(a) or not float(a.value).is_integer()
                  or abs(float(a.value)) >= 1000]
    operands = [Operand(float(a.value), a.currency) for a in values][:MAX_OPERANDS]
    if one_step(float(c.value), c.text, operands, currency=c.currency) is not None:
        return True
    if total_of(float(c.value), c.text, [Operand(float(n.value), n.currency) for n in numbers
                                         if float(n.value) != float(c.value)], c.currency):
        return True
    own_dates = [a.value for _l, a, _i in _attrs(records, entities, "date") if isinstance(a.value, date)]
    return days_between(float(c.value), [*own_dates, *dates][:MAX_OPERANDS])


_IN_ALL = re.compile(r"(?i)(?<![\w.,£$€])(\d{1,3}|" + "|".join(NUMBER_WORDS) + r")\s+(?:in all|in total|altogether)\b")


# a number standing alone before a verb at a clause's start, the count a heading gives its list after a whole
# it was taken from: "Of the 13 deliveries you made, 7 arrived late:"
_BARE = re.compile(r"(?i)(?:(?:^|[,;—–.]\s*|\b(?:and|but)\s+)(\d{1,3}|" + "|".join(NUMBER_WORDS) + r")\s+"
                   r"(?:of (?:them|these|those) )?(?:were|are|was|is|arrived|came|went|remain|remained|need|needs|"
                   r"have|had|fell|ran|missed|show|showed|did|got)\b"
                   # "Of the six such orders, I found no approval mail for these two:"
                   r"|\b(?:these|those|the following|following|the other|the remaining)\s+(\d{1,3}|"
                   + "|".join(NUMBER_WORDS) + r")\b(?!\s*(?:%|per\b)))")
# a part of a whole: "7 of the 13 Pinecrest deliveries arrived late. The late orders were:" lists the seven
_PART_OF = re.compile(r"(?i)(?<![\w.,£$€])(\d{1,3}|" + "|".join(NUMBER_WORDS) + r")\s+(?:out\s+)?of\s+(?:the|these|those|its|their|our|your|his|her)\s+")
# "- Nadia Lin: 2", "- Umber Freight (3)", "- Asha Kovac: 1 (A140)": the count an item of a breakdown ends with
_ITEM_COUNT = re.compile(r"(?:[:—–]\s*|\()(\d{1,3})\)?(?:\s*\([^()]{1,120}\))?\s*\.?\s*$")


# "- Asha Kovac: 1 - A140, Larch Mill Breweries, due 27 October": the count right after the item's label
_ITEM_LEAD_COUNT = re.compile(r"\s*(?:[-*•]|\d{1,2}[.)])?\s*[^:\d\n]{2,60}:\s*(\d{1,3})(?=\s*(?:$|[-–—(,;]))")


def _breakdown_total(items: list[Statement]) -> int | None:
    """The sum of the counts every item ends with ("- Nadia Lin: 2", "- Umber Freight (3)"), or None."""
    found = [_ITEM_COUNT.search(s.text.strip()) or _ITEM_LEAD_COUNT.match(s.text) for s in items]
    if len(found) < 2 or not all(found):
        return None
    return sum(int(m.group(1)) for m in found)


def _noun_breakdown(items: list[Statement], noun: str) -> int | None:
    """The sum of the counts of ``noun`` every item gives ("- Umber Freight: 2 invoices, £16,388.15"), or None."""
    stem = noun.lower().rstrip("s")
    found = [re.search(rf"(?i)(?<![\w.,£$€])(\d{{1,3}})\s+{re.escape(stem)}s?\b", s.text) for s in items]
    if len(found) < 2 or not all(found):
        return None
    return sum(int(m.group(1)) for m in found)


def _table_breakdown(statements: list[Statement], index: int, noun: str) -> int | None:
    """The sum of a table's column headed by ``noun`` ("| Supplier | Invoices | Amount |" under "16 unpaid
    invoices ... By supplier:"), or None."""
    table = table_under(statements, index)
    if table is None:
        return None
    header, rows = table
    stem = noun.lower().rstrip("s")
    # "Invoices", or a header whose last word is the noun: "Open actions" under "6 open actions:"
    column = next((k for k, cell in enumerate(header) if cell.lower().rstrip("s") == stem
                   or cell.lower().split()[-1:] == [noun.lower()]), None)
    if column is None or not all(column < len(r) and r[column].isdigit() for r in rows):
        return None
    return sum(int(r[column]) for r in rows)


_SENTENCE_END = re.compile(r"[.!?]\s+(?=[A-Z])")
# the last sentence of a heading naming what its list holds: "The following customers are on fixed-term agreements:"
_LIST_NAMED = re.compile(r"(?i)\b(?:the following|these|those|here are the|below are the)\s+(?:[a-z-]+\s+){0,2}?([a-z]{3,}s)\b")
_WHOLE_BEFORE = re.compile(r"(?i)(?:^|[.;:]\s*)(?:out )?of (?:the|your|our|their|its|his|her|all|all the)\s+$")
_ALL_OF_THEM = re.compile(r"(?i)\b(?:all|every one of the|each of the|of the|out of)\s+$")
_POINTS_TO_COUNTED = re.compile(r"(?i)\b(?:they|them|these|those|here|below|as follows|details?|each|all|which|"
                                r"the list|breakdown|by \w+)\b")


# a verb of going through records: the count after it with "all" is the whole looked at, not what was found
_EXAMINED = re.compile(r"(?i)\b(?:compared|checked|cross-checked|read|reviewed|went through|gone through|looked (?:at|through)|"
                       r"scanned|searched|matched|opened|audited|examined)\b")
def _leading_number(said: str) -> int | None:
    """The count a counted phrase starts with ("three contracts", "26 signed contracts")."""
    first = said.split()[0] if said.split() else ""
    return _number(first) if first.isdigit() or first.lower() in NUMBER_WORDS else None


_MARKED_ITEM = re.compile(r"^\s*(?:[-*•–·]|\(?\d{1,2}[.)]|[a-z][.)])\s+")


_OWN_PART = re.compile(r"(?i)\s*(?:yours|mine|ours|his|hers|theirs|your (?:share|part|ones|customers|accounts)|"
                       r"(?:the ones |those )?for you)\s*:?\s*$")


def _count_problem(st: Statement, statements: list[Statement], index: int) -> Verdict | None:
    """A heading that counts what it heads ("Three invoices are still open:") over another number of items."""
    counts = [m for m in _COUNT.finditer(st.text)
              # "Due in the next 7 days:" is a span of time, not a count of what follows; "one" is a pronoun
              # as often as a count ("the North one goes to Nadia")
              if not (_MEASURE.match(" " + m.group(2)) or _number(m.group(1)) < 2
                      or (_SPAN.search(st.text[:m.start()]) and not _HANDED_OVER.search(st.text[:m.start()])))]
    # a whole counted in an earlier sentence of the heading ("I read all 26 signed contracts … Near misses, for
    # the auditors:") is not what the list holds, unless its last sentence points back ("Here they are:")
    last = max((m.end() for m in _SENTENCE_END.finditer(st.text)), default=0)
    if last and _OWN_PART.match(st.text, last):
        # "Dmitri's six customers have been split three ways: … Yours:": the list is the reader's part
        counts = [m for m in counts if m.start() >= last]
    elif last and not _POINTS_TO_COUNTED.search(st.text, last):
        counts = [m for m in counts if m.start() >= last or not _ALL_OF_THEM.search(st.text, 0, m.start())]
    # the whole the writer went through: "I compared the renewal clause in all 26 signed contracts …, so the list is:"
    counts = [m for m in counts if not (_ALL_OF_THEM.search(st.text, 0, m.start())
                                        and _EXAMINED.search(re.split(r"[.!?;]\s", st.text[max(0, m.start() - 120):m.start()])[-1]))]
    named = _LIST_NAMED.search(st.text, last) if last else None
    if named:  # "All twelve letters went out today. The following customers are on fixed-term agreements:"
        counts = [m for m in counts if m.start() >= last or m.group(2).lower().rstrip("s") == named.group(1).lower().rstrip("s")]
    # the whole a part is taken from: "Of your 14 customers, only one has placed no order since 12 October:"
    whole = [m for m in counts if _WHOLE_BEFORE.search(st.text, 0, m.start())]
    counts = [m for m in counts if m not in whole]
    bare = list(_BARE.finditer(st.text)) if not counts else []
    if not counts and not bare:
        return None
    items = items_under(statements, index)
    if not items:
        return None
    if len(items) == 1 and not _MARKED_ITEM.match(items[0].text) and " | " not in items[0].text:
        return None  # one plain line under the colon is prose that names them ("Five reviews, …:\nSorrel Bay …, then …")
    if not counts:  # only a count without its noun: "Of the 10 orders …, 3 have no approval. The ones I couldn't match:"
        if any(_number(m.group(1) or m.group(2)) in (len(items), _breakdown_total(items)) for m in bare):
            return None  # as many as its items, or the sum they break it down into ("- Nadia Lin: 2 (A144, A149)")
        if whole and any(_number(x) == len(items) for x in re.findall(
                r"(?i)\b(?:leaving|leaves|so|and|with|remain(?:ing)?|still)\s+(\d{1,3}|" + "|".join(NUMBER_WORDS) + r")\b",
                st.text)):
            return None  # "Of the 15 actions raised, 9 have been recorded as done, leaving 6 open:" over six
        m = bare[0]
        n = _number(m.group(1) or m.group(2))
        return Verdict(st.text, (m.group(1) or m.group(2)), "count", "false",
                       f"counts {n}, but {len(items)} are listed under it") if n >= 2 else None
    # a heading may count several things ("nine in all; three deadlines already passed and are left
    # out:"): it is false only when none of its counts is the number of items under it
    if any(_number(m.group(1)) == len(items) for m in [*counts, *_IN_ALL.finditer(st.text), *_PART_OF.finditer(st.text)]) \
            or any(_number(m.group(1) or m.group(2)) == len(items) for m in _BARE.finditer(st.text)):
        return None
    if any(_breakdown_total(items) == _number(m.group(1)) for m in counts):
        return None  # "6 open actions:" over "- Aiko Amari: 1", "- Nadia Lin: 2", …: a breakdown of the six
    if any(_noun_breakdown(items, m.group(2)) == _number(m.group(1)) for m in counts):
        return None  # "19 unpaid invoices ... By supplier:" over "- Umber Freight: 2 invoices, £16,388.15", …
    if any(_table_breakdown(statements, index, m.group(2)) == _number(m.group(1)) for m in counts):
        return None  # "16 unpaid invoices ... By supplier:" over a table with an "Invoices" column of 2, 2, …
    ids = {str(c.value) for it in items for c in claims_in(it.text, year=None, kinds=("id",))}
    if _breakdown_total(items) is None and any(len(ids) == _number(m.group(1)) for m in counts):
        return None  # "6 open actions:" over four owners' rows naming A140, A142, …: six identifiers in all
    m = counts[0]
    return Verdict(st.text, m.group(0), "count", "false",
                   f"counts {_number(m.group(1))} {m.group(2)}, but {len(items)} are listed under it")


_LISTED = re.compile(r"(?i)\s*(?:\((?P<paren>\d{1,3}|" + "|".join(NUMBER_WORDS) + r")\))?\s*(?:[:(—–]|\s-\s)")
_CONJUNCT = re.compile(r"\s*(?:,\s*(?:and|or)\s+|,\s*|\s+(?:and|or)\s+)")


_SPANS_OF_TIME = re.compile(r"(?i)days|weeks|months|years|hours|hrs|minutes|mins|nights|seconds|quarters")




_ID_RANGE = re.compile(r"(?i)\s*(?:-|–|—|to|through|thru|until)\s*")


def listed_counts(text: str, year: int | None) -> list[Verdict]:
    """A count followed in its own sentence by the list it counts ("four orders: SO-1, SO-2 and SO-3",
    "Ticket ids (three): T-1, T-2, T-3, T-4", "in all three places: the directory and the phone list")
    over another number of items: identifiers when the list names some, else its parts between commas
    and "and"."""
    out = []
    for st in cut(text):
        line = st.text
        # "Quick one from Harbourline accounts:" counts no accounts: a count's noun follows it with no preposition
        for m in re.finditer(r"(?i)(?<![\w.,£$€/#-])(?:(?P<n>\d{1,3}|" + "|".join(NUMBER_WORDS) +
                             r")\s+(?:(?!(?:from|of|at|in|on|for|to|with|by)\s)[a-z'’-]+\s+){0,3}?(?P<noun>[a-z]{3,}s)\b|(?P<noun2>[a-z]{2,}s)\s*(?=\(\s*(?:\d{1,3}|" +
                             "|".join(NUMBER_WORDS) + r")\s*\)))", line):
            tail = _LISTED.match(line, m.end())
            if not tail:
                continue
            word = m.group("n") or tail.group("paren")
            noun = m.group("noun") or m.group("noun2")
            if not word or _SPANS_OF_TIME.fullmatch(noun) or _SPAN.search(line[:m.start()]):
                continue
            rest = line[tail.end():]
            stop = re.search(r"[.;](?:\s|$)|\)", rest)
            rest = rest[:stop.start()] if stop else rest
            found = claims_in(rest, year=year, kinds=("id",))
            if len(found) == 2 and _ID_RANGE.fullmatch(rest[found[0].end:found[1].start]):
                continue  # "15 more deliveries (PO-4587 to PO-4632)": the first and last of a range
            ids = {str(c.value) for c in found}
            parts = [p for p in _CONJUNCT.split(rest.strip()) if p.strip()]
            n = _number(word)
            # parts between commas are items only when each is a name: "Olga and Grace on 8 December at
            # 14:00 and 15:00, Esme on 11 December" has two times to a person, and is not five items
            named = all(len(p.split()) <= 5 and not any(ch.isdigit() for ch in p) for p in parts)
            if tail.group(0).rstrip().endswith("(") and not all(p.strip()[:1].isupper() for p in parts):
                named = False  # "four duplicates (same PO and amount as an earlier invoice)" says what they are
            k = len(ids) if len(ids) >= 2 else (len(parts) if len(parts) >= 2 and not ids and named else None)
            if k is not None and k != n:
                out.append(Verdict(st.text, line[m.start():tail.end()].strip(" :(—–-"), "count", "false",
                                   f"counts {n} {noun}, but lists {k}"))
    return out


_DAYS = re.compile(r"(?i)(?:\b(?P<in>in)\s+)?(?<![\w.,£$€-])(?P<n>\d{1,3}|" + "|".join(NUMBER_WORDS) +
                   r")\s+(?:calendar\s+|working\s+|business\s+)?days?\s+(?:late|early|overdue|after|before|"
                   r"(?P<rel>ago|from (?:now|today)|away|left|to go|remaining|(?:from|after|before) today)|"
                   r"later|earlier|past (?:the |its |their )?due)\b|"
                   # "the review is in 10 days", "(in 10 days)": from today
                   r"\b(?P<in2>in)\s+(?P<n2>\d{1,3}|" + "|".join(NUMBER_WORDS) + r")\s+(?:calendar\s+)?days?\b(?!\s+(?:of|from|after|before))")
_BOUND = re.compile(r"(?i)\b(?:more than|over|under|less than|fewer than|within|inside|outside|up to|at least|at most|about|"
                    r"around|nearly|almost|no later than|no more than|approximately|roughly|policy|rule|limit|allow|"
                    r"allowed|must|may|can|should|terms|notice|deadline|every|each|per)\b")


_BOUND_BEFORE = re.compile(r"(?i)\b(since|after|before|as of|through)\s+$")
_A_TOTAL = re.compile(r"(?i)\s*(?:in total|in all|altogether|combined|overall|between them|all told)\b")


def days_problems(st: Statement, entities: list[int], records: Records, scope: Scope,
                  dates: list[date]) -> list[Verdict]:
    """A day count worked out between two dates ("paid 12 days late", "39 days after the expense",
    "two days from now") that no two dates of what the statement is about, of its text or today span.
    Bounds and rules ("more than 30 days after", "within 14 days") are not counts of anything."""
    out = []
    for m in _DAYS.finditer(st.text):
        # a bound or a rule stands beside the count it limits ("within 14 days", "notice: 60 days before"),
        # not anywhere in a long sentence ("Notice must be given by 2 June, which is 170 days from today")
        if _BOUND.search(st.text[max(0, m.start() - 24):m.start()]) or _BOUND.search(st.text[m.end():m.end() + 20]):
            continue
        if _A_TOTAL.match(st.text, m.end()):
            continue  # "That is 10 days late in total": the sum of the items' delays, not one span
        n = _number(m.group("n") or m.group("n2"))
        if any(c.kind == "number" and float(c.value) == n for c in [*scope.claims, *scope.written]):
            continue
        known = [c.value for _l, c, _i in _attrs(records, entities, "date") if isinstance(c.value, date)]
        known += dates
        today = scope.now.date() if scope.now is not None else None
        # "A129 is 34 days late" (now): today's distance from its due date
        now_late = re.search(r"(?i)\b(?:late|overdue|past)\b", m.group(0)) and re.search(
            r"(?i)\b(?:is|are|now|currently|already|stands?)\s+(?:now\s+|already\s+|currently\s+)?$", st.text[max(0, m.start() - 25):m.start()])
        if today is not None and (m.group("rel") or m.group("n2") or now_late) and not re.search(r"(?i)working|business", m.group(0)):
            # a span from today ("8 days away", "passed 14 days ago", "in 10 days"): today and one of its dates;
            # being late is counted from a due date ("A129 is 34 days late": not from the minutes it was raised in)
            if now_late:
                dues = [c.value for label, c, _i in _attrs(records, entities, "date")
                        if isinstance(c.value, date) and re.search(r"(?i)due|deadline|promised|expir|by", label or "")]
                said = [c.value for c in claims_in(st.text, year=scope.year, kinds=("date",)) if isinstance(c.value, date)]
                known = dues + said or known
            if not known or any(abs((d - today).days) in (n, n - 1, n + 1) for d in set(known)):
                continue
            out.append(Verdict(st.text, m.group(0), "number", "false",
                               f"counts {n} days from today ({today:%d %B %Y}), but no date of what it is about is "
                               f"{n} days away"))
            continue
        known += [today] if today is not None else []
        if len(set(known)) < 2 or days_between(n, sorted(set(known))) or _business_days(n, sorted(set(known))):
            continue
        out.append(Verdict(st.text, m.group(0), "number", "false",
                           f"counts {n} days, but no two dates of what it is about are {n} days apart"))
    return out


_RANGE_GAP = re.compile(r"(?i)\s*(?:-|–|—|to|until|till|through|thru|and)\s*(?:[A-Za-z]+,?\s+)?")
_SPAN_COUNT = re.compile(r"(?i)\s*(?:[(,;:—–-]\s*)?(?:that's\s+|that is\s+|i\.e\.\s+|=\s*|so\s+|a total of\s+)?"
                         r"(?P<n>\d{1,3}|" + "|".join(NUMBER_WORDS) + r")\s+(?P<kind>working\s+|business\s+|"
                         r"calendar\s+|week\s?)?days?\b")


_NEAR_SPAN = 45  # days: a record date this near a span's end is the one the statement works out


def span_date_problems(st: Statement, records: Records, year: int | None, today: date | None = None) -> list[Verdict]:
    """A date given right after a span of months or years ("his six-month date on Sunday 1 November") of
    what the statement names, which is not that span after (or before) any date of its records, where
    one of them is near it: Felix Weber started on 6 May, so his six-month date is 6 November."""
    out = []
    for m in _SPAN_OF.finditer(st.text):
        n, unit = _number(m.group("n")), m.group("unit").lower()
        if not n or unit not in ("month", "year"):
            continue
        after = st.text[m.end():m.end() + 40]
        c = next((c for c in claims_in(after, year=year, kinds=("date",)) if isinstance(c.value, date)), None)
        if c is None or re.search(r"[;:.]", after[:c.start]):
            continue
        rows = {i for k in records.keys_in(st.text) for i in records.by_key.get(k, ())[:PERSON_ROWS]}
        days = {a.value for i in rows for _l, a in records.entities[i].attributes
                if a.kind == "date" and isinstance(a.value, date)}
        if today is not None and c.value == today + relativedelta(**{f"{unit}s": n}):
            continue  # "the six-month window that ends on 16 May 2027": today, six months on
        if not days or c.value in days:
            continue
        step = relativedelta(**{f"{unit}s": n})
        worked = {d + step for d in days} | {d - step for d in days}
        if c.value in worked:
            continue
        near = sorted(w for w in worked if abs((w - c.value).days) <= _NEAR_SPAN)
        if near:
            out.append(Verdict(st.text, c.text, "date", "false",
                               f"is given as {n} {unit}s on from a date of what the statement names, but by the office's "
                               f"records that falls on {near[0].isoformat()}"))
    return out


_BETWEEN_BEFORE = re.compile(r"(?i)\bbetween\s+(?:\w+,?\s+)?$")
_RANGE_FIRST = re.compile(r"(?i)\b(?:start|from\b|first|begin|out\b|leav|depart)")
_RANGE_LAST = re.compile(r"(?i)\b(?:end|to\b|until|last|return|back\b|finish)")


def range_end_problems(st: Statement, entities: list[int], records: Records, year: int | None) -> list[Verdict]:
    """A range "from 26 October to 7 November" one end of which is a row's end (or start) day while the other is
    not that row's start (or end): Felix's leave runs 21 October to 7 November, so "on leave from 26 October to 7
    November" gives a false first day. Rows are those the statement is bound to or names, with a first and a last
    day under labels that say so."""
    dates = sorted((c for c in claims_in(st.text, year=year, kinds=("date",)) if isinstance(c.value, date)),
                   key=lambda c: c.start)
    # a day written 05/10/2026 has two readings at one place: the range is right when any reading of its ends is
    readings: dict[tuple[int, int], list] = {}
    for c in dates:
        readings.setdefault((c.start, c.end), []).append(c)
    places = list(readings.values())
    # "and" joins a range only after "between": "on 13 and 14 November", "(5 Oct, 28 Oct and 10 Nov)" are days
    ranges = []
    for here, there in zip(places, places[1:]):
        a0, b0 = here[0], there[0]
        m = _RANGE_GAP.fullmatch(st.text[a0.end:b0.start])
        if not m or ("and" in m.group(0).lower().split()
                     and not _BETWEEN_BEFORE.search(st.text, max(0, a0.start - 12), a0.start)):
            continue
        combos = [(a, b) for a in here for b in there if a.value < b.value]
        if combos:
            ranges.append(combos)
    if not ranges:
        return []
    rows = set(entities[:ALIGNED_ENTITIES]) | {i for k in records.keys_in(st.text)
                                              for i in records.by_key.get(k, ())[:PERSON_ROWS]}
    spans = []
    for i in rows:
        days = [(label, a.value) for label, a in records.entities[i].values("date") if isinstance(a.value, date)]
        first = [d for label, d in days if _RANGE_FIRST.search(label)]
        last = [d for label, d in days if _RANGE_LAST.search(label) and not _RANGE_FIRST.search(label)]
        if len(first) == 1 and len(last) == 1 and first[0] < last[0]:  # a one-day row (a meeting) is no span
            spans.append((first[0], last[0], records.entities[i].name))
    mailed = _mailed_spans(records)
    out = []
    for combos in ranges:
        if any(any(f == a.value and l == b.value for f, l, _n in spans) or (a.value, b.value) in mailed
               for a, b in combos):
            continue  # a row's span, or one a message gives (the leave a request asks for, not yet a row)
        out += next((found for a, b in combos if (found := _range_problems(st, a, b, spans))), [])
    return out


def _range_problems(st: Statement, a, b, spans: list) -> list[Verdict]:
    """What is false of one reading of a range against the rows' spans: a first or last day that is not its row's,
    or a span neither end of which is the one kin row's."""
    # neither end: a range said as what the rows' table records ("on annual leave from 14 to 31 December"
    # of the one person whose leave table runs 9 to 26 December)
    near = set(re.findall(r"[a-z]{4,}", st.text[max(0, a.start - 50):a.start].lower()))
    kin = [(f, l, name) for f, l, name in spans if near & _table_words(name)]
    if len(kin) == 1 and not any(f == a.value or l == b.value for f, l, _n in kin):
        f, l, name = kin[0]
        return [Verdict(st.text, f"{a.text} to {b.text}", "date", "false",
                        f"is given as the span, but {name} runs {f.isoformat()} to {l.isoformat()}")]
    for f, l, name in spans:
        if l == b.value and f != a.value:
            return [Verdict(st.text, a.text, "date", "false",
                            f"is given as the first day, but {name} runs {f.isoformat()} to {l.isoformat()}")]
        if f == a.value and l != b.value:
            return [Verdict(st.text, b.text, "date", "false",
                            f"is given as the last day, but {name} runs {f.isoformat()} to {l.isoformat()}")]
    return []


MAILED_DATES = 12  # dates of one message paired into the spans it may give


def _mailed_spans(records: Records) -> set[tuple[date, date]]:
    """Every (earlier, later) pair of dates one message of the office gives: the spans its mails state (a
    leave request's "16-18 December"). Once per records."""
    cached = records.__dict__.get("_mailed_spans")
    if cached is None:
        cached = set()
        for e in records.entities:
            if ".eml" not in e.name:
                continue
            days = sorted({a.value for _l, a in e.attributes if a.kind == "date" and isinstance(a.value, date)
                           and not isinstance(a.value, datetime)})[:MAILED_DATES]
            cached |= {(x, y) for x in days for y in days if x < y}
        records.__dict__["_mailed_spans"] = cached
    return cached


_FILE_WORDS = frozenset({"data", "xlsx", "xlsm", "csv", "docx", "sheet", "sheets", "people", "finance", "sales",
                         "reports", "list", "register", "table", "tracker", "file", "files"})


def _table_words(name: str) -> set[str]:
    """The words of the file and sheet an entity's name gives ("data/people/leave_requests.xlsx, Requests row
    4": leave, requests), not its folder's kind or the row number."""
    where = name.partition(" row ")[0]
    return {w for w in re.findall(r"[a-z]{4,}", where.lower()) if w not in _FILE_WORDS}


_SPAN_COUNT_BEFORE = re.compile(r"(?i)(?<![\w.,£$€])(?P<n>\d{1,3}|" + "|".join(NUMBER_WORDS) + r")\s+"
                                r"(?P<kind>working |business |calendar )?days?\s*[,:(—–-]?\s*(?:from\s+|between\s+)?$")


def _span_lengths(a, b, text: str, m: re.Match) -> set[int]:
    """The counts of days a range may be given as, by the kind of days the count names."""
    days = (b.value - a.value).days
    weekdays = sum(1 for k in range(days + 1) if (a.value.toordinal() + k) % 7 not in (6, 0))
    kind = (m.group("kind") or "").strip().lower()
    working, calendar = {weekdays, weekdays - 1}, {days, days + 1}
    return working if kind in ("working", "business", "week") else calendar if kind == "calendar" else working | calendar


def span_count_problems(st: Statement, year: int | None) -> list[Verdict]:
    """A count of days given right after the range it counts ("from Tuesday 1 to Monday 14 December (nine
    working days)") that is none of its lengths: calendar days with or without the last, working days
    (Monday to Friday) with or without it. The count is of that range, not of any two dates of the text."""
    out = []
    dates = sorted((c for c in claims_in(st.text, year=year, kinds=("date",)) if isinstance(c.value, date)),
                   key=lambda c: c.start)
    # a day written 01/12/2026 has two readings at one place: the count is right when any reading of the range is
    readings: dict[tuple[int, int], list] = {}
    for c in dates:
        readings.setdefault((c.start, c.end), []).append(c)
    places = list(readings.values())
    for here, there in zip(places, places[1:]):
        combos = [(a, b) for a in here for b in there if b.value > a.value]
        if not combos or not _RANGE_GAP.fullmatch(st.text[here[0].end:there[0].start]):
            continue
        a, b = combos[0]
        m = _SPAN_COUNT.match(st.text, b.end) or _SPAN_COUNT_BEFORE.search(st.text[max(0, a.start - 40):a.start])
        if not m:  # "(nine working days)" after the range, or "for five working days, 3 to 6 November" before it
            continue
        n = _number(m.group("n"))
        if len(combos) > 1 and any(n in _span_lengths(x, y, st.text, m) for x, y in combos):
            continue
        days = (b.value - a.value).days
        weekdays = sum(1 for k in range(days + 1) if (a.value.toordinal() + k) % 7 not in (6, 0))  # Mon-Fri
        # a leave "from 1 to 14 December" holds both ends; "until the 15th" may be the day of return
        until = re.search(r"(?i)\b(?:until|till)\b", st.text[a.end:b.start]) is not None
        working = {weekdays, weekdays - 1 if until and b.value.weekday() < 5 else weekdays}
        calendar = {days, days + 1}
        kind = (m.group("kind") or "").strip().lower()
        allowed = working if kind in ("working", "business", "week") else calendar if kind == "calendar" \
            else working | calendar
        if n not in allowed:
            out.append(Verdict(st.text, m.group(0).strip(" (,;:—–-"), "number", "false",
                               f"counts {n} {kind + ' ' if kind else ''}days from {a.text.strip()} to {b.text.strip()}, "
                               f"which is {days + 1} days, {weekdays} of them working days"))
    return out


def _business_days(n: int, dates: list[date]) -> bool:
    """Whether ``n`` working days (Monday to Friday) lie between two of ``dates``."""
    from itertools import combinations

    def weekdays(a: date, b: date) -> int:
        whole, rest = divmod((b - a).days, 7)
        return whole * 5 + sum(1 for k in range(rest) if (a.weekday() + k) % 7 < 5)

    return any(weekdays(min(a, b), max(a, b)) in (n, n - 1, n + 1) for a, b in combinations(dates, 2))


def _invented(text: str, records: Records, scope: Scope) -> list[Verdict]:
    """Identifiers of the office's kinds that neither the office nor the task has."""
    if scope.known is None:
        return []
    from officesim.evaluators.claims import invented_ids

    given = {str(c.value) for c in [*scope.claims, *scope.written] if c.kind == "id"}
    return [Verdict(c.text, c.text, "id", "false", "names a reference the office does not have")
            for c in invented_ids(text, scope.known, scope.year) if str(c.value) not in given]


def sole_item(text: str, records: Records) -> list[int]:
    """The entities of the one identifier a text names, if it names exactly one: what a statement naming
    nothing itself is about ("Thanks for EXP-1133. … yours was £182.00 a night")."""
    ids = {key for key in records.keys_in(text) if key.startswith("#")}
    return records.named(next(iter(ids))) if len(ids) == 1 else []


_COUNT_NOUN = re.compile(r"\s+(?:[a-z-]+\s+){0,2}?(?P<noun>[a-z]{3,}?)s?\b(?=\s*(?:and\b|,|\(|\.|:|;|$)|[ \t]*\n)", re.I)


def counts_named_ids(c: Claim, text: str, records: Records) -> bool:
    """Whether a count of a noun ("1 open order and 2 overdue invoices") is the number of distinct identifiers the
    text names whose records stand in a table of that noun (one purchase order of the Orders sheet)."""
    if c.kind != "number" or c.currency or not float(c.value).is_integer() or not 0 < c.value < 100:
        return False
    m = _COUNT_NOUN.match(text, c.end)
    if not m:
        return False
    stem = m.group("noun").lower()
    named = {key for key in records.keys_in(text) if key.startswith("#")}
    def of_noun(key: str) -> list[bool]:
        return [stem in records.entities[i].collection.rpartition("#")[2].lower()
                for i in (records.masters(key) or records.named(key))[:5]]
    # an identifier another table lists too may be of either (PO-4500 is an order that an invoice row cites)
    surely = sum(1 for key in named if (found := of_noun(key)) and all(found))
    maybe = sum(1 for key in named if any(of_noun(key)))
    return int(c.value) in (surely, maybe)


def true_of_records(c: Claim, text: str, records: Records, year: int | None,
                    involved: frozenset[str] | None = None) -> bool:
    """Whether ``c``, written in ``text``, is an attribute of what its statement (or the heading it stands
    under) is about, under the name written before it if any: true context a closed-world reading of
    one place would not find. Only about what the task involves (``involved``: the keys the instruction
    and the gold's text name; an entity that shares a key with them): a line about one more item than
    the task asks for ("Design critique - Friday 13 March") is judged by the closed-world rule, however
    true of the office; so is a list item, unless it names by its identifier what it is about."""
    statements = cut(text)
    if c.kind == "number" and (_worked_out(c, text, year) or _counts_what_it_lists(c, statements, year)
                               or _counts_a_table(c, records, involved) or counts_named_ids(c, text, records)):
        return True
    if c.kind == "time" and event_time_on_day(c, text, records, year):
        return True
    binder = Binder(records)
    if c.kind == "number" and _money(c) and _total_of_named(c, statements, binder, records, year):
        return True
    # a sum over the rows of a party the statement itself names, of the task or not ("sixth is Ironvale
    # Logistics at £75,507.17"): true context whatever the task asks about; one of the statement before only
    # where the task involves it
    if c.kind == "number" and _money(c) and any(
            st.start <= c.start < st.end and (sum_of_rows(c, st.text, records) or (
                _antecedent(statements, k) and sum_of_rows(c, f"{_antecedent(statements, k)} {st.text}", records,
                                                           involved)) or (
                short_names(text, records) and sum_of_rows(c, full_names(st.text, short_names(text, records)),
                                                           records, involved)))
            for k, st in enumerate(statements)):
        return True
    named_share = share_of_named(c, text, records, year) if c.kind == "number" else None
    if named_share is not None:
        return named_share  # "20% of invoice VS-2606-0210": of that item's amount, or false
    if c.kind == "number" and _PERCENT.match(text, c.end) and _a_share(c, text, statements, binder, records, year):
        return True
    if c.kind == "number" and _money(c) and (whole_table_total(c, text, records) or month_total(c, text, records, year)):
        return True
    bound: list[list[int]] = []
    owned: list[list[int]] = []
    candidates = sorted({i for k in involved or () if not k.startswith("#") for i in records.named(k)})[:200]
    sole = sole_item(text, records)
    for k, st in enumerate(statements):
        own, _spans = binder.bind(st.text)
        if st.start <= c.start < st.end:  # what the task involves, named in other words (word order)
            own = sorted(set(own) | {i for i in candidates if _named_in_words(records.entities[i], st.text, [])})
        pointed = [] if own else _pointed_back(st, statements, k, owned)  # "this one … was submitted on 17 October"
        entities = own or (bound[st.head] if st.head is not None and st.head < len(bound) else []) or pointed \
            or (sole if st.start <= c.start < st.end and (said_as_rate(text, c) or st.form == "item") else [])
        bound.append(entities)
        owned.append(own or pointed)
        if involved is not None and not (st.start <= c.start < st.end and (SET_ASIDE.search(st.text)
                                                                         or _CONTRAST.search(st.text))):
            # what the task does not involve, named to say why it is left out, is read by its own records
            # ("Verbena Spas (CTR-2440, £71,000) ... expire on 31 May 2027, after the six-month window")
            entities = [e for e in entities if involved.intersection(records.entities[e].keys)]
        by_id = st.form == "item" and own and any(k.startswith("#") for k in records.keys_in(st.text))
        # a list item is read by what it names by identifier, or by the one item the whole text is about
        if st.start <= c.start < st.end and entities and (st.form != "item" or by_id or (not own and entities == sole)):
            local = Claim(c.kind, c.value, c.text, c.precision, c.currency, c.start - st.start, c.end - st.start,
                          c.unscaled)
            if c.kind in ("org", "person") and _party_of(c, entities, records):
                return True  # "Yarrow Energy's YE-2612-0446": the party of the row the statement names
            own_attrs = _attrs(records, entities, c.kind)
            matching = [(l, a, i) for l, a, i in own_attrs if same_claim(local, a)]
            if matching:
                return _wrong_label(local, st, own_attrs, matching) is None
            if c.kind == "number" and _money(c) and c.value >= 0:  # a balance or a difference worked out from
                # the item's values (a difference is said as a gap, not as a negative amount)
                if said_as_rate(text, c) and (_per_unit(local, st.text, own_attrs, records, entities, year) or (
                        sole and _per_unit(local, st.text, _attrs(records, sole, "number"), records, sole, year))):
                    return True
                numbers = [n for n in claims_in(text, year=year, kinds=("number",)) if not _plain_count(n, text)]
                return _derived(c, records, entities, numbers, [])
            return False
    return False


def _party_of(c: Claim, entities: list[int], records: Records) -> bool:
    """Whether an organisation or person is a party of the rows a statement names (a name in any of their keys,
    spaces and case aside), or of the table rows that carry those rows' identifiers."""
    folded = re.sub(r"[\W_]+", "", str(c.value).casefold())
    ids = {k for e in entities for k in records.entities[e].keys if k.startswith("#")}
    rows = set(entities) | {i for k in ids for i in records.named(k)}
    return bool(folded) and any(re.sub(r"[\W_]+", "", k) == folded for i in rows for k in records.entities[i].keys
                                if not k.startswith("#"))


# an item named with a contrast is told apart from the task's items, not added to them: "Quayside Print Works
# (CTR-2384, £23,500) renews automatically but is below £30,000"
_CONTRAST = re.compile(r"(?i)\b(?:but|however|although|though|whereas|unlike|apart from|except)\b")
PERSON_ROWS = 2_000  # rows of one person read for a value beside their name


def event_date_of_named(c: Claim, text: str, records: Records) -> bool:
    """Whether a date is one of the days of an event of the office that ``text`` names by its title
    ("Operations weekly ... I'll chair again from Monday 21 December", a day that meeting is held)."""
    if c.kind != "date" or not isinstance(c.value, date):
        return False
    for key in records.keys_in(text):
        for i in records.by_key.get(key, ())[:PERSON_ROWS]:
            e = records.entities[i]
            if e.collection == "event" and any(label == "start" and a.kind == "date" and same_claim(c, a)
                                               for label, a in e.attributes):
                return True
    return False


def named_in_event(c: Claim, text: str, records: Records, year: int | None) -> bool:
    """Whether an organisation or person is named in the title of an event of the office whose start
    (its time or its day) the same sentence states: "the 9:00 slot was taken by the Kestrel Paper Co
    call" where the calendar holds "Call: Kestrel Paper Co" at 09:00."""
    if c.kind not in ("org", "person"):
        return False
    at = _sentence_at(text, c.start)
    want = fold_words(c.text)  # as written: an organisation's value is its key ("kestrelpaper")
    if at is None or len(want) < 4:
        return False
    titled = records.__dict__.get("_event_titles")
    if titled is None:
        titled = records.__dict__["_event_titles"] = [
            (fold_words(e.name.partition(", event ")[2]), [a for label, a in e.attributes if label == "start"])
            for e in records.entities if e.collection == "event"]
    said = claims_in(at[2], year=year, kinds=("date", "time"))
    if not said:
        return False
    for title, starts in titled:
        if re.search(rf"(?<!\w){re.escape(want)}(?!\w)", title) and any(
                same_claim(x, a) or (x.kind == "time" and a.kind == "datetime" and x.value == a.value.time().replace(second=0))
                for x in said for a in starts):
            return True
    return False


def event_time_on_day(c: Claim, text: str, records: Records, year: int | None) -> bool:
    """Whether a time is when an event of the office starts or ends on a day its sentence gives: "on Tuesday 17
    November at 10am - the 9:00 slot wasn't free as I already have a meeting until 9:45", where the calendar
    holds a meeting that day ending at 09:45."""
    if c.kind != "time" or not hasattr(c.value, "hour"):
        return False
    at = _sentence_at(text, c.start)
    if at is None:
        return False
    days = {d.value for d in claims_in(at[2], year=year, kinds=("date",)) if isinstance(d.value, date)}
    if not days:
        return False
    timed = records.__dict__.get("_event_times")
    if timed is None:
        timed = records.__dict__["_event_times"] = set()
        for e in records.entities:
            if e.collection != "event":
                continue
            for label in ("start", "end"):  # an event's start and end each stand as a date and a time
                days = [a.value for l, a in e.attributes if l == label and a.kind == "date" and isinstance(a.value, date)]
                times = [a.value for l, a in e.attributes if l == label and a.kind == "time" and hasattr(a.value, "hour")]
                timed.update((d, t.replace(second=0, microsecond=0)) for d in days for t in times)
    want = c.value.replace(second=0, microsecond=0)
    return any((d, want) in timed for d in days)


_SPAN_OF = re.compile(r"(?i)\b(?P<n>\d{1,2}|" + "|".join(NUMBER_WORDS) + r")[ -](?P<unit>day|week|month|year)s?\b")


def date_after_span(c: Claim, text: str, records: Records, keys: Iterable[str] = (), today: date | None = None) -> bool:
    """Whether a date is a date of what the text names (or of ``keys``: whom it is addressed to), moved by
    a span its sentence gives: "You're coming up to six months with us on 1 November", six months after
    the start date of the staff row of the person the mail goes to; or today, moved by it ("the six-month window
    that ends on 16 May 2027")."""
    if c.kind != "date" or not isinstance(c.value, date):
        return False
    at = _sentence_at(text, c.start)
    if at is None:
        return False
    here = c.start - at[0]  # the span must be said of this date: in its clause, near it ("placed on 12 September:
    # the policy allows returns within 30 days" gives the policy's span, not the order date's)
    spans = [(_number(m.group("n")), m.group("unit").lower()) for m in _SPAN_OF.finditer(at[2])
             if abs((m.start() if m.start() > here else m.end()) - here) <= 60
             and not re.search(r"[:;]", at[2][min(m.end(), here):max(m.start(), here)])]
    spans = [(n, unit) for n, unit in spans if n]
    if not spans:
        return False
    if today is not None and any(c.value == today + relativedelta(**{f"{unit}s": n}) for n, unit in spans):
        return True
    rows = {i for key in [*records.keys_in(at[2]), *keys] for i in records.by_key.get(key, ())[:PERSON_ROWS]}
    for i in list(rows)[:PERSON_ROWS]:
        for _label, a in records.entities[i].attributes:
            if a.kind != "date" or not isinstance(a.value, date):
                continue
            for n, unit in spans:
                step = relativedelta(**{f"{unit}s": n})
                if c.value in (a.value + step, a.value - step):
                    return True
    return False


_DAY_COUNT = re.compile(r"(?i)\s+(?:calendar\s+|working\s+|business\s+)?days?(?:'|’)?\s+(?:ahead|before|beforehand|"
                        r"in advance|after|late|early|earlier|later|overdue|ago|past)\b")


def day_count_of_records(c: Claim, text: str, records: Records, keys: Iterable[str] = (),
                         year: int | None = None) -> bool:
    """Whether a day count ("your request came in on 18 October, only 8 days before"; "this request came
    8 days ahead") is the span between a date the text gives and another date of the text near it (its
    sentence and the two before) or of a record of what the sentence names or whom the text is addressed
    to (``keys``): the day the request mail arrived, eight days before the leave it asks for."""
    if c.kind != "number" or c.currency or not float(c.value).is_integer() or not _DAY_COUNT.match(text, c.end):
        return False
    at = _sentence_at(text, c.start)
    if at is None:
        return False
    lo = at[0]
    for _ in range(2):  # the sentence and the two before it in its paragraph
        before = _sentence_at(text, lo - 2) if lo > 1 else None
        if before is None or text[before[1]:lo].count("\n") >= 2:
            break
        lo = before[0]
    near = {d.value for d in claims_in(text[lo:at[1]], year=year, kinds=("date",)) if isinstance(d.value, date)}
    written = {d.value for d in claims_in(text, year=year, kinds=("date",))[:MAX_CLAIMS] if isinstance(d.value, date)}
    # the records of what the sentence, or the two before it, name ("EXP-1081: rejected. It was submitted 39
    # days after the 8 September expense")
    rows = {i for key in [*records.keys_in(text[lo:at[1]]), *keys] for i in records.by_key.get(key, ())[:PERSON_ROWS]}
    dated = [[a.value for _l, a in records.entities[i].attributes if a.kind == "date" and isinstance(a.value, date)]
             for i in sorted(rows)[:PERSON_ROWS]]
    known = {d for row in dated for d in row}
    n = int(c.value)
    if any(abs((a - b).days) in (n, n - 1) for a in written for b in near | known if a != b):
        return True
    # two dates of one record of what the sentence names: "EXP-1082, sent 7 days after your Hamburg travel"
    # (the row's expense date and the date it was submitted)
    return any(abs((a - b).days) == n for row in dated for a in row[:8] for b in row[:8] if a != b)


def named_with_record(c: Claim, text: str, records: Records, year: int | None) -> bool:
    """Whether a person is named in a sentence that gives a value one of their own records holds ("Omar
    Nair has the longer service but is on leave 18-19 November", his leave row's dates): the reason a
    careful writer gives for setting someone aside, true of the office, not a stray name. The name
    alone proves nothing; a value of that person's record beside it does."""
    if c.kind != "person":
        return False
    at = _sentence_at(text, c.start)
    if at is None:
        return False
    start, _end, sentence = at
    # all of that person's rows: a colleague's name stands on more rows than ``GENERIC`` (their claims, leave)
    rows = {i for key in records.keys_in(c.text) for i in records.by_key.get(key, ())[:PERSON_ROWS]}
    if not rows:
        return False
    for v in claims_in(sentence, year=year, kinds=("date", "number", "time", "phone")):
        if start + v.start < c.end and start + v.end > c.start:
            continue
        if any(same_claim(v, a) for i in rows for _l, a in records.entities[i].attributes if a.kind == v.kind):
            return True
    return False


_PER_UNIT = re.compile(r"(?i)\s*(?:a|an|per|each|every)\s+(?:night|day|week|month|hour|person|head|unit|item|trip|"
                       r"delegate|seat|licen[cs]e|user)\b|\s*each\b")


_AMOUNT_LABEL = re.compile(r"(?i)\b(?:amount|total|cost|price|value|spend|paid|claimed|gross|net)\b")
_AVERAGED = re.compile(r"(?i)\baverag(?:ed|es|ing|e)(?:\s+(?:out\s+)?(?:at|of|to))?\s*$")


# a count of units before the rate they were charged at: "2 nights at £177.00", "3 licences @ £40"
_UNITS_AT = re.compile(r"(?i)\b(?:\d{1,3}|" + "|".join(NUMBER_WORDS) + r")\s+(?:nights?|days?|weeks?|months?|hours?|"
                       r"people|persons?|units?|items?|trips?|delegates?|seats?|licen[cs]es?|users?)\s+(?:at|@|of)\s*$")


def said_as_rate(text: str, c: Claim) -> bool:
    """Whether an amount is said as a rate: "£182.00 a night", "averaged £182.00", "2 nights at £177.00"."""
    before = text[max(0, c.start - 30):c.start]
    return bool(_PER_UNIT.match(text, c.end) or _AVERAGED.search(before) or _UNITS_AT.search(before))


_NIGHT_OR_DAY = re.compile(r"(?i)\s*(?:a|an|per|each|every)\s+(night|day)\b")


def _per_unit(c: Claim, text: str, own: list[tuple[str, Claim, int]], records: Records, entities: list[int],
              year: int | None) -> bool:
    """An amount "a night", "per day", "each" that is an amount of the statement or of its item divided by a
    count the statement or the item gives (its nights, its days between two dates, its quantity): "£354.00
    (£177.00 a night)" of a two-night stay."""
    amounts = [float(a.value) for label, a, _i in own if a.kind == "number" and (_money(a) or _AMOUNT_LABEL.search(label))]
    amounts += [float(n.value) for n in claims_in(text, year=year, kinds=("number",)) if _money(n) and n.start != c.start]
    counts = {int(a.value) for _l, a, _i in own if a.kind == "number" and float(a.value).is_integer() and 1 < a.value < 400}
    counts |= {int(n.value) for n in claims_in(text, year=year, kinds=("number",))
               if float(n.value).is_integer() and 1 < n.value < 400 and not _money(n)}
    counts |= {NUMBER_WORDS[w] for w in re.findall(r"[a-z]+", text.lower()) if w in NUMBER_WORDS and NUMBER_WORDS[w] > 1}
    days = sorted({a.value for _l, a, _i in _attrs(records, entities, "date") if isinstance(a.value, date)})
    unit = _NIGHT_OR_DAY.match(text, c.end)
    if unit and unit.group(1).lower() == "night":  # a stay of 6 to 8 October is two nights
        counts |= {(b - a).days for a in days for b in days if 1 < (b - a).days < 400}
    elif unit:  # a trip of 6 to 8 October is three days
        counts |= {(b - a).days + 1 for a in days for b in days if 0 < (b - a).days < 400}
    tol = tolerance(c.text) * 1.0001
    return any(abs(m / n - float(c.value)) <= tol for m in amounts[:MAX_OPERANDS] for n in counts if n)


def _total_of_named(c: Claim, statements: list[Statement], binder: Binder, records: Records,
                    year: int | None = None) -> bool:
    """A total of one field over the items the text names, one item per statement, two or more of one table
    ("Together they are worth £337,500 a year" under three lines naming contracts of the register; of a
    party with several contracts, the one whose other values the line states)."""
    per: dict[str, dict[str, list[int]]] = {}  # collection -> each key the text names -> the items it may be
    for st in statements:
        if st.start <= c.start < st.end:
            continue
        stated = [x for x in claims_in(st.text, year=year, kinds=("date", "number")) if x.kind == "date" or _money(x)]
        found = [k for k in _keys_of(records, st.text) if "@" not in k and k not in binder.neutral]
        ids = [k for k in found if k.startswith("#")]
        for key in ids or found:  # as the binder reads: identifiers first, names where there are none
            by: dict[str, list[int]] = {}
            for i in records.by_key.get(key, []):  # a party's name is in many mails: its rows in each table
                by.setdefault(records.entities[i].collection, []).append(i)
            for collection, items in by.items():
                if len(items) > 30:
                    continue
                fits = [i for i in items if any(same_claim(x, a) for x in stated
                                                for _l, a in records.entities[i].attributes)]
                per.setdefault(collection, {}).setdefault(key, fits or items)
    v, tol = float(c.value), tolerance(c.text) * 1.0001
    for named in per.values():
        lines = list(named.values())
        if not 2 <= len(lines) <= 30:
            continue
        labels = {label for items in lines for i in items for label, _a in records.entities[i].values("number") if label}
        for label in labels:
            sums = {0.0}
            for items in lines:
                values = {float(a.value) for i in items for l, a in records.entities[i].values("number")
                          if l == label and (not c.currency or not a.currency or a.currency == c.currency)}
                if not values:
                    break
                sums = {x + y for x in sums for y in values}
                if len(sums) > 5_000:
                    break
            else:
                if any(abs(x - v) <= tol for x in sums):
                    return True
    return False


_PERCENT = re.compile(r"\s*(?:%|per ?cent\b|percent\b)")


def _rounding(c: Claim) -> float:
    """Half a unit of a percentage's last written place: "40.6%" stands for 40.55 to 40.65."""
    places = len(c.text.split(".")[1].rstrip("% ")) if "." in c.text else 0
    return 0.5 * 10 ** -places + 1e-9


def _a_share(c: Claim, text: str, statements: list[Statement], binder: Binder, records: Records,
             year: int | None, wholes: Iterable[float] = (), tol: float | None = None) -> bool:
    """A percentage that is one value of the text or of the items it names over another, or the amount by
    which one exceeds another ("40.6% of the month's revenue", "13.1% over budget"); over one of
    ``wholes`` too (a table's total, a month's: "Heron Bay is about 25% of the five's revenue" over the
    schedule's total). ``tol``: points either way ("about 25%"), else the rounding of its places."""
    values = [float(n.value) for n in claims_in(text, year=year, kinds=("number",)) if n.start != c.start]
    for st in statements:
        for i in binder.bind(st.text)[0][:20]:
            values += [float(a.value) for _l, a in records.entities[i].values("number")]
    values = [v for v in dict.fromkeys(values) if v > 0][:MAX_WORKED]
    p = float(c.value)
    tol = _rounding(c) if tol is None else tol
    over = [*values, *(w for w in dict.fromkeys(wholes) if w > 0)]
    return any(abs(100 * a / b - p) <= tol or abs(100 * (a - b) / b - p) <= tol
               for a in values for b in over if a != b)


MAX_WORKED = 40  # numbers of a text tried as operands of one another: pairs grow with the square


# a percentage said of an item named by its identifier: "20% of invoice VS-2606-0210", "25 per cent of SC-2608-0287"
_PERCENT_OF = re.compile(r"(?i)\s*(?:%|per ?cent\b|percent\b)\s+of\s+(?:(?:the|its|our|their|your|that)\s+)?"
                         r"(?:[a-z]+\s+){0,2}?(?=[A-Z0-9#])")


def _id_amounts(key: str, records: Records) -> list[float]:
    """The amounts of the item an identifier names: of the rows and documents whose own identifier it is
    (their first), else of every record naming it."""
    named = records.named(key)
    own = [i for i in named if next((id_key(str(a.value)) for _l, a in records.entities[i].attributes
                                     if a.kind == "id"), None) == key]
    return [float(a.value) for i in (own or named)[:20] for _l, a in records.entities[i].values("number")
            if _money(a) and float(a.value) > 0]


def share_of_named(c: Claim, text: str, records: Records, year: int | None) -> bool | None:
    """A percentage said of an item named by its identifier ("The £741.77 credited is 20% of invoice
    VS-2606-0210"): true when an amount the text writes, or one of another item its sentence names (the
    credit note), is that share of one of the item's amounts; false when none is; None when the item has no
    amounts or the text none to be the part."""
    if c.kind != "number" or c.currency:
        return None
    m = _PERCENT_OF.match(text, c.end)
    if m is None:
        return None
    head = sorted((a, k) for k, (a, _b) in records.keys_in(text[m.end():m.end() + 30]).items() if k.startswith("#"))
    if not head or not re.fullmatch(r"(?:[A-Za-z]+\s+){0,2}", text[m.end():m.end() + head[0][0]]):
        return None
    key = head[0][1]
    wholes = list(dict.fromkeys(_id_amounts(key, records)))
    if not wholes:
        return None
    at = _sentence_at(text, c.start)
    parts = [float(n.value) for n in claims_in(text, year=year, kinds=("number",))
             if n.start != c.start and _money(n) and float(n.value) > 0]
    for other in records.keys_in(at[2] if at else text):
        if other.startswith("#") and other != key:
            parts += _id_amounts(other, records)
    parts = [v for v in dict.fromkeys(parts) if all(abs(v - w) > 0.005 for w in wholes)][:MAX_WORKED]
    if not parts:
        return None
    p = float(c.value)
    about = _ABOUT.search(text, max(0, c.start - 25), c.start)
    tol = 3.0 if about else _rounding(c)
    return any(abs(100 * a / b - p) <= tol for a in parts for b in wholes)


def bracketed_amount_problems(text: str, records: Records) -> list[Verdict]:
    """An amount put in brackets right after an item's identifier as that item's own ("Invoice BO-2610-0378
    (£1,320.95) is still open") that none of the records whose own identifier it is gives (its amount is
    £1,230.95): the item's amount misstated. Read only where the office lists the item under its own
    identifier with amounts."""
    out = []
    for c in claims_in(text, year=None, kinds=("number",)):
        if not _money(c) or not re.match(r"\s*\)", text[c.end:c.end + 3]):
            continue
        window = text[max(0, c.start - 40):c.start]
        for key, (_a, b) in records.keys_in(window).items():
            if not key.startswith("#") or re.fullmatch(r"\s*\(\s*(?:[A-Z]{3}\s*)?", window[b:]) is None:
                continue
            own = [i for i in records.named(key) if next((id_key(str(a.value)) for _l, a in
                                                          records.entities[i].attributes if a.kind == "id"), None) == key]
            amounts = [float(a.value) for i in own[:20] for _l, a in records.entities[i].values("number") if _money(a)]
            value = abs(float(c.value))
            if amounts and not any(abs(value - w) <= tolerance(c.text) * 1.0001 for w in amounts):
                found = _sentence_at(text, c.start)
                theirs = ", ".join(sorted({f"{w:,.2f}" for w in amounts}))[:120]
                where = min(own, key=lambda i: ", line" in records.entities[i].name)  # a row, not a line citing it
                out.append(Verdict(found[2] if found else text[:200], c.text, "number", "false",
                                   f"is given as {records.entities[where].name}'s amount, but its amounts are {theirs}"))
            break
    return out


# an item's amount written right after its identifier: "invoice VS-2606-0210 (£3,708.87)", "SC-2608-0287, £2,315.18"
_AFTER_ID = re.compile(r"(?i)\s*(?:\(|,|:|—|–|-|for|of|at|totalling|worth)?\s*(?:[A-Z]{3}\s*)?$")


def amount_of_id_before(c: Claim, text: str, records: Records) -> bool:
    """Whether an amount is written right after the identifier of an item it is an amount of."""
    if c.kind != "number" or not _money(c):
        return False
    window = text[max(0, c.start - 40):c.start]
    for key, (_a, b) in records.keys_in(window).items():
        if key.startswith("#") and _AFTER_ID.fullmatch(window, b) is not None:
            value = abs(float(c.value))
            return any(abs(value - w) <= tolerance(c.text) * 1.0001 for w in _id_amounts(key, records))
    return False

# a percentage said of a comparison ("31% over its budget", "12% of the month's revenue")
_SHARE_OF = re.compile(r"(?i)\s*(?:%|per ?cent\b|percent\b)\s*(?:[\w'’-]+\s+){0,2}?(?:over|under|above|below|of|more|less|"
                       r"higher|lower|up|down|short|ahead|behind)\b")


BLOCK_LINES = 4  # lines of its paragraph read back for the operand of a percentage


def _share_in_block(c: Claim, text: str, numbers: list[Claim], about: bool) -> bool:
    """Whether a percentage is its line's one other figure over a figure of the lines right above it in its
    paragraph (a share, or a change on it), to the precision it is written in (a point either way if "about")."""
    lo = text.rfind("\n", 0, c.start) + 1
    hi = text.find("\n", c.end)
    hi = len(text) if hi < 0 else hi
    start = lo
    for _k in range(BLOCK_LINES):
        prev = text.rfind("\n", 0, max(0, start - 1)) + 1
        if start == 0 or not text[prev:start].strip():
            break
        start = prev
    mine = [float(n.value) for n in numbers if lo <= n.start < hi and n.start != c.start]
    above = [float(n.value) for n in numbers if start <= n.start < lo]
    p = float(c.value)
    slack = 1.0 if about else (0.05 if "." in c.text else 0.5)
    return any(y and abs(p - r) <= slack for x in mine for y in above
               for r in (100 * abs(x) / abs(y), 100 * abs(abs(x) - abs(y)) / abs(y)))


_TIMES = re.compile(r"(?i)(?P<about>\b(?:about|roughly|around|approximately|approx\.?|nearly|almost|just over|just under|over|"
                    r"under)\s+|~\s*)?(?<![\w.,£$€])(?P<n>\d{1,3}(?:\.\d{1,2})?)\s*(?:x|×|times)(?![\w])"
                    # a multiple, not a quantity ("3 x Filing Cabinet", "2 x £520")
                    r"(?=\s*(?:[).,;:!?–—-]|$|(?:the|its|their|what|that|our|his|her|more|over|higher|bigger|larger|"
                    r"above|as)\b))", re.M)


def times_problems(text: str, year: int | None) -> list[Verdict]:
    """A multiple said beside two amounts ("annual value £63,500.00, invoiced £128,172.62 (about 2.5x)") that no
    one of them over another gives, to the precision it is written in (about a tenth, or 5%, if "about"). A
    multiple with fewer than two amounts in its line and its sentence is not read."""
    out = []
    for m in _TIMES.finditer(text):
        lo = text.rfind("\n", 0, m.start()) + 1
        hi = text.find("\n", m.end())
        hi = len(text) if hi < 0 else hi
        found = _sentence_at(text, m.start())
        spans = [(lo, hi)] + ([found[:2]] if found else [])
        amounts: list[float] = []
        for a, b in spans:
            amounts = [abs(float(c.value)) for c in claims_in(text[a:b], year=year, kinds=("number",)) if _money(c)]
            if len(amounts) >= 2:
                break
        if len(amounts) < 2 or len(amounts) > 8:
            continue
        n = float(m.group("n"))
        decimals = len(m.group("n").partition(".")[2])
        slack = max(0.1, 0.05 * n) if m.group("about") else (0.5, 0.05, 0.005)[decimals]
        if not any(y and abs(x / y - n) <= slack for x in amounts for y in amounts if x > y):
            out.append(Verdict(text[lo:hi].strip()[:200], m.group(0).strip(), "number", "false",
                               "is not what one of the amounts it stands beside is of another"))
    return out


_BEYOND = re.compile(r"(?i)\b(?:more than|over|above|exceed(?:s|ed|ing)?|at least|beyond|upwards of)\s+$")


def rule_multiple_problems(text: str, records: Records, scope: Scope) -> list[Verdict]:
    """The task's rule restated with another multiple ("have invoiced us more than two and a half times their
    contract's annual value" where the task's line is one and a half times). Read only where the sentence names no
    item and states no amount (a multiple of one item's figures is ``times_problems``'), and only where the task
    sets a multiple."""
    factors = multiples_of(scope.texts)
    if not factors:
        return []
    out = []
    for m, value in multiple_phrases(text):
        if value in factors or not _BEYOND.search(text, max(0, m.start() - 16), m.start()):
            continue
        found = _sentence_at(text, m.start())
        lo, hi = found[:2] if found else (text.rfind("\n", 0, m.start()) + 1, m.end())
        sentence = text[lo:hi]
        if any(_money(c) for c in claims_in(sentence, year=scope.year, kinds=("number",))):
            continue
        if records.keys_in(sentence):
            continue  # "Redfern has been invoiced more than twice its value": one item's multiple, not the rule
        out.append(Verdict(sentence.strip()[:200], m.group(0).strip(), "number", "false",
                           "is not the multiple the task sets ("
                           + " or ".join(f"{f:g}" for f in sorted(factors)) + " times)"))
    return out


_PERCENT_COMPARED = re.compile(r"(?i)\s*(?:%|per ?cent\b|percent\b)\s*(?:[\w'’-]+\s+){0,2}?(?:over|under|above|below|more|less|"
                       r"higher|lower|up|down|short|ahead|behind)\b")


def _shares(text: str, statements: list[Statement], binder: Binder, records: Records, scope: Scope) -> list[Verdict]:
    """A percentage said of a comparison, where its operands are there to be read (two other figures in
    its sentence; or one, or an item it names with amounts, over a whole of the office), which no two
    values of the text or of the items it names give, nor one of them over a table's or a month's total,
    and which neither the office nor the task states: "by £6,403.72, about 31% over its £49,000.00 budget"
    where it is 13.1%; "Heron Bay Resorts alone is about 35% of the revenue of the five" where its revenue
    over the five's total is 25.4%. A percentage said "about" is read to three points either way."""

    out = []
    every = claims_in(text, year=scope.year, kinds=("number",))
    numbers = [c for c in every if not _plain_count(c, text)]
    given = [float(g.value) for g in [*scope.claims, *scope.written] if g.kind == "number"]
    wholes: list[float] | None = None
    for c in every:
        fraction = fraction_share_problem(c, text)
        if fraction:
            out.append(fraction)
            continue
        if not _SHARE_OF.match(text, c.end):
            continue
        found = _sentence_at(text, c.start)
        if found is None:
            continue
        named_share = share_of_named(c, text, records, scope.year)
        if named_share is not None:
            if not named_share:
                out.append(Verdict(found[2], c.text + "%", "number", "false",
                                   "is not the share any amount the text writes is of the item it names"))
            continue
        others = sum(1 for n in numbers if found[0] <= n.start < found[1] and n.start != c.start)
        if others == 1 and _share_in_block(c, text, numbers, bool(_ABOUT.search(text, max(0, c.start - 25), c.start))):
            continue  # "- Over by £223.34 (20% above the order)" under "- Purchase order PO-4829: £1,116.71"
        named = others < 1 and any(records.entities[i].values("number") for i in binder.bind(found[2])[0][:20])
        if others < 1 and not named:
            continue
        p = float(c.value)
        if any(abs(g - p) < 1e-9 or abs(g * 100 - p) < 1e-9 for g in given):
            continue
        if _stated_rate(c, found[2], binder, records):
            continue
        about = _ABOUT.search(text, max(0, c.start - 25), c.start)
        pair = [abs(float(n.value)) for n in numbers if found[0] <= n.start < found[1] and n.start != c.start]
        if len(pair) == 2 and _PERCENT_COMPARED.match(text, c.end) and all(pair):
            # "£88,654.97 against £84,000, roughly 15% over budget": a change of the one on the other, its
            # operands right there
            slack = 3.0 if about else (0.06 if "." in c.text else 0.6)
            x, y = pair
            if not any(abs(p - r) <= slack for r in (100 * abs(x - y) / y, 100 * abs(x - y) / x, 100 * x / y, 100 * y / x)):
                out.append(Verdict(found[2], c.text + "%", "number", "false",
                                   "is not the change between the two figures it stands beside"))
            continue
        if others >= 2 and _a_share(c, text, statements, binder, records, scope.year):
            continue
        if others < 2:
            if wholes is None:
                wholes = [*table_totals(records), *(t for ts in month_totals(records).values() for t in ts)]
            if _share_of_whole(c, found[2], found[0], text, binder, records, scope.year, wholes, 3.0 if about else None):
                continue
        elif about and _a_share(c, text, statements, binder, records, scope.year, (), 3.0):
            continue
        out.append(Verdict(found[2], c.text + "%", "number", "false",
                           "is not what any two figures of the text or of the items it names give"))
    return out


# "7 of the 118 supplier invoices we paid …, or roughly 12%": the share that fraction is
_FRACTION = re.compile(r"(?i)\b(?P<a>\d[\d,]*)\s+(?:out\s+)?of\s+(?:the\s+|all\s+|our\s+)?(?P<b>\d[\d,]*)\b")


def fraction_share_problem(c: Claim, text: str) -> Verdict | None:
    """A percentage said after a fraction in its own sentence ("7 of the 118 invoices …, or roughly 12%") that
    the fraction is not (5.9%): read to its rounding, to three points where it is said "about"."""
    if c.kind != "number" or not _PERCENT.match(text, c.end) or _SHARE_OF.match(text, c.end):
        return None
    found = _sentence_at(text, c.start)
    if found is None:
        return None
    fractions = list(_FRACTION.finditer(found[2], 0, max(0, c.start - found[0])))
    if len(fractions) != 1:
        return None
    a, b = (float(fractions[0].group(k).replace(",", "")) for k in ("a", "b"))
    if b <= 0 or a > b:
        return None
    p = float(c.value)
    tol = 3.0 if _ABOUT.search(text, max(0, c.start - 25), c.start) else max(_rounding(c), 0.5)
    if abs(100 * a / b - p) <= tol:
        return None
    return Verdict(found[2], c.text + "%", "number", "false",
                   f"is said of {fractions[0].group(0)!r}, which is {100 * a / b:.1f}%")


def _share_of_whole(c: Claim, sentence: str, at: int, text: str, binder: Binder, records: Records, year: int | None,
                    wholes: list[float], tol: float | None) -> bool:
    """A percentage whose part is its own sentence's figure or an amount of the item the sentence names,
    over a figure of the text or a whole of the office (``wholes``), or its change from one."""
    parts = [float(n.value) for n in claims_in(sentence, year=year, kinds=("number",)) if n.start + at != c.start
             and not _plain_count(n, sentence)]
    parts += [float(a.value) for i in binder.bind(sentence)[0][:20] for _l, a in records.entities[i].values("number")]
    parts = [v for v in dict.fromkeys(parts) if v > 0][:MAX_WORKED]
    over = [float(n.value) for n in claims_in(text, year=year, kinds=("number",)) if n.start != c.start]
    over = [v for v in dict.fromkeys([*over, *wholes]) if v > 0]
    p = float(c.value)
    tol = _rounding(c) if tol is None else tol
    of = _SHARE_OF.match(text, c.end).group(0).rstrip().lower().endswith("of")  # a share, else a change
    return any(abs((100 * a / b if of else 100 * abs(a - b) / b) - p) <= tol for a in parts for b in over if a != b)


_RATE_LABEL = re.compile(r"(?i)%|per ?cent|rate|share|discount|margin|vat|tax|increase|rise|uplift|growth|change")


def _stated_rate(c: Claim, sentence: str, binder: Binder, records: Records) -> bool:
    """A percentage the office states as a rate (a column of rates, a discount), or of an item the sentence
    names: not worked out of figures, so not read as a share (a bare 35 of some other column is no warrant)."""
    p = float(c.value)
    named = set(binder.bind(sentence)[0][:20])
    for claim in (c, Claim("number", p / 100, f"{p / 100}")):
        for i in records.holders(claim)[:200]:
            if i in named or any(_RATE_LABEL.search(label) for label, a in records.entities[i].attributes
                                 if a.kind == "number" and abs(float(a.value) - float(claim.value)) < 1e-9):
                return True
    return False


_ABOUT = re.compile(r"(?i)\b(?:about|around|roughly|approximately|approx\.?|nearly|almost|some|just over|just under|"
                    r"close to|circa|c\.)\s*$")


def share_of_text(c: Claim, text: str, year: int | None) -> bool:
    """Whether a percentage is one figure the text states over another, as written (rounded to its places):
    "Six actions remain open: Zoe Novak 2 (33%), Aiko Amari 1 (17%)"."""
    if c.kind != "number" or not _PERCENT.match(text, c.end):
        return False
    every = [n for n in claims_in(text, year=year, kinds=("number",))[:MAX_CLAIMS] if n.start != c.start
             and not _PERCENT.match(text, n.end)]
    values = [v for v in dict.fromkeys(float(n.value) for n in every) if v > 0][:MAX_WORKED]
    found = _sentence_at(text, c.start)
    if found is None:
        return False
    line = text.rfind("\n", 0, c.start) + 1
    # the share's own figure stands before it in its sentence or line: "Zoe Novak — 2 (33%)"
    own = [float(n.value) for n in every if max(found[0], line) <= n.start < c.start and float(n.value) > 0][-3:]
    p, tol = float(c.value), _rounding(c)
    return any(abs(100 * a / b - p) <= tol or abs(100 * (a - b) / b - p) <= tol
               for a in own for b in values if a != b)


_TOTAL_AFTER = re.compile(r"(?i)\s*(?:in all|in total|altogether|combined|overall|between them|total)\b")
_TOTAL_BEFORE = re.compile(r"(?i)(?:\b(?:total|in all|altogether|combined|overall|makes?|making|comes? to|that's|so)"
                           r"\s*(?:of\s*)?[:=—–-]?\s*|[=—–]\s*)$")


def sum_of_sentence(c: Claim, text: str, year: int | None) -> bool:
    """Whether a figure said as a total ("… Vera Chen 1 and Zoe Novak 2 — 6 in all", "Total: 6") is the sum
    of the figures its sentence (or the list lines just above it) states before it."""
    if c.kind != "number" or not (_TOTAL_AFTER.match(text, c.end) or _TOTAL_BEFORE.search(text, max(0, c.start - 20), c.start)):
        return False
    found = _sentence_at(text, c.start)
    if found is None:
        return False
    lo = found[0]
    above = text.rfind("\n\n", 0, lo)  # the paragraph's list lines above a "Total:" line
    lo = min(lo, max(0, above)) if text[max(0, above):lo].count("\n") > 1 else lo
    before = [n for n in claims_in(text[lo:c.start], year=year, kinds=("number",))
              if not _PERCENT.match(text, lo + n.end)][-MAX_WORKED:]
    values = [float(n.value) for n in before if (not c.currency) == (not n.currency)]
    v, tol = float(c.value), tolerance(c.text)
    return any(abs(sum(values[i:]) - v) <= tol for i in range(max(0, len(values) - 2) + 1) if len(values) - i >= 2)


def _worked_out(c: Claim, text: str, year: int | None) -> bool:
    """A figure the text works out from two others it states, wherever they stand: a sum or a difference
    ("we ordered 21 and received 16 ... 5 still missing"; "over by 140 and by 100; combined 240")."""
    numbers = [n for n in claims_in(text, year=year, kinds=("number",)) if n.start != c.start][:MAX_WORKED]
    v, tol = float(c.value), tolerance(c.text)
    values = [float(n.value) for n in numbers if float(n.value) != v and float(n.value) != 0
              and (not c.currency or not n.currency or n.currency == c.currency)]
    if any(abs(x + y - v) <= tol or abs(abs(x - y) - v) <= tol for x, y in combinations(values, 2)):
        return True
    # a rate or a share of an amount over a count the text gives ("£546.00 for 3 nights ... £182.00 a night")
    counts = {float(n.value) for n in numbers if not n.currency and float(n.value).is_integer() and 2 <= float(n.value) <= 366}
    amounts = [float(n.value) for n in numbers if n.currency and (not c.currency or n.currency == c.currency)]
    return bool(c.currency) and any(abs(v * k - x) <= tol * k for k in counts for x in amounts if x != v)


def worked_out(c: Claim, text: str, year: int | None) -> bool:
    """Whether ``c`` is a sum, a difference or a rate of figures ``text`` states (see ``_worked_out``)."""
    return _worked_out(c, text, year)


def _counts_what_it_lists(c: Claim, statements: list[Statement], year: int | None) -> bool:
    """A count of what its own statement names ("Open tickets: 2 (T-5063, T-5091)") or of the items
    under it ("Lines over budget (2 of 6):" over two items)."""
    v = float(c.value)
    if c.currency or not v.is_integer() or not 0 < v < 100:
        return False
    for i, st in enumerate(statements):
        if st.start <= c.start < st.end:
            ids = {str(x.value) for x in claims_in(st.text, year=year, kinds=("id",))}
            return len(ids) == v or len(items_under(statements, i)) == v
    return False


def _counts_a_table(c: Claim, records: Records, involved: frozenset[str] | None) -> bool:
    """A count of the rows of a table the task involves ("2 of the 6 budget lines")."""
    v = float(c.value)
    if c.currency or not v.is_integer() or not 1 < v < 1000 or not involved:
        return False
    tables = {records.entities[i].collection for k in involved for i in records.named(k)}
    return any(records.size(t) == v for t in tables)


# "pushed Elena's start back by two weeks", "moved it forward by 3 days", "postponed by a week"
_SHIFTED_BY = re.compile(r"(?i)\b(?:mov|push|put|brought|bring|shift|delay|postpon|pull|slipp?|sett?)\w*\s+(?:[\w'’]+\s+){0,4}?"
                         r"(?:back|forward|later|earlier|out|on)?\s*by\s+(?:the\s+|a\s+|an\s+)?(?P<n>\d{1,3}|"
                         + "|".join(NUMBER_WORDS) + r"|)\s*(?P<unit>days?|weeks?|months?)\b")


def shift_problems(st: Statement, records: Records, scope: Scope) -> list[Verdict]:
    """A date the task moves, said to move by another length than it does ("pushed Elena's start back by two
    weeks" where it goes from 28 December to 4 January): the rows the statement names, else the task's few
    moved dates."""
    m = _SHIFTED_BY.search(st.text)
    if not m or not scope.changed:
        return []
    n = _number(m.group("n")) if m.group("n") else 1
    unit = m.group("unit").lower()[0]
    if unit == "m":
        return []
    said = n * (7 if unit == "w" else 1)
    keys = list(records.keys_in(st.text))
    cells = [cell for key in keys for cell in scope.changed.get(key, ())] or \
        [cell for cells in scope.changed.values() for cell in cells]
    moves = set()
    for _label, new, old in cells:
        a = [c.value for c in new if c.kind == "date" and isinstance(c.value, date)]
        b = [c.value for c in old if c.kind == "date" and isinstance(c.value, date)]
        moves |= {abs((x - y).days) for x in a for y in b}
    moves.discard(0)
    if not moves or len(moves) > 3 or said in moves:
        return []
    return [Verdict(st.text, m.group(0), "number", "false",
                    f"says the date moves by {said} days, but the task moves it by {', '.join(map(str, sorted(moves)))}")]
