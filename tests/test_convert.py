"""The conversion functions on their own: text must survive every conversion, outputs must open."""

from __future__ import annotations

import shutil
import subprocess
from datetime import datetime

import docx
import openpyxl
import pypdf
import pytest
from fpdf import FPDF
from PIL import Image

from officesim.testbed import convert

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _pdf_text(path) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(str(path)).pages)


def _docx_with_table(path) -> None:
    document = docx.Document()
    document.add_heading("Project Phoenix", level=0)
    document.add_paragraph("Kick-off on Monday with the whole team.")
    table = document.add_table(rows=2, cols=3)
    for r, row in enumerate([["Owner", "Task", "Due"], ["Maya Lin", "Budget review", "2026-03-12"]]):
        for c, text in enumerate(row):
            table.cell(r, c).text = text
    document.add_paragraph("")
    document.add_paragraph("Zürich office — café budget €300")
    document.save(str(path))


def _fpdf_pages(path, pages: list[str]) -> None:
    pdf = FPDF()
    pdf.add_font("DejaVu", "", FONT)
    pdf.set_font("DejaVu", size=14)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 10, text)
    pdf.output(str(path))


def test_docx_to_pdf_keeps_paragraphs_and_table_cells(tmp_path):
    _docx_with_table(tmp_path / "a.docx")
    convert.docx_to_pdf(tmp_path / "a.docx", tmp_path / "a.pdf")
    text = _pdf_text(tmp_path / "a.pdf")
    for words in ("Project Phoenix", "Kick-off on Monday with the whole team.", "Owner", "Budget review",
                  "Maya Lin", "2026-03-12", "Zürich office — café budget €300"):
        assert words in text
    assert text.index("Kick-off") < text.index("Owner") < text.index("Zürich")  # document order


def test_docx_to_pdf_long_document_spans_pages(tmp_path):
    document = docx.Document()
    for i in range(120):
        document.add_paragraph(f"Line number {i} of a long memo")
    document.save(str(tmp_path / "long.docx"))
    convert.docx_to_pdf(tmp_path / "long.docx", tmp_path / "long.pdf")
    reader = pypdf.PdfReader(str(tmp_path / "long.pdf"))
    assert len(reader.pages) > 1
    assert "Line number 119 of a long memo" in _pdf_text(tmp_path / "long.pdf")


def test_core_font_fallback_replaces_unencodable_characters(tmp_path, monkeypatch):
    monkeypatch.setattr(convert, "find_font", lambda name=convert.FONT_FILE: None)
    document = docx.Document()
    document.add_paragraph("Price “€5” – café 日本")
    document.save(str(tmp_path / "u.docx"))
    convert.docx_to_pdf(tmp_path / "u.docx", tmp_path / "u.pdf")
    text = _pdf_text(tmp_path / "u.pdf")
    assert 'Price "EUR5" - café ??' in text


