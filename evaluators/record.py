"""The episode record (FORMAT §6): the one shape of "how one session went", from grading to report.

The server grades an ended session into an ``EpisodeRecord`` (the ``evaluation`` of the API); the
runner adds what only it knows (trial, agent, tokens, trajectory...) and writes it as one line of
results.jsonl; summary, report, JUnit and merge read the lines back as ``EpisodeRecord``.

To add a field: declare it below with a default (so older results.jsonl lines still read). A field
that only the runner fills also goes into ``RUNNER_FIELDS``, which keeps it out of the API's
``evaluation``; every other field is part of both.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, Field, computed_field, model_serializer
from typing_extensions import NotRequired, TypedDict


class CheckJSON(TypedDict):
    """A check as written (the shape of CheckRecord's JSON, which the API's schema shows): ``checkpoint``
    only when the check has one."""

    check: str
    args: dict[str, Any]
    passed: bool
    message: str
    checkpoint: NotRequired[str]


class CheckRecord(BaseModel):
    """One check as run on one final state: its name and arguments as written, pass/fail and why."""

    check: str
    args: dict[str, Any] = {}
    passed: bool
    message: str
    checkpoint: str | None = None  # the check's name in its task, where it names a step of the work

    @model_serializer(mode="wrap")
    def _lean(self, handler: Any) -> CheckJSON:  # typed, so the schema keeps the fields
        """A check with no checkpoint name is written as before (no ``checkpoint`` key)."""
        data = handler(self)
        if isinstance(data, dict) and data.get("checkpoint") is None:
            data.pop("checkpoint", None)
        return data


# Why an episode has an error (EpisodeRecord.error_kind): "infrastructure", the officesim server or the agent's
# model endpoint could not be reached, timed out, was lost or refused for capacity; "grading", the server
# could not grade the ended session; "agent", the agent's own code raised. The first two leave the episode
# without a verdict (status "error"); the third is the agent's failure.
ErrorKind = Literal["infrastructure", "grading", "agent"]
NO_VERDICT = "error"  # the status of an episode that ended without a verdict (infrastructure or grading)


class FailedCall(BaseModel):
    """The call an episode ended on, when it ended by an error: the phase of the episode, the request
    (method, URL path and host, the timeout in force), the exception, and the frame of our code or the
    agent's that made the call (``site``: ``path:line in function``, the innermost frame outside httpx,
    the standard library and the client's plumbing)."""

    phase: str  # start_server, create_session, agent, finish, collect
    method: str | None = None
    path: str | None = None
    host: str | None = None
    exception: str
    message: str
    timeout_s: float | None = None
    site: str | None = None


