"""End to end through HTTP: sessions, the state machine, endings, evaluation, auth, cap, isolation."""

from __future__ import annotations

import threading
import time

import pytest
from fastapi.testclient import TestClient

from officesim.server.app import create_app
from officesim.server.client import OfficeClient, OfficeError
from officesim.server.manager import ServerSettings
from officesim.runner.localserver import LocalServer
from tests._api_tasks import BUDGET, QUESTION, write_tasks


@pytest.fixture(scope="module")
def task_dir(tmp_path_factory):
    return write_tasks(tmp_path_factory.mktemp("tasks"), BUDGET, QUESTION)


def make_client(task_dir, tmp_path, **settings) -> TestClient:
    cfg = ServerSettings(include_suite=False, sessions_dir=tmp_path / "sessions", **settings)
    return TestClient(create_app([task_dir], cfg))


@pytest.fixture
def client(task_dir, tmp_path):
    with make_client(task_dir, tmp_path) as c:
        yield c


def start(client, task_id="api-budget-note", **body) -> dict:
    r = client.post("/sessions", json={"task_id": task_id, **body})
    assert r.status_code == 201, r.text
    return r.json()


def act(client, sid, app, action, **args) -> dict:
    r = client.post(f"/sessions/{sid}/actions", json={"app": app, "action": action, "args": args})
    assert r.status_code == 200, r.text
    return r.json()


def test_health_apps_tasks(client):
    assert client.get("/health").json()["status"] == "ok"
    apps = {a["name"]: a for a in client.get("/apps").json()}
    assert "system" in apps and "excel" in apps
    set_cell = {o["name"]: o for o in apps["excel"]["operations"]}["set_cell"]
    assert "file_path" in set_cell["parameters"]["properties"]
    tasks = client.get("/tasks").json()
    assert {t["id"] for t in tasks} == {"api-budget-note", "api-question"}
    assert all("gold" not in t and "checks" not in t for t in tasks)
    assert [t["id"] for t in client.get("/tasks", params={"category": 2}).json()] == ["api-budget-note"]
    assert [t["id"] for t in client.get("/tasks", params={"app": "word"}).json()] == ["api-budget-note"]
    assert client.get("/tasks", params={"split": "train"}).json() == []
    one = client.get("/tasks/api-question").json()
    assert one["instruction"].startswith("How much") and "answer" not in one
    r = client.get("/tasks/missing")
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_task"


def test_two_app_session_end_to_end(client):
    s = start(client)
    assert s["current_app"] == "system" and s["task"]["category"] == 2
    assert {t["function"]["name"] for t in s["tools"]} == {"system_switch_app", "system_finish_task", "system_list_files",
                                                         "system_copy", "system_paste", "system_ask_user"}
    assert "Maya Lin" in s["prompt"] and BUDGET["instruction"] in s["prompt"]
    assert "Maya Lin" in s["tool_prompt"] and "Available actions" not in s["tool_prompt"]  # tools carry them
    sid = s["session_id"]

    r = act(client, sid, "excel", "set_cell", file_path="data/budget.xlsx", row_idx=4, column_idx=2, text=1500)
    assert not r["ok"] and r["error"]["code"] == "not_in_current_app" and "switch_app" in r["observation"]
    assert r["step"] == 1 and r["status"] == "active" and not r["done"]

    r = act(client, sid, "system", "switch_app", target_app="excel")
    assert r["ok"] and r["current_app"] == "excel"
    assert any(t["function"]["name"] == "excel_set_cell" for t in r["tools"])
    assert "'excel' app" in r["prompt"] and '"action": "set_cell"' in r["prompt"]  # the prompts follow the app
    assert "'excel' app" in r["tool_prompt"]
    r = act(client, sid, "excel", "set_cell", file_path="data/budget.xlsx", row_idx=4, column_idx=2, text=1500)
    assert r["ok"], r["observation"]
    act(client, sid, "system", "switch_app", target_app="word")
    r = act(client, sid, "word", "write_to_file", file_path="data/notes.docx", contents="Total: 1500")
    assert r["ok"], r["observation"]

    r = client.post(f"/sessions/{sid}/finish", json={"answer": None})
    assert r.status_code == 200
    body = r.json()
    assert body["done"] and body["status"] == "finished"
    ev = body["evaluation"]
    assert ev["passed"] is True and ev["score"] == 1.0 and ev["status"] == "finished"
    assert ev["side_effects"] == [] and ev["steps"] == 6 and len(ev["checks"]) == 2

    info = client.get(f"/sessions/{sid}").json()
    assert info["status"] == "finished" and info["step"] == 6 and info["evaluation"]["passed"]
    assert [h["action"] for h in info["history"]] == ["set_cell", "switch_app", "set_cell", "switch_app",
                                                      "write_to_file", "finish_task"]
    assert set(info["history"][0]) == {"step", "app", "action", "args", "ok", "observation"}

    files = {f["path"] for f in client.get(f"/sessions/{sid}/files").json()}
    assert {"data/budget.xlsx", "data/notes.docx"} <= files
    r = client.get(f"/sessions/{sid}/files/data/budget.xlsx")
    assert r.status_code == 200 and r.content[:2] == b"PK"

    r = client.post(f"/sessions/{sid}/actions", json={"app": "system", "action": "list_files", "args": {}})
    assert r.status_code == 409 and r.json()["error"]["code"] == "session_ended"
    assert client.post(f"/sessions/{sid}/finish", json={}).status_code == 409

    assert client.delete(f"/sessions/{sid}").json()["deleted"] is True
    assert client.get(f"/sessions/{sid}").status_code == 404


