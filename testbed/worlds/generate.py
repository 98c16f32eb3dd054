"""Generate a lived-in office from a seed: a company's people, records, files, mail and calendar over
months of 2026, with the clutter real offices have (archived years, drafts, newsletters, corrections).

Everything comes from one ``random.Random`` seeded by the world's name, so a world is the same on every
machine and in every version of the code that does not change this module.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from officesim.testbed.worlds import vocab
from officesim.testbed.worlds.model import (Contract, Customer, Event, Expense, Invoice, Leave, Mail, Person,
                                            PurchaseOrder, Sale, Supplier, World)

YEAR = 2026
LOCATIONS = ["Head office", "Head office", "Head office", "Warehouse", "Remote"]


def _d(day: date) -> str:
    return day.isoformat()


def _money(x: float) -> float:
    return round(x, 2)


def quarter(day: date) -> int:
    return (day.month - 1) // 3 + 1


# ---- people ---------------------------------------------------------------------------------------
def _people(rng: random.Random, domain: str, size: int) -> tuple[list[Person], Person]:
    names = [(f, l) for f in vocab.FIRST for l in vocab.LAST]
    rng.shuffle(names)
    used_first: dict[str, int] = {}
    people: list[Person] = []
    share = {t[0]: 1 for t in vocab.TEAMS}
    for i in range(size - len(vocab.TEAMS)):
        share[rng.choice(vocab.TEAMS)[0]] += 1
    share["Operations"] = max(share["Operations"], 6)
    k = 0
    for team, roles, _cc in vocab.TEAMS:
        head = None
        for j in range(share[team]):
            first, last = names[k]
            k += 1
            used_first[first] = used_first.get(first, 0) + 1
            role = roles[0] if j == 0 else roles[min(len(roles) - 1, 1 + (j - 1) % (len(roles) - 1))]
            if team == "Operations" and j == 1:
                role = "Operations Manager"
            email = f"{first.lower()}.{last.lower()}@{domain}"
            start = date(rng.randrange(2015, 2026), rng.randrange(1, 13), rng.randrange(1, 28))
            person = Person(f"{first} {last}", first, last, email, team, role, head.email if head else None,
                            rng.choice(LOCATIONS), f"+44 20 7946 {rng.randrange(1000, 9999)}", start)
            head = head or person
            people.append(person)
    heads = [p for p in people if p.manager is None]
    ceo = heads[0]
    for h in heads[1:]:
        h.manager = ceo.email  # the heads report to the first team's head, the managing director's stand-in
    for row, p in enumerate(people, start=2):
        p.row = row
    user = next(p for p in people if p.role == "Operations Manager")
    return people, user


# ---- records --------------------------------------------------------------------------------------
def _suppliers(rng: random.Random) -> list[Supplier]:
    picks = rng.sample(range(len(vocab.SUPPLIER_NAMES)), 14)
    out = []
    contacts = rng.sample([(f, l) for f in vocab.FIRST for l in vocab.LAST], 14)
    for row, (i, (f, l)) in enumerate(zip(picks, contacts), start=2):
        name = vocab.SUPPLIER_NAMES[i]
        domain = name.lower().replace(" co", "").replace(" ltd", "").replace(" ", "") + ".test"
        out.append(Supplier(name, domain, f"{f} {l}", f"{f.lower()}@{domain}", vocab.SUPPLIER_CATEGORIES[i],
                            rng.choice([14, 30, 30, 45, 60]), row))
    return out


def _customers(rng: random.Random, sales: list[Person]) -> list[Customer]:
    execs = [p for p in sales if p.role in ("Account Executive", "Regional Sales Manager")] or sales
    contacts = rng.sample([(f, l) for f in vocab.FIRST for l in vocab.LAST], 20)
    out = []
    for row, (name, (f, l)) in enumerate(zip(rng.sample(vocab.CUSTOMER_NAMES, 20), contacts), start=2):
        domain = name.lower().replace("&", "and").replace(" ", "") + ".test"
        out.append(Customer(name, domain, f"{f} {l}", f"{f.lower()}.{l.lower()}@{domain}", rng.choice(vocab.REGIONS),
                            rng.choice(execs).email, row))
    return out


def _purchase_orders(rng: random.Random, suppliers: list[Supplier], people: list[Person], now: datetime
                     ) -> list[PurchaseOrder]:
    """About 400 orders of the year so far; two suppliers are chronically late, the rest now and then."""
    sloppy = {s.name for s in rng.sample(suppliers, 2)}
    requesters = [p for p in people if p.team in ("Operations", "Purchasing", "IT", "Marketing")]
    out = []
    day = date(YEAR, 1, 5)
    n = 4100 + rng.randrange(0, 500)
    while day < now.date() - timedelta(days=2):
        for _ in range(rng.choice([1, 1, 2, 2, 3])):
            s = rng.choice(suppliers)
            item = rng.choice(vocab.PRODUCTS)[0] if s.category in ("office supplies", "furniture", "paper") else s.category
            amount = _money(rng.choice([1, 1, 2, 5]) * rng.uniform(80, 2400))
            promised = day + timedelta(days=rng.choice([5, 7, 10, 14]))
            late_p = 0.45 if s.name in sloppy else 0.06
            if promised >= now.date():
                delivered, status = None, "Open"
            else:
                slip = rng.choice([2, 3, 4, 6, 9]) if rng.random() < late_p else -rng.choice([0, 0, 1, 2])
                delivered = promised + timedelta(days=slip)
                if delivered >= now.date():
                    delivered, status = None, "Open"
                else:
                    status = "Delivered"
            if rng.random() < 0.02:
                delivered, status = None, "Cancelled"
            n += 1
            out.append(PurchaseOrder(f"PO-{n}", s.name, rng.choice(requesters).email, day, item, amount, promised,
                                     delivered, status))
        day += timedelta(days=rng.choice([1, 1, 2]))
    for row, po in enumerate(out, start=2):
        po.row = row
    return out


def _invoices(rng: random.Random, pos: list[PurchaseOrder], suppliers: list[Supplier], now: datetime) -> list[Invoice]:
    """One invoice per delivered order; a few bill a different amount than ordered, a few are unpaid."""
    terms = {s.name: s.terms_days for s in suppliers}
    out = []
    n = 0
    for po in pos:
        if po.status != "Delivered":
            continue
        n += 1
        issued = po.delivered + timedelta(days=rng.choice([0, 1, 2, 3]))
        amount = po.amount
        if rng.random() < 0.05:
            amount = _money(po.amount * rng.choice([1.1, 1.2, 0.9]) + rng.choice([0, 15, 40]))
        due = issued + timedelta(days=terms[po.supplier])
        pay_day = issued + timedelta(days=rng.randrange(5, terms[po.supplier] + 10))
        paid = pay_day if pay_day < now.date() - timedelta(days=3) and rng.random() > 0.04 else None
        prefix = "".join(w[0] for w in po.supplier.split()[:2]).upper()
        out.append(Invoice(f"{prefix}-{issued:%y%m}-{n:04d}", po.supplier, po.po, issued, amount, due, paid))
    for row, inv in enumerate(out, start=2):
        inv.row = row
    return out


def _sales(rng: random.Random, customers: list[Customer], now: datetime) -> list[Sale]:
    out = []
    n = 70000 + rng.randrange(0, 900)
    day = date(YEAR, 1, 2)
    while day < now.date():
        if day.weekday() < 5:
            for _ in range(rng.randrange(5, 13)):
                c = rng.choice(customers)
                product, price = rng.choice(vocab.PRODUCTS)
                n += 1
                out.append(Sale(f"SO-{n}", day, c.name, c.region, c.manager, product, rng.randrange(1, 25), price))
        day += timedelta(days=1)
    for row, s in enumerate(out, start=2):
        s.row = row
    return out


def _leave(rng: random.Random, people: list[Person], now: datetime) -> list[Leave]:
    out = []
    for p in people:
        for _ in range(rng.randrange(1, 4)):
            start = date(YEAR, 1, 5) + timedelta(days=rng.randrange(0, 360))
            while start.weekday() >= 5:
                start += timedelta(days=1)
            end = start + timedelta(days=rng.choice([0, 1, 2, 4, 7, 11]))
            kind = rng.choice(["Annual leave", "Annual leave", "Annual leave", "Training", "Sick leave"])
            status = "Approved" if start < now.date() else rng.choice(["Approved", "Approved", "Pending", "Withdrawn"])
            out.append(Leave(p.email, start, end, kind, status))
    out.sort(key=lambda l: (l.start, l.person))
    for row, l in enumerate(out, start=2):
        l.row = row
    return out


def _contracts(rng: random.Random, suppliers: list[Supplier], customers: list[Customer], people: list[Person],
               now: datetime) -> list[Contract]:
    owners = [p for p in people if p.team in ("Legal", "Purchasing", "Sales", "Operations")]
    out = []
    parties = [(s.name, "Supplier") for s in suppliers] + [(c.name, "Customer") for c in rng.sample(customers, 12)]
    for i, (party, kind) in enumerate(parties):
        start = date(rng.randrange(2023, 2026), rng.randrange(1, 13), 1)
        end = date(start.year + rng.choice([1, 2, 3]), start.month, 1) - timedelta(days=1)
        if end < now.date():
            end = date(now.year + 1, start.month, 1) - timedelta(days=1)
        out.append(Contract(f"CTR-{2300 + i * 7}", party, kind, rng.choice(owners).email, start, end,
                            rng.choice([30, 60, 90]), _money(rng.randrange(8, 240) * 500.0), rng.random() < 0.4))
    out.sort(key=lambda c: c.ref)
    for row, c in enumerate(out, start=2):
        c.row = row
    return out


def _expenses(rng: random.Random, people: list[Person], now: datetime) -> list[Expense]:
    travellers = [p for p in people if p.team in ("Sales", "Operations", "Purchasing", "Marketing")]
    out = []
    n = 800
    day = date(YEAR, 1, 8)
    while day < now.date():
        p = rng.choice(travellers)
        city, cap = rng.choice(vocab.CITIES)
        for cat in rng.sample(["Hotel", "Meals", "Travel", "Other"], rng.randrange(1, 4)):
            n += 1
            if cat == "Hotel":
                amount = cap * rng.choice([0.8, 0.9, 1.0, 1.0, 1.15, 1.3]) * rng.choice([1, 2, 3])
            else:
                amount = rng.uniform(12, 260)
            status = "Approved" if day < now.date() - timedelta(days=21) else "Submitted"
            out.append(Expense(f"EXP-{n}", p.email, day, city, cat, _money(amount), status))
        day += timedelta(days=rng.choice([1, 2, 3]))
    for row, e in enumerate(out, start=2):
        e.row = row
    return out


def _budgets(rng: random.Random, cost_centres: dict[str, str], invoices: list[Invoice], pos: list[PurchaseOrder],
             people: list[Person]) -> dict[tuple[str, int], float]:
    """Each cost centre's budget per quarter, set near what it spends so some end up over."""
    team_of = {p.email: p.team for p in people}
    by_po = {po.po: po for po in pos}
    spend: dict[tuple[str, int], float] = {}
    for inv in invoices:
        if inv.paid:  # spend is counted when paid (the ledger's date)
            cc = cost_centres[team_of[by_po[inv.po].requester]]
            spend[(cc, quarter(inv.paid))] = spend.get((cc, quarter(inv.paid)), 0.0) + inv.amount
    out = {}
    for cc in cost_centres.values():
        for q in range(1, 5):
            base = spend.get((cc, q), 0.0) or rng.uniform(2000, 9000)
            out[(cc, q)] = float(round(base * rng.choice([0.8, 0.88, 0.95, 1.1, 1.2]) / 500.0) * 500 or 500)
    return out


# ---- the world ------------------------------------------------------------------------------------
def generate(name: str, *, company: str, domain: str, now: datetime, size: int) -> World:
    """Build every record of one world; files, mail and calendar are derived in ``writing``."""
    from officesim.testbed.worlds import writing

    rng = random.Random(f"world:{name}")
    people, user = _people(rng, domain, size)
    suppliers = _suppliers(rng)
    customers = _customers(rng, [p for p in people if p.team == "Sales"])
    pos = _purchase_orders(rng, suppliers, people, now)
    invoices = _invoices(rng, pos, suppliers, now)
    sales = _sales(rng, customers, now)
    leave = _leave(rng, people, now)
    contracts = _contracts(rng, suppliers, customers, people, now)
    expenses = _expenses(rng, people, now)
    cost_centres = {t: cc for t, _roles, cc in vocab.TEAMS}
    budgets = _budgets(rng, cost_centres, invoices, pos, people)
    world = World(name, company, domain, now, user, people, suppliers, customers, pos, invoices, sales, leave,
                  contracts, expenses, budgets, cost_centres, dict(vocab.CITIES), [], [], [], {})
    writing.write_world(world, rng)
    return world
