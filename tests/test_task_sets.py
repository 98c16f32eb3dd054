"""Counts of the sets a task defines (evaluators/task_sets.py): a count of a noun naming one of the
gold's sets must be one of their sizes. Pure: offices built by hand."""

from __future__ import annotations

import pytest

from officesim.evaluators.records import build_records
from officesim.evaluators.task_sets import set_count_problems, singular, task_sets

ME = "maya.lin@northwind.test"
REGISTER = {"kind": "xlsx", "sheet_order": ["Contracts"], "sheets": {"Contracts": [
    ["Ref", "Party", "Owner", "Type"],
    ["CTR-2300", "Umber Freight", "Yara Stahl", "Supplier"],
    ["CTR-2307", "Kestrel Paper", "Yara Stahl", "Supplier"],
    ["CTR-2314", "Zephyr Couriers", "Aiko Haddad", "Supplier"],
    ["CTR-2321", "Birch Supplies", "Omar Nair", "Supplier"],
    ["CTR-2328", "Heron Bay Resorts", "Omar Nair", "Customer"],
]}}
SUPPLIERS = {"kind": "xlsx", "sheet_order": ["Suppliers"], "sheets": {"Suppliers": [
    ["Supplier", "Email"],
    ["Umber Freight", "ap@umber.test"], ["Kestrel Paper", "ap@kestrel.test"],
    ["Zephyr Couriers", "ap@zephyr.test"], ["Birch Supplies", "ap@birch.test"],
    ["Quayside Print Works", "ap@quayside.test"], ["Redfern IT", "ap@redfern.test"],
]}}
BEFORE = {"data/contracts_register.xlsx": REGISTER, "data/suppliers.xlsx": SUPPLIERS}
LIST = ("Hi Luca,\nOver the line:\n- Umber Freight (CTR-2300)\n- Kestrel Paper (CTR-2307)\n"
        "- Zephyr Couriers (CTR-2314)\nMaya")
GOLD = {**BEFORE, f"emails/{ME}/sent/msg-1.eml": {
    "kind": "eml", "mailbox": ME, "folder": "sent", "id": "msg-1", "from": ME, "to": ["luca@northwind.test"],
    "cc": [], "subject": "Over the line", "date": "2026-11-16 10:00:00", "body": LIST, "attachments": []}}


@pytest.fixture(scope="module")
def setup():
    records = build_records(BEFORE, 2026)
    return records, task_sets(BEFORE, GOLD, records)


@pytest.mark.parametrize("text", [
    "Three suppliers are over one and a half times their annual value.",
    "The three contracts over the line have two owners between them.",  # distinct owners of the three
    "The register holds 5 contracts; I checked them all.",  # the whole table
    "We buy from 6 suppliers.",  # the whole suppliers table
    "Four supplier contracts are in the register.",  # a category of the table
    "Of those, the other two suppliers are well under.",  # a part
    "The two older contracts over the line are Umber Freight's and Kestrel Paper's.",  # a part by a comparative
    "Umber Freight has 7 invoices open.",  # said of a named item
    "I sent one mail to Luca.",
    "By supplier:\n- Umber Freight: £16,388.15 (2 contracts)\n- Kestrel Paper: £675.67 (1)",  # a party's own
])
def test_a_count_that_is_a_size_the_task_or_the_office_gives_passes(setup, text):
    records, sets = setup
    assert set_count_problems(text, sets, records) == []


@pytest.mark.parametrize("text", [
    "Four suppliers are over one and a half times their annual value.",
    "The two contracts over the line are listed in the mail.",
    "The three contracts over the line have four owners between them.",
    "Totals: £16,388.15 (2 contracts)",  # a label that is no item: the set's count
])
def test_a_count_that_no_set_of_the_task_has_fails(setup, text):
    records, sets = setup
    assert set_count_problems(text, sets, records), text


def test_a_number_the_task_gives_is_never_read_as_a_false_count(setup):
    records, sets = setup
    assert set_count_problems("Four suppliers are over the line.", sets, records, allowed={4}) == []


@pytest.mark.parametrize("plural, one", [("invoices", "invoice"), ("replies", "reply"), ("boxes", "box"),
                                         ("business", "business"), ("suppliers", "supplier")])
def test_nouns_are_compared_in_the_singular(plural, one):
    assert singular(plural) == one


INVOICES = {"kind": "xlsx", "sheet_order": ["Invoices"], "sheets": {"Invoices": [
    ["Invoice", "Supplier", "Amount", "Paid on"],
    ["UF-2601-0001", "Umber Freight", 1200.00, "2026-02-01"],
    ["UF-2603-0002", "Umber Freight", 800.50, None],
    ["UF-2605-0003", "Umber Freight", 450.25, None],
    ["KP-2602-0004", "Kestrel Paper", 99.00, None],
]}}


