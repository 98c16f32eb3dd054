"""What a text says of its own lists (evaluators/consistency.py)."""

from __future__ import annotations

from officesim.evaluators.consistency import day_total_problems, kind_count_problems

TICKETS = ("These helpdesk tickets are waiting for me:\n#5102 — Password expiry\n#5106 — Printer jam floor 2\n"
           "#5112 — Password expiry\n#5116 — Printer jam floor 2\n#5126 — Printer jam floor 2\n\n{}")
LATE = ("These deliveries arrived late:\n- PO-4778: promised 25 September 2026, delivered 1 October 2026\n"
        "- PO-4834: promised 5 November 2026, delivered 14 November 2026\n\n{}")


def test_a_count_of_the_texts_own_lines_of_one_kind_must_be_how_many_say_it():
    assert kind_count_problems(TICKETS.format("Most of them (3) are printer jam floor 2.")) == []
    assert kind_count_problems(TICKETS.format("Two of them are password expiry.")) == []
    assert kind_count_problems(TICKETS.format("Most of them (4) are password expiry."))
    assert kind_count_problems(TICKETS.format("Three are VPN slow.")) == []  # no line says it: not read


def test_a_total_of_days_late_over_the_texts_own_lines_is_the_sum_of_their_differences():
    assert day_total_problems(LATE.format("Together they arrived 15 days late."), 2026) == []  # 6 + 9
    assert day_total_problems(LATE.format("Together they arrived 17 days late."), 2026)  # both ends counted
    assert day_total_problems(LATE.format("They arrived 9 days late at worst."), 2026) == []  # no total


def test_a_state_or_a_kind_only_one_line_says_is_not_a_kind_of_the_list():
    run = ("Payment run:\n- ZC-2602-0033: £120.00, due 16 February (already overdue)\n- PC-2609-0336: £5,843.61\n"
           "- YE-2611-0389: £300.00\n\n{}")
    assert kind_count_problems(run.format("15 of them are already overdue.")) == []
    assert kind_count_problems(TICKETS.format("Two of them are new laptop ready.")) == []  # no line says it twice

