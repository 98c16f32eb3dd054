"""The evaluation record of one session (FORMAT §6) and the pure function that computes it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from officesim.evaluators.registry import run_checks
from officesim.evaluators.state import EvalState


class CheckRecord(BaseModel):
    """One check's outcome as stored in a record."""

    check: str
    args: dict[str, Any] = {}
    passed: bool
    message: str


class EvaluationRecord(BaseModel):
    """One JSON line of results.jsonl: how one session went.

    ``passed`` needs every check to pass (and at least one check); ``score`` is the fraction passed.
    Side effects are reported, not scored: the task decides what must hold, the diff shows what else
    changed. The optional fields are filled by whoever knows them (the server, the runner).
    """

    task_id: str
    passed: bool
    score: float = Field(ge=0.0, le=1.0)
    status: str  # how the session ended: finished, stagnated, step_limit, error...
    answer: str | None = None
    checks: list[CheckRecord] = []
    side_effects: list[str] = []
    steps: int = 0
    checks_passed: int = 0
    checks_total: int = 0
    tokens: dict[str, int] | None = None
    wall_time_s: float | None = None
    error: str | None = None
    trajectory: list[dict[str, Any]] | None = None

    @property
    def failed_checks(self) -> list[CheckRecord]:
        return [c for c in self.checks if not c.passed]


def score_of(results: list[dict]) -> tuple[bool, float]:
    """(passed, score) of check results: all must pass and there must be some; score is the fraction."""
    if not results:
        return False, 0.0
    good = sum(1 for r in results if r["passed"])
    return good == len(results), good / len(results)


def evaluate(
    task_checks: list[dict],
    state: EvalState,
    *,
    task_id: str,
    status: str,
    side_effects: list[str],
    steps: int,
) -> EvaluationRecord:
    """Run a task's checks on the final state and build its record; pure (reads nothing but its arguments)."""
    results = run_checks(task_checks, state)
    passed, score = score_of(results)
    return EvaluationRecord(
        task_id=task_id,
        passed=passed,
        score=score,
        status=status,
        answer=state.answer,
        checks=[CheckRecord(**r) for r in results],
        side_effects=list(side_effects),
        steps=steps,
        checks_passed=sum(1 for r in results if r["passed"]),
        checks_total=len(results),
    )
