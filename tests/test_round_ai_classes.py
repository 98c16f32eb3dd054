"""Classes read since round AI's replay (issue 44): false statements AI's blind wrong outcomes passed with, each
beside its true twin. Pure functions over small texts, tables and records."""

from __future__ import annotations

from officesim.evaluators.records import build_records
from officesim.evaluators.superlatives import order_problems, ranked_lists, superlative_problems
from officesim.evaluators.written_tables import moved_figure_problems, percent_problems


def _book(rows: list[list]) -> dict:
    return {"kind": "xlsx", "sheet_order": ["Sheet1"], "sheets": {"Sheet1": rows}}


def _units():
    """A product table of two years the gold writes, ranked by this year's units."""
    rows = [["Product", "Units Q3 2026", "Units Q3 2025", "Change"],
            ["Desk Organiser", 647, 319, 328], ["Filing Cabinet", 571, 201, 370],
            ["Archive Box (10)", 570, 284, 286], ["Whiteboard 120cm", 339, 226, 113]]
    return ranked_lists({}, {"data/units.xlsx": _book(rows)})


def _reforecast():
    rows = [["Cost centre", "Q4 budget", "Paid to date", "Open orders", "Forecast"],
            ["CC-110", 2500.0, 0.0, 0.0, 0.0], ["CC-310", 57500.0, 71747.14, 5217.61, 76964.75],
            ["CC-410", 76000.0, 95160.14, 5620.83, 100780.97], ["CC-610", 44500.0, 50537.82, 2863.5, 53401.32]]
    return ranked_lists({}, {"data/reforecast.xlsx": _book(rows)})


def test_a_best_seller_of_a_named_year_is_read_by_that_years_column():
    lists = _units()
    assert not superlative_problems("Best seller this year: Desk Organiser (647 units).\n"
                                    "Best seller last year: Desk Organiser (319 units).", lists, 2026)
    assert superlative_problems("Best seller last year: Archive Box (10) (284 units).", lists, 2026)
    # the top of the change column is not this year's best seller
    assert superlative_problems("Best seller this year: Filing Cabinet (571 units).", lists, 2026)
    assert not superlative_problems("The biggest increase was the Filing Cabinet.", lists, 2026)
    assert superlative_problems("The biggest increase was the Whiteboard 120cm.", lists, 2026)


def test_a_superlative_of_a_name_with_its_identifier_in_brackets_is_that_rows():
    lists = _reforecast()
    assert superlative_problems("the biggest overrun is Purchasing (CC-310), £19,464.75 over.", lists)
    assert not superlative_problems("the biggest overrun is Operations (CC-410), £24,780.97 over.", lists)
    # the least overrun is of the rows that are over, not of a row with nothing spent
    assert not superlative_problems("The smallest overrun is IT (CC-610).", lists)
    assert superlative_problems("The smallest overrun is Purchasing (CC-310).", lists)


def test_a_superlative_after_a_bracket_and_an_adverb_is_read():
    rows = [["Customer", "Region", "Revenue"], ["Sorrel Bay Cafes", "North", 226487.0],
            ["Ivy Lane Bakeries", "South", 221193.5], ["Marigold Care Homes", "North", 192005.0],
            ["Beacon Hill Schools", "North", 188090.0]]
    lists = ranked_lists({}, {"data/qbr.xlsx": _book(rows)})
    assert superlative_problems("Ivy Lane Bakeries (South) is actually our biggest customer overall.", lists)
    assert not superlative_problems("Sorrel Bay Cafes (North) is actually our biggest customer overall.", lists)
    assert order_problems("Beacon Hill Schools comes second, just ahead of Marigold Care Homes.", lists)
    assert not order_problems("Marigold Care Homes comes just ahead of Beacon Hill Schools.", lists)
    assert not order_problems("Beacon Hill Schools is not ahead of Marigold Care Homes.", lists)


def test_a_figure_in_a_columns_unit_must_be_one_of_the_rows_figures():
    lists = _units()
    assert moved_figure_problems("The Desk Organiser led — 674 units this Q3 against 319 a year earlier.", lists)
    assert not moved_figure_problems("The Desk Organiser led — 647 units this Q3 against 319 a year earlier.", lists)
    assert not moved_figure_problems("Desk Organiser: 647 units from 41 order lines.", lists)
    # a total of the table is no row's figure, and says so
    assert not moved_figure_problems("In total we sold 2,127 units; Desk Organiser led with 647.", lists)


