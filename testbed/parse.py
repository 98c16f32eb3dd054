"""Parse an office directory into plain data (tasks/FORMAT.md section 3).

Evaluators, the outcome diff and the validator all look at an office through this one view, so a
check never depends on how a file happened to be written (which library, which zip timestamps,
which event UID). Parsing never raises: a file its parser rejects becomes ``kind: "corrupt"``, and
one that would pass a limit of testbed/guards.py (inflated size, cells, pixels, file size) becomes
``kind: "corrupt"`` with ``reason: "too_large"`` and the limit in ``error``.

Parsed entries are cached by file content (sha256) and timezone, so the many snapshots of one
session, and all the sessions of one task, parse each distinct file once. Entries are returned as
fresh objects, so callers may mutate them freely.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import hashlib
import errno
import io
import os
import pickle
import threading
from collections import OrderedDict
from datetime import date, datetime, time, timedelta, timezone as dt_timezone
from pathlib import Path, PurePosixPath
from typing import Any
from zoneinfo import ZoneInfo

from officesim.testbed import pickles, safefs
from officesim.testbed.guards import (MAX_FILE_BYTES, TooLarge, check_docx, check_pages, check_pdf_pages, check_xlsx, open_image,
                                      check_zip, compression_of, inflate, peek, read_bounded)

TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
DATE_FORMAT = "%Y-%m-%d"

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp"}
TEXT_SUFFIXES = {".txt", ".md", ".csv", ".tsv", ".json", ".log", ".xml", ".html", ".htm", ".yaml",
                 ".yml", ".ini", ".cfg", ".conf", ".py", ".sh", ".rst", ".toml", ".vcf"}

_CACHE_LIMIT = 4096
_CACHE_BYTES = 128 << 20  # pickled entries kept in all (per process: each worker has its own)
_cache: "OrderedDict[tuple, bytes]" = OrderedDict()
_cache_size = 0
_cache_lock = threading.Lock()


# ---- public entry points -------------------------------------------------------------------------
def office_files(root: str | os.PathLike) -> list[str]:
    """The office's regular files (symlinks skipped), as sorted office-relative POSIX paths."""
    base = Path(root)
    out = []
    for dirpath, _dirs, names in os.walk(base):
        for name in names:
            full = Path(dirpath) / name
            if full.is_symlink() or not full.is_file():
                continue
            out.append(full.relative_to(base).as_posix())
    return sorted(out)


def parse_office(root: str | os.PathLike, timezone: str = "UTC", only: list[str] | None = None) -> dict[str, dict]:
    """Every regular file of the office (symlinks skipped), keyed by office-relative POSIX path; with
    ``only``, just those of its paths that are such files."""
    base = Path(root)
    wanted = office_files(base) if only is None else [r for r in office_files(base) if r in set(only)]
    return {rel: parse_file(base / rel, rel, timezone, root=base) for rel in wanted}


def file_digests(root: str | os.PathLike) -> dict[str, tuple[int, str, tuple[int, int]]]:
    """Each regular file's size, SHA-256 and inode (device, number): what tells an office's unchanged
    files from its changed ones (a linked session's unchanged file is the template's inode)."""
    base = Path(root)
    out = {}
    for rel in office_files(base):
        st = os.stat(base / rel, follow_symlinks=False)
        out[rel] = (st.st_size, file_sha256(base / rel, root=base), (st.st_dev, st.st_ino))
    return out


