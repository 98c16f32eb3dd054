"""The sets of things a task defines, and the counts a written text gives of them.

The gold solution says what the task's sets are: the rows it changes or lists in a sheet (the invoices it
holds, the overdue invoices it lists), the items its mails name by identifier (the contracts over the
line) or by name (the quiet customers), and the distinct names of those items' columns (their owners).
Each set is named by nouns: its table's words ("supplier_invoices_2026.xlsx#Invoices": supplier,
invoice), the column of its identifiers ("Ref"), the column of the names ("Owner", and the columns the
office writes those names under elsewhere: "Supplier"). What the episode sent or booked is counted by
``actions.counted_action_problems``. A count of such a noun ("Four suppliers are over the line", "the 14 unpaid invoices") must be
the size of a set it may name: a set of the task, the number of distinct names under one of its columns,
the whole table, one category of the table, or a number the instruction or the gold's own text gives.

A count that counts a part ("three of the invoices", "the other two invoices", "at least 3 invoices"),
one said of a named item ("Umber Freight has 7 invoices"), a plan or a measure is not read. Pure
functions of the parsed offices and the records.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from collections import Counter
from itertools import combinations
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from officesim.evaluators.claims import Claim, claims_in, column_totals
from officesim.evaluators.derived import Operand, one_step, total_of
from officesim.evaluators.records import ANCHOR_COLUMN, Entity, Records, id_key, name_key, table_totals
from officesim.evaluators.text import NOT_A_DAY, NUMBER_WORDS, number_of

MAX_ROWS = 1000  # rows of a gold sheet read for the identifiers that say which table they are of
# words of a table's name that say nothing of its items
_NOT_NOUNS = frozenset({"data", "xlsx", "csv", "sheet", "sheets", "table", "list", "log", "register", "file", "the",
                        "and", "of", "all", "new", "old", "copy", "final", "draft", "report", "reports", "line"})


@dataclass(frozen=True)
class ItemSet:
    """A set of things the task defines: the singular nouns that name its items, and the sizes a count of
    it may give (its own, and the number of distinct names under each of its columns of names)."""

    nouns: frozenset[str]
    sizes: frozenset[int]
    what: str


def singular(word: str) -> str:
    """A noun's singular, as nouns are compared ("invoices" is "invoice", "replies" is "reply")."""
    w = word.casefold()
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("ches", "shes", "sses", "xes")):
        return w[:-2]
    if w.endswith("s") and not w.endswith("ss") and len(w) > 3:
        return w[:-1]
    return w


def _nouns_of(*texts: str) -> set[str]:
    out = set()
    for text in texts:
        for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"([a-z])([A-Z])", r"\1 \2", text)):
            s = singular(w)
            if s not in _NOT_NOUNS:
                out.add(s)
    return out


def _tables(records: Records) -> dict[str, tuple[frozenset[str], int, dict[str, int]]]:
    """Each table of the records: the nouns of its items (its file's and sheet's words, the header of its
    identifiers), how many rows it holds, and how many rows each value of a
    column of few values has; once per records."""
    tables = records.__dict__.get("_item_tables")
    if tables is None:
        rows: dict[str, list] = {}
        for e in records.entities:
            if "#" in e.collection and not e.collection.endswith(("#lines", "#mail")):
                rows.setdefault(e.collection, []).append(e)
        tables = {}
        for collection, entities in rows.items():
            path, _, sheet = collection.partition("#")
            nouns = _nouns_of(path.rsplit("/", 1)[-1].rsplit(".", 1)[0], sheet)
            first = entities[0]
            nouns |= _nouns_of(next((label for label, c in first.attributes if c.kind == "id" and label), ""))
            # a table of identified items counts the rows that carry one: a "Total" line below them is no item
            with_id = sum(1 for e in entities if any(c.kind == "id" for _l, c in e.attributes))
            size = with_id if with_id * 2 >= len(entities) else len(entities)
            tables[collection] = (frozenset(nouns), size,
                                  dict(Counter(w for _l, w in (p for e in entities for p in e.words))))
        records.__dict__["_item_tables"] = tables
    return tables


def _collection_nouns(records: Records, collection: str) -> frozenset[str]:
    return _tables(records).get(collection, (frozenset(), 0, {}))[0]


def _name_nouns(records: Records, names: Iterable[str]) -> set[str]:
    """The nouns of the columns the office writes these names under, in any table ("Umber Freight" stands
    under "Supplier": the contracts of a list of parties are counted as suppliers too)."""
    labels = records.__dict__.get("_labels_of_name")
    if labels is None:
        labels = {}
        for (_collection, key), heads in records.name_labels.items():
            labels.setdefault(key, set()).update(heads)
        records.__dict__["_labels_of_name"] = labels
    return _nouns_of(*(label for name in names for label in labels.get(name, ())))


def _primary(records: Records, key: str) -> str | None:
    """The table an identifier is the own identifier of (its row's first identifier), if any."""
    for i in records.by_key.get(key, ())[:50]:
        e = records.entities[i]
        first = next((c for _l, c in e.attributes if c.kind == "id"), None)
        if first is not None and id_key(str(first.value)) == key and e.collection in _tables(records):
            return e.collection
    return None


