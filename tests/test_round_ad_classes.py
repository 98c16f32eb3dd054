"""Classes read since round AC (issue 44): false statements that round AC's wrong outcomes passed with, each
with its true twin. Pure functions over small texts and records."""

from __future__ import annotations

from datetime import date

from officesim.evaluators.day_counts import day_count_problems
from officesim.evaluators.records import build_records


def _book(*sheets: tuple[str, list[list]]) -> dict:
    return {"kind": "xlsx", "sheet_order": [n for n, _r in sheets], "sheets": dict(sheets)}


_ORDERS = _book(("Orders", [["PO", "Supplier", "Ordered", "Promised", "Delivered"],
                            ["PO-4784", "Ironvale", "2026-10-20", "2026-11-05", "2026-11-08"],
                            ["PO-4789", "Ironvale", "2026-10-25", "2026-11-11", "2026-11-13"]]))


def test_days_late_in_a_list_item_are_between_its_own_records_dates():
    records = build_records({"data/po.xlsx": _ORDERS}, 2026)
    text = ("Two of your deliveries this quarter were late:\n\n"
            "- PO-4784 (freight): promised 5 November 2026, delivered 8 November 2026 ({} days late)\n"
            "- PO-4789 (freight): promised 11 November 2026, delivered 13 November 2026\n")
    assert day_count_problems(text.format(3), records, today=date(2026, 12, 4), year=2026) == []
    # 8 to 13 November is the next item's span; 4 counts both ends, which a delay does not
    assert day_count_problems(text.format(5), records, today=date(2026, 12, 4), year=2026) != []
    assert day_count_problems(text.format(4), records, today=date(2026, 12, 4), year=2026) != []


def test_since_when_someone_named_earlier_by_first_name_has_been_with_a_team():
    from officesim.evaluators.tenure import joined_problems

    staff = _book(("Staff", [["Name", "Role", "Start date"], ["Mei Roth", "Account Executive", "2020-04-23"],
                             ["Dmitri Novak", "Account Executive", "2018-02-01"]]))
    records = build_records({"data/staff.xlsx": staff}, 2026)
    text = ("From now on your account executive is Mei Roth, copied here. {} has been with our sales team since {}"
            " and will be in touch shortly.")
    assert joined_problems(text.format("Mei", 2020), [], records) == []
    assert joined_problems(text.format("Mei", 2018), [], records) != []
    assert joined_problems(text.format("She", 2018), [], records) != []


def test_a_title_the_office_does_not_hold_said_beside_a_person():
    from officesim.evaluators.roles import role_problems

    staff = _book(("Staff", [["Name", "Role"], ["Ines Nair", "Sales Director"], ["Mira Berg", "Head of Purchasing"],
                             ["Asha Kovac", "Senior Account Executive"]]))
    records = build_records({"data/staff.xlsx": staff}, 2026)
    assert role_problems("Your account executive is Ines Nair, our Regional Sales Manager, copied here.", records)
    assert not role_problems("Your account executive is Ines Nair, our Sales Director, copied here.", records)
    assert role_problems("I am copying Mira Berg, our Finance Director.", records)
    assert not role_problems("I am copying Mira Berg, our Head of Purchasing.", records)
    assert not role_problems("Your account moves to Asha Kovac, Account Executive, who is copied.", records)


def test_the_month_items_were_placed_in_is_their_order_dates_month():
    from officesim.evaluators.months_said import month_problems

    orders = _book(("Orders", [["PO", "Supplier", "Order date", "Promised", "Delivered"],
                               ["PO-4742", "Yarrow", "2026-09-19", "2026-09-26", "2026-10-05"],
                               ["PO-4751", "Yarrow", "2026-09-25", "2026-09-30", "2026-10-03"]]))
    records = build_records({"data/po.xlsx": orders}, 2026)
    text = ("These deliveries arrived late:\n\n- PO-4742: promised 26 September 2026, delivered 5 October 2026\n"
            "- PO-4751: promised 30 September 2026, delivered 3 October 2026\n\nBoth orders were placed in {} and "
            "still arrived late.")
    assert month_problems(text.format("September"), records) == []
    assert month_problems(text.format("October"), records) != []
    assert month_problems("PO-4742 was delivered in October.", records) == []
    assert month_problems("PO-4742 was delivered in September.", records) != []
    assert month_problems("PO-4742 was not delivered in September.", records) == []


