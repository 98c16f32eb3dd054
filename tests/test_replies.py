"""What a reply restates of the message it answers (evaluators/replies.py)."""

from __future__ import annotations

import pytest

from officesim.evaluators.replies import date_ranges, quoted_text, restated_range_problems

REQUEST = "Hi Hugo,\n\nCould I take annual leave from 10 November 2026 to 11 November 2026? Thanks!\n\nOmar"
REPLY = "Hi Omar,\n\n{}\n\nBest,\nHugo\n\nOn 2026-10-18 08:35, omar.nair@fernhill.test wrote:\n" + \
    "\n".join(f"> {line}" for line in REQUEST.splitlines())


def test_the_quoted_message_is_read_without_its_markers():
    assert "from 10 November 2026 to 11 November 2026" in quoted_text(REPLY.format("Approved."))
    assert quoted_text("No quote here.") == ""
    assert [(a.day, b.day) for a, b, _l, _h in date_ranges("on 10-11 November and from 3 to 5 December", 2026)] == \
        [(10, 11), (3, 5)]


@pytest.mark.parametrize("said, false", [
    ("Your annual leave from 10 to 12 November 2026 is approved.", True),  # one end moved
    ("Your annual leave on 9-11 November 2026 is approved.", True),
    ("Your annual leave on 10-11 November 2026 is approved.", False),
    ("Your annual leave from 10 November to 11 November is approved.", False),
    ("I can only approve 10-12 November; 11 November is full.", False),  # a part, said as one
    ("The office is closed 10-12 November, so enjoy the long break.", False),  # not of your request
    ("Your leave of 10-11 November is approved; the team offsite of 10-12 November moves.", False),
])
def test_a_range_that_moves_one_end_of_the_request_is_false(said, false):
    body = REPLY.format(said)
    assert bool(restated_range_problems(said, quoted_text(body), 2026)) is false