def test_wrong_solution_fails_with_side_effect_report(client):
    sid = start(client, mode="all_operations")["session_id"]
    act(client, sid, "excel", "set_cell", file_path="data/budget.xlsx", row_idx=2, column_idx=2, text=999)
    ev = client.post(f"/sessions/{sid}/finish", json={}).json()["evaluation"]
    assert ev["passed"] is False and ev["score"] == 0.0
    assert any("budget.xlsx" in s for s in ev["side_effects"])


def test_question_answer(client):
    sid = start(client, "api-question")["session_id"]
    ev = client.post(f"/sessions/{sid}/finish", json={"answer": "1,200"}).json()["evaluation"]
    assert ev["passed"] and ev["answer"] == "1,200"


def test_flat_officebench_form_and_tool_names(client):
    sid = start(client, mode="all_operations")["session_id"]
    r = client.post(f"/sessions/{sid}/actions",
                    json={"app": "excel", "action": "read_file", "file_path": "/testbed/data/budget.xlsx"})
    assert r.status_code == 200 and r.json()["ok"] and "Rent" in r.json()["observation"]
    r = client.post(f"/sessions/{sid}/actions", json={"action": "excel_read_file", "args": {"file_path": "data/budget.xlsx"}})
    assert r.json()["ok"]


def test_error_codes_count_as_steps(client):
    sid = start(client)["session_id"]
    assert act(client, sid, "nope", "x")["error"]["code"] == "unknown_app"
    assert act(client, sid, "system", "nope")["error"]["code"] == "unknown_action"
    r = act(client, sid, "system", "switch_app", target=3)
    assert r["error"]["code"] == "bad_arguments" and "target_app" in r["error"]["message"]
    r = client.post(f"/sessions/{sid}/actions", json={"args": {}})
    assert r.status_code == 200 and r.json()["error"]["code"] == "unknown_app"
    assert r.json()["step"] == 4


def test_stagnation_ending(client):
    sid = start(client)["session_id"]
    for i in range(5):
        r = act(client, sid, "system", "list_files")
    assert r["done"] and r["status"] == "stagnated"
    assert r["evaluation"]["status"] == "stagnated" and r["evaluation"]["passed"] is False
    assert client.get(f"/sessions/{sid}").json()["status"] == "stagnated"


def test_step_limit_ending(client):
    sid = start(client, max_steps=2)["session_id"]
    act(client, sid, "system", "list_files")
    r = act(client, sid, "system", "list_files", path="data")
    assert r["done"] and r["status"] == "step_limit" and r["evaluation"]["status"] == "step_limit"
    r = client.post(f"/sessions/{sid}/actions", json={"app": "system", "action": "list_files"})
    assert r.status_code == 409


