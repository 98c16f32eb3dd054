"""The task format as pydantic models: what a task file (tasks/suite/<id>/task.yaml) may contain.

A task is state set-up (``office``) + request (``instruction``) + checks, with a gold solution and
plausible wrong solutions that the validator replays through the real API. See tasks/FORMAT.md.
"""

from __future__ import annotations

import fnmatch
import json
import re
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from officesim.apps.asking import DEFAULT_REPLY, candidates, match_reply
from officesim.apps.registry import DEFAULT_TOOLSET, TOOLSETS, office_apps
from officesim.testbed.specs import TIME_FORMAT, Builder, Strict as _Strict  # noqa: F401  (re-exported)
from officesim.testbed.specs import (DocxBuilder, DocxParagraph, EmlBuilder, IcsBuilder, IcsEvent,  # noqa: F401
                                     ImageBuilder, PdfBuilder, TextBuilder, XlsxBuilder)



# ---- checks, actions, solutions ---------------------------------------------------------------
class Check(_Strict):
    check: str
    args: dict[str, Any] = {}
    name: str | None = None  # a checkpoint's name (long tasks): reported with the check in the record


class DialogueTurn(_Strict):
    """One message of the conversation that led to the task (hard tasks): who said it, when, what."""

    speaker: str
    at: str  # "%Y-%m-%d %H:%M:%S"
    text: str = Field(min_length=1)

    @field_validator("at")
    @classmethod
    def _at(cls, v: str) -> str:
        datetime.strptime(v, TIME_FORMAT)
        return v


class Action(BaseModel):
    """One action, in the shape the API accepts: {app, action, args}."""

    model_config = ConfigDict(extra="forbid")
    app: str
    action: str
    args: dict[str, Any] = {}


class WrongSolution(_Strict):
    """A solution the validator plays: each ``wrong:`` one must fail, each ``right:`` one must pass."""

    name: str
    actions: list[Action]
    answer: Any = None


class GoldChoice(_Strict):
    """A value the gold chose where the instruction leaves the choice open (a fourth course among
    several, a prediction's figure, a meeting's hour when none is given): a mutant of it is another
    right outcome, so ``validate --mutants`` derives none (runner/mutants/). ``value`` is a number,
    date or time as the gold writes it; ``event`` an event's summary whose times are the gold's
    (with ``end_only``, its end only: the instruction gives the start)."""

    value: str | None = None
    event: str | None = None
    end_only: bool = False
    why: str = Field(min_length=1)

    @model_validator(mode="after")
    def _one(self) -> "GoldChoice":
        if (self.value is None) == (self.event is None):
            raise ValueError("a choice names exactly one of value or event")
        return self


class UserReply(_Strict):
    """One scripted reply of the simulated user (system.ask_user; apps/asking.py matches it).

    ``when`` is a regular expression searched in the question (ignoring case), or a list of words or
    phrases one of which the question must contain at a word start. ``needed``: the task cannot be
    done right without this reply (ask recall and precision count these); ``guess`` maps each value
    the reply gives, as the gold writes it, to the distractor a guess would use (runner/mutants/asking.py).
    """

    when: str | list[str]
    reply: str = Field(min_length=1)
    needed: bool = False
    # A needed reply's values as the gold writes them, each with what an agent that guesses instead of
    # asking would plausibly write (a distractor of the office): the ``guessed-not-asked`` mutant.
    guess: dict[str, Any] = {}

    @field_validator("when")
    @classmethod
    def _when(cls, v: str | list[str]) -> str | list[str]:
        if isinstance(v, str):
            if not v.strip():
                raise ValueError("'when' is empty")
            try:
                re.compile(v)
            except re.error as exc:
                raise ValueError(f"'when' is not a valid regular expression: {exc}") from None
        elif not [w for w in v if w.strip()]:
            raise ValueError("'when' lists no word")
        return v


class Origin(_Strict):
    """Where an imported task comes from, and its original evaluation (for the original score)."""

    benchmark: Literal["officebench", "workbench"]
    id: str  # the benchmark's own id, e.g. "1-4/0"
    evaluation: list[dict[str, Any]] = []  # the original evaluation, verbatim (evaluators/officebench.py)


DEFAULT_MAX_STEPS = 50  # a session's step limit unless the client or the task sets one


