"""Mutants of a task's gold solution: outcomes derived from it that must fail (wrong) or pass (right).

A task's checks and the outcome comparison are proven only as far as someone tried to fool them.
``derive`` does that mechanically: from the task, its gold actions and answer, and its parsed
initial office (``testbed.parse`` of the ``testbed.materialise`` template), it derives

- **wrong** mutants, each changing the outcome in a way the instruction forbids (``WRONG_CLASSES``):
  a number changed, a value written one row off, a recipient replaced, a write step dropped, an
  event moved, a distractor deleted, the answer hedged...; the grade must fail every one;
- **right** mutants, each keeping the outcome correct (``RIGHT_CLASSES``): numbers and dates in
  another common form, a mail reworded, a formula in place of a value, independent steps
  reordered, reads and ``switch_app`` round-trips added...; the grade must pass every one.

Derivation is a pure function (no I/O, no randomness): the same task always gives the same
mutants. Mutants work on the gold's *core* steps (its actions without ``switch_app`` and
``finish_task``); the actions to play are the core steps with reads left out (they change
nothing) and a ``switch_app`` put before every step of another app, so every mutant plays in the
default ``switch_app`` mode. Only ``reads-added`` and ``switch-roundtrips`` keep the gold's reads.
A wrong mutant whose writes and answer are the gold's own (it provably changes nothing) is not
derived, and neither is a mutant equal to an earlier one.
"""

from __future__ import annotations

import copy
import difflib
import json
import math
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Callable, Iterable

from officesim.apps import apps_for
from officesim.apps.registry import DEFAULT_TOOLSET, SYSTEM_APP
from officesim.evaluators.facts import Mention, dates_in, numbers_in, times_in
from officesim.evaluators.text import as_number, collapse, document_text, format_number

WRONG, RIGHT = "wrong", "right"
AUTHORED = "authored"  # the task's own wrong:/right: solutions, counted beside the derived ones

WRONG_CLASSES: dict[str, str] = {
    "number-changed": "a number, date or time the gold writes (cell, text, event time, answer) changed to another plausible value",
    "number-distractor": "a number the gold writes replaced by another number present in the office",
    "off-row": "a cell written one row off",
    "off-column": "a cell written one column off",
    "off-sheet": "a cell written on another sheet of the workbook",
    "distractor-file": "a file the gold writes, reads from or attaches swapped for a similar file of the same kind",
    "recipient-replaced": "a recipient (or attendee) replaced by another address from the office",
    "recipient-joined": "another address from the office added to the recipients (or attendees)",
    "recipient-dropped": "one of several recipients (or attendees) left out",
    "cc-instead-of-to": "a recipient the instruction names put in cc instead of to",
    "extra-attachment": "an office file the gold never touches attached as well",
    "stale-attachment": "a file attached before the gold's edits to it",
    "step-dropped": "one write step of the gold left out (each in turn)",
    "create-twice": "a step that creates something (mail, event, paragraph, row) done twice",
    "move-as-copy": "a move done as a copy (the original left behind)",
    "distractor-deleted": "a distractor item (file, row, event, mail) deleted as well",
    "event-start-shifted": "an event the gold creates or updates moved an hour later",
    "event-end-shifted": "an event the gold creates or updates ending half an hour later",
    "event-location-shifted": "an event the gold creates or updates in another place from the office",
    "event-beside-update": "a new event created beside the one the gold updates",
    "answer-distractor": "the answer replaced by a distractor value from the office",
    "answer-hedged": "the answer hedged with a distractor value",
    "guessed-not-asked": "the gold without its system.ask_user questions, a needed reply's value replaced by the "
                         "guess the task names (the distractor an agent that does not ask would use)",
}
RIGHT_CLASSES: dict[str, str] = {
    "number-reformatted": "numbers with or without thousands separators, trailing zeros or a currency sign",
    "date-reformatted": "dates written in another common form (where the instruction does not fix one)",
    "body-reworded": "a mail body with the same facts in other words and another order",
    "subject-changed": "a mail subject the instruction does not fix worded otherwise",
    "formula": "a formula computing the value in place of the value",
    "answer-sentence": "the answer given as a short sentence around the gold answer",
    "steps-reordered": "independent gold steps in another order",
    "reads-added": "reads and listings added",
    "switch-roundtrips": "switch_app round-trips added before the write steps",
}
# Classes only the WorkBench tool set's mutants have (runner/workbench_mutants.py), kept apart from the
# classes above, which the default tool set's tasks get; and the classes that apply to a task of that
# tool set at all (its tools know no files, cells, cc or attachments).
WORKBENCH_WRONG_CLASSES: dict[str, str] = {
    "id-replaced": "an id a write names (event, email, customer, task) swapped for a similar row of the same table",
    "field-value-changed": "a value a write sets (status, list, board, metric, plot type, name) changed to another "
                           "value of its column",
    "write-added": "for a task that needs no change, a write its instruction would ask for if its condition held",
}
WORKBENCH_RIGHT_CLASSES: dict[str, str] = {
    "case-changed": "a text WorkBench compares without case (a name, subject, body) written in another case",
    "refused-write-added": "a write WorkBench refuses beside the gold (a status in the wrong case, a name for an "
                           "address, a delete repeated): it changes nothing",
}
TOOLSET_CLASSES: dict[str, tuple[str, ...]] = {
    "workbench": ("step-dropped", "create-twice", "id-replaced", "field-value-changed", "number-changed",
                  "event-start-shifted", "event-end-shifted", "event-beside-update", "recipient-replaced",
                  "distractor-deleted", "write-added", "date-reformatted", "steps-reordered", "reads-added",
                  "switch-roundtrips", "case-changed", "refused-write-added"),
}


@dataclass
class Mutant:
    """One derived (or authored) solution: ``cls`` is its class, ``kind`` wrong or right, ``actions``
    the full action list to play (``finish_task(answer)`` is appended by the player)."""

    name: str
    cls: str
    kind: str
    actions: list[dict]
    answer: Any = None
    toolset: str = DEFAULT_TOOLSET  # whose operations ``actions`` use


# ---- operations: reads, writes and what they touch -------------------------------------------------
CREATES = {("calendar", "create_event"), ("email", "send_email"), ("email", "forward_email"), ("email", "reply_email"),
           ("word", "write_to_file"), ("excel", "insert_row")}
FINISH = "finish_task"
_SHELL_WRITE = re.compile(
    r"(?:^|[\s;&|(`])(?:mv|cp|rm|touch|ln|chmod|tee|truncate|install|rsync|unzip|gunzip|gzip|zip|"
    r"dd|patch)(?=\s|$)|sed\s+(?:-\w+\s+)*-i|\btar\s+-?\w*[cxru]|-delete\b|-exec\b")
_QUOTED = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")
_REDIRECT = re.compile(r"(?<![0-9&<>])>{1,2}(?!&)\s*(?!/dev/null)\S")
_FILE_ARGS = ("file_path", "word_file_path", "excel_file_path", "pdf_file_path", "image_file_path")
_SOURCE_ARG = {("word", "convert_to_pdf"): "word_file_path", ("excel", "convert_to_pdf"): "excel_file_path",
               ("pdf", "convert_to_word"): "pdf_file_path", ("pdf", "convert_to_image"): "pdf_file_path",
               ("pdf", "image_to_pdf"): "image_file_path"}
_DEST_ARG = {("word", "convert_to_pdf"): "pdf_file_path", ("excel", "convert_to_pdf"): "pdf_file_path",
             ("pdf", "convert_to_word"): "word_file_path", ("pdf", "convert_to_image"): "image_file_path",
             ("pdf", "image_to_pdf"): "pdf_file_path"}
_READER = {".xlsx": ("excel", "read_file", "file_path"), ".docx": ("word", "read_file", "file_path"),
           ".pdf": ("pdf", "read_file", "pdf_file_path")}


def office_path(path: Any) -> str:
    """An agent's path as an office-relative one (``/testbed/data/x`` -> ``data/x``)."""
    p = str(path or "").strip()
    if p.startswith("/testbed/"):
        p = p[len("/testbed/"):]
    return p.lstrip("/")


def shell_writes(command: str) -> bool:
    """Whether a shell command may change the office's files (anything not plainly a read counts;
    an empty folder is no file, so ``mkdir`` alone changes nothing)."""
    bare = _QUOTED.sub("''", command or "")
    return bool(_SHELL_WRITE.search(bare) or _REDIRECT.search(bare))


def _is_question(step: dict) -> bool:
    return (step.get("app"), step.get("action")) == (SYSTEM_APP, "ask_user")


def is_read(step: dict, toolset: str = DEFAULT_TOOLSET) -> bool:
    """Whether a step leaves the office's files as they are: an operation of the task's tool set not
    declared ``writes`` (apps/registry.py), a shell command that plainly only reads; an unknown
    operation writes."""
    app, action = step.get("app"), step.get("action")
    if app == "shell":
        return not shell_writes(str((step.get("args") or {}).get("command", "")))
    apps = apps_for(toolset)
    operation = apps[app].operations.get(action) if app in apps else None
    return operation is not None and not operation.writes


