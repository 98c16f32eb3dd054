"""Hard scenarios of contracts: notice deadlines, automatic renewals, spend against contract value."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from officesim.tasks.hard_scenarios._base import (act, check, iso, list_events, long_date, money, read_pdf, read_sheet,
                                                  scenario, send, set_cell, switch, create_event)
from officesim.testbed.worlds.model import Contract, World


def notice_deadline(c: Contract) -> date:
    """The last day written notice can be given: the expiry less the notice period."""
    return c.end - timedelta(days=c.notice_days)


def working_day_on_or_before(day: date) -> date:
    while day.weekday() >= 5:
        day -= timedelta(days=1)
    return day


def _pdf(c: Contract) -> str:
    return f"data/legal/contracts/{c.ref}.pdf"


# a contract checked and left out may be reported as such ("just under its line, so I haven't flagged it")
_NOT_LISTED = ["flagged", "flag", "included", "include", "listed", "on the list", "affected"]


@scenario("contract-notice-deadlines", ["excel", "calendar", "email"])
def contract_notice_deadlines(w: World) -> dict:
    """Find every contract whose notice deadline (expiry less the notice period) falls in the next 120-180 days;
    record the deadline in the register, put a reminder in the user's calendar on it (the Friday before when
    it is a weekend), tell each owner about their contracts and send the General Counsel the whole list."""
    today = w.now.date()
    for days in (120, 150, 180):  # a horizon that gives each world a real list
        horizon = today + timedelta(days=days)
        due = sorted([c for c in w.contracts if today <= notice_deadline(c) <= horizon],
                     key=lambda c: (notice_deadline(c), c.ref))
        if len(due) >= 6:
            break
    gc = w.head_of("Legal")
    reg = w.paths["contracts"]
    instruction = (
        "Legal have asked every department to stop missing contract notice deadlines. Please go through our "
        "contracts register and find every contract whose notice deadline — the last day we can give written "
        f"notice, i.e. the expiry date less the notice period in the contract — falls between today and {days} days "
        "from today. For each of them:\n"
        "1. add the deadline to the register, in a new column headed 'Notice by' right after the last column "
        "(date as YYYY-MM-DD; leave the other rows empty);\n"
        "2. put a 30-minute reminder in my calendar at 9:00 on the deadline day — or on the Friday before if the "
        "deadline falls on a weekend — titled 'Notice deadline: <party>';\n"
        "3. email the contract's owner about it (one email per contract, so they can file it with the contract) "
        "with the reference, the party, the expiry date and the notice deadline.\n"
        f"Finally send {gc.name}, our {gc.role}, one email listing them all in deadline order, with the same details "
        "and the owner's name. Deadlines that have already passed are not part of this.")
    gold = [switch("excel"), read_sheet(reg), read_sheet(w.paths["directory"]), set_cell(reg, 1, 10, "Notice by")]
    checks = []
    checks.append(check("xlsx_cell", "register column", file=reg, cell="J1", value="Notice by"))
    for c in due:
        gold.append(set_cell(reg, c.row, 10, iso(notice_deadline(c))))
        checks.append(check("xlsx_cell", f"register {c.ref}", file=reg, cell=f"J{c.row}", value=iso(notice_deadline(c))))
    gold += [switch("calendar"), list_events(w)]
    for c in due:
        day = working_day_on_or_before(notice_deadline(c))
        start = datetime.combine(day, time(9, 0))
        gold.append(create_event(w, f"Notice deadline: {c.party}", start, start + timedelta(minutes=30)))
        checks.append(check("ics_event", f"reminder {c.ref}", user=w.user.email, summary=f"Notice deadline: {c.party}",
                            start=start.strftime("%Y-%m-%d %H:%M:%S"),
                            end=(start + timedelta(minutes=30)).strftime("%Y-%m-%d %H:%M:%S")))
    gold.append(switch("email"))
    for c0 in due:
        owner, cs = c0.owner, [c0]
        p = w.person(owner)
        lines = [f"- {c.ref}, {c.party}: expires {long_date(c.end)}, notice must be given by {long_date(notice_deadline(c))}"
                 for c in cs]
        body = (f"Hi {p.first},\n\nA reminder from the contracts register: the notice deadline of "
                + ("this contract" if len(cs) == 1 else "these contracts") + " you own is coming up:\n"
                + "\n".join(lines) + f"\n\nPlease decide in time whether we renew or give notice.\n\nBest regards,\n{w.user.name}")
        gold.append(send(w, [owner], f"Notice deadline of {c0.ref} ({c0.party})", body))
        checks.append(check("email_sent", f"told {p.name} about {c0.ref}", sender=w.user.email, to=[owner],
                            body_contains=[x for c in cs for x in (c.ref, iso(c.end), iso(notice_deadline(c)))]))
    name = {p.email: p.name for p in w.people}
    lines = [f"- {c.ref}, {c.party} ({name[c.owner]}): expires {long_date(c.end)}, notice by "
             f"{long_date(notice_deadline(c))}" for c in due]
    body = (f"Dear {gc.first},\n\nThese contracts reach their notice deadline soon, in deadline order:\n"
            + "\n".join(lines) + f"\n\nEach owner has been told, and the deadlines are in the register.\n\n"
            f"Best regards,\n{w.user.name}")
    gold.append(send(w, [gc.email], "Upcoming contract notice deadlines", body))
    checks.append(check("email_sent", "list for the General Counsel", sender=w.user.email, to=[gc.email],
                        body_contains=[c.ref for c in due],
                        body_excludes=[c.ref for c in w.contracts if c not in due],
                        excludes_denied=_NOT_LISTED + ["due", "yet due", "close", "near"],
                        lines=[[c.ref, name[c.owner], iso(c.end), iso(notice_deadline(c))] for c in due]))
    others = [c for c in w.contracts if c not in due]
    checks.append(check("mailbox_not_contains", "no other contract", user=gc.email, text=[c.ref for c in others]))
    return {"instruction": instruction, "gold": gold, "checks": checks}


def _months_ahead(day: date, months: int) -> date:
    m = day.month - 1 + months
    y, m = day.year + m // 12, m % 12 + 1
    last = (date(y + (m == 12), m % 12 + 1, 1) - timedelta(days=1)).day
    return date(y, m, min(day.day, last))


@scenario("auto-renewal-review", ["excel", "pdf", "email"])
def auto_renewal_review(w: World) -> dict:
    """Over a few days the General Counsel asks for a sheet of the contracts that renew automatically and
    expire in the next six months above a value threshold (a later message lowers the threshold and adds a
    column: can notice still be given), mailed to them with each owner copied."""
    gc = w.head_of("Legal")
    today = w.now.date()
    until = _months_ahead(today, 6)
    first_limit, limit = 50000, 30000
    rows = sorted([c for c in w.contracts if c.auto_renew and today <= c.end <= until and c.annual_value >= limit],
                  key=lambda c: (c.end, c.ref))
    out = "data/legal/auto_renewals.xlsx"
    monday = datetime.combine(today - timedelta(days=7), time(0, 0))
    at = lambda d, h, m: (monday + timedelta(days=d, hours=h, minutes=m)).strftime("%Y-%m-%d %H:%M:%S")  # noqa: E731
    header = ["Ref", "Party", "Owner", "Expires", "Annual value", "Notice by"]
    dialogue = [
        {"speaker": gc.name, "at": at(0, 9, 40),
         "text": f"Hi {w.user.first} — the auditors want to see which of our contracts renew automatically without "
                 "anyone deciding. Could you list every contract that renews automatically and expires in the next "
                 f"six months, worth £{first_limit:,} a year or more?"},
        {"speaker": w.user.name, "at": at(0, 10, 2), "text": "Sure. Spreadsheet or a memo?"},
        {"speaker": gc.name, "at": at(0, 10, 15),
         "text": "A spreadsheet in the legal data folder, auto_renewals.xlsx, one row per contract, soonest expiry "
                 "first. Columns: Ref, Party, Owner, Expires, Annual value, Notice by (the expiry less the notice "
                 "period). Dates as YYYY-MM-DD, the owner's full name."},
        {"speaker": gc.name, "at": at(2, 12, 31),
         "text": "Totally unrelated, has anyone seen my blue umbrella? I think I left it near the lifts."},
        {"speaker": w.user.name, "at": at(2, 12, 40), "text": "Facilities have a lost-property box, try there!"},
        {"speaker": gc.name, "at": at(3, 16, 5),
         "text": f"About the renewals list: make the threshold £{limit:,} instead, I'd rather see too many. And add "
                 "a last column, 'Notice possible', Yes if the notice deadline is today or later, No if it has "
                 "already passed. Rows on the first sheet, header in row 1. When it's done, email it to me and copy "
                 "each contract's owner. Please check the renewal clause in the signed PDFs, the register has been "
                 "wrong before."},
    ]
    header.append("Notice possible")
    instruction = "Could you finish the auto-renewals list for Legal now? Everything we agreed is in the messages above."
    name = {p.email: p.name for p in w.people}
    table = [header] + [[c.ref, c.party, name[c.owner], iso(c.end), c.annual_value, iso(notice_deadline(c)),
                         "Yes" if notice_deadline(c) >= today else "No"] for c in rows]
    candidates = [c for c in w.contracts if c.auto_renew and today <= c.end <= until]
    gold = [switch("excel"), read_sheet(w.paths["contracts"]), switch("pdf")]
    gold += [read_pdf(_pdf(c)) for c in candidates]
    gold += [switch("excel"), act("excel", "create_new_file", file_path=out)]
    checks = []
    for r, values in enumerate(table, start=1):
        for col, v in enumerate(values, start=1):
            gold.append(set_cell(out, r, col, v))
    letters = "ABCDEFG"
    for col, v in enumerate(header):
        checks.append(check("xlsx_cell", "header" if col == 0 else None, file=out, cell=f"{letters[col]}1", value=v))
    for r, values in enumerate(table[1:], start=2):
        c = rows[r - 2]
        for col, v in enumerate(values):
            checks.append(check("xlsx_cell", f"row {c.ref}" if col == 0 else None, file=out,
                                cell=f"{letters[col]}{r}", value=v))
    checks.append(check("xlsx_cell", "no extra row", file=out, cell=f"A{len(table) + 1}", value=None))
    cc = sorted({c.owner for c in rows} - {gc.email, w.user.email})
    body = (f"Dear {gc.first},\n\nAttached is the list of the contracts that renew automatically and expire in the "
            "next six months, as you asked. The owners are copied.\n\nBest regards,\n" + w.user.name)
    gold += [switch("email"), send(w, [gc.email], "Contracts that renew automatically", body, cc=cc or None,
                                   attachments=[out])]
    checks.append(check("email_sent", "mailed to the General Counsel", sender=w.user.email, to=[gc.email],
                        cc=cc, attachments=["auto_renewals.xlsx"]))
    return {"instruction": instruction, "dialogue": dialogue, "gold": gold, "checks": checks}


@scenario("contract-spend-check", ["excel", "email", "pdf"])
def contract_spend_check(w: World) -> dict:
    """Total each supplier's invoices this year into the contracts register beside its contract, and flag the
    suppliers invoiced more than one and a half times their contract's annual value: the Head of Purchasing
    gets the list, each contract owner a note."""
    reg = w.paths["contracts"]
    head = w.head_of("Purchasing")
    totals = {c.ref: round(sum(i.amount for i in w.invoices if i.supplier == c.party), 2)
              for c in w.contracts if c.kind == "Supplier"}
    sup = sorted([c for c in w.contracts if c.kind == "Supplier"], key=lambda c: c.row)
    over = [c for c in sup if totals[c.ref] > 1.5 * c.annual_value]
    instruction = (
        f"{head.first} ({head.role}) thinks some suppliers are billing us far beyond what their contracts were "
        "signed for. Please add up everything each supplier has invoiced us this year (the supplier invoices "
        "sheet, by invoice amount, paid or not) and put the total in the contracts register, in a new column "
        "headed 'Invoiced 2026' right after the last column, on each supplier contract's row (customer contracts "
        "stay empty), to the penny. Every supplier invoiced more than one and a half times its contract's annual "
        "value is over the line: check the annual value in the signed contract PDF of each of those, then email "
        f"{head.first} one list of them (the supplier, the contract reference, the annual value and the amount "
        "invoiced) and send the owner of each of those contracts a short note (one per contract) with the same "
        "figures for it.")
    gold = [switch("excel"), read_sheet(reg), read_sheet(w.paths["invoices"]), read_sheet(w.paths["directory"]),
            set_cell(reg, 1, 10, "Invoiced 2026")]
    checks = [check("xlsx_cell", "register column", file=reg, cell="J1", value="Invoiced 2026")]
    for c in sup:
        gold.append(set_cell(reg, c.row, 10, totals[c.ref]))
        checks.append(check("xlsx_cell", f"total {c.party}", file=reg, cell=f"J{c.row}", value=totals[c.ref]))
    gold += [switch("pdf")] + [read_pdf(_pdf(c)) for c in over] + [switch("email")]
    lines = [f"- {c.party} ({c.ref}): annual value {money(c.annual_value)}, invoiced {money(totals[c.ref])}"
             for c in over]
    gold.append(send(w, [head.email], "Suppliers invoiced beyond their contract value",
                     f"Hi {head.first},\n\nThese suppliers have invoiced us more than one and a half times their "
                     f"contract's annual value this year:\n" + "\n".join(lines) + f"\n\nBest regards,\n{w.user.name}"))
    checks.append(check("email_sent", "list to purchasing", sender=w.user.email, to=[head.email],
                        body_contains=[c.ref for c in over],
                        body_excludes=[c.ref for c in sup if c not in over],
                        excludes_denied=_NOT_LISTED + ["over", "above", "beyond", "exceed", "exceeded", "exceeding",
                                                       "more than", "past"],
                        lines=[[c.ref, money(c.annual_value), money(totals[c.ref])] for c in over]))
    for c in over:
        owner = w.person(c.owner)
        if owner.email in (w.user.email, head.email):
            continue
        gold.append(send(w, [owner.email], f"{c.ref}: invoicing above the contract value",
                         f"Hi {owner.first},\n\n{c.party} has invoiced us {money(totals[c.ref])} so far this year "
                         f"under {c.ref}, whose annual value is {money(c.annual_value)}. You may want to look at "
                         f"it.\n\nBest regards,\n{w.user.name}"))
        checks.append(check("email_sent", f"note to the owner of {c.ref}", sender=w.user.email, to=[owner.email],
                            body_contains=[c.ref, money(totals[c.ref])],
                            lines=[[money(c.annual_value)], [money(totals[c.ref])]]))
    return {"instruction": instruction, "gold": gold, "checks": checks}
