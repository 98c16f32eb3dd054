"""The evaluation record (FORMAT §6): pass needs every check, score is the fraction, evaluation is pure."""

from __future__ import annotations

import copy
import json

import pytest
from pydantic import ValidationError

from officesim.evaluators import EvalState, EvaluationRecord, evaluate

STATE = EvalState(
    files={"data/budget.xlsx": {"kind": "xlsx", "sheets": {"Budget": [["Item", "Amount"], ["Total", 8450]]},
                                "sheet_order": ["Budget"]}},
    answer="8450",
)
GOOD = {"check": "xlsx_cell", "args": {"file": "data/budget.xlsx", "cell": "B2", "value": 8450}}
BAD = {"check": "xlsx_cell", "args": {"file": "data/budget.xlsx", "cell": "B2", "value": 8400}}
ANSWER = {"check": "answer_equals", "args": {"value": "8,450"}}


def _eval(checks, state=STATE, **kw):
    base = dict(task_id="budget-total-001", status="finished", side_effects=[], steps=4)
    return evaluate(checks, state, **{**base, **kw})


def test_all_checks_pass():
    rec = _eval([GOOD, ANSWER])
    assert rec.passed and rec.score == 1.0 and rec.checks_passed == rec.checks_total == 2
    assert rec.answer == "8450" and rec.steps == 4 and rec.status == "finished"


def test_one_failure_fails_the_task_with_partial_score():
    rec = _eval([GOOD, BAD, ANSWER, BAD])
    assert not rec.passed and rec.score == pytest.approx(0.5)
    assert [c.passed for c in rec.checks] == [True, False, True, False]
    assert rec.failed_checks[0].message == "data/budget.xlsx Budget!B2: expected 8400, found 8450"


def test_no_checks_never_passes():
    rec = _eval([])
    assert not rec.passed and rec.score == 0.0


def test_invalid_check_counts_as_failed_not_crash():
    rec = _eval([GOOD, {"check": "no_such_check", "args": {}}])
    assert not rec.passed and rec.score == 0.5 and "unknown check" in rec.checks[1].message


def test_side_effects_are_reported_not_scored():
    rec = _eval([GOOD], side_effects=["data/other.xlsx: modified"])
    assert rec.passed and rec.side_effects == ["data/other.xlsx: modified"]


def test_record_serialises_to_the_documented_shape():
    data = json.loads(_eval([GOOD], status="step_limit", steps=50).model_dump_json())
    for key in ("task_id", "passed", "score", "status", "answer", "checks", "side_effects", "steps"):
        assert key in data
    assert data["checks"][0] == {"check": "xlsx_cell", "args": GOOD["args"], "passed": True,
                                 "message": "data/budget.xlsx Budget!B2 is 8450"}
    assert EvaluationRecord.model_validate(data).checks[0].passed


def test_evaluate_is_pure():
    checks = copy.deepcopy([GOOD, BAD])
    files = copy.deepcopy(STATE.files)
    first = _eval(checks)
    assert checks == [GOOD, BAD] and STATE.files == files
    assert _eval(checks) == first


def test_score_is_bounded():
    with pytest.raises(ValidationError):
        EvaluationRecord(task_id="t", passed=True, score=1.5, status="finished")
