"""Every registered check passes on a right state and fails, with a telling message, on a wrong one.

States are hand-built parsed offices in the FORMAT §3 shape; no files are involved.
"""

from __future__ import annotations

import pytest

from officesim.evaluators import EvalState, run_check

ME = "maya.lin@northwind.test"
BOB = "bob.ray@northwind.test"
ANA = "ana.cruz@northwind.test"


# ---- builders of parsed entries ---------------------------------------------------------------
def xlsx(sheets: dict, order: list[str] | None = None) -> dict:
    return {"kind": "xlsx", "sheets": sheets, "sheet_order": order or list(sheets)}


def docx(paragraphs: list[str], tables: list | None = None) -> dict:
    return {"kind": "docx", "paragraphs": paragraphs, "tables": tables or []}


def pdf(*pages: str) -> dict:
    return {"kind": "pdf", "pages": list(pages)}


def eml(mailbox: str, folder: str, id: str, frm: str, to: list[str], subject: str, body: str = "",
        cc: list[str] | None = None, attachments: list[str] | None = None) -> dict:
    return {"kind": "eml", "mailbox": mailbox, "folder": folder, "id": id, "from": frm, "to": to, "cc": cc or [],
            "subject": subject, "date": "2026-03-10 09:00:00", "message_id": f"<{id}@x>", "in_reply_to": None,
            "body": body, "attachments": [{"filename": a, "size": 10, "sha256": "ab" * 32} for a in attachments or []]}


def ev(summary: str, start: str, end: str, **extra) -> dict:
    base = {"uid": summary, "summary": summary, "start": start, "end": end, "all_day": " " not in start,
            "location": None, "description": None, "attendees": []}
    return {**base, **extra}


def ics(user: str, *events: dict) -> dict:
    return {"kind": "ics", "user": user, "events": list(events)}


def cal(user: str, *events: dict) -> dict:
    return {f"calendar/{user}.ics": ics(user, *events)}


def run(name: str, state: EvalState, **args):
    return run_check(name, args, state)


BUDGET = xlsx({"Budget": [["Item", "Amount"], ["Rent", 1200], ["Payroll", 7250.0], ["Total", 8450]],
               "Notes": [["free text"]]})
STATE = EvalState(files={
    "data/budget.xlsx": BUDGET,
    "data/notes.docx": docx(["Agenda", "", "Budget  review", "Hiring"], [[["Name", "Role"], ["Ana", "Lead"]]]),
    "data/report.pdf": pdf("Quarterly report\nRevenue grew", "Page two"),
    "data/todo.txt": {"kind": "text", "text": "call the landlord"},
    "data/scan.png": {"kind": "image", "width": 10, "height": 10, "sha256": "cd" * 32},
    "data/scan-copy.png": {"kind": "image", "width": 10, "height": 10, "sha256": "cd" * 32},
    "data/broken.xlsx": {"kind": "corrupt", "error": "File is not a zip file", "size": 3, "sha256": "ef" * 32},
    f"emails/{ME}/sent/msg-1.eml": eml(ME, "sent", "msg-1", ME, [BOB], "Q3 budget", "Hi Bob,\nthe total is\n8,450.",
                                       cc=[ANA], attachments=["budget.xlsx"]),
    f"emails/{BOB}/msg-1.eml": eml(BOB, "inbox", "msg-1", ME, [BOB], "Q3 budget", "Hi Bob, the total is 8,450."),
    f"emails/{ME}/msg-3.eml": eml(ME, "inbox", "msg-3", ANA, [ME], "Offsite dates", "Shall we meet on Friday?"),
    **cal(ME, ev("Standup", "2026-03-10 09:30:00", "2026-03-10 09:45:00"),
          ev("Budget review", "2026-03-10 14:00:00", "2026-03-10 15:00:00", location="Room 4", attendees=[BOB]),
          ev("Holiday", "2026-03-12", "2026-03-13")),
}, answer="8,450.")


# ---- exact: xlsx -------------------------------------------------------------------------------
def test_xlsx_cell_pass_numeric_aware():
    assert run("xlsx_cell", STATE, file="data/budget.xlsx", cell="B4", value="8,450").passed
    assert run("xlsx_cell", STATE, file="data/budget.xlsx", cell="B3", value=7250).passed
    assert run("xlsx_cell", STATE, file="data/budget.xlsx", cell="Z99", value=None).passed
    assert run("xlsx_cell", STATE, file="data/budget.xlsx", cell="Notes!A1", value="free text").passed


