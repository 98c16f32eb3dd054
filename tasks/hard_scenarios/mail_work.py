"""Hard scenarios of mail: answering customers from the records, digests of tickets, corrections."""

from __future__ import annotations

from datetime import datetime, time, timedelta

from officesim.tasks.hard_scenarios._base import (act, check, iso, list_mail, long_date, money, read_doc, read_mail,
                                                  read_sheet, scenario, send, set_cell, switch)
from officesim.testbed.worlds.model import World


@scenario("customer-order-answers", ["email", "excel", "word"])
def customer_order_answers(w: World) -> dict:
    """Answer every customer question about an order of the last three weeks (only holding replies went out)
    with the order's details from the sales sheet, copying its account executive, and log them in a note."""
    since = w.now - timedelta(days=21)
    asks = sorted([m for m in w.mails if m.kind == "customer" and m.when >= since], key=lambda m: (m.when, m.id))
    orders = {s.order: s for s in w.sales}
    sd = w.head_of("Sales")
    note = "data/sales/reports/customer_order_questions.docx"
    instruction = (
        "I've fallen behind with customers: over the last three weeks I only sent holding replies to the customers "
        "who wrote in asking about an order. Please answer every customer email from the last 21 days that asks "
        "about an order: a reply to the customer, copying the order's account executive, giving the order number, "
        "the order date, the product, the quantity and the order total from our sales orders sheet, and saying the "
        "account executive will confirm the shipping date. One email per question. Then write a short note for "
        f"{sd.name} ({sd.role}) as a Word document, customer_order_questions.docx in the sales reports folder: one "
        "line per question with the date it came in, the customer and the order number. Don't send the note, "
        f"{sd.first} will read it there.")
    gold = [switch("email"), list_mail(w), list_mail(w, "sent")] + [read_mail(w, m.id) for m in asks]
    gold += [switch("excel"), read_sheet(w.paths["sales"]), read_sheet(w.paths["customers"]),
             read_sheet(w.paths["directory"]), switch("email")]
    checks = []
    name = {p.email: p.name for p in w.people}
    for m in asks:
        s = orders[m.about]
        cust = w.customer(s.customer)
        body = (f"Dear {cust.contact.split()[0]},\n\nThank you for your patience. Your order {s.order} of "
                f"{long_date(s.day)}: {s.qty} x {s.product}, {money(s.total)} in total. {name[s.rep]}, your account "
                f"executive, will confirm the shipping date.\n\nKind regards,\n{w.user.name}\n{w.company}")
        gold.append(send(w, [m.sender], f"Your order {s.order}", body, cc=[s.rep]))
        checks.append(check("email_sent", f"answered {s.order}", sender=w.user.email, to=[m.sender], cc=[s.rep],
                            body_contains=[s.order, iso(s.day), money(s.total)],
                            lines=[[s.order, iso(s.day)], [str(s.qty), s.product], [money(s.total)]]))
    lines = [f"{m.when:%Y-%m-%d} — {orders[m.about].customer} — {m.about}" for m in asks]
    gold += [switch("word"), act("word", "create_new_file", file_path=note),
             act("word", "write_to_file", file_path=note,
                 contents="Customer questions about orders in the last three weeks\n"
                          + "\n".join(lines))]
    checks.append(check("contains", "note lists every question", file=note, text=[m.about for m in asks],
                        lines=[[m.when.strftime("%Y-%m-%d"), orders[m.about].customer, m.about] for m in asks]))
    older = sorted({m.about for m in w.mails if m.kind == "customer" and m.when < since} - {m.about for m in asks})
    if older:
        checks.append(check("not_contains", "no older question", file=note, text=older))
    checks.append(check("no_repeats", file=note))
    return {"instruction": instruction, "gold": gold, "checks": checks, "free": [note]}


