"""Code as action: a session in mode ``code`` runs the agent's Python programs (``system.run_code``).

A program runs in the shell sandbox (testbed/sandbox.py: no network, only its office at /testbed, the
shell's memory, process, file-size limits and the office's disk quota, its own time limit) with a module ``officesim`` preloaded, whose functions are the session's
operations: ``excel.read_file(file_path="data/x.xlsx")`` returns the observation, an error raises
``OfficeError``. The module is generated from the registry (``client_source``), never written by hand.

The channel: two pipes the program inherits, one JSON line per call and per reply. They reach this
session only, and the session answers each call in the step's own thread, through ``Session._run``: so
switch_app's rule holds inside programs (a call outside the current app gets the same
``not_in_current_app`` error) and the calls change the session's state as actions would. A program run
is one step; its output and its calls are the observation and land in the trajectory.

In a server the sandbox is started by a worker of the pool (``WorkerPool.run_sandboxed``), as a shell
command is: programs count against the pool's workers (at most ``program_slots`` at once, so workers
are left for their calls) and die with their worker at the time limit; the channel's descriptors travel
to the worker over its socket. A session without a pool (tests, in-process replay) starts it itself.

Outside the sandbox the same module scripts a session over HTTP: ``client_module(toolset)`` and then
``officesim.connect(base_url, session_id)``; each call is then one action of its own.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import os
import shlex
import threading
import types
from typing import Any, Iterable

from officesim.apps import apps_for
from officesim.apps.registry import DEFAULT_TOOLSET, SYSTEM_APP, ActionResult
from officesim.apps.shell import command_limits
from officesim.server.pool import Breach, PoolClosed
from officesim.testbed.sandbox import FDS, Limits, SandboxError, run_command, with_fds

PROGRAM_TIMEOUT = 30.0  # seconds a program may run, its calls included
CALL_LIMIT = 500  # calls one program may make
CALL_BYTES = 1_000_000  # the largest call (one JSON line) a program may send
RUN_CODE = "run_code"
FINISH = "finish_task"

_RUNTIME = '''
import json as _json
import os as _os


class OfficeError(Exception):
    """An operation failed: ``code`` (tasks/FORMAT.md §2 error codes) and ``message``."""

    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code, self.message = code, message


_UNSET = object()
_transport = None  # set by the sandbox, or by connect()


def _pipes(read_fd, write_fd):
    reader, writer = _os.fdopen(read_fd, "rb"), _os.fdopen(write_fd, "wb", buffering=0)

    def send(body):
        writer.write(_json.dumps(body).encode() + b"\\n")
        line = reader.readline()
        if not line:
            raise OfficeError("session_ended", "the session no longer answers")
        return _json.loads(line)
    return send


def connect(base_url, session_id, token=None):
    """Script a session of an officesim server from your own Python: every call is one action."""
    import urllib.request

    global _transport

    def send(body):
        req = urllib.request.Request(f"{base_url.rstrip('/')}/sessions/{session_id}/actions",
                                     data=_json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {token}"} if token else {})})
        try:
            with urllib.request.urlopen(req) as resp:
                return _json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            detail = _json.loads(exc.read() or b"{}").get("error") or {}
            raise OfficeError(detail.get("code", f"http_{exc.code}"), detail.get("message", str(exc))) from None
    _transport = send


def call(app, action, **args):
    """One operation by name; returns the whole reply ({ok, observation, data, error})."""
    if _transport is None:
        raise OfficeError("not_connected", "call connect(base_url, session_id) first")
    return _transport({"app": app, "action": action, "args": args})


def _call(app, action, args):
    reply = call(app, action, **args)
    if not reply.get("ok"):
        error = reply.get("error") or {}
        raise OfficeError(error.get("code", "error"), error.get("message", reply.get("observation", "")))
    return reply.get("observation")


def _args(**kw):
    return {k: v for k, v in kw.items() if v is not _UNSET}
'''


def _operations(toolset: str) -> Iterable[tuple[str, Any]]:
    for name, app in apps_for(toolset).items():
        for op in app.operations.values():
            if (name, op.name) != (SYSTEM_APP, RUN_CODE):  # a program does not start programs
                yield name, op


def client_source(toolset: str = DEFAULT_TOOLSET) -> str:
    """The ``officesim`` module's source: one class per app, one function per operation (from the registry)."""
    out = [f'"""officesim: the operations of an officesim session (tool set {toolset}) as functions.\n\n'
           'Generated from the operation registry (server/code.py). Each returns the observation; an error\n'
           'raises OfficeError. Inside a code session the channel is set; elsewhere call connect().\n"""', _RUNTIME]
    apps = apps_for(toolset)
    for name in apps:
        out.append(f"\n\nclass {name}:\n    {json.dumps(apps[name].description)}\n")
        for app_name, op in _operations(toolset):
            if app_name != name:
                continue
            params = [p.name if p.default is inspect.Parameter.empty else f"{p.name}=_UNSET" for p in op.params]
            passed = ", ".join(f"{p.name}={p.name}" for p in op.params)
            doc = op.description + "".join(f"\n\n{k}: {v}" for k, v in op.arg_help.items())
            out.append(f"    @staticmethod\n    def {op.name}({', '.join(params)}):\n"
                       f"        {json.dumps(doc)}\n"
                       f"        return _call({name!r}, {op.name!r}, _args({passed}))\n")
    out.append(f"\n\n__all__ = ['OfficeError', 'call', 'connect', {', '.join(repr(n) for n in apps)}]\n")
    return "\n".join(out)


