"""Whether a deadline has passed (evaluators/timing.py): "overdue", "has expired", "can still be given"
are read against the dates of the item they are said of."""

from __future__ import annotations

from datetime import date

import pytest

from officesim.evaluators.records import build_records
from officesim.evaluators.timing import deadline_problems

TODAY = date(2026, 11, 20)


@pytest.fixture(scope="module")
def records():
    return build_records({
        "data/invoices.xlsx": {"kind": "xlsx", "sheet_order": ["Invoices"], "sheets": {"Invoices": [
            ["Invoice", "Customer", "Issued", "Due date", "Amount"],
            ["INV-1001", "Umber Freight", "2026-09-01", "2026-10-01", 1200],
            ["INV-1002", "Kite Co", "2026-11-01", "2026-12-01", 900]]}},
        "data/contracts.xlsx": {"kind": "xlsx", "sheet_order": ["Register"], "sheets": {"Register": [
            ["Contract", "Supplier", "Notice deadline", "End date"],
            ["CTR-2401", "Umber Freight", "2026-10-01", "2026-12-31"],
            ["CTR-2402", "Kite Co", "2026-12-20", "2027-03-31"]]}},
        "data/orders.xlsx": {"kind": "xlsx", "sheet_order": ["Orders"], "sheets": {"Orders": [
            ["Order", "Ordered", "Due"], ["PO-3001", "2026-11-10", "2026-12-15"]]}},
    }, 2026)


@pytest.mark.parametrize("text", [
    "INV-1002 is overdue.",
    "INV-1001 and INV-1002 are overdue.",
    "INV-1002 is overdue, INV-1001 is not yet due.",
    "Overdue invoices:\n- INV-1001 (Umber Freight)\n- INV-1002 (Kite Co)",
    "Notice can still be given on CTR-2401.",
    "CTR-2402 has expired.",
    "We missed the notice deadline on CTR-2402.",
    "INV-1001 isn't yet due.",
    "INV-1001 isn't past due yet.",
    "Invoice INV-1001 is not yet due, so we will deduct it from the next payment run.",
    "Past their due date:\n- INV-1001, due 1 October 2026\n- INV-1001, due 1 October (due next week, just a heads-up)",
])
def test_a_deadline_said_to_have_passed_or_to_be_ahead_against_its_dates_is_false(text, records):
    assert deadline_problems(text, records, TODAY), text


@pytest.mark.parametrize("text", [
    "INV-1001 is overdue.",
    "INV-1001 is overdue, INV-1002 is not yet due.",
    "Overdue invoices:\n- INV-1001 (Umber Freight)",
    "Notice can still be given on CTR-2402.",
    "CTR-2401: the notice deadline has passed; it ends 31 December.",  # the notice, not the end, has passed
    "INV-1002 will be overdue from next week.",  # a future
    "INV-1001 is not overdue: it was paid.",  # a paid invoice is not overdue whatever its date
    "If INV-1002 is not paid it becomes overdue.",  # a condition
    "Is INV-1002 overdue?",  # a question
    "INV-1001 for PO-3001 is overdue.",  # said of the invoice, which fits; the order's due is not read
    "INV-9999 is overdue.",  # not an item of the office
    "Kite Co had nothing open or overdue: its invoice INV-1002 (due 1 December) isn't past due yet.",
])
def test_a_true_or_unread_deadline_status_passes(text, records):
    assert deadline_problems(text, records, TODAY) == [], text


def test_the_message_names_the_item_its_date_and_today(records):
    [message] = deadline_problems("Notice can still be given on CTR-2401.", records, TODAY)
    assert "CTR-2401" in message and "2026-10-01" in message and "2026-11-20" in message
