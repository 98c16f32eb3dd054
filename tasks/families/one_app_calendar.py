"""Single-app (category 1) calendar families: finding a common slot, moving, cancelling and updating meetings."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    COMPANIES, act, at, check, day_name, ev, fmt, head, ics, now_on_weekday, people, setup, switch
)
from officesim.tasks.families.registry import family

_BUSY = ["Client call", "Budget review", "Interview", "Team standup", "Vendor demo", "Training session",
         "Project sync", "Lunch with a client", "Dentist", "Workshop", "Board prep", "Recruiting panel"]


def _background(rng: random.Random, day, n: int, avoid_hours: set[int] = frozenset()) -> list[dict]:
    """n filler events on another day (so whole-calendar checks see untouched history)."""
    hours = rng.sample([h for h in range(9, 17) if h not in avoid_hours], n)
    return [ev(rng.choice(_BUSY), at(day, h), rng.choice([30, 60]), bare=True) for h in sorted(hours)]


@family("meeting-common-free-slot", apps=["calendar"])
def meeting_common_free_slot(rng: random.Random) -> dict:
    """Book a one-hour meeting tomorrow at the earliest hour free in three people's calendars."""
    _, domain, (me, a, b), now = setup(rng, 3)
    tomorrow = (now + timedelta(days=1)).date()
    topic = rng.choice(["Hiring plan", "Launch checklist", "Q3 forecast", "Pricing update", "Office move planning"])
    slot = rng.randint(11, 15)  # the answer: earliest hour (9..16) all three are free
    cal = {p["email"]: [] for p in (me, a, b)}
    # every earlier hour is taken by at least one person; at least one earlier hour leaves me free
    owners = [rng.choice([a, b]) if h == 9 else rng.choice([me, a, b]) for h in range(9, slot)]
    for h, who in zip(range(9, slot), owners):
        cal[who["email"]].append(ev(rng.choice(_BUSY), at(tomorrow, h), 60, bare=True))
    my_free = next(h for h in range(9, slot) if all(e["start"] != fmt(at(tomorrow, h)) for e in cal[me["email"]]))
    for p in (me, a, b):  # later commitments that leave the slot itself free
        for h in rng.sample(range(slot + 1, 17), rng.randint(0, min(2, 16 - slot))):
            cal[p["email"]].append(ev(rng.choice(_BUSY), at(tomorrow, h), 60, bare=True))
        cal[p["email"]] += _background(rng, now.date(), 1, {now.hour, now.hour + 1})
    office = [ics(u, sorted(evs, key=lambda e: e["start"])) for u, evs in cal.items()]
    start, end = at(tomorrow, slot), at(tomorrow, slot + 1)
    users = [me["email"], a["email"], b["email"]]

    def book(hour: int, who: list[str], minutes: int = 60, title: str = topic) -> list[dict]:
        return [act("calendar", "create_event", user=u, summary=title, time_start=fmt(at(tomorrow, hour)),
                    time_end=fmt(at(tomorrow, hour) + timedelta(minutes=minutes)),
                    attendees=[x for x in users if x != u]) for u in who]

    busy = {e["start"] for evs in cal.values() for e in evs}
    later = next((h for h in range(slot + 1, 16) if fmt(at(tomorrow, h)) not in busy), None)

    return {
        **head(me, now),
        "instruction": (f"I need an hour with {a['name']} and {b['name']} tomorrow about the {topic if topic[1].isdigit() else topic.lower()}. "
                        f"Find the earliest full hour between 9:00 and 17:00 (starting on the hour) when all three "
                        f"of us are free and put a one-hour meeting titled '{topic}' in all three calendars."),
        "office": office,
        "checks": [
            check("common_event", users=users, summary=topic, duration_minutes=60),
            check("ics_event", user=me["email"], summary=topic, start=fmt(start), end=fmt(end)),
        ],
        "gold": [switch("calendar")] + [act("calendar", "list_events", username=u) for u in users] + book(slot, users),
        "wrong": [
            {"name": "booked at my own first free hour", "actions": [switch("calendar")] + book(my_free, users)},
            {"name": "only booked in my calendar", "actions": [switch("calendar")] + book(slot, users[:1])},
            {"name": "booked in two of the three calendars", "actions": [switch("calendar")] + book(slot, users[:2])},
            {"name": "booked for half an hour", "actions": [switch("calendar")] + book(slot, users, minutes=30)},
            {"name": "titled otherwise than asked", "actions": [switch("calendar")]
             + book(slot, users, title=f"Meeting with {a['first']} and {b['first']}")},
            {"name": "booked twice in my calendar", "actions": [switch("calendar")] + book(slot, users)
             + book(slot, users[:1])},
        ] + ([{"name": "a later common hour booked, not the earliest", "actions": [switch("calendar")]
               + book(later, users)}] if later is not None else []),
        "right": [
            {"name": "the others' calendars booked first", "actions": [switch("calendar")] + book(slot, users[::-1])},
            {"name": "title in lower case", "actions": [switch("calendar")] + book(slot, users, title=topic.lower())},
        ],
    }


