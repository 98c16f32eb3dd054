"""What the MCP tests share: a live server, the official client over streamable HTTP or stdio, and
the oracle playing a task's gold through the session's tools by name."""

from __future__ import annotations

import os
import sys
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from officesim.apps import DEFAULT_TOOLSET, apps_for
from officesim.runner.localserver import LocalServer
from officesim.server.session import tools_for
from officesim.tasks.gold import gold_actions
from officesim.tasks.model import Task

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "tasks" / "examples"
LIST_CHANGED = "notifications/tools/list_changed"
CONNECTIONS = 2  # connections playing the suite side by side (each plays its share in turn)


class Notes:
    """The notifications a client received, in order."""

    def __init__(self):
        self.methods: list[str] = []

    async def __call__(self, message) -> None:
        method = getattr(message, "method", None)
        if method:
            self.methods.append(method)


@asynccontextmanager
async def http_client(server: LocalServer, notes: Notes, token: str | None = "server"):
    token = server.token if token == "server" else token
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx2.AsyncClient(headers=headers, timeout=300) as http:
        async with Client(streamable_http_client(f"{server.url}/mcp", http_client=http), message_handler=notes) as client:
            yield client


def stdio_params(*args: str, token: str | None = None) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if k != "OFFICESIM_TOKEN"}
    if token:
        env["OFFICESIM_TOKEN"] = token
    return StdioServerParameters(command=sys.executable, args=["-m", "officesim.runner.cli", "mcp", *args], env=env,
                                 cwd=str(REPO))


def tool_name(app: str, action: str, toolset: str = DEFAULT_TOOLSET) -> str:
    return apps_for(toolset)[app].operations[action].tool_name


async def play_gold(client: Client, notes: Notes, task: Task, start: bool = True) -> list[str]:
    """Start the task (unless bound already), play its gold by tool name; the problems found."""
    problems: list[str] = []
    if start:
        started = await client.call_tool("start_task", {"task_id": task.id})
        if started.is_error:
            return [f"{task.id}: start_task: {started.content[0].text}"]
    current, last, toolset = "system", {}, getattr(task, "toolset", DEFAULT_TOOLSET)
    for i, act in enumerate(gold_actions(task.gold, task.answer), 1):
        seen = len(notes.methods)
        result = await client.call_tool(tool_name(act["app"], act["action"], toolset), act.get("args") or {})
        last = result.structured_content or {}
        if result.is_error:
            problems.append(f"{task.id}: action {i} {act['app']}.{act['action']}: {result.content[0].text}")
        if {"tools", "prompt", "tool_prompt"} & set(last):  # the tools come by tools/list on list_changed
            problems.append(f"{task.id}: action {i}: the tool result carries tools or prompts")
        if last.get("current_app") != current:
            if LIST_CHANGED not in notes.methods[seen:]:
                problems.append(f"{task.id}: no tools/list_changed after switching to {last.get('current_app')}")
            current = last.get("current_app")
            names = {t.name for t in (await client.list_tools()).tools}
            wanted = {t["function"]["name"] for t in tools_for("switch_app", current, toolset)}
            if not last.get("done") and names != wanted:
                problems.append(f"{task.id}: tools after switching to {current}: {sorted(names ^ wanted)}")
    evaluation = last.get("evaluation") or {}
    if not evaluation.get("passed"):
        problems.append(f"{task.id}: not passed: {evaluation}")
    return problems


async def play_share(connect, tasks: list[Task]) -> list[str]:
    """One connection plays the tasks one after another (a connection whose session ended starts the next)."""
    notes = Notes()
    problems: list[str] = []
    async with connect(notes) as client:
        for task in tasks:
            problems += await play_gold(client, notes, task)
    return problems


def play_suite(connect, suite: dict[str, Task]) -> list[str]:
    tasks = [suite[k] for k in sorted(suite)]
    shares = [tasks[i::CONNECTIONS] for i in range(CONNECTIONS)]
    problems: list[str] = []

    async def main() -> None:
        async def one(share):
            problems.extend(await play_share(connect, share))

        async with anyio.create_task_group() as group:
            for share in shares:
                group.start_soon(one, share)

    anyio.run(main)
    return problems