def _rows_set(records: Records, where: str, header: list, rows: list[list]) -> list[ItemSet]:
    """The set of rows a gold sheet changes or lists, named by the sheet and by the table their first
    identifiers belong to; and for each of its columns of text, the set of its distinct values, named by
    the column and by the columns the office writes those names under elsewhere."""
    if not rows:
        return []
    nouns = _nouns_of(where.rsplit("/", 1)[-1].rsplit(".", 1)[0].replace("#", " "))
    owners: Counter = Counter()
    keys: list[str] = []
    for row in rows[:MAX_ROWS]:  # which table the rows belong to is clear from the first of them
        for cell in row:
            if isinstance(cell, str):
                ids = claims_in(cell, year=None, kinds=("id",))
                if ids:
                    keys.append(id_key(str(ids[0].value)))
                    owner = _primary(records, keys[-1])
                    if owner:
                        owners[owner] += 1
                    break
    for owner, _n in owners.most_common(1):
        nouns |= _collection_nouns(records, owner)
    out = [ItemSet(frozenset(nouns), frozenset({len(rows)}), f"the rows the task sets in {where}")]
    columns: dict[str, set[str]] = {}
    for j, label in enumerate(header):
        cells = [r[j] for r in rows if j < len(r) and isinstance(r[j], str) and r[j].strip()]
        if cells and label and not any(claims_in(c, year=None, kinds=("date", "id", "number")) for c in cells):
            columns[label] = {name_key(c) for c in cells}  # a column of names, not of dates written as text
    for label, names in _row_names(records, keys).items():
        columns.setdefault(label, set()).update(names)
    return out + _column_sets(records, columns, where)


def _column_sets(records: Records, columns: dict[str, set[str]], where: str) -> list[ItemSet]:
    """One set per column of names: its distinct names, named by the column and by the columns the office
    writes them under ("the four owners" of five contracts; "five suppliers" of five contracts' parties)."""
    return [ItemSet(frozenset(_nouns_of(label) | _name_nouns(records, names)), frozenset({len(names)}),
                    f"the distinct {label!r} of the items the task sets in {where}")
            for label, names in columns.items() if names]


def _row_names(records: Records, keys: Iterable[str]) -> dict[str, set[str]]:
    """The names the rows of these identifiers (their own rows) hold, by column."""
    by_label: dict[str, set[str]] = {}
    for key in keys:
        for i in records.by_key.get(key, ())[:50]:
            e = records.entities[i]
            first = next((c for _l, c in e.attributes if c.kind == "id"), None)
            if first is not None and id_key(str(first.value)) == key:
                for label, name in e.names:
                    by_label.setdefault(label, set()).add(name)
    return by_label


def _trim(row: list) -> list:
    """A row without its trailing empty cells (a column added to a sheet pads every row)."""
    out = list(row or [])
    while out and out[-1] in (None, ""):
        out.pop()
    return out


def changed_rows(rows: list[list], was: list[list]) -> list[list]:
    """The rows of a sheet (below its header) that the gold adds or changes, without a total row."""
    return [row for i, row in enumerate(rows) if i > 0 and (i >= len(was) or _trim(was[i]) != _trim(row))
            and not any(isinstance(c, str) and c.strip().casefold() == "total" for c in row)]


def task_sets(before: dict[str, dict], gold: dict[str, dict], records: Records) -> list[ItemSet]:
    """The sets the gold solution defines (see the module rules)."""
    out: list[ItemSet] = []
    for path, entry in gold.items():
        old = before.get(path)
        if old == entry:
            continue
        kind = entry.get("kind")
        if kind == "xlsx":
            for name, rows in (entry.get("sheets") or {}).items():
                was = ((old or {}).get("sheets") or {}).get(name) or []
                if not rows:
                    continue
                header = [str(h or "") for h in rows[0]]
                changed = changed_rows(rows, was)
                out += _rows_set(records, f"{path}#{name}", header, changed)
        elif kind == "eml" and old is None and "/sent/" in path:
            by_table: dict[str, set[str]] = {}
            for c in claims_in(str(entry.get("body") or ""), year=None, kinds=("id",)):
                key = id_key(str(c.value))
                owner = _primary(records, key)
                if owner:
                    by_table.setdefault(owner, set()).add(key)
            for owner, keys in by_table.items():
                if len(keys) >= 2:
                    out.append(ItemSet(_collection_nouns(records, owner), frozenset({len(keys)}),
                                       f"the items of {owner} a mail of the task names"))
                    out += _column_sets(records, _row_names(records, keys), f"a mail of the task ({owner})")
    out += _named_sets(records, [(str(e.get("body") or ""), [str(a).lower() for a in [*(e.get("to") or []),
                                                                              *(e.get("cc") or [])]])
                                 for p, e in gold.items() if e.get("kind") == "eml" and p not in before and "/sent/" in p])
    return out


def _named_sets(records: Records, mails: list[tuple[str, list[str]]]) -> list[ItemSet]:
    """The rows the gold's mails name by name or go to (the row that holds a recipient's address), by table,
    each mail apart and all together: a name that names at most three rows of a table under a column that
    says what its rows are ("Customer"), e.g. the
    two quiet customers, one per executive's mail; with the distinct names of those rows' columns ("all
    three contacts" of the customers one mail hands over)."""
    together: dict[tuple[str, str], set[int]] = {}
    out: list[ItemSet] = []
    for body, recipients in mails:
        apart: dict[tuple[str, str], set[int]] = {}
        for key in [*records.keys_in(body), *recipients]:
            if key.startswith("#"):
                continue
            places: dict[tuple[str, str], set[int]] = {}
            for i in records.by_key.get(key, ())[:2000]:
                e = records.entities[i]
                if e.collection not in _tables(records):
                    continue
                if "@" in key:  # a recipient: the row that holds the address, under its column of names
                    for label, _k in e.names:
                        if ANCHOR_COLUMN.search(label):
                            places.setdefault((e.collection, label), set()).add(i)
                    continue
                for label, k in e.names:
                    if k == key and ANCHOR_COLUMN.search(label):
                        places.setdefault((e.collection, label), set()).add(i)
            for place, rows in places.items():
                if len(rows) <= 3:
                    apart.setdefault(place, set()).update(rows)
        for place, rows in apart.items():
            together.setdefault(place, set()).update(rows)
            out += _named_rows_sets(records, place, rows, "a mail of the task")
    for place, rows in together.items():
        out += _named_rows_sets(records, place, rows, "the task's mails")
    return out