def effects(step: dict, index: int, toolset: str = DEFAULT_TOOLSET) -> tuple[set[str], set[str]]:
    """(reads, writes) of a step as resource names; ``*`` stands for anything (a shell command).
    Cells are ``path#sheet!row,col`` inside ``path``; events ``calendar/<user>.ics#<summary>``."""
    app, action, args = step.get("app"), step.get("action"), step.get("args") or {}
    if app == "shell":
        return {"*"}, {"*"}
    if is_read(step, toolset):
        return set(), set()
    if toolset != DEFAULT_TOOLSET:
        return {"*"}, {"*"}  # other tool sets' writes are ordered as given
    if (app, action) in _SOURCE_ARG:
        return {office_path(args.get(_SOURCE_ARG[(app, action)]))}, {office_path(args.get(_DEST_ARG[(app, action)]))}
    if app == "excel" and action in ("set_cell", "delete_cell"):
        path = office_path(args.get("file_path"))
        return set(), {f"{path}#{args.get('sheet') or ''}!{args.get('row_idx')},{args.get('column_idx')}"}
    if app in ("word", "excel"):
        return set(), {office_path(args.get("file_path"))}
    if app == "calendar":
        cal = f"calendar/{str(args.get('user', '')).lower()}.ics"
        names = {str(args.get("summary", "")).casefold(), str(args.get("new_summary") or "").casefold()} - {""}
        return set(), {f"{cal}#{n}" for n in names}
    if app == "email":
        reads = {office_path(a) for a in args.get("attachments") or []}
        if action in ("reply_email", "forward_email"):
            reads.add(f"emails/{str(args.get('username', '')).lower()}/{args.get('email_id')}")
        return reads, {f"mail#{index}"}  # new mail is matched by content, whatever the order
    return {"*"}, {"*"}


def _conflict(a: set[str], b: set[str]) -> bool:
    for x in a:
        for y in b:
            if x == "*" or y == "*" or x == y or x.startswith(y + "#") or y.startswith(x + "#"):
                return True
    return False


def depends(later: tuple[set, set], earlier: tuple[set, set]) -> bool:
    """Whether a step must stay after an earlier one (one writes what the other reads or writes)."""
    (r2, w2), (r1, w1) = later, earlier
    return _conflict(w1, r2 | w2) or _conflict(w2, r1)


def with_switches(steps: Iterable[dict]) -> list[dict]:
    """The steps with a ``switch_app`` before each step of another app than the current one."""
    out, current = [], SYSTEM_APP
    for step in steps:
        app = step.get("app")
        if app == SYSTEM_APP and step.get("action") == "switch_app":
            current = (step.get("args") or {}).get("target_app", current)
            out.append(step)
            continue
        if app != SYSTEM_APP and app != current:
            out.append(_switch(app))
            current = app
        out.append(step)
    return out


def _switch(app: str) -> dict:
    return {"app": SYSTEM_APP, "action": "switch_app", "args": {"target_app": app}}


def core_steps(actions: Iterable[Any], answer: Any) -> tuple[list[dict], Any]:
    """A solution's steps without switch_app and finish_task, and its answer (a finish_task's own wins)."""
    steps = []
    for a in actions:
        d = copy.deepcopy(a.model_dump() if hasattr(a, "model_dump") else dict(a))
        d.setdefault("args", {})
        if d.get("app") == SYSTEM_APP and d.get("action") == FINISH:
            answer = (d.get("args") or {}).get("answer", answer)
            break
        if d.get("app") == SYSTEM_APP and d.get("action") == "switch_app":
            continue
        steps.append(d)
    return steps, answer


def outcome_key(steps: Iterable[dict], answer: Any, toolset: str = DEFAULT_TOOLSET) -> str:
    """What decides a solution's outcome: its write steps, in order, and its answer. A run of
    ``set_cell`` steps counts by the value each cell ends with (the last write to a cell wins), so
    two solutions with the same key provably leave the same office."""
    out: list[Any] = []
    cells: dict[str, Any] = {}
    for step in steps:
        if is_read(step, toolset):
            continue
        args = step.get("args") or {}
        if (step.get("app"), step.get("action")) == ("excel", "set_cell"):
            where = [office_path(args.get("file_path")), args.get("sheet"), args.get("row_idx"), args.get("column_idx")]
            cells[json.dumps(where, default=str)] = args.get("text")
            continue
        if cells:
            out.append(dict(sorted(cells.items())))
            cells = {}
        out.append(step)
    if cells:
        out.append(dict(sorted(cells.items())))
    return json.dumps([out, answer], sort_keys=True, default=str)


# ---- numbers, dates and times as written ------------------------------------------------------------
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]
_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_CURRENCY = re.compile(r"[$€£¥]")
_CODES = {"USD": "$", "EUR": "€", "GBP": "£"}
_MONEY_WORDS = re.compile(r"\b(?:amount|total|price|cost|costs|budget|actual|variance|rent|spend|spent|paid|pay|"
                          r"invoice|fee|fees|balance|revenue|sales|net|gross|subtotal|expense|expenses|eur|usd|gbp|"
                          r"euro|euros|dollars?|pounds?)\b|[$€£]", re.I)
_ID_NEIGHBOUR = re.compile(r"[A-Za-z0-9_#/\\-]")
_YEAR = range(1900, 2101)


@dataclass
class _Num:
    """A number as written: its value and its form."""

    value: float
    raw: str

    @property
    def decimals(self) -> int:
        digits = re.sub(r"[^\d.,]", "", self.raw)
        m = re.search(r"\.(\d+)$", digits)
        return len(m.group(1)) if m else 0

    @property
    def grouped(self) -> bool:
        return bool(re.search(r"\d,\d{3}", self.raw))

    @property
    def currency(self) -> str:
        m = _CURRENCY.search(self.raw)
        return m.group(0) if m else ""


def render(value: float, *, decimals: int = 0, grouped: bool = False, currency: str = "") -> str:
    """A number written with the given form: ``render(1500, decimals=2, grouped=True, currency="$")`` is $1,500.00."""
    sign = "-" if value < 0 else ""
    body = f"{abs(value):,.{decimals}f}" if grouped else f"{abs(value):.{decimals}f}"
    return f"{sign}{currency}{body}"


def _like(num: _Num, value: float) -> str:
    return render(value, decimals=num.decimals, grouped=num.grouped, currency=num.currency)


def nudged(value: float, decimals: int = 0) -> float:
    """Another plausible value: one more in the last significant digit (4140 -> 4150, 47.90 -> 48.00)."""
    text = f"{abs(value):.{decimals}f}".rstrip("0").rstrip(".") if decimals else f"{abs(value):.0f}"
    if "." in text:
        step = 10.0 ** -len(text.split(".")[1])
    else:
        zeros = len(text) - len(text.rstrip("0")) if text.strip("0") else 0
        step = 10.0 ** min(zeros, max(len(text) - 1, 0))
    return round(value + step, max(decimals, 6))


def _year_like(value: float) -> bool:
    return float(value).is_integer() and int(value) in _YEAR


def standalone_numbers(text: str) -> list[Mention]:
    """Numbers written on their own in ``text`` (not parts of ids, codes, dates or times)."""
    out = []
    for m in numbers_in(text):
        raw = text[m.start:m.end]
        start = m.start + (len(raw) - len(raw.lstrip()))
        before = text[start - 1] if start > 0 else ""
        after = text[m.end] if m.end < len(text) else ""
        if _ID_NEIGHBOUR.match(before or " ") or _ID_NEIGHBOUR.match(after or " ") and after != "-":
            continue
        if after == "-" and m.end + 1 < len(text) and text[m.end + 1].isalnum():
            continue
        out.append(Mention(m.value, start, m.end))
    return out


def _shift_date(d: date) -> date:
    nxt = d + timedelta(days=1)
    return nxt if nxt.month == d.month else d - timedelta(days=1)


def _date_mentions(text: str, year: int) -> list[Mention]:
    seen, out = set(), []
    for m in dates_in(text, year):
        if (m.start, m.end) in seen or not isinstance(m.value, date):
            continue
        seen.add((m.start, m.end))
        out.append(m)
    # a slashed date reads two ways: leave it out rather than guess
    return [m for m in out if not re.search(r"\d[/.]\d", text[m.start:m.end])]


def _redate(raw: str, old: date, new: date) -> str:
    """``raw`` (a date as written) rewritten for ``new``, same month, same form."""
    if re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}", raw):
        return new.isoformat()
    out = raw
    wd = re.match(r"(?i)(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?", out)
    if wd:
        name = _WEEKDAYS[new.weekday()]
        word = wd.group(0).rstrip(".")
        repl = name if len(word) > 3 else name[:3]
        out = repl + out[len(word):]
    return re.sub(rf"(?<!\d){old.day}(st|nd|rd|th)?(?!\d)",
                  lambda m: f"{new.day}{_ordinal(new.day) if m.group(1) else ''}", out, count=1)


def _ordinal(day: int) -> str:
    return "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _reform_date(raw: str, d: date) -> str:
    """The same date in another common form: ISO becomes '13 April 2026', a written date ISO (a
    weekday kept: 'Monday 13 April 2026')."""
    if re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}", raw):
        return f"{d.day} {_MONTHS[d.month - 1]} {d.year}"
    if re.match(r"(?i)(mon|tue|wed|thu|fri|sat|sun)", raw):
        return f"{_WEEKDAYS[d.weekday()]} {d.day} {_MONTHS[d.month - 1]} {d.year}"
    return d.isoformat()


