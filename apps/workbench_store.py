"""WorkBench's tables as real files of the office, so the parser and the outcome diff see them as
they see any office (apps/workbench_core.py runs the tools on this store):

- emails: one ``.eml`` per row, ``emails/<user>/<email_id>.eml`` (inbox) and ``emails/<user>/sent/
  <email_id>.eml`` (outbox); the file stem is the email_id;
- calendar: ``calendar/<user>.ics``, one event per row (UID = event_id, ATTENDEE = participant_email,
  DTEND = DTSTART + duration minutes), in table order;
- customers, project tasks, analytics visits: ``data/<name>.xlsx``, a header row then one row per
  record, every cell text (ids keep their leading zeros);
- plots: ``plots/<time_min>_<time_max>_<value>_<type>.png``, a real chart of the data;
- the company directory: ``data/company_directory.csv`` (a header, one address a line).

Reading is cached by file content, so the many reads of one unchanged office cost little.
"""

from __future__ import annotations

import csv
import email
import hashlib
import io
import os
import threading
from datetime import datetime, timedelta, timezone
from email.header import decode_header, make_header
from email.message import EmailMessage
from email.utils import format_datetime, parseaddr, parsedate_to_datetime
from pathlib import Path
from typing import Any

from officesim.apps import _cache
from officesim.apps.registry import OfficeContext, OpError
from officesim.apps.workbench_core import TABLES, USER, Row, ToolError, plot_series
from officesim.testbed.safefs import open_dir, write_beneath

SHEETS = {"crm": ("data/customer_relationship_manager.xlsx", "customers"),
          "tasks": ("data/project_tasks.xlsx", "tasks"),
          "analytics": ("data/analytics_data.xlsx", "visits")}
DIRECTORY = "data/company_directory.csv"
PLOTS = "plots"
TIME = "%Y-%m-%d %H:%M:%S"
_EMAIL_ROWS: dict[tuple, Row] = {}  # (name, folder, size, mtime) of an .eml -> its row: each file parsed once
_EMAIL_LOCK = threading.Lock()
_EMAIL_LIMIT = 50_000


def email_path(user: str, row: Row) -> str:
    sent = "sent/" if row["inbox/outbox"] == "outbox" else ""
    return f"emails/{user.lower()}/{sent}{row['email_id']}.eml"


def calendar_path(user: str) -> str:
    return f"calendar/{user.lower()}.ics"


# ---- files from rows ------------------------------------------------------------------------------
def eml_bytes(user: str, row: Row) -> bytes:
    """One WorkBench email as a message: inbox mail comes from sender/recipient to the user, outbox
    mail from the user to it."""
    msg = EmailMessage()
    other = str(row["sender/recipient"] or "")
    outbox = row["inbox/outbox"] == "outbox"
    msg["From"] = user if outbox else other
    msg["To"] = other if outbox else user
    msg["Subject"] = str(row["subject"] or "")
    when = datetime.strptime(str(row["sent_datetime"]), TIME).replace(tzinfo=timezone.utc)
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = f"<{row['email_id']}.{hashlib.sha1(other.encode()).hexdigest()[:8]}@workbench>"
    msg.set_content(str(row["body"] or ""))
    return msg.as_bytes()