def _named_rows_sets(records: Records, place: tuple[str, str], rows: set[int], where: str) -> list[ItemSet]:
    table, label = place
    columns: dict[str, set[str]] = {}
    for i in rows:
        for column, name in records.entities[i].names:
            columns.setdefault(column, set()).add(name)
    return [ItemSet(frozenset(_collection_nouns(records, table) | _nouns_of(label)), frozenset({len(rows)}),
                    f"the {label!r} of {table} {where} name"),
            *_column_sets(records, columns, f"{table}, named in {where}")]


def table_sizes(records: Records, nouns: set[str], text: str = "") -> set[int]:
    """The sizes of the whole tables a noun names, and of each category of them (a column of few values)
    that ``text`` names: "the register's 14 supplier contracts" is true whatever the task's sets."""
    sizes: set[int] = set()
    words = set(re.findall(r"[a-z]+", text.casefold()))
    for table_nouns, size, categories in _tables(records).values():
        if nouns & table_nouns:
            sizes.add(size)
            sizes |= {n for word, n in categories.items() if set(word.casefold().split()) <= words}
    for label_nouns, count in _distinct_values(records).items():  # "8 teams": the Team column's values
        if nouns & label_nouns:
            sizes |= count
    return sizes


def _distinct_values(records: Records) -> dict[frozenset[str], set[int]]:
    """How many distinct values each column of names or of few values holds in its table, by the nouns of
    the column's label ("Team" gives "team"); once per records."""
    found = records.__dict__.get("_distinct_values")
    if found is None:
        values: dict[tuple[str, str], set[str]] = {}
        for e in records.entities:
            if "#" not in e.collection or e.collection.endswith(("#lines", "#mail")):
                continue
            for label, value in (*e.words, *e.names):
                values.setdefault((e.collection, label), set()).add(value.casefold())
        found = {}
        counted = {place: len(distinct) for place, distinct in values.items()} | records.distinct
        for (_collection, label), n in counted.items():
            nouns = frozenset(singular(w) for w in re.findall(r"[a-z]{3,}", label.casefold()))
            if nouns and n > 1:
                found.setdefault(nouns, set()).add(n)
        records.__dict__["_distinct_values"] = found
    return found


_COUNT = re.compile(r"(?i)(?<![\w.,£$€/:-])(?P<n>\d{1,3}|" + "|".join(NUMBER_WORDS) + r")" + NOT_A_DAY + r"\s+"
                    r"(?P<fill>(?:(?!of\b|out\b|in\b|from\b|for\b|to\b|with\b|at\b|on\b|by\b|and\b|or\b|per\b|"
                    # a verb or an adverb ends the count: "All ten now show Status Delivered" counts no statuses
                    r"(?:now|then|still|also|already|all|both|show|shows|showed|shown|are|were|is|was|be|been|have|"
                    r"has|had|got|get|gets|need|needs|needed|went|go|goes|will|would|can|could|should|must|may|"
                    r"might|do|does|did)\b)"
                    r"[a-z][a-z'’-]*\s+){0,2}?)(?P<noun>[a-z]{3,}s|people)\b(?!\s*(?:of|out of)\b)")
# a part or a bound, not the size of a set: "the other two invoices", "at least 3", "only two of"
_PART = re.compile(r"(?i)\b(?:other|remaining|rest|further|additional|more|another|extra|first|last|next|top|"
                   r"least|most|than|about|around|nearly|almost|over|under|up to|within|each|every|per|just|only|"
                   r"some|few|those|these)\s*$")
_PART_FILL = re.compile(r"(?i)\b(?:other|remaining|more|further|additional|extra|new|first|last|next|top|"
                        r"largest|biggest|oldest|newest|smallest|earliest|latest|"
                        # a comparative picks a part too: "the ten older invoices in the run have no PDF"
                        r"older|newer|earlier|later|larger|bigger|smaller|higher|lower)\b")
_PLAN_OR_NOT = re.compile(r"(?i)\b(?:will|would|could|should|shall|if|unless|not|no|never|plan|planned|each|"
                          r"every|per|up to|at least|at most|maximum|minimum|limit)\b")
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+|\n+")


def _counts(text: str) -> Iterator[tuple[str, re.Match, int, str]]:
    """Each count of two or more things ``text`` writes: (its sentence, the match, the number, the text of
    its line before the sentence: "- Umber Freight: £16,388.15 (2 invoices)" counts Umber Freight's)."""
    for line in text.split("\n"):
        at = 0
        for part in _SENTENCE.split(line):
            at = line.find(part, at)
            for m in _COUNT.finditer(part):
                word = m.group("n").lower()
                n = int(word) if word.isdigit() else NUMBER_WORDS[word]
                if n >= 2:
                    yield part, m, n, line[:max(at, 0)]
            at = max(at, 0) + len(part)


