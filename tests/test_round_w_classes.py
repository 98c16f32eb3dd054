"""Classes of the records design read since round V (issue 44): a value said of an item the statement names, which
none of that item's own rows gives and no record about it holds, is false rather than left undecided; a range whose
one end is a row's day and the other is not that row's other day is false. Each true statement passes, its false
twin fails. Pure functions over small texts and records."""

from __future__ import annotations

from datetime import datetime

from officesim.evaluators.records import build_records
from officesim.evaluators.verdicts import Scope, read

NOW = datetime(2026, 11, 16, 9, 0)


def _book(*sheets: tuple[str, list[list]]) -> dict:
    return {"kind": "xlsx", "sheet_order": [n for n, _r in sheets], "sheets": dict(sheets)}


def _reading(text: str, records):
    return read(text, records, Scope(now=NOW, year=NOW.year))


# ---- an amount said of a named item, which only other records hold, or none ------------------------------------

def _contracts():
    customers = [["Customer", "Email"], ["Kite Field Sports", "ines@kitefield.test"],
                 ["Cedar Row Hotels", "ops@cedarrow.test"]]
    register = [["Contract", "Party", "Ends", "Annual value"],
                ["CTR-1", "Kite Field Sports", "2027-08-31", "14000"],
                ["CTR-2", "Cedar Row Hotels", "2027-07-31", "115500"]]
    orders = [["Order", "Customer", "Total"], *[[f"SO-{k}", "Kite Field Sports", str(300 + k)] for k in range(8)]]
    return build_records({"data/customers.xlsx": _book(("Customers", customers)),
                          "data/contracts.xlsx": _book(("Contracts", register)),
                          "data/orders.xlsx": _book(("Orders", orders))}, 2026)


def test_an_amount_of_a_named_item_is_read_against_its_own_rows():
    records = _contracts()
    true = _reading("- Kite Field Sports: agreement ends 31 August 2027 (£14,000 a year)", records)
    assert not true.false
    false = _reading("- Kite Field Sports: agreement ends 31 August 2027 (£41,000 a year)", records)
    assert [v for v in false.false if v.value == "£41,000" and "14000" in v.why]
    # another party's amount given to this one is false too
    swapped = _reading("- Kite Field Sports: agreement ends 31 August 2027 (£115,500 a year)", records)
    assert [v for v in swapped.false if v.value == "£115,500"]


def test_a_figure_worked_out_from_the_items_own_amount_stays_true():
    records = _contracts()
    text = "- Kite Field Sports: £14,000 a year now, £14,560 after the 4% increase (£560 more)."
    assert not [v for v in _reading(text, records).false if v.value in ("£14,560", "£560")]


def test_a_value_no_reading_decides_is_counted_unread():
    records = _contracts()
    reading = _reading("Kite Field Sports: about £2,000,000 across the sector, according to the trade press.",
                       records)
    decided = {v.value for v in reading.verdicts}
    assert "£2,000,000" in decided or reading.unread


# ---- a range whose one end is a row's day and the other is not -------------------------------------------------

def _leave():
    rows = [["Employee", "Type", "Start", "End", "Status"],
            ["Felix Weber", "Annual leave", "2026-10-21", "2026-11-07", "Approved"]]
    return build_records({"data/leave.xlsx": _book(("Leave", rows))}, 2026)


def test_a_range_is_read_against_the_rows_first_and_last_day():
    records = _leave()
    assert not _reading("Felix Weber is on annual leave from 21 October to 7 November.", records).false
    wrong_start = _reading("Felix Weber is on annual leave from 26 October to 7 November.", records)
    assert [v for v in wrong_start.false if v.value == "26 October" and "2026-10-21" in v.why]
    wrong_end = _reading("Felix Weber is on annual leave from 21 October to 9 November.", records)
    assert [v for v in wrong_end.false if v.value.startswith("9 November")]


def test_a_range_that_is_not_the_rows_is_not_read_as_it():
    records = _leave()
    # neither end is the row's: a window of the writer's own, not a claim about the leave
    assert not [v for v in _reading("Felix Weber could meet from 9 November to 13 November.", records).false
                if "runs" in v.why]


# ---- round W's honest failures, as classes ----------------------------------------------------------------------

from officesim.evaluators.claims import Claim, claims_in, section_of  # noqa: E402
from officesim.evaluators.statements import cut  # noqa: E402
from officesim.evaluators.task_sets import total_problems  # noqa: E402
from officesim.evaluators.verdicts import _count_problem, _party_of, counts_named_ids, date_after_span  # noqa: E402


