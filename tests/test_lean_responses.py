"""Action responses carry the tools and prompts only when they change or are asked for: the session's
start, a switch of app, ``?include=tools``; ``tools_version`` names them in every response; finish
responses and MCP tool results never carry them. ``data`` (the observation again, as values) comes
only with ``?include=data``."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from officesim.server.app import create_app
from officesim.server.manager import ServerSettings
from tests._api_tasks import BUDGET, QUESTION, write_tasks

PARTS = {"tools", "prompt", "tool_prompt"}
READ = ("system", "list_files", {"path": "data"})


@pytest.fixture(scope="module")
def task_dir(tmp_path_factory):
    return write_tasks(tmp_path_factory.mktemp("tasks"), BUDGET, QUESTION)


@pytest.fixture
def client(task_dir, tmp_path):
    cfg = ServerSettings(include_suite=False, sessions_dir=tmp_path / "sessions")
    with TestClient(create_app([task_dir], cfg)) as c:
        yield c


def start(client, mode: str = "switch_app") -> dict:
    r = client.post("/sessions", json={"task_id": "api-budget-note", "mode": mode})
    assert r.status_code == 201, r.text
    return r.json()


def act(client, sid: str, app: str, action: str, args: dict, include: str | None = None) -> dict:
    r = client.post(f"/sessions/{sid}/actions", json={"app": app, "action": action, "args": args},
                    params={"include": include} if include else None)
    assert r.status_code == 200, r.text
    return r.json()


def test_tools_come_at_the_start_and_when_switch_app_changes_them(client):
    s = start(client)
    assert PARTS <= set(s) and s["tools_version"]
    sid = s["session_id"]
    read = act(client, sid, *READ)
    assert read["ok"] and not PARTS & set(read) and read["tools_version"] == s["tools_version"]
    failed = act(client, sid, "excel", "read_file", {"file_path": "data/budget.xlsx"})  # not in the current app
    assert not failed["ok"] and not PARTS & set(failed) and failed["tools_version"] == s["tools_version"]
    switched = act(client, sid, "system", "switch_app", {"target_app": "excel"})
    assert PARTS <= set(switched) and switched["tools_version"] != s["tools_version"]
    assert "excel_set_cell" in {t["function"]["name"] for t in switched["tools"]}
    assert "'excel' app" in switched["tool_prompt"] and '"action": "set_cell"' in switched["prompt"]
    again = act(client, sid, "system", "switch_app", {"target_app": "excel"})  # the same app: nothing changed
    assert again["ok"] and not PARTS & set(again) and again["tools_version"] == switched["tools_version"]
    back = act(client, sid, "system", "switch_app", {"target_app": "system"})
    assert back["tools_version"] == s["tools_version"] and back["tools"] == s["tools"]


def test_include_tools_asks_for_them_and_get_session_gives_them_without_acting(client):
    s = start(client)
    sid = s["session_id"]
    asked = act(client, sid, *READ, include="tools")
    assert {k: asked[k] for k in PARTS | {"tools_version"}} == {k: s[k] for k in PARTS | {"tools_version"}}
    info = client.get(f"/sessions/{sid}").json()
    assert info["tools_version"] == s["tools_version"] and not PARTS & set(info)
    full = client.get(f"/sessions/{sid}", params={"include": "tools"}).json()
    assert {k: full[k] for k in PARTS} == {k: s[k] for k in PARTS} and full["step"] == 1
    bad = client.post(f"/sessions/{sid}/actions", json={"app": "system", "action": "list_files", "args": {}},
                      params={"include": "everything"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_request"


def test_finish_responses_never_carry_tools(client):
    sid = start(client)["session_id"]
    act(client, sid, "system", "switch_app", {"target_app": "excel"})
    finished = client.post(f"/sessions/{sid}/finish", json={"answer": None}).json()
    assert finished["done"] and finished["evaluation"] and not PARTS & set(finished) and finished["tools_version"]
    sid = start(client)["session_id"]
    by_action = act(client, sid, "system", "finish_task", {}, include="tools")
    assert by_action["done"] and not PARTS & set(by_action)


def test_all_operations_sends_the_tools_once(client):
    s = start(client, "all_operations")
    switched = act(client, s["session_id"], "system", "switch_app", {"target_app": "excel"})
    assert switched["ok"] and switched["current_app"] == "excel"
    assert not PARTS & set(switched) and switched["tools_version"] == s["tools_version"]


def test_an_action_response_in_switch_app_mode_is_small(client):
    """The observation and a few fields: no tools, no prompts (the benchmark measures it over the suite)."""
    s = start(client)
    sid = s["session_id"]
    act(client, sid, "system", "switch_app", {"target_app": "excel"})
    r = client.post(f"/sessions/{sid}/actions", json={"app": "excel", "action": "read_file",
                                                      "args": {"file_path": "data/budget.xlsx"}})
    assert r.json()["ok"] and len(r.content) < 1024


def test_data_does_not_repeat_the_observation_unless_asked(client):
    sid = start(client)["session_id"]
    listing = act(client, sid, *READ)
    assert listing["ok"] and "data/budget.xlsx" in listing["observation"] and listing["data"] is None
    asked = act(client, sid, *READ, include="data")
    assert asked["observation"] == listing["observation"] and not PARTS & set(asked)
    assert "data/budget.xlsx" in [row["path"] for row in asked["data"]]
    both = act(client, sid, *READ, include="tools,data")
    assert both["data"] == asked["data"] and PARTS <= set(both)
    assert act(client, sid, *READ, include="data,tools")["data"] == asked["data"]
    assert client.get(f"/sessions/{sid}", params={"include": "data"}).status_code == 422  # actions only
