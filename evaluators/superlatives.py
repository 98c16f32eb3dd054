"""Superlatives said of the items a task lists: "Yarrow Energy is our biggest supplier", "the oldest is
BS-2603-0101", "the largest of them was PO-4653".

The gold's sheets list the task's items (the rows it writes or changes). A superlative said of one of them
must hold over that list: "biggest", "largest", "highest", "top" name the row with the greatest value of a
column by which the list is ranked (a column its rows stand in order of), else of any column of amounts;
"smallest", "lowest" the least; "oldest", "earliest" the row with the first date of a column, "latest",
"newest", "most recent" the last. An item the list does not hold, or a list without such a column, is not
judged. Pure functions of the parsed offices.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from itertools import combinations
from typing import Any

from officesim.evaluators.claims import claims_in
from officesim.evaluators.records import id_key, name_key
from officesim.evaluators.text import NUMBER_WORDS as _NUMBER_WORDS

_MOST = r"biggest|largest|highest|greatest|top|best[- ]selling|best seller"
_LEAST = r"smallest|lowest"
_FIRST = r"oldest|earliest|most urgent|soonest"
_LAST = r"latest|newest|most recent"
_SUPERLATIVE = rf"(?P<sup>(?i:{_MOST}|{_LEAST}|{_FIRST}|{_LAST}))"  # "Best seller last year: …" opens a line


MAX_ROWS = 500  # a list a superlative is said over; a longer change (a whole ledger rewritten) is no list
_AMOUNT = re.compile(r"(?i)\b(?:amount|value|total|cost|price|net|gross|spend|sum|£|\$|€|gbp|eur|usd)\b")
_POSITION = re.compile(r"(?i)^\s*(?:rank(?:ing)?|no\.?|#|position|row|line)\s*$")  # a row's place, not a value


@dataclass(frozen=True)
class Ranked:
    """One list the gold writes: each row's keys (identifiers as ``id_key``, names as ``name_key``) and
    its values by column, in the gold's order."""

    where: str
    keys: tuple[frozenset[str], ...]
    columns: dict[str, tuple[Any, ...]]
    names: dict[str, tuple[str, ...]] = field(default_factory=dict)  # each column of names: each row's name key
    figures: tuple[frozenset[float], ...] = ()  # every number of each row, whichever column holds it


def _value(cell: Any) -> Any:
    if isinstance(cell, bool) or cell is None:
        return None
    if isinstance(cell, (int, float)):
        return float(cell)
    if isinstance(cell, datetime):
        return cell.date()
    if isinstance(cell, date):
        return cell
    if isinstance(cell, str):
        found = claims_in(cell, year=None, kinds=("date",))
        if len(found) == 1 and isinstance(found[0].value, date) and len(cell.strip()) <= 20:
            return found[0].value
    return None


def ranked_lists(before: dict[str, dict], gold: dict[str, dict]) -> list[Ranked]:
    """The lists the gold writes in sheets: the rows it adds or changes, with at least two of them."""
    out = []
    for path, entry in gold.items():
        old = before.get(path)
        if entry.get("kind") != "xlsx" or old == entry:
            continue
        for sheet, rows in (entry.get("sheets") or {}).items():
            was = (((old or {}).get("sheets") or {}).get(sheet)) or []
            if not rows:
                continue
            header = ["" if h is None else str(h).strip() for h in rows[0]]
            body = [r for i, r in enumerate(rows) if i > 0 and (i >= len(was) or list(was[i]) != list(r))
                    and not any(isinstance(c, str) and c.strip().casefold() == "total" for c in r)]
            if not 2 <= len(body) <= MAX_ROWS:
                continue
            keys = []
            for r in body:
                found = set()
                for cell in r:
                    if isinstance(cell, str) and cell.strip():
                        ids = claims_in(cell, year=None, kinds=("id",))
                        found |= {id_key(str(c.value)) for c in ids} or {name_key(cell)}
                keys.append(frozenset(found))
            names = {}
            for j, label in enumerate(header):
                cells = [r[j] if j < len(r) else None for r in body]
                if label and all(isinstance(c, str) and c.strip() and not claims_in(c, year=None, kinds=("id", "date"))
                                 for c in cells) and len(set(cells)) < len(cells):
                    names[label] = tuple(name_key(c) for c in cells)  # a party several rows share
            columns = {}
            for j, label in enumerate(header):
                values = tuple(_value(r[j]) if j < len(r) else None for r in body)
                if label and not _POSITION.match(label) and all(v is not None for v in values) \
                        and len({type(v) for v in values}) == 1:
                    columns[label] = values
            if columns:
                figures = tuple(frozenset(float(c) for c in r if isinstance(c, (int, float)) and not isinstance(c, bool))
                                for r in body)
                out.append(Ranked(f"{path}#{sheet}", tuple(keys), columns, names, figures))
    return out


