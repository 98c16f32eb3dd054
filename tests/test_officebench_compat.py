"""OfficeBench's office layout in the apps: people by first name or address, mailboxes and calendars
found whatever their case, system.copy/paste. Through the HTTP API on the example task in that layout
(tasks/examples/example-officebench-mail), and through the operations on a bare office."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from officesim.apps import APPS, OfficeContext
from officesim.server.app import create_app
from officesim.server.manager import ServerSettings

EXAMPLES = Path(__file__).resolve().parent.parent / "tasks" / "examples"
PEOPLE = {"Alice": "alice@example.com", "Bob": "bob@example.com"}


def op(ctx, app, action, **args):
    return APPS[app].operations[action].invoke(ctx, args)


@pytest.fixture
def bob_office(office):
    """emails/Bob/ and calendar/Bob.ics, as OfficeBench's testbeds have them."""
    (office.root / "emails" / "Bob").mkdir(parents=True)
    (office.root / "emails" / "Bob" / "hello there.eml").write_text(
        "From: carol@example.com\nTo: Bob@example.com\nSubject: Hello\n\nHi Bob.\n")
    (office.root / "calendar").mkdir()
    (office.root / "calendar" / "Bob.ics").write_text(
        "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:x\nBEGIN:VEVENT\nUID:1\nDTSTART:20240501T160000Z\n"
        "DTEND:20240501T180000Z\nSUMMARY:class\nEND:VEVENT\nEND:VCALENDAR\n")
    return office


def test_mailbox_and_calendar_found_whatever_the_case_without_people(bob_office):
    ctx = OfficeContext(office=bob_office, user="bob")
    for who in ("Bob", "bob", "BOB"):
        r = op(ctx, "email", "list_emails", username=who)
        assert r.ok and "Subject: Hello" in r.observation, r.observation
        r = op(ctx, "calendar", "list_events", username=who)
        assert r.ok and "class" in r.observation
    assert op(ctx, "email", "read_email", username="bob", email_id="hello there").ok
    r = op(ctx, "calendar", "create_event", user="bob", summary="dinner", time_start="2024-05-01 19:00:00",
           time_end="2024-05-01 20:00:00")
    assert r.ok and sorted(p.name for p in (bob_office.root / "calendar").iterdir()) == ["Bob.ics"]
    r = op(ctx, "email", "send_email", sender="alice@example.com", recipient="Bob", subject="x", content="y")
    assert not r.ok and r.error["code"] == "bad_arguments"  # no people listed: a bare name is no address


def test_people_by_name_or_address(bob_office):
    ctx = OfficeContext(office=bob_office, user="alice@example.com", settings={"people": PEOPLE})
    assert "Subject: Hello" in op(ctx, "email", "list_emails", username="bob@example.com").observation
    r = op(ctx, "email", "send_email", sender="Alice", recipient=["Bob", "BOB@example.com"], subject="Rent",
           content="Due Friday.")
    assert r.ok, r.observation
    root = bob_office.root / "emails"
    assert sorted(p.name for p in root.iterdir()) == ["Alice", "Bob"]
    assert (root / "Alice" / "sent" / "msg-1.eml").is_file() and (root / "Bob" / "msg-1.eml").is_file()
    text = (root / "Bob" / "msg-1.eml").read_text()
    assert "From: alice@example.com" in text and "To: bob@example.com" in text
    # OfficeBench files mail to bob@<anywhere> under emails/Bob/
    assert op(ctx, "email", "send_email", sender="Alice", recipient="Bob@gmail.com", subject="a", content="b").ok
    assert (root / "Bob" / "msg-2.eml").is_file()
    r = op(ctx, "email", "send_email", sender="Alice", recipient="Zed", subject="a", content="b")
    assert not r.ok and "Alice, Bob" in r.observation  # names nobody: the message lists the people
    r = op(ctx, "calendar", "create_event", user="alice@example.com", summary="review",
           time_start="2024-05-02 10:00:00", time_end="2024-05-02 11:00:00", attendees=["Bob"])
    assert r.ok and (bob_office.root / "calendar" / "Alice.ics").is_file()
    assert "bob@example.com" in (bob_office.root / "calendar" / "Alice.ics").read_text()


def test_copy_and_paste(ctx):
    assert op(ctx, "system", "paste").error["code"] == "not_found"
    assert op(ctx, "system", "copy", text="line one\nline two").ok
    r = op(ctx, "system", "paste")
    assert r.ok and r.observation == "line one\nline two"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    cfg = ServerSettings(include_suite=False, sessions_dir=tmp_path_factory.mktemp("sessions"))
    with TestClient(create_app([EXAMPLES / "example-officebench-mail"], cfg)) as c:
        yield c


def act(client, sid, app, action, **args) -> dict:
    r = client.post(f"/sessions/{sid}/actions", json={"app": app, "action": action, "args": args},
                    params={"include": "data"})
    assert r.status_code == 200, r.text
    return r.json()


def test_http_first_names_and_clipboard(client):
    sid = client.post("/sessions", json={"task_id": "example-officebench-mail"}).json()["session_id"]
    assert act(client, sid, "system", "copy", text="950")["ok"]
    assert act(client, sid, "system", "paste")["observation"] == "950"
    act(client, sid, "system", "switch_app", target_app="email")
    listing = act(client, sid, "email", "list_emails", username="Bob")
    assert listing["ok"] and {m["id"] for m in listing["data"]} == {"rent", "gym"}
    sent = act(client, sid, "email", "send_email", sender="Alice", recipient="Bob", subject="Your rent",
               content="Your rent of $950 is due on October 1, 2022.")
    assert sent["ok"], sent["observation"]
    assert {m["subject"] for m in act(client, sid, "email", "list_emails", username="bob")["data"]} >= {"Your rent"}
    files = {f["path"] if isinstance(f, dict) else f for f in client.get(f"/sessions/{sid}/files").json()}
    assert {"emails/Bob/msg-1.eml", "emails/Alice/sent/msg-1.eml"} <= files
    evaluation = client.post(f"/sessions/{sid}/finish", json={"answer": None}).json()["evaluation"]
    assert evaluation["passed_checks_only"] is False and evaluation["failed"] == ["checks", "side_effects"]  # no event yet
