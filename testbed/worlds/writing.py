"""Write a world's records as an office: spreadsheets, documents, PDFs, scans, mail and a calendar.

Files are FORMAT §4 builder dicts, so a world is built by the same builders as every task's office.
"""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta

from officesim.testbed.worlds import vocab
from officesim.testbed.worlds.model import Event, Mail, World

T = "%Y-%m-%d %H:%M:%S"


def _at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute))


def _dm(day: date) -> str:
    return f"{day.day} {day:%B %Y}"


def _money(x: float) -> str:
    return f"£{x:,.2f}"


# ---- spreadsheets and documents ------------------------------------------------------------------
def _sheets(w: World) -> None:
    name = {p.email: p.name for p in w.people}
    P = w.paths
    P.update(directory="data/people/staff_directory.xlsx", leave="data/people/leave_2026.xlsx",
             suppliers="data/purchasing/suppliers.xlsx", pos="data/purchasing/purchase_orders_2026.xlsx",
             invoices="data/finance/supplier_invoices_2026.xlsx", budget="data/finance/budget_2026.xlsx",
             sales="data/sales/orders_2026.xlsx", customers="data/sales/customers.xlsx",
             contracts="data/legal/contracts_register.xlsx", expenses="data/finance/expense_claims_2026.xlsx",
             ledger="data/finance/ledger_2026.xlsx")
    f = w.files
    f.append({"type": "xlsx", "path": P["directory"], "sheets": {"Staff": [
        ["Name", "Email", "Team", "Role", "Manager", "Location", "Phone", "Start date"]] + [
        [p.name, p.email, p.team, p.role, name.get(p.manager or "", ""), p.location, p.phone, p.start.isoformat()]
        for p in w.people]}})
    f.append({"type": "xlsx", "path": P["leave"], "sheets": {"Leave": [
        ["Name", "Email", "From", "To", "Type", "Status"]] + [
        [name[l.person], l.person, l.start.isoformat(), l.end.isoformat(), l.kind, l.status] for l in w.leave]}})
    f.append({"type": "xlsx", "path": P["suppliers"], "sheets": {"Suppliers": [
        ["Supplier", "Category", "Account manager", "Email", "Payment terms (days)"]] + [
        [s.name, s.category, s.contact, s.email, s.terms_days] for s in w.suppliers]}})
    f.append({"type": "xlsx", "path": P["pos"], "sheets": {"Orders": [
        ["PO", "Supplier", "Requested by", "Ordered", "Item", "Amount", "Promised", "Delivered", "Status"]] + [
        [po.po, po.supplier, name[po.requester], po.ordered.isoformat(), po.item, po.amount, po.promised.isoformat(),
         po.delivered.isoformat() if po.delivered else None, po.status] for po in w.pos]}})
    f.append({"type": "xlsx", "path": P["invoices"], "sheets": {"Invoices": [
        ["Invoice", "Supplier", "PO", "Issued", "Amount", "Due", "Paid on"]] + [
        [i.number, i.supplier, i.po, i.issued.isoformat(), i.amount, i.due.isoformat(),
         i.paid.isoformat() if i.paid else None] for i in w.invoices]}})
    quarters = ["Q1", "Q2", "Q3", "Q4"]
    f.append({"type": "xlsx", "path": P["budget"], "sheets": {"Budget": [
        ["Cost centre", "Team"] + quarters] + [
        [cc, team] + [w.budgets[(cc, q)] for q in range(1, 5)] for team, cc in w.cost_centres.items()]}})
    f.append({"type": "xlsx", "path": P["sales"], "sheets": {"Orders": [
        ["Order", "Date", "Customer", "Region", "Account executive", "Product", "Qty", "Unit price", "Total"]] + [
        [s.order, s.day.isoformat(), s.customer, s.region, name[s.rep], s.product, s.qty, s.unit, s.total]
        for s in w.sales]}})
    f.append({"type": "xlsx", "path": P["customers"], "sheets": {"Customers": [
        ["Customer", "Region", "Contact", "Email", "Account executive"]] + [
        [c.name, c.region, c.contact, c.email, name[c.manager]] for c in w.customers]}})
    f.append({"type": "xlsx", "path": P["contracts"], "sheets": {"Contracts": [
        ["Ref", "Party", "Type", "Owner", "Start", "End", "Notice (days)", "Annual value", "Auto-renew"]] + [
        [c.ref, c.party, c.kind, name[c.owner], c.start.isoformat(), c.end.isoformat(), c.notice_days,
         c.annual_value, "Yes" if c.auto_renew else "No"] for c in w.contracts]}})
    f.append({"type": "xlsx", "path": P["expenses"], "sheets": {"Claims": [
        ["Claim", "Name", "Email", "Date", "City", "Category", "Amount", "Status"]] + [
        [e.claim, name[e.person], e.person, e.day.isoformat(), e.city, e.category, e.amount, e.status]
        for e in w.expenses]}})
    team_of = {p.email: p.team for p in w.people}
    by_po = {po.po: po for po in w.pos}
    ledger = [["Date", "Reference", "Description", "Cost centre", "Amount"]]
    lines = []
    for inv in w.invoices:
        if inv.paid:
            cc = w.cost_centres[team_of[by_po[inv.po].requester]]
            lines.append((inv.paid, inv.number, f"{inv.supplier} invoice {inv.number}", cc, -inv.amount))
    for m in range(1, w.now.month + 1):
        for team, cc in w.cost_centres.items():
            lines.append((date(2026, m, 1), f"RENT-{m:02d}-{cc[-3:]}", f"Office space recharge {team}", cc, -1250.0))
            lines.append((date(2026, m, 25), f"PAY-{m:02d}-{cc[-3:]}", f"Payroll {team}", cc,
                          -round(4200.0 * len(w.team(team)), 2)))
    lines.sort(key=lambda x: (x[0], x[1]))
    ledger += [[d.isoformat(), ref, desc, cc, amt] for d, ref, desc, cc, amt in lines if d < w.now.date()]
    f.append({"type": "xlsx", "path": P["ledger"], "sheets": {"Ledger": ledger}})


