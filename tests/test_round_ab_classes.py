"""Classes read since round AA (issue 44): honest statements that round AB's right outcomes were failed for,
each with its false twin. Pure functions over small texts and records."""

from __future__ import annotations

from datetime import datetime

from officesim.evaluators.records import build_records
from officesim.evaluators.statements import cut
from officesim.evaluators.superlatives import Ranked, superlative_problems
from officesim.evaluators.task_sets import ItemSet, paid_claim_problems, set_count_problems
from officesim.evaluators.verdicts import Scope, read
from tests._headings import heading_verdicts

NOW = datetime(2026, 11, 17, 9, 0)


def _book(*sheets: tuple[str, list[list]]) -> dict:
    return {"kind": "xlsx", "sheet_order": [n for n, _r in sheets], "sheets": dict(sheets)}


# ---- a heading's count over a table that breaks it down -------------------------------------------------------

_BY_OWNER = ("After the 10 November meeting there are {n} open actions:\n\n| Owner | Open actions | Which |\n"
             "|---|---|---|\n| Aiko Amari | 1 | A142 |\n| Nadia Lin | 2 | A144, A149 |\n| Vera Chen | 1 | A147 |\n"
             "| Zoe Novak | 2 | A140, A148 |\n")


def test_a_count_over_a_table_whose_column_ends_with_its_noun():
    assert heading_verdicts(_BY_OWNER.format(n=6)) == []
    assert heading_verdicts(_BY_OWNER.format(n=7)) != []


def test_a_count_over_items_is_the_number_of_identifiers_they_name():
    listed = "There are {n} open actions:\n- Nadia Lin: A144, A149\n- Zoe Novak: A140, A148\n- Aiko Amari: A142\n"
    assert heading_verdicts(listed.format(n=5)) == []
    assert heading_verdicts(listed.format(n=4)) != []


# ---- the whole a heading's part is taken from -----------------------------------------------------------------

def test_the_whole_before_a_part_is_not_the_count_of_the_list():
    text = "Of your 14 customers, only one has placed no order since 12 October:\n- Ember Valley Farms\n"
    assert heading_verdicts(text) == []
    assert heading_verdicts("Your 14 customers have placed no order since 12 October:\n- Ember Valley Farms\n") != []
    parts = ("Of the 15 actions raised, 9 have been recorded as done, leaving {n} open:\n- A140\n- A142\n- A144\n"
             "- A147\n- A148\n- A149\n")
    assert heading_verdicts(parts.format(n=6)) == []
    assert heading_verdicts(parts.format(n=5)) != []


def test_a_whole_split_into_parts_one_of_which_is_the_tasks_set():
    records = build_records({"data/actions.xlsx": _book(("Actions", [["Action", "Owner"], ["A140", "Zoe Novak"]]))}, 2026)
    sets = [ItemSet(frozenset({"action"}), frozenset({6}), "open actions")]
    said = "Of the {n} actions raised (A135 to A149), 9 have been recorded as done, leaving {k} open."
    assert set_count_problems(said.format(n=15, k=6), sets, records) == []
    assert set_count_problems(said.format(n=15, k=5), sets, records) != []
    assert set_count_problems("There were 15 actions at the meeting.", sets, records) != []


# ---- a clause about the others says nothing of the item its sentence names -----------------------------------

def test_a_clause_about_the_others_is_a_statement_of_its_own():
    texts = [s.text for s in cut("The longest was YE-2608-0256 (paid 27 Sep); the other six were all paid 8 days late.")]
    assert texts == ["The longest was YE-2608-0256 (paid 27 Sep)", "the other six were all paid 8 days late."]
    assert [s.text for s in cut("A142 is due 10 Nov; it moved to Aiko.")] == ["A142 is due 10 Nov; it moved to Aiko."]


