"""Email app: messages it writes, and .eml files written by other tools (multipart, html, names)."""

from __future__ import annotations

from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

USER = "maya.lin@northwind.test"
BEN = "ben.ortiz@northwind.test"


def _eml(path):
    return BytesParser(policy=policy.default).parsebytes(path.read_bytes())


def _foreign_mail(office, stem="outside-1", html_only=False):
    """A multipart message with a display name and a PDF attachment, as a mail client writes it."""
    msg = EmailMessage()
    msg["From"] = "Ben Ortiz <Ben.Ortiz@northwind.test>"
    msg["To"] = "Maya Lin <maya.lin@northwind.test>"
    msg["Cc"] = "ops@northwind.test"
    msg["Subject"] = "Quarterly report"
    msg["Date"] = "Mon, 09 Mar 2026 16:20:00 +0000"
    msg["Message-ID"] = "<report-1@northwind.test>"
    if html_only:
        msg.set_content("<html><body><p>Hello <b>Maya</b>,</p><p>see the numbers.</p>"
                        "<script>var x = 1;</script></body></html>", subtype="html")
    else:
        msg.set_content("Hi Maya,\nthe quarterly report is attached.\nBen")
    msg.add_attachment(b"%PDF-1.4 fake", maintype="application", subtype="pdf", filename="report.pdf")
    folder = office.root / "emails" / USER
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.eml").write_bytes(msg.as_bytes())


def test_send_writes_sent_and_inboxes(run, office):
    (office.root / "data" / "notes.txt").write_text("notes")
    r = run("email", "send_email", sender=USER, recipient=[BEN, "Eve <eve@northwind.test>"], subject="Plan",
            content="Here is the plan.", cc=["ops@northwind.test"], attachments=["data/notes.txt"])
    assert r.ok, r.observation
    sent = office.root / "emails" / USER / "sent" / "msg-1.eml"
    msg = _eml(sent)
    assert msg["To"] == f"{BEN}, eve@northwind.test" and msg["Cc"] == "ops@northwind.test"
    assert msg.is_multipart()
    assert [p.get_filename() for p in msg.iter_attachments()] == ["notes.txt"]
    assert msg["Date"] == "Tue, 10 Mar 2026 09:00:00 +0000"  # the simulated now
    for rcpt in (BEN, "eve@northwind.test", "ops@northwind.test"):
        assert (office.root / "emails" / rcpt / "msg-1.eml").exists()
    assert r.data["delivered"] == {BEN: "msg-1", "eve@northwind.test": "msg-1", "ops@northwind.test": "msg-1"}


def test_sending_is_reproducible(run, office):
    (office.root / "data" / "notes.txt").write_text("notes")
    for _ in range(2):
        assert run("email", "send_email", sender=USER, recipient=BEN, subject="Plan", content="c",
                   attachments=["data/notes.txt"]).ok
    sent = office.root / "emails" / USER / "sent"
    assert (sent / "msg-1.eml").read_bytes() == (sent / "msg-2.eml").read_bytes()


def test_next_id_follows_highest(run, office):
    inbox = office.root / "emails" / BEN
    inbox.mkdir(parents=True)
    (inbox / "msg-7.eml").write_bytes(b"From: a@x.test\r\nSubject: old\r\n\r\nold\r\n")
    assert run("email", "send_email", sender=USER, recipient=BEN, subject="S", content="c").ok
    assert (inbox / "msg-8.eml").exists()
    assert run("email", "send_email", sender=USER, recipient=BEN, subject="S2", content="c").ok
    assert (office.root / "emails" / USER / "sent" / "msg-2.eml").exists()


def test_send_validation(run):
    r = run("email", "send_email", sender=USER, recipient="not an address", subject="s", content="c")
    assert not r.ok and r.error["code"] == "bad_arguments" and "not an email address" in r.observation
    r = run("email", "send_email", sender=USER, recipient=BEN, subject="s", content="c", attachments=["data/nope.pdf"])
    assert not r.ok and r.error["code"] == "file_not_found"
    r = run("email", "send_email", sender=USER, recipient=BEN, subject="s", content="c", attachments=["../x"])
    assert not r.ok and r.error["code"] == "path_outside_office"
    r = run("email", "send_email", sender=USER, recipient=BEN, subject="s")
    assert not r.ok and r.error["code"] == "bad_arguments" and "content" in r.observation


def test_list_and_read_own_mail(run, ctx):
    run("email", "send_email", sender=BEN, recipient=USER, subject="First", content="one " * 50)
    ctx.now = ctx.now.replace(hour=10)
    run("email", "send_email", sender=BEN, recipient=USER, subject="Second", content="two")
    r = run("email", "list_emails", username=USER)
    assert r.ok
    assert [m["subject"] for m in r.data] == ["Second", "First"]  # newest first
    assert r.data[1]["snippet"] == ("one " * 50)[:80]
    assert "[msg-2]" in r.observation.splitlines()[1]
    r = run("email", "read_email", username=USER, email_id="msg-1")
    assert r.ok and r.data["body"].strip() == ("one " * 50).strip()
    assert "Subject: First" in r.observation and r.data["date"] == "2026-03-10 09:00:00"
    sent = run("email", "list_emails", username=BEN, folder="sent")
    assert len(sent.data) == 2


