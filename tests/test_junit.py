"""JUnit XML: one testcase per task x trial, classname the category, failures carrying the failed checks."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from officesim.evaluators import EpisodeRecord
from officesim.runner.cli import main as cli_main
from officesim.runner.junit import write_junit
from officesim.runner.results import read_results
from tests._eval_tasks import write_tasks


def record(task_id: str, category: int, passed: bool, trial: int = 1, **kw) -> EpisodeRecord:
    base = {"task_id": task_id, "category": category, "trial": trial, "passed": passed, "score": 1.0 if passed else 0.5,
            "status": "finished", "checks": [], "side_effects": [], "wall_time_s": 0.25, "error": None}
    return EpisodeRecord.model_validate({**base, **kw})


def parse(path) -> ET.Element:
    return ET.parse(path).getroot()


def test_one_testcase_per_record_with_failed_checks_and_side_effects(tmp_path):
    records = [
        record("b-task", 2, False, checks=[
            {"check": "xlsx_cell", "args": {}, "passed": True, "message": "data/a.xlsx Sheet1!B2 is 3"},
            {"check": "email_sent", "args": {}, "passed": False, "message": "no message to tom@x.test in the sent folder"}],
            side_effects=["data/other.docx: modified (paragraph 2 'a' -> 'b')"]),
        record("a-task", 1, True, side_effects=["data/notes.txt: added"]),
        record("a-task", 1, False, trial=2, status="step_limit", checks=[
            {"check": "answer_equals", "args": {}, "passed": False, "message": "expected 1200, found <none> & \x1b[1m"}]),
        record("c-task", 3, False, status="error", error="ConnectError: server went away"),
        record("d-task", 1, False, failed=["checks", "side_effects"], side_effects=["data/budget.xlsx: Budget!B9 differs"],
               collateral=[], missing=["data/budget.xlsx: Budget!B9 differs"], checks=[
                   {"check": "xlsx_cell", "args": {}, "passed": False, "message": "Budget!B9: expected 33330"}]),
    ]
    path = write_junit(records, tmp_path / "sub" / "junit.xml")
    root = parse(path)
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    assert len(cases) == 5
    # the error episode (no verdict) is an <error>, counted apart from the agent's failures
    assert suite.get("tests") == "5" and suite.get("failures") == "3" and root.get("failures") == "3"
    assert suite.get("errors") == "1" and root.get("errors") == "1"
    by_name = {c.get("name"): c for c in cases}
    assert set(by_name) == {"a-task", "a-task [trial 2]", "b-task", "c-task", "d-task"}
    assert [c.get("classname") for c in cases] == ["category_1", "category_1", "category_1", "category_2", "category_3"]

    assert by_name["a-task"].find("failure") is None
    assert "data/notes.txt: added" in by_name["a-task"].find("system-out").text

    failure = by_name["b-task"].find("failure")
    assert "1 failed check" in failure.get("message") and failure.get("message").endswith("failed: checks, collateral")
    assert "check email_sent: no message to tom@x.test" in failure.text
    assert "xlsx_cell" not in failure.text  # only failed checks are listed
    assert "collateral: data/other.docx: modified" in failure.text  # an older record's side effects: collateral

    trial2 = by_name["a-task [trial 2]"].find("failure")
    assert "step_limit" in trial2.get("message")
    assert "expected 1200, found <none> &" in trial2.text and "\x1b" not in trial2.text
    assert by_name["c-task"].find("failure") is None
    assert "failed: checks" in by_name["d-task"].find("failure").get("message")  # the labels the report shows
    assert "missing: data/budget.xlsx: Budget!B9 differs" in by_name["d-task"].find("failure").text
    assert "collateral" not in by_name["d-task"].find("failure").text  # a do-nothing agent changes nothing
    error = by_name["c-task"].find("error")
    assert "error: ConnectError: server went away" in error.text
    assert error.get("type") == "officesim.InfrastructureError" and "ConnectError" in error.get("message")
    assert float(by_name["b-task"].get("time")) == 0.25


def test_eval_junit_with_trials_and_a_private_server(tmp_path, capsys):
    tasks = write_tasks(tmp_path / "tasks")
    out, junit = tmp_path / "run", tmp_path / "reports" / "junit.xml"
    code = cli_main(["eval", "--agent", "noop", "--tasks", str(tasks), "--task", "ev-nothing-001",
                     "--task", "ev-total-001", "--trials", "2", "--workers", "2", "--out", str(out),
                     "--junit", str(junit), "--progress", "lines"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "[4/4]" in err and "passed 2/4" in err and f"junit: {junit}" in err
    cases = parse(junit).find("testsuite").findall("testcase")
    assert sorted(c.get("name") for c in cases) == [
        "ev-nothing-001", "ev-nothing-001 [trial 2]", "ev-total-001", "ev-total-001 [trial 2]"]
    assert {c.get("classname") for c in cases} == {"category_1"}
    failed = {c.get("name"): c.find("failure") for c in cases if c.find("failure") is not None}
    assert sorted(failed) == ["ev-total-001", "ev-total-001 [trial 2]"]
    for failure in failed.values():
        assert "check xlsx_cell" in failure.text and "B4" in failure.text
    records = read_results(out)
    assert sorted((r.task_id, r.trial) for r in records) == [
        ("ev-nothing-001", 1), ("ev-nothing-001", 2), ("ev-total-001", 1), ("ev-total-001", 2)]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["trials"] == 2 and summary["pass_hat_k"] == {"1": 0.5, "2": 0.5}


def test_an_asking_failure_says_why(tmp_path):
    rec = record("ask-task", 1, False, failed=["asking"], asking=["user_replies[0] is needed, but no question asked "
                                                                  "the user for it"])
    failure = parse(write_junit([rec], tmp_path / "junit.xml")).find("testsuite/testcase/failure")
    assert "asking: user_replies[0] is needed, but no question asked the user for it" in failure.text
