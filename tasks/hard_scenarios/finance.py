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
    """Check every supplier invoice received since the start of last month against its order; hold and
    query those that bill more than ordered (an invoice billing less is not held)."""
    since = _first_of_previous_month(w.now.date())
    orders = {p.po: p for p in w.pos}
    recent = [i for i in w.invoices if i.issued >= since]
    over = [i for i in recent if i.amount > orders[i.po].amount + 0.005]
    clerk = w.team("Finance")[-1]
    sheet = w.paths["invoices"]
    instruction = (f"Before Friday's payment run, please check every supplier invoice we've received since "
                   f"{long_date(since)} against its purchase order. Our purchasing policy says an invoice that bills "
                   f"more than its order is held: put 'Held' in a new Status column of the supplier invoices sheet "
                   f"for each of those (leave the other rows blank) and send each supplier's account manager a query "
                   f"giving the invoice number, the amount we ordered and the amount invoiced. Copy {clerk.name} from "
                   f"accounts payable. If nothing needs holding, change nothing and tell me.")
    gold = [switch("excel"), read_sheet(sheet), read_sheet(w.paths["pos"]), read_sheet(w.paths["suppliers"]),
            switch("pdf")] + [read_pdf(i.pdf) for i in over if i.pdf]
    checks = []
    sends = []
    if over:
        gold += [switch("excel"), set_cell(sheet, 1, 8, "Status")]
        checks.append(check("xlsx_cell", file=sheet, cell="H1", value="Status"))
    for i in over:
        po = orders[i.po]
        sup = w.supplier(i.supplier)
        gold.append(set_cell(sheet, i.row, 8, "Held"))
        checks.append(check("xlsx_cell", f"held {i.number}", file=sheet, cell=f"H{i.row}", value="Held"))
        body = (f"Dear {sup.contact.split()[0]},\n\nWe have put your invoice {i.number} on hold: it bills "
                f"{money(i.amount)}, but our purchase order {i.po} was for {money(po.amount)}. Could you send a "
                f"corrected invoice or explain the difference?\n\nKind regards,\n{w.user.name}\n{w.company}")
        sends.append(send(w, [sup.email], f"Invoice {i.number} on hold", body, cc=[clerk.email]))
        checks.append(check("email_sent", f"queried {i.number}", sender=w.user.email, to=[sup.email],
                            cc=[clerk.email], body_contains=[i.number, money(po.amount), money(i.amount)],
                            lines=[[money(i.amount)], [money(po.amount)]]))
    task: dict = {"instruction": instruction, "checks": checks}
    if over:
        task["gold"] = gold + [switch("email")] + sends
    else:
        task["gold"] = gold
        task["answer"] = f"None of the {len(recent)} invoices received since {long_date(since)} bills more than its order."
        task["checks"] = [check("answer_contains", "told nothing to hold", text=["none"])]
        task["no_action"] = True
    return task


@scenario("overdue-invoices-digest", ["excel", "email", "word"])
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
    report = "data/finance/reports/overdue_invoices.docx"
    monday = datetime.combine(today - timedelta(days=today.weekday() + 3), datetime.min.time())
    dialogue = [
        {"speaker": fin.name, "at": (monday + timedelta(hours=9, minutes=12)).strftime("%Y-%m-%d %H:%M:%S"),
         "text": "Morning! Suppliers keep chasing us. Could you pull together every unpaid supplier invoice that is "
                 "past its due date? Send it to the whole finance team when it's ready."},
        {"speaker": w.user.name, "at": (monday + timedelta(hours=9, minutes=30)).strftime("%Y-%m-%d %H:%M:%S"),
         "text": "Sure — by supplier, with the amounts?"},
        {"speaker": fin.name, "at": (monday + timedelta(hours=9, minutes=41)).strftime("%Y-%m-%d %H:%M:%S"),
         "text": "Yes please. Put it in a Word document in the finance reports folder, overdue_invoices.docx."},
        {"speaker": fin.name, "at": (monday + timedelta(days=1, hours=13, minutes=5)).strftime("%Y-%m-%d %H:%M:%S"),
         "text": "Unrelated: the canteen has the lemon cake again, go before it's gone."},
        {"speaker": fin.name, "at": (monday + timedelta(days=2, hours=16, minutes=20)).strftime("%Y-%m-%d %H:%M:%S"),
         "text": f"Change of plan on the overdue list: send it only to me, copy {clerk.first}, and mark the ones the "
                 "supplier has already sent us a reminder about with '(reminder received)'. One line per invoice: "
                 "number, supplier, amount, due date. Total at the end."},
    ]
    instruction = "Please do the overdue invoices list we discussed, as agreed in the last message."
    lines = [f"{i.number} — {i.supplier} — {money(i.amount)} — due {long_date(i.due)}"
             + (" (reminder received)" if i in chased else "") for i in overdue]
    paragraphs = f"Unpaid supplier invoices past their due date, {long_date(today)}\n" + "\n".join(lines) + \
        f"\nTotal overdue: {money(total)}"
    gold = [switch("excel"), read_sheet(w.paths["invoices"]), switch("email"), act("email", "list_emails", username=w.user.email)]
    gold += [read_mail(w, m.id) for m in w.mails if m.kind == "reminder"][:12]
    gold += [switch("word"), act("word", "create_new_file", file_path=report),
             act("word", "write_to_file", file_path=report, contents=paragraphs),
             switch("email"),
             send(w, [fin.email], "Overdue supplier invoices", f"Hi {fin.first},\n\nAttached is the list of the "
                  f"{len(overdue)} unpaid invoices past their due date, {money(total)} in all; the ones suppliers "
                  f"have chased are marked.\n\nBest,\n{w.user.first}", cc=[clerk.email], attachments=[report])]
    checks = [check("contains", "listed every overdue invoice", file=report, text=[i.number for i in overdue] + [money(total)],
                    lines=[[i.number, money(i.amount), iso(i.due)] for i in overdue]),
              check("email_sent", "sent to the head of finance only", sender=w.user.email, to=[fin.email],
                    cc=[clerk.email], attachments=["overdue_invoices.docx"])]
    if chased:
        checks.insert(1, check("contains", "marked the chased ones", file=report, text=["reminder received"],
                               lines=[[i.number, "reminder received"] for i in chased]))
    not_chased = [i for i in overdue if i not in chased]
    if not_chased:
        checks.append(check("not_contains", file=report, text=[f"{i.number} (reminder received)" for i in not_chased]))
    return {"instruction": instruction, "dialogue": dialogue, "gold": gold, "checks": checks,
            "free": [report]}


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
         "text": f"Memo in the finance reports folder please, budget_review_Q{q}.docx, one line per overspent cost "
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
