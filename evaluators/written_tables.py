"""Figures said of a row of a table the task writes: "Filing Cabinet sold 597 units, up from 234 in Q3 2025"
where the gold's sheet gives Filing Cabinet 172 for Q3 2025 and 234 is the Label Printer's; "South sold
most with £91,865.50" where that is North's revenue in the gold's region sheet.

The tables are the gold's written lists (``superlatives.ranked_lists``): the rows it adds or changes,
each with its keys (identifiers, names) and its values by column. A figure belongs to the row named
nearest it in its statement (within ``REACH`` characters). It is false when it is not a value of that
row, nor a difference, sum or ratio of two of its values, and it is another row's value of a column in
which this row's value differs: a figure moved between rows. Figures that are no row's value (a count of
something else, a total the text works out) are left to the other readers, and so are small whole
numbers (below ``SMALLEST``), years and percentages, which collide between rows by chance. Pure
functions of the text and the lists.
"""

from __future__ import annotations

import re
from typing import Iterator

from officesim.evaluators.claims import Claim, claims_in
from officesim.evaluators.records import fold, id_key, name_key
from officesim.evaluators.statements import Statement, cut, span_gap
from officesim.evaluators.superlatives import Ranked

REACH = 60  # characters between a figure and the row name it is said of, at most
SMALLEST = 10  # whole numbers below this are said of too many things to be read as a row's
MAX_TEXT = 20_000  # characters of one text read (past what a person writes about a table)
_WORD = re.compile(r"[A-Za-z]+|\d+")
_YEAR = re.compile(r"(?:19|20)\d\d")


def _words(text: str) -> list[tuple[str, int, int]]:
    return [(fold(m.group(0)), m.start(), m.end()) for m in _WORD.finditer(text)]


def _names(ranked: Ranked) -> dict[tuple[str, ...], int]:
    """Each row's names as word sequences, and the unique first two or more words of a longer name
    ("paper a 4" of "Paper A4 (5 reams)"), each naming one row."""
    full: dict[tuple[str, ...], set[int]] = {}
    for row, keys in enumerate(ranked.keys):
        for key in keys:
            if key.startswith("#"):
                full.setdefault((key,), set()).add(row)  # the identifier as the text writes it, any hyphens
                words = tuple(w for w, _s, _e in _words(key[1:]))
            else:
                words = tuple(key.split())
            if words:
                full.setdefault(words, set()).add(row)
                for n in range(2, len(words)):
                    full.setdefault(words[:n], set()).add(row)
    return {words: next(iter(rows)) for words, rows in full.items() if len(rows) == 1}


def _mentions(text: str, names: dict[tuple[str, ...], int]) -> list[tuple[int, int, int]]:
    """Where ``text`` names a row: (start, end, row), longest names first, none inside another."""
    words = _words(text)
    longest = max((len(n) for n in names), default=0)
    out = [(c.start, c.end, row) for c in claims_in(text, year=None, kinds=("id",))
           if (row := names.get((id_key(str(c.value)),))) is not None]
    taken = [(a, b) for a, b, _r in out]
    words = [w for w in words if not any(a <= w[1] < b for a, b in taken)]
    i = 0
    while i < len(words):
        for n in range(min(longest, len(words) - i), 0, -1):
            row = names.get(tuple(w for w, _s, _e in words[i:i + n]))
            if row is not None:
                out.append((words[i][1], words[i + n - 1][2], row))
                i += n
                break
        else:
            i += 1
    return sorted(out)


def _naming(statements: list[Statement], names: dict[tuple[str, ...], int]
            ) -> Iterator[tuple[Statement, list[tuple[int, int, int]]]]:
    """The statements that name a row of a table, each with where it names them."""
    for st in statements if names else ():
        mentions = _mentions(st.text, names)
        if mentions:
            yield st, mentions


def _same(x: float, y: float) -> bool:
    return abs(x - y) <= 0.005 + 1e-9 * abs(y)


def _of_row(value: float, ranked: Ranked, row: int) -> bool:
    """A value of the row, or worked out in one step from two of its values (a change, a sum, a ratio)."""
    own = [v[row] for v in ranked.columns.values() if isinstance(v[row], float)]
    if any(_same(value, v) for v in [*own, *(ranked.figures[row] if row < len(ranked.figures) else ())]):
        return True
    for i, a in enumerate(own):
        for b in own[i + 1:]:
            if _same(value, abs(a - b)) or _same(value, a + b):
                return True
            for x, y in ((a, b), (b, a)):
                if y and abs(value - x / y) <= 0.05:
                    return True
    return False


