"""Classes a blind calibration round found (issue 44, helper-12, 8 hard tasks no audit had touched): each
true statement below failed and each false one passed before. Pure functions, no office on disk."""

from __future__ import annotations

from datetime import datetime

import pytest

from officesim.evaluators.claims import (
    Claim,
    Support,
    _decision_words,
    _named_beside,
    _part_of,
    claims_in,
    rebound_problems,
    set_aside,
    stray_claims,
)
from officesim.evaluators.facts import REFERENCE_NOW, dates_in, weekday_conflicts
from officesim.evaluators.statements import cut
from officesim.evaluators.verdicts import listed_counts
from tests._headings import heading_verdicts

NOW = datetime(2026, 12, 7, 9)


def test_a_tables_header_row_is_not_counted_as_an_item():
    table = ("Two contracts reach their notice deadline. In deadline order:\n\n"
             "Ref | Party | Notice by\nCTR-2300 | Cobalt Software | 2027-01-29\nCTR-2468 | Kite Field | 2027-01-30\n")
    assert heading_verdicts(table) == []
    markdown = table.replace("Ref | Party | Notice by\n", "| Ref | Party | Notice by |\n|---|---|---|\n")
    assert heading_verdicts(markdown) == []
    three = table.replace("Two contracts", "Three contracts")
    assert [v.why for v in heading_verdicts(three)] == ["counts 3 contracts, but 2 are listed under it"]


def test_a_heading_with_several_counts_is_false_only_when_none_fits():
    note = ("In deadline order (two in all; three deadlines, Vantage, Ironvale and Elmstead, already passed and "
            "are left out):\n- CTR-1: 29 January\n- CTR-2: 30 January\n")
    assert heading_verdicts(note) == []
    assert heading_verdicts(note.replace("two in all", "four in all")) != []


def test_a_lists_parts_are_counted_only_when_each_is_a_name():
    booked = ("Booked four reviews (Olga Banerjee and Grace Qureshi on 8 December at 14:00 and 15:00, Esme Vance "
              "on 11 December at 15:00, Hana Banerjee on 18 December at 14:00).")
    assert listed_counts(booked, 2026) == []
    assert [v.why for v in listed_counts("I booked three reviews: Olga, Grace, Esme and Hana.", 2026)] == [
        "counts 3 reviews, but lists 4"]


def test_numbers_written_as_references_may_be_named_to_be_set_aside():
    text = "Waiting: #5101, #5102.\n(#5110 and #5126 were later marked resolved, so I've left them off.)"
    found = {c.text: set_aside(text, c) for c in claims_in(text, year=2026) if c.kind == "number"}
    assert found == {"5101": False, "5102": False, "5110": True, "5126": True}


@pytest.mark.parametrize("text, words", [
    ("Sorry, EXP-1081 is rejected (approved amount £0.00).", {"rejected"}),
    ("EXP-1081 approved £0.00, rejected.", {"rejected"}),
    ("EXP-1081 is approved: £480.00.", {"approved"}),
    ("EXP-1081 approved £0.50.", {"approved"}),
    ("Unfortunately EXP-1125 is rejected (nothing approved): it came in too late.", {"rejected"}),
])
def test_a_nil_approved_amount_decides_nothing(text, words):
    assert [w for _c, _clause, w in _decision_words(text, 2026)] == [words]


def test_a_date_written_without_its_year_is_the_one_nearest_today_then_this_years():
    token = REFERENCE_NOW.set(NOW)
    try:
        said = "As 30 January is a Saturday, the reminder is on Friday 29 January; the review was on 15 June."
        # the nearest reading first; this year's too where no weekday picks ("due 30 January" may be past)
        assert [str(m.value) for m in dates_in(said, 2026)] == ["2027-01-30", "2026-01-30", "2027-01-29",
                                                                "2026-06-15"]
        assert weekday_conflicts(said, 2026) == []
        assert weekday_conflicts("The deadline is Friday 30 January.", 2026) != []  # 30 January 2027 is a Saturday
    finally:
        REFERENCE_NOW.reset(token)


def _money(text: str, value: str) -> Claim:
    return next(c for c in claims_in(text, year=2026, kinds=("number",)) if c.text.strip().endswith(value))


