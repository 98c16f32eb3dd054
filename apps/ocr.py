"""The ocr app: text from images (tesseract via pytesseract) and from scanned PDFs (rendered first)."""

from __future__ import annotations

import hashlib
import statistics
import os
import threading
from collections import OrderedDict

from PIL import Image, UnidentifiedImageError

from officesim.apps import _ocr_reading
from officesim.apps._files import read_existing
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


# ---- reading an image as a person reads it -------------------------------------------------------
# tesseract wants dark text on a light ground with letters some 20-40 pixels tall; the scans tasks hold
# are often small screenshots in tiny bitmap fonts, coloured headings or transparent PNGs. Each image is
# made grayscale on white, contrast-stretched when poor, enlarged when its print is small (Pillow); the
# page segmentation is chosen by layout (a table's rows stay lines), and where tesseract is unsure of a
# reading, the reading it is most confident of (pytesseract's image_to_data) is kept (readings()).
SMALL_TEXT = 20  # letters (word boxes) lower than this many pixels are enlarged ...
TEXT_HEIGHT = 40  # ... to about this height, by 2 to UPSCALE_MAX times
UPSCALE_MAX = 3
LARGE_SIDE = 2400  # an image with no text found is enlarged only when its longer side is under half this
MAX_PIXELS = 16_000_000  # never enlarged beyond this: a pass over a larger page takes too long
PSM_PAGE, PSM_BLOCK = 3, 6  # tesseract page segmentation: automatic layout; one uniform block of text
FAINT_INK = 100  # an image whose darkest pixel is lighter than this has faint ink
LIGHT_GROUND = 230  # ... and one whose median is darker than this no light ground
# enlarged print is sharpened again (PIL's UnsharpMask: radius, percent, threshold): resampling softens
# the edges of strokes a pixel or two wide, and tesseract then joins neighbours ('nn' read as 'm')
SHARPEN = (1, 80, 2)


def _grayscale(image: Image.Image) -> Image.Image:
    """The image as 8-bit gray on a white ground (a transparent PNG's text would vanish on black)."""
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        ground = Image.new("RGBA", rgba.size, "white")
        ground.alpha_composite(rgba)
        image = ground
    return image.convert("L")


def _scale(size: tuple[int, int], text_height: float | None) -> int:
    """How many times to enlarge an image whose letters are ``text_height`` pixels tall (None: no text
    found at all): small print reads far better enlarged; large print gains nothing and costs time."""
    if text_height is not None and text_height >= SMALL_TEXT:
        return 1
    w, h = size
    factor = UPSCALE_MAX if text_height is None else max(2, min(UPSCALE_MAX, round(TEXT_HEIGHT / text_height)))
    if text_height is None and max(w, h) * 2 > LARGE_SIDE:  # a large page without text: nothing to enlarge
        return 1
    while factor > 1 and w * h * factor * factor > MAX_PIXELS:
        factor -= 1
    return factor


def _prepare(image: Image.Image) -> tuple[str, Image.Image]:
    """The image to read: grayscale on white, light text on a dark ground inverted, and the contrast
    stretched when the ink is faint or the ground is not light (a grey scan, a coloured banner).
    Binarising is left to tesseract (Otsu): a threshold of our own, tried on the OfficeBench images
    and on faint, grey and coloured test images, read worse in every case (benchmarks/ocr.py)."""
    from PIL import ImageOps, ImageStat

    gray = _grayscale(image)
    name = "gray"
    stat = ImageStat.Stat(gray)
    if stat.median[0] < 128 and stat.mean[0] > stat.median[0]:  # light text (the few pixels) on a dark ground
        gray, name = ImageOps.invert(gray), "inverted"
    darkest, _ = gray.getextrema()
    if darkest > FAINT_INK or ImageStat.Stat(gray).median[0] < LIGHT_GROUND:
        gray, name = ImageOps.autocontrast(gray, cutoff=0.5), f"{name} stretched"
    return name, gray


def _enlarge(image: Image.Image, factor: int) -> Image.Image:
    """The image ``factor`` times larger (Lanczos), its edges sharpened again (unsharp mask)."""
    from PIL import ImageFilter

    large = image.resize((image.width * factor, image.height * factor), Image.Resampling.LANCZOS)
    return large.filter(ImageFilter.UnsharpMask(*SHARPEN))