def _figures(text: str) -> Iterator[Claim]:
    for c in claims_in(text, year=None, kinds=("number",)):
        v = float(c.value)
        after = text[c.end:c.end + 2]
        if "%" in c.text or after.lstrip().startswith("%") or (_YEAR.fullmatch(c.text) and not c.currency):
            continue
        if v.is_integer() and abs(v) < SMALLEST and not c.currency:
            continue
        yield c


_DAYS_AWAY = re.compile(r"(?i)\s*(?:working\s+|calendar\s+|business\s+)?days?\s+(?:from\s+(?:today|now)|away|left|to go|"
                        r"remaining|until|till|before|after|ago|since|overdue|late|early|out)\b")


def moved_figure_problems(text: str, lists: list[Ranked]) -> list[str]:
    """Figures said of a row of the gold's written tables that are another row's (see the module rules)."""
    if not lists or not text:
        return []
    statements = cut(text[:MAX_TEXT])
    out = []
    for ranked in lists:
        names = _names(ranked)
        labels = {w for label in ranked.columns for w, _s, _e in _words(label)}
        for st, mentions in _naming(statements, names):
            figures = list(_figures(st.text))
            paired = _in_turn(st.text, figures, mentions)
            for c in figures:
                if any(a <= c.start < b for a, b, _r in mentions):
                    continue  # a figure in a row's name ("Archive Box (10)")
                near = paired.get(c.start) or _said_of(st.text, c, mentions)
                if span_gap((c.start, c.end), near[:2]) > REACH or _apart(st.text, (c.start, c.end), near[:2]) \
                        or _counts_else(st.text[c.end:], labels):
                    continue
                row = near[2]
                value = abs(float(c.value))
                if _of_row(value, ranked, row):
                    continue
                moved = [(label, other) for label, values in ranked.columns.items() if isinstance(values[row], float)
                         for other, v in enumerate(values) if other != row and _same(value, v)
                         and not _same(value, values[row])]
                if not moved:
                    if _DAYS_AWAY.match(st.text, c.end):
                        continue  # "(14 days from today)": a span to a day, which the day counts read
                    unit = _unit_column(st.text[c.end:], ranked, row)
                    if unit and not _totals_said(st.text, value, ranked):
                        out.append(f"{st.text.strip()[:120]!r}: {c.text} {unit[0]} is none of {_row_name(ranked, row)}'s "
                                   f"figures in the table the task writes ({ranked.where}: {unit[1]})")
                    continue
                label, other = moved[0]
                theirs = _row_name(ranked, other)
                out.append(f"{st.text.strip()[:120]!r}: {c.text} is {theirs}'s {label!r} in the table the task writes "
                           f"({ranked.where}), not {_row_name(ranked, row)}'s ({_shown(ranked.columns[label][row])})")
    return list(dict.fromkeys(out))


_TOTAL_SAID = re.compile(r"(?i)\b(?:total|totals|all|overall|altogether|combined|in all|across|together|between them|"
                         r"average|avg|mean|per|each|every|median|target|goal|forecast|budget)\b")


def _unit_column(after: str, ranked: Ranked, row: int) -> tuple[str, str] | None:
    """The unit a figure is given in when it is a word of the heading of the row's number columns ("674
    units" beside "Units Q3 2026"): (the word, the row's figures in those columns), else None."""
    m = re.match(r"\s*([A-Za-z]+)", after)
    if m is None:
        return None
    word = fold(m.group(1))
    stem = word[:-1] if word.endswith("s") else word
    if word in _AFTER_OK or len(stem) < 3:
        return None
    labels = [label for label, values in ranked.columns.items() if isinstance(values[row], float)
              and {word, stem} & {w for w, _s, _e in _words(label)}]
    if not labels:
        return None
    return m.group(1), ", ".join(f"{label} {_shown(ranked.columns[label][row])}" for label in labels)


def _totals_said(text: str, value: float, ranked: Ranked) -> bool:
    """Whether a statement speaks of a total, an average or a target (a figure of the whole table or of a
    plan, not of the row), or the figure is a column's sum."""
    if _TOTAL_SAID.search(text):
        return True
    return any(_same(value, sum(v)) for v in ranked.columns.values() if all(isinstance(x, float) for x in v))


_JOINED = re.compile(r"(?i)\s*(?:,\s*(?:and\s+)?|\s+and\s+)\s*(?:£|\$|€)?$")


def _in_turn(text: str, figures: list[Claim], mentions: list[tuple[int, int, int]]) -> dict[int, tuple[int, int, int]]:
    """Figures said of rows in turn: "Filing Cabinet and Archive Box (10) follow with 571 and 570 units" gives
    each of a run of figures joined by "and" or commas the row named in the same place of the run of names
    before them. Where: the start of each figure, and the row it is said of."""
    out: dict[int, tuple[int, int, int]] = {}
    run: list[Claim] = []
    for c in [*figures, None]:
        if c is not None and run and _JOINED.fullmatch(text[run[-1].end:c.start]):
            run.append(c)
            continue
        if len(run) >= 2:
            names = [m for m in mentions if m[1] <= run[0].start]
            if len(names) >= len(run):
                for figure, name in zip(run, names[-len(run):]):
                    out[figure.start] = name
        run = [c] if c is not None else []
    return out


