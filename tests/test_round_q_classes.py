"""Classes a calibration round found (issue 44, round Q: 8 hard tasks, 112 wrong and 40 right outcomes written by
helpers who never saw the grader): each false statement below had passed or each true one had failed; its twin
on the other side still holds. Pure functions over small offices built here, no office on disk."""

from __future__ import annotations

from datetime import datetime

from officesim.evaluators.records import build_records
from officesim.evaluators.state import EvalState
from officesim.evaluators.verdicts import Scope, read

NOW = datetime(2026, 10, 19, 9, 0)
ME = "hugo.greco@fernhill.test"


def _book(*sheets: tuple[str, list[list]]) -> dict:
    return {"kind": "xlsx", "sheet_order": [n for n, _r in sheets], "sheets": dict(sheets)}


def _false(text: str, records, now: datetime = NOW) -> list[str]:
    reading = read(text, records, Scope(now=now, year=now.year))
    return [v.why for v in reading.false]


def _state(files: dict, after: dict | None = None, **kw) -> EvalState:
    return EvalState(files=after or files, before=files, now=NOW, user=ME, user_name="Hugo Greco", **kw)


def _staff() -> dict:
    rows = [["Name", "Email", "Team", "Role", "Manager"],
            ["Hugo Greco", ME, "Sales", "Head of Sales", "Ines Nair"],
            ["Asha Kovac", "asha.kovac@fernhill.test", "Sales", "Regional Sales Manager", "Hugo Greco"],
            ["Yara Moss", "yara.moss@fernhill.test", "Sales", "Account Executive", "Asha Kovac"],
            ["Tariq Greco", "tariq.greco@fernhill.test", "Purchasing", "Buyer", "Mira Berg"],
            ["Mira Berg", "mira.berg@fernhill.test", "Purchasing", "Head of Purchasing", "Ines Nair"],
            ["Rafael Kovac", "rafael.kovac@fernhill.test", "Legal", "Paralegal", "Ines Nair"],
            ["Anton Hart", "anton.hart@fernhill.test", "Finance", "Head of Finance", "Ines Nair"],
            ["Ines Nair", "ines.nair@fernhill.test", "Management", "Managing Director", None],
            # more people of the same teams and roles: a directory's columns of few values
            *[[f"{first} {last}", f"{first.lower()}.{last.lower()}@fernhill.test", team, role, boss]
              for first, last, team, role, boss in (
                  ("Noor", "Lind", "Purchasing", "Buyer", "Mira Berg"), ("Omar", "Lind", "Purchasing", "Buyer", "Mira Berg"),
                  ("Lea", "Dahl", "Sales", "Account Executive", "Asha Kovac"),
                  ("Ola", "Dahl", "Sales", "Account Executive", "Asha Kovac"),
                  ("Ada", "Berg", "Marketing", "Marketing Assistant", "Ines Nair"),
                  ("Eva", "Berg", "Marketing", "Marketing Assistant", "Ines Nair"),
                  ("Ivo", "Sand", "Legal", "Paralegal", "Ines Nair"), ("Uma", "Sand", "Finance", "Accountant", "Anton Hart"),
                  ("Kai", "Sand", "Finance", "Accountant", "Anton Hart"), ("Jon", "Holt", "Purchasing", "Buyer", "Mira Berg"),
                  ("Liv", "Holt", "Sales", "Account Executive", "Asha Kovac"), ("Rui", "Holt", "Legal", "Paralegal", "Ines Nair"))]]
    return {"data/people/staff.xlsx": _book(("Staff", rows))}


def _actions() -> dict:
    rows = [["Action", "Owner", "Raised", "Due"], ["A129", "Dmitri Mensah", "2026-09-15", "2026-09-22"],
            ["A133", "Mei Roth", "2026-09-29", "2026-10-20"]]
    return {"data/actions.xlsx": _book(("Actions", rows))}


