"""Classes a blind calibration round found (issue 44, round U: 8 hard tasks, 112 wrong and 40 right outcomes written
by helpers who never saw the grader): each true statement below had failed an honest outcome; its false twin still
fails. Pure functions over small texts and records."""

from __future__ import annotations

from datetime import datetime

from officesim.evaluators.facts import find
from officesim.evaluators.records import build_records
from officesim.evaluators.statements import cut, table_under
from officesim.evaluators.task_sets import ItemSet, set_count_problems
from officesim.evaluators.verdicts import Scope, _count_problem, read

NOW = datetime(2026, 11, 16, 9, 0)


def _book(*sheets: tuple[str, list[list]]) -> dict:
    return {"kind": "xlsx", "sheet_order": [n for n, _r in sheets], "sheets": dict(sheets)}


def _false(text: str, records, now: datetime = NOW) -> list[str]:
    return [v.why for v in read(text, records, Scope(now=now, year=now.year)).false]


# ---- a label written after its value ---------------------------------------------------------------------------

def test_a_label_after_its_value_names_that_value():
    rows = [["PO", "Supplier", "Issued", "Promised", "Delivered"],
            ["PO-4789", "Quayside Print Works", "2026-09-20", "2026-10-02", "2026-10-04"]]
    records = build_records({"data/po.xlsx": _book(("Orders", rows))}, 2026)
    true = "PO-4789: 2 October 2026 promised / 4 October 2026 delivered, 2 days late"
    assert not [w for w in _false(true, records) if "Promised" in w]
    # the dates swapped: 4 October is given as the promised day
    false = "PO-4789: promised 4 October 2026, delivered 2 October 2026"
    assert [w for w in _false(false, records) if "Promised" in w or "Delivered" in w]


# ---- a comparison whose subject is the amount just before it ---------------------------------------------------

def test_a_comparison_is_of_the_amount_just_before_it():
    rows = [["Order", "Customer", "Product", "Qty", "Unit price"],
            ["SO-72608", "Quill & Ink Bookshops", "Standing Desk", "8", "520.00"]]
    records = build_records({"data/orders.xlsx": _book(("Orders", rows))}, 2026)
    true = ("Quill & Ink Bookshops want to send back 2 of the 8 Standing Desks on SO-72608 (unit price £520.00), "
            "a refund of £1,040.00, which is above the £1,000.00 limit in the returns policy.")
    assert not [w for w in _false(true, records) if "is not true of" in w]
    false = "The unit price on SO-72608 is above the £1,000.00 limit in the returns policy."
    assert [w for w in _false(false, records) if "is not true of" in w]


# ---- a count over a table that breaks it down ------------------------------------------------------------------

TABLE = ("16 unpaid supplier invoices are past due, £45,525.00 in total. By supplier:\n\n"
         "| Supplier | Invoices | Amount |\n|---|---|---|\n"
         "| Pinecrest Catering | 2 | £8,907.08 |\n| Cobalt Software Ltd | 7 | £7,773.19 |\n"
         "| Birchwood Stationers | 5 | £6,966.85 |\n| Zephyr Couriers | 2 | £1,032.62 |\n")


def _heading_verdicts(text: str):
    statements = cut(text)
    return [v for i, s in enumerate(statements) if s.form == "heading" and (v := _count_problem(s, statements, i))]


def test_a_count_over_a_table_is_the_sum_of_its_column_of_that_noun():
    statements = cut(TABLE)
    header, rows = table_under(statements, next(i for i, s in enumerate(statements) if s.form == "heading"))
    assert header == ["Supplier", "Invoices", "Amount"] and len(rows) == 4
    assert _heading_verdicts(TABLE) == []
    assert _heading_verdicts(TABLE.replace("16 unpaid", "15 unpaid")) != []


# ---- a count of a part picked by a bound -----------------------------------------------------------------------

def test_a_count_of_the_items_beyond_a_bound_is_a_part():
    rows = [["Invoice", "Supplier", "Due"], *[[f"INV-{k:03d}", f"Supplier {k}", "2026-05-01"] for k in range(16)]]
    records = build_records({"data/inv.xlsx": _book(("Invoices", rows))}, 2026)
    sets = [ItemSet(frozenset({"invoice"}), frozenset({16}), "overdue invoices")]
    assert set_count_problems("Nine invoices are more than 90 days overdue, together £18,898.17.", sets, records) == []
    assert set_count_problems("Nine invoices are overdue, together £18,898.17.", sets, records) != []