def test_a_length_from_a_day_is_not_counted_from_today():
    leave = _book(("Leave", [["Employee", "Email", "From", "To"],
                             ["Lucia Moss", "lucia@x.test", "2026-10-05", "2026-10-09"]]))
    records = build_records({"data/leave.xlsx": leave}, 2026)
    text = ("Hi Lucia, I'm off for {} working days from Tuesday 1 December, so I'll miss our Site walk on Thursday "
            "3 December 2026. I'm back on Tuesday 15 December.")
    today = date(2026, 11, 20)  # 9 weekdays to 3 December: a chance span the count is not of
    assert day_count_problems(text.format(10), records, today=today, year=2026, addressed=["lucia@x.test"]) == []
    assert day_count_problems(text.format(8), records, today=today, year=2026, addressed=["lucia@x.test"]) != []


def test_a_count_done_by_the_last_of_the_writers_verbs():
    from officesim.evaluators.actions import counted_action_problems

    said = "I've told each of them, put you in their reviews and forwarded you the {} messages they sent me."
    assert counted_action_problems(said.format(4), frozenset({6.0}))
    assert not counted_action_problems(said.format(6), frozenset({6.0}))
    # another's doing, joined to what they did
    assert not counted_action_problems("Ana replied on Monday, and sent 3 invoices.", frozenset({6.0}))


def test_forwarded_you_needs_a_forward_to_whom_this_mail_is_to():
    from officesim.evaluators.actions import Episode, action_problems

    mails = (("to-asha", frozenset({"asha@x.test"})), ("fwd-1", frozenset({"mei@x.test"})))

    def problems(forwarded_to: set[str]) -> list[str]:
        episode = Episode(frozenset({"mail"}), mails, forwarded=frozenset({"ana@client.test"}),
                          forwarded_to=frozenset(forwarded_to))
        return action_problems("I've told each of them and forwarded you their recent emails so you have the history.",
                               "to-asha", episode, attachments=False, recipients_named=lambda _s: set(),
                               allowed=set(), recorded=lambda _s, _v: None, this="to-asha")

    assert problems({"mei@x.test"})
    assert not problems({"asha@x.test"})


def test_an_amount_said_as_what_a_sheet_the_task_writes_records_of_the_item():
    from officesim.evaluators.records import changed_cells
    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import Scope, changed_value_problems

    orders = _book(("Orders", [["Order", "Customer", "Product", "Qty", "Unit price", "Amount"],
                               ["SO-72608", "Quill & Ink Bookshops", "Standing Desk", 3, 520.0, 1560.0]]))
    header = ["Date", "Order", "Customer", "Product", "Qty", "Amount", "Status"]
    before = {"data/refunds.xlsx": _book(("Refunds", [header]))}
    after = {"data/refunds.xlsx": _book(("Refunds", [header, ["2026-12-01", "SO-72608", "Quill & Ink Bookshops",
                                                               "Standing Desk", 2, 1040.0, "Referred"]]))}
    records = build_records({"data/orders.xlsx": orders, **before}, 2026)
    scope = Scope(changed=changed_cells(before, after, 2026), year=2026)

    def false(text: str) -> list:
        return changed_value_problems(cut(text)[0], records, scope)

    assert false("Quill & Ink want to send back 2 x Standing Desk from SO-72608, a refund of £1,560.00.")
    assert not false("Quill & Ink want to send back 2 x Standing Desk from SO-72608, a refund of £1,040.00.")
    assert not false("SO-72608 was an order of £1,560.00; they return two desks.")


def test_a_span_a_request_mail_gives_is_no_rows_span():
    from datetime import datetime

    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import range_end_problems

    leave = _book(("Leave", [["Employee", "Type", "Start", "End"], ["Keiko Sato", "Annual leave", "2026-11-24", "2026-11-26"],
                             ["Rafael Lindqvist", "Annual leave", "2026-12-14", "2026-12-16"]]))
    request = {"kind": "eml", "from": "keiko.sato@x.test", "to": ["hana@x.test"], "cc": [], "subject": "Leave request",
               "date": datetime(2026, 11, 10, 9, 0), "body": "Could I take annual leave on 15-16 December 2026?",
               "attachments": []}
    records = build_records({"data/leave.xlsx": leave, "emails/hana/inbox/1.eml": request}, 2026)
    rows = [i for i, e in enumerate(records.entities) if "Rafael" in str(e.names) or "rafael" in str(e.names)]

    def false(text: str) -> list:
        return range_end_problems(cut(text)[0], rows, records, 2026)

    assert not false("Keiko Sato - Request: annual leave, 15/12/2026 - 16/12/2026")
    assert false("Keiko Sato - Request: annual leave, 13/12/2026 - 16/12/2026")
