"""Hard scenarios of purchasing: supplier reviews, invoices against orders, orders to chase."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from officesim.tasks.hard_scenarios._base import (act, check, iso, long_date, money, quarter_of, quarter_start, read_doc,
                                                  read_mail, read_sheet, scenario, send, set_cell, switch,
                                                  trigger_mail, earlier)
from officesim.testbed.worlds.model import World


def _late_window(w: World) -> tuple[date, date, str]:
    """This quarter, or the quarter just ended when this one is under four weeks old."""
    start = quarter_start(w.now.date())
    if (w.now.date() - start).days < 28:
        end = start - timedelta(days=1)
        start = quarter_start(end)
        return start, end, f"Q{quarter_of(start)}"
    return start, w.now.date(), f"Q{quarter_of(start)}"


@scenario("supplier-late-review", ["excel", "word", "email"])
def supplier_late_review(w: World) -> dict:
    """Put every supplier late twice or more in a quarter on review, as the purchasing policy says:
    a row each in the review log and a letter to each account manager listing the late orders."""
    start, end, q = _late_window(w)
    late: dict[str, list] = {}
    for po in w.pos:
        if po.delivered and start <= po.delivered <= end and po.days_late > 0:
            late.setdefault(po.supplier, []).append(po)
    flagged = sorted(s for s, pos in late.items() if len(pos) >= 2)
    head = w.head_of("Purchasing")
    log = w.paths["review_log"]
    when = "this quarter" if end == w.now.date() else f"last quarter ({q})"
    instruction = (f"Please run the supplier review for {when} the way our purchasing policy describes it: "
                   f"every supplier with at least two late deliveries that arrived in that quarter (going by the delivery date) goes on review. Log each one in the supplier "
                   f"review log below the earlier entries, in alphabetical order (today's date, the supplier, the "
                   f"reason with the number of late deliveries, my name) and write to its account manager "
                   f"listing the late orders with the promised and the actual delivery dates, copying {head.first} "
                   f"({head.role}). If nobody qualifies, don't log or send anything, just tell me.")
    notices = [m for m in w.mails if m.kind == "delay" and any(m.about == p.po for f in flagged for p in late[f])]
    gold = [switch("word"), read_doc(w.paths["purchasing_policy"]), switch("excel"), read_sheet(w.paths["pos"]),
            read_sheet(w.paths["suppliers"]), read_sheet(log)]
    if notices:  # the suppliers' own delay notices, read to confirm the dates (the sheet alone is enough)
        gold += [switch("email")] + [read_mail(w, m.id) for m in notices] + [switch("excel")]
    checks = []
    mails = []
    row = 4  # the log holds a header and two earlier reviews
    for s in flagged:
        sup = w.supplier(s)
        pos = sorted(late[s], key=lambda p: p.promised)
        reason = f"{len(pos)} late deliveries in {q}"
        for col, value in enumerate([iso(w.now), s, reason, w.user.name], start=1):
            gold.append(set_cell(log, row, col, value))
        checks += [check("xlsx_cell", f"logged {s}", file=log, cell=f"A{row}", value=iso(w.now)),
                   check("xlsx_cell", file=log, cell=f"B{row}", value=s),
                   check("xlsx_cell", file=log, cell=f"D{row}", value=w.user.name),
                   check("contains", file=log, text=[s], lines=[[s, len(pos)]])]
        lines = [f"- {p.po} ({p.item}): promised {long_date(p.promised)}, delivered {long_date(p.delivered)}"
                 for p in pos]
        body = (f"Dear {sup.contact.split()[0]},\n\nUnder our purchasing policy {s} is now on supplier review: "
                f"these deliveries in {q} arrived late:\n" + "\n".join(lines)
                + f"\n\nPlease let us know what you will change.\n\nKind regards,\n{w.user.name}\n{w.company}")
        mails.append(send(w, [sup.email], f"Supplier review: late deliveries in {q}", body, cc=[head.email]))
        checks.append(check("email_sent", f"wrote to {s}", sender=w.user.email, to=[sup.email], cc=[head.email],
                            body_contains=[x for p in pos for x in (p.po, iso(p.promised), iso(p.delivered))],
                            lines=[[p.po, iso(p.promised), iso(p.delivered)] for p in pos]))
        row += 1
    checks += [check("xlsx_row", file=log, row=2, values=["2026-03-30", w.suppliers[3].name,
                                                          "Two late deliveries in Q1", head.name]),
               check("xlsx_row", file=log, row=3, values=["2026-07-02", w.suppliers[7].name,
                                                          "Invoice above order, queried", head.name])]
    answer = None
    if flagged:
        gold += [switch("email")] + mails
    else:
        answer = f"No supplier delivered late twice or more in {q}."
        checks.append(check("answer_contains", "told nobody qualifies", text=[["none", "nobody", "no supplier", "not any"]]))
    task = {"instruction": instruction, "gold": gold, "checks": checks,
            "free": [log] if flagged else []}
    if answer:
        task["answer"] = answer
    return task


@scenario("delivery-notices-record", ["email", "excel"])
def delivery_notices_record(w: World) -> dict:
    """The order sheet has fallen behind: record every delivery a supplier confirmed by mail in the last
    30 days (the day of the notice, status Delivered); orders with no notice stay open."""
    name = {p.email: p.name for p in w.people}
    since = w.now.date() - timedelta(days=30)
    behind = [po for po in w.pos if po.delivered and since <= po.delivered < w.now.date()]
    notices = {m.about: m for m in w.mails if m.kind == "dispatch" and m.folder == "inbox"}
    confirmed = sorted([po for po in behind if po.po in notices], key=lambda p: p.row)
    sheet = w.paths["pos"]
    rows = [["PO", "Supplier", "Requested by", "Ordered", "Item", "Amount", "Promised", "Delivered", "Status"]]
    for po in w.pos:
        late = po in behind
        rows.append([po.po, po.supplier, name[po.requester], po.ordered.isoformat(), po.item, po.amount,
                     po.promised.isoformat(), None if late or not po.delivered else po.delivered.isoformat(),
                     "Open" if late else po.status])
    overlay = [{"type": "xlsx", "path": sheet, "sheets": {"Orders": rows}}]
    instruction = ("Our purchase order sheet has fallen behind on deliveries. Go through the dispatch notices "
                   "suppliers have mailed us in the last 30 days and record each delivery in the sheet: the "
                   "Delivered date is the day of the notice and the Status becomes Delivered. Orders we have no "
                   "notice for stay as they are, even if you suspect they arrived.")
    gold = [switch("email"), act("email", "list_emails", username=w.user.email)]
    gold += [read_mail(w, notices[po.po].id) for po in confirmed]
    gold += [switch("excel"), read_sheet(sheet)]
    checks = []
    for k, po in enumerate(confirmed):
        day = notices[po.po].when.date()
        gold += [set_cell(sheet, po.row, 8, iso(day)), set_cell(sheet, po.row, 9, "Delivered")]
        checks += [check("xlsx_cell", f"recorded {po.po}", file=sheet, cell=f"H{po.row}", value=iso(day)),
                   check("xlsx_cell", file=sheet, cell=f"I{po.row}", value="Delivered")]
    unconfirmed = [po for po in behind if po not in confirmed][:3]
    checks += [check("xlsx_cell", file=sheet, cell=f"I{po.row}", value="Open") for po in unconfirmed]
    return {"instruction": instruction, "office": overlay, "gold": gold, "checks": checks}



@scenario("large-order-approvals", ["word", "excel", "email"])
def large_order_approvals(w: World) -> dict:
    """Audit the orders above the policy's approval threshold placed since June against the Head of
    Finance's approval mails (one approval names a small order, one is corrected by a later mail)."""
    import random

    rng = random.Random(f"hard:large-order-approvals:{w.name}")
    fin, buy = w.head_of("Finance"), w.head_of("Purchasing")
    since = date(w.now.year, 6, 1)
    big = sorted([p for p in w.pos if p.amount > 10000 and p.ordered >= since], key=lambda p: p.po)
    unapproved = set(p.po for p in rng.sample(big, 2))
    small = next(p for p in w.pos if p.ordered >= since and p.amount < 2000)
    corrected_from = small
    mails, n = [], 920
    for p in big:
        when = datetime.combine(p.ordered, datetime.min.time()) + timedelta(hours=11, minutes=rng.randrange(60))
        if p.po in unapproved:
            continue
        if p is big[-1] and len(big) > 3:  # approved by mistake under the wrong number, then corrected
            mails.append(trigger_mail(w, fin.email, when, f"Approved: {corrected_from.po}",
                                      f"Approved: {corrected_from.po} ({p.supplier}).\n\n{fin.first}", f"msg-{n}"))
            mails.append(trigger_mail(w, fin.email, when + timedelta(hours=2), f"Correction: approval {p.po}",
                                      f"Sorry, my earlier mail had the wrong number: the order I approved is {p.po} "
                                      f"({p.supplier}), not {corrected_from.po}.\n\n{fin.first}", f"msg-{n + 1}"))
            n += 2
            continue
        mails.append(trigger_mail(w, fin.email, when, f"Approved: {p.po}",
                                  f"Approved: {p.po} ({p.supplier}, {money(p.amount)}).\n\n{fin.first}", f"msg-{n}"))
        n += 1
    for m in mails:
        m["to"] = [w.user.email]
    book = "data/purchasing/large_order_approvals.xlsx"
    rows = [["PO", "Supplier", "Amount", "Ordered", "Approved"]] + [
        [p.po, p.supplier, p.amount, iso(p.ordered), "No" if p.po in unapproved else "Yes"] for p in big]
    missing = [p for p in big if p.po in unapproved]
    instruction = (f"Internal audit wants to know whether our large orders were approved as the purchasing policy "
                   f"requires. For every order placed since {long_date(since)} that needs the Head of Finance's "
                   f"approval under the policy, check {fin.first}'s approval mails. Make a workbook "
                   f"large_order_approvals.xlsx in the purchasing folder with the columns PO, Supplier, Amount, "
                   f"Ordered, Approved (Yes or No), one row per such order in PO order, and mail {fin.first} the "
                   f"orders that have no approval, copying {buy.first}.")
    gold = [switch("word"), read_doc(w.paths["purchasing_policy"]), switch("excel"), read_sheet(w.paths["pos"]),
            switch("email"), act("email", "list_emails", username=w.user.email)]
    gold += [read_mail(w, m["id"]) for m in mails]
    gold += [switch("excel"), act("excel", "create_new_file", file_path=book),
             act("excel", "write_rows", file_path=book, rows=rows), switch("email"),
             send(w, [fin.email], "Large orders without approval",
                  f"Hi {fin.first},\n\nI found no approval from you for these orders over £10,000.00:\n"
                  + "\n".join(f"- {p.po}, {p.supplier}, {money(p.amount)}, ordered {long_date(p.ordered)}" for p in missing)
                  + f"\n\nCould you confirm?\n\nBest,\n{w.user.first}", cc=[buy.email])]
    def audited(orders: list) -> list[dict]:
        """The workbook and the mail of one reading (a cancelled order left out may be named or not)."""
        table = [rows[0]] + [r for r in rows[1:] if any(r[0] == o.po for o in orders)]
        return [check("xlsx_sheet_equals", "audit workbook", file=book, rows=table),
                check("email_sent", "reported the unapproved orders", sender=w.user.email, to=[fin.email],
                      cc=[buy.email], body_contains=[p.po for p in missing if p in orders],
                      body_excludes=[p.po for p in big if p.po not in unapproved] + [corrected_from.po],
                      excludes_unless=["approved", "approval", "signed off"])]

    placed = [p for p in big if p.status != "Cancelled"]
    if len(placed) == len(big):
        checks = audited(big)
    else:  # a cancelled order was placed (the policy applies) yet never went ahead: either reading holds
        checks = [check("any_of", "audited the large orders",
                        readings=[audited(big), audited(placed)])]
    approved = [p.po for p in big if p.po not in unapproved]
    reading = placed if len(placed) < len(big) else big
    right = gold[:-4] + [
        act("excel", "create_new_file", file_path=book),
        act("excel", "write_rows", file_path=book, rows=[rows[0]] + [r for r in rows[1:] if any(r[0] == o.po for o in reading)]),
        switch("email"),
        send(w, [fin.email], "Large orders: approvals missing",
             f"Hi {fin.first},\n\nI could not find your approval for "
             + ", ".join(p.po for p in missing if p in reading) + ".\n"
             + f"The other large orders ({', '.join(approved)}) have your approval.\n\nThanks,\n{w.user.first}",
             cc=[buy.email])]
    task = {"instruction": instruction, "office": mails, "gold": gold, "checks": checks,
            "free": [book] if len(placed) < len(big) else [],  # the readings' checks judge the workbook whole
            "right": [{"name": "cancelled orders left out where there are any; the approved ones named as approved",
                       "actions": right}]}
    return task
