"""MCP under the server's own limits: MCP sessions count under --max-sessions and close after the
server's idle timeout; concurrent start_task calls on one connection start one session; an unknown
tool is named as such; the stdio relay answers malformed and oversize lines with JSON-RPC errors and
goes on with the next message."""

from __future__ import annotations

import json
import select
import subprocess
import sys
import time

import anyio
import httpx
import pytest

from officesim.runner.localserver import LocalServer
from officesim.runner.mcp_command import MAX_MESSAGE_BYTES
from tests._eval_tasks import TASK_IDS, write_tasks
from tests._mcp_play import REPO, Notes, http_client

CAP = 3
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "probe", "version": "0"}}}


@pytest.fixture(scope="module")
def tasks(tmp_path_factory):
    return write_tasks(tmp_path_factory.mktemp("tasks"))


@pytest.fixture(scope="module")
def server(tasks):
    with LocalServer([tasks], include_suite=False, max_sessions=CAP) as srv:
        yield srv


def bare_initialize(server, http: httpx.Client) -> httpx.Response:
    return http.post(f"{server.url}/mcp", json=INITIALIZE,
                     headers={"Authorization": f"Bearer {server.token}",
                              "Accept": "application/json, text/event-stream"})


def end(server, http: httpx.Client, mcp_session: str) -> None:
    http.delete(f"{server.url}/mcp", headers={"Authorization": f"Bearer {server.token}",
                                              "mcp-session-id": mcp_session})


def test_mcp_sessions_count_under_the_cap(server):
    with httpx.Client(timeout=30) as http:
        opened = []
        try:
            for _ in range(CAP):
                resp = bare_initialize(server, http)
                assert resp.status_code == 200, resp.text
                opened.append(resp.headers["mcp-session-id"])
            refused = bare_initialize(server, http)
            assert refused.status_code == 503
        finally:
            for sid in opened:
                end(server, http, sid)
        again = bare_initialize(server, http)
        assert again.status_code == 200  # room again once they are closed
        end(server, http, again.headers["mcp-session-id"])  # an open connection holds a slot of the cap


def test_mcp_sessions_close_after_the_servers_idle_timeout(tasks):
    with LocalServer([tasks], include_suite=False, idle_timeout=1) as srv, httpx.Client(timeout=30) as http:
        sid = bare_initialize(srv, http).headers["mcp-session-id"]
        headers = {"Authorization": f"Bearer {srv.token}", "mcp-session-id": sid,
                   "Accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18"}
        ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
        for _ in range(100):  # each ping comes after longer than the idle timeout of 1 s
            time.sleep(1.5)
            resp = http.post(f"{srv.url}/mcp", json=ping, headers=headers)
            if resp.status_code == 404:
                break
        else:
            pytest.fail("the MCP session never expired")


def test_concurrent_start_task_on_one_connection_starts_one_session(server):
    async def main():
        async with http_client(server, Notes()) as client:
            results = []

            async def start():
                results.append(await client.call_tool("start_task", {"task_id": TASK_IDS[0]}))

            async with anyio.create_task_group() as group:
                for _ in range(5):
                    group.start_soon(start)
            started = [r for r in results if not r.is_error]
            refused = [r.structured_content["error"]["code"] for r in results if r.is_error]
            assert len(started) == 1 and refused == ["task_already_started"] * 4
            unknown = await client.call_tool("no_such_tool", {})
            assert unknown.is_error and unknown.structured_content["error"]["code"] == "unknown_app"
            assert "'no_such_tool'" in unknown.content[0].text and "None" not in unknown.content[0].text
            # one live session: the cap leaves room for exactly CAP - 1 more
            with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {server.token}"},
                              timeout=30) as http:
                made = []
                try:
                    for _ in range(CAP - 1):
                        resp = http.post("/sessions", json={"task_id": TASK_IDS[0]})
                        assert resp.status_code == 201, resp.text
                        made.append(resp.json()["session_id"])
                    assert http.post("/sessions", json={"task_id": TASK_IDS[0]}).status_code == 429
                finally:
                    for sid in made:
                        http.delete(f"/sessions/{sid}")
            await client.call_tool("system_finish_task", {})

    anyio.run(main)


def answer_line(proc: subprocess.Popen) -> dict:
    """The relay's next line; a relay that answers nothing within ten minutes fails the test, not hangs it
    (its first answer waits for the CLI's imports, which a loaded 2-core machine can stretch past a minute)."""
    ready, _, _ = select.select([proc.stdout], [], [], 600)
    assert ready, "the relay answered nothing"
    return json.loads(proc.stdout.readline())


def test_the_stdio_relay_answers_bad_lines_and_goes_on(server):
    env = {"OFFICESIM_TOKEN": server.token, "PATH": "/usr/bin:/bin"}
    proc = subprocess.Popen([sys.executable, "-m", "officesim.runner.cli", "mcp", "--server", server.url],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                            cwd=str(REPO))
    try:
        lines = [b"this is not json", b"[1, 2, 3]", json.dumps({"jsonrpc": "2.0", "id": 7}).encode(),
                 b'{"jsonrpc": "2.0", "id": 8, "method": "ping", "params": {"x": "' + b"y" * (MAX_MESSAGE_BYTES + 10)
                 + b'"}}', json.dumps(INITIALIZE).encode()]
        proc.stdin.write(b"\n".join(lines) + b"\n")
        proc.stdin.flush()
        answers = [answer_line(proc) for _ in range(5)]
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode() + b"\n")
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 9, "method": "tools/list"}).encode() + b"\n")
        proc.stdin.flush()
        listed = answer_line(proc)
    finally:
        proc.stdin.close()
        proc.terminate()
        proc.wait(30)
    codes = [(a.get("id"), a.get("error", {}).get("code")) for a in answers[:4]]
    assert codes == [(None, -32700), (None, -32600), (7, -32600), (None, -32600)]
    assert "larger than the limit" in answers[3]["error"]["message"]
    assert answers[4]["id"] == 1 and answers[4]["result"]["serverInfo"]["name"] == "officesim"
    assert listed["id"] == 9 and {t["name"] for t in listed["result"]["tools"]} == {"start_task", "list_tasks"}