_PERIOD_SAID = re.compile(r"(?i)\b(?:last|previous|prior|this|next)\s+(?:year|quarter|month)|\ba year (?:ago|earlier|before)|"
                          r"\b(?:19|20)\d\d\b|\bQ[1-4]\b")
_CHANGE = re.compile(r"(?i)\b(?:increase|rise|growth|gain|jump|drop|decrease|fall|decline|change|improvement)s?\b")


# a superlative of a gap between two of a row's figures: "the largest overspend in pounds is CC-410" (its
# Forecast less its Budget), whether or not the list writes that gap as a column
_GAP = re.compile(r"(?i)\b(?:overspend|overspent|overrun|over budget|over contract|variance|shortfall|headroom|gap|"
                  r"difference|excess|margin|underspend|savings?)\b")
MAX_GAP_COLUMNS = 12  # numeric columns of a list whose pairwise differences a gap's superlative is read by


def _gap_extremes(ranked: Ranked, sup: str) -> set[int]:
    """The rows whose difference between two numeric columns is the greatest (least) of the list, for each
    pair of its numeric columns."""
    greatest = bool(re.fullmatch(f"{_MOST}|{_LAST}", sup.lower()))
    numeric = [v for v in ranked.columns.values() if isinstance(v[0], (int, float)) and not isinstance(v[0], bool)]
    out: set[int] = set()
    for a, b in combinations(numeric[:MAX_GAP_COLUMNS], 2):
        if greatest:
            gaps = [abs(x - y) for x, y in zip(a, b)]
            out |= {i for i, g in enumerate(gaps) if g == max(gaps)}
            continue
        for sign in (1, -1):  # "the smallest overrun": the least of the rows that are over, either way round
            over = {i: sign * (x - y) for i, (x, y) in enumerate(zip(a, b)) if sign * (x - y) > 0}
            if over:
                out |= {i for i, g in over.items() if g == min(over.values())}
    return out


def _change_extremes(ranked: Ranked, sup: str) -> set[int]:
    """The rows of the greatest (least) change between two amount columns of the list (this period's revenue
    and last year's), or between the values of a column that holds the change itself; none where the list has
    neither."""
    greatest = bool(re.fullmatch(f"{_MOST}|{_LAST}", sup.lower()))
    numeric = {k: v for k, v in ranked.columns.items() if isinstance(v[0], float)}
    written = [v for k, v in numeric.items() if _CHANGE.search(k) or _GAP.search(k)]
    amounts = [v for k, v in numeric.items() if not (_CHANGE.search(k) or _GAP.search(k))
               and (_AMOUNT.search(k) or _PERIOD_SAID.search(k) or any(not x.is_integer() for x in v))]
    changes = written or [tuple(x - y for x, y in zip(a, b)) for a, b in combinations(amounts[:MAX_GAP_COLUMNS], 2)]
    out: set[int] = set()
    for values in changes:
        for sign in ((1,) if written else (1, -1)):  # which of two columns is the later is not known: both ways
            signed = [sign * v for v in values]
            if all(v >= 0 for v in signed) or written:
                best = max(signed) if greatest else min(signed)
                out |= {i for i, v in enumerate(signed) if v == best}
    return out


