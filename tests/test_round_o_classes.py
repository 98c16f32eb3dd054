"""Classes two calibration rounds found (issue 44, rounds O and N, 16 hard tasks no audit had touched): each
true statement below had failed or each false one had passed; its twin on the other side still holds. Pure
functions over small offices built here, no office on disk."""

from __future__ import annotations

from datetime import date, datetime

from officesim.evaluators.facts import rebound, unbound
from officesim.evaluators.records import build_records, written_rows
from officesim.evaluators.roles import addressee_role_problems, role_problems
from officesim.evaluators.state import EvalState
from officesim.evaluators.truth import (added_to_event_problems, addressee_away_problems, booking_detail_problems, addressee_category_problems,
                                        free_calendar_problems, invited_problems, listed_done_problems,
                                        own_phone_problems, records_of, reports_to_problems, your_message_day_problems)
from officesim.evaluators.verdicts import Scope, read

NOW = datetime(2026, 11, 20, 9, 0)


def _book(*sheets: tuple[str, list[list]]) -> dict:
    return {"kind": "xlsx", "sheet_order": [n for n, _r in sheets], "sheets": dict(sheets)}


def _false(text: str, records, **scope) -> list[str]:
    reading = read(text, records, Scope(now=NOW, year=2026, **scope), neutral=["hana.costa@harbourline.test"])
    return [v.why for v in reading.false]


# ---- where a fact of a group may stand -------------------------------------------------------------------
def test_a_list_grouped_under_date_headings_gives_each_item_its_heading():
    mail = ("Below are the deadlines, in order.\n\n2 December 2026\n- CTR-2426 Heron Bay, expires 31 January 2027\n"
            "- CTR-2447 Marigold, expires 31 January 2027, owner Samir Banerjee\n\n1 April 2027\n- CTR-2412 Teasel Vets\n")
    group = ["CTR-2447", "Samir Banerjee", "2027-01-31", "2026-12-02"]
    assert unbound(mail, [group], year=2026) == []
    assert unbound(mail.replace("CTR-2447 Marigold", "CTR-2999 Marigold").replace("CTR-2412", "CTR-2447"),
                   [["CTR-2447", "2026-12-02"]], year=2026)  # under the April heading: not its day
    # a line that gives its own other day is not the heading's ("Safety walk - Tuesday 21 July")
    handover = "Week of 20 July\nSafety walk - Tuesday 21 July\n"
    assert unbound(handover, [["Safety walk", "2026-07-20"]], year=2026, stretch=False)


def test_a_card_of_labelled_fields_is_about_its_one_identifier():
    card = ("Dear Leila,\n\nInvoice number: KP-2608-0297\nPurchase order: PO-4554\nAmount ordered: GBP 2,018.29\n"
            "Amount invoiced: GBP 2,436.95\n\nWe are holding it.")
    assert unbound(card, [["KP-2608-0297", 2436.95]], year=2026) == []
    two = "Invoice number: KP-2608-0297\nInvoice number: KP-2608-0298\nAmount: GBP 2,436.95\n"
    assert unbound(two, [["KP-2608-0297", 2436.95]], year=2026)


def test_a_message_about_one_item_alone_states_its_facts_in_any_sentence():
    mail = ("Thank you for your email of 26 October 2026 about order SO-72604.\n\n"
            "The order was placed on 13 November 2026 for 5 x Filing Cabinet.")
    assert unbound(mail, [["SO-72604", "2026-11-13"]], year=2026) == []
    both = mail + "\nYour other order SO-72610 was placed on 2 November 2026."
    assert unbound(both, [["SO-72604", "2026-11-13"]], year=2026)


def test_the_items_themselves_pair_nobody_with_another_answer():
    reply = ("All sorted. I've moved Ines Wolff's start date to 14 December 2026.\n"
             "- Viktor Toivonen: Rafael Lindqvist\n- Ines Wolff: Mira Iyer\n")
    people = {"Ines Wolff": {"ines"}, "Mira Iyer": {"mira"}, "Viktor Toivonen": {"viktor"}, "Rafael Lindqvist": {"rafael"}}

    def named(line: str) -> set[str]:
        return {p for name, ps in people.items() if name in line for p in ps}

    groups = [["Viktor Toivonen", "Rafael Lindqvist"], ["Ines Wolff", "Mira Iyer"]]
    assert rebound(reply, groups, year=2026, people=named) == []
    people["Rosa Tanaka"] = {"rosa"}
    assert rebound(reply + "- Ines Wolff: Rosa Tanaka\n", groups, year=2026, people=named)