# ---- days counted from today ---------------------------------------------------------------------------------
def test_a_span_from_today_is_today_and_one_date_of_the_item():
    records = build_records(_actions(), 2026)
    assert _false("A129 was due on 22 September and is 34 days late.", records)  # 15 September is 34 days back,
    assert _false("A129 was due on 22 September and is 27 days late.", records) == []  # but it was raised then
    assert _false("A133 is due on 20 October 2026, 8 days away.", records)
    assert _false("A133 is due on 20 October 2026, 1 day away.", records) == []
    assert _false("A133 falls due today.", records)
    assert _false("A133 falls due tomorrow.", records) == []


def test_a_span_said_in_a_table_cell_is_no_duration_of_the_row():
    rows = [["Ref", "Party", "Notice (days)", "End"], ["CTR-2321", "Kestrel Paper Co", 90, "2027-01-31"]]
    records = build_records({"data/contracts.xlsx": _book(("Contracts", rows))}, 2026)
    line = "| CTR-2321 | Kestrel Paper Co | 90 days | 2026-11-02 | passed {n} days ago |"
    assert _false(line.format(n=14), records) == []  # 19 October to 2 November: 14 days (a span from today)
    assert _false(line.format(n=40), records)


# ---- people: their team, role, manager and party -------------------------------------------------------------
def test_a_team_said_of_a_person_or_of_the_one_written_to():
    from officesim.evaluators.truth import team_problems
    state = _state(_staff())
    records = build_records(_staff(), 2026)
    said = "PO-4853 was raised by Yara Moss, who sits in {team} under Asha."
    assert team_problems(said.format(team="Marketing"), state, records)
    assert team_problems(said.format(team="Sales"), state, records) == []
    assert team_problems("Asha Kovac has moved across to our Purchasing team.", state, records)
    to = ("tariq.greco@fernhill.test",)
    assert team_problems("You move from the Finance team to Operations.", state, records, to)
    assert team_problems("You move from the Purchasing team to Operations.", state, records, to) == []
    assert team_problems("The assistants (excluding Asha Kovac) now sit in Purchasing.", state, records) == []


def test_one_word_roles_who_heads_a_team_and_a_role_said_to_one_of_several():
    from officesim.evaluators.roles import addressee_role_problems, role_problems
    records = build_records(_staff(), 2026)
    assert role_problems("- Kestrel Paper Co: Rafael Kovac, our Buyer in Purchasing", records)
    assert role_problems("- Kestrel Paper Co: Tariq Greco, our Buyer in Purchasing", records) == []
    assert role_problems("It may be worth raising with Tariq Greco, who heads up Purchasing.", records)
    assert role_problems("It may be worth raising with Mira Berg, who heads up Purchasing.", records) == []
    assert role_problems("- Asha Kovac (Account Executive): 1", records)
    assert role_problems("- Yara Moss (Account Executive): 2", records) == []
    to = ["anton.hart@fernhill.test", "mira.berg@fernhill.test"]
    said = "Hi Anton and Mira,\n\nAnton, as Head of {a} you'll want this, and Mira, I've copied you for the {b} side."
    assert addressee_role_problems(said.format(a="Purchasing", b="finance"), to, records)
    assert addressee_role_problems(said.format(a="Finance", b="purchasing"), to, records) == []


def test_whom_people_are_said_to_report_to():
    from officesim.evaluators.truth import reports_to_problems
    state = _state(_staff())
    to = ("mira.berg@fernhill.test",)
    assert reports_to_problems("From Monday Tariq Greco and Asha Kovac will report to you.", to, state)
    assert reports_to_problems("From Monday Tariq Greco will report to you.", to, state) == []
    assert reports_to_problems("Your new manager will be Anton Hart.", ("yara.moss@fernhill.test",), state)
    assert reports_to_problems("Your new manager will be Asha Kovac.", ("yara.moss@fernhill.test",), state) == []


