"""OfficeBench's original evaluation, re-implemented to behave as the original does (its
``utils/evaluate.py`` at commit 4434746), so an imported task reports the original verdict beside
officesim's ("OfficeBench (original)" in summary and report).

Each original function is reproduced with its quirks, because they decide the original score:
keywords are lower-cased substrings (``"1"`` is in ``"10"``; once a keyword is a number, commas are
removed from the text for the keywords after it), ``.xlsx`` files are read as openpyxl's
``(row, col): value`` listing of the active sheet with formulas as their text, ``.ics`` and ``.txt``
files as raw text, an exact match of PDFs or Word files compares page and paragraph *objects* (never
equal), a missing ``file`` argument or any exception fails the task, ``evaluate_not_contain`` passes
when the file is missing. A task passes when every function returns true (``evaluation.py``).

Two things are where an officesim office keeps them, not where the OfficeBench container did:

- **The answer.** OfficeBench's ``finish_task`` runs ``echo '<answer>' > /testbed/data/answer.txt``
  (quotes removed, ``None`` when no answer is given); checks of ``data/answer.txt`` read that file, so
  here a session that ended with ``finish_task`` has it with the same content.
- **Mail.** OfficeBench keeps a person's sent and received mail in one folder, ``emails/<Name>/``;
  officesim keeps sent mail in ``emails/<Name>/sent/``, so the mailbox listing here covers both.
  The original listing function reads ``/testbed/emails/<Name>``, the container's path, whatever
  folder the evaluation passes it: run on the host over a copied output folder it finds no mail, and
  every mailbox keyword check fails even for a correct solution. That is a bug of the harness, not a
  rule of the benchmark, so it is **not** reproduced: the listing reads the office being graded.

Paths: ``../../../../reference/X`` (a task's reference files) and ``../../../../cache/<k>/testbed/X``
(the office as it was before the episode) are the two places outside the office the original reads.
Files are read under the same size guards as every other parser (testbed/guards.py).
"""

from __future__ import annotations

import ast
import difflib
import io
import os
import posixpath
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Any

from officesim.evaluators.record import CheckRecord
from officesim.testbed import safefs
from officesim.testbed.guards import MAX_FILE_BYTES, check_docx, check_xlsx
from officesim.testbed.office import Office

FUNCTIONS = ("evaluate_contain", "evaluate_not_contain", "evaluate_file_exist", "evaluate_file_not_exist",
             "evaluate_diff_contain_text", "evaluate_excel_cell_value", "evaluate_excel_cell_comparator",
             "evaluate_exact_match", "evaluate_calendar_no_overlap")
ANSWER_FILE = "data/answer.txt"
_CACHE = re.compile(r"^\.\./\.\./\.\./\.\./cache/\d+/testbed/(.+)$")
_REFERENCE = "../../../../reference/"


class OriginalError(Exception):
    """What made an original function raise (the original evaluation then fails the task)."""


