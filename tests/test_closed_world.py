"""Closed-world grading of written text (evaluators/claims.py): every stated fact must be supported,
every ordinary form of an expected fact is accepted."""

from datetime import datetime

import pytest

from officesim.evaluators import EvalState, run_check

ME = "maya.lin@northwind.test"
DANA = "dana.ortiz@northwind.test"
OMAR = "omar.haddad@bluefin.test"
NOW = datetime(2026, 1, 12, 9)  # a Monday


def mail(body: str, subject: str = "Expenses", to: str = DANA, mid: str = "msg-1") -> dict:
    return {"kind": "eml", "mailbox": ME, "folder": "sent", "id": mid, "from": ME, "to": [to], "cc": [],
            "subject": subject, "date": "2026-01-12 10:00:00", "body": body, "attachments": []}


SHEET = {"kind": "xlsx", "sheet_order": ["Trip"], "sheets": {"Trip": [
    ["Item", "Amount"], ["Flight", 3190.99], ["Hotel", 5100], ["Taxi", 1500]]}}
INBOX = {"kind": "eml", "mailbox": ME, "folder": "inbox", "id": "msg-0", "from": OMAR, "to": [ME], "cc": [],
         "subject": "Hello", "date": "2026-01-11 10:00:00", "body": "Hi Maya, Omar here.", "attachments": []}
BEFORE = {"data/trip.xlsx": SHEET, f"emails/{ME}/msg-0.eml": INBOX}
GOLD_BODY = "Hi Dana,\nthe trip total without the hotel is 4,690.99.\nMaya"


def state(body: str, *, to: str = DANA, subject: str = "Expenses", instruction: str = "Mail Dana the trip total "
          "without the hotel.", answer: str | None = None, gold_answer: str | None = None) -> EvalState:
    gold = {**BEFORE, f"emails/{ME}/sent/msg-1.eml": mail(GOLD_BODY)}
    files = {**BEFORE, f"emails/{ME}/sent/msg-1.eml": mail(body, subject, to)}
    return EvalState(files=files, before=BEFORE, gold=gold, user=ME, user_name="Maya Lin", now=NOW,
                     instruction=instruction, answer=answer, gold_answer=gold_answer)


def sent(body: str, facts: list, to: str = DANA, **kw) -> object:
    return run_check("email_sent", {"sender": ME, "to": to, "body_contains": facts, **kw}, state(body, to=to))


@pytest.mark.parametrize("body", [
    "Hi Dana, the total is 4,690.99 (5,100 if you count the hotel).",
    "Hi Dana, the total is 4,690.99, or 9,790.99 at the latest.",
    "Hi Dana, my first sum was 4,960.99, but the correct total is 4,690.99.",
    "Hi Dana, correction: the total is 4,690.99, not 4,960.99.",
])
def test_a_second_figure_beside_the_right_one_fails(body):
    out = sent(body, ["4690.99"])
    assert not out.passed, out.message


def test_an_amount_in_another_currency_fails():
    out = sent("Hi Dana, the total is €4,690.99.\n", ["$4690.99"])
    assert not out.passed, out.message


def test_the_plain_total_with_greeting_and_sign_off_passes():
    assert sent("Hi Dana,\n\nthe trip total without the hotel is $4,690.99.\n\nBest regards,\nMaya Lin\n\n", ["4690.99"]).passed


def test_an_office_value_stated_with_its_own_label_is_supported():
    out = sent("Hi Dana, the trip total is 4,690.99.\nThe taxi alone was 1,500.", ["4690.99"])
    assert out.passed, out.message
    out = sent("Hi Dana, the trip total is 4,690.99.\nThe taxi alone was 1,700.", ["4690.99"])
    assert not out.passed and "1,700" in out.message


@pytest.mark.parametrize("body", [
    "Hi Dana, we can no longer pay the 4,690.99.",
    "Hi Dana, please do NOT process the 4,690.99 yet.",
])
def test_a_required_fact_under_negation_fails(body):
    out = sent(body, ["4690.99"])
    assert not out.passed and "negation" in out.message


def test_negation_idioms_and_other_clauses_do_not_count():
    assert sent("Hi Dana, the total is 4,690.99, but the taxi receipt is not signed yet. Don't hesitate to ask.",
                ["4690.99"]).passed


def test_the_greeting_must_name_a_recipient():
    out = sent("Dear Omar,\nthe total is 4,690.99.", ["4690.99"])
    assert not out.passed and "greets" in out.message
    assert sent("Dear Ms. Ortiz,\nthe total is 4,690.99.", ["4690.99"]).passed
    assert sent("Hello team,\nthe total is 4,690.99.", ["4690.99"]).passed


@pytest.mark.parametrize("written, ok", [
    ("dana.ortiz@northwind.test", True),
    ("dana.ortiz@northwind.test.com", False),
    ("l.dana.ortiz@northwind.test", False),
    ("either dana.ortiz@northwind.test or dana@northwind.test", False),
])
def test_addresses_are_whole_tokens(written, ok):
    s = state(f"Hi, her address is {written}.", instruction="Send me Dana's address.")
    out = run_check("email_sent", {"sender": ME, "to": DANA, "body_contains": [DANA]}, s)
    assert out.passed is ok, out.message


def test_a_weekday_that_contradicts_its_date_fails():
    out = sent("Hi Dana, the total of 4,690.99 is due Tuesday 15 January.", ["4690.99"])
    assert not out.passed and "weekday" in out.message
    s = state("Hi Dana, see you Thursday the 15th at 10.00.", instruction="Ask Dana to meet on 2026-01-15 at 10:00.")
    out = run_check("email_sent", {"sender": ME, "to": DANA, "body_contains": ["2026-01-15", "10:00"]}, s)
    assert out.passed, out.message


@pytest.mark.parametrize("body, fact", [
    ("Meet at 10.00.", "10:00"),
    ("Meet at 8:00 AM.", "08:00"),
    ("Meet on Thu 15/01.", "2026-01-15"),
    ("Meet on 15 Jan.", "2026-01-15"),
    ("The fleet-tracking demo.", "fleet tracking"),
    ("Re PO 1234.", "PO-1234"),
    ("Re order 1234.", "PO-1234"),
    ("Five students passed.", 5),
    ("Revenue was $7,192 million.", "7.19 billion"),
    ("Organiser: Lin, Maya", "Maya Lin"),
    ("Team total - 151.5 hours", 151.5),
])
def test_ordinary_forms_are_accepted(body, fact):
    s = EvalState(answer=body, now=NOW)
    out = run_check("answer_contains", {"text": [fact]}, s)
    assert out.passed, out.message


def test_a_dash_after_a_label_is_not_a_minus():
    assert not run_check("answer_contains", {"text": [-151.5]}, EvalState(answer="Team total - 151.5 hours")).passed


def test_an_excluded_fact_set_aside_is_not_stated():
    s = state("Hi Dana, the review is on Friday 16 January rather than Wednesday 14 January, as you asked.",
              instruction="Move the review from Wednesday 14 January to Friday and tell Dana.")
    ok = run_check("email_sent", {"sender": ME, "to": DANA, "body_contains": ["2026-01-16"], "body_excludes": ["2026-01-14"]}, s)
    assert ok.passed, ok.message
    s = state("Hi Dana, the review is on Wednesday 14 January.", instruction="Move the review and tell Dana.")
    assert not run_check("email_sent", {"sender": ME, "to": DANA, "body_contains": [], "body_excludes": ["2026-01-14"]}, s).passed


