"""Classes of the records design read since round V (issue 44): a value said of an item the statement names, which
none of that item's own rows gives and no record about it holds, is false rather than left undecided; a range whose
one end is a row's day and the other is not that row's other day is false. Each true statement passes, its false
twin fails. Pure functions over small texts and records."""

from __future__ import annotations

from datetime import datetime

from officesim.evaluators.records import build_records
from officesim.evaluators.verdicts import Scope, read

NOW = datetime(2026, 11, 16, 9, 0)


def _book(*sheets: tuple[str, list[list]]) -> dict:
    return {"kind": "xlsx", "sheet_order": [n for n, _r in sheets], "sheets": dict(sheets)}


def _reading(text: str, records):
    return read(text, records, Scope(now=NOW, year=NOW.year))


# ---- an amount said of a named item, which only other records hold, or none ------------------------------------

def _contracts():
    customers = [["Customer", "Email"], ["Kite Field Sports", "ines@kitefield.test"],
                 ["Cedar Row Hotels", "ops@cedarrow.test"]]
    register = [["Contract", "Party", "Ends", "Annual value"],
                ["CTR-1", "Kite Field Sports", "2027-08-31", "14000"],
                ["CTR-2", "Cedar Row Hotels", "2027-07-31", "115500"]]
    orders = [["Order", "Customer", "Total"], *[[f"SO-{k}", "Kite Field Sports", str(300 + k)] for k in range(8)]]
    return build_records({"data/customers.xlsx": _book(("Customers", customers)),
                          "data/contracts.xlsx": _book(("Contracts", register)),
                          "data/orders.xlsx": _book(("Orders", orders))}, 2026)


def test_an_amount_of_a_named_item_is_read_against_its_own_rows():
    records = _contracts()
    true = _reading("- Kite Field Sports: agreement ends 31 August 2027 (£14,000 a year)", records)
    assert not true.false
    false = _reading("- Kite Field Sports: agreement ends 31 August 2027 (£41,000 a year)", records)
    assert [v for v in false.false if v.value == "£41,000" and "14000" in v.why]
    # another party's amount given to this one is false too
    swapped = _reading("- Kite Field Sports: agreement ends 31 August 2027 (£115,500 a year)", records)
    assert [v for v in swapped.false if v.value == "£115,500"]


def test_a_figure_worked_out_from_the_items_own_amount_stays_true():
    records = _contracts()
    text = "- Kite Field Sports: £14,000 a year now, £14,560 after the 4% increase (£560 more)."
    assert not [v for v in _reading(text, records).false if v.value in ("£14,560", "£560")]


def test_a_value_no_reading_decides_is_counted_unread():
    records = _contracts()
    reading = _reading("Kite Field Sports: about £2,000,000 across the sector, according to the trade press.",
                       records)
    decided = {v.value for v in reading.verdicts}
    assert "£2,000,000" in decided or reading.unread


# ---- a range whose one end is a row's day and the other is not -------------------------------------------------

def _leave():
    rows = [["Employee", "Type", "Start", "End", "Status"],
            ["Felix Weber", "Annual leave", "2026-10-21", "2026-11-07", "Approved"]]
    return build_records({"data/leave.xlsx": _book(("Leave", rows))}, 2026)


def test_a_range_is_read_against_the_rows_first_and_last_day():
    records = _leave()
    assert not _reading("Felix Weber is on annual leave from 21 October to 7 November.", records).false
    wrong_start = _reading("Felix Weber is on annual leave from 26 October to 7 November.", records)
    assert [v for v in wrong_start.false if v.value == "26 October" and "2026-10-21" in v.why]
    wrong_end = _reading("Felix Weber is on annual leave from 21 October to 9 November.", records)
    assert [v for v in wrong_end.false if v.value.startswith("9 November")]


def test_a_range_that_is_not_the_rows_is_not_read_as_it():
    records = _leave()
    # neither end is the row's: a window of the writer's own, not a claim about the leave
    assert not [v for v in _reading("Felix Weber could meet from 9 November to 13 November.", records).false
                if "runs" in v.why]
