"""The calendar app: each person's events live in calendar/<address>.ics (iCalendar).

Events we write use floating local times (the office's wall clock). Events written by other
tools may carry a TZID or UTC time; they are shown converted to the session's timezone
(setting ``timezone``, default UTC). All-day events (VALUE=DATE) are shown as dates, the end
being the last day covered (iCalendar's DTEND is exclusive), as in testbed/parse.py.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from icalendar import Calendar, Event, vCalAddress

from officesim.testbed.specs import DATE_FORMAT, TIME_FORMAT
from officesim.apps.people import person_address, person_key, unknown_hint
from officesim.apps.registry import App, OfficeContext, OpError, Result
from officesim.testbed.guards import TooLarge

app = App("calendar", "Create, list, update and delete events in a person's calendar.")



# -- reading -----------------------------------------------------------------------------------


def office_zone(ctx: OfficeContext) -> ZoneInfo:
    """The session's timezone; an unknown name falls back to UTC rather than failing every read."""
    try:
        return ZoneInfo(str(ctx.settings.get("timezone") or "UTC"))
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _local(value: date | datetime, zone: ZoneInfo) -> date | datetime:
    """A DTSTART/DTEND value as office wall-clock time (aware times converted, dates kept)."""
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.astimezone(zone).replace(tzinfo=None)
    return value


def _fmt(value: date | datetime) -> str:
    return value.strftime(TIME_FORMAT if isinstance(value, datetime) else DATE_FORMAT)


def _end_of(ev: Event, start: date | datetime) -> date | datetime:
    """DTEND, else DTSTART+DURATION, else the RFC 5545 default (one day for dates, zero for times)."""
    if ev.get("dtend") is not None:
        return ev.decoded("dtend")
    if ev.get("duration") is not None:
        return start + ev.decoded("duration")
    return start + timedelta(days=1) if not isinstance(start, datetime) else start


def _attendees(ev: Event) -> list[str]:
    raw = ev.get("attendee")
    if raw is None:
        return []
    items = raw if isinstance(raw, list) else [raw]
    out = []
    for item in items:
        text = str(item).strip()
        if text.lower().startswith("mailto:"):
            text = text[7:]
        out.append(text.lower())
    return out


def _text(ev: Event, key: str) -> str | None:
    value = ev.get(key)
    return None if value is None else str(value)


def event_dict(ev: Event, zone: ZoneInfo) -> dict:
    """One VEVENT as the parsed-state dict of FORMAT.md section 3."""
    if ev.get("dtstart") is None:
        raise OpError("corrupt_file", f"event '{ev.get('summary')}' has no start time")
    start_raw = ev.decoded("dtstart")
    start = _local(start_raw, zone)
    end = _local(_end_of(ev, start_raw), zone)
    if not isinstance(start, datetime):
        # DTEND of an all-day event is exclusive; show the last day it covers (as parse.py does).
        last = end.date() if isinstance(end, datetime) else end
        end = max(last - timedelta(days=1), start)
    return {
        "uid": _text(ev, "uid"),
        "summary": _text(ev, "summary") or "",
        "start": _fmt(start),
        "end": _fmt(end),
        "all_day": not isinstance(start, datetime),
        "location": _text(ev, "location"),
        "description": _text(ev, "description"),
        "attendees": _attendees(ev),
    }


def _sort_key(event: dict) -> str:
    """All-day events sort at the start of their day."""
    return event["start"] if not event["all_day"] else event["start"] + " 00:00:00"


def load_calendar(ctx: OfficeContext, user: str) -> tuple[Path, Calendar]:
    """Read calendar/<user>.ics; a missing file is an empty calendar."""
    path = ctx.office.calendar(person_key(ctx, user))
    label = f"the calendar of {user}"
    try:
        data = ctx.office.read_bytes(path, label)
    except OpError as exc:
        if exc.code == "file_not_found" and ctx.office.kind(path) == "missing":
            return path, _new_calendar()
        raise
    try:
        cal = Calendar.from_ical(data)
    except (TooLarge, MemoryError):
        raise
    except Exception as exc:  # icalendar raises ValueError and friends on bad input
        raise OpError("corrupt_file", f"the calendar of {user} could not be read: {exc}") from None
    return path, cal


def _new_calendar() -> Calendar:
    cal = Calendar()
    cal.add("prodid", "-//officesim//calendar//EN")
    cal.add("version", "2.0")
    return cal