def test_a_contact_of_one_party_given_as_anothers():
    files = {"data/suppliers.xlsx": _book(("Suppliers", [["Supplier", "Contact", "Email"],
                                                         ["Elmstead Uniforms", "Zoe Rahman", "zoe@elmsteaduniforms.test"],
                                                         ["Pinecrest Catering", "Ingrid Ortiz", "ingrid@pinecrestcatering.test"]]))}
    for n, who in enumerate(("zoe@elmsteaduniforms.test", "ingrid@pinecrestcatering.test")):
        files[f"emails/{ME}/msg-{n}.eml"] = {"kind": "eml", "from": who, "to": [ME], "subject": "Hello",
                                             "date": "2026-10-01T09:00:00", "body": "Hello."}
    records = build_records(files, 2026)
    said = "Elmstead Uniforms is first at £96,381.65. If we raise it, their account manager is {who}."
    assert _false(said.format(who="Ingrid Ortiz"), records)
    assert _false(said.format(who="Zoe Rahman"), records) == []
    assert _false("Ingrid Ortiz from Elmstead Uniforms has written to us.", records)
    assert _false("Ingrid Ortiz from Pinecrest Catering has written to us.", records) == []


# ---- what the episode did -------------------------------------------------------------------------------------
def test_an_invoice_said_paid_is_read_against_its_row_after_the_episode():
    from officesim.evaluators.truth import one_paid_problems
    rows = [["Invoice", "Amount", "Approval", "Paid on"], ["ZC-2611-0444", 2360.32, None, None],
            ["ZC-2611-0401", 120.0, None, "2026-11-02"]]
    files = {"data/invoices.xlsx": _book(("Invoices", rows))}
    held = {"data/invoices.xlsx": _book(("Invoices", [rows[0], ["ZC-2611-0444", 2360.32, "Held", None], rows[2]]))}
    state = _state(files, held)
    records = build_records(files, 2026)
    said = "ZC-2611-0444 is held, as it bills £2,360.32. Note it was already paid on 5 December."
    assert one_paid_problems(said, state, records)
    assert one_paid_problems("ZC-2611-0401 was paid on 2 November.", state, records) == []
    assert one_paid_problems("ZC-2611-0444 will be paid once approved.", state, records) == []


def test_people_listed_as_invited_to_the_meeting_the_episode_made():
    from officesim.evaluators.truth import invitee_list_problems
    welcome = {"summary": "Welcome to Sales", "start": "2026-11-30T09:00:00", "end": "2026-11-30T10:00:00",
               "attendees": [ME, "asha.kovac@fernhill.test", "yara.moss@fernhill.test"]}
    before = {**_staff(), f"calendar/{ME}.ics": {"kind": "ics", "events": []}}
    state = _state(before, {**before, f"calendar/{ME}.ics": {"kind": "ics", "events": [welcome]}})
    records = build_records(before, 2026)
    assert invitee_list_problems("The welcome hour is booked for 09:00, with Asha, Yara and Tariq invited.", state, records)
    assert invitee_list_problems("The welcome hour is booked for 09:00, with Asha and Yara invited.", state, records) == []


def test_a_note_in_a_persons_directory_entry_needs_their_row_changed():
    from officesim.evaluators.truth import recorded_row_problems
    state = _state(_staff())
    records = build_records(_staff(), 2026)
    assert recorded_row_problems("I've also noted Tariq Greco's leaving date in his directory entry.", state, records)
    moved = [list(r) for r in _staff()["data/people/staff.xlsx"]["sheets"]["Staff"]]
    moved[4][2] = "Operations"
    changed = _state(_staff(), {"data/people/staff.xlsx": _book(("Staff", moved))})
    assert recorded_row_problems("I've also noted Tariq Greco's move in his directory entry.", changed, records) == []


