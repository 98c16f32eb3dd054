"""A person paired with a party ("Lucia Keller for Kite Field Sports", "Kite Field Sports (Jonas Sato)"): an owner,
an account executive, a buddy. Where a table lists the party in rows that name people, and the person stands in
that table beside other parties but in none of this party's rows, the pair is false: the two were swapped or
mixed up. A person the table never names, or a party it does not list, is not read."""

from __future__ import annotations

import re

from officesim.evaluators.records import Records, name_key

_NAME = r"[A-Z][a-z]+(?:[ -][A-Z][a-z]+)+"
_PARTY = r"[A-Z][\w&'’-]*(?:\s+(?:[A-Z][\w&'’-]*|&|of))*"
_FOR = re.compile(rf"(?P<person>{_NAME})\s+(?:for|on|owns|handles|looks after|manages|covers|owning)\s+(?P<party>{_PARTY})")
# "(Quill & Ink Bookshops, account executive Freya Sousa)", "Vantage Security, owner Noor Costa"
_ROLE_AFTER = re.compile(rf"(?P<party>{_PARTY})\s*,\s*(?:whose\s+|their\s+|its\s+)?(?:account executive|account manager|owner|"
                         rf"contract owner|AE|buddy)(?:\s+is)?\s*:?\s+(?P<person>{_NAME})")
_BRACKETED = re.compile(rf"(?P<party>{_PARTY})\s+\((?:(?:owner|owned by|account executive|AE|account manager|buddy)"
                        rf"\s*:?\s*)?(?P<person>{_NAME})\)")


# "Quill & Ink Bookshops (Freya Sousa's account)", "Quill & Ink Bookshops is Freya Sousa's account"
_THEIR_ACCOUNT = r"['’]s\s+(?:own\s+)?(?:account|customer|client|contract|supplier)s?\b"
_BRACKETED_OWN = re.compile(rf"(?P<party>{_PARTY})\s+\((?P<person>{_NAME}){_THEIR_ACCOUNT}\)")
_IS_OWN = re.compile(rf"(?P<party>{_PARTY})\s+(?:is|are|was|were)\s+(?:one of\s+)?(?P<person>{_NAME}){_THEIR_ACCOUNT}")


def _people_by_party(records: Records, party: str) -> dict[str, set[str]]:
    """Per table listing the party: the people its rows naming the party hold."""
    out: dict[str, set[str]] = {}
    for i in records.by_key.get(party, ())[:2000]:
        e = records.entities[i]
        if "#" not in e.collection or e.collection.endswith(("#lines", "#mail")):
            continue
        out.setdefault(e.collection, set()).update(k for _l, k in e.names if k != party)
    return out


# "PO-4505 was requested by Vera Kaur", "SO-71994 (raised by Dmitri Mensah)"
_BY = re.compile(rf"(?P<party>[A-Z]{{1,5}}-\d[\w-]*)\b(?:(?![A-Z]{{1,5}}-\d)(?:[^.;:\n]|\.(?=\d))){{0,90}}?\b(?:requested|raised|placed|ordered|submitted|"
                 rf"entered|booked|created|owned|approved|signed|logged)\s+by\s+(?P<person>{_NAME})")
_ID = re.compile(r"[A-Z]{1,5}-\d[\w-]*")
# "- CTR-2377 Redfern IT Services — Felix Moss": a list item that names its item first and a person last
_ITEM_PERSON = re.compile(rf"(?m)^[ \t]*(?:[-*•]|\d{{1,2}}[.)])[ \t]+(?P<party>[A-Z]{{1,5}}-\d[\w-]*)\b[^\n]{{0,90}}?[ \t][—–-][ \t]+"
                          rf"(?:(?:owner|owned by|account executive|AE|account manager)\s*:?\s*)?(?P<person>{_NAME})[ \t]*\.?[ \t]*$")
_CELL_PERSON = re.compile(rf"^\s*(?P<person>{_NAME})\s*$")


def _pairs(text: str):
    """(what is said, person as written, party as written): the phrasings above, and each row of a table the
    text writes ("| Marigold Care Homes | North | 2026-11-26 | Grace Jensen |") with a cell that is only a
    person's name, paired with every other cell of the row."""
    for pattern in (_FOR, _BRACKETED, _ROLE_AFTER, _BY, _ITEM_PERSON, _BRACKETED_OWN, _IS_OWN):
        for m in pattern.finditer(text):
            yield m.group(0), m.group("person"), m.group("party")
    for line in text.splitlines():
        if line.count("|") < 2:
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        people = [c for c in cells if _CELL_PERSON.match(c)]
        for person in people:
            for party in cells[:cells.index(person)]:  # a row names the party first, its people after
                if party:
                    yield line.strip(), person, party


def _is_person(records: Records, key: str) -> bool:
    """Whether a name is a person's: the office's people, or a name that stands in a sheet under the same
    column as people do (a new starter in the directory's Name column beside their buddy's)."""
    return any(records.entities[i].collection == "person" for i in records.by_key.get(key, ())[:50])


def _same_column(records: Records, a: str, b: str) -> bool:
    """Whether two names stand under one column of one table (two people of the directory's Name column)."""
    def labels(key: str) -> set[tuple[str, str]]:
        return {(records.entities[i].collection, label) for i in records.by_key.get(key, ())[:200]
                for label, k in records.entities[i].names if k == key}
    return bool(labels(a) & labels(b))


def pairing_problems(text: str, records: Records) -> list[str]:
    """Person–party pairs that the tables listing the party contradict."""
    out = []
    for said, person_as, party_as in _pairs(text):
        person = name_key(person_as)
        party = "#" + re.sub(r"[^0-9A-Z]", "", party_as.upper()) if _ID.fullmatch(party_as) else name_key(party_as)
        if party not in records.by_key or person not in records.by_key or person == party or _is_person(records, party) \
                or _same_column(records, person, party):
            continue  # a person beside a person (a starter and their buddy) is no party's person
        tables = _people_by_party(records, party)
        if any(person in people for people in tables.values()):
            continue  # one table pairs them (the customer list's executive, whatever old orders say)
        for table, people in tables.items():
            if person in people or not people:
                continue
            # the person stands in this table's rows of other parties, under the same column
            elsewhere = [i for i in records.by_key.get(person, ())[:2000]
                         if records.entities[i].collection == table]
            if not elsewhere:
                continue
            given = ", ".join(sorted(p.title() for p in people))[:80]
            out.append(f"{' '.join(said.split())[:120]!r}: {table} gives {party_as} to {given}, not {person_as}")
            break
    return list(dict.fromkeys(out))
