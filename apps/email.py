"""The email app: mailboxes of real .eml files.

``emails/<address>/<id>.eml`` is a person's inbox and ``emails/<address>/sent/<id>.eml`` their
sent mail; the email_id an agent sees is the file stem. Sending writes one message into the
sender's sent folder and one into the inbox of every To/Cc recipient, each named ``msg-<n>``
with ``n`` one above the highest number already used in that folder. Messages written by other
tools (multipart, display names, html-only bodies) are read as well.
"""

from __future__ import annotations

import hashlib
import mimetypes
import os
import re
import stat
import threading
from collections import OrderedDict
from datetime import date, datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import format_datetime, getaddresses, parseaddr, parsedate_to_datetime
from html.parser import HTMLParser
from pathlib import Path

from officesim.apps import _cache
from officesim.apps.calendar import office_zone
from officesim.apps.people import person_address, person_key, unknown_hint
from officesim.apps.registry import App, OfficeContext, OpError, Result
from officesim.testbed.guards import TooLarge

app = App("email", "Read, send, forward and reply to email; each person has an inbox and a sent folder.")

FOLDERS = ("inbox", "sent")
SNIPPET = 80
PAGE_SIZE = 30  # emails a listing shows by default: a screenful, as a mail client shows
MAX_PAGE_SIZE = 200
_ADDRESS = re.compile(r"^[^@\s<>,;:\"()\[\]]+@[^@\s<>,;:\"()\[\]]+$")
_MSG_N = re.compile(r"^msg-(\d+)$")
_BLOCK_TAGS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol"}


# -- addresses ---------------------------------------------------------------------------------


def address(text: str, field: str, ctx: OfficeContext | None = None) -> str:
    """One bare lower-case address from 'a@x.test' or 'Name <a@x.test>', else bad_arguments; with
    ``ctx``, a person of the office named by name (apps/people.py) gives their address."""
    if ctx is not None:
        known = person_address(ctx, str(text))
        if known is not None:
            return known
    _name, addr = parseaddr(str(text).strip())
    addr = addr.strip().lower()
    if not _ADDRESS.match(addr):
        hint = unknown_hint(ctx) if ctx is not None else ""
        raise OpError("bad_arguments", f"argument '{field}': '{text}' is not an email address{hint}")
    return addr


def address_list(value: str | list[str] | None, field: str, ctx: OfficeContext | None = None) -> list[str]:
    """Addresses from a string (commas/semicolons allowed) or a list, de-duplicated in order."""
    if value is None:
        return []
    items = re.split(r"[,;]", value) if isinstance(value, str) else list(value)
    out: list[str] = []
    for item in items:
        if str(item).strip():
            addr = address(item, field, ctx)
            if addr not in out:
                out.append(addr)
    return out


def _header_addresses(msg: EmailMessage, name: str) -> list[str]:
    values = [str(v) for v in msg.get_all(name, [])]
    return [a.lower() for _n, a in getaddresses(values) if a]


# -- reading -----------------------------------------------------------------------------------


