"""Text that is not Unicode (a lone UTF-16 surrogate, ``"\\ud800"`` in JSON) is refused with 400
``bad_unicode`` naming where it was, on every HTTP route and every MCP message, and never enters a
session: its record stays readable whatever was sent, and what an operation reports (a file name of
undecodable bytes) goes out as U+FFFD. The routes are enumerated from the app, so a new one is tested
too."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path

import anyio
import httpx
import httpx2
import pytest
from fastapi.testclient import TestClient
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from officesim.runner.localserver import LocalServer
from officesim.server.app import create_app
from officesim.server.manager import ServerSettings
from tests._api_tasks import BUDGET, QUESTION, write_tasks

SURROGATES = ("\ud800", "\udbff", "\udc00", "\udfff")
# Routes that are not the API's (no parameters, no body): the schema, the documentation pages, MCP
NON_API = {"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc", "/mcp", "/static-offline-docs"}


@pytest.fixture(scope="module")
def task_dir(tmp_path_factory):
    return write_tasks(tmp_path_factory.mktemp("tasks"), BUDGET, QUESTION)


@pytest.fixture
def client(task_dir, tmp_path):
    app = create_app([task_dir], ServerSettings(include_suite=False, sessions_dir=tmp_path / "sessions"))
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def escaped(value) -> bytes:
    """``value`` as JSON with every non-ASCII character escaped: a lone surrogate as ``\\udXXX``."""
    return json.dumps(value).encode("ascii")


def refused(status: int, body: dict, where: str) -> None:
    assert status == 400, body
    assert body["error"]["code"] == "bad_unicode", body
    assert where in body["error"]["message"] and "surrogate" in body["error"]["message"], body


async def asgi_call(app, method: str, path: str, body: bytes = b"") -> tuple[int, dict]:
    """One request given to the app as its server would (an ASGI scope), so a path may hold any
    ``str``: an HTTP client cannot even send a lone surrogate in a URL."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode("utf-8", "surrogatepass"), "root_path": "", "query_string": b"",
             "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"),
                         (b"content-length", str(len(body)).encode())],
             "client": ("127.0.0.1", 50000), "server": ("testserver", 80), "state": {}}
    inbox = [{"type": "http.request", "body": body, "more_body": False}]
    sent: list[dict] = []

    async def receive():
        return inbox.pop(0) if inbox else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, json.loads(b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body"))


def _resolve(schema: dict, spec: dict) -> dict:
    """A request body's object schema: ``$ref`` followed, ``anyOf`` with null reduced to the object."""
    for option in schema.get("anyOf", [schema]):
        if "$ref" in option:
            return spec["components"]["schemas"][option["$ref"].rsplit("/", 1)[-1]]
        if option.get("type") == "object":
            return option
    return {}


def bad_bodies(schema: dict) -> list[tuple[object, str]]:
    """Bodies with a lone surrogate in each field the schema names (as text, in an object, in a
    list) and in a key, each with the location the refusal must name."""
    out: list[tuple[object, str]] = [({"\udc00x": 1}, "a key of body")]
    for name in schema.get("properties", {}):
        for bad in SURROGATES:
            out.append(({name: f"ok{bad}"}, f"body.{name}"))
        out.append(({name: {"inner": "\ud800"}}, f"body.{name}.inner"))
        out.append(({name: ["fine", "\udfff"]}, f"body.{name}[1]"))
    return out


def api_routes(client) -> list[tuple[str, str, dict]]:
    """Every route of the API as (method, path template, operation), from the app's own OpenAPI
    schema: a route added later is tried too."""
    spec = client.app.openapi()
    return [(method.upper(), path, operation) for path, operations in spec["paths"].items()
            for method, operation in operations.items()]


def test_the_schema_lists_every_route_that_takes_text(client):
    routes = api_routes(client)
    assert len(routes) >= 11  # health, apps, tasks (2), sessions (5), files (2)
    # what the schema leaves out (the schema itself, the documentation pages, MCP) takes no parameter
    hidden = {getattr(r, "path", None) for r in client.app.routes} - {None} - {path for _, path, _ in routes}
    assert hidden <= NON_API, hidden - NON_API
    assert all("{" not in p for p in hidden)


def test_a_surrogate_in_any_path_parameter_is_refused(client):
    sid = client.post("/sessions", json={"task_id": "api-question"}).json()["session_id"]
    tried = 0
    for method, path, operation in api_routes(client):
        names = [p["name"] for p in operation.get("parameters", []) if p["in"] == "path"]
        for name in names:
            values = {n: sid if n == "session_id" else "data/budget.xlsx" for n in names}
            values[name] = f"a{SURROGATES[tried % 4]}b"
            status, body = client.portal.call(asgi_call, client.app, method, path.format(**values))
            refused(status, body, f"path parameter '{name}'")
            tried += 1
    assert tried >= 8
    record = client.get(f"/sessions/{sid}").json()
    assert record["step"] == 0 and record["history"] == [] and record["status"] == "active"


def test_a_surrogate_anywhere_in_a_body_is_refused_and_never_stored(client):
    spec = client.app.openapi()
    sid = client.post("/sessions", json={"task_id": "api-question"}).json()["session_id"]
    tried = 0
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if content is None:
                continue
            url = path.replace("{session_id}", sid)
            for body, where in bad_bodies(_resolve(content["schema"], spec)):
                resp = client.request(method.upper(), url, content=escaped(body),
                                      headers={"content-type": "application/json"})
                refused(resp.status_code, resp.json(), where)
                tried += 1
            # the same code point as the three bytes a JSON parser reads with surrogatepass
            resp = client.request(method.upper(), url, content=b'{"x": "\xed\xa0\x80"}',
                                  headers={"content-type": "application/json"})
            refused(resp.status_code, resp.json(), "body.x")
            # and as a UTF-16 code unit of a UTF-16 body (JSON may be UTF-16 or UTF-32)
            resp = client.request(method.upper(), url, content='{"y": "\ud800"}'.encode("utf-16-le", "surrogatepass"),
                                  headers={"content-type": "application/json"})
            refused(resp.status_code, resp.json(), "body.y")
    assert tried >= 3 * 7  # create, act and finish, each with several fields
    # OfficeBench's flat form and nested arguments of an action
    for body, where in (({"app": "system", "action": "list_files", "path": "\ud800"}, "body.path"),
                        ({"app": "word", "action": "write_to_file", "args": {"file_path": "a.docx",
                                                                             "contents": "x\udfffy"}},
                         "body.args.contents")):
        resp = client.post(f"/sessions/{sid}/actions", content=escaped(body), headers={"content-type": "application/json"})
        refused(resp.status_code, resp.json(), where)
    record = client.get(f"/sessions/{sid}")
    assert record.status_code == 200
    assert record.json()["step"] == 0 and record.json()["history"] == [] and record.json()["answer"] is None


def test_query_parameters_and_undecodable_bytes_never_make_a_500(client):
    """A URL cannot carry a lone surrogate: its invalid UTF-8 (the surrogate's bytes, a stray 0xFF)
    arrives as U+FFFD, which is text; nothing answers 500 and no answer fails to encode."""
    tried = 0
    for method, path, operation in api_routes(client):
        url = path.format(**{p["name"]: "x" for p in operation.get("parameters", []) if p["in"] == "path"})
        for param in [p["name"] for p in operation.get("parameters", []) if p["in"] == "query"]:
            resp = client.request(method, f"{url}?{param}=%ED%A0%80%FF")
            assert resp.status_code < 500, (url, resp.text)
            resp.json()
            tried += 1
    assert tried >= 4
    resp = client.get("/tasks/%ED%A0%80")
    assert resp.status_code == 404 and "\ufffd" in resp.json()["error"]["message"]
    resp = client.post("/sessions", content=b'{"task_id": "\xff"}', headers={"content-type": "application/json"})
    assert resp.status_code == 400 and resp.json()["error"]["code"] == "bad_json"
    assert "0xff in position 13" in resp.json()["error"]["message"]


def test_an_undecodable_file_name_keeps_the_record_readable(client):
    sid = client.post("/sessions", json={"task_id": "api-question"}).json()["session_id"]
    root = client.app.state.manager.get(sid).office.root
    (Path(root) / "data" / os.fsdecode(b"bad\xff.txt")).write_bytes(b"x")  # surrogate-escaped in Python
    step = client.post(f"/sessions/{sid}/actions", json={"app": "system", "action": "list_files", "args": {}})
    assert step.status_code == 200 and "data/bad\ufffd.txt" in step.json()["observation"]
    assert "data/bad\ufffd.txt" in {f["path"] for f in client.get(f"/sessions/{sid}/files").json()}
    finished = client.post(f"/sessions/{sid}/finish", json={"answer": "1500"})
    assert finished.status_code == 200 and finished.json()["done"]
    record = client.get(f"/sessions/{sid}")
    assert record.status_code == 200 and record.json()["evaluation"] is not None
    assert "data/bad\ufffd.txt" in record.json()["history"][0]["observation"]


# ---- MCP -----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def server(task_dir, tmp_path_factory):
    sessions = tmp_path_factory.mktemp("mcp-sessions")
    with LocalServer([task_dir], env={"OFFICESIM_SESSIONS_DIR": str(sessions)}, include_suite=False) as srv:
        srv.sessions_dir = sessions
        yield srv


def test_mcp_refuses_a_surrogate_in_any_message_naming_where(server):
    auth = {"Authorization": f"Bearer {server.token}"}
    seen: dict[str, str] = {}

    async def remember(response) -> None:
        if response.headers.get("mcp-session-id"):
            seen["mcp"] = response.headers["mcp-session-id"]

    async def raw(http, message: dict, session: bool = True) -> httpx2.Response:
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        if session:
            headers["mcp-session-id"] = seen["mcp"]
        return await http.post(f"{server.url}/mcp", content=escaped(message), headers=headers)

    def tool_refusal(resp, request_id: int, where: str) -> None:
        assert resp.status_code == 200, resp.text
        reply = resp.json()
        assert reply["id"] == request_id and reply["result"]["isError"] is True, reply
        error = reply["result"]["structuredContent"]["error"]
        assert error["code"] == "bad_unicode" and where in error["message"], error

    def rpc_refusal(resp, where: str) -> None:
        assert resp.status_code == 400, resp.text
        error = resp.json()["error"]
        assert error["code"] == -32602 and where in error["message"] and "surrogate" in error["message"], error

    async def main() -> None:
        async with httpx2.AsyncClient(headers=auth, timeout=300, event_hooks={"response": [remember]}) as http:
            async with Client(streamable_http_client(f"{server.url}/mcp", http_client=http)) as client:
                call = {"jsonrpc": "2.0", "id": 101, "method": "tools/call"}
                tool_refusal(await raw(http, {**call, "params": {"name": "start_task",
                                                                 "arguments": {"task_id": "api-\ud800"}}}),
                             101, "arguments.task_id")
                started = await client.call_tool("start_task", {"task_id": "api-question"})
                assert not started.is_error
                sid = started.structured_content["session_id"]
                for n, (arguments, where) in enumerate((
                        ({"path": "\udfff"}, "arguments.path"),
                        ({"path": "data", "deep": {"list": ["ok", "x\udc80"]}}, "arguments.deep.list[1]"),
                        ({"\ud834x": "key"}, "a key of arguments"))):
                    tool_refusal(await raw(http, {**call, "id": 200 + n, "params": {
                        "name": "system_list_files", "arguments": arguments}}), 200 + n, where)
                rpc_refusal(await raw(http, {"jsonrpc": "2.0", "id": 300, "method": "resources/read",
                                             "params": {"uri": "office://data/\ud800.txt"}}), "params.uri")
                rpc_refusal(await raw(http, {"jsonrpc": "2.0", "id": 301, "method": "prompts/get",
                                             "params": {"name": "task\udbff"}}), "params.name")
                tool_refusal(await raw(http, {**call, "id": 302, "params": {"name": "system_list\ud800_files",
                                                                            "arguments": {}}}), 302, "the tool name")
                # a new connection whose initialize holds one
                rpc_refusal(await raw(http, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                    "protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "x\ud800", "version": "0"}}}, session=False), "params.clientInfo.name")
                # nothing reached the session; it still works
                with httpx.Client(base_url=server.url, headers=auth, timeout=60) as plain:
                    record = plain.get(f"/sessions/{sid}")
                    assert record.status_code == 200 and record.json()["history"] == []
                listed = await client.call_tool("system_list_files", {})
                assert not listed.is_error and "data/budget.xlsx" in listed.content[0].text

                # an undecodable file name goes out as U+FFFD, and its resource reads back by its bytes
                office = next(server.sessions_dir.glob("api-question-*"))
                (office / "data" / os.fsdecode(b"odd\xff.txt")).write_bytes(b"odd bytes")
                listed = await client.call_tool("system_list_files", {})
                assert not listed.is_error and "data/odd\ufffd.txt" in listed.content[0].text
                resources = {r.name: str(r.uri) for r in (await client.list_resources()).resources}
                assert resources["data/odd\ufffd.txt"] == "office://data/odd%FF.txt"
                read = await client.read_resource(resources["data/odd\ufffd.txt"])
                assert read.contents[0].text == "odd bytes"
                with httpx.Client(base_url=server.url, headers=auth, timeout=60) as plain:
                    record = plain.get(f"/sessions/{sid}")
                    assert record.status_code == 200 and len(record.json()["history"]) == 2

    anyio.run(main)


def test_the_stdio_relay_answers_a_surrogate_naming_where(server):
    """``officesim mcp`` (stdio) answers such a line with a JSON-RPC error naming where (the SDK's stdio
    parser would drop it unanswered, leaving the client waiting) and goes on."""
    env = {"OFFICESIM_TOKEN": server.token, "PATH": "/usr/bin:/bin"}
    proc = subprocess.Popen([sys.executable, "-m", "officesim.runner.cli", "mcp", "--server", server.url],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                            cwd=str(Path(__file__).resolve().parents[1]))

    def answer() -> dict:
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        assert ready, "the relay answered nothing"
        return json.loads(proc.stdout.readline())

    try:
        for message in ({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}},
                        {"jsonrpc": "2.0", "method": "notifications/initialized"},
                        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                         "params": {"name": "start_task", "arguments": {"task_id": "api-\ud800"}}},
                        {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                         "params": {"name": "list_tasks", "arguments": {}}}):
            proc.stdin.write(escaped(message) + b"\n")
        proc.stdin.flush()
        answers = [answer() for _ in range(3)]
    finally:
        proc.stdin.close()
        proc.terminate()
        proc.wait(60)
    assert answers[0]["id"] == 1 and "result" in answers[0]
    assert answers[1]["id"] == 2 and answers[1]["error"]["code"] == -32602
    assert "params.arguments.task_id" in answers[1]["error"]["message"]
    assert answers[2]["id"] == 3 and "api-question" in answers[2]["result"]["content"][0]["text"]