def _extremes(ranked: Ranked, sup: str, every_column: bool = False) -> set[int]:
    """The rows a superlative may name in a list (see the module rules); ``every_column``: the extremes of
    each column of its kind, for a superlative of a change that names no column."""
    sup = sup.lower()
    if every_column:
        want_dates = bool(re.fullmatch(f"{_FIRST}|{_LAST}", sup))
        greatest = bool(re.fullmatch(f"{_MOST}|{_LAST}", sup))
        out: set[int] = set()
        for values in ranked.columns.values():
            if isinstance(values[0], date) == want_dates:
                best = max(values) if greatest else min(values)
                out |= {i for i, v in enumerate(values) if v == best}
        return out
    want_dates = bool(re.fullmatch(f"{_FIRST}|{_LAST}", sup))
    greatest = bool(re.fullmatch(f"{_MOST}|{_LAST}", sup))
    columns = {k: v for k, v in ranked.columns.items() if isinstance(v[0], date) == want_dates}
    if not columns:
        return set()
    ordered = {k: v for k, v in columns.items() if list(v) in (sorted(v), sorted(v, reverse=True)) and len(set(v)) > 1}
    def amounts(values: tuple) -> bool:
        return any(isinstance(v, float) and not v.is_integer() for v in values)

    if ordered and not want_dates and not any(amounts(v) for v in ordered.values()):
        # "the largest invoice" is by its amount even in a list ranked by days late
        money = {k: v for k, v in columns.items() if _AMOUNT.search(k) or amounts(v)}
        if not money and re.fullmatch(r"(?i)biggest|largest", sup):
            return set()  # "the largest of them" in a list of days late with no amounts: by a size it does not give
        ordered |= money
    out = set()
    for values in (ordered or columns).values():
        best = max(values) if greatest else min(values)
        out |= {i for i, v in enumerate(values) if v == best}
    return out


_BY_AMOUNT = re.compile(r"(?i)\bby (?:value|amount|size|total|spend|cost|price|sum)\b")


def _amount_extremes(ranked: Ranked, sup: str) -> set[int]:
    """The rows of the greatest (least) value in the list's amount columns: a superlative "by value"."""
    greatest = bool(re.fullmatch(f"{_MOST}|{_LAST}", sup.lower()))
    out: set[int] = set()
    for label, values in ranked.columns.items():
        if isinstance(values[0], (int, float)) and not isinstance(values[0], bool) and (
                _AMOUNT.search(label) or any(isinstance(v, float) and not v.is_integer() for v in values)):
            best = max(values) if greatest else min(values)
            out |= {i for i, v in enumerate(values) if v == best}
    return out


def _amount_label(ranked: Ranked) -> str:
    return next((k for k, v in ranked.columns.items() if isinstance(v[0], float) and _AMOUNT.search(k)), "amount")


def _party_problem(ranked: Ranked, text: str, sup: str) -> str | None:
    """A greatest or least said of a party several rows of the list share ("the biggest payee this time is
    Thornbury Furniture"): the party whose rows' amounts sum greatest (least) must be it. The name of the
    party that is, or None."""
    sup = sup.lower()
    if not re.fullmatch(f"{_MOST}|{_LEAST}|most|least", sup):
        return None
    key = name_key(text)
    column = next((c for c, keys in ranked.names.items() if key in keys), None)
    label = next((k for k, v in ranked.columns.items() if isinstance(v[0], float) and _AMOUNT.search(k)), None)
    if column is None or label is None:
        return None
    sums: dict[str, float] = {}
    for party, value in zip(ranked.names[column], ranked.columns[label]):
        sums[party] = sums.get(party, 0.0) + value
    best = (max if re.fullmatch(f"{_MOST}|most", sup) else min)(sums.values())
    if abs(sums[key] - best) <= 0.005:
        return None
    # or it holds the greatest (least) row: "the largest invoice is from Yarrow Energy" is said of one row
    if any(ranked.names[column][i] == key for i in _extremes(ranked, sup if sup not in ("most", "least") else
                                                            ("largest" if sup == "most" else "smallest"))):
        return None
    return ", ".join(sorted(p for p, v in sums.items() if abs(v - best) <= 0.005))


_YEAR_SAID = re.compile(r"(?i)\b(?P<rel>this|last|previous|prior)\s+year\b|\ba year (?:ago|earlier|before)|\b(?P<y>(?:19|20)\d\d)\b")


def _period_columns(ranked: Ranked, near: str, year: int | None) -> dict[str, tuple[Any, ...]]:
    """The columns of the one year a superlative names ("last year's best seller": the column headed with
    that year), when exactly one year is named near it and the list heads columns with years; else none."""
    said = set()
    for m in _YEAR_SAID.finditer(near):
        if m.group("y"):
            said.add(int(m.group("y")))
        elif year is not None:
            said.add(year if (m.group("rel") or "").lower() == "this" else year - 1)
    if len(said) != 1:
        return {}
    want = str(next(iter(said)))
    return {k: v for k, v in ranked.columns.items() if want in k and not _CHANGE.search(k)}