def test_a_percentage_change_of_a_row_must_follow_from_its_figures():
    lists = _units()
    assert percent_problems("- Fastest growth: Filing Cabinet, up 84% (201 → 571)", lists)
    assert not percent_problems("- Fastest growth: Filing Cabinet, up 184% (201 → 571)", lists)
    assert not percent_problems("Desk Organiser up 103 %, Filing Cabinet up 184 %", lists)
    assert not percent_problems("Desk Organiser is 30% of all units sold", lists)  # a share of something else
    refo = _reforecast()
    assert percent_problems("CC-610 is about 30% over budget.", refo)
    assert not percent_problems("CC-610 is about 20% over budget.", refo)


def test_a_result_said_to_follow_from_figures_before_it_must_follow():
    from officesim.evaluators.stated_results import result_problems

    assert result_problems("We forecast £310,536.09 against a combined budget of £268,000, i.e. £52,536.09 over.")
    assert not result_problems("We forecast £310,536.09 against a combined budget of £268,000, i.e. £42,536.09 over.")
    assert not result_problems("2 x Standing Desk at £520.00 each = £1,040.00, above the limit.")
    assert result_problems("571 - 201 = 380 more units.")
    assert not result_problems("Forecast £310,536.09 against £268,000, which leaves about £42,500 of overspend.")
    assert not result_problems("We have 13 open orders worth £16,954.49, i.e. 4 cost centres are over.")


def test_a_table_row_pairing_a_party_with_another_partys_person_is_false():
    from officesim.evaluators.pairings import pairing_problems

    customers = [["Customer", "Region", "Account executive"], ["Marigold Care Homes", "North", "Vera Chen"],
                 ["Beacon Hill Schools", "North", "Grace Jensen"], ["Rowan Park Gyms", "South", "Vera Chen"]]
    records = build_records({"data/customers.xlsx": _book(customers)}, 2026)
    table = "| Customer | Date | Account executive |\n|---|---|---|\n| Marigold Care Homes | 2026-11-26 | {} |"
    assert pairing_problems(table.format("Grace Jensen"), records)
    assert not pairing_problems(table.format("Vera Chen"), records)


def test_a_sheet_said_to_list_all_n_things_must_hold_n_rows():
    from officesim.evaluators.truth import listed_rows

    assert listed_rows("The attached sheet lists all 16 products with their units.", 15)
    assert not listed_rows("The attached sheet lists all 15 products with their units.", 15)
    assert not listed_rows("The attached sheet shows 647 units for the Desk Organiser.", 15)


def test_a_quarter_given_days_of_other_months_is_false():
    from officesim.evaluators.truth import quarter_span_problems

    assert quarter_span_problems("the comparison for Q3 (1 August to 31 October) in 2026")
    assert not quarter_span_problems("the comparison for Q3 (1 July to 30 September) in 2026")


def test_a_meeting_of_a_full_hour_is_a_length():
    from officesim.evaluators.truth import booked_duration_problems

    events = [("QBR: Sorrel Bay Cafes", frozenset(), frozenset({"sorrel bay cafes"}))]
    assert booked_duration_problems("All five reviews are booked, each for a full hour.", events,
                                    frozenset({45}), frozenset())
    assert not booked_duration_problems("All five reviews are booked, 45 minutes each.", events,
                                        frozenset({45}), frozenset())


def test_a_date_said_of_a_meeting_the_episode_booked_must_be_its_day():
    from datetime import date

    from officesim.evaluators.truth import event_day_problems

    customers = [["Customer", "Region"], ["Sorrel Bay Cafes", "North"], ["Beacon Hill Schools", "North"]]
    records = build_records({"data/customers.xlsx": _book(customers)}, 2026)
    events = [("QBR: Sorrel Bay Cafes", frozenset({date(2026, 11, 23)}), frozenset({"sorrel bay cafes"})),
              ("QBR: Beacon Hill Schools", frozenset({date(2026, 11, 27)}), frozenset({"beacon hill schools"}))]
    said = "The reviews start Monday 23 November with Sorrel Bay Cafes and finish with Beacon Hill Schools on {}."
    assert event_day_problems(said.format("Thursday 26 November"), events, records, 2026)
    assert not event_day_problems(said.format("Friday 27 November"), events, records, 2026)
    # a date proposed or moved is not the booking's
    assert not event_day_problems("Could we move Beacon Hill Schools' review to 26 November?", events, records, 2026)