def test_all_paid_of_the_others_is_not_said_of_the_named_partys_other_invoices():
    invoices = _book(("Invoices", [["Invoice", "Supplier", "Amount", "Paid on"],
                                   ["YE-2608-0256", "Yarrow Energy", 900.0, "2026-09-27"],
                                   ["YE-2606-0168", "Yarrow Energy", 450.0, None]]))
    records = build_records({"data/invoices.xlsx": invoices}, 2026)
    said = "The longest delay was on Yarrow Energy's YE-2608-0256 (paid 27 Sep); the other six were all paid 8 days late."
    assert paid_claim_problems(said, records, None) == []
    assert paid_claim_problems("Yarrow Energy's invoices were all paid 8 days late.", records, None) != []


# ---- an amount a night: the stay's amount over the nights the sentence gives ----------------------------------

def _claims():
    rows = [["Claim", "Employee", "Nights", "Amount"], ["EXP-1077", "Omar Haddad", 2, 354.0],
            ["EXP-1078", "Omar Haddad", 0, 41.8]]
    return build_records({"data/finance/expense_claims_2026.xlsx": _book(("Claims", rows))}, 2026)


def _false(text: str, records) -> list[str]:
    reading = read(text, records, Scope(year=2026, now=NOW))
    return [v.value for v in reading.verdicts if v.verdict == "false"]


def test_an_amount_per_night_after_the_nights_it_is_charged_for():
    records = _claims()
    assert _false("EXP-1077 is approved: £354.00. That's 2 nights at £177.00 each way.", records) == []
    assert _false("EXP-1077 is approved: £354.00, 2 nights at £177.00.", records) == []
    assert _false("EXP-1077 is approved: £354.00, 2 nights at £187.00.", records) != []


# ---- a superlative by value is read on the list's amounts -------------------------------------------------------

def test_the_largest_by_value_in_a_list_ranked_by_days_late():
    ranked = Ranked("data/late.xlsx#Sheet1", (frozenset({"#YE26080256"}), frozenset({"#WP26060178"}),
                                             frozenset({"#KP26070011"})),
                    {"Days late": (9, 8, 8), "Amount": (1200.50, 11734.30, 310.00)})
    assert superlative_problems("The largest by value is WP-2606-0178 at £11,734.30.", [ranked]) == []
    assert superlative_problems("The largest by value is KP-2607-0011 at £310.00.", [ranked]) != []
    assert superlative_problems("The largest is KP-2607-0011.", [ranked]) != []


# ---- a count in a list item breaks down the heading's set, not the tables' rows ------------------------------

def test_a_count_in_an_item_under_a_heading_is_of_the_headings_set():
    from officesim.evaluators.record_counts import Work, count_problems

    rows = [["Invoice", "Supplier", "Amount"], *[[f"UF-26{k:02d}-00{k:02d}", "Umber Freight", 100.0 + k] for k in range(9)]]
    records = build_records({"data/finance/supplier_invoices_2026.xlsx": _book(("Invoices", rows))}, 2026)
    item = "- Largest supplier: Umber Freight, 2 invoices, £16,388.15"
    assert count_problems(item, records, Work(), 2026, listed=True) == []
    assert count_problems("Umber Freight has sent us 2 invoices.", records, Work(), 2026) != []


# ---- the time of a booking said to the person it was booked for -----------------------------------------------

def test_a_time_said_of_a_booking_is_a_time_of_the_event_that_names_them():
    from datetime import time

    from officesim.evaluators.claims import Claim

    staff = _book(("Staff", [["Name", "Email", "Role"], ["Esme Vance", "esme.vance@stonegate.test", "Analyst"],
                             ["Olga Banerjee", "olga.banerjee@stonegate.test", "Analyst"]]))
    records = build_records({"data/hr/staff.xlsx": staff}, 2026)
    events = [("Probation review: Esme Vance esme.vance@stonegate.test", Claim("time", time(15, 0), "2026-12-11 15:00:00")),
              ("Probation review: Esme Vance esme.vance@stonegate.test", Claim("time", time(16, 0), "2026-12-11 16:00:00")),
              ("Probation review: Olga Banerjee olga.banerjee@stonegate.test", Claim("time", time(14, 0), "2026-12-08 14:00:00"))]
    scope = Scope(year=2026, now=NOW, events=events)

    def false(text: str) -> list[str]:
        reading = read(text, records, scope, addressee="esme.vance@stonegate.test")
        return [v.value for v in reading.verdicts if v.verdict == "false"]

    assert false("Your probation review is booked for Friday 11 December 2026, 15:00-16:00.") == []
    assert false("Your probation review is booked for Friday 11 December 2026, 14:00-15:00.") != []
    assert false("Your probation review is booked for Friday 11 December 2026 at 14:00.") != []


