"""A role given to a person: "Stefan Moreau, the Head of Finance" is false where the directory's Head of
Finance is Joel Fischer and Stefan's own Role is another.

A person's row is the row of a table that holds their name under a column of names ("Name", "Employee");
a role is a value the office writes under a column of roles ("Role", "Job title", "Position") of that
table. A role written right beside a person (in apposition: "Stefan Moreau, the Head of Finance",
"Stefan Moreau (Head of Finance)", "our Head of Finance, Stefan Moreau", "Stefan Moreau is the Head of
Finance") must be the one their row holds under that column. A change ("becomes", "now", "new role"), a
past ("was", "formerly") or a denial ("not") beside it is not read here. Pure functions of the records.
"""

from __future__ import annotations

import re

from officesim.evaluators.records import GENERIC, Entity, Records, name_key

ROLE_COLUMN = re.compile(r"(?i)\b(?:role|job title|title|position|job)\b")
NAME_COLUMN = re.compile(r"(?i)^(?:name|full name|employee|staff|person|colleague)$")
# what may stand between a person and the role said of them
_AFTER_PERSON = re.compile(r"(?i)^\s*(?:,|\(|-|–|—|:)?\s*(?:(?:is|as|our|your|the|their|his|her|who is|who's|acting as|"
                           r"in (?:his|her|their) role as)\s+){0,3}$")
_BEFORE_PERSON = re.compile(r"(?i)^\s*(?:,|:|-|–|—)?\s*$")
_NOT_PLAIN = re.compile(r"(?i)\b(?:becom\w*|became|new|now|promot\w*|appoint\w*|mov\w*|will|was|were|formerly|"
                        r"previously|used to|former|ex-|acting|interim|not|n't|no longer|instead|replac\w*|"
                        r"take[sn]? over|taking over|succeed\w*|until)\b")


def _spans(text: str, key: str) -> list[tuple[int, int]]:
    """Every place ``text`` writes a name key (its words in order, any case, a possessive allowed)."""
    pattern = r"(?i)(?<![\w])" + r"[\W_]+".join(re.escape(w) for w in key.split()) + r"(?:['’]s)?(?![\w])"
    return [(m.start(), m.end()) for m in re.finditer(pattern, text)]


def _rows_named(records: Records, key: str) -> list[int]:
    """The table rows that hold ``key`` under a column of names: the person's own rows."""
    return [i for i in records.by_key.get(key, ())[:GENERIC * 10]
            if any(k == key and NAME_COLUMN.match(label) for label, k in records.entities[i].names)]


def _role_columns(records: Records, key: str) -> set[tuple[str, str]]:
    """(table, column) pairs where ``key`` stands as a role."""
    return {(records.entities[i].collection, label) for i in records.by_key.get(key, ())[:GENERIC * 10]
            for label, k in records.entities[i].names if k == key and ROLE_COLUMN.search(label)}


RELATION_ROWS = 2000  # the rows read for the columns a person is named under (a rep of many orders)


def _relations(records: Records, person: str) -> set[str]:
    """The columns (as name keys) under which a table names ``person``: "Account executive" of an order,
    "Owner" of a contract. A role said of them in those words is what they are to an item."""
    return {name_key(label) for i in records.by_key.get(person, ())[:RELATION_ROWS]
            for label, k in records.entities[i].names if k == person and label}


