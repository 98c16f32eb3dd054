"""Exact checks: a cell, a row, a paragraph, an event, a message or the answer is what it must be.

"Exact" still follows the shared normalisation of evaluators/text.py (whitespace collapsed,
numbers and dates compared by value), so formatting noise never decides a result.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from rapidfuzz import fuzz, process

from officesim.evaluators.claims import SET_ASIDE, directory_of, gold_mail, heading_over, mail_said, sentences, written_problems
from officesim.evaluators.facts import Fact, find, other_candidates, own_text, rebound, states, unbound
from officesim.evaluators.registry import CellRef, CheckResult, TimeStr, check
from officesim.evaluators.state import (
    CheckError,
    EvalState,
    calendar_events,
    cell_value,
    get_entry,
    mailbox,
    missing_sheet,
    office_path,
    sent_now,
    xlsx_sheet,
)
from officesim.evaluators.text import (
    as_datetime,
    as_list,
    cell_name,
    collapse,
    document_text,
    is_empty,
    norm,
    parse_cell,
    show,
    text_contains,
    values_equal,
)


# ---- helpers ---------------------------------------------------------------------------------
def _where(file: str, sheet: str) -> str:
    return f"{office_path(file)} {sheet}"


def _trim(row: list[Any]) -> list[Any]:
    """A row without its trailing empty cells."""
    out = list(row or [])
    while out and is_empty(out[-1]):
        out.pop()
    return out


def _trim_rows(rows: list[list[Any]]) -> list[list[Any]]:
    out = [_trim(r) for r in rows or []]
    while out and not out[-1]:
        out.pop()
    return out


_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def cell_mismatch(expected: Any, found: Any) -> str | None:
    """Why a cell is not the expected value, or None. Beyond ``values_equal``: a number is wanted as a
    number (or a formula computing one), never as text that reads as one ("4,690.99", "$4690.99"); a
    date wanted as YYYY-MM-DD is wanted in that form, not as other text ("2026-07-27T00:00:00")."""
    if not values_equal(expected, found):
        return f"expected {show(expected)}, found {show(found)}"
    if isinstance(expected, (int, float)) and not isinstance(expected, bool) and isinstance(found, str):
        return f"expected the number {show(expected)}, found the text {show(found)}"
    if isinstance(expected, str) and _ISO_DAY.match(expected.strip()) and isinstance(found, str) \
            and found.strip() != expected.strip():
        return f"expected {show(expected)} (YYYY-MM-DD), found the text {show(found)}"
    return None


def _row_diff(expected: list[Any], found: list[Any], row: int) -> str | None:
    """The first differing cell of a row, e.g. 'B3: expected 5, found 6', or None when equal."""
    exp, got = _trim(expected), _trim(found)
    for col in range(1, max(len(exp), len(got)) + 1):
        e = exp[col - 1] if col <= len(exp) else None
        g = got[col - 1] if col <= len(got) else None
        why = cell_mismatch(e, g)
        if why:
            return f"{cell_name(row, col)}: {why}"
    return None


def _closest(target: str, choices: list[str]) -> str:
    """' (closest: '...')' naming the most similar candidate, for failure messages."""
    if not choices:
        return ""
    best = process.extractOne(collapse(target), [collapse(c) for c in choices], scorer=fuzz.ratio)
    return f" (closest: {show(best[0])})" if best else ""


def _addresses(value: Any) -> set[str]:
    return {str(v).strip().lower() for v in as_list(value) if str(v).strip()}


def _fmt_addresses(addresses: set[str] | list[str]) -> str:
    return "[" + ", ".join(sorted(addresses)) + "]"


# ---- xlsx --------------------------------------------------------------------------------------
@check("xlsx_cell")
def xlsx_cell(state: EvalState, *, file: str, cell: CellRef, value: Any, sheet: str | None = None) -> CheckResult:
    """The cell holds ``value`` (numbers/dates by value; ``null`` means empty).

    ``cell`` is an address like B3; ``Budget!B3`` names the sheet; otherwise ``sheet`` or the first sheet.
    """
    ref_sheet, row, col = parse_cell(cell)
    name, rows = xlsx_sheet(state, file, sheet if sheet is not None else ref_sheet)
    found = cell_value(rows, row, col)
    where = f"{_where(file, name)}!{cell_name(row, col)}"
    why = cell_mismatch(value, found)
    if why is None:
        return CheckResult.ok(f"{where} is {show(found)}")
    return CheckResult.fail(f"{where}: {why}")


@check("xlsx_row")
def xlsx_row(
    state: EvalState, *, file: str, values: list[Any], sheet: str | None = None, row: int | None = None
) -> CheckResult:
    """Row ``row`` (1-based) equals ``values``; with no ``row``, some row does. Trailing empty cells are ignored."""
    name, rows = xlsx_sheet(state, file, sheet)
    where = _where(file, name)
    if row is not None:
        found = rows[row - 1] if 0 < row <= len(rows) else []
        diff = _row_diff(values, found, row)
        if diff is None:
            return CheckResult.ok(f"{where} row {row} is {show(_trim(found))}")
        return CheckResult.fail(f"{where} row {row}: {diff} (row is {show(_trim(found))}, expected {show(_trim(values))})")
    for i, found in enumerate(rows, start=1):
        if _row_diff(values, found, i) is None:
            return CheckResult.ok(f"{where} row {i} is {show(_trim(found))}")
    nearest = max(
        rows,
        key=lambda r: sum(values_equal(e, g) for e, g in zip(_trim(values), _trim(r))),
        default=[],
    )
    hint = f"; most similar row: {show(_trim(nearest))}" if nearest else "; the sheet is empty"
    return CheckResult.fail(f"{where}: no row equals {show(_trim(values))}{hint}")


@check("xlsx_sheet_equals")
def xlsx_sheet_equals(state: EvalState, *, file: str, rows: list[list[Any]], sheet: str | None = None) -> CheckResult:
    """The sheet's whole used range equals ``rows`` (trailing empty cells and rows ignored)."""
    name, found = xlsx_sheet(state, file, sheet)
    where = _where(file, name)
    exp, got = _trim_rows(rows), _trim_rows(found)
    for i in range(1, max(len(exp), len(got)) + 1):
        e = exp[i - 1] if i <= len(exp) else []
        g = got[i - 1] if i <= len(got) else []
        diff = _row_diff(e, g, i)
        if diff:
            size = f"expected {len(exp)} rows, found {len(got)}"
            return CheckResult.fail(f"{where}: {diff} ({size})")
    return CheckResult.ok(f"{where} equals the expected {len(exp)} rows")


