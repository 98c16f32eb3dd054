"""Classes read since round X (issue 44): honest statements that round Y's right outcomes were failed for, each
with its false twin. Pure functions over small texts and records."""

from __future__ import annotations

from datetime import date, datetime

from officesim.evaluators.claims import claims_in, negated
from officesim.evaluators.day_counts import day_count_problems
from officesim.evaluators.records import build_records
from officesim.evaluators.verdicts import Scope, range_end_problems, read
from officesim.evaluators.statements import cut

NOW = datetime(2026, 11, 16, 9, 0)


def _book(*sheets: tuple[str, list[list]]) -> dict:
    return {"kind": "xlsx", "sheet_order": [n for n, _r in sheets], "sheets": dict(sheets)}


def _register():
    rows = [["Contract", "Supplier", "Expiry", "Notice (days)"],
            ["CTR-2377", "Redfern IT Services", "2027-03-31", "60"],
            ["CTR-2426", "Poppyfield Nurseries", "2027-02-28", "90"]]
    return build_records({"data/contracts.xlsx": _book(("Register", rows))}, 2026)


# ---- a time with am/pm is one time, not also its dotted digits ------------------------------------------------

def test_a_dotted_time_with_pm_is_one_time():
    times = [c for c in claims_in("review 2026-10-27 at 3.30pm", year=2026, kinds=("time",), dotted_times=True)]
    assert [(c.value.hour, c.value.minute) for c in times] == [(15, 30)]
    # a dotted time alone is still read as a time where times are asked for
    alone = claims_in("review 2026-10-27 at 3.30", year=2026, kinds=("time",), dotted_times=True)
    assert [(c.value.hour, c.value.minute) for c in alone] == [(3, 30)]


# ---- "not until" says when, it does not deny the date ----------------------------------------------------------

def test_not_until_is_no_negation():
    assert not negated("The next deadline after these is not until March 31, 2027, outside the window.")
    assert not negated("It isn't due until 4 May.")
    assert negated("The contract does not expire on 31 March 2027.")


# ---- a heading's day count is of the item it heads ------------------------------------------------------------

_HEADED = ("Hi Aiko,\n\nThe contract below, which you own, reaches its notice deadline in {n} days:\n"
           "- CTR-2377 (Redfern IT Services): expiry 31 March 2027; notice period 60 days; last day for written "
           "notice Saturday 30 January 2027.\n\nThanks,\nHana")


def test_a_headings_day_count_is_read_against_the_item_it_heads():
    records = _register()
    assert not day_count_problems(_HEADED.format(n=75), records, today=date(2026, 11, 16), year=2026)
    assert day_count_problems(_HEADED.format(n=45), records, today=date(2026, 11, 16), year=2026)


# ---- days joined by "and" are days, not a range --------------------------------------------------------------

def _escalations():
    rows = [["Customer", "First message", "Last message"], ["Oakmere Libraries", "2026-10-12", "2026-11-14"]]
    return build_records({"data/escalations.xlsx": _book(("Sheet1", rows))}, 2026)


def _ranges(text: str, records) -> list:
    out = []
    for st in cut(text):
        ids = [i for k in records.keys_in(st.text) for i in records.by_key.get(k, ())]
        out += range_end_problems(st, ids, records, 2026)
    return out


def test_days_joined_by_and_are_no_range():
    records = _escalations()
    assert not _ranges("Oakmere Libraries asked about SO-71340 and SO-71145 only on 13 and 14 November.", records)
    assert not _ranges("Oakmere Libraries wrote on 12 Oct, 20 Oct, 13 Nov and 14 Nov.", records)
    # a range is still read: "between 13 October and 14 November" gives a false first day
    assert _ranges("Oakmere Libraries wrote between 13 October and 14 November.", records)
    assert _ranges("Oakmere Libraries wrote from 13 October to 14 November.", records)


# ---- a yes or no is of the row its clause names ---------------------------------------------------------------

def _renewals():
    rows = [["Ref", "Party", "End", "Auto-renew"],
            ["CTR-2328", "Redfern IT Services", "2028-05-31", "Yes"],
            ["CTR-2335", "Ironvale Logistics", "2027-01-31", "No"]]
    return build_records({"data/legal/contracts_register.xlsx": _book(("Contracts", rows))}, 2026)


