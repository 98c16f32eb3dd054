"""Document conversions between docx, xlsx, pdf and images, as pure functions on bytes.

Why no office suite: LibreOffice (or similar) takes seconds to start, pulls hundreds of megabytes
into the image and renders fonts differently from machine to machine. The evaluation only needs
the *text* of a document to survive a conversion (pypdf must extract the words back, tesseract
must read a rendered page), so plain libraries do it in tens of milliseconds:

- docx -> pdf and xlsx -> pdf: fpdf2 lays out the text (paragraphs and tables in document order;
  every sheet under its name, rows as `` | ``-joined cells). DejaVu Sans is embedded when present
  so any text the font covers survives; otherwise a core font is used with characters outside
  Latin-1 replaced.
- pdf -> docx: the text pypdf extracts, one paragraph per line, each page after the first starting
  on a new page.
- pdf -> image: pypdfium2 renders pages at about 120 dpi; several pages are stacked vertically
  into one image so OCR can read the whole document at once.
- image -> pdf: Pillow writes the image(s) as PDF pages.

Inputs pass the guards of testbed/guards.py first (file size, inflated size, cells, pages, pixels);
a refusal raises ``guards.TooLarge``.

Every function raises ``ConversionError`` for input it cannot read; callers map it to an OpError.

Sources are bytes (what an app read from the office through ``Office.read_bytes``, which follows no
link) or, outside an office (tests, builders), a path. A conversion returns the bytes it made; the app
writes them with ``Office.write_bytes``. ``dst``, when given, is a path outside any office written
through a temporary file, so a failure never leaves half a file.
"""

from __future__ import annotations

import io
import logging
import os
import re
import tempfile
import threading
import warnings
from contextlib import contextmanager
from datetime import date, datetime, time, timezone
from pathlib import Path
from typing import Any, Iterator

from officesim.testbed import guards

FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF")
FONT_FILE = "DejaVuSans.ttf"  # one face only: loading a TrueType font is most of a conversion's cost

RENDER_DPI = 120
MAX_IMAGE_SIDE = 60000  # JPEG cannot exceed 65535 pixels on a side
MAX_IMAGE_PIXELS = 60_000_000  # keeps a long document's stacked image under ~180 MB of RGB
PAGE_GAP = 12  # pixels of grey between stacked pages

# PDFium (pypdfium2) is not thread-safe: two threads inside it at once can bring the whole server
# down (seen: a general protection fault in libpdfium.so when a gold replay and a session rendered
# PDFs at the same moment). Every use of pypdfium2 holds this lock, from opening to closing.
PDFIUM_LOCK = threading.RLock()

_XML_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_ASCII_FALLBACK = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-",
    "\u2026": "...", "\u2022": "*", "\u00a0": " ", "\u20ac": "EUR",
})


class ConversionError(Exception):
    """The input could not be read (corrupt or not of the expected kind)."""


# -- helpers -------------------------------------------------------------------------------------

def clean_xml_text(text: str) -> str:
    """Drop control characters that XML (docx/xlsx) cannot store; tabs and newlines are kept."""
    return _XML_ILLEGAL.sub("", text)


def find_font(name: str = FONT_FILE) -> Path | None:
    """The path of a bundled TrueType font, or None when the system does not have it."""
    for folder in FONT_DIRS:
        candidate = Path(folder) / name
        if candidate.is_file():
            return candidate
    return None


@contextmanager
def atomic_output(dst: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path next to ``dst``; move it onto ``dst`` only if the block succeeds."""
    dst = Path(dst)
    mode = dst.stat().st_mode & 0o777 if dst.exists() else 0o644  # mkstemp would leave 0600
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=dst.suffix, dir=dst.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, mode)
        os.replace(tmp, dst)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


Source = "bytes | str | os.PathLike"


def _data(src: Any) -> bytes:
    """The bytes of a source: bytes as they are, a path (never an office's: apps pass bytes) read
    within the file size limit."""
    if isinstance(src, (bytes, bytearray, memoryview)):
        data = bytes(src)
        guards.check_size(len(data))
        return data
    return guards.read_bounded(src, Path(src).name)


def _name(src: Any) -> str:
    return "the file" if isinstance(src, (bytes, bytearray, memoryview)) else Path(src).name


def _emit(data: bytes, dst: str | os.PathLike | None) -> bytes:
    """``data``, also written to ``dst`` (atomically) when one is given."""
    if dst is not None:
        with atomic_output(dst) as tmp:
            Path(tmp).write_bytes(data)
    return data


def display_value(value: Any) -> str:
    """How a spreadsheet value is shown to a reader: dates as ISO, booleans as TRUE/FALSE."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d") if value.time() == time(0) else value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, (date, time)):
        return value.isoformat()
    return str(value)


# -- text to pdf ---------------------------------------------------------------------------------

