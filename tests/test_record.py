"""The episode record (FORMAT §6): pass needs every check, score is the fraction, evaluation is pure;
one model from grading to results.jsonl."""

from __future__ import annotations

import copy
import json

import pytest
from pydantic import ValidationError

from officesim.evaluators import EvalState, EpisodeRecord, evaluate
from officesim.evaluators.record import RUNNER_FIELDS

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


def test_side_effects_fail_the_outcome_but_not_the_checks_only_verdict():
    rec = _eval([GOOD], side_effects=["data/other.xlsx: modified"])
    assert not rec.passed and rec.side_effects == ["data/other.xlsx: modified"]
    assert rec.passed_checks_only and rec.failed == ["side_effects"] and rec.score == 1.0
    clean = _eval([GOOD], side_effects=[])
    assert clean.passed and clean.passed_checks_only and clean.failed == []


def test_record_serialises_to_the_documented_shape():
    data = json.loads(_eval([GOOD], status="step_limit", steps=50).model_dump_json())
    for key in ("task_id", "passed", "score", "status", "answer", "checks", "side_effects", "steps"):
        assert key in data
    assert data["checks"][0] == {"check": "xlsx_cell", "args": GOOD["args"], "passed": True,
                                 "message": "data/budget.xlsx Budget!B2 is 8450"}
    assert EpisodeRecord.model_validate(data).checks[0].passed


def test_evaluate_is_pure():
    checks = copy.deepcopy([GOOD, BAD])
    files = copy.deepcopy(STATE.files)
    first = _eval(checks)
    assert checks == [GOOD, BAD] and STATE.files == files
    assert _eval(checks) == first


def test_score_is_bounded():
    with pytest.raises(ValidationError):
        EpisodeRecord(task_id="t", passed=True, score=1.5, status="finished")


# ---- one model from the server's grading to results.jsonl --------------------------------------
# Fields the API's `evaluation` (its contract) and a results.jsonl line (docs/run-directory.md)
# have always had; fields added to the record later may come on top of them.
API_FIELDS = {"task_id", "mode", "passed", "score", "status", "checks", "side_effects", "changes", "answer",
              "steps", "tokens", "wall_time_s", "error", "trajectory", "checks_passed", "checks_total"}
RESULTS_FIELDS = ["task_id", "category", "apps", "trial", "agent", "model", "mode", "passed", "score", "status",
                  "checks", "side_effects", "changes", "answer", "steps", "tokens", "llm_calls", "llm_latency_s",
                  "wall_time_s", "process", "error", "trajectory"]


def _run_record(**kw) -> EpisodeRecord:
    graded = _eval([GOOD, BAD], mode="switch_app", changes=["data/budget.xlsx: modified"])
    fields = dict(category=1, apps=["excel"], trial=2, agent="oracle", model=None, tokens={"prompt": 5, "completion": 2},
                  llm_calls=1, llm_latency_s=0.25, wall_time_s=1.5,
                  process={"agent_ops": 1, "gold_ops": 1, "matched_ops": 1, "args_matched": 0},
                  trajectory=[{"step": 1, "app": "system", "action": "finish_task", "args": {"answer": "é"},
                               "ok": True, "observation": "done"}])
    return graded.model_copy(update={**fields, **kw})


def test_graded_record_json_is_the_api_evaluation():
    data = _eval([GOOD, BAD], mode="all_operations", changes=["x: added"]).api_dict()
    assert API_FIELDS <= set(data) and not RUNNER_FIELDS & set(data)
    assert data["checks_passed"] == 1 and data["checks_total"] == 2 and data["mode"] == "all_operations"
    assert data["tokens"] is None and data["trajectory"] is None and data["changes"] == ["x: added"]
    back = EpisodeRecord.model_validate(data)
    assert back.api_dict() == data


def test_results_line_round_trips_with_the_documented_fields():
    rec = _run_record()
    line = rec.to_line()
    fields = list(json.loads(line))
    assert set(RESULTS_FIELDS) <= set(fields) and not {"checks_passed", "checks_total", "error_traceback"} & set(fields)
    assert "\\u" not in line and "é" in line
    back = EpisodeRecord.model_validate_json(line)
    assert back == rec and back.to_line() == line
    assert back.failed_checks[0].check == "xlsx_cell" and back.checks_passed == 1


