"""Classes read since round AF's replay (issue 44): true context AF's right outcomes failed with, and the false
twins its wrong outcomes passed with. Pure functions over small texts and records."""

from __future__ import annotations

from datetime import date, timedelta

from officesim.evaluators.records import build_records
from officesim.evaluators.verdicts import Scope, read


def _book(*sheets: tuple[str, list[list]]) -> dict:
    return {"kind": "xlsx", "sheet_order": [n for n, _r in sheets], "sheets": dict(sheets)}


def _false(text: str, records) -> list:
    return [v for v in read(text, records, Scope(year=2026)).verdicts if v.verdict == "false"]


def _invoices():
    rows = [["Invoice", "Supplier", "PO", "Amount", "Paid"],
            ["BO-2610-0378", "Bramble Office", "PO-4827", 1230.95, ""],
            ["VS-2606-0210", "Vantage Security", "PO-4654", 3708.87, "2026-07-25"]]
    credits = [["Credit note", "Invoice", "Credit"], ["CN-BO-2611-059", "BO-2610-0378", 246.19],
               ["CN-VS-2611-052", "VS-2606-0210", 741.77]]
    return build_records({"data/invoices.xlsx": _book(("Invoices", rows)),
                          "data/credits.xlsx": _book(("Credits", credits))}, 2026)


def test_a_share_of_an_item_named_by_its_identifier_is_read_against_its_amount():
    from officesim.evaluators.verdicts import share_of_named

    records = _invoices()
    true = "Credit note CN-BO-2611-059 is £246.19, which is 20% of invoice BO-2610-0378."
    wrong = "Credit note CN-VS-2611-052 credits 25% of invoice VS-2606-0210. Please refund £741.77."
    assert share_of_named(_pct(true), true, records, 2026) is True
    assert share_of_named(_pct(wrong), wrong, records, 2026) is False
    assert not _false(true, records)
    assert any(v.value == "25%" for v in _false(wrong, records))
    # no identifier after "of": not this reading
    plain = "That is 20% of the total."
    assert share_of_named(_pct(plain), plain, records, 2026) is None


def _pct(text: str):
    from officesim.evaluators.claims import claims_in

    return next(c for c in claims_in(text, year=2026, kinds=("number",)) if text[c.end:c.end + 1] == "%")


def test_an_amount_in_brackets_after_an_identifier_is_that_items():
    from officesim.evaluators.verdicts import amount_of_id_before, bracketed_amount_problems
    from officesim.evaluators.claims import claims_in

    records = _invoices()
    assert not bracketed_amount_problems("Invoice BO-2610-0378 (£1,230.95) is still open.", records)
    wrong = bracketed_amount_problems("Invoice BO-2610-0378 (£1,320.95) is still open.", records)
    assert wrong and "1,230.95" in wrong[0].why
    text = "The £741.77 credited is 20% of invoice VS-2606-0210 (£3,708.87)."
    amounts = [c for c in claims_in(text, year=2026, kinds=("number",)) if c.currency]
    assert [amount_of_id_before(c, text, records) for c in amounts] == [False, True]
    # an amount after "(" that says what part it is is not read as the item's own
    assert not bracketed_amount_problems("BO-2610-0378 (£246.19 credited) stays open.", records)


def test_a_sentence_after_a_lead_in_points_back_to_the_one_before():
    from officesim.evaluators.verdicts import _ANAPHOR

    assert _ANAPHOR.match("For context, they've placed 97 orders this year worth £180,838.50.")
    assert _ANAPHOR.match("In total they come to £4,000.00.")
    assert not _ANAPHOR.match("For context, Juniper placed 97 orders.")


def test_a_part_after_a_currency_code_is_a_part_not_an_alternative():
    from officesim.evaluators.claims import _part_of, claims_in

    text = "Umber Freight — invoiced GBP 134,651.76 (of which GBP 46,042.75 is still unpaid)"
    whole, part = claims_in(text, year=2026, kinds=("number",))[:2]
    assert _part_of(whole, part, text)
    text = "Zephyr Couriers — invoiced GBP 103,008.76 (GBP 15,142.82 unpaid)"
    whole, part = claims_in(text, year=2026, kinds=("number",))[:2]
    assert _part_of(whole, part, text)
    text = "Zephyr Couriers — invoiced GBP 103,008.76 (GBP 15,142.82 if the credit counts)"
    whole, part = claims_in(text, year=2026, kinds=("number",))[:2]
    assert not _part_of(whole, part, text)