@check("xlsx_sheet_exists")
def xlsx_sheet_exists(state: EvalState, *, file: str, sheet: str) -> CheckResult:
    """The workbook has a sheet named exactly ``sheet``."""
    entry = get_entry(state, file, "xlsx")
    order = entry.get("sheet_order") or list(entry.get("sheets") or {})
    if sheet in order:
        return CheckResult.ok(f"{office_path(file)} has sheet {sheet!r}")
    return CheckResult.fail(f"{office_path(file)}: {missing_sheet(sheet, order)}")


# ---- docx --------------------------------------------------------------------------------------
@check("docx_paragraphs_equal")
def docx_paragraphs_equal(state: EvalState, *, file: str, paragraphs: list[str]) -> CheckResult:
    """The document's non-empty paragraphs, in order, equal ``paragraphs`` (whitespace collapsed)."""
    entry = get_entry(state, file, "docx")
    found = [collapse(p) for p in entry.get("paragraphs") or [] if collapse(p)]
    wanted = [collapse(p) for p in paragraphs if collapse(p)]
    path = office_path(file)
    for i in range(max(len(found), len(wanted))):
        e = wanted[i] if i < len(wanted) else None
        g = found[i] if i < len(found) else None
        if e != g:
            exp = show(e) if e is not None else "no more paragraphs"
            got = show(g) if g is not None else "no more paragraphs"
            return CheckResult.fail(
                f"{path} non-empty paragraph {i + 1}: expected {exp}, found {got} "
                f"(expected {len(wanted)} paragraphs, found {len(found)})"
            )
    return CheckResult.ok(f"{path} has the expected {len(wanted)} paragraphs")


_LIST_MARK = re.compile(r"^\s*(?:[-*\u2022\u00b7\u2013]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s+", re.I)


def paragraph_form(text: Any, case_sensitive: bool = True) -> str:
    """A paragraph as compared: a list mark (-, *, •, 1., a)) and a final period dropped, spaces collapsed."""
    out = _LIST_MARK.sub("", collapse(text))
    out = out[:-1].rstrip() if out.endswith(".") and not out.endswith("..") else out
    return out if case_sensitive else out.casefold()


@check("docx_has_paragraph")
def docx_has_paragraph(state: EvalState, *, file: str, text: str, case_sensitive: bool = True) -> CheckResult:
    """Some paragraph is ``text``: spaces collapsed, a list mark ("- ", "1. ") and a final period aside."""
    entry = get_entry(state, file, "docx")
    paragraphs = [p for p in entry.get("paragraphs") or [] if collapse(p)]
    path = office_path(file)
    if any(paragraph_form(p, case_sensitive) == paragraph_form(text, case_sensitive) for p in paragraphs):
        return CheckResult.ok(f"{path} has paragraph {show(collapse(text))}")
    if not paragraphs:
        return CheckResult.fail(f"{path}: no paragraph equals {show(collapse(text))}; the document has no text")
    return CheckResult.fail(f"{path}: no paragraph equals {show(collapse(text))}{_closest(text, paragraphs)}")