def test_a_second_count_of_the_parties_of_a_first_counts_that_set():
    from officesim.evaluators.record_counts import Work, count_problems

    suppliers = _book(("Suppliers", [["Supplier", "Contact"], *[[f"Supplier {k}", f"s{k}@x.test"] for k in range(14)]]))
    records = build_records({"data/purchasing/suppliers.xlsx": suppliers}, 2026)
    said = "It covers 20 unpaid supplier invoices due on or before 20 November, from 11 suppliers."
    assert count_problems(said, records, Work(), 2026) == []
    assert count_problems("We work with 11 suppliers.", records, Work(), 2026) != []


def test_a_count_of_whom_the_episode_wrote_to_is_not_a_tables():
    from officesim.evaluators.record_counts import Work, count_problems

    customers = _book(("Customers", [["Customer", "Contact"], *[[f"Customer {k}", f"c{k}@x.test"] for k in range(20)]]))
    records = build_records({"data/sales/customers.xlsx": customers}, 2026)
    assert count_problems("Letters sent to 12 customers.", records, Work(), 2026) == []
    assert count_problems("We have 12 customers.", records, Work(), 2026) != []


def test_a_date_before_a_sentence_is_no_count_of_what_it_says_was_done():
    from officesim.evaluators.actions import counted_action_problems

    said = "7. Nettle Cross Garages (CTR-2461) - ends 2028-11-30\n\nThe other letters have been sent."
    assert counted_action_problems(said, frozenset({12.0})) == []
    assert counted_action_problems("30 letters have been sent.", frozenset({12.0})) != []


def test_a_count_of_an_earlier_sentence_is_not_of_the_list_the_last_one_names():
    text = ("All {n} price letters went out today, each copying the account executive. The following customers are "
            "on fixed-term agreements, so they did not get a letter:\n- Cedar Row Hotels\n- Dovetail Joinery\n")
    assert heading_verdicts(text.format(n="twelve")) == []
    assert heading_verdicts("Here are the three customers on fixed-term agreements:\n- Cedar Row Hotels\n"
                             "- Dovetail Joinery\n") != []


def test_a_suggestion_to_check_with_someone_is_no_hedge():
    from officesim.evaluators.verdicts import prose_hedges

    assert prose_hedges(cut("That contradicts the increase. Worth checking with Dmitri before we do anything.")) == []
    assert prose_hedges(cut("The amount is £4,249.13, but worth checking.")) != []


def test_a_count_of_the_names_under_a_column_is_true_context():
    from officesim.evaluators.claims import claims_in
    from officesim.evaluators.record_counts import counts_office_things

    names = ["Alder", "Birch", "Cedar", "Elm", "Fir", "Hazel", "Ivy", "Juniper", "Larch", "Maple", "Oak", "Pine",
             "Rowan", "Yew"]
    rows = [["Invoice", "Supplier", "Amount"], *[[f"INV-{k:03d}", f"{names[k % 14]} Freight", 100.0] for k in range(30)]]
    records = build_records({"data/finance/invoices_2026.xlsx": _book(("Invoices", rows))}, 2026)

    def true(text: str) -> bool:
        c = next(c for c in claims_in(text, year=2026, kinds=("number",)) if not c.currency and "%" not in text[c.end:c.end + 1])
        return counts_office_things(c, text, records)

    assert true("about 47% of the £1,171,211.67 invoiced by all fourteen suppliers this year")
    assert true("all 30 invoices")
    assert not true("about 47% of the £1,171,211.67 invoiced by all fifteen suppliers this year")