def test_read_foreign_multipart(run, office):
    _foreign_mail(office)
    r = run("email", "read_email", username=USER, email_id="outside-1")
    assert r.ok, r.observation
    assert r.data["from"] == "ben.ortiz@northwind.test" and r.data["to"] == [USER]
    assert r.data["cc"] == ["ops@northwind.test"]
    assert "quarterly report is attached" in r.data["body"]
    assert r.data["attachments"] == [{"filename": "report.pdf", "size": len(b"%PDF-1.4 fake")}]
    assert "Attachments: report.pdf" in r.observation
    listing = run("email", "list_emails", username=USER)
    assert listing.data[0]["id"] == "outside-1" and listing.data[0]["attachments"] == ["report.pdf"]


def test_html_only_body_is_stripped(run, office):
    _foreign_mail(office, html_only=True)
    body = run("email", "read_email", username=USER, email_id="outside-1").data["body"]
    assert "Hello Maya" in body and "see the numbers." in body
    assert "<" not in body and "var x" not in body


def test_forward_carries_attachments(run, office):
    _foreign_mail(office)
    r = run("email", "forward_email", username=USER, email_id="outside-1", recipient="eve@northwind.test",
            content="FYI")
    assert r.ok, r.observation
    msg = _eml(office.root / "emails" / "eve@northwind.test" / "msg-1.eml")
    assert msg["Subject"] == "Fwd: Quarterly report"
    body = msg.get_body(preferencelist=("plain",)).get_content()
    assert body.startswith("FYI") and "the quarterly report is attached" in body
    assert [p.get_payload(decode=True) for p in msg.iter_attachments()] == [b"%PDF-1.4 fake"]
    # forwarding a forward does not stack prefixes
    assert run("email", "forward_email", username="eve@northwind.test", email_id="msg-1", recipient=BEN).ok
    again = _eml(office.root / "emails" / BEN / "msg-1.eml")
    assert again["Subject"] == "Fwd: Quarterly report"


def test_reply_goes_to_sender(run, office):
    _foreign_mail(office)
    r = run("email", "reply_email", username=USER, email_id="outside-1", content="Thanks!")
    assert r.ok, r.observation
    msg = _eml(office.root / "emails" / BEN / "msg-1.eml")
    assert msg["Subject"] == "Re: Quarterly report" and msg["To"] == BEN
    assert msg["In-Reply-To"] == "<report-1@northwind.test>"
    body = msg.get_body(preferencelist=("plain",)).get_content()
    assert body.startswith("Thanks!") and "> the quarterly report is attached." in body
    assert (office.root / "emails" / USER / "sent" / "msg-1.eml").exists()


def test_missing_and_corrupt(run, office):
    r = run("email", "read_email", username=USER, email_id="msg-9")
    assert not r.ok and r.error["code"] == "not_found"
    r = run("email", "read_email", username=USER, email_id="../../data/x")
    assert not r.ok and r.error["code"] == "bad_arguments"
    inbox = office.root / "emails" / USER
    inbox.mkdir(parents=True)
    (inbox / "broken.eml").write_bytes(b"")
    r = run("email", "read_email", username=USER, email_id="broken")
    assert not r.ok and r.error["code"] == "corrupt_file"
    listing = run("email", "list_emails", username=USER)
    assert listing.ok and "unreadable" in listing.observation
    r = run("email", "list_emails", username=USER, folder="trash")
    assert not r.ok and r.error["code"] == "bad_arguments"


def test_empty_mailbox(run):
    r = run("email", "list_emails", username=USER)
    assert r.ok and r.data == [] and "No emails" in r.observation


def test_sent_mail_agrees_with_parsed_office_state(run, office):
    """What send_email writes reads back through testbed/parse.py with the same fields."""
    from officesim.testbed.parse import parse_office

    (office.root / "data" / "notes.txt").write_text("notes")
    assert run("email", "send_email", sender=USER, recipient=[BEN], cc=["Ops <ops@northwind.test>"],
               subject="Plan", content="Body text", attachments=["data/notes.txt"]).ok
    entry = parse_office(office.root)[f"emails/{USER}/sent/msg-1.eml"]
    assert (entry["from"], entry["to"], entry["cc"]) == (USER, [BEN], ["ops@northwind.test"])
    assert entry["subject"] == "Plan" and entry["body"].strip() == "Body text"
    assert entry["date"] == "2026-03-10 09:00:00"
    assert [a["filename"] for a in entry["attachments"]] == ["notes.txt"]