def given_roles(before: dict[str, dict], after: dict[str, dict]) -> dict[str, frozenset[str]]:
    """The roles an outcome (the gold) gives people in the office's sheets: person key -> role keys. A
    statement after the task may give the new one ("Mira Iyer, Warehouse Supervisor")."""
    out: dict[str, set[str]] = {}
    for path, entry in after.items():
        old = before.get(path)
        if entry.get("kind") != "xlsx" or old is None or old == entry:
            continue
        for sheet, rows in (entry.get("sheets") or {}).items():
            was = ((old.get("sheets") or {}).get(sheet)) or []
            if not rows or rows == was:
                continue
            header = ["" if c is None else str(c).strip() for c in rows[0]]
            for r, row in enumerate(rows[1:], 1):
                if r < len(was) and list(was[r]) == list(row):
                    continue
                people = [name_key(v) for c, v in enumerate(row) if c < len(header) and isinstance(v, str)
                          and NAME_COLUMN.match(header[c])]
                roles = [name_key(v) for c, v in enumerate(row) if c < len(header) and isinstance(v, str)
                         and ROLE_COLUMN.search(header[c])]
                for person in people:
                    out.setdefault(person, set()).update(roles)
    return {k: frozenset(v) for k, v in out.items()}


_HEADS = re.compile(r"(?i)(?:who\s+)?\bheads?\s+(?:up\s+)?(?:the\s+|our\s+)?(?P<team>[A-Z][\w&-]+)(?:\s+team)?\b")


def _short_roles(records: Records) -> dict[str, set[tuple[str, str]]]:
    """The one-word values of the office's role columns ("buyer", "paralegal"), which are no record keys,
    each with the (table, column) pairs it stands in; once per records."""
    cached = records.__dict__.get("_short_roles")
    if cached is None:
        cached = {}
        for e in records.entities:
            for label, w in e.words:
                k = name_key(w)
                if ROLE_COLUMN.search(label) and " " not in k and len(k) >= 4:
                    cached.setdefault(k, set()).add((e.collection, label))
        records.__dict__["_short_roles"] = cached
    return cached


def _held(records: Records, rows: list[int], cols: set[tuple[str, str]]) -> set[str]:
    """The roles a person's rows hold under those columns: names, and one-word values ("Buyer")."""
    return {k for i in rows for label, k in records.entities[i].names if (records.entities[i].collection, label) in cols} | \
        {name_key(w) for i in rows for label, w in records.entities[i].words if (records.entities[i].collection, label) in cols}


_TITLE_NOUNS = (r"Manager|Lead|Director|Head|Clerk|Assistant|Officer|Coordinator|Engineer|Analyst|Executive|Counsel|"
                r"Supervisor|Buyer|Controller|Accountant|Administrator|Specialist|Consultant|Paralegal|Associate|"
                r"Representative|Planner|Designer|Developer|Technician|Secretary|Receptionist|Recruiter|Partner")
# a capitalised job title ("Regional Sales Manager", "Head of Purchasing")
_TITLE = re.compile(r"(?:\b[A-Z][A-Za-z&-]*\s+){0,3}\b(?:" + _TITLE_NOUNS + r")\b(?:\s+of\s+(?:the\s+)?[A-Z][A-Za-z&-]*"
                    r"(?:\s+[A-Z][A-Za-z&-]*)?)?(?![\w-])")


