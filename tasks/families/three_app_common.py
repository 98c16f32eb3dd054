"""Builders and date phrases shared by the three-app families (three_app_*.py).

Nothing here registers a family; it only keeps the family modules short and uniform.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from officesim.tasks.families._kit import COMPANIES, MONTHS, WEEKDAYS, company, fmt, now_on_weekday, people


# ---- who, where, when -------------------------------------------------------------------------
def setup(rng: random.Random, n_colleagues: int, hour: int = 9):
    """(org, domain, me, colleagues, now): me plus n distinct colleagues at one company."""
    org, domain = company(rng)
    staff = people(rng, n_colleagues + 1, domain)
    now = now_on_weekday(rng, hour)
    return org, domain, staff[0], staff[1:], now


def outsider(rng: random.Random, avoid_domain: str, n: int = 1):
    """(org, domain, people) of another fictitious company."""
    org, domain = rng.choice([c for c in COMPANIES if c[1] != avoid_domain])
    return org, domain, people(rng, n, domain)


def head(me: dict, now: datetime) -> dict:
    return {"user": me["email"], "user_name": me["name"], "now": fmt(now)}


def nice(d: date | datetime) -> str:
    """'Thursday, March 12'."""
    return f"{WEEKDAYS[d.weekday()]}, {MONTHS[d.month - 1]} {d.day}"


def short(d: date | datetime) -> str:
    """'March 12'."""
    return f"{MONTHS[d.month - 1]} {d.day}"


def day_phrase(now: datetime, d: date) -> str:
    """How a colleague names a nearby day: 'tomorrow', 'yesterday', 'next Tuesday (March 10)'."""
    delta = (d - now.date()).days
    if delta == 0:
        return "today"
    if delta == 1:
        return "tomorrow"
    if delta == -1:
        return "yesterday"
    if delta > 0:
        return f"next {WEEKDAYS[d.weekday()]} ({short(d)})"
    return f"last {WEEKDAYS[d.weekday()]} ({short(d)})"


def later_weekday(now: datetime, min_days: int = 2, max_days: int = 6) -> date:
    """A weekday (Mon-Fri) between min_days and max_days after now."""
    for k in range(min_days, max_days + 8):
        d = (now + timedelta(days=k)).date()
        if d.weekday() < 5:
            return d
    raise AssertionError("unreachable")


def before(now: datetime, days: int, hour: int, minute: int = 0) -> str:
    """A timestamp `days` before now's date at hour:minute (for mail dates)."""
    d = now - timedelta(days=days)
    return fmt(datetime(d.year, d.month, d.day, hour, minute))


def dt(d: date, hour: int, minute: int = 0) -> datetime:
    return datetime(d.year, d.month, d.day, hour, minute)


# ---- office builders --------------------------------------------------------------------------
def xlsx(path: str, sheets: dict) -> dict:
    return {"type": "xlsx", "path": path, "sheets": sheets}


def docx(path: str, paragraphs: list, tables: list | None = None) -> dict:
    out = {"type": "docx", "path": path, "paragraphs": paragraphs}
    if tables:
        out["tables"] = tables
    return out


def pdf(path: str, pages: list[str], title: str | None = None) -> dict:
    out = {"type": "pdf", "path": path, "pages": pages}
    if title:
        out["title"] = title
    return out


def text(path: str, content: str) -> dict:
    return {"type": "text", "path": path, "content": content}


def image(path: str, lines: list[str]) -> dict:
    return {"type": "image", "path": path, "text": "\n".join(lines), "font_size": 30}


def eml(user: str, id: str, frm: str, subject: str, body: str, date: str, to=None, cc=None,
        attachments=None, folder: str = "inbox") -> dict:
    out = {"type": "eml", "user": user, "folder": folder, "id": id, "from": frm, "to": to or [user],
           "cc": cc or [], "date": date, "subject": subject, "body": body}
    if attachments:
        out["attachments"] = attachments
    return out


def ics(user: str, events: list[dict]) -> dict:
    return {"type": "ics", "user": user, "events": events}


def ev(summary: str, start: datetime, end: datetime, location=None, attendees=None, description=None) -> dict:
    return {"summary": summary, "start": fmt(start), "end": fmt(end), "location": location,
            "description": description, "attendees": list(attendees or [])}


def num(x: float) -> int | float:
    """A number as it reads best: 12.0 -> 12, 12.5 -> 12.5."""
    x = round(float(x), 2)
    return int(x) if x == int(x) else x


def money_str(x: float) -> str:
    return f"{x:.2f}"


def family3(name: str, apps: list[str]):
    """Register a family like ``registry.family``, returning plain data (no shared objects, so the
    YAML written for the suite has no anchors/aliases)."""
    import functools
    import json

    from officesim.tasks.families.registry import family

    def register(fn):
        @functools.wraps(fn)
        def build(rng: random.Random) -> dict:
            return json.loads(json.dumps(fn(rng)))

        family(name, apps)(build)
        return fn

    return register