def test_results_line_keeps_a_traceback_when_there_is_one():
    line = _run_record(error="agent error: boom", error_traceback="Traceback ...").to_line()
    data = json.loads(line)
    assert data["error_traceback"] == "Traceback ..." and list(data)[-2:] == ["error_traceback", "trajectory"]
    assert EpisodeRecord.model_validate_json(line).to_line() == line


def test_older_lines_without_newer_fields_still_read():
    rec = EpisodeRecord.model_validate_json('{"task_id": "t", "passed": false, "score": 0, "status": "error"}')
    assert rec.trial == 1 and rec.checks == [] and rec.changes == [] and rec.error is None


def test_ungraded_record_fails_with_its_reason():
    rec = EpisodeRecord.ungraded("t", "finished", "evaluation failed: boom", mode="switch_app", steps=3)
    assert not rec.passed and rec.score == 0.0 and rec.checks_total == 0
    assert API_FIELDS <= set(rec.api_dict()) and rec.api_dict()["error"] == "evaluation failed: boom"


def test_finish_response_evaluation_validates_as_the_record(tmp_path):
    from fastapi.testclient import TestClient

    from officesim.server.app import create_app
    from officesim.server.manager import ServerSettings
    from tests._api_tasks import BUDGET, write_tasks

    tasks = write_tasks(tmp_path / "tasks", BUDGET)
    cfg = ServerSettings(include_suite=False, sessions_dir=tmp_path / "sessions")
    with TestClient(create_app([tasks], cfg)) as client:
        sid = client.post("/sessions", json={"task_id": BUDGET["id"], "mode": "all_operations"}).json()["session_id"]
        client.post(f"/sessions/{sid}/actions", json={"app": "excel", "action": "set_cell", "args": {
            "file_path": "data/budget.xlsx", "row_idx": 4, "column_idx": 2, "text": 1500}})
        data = client.post(f"/sessions/{sid}/finish", json={}).json()["evaluation"]
        assert API_FIELDS <= set(data) and not RUNNER_FIELDS & set(data)
        rec = EpisodeRecord.model_validate(data)
        assert rec.task_id == BUDGET["id"] and rec.mode == "all_operations" and rec.steps == 2
        assert rec.checks_passed == 1 and rec.checks_total == 2 and not rec.passed and rec.score == 0.5
        assert rec.changes and rec.api_dict() == data
        assert data["instruction"] == BUDGET["instruction"] and data["dialogue"] is None  # what the task asked
        assert client.get(f"/sessions/{sid}").json()["evaluation"] == data


def test_side_effects_split_into_collateral_and_missing():
    rec = _eval([GOOD], side_effects=["a: extra file", "b: missing"], collateral=["a: extra file"],
                missing=["b: missing"])
    assert not rec.passed and rec.failed == ["side_effects"]
    assert rec.collateral == ["a: extra file"] and rec.missing == ["b: missing"]
    data = rec.api_dict()
    assert data["collateral"] == ["a: extra file"] and data["missing"] == ["b: missing"]
    assert EpisodeRecord.model_validate_json(rec.to_line()) == rec
    unsplit = _eval([GOOD], side_effects=["a: extra file"])  # a caller that does not split: all collateral
    assert unsplit.collateral == ["a: extra file"] and unsplit.missing == []
    old = EpisodeRecord.model_validate_json('{"task_id": "t", "passed": false, "score": 0, "status": "finished", '
                                            '"side_effects": ["x: differs"]}')
    assert old.collateral is None and old.collateral_effects == ["x: differs"]


def test_a_needed_question_not_asked_fails_the_asking_component():
    rec = _eval([GOOD], asking=["user_replies[0] is needed, but no question asked the user for it"])
    assert not rec.passed and rec.failed == ["asking"] and rec.passed_checks_only and rec.score == 1.0
    assert rec.api_dict()["asking"] == ["user_replies[0] is needed, but no question asked the user for it"]
    assert _eval([GOOD], asking=[]).passed


