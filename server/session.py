"""One attempt at one task, without HTTP: the switch_app state machine, step counting, endings.

The HTTP layer (server/app.py), the in-process gold replay (server/grading.py) and tests all
drive a ``Session`` the same way, so the rules below exist once:

- a session starts in ``system``; in ``switch_app`` mode only the current app's operations and the
  system operations are allowed (``not_in_current_app`` otherwise); ``all_operations`` allows all;
- every step counts, malformed ones included;
- it ends on ``finish_task`` (``finished``), on 5 identical consecutive actions (``stagnated``),
  when the step limit is reached (``step_limit``) or when the server expires it (``expired``);
- every ending produces an evaluation through the ``evaluate`` callback;
- a lock makes one session's actions run one at a time.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import uuid
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from officesim.apps import OfficeContext, OpError, apps_for, resolve_operation
from officesim.apps.asking import DEFAULT_REPLY, SETTINGS_KEY as ASK_KEY
from officesim.apps.registry import (DEFAULT_MODE, DEFAULT_TOOLSET, MODES, SYSTEM_APP, ActionResult, Operation,
                                     office_apps)
from officesim.apps.toolnames import resolve_tool_name
from officesim.evaluators.record import EpisodeRecord
from officesim.server.code import api_listing, run_program
from officesim.server.jsonbody import Encoded
from officesim.tasks.model import DEFAULT_MAX_STEPS, Task

STAGNATION_REPEATS = 5
SYSTEM = SYSTEM_APP
ALWAYS_ALLOWED = ("switch_app", "finish_task")
RUN_CODE = "run_code"
CODE_ACTIONS = (RUN_CODE, "finish_task")  # what a session in mode "code" takes as actions; programs call the rest

Evaluate = Callable[["Session"], EpisodeRecord]


class SessionEnded(Exception):
    """An action arrived after the session ended (the API answers 409)."""

    def __init__(self, session_id: str, status: str):
        super().__init__(f"session {session_id} has ended (status '{status}'); start a new session")
        self.session_id = session_id
        self.status = status


@dataclass
class StepResult:
    """The outcome of one step, in the shape of the API's action response."""

    ok: bool
    observation: str
    data: Any
    error: dict | None
    current_app: str
    tools: list[dict]  # for callers in process; the API sends them only when they change (state_parts)
    step: int
    done: bool
    status: str
    evaluation: EpisodeRecord | None = None
    app_before: str = SYSTEM  # the current app when the step began (did the tools change? Session.parts_after)

    def to_dict(self, data: bool = False) -> dict:
        """The lean action response: without the tools and prompts (``Session.parts_after`` adds them),
        and without the data unless asked (``data``): it restates the observation as values (a listing
        came twice), so OfficeBench's fields, ``ok`` and ``observation``, carry the step, and ``data`` is null."""
        out = {
            "ok": self.ok, "observation": self.observation, "data": self.data if data else None, "error": self.error,
            "current_app": self.current_app, "step": self.step, "done": self.done, "status": self.status,
        }
        if self.evaluation is not None:
            out["evaluation"] = self.evaluation.api_dict()
        return out


# ---- what is allowed, as tools and as prompt text (static per tool set, mode and app: cached) --
@lru_cache(maxsize=64)
def _allowed(mode: str, current_app: str, toolset: str = DEFAULT_TOOLSET) -> tuple[Operation, ...]:
    """The operations an agent may call in this state, system ones first."""
    apps = apps_for(toolset)
    if mode == "code":  # programs do the rest (server/code.py)
        return tuple(apps[SYSTEM].operations[name] for name in CODE_ACTIONS if name in apps[SYSTEM].operations)
    if mode == "all_operations":
        return tuple(op for app in apps.values() for op in app.operations.values() if op.name != RUN_CODE)
    ops = [op for op in apps[SYSTEM].operations.values() if op.name != RUN_CODE]
    if current_app != SYSTEM and current_app in apps:
        ops += list(apps[current_app].operations.values())
    return tuple(ops)


@lru_cache(maxsize=64)
def _tools(mode: str, current_app: str, toolset: str = DEFAULT_TOOLSET) -> tuple[dict, ...]:
    return tuple(op.openai_tool() for op in _allowed(mode, current_app, toolset))