def test_the_topic_may_stand_in_the_subject():
    out = run_check("email_sent", {"sender": ME, "to": DANA, "body_contains": ["trip"]},
                    state("Hi Dana, see the figures below.", subject="Trip expenses"))
    assert out.passed, out.message


def test_an_event_description_that_cancels_fails():
    cal = {"kind": "ics", "user": ME, "events": [{"summary": "Budget review", "start": "2026-01-15 10:00:00",
                                                  "end": "2026-01-15 11:00:00", "all_day": False, "location": None,
                                                  "description": "CANCELLED - do not attend", "attendees": []}]}
    gold_cal = {**cal, "events": [{**cal["events"][0], "description": "Quarterly budget"}]}
    s = EvalState(files={f"calendar/{ME}.ics": cal}, before={}, gold={f"calendar/{ME}.ics": gold_cal}, user=ME, now=NOW)
    out = run_check("event_contains", {"user": ME, "text": ["Budget review"], "start": "2026-01-15 10:00:00"}, s)
    assert not out.passed and "called off" in out.message


def test_answers_are_read_closed_world():
    s = EvalState(answer="4 students made progress; the other 5 did not.", now=NOW, gold_answer="4")
    assert not run_check("answer_contains", {"text": [4]}, s).passed
    assert run_check("answer_contains", {"text": [4]}, EvalState(answer="Four students made progress.", now=NOW)).passed


def _sheet(*cells) -> EvalState:
    return EvalState(files={"data/r.xlsx": {"kind": "xlsx", "sheet_order": ["S"], "sheets": {"S": [["Month", "Revenue"], list(cells)]}}})


@pytest.mark.parametrize("cell, ok", [(4690.99, True), ("4,690.99", False), ("$4690.99", False)])
def test_a_number_is_wanted_as_a_number(cell, ok):
    out = run_check("xlsx_cell", {"file": "data/r.xlsx", "cell": "B2", "value": 4690.99}, _sheet("2026-07", cell))
    assert out.passed is ok, out.message


@pytest.mark.parametrize("cell, ok", [("2026-07-27", True), ("2026-07-27T00:00:00", False), ("27/07/2026", False)])
def test_a_date_is_wanted_in_the_columns_format(cell, ok):
    out = run_check("xlsx_row", {"file": "data/r.xlsx", "row": 2, "values": ["2026-07-27", 5]}, _sheet(cell, 5))
    assert out.passed is ok, out.message


def test_paired_facts_are_bound_to_one_line():
    s = state("Hi Dana,\nBudget review: 10:00\nStandup: 11:00", instruction="Tell Dana: Budget review 10:00, Standup 11:00.")
    args = {"sender": ME, "to": DANA, "body_contains": ["Budget review", "10:00"], "lines": [["Budget review", "10:00"]]}
    assert run_check("email_sent", args, s).passed
    s = state("Hi Dana,\nBudget review: 11:00\nStandup: 10:00", instruction="Tell Dana: Budget review 10:00, Standup 11:00.")
    out = run_check("email_sent", args, s)
    assert not out.passed and "together" in out.message


def _docx(*paragraphs: str) -> dict:
    return {"kind": "docx", "paragraphs": list(paragraphs), "tables": []}


QUOTE = ["Quote Q-2291 for Northwind", "Desk chairs: 12 x 149.00", "Standing desks: 4 x 610.00", "Valid until 2026-02-15"]


@pytest.mark.parametrize("typed, ok", [
    (QUOTE, True),
    (["Quote Q-2291 for Northwind", "Desk chairs: 12 x 149.00", "Standing desks: 4 x 560.00", "Valid until 2026-02-15"], False),
    (QUOTE[:3] + ["Valid until 2026-03-15"], False),
])
def test_a_retyped_document_is_compared_by_content(typed, ok):
    from officesim.evaluators.outcome import side_effects
    before = {"data/quote.pdf": {"kind": "pdf", "pages": ["\n".join(QUOTE)]}}
    gold = {**before, "data/quote.docx": _docx(*QUOTE)}
    agent = {**before, "data/quote.docx": _docx(*typed)}
    assert (side_effects(before, agent, gold) == []) is ok


def test_a_line_the_gold_keeps_may_not_be_re_cased():
    from officesim.evaluators.outcome import side_effects
    before = {"data/m.docx": _docx("Minutes", "Keep these lines exactly as they are")}
    gold = {"data/m.docx": _docx("Minutes", "Keep these lines exactly as they are", "Approved")}
    agent = {"data/m.docx": _docx("MINUTES", "Keep these lines exactly as they are", "Approved")}
    assert side_effects(before, agent, gold)


def test_a_date_alone_does_not_bind_a_clause_to_another_event_of_that_day():
    standup = {"summary": "Team standup", "start": "2026-01-14 09:30:00", "end": "2026-01-14 09:45:00", "all_day": False,
               "location": None, "description": None, "attendees": []}
    cal = {"kind": "ics", "user": ME, "events": [standup]}
    before = {**BEFORE, f"calendar/{ME}.ics": cal}
    gold = {**before, f"emails/{ME}/sent/msg-1.eml": mail("Hi Dana,\nthe review is on Wednesday 14 January at 15:00.")}

    def graded(body: str) -> object:
        files = {**before, f"emails/{ME}/sent/msg-1.eml": mail(body)}
        s = EvalState(files=files, before=before, gold=gold, user=ME, now=NOW,
                      instruction="Book the review at 15:00 and mail Dana the date.")
        return run_check("email_sent", {"sender": ME, "to": DANA, "body_contains": ["2026-01-14", "15:00"]}, s)

    out = graded("Hi Dana,\nthe review is on Wednesday 14 January at 15:00 (09:45 by the other count).")
    assert not out.passed and "09:45" in out.message
    out = graded("Hi Dana,\nthe review is on Wednesday 14 January at 15:00, after the team standup (09:30-09:45).")
    assert out.passed, out.message


def test_todays_date_beside_the_expected_date_is_a_second_value():
    s = state("Hi Dana, the review is on Thursday 15 January (12 January 2026 by the other count).",
              instruction="Tell Dana the review is on 2026-01-15.")
    out = run_check("email_sent", {"sender": ME, "to": DANA, "body_contains": ["2026-01-15"]}, s)
    assert not out.passed and "12 January 2026" in out.message
    s = state("Hi Dana,\nas of today, 12 January 2026, the plan stands.\nThe review is on Thursday 15 January.",
              instruction="Tell Dana the review is on 2026-01-15.")
    out = run_check("email_sent", {"sender": ME, "to": DANA, "body_contains": ["2026-01-15"]}, s)
    assert out.passed, out.message


def test_a_fact_negated_in_the_body_fails_though_the_subject_states_it():
    s = state("Hi Dana, the review is not on Thursday 15 January.", subject="Review on Thursday 15 January",
              instruction="Tell Dana the review is on 2026-01-15.")
    out = run_check("email_sent", {"sender": ME, "to": DANA, "body_contains": ["2026-01-15"]}, s)
    assert not out.passed and "negation" in out.message


def _note(before: list[str], gold: list[str], written: list[str]) -> object:
    path = "data/note.docx"
    s = EvalState(files={path: _docx(*written)}, before={path: _docx(*before)}, gold={path: _docx(*gold)}, user=ME,
                  now=NOW, instruction="Add next week's meetings with their day to data/note.docx.")
    return run_check("contains", {"file": path, "text": ["Planning", "2026-01-20"]}, s)


def test_a_value_of_a_line_the_gold_kept_is_no_support_for_a_second_date():
    head = ["Handover, week of 19 January", "Meetings to cover:"]
    gold = head + ["Planning - Tuesday 20 January"]
    assert _note(head, gold, gold).passed
    out = _note(head, gold, head + ["Planning - Tuesday 20 January (19 January 2026 by the other count)"])
    assert not out.passed and "19 January 2026" in out.message