def _number_in(text: str, shown: str) -> Claim:
    return next(c for c in claims_in(text, year=2026, kinds=("number",)) if c.text.strip() == shown)


def test_a_whole_counted_before_a_list_of_near_misses_is_not_the_lists_count():
    text = ("I read all 26 signed contracts, and their clauses agree with the register. Near misses, for the auditors:\n"
            "- Verbena Spas (CTR-2440) expires after the window.\n- Quayside Print Works (CTR-2384) is below £30,000.\n")
    statements = cut(text)
    heads = [i for i, s in enumerate(statements) if s.form == "heading"]
    assert heads and all(_count_problem(statements[i], statements, i) is None for i in heads)
    # the list's own count is still read
    wrong = text.replace("Near misses, for the auditors:", "Three near misses, for the auditors:")
    statements = cut(wrong)
    assert [v for i, s in enumerate(statements) if s.form == "heading" and (v := _count_problem(s, statements, i))]


def test_a_date_a_span_after_today():
    records = build_records({}, 2026)
    text = "It expires on 31 May 2027, after the six-month window that ends on 16 May 2027."
    c = next(c for c in claims_in(text, year=2026, kinds=("date",)) if c.text.startswith("16 May"))
    assert date_after_span(c, text, records, today=NOW.date())
    late = "It expires on 31 May 2027, after the six-month window that ends on 26 May 2027."
    d = next(c for c in claims_in(late, year=2026, kinds=("date",)) if c.text.startswith("26 May"))
    assert not date_after_span(d, late, records, today=NOW.date())


def test_a_rate_is_not_read_as_a_total():
    text = "Your 3 nights in Hamburg came to £187.00 a night, so we reimburse £525.00 in total."
    records = build_records({}, 2026)
    problems = total_problems(text, frozenset({525.0}), lambda c: False, records, 2026)
    assert not [p for p in problems if "187" in p]
    assert total_problems(text.replace("£525.00 in total", "£545.00 in total"), frozenset({525.0}),
                          lambda c: False, records, 2026)


def test_a_section_number_of_a_source_is_a_reference():
    policy = "Travel policy\n1. Scope. Every employee.\n2. Hotels. A night's hotel may cost at most the cap.\n"
    text = "Under section 2 of the travel policy a Hamburg hotel night is reimbursed up to £175.00."
    assert section_of(_number_in(text, "2"), text, [policy], [])
    seven = text.replace("section 2", "section 7")
    assert not section_of(_number_in(seven, "7"), seven, [policy], [])
    plain = "We reimbursed 2 of the hotel nights."
    assert not section_of(_number_in(plain, "2"), plain, [policy], [])


def _orders_and_invoices():
    orders = [["PO", "Supplier", "Promised"], ["PO-4631", "Pinecrest Catering", "2026-10-18"],
              ["PO-4632", "Pinecrest Catering", "2026-10-20"]]
    invoices = [["Invoice", "Supplier", "Amount"], ["PC-2602-0063", "Pinecrest Catering", "1372.94"],
                ["PC-2609-0341", "Pinecrest Catering", "9444.66"]]
    return build_records({"data/po.xlsx": _book(("Orders", orders)),
                          "data/inv.xlsx": _book(("Invoices", invoices))}, 2026)


def test_a_count_of_the_identifiers_the_text_names_of_a_kind():
    records = _orders_and_invoices()
    text = ("1 open order and 2 overdue invoices (£10,817.60 in total).\n- PO-4631, promised 18 October 2026\n"
            "- PC-2602-0063: £1,372.94\n- PC-2609-0341: £9,444.66\n")
    assert counts_named_ids(_number_in(text, "1"), text, records)
    assert counts_named_ids(_number_in(text, "2"), text, records)
    wrong = text.replace("1 open order", "3 open orders")
    assert not counts_named_ids(_number_in(wrong, "3"), wrong, records)


def test_a_party_of_the_row_a_statement_names_is_true_context():
    records = _orders_and_invoices()
    rows = sorted(records.named("#PC26090341"))
    assert rows
    assert _party_of(Claim("org", "pinecrestcatering", "Pinecrest Catering"), rows, records)
    assert not _party_of(Claim("org", "quaysideprintworks", "Quayside Print Works"), rows, records)


