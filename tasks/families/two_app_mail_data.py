"""Two-app families: mail and calendar work that leans on a workbook (excel + email, excel + calendar)."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    act, at, check, col_letter, day_month, days_ago, eml, ev, fmt, head, ics, iso, other_companies, people, setup,
    switch, weekday_day_month, xlsx
)
from officesim.tasks.families.registry import family


@family("invoice-overdue-reminder", apps=["excel", "email"])
def invoice_overdue_reminder(rng: random.Random) -> dict:
    """Find the one client invoice that is past due and unpaid in the invoice register; mail its contact."""
    org, domain, (me,), now = setup(rng, 1)
    clients = other_companies(rng, domain, 5)
    contacts = [people(rng, 1, d)[0] for _, d in clients]
    base = rng.randrange(1100, 1800)
    # (days from today to the due date, status): one overdue+unpaid target, decoys of both kinds
    plan = [(-rng.randrange(3, 20), "Unpaid"), (-rng.randrange(5, 30), "Paid"), (rng.randrange(4, 25), "Unpaid"),
            (-rng.randrange(2, 12), "Paid"), (rng.randrange(2, 9), "Unpaid")]
    order = list(range(5))
    rng.shuffle(order)
    rows = [["Invoice", "Client", "Contact", "Amount", "Due date", "Status"]]
    info = {}
    for k, i in enumerate(order):
        inv = f"INV-{base + k}"
        amount = rng.randrange(400, 9000, 25)
        due = (now + timedelta(days=plan[i][0])).date()
        rows.append([inv, clients[i][0], contacts[i]["email"], amount, iso(due), plan[i][1]])
        info[i] = (inv, contacts[i]["email"], amount)
    target_inv, target_mail, target_amount = info[0]
    subject = f"Payment reminder: {target_inv}"
    body = (f"Dear {contacts[0]['first']},\n\nThis is a friendly reminder that invoice {target_inv} for "
            f"{target_amount} is now past its due date. Could you let us know when we can expect payment?\n\n"
            f"Kind regards,\n{me['name']}\n{org}")
    send = lambda to, inv: act("email", "send_email", sender=me["email"], recipient=to,  # noqa: E731
                               subject=f"Payment reminder: {inv}", content=body.replace(target_inv, inv))
    other_amount = next(info[i][2] for i in (4, 3, 2, 1) if info[i][2] != target_amount)
    return {
        **head(me, now),
        "instruction": ("One of our client invoices in data/finance/invoices.xlsx is past its due date and still "
                        "unpaid. Please send a polite payment reminder to that client's contact (the address is in "
                        "the register) and mention the invoice number and the amount in the message."),
        "office": [
            xlsx("data/finance/invoices.xlsx", {"Invoices": rows}),
            xlsx("data/finance/supplier_bills.xlsx", {"Bills": [
                ["Bill", "Supplier", "Amount", "Due date", "Status"],
                [f"B-{rng.randrange(300, 900)}", other_companies(rng, domain, 1)[0][0], rng.randrange(200, 3000, 10),
                 iso(now - timedelta(days=4)), "Unpaid"]]}),
        ],
        "checks": [
            check("email_sent", sender=me["email"], to=target_mail, body_contains=[target_inv, str(target_amount)],
                  body_excludes=[info[i][0] for i in range(1, 5)]
                  + [str(info[i][2]) for i in range(1, 5)
                     if info[i][2] not in (target_amount, int(target_inv.split("-")[1]))]),
            check("email_not_sent", sender=me["email"], to=info[1][1]),
            check("email_not_sent", sender=me["email"], to=info[2][1]),
            check("email_not_sent", sender=me["email"], to=info[3][1]),
        ],
        "gold": [
            switch("excel"),
            act("excel", "read_file", file_path="data/finance/invoices.xlsx"),
            switch("email"),
            act("email", "send_email", sender=me["email"], recipient=target_mail, subject=subject, content=body),
        ],
        "wrong": [
            {"name": "reminds a client whose overdue invoice is already paid",
             "actions": [switch("email"), send(info[1][1], info[1][0])]},
            {"name": "reminds a client whose unpaid invoice is not due yet",
             "actions": [switch("email"), send(info[2][1], info[2][0])]},
            {"name": "gives the invoice number but not the amount",
             "actions": [switch("email"), act("email", "send_email", sender=me["email"], recipient=target_mail,
                                              subject=subject, content=body.replace(f" for {target_amount}", ""))]},
            {"name": "the right client, but the amount of another invoice",
             "actions": [switch("email"), act("email", "send_email", sender=me["email"], recipient=target_mail,
                                              subject=subject, content=body.replace(str(target_amount),
                                                                                    str(other_amount)))]},
            {"name": "reminds every client with an unpaid invoice",
             "actions": [switch("email"), send(target_mail, target_inv), send(info[2][1], info[2][0]),
                         send(info[4][1], info[4][0])]},
            {"name": "one reminder listing every open invoice",
             "actions": [switch("email"), act("email", "send_email", sender=me["email"], recipient=target_mail,
                                              subject="Payment reminder", content=body + "\n\nOpen invoices: " + ", ".join(
                                                  f"{info[i][0]} ({info[i][2]})" for i in (0, 2, 4)))]},
        ],
        "right": [
            {"name": "another subject, the amount with a currency sign and separator",
             "actions": [switch("email"), act("email", "send_email", sender=me["email"], recipient=target_mail,
                                              subject="Overdue invoice",
                                              content=f"Hello {contacts[0]['first']}, our records show invoice "
                                                      f"{target_inv} (€{target_amount:,}.00) is still open past its "
                                                      f"due date. Could you check? Thanks, {me['name']}")]},
        ],
    }


@family("supplier-price-update", apps=["email", "excel"])
def supplier_price_update(rng: random.Random) -> dict:
    """Apply the unit-price changes a supplier announced by mail to the purchasing price list."""
    org, domain, (me, buyer), now = setup(rng, 2)
    (sup_a, dom_a), (sup_b, dom_b) = other_companies(rng, domain, 2)
    rep = people(rng, 1, dom_a)[0]
    rep_b = people(rng, 1, dom_b)[0]
    items = rng.sample(["Copy paper A4 (box)", "Toner cartridge black", "Whiteboard markers (set)",
                        "Shipping boxes medium", "Packing tape", "Cleaning wipes", "Safety gloves (pair)",
                        "Label rolls", "Stretch film", "Hand soap refill", "Coffee beans 1kg"], 6)
    shared = items[0]  # both suppliers sell it: only supplier A's row changes
    rows = [["SKU", "Item", "Supplier", "Unit price"]]
    prices = {}
    layout = [(items[0], sup_b), (items[0], sup_a), (items[1], sup_a), (items[2], sup_b), (items[3], sup_a),
              (items[4], sup_b), (items[5], sup_a)]
    rng.shuffle(layout)
    for k, (item, sup) in enumerate(layout):
        price = round(rng.randrange(150, 6000) / 100, 2)
        rows.append([f"SKU-{rng.randrange(1000, 9999)}-{k}", item, sup, price])
        prices[(item, sup)] = (k + 2, price)
    changed = [shared, rng.choice([i for i, s in layout if s == sup_a and i != shared])]
    new = {}
    for item in changed:
        r, old = prices[(item, sup_a)]
        new[item] = (r, round(old + rng.choice([-1, 1, 1]) * rng.randrange(20, 150) / 100, 2))
    first_next = (now.replace(day=1) + timedelta(days=32)).replace(day=1)
    lines = "\n".join(f"- {i}: {new[i][1]:.2f} per unit (previously {prices[(i, sup_a)][1]:.2f})" for i in changed)
    body_a = (f"Dear customer,\n\nFrom {day_month(first_next)} the following unit prices change:\n{lines}\n\n"
              f"All other prices stay as they are.\n\nBest regards,\n{rep['name']}\n{sup_a}")
    other_item = next(i for i, s in layout if s == sup_b)
    body_b = (f"Hello,\n\nA quick note that {other_item} will be out of stock for about two weeks. Prices are "
              f"unchanged.\n\nRegards,\n{rep_b['name']}\n{sup_b}")
    shared_row_b, shared_price_b = prices[(shared, sup_b)]
    return {
        **head(me, now),
        "instruction": (f"{sup_a} sent us new unit prices by email. Please update their rows in "
                        "data/purchasing/price_list.xlsx (the Unit price column) to the new prices."),
        "office": [
            xlsx("data/purchasing/price_list.xlsx", {"Prices": rows}),
            eml(me["email"], "msg-1", rep_b["email"], "Stock notice", body_b, days_ago(now, 3, 11, 5), bare=True),
            eml(me["email"], "msg-2", rep["email"], "Price changes", body_a, days_ago(now, 1, 15, 40),
                cc=[buyer["email"]], bare=True),
            eml(me["email"], "msg-3", buyer["email"], "Stationery order",
                "Hi, I've placed this month's stationery order. Nothing needed from you.\n", days_ago(now, 0, 8, 10),
                bare=True),
        ],
        "checks": [check("xlsx_cell", file="data/purchasing/price_list.xlsx", cell=f"D{r}", value=p)
                   for r, p in new.values()]
                  + [check("xlsx_cell", file="data/purchasing/price_list.xlsx", cell=f"D{shared_row_b}",
                           value=shared_price_b)],
        "gold": [
            switch("email"),
            act("email", "list_emails", username=me["email"]),
            act("email", "read_email", username=me["email"], email_id="msg-2"),
            switch("excel"),
            act("excel", "read_file", file_path="data/purchasing/price_list.xlsx"),
        ] + [act("excel", "set_cell", file_path="data/purchasing/price_list.xlsx", row_idx=r, column_idx=4, text=p)
             for r, p in new.values()],
        "wrong": [
            {"name": "changes the other supplier's row of the shared item",
             "actions": [switch("excel")] + [
                 act("excel", "set_cell", file_path="data/purchasing/price_list.xlsx",
                     row_idx=shared_row_b if i == shared else r, column_idx=4, text=p)
                 for i, (r, p) in new.items()]},
            {"name": "updates only the first item of the mail",
             "actions": [switch("excel"), act("excel", "set_cell", file_path="data/purchasing/price_list.xlsx",
                                              row_idx=new[changed[0]][0], column_idx=4, text=new[changed[0]][1])]},
            {"name": "updates both suppliers' rows of the shared item",
             "actions": [switch("excel")] + [
                 act("excel", "set_cell", file_path="data/purchasing/price_list.xlsx", row_idx=r, column_idx=4, text=p)
                 for r, p in new.values()] + [
                 act("excel", "set_cell", file_path="data/purchasing/price_list.xlsx", row_idx=shared_row_b,
                     column_idx=4, text=new[shared][1])]},
            {"name": "writes the price differences instead of the new prices",
             "actions": [switch("excel")] + [
                 act("excel", "set_cell", file_path="data/purchasing/price_list.xlsx", row_idx=r, column_idx=4,
                     text=round(p - prices[(i, sup_a)][1], 2)) for i, (r, p) in new.items()]},
            {"name": "new prices written in a column beside the old ones",
             "actions": [switch("excel")] + [
                 act("excel", "set_cell", file_path="data/purchasing/price_list.xlsx", row_idx=r, column_idx=5, text=p)
                 for r, p in new.values()]},
        ],
        "right": [
            {"name": "prices typed with two decimals",
             "actions": [switch("excel")] + [
                 act("excel", "set_cell", file_path="data/purchasing/price_list.xlsx", row_idx=r, column_idx=4,
                     text=f"{p:.2f}") for r, p in new.values()]},
            {"name": "each new price as a formula on the old one",
             "actions": [switch("excel")] + [
                 act("excel", "set_cell", file_path="data/purchasing/price_list.xlsx", row_idx=r, column_idx=4,
                     text=f"={prices[(i, sup_a)][1]:.2f}{p - prices[(i, sup_a)][1]:+.2f}") for i, (r, p) in new.items()]},
        ],
    }


@family("roster-names-reply", apps=["email", "excel"])
def roster_names_reply(rng: random.Random) -> dict:
    """Answer a facilities colleague's mail with the names of one team's people at one office, from the roster."""
    org, domain, folks, now = setup(rng, 14)
    me, asker = folks[0], folks[1]
    staff = folks[2:]
    teams = rng.sample(["Finance", "Support", "Marketing", "Engineering", "Sales", "Legal"], 3)
    offices = rng.sample(["Leeds", "Porto", "Gdansk", "Lyon", "Utrecht", "Tampere"], 2)
    team, city = teams[0], offices[0]
    assign = ([(team, city)] * 3 + [(team, offices[1])] * 2 + [(teams[1], city)] * 2
              + [(rng.choice(teams[1:]), rng.choice(offices)) for _ in range(len(staff) - 7)])
    rng.shuffle(assign)
    rows = [["Name", "Team", "Office", "Email"]]
    for p, (t, o) in zip(staff, assign):
        rows.append([p["name"], t, o, p["email"]])
    hits = [r[0] for r in rows[1:] if r[1] == team and r[2] == city]
    other_office = [r[0] for r in rows[1:] if r[1] == team and r[2] != city]
    subject = f"Desk plan for the {city} office"
    ask = (f"Hi {me['first']},\n\nWe're redoing the desk plan in {city}. Could you send me the names of the "
           f"{team} people who are based there?\n\nThanks,\n{asker['first']}")
    reply = lambda names: f"Hi {asker['first']},\n\nHere they are: {', '.join(names)}.\n\nBest,\n{me['first']}"  # noqa: E731
    return {
        **head(me, now),
        "instruction": (f"{asker['name']} asked me by email for some names for the desk plan. Reply to that mail "
                        "with the names; the staff roster is data/hr/roster.xlsx."),
        "office": [
            xlsx("data/hr/roster.xlsx", {"Staff": rows}),
            xlsx("data/hr/leave_2026.xlsx", {"Leave": [
                ["Name", "From", "To"], [staff[0]["name"], iso(now + timedelta(days=9)), iso(now + timedelta(days=13))]]}),
            eml(me["email"], "msg-1", asker["email"], "Fire warden list",
                "Hi, the fire warden list is final now, thanks for your help.\n", days_ago(now, 6, 10, 0), bare=True),
            eml(me["email"], "msg-2", asker["email"], subject, ask, days_ago(now, 0, 8, 20), bare=True),
        ],
        "checks": [check("email_sent", sender=me["email"], to=asker["email"], subject_contains=subject,
                         body_contains=hits, body_excludes=[r[0] for r in rows[1:] if r[0] not in hits])],
        "gold": [
            switch("email"),
            act("email", "read_email", username=me["email"], email_id="msg-2"),
            switch("excel"),
            act("excel", "read_file", file_path="data/hr/roster.xlsx"),
            switch("email"),
            act("email", "reply_email", username=me["email"], email_id="msg-2", content=reply(hits)),
        ],
        "wrong": [
            {"name": "lists the team members of the other office",
             "actions": [switch("email"), act("email", "reply_email", username=me["email"], email_id="msg-2",
                                             content=reply(other_office))]},
            {"name": "leaves one name out",
             "actions": [switch("email"), act("email", "reply_email", username=me["email"], email_id="msg-2",
                                             content=reply(hits[:-1]))]},
            {"name": "lists the whole team, both offices",
             "actions": [switch("email"), act("email", "reply_email", username=me["email"], email_id="msg-2",
                                             content=reply(hits + other_office))]},
            {"name": "lists everyone based in that office",
             "actions": [switch("email"), act("email", "reply_email", username=me["email"], email_id="msg-2",
                                             content=reply([r[0] for r in rows[1:] if r[2] == city]))]},
            {"name": "replies to the older fire warden mail",
             "actions": [switch("email"), act("email", "reply_email", username=me["email"], email_id="msg-1",
                                             content=reply(hits))]},
        ],
        "right": [
            {"name": "one name a line, in another order",
             "actions": [switch("email"), act("email", "reply_email", username=me["email"], email_id="msg-2",
                                             content=f"Sure - the {team} people in {city}:\n"
                                                     + "\n".join(f"* {n}" for n in reversed(hits)))]},
        ],
    }


@family("timesheet-from-calendar", apps=["calendar", "excel"])
def timesheet_from_calendar(rng: random.Random) -> dict:
    """Fill yesterday's timesheet column with the hours of meetings per project code found in the calendar."""
    org, domain, folks, now = setup(rng, 4, weekdays=(1, 2, 3))  # Tue-Thu: yesterday is a workday
    me = folks[0]
    codes = rng.sample(["ORCA", "KITE", "LARK", "MOSS", "PIKE", "WREN", "BIRCH"], 3)
    y = (now - timedelta(days=1)).date()
    topics = ["design workshop", "client call", "sprint review", "budget check", "kick-off", "risk review",
              "data walkthrough", "planning"]
    rng.shuffle(topics)
    # yesterday: two meetings for codes[0], one for codes[1], none for codes[2]
    dur0 = [90, 45]
    events = [
        ev(f"[{codes[0]}] {topics[0]}", at(y, 9), at(y, 10, 30)),
        ev(f"[{codes[1]}] {topics[1]}", at(y, 11), at(y, 12)),
        ev("Lunch with the new starters", at(y, 12, 30), at(y, 13, 30)),
        ev(f"[{codes[0]}] {topics[2]}", at(y, 14), at(y, 14, 45)),
        ev(f"[{codes[2]}] {topics[3]}", at(now.date(), 10), at(now.date(), 11)),  # today: not yet
        ev(f"[{codes[1]}] {topics[4]}", at(now.date() - timedelta(days=2 if now.weekday() > 1 else 4), 16),
           at(now.date() - timedelta(days=2 if now.weekday() > 1 else 4), 17)),
    ]
    hours = {codes[0]: sum(dur0) / 60, codes[1]: 1, codes[2]: 0}
    weekday_cols = ["Mon", "Tue", "Wed", "Thu", "Fri"]
    col = y.weekday() + 2
    rows = [["Project"] + weekday_cols]
    for c in codes:
        rows.append([c] + [rng.choice([0, 0.5, 1, 1.5, 2]) if d < y.weekday() else None for d in range(5)])
    monday = y - timedelta(days=y.weekday())
    path = f"data/timesheets/week_{iso(monday)}.xlsx"
    gold_cells = [act("excel", "set_cell", file_path=path, row_idx=i + 2, column_idx=col, text=hours[c])
                  for i, c in enumerate(codes)]
    letter = col_letter(col)
    return {
        **head(me, now),
        "instruction": (f"Please fill in yesterday's column of my timesheet {path}: for each project, the hours I "
                        "spent in meetings for it yesterday according to my calendar (the project code is in "
                        "brackets in the meeting title). Put 0 for a project with no meetings."),
        "office": [
            xlsx(path, {"Hours": rows}),
            ics(me["email"], events),
        ],
        "checks": [check("xlsx_cell", file=path, cell=f"{letter}{i + 2}", value=hours[c]) for i, c in enumerate(codes)],
        "gold": [
            switch("calendar"),
            act("calendar", "list_events", username=me["email"]),
            switch("excel"),
            act("excel", "read_file", file_path=path),
        ] + gold_cells,
        "wrong": [
            {"name": "counts only one meeting per project",
             "actions": [switch("excel")] + [
                 act("excel", "set_cell", file_path=path, row_idx=i + 2, column_idx=col,
                     text={codes[0]: dur0[0] / 60, codes[1]: 1, codes[2]: 0}[c]) for i, c in enumerate(codes)]},
            {"name": "fills today's column instead",
             "actions": [switch("excel")] + [
                 act("excel", "set_cell", file_path=path, row_idx=i + 2, column_idx=col + 1, text=hours[c])
                 for i, c in enumerate(codes)]},
            {"name": "minutes instead of hours",
             "actions": [switch("excel")] + [
                 act("excel", "set_cell", file_path=path, row_idx=i + 2, column_idx=col, text=round(hours[c] * 60))
                 for i, c in enumerate(codes)]},
            {"name": "leaves the project without meetings empty",
             "actions": [switch("excel")] + gold_cells[:2]},
            {"name": "counts the lunch for the first project",
             "actions": [switch("excel")] + [
                 act("excel", "set_cell", file_path=path, row_idx=i + 2, column_idx=col,
                     text=hours[c] + (1 if i == 0 else 0)) for i, c in enumerate(codes)]},
        ],
        "right": [
            {"name": "hours as formulas of minutes",
             "actions": [switch("excel")] + [
                 act("excel", "set_cell", file_path=path, row_idx=i + 2, column_idx=col,
                     text=f"=({'+'.join(str(m) for m in dur0)})/60" if c == codes[0] else hours[c])
                 for i, c in enumerate(codes)]},
        ],
    }