def test_a_kept_lines_value_restated_with_its_label_or_as_a_factor_is_supported():
    path = "data/quote.docx"
    before = _docx("We quote for 5 x Footrest.", "Unit price: [PRICE] EUR", "Total: [TOTAL] EUR")
    gold = _docx("We quote for 5 x Footrest.", "Unit price: 62 EUR", "Total: 310 EUR")

    def graded(*written: str) -> object:
        s = EvalState(files={path: _docx(*written)}, before={path: before}, gold={path: gold}, user=ME, now=NOW,
                      instruction="Fill in the unit price and the total of the quote.")
        return run_check("contains", {"file": path, "text": ["62", "310"]}, s)

    assert graded("We quote for 5 x Footrest.", "Unit price: EUR 62.00", "Total: EUR 310.00 (5 x 62)").passed
    assert graded("We quote for 5 x Footrest at 62 EUR each.", "Total: 310 EUR").passed
    out = graded("We quote for 5 x Footrest.", "Unit price: 62 EUR", "Total: 310 EUR (5 by the other count)")
    assert not out.passed and "'5'" in out.message


def test_a_name_ending_a_line_and_a_date_opening_the_next_are_no_identifier():
    from officesim.evaluators.claims import claims_in

    text = "- 2026-11-01: CTR-2391, expires 2026-12-31, owner Stefan Lovell\n- 2026-12-02: CTR-2426, owner Mei Chen"
    ids = [c.value for c in claims_in(text, year=2026) if c.kind == "id"]
    assert ids == ["CTR2391", "CTR2426"]
    dates = [c.value.isoformat() for c in claims_in(text, year=2026) if c.kind == "date"]
    assert "2026-12-02" in dates


def test_values_after_a_label_are_the_labels_row():
    """"Taxi: 1500" restates the taxi's row; "1500" beside the expected total, with no label, is a second value."""
    ok = sent("Hi Dana,\nthe trip total without the hotel is 4,690.99.\nTaxi: 1,500; Flight: 3,190.99", ["4,690.99"])
    assert ok.passed, ok.message
    bad = sent("Hi Dana,\nthe trip total without the hotel is 4,690.99.\nTotal: 4,690.99 (1,500)", ["4,690.99"])
    assert not bad.passed and "1,500" in bad.message


def test_a_greeting_to_a_group_names_nobody():
    """"Hi all" greets the recipients, even where the office has a list called "All Staff"."""
    from officesim.evaluators.claims import Directory, greeting_problem

    d = Directory()
    d.add("all@northwind.test", "All Staff")
    d.add(DANA)
    d.add(OMAR)
    assert greeting_problem("Hi all,\nthe rota is below.", [DANA, OMAR], d) is None
    assert greeting_problem("Dear team, the rota is below.", [DANA, OMAR], d) is None
    assert greeting_problem("Hi Omar,\nthe rota is below.", [DANA], d) is not None


def test_every_person_a_greeting_names_is_a_recipient():
    """"Hi Dana and Omar" to Dana alone greets someone it does not go to; a name later on the line is
    not greeted ("Hi Dana, Omar asked me...")."""
    from officesim.evaluators.claims import Directory, greeting_problem

    d = Directory()
    d.add(DANA)
    d.add(OMAR)
    assert greeting_problem("Hi Dana and Omar,\nthe rota is below.", [DANA, OMAR], d) is None
    assert greeting_problem("Hi Dana and Omar,\nthe rota is below.", [DANA], d) is not None
    assert greeting_problem("Hi Dana, Omar asked me to send the rota.", [DANA], d) is None


def test_the_writers_absence_does_not_negate_the_meeting():
    """"I can't make our meeting at 14:00, could you rebook it" states the meeting and its time; "the
    meeting at 14:00 is not happening" negates them."""
    ok = sent("Hi Dana,\nI'm on leave, so I can't make our budget review on 14 January at 14:00. Could you "
              "rebook it with Omar?", ["budget review", "14:00"])
    assert ok.passed, ok.message
    bad = sent("Hi Dana,\nour budget review on 14 January at 14:00 will not take place.", ["budget review", "14:00"])
    assert not bad.passed and "negation" in bad.message


def test_an_excluded_fact_said_as_what_it_is_is_set_aside():
    """A mail listing the unapproved orders may say which others are approved; it may not list an
    approved one among the unapproved, or call it anything but approved."""
    def graded(body: str) -> object:
        s = state(body, instruction="Mail Dana which of PO-4505 and PO-4551 have no approval.")
        return run_check("email_sent", {"sender": ME, "to": DANA, "body_contains": ["PO-4505"],
                                        "body_excludes": ["PO-4551"], "excludes_unless": ["approved", "approval"]}, s)

    ok = graded("Hi Dana,\nI found no approval for PO-4505.\nThe other large order, PO-4551, has your approval.")
    assert ok.passed, ok.message
    for body in ["Hi Dana,\nI found no approval for PO-4505 or PO-4551.",
                 "Hi Dana,\nI found no approval for PO-4505.\nPO-4551 is still awaiting approval.",
                 "Hi Dana,\nI found no approval for PO-4505.\nPO-4551 too."]:
        bad = graded(body)
        assert not bad.passed and "PO-4551" in bad.message, body


def test_an_excluded_look_alike_reported_as_not_held_is_set_aside():
    """A mail listing the held duplicates may say the look-alike was checked and not held; it may not
    list it among them, nor deny something else beside it."""
    def graded(body: str) -> object:
        s = state(body, instruction="Of TF-2611-0393 and YE-2611-0396, hold the duplicates and mail Dana the list.")
        return run_check("email_sent", {"sender": ME, "to": DANA, "body_contains": ["TF-2611-0393"],
                                        "body_excludes": ["YE-2611-0396"],
                                        "excludes_denied": ["held", "hold", "duplicate", "a duplicate"]}, s)

    for body in ["Hi Dana,\nI held TF-2611-0393.\nYE-2611-0396 has the same amount but another order, so I haven't "
                 "held it.",
                 "Hi Dana,\nI held TF-2611-0393.\nYE-2611-0396 is not a duplicate."]:
        ok = graded(body)
        assert ok.passed, (body, ok.message)
    for body in ["Hi Dana,\nI held TF-2611-0393 and YE-2611-0396.",
                 "Hi Dana,\nI held TF-2611-0393.\nYE-2611-0396 was also billed twice, so I held it too."]:
        bad = graded(body)
        assert not bad.passed and "YE-2611-0396" in bad.message, body


def test_a_search_that_found_nothing_does_not_negate_the_item():
    """"I could not find your approval for PO-4505" reports PO-4505; "PO-4505 was not ordered" negates it."""
    s = state("Hi Dana,\nI could not find your approval for PO-4505.", instruction="Mail Dana the orders without approval.")
    ok = run_check("email_sent", {"sender": ME, "to": DANA, "body_contains": ["PO-4505"]}, s)
    assert ok.passed, ok.message
    s = state("Hi Dana,\nPO-4505 was not ordered.", instruction="Mail Dana the orders without approval.")
    bad = run_check("email_sent", {"sender": ME, "to": DANA, "body_contains": ["PO-4505"]}, s)
    assert not bad.passed and "negation" in bad.message