def _row_of(ranked: Ranked, text: str) -> int | None:
    """The row of the list ``text`` (a name or an identifier as written) names, if one."""
    ids = claims_in(text, year=None, kinds=("id",))
    key = id_key(str(ids[0].value)) if ids else name_key(text)
    rows = [i for i, keys in enumerate(ranked.keys) if key in keys]
    if not rows and not ids and key:  # the first words of a longer name: "Archive Box" of "(10)", "Whiteboard"
        rows = [i for i, keys in enumerate(ranked.keys) if any(k.startswith(key + " ") for k in keys)]  # of "120cm"
    return rows[0] if len(rows) == 1 else None


_NAME = r"(?P<item>[A-Z]{1,5}-\d[\w-]*|[A-Z][\w&'’-]*(?:\s+(?:[A-Z][\w&'’-]*|of|and|&))*)"
_SAID = [
    # "Thornbury Furniture is the supplier we owe most", "Umber Freight is owed the most"
    re.compile(_NAME + r"\s+(?:is|was)\s+(?:the\s+(?:[a-z]+\s+){0,2}?(?:(?:that\s+)?we|I)\s+(?:owe|owed|pay|paid|spend|spent)"
               r"|owed|paid|due)\s+(?:the\s+)?(?P<sup>most|least)\b"),
    # "Yarrow Energy is our biggest supplier", "PO-4844 (the largest)"
    re.compile(_NAME + r"(?:\s*\([^()\n]{1,30}\))?\s*(?:,|\()?\s*(?:(?:is|was|remains|being|as|had|has|showed|shows|saw|"
               r"sees|posted|recorded|made)\s+)?(?:(?:actually|now|still|clearly|easily|also|currently|in fact)\s+)?"
               r"(?:(?:our|the|their|its|by far the)\s+)+" + _SUPERLATIVE + r"\b"),
    # "Redfern IT Services comes out on top", "Umber Freight tops the list", "Yarrow Energy ranks first"
    re.compile(_NAME + r"\s+(?:(?:comes?|came)\s+(?:out\s+)?(?P<sup>on top)|(?P<sup2>tops)\s+the\s+(?:list|ranking|table)|"
               r"(?:ranks?|ranked|is\s+ranked|comes?|came)\s+(?P<sup3>first)\b)"),
    # "the largest of them was PO-4653", "the oldest is BS-2603-0101", "biggest supplier: Umber Freight"
    # ("earliest first: CTR-2426, …" says how a list is ordered, not which item is the earliest)
    re.compile(r"(?i:the\s+)?" + _SUPERLATIVE + r"(?!\s+(?:first|last)\b(?!\s+(?:year|quarter|month|week)\b)|\s+(?:at the top|on top)\b)(?:\s+[a-z]+){0,6}?\s*(?:(?:(?:is|was)(?:\s+(?:for|from|of))?|:|-|–|—)\s*|,\s+)"
               r"(?:the\s+)?" + _NAME),
]


_BRACKET_ID = re.compile(r"\s*\(\s*([A-Z]{1,5}-\d[\w-]*)\s*\)")


