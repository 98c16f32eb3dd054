"""Written text has size limits (apps/registry.py ``TEXT_LIMITS``), answered at the action that passes
one with a ``resource_limit`` error naming the limit and its setting, never found at grading."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient

from officesim.apps.registry import KB, TEXT_LIMITS
from officesim.server.app import create_app
from officesim.server.manager import ServerSettings
from officesim.server.session import Session
from officesim.tasks.loader import load_tasks
from officesim.testbed.materialise import new_office, remove_office
from tests._api_tasks import BUDGET, QUESTION, write_tasks

TASK = "client-hours-billing-002"  # a suite task whose user sends mail
SENDER = "sofia.aziz@silverpine.test"


@pytest.fixture(scope="module")
def task():
    return load_tasks(only=[TASK])[TASK]


@pytest.fixture
def session(task, tmp_path):
    office = new_office(task, tmp_path / "sessions")
    yield Session(task, "all_operations", 50, office)
    remove_office(office)


def _send(text: str) -> tuple[str, str, dict]:
    return "email", "send_email", {"sender": SENDER, "recipient": "mei.novak@copperleaf.test", "subject": "Hours",
                                   "content": text}


def _write(text: str) -> tuple[str, str, dict]:
    return "word", "write_to_file", {"file_path": "data/notes.docx", "contents": text}


def _replace(text: str) -> tuple[str, str, dict]:
    return "word", "replace_text", {"file_path": "data/notes.docx", "old_text": "nothing", "new_text": text}


def _event(text: str) -> tuple[str, str, dict]:
    return "calendar", "create_event", {"user": SENDER, "summary": "Sync", "time_start": "2026-01-12 10:00:00",
                                        "time_end": "2026-01-12 11:00:00", "description": text}


def _answer(text: str) -> tuple[str, str, dict]:
    return "system", "finish_task", {"answer": text}


def _location(text: str) -> tuple[str, str, dict]:  # any other text argument
    return "calendar", "create_event", {"user": SENDER, "summary": "Sync", "time_start": "2026-01-12 10:00:00",
                                        "time_end": "2026-01-12 11:00:00", "location": text}


CASES = [(_send, "mail_body"), (_write, "document_text"), (_replace, "document_text"), (_event, "event_text"),
         (_answer, "answer"), (_location, "string")]


@pytest.mark.parametrize("action, kind", CASES, ids=[f"{f.__name__[1:]}-{k}" for f, k in CASES])
def test_text_over_its_limit_is_refused_at_the_action(session, action, kind):
    limit = TEXT_LIMITS[kind]
    app, name, args = action("é" * (limit.bytes // 2 + 1))  # two bytes each in UTF-8: one byte over
    r = session.step(app, name, args)
    assert not r.ok and r.error["code"] == "resource_limit", r.observation
    assert f"{limit.bytes:,} bytes" in r.observation and limit.env in r.observation and limit.what in r.observation
    assert session.status == "active" and session.evaluation is None  # nothing ended, nothing was graded


@pytest.mark.parametrize("action, kind", CASES, ids=[f"{f.__name__[1:]}-{k}" for f, k in CASES])
def test_text_at_its_limit_is_not_refused(session, action, kind):
    app, name, args = action("x" * TEXT_LIMITS[kind].bytes)
    r = session.step(app, name, args)
    assert (r.error or {}).get("code") != "resource_limit", r.observation


def test_a_refused_answer_leaves_the_session_to_finish_with_a_shorter_one(task, tmp_path):
    graded = []
    office = new_office(task, tmp_path / "sessions")
    try:
        s = Session(task, "all_operations", 50, office, evaluate=lambda s: graded.append(s.answer) or None)
        r = s.finish("1" * (TEXT_LIMITS["answer"].bytes + 1))
        assert not r.ok and r.error["code"] == "resource_limit" and not r.done and graded == []
        assert s.finish("495").done and graded == ["495"]
    finally:
        remove_office(office)


def test_the_limits_come_from_the_environment():
    code = ("import json; from officesim.apps.registry import TEXT_LIMITS as L; "
            "print(json.dumps({k: v.bytes for k, v in L.items()}))")
    env = {**os.environ, "OFFICESIM_MAX_MAIL_BODY_KB": "1", "OFFICESIM_MAX_ANSWER_KB": "2048",
           "OFFICESIM_MAX_STRING_ARG_KB": "not a number"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    sizes = json.loads(out)
    assert sizes["mail_body"] == 1 * KB and sizes["answer"] == 2048 * KB
    assert sizes["string"] == 256 * KB  # a setting that is not a number keeps the default


def test_a_server_answers_a_one_megabyte_answer_with_resource_limit(tmp_path):
    tasks = write_tasks(tmp_path / "tasks", BUDGET, QUESTION)
    cfg = ServerSettings(sessions_dir=tmp_path / "sessions", include_suite=False)
    with TestClient(create_app([tasks], cfg)) as client:
        sid = client.post("/sessions", json={"task_id": "api-question"}).json()["session_id"]
        r = client.post(f"/sessions/{sid}/actions", json={"app": "system", "action": "finish_task",
                                                          "args": {"answer": "1200 " * 200_000}})
        assert r.status_code == 200, r.text
        body = r.json()
        assert not body["ok"] and body["error"]["code"] == "resource_limit" and not body["done"]
        assert "OFFICESIM_MAX_ANSWER_KB" in body["observation"]
        done = client.post(f"/sessions/{sid}/finish", json={"answer": "1200"}).json()
        assert done["done"] and done["evaluation"]["passed"]