def test_xlsx_cell_fail_says_expected_and_found():
    out = run("xlsx_cell", STATE, file="data/budget.xlsx", cell="B4", value=8400)
    assert not out.passed
    assert out.message == "data/budget.xlsx Budget!B4: expected 8400, found 8450"


def test_xlsx_cell_text_is_case_sensitive_and_other_sheet():
    assert not run("xlsx_cell", STATE, file="data/budget.xlsx", cell="A4", value="total").passed
    out = run("xlsx_cell", STATE, file="data/budget.xlsx", cell="A1", value="x", sheet="Summary")
    assert not out.passed and "no sheet 'Summary'" in out.message and "'Budget'" in out.message


def test_xlsx_row():
    assert run("xlsx_row", STATE, file="data/budget.xlsx", values=["Total", "8450", None]).passed
    assert run("xlsx_row", STATE, file="data/budget.xlsx", values=["Rent", 1200], row=2).passed
    out = run("xlsx_row", STATE, file="data/budget.xlsx", values=["Rent", 1300], row=2)
    assert not out.passed and "B2: expected 1300, found 1200" in out.message
    out = run("xlsx_row", STATE, file="data/budget.xlsx", values=["Total", 9000])
    assert not out.passed and "most similar row: ['Total', 8450]" in out.message


def test_xlsx_sheet_equals():
    rows = [["Item", "Amount"], ["Rent", "1,200"], ["Payroll", 7250], ["Total", 8450, None], []]
    assert run("xlsx_sheet_equals", STATE, file="data/budget.xlsx", rows=rows).passed
    out = run("xlsx_sheet_equals", STATE, file="data/budget.xlsx", rows=rows[:3])
    assert not out.passed and "A4: expected an empty cell, found 'Total'" in out.message and "expected 3 rows, found 4" in out.message


def test_xlsx_sheet_exists():
    assert run("xlsx_sheet_exists", STATE, file="data/budget.xlsx", sheet="Notes").passed
    out = run("xlsx_sheet_exists", STATE, file="data/budget.xlsx", sheet="notes")
    assert not out.passed and "differs only in case" in out.message


# ---- exact: docx, pdf --------------------------------------------------------------------------
def test_docx_paragraphs_equal():
    assert run("docx_paragraphs_equal", STATE, file="data/notes.docx", paragraphs=["Agenda", "Budget review", "Hiring"]).passed
    out = run("docx_paragraphs_equal", STATE, file="data/notes.docx", paragraphs=["Agenda", "Budget review"])
    assert not out.passed and "paragraph 3: expected no more paragraphs, found 'Hiring'" in out.message


def test_docx_has_paragraph():
    assert run("docx_has_paragraph", STATE, file="data/notes.docx", text=" Budget review ").passed
    out = run("docx_has_paragraph", STATE, file="data/notes.docx", text="Budget reviews")
    assert not out.passed and "closest: 'Budget review'" in out.message


def test_docx_table_cell():
    assert run("docx_table_cell", STATE, file="data/notes.docx", table=1, row=2, col=2, value="Lead").passed
    out = run("docx_table_cell", STATE, file="data/notes.docx", table=1, row=2, col=2, value="Manager")
    assert not out.passed and "expected 'Manager', found 'Lead'" in out.message
    out = run("docx_table_cell", STATE, file="data/notes.docx", table=2, row=1, col=1, value="x")
    assert not out.passed and "has 1 table" in out.message
    out = run("docx_table_cell", STATE, file="data/notes.docx", table=1, row=5, col=1, value="x")
    assert not out.passed and "2 rows x 2 columns" in out.message


def test_pdf_text_equals():
    assert run("pdf_text_equals", STATE, file="data/report.pdf", text="Quarterly report Revenue grew\n\nPage two").passed
    out = run("pdf_text_equals", STATE, file="data/report.pdf", text="Quarterly report Revenue fell Page two")
    assert not out.passed and "differs at character 26: expected 'fell Page two', found 'grew Page two'" in out.message


def test_pdf_page_count():
    assert run("pdf_page_count", STATE, file="data/report.pdf", count=2).passed
    out = run("pdf_page_count", STATE, file="data/report.pdf", count=3)
    assert not out.passed and "expected 3 page(s), found 2" in out.message


# ---- exact: calendar ---------------------------------------------------------------------------
def test_ics_event_pass_ci_and_fields():
    assert run("ics_event", STATE, user=ME, summary="budget REVIEW", start="2026-03-10 14:00", end="2026-03-10 15:00:00",
               location="room 4", attendees=[BOB.upper()]).passed