@check("no_repeats")
def no_repeats(state: EvalState, *, file: str, block: int = 1, matching: str | None = None) -> CheckResult:
    """No paragraph (docx) or line (text, pdf) of the file is written twice: a text written again
    beside itself. With ``block`` > 1, no run of that many consecutive paragraphs is (for a letter
    whose sender's name rightly stands at its head and under it); with ``matching``, only the
    paragraphs stating that text count (the salutations of many letters from one template).
    Compared as paragraph forms without case; empty ones aside."""
    entry = get_entry(state, file)
    kind = entry.get("kind")
    if kind == "docx":
        units = entry.get("paragraphs") or []
    elif kind == "pdf":
        units = "\n".join(str(p) for p in entry.get("pages") or []).splitlines()
    elif kind == "text":
        units = str(entry.get("text") or "").splitlines()
    else:
        return CheckResult.fail(f"{office_path(file)}: a {kind} file, expected a document (docx, pdf or text)")
    forms = [f for f in (paragraph_form(u, False) for u in units) if f]
    if matching is not None:
        forms = [f for f in forms if paragraph_form(matching, False) in f]
    size = max(1, block)
    seen: dict[str, int] = {}
    for k in range(len(forms) - size + 1):
        run = " / ".join(forms[k:k + size])
        seen[run] = seen.get(run, 0) + 1
    twice = [f for f, n in seen.items() if n > 1]
    if twice:
        return CheckResult.fail(f"{office_path(file)}: {show(twice[0])} is written {seen[twice[0]]} times"
                                + (f" (and {len(twice) - 1} more repeated)" if len(twice) > 1 else ""))
    what = "paragraph or line" if size == 1 else f"run of {size} paragraphs or lines"
    return CheckResult.ok(f"{office_path(file)}: no {what} is repeated")


@check("docx_table_cell")
def docx_table_cell(state: EvalState, *, file: str, table: int, row: int, col: int, value: Any) -> CheckResult:
    """Cell (``row``, ``col``) of table ``table`` holds ``value``; all three indices 1-based."""
    tables = get_entry(state, file, "docx").get("tables") or []
    path = office_path(file)
    if not 0 < table <= len(tables):
        return CheckResult.fail(f"{path}: expected a table {table}, the document has {len(tables)} table(s)")
    rows = tables[table - 1] or []
    where = f"{path} table {table} row {row} column {col}"
    if not (0 < row <= len(rows) and 0 < col <= len(rows[row - 1] or [])):
        width = max((len(r) for r in rows), default=0)
        return CheckResult.fail(f"{where}: no such cell (the table is {len(rows)} rows x {width} columns), expected {show(value)}")
    found = rows[row - 1][col - 1]
    if values_equal(value, found):
        return CheckResult.ok(f"{where} is {show(found)}")
    return CheckResult.fail(f"{where}: expected {show(value)}, found {show(found)}")


# ---- pdf ---------------------------------------------------------------------------------------
@check("pdf_text_equals")
def pdf_text_equals(state: EvalState, *, file: str, text: str) -> CheckResult:
    """The whole text of the PDF equals ``text`` once whitespace is collapsed (case-sensitive)."""
    pages = get_entry(state, file, "pdf").get("pages") or []
    found, wanted = collapse("\n".join(map(str, pages))), collapse(text)
    path = office_path(file)
    if found == wanted:
        return CheckResult.ok(f"{path} text equals the expected text")
    at = next((i for i, (a, b) in enumerate(zip(found, wanted)) if a != b), min(len(found), len(wanted)))
    return CheckResult.fail(
        f"{path}: text differs at character {at + 1}: expected {show(wanted[at:at + 40])}, "
        f"found {show(found[at:at + 40])} (expected {len(wanted)} characters, found {len(found)})"
    )


@check("pdf_page_count")
def pdf_page_count(state: EvalState, *, file: str, count: int) -> CheckResult:
    """The PDF has exactly ``count`` pages."""
    pages = get_entry(state, file, "pdf").get("pages") or []
    path = office_path(file)
    if len(pages) == count:
        return CheckResult.ok(f"{path} has {count} page(s)")
    return CheckResult.fail(f"{path}: expected {count} page(s), found {len(pages)}")


# ---- calendar ----------------------------------------------------------------------------------
def _same_time(expected: str, found: Any, timezone: str) -> bool:
    a, b = as_datetime(expected, timezone), as_datetime(found, timezone)
    return a is not None and a == b


