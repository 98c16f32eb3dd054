"""The vocabulary hard scenarios are written in: a registry, the world a variant runs in, and actions.

A scenario is a function ``(world) -> task dict`` (FORMAT §4, without id/scenario/category/apps/split)
that computes its instruction, gold solution and checks from the world's records. Each scenario is
played in every world (its variants): ``hard-<scenario>-<world>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Callable

from officesim.testbed.specs import TIME_FORMAT
from officesim.testbed.worlds import WORLDS, world
from officesim.testbed.worlds.model import World

SCENARIOS: dict[str, "Scenario"] = {}
# "The sales reports folder" is where the sales team keeps its reports; a lived-in office need not have
# it yet, so a question about it gets this reply (not a needed one: data/sales/reports is a fair guess).
SALES_REPORTS_REPLY = {"when": ["reports folder", "which folder", "what folder", "where should", "where do",
                                "where to save", "where to put", "folder"],
                       "reply": "The sales reports folder is data/sales/reports; create it if it isn't there yet."}


@dataclass
class Scenario:
    name: str
    apps: list[str]
    build: Callable[[World], dict]
    description: str

    def make(self, world_name: str) -> dict:
        w = world(world_name)
        task = self.build(w)
        head = {"id": f"hard-{self.name}-{world_name}", "scenario": f"hard-{self.name}", "category": len(self.apps),
                "apps": list(self.apps), "split": "hard", "world": world_name, "user": w.user.email,
                "user_name": w.user.name, "now": w.now.strftime(TIME_FORMAT),
                "max_steps": step_budget(len(task.get("gold") or []))}
        out = {**head, **{k: v for k, v in task.items() if k not in head}}
        said = " ".join([out.get("instruction", "")] + [t.get("text", "") for t in out.get("dialogue") or []])
        if "sales reports folder" in said:  # the office has no such folder yet: the user says where it goes
            out["user_replies"] = list(out.get("user_replies") or []) + [SALES_REPORTS_REPLY]
        return out


def step_budget(gold_steps: int) -> int:
    """A hard task's step limit: room to explore a big office beside the work (three times the gold's
    steps, in tens, at least 100)."""
    return max(100, -(-3 * gold_steps // 10) * 10)


def scenario(name: str, apps: list[str]) -> Callable:
    """Register a hard scenario; ``apps`` are the office apps its gold uses (category = their number)."""

    def register(fn: Callable[[World], dict]) -> Callable[[World], dict]:
        if name in SCENARIOS:
            raise ValueError(f"scenario '{name}' is defined twice")
        SCENARIOS[name] = Scenario(name, list(apps), fn, (fn.__doc__ or "").strip())
        return fn

    return register


def variants() -> list[str]:
    return sorted(WORLDS)


# ---- dates as people say them ---------------------------------------------------------------------
def quarter_of(day: date) -> int:
    return (day.month - 1) // 3 + 1


def quarter_start(day: date) -> date:
    return date(day.year, 3 * (quarter_of(day) - 1) + 1, 1)


def long_date(day: date) -> str:
    """16 November 2026"""
    return f"{day.day} {day:%B %Y}"


def at(day: date, hour: int, minute: int = 0) -> datetime:
    """A moment of a day: ``at(day, 9, 30)``."""
    return datetime.combine(day, datetime.min.time()).replace(hour=hour, minute=minute)


def working_days_back(day: date, n: int) -> date:
    """The day ``n`` working days (Monday to Friday) before ``day``."""
    while n > 0:
        day -= timedelta(days=1)
        if day.weekday() < 5:
            n -= 1
    return day


def iso(day: date | datetime) -> str:
    return day.strftime("%Y-%m-%d")


def stamp(when: datetime) -> str:
    return when.strftime(TIME_FORMAT)


def last_week(w: World) -> Callable[[int, int, int], str]:
    """The times of a conversation that began last week: ``at(day, hour, minute)`` counts from last
    week's Monday, midnight."""
    start = datetime.combine(w.now.date() - timedelta(days=w.now.weekday() + 7), datetime.min.time())
    return lambda d, h, m: stamp(start + timedelta(days=d, hours=h, minutes=m))


def money(x: float) -> str:
    """£1,234.50"""
    return f"£{x:,.2f}"


# ---- actions --------------------------------------------------------------------------------------
def act(app: str, action: str, **args: Any) -> dict:
    return {"app": app, "action": action, "args": args}


def switch(app: str) -> dict:
    return act("system", "switch_app", target_app=app)


def read_sheet(path: str) -> dict:
    return act("excel", "read_file", file_path=path)


def set_cell(path: str, row: int, col: int, value: Any) -> dict:
    return act("excel", "set_cell", file_path=path, row_idx=row, column_idx=col, text=value)


def read_doc(path: str) -> dict:
    return act("word", "read_file", file_path=path)


def read_pdf(path: str) -> dict:
    return act("pdf", "read_file", pdf_file_path=path)


def list_mail(w: World, folder: str = "inbox") -> dict:
    return act("email", "list_emails", username=w.user.email, folder=folder)


def read_mail(w: World, mail_id: str) -> dict:
    return act("email", "read_email", username=w.user.email, email_id=mail_id)


def send(w: World, to: list[str] | str, subject: str, content: str, cc: list[str] | None = None,
         attachments: list[str] | None = None) -> dict:
    args: dict[str, Any] = {"sender": w.user.email, "recipient": to, "subject": subject, "content": content}
    if cc:
        args["cc"] = cc
    if attachments:
        args["attachments"] = attachments
    return act("email", "send_email", **args)


def list_events(w: World) -> dict:
    return act("calendar", "list_events", username=w.user.email)


def create_event(w: World, summary: str, start: datetime, end: datetime, *, location: str | None = None,
                 attendees: list[str] | None = None, description: str | None = None) -> dict:
    args: dict[str, Any] = {"user": w.user.email, "summary": summary, "time_start": stamp(start), "time_end": stamp(end)}
    if location:
        args["location"] = location
    if attendees:
        args["attendees"] = attendees
    if description:
        args["description"] = description
    return act("calendar", "create_event", **args)


def check(name: str, point: str | None = None, **args: Any) -> dict:
    """A check; ``point`` names it as a checkpoint of the work (reported in the record)."""
    out: dict[str, Any] = {"check": name, "args": args}
    if point:
        out["name"] = point
    return out


def trigger_mail(w: World, sender_email: str, when: datetime, subject: str, body: str, mail_id: str = "msg-900",
                 attachments: list[str] | None = None) -> dict:
    """The message that sets the task off, added to the world's inbox (an eml builder)."""
    return {"type": "eml", "user": w.user.email, "folder": "inbox", "id": mail_id, "from": sender_email,
            "to": [w.user.email], "date": stamp(when), "subject": subject, "body": body,
            "attachments": attachments or []}


def earlier(w: World, days: int = 0, hours: int = 0) -> datetime:
    return w.now - timedelta(days=days, hours=hours)
