"""Whether a deadline has passed: "INV-1 is overdue" where its due date is next week, "notice can still be
given on CTR-2401" where its notice deadline was last month.

A clause that names an item by its identifier (or an item under a heading that says it) and says its
deadline has passed ("overdue", "has expired", "the deadline has passed", "too late", "missed the notice
window") is false when every deadline-like date of the item (a column or label of due, deadline, notice,
expiry, end, renewal) is after today. A clause that says the deadline is still ahead ("not yet due", "can
still be given", "still in time", "upcoming") is false when every such date is before today. Where the
clause names which deadline ("notice", "renewal", "payment"), only the dates whose label says it count.
Today itself decides nothing. A plan, a condition or a future ("will be overdue from Friday", "if it is not
paid") is not read, nor is "not overdue" (a paid invoice is not overdue whatever its date). Pure functions
of the records.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from officesim.evaluators.claims import claims_in
from officesim.evaluators.records import GENERIC, Records
from officesim.evaluators.statements import cut

DEADLINE_LABEL = re.compile(r"(?i)\b(?:due|deadline|notice|expir\w*|expiry|renew\w*|end|ends|until|cut-?off|"
                            r"last day|valid|reply by|respond by)\b")
# the deadline a clause names -> the label words that say it
_NAMED = [(re.compile(r"(?i)\bnotice\b"), re.compile(r"(?i)\bnotice\b")),  # (the second: _NOTICE)
          (re.compile(r"(?i)\brenew\w*"), re.compile(r"(?i)\brenew\w*")),
          (re.compile(r"(?i)\b(?:overdue|payment|pay|paid|due)\b"), re.compile(r"(?i)\bdue\b")),
          (re.compile(r"(?i)\b(?:expir\w*|expiry|lapsed?)\b"), re.compile(r"(?i)\b(?:expir\w*|expiry|end|ends|until)\b"))]
_AHEAD = re.compile(r"(?i)\b(?:not\s+yet\s+(?:due|passed|expired|lapsed)|(?:isn't|aren't|is\s+not|are\s+not)\s+yet\s+"
                    r"(?:due|passed|expired)|yet\s+to\s+(?:pass|expire|fall\s+due|come)|(?:can|could)\s+still\b|"
                    r"still\s+(?:in\s+time|ahead|possible|time|to\s+come|valid|be\s+(?:given|sent|served|cancell?ed))|"
                    r"(?:there\s+is|there's|we\s+have)\s+still\s+time|in\s+good\s+time|upcoming|coming\s+up|"
                    r"due\s+(?:next\s+(?:week|month)|tomorrow|later\s+this\s+(?:week|month)|in\s+(?:\d+|a|an|one|two|three|"
                    r"four|five|six|a\s+few)\s+(?:days?|weeks?|months?)))")
_PASSED = re.compile(r"(?i)\b(?:overdue|past\s+due|past\s+(?:its|their|the)\s+due\s+dates?|(?:has|have|had)\s+(?:already\s+)?(?:passed|expired|lapsed|gone(?!\s+(?:out|through|ahead|to|over|into|live|well|off|"
                     r"smoothly|fine|up|down|in|on|back)\b))|"
                     r"already\s+(?:passed|expired|lapsed)|(?:deadline|date|window)\s+(?:has\s+)?(?:passed|gone)|"
                     r"missed\s+(?:the|its|their)\s+(?:\w+\s+)?(?:deadline|window|date)|too\s+late|"
                     r"(?:can|could)\s+no\s+longer|no\s+longer\s+(?:possible|in\s+time|valid)|expired|lapsed|"
                     r"(?:was\s+)?due\s+(?:last\s+(?:week|month)|yesterday|(?:\d+|a|an|one|two|three|four|five|six|a\s+few)\s+"
                     r"(?:days?|weeks?|months?)\s+ago))")
_NOT_READ = re.compile(r"(?i)\b(?:if|unless|once|whether|will|would|should|might|may|going\s+to|soon|becom\w*|"
                       r"when|until|from\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next)|"
                       r"not\s+overdue|n't\s+overdue|never)\b|\?")
_NEGATED = re.compile(r"(?i)(?:\b(?:not|no|nothing|none|never|neither|nor|without)\b|n't\b)")
# a clause ends at a break or where a consequence or a reason begins ("is not yet due, so we will deduct ...")
_CLAUSE = re.compile(r"(?i);|\bbut\b|\bwhereas\b|\bwhile\b|\bhowever\b|,\s*(?:so|and|as|because|since|which)\b|"
                     r"\s(?:so|because)\s")


def _clauses(text: str) -> list[str]:
    return [c for c in _CLAUSE.split(text) if c.strip()]


def _statuses(clause: str) -> list[tuple[int, str]]:
    """(where, 'ahead' or 'passed') for each thing a clause says of a deadline; none in a plan or condition."""
    if _NOT_READ.search(clause):
        return []
    found = [(m.start(), "ahead") for m in _AHEAD.finditer(clause)]
    masked = _AHEAD.sub(lambda m: " " * len(m.group(0)), clause)
    for m in _PASSED.finditer(masked):
        before = " ".join(clause[:m.start()].split()[-4:])
        if _NEGATED.search(before):  # "aren't past due yet", "nothing open or overdue"
            if re.match(r"(?i)\s*yet\b", clause[m.end():]) or re.search(r"(?i)\byet\b", before):
                found.append((m.start(), "ahead"))
            continue
        found.append((m.start(), "passed"))
    return sorted(found)


def _deadlines(records: Records, index: int, clause: str) -> list[tuple[str, date]]:
    """The item's deadline-like dates, only those the clause names where it names one."""
    found = []
    for label, claim in records.entities[index].values("date"):
        value = claim.value.date() if isinstance(claim.value, datetime) else claim.value
        if isinstance(value, date) and DEADLINE_LABEL.search(label):
            found.append((label, value))
    for said, labels in _NAMED:
        if said.search(clause):
            named = [(label, value) for label, value in found if labels.search(label)]
            if named:
                return named
            if labels.pattern == _NOTICE.pattern:  # no notice date: the end less the notice period, else unknown
                return notice_deadlines(records, index, found)
    return found


