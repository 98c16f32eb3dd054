"""Mutants of WorkBench-tool-set tasks (runner/mutants/workbench.py): made of WorkBench's own tools only,
each class where it applies, none equal to an accepted reading, and through the real validator every
wrong one fails and every right one passes. A small hand-made WorkBench office always runs; tasks
imported from the shared snapshot (../shared/benchmarks/workbench) run when it is there."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import yaml

from officesim.apps import apps_for
from officesim.apps.workbench_core import STATE_TABLES, MemoryStore, call
from officesim.apps.workbench_store import write_office
from officesim.evaluators.workbench import state_digest
from officesim.runner.derive import derive
from officesim.runner.mutants import (RIGHT, TOOLSET_CLASSES, WORKBENCH_RIGHT_CLASSES, WORKBENCH_WRONG_CLASSES,
                                      WRONG, not_applicable)
from officesim.runner.validate import initial_office, main as validate
from officesim.tasks.loader import load_tasks
from officesim.tasks.workbench.importer import expectations
from tests._api_tasks import QUESTION, write_tasks

USER = "sam@atlas.com"
NIA, RAJ, LEILA = "nia.johnson@atlas.com", "raj.patel@atlas.com", "leila.azizi@atlas.com"
SNAPSHOT = Path(__file__).resolve().parents[2] / "shared" / "benchmarks" / "workbench"


def _event(n: int, name: str, who: str, start: str, minutes: str = "30") -> dict:
    return {"event_id": f"{n:08d}", "event_name": name, "participant_email": who, "event_start": start,
            "duration": minutes}


def _customer(n: int, name: str, owner: str, status: str, product: str = "Software") -> dict:
    return {"customer_id": f"{n:08d}", "assigned_to_email": owner, "customer_name": name,
            "customer_email": f"{name.lower().replace(' ', '.')}@client", "customer_phone": None,
            "last_contact_date": "2023-11-20", "product_interest": product, "status": status,
            "follow_up_by": "2023-12-10", "notes": None}


def _task(n: int, name: str, who: str, lst: str, due: str, board: str = "Front end") -> dict:
    return {"task_id": f"{n:08d}", "task_name": name, "assigned_to_email": who, "list_name": lst, "due_date": due,
            "board": board}


def tables() -> dict[str, list[dict]]:
    """A small WorkBench sandbox: a few rows of every table, several alike (distractors)."""
    visits = [{"date_of_visit": f"2023-11-{d:02d}", "visitor_id": f"{d:04d}", "page_views": "3",
               "session_duration_seconds": str(d), "traffic_source": "direct" if d % 2 else "referral",
               "user_engaged": "True" if d % 3 else "False"} for d in range(15, 30)]
    return {
        "emails": [
            {"email_id": "00000001", "inbox/outbox": "inbox", "sender/recipient": NIA, "subject": "Budget review",
             "sent_datetime": "2023-11-20 09:15:00", "body": "Sam, please review the budget."},
            {"email_id": "00000002", "inbox/outbox": "inbox", "sender/recipient": NIA, "subject": "Launch plan",
             "sent_datetime": "2023-11-28 10:00:00", "body": "Sam, here is the launch plan."},
            {"email_id": "00000003", "inbox/outbox": "inbox", "sender/recipient": RAJ, "subject": "Lunch",
             "sent_datetime": "2023-11-29 12:00:00", "body": "Lunch on Friday?"},
        ],
        "calendar": [
            _event(10, "sync up", RAJ, "2023-12-01 09:00:00"), _event(11, "budget review", NIA, "2023-12-01 11:00:00", "60"),
            _event(12, "sync up", RAJ, "2023-12-04 09:00:00"), _event(13, "design review", LEILA, "2023-12-01 15:00:00"),
        ],
        "analytics": visits,
        "crm": [_customer(1, "Quinn Thomas", RAJ, "Qualified"), _customer(2, "Avery Thomas", RAJ, "Lead"),
                _customer(3, "Morgan Wilson", NIA, "Proposal", "Consulting"), _customer(4, "Jordan Lee", NIA, "Won")],
        "tasks": [_task(1, "Fix login bug", LEILA, "In Progress", "2023-11-27"),
                  _task(2, "Add dark mode", LEILA, "Backlog", "2023-12-05"),
                  _task(3, "Write API docs", NIA, "In Progress", "2023-11-28", "Back end")],
        "directory": [{"email_address": a} for a in (NIA, RAJ, LEILA, USER)],
        "plots": [],
    }


def act(app: str, action: str, **args) -> dict:
    return {"app": app, "action": action, "args": args}


def switch(app: str) -> dict:
    return act("system", "switch_app", target_app=app)


def _checks(calls: list[dict]) -> list[dict]:
    """The importer's checks for a gold: the rows it adds, changes or removes."""
    store = MemoryStore(tables())
    for c in calls:
        call(store, f"{c['app']}.{c['action']}", c["args"])
    return expectations(tables(), store)


