"""Size and decompression guards: no file of a few MB may cost gigabytes or minutes to open.

Every container format the office reads is checked *before* a library inflates it:

- zip packages (docx, xlsx, zip archives): the declared sizes of the members (Python's ``zipfile``
  never inflates a member past its declared size, so the declaration is a real bound), their total,
  the largest XML part, the compression ratio and the number of members;
- xlsx: the cells of every worksheet are counted by streaming its XML before openpyxl builds them;
- gzip / bzip2 / xz (``.tar.gz`` and friends): inflated in bounded steps, never past the limit;
- PDF: pypdf inflates no stream past our limit and bounds the page tree itself; pages are counted,
  and pages are rendered only when their pixel count stays under the image limit;
- images: width x height (Pillow reads only the header to know it) and the number of frames;
- any file: its size on disk before it is read at all.

A refusal raises ``TooLarge`` with the limit in the message; operations report it as
``resource_limit`` and the parsed office shows the file as ``{"kind": "corrupt", "reason":
"too_large"}``. Limits come from the environment (read once, at import) so every worker process
of a server applies the same ones; docs/security.md lists them.
"""

from __future__ import annotations

import bz2
import io
import lzma
import os
import zipfile
import zlib
from typing import IO


def _env_int(name: str, default: int) -> int:
    try:
        return int(float(os.environ.get(name, "") or default))
    except ValueError:
        return default


MB = 1 << 20
MAX_FILE_BYTES = _env_int("OFFICESIM_MAX_FILE_MB", 100) * MB  # a file any operation or the grading reads
MAX_INFLATED_BYTES = _env_int("OFFICESIM_MAX_INFLATED_MB", 200) * MB  # a container's members in total
MAX_XML_PART_BYTES = _env_int("OFFICESIM_MAX_XML_PART_MB", 32) * MB  # one XML part of a docx/xlsx
MAX_RATIO = _env_int("OFFICESIM_MAX_RATIO", 100)  # inflated / compressed, for containers past RATIO_FLOOR
RATIO_FLOOR_BYTES = 8 * MB  # small files may compress as well as they like
MAX_MEMBERS = _env_int("OFFICESIM_MAX_ZIP_MEMBERS", 10_000)
MAX_CELLS = _env_int("OFFICESIM_MAX_CELLS", 200_000)  # cells of one workbook, all sheets together
MAX_PIXELS = _env_int("OFFICESIM_MAX_PIXELS", 50_000_000)  # one image, one rendered page, one frame
MAX_FRAMES = _env_int("OFFICESIM_MAX_FRAMES", 100)  # frames of an image, pages of a PDF rendered for OCR
MAX_PDF_PAGES = _env_int("OFFICESIM_MAX_PDF_PAGES", 2_000)
MAX_PDF_STREAM_BYTES = _env_int("OFFICESIM_MAX_PDF_STREAM_MB", 8) * MB  # one inflated PDF stream (pypdf)

ZIP_SUFFIXES = {".docx", ".xlsx", ".xlsm", ".zip"}


from officesim.testbed.errors import TooLarge  # noqa: E402,F401  (raised here; defined with the other errors)

def _mb(n: float) -> str:
    return f"{n / MB:,.0f} MB" if n >= MB else f"{n / 1024:,.0f} KB"


# ---- any file ------------------------------------------------------------------------------------
def check_size(size: int, label: str = "the file") -> None:
    if size > MAX_FILE_BYTES:
        raise TooLarge(f"{label} is {_mb(size)}, over the limit of {_mb(MAX_FILE_BYTES)} for a file to open")


def read_bounded(path: str | os.PathLike, label: str = "the file") -> bytes:
    """The bytes of a file, refusing one larger than the file limit before reading it."""
    with open(path, "rb") as handle:
        check_size(os.fstat(handle.fileno()).st_size, label)
        return handle.read(MAX_FILE_BYTES + 1)


# ---- zip packages --------------------------------------------------------------------------------
def _source(data: bytes | str | os.PathLike | IO[bytes]):
    return io.BytesIO(data) if isinstance(data, (bytes, bytearray)) else data


