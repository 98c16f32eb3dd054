"""Classes read since round AD (issue 44): true statements that round AD's right outcomes failed with, and the
false twins that must still fail. Pure functions over small texts and records."""

from __future__ import annotations

from officesim.evaluators.records import build_records
from tests.test_round_y_classes import _ranges


def _book(*sheets: tuple[str, list[list]]) -> dict:
    return {"kind": "xlsx", "sheet_order": [n for n, _r in sheets], "sheets": dict(sheets)}


def test_a_range_in_day_month_numbers_is_read_in_the_reading_its_row_gives():
    rows = [["Customer", "First message", "Last message"], ["Juniper Dental", "2026-10-05", "2026-11-10"]]
    records = build_records({"data/escalations.xlsx": _book(("Sheet1", rows))}, 2026)
    # 05/10/2026 is 5 October here, not 10 May
    assert not _ranges("Juniper Dental - 4 messages between 05/10/2026 and 10/11/2026", records)
    assert _ranges("Juniper Dental - 4 messages between 06/10/2026 and 10/11/2026", records)


def test_blocking_it_in_my_calendar_is_a_booking():
    from officesim.evaluators.actions import action_claims

    claims = action_claims("Your training day on Tuesday 29 December is approved and I've blocked it in my calendar.")
    assert [c.stem for c in claims] == ["book"]
    assert [c.stem for c in action_claims("I've blocked it.")] == ["outside"]


def test_a_count_from_the_request_a_reply_answers():
    from datetime import date, datetime

    from officesim.evaluators.day_counts import day_count_problems
    from officesim.evaluators.replies import answered_days

    leave = _book(("Leave", [["Employee", "Type", "Start", "End"], ["Luca Iyer", "Annual leave", "2026-12-29", "2026-12-30"],
                             ["Luca Iyer", "Annual leave", "2026-08-03", "2026-08-07"]]))
    records = build_records({"data/leave.xlsx": leave}, 2026)
    body = ("- Reason: the policy asks for two weeks' notice; 14 December is only {} days after your request.\n\n"
            "On Sun, 06 Dec 2026 09:00:00 +0000, Priya Rossi <priya@x.test> wrote:\n> Could I take 14-16 December?")
    day = answered_days(body, 2026)
    assert day == [date(2026, 12, 6)]
    assert not day_count_problems(body.format(8), records, today=date(2026, 12, 7), year=2026, answered=day)
    assert day_count_problems(body.format(11), records, today=date(2026, 12, 7), year=2026, answered=day)
    assert isinstance(datetime.now(), datetime)


def test_quick_one_from_a_team_counts_nothing():
    from officesim.evaluators.verdicts import listed_counts

    assert not listed_counts("Quick one from Harbourline accounts: BS-2610-0392 is a second invoice for PO-4776, "
                             "TF-2611-0393 and DF-2611-0395.", 2026)
    assert listed_counts("We held five invoices: BS-2610-0392, TF-2611-0393 and DF-2611-0395.", 2026)


def test_the_bounds_of_many_items_day_counts_are_no_one_items_count():
    from datetime import date

    from officesim.evaluators.day_counts import day_count_problems

    rows = [["Invoice", "Issued", "Original issued"], ["BS-2610-0392", "2026-10-20", "2026-10-05"]]
    records = build_records({"data/inv.xlsx": _book(("Invoices", rows))}, 2026)
    assert not day_count_problems("Each duplicate arrived 10 to 15 days after its original.", records,
                                  today=date(2026, 11, 16), year=2026)
    assert day_count_problems("BS-2610-0392 arrived 12 days after its original.", records,
                              today=date(2026, 11, 16), year=2026)


def _contracts():
    rows = [["Contract", "Supplier", "Expires", "Notice (days)", "Auto-renew"],
            ["CTR-2314", "Elmstead Uniforms", "2027-04-30", 90, "No"],
            ["CTR-2321", "Yarrow Energy", "2026-11-30", 90, "Yes"]]
    return build_records({"data/contracts.xlsx": _book(("Contracts", rows))}, 2026)


def test_a_flags_value_after_its_colon_is_read():
    from officesim.evaluators.verdicts import Scope, read

    def false(text: str) -> list:
        return [v for v in read(text, _contracts(), Scope(year=2026)).verdicts if v.verdict == "false"]

    assert not false("You own CTR-2314 with Elmstead Uniforms (supplier contract, 90 days' notice, auto-renew: No).")
    assert false("You own CTR-2314 with Elmstead Uniforms (supplier contract, 90 days' notice, auto-renew: Yes).")


