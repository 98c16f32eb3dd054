"""Classes read since round AL (issue 44): statements fresh blind rounds were graded wrongly on, each beside its
twin. Pure functions over small texts, tables and records."""

from __future__ import annotations

from datetime import date, datetime


def _records():
    from officesim.evaluators.records import build_records
    register = [["Contract", "Supplier", "Annual value"],
                ["CTR-2377", "Redfern IT Services", "45500.00"],
                ["CTR-2300", "Thornbury Furniture", "63500.00"]]
    return build_records({"data/contracts.xlsx": {"kind": "xlsx", "sheet_order": ["Register"],
                                                  "sheets": {"Register": register}}}, 2026)


def test_the_tasks_rule_restated_with_another_multiple_is_false():
    from officesim.evaluators.verdicts import Scope, rule_multiple_problems
    task = ("Any supplier invoiced more than one and a half times its contract's annual value is over the line.",)
    scope = Scope(year=2026, now=datetime(2026, 11, 16, 9, 0), texts=task)
    records = _records()
    wrong = "These suppliers have invoiced us more than two and a half times their contract's annual value this year:"
    right = "These suppliers have invoiced us more than one and a half times their contract's annual value this year:"
    assert [v.value for v in rule_multiple_problems(wrong, records, scope)] == ["two and a half times"]
    assert not rule_multiple_problems(right, records, scope)
    # one item's own multiple is not the rule; nor is a multiple when the task sets none
    assert not rule_multiple_problems("Redfern IT Services has been invoiced more than twice its annual value.",
                                      records, scope)
    assert not rule_multiple_problems(wrong, records, Scope(year=2026, texts=("List the suppliers over budget.",)))


def test_a_day_a_named_record_gives_may_date_the_readers_earlier_request():
    from types import SimpleNamespace

    from officesim.evaluators.records import build_records
    from officesim.evaluators.truth import your_message_day_problems
    log = [["Order", "Customer", "Requested", "Refunded", "Amount"],
           ["SO-72559", "Rowan Park Gyms", "2026-11-20", "2026-11-24", "360.00"]]
    records = build_records({"data/refunds.xlsx": {"kind": "xlsx", "sheet_order": ["Log"], "sheets": {"Log": log}}}, 2026)
    to = ("jude.volkov@rowanparkgyms.test",)
    state = SimpleNamespace(year=2026, before={"m": {"kind": "eml", "from": to[0], "date": "2026-12-02T10:49:00"}})
    said = "We already processed this return: your earlier request reached us on {} 2026, and the £360.00 for order SO-72559 was refunded."
    assert not your_message_day_problems(said.format("20 November"), to, state, records)
    assert your_message_day_problems(said.format("21 November"), to, state, records)


def test_the_day_of_dated_minutes_is_a_fact_of_each_of_their_lines():
    from officesim.evaluators.claims import Support, office_sources, stray_claims

    minutes = ("Key accounts weekly — minutes of 29 September 2026\nOpen actions reviewed:\n"
               "A129: moves from Asha Kovac to Dmitri Mensah.\n"
               "A134 Dmitri Mensah — call Gull Point Marinas about their late payment — due 13 October 2026\n")
    earlier = "Key accounts weekly — minutes of 22 September 2026\nA129 Asha Kovac — renewal proposal — due 22 September 2026\n"
    office = {"m29.docx": {"kind": "docx", "paragraphs": minutes.splitlines()},
              "m22.docx": {"kind": "docx", "paragraphs": earlier.splitlines()}}
    sources = office_sources(office, 2026)
    support = Support(expected=["A134", "2026-10-13"], texts=["Chase the overdue actions.", "A134 - due 13/10/2026"])

    def dates(text: str) -> list[str]:
        return [c.text for c in stray_claims(text, support, year=2026, now=None, directory=None, sources=sources)
                if c.kind == "date"]

    base = "2. A134 - call Gull Point Marinas - due 13/10/2026\n"
    assert dates("1. A129 - the renewal proposal (moved over to you from Asha at the 29 September meeting)\n" + base) == []
    assert dates("1. A129 - the renewal proposal (moved over to you from Asha at the 6 October meeting)\n" + base) \
        == ["6 October"]


def test_a_date_after_since_or_before_bounds_a_column_it_is_not_one_of_its_values():
    from officesim.evaluators.records import build_records
    from officesim.evaluators.verdicts import Scope, read
    office = {"data/orders.xlsx": {"kind": "xlsx", "sheet_order": ["Orders"], "sheets": {"Orders": [
        ["PO", "Ordered", "Promised"], ["PO-4851", datetime(2026, 11, 9), datetime(2026, 11, 23)]]}}}
    records = build_records(office, 2026)

    def false(text: str) -> list[str]:
        scope = Scope(now=datetime(2026, 11, 30, 9, 0), year=2026)
        return [v.value.rstrip(".") for v in read(text, records, scope).verdicts if v.verdict == "false"]

    assert false("Of the orders placed before 23 November, PO-4851 is still open.") == []
    assert false("PO-4851 was ordered on 23 November.") == ["23 November"]