_NOTICE = re.compile(r"(?i)\bnotice\b")
_ENDING = re.compile(r"(?i)\b(?:expir\w*|expiry|end|ends|until|renew\w*)\b")


def notice_deadlines(records: Records, index: int, found: list[tuple[str, date]]) -> list[tuple[str, date]]:
    """The last day to give notice on an item that states a notice period in days and an end date."""
    periods = [int(c.value) for label, c in records.entities[index].values("number")
               if _NOTICE.search(label) and float(c.value).is_integer() and 0 < c.value <= 731]
    ends = sorted({d for label, d in found if _ENDING.search(label)})
    return [("notice deadline", end - timedelta(days=n)) for n in periods[:1] for end in ends]


def office_notice_deadlines(records: Records) -> frozenset[date]:
    """Every item's last day to give notice (its end date less its notice period), once per records: a
    true date to say of items set aside ("three more had deadlines that passed on 1 September")."""
    found = records.__dict__.get("_notice_deadlines")
    if found is None:
        days = set()
        for i, e in enumerate(records.entities):
            if any(_NOTICE.search(label) for label, _c in e.values("number")):
                dates = [(label, c.value) for label, c in e.values("date") if isinstance(c.value, date)]
                days |= {d for _w, d in notice_deadlines(records, i, dates)}
        found = records.__dict__["_notice_deadlines"] = frozenset(days)
    return found


def _said_of(clause: str, statuses: list[tuple[int, str]], inherited: str | None, records: Records,
             listed: dict[str, str] | None = None) -> dict[int, list[tuple[str, int]]]:
    """Which status each identifier of a clause is given: the first said after it (the predicate of its
    subject), else the last said before it, else the heading's. (status index) -> [(key, entity)]. A
    clause that names none but says it of all the items listed right above it ("notice can still be
    given on all three") gives it to each of ``listed``."""
    groups: dict[int, list[tuple[str, int]]] = {}
    found = {k: (a, b, clause[a:b]) for k, (a, b) in records.keys_in(clause).items()}
    if not any(k.startswith("#") for k in found) and listed and statuses and _ALL_OF_THEM.search(clause):
        found = {k: (statuses[0][0], statuses[0][0], shown) for k, shown in listed.items()}  # each takes its status
    for key, (start, _end, shown) in found.items():
        if not key.startswith("#"):
            continue
        after = [i for i, (at, _k) in enumerate(statuses) if at >= start]
        before = [i for i, (at, _k) in enumerate(statuses) if at < start]
        which = after[0] if after else before[-1] if before else (len(statuses) if inherited else None)
        if which is None:
            continue
        for index in records.named(key)[:GENERIC]:
            groups.setdefault(which, []).append((shown, index))
    return groups