def test_a_deadline_said_passed_on_the_day_the_clause_gives():
    from datetime import date

    from officesim.evaluators.timing import deadline_problems

    today = date(2026, 10, 19)
    assert not deadline_problems("CTR-2321 (Yarrow Energy) had its notice deadline on 1 September 2026, which has "
                                 "already passed.", _contracts(), today)
    assert deadline_problems("CTR-2321 (Yarrow Energy) has already expired.", _contracts(), today)


def test_a_count_of_the_set_the_task_works_on_and_of_a_part_by_state():
    from officesim.evaluators.record_counts import Work, count_problems

    rows = [["Contract", "Supplier"]] + [[f"CTR-{2300 + k}", f"Supplier {k}"] for k in range(26)]
    records = build_records({"data/contracts.xlsx": _book(("Contracts", rows))}, 2026)
    work = Work(rows_gold=(9,))
    assert not count_problems("Nine contracts in total, worth £462,500 a year combined.", records, work, 2026)
    assert count_problems("Ten contracts in total, worth £462,500 a year combined.", records, work, 2026)
    invoices = [["Invoice", "Supplier", "Amount"]] + [[f"RI-26{k:02d}-0001", "Redfern", 100.0] for k in range(30)]
    records = build_records({"data/invoices.xlsx": _book(("Invoices", invoices))}, 2026)
    assert not count_problems("Total overdue: £5,018.39 across 4 invoices", records, Work(), 2026)


def test_an_excluded_order_cited_as_the_reference_of_a_listed_invoice():
    from officesim.evaluators.exact import referenced_by_included

    assert referenced_by_included("* BS-2603-0058 (for PO-4500) - £786.00", "PO-4500", ["BS-2603-0058"])
    assert not referenced_by_included("- PO-4500 (Monitor), open", "PO-4500", ["BS-2603-0058"])
    assert not referenced_by_included("I held BS-2603-0058 and PO-4500.", "PO-4500", ["BS-2603-0058"])


def _supplier_office():
    from datetime import datetime

    invoices = _book(("Invoices", [["Invoice", "Supplier", "PO", "Amount"],
                                   ["BS-2603-0058", "Birchwood Stationers", "PO-4500", 786.0]]))
    orders = _book(("Orders", [["PO", "Supplier", "Item"], ["PO-4500", "Birchwood Stationers", "Toner"],
                               ["PO-4839", "Birchwood Stationers", "Coffee Machine"]]))
    reminder = {"kind": "eml", "from": "elena@birchwoodstationers.test", "to": ["hana@x.test"], "cc": [],
                "subject": "Reminder: BS-2603-0058", "date": datetime(2026, 5, 10, 9, 0),
                "body": "BS-2603-0058 is still unpaid.", "attachments": []}
    return build_records({"data/invoices.xlsx": invoices, "data/orders.xlsx": orders,
                          "emails/hana/inbox/1.eml": reminder}, 2026)


def test_one_invoice_counted_beside_the_order_it_cites():
    from officesim.evaluators.claims import claims_in
    from officesim.evaluators.verdicts import counts_named_ids

    records = _supplier_office()
    text = "* PO-4839 - Coffee Machine\n* BS-2603-0058 (for PO-4500) - £786.00\nTotal overdue: £786.00 across {} invoice\n"
    for n, expected in ((1, True), (3, False)):
        said = text.format(n)
        count = [c for c in claims_in(said, year=2026, kinds=("number",)) if c.text == str(n)][0]
        assert counts_named_ids(count, said, records) is expected


def test_the_day_a_party_wrote_about_the_item():
    from officesim.evaluators.claims import claims_in
    from officesim.evaluators.truth import contacted_on

    records = _supplier_office()
    for day, expected in (("10 May", True), ("12 May", False)):
        text = f"BS-2603-0058 is our oldest overdue item with you (you reminded us about it on {day})."
        claim = claims_in(text, year=2026, kinds=("date",))[0]
        assert contacted_on(claim, text, records) is expected