def _ics_text(value: str) -> str:
    return (value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\\n").replace("\n", "\\n"))


def _fold(line: str) -> str:
    """RFC 5545 line folding: at most 75 octets a line, continuations start with a space."""
    data = line.encode()
    if len(data) <= 75:
        return line + "\r\n"
    parts, current = [], b""
    for ch in line:
        b = ch.encode()
        if len(current) + len(b) > (75 if not parts else 74):
            parts.append(current)
            current = b""
        current += b
    parts.append(current)
    return "\r\n ".join(p.decode() for p in parts) + "\r\n"


def ics_bytes(user: str, rows: list[Row]) -> bytes:
    """The calendar table as one .ics, events in table order (written directly: a calendar of hundreds
    of events is rewritten on every change)."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//officesim//workbench calendar//EN"]
    for row in rows:
        start, minutes = _event_times(row["event_start"], row["duration"])
        end = start + timedelta(minutes=minutes)
        lines += ["BEGIN:VEVENT", f"UID:{_ics_text(str(row['event_id']))}", "DTSTAMP:20231130T000000Z",
                  f"SUMMARY:{_ics_text(str(row['event_name'] or ''))}",
                  f"DTSTART:{start:%Y%m%dT%H%M%S}", f"DTEND:{end:%Y%m%dT%H%M%S}"]
        if row["participant_email"]:
            lines.append(f"ATTENDEE:mailto:{row['participant_email']}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(_fold(line) for line in lines).encode()


def _event_times(start: Any, duration: Any) -> tuple[datetime, float]:
    """An event's start and length in minutes; a value a calendar cannot hold is the agent's error."""
    raw = str(start).strip()
    for fmt in (TIME, "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M"):
        try:
            when = datetime.strptime(raw, fmt)
            break
        except ValueError:
            continue
    else:
        raise OpError("bad_date", f"event_start {start!r} is not a time like 2023-12-01 13:00:00")
    try:
        minutes = float(str(duration).strip())
    except ValueError:
        raise OpError("bad_arguments", f"duration {duration!r} is not a number of minutes") from None
    if not 0 < minutes <= 60 * 24 * 366:
        raise OpError("bad_arguments", f"duration {duration!r} is not a positive number of minutes")
    return when, minutes


def xlsx_bytes(table: str, rows: list[Row]) -> bytes:
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell

    columns = TABLES[table][1]
    wb = Workbook(write_only=True)
    ws = wb.create_sheet(SHEETS[table][1])
    ws.append(list(columns))
    for row in rows:
        cells = []
        for col in columns:
            value = row.get(col)
            cell = WriteOnlyCell(ws, value=None if value is None else str(value))
            if value is not None:
                cell.data_type = "s"  # text, even when it starts with '='
            cells.append(cell)
        ws.append(cells)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def directory_bytes(rows: list[Row]) -> bytes:
    return ("email_address\n" + "".join(f"{r['email_address']}\n" for r in rows)).encode()


def write_office(root: str | os.PathLike, tables: dict[str, list[Row]], user: str = USER) -> None:
    """Write WorkBench's initial tables as an office (the importer's shared office)."""
    base = Path(root)
    base.mkdir(parents=True, exist_ok=True)
    for row in tables["emails"]:
        write_beneath(base, email_path(user, row), eml_bytes(user, row))
    write_beneath(base, calendar_path(user), ics_bytes(user, tables["calendar"]))
    for table, (path, _sheet) in SHEETS.items():
        write_beneath(base, path, xlsx_bytes(table, tables[table]))
    write_beneath(base, DIRECTORY, directory_bytes(tables["directory"]))
    os.close(open_dir(base, PLOTS, create=True))


# ---- rows from files ------------------------------------------------------------------------------
def _header(msg, name: str) -> str:
    raw = msg.get(name)
    return "" if raw is None else str(make_header(decode_header(str(raw))))


def _email_row(data: bytes, folder: str) -> Row:
    msg = email.message_from_bytes(data)
    payload = msg.get_payload(decode=True) or b""
    body = payload.decode(msg.get_content_charset() or "utf-8", errors="replace")
    if body.endswith("\n"):
        body = body[:-1]  # set_content ends every body with a line break
    other = parseaddr(_header(msg, "To" if folder == "outbox" else "From"))[1] or None
    try:
        when = parsedate_to_datetime(_header(msg, "Date"))
        sent = when.astimezone(timezone.utc).strftime(TIME) if when.tzinfo else when.strftime(TIME)
    except (TypeError, ValueError):
        sent = None
    return {"inbox/outbox": folder, "sender/recipient": other, "subject": _header(msg, "Subject"),
            "sent_datetime": sent, "body": body}


class OfficeStore:
    """WorkBench's tables on one office (the ``Store`` of apps/workbench_core.py)."""

    def __init__(self, ctx: OfficeContext):
        self.ctx = ctx
        self.user = (ctx.user or USER).lower()

    def _path(self, rel: str) -> Path:
        return self.ctx.office.resolve(rel)

    # -- reading --
    def rows(self, table: str) -> list[Row]:
        if table == "emails":
            return self._emails()
        if table == "calendar":
            return self._calendar()
        if table in SHEETS:
            return self._sheet(table)
        if table == "plots":
            names = [n for n in self.ctx.office.listdir(self._path(PLOTS)) if n.endswith(".png")]
            return [{"file_path": f"{PLOTS}/{n}"} for n in names]
        if table == "directory":
            try:
                text = self.ctx.office.read_bytes(self._path(DIRECTORY), DIRECTORY).decode("utf-8-sig")
            except OpError as exc:
                if exc.code == "file_not_found":
                    raise OpError("file_not_found", f"the company directory {DIRECTORY} is missing") from None
                raise
            return [{"email_address": r["email_address"]} for r in csv.DictReader(io.StringIO(text))]
        raise KeyError(table)

    def _emails(self) -> list[Row]:
        out = []
        for folder, sub in (("inbox", ""), ("outbox", "sent")):
            base = self._path(f"emails/{self.user}" + (f"/{sub}" if sub else ""))
            for name in self.ctx.office.listdir(base):
                if not name.endswith(".eml") or self.ctx.office.kind(base / name) != "file":
                    continue
                data = self.ctx.office.read_bytes(base / name, name)  # one open, no link followed
                key = (folder, hashlib.sha256(data).digest())  # the row is a function of these bytes
                with _EMAIL_LOCK:
                    row = _EMAIL_ROWS.get(key)
                if row is None:
                    row = _email_row(data, folder)
                    with _EMAIL_LOCK:
                        if len(_EMAIL_ROWS) > _EMAIL_LIMIT:
                            _EMAIL_ROWS.clear()
                        _EMAIL_ROWS[key] = row
                out.append({"email_id": name[:-4], **row})
        out.sort(key=lambda r: (str(r["sent_datetime"]), r["email_id"]))
        return out

    def _calendar(self) -> list[Row]:
        path = self._path(calendar_path(self.user))
        if self.ctx.office.kind(path) == "missing":
            return []
        data = self.ctx.office.read_bytes(path, path.name)

        def parse() -> list[Row]:
            from icalendar import Calendar

            try:
                cal = Calendar.from_ical(data)
            except ValueError as exc:
                raise OpError("corrupt_file", f"the calendar could not be read: {exc}") from None
            rows = []
            for ev in cal.walk("VEVENT"):
                start = ev.decoded("dtstart")
                end = ev.decoded("dtend") if ev.get("dtend") is not None else start
                minutes = (end - start).total_seconds() / 60
                attendee = ev.get("attendee")
                attendee = attendee[0] if isinstance(attendee, list) else attendee
                who = str(attendee)[7:] if attendee is not None and str(attendee).lower().startswith("mailto:") \
                    else (str(attendee) if attendee is not None else None)
                rows.append({"event_id": str(ev.get("uid")), "event_name": str(ev.get("summary", "")),
                             "participant_email": who, "event_start": start.strftime(TIME),
                             "duration": str(int(minutes)) if minutes == int(minutes) else str(minutes)})
            return rows

        return _cache.by_content(data, ("workbench-calendar",), parse)

    def _sheet(self, table: str) -> list[Row]:
        rel, _sheet = SHEETS[table]
        path = self._path(rel)
        try:
            data = self.ctx.office.read_bytes(path, rel)
        except OpError as exc:
            if exc.code == "file_not_found":
                raise OpError("file_not_found", f"the table {rel} is missing") from None
            raise

        def parse() -> list[Row]:
            from openpyxl import load_workbook

            try:
                wb = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
            except Exception as exc:
                raise OpError("corrupt_file", f"{rel} could not be read: {exc}") from None
            values = list(wb.worksheets[0].iter_rows(values_only=True))
            wb.close()
            if not values:
                return []
            header = [str(h) if h is not None else "" for h in values[0]]
            rows = []
            for row in values[1:]:
                if any(v not in (None, "") for v in row):
                    row = tuple(row) + (None,) * (len(header) - len(row))  # read-only sheets trim empty ends
                    rows.append({h: (None if v is None or v == "" else str(v)) for h, v in zip(header, row)})
            return rows

        return _cache.by_content(data, ("workbench-table", table), parse)

    # -- writing --
    def add(self, table: str, row: Row) -> None:
        if table == "emails":
            self.ctx.office.write_bytes(self._path(email_path(self.user, row)), eml_bytes(self.user, row))
        elif table == "plots":
            self._plot(row)
        else:
            self._rewrite(table, self.rows(table) + [row])

    def delete(self, table: str, key: str) -> None:
        if table == "emails":
            row = next(r for r in self._emails() if r["email_id"] == key)
            self.ctx.office.unlink(self._path(email_path(self.user, row)))
        else:
            id_col = TABLES[table][0]
            self._rewrite(table, [r for r in self.rows(table) if r.get(id_col) != key])

    def update(self, table: str, key: str, field: str, value: Any) -> None:
        if table == "calendar" and field not in TABLES["calendar"][1]:
            raise OpError("bad_arguments", f"events have no field '{field}'; fields are: "
                                           f"{', '.join(TABLES['calendar'][1][1:])}")
        if table == "calendar" and field == "event_id":
            raise OpError("bad_arguments", "an event's event_id cannot be changed")
        id_col = TABLES[table][0]
        rows = self.rows(table)
        for r in rows:
            if r.get(id_col) == key:
                r[field] = value
        self._rewrite(table, rows)

    def _rewrite(self, table: str, rows: list[Row]) -> None:
        if table == "calendar":
            path, data, key = self._path(calendar_path(self.user)), ics_bytes(self.user, rows), ("workbench-calendar",)
        elif table in SHEETS:
            path, data, key = self._path(SHEETS[table][0]), xlsx_bytes(table, rows), ("workbench-table", table)
        else:
            raise OpError("bad_arguments", f"the {table} table cannot be changed")
        self.ctx.office.write_bytes(path, data)
        # the next read of this content needs no parsing: the rows written are what it holds
        written = [{col: (None if r.get(col) in (None, "") else str(r.get(col))) for col in TABLES[table][1]}
                   for r in rows]
        if table == "calendar":
            for r in written:
                start, minutes = _event_times(r["event_start"], r["duration"])
                r["event_start"] = start.strftime(TIME)
                r["duration"] = str(int(minutes)) if minutes == int(minutes) else str(minutes)
        _cache.by_content(data, key, lambda: written)

    def _plot(self, row: Row) -> None:
        file_path, time_min, time_max, value, kind = (row["file_path"], row["time_min"], row["time_max"],
                                                      row["value_to_plot"], row["plot_type"])
        try:
            series = plot_series(self, time_min, time_max, value)
        except ToolError:
            series = {}
        self.ctx.office.write_bytes(self._path(file_path), plot_png(series, f"{value} ({time_min} to {time_max})", kind))


