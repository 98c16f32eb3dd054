"""MCP over streamable HTTP at ``/mcp``: the same sessions as the HTTP API, as MCP tools.

Agent frameworks connect tools through MCP; this serves them the session rules unchanged. A
connection starts unbound and sees ``start_task`` and ``list_tasks``; once a task is started it
sees exactly the tools the session allows now (``Session.tools()``, the one source of the OpenAI
tools: same names, descriptions and JSON schemas), and when a step changes them (``system_switch_app``)
the server sends ``notifications/tools/list_changed``; tool results carry the step's outcome, never
the tools (a client lists them again on the notification). Once that session has ended (finished, stagnated, step
limit, expired) the connection sees ``start_task`` again and may run another task. A failed action is a tool result with ``isError`` and
the HTTP observation's code and message; ``system_finish_task`` returns the evaluation. The task's
prompt is an MCP prompt and the office files are read-only ``office://`` resources.

Built on the official ``mcp`` SDK's low-level server (tools change per connection, which its
decorator API does not model). State is kept per MCP session (``Mcp-Session-Id``), so the server
speaks the handshake era of the protocol, where sessions exist. ``officesim mcp`` (runner/
mcp_command.py) relays stdio to this endpoint.
"""

from __future__ import annotations

import base64
import errno
import json
import mimetypes
import os
import threading
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator
from urllib.parse import quote, unquote

import anyio.to_thread
import mcp_types as types
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND
from starlette.responses import Response

from officesim.apps import apps_for
from officesim.apps.registry import DEFAULT_MODE, MODES
from officesim.server.manager import CapacityError, Hold, SessionManager
from officesim.server.mcp_mount import PATH  # noqa: F401  (the route's one name)
from officesim.server.routes.common import error_response
from officesim.apps.toolnames import split_tool_name
from officesim.server.session import Session, SessionEnded
from officesim.testbed import safefs
from officesim.server.textcheck import (bad_unicode_message, clean, lone_surrogate, may_hold_lone_surrogate,
                                        replace_lone_surrogates)

SCHEME = "office://"
MAX_RESOURCE_BYTES = 16 << 20  # a resource read returns the whole file in one message
SESSION_HEADER = "mcp-session-id"
PROMPT_NAME = "task"

INSTRUCTIONS = ("A simulated office. Call list_tasks to see the tasks and start_task to begin one; the task's "
                "instruction comes back, and the tools become the office's (switch apps with system_switch_app, "
                "end with system_finish_task, which returns the evaluation).")

# The two tools of a connection that has no task yet (the session's tools come from the registry).
START_TOOLS = (
    types.Tool(name="start_task", description="Start a session on one task; returns its instruction. The tools "
                                              "then become what the session allows.",
               input_schema={"type": "object", "required": ["task_id"], "additionalProperties": False, "properties": {
                   "task_id": {"type": "string", "description": "id of the task (see list_tasks)"},
                   "mode": {"anyOf": [{"type": "string", "enum": list(MODES)}, {"type": "null"}], "default": None,
                            "description": f"how operations are restricted (default {DEFAULT_MODE})"}}}),
    types.Tool(name="list_tasks", description="List the tasks (id, category, apps, instruction).",
               input_schema={"type": "object", "additionalProperties": False, "properties": {
                   "category": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None,
                                "description": "only tasks of this category (1, 2 or 3)"},
                   "app": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None,
                           "description": "only tasks that use this app"}}}),
)


