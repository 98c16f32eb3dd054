"""Figures a writer works out from values they state: a total, a difference, a rate, a share, days between.

The closed-world reading (evaluators/claims.py) accepts a number nothing states when it is the result
of one step of arithmetic on supported values written beside it ("£600 for 4 nights, £150 a night";
"£740 against a cap of £500, £240 over"; "promised 3 November, delivered 10 November: 7 days late";
a "Total" under the amounts it adds up). This module only does the arithmetic: which operands are
eligible (stated, supported, near) and whether the text signals a derivation is the caller's rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from itertools import combinations
from typing import Iterable


@dataclass(frozen=True)
class Operand:
    """A supported number written near the derived one, with its currency (None for a plain number)."""

    value: float
    currency: str | None = None


def tolerance(written: str) -> float:
    """Half a unit of the last digit written: "£85.71" for 600 / 7, "86" for 85.71, "14.3%" for 1/7."""
    digits = written.strip().rstrip("%").rstrip()
    decimals = len(digits.rpartition(".")[2]) if "." in digits else 0
    return 0.5 * 10 ** -decimals + 1e-9


def _compatible(a: Operand, b: Operand, currency: str | None) -> bool:
    return not (currency and a.currency and b.currency and a.currency != b.currency)


def one_step(value: float, written: str, operands: Iterable[Operand], *, currency: str | None = None,
             percent: bool = False) -> str | None:
    """How ``value`` (as ``written``) follows from two of ``operands`` in one step (a sum, a difference,
    a product, a quotient; with ``percent``, a share or a change in per cent), or None. Trivial steps
    (adding 0, multiplying by 1) derive nothing."""
    tol = tolerance(written)
    ops = [o for o in operands if o.value != value]
    for a, b in combinations(ops, 2):
        if not _compatible(a, b, currency):
            continue
        x, y = a.value, b.value
        steps: list[tuple[str, float | None]] = []
        if percent:
            steps += [(f"{x:g} / {y:g}", x / y * 100 if y else None), (f"{y:g} / {x:g}", y / x * 100 if x else None),
                      (f"{x:g} vs {y:g}", (x - y) / y * 100 if y else None),
                      (f"{y:g} vs {x:g}", (y - x) / x * 100 if x else None)]
        else:
            if x and y:
                steps += [(f"{x:g} + {y:g}", x + y), (f"{x:g} - {y:g}", abs(x - y))]
            if x not in (0, 1) and y not in (0, 1):
                steps += [(f"{x:g} x {y:g}", x * y), (f"{x:g} / {y:g}", x / y), (f"{y:g} / {x:g}", y / x)]
        for how, result in steps:
            if result is not None and abs(abs(result) - abs(value)) <= tol:
                return how
    return None


def total_of(value: float, written: str, amounts: list[Operand], currency: str | None) -> bool:
    """Whether ``value`` is the sum of ``amounts`` (three or more, in its currency): a total under a list."""
    same = [a.value for a in amounts if currency is None or a.currency in (None, currency)]
    return len(same) >= 3 and abs(sum(same) - value) <= tolerance(written) * 1.0001


def days_between(n: float, dates: list[date]) -> bool:
    """Whether ``n`` days is the span between two of ``dates`` (counted with or without both ends)."""
    if not float(n).is_integer() or n <= 0:
        return False
    return any(abs((a - b).days) in (n, n - 1) for a, b in combinations(dates, 2))
