"""A time of day in a cell compares as a time: '8:00' is 08:00, 8:00 AM and a time cell of 8:00 (as
OfficeBench's 1-6-2 expects '8:00' under a header the agent fills), never 8:00 PM."""

from __future__ import annotations

from datetime import time

import pytest

from officesim.evaluators.text import as_time_of_day, values_equal


@pytest.mark.parametrize("found", ["8:00", "08:00", "8:00:00", "8:00 AM", "8:00 am", "08:00 a.m.", time(8, 0)])
def test_the_same_time_of_day_in_any_common_form(found):
    assert values_equal("8:00", found)


@pytest.mark.parametrize("found", ["8:00 PM", "20:00", "8:10", "8", "8 am", "2024-05-01 08:00", 800])
def test_another_time_or_not_a_time_of_day(found):
    assert not values_equal("8:00", found)


def test_afternoon_and_invalid_clock_text():
    assert as_time_of_day("1:30 pm") == time(13, 30)
    assert as_time_of_day("12:00 AM") == time(0, 0)
    assert as_time_of_day("13:00 PM") is None and as_time_of_day("24:00") is None


def test_the_outcome_comparison_reads_times_of_day_alike():
    from officesim.evaluators.outcome import same_value

    assert same_value("8:00 AM", "8:00") and same_value(time(8, 10), "08:10")
    assert not same_value("8:00 PM", "8:00")