def test_a_span_said_as_what_a_table_records_neither_of_whose_ends_is_the_rows():
    from officesim.evaluators.verdicts import range_end_problems

    leave = _book(("Requests", [["Employee", "First day", "Last day", "Status"],
                                ["Mei Moreau", "2026-12-09", "2026-12-26", "Approved"]]))
    records = build_records({"data/people/leave_requests.xlsx": leave}, 2026)

    def false(text: str) -> list:
        st = cut(text)[0]
        return range_end_problems(st, [], records, 2026)

    assert false("Mei Moreau is on annual leave from 9 to 26 December, so no slot fits.") == []
    assert false("Mei Moreau is on annual leave from 14 to 31 December, so no slot fits.") != []
    assert false("Mei Moreau's review window runs from 11 to 24 December.") == []  # not her leave


# ---- a message's time stamp gives no day ----------------------------------------------------------------------

def test_a_month_then_an_hour_is_no_date():
    from datetime import date

    from officesim.evaluators.facts import dates_in

    assert [m.value for m in dates_in("[Sun 06 Dec 16:44] Sven Banerjee: Two updates", 2026)] == [date(2026, 12, 6)]
    assert [m.value for m in dates_in("The review is on Dec 16: be there.", 2026)] == [date(2026, 12, 16)]
    assert [m.value for m in dates_in("16 Dec 14:00", 2026)] == [date(2026, 12, 16)]


# ---- another item's date, held by records that share only a person with this one ---------------------------------

def test_another_contracts_expiry_is_false_though_they_share_an_owner():
    register = _book(("Contracts", [["Contract", "Supplier", "Owner", "Expiry", "Annual value"],
                                    ["CTR-2384", "Zephyr Couriers", "Arjun Hale", "2027-08-31", 58500],
                                    ["CTR-2314", "Vantage Security", "Arjun Hale", "2027-01-31", 45500]]))
    pdf = {"kind": "pdf", "pages": ["AGREEMENT CTR-2335\nBetween Stonegate and Ironvale Logistics\n"
                                    "Expires: 31 January 2027\nAnnual value: £63,500.00"]}
    records = build_records({"data/legal/contracts_register.xlsx": register,
                             "data/legal/contracts/CTR-2335.pdf": pdf}, 2026)
    said = ("One thing for the review: Zephyr Couriers' contract (CTR-2384, £58,500 a year) expires on {} and renews "
            "automatically unless we give notice, so it may need attention soon.")
    assert _false(said.format("31 August 2027"), records) == []
    assert _false(said.format("31 January 2027"), records) != []


def test_a_superlative_by_value_over_a_list_without_amounts_is_not_read_there():
    ranked = Ranked("data/late.xlsx#Sheet1", (frozenset({"#YE26080256"}), frozenset({"#WP26060178"})),
                    {"Days late": (9.0, 8.0)})
    assert superlative_problems("The largest by value is WP-2606-0178 at £11,734.30.", [ranked]) == []
    assert superlative_problems("The latest is WP-2606-0178.", [ranked]) == []  # no dates either
    # "the largest" of a list with no amounts is by a size it does not give (round AF: an honest "largest" by
    # amount); "the highest" is by its one column
    assert superlative_problems("The largest is WP-2606-0178.", [ranked]) == []
    assert superlative_problems("The highest is WP-2606-0178.", [ranked]) != []


# ---- a limit is a rule's figure, not the item's amount ------------------------------------------------------------