class Reading:
    """One tesseract pass: its lines in reading order, its confidence and where its blocks lie. The
    words come with their characters (hOCR); readings a glyph's shape contradicts are corrected
    first (apps/_ocr_reading.py), and ``corrections`` says which."""

    def __init__(self, words: "list[_ocr_reading.Word]", label: str, image: Image.Image | None = None):
        self.label = label
        self.corrections = _ocr_reading.correct(words, image) if image is not None else []
        lines: "OrderedDict[tuple, list[str]]" = OrderedDict()
        self.boxes: dict[int, list[int]] = {}  # block -> [left, top, right, bottom]
        weight = confident = 0.0
        heights = []
        for w in words:
            word, conf = w.text.strip(), w.conf
            if not word or conf < 0:
                continue
            lines.setdefault((w.block, w.par, w.line), []).append(word)
            left, top, right, bottom = w.box
            box = self.boxes.setdefault(w.block, [left, top, right, bottom])
            box[:] = [min(box[0], left), min(box[1], top), max(box[2], right), max(box[3], bottom)]
            heights.append(bottom - top)
            weight += len(word)
            confident += len(word) * conf
        self.confidence = confident / weight if weight else 0.0
        self.text_height = statistics.median(heights) if heights else None
        self.chars = int(weight)
        out, last_block = [], None
        for (block, _par, _line), words_ in lines.items():  # tesseract gives words in its reading order
            if last_block is not None and block != last_block:
                out.append("")  # a blank line between blocks, as a page shows them apart
            out.append(" ".join(words_))
            last_block = block
        self.text = "\n".join(out).strip()

    @property
    def side_by_side(self) -> bool:
        """Whether blocks were found beside one another on the same lines: the columns of a table or
        of a form, which the automatic layout reads column by column, tearing every row apart."""
        boxes = list(self.boxes.values())
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                overlap = min(a[3], b[3]) - max(a[1], b[1])
                shorter = min(a[3] - a[1], b[3] - b[1])
                apart = a[2] <= b[0] or b[2] <= a[0]
                if apart and shorter > 0 and overlap >= shorter / 2:
                    return True
        return False

    @property
    def score(self) -> float:
        """Mean confidence per character; a reading that finds almost nothing is not preferred."""
        return self.confidence if self.chars >= 3 else self.confidence * self.chars / 3


def _data(image: Image.Image, psm: int) -> "list[_ocr_reading.Word]":
    """tesseract's words with their layout, confidence and characters (hOCR); a missing binary or a
    stuck run is a clear error."""
    import pytesseract  # imported here: the other apps work without it

    try:
        hocr = pytesseract.image_to_pdf_or_hocr(image, extension="hocr", timeout=OCR_TIMEOUT,
                                                config=f"--psm {psm} {_ocr_reading.HOCR_CONFIG}")
        return _ocr_reading.parse_hocr(hocr.decode("utf-8", "replace"))
    except pytesseract.TesseractNotFoundError:
        raise OpError("ocr_unavailable", "the tesseract OCR program is not installed on this server "
                      "(install the tesseract-ocr package)") from None
    except RuntimeError as exc:  # pytesseract reports its timeout this way
        raise OpError("ocr_unavailable", f"OCR did not finish: {exc}") from None
    except pytesseract.TesseractError as exc:
        raise OpError("corrupt_file", f"tesseract could not read the image: {exc}") from None


LOW_CONFIDENCE = 90  # below this mean confidence the other page segmentation is tried as well


def readings(image: Image.Image) -> list[Reading]:
    """The passes over an image, the one kept first.

    The letters are measured on a first reading; small print is enlarged and read again. The page
    segmentation is chosen by layout: tesseract's automatic layout first; where it finds
    blocks side by side (a table, a schedule with times and items in columns, a form), which it reads
    column by column, the page is read again as one uniform block, keeping each row a line, and that
    reading is kept. When tesseract is not confident of the automatic layout's reading of a page
    without columns, the uniform block is read too, and the more confident reading is kept."""
    name, prepared = _prepare(image)
    auto = Reading(_data(prepared, PSM_PAGE), f"{name} psm{PSM_PAGE}", prepared)
    factor = _scale(prepared.size, auto.text_height)
    if factor > 1:  # small print: read again enlarged (the first reading only measured the letters)
        prepared = _enlarge(prepared, factor)
        name = f"{name} x{factor} sharpened"
        auto = Reading(_data(prepared, PSM_PAGE), f"{name} psm{PSM_PAGE}", prepared)
    if auto.side_by_side:
        return [Reading(_data(prepared, PSM_BLOCK), f"{name} psm{PSM_BLOCK} (blocks side by side)", prepared), auto]
    if auto.confidence >= LOW_CONFIDENCE:
        return [auto]
    block = Reading(_data(prepared, PSM_BLOCK), f"{name} psm{PSM_BLOCK}", prepared)
    return sorted([auto, block], key=lambda r: r.score, reverse=True)