class _TextOnly(HTMLParser):
    """Text of an html body (scripts and styles dropped, block tags as line breaks)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def html_to_text(html: str) -> str:
    parser = _TextOnly()
    parser.feed(html)
    text = "".join(parser.parts)
    text = re.sub(r"[ \t\r\f\v]+", " ", text)
    return re.sub(r"\n\s*\n+", "\n\n", text).strip()


def _part_text(part) -> str:
    try:
        return part.get_content()
    except (LookupError, UnicodeError, AttributeError):
        payload = part.get_payload(decode=True) or b""
        return payload.decode("utf-8", errors="replace")


def body_text(msg: EmailMessage) -> str:
    """The text/plain body; an html-only message falls back to its stripped text."""
    part = msg.get_body(preferencelist=("plain",))
    if part is not None:
        return _part_text(part)
    part = msg.get_body(preferencelist=("html",))
    return html_to_text(_part_text(part)) if part is not None else ""


def html_extra(msg: EmailMessage) -> str:
    """The text of an html alternative beside a text/plain body, when it holds words the plain body
    lacks (a table sent only in html); '' otherwise."""
    plain, html = msg.get_body(preferencelist=("plain",)), msg.get_body(preferencelist=("html",))
    if plain is None or html is None:
        return ""
    source = re.sub(r"(?i)</t[dh]>\s*<t[dh][^>]*>", " | ", _part_text(html))  # table cells of a row on one line
    text = "\n".join(line.strip() for line in html_to_text(source).splitlines() if line.strip())
    have = set(re.findall(r"\w+", _part_text(plain).lower()))
    return text if set(re.findall(r"\w+", text.lower())) - have else ""


def message_attachments(msg: EmailMessage) -> list[tuple[str, str, bytes]]:
    """(file name, content type, bytes) of every attachment."""
    out = []
    for i, part in enumerate(msg.iter_attachments(), 1):
        name = part.get_filename() or f"attachment-{i}"
        data = part.get_payload(decode=True) or b""
        out.append((name, part.get_content_type(), data))
    return out


def load_message(data: bytes, label: str) -> EmailMessage:
    """Parse one .eml (its bytes, read once); an empty or header-less file is reported as corrupt."""
    try:
        msg = BytesParser(policy=policy.default).parsebytes(data)
    except (TooLarge, MemoryError):
        raise
    except Exception as exc:  # the parser is lenient; this is for I/O and worse
        raise OpError("corrupt_file", f"email {label} could not be read: {exc}") from None
    if not data.strip() or not any(msg.get(h) for h in ("from", "to", "subject", "date")):
        raise OpError("corrupt_file", f"email {label} is not a valid email message")
    return msg


def _show_date(raw: str | None, ctx: OfficeContext) -> str:
    """A Date header as office wall-clock time ('' when missing, raw when unparsable)."""
    if not raw:
        return ""
    try:
        when = parsedate_to_datetime(str(raw))
    except (TypeError, ValueError):
        return str(raw)
    if when.tzinfo is not None:
        when = when.astimezone(office_zone(ctx)).replace(tzinfo=None)
    return when.strftime("%Y-%m-%d %H:%M:%S")


def summary(msg: EmailMessage, email_id: str, ctx: OfficeContext) -> dict:
    """The fields an agent needs of one message (also the data of read_email)."""
    return {
        "id": email_id,
        "from": (_header_addresses(msg, "from") or [""])[0],
        "from_header": str(msg.get("from", "")),
        "to": _header_addresses(msg, "to"),
        "cc": _header_addresses(msg, "cc"),
        "subject": str(msg.get("subject", "")),
        "date": _show_date(msg.get("date"), ctx),
        "message_id": str(msg.get("message-id", "")) or None,
        "in_reply_to": str(msg.get("in-reply-to", "")) or None,
    }


def _folder_dir(ctx: OfficeContext, username: str, folder: str) -> Path:
    folder = (folder or "inbox").strip().lower()
    if folder not in FOLDERS:
        raise OpError("bad_arguments", f"argument 'folder': '{folder}' is not a folder (use inbox or sent)")
    return ctx.office.mailbox(person_key(ctx, username), folder)


def _message(ctx: OfficeContext, username: str, email_id: str) -> tuple[EmailMessage, str, str]:
    """An email by id, from the inbox, else the sent folder: its message, its folder and its id."""
    path, folder = _message_path(ctx, username, email_id)
    return load_message(ctx.office.read_bytes(path, email_id), email_id), folder, path.stem


def _message_path(ctx: OfficeContext, username: str, email_id: str) -> tuple[Path, str]:
    """Find an email by id in the inbox, then in the sent folder."""
    stem = str(email_id).strip()
    stem = stem[:-4] if stem.lower().endswith(".eml") else stem
    if not stem or "/" in stem or "\\" in stem or stem in (".", ".."):
        raise OpError("bad_arguments", f"argument 'email_id': '{email_id}' is not an email id")
    for folder in FOLDERS:
        candidate = _folder_dir(ctx, username, folder) / f"{stem}.eml"
        if ctx.office.kind(candidate) != "missing":  # opened later without links: a link is refused there
            return candidate, folder
    raise OpError("not_found", f"no email '{stem}' in the mailbox of {username.lower()} (use list_emails to see the ids)")


def _date_key(msg: EmailMessage | None) -> float:
    try:
        return parsedate_to_datetime(str(msg.get("date"))).timestamp() if msg is not None else 0.0
    except (TypeError, ValueError):
        return 0.0


def _id_key(stem: str) -> tuple:
    """msg-10 sorts after msg-9."""
    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", stem))


# -- writing -----------------------------------------------------------------------------------


def _next_id(ctx: OfficeContext, folder: Path) -> str:
    highest = 0
    for name in ctx.office.listdir(folder):
        m = _MSG_N.match(name[:-4]) if name.endswith(".eml") else None
        if m:
            highest = max(highest, int(m.group(1)))
    return f"msg-{highest + 1}"


def _write(ctx: OfficeContext, folder: Path, msg: EmailMessage) -> str:
    """Store ``msg`` under the next free msg-<n> of ``folder`` (Office.write_bytes: atomic, a mkstemp
    temporary, no link followed; missing folders made)."""
    stem = _next_id(ctx, folder)
    ctx.office.write_bytes(folder / f"{stem}.eml", msg.as_bytes(policy=policy.SMTP))
    return stem


def _attachment_files(ctx: OfficeContext, paths: list[str] | None) -> list[tuple[str, str, bytes]]:
    out = []
    for path in paths or []:
        real = ctx.office.resolve(path)
        try:
            data = ctx.office.read_bytes(real, path)  # one open, no link followed, the descriptor checked
        except OpError as exc:
            if exc.code in ("file_not_found", "wrong_file_type"):
                raise OpError("file_not_found", f"attachment not found: {path}") from None
            raise
        ctype = mimetypes.guess_type(real.name)[0] or "application/octet-stream"
        out.append((real.name, ctype, data))
    return out


def _now(ctx: OfficeContext) -> datetime:
    now = ctx.now or datetime.now()
    return now if now.tzinfo is not None else now.replace(tzinfo=office_zone(ctx))


def _message_id(sender: str, stamp: str, subject: str, to: list[str]) -> str:
    digest = hashlib.sha1(f"{sender}|{stamp}|{subject}|{','.join(to)}".encode()).hexdigest()[:20]
    return f"<{digest}@{sender.split('@', 1)[1]}>"


def _compose(ctx: OfficeContext, sender: str, to: list[str], cc: list[str], subject: str, body: str,
             files: list[tuple[str, str, bytes]], extra: dict[str, str] | None = None) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = ", ".join(to)
    if cc:
        msg["Cc"] = ", ".join(cc)
    msg["Subject"] = subject
    msg["Date"] = format_datetime(_now(ctx))
    msg["Message-ID"] = _message_id(sender, msg["Date"], subject, to + cc)
    for key, value in (extra or {}).items():
        msg[key] = value
    msg.set_content(body)
    for name, ctype, data in files:
        maintype, _, subtype = ctype.partition("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype or "octet-stream", filename=name)
    # Generated boundaries are random; derive them from the Message-ID so reruns give equal bytes.
    seed = hashlib.sha1(str(msg["Message-ID"]).encode()).hexdigest()[:16]
    for i, part in enumerate(msg.walk()):
        if part.is_multipart():
            part.set_boundary(f"=_officesim_{seed}_{i}")
    return msg


def _deliver(ctx: OfficeContext, sender: str, to: list[str], cc: list[str], subject: str, body: str,
             files: list[tuple[str, str, bytes]], extra: dict[str, str] | None = None) -> Result:
    """Write the sent copy and one inbox copy per recipient; describe what happened."""
    if not to:
        raise OpError("bad_arguments", "argument 'recipient': at least one recipient is needed")
    msg = _compose(ctx, sender, to, cc, subject, body, files, extra)
    sent_id = _write(ctx, _folder_dir(ctx, sender, "sent"), msg)
    delivered = {}
    for rcpt in dict.fromkeys(to + cc):
        delivered[rcpt] = _write(ctx, _folder_dir(ctx, rcpt, "inbox"), msg)
    names = ", ".join(name for name, _c, _d in files)
    text = (f"Email sent from {sender} to {', '.join(to)}" + (f" (cc: {', '.join(cc)})" if cc else "")
            + f" with subject '{subject}'" + (f" and attachments: {names}" if names else "")
            + f".\nSaved as {sent_id} in the sent folder of {sender}.")
    data = {"id": sent_id, "message_id": str(msg["Message-ID"]), "delivered": delivered,
            "attachments": [name for name, _c, _d in files]}
    return Result(observation=text, data=data)


def _prefixed(prefix: str, subject: str, also: tuple[str, ...] = ()) -> str:
    """'Re: x' / 'Fwd: x', without stacking a prefix that is already there."""
    low = subject.strip().lower()
    if any(low.startswith(p.lower()) for p in (prefix,) + also):
        return subject.strip()
    return f"{prefix} {subject.strip()}"


# -- operations --------------------------------------------------------------------------------


_SEEN: "OrderedDict[tuple, tuple[dict, float]]" = OrderedDict()  # by the entry's identity, see _list_entry
# sized by the text it holds, not by a count: 50,000 entries of lived-in mail were ~1.6 MiB an inbox and
# let a worker grow with every world it listed. Override: OFFICESIM_MAIL_LIST_MB.
_SEEN_BYTES = int(float(os.environ.get("OFFICESIM_MAIL_LIST_MB") or 32)) << 20
_SEEN_WEIGHT: dict[tuple, int] = {}
_seen_size = 0
STORE_AT = 50  # unseen messages from which a listing asks the machine's store first
_SEEN_LOCK = threading.Lock()


def _identity(path: Path, ctx: OfficeContext) -> tuple | None:
    """A message entry's identity: its own status (a link is not followed): device, inode, size,
    modification and change times. The change time is the kernel's, set on every write, rename or link of
    the inode, so no program can make a changed file look unchanged; None for anything but a regular file."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, path.stem, str(office_zone(ctx)))