def superlative_problems(text: str, lists: list[Ranked], year: int | None = None) -> list[str]:
    """Superlatives said of an item of the gold's lists that do not hold over the list; ``year``: the task's
    own, for "this year" and "last year"."""
    if not lists:
        return []
    out = []
    for pattern in _SAID:
        for m in pattern.finditer(text):
            sup = m.group("sup") or m.groupdict().get("sup2") or m.groupdict().get("sup3")
            if sup.lower() in ("on top", "tops", "first"):
                sup = "top"  # first of the list by its ranking column
            item = m.group("item").strip()
            if (bracket := _BRACKET_ID.match(text, m.end())) is not None:
                item = bracket.group(1)  # "the biggest overrun is Purchasing (CC-310)": the row of its identifier
            for ranked in lists:
                row = _row_of(ranked, item)
                if row is None:
                    wrong = _party_problem(ranked, item, re.sub(r"(?i)^(?:the|our)\s+", "", sup))
                    if wrong is None:
                        continue
                    out.append(f"{' '.join(m.group(0).split())!r}: {item} is not the {sup.lower()} of the list the "
                               f"task writes in {ranked.where} ({wrong} is, by {_amount_label(ranked)})")
                    break
                extremes = _extremes(ranked, re.sub(r"(?i)^(?:the|our)\s+", "", sup))
                changed = _CHANGE.search(text[m.start():m.end() + 12])
                if changed and (grown := _change_extremes(ranked, re.sub(r"(?i)^(?:the|our)\s+", "", sup))):
                    # "North showed the smallest increase": the least difference of two periods' amounts
                    extremes = grown
                elif (period := _period_columns(ranked, text[max(0, m.start() - 30):m.end() + 20], year)):
                    # "last year's best seller", "Best seller this year: …": by the column of that year
                    extremes = _extremes(Ranked(ranked.where, ranked.keys, period), sup, every_column=True)
                elif changed or _PERIOD_SAID.search(text[max(0, m.start() - 30):m.end()]):
                    # "the largest increase": a change, by whichever column holds it; a period said whose
                    # column is not known: by any column
                    extremes |= _extremes(ranked, sup, every_column=True)
                if _BY_AMOUNT.search(m.group(0)):  # "the largest by value is WP-2606-0178" in a list ranked by days late
                    # (a list with no amounts says nothing of it)
                    extremes = _amount_extremes(ranked, re.sub(r"(?i)^(?:the|our)\s+", "", sup))
                if _GAP.search(m.group(0)) and not any(_GAP.search(label) for label in ranked.columns):
                    extremes = _gap_extremes(ranked, re.sub(r"(?i)^(?:the|our)\s+", "", sup))
                if extremes and row not in extremes:
                    names = ", ".join(sorted({k.lstrip("#") for i in extremes for k in ranked.keys[i]
                                              if k.startswith("#")} or {k for i in extremes for k in ranked.keys[i]}))[:80]
                    out.append(f"{' '.join(m.group(0).split())!r}: {item} is not the {sup.lower()} of the list the "
                               f"task writes in {ranked.where} ({names} is)")
                break
    return list(dict.fromkeys(out))


# ---- the first of the items a text lists, by the dates the items themselves give -----------------------------

_LIST_ITEM = re.compile(r"(?m)^[ \t]*(?:[-*•–]|\d{1,2}[.)])\s+(?P<item>\S.*)$")
_NAME_RUN = re.compile(r"\b[A-Z][a-z]+(?:\s+(?:&\s+)?[A-Z][a-z]+)+\b")
# "the first of these to come up for renewal is", "your first review", "the earliest deadline", "most urgent"
_SOONEST = re.compile(r"(?i)\b(?:first|earliest|soonest|most urgent)\b(?!\s+(?:of all|time|name|thing|step|class|"
                      r"half|quarter|week|day|line|reminder|notice|message|mail|order)\b)")
_LATEST = re.compile(r"(?i)\b(?:latest|last)\b(?=\s+(?:of (?:these|them|those|the)|one|to come|review|deadline|renewal)\b)")
_NOT_SAID = re.compile(r"(?i)\b(?:not|n't|isn't|if|unless|whether)\b")
_MONTHS = frozenset("january february march april may june july august september october november december "
                    "monday tuesday wednesday thursday friday saturday sunday".split())


def _listed_dates(text: str, year: int | None) -> list[tuple[str, date, int, int]]:
    """(name, date, start, end) of each list item that gives one name and one date."""
    out = []
    for m in _LIST_ITEM.finditer(text):
        item = m.group("item")
        days = {c.value for c in claims_in(item, year=year, kinds=("date",)) if isinstance(c.value, date)}
        names = [n.group(0) for n in _NAME_RUN.finditer(item)
                 if not {w.lower() for w in n.group(0).split()} & _MONTHS]
        if len(days) == 1 and names:
            out.append((names[0], next(iter(days)), m.start(), m.end()))
    return out


def listed_first_problems(text: str, year: int | None) -> list[str]:
    """"The first of these to come up for renewal is Juniper Dental" over a list whose items each give a name and
    a date: the item said to be first (earliest, soonest, most urgent) must have the list's first date, the one
    said to be the last its last. Read from the text alone; a sentence naming no item, or two, is not read."""
    listed = _listed_dates(text, year)
    if len(listed) < 2:
        return []
    first, last = min(d for _n, d, _s, _e in listed), max(d for _n, d, _s, _e in listed)
    out = []
    for lo, hi in _sentences_of(text):
        sentence = text[lo:hi]
        soonest, latest = _SOONEST.search(sentence), _LATEST.search(sentence)
        if not (soonest or latest) or _NOT_SAID.search(sentence):
            continue
        named = {(n, d) for n, d, s, e in listed if n in sentence}
        if len({n for n, _d in named}) != 1 or len(named) != 1:
            continue
        name, day = next(iter(named))
        if soonest and day != first:
            out.append(f"{' '.join(sentence.split())[:90]!r} says {name} comes first, but the list gives it "
                       f"{day.isoformat()} and another {first.isoformat()}")
        elif latest and not soonest and day != last:
            out.append(f"{' '.join(sentence.split())[:90]!r} says {name} comes last, but the list gives it "
                       f"{day.isoformat()} and another {last.isoformat()}")
    return out