def test_a_negation_of_what_the_gold_rejects_agrees_with_it():
    from officesim.evaluators.claims import polarity_problems

    gold = "Sorry, I have to reject EXP-1135: it was submitted more than 30 days after the expense."
    text = "Unfortunately EXP-1135 can't be paid, so I've rejected it (£0.00)."
    assert polarity_problems(text, ["EXP-1135"], [gold], year=2026) == []
    assert polarity_problems(text, ["EXP-1135"], ["EXP-1135 is approved in full."], year=2026) != []


def test_a_rules_span_is_not_a_rows_duration():
    rows = [["Supplier", "Payment terms (days)", "Notice period (days)"], ["Zephyr Couriers", 30, 90]]
    records = build_records({"data/suppliers.xlsx": _book(("Suppliers", rows))}, 2026)
    assert not _false("Zephyr Couriers told us of new bank details on 22 May 2026, well outside the 60-day window.",
                      records)
    assert _false("Zephyr Couriers has a 60-day notice period.", records)


def test_a_count_done_over_a_past_period_is_history():
    from officesim.evaluators.actions import counted_action_problems

    assert not counted_action_problems("In Q3 we paid 118 supplier invoices; 31 were late.", frozenset({1.0}))
    assert not counted_action_problems("During October we approved 40 claims.", frozenset({1.0}))
    assert counted_action_problems("I've approved 40 claims.", frozenset({1.0}))


def test_a_duration_said_of_the_others_is_not_the_named_rows():
    rows = [["Supplier", "Invoice", "Days late"], ["Yarrow Energy", "YE-2608-0256", 9],
            ["Willowby Packaging", "WP-2606-0178", 8]]
    records = build_records({"data/late.xlsx": _book(("Sheet1", rows))}, 2026)
    assert not _false("The longest delay was 9 days (Yarrow Energy, YE-2608-0256); the other six were 8 days late.",
                      records)
    assert _false("The longest delay was 9 days: YE-2608-0256 was paid 8 days late.", records)


def test_the_largest_of_a_list_with_no_amounts_is_not_read_by_its_days():
    from officesim.evaluators.superlatives import ranked_lists, superlative_problems

    gold = {"data/late.xlsx": {"kind": "xlsx", "sheet_order": ["Late"], "sheets": {"Late": [
        ["Invoice", "Supplier", "Days late"],
        ["YE-2608-0256", "Yarrow Energy", 9],
        ["WP-2606-0178", "Willowby Packaging", 8],
        ["TF-2609-0302", "Thornbury Furniture", 7]]}}}
    lists = ranked_lists({}, gold)
    assert superlative_problems("The largest of them is Willowby Packaging's WP-2606-0178.", lists) == []
    assert superlative_problems("The most overdue of them is TF-2609-0302.", lists) or \
        superlative_problems("The highest is TF-2609-0302.", lists)


def test_a_partys_count_of_the_rows_the_task_writes():
    from officesim.evaluators.record_counts import Work, count_problems, named_rows

    rows = [["Order", "Customer", "Order date", "Amount"]] + [
        [f"SO-726{n:02d}", "Rowan Park Gyms", f"2026-10-{n + 1:02d}", 100 + n] for n in range(9)]
    records = build_records({"data/sales/orders_2026.xlsx": _book(("Orders", rows))}, 2026)
    run = {"data/run.xlsx": _book(("Run", [["Order", "Customer"], ["SO-72600", "Rowan Park Gyms"],
                                           ["SO-72601", "Rowan Park Gyms"], ["SO-72602", "Rowan Park Gyms"]]))}
    work = Work(named_rows=named_rows({}, run))
    assert ("rowan park gyms", 3) in work.named_rows
    assert not count_problems("Rowan Park Gyms, 3 orders, £303.00.", records, work, 2026)
    assert count_problems("Rowan Park Gyms, 4 orders, £303.00.", records, work, 2026)