def _archives(w: World, rng: random.Random) -> None:
    for year in (2024, 2025):
        rows = [["Date", "Reference", "Description", "Cost centre", "Amount"]]
        for k in range(900):
            day = date(year, 1, 1) + timedelta(days=rng.randrange(0, 365))
            team, cc = rng.choice(list(w.cost_centres.items()))
            rows.append([day.isoformat(), f"A{year % 100}-{k:04d}", f"{rng.choice(vocab.SUPPLIER_NAMES)} invoice",
                         cc, -round(rng.uniform(40, 3000), 2)])
        rows[1:] = sorted(rows[1:])
        w.files.append({"type": "xlsx", "path": f"data/finance/archive/ledger_{year}.xlsx", "sheets": {"Ledger": rows}})
    rows = [["Order", "Date", "Customer", "Region", "Product", "Qty", "Unit price", "Total"]]
    for k in range(1400):
        day = date(2025, 1, 1) + timedelta(days=rng.randrange(0, 365))
        c = rng.choice(w.customers)
        product, price = rng.choice(vocab.PRODUCTS)
        qty = rng.randrange(1, 20)
        rows.append([f"SO-{60000 + k}", day.isoformat(), c.name, c.region, product, qty, price, round(qty * price, 2)])
    w.files.append({"type": "xlsx", "path": "data/sales/archive/orders_2025.xlsx", "sheets": {"Orders": rows}})
    for month in range(1, w.now.month):
        sel = [s for s in w.sales if s.day.month == month]
        text = "order,date,customer,region,product,qty,unit_price,total\n" + "".join(
            f"{s.order},{s.day.isoformat()},{s.customer},{s.region},{s.product},{s.qty},{s.unit},{s.total}\n"
            for s in sel)
        w.files.append({"type": "text", "path": f"data/sales/exports/orders_2026-{month:02d}.csv", "content": text})


