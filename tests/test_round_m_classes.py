"""Classes a blind calibration round found (issue 44, round M, 8 hard tasks no audit had touched): each
true statement below failed, and each false one beside it still fails. Pure functions, no office on disk."""

from __future__ import annotations

from datetime import date

from officesim.evaluators.claims import Support, polarity_problems, stray_claims
from officesim.evaluators.exact import set_aside_as
from officesim.evaluators.facts import unbound
from officesim.evaluators.records import build_records, label_words
from officesim.evaluators.timing import deadline_problems
from officesim.evaluators.truth import _durations
from officesim.evaluators.verdicts import Binder


def test_a_refused_date_beside_the_same_date_stated_plainly_is_stated():
    refusal = ("I'm sorry, I can't approve 30-31 December: Luca Iyer and Lucia Nair are already booked on annual "
               "leave on 30 December 2026.")
    assert polarity_problems(refusal, ["2026-12-30"], [], year=2026) == []
    # the refusal alone names what is refused, not the full day the check wants said
    assert polarity_problems("I can't approve 30 December.", ["2026-12-30"], [], year=2026)
    assert polarity_problems("We are not open on 30 December 2026.", ["2026-12-30"], [], year=2026)


def test_a_correction_clause_negates_only_what_follows_it():
    assert polarity_problems("We open on 30 December 2026, not 31 December.", ["2026-12-30"], [], year=2026) == []
    assert polarity_problems("We open on 31 December 2026, not 30 December.", ["2026-12-30"], [], year=2026)


def _policy_days(sentence: str) -> set[int]:
    return {n for n, _w in _durations(sentence, [i for i in range(len(sentence)) if sentence.startswith("policy", i)])}


def test_a_measured_span_beside_a_policy_is_not_the_policys():
    assert _policy_days("your request reached us on 12 October, 33 days later, while our returns policy allows "
                        "returns within 30 days of the order date.") == {30}
    assert _policy_days("I can't approve 14-16 December: that is three days, and the leave policy asks for two "
                        "weeks' notice.") == {14}
    assert _policy_days("for three days off the leave policy asks for two weeks' notice") == {14}
    assert _policy_days("the policy asks for 33 days notice") == {33}


def test_a_list_item_is_set_aside_by_the_line_it_stands_under():
    mail = ("I've booked the probation reviews for my team:\n- Viktor Moss: Tue 17 Nov, 14:00-15:00\n\n"
            "Omar Kaur's review can't fit before his six-month date.")
    assert set_aside_as(mail, "Viktor Moss", ["booked", "scheduled"], ["Omar Kaur"], year=2026)
    unbooked = "Reviews still to arrange:\n- Viktor Moss: Tue 17 Nov\n"
    assert not set_aside_as(unbooked, "Viktor Moss", ["booked", "scheduled"], ["Omar Kaur"], year=2026)


def test_a_time_range_end_is_not_a_rival_of_its_start():
    bullets = "Your review:\n- Day: Tuesday 17 November 2026\n- Time: 14:00 to 15:00\n"
    assert unbound(bullets, [["2026-11-17", "14:00"]], year=2026) == []
    assert unbound(bullets.replace("14:00 to 15:00", "13:00 to 14:00"), [["2026-11-17", "14:00"]], year=2026)
    assert unbound(bullets.replace("14:00 to 15:00", "15:00 to 16:00"), [["2026-11-17", "14:00"]], year=2026)


def _register():
    rows = [["Ref", "Party", "Expires", "Notice period (days)"], ["CTR-2314", "Vantage Security", "2027-01-31", 60],
            ["CTR-2461", "Alder Street Clinics", "2027-10-31", 60]]
    return build_records({"data/register.xlsx": {"kind": "xlsx", "sheet_order": ["R"], "sheets": {"R": rows}}}, 2026)