def _shown(part: str) -> str:
    words = " ".join(part.split())
    return repr(words if len(words) <= 90 else words[:87] + "…")


_ITEM_HEAD = re.compile(r"\s*(?:[-*•]|\d{1,2}[.)])\s")  # a list item's mark: its label is the item it is about


# a relative clause with its own subject after the counted noun: "the 10 invoices we hold PDFs for", "the
# three contracts I could find a signed copy of"
_RESTRICTED = re.compile(r"(?i)\s+(?:(?:that|which)\s+)?(?:we|I|you|they)\s+(?!(?:are|were|is|have|has|had)\s+"
                         r"(?:to\s+)?(?:approve|pay|chase|review|sign|send|book|hold|list)\b)")


# a bound said of the counted items: "Nine invoices are more than 90 days overdue", "4 orders over £1,000"
_BOUNDED_PART = re.compile(r"(?i)\s+(?:(?:that|which)\s+)?(?:(?:are|were|is|was|have been|had been|stand|fell due)\s+)?"
                           r"(?:more than|over|under|less than|fewer than|at least|older than|above|below|beyond)\s+[£$€]?\d")


def set_count_problems(text: str, sets: list[ItemSet], records: Records, allowed: Iterable[int] = ()) -> list[str]:
    """Counts of a noun that names some of the task's sets, none of whose sizes it is (see the module
    rules); ``allowed``: numbers the instruction and the gold's texts give."""
    if not sets:
        return []
    given = set(allowed)
    out = []
    for part, m, n, line_before in _counts(text):
        noun = singular(m.group("noun"))
        if n in given:
            continue
        naming = [s for s in sets if noun in s.nouns]
        if not naming:
            continue
        before = part[:m.start()]
        if _PART.search(before) or _PART_FILL.search(m.group("fill") or "") or _PLAN_OR_NOT.search(before):
            continue
        if _RESTRICTED.match(part, m.end()):
            continue  # "the 10 invoices we hold PDFs for": a part the writer picks by what they hold
        if _BOUNDED_PART.match(part, m.end()):
            continue  # "Nine invoices are more than 90 days overdue": a part the writer picks by a bound
        listed = [k for k in records.keys_in(part[m.end():]) if k.startswith("#")]
        if len(listed) == n:
            continue  # "Five contracts expiring in the window (CTR-2307, …, CTR-2433)": the count of what it lists
        if any(k for k in records.keys_in(before)) or \
                (line_before.endswith(": ") and _ITEM_HEAD.match(line_before) and any(records.keys_in(line_before))):
            continue  # a count of a named item's things ("Umber Freight has 7 invoices")
        sizes = set().union(*(s.sizes for s in naming)) | table_sizes(records, {noun}, part)
        if n in sizes:
            continue
        if _whole_of_parts(n, part[m.end():], sizes):
            continue  # "Of the 15 actions raised, 9 have been recorded as done, leaving 6 open": 6 is the set
        out.append(f"{_shown(part)} counts {m.group('n')} {m.group('noun')}, but the task's sets of them hold "
                   f"{', '.join(str(k) for k in sorted(sizes)[:8])} (e.g. {naming[0].what})")
    return out


_SMALL_NUMBER = re.compile(r"(?i)(?<![\w.,£$€/-])(\d{1,3}|" + "|".join(NUMBER_WORDS) + r")(?![\w.,/:-]\d|\w)")


def _whole_of_parts(n: int, after: str, sizes: set[int]) -> bool:
    """Whether the count ``n`` is a whole the words after it split into two parts, one of them the size of a
    set of the task: "15 actions raised, 9 have been recorded as done, leaving 6 open"."""
    parts = [number_of(m.group(1)) for m in _SMALL_NUMBER.finditer(after[:200])]
    return any(a + b == n and (a in sizes or b in sizes) for a, b in combinations(parts, 2))


# a qualifier that makes a party's count one of a part the rows do not mark ("5 overdue invoices", "since
# May", "in October"): such a count is not read
_WINDOW = re.compile(r"(?i)\b(?:since|last|past|recent\w*|before|after|until|till|between|during|in (?:january|"
                     r"february|march|april|may|june|july|august|september|october|november|december)|this "
                     r"(?:month|week|quarter)|next|open|outstanding|overdue|unpaid|paid|late|due|pending|"
                     r"approved|rejected|held)\b")


_JOINED = re.compile(r"(?i)\b(?:and|both|together|combined|between|total|in all|altogether|plus)\b|&")


