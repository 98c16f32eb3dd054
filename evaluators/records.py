"""What the office says about each thing: its records, read once per template.

Grading what an agent writes needs more than "this value occurs somewhere in the office": a date is
true of an order when it is *that order's* date. This module turns a parsed office (testbed/parse.py)
into **entities**, each with the keys that name it and its labelled attributes:

- a sheet row under its header (``ledger_2026.xlsx, Ledger row 386``): keys are its identifiers and
  the names in its cells, attributes its cells under their column names;
- a table row of a PDF, document or text file (``Date | Details | Paid out`` lines), the same way;
- a document itself: keys are the identifiers it opens with or labels as its own (``Credit note:
  CN-1043``), attributes its ``label: value`` lines (a label alone on a line with its value on the next
  counts) and, for a short document, every value it states;
- a line of a document or mail naming an identifier: keys that identifier, attributes that line's values;
- a mail: keys its subject and the identifiers in it, attributes its date, time, sender, recipients and
  (for a short mail) the values of its body;
- an event: keys its title, attributes its date, times, place and attendees;
- a person: keys their address and full name (from the task's people, the office's addresses and any
  row that holds an address), attributes their address and the values of the row that describes them.

Values are ``claims.Claim`` objects, compared with ``claims.same_claim`` (numbers by value, dates by
day, phones by their last nine digits, identifiers with or without their hyphen). ``Records`` indexes
entities by key and by value so that a statement's verdict (evaluators/verdicts.py) costs a few
lookups, not a scan of the office. Building is a pure function of the parsed office; a lived-in
office's records are kept in the machine's reference store (testbed/refstore.py) beside its other
derived values.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time
from typing import Any, Iterable, Iterator

from officesim.evaluators.claims import VALUE_KINDS, Claim, _value_claims, same_claim
from officesim.evaluators.facts import phone_key
from officesim.evaluators.text import collapse, document_text

MAX_ROWS = 20_000  # rows of one sheet read (a bigger sheet's later rows are not records)
MAX_LINES = 5_000  # lines of one document or mail body read
SHORT = 80  # a document or mail of at most this many values has them all as its own attributes
GENERIC = 40  # a key naming more entities than this (a status, a month) binds nothing
MAX_KEY_WORDS = 6

# starts only where a run of address characters starts: tried from inside a run, the pattern scanned
# to the run's end from every position of it (quadratic in a long run without "@")
_ADDRESS = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_POSSESSIVE = re.compile(r"['’]s$")
_WORD = re.compile(r"[A-Za-z](?:[A-Za-z'’&.-]*[A-Za-z&])?|\d+")  # a word ends in a letter: "Tools." and
# "Tools'" are "Tools" at a sentence's end or as a possessive
_LABEL_LINE = re.compile(r"^\s*([A-Za-z][A-Za-z /&()'’.-]{1,40}?)\s*[:=]\s+(\S.*)$")
_HEADER_ID = re.compile(r"(?i)\b(?:no|number|nr|ref|reference|id|invoice|order|credit|note|contract|po|account|"
                        r"ticket|case|claim|booking|request|quote|receipt)\b")
_NAME_HEADER = re.compile(r"(?i)name|customer|supplier|client|vendor|company|employee|person|contact|project|"
                          r"product|item|title|account|team|department|site|room|venue|candidate|member|owner|"
                          r"manager|approver|payee|merchant|location|city|office|description|details")


FULL_NAME = re.compile(r"\b[A-Z][a-z]+\s+[A-Z][a-z]+\b")  # a first and last name as a text writes it


def name_key(text: str) -> str:
    """How a name is looked up: its words, case-folded, one space apart ("Ironvale  Logistics" is
    "ironvale logistics")."""
    return " ".join(fold(w) for w in _WORD.findall(text))


def fold(word: str) -> str:
    """A word as names are compared: case-folded, without a possessive "'s" ("Ode's" is "ode")."""
    return _POSSESSIVE.sub("", word.casefold())


def people_column(files: dict[str, dict], is_value: Any, key_headers: tuple[str, ...] = ("name", "employee", "full name"),
                  limit: int = 5_000) -> dict[str, str]:
    """A person's cell under one column, by the sheets of ``files`` that have it and a column naming the
    person: name key (or lowercased address, for an address column) -> the cell's text. ``is_value`` says
    which header is the column wanted; ``key_headers`` which (lowercased) headers name the person. The
    first sheet row naming a person wins. Team, manager and address of a person are all read this way."""
    out: dict[str, str] = {}
    for entry in files.values():
        if entry.get("kind") != "xlsx":
            continue
        for rows in (entry.get("sheets") or {}).values():
            header = [str(c or "").strip() for c in (rows[0] if rows else [])]
            column = next((k for k, h in enumerate(header) if is_value(h)), None)
            keys = [k for k, h in enumerate(header) if h.lower() in key_headers]
            if column is None or not keys:
                continue
            for row in rows[1:limit]:
                if column >= len(row) or row[column] in (None, ""):
                    continue
                for k in keys:
                    if k < len(row) and isinstance(row[k], str) and row[k].strip():
                        who = row[k].strip().lower() if "@" in row[k] else name_key(row[k])
                        out.setdefault(who, str(row[column]).strip())
    return out


def id_key(value: str) -> str:
    """How an identifier is looked up: its letters and digits ("po 1234" and "PO-1234" are one)."""
    return "#" + re.sub(r"[^0-9A-Za-z]", "", value).upper()


def value_key(claim: Claim) -> tuple | None:
    """A claim's value as an index key, coarse enough that ``same_claim`` decides within it: numbers
    to the cent, dates by month and day (a date written without its year is still found), phones by
    their last nine digits. None: a value that is no index key (a bare ordinal day)."""
    v = claim.value
    if claim.kind == "number":
        return ("number", round(float(v), 2))
    if claim.kind == "date":
        if isinstance(v, (date, datetime)):
            return ("date", v.month, v.day)
        if isinstance(v, tuple) and len(v) == 2 and v[0] != "day":
            return ("date", *v)
        return None
    if claim.kind == "id":
        return ("id", re.sub(r"\D", "", str(v)))
    if claim.kind == "phone":
        return ("phone", phone_key(claim.text))
    return (claim.kind, v)


# the columns that name what a row is (a row named there by a name that names few rows is about it)
ANCHOR_COLUMN = re.compile(r"(?i)\b(?:name|customer|supplier|client|vendor|company|employee|person|staff|"
                           r"account|member|colleague|starter|hire|new joiner)s?\b")


@dataclass(frozen=True)
class Entity:
    """One thing the office describes: ``name`` says where (for messages), ``collection`` the table or
    kind it is one item of (values of another item of the same collection are its rivals)."""

    name: str
    collection: str
    keys: tuple[str, ...]
    attributes: tuple[tuple[str, Claim], ...]
    # short words of a sheet row under a column of few values (a region, a product, a team): (label, value)
    words: tuple[tuple[str, str], ...] = ()
    # the names a table row holds, each with the column it stands under: (label, name key)
    names: tuple[tuple[str, str], ...] = ()
    # its value under a column of state values (a leave's Status: Approved, Pending): (label, value)
    states: tuple[tuple[str, str], ...] = ()
    # its value under a column of yes and no (a contract's "Auto-renew": No): (label, value)
    flags: tuple[tuple[str, bool], ...] = ()

    def values(self, kind: str) -> list[tuple[str, Claim]]:
        return [(label, c) for label, c in self.attributes if c.kind == kind]


@dataclass
class Records:
    """The office's entities, indexed by key and by value."""

    entities: list[Entity] = field(default_factory=list)
    by_key: dict[str, list[int]] = field(default_factory=dict)
    by_value: dict[tuple, list[int]] = field(default_factory=dict)
    ids: set[str] = field(default_factory=set)  # every identifier the office states (``id_key``)
    # (collection, column) -> the values of a column of few values: a row's value is one of them, and
    # another of them said of the row is false ("Upland Outdoor (South region)" where its Region is North)
    categories: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    # (collection, name key) -> the columns a name stands under in that table ("zephyr couriers" under
    # "Supplier"): a row's own name under a column is its attribute; another row's is its rival's
    name_labels: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    # (collection, column) -> the values of a column of states ("Status": approved, pending, withdrawn)
    states: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    # the organisations mail comes from (a mail's ``names`` holds its sender's: ("from", key))
    senders: set[str] = field(default_factory=set)
    # (collection, column) -> how many distinct short words a column of few values holds, short ones
    # ("IT") included: "eight teams" where the Team column names eight
    distinct: dict[tuple[str, str], int] = field(default_factory=dict)

    def add(self, entity: Entity) -> None:
        if not entity.keys and not entity.attributes:
            return
        index = len(self.entities)
        self.entities.append(entity)
        for key in set(entity.keys):
            self.by_key.setdefault(key, []).append(index)
        for _label, claim in entity.attributes:
            vk = value_key(claim)
            if vk is not None:
                bucket = self.by_value.setdefault(vk, [])
                if not bucket or bucket[-1] != index:
                    bucket.append(index)
            if claim.kind == "id":
                self.ids.add(id_key(claim.value))
        for label, key in entity.names:
            self.name_labels.setdefault((entity.collection, key), set()).add(label)
            if entity.collection == "mail":
                self.senders.add(key)

    def extended(self, entities: Iterable[Entity]) -> "Records":
        """These records and ``entities`` (the rows an episode wrote), as a new records object: this one,
        shared by every task of its office, is left untouched (the indexes a new entity reaches are copied)."""
        out = Records(list(self.entities), dict(self.by_key), dict(self.by_value), set(self.ids), self.categories,
                      dict(self.name_labels), self.states, set(self.senders), self.distinct)
        copied: set[int] = set()
        for entity in entities:
            for key in set(entity.keys):
                if key in out.by_key and id(out.by_key[key]) not in copied:
                    out.by_key[key] = list(out.by_key[key])
                    copied.add(id(out.by_key[key]))
            for _label, claim in entity.attributes:
                vk = value_key(claim)
                if vk is not None and vk in out.by_value and id(out.by_value[vk]) not in copied:
                    out.by_value[vk] = list(out.by_value[vk])
                    copied.add(id(out.by_value[vk]))
            for label, key in entity.names:
                place = (entity.collection, key)
                if place in out.name_labels and id(out.name_labels[place]) not in copied:
                    out.name_labels[place] = set(out.name_labels[place])
                    copied.add(id(out.name_labels[place]))
            out.add(entity)
        return out

    # -- lookups -----------------------------------------------------------------------------------
    def size(self, collection: str) -> int:
        """How many items a table or kind holds."""
        sizes = self.__dict__.get("_sizes")
        if sizes is None:
            sizes = self.__dict__["_sizes"] = Counter(e.collection for e in self.entities)
        return sizes[collection]

    def named(self, key: str) -> list[int]:
        """The entities a key names, unless it names so many that it names nothing in particular."""
        hits = self.by_key.get(key, [])
        return hits if len(hits) <= GENERIC else []

    def masters(self, key: str) -> list[int]:
        """The rows of the tables that list a party once under a column of names (a customer's row of the
        customer list, a supplier's of the supplier list), or an identifier once (a cost centre's row of the
        budget): what a key that many rows mention (a customer with 100 orders, a cost centre of 300 ledger
        lines) is about when a statement says what kind of thing it is ("Gull Point (West)")."""
        found = self.__dict__.setdefault("_masters", {})
        if key not in found:
            by_table: dict[str, list[int]] = {}
            for i in self.by_key.get(key, ()):
                e = self.entities[i]
                if "#" not in e.collection or e.collection.endswith(("#lines", "#mail")):
                    continue  # a sheet's or a table's row, not a line that mentions it
                if key.startswith("#") or any(own == key and ANCHOR_COLUMN.search(label) for label, own in e.names):
                    by_table.setdefault(e.collection, []).append(i)  # an identifier: the table listing it once
            found[key] = sorted(rows[0] for rows in by_table.values() if len(rows) == 1)
        return found[key]

    def mails_from(self, party: str) -> list[Entity]:
        """The messages of the initial office that ``party`` (one of ``senders``) sent, once per records."""
        found = self.__dict__.setdefault("_mails_from", {})
        if party not in found:
            found[party] = [e for e in self.entities if e.collection == "mail" and ("from", party) in e.names]
        return found[party]

    def labels(self, collection: str) -> frozenset[str]:
        """The column labels the rows of a table hold values under (any row): a row without a value under
        one of them leaves that column empty."""
        found = self.__dict__.setdefault("_labels", {})
        if not found:
            for e in self.entities:
                if "#" in e.collection and not e.collection.endswith(("#lines", "#mail")):
                    found.setdefault(e.collection, set()).update(label for label, _a in e.attributes if label)
            found.setdefault("", set())
        return frozenset(found.get(collection, ()))

    def holders(self, claim: Claim) -> list[int]:
        """The entities one of whose attributes is ``claim``'s value."""
        vk = value_key(claim)
        if vk is None:
            return []
        return [i for i in self.by_value.get(vk, []) if any(same_claim(claim, c) for _l, c in self.entities[i].attributes
                                                          if c.kind == claim.kind)]

    def keys_in(self, text: str) -> dict[str, tuple[int, int]]:
        """The keys of entities that ``text`` names (identifiers, addresses, names of up to
        ``MAX_KEY_WORDS`` words), each with where it stands; a name inside a longer name is not read
        apart ("Print Works" in "Quayside Print Works")."""
        found: dict[str, tuple[int, int]] = {}
        for m in _ADDRESS.finditer(text):
            key = m.group(0).lower().rstrip(".")
            if key in self.by_key:
                found[key] = (m.start(), m.end())
        from officesim.evaluators.claims import claims_in

        for c in claims_in(text, year=None, kinds=("id",)):
            key = id_key(c.value)
            if key in self.by_key:
                found[key] = (c.start, c.end)
        words = [(fold(m.group(0)), m.start(), m.end()) for m in _WORD.finditer(text)]
        covered = -1
        for i in range(len(words)):
            for n in range(min(MAX_KEY_WORDS, len(words) - i), 0, -1):
                if words[i + n - 1][2] <= covered:
                    break
                key = " ".join(w for w, _s, _e in words[i:i + n])
                if key in self.by_key:
                    found[key] = (words[i][1], words[i + n - 1][2])
                    covered = words[i + n - 1][2]
                    break
        return found