def test_a_greeting_by_full_name_is_of_that_person():
    from officesim.evaluators.claims import Directory, greeting_problem

    d = Directory()
    d.add("teo@driftwood.test", "Teo Fischer")
    d.add("teo@saltmarsh.test", "Teo Moreau")
    assert greeting_problem("Hi Teo Moreau,\nThanks", ["teo@driftwood.test"], d)
    assert not greeting_problem("Hi Teo Fischer,\nThanks", ["teo@driftwood.test"], d)
    assert not greeting_problem("Hi Teo,\nThanks", ["teo@driftwood.test"], d)


def test_whom_this_mail_is_said_to_copy():
    from officesim.evaluators.claims import Directory
    from officesim.evaluators.truth import copied_problems

    d = Directory()
    d.add("vera.brandt@h.test", "Vera Brandt")
    d.add("felix.moss@h.test", "Felix Moss")
    people = ["hana@h.test", "teo@s.test", "felix.moss@h.test"]
    assert copied_problems("Vera Brandt is copied and joins the call.", people, d)
    assert not copied_problems("Felix Moss is copied and joins the call.", people, d)
    assert not copied_problems("I've copied in Felix.", people, d)
    assert copied_problems("I have copied my colleague Vera Brandt, who will join the call.", people, d)
    assert not copied_problems("Vera was copied on the invoice thread last week.", people, d)


def test_a_day_a_reply_gives_of_the_request_it_answers():
    from officesim.evaluators.replies import restated_day_problems

    asked = "Hi Arjun, could I book a training day on Tuesday 29 December? Thanks, Priya"
    assert restated_day_problems("That works - your training day on Monday 28 December is approved.", asked, 2026)
    assert not restated_day_problems("That works - your training day on Tuesday 29 December is approved.", asked, 2026)
    leave = "Hi, could I take annual leave from 14 to 16 December?"
    assert not restated_day_problems("Your leave on 15 December is fine; you are back on 17 December.", leave, 2026)


def test_a_greeting_by_full_name_the_records_give_another_address():
    from officesim.evaluators.truth import greeted_name_problems

    contacts = _book(("Suppliers", [["Supplier", "Contact", "Email"],
                                    ["Driftwood Facilities", "Teo Fischer", "teo@driftwood.test"],
                                    ["Saltmarsh Cleaning", "Teo Moreau", "teo@saltmarsh.test"]]))
    records = build_records({"data/suppliers.xlsx": contacts}, 2026)
    assert greeted_name_problems("Dear Teo Moreau,\n\nDF-2611-0395 repeats DF-2610-0357.", ["teo@driftwood.test"], records)
    assert not greeted_name_problems("Dear Teo Fischer,\n\nDF-2611-0395 repeats.", ["teo@driftwood.test"], records)
    assert not greeted_name_problems("Dear Teo,\n\nDF-2611-0395 repeats.", ["teo@driftwood.test"], records)


def test_a_weekday_said_after_its_date():
    from officesim.evaluators.facts import weekday_conflicts

    assert weekday_conflicts("notice must be given by 30 January 2027 (a Monday)", 2026)
    assert not weekday_conflicts("notice must be given by 30 January 2027 (a Saturday)", 2026)
    assert not weekday_conflicts("due 30 January 2027, Monday 1 February 2027 is next", 2026)


def test_a_flag_said_of_both_items_with_a_condition_after_it():
    from officesim.evaluators.verdicts import Scope, read

    def false(text: str) -> list:
        return [v for v in read(text, _contracts(), Scope(year=2026)).verdicts if v.verdict == "false"]

    assert false("Note that CTR-2314 (Elmstead Uniforms) and CTR-2321 both auto-renew if we miss the deadline.")
    assert not false("CTR-2321 (Yarrow Energy) auto-renews if we miss the deadline.")
    assert not false("If CTR-2314 auto-renewed, we would pay again.")


def test_awaiting_payment_said_of_a_paid_invoice():
    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import not_yet_problems

    rows = [["Invoice", "Amount", "Paid on"], ["TF-2610-0370", 2063.12, "2026-11-02"], ["TF-2611-0393", 2063.12, None]]
    records = build_records({"data/i.xlsx": _book(("Invoices", rows))}, 2026)
    assert not_yet_problems(cut("TF-2610-0370 is still awaiting payment and will be settled as normal.")[0], [], records)
    assert not not_yet_problems(cut("TF-2611-0393 is still awaiting payment.")[0], [], records)


