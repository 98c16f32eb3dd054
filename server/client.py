"""A small typed client of the officesim HTTP API, for agents, the validator and the eval runner.

Responses are returned as plain dicts (the API's JSON); errors raise ``OfficeError`` carrying the
HTTP status, the API's error code and its message (and the request's method and path). One
``httpx.Client`` (a keep-alive connection pool) is reused for every call; the client is thread-safe
as httpx's is.

Timeouts scale with the work a call does: an action or a read waits ``timeout`` (default 120 s,
``OFFICESIM_HTTP_TIMEOUT``), while creating a session (which may build a world's template) and finishing
one (which grades it, parsing the whole office on a world's first finish) wait ``session_timeout``
(default 600 s, ``OFFICESIM_SESSION_TIMEOUT``). Every call also takes a ``timeout`` of its own.
"""

from __future__ import annotations

import copy
import os
import socket
from typing import Any

import httpx
import orjson

# Requests go out as headers then body; without TCP_NODELAY, Nagle's algorithm holds the body
# until the server's delayed ACK (about 40 ms per request on Linux).
SOCKET_OPTIONS = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]


class OfficeError(Exception):
    """An error answer of the API: ``status`` (HTTP), ``code`` and ``message``; ``method`` and ``path`` of
    the request when the client knows them."""

    def __init__(self, status: int, code: str, message: str, *, method: str | None = None, path: str | None = None):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.method = method
        self.path = path


ACTION_TIMEOUT_S = 120.0  # an action, a read, a deletion
SESSION_TIMEOUT_S = 600.0  # creating a session (a world's first build) and finishing it (grading)
CONNECT_TIMEOUT_S = 30.0  # reaching the server at all


def _env_seconds(name: str, default: float) -> float:
    """A positive number of seconds from the environment, else ``default``."""
    try:
        value = float(os.environ.get(name) or default)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds, not {os.environ.get(name)!r}") from None
    if value <= 0:
        raise ValueError(f"{name} must be positive, not {value}")
    return value


def default_timeouts() -> tuple[float, float]:
    """(action timeout, session timeout): ``OFFICESIM_HTTP_TIMEOUT`` and ``OFFICESIM_SESSION_TIMEOUT``, else
    120 s and 600 s."""
    return (_env_seconds("OFFICESIM_HTTP_TIMEOUT", ACTION_TIMEOUT_S),
            _env_seconds("OFFICESIM_SESSION_TIMEOUT", SESSION_TIMEOUT_S))


# Shorter than the server's keep-alive (server/app.py KEEP_ALIVE_S), so an idle connection is dropped
# here before the server closes it: no request is ever written into a connection being closed.
KEEPALIVE_EXPIRY_S = 2.0


def _include(tools: bool, data: bool = False) -> dict | None:
    asked = ",".join(name for name, wanted in (("tools", tools), ("data", data)) if wanted)
    return {"include": asked} if asked else None