# ---- building -------------------------------------------------------------------------------------
def _cell_claims(value: Any, year: int | None) -> tuple[Claim, ...]:
    if value is None or isinstance(value, bool):
        return ()
    if isinstance(value, (int, float)):
        return (Claim("number", float(value), str(value), precision=0.0),)
    if isinstance(value, datetime):
        out = [Claim("date", value.date(), value.date().isoformat())]
        if value.time() != time(0, 0):
            out.append(Claim("time", value.time().replace(second=0, microsecond=0), value.strftime("%H:%M")))
        return tuple(out)
    if isinstance(value, date):
        return (Claim("date", value, value.isoformat()),)
    if isinstance(value, time):
        return (Claim("time", value.replace(second=0, microsecond=0), value.strftime("%H:%M")),)
    text = str(value)
    if len(text) > 2_000:
        return ()
    return _value_claims(text, year)


def _names_of(text: str, header: str = "") -> list[str]:
    """The names a cell or a table cell holds: the cell without its identifiers and values, when what
    is left is a name of one to ``MAX_KEY_WORDS`` words (one word only under a column of names)."""
    rest = re.sub(r"[A-Z]{1,6}[-/ ]?\d[\d\-/]*|\d[\d,./:-]*|[£$€%]", " ", text)
    key = name_key(rest)
    if not key or any(ch.isdigit() for ch in key):
        return []
    words = key.split()
    if len(words) > MAX_KEY_WORDS or len(key) < 3:
        return []
    if len(words) == 1 and not (_NAME_HEADER.search(header) and len(key) >= 4 and text.strip()[:1].isupper()):
        return []
    return [key]


