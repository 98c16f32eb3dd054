"""What the grading says of each heading's count in a text: one reading shared by the tests of heading counts."""

from __future__ import annotations

from officesim.evaluators.statements import cut
from officesim.evaluators.verdicts import _count_problem


def heading_verdicts(text: str) -> list:
    """The false count verdicts of every heading of ``text`` over the items under it."""
    statements = cut(text)
    return [v for i, s in enumerate(statements) if s.form == "heading" and (v := _count_problem(s, statements, i))]