def test_a_passed_notice_deadline_is_the_end_less_the_notice_period():
    records, today = _register(), date(2026, 12, 7)
    passed = "Notice on Vantage Security (CTR-2314) was due by 2026-12-02 and is no longer possible."
    assert deadline_problems(passed, records, today) == []
    ahead = "Notice on CTR-2314 can still be given."
    assert deadline_problems(ahead, records, today)
    assert deadline_problems("Notice on CTR-2461 is no longer possible.", records, today)


def test_letters_that_have_gone_out_are_no_passed_deadline():
    records, today = _register(), date(2026, 12, 7)
    mail = ("The letters have gone out to 9 customers. These have fixed-term agreements:\n\n"
            "- Alder Street Clinics: agreement CTR-2461 ends 31 October 2027 (notice 60 days)\n")
    assert deadline_problems(mail, records, today) == []
    assert deadline_problems("CTR-2461 has gone past its deadline; it has expired.", records, today)


def test_a_mail_is_its_senders_organisation_and_not_another_named_partys():
    rows = [["Supplier", "Contact"], ["Quayside Print Works", "ines@quaysideprintworks.test"],
            ["Cobalt Software Ltd", "pablo@cobaltsoftware.test"]]
    files = {"data/suppliers.xlsx": {"kind": "xlsx", "sheet_order": ["S"], "sheets": {"S": rows}},
             "emails/u/msg-1.eml": {"kind": "eml", "from": "ines@quaysideprintworks.test", "to": ["u@x.test"],
                                    "date": "2026-06-19 10:20:00", "subject": "New bank details",
                                    "body": "New sort code 40-46-12, account 81252327."},
             "emails/u/msg-2.eml": {"kind": "eml", "from": "pablo@cobaltsoftware.test", "to": ["u@x.test"],
                                    "date": "2026-10-26 11:05:00", "subject": "Change of bank details",
                                    "body": "New sort code 20-35-41, account 29060046."}}
    records = build_records(files, 2026)
    mails = {records.entities[i].name: records.entities[i] for i in range(len(records.entities))
             if records.entities[i].collection == "mail"}
    assert "quayside print works" in mails["emails/u/msg-1.eml"].keys
    assert "cobalt software ltd" in mails["emails/u/msg-2.eml"].keys  # its domain spells the name less "Ltd"
    binder = Binder(records)
    own, _spans = binder.bind("Cobalt Software Ltd wrote giving new bank details (account 29060046).")
    assert "emails/u/msg-1.eml" not in {records.entities[i].name for i in own}  # Quayside's subject words


def test_a_column_of_promised_days_is_what_is_due_for_delivery():
    assert "due" in label_words("Promised")
    assert "due" not in label_words("Delivered")


def test_the_limit_the_task_sets_is_supported_where_it_is_named_as_a_limit():
    instruction = "Amara: make the threshold £30,000 instead, I'd rather see too many."
    support = Support(expected=["£46,500"], texts=[instruction])
    text = "With the lower £30,000 threshold, Vantage Security (CTR-2314, £46,500 a year) is now on the list."
    assert stray_claims(text, support, year=2026, now=None, directory=None, sources=[]) == []
    wrong = "Vantage Security (CTR-2314, £46,500 a year) is listed; Kite Field is worth £31,000."
    assert [c.text for c in stray_claims(wrong, support, year=2026, now=None, directory=None, sources=[])] == ["£31,000"]


def test_a_doubt_phrased_with_whether_or_before_a_proposal_is_a_hedge():
    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import prose_hedges

    def hedged(text: str) -> bool:
        return bool(prose_hedges(cut(text)))

    assert hedged("I am not sure whether notice on Vantage Security is still possible.")
    assert hedged("Operations may or may not be over budget: it depends on whether PO-4628 counts.")
    assert hedged("CS-2611-0396 is probably fine to pay, though you may want to hold it for now.")
    assert hedged("Wren House Hostels: ends 31 January 2027 (though it may renew automatically, I could not tell)")
    assert not hedged("I am not sure whether you also want the memo as a PDF; let me know.")
    assert not hedged("Could you check whether PO-4628 is still open?")
    assert not hedged("Let me know whether you want it held.")


