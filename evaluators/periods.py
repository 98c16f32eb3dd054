"""The period a piece of work is of: "September's supplier payments are reconciled" where the task's
solution reconciles October's, "Q3 2026 reforecast" where it is Q4's.

The task's own texts (the instruction and the gold's writing) name the period of each kind of work in a
phrase of a period and the thing it qualifies ("October's supplier payments", "the Q4 reforecast", "the
October reconciliation"). A written phrase that qualifies the same thing with another period of the same
kind (another month; another quarter) says the work is of a period it is not. A period the task's texts
also give that thing, or a comparison ("than September", "from September"), is not read. Pure functions.
"""

from __future__ import annotations

import re
from typing import Iterable

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
# a month or a quarter (with its year, if any), then what it qualifies: "October's supplier payments",
# "Q4 2026 reforecast", "the September reconciliation"
_PERIOD_OF = re.compile(r"(?i)\b(?P<period>(?:" + "|".join(_MONTHS) + r")|q[1-4])(?:[ \t]+(?:19|20)\d\d)?(?:['’]s)?"
                        # on one line: "… from July 2028\n\nBest," qualifies nothing
                        r"[ \t]+(?P<thing>[a-z][a-z-]{3,})(?:[ \t]+(?P<more>[a-z][a-z-]{3,}))?")
_COMPARED = re.compile(r"(?i)\b(?:than|from|since|versus|vs\.?|after|before|compared (?:with|to)|unlike|last|previous|"
                       r"next|until|till|to|up on|down on|against|over|with|and|or)\s+$")
_NOT_A_THING = {"2026", "from", "with", "than", "and", "the", "this", "that", "were", "was", "is", "are", "will", "have",
                "has", "had", "onwards", "only", "through", "until", "when", "which", "while"}


def _kind(period: str) -> str:
    return "quarter" if period.lower().startswith("q") and len(period) == 2 else "month"


def _phrases(text: str) -> Iterable[tuple[str, str, str, int]]:
    """(period, kind, thing, start) for each period-and-thing phrase of ``text``, not after a comparison."""
    for m in _PERIOD_OF.finditer(text):
        thing = m.group("thing").lower()
        if thing in _NOT_A_THING or _COMPARED.search(text[max(0, m.start() - 20):m.start()]):
            continue
        yield m.group("period").lower(), _kind(m.group("period")), thing, m.start()


def period_problems(text: str, task_texts: Iterable[str]) -> list[str]:
    """A phrase of ``text`` that gives the thing a period of another kind's value than the task's texts
    give it (see the module rules)."""
    given: dict[tuple[str, str], set[str]] = {}
    for t in task_texts:
        for period, kind, thing, _at in _phrases(str(t or "")):
            given.setdefault((thing, kind), set()).add(period)
    out = []
    for period, kind, thing, at in _phrases(text):
        theirs = given.get((thing, kind))
        if theirs and period not in theirs:
            shown = " ".join(text[at:at + 60].split())[:60]
            out.append(f"{shown!r} gives the {thing} the period {period.title() if kind == 'month' else period.upper()}"
                       f", but the task's is {', '.join(sorted(p.title() if kind == 'month' else p.upper() for p in theirs))}")
    return list(dict.fromkeys(out))
