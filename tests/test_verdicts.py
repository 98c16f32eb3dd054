"""The reading of written text against the office's records (evaluators/records.py, statements.py,
verdicts.py, truth.py): one test per class of the grading issue, a false statement of the class
fails and a true one passes. Pure: parsed offices built by hand."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from officesim.evaluators import EvalState, evaluate
from officesim.evaluators.claims import claims_in
from officesim.evaluators.records import build_records
from officesim.evaluators.statements import cut, items_under
from officesim.evaluators.truth import written_truth
from officesim.evaluators.verdicts import Scope, read

USER = "maya.lin@northwind.test"
NOW = datetime(2026, 10, 19, 9, 0)

ORDERS = {"kind": "xlsx", "sheet_order": ["Orders"], "sheets": {"Orders": [
    ["Order", "Customer", "Ordered", "Delivered", "Amount"],
    ["SO-1001", "Acme Tools", datetime(2026, 9, 1), datetime(2026, 9, 8), 1250.00],
    ["SO-1002", "Birch Supplies", datetime(2026, 9, 3), datetime(2026, 9, 12), 830.50],
    ["SO-1003", "Acme Tools", datetime(2026, 9, 15), datetime(2026, 9, 22), 2400.00],
]}}
STAFF = {"kind": "xlsx", "sheet_order": ["Staff"], "sheets": {"Staff": [
    ["Name", "Email", "Phone", "Team"],
    ["Dana Ortiz", "dana.ortiz@northwind.test", "+44 20 7946 5829", "Sales"],
    ["Omar Nair", "omar.nair@northwind.test", "+44 20 7946 1177", "Finance"],
]}}
CREDIT = {"kind": "pdf", "pages": ["CREDIT NOTE CN-2041\nIssued: 2 October 2026\nAgainst invoice INV-5512\n"
                                   "Amount credited\n£312.40\n"]}
OFFICE = {"data/orders.xlsx": ORDERS, "data/staff.xlsx": STAFF, "data/credit_CN-2041.pdf": CREDIT}


@pytest.fixture(scope="module")
def records():
    return build_records(OFFICE, 2026)


def verdicts(text: str, records, scope_texts: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    scope = Scope(claims=[c for t in scope_texts for c in claims_in(t, year=2026)], now=NOW, year=2026,
                  known=({"SO1001", "SO1002", "SO1003", "CN2041", "INV5512"}, {"SO", "CN", "INV"}))
    reading = read(text, records, scope)
    return ([v.value for v in reading.verdicts if v.verdict == "false"],
            [v.value for v in reading.verdicts if v.verdict == "true"])


# ---- records ---------------------------------------------------------------------------------------
def test_a_sheet_row_is_an_entity_named_by_its_identifier_and_names(records):
    (row,) = [records.entities[i] for i in records.named("#SO1002")]
    labels = {label for label, _c in row.attributes}
    assert {"Ordered", "Delivered", "Amount"} <= labels
    assert "birch supplies" in row.keys
    assert len(records.named("acme tools")) == 2


def test_a_label_alone_on_its_line_gives_the_value_on_the_next(records):
    doc = [records.entities[i] for i in records.named("#CN2041") if records.entities[i].collection == "document"]
    assert any(label == "Amount credited" and c.text == "£312.40" for label, c in doc[0].attributes)


# ---- statements ------------------------------------------------------------------------------------
def test_statements_are_items_under_their_heading_labels_and_sentences():
    text = "Hi Omar,\n\nStill open:\n- SO-1001\n- SO-1003\n  - a sub-item\n\nOrder date: 1 September. It was late."
    st = cut(text)
    forms = [s.form for s in st]
    assert forms[:5] == ["sentence", "heading", "item", "item", "item"]
    assert len(items_under(st, 1)) == 2  # the sub-item is not counted
    assert forms[5] == "label" and st[5].head is None


# ---- values against the item they are about ----------------------------------------------------------
def test_another_items_value_beside_this_item_is_false(records):
    false, _true = verdicts("SO-1001 was ordered on 3 September 2026.", records)
    assert false == ["3 September 2026"]  # SO-1002's order date


def test_a_true_value_of_the_wrong_column_is_false(records):
    false, _ = verdicts("SO-1001 was ordered on 8 September 2026.", records)
    assert false == ["8 September 2026"]  # its delivery date
    false, true = verdicts("SO-1001 was delivered on 8 September 2026, for £1,250.00.", records)
    assert false == [] and set(true) == {"8 September 2026", "£1,250.00"}


def test_an_amount_no_record_gives_about_a_bound_item_is_false(records):
    false, _ = verdicts("Acme Tools: SO-1003 comes to £2,450.00.", records)
    assert false == ["£2,450.00"]


def test_a_reference_the_office_does_not_have_is_false(records):
    false, _ = verdicts("The refund follows credit note CN-2099.", records)
    assert false == ["CN-2099"]


# ---- true context passes ------------------------------------------------------------------------------
def test_true_context_from_another_line_of_the_same_record_passes(records):
    false, true = verdicts("Credit note CN-2041 credits £312.40 against INV-5512, issued 2 October 2026.", records)
    assert false == [] and {"£312.40", "2 October 2026"} <= set(true)


def test_a_phone_in_another_ordinary_form_passes_and_another_persons_fails(records):
    false, true = verdicts("Dana Ortiz can be reached on 020 7946 5829.", records)
    assert false == [] and true == ["020 7946 5829"]
    false, _ = verdicts("Dana Ortiz can be reached on 020 7946 1177.", records)
    assert false == ["020 7946 1177"]


def test_a_figure_derived_from_values_in_other_sentences_passes(records):
    false, true = verdicts("SO-1002 was ordered on 3 September 2026. It was delivered on 12 September 2026. "
                           "SO-1002 took 9 days.", records)
    assert false == []
    false, _ = verdicts("SO-1001 and SO-1002 come to £2,080.50 together.", records)
    assert false == []


# ---- counts ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("heading,wrong", [("Three orders are late:", True), ("2 orders are late:", False),
                                           ("Two orders are late:", False), ("3 orders are late:", True),
                                           ("Due in the next 7 days:", False), ("Open for 3 weeks:", False)])
def test_a_count_is_compared_with_the_items_it_heads(records, heading, wrong):
    false, _ = verdicts(f"{heading}\n- SO-1001\n- SO-1003\n", records)
    assert bool(false) == wrong


@pytest.mark.parametrize("heading,items,wrong", [
    ("Of the 5 orders Acme placed, 2 arrived late:", "- SO-1001\n- SO-1003", False),  # a part of a whole
    ("Of the 5 orders Acme placed, 3 arrived late:", "- SO-1001\n- SO-1003", True),
    ("Of the five orders Acme placed, I found no delivery note for these two:", "- SO-1001\n- SO-1003", False),
    ("Of the five orders Acme placed, I found no delivery note for these three:", "- SO-1001\n- SO-1003", True),
    ("There are 5 open orders:", "- Dana Ortiz: 2\n- Omar Nair: 3", False),  # a breakdown that sums to five
    ("There are 6 open orders:", "- Dana Ortiz: 2\n- Omar Nair: 3", True),
])
def test_a_heading_counts_a_part_of_a_whole_or_a_breakdown_of_itself(records, heading, items, wrong):
    false, _ = verdicts(f"{heading}\n{items}\n", records)
    assert bool(false) == wrong, false


# ---- every written place is read, and what is not read is counted -------------------------------------
def _state(files: dict, answer: str | None = None) -> EvalState:
    return EvalState(files=files, answer=answer, now=NOW, instruction="Tell Dana Ortiz which orders Acme Tools has.",
                     before=OFFICE, gold=OFFICE, user=USER, user_name="Maya Lin")


def _mail(body: str) -> dict:
    return {"kind": "eml", "mailbox": USER, "folder": "sent", "from": USER, "to": ["dana.ortiz@northwind.test"],
            "cc": [], "subject": "Acme Tools orders", "body": body, "attachments": []}


def test_a_sentence_starting_all_names_no_all_staff_list():
    staff = {"kind": "xlsx", "sheet_order": ["Staff"], "sheets": {"Staff": [
        *STAFF["sheets"]["Staff"], ["All Staff", "all-staff@northwind.test", "", "Everyone"]]}}
    office = {**OFFICE, "data/staff.xlsx": staff}
    to_dana = {**_mail("Hi Dana,\nSO-1003 was delivered on 22 September 2026."), "subject": "Your order"}
    summary = {**_mail("Hi Omar,\nAll owners have been emailed individually."), "to": ["omar.nair@northwind.test"],
               "subject": "Summary"}
    state = EvalState(files={**office, "emails/maya/sent/1.eml": to_dana, "emails/maya/sent/2.eml": summary},
                      now=NOW, instruction="Tell Dana Ortiz about SO-1003, then tell Omar Nair.", before=office,
                      gold=office, user=USER, user_name="Maya Lin")
    assert written_truth(state).false == []
    alone = EvalState(files={**office, "emails/maya/sent/2.eml": summary}, now=NOW, before=office, gold=office,
                      instruction="Tell Dana Ortiz about SO-1003, then tell Omar Nair.", user=USER, user_name="Maya Lin")
    assert written_truth(alone).false  # no other mail was sent


def test_a_cover_mail_no_check_reads_is_read_and_a_false_date_fails():
    wrong = _state({**OFFICE, "emails/maya/sent/1.eml": _mail("Hi Dana,\nSO-1003 was delivered on 8 September 2026.")})
    truth = written_truth(wrong)
    assert truth.false and "SO-1003" in truth.false[0]
    record = evaluate([{"check": "file_exists", "args": {"file": "data/orders.xlsx"}}], wrong, task_id="t",
                      status="finished", side_effects=[], steps=1)
    assert not record.passed and record.checks[-1].check == "written_truth"
    right = _state({**OFFICE, "emails/maya/sent/1.eml": _mail("Hi Dana,\nSO-1003 was delivered on 22 September 2026.")})
    record = evaluate([{"check": "file_exists", "args": {"file": "data/orders.xlsx"}}], right, task_id="t",
                      status="finished", side_effects=[], steps=1)
    assert record.passed and record.unread == 0


def test_an_unbound_statement_is_counted_unread_not_passed_silently():
    state = _state(dict(OFFICE), answer="The total was £999.99 last year.")
    truth = written_truth(state)
    assert truth.false == [] and len(truth.unread) == 1


@pytest.mark.parametrize("body,false", [
    ("Hi Dana,\nI've booked the review with Acme Tools for Friday.", True),
    ("Hi Dana,\nPlease find attached the order list.", True),
    ("Hi Dana,\nI have updated the tracker with both orders.", True),
    ("Hi Dana,\nI will book the review once you confirm.", False),
    ("Hi Dana,\nI haven't booked anything yet.", False),
])
def test_a_sentence_claiming_an_action_is_compared_with_what_the_episode_did(body, false):
    truth = written_truth(_state({**OFFICE, "emails/maya/sent/1.eml": _mail(body)}))
    assert bool(truth.false) == false, truth.false


def test_a_forward_that_copies_the_original_body_adds_no_words_of_the_agent():
    """A forward without a marker (WorkBench's copies the body verbatim) greets the original's addressee: those
    are another's words; the same text in a mail the agent wrote is its own and is read."""
    original = {**_mail("Hi Maya,\nSO-1003 is on its way."), "mailbox": USER, "folder": "inbox",
                "from": "dana.ortiz@northwind.test", "to": [USER]}
    office = {**OFFICE, "emails/maya/inbox/7.eml": original}
    forward = {**_mail(original["body"]), "subject": "FW: Acme Tools orders"}
    state = EvalState(files={**office, "emails/maya/sent/1.eml": forward}, now=NOW, before=office, gold=office,
                      instruction="Forward Dana's mail to herself.", user=USER, user_name="Maya Lin")
    assert written_truth(state).false == []
    own = {**forward, "subject": "Acme Tools orders"}
    state = EvalState(files={**office, "emails/maya/sent/1.eml": own}, now=NOW, before=office, gold=office,
                      instruction="Forward Dana's mail to herself.", user=USER, user_name="Maya Lin")
    assert written_truth(state).false and "greets" in written_truth(state).false[0]


def test_a_range_boundary_is_not_read_as_an_items_attribute(records):
    false, _ = verdicts("Acme Tools ordered SO-1003 after 3 September 2026.", records)
    assert false == []  # SO-1002's order date, but as the end of a range
    false, _ = verdicts("Acme Tools ordered SO-1003 on 3 September 2026.", records)
    assert false == ["3 September 2026"]


def test_lines_right_under_a_heading_are_its_items_and_are_counted(records):
    false, _ = verdicts("Four orders are late:\nSO-1001 for Acme Tools\nSO-1003 for Acme Tools\n\nThanks.", records)
    assert false == ["Four orders"]


def test_a_value_with_an_alternative_in_parentheses_fails(records):
    false, _ = verdicts("SO-1001 comes to £1,250.00 (or £830.50).", records)
    assert "(or £830.50)" in false
    false, _ = verdicts("SO-1001 comes to £1,250.00 (see the orders sheet).", records)
    assert false == []


def test_a_slashed_date_is_true_when_one_of_its_readings_is(records):
    false, true = verdicts("SO-1001 was delivered on 08/09/2026.", records)
    assert false == [] and true == ["08/09/2026"]


def test_what_the_gold_states_of_an_item_is_true_of_it(records):
    from officesim.evaluators.verdicts import statements_about
    gold = "SO-1001: approved £1,000.00 of it."
    scope = Scope(written=claims_in(gold, year=2026), about=statements_about(gold, records, 2026), now=NOW, year=2026)
    reading = read("SO-1001: I approved £1,000.00.", records, scope)
    assert [v.verdict for v in reading.verdicts] == ["true"]


@pytest.mark.parametrize("text,wrong", [
    ("- SO-1002: ordered 3 September 2026, delivered 12 September 2026", False),
    ("- SO-1002: ordered 12 September 2026, delivered 3 September 2026", True),  # the two dates swapped
])
def test_a_value_the_gold_gives_an_item_is_false_under_the_name_of_its_other_column(records, text, wrong):
    from officesim.evaluators.verdicts import statements_about
    gold = "- SO-1002: ordered 3 September 2026, delivered 12 September 2026"
    scope = Scope(written=claims_in(gold, year=2026), about=statements_about(gold, records, 2026), now=NOW, year=2026)
    reading = read(text, records, scope)
    assert bool(reading.false) == wrong, [v.message() for v in reading.verdicts]


@pytest.mark.parametrize("text,wrong", [
    ("SO-1002 was approved for £600.00.", True),  # the gold gives SO-1002 £400.00 and £600.00 to SO-1003
    ("SO-1002 was approved for £400.00.", False),
    ("SO-1002 (£830.50) was approved for £400.00.", False),  # its own amount is true context
    ("SO-1003 was approved for £600.00.", False),
    ("SO-1002: the last chaser was on 5 October.", True),  # the gold gives it 12 October, 5 October is SO-1003's
    ("SO-1002: the last chaser was on 12 October.", False),
    ("SO-1002 moved to Dana on 5 October.", False),  # a date of another thing the sentence tells
])
def test_a_value_the_gold_gives_another_item_is_false_of_this_one(records, text, wrong):
    from officesim.evaluators.verdicts import statements_about
    gold = ("SO-1002: approved £400.00, last chaser 12 October 2026.\n"
            "SO-1003: approved £600.00, last chaser 5 October 2026.")
    scope = Scope(written=claims_in(gold, year=2026), about=statements_about(gold, records, 2026), now=NOW, year=2026)
    reading = read(text, records, scope)
    assert bool(reading.false) == wrong, [v.message() for v in reading.verdicts]


# ---- counts over what the statement lists; hedges after a noun; worked-out day counts -------------------
@pytest.mark.parametrize("text,wrong", [
    ("Acme Tools asked about four orders: SO-1001, SO-1003 and SO-1002.", True),
    ("Acme Tools asked about three orders: SO-1001, SO-1003 and SO-1002.", False),
    ("Order ids (three): SO-1001, SO-1002.", True),
    ("It is kept in all three places: the staff list and the order book.", True),
    ("It is kept in both places: the staff list and the order book.", False),
    ("Due in the next 7 days: SO-1001, SO-1002.", False),  # a span of time, not a count of the list
])
def test_a_count_is_read_against_the_list_it_counts(records, text, wrong):
    false, _true = verdicts(text, records)
    assert bool([f for f in false if "three" in f.lower() or "four" in f.lower() or "7" in f]) == wrong, false


def test_a_value_with_an_alternative_after_its_noun_is_a_hedge(records):
    false, _true = verdicts("Acme Tools placed 2 orders (or 3) in September.", records)
    assert "(or 3)" in false


@pytest.mark.parametrize("text,wrong", [
    ("SO-1001 was delivered 7 days after it was ordered.", False),  # 1 to 8 September
    ("SO-1001 was delivered 12 days after it was ordered.", True),
    ("SO-1002 arrived 7 working days after the order.", False),  # 3 to 12 September: 7 working days, 9 calendar
    ("SO-1002 arrived 4 working days after the order.", True),
    ("SO-1001 must be paid no more than 30 days after delivery.", False),  # a rule, not a count
])
def test_a_day_count_is_worked_out_from_the_dates_of_what_it_is_about(records, text, wrong):
    false, _true = verdicts(text, records)
    assert bool([f for f in false if "days" in f]) == wrong, false


def test_a_name_given_to_another_items_identifier_is_false(records):
    false, _true = verdicts("SO-1002 from Acme Tools arrived on 12 September 2026.", records)
    assert "Acme Tools" in false
    false, _true = verdicts("SO-1002 from Birch Supplies arrived on 12 September 2026.", records)
    assert false == []


CUSTOMERS = {"kind": "xlsx", "sheet_order": ["Customers"], "sheets": {"Customers": [
    ["Customer", "Contact"],
    ["Acme Tools", "ines.roy@acme.test"],
    ["Birch Supplies", "leo.park@birch.test"],
]}}


def test_a_mail_to_one_customer_that_names_another_customers_order_is_false():
    office = {**OFFICE, "data/customers.xlsx": CUSTOMERS}

    def truth(body: str):
        mail = {**_mail(body), "to": ["ines.roy@acme.test"]}
        state = EvalState(files={**office, "emails/maya/sent/1.eml": mail}, now=NOW, before=office, gold=office,
                          user=USER, user_name="Maya Lin", instruction="Tell Acme Tools about their orders.")
        return written_truth(state).false

    assert any("SO-1002" in f for f in truth("Hi Ines,\nYour order SO-1002 arrived on 12 September 2026."))
    assert truth("Hi Ines,\nYour order SO-1003 arrived on 22 September 2026.") == []
    colleague = {**_mail("Hi Dana,\nBirch's SO-1002 arrived on 12 September 2026."), "to": ["dana.ortiz@northwind.test"],
                 "subject": "Order update"}  # under "Acme Tools orders" the subject names what the mail does not
    state = EvalState(files={**office, "emails/maya/sent/1.eml": colleague}, now=NOW, before=office, gold=office,
                      user=USER, user_name="Maya Lin", instruction="Tell Dana about the orders.")
    assert written_truth(state).false == []  # a colleague may hear of any customer's order


def test_a_value_of_an_item_the_statement_names_in_other_words_is_not_anothers():
    """A statement about two statement lines names one by its key and the other in its own words: each
    value is the attribute of one of them, not a rival's beside the first."""
    lines = {"kind": "xlsx", "sheet_order": ["Statement"], "sheets": {"Statement": [
        ["Date", "Description", "Amount"],
        [datetime(2026, 10, 13), "Direct debit Willowby Packaging", 245.01],
        [datetime(2026, 10, 31), "Account service charge", 18.75],
    ]}}
    records = build_records({"bank/statement.xlsx": lines}, 2026)
    scope = Scope(claims=[], now=NOW, year=2026)
    both = ("The statement also has two lines that are not in the ledger: the Willowby Packaging direct debit "
            "of £245.01 and the account service charge of £18.75.")
    assert [v.value for v in read(both, records, scope).false] == []
    wrong = "The statement also has a line that is not in the ledger: the account service charge of £245.01."
    assert [v.value for v in read(wrong, records, scope).false] == ["£245.01"]


def test_what_the_gold_forwards_is_involved_and_what_it_did_may_be_counted():
    """True context about a message the gold forwards (its date) is read against that message; a count of
    what the gold did (rows it changed, mails it sent) is true context too."""
    from officesim.evaluators.truth import _true_context, gold_counts

    question = {"kind": "eml", "mailbox": USER, "folder": "inbox", "from": "dana.ortiz@northwind.test", "to": [USER],
                "cc": [], "subject": "Shipping", "date": datetime(2026, 9, 29, 10, 0),
                "body": "When will SO-1003 ship?", "attachments": []}
    office = {**OFFICE, "emails/maya/inbox/7.eml": question}
    forward = {**_mail("---------- Forwarded message ----------\nFrom: dana.ortiz@northwind.test\n"
                       "Subject: Shipping\n\nWhen will SO-1003 ship?"), "subject": "Fwd: Shipping",
               "to": ["omar.nair@northwind.test"]}
    orders = ORDERS["sheets"]["Orders"]
    ticked = {**ORDERS, "sheets": {"Orders": [orders[0], *[[*r[:4], 0] for r in orders[1:3]], orders[3]]}}
    gold = {**office, "emails/maya/sent/1.eml": forward, "data/orders.xlsx": ticked}
    state = EvalState(files=gold, now=NOW, before=office, gold=gold, instruction="Pass Dana's question on to Omar.",
                      user=USER, user_name="Maya Lin")
    said = "I've forwarded Omar Dana's question of 29 September about SO-1003."
    (when,) = claims_in(said, year=2026, kinds=("date",))
    assert _true_context(state)(when, said)
    (wrong,) = claims_in(said.replace("29 September", "24 September"), year=2026, kinds=("date",))
    assert not _true_context(state)(wrong, said.replace("29 September", "24 September"))
    assert {2.0, 1.0} <= gold_counts(state) and 3.0 not in gold_counts(state)


def test_a_total_over_the_items_the_text_names_is_true_context(records):
    from officesim.evaluators.verdicts import true_of_records

    for total, true in (("£3,650.00", True), ("£3,600.00", False)):
        text = f"Acme Tools has SO-1001 and SO-1003 open. Together they come to {total}."
        (c,) = claims_in(text.split(". ")[1], year=2026, kinds=("number",))
        at = text.index(total)
        c = type(c)(c.kind, c.value, c.text, c.precision, c.currency, at, at + len(total), c.unscaled)
        assert true_of_records(c, text, records, 2026, frozenset()) is true, total


def test_a_mail_said_sent_to_a_company_must_have_gone_to_its_contact():
    customers = {"kind": "xlsx", "sheet_order": ["Customers"], "sheets": {"Customers": [
        ["Customer", "Contact", "Email"], ["Acme Tools", "Ana Diaz", "ana.diaz@acmetools.test"]]}}
    office = {**OFFICE, "data/customers.xlsx": customers}
    note = _mail("Hi Dana,\nI have already sent the revised quote to Acme Tools.")

    def false(other_to: str) -> list[str]:
        other = {**_mail("Hello,\nThe revised quote is below."), "subject": "Revised quote", "to": [other_to]}
        files = {**office, "emails/maya/sent/1.eml": note, "emails/maya/sent/2.eml": other}
        state = EvalState(files=files, now=NOW, before=office, gold=office, instruction="Tell Dana about the quote.",
                          user=USER, user_name="Maya Lin")
        return [f for f in written_truth(state).false if "claims an action" in f]

    assert false("omar.nair@northwind.test")
    assert not false("ana.diaz@acmetools.test")


def test_a_total_over_one_item_per_line_takes_the_item_the_line_describes(records):
    from officesim.evaluators.verdicts import true_of_records

    lines = "- Acme Tools, ordered 15 September 2026\n- Birch Supplies, ordered 3 September 2026\nTogether: {}."
    for total, true in (("£3,230.50", True), ("£2,080.50", False)):  # Acme's order of that date, not its other
        text = lines.format(total)
        at = text.index(total)
        (c,) = [x for x in claims_in(text, year=2026, kinds=("number",)) if x.text == total]
        assert true_of_records(c, text, records, 2026, frozenset()) is true, total


def test_a_count_of_the_attached_workbooks_items_is_read_against_its_rows():
    def false(body: str) -> list[str]:
        mail = {**_mail(body), "attachments": [{"filename": "orders.xlsx", "size": 10, "sha256": "x"}]}
        return [f for f in written_truth(_state({**OFFICE, "emails/maya/sent/1.eml": mail})).false if "workbook" in f]

    assert false("Hi Dana,\nAttached is the list of the four orders.")
    assert not false("Hi Dana,\nAttached is the list of the three orders.")
    assert not false("Hi Dana,\nAttached is the list of the orders.")
    rows_or_files = lambda body: [f for f in written_truth(_state({**OFFICE, "emails/maya/sent/1.eml": {  # noqa: E731
        **_mail(body), "attachments": [{"filename": "orders.xlsx", "size": 10, "sha256": "x"}]}})).false if "attached" in f]
    assert not rows_or_files("Hi Dana,\nAttached are the three orders.")  # the workbook's three rows
    assert rows_or_files("Hi Dana,\nAttached are the four orders.")


def test_a_forward_is_from_whom_its_note_and_the_claims_of_it_say():
    """A forward's note naming another party than the forwarded message's sender is false; so is a claim
    of having forwarded a party's mails when no forwarded message came from that party."""
    customers = {"kind": "xlsx", "sheet_order": ["Customers"], "sheets": {"Customers": [
        ["Customer", "Contact", "Email"], ["Acme Tools", "Ana Diaz", "ana.diaz@acmetools.test"],
        ["Birch Supplies", "Ben Ode", "ben.ode@birch.test"]]}}
    question = {"kind": "eml", "mailbox": USER, "folder": "inbox", "from": "ana.diaz@acmetools.test", "to": [USER],
                "cc": [], "subject": "Delivery", "date": datetime(2026, 10, 12, 9, 0), "body": "When is it due?",
                "attachments": []}
    office = {**OFFICE, "data/customers.xlsx": customers, "emails/maya/inbox/3.eml": question}

    def false(note: str, cover: str = "") -> list[str]:
        body = (f"{note}\n\n---------- Forwarded message ----------\nFrom: Ana Diaz <ana.diaz@acmetools.test>\n"
                "Date: 12 Oct 2026\nSubject: Delivery\nTo: maya.lin@northwind.test\n\nWhen is it due?\n")
        forward = {**_mail(body), "subject": "Fwd: Delivery"}
        files = {**office, "emails/maya/sent/1.eml": forward}
        if cover:
            files["emails/maya/sent/2.eml"] = {**_mail(cover), "subject": "Handover"}
        state = EvalState(files=files, now=NOW, before=office, gold=office, instruction="Hand the customers over.",
                          user=USER, user_name="Maya Lin")
        return written_truth(state).false

    assert not false("Hi Dana, this one from Acme Tools is yours now.")
    assert any("Birch Supplies" in f for f in false("Hi Dana, this one from Birch Supplies is yours now."))
    assert not false("Hi Dana, this one is yours now. The other, from Birch Supplies, follows separately.")
    assert not false("Hi Dana, see below.", "Hi Dana,\nI've forwarded you Acme Tools' question.")
    assert any("forwarded" in f for f in false("Hi Dana, see below.", "Hi Dana,\nI've forwarded you Birch Supplies' question."))


@pytest.mark.parametrize("text,false", [
    ("Notice must be given by 2 June 2027, which is 170 days from today.", True),
    ("Notice must be given by 2 June 2027, which is 226 days from today.", False),
    ("Payment terms are 30 days after the invoice date.", False),  # a rule, beside its count
    ("SO-1003 must be paid within 14 days after delivery.", False),
])
def test_a_day_count_in_a_long_sentence_is_a_count_unless_a_bound_stands_beside_it(records, text, false):
    assert bool(verdicts(text, records)[0]) == false


def test_an_amount_is_not_worked_out_from_a_count_of_days():
    invoice = {"kind": "pdf", "pages": ["INVOICE EU-2610-0366\nIssued: 10 October 2026\nAmount due: £3,616.20\n"
                                        "Payment terms: 45\n"]}
    records = build_records({"data/EU-2610-0366.pdf": invoice}, 2026)
    scope = Scope(claims=[], now=NOW, year=2026)
    said = "Your invoice EU-2610-0366 for the same amount ({})."
    assert [v.value for v in read(said.format("£3,661.20"), records, scope).false] == ["£3,661.20"]  # 3,616.20 + 45
    assert read(said.format("£3,616.20"), records, scope).false == []


def test_a_value_right_after_an_identifier_is_that_items(records):
    """"SO-1001 of 15 September" gives SO-1003's order date to SO-1001, though the statement names both."""
    false, _ = verdicts("SO-1003 repeats SO-1001 of 15 September 2026.", records)
    assert false == ["15 September 2026"]
    false, _ = verdicts("SO-1003 repeats SO-1001 of 1 September 2026.", records)
    assert false == []
    false, _ = verdicts("SO-1003 of 15 September 2026 repeats SO-1001.", records)
    assert false == []


@pytest.mark.parametrize("text,false", [
    ("SO-1003 was ordered on 15 September 2026, or maybe 3 September 2026.", True),
    ("SO-1003 comes to £2,400.00 or possibly £2,040.00.", True),
    ("SO-1003 was ordered on 15 September 2026, or just before.", False),
])
def test_an_alternative_value_after_or_maybe_is_a_hedge(records, text, false):
    assert bool(verdicts(text, records)[0]) == false


@pytest.mark.parametrize("text,false", [
    ("SO-1003 was ordered on 15 September 2026, or maybe earlier.", True),
    ("Probably approved - I still need to check with HR before it's final.", True),
    ("I think I've recorded most of the orders, though a few may have slipped through.", True),
    ("These might or might not be approved.", True),
    ("All the notices are recorded, roughly 15, I think.", True),
    ("15 orders were recorded (I think).", True),
    ("I think we should wait for Hugo's answer?", False),
    ("I'm not sure whether you approved SO-1003 - could you confirm?", False),
    ("Maybe we could meet on Tuesday at 10:00.", False),
    ("I found no approval for SO-1003.", False),
])
def test_a_statement_left_open_is_a_hedge(text, false):
    """Words that leave a statement open fail it; a question, a request or a proposal is open by design."""
    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import prose_hedges
    assert bool(prose_hedges(cut(text))) == false


def test_a_share_of_two_values_is_true_context(records):
    from officesim.evaluators.verdicts import true_of_records

    for share, true in (("34.2%", True), ("52%", False)):  # 1,250.00 of SO-1001 over the two orders' 3,650.00
        text = f"SO-1001 comes to £1,250.00 of the £3,650.00 Acme Tools ordered, {share} of it."
        (c,) = [x for x in claims_in(text, year=2026, kinds=("number",)) if x.text.startswith(share.rstrip("%"))]
        assert true_of_records(c, text, records, 2026, frozenset()) is true, share


def test_a_percentage_of_a_comparison_that_no_two_figures_give_is_false(records):
    """"31% over" where the text's own figures give 13.1%: a share is read whenever its operands stand
    in its sentence; one that they, the items named or the office give is true."""
    wrong = "Purchasing spent £55,403.72 against £49,000.00, overspent by £6,403.72, about 31% over budget."
    assert "31%" in verdicts(wrong, records)[0]
    right = wrong.replace("about 31%", "about 13.1%")
    assert not verdicts(right, records)[0]
    assert "34.2%" not in verdicts("SO-1001 is £1,250.00 of the £3,650.00 Acme Tools ordered, 34.2% of it.", records)[0]
    # a rate the task gives is no share to work out; nor is one with no figures beside it to work from
    discount = "A 3% discount off the £1,250.00 and the £830.50 orders is 3% less than the list price."
    assert "3%" not in verdicts(discount, records, ("Acme Tools get a 3% discount.",))[0]
    assert "3%" in verdicts(discount, records)[0]
    assert not verdicts("Acme Tools' orders are up 12% on last month.", records)[0]


def _rival_office():
    orders = [["PO", "Supplier", "Item"]] + [[f"PO-{4000 + n}", "Zephyr Couriers", "Parcel run"] for n in range(45)]
    orders.append(["PO-4793", "Ironvale Logistics", "Pallet racking"])
    staff = [["Name", "Job title"], ["Teo Sato", "Logistics Coordinator"], ["Keiko Lambert", "Warehouse Lead"],
             ["Mira Iyer", "Logistics Coordinator"], ["Rafael Lind", "Logistics Coordinator"]]
    return build_records({"data/po.xlsx": {"kind": "xlsx", "sheets": {"Orders": orders}},
                          "data/staff.xlsx": {"kind": "xlsx", "sheets": {"Staff": staff}}}, 2026)


@pytest.mark.parametrize("text,false", [
    ("PO-4793 (Zephyr Couriers) was delivered.", ["Zephyr Couriers"]),  # a name on 46 rows still names another's
    ("PO-4793 (Ironvale Logistics) was delivered.", []),
    ("PO-4793 is not a Zephyr Couriers order.", []),  # said not to be the row's
    ("I couldn't find PO-4793 among Zephyr Couriers' orders.", []),
    ("PO-4793 is the Parcel run order.", ["Parcel run"]),
    ("Teo Sato (Warehouse Lead) starts on Monday.", ["Warehouse Lead"]),
    ("Teo Sato (Logistics Coordinator) starts on Monday; his buddy is Keiko Lambert (Warehouse Lead).", []),
    ("Teo Sato's buddy is Mira Iyer.", []),
])
def test_a_name_under_another_rows_column_is_not_this_rows(text, false):
    """A name a statement gives to the row it names is false when the row holds another name under the
    column that name stands under elsewhere (a supplier, an item, a job title), however common the name."""
    records = _rival_office()
    reading = read(text, records, Scope(now=NOW, year=2026))
    assert [v.value for v in reading.verdicts if v.verdict == "false"] == false


@pytest.mark.parametrize("answer,false", [
    ("I marked SO-1002 as delivered.", False),
    ("I marked SO-1002 and SO-1003 as delivered.", True),  # SO-1003's row is as it was
    ("I marked SO-1002 as delivered and left SO-1003 as it was.", False),
    ("I have not marked SO-1003.", False),
])
def test_a_row_said_recorded_must_be_one_the_episode_changed(answer, false):
    """"I also marked PO-4789 as delivered" where the episode left that row as it was is a claim of work
    nobody did."""
    rows = [list(r) for r in ORDERS["sheets"]["Orders"]]
    rows[2][3] = datetime(2026, 9, 13)
    after = {**OFFICE, "data/orders.xlsx": {**ORDERS, "sheets": {"Orders": rows}}}
    truth = written_truth(_state(after, answer=answer))
    assert any("changed no row" in f for f in truth.false) == false, truth.false


@pytest.mark.parametrize("answer,set_to,false", [
    ("SO-1002 was delivered on 13 September 2026.", datetime(2026, 9, 13), False),
    ("SO-1002 was delivered on 13/09/2026.", datetime(2026, 9, 13), False),  # either reading may be the one
    ("SO-1002 was delivered on 14 September 2026.", datetime(2026, 9, 13), True),  # the task sets the 13th
    ("SO-1002 was delivered on 14 September 2026.", datetime(2026, 9, 14), False),  # what the episode set: its checks judge
    ("SO-1002's delivery moved from 12 September 2026 to 13 September 2026.", datetime(2026, 9, 13), False),
    ("SO-1002 was still delivered on 12 September 2026.", datetime(2026, 9, 13), True),  # the stale value
])
def test_a_value_of_a_cell_the_task_sets_is_the_new_one(answer, set_to, false):
    """A value said of a row the task changes, under its column's words, is the value the task sets
    (or the one the episode set, which the workbook's checks judge)."""
    def office(day):
        rows = [list(r) for r in ORDERS["sheets"]["Orders"]]
        rows[2][3] = day
        return {**OFFICE, "data/orders.xlsx": {**ORDERS, "sheets": {"Orders": rows}}}
    state = EvalState(files=office(set_to), answer=answer, now=NOW, instruction="Record SO-1002's delivery.",
                      before=OFFICE, gold=office(datetime(2026, 9, 13)), user=USER, user_name="Maya Lin")
    assert any("task sets" in f for f in written_truth(state).false) == false, written_truth(state).false


@pytest.mark.parametrize("body,false", [
    ("Hi Dana,\nAcme Tools has written to us three times about SO-1003.", False),
    ("Hi Dana,\nAcme Tools has chased us twice since 1 October 2026.", False),  # since a date it gives
    ("Hi Dana,\nAcme Tools has chased us twice now.", True),
    ("Hi Dana,\nAcme Tools has been chasing us - five times now.", True),
])
def test_a_count_of_a_partys_messages_is_how_many_the_office_holds(body, false):
    """"They have written to us twice" counts the messages the office holds from that party, in all or
    since a date the statement or the instruction gives."""
    chasers = {f"emails/{USER}/inbox/{n}.eml": {"kind": "eml", "mailbox": USER, "folder": "inbox",
                                                   "from": "ines.roy@acme.test", "to": [USER], "cc": [],
                                                   "subject": f"SO-1003 chaser {n}", "date": f"2026-{m}-05 10:00:00",
                                                   "body": "Where is our order?", "attachments": []}
               for n, m in ((1, "09"), (2, "10"), (3, "10"))}
    office = {**OFFICE, "data/customers.xlsx": CUSTOMERS, **chasers}
    state = EvalState(files={**office, "emails/maya/sent/1.eml": _mail(body)}, now=NOW, before=office, gold=office,
                      user=USER, user_name="Maya Lin", instruction="Tell Dana how often Acme Tools has chased us.")
    truth = written_truth(state)
    assert any("message(s) from them" in f for f in truth.false) == false, truth.false


@pytest.mark.parametrize("body,false", [
    ("Hi Dana,\nYour welcome meeting with Omar Nair is at 10:00 on Monday.", False),
    ("Hi Dana,\nYour welcome meeting with Omar Nair is at 09:30 on Monday.", True),
    ("Hi Dana,\nOmar Nair starts at 09:00 on Monday.", False),  # no meeting named: his start, not the event
    ("Hi Dana,\nOmar Nair joins on Monday. The welcome is at 09:30.", True),  # the one event the text names
])
def test_a_time_said_of_an_event_the_episode_made_is_its_time(body, false):
    """"His welcome meeting is at 09:30" where the event made is 10:00-10:30 says another time."""
    cal = {"kind": "ics", "user": USER, "events": [{"summary": "Welcome: Omar Nair", "start": "2026-10-26 10:00:00",
                                                     "end": "2026-10-26 10:30:00", "attendees": [USER]}]}
    before = {**OFFICE, "calendar/maya.ics": {"kind": "ics", "user": USER, "events": []}}
    after = {**before, "calendar/maya.ics": cal, "emails/maya/sent/1.eml": _mail(body)}
    state = EvalState(files=after, now=NOW, before=before, gold=before, user=USER, user_name="Maya Lin",
                      instruction="Book Omar Nair's welcome and tell Dana.")
    truth = written_truth(state)
    assert any("the event the episode made" in f for f in truth.false) == false, truth.false


def test_a_date_without_its_year_is_read_in_this_year_too_when_the_nearest_is_next_year():
    """In December, "due 16 February" of an overdue invoice is last February's, though the nearest 16
    February is next year's: either reading may be the row's; a day that is neither stays false."""
    from officesim.evaluators.facts import REFERENCE_NOW

    office = {"data/invoices.xlsx": {"kind": "xlsx", "sheet_order": ["Invoices"], "sheets": {"Invoices": [
        ["Invoice", "Supplier", "Due"],
        ["ZC-2602-0033", "Zephyr Couriers", datetime(2026, 2, 16)],
        ["PC-2609-0336", "Pinecrest Catering", datetime(2026, 11, 16)]]}}}
    records = build_records(office, 2026)
    now = datetime(2026, 12, 7, 9)
    token = REFERENCE_NOW.set(now)
    try:
        said = "The oldest is ZC-2602-0033 from Zephyr Couriers, due {}; the largest is PC-2609-0336."
        right = read(said.format("16 February"), records, Scope(now=now, year=2026))
        wrong = read(said.format("18 February"), records, Scope(now=now, year=2026))
    finally:
        REFERENCE_NOW.reset(token)
    assert [v.value for v in right.verdicts if v.verdict == "false"] == []
    assert [v.value for v in right.verdicts if v.verdict == "true"] == ["16 February"]
    assert [v.value for v in wrong.verdicts if v.verdict == "false"] == ["18 February"]


def test_a_label_is_read_against_the_item_the_value_belongs_to():
    """"PO-4851 was due on 23 November" is the order's promised day, not the Due of the invoice that refers
    to the order; "Rosa Tanaka's leave starts on 27 November" is her leave's From, not a contract's Start.
    A value under the label of its own item's other column stays false."""
    office = {
        "data/orders.xlsx": {"kind": "xlsx", "sheet_order": ["Orders"], "sheets": {"Orders": [
            ["PO", "Ordered", "Promised"], ["PO-4851", datetime(2026, 11, 9), datetime(2026, 11, 23)]]}},
        "data/invoices.xlsx": {"kind": "xlsx", "sheet_order": ["Invoices"], "sheets": {"Invoices": [
            ["Invoice", "PO", "Due"], ["CS-2611-0445", "PO-4851", datetime(2026, 12, 4)]]}},
        "data/leave.xlsx": {"kind": "xlsx", "sheet_order": ["Leave"], "sheets": {"Leave": [
            ["Name", "From", "To"], ["Rosa Tanaka", datetime(2026, 11, 27), datetime(2026, 11, 30)]]}},
        "data/contracts.xlsx": {"kind": "xlsx", "sheet_order": ["Contracts"], "sheets": {"Contracts": [
            ["Ref", "Owner", "Start", "End"], ["CTR-2363", "Rosa Tanaka", datetime(2024, 2, 1), datetime(2027, 1, 31)]]}},
    }
    records = build_records(office, 2026)

    def false(text: str) -> list[str]:
        return [v.value.rstrip(".") for v in read(text, records, Scope(now=NOW, year=2026)).verdicts if v.verdict == "false"]

    assert false("Purchase order PO-4851 was due on 23 November but is still open.") == []
    assert false("Rosa Tanaka's leave only starts on 27 November.") == []
    assert false("PO-4851 was ordered on 23 November.") == ["23 November"]  # its Promised, not its Ordered
    assert false("Invoice CS-2611-0445 is due on 9 November.") == ["9 November"]


def test_a_role_given_to_a_person_must_be_theirs():
    """"Stefan Moreau, the Head of Finance" is false where the directory's Head of Finance is Joel Fischer;
    his own role, a role the task gives him, or a change said beside it is not."""
    from officesim.evaluators.roles import given_roles

    staff = {"kind": "xlsx", "sheet_order": ["Staff"], "sheets": {"Staff": [
        ["Name", "Role", "Manager"],
        ["Joel Fischer", "Head of Finance", ""],
        ["Stefan Moreau", "Operations Director", "Joel Fischer"],
        ["Mira Iyer", "Warehouse Lead", "Stefan Moreau"]]}}
    office = {"data/staff.xlsx": staff}
    records = build_records(office, 2026)
    after = {"data/staff.xlsx": {**staff, "sheets": {"Staff": [*staff["sheets"]["Staff"][:3],
                                                                ["Mira Iyer", "Warehouse Supervisor", "Stefan Moreau"]]}}}
    scope = Scope(now=NOW, year=2026, roles=given_roles(office, after))

    def false(text: str) -> list[str]:
        return [v.value for v in read(text, records, scope).verdicts if v.verdict == "false"]

    assert false("Approved with Stefan Moreau, the Head of Finance, in copy.") == ["Head of Finance"]
    assert false("Copied our Head of Finance, Stefan Moreau.") == ["Head of Finance"]
    assert false("Approved with Joel Fischer, the Head of Finance, in copy.") == []
    assert false("Stefan Moreau (Operations Director) signs it off.") == []
    assert false("Mira Iyer, Warehouse Supervisor, now leads the team.") == []  # the role the task gives
    assert false("Stefan Moreau is not the Head of Finance.") == []


@pytest.mark.parametrize("text", [
    "We may already have paid invoice RI-2606-0211; if so, please refund £150.78.",
    "#5119 - Teams room display (this may already have been resolved)",
    "I wasn't sure how to count the days, so YE-2608-0256 could be 8 or 9 days late.",
    "I may not be able to fit the review before her six-month date, but something might still free up.",
])
def test_more_ways_of_leaving_a_statement_open_are_hedges(text):
    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import prose_hedges

    assert prose_hedges(cut(text)), text


@pytest.mark.parametrize("text", [
    "You may have seen the note from HR.",
    "If it has already been paid, please refund £150.78.",
    "Invoice RI-2606-0211 was paid on 5 July, so please refund £150.78.",
    "Omar mentioned your number may have changed to +44 7700 900885.",  # another person's doubt, reported
])
def test_a_condition_or_a_plain_statement_is_no_hedge(text):
    from officesim.evaluators.statements import cut
    from officesim.evaluators.verdicts import prose_hedges

    assert prose_hedges(cut(text)) == [], text


def _vantage_invoices():
    """Two invoices of one supplier, the first due 25 November 2026."""
    return build_records({"data/invoices.xlsx": {"kind": "xlsx", "sheet_order": ["Invoices"], "sheets": {"Invoices": [
        ["Invoice", "Supplier", "Issued", "Due", "Amount"],
        ["VS-2609-0316", "Vantage Security", datetime(2026, 9, 26), datetime(2026, 11, 25), 1352.52],
        ["VS-2610-0350", "Vantage Security", datetime(2026, 10, 25), datetime(2026, 12, 28), 980.00],
    ]}}}, 2026)


@pytest.mark.parametrize("text,wrong", [
    ("Its unpaid invoice VS-2609-0316 isn't due until 25 December.", True),  # its Due is 25 November
    ("Its unpaid invoice VS-2609-0316 isn't due until 25 November.", False),
    ("Please pay VS-2609-0316 by 25 December.", False),  # a deadline set, not the invoice's due date stated
])
def test_a_due_date_stated_with_until_is_read_against_the_items_due(text, wrong):
    records = _vantage_invoices()
    reading = read(text, records, Scope(now=datetime(2026, 11, 20, 9, 0), year=2026))
    assert bool(reading.false) == wrong, [v.message() for v in reading.verdicts]


@pytest.mark.parametrize("text,wrong", [
    ("Ahead of our quarterly call on Monday 23 November, here is the agenda.", True),
    ("Ahead of our quarterly call on Tuesday 24 November, here is the agenda.", False),
    ("Could we move our quarterly call to Monday 23 November?", False),  # a day proposed, not stated
    ("Invoice SC-2610-0354 was due on 14 November; see you at the call.", False),  # the date is the invoice's
    # a meeting named by its party: that party's meeting, whoever the mail goes to
    ("- Birchwood Stationers: quarterly call Monday 23 November at 11:00", False),
    ("- Birchwood Stationers: quarterly call Monday 23 November at 14:00", True),  # it starts at 11:00
    ("- Birchwood Stationers: quarterly call Tuesday 24 November at 11:00", True),  # Saltmarsh's day
    # today's date, said as such, beside the meeting's word
    ("Here is the agenda for next week's quarterly call (day counts as of today, 16 November):", False),
    ("Here is the agenda for next week's quarterly call (on 16 November):", True),
])
def test_the_day_of_the_meeting_a_mail_is_about_is_the_calendars(text, wrong):
    from officesim.evaluators.truth import event_date_problems
    office = {"data/suppliers.xlsx": {"kind": "xlsx", "sheet_order": ["Suppliers"], "sheets": {"Suppliers": [
        ["Supplier", "Account manager", "Email"],
        ["Saltmarsh Cleaning", "Teo Brandt", "teo@saltmarshcleaning.test"],
        ["Birchwood Stationers", "Elena Weber", "elena@birchwood.test"],
    ]}}}
    events = [{"summary": "Quarterly call: Saltmarsh Cleaning", "start": "2026-11-24 11:00:00",
               "attendees": ["vera.brandt@harbourline.test"]},
              {"summary": "Quarterly call: Birchwood Stationers", "start": "2026-11-23 11:00:00",
               "attendees": ["vera.brandt@harbourline.test"]}]
    records = build_records(office, 2026)
    people = ["teo@saltmarshcleaning.test", "vera.brandt@harbourline.test"]
    assert bool(event_date_problems(text, people, events, records, 2026)) == wrong


@pytest.mark.parametrize("text,wrong", [
    ("The oldest is VS-2609-0316, overdue since 25 October.", True),  # its Due is 25 November
    ("The oldest is VS-2609-0316, overdue since 25 November.", False),
    ("The oldest is VS-2609-0316, overdue since 26 November.", False),  # the day after its due date
])
def test_overdue_since_gives_the_items_due_date(text, wrong):
    records = _vantage_invoices()
    reading = read(text, records, Scope(now=datetime(2026, 12, 2, 9, 0), year=2026))
    assert bool(reading.false) == wrong, [v.message() for v in reading.verdicts]


def test_a_documents_heading_date_is_the_day_of_each_of_its_lines():
    from officesim.evaluators.verdicts import true_of_records
    office = {"data/minutes/key_accounts_2026-09-29.docx": {"kind": "docx", "paragraphs": [
        "Key accounts weekly — minutes of 29 September 2026", "Open actions reviewed:",
        "A129: moves from Asha Kovac to Dmitri Mensah.",
        "A133 Mei Roth — prepare the renewal proposal — due 20 October 2026"]}}
    records = build_records(office, 2026)
    text = "A129 — the renewal proposal (moved to you from Asha on 29 September)"
    (c,) = [c for c in claims_in(text, year=2026) if c.kind == "date"]
    assert true_of_records(c, text, records, 2026)
    wrong = "A133 — the renewal proposal, due 29 September"  # the heading's day is no due date
    reading = read(wrong, records, Scope(now=NOW, year=2026))
    assert [v.value for v in reading.false] == ["29 September"], [v.message() for v in reading.verdicts]


def test_a_total_of_the_gold_items_is_true_context_for_the_closed_world_reading():
    from officesim.evaluators.truth import _true_context
    gold_mail = {**_mail("Hi Dana,\nAcme's orders: SO-1001 and SO-1003."), "subject": "Acme orders"}
    gold = {**OFFICE, "emails/maya/sent/1.eml": gold_mail}
    state = EvalState(files=gold, now=NOW, before=OFFICE, gold=gold, user=USER, user_name="Maya Lin",
                      instruction="Tell Dana which orders Acme Tools has.")
    true_context = _true_context(state)
    said = "Acme's two orders come to £3,650.00."
    (total,) = [c for c in claims_in(said, year=2026) if c.currency]
    assert true_context(total, said)  # 1,250.00 + 2,400.00, the sum over the items the gold's mail names
    wrong = "Acme's two orders come to £3,560.00."
    (other,) = [c for c in claims_in(wrong, year=2026) if c.currency]
    assert not true_context(other, wrong)


def test_a_parenthesis_after_a_count_that_says_what_they_are_lists_nothing():
    from officesim.evaluators.verdicts import listed_counts
    assert listed_counts("I've held four duplicates (same PO and amount as an earlier invoice):", 2026) == []
    assert listed_counts("I've held four duplicates (Elmstead and Birchwood):", 2026) != []


def test_a_mail_claim_naming_a_known_person_in_full_is_read_against_the_mail_sent():
    state = _state({"emails/maya/sent/1.eml": _mail("Hi Dana,\nAcme has two orders. I've also copied Omar Nair.")})
    assert written_truth(state).false  # no mail went to Omar Nair
    cc = {**_mail("Hi Dana,\nAcme has two orders. I've also copied Omar Nair."), "cc": ["omar.nair@northwind.test"]}
    assert written_truth(_state({"emails/maya/sent/1.eml": cc})).false == []


def test_a_sentence_that_points_back_sums_over_what_the_one_before_names():
    from officesim.evaluators.verdicts import true_of_records
    office = {"data/invoices.xlsx": {"kind": "xlsx", "sheet_order": ["Invoices"], "sheets": {"Invoices": [
        ["Invoice", "Supplier", "Issued", "Amount", "Paid"],
        ["VS-2609-0316", "Vantage Security", datetime(2026, 9, 26), 1352.52, None],
        ["VS-2610-0350", "Vantage Security", datetime(2026, 10, 25), 980.00, datetime(2026, 11, 2)],
        ["KP-2610-0351", "Kestrel Paper", datetime(2026, 10, 25), 410.00, None],
    ]}}}
    records = build_records(office, 2026)
    text = "Invoices from Vantage Security this year total £2,332.52. Of that, £1,352.52 is not yet paid."
    (part,) = [c for c in claims_in(text, year=2026) if c.currency and c.value == 1352.52]
    assert true_of_records(part, text, records, 2026, frozenset({"vantage security"}))
    wrong = "Invoices from Vantage Security this year total £2,332.52. Of that, £1,762.52 is not yet paid."
    (other,) = [c for c in claims_in(wrong, year=2026) if c.currency and c.value == 1762.52]
    assert not true_of_records(other, wrong, records, 2026, frozenset({"vantage security"}))


def test_a_sum_of_rows_may_be_over_one_year_of_a_date_column():
    """"Invoiced this year ... of which £X not yet paid" where the supplier also has unpaid rows of an
    earlier year: the sum is over this year's rows."""
    from officesim.evaluators.verdicts import true_of_records
    office = {"data/invoices.xlsx": {"kind": "xlsx", "sheet_order": ["Invoices"], "sheets": {"Invoices": [
        ["Invoice", "Supplier", "Issued", "Amount", "Paid"],
        ["VS-2512-0101", "Vantage Security", datetime(2025, 12, 10), 700.00, None],
        ["VS-2609-0316", "Vantage Security", datetime(2026, 9, 26), 1352.52, None],
        ["VS-2610-0350", "Vantage Security", datetime(2026, 10, 25), 980.00, datetime(2026, 11, 2)],
        ["VS-2611-0360", "Vantage Security", datetime(2026, 11, 5), 731.27, None],
    ]}}}
    records = build_records(office, 2026)
    involved = frozenset({"vantage security"})

    def true(text: str, value: float) -> bool:
        (c,) = [c for c in claims_in(text, year=2026) if c.currency and c.value == value]
        return true_of_records(c, text, records, 2026, involved)

    assert true("Vantage Security invoiced £3,063.79 this year, of which £2,083.79 is not yet paid.", 2083.79)
    assert true("Vantage Security invoiced £3,063.79 this year.", 3063.79)
    assert true("Vantage Security has £2,783.79 unpaid in all.", 2783.79)  # every year's unpaid rows
    assert not true("Vantage Security invoiced £3,063.79 this year, of which £2,038.79 is not yet paid.", 2038.79)
    assert not true("Vantage Security invoiced £3,163.79 this year.", 3163.79)


# ---- values of two items swapped, events' times and lengths, a person set aside with their record -----
def test_an_items_value_that_is_another_rows_same_column_is_false(records):
    false, _ = verdicts("Still open:\n- SO-1001, Acme Tools, £830.50\n- SO-1002, Birch Supplies, £1,250.00", records)
    assert set(false) == {"£830.50", "£1,250.00"}  # each is the other order's Amount
    false, true = verdicts("Still open:\n- SO-1001, Acme Tools, £1,250.00\n- SO-1002, Birch Supplies, £830.50", records)
    assert false == [] and {"£1,250.00", "£830.50"} <= set(true)
    false, _ = verdicts("SO-1001 is larger than SO-1002 (£830.50).", records)
    assert false == []  # the other order is named: its own amount, a comparison


CALENDAR = {"kind": "ics", "events": [
    {"summary": "Operations weekly", "start": datetime(2026, 10, day, 10, 0), "end": datetime(2026, 10, day, 11, 0),
     "attendees": [USER]} for day in (12, 19, 26)]}
INTRO = {"summary": "Intro: Dana Ortiz", "start": datetime(2026, 10, 20, 11, 0), "end": datetime(2026, 10, 20, 11, 30),
         "attendees": [USER, "dana.ortiz@northwind.test"]}


def _calendar_state(body: str, instruction: str = "Book Dana Ortiz a 30-minute intro and tell her.") -> EvalState:
    before = {**OFFICE, "calendar/maya.ics": CALENDAR}
    after = {**before, "calendar/maya.ics": {"kind": "ics", "events": [*CALENDAR["events"], INTRO]},
             "emails/maya/sent/1.eml": _mail(body)}
    return EvalState(files=after, now=NOW, instruction=instruction, before=before, gold=before, user=USER,
                     user_name="Maya Lin")


@pytest.mark.parametrize("body,false", [
    ("Hi Dana,\nYour intro is on 20 October at 11:00, after our Operations weekly, 10:00-11:00.", False),
    ("Hi Dana,\nYour intro is on 20 October at 11:00, after our Operations weekly, 11:00-12:00.", True),
    ("Hi Dana,\nOperations weekly is at 9:00 in the Harbour Room if you want to join.", True),
    ("Hi Dana,\nAfter Operations weekly, your intro is at 11:00.", False),  # the time is the intro's
    ("Hi Dana,\nI've booked your intro for 30 minutes at 11:00 on 20 October.", False),
    ("Hi Dana,\nI've booked your intro for 45 minutes at 11:00 on 20 October.", True),
    ("Hi Dana,\nYour intro meeting, an hour, is at 11:00 on 20 October.", True),
])
def test_an_office_events_time_and_a_booked_meetings_length_are_read(body, false):
    truth = written_truth(_calendar_state(body))
    assert bool(truth.false) == false, truth.false


def test_a_length_the_instruction_gives_is_not_read_against_the_events_made():
    truth = written_truth(_calendar_state("Hi Dana,\nI've booked a 45-minute slot at 11:00 on 20 October.",
                                          "Book Dana Ortiz a 45-minute intro; a 30-minute one is fine too."))
    assert truth.false == []


def test_a_person_set_aside_with_a_value_of_their_own_record_is_true_context(records):
    from officesim.evaluators.claims import Claim
    from officesim.evaluators.verdicts import named_with_record

    text = "Dana Ortiz takes it; Omar Nair is the other option, on +44 20 7946 1177."
    omar = Claim("person", "omar.nair@northwind.test", "Omar Nair", start=text.index("Omar"),
                 end=text.index("Omar") + len("Omar Nair"))
    assert named_with_record(omar, text, records, 2026)
    wrong = text.replace("1177", "5829")  # Dana's number beside Omar: no record of his gives it
    assert not named_with_record(omar, wrong, records, 2026)


LEAVE = {"kind": "xlsx", "sheet_order": ["Leave"], "sheets": {"Leave": [
    ["Name", "From", "To", "Type", "Status"],
    ["Nina Lund", datetime(2026, 11, 3), datetime(2026, 11, 6), "Annual leave", "Approved"],
    ["Nina Lund", datetime(2026, 11, 10), datetime(2026, 11, 11), "Annual leave", "Pending"],
    ["Omar Nair", datetime(2026, 11, 9), datetime(2026, 11, 10), "Training", "Approved"],
    ["Omar Nair", datetime(2026, 12, 1), datetime(2026, 12, 2), "Annual leave", "Withdrawn"],
    ["Dana Ortiz", datetime(2026, 12, 7), datetime(2026, 12, 8), "Annual leave", "Pending"],
    ["Dana Ortiz", datetime(2026, 8, 3), datetime(2026, 8, 14), "Annual leave", "Approved"],
    ["Omar Nair", datetime(2026, 7, 6), datetime(2026, 7, 10), "Annual leave", "Approved"],
]}}


@pytest.mark.parametrize("text,false", [
    ("Nina Lund has approved annual leave on 10-11 November.", True),  # that leave is Pending
    ("Nina Lund has pending annual leave on 10-11 November.", False),
    ("Nina Lund's leave on 3-6 November is approved.", False),
    ("Nina Lund's leave on 10-11 November is not approved yet.", False),  # denied: true
    ("Omar Nair, who covers Dana Ortiz, has approved training on 9-10 November.", False),
    ("Omar Nair's leave on 1-2 December is approved, so he cannot cover.", True),  # Withdrawn
    ("Nina Lund's leave on 10-11 November will be approved by Friday.", False),  # a plan
])
def test_a_rows_state_said_near_its_name_or_date_is_read(text, false):
    records = build_records({"data/leave.xlsx": LEAVE}, 2026)
    reading = read(text, records, Scope(now=NOW, year=2026))
    assert bool([v for v in reading.false if v.kind == "state"]) == false, reading.false


def test_a_day_an_event_the_text_names_is_held_is_true_context():
    from officesim.evaluators.claims import Claim
    from officesim.evaluators.verdicts import event_date_of_named

    records = build_records({**OFFICE, "calendar/maya.ics": CALENDAR}, 2026)
    text = "Operations weekly goes ahead without me; I'll chair again from Monday 26 October."
    day = Claim("date", date(2026, 10, 26), "Monday 26 October", start=text.index("Monday"), end=len(text) - 1)
    assert event_date_of_named(day, text, records)
    other = Claim("date", date(2026, 10, 27), "27 October")  # no Operations weekly that day
    assert not event_date_of_named(other, text, records)
    assert not event_date_of_named(day, "I'll be back on Monday 26 October.", records)  # no event named


def test_a_date_some_span_after_a_date_of_its_record_is_true_context():
    from officesim.evaluators.verdicts import date_after_span

    staff = {"kind": "xlsx", "sheet_order": ["Staff"], "sheets": {"Staff": [
        ["Name", "Email", "Start date"], ["Aiko Dubois", "aiko.dubois@northwind.test", datetime(2026, 5, 1)]]}}
    records = build_records({"data/staff.xlsx": staff}, 2026)

    def true(text: str, keys: tuple[str, ...] = ()) -> bool:
        claim = next(c for c in claims_in(text, year=2026) if c.kind == "date" and "review" not in text[c.start - 20:c.start])
        return date_after_span(claim, text, records, keys)

    assert true("Hi Aiko,\nYou're coming up to six months with us on 1 November.", ("aiko.dubois@northwind.test",))
    assert true("Aiko Dubois reaches six months on 1 November.")
    assert not true("Aiko Dubois reaches six months on 8 November.")  # not six months after her start
    assert not true("You're coming up to six months with us on 1 November.")  # no one whose record it is
    assert not true("Aiko Dubois is in on 1 November.")  # no span: nothing to work it out with


def test_a_date_a_writing_verb_gives_is_a_day_a_mail_went_between_the_parties():
    customer = "ops@birch.test"
    office = {**OFFICE,
              "emails/maya/inbox/7.eml": {"kind": "eml", "mailbox": USER, "folder": "inbox", "from": customer,
                                          "to": [USER], "cc": [], "subject": "Where is SO-1002?",
                                          "date": "2026-09-14 09:00:00", "body": "Hello, SO-1002 has not come.",
                                          "attachments": []},
              "emails/maya/sent/8.eml": {"kind": "eml", "mailbox": USER, "folder": "sent", "from": USER,
                                         "to": [customer], "cc": [], "subject": "Re: your order",
                                         "date": "2026-09-15 10:00:00", "body": "It is on its way.",
                                         "attachments": []}}
    records = build_records(office, 2026)

    def false(text: str) -> list[str]:
        return [v.value for v in read(text, records, Scope(now=NOW, year=2026)).false]

    # the day of the reply, which is also SO-1003's order date
    assert false("I answered their message about SO-1002 on 15 September.") == []
    assert false("I answered their message about SO-1002 on 8 September.")  # SO-1001's delivery, no mail that day


@pytest.mark.parametrize("text,wrong", [
    ("- SO-1002: delivered 12 September 2026\n\nIt came to £830.50, so please check the invoice.", False),
    ("- SO-1002: delivered 12 September 2026\n\nIt came to £900.00, so please check the invoice.", True),
    ("- SO-1002: delivered 12 September 2026\n\nPlease pay £900.00 if you agree.", False),  # a plan, not a value of it
])
def test_a_statement_that_points_back_is_about_the_item_before_it(records, text, wrong):
    false, _ = verdicts(text, records)
    assert bool(false) == wrong, false


@pytest.mark.parametrize("text,wrong", [
    ("Felix Weber's six-month date is 6 November, and he is on leave until 7 November.", False),
    ("Felix Weber's six-month date is 1 November, and he is on leave until 7 November.", True),
    ("Felix Weber reaches six months on Friday 6 November.", False),
    ("Felix Weber started on 6 May; six months on is 6 November.", False),
])
def test_a_date_a_span_after_a_date_of_its_record_must_be_that_span_after(text, wrong):
    staff = {"kind": "xlsx", "sheet_order": ["Staff"], "sheets": {"Staff": [
        ["Name", "Email", "Start date"], ["Felix Weber", "felix.weber@northwind.test", datetime(2026, 5, 6)]]}}
    records = build_records({"data/staff.xlsx": staff}, 2026)
    false = [v.value for v in read(text, records, Scope(now=NOW, year=2026)).false]
    assert bool(false) == wrong, false


@pytest.mark.parametrize("text,wrong", [
    ("We ordered SO-1001 on 8 September 2026.", True),  # its Delivered: the verb stands before the item
    ("We ordered SO-1001 on 1 September 2026.", False),
    ("We received SO-1001 on 8 September 2026.", False),  # no column of that name: not read as one
])
def test_a_verb_before_the_item_names_the_column_of_the_date_after_it(records, text, wrong):
    false, _ = verdicts(text, records)
    assert bool(false) == wrong, false


def test_true_context_in_a_sentence_that_points_back_is_of_the_item_before_it(records):
    from officesim.evaluators.verdicts import true_of_records

    text = "SO-1002 is on time. It was delivered on 12 September 2026."
    said = next(c for c in claims_in(text, year=2026) if c.kind == "date")
    assert true_of_records(said, text, records, 2026)
    other = "SO-1002 is on time. The weather was fine on 12 September 2026."  # points back to nothing
    said = next(c for c in claims_in(other, year=2026) if c.kind == "date")
    assert not true_of_records(said, other, records, 2026)


def test_a_day_count_is_true_between_a_written_date_and_one_near_it_or_of_the_addressees_records():
    from officesim.evaluators.verdicts import day_count_of_records

    leave = {"kind": "xlsx", "sheet_order": ["Leave"], "sheets": {"Leave": [
        ["Name", "Email", "Requested", "From"],
        ["Nina Lund", "nina.lund@northwind.test", datetime(2026, 10, 18), datetime(2026, 10, 26)]]}}
    records = build_records({"data/leave.xlsx": leave}, 2026)

    def true(text: str, keys: tuple[str, ...] = ()) -> bool:
        claim = next(c for c in claims_in(text, year=2026) if c.kind == "number" and c.value == 8)
        return day_count_of_records(claim, text, records, keys, 2026)

    # both dates written, in the sentence before it
    assert true("I can't approve 26-28 October. Your request came in on 18 October, only 8 days before.")
    # one written, the other the addressee's own record
    assert true("Hi Nina,\nDates: 26-28 October\nThis request came 8 days ahead.", ("nina.lund@northwind.test",))
    assert not true("Hi Nina,\nDates: 26-28 October\nThis request came 8 days ahead.")  # whose record: nobody's
    assert not true("I can't approve 27-28 October. Your request came in on 18 October, only 8 days before.")
    assert not true("The policy asks for 8 days' notice from 26 October and 18 October.")  # a rule, not a count


def test_a_total_over_a_whole_table_is_true_where_the_sentence_says_all():
    from officesim.evaluators.verdicts import full_names, short_names, whole_table_total

    invoices = {"kind": "xlsx", "sheet_order": ["Invoices"], "sheets": {"Invoices": [
        ["Invoice", "Supplier", "Issued", "Amount", "Paid on"],
        ["EU-2601-0001", "Elmstead Uniforms", datetime(2026, 1, 5), 1200.50, datetime(2026, 2, 1)],
        ["EU-2602-0002", "Elmstead Uniforms", datetime(2026, 2, 5), 300.00, None],
        ["YE-2601-0003", "Yarrow Energy", datetime(2026, 1, 9), 99.25, None],
        ["YE-2512-0004", "Yarrow Energy", datetime(2025, 12, 9), 10.00, None]]}}
    records = build_records({"data/invoices.xlsx": invoices}, 2026)

    def total(text: str) -> bool:
        return whole_table_total(next(c for c in claims_in(text, year=2026) if c.currency), text, records)

    assert total("That is out of £1,609.75 billed by all our suppliers.")
    assert total("All suppliers billed us £1,599.75 in 2026.")  # the rows of one year
    assert total("Of everything billed, £409.25 is unpaid overall.")  # the rows with no Paid on date
    assert not total("All suppliers billed us £1,599.76 in 2026.")
    assert not total("Elmstead billed us £1,599.75 in 2026.")  # nothing says it is everything
    text = "Elmstead Uniforms billed 2 invoices. Elmstead still owes nothing."
    assert full_names("Elmstead has £300.00 unpaid.", short_names(text, records)) == \
        "Elmstead Uniforms has £300.00 unpaid."



@pytest.mark.parametrize("body, to, false", [
    ("Hi Dana,\nSO-1003 was delivered on 22 September 2026. Finance was asked to hold the invoice.", [], True),
    ("Hi Dana,\nSO-1003 was delivered on 22 September 2026. I've copied Finance.", [], True),
    ("Hi Dana,\nSO-1003 was delivered on 22 September 2026. I've copied Finance.", ["omar.nair@northwind.test"], False),
    ("Hi Dana,\nSO-1003 was delivered on 22 September 2026. Finance was asked to hold the invoice.",
     ["omar.nair@northwind.test"], False),
])
def test_a_team_said_asked_or_copied_must_have_had_a_mail(body, to, false):
    """A team of the directory ("Finance") named as whom a mail went to is its people: one of them must have
    had a mail of the episode."""
    mail = {**_mail(body), "subject": "Your order", "cc": to}
    truth = written_truth(_state({**OFFICE, "emails/maya/sent/1.eml": mail}))
    assert bool(truth.false) == false, truth.false


def test_the_counts_of_a_column_of_few_values_in_a_sheet_the_episode_wrote_are_counts_it_may_give():
    from officesim.evaluators.truth import state_counts

    orders = {"kind": "xlsx", "sheet_order": ["Orders"], "sheets": {"Orders": [
        ["PO", "Status"], ["PO-1", "Open"], ["PO-2", "Delivered"], ["PO-3", "Open"], ["PO-4", "Open"]]}}
    before = {**OFFICE, "data/po.xlsx": {**orders, "sheets": {"Orders": [
        ["PO", "Status"], ["PO-1", "Open"], ["PO-2", "Open"], ["PO-3", "Open"], ["PO-4", "Open"]]}}}
    state = EvalState(files={**before, "data/po.xlsx": orders}, now=NOW, instruction="Mark PO-2 delivered.",
                      before=before, gold=before, user=USER, user_name="Maya Lin")
    assert {1, 3} <= state_counts(state)  # one delivered, three still open, as the episode left them
    untouched = EvalState(files=before, now=NOW, instruction="Mark PO-2 delivered.", before=before, gold=before,
                          user=USER, user_name="Maya Lin")
    assert 4 not in state_counts(untouched)  # a sheet the episode did not write counts nothing


def test_the_same_note_on_two_forwards_is_read_against_each_message_it_carries():
    """Two forwards with one subject and one note are two statements: the note on the second party's message
    is false of it, though the same words were true of the first."""
    customers = {"kind": "xlsx", "sheet_order": ["Customers"], "sheets": {"Customers": [
        ["Customer", "Contact", "Email"], ["Acme Tools", "Ana Diaz", "ana.diaz@acmetools.test"],
        ["Birch Supplies", "Ben Ode", "ben.ode@birch.test"]]}}
    office = {**OFFICE, "data/customers.xlsx": customers}

    def forward(note: str, sender: str) -> dict:
        body = (f"{note}\n\n---------- Forwarded message ----------\nFrom: {sender}\nDate: 12 Oct 2026\n"
                "Subject: Delivery\nTo: maya.lin@northwind.test\n\nWhen is it due?\n")
        return {**_mail(body), "subject": "Fwd: Delivery"}

    def false(second_sender: str) -> list[str]:
        note = "Hi Dana, this one from Acme Tools is yours now."
        files = {**office, "emails/maya/sent/1.eml": forward(note, "Ana Diaz <ana.diaz@acmetools.test>"),
                 "emails/maya/sent/2.eml": forward(note, second_sender)}
        state = EvalState(files=files, now=NOW, before=office, gold=office, instruction="Hand the customers over.",
                          user=USER, user_name="Maya Lin")
        return [f for f in written_truth(state).false if "forwarded message" in f]

    assert not false("Ana Diaz <ana.diaz@acmetools.test>")
    assert false("Ben Ode <ben.ode@birch.test>")