def _retime(raw: str) -> str | None:
    """``raw`` (a clock time as written) one hour later, same form; None for noon/midnight words."""
    m = re.match(r"(?P<h>\d{1,2})(?P<rest>.*)$", raw.strip(), re.S)
    if not m:
        return None
    hour, rest = int(m["h"]), m["rest"]
    ap = re.search(r"(?i)([ap])(\.?\s?m\.?)", rest)
    if ap:
        h24 = hour % 12 + (12 if ap.group(1).lower() == "p" else 0)
        h24 = (h24 + 1) % 24
        h12 = h24 % 12 or 12
        flip = "p" if h24 >= 12 else "a"
        if ap.group(1).isupper():
            flip = flip.upper()
        rest = rest[:ap.start(1)] + flip + rest[ap.end(1):]
        return f"{h12}{rest}"
    new = hour + 1 if hour < 23 else hour - 1
    width = len(m["h"])
    return f"{new:0{width}d}{rest}"


# ---- the office as a source of distractors ---------------------------------------------------------
_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


class _Office:
    """What the initial office offers: files by path, texts, addresses, numbers, event places."""

    def __init__(self, task: Any, office: dict[str, dict]):
        self.files = office
        self.user = str(task.user).lower()
        # an office in OfficeBench's layout names people by first name (task field people: {Bob: bob@x})
        self.people = {str(k).casefold(): str(v).lower() for k, v in (getattr(task, "people", None) or {}).items()}
        texts: list[tuple[str, str]] = []
        for path, entry in office.items():
            try:
                texts.append((path, document_text(entry)))
            except Exception:  # an odd entry offers no text
                continue
        for spec in getattr(task, "office", []) or []:  # pictures say what their builder rendered
            if getattr(spec, "type", None) == "image":
                texts.append((spec.path, str(spec.text)))
        self.texts = texts
        self.all_text = "\n".join(t for _p, t in texts)
        addresses: set[str] = set()
        for entry in office.values():
            if entry.get("kind") == "eml":
                addresses.update(a.lower() for a in [entry.get("from") or "", *(entry.get("to") or []),
                                                     *(entry.get("cc") or []), entry.get("mailbox") or ""] if a)
            elif entry.get("kind") == "ics":
                addresses.add(str(entry.get("user") or "").lower())
                for ev in entry.get("events") or []:
                    addresses.update(a.lower() for a in ev.get("attendees") or [])
        addresses.update(a.lower().rstrip(".") for a in _ADDRESS.findall(self.all_text))
        addresses.update(self.people.values())
        self.addresses = sorted(a for a in addresses if a and "@" in a and self.who(a) != self.who(self.user))
        numbers: dict[float, str] = {}
        for _p, text in texts:
            for m in standalone_numbers(text):
                numbers.setdefault(round(m.value, 6), text[m.start:m.end])
        self.numbers = numbers
        self.locations = sorted({collapse(ev.get("location")) for e in office.values() if e.get("kind") == "ics"
                                 for ev in e.get("events") or [] if collapse(ev.get("location"))})

    def data_files(self) -> list[str]:
        return [p for p in self.files if not p.startswith(("emails/", "calendar/"))]

    def distractor_number(self, value: float) -> float | None:
        """The office's number closest in size to ``value`` (not ``value``, not a year unless it is one)."""
        year = _year_like(value)
        pool = [v for v in self.numbers if abs(v - value) > 1e-6 and (year or not _year_like(v))]
        if value < 0:
            pool = [v for v in pool if v < 0] or pool
        if not pool:
            return None

        def size(v: float) -> float:
            return math.log10(abs(v) + 1e-9)

        return min(pool, key=lambda v: (abs(size(v) - size(value)), abs(v - value), v))

    def similar_file(self, path: str, avoid: set[str]) -> str | None:
        """The office file of the same kind most like ``path`` by name, that the gold leaves alone."""
        suffix = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else None
        pool = [p for p in self.data_files() if p not in avoid and p != path
                and suffix and p.lower().endswith("." + suffix)]
        if not pool:
            return None
        return max(pool, key=lambda p: (difflib.SequenceMatcher(None, p, path).ratio(), p))

    def who(self, person: Any) -> str:
        """A person's identity: their address, or for a listed person their name (by name, address, or an
        address whose local part is the name, as apps/people.py reads them)."""
        text = str(person or "").strip().lower()
        for name, address in self.people.items():
            if text in (name, address) or ("@" in text and text.split("@")[0] == name):
                return f"person:{name}"
        return text

    def other_address(self, avoid: Iterable[str], like: str = "") -> str | None:
        taken = {self.who(a) for a in avoid}
        pool = [a for a in self.addresses if self.who(a) not in taken]
        if not pool:
            return None
        domain = like.rsplit("@", 1)[-1].lower() if "@" in like else ""
        return min(pool, key=lambda a: (a.rsplit("@", 1)[-1] != domain, a))

    def event(self, user: str, summary: str) -> dict | None:
        entry = self.files.get(f"calendar/{str(user).lower()}.ics") or {}
        for ev in entry.get("events") or []:
            if collapse(ev.get("summary")).casefold() == collapse(summary).casefold():
                return ev
        return None

    def sheet_rows(self, path: str, sheet: str | None) -> tuple[str | None, list[list[Any]]]:
        entry = self.files.get(path) or {}
        if entry.get("kind") != "xlsx":
            return None, []
        order = entry.get("sheet_order") or list(entry.get("sheets", {}))
        name = sheet if sheet in entry.get("sheets", {}) else (order[0] if order and sheet is None else None)
        return name, [list(r) for r in entry.get("sheets", {}).get(name, [])] if name else []

    def mentions(self, person: str) -> bool:
        """Whether the office or task text names a person (their address or their first name)."""
        local = person.split("@")[0]
        first = re.split(r"[._-]", local)[0]
        hay = self.all_text
        return person.lower() in hay.lower() or bool(first and re.search(rf"\b{re.escape(first)}\b", hay, re.I))

    def currency(self) -> str:
        counts = {s: self.all_text.count(s) for s in "$€£"}
        for code, sym in _CODES.items():
            counts[sym] += len(re.findall(rf"\b{code}\b", self.all_text))
        best = max(counts, key=lambda s: counts[s])
        return best if counts[best] else ""


# ---- where the gold writes values -------------------------------------------------------------------
_TEXT_ARGS = {("email", "send_email"): ("content",), ("email", "reply_email"): ("content",),
              ("email", "forward_email"): ("content",), ("word", "write_to_file"): ("contents",),
              ("word", "replace_text"): ("new_text",), ("calendar", "create_event"): ("description",),
              ("calendar", "update_event"): ("description",), ("excel", "set_cell"): ("text",)}
_BODY_ARGS = {("email", "send_email"): "content", ("email", "reply_email"): "content",
              ("email", "forward_email"): "content"}


@dataclass
class _Site:
    """A value the gold writes: step ``index``'s argument ``key`` (item ``item`` of a list), the
    whole value (``span`` None) or a part of a text."""

    index: int
    key: str
    item: int | None
    span: tuple[int, int] | None
    raw: str
    value: Any

    def text(self, steps: list[dict]) -> Any:
        v = steps[self.index]["args"][self.key]
        return v[self.item] if self.item is not None else v

    def put(self, steps: list[dict], new: Any) -> None:
        args = steps[self.index]["args"]
        if self.span is not None:
            old = self.text(steps)
            new = old[:self.span[0]] + str(new) + old[self.span[1]:]
        if self.item is not None:
            args[self.key] = list(args[self.key])
            args[self.key][self.item] = new
        else:
            args[self.key] = new


def _cell_number(text: Any) -> float | None:
    if isinstance(text, bool):
        return None
    if isinstance(text, (int, float)):
        return float(text)
    if isinstance(text, str) and not text.strip().startswith("="):
        return as_number(text)
    return None


