"""Classes read since round AJ (issue 44): statements fresh blind rounds were graded wrongly on, each beside its
twin. Pure functions over small texts, tables and records."""

from __future__ import annotations

from officesim.evaluators.actions import action_claims
from tests._headings import heading_verdicts


def test_a_verb_whose_object_is_nothing_claims_no_action():
    assert not action_claims("I've changed nothing in the register.")
    assert not action_claims("We've sent no reminders yet, as none is due.")
    assert not action_claims("I have told no one else.")
    assert [c.stem for c in action_claims("I've changed the register.")] == ["record"]
    # "No. 4" is an item, not a negation
    assert [c.stem for c in action_claims("I've updated No. 4 in the tracker.")] == ["record"]


def test_all_the_records_gone_through_are_not_what_the_list_holds():
    items = ("1. CTR-2321 Kestrel Paper Co, notice by 2026-11-02\n2. CTR-2377 Redfern IT Services, notice by 2027-01-30\n"
             "3. CTR-2300 Thornbury Furniture, notice by 2027-03-31\n")
    assert not heading_verdicts("I compared the renewal clause in all 26 signed contracts against the register, and "
                               "they agree, so the list is:\n" + items)
    assert heading_verdicts("All 4 contracts that renew automatically are:\n" + items)


def _false(text: str, records, **kw) -> list[str]:
    from datetime import datetime

    from officesim.evaluators.verdicts import Scope, read
    reading = read(text, records, Scope(year=2026, now=datetime(2026, 11, 16, 9, 0)), **kw)
    return [v.value for v in reading.verdicts if v.verdict == "false"]


def _office():
    from officesim.evaluators.records import build_records
    staff = [["Name", "Email", "Team", "Role", "Phone"],
             ["Yara Stahl", "yara.stahl@harbourline.test", "Sales", "Account Executive", "+44 20 7946 8700"],
             ["Nadia Sousa", "nadia.sousa@harbourline.test", "Sales", "Account Executive", "+44 20 7946 4189"],
             ["Idris Berg", "idris.berg@harbourline.test", "Sales", "Regional Sales Manager", "+44 20 7946 7509"],
             ["Idris Weber", "idris.weber@harbourline.test", "Finance", "Accountant", "+44 20 7946 1234"],
             ["Idris Sato", "idris.sato@harbourline.test", "Legal", "Paralegal", "+44 20 7946 2345"]]
    customers = [["Customer", "Region", "Account executive"], ["Wren House Hostels", "South", "Nadia Sousa"],
                 ["Sorrel Bay Cafes", "North", "Aiko Amari"], ["Larch Mill Breweries", "East", "Yara Dubois"],
                 ["Poppyfield Nurseries", "East", "Yara Dubois"], ["Ivy Lane Bakeries", "South", "Aiko Amari"],
                 ["Nettle Cross Garages", "West", "Aiko Amari"], ["Quill & Ink Bookshops", "West", "Idris Berg"],
                 *([f"Customer {k}", ["North", "South", "East", "West"][k % 4], "Yara Stahl"] for k in range(12))]
    return build_records({"data/people/staff_directory.xlsx": {"kind": "xlsx", "sheet_order": ["Staff"],
                                                                "sheets": {"Staff": staff}},
                          "data/sales/customers.xlsx": {"kind": "xlsx", "sheet_order": ["Customers"],
                                                        "sheets": {"Customers": customers}}}, 2026)


def test_a_first_name_the_text_wrote_in_full_binds_its_statement():
    records = _office()
    said = ("I'm writing to let you know that Idris Berg, one of our Regional Sales Managers, now looks after "
            "your account. Idris is copied here and can be reached on {phone}.")
    subject = "Your new account executive"
    assert _false(said.format(phone="+44 20 7946 7509"), records, subject=subject) == []
    assert _false(said.format(phone="+44 20 7946 8700"), records, subject=subject) != []


def test_a_value_in_a_heading_may_be_of_what_it_heads():
    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import Binder, Scope, category_problems
    records = _office()
    binder = Binder(records)

    def said(text: str) -> list[str]:
        st = cut(text)[0]
        own, spans = binder.bind(st.text)
        return [v.value for v in category_problems(st, own, spans, records, Scope(year=2026))]

    assert said("Alongside Wren House Hostels, you now also have Aiko Amari's North customer:\n- Sorrel Bay Cafes\n") == []
    assert said("Wren House Hostels is in the East region.") == ["East"]


def test_a_look_alike_said_to_fall_short_is_denied():
    from officesim.evaluators.exact import denied_as
    words = ["flagged", "listed", "over", "above", "exceed", "past", "more than"]
    assert denied_as("For reference, the nearest miss is Zephyr Couriers (CTR-2384) at £86,785.37 against £58,500.00, "
                     "about 1.48x, so just under the line.", "CTR-2384", words, year=2026)
    assert not denied_as("Zephyr Couriers (CTR-2384) is also over the line.", "CTR-2384", words, year=2026)
    assert not denied_as("Zephyr Couriers (CTR-2384) is just under the line but over its budget.", "CTR-2384", words,
                         year=2026)
    # the contrary denies only being over: not a word of another kind
    assert not denied_as("Zephyr Couriers (CTR-2384) is under review.", "CTR-2384", ["flagged", "listed"], year=2026)