def _save(ctx: OfficeContext, path: Path, cal: Calendar) -> None:
    """Write atomically (Office.write_bytes: a mkstemp temporary, no link followed) so a reader never
    sees half a calendar."""
    ctx.office.write_bytes(path, cal.to_ical())


def _events(cal: Calendar) -> list[Event]:
    return [c for c in cal.walk("VEVENT")]


def _matching(cal: Calendar, summary: str) -> list[Event]:
    wanted = summary.strip().casefold()
    return [ev for ev in _events(cal) if str(ev.get("summary", "")).strip().casefold() == wanted]


# -- writing -----------------------------------------------------------------------------------


def parse_time(text: str, name: str) -> datetime:
    """An office time 'YYYY-MM-DD HH:MM:SS' or OpError('bad_date')."""
    try:
        return datetime.strptime(str(text).strip(), TIME_FORMAT)
    except ValueError:
        raise OpError("bad_date", f"{name} '{text}' is not a time like 2026-03-10 14:00:00") from None


def _check_order(start: date | datetime, end: date | datetime) -> None:
    if type(start) is type(end) and end < start:
        raise OpError("bad_date", f"the event ends ({_fmt(end)}) before it starts ({_fmt(start)})")


def _set_attendees(ctx: OfficeContext, ev: Event, attendees: str | list[str]) -> None:
    ev.pop("attendee", None)
    if isinstance(attendees, str):  # "a@x.test, b@x.test", as a person types them
        attendees = [a for a in re.split(r"[,;]", attendees) if a.strip()]
    for address in attendees:
        address = person_address(ctx, address) or address.strip()
        if "@" not in address:
            raise OpError("bad_arguments", f"argument 'attendees': '{address}' is not an email address"
                                           f"{unknown_hint(ctx)}")
        if address.lower().startswith("mailto:"):
            address = address[7:]
        ev.add("attendee", vCalAddress(f"mailto:{address.lower()}"))


def _set_times(ev: Event, start: datetime, end: datetime) -> None:
    """Replace DTSTART/DTEND with floating local times (and drop a DURATION)."""
    for key in ("dtstart", "dtend", "duration"):
        ev.pop(key, None)
    ev.add("dtstart", start)
    ev.add("dtend", end)


def _set_text(ev: Event, key: str, value: str | None) -> None:
    if value is None:
        return
    ev.pop(key, None)
    if value != "":
        ev.add(key, value)


def _uid(user: str, summary: str, start: datetime, count: int) -> str:
    """Deterministic for a given calendar state, so repeated runs give identical files."""
    digest = hashlib.sha1(f"{user}|{summary}|{start}|{count}".encode()).hexdigest()[:16]
    return f"{digest}@officesim"


def block(index: int, event: dict) -> str:
    """The text block an agent reads for one event."""
    lines = [
        f"Event {index}",
        f"Summary: {event['summary']}",
        f"Start: {event['start']}" + (" (all day)" if event["all_day"] else ""),
        f"End: {event['end']}",
        f"Location: {event['location'] or '(none)'}",
        f"Attendees: {', '.join(event['attendees']) or '(none)'}",
    ]
    if event["description"]:
        lines.append(f"Description: {event['description']}")
    return "\n".join(lines)


# -- operations --------------------------------------------------------------------------------


@app.operation(writes=True)
def create_event(
    ctx: OfficeContext,
    user: str,
    summary: str,
    time_start: str,
    time_end: str,
    location: str | None = None,
    description: str | None = None,
    attendees: str | list[str] | None = None,
) -> Result:
    """Create an event in a person's calendar.

    Args:
        user: email address of the calendar's owner.
        summary: the event title.
        time_start: start time, formatted "%Y-%m-%d %H:%M:%S".
        time_end: end time, formatted "%Y-%m-%d %H:%M:%S".
        location: where the event takes place.
        description: longer notes for the event.
        attendees: email addresses of the people invited: a list, or one string separated by commas.
    """
    if not summary.strip():
        raise OpError("bad_arguments", "argument 'summary': the event needs a title")
    start, end = parse_time(time_start, "time_start"), parse_time(time_end, "time_end")
    _check_order(start, end)
    path, cal = load_calendar(ctx, user)
    ev = Event()
    ev.add("uid", _uid(person_key(ctx, user).lower(), summary, start, len(_events(cal))))
    ev.add("dtstamp", (ctx.now or datetime(2000, 1, 1)).replace(tzinfo=ZoneInfo("UTC")))
    ev.add("summary", summary.strip())
    _set_times(ev, start, end)
    _set_text(ev, "location", location)
    _set_text(ev, "description", description)
    _set_attendees(ctx, ev, attendees or [])
    cal.add_component(ev)
    _save(ctx, path, cal)
    event = event_dict(ev, office_zone(ctx))
    return Result(
        observation=f"Created event '{event['summary']}' in the calendar of {user.lower()}.\n" + block(1, event),
        data=event,
    )