def test_a_group_stated_over_lines_with_nothing_between_is_bound():
    """One order's number and date, and its quantity and product, may stand on lines of their own; a
    time with another event's time between it and its event may not."""
    from officesim.evaluators.facts import unbound

    order = "Order number: SO-71029\nOrder date: 1 May 2026\nProduct: Desk Lamp\nQuantity: 3\nTotal: £117.00"
    assert unbound(order, [["SO-71029", "2026-05-01"], [3, "Desk Lamp"]], year=2026) == []
    assert unbound("Ref CTR-2321\nnotice by 2026-12-02", [["CTR-2321", "2026-12-02"]], year=2026) == []
    swapped = "Sleeping\n12:00\nLunch\n8:00"
    assert ["sleeping", "08:00"] in unbound(swapped, [["sleeping", "08:00"], ["lunch", "12:00"]], year=2026)
    assert unbound("Sleeping\n8:00\nLunch\n12:00", [["sleeping", "08:00"], ["lunch", "12:00"]], year=2026) == []
    assert unbound("Budget review:\n11:00\nStandup: 10:00", [["Budget review", "10:00"]], year=2026) == [["Budget review", "10:00"]]
    assert unbound("Quantity: 3 (order total £117.00)\nProduct: Desk Lamp", [[3, "Desk Lamp"]], year=2026) == [[3, "Desk Lamp"]]
    # a value of the group found on the line above, beside another item, is that item's, not this one's
    listing = ("- Kite Field Sports: review Thursday 29 October 2026 at 14:00\n"
               "- Oakmere Libraries: review Friday 6 November 2026 at 15:00")
    groups = [["Kite Field Sports", "2026-10-29", "14:00"], ["Oakmere Libraries", "2026-11-06", "14:00"]]
    assert unbound(listing, groups, year=2026) == [groups[1]]
    # a subject naming the order above the details does not pull the stretch up to it
    assert unbound(f"Re: Question about order SO-71029\nHello Bruno,\n\n{order}", [["SO-71029", "2026-05-01"]],
                   year=2026) == []
    assert unbound(f"Re: SO-71029\nOrder number: SO-71029\nOrder number: SO-70000\nOrder date: 1 May 2026",
                   [["SO-71029", "2026-05-01"]], year=2026) == [["SO-71029", "2026-05-01"]]


def test_a_negation_in_an_opening_reason_or_of_what_the_gold_leaves_out_denies_nothing_expected():
    from officesim.evaluators.claims import polarity_problems

    assert polarity_problems("As that invoice has not been paid yet, we will deduct £33.17 when we next pay you.",
                             ["£33.17"], [], year=2026) == []
    assert polarity_problems("We will not deduct £33.17 from your next payment.", ["£33.17"], [], year=2026) != []
    gold = "Payment run ready. I left out invoice INV-2041 from Yarrow Energy: its PDF disagrees."
    assert polarity_problems("I didn't include INV-2041 from Yarrow Energy.", ["INV-2041"], [gold], year=2026) == []
    assert polarity_problems("I didn't include INV-2041 from Yarrow Energy.", ["INV-2041"],
                             ["Payment run ready, with INV-2041 from Yarrow Energy."], year=2026) != []


def test_a_report_of_what_was_not_done_to_someone_names_them():
    """"I did not send Beacon Hill Schools a letter" reports on Beacon Hill Schools; "not Dana" denies her."""
    from officesim.evaluators.claims import polarity_problems

    assert polarity_problems("I did NOT send a letter to Beacon Hill Schools: their prices stay.",
                             ["Beacon Hill Schools"], [], year=2026) == []
    assert polarity_problems("I haven't changed Ada's number; I've asked Ada to confirm it.", ["Ada"], [], year=2026) == []
    assert polarity_problems("The letter goes to the school, not Beacon Hill Schools.", ["Beacon Hill Schools"], [],
                             year=2026) != []
    assert polarity_problems("Please do not pay INV-2041.", ["INV-2041"], [], year=2026) != []
    assert polarity_problems("The review is no longer on 13 May.", ["13 May"], [], year=2026) != []
    # the office negating the same date about something else does not make the agent's negation true
    office = "amara jensen annual leave 2026-11-16 to 2026-11-20 withdrawn\nthe 13 may review is no longer on."
    assert polarity_problems("Keiko Kovac joins us on not Monday 16 November 2026.", ["2026-11-16"], [],
                             year=2026, office=office) != []
    assert polarity_problems("The review is no longer on 13 May.", ["13 May"], [], year=2026, office=office) == []


def test_a_name_before_a_colon_and_a_year_is_no_identifier():
    from officesim.evaluators.claims import claims_in

    ids = [c.text for c in claims_in("CTR-2391 Quayside Print Works: 2026 invoicing", year=2026, kinds=("id",))]
    assert ids == ["CTR-2391"]
    assert [c.text for c in claims_in("PO: 1234 arrived", year=2026, kinds=("id",))] == ["PO: 1234"]


def test_one_days_schedule_may_give_the_date_once():
    from officesim.evaluators.facts import unbound

    groups = [["Noor Tanaka", "2026-11-23 09:30"], ["Omar Li", "2026-11-23 11:00"]]
    text = "Your first day is Monday 23 November 2026:\n- 09:30 Noor Tanaka\n- 11:00 Omar Li"
    assert unbound(text, groups, year=2026) == []
    swapped = "Your first day is Monday 23 November 2026:\n- 11:00 Noor Tanaka\n- 09:30 Omar Li"
    assert unbound(swapped, groups, year=2026) == groups
    two_days = "On 23 and 24 November 2026:\n- 09:30 Noor Tanaka\n- 11:00 Omar Li"
    assert unbound(two_days, groups, year=2026) == groups


def test_a_mail_the_office_already_held_is_not_one_the_agent_sent():
    old = mail("Hi Dana,\nthe trip total without the hotel is 4,690.99.\nMaya", mid="msg-0")
    before = {**BEFORE, f"emails/{ME}/sent/msg-0.eml": old}
    s = EvalState(files=dict(before), before=before, gold=before, user=ME, now=NOW, instruction="Mail Dana the total.")
    out = run_check("email_sent", {"sender": ME, "to": DANA, "body_contains": ["4,690.99"]}, s)
    assert not out.passed and "sent no messages" in out.message
    assert run_check("email_not_sent", {"sender": ME, "to": DANA}, s).passed


def test_a_heading_far_above_does_not_bind_a_line():
    from officesim.evaluators.facts import unbound

    groups = [["Safety walk", "2026-07-20"], ["Launch rehearsal", "2026-07-21"]]
    doc = "Handover, week of 20 July\nCovering: Lena\nSafety walk - Tuesday 21 July\nLaunch rehearsal - Monday 20 July"
    assert ["Safety walk", "2026-07-20"] in unbound(doc, groups, year=2026)


def test_a_time_before_a_colon_is_a_time():
    from officesim.evaluators.facts import states

    assert states("- Monday 23 November 2026 at 09:30: Noor Tanaka", "2026-11-23 09:30", year=2026)
    assert not states("09:30:45 and 10:15", "09:31", year=2026)


def test_a_value_the_gold_writes_elsewhere_is_no_second_answer():
    """The gold's table of revenues holds 2015's $4,611,210; beside the expected highest revenue it is a
    hedge, alone in a clause it is true; the hours and rate the gold books may explain the amount due."""
    from officesim.evaluators.claims import Claim, _elsewhere_value, claims_in, text_sources

    table = text_sources(["Year\tRevenue\n2014\t4983791\n2015\t4611210"], 2021)
    def claim(text, written):
        return next(c for c in claims_in(text, year=2021, kinds=("number",)) if c.text == written)
    hedge = "Revenues were highest in 2014, at $4,983,791, or $4,611,210."
    assert not _elsewhere_value(claim(hedge, "$4,611,210"), hedge, table, ["4983791"], 2021)
    alone = "The year after, revenues were $4,611,210."
    assert _elsewhere_value(claim(alone, "$4,611,210"), alone, table, ["4983791"], 2021)
    booked = text_sources(["2026-05-25\t3.25\t110\t357.5"], 2026)
    worked = "The amount due is $357.50 (3.25 h at 110/h)."
    assert _elsewhere_value(claim(worked, "3.25"), worked, booked, ["357.5"], 2026)
    assert isinstance(claim(worked, "110"), Claim)