# ---- people ----------------------------------------------------------------------------------------------
def _sales():
    staff = [["Name", "Email", "Role", "Location", "Phone"],
             ["Aiko Amari", "aiko.amari@harbourline.test", "Regional Sales Manager", "Head office", "+44 20 7946 1111"],
             ["Vera Chen", "vera.chen@harbourline.test", "Account Executive", "Warehouse", "+44 20 7946 2222"],
             ["Maya Nakamura", "maya.nakamura@harbourline.test", "Regional Sales Manager", "Head office", "+44 20 7946 3333"],
             ["Hana Costa", "hana.costa@harbourline.test", "Operations Manager", "Head office", "+44 20 7946 4444"],
             ["Ravi Nakamura", "ravi.nakamura@harbourline.test", "Logistics Coordinator", "Warehouse", "+44 20 7946 5555"]]
    orders = [["Order", "Customer", "Account executive", "Product", "Qty", "Ordered"],
              ["SO-71629", "Rowan Park Gyms", "Vera Chen", "Webcam", 18, "2026-06-03"],
              ["SO-71499", "Verbena Spas", "Aiko Amari", "Paper", 9, "2026-05-12"],
              ["SO-71188", "Gull Point Marinas", "Maya Nakamura", "Monitor Arm", 19, "2026-03-25"]]
    return {"data/staff.xlsx": _book(("Staff", staff)), "data/orders.xlsx": _book(("Orders", orders))}


def test_a_role_that_is_what_a_person_is_to_an_item_is_read_against_the_items_column():
    records = build_records(_sales(), 2026)
    order = [records.entities[i] for i in records.by_key["#SO71629"]]
    # Aiko's job is Regional Sales Manager; "account executive" is what she is to her orders
    assert role_problems("Your account executive, Aiko Amari, is copied in.", records, {}, []) == []
    wrong = role_problems("Maya Nakamura, your account executive, will confirm the date.", records, {}, order)
    assert wrong and "vera chen" in wrong[0][2]
    assert role_problems("Vera Chen, your account executive, will confirm the date.", records, {}, order) == []


def test_a_role_said_of_the_one_written_to():
    records = build_records(_sales(), 2026)
    to = ["ravi.nakamura@harbourline.test"]
    assert addressee_role_problems("As the other Account Executive on the team, could you cover?", to, records)
    assert addressee_role_problems("We'll look back at your year as Account Executive.", to, records)
    assert addressee_role_problems("As the other Logistics Coordinator on the team, could you cover?", to, records) == []


def _state(files: dict, after: dict | None = None, **kw) -> EvalState:
    return EvalState(files=after or files, before=files, now=NOW, user="hana.costa@harbourline.test", **kw)


def test_the_writers_own_number_and_where_the_one_written_to_is_based():
    state = _state(_sales())
    records = records_of(state)
    assert own_phone_problems("If anything changes, ring me on +44 20 7946 2222.", state.user, records)
    assert own_phone_problems("If anything changes, ring me on +44 20 7946 4444.", state.user, records) == []
    to = ("ravi.nakamura@harbourline.test",)
    assert addressee_category_problems("You'll be based at our head office, so come to reception.", to, records)
    assert addressee_category_problems("You'll be based at the warehouse from Monday.", to, records) == []


def test_a_person_said_to_be_at_another_party_than_their_mail_domain():
    files = _sales()
    files["emails/hana.costa@harbourline.test/msg-1.eml"] = {
        "kind": "eml", "from": "leila.duarte@oakmerelibraries.test", "to": ["hana.costa@harbourline.test"],
        "subject": "Order", "date": "2026-11-02T10:00:00", "body": "Any news?"}
    files["emails/hana.costa@harbourline.test/msg-2.eml"] = {
        "kind": "eml", "from": "talia.rossi@juniperdental.test", "to": ["hana.costa@harbourline.test"],
        "subject": "Order", "date": "2026-11-03T10:00:00", "body": "Any news?"}
    files["data/customers.xlsx"] = _book(("Customers", [["Customer", "Contact"], ["Oakmere Libraries", "Leila Duarte"],
                                                        ["Juniper Dental", "Talia Rossi"]]))
    records = build_records(files, 2026)
    assert _false("Leila Duarte at Juniper Dental has been chasing us.", records)
    assert _false("Leila Duarte at Oakmere Libraries has been chasing us.", records) == []