def test_an_amount_a_policy_lists_for_another_label_is_not_this_labels():
    from officesim.evaluators.listed_values import listed_values, swapped_line_problems

    policy = {"kind": "docx", "paragraphs": ["2. Hotels. A night's hotel may cost at most the cap for the city.",
                                             "   Lisbon: £160.00 a night", "   Hamburg: £175.00 a night",
                                             "   Milan: £170.00 a night", "   Rotterdam: £165.00 a night"]}
    lists = listed_values({"data/policy.docx": policy})
    assert swapped_line_problems("The travel policy caps Milan hotels at £175.00 a night.", lists, 2026)
    assert not swapped_line_problems("The travel policy caps Milan hotels at £170.00 a night.", lists, 2026)
    # an amount claimed, not the cap; two labels compared
    assert not swapped_line_problems("Your Lisbon hotel was £165.00 a night, above the £160.00 cap.", lists, 2026)
    assert not swapped_line_problems("The Milan cap is £170.00, Hamburg's £175.00.", lists, 2026)


def test_a_percentage_after_a_fraction_is_that_fractions_share():
    from officesim.evaluators.verdicts import fraction_share_problem
    from officesim.evaluators.claims import claims_in

    def problem(text: str):
        c = next(c for c in claims_in(text, year=2026, kinds=("number",)) if text[c.end:c.end + 1] == "%")
        return fraction_share_problem(c, text)

    assert problem("7 of the 118 supplier invoices we paid in the quarter, or roughly 12%.")
    assert not problem("7 of the 118 supplier invoices we paid in the quarter, or roughly 6%.")
    assert not problem("7 of the 118 supplier invoices we paid in the quarter (5.9%).")
    assert not problem("We paid 118 invoices; 12% were late.")  # no fraction in its sentence


def _ledger():
    rows = [["Invoice", "Supplier", "Due date", "Paid on"]]
    # Q3 payments: 3 paid 9 days late, 2 paid exactly 7 days late, 1 paid 2 days late, 6 on time
    late = [9, 9, 9, 7, 7, 2, 0, 0, -1, -3, 0, 0]
    for n, d in enumerate(late):
        due = date(2026, 7, 1 + n)
        rows.append([f"INV-{n:03d}", "Yarrow Energy", due.isoformat(), (due + timedelta(days=d)).isoformat()])
    return build_records({"data/ledger.xlsx": _book(("Ledger", rows))}, 2026)


def test_counts_of_invoices_paid_late_in_a_period_are_read_against_due_and_paid_dates():
    from officesim.evaluators.late_counts import late_count_problems

    records = _ledger()
    assert not late_count_problems("In Q3, 6 invoices were paid after their due date.", records, 2026)
    assert late_count_problems("In Q3, 9 invoices were paid after their due date.", records, 2026)
    assert not late_count_problems("Q3 review: I left out 2 invoices that were paid exactly 7 days late.", records, 2026)
    assert late_count_problems("Q3 review: I left out 5 invoices that were paid exactly 7 days late.", records, 2026)
    assert not late_count_problems("Late payments in Q3: 3 invoices were paid more than a week late in the quarter.",
                                   records, 2026)
    # no period it can place: not read
    assert not late_count_problems("9 invoices were paid late.", records, 2026)
    assert not late_count_problems("Of the 12 paid in Q3, the other 4 invoices were paid on time.", records, 2026)


def test_a_day_count_the_task_gives_of_another_item_is_not_this_items():
    from officesim.evaluators.day_counts import day_count_problems

    records = _ledger()
    text = "The worst case was Yarrow Energy's INV-003, which we paid {} days after it was due."
    gold = "The longest delay was INV-000, paid 9 days after it was due."
    assert day_count_problems(text.format(9), records, today=date(2026, 11, 16), year=2026, given={9}, given_texts=gold)
    assert not day_count_problems(text.format(7), records, today=date(2026, 11, 16), year=2026, given={9},
                                  given_texts=gold)
    assert not day_count_problems(text.format(9).replace("INV-003", "INV-000"), records, today=date(2026, 11, 16),
                                  year=2026, given={9}, given_texts=gold)
    assert not day_count_problems("Anything paid more than 9 days late was flagged.", records,
                                  today=date(2026, 11, 16), year=2026, given={9})