def test_a_tables_numbering_is_layout_not_a_figure():
    from officesim.evaluators.claims import _without_ranks

    ranked = "Sheet1\nRank\tName\tmidterm1\n1\tAlice\t78\n2\tLiam\t74\n3\tJack\t71"
    assert _without_ranks(ranked) == "Sheet1\nRank\tName\tmidterm1\n \tAlice\t78\n \tLiam\t74\n \tJack\t71"
    quantities = "3\tDesk Lamp\n5\tChair\n1\tDesk"  # not a count down the table: figures, read as such
    assert _without_ranks(quantities) == quantities


def test_a_fact_only_a_line_group_names_is_read_for_negation_and_hedging():
    # the list mail's body_contains names the items; their figures are only in `lines`
    args = {"sender": ME, "to": DANA, "body_contains": ["Flight"], "lines": [["Flight", "3190.99"]]}
    s = state("Hi Dana,\nFlight: 3,190.99\n", instruction="Tell Dana what the flight cost.")
    assert run_check("email_sent", args, s).passed
    for body in ("Hi Dana,\nFlight: not 3,190.99\n", "Hi Dana,\nFlight: 3,190.99, or 1,500\n"):
        out = run_check("email_sent", args, state(body, instruction="Tell Dana what the flight cost."))
        assert not out.passed, (body, out.message)


def test_a_text_written_twice_over_is_not_a_text_written_once():
    from officesim.evaluators.claims import doubled

    memo = "Q3 review\nCC-410: spent 88,654.97 against 84,000.00"
    assert doubled(f"{memo}\n{memo}\n") == "Q3 review" and doubled(memo) is None
    assert doubled("Thanks\nThanks") is None  # states no figure
    # the same slot on two days, each under its own heading, is a varied text
    assert doubled("Monday\n09:00 Standup\nTuesday\n09:00 Standup") is None
    out = sent(f"{GOLD_BODY}\n{GOLD_BODY}", ["4690.99"])
    assert not out.passed and "twice" in out.message, out.message


def test_an_item_given_a_second_identifier_on_another_line_fails():
    s = state("Hi Dana,\n- Flight: booking BK-1042\n", instruction="Tell Dana the flight's booking.")
    args = {"sender": ME, "to": DANA, "body_contains": ["Flight"], "lines": [["Flight", "BK-1042"]]}
    assert run_check("email_sent", args, s).passed
    s = state("Hi Dana,\n- Flight: booking BK-1042\n- Flight: booking BK-0917\n", instruction="Tell Dana the flight's booking.")
    out = run_check("email_sent", args, s)
    assert not out.passed and "answered twice" in out.message, out.message


def claim_at(kind: str, value: str, written: str, text: str):
    """A claim of ``text`` at the first place it writes ``written``."""
    from officesim.evaluators.claims import Claim

    at = text.index(written)
    return Claim(kind, value, written, start=at, end=at + len(written))


# ---- values beside the expected facts, hedges between true values, items answered twice ----------------
ORDERS = {"kind": "xlsx", "sheet_order": ["Orders"], "sheets": {"Orders": [
    ["PO", "Supplier", "Amount", "Ordered"], ["PO-4505", "Elmstead Uniforms", 10382.84, "2026-07-11"],
    ["PO-4592", "Yarrow Energy", 10558.4, "2026-09-16"], ["PO-4601", "Birchwood Stationers", 9969.37, "2026-09-17"],
    ["PO-4388", "Umber Freight", 996.72, "2026-01-10"]]}}
ORDERS_GOLD = ("Hi Dana,\nI found no approval for these orders over £10,000.00:\n"
               "- PO-4505, Elmstead Uniforms, £10,382.84, ordered 11 July 2026\n"
               "- PO-4592, Yarrow Energy, £10,558.40, ordered 16 September 2026\nThe 2 orders total £20,941.24.\nMaya")


def orders_state(body: str, gold: str = ORDERS_GOLD) -> EvalState:
    before = {"data/orders.xlsx": ORDERS}
    return EvalState(files={**before, f"emails/{ME}/sent/msg-1.eml": mail(body)}, before=before,
                     gold={**before, f"emails/{ME}/sent/msg-1.eml": mail(gold)}, user=ME, user_name="Maya Lin",
                     now=datetime(2026, 10, 19, 9), instruction="Mail Dana the large orders without approval.")


ORDERS_CHECK = {"sender": ME, "to": DANA, "body_contains": ["PO-4505", "PO-4592"]}


@pytest.mark.parametrize("body", [
    ORDERS_GOLD,
    "Dana, no approval found for PO-4505 and PO-4592.",  # the amounts need not be stated at all
    "Dana,\nPO-4505 (Elmstead Uniforms, 10,382.84 GBP, ordered 11 July) and PO-4592 (Yarrow Energy, "
    "£10,558.40) have no approval; together £20,941.24.",
    "Dana,\n- PO-4505: £10,382.84, £382.84 over the £10,000 limit\n- PO-4592: ordered 16 Sep 2026\nReply by 23 October?",
])
def test_true_values_beside_the_expected_ones_pass(body):
    out = run_check("email_sent", ORDERS_CHECK, orders_state(body))
    assert out.passed, out.message


@pytest.mark.parametrize("wrong", [
    ("£10,382.84", "£10,382.85"),  # no such amount
    ("£10,382.84", "-£10,382.84"),
    ("£10,000.00", "£9,969.37"),  # another order's amount where the policy's limit stands
    ("16 September 2026", "17 September 2026"),  # another order's date beside PO-4592
    ("The 2 orders", "The 3 orders"),  # a count where the gold states another
])
def test_a_false_value_beside_the_expected_ones_fails(wrong):
    out = run_check("email_sent", ORDERS_CHECK, orders_state(ORDERS_GOLD.replace(*wrong)))
    assert not out.passed, out.message


@pytest.mark.parametrize("said", [
    "16 December 2026, or 14 December 2026",
    "between 16 December 2026 and 14 December 2026",
    "14 December 2026, correction, 16 December 2026",
    "16 December 2026 (14 December 2026 by the other count)",
])
def test_a_hedge_with_a_value_the_office_holds_fails(said):
    from officesim.evaluators.claims import hedge_problems

    assert hedge_problems(f"The team is full on {said}.", ["2026-12-16"], year=2026)
    assert not hedge_problems("The team is full on 16 December 2026.", ["2026-12-16"], year=2026)
    # a range that runs forward, or two expected values, is no hedge
    assert not hedge_problems("Away between 14 December 2026 and 16 December 2026.", ["2026-12-16"], year=2026)
    assert not hedge_problems("Full on 16 December 2026 or 17 December 2026.", ["2026-12-16", "2026-12-17"], year=2026)