class ToolError(Exception):
    """A tool call refused with a code, answered as a result with ``isError`` (never a protocol error)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def evaluation_text(evaluation: dict) -> str:
    """A readable line of an evaluation, beside its structured form."""
    verdict = "passed" if evaluation.get("passed") else "failed"
    text = (f"Evaluation: {verdict} (score {evaluation.get('score')}, status {evaluation.get('status')}, "
            f"checks {evaluation.get('checks_passed')}/{evaluation.get('checks_total')})")
    failed = [c for c in evaluation.get("checks") or [] if isinstance(c, dict) and not c.get("passed")]
    for check in failed[:10]:
        text += f"\n- failed: {check.get('check')}: {check.get('message') or ''}".rstrip(": ")
    return text


def _tool(openai_tool: dict) -> types.Tool:
    fn = openai_tool["function"]
    return types.Tool(name=fn["name"], description=fn["description"], input_schema=fn["parameters"])


def _error_result(code: str, message: str) -> types.CallToolResult:
    structured = {"ok": False, "error": {"code": code, "message": message}}
    return types.CallToolResult(content=[types.TextContent(text=f"Error: {message}")],
                                structured_content=structured, is_error=True)


async def _read_body(receive: Any, limit: int) -> tuple[bytes | None, Any]:
    """The request's body (None past ``limit`` bytes or on a disconnect) and a ``receive`` that
    hands the same messages to the SDK again."""
    messages: list[dict] = []
    size, more = 0, True
    while more and size <= limit:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        size += len(message.get("body", b""))
        more = message.get("more_body", False)
    complete = not more and size <= limit and messages and messages[-1]["type"] == "http.request"
    body = b"".join(m.get("body", b"") for m in messages) if complete else None

    async def replay() -> Any:
        return messages.pop(0) if messages else await receive()

    return body, replay


def _bad_unicode_answer(body: bytes, has_session: bool) -> Response | None:
    """The answer to a JSON-RPC message holding a lone surrogate, which the SDK's parser would refuse
    as a bare parse error: a ``tools/call`` of a connection gets a tool result with ``isError`` and
    the code ``bad_unicode``, any other request a JSON-RPC error (HTTP 400); both name where the bad
    text is. None when the body holds none (or is no JSON: the SDK answers that)."""
    if not may_hold_lone_surrogate(body):
        return None
    try:
        message = json.loads(body)
    except ValueError:
        return None
    if not isinstance(message, dict):
        where = lone_surrogate(message, "the message")
        request_id = None
    else:
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        where = None
        if message.get("method") == "tools/call":  # named as the tool's arguments, as a session's errors do
            where = lone_surrogate(params.get("arguments"), "arguments") or lone_surrogate(params.get("name"),
                                                                                          "the tool name")
        where = where or lone_surrogate(message)
        request_id = message.get("id")
        if isinstance(request_id, bool) or not isinstance(request_id, (int, str)) or lone_surrogate(request_id):
            request_id = None
    if where is None:
        return None
    text = bad_unicode_message(where)
    if request_id is not None and has_session and message.get("method") == "tools/call":
        reply = types.JSONRPCResponse(jsonrpc="2.0", id=request_id, result=_error_result("bad_unicode", text).model_dump(
            by_alias=True, mode="json", exclude_none=True))
        return Response(reply.model_dump_json(by_alias=True, exclude_none=True), media_type="application/json")
    error = types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=INVALID_PARAMS, message=text))
    return Response(error.model_dump_json(by_alias=True, exclude_none=True), status_code=400,
                    media_type="application/json")


class CappedSessions(StreamableHTTPSessionManager):
    """The SDK's session manager with every MCP session holding a slot of the server's one cap
    (``SessionManager.hold``): HTTP sessions and MCP connections are counted together, and the
    officesim session a connection starts runs in its connection's slot. Past the cap a new
    connection gets the SDK's 503."""

    def __init__(self, *args: Any, manager: SessionManager, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.manager = manager
        self.holds: dict[str, Hold] = {}  # MCP session id -> its slot

    def _admit_session(self, requestor: Any) -> Any:
        try:
            hold = self.manager.hold()
        except CapacityError:
            return None
        transport = super()._admit_session(requestor)
        if transport is None:
            self.manager.release(hold)
        else:
            self.holds[transport.mcp_session_id] = hold
        return transport

    async def _discard_session(self, session_id: str, transport: Any) -> None:
        hold = self.holds.pop(session_id, None)
        if hold is not None:
            self.manager.release(hold)
        await super()._discard_session(session_id, transport)

    def release_all(self) -> None:
        """The app stops serving MCP: every slot still held is free."""
        for key in list(self.holds):
            hold = self.holds.pop(key, None)
            if hold is not None:
                self.manager.release(hold)


class NotifyingServer(Server):
    """The SDK's low-level server, announcing that tools, prompts and resources change, and
    speaking the handshake era only (its sessions hold the task a connection runs): a client that
    probes for the 2026 per-request era falls back to the initialize handshake."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.add_request_handler("server/discover", types.RequestParams, _no_discover)

    def create_initialization_options(self, notification_options=None, *args, **kwargs):
        options = notification_options or NotificationOptions(True, True, True)
        return super().create_initialization_options(options, *args, **kwargs)


async def _no_discover(ctx: Any, params: Any) -> Any:
    raise MCPError(METHOD_NOT_FOUND, "officesim serves MCP through the initialize handshake")


class OfficeMCP:
    """The MCP face of one ``SessionManager``: the ASGI endpoint of ``/mcp`` and the sessions it runs."""

    def __init__(self, manager: SessionManager, version: str = ""):
        self.manager = manager
        self._bound: dict[str, str] = {}  # MCP session id -> officesim session id
        self._lock = threading.Lock()
        self._starting: dict[str, anyio.Lock] = {}  # MCP session id -> held while start_task runs on it
        self.server = NotifyingServer(
            "officesim", version=version, instructions=INSTRUCTIONS,
            on_list_tools=self._list_tools, on_call_tool=self._call_tool,
            on_list_resources=self._list_resources, on_read_resource=self._read_resource,
            on_list_prompts=self._list_prompts, on_get_prompt=self._get_prompt,
        )
        self.sessions: CappedSessions | None = None  # while the app runs (``running``)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Serve MCP sessions while the app runs (its lifespan). The SDK's session manager runs once,
        so each run of the app (a server, a test client) gets a fresh one. MCP sessions are held to the
        server's own limits, not the SDK's: each open one holds a slot of ``--max-sessions``, the cap HTTP
        sessions count under too (a new one past it gets 503), and each is closed after ``--idle-timeout``
        without a request."""
        settings = self.manager.settings
        sessions = self.sessions = CappedSessions(
            app=self.server, stateless=False, max_sessions=None, manager=self.manager,
            session_idle_timeout=settings.idle_timeout if settings.idle_timeout > 0 else None)
        try:
            async with sessions.run():
                yield
        finally:
            self.sessions = None
            sessions.release_all()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """The ASGI endpoint of ``/mcp``; requests are guarded by the app's Bearer token (server/app.py),
        as on every route but /health."""
        sessions = self.sessions
        if sessions is None:
            await error_response(503, "unavailable", "the server is not running MCP sessions now")(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        if scope.get("method") == "POST":  # text that is not Unicode is refused here, naming where it is
            body, receive = await _read_body(receive, sessions.max_request_body_size)
            refusal = _bad_unicode_answer(body, SESSION_HEADER.encode() in headers) if body else None
            if refusal is not None:
                await refusal(scope, receive, send)
                return
            if SESSION_HEADER.encode() not in headers:  # a new connection: say why when the cap is reached
                try:
                    self.manager.check_room()
                except CapacityError as exc:
                    error = types.JSONRPCError(jsonrpc="2.0", id=None,
                                               error=types.ErrorData(code=INTERNAL_ERROR, message=str(exc)))
                    await Response(error.model_dump_json(by_alias=True, exclude_none=True), status_code=503,
                                   media_type="application/json")(scope, receive, send)
                    return
        await sessions.handle_request(scope, receive, send)

    # -- which session a connection drives --------------------------------------------------------
    @staticmethod
    def _connection(ctx: Any) -> str:
        request = getattr(ctx, "request", None)
        key = request.headers.get(SESSION_HEADER) if request is not None else None
        if not key:
            raise MCPError(INVALID_PARAMS, "officesim needs a stateful MCP session (an Mcp-Session-Id)")
        return key

    def _session(self, ctx: Any) -> Session | None:
        with self._lock:
            session_id = self._bound.get(self._connection(ctx))
        if session_id is None:
            return None
        try:
            return self.manager.get(session_id)
        except KeyError:  # deleted or forgotten long after it ended
            return None

    # -- tools ----------------------------------------------------------------------------------
    async def _list_tools(self, ctx: Any, params: Any) -> types.ListToolsResult:
        session = self._session(ctx)
        if session is None or session.done:
            return types.ListToolsResult(tools=list(START_TOOLS))
        return types.ListToolsResult(tools=[_tool(t) for t in session.tools()])

    async def _call_tool(self, ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        args = params.arguments if params.arguments is not None else {}
        session = self._session(ctx)
        try:
            where = lone_surrogate(args, "arguments") or lone_surrogate(params.name, "the tool name")
            if where:  # refused in ``__call__`` already; kept out of the session whatever the transport
                raise ToolError("bad_unicode", bad_unicode_message(where))
            if session is None or session.done:
                if params.name == "start_task":
                    return await self._start_task(ctx, args)
                if params.name == "list_tasks":
                    return self._list_tasks(args)
                if session is None:
                    raise ToolError("no_task", f"no task is started on this connection: call start_task first "
                                               f"(then '{params.name}' is one of the session's tools if it exists)")
            elif params.name in ("start_task", "list_tasks"):
                raise ToolError("task_already_started", f"this connection runs session {session.id} (task "
                                                        f"'{session.task.id}') until it ends; finish it first")
            return await self._act(ctx, session, params.name, args)
        except ToolError as exc:
            return _error_result(exc.code, exc.message)

    async def _start_task(self, ctx: Any, args: dict) -> types.CallToolResult:
        task_id, mode = args.get("task_id"), args.get("mode")
        unexpected = sorted(set(args) - {"task_id", "mode"})
        if unexpected or not isinstance(task_id, str) or (mode is not None and mode not in MODES):
            problems = [f"unexpected argument '{a}'" for a in unexpected]
            if not isinstance(task_id, str):
                problems.append("argument 'task_id': a task id (text) is required")
            if mode is not None and mode not in MODES:
                problems.append(f"argument 'mode': one of {', '.join(MODES)}")
            raise ToolError("bad_arguments", "; ".join(problems))
        task = self.manager.tasks.get(task_id)
        if task is None:
            raise ToolError("unknown_task", f"no task '{task_id}'")
        key = self._connection(ctx)
        starting = self._starting.setdefault(key, anyio.Lock())
        try:
            async with starting:  # one start at a time per connection: concurrent calls orphan no session
                current = self._session(ctx)
                if current is not None and not current.done:
                    raise ToolError("task_already_started", f"this connection runs session {current.id} (task "
                                                            f"'{current.task.id}') until it ends; finish it first")
                hold = self.sessions.holds.get(key) if self.sessions is not None else None
                try:  # in the connection's own slot of the cap
                    session = await anyio.to_thread.run_sync(
                        lambda: self.manager.create(task, mode or DEFAULT_MODE, task.step_budget, hold=hold))
                except CapacityError as exc:
                    raise ToolError("too_many_sessions", str(exc)) from None
                with self._lock:
                    self._bound[key] = session.id
                    self._forget_gone()
        finally:
            if not starting.locked() and not starting.statistics().tasks_waiting:
                self._starting.pop(key, None)
        for note in (types.ToolListChangedNotification(), types.PromptListChangedNotification(),
                     types.ResourceListChangedNotification()):
            await ctx.session.send_notification(note, related_request_id=ctx.request_id)
        structured = {"session_id": session.id, "task": task.public(), "mode": session.mode,
                      "max_steps": session.max_steps, "current_app": session.current_app,
                      "prompt": session.tool_prompt()}
        return types.CallToolResult(content=[types.TextContent(text=session.tool_prompt())],
                                    structured_content=structured)

    def _forget_gone(self) -> None:
        """Drop bindings whose session the manager no longer has (called under the lock)."""
        for key, session_id in list(self._bound.items()):
            try:
                self.manager.get(session_id)
            except KeyError:
                del self._bound[key]

    def _list_tasks(self, args: dict) -> types.CallToolResult:
        category, app = args.get("category"), args.get("app")
        if (category is not None and not isinstance(category, int)) or (app is not None and not isinstance(app, str)) \
                or set(args) - {"category", "app"}:
            raise ToolError("bad_arguments", "list_tasks takes 'category' (an integer) and 'app' (text), both optional")
        rows = [t.public() for t in self.manager.tasks.values()
                if (category is None or t.category == category) and (app is None or app in t.apps)]
        text = "\n".join(f"{r['id']} (category {r['category']}, apps {', '.join(r['apps'])}): {r['instruction']}"
                         for r in rows) or "no task matches"
        return types.CallToolResult(content=[types.TextContent(text=text)], structured_content={"tasks": rows})

    async def _act(self, ctx: Any, session: Session, name: str, args: Any) -> types.CallToolResult:
        # an unknown name keeps the app it begins with, so the session's error names what is wrong; it
        # counts as a step, as over HTTP
        app, action = split_tool_name(name, session.toolset)
        try:
            result = await anyio.to_thread.run_sync(lambda: session.step(app, action, args))
        except SessionEnded as exc:
            raise ToolError("session_ended", str(exc)) from None
        out = clean(result.to_dict())  # never the tools: a client lists them again on list_changed; U+FFFD
        out["session_id"] = session.id  # for any lone surrogate (an undecodable file name), or it would not encode
        changed = await anyio.to_thread.run_sync(lambda: "tools" in session.parts_after(result))
        if changed or result.done:  # the switched app's tools, or start_task again
            await ctx.session.send_notification(types.ToolListChangedNotification(), related_request_id=ctx.request_id)
        text = out["observation"]
        if out.get("evaluation"):
            text = f"{text}\n\n{evaluation_text(out['evaluation'])}".strip()
        return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=out,
                                    is_error=not result.ok)

    # -- the task prompt ------------------------------------------------------------------------
    async def _list_prompts(self, ctx: Any, params: Any) -> types.ListPromptsResult:
        session = self._session(ctx)
        if session is None:
            return types.ListPromptsResult(prompts=[])
        return types.ListPromptsResult(prompts=[types.Prompt(
            name=PROMPT_NAME, description=f"The instruction of task '{session.task.id}' for a model calling tools")])

    async def _get_prompt(self, ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        session = self._session(ctx)
        if session is None or params.name != PROMPT_NAME:
            raise MCPError(INVALID_PARAMS, f"no prompt '{params.name}'" + (" (start a task first)" if session is None else ""))
        return types.GetPromptResult(description=f"task {session.task.id}", messages=[
            types.PromptMessage(role="user", content=types.TextContent(text=session.tool_prompt()))])

    # -- office files, read-only ----------------------------------------------------------------
    def _office(self, ctx: Any) -> tuple[Session, Any]:
        session = self._session(ctx)
        if session is None:
            raise MCPError(INVALID_PARAMS, "no task is started on this connection: call start_task first")
        if not self.manager.has_office(session.id):
            raise MCPError(INVALID_PARAMS, f"the office of session '{session.id}' was removed ({session.status})")
        return session, session.office

    async def _list_resources(self, ctx: Any, params: Any) -> types.ListResourcesResult:
        if self._session(ctx) is None:
            return types.ListResourcesResult(resources=[])

        def listing() -> list[types.Resource]:
            session, office = self._office(ctx)
            with session.lock:
                # a name of undecodable bytes keeps them in its URI (%FF) and shows them as U+FFFD
                return [types.Resource(uri=SCHEME + quote(p, safe="/", errors="surrogateescape"),
                                       name=replace_lone_surrogates(p), size=os.stat(office.root / p, follow_symlinks=False).st_size,
                                       mime_type=mimetypes.guess_type(p)[0] or "application/octet-stream")
                        for p in office.files()]

        return types.ListResourcesResult(resources=await anyio.to_thread.run_sync(listing))

    async def _read_resource(self, ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        if not uri.startswith(SCHEME):
            raise MCPError(INVALID_PARAMS, f"resources are {SCHEME}<path in the office>, not '{uri}'")
        path = unquote(uri[len(SCHEME):], errors="surrogateescape")  # bytes of a name as listed
        shown = replace_lone_surrogates(path)

        def read() -> bytes:
            from officesim.apps import OpError

            session, office = self._office(ctx)
            with session.lock:
                try:
                    real = office.resolve(path)
                except OpError as exc:
                    raise MCPError(INVALID_PARAMS, f"{exc.code}: {replace_lone_surrogates(exc.message)}") from None
                try:  # opened once beneath the office, no link followed, the descriptor checked
                    return safefs.read_beneath(office.root, office.inner(real), MAX_RESOURCE_BYTES)
                except OSError as exc:
                    if exc.errno == errno.EFBIG:
                        raise MCPError(INVALID_PARAMS, f"'{shown}' is larger than {MAX_RESOURCE_BYTES >> 20} MB; "
                                                       f"download it through GET /sessions/{session.id}/files/") from None
                    raise MCPError(INVALID_PARAMS, f"file_not_found: no file '{shown}' in the office") from None

        data = await anyio.to_thread.run_sync(read)
        mime = mimetypes.guess_type(path)[0] or "application/octet-stream"
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is not None and (mime.startswith("text/") or mime in ("application/json", "text/calendar")
                                 or path.endswith((".ics", ".eml", ".csv", ".txt", ".md", ".json"))):
            return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=text)])
        return types.ReadResourceResult(contents=[types.BlobResourceContents(
            uri=uri, mime_type=mime, blob=base64.b64encode(data).decode("ascii"))])

