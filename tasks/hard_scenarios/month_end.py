"""Hard scenarios of month-end close: reconciliations, accruals, duplicates, credit notes, reforecasts."""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta

from officesim.tasks.hard_scenarios._base import (act, check, iso, last_week, list_mail, long_date, money, read_mail, read_pdf,
                                                  read_sheet, scenario, send, set_cell, switch, trigger_mail)
from officesim.testbed.worlds.model import Invoice, World


def _closing_month(w: World) -> tuple[date, date]:
    """The month just closed: its first and last day."""
    end = date(w.now.year, w.now.month, 1) - timedelta(days=1)
    return date(end.year, end.month, 1), end


def _last_quarter(w: World) -> tuple[int, date, date]:
    today = w.now.date()
    q = (today.month - 1) // 3 or 4
    year = today.year if (today.month - 1) // 3 else today.year - 1
    start = date(year, 3 * (q - 1) + 1, 1)
    end = date(year + (q == 4), (3 * q) % 12 + 1, 1) - timedelta(days=1)
    return q, start, end


def _sheet(w: World, key: str, name: str) -> list[list]:
    return [list(r) for r in next(f for f in w.files if f["path"] == w.paths[key])["sheets"][name]]


def _prefix(supplier: str) -> str:
    return "".join(x[0] for x in supplier.split()[:2]).upper()


def _invoice_pdf_text(w: World, inv: Invoice) -> str:
    s = w.supplier(inv.supplier)
    return (f"{s.name.upper()}\nINVOICE {inv.number}\nTo: {w.company}, Accounts Payable\nIssued: {long_date(inv.issued)}\n"
            f"Your order: {inv.po}\nAmount due: {money(inv.amount)}\nPayment due by: {long_date(inv.due)}\n"
            f"Payment terms: {s.terms_days} days")


def _invoice_mail(w: World, inv: Invoice, mail_id: str, when: datetime) -> dict:
    s = w.supplier(inv.supplier)
    m = trigger_mail(w, s.email, when, f"Invoice {inv.number} ({inv.po})",
                     f"Dear {w.company} team,\n\nPlease find attached our invoice {inv.number} for your order {inv.po}, "
                     f"{money(inv.amount)} due by {long_date(inv.due)}.\n\nBest regards,\n{s.contact}\n{s.name}",
                     mail_id=mail_id, attachments=[inv.pdf])
    m["cc"] = [w.team("Finance")[-1].email]
    return m


# ---- duplicate invoices ----------------------------------------------------------------------------
# the look-alike (same supplier and amount, another order) may be reported as checked and not held
_NOT_A_DUPLICATE = ["held", "hold", "holding", "on hold", "a duplicate", "duplicate", "a repeat", "repeat",
                    "a second bill", "the same order", "the same PO", "the same purchase order"]


