"""Counts of invoices paid late, on time or some days late over a period ("Overall 45 invoices were paid after
their due date in the quarter", "a further 12 invoices that were paid exactly 7 days late"), read against the
office's tables that give each row a due date and a paid date: how many of their rows paid in that period (or
due in it) meet the condition. A count no table gives is false; a sentence with no period it can place, or an
office with no such table, is not read."""

from __future__ import annotations

import re
from datetime import date

from officesim.evaluators.claims import _sentence_at
from officesim.evaluators.records import Records, label_words
from officesim.evaluators.text import NUMBER_WORDS, number_of

_N = r"\d{1,4}|" + "|".join(w for w in NUMBER_WORDS if w != "zero")
_COUNT = re.compile(
    r"(?i)(?<![\w.,£$€/-])(?P<n>" + _N + r")\s+(?:(?:more|further|supplier|late)\s+)*"
    r"(?P<noun>invoices|payments|bills)\s+(?:that\s+|which\s+)?(?:were\s+|was\s+|have\s+been\s+|"
    r"had\s+been\s+|got\s+)?(?:all\s+)?paid\s+(?P<pred>late|on\s+time|early|"
    r"(?:after|past|beyond)\s+(?:their|the|its)\s+due\s+dates?|(?:on\s+or\s+)?before\s+(?:their|the|its)\s+due\s+dates?|"
    r"(?:by|on)\s+(?:their|the|its)\s+due\s+dates?|"
    r"exactly\s+(?P<k>\d{1,3}|" + "|".join(NUMBER_WORDS) + r")\s+days?\s+(?:late|after)|"
    r"(?P<k2>\d{1,3})\s+days?\s+(?:late|after)|"
    r"more\s+than\s+(?:(?P<week>a|one)\s+week|(?P<k3>\d{1,3}|" + "|".join(NUMBER_WORDS) + r")\s+days?)\s+(?:late|after))")
_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december"]
_QUARTER = re.compile(r"(?i)\b(?:Q(?P<q>[1-4])|(?P<word>first|second|third|fourth)\s+quarter)(?:\s+(?P<y>20\d\d))?\b")
_MONTH = re.compile(r"(?i)\bin\s+(?P<m>" + "|".join(_MONTHS) + r")(?:\s+(?P<y>20\d\d))?\b")
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4}
MIN_ROWS = 10


def _period(sentence: str, text: str, year: int | None) -> tuple[int, set[int]] | None:
    """The year and months a count is over: a quarter or month its sentence names, else the one quarter the
    text names ("Attached are the invoices we paid late in Q3. I left out a further 12 …")."""
    for where in (sentence, text):
        quarters = {(int(m.group("q")) if m.group("q") else _ORDINAL[m.group("word").lower()], m.group("y"))
                    for m in _QUARTER.finditer(where)}
        months = {(m.group("m").lower(), m.group("y")) for m in _MONTH.finditer(where)}
        if where is text and (months or _MONTH.search(sentence)):
            break  # a month the sentence names is its period, and the text's quarter is not
        if len(quarters) == 1 and not (where is sentence and months):
            q, y = quarters.pop()
            return (int(y) if y else year or 0), {3 * (q - 1) + 1, 3 * (q - 1) + 2, 3 * (q - 1) + 3}
        if where is sentence and len(months) == 1 and not quarters:
            m, y = months.pop()
            return (int(y) if y else year or 0), {_MONTHS.index(m) + 1}
    return None


def _meets(pred: str, k: int | None, days: int) -> bool:
    pred = pred.lower()
    if k is not None and pred.startswith("more"):
        return days > k
    if k is not None:
        return days == k
    if pred.startswith(("late", "after", "past", "beyond")):
        return days > 0
    if pred.startswith("early") or pred.startswith("before") or pred.startswith("on or before"):
        return days < 0 if pred.startswith("early") else days <= 0
    return days <= 0  # on time, by/on their due date


def _paid_tables(records: Records) -> dict[str, list[tuple[date, date]]]:
    """(due, paid) of every row of each table that gives both, for tables of at least ``MIN_ROWS`` such rows."""
    found = records.__dict__.setdefault("_paid_tables", {})
    if "done" in found:
        return found["tables"]
    tables: dict[str, list[tuple[date, date]]] = {}
    for e in records.entities:
        if "#" not in e.collection or e.collection.endswith(("#lines", "#mail")):
            continue
        due = next((c.value for label, c in e.attributes if c.kind == "date" and isinstance(c.value, date)
                    and "due" in label_words(label)), None)
        paid = next((c.value for label, c in e.attributes if c.kind == "date" and isinstance(c.value, date)
                     and label_words(label) & {"paid", "payment", "settled"}), None)
        if due is not None and paid is not None:
            tables.setdefault(e.collection, []).append((due, paid))
    found["tables"] = {k: v for k, v in tables.items() if len(v) >= MIN_ROWS}
    found["done"] = True
    return found["tables"]


def late_count_problems(text: str, records: Records, year: int | None) -> list[str]:
    """Counts of invoices paid late (on time, N days late) over a period that no table of the office gives."""
    if "paid" not in text.lower():
        return []
    tables = _paid_tables(records)
    if not tables:
        return []
    out = []
    for m in _COUNT.finditer(text):
        if re.search(r"(?i)\b(?:other|remaining|rest|of)\s+(?:the\s+)?$", text[max(0, m.start() - 16):m.start()]):
            continue  # "the other 4 invoices were paid on time", "3 of the 7": a part of a set the text gives
        found = _sentence_at(text, m.start())
        sentence = found[2] if found else text
        period = _period(sentence, text, year)
        if period is None:
            continue
        n = number_of(m.group("n"))
        k_word = m.group("k") or m.group("k2") or m.group("k3")
        k = 7 if m.group("week") else (number_of(k_word) if k_word else None)
        pred = m.group("pred")
        y, months = period
        counts = set()
        for rows in tables.values():
            for basis in (1, 0):  # paid in the period, or due in it
                counts.add(sum(1 for due, paid in rows if (paid, due)[1 - basis].year == y
                               and (paid, due)[1 - basis].month in months and _meets(pred, k, (paid - due).days)))
        if n not in counts:
            near = sorted(counts, key=lambda v: abs(v - n))[:2]
            out.append(f"{' '.join(m.group(0).split())!r} counts {n}, but the office's invoices paid that way in that "
                       f"period number {' or '.join(map(str, near))}")
    return out
