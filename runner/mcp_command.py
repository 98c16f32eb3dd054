"""``officesim mcp [--task ID] [--server URL]``: one officesim session over MCP stdio.

A desktop MCP client starts a command and speaks MCP on its stdin/stdout; this command relays
that connection to a server's ``/mcp`` (server/mcp.py), so stdio and HTTP clients see the same
tools, errors, list changes, prompt and resources. Without ``--server`` it starts a private
server (runner/localserver.py) that ends with it; with ``--task`` the task is started before the
client connects, so the client sees the task's tools from its first ``tools/list``.

Nothing but MCP is written to stdout; messages go to stderr.
"""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import anyio

from officesim.apps.registry import MODES

# What the relay passes on from the server to the client as it arrives.
_RELAYED = ("notifications/tools/list_changed", "notifications/prompts/list_changed",
            "notifications/resources/list_changed")


def add_subcommands(sub: argparse._SubParsersAction) -> None:
    mc = sub.add_parser("mcp", help="serve one session over MCP stdio (for desktop MCP clients)")
    mc.add_argument("--task", default=None, metavar="ID", help="start this task at once (else the client calls start_task)")
    mc.add_argument("--mode", choices=MODES, default=None, help="with --task: how operations are restricted")
    mc.add_argument("--server", default=None, metavar="URL",
                    help="a running officesim server (default: start a private one)")
    mc.add_argument("--token", default=os.environ.get("OFFICESIM_TOKEN"), help="bearer token for --server (env OFFICESIM_TOKEN)")
    mc.add_argument("--tasks", action="append", default=[], metavar="DIR",
                    help="without --server: extra task directory of the private server; repeatable")
    mc.add_argument("--no-suite", action="store_true", help="without --server: leave the built-in suite out")
    mc.set_defaults(func=cmd_mcp)


def cmd_mcp(args: argparse.Namespace) -> int:
    from officesim.runner.localserver import LocalServer

    if args.server:
        return anyio.run(relay, args.server.rstrip("/"), args.token, args.task, args.mode)
    try:
        with LocalServer([Path(d) for d in args.tasks], include_suite=not args.no_suite) as server:
            return anyio.run(relay, server.url, server.token, args.task, args.mode)
    except RuntimeError as exc:  # the private server did not start
        print(f"error: {exc}", file=sys.stderr)
        return 2


async def relay(url: str, token: str | None, task_id: str | None, mode: str | None) -> int:
    """Serve stdio MCP, each request answered by the server's ``/mcp`` over one connection."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.server.runner import serve_loop
    from mcp.server.stdio import stdio_server

    from officesim.server.mcp import INSTRUCTIONS, NotifyingServer

    downstream: dict[str, Any] = {}  # the stdio client's session, once it has sent a request

    async def on_upstream_message(message: Any) -> None:
        method = getattr(message, "method", None)
        session = downstream.get("session")
        if method in _RELAYED and session is not None:
            await session.send_notification(type(message)())

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with AsyncExitStack() as stack:
        http = await stack.enter_async_context(httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(300, connect=30)))
        try:
            upstream = await stack.enter_async_context(
                Client(streamable_http_client(f"{url}/mcp", http_client=http), message_handler=on_upstream_message))
        except Exception as exc:
            print(f"error: cannot connect to {url}/mcp: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 2
        if task_id:
            started = await upstream.call_tool("start_task", {"task_id": task_id, "mode": mode})
            if started.is_error:
                print(f"error: {started.content[0].text if started.content else 'start_task failed'}", file=sys.stderr)
                return 2

        def forward(call):
            async def handler(ctx: Any, params: Any) -> Any:
                downstream["session"] = ctx.session
                return await call(params)
            return handler

        server = NotifyingServer(
            "officesim", instructions=INSTRUCTIONS,
            on_list_tools=forward(lambda p: upstream.list_tools(cache_mode="refresh")),
            on_call_tool=forward(lambda p: upstream.call_tool(p.name, p.arguments)),
            on_list_resources=forward(lambda p: upstream.list_resources(cache_mode="refresh")),
            on_read_resource=forward(lambda p: upstream.read_resource(str(p.uri), cache_mode="refresh")),
            on_list_prompts=forward(lambda p: upstream.list_prompts(cache_mode="refresh")),
            on_get_prompt=forward(lambda p: upstream.get_prompt(p.name, p.arguments)),
        )
        # errors of the server (protocol errors and isError results) pass through as they are
        # The handshake era only (serve_loop): the session this connection drives lives upstream,
        # bound to the one connection the relay holds.
        async with stdio_server() as (read, write), server.lifespan(server) as state:
            await serve_loop(server, read, write, lifespan_state=state,
                             init_options=server.create_initialization_options())
    return 0