def test_the_tasks_multiplier_as_a_percentage_or_of_a_lines_amount_is_its_rule():
    from officesim.evaluators.claims import multiples_of, _task_multiple, claims_in
    task = ["Which suppliers invoiced us more than one and a half times their contract's annual value this year?"]
    text = ("- Bramble (CTR-2307): annual value £45,500.00, invoiced £78,932.01 (1.5x would be £68,250.00)\n"
            "These exceed 150% of the annual value, one by 160%; 1.5x would be £69,250.00.")
    written = claims_in(text, year=2026, kinds=("number",))
    judged = {c.text: _task_multiple(c, text, multiples_of(task), written) for c in written}
    assert judged["£68,250.00"] and judged["150"]
    assert not judged["160"] and not judged["£69,250.00"] and not judged["£78,932.01"]


def test_a_sum_of_the_items_above_may_be_of_any_one_of_their_figures():
    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import _sum_written_above
    text = ("Three suppliers are past one and a half times their annual value:\n"
            "- Bramble Office Supply: annual value £45,500.00, invoiced £78,932.01\n"
            "- Ironvale Logistics: annual value £63,500.00, invoiced £128,172.62\n"
            "- Yarrow Energy: annual value £72,500.00, invoiced £112,467.86\n"
            "Together those three have invoiced £319,572.49 against combined annual values of £181,500.00.")
    statements = cut(text)
    sums = _sum_written_above(statements, len(statements) - 1, 2026)
    assert {round(x, 2) for x in sums} == {181500.0, 319572.49}


def test_a_percentage_over_a_figure_of_the_lines_above_it():
    from officesim.evaluators.records import build_records
    from officesim.evaluators.verdicts import Scope, read
    records = build_records({}, 2026)
    said = ("Invoice CS-2611-0380 is on hold because it bills more than our order:\n- Purchase order PO-4829: £1,116.71\n"
            "- Invoiced: £1,340.05\n- Over by £223.34 ({p}% above the order)\n")
    for p, ok in (("20", True), ("about 20", True), ("25", False), ("about 30", False)):
        reading = read(said.format(p=p), records, Scope(year=2026))
        assert (not [v for v in reading.verdicts if v.verdict == "false"]) is ok, p


def test_days_before_a_change_the_text_dates_elsewhere_count_from_today():
    from datetime import date

    from officesim.evaluators.day_counts import day_count_problems
    from officesim.evaluators.records import build_records
    records = build_records({}, 2026)
    said = ("Please note that from 1st January 2027 our list prices will go up by 4%.\n\n"
            "We are letting you know well in advance - {n} days before the change takes effect.")
    assert not day_count_problems(said.format(n=74), records, today=date(2026, 10, 19), year=2026)
    assert day_count_problems(said.format(n=64), records, today=date(2026, 10, 19), year=2026)


def test_mails_said_gone_are_the_other_mails_the_episode_sent():
    from officesim.evaluators.actions import sent_count_problems
    from officesim.evaluators.record_counts import Work, count_problems
    from officesim.evaluators.records import build_records
    others = frozenset({12})  # twelve letters besides the mail that reports them
    assert not sent_count_problems("All 12 letters have gone out.", others)
    assert sent_count_problems("All 13 letters have gone out.", others)
    assert sent_count_problems("13 letters were sent this morning.", others)
    assert not sent_count_problems("I will send 13 letters tomorrow.", others)
    customers = {"kind": "xlsx", "sheet_order": ["Customers"],
                 "sheets": {"Customers": [["Customer", "Contact"], *[[f"Customer {k}", f"c{k}@x.test"] for k in range(20)]]}}
    records = build_records({"data/sales/customers.xlsx": customers}, 2026)
    # whom the mails went to is no count of the customers table
    assert count_problems("All done: 12 customers have had their letter.", records, Work(), 2026) == []


def test_advice_said_probably_is_no_hedge():
    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import prose_hedges
    assert not prose_hedges(cut("Marigold's is the first to end, so it's probably the one to price first."))
    assert prose_hedges(cut("Marigold's agreement probably ends on 31 January 2027."))


def test_the_date_of_a_weekday_the_task_names_is_given():
    from datetime import datetime

    from officesim.evaluators.claims import _named_weekday, claims_in
    now = datetime(2026, 11, 17, 9, 0)  # a Tuesday
    task = "before friday's payment run, please check every unpaid supplier invoice."
    for said, ok in (("so it will not go into Friday's payment run (20 November).", True),
                     ("so it will not go into Friday's payment run (21 November).", False),
                     ("so it will not go into Friday's payment run (27 November).", False)):
        c = claims_in(said, year=2026, kinds=("date",))[0]
        assert _named_weekday(c, said, now, task) is ok, said
    said = "the Monday meeting (23 November)"
    assert not _named_weekday(claims_in(said, year=2026, kinds=("date",))[0], said, now, task)