# ---- the rows an episode wrote ---------------------------------------------------------------------------
def _ledger(extra: list[list] = ()) -> dict:
    rows = [["Date", "Reference", "Description", "Amount"],
            ["2026-06-01", "RENT-06-810", "Office space recharge Legal", -1250],
            ["2026-11-01", "RENT-11-110", "Office space recharge Finance", -1250], *extra]
    return {"data/ledger.xlsx": _book(("Ledger", rows))}


def test_rows_an_episode_added_are_records_and_the_offices_are_left_alone():
    before = _ledger()
    after = _ledger([["2026-07-01", "RENT-07-810", "Office space recharge Legal", -1250],
                     ["2026-10-01", "RENT-10-110", "Office space recharge Finance", -1250]])
    base = build_records(before, 2026)
    added = written_rows(base, before, after, 2026)
    assert [e.keys[0] for e in added] == ["#RENT07810", "#RENT10110"]
    both = base.extended(added)
    assert "#RENT07810" in both.by_key and "#RENT07810" not in base.by_key
    list_mail = "These recharges were missing and are now added:\n- RENT-07-810 (Legal, {d})\n- RENT-10-110 (Finance, 1 October 2026)\n"
    assert _false(list_mail.format(d="1 June 2026"), both)
    assert _false(list_mail.format(d="1 July 2026"), both) == []
    each = "Added:\n- RENT-07-810\n- RENT-10-110\n\nEach one is a standard recharge of GBP {x}.\n"
    assert _false(each.format(x="1,500"), both)
    assert _false(each.format(x="1,250"), both) == []
    together = "Added:\n- RENT-07-810\n- RENT-10-110\n\nTogether that is GBP {x} of recharges.\n"
    assert _false(together.format(x="2,000"), both)
    assert _false(together.format(x="2,500"), both) == []
    # a heading's total is of what stands below it
    assert _false("Added:\n- RENT-07-810\n- RENT-10-110\n\nNot in the ledger (GBP 90.00 together):\n- a fee\n", both) == []


def test_items_listed_as_done_that_the_episode_did_not_touch():
    before = _ledger()
    after = _ledger([["2026-07-01", "RENT-07-810", "Office space recharge Legal", -1250]])
    state = _state(before, after)
    records = records_of(state)
    assert listed_done_problems("These are now added:\n- RENT-07-810\n- RENT-11-110\n", state, records)
    assert listed_done_problems("These are now added:\n- RENT-07-810\n", state, records) == []
    assert listed_done_problems("Already there, not added:\n- RENT-07-810\n- RENT-11-110\n", state, records) == []


# ---- periods, days and quantities ------------------------------------------------------------------------
def _leave():
    rows = [["Name", "Email", "From", "To", "Type", "Status"],
            ["Amara Jensen", "amara.jensen@harbourline.test", "2026-11-09", "2026-11-10", "Annual leave", "Approved"],
            ["Omar Nair", "omar.nair@harbourline.test", "2026-10-29", "2026-10-30", "Annual leave", "Withdrawn"],
            ["Omar Nair", "omar.nair@harbourline.test", "2026-08-03", "2026-08-07", "Annual leave", "Approved"],
            ["Arjun Hale", "arjun.hale@harbourline.test", "2026-12-07", "2026-12-11", "Annual leave", "Approved"],
            ["Nina Lund", "nina.lund@harbourline.test", "2026-11-10", "2026-11-11", "Annual leave", "Pending"],
            *[["Nina Lund", "nina.lund@harbourline.test", f"2026-0{m}-01", f"2026-0{m}-02", "Annual leave", "Approved"]
              for m in range(1, 8)]]  # enough rows that Status is a column of states
    staff = [["Name", "Email", "Role"], ["Arjun Hale", "arjun.hale@harbourline.test", "Warehouse Lead"]]
    return {"data/leave.xlsx": _book(("Leave", rows)), "data/staff.xlsx": _book(("Staff", staff))}


