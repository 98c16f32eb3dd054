"""Mutants of a task's gold solution: outcomes derived from it that must fail (wrong) or pass (right).

A task's checks and the outcome comparison are proven only as far as someone tried to fool them.
``derive`` does that mechanically: from the task, its gold actions and answer, and its parsed
initial office (``testbed.parse`` of the ``testbed.materialise`` template), it derives

- **wrong** mutants, each changing the outcome in a way the instruction forbids: a number changed, a
  value written one row off, a recipient replaced, a write step dropped, an event moved, a distractor
  deleted, the answer hedged...; the grade must fail every one;
- **right** mutants, each keeping the outcome correct: numbers and dates in another common form, a
  mail reworded, a formula in place of a value, independent steps reordered, reads and
  ``switch_app`` round-trips added...; the grade must pass every one.

The classes are listed once, in ``registry.CLASSES`` (name, kind, what each attacks, the tool sets it
applies to); one module per thing attacked derives them: ``files`` (files and cells, steps), ``mail``,
``events``, ``text`` (written text and the answer), ``asking`` and ``workbench`` (WorkBench's records,
for tasks of that tool set), on ``base`` (what they share) and combined in ``officebench.Deriver``.

Derivation is a pure function (no I/O, no randomness): the same task always gives the same
mutants. Mutants work on the gold's *core* steps (its actions without ``switch_app`` and
``finish_task``); the actions to play are the core steps with reads left out (they change
nothing) and a ``switch_app`` put before every step of another app, so every mutant plays in the
default ``switch_app`` mode. Only ``reads-added`` and ``switch-roundtrips`` keep the gold's reads.
A wrong mutant whose writes and answer are the gold's own (it provably changes nothing) is not
derived, and neither is a mutant equal to an earlier one.
"""

from __future__ import annotations

from typing import Any, Iterable

from officesim.apps.registry import DEFAULT_TOOLSET
from officesim.runner.mutants import officebench, workbench
from officesim.runner.mutants.base import (CREATES, FINISH, Mutant, core_steps, copy_not_move, date_form_fixed, depends,
                                           effects, is_read, nudged, office_path, outcome_key, render, reword,
                                           shell_writes, standalone_numbers, with_switches)
from officesim.runner.mutants.officebench import Deriver
from officesim.runner.mutants.registry import (AUTHORED, CLASSES, RIGHT, RIGHT_CLASSES, TOOLSET_CLASSES,
                                               WORKBENCH_RIGHT_CLASSES, WORKBENCH_WRONG_CLASSES, WRONG, WRONG_CLASSES,
                                               MutantClass, classes)

__all__ = ["AUTHORED", "CLASSES", "CREATES", "FINISH", "RIGHT", "RIGHT_CLASSES", "TOOLSET_CLASSES",
           "WORKBENCH_RIGHT_CLASSES", "WORKBENCH_WRONG_CLASSES", "WRONG", "WRONG_CLASSES", "Deriver", "Mutant",
           "MutantClass", "authored", "classes", "copy_not_move", "core_steps", "date_form_fixed", "depends", "derive",
           "effects", "is_read", "not_applicable", "sample", "nudged", "office_path", "outcome_key", "render", "reword",
           "shell_writes", "standalone_numbers", "with_switches"]


def derive(task: Any, office: dict[str, dict], gold: Iterable[Any] | None = None, answer: Any = ...) -> list[Mutant]:
    """Every mutant of ``task`` from its parsed initial office (and optionally another gold than its own),
    made of the operations of the task's tool set: OfficeBench's (``officebench``) or WorkBench's tools
    (``workbench``)."""
    if (getattr(task, "toolset", None) or DEFAULT_TOOLSET) != DEFAULT_TOOLSET:
        return workbench.derive(task, office, gold, answer)
    return officebench.derive(task, office, gold, answer)


def authored(task: Any) -> list[Mutant]:
    """The task's own ``wrong:`` and ``right:`` solutions as mutants of class ``authored``."""
    out = []
    for kind in (WRONG, RIGHT):
        for sol in getattr(task, kind, None) or []:
            out.append(Mutant(name=sol.name, cls=AUTHORED, kind=kind,
                              actions=[a.model_dump() if hasattr(a, "model_dump") else dict(a) for a in sol.actions],
                              answer=sol.answer))
    return out


def not_applicable(mutants: Iterable[Mutant]) -> list[str]:
    """The classes (wrong and right) that gave no mutant; for another tool set's mutants, of the classes
    that tool set's deriver has."""
    mutants = list(mutants)
    seen = {m.cls for m in mutants}
    toolsets = {m.toolset for m in mutants}
    names = TOOLSET_CLASSES.get(toolsets.pop(), ()) if len(toolsets) == 1 and DEFAULT_TOOLSET not in toolsets \
        else (*WRONG_CLASSES, *RIGHT_CLASSES)
    return [c for c in names if c not in seen]


def sample(mutants: Iterable[Mutant], per_class: int | None) -> list[Mutant]:
    """At most ``per_class`` mutants of each (kind, class), spread evenly over the task's steps (the first,
    the last and evenly between, in derivation order): a long task's gold yields dozens of mutants of one
    class that differ only in which of many alike mails they touch, and each play replays the whole gold.
    Deterministic, like ``derive``; None keeps every mutant."""
    mutants = list(mutants)
    if per_class is None:
        return mutants
    groups: dict[tuple[str, str], list[int]] = {}
    for i, m in enumerate(mutants):
        groups.setdefault((m.kind, m.cls), []).append(i)
    keep: set[int] = set()
    for idx in groups.values():
        n = len(idx)
        if n <= per_class:
            keep.update(idx)
        elif per_class == 1:
            keep.add(idx[0])
        else:
            keep.update(idx[round(j * (n - 1) / (per_class - 1))] for j in range(per_class))
    return [m for i, m in enumerate(mutants) if i in keep]