class EpisodeRecord(BaseModel):
    """One episode of one task: its verdict, why, what changed, and how it ran.

    The verdict is outcome-centric (docs/grading.md): ``passed`` needs every check to pass
    (and at least one check) AND no side effect, i.e. no difference from the gold solution's office
    outside the task's free paths, AND, where the task scripts a ``needed`` reply of the user, a question
    that reached it before the agent acted on its value (``asking``). ``failed`` names the components
    that failed (``checks``, ``side_effects``, ``asking``). ``side_effects`` lists every difference;
    ``collateral`` those that are changes the gold does not make, ``missing`` the gold's changes the
    agent did not make (None in records older than the split). ``passed_checks_only`` is the lenient, checks-only verdict (OfficeBench's way),
    kept for comparison with published numbers. ``score`` is the fraction of checks passed.
    ``original_passed`` is, for an imported task, the verdict of the benchmark's original evaluation.
    Fields are in the order of a results.jsonl line.
    """

    task_id: str
    category: int | None = None
    apps: list[str] = []
    # The task as the runner knew it, so a report or a comparison needs no task files: its scenario
    # (the family's piece of work) and split; below, the gold solution's actions beside the agent's.
    scenario: str | None = None
    split: str | None = None
    # What the task asked, so a reader sees it beside the verdict: its instruction, the conversation that
    # led to it (hard tasks) and the simulated user's scripted replies (``task_request``). None in older records.
    instruction: str | None = None
    dialogue: list[dict[str, str]] | None = None  # each {speaker, at, text}
    user_replies: list[dict[str, Any]] | None = None  # each {when, reply, needed}
    # How hard the task is by construction (tasks/difficulty.py): gold steps, apps, office files, dialogue tokens.
    difficulty: dict[str, int] | None = None
    trial: int = 1
    agent: str | None = None
    model: str | None = None
    mode: str | None = None  # switch_app or all_operations
    passed: bool
    passed_checks_only: bool | None = None  # the checks' verdict alone (None in records older than it)
    # the components that failed: "checks", "side_effects", "asking"; or why there is no verdict: "error",
    # "grading_timeout" (the evaluation passed its time limit in a worker, server/grading.py)
    failed: list[str] = []
    # Imported tasks: the verdict of the benchmark's own evaluation, re-implemented (evaluators/officebench.py),
    # and its functions as run. Absent (None, []) for officesim's own tasks and left out of their lines.
    original_passed: bool | None = None
    original_checks: list[CheckRecord] = []
    score: float = Field(ge=0.0, le=1.0)
    # how the session ended: finished, stagnated, step_limit, expired; "error" when the episode has no verdict
    # (an infrastructure fault or a failed grading: error_kind says which; not counted in the pass rate)
    status: str
    checks: list[CheckRecord] = []
    side_effects: list[str] = []  # every difference from the gold office outside the free paths
    collateral: list[str] | None = None  # ... that the agent made and the gold does not (extra, changed)
    missing: list[str] | None = None  # ... that the gold makes and the agent did not
    asking: list[str] = []  # why the asking failed: a needed reply not asked before acting on it
    # statements the agent wrote that the reading against the office's records could not bind or read
    # (evaluators/truth.py): what is not graded, counted; None where there is no office to read against
    unread: int | None = None
    changes: list[str] = []  # every change to the office, for reports
    answer: str | None = None
    steps: int = 0
    tokens: dict[str, int] | None = None  # {"prompt", "completion"}
    llm_calls: int = 0
    llm_latency_s: float = 0.0
    wall_time_s: float | None = None
    process: dict[str, int] | None = None  # operation counts against the gold trajectory
    # system.ask_user (apps/asking.py): questions the agent asked, the needed replies the task scripts, and
    # how many of those its questions reached; ask_recall and ask_precision derive from them.
    questions_asked: int = 0
    questions_needed: int = 0
    needed_asked: int = 0
    gold: list[dict[str, Any]] | None = None  # the gold solution's actions
    # The model's messages, for agents that record them (Episode.record_transcript); None otherwise.
    transcript: list[dict[str, Any]] | None = None
    error: str | None = None  # agent or infrastructure error, or why grading failed
    error_kind: ErrorKind | None = None  # which of the three (None: no error, or a record older than it)
    error_call: FailedCall | None = None  # the call the episode ended on, when an exception ended it
    attempts: int = 1  # how many times the episode was played (an infrastructure error is played again)
    retried_errors: list[str] | None = None  # the errors of the earlier attempts, when there were some
    error_traceback: str | None = None  # the whole traceback, written only when there is one
    trajectory: list[dict[str, Any]] | None = None  # every action with its arguments and observation

    @computed_field
    @property
    def checks_passed(self) -> int:
        return sum(1 for c in self.checks if c.passed)

    @computed_field
    @property
    def checks_total(self) -> int:
        return len(self.checks)

    @computed_field
    @property
    def ask_recall(self) -> float | None:
        """The needed questions asked, as a fraction of those the task needs (None: it needs none)."""
        return round(self.needed_asked / self.questions_needed, 4) if self.questions_needed else None

    @computed_field
    @property
    def ask_precision(self) -> float | None:
        """The questions asked that were needed, as a fraction of all asked (None: none asked);
        asking the same thing twice counts once."""
        return round(self.needed_asked / self.questions_asked, 4) if self.questions_asked else None

    @property
    def collateral_effects(self) -> list[str]:
        """The changes the gold does not make (a record older than the split: every side effect)."""
        return self.side_effects if self.collateral is None else self.collateral

    @property
    def failure_labels(self) -> list[str]:
        """What went wrong, in the words of the rates: ``error`` (no verdict, or the agent raised),
        ``checks``, ``collateral`` (the side-effect rate), ``missing`` (the missing rate), ``asking``.
        Derived from those fields rather than ``failed``, whose ``side_effects`` joins collateral and
        missing: a do-nothing agent misses the gold's changes and makes no collateral."""
        if self.passed:
            return []
        if self.no_verdict or {"error", "grading_timeout"} & set(self.failed):  # not graded
            return ["error"]
        named = (("checks", not self.checks or bool(self.failed_checks)), ("collateral", bool(self.collateral_effects)),
                 ("missing", bool(self.missing)), ("asking", bool(self.asking)), ("error", bool(self.error)))
        return [name for name, bad in named if bad] or ["error"]

    @property
    def no_verdict(self) -> bool:
        """Ended without a verdict (status "error": an infrastructure fault or a failed grading): counted
        apart from the agent's failures, never in a pass rate."""
        return self.status == NO_VERDICT

    @property
    def failed_checks(self) -> list[CheckRecord]:
        return [c for c in self.checks if not c.passed]

    # -- building ------------------------------------------------------------------------------
    @classmethod
    def graded(cls, checks: list[CheckRecord], side_effects: list[str] = (), *, collateral: list[str] | None = None,
               missing: list[str] | None = None, asking: list[str] = (), **fields: Any) -> EpisodeRecord:
        """The record of a graded episode: its checks must all pass (and there must be some), it must
        have no side effect, and no needed reply of the user may have gone unasked (``asking`` says why
        one did). Side effects not split into ``collateral`` and ``missing`` count as collateral."""
        good = sum(1 for c in checks if c.passed)
        score = good / len(checks) if checks else 0.0
        checks_ok = bool(checks) and good == len(checks)
        if collateral is None and missing is None:
            collateral, missing = list(side_effects), []
        failed = [name for name, bad in (("checks", not checks_ok), ("side_effects", bool(side_effects)),
                                         ("asking", bool(asking))) if bad]
        return cls(checks=checks, passed=not failed, passed_checks_only=checks_ok, failed=failed, score=score,
                   side_effects=list(side_effects), collateral=list(collateral or []), missing=list(missing or []),
                   asking=list(asking), **fields)

    @classmethod
    def ungraded(cls, task_id: str, status: str, error: str | None, **fields: Any) -> EpisodeRecord:
        """The record of an episode that could not be graded: failed, score 0, ``error`` says why."""
        return cls(task_id=task_id, passed=False, passed_checks_only=False, failed=["error"], score=0.0,
                   status=status, error=error, **fields)

    # -- the two JSON forms ----------------------------------------------------------------------
    def api_dict(self) -> dict[str, Any]:
        """The API's ``evaluation``: the graded fields, with ``checks_passed`` and ``checks_total``."""
        return self.model_dump(mode="json", exclude=set(RUNNER_FIELDS) | self._absent_original())

    def to_line(self) -> str:
        """One line of results.jsonl (without its newline); ``model_validate_json`` reads it back."""
        exclude = set(_NOT_IN_RESULTS) | self._absent_original()
        exclude |= {k for k in _LEFT_OUT_WHEN_NONE if getattr(self, k) is None}
        return json.dumps(self.model_dump(mode="json", exclude=exclude), ensure_ascii=False)

    def _absent_original(self) -> set[str]:
        return {"original_passed", "original_checks"} if self.original_passed is None else set()