def test_a_status_said_of_all_the_items_listed_above_is_read_of_each():
    records, today = _register(), date(2026, 12, 7)
    listed = ("Here they are:\n\n- CTR-2314 Vantage Security: notice by 2026-12-02\n"
              "- CTR-2461 Alder Street Clinics: notice by 2027-09-01\n\n")
    problems = deadline_problems(listed + "Good news: notice can still be given on both.", records, today)
    assert problems and "CTR-2314" in problems[0]
    assert deadline_problems(listed + "Notice can still be given on CTR-2461.", records, today) == []


def test_a_span_moves_only_the_date_it_is_said_of():
    from officesim.evaluators.claims import claims_in
    from officesim.evaluators.verdicts import date_after_span

    rows = [["Order", "Date", "Customer"], ["SO-71834", "2026-09-09", "Teasel Vets"]]
    files = {"data/orders.xlsx": {"kind": "xlsx", "sheet_order": ["O"], "sheets": {"O": rows}},
             "emails/u/msg-1.eml": {"kind": "eml", "from": "amara@teaselvets.test", "to": ["u@x.test"],
                                    "date": "2026-10-12 10:00:00", "subject": "Return from order SO-71834", "body": "Hello"}}
    records = build_records(files, 2026)

    def moved(text: str) -> bool:
        date_claim = next(c for c in claims_in(text, year=2026, kinds=("date",)))
        return date_after_span(date_claim, text, records)

    # 12 September is the request's day less 30 days, but the 30 days are the policy's, not this date's
    assert not moved("We can't accept the return from order SO-71834, placed on 12 September 2026: our policy "
                     "allows returns within 30 days.")
    assert moved("Your return of SO-71834 had to reach us within 30 days of the order, by 9 October 2026.")
    assert moved("Order SO-71834 plus 30 days is 9 October 2026.")


def test_a_sum_of_one_row_is_that_rows_own_amount_not_a_worked_out_figure():
    from officesim.evaluators.claims import claims_in
    from officesim.evaluators.verdicts import sum_of_rows

    rows = [["Invoice", "Supplier", "Amount", "Paid"], ["WP-2609-0313", "Willowby Packaging", "£2,183.44", None],
            ["WP-2610-0327", "Willowby Packaging", "£2,340.47", "2026-10-20"]]
    records = build_records({"data/inv.xlsx": {"kind": "xlsx", "sheet_order": ["I"], "sheets": {"I": rows}}}, 2026)

    def summed(text: str) -> bool:
        return sum_of_rows(next(c for c in claims_in(text, year=2026, kinds=("number",)) if c.currency), text, records)

    assert not summed("- WP-2609-0313 (Willowby Packaging, £2,340.47)")  # the other invoice's amount
    assert summed("Willowby Packaging billed £4,523.91 in all.")


def test_a_number_of_people_said_to_be_what_a_policy_allows_is_the_policys():
    from officesim.evaluators.truth import _POLICY_ALLOWS, _headcounts

    def allowed(sentence: str) -> set[int]:
        return {n for m in _POLICY_ALLOWS.finditer(sentence) for n in _headcounts(m.group(0))}

    assert _headcounts("2. No more than two members of one team may be on annual leave on the same day.") == {2}
    assert allowed("the leave policy allows only one person from the team on annual leave on any day") == {1}
    assert allowed("Under the leave policy, with Luca and Lucia off, that makes three people on the 30th") == set()


def test_a_role_in_apposition_is_read_whatever_the_sentence_plans_after_it():
    from officesim.evaluators.roles import role_problems

    rows = [["Name", "Role"], ["Grace Sato", "Accounts Payable Clerk"], ["Hugo Rahman", "Head of Finance"]]
    records = build_records({"data/staff.xlsx": {"kind": "xlsx", "sheet_order": ["S"], "sheets": {"S": rows}}}, 2026)
    assert role_problems("Grace Sato, as Head of Finance, will decide how to treat them.", records)
    assert role_problems("Hugo Rahman, as Head of Finance, will decide how to treat them.", records) == []
    assert role_problems("Grace Sato will become Head of Finance.", records) == []