def test_a_numeric_range_is_read_in_one_order_at_both_ends():
    from officesim.evaluators.replies import date_ranges, restated_range_problems
    quoted = "Could I take annual leave from 7 to 9 December?"
    assert {(a.isoformat(), b.isoformat()) for a, b, _l, _h in date_ranges("07/12/2026 to 09/12/2026", 2026)} \
        == {("2026-12-07", "2026-12-09"), ("2026-07-12", "2026-09-12")}
    assert not restated_range_problems("Approved: your leave from 07/12/2026 to 09/12/2026 is in the sheet.", quoted, 2026)
    assert restated_range_problems("Approved: your leave from 07/12/2026 to 10/12/2026 is in the sheet.", quoted, 2026)


def test_a_breakdown_of_day_counts_over_items_it_does_not_name_is_not_one_items_span():
    from datetime import date

    from officesim.evaluators.day_counts import day_count_problems
    from officesim.evaluators.records import build_records
    ledger = [["Invoice", "Supplier", "Due", "Paid"],
              ["PC-2607-0101", "Pinecrest Catering", datetime(2026, 7, 1), datetime(2026, 7, 10)],
              ["SC-2608-0120", "Saltmarsh Cleaning", datetime(2026, 8, 3), datetime(2026, 8, 11)]]
    staff = [["Name", "Email", "Started", "Reviewed"],
             ["Anton Hart", "anton.hart@fernhill.test", datetime(2019, 3, 4), datetime(2026, 9, 1)]]
    records = build_records({"data/ledger.xlsx": {"kind": "xlsx", "sheet_order": ["L"], "sheets": {"L": ledger}},
                             "data/staff.xlsx": {"kind": "xlsx", "sheet_order": ["S"], "sheets": {"S": staff}}}, 2026)
    to = ["anton.hart@fernhill.test"]
    said = ("The list is attached. Going by the date we actually paid:\n\n- 2 invoices were paid more than a week late\n"
            "- 1 was {} days late and 1 was 8 days late - nothing worse than 9 days\n"
            "- Pinecrest Catering and Saltmarsh Cleaning have one each\n")
    assert not day_count_problems(said.format(9), records, today=date(2026, 10, 5), year=2026, addressed=to)
    # "the worst one was 12 days late" is one item's span, not a breakdown
    assert day_count_problems("The list is attached.\nThe worst one was 12 days late; the rest were 8 days.", records,
                              today=date(2026, 10, 5), year=2026, addressed=to)
    # an item named by its identifier is still read
    assert day_count_problems("PC-2607-0101 was paid 12 days late.", records, today=date(2026, 10, 5), year=2026)
    assert not day_count_problems("PC-2607-0101 was paid 9 days late.", records, today=date(2026, 10, 5), year=2026)


def _leave_records():
    from officesim.evaluators.records import build_records
    leave = [["Name", "Email", "From", "To", "Type", "Status"],
             ["Rafael Costa", "rafael.costa@harbourline.test", datetime(2026, 12, 7), datetime(2026, 12, 9), "Annual leave", "Approved"],
             ["Rosa Tanaka", "rosa.tanaka@harbourline.test", datetime(2026, 12, 8), datetime(2026, 12, 8), "Annual leave", "Approved"],
             ["Mira Iyer", "mira.iyer@harbourline.test", datetime(2026, 11, 24), datetime(2026, 11, 25), "Annual leave", "Approved"],
             ["Keiko Lambert", "keiko.lambert@harbourline.test", datetime(2026, 12, 8), datetime(2026, 12, 8), "Annual leave", "Withdrawn"],
             ["Nadia Ito", "nadia.ito@harbourline.test", datetime(2026, 12, 8), datetime(2026, 12, 8), "Annual leave", "Pending"],
             ["Omar Nair", "omar.nair@harbourline.test", datetime(2026, 11, 2), datetime(2026, 11, 3), "Annual leave", "Approved"],
             ["Omar Nair", "omar.nair@harbourline.test", datetime(2026, 11, 9), datetime(2026, 11, 10), "Annual leave", "Approved"],
             ["Omar Nair", "omar.nair@harbourline.test", datetime(2026, 11, 16), datetime(2026, 11, 17), "Annual leave", "Approved"]]
    staff = [["Name", "Email", "Team"], *[[r[0], r[1], "Operations"] for r in leave[1:7]], ["Hana Costa", "hana.costa@harbourline.test", "Operations"],
             ["Mira Cole", "mira.cole@harbourline.test", "Finance"]]
    office = {"data/people/leave_2026.xlsx": {"kind": "xlsx", "sheet_order": ["Leave"], "sheets": {"Leave": leave}},
              "data/people/staff.xlsx": {"kind": "xlsx", "sheet_order": ["Staff"], "sheets": {"Staff": staff}}}
    return office, build_records(office, 2026)