def test_a_flag_is_read_against_the_row_its_clause_names():
    records = _renewals()
    true = ("Worth noting: Ironvale's contract (CTR-2335) expires on 31 January 2027 and does not renew "
            "automatically, with 60 days' notice; Redfern's (CTR-2328) renews automatically and runs to 31 May 2028.")
    assert not [v for v in read(true, records, Scope(now=NOW, year=2026)).false if v.kind == "state"]
    false = ("Worth noting: Ironvale's contract (CTR-2335) expires on 31 January 2027 and renews "
             "automatically; Redfern's (CTR-2328) runs to 31 May 2028 and does not renew automatically.")
    assert [v for v in read(false, records, Scope(now=NOW, year=2026)).false if v.kind == "state"]


# ---- a party called by its first word with a possessive -------------------------------------------------------

def test_a_possessive_first_word_names_the_one_party_it_starts():
    from officesim.evaluators.verdicts import short_names, true_of_records
    invoices = [["Invoice", "Supplier", "Issued", "Amount", "Paid on"],
                ["IL-1", "Ironvale Logistics", "2026-02-01", "1000.50", "2026-03-01"],
                ["IL-2", "Ironvale Logistics", "2026-05-01", "2000.25", ""],
                ["IL-3", "Ironvale Logistics", "2026-07-01", "3000.25", ""],
                ["YE-1", "Yarrow Energy", "2026-07-01", "5000.25", ""]]
    suppliers = [["Supplier", "Email"], ["Ironvale Logistics", "ap@ironvale.test"], ["Yarrow Energy", "ap@yarrow.test"]]
    records = build_records({"data/invoices.xlsx": _book(("Invoices", invoices)),
                             "data/suppliers.xlsx": _book(("Suppliers", suppliers))}, 2026)
    assert short_names("Ironvale's total comes from 3 invoices.", records) == {"Ironvale": "ironvale logistics"}
    text = "Some background: Ironvale's £6,001.00 comes from 3 invoices, 2 of which ({}) are still unpaid."
    true = text.format("£5,000.50")
    c = next(c for c in claims_in(true, year=2026, kinds=("number",)) if c.text == "£5,000.50")
    assert true_of_records(c, true, records, 2026, frozenset({"ironvale logistics"}))
    false = text.format("£5,200.50")
    c = next(c for c in claims_in(false, year=2026, kinds=("number",)) if c.text == "£5,200.50")
    assert not true_of_records(c, false, records, 2026, frozenset({"ironvale logistics"}))


# ---- a time of the writer's calendar on the day the sentence gives -----------------------------------------------

def test_a_time_an_event_starts_or_ends_that_day_is_true_context():
    from officesim.evaluators.verdicts import event_time_on_day
    calendar = {"kind": "ics", "user": "hana@office.test", "events": [
        {"summary": "Call with Kestrel Paper Co", "start": "2026-11-17 09:00:00", "end": "2026-11-17 09:45:00",
         "uid": "e1", "attendees": []}]}
    records = build_records({"calendar/hana@office.test.ics": calendar}, 2026)
    text = ("I've put the meeting in on Tuesday 17 November at 10am - the 9:00 slot wasn't free as I already "
            "have a meeting until {}.")
    at = text.index("{}")
    for written, true in (("9:45", True), ("9:30", False)):
        said = text.format(written)
        c = next(c for c in claims_in(said, year=2026, kinds=("time",)) if c.start == at)
        assert event_time_on_day(c, said, records, 2026) is true
    # the same time on another day is not that event's
    other = "On Wednesday 18 November I have a meeting until 9:45."
    c = next(c for c in claims_in(other, year=2026, kinds=("time",)))
    assert not event_time_on_day(c, other, records, 2026)


def test_a_spaced_dash_before_a_new_subject_ends_the_clause():
    from officesim.evaluators.claims import polarity_problems
    text = ("I've put a 30-minute meeting in for you on Tuesday 17 November at 10am - the 9:00 slot wasn't free.")
    assert not polarity_problems(text, ["2026-11-17", "10:00"], [], year=2026)
    denied = "The meeting on Tuesday 17 November at 10am - not possible, it wasn't free."
    assert polarity_problems(denied, ["2026-11-17", "10:00"], [], year=2026)


# ---- a total of listed parties, each standing for its own rows ------------------------------------------------

