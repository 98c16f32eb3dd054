"""What an initial office is made of: the file builders a task lists (FORMAT §3), as pydantic models.

They live with the testbed, which builds them; the task format (``officesim.tasks.model``) embeds them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, Protocol, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator

TIME_FORMAT = "%Y-%m-%d %H:%M:%S"  # every simulated time in task files, the API and records
DATE_FORMAT = "%Y-%m-%d"


class Strict(BaseModel):
    """A model that refuses unknown keys, so a typo in a task file is an error, not a silent default."""

    model_config = ConfigDict(extra="forbid")


# ---- builders of the initial office -----------------------------------------------------------
class XlsxBuilder(Strict):
    type: Literal["xlsx"]
    path: str
    sheets: dict[str, list[list[Any]]] = Field(min_length=1)


class DocxParagraph(Strict):
    text: str
    style: str | None = None  # e.g. "Heading 1", "List Bullet"


class DocxBuilder(Strict):
    type: Literal["docx"]
    path: str
    paragraphs: list[Union[str, DocxParagraph]] = []
    tables: list[list[list[Any]]] = []


class PdfBuilder(Strict):
    type: Literal["pdf"]
    path: str
    pages: list[str] = Field(min_length=1)
    title: str | None = None


class TextBuilder(Strict):
    type: Literal["text"]
    path: str
    content: str


class ImageBuilder(Strict):
    type: Literal["image"]
    path: str
    text: str
    width: int | None = None
    height: int | None = None
    font_size: int = 28


class EmlBuilder(Strict):
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


class IcsEvent(Strict):
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
            fmt = TIME_FORMAT if " " in v else DATE_FORMAT
            datetime.strptime(v, fmt)
        return v


class IcsBuilder(Strict):
    type: Literal["ics"]
    user: str
    events: list[IcsEvent] = []


# Discriminated by ``type``, so a problem is reported against the one builder the entry names.
Builder = Annotated[Union[XlsxBuilder, DocxBuilder, PdfBuilder, TextBuilder, ImageBuilder, EmlBuilder, IcsBuilder],
                    Field(discriminator="type")]


class OfficeSpec(Protocol):
    """What the testbed needs of a task to build its office (``officesim.tasks.model.Task`` is one)."""

    id: str
    user: str
    user_name: str | None
    now: str
    timezone: str
    office: list
    source_dir: str | None

    @property
    def now_dt(self) -> datetime: ...

    def model_dump(self, **kwargs: Any) -> dict: ...