def policy_text(w: World) -> dict[str, list[str]]:
    """The policies' paragraphs: the current travel policy (caps per city), its superseded and draft
    versions, purchasing (approval and quotes thresholds) and leave."""
    caps = w.per_diem
    current = [
        f"{w.company} — Travel and Expenses Policy (version 3, in force from 1 September 2026)",
        "1. Scope. This policy applies to every employee travelling on company business.",
        "2. Hotels. A night's hotel may cost at most the cap for the city below. A claim above the cap is "
        "reimbursed up to the cap only, unless the traveller's manager approved the excess in writing before "
        "the trip.",
    ] + [f"   {city}: {_money(cap)} a night" for city, cap in caps.items()] + [
        "3. Meals. Meals are reimbursed up to £60.00 a day; alcohol is never reimbursed.",
        "4. Travel. Economy class only. Taxis only where no public transport runs.",
        "5. Claims. Claims must be submitted within 30 days of the expense, with receipts; a claim submitted "
        "later is rejected.",
        "6. Approval. The claimant's line manager approves claims; claims over £1,000.00 also need the Head of "
        "Finance.",
    ]
    old = [f"{w.company} — Travel and Expenses Policy (version 2, 2024)",
           "2. Hotels. A night's hotel may cost at most £140.00 in every city.",
           "3. Meals. Meals are reimbursed up to £45.00 a day.",
           "This version is superseded by version 3 from 1 September 2026."]
    draft = [f"DRAFT — {w.company} — Travel and Expenses Policy (version 4, for consultation, not in force)",
             "2. Hotels. Proposed caps: " + "; ".join(f"{c} {_money(v + 20)}" for c, v in caps.items()),
             "Comments to the Head of Finance by 31 December 2026."]
    purchasing = [
        f"{w.company} — Purchasing Policy",
        "1. Every purchase needs a purchase order before the supplier is instructed.",
        "2. Orders over £2,500.00 need three written quotes; orders over £10,000.00 need the Head of Finance's "
        "approval.",
        "3. A supplier that delivers late twice in one calendar quarter is placed on review: Purchasing writes to "
        "the supplier's account manager and records the review in the supplier review log.",
        "4. An invoice is paid only when it matches its purchase order; an invoice that bills more than the order "
        "is held and queried with the supplier.",
    ]
    leave = [
        f"{w.company} — Leave Policy",
        "1. Leave is requested from the line manager at least two weeks ahead (one week for up to two days).",
        "2. No more than two members of one team may be on annual leave on the same day.",
        "3. Sick leave is recorded by the line manager on the first day of absence.",
    ]
    return {"travel": current, "travel_old": old, "travel_draft": draft, "purchasing": purchasing, "leave": leave}