def test_a_late_count_is_over_the_one_quarter_its_text_names():
    from officesim.evaluators.late_counts import late_count_problems

    records = _ledger()
    text = "Here are the invoices we paid late in Q3. I left out a further {} invoices that were paid exactly 7 days late."
    assert late_count_problems(text.format(5), records, 2026) and not late_count_problems(text.format(2), records, 2026)


def test_a_party_said_to_be_quiet_over_a_span_has_no_row_dated_in_it():
    from officesim.evaluators.quiet_spells import quiet_spell_problems

    rows = [["Order", "Date", "Customer", "Total"], ["SO-72551", "2026-11-04", "Juniper Dental", 3780],
            ["SO-72540", "2026-10-30", "Juniper Dental", 120], ["SO-72560", "2026-11-12", "Upland Outdoor", 50]]
    records = build_records({"data/sales/orders_2026.xlsx": _book(("Orders", rows))}, 2026)
    today = date(2026, 11, 16)
    assert quiet_spell_problems("Juniper Dental hasn't placed a single order in the past two weeks.", records, today)
    assert not quiet_spell_problems("Juniper Dental hasn't placed an order in the last seven days.", records, today)
    assert not quiet_spell_problems("Juniper Dental has gone quiet. They have not placed any orders in the last 10 days.",
                                    records, today)
    assert quiet_spell_problems("Upland Outdoor: no orders in the last 7 days.", records, today)


def test_coming_out_on_top_is_the_first_of_the_ranking():
    from officesim.evaluators.superlatives import ranked_lists, superlative_problems

    gold = {"data/ranking.xlsx": {"kind": "xlsx", "sheet_order": ["Ranking"], "sheets": {"Ranking": [
        ["Rank", "Supplier", "Invoiced"], [1, "Umber Freight", 134651.76], [2, "Yarrow Energy", 127271.57],
        [3, "Saltmarsh Cleaning", 120038.32]]}}}
    lists = ranked_lists({}, gold)
    assert superlative_problems("Yarrow Energy comes out on top at £127,271.57.", lists)
    assert superlative_problems("Saltmarsh Cleaning tops the list.", lists)
    assert not superlative_problems("Umber Freight comes out on top, with Yarrow Energy close behind.", lists)
    assert not superlative_problems("Umber Freight ranks first.", lists)


def test_a_partys_invoices_said_all_paid_have_payment_dates():
    from datetime import datetime

    from officesim.evaluators import EvalState
    from officesim.evaluators.truth import all_paid_problems

    rows = [["Invoice", "Supplier", "Issued", "Amount", "Paid"],
            ["RF-2609-0301", "Redfern IT Services", "2026-09-01", 100.0, "2026-09-20"],
            ["RF-2610-0333", "Redfern IT Services", "2026-10-01", 200.0, None],
            ["UF-2610-0334", "Umber Freight", "2026-10-01", 300.0, "2026-10-20"]]
    files = {"data/invoices.xlsx": _book(("Invoices", rows))}
    records = build_records(files, 2026)
    state = EvalState(files=files, answer=None, timezone="UTC", now=datetime(2026, 11, 16, 9), before=files)
    said = "{} has invoiced us £{} so far this year. Every one of those invoices has already been paid."
    assert all_paid_problems(said.format("Redfern IT Services", "300.00"), state, records)
    assert not all_paid_problems(said.format("Umber Freight", "300.00"), state, records)
    assert not all_paid_problems("Once all of Redfern IT Services' invoices are paid, we can close it.", state, records)


