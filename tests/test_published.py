"""The published verdict (runner/published.py): the upstream harness's behaviour over the benchmark's
full denominator, beside ours in summary.json."""

from __future__ import annotations

from officesim.evaluators.record import CheckRecord, EpisodeRecord
from officesim.runner.published import (OFFICEBENCH_TOTAL, WORKBENCH_TOTAL, officebench_verdict, published,
                                        upstream_mail_files)
from officesim.runner.summary import summarize


def _record(task_id: str, checks: list[CheckRecord], *, category: int = 1, passed: bool = True,
            trajectory: list[dict] | None = None, trial: int = 1) -> EpisodeRecord:
    return EpisodeRecord(task_id=task_id, category=category, passed=passed, score=1.0, status="finished",
                         original_passed=all(c.passed for c in checks), original_checks=checks,
                         trajectory=trajectory, trial=trial)


def _check(name: str, passed: bool = True, message: str = "true", **args) -> CheckRecord:
    return CheckRecord(check=name, args=args, passed=passed, message=message)


def test_mail_keywords_read_no_mail_as_the_upstream_reader_does():
    found = _check("evaluate_contain", doc_type="email", username="Bob", keywords=["meeting"])
    absent = _check("evaluate_not_contain", doc_type="email", username="Bob", keywords=["meeting"])
    assert not officebench_verdict(_record("officebench-2-1-0", [found]))
    assert officebench_verdict(_record("officebench-2-1-1", [absent]))
    # keywords that are all in "No emails found." pass there too
    assert officebench_verdict(_record("officebench-2-1-2", [_check("evaluate_contain", doc_type="email",
                                                                   username="Bob", keywords=["no", "found"])]))
    # a missing mailbox folder raises upstream as on our harness
    missing = _check("evaluate_not_contain", passed=False, message="raised: UnboundLocalError: no mailbox folder",
                     doc_type="email", username="Tom", keywords=["x"])
    assert not officebench_verdict(_record("officebench-2-1-3", [missing]))


def test_mail_file_names_follow_upstream_send_email():
    sent = [{"app": "email", "action": "send_email", "ok": True,
             "args": {"sender": "bob@example.com", "recipient": ["Alice"], "subject": "Bob", "content": "hi"}},
            {"app": "system", "action": "run_code", "ok": True, "calls": [
                {"app": "email", "action": "send_email", "ok": True,
                 "args": {"sender": "Bob", "recipient": "Tom", "subject": "revenues", "content": "x"}}]},
            {"app": "email", "action": "send_email", "ok": False,
             "args": {"sender": "Bob", "recipient": "Tom", "subject": "failed", "content": "x"}}]
    assert upstream_mail_files(sent) == {"emails/bob/Bob.eml", "emails/Alice/Bob.eml",
                                         "emails/Bob/revenues.eml", "emails/Tom/revenues.eml"}
    check = _check("evaluate_file_exist", passed=False, message="false", file="emails/Tom/revenues.eml")
    assert officebench_verdict(_record("officebench-3-96-0", [check], trajectory=sent))
    assert not officebench_verdict(_record("officebench-3-96-0", [check], trajectory=sent[:1]))
    # OfficeBench keeps the case of the name it is given: Bob's folder is not bob's
    bob = _check("evaluate_file_exist", passed=False, message="false", file="emails/Bob/Bob.eml")
    assert not officebench_verdict(_record("officebench-3-27-0", [bob], trajectory=sent[:1]))


def test_a_cell_value_upstream_set_cell_cannot_write_fails():
    cell = _check("evaluate_excel_cell_value", file="./data/shopping_list.xlsx",
                  matches=[{"row": "2", "col": "2", "value": "1"}])
    other = _check("evaluate_excel_cell_value", file="./data/shopping_list.xlsx",
                   matches=[{"row": "2", "col": "2", "value": "2"}])
    assert not officebench_verdict(_record("officebench-1-5-1", [cell]))
    assert officebench_verdict(_record("officebench-1-5-0", [other]))


def test_denominators_count_excluded_and_unrun_tasks_as_failures():
    file_ok = _check("evaluate_file_exist", file="data/a.xlsx")
    records = [_record("officebench-1-1-0", [file_ok], category=1),
               _record("officebench-3-2-0", [file_ok], category=3),
               _record("officebench-3-2-1", [_check("evaluate_file_exist", passed=False, message="false",
                                                    file="data/b.xlsx")], category=3),
               _record("workbench-email-1", [], passed=True),
               _record("workbench-email-2", [], passed=False)]
    records[3].original_passed, records[4].original_passed = True, False
    out = published(records)
    ob = out["officebench"]
    assert (ob["passed"], ob["total"], ob["tasks_run"], ob["not_run"]) == (2, OFFICEBENCH_TOTAL, 3, 297)
    assert ob["pass_rate"] == round(2 / 300, 4)
    assert {c: v["total"] for c, v in ob["by_category"].items()} == {"1": 93, "2": 95, "3": 112}
    assert ob["by_category"]["3"]["passed"] == 1
    assert set(ob["excluded"]) == {"officebench-2-39-2", "officebench-2-39-3"}
    wb = out["workbench"]
    assert (wb["passed"], wb["total"], wb["pass_rate"]) == (1, WORKBENCH_TOTAL, round(1 / 690, 4))


def test_trials_count_their_share():
    ok = _check("evaluate_file_exist", file="data/a.xlsx")
    bad = _check("evaluate_file_exist", passed=False, message="false", file="data/a.xlsx")
    out = published([_record("officebench-1-1-0", [ok], trial=1), _record("officebench-1-1-0", [bad], trial=2)])
    assert out["officebench"]["passed"] == 0.5 and out["officebench"]["tasks_run"] == 1


def test_summary_carries_published_for_imported_tasks_only():
    ok = _check("evaluate_file_exist", file="data/a.xlsx")
    summary = summarize([_record("officebench-1-1-0", [ok])], {})
    assert summary["published"]["officebench"]["total"] == 300
    assert summary["passed_original"] == 1 and summary["total_original"] == 1
    own = EpisodeRecord(task_id="meeting-notes-001", category=1, passed=True, score=1.0, status="finished")
    assert "published" not in summarize([own], {})
