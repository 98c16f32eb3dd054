"""Classes a calibration round found (issue 44, round S: honest outcomes that failed for true context): each
true statement below had failed; its false twin still fails. Pure functions over small texts and records."""

from __future__ import annotations

from officesim.evaluators.claims import claims_in
from officesim.evaluators.facts import find, phone_in
from officesim.evaluators.records import build_records
from officesim.evaluators.statements import list_sizes
from officesim.evaluators.task_sets import ItemSet, set_count_problems
from officesim.evaluators.verdicts import day_count_of_records, share_of_text, sum_of_sentence


def _number(text: str, written: str):
    return next(c for c in claims_in(text, year=2026, kinds=("number",)) if c.text == written)


def _book(*sheets: tuple[str, list[list]]) -> dict:
    return {"kind": "xlsx", "sheet_order": [n for n, _r in sheets], "sheets": dict(sheets)}


# ---- the size of a list the text writes ----------------------------------------------------------------------

def test_a_list_of_four_has_size_four_with_or_without_blank_lines():
    listed = "Open:\n- #5119 Teams room display\n- #5121 VPN\n- #5124 laptop\n- #5130 printer\n\nThanks"
    assert 4 in list_sizes(listed)
    spaced = "Ticket 5119: display\n\nTicket 5121: VPN\n\nTicket 5124: laptop\n"
    assert 3 in list_sizes(spaced)
    assert 5 not in list_sizes(listed)


# ---- shares and sums of the text's own figures -----------------------------------------------------------------

def test_a_share_of_the_texts_own_figures_is_true_and_a_wrong_one_is_not():
    text = "Six actions remain open: Zoe Novak 2 (33%), Aiko Amari 1 (17%), Vera Chen 3 (50%)."
    assert share_of_text(_number(text, "33"), text, 2026)
    assert share_of_text(_number(text, "17"), text, 2026)
    wrong = text.replace("(17%)", "(25%)")
    assert not share_of_text(_number(wrong, "25"), wrong, 2026)


def test_a_total_is_the_sum_of_the_figures_before_it():
    text = "Open actions: Aiko Amari 3, Vera Chen 1 and Zoe Novak 2 — 6 in all."
    assert sum_of_sentence(_number(text, "6"), text, 2026)
    wrong = text.replace("6 in all", "7 in all")
    assert not sum_of_sentence(_number(wrong, "7"), wrong, 2026)


# ---- phones written run together, and '30-day' ---------------------------------------------------------------

def test_a_phone_number_run_together_is_the_same_number():
    assert phone_in("Call her on +447700900852 today.", "+44 7700 900852") is not None
    assert phone_in("Call her on 07700 900852.", "+44 7700 900852") is not None
    assert phone_in("Call her on +447700900853 today.", "+44 7700 900852") is None


def test_a_30_day_window_states_30_days():
    assert find("We refund within a 30-day window.", "30 days") is not None
    assert find("We refund within a 14-day window.", "30 days") is None


# ---- day counts between two dates of one record --------------------------------------------------------------

def test_a_day_count_between_two_dates_of_the_named_record():
    rows = [["Claim", "Expense date", "Submitted"], ["EXP-1082", "2026-09-01", "2026-09-08"]]
    records = build_records({"data/claims.xlsx": _book(("Claims", rows))}, 2026)
    text = "EXP-1082 was rejected. It was sent 7 days after your Hamburg travel."
    assert day_count_of_records(_number(text, "7"), text, records, year=2026)
    wrong = text.replace("7 days", "12 days")
    assert not day_count_of_records(_number(wrong, "12"), wrong, records, year=2026)


# ---- a count followed by what it lists, or by a relative clause of its own -----------------------------------

def test_a_count_of_the_ids_it_lists_or_of_a_part_the_writer_picks_is_not_the_sets_size():
    rows = [["Contract", "Customer", "Ends"], *[[f"CTR-23{k:02d}", f"Client {k}", "2027-03-01"] for k in range(8)]]
    records = build_records({"data/contracts.xlsx": _book(("Contracts", rows))}, 2026)
    sets = [ItemSet(frozenset({"contract"}), frozenset({8}), "contracts ending")]
    listed = "Five contracts expire in the window (CTR-2300, CTR-2301, CTR-2302, CTR-2303, CTR-2304)."
    assert set_count_problems(listed, sets, records) == []
    picked = "I found the 3 contracts we hold signed copies for."
    assert set_count_problems(picked, sets, records) == []
    wrong = "Five contracts expire in the window."
    assert set_count_problems(wrong, sets, records) != []