@scenario("duplicate-invoices-hold", ["excel", "pdf", "email"])
def duplicate_invoices_hold(w: World) -> dict:
    """Some suppliers billed one delivery twice (a second invoice, new number, same order and amount): hold
    each duplicate in the invoices sheet, write to each supplier once naming both invoices, and send Finance
    the list. A repeat order billed for the same amount under its own purchase order is no duplicate."""
    rng = random.Random(f"hard:duplicate-invoices-hold:{w.name}")
    today = w.now.date()
    orders = {p.po: p for p in w.pos}
    clerk = w.team("Finance")[-1]
    fin = w.head_of("Finance")
    recent = [i for i in w.invoices if i.pdf and i.issued <= today - timedelta(days=20)
              and i.issued >= today - timedelta(days=80)]
    by_supplier: dict[str, list[Invoice]] = {}
    for i in recent:
        by_supplier.setdefault(i.supplier, []).append(i)
    names = sorted(by_supplier, key=lambda s: (rng.random(), s))
    originals = [rng.choice(sorted(by_supplier[s], key=lambda i: i.number)) for s in names[:4]]
    repeat_of = rng.choice(sorted(by_supplier[names[4]], key=lambda i: i.number))
    n = len(w.invoices)
    dups: list[tuple[Invoice, Invoice]] = []
    office: list[dict] = []
    for k, o in enumerate(originals):
        issued = o.issued + timedelta(days=rng.randrange(9, 19))
        n += 1
        d = Invoice(f"{_prefix(o.supplier)}-{issued:%y%m}-{n:04d}", o.supplier, o.po, issued, o.amount,
                    issued + timedelta(days=w.supplier(o.supplier).terms_days), None,
                    f"data/finance/invoices/{issued:%Y-%m}/{_prefix(o.supplier)}-{issued:%y%m}-{n:04d}.pdf")
        dups.append((d, o))
    # the repeat order: the same item for the same amount, ordered again under a new PO, delivered and billed
    po_rows = _sheet(w, "pos", "Orders")
    src = orders[repeat_of.po]
    new_po = f"PO-{max(int(p.po.split('-')[1]) for p in w.pos) + 1}"
    ordered = today - timedelta(days=14)
    delivered = ordered + timedelta(days=7)
    requester = w.person(src.requester).name
    po_rows.append([new_po, src.supplier, requester, iso(ordered), src.item, src.amount, iso(delivered), iso(delivered),
                    "Delivered"])
    issued = delivered + timedelta(days=1)
    n += 1
    repeat = Invoice(f"{_prefix(src.supplier)}-{issued:%y%m}-{n:04d}", src.supplier, new_po, issued, repeat_of.amount,
                     issued + timedelta(days=w.supplier(src.supplier).terms_days), None,
                     f"data/finance/invoices/{issued:%Y-%m}/{_prefix(src.supplier)}-{issued:%y%m}-{n:04d}.pdf")
    arrivals = sorted([d for d, _o in dups] + [repeat], key=lambda i: (i.issued, i.number))
    inv_rows = _sheet(w, "invoices", "Invoices")
    first_new = len(inv_rows) + 1
    for k, i in enumerate(arrivals):
        i.row = first_new + k
        inv_rows.append([i.number, i.supplier, i.po, iso(i.issued), i.amount, iso(i.due), None])
    office.append({"type": "xlsx", "path": w.paths["pos"], "sheets": {"Orders": po_rows}})
    office.append({"type": "xlsx", "path": w.paths["invoices"], "sheets": {"Invoices": inv_rows}})
    for k, i in enumerate(arrivals):
        office.append({"type": "pdf", "path": i.pdf, "pages": [_invoice_pdf_text(w, i)]})
        when = datetime.combine(i.issued, time(10 + k % 5, 12 + 7 * k))
        office.append(_invoice_mail(w, i, f"msg-{950 + k}", when))
    sheet = w.paths["invoices"]
    instruction = (
        f"{clerk.first} in accounts payable thinks a few suppliers have billed us twice for the same delivery: a second "
        "invoice under a new number for the same purchase order and the same amount. Before the month-end close, "
        "please go through this year's supplier invoices and find every such duplicate. In the supplier invoices "
        "sheet, put 'Held' in a new Status column on the row of each duplicate — the later of the two invoices; leave "
        "every other row blank. Write to each supplier concerned, to its account manager, once: name the duplicate "
        "invoice, the original it repeats and the purchase order, and ask them to cancel the duplicate. Copy "
        f"{clerk.first}. Then send {fin.name} the list of the invoices you held, each with its supplier and the "
        "original invoice.")
    gold = [switch("excel"), read_sheet(sheet), read_sheet(w.paths["pos"]), read_sheet(w.paths["suppliers"]),
            switch("pdf")]
    for d, o in sorted(dups, key=lambda x: x[0].row):
        gold += [read_pdf(d.pdf), read_pdf(o.pdf)]
    gold += [read_pdf(repeat.pdf), read_pdf(repeat_of.pdf), switch("excel"), set_cell(sheet, 1, 8, "Status")]
    checks = [check("xlsx_cell", "status column", file=sheet, cell="H1", value="Status")]
    for d, o in sorted(dups, key=lambda x: x[0].row):
        gold.append(set_cell(sheet, d.row, 8, "Held"))
        checks.append(check("xlsx_cell", f"held {d.number}", file=sheet, cell=f"H{d.row}", value="Held"))
    checks.append(check("xlsx_cell", "repeat order not held", file=sheet, cell=f"H{repeat.row}", value=None))
    checks += [check("xlsx_cell", file=sheet, cell=f"H{o.row}", value=None) for _d, o in dups]
    gold.append(switch("email"))
    for d, o in sorted(dups, key=lambda x: x[0].supplier):
        s = w.supplier(d.supplier)
        body = (f"Dear {s.contact.split()[0]},\n\nYour invoice {d.number} bills our order {d.po} a second time: it "
                f"repeats your invoice {o.number} for the same order and amount. We have put {d.number} on hold; "
                f"please cancel it.\n\nKind regards,\n{w.user.name}\n{w.company}")
        gold.append(send(w, [s.email], f"Duplicate invoice {d.number}", body, cc=[clerk.email]))
        checks.append(check("email_sent", f"wrote to {s.name}", sender=w.user.email, to=[s.email], cc=[clerk.email],
                            body_contains=[d.number, o.number, d.po], body_excludes=[repeat.number],
                            excludes_denied=_NOT_A_DUPLICATE))
    lines = [f"- {d.number} ({d.supplier}), a duplicate of {o.number}" for d, o in sorted(dups, key=lambda x: x[0].row)]
    gold.append(send(w, [fin.email], "Duplicate supplier invoices held",
                     f"Hi {fin.first},\n\nI have held these invoices, each a second bill for a delivery already "
                     f"invoiced:\n" + "\n".join(lines) + f"\n\nThe suppliers have been asked to cancel them.\n\n"
                     f"Best,\n{w.user.first}"))
    checks.append(check("email_sent", "list to the head of finance", sender=w.user.email, to=[fin.email],
                        body_contains=[d.number for d, _o in dups], body_excludes=[repeat.number],
                        excludes_denied=_NOT_A_DUPLICATE,
                        lines=[[d.number, d.supplier, o.number] for d, o in dups]))
    return {"instruction": instruction, "office": office, "gold": gold, "checks": checks}


