"""Helpers shared by the two-app families (two_app_*.py): the acting person, dates said the way
colleagues say them, and a few name pools. Defines no family itself."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from officesim.tasks.families._kit import COMPANIES, MONTHS, company, fmt, now_on_weekday, people

DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def office_of(rng: random.Random, n_people: int, hour: int = 9, weekdays: tuple[int, ...] | None = None):
    """(org, domain, [me, colleague, ...], now): the acting user is people[0]."""
    org, domain = company(rng)
    folks = people(rng, n_people, domain)
    now = now_on_weekday(rng, hour)
    if weekdays is not None:
        while now.weekday() not in weekdays:
            now += timedelta(days=1)
    return org, domain, folks, now


def other_companies(rng: random.Random, domain: str, n: int) -> list[tuple[str, str]]:
    pool = [c for c in COMPANIES if c[1] != domain]
    return rng.sample(pool, n)


def spoken(d: date | datetime) -> str:
    """'Thursday 12 March'."""
    return f"{DAYS[d.weekday()]} {d.day} {MONTHS[d.month - 1]}"


def day_month(d: date | datetime) -> str:
    """'12 March'."""
    return f"{d.day} {MONTHS[d.month - 1]}"


def clock(dt: datetime) -> str:
    """'2 pm', '9:30 am' — how people say times."""
    h, m = dt.hour, dt.minute
    suffix = "am" if h < 12 else "pm"
    h12 = h % 12 or 12
    return f"{h12}:{m:02d} {suffix}" if m else f"{h12} {suffix}"


def workday_after(d: date, n: int = 1) -> date:
    """The n-th working day after d."""
    while n:
        d += timedelta(days=1)
        if d.weekday() < 5:
            n -= 1
    return d


def workday_before(d: date, n: int = 1) -> date:
    while n:
        d -= timedelta(days=1)
        if d.weekday() < 5:
            n -= 1
    return d


def mail_time(now: datetime, days_back: int, hour: int, minute: int = 0) -> str:
    d = (now - timedelta(days=days_back)).replace(hour=hour, minute=minute, second=0)
    return fmt(d)


def ev(summary: str, start: datetime, end: datetime, location=None, description=None, attendees=None) -> dict:
    return {"summary": summary, "start": fmt(start), "end": fmt(end), "location": location,
            "description": description, "attendees": list(attendees or [])}


def outsider(rng: random.Random, domain: str) -> dict:
    """One person at another (fictitious) company."""
    return people(rng, 1, other_companies(rng, domain, 1)[0][1])[0]
