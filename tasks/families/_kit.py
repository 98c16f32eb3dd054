"""The one vocabulary every family is written in: invented people and companies, dates and how people
say them, office builders, actions and checks (tasks/FORMAT.md, "Adding a task family").

Every name here is invented; domains use the reserved ``.test`` TLD. Nothing here registers a family.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from officesim.testbed.specs import TIME_FORMAT as FMT

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


# ---- who, where, when -------------------------------------------------------------------------
def people(rng: random.Random, n: int, domain: str | None = None) -> list[dict]:
    """n distinct people: {"name", "first", "email"} at one company domain."""
    domain = domain or rng.choice(COMPANIES)[1]
    firsts = rng.sample(FIRST, n)
    lasts = rng.sample(LAST, n)
    return [{"name": f"{f} {l}", "first": f, "email": f"{f.lower()}.{l.lower()}@{domain}"} for f, l in zip(firsts, lasts)]


def company(rng: random.Random) -> tuple[str, str]:
    """(name, domain) of one company."""
    return rng.choice(COMPANIES)


def other_companies(rng: random.Random, domain: str, n: int) -> list[tuple[str, str]]:
    """n distinct (name, domain) companies other than the one at ``domain``."""
    return rng.sample([c for c in COMPANIES if c[1] != domain], n)


def outsider(rng: random.Random, domain: str, n: int = 1) -> tuple[str, str, list[dict]]:
    """(org, domain, people): n people at one company other than the one at ``domain``."""
    org, other = other_companies(rng, domain, 1)[0]
    return org, other, people(rng, n, other)


def now_on_weekday(rng: random.Random, hour: int = 9) -> datetime:
    """A simulated 'now' on a random Monday-Thursday morning in 2026."""
    day = date(2026, 1, 5) + timedelta(days=7 * rng.randrange(0, 48) + rng.randrange(0, 4))
    return datetime(day.year, day.month, day.day, hour, rng.choice([0, 15, 30]))


def setup(rng: random.Random, n_people: int, hour: int = 9, weekdays: tuple[int, ...] | None = None):
    """(org, domain, people, now): n people of one company, the acting user first, and a simulated now
    (moved forward to one of ``weekdays``, 0 = Monday, when given)."""
    org, domain = company(rng)
    staff = people(rng, n_people, domain)
    now = now_on_weekday(rng, hour)
    if weekdays is not None:
        while now.weekday() not in weekdays:
            now += timedelta(days=1)
    return org, domain, staff, now


def head(me: dict, now: datetime) -> dict:
    """The task's acting user and simulated now: ``{**head(me, now), "instruction": ...}``."""
    return {"user": me["email"], "user_name": me["name"], "now": fmt(now)}


# ---- times and dates, and how people say them -------------------------------------------------
def fmt(dt: datetime) -> str:
    """2026-03-12 14:30:00 (task files, actions and checks)."""
    return dt.strftime(FMT)


def iso(d: date | datetime) -> str:
    """2026-03-12"""
    return d.strftime("%Y-%m-%d")


def hm(dt: datetime) -> str:
    """14:30"""
    return dt.strftime("%H:%M")


def clock(dt: datetime) -> str:
    """'2 pm', '9:30 am'"""
    h, m = dt.hour, dt.minute
    suffix = "am" if h < 12 else "pm"
    h12 = h % 12 or 12
    return f"{h12}:{m:02d} {suffix}" if m else f"{h12} {suffix}"


def day_name(d: date | datetime) -> str:
    """Thursday"""
    return WEEKDAYS[d.weekday()]


def day_month(d: date | datetime) -> str:
    """12 March"""
    return f"{d.day} {MONTHS[d.month - 1]}"


def month_day(d: date | datetime) -> str:
    """March 12"""
    return f"{MONTHS[d.month - 1]} {d.day}"


def weekday_day_month(d: date | datetime, year: bool = False) -> str:
    """Thursday 12 March (Thursday 12 March 2026 with ``year``)"""
    return f"{day_name(d)} {day_month(d)}" + (f" {d.year}" if year else "")


def weekday_month_day(d: date | datetime) -> str:
    """Thursday, March 12"""
    return f"{day_name(d)}, {month_day(d)}"


def day_phrase(now: datetime, d: date) -> str:
    """How a colleague names a nearby day: 'today', 'tomorrow', 'yesterday', 'next Tuesday (March 10)'."""
    delta = (d - now.date()).days
    if delta == 0:
        return "today"
    if delta == 1:
        return "tomorrow"
    if delta == -1:
        return "yesterday"
    return f"{'next' if delta > 0 else 'last'} {day_name(d)} ({month_day(d)})"


def at(d: date, hour: int, minute: int = 0) -> datetime:
    """That date at hour:minute."""
    return datetime(d.year, d.month, d.day, hour, minute)