def event_mismatches(event: dict, timezone: str = "UTC", owner: str | None = None, **wanted: Any) -> list[str]:
    """How ``event`` differs from the wanted fields (None = not checked), e.g. ["start is X, expected Y"].
    The calendar's ``owner`` may be listed among the attendees or not, as calendars do both."""
    out = []
    for key in ("start", "end"):
        if wanted.get(key) is not None and not _same_time(wanted[key], event.get(key), timezone):
            out.append(f"{key} is {show(event.get(key))}, expected {show(wanted[key])}")
    loc = wanted.get("location")
    if loc is not None and norm(loc, False) != norm(event.get("location"), False):
        out.append(f"location is {show(event.get('location'))}, expected {show(loc)}")
    if wanted.get("attendees") is not None:
        exp, got = _addresses(wanted["attendees"]), _addresses(event.get("attendees"))
        if owner and owner.strip().lower() not in exp:
            got = got - {owner.strip().lower()}
        if exp != got:
            out.append(f"attendees are {_fmt_addresses(got)}, expected {_fmt_addresses(exp)}")
    return out


def events_named(events: list[dict], summary: str) -> list[dict]:
    """Events whose summary equals ``summary`` (case-insensitive, whitespace collapsed)."""
    return [e for e in events if norm(e.get("summary"), False) == norm(summary, False)]


def list_events(events: list[dict], limit: int = 6) -> str:
    """A short listing of events for messages: 'Standup' 2026-03-10 09:30:00, ..."""
    if not events:
        return "the calendar is empty"
    shown = "; ".join(f"{show(e.get('summary'))} {e.get('start') or '?'}" for e in events[:limit])
    more = f"; and {len(events) - limit} more" if len(events) > limit else ""
    return f"events: {shown}{more}"


@check("ics_event")
def ics_event(
    state: EvalState,
    *,
    user: str,
    summary: str,
    start: TimeStr | None = None,
    end: TimeStr | None = None,
    location: str | None = None,
    attendees: list[str] | None = None,
) -> CheckResult:
    """``user``'s calendar has an event titled ``summary`` (ci) whose given fields all match.

    Times compare as moments (seconds optional); location ci; attendees as a set of addresses (ci), the
    calendar's owner listed or not.
    """
    events = calendar_events(state, user)
    named = events_named(events, summary)
    who = f"calendar of {user.strip().lower()}"
    if not named:
        return CheckResult.fail(f"{who}: no event {show(summary)} ({list_events(events)})")
    wanted = {"start": start, "end": end, "location": location, "attendees": attendees}
    misses = [event_mismatches(e, state.timezone, owner=user, **wanted) for e in named]
    best = min(range(len(named)), key=lambda i: len(misses[i]))
    if not misses[best]:
        e = named[best]
        return CheckResult.ok(f"{who} has {show(e.get('summary'))} {e.get('start')} - {e.get('end')}")
    return CheckResult.fail(f"{who}: event {show(summary)} found but {'; '.join(misses[best])}")


@check("ics_no_event")
def ics_no_event(state: EvalState, *, user: str, summary: str) -> CheckResult:
    """``user``'s calendar has no event titled ``summary`` (ci)."""
    named = events_named(calendar_events(state, user), summary)
    who = f"calendar of {user.strip().lower()}"
    if not named:
        return CheckResult.ok(f"{who} has no event {show(summary)}")
    when = ", ".join(str(e.get("start")) for e in named)
    return CheckResult.fail(f"{who}: expected no event {show(summary)}, found {len(named)} (at {when})")


@check("ics_event_count")
def ics_event_count(state: EvalState, *, user: str, count: int) -> CheckResult:
    """``user``'s calendar holds exactly ``count`` events (a missing calendar holds none)."""
    events = calendar_events(state, user)
    who = f"calendar of {user.strip().lower()}"
    if len(events) == count:
        return CheckResult.ok(f"{who} has {count} event(s)")
    return CheckResult.fail(f"{who}: expected {count} event(s), found {len(events)} ({list_events(events)})")


# ---- email -------------------------------------------------------------------------------------
_CONTRAST = re.compile(r"\b(?:rather than|instead of|in place of|moved from|no longer|not)\b", re.I)


def stated_plainly(text: str, fact: Any, *, year: int | None) -> bool:
    """Whether ``text`` states ``fact`` other than as what it is not ("Friday rather than Wednesday, as you
    asked", "no longer on Wednesday", "CTR-2314 has already passed, so it is not included"): a fact a
    message must not state may be named to set it aside."""
    if not states(text, fact, year=year):
        return False
    for start, end, sentence in sentences(text):
        m = find(sentence, fact, year=year)
        if m is None:
            continue
        contrast = _CONTRAST.search(sentence)
        if not (contrast and contrast.start() < m.start) and not SET_ASIDE.search(sentence, m.end):
            return True
    return False


_DENIAL = re.compile(r"(?<![\w-])(?:no|not|non|without|lack\w*|missing|never|none|await\w*|pending|yet|"
                     r"outstanding|un\w+ed)(?![\w-])|n't|n’t", re.I)


_REFERENCE = re.compile(r"^[A-Z]{2,}[A-Z0-9]*(?:-[A-Z0-9]+)+$")