def check_zip(data: bytes | str | os.PathLike | IO[bytes], label: str = "the file", *,
              xml_parts: bool = False, compressed_size: int | None = None) -> list[zipfile.ZipInfo]:
    """The members of a zip, after checking what inflating them would cost (TooLarge if too much).

    Not a zip at all is left for the caller's library to report as it always did (returns [])."""
    source = _source(data)
    try:
        with zipfile.ZipFile(source) as archive:
            infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return []
    if isinstance(source, io.BytesIO):
        source.seek(0)
    if len(infos) > MAX_MEMBERS:
        raise TooLarge(f"{label} holds {len(infos):,} members, over the limit of {MAX_MEMBERS:,}")
    total = sum(i.file_size for i in infos)
    if total > MAX_INFLATED_BYTES:
        raise TooLarge(f"{label} inflates to {_mb(total)}, over the limit of {_mb(MAX_INFLATED_BYTES)}")
    if compressed_size is None:
        if isinstance(data, (bytes, bytearray)):
            compressed_size = len(data)
        elif isinstance(data, (str, os.PathLike)):
            compressed_size = os.path.getsize(data)
        else:
            compressed_size = sum(i.compress_size for i in infos) or 1
    ratio = total / max(1, compressed_size)
    if total > RATIO_FLOOR_BYTES and ratio > MAX_RATIO:
        raise TooLarge(f"{label} inflates {ratio:,.0f} times ({_mb(compressed_size)} to {_mb(total)}), "
                       f"over the limit of {MAX_RATIO} times")
    if xml_parts:
        for info in infos:
            name = info.filename.lower()
            if (name.endswith(".xml") or name.endswith(".rels")) and info.file_size > MAX_XML_PART_BYTES:
                raise TooLarge(f"{label}: its part {info.filename} inflates to {_mb(info.file_size)}, "
                               f"over the limit of {_mb(MAX_XML_PART_BYTES)} for one XML part")
    return infos


def check_docx(data: bytes | str | os.PathLike, label: str = "the file") -> None:
    check_zip(data, label, xml_parts=True)


def check_xlsx(data: bytes | str | os.PathLike, label: str = "the file") -> None:
    """The package limits, then the cells of all worksheets together (counted by streaming their XML)."""
    infos = check_zip(data, label, xml_parts=True)
    sheets = [i for i in infos if i.filename.startswith("xl/worksheets/") and i.filename.endswith(".xml")]
    if not sheets:
        return
    cells = 0
    with zipfile.ZipFile(_source(data)) as archive:
        for info in sheets:
            with archive.open(info) as stream:
                tail = b""
                while chunk := stream.read(1 << 20):
                    block = tail + chunk
                    cells += block.count(b"<c ") + block.count(b"<c>")
                    tail = block[-2:]
                    if cells > MAX_CELLS:
                        raise TooLarge(f"{label} holds more than {MAX_CELLS:,} cells (in {info.filename}), "
                                       f"over the limit for a workbook")


# ---- compressed streams --------------------------------------------------------------------------
def inflate(data: bytes, kind: str, label: str = "the file", limit: int | None = None) -> bytes:
    """gzip / bzip2 / xz ``data`` inflated, refusing (TooLarge) past ``limit`` bytes."""
    limit = MAX_INFLATED_BYTES if limit is None else limit
    if kind == "gz":
        engine = zlib.decompressobj(wbits=47)  # gzip or zlib header, auto-detected
        out = engine.decompress(data, limit + 1)
        rest = engine.unconsumed_tail
    elif kind == "bz2":
        engine = bz2.BZ2Decompressor()
        out = engine.decompress(data, max_length=limit + 1)
        rest = b"" if engine.eof else b"?"
    elif kind == "xz":
        engine = lzma.LZMADecompressor()
        out = engine.decompress(data, max_length=limit + 1)
        rest = b"" if engine.eof else b"?"
    else:
        raise ValueError(f"unknown compression {kind!r}")
    if len(out) > limit or (rest and len(out) >= limit):
        raise TooLarge(f"{label} inflates past {_mb(limit)}, the limit for a compressed file")
    return out


def peek(data: bytes, kind: str, size: int = 512) -> bytes:
    """The first ``size`` inflated bytes of gzip / bzip2 / xz ``data`` (nothing more is inflated)."""
    try:
        if kind == "gz":
            return zlib.decompressobj(wbits=47).decompress(data, size)
        engine = bz2.BZ2Decompressor() if kind == "bz2" else lzma.LZMADecompressor()
        return engine.decompress(data, max_length=size)
    except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError):
        return b""