def role_problems(text: str, records: Records, given: dict[str, frozenset[str]] | None = None,
                  items: list[Entity] | None = None) -> list[tuple[str, str, str]]:
    """(role as written, person as written, the person's role) for each role given to a person in
    apposition that their row does not hold, nor the task gives them (``given_roles``; see the module
    rules)."""
    found = [k for k in records.keys_in(text) if not k.startswith("#") and "@" not in k]
    roles = [(k, span, cols) for k in found for cols in [_role_columns(records, k)] if cols for span in _spans(text, k)]
    # a role of one word the keys leave out ("Rafael Kovac, our Buyer in Purchasing")
    short = _short_roles(records)
    roles += [(k, span, cols) for k, cols in short.items() if k not in found and re.search(
        rf"(?<![\w-]){re.escape(k)}(?![\w-])", text, re.I) for span in _spans(text, k)]
    # "Tariq Greco, who heads up Purchasing": the role Head of Purchasing
    for m in _HEADS.finditer(text):
        key = name_key(f"head of {m.group('team')}")
        cols = _role_columns(records, key)
        if cols:
            roles.append((key, (m.start(), m.end()), cols))
    # a job title the office's role columns may not hold at all ("Ines Nair, our Regional Sales Manager"):
    # read against every role the person's rows hold
    taken = [span for _k, span, _c in roles]
    for m in _TITLE.finditer(text):
        if not any(a < m.end() and m.start() < b for a, b in taken):
            roles.append((name_key(m.group(0)), (m.start(), m.end()), None))
    if not roles:
        return []
    people = [(k, span, rows) for k in found for rows in [_rows_named(records, k)] if rows for span in _spans(text, k)]
    out = []
    for role, (rs, re_), cols in roles:
        for person, (ps, pe), rows in people:
            if pe <= rs:
                gap, joined = text[pe:rs], _AFTER_PERSON
            elif re_ <= ps:
                gap, joined = text[re_:ps], _BEFORE_PERSON
            else:
                continue
            if not joined.match(gap):
                continue
            # the apposition's own words: after it only up to the comma or bracket that closes it ("Grace Sato,
            # as Head of Finance, will decide" gives the role plainly, whatever the sentence goes on to plan)
            tail = text[max(pe, re_):max(pe, re_) + 25]
            closed = re.match(r"[^,)\n;]*", tail)
            around = text[max(0, min(ps, rs) - 40):max(pe, re_)] + (closed.group(0) if closed else tail)
            if _NOT_PLAIN.search(around):
                continue
            relation = name_key(text[rs:re_])
            # "Asha Kovac (Account Executive): 1" names no item and no one's: her job, though she is also
            # the account executive of customers; "your account executive, Aiko Amari" is what she is to yours
            possessed = re.search(r"(?i)\b(?:your|their|his|her|its|our|my)\s+(?:\w+\s+){0,2}$", text[max(0, rs - 30):rs])
            held = (_held(records, rows, cols) if cols is not None else _role_held(records, person)) | \
                (given or {}).get(person, frozenset())
            # "From today Yara Dubois, Account Executive, will look after Ivy Lane Bakeries": her job title,
            # given plainly, where the directory holds it (not "your account executive, Yara Dubois")
            # a relation written in lower case ("Maya Nakamura (account executive, in copy)") is what she is to the
            # reader's account, not a job title
            as_job = not possessed and not text[rs:re_].islower() and (
                len([k for k in found if k not in (person, role)]) == 0 or role in held)
            if relation in _relations(records, name_key(text[ps:pe])) and not as_job:
                # "your account executive, Aiko Amari": what she is to the item (its column), not her job;
                # false where the item the statement is about names someone else there (``items``)
                # (the customer list's executive holds, whatever an old order of theirs names)
                held_by = [({k for label, k in item.names if name_key(label) == relation}, item) for item in items or []]
                if not any(name_key(text[ps:pe]) in holders for holders, _i in held_by):
                    for holders, item in held_by:
                        if holders:
                            out.append((text[rs:re_], text[ps:pe],
                                        f"{', '.join(sorted(holders))} as {item.name}'s {relation}"))
                            break
                continue
            if cols is None and any(set(role.split()) <= set(h.split()) for h in held):
                continue  # "Account Executive" of a "Senior Account Executive": the title in short
            if held and role not in held:
                out.append((text[rs:re_], text[ps:pe], ", ".join(sorted(held))))
    return out


# a role said of the one a message is written to: "As the other Warehouse Lead on the team, could you ...",
# "you're our Head of Finance"
_YOU_AS = re.compile(r"(?i)(?:^|[.!?]\s+|\n|,\s*)\s*as\s+(?:(?:the|our|a|an|my)\s+)?(?:other\s+|only\s+|new\s+|senior\s+|team'?s?\s+)?"
                     r"|\byou(?:'re|’re| are)\s+(?:the|our|a|an|my)\s+(?:other\s+|only\s+|new\s+|senior\s+)?"
                     # "We'll look back at your year as Logistics Coordinator"
                     r"|\byour\s+(?:first\s+|last\s+)?(?:year|years|time|work|role|months?)\s+as\s+(?:the\s+|our\s+|a\s+|an\s+)?")