def _row_entity(name: str, collection: str, header: list[str], row: list[Any], year: int | None) -> Entity:
    keys: list[str] = []
    attributes: list[tuple[str, Claim]] = []
    names: list[tuple[str, str]] = []
    for col, cell in enumerate(row):
        label = header[col] if col < len(header) else ""
        claims = _cell_claims(cell, year)
        attributes += [(label, c) for c in claims]
        keys += [id_key(c.value) for c in claims if c.kind == "id"]
        keys += [str(c.value) for c in claims if c.kind == "email"]
        if isinstance(cell, str):
            found = _names_of(cell, label)
            keys += found
            if label:
                names += [(label, key) for key in found]
    return Entity(name, collection, tuple(dict.fromkeys(keys)), tuple(attributes), names=tuple(names))


def _flag(cell: Any) -> bool | None:
    """A cell's yes or no (True, "Yes", "y", "No"...), else None."""
    if isinstance(cell, bool):
        return cell
    word = str(cell).strip().casefold() if isinstance(cell, str) else ""
    return True if word in ("yes", "y", "true") else False if word in ("no", "n", "false") else None


def _header_index(rows: list[list[Any]]) -> int:
    """The header row of a sheet: the first of its first five rows whose cells are all text."""
    for i, row in enumerate(rows[:5]):
        cells = [c for c in row if c not in (None, "")]
        if len(cells) >= 2 and all(isinstance(c, str) and not any(ch.isdigit() for ch in c) for c in cells):
            return i
    return 0


