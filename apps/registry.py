"""The operation registry: an operation is a typed Python function; everything else derives from it.

From one function signature and its docstring we derive argument validation (pydantic), the JSON
schema, the OpenAI function-calling tool, and the one-line text listing used in prompts, so nothing
about an operation is written twice.

An operation looks like::

    @app.operation
    def read_file(ctx: OfficeContext, file_path: str) -> Result:
        '''Read an excel file and list its cells as (row, col): value.

        Args:
            file_path: path of the .xlsx file in the office.
        '''

Operations raise ``OpError(code, message)`` for anything the agent did wrong; ``invoke`` turns
every error (and any unexpected exception) into an ``ActionResult`` so nothing escapes.
"""

from __future__ import annotations

import inspect
import os
import re
import typing
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, Iterator

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from officesim.testbed.errors import OpError, TooLarge

# The applications, in the order prompts list them. ``officesim.apps`` loads one module per name;
# every other list of apps (task validation, switch_app, prompts, agents) reads this one.
APP_NAMES = ("system", "word", "excel", "pdf", "calendar", "email", "ocr", "llm", "shell")
SYSTEM_APP = "system"
OFFICE_APPS = tuple(name for name in APP_NAMES if name != SYSTEM_APP)  # what a task may list in ``apps``
# How a session restricts operations: only the current app's (OfficeBench's default), or all at once;
# ``code``: the agent acts by Python programs (system.run_code, server/code.py), under switch_app's rule.
MODES = ("switch_app", "all_operations", "code")
DEFAULT_MODE = "switch_app"
# Tool sets: which apps (and so which operations) a task's session offers. ``officebench`` is the nine
# apps above; ``workbench`` is WorkBench's five domains and its company directory, with WorkBench's own
# operations (its ``email`` and ``calendar`` keep WorkBench's signatures, so they are other modules:
# ``TOOLSET_MODULES``). A task names its tool set (tasks/FORMAT.md); sessions, prompts, tools and
# switch_app follow it.
TOOLSETS: dict[str, tuple[str, ...]] = {
    "officebench": APP_NAMES,
    "workbench": ("system", "email", "calendar", "analytics", "customer_relationship_manager",
                  "project_management", "company_directory"),
}
DEFAULT_TOOLSET = "officebench"
# (tool set, app) -> module under officesim.apps, where it is not the app's own name
TOOLSET_MODULES: dict[tuple[str, str], str] = {
    ("workbench", "system"): "workbench_system", ("workbench", "email"): "workbench_email",
    ("workbench", "calendar"): "workbench_calendar",
}


def office_apps(toolset: str = DEFAULT_TOOLSET) -> tuple[str, ...]:
    """The apps a task of ``toolset`` may list (all but system)."""
    return tuple(name for name in TOOLSETS[toolset] if name != SYSTEM_APP)

# Error codes an operation may report. Apps may add their own, but prefer these.
ERROR_CODES = {
    "unknown_app": "the app does not exist",
    "unknown_action": "the app has no such operation",
    "bad_arguments": "missing, unexpected or mistyped arguments",
    "not_in_current_app": "the operation belongs to another app (switch_app first)",
    "path_outside_office": "the path escapes the office",
    "file_not_found": "the file does not exist",
    "file_exists": "the file already exists",
    "wrong_file_type": "the file is not of the type this operation reads",
    "corrupt_file": "the file could not be parsed",
    "out_of_range": "an index is outside the document",
    "unknown_sheet": "the workbook has no such sheet",
    "bad_date": "a date or time is not in the expected format",
    "not_found": "the named item (event, email, ...) does not exist",
    "sandbox_error": "the shell sandbox could not run the command",
    "llm_unavailable": "no LLM endpoint is configured or it failed",
    "ocr_unavailable": "the tesseract OCR engine is missing or did not answer",
    "resource_limit": "the operation passed a limit (time, memory, file size, inflated size, disk quota, size of "
                      "a written text); the message says which",
    "internal_error": "an unexpected error inside the operation",
}