def test_ics_event_attendees_may_list_the_calendars_owner():
    import copy
    state = copy.deepcopy(STATE)
    cal = next(e for e in state.files.values() if e.get("kind") == "ics")
    event = next(e for e in cal["events"] if e["summary"] == "Budget review")
    event["attendees"] = [ME, BOB]
    assert run("ics_event", state, user=ME, summary="Budget review", attendees=[BOB]).passed
    assert run("ics_event", state, user=ME, summary="Budget review", attendees=[ME, BOB]).passed
    out = run("ics_event", state, user=ME, summary="Budget review", attendees=[ANA])
    assert not out.passed and "attendees are" in out.message


def test_ics_event_fail_names_the_field():
    out = run("ics_event", STATE, user=ME, summary="Budget review", start="2026-03-10 15:00:00")
    assert not out.passed and "start is '2026-03-10 14:00:00', expected '2026-03-10 15:00:00'" in out.message
    out = run("ics_event", STATE, user=ME, summary="Budget review", attendees=[BOB, ANA])
    assert not out.passed and f"attendees are [{BOB}]" in out.message
    out = run("ics_event", STATE, user=ME, summary="Retro")
    assert not out.passed and "no event 'Retro'" in out.message and "'Standup' 2026-03-10 09:30:00" in out.message


def test_ics_event_missing_calendar_is_empty():
    out = run("ics_event", STATE, user=BOB, summary="Standup")
    assert not out.passed and "the calendar is empty" in out.message
    assert run("ics_event_count", STATE, user=BOB, count=0).passed


def test_ics_no_event():
    assert run("ics_no_event", STATE, user=ME, summary="Retro").passed
    out = run("ics_no_event", STATE, user=ME, summary="standup")
    assert not out.passed and "found 1 (at 2026-03-10 09:30:00)" in out.message


def test_ics_event_count():
    assert run("ics_event_count", STATE, user=ME, count=3).passed
    out = run("ics_event_count", STATE, user=ME, count=2)
    assert not out.passed and "expected 2 event(s), found 3" in out.message


# ---- exact: email ------------------------------------------------------------------------------
def test_email_sent_pass():
    assert run("email_sent", STATE, sender=ME, to=BOB.upper(), subject="q3 budget", body_contains=["total is 8,450", "HI BOB"],
               cc=[ANA], attachments=["data/budget.xlsx"]).passed
    assert run("email_sent", STATE, sender=ME, to=[BOB], subject_contains="budget").passed


def test_email_sent_fail_reports_closest():
    out = run("email_sent", STATE, sender=ME, to=[ANA], subject="Q3 budget")
    assert not out.passed and f"to is [{BOB}], expected [{ANA}]" in out.message and "msg-1.eml" in out.message
    out = run("email_sent", STATE, sender=ME, to=[BOB], body_contains="8,400", attachments=["report.pdf"])
    assert not out.passed and "body does not state '8,400'" in out.message and "missing 'report.pdf'" in out.message
    out = run("email_sent", STATE, sender=BOB, to=[ME])
    assert not out.passed and f"{BOB} sent no messages" in out.message


def test_email_received():
    assert run("email_received", STATE, user=BOB, sender=ME, subject_contains="Q3").passed
    out = run("email_received", STATE, user=BOB, sender=ANA)
    assert not out.passed and f"from is '{ME}', expected '{ANA}'" in out.message
    out = run("email_received", STATE, user=ANA, sender=ME)
    assert not out.passed and "inbox of" in out.message and "is empty" in out.message


def test_email_not_sent():
    assert run("email_not_sent", STATE, sender=ME, to=[ME]).passed
    assert run("email_not_sent", STATE, sender=ME, subject_contains="offsite").passed
    assert run("email_not_sent", STATE, sender=BOB).passed
    out = run("email_not_sent", STATE, sender=ME, to=ANA)  # cc counts as addressed
    assert not out.passed and "expected no such message" in out.message and "'Q3 budget'" in out.message


# ---- exact: files and answer -------------------------------------------------------------------
def test_file_equals():
    assert run("file_equals", STATE, file="data/scan.png", other="data/scan-copy.png").passed
    assert run("file_equals", STATE, file="data/scan.png", sha256="CD" * 32).passed
    out = run("file_equals", STATE, file="data/scan.png", sha256="00" * 32)
    assert not out.passed and "expected sha256 000000000000" in out.message
    out = run("file_equals", STATE, file="data/budget.xlsx", other="data/notes.docx")
    assert not out.passed and "differs" in out.message
    out = run("file_equals", STATE, file="data/scan.png")
    assert not out.passed and "exactly one of 'other' and 'sha256'" in out.message


