"""The check registry: load-time validation, never-raising runs, and docs that stay true."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from officesim.evaluators import CHECKS, CheckResult, EvalState, check, run_check, run_checks, validate_check

FORMAT = Path(__file__).resolve().parents[1] / "tasks" / "FORMAT.md"


def _format_section_5() -> str:
    text = FORMAT.read_text(encoding="utf-8")
    return text[text.index("## 5. Checks"):text.index("## 6.")]


def test_valid_args_have_no_problems():
    assert validate_check("xlsx_cell", {"file": "data/a.xlsx", "cell": "B3", "value": 1200}) == []
    assert validate_check("email_sent", {"sender": "a@x.test", "to": ["b@x.test"], "body_contains": "hi"}) == []


def test_unknown_check_is_reported_with_a_suggestion():
    problems = validate_check("xlsx_cel", {"file": "a"})
    assert len(problems) == 1 and "unknown check 'xlsx_cel'" in problems[0] and "did you mean 'xlsx_cell'" in problems[0]


@pytest.mark.parametrize("name, args, field, words", [
    ("xlsx_cell", {"file": "a.xlsx", "value": 1}, "cell", "missing argument"),
    ("xlsx_cell", {"file": "a.xlsx", "cell": "B3", "value": 1, "colour": "red"}, "colour", "unexpected argument"),
    ("xlsx_cell", {"file": "a.xlsx", "cell": "3B", "value": 1}, "cell", "not a cell address"),
    ("pdf_page_count", {"file": "a.pdf", "count": "many"}, "count", "integer"),
    ("similar", {"file": "a.txt", "text": "x", "threshold": 1.5}, "threshold", "between 0 and 1"),
    ("ics_event", {"user": "a@x.test", "summary": "S", "start": "tomorrow 9am"}, "start", "not a time"),
    ("cell_compare", {"file": "a.xlsx", "cell": "A1", "op": "=>", "value": 1}, "op", "'<'"),
    ("column_sorted", {"file": "a.xlsx", "column": "B2"}, "column", "column letter"),
    ("email_sent", {"sender": "a@x.test", "to": 5}, "to", ""),
])
def test_bad_args_name_the_field(name, args, field, words):
    problems = validate_check(name, args)
    assert problems, f"{name} accepted {args}"
    hit = [p for p in problems if f"'{field}'" in p]
    assert hit and words in hit[0] and hit[0].startswith(name + ":")


def test_args_must_be_a_mapping():
    assert "must be a mapping" in validate_check("file_exists", ["data/a.txt"])[0]


def test_run_check_never_raises_on_bad_input():
    state = EvalState()
    out = run_check("nope", {}, state)
    assert not out.passed and "unknown check 'nope'" in out.message
    out = run_check("xlsx_cell", {"file": "a.xlsx"}, state)
    assert not out.passed and out.message.startswith("invalid check: xlsx_cell: missing argument 'cell'")
    out = run_check("file_exists", None, state)
    assert not out.passed and "missing argument 'file'" in out.message


def test_a_crashing_check_becomes_a_failure():
    @check("_test_crash")
    def _crash(state: EvalState, *, n: int) -> CheckResult:
        """Always crashes (test only)."""
        return CheckResult.ok(str(1 / n))

    try:
        out = run_check("_test_crash", {"n": 0}, EvalState())
        assert not out.passed and "ZeroDivisionError" in out.message
        assert run_check("_test_crash", {"n": 2}, EvalState()).passed
        with pytest.raises(ValueError):
            check("_test_crash")(_crash)
    finally:
        CHECKS.pop("_test_crash", None)


def test_a_crash_of_the_grader_leaves_the_episode_without_a_verdict(monkeypatch):
    """A bug in a check (top level, or nested in any_of) or in the reading of what was written is the
    grader's fault: the record says ``error`` and names the crash, it is not the agent's failure; the runner
    then records a grading error, and validate never counts it as a kill."""
    from officesim.evaluators import evaluate
    from officesim.evaluators import registry

    @check("_test_crash")
    def _crash(state: EvalState, *, n: int) -> CheckResult:
        """Crashes for n = 0 (test only)."""
        return CheckResult.ok(str(1 / n))

    def grade(checks):
        return evaluate(checks, EvalState(answer="paris"), task_id="t", status="finished", side_effects=[], steps=1)

    try:
        fine = grade([{"check": "answer_equals", "args": {"value": "Paris"}}, {"check": "_test_crash", "args": {"n": 2}}])
        assert fine.passed and fine.error is None and fine.failed == []
        wrong = grade([{"check": "answer_equals", "args": {"value": "Rome"}}])
        assert not wrong.passed and wrong.error is None and wrong.failed == ["checks"]
        for checks in ([{"check": "_test_crash", "args": {"n": 0}}],
                       [{"check": "answer_equals", "args": {"value": "Paris"}},
                        {"check": "any_of", "args": {"readings": [[{"check": "_test_crash", "args": {"n": 0}}],
                                                                  [{"check": "answer_equals", "args": {"value": "Rome"}}]]}}]):
            crashed = grade(checks)
            assert not crashed.passed and "error" in crashed.failed and crashed.failure_labels == ["error"]
            assert crashed.error.startswith("a check of the grader crashed: _test_crash crashed: ZeroDivisionError")
        # the collector is local to one evaluation: a crash outside it marks nothing
        assert not run_check("_test_crash", {"n": 0}, EvalState()).passed
        assert grade([{"check": "answer_equals", "args": {"value": "Paris"}}]).error is None

        def broken_reading(state):
            raise KeyError("no such row")

        monkeypatch.setattr(registry, "written_truth", broken_reading)
        crashed = grade([{"check": "answer_equals", "args": {"value": "Paris"}}])
        assert not crashed.passed and "error" in crashed.failed
        assert "written_truth crashed: KeyError" in crashed.error
    finally:
        CHECKS.pop("_test_crash", None)


def test_validate_does_not_count_a_crash_as_a_kill(monkeypatch):
    from officesim.runner import validate
    from officesim.runner.mutants import Mutant

    said = {"passed": False, "failed": ["checks", "error"], "checks": [],
            "error": "a check of the grader crashed: x crashed: KeyError: 'a'"}
    monkeypatch.setattr(validate, "play_retrying", lambda *a, **k: (said, []))
    mutant = Mutant(kind="wrong", cls="value", name="wrong total", actions=[], answer=None)
    result = validate.play_mutant(None, None, mutant)
    assert result.passed is None and not result.ok and result.said.startswith("not graded: a check of the grader")


def test_run_checks_shape_and_order():
    state = EvalState(files={"data/a.txt": {"kind": "text", "text": "hello"}})
    out = run_checks([{"check": "contains", "args": {"file": "data/a.txt", "text": "hello"}},
                      {"check": "file_exists", "args": {"file": "data/b.txt"}}], state)
    assert [set(o.model_dump()) for o in out] == [{"check", "args", "passed", "message"}] * 2
    assert [o.passed for o in out] == [True, False]
    assert out[0].check == "contains" and out[0].args == {"file": "data/a.txt", "text": "hello"}


def test_run_checks_accepts_task_model_checks():
    from officesim.tasks.model import Check

    out = run_checks([Check(check="answer_equals", args={"value": "Paris"})], EvalState(answer="paris"))
    assert out[0].passed is True


def test_every_check_has_a_docstring():
    missing = [name for name, spec in CHECKS.items() if len(spec.description.strip()) < 15]
    assert not missing, f"checks without a docstring: {missing}"


def test_every_check_is_documented_in_format_md_with_its_arguments():
    section = _format_section_5()
    for name, spec in CHECKS.items():
        m = re.search(rf"`{name}\(([^)]*)\)`", section)
        assert m, f"{name} is not listed in tasks/FORMAT.md §5"
        documented = [a.split("=")[0].strip() for a in m.group(1).split(",") if a.strip()]
        assert documented == spec.arg_names, f"FORMAT.md lists {name}({m.group(1)}), the code takes {spec.arg_names}"


def test_format_md_lists_no_check_that_does_not_exist():
    listed = set(re.findall(r"^- `(\w+)\(", _format_section_5(), flags=re.M))
    listed |= set(re.findall(r"/ `(\w+)\(", _format_section_5()))
    assert listed and listed <= set(CHECKS), f"documented but not registered: {sorted(listed - set(CHECKS))}"


def test_check_signatures_are_keyword_only_after_state():
    for name, spec in CHECKS.items():
        params = list(inspect.signature(spec.func).parameters.values())
        assert params[0].name == "state", name
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params[1:]), name
