"""Three-app families about dates and rooms: milestones, backups, travel, room sizes, agendas, leases."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    act, at, check, day_phrase, days_ago, docx, eml, ev, finish, fmt, head, hm, ics, image, iso, pdf, setup, sh, switch,
    text, weekday_month_day, workday_from, xlsx
)
from officesim.tasks.families.registry import family



# ---------------------------------------------------------------------------------------------
@family("milestone-deadline-events", apps=["excel", "calendar", "word"])
def milestone_deadline_events(rng: random.Random) -> dict:
    """Put next week's open project milestones on the calendar and list them in the status report."""
    org, domain, (me, *staff), now = setup(rng, 5)
    project = rng.choice(["Harbor migration", "Payroll upgrade", "Intranet redesign", "Warehouse scanners"])
    slug = project.lower().replace(" ", "_")
    names = rng.sample(["Requirements sign-off", "Vendor shortlist", "Data export", "Pilot go-live", "User training",
                        "Security review", "Test plan", "Budget approval", "Cutover rehearsal"], 6)
    offsets = [2, 4, 6, 3, 12, 20]  # days from now; the first four fall within the next 7 days
    status = ["Open", "Open", "In progress", "Done", "Open", "Open"]
    idx = list(range(6))
    rng.shuffle(idx)
    rows = [["Milestone", "Owner", "Due", "Status"]]
    for i in idx:
        rows.append([names[i], rng.choice(staff)["name"], iso(now + timedelta(days=offsets[i])), status[i]])
    todo = sorted([i for i in range(3)], key=lambda i: offsets[i])
    sheet = f"data/projects/{slug}_milestones.xlsx"
    report = f"data/projects/{slug}_status.docx"

    def create(ids, end="09:30", title="Due: {}"):
        out = []
        for i in ids:
            d = (now + timedelta(days=offsets[i])).date()
            out.append(act("calendar", "create_event", user=me["email"], summary=title.format(names[i]),
                           time_start=f"{iso(d)} 09:00:00", time_end=f"{iso(d)} {end}:00"))
        return out

    lines = lambda ids: "Due in the next 7 days:\n" + "\n".join(
        f"{names[i]} - {iso(now + timedelta(days=offsets[i]))}" for i in ids)
    write = lambda text: act("word", "write_to_file", file_path=report, contents=text)
    return {
        **head(me, now),
        "instruction": (f"For the {project} project: every milestone in {sheet} that is due within the next 7 days and "
                        f"not Done gets a reminder on my calendar on its due date, 09:00-09:30, titled 'Due: <milestone>'. "
                        f"Then add to the end of {report} the line 'Due in the next 7 days:' followed by one line per "
                        f"such milestone, '<milestone> - <due date YYYY-MM-DD>', earliest first."),
        "office": [xlsx(sheet, {"Milestones": rows}),
                   docx(report, [{"text": f"{project} - status", "style": "Heading 1"}, "Overall: on track."]),
                   ics(me["email"], [ev("Steering committee", at(now.date() + timedelta(days=1), 15),
                                        at(now.date() + timedelta(days=1), 16))])],
        "checks": [*[check("ics_event", user=me["email"], summary=f"Due: {names[i]}",
                           start=f"{iso(now + timedelta(days=offsets[i]))} 09:00:00",
                           end=f"{iso(now + timedelta(days=offsets[i]))} 09:30:00") for i in todo],
                   check("ics_no_event", user=me["email"], summary=f"Due: {names[3]}"),
                   check("ics_no_event", user=me["email"], summary=f"Due: {names[4]}"),
                   check("contains", file=report, text=["Due in the next 7 days:"] + [
                       f"{names[i]} - {iso(now + timedelta(days=offsets[i]))}" for i in todo], ordered=True),
                   check("not_contains", file=report, text=[names[3], names[4], names[5]])],
        "gold": [switch("excel"), act("excel", "read_file", file_path=sheet), switch("calendar"), *create(todo),
                 switch("word"), write(lines(todo))],
        "wrong": [
            {"name": "includes the milestone already done", "actions": [
                switch("calendar"), *create(todo + [3]), switch("word"), write(lines(todo + [3]))]},
            {"name": "leaves out the one in progress", "actions": [
                switch("calendar"), *create([i for i in todo if i != 2]), switch("word"),
                write(lines([i for i in todo if i != 2]))]},
            {"name": "the report lists the milestones latest first", "actions": [
                switch("calendar"), *create(todo), switch("word"), write(lines(todo[::-1]))]},
            {"name": "reminders an hour long", "actions": [
                switch("calendar"), *create(todo, end="10:00"), switch("word"), write(lines(todo))]},
            {"name": "includes the open milestone due in 12 days", "actions": [
                switch("calendar"), *create(todo + [4]), switch("word"), write(lines(todo + [4]))]},
            {"name": "the report without its heading line", "actions": [
                switch("calendar"), *create(todo), switch("word"), write(lines(todo).split("\n", 1)[1])]},
            {"name": "reminders titled with the milestone alone", "actions": [
                switch("calendar"), *create(todo, title="{}"), switch("word"), write(lines(todo))]},
        ],
        "right": [
            {"name": "reminders made latest first with lower-case titles, the report lines as a bulleted list",
             "actions": [switch("calendar"), *create(todo[::-1], title="due: {}"), switch("word"),
                         write("\n".join([lines(todo).split("\n")[0]] + [f"- {l}" for l in lines(todo).split("\n")[1:]]))]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("backup-failure-escalation", apps=["shell", "email", "calendar"])
def backup_failure_escalation(rng: random.Random) -> dict:
    """Find last night's failed backup jobs in a log, report them to the ops lead and book a review."""
    org, domain, (me, lead, col), now = setup(rng, 3)
    jobs = rng.sample(["db-main", "db-replica", "fileshare", "mail-archive", "crm-export", "wiki", "hr-docs",
                       "build-cache"], 6)
    failed = rng.sample(jobs, 2)
    old_fail = rng.choice([j for j in jobs if j not in failed])
    log = "data/ops/backup.log"
    lines = []
    for back in (2, 1, 0):
        d = now.date() - timedelta(days=back)
        for k, j in enumerate(jobs):
            bad = (back == 0 and j in failed) or (back == 1 and j == old_fail)
            lines.append(f"{iso(d)} 01:{10 + 3 * k:02d}:0{k} job={j} status={'FAILED' if bad else 'OK'}"
                         + (" error=timeout" if bad else f" size={rng.randrange(1, 90)}GB"))
    tomorrow = now.date() + timedelta(days=1)
    summary = "Backup failure review"
    cal = ics(me["email"], [ev("Change board", at(tomorrow, 11), at(tomorrow, 12)),
                            ev("Lunch", at(now.date(), 12), at(now.date(), 13))])

    def mail(fs, subject=f"Backup failures {iso(now)}"):
        return act("email", "send_email", sender=me["email"], recipient=lead["email"], subject=subject,
                   content=f"Hi {lead['first']},\n\nlast night these backup jobs failed: {', '.join(fs)}.\n"
                           f"I booked a review with you for tomorrow.\n\n{me['first']}")

    def book(d, end="10:30", who=(lead["email"],)):
        return act("calendar", "create_event", user=me["email"], summary=summary, time_start=f"{iso(d)} 10:00:00",
                   time_end=f"{iso(d)} {end}:00", attendees=list(who))

    return {
        **head(me, now),
        "instruction": (f"Check last night's backup run in {log} (the entries dated today). Email {lead['name']} "
                        f"({lead['email']}) with subject 'Backup failures {iso(now)}' naming every job that FAILED, and "
                        f"book a 30-minute '{summary}' with {lead['first']} tomorrow at 10:00 on my calendar."),
        "office": [text(log, "\n".join(lines) + "\n"), text("data/ops/backup.conf", "retention_days=14\n"), cal,
                   eml(me["email"], "msg-1", col["email"], "Backups", "The new retention setting is live.",
                       days_ago(now, 3, 16))],
        "checks": [check("email_sent", sender=me["email"], to=lead["email"],
                         subject_contains=f"Backup failures {iso(now)}", body_contains=sorted(failed),
                         body_excludes=sorted(j for j in jobs if j not in failed)),
                   check("ics_event", user=me["email"], summary=summary, start=f"{iso(tomorrow)} 10:00:00",
                         end=f"{iso(tomorrow)} 10:30:00", attendees=[lead["email"]])],
        "gold": [switch("shell"), sh(f"grep '^{iso(now)}' {log} | grep FAILED"),
                 switch("email"), mail(sorted(failed)), switch("calendar"), book(tomorrow)],
        "wrong": [
            {"name": "reports the night before's failure too, misses one", "actions": [
                switch("email"), mail([failed[0], old_fail]), switch("calendar"), book(tomorrow)]},
            {"name": "books the review today", "actions": [
                switch("email"), mail(sorted(failed)), switch("calendar"), book(now.date())]},
            {"name": "reports every failure in the log, the night before's too", "actions": [
                switch("email"), mail(sorted(failed) + [old_fail]), switch("calendar"), book(tomorrow)]},
            {"name": "names every job of last night", "actions": [
                switch("email"), mail(jobs), switch("calendar"), book(tomorrow)]},
            {"name": "the review without the ops lead", "actions": [
                switch("email"), mail(sorted(failed)), switch("calendar"), book(tomorrow, who=())]},
            {"name": "the review an hour long", "actions": [
                switch("email"), mail(sorted(failed)), switch("calendar"), book(tomorrow, end="11:00")]},
            {"name": "a subject without the date", "actions": [
                switch("email"), mail(sorted(failed), subject="Backup failures"), switch("calendar"), book(tomorrow)]},
        ],
        "right": [
            {"name": "one job a line, a reply-style subject, the review booked first with a description", "actions": [
                switch("calendar"), act("calendar", "create_event", user=me["email"], summary=summary.lower(),
                                        time_start=f"{iso(tomorrow)} 10:00:00", time_end=f"{iso(tomorrow)} 10:30:00",
                                        attendees=[lead["email"]], description="Failed jobs of last night"),
                switch("email"), act("email", "send_email", sender=me["email"], recipient=lead["email"],
                                     subject=f"RE: Backup failures {iso(now)}",
                                     content="Failed last night:\n" + "\n".join(f"* {j}" for j in failed))]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("flight-conflict-question", apps=["ocr", "pdf", "calendar"])
def flight_conflict_question(rng: random.Random) -> dict:
    """Question: which meeting clashes with the flight on my boarding pass (times from the itinerary PDF)?"""
    org, domain, (me, *staff), now = setup(rng, 3)
    day = workday_from(now, 1)
    airline = rng.choice(["NW", "SK", "BL", "TQ"])
    nums = rng.sample(range(100, 999), 3)
    flights = [(f"{airline} {nums[0]}", at(day, 8, 10), at(day, 9, 35)),
               (f"{airline} {nums[1]}", at(day, 13, 40), at(day, 15, 5)),
               (f"{airline} {nums[2]}", at(day, 17, 20), at(day, 18, 50))]
    mine = rng.randrange(3)
    other = (mine + 1) % 3
    titles = rng.sample(["Pricing review", "Recruiting sync", "Board prep", "Supplier call", "Design critique",
                         "Team retro"], 4)
    ev_list = []
    for k, (f, dep, arr) in enumerate(flights):
        mid = dep + (arr - dep) / 2
        s = mid.replace(minute=0 if mid.minute < 30 else 30, second=0, microsecond=0)
        ev_list.append(ev(titles[k], s, s + timedelta(minutes=30)))
    ev_list.append(ev(titles[3], at(day, 11, 0), at(day, 11, 45)))
    # only the meetings during my flight and the other listed flight are real clashes; drop the third
    third = 3 - mine - other
    ev_list = [e for k, e in enumerate(ev_list) if k != third]
    bp = "data/travel/boarding_pass.png"
    itin = "data/travel/itinerary.pdf"
    f, dep, arr = flights[mine]
    lines = ["BOARDING PASS", f"Passenger: {me['name'].upper()}", f"Flight: {f}", f"Date: {iso(day)}", "Gate: B7",
             "Seat: 14C"]
    itext = f"Travel itinerary - {iso(day)}\nFlights on offer for the trip:\n" + "\n".join(
        f"{n}: departs {hm(a)}, arrives {hm(b)}" for n, a, b in flights)
    answer = titles[mine]
    return {
        **head(me, now),
        "instruction": (f"I'm flying {day_phrase(now, day)}: my boarding pass is scanned at {bp} and the flight times are "
                        f"in {itin}. Which meeting on my calendar falls during my flight (between departure and "
                        f"arrival)? Answer with the meeting's title."),
        "office": [image(bp, lines, font_size=30), pdf(itin, [itext]), ics(me["email"], ev_list)],
        "answer": answer,
        "checks": [check("answer_equals", value=answer, exclude=[t for t in titles if t != answer])],
        "gold": [switch("ocr"), act("ocr", "recognize_file", file_path=bp), switch("pdf"),
                 act("pdf", "read_file", pdf_file_path=itin), switch("calendar"),
                 act("calendar", "list_events", username=me["email"]), finish(answer)],
        "wrong": [
            {"name": "the meeting during another flight", "actions": [finish(titles[other])], "answer": titles[other]},
            {"name": "hedges between the two meetings during flights", "actions": [],
             "answer": f"{answer} or {titles[other]}"},
            {"name": "the late-morning meeting", "actions": [], "answer": titles[3]},
            {"name": "lists every meeting of the day", "actions": [],
             "answer": ", ".join(e["summary"] for e in sorted(ev_list, key=lambda e: e["start"]))},
            {"name": "the flight number instead of the meeting", "actions": [], "answer": f},
            {"name": "the meeting's time instead of its title", "actions": [],
             "answer": next(e["start"][11:16] for e in ev_list if e["summary"] == answer)},
            {"name": "the right title, and the flight booked into the calendar as well", "actions": [
                switch("calendar"), act("calendar", "create_event", user=me["email"], summary=f"Flight {f}",
                                        time_start=fmt(dep), time_end=fmt(arr))], "answer": answer},
        ],
        "right": [
            {"name": "a sentence with the flight and the time", "actions": [],
             "answer": f"{answer} - it is during flight {f} ({hm(dep)}-{hm(arr)})."},
            {"name": "the title in lower case", "actions": [], "answer": answer.lower()},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("room-fit-question", apps=["calendar", "excel", "word"])
def room_fit_question(rng: random.Random) -> dict:
    """Question: the smallest open room that seats everyone invited to tomorrow's meeting."""
    org, domain, (me, *staff), now = setup(rng, 15)
    n = rng.randrange(6, 14)
    invited = staff[:n]
    tomorrow = now.date() + timedelta(days=1)
    title = rng.choice(["Quarterly all-hands", "Launch readiness review", "Customer council", "Strategy workshop"])
    # capacities avoid n and n+1 so "seats everyone (with or without the organiser)" has one answer
    sizes = sorted(rng.sample([s for s in range(4, 30) if s not in (n, n + 1)], 6))
    names = rng.sample(["Orion", "Vega", "Lyra", "Atlas", "Cedar", "Maple", "Juniper", "Harbor"], 6)
    fitting = [k for k, s in enumerate(sizes) if s >= n]
    while len(fitting) < 2:
        sizes = sorted(rng.sample([s for s in range(n + 2, 40)], 6))
        fitting = [k for k, s in enumerate(sizes) if s >= n]
    closed, answer_k = fitting[0], fitting[1]
    order = list(range(6))
    rng.shuffle(order)
    rooms = "data/facilities/rooms.xlsx"
    notice = "data/facilities/notice.docx"
    rows = [["Room", "Floor", "Seats"]] + [[names[k], rng.randrange(1, 5), sizes[k]] for k in order]
    answer = names[answer_k]
    return {
        **head(me, now),
        "instruction": (f"Tomorrow's '{title}' still has no room. Which room should I book: the smallest room in "
                        f"{rooms} that seats everyone invited to the meeting (see my calendar) and is not closed "
                        f"according to the facilities notice {notice}? Answer with the room name."),
        "office": [ics(me["email"], [ev(title, at(tomorrow, 14), at(tomorrow, 15, 30),
                                        attendees=[p["email"] for p in invited] + [me["email"]]),
                                     ev("Budget check-in", at(tomorrow, 10), at(tomorrow, 10, 30), "Cedar",
                                        attendees=[staff[-1]["email"]])]),
                   xlsx(rooms, {"Rooms": rows}),
                   docx(notice, [{"text": "Facilities notice", "style": "Heading 1"},
                                 f"Room {names[closed]} is closed all week for repainting.",
                                 "The kitchen on floor 2 gets a new coffee machine on Friday."])],
        "answer": answer,
        "checks": [check("answer_equals", value=answer, exclude=[x for x in names if x != answer])],
        "gold": [switch("calendar"), act("calendar", "list_events", username=me["email"]), switch("excel"),
                 act("excel", "read_file", file_path=rooms), switch("word"), act("word", "read_file", file_path=notice),
                 finish(answer)],
        "wrong": [
            {"name": "the closed room", "actions": [finish(names[closed])], "answer": names[closed]},
            {"name": "hedges between the two smallest rooms that fit", "actions": [],
             "answer": f"{answer} or {names[closed]}"},
            *[{"name": why, "actions": [], "answer": room} for why, room in [
                ("the largest room", names[5]), ("the smallest room of all", names[0]),
                ("the room of the other meeting tomorrow", "Cedar")] if room != answer],
        ],
        "right": [
            {"name": "a sentence with the seats", "actions": [],
             "answer": f"Book {answer}: it seats {sizes[answer_k]}, enough for the {n + 1} people invited."},
            {"name": "the name in lower case", "actions": [], "answer": answer.lower()},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("daily-agenda-print", apps=["calendar", "word", "pdf"])
def daily_agenda_print(rng: random.Random) -> dict:
    """Turn tomorrow's calendar into an agenda document, a PDF, and a PNG for the lobby screen."""
    org, domain, (me, *staff), now = setup(rng, 4)
    tomorrow = now.date() + timedelta(days=1)
    titles = rng.sample(["Supplier visit", "Design review", "Interview", "Budget call", "Site walk", "Board prep",
                         "Team lunch", "Training"], 6)
    rooms_ = rng.sample(["Orion", "Vega", "Lyra", "Atlas", "Cedar"], 4)
    hours = sorted(rng.sample([8, 9, 10, 11, 13, 14, 15, 16], 4))
    evs = [ev(titles[k], at(tomorrow, h), at(tomorrow, h, 45), rooms_[k]) for k, h in enumerate(hours)]
    evs += [ev(titles[4], at(now.date(), 15), at(now.date(), 16), "Maple"),
            ev(titles[5], at(tomorrow + timedelta(days=1), 9), at(tomorrow + timedelta(days=1), 10), "Maple")]
    rng.shuffle(evs)
    base = f"data/frontdesk/agenda_{iso(tomorrow)}"
    lines = [f"{h:02d}:00-{h:02d}:45 {titles[k]} ({rooms_[k]})" for k, h in enumerate(hours)]
    clock_range = lambda h: f"{(h - 1) % 12 + 1}:00-{(h - 1) % 12 + 1}:45 {'am' if h < 12 else 'pm'}"
    doc_lines = f"Agenda for {weekday_month_day(tomorrow)}\n" + "\n".join(lines)
    heading = f"Agenda for {weekday_month_day(tomorrow)}"

    def make(contents, image=True):
        out = [switch("word"), act("word", "write_to_file", file_path=f"{base}.docx", contents=contents),
               act("word", "convert_to_pdf", word_file_path=f"{base}.docx", pdf_file_path=f"{base}.pdf")]
        if image:
            out += [switch("pdf"), act("pdf", "convert_to_image", pdf_file_path=f"{base}.pdf",
                                       image_file_path=f"{base}.png")]
        return out
    return {
        **head(me, now),
        "instruction": (f"The front desk wants my agenda for tomorrow. Create {base}.docx with the title line 'Agenda "
                        f"for <weekday, month day>' and then one line per event of mine tomorrow in time order, "
                        f"formatted 'HH:MM-HH:MM <title> (<location>)'. Convert it to {base}.pdf and also save the PDF "
                        f"as an image {base}.png for the lobby screen."),
        "office": [ics(me["email"], evs), docx("data/frontdesk/visitor_rules.docx", ["Visitors sign in at reception."])],
        "checks": [*[c for f in (f"{base}.docx", f"{base}.pdf") for c in (
                       check("contains", file=f, text=[heading] + lines, ordered=True),
                       check("not_contains", file=f, text=[titles[4], titles[5]]))],
                   check("file_exists", file=f"{base}.png")],
        "gold": [switch("calendar"), act("calendar", "list_events", username=me["email"]), switch("word"),
                 act("word", "write_to_file", file_path=f"{base}.docx", contents=doc_lines),
                 act("word", "convert_to_pdf", word_file_path=f"{base}.docx", pdf_file_path=f"{base}.pdf"),
                 switch("pdf"), act("pdf", "convert_to_image", pdf_file_path=f"{base}.pdf", image_file_path=f"{base}.png")],
        "wrong": [
            {"name": "includes today's and the day after's events", "actions": [
                switch("word"), act("word", "write_to_file", file_path=f"{base}.docx", contents=doc_lines +
                                    f"\n15:00-16:00 {titles[4]} (Maple)\n09:00-10:00 {titles[5]} (Maple)"),
                act("word", "convert_to_pdf", word_file_path=f"{base}.docx", pdf_file_path=f"{base}.pdf"),
                switch("pdf"), act("pdf", "convert_to_image", pdf_file_path=f"{base}.pdf", image_file_path=f"{base}.png")]},
            {"name": "no image for the lobby screen", "actions": [
                switch("word"), act("word", "write_to_file", file_path=f"{base}.docx", contents=doc_lines),
                act("word", "convert_to_pdf", word_file_path=f"{base}.docx", pdf_file_path=f"{base}.pdf")]},
            {"name": "events in alphabetical order", "actions": make("\n".join(
                [heading] + sorted(lines, key=lambda l: l.split(" ", 1)[1])))},
            {"name": "titled with today's date", "actions": make("\n".join(
                [f"Agenda for {weekday_month_day(now.date())}"] + lines))},
            {"name": "times written as am/pm", "actions": make("\n".join(
                [heading] + [f"{clock_range(h)} {titles[k]} ({rooms_[k]})" for k, h in enumerate(hours)]))},
            {"name": "the PDF made before the events were written", "actions": [
                switch("word"), act("word", "write_to_file", file_path=f"{base}.docx", contents=heading),
                act("word", "convert_to_pdf", word_file_path=f"{base}.docx", pdf_file_path=f"{base}.pdf"),
                act("word", "write_to_file", file_path=f"{base}.docx", contents="\n".join(lines)),
                switch("pdf"), act("pdf", "convert_to_image", pdf_file_path=f"{base}.pdf", image_file_path=f"{base}.png")]},
        ],
        "right": [
            {"name": "the title and each event written one at a time, the image of page 1", "actions": [
                switch("calendar"), act("calendar", "list_events", username=me["email"]), switch("word"),
                act("word", "create_new_file", file_path=f"{base}.docx"),
                *[act("word", "write_to_file", file_path=f"{base}.docx", contents=l) for l in [heading] + lines],
                act("word", "convert_to_pdf", word_file_path=f"{base}.docx", pdf_file_path=f"{base}.pdf"),
                switch("pdf"), act("pdf", "convert_to_image", pdf_file_path=f"{base}.pdf", image_file_path=f"{base}.png",
                                   page=1)]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("meetup-flyer-register", apps=["ocr", "calendar", "word"])
def meetup_flyer_register(rng: random.Random) -> dict:
    """Read an event flyer scan, put the event in the calendar and on the team's upcoming-events list."""
    org, domain, (me, _), now = setup(rng, 2)
    topic = rng.choice(["Data Viz", "Cloud Cost", "Open Source", "Accessibility", "Product Ops", "Python"])
    title = f"{topic} Meetup"
    day = workday_from(now, 6)
    h = rng.choice([17, 18, 19])
    venue = rng.choice(["Hall B", "Loft 3", "Studio 5", "Room 12"])
    scan = "data/scans/flyer.png"
    lines = [title.upper(), f"{weekday_month_day(day)}, {day.year}", f"{h}:00 - {h + 2}:00", f"Venue: {venue}",
             "Free entry", "Pizza and drinks"]
    lst = "data/team/upcoming_events.docx"
    existing = workday_from(now, 2)
    add = lambda d, summary=title, hours=2, where=venue: act(
        "calendar", "create_event", user=me["email"], summary=summary, time_start=f"{iso(d)} {h}:00:00",
        time_end=f"{iso(d)} {h + hours}:00:00", location=where)
    note = lambda line: act("word", "write_to_file", file_path=lst, contents=line)
    return {
        **head(me, now),
        "instruction": (f"Someone pinned a flyer at the office; the scan is {scan}. Add the meetup to my calendar "
                        f"(title as on the flyer in normal capitalisation, e.g. '{title}', with the date, times and "
                        f"venue it gives) and add it to the team's list in {lst} as a line '<YYYY-MM-DD> {title}'."),
        "office": [image(scan, lines, font_size=30),
                   docx(lst, [{"text": "Upcoming events", "style": "Heading 1"}, f"{iso(existing)} Team quiz night"]),
                   ics(me["email"], [ev("Dentist", at(day, 8), at(day, 9))])],
        "checks": [check("ics_event", user=me["email"], summary=title, start=f"{iso(day)} {h}:00:00",
                         end=f"{iso(day)} {h + 2}:00:00", location=venue),
                   # the title in normal capitalisation, as the instruction asks (not the flyer's capitals)
                   check("contains", file=f"calendar/{me['email']}.ics", text=title, case_sensitive=True),
                   check("contains", file=lst, text=f"{iso(day)} {title}", case_sensitive=True)],
        "gold": [switch("ocr"), act("ocr", "recognize_file", file_path=scan), switch("calendar"), add(day),
                 switch("word"), note(f"{iso(day)} {title}")],
        "wrong": [
            {"name": "one week off", "actions": [switch("calendar"), add(day + timedelta(days=7)), switch("word"),
                                                  note(f"{iso(day + timedelta(days=7))} {title}")]},
            {"name": "list updated, calendar forgotten", "actions": [switch("word"), note(f"{iso(day)} {title}")]},
            {"name": "the event without the venue", "actions": [
                switch("calendar"), add(day, where=None), switch("word"), note(f"{iso(day)} {title}")]},
            {"name": "the event an hour long", "actions": [
                switch("calendar"), add(day, hours=1), switch("word"), note(f"{iso(day)} {title}")]},
            {"name": "the title in capitals as on the flyer", "actions": [
                switch("calendar"), add(day, summary=title.upper()), switch("word"),
                note(f"{iso(day)} {title.upper()}")]},
            {"name": "the list line with the date written out", "actions": [
                switch("calendar"), add(day), switch("word"), note(f"{weekday_month_day(day)} {title}")]},
            {"name": "the meetup added twice to the calendar", "actions": [
                switch("calendar"), add(day), add(day), switch("word"), note(f"{iso(day)} {title}")]},
        ],
        "right": [
            {"name": "the venue in lower case, a description, the list line as a bullet", "actions": [
                switch("calendar"), act("calendar", "create_event", user=me["email"], summary=title,
                                        time_start=f"{iso(day)} {h}:00:00", time_end=f"{iso(day)} {h + 2}:00:00",
                                        location=venue.lower(), description="Free entry, pizza and drinks"),
                switch("word"), note(f"- {iso(day)} {title}")]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("lease-notice-deadline", apps=["pdf", "calendar", "excel"])
def lease_notice_deadline(rng: random.Random) -> dict:
    """Work out a lease's notice deadline from the agreement, record it and set a calendar reminder."""
    org, domain, (me, _), now = setup(rng, 2)
    landlord = rng.choice(["Kingsway Properties", "Elm Court Estates", "Riverbank Holdings", "Stonegate Realty"])
    premises = rng.choice(["Warehouse Unit 4", "Second floor, 12 Mill Road", "Shop 7, Market Arcade",
                           "Studio B, Canal Works"])
    end = (now + timedelta(days=rng.randrange(160, 300))).date()
    notice_days = rng.choice([60, 90, 120])
    deadline = end - timedelta(days=notice_days)
    m = end.month - notice_days // 30
    y = end.year + (m - 1) // 12
    m = (m - 1) % 12 + 1
    month_guess = end.replace(year=y, month=m, day=min(end.day, 28))
    lease = f"data/facilities/lease_{premises.split(',')[0].lower().replace(' ', '_')}.pdf"
    body = (f"Lease agreement\nLandlord: {landlord}\nTenant: {org}\nPremises: {premises}\n"
            f"Term ends: {iso(end)}\nRent is payable monthly in advance.")
    body2 = (f"Termination\nEither party may end the lease at the end of the term by written notice given at least "
             f"{notice_days} days before the term ends.\nOtherwise the lease renews for one year.")
    sheet = "data/facilities/leases.xlsx"
    rows = [["Premises", "Landlord", "Term ends", "Notice days", "Notice deadline"],
            ["Head office", "Parkside Offices", iso(end + timedelta(days=400)), 90,
             iso(end + timedelta(days=310))],
            [premises, landlord, None, None, None]]
    summary = f"Lease notice deadline: {premises}"

    def do(d, until="09:30", row=3):
        return [switch("calendar"),
                act("calendar", "create_event", user=me["email"], summary=summary, time_start=f"{iso(d)} 09:00:00",
                    time_end=f"{iso(d)} {until}:00"), switch("excel"),
                *[act("excel", "set_cell", file_path=sheet, row_idx=row, column_idx=c, text=v)
                  for c, v in [(3, iso(end)), (4, notice_days), (5, iso(d))]]]

    return {
        **head(me, now),
        "instruction": (f"Please look at the lease for {premises} ({lease}): work out the last day we can give notice "
                        f"(the term end minus the notice period in days). Fill that row of {sheet} (term end, notice "
                        f"days, notice deadline, dates as YYYY-MM-DD) and put a reminder '{summary}' on my calendar on "
                        f"the deadline day, 09:00-09:30."),
        "office": [pdf(lease, [body, body2]), xlsx(sheet, {"Leases": rows})],
        "checks": [check("ics_event", user=me["email"], summary=summary, start=f"{iso(deadline)} 09:00:00",
                         end=f"{iso(deadline)} 09:30:00"),
                   check("xlsx_cell", file=sheet, cell="C3", value=iso(end)),
                   check("xlsx_cell", file=sheet, cell="D3", value=notice_days),
                   check("xlsx_cell", file=sheet, cell="E3", value=iso(deadline))],
        "gold": [switch("pdf"), act("pdf", "read_file", pdf_file_path=lease), *do(deadline)],
        "wrong": ([{"name": "counts months instead of days", "actions": do(month_guess)}]
                  if month_guess != deadline else []) + [
            {"name": "one day late", "actions": do(deadline + timedelta(days=1))},
            {"name": "the term end taken as the deadline", "actions": do(end)},
            {"name": "the reminder an hour long", "actions": do(deadline, until="10:00")},
            {"name": "the dates written into a new row under the premises", "actions": do(deadline, row=4)},
            {"name": "the sheet filled, no reminder", "actions": do(deadline)[2:]},
        ],
        "right": [
            {"name": "the sheet first, the notice days as text, a reminder with a description", "actions": [
                switch("excel"), *[act("excel", "set_cell", file_path=sheet, row_idx=3, column_idx=c, text=v)
                                   for c, v in [(5, iso(deadline)), (4, str(notice_days)), (3, iso(end))]],
                switch("calendar"), act("calendar", "create_event", user=me["email"], summary=summary.upper(),
                                        time_start=f"{iso(deadline)} 09:00:00", time_end=f"{iso(deadline)} 09:30:00",
                                        description=f"Last day to give {landlord} notice")]},
        ],
    }