POLICY = [(c, {"dublin", "night"}, 7) for c in claims_in("Dublin: £185.00 a night", year=2026, kinds=("number",))]


def test_a_value_named_beside_another_things_line_is_that_things():
    true = "EXP-1077 (Dublin hotel, 2 nights) is approved in full, £354.00, within the £185.00 a night cap for Dublin."
    assert _named_beside(_money(true, "185.00"), true, POLICY, set())
    false = "EXP-1077 (Dublin hotel, 2 nights) is approved in full: £185.00."
    assert not _named_beside(_money(false, "185.00"), false, POLICY, set())
    elsewhere = "EXP-1079 (Lisbon hotel) is approved within the £185.00 a night cap."
    assert not _named_beside(_money(elsewhere, "185.00"), elsewhere, POLICY, set())


def test_a_part_of_a_whole_is_not_an_alternative_answer():
    text = "I've partly approved EXP-1079: £480.00 of the £516.00 claimed (or £500.00)."
    fact, whole, other = (_money(text, v) for v in ("480.00", "516.00", "500.00"))
    assert _part_of(fact, whole, text) and not _part_of(fact, other, text)


def test_a_worked_out_figure_may_take_its_operands_from_the_sentence_before():
    support = Support(expected=["£60.00", "£84.50"])

    def strays(text: str) -> list[str]:
        return [c.text.strip() for c in stray_claims(text, support, year=2026, now=NOW, directory=None)]

    assert strays("Partly approved: £60.00 of £84.50. So £24.50 can't be covered.") == []
    assert strays("Partly approved: £60.00 of £84.50. So £14.50 can't be covered.") == ["£14.50"]
    assert strays("Partly approved: £60.00 of £84.50.\n\nThe other £24.50 is a mystery.") == ["£24.50"]


def test_an_expected_value_given_to_another_item_than_the_golds_is_false():
    support = Support(expected=["EXP-1080", 60.0], texts=[
        "Reply to each claim.", "Hi Clara,\n\nI've partly approved EXP-1080: £60.00, as meals are capped."])
    wrong = rebound_problems("Hi Clara,\n\nI've partly approved EXP-1079: £60.00, as meals are capped.", support, [],
                             year=2026)
    assert wrong == ["gives '£60.00' to EXP-1079, where the work gives it to another item"]
    assert rebound_problems("Hi Clara,\n\nEXP-1080 is partly approved: £60.00.", support, [], year=2026) == []
    # the office states the value of the item named too: true of it, not given to the wrong item
    office = [(c, set(), 3) for c in claims_in("EXP-1079 | Lisbon | 60.00", year=2026, kinds=("id", "number"))]
    assert rebound_problems("Hi Clara,\n\nEXP-1079 is £60.00.", support, office, year=2026) == []


def test_a_count_of_what_the_writer_did_is_how_many_the_episode_did():
    from officesim.evaluators.actions import counted_action_problems

    did = frozenset({6.0, 4.0, 1.0})  # 6 rows changed, 4 events, 1 mail
    assert counted_action_problems("I held 6 invoices and booked 4 reviews.", did) == []
    assert counted_action_problems("Booked four probation reviews (Olga, Grace, Esme, Hana).", did) == []
    for false in ("I held 5 invoices.", "All five probation reviews are booked.", "I found and added 5 missing lines."):
        assert counted_action_problems(false, did), false
    for nothing in ("I will book 5 reviews.", "We sent 2 reminders last week.", "Booked 5 nights.",
                    "I have not held 3 invoices."):
        assert counted_action_problems(nothing, did) == [], nothing


def _records(rows: list[list]):
    from officesim.evaluators.records import build_records

    return build_records({"data/t.xlsx": {"kind": "xlsx", "sheet_order": ["T"], "sheets": {"T": rows}}}, 2026)


def _false(text: str, records) -> list[str]:
    from officesim.evaluators.verdicts import Scope, read

    return [v.value for v in read(text, records, Scope(year=2026)).false]


