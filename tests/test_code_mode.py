"""Code as action through the real API: a session in mode ``code`` solves suite tasks of every category
by programs the oracle renders from gold; switch_app's rule holds inside programs; a program reaches
neither the network nor another office nor the server beyond its session; an endless loop stops."""

from __future__ import annotations

import os
import shutil

import pytest
from fastapi.testclient import TestClient

from officesim.apps import APPS
from officesim.server.app import create_app
from officesim.server.code import api_listing, client_module, client_source, render_program
from officesim.server.manager import ServerSettings
from officesim.tasks.loader import load_tasks

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap (bwrap) is not installed")

SUITE_TASKS = ("ask-agreed-discount-001", "ask-total-recipient-002", "ask-budget-memo-owner-003",
               "ask-visit-date-booking-001")


@pytest.fixture(scope="module")
def suite():
    return {k: t for k, t in load_tasks().items() if t.split != "hard"}  # the suite (hard: tests/test_hard_split.py)


@pytest.fixture
def client(tmp_path):
    cfg = ServerSettings(sessions_dir=tmp_path / "sessions", op_settings={"code_timeout": 20})
    with TestClient(create_app([], cfg)) as c:
        yield c


def start(client, task_id: str) -> dict:
    r = client.post("/sessions", json={"task_id": task_id, "mode": "code"})
    assert r.status_code == 201, r.text
    return r.json()


def run(client, sid: str, code: str) -> dict:
    r = client.post(f"/sessions/{sid}/actions", json={"app": "system", "action": "run_code", "args": {"code": code}})
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.parametrize("task_id", SUITE_TASKS)
def test_gold_rendered_as_a_program_passes(client, suite, task_id):
    task = suite[task_id]
    s = start(client, task_id)
    assert {t["function"]["name"] for t in s["tools"]} == {"system_run_code", "system_finish_task"}
    assert "excel.read_file(file_path, sheet=None, start_row=None, end_row=None)" in s["prompt"]
    r = run(client, s["session_id"], render_program(task.gold, task.answer))
    assert r["ok"] and r["step"] == 1 and r["done"] and r["status"] == "finished", r["observation"]
    assert r["evaluation"]["passed"], r["evaluation"]
    assert r["evaluation"]["ask_recall"] == 1.0  # the program's question counts
    history = client.get(f"/sessions/{s['session_id']}").json()["history"]
    assert len(history) == 1 and [c["action"] for c in history[0]["calls"]][-1] == "finish_task"
    assert {c["action"] for c in history[0]["calls"]} >= {a.action for a in task.gold}


def test_categories_covered(suite):
    assert {suite[t].category for t in SUITE_TASKS} == {1, 2, 3}


def test_switch_app_rule_holds_inside_programs(client):
    s = start(client, "ask-agreed-discount-001")
    r = run(client, s["session_id"], "try:\n    excel.read_file(file_path='data/sales/discounts.xlsx')\n"
                                     "except OfficeError as e:\n    print('refused', e.code)\n"
                                     "system.switch_app(target_app='excel')\n"
                                     "print(len(excel.read_file(file_path='data/sales/discounts.xlsx')) > 0)")
    assert r["ok"] and "refused not_in_current_app" in r["observation"] and "True" in r["observation"]
    assert r["current_app"] == "excel" and not r["done"]
    direct = client.post(f"/sessions/{s['session_id']}/actions",
                         json={"app": "excel", "action": "read_file", "args": {"file_path": "data/sales/discounts.xlsx"}})
    assert direct.json()["error"]["code"] == "unknown_action"  # in code mode, programs act


def test_program_reaches_no_network_no_other_office_no_server(client, tmp_path):
    a = start(client, "ask-agreed-discount-001")
    b = start(client, "ask-agreed-discount-002")
    probe = ("import os, socket\n"
             "for host in [('127.0.0.1', 80), ('1.1.1.1', 53)]:\n"
             "    try:\n        socket.create_connection(host, timeout=2); print('connected', host)\n"
             "    except OSError as e:\n        print('no network', host[0])\n"
             "print('root', sorted(os.listdir('/')))\n"
             f"print('other office', os.path.exists({str(tmp_path / 'sessions')!r}))\n"
             f"print(call('system', 'list_files'))\n")
    r = run(client, a["session_id"], probe)
    out = r["observation"]
    assert "connected" not in out and "no network 127.0.0.1" in out and "no network 1.1.1.1" in out
    assert "other office False" in out and "sessions" not in out.split("root", 1)[1].split("\n")[0]
    assert "'ok': True" in out and "discounts.xlsx" in out
    untouched = client.get(f"/sessions/{b['session_id']}").json()
    assert untouched["step"] == 0 and untouched["history"] == []


def test_endless_loop_stops_at_the_limit(tmp_path):
    cfg = ServerSettings(sessions_dir=tmp_path / "sessions", op_settings={"code_timeout": 2})
    with TestClient(create_app([], cfg)) as c:
        s = start(c, "ask-agreed-discount-001")
        r = run(c, s["session_id"], "while True:\n    pass\n")
        assert not r["done"] and "time limit of 2 s" in r["observation"]
        r = run(c, s["session_id"], "print('still here')")
        assert r["ok"] and "still here" in r["observation"]


def test_run_code_is_refused_outside_code_mode(client):
    r = client.post("/sessions", json={"task_id": "ask-agreed-discount-001"})
    sid = r.json()["session_id"]
    assert "system_run_code" not in {t["function"]["name"] for t in r.json()["tools"]}
    got = run(client, sid, "print(1)")
    assert not got["ok"] and got["error"]["code"] == "unknown_action"