def party_count_problems(text: str, records: Records, now_year: int | None = None) -> list[str]:
    """A count of a table's items said of the party the sentence names nearest before it, with nothing that picks
    a part of them ("Umber Freight is the biggest supplier with 28 invoices this year"), that is not how
    many rows of that table name the party: in all, or with or without a value under one of its columns,
    or of one value of a column of few values."""
    tables = _tables(records)
    out = []
    for part, m, n, line_before in _counts(text):
        # the count's own clause: what a dash sets apart before it is another remark ("last order SO-72660 —
        # they have placed only 3 orders all year")
        clause = _DASHED.split(part[:m.start()])[-1] + part[m.start():]
        if (m.group("fill") or "").strip() or _WINDOW.search(clause) or _PLAN_OR_NOT.search(clause):
            continue
        before = part[:m.start()]
        if _PART.search(re.sub(r"(?i)\b(?:with )?(?:only|just)\s*$", "", before)):  # "with only 25 invoices": all
            continue  # of them, stressed; "only 3 of them" picks a part, which _COUNT does not read as a count
        noun = singular(m.group("noun"))
        named = [t for t, (nouns, _size, _c) in tables.items() if noun in nouns]
        if not named:
            continue
        found = {k: span for k, span in records.keys_in(before).items() if not k.startswith("#") and "@" not in k}
        if not found and _LIST_LABEL.search(line_before) and _THEY.search(before):
            # "- Heron Bay Resorts: … they have placed 3 orders": the party of the item's label
            label = line_before
            found = {k: (span[0] - len(label), span[1] - len(label))
                     for k, span in records.keys_in(label).items() if not k.startswith("#") and "@" not in k}
            if len(found) != 1:
                continue
        if not found:
            continue
        # several parties: the count is of the one written nearest before it ("Elmstead Uniforms (27
        # invoices), while Pinecrest Catering reached third place with only 25 invoices"), unless what stands
        # between them joins it to another ("Elmstead Uniforms and Pinecrest Catering, 62 invoices")
        parties = [max(found, key=lambda k: found[k][1])]
        if len(found) > 1 and _JOINED.search(before[found[parties[0]][1]:] + " " + before[:found[parties[0]][0]][-40:]):
            continue
        held = {t: [records.entities[i] for i in records.by_key.get(parties[0], ())[:5000]
                    if records.entities[i].collection == t] for t in named}
        held = {t: rows for t, rows in held.items() if len(rows) >= 2}  # "orders": of the tables that hold its
        year = _YEAR_SAID.search(part)  # ("this year", "in 2026": of that year's table, where tables are by year)
        if year and len(held) > 1:
            said = year.group(1) or (str(now_year) if now_year else "")
            held = {t: rows for t, rows in held.items() if said and said in t} or held
        if not held:
            continue
        sizes: set[int] = set()
        for rows in held.values():
            sizes |= _row_counts(rows)
        if n not in sizes:
            table = min(held, key=lambda t: abs(len(held[t]) - n))
            out.append(f"{_shown(part)} counts {m.group('n')} {m.group('noun')} of {parties[0]}, "
                       f"but {table} holds {len(held[table])} of theirs")
    return out


def _row_counts(rows: list[Entity]) -> set[int]:
    """How many of a party's rows a count of them may give: all, those with or without a value under one
    of the columns, those of one value of a column of few values."""
    sizes = {len(rows)}
    labels = {label for e in rows for label, _c in e.attributes} | {label for e in rows for label, _k in e.names}
    for label in labels:
        having = sum(1 for e in rows if any(l == label for l, _c in e.attributes)
                     or any(l == label for l, _k in e.names))
        sizes |= {having, len(rows) - having}
    sizes |= set(Counter(w for e in rows for w in (*e.words, *e.states)).values())
    return sizes


_DASHED = re.compile(r"\s[—–-]\s")
_LIST_LABEL = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+\S.*:\s*$")
_THEY = re.compile(r"(?i)\b(?:they|their|it|its)\b")
_YEAR_SAID = re.compile(r"(?i)\b(?:in|during|for|of)\s+((?:19|20)\d\d)\b|\b(?:this|all|the whole)\s+year\b")


MAX_SPLIT_ROWS = 200  # rows of a set whose sums before and after each date are totals a text may give


def _day_of(cell: object) -> date | None:
    """A cell's day: a date, a datetime or an ISO date written as text."""
    if isinstance(cell, date):
        return cell if not isinstance(cell, datetime) else cell.date()
    if isinstance(cell, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}(?:[ T].*)?", cell.strip()):
        try:
            return date.fromisoformat(cell.strip()[:10])
        except ValueError:
            return None
    return None