@family("meeting-reschedule-next-week", apps=["calendar"])
def meeting_reschedule_next_week(rng: random.Random) -> dict:
    """Move tomorrow's meeting to a weekday of next week, same time, in both participants' calendars."""
    _, domain, (me, other), now = setup(rng, 2)
    tomorrow = (now + timedelta(days=1)).date()
    summary = rng.choice(["Quarterly review", "Contract walkthrough", "Roadmap check-in", "Mentoring session"])
    summary = f"{summary} ({other['first']})"
    hour = rng.choice([10, 11, 14, 15, 16])
    minutes = rng.choice([30, 45, 60])
    next_monday = now.date() + timedelta(days=7 - now.weekday())
    target = next_monday + timedelta(days=rng.randrange(0, 5))
    this_week = target - timedelta(days=7)
    start = at(target, hour)
    event = ev(summary, at(tomorrow, hour), minutes, "Room 2", attendees=[me["email"], other["email"]], bare=True)
    mine = [event] + _background(rng, tomorrow, 2, {hour}) + _background(rng, target, 1, {hour})
    theirs = [event] + _background(rng, target, 2, {hour})

    def move(day, who, h: int = hour, length: int = minutes) -> list[dict]:
        s = at(day, h)
        return [act("calendar", "update_event", user=u, summary=summary, time_start=fmt(s),
                    time_end=fmt(s + timedelta(minutes=length))) for u in who]

    def recreate(day, who, delete: bool = True) -> list[dict]:
        s = at(day, hour)
        out = []
        for u in who:
            if delete:
                out.append(act("calendar", "delete_event", user=u, summary=summary))
            out.append(act("calendar", "create_event", user=u, summary=summary, time_start=fmt(s),
                           time_end=fmt(s + timedelta(minutes=minutes)), location="Room 2",
                           attendees=[me["email"], other["email"]]))
        return out

    users = [me["email"], other["email"]]
    return {
        **head(me, now),
        "instruction": (f"Something came up tomorrow. Please move '{summary}' to {day_name(target)} of next week at "
                        f"the same time and for the same length, in my calendar and in {other['name']}'s."),
        "office": [ics(me["email"], mine), ics(other["email"], theirs)],
        "checks": [
            check("ics_event", user=u, summary=summary, start=fmt(start), end=fmt(start + timedelta(minutes=minutes)))
            for u in users
        ] + [check("ics_event_count", user=me["email"], count=len(mine)),
             check("ics_event_count", user=other["email"], count=len(theirs))],
        "gold": [switch("calendar"), act("calendar", "list_events", username=me["email"])] + move(target, users),
        "wrong": [
            {"name": "moved only in my calendar", "actions": [switch("calendar")] + move(target, users[:1])},
            {"name": "moved to that weekday of this week", "actions": [switch("calendar")] + move(this_week, users)}
            if this_week > tomorrow else
            {"name": "moved a day too late", "actions": [switch("calendar")] + move(target + timedelta(days=1), users)},
            {"name": "moved two weeks ahead", "actions": [switch("calendar")] + move(target + timedelta(days=7), users)},
            {"name": "moved to next week an hour later", "actions": [switch("calendar")] + move(target, users, h=hour + 1)},
            {"name": "length changed", "actions": [switch("calendar")]
             + move(target, users, length=60 if minutes != 60 else 30)},
            {"name": "copied to next week, tomorrow's meeting kept", "actions": [switch("calendar")]
             + recreate(target, users, delete=False)},
            {"name": "recreated next week without the room and attendees", "actions": [switch("calendar")] + [
                x for u in users for x in (
                    act("calendar", "delete_event", user=u, summary=summary),
                    act("calendar", "create_event", user=u, summary=summary, time_start=fmt(start),
                        time_end=fmt(start + timedelta(minutes=minutes))))]},
        ],
        "right": [
            {"name": "deleted and recreated next week with the same room and attendees", "actions": [
                switch("calendar")] + recreate(target, users)},
            {"name": "updated with the room and attendees restated", "actions": [switch("calendar")] + [
                act("calendar", "update_event", user=u, summary=summary, time_start=fmt(start),
                    time_end=fmt(start + timedelta(minutes=minutes)), location="Room 2",
                    attendees=[other["email"], me["email"]]) for u in users[::-1]]},
        ],
    }