def _sheet(records: Records, path: str, sheet: str, rows: list[list[Any]], year: int | None) -> None:
    if not rows:
        return
    h = _header_index(rows)
    header = ["" if c is None else str(c) for c in rows[h]]
    collection = f"{path}#{sheet}"
    body = [list(row) for row in rows[h + 1:MAX_ROWS] if any(c not in (None, "") for c in row)]
    columns = _category_columns(header, body)
    stated = _category_columns(header, body, states=True)
    flagged = [c for c in range(len(header)) if header[c].strip() and any(_flag(r[c]) is not None for r in body if c < len(r))
               and all(_flag(r[c]) is not None for r in body if c < len(r) and r[c] not in (None, ""))]
    for r, row in enumerate(rows[h + 1:MAX_ROWS], start=h + 2):
        if any(c not in (None, "") for c in row):
            entity = _row_entity(f"{path}, {sheet} row {r}", collection, header, list(row), year)
            words = tuple((header[c], str(row[c]).strip()) for c in columns
                          if c < len(row) and _category_word(row[c]))
            states = tuple((header[c], str(row[c]).strip()) for c in stated
                           if c < len(row) and _category_word(row[c]))
            flags = tuple((header[c], flag) for c in flagged if c < len(row) and (flag := _flag(row[c])) is not None)
            if words or states or flags:
                entity = replace(entity, words=words, states=states, flags=flags)
            records.add(entity)
    for c, label in enumerate(header):
        cells = {str(row[c]).strip().casefold() for row in body if c < len(row) and isinstance(row[c], str) and row[c].strip()}
        cells -= _TOTAL_CELLS  # a "Total" line below the items is none of them
        if label.strip() and 2 <= len(cells) <= MAX_CATEGORIES and all(len(x.split()) <= 3 for x in cells) \
                and all(isinstance(row[c], str) for row in body if c < len(row) and row[c] not in (None, "")):
            records.distinct[(collection, label)] = len(cells)
    for c in columns:
        records.categories[(collection, header[c])] = frozenset(
            fold_words(str(row[c])) for row in body if c < len(row) and _category_word(row[c]))
    for c in stated:
        records.states[(collection, header[c])] = frozenset(
            fold_words(str(row[c])) for row in body if c < len(row) and _category_word(row[c]))