def wb_task(task_id: str, apps: list[str], instruction: str, calls: list[dict], **extra) -> dict:
    checks = _checks(calls) or [{"check": "workbench_rows", "args": {"table": "emails"}}]
    gold, current = [], None
    for c in calls:
        if c["app"] != current:
            gold.append(switch(c["app"]))
            current = c["app"]
        gold.append(c)
    return {"id": task_id, "scenario": task_id, "category": len(apps), "toolset": "workbench", "apps": apps,
            "user": USER, "user_name": "Sam", "now": "2023-11-30 00:00:00", "instruction": instruction,
            "office_from": "../_office", "checks": checks, "gold": gold, "no_action": not calls, **extra}


def _plot_digest(end: str) -> str:
    return state_digest("plots", [{"file_path": f"plots/2023-11-20_{end}_total_visits_bar.png"}])


PLOT = act("analytics", "create_plot", time_min="2023-11-20", time_max="2023-11-29", value_to_plot="total_visits",
           plot_type="bar")
HANDMADE = [
    wb_task("wb-cancel", ["calendar"], "Cancel my first meeting on December 1",
            [act("calendar", "delete_event", event_id="00000010")]),
    wb_task("wb-lead", ["customer_relationship_manager"], "Quinn Thomas is a lead now; update the crm",
            [act("customer_relationship_manager", "update_customer", customer_id="00000001", field="status",
                 new_value="Lead")]),
    wb_task("wb-meeting", ["calendar", "email"],
            "Book a 30 minute meeting called 'Roadmap' with nia on December 4 at 10 and tell her by email "
            "with subject 'Roadmap meeting' saying 'See you at 10 on December 4.'",
            [act("calendar", "create_event", event_name="Roadmap", participant_email=NIA,
                 event_start="2023-12-04 10:00:00", duration="30"),
             act("email", "send_email", recipient=NIA, subject="Roadmap meeting", body="See you at 10 on December 4.")]),
    wb_task("wb-move", ["project_management"], "Move leila's overdue task in progress to in review",
            [act("project_management", "update_task", task_id="00000001", field="list_name", new_value="In Review")]),
    wb_task("wb-later", ["calendar"], "Push the design review on December 1 back by an hour",
            [act("calendar", "update_event", event_id="00000013", field="event_start", new_value="2023-12-01 16:00:00")]),
    wb_task("wb-nothing", ["analytics"], "If total visits was more than 100 on any day since November 20, make a bar "
            "chart of total visits since then", []),
    {**wb_task("wb-since", ["analytics"], "Make a bar chart of total visits since November 20", [PLOT]),
     "checks": [{"check": "workbench_state", "args": {"table": "plots",
                                                      "accepted": [_plot_digest("2023-11-29"), _plot_digest("2023-11-30")]}}],
     "free": ["plots/*"],
     "right": [{"name": "up to today", "actions": [switch("analytics"), {**PLOT, "args": {**PLOT["args"],
                                                                                      "time_max": "2023-11-30"}}]}]},
]


