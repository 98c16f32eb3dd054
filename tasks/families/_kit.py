"""Shared pieces for writing families: fictitious people and companies, dates, actions, builders.

Every name here is invented; domains use the reserved ``.test`` TLD.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

FIRST = ["Maya", "Jonas", "Priya", "Tomas", "Aiko", "Lena", "Omar", "Grace", "Felix", "Nadia", "Ravi",
         "Sofia", "Hugo", "Ines", "Kwame", "Elena", "Marco", "Yara", "Dmitri", "Chloe", "Samir", "Ada",
         "Bruno", "Leila", "Oskar", "Mei", "Tariq", "Zoe", "Anton", "Freya"]
LAST = ["Lin", "Berg", "Nair", "Kovac", "Sato", "Fischer", "Haddad", "Okafor", "Moreau", "Petrov",
        "Iyer", "Rossi", "Lambert", "Silva", "Mensah", "Novak", "Costa", "Farah", "Volkov", "Dubois",
        "Qureshi", "Lovell", "Brandt", "Amari", "Lund", "Chen", "Aziz", "Hart", "Weber", "Holm"]
COMPANIES = [("Northwind Analytics", "northwind.test"), ("Bluefin Logistics", "bluefin.test"),
             ("Copperleaf Studio", "copperleaf.test"), ("Granite Peak Supply", "granitepeak.test"),
             ("Lumen Harbor Health", "lumenharbor.test"), ("Tidewater Foods", "tidewater.test"),
             ("Silverpine Schools", "silverpine.test"), ("Orchid Lane Legal", "orchidlane.test")]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
from officesim.testbed.specs import TIME_FORMAT as FMT  # noqa: E402


def people(rng: random.Random, n: int, domain: str | None = None) -> list[dict]:
    """n distinct people: {"name", "first", "email"} at one company domain."""
    domain = domain or rng.choice(COMPANIES)[1]
    firsts = rng.sample(FIRST, n)
    lasts = rng.sample(LAST, n)
    return [{"name": f"{f} {l}", "first": f, "email": f"{f.lower()}.{l.lower()}@{domain}"} for f, l in zip(firsts, lasts)]


def company(rng: random.Random) -> tuple[str, str]:
    return rng.choice(COMPANIES)


def now_on_weekday(rng: random.Random, hour: int = 9) -> datetime:
    """A simulated 'now' on a random Monday-Thursday morning in 2026."""
    day = date(2026, 1, 5) + timedelta(days=7 * rng.randrange(0, 48) + rng.randrange(0, 4))
    return datetime(day.year, day.month, day.day, hour, rng.choice([0, 15, 30]))


def fmt(dt: datetime) -> str:
    return dt.strftime(FMT)


def iso(d: date | datetime) -> str:
    """2026-03-10"""
    return d.strftime("%Y-%m-%d")


def hm(dt: datetime) -> str:
    """14:30"""
    return dt.strftime("%H:%M")


def day_name(d: date | datetime) -> str:
    return WEEKDAYS[d.weekday()]


def next_weekday(now: datetime, weekday: int) -> date:
    """The next date strictly after now's date with that weekday (0 = Monday)."""
    days = (weekday - now.weekday()) % 7 or 7
    return (now + timedelta(days=days)).date()


def at(d: date, hour: int, minute: int = 0) -> datetime:
    return datetime(d.year, d.month, d.day, hour, minute)


def act(app: str, action: str, **args) -> dict:
    """One action in the API shape."""
    return {"app": app, "action": action, "args": args}


def switch(app: str) -> dict:
    return act("system", "switch_app", target_app=app)


def finish(answer=None) -> dict:
    return act("system", "finish_task", answer=answer)


def check(name: str, **args) -> dict:
    return {"check": name, "args": args}


def money(rng: random.Random, low: int, high: int, step: int = 5) -> int:
    return rng.randrange(low, high, step)