def test_someone_said_to_join_the_meeting_before_is_invited_to_it():
    from datetime import datetime

    from officesim.evaluators import EvalState
    from officesim.evaluators.truth import invited_problems

    staff = _book(("Staff", [["Name", "Email", "Team"], ["Sofia Rahman", "sofia.rahman@fernhill.test", "HR"],
                             ["Ines Petrov", "ines.petrov@fernhill.test", "HR"]]))
    review = {"summary": "Probation review: Zoe", "start": "2026-10-20T14:00:00", "end": "2026-10-20T14:30:00",
              "attendees": ["zoe@fernhill.test", "ines.petrov@fernhill.test"]}
    files = {"data/staff.xlsx": staff}
    after = dict(files, **{"calendar/hugo.ics": {"kind": "ics", "events": [review]}})
    state = EvalState(files=after, before=files, now=datetime(2026, 10, 5, 9), user="hugo@fernhill.test")
    records = build_records(files, 2026)
    said = "Your probation review is booked for Tuesday 20 October 2026 at 14:00. {} from HR will join us."
    assert invited_problems(said.format("Sofia Rahman"), ("zoe@fernhill.test",), state, records)
    assert not invited_problems(said.format("Ines Petrov"), ("zoe@fernhill.test",), state, records)


def test_a_length_of_leave_counts_both_ends_of_its_range():
    from officesim.evaluators.day_counts import day_count_problems

    leave = _book(("Leave", [["Employee", "Type", "Start", "End"], ["Clara Chen", "Annual leave", "2026-11-09", "2026-11-11"]]))
    records = build_records({"data/leave.xlsx": leave}, 2026)
    said = "Clara Chen: approved, Monday 9 to Wednesday 11 November, {} days off."
    assert day_count_problems(said.format("two"), records, today=date(2026, 10, 20), year=2026)
    assert not day_count_problems(said.format("three"), records, today=date(2026, 10, 20), year=2026)


def test_the_only_one_of_a_team_away_is_read_against_the_teams_absences():
    from officesim.evaluators.absences import only_away_problems

    leave = _book(("Leave", [["Employee", "Type", "Start", "End"], ["Clara Chen", "Annual leave", "2026-11-09", "2026-11-11"],
                             ["Omar Nair", "Annual leave", "2026-10-27", "2026-10-28"],
                             ["Amara Obi", "Annual leave", "2026-11-12", "2026-11-13"]]))
    records = build_records({"data/leave.xlsx": leave}, 2026)
    teams = {"clara chen": "Operations", "omar nair": "Operations", "amara obi": "Operations"}
    said = "Your leave on 12–13 November is approved. You'll be the only one from Operations away that week."
    assert only_away_problems(said, records, teams, 2026)
    # the week of 26 October: only Omar Nair's leave falls in it
    assert not only_away_problems(said.replace("12–13 November", "27–28 October"), records, teams, 2026)


def test_a_decision_restating_the_requested_range_must_keep_it():
    from officesim.evaluators.replies import restated_range_problems

    quoted = "Could I take 27–28 October off for my move?"
    assert restated_range_problems("Approved — three days, Tuesday 27 to Thursday 29 October.", quoted, 2026)
    assert not restated_range_problems("Approved — two days, Tuesday 27 to Wednesday 28 October.", quoted, 2026)


def test_the_day_a_request_reached_the_writer_is_the_day_its_sender_sent_it():
    from datetime import datetime

    from officesim.evaluators import EvalState
    from officesim.evaluators.truth import your_message_day_problems

    mail = {"kind": "eml", "from": "omar.nair@fernhill.test", "to": ["hugo@fernhill.test"],
            "date": "2026-10-17T09:00:00", "subject": "Leave", "body": "Could I take 27-28 October?"}
    files = {"emails/hugo@fernhill.test/msg-1.eml": mail}
    state = EvalState(files=files, before=files, now=datetime(2026, 10, 19, 9), user="hugo@fernhill.test")
    to = ("omar.nair@fernhill.test",)
    assert your_message_day_problems("Your request reached me on 12 October, two weeks ahead.", to, state)
    assert not your_message_day_problems("Your request reached me on 17 October.", to, state)


def test_a_mail_said_to_copy_someone_has_someone_in_copy():
    from officesim.evaluators.truth import copied_nobody_problems

    said = "I've copied each contract owner on this email so they see the full picture."
    assert copied_nobody_problems(said, ("hana@h.test", "luca@h.test"), ("luca@h.test",))
    assert not copied_nobody_problems(said, ("hana@h.test", "luca@h.test", "yara@h.test"), ("luca@h.test",))
    assert not copied_nobody_problems("I've emailed each owner separately.", ("hana@h.test", "luca@h.test"),
                                      ("luca@h.test",))