def _tesseract(image: Image.Image) -> str:
    """The text of an image, lines in reading order, from the pass chosen by :func:`readings`."""
    return readings(image)[0].text


def _pdf_pages(data: bytes, label: str) -> list[Image.Image]:
    """Render every page of a PDF to an image."""
    import pypdfium2 as pdfium

    from officesim.testbed.convert import PDFIUM_LOCK

    from officesim.testbed.convert import ConversionError, open_pdf

    try:
        reader = open_pdf(data)
    except ConversionError as exc:
        raise OpError("corrupt_file", f"{label}: {exc}") from None
    guards.check_pages(len(reader.pages), label, limit=guards.MAX_FRAMES)
    guards.check_pdf_pages(reader, range(len(reader.pages)), PDF_DPI / 72, label)
    try:
        with PDFIUM_LOCK:  # pdfium is not thread-safe; convert() copies the pixels out of its bitmap
            pdf = pdfium.PdfDocument(data)
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


def _image_frames(data: bytes, label: str) -> list[Image.Image]:
    """The frames of an image (a multi-page TIFF has several)."""
    import io

    try:
        img = guards.open_image(io.BytesIO(data), label)
        frames = []
        for i in range(getattr(img, "n_frames", 1)):
            img.seek(i)
            frames.append(img.copy())
        return frames
    except (UnidentifiedImageError, OSError) as exc:
        raise OpError("corrupt_file", f"{label} could not be opened as an image: {exc}") from None


def _recognize(data: bytes, is_pdf: bool, label: str) -> list[str]:
    """The text of every page of an image or PDF (its bytes, read once), cached by that content."""
    import pytesseract

    # the engine is part of the key: another tesseract may read differently
    key = (pytesseract.pytesseract.tesseract_cmd, "pdf" if is_pdf else "image", hashlib.sha256(data).hexdigest())
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
            pages = _pdf_pages(data, label) if is_pdf else _image_frames(data, label)
            texts = [_tesseract(page).strip() for page in pages]
            with _cache_lock:
                _cache[key] = list(texts)
                while len(_cache) > _CACHE_LIMIT:
                    _cache.popitem(last=False)
        finally:
            with _cache_lock:
                _running.pop(key, None)
    return texts


def image_text(root, rel: str) -> str:
    """The recognized text of the image ``rel`` of the office at ``root`` (all frames), for checks that
    read what a picture says; an image that cannot be read (or is a link) has none."""
    from officesim.testbed.office import Office

    try:
        return "\n".join(_recognize(Office(root).read_bytes(rel), False, rel))
    except (OpError, guards.TooLarge):
        return ""


@app.operation(time_limit=60)  # tesseract reads a page in a second or two; scans run to many pages
def recognize_file(ctx: OfficeContext, file_path: str) -> Result:
    """Recognize the text in an image (png, jpg, tif, bmp, gif) or a scanned PDF.

    Args:
        file_path: path of the image or PDF in the office.
    """
    path, data = read_existing(ctx, file_path, IMAGE_SUFFIXES + (".pdf",), "image or PDF")
    texts = _recognize(data, path.suffix.lower() == ".pdf", file_path)
    if len(texts) == 1:
        body = texts[0]
    else:
        body = "\n\n".join(f"--- page {i} ---\n{t}" for i, t in enumerate(texts, 1))
    if not any(texts):
        return Result(observation=f"No text was recognized in {file_path}.", data={"text": "", "pages": texts})
    return Result(observation=f"Text recognized in {file_path}:\n{body}", data={"text": body, "pages": texts})