def _remember(ident: tuple | None, entry: tuple[dict, float]) -> None:
    if ident is None:
        return
    global _seen_size
    weight = _weight(entry)
    with _SEEN_LOCK:
        _seen_size += weight - _SEEN_WEIGHT.get(ident, 0)
        _SEEN[ident] = entry
        _SEEN_WEIGHT[ident] = weight
        _SEEN.move_to_end(ident)
        while _seen_size > _SEEN_BYTES and len(_SEEN) > 1:
            old, _ = _SEEN.popitem(last=False)
            _seen_size -= _SEEN_WEIGHT.pop(old, 0)


def _weight(entry: tuple[dict, float]) -> int:
    """About the bytes an entry holds: its text fields (the body is most of it) and a fixed overhead."""
    info = entry[0]
    return 600 + sum(len(v) for v in info.values() if isinstance(v, str)) \
        + sum(len(a) for a in info.get("attachments") or () if isinstance(a, str))


def forget_listings() -> None:
    """Drop every remembered listing entry (a new worker's state)."""
    global _seen_size
    with _SEEN_LOCK:
        _SEEN.clear()
        _SEEN_WEIGHT.clear()
        _seen_size = 0


def _list_entry(path: Path, ctx: OfficeContext, ident: tuple | None) -> tuple[dict, float]:
    """One message as list_emails shows it (with its whole text under "body", for searching), and its
    date for sorting; cached by the file's content (the email package's header parsing costs about a
    millisecond per message), and by the entry's identity (``_identity``): a lived-in inbox of 600
    messages is listed from the status of its entries alone when none changed; a link or a new file has
    another identity and is read, through Office.read_bytes."""
    if ident is not None:
        with _SEEN_LOCK:
            hit = _SEEN.get(ident)
            if hit is not None:
                _SEEN.move_to_end(ident)
                return hit  # shared: the listings copy what they show and change nothing
    entry = _read_entry(path, ctx)
    _remember(ident, entry)
    return entry


