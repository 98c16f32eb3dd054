"""The FastAPI application: routes over the session manager, errors as JSON, optional Bearer auth.

Route handlers that touch files are plain ``def`` so FastAPI runs them in its threadpool and the
event loop never waits on disk or on an operation. Every error is ``{"error": {"code", "message"}}``.
"""

from __future__ import annotations

import hmac
import json
import mimetypes
import threading
from contextlib import asynccontextmanager
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import anyio.to_thread
from fastapi import Body, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from officesim.apps import APPS, OpError
from officesim.server.manager import CapacityError, ServerSettings, SessionManager
from officesim.server.models import (
    ActionRequest, ActionResponse, AppInfo, CreateSession, Deleted, ErrorResponse, FileInfo,
    FinishRequest, Health, SessionCreated, SessionInfo, TaskInfo,
)
from officesim.server.session import Session, SessionEnded, StepResult

try:
    __version__ = version("officesim")
except PackageNotFoundError:  # running from a source tree without installing
    __version__ = "0.1.0"

# Idle keep-alive connections are closed by the server only after this long; clients expire theirs
# sooner (server/client.py), so a client never sends on a connection the server is closing.
KEEP_ALIVE_S = 30

ERRORS = {code: {"model": ErrorResponse} for code in (400, 401, 403, 404, 409, 410, 422, 429)}
STATUS_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
                405: "method_not_allowed", 409: "conflict", 410: "gone", 413: "too_large",
                415: "unsupported_media_type", 422: "invalid_request", 429: "too_many_sessions",
                500: "internal_error"}


class FastJSON(JSONResponse):
    """JSON without a second validation pass; values an operation left non-JSON become strings."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=False, separators=(",", ":"), default=str).encode("utf-8")


class ApiError(Exception):
    """An error answered as JSON with an HTTP status, a code and a message."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def error_response(status: int, code: str, message: str, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


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


@lru_cache(maxsize=1)
def _apps_listing() -> list[dict]:
    return [app.describe() for app in APPS.values()]


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
        return error_response(exc.status_code, code, message, headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        status, code, message = _validation_message(exc)
        return error_response(status, code, message)

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception):
        return error_response(500, "internal_error", f"internal error: {type(exc).__name__}")


