"""The records a lived-in office is generated from, kept beside the files they are written to.

A task of the hard split computes its gold solution and its checks from these records (never from
typed-in values), so a change to the generator changes the task and its answer together. Row numbers
are the spreadsheet rows (1-based, header in row 1) the record is written to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime


@dataclass
class Person:
    name: str
    first: str
    last: str
    email: str
    team: str
    role: str
    manager: str | None  # the manager's email address
    location: str
    phone: str
    start: date
    row: int = 0  # in the staff directory


@dataclass
class Supplier:
    name: str
    domain: str
    contact: str  # the account manager's name
    email: str
    category: str
    terms_days: int
    row: int = 0


@dataclass
class Customer:
    name: str
    domain: str
    contact: str
    email: str
    region: str
    manager: str  # the account executive's email address
    row: int = 0


@dataclass
class PurchaseOrder:
    po: str
    supplier: str
    requester: str  # email
    ordered: date
    item: str
    amount: float
    promised: date
    delivered: date | None
    status: str  # Open, Delivered, Cancelled
    row: int = 0

    @property
    def days_late(self) -> int:
        return (self.delivered - self.promised).days if self.delivered else 0


@dataclass
class Invoice:
    number: str
    supplier: str
    po: str
    issued: date
    amount: float
    due: date
    paid: date | None
    pdf: str | None = None  # office path of the invoice's PDF, when one was received
    row: int = 0


@dataclass
class Sale:
    order: str
    day: date
    customer: str
    region: str
    rep: str  # email
    product: str
    qty: int
    unit: float
    row: int = 0

    @property
    def total(self) -> float:
        return round(self.qty * self.unit, 2)


@dataclass
class Leave:
    person: str  # email
    start: date
    end: date
    kind: str
    status: str  # Approved, Pending, Withdrawn
    row: int = 0


@dataclass
class Contract:
    ref: str
    party: str
    kind: str  # Supplier or Customer
    owner: str  # email
    start: date
    end: date
    notice_days: int
    annual_value: float
    auto_renew: bool
    row: int = 0


@dataclass
class Expense:
    claim: str
    person: str  # email
    day: date
    city: str
    category: str  # Hotel, Meals, Travel, Other
    amount: float
    status: str  # Submitted, Approved, Rejected
    row: int = 0


@dataclass
class Mail:
    id: str
    folder: str  # inbox or sent
    sender: str
    to: list[str]
    cc: list[str]
    when: datetime
    subject: str
    body: str
    attachments: list[str] = field(default_factory=list)
    kind: str = "other"  # what generated it: newsletter, chitchat, invoice, delivery, ...
    about: str | None = None  # the record it concerns (a PO, an invoice, a claim, ...)


@dataclass
class Event:
    uid: str
    summary: str
    start: datetime
    end: datetime
    location: str | None
    attendees: list[str]
    description: str | None = None
    series: str | None = None  # the name of a recurring meeting it belongs to


@dataclass
class World:
    """One company's office over months: its people and records, and the files and mail they live in."""

    name: str
    company: str
    domain: str
    now: datetime
    user: Person
    people: list[Person]
    suppliers: list[Supplier]
    customers: list[Customer]
    pos: list[PurchaseOrder]
    invoices: list[Invoice]
    sales: list[Sale]
    leave: list[Leave]
    contracts: list[Contract]
    expenses: list[Expense]
    budgets: dict[tuple[str, int], float]  # (cost centre, quarter) -> budget
    cost_centres: dict[str, str]  # team -> cost centre
    per_diem: dict[str, float]  # city -> hotel cap a night
    mails: list[Mail]
    events: list[Event]
    files: list[dict]  # builder dicts (FORMAT §4) of every file but mail and calendar
    paths: dict[str, str]  # what a file is -> its office path ("ledger" -> data/finance/ledger_2026.xlsx)

    def person(self, email: str) -> Person:
        return next(p for p in self.people if p.email == email)

    def team(self, name: str) -> list[Person]:
        return [p for p in self.people if p.team == name]

    def head_of(self, team: str) -> Person:
        return self.team(team)[0]

    def supplier(self, name: str) -> Supplier:
        return next(s for s in self.suppliers if s.name == name)

    def customer(self, name: str) -> Customer:
        return next(c for c in self.customers if c.name == name)

    def mail(self, mail_id: str) -> Mail:
        return next(m for m in self.mails if m.id == mail_id)