def file_sha256(path: str | os.PathLike, root: str | os.PathLike | None = None) -> str:
    """A file's SHA-256, read in chunks; with ``root`` (an office), opened beneath it following no
    link (testbed/safefs.py), so a link swapped in is refused (OSError), never read."""
    h = hashlib.sha256()
    if root is not None:
        fd = safefs.open_beneath(root, Path(path).relative_to(root).as_posix(), os.O_RDONLY | os.O_NONBLOCK)
        safefs.fstat_regular(fd, str(path))
    else:
        fd = os.open(path, os.O_RDONLY)
    with os.fdopen(fd, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def parse_file(path: str | os.PathLike, relpath: str, timezone: str = "UTC",
               root: str | os.PathLike | None = None) -> dict:
    """One file as a FORMAT.md section 3 entry; ``relpath`` gives the mailbox/calendar owner. With
    ``root`` (the office), the file is opened beneath it without following any link."""
    try:
        if root is None:
            data = read_bounded(path, relpath)
        else:
            data = safefs.read_beneath(root, relpath, MAX_FILE_BYTES)
    except TooLarge as exc:
        entry = too_large_entry(str(exc), os.path.getsize(path))
        _add_path_fields(entry, relpath)
        return entry
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            entry = too_large_entry(f"{relpath} is over the limit of {MAX_FILE_BYTES >> 20} MB for a file to open",
                                    os.stat(path, follow_symlinks=False).st_size)
            _add_path_fields(entry, relpath)
            return entry
        return {"kind": "corrupt", "error": f"unreadable: {exc.strerror or type(exc).__name__}", "size": 0,
                "sha256": _sha(b"")}
    except OSError as exc:
        return {"kind": "corrupt", "error": f"unreadable: {exc.strerror or type(exc).__name__}", "size": 0,
                "sha256": _sha(b"")}
    return parse_bytes(data, relpath, timezone)


def too_large_entry(message: str, size: int = 0, digest: str | None = None) -> dict:
    """The entry of a file that could not be parsed within the limits (guards, time or memory)."""
    return {"kind": "corrupt", "reason": "too_large", "error": message[:300], "size": size,
            "sha256": digest or ""}


def parse_bytes(data: bytes, relpath: str, timezone: str = "UTC") -> dict:
    """Parse file content as if it lived at ``relpath`` (the suffix picks the parser)."""
    suffix = PurePosixPath(relpath).suffix.lower()
    digest = _sha(data)
    key = (suffix, digest, timezone)
    with _cache_lock:
        cached = _cache.get(key)
        if cached is not None:
            _cache.move_to_end(key)
    if cached is not None:
        entry = pickles.loads(cached)
    else:
        entry = _parse_content(data, suffix, digest, timezone)
        blob = pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)
        _remember(key, blob)
    _add_path_fields(entry, relpath)
    return entry


def _remember(key: tuple, blob: bytes) -> None:
    """Keep a parsed entry, within the cache's entry and byte limits (oldest out first)."""
    global _cache_size
    if len(blob) > _CACHE_BYTES // 8:
        return
    with _cache_lock:
        if key not in _cache:
            _cache[key] = blob
            _cache_size += len(blob)
        while len(_cache) > _CACHE_LIMIT or _cache_size > _CACHE_BYTES:
            _cache_size -= len(_cache.popitem(last=False)[1])


# ---- dispatch ------------------------------------------------------------------------------------
def _parse_content(data: bytes, suffix: str, digest: str, tz: str) -> dict:
    parser = _PARSERS.get(suffix)
    if parser is None:
        if suffix in IMAGE_SUFFIXES:
            parser = _parse_image
        elif suffix in TEXT_SUFFIXES:
            parser = _parse_text
        else:
            return _text_or_binary(data, digest)
    try:
        entry = parser(data, tz)
    except TooLarge as exc:
        return too_large_entry(str(exc), len(data), digest)
    except MemoryError:
        return too_large_entry("parsing it needs more memory than an operation may use", len(data), digest)
    except RecursionError:
        return too_large_entry("it is nested too deeply to parse", len(data), digest)
    except Exception as exc:  # any parser failure means the file is corrupt, never a crash
        message = f"{type(exc).__name__}: {exc}".strip()
        return {"kind": "corrupt", "error": message[:300], "size": len(data), "sha256": digest}
    if entry["kind"] in ("image",):
        entry["sha256"] = digest
    return entry