def test_a_period_said_of_someone_is_one_of_their_rows_and_a_withdrawn_one_is_no_absence():
    records = build_records(_leave(), 2026)
    said = "I couldn't cover Amara Jensen's leave ({p}). Her offered cover has pending leave during it."
    assert _false(said.format(p="9 to 11 November 2026"), records)
    assert _false(said.format(p="9 to 10 November 2026"), records) == []
    assert _false("Amara Jensen is on annual leave from 8 November 2026 to 10 November 2026.", records)
    assert _false("Omar Nair (29 to 30 October 2026) is on annual leave, so he can't come.", records)
    assert _false("Invoice AE-2611-0443 (issued 06/11/2026, £2,776.22) is a duplicate.", records) == []


def test_a_day_the_one_written_to_is_said_to_be_away():
    records = build_records(_leave(), 2026)
    to = ("arjun.hale@harbourline.test",)
    body = "I've booked your review for Tuesday 15 December 2026. I couldn't do Monday the {d} as you're on leave that day."
    assert addressee_away_problems(body.format(d="14th"), to, records, 2026)
    assert addressee_away_problems(body.format(d="11th"), to, records, 2026) == []


def test_a_count_of_working_days_before_the_range_it_counts():
    records = build_records(_leave(), 2026)
    assert _false("Nina is away for five working days, 3 November 2026 to 6 November 2026.", records)
    assert _false("Nina is away for four working days, 3 November 2026 to 6 November 2026.", records) == []


def test_a_quantity_after_an_orders_identifier_and_a_first_day():
    records = build_records(_sales(), 2026)
    assert _false("They asked about SO-71629 (42 x Webcam) twice.", records)
    assert _false("They asked about SO-71629 (18 x Webcam) twice.", records) == []
    starters = {"data/staff.xlsx": _book(("Staff", [["Name", "Email", "Start date"],
                                                   ["Ravi Nakamura", "ravi.nakamura@harbourline.test", "2026-10-26"]]))}
    records = build_records(starters, 2026)
    assert _false("Ravi Nakamura's intros are booked for his first day, Tuesday 27 October.", records)
    assert _false("Ravi Nakamura's intros are booked for his first day, Monday 26 October.", records) == []


def test_not_delivered_of_an_item_whose_row_records_the_delivery():
    orders = [["PO", "Supplier", "Ordered", "Delivered", "Status"], ["PO-4554", "Kestrel Paper", "2026-08-10", "2026-08-21", "Delivered"],
              ["PO-4600", "Kestrel Paper", "2026-11-10", None, "Open"]]
    records = build_records({"data/po.xlsx": _book(("Orders", orders))}, 2026)
    assert _false("The goods on PO-4554 have not been delivered yet.", records)
    assert _false("The goods on PO-4600 have not been delivered yet.", records) == []


# ---- messages and meetings -------------------------------------------------------------------------------
def test_the_day_of_a_message_of_the_one_written_to():
    files = {"emails/arjun/msg-1.eml": {"kind": "eml", "from": "aiko.kovac@harbourline.test", "to": ["hana.costa@harbourline.test"],
                                        "subject": "My number", "date": "2026-12-04T09:12:00", "body": "New mobile."}}
    state = _state(files)
    to = ("aiko.kovac@harbourline.test",)
    assert your_message_day_problems("Thanks for your correction on Thursday 3 December.", to, state)
    assert your_message_day_problems("Thanks for your correction on Friday 4 December.", to, state) == []


def test_added_to_a_meeting_the_office_holds_needs_that_meeting_changed():
    weekly = {"summary": "Operations weekly", "start": "2026-11-23T10:00:00", "end": "2026-11-23T11:00:00",
              "attendees": ["hana.costa@harbourline.test"]}
    before = {"calendar/hana.ics": {"kind": "ics", "events": [weekly]}}
    intro = {"summary": "Intro: Ravi", "start": "2026-11-23T09:00:00", "end": "2026-11-23T09:30:00", "attendees": []}
    made = _state(before, {"calendar/hana.ics": {"kind": "ics", "events": [weekly, intro]}})
    text = "I've also added you to our Operations weekly (Mondays 10:00), so you'll find it in your calendar."
    assert added_to_event_problems(text, made)
    invited = dict(weekly, attendees=[*weekly["attendees"], "ravi.nakamura@harbourline.test"])
    changed = _state(before, {"calendar/hana.ics": {"kind": "ics", "events": [invited, intro]}})
    assert added_to_event_problems(text, changed) == []
    assert added_to_event_problems("I will add you to our Operations weekly next week.", made) == []