def client_module(toolset: str = DEFAULT_TOOLSET) -> types.ModuleType:
    """The ``officesim`` client module, importable outside the sandbox (then ``connect()`` it)."""
    module = types.ModuleType("officesim_client")
    exec(compile(client_source(toolset), "officesim_client.py", "exec"), module.__dict__)
    return module


def api_listing(toolset: str = DEFAULT_TOOLSET) -> str:
    """The module's functions, one line each, for prompts."""
    lines = []
    for name, op in _operations(toolset):
        params = ", ".join(p.name if p.default is inspect.Parameter.empty else f"{p.name}=None" for p in op.params)
        lines.append(f"{name}.{op.name}({params}): {op.description.split(chr(10) * 2)[0].replace(chr(10), ' ')}")
    return "\n".join(lines)


def _bootstrap(source: str, code: str) -> str:
    """The sandbox's Python: the module from its source, connected to the pipes whose descriptors are
    its two arguments, then the program."""
    return (
        "import sys, types\n"
        "m = types.ModuleType('officesim')\n"
        f"exec(compile({source!r}, 'officesim.py', 'exec'), m.__dict__)\n"
        "m._transport = m._pipes(int(sys.argv[1]), int(sys.argv[2]))\n"
        "sys.modules['officesim'] = m\n"
        "g = {'__name__': '__main__'}\n"
        "exec('from officesim import *', g)\n"
        "del sys, types, m\n"
        f"exec(compile({code!r}, '<program>', 'exec'), g)\n"
    )


def _limits(session: Any) -> Limits:
    """The shell's limits (memory of all processes, processes, file size, the office's disk quota:
    apps/shell.py) with the program's time limit (``code_timeout``)."""
    try:
        timeout = float(session.ctx.settings.get("code_timeout", PROGRAM_TIMEOUT))
    except (TypeError, ValueError):
        timeout = PROGRAM_TIMEOUT
    settings = {**session.ctx.settings, "shell_timeout": max(0.5, timeout)}
    return command_limits(dataclasses.replace(session.ctx, settings=settings))


