"""The check registry: ``@check("name")`` turns a pure function into a named, validated check.

A check is ``fn(state: EvalState, *, <args>) -> CheckResult``. Its keyword arguments are its schema
(``apps.registry.model_from_signature``), so task files are validated against the very signature
that runs them. Running a check never raises: a missing file, bad arguments or a bug in a check all
become a failed ``CheckRecord`` whose message says why; ``evaluate`` grades a task's checks into
its ``EpisodeRecord``. A bug in a check (or in the reading of what the agent wrote) is the grader's fault,
not the agent's: ``evaluate`` then gives the episode no verdict (``error``), never a failure.
"""

from __future__ import annotations


import difflib
import inspect
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Callable

from pydantic import BaseModel, ValidationError
from pydantic_core import core_schema

from officesim.apps.registry import model_from_signature
from officesim.evaluators.record import CheckRecord, EpisodeRecord
from officesim.evaluators.facts import REFERENCE_NOW
from officesim.evaluators.state import CheckError, EvalState
from officesim.evaluators.truth import message, written_truth  # also registers the true-context reader
from officesim.evaluators.text import as_datetime, is_cell_ref, is_column_ref


@dataclass(frozen=True)
class CheckResult:
    """What a check function returns: pass/fail and a message saying what was expected and found."""

    passed: bool
    message: str

    @classmethod
    def ok(cls, message: str) -> "CheckResult":
        return cls(True, message)

    @classmethod
    def fail(cls, message: str) -> "CheckResult":
        return cls(False, message)


@dataclass(frozen=True)
class CheckSpec:
    """A registered check: its function, argument model and documentation."""

    name: str
    func: Callable[..., CheckResult]
    model: type[BaseModel]
    description: str
    kind: str  # "exact", "fuzzy" or "predicates": the module that defines it

    @property
    def arg_names(self) -> list[str]:
        return list(self.model.model_fields)

    def signature(self) -> str:
        """``name(a, b=None)`` as written in FORMAT §5."""
        parts = []
        for pname, info in self.model.model_fields.items():
            parts.append(pname if info.is_required() else f"{pname}={info.default!r}".replace("'", '"'))
        return f"{self.name}({', '.join(parts)})"


CHECKS: dict[str, CheckSpec] = {}


def check(name: str) -> Callable[[Callable[..., CheckResult]], Callable[..., CheckResult]]:
    """Register ``fn`` under ``name``; its parameters after ``state`` become the argument schema."""

    def register(func: Callable[..., CheckResult]) -> Callable[..., CheckResult]:
        if name in CHECKS:
            raise ValueError(f"check {name!r} is registered twice")
        model, _ = model_from_signature(func, skip=1)
        kind = func.__module__.rsplit(".", 1)[-1]
        CHECKS[name] = CheckSpec(name, func, model, inspect.getdoc(func) or "", kind)
        return func

    return register


# ---- argument types with meaning (validated at task load time) --------------------------------
def _constrained(base: type, name: str, ok: Callable[[Any], bool], hint: str) -> type:
    """A ``base`` subtype whose pydantic schema refuses values failing ``ok`` with ``hint``."""
    base_schema = core_schema.str_schema() if base is str else core_schema.float_schema()

    def validate(value: Any) -> Any:
        if not ok(value):
            raise ValueError(f"{value!r} is not {hint}")
        return value

    def schema(cls, source: Any, handler: Any) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(validate, base_schema)

    return type(name, (base,), {"__get_pydantic_core_schema__": classmethod(schema), "__doc__": hint})


CellRef = _constrained(str, "CellRef", is_cell_ref, "a cell address like B3 or Budget!B3")
ColumnRef = _constrained(str, "ColumnRef", is_column_ref, "a column letter like B")
TimeStr = _constrained(str, "TimeStr", lambda v: as_datetime(v) is not None, "a time like 2026-03-10 09:30:00")
Ratio = _constrained(float, "Ratio", lambda v: 0.0 <= v <= 1.0, "a ratio between 0 and 1")


