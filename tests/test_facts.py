"""evaluators.facts: a fact in any common written form, never a part of another value."""

from __future__ import annotations

import pytest

from officesim.evaluators.facts import other_candidates, own_text, states


@pytest.mark.parametrize("text", ["Total: 3750", "total 3,750.00 due", "a $3,750 invoice", "3 750,00 € net",
                                  "3.750,00 EUR", "(3750)"])
def test_a_number_in_any_common_form(text):
    assert states(text, 3750)
    assert states(text, "3,750.00")


@pytest.mark.parametrize("text,value", [("by 100 units", 10), ("1100 pieces", 110), ("paid 42.45", 42.4),
                                        ("due 2026-04-10", 10), ("at 10:30", 30), ("INV-20410", "INV-2041")])
def test_no_part_of_another_value(text, value):
    assert not states(text, value)


def test_trailing_zeros_and_currency():
    assert states("it was 42.4 in all", "42.40")
    assert states("costs 62.00", 62)
    assert states("€12,50 each", 12.5)


@pytest.mark.parametrize("text", ["on 2026-04-13", "Monday 13 April", "13 April 2026", "April 13, 2026",
                                  "Mon, 13th of April", "13/04/2026", "April 13th"])
def test_a_date_in_common_forms(text):
    assert states(text, "2026-04-13", year=2026)


def test_wrong_date_or_year():
    assert not states("14 April 2026", "2026-04-13")
    assert not states("13 April 2025", "2026-04-13")


@pytest.mark.parametrize("text,value", [("at 9:00", "09:00"), ("from 9 am", "09:00"), ("9:00 AM sharp", "09:00"),
                                        ("at 2:30 pm", "14:30"), ("14:30", "14:30:00"), ("at noon", "12:00")])
def test_times(text, value):
    assert states(text, value)


def test_times_do_not_cross():
    assert not states("at 9:30", "09:00")
    assert not states("at 9 pm", "09:00")


def test_words_are_whole():
    assert states("Pay the rent now", "Rent")
    assert not states("Rental income", "rent")
    assert states("on Wednesdays at 10", "Wednesday")
    assert not states("Venue cost estimate: 588.75", "Venue cost estimate: 588")
    assert states("Venue cost estimate: 588.", "Venue cost estimate: 588")
    assert states("Venue cost estimate: 588.00 EUR", "Venue cost estimate: 588")
    assert states("venue cost estimate: $1,588", "Venue cost estimate: 1588")
    assert states("Room  4B\nis free", "room 4b")
    assert not states("Room 4B", "room 4b", case_sensitive=True)


def test_datetime_needs_both_parts():
    assert states("Monday 13 April at 9 am", "2026-04-13 09:00:00", year=2026)
    assert not states("Monday 13 April at 10 am", "2026-04-13 09:00:00", year=2026)


def test_hedges_are_other_candidates():
    assert other_candidates("Either 41.10 or 42.40", "42.40") == ["41.10"]
    assert other_candidates("It is 42.40.", "42.40") == []
    assert other_candidates("09:00-14:30", "14:30") == ["09:00"]
    assert other_candidates("The March total is 42.40", "42.40", ignore="What was the total in March 2026?") == []


def test_own_text_drops_the_quoted_original():
    reply = "Thanks, see you then.\n\nOn 2026-03-10 09:00, Bob <bob@x.test> wrote:\n> The total is 3750.\n> Bob"
    assert states(reply, 3750)
    assert not states(own_text(reply), 3750)
    forward = "FYI\n\n---------- Forwarded message ----------\nFrom: bob@x.test\nTotal 3750"
    assert own_text(forward).strip() == "FYI"
    assert own_text("> quoted\nmine") == "mine"


def test_a_list_of_facts_is_a_choice():
    assert states("see you Monday", ["Monday", "2026-03-16"], year=2026)
    assert states("see you on 16 March", ["Monday", "2026-03-16"], year=2026)
    assert not states("see you Tuesday", ["Monday", "2026-03-16"], year=2026)


def test_contains_check_takes_choices():
    from datetime import datetime

    from officesim.evaluators import EvalState
    from officesim.evaluators.registry import run_check

    state = EvalState(files={"data/n.txt": {"kind": "text", "text": "Budget review on 16 March"}},
                      now=datetime(2026, 3, 10))
    assert run_check("contains", {"file": "data/n.txt", "text": [["Monday", "2026-03-16"], "Budget review"]}, state).passed
    assert not run_check("contains", {"file": "data/n.txt", "text": [["Tuesday", "2026-03-17"]]}, state).passed


def test_a_range_shares_its_end_meridiem():
    from officesim.evaluators.facts import times_in
    found = [m.value.strftime("%H:%M") for m in times_in("4:00-5:00 PM, 11:00 to 1:00 pm, 10:30 - 11:30 p.m.")]
    assert found == ["16:00", "17:00", "11:00", "13:00", "22:30", "23:30"]


def test_a_weekday_before_an_iso_date_is_read_with_it():
    from officesim.evaluators.facts import dates_in, weekday_conflicts

    assert weekday_conflicts("the drill is on Friday 2026-08-20 at 14:00", 2026) == [
        "'Friday 2026-08-20' (2026-08-20 is a Thursday)"]
    assert weekday_conflicts("the drill is on Thursday 2026-08-20", 2026) == []
    assert [m.weekday for m in dates_in("due 2026-08-20", 2026)] == [None]


def test_a_count_before_a_noun_may_be_written_in_words():
    """'2 questions' is stated by 'two questions' (number-in-words writes a small count so); another count,
    or the noun alone, is not."""
    from officesim.evaluators.facts import states

    assert states("Please write two questions on the reading.", "2 questions")
    assert states("Please write 2 questions on the reading.", "2 questions")
    assert not states("Please write three questions on the reading.", "2 questions")
    assert not states("Please write questions on the reading.", "2 questions")


def test_a_range_that_names_its_month_once_gives_its_first_day():
    """"14-16 Dec 2026" and "Mon 14 – Wed 16 December" state the 14th as well as the 16th."""
    from datetime import date

    from officesim.evaluators.facts import dates_in
    for text in ("14-16 Dec 2026", "Mon 14 – Wed 16 Dec 2026", "from 14 to 16 December 2026"):
        assert {m.value for m in dates_in(text, 2026)} == {date(2026, 12, 14), date(2026, 12, 16)}, text
    assert {m.value for m in dates_in("14 Dec – 16 Dec 2026", 2026)} == {date(2026, 12, 14), date(2026, 12, 16)}


def test_a_schedule_under_day_headings_states_each_lines_day_and_time():
    from datetime import datetime

    from officesim.evaluators.facts import unbound

    text = "Monday 14 December:\n  09:30-10:00  Stefan Moreau\n\nTuesday 15 December:\n  09:30-10:00  Luca Iyer"
    groups = [["Stefan Moreau", datetime(2026, 12, 14, 9, 30)], ["Luca Iyer", datetime(2026, 12, 15, 9, 30)]]
    assert unbound(text, groups, year=2026, stretch=False) == []
    swapped = [["Stefan Moreau", datetime(2026, 12, 15, 9, 30)]]  # Stefan stands under Monday, not Tuesday
    assert unbound(text, swapped, year=2026, stretch=False) == swapped