# ---- figures and counts -------------------------------------------------------------------------------------
def test_a_sum_over_a_quarter_of_one_kind_of_ledger_reference():
    rows = [["Date", "Reference", "Cost centre", "Amount"],
            ["2026-07-01", "RENT-07-410", "CC-410", -1250], ["2026-07-25", "PAY-07-410", "CC-410", -75600],
            ["2026-07-14", "YE-2607-0224", "CC-410", -1000.50], ["2026-08-20", "AE-2608-0285", "CC-410", -2000.25],
            ["2026-10-02", "AE-2610-0301", "CC-410", -500.00]]
    records = build_records({"data/ledger.xlsx": _book(("Ledger", rows))}, 2026)
    assert _false("- Operations (CC-410): £3,000.75 in Q3", records) == []  # Q3 supplier invoices alone
    assert _false("- Operations (CC-410): £3,100.75 in Q3", records)


def test_pairs_under_a_claim_that_the_first_exceeds_the_second():
    from officesim.evaluators.truth import versus_problems
    said = "Three have invoiced more than their contract value: Elmstead (£96,381.65 vs £37,000), Umber ({a} vs £101,000)."
    assert versus_problems(said.format(a="£87,195.22"))
    assert versus_problems(said.format(a="£187,195.22")) == []
    assert versus_problems("- Operations: £72,326.08 vs £79,500.00") == []


def test_counts_that_are_not_counts():
    from officesim.evaluators.statements import cut
    from officesim.evaluators.task_sets import _COUNT
    from officesim.evaluators.verdicts import _count_problem
    assert [m.group(0) for m in _COUNT.finditer("the 13 October key accounts weekly left 3 actions")] == ["3 actions"]
    text = "You're taking over {n} of Aiko Amari's customers:\n\n* Nettle Cross Garages\n* Verbena Spas\n"
    sts = cut(text.format(n="three"))
    assert _count_problem(sts[0], sts, 0)
    sts = cut(text.format(n="two"))
    assert _count_problem(sts[0], sts, 0) is None
    breakdown = "Six actions remain open. By owner:\n\n- Asha Kovac: 1 - A140, due 27 October\n- Dmitri Mensah: 3 (A129, A134, A138)\n- Mei Roth: {n} - A133, A139\n"
    sts = cut(breakdown.format(n=2))
    assert _count_problem(sts[0], sts, 0) is None
    sts = cut(breakdown.format(n=3))
    assert _count_problem(sts[0], sts, 0)


# ---- readings that had failed honest text -------------------------------------------------------------------
def test_honest_phrasings_that_had_failed():
    from officesim.evaluators.claims import decided_items, decision_problems, greeting_problem
    from officesim.evaluators.periods import period_problems
    decided = decided_items(["PO-4853 was raised by Yara.", "X-1001 is approved."], 2026)
    assert decision_problems("PO-4853 was raised by Yara Moss, whose manager Asha Kovac should approve it.",
                             decided, year=2026) == []
    assert decision_problems("PO-4853 is approved.", decided, year=2026)
    assert period_problems("prices rise from July 2028\n\nBest,\nArjun", ["the best month was August"]) == []
    records = build_records(_actions(), 2026)
    assert _false("Mei's A133 is due tomorrow, and everything else falls due between 27 October and 3 November.",
                  records) == []
    assert _false("Mei's A133 is due on 27 October.", records)
    from officesim.evaluators.claims import directory_of
    state = _state(_staff())
    directory = directory_of(state)
    body = "Hi Anton, Mira and Rafael,\n\nAttached is the list."
    copied = ("anton.hart@fernhill.test", "mira.berg@fernhill.test", "rafael.kovac@fernhill.test")
    assert greeting_problem(body, ("anton.hart@fernhill.test",), directory, copied=copied) is None
    assert greeting_problem("Hi Mira,\n\nAttached.", ("anton.hart@fernhill.test",), directory, copied=copied)