# ---- validation and running ------------------------------------------------------------------
def _unknown(name: Any) -> str:
    close = difflib.get_close_matches(str(name), list(CHECKS), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown check {name!r}{hint} (checks: {', '.join(sorted(CHECKS))})"


def _problems(spec: CheckSpec, exc: ValidationError) -> list[str]:
    """One line per bad argument, naming it; alternatives of a union are joined with 'or'."""
    out: list[str] = []
    per_field: dict[str, tuple[list[str], Any]] = {}
    names = ", ".join(spec.arg_names) or "none"
    for err in exc.errors():
        field = str(err["loc"][0]) if err["loc"] else "(arguments)"
        index = "".join(f"[{x}]" for x in err["loc"][1:] if isinstance(x, int))
        if err["type"] == "missing":
            out.append(f"{spec.name}: missing argument '{field}' (arguments: {names})")
        elif err["type"] == "extra_forbidden":
            out.append(f"{spec.name}: unexpected argument '{field}' (arguments: {names})")
        else:
            msgs, _ = per_field.setdefault(field + index, ([], err.get("input")))
            msg = err["msg"].removeprefix("Value error, ")
            if msg not in msgs:
                msgs.append(msg)
    for field, (msgs, given) in per_field.items():
        text = " or ".join(msgs)
        shown = "" if repr(given) in text else f" (got {given!r})"
        out.append(f"{spec.name}: argument '{field}': {text}{shown}")
    return out


def _validated(name: Any, args: Any) -> tuple[CheckSpec | None, dict, list[str]]:
    """(spec, validated values, problems) for one check call."""
    from officesim.evaluators import load_checks  # the package registers the checks (no cycle through here)

    load_checks()
    spec = CHECKS.get(name) if isinstance(name, str) else None
    if spec is None:
        return None, {}, [_unknown(name)]
    if not isinstance(args, dict):
        return spec, {}, [f"{name}: args must be a mapping of argument names to values, got {type(args).__name__}"]
    try:
        model = spec.model.model_validate(args)
    except ValidationError as exc:
        return spec, {}, _problems(spec, exc)
    return spec, {k: getattr(model, k) for k in spec.model.model_fields}, []


def validate_check(name: str, args: dict | None) -> list[str]:
    """Problems with a check as written in a task (unknown name, missing/extra/ill-typed argument); [] if fine."""
    return _validated(name, {} if args is None else args)[2]


# The crashes of checks run under one ``evaluate`` (nested checks too, combine.py), so that it can tell a
# failure the agent earned from one the grader's own bug made.
_CRASHES: ContextVar[list[str] | None] = ContextVar("officesim_check_crashes", default=None)


def _crashed(text: str) -> str:
    crashes = _CRASHES.get()
    if crashes is not None:
        crashes.append(text)
    return text


def run_check(name: str, args: dict | None, state: EvalState) -> CheckRecord:
    """Run one check; never raises: every problem becomes a failed record with a message."""
    given = {} if args is None else args
    spec, values, problems = _validated(name, given)
    shown = given if isinstance(given, dict) else {"args": given}

    def record(passed: bool, message: str) -> CheckRecord:
        return CheckRecord(check=str(name), args=shown, passed=passed, message=message)

    if problems:
        return record(False, "invalid check: " + "; ".join(problems))
    token = REFERENCE_NOW.set(state.now)  # a date written by weekday and day alone is read near it
    try:
        result = spec.func(state, **values)
    except CheckError as exc:
        return record(False, exc.message)
    except Exception as exc:  # a bug in a check must not end the evaluation
        return record(False, _crashed(f"{name} crashed: {type(exc).__name__}: {exc}"))
    finally:
        REFERENCE_NOW.reset(token)
    if not isinstance(result, CheckResult):
        return record(False, f"{name} returned {type(result).__name__}, not a CheckResult")
    return record(bool(result.passed), result.message)


def run_checks(checks: list[Any], state: EvalState) -> list[CheckRecord]:
    """Run task checks (``{"check", "args"}`` dicts or objects with those attributes) in order."""
    out = []
    for item in checks:
        if isinstance(item, dict):
            name, args, point = item.get("check"), item.get("args"), item.get("name")
        else:
            name, args, point = getattr(item, "check", None), getattr(item, "args", None), getattr(item, "name", None)
        result = run_check(name, args, state)
        if point:
            result.checkpoint = str(point)
        out.append(result)
    return out


def evaluate(task_checks: list[Any], state: EvalState, *, task_id: str, status: str, side_effects: list[str],
             steps: int, mode: str | None = None, changes: list[str] | None = None,
             collateral: list[str] | None = None, missing: list[str] | None = None,
             asking: list[str] = ()) -> EpisodeRecord:
    """Run a task's checks on the final state and grade them into its record; pure (reads nothing
    but its arguments). ``collateral``/``missing``: the side effects split (evaluators/outcome.py);
    ``asking``: why a needed question of the user went unasked (apps/asking.py), if one did.

    A check that crashed leaves the episode without a verdict: ``failed`` holds ``error`` and ``error``
    names the crashes (the runner records a grading error, apart from the agent's failures)."""
    crashes: list[str] = []
    token = _CRASHES.set(crashes)
    try:
        checks = run_checks(task_checks, state)
        truth = written_truth_check(state)
    finally:
        _CRASHES.reset(token)
    if truth.record is not None:
        checks.append(truth.record)
    record = EpisodeRecord.graded(
        checks, unread=truth.unread, side_effects=list(side_effects), collateral=collateral, missing=missing,
        asking=list(asking), task_id=task_id, mode=mode, status=status,
        answer=state.answer, changes=list(changes or []), steps=steps,
    )
    if not crashes:
        return record
    return record.model_copy(update={"passed": False, "failed": [*record.failed, "error"],
                                     "error": "a check of the grader crashed: " + "; ".join(crashes)})


@dataclass
class _TruthResult:
    record: CheckRecord | None
    unread: int | None


def written_truth_check(state: EvalState) -> _TruthResult:
    """Every place the agent wrote read against the office's records (evaluators/truth.py): a failing
    ``written_truth`` record when a statement is false (or the reading crashed), else none; and how many
    statements could not be read."""
    token = REFERENCE_NOW.set(state.now)
    try:
        truth = written_truth(state)
    except Exception as exc:  # a bug in the reading must not end the evaluation, nor pass it silently
        return _TruthResult(CheckRecord(check="written_truth", args={}, passed=False,
                                        message=_crashed(f"written_truth crashed: {type(exc).__name__}: {exc}")),
                            None)
    finally:
        REFERENCE_NOW.reset(token)
    if truth.false:
        return _TruthResult(CheckRecord(check="written_truth", args={}, passed=False, message=message(truth)),
                            len(truth.unread))
    return _TruthResult(None, len(truth.unread) if state.before is not None else None)

