"""WorkBench's tool set on real office files: every operation's observation (as WorkBench prints it) and
its effect on the files, the ``workbench`` tool set of a session, and the shared office template."""

from __future__ import annotations

import os

import pytest

from officesim.apps import APPS, TOOLSET_APPS, find_operation
from officesim.apps.workbench_core import MemoryStore, TOOLS, call
from officesim.apps.workbench_store import OfficeStore, write_office
from officesim.server.session import Session, tools_for
from officesim.tasks.model import Task
from officesim.testbed.materialise import new_office, remove_office, template_for
from officesim.testbed.parse import parse_office

USER = "sam@atlas.com"


def tables() -> dict[str, list[dict]]:
    """A small sandbox with WorkBench's columns."""
    return {
        "emails": [
            {"email_id": "00000001", "inbox/outbox": "inbox", "sender/recipient": "nia.johnson@atlas.com",
             "subject": "Budget review", "sent_datetime": "2023-11-20 09:15:00", "body": "Sam,\\n\\nPlease review."},
            {"email_id": "00000002", "inbox/outbox": "outbox", "sender/recipient": "raj.patel@atlas.com",
             "subject": "Launch plan", "sent_datetime": "2023-11-28 10:00:00", "body": "Raj, here is the plan."},
        ],
        "calendar": [
            {"event_id": "00000010", "event_name": "sync up", "participant_email": "raj.patel@atlas.com",
             "event_start": "2023-12-01 09:00:00", "duration": "30"},
            {"event_id": "00000011", "event_name": "Budget, Q4; review", "participant_email": "nia.johnson@atlas.com",
             "event_start": "2023-12-01 11:00:00", "duration": "60"},
        ],
        "analytics": [
            {"date_of_visit": "2023-11-28", "visitor_id": "0860", "page_views": "8", "session_duration_seconds": "4",
             "traffic_source": "referral", "user_engaged": "False"},
            {"date_of_visit": "2023-11-28", "visitor_id": "0861", "page_views": "3", "session_duration_seconds": "12",
             "traffic_source": "direct", "user_engaged": "True"},
            {"date_of_visit": "2023-11-29", "visitor_id": "0862", "page_views": "1", "session_duration_seconds": "6",
             "traffic_source": "direct", "user_engaged": "True"},
        ],
        "crm": [
            {"customer_id": "00000189", "assigned_to_email": "lena.schmidt@atlas.com", "customer_name": "Taylor Jackson",
             "customer_email": "taylor.jackson@nanolabs", "customer_phone": None, "last_contact_date": "2023-11-30",
             "product_interest": "Consulting", "status": "Lost", "follow_up_by": "2023-12-22", "notes": "Had a call."},
        ],
        "tasks": [
            {"task_id": "00000149", "task_name": "Add animation to carousel", "assigned_to_email": "leila.azizi@atlas.com",
             "list_name": "Backlog", "due_date": "2023-11-27", "board": "Front end"},
        ],
        "directory": [{"email_address": "nia.johnson@atlas.com"}, {"email_address": "raj.patel@atlas.com"},
                      {"email_address": "leila.azizi@atlas.com"}],
        "plots": [],
    }


@pytest.fixture
def task(tmp_path) -> Task:
    shared = tmp_path / "shared-office"
    write_office(shared, tables(), USER)
    (tmp_path / "t").mkdir()
    task = Task(id="wb-test", scenario="wb", category=1, toolset="workbench", apps=["calendar"], user=USER,
                now="2023-11-30 00:00:00", instruction="Do it", office_from="../shared-office",
                checks=[{"check": "file_exists", "args": {"path": "data/project_tasks.xlsx"}}], gold=[])
    task.source_dir = str(tmp_path / "t")
    return task


@pytest.fixture
def session(task, tmp_path):
    office = new_office(task, tmp_path / "sessions")
    yield Session(task, "all_operations", office=office)
    remove_office(office)


