"""The word app, through the registry: files it makes and files python-docx makes directly."""

from __future__ import annotations

import docx
import pypdf
import pytest
from docx.shared import Pt


def _external_docx(path) -> None:
    """A document written by python-docx itself: heading, formatted runs, a table."""
    document = docx.Document()
    document.add_heading("Quarterly Report", level=1)
    p = document.add_paragraph("Revenue grew ")
    run = p.add_run("twelve percent")
    run.bold = True
    p.add_run(" this quarter.")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Region", "Sales"
    table.cell(1, 0).text, table.cell(1, 1).text = "North", "1200"
    document.add_paragraph("Prepared by Maya.")
    document.save(str(path))


@pytest.fixture
def report(office):
    _external_docx(office.root / "data" / "report.docx")
    return "data/report.docx"


def test_create_then_read_empty(run, office):
    result = run("word", "create_new_file", file_path="data/new.docx")
    assert result.ok, result.observation
    assert docx.Document(str(office.root / "data/new.docx")).paragraphs == []
    read = run("word", "read_file", file_path="data/new.docx")
    assert read.ok and "empty" in read.observation
    assert read.data == {"paragraphs": [], "tables": []}


def test_create_refuses_existing_file(run, report):
    result = run("word", "create_new_file", file_path=report)
    assert not result.ok and result.error["code"] == "file_exists"


def test_create_refuses_wrong_extension(run):
    result = run("word", "create_new_file", file_path="data/new.pdf")
    assert result.error["code"] == "wrong_file_type"


def test_write_appends_one_paragraph_per_line(run, office):
    assert run("word", "create_new_file", file_path="data/n.docx").ok
    assert run("word", "write_to_file", file_path="data/n.docx", contents="First\nSecond").ok
    result = run("word", "write_to_file", file_path="data/n.docx", contents="Third – ünïcode")
    assert result.data["appended"] == 1
    paragraphs = [p.text for p in docx.Document(str(office.root / "data/n.docx")).paragraphs]
    assert paragraphs == ["First", "Second", "Third – ünïcode"]


def test_write_creates_missing_file_and_folder(run, office):
    result = run("word", "write_to_file", file_path="data/sub/memo.docx", contents="Hello\n\nBye")
    assert result.ok and result.data["created"] is True
    paragraphs = [p.text for p in docx.Document(str(office.root / "data/sub/memo.docx")).paragraphs]
    assert paragraphs == ["Hello", "", "Bye"]


def test_write_drops_control_characters(run, office):
    assert run("word", "write_to_file", file_path="data/c.docx", contents="page\x0cbreak\x00").ok
    assert docx.Document(str(office.root / "data/c.docx")).paragraphs[0].text == "pagebreak"


def test_write_appends_to_external_document_keeping_table(run, office, report):
    assert run("word", "write_to_file", file_path=report, contents="Appendix").ok
    document = docx.Document(str(office.root / report))
    assert document.paragraphs[-1].text == "Appendix"
    assert document.tables[0].cell(1, 1).text == "1200"


def test_read_external_document(run, report):
    result = run("word", "read_file", file_path=report)
    assert result.ok, result.observation
    lines = result.observation.splitlines()
    assert lines[:3] == ["Quarterly Report", "Revenue grew twelve percent this quarter.", "Prepared by Maya."]
    assert lines[3:] == ["Table 1:", "Region | Sales", "North | 1200"]
    assert result.data["paragraphs"][1] == "Revenue grew twelve percent this quarter."
    assert result.data["tables"] == [[["Region", "Sales"], ["North", "1200"]]]


def test_read_shows_merged_cell_once(run, office):
    document = docx.Document()
    table = document.add_table(rows=2, cols=3)
    table.cell(0, 0).merge(table.cell(0, 2)).text = "Header"
    table.cell(1, 0).text, table.cell(1, 1).text, table.cell(1, 2).text = "a", "b", "c"
    document.save(str(office.root / "data/merged.docx"))
    result = run("word", "read_file", file_path="data/merged.docx")
    assert result.data["tables"] == [[["Header"], ["a", "b", "c"]]]


def test_replace_across_runs_keeps_formatting(run, office, report):
    result = run("word", "replace_text", file_path=report, old_text="grew twelve", new_text="rose eleven")
    assert result.ok and result.data["replacements"] == 1
    paragraph = docx.Document(str(office.root / report)).paragraphs[1]
    assert paragraph.text == "Revenue rose eleven percent this quarter."
    assert [r.text for r in paragraph.runs] == ["Revenue rose eleven", " percent", " this quarter."]
    assert paragraph.runs[1].bold is True


def test_replace_counts_paragraphs_and_table_cells(run, office):
    document = docx.Document()
    document.add_paragraph("Acme and Acme", style="Heading 2")
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "Acme Ltd"
    inner = table.cell(0, 1).add_table(rows=1, cols=1)
    inner.cell(0, 0).text = "nested Acme"
    document.save(str(office.root / "data/acme.docx"))
    result = run("word", "replace_text", file_path="data/acme.docx", old_text="Acme", new_text="Globex")
    assert result.data["replacements"] == 4
    assert "4" in result.observation
    saved = docx.Document(str(office.root / "data/acme.docx"))
    assert saved.paragraphs[0].text == "Globex and Globex"
    assert saved.paragraphs[0].style.name == "Heading 2"
    assert saved.tables[0].cell(0, 0).text == "Globex Ltd"
    assert saved.tables[0].cell(0, 1).tables[0].cell(0, 0).text == "nested Globex"


