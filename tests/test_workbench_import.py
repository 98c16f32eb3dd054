"""`officesim import workbench` over the shared snapshot (../shared/benchmarks/workbench): all 690 queries
become tasks on one shared office; through the HTTP API the gold of a sample from every domain passes,
and finishing at once fails, except on the tasks marked no-action."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from officesim.runner.cli import main as cli
from officesim.server.app import create_app
from officesim.server.manager import ServerSettings
from officesim.tasks.gold import play_gold
from officesim.tasks.loader import load_tasks
from officesim.tasks.workbench.importer import (OFFICE_DIR, OPEN_END, REPORT_FILE, corrections_markdown,
                                                import_workbench, load_overlay)

SNAPSHOT = Path(__file__).resolve().parents[2] / "shared" / "benchmarks" / "workbench"
pytestmark = pytest.mark.skipif(not (SNAPSHOT / "data" / "processed").is_dir(),
                                reason=f"the WorkBench snapshot is not at {SNAPSHOT} (../shared/benchmarks/workbench)")

# A sample from every domain and every kind of write (send, forward, reply, delete, create, update, plot,
# add), and one multi-domain task per domain combination size.
SAMPLE = ["workbench-analytics-1", "workbench-calendar-1", "workbench-calendar-11", "workbench-crm-1",
          "workbench-crm-21", "workbench-email-1", "workbench-email-21", "workbench-email-40", "workbench-email-70",
          "workbench-pm-50", "workbench-multi-1", "workbench-multi-112", "workbench-multi-150", "workbench-multi-200"]


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    out = tmp_path_factory.mktemp("workbench")
    return out, import_workbench(SNAPSHOT, out)


@pytest.fixture(scope="module")
def tasks(imported):
    out, _report = imported
    return load_tasks([out], include_suite=False)


def test_every_query_is_a_task(imported, tasks):
    out, report = imported
    assert len(report.imported) == 690 and set(tasks) == set(report.imported)
    assert all(re.fullmatch(r"workbench-(analytics|calendar|crm|email|multi|pm)-\d+", i) for i in tasks)
    counts = {d: sum(1 for i in tasks if i.startswith(f"workbench-{d}-")) for d in
              ("analytics", "calendar", "crm", "email", "multi", "pm")}
    assert counts == {"analytics": 120, "calendar": 110, "crm": 80, "email": 90, "multi": 210, "pm": 80}
    assert (out / REPORT_FILE).is_file() and (out / OFFICE_DIR / "data" / "analytics_data.xlsx").is_file()
    assert len(list((out / OFFICE_DIR / "emails" / "sam@atlas.com").rglob("*.eml"))) == 500
    for task in tasks.values():
        assert task.toolset == "workbench" and task.office_from == f"../{OFFICE_DIR}" and task.origin
        ground_truth = task.origin.evaluation[0]["ground_truth"]
        if "corrected-wrong-ground-truth" not in task.tags:
            assert len([a for a in task.gold if a.app != "system"]) == len(ground_truth)
        if not ground_truth:
            assert task.no_action and "no-action" in task.tags
    # the 122 queries without a call, two whose only call reassigns a customer to who already has it, one
    # whose corrected gold moves a lost customer to lost, and one with an accepted reading that deletes nothing
    assert len(report.no_action) == 126
    assert {"workbench-crm-32", "workbench-crm-33", "workbench-crm-63", "workbench-email-14"} <= set(report.no_action)


def test_gold_is_converted_mechanically(tasks):
    task = tasks["workbench-calendar-1"]
    truth = task.origin.evaluation[0]["ground_truth"]
    calls = [a for a in task.gold if a.app != "system"]
    for text, action in zip(truth, calls):
        assert text.startswith(f"{action.app}.{action.action}.func(")
        for key, value in action.args.items():
            assert f'{key}="{value}"' in text
    assert task.gold[0].action == "switch_app"


def act(client, sid, app, action, args) -> dict:
    r = client.post(f"/sessions/{sid}/actions", json={"app": app, "action": action, "args": args})
    assert r.status_code == 200, r.text
    return r.json()


def test_gold_passes_and_noop_fails_through_the_api(imported, tasks, tmp_path):
    out, report = imported
    no_action = [i for i in report.no_action if i.startswith("workbench-email")][:1] + ["workbench-crm-32"]
    chosen = SAMPLE + no_action
    cfg = ServerSettings(include_suite=False, sessions_dir=tmp_path / "sessions")
    with TestClient(create_app([out / i for i in chosen], cfg)) as client:
        for task_id in chosen:
            task = tasks[task_id]
            sid = client.post("/sessions", json={"task_id": task_id}).json()["session_id"]
            results = []
            failures = play_gold(task.gold, task.answer,
                                 lambda app, action, args: results.append(act(client, sid, app, action, args))
                                 or results[-1])
            assert not failures, (task_id, failures)
            evaluation = results[-1]["evaluation"]
            assert evaluation["passed"], (task_id, evaluation)
            sid = client.post("/sessions", json={"task_id": task_id}).json()["session_id"]
            noop = act(client, sid, "system", "finish_task", {})["evaluation"]
            assert noop["passed"] == task.no_action, (task_id, noop)


def test_a_wrong_write_fails(imported, tasks, tmp_path):
    """Deleting the wrong event, or sending the right email with another subject, is not the gold's end state."""
    out, _report = imported
    cfg = ServerSettings(include_suite=False, sessions_dir=tmp_path / "sessions")
    with TestClient(create_app([out / "workbench-email-1"], cfg)) as client:
        task = tasks["workbench-email-1"]
        call = next(a for a in task.gold if a.app != "system")
        sid = client.post("/sessions", json={"task_id": task.id}).json()["session_id"]
        act(client, sid, "system", "switch_app", {"target_app": call.app})
        args = dict(call.args)
        key = "subject" if "subject" in args else next(iter(args))
        args[key] = str(args[key]) + " (draft)" if key == "subject" else "00000001"
        act(client, sid, call.app, call.action, args)
        assert not act(client, sid, "system", "finish_task", {})["evaluation"]["passed"]