def test_a_rows_category_said_as_another_value_of_its_column_is_false():
    records = _records([["Customer", "Region", "Product", "Status"]] + [
        [name, region, product, status] for name, region, product, status in [
            ("Upland Outdoor", "North", "Shredder", "Open"), ("Juniper Dental", "South", "Standing desk", "Paid"),
            ("Gull Point", "East", "Shredder", "Open"), ("Rowan Park Gyms", "South", "Standing desk", "Open"),
            ("Kite Co", "North", "Shredder", "Paid"), ("Pine Ltd", "East", "Standing desk", "Paid")]])
    assert _false("Upland Outdoor (South region) has gone quiet.", records) == ["South"]
    assert _false("Upland Outdoor last bought 21 standing desks.", records) == ["standing desks"]
    assert _false("Upland Outdoor (North) last bought shredders.", records) == []
    assert _false("Upland Outdoor and Juniper Dental (South) are quiet.", records) == []  # Juniper's region
    assert _false("Upland Outdoor has paid.", records) == []  # a state, said in passing, is no category


def test_a_duration_said_of_a_row_is_the_one_its_labelled_column_gives():
    records = _records([["Contract", "Party", "Notice period (days)"], ["CTR-2426", "Beacon Hill Schools", 90],
                        ["CTR-2433", "Nettle Cross Garages", 30]])
    assert _false("- CTR-2426 (Beacon Hill Schools): auto-renews; 30-day notice period", records) == [
        "30-day notice period"]
    assert _false("- CTR-2426 (Beacon Hill Schools): auto-renews; 90-day notice period", records) == []
    assert _false("CTR-2426: please reply within 30 days.", records) == []  # no column of that name


def test_a_booking_claimed_at_a_time_no_new_event_has_is_false():
    from datetime import time

    from officesim.evaluators.truth import booked_time_problems

    made = frozenset({time(9, 0), time(10, 0)})
    assert booked_time_problems("I've blocked tomorrow 14:00-15:00 for the review.", made)
    assert booked_time_problems("I've booked tomorrow 9:00-10:00.", made) == []
    assert booked_time_problems("I have booked the room from 9am to 10am.", made) == []
    assert booked_time_problems("I've moved the 14:00 call to 9:00.", made) == []
    assert booked_time_problems("I've blocked tomorrow 14:00-15:00.", frozenset()) == []  # no event made: read apart


def test_a_value_given_under_a_rows_label_is_that_labels_value_even_in_the_future():
    from datetime import datetime as dt

    records = _records([["Contract", "Party", "Expires"], ["CTR-2300", "Cobalt Software", dt(2027, 2, 28)],
                        ["CTR-2468", "Kite Field Sports", dt(2027, 4, 30)]])
    assert _false("CTR-2300 (Cobalt Software) expires 31 January 2027.", records) == ["31 January 2027"]
    assert _false("CTR-2300 (Cobalt Software) expires 28 February 2027.", records) == []
    assert _false("CTR-2300: I'll remind you on 29 January 2027.", records) == []  # not a label of the row


def test_a_sentence_after_marked_items_is_not_one_of_them():
    from officesim.evaluators.statements import items_under

    text = "Recorded 2 deliveries:\n- PO-1: 3 Dec\n- PO-2: 4 Dec\nOrders without a notice were left as they were.\n"
    assert len(items_under(cut(text), 0)) == 2
    plain = "Two orders are late:\nPO-1 from Acme\nPO-2 from Birch\n"  # plain lines right under a heading still are
    assert len(items_under(cut(plain), 0)) == 2


def test_a_total_said_between_them_or_a_gap_behind_is_worked_out():
    support = Support(expected=["£128,172.62", "£119,352.36", "£100,000.00"])

    def strays(text: str) -> list[str]:
        return [c.text.strip() for c in stray_claims(text, support, year=2026, now=NOW, directory=None)]

    ranked = "- Ironvale: £128,172.62\n- Redfern: £119,352.36\n- Yarrow: £100,000.00\n"
    assert strays(ranked + "Between them they have invoiced £347,524.98.") == []
    assert strays(ranked + "Between them they have invoiced £347,000.00.") == ["£347,000.00"]
    assert strays("Ironvale leads with £128,172.62; Redfern is second with £119,352.36, £8,820.26 behind.") == []


