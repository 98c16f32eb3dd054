"""Hard scenarios of people and expenses: leave requests under the leave policy, expense claims under
the travel policy."""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta

from officesim.tasks.hard_scenarios._base import (act, check, iso, list_mail, list_events, long_date, read_doc,
                                                  read_mail, read_sheet, scenario, send, set_cell, stamp, switch,
                                                  trigger_mail)
from officesim.testbed.worlds.model import World


def _weekday_on_or_after(day: date) -> date:
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def _days(start: date, end: date) -> list[date]:
    return [start + timedelta(days=k) for k in range((end - start).days + 1)]


@scenario("leave-requests-review", ["excel", "email", "calendar"])
def leave_requests_review(w: World) -> dict:
    """Decide the leave requests the user's reports sent this week under the leave policy (two weeks'
    notice, one week for up to two days; at most two of the team on annual leave a day, counting the
    approved leave in the sheet and the requests approved before, in the order they came in): record
    each in the leave sheet, answer each request, and put the approved absences in the calendar."""
    rng = random.Random(f"world:{w.name}:leave-requests")
    today = w.now.date()
    me = w.user
    team = {p.email for p in w.team(me.team)}
    reports = [p for p in w.people if p.manager == me.email]
    approved = [(l.person, l.start, l.end) for l in w.leave
                if l.person in team and l.kind == "Annual leave" and l.status == "Approved"]

    def count(day: date, extra: list) -> int:
        return sum(1 for _p, s, e in approved + extra if s <= day <= e)

    # a week three to seven weeks out, preferring one where somebody of the team is already away
    mondays = [today + timedelta(days=k) for k in range(21, 50) if (today + timedelta(days=k)).weekday() == 0]
    x = max(mondays, key=lambda m: (all(count(m + timedelta(days=k), []) == 1 for k in range(5)), -m.toordinal()))
    horizon = x + timedelta(days=7)
    free = [r for r in reports if not any(l.person == r.email and l.status != "Withdrawn" and l.end >= today
                                          and l.start <= horizon for l in w.leave)]
    free = free if len(free) >= 4 else reports
    a, b, c, d = rng.sample(free, 4)
    asked0 = datetime.combine(today - timedelta(days=3), time(9, 20))
    short = _weekday_on_or_after(today + timedelta(days=3))
    while short.weekday() > 2:  # three weekdays in a row
        short += timedelta(days=1)
    quick = _weekday_on_or_after(today + timedelta(days=8))
    if quick.weekday() == 4:
        quick += timedelta(days=3)
    requests = [  # (person, start, end, kind, when asked)
        (a, x + timedelta(days=1), x + timedelta(days=2), "Annual leave", asked0),
        (b, x + timedelta(days=1), x + timedelta(days=1), "Training", asked0 + timedelta(hours=5, minutes=12)),
        (c, x + timedelta(days=2), x + timedelta(days=4), "Annual leave", asked0 + timedelta(days=1, hours=1, minutes=3)),
        (d, x + timedelta(days=2), x + timedelta(days=3), "Annual leave", asked0 + timedelta(days=1, hours=6, minutes=41)),
        (b, short, short + timedelta(days=2), "Annual leave", asked0 + timedelta(days=2, hours=-1, minutes=15)),
        (c if len(free) < 5 else rng.choice([r for r in free if r not in (a, b, c, d)]),
         quick, quick + timedelta(days=1), "Annual leave", asked0 + timedelta(days=2, hours=4, minutes=30)),
    ]
    decisions = []
    taken: list = []
    for p, s, e, kind, asked in requests:
        days_ahead = (s - asked.date()).days
        need = 7 if (e - s).days + 1 <= 2 else 14
        reason = None
        if days_ahead < need:
            reason = ("notice", need)
        elif kind == "Annual leave":
            full = [day for day in _days(s, e) if count(day, taken) >= 2]
            if full:
                reason = ("full", full[0])
        if reason is None and kind == "Annual leave":
            taken.append((p.email, s, e))
        decisions.append(reason)

    office = []
    for i, (p, s, e, kind, asked) in enumerate(requests):
        what = (f"a day of training on {long_date(s)}" if s == e else
                f"{kind.lower()} from {long_date(s)} to {long_date(e)}")
        body = (f"Hi {me.first},\n\nCould I take {what}? "
                + rng.choice(["Thanks!", "Let me know if that works.", "Happy to swap if it clashes with anything.",
                              "It's booked provisionally."]) + f"\n\nBest regards,\n{p.first}")
        office.append(trigger_mail(w, p.email, asked, "Leave request" if kind != "Training" else "Training day",
                                   body, mail_id=f"msg-{900 + i}"))
    sheet = w.paths["leave"]
    instruction = (
        "My team sent me some leave requests this week — could you deal with them following the leave policy? "
        "Take them in the order they arrived: count the team's annual leave that's already approved in the leave "
        "sheet plus whatever you approve before it. For each request add a row below the existing ones in the leave "
        "sheet (same columns, dates as YYYY-MM-DD; Status Approved or Rejected) and reply to the request, saying whether it's approved "
        "and, if not, why — the date that is full, or the notice the policy asks for. Put each approved absence in "
        "my calendar, titled with the person's name and the type of leave, from 9:00 on the first day to 17:30 on "
        "the last day, without inviting anyone.")
    gold = [switch("email"), list_mail(w)]
    gold += [read_mail(w, f"msg-{900 + i}") for i in range(len(requests))]
    gold += [switch("excel"), read_sheet(sheet), read_sheet(w.paths["directory"])]
    checks = []
    replies, events = [], []
    row = len(w.leave) + 2
    for i, ((p, s, e, kind, _asked), reason) in enumerate(zip(requests, decisions)):
        status = "Approved" if reason is None else "Rejected"
        values = [p.name, p.email, iso(s), iso(e), kind, status]
        gold += [set_cell(sheet, row + i, col, v) for col, v in enumerate(values, start=1)]
        checks.append(check("xlsx_row", f"{p.first}'s {kind.lower()} from {iso(s)} {status.lower()}", file=sheet,
                            row=row + i, values=values))
        if reason is None:
            text = f"Hi {p.first},\n\nYes, that's fine: your {kind.lower()} is approved.\n\nBest,\n{me.first}"
            events.append(act("calendar", "create_event", user=me.email, summary=f"{p.name} - {kind}",
                              time_start=stamp(datetime.combine(s, time(9, 0))),
                              time_end=stamp(datetime.combine(e, time(17, 30)))))
            checks.append(check("event_contains", f"{p.first} away from {iso(s)} in the calendar", user=me.email,
                                text=[p.name], start=stamp(datetime.combine(s, time(9, 0))),
                                end=stamp(datetime.combine(e, time(17, 30)))))
            checks.append(check("email_sent", f"told {p.first} about {iso(s)}", sender=me.email, to=[p.email],
                                subject_contains=["Leave request", "Training day"][kind == "Training"]))
        elif reason[0] == "full":
            text = (f"Hi {p.first},\n\nSorry, I can't approve this one: the team is already at the leave "
                    f"policy's limit of people on annual leave on {long_date(reason[1])}.\n\nBest,\n{me.first}")
            checks.append(check("email_sent", f"told {p.first} {iso(reason[1])} is full", sender=me.email,
                                to=[p.email], body_contains=[iso(reason[1])]))
        else:
            text = (f"Hi {p.first},\n\nSorry, I can't approve this one: for leave this long the leave policy "
                    f"asks for {'two weeks' if reason[1] == 14 else 'one week'}' notice.\n\nBest,\n{me.first}")
            checks.append(check("email_sent", f"told {p.first} about the notice", sender=me.email, to=[p.email],
                                body_contains=[["two weeks", "14 days", "fortnight"]]))
        replies.append(act("email", "reply_email", username=me.email, email_id=f"msg-{900 + i}", content=text))
    checks.append(check("xlsx_cell", "nothing more in the sheet", file=sheet, cell=f"A{row + len(requests)}",
                        value=None))
    gold += [switch("email")] + replies + [switch("calendar"), list_events(w)] + events
    return {"instruction": instruction, "office": office, "gold": gold, "checks": checks}