# a column whose words are a state rather than a kind ("Open", "Paid", "Yes"): said of a row in passing
# ("it will be paid on 3 December") far more often than as its value, so never read as a category
_STATE_HEADER = re.compile(r"(?i)status|state|stage|paid|approved|priority|flag|done|active|notes?|comment|"
                           r"remark|reason|description|details|unit")
MAX_CATEGORIES = 60  # values a column of categories holds at most
_STATUS_HEADER = re.compile(r"(?i)(?:[a-z]+ )?(?:status|state|stage)")


_TOTAL_CELLS = frozenset({"total", "totals", "grand total", "subtotal", "sum", "total:"})


def _category_word(cell: Any) -> bool:
    """A cell that is a short word or two of letters (not a figure, a date or a sentence)."""
    if not isinstance(cell, str):
        return False
    text = cell.strip()
    return 4 <= len(text) <= 40 and len(text.split()) <= 3 and all(ch.isalpha() or ch in " &'-" for ch in text)


def _category_columns(header: list[str], body: list[list[Any]], states: bool = False) -> list[int]:
    """The columns of a table whose values are categories: at least 2 and at most ``MAX_CATEGORIES``
    distinct words, each on at least two rows on average, under a header that is not a state (with
    ``states``: under a header that names one, "Status", "Stage")."""
    out = []
    for c, label in enumerate(header):
        if not label or (_STATUS_HEADER.fullmatch(label.strip()) is None if states else _STATE_HEADER.search(label)):
            continue
        cells = [row[c] for row in body if c < len(row) and row[c] not in (None, "")]
        if len(cells) < 4 or not all(_category_word(x) for x in cells):
            continue
        distinct = {fold_words(str(x)) for x in cells}
        if 2 <= len(distinct) <= MAX_CATEGORIES and len(distinct) * 2 <= len(cells):
            out.append(c)
    return out


def fold_words(text: str) -> str:
    """A category's words as compared: case-folded, spaces collapsed."""
    return " ".join(text.casefold().split())


def _split_row(line: str) -> list[str] | None:
    if line.count(" | ") >= 1:
        return [c.strip() for c in line.split("|")]
    if line.count("\t") >= 1:
        return [c.strip() for c in line.split("\t")]
    return None


def _text_records(records: Records, path: str, kind: str, lines: list[str], year: int | None,
                  own_keys: Iterable[str] = (), own: Iterable[tuple[str, Claim]] = (),
                  names: tuple[tuple[str, str], ...] = ()) -> None:
    """A document's (or mail body's) entities: its table rows, its lines that name identifiers, and
    the document itself with its labelled values."""
    header: list[str] | None = None
    labelled: list[tuple[str, Claim]] = []
    every: list[tuple[str, Claim]] = []
    keys = list(own_keys)
    pending_label: str | None = None
    first_ids = 0
    heading: tuple[tuple[str, Claim], ...] | None = None  # the dates of a document's first line
    for n, raw in enumerate(lines[:MAX_LINES]):
        line = raw.strip()
        if not line:
            header, pending_label = None, None
            continue
        cells = _split_row(line)
        claims = _value_claims(line, year)
        if heading is None:  # "Key accounts weekly — minutes of 29 September 2026": the day each line was said
            heading = tuple((_word_label(line, c) or "heading", c) for c in claims
                            if c.kind == "date") if kind != "mail" else ()
        if cells is not None and not claims and len(cells) >= 2:
            header = cells  # a table's header line: its rows follow
            continue
        if cells is not None and header is not None and claims:
            records.add(_row_entity(f"{path}, line {n + 1}", f"{path}#table", header, cells, year))
        ids = [c for c in claims if c.kind == "id"]
        label_match = _LABEL_LINE.match(line)
        if label_match and not _is_label(label_match.group(1)):
            label_match = None  # "I've got a new work mobile: ..." is a sentence, not a field
        if label_match and claims:
            label = label_match.group(1)
            labelled += [(label, c) for c in claims]
            if _HEADER_ID.search(label):
                keys += [id_key(c.value) for c in ids]
        elif pending_label and claims and len(line) <= 60:
            labelled += [(pending_label, c) for c in claims]
        if ids and first_ids < 3 and n < 6:
            keys += [id_key(c.value) for c in ids]
            first_ids += 1
        if ids and cells is None:  # a line about an identified item: "Invoice QP-2609-0317, £1,372.47, due 3 Oct"
            records.add(Entity(f"{path}, line {n + 1}", f"{path}#lines",
                               tuple(id_key(c.value) for c in ids),
                               tuple((_word_label(line, c), c) for c in claims) + (heading if n else ())))
        every += [("", c) for c in claims]
        pending_label = line if (not claims and len(line) <= 40 and len(line.split()) <= 5) else None
    attributes = [*own, *labelled, *(every if len(every) <= SHORT else [])]
    records.add(Entity(path, kind, tuple(dict.fromkeys(keys)), tuple(attributes), names=names))