def test_answer_equals():
    assert run("answer_equals", STATE, value=8450).passed
    assert run("answer_equals", EvalState(answer=' "Paris". '), value="paris").passed
    assert run("answer_equals", EvalState(answer="Lyon"), value=["Paris", "lyon"]).passed
    out = run("answer_equals", STATE, value=8400)
    assert not out.passed and out.message == "the answer: expected 8400, found '8,450'"
    out = run("answer_equals", EvalState(answer=None), value="Paris")
    assert not out.passed and "no answer was given" in out.message


# ---- fuzzy -------------------------------------------------------------------------------------
@pytest.mark.parametrize("file, text", [
    ("data/budget.xlsx", "payroll"), ("data/notes.docx", "budget review"), ("data/notes.docx", "Lead"),
    ("data/report.pdf", "report revenue grew"), (f"emails/{ME}/sent/msg-1.eml", "the total is 8,450"),
    (f"emails/{ME}/sent/msg-1.eml", "budget.xlsx"), (f"calendar/{ME}.ics", "Room 4"), ("data/todo.txt", "LANDLORD"),
])
def test_contains_every_kind(file, text):
    assert run("contains", STATE, file=file, text=text).passed


def test_contains_fail_and_case_sensitive():
    out = run("contains", STATE, file="data/report.pdf", text=["Quarterly", "Revenue fell"])
    assert not out.passed and "'Revenue fell'" in out.message and "closest passage: 'Revenue gre" in out.message
    assert not run("contains", STATE, file="data/todo.txt", text="LANDLORD", case_sensitive=True).passed


def test_not_contains():
    assert run("not_contains", STATE, file="data/notes.docx", text=["Firing", "salary"]).passed
    out = run("not_contains", STATE, file="data/notes.docx", text=["Firing", "hiring"])
    assert not out.passed and "expected not to state 'hiring'" in out.message


def test_similar():
    assert run("similar", STATE, file="data/todo.txt", text="Call the landlord!").passed
    out = run("similar", STATE, file="data/todo.txt", text="email the plumber about the leak")
    assert not out.passed and "below 0.85" in out.message and "call the landlord" in out.message


def test_answer_contains():
    assert run("answer_contains", EvalState(answer="The total is 8,450 USD"), text=["total", "8,450"]).passed
    out = run("answer_contains", EvalState(answer="The total is 8,400"), text=["total", "8,450"])
    assert not out.passed and "lacks '8,450'" in out.message
    assert not run("answer_contains", EvalState(answer=None), text="x").passed


def test_answer_similar():
    assert run("answer_similar", EvalState(answer="Meeting moved to Friday."), text="the meeting moved to friday").passed
    out = run("answer_similar", EvalState(answer="I could not find it"), text="Meeting moved to Friday")
    assert not out.passed and "below 0.85" in out.message


def test_event_time_near():
    assert run("event_time_near", STATE, user=ME, summary="standup", start="2026-03-10 09:40:00").passed
    out = run("event_time_near", STATE, user=ME, summary="Standup", start="2026-03-10 10:00:00", tolerance_minutes=15)
    assert not out.passed and "30 min from the expected" in out.message


def test_file_exists_and_not_exists():
    assert run("file_exists", STATE, file="/testbed/data/budget.xlsx").passed
    out = run("file_exists", STATE, file="data/budget.xls")
    assert not out.passed and "did you mean data/budget.xlsx" in out.message
    assert run("file_not_exists", STATE, file="data/old.xlsx").passed
    out = run("file_not_exists", STATE, file="data/todo.txt")
    assert not out.passed and "found a text file" in out.message


def test_dir_files():
    names = ["budget.xlsx", "notes.docx", "report.pdf", "todo.txt", "scan.png", "scan-copy.png", "broken.xlsx"]
    assert run("dir_files", STATE, dir="data", names=names).passed
    out = run("dir_files", STATE, dir="data/", names=names[:-1] + ["extra.txt"])
    assert not out.passed and "missing ['extra.txt']" in out.message and "unexpected ['broken.xlsx']" in out.message


# ---- predicates --------------------------------------------------------------------------------
def test_calendar_no_overlap():
    back_to_back = EvalState(files=cal(ME, ev("A", "2026-03-10 09:00:00", "2026-03-10 10:00:00"),
                                       ev("B", "2026-03-10 10:00:00", "2026-03-10 11:00:00"),
                                       ev("Off", "2026-03-10", "2026-03-11")))
    assert run("calendar_no_overlap", back_to_back, user=ME).passed
    clash = EvalState(files=cal(ME, ev("A", "2026-03-10 09:00:00", "2026-03-10 12:00:00"),
                                ev("B", "2026-03-10 10:00:00", "2026-03-10 10:30:00")))
    out = run("calendar_no_overlap", clash, user=ME)
    assert not out.passed and "'A' 2026-03-10 09:00:00 - 2026-03-10 12:00:00 overlaps 'B'" in out.message


