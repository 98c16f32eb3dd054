"""Hard scenarios of finance: invoices held against orders, overdue bills, budget reviews."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from officesim.tasks.hard_scenarios._base import (act, check, iso, long_date, money, read_doc, read_mail, read_pdf,
                                                  read_sheet, scenario, send, set_cell, switch)
from officesim.testbed.worlds.model import World


def _first_of_previous_month(day: date) -> date:
    return date(day.year - (day.month == 1), (day.month - 2) % 12 + 1, 1)


@scenario("invoice-overbilled-hold", ["excel", "pdf", "email"])
def invoice_overbilled_hold(w: World) -> dict:
    """Check every unpaid supplier invoice received since the start of a month against its order; hold
    those that bill more than ordered (one billing less is not held; a paid one is past holding) and
    query each supplier once about all of its held invoices."""
    orders = {p.po: p for p in w.pos}
    since = _first_of_previous_month(w.now.date())
    while True:  # back month by month until the period holds at least two invoices to hold
        recent = [i for i in w.invoices if i.issued >= since and not i.paid]
        over = [i for i in recent if i.amount > orders[i.po].amount + 0.005]
        if len(over) >= 2 or since.month <= 4:
            break
        since = _first_of_previous_month(since)
    clerk = w.team("Finance")[-1]
    sheet = w.paths["invoices"]
    instruction = (f"Before Friday's payment run, please check every unpaid supplier invoice we've received since "
                   f"{long_date(since)} against its purchase order. Our purchasing policy says an invoice that bills "
                   f"more than its order is held: put 'Held' in a new Status column of the supplier invoices sheet "
                   f"for each of those (leave the other rows blank) and send each supplier concerned one query, to its "
                   f"account manager, giving for each held invoice the invoice number, the amount we ordered and the "
                   f"amount invoiced. Copy {clerk.name} from accounts payable. If nothing needs holding, change "
                   f"nothing and tell me.")
    gold = [switch("excel"), read_sheet(sheet), read_sheet(w.paths["pos"]), read_sheet(w.paths["suppliers"]),
            switch("pdf")] + [read_pdf(i.pdf) for i in over if i.pdf]
    if not over:
        return {"instruction": instruction, "gold": gold, "no_action": True,
                "answer": f"No unpaid invoice received since {long_date(since)} bills more than its order.",
                "checks": [check("answer_contains", "told nothing to hold", text=[["none", "nothing", "no unpaid", "no invoice", "not any"]])]}
    checks = [check("xlsx_cell", file=sheet, cell="H1", value="Status")]
    gold += [switch("excel"), set_cell(sheet, 1, 8, "Status")]
    for i in over:
        gold.append(set_cell(sheet, i.row, 8, "Held"))
        checks.append(check("xlsx_cell", f"held {i.number}", file=sheet, cell=f"H{i.row}", value="Held"))
    gold.append(switch("email"))
    for supplier in sorted({i.supplier for i in over}):
        sup = w.supplier(supplier)
        mine = [i for i in over if i.supplier == supplier]
        lines = [f"- {i.number}: our order {i.po} was for {money(orders[i.po].amount)}, the invoice bills "
                 f"{money(i.amount)} ({money(i.amount - orders[i.po].amount)} more)" for i in mine]
        body = (f"Dear {sup.contact.split()[0]},\n\nWe have put the following invoices on hold because they bill "
                f"more than our purchase orders:\n" + "\n".join(lines) + "\n\nCould you send corrected invoices or "
                f"explain the differences?\n\nKind regards,\n{w.user.name}\n{w.company}")
        gold.append(send(w, [sup.email], "Invoices on hold", body, cc=[clerk.email]))
        checks.append(check("email_sent", f"queried {supplier}", sender=w.user.email, to=[sup.email],
                            cc=[clerk.email], body_contains=[x for i in mine for x in
                                                             (i.number, money(orders[i.po].amount), money(i.amount))],
                            lines=[[i.number, money(i.amount)] for i in mine]))
    return {"instruction": instruction, "checks": checks, "gold": gold}


@scenario("overdue-invoices-digest", ["excel", "email"])
def overdue_invoices_digest(w: World) -> dict:
    """Over a few days' messages the Head of Finance asks for one digest of the unpaid invoices past their
    due date (suppliers chase some of them by mail); a later message narrows who receives it and what it
    must say."""
    fin = w.head_of("Finance")
    clerk = w.team("Finance")[-1]
    today = w.now.date()
    overdue = sorted([i for i in w.invoices if not i.paid and i.due < today], key=lambda i: (i.due, i.number))
    total = round(sum(i.amount for i in overdue), 2)
    reminded = {m.about for m in w.mails if m.kind == "reminder"}
    chased = [i for i in overdue if i.number in reminded]
    report = "data/finance/reports/overdue_invoices.xlsx"
    monday = datetime.combine(today - timedelta(days=today.weekday() + 3), datetime.min.time())
    dialogue = [
        {"speaker": fin.name, "at": (monday + timedelta(hours=9, minutes=12)).strftime("%Y-%m-%d %H:%M:%S"),
         "text": "Morning! Suppliers keep chasing us. Could you pull together every unpaid supplier invoice that is "
                 "past its due date? Send it to the whole finance team when it's ready."},
        {"speaker": w.user.name, "at": (monday + timedelta(hours=9, minutes=30)).strftime("%Y-%m-%d %H:%M:%S"),
         "text": "Sure — by supplier, with the amounts?"},
        {"speaker": fin.name, "at": (monday + timedelta(hours=9, minutes=41)).strftime("%Y-%m-%d %H:%M:%S"),
         "text": "Yes please. Put it in a workbook, overdue_invoices.xlsx, in a new reports folder inside the "
                 "finance folder."},
        {"speaker": fin.name, "at": (monday + timedelta(days=1, hours=13, minutes=5)).strftime("%Y-%m-%d %H:%M:%S"),
         "text": "Unrelated: the canteen has the lemon cake again, go before it's gone."},
        {"speaker": fin.name, "at": (monday + timedelta(days=2, hours=16, minutes=20)).strftime("%Y-%m-%d %H:%M:%S"),
         "text": f"Change of plan on the overdue list: send it only to me, copy {clerk.first}, and mark the ones the "
                 "supplier has already sent us a reminder about. Columns Invoice, Supplier, Amount, Due date, "
                 "Reminder (Yes or No), oldest due date first (then by invoice number), and a Total row at the "
                 "bottom with 'Total' in the first column and the sum under Amount."},
    ]
    instruction = "Please do the overdue invoices list we discussed, as agreed in the last message."
    rows = [["Invoice", "Supplier", "Amount", "Due date", "Reminder"]] + [
        [i.number, i.supplier, i.amount, iso(i.due), "Yes" if i in chased else "No"] for i in overdue] + [
        ["Total", None, total, None, None]]
    gold = [switch("excel"), read_sheet(w.paths["invoices"]), switch("email"), act("email", "list_emails", username=w.user.email)]
    gold += [read_mail(w, m.id) for m in w.mails if m.kind == "reminder"][:12]
    gold += [switch("excel"), act("excel", "create_new_file", file_path=report),
             act("excel", "write_rows", file_path=report, rows=rows),
             switch("email"),
             send(w, [fin.email], "Overdue supplier invoices", f"Hi {fin.first},\n\nAttached is the list of the "
                  f"{len(overdue)} unpaid invoices past their due date, {money(total)} in all; the ones suppliers "
                  f"have chased are marked.\n\nBest,\n{w.user.first}", cc=[clerk.email], attachments=[report])]
    checks = [check("xlsx_sheet_equals", "listed every overdue invoice", file=report, rows=rows),
              check("email_sent", "sent to the head of finance only", sender=w.user.email, to=[fin.email],
                    cc=[clerk.email], attachments=["overdue_invoices.xlsx"])]
    return {"instruction": instruction, "dialogue": dialogue, "gold": gold, "checks": checks}


def _spend(w: World, start: date, end: date) -> dict[str, float]:
    """Supplier spend per cost centre, counted on the ledger's payment date."""
    orders = {p.po: p for p in w.pos}
    team = {p.email: p.team for p in w.people}
    out: dict[str, float] = {}
    for i in w.invoices:
        if i.paid and start <= i.paid <= end:
            cc = w.cost_centres[team[orders[i.po].requester]]
            out[cc] = round(out.get(cc, 0.0) + i.amount, 2)
    return out