def test_a_figure_in_the_parentheses_of_the_identifier_before_it():
    from officesim.evaluators.superlatives import ranked_lists
    from officesim.evaluators.written_tables import moved_figure_problems
    rows = [["Invoice", "Supplier", "Due", "Amount"], ["KP-2610-0350", "Kestrel Paper", "2026-11-17", 2318.95],
            ["QP-2610-0341", "Quayside Print Works", "2026-11-18", 1130.11]]
    lists = ranked_lists({}, {"data/run.xlsx": {"kind": "xlsx", "sheet_order": ["S"], "sheets": {"S": rows}}})
    right = ("- 2 fall due this week: KP-2610-0350 (Kestrel Paper Co, 17 Nov, £2,318.95) and QP-2610-0341 "
             "(Quayside Print Works, 18 Nov, £1,130.11)")
    assert moved_figure_problems(right, lists) == []
    swapped = right.replace("£2,318.95", "£X").replace("£1,130.11", "£2,318.95").replace("£X", "£1,130.11")
    assert moved_figure_problems(swapped, lists)


def test_a_measure_said_of_others_before_an_item_is_named():
    rows = [["Invoice", "Supplier", "Days late"], ["SC-2608-0265", "Saltmarsh Cleaning", 8],
            ["IL-2605-0155", "Ironvale Logistics", 9]]
    records = build_records({"data/late.xlsx": _book(("Late", rows))}, 2026)
    right = "None was more than 9 days late: six at 9 days and Saltmarsh Cleaning's SC-2608-0265 at 8 days late."
    assert not [v for v in _reading(right, records).false if "Days late" in v.why]
    wrong = "Saltmarsh Cleaning's SC-2608-0265 was 9 days late."
    assert [v for v in _reading(wrong, records).false if "Days late" in v.why]


def test_history_of_payments_is_not_a_count_of_what_the_episode_did():
    from officesim.evaluators.actions import counted_action_problems
    assert counted_action_problems("We paid 100 supplier invoices in July–September; 7 were late.", frozenset()) == []
    assert counted_action_problems("I held 5 invoices today.", frozenset({2.0}))


def test_a_negation_after_and_is_its_own_clause():
    from officesim.evaluators.claims import polarity_problems
    text = "PO-4631 was promised for 18 October and hasn't been delivered yet."
    assert polarity_problems(text, ["PO-4631", "2026-10-18"], [], year=2026) == []
    assert polarity_problems("PO-4631 was not promised for 18 October.", ["PO-4631", "2026-10-18"], [], year=2026)


def test_an_hour_said_as_a_bare_number():
    from officesim.evaluators.claims import an_hour
    text = "I'll do that in the hour I've booked tomorrow at 9."
    assert an_hour(_number_in(text, "9"), text, ["09:00"], 2026)
    assert not an_hour(_number_in(text, "9"), text, ["10:00"], 2026)
    days = "It was paid at 9 days late."
    assert not an_hour(_number_in(days, "9"), days, ["09:00"], 2026)


def test_a_total_line_below_a_table_of_items_is_not_one_of_them():
    from officesim.evaluators.task_sets import ItemSet, set_count_problems
    rows = [["Invoice", "Supplier", "Amount"], *[[f"UF-2602-{k:04d}", "Umber Freight", 100 + k] for k in range(20)],
            ["Total", "", 2190]]
    records = build_records({"data/run.xlsx": _book(("Run", rows))}, 2026)
    sets = [ItemSet(frozenset({"invoice"}), frozenset({20}), "the rows of the run")]
    assert set_count_problems("The run holds 20 supplier invoices.", sets, records) == []
    assert set_count_problems("The run holds 21 supplier invoices.", sets, records)


def test_settled_names_a_paid_column():
    from officesim.evaluators.records import label_words
    assert label_words("Paid on") & label_words("settled in full on")
    assert not label_words("Due") & label_words("settled in full on")


def test_a_count_without_its_noun_over_the_list_it_heads():
    text = ("Of the 10 orders over £10,000 placed since 1 June, {n} have no approval from you on file. "
            "The ones I couldn't match:\n- PO-4658, Redfern IT Services, £11,361.66\n- PO-4773, Zephyr Couriers, £10,618.24\n")
    def verdicts(t):
        statements = cut(t)
        return [v for i, s in enumerate(statements) if s.form == "heading" and (v := _count_problem(s, statements, i))]
    assert verdicts(text.format(n="2")) == []
    assert verdicts(text.format(n="3"))