def referenced_by_included(text: str, fact: Any, required: list[Any]) -> bool:
    """Whether an identifier the text must not state stands only as the reference of an item it must state:
    after that item on the same line ("- RI-2609-0326 (PO-4500), due 8 October": the order an overdue invoice
    bills, not the closed order listed as open)."""
    token = str(fact).strip()
    items = [str(r).strip() for r in required if _REFERENCE.match(str(r).strip())]
    if not _REFERENCE.match(token) or not items:
        return False
    lines = [line.casefold() for line in text.splitlines() if token.casefold() in line.casefold()]

    def referenced(line: str) -> bool:
        at = line.find(token.casefold())
        return any(0 <= (k := line.find(i.casefold())) < at and _REFERENCE_GAP.fullmatch(line[k + len(i):at])
                   for i in items)
    return bool(lines) and all(referenced(line) for line in lines)


# between an item and the identifier it refers to: "RI-2609-0326 (PO-4500)", "BS-2603-0058 (for PO-4500)",
# "RI-2609-0326 against PO-4500", "| RI-2609-0326 | PO-4500 |"; not "held TF-2611-0393 and YE-2611-0396"
_REFERENCE_GAP = re.compile(r"(?i)\s*(?:\(\s*(?:for|against|on|under|re|from|of|via)?|"
                            r"(?:for|against|on|under|re|raised against|billing|from)|[|/–-])\s*(?:po\s*)?")


def set_aside_as(text: str, fact: Any, words: list[str], required: list[Any], *, year: int | None) -> bool:
    """Whether every sentence of ``text`` that states ``fact`` states it as what it is, in the task's
    ``words`` ("the other orders, PO-4551 and PO-4577, have your approval"): a sentence with one of them,
    no denial ("no", "without", "awaiting", "unapproved"...) and none of the ``required`` facts, which
    would make it part of the answer ("no approval for PO-4505 or PO-4551")."""
    said = [(s, _clause_of(s, m.start, m.end), heading_over(text, a + m.end) or "") for a, _b, s in sentences(text)
            if (m := find(s, fact, year=year)) is not None]  # a list item says it with the line it stands under
    # a denial counts in the fact's own clause ("The other four (...) are booked, ... so nothing else is outstanding")
    return bool(said) and all(any(w.casefold() in f"{s} {h}".casefold() for w in words)
                              and not _DENIAL.search(clause) and not _DENIAL.search(h)
                              and not any(find(s, r, year=year) is not None for r in required) for s, clause, h in said)


_SET_ASIDE_BREAK = re.compile(r"(?i);|,\s*(?:and|but|so|while|whereas|although)\b|\s+but\s+")


def _clause_of(sentence: str, start: int, end: int) -> str:
    """The clause of ``sentence`` that holds the span."""
    bounds = [0, *(m.start() for m in _SET_ASIDE_BREAK.finditer(sentence)), len(sentence)]
    return next((sentence[a:b] for a, b in zip(bounds, bounds[1:]) if a <= start < b), sentence)


_DENIED_FILLER = r"(?:been|be|being|yet|put|placed|treated|considered|counted|marked|as|a|an|the|it|this|one|on|really|actually|also)"


def denied_as(text: str, fact: Any, words: list[str], *, year: int | None) -> bool:
    """Whether every sentence of ``text`` that states ``fact`` denies it is one of the task's ``words``: a
    negative report of a look-alike the agent checked ("YE-2611-0396 has the same amount but is for a
    different order, so I haven't held it"; "TF-2611-0399 is not a duplicate"). The denial stands right
    before the word ("has not been put on hold"), not anywhere in the sentence ("not paid, so I held it")."""
    if not words:
        return False
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    denial = re.compile(rf"(?i)(?:(?<![\w-])(?:not|never|no)|n't|n’t)\s+(?:{_DENIED_FILLER}\s+){{0,3}}?(?:{alternatives})"
                        rf"(?![\w-])")
    said = [s for _a, _b, s in sentences(text) if find(s, fact, year=year) is not None]
    plain = re.compile(rf"(?i)(?<![\w-])(?:{alternatives})(?![\w-])")
    # "the nearest miss is Zephyr Couriers (CTR-2384) at 1.48x, so just under the line": being over, denied by its
    # contrary, where the sentence never says it is over
    contrary = _CONTRARY if {"over", "above"} & {w.casefold() for w in words} else None
    return bool(said) and all(denial.search(s) or (contrary is not None and contrary.search(s) and not plain.search(s))
                              for s in said)


_CONTRARY = re.compile(r"(?i)\b(?:(?:just|only|slightly|still|comfortably|well)\s+)?(?:under|below|short of|within)\s+"
                       r"(?:the|its|their|our|that|this|1\.5|one and a half)\b|\bnear(?:est)?[- ]miss(?:es)?\b")


def attachment_names(entry: dict) -> set[str]:
    return {str(a.get("filename", "")).strip().lower() for a in entry.get("attachments") or [] if isinstance(a, dict)}


