"""A small typed client of the officesim HTTP API, for agents, the validator and the eval runner.

Responses are returned as plain dicts (the API's JSON); errors raise ``OfficeError`` carrying the
HTTP status, the API's error code and its message. One ``httpx.Client`` (a keep-alive connection
pool) is reused for every call; the client is thread-safe as httpx's is.
"""

from __future__ import annotations

from typing import Any

import socket

import httpx
import orjson

# Requests go out as headers then body; without TCP_NODELAY, Nagle's algorithm holds the body
# until the server's delayed ACK (about 40 ms per request on Linux).
SOCKET_OPTIONS = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]


class OfficeError(Exception):
    """An error answer of the API: ``status`` (HTTP), ``code`` and ``message``."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


# Shorter than the server's keep-alive (server/app.py KEEP_ALIVE_S), so an idle connection is dropped
# here before the server closes it: no request is ever written into a connection being closed.
KEEPALIVE_EXPIRY_S = 2.0


def _include(tools: bool) -> dict | None:
    return {"include": "tools"} if tools else None


class OfficeClient:
    """Talks to one officesim server."""

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 120.0,
                 transport: httpx.BaseTransport | None = None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if transport is None:
            transport = httpx.HTTPTransport(socket_options=SOCKET_OPTIONS,
                                            limits=httpx.Limits(max_connections=100, max_keepalive_connections=100,
                                                                keepalive_expiry=KEEPALIVE_EXPIRY_S))
        self._http = httpx.Client(base_url=base_url.rstrip("/"), headers=headers, timeout=timeout,
                                  transport=transport)

    # -- plumbing --------------------------------------------------------------------------------
    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "OfficeClient":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        response = self._http.request(method, path, **kwargs)
        if response.status_code >= 400:
            try:
                err = response.json()["error"]
                code, message = str(err["code"]), str(err["message"])
            except (ValueError, KeyError, TypeError):
                code, message = "http_error", response.text[:500]
            raise OfficeError(response.status_code, code, message)
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
    def create_session(self, task_id: str, mode: str | None = None, max_steps: int | None = None) -> dict:
        """Start a session; returns session_id, task, current_app, tools, prompt, tool_prompt and tools_version.

        ``mode`` is one of the registry's MODES; None leaves it to the server (its DEFAULT_MODE), so the
        client need not load the apps to know it; ``max_steps`` None leaves the task's own step limit.
        """
        body: dict[str, Any] = {"task_id": task_id}
        if max_steps is not None:
            body["max_steps"] = max_steps
        if mode is not None:
            body["mode"] = mode
        return self._json("POST", "/sessions", json=body)

    def act(self, session_id: str, app: str | None, action: str, args: dict | None = None,
            include_tools: bool = False) -> dict:
        """Run one action; returns ok, observation, data, error, current_app, step, done, status and
        tools_version, plus tools, prompt and tool_prompt when the action changed them (or with
        ``include_tools``). ``app`` may be None when ``action`` is a tool name such as ``excel_set_cell``."""
        body = {"app": app, "action": action, "args": args or {}}
        return self._json("POST", f"/sessions/{session_id}/actions", json=body, params=_include(include_tools))

    def act_raw(self, session_id: str, body: dict, include_tools: bool = False) -> dict:
        """Send an action body as given, e.g. the flat OfficeBench form ``{"app", "action", "<arg>": ...}``."""
        return self._json("POST", f"/sessions/{session_id}/actions", json=body, params=_include(include_tools))

    def finish(self, session_id: str, answer: Any = None) -> dict:
        """End the session (as finish_task); the response carries the evaluation."""
        return self._json("POST", f"/sessions/{session_id}/finish", json={"answer": answer})

    def get_session(self, session_id: str, include_tools: bool = False) -> dict:
        """The session and its history; with ``include_tools`` also its current tools and prompts."""
        return self._json("GET", f"/sessions/{session_id}", params=_include(include_tools))

    def files(self, session_id: str) -> list[dict]:
        """The office's files as ``[{"path", "size"}]``."""
        return self._json("GET", f"/sessions/{session_id}/files")

    def download(self, session_id: str, path: str) -> bytes:
        return self._request("GET", f"/sessions/{session_id}/files/{path.lstrip('/')}").content

    def delete(self, session_id: str) -> dict:
        return self._json("DELETE", f"/sessions/{session_id}")