def tools_for(mode: str, current_app: str, toolset: str = DEFAULT_TOOLSET) -> list[dict]:
    """OpenAI function-calling schemas of what is allowed right now."""
    return list(_tools(mode, current_app, toolset))


@lru_cache(maxsize=64)
def actions_text(mode: str, current_app: str, toolset: str = DEFAULT_TOOLSET) -> str:
    """The allowed actions as OfficeBench-style JSON lines."""
    return "\n".join(op.prompt_line() for op in _allowed(mode, current_app, toolset))


# How an agent states its actions: OfficeBench-style JSON in text, or native tool calls.
ACTION_FORMATS = ("tools", "json")


def render_prompt(task: Task, mode: str, current_app: str, action_format: str = "json") -> str:
    """An OfficeBench-style prompt: who, when, what to do, and the actions allowed now.

    ``json`` (the API's ``prompt``): answer with one JSON action in text, chosen from the listing at
    the end. ``tools`` (the API's ``tool_prompt``): the same for a model given the session's ``tools``
    to call, so without the listing (the tools carry it).
    """
    now = task.now_dt
    who = f"{task.user_name} ({task.user})" if task.user_name else task.user
    toolset = getattr(task, "toolset", DEFAULT_TOOLSET)
    apps = ", ".join(office_apps(toolset))
    dot = "_" if action_format == "tools" else "."  # tool names are app_action
    if mode == "code":
        where = (f"Act by writing Python programs: system{dot}run_code runs one (stdout, stderr and the calls it made "
                 f"come back). Its module officesim is preloaded; each function below is an operation and returns "
                 f"its observation (an error raises officesim.OfficeError). As in apps, a program is in the "
                 f"'{current_app}' app now and must call system.switch_app(target_app=...) before another app's "
                 f"functions ({apps}).\n\nFunctions:\n{api_listing(toolset)}\n")
    elif mode == "switch_app":
        where = (f"You are in the '{current_app}' app. Use system{dot}switch_app to move to another app "
                 f"({apps}); only the current app's actions and the system actions are available.")
    else:
        where = f"Every app's actions are available at once ({apps})."
    if mode == "code" and action_format != "tools":  # the OpenAI agent's --action-format code reads this one
        how = ("Answer each turn with exactly one Python program in a ```python fenced block; it runs as "
               "system.run_code and you get its output back. Call system.finish_task(answer=...) in a program "
               "when the task is done (with the answer if the task asks a question).\n")
    elif action_format == "tools":
        how = (f"Call exactly one tool per turn. Call system{dot}finish_task when the task is done "
               f"(with the answer if the task asks a question).\n")
    else:
        how = (f"Answer with exactly one action per turn, as a JSON object on one line. Call "
               f"system{dot}finish_task when the task is done (with the answer if the task asks a question).\n\n"
               f"Available actions:\n{actions_text(mode, current_app, toolset)}\n")
    if toolset == "workbench":  # WorkBench's own preamble: the date, the time and its meeting rule
        return (
            f"You are an office assistant working for {who}.\n"
            f"Today's date is {now:%A}, {now:%Y-%m-%d} and the current time is {now:%H:%M:%S}. Remember the "
            f"current date and time when answering queries. Meetings must not start before 9am or end after 6pm.\n\n"
            f"Task: {task.instruction}\n\n"
            f"{where}\n"
            f"{how}"
        )
    return (
        f"You are an office assistant working for {who}.\n"
        f"Today is {now:%A}, {task.now} ({task.timezone}).\n"
        f"The office files are under /testbed (data/, emails/<user>/, calendar/<user>.ics); "
        f"paths may be given relative to it.\n\n"
        f"Task: {task.brief}\n\n"
        f"{where}\n"
        f"{how}"
    )


def _action_key(app: Any, action: Any, args: Any) -> str:
    """A canonical text of one action, to detect identical consecutive actions."""
    try:
        return json.dumps([app, action, args], sort_keys=True, default=str)
    except (TypeError, ValueError):
        return repr((app, action, args))