class Deriver:
    """Derives the mutants of one task (``derive`` is the entry point)."""

    def __init__(self, task: Any, office: dict[str, dict], gold: Iterable[Any] | None = None, answer: Any = ...):
        self.task = task
        self.toolset = getattr(task, "toolset", None) or DEFAULT_TOOLSET
        self.core, self.answer = core_steps(task.gold if gold is None else gold,
                                            task.answer if answer is ... else answer)
        self.office = _Office(task, office)
        self.year = task.now_dt.year if hasattr(task, "now_dt") else datetime.now().year
        self.instruction = str(task.instruction or "")
        self.gold_key = outcome_key(self.core, self.answer, self.toolset)
        self.touched = self._touched()
        choices = getattr(task, "choices", None) or []
        self.chosen_values = {str(c.value).strip() for c in choices if c.value is not None}
        self.chosen_events = {str(c.event).strip().lower(): ("end" if c.end_only else "times")
                              for c in choices if c.event is not None}
        self.out: list[Mutant] = []
        self._keys: set[str] = set()

    # -- bookkeeping -------------------------------------------------------------------------------
    def _touched(self, shell_only: bool = False) -> set[str]:
        """Office paths the gold names anywhere (files it reads, writes, attaches or names in a command)."""
        paths: set[str] = set()
        known = set(self.office.files)
        for step in self.core:
            if shell_only and step.get("app") != "shell":
                continue
            for value in (step.get("args") or {}).values():
                for v in value if isinstance(value, list) else [value]:
                    if not isinstance(v, str):
                        continue
                    p = office_path(v)
                    if p in known or "/" in p:
                        paths.add(p)
                    if step.get("app") == "shell":
                        for token in re.findall(r"[\w./*-]+", v):
                            t = office_path(token)
                            paths.update(k for k in known if k == t or k.startswith(t.rstrip("/") + "/")
                                         or ("*" in t and re.fullmatch(re.escape(t).replace(r"\*", "[^/]*"), k)))
            if step.get("app") == "email" and (step.get("args") or {}).get("email_id"):
                user = str(step["args"].get("username", "")).lower()
                paths.update(k for k in known if k.startswith(f"emails/{user}/")
                             and k.rsplit("/", 1)[-1].rsplit(".", 1)[0] == str(step["args"]["email_id"]))
        return paths

    def add(self, kind: str, cls: str, name: str, steps: list[dict], answer: Any = ..., keep_reads: bool = False) -> None:
        answer = self.answer if answer is ... else answer
        plays = steps if keep_reads else [s for s in steps if not self.is_read(s)]
        if not keep_reads:  # the gold's questions to the user come first: a needed reply is asked before acting
            plays = [s for s in steps if _is_question(s)] + plays
        key = outcome_key(steps, answer, self.toolset)
        if kind == WRONG and key == self.gold_key:
            return  # provably the gold's own outcome
        # a wrong mutant with the same outcome as an earlier one tests nothing more (a cell written one
        # row off and then overwritten by the gold is the cell left out); a right one is played as written
        full = key if kind == WRONG else json.dumps(with_switches(plays) + [answer], sort_keys=True, default=str)
        if (kind, full) in self._keys:
            return
        self._keys.add((kind, full))
        self.out.append(Mutant(name=name, cls=cls, kind=kind, actions=with_switches(copy.deepcopy(plays)),
                               answer=answer))

    def is_read(self, step: dict) -> bool:
        return is_read(step, self.toolset)

    def steps(self) -> list[dict]:
        return copy.deepcopy(self.core)

    def writes(self) -> list[int]:
        return [i for i, s in enumerate(self.core) if not self.is_read(s)]

    @staticmethod
    def label(step: dict, index: int) -> str:
        return f"#{index + 1} {step['app']}.{step['action']}"

    # -- value sites ---------------------------------------------------------------------------------
    def number_sites(self) -> list[_Site]:
        sites = []
        for i, step in enumerate(self.core):
            op = (step["app"], step["action"])
            args = step.get("args") or {}
            if op == ("excel", "set_cell") and _cell_number(args.get("text")) is not None:
                text = args["text"]
                sites.append(_Site(i, "text", None, None, str(text), _cell_number(text)))
                continue
            if op == ("excel", "insert_row"):
                for j, v in enumerate(args.get("values") or []):
                    if _cell_number(v) is not None:
                        sites.append(_Site(i, "values", j, None, str(v), _cell_number(v)))
                continue
            for key in _TEXT_ARGS.get(op, ()):
                text = args.get(key)
                if isinstance(text, str):
                    for m in standalone_numbers(text):
                        if not _year_like(m.value):  # a year in text names something (Q2 2026); dates are dates
                            sites.append(_Site(i, key, None, (m.start, m.end), text[m.start:m.end], m.value))
        return sites

    def date_sites(self) -> list[_Site]:
        sites = []
        for i, step in enumerate(self.core):
            op = (step["app"], step["action"])
            for key in _TEXT_ARGS.get(op, ()):
                text = (step.get("args") or {}).get(key)
                if not isinstance(text, str):
                    continue
                if op == ("excel", "set_cell") and re.fullmatch(r"\d{4}-\d{2}-\d{2}", text.strip()):
                    d = date.fromisoformat(text.strip())
                    sites.append(_Site(i, key, None, None, text, d))
                    continue
                for m in _date_mentions(text, self.year):
                    sites.append(_Site(i, key, None, (m.start, m.end), text[m.start:m.end], m.value))
        return sites

    def time_sites(self) -> list[_Site]:
        sites = []
        for i, step in enumerate(self.core):
            for key in _TEXT_ARGS.get((step["app"], step["action"]), ()):
                text = (step.get("args") or {}).get(key)
                if isinstance(text, str) and (step["app"], step["action"]) != ("excel", "set_cell"):
                    for m in times_in(text):
                        sites.append(_Site(i, key, None, (m.start, m.end), text[m.start:m.end], m.value))
        return sites

    # ============================================================================================
    def chosen(self, site: Any) -> bool:
        """Whether a value site is one the task lists as the gold's own choice (``choices``)."""
        return str(site.raw).strip() in self.chosen_values

    def event_chosen(self, args: dict, part: str = "times") -> bool:
        """Whether an event's times (``part`` "times") or its end ("end") are the gold's own choice
        (``choices``); a choice of its times covers its end."""
        chosen = self.chosen_events.get(str(args.get("summary", "")).strip().lower())
        return chosen == "times" or (chosen is not None and part == "end")

    def derive(self) -> list[Mutant]:
        for part in (self.guessed_not_asked, self.dropped_and_doubled, self.numbers_wrong, self.cells_off, self.distractor_files,
                     self.recipients, self.attachments, self.moves, self.distractor_deletes, self.events, self.answers_wrong,
                     self.numbers_right, self.dates_right, self.mail_right, self.formulas, self.answer_right,
                     self.reorder, self.reads_and_switches):
            part()
        return self.out

    # -- wrong: guessing instead of asking (system.ask_user; tasks/FORMAT.md §4) ------------------------
    def guessed_not_asked(self) -> None:
        """For each needed reply with a ``guess``: the gold's steps without its questions, each value the
        reply gave replaced by the guess (strings by substring, other values when equal)."""
        for k, reply in enumerate(getattr(self.task, "user_replies", None) or []):
            if not reply.needed or not reply.guess:
                continue
            steps = [s for s in self.steps() if (s.get("app"), s.get("action")) != (SYSTEM_APP, "ask_user")]
            for step in steps:
                step["args"] = {key: _guessed(v, reply.guess) for key, v in (step.get("args") or {}).items()}
            answer = _guessed(self.answer, reply.guess)
            self.add(WRONG, "guessed-not-asked", f"user_replies[{k}] not asked, guessed "
                     f"{', '.join(map(str, reply.guess.values()))}", steps, answer)

    # -- wrong: numbers ------------------------------------------------------------------------------
    def numbers_wrong(self) -> None:
        for site in self.number_sites():
            if self.chosen(site):
                continue
            step = self.core[site.index]
            num = _Num(site.value, site.raw)
            whole = site.span is None
            for cls, new in (("number-changed", nudged(site.value, num.decimals)),
                             ("number-distractor", self.office.distractor_number(site.value))):
                if new is None:
                    continue
                steps = self.steps()
                if whole and isinstance(site.text(steps), (int, float)):
                    written = int(new) if float(new).is_integer() and isinstance(site.text(steps), int) else new
                else:
                    written = _like(num, new)
                site.put(steps, written)
                self.add(WRONG, cls, f"{self.label(step, site.index)} {site.raw.strip()} -> {written}", steps)
        for site in self.date_sites():
            if self.chosen(site):
                continue
            steps = self.steps()
            new = _shift_date(site.value)
            written = new.isoformat() if site.span is None else _redate(site.raw, site.value, new)
            site.put(steps, written)
            self.add(WRONG, "number-changed", f"{self.label(self.core[site.index], site.index)} date "
                     f"{site.raw.strip()} -> {written.strip()}", steps)
        for site in self.time_sites():
            new = _retime(site.raw)
            if new is None or self.chosen(site):
                continue
            steps = self.steps()
            site.put(steps, new)
            self.add(WRONG, "number-changed", f"{self.label(self.core[site.index], site.index)} time "
                     f"{site.raw.strip()} -> {new.strip()}", steps)
        for i, step in enumerate(self.core):  # event times
            args = step.get("args") or {}
            if step["app"] != "calendar" or step["action"] not in ("create_event", "update_event"):
                continue
            if self.event_chosen(args):
                continue
            if args.get("time_start") and args.get("time_end") and not self._all_day(args["time_start"]):
                steps = self.steps()
                start = self._moment(args["time_start"])
                end = self._moment(args["time_end"])
                if start and end:
                    steps[i]["args"]["time_start"] = self._fmt(start - timedelta(minutes=30), args["time_start"])
                    self.add(WRONG, "number-changed", f"{self.label(step, i)} starts 30 minutes earlier", steps)

    # -- wrong: cells off ----------------------------------------------------------------------------
    def cells_off(self) -> None:
        for i, step in enumerate(self.core):
            args = step.get("args") or {}
            if step["app"] != "excel" or step["action"] not in ("set_cell", "insert_row", "delete_row", "delete_cell"):
                continue
            label = self.label(step, i)
            if isinstance(args.get("row_idx"), int):
                steps = self.steps()
                steps[i]["args"]["row_idx"] = args["row_idx"] + 1
                self.add(WRONG, "off-row", f"{label} row {args['row_idx']} -> {args['row_idx'] + 1}", steps)
            if isinstance(args.get("column_idx"), int):
                steps = self.steps()
                steps[i]["args"]["column_idx"] = args["column_idx"] + 1
                self.add(WRONG, "off-column", f"{label} column {args['column_idx']} -> {args['column_idx'] + 1}", steps)
            entry = self.office.files.get(office_path(args.get("file_path"))) or {}
            order = entry.get("sheet_order") or list(entry.get("sheets", {}) or {})
            current = args.get("sheet") or (order[0] if order else None)
            others = [s for s in order if s != current]
            if others:
                steps = self.steps()
                steps[i]["args"]["sheet"] = others[0]
                self.add(WRONG, "off-sheet", f"{label} sheet {current!r} -> {others[0]!r}", steps)

    # -- wrong: another file of the same kind --------------------------------------------------------
    def distractor_files(self) -> None:
        known = set(self.office.files)
        swaps: dict[str, str | None] = {}
        for i, step in enumerate(self.core):
            if self.is_read(step) and step["app"] != "shell":
                continue
            args = step.get("args") or {}
            for key in (*_FILE_ARGS, "attachments"):
                values = args.get(key)
                for v in values if isinstance(values, list) else [values]:
                    p = office_path(v) if isinstance(v, str) else ""
                    if p in known and p not in swaps:
                        swaps[p] = self.office.similar_file(p, self.touched)
            if step["app"] == "shell":
                for token in re.findall(r"[\w./-]+", str(args.get("command", ""))):
                    p = office_path(token)
                    if p in known and p not in swaps and not p.startswith(("emails/", "calendar/")):
                        swaps[p] = self.office.similar_file(p, self.touched)
        for path, other in swaps.items():
            if not other:
                continue
            steps = self.steps()
            for step in steps:
                if self.is_read(step) and step["app"] != "shell":
                    continue
                args = step.get("args") or {}
                for key, value in list(args.items()):
                    if isinstance(value, str) and (office_path(value) == path if key in _FILE_ARGS else False):
                        args[key] = other
                    elif key == "attachments" and isinstance(value, list):
                        args[key] = [other if office_path(v) == path else v for v in value]
                    elif key == "command" and isinstance(value, str):
                        args[key] = re.sub(rf"(?<![\w./-])(?:/testbed/)?{re.escape(path)}(?![\w./-])", other, value)
            self.add(WRONG, "distractor-file", f"{path} -> {other}", steps)

    # -- wrong: recipients ---------------------------------------------------------------------------
    def recipients(self) -> None:
        for i, step in enumerate(self.core):
            app, action, args = step["app"], step["action"], step.get("args") or {}
            label = self.label(step, i)
            if app == "email" and action in ("send_email", "forward_email", "reply_email"):
                if action == "reply_email":
                    original = self._message(args.get("username"), args.get("email_id"))
                    if not original or not original.get("from"):
                        continue
                    to = [original["from"]]
                    cc: list[str] = []
                else:
                    to = [str(a).lower() for a in _listed(args.get("recipient"))]
                    cc = [str(a).lower() for a in _listed(args.get("cc"))]
                sender = str(args.get("sender") or args.get("username") or self.task.user).lower()
                other = self.office.other_address([*to, *cc, sender], like=to[0] if to else "")
                if other:
                    for cls, new_to in (("recipient-replaced", [other, *to[1:]]), ("recipient-joined", [*to, other])):
                        steps = self.steps()
                        if action == "reply_email":
                            steps[i] = self._reply_as_send(step, original, new_to)
                        else:
                            steps[i]["args"]["recipient"] = new_to if len(new_to) > 1 else new_to[0]
                        what = f"{to[0]} -> {other}" if cls == "recipient-replaced" else f"+ {other}"
                        self.add(WRONG, cls, f"{label} recipient {what}", steps)
                if action == "send_email" and len(to) + len(cc) > 1:
                    steps = self.steps()
                    if len(to) > 1:
                        dropped, steps[i]["args"]["recipient"] = to[-1], to[:-1] if len(to) > 2 else to[0]
                    else:
                        dropped, steps[i]["args"]["cc"] = cc[-1], cc[:-1]
                    self.add(WRONG, "recipient-dropped", f"{label} without {dropped}", steps)
                if action == "send_email" and to and (len(to) > 1 or cc):
                    named = [a for a in to if self.office.mentions(a) or a in self.instruction.lower()
                             or _first_name(a) in self.instruction.lower()]
                    if named:
                        moved = named[-1]
                        steps = self.steps()
                        rest = [a for a in to if a != moved]
                        if not rest:  # one recipient: swap to and cc
                            rest, new_cc = cc[:1], [moved, *cc[1:]]
                        else:
                            new_cc = [*cc, moved]
                        steps[i]["args"]["recipient"] = rest if len(rest) > 1 else rest[0]
                        steps[i]["args"]["cc"] = new_cc
                        self.add(WRONG, "cc-instead-of-to", f"{label} {moved} in cc instead of to", steps)
            if app == "calendar" and action in ("create_event", "update_event") and args.get("attendees"):
                attendees = [str(a).lower() for a in args["attendees"]]
                owner = str(args.get("user") or self.task.user).lower()  # the calendar's owner is no new attendee
                other = self.office.other_address([*attendees, self.task.user, owner], like=attendees[0])
                replace_at = next((k for k, a in enumerate(attendees) if a != str(self.task.user).lower()), 0)
                changes = [("recipient-joined", [*attendees, other], f"+ {other}")] if other else []
                if other:
                    changes.append(("recipient-replaced", [other if k == replace_at else a for k, a in enumerate(attendees)],
                                    f"{attendees[replace_at]} -> {other}"))
                if len(attendees) > 1:
                    changes.append(("recipient-dropped", [a for k, a in enumerate(attendees) if k != replace_at],
                                    f"without {attendees[replace_at]}"))
                for cls, new, what in changes:
                    steps = self.steps()
                    steps[i]["args"]["attendees"] = new
                    self.add(WRONG, cls, f"{label} attendee {what}", steps)

    def _message(self, user: Any, email_id: Any) -> dict | None:
        user = str(user or "").lower()
        for folder in ("", "sent/"):
            entry = self.office.files.get(f"emails/{user}/{folder}{email_id}.eml")
            if entry:
                return entry
        return None

    def _reply_as_send(self, step: dict, original: dict, to: list[str]) -> dict:
        subject = str(original.get("subject") or "")
        args = step.get("args") or {}
        return {"app": "email", "action": "send_email",
                "args": {"sender": args.get("username"), "recipient": to if len(to) > 1 else to[0],
                         "subject": subject if subject.lower().startswith("re:") else f"Re: {subject}",
                         "content": args.get("content", "")}}

    # -- wrong: attachments --------------------------------------------------------------------------
    def attachments(self) -> None:
        for i, step in enumerate(self.core):
            if (step["app"], step["action"]) != ("email", "send_email"):
                continue
            args = step.get("args") or {}
            attached = [office_path(a) for a in _listed(args.get("attachments"))]
            like = attached[0] if attached else ""
            # a file the solution never touches: attaching the file a text was taken from is defensible
            pool = [p for p in self.office.data_files() if p not in attached and p not in self.touched]
            if like:
                same = [p for p in pool if p.rsplit(".", 1)[-1] == like.rsplit(".", 1)[-1]]
                pool = same or pool
            if pool:
                extra = max(pool, key=lambda p: (difflib.SequenceMatcher(None, p, like).ratio(), p)) if like else pool[0]
                steps = self.steps()
                steps[i]["args"]["attachments"] = [*_listed(args.get("attachments")), extra]
                self.add(WRONG, "extra-attachment", f"{self.label(step, i)} + {extra}", steps)
            for path in attached:
                if path not in self.office.files:
                    continue
                first = next((j for j in range(i) if not self.is_read(self.core[j])
                              and path in {w.split("#")[0] for w in effects(self.core[j], j, self.toolset)[1]}), None)
                if first is None:
                    continue
                steps = self.steps()
                send = steps.pop(i)
                steps.insert(first, send)
                self.add(WRONG, "stale-attachment", f"{self.label(step, i)} sent before the edits to {path}", steps)

    # -- wrong: steps dropped and doubled -------------------------------------------------------------
    def _recreated(self, i: int) -> bool:
        """Whether a later step makes step i's file anyway (word.write_to_file creates a missing file)."""
        step = self.core[i]
        if (step["app"], step["action"]) != ("word", "create_new_file"):
            return False
        path = office_path(step["args"].get("file_path"))
        return any((s["app"], s["action"]) == ("word", "write_to_file") and office_path(s["args"].get("file_path")) == path
                   for s in self.core[i + 1:])

    def dropped_and_doubled(self) -> None:
        for i in self.writes():
            step = self.core[i]
            steps = self.steps()
            del steps[i]
            if not self._recreated(i):
                self.add(WRONG, "step-dropped", f"{self.label(step, i)} left out", steps)
            if (step["app"], step["action"]) in CREATES:
                steps = self.steps()
                steps.insert(i + 1, copy.deepcopy(step))
                self.add(WRONG, "create-twice", f"{self.label(step, i)} done twice", steps)

    # -- wrong: moves as copies ----------------------------------------------------------------------
    def moves(self) -> None:
        for i, step in enumerate(self.core):
            if step["app"] != "shell":
                continue
            command = str((step.get("args") or {}).get("command", ""))
            copied = copy_not_move(command)
            if copied != command:
                steps = self.steps()
                steps[i]["args"]["command"] = copied
                self.add(WRONG, "move-as-copy", f"{self.label(step, i)}: {copied[:80]}", steps)

    # -- wrong: a distractor deleted -----------------------------------------------------------------
    def distractor_deletes(self) -> None:
        touched = self.touched
        files = [p for p in self.office.data_files() if p not in touched]
        written = [office_path(s["args"].get("file_path")) for s in self.core if s["app"] in ("word", "excel")]
        if files:
            target = max(files, key=lambda p: (max((difflib.SequenceMatcher(None, p, w).ratio() for w in written),
                                                   default=0.0), p))
            self.add(WRONG, "distractor-deleted", f"+ rm {target}",
                     self.steps() + [{"app": "shell", "action": "command", "args": {"command": f"rm -f '{target}'"}}])
        shell_touched = self._touched(shell_only=True)
        xlsx = [p for p in written if (self.office.files.get(p) or {}).get("kind") == "xlsx"]
        xlsx += [p for p, e in self.office.files.items() if e.get("kind") == "xlsx" and p not in xlsx and p not in touched]
        for path in dict.fromkeys(xlsx):
            if path in shell_touched:
                continue
            mine = [s for s in self.core if s["app"] == "excel" and office_path(s["args"].get("file_path")) == path]
            gold_rows = {s["args"].get("row_idx") for s in mine}
            name, rows = self.office.sheet_rows(path, None)
            kept = len(rows) - sum(1 for s in mine if s["action"] == "delete_row")  # rows surely there after the gold
            candidates = [r for r in range(min(len(rows), kept), 1, -1)
                          if r not in gold_rows and any(v not in (None, "") for v in rows[r - 1])]
            if candidates:
                self.add(WRONG, "distractor-deleted", f"+ delete row {candidates[0]} of {path}",
                         self.steps() + [{"app": "excel", "action": "delete_row",
                                          "args": {"file_path": path, "row_idx": candidates[0]}}])
                break
        summaries = {str(s["args"].get(k, "")).casefold() for s in self.core if s["app"] == "calendar"
                     for k in ("summary", "new_summary")}
        for path, entry in sorted(self.office.files.items(), key=lambda kv: kv[0] != f"calendar/{self.office.user}.ics"):
            if entry.get("kind") != "ics":
                continue
            events = [ev for ev in entry.get("events") or [] if collapse(ev.get("summary")).casefold() not in summaries]
            if events:
                self.add(WRONG, "distractor-deleted", f"+ delete event {events[0].get('summary')!r} of {entry.get('user')}",
                         self.steps() + [{"app": "calendar", "action": "delete_event",
                                          "args": {"user": entry.get("user"), "summary": events[0].get("summary")}}])
                break
        mails = [p for p, e in self.office.files.items() if e.get("kind") == "eml" and p not in touched
                 and e.get("folder") == "inbox"]
        mails.sort(key=lambda p: (not p.startswith(f"emails/{self.office.user}/"), p))
        if mails:
            self.add(WRONG, "distractor-deleted", f"+ rm {mails[0]}",
                     self.steps() + [{"app": "shell", "action": "command", "args": {"command": f"rm -f '{mails[0]}'"}}])

    # -- wrong: events -------------------------------------------------------------------------------
    @staticmethod
    def _all_day(text: Any) -> bool:
        return bool(re.fullmatch(r"\s*\d{4}-\d{2}-\d{2}\s*", str(text)))

    @staticmethod
    def _moment(text: Any) -> datetime | None:
        try:
            return datetime.fromisoformat(str(text).strip())
        except ValueError:
            return None

    @staticmethod
    def _fmt(moment: datetime, like: str) -> str:
        return moment.date().isoformat() if Deriver._all_day(like) else moment.strftime("%Y-%m-%d %H:%M:%S")

    def events(self) -> None:
        for i, step in enumerate(self.core):
            if step["app"] != "calendar" or step["action"] not in ("create_event", "update_event"):
                continue
            args = step.get("args") or {}
            label = self.label(step, i)
            start, end = self._moment(args.get("time_start")), self._moment(args.get("time_end"))
            if self.event_chosen(args):
                start = end = None  # the gold chose the times: shifting them is another right outcome
            elif self.event_chosen(args, "end"):
                end = None
            shift = timedelta(days=1) if self._all_day(args.get("time_start")) else timedelta(hours=1)
            if start:
                steps = self.steps()
                steps[i]["args"]["time_start"] = self._fmt(start + shift, args["time_start"])
                if end:
                    steps[i]["args"]["time_end"] = self._fmt(end + shift, args["time_end"])
                self.add(WRONG, "event-start-shifted", f"{label} {'a day' if shift.days else 'an hour'} later", steps)
            if end:
                steps = self.steps()
                steps[i]["args"]["time_end"] = self._fmt(end + (shift if shift.days else timedelta(minutes=30)),
                                                         args["time_end"])
                self.add(WRONG, "event-end-shifted", f"{label} ends later", steps)
            if args.get("location"):
                original = self.office.event(args.get("user"), args.get("summary")) if step["action"] == "update_event" else None
                pool = [loc for loc in ([collapse((original or {}).get("location"))] + self.office.locations)
                        if loc and loc.casefold() != collapse(args["location"]).casefold()]
                if pool:
                    steps = self.steps()
                    steps[i]["args"]["location"] = pool[0]
                    self.add(WRONG, "event-location-shifted", f"{label} in {pool[0]!r}", steps)
            if step["action"] == "update_event":
                original = self.office.event(args.get("user"), args.get("summary"))
                if original is None:
                    continue
                new_args = {"user": args.get("user"), "summary": args.get("new_summary") or original.get("summary"),
                            "time_start": args.get("time_start") or original.get("start"),
                            "time_end": args.get("time_end") or original.get("end") or original.get("start")}
                for key, field in (("location", "location"), ("description", "description"), ("attendees", "attendees")):
                    value = args.get(key) if args.get(key) is not None else original.get(field)
                    if value:
                        new_args[key] = value
                steps = self.steps()
                steps[i] = {"app": "calendar", "action": "create_event", "args": new_args}
                self.add(WRONG, "event-beside-update", f"{label} as a new event beside the old one", steps)

    # -- wrong: the answer ---------------------------------------------------------------------------
    def answer_distractor(self) -> str | None:
        answer = self.answer
        if answer is None or isinstance(answer, (list, dict)):
            return None
        text = collapse(answer)
        number = as_number(answer) if not isinstance(answer, bool) else None
        if number is not None:
            other = self.office.distractor_number(number)
            return None if other is None else _like(_Num(number, str(answer)), other)
        if _ADDRESS.fullmatch(text):
            return self.office.other_address([text, self.task.user], like=text)
        if re.fullmatch(r"\d{1,2}:\d{2}(:\d{2})?", text):
            times = sorted({f"{m.value.hour:02d}:{m.value.minute:02d}" for m in times_in(self.office.all_text)})
            mine = text[:5].zfill(5)
            others = [t for t in times if t != mine]
            return min(others, key=lambda t: abs(_minutes(t) - _minutes(mine))) if others else None
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            days = sorted({m.value for m in dates_in(self.office.all_text, self.year) if isinstance(m.value, date)})
            d = date.fromisoformat(text)
            others = [x for x in days if x != d]
            return min(others, key=lambda x: (abs((x - d).days), x)).isoformat() if others else None
        return self._text_distractor(text)

    def _text_distractor(self, text: str) -> str | None:
        low = text.casefold()
        for entry in self.office.files.values():  # a sibling in the same spreadsheet column
            for rows in (entry.get("sheets") or {}).values() if entry.get("kind") == "xlsx" else []:
                for r, row in enumerate(rows):
                    for c, v in enumerate(row):
                        if collapse(v).casefold() == low:
                            column = [collapse(rows[k][c]) for k in range(1, len(rows)) if c < len(rows[k])]
                            others = [x for x in column if x and x.casefold() != low and as_number(x) is None]
                            if others:
                                return min(others, key=lambda x: abs(column.index(x) + 1 - r))
        for entry in self.office.files.values():  # another event of the same calendar
            if entry.get("kind") == "ics":
                names = [collapse(ev.get("summary")) for ev in entry.get("events") or []]
                if low in [n.casefold() for n in names]:
                    others = [n for n in names if n and n.casefold() != low]
                    if others:
                        return others[0]
        shape = re.sub(r"\d", r"\\d", re.sub(r"[A-Z]", "[A-Z]", re.escape(text)))
        if re.search(r"\d", text) and re.search(r"[A-Za-z]", text):  # a code: another of the same shape
            others = sorted({m for m in re.findall(rf"(?<![\w-]){shape}(?![\w-])", self.office.all_text) if m != text})
            if others:
                return others[0]
        for line in self.office.all_text.splitlines():  # the same label on another line
            at = line.casefold().find(low)
            prefix = line[:at].strip() if at > 0 else ""
            if len(prefix) < 3:
                continue
            for other in self.office.all_text.splitlines():
                if other.strip().casefold().startswith(prefix.casefold()):
                    rest = collapse(other.strip()[len(prefix):]).strip(" :-")
                    if rest and rest.casefold() != low and low not in rest.casefold():
                        return rest
        return None

    def answers_wrong(self) -> None:
        if self.answer is None:
            return
        steps = self.steps()
        number = as_number(self.answer) if not isinstance(self.answer, (bool, list, dict)) else None
        if number is not None:
            num = _Num(number, str(self.answer))
            new = nudged(number, num.decimals)
            value = _like(num, new) if isinstance(self.answer, str) else (int(new) if float(new).is_integer() else new)
            self.add(WRONG, "number-changed", f"answer {self.answer} -> {value}", steps, answer=value)
        elif isinstance(self.answer, str) and re.fullmatch(r"\d{1,2}:\d{2}", self.answer.strip()):
            new = _retime(self.answer.strip())
            if new:
                self.add(WRONG, "number-changed", f"answer {self.answer} -> {new}", steps, answer=new)
        other = self.answer_distractor()
        if other is not None:
            self.add(WRONG, "answer-distractor", f"answer {self.answer!r} -> {other!r}", steps, answer=other)
            hedge = f"Either {self.answer} or {other}"
            self.add(WRONG, "answer-hedged", f"answer {hedge!r}", steps, answer=hedge)

    # -- right: numbers and dates in another form -----------------------------------------------------
    def _fixed(self, text: str) -> bool:
        """Whether the instruction spells a text out (then its form is not free)."""
        quoted = re.findall(r"'([^']{3,})'|\"([^\"]{3,})\"|‘([^’]{3,})’|“([^”]{3,})”", self.instruction)
        parts = [collapse(next(q for q in group if q)).casefold() for group in quoted]
        line = collapse(text).casefold()
        return any(line and (line == p or (len(line) > 6 and line in p)) for p in parts)

    def _money(self, site: _Site) -> bool:
        num = _Num(site.value, site.raw)
        if num.currency or num.decimals == 2:
            return True
        step = self.core[site.index]
        if site.span is not None:
            text = site.text(self.core)
            return bool(_MONEY_WORDS.search(text[max(0, site.span[0] - 30):site.span[1] + 12]))
        args = step.get("args") or {}
        _name, rows = self.office.sheet_rows(office_path(args.get("file_path")), args.get("sheet"))
        col, row = (args.get("column_idx") or 0) - 1, (args.get("row_idx") or 0) - 1
        context = [rows[0][col] if rows and 0 <= col < len(rows[0]) else "",
                   rows[row][0] if 0 <= row < len(rows) and rows[row] else ""]
        return bool(_MONEY_WORDS.search(" ".join(str(c or "") for c in context)))

    def numbers_right(self) -> None:
        sites = [s for s in self.number_sites() if not _year_like(s.value)
                 and not (s.span is not None and self._fixed(_line_at(s.text(self.core), s.span[0])))]
        currency = self.office.currency()
        styles: list[tuple[str, Callable[[_Site, _Num], str | None]]] = [
            ("thousands separators", lambda s, n: render(s.value, decimals=n.decimals, grouped=not n.grouped,
                                                         currency=n.currency) if abs(s.value) >= 1000 else None),
            ("trailing zeros", lambda s, n: None if s.span is None else (  # a cell stores 1500.00 as 1500
                                             render(s.value, decimals=2, grouped=n.grouped, currency=n.currency)
                                             if n.decimals == 0 and self._money(s) else
                                             _strip_zeros(n) if n.decimals and n.raw.rstrip().endswith("0") else None)),
            ("currency sign", lambda s, n: (render(s.value, decimals=n.decimals, grouped=n.grouped, currency="")
                                            if n.currency else
                                            render(s.value, decimals=max(n.decimals, 2), grouped=n.grouped,
                                                   currency=currency) if currency and self._money(s) else None)),
        ]
        for style, make in styles:
            steps = self.steps()
            changed = []
            for site in sorted(sites, key=lambda s: (s.index, s.key, -(s.span or (0, 0))[0])):  # right to left in a text
                num = _Num(site.value, site.raw)
                new = make(site, num)
                if new is None or new == site.raw.strip():
                    continue
                site.put(steps, new)
                changed.append(f"{site.raw.strip()} as {new}")
            if changed:
                self.add(RIGHT, "number-reformatted", f"{style}: {', '.join(changed[:3])}"
                         + (f" (+{len(changed) - 3})" if len(changed) > 3 else ""), steps)

    def dates_right(self) -> None:
        if date_form_fixed(self.instruction):
            return  # the instruction spells out how dates are written: another form is not right
        steps = self.steps()
        changed = []
        for site in sorted(self.date_sites(), key=lambda s: (s.index, s.key, -(s.span or (0, 0))[0])):
            if site.span is not None and self._fixed(_line_at(site.text(self.core), site.span[0])):
                continue
            new = _reform_date(site.raw.strip() if site.span is None else site.raw, site.value)
            site.put(steps, new)
            changed.append(f"{site.raw.strip()} as {new}")
        if changed:
            self.add(RIGHT, "date-reformatted", ", ".join(changed[:3]) + (f" (+{len(changed) - 3})" if len(changed) > 3 else ""),
                     steps)

    # -- right: mail wording -------------------------------------------------------------------------
    def mail_right(self) -> None:
        for i, step in enumerate(self.core):
            key = _BODY_ARGS.get((step["app"], step["action"]))
            if not key:
                continue
            args = step.get("args") or {}
            body = str(args.get(key) or "")
            if body.strip() and not self._fixed(body):
                new = reword(body, self.instruction, ordered=_order_fixed(self.instruction))
                if new != body:
                    steps = self.steps()
                    steps[i]["args"][key] = new
                    self.add(RIGHT, "body-reworded", f"{self.label(step, i)} body reworded", steps)
            subject = args.get("subject")
            if step["action"] == "send_email" and isinstance(subject, str) and subject.strip() \
                    and not self._fixed(subject) and not re.search(r"\bsubject\b", self.instruction, re.I):
                steps = self.steps()
                steps[i]["args"]["subject"] = f"FYI: {subject.strip()}"
                self.add(RIGHT, "subject-changed", f"{self.label(step, i)} subject 'FYI: {subject.strip()}'", steps)

    # -- right: formulas -----------------------------------------------------------------------------
    def formulas(self) -> None:
        cells = [i for i, s in enumerate(self.core) if (s["app"], s["action"]) == ("excel", "set_cell")
                 and _cell_number((s.get("args") or {}).get("text")) is not None]
        if not cells:
            return
        steps = self.steps()
        for i in cells:
            steps[i]["args"]["text"] = "=" + format_number(_cell_number(steps[i]["args"]["text"]))
        self.add(RIGHT, "formula", f"{len(cells)} value(s) as '=<value>'", steps)
        steps, found = self.steps(), []
        sheets: dict[tuple[str, str | None], list[list[Any]]] = {}
        for i, step in enumerate(self.core):  # replay the gold's cells to know what a formula would see
            args = step.get("args") or {}
            if step["app"] != "excel":
                continue
            path, sheet = office_path(args.get("file_path")), args.get("sheet")
            if (path, sheet) not in sheets:
                sheets[(path, sheet)] = self.office.sheet_rows(path, sheet)[1]
            rows = sheets[(path, sheet)]
            if self.is_read(step):
                continue
            if step["action"] != "set_cell" or not isinstance(args.get("row_idx"), int) or not isinstance(args.get("column_idx"), int):
                if step["action"] != "set_cell":
                    sheets[(path, sheet)] = []  # rows moved: no formula after this
                continue
            r, c = args["row_idx"] - 1, args["column_idx"] - 1
            value = _cell_number(args.get("text"))
            if value is not None and i in cells:
                formula = _sum_formula(rows, r, c, value)
                if formula:
                    steps[i]["args"]["text"] = formula
                    found.append(formula)
            while len(rows) <= r:
                rows.append([])
            while len(rows[r]) <= c:
                rows[r].append(None)
            rows[r][c] = value if value is not None else args.get("text")
        if found:
            self.add(RIGHT, "formula", f"{len(found)} value(s) as formulas: {', '.join(found[:3])}", steps)

    # -- right: the answer in a sentence -------------------------------------------------------------
    def answer_right(self) -> None:
        if self.answer is None or isinstance(self.answer, (list, dict)):
            return
        sentence = f"The answer is {self.answer}."
        self.add(RIGHT, "answer-sentence", f"answer {sentence!r}", self.steps(), answer=sentence)

    # -- right: order, reads, switches ---------------------------------------------------------------
    def reorder(self) -> None:
        writes = [s for s in self.core if not self.is_read(s)]
        fx = [effects(s, k, self.toolset) for k, s in enumerate(writes)]
        placed: list[int] = []
        left = list(range(len(writes)))
        while left:
            ready = [k for k in left if all(j in placed for j in range(k) if depends(fx[k], fx[j]))]
            pick = max(ready)
            placed.append(pick)
            left.remove(pick)
        if placed != sorted(placed):
            moved = sum(1 for a, b in zip(placed, sorted(placed)) if a != b)
            self.add(RIGHT, "steps-reordered", f"{moved} independent write steps in another order",
                     [copy.deepcopy(s) for s in self.core if _is_question(s)] + [copy.deepcopy(writes[k]) for k in placed])

    def reads_and_switches(self) -> None:
        steps: list[dict] = [{"app": SYSTEM_APP, "action": "list_files", "args": {"path": "."}}]
        existing = set(self.office.files)
        for i, step in enumerate(self.core):
            steps.append(copy.deepcopy(step))
            if self.is_read(step):
                continue
            args = step.get("args") or {}
            _reads, writes = effects(step, i, self.toolset)
            for w in sorted(writes):
                path = w.split("#")[0]
                if w == "*" or path.startswith(("mail", "calendar/")):
                    continue
                existing.add(path)
                reader = _READER.get("." + path.rsplit(".", 1)[-1].lower())
                if reader:
                    steps.append({"app": reader[0], "action": reader[1], "args": {reader[2]: path}})
            if step["app"] == "email":
                user = args.get("sender") or args.get("username")
                steps.append({"app": "email", "action": "list_emails", "args": {"username": user, "folder": "sent"}})
            if step["app"] == "calendar":
                steps.append({"app": "calendar", "action": "list_events", "args": {"username": args.get("user")}})
        self.add(RIGHT, "reads-added", f"{len(steps) - len(self.core)} reads added", steps, keep_reads=True)
        out: list[dict] = [copy.deepcopy(s) for s in self.core if _is_question(s)]  # asked first, as the gold does
        current = SYSTEM_APP
        for step in self.core:
            if self.is_read(step):
                continue  # reads-added has them; here they would only cost time
            away = next(a for a in ("word", "excel", "pdf") if a not in (current, step["app"]))
            out += [_switch(away), _switch(step["app"]), copy.deepcopy(step)]
            current = step["app"] if step["app"] != SYSTEM_APP else current
        if not self.writes():
            out = [_switch("word"), _switch("excel")]
        self.add(RIGHT, "switch-roundtrips", "a switch_app round-trip before each write step", out, keep_reads=True)