def _add_path_fields(entry: dict, relpath: str) -> None:
    """Fields that come from where the file lives rather than what it holds."""
    parts = PurePosixPath(relpath).parts
    if entry["kind"] == "eml":
        mailbox, folder = None, None
        if len(parts) == 3 and parts[0] == "emails":
            mailbox, folder = parts[1].lower(), "inbox"
        elif len(parts) == 4 and parts[0] == "emails" and parts[2] == "sent":
            mailbox, folder = parts[1].lower(), "sent"
        entry["mailbox"] = mailbox
        entry["folder"] = folder
        entry["id"] = PurePosixPath(relpath).stem
    elif entry["kind"] == "ics":
        user = None
        if len(parts) == 2 and parts[0] == "calendar":
            user = PurePosixPath(parts[1]).stem.lower()
        entry["user"] = user


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ---- xlsx ----------------------------------------------------------------------------------------
def _cell_value(v: Any) -> Any:
    """openpyxl values as JSON-able scalars; dates as ISO strings (date only at midnight)."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, datetime):
        if v.time() == time(0, 0):
            return v.strftime(DATE_FORMAT)
        return v.strftime(TIME_FORMAT)
    if isinstance(v, date):
        return v.strftime(DATE_FORMAT)
    if isinstance(v, time):
        return v.strftime("%H:%M:%S")
    if isinstance(v, timedelta):
        return str(v)
    return str(v)


def _sheet_rows(ws) -> list[list[Any]]:
    """The used range from A1, trailing empty rows and columns trimmed, rectangular."""
    rows: list[list[Any]] = []
    for row in ws.iter_rows(values_only=True):
        rows.append([_cell_value(v) for v in row])
    while rows and all(v is None for v in rows[-1]):
        rows.pop()
    width = 0
    for row in rows:
        for i in range(len(row) - 1, -1, -1):
            if row[i] is not None:
                width = max(width, i + 1)
                break
    return [(row + [None] * width)[:width] for row in rows]


def _parse_xlsx(data: bytes, tz: str) -> dict:
    """Cells by value: a formula cell holds what it computes (testbed/spreadsheet.py); the formula
    texts and any formula that could not be evaluated are listed beside the sheets."""
    import openpyxl

    from officesim.testbed.spreadsheet import FormulaProblem, formula_cells, formula_values

    check_xlsx(data)
    wb = openpyxl.load_workbook(io.BytesIO(data), data_only=False)
    sheets = {ws.title: _sheet_rows(ws) for ws in wb.worksheets}
    entry: dict = {"kind": "xlsx", "sheets": sheets, "sheet_order": [ws.title for ws in wb.worksheets]}
    cells = formula_cells(wb)
    if cells:
        formulas, problems = {}, {}
        for (sheet, r, c), value in formula_values(data, cells).items():
            ref = f"{sheet}!{_cell_ref(r, c)}"
            formulas[ref] = cells[(sheet, r, c)]
            rows = sheets[sheet]
            if isinstance(value, FormulaProblem):
                problems[ref] = value.reason
            elif r - 1 < len(rows) and c - 1 < len(rows[r - 1]):
                rows[r - 1][c - 1] = _cell_value(value)
        entry["formulas"] = formulas
        if problems:
            entry["formula_problems"] = problems
    return entry


def _cell_ref(row: int, col: int) -> str:
    from openpyxl.utils import get_column_letter

    return f"{get_column_letter(col)}{row}"


# ---- docx ----------------------------------------------------------------------------------------
def _parse_docx(data: bytes, tz: str) -> dict:
    import docx

    check_docx(data)
    doc = docx.Document(io.BytesIO(data))
    paragraphs = [p.text for p in doc.paragraphs]
    tables = [[[cell.text for cell in row.cells] for row in table.rows] for table in doc.tables]
    return {"kind": "docx", "paragraphs": paragraphs, "tables": tables}


# ---- pdf -----------------------------------------------------------------------------------------
def _parse_pdf(data: bytes, tz: str) -> dict:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data), strict=False)
    if reader.is_encrypted:
        reader.decrypt("")
    check_pages(len(reader.pages))
    pages = [(page.extract_text() or "") for page in reader.pages]
    entry: dict = {"kind": "pdf", "pages": pages}
    if any(not p.strip() for p in pages):  # scanned pages: compared by what they show
        blank = [i for i, p in enumerate(pages) if not p.strip()]
        check_pdf_pages(reader, blank, 0.5)
        entry["page_digests"] = _page_digests(data, blank)
    return entry


def _page_digests(data: bytes, indices: list[int]) -> dict[str, str]:
    """Picture digests of some pages (0-based index -> digest), rendered small by PDFium."""
    import pypdfium2 as pdfium

    from officesim.testbed.convert import PDFIUM_LOCK

    out = {}
    with PDFIUM_LOCK:
        document = pdfium.PdfDocument(data)
        try:
            for i in indices:
                page = document[i]
                try:
                    bitmap = page.render(scale=0.5)
                    out[str(i)] = picture_digest(bitmap.to_pil())
                finally:
                    page.close()
        finally:
            document.close()
    return out


# ---- eml -----------------------------------------------------------------------------------------
def _addresses(values: list[str]) -> list[str]:
    return [addr.strip().lower() for _name, addr in email.utils.getaddresses(values) if addr.strip()]


def _local_time(dt: datetime, tz: str) -> datetime:
    """An aware datetime as naive wall-clock time of the task's timezone."""
    return dt.astimezone(_zone(tz)).replace(tzinfo=None)