def _documents(w: World, rng: random.Random) -> None:
    f, P = w.files, w.paths
    texts = policy_text(w)
    P.update(travel_policy="data/policies/travel_and_expenses_policy.docx",
             purchasing_policy="data/policies/purchasing_policy.docx", leave_policy="data/policies/leave_policy.docx",
             review_log="data/purchasing/supplier_review_log.xlsx")
    f.append({"type": "docx", "path": P["travel_policy"], "paragraphs": texts["travel"]})
    f.append({"type": "pdf", "path": "data/policies/travel_and_expenses_policy.pdf", "pages": ["\n".join(texts["travel"])]})
    f.append({"type": "docx", "path": "data/policies/archive/travel_and_expenses_policy_2024.docx",
              "paragraphs": texts["travel_old"]})
    f.append({"type": "docx", "path": "data/policies/drafts/travel_and_expenses_policy_v4_DRAFT.docx",
              "paragraphs": texts["travel_draft"]})
    f.append({"type": "docx", "path": P["purchasing_policy"], "paragraphs": texts["purchasing"]})
    f.append({"type": "pdf", "path": "data/policies/purchasing_policy.pdf", "pages": ["\n".join(texts["purchasing"])]})
    f.append({"type": "docx", "path": P["leave_policy"], "paragraphs": texts["leave"]})
    f.append({"type": "xlsx", "path": P["review_log"], "sheets": {"Reviews": [
        ["Date", "Supplier", "Reason", "Logged by"],
        ["2026-03-30", w.suppliers[3].name, "Two late deliveries in Q1", w.head_of("Purchasing").name],
        ["2026-07-02", w.suppliers[7].name, "Invoice above order, queried", w.head_of("Purchasing").name]]}})
    # invoices received as PDFs since August
    for inv in w.invoices:
        if inv.issued >= date(2026, 8, 1):
            inv.pdf = f"data/finance/invoices/{inv.issued:%Y-%m}/{inv.number}.pdf"
            s = w.supplier(inv.supplier)
            f.append({"type": "pdf", "path": inv.pdf, "pages": [
                f"{s.name.upper()}\nINVOICE {inv.number}\nTo: {w.company}, Accounts Payable\nIssued: {_dm(inv.issued)}\n"
                f"Your order: {inv.po}\nAmount due: {_money(inv.amount)}\nPayment due by: {_dm(inv.due)}\n"
                f"Payment terms: {s.terms_days} days"]})
    for c in w.contracts:
        f.append({"type": "pdf", "path": f"data/legal/contracts/{c.ref}.pdf", "pages": [
            f"AGREEMENT {c.ref}\nBetween {w.company} and {c.party}\nCommences: {_dm(c.start)}\nExpires: {_dm(c.end)}\n"
            f"Either party may end this agreement by written notice of {c.notice_days} days before expiry.\n"
            + ("It renews automatically for one year unless notice is given.\n" if c.auto_renew else
               "It ends on expiry unless both parties sign a renewal.\n")
            + f"Annual value: {_money(c.annual_value)}"]})
    ops = w.team("Operations")
    day = date(2026, 1, 5)
    while day < w.now.date():
        points = [f"{rng.choice(ops).first} to chase {rng.choice(w.suppliers).name} about open orders.",
                  f"Warehouse stock count moved to {_dm(day + timedelta(days=rng.randrange(3, 20)))}.",
                  f"{rng.choice(ops).first} reported {rng.randrange(1, 9)} late deliveries last week."]
        paras = [f"Operations weekly — minutes of {_dm(day)}", "Present: " + ", ".join(p.name for p in ops[:5])] + points
        f.append({"type": "docx", "path": f"data/operations/minutes/ops_weekly_{day.isoformat()}.docx", "paragraphs": paras})
        if rng.random() < 0.15:
            f.append({"type": "docx", "path": f"data/operations/minutes/drafts/ops_weekly_{day.isoformat()}_draft.docx",
                      "paragraphs": paras[:2] + ["(draft) " + points[0]]})
        day += timedelta(days=7)
    for month in range(1, w.now.month):
        for team in w.cost_centres:
            head = w.head_of(team)
            f.append({"type": "docx", "path": f"data/reports/2026-{month:02d}/{team.lower()}_monthly_report.docx",
                      "paragraphs": [f"{team} — monthly report, {date(2026, month, 1):%B %Y}", f"Prepared by {head.name}",
                                     f"Headcount: {len(w.team(team))}.",
                                     f"Highlights: {rng.choice(['hiring on track', 'two projects closed', 'new supplier onboarded', 'process review under way'])}."]})
    for k in range(16):
        who = rng.choice(w.people)
        f.append({"type": "text", "path": f"data/notes/note_{k + 1:02d}_{who.first.lower()}.txt",
                  "content": f"{rng.choice(vocab.CHITCHAT)}\nRemember to file the {rng.choice(['Q2', 'Q3', 'June', 'July'])} papers.\n"})
    for k, e in enumerate([e for e in w.expenses if e.category == "Hotel"][-8:]):
        f.append({"type": "image", "path": f"data/finance/receipts/receipt_{e.claim}.png",
                  "text": f"HOTEL {e.city.upper()}\nGuest: {w.person(e.person).name}\nDate: {e.day.isoformat()}\n"
                          f"TOTAL GBP {e.amount:.2f}", "font_size": 28})


# ---- mail -----------------------------------------------------------------------------------------
class _Mailer:
    def __init__(self, w: World):
        self.w = w
        self.inbox: list[Mail] = []
        self.sent: list[Mail] = []

    def receive(self, sender: str, when: datetime, subject: str, body: str, *, to: list[str] | None = None,
                cc: list[str] | None = None, attachments: list[str] | None = None, kind: str = "other",
                about: str | None = None) -> Mail:
        m = Mail("", "inbox", sender, to or [self.w.user.email], cc or [], when, subject, body, attachments or [],
                 kind, about)
        self.inbox.append(m)
        return m

    def send(self, to: list[str], when: datetime, subject: str, body: str, *, cc: list[str] | None = None,
             kind: str = "other", about: str | None = None) -> Mail:
        m = Mail("", "sent", self.w.user.email, to, cc or [], when, subject, body, [], kind, about)
        self.sent.append(m)
        return m