def test_an_amount_a_night_is_the_items_amount_over_its_nights():
    from officesim.evaluators.verdicts import true_of_records

    records = _records([["Claim", "Employee", "Check-in", "Check-out", "Amount"],
                        ["EXP-1121", "Keiko Sato", "2026-10-06", "2026-10-08", 354.0]])

    def true(text: str, value: float) -> bool:
        claim = next(c for c in claims_in(text, year=2026, kinds=("number",)) if c.value == value)
        return true_of_records(claim, text, records, 2026)

    assert true("EXP-1121 is approved in full: £354.00 (£177.00 a night).", 177.0)  # two nights
    assert not true("EXP-1121 is approved in full: £354.00 (£118.00 a night).", 118.0)
    assert true("EXP-1121 is approved in full: £354.00 (£118.00 a day).", 118.0)  # three days


def test_a_booking_claimed_on_a_day_no_new_event_is_on_is_false():
    from datetime import date, time

    from officesim.evaluators.truth import booked_time_problems

    made, days = frozenset({time(14, 0), time(15, 0)}), frozenset({date(2026, 10, 20), date(2026, 10, 28)})
    said = "I've pencilled in a provisional review for Monday 9 November at 14:00, just after he's back."
    assert booked_time_problems(said, made, days, 2026)
    assert booked_time_problems(said.replace("Monday 9 November", "Tuesday 20 October"), made, days, 2026) == []
    # a day that is not the booking's, beside the booking's own
    assert booked_time_problems("I've booked your review for Tuesday 20 October, before your six-month date "
                                "of 23 October.", made, days, 2026) == []


def test_a_note_dropped_to_someone_is_a_mail():
    from officesim.evaluators.actions import action_claims

    assert [c.shows for c in action_claims("I've dropped Chloe Silva in accounts payable a short note.")] == ["mail"]


def test_true_context_honest_agents_add_read_by_its_form():
    """Figures a careful writer works out or restates, each read by the form it is written in."""
    from datetime import date

    from officesim.evaluators.actions import action_claims
    from officesim.evaluators.claims import Claim, _part_of, claims_in, column_totals, scaled_by_words
    from officesim.evaluators.statements import items_above
    from officesim.evaluators.truth import period_bound
    from officesim.evaluators.verdicts import _OTHERS_CLAUSE, listed_counts

    table = ("Supplier | Contract | Annual value | Invoiced\nBramble | CTR-2307 | £45,500.00 | £78,932.01\n"
             "Ironvale | CTR-2335 | £63,500.00 | £128,172.62\n\nBetween them that is £207,104.63.")
    assert 207104.63 in [round(t, 2) for t in column_totals(table, 2026)]
    assert 414209.26 not in [round(t, 2) for t in column_totals(table, 2026)]  # the line under it is no row

    task = "List suppliers that invoiced more than one and a half times their contract's annual value."
    line = "Zephyr is close behind at £86,785.37 against £58,500.00, just under its £87,750.00 line."
    amount = next(c for c in claims_in(line, year=2026) if c.text == "£87,750.00")
    assert scaled_by_words(amount, line, task, 2026)
    other = line.replace("87,750.00", "88,750.00")
    assert not scaled_by_words(next(c for c in claims_in(other, year=2026) if c.text == "£88,750.00"), other, task, 2026)
    assert scaled_by_words(Claim("number", 1.5, "1.5"), "above 1.5x the annual value", task, 2026)
    assert not scaled_by_words(Claim("number", 1.6, "1.6"), "above 1.6x the annual value", task, 2026)

    quarter = "4 late deliveries in the current quarter (1 October – 31 December 2026)."
    ends = [c for c in claims_in(quarter, year=2026, kinds=("date",))]
    assert all(period_bound(c, quarter, date(2026, 11, 30)) for c in ends)
    moved = quarter.replace("31 December", "30 December")
    assert not all(period_bound(c, moved, date(2026, 11, 30)) for c in claims_in(moved, year=2026, kinds=("date",)))

    said = "invoiced £112,467.86 across 38 invoices (£8,487.25 unpaid)"
    whole, part = [c for c in claims_in(said, year=2026) if c.currency]
    assert _part_of(whole, part, said)
    assert not _part_of(whole, part, said.replace("(£8,487.25 unpaid)", "or £8,487.25"))

    listed = "Over the line:\n- Bramble\n- Ironvale\n- Yarrow\n\nThe PDFs agree for all three."
    assert items_above(listed, listed.index("three")) == 3
    assert items_above("No list here, all three.", 20) == 0

    chased = "A180 and A181 are overdue and have been chased; the rest are due between 8 and 15 December."
    assert _OTHERS_CLAUSE.search(chased, 0, chased.index("8 and")) and not _OTHERS_CLAUSE.search(chased, 0, 4)
    assert [c.stem for c in action_claims("I've blocked Tuesday 20 October, 09:00–10:00 to clear them.")] == ["book"]
    assert listed_counts("The sheet shows 15 more deliveries (PO-4587 to PO-4632).", 2026) == []
    assert listed_counts("The sheet shows 3 deliveries (PO-4587 and PO-4632).", 2026) != []