# ---- limits on written text ------------------------------------------------------------------------
# What an agent writes (a mail body, a document's new text, an event's description, the final answer)
# is graded when the episode ends; a limit on it is answered at the action that passes it, with a
# ``resource_limit`` error naming the limit, never found at grading. Limits come from the environment
# (read once, at import, as testbed/guards.py does) so every worker of a server applies the same ones;
# docs/security.md lists them. Sizes are UTF-8 bytes.
KB = 1024


def _env_kb(name: str, default: int) -> int:
    try:
        return max(1, int(float(os.environ.get(name, "") or default)))
    except ValueError:
        return default


@dataclass(frozen=True)
class TextLimit:
    """A limit on one kind of written text: what it is (for messages), its size, its setting."""

    what: str
    bytes: int
    env: str


TEXT_LIMITS: dict[str, TextLimit] = {
    "mail_body": TextLimit("a mail body", _env_kb("OFFICESIM_MAX_MAIL_BODY_KB", 64) * KB, "OFFICESIM_MAX_MAIL_BODY_KB"),
    "document_text": TextLimit("a document's added text", _env_kb("OFFICESIM_MAX_DOCUMENT_TEXT_KB", 64) * KB,
                               "OFFICESIM_MAX_DOCUMENT_TEXT_KB"),
    "event_text": TextLimit("an event's description", _env_kb("OFFICESIM_MAX_EVENT_TEXT_KB", 16) * KB,
                            "OFFICESIM_MAX_EVENT_TEXT_KB"),
    "answer": TextLimit("the final answer", _env_kb("OFFICESIM_MAX_ANSWER_KB", 64) * KB, "OFFICESIM_MAX_ANSWER_KB"),
    "string": TextLimit("a text argument", _env_kb("OFFICESIM_MAX_STRING_ARG_KB", 256) * KB,
                        "OFFICESIM_MAX_STRING_ARG_KB"),
}
# (Operation.qualified_app, operation, argument) -> the kind of its text; every other string is a "string"
TEXT_ARGUMENTS: dict[tuple[str, str, str], str] = {
    **{("email", op, "content"): "mail_body" for op in ("send_email", "reply_email", "forward_email")},
    **{("workbench:email", op, "body"): "mail_body" for op in ("send_email", "reply_email")},
    ("word", "write_to_file", "contents"): "document_text",
    ("word", "replace_text", "new_text"): "document_text",
    **{("calendar", op, "description"): "event_text" for op in ("create_event", "update_event")},
    **{(app, "finish_task", "answer"): "answer" for app in ("system", "workbench:system")},
}


def _text_size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def check_text_limits(op: "Operation", values: dict[str, Any]) -> None:
    """Raise ``OpError('resource_limit')`` when a text argument of ``op`` is over its limit, naming the
    argument, its size, the limit and the setting that raises it."""
    for name, value in values.items():
        limit = TEXT_LIMITS[TEXT_ARGUMENTS.get((op.qualified_app, op.name, name), "string")]
        size = max((_text_size(s) for s in _strings(value)), default=0)
        if size > limit.bytes:
            raise OpError("resource_limit",
                          f"{op.app}.{op.name}: argument '{name}' is {size:,} bytes, over the limit of "
                          f"{limit.bytes:,} bytes ({limit.bytes // KB:,} KB) for {limit.what} "
                          f"(setting {limit.env})")


@dataclass
class Result:
    """What an operation returns: text for an LLM and the same result as data for programs."""

    observation: str
    data: Any = None


@dataclass
class ActionResult:
    """The outcome of invoking one operation (success or error)."""

    ok: bool
    observation: str
    data: Any = None
    error: dict | None = None  # {"code": str, "message": str}

    @classmethod
    def failure(cls, code: str, message: str) -> "ActionResult":
        return cls(ok=False, observation=f"Error: {message}", data=None,
                   error={"code": code, "message": message})