class OfficeClient:
    """Talks to one officesim server."""

    def __init__(self, base_url: str, token: str | None = None, timeout: float | None = None,
                 transport: httpx.BaseTransport | None = None, *, session_timeout: float | None = None):
        """``timeout``: seconds an action or a read may take; ``session_timeout``: seconds creating or
        finishing a session may take (never less than ``timeout``); None: the defaults (``default_timeouts``)."""
        action_default, session_default = default_timeouts()
        self.timeout = float(timeout or action_default)
        self.session_timeout = max(self.timeout, float(session_timeout or max(session_default, self.timeout)))
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if transport is None:
            transport = httpx.HTTPTransport(socket_options=SOCKET_OPTIONS,
                                            limits=httpx.Limits(max_connections=100, max_keepalive_connections=100,
                                                                keepalive_expiry=KEEPALIVE_EXPIRY_S))
        self._http = httpx.Client(base_url=base_url.rstrip("/"), headers=headers, timeout=self._timeout(self.timeout),
                                  transport=transport)

    @staticmethod
    def _timeout(seconds: float) -> httpx.Timeout:
        return httpx.Timeout(seconds, connect=min(seconds, CONNECT_TIMEOUT_S))

    def with_timeouts(self, factor: float) -> "OfficeClient":
        """This client with its timeouts multiplied by ``factor``, on the same connections (close the
        original, not this view)."""
        view = copy.copy(self)
        view.timeout, view.session_timeout = self.timeout * factor, self.session_timeout * factor
        return view

    # -- plumbing --------------------------------------------------------------------------------
    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "OfficeClient":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _request(self, method: str, path: str, *, timeout: float | None = None, **kwargs: Any) -> httpx.Response:
        """One request; ``timeout`` None: the action timeout. A timeout or a broken connection raises
        httpx's exception (its ``request`` names the call), an error answer ``OfficeError``."""
        response = self._http.request(method, path, timeout=self._timeout(timeout or self.timeout), **kwargs)
        if response.status_code >= 400:
            try:
                err = response.json()["error"]
                code, message = str(err["code"]), str(err["message"])
            except (ValueError, KeyError, TypeError):
                code, message = "http_error", response.text[:500]
            raise OfficeError(response.status_code, code, message, method=method, path=path)
        return response

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        return orjson.loads(self._request(method, path, **kwargs).content)  # several times json's speed

    # -- service and tasks -----------------------------------------------------------------------
    def health(self) -> dict:
        return self._json("GET", "/health")

    def apps(self, toolset: str | None = None) -> list[dict]:
        """The apps of a tool set (the server's default, OfficeBench's, when None)."""
        return self._json("GET", "/apps", params={"toolset": toolset} if toolset else None)

    def tasks(self, category: int | None = None, app: str | None = None, split: str | None = None) -> list[dict]:
        params = {k: v for k, v in {"category": category, "app": app, "split": split}.items() if v is not None}
        return self._json("GET", "/tasks", params=params)

    def task(self, task_id: str) -> dict:
        return self._json("GET", f"/tasks/{task_id}")

    # -- sessions --------------------------------------------------------------------------------
    def create_session(self, task_id: str, mode: str | None = None, max_steps: int | None = None,
                       *, timeout: float | None = None) -> dict:
        """Start a session; returns session_id, task, current_app, tools, prompt, tool_prompt and tools_version.

        ``mode`` is one of the registry's MODES; None leaves it to the server (its DEFAULT_MODE), so the
        client need not load the apps to know it; ``max_steps`` None leaves the task's own step limit.
        It waits the session timeout (a world's first session builds its template) unless ``timeout`` says.
        """
        body: dict[str, Any] = {"task_id": task_id}
        if max_steps is not None:
            body["max_steps"] = max_steps
        if mode is not None:
            body["mode"] = mode
        return self._json("POST", "/sessions", json=body, timeout=timeout or self.session_timeout)

    def act(self, session_id: str, app: str | None, action: str, args: dict | None = None,
            include_tools: bool = False, *, include_data: bool = False, timeout: float | None = None) -> dict:
        """Run one action; returns ok, observation, data (null unless ``include_data``: the observation
        says the same in text), error, current_app, step, done, status and tools_version, plus tools,
        prompt and tool_prompt when the action changed them (or with ``include_tools``). ``app`` may be
        None when ``action`` is a tool name such as ``excel_set_cell``. ``finish_task`` ends the session
        and grades it, so it waits the session timeout."""
        body = {"app": app, "action": action, "args": args or {}}
        return self._json("POST", f"/sessions/{session_id}/actions", json=body,
                          params=_include(include_tools, include_data), timeout=timeout or self._action_timeout(action))

    def act_raw(self, session_id: str, body: dict, include_tools: bool = False, *, include_data: bool = False,
                timeout: float | None = None) -> dict:
        """Send an action body as given, e.g. the flat OfficeBench form ``{"app", "action", "<arg>": ...}``."""
        return self._json("POST", f"/sessions/{session_id}/actions", json=body,
                          params=_include(include_tools, include_data),
                          timeout=timeout or self._action_timeout(body.get("action") if isinstance(body, dict) else None))

    def _action_timeout(self, action: Any) -> float:
        """An action that may end the session (finish_task, a program, which may finish) grades it: the
        session timeout; any other: the action timeout."""
        return self.session_timeout if action in ("finish_task", "run_code") or (
            isinstance(action, str) and action.endswith("finish_task")) else self.timeout

    def finish(self, session_id: str, answer: Any = None, *, timeout: float | None = None) -> dict:
        """End the session (as finish_task); the response carries the evaluation. It waits the session
        timeout (grading a world's office the first time takes long) unless ``timeout`` says."""
        return self._json("POST", f"/sessions/{session_id}/finish", json={"answer": answer},
                          timeout=timeout or self.session_timeout)

    def get_session(self, session_id: str, include_tools: bool = False, *, timeout: float | None = None) -> dict:
        """The session and its history; with ``include_tools`` also its current tools and prompts."""
        return self._json("GET", f"/sessions/{session_id}", params=_include(include_tools), timeout=timeout)

    def files(self, session_id: str) -> list[dict]:
        """The office's files as ``[{"path", "size"}]``."""
        return self._json("GET", f"/sessions/{session_id}/files")

    def download(self, session_id: str, path: str) -> bytes:
        return self._request("GET", f"/sessions/{session_id}/files/{path.lstrip('/')}").content

    def delete(self, session_id: str, *, timeout: float | None = None) -> dict:
        return self._json("DELETE", f"/sessions/{session_id}", timeout=timeout)