def test_a_category_is_said_of_the_name_nearest_it_and_a_much_mentioned_name_has_its_listed_row():
    rows = [["Customer", "Region", "Product"]] + [[n, r, p] for n, r, p in [
        ("Gull Point Marinas", "South", "Shredder"), ("Upland Outdoor", "West", "Standing desk"),
        ("Kite Co", "North", "Shredder"), ("Pine Ltd", "South", "Standing desk"), ("Birch Co", "West", "Shredder"),
        ("Ash Ltd", "North", "Standing desk")]]
    orders = [["Order", "Customer", "Total"]] + [[f"SO-{7000 + i}", "Gull Point Marinas", 10.0 + i] for i in range(45)]
    from officesim.evaluators.records import build_records

    records = build_records({"data/customers.xlsx": {"kind": "xlsx", "sheet_order": ["C"], "sheets": {"C": rows}},
                             "data/orders.xlsx": {"kind": "xlsx", "sheet_order": ["O"], "sheets": {"O": orders}}}, 2026)
    # Gull Point Marinas names 46 rows, too many to bind; its row of the customer list says its region
    assert _false("- Gull Point Marinas (West): account review on Tuesday", records) == ["West"]
    assert _false("- Gull Point Marinas (South): account review on Tuesday", records) == []
    # two rows' categories swapped in one sentence
    assert "West" in _false("Gull Point Marinas is a West customer and Upland Outdoor a South one.", records)
    assert _false("Gull Point Marinas is a South customer and Upland Outdoor a West one.", records) == []
    assert _false("Gull Point Marinas is not a West customer.", records) == []


def test_a_name_given_to_an_item_is_read_though_a_denial_follows_of_something_else():
    from officesim.evaluators.records import build_records
    from officesim.evaluators.verdicts import Binder

    rows = [["Invoice", "Supplier"]] + [[f"TF-{100 + i}", "Thornbury Furniture"] for i in range(3)] + \
        [[f"UF-{200 + i}", "Umber Freight"] for i in range(3)]
    records = build_records({"data/inv.xlsx": {"kind": "xlsx", "sheet_order": ["I"], "sheets": {"I": rows}}}, 2026)
    binder = Binder(records)
    assert binder.rival_names("Invoice TF-100 is one of Umber Freight's invoices rather than yours.")
    assert binder.rival_names("Invoice TF-100 is not one of Umber Freight's invoices.") == []
    assert binder.rival_names("| Umber Freight | TF-100 | Not theirs |") == []


def test_a_rate_of_the_one_item_a_text_names_is_its_amount_over_its_count():
    records = _records([["Claim", "City", "Nights", "Amount"], ["EXP-1133", "Milan", 3, 546.0],
                        ["EXP-1134", "Milan", 2, 300.0], ["EXP-1135", "Lisbon", 2, 394.0]])
    text = "Thanks for EXP-1133. I've partly approved it: Milan is capped at £170.00 a night and yours was £182.00 a night."
    assert "£182.00" not in _false(text, records)
    from officesim.evaluators.claims import claims_in
    from officesim.evaluators.verdicts import worked_out

    t = "EXP-1133: £546.00 for 3 nights. Your rate was £182.00 a night; £36.00 over."
    rate = [c for c in claims_in(t, year=2026, kinds=("number",)) if c.value == 182][0]
    assert worked_out(rate, t, 2026)
    wrong = [c for c in claims_in(t.replace("182.00", "192.00"), year=2026, kinds=("number",)) if c.value == 192][0]
    assert not worked_out(wrong, t.replace("182.00", "192.00"), 2026)