# ---- bank reconciliation -----------------------------------------------------------------------------
@scenario("bank-statement-reconcile", ["email", "pdf", "excel"])
def bank_statement_reconcile(w: World) -> dict:
    """Reconcile the ledger's supplier payments of the month just closed with the bank's statement (a PDF the
    bank mailed): tick each payment the bank shows, and report the payments the bank has not shown and the
    bank's lines the ledger lacks to the Head of Finance."""
    rng = random.Random(f"hard:bank-statement-reconcile:{w.name}")
    start, end = _closing_month(w)
    fin = w.head_of("Finance")
    ledger_path = w.paths["ledger"]
    ledger = _sheet(w, "ledger", "Ledger")
    row_of = {r[1]: k for k, r in enumerate(ledger, start=1)}
    paid = sorted([i for i in w.invoices if i.paid and start <= i.paid <= end], key=lambda i: (i.paid, i.number))
    in_transit = paid[-2:]  # paid on the last days: not through the bank by the month's end
    cleared = [i for i in paid if i not in in_transit]
    dd_supplier = sorted(w.suppliers, key=lambda s: (rng.random(), s.name))[0]
    charge = round(rng.choice([14.5, 18.75, 22.4, 27.9]), 2)
    dd = round(rng.uniform(180, 900), 2)
    dd_day = start + timedelta(days=rng.randrange(8, 20))
    bank_only = [(end, "Account service charge", charge), (dd_day, f"Direct debit {dd_supplier.name}", dd)]
    lines = [(i.paid, f"{i.supplier} {i.number}", i.amount) for i in cleared] + bank_only
    lines.sort(key=lambda x: (x[0], x[1]))
    bank = "Northgate Bank"
    pdf = f"data/finance/bank/statement_{start:%Y-%m}.pdf"
    text = (f"{bank.upper()} PLC\nStatement of account\n{w.company} — supplier payments account 40-17-22 61845230\n"
            f"Period: {long_date(start)} to {long_date(end)}\n\nDate | Details | Paid out\n"
            + "\n".join(f"{iso(d)} | {desc} | {a:,.2f}" for d, desc, a in lines)
            + "\n\nPayroll and internal transfers are shown on the payroll account statement.")
    sent = datetime.combine(end + timedelta(days=3), time(7, 42))
    office = [{"type": "pdf", "path": pdf, "pages": [text]},
              trigger_mail(w, "statements@northgatebank.test", sent, f"Your statement for {start:%B %Y}",
                           f"Dear customer,\n\nYour statement for the supplier payments account, {start:%B %Y}, is "
                           f"attached.\n\n{bank}", mail_id="msg-960", attachments=[pdf])]
    instruction = (
        f"Month-end: could you reconcile {start:%B}'s supplier payments in our ledger with the bank? The bank's "
        f"statement for {start:%B} came by email. In the ledger, add a column 'Bank' after the last one and put "
        f"'Cleared' on every supplier invoice payment of {start:%B} that the statement shows (same invoice, same "
        "amount); leave everything else blank — the payroll and office recharge lines don't go through that account. "
        f"Then email {fin.name} what doesn't reconcile: the ledger's {start:%B} payments the bank hasn't shown yet, by "
        "invoice number, and every line of the statement that isn't in the ledger, with its details and amount. "
        "Don't add anything to the ledger for those, Finance will decide.")
    gold = [switch("email"), list_mail(w), read_mail(w, "msg-960"), switch("pdf"), read_pdf(pdf), switch("excel"),
            read_sheet(ledger_path), set_cell(ledger_path, 1, 6, "Bank")]
    checks = [check("xlsx_cell", "bank column", file=ledger_path, cell="F1", value="Bank")]
    for k, i in enumerate(sorted(cleared, key=lambda i: row_of[i.number])):
        gold.append(set_cell(ledger_path, row_of[i.number], 6, "Cleared"))
        checks.append(check("xlsx_cell", "ticked the cleared payments" if k == 0 else None, file=ledger_path,
                            cell=f"F{row_of[i.number]}", value="Cleared"))
    for i in in_transit:
        checks.append(check("xlsx_cell", f"{i.number} not ticked", file=ledger_path, cell=f"F{row_of[i.number]}",
                            value=None))
    body = (f"Hi {fin.first},\n\n{start:%B}'s supplier payments are reconciled with the bank statement except:\n"
            f"Paid in the ledger, not yet shown by the bank:\n"
            + "\n".join(f"- {i.number} ({i.supplier})" for i in in_transit)
            + "\nOn the statement, not in the ledger:\n"
            + "\n".join(f"- {desc}: {money(a)}" for _d, desc, a in bank_only)
            + f"\n\nI haven't posted anything for them.\n\nBest,\n{w.user.first}")
    gold += [switch("email"), send(w, [fin.email], f"Bank reconciliation {start:%B %Y}", body)]
    checks.append(check("email_sent", "reported what doesn't reconcile", sender=w.user.email, to=[fin.email],
                        body_contains=[i.number for i in in_transit] + [money(a) for _d, _desc, a in bank_only],
                        body_excludes=[i.number for i in cleared]
                        + [f"Direct debit {x.name}" for x in w.suppliers if x is not dd_supplier],
                        # "by invoice number": a supplier named beside one is read against the ledger
                        lines=[["service charge", money(charge)], [dd_supplier.name, money(dd)]]))
    return {"instruction": instruction, "office": office, "gold": gold, "checks": checks}


