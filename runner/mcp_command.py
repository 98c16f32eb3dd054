"""``officesim mcp [--task ID] [--server URL]``: one officesim session over MCP stdio.

A desktop MCP client starts a command and speaks MCP on its stdin/stdout; this command relays
that connection to a server's ``/mcp`` (server/mcp.py), so stdio and HTTP clients see the same
tools, errors, list changes, prompt and resources. Without ``--server`` it starts a private
server (runner/localserver.py) that ends with it; with ``--task`` the task is started before the
client connects, so the client sees the task's tools from its first ``tools/list``.

Nothing but MCP is written to stdout; messages go to stderr. A line the relay cannot pass on is
answered with a JSON-RPC error and the next line is read: one over ``MAX_MESSAGE_BYTES`` (the
server's limit for a message, read and dropped in bounded pieces), one that is not JSON (-32700), a
batch array or anything else that is not one JSON-RPC message (-32600).
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
from officesim.runner.cli import add_suite_options, wants_suite

# The largest message line the relay passes on: the server's /mcp limit (4 MB, the SDK's) less room
# for the envelope the relay wraps the call in.
MAX_MESSAGE_BYTES = (4 << 20) - (64 << 10)

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
                    help="without --server: the private server's tasks, from this directory instead of the built-in "
                         "suite (repeatable; --with-suite keeps the suite too)")
    add_suite_options(mc)
    mc.set_defaults(func=cmd_mcp)


def cmd_mcp(args: argparse.Namespace) -> int:
    from officesim.runner.localserver import LocalServer

    if args.server:
        return anyio.run(relay, args.server.rstrip("/"), args.token, args.task, args.mode)
    try:
        with LocalServer([Path(d) for d in args.tasks], include_suite=wants_suite(args)) as server:
            return anyio.run(relay, server.url, server.token, args.task, args.mode)
    except (RuntimeError, ValueError) as exc:  # the private server did not start; contradicting options
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
        lines = CheckedLines(sys.stdin.buffer)
        async with stdio_server(stdin=lines) as (read, write), server.lifespan(server) as state:
            lines.answer = write
            await serve_loop(server, read, write, lifespan_state=state,
                             init_options=server.create_initialization_options())
    return 0


class CheckedLines:
    """The stdio client's lines as the SDK's stdio transport reads them (``async for line in ...``),
    each one JSON-RPC message no larger than ``MAX_MESSAGE_BYTES``; any other line is answered here
    with a JSON-RPC error (through ``answer``, the transport's write stream) and skipped."""

    def __init__(self, stdin: Any, limit: int = MAX_MESSAGE_BYTES):
        self.stdin = stdin  # a binary file, read in a thread (as the SDK's transport reads it)
        self.limit = limit
        self.answer: Any = None  # set once the transport runs

    def __aiter__(self) -> "CheckedLines":
        return self

    async def __anext__(self) -> str:
        while True:
            raw = await self._readline()
            if not raw:
                raise StopAsyncIteration
            if len(raw) > self.limit and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n"):  # the rest of the line, in bounded pieces
                    raw = await self._readline()
                await self._error(None, -32600, f"the message is larger than the limit of {self.limit:,} bytes")
                continue
            text = raw.decode("utf-8", errors="replace").strip()
            if not text:
                continue
            problem = _problem(text)
            if problem is None:
                return text
            await self._error(*problem)

    async def _readline(self) -> bytes:
        return await anyio.to_thread.run_sync(self.stdin.readline, self.limit + 1, abandon_on_cancel=True)

    async def _error(self, request_id: Any, code: int, message: str) -> None:
        import mcp_types as types
        from mcp.shared.message import SessionMessage

        error = types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message))
        await self.answer.send(SessionMessage(error))


def _problem(text: str) -> tuple[Any, int, str] | None:
    """Why ``text`` is not one JSON-RPC message, as (id to answer, code, message); None when it is one."""
    import json

    import mcp_types as types

    from officesim.server.textcheck import bad_unicode_message, lone_surrogate

    try:
        value = json.loads(text)
    except ValueError as exc:
        return None, types.PARSE_ERROR, f"parse error: {exc}"
    if isinstance(value, list):
        return None, types.INVALID_REQUEST, "batches are not supported: send one JSON-RPC message per line"
    where = lone_surrogate(value)  # the SDK's parser would drop the line unanswered (server/textcheck.py)
    if where:
        request_id = value.get("id") if isinstance(value, dict) else None
        if isinstance(request_id, bool) or not isinstance(request_id, (int, str)) or lone_surrogate(request_id):
            request_id = None
        return request_id, types.INVALID_PARAMS, bad_unicode_message(where)
    try:
        types.jsonrpc_message_adapter.validate_python(value, by_name=False)
    except Exception:
        request_id = value.get("id") if isinstance(value, dict) else None
        if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
            request_id = None
        return request_id, types.INVALID_REQUEST, "not a JSON-RPC 2.0 request, notification or response"
    return None