class Session:
    """One agent's attempt at one task, on a private office."""

    def __init__(
        self,
        task: Task,
        mode: str = DEFAULT_MODE,
        max_steps: int = DEFAULT_MAX_STEPS,
        office: Any = None,
        *,
        session_id: str | None = None,
        evaluate: Evaluate | None = None,
        settings: dict | None = None,
        run_operation: Callable[[Operation, OfficeContext, Any], ActionResult] | None = None,
    ):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not '{mode}'")
        if max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        self.id = session_id or uuid.uuid4().hex
        self.task = task
        self.mode = mode
        self.max_steps = max_steps
        self.office = office
        self.current_app = SYSTEM
        self.step_count = 0
        self.status = "active"
        self.answer: str | None = None
        self.history: list[dict] = []
        self.evaluation: EpisodeRecord | None = None
        self.created = time.time()
        self.last_active = time.monotonic()
        self.ended_at: float | None = None
        self.lock = threading.RLock()
        self._evaluate = evaluate
        # how operations run: in the server's worker pool (server/pool.py) or, by default, right here
        self._run_operation = run_operation or (lambda op, ctx, args: op.invoke(ctx, args))
        self._repeat_key: str | None = None
        self._repeats = 0
        self._finish_after: dict | None = None  # finish_task's arguments, when a program called it
        self._prompts: dict[tuple[str, str], str] = {}  # (current app, action format) -> prompt
        self._parts: dict[str, dict[str, Encoded]] = {}  # current app -> the state parts, encoded
        self.ctx = OfficeContext(
            office=office, user=task.user, now=task.now_dt,
            settings={**(settings or {}), "timezone": task.timezone,
                      **({"people": task.people} if task.people else {}),  # apps/people.py
                      **({ASK_KEY: task.user_script()} if task.user_replies or task.default_reply != DEFAULT_REPLY
                         else {})},  # the scripted user of system.ask_user (apps/asking.py)
        )

    # -- state ---------------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self.status != "active"

    @property
    def toolset(self) -> str:
        return getattr(self.task, "toolset", DEFAULT_TOOLSET)

    def tools(self) -> list[dict]:
        return tools_for(self.mode, self.current_app, self.toolset)

    def prompt(self) -> str:
        """The prompt for JSON actions in text, with the actions allowed now."""
        return self._prompt("json")

    def tool_prompt(self) -> str:
        """The prompt for native tool calling with ``tools()``."""
        return self._prompt("tools")

    def _prompt(self, action_format: str, app: str | None = None) -> str:
        # both prompts change only with the current app
        key = (self.current_app if app is None else app, action_format)
        prompt = self._prompts.get(key)
        if prompt is None:
            prompt = self._prompts[key] = render_prompt(self.task, self.mode, key[0], action_format)
        return prompt

    def state_parts(self, app: str | None = None) -> dict[str, Any]:
        """The tools and both prompts of the current state (or of being in ``app``), encoded once per
        app, and their ``tools_version``: the API sends them at the start, when they change and when asked."""
        app = self.current_app if app is None else app
        parts = self._parts.get(app)
        if parts is None:
            tools = Encoded(tools_for(self.mode, app, self.toolset))
            prompt, tool_prompt = Encoded(self._prompt("json", app)), Encoded(self._prompt("tools", app))
            digest = hashlib.sha256()
            for part in (tools, prompt, tool_prompt):
                digest.update(part.data)
            parts = self._parts[app] = {"tools": tools, "prompt": prompt, "tool_prompt": tool_prompt,
                                        "tools_version": digest.hexdigest()[:12]}
        return parts

    def tools_version(self) -> str:
        """Names the tools and prompts of the current state: equal versions, equal tools and prompts."""
        return self.state_parts()["tools_version"]

    def parts_after(self, result: StepResult, include: bool = False) -> dict[str, Any]:
        """What an action response adds to ``result.to_dict()``: the ``tools_version`` of the state the
        step left, and the tools and prompts when the step changed them or when ``include`` asks,
        never once the session has ended (no action follows)."""
        with self.lock:
            parts = self.state_parts(result.current_app)
            if result.done:
                return {"tools_version": parts["tools_version"]}
            if include or self.state_parts(result.app_before)["tools_version"] != parts["tools_version"]:
                return dict(parts)
            return {"tools_version": parts["tools_version"]}

    def snapshot(self) -> dict:
        """The session as the API's GET /sessions/{id} shows it."""
        with self.lock:
            return {
                "session_id": self.id, "task_id": self.task.id, "mode": self.mode,
                "status": self.status, "current_app": self.current_app, "step": self.step_count,
                "max_steps": self.max_steps, "done": self.done, "answer": self.answer,
                "history": list(self.history),
                "evaluation": None if self.evaluation is None else self.evaluation.api_dict(),
            }

    # -- acting --------------------------------------------------------------------------------
    def step(self, app: Any, action: Any, args: Any = None) -> StepResult:
        """Run one action; raises SessionEnded when the session is over."""
        with self.lock:
            if self.done:
                raise SessionEnded(self.id, self.status)
            app_before = self.current_app
            self.last_active = time.monotonic()
            if args is None:
                args = {}
            if app in (None, "") and (split := resolve_tool_name(action, self.toolset)):
                app, action = split
            self.step_count += 1
            self._finish_after = None
            result = self._run(app, action, args)
            self.history.append({
                "step": self.step_count, "app": app, "action": action, "args": args,
                "ok": result.ok, "observation": result.observation,
                **({"calls": result.data["calls"]} if isinstance(result.data, dict) and "calls" in result.data else {}),
            })
            if self._finish_after is not None and not self.done:  # a program called finish_task
                self._run(SYSTEM, "finish_task", self._finish_after, in_program=True)
            self._track_repeats(app, action, args)
            if not self.done:
                if self._repeats >= STAGNATION_REPEATS:
                    self._end("stagnated")
                elif self.step_count >= self.max_steps:
                    self._end("step_limit")
            return StepResult(
                ok=result.ok, observation=result.observation, data=result.data, error=result.error,
                current_app=self.current_app, tools=self.tools(), step=self.step_count,
                done=self.done, status=self.status, evaluation=self.evaluation, app_before=app_before,
            )

    def finish(self, answer: Any = None) -> StepResult:
        """The same as the finish_task action."""
        return self.step(SYSTEM, "finish_task", {"answer": answer})

    def expire(self) -> bool:
        """End an idle session (status ``expired``); False when it had already ended."""
        with self.lock:
            if self.done:
                return False
            self._end("expired")
            return True

    def _run(self, app: Any, action: Any, args: Any, in_program: bool = False) -> ActionResult:
        """One action, or (``in_program``) one call of a code program (server/code.py)."""
        try:
            op = resolve_operation(apps_for(self.toolset), app, action)
        except OpError as exc:
            return ActionResult.failure(exc.code, exc.message)
        if app == SYSTEM and action == RUN_CODE and (self.mode != "code" or in_program):
            return ActionResult.failure("unknown_action", "system.run_code is the action of sessions in mode 'code' "
                                        "(and a program cannot run programs)")
        if self.mode == "code" and not in_program and (app != SYSTEM or action not in CODE_ACTIONS):
            return ActionResult.failure("unknown_action", f"in mode 'code' the actions are {', '.join(CODE_ACTIONS)}; "
                                        f"call {app}.{action} from a program (system.run_code)")
        if app == SYSTEM and action == RUN_CODE:
            checked = self._run_operation(op, self.ctx, args)
            if not checked.ok:
                return checked
            result, self._finish_after = run_program(self, checked.data["code"])
            return result
        if self.mode in ("switch_app", "code") and app != SYSTEM and app != self.current_app:
            message = (f"{app}.{action} belongs to the '{app}' app but you are in '{self.current_app}'; "
                       f"call system.switch_app with target_app '{app}' first")
            return ActionResult.failure("not_in_current_app", message)
        result = self._run_operation(op, self.ctx, args)
        if result.ok and app == SYSTEM:
            if action == "switch_app":
                self.current_app = result.data["current_app"]
            elif action == "finish_task":
                self.answer = result.data.get("answer") if isinstance(result.data, dict) else None
                self._end("finished")
        return result

    def _track_repeats(self, app: Any, action: Any, args: Any) -> None:
        key = _action_key(app, action, args)
        if key == self._repeat_key:
            self._repeats += 1
        else:
            self._repeat_key, self._repeats = key, 1

    def _end(self, status: str) -> None:
        self.status = status
        self.ended_at = time.time()
        if self._evaluate is not None:
            try:
                self.evaluation = self._evaluate(self)
            except Exception as exc:  # an evaluation failure must not lose the session's ending
                self.evaluation = EpisodeRecord.ungraded(
                    self.task.id, status, f"evaluation failed: {type(exc).__name__}: {exc}",
                    mode=self.mode, answer=self.answer, steps=self.step_count,
                )