def compression_of(data: bytes) -> str | None:
    """'gz', 'bz2' or 'xz' from the magic bytes, or None."""
    if data[:2] == b"\x1f\x8b":
        return "gz"
    if data[:3] == b"BZh":
        return "bz2"
    if data[:6] == b"\xfd7zXZ\x00":
        return "xz"
    return None


# ---- images --------------------------------------------------------------------------------------
def check_image(img, label: str = "the image") -> None:
    """An opened (not yet decoded) Pillow image: its pixels and frames within the limits."""
    width, height = img.size
    if width * height > MAX_PIXELS:
        raise TooLarge(f"{label} is {width:,} x {height:,} pixels, over the limit of {MAX_PIXELS:,} pixels")
    frames = getattr(img, "n_frames", 1) or 1
    if frames > MAX_FRAMES:
        raise TooLarge(f"{label} has {frames:,} frames, over the limit of {MAX_FRAMES:,}")


def check_render(width_pt: float, height_pt: float, scale: float, label: str = "a page") -> None:
    """A PDF page about to be rendered at ``scale`` pixels per point."""
    pixels = max(0.0, width_pt * scale) * max(0.0, height_pt * scale)
    if pixels > MAX_PIXELS:
        raise TooLarge(f"{label} would render to {pixels:,.0f} pixels, over the limit of {MAX_PIXELS:,} pixels")


def check_pdf_pages(reader, indices, scale: float | None, label: str = "the PDF") -> None:
    """Pages of a pypdf reader about to be rendered (PDFium parses a page's whole content, with no
    limit of its own): each content stream within the stream limit, and, when ``scale`` (pixels per
    point) is given, the rendered size within the pixel limit."""
    from pypdf.errors import LimitReachedError, PdfReadError

    for i in indices:
        page = reader.pages[i]
        if scale is not None:
            box = page.mediabox
            check_render(float(box.width), float(box.height), scale, f"{label} page {i + 1}")
        try:
            contents = page.get_contents()
            if contents is not None:
                contents.get_data()
        except LimitReachedError:
            raise TooLarge(f"{label} page {i + 1}: its content inflates past {_mb(MAX_PDF_STREAM_BYTES)}, "
                           f"the limit for one PDF stream") from None
        except (PdfReadError, ValueError, KeyError, TypeError):
            pass  # unreadable content is the renderer's to report


def check_pages(count: int, label: str = "the PDF", limit: int | None = None) -> None:
    limit = MAX_PDF_PAGES if limit is None else limit
    if count > limit:
        raise TooLarge(f"{label} has {count:,} pages, over the limit of {limit:,}")


# ---- libraries configured once -------------------------------------------------------------------
def configure_libraries() -> None:
    """Pillow refuses decompression bombs past our pixel limit; pypdf inflates no stream past
    ``MAX_PDF_STREAM_BYTES`` (it bounds page-tree depth and size itself). ``pypdf``'s configuration
    is per thread of execution: the workers run operations in their main thread, where this is set."""
    try:
        from PIL import Image

        Image.MAX_IMAGE_PIXELS = MAX_PIXELS // 2  # Pillow raises at twice this, warns above it
    except ImportError:  # pragma: no cover - Pillow is a dependency
        pass
    try:  # pypdf >= 6: streams of an office's PDFs are far smaller than its default 75 MB
        import pypdf

        pypdf.overwrite_configuration(**{
            name: min(getattr(pypdf.get_configuration(), name), MAX_PDF_STREAM_BYTES)
            for name in ("zlib_maximum_output_length", "lzw_maximum_output_length", "run_length_maximum_output_length",
                         "maximum_declared_stream_length", "stream_decoding_work_maximum_length")
            if hasattr(pypdf.get_configuration(), name)})
    except (ImportError, AttributeError, TypeError):  # older pypdf: its module-level limits apply
        pass


def open_image(source, label: str = "the image"):
    """``PIL.Image.open`` (header only), refusing an image past the pixel or frame limits."""
    from PIL import Image

    try:
        img = Image.open(source)
    except Image.DecompressionBombError as exc:
        raise TooLarge(f"{label} is too large to open ({exc}; the limit is {MAX_PIXELS:,} pixels)") from None
    try:
        check_image(img, label)
    except TooLarge:
        img.close()
        raise
    return img


configure_libraries()

