"""OCR app: text rendered into a PNG (and into a PDF page) comes back."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml
from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
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


MONO_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"


def _font(path, size):
    try:
        return ImageFont.truetype(path, size)
    except OSError:
        return ImageFont.truetype(FONT, size)


def test_small_print_is_enlarged_before_it_is_read(run, office):
    # a screenshot in an 11-pixel bold font without smoothing, as OfficeBench's score sheets are: read
    # as it is, tesseract gives "carol: 333" and splits the last line in two
    lines = ["Carol: 333", "Nina: 305", "Jack: 315", "Quinn: 255", "Location: Conference Room A"]
    img = Image.new("RGB", (300, 40 + 30 * len(lines)), "white")
    draw = ImageDraw.Draw(img)
    draw.fontmode = "1"
    for i, line in enumerate(lines):
        draw.text((10, 15 + 30 * i), line, fill="black", font=_font(MONO_BOLD, 11))
    img.save(office.root / "data" / "small.png")
    r = run("ocr", "recognize_file", file_path="data/small.png")
    assert r.ok, r.observation
    assert [line for line in r.data["text"].splitlines() if line.strip()] == lines


def test_text_on_a_transparent_ground_is_read(run, office):
    img = Image.new("RGBA", (700, 120), (0, 0, 0, 0))  # transparent black: flattened as it is, all black
    ImageDraw.Draw(img).text((20, 30), "Total Budget: 600000", fill=(0, 0, 0, 255), font=_font(FONT, 36))
    img.save(office.root / "data" / "clear.png")
    r = run("ocr", "recognize_file", file_path="data/clear.png")
    assert r.ok and "Total Budget: 600000" in r.data["text"], r.observation


OFFICEBENCH = Path(os.environ.get("OFFICESIM_OFFICEBENCH") or ROOT.parent / "shared" / "benchmarks" / "officebench")
TRUTH = yaml.safe_load((ROOT / "benchmarks" / "ocr_officebench.yaml").read_text())


@pytest.mark.skipif(not (OFFICEBENCH / "tasks").is_dir(),
                    reason=f"needs the OfficeBench snapshot at {OFFICEBENCH} (or OFFICESIM_OFFICEBENCH)")
@pytest.mark.parametrize("image", [
    "3-36/testbed/data/students_scores.jpg",  # small bold print: "333" was read "938", "Alice" "Miice"
    "2-11/testbed/data/company_trading_records.jpg",  # a table: read column by column, every row was torn apart
    "2-45/testbed/data/business_travel.jpg",
])
def test_officebench_scans_read_as_printed(run, office, image):
    shutil.copyfile(OFFICEBENCH / "tasks" / image, office.root / "data" / Path(image).name)
    r = run("ocr", "recognize_file", file_path=f"data/{Path(image).name}")
    assert r.ok, r.observation
    text = " ".join(r.data["text"].split())
    assert [v for v in TRUTH[image] if " ".join(v.split()) not in text] == []