def _sync_state(bob_extra: list[dict] | None = None, bob_start: str = "2026-03-11 10:00:00") -> EvalState:
    files = {**cal(ME, ev("Sync", "2026-03-11 10:00:00", "2026-03-11 10:30:00"), ev("Lunch", "2026-03-11 12:00:00", "2026-03-11 13:00:00")),
             **cal(BOB, ev("sync", bob_start, "2026-03-11 10:30:00"), *(bob_extra or []))}
    return EvalState(files=files)


def test_common_event_pass():
    assert run("common_event", _sync_state(), users=[ME, BOB], summary="Sync", duration_minutes=30).passed


def test_common_event_fail_clash_time_duration():
    out = run("common_event", _sync_state([ev("Dentist", "2026-03-11 10:15:00", "2026-03-11 11:00:00")]), users=[ME, BOB], summary="Sync")
    assert not out.passed and "overlaps 'Dentist'" in out.message
    out = run("common_event", _sync_state(bob_start="2026-03-11 10:10:00"), users=[ME, BOB], summary="Sync")
    assert not out.passed and f"{BOB} has no 'Sync' at 2026-03-11 10:00:00" in out.message
    out = run("common_event", _sync_state(), users=[ME, BOB], summary="Sync", duration_minutes=60)
    assert not out.passed and "lasts 30 min, expected 60" in out.message
    out = run("common_event", _sync_state(), users=[ANA, ME], summary="Sync")
    assert not out.passed and f"calendar of {ANA}: no timed event 'Sync'" in out.message


def test_cell_compare():
    assert run("cell_compare", STATE, file="data/budget.xlsx", cell="B4", op=">", value="8,000").passed
    assert run("cell_compare", STATE, file="data/budget.xlsx", cell="B4", op="==", value=8450.0).passed
    assert run("cell_compare", STATE, file="data/budget.xlsx", cell="A4", op="!=", value="Sum").passed
    out = run("cell_compare", STATE, file="data/budget.xlsx", cell="B4", op="<=", value=8000)
    assert not out.passed and "Budget!B4: expected a value <= 8000, found 8450" in out.message
    out = run("cell_compare", STATE, file="data/budget.xlsx", cell="A4", op="<", value=5)
    assert not out.passed and "cannot be compared" in out.message
    as_text = EvalState(files={"data/t.xlsx": xlsx({"S": [["Total", "4,690.99"]]})})
    out = run("cell_compare", as_text, file="data/t.xlsx", cell="B1", op=">=", value=4690.98)
    assert not out.passed and "found the text '4,690.99'" in out.message
    assert run("cell_compare", as_text, file="data/t.xlsx", cell="B1", op=">=", value="4,690.98").passed


def test_column_sorted():
    rows = [["Name", "Amount", "Due"], ["b", 30, "2026-01-02"], ["A", 20, "2026-01-03"], ["c", 10, None], [None, 5, "2026-02-01"]]
    state = EvalState(files={"data/s.xlsx": xlsx({"S": rows})})
    assert run("column_sorted", state, file="data/s.xlsx", column="B", descending=True).passed
    assert run("column_sorted", state, file="data/s.xlsx", column="C").passed
    out = run("column_sorted", state, file="data/s.xlsx", column="A")
    assert not out.passed and "A2 'b' comes before A3 'A'" in out.message
    out = run("column_sorted", state, file="data/s.xlsx", column="B")
    assert not out.passed and "not in ascending order" in out.message


def test_column_values():
    assert run("column_values", STATE, file="data/budget.xlsx", column="B", values=["1,200", 7250, 8450]).passed
    out = run("column_values", STATE, file="data/budget.xlsx", column="A", values=["Rent", "Payroll"])
    assert not out.passed and "Budget!A4: expected an empty cell, found 'Total'" in out.message


# ---- failures that are not the agent's answer being wrong --------------------------------------
@pytest.mark.parametrize("name, args", [
    ("xlsx_cell", {"file": "data/nope.xlsx", "cell": "A1", "value": 1}),
    ("docx_has_paragraph", {"file": "data/nope.docx", "text": "x"}),
    ("pdf_page_count", {"file": "data/nope.pdf", "count": 1}),
    ("contains", {"file": "data/nope.txt", "text": "x"}),
    ("column_sorted", {"file": "data/nope.xlsx", "column": "A"}),
])
def test_missing_file_fails_clearly(name, args):
    out = run_check(name, args, STATE)
    assert not out.passed and out.message.startswith(args["file"] + ": file not found")


