"""Hard scenarios of sign-off: requests that each need several records read before one word is given."""

from __future__ import annotations

import random
from datetime import date, timedelta

from officesim.tasks.hard_scenarios._base import (act, at, check, iso, list_mail, money, read_doc, read_mail,
                                                  read_sheet, scenario, send, set_cell, switch, trigger_mail,
                                                  working_days_back)
from officesim.testbed.worlds.model import PurchaseOrder, Supplier, World

_HOLD = ["held", "on hold", "hold", "holding", "withheld", "withholding", "not approving", "not approved",
         "can't approve", "cannot approve", "won't approve"]



@scenario("invoice-approvals", ["word", "excel", "email"])
def invoice_approvals(w: World) -> dict:
    """Accounts payable asks the user to approve eight new invoices. The approval procedure in force (an
    older version is a distractor) decides each: only invoices for orders the user's own reports raised
    are the user's to approve (one is for an order the user raised, one for another team's order: each
    goes to the right line manager instead); an undelivered order or an invoice above its order is held;
    a supplier that changed its bank details in the last 60 days is held until accounts payable confirms
    by phone (an older change, outside the window, is not); an invoice at or above the threshold is
    approved with the Head of Finance copied; one request is withdrawn by a later mail."""
    rng = random.Random(f"world:{w.name}:invoice-approvals")
    me, today = w.user, w.now.date()
    clerk, fin = w.team("Finance")[-1], w.head_of("Finance")
    boss = w.person(me.manager)
    reports = sorted([p for p in w.people if p.manager == me.email], key=lambda p: p.row)
    outsider = next(p for p in sorted(w.people, key=lambda p: p.row)
                    if p.manager and p.manager not in (me.email, me.manager) and p.email != me.email
                    and p.team not in (me.team, "Finance") and w.person(p.manager).team == p.team)
    suppliers = sorted(w.suppliers, key=lambda s: (rng.random(), s.name))[:8]
    prefixes = {i.supplier: i.number.split("-")[0] for i in w.invoices}
    items = {s.name: sorted({p.item for p in w.pos if p.supplier == s.name}) for s in suppliers}
    suppliers = [s for s in suppliers if s.name in prefixes and items[s.name]]
    assert len(suppliers) >= 8 or len(w.suppliers) < 8, "each supplier needs invoices and orders to copy"
    # (role, raised by, PO amount, invoice amount, delivered): a is approved, b approved over the threshold,
    # c bills over its order, d is not delivered, e's supplier changed bank details 3 weeks ago, f is another
    # team's order, g the user's own, h withdrawn
    amounts = [round(rng.uniform(300, 2400), 2) for _ in range(8)]
    big = round(rng.uniform(7200, 9400), 2)
    threshold = 5000
    plan = {
        "a": (reports[0], amounts[0], amounts[0], True),
        "b": (reports[1 % len(reports)], big, big, True),
        "c": (reports[2 % len(reports)], amounts[2], round(amounts[2] + rng.choice([64.80, 118.25, 212.40]), 2), True),
        "d": (reports[3 % len(reports)], amounts[3], amounts[3], False),
        "e": (reports[0], amounts[4], amounts[4], True),
        "f": (outsider, amounts[5], amounts[5], True),
        "g": (me, amounts[6], amounts[6], True),
        "h": (reports[1 % len(reports)], amounts[7], amounts[7], True),
    }
    po_no = max(int(p.po.split("-")[1]) for p in w.pos)
    inv_no = max(int(i.number.split("-")[-1]) for i in w.invoices)
    pos: dict[str, PurchaseOrder] = {}
    invoices: dict[str, tuple[str, Supplier, float, date]] = {}
    for k, (role, (who, po_amount, billed, delivered)) in enumerate(plan.items()):
        s = suppliers[k]
        ordered = today - timedelta(days=34 - 2 * k)
        promised = ordered + timedelta(days=14)
        pos[role] = PurchaseOrder(po=f"PO-{po_no + 1 + k}", supplier=s.name, requester=who.email, ordered=ordered,
                                  item=items[s.name][k % len(items[s.name])], amount=po_amount, promised=promised,
                                  delivered=promised - timedelta(days=1) if delivered else None,
                                  status="Delivered" if delivered else "Open")
        issued = (promised if delivered else promised - timedelta(days=3))
        invoices[role] = (f"{prefixes[s.name]}-{issued:%y%m}-{inv_no + 1 + k:04d}", s, billed, issued)
    # the purchase orders and invoices sheets, with the new rows
    def grown(path: str, new_rows: list[list]) -> tuple[dict, int]:
        f = next(f for f in w.files if f["path"] == path)
        name, rows = next(iter(f["sheets"].items()))
        rows = [list(r) for r in rows]
        first = len(rows) + 1
        return {"type": "xlsx", "path": path, "sheets": {name: rows + new_rows}}, first

    po_sheet, po_first = grown(w.paths["pos"], [
        [p.po, p.supplier, w.person(p.requester).name, iso(p.ordered), p.item, p.amount, iso(p.promised),
         iso(p.delivered) if p.delivered else None, p.status] for p in pos.values()])
    inv_rows = []
    for role, (number, s, billed, issued) in invoices.items():
        inv_rows.append([number, s.name, pos[role].po, iso(issued), billed,
                         iso(issued + timedelta(days=s.terms_days)), None])
    inv_sheet, inv_first = grown(w.paths["invoices"], inv_rows)
    row_of = {role: inv_first + k for k, role in enumerate(invoices)}
    # the procedure in force and the one it replaced
    doc = "data/policies/invoice_approval_procedure.docx"
    old = "data/policies/archive/invoice_approval_procedure_2023.docx"
    office: list[dict] = [po_sheet, inv_sheet, {"type": "docx", "path": doc, "paragraphs": [
        f"{w.company} — Approving supplier invoices (version 3, in force from 1 March 2026)",
        "1. An invoice is approved by the line manager of the person who raised its purchase order (the "
        "'Requested by' column). Nobody approves an invoice for an order they raised themselves: that one goes "
        "to their own line manager.",
        "2. If you are asked to approve an invoice that is not yours under rule 1, do not approve or hold it: "
        "reply to accounts payable naming the manager who should approve it, and leave its Approval cell empty.",
        "3. Hold an invoice whose purchase order is not yet delivered, or that bills more than its purchase "
        "order's amount.",
        "4. If the supplier has told us of a change of bank details in the last 60 days, hold the invoice and "
        "ask accounts payable to confirm the new details by phone, on the number we already hold, before it is "
        "paid.",
        f"5. Approve an invoice of {money(threshold)} or more as usual, but copy the Head of Finance into "
        "your approval.",
        "6. Record every decision in the Approval column of the supplier invoices sheet: Approved or Held, "
        "nothing else. Answer accounts payable's request with the decision and, for a held invoice, the reason."]},
        {"type": "docx", "path": old, "paragraphs": [
            f"{w.company} — Approving supplier invoices (version 2, 2023; replaced by version 3)",
            "1. Any manager may approve an invoice up to £10,000.",
            "2. Invoices above £10,000 need the Head of Finance's approval."]}]
    # accounts payable's requests, the withdrawal, and the suppliers' bank notices
    first_day = working_days_back(today, 6)
    mids = {}
    for k, role in enumerate(invoices):
        number, s, billed, _issued = invoices[role]
        day = first_day + timedelta(days=k // 3 * 2)
        when = at(day, 9 + k % 3 * 2, 10 + 7 * k)
        mid = f"msg-{980 + k}"
        mids[role] = mid
        office.append(trigger_mail(
            w, clerk.email, when, f"Approval needed: invoice {number}",
            f"Hi {me.first},\n\nCould you approve invoice {number} from {s.name}, {money(billed)}, for purchase "
            f"order {pos[role].po}? The PDF is with accounts payable if you need it.\n\nThanks,\n{clerk.first}",
            mail_id=mid))
    h_number = invoices["h"][0]
    withdrawn_at = at(working_days_back(today, 1), 16, 40)
    office.append(trigger_mail(
        w, clerk.email, withdrawn_at, f"Re: Approval needed: invoice {h_number}",
        f"Hi {me.first},\n\nPlease ignore my request about {h_number}: {invoices['h'][1].name} sent it by mistake and "
        f"has cancelled it. Nothing to approve there.\n\nThanks,\n{clerk.first}", mail_id="msg-988"))
    e_sup, a_sup = invoices["e"][1], invoices["a"][1]
    office.append(trigger_mail(
        w, e_sup.email, at(today - timedelta(days=21), 11, 5), "Change of bank details",
        f"Dear {me.first},\n\nPlease note that our bank account has changed. "
        f"New sort code 20-{rng.randrange(10, 99)}-{rng.randrange(10, 99)}, account {rng.randrange(10**7, 10**8)}. "
        f"Please update your records for all future payments.\n\nKind regards,\n{e_sup.contact}\n{e_sup.name}",
        mail_id="msg-989"))
    office.append(trigger_mail(
        w, a_sup.email, at(today - timedelta(days=150), 10, 20), "New bank details",
        f"Dear {me.first},\n\nWe have moved our banking: new sort code 40-{rng.randrange(10, 99)}-"
        f"{rng.randrange(10, 99)}, account {rng.randrange(10**7, 10**8)}, from next month.\n\nKind regards,\n"
        f"{a_sup.contact}\n{a_sup.name}", mail_id="msg-990"))
    instruction = ("Accounts payable have sent me a pile of invoice approval requests over the last week or so. "
                   "Could you deal with them under our invoice approval procedure?")
    # the gold
    sheet = w.paths["invoices"]
    gold = [switch("word"), read_doc(doc), switch("email"), list_mail(w)]
    gold += [read_mail(w, mids[r]) for r in invoices] + [read_mail(w, "msg-988"), read_mail(w, "msg-989"),
                                                         read_mail(w, "msg-990")]
    gold += [switch("excel"), read_sheet(w.paths["pos"]), read_sheet(w.paths["directory"]), read_sheet(sheet),
             set_cell(sheet, 1, 8, "Approval")]
    decision = {"a": "Approved", "b": "Approved", "c": "Held", "d": "Held", "e": "Held"}
    gold += [set_cell(sheet, row_of[r], 8, d) for r, d in decision.items()]
    approver = {"f": w.person(outsider.manager), "g": boss}
    reasons = {
        "c": (f"it bills {money(invoices['c'][2])}, more than the {money(pos['c'].amount)} of purchase order "
              f"{pos['c'].po}", [["more than", "over", "exceeds", "exceeding", "above", "higher than", money(invoices["c"][2])]]),
        "d": (f"purchase order {pos['d'].po} has not been delivered yet",
              [["not delivered", "not been delivered", "not yet delivered", "not yet been delivered", "undelivered",
                "still open", "not arrived", "not yet arrived", "hasn't arrived", "has not arrived",
                "hasn't been delivered", "has not been delivered", "awaiting delivery", "no delivery",
                "not received", "not been received", "not yet received"]]),
        "e": (f"{e_sup.name} told us three weeks ago that its bank details have "
              f"changed. Could you confirm the new details with them by phone, on the number we already hold, "
              f"before it is paid?", [["bank", "sort code", "account number", "account details", "payment details"]]),
    }
    texts = {}
    for r in invoices:
        number = invoices[r][0]
        if r in ("a", "b"):
            texts[r] = f"{number} is approved."
        elif r in reasons:
            texts[r] = f"{number} is held: {reasons[r][0]}"
        elif r in approver:
            who = "another team's" if r == "f" else "my own"
            texts[r] = (f"{number} is not mine to approve: it is for {who} order ({pos[r].po}, raised by "
                        f"{w.person(pos[r].requester).name}), so {approver[r].name} should sign it off.")
    gold.append(switch("email"))
    checks = [check("xlsx_cell", "Approval column added", file=sheet, cell="H1", value="Approval")]
    for r in ("a", "b", "c", "d", "e"):
        checks.append(check("xlsx_cell", f"{invoices[r][0]} {decision[r].lower()}", file=sheet,
                            cell=f"H{row_of[r]}", value=decision[r]))
    column = [None] * (inv_first - 2) + [decision.get(r) for r in invoices]
    checks.append(check("column_values", "no other invoice decided", file=sheet, column="H",
                        values=column))
    for r in ("a", "b", "c", "d", "e", "f", "g"):
        number = invoices[r][0]
        body = f"Hi {clerk.first},\n\n{texts[r]}\n\nThanks,\n{me.first}"
        if r == "b":  # a reply cannot copy anyone in: a new mail to accounts payable does
            gold.append(send(w, [clerk.email], f"Re: Approval needed: invoice {number}",
                             body.replace("is approved.", f"is approved (copying {fin.first}, as it is over "
                                                          f"{money(threshold)})."), cc=[fin.email]))
        else:
            gold.append(act("email", "reply_email", username=me.email, email_id=mids[r], content=body))
        if r in ("a", "b"):
            facts = [number, ["approved", "approve"]]
        elif r in reasons:
            facts = [number, _HOLD] + reasons[r][1]
        else:
            facts = [number, approver[r].name]
        extra = {"cc": [fin.email]} if r == "b" else {}
        checks.append(check("email_sent", f"answered {number}", sender=me.email, to=[clerk.email],
                            subject_contains=number, body_contains=facts, **extra))
    replies = []
    return {"instruction": instruction, "office": office, "gold": gold, "checks": checks,
            "user_replies": replies}
