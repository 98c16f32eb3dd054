"""Request and response bodies of the HTTP API (pydantic at the boundary; also the OpenAPI schema)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from officesim.apps.registry import DEFAULT_MODE, MODES
from officesim.evaluators.record import RUNNER_FIELDS, EpisodeRecord


class ErrorInfo(BaseModel):
    code: str
    message: str


class ErrorResponse(BaseModel):
    """Every error the API returns has this shape."""

    error: ErrorInfo


class Health(BaseModel):
    status: str
    version: str


class OperationInfo(BaseModel):
    name: str
    description: str
    parameters: dict[str, Any]


class AppInfo(BaseModel):
    name: str
    description: str
    operations: list[OperationInfo]


class TaskInfo(BaseModel):
    """What an agent may know about a task: never the gold solution or the checks."""

    id: str
    category: int
    apps: list[str]
    user: str
    user_name: str | None = None
    now: str
    timezone: str = "UTC"
    instruction: str
    split: str = "test"
    toolset: str = "officebench"  # which apps and operations its sessions offer (tasks/FORMAT.md)


class CreateSession(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task_id: str
    mode: Literal[MODES] = DEFAULT_MODE  # type: ignore[valid-type]  # the registry's modes
    max_steps: int | None = Field(None, ge=1, le=10_000,
                                  description="the step limit; default: the task's own (50, more for long tasks)")


TOOLS_VERSION = ("names the tools, prompt and tool_prompt of where the session is: when it differs from the "
                 "last one a client holds, they changed (the response that changed them carries them)")


class SessionCreated(BaseModel):
    session_id: str
    task: TaskInfo
    mode: str
    max_steps: int
    status: str
    current_app: str
    step: int
    tools: list[dict[str, Any]] = Field(description="the actions allowed now as OpenAI tools")
    prompt: str = Field(description="for JSON actions in text: the task and the actions allowed now, listed")
    tool_prompt: str = Field(description="for native tool calling: the same without the listing; send it with tools")
    tools_version: str = Field(description=TOOLS_VERSION)


class ActionRequest(BaseModel):
    """``{"app", "action", "args": {...}}``, or the flat OfficeBench form with the arguments inline.

    ``app`` may be left out when ``action`` is an OpenAI tool name such as ``excel_set_cell``.
    """

    model_config = ConfigDict(
        extra="allow",
        json_schema_extra={"examples": [
            {"app": "system", "action": "switch_app", "args": {"target_app": "excel"}},
            {"app": "excel", "action": "read_file", "file_path": "data/budget.xlsx"},
        ]},
    )

    app: str | None = None
    action: str | None = None
    args: dict[str, Any] | None = None

    def arguments(self) -> dict[str, Any]:
        """Nested ``args`` merged with any flat (OfficeBench-style) arguments; nested ones win."""
        extra = dict(self.model_extra or {})
        return {**extra, **(self.args or {})}


class FinishRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    answer: str | int | float | None = None


def _evaluation_model() -> type[BaseModel]:
    """The API's ``evaluation`` (``EpisodeRecord.api_dict``): the record's fields but the runner's,
    then its computed counts. Derived from the record, so the schema follows every field it gains."""
    fields: dict[str, Any] = {name: (info.annotation, info) for name, info in EpisodeRecord.model_fields.items()
                              if name not in RUNNER_FIELDS}
    for name, info in EpisodeRecord.model_computed_fields.items():
        fields[name] = (info.return_type, Field(description=info.description))
    return create_model("Evaluation", __doc__="How the session went, graded when it ended (tasks/FORMAT.md, "
                        "section 6): the verdict, every check with its message, the side effects (collateral and "
                        "missing) and the asking; original_passed and original_checks only for imported tasks.",
                        **fields)


Evaluation = _evaluation_model()
EVALUATION = "the grade, once the session has ended (null before)"


class ActionResponse(BaseModel):
    """One step's outcome. ``tools``, ``prompt`` and ``tool_prompt`` are present only when the step
    changed them (a switch of app) or with ``?include=tools``, never once the session has ended."""

    ok: bool
    observation: str
    data: Any = Field(None, description="with ?include=data: the operation's result as values (a listing's rows, a "
                                        "sheet's cells, a command's exit code and output); else null, since the "
                                        "observation says the same in text")
    error: ErrorInfo | None = None
    current_app: str
    step: int
    done: bool
    status: str
    tools_version: str = Field(description=TOOLS_VERSION)
    tools: list[dict[str, Any]] | None = Field(None, description="the actions allowed now, when they changed or asked")
    prompt: str | None = Field(None, description="the prompt of the state the action left, when it changed or asked")
    tool_prompt: str | None = Field(None, description="the same for native tool calling with tools")
    evaluation: Evaluation | None = Field(None, description=EVALUATION)


class HistoryItem(BaseModel):
    step: int
    app: Any = None
    action: Any = None
    args: Any = None
    ok: bool
    observation: str


class SessionInfo(BaseModel):
    session_id: str
    task_id: str
    mode: str
    status: str
    current_app: str
    step: int
    max_steps: int
    done: bool
    answer: str | None = None
    history: list[HistoryItem]
    evaluation: Evaluation | None = Field(None, description=EVALUATION)
    office_available: bool = True
    tools_version: str | None = Field(None, description=TOOLS_VERSION)
    tools: list[dict[str, Any]] | None = Field(None, description="with ?include=tools: the actions allowed now")
    prompt: str | None = Field(None, description="with ?include=tools: the prompt of where the session is")
    tool_prompt: str | None = Field(None, description="with ?include=tools: the same for native tool calling")


class FileInfo(BaseModel):
    path: str
    size: int


class Deleted(BaseModel):
    session_id: str
    deleted: bool