class Task(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]*$")
    scenario: str  # the piece of work; several tasks may share one (spread rules count these)
    category: Literal[1, 2, 3, 4, 5]  # apps used; the hard split goes past three
    # Which apps and operations the session offers (apps/registry.py TOOLSETS): OfficeBench's nine apps,
    # or WorkBench's domains with WorkBench's own tools. ``apps`` are named from this tool set.
    toolset: str = DEFAULT_TOOLSET
    apps: list[str]
    user: str  # the acting user's email address (mailbox and calendar key)
    user_name: str | None = None
    now: str  # simulated date and time, "%Y-%m-%d %H:%M:%S"
    timezone: str = "UTC"
    instruction: str
    split: Literal["test", "train", "hard"] = "test"
    # A lived-in office the task starts from (testbed/worlds): its files, mail and calendar, then ``office``.
    world: str | None = None
    # The conversation that led to the task, shown before the instruction; later messages may override
    # earlier ones (hard tasks).
    dialogue: list[DialogueTurn] = []
    office: list[Builder] = []
    checks: list[Check] = Field(min_length=1)
    gold: list[Action]
    answer: Any = None
    no_action: bool = False
    # Office paths (globs) whose content and existence the outcome comparison leaves to the checks:
    # where the instruction leaves several outcomes right (a file name it does not fix, a free
    # document). Everything else must match the gold solution's office (FORMAT §7).
    free: list[str] = []
    wrong: list[WrongSolution] = []
    choices: list[GoldChoice] = []  # values the gold chose freely: no mutant of them is derived
    right: list[WrongSolution] = []  # alternative correct solutions (same shape as wrong:); each must pass
    tags: list[str] = []
    # The office's people by name, for offices that key mailboxes and calendars by first name
    # (OfficeBench's): agents may then name a person by name or address (apps/people.py).
    people: dict[str, str] = {}
    origin: Origin | None = None  # imported tasks: the source benchmark and its original evaluation
    # A folder (relative to the task's folder) whose files the office starts with, shared by many tasks
    # (an imported benchmark's one sandbox): its template is built once for all of them (FORMAT §4).
    office_from: str | None = None
    # The simulated user system.ask_user talks to: scripted replies, first match wins, else the default.
    user_replies: list[UserReply] = []
    default_reply: str = DEFAULT_REPLY
    # The steps a session gets when its client does not say (long tasks need more than the default).
    max_steps: int | None = Field(default=None, ge=1, le=10_000)
    source_dir: str | None = Field(default=None, exclude=True)  # set by the loader

    @property
    def step_budget(self) -> int:
        """The step limit of a session whose client gives none: the task's own, else DEFAULT_MAX_STEPS."""
        return self.max_steps or DEFAULT_MAX_STEPS

    @field_validator("now")
    @classmethod
    def _now(cls, v: str) -> str:
        datetime.strptime(v, TIME_FORMAT)
        return v

    @field_validator("world")
    @classmethod
    def _world(cls, v: str | None) -> str | None:
        from officesim.testbed.worlds import WORLDS

        if v is not None and v not in WORLDS:
            raise ValueError(f"unknown world '{v}'; worlds are {sorted(WORLDS)}")
        return v

    @property
    def brief(self) -> str:
        """What the agent is told: the conversation (if any), then the instruction."""
        if not self.dialogue:
            return self.instruction
        lines = ["Messages:"]
        for turn in self.dialogue:
            when = datetime.strptime(turn.at, TIME_FORMAT)
            lines.append(f"[{when:%a %d %b %H:%M}] {turn.speaker}: {turn.text}")
        return "\n".join(lines) + "\n\n" + self.instruction

    @field_validator("toolset")
    @classmethod
    def _toolset(cls, v: str) -> str:
        if v not in TOOLSETS:
            raise ValueError(f"unknown tool set '{v}'; tool sets are {list(TOOLSETS)}")
        return v

    @field_validator("apps")
    @classmethod
    def _apps(cls, v: list[str], info: ValidationInfo) -> list[str]:
        toolset = info.data.get("toolset", DEFAULT_TOOLSET)  # validated before apps (declared first)
        known = office_apps(toolset if toolset in TOOLSETS else DEFAULT_TOOLSET)
        bad = [a for a in v if a not in known]
        if bad:
            raise ValueError(f"unknown apps {bad}; apps are {list(known)}"
                             + (f" (the {toolset} tool set)" if toolset != DEFAULT_TOOLSET else ""))
        if len(set(v)) != len(v):
            raise ValueError("apps are listed twice")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> "Task":
        if self.category != len(self.apps) and self.origin is None:  # an imported task keeps its source's category
            raise ValueError(f"category {self.category} but {len(self.apps)} apps listed ({self.apps})")
        used = {a.app for a in self.gold} - {"system"}
        extra = used - set(self.apps)
        if extra:
            raise ValueError(f"gold uses apps not listed in 'apps': {sorted(extra)}")
        if self.answer is not None and not any(c.check.startswith("answer_") for c in self.checks):
            raise ValueError("'answer' is set but no answer_* check verifies it")
        known = self._named_paths()
        for i, pattern in enumerate(self.free if self.office_from is None else []):  # a shared office's files are not listed here
            if not any(fnmatch.fnmatchcase(p, pattern.strip().lstrip("/")) or p.startswith(pattern.strip().lstrip("/").rstrip("/") + "/")
                       for p in known):
                raise ValueError(f"free[{i}] {pattern!r} names no file of the office and no path the gold solution uses")
        return self

    @model_validator(mode="after")
    def _asks(self) -> "Task":
        """The gold solution asks for every needed reply (FORMAT §4, asking the user)."""
        script = self.user_script()["replies"]
        asked = {match_reply(script, str(a.args.get("question", ""))) for a in self.gold
                 if (a.app, a.action) == ("system", "ask_user")}
        missing = [i for i, r in enumerate(self.user_replies) if r.needed and i not in asked]
        if missing:
            raise ValueError(f"user_replies{missing} are needed but no gold system.ask_user question matches them")
        written = " ".join(json.dumps([a.args for a in self.gold if a.action != "ask_user"] + [self.answer], default=str)
                           .split('"'))
        for i, r in enumerate(self.user_replies):
            unused = [k for k in r.guess if str(k) not in written]
            if unused:
                raise ValueError(f"user_replies[{i}].guess names {unused}, which the gold solution never writes")
        return self

    def _named_paths(self) -> list[str]:
        """Office paths the task mentions: its builders' files and every string argument of the gold."""
        paths = [b.path for b in self.office if getattr(b, "path", None)]
        paths += [f"emails/{b.user}/x.eml" for b in self.office if b.type == "eml"]
        paths += [f"calendar/{b.user}.ics" for b in self.office if b.type == "ics"]
        for name in self.people:  # offices keyed by first name (OfficeBench's): each person's mailbox and calendar
            paths += [f"emails/{name}/x.eml", f"emails/{name}/sent/x.eml", f"calendar/{name}.ics"]
        for action in self.gold:
            for value in action.args.values():
                for v in value if isinstance(value, list) else [value]:
                    if isinstance(v, str):
                        paths.append(v.strip().lstrip("/").removeprefix("testbed/"))
                        if action.app == "shell":  # the files a shell command names (data/top3.txt in 'echo x > data/top3.txt')
                            paths += [t.lstrip("/").removeprefix("testbed/") for t in re.findall(r"[\w./-]+\.\w+", v)]
                        if "@" in v:
                            paths += [f"emails/{v.strip().lower()}/x.eml", f"emails/{v.strip().lower()}/sent/x.eml",
                                      f"calendar/{v.strip().lower()}.ics"]
        return paths

    def user_script(self) -> dict:
        """The scripted user as plain data, for the session's context (apps/asking.py reads it): each
        reply with the ``candidates`` a question may name to reach it, derived from the task."""
        replies = [r.model_dump() for r in self.user_replies]
        if replies:
            known = self._known()
            for entry in replies:
                entry["candidates"] = candidates(entry, **known)
        return {"replies": replies, "default": self.default_reply}

    def _known(self) -> dict:
        """What the task knows of its people and files, for the scripted user's candidates: every address
        its office, instruction and gold name, its people's names, its office files (the builders' and
        those under files/) and the folders its instruction names."""
        text = json.dumps([b.model_dump(mode="json") for b in self.office] + [a.args for a in self.gold]
                          + [self.instruction], default=str)
        people = set(re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", text)) | set(self.people.values())
        files = {b.path for b in self.office if getattr(b, "path", None)}
        if self.source_dir:
            from pathlib import Path

            root = Path(self.source_dir) / "files"
            if root.is_dir():
                files |= {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
        folders = [f for f in re.findall(r"[\w.-]+(?:/[\w.-]+)*/(?![\w.-])", self.instruction)
                   if any(x.startswith(f.lstrip("/").removeprefix("testbed/")) for x in files)]
        return {"people": sorted(people), "names": dict(self.people), "files": sorted(files),
                "folders": [f.lstrip("/").removeprefix("testbed/") for f in folders], "user": self.user}

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
            "instruction": self.brief,
            "split": self.split,
            "toolset": self.toolset,
        }