def test_an_item_called_the_readers_own_must_be_of_their_party():
    from officesim.evaluators.verdicts import your_item_problems
    from officesim.evaluators.statements import Statement

    orders = [["Order", "Customer", "Account executive"], ["SO-71994", "Alder Street Clinics", "Dmitri Mensah"],
              ["SO-71368", "Nettle Cross Garages", "Dmitri Mensah"]]
    directory = [["Name", "Email"], ["Kwame Roth", "kwame.roth@nettlecrossgarages.test"],
                 ["Lucia Ward", "lucia.ward@alderstreetclinics.test"]]
    records = build_records({"data/orders.xlsx": _book(orders), "data/contacts.xlsx": _book(directory)}, 2026,
                            {"Kwame Roth": "kwame.roth@nettlecrossgarages.test",
                             "Lucia Ward": "lucia.ward@alderstreetclinics.test"})

    def said(text: str) -> list:
        return your_item_problems(Statement(0, len(text), text, "sentence"), "kwame.roth@nettlecrossgarages.test",
                                  records)

    assert said("I've passed her your question about when SO-71994 will ship.")
    assert not said("I've passed her your question about when SO-71368 will ship.")
    assert not said("SO-71994 is another customer's order.")  # not called the reader's


def test_a_colleague_named_in_place_of_the_tasks_namesake_is_false():
    from officesim.evaluators.truth import namesake_problems

    directory = [["Name", "Email"], ["Rafael Lindqvist", "rafael.lindqvist@harbourline.test"],
                 ["Rafael Sousa", "rafael.sousa@harbourline.test"], ["Mira Iyer", "mira.iyer@harbourline.test"]]
    records = build_records({"data/staff.xlsx": _book(directory)}, 2026, {r[0]: r[1] for r in directory[1:]})
    task = "Please rebook it with Rafael Lindqvist, or after I'm back."
    assert namesake_problems("Could you rebook it with Rafael Sousa, or after I'm back?", task, records)
    assert not namesake_problems("Could you rebook it with Rafael Lindqvist?", task, records)
    assert not namesake_problems("Rebook it with Rafael Lindqvist (not Rafael Sousa).", task, records)
    assert not namesake_problems("Mira Iyer chairs the weekly.", task, records)


def test_a_room_given_to_a_calendar_meeting_must_be_its_room():
    from officesim.evaluators.truth import event_room_problems

    events = [{"summary": "Site walk", "start": "2026-12-10 13:00:00", "end": "2026-12-10 13:45:00",
               "location": "Harbour Room"},
              {"summary": "Site walk", "start": "2026-12-03 11:00:00", "end": "2026-12-03 11:45:00",
               "location": "Anchor Room"}]
    assert event_room_problems("I'll miss our Site walk on Thursday 10 December at 13:00 (in the Anchor Room).",
                               events, 2026)
    assert not event_room_problems("I'll miss our Site walk on Thursday 10 December at 13:00 (in the Harbour Room).",
                                   events, 2026)
    assert not event_room_problems("I'll miss our Site walk on Thursday 3 December in the Anchor Room.", events, 2026)


def test_a_length_of_a_meeting_the_calendar_holds_is_its_own():
    from officesim.evaluators.truth import booked_duration_problems, event_lengths

    made = [("Annual leave", frozenset(), frozenset())]
    lengths = event_lengths([{"summary": "Budget check-in", "start": "2026-12-02 14:00:00",
                              "end": "2026-12-02 14:45:00"}])
    said = "I'm on leave, so our {} Budget check-in on 2 December can't go ahead."
    assert not booked_duration_problems(said.format("45-minute"), made, frozenset({480}), frozenset(), lengths)
    assert booked_duration_problems(said.format("30-minute"), made, frozenset({480}), frozenset(), lengths)


def test_a_count_of_days_over_a_range_of_two_readings_is_right_when_one_is():
    from officesim.evaluators.statements import Statement
    from officesim.evaluators.verdicts import span_count_problems

    def said(text: str) -> list:
        return span_count_problems(Statement(0, len(text), text, "sentence"), 2026)

    assert not said("I'm away for 10 working days (01/12/2026 to 14/12/2026).")
    assert said("I'm away for 12 working days (01/12/2026 to 14/12/2026).")