@dataclass
class Testbed:
    """The output testbed as the original evaluation sees it."""

    root: Path  # the office after the episode
    before: Path | None = None  # the office before it (the original's cache/<k>/testbed)
    reference: Path | None = None  # the task's reference files
    answer: str | None = None  # the finish_task answer; None when the session did not finish
    finished: bool = False

    def locate(self, rel: str) -> Path | bytes | None:
        """A real path, the bytes of data/answer.txt, or None when the path leads nowhere we keep."""
        norm = posixpath.normpath(str(rel).strip())
        if norm.startswith(_REFERENCE):
            return self._inside(self.reference, norm[len(_REFERENCE):])
        m = _CACHE.match(norm)
        if m:
            return self._inside(self.before, m.group(1))
        if norm.startswith("..") or norm.startswith("/"):
            return None
        if norm == ANSWER_FILE and self.finished:
            text = "None" if self.answer is None else str(self.answer)
            return (text.replace('"', "").replace("'", "") + "\n").encode()
        return self._inside(self.root, norm)

    @staticmethod
    def _inside(base: Path | None, rel: str) -> Path | None:
        """``base / rel`` when it stays inside ``base`` by its words ('..' folded); links are not
        resolved here: the read below refuses any."""
        if base is None:
            return None
        base = Path(os.path.abspath(base))
        path = Path(os.path.normpath(base / rel))
        return path if path == base or base in path.parents else None

    def _base_of(self, path: Path) -> Path:
        for base in (self.reference, self.before, self.root):
            if base is not None and (path == Path(os.path.abspath(base)) or Path(os.path.abspath(base)) in path.parents):
                return Path(os.path.abspath(base))
        raise OriginalError(f"No such file: {path.name}")

    def exists(self, rel: str) -> bool:
        found = self.locate(rel)
        if isinstance(found, bytes):
            return True
        if found is None:
            return False
        base = self._base_of(found)
        try:
            return safefs.stat_beneath(base, found.relative_to(base).as_posix()) is not None
        except OSError:
            return False

    def read(self, rel: str) -> bytes:
        found = self.locate(rel)
        if isinstance(found, bytes):
            return found
        if found is None:
            raise OriginalError(f"No such file: {rel}")
        base = self._base_of(found)
        try:  # opened once beneath the office, no link followed, the descriptor checked
            return safefs.read_beneath(base, found.relative_to(base).as_posix(), MAX_FILE_BYTES)
        except OSError as exc:
            raise OriginalError(f"No such file: {rel} ({exc.strerror})") from None


# ---- the original readers ----------------------------------------------------------------------
def _workbook(data: bytes):
    import openpyxl

    check_xlsx(data)
    return openpyxl.load_workbook(io.BytesIO(data))


def excel_read_file(data: bytes) -> str:
    """apps/excel_app/excel_read_file.py: '(row, col): value\\t' for every cell, '\\n' per row."""
    sheet = _workbook(data).active
    out = []
    for row in sheet.iter_rows():
        for cell in row:
            value = "[Empty Cell]" if cell.value is None else cell.value
            out.append(f"({cell.row}, {cell.column}): {value}\t")
        out.append("\n")
    return "".join(out)


def _paragraphs(data: bytes) -> list[str]:
    import docx

    check_docx(data)
    return [p.text for p in docx.Document(io.BytesIO(data)).paragraphs]


def word_read_file_into_string(data: bytes) -> str:
    return "\n".join(_paragraphs(data))


def read_pdf_to_string(data: bytes) -> str:
    from pypdf import PdfReader

    from officesim.testbed.guards import check_pages

    reader = PdfReader(io.BytesIO(data))
    check_pages(len(reader.pages))
    return "".join(page.extract_text() for page in reader.pages)


def _raw_text(data: bytes) -> str:
    """``open(path).read()``: UTF-8 text, universal newlines; undecodable bytes raise."""
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def _email_content(msg) -> str:
    """email_list_emails.get_email_content: text parts of a multipart, else the payload; a part
    without a charset makes the original raise."""
    def decode(part) -> str:
        charset = part.get_content_charset()
        if charset is None:
            raise OriginalError("a message part has no charset (the original decode(None) raises)")
        return (part.get_payload(decode=True) or b"").decode(charset, errors="replace")

    if msg.is_multipart():
        return "\n".join(decode(p) for p in msg.iter_parts() if p.get_content_type() in ("text/plain", "text/html"))
    return decode(msg)