def test_an_identifiers_facts_given_to_another_identifier_fail():
    from officesim.evaluators.facts import rebound

    groups = [["PO-4789", "2026-11-11", "2026-11-13"], ["PO-4784", "2026-11-05", "2026-11-08"]]
    right = "- PO-4789: promised 11 November 2026, delivered 13 November 2026\n- PO-4784: 5 Nov 2026 / 8 Nov 2026"
    assert rebound(right, groups, year=2026) == []
    wrong = right + "\n- PO-4388 (freight): promised 11 November 2026, delivered 13 November 2026"
    assert [g[0] for g, _line in rebound(wrong, groups, year=2026)] == ["PO-4789"]


def test_a_day_given_a_second_person_fails():
    from officesim.evaluators.facts import rebound

    names = {"Mira Iyer": "mira", "Rosa Tanaka": "rosa", "Rafael Lindqvist": "rafael"}

    def people(text: str) -> set[str]:
        return {a for n, a in names.items() if n in text}

    groups = [["2026-12-07", "Rafael Lindqvist"], ["2026-12-14", "Mira Iyer"]]
    right = "- Monday 7 December 2026: Rafael Lindqvist\n- Monday 14 December 2026: Mira Iyer\nI'm back on 14 December 2026."
    assert rebound(right, groups, year=2026, people=people) == []
    wrong = right + "\n- Monday 14 December 2026: Rosa Tanaka"
    assert [g[0] for g, _line in rebound(wrong, groups, year=2026, people=people)] == ["2026-12-14"]


def test_a_second_verb_negated_does_not_deny_the_item():
    from officesim.evaluators.claims import polarity_problems

    said = "Invoice BS-2608-0375 repeats BS-2608-0290, so we have placed BS-2608-0375 on hold and will not pay it."
    assert polarity_problems(said, ["BS-2608-0375"], ["Please cancel BS-2608-0375."], year=2026) == []
    assert polarity_problems("We will not pay BS-2608-0375.", ["BS-2608-0375"], ["Please cancel BS-2608-0375."],
                             year=2026)


def test_a_count_of_something_the_gold_does_not_count_is_the_agents_own():
    body = "Dana,\nI went through 39 payments: PO-4505 and PO-4592 have no approval."
    assert run_check("email_sent", ORDERS_CHECK, orders_state(body)).passed
    # the gold counts orders: a count of orders must be its count
    assert not run_check("email_sent", ORDERS_CHECK, orders_state(ORDERS_GOLD.replace("The 2 orders", "The 3 orders"))).passed


def test_a_phone_number_is_one_claim_the_office_may_list():
    from officesim.evaluators.claims import claims_in, hedge_problems

    said = "Your number is now +44 7700 900215, replacing the old 020 7946 5829."
    found = [(c.kind, c.value) for c in claims_in(said, year=2026)]
    assert found == [("phone", "700900215"), ("phone", "079465829")], found  # no amounts 7700, 5829
    assert hedge_problems("Your number is +44 7700 900215, or +44 7700 900629.", ["+44 7700 900215"], year=2026)
    assert not hedge_problems(said, ["+44 7700 900215"], year=2026)


def test_a_window_end_and_an_aside_are_context():
    from officesim.evaluators.claims import Claim, _aside_of, _window_end

    now = datetime(2026, 12, 7, 9)
    end = Claim("date", datetime(2027, 6, 5).date(), "2027-06-05")
    assert _window_end(end, now, "deadlines between today and 180 days from today")
    assert not _window_end(end, now, "deadlines in the next 90 days")
    said = "Keiko: Amara Jensen (Omar Nair has approved leave that week)"
    omar = claim_at("person", "omar", "Omar Nair", said)
    assert _aside_of(omar, said) == "Omar Nair has approved leave that week"
    hedge = "Keiko: Amara Jensen (Omar Nair by the other count)"
    assert _aside_of(claim_at("person", "omar", "Omar Nair", hedge), hedge) is None


def test_a_named_list_item_with_values_is_an_item_not_context():
    from officesim.evaluators.claims import _named_apart

    expected = ["Wren House Hostels", "2026-11-02", "11:30"]
    names = "ivy lane bakeries wren house hostels northgate bank"
    extra = "- Wren House Hostels: review Monday 2 November 2026 at 11:30\n- Ivy Lane Bakeries: review Monday 9 November 2026 at 11:30"
    ivy = claim_at("org", "ivylanebakeries", "Ivy Lane Bakeries", extra)
    assert not _named_apart(ivy, extra, names, expected, 2026)
    remark = "I reconciled the Northgate Bank statement against the ledger."
    bank = claim_at("org", "northgatebank", "Northgate Bank", remark)
    assert _named_apart(bank, remark, names, expected, 2026)


def test_a_figure_given_as_a_range_is_a_hedge():
    from officesim.evaluators.claims import hedge_problems

    assert hedge_problems("Spent between £55,403.72 and £57,500.00 this quarter.", ["55403.72"], year=2026)
    assert not hedge_problems("Spent £55,403.72 against a budget of £57,500.00.", ["55403.72"], year=2026)


def test_a_line_with_an_items_values_is_an_item_without_a_list_mark():
    from officesim.evaluators.claims import _named_apart

    expected = ["SO-71029", "2026-10-15"]
    log = "2026-10-15 — Wren House Hostels — SO-71029\n2026-10-17 — Vantage Security — SO-71732"
    vantage = claim_at("org", "vantagesecurity", "Vantage Security", log)
    assert not _named_apart(vantage, log, "vantage security wren house hostels", expected, 2026)


def test_a_list_line_pairing_a_name_with_an_expected_one_is_an_item():
    from officesim.evaluators.claims import _named_apart

    expected = ["Chloe Osei", "Nina Lund"]
    said = "- Chloe Osei: Nina Lund\n- Anton Hart: Nina Lund"
    anton = claim_at("person", "anton", "Anton Hart", said)
    assert not _named_apart(anton, said, "anton hart chloe osei nina lund", expected, 2026)


# ---- remarks about other items: the pair, the identifier's row, the decision --------------------------
def test_a_remark_tying_two_people_needs_one_place_naming_both():
    from officesim.evaluators.claims import Directory, _named_apart, office_sources

    d = Directory()
    for name in ("Omar Nair", "Mei Ito", "Anton Hart", "Teo Lund"):
        d.add(name.lower().replace(" ", ".") + "@fernhill.test", name)
    office = {"staff.xlsx": {"kind": "xlsx", "sheets": {"Staff": [
        ["Name", "Manager", "Phone"], ["Mei Ito", "Anton Hart", "+44 20 7946 2920"],
        ["Omar Nair", "Hugo Greco", "+44 20 7946 8095"]]}}}
    sources = office_sources(office, 2026)
    names = "omar nair mei ito anton hart teo lund"
    expected = ["Grace Rossi", "Clara Chen"]
    false = "Also, Omar Nair will look after Mei Ito from Monday."
    omar = claim_at("person", "omar.nair@fernhill.test", "Omar Nair", false)
    assert not _named_apart(omar, false, names, expected, 2026, directory=d, sources=sources)
    true = "Also, Anton Hart is Mei Ito's manager."
    anton = claim_at("person", "anton.hart@fernhill.test", "Anton Hart", true)
    assert _named_apart(anton, true, names, expected, 2026, directory=d, sources=sources)
    listed = "Omar Nair and Mei Ito were copied."  # a list of names ties nobody to anybody
    assert _named_apart(claim_at("person", "omar.nair@fernhill.test", "Omar Nair", listed), listed, names,
                        expected, 2026, directory=d, sources=sources)