def test_an_item_said_under_or_over_an_amount_is_compared_with_its_own_amounts():
    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import Scope, comparison_problems

    rows = [["Ref", "Party", "Annual value"], ["CTR-2447", "Cedar Row Hotels", "£92,500.00"],
            ["CTR-2314", "Vantage Security", "£26,500.00"]]
    records = build_records({"data/reg.xlsx": {"kind": "xlsx", "sheet_order": ["R"], "sheets": {"R": rows}}}, 2026)
    binder, scope = Binder(records), Scope(year=2026)

    def compared(text: str) -> list:
        st = cut(text)[0]
        return comparison_problems(st, binder.bind(st.text)[0], records, scope)

    assert compared("Cedar Row Hotels (CTR-2447) was left out because its annual value is under the £30,000 threshold.")
    assert compared("CTR-2314 was left out because its annual value is under the £30,000 threshold.") == []
    assert compared("CTR-2447 is over the £30,000 threshold.") == []


def test_a_notice_date_is_the_end_less_the_notice_period():
    from officesim.evaluators.claims import Claim
    from officesim.evaluators.verdicts import _notice_date_problem

    records = _register()
    row = [i for i in records.named("#CTR2314") if "#" in records.entities[i].collection]
    expiry = Claim("date", date(2027, 1, 31), "2027-01-31")
    assert _notice_date_problem(expiry, row, records)  # the expiry given as the notice date
    assert _notice_date_problem(Claim("date", date(2026, 12, 2), "2026-12-02"), row, records) is None


def test_a_category_said_of_all_the_items_listed_above_is_read_of_each():
    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import listed_category_problems

    rows = [["Ref", "Party", "Type"], ["CTR-2314", "Vantage Security", "Supplier"],
            ["CTR-2377", "Pinecrest Catering", "Supplier"], ["CTR-2468", "Kite Field Sports", "Customer"],
            ["CTR-2500", "Umber Freight", "Supplier"]]
    records = build_records({"data/reg.xlsx": {"kind": "xlsx", "sheet_order": ["R"], "sheets": {"R": rows}}}, 2026)
    listed = "- CTR-2314 Vantage Security\n- CTR-2377 Pinecrest Catering\n- CTR-2468 Kite Field Sports\n\n"

    def problems(text: str) -> list:
        statements = cut(text)
        return listed_category_problems(statements, len(statements) - 1, records)

    assert problems(listed + "All three are supplier contracts.")
    assert problems(listed.replace("- CTR-2468 Kite Field Sports\n", "") + "Both are supplier contracts.") == []


def test_a_day_a_party_is_said_to_have_written_on_is_one_of_its_messages_days():
    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import party_mail_day_problems

    rows = [["Supplier", "Contact"], ["Cobalt Software Ltd", "pablo@cobaltsoftware.test"]]
    files = {"data/suppliers.xlsx": {"kind": "xlsx", "sheet_order": ["S"], "sheets": {"S": rows}},
             "emails/u/msg-2.eml": {"kind": "eml", "from": "pablo@cobaltsoftware.test", "to": ["u@x.test"],
                                    "date": "2026-10-26 11:05:00", "subject": "Change of bank details", "body": "New."}}
    records = build_records(files, 2026)

    def problems(text: str) -> list:
        return [v for st in cut(text) for v in party_mail_day_problems(st, records, 2026)]

    assert problems("CS-2611-0396 is held: Cobalt Software Ltd told us on 26 September that its bank details changed.")
    assert problems("Cobalt Software Ltd told us on 26 October that its bank details changed.") == []
    assert problems("Cobalt Software Ltd's invoice is due on 26 September.") == []


