"""No operation writes or reads through a link: a link planted at every name a writing operation uses
(its final name, the fixed temporary names the apps once used, the folder on the way) changes nothing
outside the office and nothing of the template a linked office shares; and a link swapped in and out
under every read path while a program reads finds no host byte in the office (testbed/safefs.py)."""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

import docx
import openpyxl
import pytest
from fastapi.testclient import TestClient
from icalendar import Calendar, Event

from officesim.apps import OfficeContext, apps_for
from officesim.apps.workbench_store import write_office
from officesim.testbed import safefs
from officesim.testbed.convert import TextPdf
from officesim.testbed.materialise import _link_tree
from officesim.testbed.office import Office

ME, BOB = "me@example.test", "bob@example.test"
SECRET = b"HOST-SECRET-7f3a9c root only\n"


def _tree_digest(root: Path) -> dict[str, str]:
    """Every entry below ``root`` (links as their target text) with its content digest."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            if os.path.islink(full):
                out[rel] = "link:" + os.readlink(full)
            else:
                out[rel] = hashlib.sha256(Path(full).read_bytes()).hexdigest()
    return out


def _officebench_template(root: Path) -> None:
    (root / "data").mkdir(parents=True)
    document = docx.Document()
    document.add_paragraph("Quarterly notes")
    document.save(root / "data" / "notes.docx")
    book = openpyxl.Workbook()
    book.active.append(["item", "amount"])
    book.active.append(["paper", 12])
    book.save(root / "data" / "budget.xlsx")
    pdf = TextPdf()
    pdf.paragraph("Invoice INV-1 total 40.00")
    (root / "data" / "invoice.pdf").write_bytes(pdf.render())
    from PIL import Image

    Image.new("RGB", (40, 20), "white").save(root / "data" / "scan.png")
    (root / "emails" / ME / "sent").mkdir(parents=True)
    (root / "emails" / BOB).mkdir(parents=True)
    (root / "emails" / ME / "msg-1.eml").write_bytes(
        f"From: {BOB}\r\nTo: {ME}\r\nSubject: Hello\r\nDate: Mon, 02 Mar 2026 09:00:00 +0000\r\n\r\nHi there\r\n".encode())
    cal = Calendar()
    cal.add("prodid", "-//t//t//EN")
    cal.add("version", "2.0")
    ev = Event()
    ev.add("summary", "Standup")
    ev.add("uid", "u1@t")
    from datetime import datetime

    ev.add("dtstart", datetime(2026, 3, 3, 9))
    ev.add("dtend", datetime(2026, 3, 3, 10))
    cal.add_component(ev)
    (root / "calendar").mkdir()
    (root / "calendar" / f"{ME}.ics").write_bytes(cal.to_ical())


# (app, action, args, names a link is planted at: final names, the old fixed temporaries, folders)
OFFICEBENCH_WRITES = [
    ("calendar", "create_event", {"user": ME, "summary": "Review", "time_start": "2026-03-04 10:00:00",
                                  "time_end": "2026-03-04 11:00:00"},
     [f"calendar/{ME}.ics", f"calendar/{ME}.ics.tmp"]),
    ("calendar", "delete_event", {"user": ME, "summary": "Standup"}, [f"calendar/{ME}.ics.tmp"]),
    ("email", "send_email", {"sender": ME, "recipient": BOB, "subject": "S", "content": "body"},
     [f"emails/{ME}/sent/msg-1.eml", f"emails/{ME}/sent/.msg-1.eml.tmp", f"emails/{BOB}/msg-1.eml",
      f"emails/{BOB}/.msg-1.eml.tmp", f"emails/{BOB}", f"emails/{ME}/sent"]),
    ("email", "forward_email", {"username": ME, "email_id": "msg-1", "recipient": BOB},
     [f"emails/{BOB}/.msg-1.eml.tmp", f"emails/{BOB}/msg-1.eml", f"emails/{ME}/sent"]),
    ("word", "create_new_file", {"file_path": "data/out/new.docx"}, ["data/out/new.docx", "data/out"]),
    ("word", "write_to_file", {"file_path": "data/notes.docx", "contents": "more"},
     ["data/.notes.docx.tmp", "data/notes.docx.tmp"]),
    ("word", "write_to_file", {"file_path": "data/out/w.docx", "contents": "new"}, ["data/out/w.docx", "data/out"]),
    ("word", "replace_text", {"file_path": "data/notes.docx", "old_text": "Quarterly", "new_text": "Annual"},
     ["data/.notes.docx.tmp"]),
    ("word", "convert_to_pdf", {"word_file_path": "data/notes.docx", "pdf_file_path": "data/out/notes.pdf"},
     ["data/out/notes.pdf", "data/out"]),
    ("excel", "set_cell", {"file_path": "data/budget.xlsx", "row_idx": 2, "column_idx": 2, "text": "99"},
     ["data/.budget.xlsx.tmp"]),
    ("excel", "create_new_file", {"file_path": "data/out/b.xlsx"}, ["data/out/b.xlsx", "data/out"]),
    ("excel", "convert_to_pdf", {"excel_file_path": "data/budget.xlsx", "pdf_file_path": "data/out/b.pdf"},
     ["data/out/b.pdf", "data/out"]),
    ("pdf", "convert_to_word", {"pdf_file_path": "data/invoice.pdf", "word_file_path": "data/out/i.docx"},
     ["data/out/i.docx", "data/out"]),
    ("pdf", "convert_to_image", {"pdf_file_path": "data/invoice.pdf", "image_file_path": "data/out/i.png"},
     ["data/out/i.png", "data/out"]),
    ("pdf", "image_to_pdf", {"image_file_path": "data/scan.png", "pdf_file_path": "data/out/s.pdf"},
     ["data/out/s.pdf", "data/out"]),
]


@pytest.fixture
def host(tmp_path) -> Path:
    """A host folder an attacker aims at: a victim file and an empty folder."""
    place = tmp_path / "host"
    (place / "dir").mkdir(parents=True)
    (place / "victim.txt").write_bytes(SECRET)
    return place


def _plant(office: Path, rel: str, host: Path) -> None:
    """A link at ``rel``: to the host folder for a folder name, else to the victim file."""
    target = office / rel
    is_folder = target.is_dir() or "." not in Path(rel).name or rel.endswith("/sent")
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target)
    elif target.exists() or target.is_symlink():
        target.unlink()
    target.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(host / "dir" if is_folder else host / "victim.txt", target)


def _play(toolset: str, office: Office, app: str, action: str, args: dict, user: str):
    op = apps_for(toolset)[app].operations[action]
    return op.invoke(OfficeContext(office=office, user=user, settings={}), args)


def _check_each(tmp_path: Path, host: Path, template: Path, cases, toolset: str, user: str) -> int:
    before_template, before_host = _tree_digest(template), _tree_digest(host)
    played = 0
    for n, (app, action, args, names) in enumerate(cases):
        for name in names:
            dest = tmp_path / f"office-{n}-{abs(hash(name))}"
            _link_tree(template, dest)
            _plant(dest, name, host)
            result = _play(toolset, Office(dest), app, action, args, user)
            played += 1
            where = f"{app}.{action} with a link at {name}: {result.observation[:200]}"
            if name.endswith(".tmp"):  # a link at a name the app once wrote through: now just a stray entry
                assert result.ok, where
            else:  # at the final name or on the way: replaced, or refused as a link
                assert result.ok or result.error["code"] in ("path_outside_office", "file_not_found"), where
            assert _tree_digest(host) == before_host, where
            assert _tree_digest(template) == before_template, where
            assert (host / "dir").is_dir() and not any((host / "dir").iterdir()), where
            for dirpath, _dirs, files in os.walk(dest):  # no host byte was copied in either
                for f in files:
                    full = os.path.join(dirpath, f)
                    if not os.path.islink(full):
                        assert SECRET not in Path(full).read_bytes(), where
    return played


def test_a_link_at_every_name_an_officebench_write_uses_changes_nothing_outside(tmp_path, host):
    template = tmp_path / "template"
    _officebench_template(template)
    played = _check_each(tmp_path, host, template, OFFICEBENCH_WRITES, "officebench", ME)
    assert played == sum(len(c[3]) for c in OFFICEBENCH_WRITES)


def test_writes_replace_a_link_at_the_final_name_and_never_touch_the_template(tmp_path, host):
    template = tmp_path / "template"
    _officebench_template(template)
    dest = tmp_path / "office"
    _link_tree(template, dest)
    _plant(dest, "data/out/notes.pdf", host)
    args = {"word_file_path": "data/notes.docx", "pdf_file_path": "data/out/notes.pdf"}
    refused = _play("officebench", Office(dest), "word", "convert_to_pdf", args, ME)
    assert not refused.ok and refused.error["code"] == "path_outside_office"
    (dest / "data" / "out" / "notes.pdf").unlink()
    os.symlink("../budget.xlsx", dest / "data" / "out" / "notes.pdf")  # a link inside the office
    shared_before = (dest / "data" / "budget.xlsx").read_bytes()
    result = _play("officebench", Office(dest), "word", "convert_to_pdf", args, ME)
    assert result.ok, result.observation
    written = dest / "data" / "out" / "notes.pdf"
    assert not written.is_symlink() and written.read_bytes()[:5] == b"%PDF-"  # the link was replaced
    assert (dest / "data" / "budget.xlsx").read_bytes() == shared_before  # not written through
    assert (host / "victim.txt").read_bytes() == SECRET
    # editing a file the office shares with its template (a hard link) leaves the template's bytes
    shared = template / "data" / "budget.xlsx"
    before = shared.read_bytes()
    assert _play("officebench", Office(dest), "excel", "set_cell",
                 {"file_path": "data/budget.xlsx", "row_idx": 2, "column_idx": 2, "text": "7"}, ME).ok
    assert shared.read_bytes() == before and (dest / "data" / "budget.xlsx").read_bytes() != before


def _workbench_tables() -> dict[str, list[dict]]:
    return {
        "emails": [{"email_id": "00000001", "inbox/outbox": "inbox", "sender/recipient": "nia@atlas.com",
                    "subject": "Budget", "sent_datetime": "2023-11-20 09:15:00", "body": "Please review."}],
        "calendar": [{"event_id": "00000010", "event_name": "sync", "participant_email": "raj@atlas.com",
                      "event_start": "2023-12-01 09:00:00", "duration": "30"}],
        "analytics": [{"date_of_visit": "2023-11-28", "visitor_id": "0860", "page_views": "8",
                       "session_duration_seconds": "4", "traffic_source": "referral", "user_engaged": "False"}],
        "crm": [{"customer_id": "00000189", "assigned_to_email": "lena@atlas.com", "customer_name": "Taylor",
                 "customer_email": "taylor@nanolabs", "customer_phone": None, "last_contact_date": "2023-11-30",
                 "product_interest": "Consulting", "status": "Lost", "follow_up_by": "2023-12-22", "notes": "x"}],
        "tasks": [{"task_id": "00000149", "task_name": "Carousel", "assigned_to_email": "leila@atlas.com",
                   "list_name": "Backlog", "due_date": "2023-11-27", "board": "Front end"}],
        "directory": [{"email_address": "nia@atlas.com"}, {"email_address": "raj@atlas.com"}],
        "plots": [],
    }


WB_USER = "sam@atlas.com"


def _workbench_cases(template: Path) -> list:
    from officesim.apps.workbench_store import SHEETS, calendar_path

    sheets = {table: rel for table, (rel, _s) in SHEETS.items()}
    cal = calendar_path(WB_USER)

    def temps(rel: str) -> list[str]:
        parent, name = os.path.split(rel)
        return [rel, os.path.join(parent, f".{name}.tmp")]

    emails = f"emails/{WB_USER}/sent"
    return [
        ("email", "send_email", {"recipient": "nia@atlas.com", "subject": "Hi", "body": "x"}, [emails]),
        ("calendar", "create_event", {"event_name": "Plan", "participant_email": "raj@atlas.com",
                                      "event_start": "2023-12-02 10:00:00", "duration": "30"}, temps(cal)),
        ("customer_relationship_manager", "update_customer", {"customer_id": "00000189", "field": "status",
                                                              "new_value": "Won"}, temps(sheets["crm"])),
        ("project_management", "delete_task", {"task_id": "00000149"}, temps(sheets["tasks"])),
        ("analytics", "create_plot", {"time_min": "2023-11-28", "time_max": "2023-11-29", "value_to_plot": "total_visits",
                                      "plot_type": "bar"}, ["plots"]),
    ]


def test_a_link_at_every_name_a_workbench_write_uses_changes_nothing_outside(tmp_path, host):
    template = tmp_path / "wb-template"
    write_office(template, _workbench_tables(), WB_USER)
    cases = _workbench_cases(template)
    played = _check_each(tmp_path, host, template, cases, "workbench", WB_USER)
    assert played == sum(len(c[3]) for c in cases)


def test_a_link_on_the_way_is_refused_by_the_kernel_and_by_the_fallback(tmp_path, host, monkeypatch):
    root = tmp_path / "root"
    (root / "a").mkdir(parents=True)
    (root / "a" / "x.txt").write_bytes(b"inside")
    os.symlink(host, root / "a" / "up")
    os.symlink(host / "victim.txt", root / "v.txt")
    for kernel in (True, False):
        monkeypatch.setattr(safefs, "_openat2_works", kernel)
        assert safefs.read_beneath(root, "a/x.txt", 100) == b"inside"
        for rel in ("v.txt", "a/up/victim.txt", "a/up/dir/new.txt"):
            with pytest.raises(safefs.LinkRefused):
                safefs.read_beneath(root, rel, 100)
        with pytest.raises(safefs.LinkRefused):
            safefs.write_beneath(root, "a/up/dir/new.txt", b"x")
        with pytest.raises(safefs.LinkRefused):
            safefs.read_beneath(root, "../host/victim.txt", 100)
        os.mkfifo(root / f"pipe-{kernel}")
        with pytest.raises(safefs.NotRegular):  # a planted pipe does not hang the open
            safefs.read_beneath(root, f"pipe-{kernel}", 100)
    assert not (host / "dir" / "new.txt").exists() and (host / "victim.txt").read_bytes() == SECRET


# ---- the race: a program swaps a link under every read path while it reads -------------------------

RACE_SECONDS = 10

_RACER = '''
import os, threading, time
paths = {paths!r}
secret = {secret!r}
stop = time.time() + {seconds}
def swap():
    while time.time() < stop:
        for p in paths:
            keep = p + ".keep"
            try:
                os.replace(p, keep)
                os.symlink(secret, p)
                os.replace(p, p + ".link")
                os.replace(keep, p)
            except OSError:
                pass
threading.Thread(target=swap, daemon=True).start()
calls = refused = 0
while time.time() < stop and calls < 470:
    for app, action, args in {calls_list!r}:
        try:
            system.switch_app(target_app=app)
            out = getattr(globals()[app], action)(**args)
            if "HOST-SECRET" in str(out):
                print("LEAK", app, action)
        except OfficeError as e:
            refused += 1
        calls += 2
    time.sleep(0.3)
print("refused", refused)
print("calls", calls)
'''


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap (bwrap) is not installed")
def test_a_link_swapped_under_every_read_path_of_a_program_never_brings_a_host_byte_in(tmp_path, host):
    from officesim.server.app import create_app
    from officesim.server.manager import ServerSettings

    secret = str(host / "victim.txt")
    reads = [
        ("word", "read_file", {"file_path": "data/notes.docx"}),
        ("excel", "read_file", {"file_path": "data/budget.xlsx"}),
        ("pdf", "read_file", {"pdf_file_path": "data/invoice.pdf"}),
        ("pdf", "convert_to_word", {"pdf_file_path": "data/invoice.pdf", "word_file_path": "data/copy.docx"}),
        ("email", "read_email", {"username": ME, "email_id": "msg-1"}),
        ("email", "send_email", {"sender": ME, "recipient": BOB, "subject": "att", "content": "see attached",
                                 "attachments": ["data/notes.docx", "data/att.txt"]}),
        ("calendar", "list_events", {"username": ME}),
        ("shell", "command", {"command": "cat data/att.txt; head -c 64 data/notes.docx; ls -l data"}),
    ]
    template = tmp_path / "race-template"
    _officebench_template(template)
    (template / "data" / "att.txt").write_bytes(b"plain attachment\n")
    task_dir = tmp_path / "tasks" / "link-race"
    task_dir.mkdir(parents=True)
    shutil.copytree(template, task_dir / "files")
    (task_dir / "task.yaml").write_text(
        "id: link-race\nscenario: link-race\ncategory: 3\napps: [word, email, calendar]\n"
        f"user: {ME}\nnow: '2026-03-02 09:00:00'\ninstruction: Read everything.\n"
        "checks:\n- check: file_exists\n  args: {file: data/notes.docx}\n"
        "gold:\n- {app: system, action: switch_app, args: {target_app: word}}\n")
    from officesim.tasks.loader import load_tasks

    tasks = load_tasks([tmp_path / "tasks"], include_suite=False)
    cfg = ServerSettings(sessions_dir=tmp_path / "sessions", op_settings={"code_timeout": 40})
    with TestClient(create_app([], cfg, tasks=tasks)) as client:
        r = client.post("/sessions", json={"task_id": "link-race", "mode": "code"})
        assert r.status_code == 201, r.text
        sid = r.json()["session_id"]
        paths = ["data/notes.docx", "data/budget.xlsx", "data/invoice.pdf", "data/att.txt",
                 f"emails/{ME}/msg-1.eml", f"calendar/{ME}.ics"]
        code = _RACER.format(paths=paths, secret=secret, seconds=RACE_SECONDS, calls_list=reads)
        started = time.monotonic()
        reply = client.post(f"/sessions/{sid}/actions",
                            json={"app": "system", "action": "run_code", "args": {"code": code}}).json()
        assert reply["ok"], reply["observation"]
        assert "LEAK" not in reply["observation"] and "calls" in reply["observation"], reply["observation"][-500:]
        refused = int(reply["observation"].split("refused ", 1)[1].split()[0])
        assert refused > 0, "the swaps never met a read: the race was not run"
        assert time.monotonic() - started >= RACE_SECONDS * 0.5, reply["observation"][-800:]
        office = Path(cfg.sessions_dir)
        found = [str(p) for p in office.rglob("*") if p.is_file() and not p.is_symlink()
                 and SECRET.strip() in p.read_bytes()]
        assert found == [], found
        assert (host / "victim.txt").read_bytes() == SECRET
