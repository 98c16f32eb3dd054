"""What the mutants of OfficeBench's tool set share: the ``Mutant``, the steps of a solution (reads, writes,
what they touch), numbers, dates and times as written, the office as a source of distractors, where the gold
writes values, and ``BaseDeriver``, the bookkeeping every part of the deriver uses."""

from __future__ import annotations

import copy
import difflib
import functools
import json
import math
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Callable, Iterable

from officesim.apps import apps_for
from officesim.apps.registry import DEFAULT_TOOLSET, SYSTEM_APP
from officesim.evaluators.facts import Mention, dates_in, numbers_in, phone_spans, times_in
from officesim.evaluators.text import as_number, collapse, document_text, format_number
from officesim.runner.mutants.registry import BY_NAME, RIGHT, WRONG


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


@functools.lru_cache(maxsize=8192)
def _numbers_of(text: str) -> tuple[tuple[float, str], ...]:
    """The standalone numbers of one file's text, read once per process: the tasks of a lived-in office
    share its thousand files, whose numbers would otherwise be read again for every task."""
    return tuple((round(m.value, 6), text[m.start:m.end]) for m in standalone_numbers(text))


def standalone_numbers(text: str) -> list[Mention]:
    """Numbers written on their own in digits in ``text`` (not parts of ids, codes, dates or times; a
    number in words, "three students", is prose the checks read closed-world only where a count is
    expected)."""
    out = []
    for m in numbers_in(text):
        raw = text[m.start:m.end]
        if not any(ch.isdigit() for ch in raw):
            continue
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
            for value, raw in _numbers_of(text):
                numbers.setdefault(value, raw)
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



class BaseDeriver:
    """What every part of the deriver shares: the gold's steps, the office, the value sites, ``add``."""

    def __init__(self, task: Any, office: dict[str, dict], gold: Iterable[Any] | None = None, answer: Any = ...):
        self.task = task
        self.toolset = getattr(task, "toolset", None) or DEFAULT_TOOLSET
        self.core, self.answer = core_steps(task.gold if gold is None else gold,
                                            task.answer if answer is ... else answer)
        self.office = _Office(task, office)
        self.year = task.now_dt.year if hasattr(task, "now_dt") else datetime.now().year
        self.instruction = str(getattr(task, "brief", None) or task.instruction or "")
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
        if (kind, cls) not in BY_NAME:
            return  # a class the registry does not list (yet) is not derived
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
                    phones = phone_spans(text)
                    names = self.named_spans(text)
                    for m in standalone_numbers(text):
                        if any(a <= m.start < b for a, b in phones):
                            continue  # a phone number's digit groups are an identifier, not amounts
                        if any(a <= m.start < b for a, b in names):
                            continue  # part of a name the checks look for: "Archive Box (10)" is a product
                        if not _year_like(m.value):  # a year in text names something (Q2 2026); dates are dates
                            sites.append(_Site(i, key, None, (m.start, m.end), text[m.start:m.end], m.value))
        return sites

    def named_spans(self, text: str) -> list[tuple[int, int]]:
        """Where ``text`` states a name with a number in it that the task's checks look for ("Archive Box
        (10)", "Paper A4 (5 reams)"): its numbers are part of the name, not figures to write otherwise."""
        if not hasattr(self, "_named"):
            found: set[str] = set()

            def walk(value: Any) -> None:
                if isinstance(value, str):
                    if re.search(r"[A-Za-z]", value) and re.search(r"\d", value) and " " in value.strip():
                        found.add(value.strip())
                elif isinstance(value, (list, tuple)):
                    for v in value:
                        walk(v)
                elif isinstance(value, dict):
                    for v in value.values():
                        walk(v)

            for check in getattr(self.task, "checks", None) or []:
                walk(getattr(check, "args", None) or {})
            self._named = sorted(found)
        low = text.casefold()
        spans = []
        for name in self._named:
            start = low.find(name.casefold())
            while start >= 0:
                spans.append((start, start + len(name)))
                start = low.find(name.casefold(), start + 1)
        return spans

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