_LINE_LABEL = re.compile(r"(?:^|[—–,;:(|]|\s-\s)\s*((?:[A-Za-z]+\s+){0,2}[A-Za-z]+)\s*$")


def _word_label(line: str, claim: Claim) -> str:
    """What a line calls a value: the one to three words right before it, after a dash, a comma or a
    colon ("— due 13 October 2026" is its "due"); nothing where a sentence runs into it."""
    if claim.kind not in ("date", "number", "time") or claim.start < 0:
        return ""
    m = _LINE_LABEL.search(line[:claim.start])
    if not m or len(m.group(1)) > 25:
        return ""
    return m.group(1) if m.group(1).split()[0].casefold() not in _PRONOUNS else ""


_PRONOUNS = {"i", "i've", "i'm", "i'll", "we", "we've", "we're", "you", "you're", "it", "it's", "he", "she", "they",
             "this", "that", "there", "here", "please", "thanks", "thank", "hi", "hello", "dear", "note", "ps"}


def _is_label(label: str) -> bool:
    """A field's name ("Amount due", "Your order", "Payment terms"), not the start of a sentence."""
    words = label.split()
    return 1 <= len(words) <= 4 and words[0].casefold().replace("’", "'") not in _PRONOUNS


def _subject_key(subject: str) -> list[str]:
    key = name_key(re.sub(r"(?i)^\s*(?:(?:re|fwd?|aw|wg)\s*:\s*)+", "", subject))
    return [key] if len(key.split()) >= 3 and len(key) <= 120 else []


def _mail(records: Records, path: str, entry: dict, year: int | None, parties: dict[str, str] | None = None) -> None:
    subject = str(entry.get("subject") or "")
    own: list[tuple[str, Claim]] = []
    when = entry.get("date")
    if when:
        own += [("sent", c) for c in _cell_claims(as_datetime(when), year)]
    for role in ("from", "to", "cc"):
        for a in ([entry.get(role)] if role == "from" else entry.get(role) or []):
            if a:
                own.append((role, Claim("email", str(a).lower(), str(a))))
    keys = [id_key(c.value) for c in _value_claims(subject, year) if c.kind == "id"] + _subject_key(subject)
    party = (parties or {}).get(str(entry.get("from") or "").lower().partition("@")[2].split(".")[0])
    if party:
        keys.append(party)  # the organisation it comes from: "Quayside sent new details on 19 June"
    body = str(entry.get("body") or "").splitlines()
    _text_records(records, path, "mail", [subject, *body], year, own_keys=keys, own=own,
                  names=(("from", party),) if party else ())


def as_datetime(value: Any) -> Any:
    if isinstance(value, (date, datetime)):
        return value
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)


def _event(records: Records, path: str, n: int, ev: dict, year: int | None) -> None:
    title = str(ev.get("summary") or "")
    attributes: list[tuple[str, Claim]] = []
    for label in ("start", "end"):
        if ev.get(label):
            attributes += [(label, c) for c in _cell_claims(as_datetime(ev[label]), year)]
    attributes += [("attendee", Claim("email", str(a).lower(), str(a))) for a in ev.get("attendees") or []]
    for label in ("location", "description"):
        attributes += [(label, c) for c in _value_claims(str(ev.get(label) or "")[:2_000], year)]
    keys = [id_key(c.value) for c in _value_claims(title, year) if c.kind == "id"]
    key = name_key(title)
    if key and len(key.split()) <= MAX_KEY_WORDS + 2:
        keys.append(key)
    records.add(Entity(f"{path}, event {title!r}", "event", tuple(keys), tuple(attributes)))


def _people(records: Records, people: dict[str, str], addresses: Iterable[str]) -> None:
    named = {a.lower(): n for n, a in people.items()}
    for address in sorted({a.lower() for a in addresses} | set(named)):
        keys = [address]
        if address in named:
            keys.append(name_key(named[address]))
        else:
            parts = [p for p in re.split(r"[._\-+]", address.partition("@")[0]) if p.isalpha()]
            if len(parts) >= 2:
                keys.append(f"{parts[0]} {parts[-1]}")
        records.add(Entity(f"person {address}", "person", tuple(keys), (("address", Claim("email", address, address)),)))


def build_records(files: dict[str, dict], year: int | None, people: dict[str, str] | None = None) -> Records:
    """The records of a parsed office (the initial office: the agent's own writing is not a record)."""
    records = Records()
    addresses: set[str] = set()
    mails = []
    for path, entry in sorted(files.items()):
        kind = entry.get("kind")
        if kind == "xlsx":
            for sheet, rows in (entry.get("sheets") or {}).items():
                _sheet(records, path, sheet, rows, year)
        elif kind == "eml":
            mails.append((path, entry))
            addresses |= {str(a).lower() for a in [entry.get("from"), *(entry.get("to") or []),
                                                   *(entry.get("cc") or [])] if a}
        elif kind == "ics":
            for n, ev in enumerate(entry.get("events") or []):
                _event(records, path, n, ev, year)
                addresses |= {str(a).lower() for a in ev.get("attendees") or []}
        elif kind in ("docx", "text", "pdf"):
            _text_records(records, path, "document", document_text(entry).splitlines(), year)
    parties = _parties_by_domain(records)
    for path, entry in mails:
        _mail(records, path, entry, year, parties)
    _people(records, dict(people or {}), addresses)
    return records