def set_totals(before: dict[str, dict], gold: dict[str, dict], records: Records) -> frozenset[float]:
    """The totals a text may give of the task's sets: the sum of each column of numbers over the rows the
    gold writes in a sheet (all of them, and those of each value of a column of text), and over the rows of
    the items a gold mail names by identifier ("The seven invoices come to £28,617.22 in total")."""
    out: set[float] = set()

    def add(rows: list[list], header: list[str]) -> None:
        for j, _label in enumerate(header):
            values = [r[j] for r in rows if j < len(r) and isinstance(r[j], (int, float)) and not isinstance(r[j], bool)]
            if len(values) < 2:
                continue
            out.add(round(abs(sum(values)), 2))
            for k, _other in enumerate(header):  # one category's part ("£12,400 of it for Freight")
                groups: dict[str, tuple[float, int]] = {}
                for r in rows:
                    if j < len(r) and k < len(r) and isinstance(r[k], str) and isinstance(r[j], (int, float)):
                        total, n = groups.get(r[k].strip().casefold(), (0.0, 0))
                        groups[r[k].strip().casefold()] = (total + r[j], n + 1)
                if 1 < len(groups) <= 12:  # a "part" of one row is that row's own value, no total of anything
                    out.update(round(abs(v), 2) for v, n in groups.values() if n >= 2)
            if len(rows) <= MAX_SPLIT_ROWS:  # the rows before or after a date ("15 of them are overdue (£42,540.85)")
                for k, _other in enumerate(header):
                    dated = sorted((d, r[j]) for r in rows if j < len(r) and k < len(r)
                                   and isinstance(r[j], (int, float)) and not isinstance(r[j], bool)
                                   and (d := _day_of(r[k])) is not None)
                    if len(dated) >= 3:
                        run = 0.0
                        for d, v in dated[:-1]:
                            run += v
                            out.update((round(abs(run), 2), round(abs(sum(values) - run), 2)))

    def add_items(text: str) -> None:
        by_table: dict[str, list[Entity]] = {}
        for c in claims_in(text, year=None, kinds=("id",)):
            key = id_key(str(c.value))
            owner = _primary(records, key)
            if owner:
                row = next((records.entities[i] for i in records.by_key.get(key, ())
                            if records.entities[i].collection == owner), None)
                if row is not None and row not in by_table.setdefault(owner, []):
                    by_table[owner].append(row)
        for rows in by_table.values():
            if len(rows) >= 2:
                labels = sorted({l for e in rows for l, a in e.attributes if a.kind == "number"})
                add([[next((float(a.value) for l, a in e.attributes if l == label and a.kind == "number"), None)
                       for label in labels] for e in rows], labels)

    for path, entry in gold.items():
        old = before.get(path)
        if old == entry:
            continue
        if entry.get("kind") == "xlsx":
            for name, rows in (entry.get("sheets") or {}).items():
                was = ((old or {}).get("sheets") or {}).get(name) or []
                if not rows:
                    continue
                changed = changed_rows(rows, was)
                if 2 <= len(changed) <= MAX_ROWS:
                    add(changed, [str(h or "") for h in rows[0]])
                    # and the office's own rows of the items listed ("the seven invoices come to £28,617.22"
                    # of a list that gives no amounts)
                    add_items(" ".join(str(row[0]) for row in changed if row and isinstance(row[0], str)))
        elif entry.get("kind") == "eml" and old is None and "/sent/" in path:
            add_items(str(entry.get("body") or ""))
    return frozenset(out)


def stated_totals(texts: Iterable[str], year: int | None) -> tuple[frozenset[float], frozenset[float]]:
    """The sums of the amounts the gold's own texts give under one label, each amount labelled by the words
    right before it ("overspent by £8,622.34", "overspent by £15,833.88": the total overspend): (every such
    sum, the sums of labels that name a difference). A text that states each item's gap says what the
    gaps add up to."""
    groups: dict[str, list[float]] = {}
    for text in texts:
        for line in text.splitlines():
            cut = 0
            for c in claims_in(line, year=year, kinds=("number",)):
                if c.currency:
                    gap = re.split(r"[,;:()|]", line[cut:c.start])[-1]  # the words since the last break
                    label = " ".join(re.findall(r"[a-z]{3,}", gap.casefold())[-2:])
                    if label:
                        groups.setdefault(label, []).append(abs(float(c.value)))
                cut = c.end
    every, gaps = set(), set()
    for label, values in groups.items():
        if 2 <= len(values) <= MAX_ROWS:
            every.add(round(sum(values), 2))
            if _GAP_WORDS.search(label):
                gaps.add(round(sum(values), 2))
    return frozenset(every), frozenset(gaps)


_TOTAL_WORDS = re.compile(r"(?i)\b(?:in total|totals?|totalling|totaling|come to|comes to|came to|add up to|adds up to|"
                          r"added up|altogether|combined|all told|sum of|worth|together|between them|in all|overall|"
                          r"account(?:s|ed)? for|accounting for|collectively|aggregate)\b")


_GAP_WORDS = re.compile(r"(?i)\b(?:over\w*|under\w*|difference|differ\w*|extra|excess|saving\w*|short\w*|"
                        r"discrepanc\w*|gap|variance|more than|less than|above|below|beyond)\b")


_A_RATE = re.compile(r"(?i)\s*(?:(?:a|an|per|each|every)\s+(?:night|day|week|month|year|hour|unit|item|person|head)\b|each\b)")


def total_problems(text: str, totals: frozenset[float], supported: Callable[[Claim], bool], records: Records,
                   year: int | None, gaps: frozenset[float] = frozenset()) -> list[str]:
    """A total of the task's items ("the seven invoices come to £26,617.22 in total") that is none of the
    sums over its sets (``set_totals``), no value of the office, no total of a column over a whole table,
    nothing the task states (``supported``) and no sum of the amounts the text itself gives. A total of differences ("overspent by £23,711.31 in
    total") is read only where the gold states each difference (``gaps``, of ``stated_totals``)."""
    if not totals and not gaps:
        return []
    out = []
    given: list[Claim] | None = None  # the text's own amounts, read once where a total needs them
    columns: list[float] | None = None  # the sums of its tables' columns, likewise
    for sentence in re.split(r"(?<=[.!?])\s+|\n", text):
        if not _TOTAL_WORDS.search(sentence) or (_GAP_WORDS.search(sentence) and not gaps):
            continue  # a total of differences ("overbilled by £1,271.79 in total") is not a column's sum
        amounts = [c for c in claims_in(sentence, year=year, kinds=("number",)) if c.currency]
        for c in amounts:
            value = round(abs(float(c.value)), 2)
            if _A_RATE.match(sentence, c.end):
                continue  # "came to £187.00 a night": a rate, not the total the sentence speaks of
            if any(abs(value - t) <= 0.011 for t in (*totals, *gaps)) or supported(c) or records.holders(c):
                continue
            if any(abs(value - t) <= 0.011 for t in table_totals(records)):
                continue  # a column's total over a whole table ("the £1,019,015.19 billed by all our suppliers")
            if columns is None:
                columns = column_totals(text, year)
            if any(abs(value - t) <= 0.011 for t in columns):
                continue  # a column's total of the text's own table ("Between them that is £319,572.49")
            if given is None:
                given = [o for o in claims_in(text, year=year, kinds=("number",)) if o.currency]
            others = [Operand(float(o.value), o.currency) for o in given if abs(float(o.value)) != value][:60]
            if total_of(value, c.text, others, c.currency) or one_step(value, c.text, others, currency=c.currency):
                continue
            out.append(f"{' '.join(sentence.split())[:90]!r} gives {c.text.strip()} as a total, but no sum of the "
                       "task's items, no value of the office and no sum of the amounts the text gives is that")
    return out


