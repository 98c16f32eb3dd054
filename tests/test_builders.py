"""testbed.builders: every builder kind, read back through testbed.parse, and determinism."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import docx
import pytesseract
import pytest
from PIL import Image

from officesim.apps.registry import OpError
from officesim.tasks.model import Task
from officesim.testbed.builders import build_office
from officesim.testbed.parse import parse_office

USER = "maya.lin@northwind.test"
JONAS = "jonas.berg@northwind.test"

XLSX_SHEETS = {"Budget": [["Item", "Amount"], ["Rent", 1200], ["Fee", 3.5], ["Note", None, "x"]],
               "Empty-ish": [[None, "B1"]]}
PDF_PAGES = ["Quarterly report for Northwind", "Second page: café déjà vu"]
UNICODE_PAGES = ["Total: € 1 200 — approved", "Łódź office"]  # beyond Latin-1: embedded DejaVuSans


def make_task(office: list[dict], **extra) -> Task:
    spec = {
        "id": "builders-001", "scenario": "builders", "category": 1, "apps": ["excel"],
        "user": USER, "user_name": "Maya Lin", "now": "2026-03-10 09:00:00", "timezone": "Europe/Berlin",
        "instruction": "Nothing to do.", "office": office,
        "checks": [{"check": "file_exists", "args": {"file": "data/budget.xlsx"}}], "gold": [],
    }
    spec.update(extra)
    return Task.model_validate(spec)


def every_kind() -> list[dict]:
    return [
        {"type": "xlsx", "path": "data/budget.xlsx", "sheets": XLSX_SHEETS},
        {"type": "docx", "path": "data/notes.docx",
         "paragraphs": ["Minutes", {"text": "Agenda", "style": "Heading 1"}, "", "Close"],
         "tables": [[["Owner", "Task"], ["Maya", 3]]]},
        {"type": "pdf", "path": "data/report.pdf", "pages": PDF_PAGES, "title": "Report"},
        {"type": "text", "path": "data/sub/todo.txt", "content": "buy milk\nsend report\n"},
        {"type": "image", "path": "data/scan.png", "text": "NOTICE\nOffice closed Friday"},
        {"type": "eml", "user": USER, "from": f"Jonas Berg <{JONAS}>", "to": [USER], "cc": ["ravi.iyer@northwind.test"],
         "date": "2026-03-09 16:20:00", "subject": "Report attached", "body": "See the report.\nJonas",
         "attachments": ["data/report.pdf"]},
        {"type": "eml", "user": USER, "from": JONAS, "to": USER, "date": "2026-03-09 17:00:00",
         "subject": "Second", "body": "Plain"},
        {"type": "eml", "user": USER, "folder": "sent", "id": "out-1", "from": USER, "to": [JONAS],
         "date": "2026-03-08 10:00:00", "subject": "Hello", "body": "Hi Jonas"},
        {"type": "ics", "user": USER, "events": [
            {"summary": "Standup", "start": "2026-03-10 09:30:00", "end": "2026-03-10 09:45:00",
             "location": "Room 1", "description": "Daily", "attendees": ["Jonas.Berg@northwind.test"]},
            {"summary": "NY call", "start": "2026-03-10 09:00:00", "end": "2026-03-10 10:00:00",
             "tz": "America/New_York", "uid": "ny-call@example.test"},
            {"summary": "Offsite", "start": "2026-03-12", "end": "2026-03-13"},
            {"summary": "Holiday", "start": "2026-03-16"},
        ]},
    ]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("office")
    task = make_task(every_kind())
    build_office(task, root)
    return root, parse_office(root, timezone=task.timezone)


def test_folders_always_exist(tmp_path):
    build_office(make_task([]), tmp_path)
    for folder in ("data", f"emails/{USER}", "calendar"):
        assert (tmp_path / folder).is_dir()


def test_xlsx_matches_input(built):
    _root, state = built
    entry = state["data/budget.xlsx"]
    assert entry["sheet_order"] == ["Budget", "Empty-ish"]
    expected = [row + [None] * (3 - len(row)) for row in XLSX_SHEETS["Budget"]]
    assert entry["sheets"]["Budget"] == expected
    assert entry["sheets"]["Empty-ish"] == [[None, "B1"]]


def test_docx_matches_input_with_styles(built):
    root, state = built
    assert state["data/notes.docx"]["paragraphs"] == ["Minutes", "Agenda", "", "Close"]
    assert state["data/notes.docx"]["tables"] == [[["Owner", "Task"], ["Maya", "3"]]]
    styles = [p.style.name for p in docx.Document(root / "data/notes.docx").paragraphs]
    assert styles[1] == "Heading 1"


def test_pdf_pages_match_input(built):
    _root, state = built
    pages = [" ".join(p.split()) for p in state["data/report.pdf"]["pages"]]
    assert pages == PDF_PAGES


def test_pdf_beyond_latin1_matches_input(tmp_path):
    build_office(make_task([{"type": "pdf", "path": "data/u.pdf", "pages": UNICODE_PAGES}]), tmp_path)
    pages = [" ".join(p.split()) for p in parse_office(tmp_path)["data/u.pdf"]["pages"]]
    assert pages == UNICODE_PAGES


def test_text_in_subfolder(built):
    _root, state = built
    assert state["data/sub/todo.txt"] == {"kind": "text", "text": "buy milk\nsend report\n"}


def test_image_is_readable_by_ocr(built):
    root, state = built
    entry = state["data/scan.png"]
    assert entry["kind"] == "image" and entry["width"] > 100 and entry["height"] > 50
    words = set(re.findall(r"\w+", pytesseract.image_to_string(Image.open(root / "data/scan.png")).lower()))
    assert {"notice", "office", "closed", "friday"} <= words


def test_emails_match_input(built):
    _root, state = built
    first = state[f"emails/{USER}/msg-1.eml"]
    assert (first["mailbox"], first["folder"], first["id"]) == (USER, "inbox", "msg-1")
    assert first["from"] == JONAS and first["to"] == [USER] and first["cc"] == ["ravi.iyer@northwind.test"]
    assert first["subject"] == "Report attached"
    assert first["date"] == "2026-03-09 16:20:00"
    assert first["body"].strip() == "See the report.\nJonas"
    pdf = state["data/report.pdf"]
    assert [a["filename"] for a in first["attachments"]] == ["report.pdf"]
    assert first["attachments"][0]["size"] > 0
    assert first["message_id"].startswith("<") and first["message_id"].endswith(">")

    second = state[f"emails/{USER}/msg-2.eml"]  # no id given: the next free msg-<n>
    assert second["subject"] == "Second" and second["attachments"] == []
    assert second["message_id"] != first["message_id"]

    sent = state[f"emails/{USER}/sent/out-1.eml"]
    assert (sent["folder"], sent["to"], sent["body"].strip()) == ("sent", [JONAS], "Hi Jonas")
    assert pdf["kind"] == "pdf"


def test_attachment_bytes_are_the_built_file(built):
    root, state = built
    digest = hashlib.sha256((root / "data/report.pdf").read_bytes()).hexdigest()
    assert state[f"emails/{USER}/msg-1.eml"]["attachments"][0]["sha256"] == digest


def test_calendar_matches_input(built):
    _root, state = built
    entry = state[f"calendar/{USER}.ics"]
    assert entry["user"] == USER
    events = {e["summary"]: e for e in entry["events"]}
    standup = events["Standup"]
    assert (standup["start"], standup["end"], standup["all_day"]) == ("2026-03-10 09:30:00", "2026-03-10 09:45:00", False)
    assert (standup["location"], standup["description"], standup["attendees"]) == ("Room 1", "Daily", [JONAS])
    # 09:00 in New York (EDT since 8 March) is 13:00 UTC, 14:00 in Berlin (CET).
    assert (events["NY call"]["start"], events["NY call"]["end"]) == ("2026-03-10 14:00:00", "2026-03-10 15:00:00")
    assert events["NY call"]["uid"] == "ny-call@example.test"
    assert (events["Offsite"]["start"], events["Offsite"]["end"], events["Offsite"]["all_day"]) == ("2026-03-12", "2026-03-13", True)
    assert (events["Holiday"]["start"], events["Holiday"]["end"]) == ("2026-03-16", "2026-03-16")
    uids = [e["uid"] for e in entry["events"]]
    assert len(set(uids)) == len(uids) and all(uids)


def test_ics_raw_form(built):
    root, _state = built
    text = (root / f"calendar/{USER}.ics").read_bytes().decode()
    assert "DTSTART:20260310T093000\r\n" in text  # floating local time
    assert "DTSTART;TZID=America/New_York:20260310T090000" in text
    assert "DTSTART;VALUE=DATE:20260312" in text and "DTEND;VALUE=DATE:20260314" in text


def _digests(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_same_task_same_bytes(tmp_path):
    task = make_task(every_kind())
    build_office(task, tmp_path / "one")
    build_office(task, tmp_path / "two")
    one, two = _digests(tmp_path / "one"), _digests(tmp_path / "two")
    assert len(one) == 9
    assert one == two


def test_files_tree_is_copied_before_builders(tmp_path):
    source = tmp_path / "task"
    (source / "files/data").mkdir(parents=True)
    (source / "files/data/contract.txt").write_text("signed")
    (source / "files/data/keep.txt").write_text("original")
    task = make_task([{"type": "text", "path": "data/keep.txt", "content": "rebuilt"},
                      {"type": "eml", "user": USER, "from": JONAS, "to": USER, "date": "2026-03-09 08:00:00",
                       "subject": "Contract", "attachments": ["data/contract.txt"]}],
                     source_dir=str(source))
    build_office(task, tmp_path / "office")
    state = parse_office(tmp_path / "office")
    assert state["data/contract.txt"]["text"] == "signed"
    assert state["data/keep.txt"]["text"] == "rebuilt"  # builders run after the copy
    assert state[f"emails/{USER}/msg-1.eml"]["attachments"][0]["filename"] == "contract.txt"


def test_two_ics_builders_for_one_user_merge(tmp_path):
    task = make_task([{"type": "ics", "user": USER, "events": [{"summary": "A", "start": "2026-03-10 10:00:00"}]},
                      {"type": "ics", "user": USER, "events": [{"summary": "B", "start": "2026-03-11 10:00:00"}]}])
    build_office(task, tmp_path)
    events = parse_office(tmp_path)[f"calendar/{USER}.ics"]["events"]
    assert [e["summary"] for e in events] == ["A", "B"]
    assert events[0]["uid"] != events[1]["uid"]


def test_missing_attachment_is_an_error(tmp_path):
    task = make_task([{"type": "eml", "user": USER, "from": JONAS, "to": USER, "date": "2026-03-09 08:00:00",
                       "subject": "x", "attachments": ["data/nowhere.pdf"]}])
    with pytest.raises(FileNotFoundError):
        build_office(task, tmp_path)


def test_builder_paths_stay_inside_the_office(tmp_path):
    task = make_task([{"type": "text", "path": "../escape.txt", "content": "x"}])
    with pytest.raises(OpError):
        build_office(task, tmp_path / "office")
    assert not (tmp_path / "escape.txt").exists()