MAX_WRITTEN_ROWS = 2_000  # rows of an episode's sheets read as records (a sheet it wrote, rows it added)


def written_rows(records: Records, before: dict[str, dict], after: dict[str, dict], year: int | None) -> list[Entity]:
    """The sheet rows an outcome wrote that the office did not hold: every row of a workbook it made, and
    the rows it added to one that name no item the office knew (a ledger line "RENT-07-810"). What the
    agent's text says of them is read against them ("the Legal recharge RENT-07-810 of 1 June" where its
    own row says 1 July; "Sorrel Bay Cafes (revenue 262,487.00)" where its own schedule says 226,487.00).
    Rows it changed are left to the checks of its cells."""
    out: list[Entity] = []
    for path, entry in sorted(after.items()):
        old = before.get(path)
        if entry.get("kind") != "xlsx" or old == entry:
            continue
        for sheet, rows in (entry.get("sheets") or {}).items():
            rows = [list(r) for r in rows[:MAX_WRITTEN_ROWS]]
            was = ((old or {}).get("sheets") or {}).get(sheet) or []
            if not rows:
                continue
            h = _header_index(rows)
            header = ["" if c is None else str(c) for c in rows[h]]
            held = Counter(tuple(map(str, r)) for r in was[:MAX_WRITTEN_ROWS])
            for r, row in enumerate(rows[h + 1:], start=h + 2):
                if not any(c not in (None, "") for c in row):
                    continue
                if held[tuple(map(str, row))] > 0:
                    held[tuple(map(str, row))] -= 1
                    continue
                collection = f"{path}#{sheet}"
                entity = _row_entity(f"{path}, {sheet} row {r} (as the episode wrote it)", collection, header, row, year)
                words = tuple((header[c], str(row[c]).strip()) for c in range(min(len(header), len(row)))
                              if (collection, header[c]) in records.categories and _category_word(row[c]))
                if words:  # its values under the office's columns of few values ("Location": Warehouse)
                    entity = replace(entity, words=words)
                if old is None or any(k.startswith("#") and k not in records.by_key for k in entity.keys) or any(
                        k not in records.by_key for label, k in entity.names if _NAME_HEADER.search(label)):  # a new person
                    out.append(entity)
    return out


def _parties_by_domain(records: Records) -> dict[str, str]:
    """The organisations the sheets and documents name, by the mail domain their name spells
    ("quaysideprintworks" -> "quayside print works"): a mail from that domain is that party's."""
    out: dict[str, str] = {}
    for key in records.by_key:
        if " " in key and not key.startswith("#") and "@" not in key:
            out.setdefault(key.replace(" ", ""), key)
            out.setdefault(_LEGAL_FORM.sub("", key).replace(" ", ""), key)  # "cobalt software ltd": cobaltsoftware
    return out


_LEGAL_FORM = re.compile(r"\s+(?:ltd|limited|plc|inc|llc|llp|co|gmbh|sa|ag|bv)$")


_AMOUNT_HEADER = re.compile(r"(?i)amount|value|total|sum|gbp|eur|usd|[£$€]")
# a row's cell that an outcome set: (column label, the new cell's values, the old cell's values)
Change = tuple[str, tuple[Claim, ...], tuple[Claim, ...]]


def changed_cells(before: dict[str, dict], after: dict[str, dict], year: int | None) -> dict[str, list[Change]]:
    """The cells an outcome set in the rows of the office's workbooks, by the keys of their rows (an
    identifier, a name): what a statement about the row after the task must say ("PO-4792 delivered
    2026-11-12" where the gold sets its Delivered to that day; "Ines's start date is 14 December")."""
    out: dict[str, list[Change]] = {}
    for path, entry in after.items():
        old = before.get(path)
        if entry.get("kind") != "xlsx" or old is None or old == entry:
            continue
        for sheet, rows in (entry.get("sheets") or {}).items():
            was = ((old.get("sheets") or {}).get(sheet)) or []
            if not rows or rows == was:
                continue
            h = _header_index(rows)
            header = ["" if c is None else str(c) for c in rows[h]]
            # a column of no words of its own ("Amount") is named by its sheet: "a refund of £1,560.00" is
            # said of a Refunds sheet's Amount
            labels = [f"{c} ({sheet})" if c and not label_words(c) and _AMOUNT_HEADER.search(c) else c for c in header]
            for r in range(h + 1, min(len(rows), MAX_ROWS)):
                row, prior = list(rows[r]), list(was[r]) if r < len(was) else []
                if row == prior:
                    continue
                cells = [(labels[c], tuple(_cell_claims(v, year)), tuple(_cell_claims(prior[c], year)) if c < len(prior) else ())
                         for c, v in enumerate(row) if c < len(header) and header[c]
                         and (c >= len(prior) or prior[c] != v)]
                cells = [cell for cell in cells if cell[1]]
                if cells:
                    for key in _row_entity("", "", header, row, year).keys:
                        out.setdefault(key, []).extend(cells)
    return out