def test_a_party_said_never_to_have_done_what_its_message_says_is_false():
    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import party_never_problems

    rows = [["Supplier", "Contact"], ["Quayside Print Works", "ines@quaysideprintworks.test"]]
    files = {"data/suppliers.xlsx": {"kind": "xlsx", "sheet_order": ["S"], "sheets": {"S": rows}},
             "emails/u/msg-1.eml": {"kind": "eml", "from": "ines@quaysideprintworks.test", "to": ["u@x.test"],
                                    "date": "2026-06-19 10:20:00", "subject": "New bank details", "body": "New."}}
    records = build_records(files, 2026)

    def problems(text: str) -> list:
        return [v for st in cut(text) for v in party_never_problems(st, records)]

    assert problems("Quayside Print Works has never changed its bank details with us, so it can be paid.")
    assert problems("Quayside Print Works has never missed a delivery date.") == []
    assert problems("Quayside Print Works has not changed its bank details since June.") == []


def test_a_booked_meeting_said_to_be_with_someone_not_invited_is_false():
    from datetime import datetime

    from officesim.evaluators.state import EvalState
    from officesim.evaluators.truth import attendee_problems

    mail = {"kind": "eml", "from": "hana@h.test", "to": ["viktor.moss@h.test"], "date": "2026-11-10 09:00:00",
            "subject": "Review", "body": "Hi"}
    staff = {"kind": "xlsx", "sheet_order": ["S"], "sheets": {"S": [["Name", "Email"], ["Amara Wolff", "amara.wolff@h.test"],
                                                                    ["Sven Rahman", "sven.rahman@h.test"]]}}
    calendar = {"kind": "ics", "events": [{"summary": "Probation review: Viktor Moss", "start": "2026-11-17 14:00:00",
                                           "end": "2026-11-17 15:00:00", "attendees": ["viktor.moss@h.test",
                                                                                       "sven.rahman@h.test"]}]}
    before = {"data/staff.xlsx": staff, "emails/hana@h.test/inbox/msg-1.eml": mail,
              "calendar/hana@h.test.ics": {"kind": "ics", "events": []}}
    state = EvalState(files={**before, "calendar/hana@h.test.ics": calendar}, before=before, user="hana@h.test",
                      now=datetime(2026, 11, 10, 9), people={"Amara Wolff": "amara.wolff@h.test",
                                                            "Sven Rahman": "sven.rahman@h.test"})
    wrong = "Your review is booked for Tuesday 17 November 2026 at 14:00, with me and Amara Wolff from HR."
    assert attendee_problems(wrong, state)
    assert attendee_problems(wrong.replace("Amara Wolff", "Sven Rahman"), state) == []


def test_a_yes_or_no_said_of_a_row_is_its_own():
    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import flag_problems

    rows = [["Ref", "Party", "Auto-renew"], ["CTR-2381", "Elmstead Uniforms", "No"], ["CTR-2447", "Dovetail Joinery", "Yes"]]
    records = build_records({"data/reg.xlsx": {"kind": "xlsx", "sheet_order": ["R"], "sheets": {"R": rows}}}, 2026)
    binder = Binder(records)

    def problems(text: str) -> list:
        st = cut(text)[0]
        return flag_problems(st, binder.bind(st.text)[0], records)

    assert problems("CTR-2381 renews automatically, so notice is needed.")
    assert problems("CTR-2447 does not renew automatically.")
    assert problems("CTR-2381 does not renew automatically.") == []
    assert problems("CTR-2447 renews automatically unless notice is given.") == []
    assert problems("CTR-2381 ends on expiry rather than renewing automatically.") == []
    assert problems("CTR-2381's renewal date is 31 January 2027.") == []  # not the yes-or-no column
    assert problems("CTR-2381 - Elmstead Uniforms - auto-renew no; notice 60 days") == []
    assert problems("CTR-2381 - Elmstead Uniforms - auto-renew: yes") 