@scenario("expense-claims-review", ["word", "excel", "email"])
def expense_claims_review(w: World) -> dict:
    """Decide the expense claims the user's reports sent in the last few days under the travel policy in
    force (version 3: hotel caps per city and night, meals up to £60 a day, claims over 30 days late
    rejected; the 2024 version and the v4 draft are distractors). One claimant says the user agreed a
    hotel excess before the trip: only the user knows, so the agent must ask."""
    rng = random.Random(f"world:{w.name}:expense-review")
    today = w.now.date()
    me = w.user
    caps = w.per_diem
    reports = [p for p in w.people if p.manager == me.email]
    people = rng.sample(reports, 4)
    since = today - timedelta(days=3)
    assert not any(m.kind == "claim" and m.when.date() >= since for m in w.mails)
    high = sorted([c for c, v in caps.items() if v > 150], key=lambda c: (rng.random(), c))
    cities = sorted(caps, key=lambda c: (rng.random(), c))
    n = max(int(e.claim.split("-")[1]) for e in w.expenses)
    sent0 = datetime.combine(since, time(17, 5))
    # (person, expense day, city, category, amount, nights, the claimant's note)
    c1, c2, c3, c4, c5 = high[0], high[1], cities[0], cities[1], cities[2]
    raw = [
        (people[0], since - timedelta(days=9), c1, "Hotel", round((caps[c1] - 8) * 2, 2), 2, None),
        (people[0], since - timedelta(days=9), c1, "Meals", 41.80, None, None),
        (people[1], since - timedelta(days=15), c2, "Hotel", round((caps[c2] + 12) * 3, 2), 3, None),
        (people[1], since - timedelta(days=14), c2, "Meals", 84.50, None, None),
        (people[2], since - timedelta(days=38), c3, "Travel", 212.40, None, None),
        (people[2], since - timedelta(days=6), c4, "Travel", 96.75, None, None),
        (people[3], since - timedelta(days=11), c5, "Hotel", round(caps[c5] * 2 + 74, 2), 2,
         "You agreed the extra before I went, as the conference hotel was the only one left."),
    ]
    claims = []
    for k, (p, day, city, cat, amount, nights, note) in enumerate(raw):
        claim = f"EXP-{n + 1 + k}"
        when = sent0 + timedelta(days=k // 3, hours=k % 3, minutes=7 * k)
        if cat == "Hotel":
            cap = caps[city] * nights
            full = note is not None  # the user's answer: the excess was agreed in writing before the trip
            approved = amount if (amount <= cap or full) else round(cap, 2)
        elif cat == "Meals":
            approved = min(amount, 60.0)
        else:
            approved = amount
        if (when.date() - day).days > 30:
            approved = 0.0
        status = "Rejected" if approved == 0 else "Approved" if approved == amount else "Partly approved"
        claims.append(dict(claim=claim, p=p, day=day, city=city, cat=cat, amount=amount, nights=nights, note=note,
                           when=when, approved=approved, status=status))
    sheet_file = next(f for f in w.files if f["path"] == w.paths["expenses"])
    rows = [list(r) for r in sheet_file["sheets"]["Claims"]]
    first_row = len(rows) + 1
    for c in claims:
        rows.append([c["claim"], c["p"].name, c["p"].email, iso(c["day"]), c["city"], c["cat"], c["amount"],
                     "Submitted"])
    office = [{"type": "xlsx", "path": w.paths["expenses"], "sheets": {"Claims": rows}}]
    for k, c in enumerate(claims):
        what = {"Hotel": f"hotel in {c['city']}, {c['nights']} nights from {long_date(c['day'])}",
                "Meals": f"meals in {c['city']} on {long_date(c['day'])} (one day)",
                "Travel": f"train and flights for the {c['city']} trip on {long_date(c['day'])}"}[c["cat"]]
        body = (f"Hi {me.first},\n\nCould you approve my claim {c['claim']}: {what}, £{c['amount']:,.2f}? "
                f"Receipts are with the claim." + (f" {c['note']}" if c["note"] else "")
                + f"\n\nThanks,\n{c['p'].first}")
        office.append(trigger_mail(w, c["p"].email, c["when"], f"Expense claim {c['claim']}", body,
                                   mail_id=f"msg-{920 + k}"))
    sheet = w.paths["expenses"]
    asked = claims[-1]
    instruction = (
        f"Could you go through the expense claims my team sent me since {long_date(since)}? Check each against our "
        "travel policy — the one in force, not the draft — and decide it: in the claims sheet set its Status to "
        "Approved, Partly approved or Rejected, and add a column 'Approved amount' after Status with the amount we "
        "reimburse (0 for a rejected claim). Then reply to each claim mail with the decision, the amount approved "
        "and, where it isn't the full amount, the reason.")
    question = (f"{asked['p'].first} says you agreed the extra hotel cost for {asked['claim']} in writing before the "
                f"trip — did you?")
    gold = [switch("word"), read_doc(w.paths["travel_policy"]), switch("email"), list_mail(w)]
    gold += [read_mail(w, f"msg-{920 + k}") for k in range(len(claims))]
    gold += [switch("excel"), read_sheet(sheet), act("system", "ask_user", question=question),
             set_cell(sheet, 1, 9, "Approved amount")]
    checks = [check("xlsx_cell", "column added", file=sheet, cell="I1", value="Approved amount")]
    replies = []
    for k, c in enumerate(claims):
        row = first_row + k
        gold += [set_cell(sheet, row, 8, c["status"]), set_cell(sheet, row, 9, f"{c['approved']:.2f}")]
        checks.append(check("xlsx_row", f"{c['claim']} {c['status'].lower()}", file=sheet, row=row,
                            values=[c["claim"], c["p"].name, c["p"].email, iso(c["day"]), c["city"], c["cat"],
                                    c["amount"], c["status"], c["approved"]]))
        if c["status"] == "Approved":
            text = f"Hi {c['p'].first},\n\nYour claim {c['claim']} is approved in full: £{c['approved']:,.2f}."
        elif c["status"] == "Rejected":
            text = (f"Hi {c['p'].first},\n\nSorry, I have to reject {c['claim']}: it was submitted more than 30 days "
                    f"after the expense, which the travel policy does not allow.")
        elif c["cat"] == "Hotel":
            text = (f"Hi {c['p'].first},\n\nI've partly approved {c['claim']}: £{c['approved']:,.2f}, as the hotel "
                    f"went over the travel policy's nightly cap for {c['city']}.")
        else:
            text = (f"Hi {c['p'].first},\n\nI've partly approved {c['claim']}: £{c['approved']:,.2f}, as meals are "
                    f"capped at the travel policy's daily limit.")
        replies.append(act("email", "reply_email", username=me.email, email_id=f"msg-{920 + k}",
                           content=text + f"\n\nBest,\n{me.first}"))
        facts = [c["claim"], c["approved"]] if c["status"] != "Rejected" else [c["claim"], ["30 days", "late"]]
        checks.append(check("email_sent", f"answered {c['claim']}", sender=me.email, to=[c["p"].email],
                            subject_contains=c["claim"], body_contains=facts))
    gold += [switch("email")] + replies
    replies_cfg = [{"when": ["agree", "agreed", "approve", "approved", "excess", "extra", "before the trip",
                             asked["claim"]],
                    "reply": f"Yes — I agreed {asked['p'].first}'s extra hotel cost for {asked['claim']} in writing "
                             "before the trip. Approve it in full.",
                    "needed": True,
                    "guess": {f"{asked['approved']:.2f}": f"{caps[asked['city']] * asked['nights']:.2f}"}}]
    return {"instruction": instruction, "office": office, "gold": gold, "checks": checks,
            "user_replies": replies_cfg}


@scenario("new-starter-intros", ["email", "excel", "calendar"])
def new_starter_intros(w: World) -> dict:
    """A new starter is announced by mail: add them to the staff directory, book a 30-minute intro with
    each colleague of the user's team around the user's calendar (lunch and the end of the day kept
    free, carrying over to the next morning) and mail the starter the schedule."""
    from officesim.testbed.worlds import vocab

    rng = random.Random(f"world:{w.name}:new-starter")
    today = w.now.date()
    me = w.user
    hr = w.head_of("People")
    taken = {p.name for p in w.people}
    first, last = next((f, l) for f, l in sorted(((f, l) for f in vocab.FIRST for l in vocab.LAST),
                                                  key=lambda x: rng.random()) if f"{f} {l}" not in taken
                       and not any(p.first == f for p in w.people))
    starter_email = f"{first.lower()}.{last.lower()}@{w.domain}"
    starter = f"{first} {last}"
    role = "Logistics Coordinator"
    location = rng.choice(["Head office", "Warehouse"])
    phone = f"+44 20 7946 {rng.randrange(1000, 9999)}"
    colleagues = [p for p in w.people if p.team == me.team and p.email != me.email]
    busy = [(e.start, e.end) for e in w.events if me.email in e.attendees or f"all-staff@{w.domain}" in e.attendees]
    monday = today + timedelta(days=7 - today.weekday())
    # next week's day (Monday to Wednesday) on which the user's calendar is busiest: the first day
    day = max([monday + timedelta(days=k) for k in range(3)],
              key=lambda d: (sum(1 for s, _e in busy if s.date() == d and time(9, 30) <= s.time() < time(17, 0)),
                             -d.toordinal()))

    def free(at: datetime) -> bool:
        end = at + timedelta(minutes=30)
        lunch = (datetime.combine(at.date(), time(12, 30)), datetime.combine(at.date(), time(13, 30)))
        return (not any(s < end and at < e for s, e in busy) and not (lunch[0] < end and at < lunch[1]))

    slots = []
    at = datetime.combine(day, time(9, 30))
    while len(slots) < len(colleagues):
        if at + timedelta(minutes=30) > datetime.combine(at.date(), time(17, 0)):
            nxt = at.date() + timedelta(days=1)
            at = datetime.combine(nxt, time(9, 30))
            continue
        if free(at):
            slots.append(at)
        at += timedelta(minutes=30)
    announce = trigger_mail(
        w, hr.email, datetime.combine(today - timedelta(days=3), time(14, 12)), f"New starter: {starter}",
        f"Hi {me.first},\n\nGood news: {starter} joins your team as {role} on {long_date(day)}. Their address will "
        f"be {starter_email}, phone {phone}, based at the {location.lower()}. Could you add them to the staff "
        f"directory and set up their first days?\n\nThanks,\n{hr.first}\n{hr.role}", mail_id="msg-940")
    instruction = (
        f"{hr.first} has told me about our new starter. Please add them at the bottom of the staff directory "
        "(every column filled in, with me as their manager and their first day as the start date, as YYYY-MM-DD). Then book a "
        "30-minute intro with each of my team — everyone in the directory's Operations team except me, in the "
        "directory's order — starting at 9:30 on their first day, one after another. I'll join each one, so skip "
        "any time I already have something in my calendar; keep 12:30 to 13:30 free for lunch and finish by 17:00, "
        "carrying on the next morning at 9:30. Title each 'Intro: <starter> / <colleague>' and invite the two of "
        f"them (not me, they're in my calendar anyway). Email the new starter their intro schedule (who and when), "
        f"and reply to {hr.first} that it's done.")
    sheet = w.paths["directory"]
    row = len(w.people) + 2
    values = [starter, starter_email, me.team, role, me.name, location, phone, iso(day)]
    gold = [switch("email"), list_mail(w), read_mail(w, "msg-940"), switch("excel"), read_sheet(sheet)]
    gold += [set_cell(sheet, row, col, v) for col, v in enumerate(values, start=1)]
    checks = [check("xlsx_row", "added to the directory", file=sheet, row=row, values=values)]
    gold += [switch("calendar"), list_events(w)]
    lines = []
    for p, s in zip(colleagues, slots):
        gold.append(act("calendar", "create_event", user=me.email, summary=f"Intro: {starter} / {p.name}",
                        time_start=stamp(s), time_end=stamp(s + timedelta(minutes=30)),
                        attendees=[starter_email, p.email]))
        checks.append(check("ics_event", f"intro with {p.name}", user=me.email, summary=f"Intro: {starter} / {p.name}",
                            start=stamp(s), end=stamp(s + timedelta(minutes=30)), attendees=[starter_email, p.email]))
        lines.append(f"- {s:%A} {long_date(s.date())} at {s:%H:%M}: {p.name}")
    body = (f"Hi {first},\n\nWelcome to {w.company}! Here are your intro meetings with the team (I'll join each):\n"
            + "\n".join(lines) + f"\n\nSee you soon.\n\nBest,\n{me.first}")
    gold += [switch("email"), send(w, [starter_email], "Your intro meetings", body),
             act("email", "reply_email", username=me.email, email_id="msg-940",
                 content=f"Hi {hr.first},\n\nDone: {starter} is in the staff directory and their intro meetings "
                         f"are booked.\n\nBest,\n{me.first}")]
    checks.append(check("email_sent", f"replied to {hr.first}", sender=me.email, to=[hr.email],
                        subject_contains=f"New starter: {starter}"))
    checks.append(check("email_sent", "schedule mailed to the starter", sender=me.email, to=[starter_email],
                        body_contains=[x for p, s in zip(colleagues, slots) for x in (p.name, stamp(s)[:16])],
                        lines=[[p.name, f"{iso(s)} {s:%H:%M}"] for p, s in zip(colleagues, slots)]))
    return {"instruction": instruction, "office": [announce], "gold": gold, "checks": checks}