def test_a_total_of_listed_parties_is_the_sum_of_their_own_rows():
    customers = [["Customer", "Email"], ["Alder Street Clinics", "a@alder.test"], ["Cedar Row Hotels", "c@cedar.test"],
                 ["Juniper Dental", "j@juniper.test"]]
    register = [["Contract", "Party", "Ends", "Notice (days)", "Annual value"],
                ["CTR-1", "Alder Street Clinics", "2027-07-31", "60", "100000"],
                ["CTR-2", "Cedar Row Hotels", "2027-05-31", "60", "150000"],
                ["CTR-3", "Juniper Dental", "2027-07-31", "90", "240000"]]
    orders = [["Order", "Customer", "Total"], *[[f"SO-{k}", name, str(300 + k)]
                                                for k in range(12) for name in ("Alder Street Clinics", "Cedar Row Hotels",
                                                                                "Juniper Dental")]]
    records = build_records({"data/customers.xlsx": _book(("Customers", customers)),
                             "data/contracts.xlsx": _book(("Contracts", register)),
                             "data/orders.xlsx": _book(("Orders", orders))}, 2026)
    text = ("Hi Zoe,\n\nThese customers have a fixed-term agreement and got no letter:\n"
            "- Alder Street Clinics: agreement ends 31 July 2027\n- Cedar Row Hotels: agreement ends 31 May 2027\n"
            "- Juniper Dental: agreement ends 31 July 2027\n\nBetween them these agreements are worth {} a year.\n")
    for office in (records, build_records({"data/customers.xlsx": _book(("Customers", customers)),
                                           "data/contracts.xlsx": _book(("Contracts", register))}, 2026)):
        # with many orders a customer names many rows; without them, its customer row alone: either way the
        # total is over each party's own rows
        assert not [v for v in read(text.format("£490,000"), office, Scope(now=NOW, year=2026)).false
                    if "490" in v.value]
        assert [v for v in read(text.format("£520,000"), office, Scope(now=NOW, year=2026)).false if "520" in v.value]


# ---- people: a title said as someone's role, since when they joined, whom they report to -------------------------

def _staff():
    rows = [["Name", "Email", "Team", "Role", "Manager", "Start date"],
            ["Nina Lund", "nina.lund@office.test", "Logistics", "Logistics Coordinator", "Hugo Greco", "2022-03-01"],
            ["Chloe Silva", "chloe.silva@office.test", "Finance", "Accounts Payable Clerk", "Joel Fischer", "2021-05-10"],
            ["Mei Roth", "mei.roth@office.test", "Sales", "Account Executive", "Ines Nair", "2020-04-23"],
            ["Mira Iyer", "mira.iyer@office.test", "Operations", "Warehouse Supervisor", "Hana Costa", "2019-01-07"],
            ["Rosa Tanaka", "rosa.tanaka@office.test", "Operations", "Warehouse Operative", "Mira Iyer", "2023-02-01"],
            ["Hana Costa", "hana.costa@office.test", "Operations", "Head of Operations", "", "2015-01-05"],
            ["Noor Tanaka", "noor.tanaka@office.test", "Logistics", "Head of Logistics", "", "2016-01-05"]]
    return {"data/hr/staff.xlsx": _book(("Staff", rows))}


def test_a_title_said_as_someones_role_is_read_against_their_row():
    from officesim.evaluators.roles import titled_role_problems
    records = build_records(_staff(), 2026)
    to = ["nina.lund@office.test"]
    assert titled_role_problems("We'll look at how the year has gone for you as Warehouse Lead.", to, [], records)
    assert not titled_role_problems("We'll look at how the year has gone for you as Logistics Coordinator.", to, [],
                                    records)
    copied = "Copying Chloe in her role as {} so she can sign off the payments."
    assert titled_role_problems(copied.format("Finance Manager"), ["joel@office.test"], ["chloe.silva@office.test"],
                                records)
    assert not titled_role_problems(copied.format("Accounts Payable Clerk"), ["joel@office.test"],
                                    ["chloe.silva@office.test"], records)
    # a change is not read
    assert not titled_role_problems("Congratulations on your new role as Warehouse Lead.", to, [], records)


def test_since_when_someone_joined_is_their_start_date():
    from officesim.evaluators.tenure import joined_problems
    records = build_records(_staff(), 2026)
    assert joined_problems("Your executive is Mei Roth, who has been with us since 2018.", ["x@client.test"], records)
    assert not joined_problems("Your executive is Mei Roth, who has been with us since 2020.", ["x@client.test"],
                               records)
    assert joined_problems("As you only joined us in 2025, this is your first review.", ["nina.lund@office.test"],
                           records)
    assert not joined_problems("As you joined us in March 2022, this is your first review.", ["nina.lund@office.test"],
                               records)