def plot_png(series: dict[str, float], title: str, kind: str, size: tuple[int, int] = (640, 400)) -> bytes:
    """A small chart of daily values (Pillow, deterministic bytes): bars, a line, points, or a histogram
    of the values."""
    from PIL import Image, ImageDraw, ImageFont

    width, height = size
    img = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default()
    left, top, right, bottom = 50, 30, width - 20, height - 40
    draw.text((left, 8), title, fill="black", font=font)
    draw.line([(left, top), (left, bottom), (right, bottom)], fill="black", width=1)
    values = [float(v) for v in series.values()]
    if kind == "histogram" and values:
        low, high = min(values), max(values)
        bins = [0] * 10
        for v in values:
            bins[min(9, int((v - low) / ((high - low) or 1) * 10))] += 1
        values = [float(b) for b in bins]
        kind = "bar"
    if values:
        top_value = max(values) or 1.0
        step = (right - left) / len(values)
        points = [(left + step * (i + 0.5), bottom - (v / top_value) * (bottom - top - 10)) for i, v in enumerate(values)]
        for i, (x, y) in enumerate(points):
            if kind == "bar":
                draw.rectangle([x - step * 0.35, y, x + step * 0.35, bottom], fill=(66, 114, 196))
            elif kind == "scatter":
                draw.ellipse([x - 3, y - 3, x + 3, y + 3], fill=(66, 114, 196))
        if kind == "line" and len(points) > 1:
            draw.line(points, fill=(66, 114, 196), width=2)
        draw.text((4, top), f"{max(values):g}", fill="black", font=font)
        days = list(series)
        if days and kind != "bar" or (days and len(days) == len(values)):
            draw.text((left, bottom + 8), days[0], fill="black", font=font)
            draw.text((right - 70, bottom + 8), days[-1], fill="black", font=font)
    else:
        draw.text((left + 10, (top + bottom) // 2), "no data in this range", fill="black", font=font)
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()
