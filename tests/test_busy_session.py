"""GET /sessions/{id} answers while one of the session's actions runs (with the state of its last
completed step); over-long file and user names are bad arguments, not internal errors."""

from __future__ import annotations

import shutil
import threading

import pytest
from fastapi.testclient import TestClient

from officesim.server.app import create_app
from officesim.server.manager import ServerSettings

TASK = "ask-agreed-discount-001"


@pytest.fixture
def client(tmp_path):
    cfg = ServerSettings(sessions_dir=tmp_path / "sessions", op_settings={"code_timeout": 60})
    with TestClient(create_app([], cfg)) as c:
        yield c


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap (bwrap) is not installed")
def test_the_session_is_readable_while_an_action_runs(client):
    sid = client.post("/sessions", json={"task_id": TASK, "mode": "code"}).json()["session_id"]
    office = client.app.state.manager.get(sid).office.root
    program = ("import os, time\nopen('data/started', 'w').close()\n"
               "while not os.path.exists('data/go'):\n    time.sleep(0.05)\nprint('went on')")
    got: dict = {}
    runner = threading.Thread(target=lambda: got.update(client.post(
        f"/sessions/{sid}/actions", json={"app": "system", "action": "run_code", "args": {"code": program}}).json()))
    runner.start()
    try:
        for _ in range(1200):  # until the program runs (it cannot end before data/go exists)
            if (office / "data" / "started").exists():
                break
            runner.join(0.05)
        assert (office / "data" / "started").exists(), got
        seen = client.get(f"/sessions/{sid}")
        assert runner.is_alive()  # answered while the program still waits
        assert seen.status_code == 200 and seen.json()["step"] == 0 and seen.json()["history"] == []
    finally:
        (office / "data" / "go").touch()
        runner.join()
    assert got["ok"] and "went on" in got["observation"]
    after = client.get(f"/sessions/{sid}").json()
    assert after["step"] == 1 and len(after["history"]) == 1


@pytest.mark.parametrize("app, action, args", [
    ("word", "read_file", {"file_path": "data/" + "n" * 300 + ".docx"}),
    ("word", "write_to_file", {"file_path": "data/" + "n" * 300 + ".docx", "contents": "x"}),
    ("excel", "set_cell", {"file_path": "data/" + "é" * 200 + ".xlsx", "row_idx": 1, "column_idx": 1, "text": "x"}),
    ("system", "list_files", {"path": "data/" + "d/" * 2100}),
    ("email", "list_emails", {"username": "u" * 300}),
    ("calendar", "list_events", {"username": "u" * 300}),
])
def test_over_long_names_are_bad_arguments(client, app, action, args):
    sid = client.post("/sessions", json={"task_id": TASK, "mode": "all_operations"}).json()["session_id"]
    got = client.post(f"/sessions/{sid}/actions", json={"app": app, "action": action, "args": args}).json()
    assert not got["ok"] and got["error"]["code"] == "bad_arguments", got["error"]
    assert "at most" in got["error"]["message"]
