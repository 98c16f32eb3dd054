"""The HTTP-free session core: the switch_app state machine, step counting and every ending."""

from __future__ import annotations

import threading

import pytest

from officesim.server.session import Session, SessionEnded, tools_for
from officesim.tasks.loader import load_tasks
from officesim.testbed.materialise import new_office, remove_office
from tests._api_tasks import BUDGET, QUESTION, write_tasks


@pytest.fixture(scope="module")
def tasks(tmp_path_factory):
    return load_tasks([write_tasks(tmp_path_factory.mktemp("tasks"), BUDGET, QUESTION)], include_suite=False)


@pytest.fixture
def make(tasks, tmp_path):
    offices = []

    def _make(task_id="api-budget-note", mode="switch_app", max_steps=50, evaluate=None):
        office = new_office(tasks[task_id], tmp_path / "sessions")
        offices.append(office)
        return Session(tasks[task_id], mode, max_steps, office, evaluate=evaluate)

    yield _make
    for office in offices:
        remove_office(office)


def test_starts_in_system_with_system_tools_only(make):
    s = make()
    assert s.current_app == "system" and s.status == "active" and s.step_count == 0
    names = {t["function"]["name"] for t in s.tools()}
    assert names == {"system_switch_app", "system_finish_task", "system_list_files", "system_copy", "system_paste", "system_ask_user"}
    assert s.ctx.settings["timezone"] == "UTC"


def test_other_app_refused_until_switch(make):
    s = make()
    r = s.step("excel", "read_file", {"file_path": "data/budget.xlsx"})
    assert not r.ok and r.error["code"] == "not_in_current_app"
    assert "switch_app" in r.observation and "'excel'" in r.observation
    r = s.step("system", "switch_app", {"target_app": "excel"})
    assert r.ok and r.current_app == "excel"
    assert any(t["function"]["name"] == "excel_set_cell" for t in r.tools)
    r = s.step("excel", "read_file", {"file_path": "data/budget.xlsx"})
    assert r.ok and "Rent" in r.observation
    assert s.step_count == 3
    assert [h["step"] for h in s.history] == [1, 2, 3]
    assert set(s.history[0]) == {"step", "app", "action", "args", "ok", "observation"}


def test_all_operations_mode_allows_everything(make):
    s = make(mode="all_operations")
    assert len(s.tools()) == len(tools_for("all_operations", "system"))
    r = s.step("excel", "read_file", {"file_path": "data/budget.xlsx"})
    assert r.ok


def test_malformed_steps_count_with_codes(make):
    s = make()
    assert s.step("nope", "x", {}).error["code"] == "unknown_app"
    assert s.step("system", "nope", {}).error["code"] == "unknown_action"
    assert s.step("system", "switch_app", {}).error["code"] == "bad_arguments"
    assert s.step("system", "switch_app", "not a dict").error["code"] == "bad_arguments"
    assert s.step_count == 4 and s.status == "active"


def test_tool_name_form(make):
    s = make(mode="all_operations")
    r = s.step(None, "excel_read_file", {"file_path": "data/budget.xlsx"})
    assert r.ok and s.history[-1]["app"] == "excel"


def test_stagnation_after_five_identical_actions(make):
    calls = []
    s = make(evaluate=lambda sess: calls.append(sess.status) or {"passed": False, "status": sess.status})
    for i in range(4):
        r = s.step("system", "list_files", {})
        assert not r.done
    r = s.step("system", "list_files", {})
    assert r.done and r.status == "stagnated" and r.evaluation["status"] == "stagnated"
    assert calls == ["stagnated"]
    with pytest.raises(SessionEnded):
        s.step("system", "list_files", {})


def test_different_actions_reset_the_repeat_count(make):
    s = make()
    for _ in range(4):
        s.step("system", "list_files", {})
    s.step("system", "list_files", {"path": "data"})
    for _ in range(4):
        s.step("system", "list_files", {})
    assert s.status == "active"


def test_step_limit(make):
    s = make(max_steps=3, evaluate=lambda sess: {"status": sess.status})
    s.step("system", "list_files", {})
    s.step("system", "nope", {})
    r = s.step("system", "list_files", {"path": "data"})
    assert r.done and r.status == "step_limit" and r.evaluation == {"status": "step_limit"}


def test_finish_as_last_step_is_finished_not_step_limit(make):
    s = make(max_steps=1)
    r = s.finish("42")
    assert r.status == "finished" and s.answer == "42"


def test_finish_and_answer(make):
    s = make("api-question", evaluate=lambda sess: {"answer": sess.answer})
    r = s.step("system", "finish_task", {"answer": 1200})
    assert r.done and r.status == "finished" and r.evaluation == {"answer": "1200"}
    with pytest.raises(SessionEnded):
        s.finish()


def test_failed_evaluation_still_ends_with_a_record(make):
    def boom(sess):
        raise RuntimeError("parser exploded")

    s = make(evaluate=boom)
    r = s.finish()
    assert r.done and r.evaluation.passed is False and "parser exploded" in r.evaluation.error
    assert r.to_dict()["evaluation"]["error"] == r.evaluation.error and r.evaluation.status == "finished"


def test_expire(make):
    s = make(evaluate=lambda sess: {"status": sess.status})
    assert s.expire() and s.status == "expired" and s.evaluation == {"status": "expired"}
    assert not s.expire()


def test_actions_of_one_session_run_one_at_a_time(make):
    s = make(max_steps=500)
    errors = []

    def worker(i):
        try:
            for j in range(20):
                s.step("system", "list_files", {"path": "data" if (i + j) % 2 else "."})
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert [h["step"] for h in s.history] == list(range(1, 81))


def test_prompt_lists_user_time_instruction_and_actions(make):
    s = make()
    prompt = s.prompt()
    assert "Maya Lin" in prompt and "2026-03-10 09:00:00" in prompt and "Tuesday" in prompt
    assert BUDGET["instruction"] in prompt
    assert '{"app": "system", "action": "switch_app", "target_app": ...}' in prompt
    s.step("system", "switch_app", {"target_app": "excel"})
    assert '"action": "set_cell"' in s.prompt()