def test_a_calendar_said_free_where_it_holds_a_meeting():
    budget = {"summary": "Budget check-in", "start": "2026-12-11T14:00:00", "end": "2026-12-11T14:45:00", "attendees": []}
    state = _state({"calendar/hana.costa@harbourline.test.ics": {"kind": "ics", "events": [budget]}})
    booked = "I've booked your review for Friday 11 December 2026 at 15:00. My {part} is otherwise free, so no rush."
    assert free_calendar_problems(booked.format(part="afternoon"), state)
    assert free_calendar_problems(booked.format(part="morning"), state) == []
    assert free_calendar_problems("My calendar is free on Friday 11 December 2026 apart from the budget check-in.", state) == []


def test_someone_said_invited_to_a_meeting_that_invites_nobody():
    reminder = {"summary": "Notice deadline: Marigold", "start": "2026-12-02T09:00:00", "end": "2026-12-02T09:15:00",
                "attendees": []}
    state = _state({}, {"calendar/hana.costa@harbourline.test.ics": {"kind": "ics", "events": [reminder]}})
    records = build_records({}, 2026)
    to = ("samir.banerjee@harbourline.test",)
    said = "I have also invited you to the 9:00 reminder in the calendar on 2 December."
    assert invited_problems(said, to, state, records)
    invited = dict(reminder, attendees=["samir.banerjee@harbourline.test"])
    assert invited_problems(said, to, _state({}, {"calendar/h.ics": {"kind": "ics", "events": [invited]}}), records) == []


def test_a_yes_or_no_said_of_none_of_the_items_listed_above():
    rows = [["Ref", "Party", "Auto-renew"], *[[f"CTR-24{k}0", f"Party {k}", "Yes" if k == 3 else "No"] for k in range(1, 7)]]
    records = build_records({"data/register.xlsx": _book(("R", rows))}, 2026)
    listing = "".join(f"- CTR-24{k}0, Party {k}\n" for k in range(1, 5))
    assert _false(f"Deadlines:\n{listing}\nNone of these renews automatically.\n", records)
    assert _false("Deadlines:\n- CTR-2410\n- CTR-2420\n\nNone of these renews automatically.\n", records) == []


def test_more_ways_of_leaving_a_date_open():
    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import prose_hedges
    assert prose_hedges(cut("I've pencilled in your review for Friday 18 December, but it may have to move."))
    assert prose_hedges(cut("The Wednesday review is provisional for now."))
    assert prose_hedges(cut("I've booked your review for Friday 18 December at 14:00.")) == []


def test_an_item_of_another_party_in_a_list_about_one():
    rows = [["PO", "Supplier", "Promised", "Delivered"],
            *[[f"PO-45{k}0", "Pinecrest Catering", "2026-07-01", "2026-07-09"] for k in range(1, 5)],
            ["PO-4463", "Yarrow Energy", "2026-06-27", "2026-07-06"]]
    records = build_records({"data/po.xlsx": _book(("Orders", rows))}, 2026)
    listing = "Pinecrest Catering delivered late four times. The late orders were:\n" + "".join(
        f"- PO-45{k}0: promised 1 July 2026\n" for k in range(1, 4))
    assert _false(listing + "- PO-4463: promised 27 June 2026\n", records)
    assert _false(listing + "- PO-4540: promised 1 July 2026\n", records) == []
    assert _false(listing + "- PO-4463 (Yarrow Energy): promised 27 June 2026\n", records) == []