def test_whom_someone_named_before_reports_to():
    from officesim.evaluators import EvalState
    from officesim.evaluators.truth import reports_to_problems
    files = _staff()
    state = EvalState(files=files, before=files, user_name="Hana Costa")
    said = "From Monday you report to Mira Iyer, who becomes Warehouse Supervisor and will herself report to {}."
    assert reports_to_problems(said.format("Noor Tanaka"), ("rosa.tanaka@office.test",), state)
    assert not reports_to_problems(said.format("Hana Costa"), ("rosa.tanaka@office.test",), state)


# ---- a count of a part of a set the gold writes ---------------------------------------------------------------

def test_a_count_of_a_part_is_one_of_the_parts_the_sheet_gives():
    from officesim.evaluators.task_sets import part_count_problems, part_sizes
    header = ["Invoice", "Supplier", "Amount", "Reminder"]
    rows = [[f"INV-{k}", "Zephyr" if k < 3 else "Pinecrest", 100.0 + k, "No" if k in (0, 7) else "Yes"] for k in range(16)]
    before = {"data/overdue.xlsx": {"kind": "xlsx", "sheets": {"Overdue": [header]}}}
    gold = {"data/overdue.xlsx": {"kind": "xlsx", "sheets": {"Overdue": [header, *rows]}}}
    parts = part_sizes(before, gold)
    assert 14 in parts[16] and 2 in parts[16] and 3 in parts[16]
    assert not part_count_problems("Suppliers have already chased 14 of the 16; the rest have not.", parts, [])
    assert not part_count_problems("Zephyr accounts for 3 of the 16.", parts, [])
    assert part_count_problems("Suppliers have already chased 12 of the 16; the rest have not.", parts, [])
    assert not part_count_problems("Suppliers have chased about 12 of the 16.", parts, [])  # said roughly
    assert not part_count_problems("12 of the 16", parts, [12])  # a count the task gives


# ---- a label before a pair of values is of the pair ------------------------------------------------------------

def test_a_label_before_a_compared_pair_is_not_the_first_values():
    rows = [["Rank", "Supplier", "Invoiced this year", "Contract annual value"],
            [1, "Birchwood Stationers", 108894.93, 101000]]
    records = build_records({"data/ranking.xlsx": _book(("Sheet1", rows))}, 2026)
    scope = Scope(now=NOW, year=2026)
    true = "- Birchwood Stationers is closest to its contract: £108,894.93 against £101,000 (£7,894.93 over)."
    assert not read(true, records, scope).false
    false = "- Birchwood Stationers has a contract value of £108,894.93."
    assert read(false, records, scope).false


# ---- whom a booked meeting is with: a list after "with", and "will be joining us for it" ------------------------

def test_people_said_to_attend_the_booked_meeting_are_its_invitees():
    from officesim.evaluators.state import EvalState
    from officesim.evaluators.truth import attendee_problems

    mail = {"kind": "eml", "from": "hana@h.test", "to": ["viktor.moss@h.test"], "date": "2026-11-10 09:00:00",
            "subject": "Review", "body": "Hi"}
    staff = {"kind": "xlsx", "sheet_order": ["S"], "sheets": {"S": [
        ["Name", "Email"], ["Amara Wolff", "amara.wolff@h.test"], ["Sven Rahman", "sven.rahman@h.test"],
        ["Mei Tanaka", "mei.tanaka@h.test"]]}}
    calendar = {"kind": "ics", "events": [{"summary": "Escalation: Juniper Dental", "start": "2026-11-17 10:00:00",
                                           "end": "2026-11-17 10:30:00", "attendees": ["sven.rahman@h.test",
                                                                                       "mei.tanaka@h.test"]}]}
    before = {"data/staff.xlsx": staff, "emails/hana@h.test/inbox/msg-1.eml": mail,
              "calendar/hana@h.test.ics": {"kind": "ics", "events": []}}
    state = EvalState(files={**before, "calendar/hana@h.test.ics": calendar}, before=before, user="hana@h.test",
                      now=datetime(2026, 11, 10, 9), people={"Amara Wolff": "amara.wolff@h.test",
                                                            "Sven Rahman": "sven.rahman@h.test",
                                                            "Mei Tanaka": "mei.tanaka@h.test"})
    listed = "I've booked the meeting on Tuesday 17 November 2026 at 10:00 with you, Mei Tanaka and {}."
    assert attendee_problems(listed.format("Amara Wolff"), state)
    assert not attendee_problems(listed.format("Sven Rahman"), state)
    later = "I've booked the meeting for Tuesday 17 November 2026 at 10:00. {} will be joining us for it as well."
    assert attendee_problems(later.format("Amara Wolff"), state)
    assert not attendee_problems(later.format("Sven Rahman"), state)