def create_app(task_dirs: list[str | Path] | None = None, settings: ServerSettings | None = None,
               tasks: dict | None = None) -> FastAPI:
    """Build the app; tasks are loaded (and validated) once here, never per request."""
    from officesim.tasks.loader import load_tasks

    settings = settings or ServerSettings.from_env()
    if tasks is None:
        tasks = load_tasks([Path(d) for d in task_dirs or []], include_suite=settings.include_suite)
    manager = SessionManager(tasks, settings)
    stop = threading.Event()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        def sweeper() -> None:
            interval = max(0.05, min(30.0, settings.idle_timeout / 4))
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
        try:
            yield
        finally:
            stop.set()
            thread.join(timeout=5)
            manager.close()

    app = FastAPI(title="officesim", version=__version__, lifespan=lifespan,
                  description="A simulated office for evaluating LLM agents: sessions, apps and evaluation.")
    app.state.manager = manager
    app.state.settings = settings
    _install_error_handlers(app)
    if settings.token:
        app.add_middleware(BearerAuth, token=settings.token)

    def session_or_404(session_id: str) -> Session:
        try:
            return manager.get(session_id)
        except KeyError:
            raise ApiError(404, "unknown_session", f"no session '{session_id}'") from None

    def office_or_410(session: Session) -> Any:
        if not manager.has_office(session.id):
            raise ApiError(410, "office_removed", f"the office of session '{session.id}' was removed ({session.status})")
        return session.office

    def step_response(session: Session, result: StepResult) -> dict:
        out = result.to_dict()
        out["prompt"] = session.prompt()
        return out

    def run_step(session: Session, fn) -> dict:
        try:
            result = fn()
        except SessionEnded as exc:
            raise ApiError(409, "session_ended", str(exc)) from None
        return step_response(session, result)

    @app.get("/health", response_model=Health, tags=["service"])
    async def health() -> dict:
        return {"status": "ok", "version": __version__}

    @app.get("/apps", response_model=list[AppInfo], responses=ERRORS, tags=["service"])
    async def list_apps() -> list[dict]:
        return _apps_listing()

    @app.get("/tasks", response_model=list[TaskInfo], responses=ERRORS, tags=["tasks"])
    async def list_tasks(category: int | None = Query(None), app: str | None = Query(None),
                         split: str | None = Query(None)) -> list[dict]:
        out = []
        for task in manager.tasks.values():
            if category is not None and task.category != category:
                continue
            if app is not None and app not in task.apps:
                continue
            if split is not None and task.split != split:
                continue
            out.append(task.public())
        return out

    @app.get("/tasks/{task_id}", response_model=TaskInfo, responses=ERRORS, tags=["tasks"])
    async def get_task(task_id: str) -> dict:
        task = manager.tasks.get(task_id)
        if task is None:
            raise ApiError(404, "unknown_task", f"no task '{task_id}'")
        return task.public()

    # The session routes are async and hand their work to the threadpool themselves: one thread
    # hop per request, and the body is returned as built (its shape is the declared response_model,
    # which stays for the OpenAPI schema) instead of being validated again.
    @app.post("/sessions", status_code=201, response_model=SessionCreated, responses=ERRORS, tags=["sessions"])
    async def create_session(body: CreateSession):
        def work() -> dict:
            task = manager.tasks.get(body.task_id)
            if task is None:
                raise ApiError(404, "unknown_task", f"no task '{body.task_id}'")
            try:
                session = manager.create(task, body.mode, body.max_steps)
            except CapacityError as exc:
                raise ApiError(429, "too_many_sessions", str(exc)) from None
            return {
                "session_id": session.id, "task": task.public(), "mode": session.mode,
                "max_steps": session.max_steps, "status": session.status,
                "current_app": session.current_app, "step": session.step_count,
                "tools": session.tools(), "prompt": session.prompt(),
            }

        return FastJSON(await run_in_threadpool(work), status_code=201)

    @app.post("/sessions/{session_id}/actions", response_model=ActionResponse, responses=ERRORS, tags=["sessions"])
    async def act(session_id: str, body: ActionRequest):
        def work() -> dict:
            session = session_or_404(session_id)
            return run_step(session, lambda: session.step(body.app, body.action, body.arguments()))

        return FastJSON(await run_in_threadpool(work))

    @app.post("/sessions/{session_id}/finish", response_model=ActionResponse, responses=ERRORS, tags=["sessions"])
    async def finish(session_id: str, body: FinishRequest | None = Body(None)):
        answer = body.answer if body is not None else None

        def work() -> dict:
            session = session_or_404(session_id)
            return run_step(session, lambda: session.finish(answer))

        return FastJSON(await run_in_threadpool(work))

    @app.get("/sessions/{session_id}", response_model=SessionInfo, responses=ERRORS, tags=["sessions"])
    async def get_session(session_id: str):
        def work() -> dict:
            session = session_or_404(session_id)
            out = session.snapshot()
            out["office_available"] = manager.has_office(session.id)
            return out

        return FastJSON(await run_in_threadpool(work))

    @app.get("/sessions/{session_id}/files", response_model=list[FileInfo], responses=ERRORS, tags=["sessions"])
    def list_files(session_id: str) -> list[dict]:
        session = session_or_404(session_id)
        with session.lock:
            office = office_or_410(session)
            return [{"path": p, "size": (office.root / p).stat().st_size} for p in office.files()]

    @app.get("/sessions/{session_id}/files/{path:path}", responses={**ERRORS, 200: {"content": {"application/octet-stream": {}}}},
             tags=["sessions"])
    def download(session_id: str, path: str):
        session = session_or_404(session_id)
        with session.lock:
            office = office_or_410(session)
            try:
                real = office.resolve(path)
            except OpError as exc:
                status = 403 if exc.code == "path_outside_office" else 400
                raise ApiError(status, exc.code, exc.message) from None
            if not real.is_file():
                raise ApiError(404, "file_not_found", f"no file '{path}' in the office")
            data = real.read_bytes()
        media = mimetypes.guess_type(real.name)[0] or "application/octet-stream"
        return Response(content=data, media_type=media,
                        headers={"Content-Disposition": f'attachment; filename="{_header_safe(real.name)}"'})

    @app.delete("/sessions/{session_id}", response_model=Deleted, responses=ERRORS, tags=["sessions"])
    def delete_session(session_id: str) -> dict:
        try:
            manager.delete(session_id)
        except KeyError:
            raise ApiError(404, "unknown_session", f"no session '{session_id}'") from None
        return {"session_id": session_id, "deleted": True}

    return app


def _header_safe(name: str) -> str:
    return "".join(c if 32 <= ord(c) < 127 and c not in '"\\' else "_" for c in name)