def test_replace_with_empty_text_deletes(run, office):
    assert run("word", "write_to_file", file_path="data/d.docx", contents="Draft: final text").ok
    assert run("word", "replace_text", file_path="data/d.docx", old_text="Draft: ", new_text="").ok
    assert docx.Document(str(office.root / "data/d.docx")).paragraphs[0].text == "final text"


def test_replace_not_found_leaves_file_alone(run, office, report):
    before = (office.root / report).read_bytes()
    result = run("word", "replace_text", file_path=report, old_text="Nonexistent", new_text="x")
    assert result.error["code"] == "not_found"
    assert (office.root / report).read_bytes() == before


def test_replace_rejects_empty_old_text(run, report):
    assert run("word", "replace_text", file_path=report, old_text="", new_text="x").error["code"] == "bad_arguments"


def test_convert_to_pdf_keeps_paragraphs_and_table(run, office, report):
    result = run("word", "convert_to_pdf", word_file_path=report, pdf_file_path="data/out/report.pdf")
    assert result.ok, result.observation
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(str(office.root / "data/out/report.pdf")).pages)
    for words in ("Quarterly Report", "Revenue grew twelve percent this quarter.", "Prepared by Maya.",
                  "Region", "Sales", "North", "1200"):
        assert words in text


def test_convert_to_pdf_rejects_non_pdf_target(run, report):
    result = run("word", "convert_to_pdf", word_file_path=report, pdf_file_path="data/report.png")
    assert result.error["code"] == "wrong_file_type"


@pytest.mark.parametrize("action,args", [
    ("read_file", {"file_path": "data/missing.docx"}),
    ("replace_text", {"file_path": "data/missing.docx", "old_text": "a", "new_text": "b"}),
    ("convert_to_pdf", {"word_file_path": "data/missing.docx", "pdf_file_path": "data/m.pdf"}),
])
def test_missing_file(run, action, args):
    assert run("word", action, **args).error["code"] == "file_not_found"


def test_wrong_type_and_corrupt(run, office):
    (office.root / "data/notes.txt").write_text("hello")
    (office.root / "data/broken.docx").write_bytes(b"\x00garbage bytes, not a zip")
    assert run("word", "read_file", file_path="data/notes.txt").error["code"] == "wrong_file_type"
    for action, args in [("read_file", {"file_path": "data/broken.docx"}),
                         ("write_to_file", {"file_path": "data/broken.docx", "contents": "x"}),
                         ("convert_to_pdf", {"word_file_path": "data/broken.docx", "pdf_file_path": "data/b.pdf"})]:
        assert run("word", action, **args).error["code"] == "corrupt_file", action
    assert not (office.root / "data/b.pdf").exists()


def test_zip_that_is_not_a_docx_is_corrupt(run, office):
    import zipfile

    with zipfile.ZipFile(office.root / "data/fake.docx", "w") as archive:
        archive.writestr("hello.txt", "not a document")
    assert run("word", "read_file", file_path="data/fake.docx").error["code"] == "corrupt_file"


def test_bad_arguments_are_reported(run):
    result = run("word", "write_to_file", file_path="data/x.docx")
    assert result.error["code"] == "bad_arguments" and "contents" in result.error["message"]


def test_path_outside_office_is_refused(run):
    assert run("word", "read_file", file_path="../x.docx").error["code"] == "path_outside_office"


def test_font_size_kept_on_replace(run, office):
    document = docx.Document()
    run_ = document.add_paragraph().add_run("Total: 10")
    run_.font.size = Pt(20)
    document.save(str(office.root / "data/size.docx"))
    assert run("word", "replace_text", file_path="data/size.docx", old_text="10", new_text="12").ok
    saved_run = docx.Document(str(office.root / "data/size.docx")).paragraphs[0].runs[0]
    assert saved_run.text == "Total: 12" and saved_run.font.size == Pt(20)


def test_replace_reaches_every_row_of_a_table(run, office):
    """Every cell of a many-row table is searched, not only the first ones seen."""
    document = docx.Document()
    table = document.add_table(rows=6, cols=3)
    for r in range(6):
        for c in range(3):
            table.cell(r, c).text = f"r{r}c{c}"
    table.cell(5, 1).text = "Oskar Lund"
    a, b = table.cell(2, 0), table.cell(2, 1)
    a.merge(b).text = "merged Oskar Lund"
    document.save(str(office.root / "data/rows.docx"))
    result = run("word", "replace_text", file_path="data/rows.docx", old_text="Oskar Lund", new_text="Bruno Costa")
    assert result.ok, result.observation
    assert result.data["replacements"] == 2
    saved = docx.Document(str(office.root / "data/rows.docx")).tables[0]
    assert saved.cell(5, 1).text == "Bruno Costa"
    assert saved.cell(2, 0).text == "merged Bruno Costa"
