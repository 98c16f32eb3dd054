"""Day counts a text gives of the things it names (evaluators/day_counts.py): true when two dates of the item's
records (or today and one of them, or a date the text gives and another) are that many days apart; false
otherwise. Each false count has a true twin."""

from __future__ import annotations

from datetime import date

from officesim.evaluators.day_counts import day_count_problems
from officesim.evaluators.records import build_records

TODAY = date(2026, 11, 2)


def _book(*sheets: tuple[str, list[list]]) -> dict:
    return {"kind": "xlsx", "sheet_order": [n for n, _r in sheets], "sheets": dict(sheets)}


def _claims():
    rows = [["Claim", "Employee", "Expense date", "Submitted", "Amount"],
            ["EXP-4411", "Nadia Lin", "2026-08-03", "2026-09-17", "412.50"],
            ["EXP-4412", "Omar Sand", "2026-10-01", "2026-10-06", "88.00"]]
    return build_records({"data/claims.xlsx": _book(("Claims", rows))}, 2026)


def _leave():
    rows = [["Request", "Employee", "Requested on", "Start", "End", "Days"],
            ["LV-210", "Yara Moss", "2026-10-18", "2026-11-09", "2026-11-11", "3"]]
    return build_records({"data/leave.xlsx": _book(("Leave", rows))}, 2026)


def test_a_span_between_two_dates_of_one_row_is_true_and_another_is_false():
    records = _claims()
    assert day_count_problems("EXP-4411 was submitted 45 days after the expense.", records, today=TODAY) == []
    false = day_count_problems("EXP-4411 was submitted 52 days after the expense.", records, today=TODAY)
    assert len(false) == 1 and "52 days" in false[0]


def test_a_span_from_today_is_true():
    records = _claims()
    # 1 October to 2 November
    assert day_count_problems("EXP-4412's expense is 32 days old now: 32 days ago.", records, today=TODAY) == []
    assert day_count_problems("EXP-4412's expense was 40 days ago.", records, today=TODAY) != []


def test_notice_between_request_and_start_counts_and_a_wrong_one_does_not():
    records = _leave()
    assert day_count_problems("LV-210 gave 22 days' notice.", records, today=TODAY) == []
    assert day_count_problems("LV-210 gave 40 days' notice.", records, today=TODAY) != []


def test_a_date_the_text_gives_elsewhere_is_a_partner_of_a_near_one():
    records = _leave()
    text = ("Hi Yara,\n\nYour leave from 9 November to 11 November is approved.\n\n"
            "Thanks for asking early. Your request arrived on 18 October, 22 days ahead.")
    assert day_count_problems(text, records, today=TODAY, addressed=["yara moss"]) == []
    wrong = text.replace("22 days ahead", "35 days ahead")
    assert day_count_problems(wrong, records, today=TODAY, addressed=["yara moss"]) != []


def test_working_days_are_read_only_where_the_text_says_so_or_counts_a_length():
    records = _leave()
    # 9–11 November 2026: Monday to Wednesday, three working days; no two of its dates (nor today) are 12 apart
    assert day_count_problems("LV-210 covers 3 working days.", records, today=TODAY) == []
    assert day_count_problems("LV-210 covers 12 working days.", records, today=TODAY) != []


def test_bounds_rules_and_the_tasks_own_counts_are_not_read():
    records = _claims()
    assert day_count_problems("EXP-4411 came in more than 30 days after the expense.", records, today=TODAY) == []
    assert day_count_problems("EXP-4411: the policy allows 30 days to submit.", records, today=TODAY) == []
    assert day_count_problems("EXP-4411 was submitted 60 days after the expense.", records, today=TODAY,
                              given=[60]) == []


def test_an_identifier_names_the_item_more_closely_than_its_party():
    rows = [["Order", "Customer", "Order date", "Total"],
            *[[f"SO-7{2500 + k}", "Upland Outdoor", f"2026-{k % 10 + 1:02d}-{k % 27 + 1:02d}", "100"] for k in range(60)],
            ["SO-72566", "Upland Outdoor", "2026-11-06", "1050"]]
    records = build_records({"data/orders.xlsx": _book(("Orders", rows))}, 2026)
    text = "Upland Outdoor has gone quiet - it is now {} days since their last order, SO-72566."
    assert day_count_problems(text.format(10), records, today=date(2026, 11, 16)) == []
    # the party's other 60 orders give many spans from today; the order named gives one
    assert day_count_problems(text.format(14), records, today=date(2026, 11, 16)) != []


def test_a_list_item_is_read_by_its_own_dates_not_the_items_above():
    rows = [["PO", "Supplier", "Promised", "Delivered"], ["PO-4834", "Saltmarsh", "2026-11-05", "2026-11-14"],
            ["PO-4836", "Saltmarsh", "2026-11-09", "2026-11-15"]]
    records = build_records({"data/po.xlsx": _book(("Orders", rows))}, 2026)
    text = ("Late deliveries:\n- PO-4834: promised 5 November 2026, delivered 14 November 2026\n"
            "- PO-4836: promised 9 November 2026, delivered 15 November 2026 ({} days late)\n")
    assert day_count_problems(text.format(6), records, today=date(2026, 11, 16)) == []
    assert day_count_problems(text.format(9), records, today=date(2026, 11, 16)) != []