def _from_store(paths: list[Path], ctx: OfficeContext) -> None:
    """Fill the identity cache for many messages at once from the machine's store (testbed/refstore.py):
    a worker's first listing of a lived-in inbox parsed its 600 messages (1.4 s), in every worker of every
    server process. The store's entry is named by the messages' names and contents (read here, through
    Office.read_bytes), the office's zone and the code, so it holds exactly what parsing them gives."""
    from officesim.testbed import refstore

    read: list[tuple[Path, tuple | None, bytes]] = []
    for path in paths:
        ident = _identity(path, ctx)
        try:
            read.append((path, ident, ctx.office.read_bytes(path, path.stem)))
        except (OpError, TooLarge):
            continue  # listed as it always was, one by one
    h = hashlib.sha256(f"{office_zone(ctx)}\0{refstore.code_version()}".encode())
    for path, _ident, data in sorted(read, key=lambda r: r[0].name):
        h.update(f"\0{path.name}\0".encode() + hashlib.sha256(data).digest())
    digest = h.hexdigest()[:32]
    stored = refstore.load("mailbox", digest)
    if not isinstance(stored, dict):
        stored = {}
        for path, _ident, _data in read:
            try:
                stored[path.name] = _read_entry(path, ctx)
            except OpError:
                continue
        refstore.store("mailbox", digest, stored)
    for path, ident, _data in read:
        if path.name in stored:
            _remember(ident, stored[path.name])