def test_what_an_orders_quantity_is_of():
    rows = [["Order", "Customer", "Product", "Qty"], ["SO-71499", "Verbena Spas", "Paper A4 (5 reams)", 9],
            ["SO-71500", "Verbena Spas", "Coffee Machine", 2]]
    records = build_records({"data/orders.xlsx": _book(("Orders", rows))}, 2026)
    assert _false("Vera is asking when her 9 coffee machines on SO-71499 will ship.", records)
    assert _false("Vera is asking when her 9 reams of paper on SO-71499 will ship.", records) == []


def test_items_said_forwarded_that_no_forward_carries():
    from officesim.evaluators.truth import forwarded_items_problems
    mails = {f"emails/{ME}/msg-{n}.eml": {"kind": "eml", "from": "aiko.roth@ivylane.test", "to": [ME], "subject": f"About {so}",
                                          "date": "2026-11-0{n}T09:00:00", "body": f"When will {so} ship?"}
             for n, so in ((1, "SO-71851"), (2, "SO-71873"))}
    forward = {"kind": "eml", "from": ME, "to": ["yara.dubois@fernhill.test"], "subject": "Fwd: About SO-71873",
               "date": "2026-11-16T10:00:00", "body": "Passing this on.\n\n---------- Forwarded message ----------\nWhen will SO-71873 ship?"}
    state = _state(mails, {**mails, f"emails/{ME}/sent/msg-9.eml": forward})
    records = build_records(mails, 2026)
    assert forwarded_items_problems("I've forwarded you both of Aiko's emails, about SO-71851 and SO-71873.", state, records)
    assert forwarded_items_problems("I've forwarded you Aiko's email about SO-71873.", state, records) == []


def test_someone_said_to_attend_a_meeting_that_does_not_invite_them():
    from officesim.evaluators.truth import attendance_problems
    review = {"summary": "Account review: Verbena Spas", "start": "2026-12-02T15:30:00", "end": "2026-12-02T16:30:00",
              "attendees": [ME, "yara.moss@fernhill.test", "vera@verbenaspas.test"]}
    before = {**_staff(), f"calendar/{ME}.ics": {"kind": "ics", "events": [review]}}
    state = _state(before)
    records = build_records(before, 2026)
    said = "{who} will still join your account review on Wednesday 2 December."
    assert attendance_problems(said.format(who="Asha"), state, records)
    assert attendance_problems(said.format(who="Yara"), state, records) == []


def test_a_quarter_given_another_quarters_months():
    from officesim.evaluators.truth import quarter_span_problems
    assert quarter_span_problems("Q3 2026 budget review (April to June 2026) - supplier spend over budget")
    assert quarter_span_problems("Q3 2026 budget review (July to September 2026)") == []
    assert quarter_span_problems("Q1 (April to June)") == []  # a year that starts in April


def test_a_party_listed_under_a_fixed_term_heading_whose_contract_renews():
    rows = [["Ref", "Party", "End", "Auto-renew"], ["CTR-2426", "Beacon Hill Schools", "2027-08-31", "Yes"],
            ["CTR-2440", "Alder Street Clinics", "2027-07-31", "No"], ["CTR-2447", "Cedar Row Hotels", "2027-05-31", "No"]]
    records = build_records({"data/contracts.xlsx": _book(("Contracts", rows))}, 2026)
    listing = "Customers on fixed-term agreements (no letter), with end dates:\n\nAlder Street Clinics - ends 31 July 2027\n{x}"
    assert _false(listing.format(x="Beacon Hill Schools - ends 31 August 2027\n"), records)
    assert _false(listing.format(x="Cedar Row Hotels - ends 31 May 2027\n"), records) == []


