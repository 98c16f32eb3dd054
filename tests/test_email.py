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
