"""The ocr app: text from images (tesseract via pytesseract) and from scanned PDFs (rendered first)."""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict

from PIL import Image, UnidentifiedImageError

from officesim.apps._files import existing_file
from officesim.testbed import guards
from officesim.apps.registry import App, OfficeContext, OpError, Result

app = App("ocr", "Recognize the text in an image or a scanned PDF.")

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif")
PDF_DPI = 300
OCR_TIMEOUT = 60  # seconds per page; a huge image should not stall the session

# tesseract is built with OpenMP: left alone, each run spins up a thread per core, which on a busy
# server (several OCR runs at once, two cores) doubles its CPU time for no gain in wall time.
# An operator's own setting wins.
os.environ.setdefault("OMP_THREAD_LIMIT", "1")

# Recognized text by file content: every session of a task OCRs the same scans, and evaluation
# replays the gold solution, which OCRs them again. tesseract is by far the costliest operation.
_CACHE_LIMIT = 512
_cache: "OrderedDict[tuple[str, str, str], list[str]]" = OrderedDict()
_cache_lock = threading.Lock()
_running: "dict[tuple[str, str, str], threading.Lock]" = {}


def _tesseract(image: Image.Image) -> str:
    """Run tesseract; a missing binary or a stuck run becomes a clear error."""
    import pytesseract  # imported here: the other apps work without it

    try:
        return pytesseract.image_to_string(image.convert("RGB"), timeout=OCR_TIMEOUT)
    except pytesseract.TesseractNotFoundError:
        raise OpError("ocr_unavailable", "the tesseract OCR program is not installed on this server "
                      "(install the tesseract-ocr package)") from None
    except RuntimeError as exc:  # pytesseract reports its timeout this way
        raise OpError("ocr_unavailable", f"OCR did not finish: {exc}") from None
    except pytesseract.TesseractError as exc:
        raise OpError("corrupt_file", f"tesseract could not read the image: {exc}") from None


def _pdf_pages(path, label: str) -> list[Image.Image]:
    """Render every page of a PDF to an image."""
    import pypdfium2 as pdfium

    from officesim.testbed.convert import PDFIUM_LOCK

    from officesim.testbed.convert import ConversionError, open_pdf

    try:
        reader = open_pdf(path)
    except ConversionError as exc:
        raise OpError("corrupt_file", f"{label}: {exc}") from None
    guards.check_pages(len(reader.pages), label, limit=guards.MAX_FRAMES)
    guards.check_pdf_pages(reader, range(len(reader.pages)), PDF_DPI / 72, label)
    try:
        with PDFIUM_LOCK:  # pdfium is not thread-safe; convert() copies the pixels out of its bitmap
            pdf = pdfium.PdfDocument(str(path))
            try:
                guards.check_pages(len(pdf), label, limit=guards.MAX_FRAMES)
                pages = []
                for i in range(len(pdf)):
                    guards.check_render(*pdf.get_page_size(i), PDF_DPI / 72, f"{label} page {i + 1}")
                    pages.append(pdf[i].render(scale=PDF_DPI / 72).to_pil().convert("RGB"))
                return pages
            finally:
                pdf.close()
    except pdfium.PdfiumError as exc:
        raise OpError("corrupt_file", f"{label} could not be opened as a PDF: {exc}") from None


def _image_frames(path, label: str) -> list[Image.Image]:
    """The frames of an image (a multi-page TIFF has several)."""
    try:
        img = guards.open_image(path, label)
        frames = []
        for i in range(getattr(img, "n_frames", 1)):
            img.seek(i)
            frames.append(img.copy())
        return frames
    except (UnidentifiedImageError, OSError) as exc:
        raise OpError("corrupt_file", f"{label} could not be opened as an image: {exc}") from None


def _recognize(path, label: str) -> list[str]:
    """The text of every page of an image or PDF file, cached by the file's content."""
    import pytesseract

    is_pdf = path.suffix.lower() == ".pdf"
    try:  # the engine is part of the key: another tesseract may read differently
        key = (pytesseract.pytesseract.tesseract_cmd, "pdf" if is_pdf else "image",
               hashlib.sha256(guards.read_bounded(path, label)).hexdigest())
    except OSError as exc:
        raise OpError("corrupt_file", f"{label} could not be read: {exc}") from None
    with _cache_lock:
        texts = _cache.get(key)
        if texts is not None:
            _cache.move_to_end(key)
            return list(texts)
        # one tesseract run per content at a time: the gold replay of a task and its sessions
        # often OCR the same scan at the same moment
        running = _running.setdefault(key, threading.Lock())
    with running:
        with _cache_lock:
            texts = _cache.get(key)
        if texts is not None:
            return list(texts)
        try:
            pages = _pdf_pages(path, label) if is_pdf else _image_frames(path, label)
            texts = [_tesseract(page).strip() for page in pages]
            with _cache_lock:
                _cache[key] = list(texts)
                while len(_cache) > _CACHE_LIMIT:
                    _cache.popitem(last=False)
        finally:
            with _cache_lock:
                _running.pop(key, None)
    return texts


def image_text(path) -> str:
    """The recognized text of an image file (all frames), for checks that read what a picture says;
    an image that cannot be read has none."""
    from pathlib import Path

    try:
        return "\n".join(_recognize(Path(path), Path(path).name))
    except OpError:
        return ""


@app.operation(time_limit=60)  # tesseract reads a page in a second or two; scans run to many pages
def recognize_file(ctx: OfficeContext, file_path: str) -> Result:
    """Recognize the text in an image (png, jpg, tif, bmp, gif) or a scanned PDF.

    Args:
        file_path: path of the image or PDF in the office.
    """
    path = existing_file(ctx, file_path, IMAGE_SUFFIXES + (".pdf",), "image or PDF")
    texts = _recognize(path, file_path)
    if len(texts) == 1:
        body = texts[0]
    else:
        body = "\n\n".join(f"--- page {i} ---\n{t}" for i, t in enumerate(texts, 1))
    if not any(texts):
        return Result(observation=f"No text was recognized in {file_path}.", data={"text": "", "pages": texts})
    return Result(observation=f"Text recognized in {file_path}:\n{body}", data={"text": body, "pages": texts})