def act(session: Session, app: str, action: str, **args):
    r = session.step(app, action, args)
    assert r.ok, r.observation
    return r.observation


# ---- the tool set -----------------------------------------------------------------------------------
def test_toolset_has_workbench_tools_exactly():
    names = {f"{a}.{op}" for a, app in TOOLSET_APPS["workbench"].items() if a != "system" for op in app.operations}
    assert names == set(TOOLS) and len(names) == 27
    send = TOOLSET_APPS["workbench"]["email"].operations["send_email"]
    assert [p.name for p in send.params] == ["recipient", "subject", "body"]
    assert send.writes and not TOOLSET_APPS["workbench"]["email"].operations["search_emails"].writes
    # OfficeBench's apps are untouched
    assert TOOLSET_APPS["officebench"] is APPS and "sender" in APPS["email"].operations["send_email"].model.model_fields
    assert find_operation("workbench:email", "send_email") is send
    assert find_operation("email", "send_email") is APPS["email"].operations["send_email"]


def test_session_offers_the_tasks_toolset(session):
    names = {t["function"]["name"] for t in session.tools()}
    assert "customer_relationship_manager_add_customer" in names and "email_send_email" in names
    assert not any(n.startswith(("excel_", "word_")) for n in names) and "system_list_files" not in names
    assert "Meetings must not start before 9am" in session.prompt()
    assert "customer_relationship_manager" in session.prompt()
    # a tool name with underscores in its app is split on the app
    r = session.step(None, "project_management_get_task_information_by_id", {"task_id": "00000149", "field": "board"})
    assert r.ok and r.observation == "{'board': 'Front end'}"
    officebench = {t["function"]["name"] for t in tools_for("all_operations", "system")}
    assert "excel_set_cell" in officebench and "analytics_create_plot" not in officebench


def test_switch_app_follows_the_toolset(task, tmp_path):
    office = new_office(task, tmp_path / "s2")
    try:
        s = Session(task, "switch_app", office=office)
        assert not s.step("system", "switch_app", {"target_app": "excel"}).ok
        r = s.step("system", "switch_app", {"target_app": "customer_relationship_manager"})
        assert r.ok and {t["function"]["name"] for t in r.tools} >= {"customer_relationship_manager_search_customers"}
        r = s.step("calendar", "delete_event", {"event_id": "00000010"})
        assert not r.ok and r.error["code"] == "not_in_current_app"
    finally:
        remove_office(office)


def test_task_apps_are_checked_against_its_toolset():
    base = dict(id="x", scenario="x", category=1, user=USER, now="2023-11-30 00:00:00", instruction="x",
                checks=[{"check": "file_exists", "args": {"path": "a"}}], gold=[])
    with pytest.raises(ValueError, match="analytics"):
        Task(**base, apps=["analytics"])
    with pytest.raises(ValueError, match="excel"):
        Task(**base, apps=["excel"], toolset="workbench")
    with pytest.raises(ValueError, match="tool set"):
        Task(**base, apps=["excel"], toolset="nope")
    assert Task(**base, apps=["analytics"], toolset="workbench").public()["toolset"] == "workbench"


# ---- the shared office -----------------------------------------------------------------------------
def test_office_from_is_one_template_and_sessions_cannot_reach_it(task, session):
    other = task.model_copy(update={"id": "wb-other"})
    assert template_for(task) == template_for(other)
    template = template_for(task)
    act(session, "calendar", "delete_event", event_id="00000010")
    act(session, "email", "delete_email", email_id="00000001")
    assert (template / "emails" / USER / "00000001.eml").is_file()
    assert b"00000010" in (template / "calendar" / f"{USER}.ics").read_bytes()
    assert not (session.office.root / "emails" / USER / "00000001.eml").exists()


