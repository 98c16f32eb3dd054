"""A check made of checks: ``any_of`` accepts each defensible reading of an ambiguous instruction.

Where an instruction can be read in more than one way ("the top three" by either of two scores), a
task lists each reading's checks; the outcome passes when every check of one reading passes. The
nested checks are written as in a task (``{"check": name, "args": {...}}``, or ``{name: {...}}``).
"""

from __future__ import annotations

from typing import Any

from officesim.evaluators.registry import CheckResult, check, run_check
from officesim.evaluators.state import EvalState


def _spec(item: Any) -> tuple[str, dict]:
    if isinstance(item, dict) and "check" in item:
        return str(item["check"]), dict(item.get("args") or {})
    if isinstance(item, dict) and len(item) == 1:
        (name, args), = item.items()
        return str(name), dict(args or {})
    raise ValueError(f"a nested check is {{check: name, args: {{...}}}} or {{name: {{...}}}}, not {item!r}")


@check("any_of")
def any_of(state: EvalState, *, readings: list[list[dict[str, Any]]]) -> CheckResult:
    """Every check of at least one of ``readings`` passes (each reading is a list of checks)."""
    if not readings:
        return CheckResult.fail("any_of lists no reading")
    failures = []
    for k, reading in enumerate(readings, start=1):
        try:
            specs = [_spec(item) for item in reading]
        except ValueError as exc:
            return CheckResult.fail(f"reading {k}: {exc}")
        records = [run_check(name, args, state) for name, args in specs]
        if all(r.passed for r in records):
            return CheckResult.ok(f"reading {k} of {len(readings)}: " + "; ".join(r.message for r in records))
        first = next(r for r in records if not r.passed)
        failures.append(f"reading {k}: {first.check}: {first.message}")
    return CheckResult.fail("no reading holds — " + " | ".join(failures))