@scenario("budget-overrun-memo", ["excel", "word", "email"])
def budget_overrun_memo(w: World) -> dict:
    """Compare each cost centre's supplier spend in the last full quarter (ledger) with its budget, write a
    memo of the overspent ones, and mail it to the Head of Finance; one team is excluded by a later message."""
    fin = w.head_of("Finance")
    today = w.now.date()
    q = (today.month - 1) // 3  # the last full quarter
    year = today.year if q else today.year - 1
    q = q or 4
    start = date(year, 3 * (q - 1) + 1, 1)
    end = date(year + (q == 4), (3 * q) % 12 + 1, 1) - timedelta(days=1)
    spend = _spend(w, start, end)
    over_all = [(team, cc) for team, cc in w.cost_centres.items() if spend.get(cc, 0.0) > w.budgets[(cc, q)]]
    excluded = over_all[0][0] if len(over_all) > 1 else "People"
    over = [(t, cc) for t, cc in over_all if t != excluded]
    memo = f"data/finance/reports/budget_review_Q{q}.docx"
    monday = datetime.combine(today - timedelta(days=today.weekday() + 7), datetime.min.time())
    dialogue = [
        {"speaker": fin.name, "at": (monday + timedelta(days=1, hours=10)).strftime("%Y-%m-%d %H:%M:%S"),
         "text": f"Could you do the Q{q} budget review? Which cost centres spent more on suppliers than their Q{q} "
                 "budget — spend as paid in the ledger, not payroll or the office recharges."},
        {"speaker": fin.name, "at": (monday + timedelta(days=3, hours=15, minutes=30)).strftime("%Y-%m-%d %H:%M:%S"),
         "text": f"Memo in a new reports folder inside the finance folder please, budget_review_Q{q}.docx, one line per overspent cost "
                 "centre with the spend, the budget and the overspend."},
        {"speaker": fin.name, "at": (monday + timedelta(days=4, hours=11, minutes=2)).strftime("%Y-%m-%d %H:%M:%S"),
         "text": f"PS: leave {excluded} out of it, their overspend was approved in advance. Mail the memo to me."},
    ]
    instruction = "Can you finish the budget review now? Details are in the messages above."
    lines = [f"{cc} ({t}): spent {money(spend[cc])} against a budget of {money(w.budgets[(cc, q)])}, "
             f"overspent by {money(spend[cc] - w.budgets[(cc, q)])}" for t, cc in over]
    body = (f"Q{q} {year} budget review — supplier spend over budget\n" + ("\n".join(lines) if lines else
            "No cost centre spent more than its budget."))
    gold = [switch("excel"), read_sheet(w.paths["ledger"]), read_sheet(w.paths["budget"]),
            read_sheet(w.paths["directory"]), switch("word"), act("word", "create_new_file", file_path=memo),
            act("word", "write_to_file", file_path=memo, contents=body), switch("email"),
            send(w, [fin.email], f"Q{q} budget review", f"Hi {fin.first},\n\nThe Q{q} budget review is attached.\n\n"
                 f"Best,\n{w.user.first}", attachments=[memo])]
    checks = [check("email_sent", "memo mailed", sender=w.user.email, to=[fin.email],
                    attachments=[f"budget_review_Q{q}.docx"])]
    if over:
        checks.insert(0, check("contains", "overspent cost centres", file=memo, text=[cc for _t, cc in over],
                               lines=[[cc, money(spend[cc]), money(w.budgets[(cc, q)])] for _t, cc in over]))
    else:
        checks.insert(0, check("contains", "none overspent", file=memo, text=["no cost centre"]))
    others = [cc for t, cc in w.cost_centres.items() if (t, cc) not in over]
    checks.append(check("not_contains", "no other cost centre", file=memo, text=others))
    return {"instruction": instruction, "dialogue": dialogue, "gold": gold, "checks": checks, "free": [memo]}