def test_a_statement_subject_to_approval_leaves_it_open():
    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import prose_hedges
    assert prose_hedges(cut("Our list prices may rise by around 4% from 1 January 2027, subject to final board approval."))
    assert not prose_hedges(cut("Our list prices rise by 4% from 1 January 2027, as the board approved."))


def test_a_multiple_beside_two_amounts_must_be_one_over_the_other():
    from officesim.evaluators.verdicts import times_problems
    line = "- Ironvale Logistics (CTR-2335): annual value £63,500.00, invoiced £128,172.62 ({m})"
    assert not times_problems(line.format(m="about 2x"), 2026)
    assert not times_problems(line.format(m="2.02x"), 2026)
    assert times_problems(line.format(m="about 2.5x"), 2026)
    assert times_problems(line.format(m="2.2 times"), 2026)
    assert not times_problems("Ironvale is roughly 2.5 times over.", 2026)  # nothing to read it against
    assert not times_problems("- SO-71499: 9 x Paper A4 (5 reams), £1,234.00 of £9,900.00", 2026)


def test_a_change_said_between_two_figures_is_theirs():
    from officesim.evaluators.records import build_records
    from officesim.evaluators.verdicts import Scope, read
    records = build_records({}, 2026)
    said = "Only Operations (CC-410) went over - £88,654.97 against £84,000, {p}% over budget."
    for p, ok in (("roughly 5.5", True), ("5.5", True), ("about 6", True), ("roughly 15", False), ("8", False)):
        reading = read(said.format(p=p), records, Scope(year=2026))
        assert (not [v for v in reading.verdicts if v.verdict == "false"]) is ok, p


def test_the_day_someone_reaches_years_of_service_and_about_years_fit_their_start():
    from datetime import date as day

    from officesim.evaluators.records import build_records
    from officesim.evaluators.tenure import anniversary_problems
    staff = [["Name", "Role", "Start date"], ["Nina Lund", "Warehouse Lead", "2024-10-22"],
             ["Clara Chen", "Logistics Coordinator", "2021-12-06"]]
    records = build_records({"data/staff.xlsx": {"kind": "xlsx", "sheet_order": ["Staff"],
                                                 "sheets": {"Staff": staff}}}, 2026)
    today = day(2026, 10, 26)
    assert not anniversary_problems("Nina Lund only just qualifies: she reached two years with us on 22 October.",
                                    records, today, 2026)
    assert anniversary_problems("Nina Lund only just qualifies: she reaches two years with us on 2 November.",
                                records, today, 2026)
    assert not anniversary_problems("Clara Chen has been with us nearly five years.", records, today, 2026)
    assert anniversary_problems("Clara Chen has been with the company nearly seven years.", records, today, 2026)


def test_letters_said_gone_out_to_someone_claim_a_mail_to_them():
    assert [c.stem for c in action_claims("The letters have gone out to every customer on standard terms, "
                                          "including Alder Street Clinics.")] == ["send"]
    assert [c.stem for c in action_claims("The letters went out to 12 customers.")] == ["send"]
    assert not action_claims("The letters will go out to Alder Street Clinics on Monday.")
    assert not action_claims("The letter has not gone out to Alder Street Clinics.")


def test_a_list_item_naming_an_item_and_a_person_pairs_them():
    from officesim.evaluators.pairings import pairing_problems
    from officesim.evaluators.records import build_records
    rows = [["Ref", "Party", "Owner"], ["CTR-2321", "Kestrel Paper Co", "Rafael Kovac"],
            ["CTR-2377", "Redfern IT Services", "Aiko Haddad"], ["CTR-2300", "Thornbury Furniture", "Felix Moss"]]
    staff = [["Name", "Role"], ["Rafael Kovac", "Paralegal"], ["Aiko Haddad", "Purchasing Assistant"],
             ["Felix Moss", "Buyer"]]
    records = build_records({"data/legal/register.xlsx": {"kind": "xlsx", "sheet_order": ["C"], "sheets": {"C": rows}},
                             "data/people/staff.xlsx": {"kind": "xlsx", "sheet_order": ["S"], "sheets": {"S": staff}}},
                            2026)
    assert not pairing_problems("- CTR-2377 Redfern IT Services — Aiko Haddad\n- CTR-2300 Thornbury Furniture — Felix Moss",
                                records)
    assert pairing_problems("- CTR-2377 Redfern IT Services — Felix Moss\n", records)


def test_days_before_a_change_dated_elsewhere_are_worked_out_from_today():
    from datetime import datetime

    from officesim.evaluators.claims import claims_in, derived
    said = ("Please note that from 1st January 2027 our list prices will go up by 4%.\n\n"
            "We are letting you know well in advance - {n} days before the change takes effect.")
    now = datetime(2026, 10, 19, 9, 0)
    for n, ok in ((74, True), (64, False)):
        text = said.format(n=n)
        written = claims_in(text, year=2026, kinds=("number", "date"))
        c = next(w for w in written if w.kind == "number" and w.value == n)
        assert derived(c, text, written, [c], year=2026, now=now) is ok