def _inbox_of(office, count: int) -> None:
    """``count`` messages from two senders on consecutive days of March and April 2026."""
    folder = office.root / "emails" / USER
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(1, count + 1):
        msg = EmailMessage()
        msg["From"] = BEN if n % 2 else "Eve Park <eve@northwind.test>"
        msg["To"] = USER
        msg["Subject"] = f"Order {n:03d}" + (" overdue" if n % 10 == 0 else "")
        day = 1 + (n - 1) % 28
        msg["Date"] = f"{['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][0]}, {day:02d} {'Mar' if n <= 28 else 'Apr'} 2026 09:{n % 60:02d}:00 +0000"
        msg.set_content(f"Body of order {n}. " + ("The invoice INV-77 is attached." if n == 37 else ""))
        (folder / f"msg-{n}.eml").write_bytes(msg.as_bytes())


def test_list_emails_pages_newest_first_and_says_how_to_go_on(run, office):
    _inbox_of(office, 70)
    first = run("email", "list_emails", username=USER)
    assert first.ok and len(first.data) == 30
    head = first.observation.splitlines()[0]
    assert "70 emails" in head and "page 1 of 3" in head and "page=2" in head
    third = run("email", "list_emails", username=USER, page=3)
    assert len(third.data) == 10 and "the last page" in third.observation.splitlines()[0]
    everything = run("email", "list_emails", username=USER, show_all=True)
    ids = [m["id"] for m in everything.data]
    assert len(ids) == 70 and ids[:30] == [m["id"] for m in first.data] and ids[60:] == [m["id"] for m in third.data]
    assert "body" not in everything.data[0]  # the whole text stays for read_email
    small = run("email", "list_emails", username=USER, page_size=5, page=2)
    assert [m["id"] for m in small.data] == ids[5:10]
    for bad in ({"page": 0}, {"page_size": 0}, {"page_size": 201}):
        r = run("email", "list_emails", username=USER, **bad)
        assert not r.ok and r.error["code"] == "bad_arguments"
    beyond = run("email", "list_emails", username=USER, page=9)
    assert beyond.ok and beyond.data == [] and "3 pages" in beyond.observation


def test_search_emails_by_sender_subject_text_and_days(run, office):
    _inbox_of(office, 70)
    by_sender = run("email", "search_emails", username=USER, sender="eve park")
    assert by_sender.ok and "35 emails" in by_sender.observation.splitlines()[0]
    assert all(m["from"] == "eve@northwind.test" for m in by_sender.data)
    overdue = run("email", "search_emails", username=USER, subject="OVERDUE")
    assert sorted(m["subject"] for m in overdue.data) == [f"Order {n:03d} overdue" for n in (10, 20, 30, 40, 50, 60, 70)]
    text = run("email", "search_emails", username=USER, text="invoice inv-77")
    assert [m["id"] for m in text.data] == ["msg-37"]
    april = run("email", "search_emails", username=USER, since="2026-04-01", until="2026-04-03")
    assert sorted(m["id"] for m in april.data) == ["msg-29", "msg-30", "msg-31", "msg-57", "msg-58", "msg-59"]
    both = run("email", "search_emails", username=USER, sender="ben", since="2026-04-01", until="2026-04-01")
    assert [m["id"] for m in both.data] == ["msg-57", "msg-29"]  # both Ben's, on 1 April, newest first
    none = run("email", "search_emails", username=USER, text="nothing like this")
    assert none.ok and none.data == [] and "No emails" in none.observation
    bad = run("email", "search_emails", username=USER, since="March 3")
    assert not bad.ok and bad.error["code"] == "bad_date"
    backwards = run("email", "search_emails", username=USER, since="2026-04-03", until="2026-04-01")
    assert not backwards.ok and backwards.error["code"] == "bad_arguments"


def test_a_long_inbox_is_parsed_once_per_machine(run, office, monkeypatch, tmp_path):
    """A worker's first listing of 50 or more unseen messages takes them from the machine's store when
    the same messages (names and contents) were parsed before, by any process."""
    from officesim.apps import _cache, email as email_app

    monkeypatch.setenv("OFFICESIM_CACHE", str(tmp_path / "cache"))
    _inbox_of(office, 70)
    first = run("email", "list_emails", username=USER)
    email_app.forget_listings()  # as a new worker
    _cache.clear()
    monkeypatch.setattr(email_app, "load_message", lambda *a, **k: (_ for _ in ()).throw(AssertionError("parsed")))
    again = run("email", "list_emails", username=USER)
    assert again.ok and again.data == first.data
    (office.root / "emails" / USER / "msg-3.eml").write_bytes(
        (office.root / "emails" / USER / "msg-3.eml").read_bytes().replace(b"Order 003", b"Order 333"))
    email_app.forget_listings()
    changed = run("email", "list_emails", username=USER, show_all=True)  # another content: parsed again
    assert not changed.ok and "parsed" in changed.observation  # (the stand-in parser refuses to)