def test_cli_imports_one_query(tmp_path, capsys):
    assert cli(["import", "workbench", "--source", str(SNAPSHOT), "--out", str(tmp_path),
                "--task", "workbench-pm-3"]) == 0
    assert "imported 1 WorkBench tasks" in capsys.readouterr().out
    assert (tmp_path / "workbench-pm-3" / "task.yaml").is_file() and (tmp_path / OFFICE_DIR).is_dir()
    assert cli(["import", "workbench", "--source", str(tmp_path / "nowhere"), "--out", str(tmp_path)]) == 2


def play(client, task_id: str, actions: list[dict]) -> dict:
    sid = client.post("/sessions", json={"task_id": task_id}).json()["session_id"]
    for a in actions:
        act(client, sid, a["app"], a["action"], a.get("args") or {})
    return act(client, sid, "system", "finish_task", {})["evaluation"]


def test_both_verdicts_side_by_side(imported, tasks, tmp_path):
    """The gold passes both; two independent writes in the other order pass officesim's verdict and fail
    WorkBench's (its tables are compared row by row, in order); doing nothing fails both."""
    out, _report = imported
    chosen = ["workbench-analytics-111", "workbench-email-71", "workbench-calendar-11"]
    cfg = ServerSettings(include_suite=False, sessions_dir=tmp_path / "sessions")
    with TestClient(create_app([out / i for i in chosen], cfg)) as client:
        for task_id in chosen:
            gold = [a.model_dump() for a in tasks[task_id].gold]
            evaluation = play(client, task_id, gold)
            assert evaluation["passed"] and evaluation["original_passed"], (task_id, evaluation)
            noop = play(client, task_id, [])
            assert not noop["passed"] and not noop["original_passed"], task_id
        for task_id in chosen[:2]:
            gold = [a.model_dump() for a in tasks[task_id].gold]
            switch, writes = gold[0], gold[1:]
            assert len(writes) == 2 and switch["action"] == "switch_app"
            swapped = play(client, task_id, [switch] + writes[::-1])
            assert swapped["passed"], (task_id, swapped)
            assert not swapped["original_passed"], (task_id, swapped["original_checks"])


def test_original_verdict_keeps_workbench_flaws():
    """Replayed as WorkBench replays: a value with a double quote cannot be eval'd (the call is skipped);
    send_email after a deletion overwrites the row labelled len(EMAILS)."""
    from officesim.evaluators.workbench_original import FrameStore, replay

    tables = {"emails": [{"email_id": f"0000000{i}", "inbox/outbox": "inbox", "sender/recipient": "a@b.co",
                          "subject": f"s{i}", "sent_datetime": "2023-11-01 09:00:00", "body": "b"} for i in range(3)]}
    store = replay(tables, [("email.send_email", {"recipient": "x@y.co", "subject": 'say "hi"', "body": "b"})])
    assert len(store.rows("emails")) == 3
    store = replay(tables, [("email.delete_email", {"email_id": "00000000"}),
                            ("email.send_email", {"recipient": "x@y.co", "subject": "new", "body": "b"})])
    assert [r["subject"] for r in store.rows("emails")] == ["s1", "new"]  # s2 (label 2) overwritten
    assert isinstance(store, FrameStore)


