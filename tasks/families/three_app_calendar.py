"""Three-app families centred on calendars: invitations, rescheduling, interviews, deadlines, agendas."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    act, at, check, day_phrase, days_ago, docx, eml, ev, fmt, head, hm, ics, image, iso, month_day, outsider, pdf,
    people, setup, sh, switch, text, weekday_month_day, workday_from, xlsx
)
from officesim.tasks.families.registry import family


ROOMS = ["Orion", "Vega", "Lyra", "Atlas", "Cedar", "Maple", "Juniper", "Harbor"]


# ---------------------------------------------------------------------------------------------
@family("training-session-invite", apps=["excel", "calendar", "email"])
def training_session_invite(rng: random.Random) -> dict:
    """Invite everyone whose mandatory training is due (per the tracker) to a session and mail them."""
    org, domain, (me, *staff), now = setup(rng, 8)
    training = rng.choice(["Fire Warden Training", "First Aid Refresher", "Data Protection Basics",
                           "Manual Handling Course"])
    status = ["Due", "Due", "Due", "Done", "Done", "Exempt", "Done"]
    rng.shuffle(status)
    due = [p for p, s in zip(staff, status) if s == "Due"]
    exempt = [p for p, s in zip(staff, status) if s == "Exempt"]
    tracker = "data/hr/training_tracker.xlsx"
    rows = [["Name", "Email", "Team", training]] + [
        [p["name"], p["email"], rng.choice(["Sales", "Ops", "Finance", "IT"]), s] for p, s in zip(staff, status)]
    day = workday_from(now, 2)
    room = rng.choice(ROOMS)
    emails = [p["email"] for p in due]
    cal = ics(me["email"], [ev("1:1 with manager", at(day, 14), at(day, 14, 30)),
                            ev("Weekly planning", at(now.date(), 11), at(now.date(), 12))])

    def book(d, people_):
        return [act("calendar", "create_event", user=me["email"], summary=training, time_start=fmt(at(d, 10)),
                    time_end=fmt(at(d, 12)), location=room, attendees=[p["email"] for p in people_])]

    def mail(people_, d):
        return act("email", "send_email", sender=me["email"], recipient=[p["email"] for p in people_], subject=training,
                   content=f"Hello,\n\nyou are booked on {training} on {weekday_month_day(d)}, 10:00-12:00, in room "
                           f"{room}.\n\n{me['name']}")

    later = day + timedelta(days=7)
    return {
        **head(me, now),
        "instruction": (f"Please book a {training} session {day_phrase(now, day)} from 10:00 to 12:00 in room {room}: "
                        f"create the event '{training}' on my calendar with everyone whose status is Due in {tracker} as "
                        f"attendees (nobody else), and send them one email (all of them in To) with subject '{training}' "
                        f"giving the date, time and room."),
        "office": [xlsx(tracker, {"Tracker": rows}), cal],
        "checks": [check("ics_event", user=me["email"], summary=training, start=fmt(at(day, 10)),
                         end=fmt(at(day, 12)), location=room, attendees=emails),
                   check("email_sent", sender=me["email"], to=emails, subject=training,
                         body_contains=[iso(day), "10:00", "12:00", room])],
        "gold": [switch("excel"), act("excel", "read_file", file_path=tracker), switch("calendar"), *book(day, due),
                 switch("email"), mail(due, day)],
        "wrong": [
            {"name": "also invites the exempt colleague", "actions": [
                switch("calendar"), *book(day, due + exempt), switch("email"), mail(due + exempt, day)]},
            {"name": "booked a week late", "actions": [switch("calendar"), *book(later, due), switch("email"),
                                                      mail(due, later)]},
            {"name": "the mail gives the room but not the date and time", "actions": [
                switch("calendar"), *book(day, due), switch("email"),
                act("email", "send_email", sender=me["email"], recipient=emails, subject=training,
                    content=f"Hello,\n\nyou are booked on {training} in room {room}.\n\n{me['name']}")]},
            {"name": "one mail per person instead of one to all", "actions": [
                switch("calendar"), *book(day, due), switch("email"), *[mail([p], day) for p in due]]},
            {"name": "also invites those who are done", "actions": [
                switch("calendar"), *book(day, [p for p, s_ in zip(staff, status) if s_ != "Exempt"]),
                switch("email"), mail([p for p, s_ in zip(staff, status) if s_ != "Exempt"], day)]},
            {"name": "a one-hour session", "actions": [
                switch("calendar"), act("calendar", "create_event", user=me["email"], summary=training,
                                        time_start=fmt(at(day, 10)), time_end=fmt(at(day, 11)), location=room,
                                        attendees=emails), switch("email"), mail(due, day)]},
        ],
        "right": [
            {"name": "attendees in another order, the mail reworded with am/pm times", "actions": [
                switch("calendar"), *book(day, list(reversed(due))), switch("email"),
                act("email", "send_email", sender=me["email"], recipient=list(reversed(emails)), subject=training.upper(),
                    content=f"Hi all, see you on {weekday_month_day(day)} from 10 am to 12 pm in {room} for "
                            f"the {training}.")]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("room-closure-relocate", apps=["ocr", "calendar", "email"])
def room_closure_relocate(rng: random.Random) -> dict:
    """A scanned facilities notice closes a room for a day: move the affected meetings and tell the attendees."""
    org, domain, (me, *staff), now = setup(rng, 7)
    closed, repl, third = rng.sample(ROOMS, 3)
    day = workday_from(now, 1)
    other_day = workday_from(now, 5)
    titles = rng.sample(["Vendor review", "Hiring sync", "Roadmap check-in", "Budget walkthrough", "Sprint demo",
                         "Client prep"], 4)
    a_att, b_att, c_att = staff[0:2], staff[1:4], staff[4:6]
    events = [ev(titles[0], at(day, 10), at(day, 11), closed, attendees=[p["email"] for p in a_att]),
              ev(titles[1], at(day, 15), at(day, 15, 45), closed, attendees=[p["email"] for p in b_att]),
              ev(titles[2], at(day, 13), at(day, 13, 30), third, attendees=[p["email"] for p in c_att]),
              ev(titles[3], at(other_day, 9, 30), at(other_day, 10, 30), closed, attendees=[staff[5]["email"]])]
    scan = "data/scans/facilities_notice.png"
    lines = ["FACILITIES NOTICE", f"Room {closed} is closed", f"on {weekday_month_day(day)}", "for floor repairs.",
             f"Please use room {repl}", "instead on that day."]
    affected = sorted({p["email"] for p in a_att + b_att})

    def move(ts):
        return [act("calendar", "update_event", user=me["email"], summary=t, location=repl) for t in ts]

    mail = lambda to: act("email", "send_email", sender=me["email"], recipient=to,
                          subject=f"Room change on {month_day(day)}",
                          content=f"Hi all,\n\nroom {closed} is closed, so our meetings "
                                  f"there move to room {repl}. Times stay the same.\n\n{me['first']}")
    return {
        **head(me, now),
        "instruction": (f"Facilities left a scanned notice at {scan}. Move my meetings affected by it to the "
                        f"replacement room it names (change their location only), then send one email to all the "
                        f"attendees of the moved meetings (everyone in To) telling them the new room."),
        "office": [image(scan, lines, font_size=30), ics(me["email"], events),
                   eml(me["email"], "msg-1", staff[2]["email"], "Agenda", "I added two points to the agenda.",
                       days_ago(now, 1, 9))],
        "checks": [check("ics_event", user=me["email"], summary=titles[0], start=events[0]["start"], location=repl),
                   check("ics_event", user=me["email"], summary=titles[1], start=events[1]["start"], location=repl),
                   check("ics_event", user=me["email"], summary=titles[2], location=third),
                   check("ics_event", user=me["email"], summary=titles[3], location=closed),
                   check("email_sent", sender=me["email"], to=affected, body_contains=[repl])],
        "gold": [switch("ocr"), act("ocr", "recognize_file", file_path=scan), switch("calendar"),
                 act("calendar", "list_events", username=me["email"]), *move(titles[:2]), switch("email"), mail(affected)],
        "wrong": [
            {"name": "moves every meeting in the closed room, whatever the day", "actions": [
                switch("calendar"), *move([titles[0], titles[1], titles[3]]), switch("email"),
                mail(sorted(set(affected) | {staff[5]["email"]}))]},
            {"name": "tells only the first meeting's attendees", "actions": [
                switch("calendar"), *move(titles[:2]), switch("email"), mail(sorted(p["email"] for p in a_att))]},
            {"name": "moves that day's meeting in another room too", "actions": [
                switch("calendar"), *move(titles[:3]), switch("email"),
                mail(sorted(set(affected) | {p["email"] for p in c_att}))]},
            {"name": "the mail does not name the new room", "actions": [
                switch("calendar"), *move(titles[:2]), switch("email"),
                act("email", "send_email", sender=me["email"], recipient=affected, subject="Room change",
                    content=f"Hi all,\n\nroom {closed} is closed on {weekday_month_day(day)}; our meetings move to "
                            f"another room.\n\n{me['first']}")]},
            {"name": "moves the meetings to the day after instead of changing the room", "actions": [
                switch("calendar"), *[act("calendar", "update_event", user=me["email"], summary=t,
                                          time_start=fmt(at(workday_from(now, 2), s_.hour, s_.minute)),
                                          time_end=fmt(at(workday_from(now, 2), e_.hour, e_.minute)))
                                      for t, s_, e_ in [(titles[0], at(day, 10), at(day, 11)),
                                                        (titles[1], at(day, 15), at(day, 15, 45))]],
                switch("email"), mail(affected)]},
        ],
        "right": [
            {"name": "the meetings re-created in the new room, the mail reworded", "actions": [
                switch("calendar"),
                act("calendar", "delete_event", user=me["email"], summary=titles[0]),
                act("calendar", "create_event", user=me["email"], summary=titles[0], time_start=fmt(at(day, 10)),
                    time_end=fmt(at(day, 11)), location=repl, attendees=[p["email"] for p in a_att]),
                *move(titles[1:2]), switch("email"),
                act("email", "send_email", sender=me["email"], recipient=list(reversed(affected)),
                    subject="New room", content=f"Please come to {repl} for our meetings on {month_day(day)}.")]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("interview-panel-booking", apps=["pdf", "calendar", "email"])
def interview_panel_booking(rng: random.Random) -> dict:
    """Pick the candidate's offered slot when the whole panel is free, book it and confirm by reply."""
    org, domain, (me, p1, p2, col), now = setup(rng, 4)
    cand = people(rng, 1, "mailbox.test")[0]
    role = rng.choice(["Senior Data Analyst", "Office Manager", "Backend Engineer", "Payroll Specialist",
                       "UX Researcher"])
    slug = role.lower().replace(" ", "_")
    day = (now + timedelta(days=1)).date()
    slots = [at(day, 10), at(day, 13, 30), at(day, 15)]
    free = rng.randrange(3)
    busy = [i for i in range(3) if i != free]
    room = rng.choice(ROOMS)
    cals = {p1["email"]: [ev("Quarterly close", slots[busy[0]] - timedelta(minutes=30), slots[busy[0]] + timedelta(minutes=30))],
            p2["email"]: [ev("Customer call", slots[busy[1]] + timedelta(minutes=15), slots[busy[1]] + timedelta(minutes=45))],
            me["email"]: [ev("Team standup", at(day, 9), at(day, 9, 15))]}
    panel = f"data/hiring/{slug}_panel.pdf"
    ptext = (f"Interview panel - {role}\nPanel: {p1['name']} ({p1['email']}), {p2['name']} ({p2['email']})\n"
             f"Interview length: 60 minutes\nRoom: {room}")
    summary = f"Interview: {cand['name']}"
    att = [p1["email"], p2["email"], cand["email"]]

    def book(i, attendees):
        s = slots[i]
        return act("calendar", "create_event", user=me["email"], summary=summary, time_start=fmt(s),
                   time_end=fmt(s + timedelta(hours=1)), location=room, attendees=attendees)

    reply = lambda i: act("email", "reply_email", username=me["email"], email_id="msg-2",
                          content=f"Dear {cand['first']},\n\nthank you - we look forward to meeting you {day_phrase(now, day)} "
                                  f"at {hm(slots[i])} in room {room}.\n\nBest regards,\n{me['name']}")
    s = slots[free]
    return {
        **head(me, now),
        "instruction": (f"Please set up {cand['name']}'s interview for the {role} role. The panel, room and interview "
                        f"length are in {panel}; {cand['first']} offered some times by email. Choose the offered "
                        f"time when both panelists and I are free, create '{summary}' on my calendar then (the panel "
                        f"room as location, the two panelists and the candidate as attendees), and reply to that email "
                        f"confirming the start time as HH:MM."),
        "office": [pdf(panel, [ptext]), *[ics(u, es) for u, es in cals.items()],
                   eml(me["email"], "msg-1", col["email"], "Hiring update", "Two more CVs came in for other roles.",
                       days_ago(now, 2, 10)),
                   eml(me["email"], "msg-2", cand["email"], f"Interview availability - {role}",
                       f"Dear {me['first']},\n\nthank you for the invitation. Tomorrow I could do "
                       f"{hm(slots[0])}, {hm(slots[1])} or {hm(slots[2])}.\n\nKind regards,\n{cand['name']}",
                       days_ago(now, 0, 8, 5))],
        "checks": [check("ics_event", user=me["email"], summary=summary, start=fmt(s),
                         end=fmt(s + timedelta(hours=1)), attendees=att),
                   check("email_sent", sender=me["email"], to=cand["email"], subject_contains="Interview availability",
                         body_contains=[hm(s)], body_excludes=[hm(slots[i]) for i in busy])],
        "gold": [switch("pdf"), act("pdf", "read_file", pdf_file_path=panel), switch("email"),
                 act("email", "read_email", username=me["email"], email_id="msg-2"), switch("calendar"),
                 act("calendar", "list_events", username=p1["email"]), act("calendar", "list_events", username=p2["email"]),
                 act("calendar", "list_events", username=me["email"]), book(free, att), switch("email"), reply(free)],
        "wrong": [
            {"name": "takes a slot where a panelist is busy", "actions": [
                switch("calendar"), book(busy[0], att), switch("email"), reply(busy[0])]},
            {"name": "forgets to invite the candidate", "actions": [
                switch("calendar"), book(free, att[:2]), switch("email"), reply(free)]},
            {"name": "the reply offers two of the times", "actions": [
                switch("calendar"), book(free, att), switch("email"),
                act("email", "reply_email", username=me["email"], email_id="msg-2",
                    content=f"Dear {cand['first']},\n\nwe can do {hm(slots[free])} or {hm(slots[busy[0]])}.\n\n"
                            f"{me['name']}")]},
            {"name": "books the right slot without the room", "actions": [
                switch("calendar"), act("calendar", "create_event", user=me["email"], summary=summary, time_start=fmt(s),
                                        time_end=fmt(s + timedelta(hours=1)), attendees=att),
                switch("email"), reply(free)]},
            {"name": "books half an hour instead of the panel's length", "actions": [
                switch("calendar"), act("calendar", "create_event", user=me["email"], summary=summary, time_start=fmt(s),
                                        time_end=fmt(s + timedelta(minutes=30)), location=room, attendees=att),
                switch("email"), reply(free)]},
            {"name": "confirms to the panel instead of replying to the candidate", "actions": [
                switch("calendar"), book(free, att), switch("email"),
                act("email", "send_email", sender=me["email"], recipient=[p1["email"], p2["email"]],
                    subject=f"Interview availability - {role}", content=f"Interview at {hm(s)} in {room}.")]},
        ],
        "right": [
            {"name": "attendees in another order, a shorter reply", "actions": [
                switch("calendar"), book(free, list(reversed(att))), switch("email"),
                act("email", "reply_email", username=me["email"], email_id="msg-2",
                    content=f"Confirmed: {hm(s)}, room {room}. See you then!")]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("rsvp-lunch-tally", apps=["email", "excel", "calendar"])
def rsvp_lunch_tally(rng: random.Random) -> dict:
    """Record colleagues' emailed RSVPs (the latest reply counts) and invite those coming."""
    org, domain, (me, *staff), now = setup(rng, 6)
    day = workday_from(now, 2)
    place = rng.choice(["Trattoria Sole", "The Copper Pot", "Green Fig Bistro", "Harbour Noodle Bar"])
    occasion = rng.choice(["Team lunch", "Farewell lunch", "Welcome lunch", "Quarter-end lunch"])
    answers = [rng.choice([True, False]) for _ in staff]
    answers[0], answers[1] = True, False
    flip = rng.randrange(len(staff))  # this person first replies the opposite, then changes their mind
    yes_txt = ["Count me in!", "Yes, I'll be there.", "Sounds great, see you there."]
    no_txt = ["Sorry, I can't make it.", "I'm out that day, sorry.", "Unfortunately not, I have a deadline."]
    mails, n = [], 1
    order = list(range(len(staff)))
    rng.shuffle(order)
    for k, i in enumerate(order):
        p = staff[i]
        if i == flip:
            mails.append(eml(me["email"], f"msg-{n}", p["email"], f"Re: {occasion} on {month_day(day)}",
                             rng.choice(no_txt if answers[i] else yes_txt), days_ago(now, 2, 9 + k)))
            n += 1
        mails.append(eml(me["email"], f"msg-{n}", p["email"], f"Re: {occasion} on {month_day(day)}",
                         ("Change of plans - " if i == flip else "") + rng.choice(yes_txt if answers[i] else no_txt),
                         days_ago(now, 1 if i != flip else 0, 10 + k if i != flip else 8)))
        n += 1
    mails.append(eml(me["email"], f"msg-{n}", staff[0]["email"], "Printer", "The 2nd floor printer is jammed again.",
                     days_ago(now, 0, 8, 30)))
    sheet = "data/events/lunch_rsvp.xlsx"
    rows = [["Name", "Email", "Coming"]] + [[p["name"], p["email"], None] for p in staff]
    coming = [p["email"] for p, a in zip(staff, answers) if a]
    first_answers = [not a if i == flip else a for i, a in enumerate(answers)]

    def fill(ans):
        return [act("excel", "set_cell", file_path=sheet, row_idx=i, column_idx=3, text="Yes" if a else "No")
                for i, a in enumerate(ans, start=2)]

    book = lambda att: act("calendar", "create_event", user=me["email"], summary=occasion,
                           time_start=f"{iso(day)} 12:30:00", time_end=f"{iso(day)} 14:00:00", location=place,
                           attendees=att)
    return {
        **head(me, now),
        "instruction": (f"The replies to my invitation for the {occasion.lower()} {day_phrase(now, day)} are in my "
                        f"inbox. Mark column C of {sheet} Yes or No for each person (if someone replied twice, the later "
                        f"reply counts), then put '{occasion}' on my calendar from 12:30 to 14:00 at {place} with "
                        f"everyone who is coming as attendees."),
        "office": [xlsx(sheet, {"RSVP": rows}), *mails],
        "checks": [check("column_values", file=sheet, column="C", values=["Yes" if a else "No" for a in answers]),
                   check("ics_event", user=me["email"], summary=occasion, start=f"{iso(day)} 12:30:00",
                         location=place, attendees=coming)],
        "gold": [switch("email"), act("email", "list_emails", username=me["email"]),
                 *[act("email", "read_email", username=me["email"], email_id=f"msg-{k}") for k in range(1, n)],
                 switch("excel"), *fill(answers), switch("calendar"), book(coming)],
        "wrong": [
            {"name": "takes the first reply of the person who changed their mind", "actions": [
                switch("excel"), *fill(first_answers), switch("calendar"),
                book([p["email"] for p, a in zip(staff, first_answers) if a])]},
            {"name": "invites everyone who replied", "actions": [
                switch("excel"), *fill(answers), switch("calendar"), book([p["email"] for p in staff])]},
            {"name": "marks everyone Yes", "actions": [
                switch("excel"), *fill([True] * len(staff)), switch("calendar"), book(coming)]},
            {"name": "the lunch booked 12:00-13:00", "actions": [
                switch("excel"), *fill(answers), switch("calendar"),
                act("calendar", "create_event", user=me["email"], summary=occasion, time_start=f"{iso(day)} 12:00:00",
                    time_end=f"{iso(day)} 13:00:00", location=place, attendees=coming)]},
        ],
        "right": [
            {"name": "rows filled bottom-up, attendees in another order", "actions": [
                switch("excel"), *reversed(fill(answers)), switch("calendar"), book(list(reversed(coming)))]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("minutes-followup-meeting", apps=["word", "calendar", "email"])
def minutes_followup_meeting(rng: random.Random) -> dict:
    """From meeting notes: book the agreed follow-up with the attendees and mail them the action items."""
    org, domain, (me, *staff), now = setup(rng, 5)
    project = rng.choice(["Atlas", "Beacon", "Nimbus", "Quarry", "Solstice", "Keystone"])
    att = staff[:3]
    follow = workday_from(now, 3)
    demo = workday_from(now, 1)
    h = rng.choice([9, 11, 14, 15])
    room = rng.choice(ROOMS)
    tasks_ = rng.sample(["update the risk log", "send the revised timeline", "book the test devices",
                         "collect vendor quotes", "draft the launch email", "review the data model"], 3)
    notes = f"data/meetings/{iso(now)}_{project.lower()}_sync.docx"
    paragraphs = [{"text": f"{project} sync - {weekday_month_day(now)}", "style": "Heading 1"},
                  "Attendees: " + ", ".join(f"{p['name']} ({p['email']})" for p in att) + f", {me['name']}",
                  f"Decisions: the client demo stays on {weekday_month_day(demo)} at 10:00.",
                  "Action items:",
                  *[f"{p['first']}: {t}" for p, t in zip(att, tasks_)],
                  f"Follow-up meeting: {weekday_month_day(follow)}, {h:02d}:00-{h:02d}:45, room {room}."]
    summary = f"{project} follow-up"
    emails = [p["email"] for p in att]

    def book(d, hour):
        return act("calendar", "create_event", user=me["email"], summary=summary,
                   time_start=f"{iso(d)} {hour:02d}:00:00", time_end=f"{iso(d)} {hour:02d}:45:00", location=room,
                   attendees=emails)

    mail = act("email", "send_email", sender=me["email"], recipient=emails, subject=f"{project} sync - action items",
               content="Hi all,\n\nthe action items from today:\n" +
                       "\n".join(f"- {p['first']}: {t}" for p, t in zip(att, tasks_)) +
                       f"\n\nThe follow-up is in your calendars.\n\n{me['first']}")
    return {
        **head(me, now),
        "instruction": (f"My notes from today's {project} sync are in {notes}. Put the follow-up meeting they agree on "
                        f"into my calendar as '{summary}' (time and room as noted, the other attendees invited), and "
                        f"email those attendees the action items."),
        "office": [docx(notes, paragraphs), ics(me["email"], [ev("Focus time", at(follow, 8), at(follow, 9))]),
                   docx(f"data/meetings/{iso(now - timedelta(days=7))}_{project.lower()}_sync.docx",
                        [f"{project} sync", "Follow-up meeting: to be decided."])],
        "checks": [check("ics_event", user=me["email"], summary=summary, start=f"{iso(follow)} {h:02d}:00:00",
                         end=f"{iso(follow)} {h:02d}:45:00", attendees=emails),
                   check("email_sent", sender=me["email"], to=emails, body_contains=[p["first"] for p in att] + tasks_)],
        "gold": [switch("word"), act("word", "read_file", file_path=notes), switch("calendar"), book(follow, h),
                 switch("email"), mail],
        "wrong": [
            {"name": "books it at the demo time", "actions": [switch("calendar"), book(demo, 10), switch("email"), mail]},
            {"name": "mail leaves out an action item", "actions": [
                switch("calendar"), book(follow, h), switch("email"),
                act("email", "send_email", sender=me["email"], recipient=emails, subject=f"{project} action items",
                    content="\n".join(f"{p['first']}: {t}" for p, t in list(zip(att, tasks_))[:2]))]},
            {"name": "books the follow-up without inviting anyone", "actions": [
                switch("calendar"), act("calendar", "create_event", user=me["email"], summary=summary,
                                        time_start=f"{iso(follow)} {h:02d}:00:00", time_end=f"{iso(follow)} {h:02d}:45:00",
                                        location=room), switch("email"), mail]},
            {"name": "a one-hour follow-up", "actions": [
                switch("calendar"), act("calendar", "create_event", user=me["email"], summary=summary,
                                        time_start=f"{iso(follow)} {h:02d}:00:00", time_end=f"{iso(follow)} {h + 1:02d}:00:00",
                                        location=room, attendees=emails), switch("email"), mail]},
            {"name": "the items without who owns them", "actions": [
                switch("calendar"), book(follow, h), switch("email"),
                act("email", "send_email", sender=me["email"], recipient=emails, subject=f"{project} action items",
                    content="Action items:\n" + "\n".join(f"- {t}" for t in tasks_))]},
        ],
        "right": [
            {"name": "the event created then the attendees added, the mail reworded", "actions": [
                switch("calendar"), act("calendar", "create_event", user=me["email"], summary=summary.upper(),
                                        time_start=f"{iso(follow)} {h:02d}:00:00", time_end=f"{iso(follow)} {h:02d}:45:00",
                                        location=room),
                act("calendar", "update_event", user=me["email"], summary=summary, attendees=list(reversed(emails))),
                switch("email"), act("email", "send_email", sender=me["email"], recipient=emails, subject="Follow-ups",
                                     content="To do before we meet again: " + "; ".join(
                                         f"{t} ({p['first']})" for p, t in reversed(list(zip(att, tasks_)))))]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("leave-requests-calendar", apps=["email", "shell", "calendar"])
def leave_requests_calendar(rng: random.Random) -> dict:
    """A colleague asks to have approved leave on the team calendar: find it in the HR register and add it."""
    org, domain, (me, *staff), now = setup(rng, 6)
    asker = staff[0]
    team = f"team@{domain}"
    reg = "data/hr/leave_register.csv"
    lines = ["employee,first_day,last_day,status"]
    start = workday_from(now, 10)
    length = rng.randrange(2, 6)
    last = start + timedelta(days=length - 1)
    rej_start = start + timedelta(days=21)
    rows = [(asker["name"], rej_start, rej_start + timedelta(days=3), "Rejected"),
            (asker["name"], start, last, "Approved")]
    for p in staff[1:]:
        s = workday_from(now, 3)
        rows.append((p["name"], s, s + timedelta(days=rng.randrange(1, 5)), rng.choice(["Approved", "Pending"])))
    rng.shuffle(rows)
    lines += [f"{n},{iso(a)},{iso(b)},{s}" for n, a, b, s in rows]
    summary = f"Out of office: {asker['name']}"

    def add(a, b):
        return act("calendar", "create_event", user=team, summary=summary, time_start=f"{iso(a)} 09:00:00",
                   time_end=f"{iso(b)} 17:00:00")

    reply = act("email", "reply_email", username=me["email"], email_id="msg-2",
                content=f"Hi {asker['first']},\n\ndone - it is on the team calendar.\n\n{me['first']}")
    return {
        **head(me, now),
        "instruction": (f"{asker['first']} asked me by email to put their approved leave on the team calendar ({team}). "
                        f"The dates are in the HR register {reg}. Add an event '{summary}' on that calendar from 09:00 on "
                        f"the first day to 17:00 on the last day, then reply to {asker['first']}'s email to say it's done."),
        "office": [text(reg, "\n".join(lines) + "\n"),
                   ics(team, [ev(f"Out of office: {staff[1]['name']}", at(workday_from(now, 1), 9),
                                 at(workday_from(now, 1), 17))]),
                   eml(me["email"], "msg-1", staff[2]["email"], "Offsite", "Shall we plan the offsite next month?",
                       days_ago(now, 3, 14)),
                   eml(me["email"], "msg-2", asker["email"], "My leave",
                       f"Hi {me['first']},\n\nmy leave request went through - could you put it on the team calendar? "
                       f"Thanks!\n{asker['first']}", days_ago(now, 0, 8, 20))],
        "checks": [check("ics_event", user=team, summary=summary, start=f"{iso(start)} 09:00:00",
                         end=f"{iso(last)} 17:00:00"),
                   check("ics_event_count", user=team, count=2),
                   check("email_sent", sender=me["email"], to=asker["email"], subject_contains="My leave")],
        "gold": [switch("email"), act("email", "read_email", username=me["email"], email_id="msg-2"), switch("shell"),
                 sh(f"grep '{asker['name']}' {reg}"), switch("calendar"),
                 add(start, last), switch("email"), reply],
        "wrong": [
            {"name": "takes the rejected request's dates", "actions": [
                switch("calendar"), add(rej_start, rej_start + timedelta(days=3)), switch("email"), reply]},
            {"name": "puts it on my own calendar", "actions": [
                switch("calendar"), act("calendar", "create_event", user=me["email"], summary=summary,
                                        time_start=f"{iso(start)} 09:00:00", time_end=f"{iso(last)} 17:00:00"),
                switch("email"), reply]},
            {"name": "adds the leave but never replies", "actions": [switch("calendar"), add(start, last)]},
            {"name": "ends a day early", "actions": [
                switch("calendar"), add(start, last - timedelta(days=1)), switch("email"), reply]},
            {"name": "tells the whole team instead of replying", "actions": [
                switch("calendar"), add(start, last), switch("email"),
                act("email", "send_email", sender=me["email"], recipient=team, subject="Re: My leave",
                    content=f"{asker['first']}'s leave is on the team calendar.")]},
            {"name": "adds both of the colleague's requests", "actions": [
                switch("calendar"), add(start, last), add(rej_start, rej_start + timedelta(days=3)), switch("email"),
                reply]},
        ],
        "right": [
            {"name": "title in lower case, a one-word reply", "actions": [
                switch("calendar"), act("calendar", "create_event", user=team, summary=summary.lower(),
                                        time_start=f"{iso(start)} 09:00:00", time_end=f"{iso(last)} 17:00:00"),
                switch("email"), act("email", "reply_email", username=me["email"], email_id="msg-2", content="Done!")]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("talk-slot-verify", apps=["pdf", "calendar", "email"])
def talk_slot_verify(rng: random.Random) -> dict:
    """No action: the calendar entry already matches the organiser's confirmation, so nothing changes."""
    org, domain, (me, _), now = setup(rng, 2)
    conf_org, conf_domain, (organiser,) = outsider(rng, domain)
    conf = rng.choice(["Northern Data Days", "Office Futures Forum", "Open Ledger Conference", "Civic Tech Week"])
    title = rng.choice(["Spreadsheets that scale", "Lessons from a paperless year", "Calendars without chaos",
                        "Small teams, big audits"])
    day = workday_from(now, 7)
    h, m = rng.choice([(9, 30), (11, 0), (14, 15), (16, 0)])
    hall = rng.choice(["Hall A", "Hall B", "Room 2.14", "Auditorium"])
    start = at(day, h, m)
    end = start + timedelta(minutes=30)
    conf_pdf = "data/conference/speaker_confirmation.pdf"
    body = (f"{conf} - speaker confirmation\nSpeaker: {me['name']}\nTalk: {title}\nDate: {iso(day)}\n"
            f"Time: {hm(start)}-{hm(end)}\nLocation: {hall}\nPlease arrive 15 minutes early.")
    summary = f"Talk: {title}"
    events = [ev(summary, start, end, hall), ev("Travel to venue", start - timedelta(hours=3), start - timedelta(hours=1)),
              ev("Project review", at(now.date() + timedelta(days=1), 10), at(now.date() + timedelta(days=1), 11))]
    return {
        **head(me, now),
        "no_action": True,
        "instruction": (f"Check that my calendar entry for my talk at {conf} matches the organiser's confirmation "
                        f"({conf_pdf}, attached to their email). If the date, time or location differs, fix the entry "
                        f"and email {organiser['name']} ({organiser['email']}) to confirm; if it all matches, leave "
                        f"everything as it is."),
        "office": [pdf(conf_pdf, [body]), ics(me["email"], events),
                   eml(me["email"], "msg-1", organiser["email"], f"{conf}: your speaker slot",
                       f"Dear {me['first']},\n\nplease find your speaker confirmation attached.\n\n{organiser['name']}",
                       days_ago(now, 2, 13), attachments=[conf_pdf])],
        "checks": [check("ics_event", user=me["email"], summary=summary, start=fmt(start), end=fmt(end), location=hall),
                   check("ics_event_count", user=me["email"], count=3),
                   check("email_not_sent", sender=me["email"])],
        "gold": [switch("email"), act("email", "read_email", username=me["email"], email_id="msg-1"), switch("pdf"),
                 act("pdf", "read_file", pdf_file_path=conf_pdf), switch("calendar"),
                 act("calendar", "list_events", username=me["email"])],
        "wrong": [
            {"name": "adds a second entry for the talk", "actions": [
                switch("calendar"), act("calendar", "create_event", user=me["email"], summary=summary,
                                        time_start=fmt(start), time_end=fmt(end), location=hall)]},
            {"name": "emails the organiser although nothing changed", "actions": [
                switch("email"), act("email", "send_email", sender=me["email"], recipient=organiser["email"],
                                     subject=f"{conf}: slot confirmed", content="All good on my side.")]},
            {"name": "moves the talk an hour later", "actions": [
                switch("calendar"), act("calendar", "update_event", user=me["email"], summary=summary,
                                        time_start=fmt(start + timedelta(hours=1)), time_end=fmt(end + timedelta(hours=1)))]},
            {"name": "deletes the travel entry as a duplicate", "actions": [
                switch("calendar"), act("calendar", "delete_event", user=me["email"], summary="Travel to venue")]},
            {"name": "replies to the organiser to say it matches", "actions": [
                switch("email"), act("email", "reply_email", username=me["email"], email_id="msg-1",
                                     content="Thanks - my calendar matches the confirmation.")]},
            {"name": "stretches the talk to a full hour", "actions": [
                switch("calendar"), act("calendar", "update_event", user=me["email"], summary=summary,
                                        time_end=fmt(start + timedelta(hours=1)))]},
            {"name": "replaces the location with the conference's name", "actions": [
                switch("calendar"), act("calendar", "update_event", user=me["email"], summary=summary, location=conf)]},
        ],
        "right": [
            {"name": "re-saves the entry with the same time and place", "actions": [
                switch("calendar"), act("calendar", "update_event", user=me["email"], summary=summary,
                                        time_start=fmt(start), time_end=fmt(end), location=hall)]},
            {"name": "reads everything and reports that it matches", "actions": [
                switch("pdf"), act("pdf", "read_file", pdf_file_path=conf_pdf), switch("calendar"),
                act("calendar", "list_events", username=me["email"])],
             "answer": "The calendar entry matches the confirmation; nothing to change."},
        ],
    }
