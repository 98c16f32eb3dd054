"""The one gold player: what it plays, what it reports, and that grading, the validator and the
oracle agent all play solutions through it (so they agree on what a gold run is)."""

from __future__ import annotations

import io
from types import SimpleNamespace

from officesim.runner import agents, validate
from officesim.runner.agents import OracleAgent
from officesim.runner.episode import Episode
from officesim.server import grading
from officesim.server.grading import Evaluator
from officesim.tasks import gold
from officesim.tasks.gold import GoldFailure, gold_actions, play_gold
from officesim.tasks.loader import load_tasks
from tests._api_tasks import BUDGET, QUESTION, variant, write_tasks

FINISH = {"app": "system", "action": "finish_task"}


def _act(app: str, action: str, **args) -> dict:
    return {"app": app, "action": action, "args": args}


class Recorder:
    """A step callable that answers from a script: {index: response overrides}."""

    def __init__(self, script: dict[int, dict] | None = None):
        self.script = script or {}
        self.calls: list[tuple] = []

    def __call__(self, app, action, args):
        self.calls.append((app, action, args))
        return {"ok": True, "observation": "fine", "done": action == "finish_task", "status": "running",
                **self.script.get(len(self.calls), {})}


def test_gold_actions_appends_finish_task():
    acts = gold_actions([{"app": "system", "action": "list_files", "args": {}}], "7")
    assert acts[-1] == {"app": "system", "action": "finish_task", "args": {"answer": "7"}}
    done = [{"app": "system", "action": "finish_task", "args": {"answer": "x"}}]
    assert gold_actions(done, "7") == done
    assert gold_actions([], None) == [{"app": "system", "action": "finish_task", "args": {"answer": None}}]


def test_player_plays_every_action_then_finishes():
    step = Recorder()
    actions = [_act("system", "switch_app", target_app="excel"), _act("excel", "read_file", file_path="a.xlsx")]
    assert play_gold(actions, "42", step) == []
    assert step.calls == [("system", "switch_app", {"target_app": "excel"}),
                          ("excel", "read_file", {"file_path": "a.xlsx"}),
                          ("system", "finish_task", {"answer": "42"})]


def test_player_reports_a_failing_step_by_index_and_goes_on():
    step = Recorder({2: {"ok": False, "observation": "no such file: data/nope.xlsx"}})
    actions = [_act("system", "switch_app", target_app="excel"), _act("excel", "read_file", file_path="data/nope.xlsx"),
               _act("excel", "set_cell", file_path="data/a.xlsx", row_idx=1, column_idx=1, text="x")]
    failures = play_gold(actions, None, step)
    assert failures == [GoldFailure(2, "excel", "read_file", "no such file: data/nope.xlsx")]
    assert str(failures[0]) == "action 2 excel.read_file: no such file: data/nope.xlsx"
    assert len(step.calls) == 4  # a failed action does not stop the play


def test_player_stops_when_the_session_ends_early():
    step = Recorder({2: {"done": True, "status": "stagnated"}})
    actions = [_act("system", "list_files")] * 3
    failures = play_gold(actions, None, step)
    assert len(step.calls) == 2
    assert [(f.index, f.ended) for f in failures] == [(2, True)]
    assert str(failures[0]) == "session ended (stagnated) after action 2 of 4"


def test_finish_goes_to_the_finish_callable_with_the_answer():
    step, answers = Recorder(), []

    def finish(answer):
        answers.append(answer)
        return {"ok": True, "observation": "done", "done": True, "status": "finished"}

    assert play_gold([_act("system", "list_files")], 1200, step, finish) == []
    assert step.calls == [("system", "list_files", {})] and answers == [1200]
    # an explicit finish_task is played with its own answer (None when it names none, as the API reads it)
    assert play_gold([{**FINISH, "args": {"answer": "PO-1"}}], "other", step, finish) == []
    assert play_gold([{**FINISH, "args": {}}], "other", step, finish) == []
    assert answers == [1200, "PO-1", None]


def test_step_results_may_be_objects():
    def step(app, action, args):
        return SimpleNamespace(ok=action != "bad", observation="nope", done=action == "finish_task", status="finished")

    failures = play_gold([_act("x", "good"), _act("x", "bad")], None, step)
    assert [str(f) for f in failures] == ["action 2 x.bad: nope"]


def test_grading_validator_and_oracle_share_the_player():
    assert grading.play_gold is gold.play_gold
    assert validate.play_gold is gold.play_gold
    assert agents.play_gold is gold.play_gold


def _sloppy(tmp_path):
    sloppy = variant(BUDGET, id="sloppy-gold")
    sloppy["gold"].insert(1, {"app": "excel", "action": "read_file", "args": {"file_path": "data/nope.xlsx"}})
    folder = write_tasks(tmp_path / "tasks", sloppy)
    return folder, load_tasks([folder], include_suite=False)["sloppy-gold"]


def test_grading_and_validator_report_the_same_gold_failure(tmp_path):
    folder, task = _sloppy(tmp_path)
    evaluator = Evaluator(tmp_path / "gold")
    try:
        run = evaluator.gold(task)
    finally:
        evaluator.close()
    assert run.status == "finished"
    assert len(run.failures) == 1 and run.failures[0].startswith("action 2 excel.read_file:")
    assert "nope.xlsx" in run.failures[0]
    out = io.StringIO()
    assert validate.main([str(folder)], include_suite=False, out=out) == 1
    assert f"gold action failed ({run.failures[0]})" in out.getvalue()


class FakeClient:
    """Enough of OfficeClient for an Episode: records what the agent sends."""

    def __init__(self, end_after: int | None = None):
        self.sent: list[tuple] = []
        self.end_after = end_after

    def act(self, session_id, app, action, args):
        self.sent.append(("act", app, action, args))
        done = self.end_after is not None and len(self.sent) >= self.end_after
        return {"ok": True, "observation": "", "done": done, "status": "step_limit" if done else "running",
                "current_app": app}

    def finish(self, session_id, answer):
        self.sent.append(("finish", answer))
        return {"ok": True, "observation": "", "done": True, "status": "finished", "evaluation": {"passed": True}}


def _episode(client, task_id):
    return Episode(client, {"session_id": "s1", "task": {"id": task_id}, "prompt": "", "tools": [],
                            "current_app": "system"})


def test_oracle_plays_the_gold_through_its_episode(tmp_path):
    tasks = load_tasks([write_tasks(tmp_path / "tasks", BUDGET, QUESTION)], include_suite=False)
    client = FakeClient()
    episode = _episode(client, "api-question")
    OracleAgent(tasks).solve(episode)
    assert client.sent == [("act", "system", "switch_app", {"target_app": "excel"}),
                           ("act", "excel", "read_file", {"file_path": "data/budget.xlsx"}),
                           ("finish", "1200")]  # Episode.finish sends the answer as text
    assert episode.done and episode.evaluation == {"passed": True}

    short = FakeClient(end_after=2)  # the session ends (step limit) in the middle of the gold
    OracleAgent(tasks).solve(_episode(short, "api-budget-note"))
    assert len(short.sent) == 2 and short.sent[-1][0] == "act"
