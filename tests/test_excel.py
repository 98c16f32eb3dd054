"""The excel app, through the registry: workbooks it makes and multi-sheet workbooks openpyxl makes."""

from __future__ import annotations

from datetime import datetime

import openpyxl
import pypdf
import pytest


@pytest.fixture
def budget(office):
    """A workbook written by openpyxl directly: two sheets, a gap, a date and a formula."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Budget"
    ws.append(["Item", "Amount"])
    ws.append(["Rent", 1200])
    ws.append(["Coffee", 35.5])
    ws["D5"] = "note"
    q2 = wb.create_sheet("Q2 Plan")
    q2.append(["Month", "Due"])
    q2.append(["April", datetime(2026, 4, 1)])
    q2["C2"] = "=B2+1"
    wb.create_sheet("Empty")
    wb.active = 1  # the first sheet is still the default, whatever Excel last showed
    wb.save(str(office.root / "data/budget.xlsx"))
    return "data/budget.xlsx"


def _load(office, path="data/budget.xlsx"):
    return openpyxl.load_workbook(str(office.root / path))


def test_create_new_file(run, office):
    result = run("excel", "create_new_file", file_path="data/new.xlsx")
    assert result.ok, result.observation
    assert _load(office, "data/new.xlsx").sheetnames == ["Sheet1"]
    read = run("excel", "read_file", file_path="data/new.xlsx")
    assert read.ok and "[The sheet is empty]" in read.observation and read.data["rows"] == []


def test_create_refuses_existing(run, budget):
    assert run("excel", "create_new_file", file_path=budget).error["code"] == "file_exists"


def test_read_first_sheet_of_external_workbook(run, budget):
    result = run("excel", "read_file", file_path=budget)
    assert result.ok, result.observation
    lines = result.observation.splitlines()
    assert "Budget" in lines[0] and "Q2 Plan" in lines[0] and "Empty" in lines[0]
    assert lines[1:5] == ["(1, 1): Item", "(1, 2): Amount", "(1, 3): [Empty Cell]", "(1, 4): [Empty Cell]"]
    assert "(2, 2): 1200" in lines and "(3, 2): 35.5" in lines and "(5, 4): note" in lines
    assert len(lines) == 1 + 5 * 4  # used range A1:D5
    assert result.data["rows"][1] == ["Rent", 1200, None, None]
    assert result.data["sheet"] == "Budget"


def test_read_a_long_sheet_in_parts(run, budget):
    part = run("excel", "read_file", file_path=budget, start_row=2, end_row=3)
    assert part.ok, part.observation
    lines = part.observation.splitlines()
    assert "showing rows 2 to 3" in lines[0] and "(5 rows x 4 columns)" in lines[0]
    assert lines[1:] == ["(2, 1): Rent", "(2, 2): 1200", "(2, 3): [Empty Cell]", "(2, 4): [Empty Cell]",
                         "(3, 1): Coffee", "(3, 2): 35.5", "(3, 3): [Empty Cell]", "(3, 4): [Empty Cell]"]
    tail = run("excel", "read_file", file_path=budget, start_row=5)
    assert tail.ok and tail.observation.splitlines()[1:] == ["(5, 1): [Empty Cell]", "(5, 2): [Empty Cell]",
                                                             "(5, 3): [Empty Cell]", "(5, 4): note"]
    assert "no rows from 9 on" in run("excel", "read_file", file_path=budget, start_row=9).observation
    bad = run("excel", "read_file", file_path=budget, start_row=3, end_row=2)
    assert not bad.ok and "before start_row" in bad.observation


def test_read_named_sheet_shows_dates_and_formulas(run, budget):
    result = run("excel", "read_file", file_path=budget, sheet="Q2 Plan")
    assert "(2, 2): 2026-04-01" in result.observation
    assert "(2, 3): =B2+1" in result.observation
    assert result.data["rows"][1] == ["April", "2026-04-01", "=B2+1"]


def test_sheet_name_matches_case_insensitively(run, budget):
    assert run("excel", "read_file", file_path=budget, sheet="q2 plan").data["sheet"] == "Q2 Plan"


def test_unknown_sheet_lists_sheets(run, budget):
    result = run("excel", "read_file", file_path=budget, sheet="Q3")
    assert result.error["code"] == "unknown_sheet"
    assert "Budget" in result.error["message"] and "Q2 Plan" in result.error["message"]


def test_set_cell_types(run, office, budget):
    cases = [(1200, 1200), ("1200", 1200), ("-3.5", -3.5), ("0.25", 0.25), (7.5, 7.5),
             ("007", "007"), ("1,200", "1,200"), ("+1 555 0100", "+1 555 0100"), ("1e5", "1e5"),
             ("4111111111111111", "4111111111111111"), ("Paid", "Paid"), (" 42 ", 42)]
    for row, (given, expected) in enumerate(cases, start=10):
        assert run("excel", "set_cell", file_path=budget, row_idx=row, column_idx=1, text=given).ok
    ws = _load(office)["Budget"]
    for row, (given, expected) in enumerate(cases, start=10):
        value = ws.cell(row=row, column=1).value
        assert value == expected and type(value) is type(expected), given


def test_set_cell_on_named_sheet_and_formula(run, office, budget):
    assert run("excel", "set_cell", file_path=budget, row_idx=3, column_idx=2, text=99, sheet="Q2 Plan").ok
    assert run("excel", "set_cell", file_path=budget, row_idx=4, column_idx=2, text="=SUM(B2:B3)").ok
    wb = _load(office)
    assert wb["Q2 Plan"]["B3"].value == 99 and wb["Budget"]["B3"].value == 35.5
    assert wb["Budget"]["B4"].value == "=SUM(B2:B3)"
    assert wb.sheetnames == ["Budget", "Q2 Plan", "Empty"]


def test_set_cell_none_empties(run, office, budget):
    assert run("excel", "set_cell", file_path=budget, row_idx=2, column_idx=1, text=None).ok
    assert _load(office)["Budget"]["A2"].value is None


def test_set_cell_read_back_exact(run, budget):
    run("excel", "set_cell", file_path=budget, row_idx=6, column_idx=1, text="Total")
    run("excel", "set_cell", file_path=budget, row_idx=6, column_idx=2, text="1235.5")
    assert run("excel", "read_file", file_path=budget).data["rows"][5][:2] == ["Total", 1235.5]


@pytest.mark.parametrize("row,col", [(0, 1), (1, 0), (-1, 2), (1_048_577, 1), (1, 16_385)])
def test_set_cell_out_of_range(run, budget, row, col):
    result = run("excel", "set_cell", file_path=budget, row_idx=row, column_idx=col, text="x")
    assert result.error["code"] == "out_of_range"


def test_set_cell_bad_argument_type(run, budget):
    result = run("excel", "set_cell", file_path=budget, row_idx="two", column_idx=1, text="x")
    assert result.error["code"] == "bad_arguments" and "row_idx" in result.error["message"]


def test_delete_cell(run, office, budget):
    result = run("excel", "delete_cell", file_path=budget, row_idx=2, column_idx=2)
    assert result.ok and result.data["old_value"] == 1200
    assert _load(office)["Budget"]["B2"].value is None
    again = run("excel", "delete_cell", file_path=budget, row_idx=2, column_idx=2)
    assert again.ok and "already empty" in again.observation


def test_delete_cell_out_of_range_and_unknown_sheet(run, budget):
    assert run("excel", "delete_cell", file_path=budget, row_idx=0, column_idx=1).error["code"] == "out_of_range"
    result = run("excel", "delete_cell", file_path=budget, row_idx=1, column_idx=1, sheet="Nope")
    assert result.error["code"] == "unknown_sheet"


def test_list_sheets(run, budget):
    result = run("excel", "list_sheets", file_path=budget)
    assert [d["sheet"] for d in result.data] == ["Budget", "Q2 Plan", "Empty"]
    assert result.data[0] == {"sheet": "Budget", "rows": 5, "columns": 4}
    assert result.data[2]["rows"] == 0
    assert "Q2 Plan" in result.observation


def test_insert_row_moves_rows_down(run, office, budget):
    result = run("excel", "insert_row", file_path=budget, row_idx=2, values=["Water", "80", "007"])
    assert result.ok, result.observation
    ws = _load(office)["Budget"]
    assert [c.value for c in ws[2]][:3] == ["Water", 80, "007"]
    assert ws["A3"].value == "Rent" and ws["B3"].value == 1200


def test_insert_row_append_and_empty(run, office, budget):
    assert run("excel", "insert_row", file_path=budget, row_idx=3, sheet="Q2 Plan", values=["May", 5]).ok
    assert run("excel", "insert_row", file_path=budget, row_idx=1).ok
    wb = _load(office)
    assert [c.value for c in wb["Q2 Plan"][3]][:2] == ["May", 5]
    assert wb["Budget"]["A1"].value is None and wb["Budget"]["A2"].value == "Item"


def test_insert_row_errors(run, budget):
    assert run("excel", "insert_row", file_path=budget, row_idx=0).error["code"] == "out_of_range"
    assert run("excel", "insert_row", file_path=budget, row_idx=1, sheet="X").error["code"] == "unknown_sheet"
    assert run("excel", "insert_row", file_path=budget, row_idx=1, values="abc").error["code"] == "bad_arguments"


def test_delete_row(run, office, budget):
    result = run("excel", "delete_row", file_path=budget, row_idx=2)
    assert result.ok and result.data["values"][:2] == ["Rent", 1200]
    ws = _load(office)["Budget"]
    assert ws["A2"].value == "Coffee" and ws["A1"].value == "Item"


def test_delete_row_past_used_range(run, budget):
    assert run("excel", "delete_row", file_path=budget, row_idx=6).error["code"] == "out_of_range"
    assert run("excel", "delete_row", file_path=budget, row_idx=1, sheet="Empty").error["code"] == "out_of_range"


def test_add_sheet(run, office, budget):
    result = run("excel", "add_sheet", file_path=budget, sheet="Summary")
    assert result.ok and result.data["sheets"][-1] == "Summary"
    assert _load(office).sheetnames == ["Budget", "Q2 Plan", "Empty", "Summary"]
    assert run("excel", "set_cell", file_path=budget, row_idx=1, column_idx=1, text="x", sheet="Summary").ok
    assert _load(office)["Summary"]["A1"].value == "x"


@pytest.mark.parametrize("name", ["budget", "a/b", "", "x" * 32, "what?"])
def test_add_sheet_rejects_bad_or_taken_names(run, office, budget, name):
    before = (office.root / budget).read_bytes()
    assert run("excel", "add_sheet", file_path=budget, sheet=name).error["code"] == "bad_arguments"
    assert (office.root / budget).read_bytes() == before


def test_convert_to_pdf_keeps_every_sheet(run, office, budget):
    result = run("excel", "convert_to_pdf", excel_file_path=budget, pdf_file_path="data/budget.pdf")
    assert result.ok, result.observation
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(str(office.root / "data/budget.pdf")).pages)
    for words in ("Sheet: Budget", "Sheet: Q2 Plan", "Item | Amount", "Rent | 1200", "Coffee | 35.5",
                  "note", "April", "2026-04-01"):
        assert words in text


def test_convert_unicode_text_survives(run, office):
    assert run("excel", "create_new_file", file_path="data/u.xlsx").ok
    assert run("excel", "set_cell", file_path="data/u.xlsx", row_idx=1, column_idx=1, text="Café – €5 “ok”").ok
    assert run("excel", "convert_to_pdf", excel_file_path="data/u.xlsx", pdf_file_path="data/u.pdf").ok
    assert "Café – €5 “ok”" in pypdf.PdfReader(str(office.root / "data/u.pdf")).pages[0].extract_text()


@pytest.mark.parametrize("action,args", [
    ("read_file", {}), ("list_sheets", {}), ("add_sheet", {"sheet": "S"}), ("delete_row", {"row_idx": 1}),
    ("set_cell", {"row_idx": 1, "column_idx": 1, "text": "x"}),
])
def test_missing_and_corrupt_files(run, office, action, args):
    assert run("excel", action, file_path="data/missing.xlsx", **args).error["code"] == "file_not_found"
    (office.root / "data/garbage.xlsx").write_bytes(b"this is not a workbook at all")
    assert run("excel", action, file_path="data/garbage.xlsx", **args).error["code"] == "corrupt_file"


def test_wrong_file_type(run, office):
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.output(str(office.root / "data/report.pdf"))
    assert run("excel", "read_file", file_path="data/report.pdf").error["code"] == "wrong_file_type"
    assert run("excel", "read_file", file_path="data").error["code"] == "wrong_file_type"


def test_docx_renamed_to_xlsx_is_corrupt(run, office):
    import docx

    docx.Document().save(str(office.root / "data/renamed.xlsx"))
    assert run("excel", "read_file", file_path="data/renamed.xlsx").error["code"] == "corrupt_file"


def test_convert_errors(run, office, budget):
    assert run("excel", "convert_to_pdf", excel_file_path="data/none.xlsx",
               pdf_file_path="data/x.pdf").error["code"] == "file_not_found"
    assert run("excel", "convert_to_pdf", excel_file_path=budget,
               pdf_file_path="data/x.docx").error["code"] == "wrong_file_type"


def test_set_cell_rejects_unstorable_values(run, office, budget):
    before = (office.root / budget).read_bytes()
    assert run("excel", "set_cell", file_path=budget, row_idx=1, column_idx=1,
               text=float("nan")).error["code"] == "bad_arguments"
    assert run("excel", "set_cell", file_path=budget, row_idx=1, column_idx=1,
               text="x" * 32_768).error["code"] == "bad_arguments"
    assert (office.root / budget).read_bytes() == before


def test_multiline_cell_stays_on_one_observation_line(run, office, budget):
    assert run("excel", "set_cell", file_path=budget, row_idx=1, column_idx=1, text="two\nlines").ok
    result = run("excel", "read_file", file_path=budget)
    assert "(1, 1): two\\nlines" in result.observation.splitlines()
    assert result.data["rows"][0][0] == "two\nlines"
    assert _load(office)["Budget"]["A1"].value == "two\nlines"


def test_saved_file_is_readable_by_others(run, office):
    assert run("excel", "create_new_file", file_path="data/fresh.xlsx").ok
    assert (office.root / "data/fresh.xlsx").stat().st_mode & 0o044 == 0o044
    assert not [p.name for p in (office.root / "data").iterdir() if p.name.startswith(".tmp-")]


def test_formula_shows_its_value_computed_or_cached(run, office):
    import zipfile

    assert run("excel", "create_new_file", file_path="data/f.xlsx").ok
    assert run("excel", "set_cell", file_path="data/f.xlsx", row_idx=1, column_idx=1, text=2).ok
    assert run("excel", "set_cell", file_path="data/f.xlsx", row_idx=1, column_idx=2, text="=A1*3").ok
    assert run("excel", "set_cell", file_path="data/f.xlsx", row_idx=1, column_idx=3, text="=NOPE(A1)").ok
    plain = run("excel", "read_file", file_path="data/f.xlsx").observation.splitlines()
    assert "(1, 2): =A1*3 (value: 6)" in plain  # no cached value in the file: the engine computes it
    assert any(line.startswith("(1, 3): =NOPE(A1) (=NOPE(A1) could not be evaluated") for line in plain), plain
    # Give the formula a cached value, as Excel does when it saves.
    path = office.root / "data/f.xlsx"
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"].decode()
    parts["xl/worksheets/sheet1.xml"] = sheet.replace("<f>A1*3</f><v></v>", "<f>A1*3</f><v>6</v>").encode()
    assert parts["xl/worksheets/sheet1.xml"] != sheet.encode()
    with zipfile.ZipFile(path, "w") as archive:
        for name, content in parts.items():
            archive.writestr(name, content)
    parts["xl/worksheets/sheet1.xml"] = parts["xl/worksheets/sheet1.xml"].replace(b"<f>A1*3</f><v>6</v>", b"<f>A1*3</f><v>7</v>")
    with zipfile.ZipFile(path, "w") as archive:
        for name, content in parts.items():
            archive.writestr(name, content)
    shown = run("excel", "read_file", file_path="data/f.xlsx").observation
    assert "(1, 2): =A1*3 (value: 7)" in shown.splitlines()  # the file's cached result wins


def test_write_rows_writes_a_table_in_one_step(run, office, budget):
    result = run("excel", "write_rows", file_path=budget, row_idx=2, rows=[["Water", "80"], ["Gas", 45.5, None]])
    assert result.ok, result.observation
    import openpyxl

    ws = openpyxl.load_workbook(office.root / budget).worksheets[0]
    assert [ws.cell(2, 1).value, ws.cell(2, 2).value, ws.cell(3, 1).value, ws.cell(3, 2).value] == ["Water", 80, "Gas", 45.5]
    assert run("excel", "write_rows", file_path=budget, row_idx=0, rows=[["x"]]).error["code"] == "out_of_range"
    assert run("excel", "write_rows", file_path="data/missing.xlsx", rows=[["x"]]).error["code"] == "file_not_found"


def test_a_window_of_a_long_sheet_returns_only_its_rows(run, office):
    import openpyxl

    book = openpyxl.Workbook()
    for n in range(1, 501):
        book.active.append([f"row {n}", n])
    book.save(office.root / "data" / "long.xlsx")
    window = run("excel", "read_file", file_path="data/long.xlsx", start_row=101, end_row=150)
    assert window.ok and window.data["rows"][0] == ["row 101", 101] and len(window.data["rows"]) == 50
    assert window.data["first_row"] == 101 and window.data["total_rows"] == 500
    assert "(101, 1): row 101" in window.observation and "(151, 1)" not in window.observation
    whole = run("excel", "read_file", file_path="data/long.xlsx")
    assert len(whole.data["rows"]) == 500 and whole.data["first_row"] == 1


def test_a_long_sheet_read_without_rows_shows_a_screenful_and_how_to_read_on(run, office):
    import openpyxl

    book = openpyxl.Workbook()
    for n in range(1, 2115):
        book.active.append([f"INV-{n:05d}", "Kestrel Paper Co", n * 1.5, "2026-03-01"])
    book.save(office.root / "data" / "ledger.xlsx")
    first = run("excel", "read_file", file_path="data/ledger.xlsx")
    shown = len(first.data["rows"])
    assert first.ok and 50 < shown < 2114 and len(first.observation.encode()) <= 26_000
    assert f"showing rows 1 to {shown}" in first.observation and f"start_row={shown + 1}" in first.observation
    more = run("excel", "read_file", file_path="data/ledger.xlsx", start_row=shown + 1, end_row=shown + 10)
    assert more.data["rows"][0][0] == f"INV-{shown + 1:05d}" and len(more.data["rows"]) == 10
    every = run("excel", "read_file", file_path="data/ledger.xlsx", end_row=2114)
    assert len(every.data["rows"]) == 2114  # the whole sheet stays one argument away
