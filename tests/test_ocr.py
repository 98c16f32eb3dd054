"""OCR app: text rendered into a PNG (and into a PDF page) comes back."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
LINES = ["NOTICE", "Office closed Friday"]


def _render(path, lines=LINES):
    img = Image.new("RGB", (900, 60 + 60 * len(lines)), "white")
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 32)
    for i, line in enumerate(lines):
        draw.text((30, 30 + 60 * i), line, fill="black", font=font)
    img.save(path)
    return img


def test_png_text_recognized(run, office):
    _render(office.root / "data" / "scan.png")
    r = run("ocr", "recognize_file", file_path="data/scan.png")
    assert r.ok, r.observation
    assert "NOTICE" in r.data["text"]
    assert "Office closed Friday" in r.data["text"]
    assert r.observation.startswith("Text recognized in data/scan.png:")


def test_pdf_rendered_then_recognized(run, office):
    img = _render(office.root / "data" / "tmp.png", ["Invoice 4711"])
    img.save(office.root / "data" / "scan.pdf", "PDF", resolution=72)
    r = run("ocr", "recognize_file", file_path="/testbed/data/scan.pdf")
    assert r.ok, r.observation
    assert "Invoice 4711" in r.data["text"]


def test_blank_image(run, office):
    Image.new("RGB", (200, 100), "white").save(office.root / "data" / "blank.png")
    r = run("ocr", "recognize_file", file_path="data/blank.png")
    assert r.ok and r.data["text"] == "" and "No text" in r.observation


def test_errors(run, office):
    assert run("ocr", "recognize_file", file_path="data/none.png").error["code"] == "file_not_found"
    (office.root / "data" / "a.docx").write_bytes(b"x")
    assert run("ocr", "recognize_file", file_path="data/a.docx").error["code"] == "wrong_file_type"
    (office.root / "data" / "bad.png").write_bytes(b"not a png")
    assert run("ocr", "recognize_file", file_path="data/bad.png").error["code"] == "corrupt_file"


def test_missing_tesseract_is_an_error(run, office, monkeypatch):
    pytesseract = pytest.importorskip("pytesseract")
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/tesseract")
    _render(office.root / "data" / "scan.png")
    r = run("ocr", "recognize_file", file_path="data/scan.png")
    assert not r.ok and r.error["code"] == "ocr_unavailable" and "tesseract" in r.observation