@family("client-visit-cancel", apps=["calendar"])
def client_visit_cancel(rng: random.Random) -> dict:
    """Cancel every calendar entry tied to a postponed client visit on one day, keeping later ones."""
    client = rng.choice(["Bluefin Logistics", "Tidewater Foods", "Lumen Harbor Health", "Granite Peak Supply",
                         "Copperleaf Studio"])
    domain = rng.choice([d for c, d in COMPANIES if c != client])
    me = people(rng, 1, domain)[0]
    now = now_on_weekday(rng)
    short = client.split()[0]
    day = (now + timedelta(days=rng.randint(1, 4 - now.weekday()))).date()  # a weekday later this week
    later = day + timedelta(days=rng.randint(6, 9))
    visit_h = rng.choice([9, 10])
    doomed = [ev(f"{short} site visit", at(day, visit_h), 120, "Reception", bare=True),
              ev(f"Lunch with the {short} team", at(day, 12), 90, "Canteen", bare=True)]
    keep_same_day = ev(rng.choice(["Team standup", "Budget review", "Project sync"]), at(day, 15), 30, bare=True)
    keep_client = ev(f"{short} contract review", at(later, 14), 60, bare=True)
    events = doomed + [keep_same_day, keep_client] + _background(rng, now.date(), 2, {now.hour})
    return {
        **head(me, now),
        "instruction": (f"{client} just postponed their visit on {day_name(day)}. Please take everything with "
                        f"them on that day out of my calendar. Anything with them on other days stays."),
        "office": [ics(me["email"], events)],
        "checks": [check("ics_no_event", user=me["email"], summary=e["summary"]) for e in doomed] + [
            check("ics_event", user=me["email"], summary=keep_client["summary"], start=keep_client["start"]),
            check("ics_event_count", user=me["email"], count=len(events) - 2),
        ],
        "gold": [switch("calendar"), act("calendar", "list_events", username=me["email"])] + [
            act("calendar", "delete_event", user=me["email"], summary=e["summary"]) for e in doomed],
        "wrong": [
            {"name": "only the visit itself removed", "actions": [
                switch("calendar"), act("calendar", "delete_event", user=me["email"], summary=doomed[0]["summary"])]},
            {"name": "the contract review on another day removed too", "actions": [switch("calendar")] + [
                act("calendar", "delete_event", user=me["email"], summary=e["summary"])
                for e in doomed + [keep_client]]},
            {"name": "everything on that day removed, the team meeting too", "actions": [switch("calendar")] + [
                act("calendar", "delete_event", user=me["email"], summary=e["summary"])
                for e in doomed + [keep_same_day]]},
            {"name": "entries marked cancelled instead of removed", "actions": [switch("calendar")] + [
                act("calendar", "update_event", user=me["email"], summary=e["summary"],
                    new_summary=f"CANCELLED - {e['summary']}") for e in doomed]},
            {"name": "entries moved to the contract review day instead of removed", "actions": [switch("calendar")] + [
                act("calendar", "update_event", user=me["email"], summary=e["summary"],
                    time_start=fmt(at(later, 9 + 2 * i)), time_end=fmt(at(later, 10 + 2 * i)))
                for i, e in enumerate(doomed)]},
        ],
        "right": [
            {"name": "removed in the other order", "actions": [switch("calendar")] + [
                act("calendar", "delete_event", user=me["email"], summary=e["summary"].upper())
                for e in doomed[::-1]]},
        ],
    }