# ---- the first of the items a text lists -------------------------------------------------------------------------

def test_the_first_of_a_list_is_the_item_with_its_first_date():
    from officesim.evaluators.superlatives import listed_first_problems
    text = ("Hi Zoe,\n\nThese customers have a fixed-term agreement and got no letter:\n"
            "- Alder Street Clinics: agreement ends 31 July 2027\n- Juniper Dental: agreement ends 31 July 2027\n"
            "- Nettle Cross Garages: agreement ends 30 April 2027\n\nThe first of these to come up for renewal is {}.\n")
    assert listed_first_problems(text.format("Juniper Dental, at the end of July"), 2026)
    assert not listed_first_problems(text.format("Nettle Cross Garages, at the end of April"), 2026)
    reviews = ("1. Alder Street Clinics - review 2026-10-27 at 3.30pm (the first of the two)\n"
               "2. Nettle Cross Garages - review 2026-11-04 at 3.30pm\n\n{} is your first review.")
    assert not listed_first_problems(reviews.format("Alder Street Clinics"), 2026)
    assert listed_first_problems(reviews.format("Nettle Cross Garages"), 2026)
    # "first" of something else is not read
    assert not listed_first_problems(reviews.format("Nettle Cross Garages asked first of all whether it"), 2026)


# ---- an excluded item set aside as booked, in a table under its heading or in a clause of its own ----------------

def test_an_excluded_item_said_as_booked_is_set_aside():
    from officesim.evaluators.exact import set_aside_as
    table = ("Hi Sven,\n\nFour of the five reviews due in the next four weeks are booked (you're invited):\n\n"
             "| Name | Review |\n|---|---|\n| Viktor Moss | Tue 17 Nov, 14:00 |\n| Chloe Kovac | Tue 17 Nov, 15:00 |\n\n"
             "The one I couldn't fit is Omar Kaur.")
    assert set_aside_as(table, "Viktor Moss", ["booked"], ["Omar Kaur"], year=2026)
    prose = ("The other four (Viktor Moss, Chloe Kovac) are booked with you invited, and Milan's date is more than "
             "four weeks away, so nothing else is outstanding for now.")
    assert set_aside_as(prose, "Viktor Moss", ["booked"], ["Omar Kaur"], year=2026)
    # a denial in the item's own clause still counts: it is part of the answer
    denied = "Viktor Moss is not booked yet, and Chloe Kovac is booked."
    assert not set_aside_as(denied, "Viktor Moss", ["booked"], ["Omar Kaur"], year=2026)
    unheaded = "| Viktor Moss | not booked |"
    assert not set_aside_as(unheaded, "Viktor Moss", ["booked"], ["Omar Kaur"], year=2026)


# ---- a month's total of a whole table ----------------------------------------------------------------------------

def test_an_amount_said_of_a_month_is_a_tables_total_over_that_month():
    from officesim.evaluators.verdicts import month_total
    orders = [["Order", "Date", "Region", "Total"], ["SO-1", "2026-09-03", "North", 1000.25],
              ["SO-2", "2026-09-20", "South", 2000.25], ["SO-3", "2026-10-02", "North", 500.00]]
    records = build_records({"data/orders.xlsx": _book(("Orders", orders))}, 2026)
    text = "October came to £500.00. That's well below September ({})."
    for written, true in (("£3,000.50", True), ("£3,100.50", False)):
        said = text.format(written)
        c = next(c for c in claims_in(said, year=2026, kinds=("number",)) if c.text == written)
        assert month_total(c, said, records, 2026) is true
    # a month of one row is that row's own amount: "ordered 2 October (£500.00)" is no month's total
    one = "SO-3 was ordered 2 October (£500.00)."
    c = next(c for c in claims_in(one, year=2026, kinds=("number",)) if c.text == "£500.00")
    assert not month_total(c, one, records, 2026)