@family("oncall-shifts-to-calendar", apps=["excel", "calendar"])
def oncall_shifts_to_calendar(rng: random.Random) -> dict:
    """Copy the user's own on-call shifts for next week from the rota workbook into the calendar."""
    org, domain, folks, now = setup(rng, 4)
    me = folks[0]
    monday = now.date() + timedelta(days=7 - now.weekday())
    shifts = [("07:00", "15:00"), ("15:00", "23:00")]
    rows = [["Date", "Day", "Shift start", "Shift end", "Engineer"]]
    mine, every = [], []
    my_days = set(rng.sample(range(5), 2))
    for d in range(5):
        day = monday + timedelta(days=d)
        for s, (a, b) in enumerate(shifts):
            if d in my_days and s == (d % 2):
                who = me
            else:
                who = rng.choice(folks[1:])
            rows.append([iso(day), day.strftime("%A"), a, b, who["name"]])
            every.append((day, a, b))
            if who is me:
                mine.append((day, a, b, len(rows)))
    def at_hhmm(day, hhmm):  # noqa: E306
        return at(day, int(hhmm[:2]), int(hhmm[3:]))
    existing = [ev("Team retro", at(monday, 10), at(monday, 11)),
                ev("Dentist", at(monday + timedelta(days=3), 8), at(monday + timedelta(days=3), 9))]
    # the colleague's shift on the same day as my first one (the plausible slip)
    first_day = mine[0][0]
    nb_a, nb_b = shifts[1 - shifts.index((mine[0][1], mine[0][2]))]
    create = lambda day, a, b: act("calendar", "create_event", user=me["email"], summary="On-call",  # noqa: E731
                                   time_start=fmt(at_hhmm(day, a)), time_end=fmt(at_hhmm(day, b)))
    return {
        **head(me, now),
        "instruction": ("The on-call rota for next week is in data/ops/oncall_rota.xlsx. Add each of my shifts to "
                        "my calendar as an event called 'On-call' with the shift's start and end times."),
        "office": [
            xlsx("data/ops/oncall_rota.xlsx", {"Rota": rows}),
            xlsx("data/ops/oncall_rota_previous.xlsx", {"Rota": [
                rows[0], [iso(monday - timedelta(days=7)), "Monday", "07:00", "15:00", me["name"]]]}),
            ics(me["email"], existing),
        ],
        "checks": [check("ics_event", user=me["email"], summary="On-call", start=fmt(at_hhmm(d, a)), end=fmt(at_hhmm(d, b)))
                   for d, a, b, _ in mine] + [check("ics_event_count", user=me["email"], count=len(existing) + len(mine))],
        "gold": [switch("excel"), act("excel", "read_file", file_path="data/ops/oncall_rota.xlsx"), switch("calendar")]
                + [create(d, a, b) for d, a, b, _ in mine],
        "wrong": [
            {"name": "takes a colleague's neighbouring shift instead of one of mine",
             "actions": [switch("calendar"), create(first_day, nb_a, nb_b)]
                        + [create(d, a, b) for d, a, b, _ in mine[1:]]},
            {"name": "only the first shift",
             "actions": [switch("calendar"), create(*mine[0][:3])]},
            {"name": "every shift of the rota",
             "actions": [switch("calendar")] + [create(d, a, b) for d, a, b in every]},
            {"name": "the shifts from last week's rota file",
             "actions": [switch("calendar"), create(monday - timedelta(days=7), "07:00", "15:00")]},
            {"name": "each shift added twice",
             "actions": [switch("calendar")] + [create(d, a, b) for d, a, b, _ in mine + mine]},
            {"name": "the early shift's hours for every one of my shifts",
             "actions": [switch("calendar")] + [create(d, "07:00", "15:00") for d, a, b, _ in mine]
                        if any(a != "07:00" for _d, a, _b, _r in mine) else
                        [switch("calendar")] + [create(d, "15:00", "23:00") for d, a, b, _ in mine]},
        ],
        "right": [
            {"name": "title in lower case, with a description, last shift first",
             "actions": [switch("calendar")] + [
                 act("calendar", "create_event", user=me["email"], summary="on-call", time_start=fmt(at_hhmm(d, a)),
                     time_end=fmt(at_hhmm(d, b)), description="From the on-call rota") for d, a, b, _ in reversed(mine)]},
        ],
    }