def test_wrong_kind_fails_clearly():
    out = run("xlsx_cell", STATE, file="data/notes.docx", cell="A1", value="Agenda")
    assert not out.passed and out.message == "data/notes.docx: is a docx file, expected xlsx"
    out = run("pdf_text_equals", STATE, file="data/budget.xlsx", text="x")
    assert not out.passed and "is a xlsx file, expected pdf" in out.message


def test_corrupt_file_fails_clearly():
    out = run("xlsx_cell", STATE, file="data/broken.xlsx", cell="A1", value=1)
    assert not out.passed and "could not be read as xlsx (File is not a zip file)" in out.message
    assert run("file_exists", STATE, file="data/broken.xlsx").passed


def test_corrupt_calendar_is_not_silently_empty():
    state = EvalState(files={f"calendar/{ME}.ics": {"kind": "corrupt", "error": "bad ics", "size": 1, "sha256": "0"}})
    out = run("ics_event_count", state, user=ME, count=0)
    assert not out.passed and "could not be read" in out.message


def test_event_times_with_an_offset_compare_in_the_task_timezone():
    berlin = EvalState(files=cal(ME, ev("Call", "2026-03-10 10:00:00", "2026-03-10 10:30:00")), timezone="Europe/Berlin")
    assert run("ics_event", berlin, user=ME, summary="Call", start="2026-03-10T09:00:00Z").passed
    assert not run("ics_event", berlin, user=ME, summary="Call", start="2026-03-10T10:00:00Z").passed
    assert run("event_time_near", berlin, user=ME, summary="Call", start="2026-03-10T09:05:00+00:00", tolerance_minutes=5).passed


def test_contains_lines_keeps_facts_together():
    from datetime import datetime

    note = docx(["Meetings to cover:", "Safety walk - Monday 20 July", "Launch rehearsal - Tuesday 21 July"])
    state = EvalState(files={"data/h.docx": note}, now=datetime(2026, 7, 15, 9))
    groups = [["Safety walk", "2026-07-20"], ["Launch rehearsal", "2026-07-21"]]
    assert run("contains", state, file="data/h.docx", text="Safety walk", lines=groups).passed
    swapped = docx(["Safety walk - Tuesday 21 July", "Launch rehearsal - Monday 20 July"])
    out = run("contains", EvalState(files={"data/h.docx": swapped}, now=datetime(2026, 7, 15, 9)),
              file="data/h.docx", text="Safety walk", lines=groups)
    assert not out.passed and "'Safety walk' and '2026-07-20' together" in out.message


def test_contains_reads_a_sheet_row_by_row_under_its_header():
    """In a sheet a row is one record (a name's score is not taken from the row below) and a header row
    names the columns: a figure beside the named columns, or a header cell left out, is not the table."""
    groups = [["Alice", 78, 75], ["Liam", 74, 72]]
    def sheet(rows):
        return EvalState(files={"s.xlsx": xlsx({"Sheet1": rows})}, before={})
    good = [["Name", "midterm1", "midterm2"], ["Alice", 78, 75], ["Liam", 74, 72]]
    assert run("contains", sheet(good), file="s.xlsx", text=["Alice", "Liam"], lines=groups).passed
    assert run("contains", sheet([["Top scores"], *good]), file="s.xlsx", text=["Alice"], lines=groups).passed
    assert run("contains", sheet(good[1:]), file="s.xlsx", text=["Alice"], lines=groups).passed  # no header row
    split = [["Name", "midterm1", "midterm2"], ["Alice", 78, None], [None, None, 75], ["Liam", 74, 72]]
    assert not run("contains", sheet(split), file="s.xlsx", text=["Alice"], lines=groups).passed
    beside = [["Name", "midterm1", "midterm2"], ["Alice", 78, None, 75], ["Liam", 74, None, 72]]
    out = run("contains", sheet(beside), file="s.xlsx", text=["Alice"], lines=groups)
    assert not out.passed and "column D holds values under no header" in out.message
    headless = [[None, "midterm1", "midterm2"], *good[1:]]
    assert "column A holds values under no header" in run("contains", sheet(headless), file="s.xlsx", text=["Alice"],
                                                            lines=groups).message