def _ticket(subject: str) -> tuple[str, str]:
    """'[Ticket #5107] VPN slow' -> ('5107', 'VPN slow')"""
    head, _, topic = subject.partition("] ")
    return head.split("#")[1], topic


@scenario("helpdesk-waiting-digest", ["email", "calendar"])
def helpdesk_waiting_digest(w: World) -> dict:
    """Digest the helpdesk tickets since 1 August whose latest status is 'Waiting for you'
    (later status mails supersede earlier ones) for the person covering the helpdesk, whom only the user
    knows (asked), and block time in the calendar to clear them."""
    today = w.now.date()
    since = datetime(2026, 8, 1)  # the helpdesk moved to the new ticket system then
    tickets = sorted([m for m in w.mails if m.kind == "ticket" and m.when >= since], key=lambda m: (m.when, m.id))
    status = {m.id: m.body.split("Status: ")[1].rstrip(".") for m in tickets}
    waiting = [m for m in tickets if status[m.id] == "Waiting for you"]
    opened = [m for m in tickets if status[m.id] == "Opened"]
    # later updates from the helpdesk: two waiting tickets were resolved, one opened ticket now waits for the user
    it = w.team("IT")
    cover = next(p for p in it if p.role == "Support Engineer")
    manager = w.head_of("IT")
    closed = [waiting[1], waiting[-2]]
    reopened = opened[-1]
    updates = []
    office = []
    for k, m in enumerate(closed + [reopened]):
        num, topic = _ticket(m.subject)
        when = min(m.when + timedelta(days=2, hours=1, minutes=17 * (k + 1)), w.now - timedelta(hours=3 + k))
        if m is reopened:
            body = (f"Status update: Waiting for you.\nWe need you to confirm a time for the engineer to visit "
                    f"about '{topic}'.\n\n{it[2].name}, IT helpdesk")
        else:
            body = (f"Status update: Resolved.\nThis ticket is closed, nothing more is needed from you. This "
                    f"replaces the earlier status.\n\n{it[2].name}, IT helpdesk")
        mid = f"msg-{900 + k}"
        office.append({"type": "eml", "user": w.user.email, "folder": "inbox", "id": mid,
                       "from": f"helpdesk@{w.domain}", "to": [w.user.email], "date": when.strftime("%Y-%m-%d %H:%M:%S"),
                       "subject": f"Re: {m.subject}", "body": body, "attachments": []})
        updates.append(mid)
    final = [m for m in waiting if m not in closed] + [reopened]
    final.sort(key=lambda m: int(_ticket(m.subject)[0]))
    others = [m for m in tickets if m not in final]
    instruction = (
        f"IT are chasing me about helpdesk tickets. Please go through the helpdesk's ticket emails since "
        f"{long_date(since.date())} and find every ticket whose latest status is 'Waiting for you' — the helpdesk "
        "sometimes sends a later status update for a ticket, and the latest one counts. Email the list to the person "
        "covering the helpdesk this week (I'll tell you who; it changes every week), one line per ticket with the "
        "ticket number and what it is about, in ticket-number order. Then block an hour in my calendar to deal with "
        "them: 'Clear helpdesk tickets', at the first full hour tomorrow (starting on the hour, between 9:00 and 17:00) that "
        "is free in my calendar.")
    tomorrow = today + timedelta(days=1)
    busy = [(e.start, e.end) for e in w.events]
    slot = None
    for h in range(9, 17):
        s = datetime.combine(tomorrow, time(h, 0))
        if all(not (a < s + timedelta(hours=1) and s < b) for a, b in busy):
            slot = s
            break
    assert slot is not None
    question = "Who is covering the helpdesk this week? Whom should I send the list to?"
    gold = [act("system", "ask_user", question=question), switch("email"), list_mail(w)]
    gold += [read_mail(w, m.id) for m in tickets] + [read_mail(w, mid) for mid in updates]
    lines = [f"#{_ticket(m.subject)[0]} — {_ticket(m.subject)[1]}" for m in final]
    body = (f"Hi {cover.first},\n\nThese helpdesk tickets are waiting for me:\n" + "\n".join(lines)
            + f"\n\nI've set time aside to clear them.\n\nThanks,\n{w.user.first}")
    gold.append(send(w, [cover.email], "Helpdesk tickets waiting for me", body))
    gold += [switch("calendar"), act("calendar", "list_events", username=w.user.email),
             act("calendar", "create_event", user=w.user.email, summary="Clear helpdesk tickets",
                 time_start=slot.strftime("%Y-%m-%d %H:%M:%S"),
                 time_end=(slot + timedelta(hours=1)).strftime("%Y-%m-%d %H:%M:%S"))]
    checks = [
        check("email_sent", "list sent to the cover", sender=w.user.email, to=[cover.email],
              body_contains=[_ticket(m.subject)[0] for m in final],
              body_excludes=[_ticket(m.subject)[0] for m in others],
              lines=[[_ticket(m.subject)[0], _ticket(m.subject)[1]] for m in final]),
        check("email_not_sent", "not to the IT manager", sender=w.user.email, to=[manager.email]),
        check("ics_event", "time blocked", user=w.user.email, summary="Clear helpdesk tickets",
              start=slot.strftime("%Y-%m-%d %H:%M:%S"),
              end=(slot + timedelta(hours=1)).strftime("%Y-%m-%d %H:%M:%S")),
    ]
    replies = [{"when": ["who", "whom", "cover", "covering", "recipient", "send it to", "send the list"],
                "reply": f"{cover.name} ({cover.email}) is covering the helpdesk this week.", "needed": True,
                "guess": {cover.email: manager.email}}]
    return {"instruction": instruction, "office": office, "gold": gold, "checks": checks, "user_replies": replies}