def _sentences_of(text: str) -> list[tuple[int, int]]:
    """Each line's sentences, as (start, end): a list item is a sentence of its own."""
    out = []
    for line in re.finditer(r"[^\n]+", text):
        start = line.start()
        for m in re.finditer(r"[.!?](?=\s|$)", line.group(0)):
            out.append((start, line.start() + m.end()))
            start = line.start() + m.end()
        if start < line.end():
            out.append((start, line.end()))
    return out


# ---- one item of a list said to stand before another: "Beacon Hill Schools comes second, just ahead of Marigold"

_AHEAD = re.compile(_NAME + r"[^.;:\n]{0,40}?\b(?P<how>ahead of|above|in front of|behind|below|bigger than|larger than|"
                    r"smaller than)\s+(?:the\s+)?(?P<other>[A-Z][\w&'’-]*(?:\s+(?:[A-Z][\w&'’-]*|of|and|&))*)")
_NOT_SAID_BEFORE = re.compile(r"(?i)\b(?:not|n't|never|if|whether)\b")


def order_problems(text: str, lists: list[Ranked]) -> list[str]:
    """"X (comes) ahead of Y", "X behind Y" of two rows of a list the gold ranks by a column of numbers: the
    order of their values in that column must agree. Lists with no such column are not read."""
    out = []
    for m in _AHEAD.finditer(text):
        if _NOT_SAID_BEFORE.search(m.group(0)):
            continue
        for ranked in lists:
            a, b = _row_of(ranked, m.group("item").strip()), _row_of(ranked, m.group("other").strip())
            if a is None or b is None or a == b:
                continue
            ordered = [v for v in ranked.columns.values() if isinstance(v[0], float) and len(set(v)) > 1
                       and list(v) in (sorted(v), sorted(v, reverse=True))]
            if not ordered:
                break
            before = m.group("how").lower() in ("ahead of", "above", "in front of", "bigger than", "larger than")
            values = ordered[0]
            if (before and values[a] < values[b]) or (not before and values[a] > values[b]):
                out.append(f"{' '.join(m.group(0).split())!r}: the list the task writes in {ranked.where} gives "
                           f"{m.group('item').strip()} {values[a]:,.2f} and {m.group('other').strip()} {values[b]:,.2f}")
            break
    return list(dict.fromkeys(out))


# ---- the order a written list is said to be in: "listed by due date with the oldest first"

_SORTED_BY = re.compile(r"(?i)\b(?:sorted|listed|ordered|arranged|ranked|set out|in order)\s+(?:by|of)\s+(?:the\s+|their\s+|its\s+)?"
                        r"(?P<column>[a-z][a-z ]{1,30}?)(?:\s*[,(]\s*|\s+)(?:with\s+)?(?:the\s+)?"
                        r"(?P<end>oldest|newest|earliest|latest|largest|biggest|highest|smallest|lowest|most|fewest|"
                        r"least|longest|shortest)\b[\w ]{0,20}?\s+(?:first|at the top)\b")
_ASCENDING = ("oldest", "earliest", "smallest", "lowest", "fewest", "least", "shortest")
_NOT_SORTED = re.compile(r"(?i)\b(?:not|n't|if|could|would|should|can|may|might)\b")


def _stems(text: str, least: int = 2) -> set[str]:
    """The words of a label or a phrase of ``least`` letters or more, lower-cased, a plural's "s" dropped."""
    return {w.rstrip("s") for w in re.findall(rf"[a-z]{{{least},}}", text.lower())}