def _read_entry(path: Path, ctx: OfficeContext) -> tuple[dict, float]:
    data = ctx.office.read_bytes(path, path.stem)

    def parse() -> tuple[dict, float]:
        msg = load_message(data, path.stem)
        info = summary(msg, path.stem, ctx)
        text = body_text(msg)
        info["snippet"] = " ".join(text.split())[:SNIPPET]
        info["attachments"] = [name for name, _c, _d in message_attachments(msg)]
        info["body"] = text
        return info, _date_key(msg)

    return _cache.by_content(data, ("email.list_emails", path.stem, str(office_zone(ctx))), parse)


def _folder_entries(ctx: OfficeContext, username: str, folder: str) -> list[dict]:
    """Every message of a folder as list_emails shows it, newest first (an unreadable one as an error row)."""
    where = _folder_dir(ctx, username, folder)
    idents = {where / name: None for name in ctx.office.listdir(where) if name.endswith(".eml")}
    for path in idents:
        idents[path] = _identity(path, ctx)
    with _SEEN_LOCK:
        unseen = [p for p, ident in idents.items() if ident is None or ident not in _SEEN]
    if len(unseen) >= STORE_AT:
        _from_store(unseen, ctx)
    rows = []
    for path, ident in idents.items():
        try:
            rows.append(_list_entry(path, ctx, ident))  # read without following links: a link is an error row
        except OpError as exc:
            rows.append(({"id": path.stem, "error": exc.message}, 0.0))
    rows.sort(key=lambda r: (r[1], _id_key(r[0]["id"])), reverse=True)
    return [info for info, _m in rows]


