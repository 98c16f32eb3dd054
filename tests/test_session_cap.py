"""One cap counts HTTP sessions and MCP connections together: an open MCP connection holds one slot
of ``--max-sessions`` whether or not it has started a task, the task it starts runs in that slot,
and once the connection closes a task still live counts on its own. Never more than the cap is live."""

from __future__ import annotations

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from officesim.runner.localserver import LocalServer
from officesim.server.manager import CapacityError, ServerSettings, SessionManager
from officesim.tasks.loader import load_tasks
from tests._api_tasks import BUDGET, QUESTION, write_tasks

CAP = 3
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "probe", "version": "0"}}}


@pytest.fixture(scope="module")
def task_dir(tmp_path_factory):
    return write_tasks(tmp_path_factory.mktemp("tasks"), BUDGET, QUESTION)


@pytest.fixture
def manager(task_dir, tmp_path):
    tasks = load_tasks([task_dir], include_suite=False)
    made = SessionManager(tasks, ServerSettings(include_suite=False, sessions_dir=tmp_path / "s", max_sessions=CAP))
    yield made
    made.close()


def test_holds_and_sessions_share_the_cap(manager):
    task = manager.tasks["api-question"]
    first, second = manager.hold(), manager.hold()  # two MCP connections, no task yet
    http = manager.create(task, "switch_app", 10)  # the third slot: an HTTP session
    with pytest.raises(CapacityError, match="HTTP and MCP together"):
        manager.create(task, "switch_app", 10)
    with pytest.raises(CapacityError):
        manager.hold()
    # a connection's task runs in its own slot: no room needed, none taken
    mine = manager.create(task, "switch_app", 10, hold=first)
    with pytest.raises(CapacityError):
        manager.check_room()
    # the connection closes with its task live: the slot is free of the connection, the task keeps it
    manager.release(first)
    with pytest.raises(CapacityError):
        manager.create(task, "switch_app", 10)
    mine.finish(None)  # ended: one slot free
    third = manager.hold()
    with pytest.raises(CapacityError):
        manager.hold()
    manager.delete(http.id)
    manager.release(second)
    manager.release(third)
    made = [manager.create(task, "switch_app", 10) for _ in range(CAP)]
    with pytest.raises(CapacityError):
        manager.hold()
    assert len({s.id for s in made}) == CAP


def test_a_released_hold_lends_no_slot(manager):
    task = manager.tasks["api-question"]
    hold = manager.hold()
    manager.release(hold)
    for _ in range(CAP):
        manager.create(task, "switch_app", 10, hold=hold)  # a released hold counts like none
    with pytest.raises(CapacityError):
        manager.create(task, "switch_app", 10, hold=hold)


def test_http_and_mcp_never_pass_the_cap_together(task_dir):
    with LocalServer([task_dir], include_suite=False, max_sessions=CAP) as srv, \
            httpx.Client(base_url=srv.url, headers={"Authorization": f"Bearer {srv.token}"}, timeout=60) as http:
        mcp_headers = {"Accept": "application/json, text/event-stream"}

        def open_mcp() -> httpx.Response:
            return http.post("/mcp", json=INITIALIZE, headers=mcp_headers)

        def close_mcp(mcp_session: str) -> None:
            assert http.delete("/mcp", headers={"mcp-session-id": mcp_session}).status_code in (200, 204)

        bare = [open_mcp() for _ in range(2)]
        assert [r.status_code for r in bare] == [200, 200]
        made = http.post("/sessions", json={"task_id": "api-question"})
        assert made.status_code == 201, made.text
        refused = http.post("/sessions", json={"task_id": "api-question"})
        assert refused.status_code == 429 and "HTTP and MCP together" in refused.json()["error"]["message"]
        full = open_mcp()  # a third MCP connection would be the fourth live one
        assert full.status_code == 503 and "HTTP and MCP together" in full.json()["error"]["message"]
        close_mcp(bare[0].headers["mcp-session-id"])
        close_mcp(bare[1].headers["mcp-session-id"])

        async def mcp_task_then_http() -> None:
            auth = {"Authorization": f"Bearer {srv.token}"}
            async with httpx2.AsyncClient(headers=auth, timeout=300) as client_http:
                async with Client(streamable_http_client(f"{srv.url}/mcp", http_client=client_http)) as client:
                    started = await client.call_tool("start_task", {"task_id": "api-question"})
                    assert not started.is_error, started.content
                    # one HTTP session and one MCP connection with its task: room for exactly one more
                    one = http.post("/sessions", json={"task_id": "api-question"})
                    assert one.status_code == 201, one.text
                    assert http.post("/sessions", json={"task_id": "api-question"}).status_code == 429
                    assert open_mcp().status_code == 503
                    http.delete(f"/sessions/{one.json()['session_id']}")
            # the connection closed with its task live: the task holds its slot on its own
            other = http.post("/sessions", json={"task_id": "api-question"})
            assert other.status_code == 201, other.text
            assert http.post("/sessions", json={"task_id": "api-question"}).status_code == 429

        anyio.run(mcp_task_then_http)