@family("meeting-room-and-invitee-update", apps=["calendar"])
def meeting_room_and_invitee_update(rng: random.Random) -> dict:
    """Change tomorrow's meeting room and add one more invitee, keeping the existing ones."""
    _, domain, (me, *team), now = setup(rng, 5)
    tomorrow = (now + timedelta(days=1)).date()
    summary = rng.choice(["Design review", "Sprint planning", "Release retrospective", "Customer feedback review"])
    rooms = rng.sample(["Atlas", "Borealis", "Cedar", "Delta", "Ember", "Fjord"], 2)
    invited, newcomer = team[:3], team[3]
    hour = rng.choice([10, 11, 13, 14])
    attendees = [me["email"]] + [p["email"] for p in invited]
    event = ev(summary, at(tomorrow, hour), 60, f"Room {rooms[0]}", attendees=attendees, bare=True)
    events = [event, ev("Focus time", at(tomorrow, 8), 60, bare=True)] + _background(rng, now.date(), 2, {now.hour})
    new_att = attendees + [newcomer["email"]]
    return {
        **head(me, now),
        "instruction": (f"Tomorrow's {summary.lower()} has to move to Room {rooms[1]} (the projector in "
                        f"Room {rooms[0]} is broken), and please add {newcomer['name']} ({newcomer['email']}) to "
                        f"the invite without dropping anyone."),
        "office": [ics(me["email"], events)],
        "checks": [
            check("ics_event", user=me["email"], summary=summary, start=event["start"], end=event["end"],
                  location=f"Room {rooms[1]}", attendees=new_att),
            check("ics_event_count", user=me["email"], count=len(events)),
        ],
        "gold": [switch("calendar"), act("calendar", "list_events", username=me["email"]),
                 act("calendar", "update_event", user=me["email"], summary=summary, location=f"Room {rooms[1]}",
                     attendees=new_att)],
        "wrong": [
            {"name": "attendee list replaced by the newcomer", "actions": [
                switch("calendar"),
                act("calendar", "update_event", user=me["email"], summary=summary, location=f"Room {rooms[1]}",
                    attendees=[newcomer["email"]])]},
            {"name": "room left unchanged", "actions": [
                switch("calendar"),
                act("calendar", "update_event", user=me["email"], summary=summary, attendees=new_att)]},
            {"name": "newcomer added but the organiser dropped", "actions": [
                switch("calendar"),
                act("calendar", "update_event", user=me["email"], summary=summary, location=f"Room {rooms[1]}",
                    attendees=new_att[1:])]},
            {"name": "newcomer left out", "actions": [
                switch("calendar"),
                act("calendar", "update_event", user=me["email"], summary=summary, location=f"Room {rooms[1]}")]},
            {"name": "a second meeting booked in the new room, the old one kept", "actions": [
                switch("calendar"),
                act("calendar", "create_event", user=me["email"], summary=summary, time_start=event["start"],
                    time_end=event["end"], location=f"Room {rooms[1]}", attendees=new_att)]},
            {"name": "the focus time moved to the new room instead", "actions": [
                switch("calendar"),
                act("calendar", "update_event", user=me["email"], summary="Focus time", location=f"Room {rooms[1]}",
                    attendees=new_att)]},
        ],
        "right": [
            {"name": "attendees listed in another order", "actions": [
                switch("calendar"),
                act("calendar", "update_event", user=me["email"], summary=summary.upper(),
                    location=f"Room {rooms[1]}", attendees=new_att[::-1])]},
            {"name": "deleted and booked again with the new room and everyone", "actions": [
                switch("calendar"),
                act("calendar", "delete_event", user=me["email"], summary=summary),
                act("calendar", "create_event", user=me["email"], summary=summary, time_start=event["start"],
                    time_end=event["end"], location=f"Room {rooms[1]}", attendees=new_att)]},
        ],
    }