def test_details_of_what_was_booked_against_the_events_made():
    before = {"calendar/hana.costa@harbourline.test.ics": {"kind": "ics", "events": []},
              "data/staff.xlsx": _book(("Staff", [["Name", "Email", "Start date"],
                                                 ["Rafael Lindqvist", "rafael.lindqvist@harbourline.test", "2016-04-15"]]))}
    review = {"summary": "Review: Viktor", "start": "2026-12-10T14:00:00", "end": "2026-12-10T14:30:00", "attendees": []}
    state = _state(before, {**before, "calendar/hana.costa@harbourline.test.ics": {"kind": "ics", "events": [review]}})
    records = records_of(state)
    assert booking_detail_problems("I've booked the Anchor Room for us.", None, state, records)
    assert booking_detail_problems("I've invited each cover person to their event.", None, state, records)
    roomed = dict(review, location="Anchor Room", attendees=["viktor.kaur@harbourline.test"])
    booked = _state(before, {**before, "calendar/hana.costa@harbourline.test.ics": {"kind": "ics", "events": [roomed]}})
    assert booking_detail_problems("I've booked the Anchor Room and invited Viktor.", None, booked, records) == []
    to = ("rafael.lindqvist@harbourline.test",)
    assert booking_detail_problems("With your twelve years here, you're ideal.", to, state, records)
    assert booking_detail_problems("With your ten years here, you're ideal.", to, state, records) == []


def test_a_file_named_as_updated_that_the_episode_left_alone():
    from officesim.evaluators.actions import Episode, record_named_unchanged
    episode = Episode(frozenset({"mail", "file"}), (), records=((frozenset({"ledger"}), True), (frozenset({"budget"}), False)))
    assert record_named_unchanged("I have also updated budget_2026.xlsx to reflect them.", episode)
    assert record_named_unchanged("I have also updated budget_2026", episode)
    assert not record_named_unchanged("I have added them to ledger_2026.xlsx.", episode)


def test_whom_the_one_written_to_reports_to_once_the_episode_is_done():
    staff = [["Name", "Email", "Manager"], ["Nina Kovac", "nina.kovac@harbourline.test", "Luca Iyer"]]
    moved = [["Name", "Email", "Manager"], ["Nina Kovac", "nina.kovac@harbourline.test", "Hana Costa"]]
    state = _state({"data/staff.xlsx": _book(("Staff", staff))}, {"data/staff.xlsx": _book(("Staff", moved))},
                   user_name="Hana Costa")
    to = ("nina.kovac@harbourline.test",)
    assert reports_to_problems("From Monday you join Operations, reporting to Noor Tanaka.", to, state)
    assert reports_to_problems("From Monday you join Operations, reporting to me.", to, state) == []
    assert reports_to_problems("The four assistants are now reporting to Noor Tanaka.", to, state) == []


# ---- round P (read after its blind replay) -----------------------------------------------------------------
def test_a_heading_count_broken_down_by_party_in_its_noun():
    records = build_records({}, 2026)
    listing = "19 unpaid invoices are overdue. By supplier:\n- Umber Freight: 2 invoices\n- Kestrel Paper: {n} invoices\n"
    assert _false(listing.format(n=17), records) == []
    assert _false(listing.format(n=16), records)


def test_a_count_of_the_firms_history_is_no_count_of_the_episode():
    from officesim.evaluators.actions import counted_action_problems
    done = frozenset({3.0})
    assert counted_action_problems("Of the 114 invoices we paid in Q3, four were late.", done) == []
    assert counted_action_problems("The 5 invoices I held are listed below.", done)
    assert counted_action_problems("The 3 invoices I held are listed below.", done) == []


def test_a_sentence_runs_past_the_dot_of_an_amount_or_a_file_name():
    from officesim.evaluators.actions import _sentence
    text = "I have not held the £10,382.84 invoice from budget_2026.xlsx. Then I held 5 more."
    at, sentence = _sentence(text, text.index("held"), text.index("held") + 4)
    assert sentence.startswith("I have not held the £10,382.84 invoice from budget_2026.xlsx")
    at, sentence = _sentence(text, text.index("Then"), text.index("Then") + 4)
    assert sentence.strip() == "Then I held 5 more"


def test_a_second_amount_after_and_is_a_clause_of_its_own():
    from officesim.evaluators.claims import _clauses, negated
    s = "so 3 x £160.00 = £480.00 is reimbursed and the £36.00 above the cap is not"
    paid, capped = s.index("£480.00"), s.index("£36.00")
    assert not negated(_clauses(s, paid, paid + 7)[0])
    assert negated(_clauses(s, capped, capped + 6)[0])
    joined = "the £480.00 and £36.00 are not reimbursed"
    assert negated(_clauses(joined, 4, 11)[0])