def _weekday_on_or_after(day, weekday: int):
    return day + timedelta(days=(weekday - day.weekday()) % 7)


@scenario("leave-requests-policy", ["email", "excel", "word"])
def leave_requests_policy(w: World) -> dict:
    """Decide the team's new leave requests under the written leave policy (notice period by length, at most
    two of one team on annual leave a day, counting the leave already approved and the requests approved in
    order of arrival), reply to each and record the approved ones in the leave sheet."""
    from officesim.testbed.worlds.model import Leave

    today = w.now.date()
    reports = [p for p in w.people if p.manager == w.user.email]
    team = {p.email for p in w.team(w.user.team)}
    far = _weekday_on_or_after(today + timedelta(days=21), 0)  # a Monday three weeks or more ahead
    near = _weekday_on_or_after(today + timedelta(days=8), 1)  # a Tuesday eight days or more ahead
    plan = [(reports[0], 3, far, far + timedelta(days=2)),
            (reports[1], 2, near, near + timedelta(days=1)),
            (reports[2], 2, near + timedelta(days=1), near + timedelta(days=6)),
            (reports[3], 1, far, far + timedelta(days=2))]
    if len(reports) > 4:
        plan.append((reports[4], 1, far + timedelta(days=1), far + timedelta(days=1)))
    if len(reports) > 5:
        plan.append((reports[5], 0, far + timedelta(days=7), far + timedelta(days=11)))
    office, requests = [], []
    for k, (p, ago, start, end) in enumerate(plan):
        asked = datetime.combine(today - timedelta(days=ago), time(9 + k, 5 + 7 * k))
        if asked >= w.now:
            asked = w.now - timedelta(minutes=40 - 5 * k)
        mid = f"msg-{900 + k}"
        span = f"{start:%A} {long_date(start)}" if start == end else \
            f"{start:%A} {long_date(start)} to {end:%A} {long_date(end)}"
        office.append({"type": "eml", "user": w.user.email, "folder": "inbox", "id": mid, "from": p.email,
                       "to": [w.user.email], "date": asked.strftime("%Y-%m-%d %H:%M:%S"),
                       "subject": "Annual leave request",
                       "body": f"Hi {w.user.first},\n\nCould I take annual leave from {span}? "
                               f"{['Family wedding.', 'Moving house.', 'A long weekend away.', 'School holidays.', 'Visiting my parents.', 'A friend is getting married.'][k]}"
                               f"\n\nThanks,\n{p.first}"})
        requests.append((mid, p, asked, start, end))
    approved: list[Leave] = [l for l in w.leave if l.status == "Approved" and l.kind == "Annual leave" and l.person in team]
    decisions = []
    for mid, p, asked, start, end in sorted(requests, key=lambda r: r[2]):
        days = (end - start).days + 1
        need = 7 if days <= 2 else 14
        reason = None
        if (start - asked.date()).days < need:
            reason = f"less than {'one week' if need == 7 else 'two weeks'}' notice"
        else:
            d = start
            while d <= end and reason is None:
                # people, not rows: someone whose own approved leave covers the day is one of the team
                if len({l.person for l in approved if l.start <= d <= l.end and l.person != p.email}) >= 2:
                    reason = "two of the team are already on annual leave then"
                d += timedelta(days=1)
        if reason is None:
            approved.append(Leave(p.email, start, end, "Annual leave", "Approved"))
        decisions.append((mid, p, asked, start, end, reason))
    sheet = w.paths["leave"]
    instruction = (
        "My team has sent me some leave requests in the last few days. Please decide each one strictly by our leave "
        "policy: the notice rule (counted from the day the request reached me to the first day of leave) and the "
        "limit on how many of one team may be on annual leave on the same day — the whole Operations team counts, "
        "me included; count the leave already marked Approved in the leave sheet (pending or withdrawn leave "
        "doesn't count) and the requests you approve now, taking the requests in the order they arrived. Reply to "
        "each request with 'Approved' or 'Declined' and, for a refusal, the reason. Add each approved request to "
        "the leave sheet as a new row at the bottom (same columns, Type 'Annual leave', Status 'Approved'), in the "
        "order they arrived.")
    gold = [switch("word"), read_doc(w.paths["leave_policy"]), switch("excel"), read_sheet(sheet),
            read_sheet(w.paths["directory"]), switch("email"), list_mail(w)]
    gold += [read_mail(w, r[0]) for r in sorted(requests, key=lambda r: r[2])]
    checks = []
    row = len(w.leave) + 2
    cells = []
    for mid, p, asked, start, end, reason in decisions:
        if reason:
            body = (f"Hi {p.first},\n\nDeclined, I'm afraid: {reason}. Our leave policy doesn't allow it.\n\n"
                    f"Best,\n{w.user.first}")
            checks.append(check("email_sent", f"declined {p.name}", sender=w.user.email, to=[p.email],
                                body_contains=["Declined"]))  # its reason may cite others' approved leave
        else:
            body = f"Hi {p.first},\n\nApproved — enjoy the time off!\n\nBest,\n{w.user.first}"
            checks.append(check("email_sent", f"approved {p.name}", sender=w.user.email, to=[p.email],
                                body_contains=["Approved"], body_excludes=["Declined"]))
            values = [p.name, p.email, iso(start), iso(end), "Annual leave", "Approved"]
            for col, v in enumerate(values, start=1):
                cells.append(set_cell(sheet, row, col, v))
            for col, v in enumerate(values):
                checks.append(check("xlsx_cell", f"recorded {p.name}" if col == 0 else None, file=sheet,
                                    cell=f"{'ABCDEF'[col]}{row}", value=v))
            row += 1
        gold.append(act("email", "reply_email", username=w.user.email, email_id=mid, content=body))
    checks.append(check("xlsx_cell", "no other row", file=sheet, cell=f"A{row}", value=None))
    gold += [switch("excel")] + cells
    return {"instruction": instruction, "office": office, "gold": gold, "checks": checks}