def mail_mismatches(
    entry: dict,
    *,
    to: Any = None,
    cc: Any = None,
    sender: str | None = None,
    subject: str | None = None,
    subject_contains: str | None = None,
    body_contains: Any = None,
    body_excludes: Any = None,
    attachments: list[str] | None = None,
    year: int | None = None,
    in_message: bool = False,
    lines: list[list[Any]] | None = None,
    excludes_unless: list[str] | None = None,
    excludes_denied: list[str] | None = None,
    people: Any = None,
) -> list[str]:
    """How a parsed message differs from what is wanted (None = not checked; ``people``: who a line
    names, by address)."""
    out = []
    if to is not None and _addresses(to) != _addresses(entry.get("to")):
        out.append(f"to is {_fmt_addresses(_addresses(entry.get('to')))}, expected {_fmt_addresses(_addresses(to))}")
    own = {str(entry.get("from") or "").strip().lower()}  # the sender may copy themself in
    if cc is not None and _addresses(cc) - own != _addresses(entry.get("cc")) - own:
        out.append(f"cc is {_fmt_addresses(_addresses(entry.get('cc')))}, expected {_fmt_addresses(_addresses(cc))}")
    if sender is not None and sender.strip().lower() != str(entry.get("from", "")).strip().lower():
        out.append(f"from is {entry.get('from')!r}, expected {sender.strip().lower()!r}")
    got_subject = entry.get("subject") or ""
    if subject is not None and norm(subject, False) != norm(got_subject, False):
        out.append(f"subject is {show(got_subject)}, expected {show(subject)}")
    if subject_contains is not None and not states(got_subject, subject_contains, year=year):
        out.append(f"subject {show(got_subject)} does not contain {show(subject_contains)}")
    own = own_text(entry.get("body"))  # a reply's quoted original is not what the sender wrote
    # a fact may be stated in the subject or left to an attached document, where the instruction does not
    # say it must stand in the message (``in_message``)
    attached = [] if in_message else [document_text(a.get("content") or {}) for a in entry.get("attachments") or []
                                      if isinstance(a, dict)]
    told = "\n".join([got_subject, own, *attached])
    missing = [t for t in as_list(body_contains) if not states(told, t, year=year)]
    if missing:
        out.append(f"body does not state {', '.join(show(str(t)) for t in missing)}")
    apart = unbound(f"{got_subject}\n{own}", lines, year=year)
    if apart:
        out.append(f"no line states {' and '.join(show(str(f)) for f in apart[0])} together")
    twice = rebound(own, lines, year=year, people=people)
    if twice:
        out.append(f"{show(str(twice[0][0][0]))} is answered twice: another line pairs it otherwise: "
                   f"{show(twice[0][1], 90)}")
    stated = [t for t in as_list(body_excludes) if stated_plainly(f"{got_subject}\n{own}", t, year=year)
              and not (excludes_unless and set_aside_as(own, t, excludes_unless, as_list(body_contains), year=year))
              and not (excludes_denied and denied_as(own, t, excludes_denied, year=year))
              and not referenced_by_included(f"{got_subject}\n{own}", t, as_list(body_contains))]
    if stated:
        out.append(f"body states {', '.join(show(str(t)) for t in stated)}, which it must not")
    have = attachment_names(entry)
    lacking = [a for a in as_list(attachments) if posixpath.basename(str(a).strip()).lower() not in have]
    if lacking:
        out.append(f"attachments are {sorted(have) or 'none'}, missing {', '.join(map(repr, lacking))}")
    return out


def _best_match(messages: list[tuple[str, dict]], reader: Any = None, **wanted: Any) -> tuple[str, dict, list[str]] | None:
    """The message with the fewest mismatches (first one on ties), with its mismatches; a message that
    matches is then read closed-world by ``reader`` (its problems are mismatches too)."""
    scored = [(path, e, mail_mismatches(e, **wanted), False) for path, e in messages]
    if reader is not None:
        scored = [(path, e, misses or reader(path, e), not misses) for path, e, misses, _m in scored]
    # the closest is one whose fields all match (then only what it says is wrong), else the one to the right
    # people: a mail to someone else is far, whatever else it gets right
    best = min(scored, key=lambda t: (not t[3], sum(3 if m.startswith("to is") else 1 for m in t[2])), default=None)
    return None if best is None else best[:3]


def _describe_wanted(**wanted: Any) -> str:
    return ", ".join(f"{k.replace('_', ' ')} {show(v)}" for k, v in wanted.items() if v is not None and k != "year")