def test_a_count_of_a_whole_table_after_a_plain_lead_is_read():
    from officesim.evaluators.record_counts import Work, count_problems

    rows = [["Invoice", "Supplier", "Issued", "Amount"]] + [
        [f"UF-26{n:02d}", "Umber Freight", f"2026-0{1 + n % 9}-10", 100 + n] for n in range(12)]
    records = build_records({"data/finance/supplier_invoices_2026.xlsx": _book(("Invoices", rows))}, 2026)
    assert count_problems("The figures are based on all 14 supplier invoices issued this year.", records, Work(), 2026)
    assert not count_problems("The figures are based on all 12 supplier invoices issued this year.", records, Work(), 2026)


def test_a_state_said_of_a_persons_row_is_read_when_the_task_changes_another_of_their_rows():
    from officesim.evaluators.claims import claims_in

    rows = [["Employee", "Start", "End", "Type", "Status"]] + [
        [f"Person {chr(65 + n)} Smith", "2026-08-03", "2026-08-04", "Annual leave", s]
        for n, s in enumerate(["Approved", "Pending", "Withdrawn", "Approved"])] + [
        ["Tariq Iyer", "2026-10-20", "2026-10-22", "Annual leave", "Pending"]]
    records = build_records({"data/people/leave_2026.xlsx": _book(("Leave", rows))}, 2026)
    review = ("Review date", tuple(claims_in("2026-10-23", year=2026, kinds=("date",))), ())
    text = "Tariq Iyer's review is after his approved leave on 20–22 October."
    assert [v for v in read(text, records, Scope(year=2026, changed={"tariq iyer": [review]})).verdicts
            if v.verdict == "false"]
    status = ("Status", (), ())
    assert not [v for v in read(text, records, Scope(year=2026, changed={"tariq iyer": [status]})).verdicts
                if v.verdict == "false"]


def test_a_total_of_days_late_an_identifiers_number_and_the_word_other_are_no_claims():
    from officesim.evaluators.day_counts import day_count_problems
    from officesim.evaluators.verdicts import listed_counts

    records = _ledger()
    assert not day_count_problems("INV-000 and INV-001 were late. That is 27 days late in total.", records,
                                  today=date(2026, 11, 16), year=2026)
    assert not listed_counts("CC-410 Operations (Noor Tanaka, Operations Director): over by £8,622.34.", 2026)
    claims = _book(("Claims", [["Claim", "Employee", "Category"]] + [
        [f"EXP-{n}", "Luca Weber", c] for n, c in enumerate(["Hotel", "Other", "Meals", "Travel", "Hotel"])]))
    records = build_records({"data/claims.xlsx": claims}, 2026)
    assert not _false("The other three absences (Luca Weber, Bjorn Silva, Lucia Nair) are on the rota.", records)


def test_a_count_of_what_mails_are_about_is_not_of_whom_they_went_to():
    from officesim.evaluators.actions import counted_action_problems

    said = "I've sent chasers to Aiko and Zoe for the two overdue ones."
    assert not counted_action_problems(said, frozenset(), addressed=(3, 0))
    assert counted_action_problems("The letters have gone out to 10 customers.", frozenset(), addressed=(12, 12))


def test_a_count_before_a_day_said_of_what_went_today_counts_from_today():
    from officesim.evaluators.day_counts import day_count_problems

    rows = [["Customer", "Agreement", "Starts"], ["Gull Point Marinas", "CTR-2426", "2027-01-01"]]
    records = build_records({"data/agreements.xlsx": _book(("Agreements", rows))}, 2026)
    said = "Letters sent to Gull Point Marinas ({} days before 1 January 2027)."
    assert not day_count_problems(said.format(74), records, today=date(2026, 10, 19), year=2026)
    assert day_count_problems(said.format(64), records, today=date(2026, 10, 19), year=2026)


