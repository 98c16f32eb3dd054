"""Hard scenarios of customers: account reviews, price letters, escalations, minutes and their actions."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, time, timedelta

from officesim.tasks.hard_scenarios._base import (act, check, create_event, iso, last_week, list_events, list_mail,
                                                  long_date,
                                                  read_mail, read_pdf, read_sheet, scenario, send, set_cell, stamp,
                                                  switch, trigger_mail)
from officesim.testbed.worlds.model import Customer, World


def _first_of_month_after(day: date, days: int) -> date:
    """The first day of the first month starting at least ``days`` days after ``day``."""
    d = day + timedelta(days=days)
    return d if d.day == 1 else date(d.year + (d.month == 12), d.month % 12 + 1, 1)


def _contract_pdf(ref: str) -> str:
    return f"data/legal/contracts/{ref}.pdf"


def _on_leave(w: World, email: str, day: date) -> bool:
    return any(l.person == email and l.status in ("Approved", "Pending") and l.start <= day <= l.end for l in w.leave)


def _free(busy: list[tuple[datetime, datetime]], start: datetime, end: datetime) -> bool:
    return all(not (s < end and start < e) for s, e in busy)


@scenario("price-increase-letters", ["excel", "pdf", "email"])
def price_increase_letters(w: World) -> dict:
    """The Sales Director announces a list-price rise: every customer without a fixed-term agreement gets
    a letter (those whose agreement renews automatically, and those with none); the fixed-term ones are
    listed for the director. One customer wrote that their prices were agreed to stay: that letter is
    held and reported instead (a conflict)."""
    director = w.head_of("Sales")
    me = w.user
    today = w.now.date()
    effective = _first_of_month_after(today, 60)
    name = {p.email: p.name for p in w.people}
    agreement = {c.party: c for c in w.contracts if c.kind == "Customer"}
    fixed = sorted([c for c in w.customers if c.name in agreement and not agreement[c.name].auto_renew],
                   key=lambda c: c.name)
    letters = [c for c in w.customers if c not in fixed]
    held = sorted([c for c in letters if c.name in agreement], key=lambda c: c.name)[0]
    asks = sorted([c for c in letters if c.name not in agreement], key=lambda c: c.name)[0]
    exec_first = name[held.manager].split()[0]
    next_year = effective.year
    office = [
        trigger_mail(w, director.email, datetime.combine(today - timedelta(days=2), time(16, 40)),
                     f"List price increase from {long_date(effective)}",
                     f"Hi {me.first},\n\nThe board has approved a 4% rise in our list prices from {long_date(effective)}. "
                     "Customers must have it in writing at least 60 days before, so could you send the letters this "
                     "week?\n\nWho gets one: our standard terms let us change prices on notice, and so do the "
                     "agreements that renew automatically. A fixed-term agreement (one that ends on expiry unless both "
                     "sides sign a renewal) holds its prices until it ends, so those customers don't get a letter — "
                     "send me a list of them with the date each agreement ends, so we can price their renewals. "
                     "Customers with no agreement at all are on our standard terms and do get one.\n\n"
                     f"Thanks,\n{director.first}\n{director.role}", mail_id="msg-900"),
        trigger_mail(w, held.email, datetime.combine(today - timedelta(days=9), time(11, 5)),
                     f"Our prices for {next_year}",
                     f"Hello {me.first},\n\nThank you for a good review meeting last week. Just to confirm in writing "
                     f"what {exec_first} agreed with us there: our prices stay exactly as they are for the whole of "
                     f"{next_year}, and we renew on that basis.\n\nKind regards,\n{held.contact}\n{held.name}",
                     mail_id="msg-901"),
        trigger_mail(w, asks.email, datetime.combine(today - timedelta(days=6), time(9, 35)),
                     "Price list for next year",
                     f"Hello {me.first},\n\nCould you send us your price list for next year when it is ready? We are "
                     f"planning our budget.\n\nKind regards,\n{asks.contact}\n{asks.name}", mail_id="msg-902"),
    ]
    office[1]["cc"] = [held.manager]
    instruction = (
        f"Could you do the price increase letters {director.first} asked for? One email per customer to their contact "
        "in the customers list, copying their account executive: say that our prices rise by 4% from the date "
        f"{director.first} gave, and where the customer has an agreement with us, name its reference. Check the "
        "agreements themselves if you need to. Then send "
        f"{director.first} the list they asked for. Before sending anything, make sure "
        "nothing a customer has told us in writing contradicts the increase — if something does, don't send that "
        "customer a letter and tell me about it when you're done.")
    reg = w.paths["contracts"]
    gold = [switch("email"), list_mail(w), read_mail(w, "msg-900"), read_mail(w, "msg-901"),
            read_mail(w, "msg-902"), switch("excel"), read_sheet(reg), read_sheet(w.paths["customers"]),
            switch("pdf")]
    gold += [read_pdf(_contract_pdf(agreement[n].ref)) for n in sorted(agreement)]
    gold.append(switch("email"))
    checks = []
    for c in letters:
        if c is held:
            continue
        a = agreement.get(c.name)
        ref = f" under agreement {a.ref}" if a else ""
        body = (f"Dear {c.contact.split()[0]},\n\nWe are writing to let you know that our list prices will rise by 4% "
                f"from {long_date(effective)}. This applies to {c.name}{ref}.\n\nYour account executive, copied here, is "
                f"happy to answer any questions.\n\nKind regards,\n{me.name}\n{w.company}")
        gold.append(send(w, [c.email], f"Price change from {long_date(effective)}", body, cc=[c.manager]))
        facts = [iso(effective), "4%"] + ([a.ref] if a else [])
        checks.append(check("email_sent", f"letter to {c.name}", sender=me.email, to=[c.email], cc=[c.manager],
                            body_contains=facts,
                            body_excludes=[x.ref for x in agreement.values() if x is not a]))
    checks.append(check("mailbox_not_contains", f"no letter to {held.name}", user=held.email,
                        text=[iso(effective), "4%"]))
    for c in fixed:
        checks.append(check("mailbox_not_contains", f"no letter to {c.name} (fixed term)", user=c.email,
                            text=[iso(effective), "4%"]))
    lines = [f"- {c.name}: agreement ends {long_date(agreement[c.name].end)}" for c in fixed]
    body = (f"Hi {director.first},\n\nThe letters have gone out. These customers have a fixed-term agreement and got "
            "no letter:\n" + "\n".join(lines) + f"\n\nBest,\n{me.first}")
    gold.append(send(w, [director.email], "Fixed-term customers: no price letter", body))
    checks.append(check("email_sent", "fixed-term list for the director", sender=me.email, to=[director.email],
                        body_contains=[x for c in fixed for x in (c.name, iso(agreement[c.name].end))],
                        body_excludes=[c.name for c in letters if c is not held],
                        # named as those that had a letter ("4 under agreements that renew automatically - Heron Bay
                        # Resorts, …") they are context, not fixed-term customers
                        excludes_unless=["renew automatically", "renews automatically", "auto-renew", "standard terms",
                                         "had their letter", "got their letter", "got a letter", "had a letter",
                                         "were sent a letter", "was sent a letter", "received a letter"],
                        lines=[[c.name, iso(agreement[c.name].end)] for c in fixed]))
    answer = (f"I held the letter to {held.name}: their contact wrote that our account executive agreed to keep "
              "their prices unchanged, which contradicts the increase.")
    gold.append(act("system", "finish_task", answer=answer))
    checks.append(check("answer_contains", f"reported {held.name}", text=[held.name]))
    return {"instruction": instruction, "office": office, "gold": gold, "checks": checks, "answer": answer}


@scenario("customer-escalations", ["email", "excel", "calendar"])
def customer_escalations(w: World) -> dict:
    """Tally the customers' mails of the last weeks; every customer who wrote three times or more is
    escalated: logged in a new sheet (most messages first), a 30-minute review booked with their account
    executive and the Sales Director in the first free slot (the executive's leave respected), and the
    executive mailed the orders the customer asked about and the review's time."""
    director = w.head_of("Sales")
    me = w.user
    today = w.now.date()
    name = {p.email: p.name for p in w.people}
    by_email = {c.email: c for c in w.customers}
    inbox = sorted([m for m in w.mails if m.folder == "inbox" and m.kind == "customer"], key=lambda m: m.when)
    for weeks in (6, 7, 8, 9):
        since = today - timedelta(days=7 * weeks)
        msgs: dict[str, list] = defaultdict(list)
        for m in inbox:
            if m.when.date() >= since:
                msgs[by_email[m.sender].name].append(m)
        hot = sorted([n for n in msgs if len(msgs[n]) >= 3], key=lambda n: (-len(msgs[n]), n))
        if len(hot) >= 3:
            break
    busy = [(e.start, e.end) for e in w.events]
    booked: dict[str, datetime] = {}
    for n in hot:
        c = w.customer(n)
        day = today + timedelta(days=1)
        found = None
        while found is None:
            if day.weekday() < 5 and not _on_leave(w, c.manager, day):
                slot = datetime.combine(day, time(9, 0))
                while slot + timedelta(minutes=30) <= datetime.combine(day, time(17, 0)):
                    if _free(busy, slot, slot + timedelta(minutes=30)):
                        found = slot
                        break
                    slot += timedelta(minutes=30)
            day += timedelta(days=1)
        booked[n] = found
        busy.append((found, found + timedelta(minutes=30)))
    sheet = "data/sales/reports/customer_escalations.xlsx"
    instruction = (
        f"{director.first} wants customers who keep chasing us escalated. Please go through the mail customers have "
        f"sent me since {long_date(since)} and find every customer who wrote three times or more in that time. For "
        "each of them:\n"
        "1. log them in a new spreadsheet, customer_escalations.xlsx in the sales reports folder, with a header row "
        "Customer, Messages, First message, Last message, Account executive — the number of their messages since "
        "that date, the dates of the first and last one (YYYY-MM-DD) and the executive's full name — the customer "
        "with the most messages first (alphabetical where they tie);\n"
        "2. in that order, book a 30-minute 'Escalation: <customer>' in my calendar with their account executive "
        f"and {director.first}, in the first free half-hour slot (starting on the hour or half past, between 9:00 "
        "and 17:00 on a weekday) from tomorrow on that doesn't clash with anything in my calendar, including the "
        "escalations you book, and isn't on a day the executive is on leave (approved or pending);\n"
        f"3. email the account executive, copying {director.first}: which customer, the order numbers they asked "
        "about, and when the escalation meeting is.")
    gold = [switch("email"), list_mail(w)]
    gold += [read_mail(w, m.id) for n in hot for m in msgs[n]]
    gold += [switch("excel"), read_sheet(w.paths["customers"]), read_sheet(w.paths["leave"]),
             act("excel", "create_new_file", file_path=sheet)]
    header = ["Customer", "Messages", "First message", "Last message", "Account executive"]
    gold += [set_cell(sheet, 1, col, v) for col, v in enumerate(header, start=1)]
    checks = [check("xlsx_row", "escalation log header", file=sheet, row=1, values=header)]
    for row, n in enumerate(hot, start=2):
        c = w.customer(n)
        values = [n, len(msgs[n]), iso(msgs[n][0].when), iso(msgs[n][-1].when), name[c.manager]]
        gold += [set_cell(sheet, row, col, v) for col, v in enumerate(values, start=1)]
        checks.append(check("xlsx_row", f"logged {n}", file=sheet, row=row, values=values))
    checks.append(check("xlsx_cell", "no other customer logged", file=sheet, cell=f"A{len(hot) + 2}", value=None))
    gold += [switch("calendar"), list_events(w)]
    for n in hot:
        c = w.customer(n)
        s = booked[n]
        gold.append(create_event(w, f"Escalation: {n}", s, s + timedelta(minutes=30),
                                 attendees=[c.manager, director.email]))
        checks.append(check("ics_event", f"escalation meeting for {n}", user=me.email, summary=f"Escalation: {n}",
                            start=stamp(s), end=stamp(s + timedelta(minutes=30)),
                            attendees=[c.manager, director.email]))
    checks.append(check("calendar_no_overlap", "no clash in the calendar", user=me.email))
    gold.append(switch("email"))
    for n in hot:
        c = w.customer(n)
        s = booked[n]
        orders = list(dict.fromkeys(m.about for m in msgs[n]))
        body = (f"Hi {name[c.manager].split()[0]},\n\n{n} has been chasing us: since {long_date(since)} they asked "
                f"about {', '.join(orders)}. I've booked an escalation meeting with you and {director.first} on "
                f"{s:%A} {long_date(s.date())} at {s:%H:%M}.\n\nBest,\n{me.first}")
        gold.append(send(w, [c.manager], f"Escalation: {n}", body, cc=[director.email]))
        others = sorted({m.about for m in inbox if m.sender == c.email} - set(orders))
        checks.append(check("email_sent", f"told {name[c.manager]} about {n}", sender=me.email, to=[c.manager],
                            cc=[director.email], body_contains=[n] + orders + [iso(s), s.strftime("%H:%M")],
                            body_excludes=others, lines=[[iso(s), s.strftime("%H:%M")]]))
    return {"instruction": instruction, "gold": gold, "checks": checks}


@scenario("qbr-booking", ["excel", "calendar", "email"])
def qbr_booking(w: World) -> dict:
    """Over a few days the Sales Director asks for quarterly business reviews with the biggest customers of
    this year (a later message widens it from the North's top three to the South's top two as well and
    shortens them): book each, biggest first, in the first free morning slot of next week on, one a day,
    not on a day the account executive is on leave; log them in a new sheet and mail it to the director."""
    director = w.head_of("Sales")
    me = w.user
    today = w.now.date()
    revenue: dict[str, float] = defaultdict(float)
    for s in w.sales:
        revenue[s.customer] += s.total
    revenue = {k: round(v, 2) for k, v in revenue.items()}

    def top(region: str, n: int) -> list[Customer]:
        return sorted([c for c in w.customers if c.region == region], key=lambda c: (-revenue[c.name], c.name))[:n]

    first_pick = top("North", 3)
    chosen = sorted(top("North", 3) + top("South", 2), key=lambda c: (-revenue[c.name], c.name))
    minutes = 45
    busy = [(e.start, e.end) for e in w.events]
    used_days: set[date] = set()
    monday = today + timedelta(days=7 - today.weekday())
    booked: dict[str, datetime] = {}
    for c in chosen:
        day = monday
        found = None
        while found is None:
            if day.weekday() < 5 and day not in used_days and not _on_leave(w, c.manager, day):
                for h in (10, 11):
                    s = datetime.combine(day, time(h, 0))
                    if _free(busy, s, s + timedelta(minutes=minutes)):
                        found = s
                        break
            day += timedelta(days=1)
        booked[c.name] = found
        used_days.add(found.date())
        busy.append((found, found + timedelta(minutes=minutes)))
    sheet = "data/sales/reports/qbr_schedule.xlsx"
    at = last_week(w)
    dialogue = [
        {"speaker": director.name, "at": at(0, 9, 25),
         "text": f"Morning {me.first}! Could you set up quarterly business reviews with our three biggest customers "
                 "in the North — biggest by revenue in this year's orders. An hour each, with the customer's contact "
                 "and their account executive, in your calendar (you'll host them)."},
        {"speaker": me.name, "at": at(0, 9, 41), "text": "Happy to. Any preference for when?"},
        {"speaker": director.name, "at": at(0, 9, 58),
         "text": f"Start from the week of Monday {long_date(monday)}. Mornings only: start at 10:00 or 11:00 on a "
                 "weekday, never clashing with "
                 "anything in your calendar, and no more than one review a day. Not on a day the account executive "
                 "is on leave, approved or pending. Biggest customer first, each in the earliest slot that's left. "
                 "Title them 'QBR: <customer>'."},
        {"speaker": director.name, "at": at(2, 13, 10),
         "text": "Unrelated — the car park barrier is broken again, leave early if you drive."},
        {"speaker": me.name, "at": at(2, 13, 22), "text": "Thanks for the warning!"},
        {"speaker": director.name, "at": at(3, 16, 30),
         "text": f"Two changes to the reviews. Add the two biggest customers in the South too, and make them all "
                 f"{minutes} minutes rather than an hour — same rules, biggest first across all five. And I'd like a "
                 "sheet of them: a new qbr_schedule.xlsx in the sales reports folder, columns Customer, Region, "
                 "Revenue, Date, Start — revenue this year, the date as YYYY-MM-DD and the start as HH:MM, one row "
                 "per review in the order you book them. Mail it to me when it's done."},
    ]
    instruction = f"Could you set up the customer reviews now, as {director.first} and I agreed above?"
    gold = [switch("excel"), read_sheet(w.paths["sales"]), read_sheet(w.paths["customers"]),
            read_sheet(w.paths["leave"]), read_sheet(w.paths["directory"]), switch("calendar"), list_events(w)]
    checks = []
    for c in chosen:
        s = booked[c.name]
        gold.append(create_event(w, f"QBR: {c.name}", s, s + timedelta(minutes=minutes), attendees=[c.email, c.manager]))
        checks.append(check("ics_event", f"review with {c.name}", user=me.email, summary=f"QBR: {c.name}",
                            start=stamp(s), end=stamp(s + timedelta(minutes=minutes)), attendees=[c.email, c.manager]))
    for c in sorted([c for c in w.customers if c not in chosen], key=lambda c: -revenue[c.name])[:3]:
        checks.append(check("ics_no_event", f"no review for {c.name}", user=me.email, summary=f"QBR: {c.name}"))
    checks.append(check("calendar_no_overlap", "no clash", user=me.email))
    gold += [switch("excel"), act("excel", "create_new_file", file_path=sheet)]
    header = ["Customer", "Region", "Revenue", "Date", "Start"]
    gold += [set_cell(sheet, 1, col, v) for col, v in enumerate(header, start=1)]
    checks.append(check("xlsx_row", "schedule header", file=sheet, row=1, values=header))
    for row, c in enumerate(chosen, start=2):
        s = booked[c.name]
        values = [c.name, c.region, revenue[c.name], iso(s), s.strftime("%H:%M")]
        gold += [set_cell(sheet, row, col, v) for col, v in enumerate(values, start=1)]
        checks.append(check("xlsx_row", f"schedule row {row}: {c.name}", file=sheet, row=row, values=values))
    checks.append(check("xlsx_cell", "nothing below the schedule", file=sheet, cell=f"A{len(chosen) + 2}", value=None))
    body = (f"Hi {director.first},\n\nThe quarterly business reviews are booked; the schedule is attached.\n\n"
            f"Best,\n{me.first}")
    gold += [switch("email"), send(w, [director.email], "QBR schedule", body, attachments=[sheet])]
    checks.append(check("email_sent", "schedule mailed to the director", sender=me.email, to=[director.email],
                        attachments=["qbr_schedule.xlsx"]))
    assert first_pick[0] in chosen
    return {"instruction": instruction, "dialogue": dialogue, "gold": gold, "checks": checks}


EXEC_ROLES = ("Account Executive", "Regional Sales Manager")


@scenario("account-handover", ["excel", "calendar", "email"])
def account_handover(w: World) -> dict:
    """An account executive leaves: over a few days the Sales Director first gives all their customers to
    one colleague, then splits them by region and settles the last region in person — only the user
    knows that part, so the agent must ask. The customers list is updated, each contact told (the new
    executive copied), the upcoming account reviews moved and the customers' recent mail forwarded."""
    director = w.head_of("Sales")
    me = w.user
    today = w.now.date()
    name = {p.email: p.name for p in w.people}
    owned: dict[str, list[Customer]] = defaultdict(list)
    for c in w.customers:
        owned[c.manager].append(c)
    recent_since = today - timedelta(days=28)
    recent = lambda cs: [m for m in w.mails if m.folder == "inbox" and m.kind == "customer"  # noqa: E731
                         and m.sender in {c.email for c in cs} and m.when.date() >= recent_since]
    leaver = w.person(sorted([e for e in owned if len(owned[e]) <= 8 and len({c.region for c in owned[e]}) >= 3],
                             key=lambda e: (-len(owned[e]), -len(recent(owned[e])), name[e]))[0])
    mine = owned[leaver.email]
    sales = [p for p in w.team("Sales") if p.email not in (leaver.email, director.email)]
    pool = sorted(sales, key=lambda p: (p.role not in EXEC_ROLES, len(owned.get(p.email, [])), p.row)) + [director]
    x, y, z = pool[0], pool[1], pool[2]
    count = defaultdict(int)
    for c in mine:
        count[c.region] += 1
    regions = sorted(count, key=lambda r: (-count[r], r))
    r1, r2, rest = regions[0], regions[1], regions[2:]
    new = {c.name: (x if c.region == r1 else y if c.region == r2 else z) for c in mine}
    rest_text = " and ".join(rest)
    last_day = today + timedelta(days=4 - today.weekday() if today.weekday() < 4 else 11 - today.weekday())
    # the leaver's upcoming account reviews, in the user's calendar
    busy = [(e.start, e.end) for e in w.events]
    reviews = []
    day = today + timedelta(days=8)
    for k, c in enumerate(sorted(mine, key=lambda c: c.name)):
        at_time = [time(15, 30), time(14, 0), time(11, 30)][k % 3]  # each review at its own time of day
        while True:
            s = datetime.combine(day, at_time)
            if day.weekday() < 5 and _free(busy, s, s + timedelta(hours=1)):
                break
            day += timedelta(days=1)
        reviews.append((c, s))
        busy.append((s, s + timedelta(hours=1)))
        day += timedelta(days=2)
    office = [{"type": "ics", "user": me.email, "events": [
        {"summary": f"Account review: {c.name}", "start": stamp(s), "end": stamp(s + timedelta(hours=1)),
         "location": None, "description": None, "attendees": [me.email, leaver.email, c.email]}
        for c, s in reviews]}]
    at = last_week(w)
    dialogue = [
        {"speaker": director.name, "at": at(0, 10, 5),
         "text": f"Hi {me.first}, some news: {leaver.name} is leaving us, last day Friday {long_date(last_day)}. "
                 f"Could you hand {leaver.first}'s customers over? For now, give them all to {x.name}."},
        {"speaker": me.name, "at": at(0, 10, 19), "text": "Sorry to hear that. Will do — what does the handover involve?"},
        {"speaker": director.name, "at": at(0, 10, 33),
         "text": "Change the account executive in the customers list; write to each customer's contact to introduce "
                 "their new executive (copy the new executive in); in the account reviews in your calendar, put the "
                 f"new executive in place of {leaver.first} (keep everyone else); and forward the new executive every "
                 "message that customer sent you in the last four weeks, so nothing gets lost. Then send each new "
                 "executive one email listing the customers they take over, with the date and time of each one's "
                 "account review."},
        {"speaker": director.name, "at": at(1, 12, 50), "text": "Are you going to the leaving drinks on Friday?"},
        {"speaker": me.name, "at": at(1, 13, 2), "text": "Wouldn't miss it."},
        {"speaker": director.name, "at": at(3, 17, 12),
         "text": f"Change of plan for {leaver.first}'s customers: {x.name} can't take them all. The {r1} ones go to "
                 f"{x.name}, the {r2} ones to {y.name}. The {rest_text} "
                 f"{'ones' if len([c for c in mine if c.region in rest]) > 1 else 'one'} — let's settle that at our "
                 "catch-up, I need to think about it."},
    ]
    instruction = f"Could you do {leaver.first}'s customer handover now, as {director.first} and I discussed?"
    sheet = w.paths["customers"]
    question = f"Who takes over {leaver.first}'s {rest_text} customers?"
    gold = [act("system", "ask_user", question=question), switch("excel"), read_sheet(sheet),
            read_sheet(w.paths["directory"])]
    checks = []
    for c in mine:
        gold.append(set_cell(sheet, c.row, 5, new[c.name].name))
        checks.append(check("xlsx_cell", f"{c.name} to {new[c.name].name}", file=sheet, cell=f"E{c.row}",
                            value=new[c.name].name))
    checks.append(check("column_values", "other customers unchanged", file=sheet, column="E",
                        values=[new[c.name].name if c in mine else name[c.manager] for c in w.customers]))
    gold += [switch("calendar"), list_events(w)]
    for c, s in reviews:
        att = [me.email, new[c.name].email, c.email]
        gold.append(act("calendar", "update_event", user=me.email, summary=f"Account review: {c.name}", attendees=att))
        checks.append(check("ics_event", f"review with {c.name} moved", user=me.email,
                            summary=f"Account review: {c.name}", start=stamp(s), attendees=att))
    gold += [switch("email"), list_mail(w)]
    msgs = recent(mine)
    gold += [read_mail(w, m.id) for m in msgs]
    for c in mine:
        p = new[c.name]
        body = (f"Dear {c.contact.split()[0]},\n\nFrom now on your account executive at {w.company} is {p.name}, "
                f"copied here, who will be in touch shortly.\n\nKind regards,\n{me.name}")
        gold.append(send(w, [c.email], f"Your new account executive at {w.company}", body, cc=[p.email]))
        checks.append(check("email_sent", f"{c.name} told", sender=me.email, to=[c.email], cc=[p.email],
                            body_contains=[p.name], body_excludes=[q.name for q in (x, y, z) if q is not p]))
    for m in msgs:
        c = next(c for c in mine if c.email == m.sender)
        p = new[c.name]
        gold.append(act("email", "forward_email", username=me.email, email_id=m.id, recipient=p.email,
                        content=f"Hi {p.first}, this one from {c.name} is yours now. Thanks, {me.first}"))
        checks.append(check("email_sent", f"forwarded {m.subject} ({c.name})", sender=me.email, to=[p.email],
                            subject_contains=m.subject))
    for p in sorted({new[c.name].email for c in mine}, key=lambda e: name[e]):
        theirs = [(c, s) for c, s in reviews if new[c.name].email == p]
        lines = [f"- {c.name}: account review {s:%A} {long_date(s.date())} at {s:%H:%M}"
                 for c, s in theirs]
        body = (f"Hi {name[p].split()[0]},\n\nYou're taking over these customers:\n"
                + "\n".join(lines) + f"\n\nI've told each of them and put you in their reviews.\n\nBest,\n{me.first}")
        gold.append(send(w, [p], f"Your customers from {leaver.first}", body))
        checks.append(check("email_sent", f"{name[p]} told their customers", sender=me.email, to=[p],
                            body_contains=[x for c, s in theirs for x in (c.name, iso(s), s.strftime("%H:%M"))],
                            body_excludes=[c.name for c in mine if new[c.name].email != p],
                            lines=[[c.name, iso(s), s.strftime("%H:%M")] for c, s in theirs]))
    replies = [{"when": ["who", "whom", "which", rest[0], "catch-up", "catch up", "settle", "remaining", "rest"],
                "reply": f"We settled it: the {rest_text} customers go to {z.name}.", "needed": True,
                "guess": {z.name: x.name}}]
    return {"instruction": instruction, "dialogue": dialogue, "office": office, "gold": gold, "checks": checks,
            "user_replies": replies}


_ACTION_TEMPLATES = [
    "send {c} the revised price list",
    "book a site visit with {c}",
    "confirm the delivery date of {o} with {c}",
    "call {c} about their late payment",
    "prepare the renewal proposal for {c}",
    "send {c} a copy of the invoice for {o}",
]


def _key_accounts_minutes(w: World) -> tuple[list[dict], list[dict], list[dict]]:
    """Six weekly 'Key accounts weekly' meetings (Tuesdays, the last before today): new actions each week,
    and the status of the earlier open ones (done, carried over, moved to someone else). Returns the
    builders of the minutes (with a stale draft of the last), the actions and the meetings."""
    import random

    rng = random.Random(f"world:{w.name}:key-accounts")
    director = w.head_of("Sales")
    today = w.now.date()
    last = today - timedelta(days=1)
    while last.weekday() != 1:
        last -= timedelta(days=1)
    meetings = [last - timedelta(days=7 * k) for k in range(5, -1, -1)]
    crew = [p for p in w.team("Sales") if p.email != director.email]
    owners = sorted(rng.sample(crew, min(4, len(crew))), key=lambda p: p.row)
    orders: dict[str, list[str]] = defaultdict(list)
    for s in w.sales:
        orders[s.customer].append(s.order)
    actions: list[dict] = []
    n = 100 + rng.randrange(0, 80)
    files, records = [], []
    moved_once = False
    for k, day in enumerate(meetings):
        reviewed = []
        for a in actions:
            if a["done"] is not None:
                continue
            r = rng.random()
            if a["history"]:  # a moved action stays with its new owner, open
                reviewed.append(f"{a['id']} ({a['owner'].name}): carried over.")
            elif r < 0.45:
                a["done"] = day
                reviewed.append(f"{a['id']} ({a['owner'].name}): done.")
            elif r < 0.6 and not moved_once and 2 <= k < 5:
                moved_once = True
                to = next(p for p in owners if p is not a["owner"])
                reviewed.append(f"{a['id']}: moves from {a['owner'].name} to {to.name}.")
                a["history"].append(a["owner"])
                a["owner"] = to
            else:
                reviewed.append(f"{a['id']} ({a['owner'].name}): carried over.")
        new = []
        for _ in range(rng.choice([2, 3, 3])):
            n += 1
            c = rng.choice(w.customers)
            o = rng.choice(orders[c.name])
            tmpl = rng.choice(_ACTION_TEMPLATES)
            a = {"id": f"A{n}", "owner": rng.choice(owners), "customer": c.name, "raised": day,
                 "due": day + timedelta(days=rng.choice([7, 14, 21])), "what": tmpl.format(c=c.name, o=o),
                 "done": None, "history": []}
            actions.append(a)
            new.append(f"{a['id']} {a['owner'].name} — {a['what']} — due {long_date(a['due'])}")
        present = ", ".join([director.name] + [p.name for p in owners])
        paras = [f"Key accounts weekly — minutes of {long_date(day)}", f"Present: {present}",
                 "Open actions reviewed:"] + (reviewed or ["None."]) + ["New actions:"] + new
        files.append({"type": "docx", "path": f"data/sales/minutes/key_accounts_{iso(day)}.docx", "paragraphs": paras})
        records.append({"day": day, "paras": paras})
    # a stale draft of the last meeting: it marks one carried-over action as done
    final = records[-1]["paras"]
    carried = [p for p in final if p.endswith("carried over.")]
    draft = [("(draft) " + p if p == final[0] else p.replace("carried over.", "done.") if carried and p == carried[0]
              else p) for p in final]
    files.append({"type": "docx", "path": f"data/sales/minutes/drafts/key_accounts_{iso(meetings[-1])}_draft.docx",
                  "paragraphs": draft})
    return files, actions, meetings


@scenario("key-account-actions", ["word", "excel", "email"])
def key_account_actions(w: World) -> dict:
    """Read six weeks of the key accounts weekly's minutes (the final ones, not a stale draft) and work out
    which actions are still open (done, carried over, moved to another owner); list them in a new sheet,
    chase each owner by mail about their overdue ones (owners with nothing overdue get no mail) and send
    the Sales Director the count of open actions per owner."""
    director = w.head_of("Sales")
    me = w.user
    today = w.now.date()
    files, actions, meetings = _key_accounts_minutes(w)
    still = [a for a in actions if a["done"] is None]
    sheet = "data/sales/reports/open_actions.xlsx"
    owners = sorted({a["owner"].email for a in still}, key=lambda e: w.person(e).name)
    instruction = (
        f"{director.first} asked me to get on top of the actions from the key accounts weekly. Please go through "
        "the minutes of those meetings (the final ones in the sales minutes folder, not the drafts) and work out "
        "which actions are still open after the latest meeting: an action stays open until a later meeting records "
        "it as done, and where a meeting moved it to someone else it's theirs now.\n"
        "List the open ones in a new spreadsheet, open_actions.xlsx in the sales reports folder: a header row "
        "Action, Owner, Customer, Raised, Due — the action's number, the owner's full name, the customer it is "
        "about, the date of the meeting that raised it and its due date (dates as YYYY-MM-DD) — one row per open "
        "action in number order.\n"
        "Then chase: email each owner who has open actions past their due date (due before today), one email per "
        "owner listing those overdue actions with their number and due date; nobody else gets one. Finally send "
        f"{director.first} one email with the number of open actions per owner (just the owners who have any).")
    gold = [switch("word")]
    gold += [act("word", "read_file", file_path=f"data/sales/minutes/key_accounts_{iso(d)}.docx") for d in meetings]
    gold += [switch("excel"), read_sheet(w.paths["directory"]), act("excel", "create_new_file", file_path=sheet)]
    header = ["Action", "Owner", "Customer", "Raised", "Due"]
    gold += [set_cell(sheet, 1, col, v) for col, v in enumerate(header, start=1)]
    checks = [check("xlsx_row", "open actions header", file=sheet, row=1, values=header)]
    for row, a in enumerate(still, start=2):
        values = [a["id"], a["owner"].name, a["customer"], iso(a["raised"]), iso(a["due"])]
        gold += [set_cell(sheet, row, col, v) for col, v in enumerate(values, start=1)]
        checks.append(check("xlsx_row", f"open {a['id']}", file=sheet, row=row, values=values))
    checks.append(check("xlsx_cell", "no closed action listed", file=sheet, cell=f"A{len(still) + 2}", value=None))
    gold.append(switch("email"))
    for e in owners:
        p = w.person(e)
        late = [a for a in still if a["owner"].email == e and a["due"] < today]
        if not late:
            checks.append(check("mailbox_not_contains", f"{p.name} not chased", user=e,
                                text=[a["id"] for a in still if a["owner"].email == e]))
            continue
        lines = [f"- {a['id']}, due {long_date(a['due'])}" for a in late]
        body = (f"Hi {p.first},\n\nThese actions from the key accounts weekly are yours and past their due date:\n"
                + "\n".join(lines) + f"\n\nCould you close them, or tell me when they'll be done?\n\nThanks,\n{me.first}")
        gold.append(send(w, [e], "Overdue actions from the key accounts weekly", body))
        checks.append(check("email_sent", f"chased {p.name}", sender=me.email, to=[e],
                            body_contains=[x for a in late for x in (a["id"], iso(a["due"]))],
                            body_excludes=[a["id"] for a in actions if a not in late],
                            lines=[[a["id"], iso(a["due"])] for a in late]))
    tally = [(w.person(e).name, sum(1 for a in still if a["owner"].email == e)) for e in owners]
    body = (f"Hi {director.first},\n\nOpen actions from the key accounts weekly, per owner:\n"
            + "\n".join(f"- {n}: {k}" for n, k in tally) + f"\n\nThe list is in open_actions.xlsx in the sales "
            f"reports folder; I've chased the overdue ones.\n\nBest,\n{me.first}")
    gold.append(send(w, [director.email], "Open actions per owner", body))
    checks.append(check("email_sent", "tally for the director", sender=me.email, to=[director.email],
                        body_contains=[x for n, k in tally for x in (n, k)], lines=[[n, k] for n, k in tally]))
    return {"instruction": instruction, "office": files, "gold": gold, "checks": checks}
