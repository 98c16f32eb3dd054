"""The month an item's event is said to fall in: "Both orders were placed in October", "PO-4836 was delivered
in November 2026", against the dates its records hold under the column the verb names (placed: Order date,
delivered: Delivered, paid: Paid).

The items are the identifiers the sentence names; a sentence that names none but speaks of several ("both",
"all", "these", "they") is about the identifiers of the list right above it. Every such item whose column
holds a date must fall in the month said ("both" and "all" speak of each). A negation, a condition or a plan
in the clause is not read; a verb no column of the items' records is called by is not read. Pure function of
the records."""

from __future__ import annotations

import re
from datetime import date

from officesim.evaluators.records import Records, label_words

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_SAID = re.compile(r"(?i)\b(?P<verb>placed|ordered|delivered|received|paid|settled|invoiced|issued|raised|submitted|"
                   r"signed|shipped|dispatched)\s+(?:(?:back|only|all|both|each|already|originally)\s+)?in\s+"
                   r"(?:early\s+|mid-?\s*|late\s+)?(?P<month>" + "|".join(_MONTHS) + r")\b(?:\s+(?P<year>20\d{2}))?")
_NOT_PLAIN = re.compile(r"(?i)\b(?:not|n't|never|if|unless|will|would|should|could|may|might|before|after|"
                        r"until|by|since|or)\b")
_SEVERAL = re.compile(r"(?i)\b(?:both|all|these|those|they|them|each|every)\b")
_LIST_LINE = re.compile(r"(?m)^[ \t]*(?:[-*•–]|\d{1,2}[.)])\s+\S.*$")
MAX_ITEMS = 30


def _sentence(text: str, at: int) -> tuple[int, int]:
    start = max(text.rfind(". ", 0, at) + 1, text.rfind("\n", 0, at) + 1, 0)
    ends = [e for e in (text.find(". ", at), text.find("\n", at)) if e >= 0]
    return start, min(ends) if ends else len(text)


def _list_above(text: str, start: int) -> str:
    """The list whose last item stands right above ``start`` (blank lines allowed between)."""
    lines = text[:start].rstrip().split("\n")
    out: list[str] = []
    for line in reversed(lines):
        if _LIST_LINE.match(line):
            out.append(line)
        elif out or line.strip():
            break
    return "\n".join(reversed(out))


def month_problems(text: str, records: Records) -> list[str]:
    """Each month said of items' events that the dates of their records under the verb's column do not fall
    in (see the module rules)."""
    out = []
    for m in _SAID.finditer(text):
        lo, hi = _sentence(text, m.start())
        clause = text[lo:m.start()]
        if _NOT_PLAIN.search(clause[-60:]) or _NOT_PLAIN.search(text[m.start():m.end()]):
            continue
        ids = [k for k in records.keys_in(text[lo:hi]) if k.startswith("#")]
        if not ids and _SEVERAL.search(clause):
            ids = [k for k in records.keys_in(_list_above(text, lo)) if k.startswith("#")]
        if not ids:
            continue
        verb = label_words(m.group("verb"))
        month = _MONTHS.index(m.group("month").lower()) + 1
        year = int(m.group("year")) if m.group("year") else None
        wrong = []
        for key in ids[:MAX_ITEMS]:
            dates = {a.value for i in records.by_key.get(key, ()) for label, a in records.entities[i].values("date")
                     if isinstance(a.value, date) and verb & label_words(label or "")}
            if dates and not any(d.month == month and (year is None or d.year == year) for d in dates):
                wrong.append(f"{key.lstrip('#').upper()} ({', '.join(sorted(d.isoformat() for d in dates))})")
        if wrong:
            said = " ".join(text[lo:m.end()].split())
            out.append(f"{said[-90:]!r} gives {m.group('month')}, but the records date "
                       f"{'; '.join(wrong)}")
    return out
