"""``officesim mcp`` over stdio, driven by the official ``mcp`` client: relayed to a running server,
the oracle passes every suite task with list_changed after each switch; with no --server the
command starts its own server, and --task binds the task before the client connects."""

from __future__ import annotations

import anyio
import pytest
from mcp import Client

from officesim.runner.localserver import LocalServer
from officesim.tasks.loader import load_tasks
from officesim.tasks.model import Task
from tests._mcp_play import EXAMPLES, Notes, play_gold, play_suite, stdio_params, tool_name


@pytest.fixture(scope="module")
def suite() -> dict[str, Task]:
    return {k: t for k, t in load_tasks([], include_suite=True).items() if t.split != "hard"}


@pytest.fixture(scope="module")
def server():
    with LocalServer(include_suite=True) as live:
        yield live


def test_oracle_passes_the_whole_suite_over_stdio(server, suite):
    def connect(notes):
        return Client(stdio_params("--server", server.url, token=server.token), message_handler=notes)

    problems = play_suite(connect, suite)
    assert not problems, "\n".join(problems[:20])


def test_stdio_with_a_private_server_and_a_bound_task():
    """``officesim mcp --task ID`` starts its own server; the task's tools are there from the start."""
    tasks = load_tasks([EXAMPLES], include_suite=False)
    task = next(t for t in tasks.values() if len(t.apps) >= 2)

    async def main() -> list[str]:
        notes = Notes()
        async with Client(stdio_params("--task", task.id, "--no-suite", "--tasks", str(EXAMPLES)),
                          message_handler=notes) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            assert "start_task" not in names and "system_switch_app" in names
            prompt = await client.get_prompt("task")
            assert task.instruction in prompt.messages[0].content.text
            other = await client.call_tool(tool_name("excel", "read_file"), {"file_path": "data/x.xlsx"})
            assert other.is_error and other.structured_content["error"]["code"] == "not_in_current_app"
            bad = await client.call_tool(tool_name("system", "switch_app"), {"target": "word"})
            assert bad.is_error and bad.structured_content["error"]["code"] == "bad_arguments"
            return await play_gold(client, notes, task, start=False)

    assert anyio.run(main) == []
