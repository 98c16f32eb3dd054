"""MCP over streamable HTTP at ``/mcp``, driven by the official ``mcp`` client: the oracle plays every
suite task's gold through the session's tools and passes, each switch of app is followed by
``notifications/tools/list_changed``, refusals carry the HTTP codes, the run shows in the HTTP API."""

from __future__ import annotations

import anyio
import httpx
import pytest
from mcp.shared.exceptions import MCPError

from officesim.runner.localserver import LocalServer
from officesim.server.client import OfficeClient
from officesim.server.session import tools_for
from officesim.tasks.loader import load_tasks
from officesim.tasks.model import Task
from tests._mcp_play import LIST_CHANGED, Notes, http_client, play_suite, tool_name


@pytest.fixture(scope="module")
def suite() -> dict[str, Task]:
    return {k: t for k, t in load_tasks([], include_suite=True).items() if t.split != "hard"}  # the hard split: tests/test_hard_split.py


@pytest.fixture(scope="module")
def server():
    with LocalServer(include_suite=True) as live:
        yield live


def test_oracle_passes_the_whole_suite_over_streamable_http(server, suite):
    problems = play_suite(lambda notes: http_client(server, notes), suite)
    assert not problems, "\n".join(problems[:20])


def test_tools_errors_prompt_resources_and_the_http_view(server, suite):
    task = suite[sorted(suite)[0]]

    async def main():
        notes = Notes()
        async with http_client(server, notes) as client:
            unbound = {t.name for t in (await client.list_tools()).tools}
            assert unbound == {"start_task", "list_tasks"}
            listed = await client.call_tool("list_tasks", {"category": task.category})
            assert task.id in {r["id"] for r in listed.structured_content["tasks"]}
            early = await client.call_tool("system_switch_app", {"target_app": "word"})
            assert early.is_error and early.structured_content["error"]["code"] == "no_task"
            unknown = await client.call_tool("start_task", {"task_id": "no-such-task"})
            assert unknown.is_error and unknown.structured_content["error"]["code"] == "unknown_task"
            bad_mode = await client.call_tool("start_task", {"task_id": task.id, "mode": "free"})
            assert bad_mode.is_error and bad_mode.structured_content["error"]["code"] == "bad_arguments"

            started = await client.call_tool("start_task", {"task_id": task.id})
            assert not started.is_error and task.instruction in started.content[0].text
            assert LIST_CHANGED in notes.methods
            session_id = started.structured_content["session_id"]
            tools = (await client.list_tools()).tools
            # the session's OpenAI tools, one to one: names, descriptions, schemas
            assert [(t.name, t.description, t.input_schema) for t in tools] == [
                (f["function"]["name"], f["function"]["description"], f["function"]["parameters"])
                for f in tools_for("switch_app", "system")]

            other = await client.call_tool(tool_name("excel", "read_file"), {"file_path": "data/x.xlsx"})
            assert other.is_error and other.structured_content["error"]["code"] == "not_in_current_app"
            assert "tools" not in other.structured_content and "prompt" not in other.structured_content
            bad = await client.call_tool(tool_name("system", "switch_app"), {"target": "word"})
            assert bad.is_error and bad.structured_content["error"]["code"] == "bad_arguments"
            assert bad.content[0].text.startswith("Error: ")
            nothing = await client.call_tool("word_no_such_action", {})
            assert nothing.is_error and nothing.structured_content["error"]["code"] == "unknown_action"
            assert "'no_such_action'" in nothing.content[0].text and "None" not in nothing.content[0].text
            again = await client.call_tool("start_task", {"task_id": task.id})
            assert again.is_error and again.structured_content["error"]["code"] == "task_already_started"

            resources = (await client.list_resources()).resources
            assert resources and all(r.uri.startswith("office://") for r in resources)
            read = await client.read_resource(resources[0].uri)
            assert read.contents and read.contents[0].uri == resources[0].uri
            with pytest.raises(MCPError):
                await client.read_resource("office://../../etc/passwd")
            prompt = await client.get_prompt("task")
            assert task.instruction in prompt.messages[0].content.text

            finished = await client.call_tool(tool_name("system", "finish_task"), {})
            evaluation = finished.structured_content["evaluation"]
            assert evaluation["status"] == "finished" and "Evaluation:" in finished.content[0].text
            for check in evaluation["checks"]:  # the readable text names each failed check
                assert (f"- failed: {check['check']}" in finished.content[0].text) is (not check["passed"])
            after = await client.call_tool(tool_name("system", "switch_app"), {"target_app": "word"})
            assert after.is_error and after.structured_content["error"]["code"] == "session_ended"
            assert {t.name for t in (await client.list_tools()).tools} == {"start_task", "list_tasks"}
            return session_id, evaluation

    session_id, evaluation = anyio.run(main)
    with OfficeClient(server.url, token=server.token) as api:  # the run is visible through the HTTP API
        seen = api.get_session(session_id)
    assert seen["status"] == "finished" and seen["evaluation"]["passed"] == evaluation["passed"]
    assert seen["step"] >= 4


def test_mcp_needs_the_token(server):
    answer = httpx.post(f"{server.url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})
    assert answer.status_code == 401
    assert answer.json()["error"]["code"] == "unauthorized"