def test_the_smallest_increase_and_the_most_urgent_over_the_list_the_task_writes():
    from officesim.evaluators.superlatives import ranked_lists, superlative_problems

    header = ["Region", "Orders", "Revenue", "Sep 2025"]
    before = {"r.xlsx": {"kind": "xlsx", "sheets": {"S": [header]}}}
    gold = {"r.xlsx": {"kind": "xlsx", "sheets": {"S": [header, ["North", 40, 90000.5, 52738.0],
                                                          ["South", 45, 80000.5, 59349.0],
                                                          ["West", 60, 169578.5, 33470.5]]}}}
    lists = ranked_lists(before, gold)
    assert superlative_problems("Every region is ahead of September 2025; North showed the smallest increase.", lists)
    assert not superlative_problems("Every region is ahead of September 2025; South showed the smallest increase.", lists)
    header = ["Contract", "Supplier", "Notice by"]
    before = {"c.xlsx": {"kind": "xlsx", "sheets": {"C": [header]}}}
    gold = {"c.xlsx": {"kind": "xlsx", "sheets": {"C": [header, ["CTR-2301", "Quayside Print Works", "2026-11-01"],
                                                          ["CTR-2302", "Heron Bay Resorts", "2026-12-02"]]}}}
    lists = ranked_lists(before, gold)
    assert superlative_problems("The most urgent is Heron Bay Resorts, with notice due by 2 December 2026.", lists)
    assert not superlative_problems("The most urgent is Quayside Print Works, with notice due by 1 November.", lists)


def test_a_reports_period_said_as_another_month():
    from officesim.evaluators.truth import period_month_problems

    months = frozenset({(2026, 9), (2025, 9)})
    assert period_month_problems("Revenue by region, August 2026\nHere is the sheet for August 2026.", months)
    assert not period_month_problems("Revenue by region, September 2026\nHere is the sheet for September 2026; "
                                     "October 2026 comes next month. In August 2026 we sold less.", months)
    assert not period_month_problems("The quarter covers July 2026 to September 2026.", months)


def test_people_said_to_be_off_on_a_day_none_of_their_absences_covers():
    from officesim.evaluators.absences import off_day_problems, written_absences

    leave = _book(("Leave", [["Employee", "Type", "Start", "End"], ["Luca Iyer", "Annual leave", "2026-12-29", "2026-12-30"],
                             ["Lucia Nair", "Annual leave", "2026-12-30", "2027-01-01"],
                             ["Priya Rossi", "Training", "2026-12-29", "2026-12-29"]]))
    records = build_records({"data/leave.xlsx": leave}, 2026)
    assert off_day_problems("Luca Iyer and Priya Rossi are already off on 30 December 2026, so I can't.", records, 2026)
    assert not off_day_problems("Luca Iyer and Lucia Nair are already off on 30 December 2026, so I can't.", records, 2026)
    assert not off_day_problems("If Priya Rossi is off on 30 December, Luca covers.", records, 2026)
    # a leave the episode has just recorded counts too
    written = written_absences({}, {"data/new.xlsx": _book(("Leave", [["Employee", "Start", "End"],
                                                                      ["Luca Iyer", "2026-12-31", "2027-01-01"]]))})
    assert not off_day_problems("Luca Iyer is already off on 31 December 2026.", records, 2026, written)
    assert off_day_problems("Luca Iyer is already off on 31 December 2026.", records, 2026)


def test_notice_a_reply_says_its_reader_gave():
    from datetime import date

    from officesim.evaluators.replies import notice_problems

    asked = "Could I take annual leave from 14 to 16 December?"
    sent = [date(2026, 12, 5)]  # 9 days before
    assert notice_problems("Thanks for giving more than two weeks' notice - approved.", asked, sent, 2026)
    assert not notice_problems("Thanks for giving 9 days' notice - approved.", asked, sent, 2026)
    assert not notice_problems("The policy asks for two weeks' notice for leave this long.", asked, sent, 2026)
    assert not notice_problems("Thanks for giving more than a week's notice.", asked, sent, 2026)


def test_i_did_drop_someone_a_note_is_a_mail_sent():
    from officesim.evaluators.actions import action_claims

    said = "Nothing was open, so I left the call as it was; I did drop Pablo Novak a short note to say so."
    assert [c.stem for c in action_claims(said)] == ["send"]
    assert not action_claims("Nothing was open, so I left the call description as it was.")