def test_corrections_by_class_and_in_the_docs(imported):
    _out, report = imported
    classes: dict[str, set] = {}
    for task_id, cs in report.corrections.items():
        for c in cs:
            classes.setdefault(c["class"], set()).add(task_id)
    assert len(classes["write-order"]) == 36  # two plots or two forwards: WorkBench's ordered comparison
    assert len(classes["plot-end-date"]) == 55  # "since <date>", "the last N weeks", "than <date>? If so, plot it"
    assert {"workbench-analytics-56", "workbench-analytics-64", "workbench-analytics-111"} <= classes["plot-end-date"]
    assert "workbench-analytics-19" not in classes["plot-end-date"]  # "on November 29": the end it names
    assert not OPEN_END.search("If total visits on wednesday was more than 2% higher than it was the previous "
                               "wednesday, make a line plot of it over that period.")  # a closed period
    overlay = load_overlay()  # every overlay entry is applied, in its class
    for cls in ("wrong-ground-truth", "ambiguous"):
        assert classes[cls] == {k for k, v in overlay.items() if v["class"] == cls}
    assert {f"workbench-multi-{n}" for n in (11, 181, 183, 194)} | {"workbench-crm-65"} <= classes["wrong-ground-truth"]
    assert {"workbench-multi-112", "workbench-calendar-75", "workbench-pm-52"} <= classes["ambiguous"]
    page = (Path(__file__).resolve().parents[1] / "docs" / "workbench-verified.md").read_text(encoding="utf-8")
    assert corrections_markdown(report) in page, "docs/workbench-verified.md's correction table is stale: regenerate it " \
        "with officesim.tasks.workbench.importer.corrections_markdown"


def test_corrected_and_accepted_readings(imported, tasks, tmp_path):
    """A corrected gold passes officesim's verdict and fails WorkBench's; a plot 'since' a date ending today
    passes officesim's and fails WorkBench's; the ground truth of a corrected task fails officesim's."""
    out, _report = imported
    plot = next(i for i in sorted(tasks) if "corrected-plot-end-date" in tasks[i].tags and i.startswith("workbench-analytics"))
    chosen = ["workbench-multi-183", plot, "workbench-multi-11", "workbench-multi-112"]
    cfg = ServerSettings(include_suite=False, sessions_dir=tmp_path / "sessions")
    with TestClient(create_app([out / i for i in chosen], cfg)) as client:
        corrected = play(client, "workbench-multi-183", [a.model_dump() for a in tasks["workbench-multi-183"].gold])
        assert corrected["passed"] and not corrected["original_passed"], corrected
        from officesim.tasks.workbench.importer import gold_actions
        from officesim.tasks.workbench.source import parse_call

        truth = [parse_call(t) for t in tasks["workbench-multi-183"].origin.evaluation[0]["ground_truth"]]
        original = play(client, "workbench-multi-183", gold_actions(truth))
        assert not original["passed"] and original["original_passed"], original
        today = [a.model_dump() for a in tasks[plot].right[0].actions]
        assert any(a["args"].get("time_max") == "2023-11-30" for a in today)
        accepted = play(client, plot, today)
        assert accepted["passed"] and not accepted["original_passed"], accepted
        assert play(client, plot, [a.model_dump() for a in tasks[plot].gold])["passed"]
        # "the person with the fewest overdue tasks": six have none; each is accepted, WorkBench's pick is not
        fewest = tasks["workbench-multi-11"]
        assert len(fewest.right) == 5
        other = play(client, fewest.id, [a.model_dump() for a in fewest.right[2].actions])
        assert other["passed"] and not other["original_passed"], other
        truth = [parse_call(t) for t in fewest.origin.evaluation[0]["ground_truth"]]
        picked = play(client, fewest.id, gold_actions(truth))
        assert not picked["passed"] and picked["original_passed"], picked
        # an ambiguous query keeps WorkBench's reading ("next Friday": 2023-12-08) and accepts the other (12-01)
        friday = tasks["workbench-multi-112"]
        assert play(client, friday.id, [a.model_dump() for a in friday.gold])["original_passed"]
        coming = [a.model_dump() for a in friday.right[0].actions]
        assert any(a["args"].get("due_date") == "2023-12-01" for a in coming)
        accepted = play(client, friday.id, coming)
        assert accepted["passed"] and not accepted["original_passed"], accepted