def run_program(session: Any, code: str) -> tuple[ActionResult, dict | None]:
    """Run ``code`` for ``session`` (its lock held by the caller); returns the step's result, whose data
    holds the calls, and the arguments of a finish_task the program called (None when it did not)."""
    to_session_r, to_session_w = os.pipe()
    to_program_r, to_program_w = os.pipe()
    limits = _limits(session)
    command = f"exec python3 -I -c {shlex.quote(_bootstrap(client_source(session.toolset), code))} {FDS}"
    box: dict = {}

    run = getattr(session, "run_sandboxed", None) or (
        lambda root, command, mode, limits, fds: run_command(root, with_fds(command, fds), mode, limits, pass_fds=fds))

    def sandbox() -> None:
        try:
            box["result"] = run(session.office.root, command, session.ctx.settings.get("shell_mode"), limits,
                                (to_program_r, to_session_w))
        except SandboxError as exc:
            box["error"] = ("sandbox_error", str(exc))
        except Breach as exc:  # the pool's limits: time, memory, its worker crashed, no slot free
            box["error"] = ("resource_limit", f"system.{RUN_CODE}: {exc.message}")
        except PoolClosed:
            box["error"] = ("internal_error", "the server is shutting down; the program did not complete")
        finally:  # the program's ends: once it is gone, the session reads the end of its calls
            os.close(to_session_w)
            os.close(to_program_r)

    thread = threading.Thread(target=sandbox, name="officesim-code", daemon=True)
    thread.start()
    calls: list[dict] = []
    finish: dict | None = None
    with os.fdopen(to_session_r, "rb") as requests, os.fdopen(to_program_w, "wb", buffering=0) as replies:
        while True:
            line = requests.readline(CALL_BYTES + 1)
            if not line:
                break
            reply, finish = _answer(session, line, calls, finish)
            try:
                replies.write(json.dumps(reply, default=str).encode() + b"\n")
            except (BrokenPipeError, OSError):
                break
    thread.join()
    if "error" in box:
        return ActionResult.failure(*box["error"]), None
    res = box["result"]
    data = {"output": res.output, "exit_code": res.exit_code, "timed_out": res.timed_out, "calls": calls}
    if res.stopped:
        failure = ActionResult.failure("resource_limit", f"the program was stopped: {res.stopped}")
        failure.data = data
        return failure, finish
    return ActionResult(ok=True, observation=_observation(res, calls, limits), data=data), finish


def _answer(session: Any, line: bytes, calls: list[dict], finish: dict | None) -> tuple[dict, dict | None]:
    """One call of the program, answered as the session answers an action."""
    try:
        req = json.loads(line)
        app, action, args = req["app"], req["action"], req.get("args") or {}
        if not isinstance(args, dict):
            raise ValueError("args is not an object")
    except (ValueError, KeyError, TypeError) as exc:
        return _reply(ActionResult.failure("bad_arguments", f"malformed call: {exc}")), finish
    if len(line) > CALL_BYTES:
        result = ActionResult.failure("resource_limit", f"a call may have at most {CALL_BYTES} bytes")
    elif len(calls) >= CALL_LIMIT:
        result = ActionResult.failure("resource_limit", f"a program may make at most {CALL_LIMIT} calls")
    elif finish is not None:
        result = ActionResult.failure("bad_arguments", "finish_task was called; the program may make no more calls")
    elif (app, action) == (SYSTEM_APP, RUN_CODE):
        result = ActionResult.failure("unknown_action", "a program cannot run programs")
    elif (app, action) == (SYSTEM_APP, FINISH):  # ends the session once the program is over
        finish = args
        result = ActionResult(ok=True, observation="Task finished (when the program ends).", data=None)
    else:
        result = session._run(app, action, args, in_program=True)
    calls.append({"app": app, "action": action, "args": args, "ok": result.ok, "observation": result.observation})
    return _reply(result), finish


def _reply(result: ActionResult) -> dict:
    return {"ok": result.ok, "observation": result.observation, "data": result.data, "error": result.error}


def _observation(res: Any, calls: list[dict], limits: Limits) -> str:
    """The program's output, then its calls, then how it ended."""
    lines = [res.output.rstrip("\n")] if res.output else []
    if res.truncated:
        lines.append(f"[output truncated: showing the first {limits.max_output} of {res.output_chars} characters]")
    lines.append(f"[{len(calls)} call(s)" + (": " + ", ".join(
        f"{c['app']}.{c['action']}{'' if c['ok'] else ' (error)'}" for c in calls[:50]) if calls else "") + "]")
    if res.timed_out:
        lines.append(f"[stopped: the program exceeded the time limit of {limits.timeout:g} s and was killed]")
    else:
        lines.append(f"[exit code {res.exit_code}]")
    return "\n".join(lines)


def render_program(actions: Iterable[Any], answer: Any = None) -> str:
    """A solution (gold actions) as one program for ``code`` sessions; finish_task(answer) ends it."""
    lines = ["# the solution as a program"]
    finished = False
    for a in actions:
        d = a.model_dump() if hasattr(a, "model_dump") else dict(a)
        args = ", ".join(f"{k}={v!r}" for k, v in (d.get("args") or {}).items())
        lines.append(f"print({d['app']}.{d['action']}({args}))")
        finished = finished or (d["app"], d["action"]) == (SYSTEM_APP, FINISH)
    if not finished:
        lines.append(f"print(system.finish_task(answer={answer!r}))")
    return "\n".join(lines) + "\n"
