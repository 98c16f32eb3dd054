"""A party said to have done nothing over a recent span ("Juniper Dental hasn't placed a single order in the past
two weeks", "no invoices from Umber Freight in the last 30 days") is read against the rows of the table named for
what it counts (orders -> orders_2026.xlsx): a row of that party dated inside the span makes it false. A span
the sentence bounds with a condition ("if", "unless") or a party it does not name is not read."""

from __future__ import annotations

import re
from datetime import date, timedelta

from officesim.evaluators.claims import _sentence_at
from officesim.evaluators.record_counts import _tables
from officesim.evaluators.records import Records
from officesim.evaluators.text import NUMBER_WORDS, number_of

_N = r"\d{1,3}|a|one|" + "|".join(w for w in NUMBER_WORDS if w not in ("zero", "one"))
_QUIET = re.compile(
    r"(?i)\b(?:(?:has|have|had|did)\s*(?:n't|not)\s+(?:placed|sent|made|raised|submitted|logged|booked|had|received|"
    r"issued)\s+(?:a\s+single|any|an?)?\s*|\bno\s+(?:new\s+)?|\bnot\s+(?:a\s+single|one)\s+)"
    r"(?P<noun>orders?|invoices?|payments?|tickets?|claims?|requests?|bookings?)\b"
    r"(?:\s+(?:from|by|with)\s+(?:them|us|him|her))?\s+(?:in|over|during|within|for)\s+the\s+(?:past|last|previous)\s+"
    r"(?P<n>" + _N + r")\s*(?P<unit>days?|weeks?|months?)\b")
_CONDITION = re.compile(r"(?i)\b(?:if|unless|whether|would|should)\b")


def quiet_spell_problems(text: str, records: Records, today: date | None) -> list[str]:
    """Parties said to have no rows of a kind in a recent span where the office dates one of theirs inside it."""
    if today is None:
        return []
    out = []
    for m in _QUIET.finditer(text):
        found = _sentence_at(text, m.start())
        if found is None or _CONDITION.search(found[2]):
            continue
        word = m.group("n").lower()
        n = 1 if word == "a" else number_of(word)
        unit = m.group("unit").lower()[0]
        start = today - (timedelta(days=n) if unit == "d" else timedelta(weeks=n) if unit == "w"
                         else timedelta(days=30 * n))
        tables = set(_tables(records, m.group("noun")))
        if not tables:
            continue
        # the party: named in the sentence, else in the one before it ("Juniper Dental ... . They haven't …")
        keys = [k for k in records.keys_in(found[2]) if not k.startswith("#")]
        if not keys and found[0] > 1:
            before = _sentence_at(text, found[0] - 2)
            keys = [k for k in records.keys_in(before[2]) if not k.startswith("#")] if before else []
        hits = []
        for key in keys[:4]:
            for i in records.by_key.get(key, ())[:5000]:
                e = records.entities[i]
                if e.collection not in tables:
                    continue
                days = [c.value for _l, c in e.attributes if c.kind == "date" and isinstance(c.value, date)]
                if days and start < days[0] <= today:
                    hits.append((days[0], e.name, key))
        if hits:
            day, where, key = max(hits)
            out.append(f"{' '.join(found[2].split())[:90]!r} says {key.title()} has no {m.group('noun')} in the last "
                       f"{m.group('n')} {m.group('unit')}, but {where} is dated {day:%d %B %Y}")
    return out
