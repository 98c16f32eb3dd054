"""Three-app families about money: invoices, receipts, purchase orders, timesheets, budgets, billing."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    act, at, check, days_ago, docx, eml, ev, finish, head, ics, image, iso, money_str, num, outsider, pdf, setup, sh,
    switch, text, workday_from, xlsx
)
from officesim.tasks.families.registry import family

VENDOR_WORDS = ["Harbor", "Summit", "Willow", "Beacon", "Falcon", "Juniper", "Meridian", "Redstone", "Lakeside",
                "Aspen", "Cobalt", "Everfield"]
VENDOR_KINDS = ["Office Supply", "Print Works", "Cleaning Co", "IT Services", "Catering", "Furniture",
                "Courier", "Signage"]


def _vendors(rng: random.Random, n: int) -> list[str]:
    words = rng.sample(VENDOR_WORDS, n)
    kinds = rng.sample(VENDOR_KINDS, n)
    return [f"{w} {k}" for w, k in zip(words, kinds)]


# ---------------------------------------------------------------------------------------------
@family("vendor-invoice-log", apps=["ocr", "excel", "email"])
def vendor_invoice_log(rng: random.Random) -> dict:
    """Read a scanned supplier invoice, log it in the invoice register and tell accounts payable."""
    org, domain, (me, ap, other), now = setup(rng, 3)
    vendors = _vendors(rng, 4)
    vendor = vendors[0]
    inv_no = f"INV-{rng.randrange(1000, 9999)}"
    subtotal = rng.randrange(300, 4000, 5)
    vat = round(subtotal * 0.2, 2)
    total = round(subtotal + vat, 2)
    issued = now.date() - timedelta(days=rng.randrange(2, 6))
    due = issued + timedelta(days=30)
    scan = f"data/scans/scan_{rng.randrange(100, 999)}.png"
    reg = "data/finance/invoice_register.xlsx"
    rows = [["Vendor", "Invoice No", "Amount", "Due Date", "Status"]]
    for v in vendors[1:]:
        d = issued - timedelta(days=rng.randrange(5, 40))
        rows.append([v, f"INV-{rng.randrange(1000, 9999)}", rng.randrange(200, 3000, 5) + 0.5, iso(d + timedelta(days=30)),
                     rng.choice(["Open", "Paid"])])
    new = len(rows) + 1
    lines = ["INVOICE", vendor, f"Invoice No: {inv_no}", f"Date: {iso(issued)}",
             f"Subtotal: {money_str(subtotal)}", f"VAT 20%: {money_str(vat)}", f"Total due: {money_str(total)}",
             f"Due date: {iso(due)}"]

    def fill(amount, due_day=due, row=new):
        return [act("excel", "set_cell", file_path=reg, row_idx=row, column_idx=c, text=v)
                for c, v in enumerate([vendor, inv_no, amount, iso(due_day), "Open"], start=1)]

    def note(amount):
        return act("email", "send_email", sender=me["email"], recipient=ap["email"], subject=f"Invoice {inv_no} logged",
                   content=f"Hi {ap['first']},\n\nI logged invoice {inv_no} from {vendor} in the register: "
                           f"{money_str(amount)}.\n\nThanks,\n{me['first']}")

    mail = note(total)
    return {
        **head(me, now),
        "instruction": (f"The scan {scan} is a new invoice from one of our suppliers. Add it to {reg} as a new row "
                        f"under the existing ones (vendor, invoice number, total amount due including VAT, due date "
                        f"as YYYY-MM-DD, status 'Open'), then email {ap['name']} ({ap['email']}) that it is logged, "
                        f"mentioning the invoice number and the amount."),
        "office": [
            image(scan, lines, font_size=30),
            image("data/scans/scan_old.png", ["DELIVERY NOTE", vendors[1], "Boxes: 4", "Signed: warehouse"],
                  font_size=30),
            xlsx(reg, {"Register": rows}),
            eml(me["email"], "msg-1", ap["email"], "Invoices this month",
                f"Hi {me['first']},\n\nPlease keep logging supplier invoices in the register as they arrive "
                f"and drop me a line for each one.\n\n{ap['first']}", days_ago(now, 6, 10)),
            eml(me["email"], "msg-2", other["email"], "Lunch order", "Pizza on Friday?", days_ago(now, 1, 12)),
        ],
        "checks": [
            check("xlsx_cell", file=reg, cell=f"A{new}", value=vendor),
            check("xlsx_cell", file=reg, cell=f"B{new}", value=inv_no),
            check("xlsx_cell", file=reg, cell=f"C{new}", value=total),
            check("xlsx_cell", file=reg, cell=f"D{new}", value=iso(due)),
            check("xlsx_cell", file=reg, cell=f"E{new}", value="Open"),
            check("email_sent", sender=me["email"], to=ap["email"], body_contains=[inv_no, money_str(total)]),
        ],
        "gold": [switch("ocr"), act("ocr", "recognize_file", file_path=scan), switch("excel"),
                 act("excel", "read_file", file_path=reg), *fill(total), switch("email"), mail],
        "wrong": [
            {"name": "logs the subtotal before VAT", "actions": [switch("excel"), *fill(subtotal), switch("email"), mail]},
            {"name": "tells the wrong colleague", "actions": [
                switch("excel"), *fill(total), switch("email"),
                act("email", "send_email", sender=me["email"], recipient=other["email"],
                    subject=f"Invoice {inv_no} logged", content=f"Invoice {inv_no} is logged.")]},
            {"name": "row right, the mail gives the subtotal as the amount", "actions": [
                switch("excel"), *fill(total), switch("email"), note(subtotal)]},
            {"name": "row right, the mail gives no amount", "actions": [
                switch("excel"), *fill(total), switch("email"),
                act("email", "send_email", sender=me["email"], recipient=ap["email"], subject=f"Invoice {inv_no}",
                    content=f"Hi {ap['first']}, invoice {inv_no} from {vendor} is logged.")]},
            {"name": "the invoice date as the due date", "actions": [
                switch("excel"), *fill(total, due_day=issued), switch("email"), mail]},
            {"name": "overwrites the last existing row", "actions": [
                switch("excel"), *fill(total, row=new - 1), switch("email"), mail]},
        ],
        "right": [
            {"name": "the amount as a formula, the mail in other words", "actions": [
                switch("excel"), *fill(f"={money_str(subtotal)}*1.2"), switch("email"),
                act("email", "send_email", sender=me["email"], recipient=ap["email"], subject="New supplier invoice",
                    content=f"{vendor} invoice {inv_no} is in the register now: ${total:,.2f}, due {iso(due)}.")]},
            {"name": "the row inserted at once", "actions": [
                switch("excel"), act("excel", "insert_row", file_path=reg, row_idx=new,
                                     values=[vendor, inv_no, total, iso(due), "Open"]), switch("email"), mail]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("receipt-batch-expenses", apps=["ocr", "excel", "shell"])
def receipt_batch_expenses(rng: random.Random) -> dict:
    """Key a trip's scanned receipts into an expense sheet with a total, then file the scans away."""
    org, domain, (me, _), now = setup(rng, 2)
    city = rng.choice(["Lisbon", "Oslo", "Krakow", "Dublin", "Lyon", "Porto", "Gdansk", "Turin"])
    merchants = [("Taxi", rng.choice(["City Cabs", "Blue Line Taxi", "Metro Cars"])),
                 ("Hotel", rng.choice(["Hotel Aurora", "Riverside Inn", "Park Lane Hotel"])),
                 ("Meal", rng.choice(["Cafe Lume", "Trattoria Sole", "The Brass Fork"]))]
    rng.shuffle(merchants)
    amounts = [round(rng.randrange(1800, 24000) / 100, 2) for _ in merchants]
    names = [f"receipt_{i}.png" for i in range(1, 4)]
    inbox, filed = "data/receipts/inbox", "data/receipts/filed"
    old = [f"{city.lower()}_{n}.png" for n in ("old1", "old2")]
    sheet = f"data/expenses/{city.lower()}_trip.xlsx"
    total = round(sum(amounts), 2)
    trip_day = now.date() - timedelta(days=rng.randrange(3, 8))
    office = [xlsx(sheet, {"Expenses": [["Receipt", "Category", "Merchant", "Amount"]]}),
              xlsx("data/expenses/team_mileage.xlsx", {"Mileage": [["Name", "Km"], [me["name"], rng.randrange(40, 300)]]})]
    for n, (cat, merchant), amt in zip(names, merchants, amounts):
        office.append(image(f"{inbox}/{n}", [merchant.upper(), f"{city}", iso(trip_day), f"TOTAL {money_str(amt)}",
                                             "Thank you"], font_size=30))
    for o in old:
        office.append(image(f"{filed}/{o}", ["OLD RECEIPT", "TOTAL 12.00"], font_size=30))

    def rows(vals, tot, total_row=5, shout=False):
        out = []
        for i, (n, (cat, merchant), amt) in enumerate(zip(names, merchants, vals), start=2):
            out += [act("excel", "set_cell", file_path=sheet, row_idx=i, column_idx=c, text=v)
                    for c, v in enumerate([n, cat, merchant.upper() if shout else merchant, amt], start=1)]
        out += [act("excel", "set_cell", file_path=sheet, row_idx=total_row, column_idx=1, text="Total"),
                act("excel", "set_cell", file_path=sheet, row_idx=total_row, column_idx=4, text=tot)]
        return out

    move = sh(f"mv {inbox}/receipt_*.png {filed}/ && ls {filed}")
    ocr = [act("ocr", "recognize_file", file_path=f"{inbox}/{n}") for n in names]
    return {
        **head(me, now),
        "instruction": (f"I'm back from the {city} trip. The three receipts are scanned in {inbox}/. Fill in {sheet}: "
                        f"one row per receipt in file-name order starting at row 2 (receipt file name, category Taxi/"
                        f"Hotel/Meal, merchant as printed, amount), then row 5 with 'Total' in column A and the sum in "
                        f"column D. Afterwards move the three scans into {filed}/."),
        "office": office,
        "checks": [
            *[check("xlsx_cell", file=sheet, cell=f"D{i}", value=a) for i, a in enumerate(amounts, start=2)],
            *[check("xlsx_cell", file=sheet, cell=f"B{i}", value=m[0]) for i, m in enumerate(merchants, start=2)],
            check("xlsx_cell", file=sheet, cell="A5", value="Total"),
            check("xlsx_cell", file=sheet, cell="D5", value=total),
            check("dir_files", dir=filed, names=sorted(old + names)),
            check("dir_files", dir=inbox, names=[]),
        ],
        "gold": [switch("ocr"), *ocr, switch("excel"), *rows(amounts, total), switch("shell"), move],
        "wrong": [
            {"name": "copies the scans instead of moving them", "actions": [
                switch("excel"), *rows(amounts, total), switch("shell"),
                sh(f"cp {inbox}/receipt_*.png {filed}/")]},
            {"name": "total leaves out the last receipt", "actions": [
                switch("excel"), *rows(amounts, round(total - amounts[-1], 2)), switch("shell"), move]},
            {"name": "amounts rounded to whole units", "actions": [
                switch("excel"), *rows([round(a) for a in amounts], round(sum(round(a) for a in amounts))),
                switch("shell"), move]},
            {"name": "the total one row further down", "actions": [
                switch("excel"), *rows(amounts, total, total_row=6), switch("shell"), move]},
            {"name": "moves the scans one folder up instead of into filed/", "actions": [
                switch("excel"), *rows(amounts, total), switch("shell"), sh(f"mv {inbox}/receipt_*.png data/receipts/")]},
            {"name": "files the scans, the sheet left empty", "actions": [switch("shell"), move]},
        ],
        "right": [
            {"name": "merchants in capitals as printed, the total as a SUM formula", "actions": [
                switch("excel"), *rows(amounts, "=SUM(D2:D4)", shout=True), switch("shell"),
                sh(f"for f in {inbox}/*.png; do mv \"$f\" {filed}/; done")]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("inventory-reorder-po", apps=["excel", "word", "email"])
def inventory_reorder_po(rng: random.Random) -> dict:
    """Find one supplier's items at or below reorder level, draft a purchase order document and mail it."""
    org, domain, (me, colleague), now = setup(rng, 2)
    sup_org, sup_domain, (contact,) = outsider(rng, domain)
    other_sup = rng.choice(["Delta Paper Mills", "Quayside Packaging", "Orbit Hardware"])
    items = rng.sample(["A4 paper box", "Toner black", "Toner cyan", "Stapler", "Sticky notes", "Whiteboard marker",
                        "Envelope C4", "Binder clips", "Label roll", "Desk lamp bulb", "Packing tape", "Notebook A5"], 8)
    rows = [["SKU", "Item", "On hand", "Reorder level", "Reorder qty", "Supplier"]]
    low, high, other_low = [], [], []
    for i, item in enumerate(items):
        sku = f"SKU-{rng.randrange(100, 999)}{i}"
        level = rng.randrange(5, 30)
        qty = rng.randrange(2, 10) * 10
        supplier = sup_org if i < 5 else other_sup
        is_low = i in (0, 2, 4) or i == 5
        on_hand = rng.randrange(0, level + 1) if is_low else level + rng.randrange(1, 20)
        if i == 4:
            on_hand = level  # exactly at the level counts
        rows.append([sku, item, on_hand, level, qty, supplier])
        (low if (is_low and supplier == sup_org) else other_low if is_low else high).append((sku, item, qty))
    body = rows[1:]
    rng.shuffle(body)
    rows = [rows[0]] + body
    po_no = f"PO-{now.year}-{rng.randrange(100, 999)}"
    po = f"data/purchasing/{po_no}.docx"
    stock = "data/inventory/stock.xlsx"
    order = [r for r in body if (r[0], r[1], r[4]) in low]
    # the title line, then one line per item: what the instruction asks for, nothing more
    lines = [f"Purchase order {po_no}"] + [f"{r[0]}, {r[1]}, {r[4]}" for r in order]
    mail = lambda to, files=(po,): act(
        "email", "send_email", sender=me["email"], recipient=to, subject=f"Purchase order {po_no}",
        content=f"Hello {contact['first']},\n\nplease find our purchase order {po_no} attached.\n\n"
                f"Kind regards,\n{me['name']}\n{org}", attachments=list(files))
    bad_lines = lines + [f"{s}, {i}, {q}" for s, i, q in other_low]
    write = lambda ls: act("word", "write_to_file", file_path=po, contents="\n".join(ls))
    return {
        **head(me, now),
        "instruction": (f"Please draft purchase order {po_no} for {sup_org}: check {stock} for every {sup_org} item whose "
                        f"on-hand count is at or below its reorder level. Write {po} with the title line "
                        f"'Purchase order {po_no}', then one line per item to order in the form 'SKU, item, quantity' "
                        f"(order the reorder quantity). Then email it as an attachment to {contact['name']} "
                        f"({contact['email']}) with subject 'Purchase order {po_no}'."),
        "office": [
            xlsx(stock, {"Stock": rows}),
            docx("data/purchasing/PO-template-notes.docx", ["Purchase orders are numbered PO-<year>-<nnn>."]),
            eml(me["email"], "msg-1", colleague["email"], "Stock check", "I counted the store room yesterday, "
                "the sheet is up to date.", days_ago(now, 1, 16)),
        ],
        "checks": [
            check("docx_has_paragraph", file=po, text=f"Purchase order {po_no}", case_sensitive=False),
            *[check("docx_has_paragraph", file=po, text=f"{s}, {i}, {q}", case_sensitive=False) for s, i, q in low],
            check("not_contains", file=po, text=[s for s, _, _ in high + other_low]),
            check("email_sent", sender=me["email"], to=contact["email"], subject_contains=f"Purchase order {po_no}",
                  attachments=[f"{po_no}.docx"]),
        ],
        "gold": [switch("excel"), act("excel", "read_file", file_path=stock), switch("word"), write(lines),
                 switch("email"), mail(contact["email"])],
        "wrong": [
            {"name": "also orders the other supplier's low items", "actions": [
                switch("word"), write(bad_lines), switch("email"), mail(contact["email"])]},
            {"name": "misses the item sitting exactly at its level", "actions": [
                switch("word"), write(
                    l for l in lines if not l.startswith(next(r[0] for r in body if r[2] == r[3] and r[5] == sup_org))),
                switch("email"), mail(contact["email"])]},
            {"name": "orders the on-hand counts instead of the reorder quantities", "actions": [
                switch("word"), write(lines[:1] + [f"{r[0]}, {r[1]}, {r[2]}" for r in order]), switch("email"),
                mail(contact["email"])]},
            {"name": "orders every item of the supplier", "actions": [
                switch("word"), write(lines[:1] + [f"{r[0]}, {r[1]}, {r[4]}" for r in body if r[5] == sup_org]),
                switch("email"), mail(contact["email"])]},
            {"name": "attaches the stock sheet instead of the purchase order", "actions": [
                switch("word"), write(lines), switch("email"), mail(contact["email"], files=(stock,))]},
            {"name": "sends the purchase order to my colleague", "actions": [
                switch("word"), write(lines), switch("email"), mail(colleague["email"])]},
        ],
        "right": [
            {"name": "the items in another order, as a bulleted list, a longer subject", "actions": [
                switch("word"), write(lines[:1] + [f"- {l}" for l in reversed(lines[1:])]), switch("email"),
                act("email", "send_email", sender=me["email"], recipient=contact["email"],
                    subject=f"Purchase order {po_no} from {org}", content="Our order is attached.", attachments=[po])]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("timesheet-hours-tally", apps=["shell", "excel", "email"])
def timesheet_hours_tally(rng: random.Random) -> dict:
    """Add up last week's timesheet CSVs per person, fill the payroll sheet and send payroll the total."""
    org, domain, (me, *staff), now = setup(rng, 6)
    payroll, team = staff[0], staff[1:]
    week = (now - timedelta(days=7)).isocalendar()[1]
    monday = now.date() - timedelta(days=now.weekday() + 7)
    pweek = (now - timedelta(days=14)).isocalendar()[1]
    folder, prev = f"data/timesheets/week_{week:02d}", f"data/timesheets/week_{pweek:02d}"
    sheet = f"data/payroll/hours_week_{week:02d}.xlsx"
    office, hours, prev_hours = [], [], []
    projects = ["Atlas", "Beacon", "Admin", "Support", "Cobalt"]
    for p in team:
        slug = p["name"].lower().replace(" ", "_")
        lines, tot = ["date,project,hours"], 0.0
        for d in range(5):
            h = rng.choice([6, 7, 7.5, 8, 8, 8.5, 9])
            tot += h
            lines.append(f"{iso(monday + timedelta(days=d))},{rng.choice(projects)},{h}")
        hours.append(num(tot))
        office.append(text(f"{folder}/{slug}.csv", "\n".join(lines) + "\n"))
        old = [rng.choice([7, 8]) for _ in range(5)]
        prev_hours.append(sum(old))
        office.append(text(f"{prev}/{slug}.csv", "date,project,hours\n" + "\n".join(
            f"{iso(monday - timedelta(days=7 - d))},Admin,{h}" for d, h in enumerate(old)) + "\n"))
    total = num(sum(hours))
    office.append(xlsx(sheet, {"Hours": [["Name", "File", "Hours"]] +
                               [[p["name"], p["name"].lower().replace(" ", "_") + ".csv", None] for p in team]}))
    office.append(eml(me["email"], "msg-1", payroll["email"], f"Hours for week {week}",
                      f"Hi {me['first']}, could you send me the total hours of your team for week {week} once the "
                      f"sheet is filled? Thanks, {payroll['first']}", days_ago(now, 0, 8, 10)))
    cmd = f"cd {folder} && for f in *.csv; do echo \"$f $(awk -F, 'NR>1 {{s+=$3}} END {{print s}}' \"$f\")\"; done"

    def fill(vals, col=3):
        return [act("excel", "set_cell", file_path=sheet, row_idx=i, column_idx=col, text=v)
                for i, v in enumerate(vals, start=2)]

    mail = lambda tot: act("email", "reply_email", username=me["email"], email_id="msg-1",
                           content=f"Hi {payroll['first']},\n\nthe sheet is filled; the team worked {tot} hours "
                                   f"last week.\n\n{me['first']}")
    # totals a wrong reply would give: the week before's, or one person short
    other_totals = [t for t in dict.fromkeys([num(sum(prev_hours)), num(total - hours[-1])])
                    if t != total and t not in hours]
    return {
        **head(me, now),
        "instruction": (f"{payroll['name']} from payroll asked for last week's hours (week {week}). The timesheets are "
                        f"CSV files in {folder}/, one per person (hours in the third column). Put each person's weekly "
                        f"total in column C of {sheet}, then reply to {payroll['first']}'s email with the team's total "
                        f"hours."),
        "office": office,
        "checks": [*[check("xlsx_cell", file=sheet, cell=f"C{i}", value=h) for i, h in enumerate(hours, start=2)],
                   check("email_sent", sender=me["email"], to=payroll["email"], body_contains=[str(total)],
                         body_excludes=[str(t) for t in other_totals])],
        "gold": [switch("shell"), sh(cmd), switch("excel"),
                 act("excel", "read_file", file_path=sheet), *fill(hours), switch("email"),
                 act("email", "read_email", username=me["email"], email_id="msg-1"), mail(total)],
        "wrong": [
            {"name": "uses the week before", "actions": [switch("excel"), *fill(prev_hours), switch("email"),
                                                         mail(sum(prev_hours))]},
            {"name": "hours right, total reported wrong", "actions": [
                switch("excel"), *fill(hours), switch("email"), mail(num(total - hours[-1]))]},
            {"name": "hours right, the reply gives the week before's total", "actions": [
                switch("excel"), *fill(hours), switch("email"), mail(num(sum(prev_hours)))]},
            {"name": "the reply hedges between this week's and last week's total", "actions": [
                switch("excel"), *fill(hours), switch("email"), mail(f"{total} (or {num(sum(prev_hours))})")]},
            {"name": "the hours in column B", "actions": [switch("excel"), *fill(hours, col=2), switch("email"),
                                                         mail(total)]},
            {"name": "the total mailed to the whole team", "actions": [
                switch("excel"), *fill(hours), switch("email"),
                act("email", "send_email", sender=me["email"], recipient=[p["email"] for p in staff],
                    subject=f"Hours week {week}", content=f"Team total for week {week}: {total} hours.")]},
        ],
        "right": [
            {"name": "a new mail instead of a reply, the total with a decimal", "actions": [
                switch("excel"), *fill(hours), switch("email"),
                act("email", "send_email", sender=me["email"], recipient=payroll["email"], subject=f"Week {week} hours",
                    content=f"{payroll['first']}, week {week}: {float(total):.1f} hours for the team in total "
                            f"(per person in {sheet}).")]},
        ],
    }


# ---------------------------------------------------------------------------------------------
def _quarter(d) -> tuple[int, int]:
    return d.year, (d.month - 1) // 3 + 1


@family("budget-variance-memo", apps=["pdf", "excel", "word"])
def budget_variance_memo(rng: random.Random) -> dict:
    """Copy a quarter's actual spend from a PDF export into the budget sheet, compute variances, note overruns."""
    org, domain, (me, _), now = setup(rng, 2)
    year, q = _quarter(now.date())
    pq = q - 1 if q > 1 else 4
    pyear = year if q > 1 else year - 1
    dept = rng.choice(["Operations", "Marketing", "Customer Care", "Facilities", "People"])
    lines = rng.sample(["Travel", "Software", "Contractors", "Events", "Training", "Hardware", "Printing",
                        "Subscriptions", "Catering"], 6)
    budget = [rng.randrange(20, 150) * 100 for _ in lines]
    over = set(rng.sample(range(6), rng.choice([2, 3])))
    actual = [b + rng.randrange(1, 30) * 10 if i in over else b - rng.randrange(0, 40) * 10 for i, b in enumerate(budget)]
    var = [a - b for a, b in zip(actual, budget)]
    tag = f"q{pq}_{pyear}"
    rep = f"data/finance/actuals_{tag}.pdf"
    old = f"data/finance/actuals_q{pq - 1 if pq > 1 else 4}_{pyear if pq > 1 else pyear - 1}.pdf"
    sheet = f"data/finance/{dept.lower().replace(' ', '_')}_budget_{tag}.xlsx"
    memo = f"data/finance/{dept.lower().replace(' ', '_')}_review_{tag}.docx"
    pdf_text = (f"Actual spend - {dept} - Q{pq} {pyear}\n" + "\n".join(f"{l}: {a}" for l, a in zip(lines, actual))
                + f"\nTotal: {sum(actual)}")
    old_text = f"Actual spend - {dept}\n" + "\n".join(f"{l}: {b + 50}" for l, b in zip(lines, budget))
    rows = [["Line", "Budget", "Actual", "Variance"]] + [[l, b, None, None] for l, b in zip(lines, budget)]
    note = [f"{lines[i]}: over budget by {var[i]}" for i in range(6) if i in over]

    def fill(acts, vs):
        out = []
        for i, (a, v) in enumerate(zip(acts, vs), start=2):
            out += [act("excel", "set_cell", file_path=sheet, row_idx=i, column_idx=3, text=a),
                    act("excel", "set_cell", file_path=sheet, row_idx=i, column_idx=4, text=v)]
        return out

    write = lambda ls: act("word", "write_to_file", file_path=memo, contents="\n".join(ls))
    return {
        **head(me, now),
        "instruction": (f"Finance exported last quarter's actual spend for {dept} as {rep}. In {sheet}, fill column C "
                        f"(Actual) from that export and column D (Variance = Actual minus Budget) for every line. Then "
                        f"add to the end of {memo} one line per line item that went over budget, in the form "
                        f"'<line>: over budget by <variance>'."),
        "office": [pdf(rep, [pdf_text]), pdf(old, [old_text]), xlsx(sheet, {"Budget": rows}),
                   docx(memo, [{"text": f"{dept} - Q{pq} {pyear} review", "style": "Heading 1"},
                               "Notes for the budget meeting."])],
        "checks": [check("column_values", file=sheet, column="C", values=actual),
                   check("column_values", file=sheet, column="D", values=var),
                   check("contains", file=memo, text=note),
                   check("not_contains", file=memo, text=[f"{lines[i]}: over" for i in range(6) if i not in over])],
        "gold": [switch("pdf"), act("pdf", "read_file", pdf_file_path=rep), switch("excel"),
                 act("excel", "read_file", file_path=sheet), *fill(actual, var), switch("word"), write(note)],
        "wrong": [
            {"name": "variance as budget minus actual", "actions": [
                switch("excel"), *fill(actual, [-v for v in var]), switch("word"),
                write([f"{lines[i]}: over budget by {-var[i]}" for i in range(6) if i in over])]},
            {"name": "lists every line, not only overruns", "actions": [
                switch("excel"), *fill(actual, var), switch("word"),
                write([f"{l}: over budget by {v}" for l, v in zip(lines, var)])]},
            {"name": "copies the older quarter's export", "actions": [
                switch("excel"), *fill([b + 50 for b in budget], [50] * 6), switch("word"),
                write([f"{l}: over budget by 50" for l in lines])]},
            {"name": "the memo gives the actual spend instead of the variance", "actions": [
                switch("excel"), *fill(actual, var), switch("word"),
                write([f"{lines[i]}: over budget by {actual[i]}" for i in range(6) if i in over])]},
            {"name": "sheet right, memo not written", "actions": [switch("excel"), *fill(actual, var)]},
        ],
        "right": [
            {"name": "variances as formulas, the memo lines as a bulleted list in reverse order", "actions": [
                switch("excel"), *fill(actual, [f"=C{i}-B{i}" for i in range(2, 8)]), switch("word"),
                write([f"- {n}" for n in reversed(note)])]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("price-list-sync", apps=["pdf", "excel", "email"])
def price_list_sync(rng: random.Random) -> dict:
    """Apply a supplier's new price list (PDF attached to a mail) to the product catalogue and tell sales."""
    org, domain, (me, sales, other), now = setup(rng, 3)
    sup_org, sup_domain, (rep,) = outsider(rng, domain)
    names = rng.sample(["Oak desk", "Mesh chair", "Monitor arm", "Filing cabinet", "Desk lamp", "Footrest",
                        "Whiteboard 120", "Coat stand", "Bookshelf", "Meeting table"], 7)
    codes = [f"{rng.choice('ABCDEFGH')}{rng.randrange(100, 999)}-{i}" for i in range(7)]
    cost = [rng.randrange(30, 400) for _ in names]
    mine = list(range(4))
    changed = set(rng.sample(mine, 2))
    new_cost = [c + rng.randrange(2, 25) if i in changed else c for i, c in enumerate(cost)]
    others = rng.sample(["Nordic Interiors", "Brightline Furnishing"], 2)
    suppliers = [sup_org] * 4 + [others[0], others[1], others[0]]
    order = list(range(7))
    rng.shuffle(order)
    cat = "data/sales/catalogue.xlsx"
    rows = [["Code", "Product", "Supplier", "Cost", "List price"]] + [
        [codes[i], names[i], suppliers[i], cost[i], round(cost[i] * 1.6)] for i in order]
    row_of = {i: k + 2 for k, i in enumerate(order)}
    eff = workday_from(now, 3)
    plist = f"data/suppliers/{sup_domain.split('.')[0]}_prices_{iso(eff)}.pdf"
    pdf_text = (f"{sup_org} - price list effective {iso(eff)}\n" +
                "\n".join(f"{codes[i]} {names[i]}: {new_cost[i]}.00" for i in mine) + "\nPrices exclude VAT.")
    ch = sorted(codes[i] for i in changed)
    upd = lambda idx, col=4: [act("excel", "set_cell", file_path=cat, row_idx=row_of[i], column_idx=col,
                                  text=new_cost[i]) for i in idx]
    unchanged = sorted(c for i, c in enumerate(codes) if i not in changed)
    mail = lambda cs: act("email", "send_email", sender=me["email"], recipient=sales["email"],
                          subject=f"{sup_org} cost changes",
                          content=f"Hi {sales['first']},\n\n{sup_org} changed their prices. "
                                  f"New costs are in the catalogue for: {', '.join(cs)}.\n\n{me['first']}")
    return {
        **head(me, now),
        "instruction": (f"{rep['name']} from {sup_org} emailed their new price list. Update the Cost column of {cat} "
                        f"for their products to the new prices (leave list prices alone), then send {sales['name']} "
                        f"({sales['email']}) an email listing the codes of the products whose cost changed."),
        "office": [
            pdf(plist, [pdf_text]), xlsx(cat, {"Catalogue": rows}),
            eml(me["email"], "msg-1", rep["email"], "New price list",
                f"Dear {me['first']},\n\nplease find attached our updated price list, valid from {iso(eff)}.\n\n"
                f"Best regards,\n{rep['name']}\n{sup_org}", days_ago(now, 1, 15, 40), attachments=[plist]),
            eml(me["email"], "msg-2", other["email"], "Catalogue photos", "New product photos are on the share.",
                days_ago(now, 3, 9)),
        ],
        "checks": [*[check("xlsx_cell", file=cat, cell=f"D{row_of[i]}", value=new_cost[i]) for i in mine],
                   check("email_sent", sender=me["email"], to=sales["email"], body_contains=ch,
                         body_excludes=unchanged)],
        "gold": [switch("email"), act("email", "list_emails", username=me["email"]),
                 act("email", "read_email", username=me["email"], email_id="msg-1"), switch("pdf"),
                 act("pdf", "read_file", pdf_file_path=plist), switch("excel"), act("excel", "read_file", file_path=cat),
                 *upd(sorted(changed)), switch("email"), mail(ch)],
        "wrong": [
            {"name": "updates only one of the changed products", "actions": [
                switch("excel"), *upd(sorted(changed)[:1]), switch("email"), mail(ch)]},
            {"name": "costs right, sales not told", "actions": [switch("excel"), *upd(sorted(changed))]},
            {"name": "tells sales every code of the price list", "actions": [
                switch("excel"), *upd(sorted(changed)), switch("email"), mail(sorted(codes[i] for i in mine))]},
            {"name": "new prices written into the list price column", "actions": [
                switch("excel"), *upd(sorted(changed), col=5), switch("email"), mail(ch)]},
            {"name": "tells sales only one of the changed codes", "actions": [
                switch("excel"), *upd(sorted(changed)), switch("email"), mail(ch[:1])]},
            {"name": "the mail goes to the supplier's rep", "actions": [
                switch("excel"), *upd(sorted(changed)), switch("email"),
                act("email", "send_email", sender=me["email"], recipient=rep["email"], subject="Cost changes",
                    content=f"Changed: {', '.join(ch)}")]},
        ],
        "right": [
            {"name": "every price of the list written (unchanged ones stay the same), costs as text with decimals",
             "actions": [switch("excel"), *[act("excel", "set_cell", file_path=cat, row_idx=row_of[i], column_idx=4,
                                                text=f"{new_cost[i]}.00") for i in mine],
                         switch("email"), act("email", "send_email", sender=me["email"], recipient=sales["email"],
                                              subject="Catalogue costs updated",
                                              content="Cost changed for:\n" + "\n".join(ch))]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("client-hours-billing", apps=["calendar", "excel", "email"])
def client_hours_billing(rng: random.Random) -> dict:
    """Total last week's calendar hours spent with one client, add the billing row and mail the amount due."""
    org, domain, (me, col), now = setup(rng, 2)
    cl_org, cl_domain, (contact,) = outsider(rng, domain)
    short_name = cl_org.split()[0]
    other_client = rng.choice([c for c in ["Pinecrest", "Marlow", "Halcyon"]])
    monday = now.date() - timedelta(days=now.weekday() + 7)
    durations = rng.sample([60, 90, 120, 30, 150, 45], 3)
    events, hours = [], 0.0
    for k, (d, mins) in enumerate(zip(sorted(rng.sample(range(5), 3)), durations)):
        start = at(monday + timedelta(days=d), rng.choice([9, 10, 13, 14]))
        events.append(ev(f"{short_name}: {['workshop', 'design review', 'data walkthrough'][k]}", start,
                         start + timedelta(minutes=mins), attendees=[contact["email"]]))
        hours += mins / 60
    this_week = at(now.date() + timedelta(days=1), 11)
    events += [ev(f"{short_name}: follow-up call", this_week, this_week + timedelta(hours=1)),
               ev(f"{other_client}: kickoff", at(monday + timedelta(days=2), 16), at(monday + timedelta(days=2), 17)),
               ev("Team standup", at(monday, 9), at(monday, 9, 15)),
               ev(f"{short_name}: intro call", at(monday - timedelta(days=7), 10), at(monday - timedelta(days=7), 11))]
    rate = rng.choice([95, 110, 120, 135, 150])
    hours = num(hours)
    amount = num(hours * rate)
    sheet = f"data/billing/{short_name.lower()}_hours.xlsx"
    prev_monday = monday - timedelta(days=7)
    rows = [["Week of", "Hours", "Rate", "Amount"], [iso(prev_monday - timedelta(days=7)), 3, rate, 3 * rate],
            [iso(prev_monday), 1, rate, rate]]

    def row(h, a, week_of=monday):
        return [act("excel", "set_cell", file_path=sheet, row_idx=4, column_idx=c, text=v)
                for c, v in enumerate([iso(week_of), h, rate, a], start=1)]

    mail = lambda a, to=contact["email"]: act(
        "email", "send_email", sender=me["email"], recipient=to, subject=f"Hours for the week of {iso(monday)}",
        content=f"Dear {contact['first']},\n\nfor our work with you last week "
                f"the amount due is {a}.\n\nBest regards,\n{me['name']}")
    wrong_h = num(hours + 1)
    wrong_amount = num(wrong_h * rate)  # with this week's call, the other client's kickoff or the intro call
    return {
        **head(me, now),
        "instruction": (f"Time to bill {cl_org} for last week (Monday to Friday). Add up the hours of my calendar "
                        f"events with {short_name} last week, add the week as a new row in {sheet} (week-of date of "
                        f"last Monday as YYYY-MM-DD, hours, our usual rate from the sheet, amount), and email "
                        f"{contact['name']} ({contact['email']}) the amount due."),
        "office": [ics(me["email"], events), xlsx(sheet, {"Hours": rows})],
        "checks": [check("xlsx_cell", file=sheet, cell="A4", value=iso(monday)),
                   check("xlsx_cell", file=sheet, cell="B4", value=hours),
                   check("xlsx_cell", file=sheet, cell="D4", value=amount),
                   check("email_sent", sender=me["email"], to=contact["email"], body_contains=[str(amount)],
                         body_excludes=[str(wrong_amount)])],
        "gold": [switch("calendar"), act("calendar", "list_events", username=me["email"]), switch("excel"),
                 act("excel", "read_file", file_path=sheet), *row(hours, amount), switch("email"), mail(amount)],
        "wrong": [
            {"name": "counts this week's call as well", "actions": [
                switch("excel"), *row(wrong_h, wrong_amount), switch("email"), mail(wrong_amount)]},
            {"name": "row right, the mail gives the amount with one more hour", "actions": [
                switch("excel"), *row(hours, amount), switch("email"), mail(wrong_amount)]},
            {"name": "row right, the mail hedges between two amounts", "actions": [
                switch("excel"), *row(hours, amount), switch("email"), mail(f"{amount} or {wrong_amount}")]},
            {"name": "the week of this Monday", "actions": [
                switch("excel"), *row(hours, amount, week_of=monday + timedelta(days=7)), switch("email"),
                mail(amount)]},
            {"name": "the amount sent to my colleague", "actions": [
                switch("excel"), *row(hours, amount), switch("email"), mail(amount, to=col["email"])]},
            {"name": "mail sent, the billing row not added", "actions": [switch("email"), mail(amount)]},
        ],
        "right": [
            {"name": "the amount as a formula, the mail in other words with a currency sign", "actions": [
                switch("excel"), *row(hours, "=B4*C4"), switch("email"),
                act("email", "send_email", sender=me["email"], recipient=contact["email"], subject="Invoice summary",
                    content=f"Hello {contact['first']}, for the week of {iso(monday)} the amount due is "
                            f"${amount:,.2f} ({hours} h at {rate}/h).")]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("quarterly-report-archive", apps=["shell", "pdf", "excel"])
def quarterly_report_archive(rng: random.Random) -> dict:
    """Move last quarter's regional PDF reports into an archive folder and index their revenue totals."""
    org, domain, (me, _), now = setup(rng, 2)
    year, q = _quarter(now.date())
    pq, pyear = (q - 1, year) if q > 1 else (4, year - 1)
    tag, cur = f"{pyear}-Q{pq}", f"{year}-Q{q}"
    regions = rng.sample(["north", "south", "east", "west", "central"], 3)
    totals = [rng.randrange(40, 400) * 1000 + rng.randrange(0, 999) for _ in regions]
    targets = [t + rng.randrange(-30, 30) * 1000 for t in totals]
    office = []
    for r, t, g in zip(regions, totals, targets):
        office.append(pdf(f"data/reports/sales_{tag}_{r}.pdf",
                          [f"Regional sales report {tag} - {r.title()}\nTarget: {g}\nTotal revenue: {t}\n"
                           f"Prepared by {me['name']}"]))
    cur_files = [f"sales_{cur}_{regions[0]}_draft.pdf"]
    office.append(pdf(f"data/reports/{cur_files[0]}", [f"Draft {cur}\nTotal revenue so far: {rng.randrange(10, 90) * 1000}"]))
    office.append(text("data/reports/README.txt", "Regional reports land here; archive them each quarter.\n"))
    idx = "data/archive/index.xlsx"
    rows = [["Quarter", "Region", "Total revenue"]]
    oq = f"{pyear if pq > 1 else pyear - 1}-Q{pq - 1 if pq > 1 else 4}"
    rows += [[oq, r, rng.randrange(40, 400) * 1000] for r in regions]
    office.append(xlsx(idx, {"Index": rows}))
    office.append(text(f"data/archive/{oq}/.keep", ""))
    names = sorted(f"sales_{tag}_{r}.pdf" for r in regions)
    arch = f"data/archive/{tag}"
    move = sh(f"mkdir -p {arch} && mv data/reports/sales_{tag}_*.pdf {arch}/ && ls {arch}")
    reads = [act("pdf", "read_file", pdf_file_path=f"data/reports/sales_{tag}_{r}.pdf") for r in regions]

    def index(vals, first=5, regs=None):
        return [act("excel", "set_cell", file_path=idx, row_idx=first + k, column_idx=c, text=v)
                for k, (r, t) in enumerate(zip(regs or regions, vals)) for c, v in enumerate([tag, r, t], start=1)]

    by_name = sorted(zip(regions, totals))

    return {
        **head(me, now),
        "instruction": (f"Please archive last quarter's regional sales reports: move the {tag} PDFs out of data/reports/ "
                        f"into a new folder {arch}/ (leave the current quarter's files where they are), and add one row "
                        f"per report to {idx} under the existing rows: quarter ('{tag}'), region (as in the file name) "
                        f"and the total revenue stated in the report."),
        "office": office,
        # the instruction does not fix the order of the new rows: the index is judged by the checks (the old
        # rows kept, one new row per report right under them, nothing else)
        "free": [idx],
        "checks": [check("dir_files", dir=arch, names=names),
                   check("dir_files", dir="data/reports", names=sorted(cur_files + ["README.txt"])),
                   *[check("xlsx_row", file=idx, row=k, values=r) for k, r in enumerate(rows, start=1)],
                   check("column_values", file=idx, column="A", values=[r[0] for r in rows[1:]] + [tag] * 3),
                   *[check("xlsx_row", file=idx, values=[tag, r, t]) for r, t in zip(regions, totals)]],
        "gold": [switch("pdf"), *reads, switch("excel"), act("excel", "read_file", file_path=idx), *index(totals),
                 switch("shell"), move],
        "wrong": [
            {"name": "indexes the targets instead of the totals", "actions": [
                switch("excel"), *index(targets), switch("shell"), move]},
            {"name": "moves the current quarter's draft too", "actions": [
                switch("excel"), *index(totals), switch("shell"),
                sh(f"mkdir -p {arch} && mv data/reports/*.pdf {arch}/")]},
            {"name": "copies the reports instead of moving them", "actions": [
                switch("excel"), *index(totals), switch("shell"),
                sh(f"mkdir -p {arch} && cp data/reports/sales_{tag}_*.pdf {arch}/")]},
            {"name": "writes the new rows over the existing ones", "actions": [
                switch("excel"), *index(totals, first=2), switch("shell"), move]},
            {"name": "leaves an empty row before the new ones", "actions": [
                switch("excel"), *index(totals, first=6), switch("shell"), move]},
            {"name": "one report indexed twice, another not at all", "actions": [
                switch("excel"), *index([totals[0], totals[0], totals[2]], regs=[regions[0], regions[0], regions[2]]),
                switch("shell"), move]},
            {"name": "moves the reports straight into data/archive/", "actions": [
                switch("excel"), *index(totals), switch("shell"), sh(f"mv data/reports/sales_{tag}_*.pdf data/archive/")]},
            {"name": "totals written as text with thousands separators", "actions": [
                switch("excel"), *[act("excel", "insert_row", file_path=idx, row_idx=5 + k, values=[tag, r, f"{t:,}"])
                                   for k, (r, t) in enumerate(zip(regions, totals))],
                switch("shell"), move]},
        ],
        "right": [
            {"name": "the new rows in file-name order", "actions": [
                switch("excel"), *index([t for _r, t in by_name], regs=[r for r, _t in by_name]), switch("shell"),
                move]},
            {"name": "rows inserted at once, the reports moved one by one", "actions": [
                switch("excel"), *[act("excel", "insert_row", file_path=idx, row_idx=5 + k, values=[tag, r, t])
                                   for k, (r, t) in enumerate(zip(regions, totals))],
                switch("shell"), sh(f"mkdir {arch} && for r in {' '.join(regions)}; do mv data/reports/sales_{tag}_$r.pdf "
                                    f"{arch}/; done")]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("po-match-question", apps=["email", "pdf", "excel"])
def po_match_question(rng: random.Random) -> dict:
    """Question: which purchase order does a supplier's emailed invoice belong to?"""
    org, domain, (me, col), now = setup(rng, 2)
    sup_org, sup_domain, (rep,) = outsider(rng, domain)
    item = rng.choice(["ergonomic chair", "standing desk", "27-inch monitor", "laptop dock", "noise-cancelling headset"])
    qty = rng.randrange(6, 40)
    unit = rng.randrange(80, 600)
    total = qty * unit
    pos = []
    base = rng.randrange(2000, 8000)
    for k in range(5):
        pos.append(f"PO-{base + k * rng.randrange(3, 17)}")
    target = rng.randrange(0, 4)
    rows = [["PO", "Supplier", "Description", "Quantity", "Amount", "Status"]]
    for k, po in enumerate(pos):
        if k == target:
            rows.append([po, sup_org, item, qty, total, "Open"])
        elif k == target + 1:
            rows.append([po, sup_org, item, qty + 4, (qty + 4) * unit, "Open"])  # same item, other quantity
        elif k % 2:
            rows.append([po, sup_org, "desk lamp", rng.randrange(5, 20), rng.randrange(300, 900), "Closed"])
        else:
            rows.append([po, "Nordic Interiors", item, qty, total + rng.randrange(50, 500), "Open"])
    inv = f"data/invoices/{sup_domain.split('.')[0]}_inv_{rng.randrange(100, 999)}.pdf"
    body = (f"INVOICE {rng.randrange(10000, 99999)}\nFrom: {sup_org}\nTo: {org}\n"
            f"{qty} x {item} at {unit}.00\nTotal: {total}.00\nPayment within 30 days.")
    reg = "data/purchasing/purchase_orders.xlsx"
    answer = pos[target]
    return {
        **head(me, now),
        "instruction": (f"{sup_org} sent an invoice by email without quoting our PO number. Which purchase order in "
                        f"{reg} does it belong to? Answer with the PO number only."),
        "office": [
            pdf(inv, [body]), xlsx(reg, {"POs": rows}),
            eml(me["email"], "msg-1", rep["email"], "Invoice for your recent order",
                f"Hello,\n\nattached is our invoice for the {item}s we delivered last week.\n\nRegards,\n{rep['name']}",
                days_ago(now, 1, 11), attachments=[inv]),
            eml(me["email"], "msg-2", col["email"], "PO approvals", "I approved the open POs yesterday.",
                days_ago(now, 2, 17)),
        ],
        "answer": answer,
        "checks": [check("answer_equals", value=answer, exclude=[p for p in pos if p != answer])],
        "gold": [switch("email"), act("email", "read_email", username=me["email"], email_id="msg-1"), switch("pdf"),
                 act("pdf", "read_file", pdf_file_path=inv), switch("excel"), act("excel", "read_file", file_path=reg),
                 finish(answer)],
        "wrong": [
            {"name": "same item, different quantity", "actions": [finish(pos[target + 1])], "answer": pos[target + 1]},
            {"name": "hedges between the two POs for the item", "actions": [],
             "answer": f"{answer} or {pos[target + 1]}"},
            {"name": "another supplier's PO for the same item and quantity", "actions": [],
             "answer": next((r[0] for r in rows[1:] if r[1] != sup_org and r[2] == item), pos[-1])},
            {"name": "lists every open PO", "actions": [], "answer": ", ".join(r[0] for r in rows[1:] if r[5] == "Open")},
        ],
        "right": [
            {"name": "a sentence with the figures", "actions": [],
             "answer": f"The invoice ({qty} x {item}, {total}.00) matches {answer}."},
            {"name": "the PO number in lower case", "actions": [], "answer": answer.lower()},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("event-venue-estimate", apps=["pdf", "excel", "word"])
def event_venue_estimate(rng: random.Random) -> dict:
    """Price an event from the venue's PDF quote and the confirmed registrations; add it to the proposal."""
    org, domain, (me, _), now = setup(rng, 2)
    event = rng.choice(["Customer Day", "Partner Summit", "Autumn Offsite", "Product Forum"])
    venue = rng.choice(["Lakeview Conference Centre", "The Granary Hall", "Old Mill Rooms"])
    packages = {"Day package": rng.randrange(35, 60), "Full board": rng.randrange(70, 110),
                "Evening reception": rng.randrange(20, 40)}
    pkg = rng.choice(list(packages))
    other_pkg = rng.choice([p for p in packages if p != pkg])
    n_conf = rng.randrange(9, 16)
    statuses = ["Confirmed"] * n_conf + ["Cancelled"] * rng.randrange(2, 4) + ["Waitlist"] * rng.randrange(1, 3)
    rng.shuffle(statuses)
    from officesim.tasks.families._kit import people as _people
    guests = _people(rng, len(statuses), "guests.test") if len(statuses) <= 30 else []
    rows = [["Name", "Company", "Status"]] + [[g["name"], rng.choice(["Acorn Ltd", "Brightwave", "Kestrel Co"]), s]
                                             for g, s in zip(guests, statuses)]
    quote = f"data/events/{venue.split()[0].lower()}_quote.pdf"
    slug = event.lower().replace(" ", "_")
    reg = f"data/events/{slug}_registrations.xlsx"
    prop = f"data/events/{slug}_proposal.docx"
    price = packages[pkg]
    total = n_conf * price
    line = f"Venue cost estimate: {total}"
    n_wait = n_conf + statuses.count("Waitlist")
    # the figures a wrong estimate would give: everyone registered, the waitlist too, another package
    alternatives = [x for x in dict.fromkeys([len(statuses) * price, n_wait * price,
                                              *[n_conf * v for k, v in packages.items() if k != pkg]])
                    if x != total]
    qtext = f"Quote - {venue}\nPrices per person, VAT included\n" + "\n".join(f"{k}: {v}" for k, v in packages.items())
    write = lambda t: act("word", "write_to_file", file_path=prop, contents=t)
    return {
        **head(me, now),
        "instruction": (f"For the {event} proposal: the venue's quote is {quote}; we want the {pkg}. Work out the "
                        f"venue cost for everyone whose registration is Confirmed in {reg} and add the line "
                        f"'Venue cost estimate: <amount>' (a plain number) at the end of {prop}."),
        "office": [pdf(quote, [qtext]), xlsx(reg, {"Registrations": rows}),
                   docx(prop, [{"text": f"{event} proposal", "style": "Heading 1"}, f"Venue: {venue}",
                               "Agenda to follow."])],
        # the amount also as a number: the line alone would be found in 'Venue cost estimate: 588.75' too
        "checks": [check("contains", file=prop, text=[line, str(total)], exclude=[str(x) for x in alternatives]),
                   check("contains", file=prop, text=f"Venue: {venue}")],
        "gold": [switch("pdf"), act("pdf", "read_file", pdf_file_path=quote), switch("excel"),
                 act("excel", "read_file", file_path=reg), switch("word"), write(line)],
        "wrong": [
            {"name": "counts every registration", "actions": [
                switch("word"), write(f"Venue cost estimate: {(len(statuses)) * price}")]},
            {"name": "prices the wrong package", "actions": [
                switch("word"), write(f"Venue cost estimate: {n_conf * packages[other_pkg]}")]},
            {"name": "counts the waitlist as coming", "actions": [
                switch("word"), write(f"Venue cost estimate: {n_wait * price}")]},
            {"name": "hedges with the cost if everyone registered comes", "actions": [
                switch("word"), write(f"{line} ({len(statuses) * price} if everyone registered comes)")]},
            {"name": "the price per person only", "actions": [switch("word"), write(f"Venue cost estimate: {price}")]},
            {"name": "the line added twice", "actions": [switch("word"), write(f"{line}\n{line}")]},
            {"name": "the amount with made-up cents", "actions": [switch("word"), write(f"{line}.75")]},
        ],
        "right": [
            {"name": "the line with decimals and a final period", "actions": [switch("word"), write(f"{line}.00.")]},
        ],
    }