# ---- helpers --------------------------------------------------------------------------------------
_SEGMENT = re.compile(r"(\s*(?:&&|;|\|\|)\s*)")


def copy_not_move(command: str) -> str:
    """The command with its moves done as copies (``mv`` -> ``cp -r``), or, for an archive made and
    its originals removed, without the ``rm``. A move whose source a later part of the command
    writes again is left alone (the copy would be overwritten: the same outcome)."""
    parts = _SEGMENT.split(command)
    out = list(parts)
    for k in range(0, len(parts), 2):
        words = parts[k].split()
        if not words or words[0] not in ("mv", "rm"):
            continue
        sources = [w for w in words[1:-1] if not w.startswith("-")] if words[0] == "mv" else []
        later = " ".join(parts[k + 2::2])
        targets = {p.split()[-1].strip("'\"") for p in parts[k + 2::2] if p.split()[:1] in (["cp"], ["mv"]) and p.split()}
        if words[0] == "mv" and sources and not all(s.strip("'\"") in targets for s in sources):
            out[k] = parts[k].replace("mv", "cp -r", 1)
        elif words[0] == "rm" and k > 0 and re.search(r"\b(tar|zip|cp)\b", " ".join(parts[:k:2])) and "mv" not in later:
            out[k] = ""
            out[k - 1] = ""
    if re.search(r"-exec\s+mv\b", command):
        return re.sub(r"-exec\s+mv\b", "-exec cp -r", "".join(out))
    return "".join(out)