# ---- email ------------------------------------------------------------------------------------------
def test_email_reads(session):
    assert act(session, "email", "get_email_information_by_id", email_id="00000001", field="subject") == \
        "{'subject': 'Budget review'}"
    assert act(session, "email", "get_email_information_by_id", email_id="00000001", field="sent_date") == \
        "Field not found."
    assert act(session, "email", "get_email_information_by_id", email_id="9") == "Field not provided."
    found = act(session, "email", "search_emails", query="plan raj")
    assert found.startswith("[{'email_id': '00000002', 'inbox/outbox': 'outbox'")
    assert act(session, "email", "search_emails", query="review", date_min="2023-11-21") == "No emails found."
    r = session.step("email", "search_emails", {"date_min": "last week"})
    assert not r.ok and r.error["code"] == "bad_arguments"


def test_email_writes(session):
    root = session.office.root
    assert act(session, "email", "send_email", recipient="Raj.Patel@atlas.com", subject="Hi", body="Hello") == \
        "Email sent successfully."
    assert act(session, "email", "send_email", recipient="raj", subject="Hi", body="x") == "Invalid recipient email address."
    assert act(session, "email", "forward_email", email_id="00000001", recipient="leila.azizi@atlas.com") == \
        "Email forwarded successfully."
    assert act(session, "email", "reply_email", email_id="00000001", body="Done.") == "Email replied successfully."
    assert act(session, "email", "delete_email", email_id="00000002") == "Email deleted successfully."
    assert act(session, "email", "delete_email", email_id="00000002") == "Email not found."
    state = parse_office(root)
    sent = {p: e for p, e in state.items() if p.startswith(f"emails/{USER}/sent/")}
    assert sorted(p.rsplit("/", 1)[1] for p in sent) == ["3.eml", "4.eml", "5.eml"]  # WorkBench's max id + 1
    by_id = {p.rsplit("/", 1)[1]: e for p, e in sent.items()}
    assert by_id["3.eml"]["to"] == ["raj.patel@atlas.com"] and by_id["3.eml"]["body"].strip() == "Hello"
    assert by_id["4.eml"]["subject"] == "FW: Budget review" and by_id["4.eml"]["to"] == ["leila.azizi@atlas.com"]
    assert by_id["5.eml"]["subject"] == "Budget review" and by_id["5.eml"]["to"] == ["nia.johnson@atlas.com"]
    rows = {r["email_id"]: r for r in OfficeStore(session.ctx).rows("emails")}
    assert rows["5"]["sent_datetime"] == "2023-11-30 00:00:00" and rows["5"]["inbox/outbox"] == "outbox"
    assert "00000002" not in rows


# ---- calendar ---------------------------------------------------------------------------------------
def test_calendar(session):
    assert act(session, "calendar", "get_event_information_by_id", event_id="00000011", field="duration") == \
        "{'duration': '60'}"
    assert act(session, "calendar", "search_events", query="SYNC") == (
        "[{'event_id': '00000010', 'event_name': 'sync up', 'participant_email': 'raj.patel@atlas.com', "
        "'event_start': '2023-12-01 09:00:00', 'duration': '30'}]")
    assert act(session, "calendar", "search_events", time_min="2023-12-01 10:00:00").count("event_id") == 1
    assert act(session, "calendar", "create_event", event_name="Update", participant_email="Nia.Johnson@atlas.com",
               event_start="2023-12-01 13:00:00", duration=30) == "00000012"
    assert act(session, "calendar", "create_event", event_name="x") == "Participant email not provided."
    assert act(session, "calendar", "update_event", event_id="00000011", field="duration", new_value="90") == \
        "Event updated successfully."
    assert act(session, "calendar", "update_event", event_id="00000011", field="event_start",
               new_value="2023-12-04 15:00:00") == "Event updated successfully."
    assert act(session, "calendar", "delete_event", event_id="00000010") == "Event deleted successfully."
    assert act(session, "calendar", "delete_event", event_id="00000010") == "Event not found."
    r = session.step("calendar", "update_event", {"event_id": "00000011", "field": "duration", "new_value": "long"})
    assert not r.ok
    events = parse_office(session.office.root)[f"calendar/{USER}.ics"]["events"]
    assert [(e["uid"], e["summary"], e["start"], e["end"], e["attendees"]) for e in events] == [
        ("00000011", "Budget, Q4; review", "2023-12-04 15:00:00", "2023-12-04 16:30:00", ["nia.johnson@atlas.com"]),
        ("00000012", "Update", "2023-12-01 13:00:00", "2023-12-01 13:30:00", ["nia.johnson@atlas.com"]),
    ]


