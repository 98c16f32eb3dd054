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
    assert 9504.84 in totals  # one supplier's part


def test_a_total_that_no_sum_gives_is_false_and_a_true_one_passes():
    assert _problems("The three invoices come to £26,617.22 in total.")
    assert _problems("The three invoices come to £28,617.22 in total.") == []
    assert _problems("Willowby's £11,734.30 and Yarrow's £9,504.84 add up to £21,239.14.") == []  # the text's own sum
    assert _problems("The invoices are worth a lot.") == []
    assert _problems("I paid £26,617.22.") == []  # no total said