def _zone(tz: str):
    try:
        return ZoneInfo(tz or "UTC")
    except Exception:
        return dt_timezone.utc


def _text_of(part) -> str:
    try:
        return part.get_content()
    except Exception:
        payload = part.get_payload(decode=True) or b""
        return payload.decode(part.get_content_charset() or "utf-8", errors="replace")


def _parse_eml(data: bytes, tz: str) -> dict:
    msg = email.message_from_bytes(data, policy=email.policy.default)
    if not msg.keys():
        raise ValueError("no headers")

    def header(name: str) -> str:
        values = msg.get_all(name) or []
        return " ".join(str(v) for v in values).strip()

    raw_date = header("Date")
    shown_date = raw_date
    if raw_date:
        try:
            when = email.utils.parsedate_to_datetime(raw_date)
            shown_date = (_local_time(when, tz) if when.tzinfo else when).strftime(TIME_FORMAT)
        except (TypeError, ValueError, IndexError):
            pass
    body_part = msg.get_body(preferencelist=("plain",))
    if body_part is None:
        html = msg.get_body(preferencelist=("html",))
        body = _strip_html(_text_of(html)) if html is not None else ""
    else:
        body = _text_of(body_part)
    attachments = []
    for part in msg.iter_attachments():
        payload = part.get_payload(decode=True) or b""
        name = part.get_filename() or ""
        attachments.append({"filename": name, "size": len(payload), "sha256": _sha(payload),
                            "content": _attachment_content(payload, name, tz)})
    from_ = _addresses(msg.get_all("From") or [])
    return {
        "kind": "eml", "mailbox": None, "folder": None, "id": "",
        "from": from_[0] if from_ else "",
        "to": _addresses(msg.get_all("To") or []),
        "cc": _addresses(msg.get_all("Cc") or []),
        "subject": header("Subject"),
        "date": shown_date,
        "message_id": header("Message-ID"),
        "in_reply_to": header("In-Reply-To") or None,
        "body": body.replace("\r\n", "\n"),
        "attachments": attachments,
    }


