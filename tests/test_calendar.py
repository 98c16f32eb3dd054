"""Calendar app: events it writes, and .ics files written by other tools (TZID, UTC, all-day)."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event

USER = "maya.lin@northwind.test"


def _create(run, summary="Standup", start="2026-03-10 09:30:00", end="2026-03-10 09:45:00", **extra):
    return run("calendar", "create_event", user=USER, summary=summary, time_start=start, time_end=end, **extra)


def _foreign_calendar(office) -> None:
    """A calendar as another program would write it: aware times and an all-day event."""
    cal = Calendar()
    cal.add("prodid", "-//other tool//EN")
    cal.add("version", "2.0")
    berlin = Event()
    berlin.add("uid", "berlin-1")
    berlin.add("summary", "Berlin sync")
    berlin.add("dtstart", datetime(2026, 3, 11, 15, 0, tzinfo=ZoneInfo("Europe/Berlin")))
    berlin.add("dtend", datetime(2026, 3, 11, 16, 0, tzinfo=ZoneInfo("Europe/Berlin")))
    berlin.add("attendee", "mailto:Ben.Ortiz@northwind.test")
    berlin.add("attendee", "mailto:maya.lin@northwind.test")
    utc = Event()
    utc.add("uid", "utc-1")
    utc.add("summary", "UTC review")
    utc.add("dtstart", datetime(2026, 3, 10, 18, 0, tzinfo=timezone.utc))
    utc.add("duration", timedelta(minutes=30))
    utc.add("location", "Room 4")
    allday = Event()
    allday.add("uid", "day-1")
    allday.add("summary", "Offsite")
    allday.add("dtstart", date(2026, 3, 12))
    allday.add("dtend", date(2026, 3, 13))
    for ev in (berlin, utc, allday):
        cal.add_component(ev)
    path = office.root / "calendar" / f"{USER}.ics"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(cal.to_ical())


def test_create_then_list(run, office):
    r = _create(run, location="Room 1", attendees=["Ben.Ortiz@northwind.test"])
    assert r.ok, r.observation
    assert (office.root / "calendar" / f"{USER}.ics").exists()
    r = run("calendar", "list_events", username=USER)
    assert r.ok
    assert r.observation.startswith("Event 1\nSummary: Standup\nStart: 2026-03-10 09:30:00\nEnd: 2026-03-10 09:45:00")
    assert "Location: Room 1" in r.observation
    assert r.data[0]["attendees"] == ["ben.ortiz@northwind.test"]
    assert r.data[0]["all_day"] is False


def test_written_times_are_floating(run, office):
    _create(run)
    text = (office.root / "calendar" / f"{USER}.ics").read_bytes().decode()
    assert "\nDTSTART:20260310T093000\r\n" in text


def test_list_sorted_by_start(run):
    _create(run, "Late", "2026-03-10 15:00:00", "2026-03-10 16:00:00")
    _create(run, "Early", "2026-03-10 08:00:00", "2026-03-10 08:30:00")
    r = run("calendar", "list_events", username=USER)
    assert [e["summary"] for e in r.data] == ["Early", "Late"]
    assert r.observation.index("Early") < r.observation.index("Late")


def test_bad_dates(run):
    r = _create(run, start="10/03/2026 9am")
    assert not r.ok and r.error["code"] == "bad_date"
    r = _create(run, start="2026-03-10 10:00:00", end="2026-03-10 09:00:00")
    assert not r.ok and r.error["code"] == "bad_date"


def test_empty_calendar_lists_nothing(run):
    r = run("calendar", "list_events", username=USER)
    assert r.ok and r.data == [] and "no events" in r.observation


def test_delete_case_insensitive_all_matches(run):
    _create(run, "Standup", "2026-03-10 09:30:00", "2026-03-10 09:45:00")
    _create(run, "standup", "2026-03-11 09:30:00", "2026-03-11 09:45:00")
    _create(run, "Lunch", "2026-03-10 12:00:00", "2026-03-10 13:00:00")
    r = run("calendar", "delete_event", user=USER, summary="STANDUP")
    assert r.ok and r.data == {"deleted": 2}
    left = run("calendar", "list_events", username=USER).data
    assert [e["summary"] for e in left] == ["Lunch"]
    r = run("calendar", "delete_event", user=USER, summary="Standup")
    assert not r.ok and r.error["code"] == "not_found"


def test_update_fields_and_keep_duration(run):
    _create(run)
    r = run("calendar", "update_event", user=USER, summary="standup", new_summary="Daily",
            time_start="2026-03-10 10:00:00", location="Room 9", attendees=["a@x.test"])
    assert r.ok, r.observation
    ev = run("calendar", "list_events", username=USER).data[0]
    assert (ev["summary"], ev["start"], ev["end"]) == ("Daily", "2026-03-10 10:00:00", "2026-03-10 10:15:00")
    assert ev["location"] == "Room 9" and ev["attendees"] == ["a@x.test"]
    r = run("calendar", "update_event", user=USER, summary="Daily", time_end="2026-03-10 09:00:00")
    assert not r.ok and r.error["code"] == "bad_date"
    r = run("calendar", "update_event", user=USER, summary="nope", location="x")
    assert not r.ok and r.error["code"] == "not_found"


def test_foreign_calendar_timezones_and_all_day(run, office, ctx):
    _foreign_calendar(office)
    ctx.settings["timezone"] = "America/New_York"
    r = run("calendar", "list_events", username=USER)
    assert r.ok, r.observation
    by = {e["summary"]: e for e in r.data}
    # 15:00 Berlin (CET, UTC+1) = 14:00 UTC = 10:00 New York (EDT since 8 March 2026)
    assert by["Berlin sync"]["start"] == "2026-03-11 10:00:00"
    assert by["Berlin sync"]["attendees"] == ["ben.ortiz@northwind.test", "maya.lin@northwind.test"]
    assert by["UTC review"]["start"] == "2026-03-10 14:00:00"
    assert by["UTC review"]["end"] == "2026-03-10 14:30:00"
    assert by["Offsite"] == {**by["Offsite"], "start": "2026-03-12", "end": "2026-03-12", "all_day": True}
    assert [e["summary"] for e in r.data] == ["UTC review", "Berlin sync", "Offsite"]
    assert "Start: 2026-03-12 (all day)" in r.observation


def test_foreign_calendar_default_utc_and_edit(run, office):
    _foreign_calendar(office)
    assert run("calendar", "list_events", username=USER).data[1]["start"] == "2026-03-11 14:00:00"
    assert run("calendar", "update_event", user=USER, summary="utc review", location="Room 5").ok
    assert run("calendar", "delete_event", user=USER, summary="offsite").ok
    events = run("calendar", "list_events", username=USER).data
    assert [e["summary"] for e in events] == ["UTC review", "Berlin sync"]
    assert events[0]["location"] == "Room 5" and events[0]["start"] == "2026-03-10 18:00:00"
    assert _create(run, "New", "2026-03-13 09:00:00", "2026-03-13 10:00:00").ok
    assert len(run("calendar", "list_events", username=USER).data) == 3


def test_corrupt_calendar(run, office):
    path = office.root / "calendar" / f"{USER}.ics"
    path.parent.mkdir(parents=True)
    path.write_text("this is not a calendar")
    r = run("calendar", "list_events", username=USER)
    assert not r.ok and r.error["code"] == "corrupt_file"


def test_bad_user(run):
    r = run("calendar", "list_events", username="../etc")
    assert not r.ok and r.error["code"] in ("bad_arguments", "path_outside_office")


def test_events_agree_with_parsed_office_state(run, office, ctx):
    """list_events data and testbed/parse.py describe the same events the same way."""
    from officesim.testbed.parse import parse_office

    _foreign_calendar(office)
    _create(run, "Mine", attendees=["a@x.test"], location="Desk")
    ctx.settings["timezone"] = "Asia/Tokyo"
    listed = run("calendar", "list_events", username=USER).data
    parsed = parse_office(office.root, "Asia/Tokyo")[f"calendar/{USER}.ics"]["events"]
    assert sorted(listed, key=lambda e: e["uid"]) == sorted(parsed, key=lambda e: e["uid"])


def test_attendees_and_cc_may_be_one_string(run):
    made = run("calendar", "create_event", user="maya.lin@northwind.test", summary="Sync", time_start="2026-03-12 10:00:00",
               time_end="2026-03-12 10:30:00", attendees="dana.ortiz@northwind.test, omar.haddad@bluefin.test")
    assert made.ok, made.observation
    listed = run("calendar", "list_events", username="maya.lin@northwind.test")
    assert "dana.ortiz@northwind.test, omar.haddad@bluefin.test" in listed.observation
    sent = run("email", "send_email", sender="maya.lin@northwind.test", recipient="dana.ortiz@northwind.test",
               subject="Sync", content="See you.", cc="omar.haddad@bluefin.test; ana@northwind.test")
    assert sent.ok, sent.observation