def _mail(w: World, rng: random.Random) -> None:
    mx = _Mailer(w)
    start = date(2026, 6, 1)
    me = w.user
    sign = f"\n\nBest regards,\n"
    # newsletters and all-staff chit-chat: the noise
    day = start
    while day < w.now.date():
        for title, box in vocab.NEWSLETTERS:
            if rng.random() < 0.8:
                mx.receive(f"{box}@{w.domain}", _at(day, 7, rng.randrange(0, 59)), f"{title} — {_dm(day)}",
                           f"This week: {rng.choice(vocab.CHITCHAT)} {rng.choice(vocab.CHITCHAT)}", kind="newsletter")
        for _ in range(5):
            who = rng.choice(w.people)
            mx.receive(who.email, _at(day + timedelta(days=rng.randrange(0, 5)), rng.randrange(9, 17), rng.randrange(60)),
                       rng.choice(["Quick one", "FYI", "Office news", "Friday", "Kitchen"]),
                       rng.choice(vocab.CHITCHAT) + sign + who.first, to=[f"all-staff@{w.domain}"], kind="chitchat")
        day += timedelta(days=7)
    # suppliers: invoices with their PDFs, delivery delays, reminders
    for inv in w.invoices:
        s = w.supplier(inv.supplier)
        if inv.pdf:
            payables = w.team("Finance")[-1]
            mx.receive(s.email, _at(inv.issued, rng.randrange(8, 17), rng.randrange(60)), f"Invoice {inv.number} ({inv.po})",
                       f"Dear {w.company} team,\n\nPlease find attached our invoice {inv.number} for your order {inv.po}, "
                       f"{_money(inv.amount)} due by {_dm(inv.due)}.{sign}{s.contact}\n{s.name}",
                       to=[me.email], cc=[payables.email], attachments=[inv.pdf], kind="invoice", about=inv.number)
        if not inv.paid and inv.due < w.now.date() - timedelta(days=5):
            mx.receive(s.email, _at(inv.due + timedelta(days=4), 10), f"Reminder: invoice {inv.number} is overdue",
                       f"Hello,\n\nOur invoice {inv.number} ({_money(inv.amount)}) was due on {_dm(inv.due)} and is still "
                       f"unpaid. Could you look into it?{sign}{s.contact}", kind="reminder", about=inv.number)
    for po in w.pos:
        if po.ordered < start:
            continue
        s = w.supplier(po.supplier)
        if po.days_late > 0 and rng.random() < 0.7:
            mx.receive(s.email, _at(po.promised - timedelta(days=1), 16, 5), f"Delivery update {po.po}",
                       f"Hello,\n\nUnfortunately your order {po.po} ({po.item}) will not arrive on {_dm(po.promised)}. "
                       f"New delivery date: {_dm(po.delivered)}. Apologies for the inconvenience.{sign}{s.contact}",
                       kind="delay", about=po.po)
        elif po.delivered and rng.random() < 0.25:
            mx.receive(s.email, _at(po.delivered, 8, 30), f"Dispatched: {po.po}",
                       f"Your order {po.po} is out for delivery today.{sign}{s.contact}", kind="dispatch", about=po.po)
    # team: expense claims and leave requests of the user's reports
    reports = [p for p in w.people if p.manager == me.email]
    for e in w.expenses:
        if e.person in {r.email for r in reports} and e.day >= start:
            r = w.person(e.person)
            mx.receive(r.email, _at(e.day + timedelta(days=rng.randrange(1, 6)), 17, 10), f"Expense claim {e.claim}",
                       f"Hi {me.first},\n\nCould you approve my claim {e.claim}: {e.category.lower()} in {e.city} on "
                       f"{_dm(e.day)}, {_money(e.amount)}?{sign}{r.first}", kind="claim", about=e.claim)
    for l in w.leave:
        if l.person in {r.email for r in reports} and l.start >= start:
            r = w.person(l.person)
            asked = l.start - timedelta(days=rng.randrange(8, 30))
            if asked < w.now.date():
                mx.receive(r.email, _at(asked, 11, 40), "Leave request",
                           f"Hi {me.first},\n\nI'd like to take {l.kind.lower()} from {_dm(l.start)} to {_dm(l.end)}. "
                           f"Is that OK?{sign}{r.first}", kind="leave", about=f"{l.person}:{l.start.isoformat()}")
    # customers
    for k in range(70):
        c = rng.choice(w.customers)
        day = start + timedelta(days=rng.randrange(0, (w.now.date() - start).days))
        s = rng.choice([x for x in w.sales if x.customer == c.name] or w.sales)
        mx.receive(c.email, _at(day, rng.randrange(8, 18), rng.randrange(60)),
                   rng.choice([f"Question about order {s.order}", f"Order {s.order}", "Delivery times", "Invoice copy"]),
                   f"Hello,\n\nCould you tell me when {s.order} ({s.qty} x {s.product}) will ship?{sign}{c.contact}\n{c.name}",
                   cc=[c.manager], kind="customer", about=s.order)
    # IT notifications
    for k in range(40):
        day = start + timedelta(days=rng.randrange(0, (w.now.date() - start).days))
        mx.receive(f"helpdesk@{w.domain}", _at(day, rng.randrange(8, 19), rng.randrange(60)),
                   f"[Ticket #{5100 + k}] {rng.choice(['Printer jam floor 2', 'VPN slow', 'New laptop ready', 'Password expiry', 'Teams room display'])}",
                   f"Status: {rng.choice(['Opened', 'Resolved', 'Waiting for you'])}.", kind="ticket")
    # the user's own sent mail: replies and forwards
    for m in rng.sample([m for m in mx.inbox if m.kind in ("customer", "claim", "leave")], 60):
        mx.send([m.sender], m.when + timedelta(hours=rng.randrange(1, 30)), f"Re: {m.subject}",
                f"Hi,\n\nThanks, noted — I'll come back to you.{sign}{me.first}", kind="reply", about=m.about)
    # fix ids: inbox msg-1.. by date, sent msg-1001.. (so new mail the user sends gets ids of its own)
    mx.inbox.sort(key=lambda m: (m.when, m.subject))
    mx.sent.sort(key=lambda m: (m.when, m.subject))
    for i, m in enumerate(mx.inbox, start=1):
        m.id = f"msg-{i}"
    for i, m in enumerate(mx.sent, start=1001):
        m.id = f"msg-{i}"
    w.mails = [m for m in mx.inbox + mx.sent if m.when < w.now]