def test_figures_said_of_rows_in_turn_are_each_rows():
    lists = _units()
    assert not moved_figure_problems("Filing Cabinet and Archive Box (10) follow this year with 571 and 570 units.", lists)
    assert moved_figure_problems("Filing Cabinet and Archive Box (10) follow this year with 570 and 571 units.", lists)


def test_a_tables_header_row_is_not_counted_under_a_heading():
    from officesim.evaluators.statements import cut, items_under

    text = ("Top five this year:\n\n| Product | Q3 2026 | Q3 2025 |\n|---|---|---|\n| Desk Organiser | 647 | 319 |\n"
            "| Filing Cabinet | 571 | 201 |\n")
    assert len(items_under(cut(text), 0)) == 2


def test_a_meeting_said_at_a_time_starts_then():
    from datetime import time

    from officesim.evaluators.truth import event_time_problems

    customers = [["Name", "Role"], ["Esme Rahman", "Logistics Coordinator"]]
    records = build_records({"data/staff.xlsx": _book(customers)}, 2026)
    events = [("Welcome: Esme Rahman", frozenset({time(9, 30), time(10, 0)}), frozenset({"esme rahman"}))]
    starts = {"Welcome: Esme Rahman": frozenset({time(9, 30)})}
    said = "You're Esme Rahman's buddy. I've booked a 30-minute welcome with the two of you {} that morning."
    assert event_time_problems(said.format("at 10:00"), events, records, starts)
    assert not event_time_problems(said.format("at 09:30"), events, records, starts)
    assert not event_time_problems(said.format("from 09:30 to 10:00"), events, records, starts)


def test_a_date_said_to_move_by_a_length_must_move_by_it():
    from datetime import date as day

    from officesim.evaluators.claims import Claim
    from officesim.evaluators.statements import Statement
    from officesim.evaluators.verdicts import Scope, shift_problems

    staff = [["Name", "Start date"], ["Elena Haddad", "2027-01-04"]]
    records = build_records({"data/staff.xlsx": _book(staff)}, 2026)
    moved = [("Start date", [Claim("date", day(2027, 1, 4), "2027-01-04")], [Claim("date", day(2026, 12, 28), "2026-12-28")])]
    scope = Scope(year=2026, changed={"elena haddad": moved})

    def said(text: str) -> list:
        return shift_problems(Statement(0, len(text), text, "sentence"), records, scope)

    assert said("I've pushed Elena Haddad's start back by two weeks.")
    assert not said("I've pushed Elena Haddad's start back by a week.")
    assert not said("I've pushed Elena Haddad's start back by 7 days.")


def test_a_threshold_or_a_total_of_others_is_not_the_sum_of_the_items_listed():
    from officesim.evaluators.verdicts import _BOUND_SAID, _COUNT_BEFORE

    text = "Of the 6 orders above GBP 10,000.00 placed since 01/06/2026, 4 have your written approval (GBP 44,160.62"
    assert _BOUND_SAID.search(text[:text.index("10,000.00")])
    assert [m for m in _COUNT_BEFORE.findall(text[text.index("4 have"):])] == ["4"]


def test_a_lower_case_relation_beside_a_name_is_not_a_job_title():
    from officesim.evaluators.roles import role_problems

    staff = [["Name", "Role"], ["Maya Nakamura", "Regional Sales Manager"], ["Vera Chen", "Account Executive"]]
    customers = [["Customer", "Account executive"], ["Gull Point Marinas", "Maya Nakamura"]]
    records = build_records({"data/staff.xlsx": _book(staff), "data/customers.xlsx": _book(customers)}, 2026)
    assert not role_problems("Maya Nakamura (account executive, in copy) will let you know.", records)
    assert role_problems("Maya Nakamura (Account Executive) will let you know.", records)