def test_a_clause_after_a_semicolon_with_its_own_subject_is_about_it():
    budget = _book(("Budget", [["Cost centre", "Name", "Q1", "Q2", "Q3", "Q4"],
                               ["CC-410", "Operations", 64000, 64000, 64000, 64000],
                               ["CC-610", "IT", 62500, 62500, 62500, 62500],
                               ["CC-710", "Marketing", 62000, 62000, 62000, 62000]]))
    records = build_records({"data/finance/budget_2026.xlsx": budget}, 2026)
    said = "{} has the largest overspend, £15,833.88 or about 25% over its £62,500 budget; Operations is over by £8,622.34 on its £64,000 budget."
    assert not _false(said.format("IT"), records)
    assert _false(said.format("Marketing"), records)


def test_inside_a_span_is_a_bound():
    from officesim.evaluators.day_counts import day_count_problems

    records = _ledger()
    assert not day_count_problems("INV-000: ordered 1 July 2026, request received 6 July 2026, so inside 30 days.",
                                  records, today=date(2026, 11, 16), year=2026)


def test_an_item_that_does_not_appear_where_it_was_looked_for_is_not_denied():
    from officesim.evaluators.claims import polarity_problems

    said = "Order SO-72664 doesn't appear on your account — could you check the number, please?"
    gold = "We can't find order SO-72664 under your account. Could you check the order number and let us know?"
    assert polarity_problems(said, ["SO-72664", ["check", "confirm", "verify"]], [gold], year=2026) == []
    assert polarity_problems("Order SO-72664 was not delivered — could you check?", ["SO-72664"],
                             ["Order SO-72664 was delivered on 3 May."], year=2026)


def test_customers_sent_a_letter_are_whom_the_mails_went_to_and_flagged_separately_is_said():
    from officesim.evaluators.actions import action_claims, counted_action_problems

    said = ("12 customers have been sent a letter; 7 are on fixed-term agreements and got none; 1 I have held back "
            "and flagged separately.")
    assert not counted_action_problems(said, frozenset({13.0}), addressed=(13, 12))
    assert counted_action_problems(said, frozenset({13.0}), addressed=(11, 10))
    assert [c.shows for c in action_claims(said) if c.words == "flagged"] == ["mail"]
    assert [c.shows for c in action_claims("I have flagged row 12 in the sheet.") if c.words == "flagged"] == ["file"]


def test_a_heading_over_a_breakdown_and_a_bound_of_a_range_of_items():
    actions = _book(("Actions", [["Action", "Owner", "Raised", "Status"],
                                 ["A135", "Zoe Novak", "2026-10-06", "Done"], ["A149", "Nadia Lin", "2026-11-10", "Open"]]))
    records = build_records({"data/actions.xlsx": actions}, 2026)
    said = ("Of the 15 actions raised at the key accounts weekly since 6 October (A135 to A149), 9 have been recorded "
            "as done and {} are still open:\n\n- Aiko Amari: 1 (A142)\n- Nadia Lin: 2 (A144, A149)\n- Vera Chen: 1 (A147)\n"
            "- Zoe Novak: 2 (A140, A148)\n")
    assert not _false(said.format(6), records)
    assert _false(said.format(7).replace("9 have", "8 have"), records)


def test_an_amount_said_as_a_bound_is_the_tasks_threshold():
    from officesim.evaluators.claims import _task_limit, claims_in

    instruction = "About the renewals list: make the threshold £30,000 instead."
    for said in ("I also opened the other contracts of £30,000+ that expire in the window.",
                 "the contracts worth £30,000 or more"):
        c = claims_in(said, year=2026, kinds=("number",))[0]
        assert _task_limit(c, said, instruction, 2026)
    said = "Vantage Security's contract is worth £30,000."
    assert not _task_limit(claims_in(said, year=2026, kinds=("number",))[0], said, instruction, 2026)


def _register():
    rows = [["Contract", "Supplier", "Annual value", "Expires", "Auto-renew"],
            ["CTR-2314", "Vantage Security", 46500.0, "2027-01-31", "Yes"],
            ["CTR-2377", "Pinecrest Catering", 117500.0, "2027-04-30", "Yes"],
            ["CTR-2468", "Kite Field Sports", 83500.0, "2027-04-30", "Yes"]]
    return build_records({"data/legal/contracts_register.xlsx": _book(("Contracts", rows))}, 2026)


