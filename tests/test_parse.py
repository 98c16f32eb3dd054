"""testbed.parse on files written by other tools, the way agents' shell commands would write them."""

from __future__ import annotations

import hashlib
from datetime import date, datetime
from pathlib import Path
from email.message import EmailMessage
from email.utils import format_datetime
from zoneinfo import ZoneInfo

import docx
import openpyxl
import pytest
from fpdf import FPDF
from icalendar import Calendar, Event
from PIL import Image

from officesim.testbed.parse import parse_bytes, parse_file, parse_office

USER = "maya.lin@northwind.test"


def _write(root, rel, data: bytes):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_xlsx_several_sheets_numbers_dates_and_trimming(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Budget"
    ws.append(["Item", "Amount", "Due"])
    ws.append(["Rent", 1200, date(2026, 3, 1)])
    ws.append(["Fee", 3.5, datetime(2026, 3, 2, 14, 30)])
    ws.append([None, True, None])
    ws["F9"] = None  # touched but empty: must not widen the used range
    notes = wb.create_sheet("Notes")
    notes["B2"] = "hello"
    wb.save(tmp_path / "b.xlsx")

    entry = parse_file(tmp_path / "b.xlsx", "data/b.xlsx")
    assert entry["kind"] == "xlsx"
    assert entry["sheet_order"] == ["Budget", "Notes"]
    assert entry["sheets"]["Budget"] == [
        ["Item", "Amount", "Due"],
        ["Rent", 1200, "2026-03-01"],
        ["Fee", 3.5, "2026-03-02 14:30:00"],
        [None, True, None],
    ]
    assert entry["sheets"]["Notes"] == [[None, None], [None, "hello"]]
    assert isinstance(entry["sheets"]["Budget"][1][1], int)


def test_xlsx_formula_without_cached_value_is_computed(tmp_path):
    """openpyxl saves no result for a formula: the engine computes it, and the formula is listed."""
    wb = openpyxl.Workbook()
    wb.active.append([1, 2, "=A1+B1"])
    wb.active.append([10, 20, "=SUM(A1:B2)"])
    wb.save(tmp_path / "f.xlsx")
    entry = parse_file(tmp_path / "f.xlsx", "data/f.xlsx")
    assert entry["sheets"]["Sheet"] == [[1, 2, 3], [10, 20, 33]]
    assert entry["formulas"] == {"Sheet!C1": "=A1+B1", "Sheet!C2": "=SUM(A1:B2)"}
    assert "formula_problems" not in entry


def test_xlsx_formula_the_engine_cannot_evaluate_is_reported(tmp_path):
    wb = openpyxl.Workbook()
    wb.active.append([1, "=NOSUCHFUNCTION(A1)", "=C1+1"])
    wb.save(tmp_path / "f.xlsx")
    entry = parse_file(tmp_path / "f.xlsx", "data/f.xlsx")
    assert entry["sheets"]["Sheet"] == [[1, "=NOSUCHFUNCTION(A1)", "=C1+1"]]  # no value: the text stays
    assert "#NAME?" in entry["formula_problems"]["Sheet!B1"]
    assert "circular" in entry["formula_problems"]["Sheet!C1"]


def test_docx_paragraphs_and_table(tmp_path):
    doc = docx.Document()
    doc.add_heading("Minutes", level=1)
    doc.add_paragraph("")
    doc.add_paragraph("Decisions follow.")
    table = doc.add_table(rows=2, cols=2)
    for r, row in enumerate([["Owner", "Task"], ["Maya", "Budget"]]):
        for c, text in enumerate(row):
            table.cell(r, c).text = text
    doc.save(tmp_path / "m.docx")

    entry = parse_file(tmp_path / "m.docx", "data/m.docx")
    assert entry == {"kind": "docx", "paragraphs": ["Minutes", "", "Decisions follow."],
                     "tables": [[["Owner", "Task"], ["Maya", "Budget"]]]}


def test_pdf_text_per_page(tmp_path):
    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for text in ("Quarterly report", "Second page here"):
        pdf.add_page()
        pdf.cell(0, 10, text)
    (tmp_path / "r.pdf").write_bytes(bytes(pdf.output()))

    entry = parse_file(tmp_path / "r.pdf", "data/r.pdf")
    assert entry["kind"] == "pdf"
    assert [p.strip() for p in entry["pages"]] == ["Quarterly report", "Second page here"]


def test_ics_timezones_are_converted_and_all_day_kept_as_dates(tmp_path):
    cal = Calendar()
    cal.add("prodid", "-//test//EN")
    cal.add("version", "2.0")

    def event(summary, start, end, **extra):
        ev = Event()
        ev.add("uid", summary.replace(" ", "-"))
        ev.add("summary", summary)
        ev.add("dtstart", start)
        ev.add("dtend", end)
        for key, value in extra.items():
            ev.add(key, value)
        cal.add_component(ev)

    ny = ZoneInfo("America/New_York")
    utc = ZoneInfo("UTC")
    event("NY call", datetime(2026, 1, 15, 9, 0, tzinfo=ny), datetime(2026, 1, 15, 10, 0, tzinfo=ny),
          attendee="MAILTO:Bob.Hart@X.test", location="Room 4")
    event("UTC sync", datetime(2026, 1, 15, 8, 0, tzinfo=utc), datetime(2026, 1, 15, 8, 30, tzinfo=utc))
    event("Offsite", date(2026, 1, 20), date(2026, 1, 22))
    event("Floating", datetime(2026, 1, 16, 11, 0), datetime(2026, 1, 16, 12, 0))
    cal.add_missing_timezones()
    _write(tmp_path, f"calendar/{USER}.ics", cal.to_ical())

    entry = parse_office(tmp_path, timezone="Europe/Berlin")[f"calendar/{USER}.ics"]
    assert entry["kind"] == "ics" and entry["user"] == USER
    events = {e["summary"]: e for e in entry["events"]}
    assert (events["NY call"]["start"], events["NY call"]["end"]) == ("2026-01-15 15:00:00", "2026-01-15 16:00:00")
    assert events["NY call"]["attendees"] == ["bob.hart@x.test"]
    assert events["NY call"]["location"] == "Room 4"
    assert events["NY call"]["uid"] == "NY-call"
    assert events["UTC sync"]["start"] == "2026-01-15 09:00:00"
    assert events["Floating"]["start"] == "2026-01-16 11:00:00"
    offsite = events["Offsite"]
    assert offsite["all_day"] is True and events["NY call"]["all_day"] is False
    # DTEND of an all-day event is exclusive: the event covers the 20th and the 21st.
    assert (offsite["start"], offsite["end"]) == ("2026-01-20", "2026-01-21")

    in_utc = parse_office(tmp_path)[f"calendar/{USER}.ics"]
    assert {e["summary"]: e["start"] for e in in_utc["events"]}["NY call"] == "2026-01-15 14:00:00"


def _multipart_message() -> bytes:
    msg = EmailMessage()
    msg["From"] = "Jonas Berg <Jonas.Berg@Northwind.test>"
    msg["To"] = f"Maya Lin <{USER}>, ravi.iyer@northwind.test"
    msg["Cc"] = '"Hart, Zoe" <zoe.hart@northwind.test>'
    msg["Subject"] = "Q1 figures"
    msg["Date"] = format_datetime(datetime(2026, 3, 9, 16, 20, tzinfo=ZoneInfo("Europe/Berlin")))
    msg["Message-ID"] = "<abc@northwind.test>"
    msg["In-Reply-To"] = "<prev@northwind.test>"
    msg.set_content("Numbers attached.\nJonas")
    msg.add_attachment(b"col1,col2\n1,2\n", maintype="text", subtype="csv", filename="q1.csv")
    return bytes(msg)


def test_eml_headers_body_attachments_and_location(tmp_path):
    raw = _multipart_message()
    _write(tmp_path, f"emails/{USER}/msg-7.eml", raw)
    _write(tmp_path, "emails/jonas.berg@northwind.test/sent/out-1.eml", raw)
    state = parse_office(tmp_path, timezone="UTC")

    inbox = state[f"emails/{USER}/msg-7.eml"]
    assert inbox["kind"] == "eml"
    assert (inbox["mailbox"], inbox["folder"], inbox["id"]) == (USER, "inbox", "msg-7")
    assert inbox["from"] == "jonas.berg@northwind.test"
    assert inbox["to"] == [USER, "ravi.iyer@northwind.test"]
    assert inbox["cc"] == ["zoe.hart@northwind.test"]
    assert inbox["subject"] == "Q1 figures"
    assert inbox["date"] == "2026-03-09 15:20:00"  # 16:20 in Berlin is 15:20 UTC
    assert inbox["message_id"] == "<abc@northwind.test>"
    assert inbox["in_reply_to"] == "<prev@northwind.test>"
    assert inbox["body"].strip() == "Numbers attached.\nJonas"
    payload = b"col1,col2\n1,2\n"
    assert inbox["attachments"] == [{"filename": "q1.csv", "size": len(payload),
                                     "sha256": hashlib.sha256(payload).hexdigest(),
                                     "content": {"kind": "text", "text": payload.decode()}}]

    sent = state["emails/jonas.berg@northwind.test/sent/out-1.eml"]
    # Same bytes, other place: the path-derived fields must not leak through the cache.
    assert (sent["mailbox"], sent["folder"], sent["id"]) == ("jonas.berg@northwind.test", "sent", "out-1")


def test_eml_outside_a_mailbox_has_no_owner():
    entry = parse_bytes(_multipart_message(), "data/fwd.eml")
    assert entry["kind"] == "eml" and entry["mailbox"] is None and entry["folder"] is None


def test_images_text_and_binary(tmp_path):
    img = tmp_path / "data" / "pic.png"
    img.parent.mkdir()
    Image.new("RGB", (40, 30), "white").save(img)
    _write(tmp_path, "data/notes.md", "# Notes\r\nline\n".encode())
    _write(tmp_path, "data/blob.bin", b"\x00\x01\x02")
    _write(tmp_path, "data/README", b"plain words")

    state = parse_office(tmp_path)
    digest = state["data/pic.png"].pop("digest")
    assert state["data/pic.png"] == {"kind": "image", "width": 40, "height": 30,
                                     "sha256": hashlib.sha256(img.read_bytes()).hexdigest()}
    assert len(digest) == 129 and digest[64] == ":"
    assert state["data/notes.md"] == {"kind": "text", "text": "# Notes\nline\n"}
    assert state["data/blob.bin"] == {"kind": "binary", "size": 3,
                                      "sha256": hashlib.sha256(b"\x00\x01\x02").hexdigest()}
    assert state["data/README"] == {"kind": "text", "text": "plain words"}


@pytest.mark.parametrize("name, data", [
    ("data/bad.xlsx", b"not a zip at all"),
    ("data/bad.docx", b"PK\x03\x04 truncated"),
    ("data/bad.pdf", b"%PDF-1.4 nothing else"),
    ("data/bad.png", b"\x89PNG\r\n\x1a\n garbage"),
    ("calendar/x@y.test.ics", b"BEGIN:VCALENDAR\nBEGIN:VEVENT\nnot ical"),
    ("data/bad.txt", b"\xff\xfe\xfa invalid utf-8"),
    ("emails/x@y.test/msg-1.eml", b""),
])
def test_rejected_files_become_corrupt(tmp_path, name, data):
    _write(tmp_path, name, data)
    entry = parse_office(tmp_path)[name]
    assert entry["kind"] == "corrupt"
    assert entry["size"] == len(data)
    assert entry["sha256"] == hashlib.sha256(data).hexdigest()
    assert entry["error"]


def test_symlinks_are_skipped_and_paths_sorted(tmp_path):
    _write(tmp_path, "data/b.txt", b"b")
    _write(tmp_path, "data/a.txt", b"a")
    (tmp_path / "data" / "link.txt").symlink_to("/etc/hostname")
    state = parse_office(tmp_path)
    assert list(state) == ["data/a.txt", "data/b.txt"]


def test_entries_are_fresh_objects_even_when_cached(tmp_path):
    _write(tmp_path, "data/t.txt", b"same")
    first = parse_office(tmp_path)
    first["data/t.txt"]["text"] = "mutated by a caller"
    assert parse_office(tmp_path)["data/t.txt"]["text"] == "same"


def test_rewritten_file_is_parsed_again(tmp_path):
    path = _write(tmp_path, "data/t.txt", b"1200")
    assert parse_office(tmp_path)["data/t.txt"]["text"] == "1200"
    path.write_bytes(b"1300")  # same size, possibly the same mtime tick
    assert parse_office(tmp_path)["data/t.txt"]["text"] == "1300"


def test_picture_digest_survives_reencoding_and_tells_pictures_apart(tmp_path):
    from PIL import Image, ImageDraw

    from officesim.testbed.parse import digest_distance

    def picture(text: str, path: Path, size=(300, 200)) -> bytes:
        img = Image.new("RGB", size, "white")
        ImageDraw.Draw(img).rectangle([20, 20, 120, 90] if text == "a" else [150, 100, 280, 180], fill="black")
        img.save(path)
        return path.read_bytes()

    a_png = parse_bytes(picture("a", tmp_path / "a.png"), "data/a.png")["digest"]
    Image.open(tmp_path / "a.png").resize((600, 400)).save(tmp_path / "a2.jpg", quality=80)
    a_jpg = parse_bytes((tmp_path / "a2.jpg").read_bytes(), "data/a2.jpg")["digest"]
    b_png = parse_bytes(picture("b", tmp_path / "b.png"), "data/b.png")["digest"]
    assert digest_distance(a_png, a_jpg) <= 20
    assert digest_distance(a_png, b_png) > 40


def test_two_pages_of_text_that_look_alike_from_afar_differ(tmp_path):
    """Whole pages of small text share their layout hash; the inked area tells them apart."""
    from PIL import Image, ImageDraw

    from officesim.testbed.parse import digest_distance

    def page(lines: list[str], path: Path) -> str:
        img = Image.new("RGB", (993, 1404), "white")
        draw = ImageDraw.Draw(img)
        for i, line in enumerate(lines):
            draw.text((90, 120 + 40 * i), line, fill="black")
        img.save(path)
        return parse_bytes(path.read_bytes(), f"data/{path.name}")["digest"]

    flyer = page(["SPRING SALE", "All garden tools 20% off", "Saturday 10-16", "Main Street 4"], tmp_path / "a.png")
    budget = page(["Budget 2026", "Print 1,200", "Posters 300", "Total 1,500", "Approved by M."], tmp_path / "b.png")
    again = page(["SPRING SALE", "All garden tools 20% off", "Saturday 10-16", "Main Street 4"], tmp_path / "c.png")
    assert digest_distance(flyer, again) == 0
    assert digest_distance(flyer, budget) > 20


def test_archives_list_their_members_with_hashes(tmp_path):
    import io
    import tarfile
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("reports/q1.txt", "one")
        z.writestr("q2.txt", "two")
    entry = parse_bytes(buf.getvalue(), "data/all.zip")
    assert entry["kind"] == "archive"
    assert [(m["name"], m["sha256"]) for m in entry["members"]] == [
        ("q2.txt", hashlib.sha256(b"two").hexdigest()), ("reports/q1.txt", hashlib.sha256(b"one").hexdigest())]
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        info = tarfile.TarInfo("a.txt")
        info.size = 3
        t.addfile(info, io.BytesIO(b"abc"))
    entry = parse_bytes(buf.getvalue(), "data/a.tar.gz")
    assert entry["members"] == [{"name": "a.txt", "size": 3, "sha256": hashlib.sha256(b"abc").hexdigest()}]
    import gzip
    assert parse_bytes(gzip.compress(b"plain"), "data/notes.txt.gz")["kind"] == "binary"