def test_years_of_service_said_of_someone_must_fit_their_start_date():
    from datetime import date as day

    from officesim.evaluators.tenure import joined_problems, service_problems

    staff = [["Name", "Role", "Start date"], ["Rafael Berg", "Warehouse Lead", "2016-08-07"],
             ["Bjorn Silva", "Warehouse Lead", "2019-12-15"]]
    records = build_records({"data/staff.xlsx": _book(staff)}, 2026)
    today = day(2026, 12, 7)
    assert service_problems("I went with Bjorn rather than Rafael Berg, as Rafael hasn't yet completed the two years' "
                            "service the guidance requires.", records, today)
    assert not service_problems("Bjorn Silva has more than five years' service.", records, today)
    assert service_problems("Bjorn Silva has more than ten years' service.", records, today)
    assert joined_problems("Elena gets Bjorn Silva (our longest-serving lead, with us since 2015).", [], records)
    assert not joined_problems("Elena gets Bjorn Silva (with us since 2019).", [], records)


def test_an_amount_said_of_each_row_written_must_be_theirs():
    from officesim.evaluators.record_counts import each_amount_problems

    before = {"data/ledger.xlsx": _book([["Ref", "Cost centre", "Amount"], ["RENT-01-110", "CC-110", -1250.0]])}
    after = {"data/ledger.xlsx": _book([["Ref", "Cost centre", "Amount"], ["RENT-01-110", "CC-110", -1250.0],
                                        ["RENT-03-110", "CC-110", -1250.0], ["RENT-04-610", "CC-610", -1250.0]])}
    assert each_amount_problems("I've added the missing recharges, each at the standard £1,500:", before, after)
    assert not each_amount_problems("I've added the missing recharges, each at the standard £1,250:", before, after)
    assert not each_amount_problems("Two recharges of £1,250.00 each are now in the ledger.", before, after)
    assert each_amount_problems("Two recharges of £1,500.00 each are now in the ledger.", before, after)


def test_a_copy_said_sent_to_all_holders_of_a_role_must_reach_each():
    from officesim.evaluators.roles import group_send_problems

    staff = [["Name", "Email", "Role"], ["Joel Fischer", "joel@x.test", "Finance Manager"],
             ["Nina Costa", "nina@x.test", "Finance Manager"], ["Noor Amari", "noor@x.test", "Analyst"]]
    records = build_records({"data/staff.xlsx": _book(staff)}, 2026,
                            {"Joel Fischer": "joel@x.test", "Nina Costa": "nina@x.test", "Noor Amari": "noor@x.test"})
    said = "I've also sent a copy to all the finance managers."
    assert group_send_problems(said, records, frozenset({"joel@x.test", "noor@x.test"}))
    assert not group_send_problems(said, records, frozenset({"joel@x.test", "nina@x.test"}))
    assert not group_send_problems("I haven't sent it to all the finance managers.", records, frozenset({"joel@x.test"}))


def test_today_as_the_end_of_a_span_is_neutral():
    from datetime import date as day, datetime

    from officesim.evaluators.claims import _today, claims_in

    text = "Customer order questions, 26 October to 16 November 2026"
    today = next(c for c in claims_in(text, year=2026, kinds=("date",)) if c.value == day(2026, 11, 16))
    assert _today(today, text, datetime(2026, 11, 16, 9), [day(2026, 10, 26)], 2026)
    beside = "Questions of 26 October (16 November 2026 by the other count)"
    other = next(c for c in claims_in(beside, year=2026, kinds=("date",)) if c.value == day(2026, 11, 16))
    assert not _today(other, beside, datetime(2026, 11, 16, 9), [day(2026, 10, 26)], 2026)


def test_an_item_said_raised_by_someone_else_is_false():
    from officesim.evaluators.pairings import pairing_problems

    orders = [["PO", "Supplier", "Requested by"], ["PO-4505", "Elmstead Uniforms", "Hugo Greco"],
              ["PO-4592", "Yarrow Energy", "Vera Kaur"]]
    records = build_records({"data/orders.xlsx": _book(orders)}, 2026)
    said = "- PO-4505, Elmstead Uniforms, £10,382.84, ordered 11 July 2026 (requested by {})"
    assert pairing_problems(said.format("Vera Kaur"), records)
    assert not pairing_problems(said.format("Hugo Greco"), records)


def test_a_heading_that_hands_the_reader_their_part_counts_what_follows():
    from tests._headings import heading_verdicts as verdicts

    part = ("Dmitri's six customers have been split three ways: three to you, two to Mei and one to Ines. Yours:\n"
            "- Kite Field Sports\n- Oakmere Libraries\n- Wren House Hostels\n")
    assert not verdicts(part)
    assert verdicts("Dmitri's six customers are below. In review order:\n- Kite Field Sports\n- Oakmere Libraries\n")
