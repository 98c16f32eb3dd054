"""The mutants of any task, by its tool set: OfficeBench's operations (runner/mutants.py) or WorkBench's
tools (runner/workbench_mutants.py). The one entry point the validator calls."""

from __future__ import annotations

from typing import Any, Iterable

from officesim.apps.registry import DEFAULT_TOOLSET
from officesim.runner import mutants, workbench_mutants
from officesim.runner.mutants import Mutant


def derive(task: Any, office: dict[str, dict], gold: Iterable[Any] | None = None, answer: Any = ...) -> list[Mutant]:
    """Every mutant of ``task`` from its parsed initial office (and optionally another gold than its own),
    made of the operations of the task's tool set."""
    if (getattr(task, "toolset", None) or DEFAULT_TOOLSET) != DEFAULT_TOOLSET:
        return workbench_mutants.derive(task, office, gold, answer)
    return mutants.derive(task, office, gold, answer)
