"""Totals of the task's sets (evaluators/task_sets.py): a total the text gives of the rows the gold writes
is read against their sums."""

from __future__ import annotations

from officesim.evaluators.claims import same_claim
from officesim.evaluators.records import build_records
from officesim.evaluators.task_sets import set_totals, total_problems

HEADER = ["Invoice", "Supplier", "Amount", "Days late"]
ROWS = [["WP-1", "Willowby", 11734.30, 8], ["YE-2", "Yarrow", 9504.84, 9], ["TF-3", "Thornbury", 7378.08, 8]]
BEFORE = {"data/late.xlsx": {"kind": "xlsx", "sheets": {"Late": [HEADER]}}}
GOLD = {"data/late.xlsx": {"kind": "xlsx", "sheets": {"Late": [HEADER, *ROWS]}}}
RECORDS = build_records(BEFORE, 2026)


def _problems(text: str) -> list[str]:
    return total_problems(text, set_totals(BEFORE, GOLD, RECORDS), lambda c: False, RECORDS, 2026)


def test_the_sum_of_a_column_over_the_rows_the_gold_writes_is_a_total_of_the_set():
    totals = set_totals(BEFORE, GOLD, RECORDS)
    assert round(11734.30 + 9504.84 + 7378.08, 2) in totals
    assert 25 in totals  # the days late too
    # one supplier's "part" is its one row's own value: read against that row, never true of anything
    assert 9504.84 not in totals
    two = [*ROWS, ["YE-4", "Yarrow", 100.16, 3]]
    gold = {"data/late.xlsx": {"kind": "xlsx", "sheets": {"Late": [HEADER, *two]}}}
    assert round(9504.84 + 100.16, 2) in set_totals(BEFORE, gold, RECORDS)  # a part of two rows is a total


def test_a_total_that_no_sum_gives_is_false_and_a_true_one_passes():
    assert _problems("The three invoices come to £26,617.22 in total.")
    assert _problems("The three invoices come to £28,617.22 in total.") == []
    assert _problems("Willowby's £11,734.30 and Yarrow's £9,504.84 add up to £21,239.14.") == []  # the text's own sum
    assert _problems("The invoices are worth a lot.") == []
    assert _problems("I paid £26,617.22.") == []  # no total said


def test_a_total_of_a_list_without_amounts_is_the_sum_of_its_items_own_rows():
    office = {"data/invoices.xlsx": {"kind": "xlsx", "sheet_order": ["Invoices"], "sheets": {"Invoices": [
        ["Invoice", "Supplier", "Amount"], ["WP-2606-0178", "Willowby", 11734.30], ["YE-2608-0256", "Yarrow", 9504.84],
        ["TF-2609-0302", "Thornbury", 7378.08], ["QP-2609-0317", "Quayside", 100.0]]}}}
    header = ["Invoice", "Days late"]
    before = {**office, "data/late.xlsx": {"kind": "xlsx", "sheets": {"Late": [header]}}}
    gold = {**office, "data/late.xlsx": {"kind": "xlsx", "sheets": {"Late": [header, ["WP-2606-0178", 8], ["YE-2608-0256", 9],
                                                                                ["TF-2609-0302", 8]]}}}
    records = build_records(before, 2026)
    assert round(11734.30 + 9504.84 + 7378.08, 2) in set_totals(before, gold, records)


def test_a_total_of_differences_is_not_read_as_a_columns_sum():
    assert _problems("Held 3 invoices, overbilled by £1,271.79 in total.") == []


def test_a_total_of_differences_is_read_where_the_gold_states_each_difference():
    from officesim.evaluators.task_sets import stated_totals
    gold = ["CC-410 (Operations): spent £72,622.34 against £64,000.00, overspent by £8,622.34\n"
            "CC-610 (IT): spent £78,333.88 against £62,500.00, overspent by £15,833.88\n"
            "CC-710 (Marketing): spent £46,255.09 against £38,000.00, overspent by £8,255.09"]
    every, gaps = stated_totals(gold, 2026)
    assert 32711.31 in gaps and 197211.31 in every
    records = build_records({}, 2026)
    wrong = total_problems("The three teams overspent by £23,711.31 in total.", frozenset(), lambda c: False,
                           records, 2026, gaps)
    right = total_problems("The three teams overspent by £32,711.31 in total.", frozenset(), lambda c: False,
                           records, 2026, gaps)
    assert wrong and not right
    assert total_problems("The three teams overspent by £23,711.31 in total.", frozenset(), lambda c: False,
                          records, 2026) == []  # no difference stated by the gold: not read