# ---- calendar -------------------------------------------------------------------------------------
def _calendar(w: World, rng: random.Random) -> None:
    me = w.user
    ops = [p.email for p in w.team("Operations")]
    director = w.person(me.manager) if me.manager else w.head_of("Operations")
    events: list[Event] = []
    day = date(2026, 6, 1)
    end = w.now.date() + timedelta(days=60)
    n = 0
    while day < end:
        if day.weekday() == 0:
            n += 1
            events.append(Event(f"ops-weekly-{day.isoformat()}@{w.domain}", "Operations weekly", _at(day, 10), _at(day, 11),
                                "Harbour Room", ops, None, "Operations weekly"))
        if day.weekday() == 3 and day.isocalendar()[1] % 2 == 0:
            events.append(Event(f"one-to-one-{day.isoformat()}@{w.domain}", f"1:1 {me.first} / {director.first}",
                                _at(day, 15), _at(day, 15, 30), None, [me.email, director.email], None, "1:1"))
        if day.weekday() == 1 and day.day <= 7:
            events.append(Event(f"all-hands-{day.isoformat()}@{w.domain}", "All-hands", _at(day, 16), _at(day, 17),
                                "Canteen", [f"all-staff@{w.domain}"], None, "All-hands"))
        if day.weekday() < 5 and rng.random() < 0.35:
            s = rng.choice(w.suppliers)
            hour = rng.choice([9, 11, 13, 14])
            events.append(Event(f"adhoc-{day.isoformat()}-{hour}@{w.domain}",
                                rng.choice([f"Call with {s.name}", "Stock count planning", "Budget check-in",
                                            "Interview", "Site walk", "Vendor demo"]),
                                _at(day, hour), _at(day, hour, 45), rng.choice(vocab.ROOMS + [None]),
                                [me.email, rng.choice(w.people).email]))
        day += timedelta(days=1)
    w.events = events


def write_world(w: World, rng: random.Random) -> None:
    """Fill in the world's files, mail and calendar from its records."""
    ops = [p for p in w.people if p.team == "Operations" and p.role not in ("Operations Director", "Operations Manager")]
    for p in ops:
        p.manager = w.user.email  # the operations staff report to the user
    _sheets(w)
    _archives(w, rng)
    _documents(w, rng)
    _mail(w, rng)
    _calendar(w, rng)