# a clause that says its status of every item listed above it: "on all three", "none of them", "each of these"
_ALL_OF_THEM = re.compile(r"(?i)\b(?:all (?:three|four|five|six|seven|eight|nine|ten|\d{1,2}|of them|of these|of those)|"
                          r"both|each of (?:them|these|those)|every one of (?:them|these|those)|"
                          # "the notice deadline has not yet passed on any of them"
                          r"(?:on|for|of)\s+any of (?:them|these|those|the (?:three|four|five|six|\d{1,2})))\b")


LISTED_ITEMS = 50  # list items a sentence about "all of them" is read of, at most


def _listed_above(statements: list, i: int, records: Records) -> dict[str, str] | None:
    """The identifiers of the list items right before statement ``i``, one per item, as written (None: no
    such list, or one longer than ``LISTED_ITEMS``)."""
    keys: dict[str, str] = {}
    j = i - 1
    while j >= 0 and statements[j].form == "item":
        if i - j > LISTED_ITEMS:
            return None
        ids = [(k, span) for k, span in records.keys_in(statements[j].text).items() if k.startswith("#")]
        if len(ids) != 1:
            return None
        keys[ids[0][0]] = statements[j].text[ids[0][1][0]:ids[0][1][1]]
        j -= 1
    if not keys and i and statements[i - 1].form in ("sentence", "label"):
        # named in the sentence right before: "... three contracts: Kestrel Paper Co (CTR-2321), Redfern IT
        # Services (CTR-2377) and Thornbury Furniture (CTR-2300). ... has not yet passed on any of them"
        before = statements[i - 1].text
        keys = {k: before[a:b] for k, (a, b) in records.keys_in(before).items() if k.startswith("#")}
        if len(keys) > LISTED_ITEMS:
            return None
    return keys if len(keys) >= 2 else None


def _contradicts(status: str, dates: list[tuple[str, date]], today: date) -> bool:
    if status == "passed":
        return all(d > today for _l, d in dates)
    return all(d < today for _l, d in dates)


def deadline_problems(text: str, records: Records, today: date) -> list[str]:
    """A message for each identifier whose deadlines contradict the "passed" or "still ahead" said of it.
    Where a clause names items of several tables, the status is about the kind of item it fits: "INV-1 for
    PO-22 is overdue" is not read against the order's dates when the invoice's fit."""
    out: list[str] = []
    statements = cut(text)
    for index, st in enumerate(statements):
        clauses = _clauses(st.text)
        own = [_statuses(c) for c in clauses]
        inherited = None
        if st.head is not None and st.form == "item" and not any(own):
            heading = _statuses(statements[st.head].text)
            kinds = {kind for _at, kind in heading}
            inherited = kinds.pop() if len(kinds) == 1 else None
        listed = _listed_above(statements, index, records) \
            if st.form in ("sentence", "label") and _ALL_OF_THEM.search(st.text) else None
        for clause, statuses in zip(clauses, own):
            kinds = [kind for _at, kind in statuses] + ([inherited] if inherited else [])
            if listed and len({kind for _at, kind in statuses}) != 1:
                listed = None  # "all three" with two statuses: which is said of them is not read
            # "had deadlines on 1 September 2026 that have already passed": the clause says which day passed;
            # whether that day is the item's is read with the other dates
            stated = [c.value for c in claims_in(clause, year=today.year, kinds=("date",)) if isinstance(c.value, date)]
            for which, members in _said_of(clause, statuses, inherited, records, listed).items():
                status = kinds[which]
                if stated and not _contradicts(status, [("said", d) for d in stated], today) and \
                        all((d < today) == (status == "passed") for d in stated):
                    continue
                verdicts = []
                for key, index in members:
                    dates = _deadlines(records, index, clause)
                    if dates:
                        verdicts.append((key, records.entities[index].collection, dates,
                                         _contradicts(status, dates, today)))
                fitting = {collection for _k, collection, _d, bad in verdicts if not bad}
                for key, collection, dates, bad in verdicts:
                    if not bad or (fitting and collection not in fitting):
                        continue
                    shown = ", ".join(f"{label} {d.isoformat()}" for label, d in dates)
                    said = "has passed" if status == "passed" else "is still ahead"
                    side = "after" if status == "passed" else "before"
                    out.append(f"{clause.strip()!r} says a deadline of {key} {said}, but its {shown} "
                               f"is {side} today ({today.isoformat()})")
    return list(dict.fromkeys(out))
