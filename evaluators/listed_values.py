"""Values a document lists line by line under labels ("Milan: £170.00 a night", "Hamburg: £175.00 a night"):
a policy's caps, a price list, a rate card. An amount a text gives for one label that is another label's line
of the same list ("the travel policy caps Milan hotels at £175.00 a night", £175.00 being Hamburg's) is that
other line's value put on this one: false. Only amounts, only lists of three lines or more, and only where the
sentence names one label of the list: a comparison of two lines ("Milan £170.00, Hamburg £175.00") is left to
the other readers."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from officesim.evaluators.claims import _sentence_at, claims_in
from officesim.evaluators.derived import tolerance
from officesim.evaluators.text import document_text

_LINE = re.compile(r"(?m)^[ \t]*(?:[-*•]\s*)?(?P<label>[A-Z][\w&'’.-]*(?: [\w&'’.-]+){0,3}?)\s*[:=–—-]\s*"
                   r"(?P<value>[£$€]\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?(?:GBP|EUR|USD))\b(?P<rest>[^\n]*)$")
_KINDS = ("docx", "pdf", "txt", "md")
MIN_LINES = 3
# the amount is said as the list's line: a cap, a limit, a rate, what the policy allows
_AS_LIMIT = re.compile(r"(?i)\b(?:caps?|capped|limits?|limited|allowances?|maximum|max|up to|at most|ceiling|thresholds?|"
                       r"rates?|allows?|allowed|policy)\b")


@dataclass(frozen=True)
class ListedValues:
    """One list of labelled amounts of a document: its file, and each label (case-folded) with its amount."""

    where: str
    values: tuple[tuple[str, str, float], ...]  # (label folded, label as written, amount)


def listed_values(files: dict[str, dict]) -> list[ListedValues]:
    """The lists of three or more consecutive "Label: amount" lines of the office's documents."""
    out = []
    for path, entry in files.items():
        if (entry or {}).get("kind") not in _KINDS:
            continue
        block: list[tuple[str, str, float]] = []
        last_end = -1
        text = document_text(entry)[:200_000]
        for m in _LINE.finditer(text):
            if last_end >= 0 and text.count("\n", last_end, m.start()) > 1:
                _close(out, path, block)
                block = []
            amount = float(re.sub(r"[^\d.]", "", m.group("value")))
            block.append((m.group("label").casefold(), m.group("label"), amount))
            last_end = m.end()
        _close(out, path, block)
    return out


def _close(out: list[ListedValues], path: str, block: list[tuple[str, str, float]]) -> None:
    labels = {label for label, _w, _a in block}
    if len(block) >= MIN_LINES and len(labels) == len(block) and len({a for _l, _w, a in block}) > 1:
        out.append(ListedValues(path, tuple(block)))


def swapped_line_problems(text: str, lists: Iterable[ListedValues], year: int | None) -> list[str]:
    """Amounts given for one label of a list that are another label's line and not this one's."""
    lists = list(lists)
    if not lists:
        return []
    out = []
    for c in claims_in(text, year=year, kinds=("number",)):
        if not c.currency:
            continue
        at = _sentence_at(text, c.start)
        sentence = at[2] if at else text
        start = at[0] if at else 0
        clause = re.split(r"[,;:(]|\b(?:but|while|whereas|so)\b", sentence[:c.start - start])[-1] + text[c.start:c.end + 30]
        if not _AS_LIMIT.search(clause):
            continue  # an amount claimed or paid ("your Lisbon hotel was £165.00 a night"), not the list's line
        value, tol = abs(float(c.value)), tolerance(c.text) * 1.0001
        for listed in lists:
            named = [(label, shown, a) for label, shown, a in listed.values
                     if re.search(rf"(?i)\b{re.escape(shown)}\b", sentence)]
            if len(named) != 1 or abs(named[0][2] - value) <= tol:
                continue
            other = [shown for label, shown, a in listed.values if abs(a - value) <= tol]
            if other:
                label, shown, amount = named[0]
                out.append(f"{_short(sentence)!r}: {c.text} is the line for {other[0]} in {listed.where}; "
                           f"the line for {shown} gives {amount:,.2f}")
                break
    return list(dict.fromkeys(out))


def _short(sentence: str) -> str:
    flat = " ".join(sentence.split())
    return flat if len(flat) <= 80 else flat[:79] + "…"