ROLE_REACH = 40  # characters after those words where the role stands


def _someones_first_name(records: Records, word: str) -> bool:
    """Whether a word is the first name of one of the office's people."""
    names = records.__dict__.setdefault("_first_names", {})
    if not names:
        names.update({k.split()[0]: True for e in records.entities if e.collection == "person" for k in e.keys
                      if "@" not in k and len(k.split()) >= 2})
    return word in names


def addressee_role_problems(text: str, addressees: list[str], records: Records,
                            given: dict[str, frozenset[str]] | None = None) -> list[tuple[str, str, str]]:
    """(role as written, person, the person's roles) for a role given to the one person a message is
    written to ("As the other Warehouse Lead on the team, could you cover ...") that their row does not
    hold, nor the task gives them."""
    named = [{k for i in records.by_key.get(a.lower(), ())[:GENERIC]
              for label, k in records.entities[i].names if NAME_COLUMN.match(label)} for a in addressees[:20]]
    out = []
    for m in _YOU_AS.finditer(text):
        # the one called by first name right before ("Anton, copying you as Head of Finance")
        line = text[text.rfind("\n", 0, m.start()) + 1:m.start() + 1]
        vocative = re.match(r"\s*([A-Z][a-z]+),", line)
        called = re.search(r"([A-Z][a-z]+)\s*,?\s*$", text[max(0, m.start() - 30):m.start() + 1].rstrip(", ")) or vocative
        if len(named) == 1:
            people = named[0]
            if vocative and not any(k.split()[0] == vocative.group(1).lower() for k in people):
                continue  # written to Rafael, this line speaks to Anton, who is copied
            if called and not any(k.split()[0] == called.group(1).lower() for k in people) \
                    and _someones_first_name(records, called.group(1).lower()):
                continue  # "Andre, as Head of Purchasing, is copied" in a mail to Anton: said of Andre
        else:  # several addressees
            people = set().union(*[p for p in named if called and any(k.split()[0] == called.group(1).lower() for k in p)]) \
                if called else set()
        if len(people) != 1:
            continue
        person = next(iter(people))
        rows = _rows_named(records, person)
        after = text[m.end():m.end() + ROLE_REACH]
        for key, (start, _end) in records.keys_in(after).items():
            cols = _role_columns(records, key) if start == 0 else set()
            if not cols:
                continue
            held = _held(records, rows, cols)
            held |= (given or {}).get(person, frozenset())
            if held and key not in held and not _NOT_PLAIN.search(text[max(0, m.start() - 30):m.end()]):
                out.append((after[start:_end], person, ", ".join(sorted(held))))
    return out


# a job title the office may not hold at all, said of someone as their role: "your year as Warehouse Lead",
# "Copying Chloe in her role as Finance Manager"
_TITLED = re.compile(r"(?i)(?:\b(?P<whose>your|her|his|their)\s+(?:\w+\s+){0,2}?(?:role|job|year|years|time|work|position)"
                     r"|\b(?P<you>you))\s+as\s+(?:the\s+|our\s+|a\s+|an\s+)?(?-i:(?P<title>(?:[A-Z][A-Za-z&-]*\s+){0,3}(?:" + _TITLE_NOUNS
                     + r")(?:\s+of\s+(?:the\s+)?[A-Z][A-Za-z&-]*(?:\s+[A-Z][A-Za-z&-]*)?)?)(?![\w-]))")  # "Head of Finance"
_FIRST_NAME = re.compile(r"\b[A-Z][a-z]{2,}\b")


def _role_held(records: Records, person: str) -> set[str]:
    """The roles a person's own rows hold under any column of roles (name keys)."""
    rows = _rows_named(records, person)
    cols = {(records.entities[i].collection, label) for i in rows
            for label, _v in (*records.entities[i].names, *records.entities[i].words) if ROLE_COLUMN.search(label)}
    return _held(records, rows, cols)