def test_people_named_by_first_name_said_off_on_a_day_must_have_leave_then():
    from officesim.evaluators.absences import off_day_problems
    from officesim.evaluators.truth import _teams
    office, records = _leave_records()
    people = _teams(office)
    assert not off_day_problems("Rafael and Rosa are both already on annual leave on Tuesday 8 December.", records, 2026,
                                people=people)
    said = off_day_problems("Rafael and Mira are both already on annual leave on Tuesday 8 December.", records, 2026,
                            people=people)
    assert len(said) == 1 and "Mira" in said[0]  # Mira Iyer is off 24-25 November; "Mira" is the only Mira with leave
    # a withdrawn leave is no absence
    assert off_day_problems("Keiko Lambert is off on 8 December.", records, 2026, people=people)


def test_a_count_of_the_team_off_on_a_day_is_of_approved_absences():
    from officesim.evaluators.absences import off_count_problems
    from officesim.evaluators.truth import _teams
    office, records = _leave_records()
    teams = _teams(office)
    own = ["hana costa", "nadia ito"]
    assert off_count_problems("Declined: three of the team are already on annual leave on 8 December.", records, teams,
                              own, 2026)
    assert not off_count_problems("Declined: two of the team are already on annual leave on 8 December.", records, teams,
                                  own, 2026)
    # a leave the episode recorded counts
    assert not off_count_problems("Declined: three of the team are already on annual leave on 8 December.", records,
                                  teams, own, 2026, written={"hana costa": [(date(2026, 12, 8), date(2026, 12, 8))]})


def test_leave_said_approved_or_pending_on_a_day_must_be_so():
    from officesim.evaluators.absences import leave_state_problems
    from officesim.evaluators.truth import _teams
    office, records = _leave_records()
    people = _teams(office)
    right = "I couldn't cover Rosa Tanaka's leave: Nadia Ito, who offered, has a pending leave request for 8 December."
    assert not leave_state_problems(right, records, 2026, people)
    assert leave_state_problems(right.replace("a pending", "an approved"), records, 2026, people)
    assert leave_state_problems("Nadia Ito offered to cover it, but she has a pending leave request for 7 December.",
                                records, 2026, people)
    assert not leave_state_problems("Nadia Ito offered, but she has a pending leave request for 8 December.",
                                    records, 2026, people)
    assert not leave_state_problems("Rafael Costa is on approved annual leave on 8 December.", records, 2026, people)


def test_a_party_said_to_be_someones_account_stands_in_their_rows():
    from officesim.evaluators.pairings import pairing_problems
    from officesim.evaluators.records import build_records
    rows = [["Customer", "Region", "Account executive"], ["Quill & Ink Bookshops", "West", "Yara Moss"],
            ["Wren House Hostels", "South", "Freya Sousa"], ["Ivy Lane Bakeries", "North", "Yara Moss"]]
    records = build_records({"data/sales/customers.xlsx": {"kind": "xlsx", "sheet_order": ["C"], "sheets": {"C": rows}}},
                            2026)
    said = "Quill & Ink Bookshops ({} account) want to return 2 x Standing Desk from SO-72608."
    assert pairing_problems(said.format("Freya Sousa's"), records)
    assert not pairing_problems(said.format("Yara Moss's"), records)
    assert pairing_problems("Quill & Ink Bookshops is Freya Sousa's account.", records)
    assert not pairing_problems("Wren House Hostels is Freya Sousa's account.", records)


def test_a_written_list_said_to_be_in_an_order_must_follow_it():
    from officesim.evaluators.superlatives import ranked_lists, sorted_claim_problems
    rows = [["Invoice", "Supplier", "Due", "Paid", "Days late"],
            ["PC-0101", "Pinecrest Catering", datetime(2026, 8, 1), datetime(2026, 8, 10), 9],
            ["SC-0120", "Saltmarsh Cleaning", datetime(2026, 7, 3), datetime(2026, 7, 11), 8],
            ["VS-0130", "Vantage Security", datetime(2026, 9, 3), datetime(2026, 9, 11), 8]]
    after = {"data/late.xlsx": {"kind": "xlsx", "sheet_order": ["L"], "sheets": {"L": rows}}}
    lists = ranked_lists({}, after)
    assert sorted_claim_problems("Attached are the 3 invoices, listed by due date with the oldest first.", lists)
    assert not sorted_claim_problems("Attached are the 3 invoices, sorted by days late, most first.", lists)
    assert sorted_claim_problems("Attached are the 3 invoices, sorted by days late, fewest first.", lists)