# ---- quarter reforecast --------------------------------------------------------------------------------
@scenario("budget-reforecast", ["excel", "word", "email"])
def budget_reforecast(w: World) -> dict:
    """Over a few days the Head of Finance asks for this quarter's reforecast per cost centre: supplier
    invoices paid so far this quarter plus the open purchase orders (by the requester's team), against the
    quarter's budget, in a workbook, with a memo of the cost centres heading over; a later message takes
    payroll and the recharges out and changes who receives it."""
    fin = w.head_of("Finance")
    deputy = w.team("Finance")[1]
    today = w.now.date()
    q = (today.month - 1) // 3 + 1
    qs = date(today.year, 3 * (q - 1) + 1, 1)
    team = {p.email: p.team for p in w.people}
    orders = {p.po: p for p in w.pos}
    paid: dict[str, float] = {}
    for i in w.invoices:
        if i.paid and qs <= i.paid < today:
            cc = w.cost_centres[team[orders[i.po].requester]]
            paid[cc] = round(paid.get(cc, 0.0) + i.amount, 2)
    open_: dict[str, float] = {}
    for p in w.pos:
        if p.status == "Open":
            cc = w.cost_centres[team[p.requester]]
            open_[cc] = round(open_.get(cc, 0.0) + p.amount, 2)
    book = f"data/finance/reforecast_Q{q}.xlsx"
    memo = f"data/finance/reforecast_Q{q}_memo.docx"
    header = ["Cost centre", f"Q{q} budget", "Paid to date", "Open orders", "Forecast"]
    rows = []
    for t, cc in w.cost_centres.items():
        f = round(paid.get(cc, 0.0) + open_.get(cc, 0.0), 2)
        rows.append([cc, w.budgets[(cc, q)], paid.get(cc, 0.0), open_.get(cc, 0.0), f])
    over = [r for r in rows if r[4] > r[1]]
    t = last_week(w)
    dialogue = [
        {"speaker": fin.name, "at": t(0, 8, 55),
         "text": f"Morning {w.user.first}! Before the board pack I need a Q{q} reforecast per cost centre: what the "
                 "ledger shows as spent so far this quarter, plus what's still committed on open purchase orders, "
                 f"against the Q{q} budget. Send it to all the finance managers when done."},
        {"speaker": w.user.name, "at": t(0, 9, 20), "text": "Happy to. Which cost centre does an open order count against?"},
        {"speaker": fin.name, "at": t(0, 9, 34),
         "text": "The cost centre of the team of whoever raised it, same as the ledger does for invoices."},
        {"speaker": fin.name, "at": t(1, 12, 10),
         "text": f"A workbook please, reforecast_Q{q}.xlsx in the finance folder, columns Cost centre, Q{q} budget, "
                 "Paid to date, Open orders, Forecast (paid plus open), amounts as plain numbers, one row per cost centre in "
                 "the budget's order. "
                 f"And a short Word memo beside it, reforecast_Q{q}_memo.docx, with a line for each cost centre whose "
                 "forecast is above its budget, giving the forecast and the budget."},
        {"speaker": fin.name, "at": t(2, 13, 2), "text": "Also: fire drill at 3 today, don't use the lifts."},
        {"speaker": fin.name, "at": t(3, 17, 40),
         "text": "Correction on the reforecast: payroll and the office space recharges stay out of it — the budget is "
                 "supplier spend only, so count just the supplier invoices paid this quarter. And don't send it to "
                 f"the finance managers after all: mail both files to me and copy {deputy.name}."},
    ]
    instruction = "Can you finish the reforecast now? Everything we agreed is in the messages above."
    gold = [switch("excel"), read_sheet(w.paths["ledger"]), read_sheet(w.paths["pos"]), read_sheet(w.paths["directory"]),
            read_sheet(w.paths["budget"]), act("excel", "create_new_file", file_path=book)]
    written, checks = _table_by_cells(book, header, rows, "no extra row")
    gold += written
    team_of = {cc: t for t, cc in w.cost_centres.items()}
    text = (f"Q{q} {today.year} reforecast — cost centres forecast above budget\n"
            + ("\n".join(f"{r[0]} ({team_of[r[0]]}): forecast {money(r[4])} against a budget of {money(r[1])}"
                         for r in over) if over else "No cost centre is forecast above its budget."))
    gold += [switch("word"), act("word", "create_new_file", file_path=memo),
             act("word", "write_to_file", file_path=memo, contents=text), switch("email"),
             send(w, [fin.email], f"Q{q} reforecast", f"Hi {fin.first},\n\nThe Q{q} reforecast and its memo are "
                  f"attached.\n\nBest,\n{w.user.first}", cc=[deputy.email], attachments=[book, memo])]
    if over:
        stated = {round(v, 2) for r in over for v in (r[1], r[4])}
        others = sorted({w.budgets[(r[0], k)] for r in over for k in range(1, 5)} - stated)
        checks.append(check("contains", "memo names the cost centres over budget", file=memo,
                            text=[x for r in over for x in (r[0], money(r[4]), money(r[1]))],
                            exclude=[money(v) for v in others] or None,
                            lines=[[r[0], money(r[4]), money(r[1])] for r in over]))
    else:
        checks.append(check("contains", "memo: none over", file=memo, text=["no cost centre"]))
    checks.append(check("no_repeats", "memo written once", file=memo))
    checks.append(check("not_contains", "no other cost centre in the memo", file=memo,
                        text=[r[0] for r in rows if r not in over]))
    checks.append(check("email_sent", "mailed to the head of finance", sender=w.user.email, to=[fin.email],
                        cc=[deputy.email], attachments=[book.rsplit("/", 1)[1], memo.rsplit("/", 1)[1]]))
    return {"instruction": instruction, "dialogue": dialogue, "gold": gold, "checks": checks, "free": [memo]}


