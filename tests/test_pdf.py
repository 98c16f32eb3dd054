"""The pdf app, through the registry: PDFs written by fpdf2 directly and PDFs the apps make."""

from __future__ import annotations

import docx
import pypdf
import pytest
from fpdf import FPDF
from PIL import Image, ImageDraw

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _write_pdf(path, pages: list[list[str]]) -> None:
    """A PDF made by fpdf2 itself, one list of lines per page."""
    pdf = FPDF()
    pdf.add_font("DejaVu", "", FONT)
    for lines in pages:
        pdf.add_page()
        pdf.set_font("DejaVu", size=12)
        for line in lines:
            pdf.cell(0, 8, line, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))


@pytest.fixture
def report(office):
    _write_pdf(office.root / "data/report.pdf",
               [["Invoice 2026-031", "Total due: 1,250.00 EUR"], ["Page two notes", "Straße – naïve"]])
    return "data/report.pdf"


@pytest.fixture
def scan(office):
    image = Image.new("RGBA", (400, 200), (255, 255, 255, 0))
    ImageDraw.Draw(image).rectangle((20, 20, 380, 180), fill=(10, 10, 10, 255))
    image.save(office.root / "data/scan.png")
    return "data/scan.png"


def test_read_external_pdf(run, report):
    result = run("pdf", "read_file", pdf_file_path=report)
    assert result.ok, result.observation
    assert result.observation.startswith("Page 1:\nInvoice 2026-031")
    assert "\n\nPage 2:\nPage two notes" in result.observation
    assert len(result.data) == 2
    assert "Total due: 1,250.00 EUR" in result.data[0] and "Straße – naïve" in result.data[1]


def test_convert_to_word(run, office, report):
    result = run("pdf", "convert_to_word", pdf_file_path=report, word_file_path="data/report.docx")
    assert result.ok, result.observation
    document = docx.Document(str(office.root / "data/report.docx"))
    texts = [p.text for p in document.paragraphs]
    assert texts == ["Invoice 2026-031", "Total due: 1,250.00 EUR", "Page two notes", "Straße – naïve"]
    assert document.paragraphs[2].paragraph_format.page_break_before is True
    assert not document.paragraphs[1].paragraph_format.page_break_before
    read = run("word", "read_file", file_path="data/report.docx")
    assert read.ok and "Total due" in read.observation


def test_convert_to_image_all_pages_stacked(run, office, report):
    one = run("pdf", "convert_to_image", pdf_file_path=report, image_file_path="data/p1.png", page=1)
    both = run("pdf", "convert_to_image", pdf_file_path=report, image_file_path="data/all.png")
    assert one.ok and both.ok, (one.observation, both.observation)
    with Image.open(office.root / "data/p1.png") as page, Image.open(office.root / "data/all.png") as stacked:
        assert 800 <= page.width <= 1400 and page.height > page.width  # A4 portrait at ~100-150 dpi
        assert stacked.width == page.width
        assert stacked.height > 2 * page.height - 5
    assert both.data["pages"] == 2 and one.data["pages"] == 1


def test_convert_to_image_jpeg(run, office, report):
    result = run("pdf", "convert_to_image", pdf_file_path=report, image_file_path="data/p2.jpg", page=2)
    assert result.ok
    with Image.open(office.root / "data/p2.jpg") as image:
        assert image.format == "JPEG"
        # the page has dark text on white: some pixels must be dark
        assert image.convert("L").getextrema()[0] < 100


@pytest.mark.parametrize("page", [0, 3, -1])
def test_convert_to_image_page_out_of_range(run, office, report, page):
    result = run("pdf", "convert_to_image", pdf_file_path=report, image_file_path="data/x.png", page=page)
    assert result.error["code"] == "out_of_range" and "2 page" in result.error["message"]
    assert not (office.root / "data/x.png").exists()


def test_convert_to_image_rejects_unknown_image_type(run, report):
    result = run("pdf", "convert_to_image", pdf_file_path=report, image_file_path="data/x.docx")
    assert result.error["code"] == "wrong_file_type"


