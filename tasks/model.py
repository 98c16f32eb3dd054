"""The task format as pydantic models: what a task file (tasks/suite/<id>/task.yaml) may contain.

A task is state set-up (``office``) + request (``instruction``) + checks, with a gold solution and
plausible wrong solutions that the validator replays through the real API. See tasks/FORMAT.md.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

APP_NAMES = ("word", "excel", "pdf", "calendar", "email", "ocr", "llm", "shell")
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---- builders of the initial office -----------------------------------------------------------
class XlsxBuilder(_Strict):
    type: Literal["xlsx"]
    path: str
    sheets: dict[str, list[list[Any]]] = Field(min_length=1)


class DocxParagraph(_Strict):
    text: str
    style: str | None = None  # e.g. "Heading 1", "List Bullet"


class DocxBuilder(_Strict):
    type: Literal["docx"]
    path: str
    paragraphs: list[Union[str, DocxParagraph]] = []
    tables: list[list[list[Any]]] = []


class PdfBuilder(_Strict):
    type: Literal["pdf"]
    path: str
    pages: list[str] = Field(min_length=1)
    title: str | None = None


class TextBuilder(_Strict):
    type: Literal["text"]
    path: str
    content: str


class ImageBuilder(_Strict):
    type: Literal["image"]
    path: str
    text: str
    width: int | None = None
    height: int | None = None
    font_size: int = 28


class EmlBuilder(_Strict):
    type: Literal["eml"]
    user: str  # mailbox owner (an email address)
    folder: Literal["inbox", "sent"] = "inbox"
    id: str | None = None  # file stem; also the email_id agents see
    from_: str = Field(alias="from")
    to: Union[str, list[str]]
    cc: list[str] = []
    date: str
    subject: str
    body: str = ""
    attachments: list[str] = []  # office paths of files built earlier

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    @field_validator("date")
    @classmethod
    def _date(cls, v: str) -> str:
        datetime.strptime(v, TIME_FORMAT)
        return v


class IcsEvent(_Strict):
    summary: str
    start: str  # "%Y-%m-%d %H:%M:%S", or "%Y-%m-%d" for an all-day event
    end: str | None = None
    location: str | None = None
    description: str | None = None
    attendees: list[str] = []
    uid: str | None = None
    tz: str | None = None  # write the times with this TZID (e.g. Europe/Berlin)

    @field_validator("start", "end")
    @classmethod
    def _time(cls, v: str | None) -> str | None:
        if v is not None:
            fmt = TIME_FORMAT if " " in v else "%Y-%m-%d"
            datetime.strptime(v, fmt)
        return v


class IcsBuilder(_Strict):
    type: Literal["ics"]
    user: str
    events: list[IcsEvent] = []


# Discriminated by ``type``, so a problem is reported against the one builder the entry names.
Builder = Annotated[Union[XlsxBuilder, DocxBuilder, PdfBuilder, TextBuilder, ImageBuilder, EmlBuilder, IcsBuilder],
                    Field(discriminator="type")]


# ---- checks, actions, solutions ---------------------------------------------------------------
class Check(_Strict):
    check: str
    args: dict[str, Any] = {}


class Action(BaseModel):
    """One action, in the shape the API accepts: {app, action, args}."""

    model_config = ConfigDict(extra="forbid")
    app: str
    action: str
    args: dict[str, Any] = {}


class WrongSolution(_Strict):
    name: str
    actions: list[Action]
    answer: Any = None


class Task(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]*$")
    scenario: str  # the piece of work; several tasks may share one (spread rules count these)
    category: Literal[1, 2, 3]
    apps: list[str]
    user: str  # the acting user's email address (mailbox and calendar key)
    user_name: str | None = None
    now: str  # simulated date and time, "%Y-%m-%d %H:%M:%S"
    timezone: str = "UTC"
    instruction: str
    split: Literal["test", "train"] = "test"
    office: list[Builder] = []
    checks: list[Check] = Field(min_length=1)
    gold: list[Action]
    answer: Any = None
    no_action: bool = False
    wrong: list[WrongSolution] = []
    tags: list[str] = []
    source_dir: str | None = Field(default=None, exclude=True)  # set by the loader

    @field_validator("now")
    @classmethod
    def _now(cls, v: str) -> str:
        datetime.strptime(v, TIME_FORMAT)
        return v

    @field_validator("apps")
    @classmethod
    def _apps(cls, v: list[str]) -> list[str]:
        bad = [a for a in v if a not in APP_NAMES]
        if bad:
            raise ValueError(f"unknown apps {bad}; apps are {list(APP_NAMES)}")
        if len(set(v)) != len(v):
            raise ValueError("apps are listed twice")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> "Task":
        if self.category != len(self.apps):
            raise ValueError(f"category {self.category} but {len(self.apps)} apps listed ({self.apps})")
        used = {a.app for a in self.gold} - {"system"}
        extra = used - set(self.apps)
        if extra:
            raise ValueError(f"gold uses apps not listed in 'apps': {sorted(extra)}")
        if self.answer is not None and not any(c.check.startswith("answer_") for c in self.checks):
            raise ValueError("'answer' is set but no answer_* check verifies it")
        return self

    @property
    def now_dt(self) -> datetime:
        return datetime.strptime(self.now, TIME_FORMAT)

    def public(self) -> dict:
        """What agents may see: never the gold solution or the checks."""
        return {
            "id": self.id,
            "category": self.category,
            "apps": self.apps,
            "user": self.user,
            "user_name": self.user_name,
            "now": self.now,
            "timezone": self.timezone,
            "instruction": self.instruction,
            "split": self.split,
        }