def sorted_claim_problems(text: str, lists: list[Ranked]) -> list[str]:
    """A list the episode wrote said to be in an order ("listed by due date with the oldest first") that its
    column of that name does not follow, where exactly one column's label has the words said and the list is
    in another order. Lists with no such column are not read."""
    out = []
    for m in _SORTED_BY.finditer(text):
        start = max(text.rfind(". ", 0, m.start()) + 2, text.rfind("\n", 0, m.start()) + 1, 0)
        if _NOT_SORTED.search(text[start:m.start()]):
            continue
        said = _stems(m.group("column")) - {"date", "the", "of"}
        if not said:
            said = {"date"}
        ascending = m.group("end").lower() in _ASCENDING
        for ranked in lists:
            named = [(label, v) for label, v in ranked.columns.items()
                     if said <= _stems(label) and len(v) >= 2]
            if len(named) != 1:
                continue
            label, values = named[0]
            if list(values) != sorted(values, reverse=not ascending):
                out.append(f"{' '.join(m.group(0).split())!r}: the list written in {ranked.where} is not in that order "
                           f"by {label!r} ({', '.join(str(v) for v in values[:5])}…)")
            break
    return out


# ---- how many rows of a written list a party has: "Vantage Security comes up most often, with three late payments"

_MOST_ROWS = re.compile(r"(?i)\b(?:most often|most frequently|the most|the biggest share|the largest share|the lion'?s share|"
                        r"the largest number|the greatest number|the highest number|most of (?:them|the \w+))\b")
_WITH_COUNT = re.compile(r"(?i)\b(?:with|has|have|had|carries|carrying|holds|holding|owns|owning|accounts? for)\s+"
                         r"(?:only\s+|just\s+|exactly\s+)?(?P<n>\d{1,3}|" + "|".join(_NUMBER_WORDS) + r")\s+"
                         r"(?P<noun>(?:[a-z-]+\s+){0,2}[a-z-]+)")
_OF_VALUE = re.compile(r"(?i)[£$€]|\b(?:spend|spent|value|amount|total|revenue|sales|cost|money|pounds|sum|worth|"
                       r"largest (?:single|one)|biggest (?:single|one)|oldest|newest|latest|earliest)\b")
_NOT_SAID_OF = re.compile(r"(?i)\b(?:not|n't|never|if|whether|nobody|no one|none)\b")


def _parties_in(sentence: str, ranked: Ranked) -> set[tuple[str, str]]:
    """(column, party key) of the parties a list's columns of names hold that the sentence names, by full name
    or by a first name only one of them has."""
    found = set()
    words = {name_key(w) for w in re.findall(r"[A-Z][a-z]+", sentence)}
    folded = " " + name_key(sentence) + " "
    for column, keys in ranked.names.items():
        for key in set(keys):
            first = key.split(" ")[0]
            if f" {key} " in folded or (" " in key and first in words
                                        and sum(k.split(" ")[0] == first for k in set(keys)) == 1):
                found.add((column, key))
    return found


def row_share_problems(text: str, lists: list[Ranked]) -> list[str]:
    """A party of a written list said to have N of its rows ("with three late payments on the list") or the most
    of them ("Mei is carrying the biggest share of what's still open"), where the list's rows naming it are not
    N, or another party has more. Read where the sentence names one party of one column of names; a sentence
    about amounts or dates is left to the superlatives of values."""
    out = []
    for lo, hi in _sentences_of(text):
        sentence = text[lo:hi]
        if _NOT_SAID_OF.search(sentence) or _OF_VALUE.search(sentence):
            continue
        count_said, most = _WITH_COUNT.search(sentence), _MOST_ROWS.search(sentence)
        if not (count_said or most):
            continue
        for ranked in lists:
            parties = _parties_in(sentence, ranked)
            if len(parties) != 1:
                continue
            column, party = next(iter(parties))
            keys = ranked.names[column]
            mine = sum(k == party for k in keys)
            told = " ".join(sentence.split())[:90]
            if count_said:
                word = count_said.group("n").lower()
                n = int(word) if word.isdigit() else _NUMBER_WORDS[word]
                head = _stems(count_said.group("noun"), 3)
                label_words = {w for label in [*ranked.columns, *ranked.names, ranked.where] for w in _stems(label, 3)}
                if head & label_words and n != mine:
                    out.append(f"{told!r} gives {party.title()} {n}, but the list written in {ranked.where} has {mine} "
                               f"of its rows")
                    break
            if most and mine < max(keys.count(k) for k in set(keys)):
                top = max(set(keys), key=keys.count)
                out.append(f"{told!r}: in the list written in {ranked.where}, {party.title()} has {mine} rows and "
                           f"{top.title()} {keys.count(top)}")
            break
    return out