def test_your_leave_said_approved_where_it_is_pending():
    from officesim.evaluators.verdicts import Scope, read

    staff = _book(("Staff", [["Name", "Email", "Role"], ["Dmitri Mensah", "dmitri.mensah@x.test", "Account Manager"],
                             ["Ines Nair", "ines.nair@x.test", "Sales Director"]]))
    leave = _book(("Leave", [["Employee", "Type", "Start", "End", "Status"],
                             ["Dmitri Mensah", "Annual leave", "2026-10-19", "2026-10-20", "Pending"],
                             ["Dmitri Mensah", "Annual leave", "2026-08-03", "2026-08-07", "Approved"],
                             *[["Ines Nair", "Annual leave", f"2026-0{m}-01", f"2026-0{m}-02", s]
                               for m, s in zip(range(1, 9), ["Approved", "Pending", "Rejected"] * 3)]]))
    records = build_records({"data/staff.xlsx": staff, "data/leave.xlsx": leave}, 2026)

    def false(text: str) -> list:
        return [v for v in read(text, records, Scope(year=2026), addressee="dmitri.mensah@x.test").verdicts
                if v.verdict == "false"]

    said = "Hi Dmitri,\n\nAs your leave on 19-20 October {}, I've booked the meeting for Wednesday 21 October."
    assert false(said.format("has been approved"))
    assert not false(said.format("is still pending"))


def test_an_earlier_day_of_another_clause_does_not_excuse_a_claim():
    from officesim.evaluators.actions import Episode, action_problems

    episode = Episode(did=frozenset({"mail", "event"}), mails=(("m1", frozenset({"dmitri@x.test"})),),
                      mailed_before=frozenset({"amara@c.test"}))
    people = {"amara ueda": frozenset({"amara@c.test"})}

    def problems(said: str) -> list:
        def named(text: str) -> list:
            return [people[k] for k in people if k in text.lower()]
        return action_problems(said, "mail", episode, attachments=False, allowed=set(),
                               recorded=lambda _w, _t: None, people_named=named,
                               recipients_named=lambda t: {a for g in named(t) for a in g})

    assert problems("I've already replied to Amara Ueda with ship dates, and I've booked a meeting with you on "
                    "Wednesday 21 October 2026 at 09:00.")
    assert not problems("I replied to Amara Ueda on 12 October with ship dates.")


def test_the_weekdays_of_a_range_after_it():
    from officesim.evaluators.facts import weekday_conflicts

    assert not weekday_conflicts("Approved: 9–11 November 2026 (Monday to Wednesday).", 2026)
    assert weekday_conflicts("Approved: 11 November 2026 (a Monday).", 2026)


def test_a_year_before_a_currency_word_is_no_amount_of_a_changed_cell():
    from officesim.evaluators.records import changed_cells
    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import Scope, changed_value_problems

    header = ["Contract", "Supplier", "Annual value", "Invoiced 2026"]
    before = {"data/c.xlsx": _book(("Register", [header, ["CTR-2314", "Umber Freight", 75000.0, None]]))}
    after = {"data/c.xlsx": _book(("Register", [header, ["CTR-2314", "Umber Freight", 75000.0, 134651.76]]))}
    records = build_records(before, 2026)
    scope = Scope(changed=changed_cells(before, after, 2026), year=2026)

    def false(text: str) -> list:
        return changed_value_problems(cut(text)[0], records, scope)

    assert not false("For CTR-2314 (Umber Freight): annual value GBP 75,000.00, invoiced in 2026 GBP 134,651.76.")
    assert false("For CTR-2314 (Umber Freight): annual value GBP 75,000.00, invoiced in 2026 GBP 143,651.76.")


def test_you_as_a_title_is_of_the_person_the_line_calls_by_name():
    from officesim.evaluators.roles import titled_role_problems

    staff = _book(("Staff", [["Name", "Email", "Role"], ["Rafael Rahman", "rafael.rahman@x.test", "Accountant"],
                             ["Anton Hart", "anton.hart@x.test", "Head of Finance"]]))
    records = build_records({"data/staff.xlsx": staff}, 2026)
    to, cc = ["rafael.rahman@x.test"], ["anton.hart@x.test"]
    said = "Hi Rafael,\n\nYE-2610-0374: Approved.\nAnton, copying you as {} since it is £5,000.00 or more."
    assert not titled_role_problems(said.format("Head of Finance"), to, cc, records)
    assert titled_role_problems(said.format("Finance Director"), to, cc, records)