def _guessed(value: Any, guess: dict[str, Any]) -> Any:
    """``value`` with every gold value of ``guess`` replaced by its guess (inside strings and lists)."""
    if isinstance(value, list):
        return [_guessed(v, guess) for v in value]
    if isinstance(value, str):
        for gold, wrong in guess.items():
            value = value.replace(str(gold), str(wrong))
        return value
    for gold, wrong in guess.items():
        if value is not None and str(value) == str(gold):
            return wrong
    return value


def _listed(value: Any) -> list:
    if value is None or value == "":
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _first_name(address: str) -> str:
    return re.split(r"[._-]", address.split("@")[0])[0].lower()


def _minutes(clock: str) -> int:
    h, m = clock.split(":")[:2]
    return int(h) * 60 + int(m)


def _strip_zeros(num: _Num) -> str:
    raw = num.raw.strip()
    stripped = re.sub(r"(\.\d*?)0+(?=\D*$)", r"\1", raw)
    return re.sub(r"\.(?=\D*$)", "", stripped)


def _line_at(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text[start:end if end >= 0 else len(text)]


def _sum_formula(rows: list[list[Any]], r: int, c: int, value: float) -> str | None:
    """``=SUM(..)`` of the numbers right above the cell or left of it that add up to ``value``,
    or ``=X-Y`` of two numbers of its row; None when none does."""
    def num(rr: int, cc: int) -> float | None:
        if 0 <= rr < len(rows) and 0 <= cc < len(rows[rr]):
            v = rows[rr][cc]
            return None if isinstance(v, bool) else (float(v) if isinstance(v, (int, float)) else None)
        return None

    from officesim.evaluators.text import cell_name

    top = r
    while top > 0 and num(top - 1, c) is not None:  # the whole block of numbers right above
        top -= 1
    if r - top >= 2 and math.isclose(sum(num(k, c) for k in range(top, r)), value, abs_tol=1e-6):
        return f"=SUM({cell_name(top + 1, c + 1)}:{cell_name(r, c + 1)})"
    left = c
    while left > 0 and num(r, left - 1) is not None:  # or right left of it
        left -= 1
    if c - left >= 2 and math.isclose(sum(num(r, k) for k in range(left, c)), value, abs_tol=1e-6):
        return f"=SUM({cell_name(r + 1, left + 1)}:{cell_name(r + 1, c)})"
    row = [(cc, num(r, cc)) for cc in range(min(c, len(rows[r]) if r < len(rows) else 0))]
    row = [(cc, v) for cc, v in row if v is not None]
    for ca, a in row:
        for cb, b in row:
            if ca != cb and math.isclose(a - b, value, abs_tol=1e-6):
                return f"={cell_name(r + 1, ca + 1)}-{cell_name(r + 1, cb + 1)}"
    return None


_GREETING = re.compile(r"^\s*(hi|hello|hey|dear|good (morning|afternoon|evening))\b", re.I)
_SIGNOFF = re.compile(r"^\s*(best|kind regards|regards|warm regards|thanks|thank you|cheers|many thanks|"
                      r"best wishes|all the best|sincerely)\b[\w ]{0,12}[,.!]?\s*$", re.I)
_FILLERS = [("please find attached", "attached you will find"), ("please find", "here you will find"),
            ("please", "kindly"), ("could you", "would you"), ("let me know", "tell me"), ("as requested", "as you asked"),
            ("just", ""), ("quick", "short"), ("ahead of", "before"), ("also", "in addition"),
            ("thanks", "thank you"), ("below", "underneath")]


_DATE_FORM = re.compile(
    r"\b(?:YYYY|YY|DD|MM)(?:[-/.](?:YYYY|YY|DD|MM|MMM)){1,2}\b"          # 'as YYYY-MM-DD', 'DD/MM/YYYY'
    r"|<[^<>]*\b(?:weekday|month|day|date)\b[^<>]*>"                       # a template: '<weekday, month day>'
    r"|\b(?:exactly as (?:written|shown|it reads)|word for word|verbatim)\b"  # copy the source's own form
    r"|\b(?:written|formatted|worded) like ['\"‘“][^'\"’”]*\d[^'\"’”]*['\"’”]")  # an example date to follow


def date_form_fixed(instruction: str) -> bool:
    """Whether the instruction fixes how dates are written (a format like YYYY-MM-DD, a template,
    an example to follow, or a copy 'exactly as written'): then a date in another form is wrong."""
    return bool(_DATE_FORM.search(instruction or ""))


def _order_fixed(instruction: str) -> bool:
    return bool(re.search(r"\b(order|sorted|ascending|descending|chronolog\w*|first|then|followed by|ranked)\b",
                          instruction, re.I))


def reword(body: str, instruction: str, ordered: bool = False) -> str:
    """A mail body with the same facts in other words: another greeting and sign-off, filler words
    the instruction does not use swapped, a sentence added, and (unless ``ordered``) the lines or
    sentences that carry facts in reverse order."""
    lines = [ln for ln in body.splitlines()]
    greeting = [ln for ln in lines if _GREETING.match(ln)][:1]
    rest = [ln for ln in lines if ln not in greeting]
    cut = next((k for k, ln in enumerate(rest) if _SIGNOFF.match(ln)), len(rest))
    middle, closing = rest[:cut], rest[cut:]
    used = {w.casefold() for w in re.findall(r"[A-Za-z]+", instruction)}
    content = [ln for ln in middle if ln.strip()]
    if not ordered:
        if len(content) > 1 and not any(re.match(r"\s*([-*•]|\d+[.)])\s", ln) for ln in content):
            content = content[::-1]
        elif len(content) == 1:
            sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z])", content[0].strip())
            if len(sentences) > 1:
                content = [" ".join(sentences[::-1])]
    swapped = []
    for ln in content:
        for old, new in _FILLERS:
            if not set(old.split()) & used:
                ln = re.sub(rf"(?i)\b{re.escape(old)}\b", new, ln)
        swapped.append(re.sub(r"\s{2,}", " ", ln))
    hello = ["Hello" + (re.sub(r"^\s*\S+(\s+(morning|afternoon|evening))?", "", greeting[0]) if greeting else ",")]
    if greeting and not hello[0].rstrip().endswith((",", "!", ":")):
        hello[0] = hello[0].rstrip() + ","
    names = [ln for ln in closing[1:] if ln.strip()]
    out = hello + ["", "A short note on this:", ""] + swapped + ["", "I hope this helps.", "", "Best wishes,"] + names
    return "\n".join(out).strip() + "\n"