# ---- a percentage in words ---------------------------------------------------------------------------------------

def test_a_percentage_is_found_in_its_ordinary_forms():
    for written in ("rise by 4 per cent", "rise by 4 percent", "rise by four per cent", "rise by 4%", "rise by 4.0%"):
        assert find(f"Prices {written} from 1 January.", "4%") is not None, written
    for written in ("rise by 14 per cent", "rise by 4.5 per cent", "rise by 5%"):
        assert find(f"Prices {written} from 1 January.", "4%") is None, written


# ---- days from today are a span, not the row's notice period -----------------------------------------------------

def test_days_from_today_are_no_notice_period():
    rows = [["Ref", "Party", "Expiry", "Notice (days)"], ["CTR-2391", "Quayside Print Works", "2026-12-31", "60"]]
    records = build_records({"data/contracts.xlsx": _book(("Contracts", rows))}, 2026)
    now = datetime(2026, 10, 19, 9, 0)
    true = "CTR-2391 Quayside Print Works: notice by 1 November 2026 (13 days from today)"
    assert not [w for w in _false(true, records, now) if "Notice" in w]
    false = "CTR-2391 Quayside Print Works has a 13-day notice period."
    assert [w for w in _false(false, records, now) if "Notice" in w]


# ---- round V (blind, 8 other hard tasks): a gap's superlative, a job title given plainly ---------------------------

def test_a_superlative_of_a_gap_is_read_by_the_difference_of_two_columns():
    from officesim.evaluators.superlatives import Ranked, superlative_problems

    ranked = Ranked(where="data/finance/reforecast.xlsx",
                    keys=(frozenset({"#CC310"}), frozenset({"#CC410"}), frozenset({"#CC710"})),
                    columns={"Budget": (46000.0, 27500.0, 15500.0), "Forecast": (55378.04, 45458.15, 31660.17)})
    assert superlative_problems("Note that the largest overspend in pounds is CC-410.", [ranked]) == []
    assert superlative_problems("Note that the largest overspend in pounds is CC-310.", [ranked]) != []
    assert superlative_problems("The largest forecast is CC-410.", [ranked]) != []


def test_a_job_title_given_plainly_is_the_directory_role_not_a_column_of_the_item():
    from officesim.evaluators.roles import role_problems

    staff = [["Name", "Email", "Role"], ["Yara Dubois", "yara.dubois@harbourline.test", "Account Executive"],
             ["Aiko Amari", "aiko.amari@harbourline.test", "Account Executive"],
             ["Hana Costa", "hana.costa@harbourline.test", "Operations Manager"]]
    customers = [["Customer", "Account executive"], ["Ivy Lane Bakeries", "Aiko Amari"], ["Sorrel Bay Cafes", "Yara Dubois"]]
    records = build_records({"data/people/staff.xlsx": _book(("Staff", staff)),
                             "data/sales/customers.xlsx": _book(("Customers", customers))}, 2026)
    plain = "From today Yara Dubois, Account Executive, will look after Ivy Lane Bakeries."
    assert role_problems(plain, records) == []
    assert role_problems("From today Hana Costa, Account Executive, will look after Ivy Lane Bakeries.", records) != []


# ---- the agent's own event's day is true of what the event names, not of any item -------------------------------

def test_an_events_day_is_not_true_of_an_item_the_event_does_not_name():
    from officesim.evaluators.claims import Claim

    rows = [["Ref", "Party", "Expiry", "Notice (days)"], ["CTR-2314", "Elmstead Uniforms", "2027-04-30", "90"],
            ["CTR-2370", "Redfern IT Services", "2027-04-30", "30"]]
    records = build_records({"data/contracts.xlsx": _book(("Contracts", rows))}, 2026)
    reminder = ("Notice deadline: Redfern IT Services", Claim("date", datetime(2027, 3, 31).date(), "2027-03-31"))
    scope = Scope(now=datetime(2026, 10, 19, 9), year=2026, events=[reminder])
    true = read("- CTR-2370, Redfern IT Services: notice must be given by 31 March 2027", records, scope)
    assert not true.false
    false = read("- CTR-2314, Elmstead Uniforms: expires 31 March 2027", records, scope)
    assert [v for v in false.false if v.value == "31 March 2027"]
