"""OfficeBench's original evaluation functions, re-implemented (evaluators/officebench.py): their quirks
decide the original score, so each is pinned here on small offices built in the test."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from docx import Document

from officesim.evaluators.officebench import Testbed as OfficeTestbed, evaluate_original
from officesim.testbed.convert import docx_to_pdf


def run(tb: OfficeTestbed, function: str, **args) -> tuple[bool, str]:
    passed, records = evaluate_original([{"function": function, "args": args}], tb)
    return passed, records[0].message


@pytest.fixture
def tb(tmp_path) -> OfficeTestbed:
    root = tmp_path / "office"
    (root / "data").mkdir(parents=True)
    wb = openpyxl.Workbook()
    ws = wb.active
    for row in (["Item", "Amount"], ["Rent", 1200], ["Total", "=SUM(B2:B2)"]):
        ws.append(row)
    wb.save(root / "data" / "budget.xlsx")
    doc = Document()
    doc.add_paragraph("Total due: 1,389.99")
    doc.save(root / "data" / "note.docx")
    report = Document()
    report.add_paragraph("Quarterly report")
    report.save(tmp_path / "report.docx")
    docx_to_pdf(tmp_path / "report.docx", root / "data" / "report.pdf")
    (root / "calendar").mkdir()
    (root / "calendar" / "Bob.ics").write_text(
        "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:x\n"
        "BEGIN:VEVENT\nUID:1\nDTSTART:20240501T090000\nDTEND:20240501T100000\nSUMMARY:class\nEND:VEVENT\n"
        "BEGIN:VEVENT\nUID:2\nDTSTART:20240501T093000\nDTEND:20240501T094500\nSUMMARY:nap\nEND:VEVENT\n"
        "END:VCALENDAR\n")
    (root / "emails" / "Bob" / "sent").mkdir(parents=True)
    (root / "emails" / "Bob" / "msg-1.eml").write_text(
        "From: alice@example.com\nTo: bob@example.com\nSubject: Party\nContent-Type: text/plain; charset=utf-8\n\n"
        "Jane Doe invites you.\n")
    (root / "emails" / "Bob" / "sent" / "msg-1.eml").write_text(
        "From: bob@example.com\nTo: tom@example.com\nSubject: Costs\nContent-Type: text/plain; charset=utf-8\n\n"
        "Total 1494.97\n")
    before = tmp_path / "before"
    (before / "data").mkdir(parents=True)
    (before / "data" / "budget.xlsx").write_bytes((root / "data" / "budget.xlsx").read_bytes())
    reference = tmp_path / "reference"
    reference.mkdir()
    (reference / "budget.xlsx").write_bytes((root / "data" / "budget.xlsx").read_bytes())
    return OfficeTestbed(root=root, before=before, reference=reference, answer="It's \"Tom\"", finished=True)


def test_contain_is_a_lower_cased_substring_search(tb):
    assert run(tb, "evaluate_contain", doc_type="docx", file="./data/note.docx", keywords=["total DUE", "1389.99"])[0]
    assert run(tb, "evaluate_contain", doc_type="docx", file="data/note.docx", keywords=["389"])[0]  # a part of a number
    # commas go only once a numeric keyword has been seen
    assert not run(tb, "evaluate_contain", doc_type="docx", file="data/note.docx", keywords=["1389.99,"])[0]
    assert run(tb, "evaluate_contain", doc_type="pdf", file="data/report.pdf", keywords=["quarterly"])[0]
    assert not run(tb, "evaluate_contain", doc_type="docx", file="data/missing.docx", keywords=["x"])[0]
    assert run(tb, "evaluate_not_contain", doc_type="docx", file="data/missing.docx", keywords=["x"])[0]


def test_xlsx_reads_as_the_original_listing_with_formula_text(tb):
    assert run(tb, "evaluate_contain", doc_type="xlsx", file="data/budget.xlsx", keywords=["=sum(b2:b2)"])[0]
    assert run(tb, "evaluate_excel_cell_value", file="data/budget.xlsx", matches=[{"row": 2, "col": 2, "value": "1200"}])[0]
    assert run(tb, "evaluate_excel_cell_value", file="data/budget.xlsx", matches=[{"row": 2, "col": 2, "value": "12"}])[0]
    passed, message = run(tb, "evaluate_excel_cell_value", matches=[{"row": 2, "col": 2, "value": "1200"}])
    assert not passed and "KeyError" in message  # no file argument: the original raises
    passed, _ = run(tb, "evaluate_excel_cell_comparator", file="data/budget.xlsx",
                    matches=[{"row": 2, "col": 2, "comparator": "lambda x: x in ['1200', '5']"}])
    assert passed
    passed, message = run(tb, "evaluate_excel_cell_comparator", file="data/budget.xlsx",
                          matches=[{"row": 2, "col": 2, "comparator": "__import__('os')"}])
    assert not passed and "not of the form" in message  # never evaluated


def test_the_answer_is_data_answer_txt_as_echo_wrote_it(tb):
    assert run(tb, "evaluate_contain", doc_type="txt", file="./data/answer.txt", keywords=["its tom"])[0]
    unfinished = OfficeTestbed(root=tb.root, answer="Tom", finished=False)
    assert not run(unfinished, "evaluate_contain", doc_type="txt", file="data/answer.txt", keywords=["tom"])[0]
    none = OfficeTestbed(root=tb.root, answer=None, finished=True)
    assert run(none, "evaluate_contain", doc_type="txt", file="data/answer.txt", keywords=["none"])[0]


def test_mailbox_listing_reads_the_office_both_folders(tb):
    assert run(tb, "evaluate_contain", doc_type="email", username="Bob", keywords=["jane doe", "1494.97"])[0]
    for other in ("bob", "Carol"):  # the folder as written, or in lower case; else the fallback raises
        passed, message = run(tb, "evaluate_contain", doc_type="email", username=other, keywords=["party"])
        assert not passed and "UnboundLocalError" in message


def test_exact_match_and_diff(tb):
    ref = "../../../../reference/budget.xlsx"
    assert run(tb, "evaluate_exact_match", doc_type="xlsx", result_file="./data/budget.xlsx", expected_file=ref)[0]
    assert not run(tb, "evaluate_exact_match", doc_type="pdf", result_file="data/report.pdf",
                   expected_file="data/report.pdf")[0]  # page objects are never equal
    before = "../../../../cache/0/testbed/data/budget.xlsx"
    assert not run(tb, "evaluate_diff_contain_text", doc_type="xlsx", input_file=before,
                   output_file="./data/budget.xlsx", keywords=["Rent"])[0]  # nothing changed
    wb = openpyxl.load_workbook(tb.root / "data" / "budget.xlsx")
    wb.active.delete_rows(2)
    wb.save(tb.root / "data" / "budget.xlsx")
    assert run(tb, "evaluate_diff_contain_text", doc_type="xlsx", input_file=before,
               output_file="./data/budget.xlsx", keywords=["Rent", "1200"])[0]
    assert not run(tb, "evaluate_exact_match", doc_type="xlsx", result_file="./data/budget.xlsx", expected_file=ref)[0]
    assert not run(tb, "evaluate_file_exist", file="../../../../etc/passwd")[0]


def test_calendar_overlap_and_files(tb):
    assert not run(tb, "evaluate_calendar_no_overlap", username="Bob")[0]
    passed, message = run(tb, "evaluate_calendar_no_overlap", username="bob")
    assert not passed and "No such file" in message  # the original opens calendar/<username>.ics as written
    assert run(tb, "evaluate_file_exist", file="./calendar/Bob.ics")[0]
    assert run(tb, "evaluate_file_not_exist", file="data/nothing.txt")[0]
    passed, records = evaluate_original([{"function": "evaluate_file_exist", "args": {"file": "data/budget.xlsx"}},
                                         {"function": "evaluate_nope", "args": {}}], tb)
    assert not passed and [r.passed for r in records] == [True, False]