# ---- credit notes ------------------------------------------------------------------------------------
@scenario("credit-notes-match", ["email", "pdf", "excel"])
def credit_notes_match(w: World) -> dict:
    """Suppliers' credit notes arrived by mail: match each to the invoice it credits; record it in a new
    register (offset at the next payment when the invoice is unpaid, a refund asked for when it is paid) and
    answer it; a credit note naming an invoice that is not the supplier's is queried, not recorded."""
    rng = random.Random(f"hard:credit-notes-match:{w.name}")
    today = w.now.date()
    orders = {p.po: p for p in w.pos}
    year = [i for i in w.invoices if i.issued >= date(today.year, 6, 1) and i.issued < today - timedelta(days=5)]
    suppliers = sorted(sorted({i.supplier for i in year}), key=lambda s: (rng.random(), s))

    def pick(s: str, paid: bool) -> Invoice | None:
        mine = sorted([i for i in year if i.supplier == s and bool(i.paid) == paid], key=lambda i: i.number)
        over = [i for i in mine if i.amount > orders[i.po].amount + 0.005]
        if over:
            return over[-1]
        return mine[rng.randrange(len(mine))] if mine else None

    plan = []  # (invoice, paid?)
    for want in (False, True, False, True):
        for s in suppliers:
            if s in {p[0].supplier for p in plan}:
                continue
            inv = pick(s, want)
            if inv:
                plan.append((inv, want))
                break
    stranger_sup = next(s for s in suppliers if s not in {p[0].supplier for p in plan})
    foreign = sorted([i for i in year if i.supplier not in (stranger_sup,)], key=lambda i: i.number)
    foreign = [i for i in foreign if i.supplier not in {p[0].supplier for p in plan}] or foreign
    wrong_ref = rng.choice(foreign)
    notes = []
    for k, (inv, is_paid) in enumerate(plan):
        order = orders[inv.po].amount
        if inv.amount > order + 0.005:
            amount, why = round(inv.amount - order, 2), f"price correction: invoice {inv.number} billed above your order {inv.po}"
        else:
            amount, why = round(inv.amount * 0.2, 2), f"return of part of the goods delivered under your order {inv.po}"
        notes.append(dict(inv=inv, paid=is_paid, supplier=inv.supplier, amount=amount, why=why, ref=inv.number))
    notes.append(dict(inv=None, paid=None, supplier=stranger_sup, amount=round(rng.uniform(60, 400), 2),
                      why="goods returned", ref=wrong_ref.number))
    order_ = list(range(len(notes)))
    rng.shuffle(order_)
    notes = [notes[k] for k in order_]
    office = []
    received0 = datetime.combine(today - timedelta(days=4), time(9, 5))
    for k, c in enumerate(notes):
        s = w.supplier(c["supplier"])
        when = received0 + timedelta(days=k * 3 // 4, hours=2 * k, minutes=11 * k)
        day = when.date()
        c["number"] = f"CN-{_prefix(s.name)}-{day:%y%m}-{31 + 7 * k:03d}"
        c["day"] = day
        c["mail"] = f"msg-{970 + k}"
        c["pdf"] = f"data/finance/credit_notes/{c['number']}.pdf"
        office.append({"type": "pdf", "path": c["pdf"], "pages": [
            f"{s.name.upper()}\nCREDIT NOTE {c['number']}\nTo: {w.company}, Accounts Payable\nDate: {long_date(day)}\n"
            f"Credits our invoice: {c['ref']}\nReason: {c['why']}\nAmount credited: {money(c['amount'])}"]})
        office.append(trigger_mail(w, s.email, when, f"Credit note {c['number']}",
                                   f"Dear {w.company} team,\n\nPlease find attached our credit note {c['number']} "
                                   f"against invoice {c['ref']}.\n\nBest regards,\n{s.contact}\n{s.name}",
                                   mail_id=c["mail"], attachments=[c["pdf"]]))
    book = "data/finance/credit_notes_2026.xlsx"
    header = ["Credit note", "Supplier", "Invoice", "Date", "Amount", "Treatment"]
    recorded = [c for c in notes if c["inv"]]
    rows = [header] + [[c["number"], c["supplier"], c["ref"], iso(c["day"]), c["amount"],
                        "Refund requested" if c["paid"] else "Offset"] for c in recorded]
    instruction = (
        "Several suppliers have sent us credit notes by email over the last few days. For the month-end, please match each one "
        "to the invoice it credits in our supplier invoices sheet and record it in a new workbook, "
        "credit_notes_2026.xlsx in the finance folder, with the columns Credit note, Supplier, Invoice, Date, "
        "Amount, Treatment — one row per credit note in the order they arrived, the date and the amount as the credit "
        "note states them (the date as YYYY-MM-DD, the amount as a plain number). If the invoice is still unpaid, the treatment is 'Offset' (we deduct it at the next "
        "payment run); if we've already paid it, it's 'Refund requested'. Reply to each supplier's email: for an "
        "offset, confirm the amount we'll deduct; for a paid invoice, ask them to refund the amount. If a credit "
        "note names an invoice that isn't one of that supplier's, don't record it — reply asking which of their "
        "invoices it is for.")
    gold = [switch("email"), list_mail(w)] + [read_mail(w, c["mail"]) for c in notes] + [switch("pdf")]
    gold += [read_pdf(c["pdf"]) for c in notes]
    gold += [switch("excel"), read_sheet(w.paths["invoices"]), act("excel", "create_new_file", file_path=book)]
    for r, values in enumerate(rows, start=1):
        gold += [set_cell(book, r, col, v) for col, v in enumerate(values, start=1)]
    checks = [check("xlsx_sheet_equals", "credit note register", file=book, rows=rows)]
    gold.append(switch("email"))
    for c in notes:
        s = w.supplier(c["supplier"])
        if c["inv"] is None:
            text = (f"Dear {s.contact.split()[0]},\n\nYour credit note {c['number']} names invoice {c['ref']}, which "
                    f"is not one of your invoices to us. Which of your invoices is it for?")
            facts = [c["number"], c["ref"]]
            point = f"queried {c['number']}"
        elif c["paid"]:
            text = (f"Dear {s.contact.split()[0]},\n\nThank you for credit note {c['number']}. We have already paid "
                    f"invoice {c['ref']}, so please refund {money(c['amount'])} to our account.")
            facts = [c["number"], c["ref"], money(c["amount"]), "refund"]
            point = f"refund asked for {c['number']}"
        else:
            text = (f"Dear {s.contact.split()[0]},\n\nThank you for credit note {c['number']}. We will deduct "
                    f"{money(c['amount'])} from our next payment to you.")
            facts = [c["number"], money(c["amount"])]
            point = f"offset confirmed for {c['number']}"
        gold.append(act("email", "reply_email", username=w.user.email, email_id=c["mail"],
                        content=text + f"\n\nKind regards,\n{w.user.name}\n{w.company}"))
        checks.append(check("email_sent", point, sender=w.user.email, to=[s.email], subject_contains=c["number"],
                            body_contains=facts))
    return {"instruction": instruction, "office": office, "gold": gold, "checks": checks}


# ---- late payments -------------------------------------------------------------------------------------
@scenario("late-payments-review", ["excel", "email"])
def late_payments_review(w: World) -> dict:
    """Over a few days the Head of Finance asks for the supplier invoices paid after their due date last
    quarter (ledger-paid, with days late) in a workbook; a later message allows a week's grace and changes
    the order and the recipients."""
    fin = w.head_of("Finance")
    clerk = w.team("Finance")[-1]
    q, start, end = _last_quarter(w)
    late = [i for i in w.invoices if i.paid and start <= i.paid <= end and (i.paid - i.due).days > 7]
    late.sort(key=lambda i: (-(i.paid - i.due).days, i.number))
    book = f"data/finance/late_payments_Q{q}.xlsx"
    header = ["Invoice", "Supplier", "Due", "Paid on", "Days late"]
    rows = [[i.number, i.supplier, iso(i.due), iso(i.paid), (i.paid - i.due).days] for i in late]
    t = last_week(w)
    managers = [p for p in w.team("Finance") if p.role == "Finance Manager"]
    dialogue = [
        {"speaker": fin.name, "at": t(0, 10, 5),
         "text": f"Hi {w.user.first}, a supplier told me at the conference that we're slow payers. Could you list every "
                 f"supplier invoice we paid after its due date in Q{q}? Going by the date we actually paid it."},
        {"speaker": w.user.name, "at": t(0, 10, 31), "text": "Sure, a spreadsheet?"},
        {"speaker": fin.name, "at": t(0, 10, 44),
         "text": f"Yes, late_payments_Q{q}.xlsx in the finance folder. Columns Invoice, Supplier, Due, Paid on, Days "
                 "late (the days between the due date and the day we paid). Dates as YYYY-MM-DD, oldest due date "
                 f"first. Mail it to {managers[0].first} when it's done."},
        {"speaker": fin.name, "at": t(1, 16, 2), "text": "PS the team lunch is moved to Thursday, same place."},
        {"speaker": w.user.name, "at": t(1, 16, 10), "text": "Noted, thanks!"},
        {"speaker": fin.name, "at": t(3, 11, 27),
         "text": "Thinking about it, a few days over is normal — our suppliers give us a week's grace. Only list the "
                 "ones we paid more than 7 days after the due date. Sort them by days late, most first (same number "
                 f"of days: by invoice number). And send it to me instead, copying {clerk.name} in accounts payable."},
    ]
    instruction = "Please do the late payments list now, as we agreed above."
    gold = [switch("excel"), read_sheet(w.paths["invoices"]), read_sheet(w.paths["ledger"]),
            act("excel", "create_new_file", file_path=book)]
    written, checks = _table_by_cells(book, header, rows, "nothing below")
    gold += written
    gold += [switch("email"), send(w, [fin.email], f"Invoices paid late in Q{q}",
                                   f"Hi {fin.first},\n\nAttached are the invoices we paid more than a week after their "
                                   f"due date in Q{q}.\n\nBest,\n{w.user.first}", cc=[clerk.email], attachments=[book])]
    checks.append(check("email_sent", "sent to the head of finance", sender=w.user.email, to=[fin.email],
                        cc=[clerk.email], attachments=[book.rsplit("/", 1)[1]]))
    checks.append(check("email_not_sent", "not to the finance manager", sender=w.user.email, to=[managers[0].email]))
    return {"instruction": instruction, "dialogue": dialogue, "gold": gold, "checks": checks}


def _table_by_cells(book: str, header: list, rows: list[list], below: str) -> tuple[list[dict], list[dict]]:
    """A table written cell by cell into ``book`` (gold actions) and its checks: the header, each row
    named by its first value, and nothing under the last row (checkpoint ``below``)."""
    gold = [set_cell(book, 1, col, v) for col, v in enumerate(header, start=1)]
    checks = [check("xlsx_row", "header", file=book, row=1, values=header)]
    for r, values in enumerate(rows, start=2):
        gold += [set_cell(book, r, col, v) for col, v in enumerate(values, start=1)]
        checks.append(check("xlsx_row", f"row {values[0]}", file=book, row=r, values=values))
    checks.append(check("xlsx_cell", below, file=book, cell=f"A{len(rows) + 2}", value=None))
    return gold, checks
