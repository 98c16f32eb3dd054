"""What the routers share: the JSON error shape, the fast JSON response and the dependencies."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated, Any, Callable, TypeVar

from fastapi import Depends, Request
from fastapi.responses import JSONResponse

from officesim.server.jsonbody import dumps
from officesim.server.manager import SessionManager
from officesim.server.models import ErrorResponse
from officesim.server.session import Session
from officesim.server.textcheck import bad_unicode_message, lone_surrogate, may_hold_lone_surrogate

try:
    VERSION = version("officesim")
except PackageNotFoundError:  # running from a source tree without installing
    VERSION = "0.1.0"

# The error statuses a route may answer, for the OpenAPI schema.
ERRORS = {code: {"model": ErrorResponse} for code in (400, 401, 403, 404, 409, 410, 422, 429)}


class FastJSON(JSONResponse):
    """JSON without a second validation pass; values an operation left non-JSON become strings."""

    def render(self, content: Any) -> bytes:
        return dumps(content)


T = TypeVar("T")

# The threads the session routes hand their work to. A plain executor costs a fraction of anyio's
# thread hop (capacity limiter, cancel scope, context variables), which was a good part of a cheap
# action's time in the server process. Its threads mostly wait on a worker process (server/pool.py);
# they are made as requests need them, up to one per live session at the default cap.
_EXECUTOR = ThreadPoolExecutor(max_workers=256, thread_name_prefix="officesim-request")


async def in_thread(fn: Callable[[], T]) -> T:
    """``fn()`` on a request thread, so the event loop never waits on disk or a worker."""
    return await asyncio.get_running_loop().run_in_executor(_EXECUTOR, fn)


class ApiError(Exception):
    """An error answered as JSON with an HTTP status, a code and a message."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def error_response(status: int, code: str, message: str, headers: dict | None = None) -> JSONResponse:
    """The error body; text in it that is not Unicode goes out as U+FFFD (server/jsonbody.py)."""
    return FastJSON({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


async def refuse_bad_unicode(request: Request) -> None:
    """A dependency of every route (``create_app``): a path parameter, query parameter or JSON body
    holding a lone UTF-16 surrogate is refused with 400 ``bad_unicode`` naming where, before the
    route runs, so such text never reaches a session (server/textcheck.py). FastAPI has parsed and
    cached the JSON body by now; a body it could not parse was answered before this runs."""
    for name, value in request.path_params.items():
        where = lone_surrogate(value, f"path parameter '{name}'")
        if where:
            raise ApiError(400, "bad_unicode", bad_unicode_message(where))
    for name, value in request.query_params.multi_items():
        where = lone_surrogate(name, "a query parameter name") or lone_surrogate(value, f"query parameter '{name}'")
        if where:
            raise ApiError(400, "bad_unicode", bad_unicode_message(where))
    body = await request.body()
    if not body or not may_hold_lone_surrogate(body):  # most bodies: no walk
        return
    try:
        parsed = await request.json()
    except ValueError:  # not JSON (a UnicodeDecodeError is one): the route's own validation answers
        return
    where = lone_surrogate(parsed, "body")
    if where:
        raise ApiError(400, "bad_unicode", bad_unicode_message(where))


async def get_manager(request: Request) -> SessionManager:
    """The server's session manager (async: resolving it costs no thread hop)."""
    return request.app.state.manager


Manager = Annotated[SessionManager, Depends(get_manager)]


def session_or_404(manager: SessionManager, session_id: str) -> Session:
    """The session; may run due expiries, so call it from a worker thread."""
    try:
        return manager.get(session_id)
    except KeyError:
        raise ApiError(404, "unknown_session", f"no session '{session_id}'") from None


def office_or_410(manager: SessionManager, session: Session) -> Any:
    if not manager.has_office(session.id):
        raise ApiError(410, "office_removed", f"the office of session '{session.id}' was removed ({session.status})")
    return session.office