def iter_values(entity: Entity, kinds: Iterable[str] = VALUE_KINDS) -> Iterator[Claim]:
    wanted = set(kinds)
    return (c for _l, c in entity.attributes if c.kind in wanted)


def label_words(label: str) -> set[str]:
    """The words that tell one attribute of an entity from another ("Order date" → {"order"}): five-letter
    stems of its words, less those every date or amount column shares."""
    words = {w[:5] for w in (x.casefold() for x in _WORD.findall(label))
             if len(w) >= 3 and not w.isdigit() and w not in _LABEL_STOP}
    for stem, also in _SAID_AS.items():
        if stem in words or (stem == "promi" and "expec" in words):
            words = words | also
    return words


# what a column is also called: "PO-4858 was due for delivery on 2 November" is its Promised; "settled in
# full on 30 July" is its Paid; "placed on 26 November" is an order's Order date
_SAID_AS = {"promi": {"promi", "expec", "due"}, "paid": {"paid", "settl"}, "order": {"order", "place"},
            # "the invoice is payable by 23 November": its Due date
            "due": {"due", "payab"}, "expir": {"expir", "ends", "ending", "lapse"}}


_LABEL_STOP = {"date", "the", "and", "for", "num", "number", "ref", "value", "col", "column", "of", "in", "on",
               "at", "amount", "gbp", "eur", "usd"}


def shown(claim: Claim) -> str:
    return collapse(claim.text)


TABLE_ROWS = 20_000  # rows of all tables a whole-table total is worked out over
_TOTALS_SEEN: dict[int, tuple[Records, list[float]]] = {}


def table_totals(records: Records) -> list[float]:
    """The totals of each column of amounts over a whole table (every row; the rows of each year of a
    date column; each of these with or without a value under another column): what "£1,019,015.19 billed
    by all our suppliers in 2026" works out. Once per records."""
    hit = _TOTALS_SEEN.get(id(records))
    if hit is not None and hit[0] is records:
        return hit[1]
    rows = [e for e in records.entities[:TABLE_ROWS]
            if "#" in e.collection and not e.collection.endswith(("#lines", "#mail"))]
    # a column of amounts: one with a value in a currency or in pence; its round values (980.00) count too
    money = {(e.collection, label) for e in rows for label, a in e.attributes
             if label and a.kind == "number" and (a.currency or not float(a.value).is_integer())}
    sums: dict[tuple, float] = {}
    months: dict[tuple[int, int], set[float]] = {}
    counted: dict[tuple, int] = {}
    for e in rows:
        have = {l for l, _a in e.attributes} | {l for l, _w in e.names}
        dated = {(l, a.value) for l, a in e.attributes if a.kind == "date" and isinstance(a.value, date)}
        years = [None, *{(l, d.year) for l, d in dated}]
        for label, a in e.attributes:
            if a.kind != "number" or (e.collection, label) not in money:
                continue
            for scope in years:
                for mark in ("all", *(("has", l) for l in have if l != label)):
                    k = (e.collection, label, scope, mark)
                    sums[k] = sums.get(k, 0.0) + float(a.value)
            for l, d in dated:  # each month of a date column: "a little above September (£344,977.50)"
                k = (e.collection, label, (l, d.year, d.month), "month")
                sums[k] = sums.get(k, 0.0) + float(a.value)
                counted[k] = counted.get(k, 0) + 1
    for (col, label, scope, mark), v in sums.items():
        # a month of one row is that row's own amount, no total of anything
        if mark == "month" and counted[(col, label, scope, mark)] >= 2:
            months.setdefault(scope[1:], set()).add(round(abs(v), 2))
    totals = {v for (_c, _l, _s, mark), v in sums.items() if mark != "month"}
    totals |= {sums[(col, label, scope, "all")] - v for (col, label, scope, mark), v in sums.items()
               if mark not in ("all", "month")}
    out = sorted(abs(t) for t in totals if abs(t) > 0.005)
    if len(_TOTALS_SEEN) > 8:
        _TOTALS_SEEN.clear()
    _TOTALS_SEEN[id(records)] = (records, out)
    records.__dict__["_month_totals"] = months
    return out


def month_totals(records: Records) -> dict[tuple[int, int], set[float]]:
    """(year, month) -> the totals of each column of amounts over a table's rows of that month of one of its
    date columns (worked out with ``table_totals``, once per records)."""
    if "_month_totals" not in records.__dict__:
        _TOTALS_SEEN.pop(id(records), None)
        table_totals(records)
    return records.__dict__["_month_totals"]