def test_stated_overlaps_pairs_only_events_that_overlap():
    bob = ics("bob", ev("lunch", "2024-05-01 12:00:00", "2024-05-01 13:00:00"),
              ev("nap", "2024-05-01 13:00:00", "2024-05-01 14:00:00"),
              ev("dinner", "2024-05-01 18:30:00", "2024-05-01 19:30:00"))
    tom = ics("tom", ev("lunch with David", "2024-05-01 12:30:00", "2024-05-01 13:30:00"),
              ev("dinner", "2024-05-01 18:30:00", "2024-05-01 19:30:00"))
    def state(*lines):
        return EvalState(files={"calendar/bob.ics": bob, "calendar/tom.ics": tom, "s.docx": docx(list(lines))})
    args = dict(file="s.docx", users=["bob", "tom"])
    assert run("stated_overlaps", state("Conflicts", "Bob's lunch and nap against Tom's lunch with David"), **args).passed
    assert run("stated_overlaps", state("Bob's dinner and Tom's dinner"), **args).passed
    two = EvalState(files={"calendar/bob.ics": bob, "s.docx": docx(["Bob's nap and Tom's class"]), "calendar/tom.ics": ics(
        "tom", ev("class", "2024-05-01 08:00:00", "2024-05-01 13:30:00"), ev("class", "2024-05-01 16:00:00", "2024-05-01 18:00:00"))})
    assert run("stated_overlaps", two, **args).passed  # one of Tom's two classes overlaps the nap
    out = run("stated_overlaps", state("Bob's lunch and nap against Tom's lunch with David",
                                       "Bob's dinner and nap against Tom's lunch with David"), **args)
    assert not out.passed and "bob's 'dinner'" in out.message
    assert not run("stated_overlaps", state("Tom's dinner clashes with Bob's lunch"), **args).passed


def test_no_repeats():
    assert run("no_repeats", STATE, file="data/notes.docx").passed
    twice = EvalState(files={"m.docx": docx(["Memo", "Daily allowance: 110 EUR", "Memo", "daily  allowance: 110 EUR."]),
                             "t.txt": {"kind": "text", "text": "a\n\nb\n"}})
    out = run("no_repeats", twice, file="m.docx")
    assert not out.passed and "'memo' is written 2 times (and 1 more repeated)" in out.message
    assert run("no_repeats", twice, file="t.txt").passed
    assert not run("no_repeats", STATE, file="data/budget.xlsx").passed
    letter = EvalState(files={"l.docx": docx(["Grace Moreau", "12 Elm Street", "Dear Sir", "Yours", "Grace Moreau"])})
    assert not run("no_repeats", letter, file="l.docx").passed
    assert run("no_repeats", letter, file="l.docx", block=2).passed
    doubled = EvalState(files={"l.docx": docx(["Grace Moreau", "12 Elm Street", "Grace Moreau", "12 Elm Street"])})
    out = run("no_repeats", doubled, file="l.docx", block=2)
    assert not out.passed and "'grace moreau / 12 elm street' is written 2 times" in out.message


def test_same_time_one_shared_event_by_its_words():
    meet = {**cal(ME, ev("Project sync", "2026-03-12 10:00:00", "2026-03-12 11:00:00")),
            **cal(BOB, ev("Sync on the project", "2026-03-12 10:00:00", "2026-03-12 11:00:00"))}
    assert run("same_time", EvalState(files=meet), users=[ME, BOB], text=["sync"]).passed
    moved = {**meet, **cal(BOB, ev("Sync on the project", "2026-03-12 11:00:00", "2026-03-12 12:00:00"))}
    assert "not at one time" in run("same_time", EvalState(files=moved), users=[ME, BOB], text=["sync"]).message
    twice = {**meet, **cal(BOB, ev("Sync", "2026-03-12 10:00:00", "2026-03-12 11:00:00"),
                          ev("Sync again", "2026-03-12 10:00:00", "2026-03-12 11:00:00"))}
    assert "2 events" in run("same_time", EvalState(files=twice), users=[ME, BOB], text="sync").message
    assert not run("same_time", EvalState(files=meet), users=[ME, BOB], text=["lunch"]).passed


