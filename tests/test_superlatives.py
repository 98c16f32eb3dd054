"""Superlatives said of the items a task lists (evaluators/superlatives.py). Pure: offices by hand."""

from __future__ import annotations

from datetime import datetime

import pytest

from officesim.evaluators.superlatives import ranked_lists, superlative_problems

BEFORE: dict = {}
GOLD = {"data/reports/overdue.xlsx": {"kind": "xlsx", "sheet_order": ["Sheet1"], "sheets": {"Sheet1": [
    ["Invoice", "Supplier", "Amount", "Due date"],
    ["ZC-2602-0033", "Zephyr Couriers", 155.59, "2026-02-16"],
    ["BS-2603-0101", "Birchwood Stationers", 980.00, "2026-04-22"],
    ["PC-2609-0336", "Pinecrest Catering", 5843.61, "2026-11-16"],
    ["Total", None, 6979.20, None],
]}}}


@pytest.mark.parametrize("text, fails", [
    ("The oldest is ZC-2602-0033 from Zephyr Couriers, due 16 February.", False),
    ("The oldest is BS-2603-0101, due 22 April.", True),
    ("The largest of them was PC-2609-0336 (£5,843.61).", False),
    ("Birchwood Stationers is our biggest supplier here.", True),
    ("Pinecrest Catering is the latest to fall due.", False),
    ("The most recent was for BS-2603-0101.", True),
    ("The biggest order this year was SO-1234.", False),  # not an item of the list: not judged
    ("Below are the open invoices, latest first: BS-2603-0101, ZC-2602-0033.", False),  # an order, not a claim
    ("Below are the open invoices, the latest: BS-2603-0101.", True),
])
def test_a_superlative_must_hold_over_the_list_the_task_writes(text, fails):
    lists = ranked_lists(BEFORE, GOLD)
    assert bool(superlative_problems(text, lists)) is fails, superlative_problems(text, lists)


def test_a_list_ranked_by_a_column_is_read_by_that_column():
    gold = {"data/ranking.xlsx": {"kind": "xlsx", "sheet_order": ["Ranking"], "sheets": {"Ranking": [
        ["Rank", "Supplier", "Invoiced", "Contract value"],
        [1, "Umber Freight", 134651.76, 75000.0],
        [2, "Yarrow Energy", 127271.57, 140000.0],
        [3, "Saltmarsh Cleaning", 120038.32, 96000.0]]}}}
    lists = ranked_lists({}, gold)
    assert superlative_problems("Yarrow Energy is our biggest supplier this year.", lists)
    assert superlative_problems("Umber Freight is our biggest supplier this year.", lists) == []
    assert datetime  # the module reads dates written as text and as dates alike


def test_the_largest_of_a_list_ranked_by_a_count_is_read_by_its_amounts_too():
    gold = {"data/late.xlsx": {"kind": "xlsx", "sheet_order": ["Late"], "sheets": {"Late": [
        ["Invoice", "Supplier", "Amount", "Days late"],
        ["YE-2608-0256", "Yarrow Energy", 9504.84, 9],
        ["WP-2606-0178", "Willowby Packaging", 11734.30, 8],
        ["TF-2609-0302", "Thornbury Furniture", 1378.08, 7]]}}}
    lists = ranked_lists({}, gold)
    assert superlative_problems("The largest is Willowby Packaging's WP-2606-0178.", lists) == []
    assert superlative_problems("The largest is TF-2609-0302.", lists)


def test_a_superlative_said_of_a_party_is_read_over_the_sums_of_its_rows():
    gold = {"data/run.xlsx": {"kind": "xlsx", "sheet_order": ["Run"], "sheets": {"Run": [
        ["Invoice", "Supplier", "Amount"],
        ["UF-1", "Umber Freight", 6000.0], ["UF-2", "Umber Freight", 7388.15],
        ["TF-1", "Thornbury Furniture", 2000.0], ["TF-2", "Thornbury Furniture", 2000.0],
        ["YE-1", "Yarrow Energy", 9504.84], ["YE-2", "Yarrow Energy", 100.0]]}}}
    lists = ranked_lists({}, gold)
    assert superlative_problems("The biggest payee this time is Thornbury Furniture.", lists)
    assert superlative_problems("The biggest payee this time is Umber Freight at £13,388.15.", lists) == []
    assert superlative_problems("Thornbury Furniture is the supplier we owe most.", lists)
    assert superlative_problems("Umber Freight is owed the most.", lists) == []
    assert superlative_problems("Thornbury Furniture is owed the least.", lists) == []
    # said of one row: Yarrow Energy holds the largest single invoice
    assert superlative_problems("The largest invoice is from Yarrow Energy.", lists) == []


def test_a_superlative_of_a_change_is_read_by_any_column_of_the_list():
    gold = {"data/q3.xlsx": {"kind": "xlsx", "sheet_order": ["S"], "sheets": {"S": [
        ["Product", "Q3 2026", "Q3 2025", "Change"],
        ["Desk Organiser", 647.0, 319.0, 328.0], ["Filing Cabinet", 571.0, 201.0, 370.0],
        ["Desk Lamp", 355.0, 300.0, 55.0]]}}}
    lists = ranked_lists({}, gold)
    assert superlative_problems("The largest increase was Filing Cabinet, up 370 units.", lists) == []
    assert superlative_problems("The largest increase was Desk Lamp.", lists)
    assert superlative_problems("The best seller was Filing Cabinet.", lists)  # by the column the list is ranked by