@dataclass
class OfficeContext:
    """Everything an operation may use: the office, who acts, and when (simulated)."""

    office: Any  # testbed.office.Office (kept untyped here to avoid an import cycle)
    user: str = ""
    now: datetime | None = None
    settings: dict = field(default_factory=dict)
    clipboard: str | None = None  # system.copy/paste (inline operations: the session's own context)


def _parse_arg_docs(doc: str) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into the description and per-argument help."""
    doc = inspect.cleandoc(doc or "")
    parts = re.split(r"^\s*Args:\s*$", doc, maxsplit=1, flags=re.M)
    description = parts[0].strip()
    args: dict[str, str] = {}
    if len(parts) == 2:
        current = None
        for line in parts[1].splitlines():
            m = re.match(r"^\s{0,8}(\w+)(?:\s*\([^)]*\))?:\s*(.*)$", line)
            if m and not line.startswith(" " * 9):
                current = m.group(1)
                args[current] = m.group(2).strip()
            elif current and line.strip():
                args[current] += " " + line.strip()
    return description, args


def model_from_signature(
    func: Callable, help_texts: dict[str, str] | None = None, skip: int = 1
) -> tuple[type[BaseModel], list[inspect.Parameter]]:
    """A strict pydantic model of ``func``'s parameters (the first ``skip`` ones left out).

    Shared by operations (apps/) and check functions (evaluators/): the signature is the schema.
    """
    help_texts = help_texts or {}
    hints = typing.get_type_hints(func, include_extras=True)  # Annotated validators kept
    fields: dict[str, Any] = {}
    params: list[inspect.Parameter] = []
    for i, (pname, param) in enumerate(inspect.signature(func).parameters.items()):
        if i < skip:
            continue
        params.append(param)
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[pname] = (hints.get(pname, Any), Field(default, description=help_texts.get(pname, "")))
    name = "".join(w.title() for w in func.__name__.split("_")) + "Args"
    model = create_model(name, __config__=ConfigDict(extra="forbid"), **fields)
    return model, params


class Operation:
    """One operation of one app, with everything derived from its signature.

    How the server runs it (server/workers.py) is declared beside it: ``inline`` operations touch no
    file and run in the server process itself; the others run in a worker process under a time limit
    (``time_limit`` seconds, else the server's default) and a memory limit. ``writes`` operations
    change the office and are refused while the office is over its disk quota.
    """

    def __init__(self, app: str, func: Callable[..., Result], *, inline: bool = False,
                 time_limit: float | None = None, writes: bool = False, toolset: str = DEFAULT_TOOLSET):
        self.app = app
        self.toolset = toolset
        self.func = func
        self.inline = inline
        self.time_limit = time_limit
        self.writes = writes
        self.name = func.__name__
        self.description, self.arg_help = _parse_arg_docs(func.__doc__ or "")
        self.model, self.params = model_from_signature(func, self.arg_help, skip=1)

    @property
    def tool_name(self) -> str:
        """Name used in OpenAI tools: ``<app>_<action>`` (WorkBench's app names may hold underscores:
        sessions split a tool name on the longest app name it starts with)."""
        return f"{self.app}_{self.name}"

    @property
    def qualified_app(self) -> str:
        """The app as workers look it up: its name, prefixed with its tool set outside the default."""
        return self.app if self.toolset == DEFAULT_TOOLSET else f"{self.toolset}:{self.app}"

    def json_schema(self) -> dict:
        schema = self.model.model_json_schema()
        schema.pop("title", None)
        for prop in schema.get("properties", {}).values():
            prop.pop("title", None)
        return schema

    def openai_tool(self) -> dict:
        return {
            "type": "function",
            "function": {
                "name": self.tool_name,
                "description": f"[{self.app}] {self.description}",
                "parameters": self.json_schema(),
            },
        }

    def prompt_line(self) -> str:
        """OfficeBench-style listing: the JSON action followed by what it does."""
        args = "".join(f', "{p.name}": ...' for p in self.params)
        optional = [p.name for p in self.params if p.default is not inspect.Parameter.empty]
        extra = f" Optional: {', '.join(optional)}." if optional else ""
        first = self.description.split("\n\n")[0].replace("\n", " ")
        return f'{{"app": "{self.app}", "action": "{self.name}"{args}}}: {first}{extra}'

    def describe(self) -> dict:
        return {
            "name": self.name,
            "description": self.description,
            "parameters": self.json_schema(),
        }

    def validate(self, args: dict) -> dict:
        """Validate and coerce arguments; raises OpError('bad_arguments') naming each problem."""
        if not isinstance(args, dict):
            raise OpError("bad_arguments", f"arguments of {self.app}.{self.name} must be an object")
        try:
            model = self.model.model_validate(args)
        except ValidationError as exc:
            problems = []
            for err in exc.errors():
                loc = ".".join(str(x) for x in err["loc"]) or "(arguments)"
                if err["type"] == "missing":
                    problems.append(f"missing argument '{loc}'")
                elif err["type"] == "extra_forbidden":
                    problems.append(f"unexpected argument '{loc}'")
                else:
                    problems.append(f"argument '{loc}': {err['msg']}")
            expected = ", ".join(p.name for p in self.params) or "no arguments"
            raise OpError(
                "bad_arguments",
                f"{self.app}.{self.name}: {'; '.join(problems)} (expected: {expected})",
            ) from None
        return {name: getattr(model, name) for name in self.model.model_fields}

    def invoke(self, ctx: OfficeContext, args: dict) -> ActionResult:
        """Validate, run, and turn any error into an observation."""
        try:
            values = self.validate(args)
            check_text_limits(self, values)
            result = self.func(ctx, **values)
        except OpError as exc:
            return ActionResult.failure(exc.code, exc.message)
        except TooLarge as exc:
            return ActionResult.failure("resource_limit", str(exc))
        except MemoryError:  # the worker that runs the operation reports it (and is replaced)
            raise
        except Exception as exc:  # never let an operation crash the session
            return ActionResult.failure("internal_error", f"{self.app}.{self.name} failed: {type(exc).__name__}: {exc}")
        if not isinstance(result, Result):
            result = Result(observation=str(result), data=result)
        return ActionResult(ok=True, observation=result.observation, data=result.data)


class App:
    """A named group of operations (one office application)."""

    def __init__(self, name: str, description: str, toolset: str = DEFAULT_TOOLSET):
        self.name = name
        self.description = description
        self.toolset = toolset
        self.operations: dict[str, Operation] = {}

    def operation(self, func: Callable[..., Result] | None = None, *, inline: bool = False,
                  time_limit: float | None = None, writes: bool = False):
        """Decorator registering ``func`` as an operation of this app: ``@app.operation``, or with
        how it runs, ``@app.operation(writes=True)`` (see ``Operation``)."""
        def register(f: Callable[..., Result]) -> Callable[..., Result]:
            op = Operation(self.name, f, inline=inline, time_limit=time_limit, writes=writes, toolset=self.toolset)
            self.operations[op.name] = op
            return f

        return register if func is None else register(func)

    def describe(self) -> dict:
        return {
            "name": self.name,
            "description": self.description,
            "operations": [op.describe() for op in self.operations.values()],
        }


def resolve_operation(apps: dict[str, App], app: str, action: str) -> Operation:
    """Find an operation or raise OpError with unknown_app / unknown_action."""
    if not isinstance(app, str) or app not in apps:
        raise OpError("unknown_app", f"unknown app '{app}'; apps are: {', '.join(apps)}")
    ops = apps[app].operations
    if not isinstance(action, str) or action not in ops:
        raise OpError(
            "unknown_action",
            f"app '{app}' has no action '{action}'; its actions are: {', '.join(ops)}",
        )
    return ops[action]