def days_ago(now: datetime, days: int, hour: int, minute: int = 0) -> str:
    """The formatted time ``days`` days before now's date at hour:minute (mail dates)."""
    return fmt(at((now - timedelta(days=days)).date(), hour, minute))


def next_weekday(now: datetime, weekday: int) -> date:
    """The next date strictly after now's date with that weekday (0 = Monday)."""
    days = (weekday - now.weekday()) % 7 or 7
    return (now + timedelta(days=days)).date()


def workday_after(d: date, n: int = 1) -> date:
    """The n-th working day (Monday-Friday) after d."""
    while n:
        d += timedelta(days=1)
        if d.weekday() < 5:
            n -= 1
    return d


def workday_before(d: date, n: int = 1) -> date:
    """The n-th working day (Monday-Friday) before d."""
    while n:
        d -= timedelta(days=1)
        if d.weekday() < 5:
            n -= 1
    return d


def workday_from(now: datetime, days: int) -> date:
    """The first working day at least ``days`` days after now's date."""
    return workday_after(now.date() + timedelta(days=days - 1))


# ---- numbers and cells ------------------------------------------------------------------------
def num(x: float) -> int | float:
    """A number as it reads best: 12.0 -> 12, 12.5 -> 12.5."""
    x = round(float(x), 2)
    return int(x) if x == int(x) else x


def money_str(x: float) -> str:
    """1234.5 -> '1234.50'"""
    return f"{x:.2f}"


def col_letter(n: int) -> str:
    """The letter of spreadsheet column n (1 = A)."""
    return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[n - 1]


# ---- actions and checks -----------------------------------------------------------------------
def act(app: str, action: str, **args) -> dict:
    """One action in the API shape."""
    return {"app": app, "action": action, "args": args}


def switch(app: str) -> dict:
    return act("system", "switch_app", target_app=app)


def finish(answer=None) -> dict:
    return act("system", "finish_task", answer=answer)


def ask(question: str) -> dict:
    """A question to the user (system.ask_user; the task's user_replies answer it)."""
    return act("system", "ask_user", question=question)


def sh(command: str) -> dict:
    """One shell command."""
    return act("shell", "command", command=command)


def check(name: str, **args) -> dict:
    return {"check": name, "args": args}


# ---- office builders (FORMAT §4) --------------------------------------------------------------
# Optional fields are written only when given, unless a builder says otherwise.
def xlsx(path: str, sheets: dict) -> dict:
    return {"type": "xlsx", "path": path, "sheets": sheets}


def docx(path: str, paragraphs: list, tables: list | None = None) -> dict:
    out = {"type": "docx", "path": path, "paragraphs": paragraphs}
    if tables is not None:
        out["tables"] = tables
    return out


def pdf(path: str, pages: list[str], title: str | None = None) -> dict:
    out = {"type": "pdf", "path": path, "pages": pages}
    if title is not None:
        out["title"] = title
    return out


def text(path: str, content: str) -> dict:
    return {"type": "text", "path": path, "content": content}


def image(path: str, text: str | list[str], font_size: int | None = None) -> dict:
    """An image rendered from text (a string or its lines) for OCR."""
    out = {"type": "image", "path": path, "text": text if isinstance(text, str) else "\n".join(text)}
    if font_size is not None:
        out["font_size"] = font_size
    return out


def eml(user: str, id: str, frm: str, subject: str, body: str, date: str | datetime, to=None, cc=None,
        attachments=None, folder: str | None = None, *, bare: bool = False) -> dict:
    """A message in ``user``'s mailbox; ``date`` a datetime or a formatted time; ``to`` defaults to [user].
    folder ("inbox") and cc ([]) are written out unless ``bare``; attachments only when given."""
    out = {"type": "eml", "user": user}
    if folder is not None or not bare:
        out["folder"] = folder or "inbox"
    out.update({"id": id, "from": frm, "to": to or [user]})
    if cc is not None or not bare:
        out["cc"] = cc or []
    out.update({"date": date if isinstance(date, str) else fmt(date), "subject": subject, "body": body})
    if attachments is not None:
        out["attachments"] = attachments
    return out


def ics(user: str, events: list[dict]) -> dict:
    return {"type": "ics", "user": user, "events": events}


def ev(summary: str, start: datetime, end: datetime | int, location: str | None = None, *, attendees=None,
       description: str | None = None, bare: bool = False) -> dict:
    """One calendar event for ``ics``; ``end`` a datetime or a length in minutes. location, description and
    attendees are written out (null, null, []) unless ``bare``, which writes only the ones given."""
    if isinstance(end, int):
        end = start + timedelta(minutes=end)
    out = {"summary": summary, "start": fmt(start), "end": fmt(end)}
    for key, value in (("location", location), ("description", description), ("attendees", attendees)):
        if value is not None or not bare:
            out[key] = list(value or []) if key == "attendees" else value
    return out