@family("sync-already-booked", apps=["calendar"])
def sync_already_booked(rng: random.Random) -> dict:
    """Make sure a sync exists; it already does (the colleague sent the invite), so nothing changes."""
    _, domain, (me, other), now = setup(rng, 2)
    day = (now + timedelta(days=rng.randint(1, 4 - now.weekday()))).date()  # a weekday later this week
    topic = rng.choice(["vendor shortlist", "onboarding plan", "newsletter draft", "conference booth"])
    hour = rng.choice([11, 14, 15, 16])
    existing = ev(f"{topic.capitalize()} sync", at(day, hour), 30, attendees=[other["email"], me["email"]], bare=True)
    events = ([existing, ev(rng.choice(_BUSY), at(day, hour - 2), 60, bare=True)]
              + _background(rng, now.date(), 2, {now.hour}))
    dup = act("calendar", "create_event", user=me["email"], summary=f"Sync with {other['first']}",
              time_start=existing["start"], time_end=existing["end"], attendees=[other["email"]])
    return {
        **head(me, now),
        "instruction": (f"Can you make sure I have a 30-minute sync with {other['name']} about the {topic} on "
                        f"{day_name(day)} at {hour}:00? I don't want to end up with two of them."),
        "office": [ics(me["email"], events)],
        "no_action": True,
        "checks": [
            check("ics_event_count", user=me["email"], count=len(events)),
            check("ics_event", user=me["email"], summary=existing["summary"], start=existing["start"],
                  end=existing["end"]),
        ],
        "gold": [switch("calendar"), act("calendar", "list_events", username=me["email"])],
        "wrong": [
            {"name": "a second sync booked at the same time", "actions": [switch("calendar"), dup]},
            {"name": "existing invite replaced by a new one", "actions": [
                switch("calendar"), act("calendar", "delete_event", user=me["email"], summary=existing["summary"]),
                dup]},
            {"name": "existing sync lengthened to an hour", "actions": [
                switch("calendar"),
                act("calendar", "update_event", user=me["email"], summary=existing["summary"],
                    time_end=fmt(at(day, hour, 0) + timedelta(minutes=60)))]},
            {"name": "the colleague dropped from the existing invite", "actions": [
                switch("calendar"),
                act("calendar", "update_event", user=me["email"], summary=existing["summary"], attendees=[me["email"]])]},
            {"name": "existing sync moved half an hour later", "actions": [
                switch("calendar"),
                act("calendar", "update_event", user=me["email"], summary=existing["summary"],
                    time_start=fmt(at(day, hour, 30)), time_end=fmt(at(day, hour + 1)))]},
            {"name": "the earlier meeting that day removed", "actions": [
                switch("calendar"), act("calendar", "delete_event", user=me["email"], summary=events[1]["summary"])]},
            {"name": "a second sync booked half an hour later", "actions": [
                switch("calendar"),
                act("calendar", "create_event", user=me["email"], summary=f"Sync with {other['first']}",
                    time_start=fmt(at(day, hour, 30)), time_end=fmt(at(day, hour + 1)),
                    attendees=[other["email"]])]},
        ],
        "right": [
            {"name": "both calendars looked at, nothing changed", "actions": [
                switch("calendar"), act("calendar", "list_events", username=me["email"]),
                act("calendar", "list_events", username=other["email"])],
             "answer": f"The sync with {other['first']} is already booked; nothing added."},
        ],
    }