@check("email_sent")
def email_sent(
    state: EvalState,
    *,
    sender: str,
    to: str | list[str],
    subject: str | None = None,
    subject_contains: str | None = None,
    body_contains: Fact | list[Fact | list[Fact]] | None = None,
    body_excludes: Fact | list[Fact] | None = None,
    cc: list[str] | None = None,
    attachments: list[str] | None = None,
    lines: list[list[Fact]] | None = None,
    excludes_unless: list[str] | None = None,
    excludes_denied: list[str] | None = None,
    earlier: bool = False,
) -> CheckResult:
    """A message ``sender`` sent during the episode (not one the office already held; with ``earlier``,
    any message of the sent folder: a mail sent before that must stay) matches: ``to`` set equal (ci), ``cc``
    set equal when given,
    subject equal / stating ``subject_contains``, the sender's own text (a quoted original aside)
    stating every ``body_contains`` fact and none of ``body_excludes`` (evaluators/facts.py; an excluded
    fact said only in sentences with one of ``excludes_unless``, no denial and no required fact is set
    aside: "the other orders have your approval"; one said only as denied one of ``excludes_denied``, a
    negative report: "so I haven't held it"), every
    group of ``lines`` within one line (an event and its time), carrying every listed attachment (by
    file name), and nothing false beside (evaluators/claims.py).
    """
    wanted = dict(to=to, cc=cc, subject=subject, subject_contains=subject_contains,
                  body_contains=body_contains, body_excludes=body_excludes, attachments=attachments, lines=lines,
                  excludes_unless=excludes_unless, excludes_denied=excludes_denied)
    sent = mailbox(state, sender, "sent") if earlier else sent_now(state, sender)
    who = sender.strip().lower()
    if not sent:
        return CheckResult.fail(f"{who} sent no messages; expected one with {_describe_wanted(**wanted)}")
    # a line's facts are stated too: read for negation and hedging like the body's
    facts = [*as_list(body_contains), *as_list(subject_contains), *(f for group in lines or [] for f in group)]
    path, entry, misses = _best_match(sent, year=state.year, reader=_mail_reader(state, facts, sender),
                                      in_message=in_message(state.instruction), people=_people_of(state, lines),
                                      **wanted)
    if not misses:
        return CheckResult.ok(f"{path}: {who} sent {show(entry.get('subject'))} to {', '.join(entry.get('to') or [])}")
    return CheckResult.fail(
        f"none of the {len(sent)} message(s) sent by {who} matches; closest {path}: {'; '.join(misses)}"
    )


_IN_MESSAGE = re.compile(r"\b(?:in|into|within)\s+(?:the|your|its|that|this|my)\s+(?:message|mail|e-?mail|body|text)\b"
                         r"|\bin the body\b", re.I)


def in_message(instruction: str) -> bool:
    """Whether the instruction says the facts must stand in the message itself ("with its number and
    total in the message"), so an attachment stating them does not count."""
    return _IN_MESSAGE.search(instruction or "") is not None


def _people_of(state: EvalState, lines: list[list[Any]] | None) -> Any:
    """Who a line names (addresses of the office's people), for ``lines`` groups that pair an item with a
    person; None when no group needs it (the directory of a lived-in office is read only then)."""
    if not lines or not any(len(g) > 1 for g in lines):
        return None
    directory = directory_of(state)
    return lambda text: {address for _m, address in directory.persons_in(text)}


def _mail_reader(state: EvalState, facts: list[Any], sender: str | None) -> Any:
    """The closed-world reading (evaluators/claims.py) of a message the agent wrote: what it states
    beyond ``facts`` must be supported, its weekdays right, its greeting its recipient's."""
    def read(path: str, entry: dict) -> list[str]:
        if not state.written(path):
            return []
        recipients = [*(entry.get("to") or []), *(entry.get("cc") or [])]
        counterpart = gold_mail(state, sender or entry.get("mailbox"), entry.get("to") or [])
        return written_problems(state, mail_said(entry), facts, counterpart=counterpart, recipients=recipients,
                                body=own_text(entry.get("body")), greeted=entry.get("to") or None)
    return read


@check("email_received")
def email_received(
    state: EvalState,
    *,
    user: str,
    sender: str,
    subject: str | None = None,
    subject_contains: str | None = None,
    body_contains: str | list[str] | None = None,
) -> CheckResult:
    """``user``'s inbox holds a message from ``sender`` with the given subject (ci) / subject and body text."""
    wanted = dict(sender=sender, subject=subject, subject_contains=subject_contains, body_contains=body_contains)
    inbox = mailbox(state, user, "inbox")
    who = user.strip().lower()
    if not inbox:
        return CheckResult.fail(f"the inbox of {who} is empty; expected a message from {sender.strip().lower()}")
    facts = [*as_list(body_contains), *as_list(subject_contains)]
    path, entry, misses = _best_match(inbox, year=state.year, reader=_mail_reader(state, facts, sender),
                                      in_message=in_message(state.instruction), **wanted)
    if not misses:
        return CheckResult.ok(f"{path}: {who} received {show(entry.get('subject'))} from {entry.get('from')}")
    return CheckResult.fail(f"none of the {len(inbox)} message(s) in the inbox of {who} matches; closest {path}: {'; '.join(misses)}")