def test_client_module_is_generated_from_the_registry():
    source = client_source()
    module = client_module()
    assert "def set_cell(file_path, row_idx, column_idx, text, sheet=_UNSET):" in source
    assert "run_code" not in source.split("class system", 1)[1].split("class ", 1)[0]
    assert module.excel.set_cell.__doc__.startswith(APPS["excel"].operations["set_cell"].description)
    assert "email.send_email(sender, recipient, subject, content, cc=None, attachments=None)" in api_listing()
    with pytest.raises(module.OfficeError, match="not_connected"):
        module.excel.read_file(file_path="x.xlsx")


def test_client_module_scripts_a_session_over_http(tmp_path):
    from officesim.runner.localserver import LocalServer
    from officesim.server.client import OfficeClient
    from tests._eval_tasks import write_tasks

    with LocalServer([write_tasks(tmp_path / "tasks")], include_suite=False) as server, \
            OfficeClient(server.url, server.token) as c:
        sid = c.create_session("ev-total-001")["session_id"]
        office = client_module()
        office.connect(server.url, sid, token=server.token)
        with pytest.raises(office.OfficeError, match="not_in_current_app"):
            office.excel.set_cell(file_path="data/budget.xlsx", row_idx=4, column_idx=2, text=1500)
        assert office.system.switch_app(target_app="excel") == "Switched to app excel."
        office.excel.set_cell(file_path="data/budget.xlsx", row_idx=4, column_idx=2, text=1500)
        office.system.finish_task()
        session = c.get_session(sid)
    assert session["status"] == "finished" and session["evaluation"]["passed"] and session["step"] == 4


def test_report_shows_the_program_and_its_calls():
    from officesim.evaluators.record import EpisodeRecord
    from officesim.runner.report import render

    step = {"step": 1, "app": "system", "action": "run_code", "args": {"code": "print(system.ask_user(question='Which?'))"},
            "ok": True, "observation": "The user replies: B\n[1 call(s): system.ask_user]\n[exit code 0]",
            "calls": [{"app": "system", "action": "ask_user", "args": {"question": "Which?"}, "ok": True,
                       "observation": "The user replies: B"}]}
    rec = EpisodeRecord(task_id="t", category=1, passed=False, score=0.0, status="finished", trajectory=[step])
    page = render([rec], {})
    assert "<pre>print(system.ask_user(question=&#39;Which?&#39;))</pre>" in page
    assert "<b>Asked the user:</b> Which?<br><b>Reply:</b> B" in page


def test_a_program_runs_in_a_worker_of_the_pool(client):
    """The sandbox of a program is started by one of the pool's workers, not by the server process."""
    import threading

    import psutil

    s = start(client, "ask-agreed-discount-001")
    marker = "officesim-program-marker-7f3a"
    got: dict = {}
    runner = threading.Thread(target=lambda: got.update(run(client, s["session_id"],
                                                           f"import time\n# {marker}\ntime.sleep(3)\nprint('slept')")))
    runner.start()
    workers: set[int] = set()
    ancestry: list[int] = []
    for _ in range(600):  # until the program's process shows up (or the program has ended)
        found = [p for p in psutil.process_iter(["cmdline"]) if marker in " ".join(p.info["cmdline"] or [])]
        if found or not runner.is_alive():
            if found:
                ancestry = [a.pid for a in found[0].parents()]
                workers = set(client.app.state.manager.pool.pids())  # the pool's workers while it runs
            break
        runner.join(0.05)
    runner.join()
    assert got["ok"] and "slept" in got["observation"]
    assert set(ancestry) & workers, "the program's sandbox was not started by a worker"
    assert os.getpid() in ancestry  # ... of this server


def test_a_program_is_held_to_the_office_disk_quota(tmp_path):
    """A file past the quota fails inside the program (EFBIG); many files past it stop the program with
    resource_limit; the office keeps what it had."""
    cfg = ServerSettings(sessions_dir=tmp_path / "sessions", office_quota_mb=4, op_settings={"code_timeout": 20})
    with TestClient(create_app([], cfg)) as c:
        s = start(c, "ask-agreed-discount-001")
        sid = s["session_id"]
        before = {f["path"]: f["size"] for f in c.get(f"/sessions/{sid}/files").json()}
        one = run(c, sid, "try:\n    open('data/big.bin', 'wb').write(b'x' * (16 << 20))\n"
                          "except OSError as e:\n    print('refused', e.errno)\n")
        # the file stops at what the quota leaves (rounded up to 1 MB): EFBIG inside the program ("File too
        # large"), unless the quota's look (every 0.1 s) sees the office past it first and stops the program
        refused = one["ok"] and "refused 27" in one["observation"]
        stopped = not one["ok"] and one["error"]["code"] == "resource_limit" and "disk quota" in one["error"]["message"]
        assert refused or stopped, one["observation"]
        sizes = {f["path"]: f["size"] for f in c.get(f"/sessions/{sid}/files").json()}
        assert sum(sizes.values()) <= (4 + 1) << 20
        many = run(c, sid, "import time\nfor i in range(60):\n"
                           "    open(f'data/part{i}.bin', 'wb').write(b'x' * (1 << 20))\n    time.sleep(0.2)\n"
                           "print('wrote them all')")
        assert not many["ok"] and many["error"]["code"] == "resource_limit", many["observation"]
        assert "disk quota of 4 MB" in many["error"]["message"]
        after = {f["path"]: f["size"] for f in c.get(f"/sessions/{sid}/files").json()}
        assert all(after.get(path) == size for path, size in before.items())  # nothing that was there is lost
        assert sum(size for path, size in after.items() if "part" in path) < 60 << 20
        read = run(c, sid, "system.switch_app(target_app='excel')\n"
                           "print(excel.read_file(file_path='data/sales/discounts.xlsx')[:40])")
        assert read["ok"] and "[exit code 0]" in read["observation"]