def test_xlsx_to_pdf_every_sheet_with_its_name(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Staff"
    ws.append(["Name", "Start", "Active"])
    ws.append(["Ana", datetime(2025, 1, 6), True])
    wb.create_sheet("Costs").append(["Laptop", 1499.99])
    wb.create_sheet("Blank")
    wb.save(str(tmp_path / "b.xlsx"))
    convert.xlsx_to_pdf(tmp_path / "b.xlsx", tmp_path / "b.pdf")
    text = _pdf_text(tmp_path / "b.pdf")
    for words in ("Sheet: Staff", "Name | Start | Active", "Ana | 2025-01-06 | TRUE",
                  "Sheet: Costs", "Laptop | 1499.99", "Sheet: Blank", "(empty sheet)"):
        assert words in text


def test_used_rows_trims_to_last_value(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["B2"] = "x"
    ws["A4"] = ""
    ws.cell(row=9, column=9).number_format = "0.00"  # formatted but empty: not part of the used range
    assert convert.used_rows(ws) == [[None, None], [None, "x"]]


def test_pdf_to_docx_lines_and_page_breaks(tmp_path):
    _fpdf_pages(tmp_path / "p.pdf", ["Dear team,\nthe offsite moves to May.", "Second page"])
    convert.pdf_to_docx(tmp_path / "p.pdf", tmp_path / "p.docx")
    paragraphs = docx.Document(str(tmp_path / "p.docx")).paragraphs
    assert [p.text for p in paragraphs] == ["Dear team,", "the offsite moves to May.", "Second page"]
    assert paragraphs[2].paragraph_format.page_break_before is True


def test_docx_pdf_docx_round_trip(tmp_path):
    _docx_with_table(tmp_path / "a.docx")
    convert.docx_to_pdf(tmp_path / "a.docx", tmp_path / "a.pdf")
    convert.pdf_to_docx(tmp_path / "a.pdf", tmp_path / "b.docx")
    paragraphs = [p.text for p in docx.Document(str(tmp_path / "b.docx")).paragraphs]
    assert "Kick-off on Monday with the whole team." in paragraphs
    assert "Maya Lin | Budget review | 2026-03-12" in paragraphs


def test_pdf_to_image_single_and_stacked(tmp_path):
    _fpdf_pages(tmp_path / "p.pdf", ["one", "two", "three"])
    w1, h1, n1 = convert.pdf_to_image(tmp_path / "p.pdf", tmp_path / "one.png", page=2)
    w3, h3, n3 = convert.pdf_to_image(tmp_path / "p.pdf", tmp_path / "all.png")
    assert (n1, n3) == (1, 3)
    with Image.open(tmp_path / "one.png") as one, Image.open(tmp_path / "all.png") as stacked:
        assert one.size == (w1, h1) and stacked.size == (w3, h3)
        assert 100 <= one.width / (210 / 25.4) <= 150  # A4 width rendered at 100-150 dpi
        assert stacked.height == 3 * one.height + 2 * convert.PAGE_GAP


def test_pdf_to_image_shrinks_very_long_documents(tmp_path, monkeypatch):
    _fpdf_pages(tmp_path / "p.pdf", ["a", "b", "c", "d"])
    monkeypatch.setattr(convert, "MAX_IMAGE_SIDE", 2000)
    _w, height, pages = convert.pdf_to_image(tmp_path / "p.pdf", tmp_path / "all.jpg")
    assert pages == 4 and height <= 2000 + 3 * convert.PAGE_GAP


def test_image_to_pdf_and_back(tmp_path):
    Image.new("L", (300, 120), 0).save(tmp_path / "i.bmp")
    assert convert.image_to_pdf(tmp_path / "i.bmp", tmp_path / "i.pdf") == 1
    assert len(pypdf.PdfReader(str(tmp_path / "i.pdf")).pages) == 1
    width, height, _ = convert.pdf_to_image(tmp_path / "i.pdf", tmp_path / "i.png", dpi=72)
    assert abs(width - 300) <= 2 and abs(height - 120) <= 2


@pytest.mark.parametrize("func,suffix", [
    (convert.docx_to_pdf, ".docx"), (convert.xlsx_to_pdf, ".xlsx"), (convert.pdf_to_docx, ".pdf"),
    (convert.pdf_to_image, ".pdf"), (convert.image_to_pdf, ".png"),
])
def test_garbage_input_raises_conversion_error_and_writes_nothing(tmp_path, func, suffix):
    src = tmp_path / f"bad{suffix}"
    src.write_bytes(b"garbage" * 10)
    dst = tmp_path / "out.bin"
    with pytest.raises(convert.ConversionError):
        func(src, dst)
    assert list(tmp_path.iterdir()) == [src]


def test_failed_write_keeps_the_old_file(tmp_path):
    target = tmp_path / "keep.pdf"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError):
        with convert.atomic_output(target) as tmp:
            tmp.write_bytes(b"half")
            raise RuntimeError("boom")
    assert target.read_bytes() == b"old" and list(tmp_path.iterdir()) == [target]


def test_clean_xml_text_and_display_value():
    assert convert.clean_xml_text("a\x00b\x0cc\td\ne") == "abc\td\ne"
    assert convert.display_value(datetime(2026, 3, 10)) == "2026-03-10"
    assert convert.display_value(datetime(2026, 3, 10, 9, 30)) == "2026-03-10 09:30:00"
    assert convert.display_value(False) == "FALSE" and convert.display_value(None) == ""


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed")
def test_stacked_image_is_readable_by_ocr(tmp_path):
    _fpdf_pages(tmp_path / "p.pdf", ["Quarterly meeting agenda", "Budget approved unanimously"])
    convert.pdf_to_image(tmp_path / "p.pdf", tmp_path / "all.png")
    text = subprocess.run(["tesseract", str(tmp_path / "all.png"), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "Quarterly meeting agenda" in text and "Budget approved unanimously" in text


def test_pdf_docx_pdf_round_trip_keeps_pages(tmp_path):
    """Page breaks from pdf->docx survive docx->pdf: a two-page PDF stays two pages."""
    _fpdf_pages(tmp_path / "a.pdf", ["First page text", "Second page text"])
    convert.pdf_to_docx(tmp_path / "a.pdf", tmp_path / "a.docx")
    convert.docx_to_pdf(tmp_path / "a.docx", tmp_path / "b.pdf")
    pages = [p.extract_text() for p in pypdf.PdfReader(tmp_path / "b.pdf").pages]
    assert len(pages) == 2
    assert "First page" in pages[0] and "Second page" in pages[1]


def _fonts(path) -> set[str]:
    fonts = set()
    for page in pypdf.PdfReader(path).pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            fonts.add(str(font.get_object()["/BaseFont"]))
    return fonts


def test_docx_to_pdf_uses_the_core_font_for_latin1_and_dejavu_otherwise(tmp_path):
    """Latin-1 text needs no embedded font (cheap); other text keeps every character via DejaVuSans."""
    plain, wide = tmp_path / "plain.docx", tmp_path / "wide.docx"
    for path, text in ((plain, "Café bill: 120 EUR, paid by Zoë"), (wide, "Łódź office paid €120 — Zoë")):
        doc = docx.Document()
        doc.add_paragraph(text)
        doc.save(path)
        convert.docx_to_pdf(path, path.with_suffix(".pdf"))
    assert _fonts(plain.with_suffix(".pdf")) == {"/Helvetica"}
    assert "Café bill" in _pdf_text(plain.with_suffix(".pdf"))
    if convert.find_font() is None:
        pytest.skip("DejaVuSans is not installed")
    assert any("DejaVu" in f for f in _fonts(wide.with_suffix(".pdf")))
    assert "Łódź office paid €120" in _pdf_text(wide.with_suffix(".pdf"))