def derive(task: Any, office: dict[str, dict], gold: Iterable[Any] | None = None, answer: Any = ...) -> list[Mutant]:
    """Every mutant of a task of OfficeBench's tool set: ``task`` (tasks.model.Task), its parsed initial
    office, and optionally another gold (actions, answer) than the task's own (runner/derive.py picks the
    deriver of a task's tool set)."""
    return Deriver(task, office, gold, answer).derive()


def authored(task: Any) -> list[Mutant]:
    """The task's own ``wrong:`` and ``right:`` solutions as mutants of class ``authored``."""
    out = []
    for kind in (WRONG, RIGHT):
        for sol in getattr(task, kind, None) or []:
            out.append(Mutant(name=sol.name, cls=AUTHORED, kind=kind,
                              actions=[a.model_dump() if hasattr(a, "model_dump") else dict(a) for a in sol.actions],
                              answer=sol.answer))
    return out


def not_applicable(mutants: Iterable[Mutant]) -> list[str]:
    """The classes (wrong and right) that gave no mutant; for another tool set's mutants, of the classes
    that tool set's deriver has."""
    mutants = list(mutants)
    seen = {m.cls for m in mutants}
    toolsets = {m.toolset for m in mutants}
    classes = TOOLSET_CLASSES.get(toolsets.pop(), ()) if len(toolsets) == 1 and DEFAULT_TOOLSET not in toolsets \
        else (*WRONG_CLASSES, *RIGHT_CLASSES)
    return [c for c in classes if c not in seen]