class TextPdf:
    """Headings, paragraphs and table rows laid out onto fpdf2 pages.

    Calls are recorded and rendered in ``save``, once all the text is known: text that Latin-1 can
    hold is set in the built-in Helvetica, anything else in DejaVuSans. Loading and subsetting a
    TrueType font costs more than the rest of a small conversion, so it is paid only when needed.
    """

    def __init__(self) -> None:
        self.ops: list[tuple] = []
        self.has_content = False  # whether the current page has anything on it yet

    def _write(self, text: str, size: float, height: float = 6.0) -> None:
        self.has_content = True
        self.ops.append(("text", text.replace("\r", "").replace("\t", "    "), size, height))

    def heading(self, text: str, level: int = 1) -> None:
        self._write(text, {0: 18, 1: 15, 2: 13}.get(level, 12), height=8.0)
        self.gap(1)

    def paragraph(self, text: str) -> None:
        if text.strip():
            self._write(text, 11)
        else:
            self.gap(6)

    def table_row(self, cells: list[str]) -> None:
        self._write(" | ".join(c.replace("\n", " ") for c in cells), 10, height=5.5)

    def gap(self, mm: float = 3) -> None:
        self.ops.append(("gap", mm))

    def new_page(self) -> None:
        self.ops.append(("page",))
        self.has_content = False

    def _needs_unicode(self) -> bool:
        try:
            for op in self.ops:
                if op[0] == "text":
                    _XML_ILLEGAL.sub("", op[1]).encode("latin-1")
        except UnicodeEncodeError:
            return True
        return False

    def render(self, title: str | None = None, created: datetime | None = None) -> bytes:
        """The PDF's bytes; a fixed ``created`` date makes the output reproducible."""
        from fpdf import FPDF

        pdf = FPDF(format="A4")
        pdf.set_auto_page_break(auto=True, margin=15)
        pdf.set_margins(18, 18, 18)
        pdf.set_producer("officesim")
        if title:
            pdf.set_title(title)
        if created is not None:
            pdf.set_creation_date(created if created.tzinfo else created.replace(tzinfo=timezone.utc))
        regular = find_font(FONT_FILE) if self._needs_unicode() else None
        if regular is not None:
            pdf.add_font("Body", "", str(regular))
        family = "Body" if regular is not None else "Helvetica"
        pdf.add_page()
        for op in self.ops:
            if op[0] == "text":
                text = _XML_ILLEGAL.sub("", op[1])
                if regular is None:  # core font: Latin-1 only
                    text = text.translate(_ASCII_FALLBACK).encode("latin-1", "replace").decode("latin-1")
                pdf.set_font(family, "", op[2])
                pdf.multi_cell(0, op[3], text, new_x="LMARGIN", new_y="NEXT")
            elif op[0] == "gap":
                pdf.ln(op[1])
            else:
                pdf.add_page()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            logging.getLogger("fpdf").setLevel(logging.ERROR)
            return bytes(pdf.output())

    def save(self, dst: Path) -> None:
        Path(dst).write_bytes(self.render())


def _heading_level(style_name: str | None) -> int | None:
    """The outline level of a Word style name ('Title' 0, 'Heading 2' 2), or None for body text."""
    if style_name == "Title":
        return 0
    match = re.fullmatch(r"Heading (\d)", style_name or "")
    return int(match.group(1)) if match else None


def _style_names(document: Any) -> dict[str, str]:
    """Paragraph style id -> name, read once (python-docx looks styles up slowly per paragraph)."""
    names = {}
    for style in document.styles:
        if style.style_id and style.name:
            names[style.style_id] = style.name
    return names


def table_rows(table: Any) -> list[list[str]]:
    """The cell texts of a python-docx table, merged cells shown once per row."""
    rows = []
    for row in table.rows:
        cells, seen = [], None
        for cell in row.cells:
            if cell._tc is seen:
                continue
            seen = cell._tc
            cells.append(cell.text)
        rows.append(cells)
    return rows


def open_docx(src: Source) -> Any:
    """Open a .docx with python-docx, or raise ConversionError saying why not."""
    import docx

    data = _data(src)
    guards.check_docx(data, _name(src))
    try:
        return docx.Document(io.BytesIO(data))
    except MemoryError:
        raise
    except Exception as exc:  # zip, XML and content-type errors all mean "not a readable docx"
        raise ConversionError(f"not a readable Word document ({type(exc).__name__}: {exc})") from None


def docx_to_pdf(src: Source, dst: str | os.PathLike | None = None) -> bytes:
    """The paragraphs and tables of a .docx, in document order, as a text PDF."""
    from docx.table import Table

    document = open_docx(src)
    styles = _style_names(document)
    out = TextPdf()
    for block in document.iter_inner_content():
        if isinstance(block, Table):
            out.gap(2)
            for cells in table_rows(block):
                out.table_row(cells)
            out.gap(2)
            continue
        if block.paragraph_format.page_break_before and out.has_content:
            out.new_page()
        level = _heading_level(styles.get(block._p.style or ""))
        if level is not None and block.text.strip():
            out.heading(block.text, level)
        else:
            out.paragraph(block.text)
        if block.contains_page_break:
            out.new_page()
    return _emit(out.render(), dst)