def test_an_amount_named_as_a_limit_is_a_rule_not_an_alternative():
    from officesim.evaluators.claims import claims_in
    from officesim.evaluators.verdicts import said_as_limit

    for text, limit in (("approved in full, £41.80 — under the £60.00 daily meals limit.", True),
                        ("It's above the £160.00 Lisbon cap, so ...", True),
                        ("the meals limit of £60.00 applies", True),
                        ("approved £41.80 or £60.00 in full", False)):
        c = [c for c in claims_in(text, year=2026, kinds=("number",)) if c.value == 60 or c.value == 160][0]
        assert said_as_limit(c, text) is limit, text


def test_a_short_documents_lines_are_about_the_identifiers_it_opens_with():
    from officesim.evaluators.claims import office_sources

    pdf = {"kind": "pdf", "pages": ["Credit note: CN-SC-2611-045\nSupplier: Saltmarsh Cleaning\nAmount credited: £463.04"]}
    sources = office_sources({"data/cn.pdf": pdf}, 2026)
    units = {u for v, _w, u in sources if v.kind == "number" and v.value == 463.04}
    assert any(v.kind == "id" and u in units for v, _w, u in sources)


def test_an_identifier_many_lines_mention_has_the_row_of_the_table_that_lists_it_once():
    from officesim.evaluators.records import build_records
    from officesim.evaluators.verdicts import Binder

    budget = [["Cost centre", "Name", "Budget"], ["CC-310", "Purchasing", 50000.0], ["CC-410", "Operations", 84000.0]]
    ledger = [["Date", "Cost centre", "Amount"]] + [[f"2026-07-{1 + i % 28:02d}", "CC-410", 100.0 + i] for i in range(60)]
    records = build_records({"data/budget.xlsx": {"kind": "xlsx", "sheet_order": ["B"], "sheets": {"B": budget}},
                             "data/ledger.xlsx": {"kind": "xlsx", "sheet_order": ["L"], "sheets": {"L": ledger}}}, 2026)
    assert records.named("#CC410") == []  # 61 rows: too many to bind
    binder = Binder(records)
    assert binder.rival_names("CC-410 (Purchasing): spent £88,654.97 against a budget of £84,000.00")
    assert binder.rival_names("CC-410 (Operations): spent £88,654.97 against a budget of £84,000.00") == []


def test_a_limit_is_true_only_where_a_line_states_it_with_what_it_is_of():
    from types import SimpleNamespace

    from officesim.evaluators.claims import claims_in, office_sources
    from officesim.evaluators.truth import _stated_with_words

    policy = {"kind": "docx", "paragraphs": ["Meals: £60.00 per day", "Hotel, Hamburg: £175.00 a night",
                                             "Hotel, Dublin: £185.00 a night"]}
    state = SimpleNamespace(memo={"sources": office_sources({"data/policy.docx": policy}, 2026)})
    for text, true in (("approved in full, £41.80 — under the £60.00 daily meals limit.", True),
                       ("£167.00 a night, inside the policy's £175.00 Hamburg cap.", True),
                       ("£167.00 a night, inside the policy's £185.00 Hamburg cap.", False)):
        c = [c for c in claims_in(text, year=2026, kinds=("number",)) if c.value in (60, 175, 185)][0]
        assert _stated_with_words(c, text, state) is true, text


def test_names_listed_beside_an_identifier_are_other_items_not_rival_names():
    from officesim.evaluators.records import build_records
    from officesim.evaluators.verdicts import Binder

    orders = [["Order", "Customer", "Product"], ["SO-71029", "Dovetail Joinery", "Desk Lamp"],
              ["SO-71030", "Teasel Vets", "Chair"], ["SO-71031", "Nettle Cross Garages", "Desk"]]
    records = build_records({"data/orders.xlsx": {"kind": "xlsx", "sheet_order": ["O"], "sheets": {"O": orders}}}, 2026)
    binder = Binder(records)
    listed = ("No reply yet: Teasel Vets (24 Sep) and Dovetail Joinery (28 Sep, 'Question about order SO-71029'), "
              "and Nettle Cross Garages (1 Oct).")
    assert binder.rival_names(listed) == []
    assert binder.rival_names("Order SO-71029 from Teasel Vets is late.")