def test_side_effect_rate_counts_collateral_only():
    from officesim.runner.report import render
    from officesim.runner.summary import summarize

    noop = _eval([BAD], side_effects=["b: missing"], collateral=[], missing=["b: missing"])
    damage = _eval([GOOD], side_effects=["a: extra file"], collateral=["a: extra file"], missing=[])
    old = EpisodeRecord.model_validate_json('{"task_id": "t", "passed": false, "score": 0, "status": "finished", '
                                            '"side_effects": ["x: differs"]}')  # before the split: all collateral
    summary = summarize([noop.model_copy(update={"category": 1})] * 3, {})
    assert summary["side_effect_rate"] == 0.0 and summary["missing_rate"] == 1.0
    summary = summarize([noop, damage, old, noop], {})
    assert summary["side_effect_rate"] == 0.5 and summary["missing_rate"] == 0.5
    page = render([noop, damage], summary)
    assert "b: missing" in page and "a: extra file" in page and "missing (gold changes not made)" in page
    assert "side_effects" not in page  # the labels say collateral and missing, as the rates do
    assert summarize([noop] * 3, {})["failed_components"] == {"checks": 3, "missing": 3}


def test_failure_labels_say_what_happened():
    noop = _eval([BAD], side_effects=["b: missing"], collateral=[], missing=["b: missing"])
    assert noop.failed == ["checks", "side_effects"] and noop.failure_labels == ["checks", "missing"]
    damage = _eval([GOOD], side_effects=["a: extra"], collateral=["a: extra"], missing=["b: missing"])
    assert damage.failure_labels == ["collateral", "missing"]
    assert _eval([GOOD], asking=["needed reply not asked"]).failure_labels == ["asking"]
    assert _eval([GOOD]).failure_labels == [] and _eval([]).failure_labels == ["checks"]
    raised = _eval([GOOD]).model_copy(update={"passed": False, "error": "agent error: boom"})  # as the runner writes it
    assert raised.failure_labels == ["error"]
    assert EpisodeRecord.ungraded("t", "error", "server gone").failure_labels == ["error"]
    timeout = EpisodeRecord(task_id="t", passed=False, score=0, status="finished", failed=["grading_timeout"],
                            error="grading passed its time limit")
    assert timeout.failure_labels == ["error"]
    old = EpisodeRecord.model_validate_json('{"task_id": "t", "passed": false, "score": 0, "status": "finished", '
                                            '"checks": [{"check": "x", "passed": true, "message": ""}], '
                                            '"failed": ["side_effects"], "side_effects": ["x: differs"]}')
    assert old.failure_labels == ["collateral"]  # before the split every side effect counted as collateral


def test_a_record_carries_what_the_task_asked():
    from officesim.evaluators.record import task_request
    from officesim.tasks.model import Task
    from tests._api_tasks import ASKING, BUDGET, variant

    plain = task_request(Task.model_validate(BUDGET))
    assert plain == {"instruction": BUDGET["instruction"], "dialogue": None, "user_replies": None}
    turn = {"speaker": "Halden", "at": "2026-03-09 16:00:00", "text": "Fine, 12% it is."}
    asked = task_request(Task.model_validate(variant(ASKING, dialogue=[turn])))
    assert asked["dialogue"] == [turn]
    assert asked["user_replies"][0] == {"when": ["discount", "percent", "how much"], "reply": "We settled on 12%.",
                                        "needed": True}  # the guesses stay in the task
    rec = _run_record().model_copy(update=asked)
    line = rec.to_line()
    assert EpisodeRecord.model_validate_json(line) == rec
    lean = json.loads(_run_record().model_copy(update=plain).to_line())
    assert lean["instruction"] == BUDGET["instruction"] and "dialogue" not in lean and "user_replies" not in lean
    old = EpisodeRecord.model_validate_json('{"task_id": "t", "passed": false, "score": 0, "status": "finished"}')
    assert old.instruction is None and old.dialogue is None and old.user_replies is None