@app.operation(writes=True)
def delete_event(ctx: OfficeContext, user: str, summary: str) -> Result:
    """Delete every event with this title (case-insensitive) from a person's calendar.

    Args:
        user: email address of the calendar's owner.
        summary: title of the event(s) to delete.
    """
    path, cal = load_calendar(ctx, user)
    doomed = _matching(cal, summary)
    if not doomed:
        raise OpError("not_found", f"no event titled '{summary}' in the calendar of {user.lower()}")
    cal.subcomponents = [c for c in cal.subcomponents if not any(c is d for d in doomed)]
    _save(ctx, path, cal)
    n = len(doomed)
    return Result(
        observation=f"Deleted {n} event{'s' if n != 1 else ''} titled '{summary}' from the calendar of {user.lower()}.",
        data={"deleted": n},
    )


@app.operation
def list_events(ctx: OfficeContext, username: str) -> Result:
    """List every event of a person's calendar, sorted by start time.

    Args:
        username: email address of the calendar's owner.
    """
    _path, cal = load_calendar(ctx, username)
    zone = office_zone(ctx)
    events = sorted((event_dict(ev, zone) for ev in _events(cal)), key=_sort_key)
    if not events:
        return Result(observation=f"The calendar of {username.lower()} has no events.", data=[])
    text = "\n\n".join(block(i, ev) for i, ev in enumerate(events, 1))
    return Result(observation=text, data=events)


def _new_times(ev: Event, zone: ZoneInfo, time_start: str | None, time_end: str | None) -> tuple[datetime, datetime]:
    """New start/end; moving only the start keeps the duration."""
    old = event_dict(ev, zone)
    if old["all_day"] and (time_start is None or time_end is None):
        raise OpError("bad_date", "an all-day event needs both time_start and time_end to become a timed event")
    old_start = None if old["all_day"] else datetime.strptime(old["start"], TIME_FORMAT)
    old_end = None if old["all_day"] else datetime.strptime(old["end"], TIME_FORMAT)
    start = parse_time(time_start, "time_start") if time_start is not None else old_start
    if time_end is not None:
        end = parse_time(time_end, "time_end")
    else:
        end = start + (old_end - old_start)
    _check_order(start, end)
    return start, end


@app.operation(writes=True)
def update_event(
    ctx: OfficeContext,
    user: str,
    summary: str,
    new_summary: str | None = None,
    time_start: str | None = None,
    time_end: str | None = None,
    location: str | None = None,
    description: str | None = None,
    attendees: str | list[str] | None = None,
) -> Result:
    """Change an event (found by its title, case-insensitive); only the given fields change.

    Moving only the start keeps the event's duration. An empty location/description clears it.

    Args:
        user: email address of the calendar's owner.
        summary: current title of the event.
        new_summary: the new title.
        time_start: new start time, formatted "%Y-%m-%d %H:%M:%S".
        time_end: new end time, formatted "%Y-%m-%d %H:%M:%S".
        location: the new location.
        description: the new description.
        attendees: the new complete list of attendee email addresses (a list, or one string separated by commas).
    """
    path, cal = load_calendar(ctx, user)
    targets = _matching(cal, summary)
    if not targets:
        raise OpError("not_found", f"no event titled '{summary}' in the calendar of {user.lower()}")
    zone = office_zone(ctx)
    for ev in targets:
        if time_start is not None or time_end is not None:
            _set_times(ev, *_new_times(ev, zone, time_start, time_end))
        if new_summary is not None:
            if not new_summary.strip():
                raise OpError("bad_arguments", "argument 'new_summary': the event needs a title")
            _set_text(ev, "summary", new_summary.strip())
        _set_text(ev, "location", location)
        _set_text(ev, "description", description)
        if attendees is not None:
            _set_attendees(ctx, ev, attendees)
    _save(ctx, path, cal)
    events = [event_dict(ev, zone) for ev in targets]
    head = f"Updated {len(events)} event{'s' if len(events) != 1 else ''} in the calendar of {user.lower()}."
    return Result(observation=head + "\n" + "\n\n".join(block(i, e) for i, e in enumerate(events, 1)),
                  data=events if len(events) > 1 else events[0])