@check("email_not_sent")
def email_not_sent(
    state: EvalState, *, sender: str, to: str | list[str] | None = None, subject_contains: str | None = None
) -> CheckResult:
    """No message ``sender`` sent during the episode is addressed (to or cc) to any of ``to`` and has a subject
    containing ``subject_contains`` (ci); with neither given, ``sender`` sent nothing.
    """
    who = sender.strip().lower()
    targets = _addresses(to)
    for path, entry in sent_now(state, sender):
        recipients = _addresses(entry.get("to")) | _addresses(entry.get("cc"))
        if targets and not targets & recipients:
            continue
        if subject_contains is not None and not text_contains(entry.get("subject") or "", subject_contains):
            continue
        return CheckResult.fail(
            f"{path}: {who} sent {show(entry.get('subject'))} to {_fmt_addresses(recipients)}, "
            f"expected no such message ({_describe_wanted(to=to, subject_contains=subject_contains) or 'any message'})"
        )
    return CheckResult.ok(f"{who} sent no such message")


# ---- files and the answer ----------------------------------------------------------------------
_PLACE_KEYS = ("mailbox", "folder", "id", "user")


def _content(entry: dict) -> dict:
    """An entry without the keys that only say where it lives (mailbox, folder, id, user)."""
    return {k: v for k, v in entry.items() if k not in _PLACE_KEYS}


@check("file_equals")
def file_equals(state: EvalState, *, file: str, other: str | None = None, sha256: str | None = None) -> CheckResult:
    """``file`` has the same bytes as ``other`` or the given SHA-256 digest.

    Parsed entries that carry no digest (docx, xlsx...) are compared by parsed content instead.
    """
    if (other is None) == (sha256 is None):
        raise CheckError("file_equals needs exactly one of 'other' and 'sha256'")
    entry = get_entry(state, file)
    path = office_path(file)
    if sha256 is not None:
        found = entry.get("sha256")
        if found is None:
            raise CheckError(f"{path}: the parsed {entry.get('kind')} file carries no digest; compare with 'other' or content checks")
        if found.lower() == sha256.strip().lower():
            return CheckResult.ok(f"{path} has digest {found[:12]}...")
        return CheckResult.fail(f"{path}: expected sha256 {sha256[:12]}..., found {found[:12]}...")
    ref = get_entry(state, other)
    if entry.get("sha256") and ref.get("sha256"):
        same = entry["sha256"] == ref["sha256"]
    else:
        same = _content(entry) == _content(ref)
    if same:
        return CheckResult.ok(f"{path} is the same as {office_path(other)}")
    return CheckResult.fail(f"{path} differs from {office_path(other)} ({entry.get('kind')} vs {ref.get('kind')})")


def clean_answer(value: Any) -> str:
    """An answer as compared: whitespace collapsed, surrounding quotes and a trailing '.' dropped."""
    text, previous = collapse(value), None
    while text != previous:
        previous = text
        if text.endswith(".") and not text.endswith(".."):
            text = text[:-1].rstrip()
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'`":
            text = text[1:-1].strip()
    return text


@check("answer_equals")
def answer_equals(state: EvalState, *, value: Any, exclude: list[Any] | None = None) -> CheckResult:
    """The finish_task answer is ``value``: equal (ci, quotes and a final '.' aside, numbers by value),
    or a sentence that states it (``You should book Harbor.``) and no other candidate: no other
    number/date/time where one is expected (figures of the instruction aside), none of ``exclude``.
    A list of values means any one of them."""
    accepted = value if isinstance(value, list) else [value]
    want = show(accepted[0]) if len(accepted) == 1 else f"one of {show(accepted)}"
    if state.answer is None or not collapse(state.answer):
        return CheckResult.fail(f"no answer was given; expected {want}")
    got = clean_answer(state.answer)
    for v in accepted:
        exp = v if not isinstance(v, str) else clean_answer(v)
        if values_equal(exp, got, case_sensitive=False):
            return CheckResult.ok(f"the answer {show(got)} equals {show(v)}")
    for v in accepted:
        if not states(got, v, year=state.year):
            continue
        others = other_candidates(got, v, year=state.year, ignore=state.instruction)
        others += [show(x) for x in as_list(exclude) if states(got, x, year=state.year)]
        others += [show(x) for x in accepted if x is not v and states(got, x, year=state.year) and not states(str(x), v)]
        others += written_problems(state, got, [v], counterpart=[state.gold_answer or ""])
        if others:
            return CheckResult.fail(f"the answer {show(got)} states {show(v)} but also {', '.join(others)}: "
                                    f"a hedge, not an answer")
        return CheckResult.ok(f"the answer {show(got)} states {show(v)}")
    return CheckResult.fail(f"the answer: expected {want}, found {show(got)}")