_LINKED = re.compile(r"(?i)\s*(?:\(|for|from|by|at|in|of|to)\s*$")


def _said_of(text: str, c: Claim, mentions: list[tuple[int, int, int]]) -> tuple[int, int, int]:
    """The row a figure is said of: a name right after it joined by a word ("£143,570.50 from South",
    "£91,865.50 (North)"), else the nearest name before it ("Filing Cabinet rose most (+425) and Paper A4
    least"), else the nearest after."""
    after = [m for m in mentions if m[0] >= c.end]
    if after:
        first = min(after, key=lambda m: m[0])
        if first[0] - c.end <= 8 and _LINKED.match(text[c.end:first[0]]):
            return first
    before = [m for m in mentions if m[1] <= c.start]
    if before:
        return max(before, key=lambda m: m[1])
    return min(mentions, key=lambda m: span_gap((c.start, c.end), m[:2]))


def _apart(text: str, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether a clause boundary stands between two places of a statement (a semicolon, a dash)."""
    between = text[min(a[1], b[1]):max(a[0], b[0])]
    return bool(re.search(r";| [-–—] |\. ", between))


# words after a figure that leave it a value of the row's column ("up from 234 in Q3 2025", "£91,865.50 of")
_AFTER_OK = frozenset("in on at from to for with and or vs versus than this last the a an of each per this that "
                      "year years a quarter month now then so but while against compared which up down".split())


def _counts_else(after: str, labels: set[str]) -> bool:
    """Whether the word right after a figure names something its table's columns do not ("234 orders"
    beside a table of units): a figure of another thing."""
    m = re.match(r"\s*([A-Za-z]+)", after)
    if m is None:
        return False
    word = fold(m.group(1))
    stem = word[:-1] if word.endswith("s") else word
    return word not in _AFTER_OK and not ({word, stem} & labels) and not any(l.startswith(stem[:4]) for l in labels)


def _row_name(ranked: Ranked, row: int) -> str:
    keys = sorted(ranked.keys[row], key=lambda k: (not k.startswith("#"), k))
    return keys[0].lstrip("#") if keys else f"row {row + 1}"


def _shown(value: float) -> str:
    return f"{value:,.2f}".rstrip("0").rstrip(".") if not float(value).is_integer() else f"{value:,.0f}"


_RISE = r"rose|risen|grew|grown|increased|climbed|gained|went up"
_FALL = r"fell|fallen|dropped|declined|decreased|shrank|slipped|went down"
# a change said of a row: a verb of change, or a comparative against the earlier period
_DIRECTION = re.compile(
    rf"(?i)\b(?:(?P<verb_up>{_RISE})|(?P<verb_down>{_FALL})|"
    r"(?P<cmp>more|higher|fewer|less|lower)\b(?:\s+[a-z]+){0,2}?\s+than\s+(?:in\s+|during\s+|for\s+)?"
    r"(?:a\s+year\s+(?:ago|before|earlier)|last\s+year|the\s+(?:previous|prior|same)\b|(?:19|20)\d\d|q[1-4]\s+(?:19|20)\d\d))")
_NEGATED = re.compile(r"(?i)\b(?:not|never|no|nor|neither)\b[^.;,]{0,20}$|n't\s*$|n't\s+\w+\s*$")
_YEAR_IN = re.compile(r"(?:19|20)\d\d")


def _periods(ranked: Ranked) -> tuple[str, str] | None:
    """The table's two columns of one figure for two years ("Units Q3 2025", "Units Q3 2026"): (earlier,
    later), or None when it has no such pair."""
    by_rest: dict[str, list[tuple[int, str]]] = {}
    for label, values in ranked.columns.items():
        years = _YEAR_IN.findall(label)
        if len(years) == 1 and all(isinstance(v, float) for v in values):
            by_rest.setdefault(_YEAR_IN.sub("", label).strip().casefold(), []).append((int(years[0]), label))
    pairs = [sorted(cols) for cols in by_rest.values() if len(cols) == 2 and cols[0][0] != cols[1][0]]
    if len(pairs) != 1:
        return None
    (_y1, earlier), (_y2, later) = pairs[0]
    return earlier, later


def direction_problems(text: str, lists: list[Ranked]) -> list[str]:
    """A rise said of a row of the gold's table of two years whose figure fell, or a fall of one that
    rose ("Paper A4 sold fewer units than a year ago" where it went from 339 to 447): the change is of
    the row named nearest it, unless the statement denies it."""
    if not lists or not text:
        return []
    statements = cut(text[:MAX_TEXT])
    out = []
    for ranked in lists:
        periods = _periods(ranked)
        if periods is None:
            continue
        earlier, later = periods
        for st, mentions in _naming(statements, _names(ranked)):
            for m in _DIRECTION.finditer(st.text):
                near = min(mentions, key=lambda x: span_gap(m.span(), x[:2]))
                if span_gap(m.span(), near[:2]) > REACH or _NEGATED.search(st.text[max(0, m.start() - 30):m.start()]):
                    continue
                row = near[2]
                change = ranked.columns[later][row] - ranked.columns[earlier][row]
                up = bool(m.group("verb_up")) or (m.group("cmp") or "").lower() in ("more", "higher")
                if (up and change < 0) or (not up and change > 0):
                    out.append(f"{st.text.strip()[:120]!r}: {_row_name(ranked, row)} went from "
                               f"{_shown(ranked.columns[earlier][row])} ({earlier}) to "
                               f"{_shown(ranked.columns[later][row])} ({later}) in the table the task writes")
    return list(dict.fromkeys(out))


# a percentage said as a change of a row: "up 84%", "84% more", "an increase of 84%", "20% over budget"
_PERCENT = re.compile(r"(?i)(?<![\w.,])(?P<n>\d{1,4}(?:\.\d+)?)\s*(?:%|per ?cent)")
_CHANGE_NEAR = re.compile(r"(?i)\b(?:up|down|over|under|above|below|more|fewer|less|higher|lower|increase[sd]?|"
                          r"decrease[sd]?|growth|grew|grown|rise|rose|risen|fall|fell|fallen|drop|dropped|gain|jump|"
                          r"jumped|climb(?:ed)?|overrun|overspend|ahead|behind)\b")
_SHARE = re.compile(r"(?i)^\s*(?:%|per ?cent)\s+(?:of|share)\b")
_CHANGE_LABEL = re.compile(r"(?i)\b(?:change|increase|rise|growth|gain|drop|decrease|fall|decline|difference|"
                           r"variance|over|under|overrun|overspend|delta)\b")
PERCENT_SLACK = 1.5  # percentage points a rounded or "about" percentage may be off the row's own ratio


def _ratios(ranked: Ranked, row: int) -> list[float]:
    """The percentages one step from two of a row's figures: a change on either, and one as a share of the
    other."""
    plain = [v[row] for k, v in ranked.columns.items() if isinstance(v[row], float) and not _CHANGE_LABEL.search(k)]
    changes = [v[row] for k, v in ranked.columns.items() if isinstance(v[row], float) and _CHANGE_LABEL.search(k)]
    out = [100 * abs(c) / abs(y) for c in changes for y in plain if y]  # a column of the change itself, on a base
    for i, a in enumerate(plain):
        for b in plain[i + 1:]:
            for x, y in ((a, b), (b, a)):
                if y:
                    out += [100 * abs(x - y) / abs(y), 100 * x / y]
    return out


def percent_problems(text: str, lists: list[Ranked]) -> list[str]:
    """A percentage said as the change of a row of the gold's table ("Filing Cabinet, up 84% (201 → 571)")
    that no two of the row's figures give: a change of the one on the other, or a share. Shares of other
    things ("12% of all revenue") and rows with fewer than two figures are not read."""
    if not lists or not text:
        return []
    statements = cut(text[:MAX_TEXT])
    out = []
    for ranked in lists:
        for st, mentions in _naming(statements, _names(ranked)):
            for m in _PERCENT.finditer(st.text):
                if _SHARE.match(st.text[m.end() - (1 if st.text[m.end() - 1] == "%" else 0):]) or \
                        re.match(r"(?i)\s+(?:of|share)\b", st.text[m.end():]):
                    continue
                near = _said_of(st.text, Claim("number", float(m.group("n")), m.group(0), start=m.start(), end=m.end()),
                                mentions)
                if span_gap(m.span(), near[:2]) > REACH or _apart(st.text, m.span(), near[:2]):
                    continue
                lo, hi = max(0, min(m.start(), near[0]) - 20), min(len(st.text), max(m.end(), near[1]) + 20)
                if not _CHANGE_NEAR.search(st.text[lo:hi]):
                    continue
                ratios = _ratios(ranked, near[2])
                said = float(m.group("n"))
                if len(ratios) < 2 or any(abs(said - r) <= PERCENT_SLACK for r in ratios):
                    continue
                out.append(f"{st.text.strip()[:120]!r}: {m.group(0)} is no change between {_row_name(ranked, near[2])}'s "
                           f"figures in the table the task writes ({ranked.where})")
    return list(dict.fromkeys(out))
