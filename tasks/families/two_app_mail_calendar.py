"""Two-app families: calendar and mail together (calendar + email)."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    act, at, check, clock, day_month, day_name, days_ago, eml, ev, fmt, head, hm, ics, iso, next_weekday, outsider,
    setup, switch, weekday_day_month, workday_after
)
from officesim.tasks.families.registry import family

TOPICS = ["onboarding checklist", "Q3 forecast", "vendor shortlist", "website refresh", "warehouse layout",
          "training plan", "customer survey", "pricing model", "office move", "audit findings"]
ROOMS = ["Room Aspen", "Room Birch", "Room Cedar", "Room Delta", "the Harbour room", "Room 4.12"]


@family("meeting-request-accept", apps=["email", "calendar"])
def meeting_request_accept(rng: random.Random) -> dict:
    """A colleague proposes a meeting by mail: book it with them as attendee and reply to confirm."""
    org, domain, (me, asker, other), now = setup(rng, 3)
    topic, topic2 = rng.sample(TOPICS, 2)
    wd = rng.randrange(0, 5)
    day = next_weekday(now, wd)
    if (day - now.date()).days < 2:
        day += timedelta(days=7)
    start = at(day, rng.choice([10, 11, 13, 14, 15, 16]), rng.choice([0, 30]))
    minutes = rng.choice([30, 45, 60])
    end = start + timedelta(minutes=minutes)
    room = rng.choice(ROOMS)
    length = {30: "half an hour", 45: "45 minutes", 60: "an hour"}[minutes]
    subject = f"Quick chat about the {topic}?"
    body = (f"Hi {me['first']},\n\nCould we sit down on {weekday_day_month(day)} at {clock(start)} for {length} to go "
            f"over the {topic}? I've checked and {room} is free then.\n\nThanks,\n{asker['first']}")
    # a second proposal from someone else, for a different topic and time (not asked for)
    day2 = workday_after(day, 1)
    start2 = at(day2, 9, 30)
    body2 = (f"Hello {me['first']},\n\nWould {weekday_day_month(day2)} at {clock(start2)} work for a short call on "
             f"the {topic2}?\n\nBest,\n{other['first']}")
    title = topic[0].upper() + topic[1:]
    existing = [ev("Weekly team sync", at(day, 9), at(day, 9, 30)), ev("Focus time", at(day, 8), at(day, 9))]
    create = lambda s, e: act("calendar", "create_event", user=me["email"], summary=title, time_start=fmt(s),  # noqa: E731
                              time_end=fmt(e), location=room, attendees=[asker["email"]])
    reply = act("email", "reply_email", username=me["email"], email_id="msg-2",
                content=f"Hi {asker['first']},\n\nthat works for me, it's in my calendar.\n\n{me['first']}")
    return {
        **head(me, now),
        "instruction": (f"{asker['name']} mailed me to propose a meeting about the {topic}. Put it in my calendar "
                        f"titled '{title}', at the time and place {asker['first']} suggested, with "
                        f"{asker['first']} as attendee, then reply to the mail to confirm."),
        "office": [
            eml(me["email"], "msg-1", other["email"], f"Call on the {topic2}", body2, days_ago(now, 1, 16, 5),
                bare=True),
            eml(me["email"], "msg-2", asker["email"], subject, body, days_ago(now, 0, 8, 0), bare=True),
            ics(me["email"], existing),
        ],
        "checks": [
            check("ics_event", user=me["email"], summary=title, start=fmt(start), end=fmt(end),
                  attendees=[asker["email"]]),
            check("contains", file=f"calendar/{me['email']}.ics", text=room.replace("the ", "")),
            check("email_sent", sender=me["email"], to=asker["email"], subject_contains=subject),
        ],
        "gold": [
            switch("email"),
            act("email", "list_emails", username=me["email"]),
            act("email", "read_email", username=me["email"], email_id="msg-2"),
            switch("calendar"),
            act("calendar", "list_events", username=me["email"]),
            create(start, end),
            switch("email"),
            reply,
        ],
        "wrong": [
            {"name": "books it with the wrong length",
             "actions": [switch("calendar"), create(start, start + timedelta(minutes=60 if minutes != 60 else 30)),
                         switch("email"), reply]},
            {"name": "books it but never replies",
             "actions": [switch("calendar"), create(start, end)]},
            {"name": "books the other colleague's proposed time",
             "actions": [switch("calendar"), create(start2, start2 + timedelta(minutes=minutes)), switch("email"), reply]},
            {"name": "replies to the other colleague's mail",
             "actions": [switch("calendar"), create(start, end), switch("email"),
                         act("email", "reply_email", username=me["email"], email_id="msg-1",
                             content=f"{weekday_day_month(day)} at {clock(start)} works.")]},
            {"name": "books it without the room",
             "actions": [switch("calendar"), act("calendar", "create_event", user=me["email"], summary=title,
                                                 time_start=fmt(start), time_end=fmt(end), attendees=[asker["email"]]),
                         switch("email"), reply]},
            {"name": "invites the other colleague too",
             "actions": [switch("calendar"), act("calendar", "create_event", user=me["email"], summary=title,
                                                 time_start=fmt(start), time_end=fmt(end), location=room,
                                                 attendees=[asker["email"], other["email"]]),
                         switch("email"), reply]},
        ],
        "right": [
            {"name": "title and room in another case, a one-line reply",
             "actions": [switch("calendar"), act("calendar", "create_event", user=me["email"], summary=title.lower(),
                                                 time_start=fmt(start), time_end=fmt(end), location=room.upper(),
                                                 attendees=[asker["email"].upper()]),
                         switch("email"), act("email", "reply_email", username=me["email"], email_id="msg-2",
                                              content="Confirmed - see you then.")]},
        ],
    }


@family("meeting-reschedule-notify", apps=["calendar", "email"])
def meeting_reschedule_notify(rng: random.Random) -> dict:
    """Move tomorrow's meeting to a later day at the same time and tell everyone invited."""
    org, domain, folks, now = setup(rng, 4)
    me, guests = folks[0], folks[1:3]
    _, _, (ext,) = outsider(rng, domain)
    attendees = [g["email"] for g in guests] + [ext["email"]]
    tomorrow = workday_after(now.date(), 1)
    new_day = workday_after(tomorrow, rng.choice([1, 2]))
    project = rng.choice(["Atlas", "Beacon", "Comet", "Dune", "Ember", "Fjord"])
    summary = f"{project} vendor sync"
    h = rng.choice([10, 11, 14, 15, 16])
    start, end = at(tomorrow, h), at(tomorrow, h, 45)
    new_start, new_end = at(new_day, h), at(new_day, h, 45)
    events = [
        ev(summary, start, end, location="Video call", attendees=attendees),
        ev(f"{project} internal prep", at(tomorrow, h - 1), at(tomorrow, h - 1, 30), attendees=[guests[0]["email"]]),
        ev("Quarterly planning", at(new_day, 9), at(new_day, 10, 30), attendees=[guests[1]["email"]]),
    ]
    body = (f"Hello all,\n\nI need to move our {summary} from tomorrow to {weekday_day_month(new_day)}, same time "
            f"as before. The calendar is updated.\n\nApologies for the shuffle,\n{me['first']}")
    wrong_day = workday_after(tomorrow, 1 if new_day != workday_after(tomorrow, 1) else 2)
    near = [workday_after(tomorrow, 1), workday_after(tomorrow, 2)]  # the days it could have moved to
    move = act("calendar", "update_event", user=me["email"], summary=summary, time_start=fmt(new_start),
               time_end=fmt(new_end))
    mail = lambda to: act("email", "send_email", sender=me["email"], recipient=to,  # noqa: E731
                          subject=f"{summary} moved to {day_name(new_day)}", content=body)
    return {
        **head(me, now),
        "instruction": (f"Something came up: please move tomorrow's {summary} to {weekday_day_month(new_day)} at the "
                        "same time (same length), and email everyone invited to it about the new date."),
        "office": [ics(me["email"], events)],
        "checks": [
            check("ics_event", user=me["email"], summary=summary, start=fmt(new_start), end=fmt(new_end)),
            check("email_sent", sender=me["email"], to=attendees, body_contains=[iso(new_day)],
                  body_excludes=[iso(d) for d in near if d != new_day]),
            check("ics_event", user=me["email"], summary=f"{project} internal prep",
                  start=fmt(at(tomorrow, h - 1))),
        ],
        "gold": [
            switch("calendar"),
            act("calendar", "list_events", username=me["email"]),
            move,
            switch("email"),
            mail(attendees),
        ],
        "wrong": [
            {"name": "forgets the external attendee",
             "actions": [switch("calendar"), move, switch("email"), mail(attendees[:2])]},
            {"name": "moves it to the wrong day",
             "actions": [switch("calendar"),
                         act("calendar", "update_event", user=me["email"], summary=summary,
                             time_start=fmt(at(wrong_day, h)), time_end=fmt(at(wrong_day, h, 45))),
                         switch("email"), mail(attendees)]},
            {"name": "moves the meeting but the mail names the wrong day",
             "actions": [switch("calendar"), move, switch("email"),
                         act("email", "send_email", sender=me["email"], recipient=attendees,
                             subject=f"{summary} moved", content=body.replace(weekday_day_month(new_day),
                                                                              weekday_day_month(wrong_day)))]},
            {"name": "books a new event and leaves the old one",
             "actions": [switch("calendar"),
                         act("calendar", "create_event", user=me["email"], summary=summary, time_start=fmt(new_start),
                             time_end=fmt(new_end), location="Video call", attendees=attendees),
                         switch("email"), mail(attendees)]},
            {"name": "one mail to each guest, and the external one forgotten",
             "actions": [switch("calendar"), move, switch("email")] + [mail(g) for g in attendees[:2]]},
            {"name": "mails the guests but never moves the meeting",
             "actions": [switch("email"), mail(attendees)]},
        ],
        "right": [
            {"name": "deleted and booked again, the date in figures in another subject",
             "actions": [switch("calendar"), act("calendar", "delete_event", user=me["email"], summary=summary),
                         act("calendar", "create_event", user=me["email"], summary=summary, time_start=fmt(new_start),
                             time_end=fmt(new_end), location="Video call", attendees=attendees),
                         switch("email"),
                         act("email", "send_email", sender=me["email"], recipient=attendees, subject="New date",
                             content=f"Hi all, our {summary} is now on {new_day.strftime('%d/%m/%Y')} at "
                                     f"{clock(new_start)} instead of tomorrow. {me['first']}")]},
        ],
    }