def task_request(task: Any) -> dict[str, Any]:  # a tasks.model.Task (a floor above: not imported)
    """A record's ``instruction``, ``dialogue`` and ``user_replies`` from its task: the one place they are
    taken, by the grading (the API's evaluation) and by the runner (records without a verdict too)."""
    return {"instruction": task.instruction,
            "dialogue": [t.model_dump(mode="json") for t in task.dialogue] or None,
            "user_replies": [{"when": r.when, "reply": r.reply, "needed": r.needed} for r in task.user_replies] or None}


# Filled by the runner only, so not part of the API's evaluation (tokens, wall_time_s and trajectory
# are: null there, as they have always been).
RUNNER_FIELDS = frozenset({"category", "apps", "trial", "agent", "model", "llm_calls", "llm_latency_s",
                           "process", "error_traceback", "scenario", "split", "gold", "transcript",
                           "error_kind", "error_call", "attempts", "retried_errors"})
# Counts and rates the API shows for convenience; results.jsonl keeps what they derive from.
_NOT_IN_RESULTS = frozenset({"checks_passed", "checks_total", "ask_recall", "ask_precision"})
# Written to results.jsonl only when there is one.
_LEFT_OUT_WHEN_NONE = ("error_traceback", "transcript", "error_kind", "error_call", "retried_errors", "dialogue",
                       "user_replies")