def test_image_to_pdf(run, office, scan):
    result = run("pdf", "image_to_pdf", image_file_path=scan, pdf_file_path="data/scan.pdf")
    assert result.ok, result.observation
    reader = pypdf.PdfReader(str(office.root / "data/scan.pdf"))
    assert len(reader.pages) == 1
    read = run("pdf", "read_file", pdf_file_path="data/scan.pdf")
    assert read.ok and "no text layer" in read.observation
    back = run("pdf", "convert_to_image", pdf_file_path="data/scan.pdf", image_file_path="data/back.png")
    with Image.open(office.root / "data/back.png") as image:
        # transparent corners became white, the black box stayed dark
        gray = image.convert("L")
        assert gray.getpixel((2, 2)) > 240
        assert gray.getpixel((image.width // 2, image.height // 2)) < 50
    assert back.ok


def test_image_to_pdf_multiframe(run, office):
    frames = [Image.new("RGB", (100, 80), color) for color in ("red", "blue", "green")]
    frames[0].save(office.root / "data/anim.gif", save_all=True, append_images=frames[1:])
    result = run("pdf", "image_to_pdf", image_file_path="data/anim.gif", pdf_file_path="data/anim.pdf")
    assert result.data["pages"] == 3
    assert len(pypdf.PdfReader(str(office.root / "data/anim.pdf")).pages) == 3


def test_round_trip_word_pdf_word(run, office):
    assert run("word", "write_to_file", file_path="data/memo.docx", contents="Alpha line\nBeta line").ok
    assert run("word", "convert_to_pdf", word_file_path="data/memo.docx", pdf_file_path="data/memo.pdf").ok
    assert run("pdf", "convert_to_word", pdf_file_path="data/memo.pdf", word_file_path="data/memo2.docx").ok
    assert run("word", "read_file", file_path="data/memo2.docx").data["paragraphs"] == ["Alpha line", "Beta line"]


@pytest.mark.parametrize("action,args", [
    ("read_file", {"pdf_file_path": "data/none.pdf"}),
    ("convert_to_word", {"pdf_file_path": "data/none.pdf", "word_file_path": "data/n.docx"}),
    ("convert_to_image", {"pdf_file_path": "data/none.pdf", "image_file_path": "data/n.png"}),
    ("image_to_pdf", {"image_file_path": "data/none.png", "pdf_file_path": "data/n.pdf"}),
])
def test_missing_files(run, action, args):
    assert run("pdf", action, **args).error["code"] == "file_not_found"


@pytest.mark.parametrize("action,args", [
    ("read_file", {"pdf_file_path": "data/bad.pdf"}),
    ("convert_to_word", {"pdf_file_path": "data/bad.pdf", "word_file_path": "data/n.docx"}),
    ("convert_to_image", {"pdf_file_path": "data/bad.pdf", "image_file_path": "data/n.png"}),
    ("convert_to_image", {"pdf_file_path": "data/bad.pdf", "image_file_path": "data/n.png", "page": 1}),
    ("image_to_pdf", {"image_file_path": "data/bad.png", "pdf_file_path": "data/n.pdf"}),
])
def test_corrupt_files(run, office, action, args):
    (office.root / "data/bad.pdf").write_bytes(b"%PDF-1.4 nonsense without objects")
    (office.root / "data/bad.png").write_bytes(b"\x89PNG but not really")
    result = run("pdf", action, **args)
    assert result.error["code"] == "corrupt_file", result.observation
    assert not any((office.root / "data").glob("n.*"))


def test_wrong_file_types(run, office, report):
    (office.root / "data/a.xlsx").write_bytes(b"x")
    assert run("pdf", "read_file", pdf_file_path="data/a.xlsx").error["code"] == "wrong_file_type"
    assert run("pdf", "image_to_pdf", image_file_path=report, pdf_file_path="data/n.pdf").error["code"] == "wrong_file_type"
    assert run("pdf", "convert_to_word", pdf_file_path=report,
               word_file_path="data/out.txt").error["code"] == "wrong_file_type"


def test_empty_page_becomes_paragraph_with_page_break(run, office):
    _write_pdf(office.root / "data/gap.pdf", [["first"], [], ["third"]])
    assert run("pdf", "convert_to_word", pdf_file_path="data/gap.pdf", word_file_path="data/gap.docx").ok
    paragraphs = docx.Document(str(office.root / "data/gap.docx")).paragraphs
    assert [p.text for p in paragraphs] == ["first", "", "third"]
    assert all(p.paragraph_format.page_break_before for p in paragraphs[1:])
