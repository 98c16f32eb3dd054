"""Hard scenarios of the calendar: booking many meetings around a busy diary and people's leave."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from officesim.tasks.hard_scenarios._base import (act, check, create_event, iso, list_events, list_mail, long_date,
                                                  money, read_mail, read_sheet, scenario, send, set_cell, stamp,
                                                  switch)
from officesim.testbed.worlds.model import World

T = "%Y-%m-%d %H:%M:%S"


def _busy(w: World) -> list[tuple[datetime, datetime]]:
    return [(e.start, e.end) for e in w.events]


def _free(busy: list[tuple[datetime, datetime]], start: datetime, end: datetime) -> bool:
    return all(not (s < end and start < e) for s, e in busy)


def _on_leave(w: World, email: str, day: date) -> bool:
    return any(l.person == email and l.status in ("Approved", "Pending") and l.start <= day <= l.end for l in w.leave)


@scenario("team-reviews-booking", ["excel", "calendar", "email"])
def team_reviews_booking(w: World) -> dict:
    """The director asks over several days for a review with each of the user's direct reports (a later
    message shortens them and takes one person out): book each in the earliest free slot by a stated rule,
    around the user's diary, the reports' leave and a cap per day; log them and mail each person."""
    director = w.person(w.user.manager)
    reports = [p for p in w.people if p.manager == w.user.email]
    moving = reports[1]
    team = [p for p in reports if p is not moving]
    today = w.now.date()
    minutes = 30
    busy = _busy(w)
    booked: dict[str, tuple[datetime, datetime]] = {}
    per_day: dict[date, int] = {}
    for p in team:
        day = today + timedelta(days=1)
        found = None
        while found is None:
            if day.weekday() < 5 and per_day.get(day, 0) < 1 and not _on_leave(w, p.email, day):
                slot = datetime.combine(day, time(14, 0))
                while slot + timedelta(minutes=minutes) <= datetime.combine(day, time(17, 0)):
                    end = slot + timedelta(minutes=minutes)
                    if _free(busy, slot, end):
                        found = (slot, end)
                        break
                    slot += timedelta(minutes=30)
            if found is None:
                day += timedelta(days=1)
        booked[p.email] = found
        busy.append(found)
        per_day[found[0].date()] = per_day.get(found[0].date(), 0) + 1
    friday = datetime.combine(today - timedelta(days=3), time(0, 0))
    at = lambda d, h, m: (friday + timedelta(days=d, hours=h, minutes=m)).strftime(T)  # noqa: E731
    log = "data/operations/team_reviews.xlsx"
    dialogue = [
        {"speaker": director.name, "at": at(-3, 11, 20),
         "text": f"{w.user.first}, time for the mid-year reviews with your team. One hour each, please, with "
                 "everyone who reports to you — book them in your calendar and invite them."},
        {"speaker": w.user.name, "at": at(-3, 11, 34), "text": "Will do. Any rules on when?"},
        {"speaker": director.name, "at": at(-3, 11, 50),
         "text": "Start the day after you get to it. Go through your people in the order of the staff directory and "
                 "give each the earliest slot that starts on the hour or half past, in the afternoon between 14:00 and 17:00 on a "
                 "weekday (finished by 17:00), that doesn't clash with anything in your calendar — including the "
                 "reviews you've booked already — and isn't on a day they're on leave (approved or pending leave "
                 "counts, withdrawn doesn't). No more than one review a day, or you'll go mad. Title them "
                 "'Mid-year review: <their full name>', no room needed."},
        {"speaker": director.name, "at": at(-1, 13, 2),
         "text": "Did you see the quiz night on Thursday? We need a fourth for our team."},
        {"speaker": w.user.name, "at": at(-1, 13, 15), "text": "Count me in!"},
        {"speaker": director.name, "at": at(0, 16, 45),
         "text": f"Two changes to the reviews: make them {minutes} minutes, not an hour, and leave {moving.name} out — "
                 f"{moving.first} moves to Purchasing next month and I'll do that review myself. Also keep a log: a "
                 "new sheet, team_reviews.xlsx in the operations data folder, columns Name, Date (YYYY-MM-DD), Start "
                 "(HH:MM), one row per review in booking order, header in row 1. And send each of them a short email "
                 "with the day and time."},
    ]
    instruction = "Can you set up the mid-year reviews now, as the director and I agreed above?"
    gold = [switch("excel"), read_sheet(w.paths["directory"]), read_sheet(w.paths["leave"]),
            switch("calendar"), list_events(w)]
    checks = []
    for p in team:
        s, e = booked[p.email]
        gold.append(create_event(w, f"Mid-year review: {p.name}", s, e, attendees=[p.email]))
        checks.append(check("ics_event", f"review {p.name}", user=w.user.email, summary=f"Mid-year review: {p.name}",
                            start=stamp(s), end=stamp(e), attendees=[p.email]))
    checks.append(check("ics_no_event", f"no review for {moving.name}", user=w.user.email,
                        summary=f"Mid-year review: {moving.name}"))
    checks.append(check("calendar_no_overlap", "no clash", user=w.user.email))
    gold += [switch("excel"), act("excel", "create_new_file", file_path=log)]
    rows = [["Name", "Date", "Start"]] + [[p.name, iso(booked[p.email][0]), booked[p.email][0].strftime("%H:%M")]
                                         for p in team]
    for r, values in enumerate(rows, start=1):
        for c, v in enumerate(values, start=1):
            gold.append(set_cell(log, r, c, v))
    for r, values in enumerate(rows, start=1):
        for c, v in enumerate(values):
            checks.append(check("xlsx_cell", f"log row {r}" if c == 0 else None, file=log, cell=f"{'ABC'[c]}{r}",
                                value=v))
    checks.append(check("xlsx_cell", "log has no extra row", file=log, cell=f"A{len(rows) + 1}", value=None))
    gold.append(switch("email"))
    for p in team:
        s, e = booked[p.email]
        body = (f"Hi {p.first},\n\nI've booked your mid-year review for {s:%A} {long_date(s.date())} at "
                f"{s:%H:%M}. See you then!\n\nBest,\n{w.user.first}")
        gold.append(send(w, [p.email], "Your mid-year review", body))
        checks.append(check("email_sent", f"told {p.name}", sender=w.user.email, to=[p.email],
                            body_contains=[iso(s), s.strftime("%H:%M")], lines=[[iso(s), s.strftime("%H:%M")]]))
    checks.append(check("email_not_sent", f"nothing to {moving.name}", sender=w.user.email, to=[moving.email],
                        subject_contains="review"))
    return {"instruction": instruction, "dialogue": dialogue, "gold": gold, "checks": checks}


@scenario("supplier-call-agendas", ["calendar", "excel", "email"])
def supplier_call_agendas(w: World) -> dict:
    """For every quarterly supplier call next week: the agenda (the supplier's open orders and its unpaid
    invoices past due) in the call's description and mailed to the account manager, copying the colleague
    invited; a supplier with nothing to discuss gets no mail and is reported instead."""
    today = w.now.date()
    monday = today + timedelta(days=7 - today.weekday())
    open_pos = {s.name: sorted([p for p in w.pos if p.supplier == s.name and p.status == "Open"], key=lambda p: p.po)
                for s in w.suppliers}
    overdue = {s.name: sorted([i for i in w.invoices if i.supplier == s.name and not i.paid and i.due < today],
                              key=lambda i: i.due) for s in w.suppliers}
    busy_names = sorted([s.name for s in w.suppliers if open_pos[s.name] or overdue[s.name]],
                        key=lambda n: (-(len(open_pos[n]) + len(overdue[n])), n))
    idle = [s.name for s in w.suppliers if not open_pos[s.name] and not overdue[s.name]]
    n_busy = 5 - len(idle[:1])
    chosen = sorted(busy_names[:n_busy] + idle[:1])
    buyers = [p for p in w.team("Purchasing") if p.role != "Head of Purchasing"] or w.team("Purchasing")
    busy = _busy(w)
    calls = []
    day, hours = monday, [11, 14, 9]
    for k, name in enumerate(chosen):
        while True:
            slot = next((datetime.combine(day, time(h, 0)) for h in hours
                         if _free(busy, datetime.combine(day, time(h, 0)), datetime.combine(day, time(h, 45)))), None)
            if slot and day.weekday() < 5:
                break
            day += timedelta(days=1)
        colleague = buyers[k % len(buyers)]
        calls.append((name, slot, slot + timedelta(minutes=45), colleague))
        busy.append((slot, slot + timedelta(minutes=45)))
        day += timedelta(days=1) if k % 2 else timedelta(days=0)
    office = [{"type": "ics", "user": w.user.email, "events": [
        {"summary": f"Quarterly call: {n}", "start": stamp(s), "end": stamp(e), "location": None,
         "description": None, "attendees": [w.user.email, c.email]} for n, s, e, c in calls]}]
    later = datetime.combine(monday + timedelta(days=9), time(10, 0))  # the week after: not part of it
    office[0]["events"].append({"summary": f"Quarterly call: {busy_names[n_busy]}", "start": stamp(later),
                                "end": stamp(later + timedelta(minutes=45)), "location": None, "description": None,
                                "attendees": [w.user.email, buyers[0].email]})
    instruction = (
        "Next week I have the quarterly calls with some of our suppliers (they're in my calendar as 'Quarterly call: "
        "<supplier>'). For each of those calls next week, prepare the agenda: the supplier's open purchase orders "
        "(PO number, item, promised delivery date) and its invoices that are unpaid and past their due date "
        "(invoice number, amount, due date). Put the agenda in the call's description in my calendar, and email it "
        "to the supplier's account manager, copying the colleague who is invited to the call. If a supplier has "
        "nothing open and nothing overdue, leave its call as it is, don't email anyone about it, and tell me "
        "which one it is when you're done.")
    gold = [switch("calendar"), list_events(w), switch("excel"), read_sheet(w.paths["pos"]),
            read_sheet(w.paths["invoices"]), read_sheet(w.paths["suppliers"])]
    reminders = {m.about: m for m in w.mails if m.kind == "reminder"}
    reads = [reminders[i.number].id for n, *_ in calls for i in overdue[n] if i.number in reminders]
    if reads:
        gold += [switch("email"), list_mail(w)] + [read_mail(w, r) for r in reads]
    gold.append(switch("calendar"))
    checks = []
    sends = []
    nothing = []
    for name, s, e, colleague in calls:
        sup = w.supplier(name)
        pos, invs = open_pos[name], overdue[name]
        if not pos and not invs:
            nothing.append(name)
            checks.append(check("email_not_sent", f"no mail to {name}", sender=w.user.email, to=[sup.email]))
            continue
        agenda = (["Open orders:"] + [f"- {p.po} ({p.item}), promised {long_date(p.promised)}" for p in pos]
                  if pos else ["Open orders: none"]) + \
                 (["Overdue invoices:"] + [f"- {i.number}: {money(i.amount)}, due {long_date(i.due)}" for i in invs]
                  if invs else ["Overdue invoices: none"])
        gold.append(act("calendar", "update_event", user=w.user.email, summary=f"Quarterly call: {name}",
                        description="\n".join(agenda)))
        facts = [p.po for p in pos] + [i.number for i in invs]
        groups = [[p.po, iso(p.promised)] for p in pos] + [[i.number, money(i.amount), iso(i.due)] for i in invs]
        checks.append(check("event_contains", f"agenda in the {name} call", user=w.user.email,
                            text=[f"Quarterly call: {name}"] + facts + [iso(p.promised) for p in pos]
                            + [x for i in invs for x in (money(i.amount), iso(i.due))], start=stamp(s)))
        body = (f"Dear {sup.contact.split()[0]},\n\nAhead of our quarterly call next week, here is the agenda:\n" + "\n".join(agenda) + f"\n\nKind regards,\n{w.user.name}\n{w.company}")
        sends.append(send(w, [sup.email], "Agenda for our quarterly call", body, cc=[colleague.email]))
        others = [p.po for p in w.pos if p.supplier == name and p.status != "Open"] + \
                 [i.number for i in w.invoices if i.supplier == name and i not in invs]  # every one not on the agenda
        checks.append(check("email_sent", f"agenda to {name}", sender=w.user.email, to=[sup.email], cc=[colleague.email],
                            body_contains=facts, body_excludes=others, lines=groups))
    gold += [switch("email")] + sends
    answer = None
    if nothing:
        answer = (f"{' and '.join(nothing)} had nothing open or overdue, so I left {'that call' if len(nothing) == 1 else 'those calls'} "
              "as it was and sent no agenda.")
        checks.append(check("answer_contains", "reported the idle supplier", text=nothing))
    task = {"instruction": instruction, "office": office, "gold": gold, "checks": checks}
    if answer:
        gold.append(act("system", "finish_task", answer=answer))
        task["answer"] = answer
    return task


@scenario("leave-handover", ["calendar", "excel", "email"])
def leave_handover(w: World) -> dict:
    """Before the user's leave (its dates changed by a later message, and the chair of one meeting too): block
    each weekday in the calendar, record the leave, ask the other person of each one-off meeting in that time
    to rebook, and tell the Operations team who chairs each Operations weekly."""
    today = w.now.date()
    director = w.person(w.user.manager)
    reports = [p for p in w.people if p.manager == w.user.email]
    cover, second = reports[0], reports[1]
    mon1 = today + timedelta(days=14 - today.weekday())
    first_start, first_end = mon1, mon1 + timedelta(days=11)
    start, end = mon1 + timedelta(days=1), mon1 + timedelta(days=14)
    back = end + timedelta(days=1)
    while back.weekday() >= 5:
        back += timedelta(days=1)
    days = [start + timedelta(days=k) for k in range((end - start).days + 1)]
    days = [d for d in days if d.weekday() < 5]
    during = sorted([e for e in w.events if start <= e.start.date() <= end], key=lambda e: e.start)
    one_off = [e for e in during if e.series is None and len(e.attendees) > 1]
    weeklies = [e for e in during if e.series == "Operations weekly"]
    chair = {e.start.date(): (second if e.start.date() == end else cover) for e in weeklies}
    ops = [p.email for p in w.team("Operations") if p.email != w.user.email]
    ago = lambda d, h, m: (datetime.combine(today - timedelta(days=d), time(h, m))).strftime(T)  # noqa: E731
    dialogue = [
        {"speaker": director.name, "at": ago(6, 10, 14),
         "text": f"I've approved your leave, {long_date(first_start)} to {long_date(first_end)}. Enjoy!"},
        {"speaker": w.user.name, "at": ago(6, 10, 31),
         "text": f"Thanks! {cover.first} can chair Operations weekly while I'm away."},
        {"speaker": director.name, "at": ago(6, 10, 40), "text": "Fine by me."},
        {"speaker": director.name, "at": ago(4, 15, 2),
         "text": "Random one: the coffee machine on floor 2 is fixed, finally."},
        {"speaker": director.name, "at": ago(1, 11, 20),
         "text": f"Change of plan, sorry: HR put you on the fire-warden training on {mon1:%A} {long_date(mon1)}, so "
                 f"your leave now runs from {start:%A} {long_date(start)} to {end:%A} {long_date(end)} — I've "
                 f"approved that instead. And {cover.first} is on a course on {end:%A} {long_date(end)}, so "
                 f"{second.name} chairs that Operations weekly; {cover.first} chairs the others."},
        {"speaker": director.name, "at": ago(1, 11, 26),
         "text": "Before you go, please: put the leave in the leave sheet (a new row at the bottom, Annual leave, "
                 "Approved); block your calendar with an 'Annual leave' event from 9:00 to 17:00 on each weekday of "
                 "it; write to the other person in each of your one-off meetings in that time (not the recurring "
                 f"ones: Operations weekly, our 1:1 and the all-hands) asking them to rebook with {cover.first} or "
                 f"after you're back on {back:%A} {long_date(back)} — one email per meeting, saying which meeting "
                 "and when; and send the Operations team, everyone invited to Operations weekly except you, one email "
                 "saying who chairs each Operations weekly while you're away."},
    ]
    instruction = "Could you sort out everything for my leave that the director asked for above?"
    sheet = w.paths["leave"]
    gold = [switch("excel"), read_sheet(sheet), read_sheet(w.paths["directory"])]
    row = len(w.leave) + 2
    values = [w.user.name, w.user.email, iso(start), iso(end), "Annual leave", "Approved"]
    checks = []
    for col, v in enumerate(values, start=1):
        gold.append(set_cell(sheet, row, col, v))
        checks.append(check("xlsx_cell", "leave recorded" if col == 1 else None, file=sheet,
                            cell=f"{'ABCDEF'[col - 1]}{row}", value=v))
    gold += [switch("calendar"), list_events(w)]
    for d in days:
        s, e = datetime.combine(d, time(9, 0)), datetime.combine(d, time(17, 0))
        gold.append(create_event(w, "Annual leave", s, e))
        checks.append(check("ics_event", f"blocked {iso(d)}", user=w.user.email, summary="Annual leave",
                            start=stamp(s), end=stamp(e)))
    gold.append(switch("email"))
    for ev in one_off:
        other = next(a for a in ev.attendees if a != w.user.email)
        p = w.person(other)
        body = (f"Hi {p.first},\n\nI'll be on leave, so I'll miss our {ev.summary} on {ev.start:%A} "
                f"{long_date(ev.start.date())} at {ev.start:%H:%M}. Could you rebook it with {cover.name}, or after "
                f"I'm back?\n\nThanks,\n{w.user.first}")
        gold.append(send(w, [other], f"{ev.summary} on {long_date(ev.start.date())}", body))
        checks.append(check("email_sent", f"rebook {ev.summary} {iso(ev.start)}", sender=w.user.email, to=[other],
                            body_contains=[ev.summary, iso(ev.start), ev.start.strftime("%H:%M")],
                            lines=[[iso(ev.start), ev.start.strftime("%H:%M")]]))
    lines = [f"- {e.start:%A} {long_date(e.start.date())}: {chair[e.start.date()].name}" for e in weeklies]
    body = ("While I'm on leave, Operations weekly goes ahead as usual, chaired by:\n" + "\n".join(lines) + f"\n\nThanks,\n{w.user.first}")
    gold.append(send(w, ops, "Operations weekly while I'm away", body))
    checks.append(check("email_sent", "told the team who chairs", sender=w.user.email, to=ops,
                        body_contains=[chair[e.start.date()].name for e in weeklies],
                        lines=[[iso(e.start), chair[e.start.date()].name] for e in weeklies]))
    return {"instruction": instruction, "dialogue": dialogue, "gold": gold, "checks": checks}