def list_emails(root: Path, folder: str) -> str:
    """email_list_emails.list_emails(username, first_n_letters=-1) over a mailbox folder of the office at
    ``root`` (and its sent/ folder, where officesim keeps the sent mail OfficeBench keeps beside the
    received); every file is read beneath the office without following a link."""
    office = Office(root)
    files = [f"{folder}/{n}" for n in office.listdir(root / folder) if n.endswith(".eml")]
    files += [f"{folder}/sent/{n}" for n in office.listdir(root / folder / "sent") if n.endswith(".eml")]
    try:
        out = []
        for rel in files:
            path = Path(rel)
            msg = BytesParser(policy=policy.default).parsebytes(safefs.read_beneath(root, rel, MAX_FILE_BYTES))
            out.append(f"Email ID: {path.name}\nFrom: {msg['From']}\nTo: {msg['To']}\nSubject: {msg['Subject']}\n"
                       f"Content: {_email_content(msg)}\n" + "-" * 50 + "\n")
        return "".join(out) or "No emails found."
    except Exception:  # the original answers this for any failure
        return "Error: Failed to list emails."


# ---- the original functions --------------------------------------------------------------------
def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def _contain_text(content: str, keywords: list) -> bool:
    content = content.lower()
    for keyword in keywords:
        keyword = keyword.lower()
        if _is_number(keyword):
            content = content.replace(",", "")
        if keyword not in content:
            return False
    return True


def evaluate_contain(tb: Testbed, args: dict) -> bool:
    kind = args["doc_type"]
    if kind == "email":
        username = args["username"]
        office = Office(tb.root)
        if office.kind(f"emails/{username}") == "folder":
            content = list_emails(office.root, f"emails/{username}")
        elif office.kind(f"emails/{username.lower()}") == "folder":
            content = list_emails(office.root, f"emails/{username.lower()}")
        else:  # the original's fallback loop reads a variable before assigning it
            raise OriginalError("UnboundLocalError: no mailbox folder named "
                                f"{username!r} or {username.lower()!r}")
        return _contain_text(content, args["keywords"])
    rel = args["file"]
    found = tb.locate(rel)
    if found is None:
        return False
    try:
        data = tb.read(rel)  # one open without links: a folder, a link or nothing reads as absent
    except OriginalError:
        return False
    if kind == "xlsx":
        content = excel_read_file(data)
    elif kind in ("txt", "ics"):
        content = _raw_text(data)
    elif kind in ("doc", "docx"):
        content = word_read_file_into_string(data)
    elif kind == "pdf":
        content = read_pdf_to_string(data)
    else:
        raise OriginalError(f"AssertionError: Not implemented doc type: {kind}")
    return _contain_text(content, args["keywords"])


def evaluate_not_contain(tb: Testbed, args: dict) -> bool:
    return not evaluate_contain(tb, args)


def evaluate_file_exist(tb: Testbed, args: dict) -> bool:
    return tb.exists(args["file"])


def evaluate_file_not_exist(tb: Testbed, args: dict) -> bool:
    return not tb.exists(args["file"])


def evaluate_diff_contain_text(tb: Testbed, args: dict) -> bool:
    kind = args["doc_type"]
    if kind == "xlsx":
        before, after = excel_read_file(tb.read(args["input_file"])), excel_read_file(tb.read(args["output_file"]))
    elif kind == "doc":  # the original compares lists of paragraph objects, then splits a list
        before, after = _paragraphs(tb.read(args["input_file"])), _paragraphs(tb.read(args["output_file"]))
        if not before and not after:
            return False
        raise OriginalError("AttributeError: 'list' object has no attribute 'split'")
    else:
        raise OriginalError(f"AssertionError: Not implemented doc type: {kind}")
    if before == after:
        return False
    diff = "\n".join(difflib.unified_diff(before.split("\n"), after.split("\n"), n=0))
    return all(keyword in diff for keyword in args["keywords"])


def evaluate_excel_cell_value(tb: Testbed, args: dict) -> bool:
    rel = args["file"]
    if not tb.exists(rel):
        return False
    content = excel_read_file(tb.read(rel))
    return all(f"({m['row']}, {m['col']}): {m['value']}" in content for m in args["matches"])


