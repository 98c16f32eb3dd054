"""Figures and changes said of the rows of a table the task writes (evaluators/written_tables.py)."""

from officesim.evaluators.superlatives import ranked_lists
from officesim.evaluators.written_tables import direction_problems, moved_figure_problems


def _lists():
    rows = [["Product", "Units Q3 2025", "Units Q3 2026"], ["Filing Cabinet", 172, 597], ["Label Printer", 234, 402],
            ["Paper A4 (5 reams)", 339, 447], ["Archive Box (10)", 120, 458], ["Desk Fan", 95, 61]]
    gold = {"data/report.xlsx": {"kind": "xlsx", "sheet_order": ["S"], "sheets": {"S": rows}}}
    return ranked_lists({}, gold)


def test_another_rows_figure_said_of_a_row_is_false():
    lists = _lists()
    wrong = moved_figure_problems("Best seller: Filing Cabinet with 597 units, up from 234 in Q3 2025.", lists)
    assert len(wrong) == 1 and "234" in wrong[0] and "label printer" in wrong[0]
    for right in ("Best seller: Filing Cabinet with 597 units, up from 172 in Q3 2025 (+425).",
                  "Filing Cabinet (597) beat Label Printer (234 last year, 402 now).",
                  "Archive Box (10) rose by 338 units.",  # its own change; the 10 is part of its name
                  "Filing Cabinet sold 597 units; 234 orders were placed in all."):  # a figure of no row near it
        assert moved_figure_problems(right, lists) == [], right
    assert moved_figure_problems("South sold most.", lists) == []


def test_a_fall_said_of_a_row_that_rose_is_false():
    lists = _lists()
    assert direction_problems("Paper A4 is the only product that sold fewer units than a year ago.", lists)
    assert direction_problems("Filing Cabinet fell this quarter.", lists)
    for right in ("Desk Fan sold fewer units than last year.", "Paper A4 rose from 339 to 447.",
                  "Paper A4 did not sell fewer units than last year.", "Desk Fan dropped to 61.",
                  "Filing Cabinet sold more than 500 units."):  # a comparison with a number, not with last year
        assert direction_problems(right, lists) == [], right


def test_a_figure_far_from_any_row_name_is_not_read():
    lists = _lists()
    text = "Filing Cabinet is this year's best seller, which the whole sales team will be glad to hear: 234."
    assert moved_figure_problems(text, lists) == []


def test_a_figure_is_said_of_the_name_before_it_unless_a_name_right_after_takes_it():
    lists = _lists()
    assert moved_figure_problems("Filing Cabinet rose most (+425) and Paper A4 least (+108).", lists) == []
    assert moved_figure_problems("172 units for Label Printer last year.", lists)  # 172 is Filing Cabinet's
    assert moved_figure_problems("234 units for Label Printer last year.", lists) == []