def write(folder: Path, tasks: list[dict]) -> Path:
    write_office(folder / "_office", tables(), USER)
    for task in tasks:
        (folder / task["id"]).mkdir(parents=True, exist_ok=True)
        (folder / task["id"] / "task.yaml").write_text(yaml.safe_dump(task, sort_keys=False), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def handmade(tmp_path_factory) -> tuple[Path, dict]:
    folder = write(tmp_path_factory.mktemp("wb-mutants"), HANDMADE)
    loaded = load_tasks([folder], include_suite=False)
    office = initial_office(next(iter(loaded.values())))
    return folder, {tid: derive(task, office) for tid, task in loaded.items()}


def _classes(mutants) -> set[tuple[str, str]]:
    return {(m.kind, m.cls) for m in mutants}


def _operations() -> set[tuple[str, str]]:
    return {(name, op) for name, app in apps_for("workbench").items() for op in app.operations}


# ---- derivation ------------------------------------------------------------------------------------
def test_mutants_use_only_workbench_operations(handmade):
    _folder, derived = handmade
    allowed = _operations()
    for task_id, mutants in derived.items():
        assert mutants, task_id
        for m in mutants:
            used = {(a["app"], a["action"]) for a in m.actions}
            assert used <= allowed, (task_id, m.name, used - allowed)
            assert m.toolset == "workbench"
            assert not any(a["app"] == "shell" for a in m.actions)


def test_each_class_appears_where_it_applies(handmade):
    _folder, derived = handmade
    seen = set().union(*(_classes(ms) for ms in derived.values()))
    wrong = {"step-dropped", "create-twice", "id-replaced", "field-value-changed", "number-changed",
             "event-start-shifted", "event-end-shifted", "event-beside-update", "recipient-replaced",
             "distractor-deleted", "write-added"}
    right = {"date-reformatted", "steps-reordered", "reads-added", "switch-roundtrips", "case-changed",
             "refused-write-added"}
    assert wrong | right == set(TOOLSET_CLASSES["workbench"])
    assert set(WORKBENCH_WRONG_CLASSES) <= wrong and set(WORKBENCH_RIGHT_CLASSES) <= right
    missing = {(WRONG, c) for c in wrong} | {(RIGHT, c) for c in right}
    assert not missing - seen, sorted(missing - seen)
    assert {m.cls for m in derived["wb-nothing"] if m.kind == WRONG} <= {"write-added", "distractor-deleted"}
    later = {m.cls for m in derived["wb-later"] if m.kind == WRONG}
    assert {"event-beside-update", "event-start-shifted", "number-changed", "id-replaced"} <= later


def test_wrong_mutants_change_what_they_say(handmade):
    _folder, derived = handmade
    cancel = {m.cls: m for m in derived["wb-cancel"] if m.kind == WRONG}
    deleted = [a["args"]["event_id"] for a in cancel["id-replaced"].actions if a["action"] == "delete_event"]
    assert deleted == ["00000011"]  # the next meeting that day, not one a week later
    assert not any(a["action"] == "delete_event" for a in cancel["step-dropped"].actions)
    lead = [m for m in derived["wb-lead"] if m.cls == "field-value-changed"]
    assert lead and all(a["args"]["new_value"] in ("Won", "Lost", "Proposal") for m in lead for a in m.actions
                        if a["action"] == "update_customer")
    meeting = {m.cls: m for m in derived["wb-meeting"] if m.kind == WRONG}
    starts = [a["args"]["event_start"] for a in meeting["event-start-shifted"].actions if a["action"] == "create_event"]
    assert starts == ["2023-12-04 11:00:00"]
    sends = [a for a in meeting["create-twice"].actions if a["action"] in ("send_email", "create_event")]
    assert len(sends) == 3
    tables_hit = {a["action"] for m in derived["wb-meeting"] if m.cls == "distractor-deleted" for a in m.actions}
    assert {"delete_email", "delete_event", "delete_customer", "delete_task"} <= tables_hit


def test_no_wrong_mutant_is_an_accepted_reading(handmade):
    _folder, derived = handmade
    ends = [a["args"]["time_max"] for m in derived["wb-since"] if m.kind == WRONG for a in m.actions
            if a["action"] == "create_plot"]
    assert "2023-11-30" not in ends and "2023-11-28" in ends  # today is accepted; the day before is not


def test_right_mutants_keep_the_outcome(handmade):
    _folder, derived = handmade
    right = {m.cls: m for m in derived["wb-meeting"] if m.kind == RIGHT}
    names = [a["args"].get("event_name") for a in right["case-changed"].actions if a["action"] == "create_event"]
    assert names == ["roadmap"]
    assert any(a["args"].get("event_start") == "2023-12-04 10:00" for a in right["date-reformatted"].actions)
    assert any(a["app"] == "company_directory" for a in right["reads-added"].actions)
    refused = [m for m in derived["wb-lead"] if m.cls == "refused-write-added"]
    assert any(a["args"].get("new_value") == "lead" for m in refused for a in m.actions)


def test_not_applicable_names_workbench_classes_only(handmade):
    _folder, derived = handmade
    missing = not_applicable(derived["wb-cancel"])
    assert "create-twice" in missing and "off-row" not in missing and "formula" not in missing


def test_officebench_tasks_keep_their_deriver(tmp_path):
    folder = write_tasks(tmp_path / "tasks", QUESTION)
    task = load_tasks([folder], include_suite=False)[QUESTION["id"]]
    mutants = derive(task, initial_office(task))
    assert mutants and all(m.toolset == "officebench" for m in mutants)


# ---- through the real validator --------------------------------------------------------------------
def test_wrong_mutants_fail_and_right_ones_pass(handmade, tmp_path):
    folder, _derived = handmade
    out, target = io.StringIO(), tmp_path / "mutants.json"
    code = validate([str(folder)], include_suite=False, out=out, mutants=True, json_out=str(target), workers=2)
    text = out.getvalue()
    assert code == 0, text
    assert not [line for line in text.splitlines() if line.startswith(("SURVIVED", "REJECTED"))], text
    summary = json.loads(target.read_text())
    for task_id, row in summary["per_task"].items():
        assert row["killed"] == row["wrong"] >= 5 and row["passed"] == row["right"] >= 3, (task_id, row)


# ---- tasks imported from WorkBench -----------------------------------------------------------------
SAMPLE = ["workbench-calendar-1", "workbench-crm-4", "workbench-email-31", "workbench-multi-11", "workbench-pm-66",
          "workbench-analytics-1"]
snapshot = pytest.mark.skipif(not (SNAPSHOT / "data" / "processed").is_dir(),
                              reason=f"the WorkBench snapshot is not at {SNAPSHOT} (../shared/benchmarks/workbench)")


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> tuple[Path, dict, dict]:
    from officesim.tasks.workbench.importer import import_workbench

    out = tmp_path_factory.mktemp("workbench")
    import_workbench(SNAPSHOT, out, only=SAMPLE)
    tasks = load_tasks([out], include_suite=False)
    office = initial_office(next(iter(tasks.values())))
    return out, tasks, {tid: derive(task, office) for tid, task in tasks.items()}


@snapshot
def test_imported_tasks_get_workbench_mutants(imported):
    _out, tasks, derived = imported
    allowed = _operations()
    for task_id in SAMPLE:
        mutants = derived[task_id]
        wrong = [m for m in mutants if m.kind == WRONG]
        right = [m for m in mutants if m.kind == RIGHT]
        assert len(wrong) >= 8 and len(right) >= 3, (task_id, len(wrong), len(right))
        assert all({(a["app"], a["action"]) for a in m.actions} <= allowed for m in mutants), task_id
    assert {m.cls for m in derived["workbench-pm-66"] if m.kind == WRONG} >= {"write-added", "distractor-deleted"}
    fewest = tasks["workbench-multi-11"]  # six people are accepted: none of them is a wrong assignee
    accepted = {a.args["assigned_to_email"] for sol in fewest.right for a in sol.actions if a.app != "system"}
    accepted |= {a.args["assigned_to_email"] for a in fewest.gold if a.app != "system"}
    assignees = {a["args"].get("assigned_to_email") for m in derived[fewest.id] if m.kind == WRONG
                 and m.cls == "recipient-replaced" for a in m.actions if a["action"] == "add_customer"}
    assert assignees and not assignees & accepted


@snapshot
def test_imported_mutants_through_the_validator(imported, tmp_path):
    out, _tasks, _derived = imported
    buffer, target = io.StringIO(), tmp_path / "mutants.json"
    code = validate([str(out)], include_suite=False, out=buffer, mutants=True, json_out=str(target), workers=2,
                    task_ids=["workbench-multi-11", "workbench-pm-66"])
    text = buffer.getvalue()
    assert code == 0, text
    summary = json.loads(target.read_text())
    assert set(summary["per_task"]) == {"workbench-multi-11", "workbench-pm-66"}
    for task_id, row in summary["per_task"].items():
        assert row["killed"] == row["wrong"] >= 8 and row["passed"] == row["right"] >= 3, (task_id, row)
