"""Counts said of the office's records and of the episode's own work (evaluators/record_counts.py), each true
statement with its false twin; and today's date said as a named item's own date. Pure functions."""

from __future__ import annotations

from datetime import date, datetime

from officesim.evaluators.record_counts import Work, changed_rows, count_problems, stem
from officesim.evaluators.records import build_records
from officesim.evaluators.verdicts import Scope, read

NOW = datetime(2026, 12, 1, 9, 0)


def _book(*sheets: tuple[str, list[list]]) -> dict:
    return {"kind": "xlsx", "sheet_order": [n for n, _r in sheets], "sheets": dict(sheets)}


def _orders():
    rows = [["Order", "Customer", "Order date", "Amount"]]
    # Rowan Park Gyms: 3 orders in October, 2 in November; Heron Bay Resorts: 1 in October, 1 in November
    for n, (who, day) in enumerate([("Rowan Park Gyms", "2026-10-03"), ("Rowan Park Gyms", "2026-10-12"),
                                    ("Rowan Park Gyms", "2026-10-20"), ("Rowan Park Gyms", "2026-11-02"),
                                    ("Rowan Park Gyms", "2026-11-27"), ("Heron Bay Resorts", "2026-10-08"),
                                    ("Heron Bay Resorts", "2026-11-26")]):
        rows.append([f"SO-726{n:02d}", who, day, 100 + n])
    return build_records({"data/sales/orders_2026.xlsx": _book(("Orders", rows))}, 2026)


def _said(text: str, work: Work = Work(), context: str = "") -> list[tuple[str, str]]:
    return count_problems(text, _orders(), work, 2026, context)


def test_stem_matches_a_tables_name():
    assert stem("deliveries") == "delivery" and stem("orders") == "order" and stem("Boxes") == "box"


def test_a_partys_count_of_rows_in_a_year():
    context = "- Rowan Park Gyms: last order SO-72604"
    assert not _said("For context, they've placed 5 orders with us so far this year.", context=context)
    assert _said("For context, they've placed 85 orders with us so far this year.", context=context)


def test_a_months_count_of_rows():
    assert not _said("We took 4 orders in October.")
    assert not _said("Rowan Park Gyms placed 3 orders in October.")
    assert _said("We took 14 orders in October.")
    assert _said("Rowan Park Gyms placed 4 orders in October.")


def test_a_days_count_of_rows():
    assert not _said("On 26 November Heron Bay Resorts placed one order and nothing since.")


def test_a_count_with_a_condition_it_cannot_read_is_left_alone():
    assert not _said("Rowan Park Gyms has 9 orders still awaiting delivery.")
    assert not _said("Three orders arrived late.")
    assert not _said("12 customers ordered in October.")  # no table of customers here


def test_a_count_of_its_own_list_or_of_what_was_just_named_is_left_alone():
    assert not _said("They placed three orders (SO-72600, SO-72601 and SO-72602) in October.")
    assert not _said("The sheet now reflects every notice from the past 30 days (15 orders).")
    assert not _said("That is eight orders in total: six from gyms and two from resorts.")
    assert not _said("I looked at the three orders Rowan Park Gyms placed last week.")


def test_a_count_of_rows_the_episode_changed():
    work = Work(rows_done=(15,), rows_gold=(15,))
    assert not _said("I recorded 15 deliveries in purchase_orders_2026.xlsx.", work)
    assert _said("I recorded 14 deliveries in purchase_orders_2026.xlsx.", work)


def test_a_count_of_meetings_the_episode_booked():
    events = tuple((f"QBR: customer {n}", date(2026, 10, 26 + n)) for n in range(5))
    work = Work(events=events, gold_events=5)
    assert not _said("All five quarterly business reviews are booked for the week of 26 October.", work)
    assert _said("All four quarterly business reviews are booked for the week of 26 October.", work)
    # a count it could not book is not a count of what it booked
    assert not _said("Two reviews could not be booked before the deadline.", work)


def test_a_count_the_task_gives_is_true():
    assert not _said("We took 14 orders in October.", Work(given=frozenset({14})))


def test_changed_rows_counts_changed_and_added_rows():
    before = {"a.xlsx": _book(("S", [["Id", "Status"], ["A1", "Open"], ["A2", "Open"]]))}
    after = {"a.xlsx": _book(("S", [["Id", "Status"], ["A1", "Done"], ["A2", "Open"], ["A3", "New"]]))}
    assert changed_rows(before, after) == (2,)
    assert changed_rows(before, before) == ()


def test_todays_date_said_as_an_items_own_date_is_false():
    records = _orders()
    scope = Scope(now=NOW, year=2026)
    wrong = read("- Heron Bay Resorts: last order SO-72606, placed on 1 December 2026", records, scope)
    assert wrong.false
    right = read("- Heron Bay Resorts: last order SO-72606, placed on 26 November 2026", records, scope)
    assert not right.false
    # today as the day of writing stays true
    assert not read("As of 1 December 2026, Heron Bay Resorts' last order is SO-72606.", records, scope).false


# ---- a share of a whole the office holds ------------------------------------------------------------------

def _customers():
    rows = [["Customer", "Region", "Revenue", "Staff"],
            ["Heron Bay Resorts", "North", 207392.0, 14], ["Cedar Row Hotels", "South", 183729.0, 35],
            ["Sorrel Bay Cafes", "South", 152048.5, 8], ["Larch Mill Breweries", "North", 143152.5, 20],
            ["Juniper Dental", "North", 130200.0, 9]]
    return build_records({"data/sales/customers.xlsx": _book(("Customers", rows))}, 2026)


def test_a_share_of_a_tables_total_is_read():
    records, scope = _customers(), Scope(now=NOW, year=2026)
    assert not read("Heron Bay Resorts alone is about 25% of the revenue of the five.", records, scope).false
    # 35 is another customer's staff, which is no share of anything
    assert read("Heron Bay Resorts alone is about 35% of the revenue of the five.", records, scope).false


def test_a_share_is_not_read_as_a_change():
    records, scope = _customers(), Scope(now=NOW, year=2026)
    # 207,392 is some 35% more than another total (153,502.50 is none here): "of" asks for a share only
    assert read("Heron Bay Resorts alone is 54% of the revenue of the five.", records, scope).false


# ---- a statement to one addressee is about them ---------------------------------------------------------

def test_a_statement_to_its_addressee_is_read_against_their_rows():
    rows = [["Name", "Email", "Team", "Manager", "Start date"],
            ["Viktor Moss", "viktor.moss@harbourline.test", "Operations", "Hana Costa", "2026-05-20"],
            ["Hana Costa", "hana.costa@harbourline.test", "Operations", "Sven Rahman", "2024-01-08"]]
    records = build_records({"data/people/staff_directory.xlsx": _book(("Staff", rows))}, 2026)
    scope = Scope(now=NOW, year=2026)
    to = "viktor.moss@harbourline.test"
    assert not read("Your start date is 20 May 2026.", records, scope, addressee=to).false
    assert read("Your start date is 25 May 2026.", records, scope, addressee=to).false
    # their manager's row is not theirs: the manager's start date is not said of them
    assert read("Your start date is 8 January 2024.", records, scope, addressee=to).false