def _next_friday(day: date) -> date:
    return day + timedelta(days=(4 - day.weekday()) % 7 or 7)


@scenario("payment-run-prepare", ["excel", "pdf", "email"])
def payment_run_prepare(w: World) -> dict:
    """Prepare Friday's payment run: every unpaid invoice due by Friday, each one we hold a PDF of checked
    against the invoice sheet first; one PDF disagrees with the sheet (a conflict to report, not pay)."""
    clerk = w.team("Finance")[-1]
    fin = w.head_of("Finance")
    friday = _next_friday(w.now.date())
    due = sorted([i for i in w.invoices if not i.paid and i.due <= friday], key=lambda i: (i.due, i.number))
    with_pdf = [i for i in due if i.pdf]
    odd = with_pdf[len(with_pdf) // 2]
    sup = w.supplier(odd.supplier)
    wrong_amount = round(odd.amount + 180.0, 2)
    overlay = [{"type": "pdf", "path": odd.pdf, "pages": [
        f"{sup.name.upper()}\nINVOICE {odd.number}\nTo: {w.company}, Accounts Payable\nIssued: {long_date(odd.issued)}\n"
        f"Your order: {odd.po}\nAmount due: {money(wrong_amount)}\nPayment due by: {long_date(odd.due)}\n"
        f"Payment terms: {sup.terms_days} days"]}]
    run = [i for i in due if i is not odd]
    total = round(sum(i.amount for i in run), 2)
    book = f"data/finance/payment_runs/payment_run_{iso(friday)}.xlsx"
    sheet = w.paths["invoices"]
    rows = [["Invoice", "Supplier", "Amount", "Due date"]] + [[i.number, i.supplier, i.amount, iso(i.due)] for i in run] \
        + [["Total", None, total, None]]
    instruction = (f"Could you prepare Friday's payment run ({long_date(friday)})? Every supplier invoice that is still "
                   f"unpaid and due by Friday goes in, overdue ones included. Before you add one, check the invoice "
                   f"PDF against our supplier invoices sheet where we have a PDF; if they disagree, leave that invoice "
                   f"out and tell me which one it is and why. Put the run in a new workbook, "
                   f"payment_runs/payment_run_{iso(friday)}.xlsx in the finance folder: columns Invoice, Supplier, "
                   f"Amount, Due date, oldest due date first (then by invoice number), and a Total row at the bottom "
                   f"with 'Total' in the first column. In the invoices sheet, put the run's date ({iso(friday)}) in a "
                   f"new 'Payment run' column for every invoice in the run. Then send the workbook to {clerk.first} "
                   f"for approval, copying {fin.first}.")
    gold = [switch("excel"), read_sheet(sheet), switch("pdf")] + [read_pdf(i.pdf) for i in with_pdf] + [
        switch("excel"), act("excel", "create_new_file", file_path=book),
        act("excel", "write_rows", file_path=book, rows=rows), set_cell(sheet, 1, 8, "Payment run")]
    gold += [set_cell(sheet, i.row, 8, iso(friday)) for i in run]
    gold += [switch("email"), send(w, [clerk.email], f"Payment run {long_date(friday)}",
                                   f"Hi {clerk.first},\n\nAttached is Friday's payment run. Please approve.\n\n"
                                   f"Thanks,\n{w.user.first}",
                                   cc=[fin.email], attachments=[book])]
    answer = (f"Payment run ready: {len(run)} invoices, {money(total)}. I left out invoice {odd.number} from "
              f"{odd.supplier}: its PDF says {money(wrong_amount)} but our invoice sheet says {money(odd.amount)}.")
    checks = [check("xlsx_sheet_equals", "run workbook", file=book, rows=rows),
              check("xlsx_cell", file=sheet, cell="H1", value="Payment run")]
    checks += [check("xlsx_cell", f"marked {i.number}" if k == 0 else None, file=sheet, cell=f"H{i.row}", value=iso(friday))
               for k, i in enumerate(run)]
    checks += [check("email_sent", "sent for approval", sender=w.user.email, to=[clerk.email], cc=[fin.email],
                     attachments=[f"payment_run_{iso(friday)}.xlsx"]),
               check("answer_contains", "reported the disagreeing invoice", text=[odd.number])]
    return {"instruction": instruction, "office": overlay, "gold": gold, "checks": checks, "answer": answer}


@scenario("recharges-missing", ["excel", "email"])
def recharges_missing(w: World) -> dict:
    """Find the office-space recharges missing from this year's ledger (every team, the 1st of every
    month, £1,250) and add them in the ledger's own pattern; tell Finance which were missing."""
    import random

    fin = w.head_of("Finance")
    ledger_path = w.paths["ledger"]
    original = next(f for f in w.files if f["path"] == ledger_path)["sheets"]["Ledger"]
    rng = random.Random(f"hard:recharges-missing:{w.name}")
    recharges = [r for r in original[1:] if str(r[1]).startswith("RENT-")]
    missing = sorted(rng.sample(recharges, 4), key=lambda r: (r[0], r[1]))
    kept = [original[0]] + [r for r in original[1:] if r not in missing]
    overlay = [{"type": "xlsx", "path": ledger_path, "sheets": {"Ledger": kept}}]
    instruction = (f"{fin.first} thinks some of this year's office space recharges never made it into the ledger. "
                   f"Every team is recharged on the 1st of each month; find the missing ones and add them at the "
                   f"bottom of the ledger, oldest first, written exactly like the existing recharge lines. Then mail "
                   f"{fin.first} the references you added.")
    start = len(kept) + 1
    gold = [switch("excel"), read_sheet(ledger_path), read_sheet(w.paths["budget"]),
            act("excel", "write_rows", file_path=ledger_path, rows=[list(r) for r in missing], row_idx=start)]
    gold += [switch("email"), send(w, [fin.email], "Missing office space recharges",
                                   f"Hi {fin.first},\n\nThese recharges were missing from the ledger and are now added:\n"
                                   + "\n".join(f"- {r[1]}" for r in missing)
                                   + f"\n\nBest,\n{w.user.first}")]
    checks = [check("xlsx_row", f"added {r[1]}", file=ledger_path, row=start + k, values=list(r))
              for k, r in enumerate(missing)]
    checks.append(check("email_sent", "told finance", sender=w.user.email, to=[fin.email],
                        body_contains=[r[1] for r in missing]))
    return {"instruction": instruction, "office": overlay, "gold": gold, "checks": checks}


@scenario("supplier-spend-ranking", ["excel", "pdf", "email"])
def supplier_spend_ranking(w: World) -> dict:
    """Rank the suppliers by what they invoiced this year, the top five beside their contract's annual
    value (from the contract PDFs), into a new workbook mailed to the heads of finance and purchasing."""
    fin, buy = w.head_of("Finance"), w.head_of("Purchasing")
    spend: dict[str, float] = {}
    for i in w.invoices:
        if i.issued.year == w.now.year:
            spend[i.supplier] = round(spend.get(i.supplier, 0.0) + i.amount, 2)
    top = sorted(spend.items(), key=lambda kv: -kv[1])[:5]
    contracts = {c.party: c for c in w.contracts if c.kind == "Supplier"}
    book = "data/purchasing/supplier_spend_ranking.xlsx"
    rows = [["Rank", "Supplier", "Invoiced this year", "Contract annual value"]] + [
        [k + 1, s, amount, contracts[s].annual_value] for k, (s, amount) in enumerate(top)]
    instruction = (f"For the supplier review I need our five biggest suppliers this year by the amount they have "
                   f"invoiced us (every invoice issued this year, paid or not). Make a workbook "
                   f"supplier_spend_ranking.xlsx in the purchasing folder with the columns Rank, Supplier, Invoiced "
                   f"this year, Contract annual value — the annual value as the supplier's contract document states "
                   f"it — biggest first, and send it to {fin.first} and {buy.first}.")
    gold = [switch("excel"), read_sheet(w.paths["invoices"]), read_sheet(w.paths["contracts"]), switch("pdf")]
    gold += [read_pdf(f"data/legal/contracts/{contracts[s].ref}.pdf") for s, _a in top]
    gold += [switch("excel"), act("excel", "create_new_file", file_path=book),
             act("excel", "write_rows", file_path=book, rows=rows), switch("email"),
             send(w, [fin.email, buy.email], "Top five suppliers this year",
                  f"Hi both,\n\nAttached is the ranking of our five biggest suppliers this year with their contract "
                  f"values.\n\nBest,\n{w.user.first}", attachments=[book])]
    checks = [check("xlsx_sheet_equals", "ranking", file=book, rows=rows),
              check("email_sent", "sent", sender=w.user.email, to=[fin.email, buy.email],
                    attachments=["supplier_spend_ranking.xlsx"])]
    return {"instruction": instruction, "gold": gold, "checks": checks}