def _page_of(rows: list[dict], page: int, page_size: int, show_all: bool) -> tuple[list[dict], int, int]:
    """The rows of one page (1-based), the page and the number of pages; everything with ``show_all``."""
    if page < 1:
        raise OpError("bad_arguments", "argument 'page': pages count from 1")
    if not 1 <= page_size <= MAX_PAGE_SIZE:
        raise OpError("bad_arguments", f"argument 'page_size': between 1 and {MAX_PAGE_SIZE}")
    if show_all:
        return rows, 1, 1
    pages = max(1, -(-len(rows) // page_size))
    return rows[(page - 1) * page_size:page * page_size], page, pages


def _listing(rows: list[dict], total: int, page: int, pages: int, label: str, call: str) -> Result:
    """The observation of a page of messages: a header with the total and how to get the next page."""
    data = [{k: v for k, v in info.items() if k != "body"} for info in rows]
    if not total:
        return Result(observation=f"No emails in {label}.", data=[])
    if pages == 1:
        head = f"{total} email{'s' if total != 1 else ''} in {label} (newest first):"
    elif not rows:
        head = f"No emails on page {page} of {label}: it has {total} emails on {pages} pages."
    else:
        head = (f"{total} emails in {label} (newest first); page {page} of {pages}"
                + (f" (next: {call}, page={page + 1}))" if page < pages else " (the last page)") + ":")
    lines = [head]
    for info in data:
        if "error" in info:
            lines.append(f"[{info['id']}] (unreadable: {info['error']})")
            continue
        clip = " [attachments: " + ", ".join(info["attachments"]) + "]" if info["attachments"] else ""
        lines.append(f"[{info['id']}] {info['date']} | From: {info['from']} | To: {', '.join(info['to'])}"
                     f" | Subject: {info['subject']}{clip}\n    {info['snippet']}")
    return Result(observation="\n".join(lines), data=data)


@app.operation
def list_emails(ctx: OfficeContext, username: str, folder: str = "inbox", page: int = 1,
                page_size: int = PAGE_SIZE, show_all: bool = False) -> Result:
    """List the emails of a mailbox folder, newest first, with their ids, a page at a time.

    Args:
        username: email address of the mailbox owner.
        folder: "inbox" (default) or "sent".
        page: the page to show, from 1 (the newest emails); the header says how many pages there are.
        page_size: emails per page (default 30, at most 200).
        show_all: true to list every email of the folder at once.
    """
    rows = _folder_entries(ctx, username, folder)
    shown, page, pages = _page_of(rows, page, page_size, show_all)
    label = f"the {folder.strip().lower()} folder of {username.lower()}"
    return _listing(shown, len(rows), page, pages, label,
                    f"list_emails(username={username!r}, folder={folder.strip().lower()!r}")


def _day(text: str | None, name: str) -> date | None:
    if text is None or not str(text).strip():
        return None
    try:
        return datetime.strptime(str(text).strip()[:10], "%Y-%m-%d").date()
    except ValueError:
        raise OpError("bad_date", f"{name} '{text}' is not a date like 2026-03-10") from None


@app.operation
def search_emails(ctx: OfficeContext, username: str, folder: str = "inbox", sender: str | None = None,
                  subject: str | None = None, text: str | None = None, since: str | None = None,
                  until: str | None = None, page: int = 1, page_size: int = PAGE_SIZE) -> Result:
    """Search a mailbox folder: emails whose sender, subject, text and date match every filter given,
    newest first, a page at a time.

    Args:
        username: email address of the mailbox owner.
        folder: "inbox" (default) or "sent".
        sender: part of the sender's address or name (any case).
        subject: part of the subject (any case).
        text: words that must all occur in the subject or the body (any case).
        since: the earliest day, YYYY-MM-DD (inclusive).
        until: the latest day, YYYY-MM-DD (inclusive).
        page: the page of results to show, from 1.
        page_size: results per page (default 30, at most 200).
    """
    first, last = _day(since, "since"), _day(until, "until")
    if first and last and last < first:
        raise OpError("bad_arguments", f"until {last} is before since {first}")
    words = (text or "").casefold().split()

    def wanted(info: dict) -> bool:
        if "error" in info:
            return False
        if sender and sender.strip().casefold() not in f"{info['from']} {info['from_header']}".casefold():
            return False
        if subject and subject.strip().casefold() not in info["subject"].casefold():
            return False
        hay = f"{info['subject']}\n{info.get('body', '')}".casefold()
        if any(w not in hay for w in words):
            return False
        day = info["date"][:10]
        return not (first and (not day or day < first.isoformat()) or last and (not day or day > last.isoformat()))

    rows = [info for info in _folder_entries(ctx, username, folder) if wanted(info)]
    shown, page, pages = _page_of(rows, page, page_size, False)
    filters = ", ".join(f"{k}={v!r}" for k, v in (("sender", sender), ("subject", subject), ("text", text),
                                                   ("since", since), ("until", until)) if v)
    label = f"the {folder.strip().lower()} folder of {username.lower()} matching {filters or 'everything'}"
    call = f"search_emails(username={username!r}, folder={folder.strip().lower()!r}" + (f", {filters}" if filters else "")
    return _listing(shown, len(rows), page, pages, label, call)


@app.operation
def read_email(ctx: OfficeContext, username: str, email_id: str) -> Result:
    """Read one email: headers, the full text and the names of its attachments.

    Args:
        username: email address of the mailbox owner.
        email_id: the email's id as shown by list_emails (e.g. "msg-1").
    """
    msg, folder, stem = _message(ctx, username, email_id)
    info = summary(msg, stem, ctx)
    files = message_attachments(msg)
    info.update(folder=folder, body=body_text(msg),
                attachments=[{"filename": n, "size": len(d)} for n, _c, d in files])
    lines = [f"Email {info['id']} ({folder} of {username.lower()})",
             f"From: {info['from_header']}", f"To: {', '.join(info['to'])}"]
    if info["cc"]:
        lines.append(f"Cc: {', '.join(info['cc'])}")
    lines += [f"Date: {info['date']}", f"Subject: {info['subject']}"]
    if files:
        lines.append("Attachments: " + ", ".join(f"{n} ({len(d)} bytes)" for n, _c, d in files))
    lines += ["", info["body"].rstrip()]
    extra = html_extra(msg)
    if extra:  # an html alternative that says more than the text part (a table): shown too, as OfficeBench does
        info["html_text"] = extra
        lines += ["", "[the html version of this email also holds:]", extra]
    return Result(observation="\n".join(lines), data=info)


@app.operation(writes=True)
def send_email(
    ctx: OfficeContext,
    sender: str,
    recipient: str | list[str],
    subject: str,
    content: str,
    cc: str | list[str] | None = None,
    attachments: list[str] | None = None,
) -> Result:
    """Send an email; it lands in the sender's sent folder and in every recipient's inbox.

    Args:
        sender: email address of the sender (usually the user).
        recipient: one email address, or a list of addresses.
        subject: the subject line.
        content: the text of the email.
        cc: addresses to copy: a list, or one string (several separated by commas).
        attachments: office paths of files to attach, e.g. ["data/report.pdf"].
    """
    return _deliver(ctx, address(sender, "sender", ctx), address_list(recipient, "recipient", ctx),
                    address_list(cc, "cc", ctx), subject, content, _attachment_files(ctx, attachments))


@app.operation(writes=True)
def forward_email(ctx: OfficeContext, username: str, email_id: str, recipient: str | list[str], content: str = "") -> Result:
    """Forward an email (with its attachments) to someone, optionally with a note on top.

    Args:
        username: email address of the mailbox owner, who forwards.
        email_id: id of the email to forward.
        recipient: one email address, or a list of addresses.
        content: a note placed above the forwarded message.
    """
    sender = address(username, "username", ctx)
    msg, _folder, stem = _message(ctx, username, email_id)
    info = summary(msg, stem, ctx)
    quoted = "\n".join([
        "---------- Forwarded message ----------",
        f"From: {info['from_header']}", f"Date: {info['date']}",
        f"Subject: {info['subject']}", f"To: {', '.join(info['to'])}", "", body_text(msg).rstrip(),
    ])
    body = f"{content.rstrip()}\n\n{quoted}\n" if content.strip() else quoted + "\n"
    return _deliver(ctx, sender, address_list(recipient, "recipient", ctx), [],
                    _prefixed("Fwd:", info["subject"], ("fw:",)), body, message_attachments(msg))


@app.operation(writes=True)
def reply_email(ctx: OfficeContext, username: str, email_id: str, content: str) -> Result:
    """Reply to the sender of an email; the original is quoted below the reply.

    Args:
        username: email address of the mailbox owner, who replies.
        email_id: id of the email to reply to.
        content: the text of the reply.
    """
    sender = address(username, "username", ctx)
    msg, _folder, stem = _message(ctx, username, email_id)
    info = summary(msg, stem, ctx)
    if not info["from"]:
        raise OpError("corrupt_file", f"email {email_id} has no sender to reply to")
    quoted = "\n".join("> " + line for line in body_text(msg).rstrip().splitlines())
    body = f"{content.rstrip()}\n\nOn {info['date']}, {info['from_header']} wrote:\n{quoted}\n"
    extra = {}
    if info["message_id"]:
        extra = {"In-Reply-To": info["message_id"], "References": info["message_id"]}
    return _deliver(ctx, sender, [info["from"]], [], _prefixed("Re:", info["subject"]), body, [], extra)