# ---- analytics --------------------------------------------------------------------------------------
def test_analytics(session):
    assert act(session, "analytics", "total_visits_count", time_min="2023-11-28") == "{'2023-11-28': 2, '2023-11-29': 1}"
    assert act(session, "analytics", "engaged_users_count") == "{'2023-11-28': 1, '2023-11-29': 1}"
    assert act(session, "analytics", "traffic_source_count", traffic_source="direct") == \
        "{'2023-11-28': 1, '2023-11-29': 1}"
    assert act(session, "analytics", "get_average_session_duration", time_max="2023-11-28") == "{'2023-11-28': 8.0}"
    assert act(session, "analytics", "get_visitor_information_by_id", visitor_id="0861") == (
        "[{'date_of_visit': '2023-11-28', 'visitor_id': '0861', 'page_views': '3', 'session_duration_seconds': '12', "
        "'traffic_source': 'direct', 'user_engaged': True}]")
    path = act(session, "analytics", "create_plot", time_min="2023-11-01", time_max="2023-11-29",
               value_to_plot="total_visits", plot_type="line")
    assert path == "plots/2023-11-01_2023-11-29_total_visits_line.png"
    assert act(session, "analytics", "create_plot", time_min="2023-11-01", time_max="2023-11-29",
               value_to_plot="visits", plot_type="bar").startswith("Value to plot must be one of")
    entry = parse_office(session.office.root)[path]
    assert entry["kind"] == "image" and entry["width"] > 100


# ---- CRM, project board, directory ------------------------------------------------------------------
def test_customer_relationship_manager(session):
    found = act(session, "customer_relationship_manager", "search_customers", customer_name="taylor")
    assert "'customer_phone': nan" in found and "'customer_id': '00000189'" in found
    assert act(session, "customer_relationship_manager", "search_customers").startswith("No search parameters")
    assert act(session, "customer_relationship_manager", "update_customer", customer_id="00000189", field="status",
               new_value="won") == "Status not valid. Please choose from: 'Qualified', 'Won', 'Lost', 'Lead', 'Proposal'"
    assert act(session, "customer_relationship_manager", "update_customer", customer_id="00000189", field="status",
               new_value="Won") == "Customer updated successfully."
    assert act(session, "customer_relationship_manager", "add_customer", customer_name="Ana Lima",
               assigned_to_email="Raj.Patel@atlas.com", status="Lead") == "00000190"
    assert act(session, "customer_relationship_manager", "delete_customer", customer_id="00000189") == \
        "Customer deleted successfully."
    rows = OfficeStore(session.ctx).rows("crm")
    assert [(r["customer_id"], r["assigned_to_email"], r["status"], r["notes"]) for r in rows] == \
        [("00000190", "raj.patel@atlas.com", "Lead", None)]
    sheet = parse_office(session.office.root)["data/customer_relationship_manager.xlsx"]["sheets"]["customers"]
    assert sheet[1][:3] == ["00000190", "raj.patel@atlas.com", "Ana Lima"]