def test_a_value_beside_another_items_identifier_must_be_that_items():
    from officesim.evaluators.claims import Support, office_sources, stray_claims

    office = {"orders.xlsx": {"kind": "xlsx", "sheets": {"Orders": [
        ["Order", "Order date", "Total"], ["SO-70454", "2026-01-22", "1260.00"],
        ["SO-70999", "2026-02-03", "90.00"]]}}}
    sources = office_sources(office, 2026)
    support = Support(expected=["SO-71029", "2026-05-01"], texts=["Answer the order questions.",
                      "Your order SO-71029 of 1 May 2026: £117.00."])
    base = "Your order SO-71029 of 1 May 2026: £117.00.\n"
    wrong = base + "Your other order SO-70454 of 3 February 2026 has shipped."
    assert [c.text for c in stray_claims(wrong, support, year=2026, now=None, directory=None, sources=sources,
                                         names=(support.texts[0] + " so-70454 so-70999").casefold())] == ["3 February 2026"]
    right = base + "Your other order SO-70454 of 22 January 2026 has shipped."
    assert not stray_claims(right, support, year=2026, now=None, directory=None, sources=sources)


def test_a_remark_may_not_change_a_decision_the_work_makes():
    from officesim.evaluators.claims import decided_items, decision_problems

    gold = decided_items(["I've partly approved EXP-1079: £480.00.", "Your claim EXP-1078 is approved in full.",
                          "Your invoice BS-0375 repeats your invoice BS-0290. We have put BS-0375 on hold."], 2026)
    assert decision_problems("Clara's EXP-1079 was approved in full as well.", gold, year=2026)
    assert not decision_problems("Your other claim, EXP-1078, is approved too.", gold, year=2026)
    assert not decision_problems("EXP-1078 is not the one I rejected.", gold, year=2026)  # negation: polarity's
    assert not decision_problems("EXP-1079 was partly approved, and EXP-1078 approved in full.", gold, year=2026)
    assert not decision_problems("BS-0290, which we paid, stands.", gold, year=2026)  # the gold holds BS-0375
    assert decision_problems("BS-0375 is paid.", gold, year=2026)
    assert decision_problems("BS-0290 is also on hold.", gold, year=2026)  # named by the work, never held
    paid = decided_items(["We paid invoice SC-2608-0287 on 12 September.", "I've approved EXP-2001."], 2026)
    assert not decision_problems("We paid invoice SC-2608-0287 (£2,315.18) in full on 12 September.", paid, year=2026)
    assert not decision_problems("EXP-2001 is approved in full.", paid, year=2026)  # the whole of it: no other decision
    partly = decided_items(["I've partly approved EXP-2001."], 2026)
    assert decision_problems("EXP-2001 is approved in full.", partly, year=2026)


def test_a_value_in_a_clause_about_another_item_is_bound_to_its_rows():
    from officesim.evaluators.claims import Support, office_sources, stray_claims

    office = {"contracts.xlsx": {"kind": "xlsx", "sheets": {"Contracts": [
        ["Contract", "Supplier", "Expires"], ["CTR-2426", "Poppyfield Nurseries", "2027-02-28"],
        ["CTR-2314", "Umber Freight", "2027-01-31"]]}}}
    sources = office_sources(office, 2026)
    support = Support(expected=["CTR-2426", "2027-02-28"], texts=["Remind the owners.",
                      "CTR-2426: expires 28 February 2027."])
    base = "CTR-2426: expires 28 February 2027.\n"
    wrong = base + "CTR-2314 with Umber Freight expires 28 February 2027."  # the answer's date on another row
    def dates(text: str) -> list[str]:
        return [c.text for c in stray_claims(text, support, year=2026, now=None, directory=None, sources=sources)
                if c.kind == "date"]

    assert dates(wrong) == ["28 February 2027"]
    assert dates(base + "CTR-2314 with Umber Freight expires 31 January 2027.") == []


def test_a_reason_that_is_itself_a_negation_is_not_denied():
    from officesim.evaluators.claims import polarity_problems

    held = ["RI-0376", ["held", "hold"], ["not been delivered", "still open"]]
    said = "RI-0376 is held. Reason: PO-4646 has not been delivered yet (it is still open)."
    assert not polarity_problems(said, held, [], year=2026)
    bank = ["PC-0377", ["held", "hold"], ["bank"]]
    aside = ("PC-0377 is held. Please confirm the new bank details by phone, on the number we already hold "
             "(not any number given in the notice).")
    assert not polarity_problems(aside, bank, [], year=2026)  # the aside's "not" is its own
    assert polarity_problems("PC-0377 is held. The bank details have not changed.", bank, [], year=2026)


def test_the_day_a_mail_came_in_supports_a_date():
    from officesim.evaluators.claims import Support, office_sources, stray_claims

    office = {"m.eml": {"kind": "eml", "from": "ingrid@pinecrestcatering.test", "subject": "Change of bank details",
                        "date": "2026-09-28 11:05:00", "body": "Our bank account has changed."}}
    support = Support(expected=["PC-0377", ["bank"]], texts=["Deal with the requests.", "PC-0377 is held."])
    said = "PC-0377 is held. Reason: Pinecrest told us of a change of bank details on {} 2026."
    def strays(day: str) -> list[str]:
        return [c.text for c in stray_claims(said.format(day), support, year=2026, now=None, directory=None,
                                             sources=office_sources(office, 2026)) if c.kind == "date"]
    assert strays("28 September") == []
    assert strays("29 September") == ["29 September 2026"]


def test_worked_values_of_a_refund_are_supported():
    from officesim.evaluators.claims import Support, _days_from, office_sources, polarity_problems, stray_claims

    office = {"orders.xlsx": {"kind": "xlsx", "sheets": {"Orders": [
        ["Order", "Date", "Customer", "Product", "Qty", "Unit price"],
        ["SO-71910", "2026-09-23", "Dovetail Joinery", "Standing Desk", 20, 520.0]]}},
              "ask.eml": {"kind": "eml", "subject": "Return request SO-71910", "date": "2026-10-13 10:27:00",
                          "body": "We need to return 2 of the Standing Desk units from order SO-71910."}}
    sources = office_sources(office, 2026)
    support = Support(expected=[], texts=["Handle the returns.", "A return for you: 2 x Standing Desk from SO-71910, "
                                          "£1,040.00."])
    row = "Order: SO-71910, dated 23 September 2026 (20 x Standing Desk at £520.00)"
    assert not [c.text for c in stray_claims(row, support, year=2026, now=None, directory=None, sources=sources)
                if c.text.strip() == "20"]  # the row's quantity, not a second count of the return
    refund = Support(expected=["SO-71910", "£1,040.00"], texts=["Handle the returns.", "Your return of 2 x Standing "
                                                                "Desk from SO-71910 is approved: £1,040.00."])
    said = "The refund for SO-71910 is £1,040.00 (2 x £520.00)."
    assert not stray_claims(said, refund, year=2026, now=None, directory=None, sources=sources)
    end = "Order SO-71910 was placed on 16 October 2026, so the 30-day period ended on 15 November 2026."
    late = claim_at("date", None, "15 November 2026", end)
    late = type(late)("date", datetime(2026, 11, 15).date(), late.text, start=late.start, end=late.end)
    assert _days_from(late, end, 2026)
    assert not polarity_problems("We could not match order SO-71993 to your account.", ["SO-71993"], [], year=2026)