def _comparator(source: str):
    """The one comparator form the tasks use, ``lambda x: x in [...]``, without eval."""
    m = re.fullmatch(r"\s*lambda\s+x\s*:\s*x\s+in\s+(\[.*\])\s*", source)
    if not m:
        raise OriginalError(f"comparator {source!r} is not of the form 'lambda x: x in [...]'")
    allowed = ast.literal_eval(m.group(1))
    return lambda x: x in allowed


def evaluate_excel_cell_comparator(tb: Testbed, args: dict) -> bool:
    content = excel_read_file(tb.read(args["file"]))
    for match in args["matches"]:
        found = re.search(r"\({}, {}\): (\w+)\t".format(match["row"], match["col"]), content)
        if not found or not _comparator(match["comparator"])(found.group(1)):
            return False
    return True


def _aware(value: Any) -> datetime:
    if not isinstance(value, datetime):  # a date: the original's dt.tzinfo raises
        raise OriginalError(f"AttributeError: {type(value).__name__!r} object has no attribute 'tzinfo'")
    return value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)


def evaluate_calendar_no_overlap(tb: Testbed, args: dict) -> bool:
    from icalendar import Calendar

    calendar = Calendar.from_ical(tb.read(f"calendar/{args['username']}.ics"))

    def start(component) -> datetime:
        prop = component.get("dtstart")
        if prop is None:
            raise OriginalError(f"AttributeError: a {component.name} has no dtstart")
        return _aware(prop.dt)

    calendar.subcomponents.sort(key=start)
    events = [c for c in calendar.walk() if c.name == "VEVENT"]
    for first, second in zip(events, events[1:]):
        end = first.get("dtend")
        if end is None:
            raise OriginalError("AttributeError: an event has no dtend")
        if _aware(end.dt) > start(second):
            return False
    return True


def evaluate_exact_match(tb: Testbed, args: dict) -> bool:
    result, expected = args["result_file"], args["expected_file"]
    if not tb.exists(result):
        return False
    kind = args["doc_type"]
    if kind != "xlsx":
        if kind in ("txt", "ics"):
            return _raw_text(tb.read(result)) == _raw_text(tb.read(expected))
        if kind == "doc":  # lists of paragraph objects: equal only when both are empty
            return not _paragraphs(tb.read(result)) and not _paragraphs(tb.read(expected))
        if kind == "pdf":  # two page lists, compared as objects: never equal
            read_pdf_to_string(tb.read(result))
            read_pdf_to_string(tb.read(expected))
            return False
        raise OriginalError(f"AssertionError: Not implemented doc type: {kind}")
    got, want = _workbook(tb.read(result)).active, _workbook(tb.read(expected)).active
    for mine, other in ((got, want), (want, got)):
        for row in list(mine.iter_rows()):
            for cell in row:
                if cell.value != other.cell(row=cell.row, column=cell.column).value:
                    return False
    return True


_IMPLEMENTATIONS = {name: globals()[name] for name in FUNCTIONS}


def evaluate_original(evaluation: list[dict], tb: Testbed) -> tuple[bool, list[CheckRecord]]:
    """Run the original evaluation: (passed, one record per function as run). The original stops at
    the first failure; every function is run here, for the report, which leaves the verdict alone."""
    records = []
    for item in evaluation:
        name, args = str(item.get("function")), dict(item.get("args") or {})
        func = _IMPLEMENTATIONS.get(name)
        try:
            if func is None:
                raise OriginalError(f"NameError: {name} is not an evaluation function")
            passed = bool(func(tb, args))
            message = "true" if passed else "false"
        except OriginalError as exc:
            passed, message = False, f"raised: {exc}"
        except KeyError as exc:
            passed, message = False, f"raised: KeyError: {exc} (a required argument is missing)"
        except Exception as exc:  # any exception fails the task, as in evaluation.py
            passed, message = False, f"raised: {type(exc).__name__}: {exc}"
        records.append(CheckRecord(check=name, args=args, passed=passed, message=message))
    return bool(records) and all(r.passed for r in records), records