@family("payment-already-recorded", apps=["email", "excel"])
def payment_already_recorded(rng: random.Random) -> dict:
    """A client mails that they paid an invoice; the receivables sheet already shows it paid, so nothing changes."""
    org, domain, (me,), now = setup(rng, 1)
    (client, cdom), (c2, _), (c3, _) = other_companies(rng, domain, 3)
    payer = people(rng, 1, cdom)[0]
    base = rng.randrange(3000, 3800)
    paid_on = now.date() - timedelta(days=rng.randrange(3, 7))
    rows = [["Invoice", "Client", "Amount", "Status", "Paid on"]]
    plan = [(client, "Paid", iso(paid_on)), (c2, "Open", None), (client, "Open", None), (c3, "Paid",
            iso(paid_on - timedelta(days=6))), (c2, "Open", None)]
    rng.shuffle(plan)
    amounts = {}
    for k, (c, st, d) in enumerate(plan):
        amt = rng.randrange(600, 8000, 10)
        rows.append([f"INV-{base + k}", c, amt, st, d])
        amounts[k] = amt
    k_paid = next(k for k, p in enumerate(plan) if p[0] == client and p[1] == "Paid")
    k_open = next(k for k, p in enumerate(plan) if p[0] == client and p[1] == "Open")
    inv = f"INV-{base + k_paid}"
    body = (f"Hello,\n\nJust to let you know we paid invoice {inv} ({amounts[k_paid]}) by bank transfer on "
            f"{weekday_day_month(paid_on)}. Please update your records.\n\nRegards,\n{payer['name']}\n{client}")
    path = "data/finance/receivables.xlsx"
    mail_day = (now - timedelta(days=1)).date()  # the day the client's mail came
    return {
        **head(me, now),
        "instruction": (f"{client} emailed about a payment. If our receivables sheet ({path}) doesn't show it yet, "
                        "mark that invoice as Paid with the payment date in 'Paid on' (YYYY-MM-DD)."),
        "office": [
            xlsx(path, {"Receivables": rows}),
            eml(me["email"], "msg-1", payer["email"], f"Payment of {inv}", body, days_ago(now, 1, 14, 20), bare=True),
        ],
        "no_action": True,
        "checks": [
            check("xlsx_cell", file=path, cell=f"D{k_paid + 2}", value="Paid"),
            check("xlsx_cell", file=path, cell=f"E{k_paid + 2}", value=iso(paid_on)),
            check("xlsx_cell", file=path, cell=f"D{k_open + 2}", value="Open"),
            check("xlsx_cell", file=path, cell="A7", value=None),
        ],
        "gold": [
            switch("email"),
            act("email", "read_email", username=me["email"], email_id="msg-1"),
            switch("excel"),
            act("excel", "read_file", file_path=path),
        ],
        "wrong": [
            {"name": "marks the client's other, still open invoice as paid",
             "actions": [switch("excel"),
                         act("excel", "set_cell", file_path=path, row_idx=k_open + 2, column_idx=4, text="Paid"),
                         act("excel", "set_cell", file_path=path, row_idx=k_open + 2, column_idx=5, text=iso(paid_on))]},
            {"name": "records the payment again as a new row",
             "actions": [switch("excel")] + [
                 act("excel", "set_cell", file_path=path, row_idx=7, column_idx=c, text=v)
                 for c, v in enumerate([inv, client, amounts[k_paid], "Paid", iso(paid_on)], start=1)]},
            {"name": "overwrites the payment date with the day the mail came",
             "actions": [switch("excel"), act("excel", "set_cell", file_path=path, row_idx=k_paid + 2, column_idx=5,
                                              text=iso(mail_day))]},
            {"name": "replies to the client that the payment is recorded",
             "actions": [switch("email"), act("email", "reply_email", username=me["email"], email_id="msg-1",
                                              content="Thank you, the payment is recorded on our side.")]},
            {"name": "records it again with today's date",
             "actions": [switch("excel"), act("excel", "set_cell", file_path=path, row_idx=k_paid + 2, column_idx=5,
                                              text=iso(now))]},
            {"name": "a note added beside the paid invoice",
             "actions": [switch("excel"), act("excel", "set_cell", file_path=path, row_idx=k_paid + 2, column_idx=6,
                                              text="Confirmed by mail")]},
            {"name": "the paid invoice's row deleted",
             "actions": [switch("excel"), act("excel", "delete_row", file_path=path, row_idx=k_paid + 2)]},
            {"name": "another client's open invoice marked as paid",
             "actions": [switch("excel"),
                         act("excel", "set_cell", file_path=path,
                             row_idx=next(k for k, p in enumerate(plan) if p[0] != client and p[1] == "Open") + 2,
                             column_idx=4, text="Paid")]},
        ],
        "right": [
            {"name": "re-enters the status and the date that are already there",
             "actions": [switch("excel"),
                         act("excel", "set_cell", file_path=path, row_idx=k_paid + 2, column_idx=4, text="Paid"),
                         act("excel", "set_cell", file_path=path, row_idx=k_paid + 2, column_idx=5, text=iso(paid_on))]},
        ],
    }