def test_project_management_and_directory(session):
    assert act(session, "project_management", "search_tasks", board="front") .startswith("[{'task_id': '00000149'")
    assert act(session, "project_management", "create_task", task_name="Fix login", assigned_to_email="nobody@atlas.com",
               list_name="Backlog", due_date="2023-12-08", board="Back end").startswith("Assignee email not valid")
    assert act(session, "project_management", "create_task", task_name="Fix login",
               assigned_to_email="Leila.Azizi@atlas.com", list_name="Backlog", due_date="2023-12-08",
               board="Back end") == "00000150"
    assert act(session, "project_management", "update_task", task_id="00000149", field="list_name",
               new_value="Done") .startswith("List not valid")
    assert act(session, "project_management", "update_task", task_id="00000149", field="list_name",
               new_value="Completed") == "Task updated successfully."
    assert act(session, "project_management", "delete_task", task_id="00000150") == "Task deleted successfully."
    rows = OfficeStore(session.ctx).rows("tasks")
    assert [(r["task_id"], r["list_name"]) for r in rows] == [("00000149", "Completed")]
    assert act(session, "company_directory", "find_email_address", name="Raj") == "['raj.patel@atlas.com']"
    assert act(session, "company_directory", "find_email_address", name="zed") == "[]"
    assert act(session, "company_directory", "find_email_address") == "Name not provided."


def test_memory_store_replays_like_the_office(session):
    """The same tools on in-memory tables (the importer's and the original verdict's replay) end in the
    same tables as on the office's files."""
    calls = [("email.send_email", {"recipient": "a@b.co", "subject": "S", "body": "B"}),
             ("calendar.update_event", {"event_id": "00000010", "field": "event_name", "new_value": "Sync"}),
             ("customer_relationship_manager.update_customer", {"customer_id": "00000189", "field": "notes",
                                                                "new_value": "Called."}),
             ("project_management.update_task", {"task_id": "00000149", "field": "board", "new_value": "Design"})]
    memory = MemoryStore(tables())
    for tool, args in calls:
        call(memory, tool, args)
        app, action = tool.split(".")
        act(session, app, action, **args)
    office = OfficeStore(session.ctx)
    for table in ("emails", "calendar", "crm", "tasks"):
        key = lambda r: str(r[next(iter(r))])  # noqa: E731
        assert sorted(office.rows(table), key=key) == sorted(memory.rows(table), key=key), table
    assert os.path.exists(session.office.root / "emails" / USER / "sent" / "3.eml")


def test_ask_user_and_run_code_in_the_workbench_toolset(task, tmp_path):
    office = new_office(task, tmp_path / "s3")
    try:
        s = Session(task, "switch_app", office=office)
        r = s.step("system", "ask_user", {"question": "Which meeting?"})
        assert r.ok and r.observation.startswith("The user replies:")
        names = {t["function"]["name"] for t in s.tools()}
        assert "system_ask_user" in names and "system_run_code" not in names  # programs only in mode "code"
    finally:
        remove_office(office)
    office = new_office(task, tmp_path / "s4")
    try:
        s = Session(task, "code", office=office)
        assert {t["function"]["name"] for t in s.tools()} == {"system_run_code", "system_finish_task"}
        program = ("system.switch_app(target_app='calendar')\n"
                   "print(calendar.get_event_information_by_id(event_id='00000010', field='event_name'))")
        r = s.step("system", "run_code", {"code": program})
        assert r.ok and "event_name" in r.observation, r.observation
    finally:
        remove_office(office)


def test_apps_listing_per_toolset():
    from fastapi.testclient import TestClient

    from officesim.server.app import create_app

    with TestClient(create_app()) as client:
        default = {a["name"] for a in client.get("/apps").json()}
        workbench = client.get("/apps", params={"toolset": "workbench"}).json()
        assert "excel" in default and "analytics" not in default
        assert {a["name"] for a in workbench} >= {"analytics", "customer_relationship_manager", "system"}
        send = next(a for a in workbench if a["name"] == "email")
        assert "send_email" in {op["name"] for op in send["operations"]}
        r = client.get("/apps", params={"toolset": "nope"})
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_toolset"