_UNITS = re.compile(r"\s+(?:[a-z-]+\s+)?(?P<noun>[a-z]{3,}s)\b", re.I)


def named_total_problems(text: str, records: Records, year: int | None) -> list[str]:
    """A total of a column of whole numbers over the rows a sentence names by identifier ("SO-71188,
    SO-71249, SO-71724 — 50 units in all across the three orders") that no such column of those rows sums
    to: the rows of one table that holds every one of them (their Qty, 60)."""
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+|\n", text):
        if not _TOTAL_WORDS.search(sentence):
            continue
        values = claims_in(sentence, year=year, kinds=("number", "id"))
        ids = {id_key(c.value) for c in values if c.kind == "id"}
        if len(ids) < 2:
            continue
        tables: dict[str, list[Entity]] = {}
        for key in ids:
            for i in records.by_key.get(key, ())[:50]:
                e = records.entities[i]
                if "#" in e.collection and not e.collection.endswith(("#lines", "#mail")):
                    tables.setdefault(e.collection, []).append(e)
        whole = [rows for rows in tables.values() if {k for e in rows for k in e.keys} >= ids and len(rows) == len(ids)]
        if not whole:
            continue
        sums: set[float] = set()
        for rows in whole:
            labels = {label for e in rows for label, a in e.attributes if a.kind == "number" and label}
            for label in labels:
                column = [float(a.value) for e in rows for l, a in e.attributes if l == label and a.kind == "number"]
                if len(column) == len(rows) and all(v.is_integer() for v in column):
                    sums.add(sum(column))
        if not sums:
            continue
        for c in values:
            if c.kind != "number" or c.currency or not float(c.value).is_integer() or float(c.value) == len(ids):
                continue
            unit = _UNITS.match(sentence, c.end)
            if not unit or float(c.value) in sums:
                continue
            if singular(unit.group("noun")) in {singular(w) for t in tables for w in re.findall(r"[a-z]{3,}", t.casefold())}:
                continue  # "3 orders in all": a count of the table's rows, some perhaps not named
            if singular(unit.group("noun")) in ("day", "week", "month", "year", "hour", "minute", "night"):
                continue
            named = ", ".join(dict.fromkeys(v.text for v in values if v.kind == "id"))[:60]
            out.append(f"{' '.join(sentence.split())[:90]!r} totals {c.text} over {named}, but "
                       f"their rows sum to {', '.join(f'{s:g}' for s in sorted(sums))}")
    return out


_ALL_PAID = re.compile(r"(?i)\b(?:all|every|each|both)\b[^.;:]{0,80}?\b(?:(?:fully|already|been|now|all)\s+)*"
                       r"(?:paid(?:\s+up|\s+in\s+full)?|settled)\b|\bnothing (?:is |remains )?(?:outstanding|unpaid|owed)\b")
_PAID_LABEL = re.compile(r"(?i)\bpaid\b")
_NOT_SAID = re.compile(r"(?i)\b(?:not|n't|no longer|will|would|once|if|until|unless|when|should|must|yet to)\b|\?")


def paid_claim_problems(text: str, records: Records, year: int | None) -> list[str]:
    """A sentence that says everything of some parties or invoices is paid ("All of these invoices have
    already been paid", "nothing outstanding on any of their invoices") where a row of theirs has no
    value under the table's Paid column. What it is about: the identifiers and parties it names, else
    those of the list right above it; invoices of that year, where the table dates them."""
    from officesim.evaluators.statements import items_above

    out = []
    for m in _ALL_PAID.finditer(text):
        # its clause: "… on Yarrow Energy's YE-2608-0256 (paid 27 Sep); the other six were all paid 8 days late"
        # says nothing of Yarrow Energy's other invoices
        lo = max(text.rfind(".", 0, m.start()), text.rfind("\n", 0, m.start()), text.rfind(";", 0, m.start())) + 1
        hi = min(x for x in (text.find(".", m.end()), text.find("\n", m.end()), len(text)) if x >= 0)
        sentence = text[lo:hi]
        if _NOT_SAID.search(sentence):
            continue
        units = [[k] for k in records.keys_in(sentence) if "@" not in k]
        if not units:  # the items listed right above, one per line: a line naming several ("IL-2610-0444:
            # repeats IL-2609-0354") may be said paid of any of them ("the originals were all paid")
            lines = text[:lo].rstrip("\n").splitlines()
            above = lines[len(lines) - items_above(text, lo + 1):] if items_above(text, lo + 1) else []
            units = [keys for line in above if (keys := [k for k in records.keys_in(line) if "@" not in k])]
        unpaid = []
        for unit in units:
            found = [_unpaid_rows(records, key, year) for key in dict.fromkeys(unit)]
            if found and all(found):
                unpaid = found[0]
                break
        if unpaid:
            row = unpaid[0]
            ident = next((shown_id for l, a in row.attributes if a.kind == "id" for shown_id in [a.text]), row.collection)
            out.append(f"{' '.join(sentence.split())[:90]!r} says it is all paid, but {ident} has no payment date")
    return out