def test_a_deadline_said_of_any_of_the_items_named_just_before():
    from officesim.evaluators.timing import deadline_problems
    rows = [["Ref", "Party", "Notice (days)", "End"], ["CTR-2321", "Kestrel Paper Co", 90, "2027-01-31"],
            ["CTR-2377", "Redfern IT Services", 60, "2027-03-31"], ["CTR-2300", "Thornbury Furniture", 30, "2027-04-30"]]
    records = build_records({"data/contracts.xlsx": _book(("Contracts", rows))}, 2026)
    named = "Attached are CTR-2321, CTR-2377 and CTR-2300. The notice deadline has not yet passed on any of them."
    today = datetime(2026, 11, 16).date()  # CTR-2321's notice was due on 2 November
    assert deadline_problems(named, records, today)
    assert deadline_problems(named.replace("CTR-2321, ", ""), records, today) == []


def test_weeks_from_today_that_no_date_of_the_sentence_is_near():
    records = build_records({}, 2026)
    now = datetime(2026, 11, 16, 9, 0)
    said = "Redfern IT Services: notice due by 30 January 2027, so Aiko has only about {n} weeks left to act."
    assert _false(said.format(n="three"), records, now)
    assert _false(said.format(n="eleven"), records, now) == []


def test_a_written_file_said_to_be_in_another_folder():
    from officesim.evaluators.truth import folder_problems
    before = {"data/sales/minutes/key_accounts_2026-10-13.docx": {"kind": "docx", "paragraphs": ["Minutes"]}}
    state = _state(before, {**before, "data/sales/reports/open_actions.xlsx": _book(("Sheet1", [["Action"], ["A129"]]))})
    said = "The list is in open_actions.xlsx, which I've saved in the sales {f} folder."
    assert folder_problems(said.format(f="minutes"), state)
    assert folder_problems(said.format(f="reports"), state) == []
    assert folder_problems("The list is in open_actions.xlsx, which I've saved in the shared drive folder.", state) == []


def test_only_one_party_said_to_have_unpaid_invoices():
    from officesim.evaluators.task_sets import only_unpaid_problems
    rows = [["Invoice", "Supplier", "Issued", "Amount", "Paid"], ["EU-2610-0001", "Elmstead Uniforms", "2026-10-01", 100.5, None],
            ["PC-2610-0002", "Pinecrest Catering", "2026-10-02", 200.5, None],
            ["PC-2609-0003", "Pinecrest Catering", "2026-09-02", 300.5, "2026-09-30"]]
    records = build_records({"data/invoices.xlsx": _book(("Invoices", rows))}, 2026)
    said = "Of Elmstead Uniforms and Pinecrest Catering, only Elmstead Uniforms has unpaid invoices."
    assert only_unpaid_problems(said, records, 2026)
    paid = [r if r[0] != "PC-2610-0002" else [*r[:4], "2026-10-20"] for r in rows]
    records = build_records({"data/invoices.xlsx": _book(("Invoices", paid))}, 2026)
    assert only_unpaid_problems(said, records, 2026) == []


def test_a_total_said_in_a_heading_of_the_items_below_it():
    rows = [["Ref", "Party", "Annual value"], ["CTR-2440", "Alder Street Clinics", 60000], ["CTR-2447", "Cedar Row Hotels", 45000]]
    records = build_records({"data/contracts.xlsx": _book(("Contracts", rows))}, 2026)
    listing = ("These two customers got no letter; between them the agreements are worth £{t} a year:\n\n"
               "- Alder Street Clinics: agreement CTR-2440\n- Cedar Row Hotels: agreement CTR-2447\n")
    assert _false(listing.format(t="115,000"), records)
    assert _false(listing.format(t="105,000"), records) == []


def test_a_notice_rule_in_weeks_is_no_span_from_today():
    records = build_records({}, 2026)
    now = datetime(2026, 11, 16, 9, 0)
    assert _false("Section 1 asks for requests at least two weeks ahead; Rosa asked on 15 November 2026.", records, now) == []
    assert _false("Rosa's leave starts on 23 November 2026, five weeks from today.", records, now)