@pytest.mark.parametrize("text, fails", [
    ("Umber Freight is the biggest supplier with 3 invoices this year.", False),
    ("Umber Freight is the biggest supplier with 5 invoices this year.", True),
    ("Umber Freight has 2 invoices without a payment date.", False),  # the rows without a Paid on
    ("Umber Freight has 5 unpaid invoices.", False),  # a part the words pick: not read
    ("Umber Freight and Kestrel Paper have 4 invoices between them.", False),  # two parties: not read
    # several parties: the count is of the nearest before it; "only" stresses all of them, picks no part
    ("Kestrel Paper billed least (1 invoice), while Umber Freight leads with only 4 invoices.", True),
    ("Kestrel Paper billed least (1 invoice), while Umber Freight leads with only 3 invoices.", False),
])
def test_a_count_of_a_partys_rows_must_be_how_many_the_table_holds(text, fails):
    from officesim.evaluators.task_sets import party_count_problems

    records = build_records({"data/supplier_invoices.xlsx": INVOICES}, 2026)
    assert bool(party_count_problems(text, records)) is fails, party_count_problems(text, records)


def test_a_count_of_a_columns_values_over_its_whole_table_is_a_size():
    from officesim.evaluators.records import build_records
    from officesim.evaluators.task_sets import table_sizes

    rows = [["Name", "Team", "Email"]] + [[f"Person {c}{i}", team, f"p{c}{i}@x.test"]
                                          for c, team in zip("abcdefgh", ["Finance", "Support", "Sales", "Purchasing",
                                                                          "Marketing", "People", "Legal", "Facilities"])
                                          for i in range(2)]
    records = build_records({"data/staff.xlsx": {"kind": "xlsx", "sheet_order": ["Staff"], "sheets": {"Staff": rows}}},
                            2026)
    assert 8 in table_sizes(records, {"team"})


def test_a_number_followed_by_a_verb_counts_no_later_noun():
    from officesim.evaluators.task_sets import _counts

    assert [m.group("noun") for _p, m, _n, _l in _counts("All ten now show Status Delivered.")] == []
    assert [m.group("noun") for _p, m, _n, _l in _counts("Three are now approved requests.")] == []
    assert [m.group("noun") for _p, m, _n, _l in _counts("I chased 14 overdue invoices.")] == ["invoices"]


def test_a_total_of_a_count_column_over_the_rows_a_sentence_names_must_be_their_sum():
    from officesim.evaluators.task_sets import named_total_problems

    orders = {"kind": "xlsx", "sheet_order": ["Orders"], "sheets": {"Orders": [
        ["Order", "Customer", "Qty", "Total"], ["SO-1001", "Gull Point", 19, 1425.0],
        ["SO-1002", "Gull Point", 18, 990.0], ["SO-1003", "Gull Point", 23, 4600.0], ["SO-1004", "Birch", 5, 90.0]]}}
    records = build_records({"data/orders.xlsx": orders}, 2026)
    said = "They asked about SO-1001, SO-1002 and SO-1003 — {} units in all across the three orders."
    assert named_total_problems(said.format(60), records, 2026) == []
    assert named_total_problems(said.format(50), records, 2026)
    assert named_total_problems("SO-1001 and SO-1004 are 24 units in all.", records, 2026) == []
    assert named_total_problems("SO-1001 and SO-1002: 3 orders in all.", records, 2026) == []  # rows, not a column
    assert named_total_problems("SO-1001 and SO-1002: 40 boxes in total.", records, 2026)
    assert named_total_problems("SO-1001 and SO-1002 were ordered 2 days apart.", records, 2026) == []  # no total


def test_a_sentence_saying_all_is_paid_is_read_against_the_paid_column():
    from officesim.evaluators.task_sets import paid_claim_problems

    records = build_records({"data/supplier_invoices.xlsx": INVOICES}, 2026)
    listed = "Over the line:\n- Umber Freight: £2,450.75\n- Kestrel Paper: £99.00\n\n{}"
    assert paid_claim_problems(listed.format("All of these invoices have already been paid."), records, None)
    assert paid_claim_problems("All invoices from Umber Freight are paid.", records, None)
    assert paid_claim_problems("UF-2601-0001 is paid; all of UF-2601-0001's lines are settled.", records, None) == []
    assert paid_claim_problems("Umber Freight is not fully paid.", records, None) == []
    assert paid_claim_problems("Once all of Umber Freight's invoices are paid, we close it.", records, None) == []


def test_a_partys_count_in_a_list_item_is_read_across_the_tables_of_its_noun():
    from officesim.evaluators.task_sets import party_count_problems

    def sheet(rows):
        return {"kind": "xlsx", "sheet_order": ["Orders"], "sheets": {"Orders": rows}}

    now = [["Order", "Customer", "Total"]] + [[f"SO-{7000 + i}", "Heron Bay Resorts", 10.0] for i in range(6)] + \
        [[f"SO-{8000 + i}", "Kite Co", 5.0] for i in range(3)]
    old = [["Order", "Customer", "Total"]] + [[f"SO-{6000 + i}", "Heron Bay Resorts", 10.0] for i in range(4)]
    records = build_records({"data/orders_2026.xlsx": sheet(now), "data/archive/orders_2025.xlsx": sheet(old)}, 2026)
    assert party_count_problems("- Heron Bay Resorts: last order SO-7005 — they have placed only 3 orders all year",
                                records, 2026)
    assert party_count_problems("- Heron Bay Resorts: last order SO-7005 — they have placed 6 orders all year",
                                records, 2026) == []
    assert party_count_problems("Heron Bay Resorts placed 4 orders in 2025.", records, 2026) == []
    assert party_count_problems("Heron Bay Resorts placed 5 orders in 2025.", records, 2026)
    assert party_count_problems("Since August, Heron Bay Resorts has placed 3 orders.", records, 2026) == []