def titled_role_problems(text: str, addressees: list[str], copied: list[str], records: Records,
                         given: dict[str, frozenset[str]] | None = None) -> list[tuple[str, str, str]]:
    """(title as written, person, the person's roles) for a job title said as someone's role ("your year as
    Warehouse Lead" to the one written to; "Chloe in her role as Finance Manager" of the person copied whose
    first name the sentence gives) where their row holds another under its column of roles, whether or not the
    office knows the title at all. A change ("new role", "will", "becomes") is not read."""
    def people_of(addresses: list[str]) -> dict[str, str]:  # person key -> its first name
        out = {}
        for a in addresses[:20]:
            for i in records.by_key.get(a.lower(), ())[:GENERIC]:
                for label, k in records.entities[i].names:
                    if NAME_COLUMN.match(label):
                        out[k] = k.split()[0]
        return out

    to, cc = people_of(addressees), people_of([*addressees, *copied])
    out = []
    for m in _TITLED.finditer(text):
        before = text[max(0, m.start() - 60):m.start()]
        if _NOT_PLAIN.search(before[-30:] + m.group(0)):
            continue
        line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
        vocative = re.match(r"\s*([A-Z][a-z]+),", line)
        if (m.group("you") or m.group("whose").lower() == "your") and vocative and \
                any(first == vocative.group(1).lower() for first in cc.values()):
            # "Anton, copying you as Head of Finance" in a mail to Rafael: the one the line calls by name
            people = [k for k, first in cc.items() if first == vocative.group(1).lower()]
        elif m.group("you") or m.group("whose").lower() == "your":
            people = list(to) if len(to) == 1 else []
        else:  # the person copied or written to whose first name stands last before it in the sentence
            sentence = before.rsplit(".", 1)[-1]
            firsts = [w.group(0).lower() for w in _FIRST_NAME.finditer(sentence)]
            people = [k for k, first in cc.items() if firsts and first == firsts[-1]]
        if len(people) != 1:
            continue
        person = people[0]
        held = _role_held(records, person) | (given or {}).get(person, frozenset())
        title = name_key(m.group("title"))
        if held and title not in held:
            out.append((m.group("title"), person, ", ".join(sorted(held))))
    return out


# "I've also sent a copy to all the finance managers", "copied in every team lead"
_TO_ALL = re.compile(r"(?i)\b(?:sent|copied|cc'?d|forwarded|e-?mailed|mailed|shared|circulated)\b[^.;:\n]{0,40}?\b"
                     r"(?:to|in|with)?\s*(?:all|every one of|each of|everyone of)\s+(?:the\s+|our\s+)?"
                     r"(?P<role>[a-z][a-z ]{2,40}?)s\b")
_NOT_DONE = re.compile(r"(?i)n't\b|\b(?:not|never|will|shall|going to|should|would|could|can|please|asked|after all|"
                       r"instead|rather)\b")


def group_send_problems(text: str, records: Records, reached: frozenset[str]) -> list[str]:
    """A mail said sent to everyone holding a role ("a copy to all the finance managers") that did not reach
    each person whose row holds that role (two or more of them): ``reached`` is every address the episode's
    mails went to."""
    out = []
    for m in _TO_ALL.finditer(text):
        if _NOT_DONE.search(text[max(0, m.start() - 40):m.start()]) or _NOT_DONE.search(m.group(0)):
            continue
        role = name_key(m.group("role"))
        holders = [e for e in records.entities if e.collection == "person" and any(
            "@" not in k and role in _role_held(records, k) for k in e.keys)]
        if len(holders) < 2:
            continue
        missed = [e for e in holders if not ({k for k in e.keys if "@" in k} & reached)]
        if missed:
            names = ", ".join(sorted(next((k for k in e.keys if "@" not in k), e.name).title() for e in missed))[:100]
            out.append(f"{' '.join(m.group(0).split())!r}: the office's {m.group('role')}s include {names}, whom no mail "
                       f"of the episode reached")
    return out
