"""``/mcp`` mounted without importing the MCP SDK at start: the SDK and its protocol types are imported
once the server answers, in a thread, while the server already serves the HTTP API.

Importing ``mcp`` (its pydantic protocol models for every protocol version) was about a quarter of a
server process's start, and every ``officesim serve`` process, private ``eval`` server and test client
paid it before /health answered, whether or not a client ever spoke MCP. A request to /mcp that comes
before the SDK is ready waits for it; one that comes when it could not be loaded is answered 503 with
the reason.
"""

from __future__ import annotations

import importlib
import sys
import threading
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import anyio

import anyio.to_thread

from officesim.server.routes.common import error_response

PATH = "/mcp"


class LazyMCP:
    """The ASGI endpoint of ``/mcp`` over ``server/mcp.py``'s ``OfficeMCP``, built in the app's lifespan
    (``running``) after the server starts."""

    def __init__(self, manager: Any, version: str = ""):
        self.manager = manager
        self.version = version
        self.mcp: Any = None  # the OfficeMCP, once built
        self.failure = ""  # why it could not be built
        self._ready: anyio.Event | None = None

    @asynccontextmanager
    async def running(self, listening: threading.Event | None = None) -> AsyncIterator[None]:
        """For the app's lifespan: build the MCP endpoint in the background (once ``listening`` is set,
        when given) and run its sessions until the app stops."""
        ready = self._ready = anyio.Event()
        stop = anyio.Event()

        async def serve() -> None:
            try:
                while listening is not None and not listening.is_set():  # polled: a server that
                    if stop.is_set():  # stops before it listens (its port taken) must not wait here
                        return
                    await anyio.sleep(0.02)
                module = await anyio.to_thread.run_sync(importlib.import_module, "officesim.server.mcp")
                self.mcp = module.OfficeMCP(self.manager, self.version)
                async with self.mcp.running():
                    ready.set()
                    await stop.wait()
            except Exception as exc:  # the HTTP API goes on; /mcp says why it is not there
                self.failure = f"{type(exc).__name__}: {exc}"
                print(f"officesim: MCP at {PATH} is not available: {self.failure}", file=sys.stderr)
            finally:
                ready.set()

        async with anyio.create_task_group() as group:
            group.start_soon(serve)
            try:
                yield
            finally:
                stop.set()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self._ready is not None:
            await self._ready.wait()
        if self.mcp is None:
            reason = self.failure or "the server is not running MCP sessions now"
            await error_response(503, "unavailable", f"MCP is not available: {reason}")(scope, receive, send)
            return
        await self.mcp(scope, receive, send)