@family("new-joiner-welcome", apps=["email", "calendar"])
def new_joiner_welcome(rng: random.Random) -> dict:
    """HR announces a new joiner: add them to the weekly team meeting and send them a welcome mail."""
    org, domain, folks, now = setup(rng, 6)
    me, hr, team = folks[0], folks[1], folks[2:5]
    joiner = folks[5]
    start_day = now.date() + timedelta(days=7 - now.weekday())  # next Monday
    meet_wd = rng.choice([0, 1, 2])
    meet_day = start_day + timedelta(days=meet_wd)
    h = rng.choice([9, 10, 11])
    team_mails = [p["email"] for p in team]
    team_meeting = "Team weekly"
    events = [
        ev(team_meeting, at(meet_day, h), at(meet_day, h, 30), location="Room Aspen", attendees=team_mails),
        ev("Budget review", at(meet_day, 14), at(meet_day, 15), attendees=[team_mails[0]]),
        ev("1:1 with " + team[1]["first"], at(start_day, 16), at(start_day, 16, 30), attendees=[team_mails[1]]),
    ]
    role = rng.choice(["data analyst", "account manager", "office coordinator", "QA engineer", "designer"])
    hr_body = (f"Hi {me['first']},\n\nGood news: {joiner['name']} joins your team as {role} on Monday "
               f"{day_month(start_day)}. Their work address is already active: {joiner['email']}.\n\n"
               f"Best,\n{hr['first']} (HR)")
    welcome = (f"Hi {joiner['first']},\n\nWelcome to the team! I've added you to our {team_meeting} meeting, "
               f"{day_name(meet_day)}s at {clock(at(meet_day, h))} in Room Aspen. See you on Monday.\n\n{me['first']}")
    add = lambda who: act("calendar", "update_event", user=me["email"], summary=team_meeting,  # noqa: E731
                          attendees=team_mails + [who])
    send = act("email", "send_email", sender=me["email"], recipient=joiner["email"], subject="Welcome aboard",
               content=welcome)
    return {
        **head(me, now),
        "instruction": ("HR emailed me about a new person joining my team next week. Add them to the attendees of "
                        f"our '{team_meeting}' meeting in my calendar (keep everyone else on it), and send them a "
                        "short welcome email that says which day and at what time that meeting is."),
        "office": [
            eml(me["email"], "msg-1", hr["email"], "Payroll cut-off", "Reminder: expenses by the 25th.\n",
                days_ago(now, 2, 14, 30), bare=True),
            eml(me["email"], "msg-2", hr["email"], "New starter next week", hr_body, days_ago(now, 0, 8, 45),
                bare=True),
            ics(me["email"], events),
        ],
        "checks": [
            check("ics_event", user=me["email"], summary=team_meeting, start=fmt(at(meet_day, h)),
                  attendees=team_mails + [joiner["email"]]),
            # a weekly meeting: its day is the weekday; its time as a clock time, not the other meetings'
            check("email_sent", sender=me["email"], to=joiner["email"], body_contains=[day_name(meet_day), hm(at(meet_day, h))],
                  body_excludes=["14:00", "16:00"] + [day_name(start_day + timedelta(days=k)) for k in (1, 2)
                                                      if k != meet_wd]),
        ],
        "gold": [
            switch("email"),
            act("email", "read_email", username=me["email"], email_id="msg-2"),
            switch("calendar"),
            act("calendar", "list_events", username=me["email"]),
            add(joiner["email"]),
            switch("email"),
            send,
        ],
        "wrong": [
            {"name": "replaces the attendee list with the new joiner alone",
             "actions": [switch("calendar"),
                         act("calendar", "update_event", user=me["email"], summary=team_meeting,
                             attendees=[joiner["email"]]), switch("email"), send]},
            {"name": "welcome mail sent to HR instead of the new joiner",
             "actions": [switch("calendar"), add(joiner["email"]), switch("email"),
                         act("email", "send_email", sender=me["email"], recipient=hr["email"],
                             subject="Welcome aboard", content=welcome)]},
            {"name": "the welcome mail gives the budget review's time",
             "actions": [switch("calendar"), add(joiner["email"]), switch("email"),
                         act("email", "send_email", sender=me["email"], recipient=joiner["email"],
                             subject="Welcome aboard", content=welcome.replace(clock(at(meet_day, h)), "2 pm"))]},
            {"name": "the welcome mail names the day but not the time",
             "actions": [switch("calendar"), add(joiner["email"]), switch("email"),
                         act("email", "send_email", sender=me["email"], recipient=joiner["email"],
                             subject="Welcome aboard",
                             content=f"Hi {joiner['first']}, welcome! Our {team_meeting} is on {day_name(meet_day)}s.")]},
            {"name": "adds the new joiner to the budget review instead",
             "actions": [switch("calendar"), act("calendar", "update_event", user=me["email"], summary="Budget review",
                                                 attendees=[team_mails[0], joiner["email"]]), switch("email"), send]},
            {"name": "welcome mail only, the calendar untouched", "actions": [switch("email"), send]},
        ],
        "right": [
            {"name": "another subject and wording, the time as 24-hour clock",
             "actions": [switch("calendar"), add(joiner["email"]), switch("email"),
                         act("email", "send_email", sender=me["email"], recipient=joiner["email"],
                             subject=f"Welcome, {joiner['first']}",
                             content=f"Great to have you with us! You're invited to the {team_meeting}: every "
                                     f"{day_name(meet_day)} at {hm(at(meet_day, h))}, Room Aspen.")]},
        ],
    }
