"""Bytes an agent receives per step: the oracle plays a spread of suite tasks over HTTP in switch_app
and all_operations mode, and over MCP, and the size of every answer is recorded.

Why: an agent pays for every byte of a response (tokens, context, latency). The observation is what
it needs; the tools and prompts are sent only when they change or when asked (docs/api.md), so the
median action response should stay small (target: <= 2 KB in switch_app mode). Reported: median and
p90 bytes of an action response per mode, of the finish responses, and of an MCP tool result (its
JSON-RPC ``result`` as the client receives it).
"""

from __future__ import annotations

import logging
import statistics
import sys

import anyio
import httpx

from common import percentile, print_table, server_or_new, write_result

from officesim.server.jsonbody import dumps
from officesim.tasks.gold import gold_actions, play_gold
from officesim.tasks.loader import load_tasks

TASKS = 40  # tasks played per mode, spread over the sorted suite
TARGET_BYTES = 2048  # median action response in switch_app mode


def sample_tasks(count: int = TASKS) -> list:
    tasks = [t for _, t in sorted(load_tasks().items())]
    stride = max(1, len(tasks) // count)
    return tasks[::stride][:count]


def http_bytes(url: str, token: str, tasks: list, mode: str) -> tuple[list[int], list[int]]:
    """Body bytes of every action response and every finish response of the oracle's episodes."""
    actions: list[int] = []
    finishes: list[int] = []
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=300) as http:
        for task in tasks:
            created = http.post("/sessions", json={"task_id": task.id, "mode": mode, "max_steps": 500})
            created.raise_for_status()
            sid = created.json()["session_id"]

            def step(app: str, action: str, args: dict) -> dict:
                r = http.post(f"/sessions/{sid}/actions", json={"app": app, "action": action, "args": args})
                r.raise_for_status()
                actions.append(len(r.content))
                return r.json()

            def finish(answer: object) -> dict:
                r = http.post(f"/sessions/{sid}/finish", json={"answer": answer})
                r.raise_for_status()
                finishes.append(len(r.content))
                return r.json()

            play_gold(task.gold, task.answer, step, finish)
            http.delete(f"/sessions/{sid}")
    return actions, finishes


def mcp_bytes(url: str, token: str, tasks: list) -> list[int]:
    """Bytes of every MCP tool result (as JSON) of the oracle's episodes, over streamable HTTP."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    from officesim.apps import apps_for

    sizes: list[int] = []
    logging.getLogger("client").setLevel(logging.ERROR)  # the SDK client's note on start_task's untyped result

    async def main() -> None:
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=300) as http:
            async with Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client:
                for task in tasks:
                    await client.call_tool("start_task", {"task_id": task.id})
                    apps = apps_for(task.toolset)
                    for act in gold_actions(task.gold, task.answer):
                        name = apps[act["app"]].operations[act["action"]].tool_name
                        result = await client.call_tool(name, act.get("args") or {})
                        sizes.append(len(dumps(result.model_dump(mode="json", by_alias=True, exclude_none=True))))
                        if (result.structured_content or {}).get("done"):
                            break

    anyio.run(main)
    return sizes


def _row(name: str, sizes: list[int]) -> list[object]:
    return [name, len(sizes), round(statistics.median(sizes)), round(percentile(sizes, 90)), max(sizes)]


def run(bench=None) -> dict:
    tasks = sample_tasks()
    with server_or_new(bench) as b:
        url, token = b.url, b.server.token
        switch_actions, switch_finishes = http_bytes(url, token, tasks, "switch_app")
        all_actions, all_finishes = http_bytes(url, token, tasks, "all_operations")
        mcp = mcp_bytes(url, token, tasks)
    rows = [_row("switch_app: action response", switch_actions), _row("switch_app: finish response", switch_finishes),
            _row("all_operations: action response", all_actions),
            _row("all_operations: finish response", all_finishes), _row("MCP tool result", mcp)]
    print_table(f"Bytes per response, oracle over {len(tasks)} tasks", ["response", "n", "median", "p90", "max"], rows)
    median = statistics.median(switch_actions)
    print(f"\nmedian action response in switch_app mode: {median:.0f} bytes "
          f"(target <= {TARGET_BYTES}: {'met' if median <= TARGET_BYTES else 'NOT met'})")
    result = {"tasks": [t.id for t in tasks],
              "responses": {r[0]: {"n": r[1], "median": r[2], "p90": r[3], "max": r[4]} for r in rows},
              "switch_app_median_bytes": median, "target_bytes": TARGET_BYTES}
    write_result("response_bytes", result)
    return result


if __name__ == "__main__":
    run()
    sys.exit(0)
