"""The FastAPI application: the routers of server/routes over one session manager, errors as JSON,
optional Bearer auth, and the sweeper thread that expires idle sessions.

Route handlers that touch files run in the threadpool, so the event loop never waits on disk or on an
operation. Every error is ``{"error": {"code", "message"}}``.
"""

from __future__ import annotations

import hmac
import json
import threading
from contextlib import asynccontextmanager
from pathlib import Path

import anyio.to_thread
from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from officesim.server.manager import ServerSettings, SessionManager
from officesim.server.mcp_mount import PATH as MCP_PATH
from officesim.server.mcp_mount import LazyMCP
from officesim.server.routes import ROUTERS
from officesim.server.routes.common import VERSION, ApiError, error_response, refuse_bad_unicode

__version__ = VERSION

# Idle keep-alive connections are closed by the server only after this long; clients expire theirs
# sooner (server/client.py), so a client never sends on a connection the server is closing.
KEEP_ALIVE_S = 30

STATUS_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
                405: "method_not_allowed", 409: "conflict", 410: "gone", 413: "too_large",
                415: "unsupported_media_type", 422: "invalid_request", 429: "too_many_sessions",
                500: "internal_error"}


class BearerAuth:
    """Pure ASGI middleware: every route but /health needs ``Authorization: Bearer <token>``."""

    def __init__(self, app, token: str):
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope.get("path") != "/health":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                response = error_response(401, "unauthorized", "missing or wrong token: send 'Authorization: Bearer <token>'",
                                          headers={"WWW-Authenticate": "Bearer"})
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _validation_message(exc: RequestValidationError) -> tuple[int, str, str]:
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return 400, "bad_json", "the request body is not valid JSON"
    parts = []
    for e in errors:
        loc = ".".join(str(x) for x in e.get("loc", ()) if x != "body") or "body"
        parts.append(f"{loc}: {e.get('msg')}")
    return 422, "invalid_request", "; ".join(parts) or "invalid request"


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError):
        return error_response(exc.status, exc.code, exc.message)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        code = STATUS_CODES.get(exc.status_code, "error")
        message = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail, default=str)
        if exc.status_code == 404 and message == "Not Found":
            message = f"no route {request.method} {request.url.path}"
        elif exc.status_code == 400 and isinstance(exc.__cause__, UnicodeDecodeError):  # FastAPI reading the body
            code, message = "bad_json", f"the request body is not UTF-8 (nor UTF-16 or UTF-32) JSON: {exc.__cause__}"
        return error_response(exc.status_code, code, message, headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        status, code, message = _validation_message(exc)
        return error_response(status, code, message)

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception):
        return error_response(500, "internal_error", f"internal error: {type(exc).__name__}")


@asynccontextmanager
async def _lifespan(app: FastAPI):
    """While serving: a sweeper thread expires idle sessions; on shutdown every office is removed."""
    manager: SessionManager = app.state.manager
    settings: ServerSettings = app.state.settings
    stop = threading.Event()

    def sweeper() -> None:
        interval = max(0.05, min(30.0, settings.idle_timeout / 4, settings.finished_grace / 4))
        while not stop.wait(interval):
            try:
                manager.sweep()
            except Exception:  # keep sweeping; one bad office must not stop expiry
                pass

    # Sync handlers run in anyio's threadpool (40 threads by default); long operations such as
    # OCR in many sessions at once should not queue behind each other.
    anyio.to_thread.current_default_thread_limiter().total_tokens = max(40, settings.max_sessions)
    thread = threading.Thread(target=sweeper, name="officesim-sweeper", daemon=True)
    thread.start()
    # The kept workers start in the background: /health answers at once, and a request that comes
    # before they are up waits for the first of them. When the app is served by ``officesim serve``,
    # they (and the MCP SDK's import) wait until the server listens: on a 2-core machine they would
    # otherwise take the cores the starting processes need.
    listening: threading.Event | None = getattr(app.state, "listening", None)

    def start_pool() -> None:
        if listening is not None:
            listening.wait()
        manager.pool.start()
        # then the checks and their readers, which a finish needs here too (reference states): loaded
        # now rather than at start (~0.8 s) or in the first finish
        from officesim.evaluators import load_checks
        load_checks()

    threading.Thread(target=start_pool, name="officesim-pool-start", daemon=True).start()
    try:
        async with app.state.mcp.running(listening):  # the MCP sessions of /mcp (server/mcp_mount.py, server/mcp.py)
            yield
    finally:
        stop.set()
        manager.pool.close()  # first: nothing in flight can hold the shutdown up
        thread.join(timeout=5)
        manager.close()


DESCRIPTION = """A simulated office for evaluating LLM agents: sessions, apps and evaluation.

A session is one attempt at one task on its own private office: `POST /sessions` starts it, `POST
/sessions/{id}/actions` acts, `POST /sessions/{id}/finish` ends it and returns its `evaluation` (schema
`Evaluation`), `DELETE /sessions/{id}` removes it.

The same sessions speak **MCP** (the Model Context Protocol, streamable HTTP) at `/mcp`: an MCP
client connects to `http://<host>:<port>/mcp` (with the same Bearer token when the server has one),
calls `start_task`, then the tools the session allows now. `officesim mcp --task ID` relays it over
stdio. `/mcp` is not an OpenAPI route, so it is not listed below."""


def create_app(task_dirs: list[str | Path] | None = None, settings: ServerSettings | None = None,
               tasks: dict | None = None) -> FastAPI:
    """Build the app; tasks are loaded (and validated) once here, never per request."""
    from officesim.tasks.loader import load_tasks

    settings = settings or ServerSettings.from_env()
    if tasks is None:
        tasks = load_tasks([Path(d) for d in task_dirs or []], include_suite=settings.include_suite)
    # /docs and /redoc load Swagger UI and ReDoc from the server itself (assets shipped by
    # fastapi-offline), so they render where the server runs without internet.
    # every route refuses text that is not Unicode (a lone surrogate) before it runs: 400 bad_unicode
    app = FastAPIOffline(title="officesim", version=__version__, lifespan=_lifespan,
                         description=DESCRIPTION, dependencies=[Depends(refuse_bad_unicode)])
    app.state.settings = settings
    app.state.manager = SessionManager(tasks, settings)
    _install_error_handlers(app)
    if settings.token:
        app.add_middleware(BearerAuth, token=settings.token)
    for router in ROUTERS:
        app.include_router(router)
    app.state.mcp = LazyMCP(app.state.manager, __version__)
    app.add_route(MCP_PATH, app.state.mcp, include_in_schema=False)
    return app