def test_a_list_lines_head_binds_its_values_to_that_item():
    from officesim.evaluators.claims import Support, office_sources, stray_claims

    office = {"invoices.xlsx": {"kind": "xlsx", "sheets": {"Invoices": [
        ["Invoice", "Supplier", "Amount", "Due"], ["DF-2605-0175", "Driftwood", 1387.62, "2026-07-21"],
        ["UF-2601-0001", "Umber Freight", 4635.70, "2026-02-10"]]}}}
    sources = office_sources(office, 2026)
    base = "Overdue invoices:\n- DF-2605-0175: £1,387.62, due 21 July 2026\n"
    support = Support(expected=["DF-2605-0175", "£1,387.62", "2026-07-21"], texts=["Prepare the agenda.", base])

    def dates(text: str) -> list[str]:
        return [c.text for c in stray_claims(text, support, year=2026, now=None, directory=None, sources=sources)
                if c.kind == "date"]

    # the neighbour's due date written beside another invoice is not that invoice's
    assert dates(base + "- UF-2601-0001: £4,635.70, due 21 July 2026\n") == ["21 July 2026"]
    assert dates(base) == []


def test_a_reference_nobody_wrote_is_invented():
    from officesim.evaluators.claims import invented_ids, known_ids

    known = known_ids("Contracts: CTR-2426 (Poppyfield), CTR-2314. Order PO-4628.")
    said = "Your agreement AGR-2041 and CTR-2426 stand; PO-9999 is new. We are ISO 9001 certified for FY2026."
    assert [c.text for c in invented_ids(said, known, 2026)] == ["AGR-2041", "PO-9999"]
    assert invented_ids("CTR-2314 and PO-4628 are unchanged.", known, 2026) == []


def test_names_side_by_side_in_their_own_statements_are_not_tied():
    from officesim.evaluators.claims import _related_people, build_directory, claims_in

    people = {"Bjorn Silva": "bjorn.silva@x.test", "Lucia Nair": "lucia.nair@x.test",
              "Omar Nair": "omar.nair@x.test", "Mei Ito": "mei.ito@x.test"}
    directory = build_directory([], people)
    names = " ".join(people).casefold()

    def related(text: str, who: str) -> list[str]:
        claim = next(c for c in claims_in(text, year=2026, directory=directory, kinds=("person",)) if c.text == who)
        return [c.text for c in _related_people(claim, text, names, directory)]

    assert related("Bjorn Silva withdrew his 17-18 Dec leave, Lucia Nair is off only until 16 Dec", "Bjorn Silva") == []
    assert related("Omar Nair will look after Mei Ito", "Omar Nair") == ["Mei Ito"]


def test_a_greeting_names_whom_the_mail_is_to_not_someone_only_copied():
    copied = {"kind": "eml", "mailbox": ME, "folder": "sent", "id": "msg-1", "from": ME, "to": [DANA],
              "cc": [OMAR], "subject": "Expenses", "date": "2026-01-12 10:00:00",
              "body": "Hi Omar,\nthe trip total without the hotel is 4,690.99.\nMaya", "attachments": []}
    s = state("unused")
    s.files[f"emails/{ME}/sent/msg-1.eml"] = copied
    out = run_check("email_sent", {"sender": ME, "to": DANA, "body_contains": ["4690.99"]}, s)
    assert not out.passed and "greets" in out.message
    copied["body"] = "Hi Dana,\nthe trip total without the hotel is 4,690.99.\nMaya"
    s = state("unused")
    s.files[f"emails/{ME}/sent/msg-1.eml"] = copied
    assert run_check("email_sent", {"sender": ME, "to": DANA, "body_contains": ["4690.99"]}, s).passed


def test_a_fact_the_gold_lists_under_a_negated_heading_may_be_stated_in_a_negated_sentence():
    """The gold's list item states the fact plainly, but under "not yet shown by the bank:"; the agent's
    prose says the same in one negated sentence. Under a plain heading the negation is still refused."""
    from officesim.evaluators.claims import polarity_problems

    agent = "Two ledger payments, TF-2610-0343 (Thornbury Furniture) and WP-2609-0313, aren't on the statement yet."
    under_no = "Reconciled except:\nPaid in the ledger, not yet shown by the bank:\n- TF-2610-0343 (Thornbury Furniture)\n"
    assert polarity_problems(agent, ["TF-2610-0343"], ["Reconcile October.", under_no], year=2026) == []
    under_yes = "Paid and shown by the bank:\n- TF-2610-0343 (Thornbury Furniture)\n"
    assert polarity_problems(agent, ["TF-2610-0343"], ["Reconcile October.", under_yes], year=2026)


def test_an_identifier_named_only_to_set_it_aside_is_not_an_extra_item():
    """True context: "CTR-2314 has already passed; it is not on this list" names an item to leave it out;
    the same identifier listed as one more item is still one the task did not ask for."""
    from officesim.evaluators.claims import Support, closed_world_problems

    support = Support(expected=["CTR-2426"], texts=["List the contracts whose notice deadline is coming up.",
                                                    "- CTR-2426, Poppyfield Nurseries"])
    base = "- CTR-2426, Poppyfield Nurseries\n\n"
    aside = base + "Umber Freight (CTR-2314) has already passed its deadline, so it is not on this list."
    assert not any("also states" in p for p in closed_world_problems(aside, support, year=2026, now=None,
                                                                     directory=None))
    extra = base + "- CTR-2314, Umber Freight"
    assert any("CTR-2314" in p for p in closed_world_problems(extra, support, year=2026, now=None, directory=None))


INVOICES = {"kind": "xlsx", "sheet_order": ["Invoices"], "sheets": {"Invoices": [
    ["Invoice", "Supplier", "Amount", "Paid"],
    ["UF-2601-0001", "Umber Freight", 1200.00, datetime(2026, 2, 1)],
    ["UF-2603-0002", "Umber Freight", 800.50, None],
    ["UF-2605-0003", "Umber Freight", 450.25, None],
    ["KP-2602-0004", "Kestrel Paper", 99.00, None],
]}}
UMBER_GOLD = "Hi Dana,\nUmber Freight has invoiced £2,450.75 this year.\nMaya"


def umber_state(body: str) -> EvalState:
    before = {"data/invoices.xlsx": INVOICES}
    return EvalState(files={**before, f"emails/{ME}/sent/msg-1.eml": mail(body)}, before=before,
                     gold={**before, f"emails/{ME}/sent/msg-1.eml": mail(UMBER_GOLD)}, user=ME, user_name="Maya Lin",
                     now=datetime(2026, 10, 19, 9), instruction="Mail Dana what Umber Freight invoiced this year.")


@pytest.mark.parametrize("body, passes", [
    ("Hi Dana,\nUmber Freight has invoiced £2,450.75 this year (of which £1,250.75 not yet paid).\nMaya", True),
    ("Hi Dana,\nUmber Freight has invoiced £2,450.75 this year, including £1,200.00 already paid.\nMaya", True),
    ("Hi Dana,\nUmber Freight has invoiced £2,450.75 this year (of which £1,250.57 not yet paid).\nMaya", False),
    ("Hi Dana,\nUmber Freight has invoiced £2,450.75 this year (or £1,250.75).\nMaya", False),
])
def test_a_part_of_the_expected_total_summed_over_the_rows_it_covers_is_true(body, passes):
    """A sum over a party's rows (all, those without a Paid date, those with one) is true context beside
    the expected total it is a part of; a sum no rows give, or an alternative to the total, is not."""
    out = run_check("email_sent", {"sender": ME, "to": DANA, "body_contains": ["£2,450.75"]}, umber_state(body))
    assert out.passed is passes, out.message


def test_a_meeting_that_goes_on_without_the_writer_is_not_a_negation_of_it():
    from officesim.evaluators.claims import negated

    assert not negated("so our Budget check-in on Wednesday 2 December 2026 can't go ahead with me.")
    assert negated("the Budget check-in on Wednesday 2 December 2026 can't go ahead.")  # it is off
    assert negated("the demo is not on 2 December")