def _attachment_content(payload: bytes, filename: str, tz: str) -> dict:
    """An attachment parsed as the file it is (so a document is compared by what it says, not by its
    bytes); an attached message is not opened again (no nesting)."""
    suffix = PurePosixPath(filename or "attachment").suffix.lower()
    if suffix == ".eml":
        return {"kind": "eml-attachment", "sha256": _sha(payload)}
    return _parse_content(payload, suffix, _sha(payload), tz)


def _strip_html(html: str) -> str:
    import re
    from html import unescape

    text = re.sub(r"(?is)<(script|style).*?</\1>", "", html)
    text = re.sub(r"(?i)<br\s*/?>|</p>", "\n", text)
    return unescape(re.sub(r"<[^>]+>", "", text)).strip()


# ---- ics -----------------------------------------------------------------------------------------
def _ics_time(value: Any, tz: str) -> tuple[str, bool]:
    """(formatted time, all_day) of a DTSTART/DTEND value in the task's timezone."""
    if isinstance(value, datetime):
        local = _local_time(value, tz) if value.tzinfo else value
        return local.strftime(TIME_FORMAT), False
    if isinstance(value, date):
        return value.strftime(DATE_FORMAT), True
    raise ValueError(f"unsupported time value {value!r}")


def _ics_text(component, name: str) -> str | None:
    value = component.get(name)
    return None if value is None else str(value)


def _parse_ics(data: bytes, tz: str) -> dict:
    from icalendar import Calendar

    cal = Calendar.from_ical(data)
    events = []
    for comp in cal.walk("VEVENT"):
        start_prop = comp.get("DTSTART")
        if start_prop is None:
            raise ValueError("an event has no DTSTART")
        start_value = start_prop.dt
        start, all_day = _ics_time(start_value, tz)
        end_prop = comp.get("DTEND")
        if end_prop is not None:
            end_value = end_prop.dt
        elif comp.get("DURATION") is not None:
            end_value = start_value + comp.get("DURATION").dt
        else:
            end_value = start_value + timedelta(days=1) if all_day else start_value
        if all_day:
            # DTEND of an all-day event is exclusive; show the last day the event covers.
            last = end_value if not isinstance(end_value, datetime) else end_value.date()
            end = max(last - timedelta(days=1), start_value).strftime(DATE_FORMAT)
        else:
            end, _ = _ics_time(end_value, tz)
        attendees = comp.get("ATTENDEE") or []
        if not isinstance(attendees, list):
            attendees = [attendees]
        events.append({
            "uid": _ics_text(comp, "UID"),
            "summary": _ics_text(comp, "SUMMARY") or "",
            "start": start,
            "end": end,
            "all_day": all_day,
            "location": _ics_text(comp, "LOCATION"),
            "description": _ics_text(comp, "DESCRIPTION"),
            "attendees": [_mailto(str(a)) for a in attendees],
        })
    return {"kind": "ics", "user": None, "events": events}


def _mailto(value: str) -> str:
    value = value.strip()
    if value.lower().startswith("mailto:"):
        value = value[7:]
    return value.strip().lower()


# ---- images, text, anything else -----------------------------------------------------------------
def _parse_image(data: bytes, tz: str) -> dict:
    from PIL import Image

    with open_image(io.BytesIO(data)) as img:
        width, height = img.size
        img.verify()
    with Image.open(io.BytesIO(data)) as img:
        digest = picture_digest(img)
    return {"kind": "image", "width": width, "height": height, "sha256": "", "digest": digest}