def test_mailbox_contains_attachments_and_once():
    one = eml(BOB, "inbox", "m1", ME, [BOB], "Reward", "Tina scored 100", attachments=["reward.docx"])
    state = EvalState(files={"emails/bob/inbox/m1.eml": one})
    assert run("mailbox_contains", state, user=BOB, text=["Tina", "100"], attachments=["data/reward.docx"], once=True).passed
    extra = {**one, "attachments": one["attachments"] + [{"filename": "score.xlsx", "size": 1, "sha256": "cd" * 32}]}
    out = run("mailbox_contains", EvalState(files={"emails/bob/inbox/m1.eml": extra}), user=BOB, text=["Tina"],
              attachments=["reward.docx"])
    assert not out.passed and "score.xlsx" in out.message
    assert run("mailbox_contains", EvalState(files={"emails/bob/inbox/m1.eml": extra}), user=BOB, text=["Tina"],
               attachments=["reward.docx"], may_attach=["data/score.xlsx"]).passed
    twice = EvalState(files={"emails/bob/inbox/m1.eml": one, "emails/bob/inbox/m2.eml": {**one, "id": "m2"}})
    assert run("mailbox_contains", twice, user=BOB, text=["Tina"]).passed
    out = run("mailbox_contains", twice, user=BOB, text=["Tina"], once=True)
    assert not out.passed and "exactly one" in out.message


def test_mail_states_event():
    event = ev("Reward meeting", "2020-05-04 15:00:00", "2020-05-04 16:00:00")
    mail = eml(BOB, "inbox", "m1", ME, [BOB], "Reward meeting", "You are invited on May 4, 2020 from 3:00 PM to 4:00 PM.")
    state = EvalState(files={**cal(BOB, event), "emails/bob/inbox/m1.eml": mail})
    assert run("mail_states_event", state, user=BOB, text=["reward"]).passed
    late = {**mail, "body": "You are invited on May 4, 2020 from 4:00 PM to 5:00 PM."}
    out = run("mail_states_event", EvalState(files={**cal(BOB, event), "emails/bob/inbox/m1.eml": late}),
              user=BOB, text=["reward"])
    assert not out.passed and "Reward meeting" in out.message
    assert not run("mail_states_event", EvalState(files={"emails/bob/inbox/m1.eml": mail}), user=BOB, text=["reward"]).passed


def test_any_of_accepts_each_reading():
    state = EvalState(files=cal(BOB, ev("Reward", "2020-05-04 15:00:00", "2020-05-04 16:00:00")))
    kate = [{"check": "ics_event_count", "args": {"user": ANA, "count": 1}}]
    bob = [{"ics_event_count": {"user": BOB, "count": 1}}]
    assert run("any_of", state, readings=[kate, bob]).passed
    out = run("any_of", state, readings=[kate])
    assert not out.passed and "reading 1" in out.message
    assert not run("any_of", state, readings=[[{"no_such_check": {}}]]).passed


def test_pairs_meet():
    def person(name: str, start: str | None, mails: int = 1, cc: bool = False) -> dict:
        files = cal(name, ev("Helping section", f"2020-05-04 {start}:00", f"2020-05-04 {int(start[:2]) + 1}:00:00")) if start else {}
        for k in range(mails):
            to, copy = ([], [f"{name}@x.test"]) if cc else ([f"{name}@x.test"], [])
            files[f"emails/{name}/m{k}.eml"] = eml(name, "inbox", f"m{k}", ME, to,
                                                   "Helping section", f"on May 4, 2020 from {start} to {int(start[:2]) + 1}:00",
                                                   cc=copy)
        return files

    def state(**people) -> EvalState:
        files = {}
        for name, args in people.items():
            files.update(person(name, *args))
        return EvalState(files=files)

    args = dict(users=["frank", "ivy"], partners=["alice", "bob", "eva"], text=["helping"])
    good = state(frank=("16:00",), ivy=("10:00",), alice=("10:00",), bob=("16:00",))
    assert run("pairs_meet", good, **args).passed
    assert not run("pairs_meet", state(frank=("16:00",), ivy=("10:00",), alice=("11:00",), bob=("16:00",)), **args).passed
    assert not run("pairs_meet", state(frank=("16:00", 2), ivy=("10:00",), alice=("10:00",), bob=("16:00",)), **args).passed
    assert not run("pairs_meet", state(frank=("16:00",), ivy=("10:00",), alice=("10:00",), bob=("16:00",),
                                       eva=("16:00",)), **args).passed
    assert not run("pairs_meet", state(frank=("16:00", 1, True), ivy=("10:00",), alice=("10:00",), bob=("16:00",)),
                   **args).passed


def test_no_repeats_matching():
    letters = EvalState(files={"l.docx": docx(["Letter", "Dear Ana,", "Welcome.", "Letter", "Dear Bob,", "Welcome."])})
    assert not run("no_repeats", letters, file="l.docx").passed
    assert run("no_repeats", letters, file="l.docx", matching="Dear").passed
    twice = EvalState(files={"l.docx": docx(["Dear Ana,", "Welcome.", "Dear Ana,", "Welcome."])})
    assert not run("no_repeats", twice, file="l.docx", matching="dear").passed