def test_a_party_said_to_have_n_or_the_most_rows_of_a_written_list():
    from officesim.evaluators.superlatives import ranked_lists, row_share_problems
    rows = [["Action", "Owner", "Due"], ["A129", "Dmitri Mensah", "2026-09-22"], ["A134", "Dmitri Mensah", "2026-10-13"],
            ["A138", "Dmitri Mensah", "2026-10-27"], ["A133", "Mei Roth", "2026-10-20"], ["A139", "Mei Roth", "2026-10-27"],
            ["A140", "Asha Kovac", "2026-10-27"]]
    lists = ranked_lists({}, {"data/open_actions.xlsx": {"kind": "xlsx", "sheet_order": ["S"], "sheets": {"S": rows}}})
    assert row_share_problems("Mei is carrying the biggest share of what's still open, so she may need help.", lists)
    assert not row_share_problems("Dmitri is carrying the biggest share of what's still open.", lists)
    assert row_share_problems("Mei Roth comes up most often, with three open actions on the list.", lists)
    assert not row_share_problems("Dmitri Mensah comes up most often, with three open actions on the list.", lists)
    assert not row_share_problems("Mei Roth's A133 falls due on 20 October, the earliest of the open actions.", lists)


def test_a_policy_figure_in_brackets_is_read_apart_from_the_figure_it_stands_beside():
    from types import SimpleNamespace

    from officesim.evaluators.truth import policy_problems
    policy = {"kind": "docx", "paragraphs": ["Leave policy", "Annual leave of more than two days needs at least two "
                                             "weeks' notice; up to two days needs one week's notice."]}

    def state():
        return SimpleNamespace(before={"data/policies/leave_policy.docx": policy}, memo={})

    assert not policy_problems("Approved:\n- Notice: 24 days (policy minimum two weeks)\n", state())
    assert policy_problems("Approved:\n- Notice: 24 days (policy minimum three weeks)\n", state())
    assert policy_problems("The policy asks for three weeks' notice.", state())


def test_the_readers_other_leave_is_not_the_request_a_reply_answers():
    from officesim.evaluators.replies import restated_day_problems
    quoted = "Could I take annual leave from 7 to 9 December?"
    said = "Together with your leave already approved from 8 to 19 December, you will be off from 7 to 19 December."
    assert not restated_day_problems(said, quoted, 2026)
    assert restated_day_problems("Your leave from 8 to 10 December is approved.", quoted, 2026)


def test_a_count_of_the_items_the_text_lists_is_worked_out_from_it():
    from officesim.evaluators.claims import Support, stray_claims
    support = Support(expected=["#5119", "#5124", "#5131", "#5137"], texts=["List the tickets waiting for me."])
    table = ("Ticket | Subject | Waiting since\n#5119 | Teams room display | 4 Dec 2026\n"
             "#5124 | New laptop ready | 3 Dec 2026\n#5131 | Teams room display | 12 Aug 2026\n#5137 | VPN slow | 21 Oct 2026\n")
    bullets = "- #5119 Teams room display\n- #5124 New laptop ready\n- #5131 Teams room display\n- #5137 VPN slow\n"

    def numbers(text: str) -> list[str]:
        return [c.text for c in stray_claims(text, support, year=2026, now=None, directory=None, sources=[])
                if c.kind == "number"]

    assert numbers("Tickets waiting on me (4)\n\nHello Talia,\n\n" + table) == []
    assert numbers("Helpdesk: 4 tickets waiting for me\n\n" + bullets) == []
    assert numbers("Tickets waiting on me (6)\n\nHello Talia,\n\n" + table) == ["6"]


def test_days_from_today_beside_a_row_are_no_figure_of_its_table():
    from officesim.evaluators.superlatives import ranked_lists
    from officesim.evaluators.written_tables import moved_figure_problems
    rows = [["Contract", "Supplier", "Notice (days)", "Notice by"],
            ["CTR-2426", "Poppyfield Nurseries", 90, "2026-11-30"], ["CTR-2314", "Umber Freight", 60, "2026-12-02"]]
    lists = ranked_lists({}, {"data/legal/register.xlsx": {"kind": "xlsx", "sheet_order": ["C"], "sheets": {"C": rows}}})
    assert not moved_figure_problems("- CTR-2426 Poppyfield Nurseries: notice deadline 2026-11-30 (14 days from today)",
                                     lists)
    assert moved_figure_problems("- CTR-2426 Poppyfield Nurseries: 45 days' notice, deadline 2026-11-30", lists)
