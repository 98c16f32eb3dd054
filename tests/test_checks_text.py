"""Normalisation rules shared by all checks (evaluators/text.py) and document_text flattening."""

from __future__ import annotations

import pytest

from officesim.evaluators.state import EvalState, office_path
from officesim.evaluators.text import (
    as_datetime,
    as_number,
    cell_name,
    collapse,
    column_index,
    column_letter,
    document_text,
    format_value,
    parse_cell,
    show,
    text_contains,
    values_equal,
)


@pytest.mark.parametrize("text, number", [
    (1200, 1200.0), (1200.0, 1200.0), ("1200", 1200.0), ("1,200", 1200.0), ("$1,200.00", 1200.0),
    ("-3.5", -3.5), ("-$3.50", -3.5), (" 42 ", 42.0), (".5", 0.5), ("1,234,567.8", 1234567.8), ("€15", 15.0),
])
def test_numbers_read(text, number):
    assert as_number(text) == pytest.approx(number)


@pytest.mark.parametrize("text", ["15%", "12,00", "1.2.3", "nan", "1e3", "abc", "", "$", "-", "1,20", True, None, "+-1"])
def test_not_numbers(text):
    assert as_number(text) is None


def test_numeric_equality_and_tolerance():
    assert values_equal(1200, "1,200")
    assert values_equal("$1,200.00", 1200.0)
    assert values_equal(0.1 + 0.2, 0.3)
    assert not values_equal(1200, 1201)
    assert not values_equal(1200, "1200.01")


def test_text_equality_is_case_sensitive_unless_asked():
    assert not values_equal("Total", "total")
    assert values_equal("Total", "total", case_sensitive=False)
    assert values_equal("  Grand   total ", "Grand total")


def test_dates_compare_as_moments():
    assert values_equal("2026-03-10", "2026-03-10T00:00:00")
    assert values_equal("2026-03-10 09:30", "2026-03-10 09:30:00")
    assert not values_equal("2026-03-10", "2026-03-11")
    assert as_datetime("next monday") is None


def test_empty_and_booleans():
    assert values_equal(None, "  ")
    assert not values_equal(None, 0)
    assert values_equal(True, "true")
    assert not values_equal(True, 1)


def test_cell_addresses_round_trip():
    assert parse_cell("B3") == (None, 3, 2)
    assert parse_cell("Budget!AA10") == ("Budget", 10, 27)
    assert parse_cell("'Q1 Plan'!$C$4") == ("Q1 Plan", 4, 3)
    assert column_index("z") == 26 and column_letter(28) == "AB"
    assert cell_name(7, 2) == "B7"
    for bad in ("B0", "3B", "", "B"):
        with pytest.raises(ValueError):
            parse_cell(bad)


def test_collapse_and_contains():
    assert collapse("a \n\t b  ") == "a b"
    assert text_contains("Please find\nthe   REPORT attached", "the report")
    assert not text_contains("Please find the report", "REPORT", case_sensitive=True)


def test_format_and_show():
    assert format_value(1200.0) == "1200" and format_value(0.1) == "0.1" and format_value(False) == "FALSE"
    assert show(None) == "an empty cell" and show("x") == "'x'" and show(8450) == "8450"


def test_office_path_forms():
    assert office_path("/testbed/data/a.xlsx") == "data/a.xlsx"
    assert office_path("./data//a.xlsx") == "data/a.xlsx"
    assert EvalState().timezone == "UTC"


def test_document_text_of_every_kind():
    xlsx = {"kind": "xlsx", "sheets": {"Budget": [["Item", "Amount"], ["Rent", 1200.0]]}, "sheet_order": ["Budget"]}
    assert "Budget" in document_text(xlsx) and "Rent\t1200" in document_text(xlsx)
    docx = {"kind": "docx", "paragraphs": ["Hello", ""], "tables": [[["a", "b"], ["c", 4]]]}
    assert document_text(docx).splitlines() == ["Hello", "", "a | b", "c | 4"]
    assert document_text({"kind": "pdf", "pages": ["one", "two"]}) == "one\ntwo"
    eml = {"kind": "eml", "subject": "Q3", "from": "a@x.test", "to": ["b@x.test"], "cc": [], "body": "Hi",
           "attachments": [{"filename": "r.pdf", "size": 1, "sha256": "0"}]}
    text = document_text(eml)
    assert "Subject: Q3" in text and "a@x.test" in text and "b@x.test" in text and "r.pdf" in text and text.endswith("Hi")
    ics = {"kind": "ics", "events": [{"summary": "Standup", "start": "2026-03-10 09:30:00", "end": "2026-03-10 09:45:00",
                                      "location": "Room 4", "description": "daily", "attendees": ["a@x.test"]}]}
    assert all(s in document_text(ics) for s in ("Standup", "09:30:00", "Room 4", "daily", "a@x.test"))
    assert document_text({"kind": "text", "text": "plain"}) == "plain"
    assert document_text({"kind": "image", "width": 1, "height": 1, "sha256": "0"}) == ""