def open_xlsx(src: Source, data_only: bool = False) -> Any:
    """Open an .xlsx with openpyxl, or raise ConversionError.

    Formulas are kept as written unless ``data_only``, which gives the values Excel last cached.
    """
    import openpyxl

    data = _data(src)
    guards.check_xlsx(data, _name(src))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return openpyxl.load_workbook(io.BytesIO(data), data_only=data_only)
    except MemoryError:
        raise
    except Exception as exc:
        raise ConversionError(f"not a readable Excel workbook ({type(exc).__name__}: {exc})") from None


def used_rows(ws: Any) -> list[list[Any]]:
    """The values of a worksheet from A1 to the last non-empty row and column."""
    rows = [list(r) for r in ws.iter_rows(min_row=1, min_col=1, values_only=True)]
    last_row, last_col = 0, 0
    for i, row in enumerate(rows, start=1):
        filled = [j for j, v in enumerate(row, start=1) if v is not None and v != ""]
        if filled:
            last_row, last_col = i, max(last_col, filled[-1])
    return [row[:last_col] + [None] * (last_col - len(row)) for row in rows[:last_row]]


def xlsx_to_pdf(src: Source, dst: str | os.PathLike | None = None) -> bytes:
    """Every worksheet of an .xlsx (its name, then one ' | '-joined line per row) as a PDF.

    A formula cell shows what it computes (the value the file cached, else the formulas engine's,
    testbed/spreadsheet.py), as a spreadsheet program prints it; one neither gives shows its formula.
    """
    from officesim.testbed.spreadsheet import FormulaProblem, formula_cells, formula_values

    data = _data(src)
    workbook = open_xlsx(data)
    cells = formula_cells(workbook)
    computed = formula_values(data, cells) if cells else {}
    out = TextPdf()
    for index, ws in enumerate(workbook.worksheets):
        if index:
            out.gap(6)
        out.heading(f"Sheet: {ws.title}", 2)
        rows = used_rows(ws)
        if not rows:
            out.paragraph("(empty sheet)")
        for r, row in enumerate(rows, start=1):
            values = [computed.get((ws.title, r, c), v) for c, v in enumerate(row, start=1)]
            out.table_row([display_value(row[c] if isinstance(v, FormulaProblem) else v) for c, v in enumerate(values)])
    return _emit(out.render(), dst)


# -- pdf to other things -------------------------------------------------------------------------

def open_pdf(src: Source) -> Any:
    """Open a PDF with pypdf (an empty password is tried on encrypted files) or raise ConversionError."""
    import pypdf

    data = _data(src)
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise ConversionError("the PDF is password-protected")
        guards.check_pages(len(reader.pages), _name(src))
        return reader
    except (ConversionError, guards.TooLarge, MemoryError):
        raise
    except Exception as exc:
        raise ConversionError(f"not a readable PDF ({type(exc).__name__}: {exc})") from None


def pdf_page_texts(src: Source) -> list[str]:
    """The text pypdf extracts from each page, in order."""
    reader = open_pdf(src)
    texts = []
    for page in reader.pages:
        try:
            texts.append(page.extract_text() or "")
        except Exception as exc:
            raise ConversionError(f"a page of the PDF could not be read ({type(exc).__name__}: {exc})") from None
    return texts


def pdf_to_docx(src: Source, dst: str | os.PathLike | None = None) -> bytes:
    """A .docx with one paragraph per non-blank text line of a PDF; each page starts a new page."""
    import docx

    pages = pdf_page_texts(src)
    document = docx.Document()
    for number, text in enumerate(pages):
        lines = [clean_xml_text(line.rstrip()) for line in text.splitlines() if line.strip()]
        first = True
        for line in lines or [""]:
            paragraph = document.add_paragraph(line)
            if first and number:
                paragraph.paragraph_format.page_break_before = True
            first = False
    out = io.BytesIO()
    document.save(out)
    return _emit(out.getvalue(), dst)


def _render_pages(src: Source, page: int | None, dpi: int) -> list[Any]:
    """Render one page (1-based) or all pages to Pillow images, shrinking very long documents."""
    with PDFIUM_LOCK:
        return _render_pages_locked(_data(src), page, dpi, _name(src))