def test_a_second_subject_after_a_semicolon_and_a_due_date_said_payable():
    records = _register()
    said = "Vantage Security expires first (31 January 2027); Pinecrest Catering and Kite Field Sports both expire on {}."
    assert _false(said.format("31 May 2027"), records)
    assert not _false(said.format("30 April 2027"), records)
    invoices = _book(("Invoices", [["Invoice", "Supplier", "Issued", "Due", "Amount"],
                                   ["KP-2608-0297", "Kestrel Paper", "2026-08-24", "2026-10-23", 2436.95]]))
    records = build_records({"data/invoices.xlsx": invoices}, 2026)
    assert _false("I know KP-2608-0297 is payable by 23 November 2026.", records)
    assert not _false("I know KP-2608-0297 is payable by 23 October 2026.", records)


def test_a_superlative_with_its_measure_said_before_the_item():
    from officesim.evaluators.superlatives import ranked_lists, superlative_problems

    gold = {"data/legal/auto_renewals.xlsx": {"kind": "xlsx", "sheet_order": ["Sheet1"], "sheets": {"Sheet1": [
        ["Contract", "Supplier", "Annual value"], ["CTR-2314", "Vantage Security", 46500.0],
        ["CTR-2377", "Pinecrest Catering", 117500.0], ["CTR-2468", "Kite Field Sports", 83500.0]]}}}
    lists = ranked_lists({}, gold)
    assert superlative_problems("The largest of the three by annual value is Kite Field Sports.", lists)
    assert not superlative_problems("The largest of the three by annual value is Pinecrest Catering.", lists)


def test_a_person_paired_with_a_party_stands_in_its_rows():
    from officesim.evaluators.pairings import pairing_problems

    rows = [["Contract", "Supplier", "Owner"], ["CTR-2314", "Vantage Security", "Noor Costa"],
            ["CTR-2377", "Pinecrest Catering", "Lucia Keller"], ["CTR-2468", "Kite Field Sports", "Jonas Sato"]]
    records = build_records({"data/legal/contracts_register.xlsx": _book(("Contracts", rows))}, 2026)
    said = "I've copied the owners: Noor Costa for Vantage Security, {} for Kite Field Sports and {} for Pinecrest Catering."
    assert pairing_problems(said.format("Lucia Keller", "Jonas Sato"), records)
    assert not pairing_problems(said.format("Jonas Sato", "Lucia Keller"), records)
    assert not pairing_problems("Kite Field Sports (Jonas Sato) renews on 30 April.", records)
    assert pairing_problems("Kite Field Sports (Noor Costa) renews on 30 April.", records)


def test_sent_them_a_notice_is_not_what_this_mail_attaches():
    from officesim.evaluators.actions import Episode, action_problems

    episode = Episode(frozenset({"mail", "attachment"}), (("sent/1.eml", frozenset({"amara@stonegate.test"})),),
                      home="stonegate.test")

    def problems(text: str) -> list[str]:
        return action_problems(text, "sent/1.eml", episode, attachments=True, recipients_named=lambda _s: set(),
                               allowed=set(), recorded=lambda _s, _v: None, this="sent/1.eml")

    assert problems("As the deadline was close, I've already sent them written notice of non-renewal this morning.")
    assert problems("Attached is the list; I've sent the spreadsheet with this mail.") == []


def test_a_party_with_its_account_executive_after_a_comma():
    from officesim.evaluators.pairings import pairing_problems

    rows = [["Customer", "Region", "Account executive"], ["Quill & Ink Bookshops", "North", "Yara Moss"],
            ["Beacon Hill Schools", "South", "Freya Sousa"]]
    records = build_records({"data/sales/customers.xlsx": _book(("Customers", rows))}, 2026)
    said = "2 x Standing Desk from SO-72608 (Quill & Ink Bookshops, account executive {}), £1,040.00."
    assert pairing_problems(said.format("Freya Sousa"), records)
    assert not pairing_problems(said.format("Yara Moss"), records)