def test_a_limit_beside_an_items_amount_is_read_as_a_limit():
    records = _claims()
    scope = Scope(year=2026, now=NOW, stated_limit=lambda c, text: float(c.value) == 60.0)

    def false(text: str) -> list[str]:
        return [v.value for v in read(text, records, scope).verdicts if v.verdict == "false"]

    assert false("EXP-1078 is approved in full: £41.80, under the £60.00 daily limit.") == []
    assert false("EXP-1078 is approved in full: £41.80, under the £65.00 daily limit.") != []  # no record states it
    # an excess over the cap, not a limit: read as any amount (here the claim less what is approved)
    assert false("EXP-1077: £354.00 claimed, £318.00 approved; the £36.00 above the cap isn't covered.") == []


def test_a_day_count_of_the_others_is_not_read_against_the_item_the_sentence_names():
    from datetime import date

    from officesim.evaluators.day_counts import day_count_problems

    invoices = _book(("Invoices", [["Invoice", "Supplier", "Due", "Paid on"],
                                   ["YE-2608-0256", "Yarrow Energy", "2026-09-18", "2026-09-27"]]))
    records = build_records({"data/invoices.xlsx": invoices}, 2026)
    said = "The longest delay was 9 days, on YE-2608-0256 (due 18 Sep, paid 27 Sep); the other six were all paid 8 days late."
    assert day_count_problems(said, records, today=date(2026, 11, 17), year=2026) == []
    assert day_count_problems("YE-2608-0256 (due 18 Sep, paid 27 Sep) was paid 8 days late.", records,
                              today=date(2026, 11, 17), year=2026) != []


def test_the_day_someone_wrote_is_a_messages_day_not_a_date_of_their_row():
    contacts = _book(("Contacts", [["Name", "Email", "Customer since"],
                                   ["Amara Ueda", "amara.ueda@alder.test", "2018-04-14"]]))
    mail = {"kind": "eml", "mailbox": "hugo@fernhill.test", "folder": "inbox", "from": "amara.ueda@alder.test",
            "to": ["hugo@fernhill.test"], "cc": [], "subject": "Prices", "date": "2026-10-10 09:12:00",
            "body": "Dmitri agreed our prices stay as they are.", "attachments": []}
    records = build_records({"data/contacts.xlsx": contacts, "emails/hugo/inbox/1.eml": mail}, 2026)
    assert _false("Amara Ueda wrote on 10 October 2026 that prices stay.", records) == []
    assert _false("Amara Ueda has been a customer since 14 April 2019.", records) != []


# ---- a mail said written to others is not excused by what this one attaches ---------------------------------------

def test_written_to_the_suppliers_is_not_this_mails_attachment():
    from officesim.evaluators.actions import Episode, action_problems

    episode = Episode(frozenset({"mail", "attachment"}), (("sent/1.eml", frozenset({"hugo@harbourline.test"})),),
                      home="harbourline.test")

    def problems(text: str) -> list[str]:
        return action_problems(text, "sent/1.eml", episode, attachments=True, recipients_named=lambda _s: set(),
                               allowed=set(), recorded=lambda _s, _v: None, this="sent/1.eml")

    assert problems("The Q3 list is attached; I've sent the spreadsheet with this mail.") == []
    assert problems("The Q3 list is attached. I've also written to each of the six suppliers concerned to apologise.") != []


def test_days_later_between_the_two_days_a_sentence_gives():
    from datetime import date

    from officesim.evaluators.day_counts import day_count_problems

    orders = _book(("Orders", [["Order", "Customer", "Order date"], ["SO-72411", "Hugo Ltd", "2026-10-16"]]))
    records = build_records({"data/orders.xlsx": orders}, 2026)
    said = ("I'm sorry, we can't accept the return from order SO-72411. The order was placed on 16 October 2026 and your "
            "request reached us on 30 November, {} days later.")
    today = date(2026, 12, 7)  # 52 days after the order: not what "later" counts from
    assert day_count_problems(said.format(45), records, today=today, year=2026) == []
    assert day_count_problems(said.format(52), records, today=today, year=2026) != []