def picture_digest(img) -> str:
    """A perceptual digest of a picture, ``<layout>:<content>`` (64 hex digits each): a difference
    hash of the whole picture at 16x16 gray levels, and an average hash of its inked area (the box
    around what is not background), which tells apart two pages of text that look alike from afar.
    The same picture re-encoded, rescaled or embedded in a PDF keeps both close; another does not."""
    from PIL import Image, ImageOps

    gray = img.convert("L")
    small = gray.resize((17, 16), Image.Resampling.LANCZOS).tobytes()
    layout = 0
    for row in range(16):
        for col in range(16):
            layout = (layout << 1) | (small[row * 17 + col] > small[row * 17 + col + 1])
    box = ImageOps.invert(gray).point(lambda v: 255 if v > 64 else 0).getbbox()
    inked = (gray.crop(box) if box else gray).resize((16, 16), Image.Resampling.BOX).tobytes()
    mean = sum(inked) / len(inked)
    content = 0
    for v in inked:  # clearly darker than the area's average (a uniform area hashes to 0)
        content = (content << 1) | (v < mean - 16)
    return f"{layout:064x}:{content:064x}"


def digest_distance(a: str, b: str) -> int:
    """How far apart two picture digests are: the larger of the bits (of 256) in which their layout
    and their content hashes differ (0 = the same picture)."""
    parts_a, parts_b = a.split(":"), b.split(":")
    if len(parts_a) != len(parts_b):
        return 256
    return max(bin(int(x, 16) ^ int(y, 16)).count("1") for x, y in zip(parts_a, parts_b))


def _parse_text(data: bytes, tz: str) -> dict:
    return {"kind": "text", "text": data.decode("utf-8-sig").replace("\r\n", "\n")}


def _text_or_binary(data: bytes, digest: str) -> dict:
    """Unknown suffix: UTF-8 without NUL bytes reads as text, anything else is binary."""
    if b"\x00" not in data:
        try:
            return _parse_text(data, "UTC")
        except UnicodeDecodeError:
            pass
    return {"kind": "binary", "size": len(data), "sha256": digest}


# ---- archives ------------------------------------------------------------------------------------
_ARCHIVE_READ_LIMIT = 64 * 1024 * 1024  # bytes of members hashed per archive; past it, sizes only


def _parse_zip(data: bytes, tz: str) -> dict:
    import zipfile

    members, budget = [], _ARCHIVE_READ_LIMIT
    check_zip(data)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            if info.is_dir():
                continue
            digest = None
            if info.file_size <= budget:
                budget -= info.file_size
                digest = _sha(archive.read(info))
            members.append({"name": info.filename, "size": info.file_size, "sha256": digest})
    return {"kind": "archive", "format": "zip", "members": sorted(members, key=lambda m: m["name"])}


def _parse_tar(data: bytes, tz: str) -> dict:
    import tarfile

    members, budget = [], _ARCHIVE_READ_LIMIT
    kind = compression_of(data)
    if kind:  # a compressed single file (notes.txt.gz) is not inflated at all; an archive only so far
        try:
            tarfile.TarInfo.frombuf(peek(data, kind), "utf-8", "surrogateescape")
        except tarfile.TarError:
            return {"kind": "binary", "size": len(data), "sha256": _sha(data)}
    plain = inflate(data, kind) if kind else data
    try:
        archive = tarfile.open(fileobj=io.BytesIO(plain), mode="r:")
    except tarfile.ReadError:  # a compressed single file (notes.txt.gz), not an archive
        return {"kind": "binary", "size": len(data), "sha256": _sha(data)}
    with archive:
        for info in archive.getmembers():
            if not info.isfile():
                continue
            digest = None
            if info.size <= budget:
                budget -= info.size
                handle = archive.extractfile(info)
                digest = _sha(handle.read()) if handle else None
            members.append({"name": info.name, "size": info.size, "sha256": digest})
    return {"kind": "archive", "format": "tar", "members": sorted(members, key=lambda m: m["name"])}


_PARSERS = {
    ".zip": _parse_zip, ".tar": _parse_tar, ".tgz": _parse_tar, ".gz": _parse_tar, ".bz2": _parse_tar,
    ".xz": _parse_tar,
    ".xlsx": _parse_xlsx, ".xlsm": _parse_xlsx,
    ".docx": _parse_docx,
    ".pdf": _parse_pdf,
    ".eml": _parse_eml,
    ".ics": _parse_ics,
}