_ONLY_UNPAID = re.compile(r"\b[Oo]nly\s+(?P<who>[A-Z][\w&'’-]*(?:\s+[A-Z][\w&'’-]*){0,3})\s+(?:has|have|still has|is carrying)\s+"
                          r"(?:any\s+)?(?:unpaid|open|outstanding)\b")


def only_unpaid_problems(text: str, records: Records, year: int | None) -> list[str]:
    """"Only Elmstead has unpaid invoices" where another party the text names has a row with no payment date."""
    out = []
    named = {k for k in records.keys_in(text) if not k.startswith("#") and "@" not in k}
    for m in _ONLY_UNPAID.finditer(text):
        who = {k for k in records.keys_in(m.group("who"))}
        for other in sorted(named - who):
            rows = _unpaid_rows(records, other, year)
            if rows:
                out.append(f"{m.group(0)!r} says no other has unpaid items, but {other.title()} has "
                           f"({rows[0].name})")
                break
    return out


def _unpaid_rows(records: Records, key: str, year: int | None) -> list[Entity]:
    """The rows of the tables with a Paid column that name ``key`` and leave that column empty."""
    unpaid: list[Entity] = []
    tables: dict[str, list[Entity]] = {}
    for i in records.by_key.get(key, ())[:2000]:
        e = records.entities[i]
        if "#" in e.collection and not e.collection.endswith(("#lines", "#mail")):
            tables.setdefault(e.collection, []).append(e)
    columns = records.__dict__.get("_paid_columns")
    if columns is None:  # each table's Paid columns, from every row: a table whose rows named here are all unpaid
        columns = {}
        for e in records.entities:
            if "#" in e.collection and not e.collection.endswith(("#lines", "#mail")):
                for l, _a in e.attributes:
                    if l and _PAID_LABEL.search(l):
                        columns.setdefault(e.collection, set()).add(l)
        records.__dict__["_paid_columns"] = columns
    for collection, rows in tables.items():
        paid = columns.get(collection, set())
        if not paid:
            continue
        unpaid += [e for e in rows if (key.startswith("#") or _of_year(e, year))
                   and not paid & {l for l, _a in e.attributes}]
    return unpaid


def _of_year(e: Entity, year: int | None) -> bool:
    """Whether a row is of ``year`` by its first date (an invoice's issue date), or has no date."""
    dates = [a.value for _l, a in e.attributes if a.kind == "date" and isinstance(a.value, date)]
    return year is None or not dates or dates[0].year == year


def part_sizes(before: dict[str, dict], gold: dict[str, dict]) -> dict[int, frozenset[int]]:
    """The sizes of the parts of each sheet the gold writes: whole (its rows) -> how many of them hold each value
    of a column of few values, and how many do not (16 overdue invoices: 14 chased, 2 not; 3 of Pinecrest)."""
    out: dict[int, set[int]] = {}
    for path, entry in gold.items():
        old = before.get(path)
        if entry.get("kind") != "xlsx" or old == entry:
            continue
        for name, rows in (entry.get("sheets") or {}).items():
            was = ((old or {}).get("sheets") or {}).get(name) or []
            body = [r for r in changed_rows(rows, was) if any(v not in (None, "") for v in r)] if rows else []
            if len(body) < 2:
                continue
            parts = out.setdefault(len(body), set())
            for j in range(max(len(r) for r in body)):
                values = Counter(str(r[j]).strip().casefold() if j < len(r) and r[j] not in (None, "") else ""
                                 for r in body)
                if 1 < len(values) <= 12:
                    parts.update(values.values())
                    parts.update(len(body) - n for n in values.values())
    return {whole: frozenset(parts) for whole, parts in out.items()}


_N = r"(\d{1,3}|" + "|".join(NUMBER_WORDS) + r")"
_PART_OF_WHOLE = re.compile(r"(?i)(?<![\w.,£$€])" + _N + r"\s+(?:out\s+)?of\s+(?:the|these|those|all|our|your|its|their)\s+"
                            + _N + r"\b(?!\s*(?:%|per\b|days?\b|weeks?\b|months?\b|years?\b))")
_ROUGHLY = re.compile(r"(?i)\b(?:about|around|roughly|approximately|nearly|almost|some|over|under|at least|more than|"
                      r"fewer than|less than|up to)\s+$")


def part_count_problems(text: str, parts: dict[int, frozenset[int]], given: Iterable[int]) -> list[str]:
    """"Suppliers have chased 12 of the 16": a count of a part of a set the gold writes (its 16 rows) that no
    column's values part it into (14 chased, 2 not), nor the task's texts give. A count said roughly, a
    whole no sheet of the gold has, and a count the task gives are not read."""
    said = set(given)
    out = []
    for m in _PART_OF_WHOLE.finditer(text):
        n, whole = (int(g) if g.isdigit() else NUMBER_WORDS[g.lower()] for g in (m.group(1), m.group(2)))
        if whole not in parts or n >= whole or n in said or n in parts[whole] \
                or _ROUGHLY.search(text, max(0, m.start() - 20), m.start()):
            continue
        out.append(f"{m.group(0).strip()!r}: no column of the {whole} rows the task writes parts {n} of them "
                   f"(its parts: {', '.join(map(str, sorted(parts[whole])))})")
    return out
