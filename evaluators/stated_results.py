"""A result the writer says they worked out from figures they just gave: "£310,536.09 against a budget of
£268,000, i.e. £52,536.09 over", "647 units against 319, so 328 more", "£740 less £500 leaves £240".

A connective that announces a result ("i.e.", "so", "that is", "which leaves", "a difference of", "=")
right before a figure says the figure follows from the figures before it in the same sentence. It is false
when no one step of arithmetic on two of those figures (a sum, a difference, a product, a quotient, or a
change or share in per cent) gives it. Figures of other currencies, and sentences with fewer than two
figures before the result, are not read. A pure function of the text.
"""

from __future__ import annotations

import re

from officesim.evaluators.claims import claims_in
from officesim.evaluators.derived import Operand, one_step, total_of
from officesim.evaluators.statements import cut

MAX_TEXT = 20_000  # characters of one text read
MAX_OPERANDS = 8  # figures before a result read as its operands (the nearest ones)
# the words that say what follows is worked out from what came before
_RESULT = re.compile(r"(?i)(?:\bi\.?\s?e\.?,?|\bthat is,?|\bthat's|\bwhich (?:is|leaves|means|comes to)|\bleaving|"
                     r"\bleaves|\bmeaning|\bcomes to|\ba (?:difference|gap|shortfall|overrun|overspend|saving) of|"
                     r"\bover by|\bunder by|(?<![<>])=)"
                     r"\s*(?:a total of\s+|an? (?:overrun|overspend|shortfall|gap|difference) of\s+|about\s+|roughly\s+|"
                     r"around\s+|approximately\s+|just (?:over|under)\s+)?$")
_HEDGED = re.compile(r"(?i)\b(?:about|roughly|around|approximately|nearly|almost|just (?:over|under)|some|~)\s*$")


def result_problems(text: str, year: int | None = None) -> list[str]:
    """Figures said to be worked out from the figures before them that no one step of those gives."""
    out = []
    for st in cut(text[:MAX_TEXT]):
        numbers = [c for c in claims_in(st.text, year=year, kinds=("number",))]
        for i, c in enumerate(numbers):
            lead = st.text[numbers[i - 1].end if i else 0:c.start]
            if i < 2 or not _RESULT.search(lead[-40:]) or "%" in st.text[c.end:c.end + 2]:
                continue
            operands = [Operand(float(o.value), o.currency) for o in numbers[max(0, i - MAX_OPERANDS):i]
                        if not o.currency or o.currency == c.currency]  # "2 x £520.00 = £1,040.00"
            if len(operands) < 2 or any(abs(float(c.value) - o.value) < 1e-9 for o in operands):
                continue
            value, hedged = abs(float(c.value)), _HEDGED.search(lead[-20:]) is not None
            if one_step(value, c.text, operands, currency=c.currency) is None and \
                    not total_of(value, c.text, operands, c.currency) and not _near_enough(value, operands, hedged):
                out.append(f"{' '.join(st.text.split())[:140]!r}: {c.text} does not follow from the figures before it "
                           f"({', '.join(o.text for o in numbers[max(0, i - MAX_OPERANDS):i])})")
    return out


def _near_enough(value: float, operands: list[Operand], hedged: bool) -> bool:
    """A hedged result ("about £42,500") within 2% of a sum or difference of two operands."""
    if not hedged:
        return False
    for a in operands:
        for b in operands:
            if a is not b:
                for r in (a.value + b.value, abs(a.value - b.value)):
                    if r and abs(value - r) <= 0.02 * abs(r):
                        return True
    return False
