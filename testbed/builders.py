"""Build the initial office of a task from its ``files/`` tree and its builders (FORMAT.md section 4).

Builders are deterministic: the same task gives the same bytes, so a template can be cached by the
task's content and two runs of one task start from identical files. Everything a library would
stamp with the current time (zip entry dates, document properties, PDF creation date, e-mail
boundaries, event DTSTAMPs) is pinned to the task's simulated ``now`` or to fixed values.
"""

from __future__ import annotations

import hashlib
import io
import mimetypes
import re
import shutil
import zipfile
from datetime import datetime, timedelta, timezone as dt_timezone
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any, Callable
from zoneinfo import ZoneInfo

from officesim.testbed.specs import (TIME_FORMAT, DocxBuilder, EmlBuilder, IcsBuilder, ImageBuilder, OfficeSpec,
                                     PdfBuilder, TextBuilder, XlsxBuilder)
from officesim.testbed.office import Office

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONT_REGULAR = FONT_DIR / "DejaVuSans.ttf"
FONT_BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
ZIP_EPOCH = (2020, 1, 1, 0, 0, 0)


def build_office(task: OfficeSpec, dest: str | Path, source: Path | None = None) -> Office:
    """Create the task's initial office in ``dest``: copy the folder it starts from (``source``, else its
    ``office_from``), then ``files/``, then run builders in order."""
    root = Path(dest)
    root.mkdir(parents=True, exist_ok=True)
    source = source if source is not None else office_source(task)
    if source is not None:
        shutil.copytree(source, root, dirs_exist_ok=True)
    if task.source_dir:
        files = Path(task.source_dir) / "files"
        if files.is_dir():
            shutil.copytree(files, root, dirs_exist_ok=True)
    office = Office(root)
    for folder in ("data", f"emails/{task.user.lower()}", "calendar"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    for builder in task.office:
        _BUILDERS[builder.type](task, office, builder)
    return office


def office_source(task: OfficeSpec) -> Path | None:
    """The folder named by the task's ``office_from`` (relative to the task's folder), or None."""
    name = getattr(task, "office_from", None)
    if not name:
        return None
    base = Path(task.source_dir) if task.source_dir else Path.cwd()
    source = (base / name).resolve()
    if not source.is_dir():
        raise FileNotFoundError(f"task {task.id}: office_from {name!r} is not a folder ({source})")
    return source


def _when(task: OfficeSpec) -> datetime:
    """The task's simulated now (naive local time), used wherever a file wants a timestamp."""
    return task.now_dt


def _target(office: Office, path: str) -> Path:
    real = office.resolve(path)
    real.parent.mkdir(parents=True, exist_ok=True)
    return real


# ---- zip-based formats ---------------------------------------------------------------------------
_CORE_DATES = re.compile(rb"(<dcterms:(created|modified)[^>]*>)[^<]*(</dcterms:\2>)")


def normalize_zip(data: bytes, stamp: datetime) -> bytes:
    """Rewrite an OOXML package with fixed entry dates and fixed created/modified properties."""
    iso = stamp.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as dst:
        for info in src.infolist():
            content = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                content = _CORE_DATES.sub(lambda m: m.group(1) + iso + m.group(3), content)
            fixed = zipfile.ZipInfo(info.filename, date_time=ZIP_EPOCH)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o600 << 16
            dst.writestr(fixed, content)
    return out.getvalue()


def _cell(value: Any) -> Any:
    """Builder cell values as openpyxl wants them; date-looking strings stay strings."""
    if isinstance(value, (dict, list)):
        return str(value)
    return value


def build_xlsx(task: OfficeSpec, office: Office, b: XlsxBuilder) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    wb.remove(wb.active)
    for name, rows in b.sheets.items():
        ws = wb.create_sheet(title=name)
        for r, row in enumerate(rows, start=1):
            for c, value in enumerate(row, start=1):
                if value is not None:
                    ws.cell(row=r, column=c, value=_cell(value))
    wb.properties.creator = task.user_name or task.user
    wb.properties.created = _when(task)
    buf = io.BytesIO()
    wb.save(buf)
    _target(office, b.path).write_bytes(normalize_zip(buf.getvalue(), _when(task)))


def build_docx(task: OfficeSpec, office: Office, b: DocxBuilder) -> None:
    import docx

    doc = docx.Document()
    for p in b.paragraphs:
        if isinstance(p, str):
            doc.add_paragraph(p)
        else:
            doc.add_paragraph(p.text, style=p.style) if p.style else doc.add_paragraph(p.text)
    for rows in b.tables:
        if not rows:
            continue
        width = max(len(r) for r in rows)
        table = doc.add_table(rows=len(rows), cols=width)
        table.style = "Table Grid"
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                table.cell(r, c).text = "" if value is None else str(value)
    props = doc.core_properties
    props.author = task.user_name or task.user
    props.last_modified_by = task.user_name or task.user
    props.created = props.modified = _when(task)
    props.revision = 1
    buf = io.BytesIO()
    doc.save(buf)
    _target(office, b.path).write_bytes(normalize_zip(buf.getvalue(), _when(task)))


# ---- pdf -----------------------------------------------------------------------------------------
def text_pdf(pages: list[str], title: str | None, stamp: datetime) -> bytes:
    """A PDF with one page per text, laid out as the apps' own conversions lay text out."""
    from officesim.testbed.convert import TextPdf

    out = TextPdf()
    for i, text in enumerate(pages):
        if i:
            out.new_page()
        out.paragraph(text)
    return out.render(title=title, created=stamp)


def build_pdf(task: OfficeSpec, office: Office, b: PdfBuilder) -> None:
    _target(office, b.path).write_bytes(text_pdf(b.pages, b.title, _when(task)))


# ---- text and images -----------------------------------------------------------------------------
def build_text(task: OfficeSpec, office: Office, b: TextBuilder) -> None:
    _target(office, b.path).write_bytes(b.content.encode("utf-8"))


def render_text_image(text: str, font_size: int = 28, width: int | None = None, height: int | None = None):
    """Black text on white, sized to the text with margins, large enough for OCR."""
    from PIL import Image, ImageDraw, ImageFont

    try:
        font = ImageFont.truetype(str(FONT_REGULAR), font_size)
    except OSError:
        font = ImageFont.load_default(size=font_size)
    spacing = max(4, font_size // 3)
    probe = ImageDraw.Draw(Image.new("L", (1, 1), 255))
    left, top, right, bottom = probe.multiline_textbbox((0, 0), text or " ", font=font, spacing=spacing)
    margin = max(16, font_size)
    w = width or (right - left) + 2 * margin
    h = height or (bottom - top) + 2 * margin
    img = Image.new("RGB", (w, h), "white")
    ImageDraw.Draw(img).multiline_text((margin - left, margin - top), text, fill="black", font=font, spacing=spacing)
    return img


def build_image(task: OfficeSpec, office: Office, b: ImageBuilder) -> None:
    img = render_text_image(b.text, b.font_size, b.width, b.height)
    target = _target(office, b.path)
    fmt = {".jpg": "JPEG", ".jpeg": "JPEG", ".gif": "GIF", ".bmp": "BMP", ".tif": "TIFF",
           ".tiff": "TIFF", ".webp": "WEBP"}.get(target.suffix.lower(), "PNG")
    buf = io.BytesIO()
    img.save(buf, format=fmt, **({"quality": 95} if fmt == "JPEG" else {}))
    target.write_bytes(buf.getvalue())


# ---- email ---------------------------------------------------------------------------------------
def _zone(name: str):
    try:
        return ZoneInfo(name or "UTC")
    except Exception:
        return dt_timezone.utc


def _next_id(folder: Path) -> str:
    """msg-<n> with the next free n, the same naming the email app uses for new mail."""
    taken = {p.stem for p in folder.glob("*.eml")}
    n = 1
    while f"msg-{n}" in taken:
        n += 1
    return f"msg-{n}"


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def build_eml(task: OfficeSpec, office: Office, b: EmlBuilder) -> None:
    user = b.user.strip().lower()
    folder = office.mailbox(user, b.folder)
    folder.mkdir(parents=True, exist_ok=True)
    stem = b.id or _next_id(folder)
    to = [b.to] if isinstance(b.to, str) else list(b.to)
    msg = EmailMessage()
    msg["From"] = b.from_
    msg["To"] = ", ".join(to)
    if b.cc:
        msg["Cc"] = ", ".join(b.cc)
    msg["Subject"] = b.subject
    sent = datetime.strptime(b.date, TIME_FORMAT).replace(tzinfo=_zone(task.timezone))
    msg["Date"] = format_datetime(sent)
    domain = b.from_.rsplit("@", 1)[-1].strip(" >").lower() or "officesim.test"
    msg["Message-ID"] = f"<{_digest(task.id, user, b.folder, stem)[:24]}@{domain}>"
    msg.set_content(b.body)
    for path in b.attachments:
        real = office.resolve(path)
        if not real.is_file():
            raise FileNotFoundError(f"attachment {path} of email {stem} does not exist (build it earlier)")
        ctype = mimetypes.guess_type(real.name)[0] or "application/octet-stream"
        maintype, subtype = ctype.split("/", 1)
        msg.add_attachment(real.read_bytes(), maintype=maintype, subtype=subtype, filename=real.name)
    # Generated boundaries are random; fix them so the bytes are reproducible.
    for i, part in enumerate(msg.walk()):
        if part.is_multipart():
            part.set_boundary(f"==officesim-{_digest(task.id, user, stem)[:16]}-{i}==")
    (folder / f"{stem}.eml").write_bytes(msg.as_bytes(policy=policy.default))


# ---- calendar ------------------------------------------------------------------------------------
def _event_time(value: str, tz: str | None):
    if " " not in value:
        return datetime.strptime(value, "%Y-%m-%d").date()
    when = datetime.strptime(value, TIME_FORMAT)
    return when.replace(tzinfo=ZoneInfo(tz)) if tz else when


def build_ics(task: OfficeSpec, office: Office, b: IcsBuilder) -> None:
    from icalendar import Calendar, Event, vCalAddress

    target = _target(office, f"calendar/{b.user.strip().lower()}.ics")
    if target.exists():
        cal = Calendar.from_ical(target.read_bytes())
    else:
        cal = Calendar()
        cal.add("prodid", "-//officesim//calendar//EN")
        cal.add("version", "2.0")
    stamp = task.now_dt.replace(tzinfo=_zone(task.timezone)).astimezone(dt_timezone.utc)
    offset = len(cal.walk("VEVENT"))
    for n, ev in enumerate(b.events, start=offset):
        event = Event()
        event.add("uid", ev.uid or f"{_digest(task.id, b.user.lower(), str(n), ev.summary)[:20]}@officesim.test")
        event.add("dtstamp", stamp)
        event.add("summary", ev.summary)
        start = _event_time(ev.start, ev.tz)
        event.add("dtstart", start)
        if isinstance(start, datetime):
            if ev.end:
                event.add("dtend", _event_time(ev.end, ev.tz))
        else:
            # All-day: the builder's end is the last day covered; DTEND is exclusive.
            last = _event_time(ev.end, None) if ev.end else start
            last = last.date() if isinstance(last, datetime) else last
            event.add("dtend", max(last, start) + timedelta(days=1))
        if ev.location is not None:
            event.add("location", ev.location)
        if ev.description is not None:
            event.add("description", ev.description)
        for person in ev.attendees:
            event.add("attendee", vCalAddress(f"mailto:{person.strip().lower()}"))
        cal.add_component(event)
    if any(ev.tz for ev in b.events):
        cal.add_missing_timezones()
    target.write_bytes(cal.to_ical())


_BUILDERS: dict[str, Callable[[OfficeSpec, Office, Any], None]] = {
    "xlsx": build_xlsx,
    "docx": build_docx,
    "pdf": build_pdf,
    "text": build_text,
    "image": build_image,
    "eml": build_eml,
    "ics": build_ics,
}