def test_parallel_sessions_stay_apart(client):
    a = start(client, mode="all_operations")["session_id"]
    b = start(client, mode="all_operations")["session_id"]
    act(client, a, "excel", "set_cell", file_path="data/budget.xlsx", row_idx=4, column_idx=2, text=777)
    act(client, a, "word", "create_new_file", file_path="data/only-a.docx")
    read_b = act(client, b, "excel", "read_file", file_path="data/budget.xlsx")["observation"]
    assert "777" not in read_b
    assert "data/only-a.docx" not in {f["path"] for f in client.get(f"/sessions/{b}/files").json()}
    assert "data/only-a.docx" in {f["path"] for f in client.get(f"/sessions/{a}/files").json()}


def test_concurrent_sessions_under_threads(task_dir, tmp_path):
    with LocalServer([task_dir], include_suite=False) as server, OfficeClient(server.url, token=server.token) as oc:
        def run(i: int, out: list) -> None:
            sid = oc.create_session("api-budget-note", "all_operations")["session_id"]
            oc.act(sid, "excel", "set_cell", {"file_path": "data/budget.xlsx", "row_idx": 9, "column_idx": 1, "text": f"s{i}"})
            seen = oc.act(sid, "excel", "read_file", {"file_path": "data/budget.xlsx"})["observation"]
            out.append((i, seen))
            oc.delete(sid)

        results: list = []
        threads = [threading.Thread(target=run, args=(i, results)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(results) == 8
        for i, seen in results:
            others = [f"s{j}" for j in range(8) if j != i]
            assert f"s{i}" in seen and not any(f"(9, 1): {o}\n" in seen + "\n" for o in others)


def test_files_are_confined(client):
    sid = start(client)["session_id"]
    for path in ("../../etc/passwd", "%2e%2e/%2e%2e/etc/passwd", "data/missing.xlsx", "data"):
        r = client.get(f"/sessions/{sid}/files/{path}")
        assert r.status_code in (400, 403, 404), (path, r.status_code)
        assert "error" in r.json()
    r = client.get(f"/sessions/{sid}/files//etc/passwd")
    assert r.status_code in (400, 403, 404)


def test_token_required_when_set(task_dir, tmp_path):
    with make_client(task_dir, tmp_path, token="s3cret") as c:
        assert c.get("/health").status_code == 200
        for method, url in [("GET", "/tasks"), ("GET", "/apps"), ("POST", "/sessions"), ("GET", "/sessions/x"),
                            ("GET", "/openapi.json")]:
            r = c.request(method, url)
            assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
        assert c.get("/tasks", headers={"Authorization": "Bearer wrong"}).status_code == 401
        ok = c.post("/sessions", json={"task_id": "api-question"}, headers={"Authorization": "Bearer s3cret"})
        assert ok.status_code == 201


def test_live_session_cap(task_dir, tmp_path):
    with make_client(task_dir, tmp_path, max_sessions=2) as c:
        first = start(c)["session_id"]
        start(c)
        r = c.post("/sessions", json={"task_id": "api-budget-note"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_sessions"
        c.post(f"/sessions/{first}/finish", json={})
        start(c)


def test_idle_sessions_expire_with_an_evaluation(task_dir, tmp_path):
    with make_client(task_dir, tmp_path, idle_timeout=0.2) as c:
        sid = start(c)["session_id"]
        time.sleep(0.6)
        for _ in range(600):  # expiry grades in the background (server/manager.py), not on this request
            info = c.get(f"/sessions/{sid}").json()
            if info["evaluation"] is not None and info["office_available"] is False:
                break
            time.sleep(0.1)
        assert info["status"] == "expired" and info["evaluation"]["status"] == "expired"
        assert info["office_available"] is False
        r = c.post(f"/sessions/{sid}/actions", json={"app": "system", "action": "list_files"})
        assert r.status_code == 409
        assert c.get(f"/sessions/{sid}/files").status_code == 410
        assert c.delete(f"/sessions/{sid}").status_code == 200


def test_errors_are_json(client):
    r = client.post("/sessions", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
    r = client.post("/sessions", json={"task_id": "api-question", "mode": "sideways"})
    assert r.status_code == 422 and "mode" in r.json()["error"]["message"]
    r = client.post("/sessions", json=[1, 2])
    assert r.status_code == 422 and "error" in r.json()
    r = client.get("/no/such/route")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = client.post("/sessions/nope/actions", json={"app": "system", "action": "list_files"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_session"


def test_python_client(task_dir):
    with LocalServer([task_dir], include_suite=False, token="tok") as server, OfficeClient(server.url, token="tok") as oc:
        assert oc.health()["status"] == "ok"
        assert {a["name"] for a in oc.apps()} >= {"system", "excel"}
        assert [t["id"] for t in oc.tasks(app="word")] == ["api-budget-note"]
        assert oc.task("api-question")["category"] == 1
        s = oc.create_session("api-question")
        r = oc.act(s["session_id"], "system", "switch_app", {"target_app": "excel"})
        assert r["current_app"] == "excel"
        r = oc.act_raw(s["session_id"], {"app": "excel", "action": "read_file", "file_path": "data/budget.xlsx"})
        assert r["ok"]
        assert oc.finish(s["session_id"], "1200")["evaluation"]["passed"]
        assert oc.get_session(s["session_id"])["status"] == "finished"
        assert any(f["path"] == "data/budget.xlsx" for f in oc.files(s["session_id"]))
        assert oc.download(s["session_id"], "data/budget.xlsx")[:2] == b"PK"
        with pytest.raises(OfficeError) as err:
            oc.act(s["session_id"], "system", "list_files")
        assert err.value.status == 409 and err.value.code == "session_ended"
        oc.delete(s["session_id"])
        with pytest.raises(OfficeError) as err, OfficeClient(server.url) as anon:
            anon.tasks()
        assert err.value.status == 401


def test_unexpected_errors_are_json_without_a_trace(task_dir, tmp_path):
    app = create_app([task_dir], ServerSettings(include_suite=False, sessions_dir=tmp_path / "s"))

    def boom(session_id):
        raise RuntimeError("secret internals")

    app.state.manager.get = boom
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/sessions/abc")
        assert r.status_code == 500
        assert r.json() == {"error": {"code": "internal_error", "message": "internal error: RuntimeError"}}


def test_a_session_gets_the_tasks_own_step_limit_unless_the_client_sets_one(tmp_path):
    from tests._api_tasks import variant

    long_task = variant(BUDGET, id="api-budget-long", max_steps=180)
    tasks = write_tasks(tmp_path / "tasks", BUDGET, long_task)
    with make_client(tasks, tmp_path) as c:
        assert start(c, "api-budget-long")["max_steps"] == 180
        assert start(c, "api-budget-note")["max_steps"] == 50
        assert start(c, "api-budget-long", max_steps=7)["max_steps"] == 7


def test_list_files_pages_and_takes_a_depth(tmp_path):
    from officesim.apps import APPS, OfficeContext
    from officesim.testbed.office import Office

    root = tmp_path / "office"
    for n in range(250):
        (root / "data" / "archive" / f"y{n % 5}").mkdir(parents=True, exist_ok=True)
        (root / "data" / "archive" / f"y{n % 5}" / f"f{n:03d}.txt").write_text("x")
    (root / "data" / "top.txt").write_text("top")
    ctx = OfficeContext(office=Office(root))
    op = APPS["system"].operations["list_files"]
    first = op.invoke(ctx, {})
    assert first.ok and len(first.data) == 100
    assert first.observation.splitlines()[0] == "251 entries under ., page 1 of 3; next: list_files(path='.', page=2):"
    second = op.invoke(ctx, {"page": 3})
    assert len(second.data) == 51 and "the last page" in second.observation.splitlines()[0]
    middle = op.invoke(ctx, {"page": 2})
    paths = [r["path"] for r in first.data + middle.data + second.data]
    assert len(set(paths)) == 251 and "data/top.txt" in paths
    shallow = op.invoke(ctx, {"path": "data", "depth": 2})
    assert shallow.observation.splitlines() == [f"data/archive/y{i}/ (folder: 50 files)" for i in range(5)] + \
        ["data/top.txt (3 bytes)"]
    one = op.invoke(ctx, {"path": "data", "depth": 1})
    assert sorted(one.observation.splitlines()) == ["data/archive/ (folder: 250 files)", "data/top.txt (3 bytes)"]
    small = op.invoke(ctx, {"path": "data/archive/y0"})  # a folder that fits one page: no header, as before
    assert len(small.data) == 50 and small.observation.splitlines()[0] == "data/archive/y0/f000.txt (1 bytes)"
    for bad in ({"depth": 0}, {"page": 0}, {"page_size": 5000}):
        assert op.invoke(ctx, bad).error["code"] == "bad_arguments"