def _render_pages_locked(data: bytes, page: int | None, dpi: int, name: str) -> list[Any]:
    import pypdfium2 as pdfium

    reader = open_pdf(data)
    try:
        document = pdfium.PdfDocument(data)
    except Exception as exc:
        raise ConversionError(f"not a readable PDF ({type(exc).__name__}: {exc})") from None
    try:
        if page is None:  # every page stacked into one picture
            guards.check_pages(len(document), name, limit=guards.MAX_FRAMES)
        indices = range(len(document)) if page is None else [page - 1]
        guards.check_pdf_pages(reader, [i for i in indices if i < len(reader.pages)], None, name)
        sizes = [document.get_page_size(i) for i in indices]  # points, without loading the pages
        scale = dpi / 72.0
        height = sum(h for _, h in sizes) * scale
        width = max((w for w, _ in sizes), default=0) * scale
        if height > MAX_IMAGE_SIDE or width * height > MAX_IMAGE_PIXELS:
            scale *= min(MAX_IMAGE_SIDE / height, (MAX_IMAGE_PIXELS / (width * height)) ** 0.5)
        return [document[i].render(scale=scale).to_pil().convert("RGB") for i in indices]
    finally:
        document.close()


def pdf_page_count(src: Source) -> int:
    """The number of pages, read by pypdfium2 (the renderer, so the count agrees with it)."""
    import pypdfium2 as pdfium

    data = _data(src)
    with PDFIUM_LOCK:
        try:
            document = pdfium.PdfDocument(data)
        except Exception as exc:
            raise ConversionError(f"not a readable PDF ({type(exc).__name__}: {exc})") from None
        try:
            return len(document)
        finally:
            document.close()


def stack_vertically(images: list[Any], gap: int = PAGE_GAP) -> Any:
    """One white image holding ``images`` top to bottom, centred, with a grey band between them."""
    from PIL import Image

    width = max(im.width for im in images)
    height = sum(im.height for im in images) + gap * (len(images) - 1)
    canvas = Image.new("RGB", (width, height), (200, 200, 200))
    y = 0
    for im in images:
        canvas.paste(im, ((width - im.width) // 2, y))
        y += im.height + gap
    return canvas


def render_pdf(src: Source, fmt: str = "PNG", page: int | None = None,
               dpi: int = RENDER_DPI) -> tuple[bytes, int, int, int]:
    """Page ``page`` (1-based), or every page stacked, as a PNG or JPEG: (bytes, w, h, pages)."""
    pages = _render_pages(src, page, dpi)
    if not pages:
        raise ConversionError("the PDF has no pages")
    image = pages[0] if len(pages) == 1 else stack_vertically(pages)
    out = io.BytesIO()
    image.save(out, format=fmt, **({"quality": 90} if fmt == "JPEG" else {"compress_level": 1}))
    return out.getvalue(), image.width, image.height, len(pages)


def image_format(dst: str | os.PathLike) -> str:
    """JPEG for a .jpg / .jpeg name, else PNG."""
    return "JPEG" if Path(dst).suffix.lower() in (".jpg", ".jpeg") else "PNG"


def pdf_to_image(src: Source, dst: str | os.PathLike, page: int | None = None,
                 dpi: int = RENDER_DPI) -> tuple[int, int, int]:
    """Render to a file outside an office (tests, tools); returns (w, h, pages)."""
    data, width, height, count = render_pdf(src, image_format(dst), page, dpi)
    _emit(data, dst)
    return width, height, count


def image_pdf(src: Source) -> tuple[bytes, int]:
    """An image (every frame of a multi-frame one) as PDF pages: (bytes, page count)."""
    from PIL import ImageSequence

    data = _data(src)
    try:
        with guards.open_image(io.BytesIO(data), _name(src)) as image:
            frames = [_flatten(frame) for frame in ImageSequence.Iterator(image)]
    except (guards.TooLarge, MemoryError):
        raise
    except Exception as exc:
        raise ConversionError(f"not a readable image ({type(exc).__name__}: {exc})") from None
    # Fit the page to A4 width at most; small images keep 1 pixel = 1 point.
    resolution = max(72.0, frames[0].width / 8.27)
    out = io.BytesIO()
    frames[0].save(out, format="PDF", save_all=True, append_images=frames[1:], resolution=resolution)
    return out.getvalue(), len(frames)


def image_to_pdf(src: Source, dst: str | os.PathLike) -> int:
    """Write an image as PDF pages to a file outside an office (tests, tools); returns the page count."""
    data, count = image_pdf(src)
    _emit(data, dst)
    return count


def _flatten(frame: Any) -> Any:
    """An RGB copy of an image frame, transparent parts put on white."""
    from PIL import Image

    if frame.mode in ("RGBA", "LA", "PA") or (frame.mode == "P" and "transparency" in frame.info):
        rgba = frame.convert("RGBA")
        white = Image.new("RGB", rgba.size, (255, 255, 255))
        white.paste(rgba, mask=rgba.getchannel("A"))
        return white
    return frame.convert("RGB")
