"""Mutants of a task in WorkBench's tool set (``toolset: workbench``), made of WorkBench's own tools.

The package's other modules derive mutants from OfficeBench's operations (files, shell, calendars by summary);
none of those exists in WorkBench's tool set, so its mutants of a WorkBench task would be refused and
change nothing. Here the same idea works on WorkBench's tables, read from the parsed initial office
(evaluators/workbench.py ``tables_from_state``):

- **wrong**: each write left out; an id a write names swapped for a similar row of the same table
  (the next meeting that day, another email from the same sender); a create or send done twice; an
  updated or created value changed (another status, list or board, a date a day off, an event an hour
  later or longer, another name or address); a similar row deleted with WorkBench's own delete tool,
  one per table; for a task whose answer is to do nothing, a write the instruction suggests;
- **right**: reads added (WorkBench's get and search tools), ``switch_app`` round-trips, text values
  WorkBench compares without case written in another case, an event's start without its seconds,
  independent writes in another order, and a write WorkBench refuses (a status in the wrong case, a
  name where an address goes, a delete repeated) beside the gold.

Every candidate is replayed on the initial tables (apps/workbench_core.py's ``MemoryStore``, the
tools' one implementation): a wrong mutant must reach an end state that is neither the gold's nor
one the task accepts (its ``workbench_state`` readings) nor an earlier wrong mutant's; a right one
must reach the gold's or an accepted one. Derivation is a pure function of the task and the office.
"""

from __future__ import annotations

import copy
import difflib
import json
import re
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any, Iterable, Iterator

from officesim.apps.registry import SYSTEM_APP
from officesim.apps.workbench_core import (BOARDS, LISTS, NOW, PLOT_TYPES, PLOT_VALUES, PRODUCTS, STATE_TABLES,
                                           STATUSES, TABLES, TOOLS, USER, MemoryStore, ToolError, call)
from officesim.evaluators.workbench import CASE_SENSITIVE, state_digest, tables_from_state
from officesim.runner.mutants.base import Mutant, core_steps, is_read, nudged, standalone_numbers, with_switches
from officesim.runner.mutants.registry import RIGHT, WRONG

TOOLSET = "workbench"
TIME = "%Y-%m-%d %H:%M:%S"
# app -> its table; table -> (app, delete action, id argument)
TABLE_OF = {"email": "emails", "calendar": "calendar", "customer_relationship_manager": "crm",
            "project_management": "tasks", "analytics": "plots"}
DELETE = {"emails": ("email", "delete_email", "email_id"), "calendar": ("calendar", "delete_event", "event_id"),
          "crm": ("customer_relationship_manager", "delete_customer", "customer_id"),
          "tasks": ("project_management", "delete_task", "task_id")}
ID_ARGS = {"email_id": "emails", "event_id": "calendar", "customer_id": "crm", "task_id": "tasks"}
CREATES = {("email", "send_email"), ("email", "forward_email"), ("email", "reply_email"), ("calendar", "create_event"),
           ("project_management", "create_task"), ("customer_relationship_manager", "add_customer")}
# fields whose rows are alike when they share them, and the field that dates a row
ALIKE = {"emails": ("sender/recipient", "inbox/outbox"), "calendar": ("participant_email", "event_name"),
         "crm": ("assigned_to_email", "status", "product_interest"), "tasks": ("assigned_to_email", "list_name", "board")}
WHEN = {"emails": "sent_datetime", "calendar": "event_start", "crm": "follow_up_by", "tasks": "due_date"}
CHOICES = {"status": STATUSES, "product_interest": PRODUCTS, "list_name": LISTS, "board": BOARDS,
           "value_to_plot": PLOT_VALUES, "plot_type": PLOT_TYPES}
NAMES = {"event_name": "calendar", "task_name": "tasks", "customer_name": "crm", "subject": "emails",
         "notes": "crm", "customer_phone": "crm", "customer_email": "crm"}
DATES = ("due_date", "last_contact_date", "follow_up_by", "time_min", "time_max")
TEXTS = ("event_name", "task_name", "customer_name", "subject", "body", "notes")  # compared without case
METRICS = [("average session duration", "session_duration_seconds"), ("session duration", "session_duration_seconds"),
           ("total visits", "total_visits"), ("engaged users", "user_engaged"), ("social media", "visits_social_media"),
           ("search engine", "visits_search_engine"), ("referral", "visits_referral"), ("direct", "visits_direct")]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]
Row = dict[str, Any]


def act(app: str, action: str, **args: Any) -> dict:
    """One action in the API's shape."""
    return {"app": app, "action": action, "args": args}


def _switch(app: str) -> dict:
    return act(SYSTEM_APP, "switch_app", target_app=app)


def _day(value: Any) -> str:
    return str(value or "")[:10]


def _moment(value: Any) -> datetime | None:
    """A WorkBench date or time as a moment (None for anything else)."""
    return _parsed(str(value or "").strip())


@lru_cache(maxsize=8192)
def _parsed(text: str) -> datetime | None:
    """The moment a text names, in the forms WorkBench's calendar file accepts (remembered: rows are
    compared many times)."""
    for fmt in (TIME, "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d"):
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


def _shift_day(value: str, days: int) -> str | None:
    """A date (or date and time) ``days`` later, written as it was."""
    moment = _moment(value)
    if moment is None:
        return None
    moved = moment + timedelta(days=days)
    return moved.strftime(TIME) if len(str(value).strip()) > 10 else moved.date().isoformat()


def _other_case(text: str) -> str:
    """The text in another case (lower, else upper), the same to WorkBench's comparison."""
    return text.lower() if text.lower() != text else text.upper()


def _next(pool: list[str], value: Any, avoid: Iterable[Any] = ()) -> str | None:
    """The pool's value after ``value`` (cyclic), skipping ``avoid``: another plausible choice."""
    banned = {str(a) for a in avoid if a is not None} | {str(value)}
    start = pool.index(value) + 1 if value in pool else 0
    for k in range(len(pool)):
        candidate = pool[(start + k) % len(pool)]
        if candidate not in banned:
            return candidate
    return None


# ---- the end state a list of calls reaches --------------------------------------------------------
class Replay:
    """WorkBench's tables of the initial office, and the end state (a digest per table, as the
    grade compares them) that a list of steps reaches from them. Only the tables the steps write are
    replayed; the others keep their initial digest."""

    def __init__(self, tables: dict[str, list[Row] | None]):
        self.tables = {name: list(rows or []) for name, rows in tables.items() if name != "plots"}
        self.tables["plots"] = []
        self.initial = {t: self._digest(t, self.tables.get(t, [])) for t in STATE_TABLES}

    def outcome(self, steps: Iterable[dict]) -> tuple[str | None, ...] | None:
        """One digest per table WorkBench's verdict compares; None when a step would fail outright (a
        tool or argument WorkBench does not have, an event time the calendar cannot hold)."""
        writes = []
        for step in steps:
            app, action = step.get("app"), step.get("action")
            if app == SYSTEM_APP or (f"{app}.{action}" in TOOLS and is_read(step, TOOLSET)):
                continue
            if f"{app}.{action}" not in TOOLS or app not in TABLE_OF:
                return None
            writes.append(step)
        touched = {TABLE_OF[s["app"]] for s in writes}
        store = MemoryStore({t: self.tables.get(t, []) for t in touched | {"plots"}})
        for step in writes:
            try:
                call(store, f"{step['app']}.{step['action']}", dict(step.get("args") or {}))
            except (ToolError, TypeError):
                return None
        return tuple(self._digest(t, store.rows(t)) if t in touched else self.initial[t] for t in STATE_TABLES)

    @staticmethod
    def _digest(table: str, rows: list[Row]) -> str | None:
        if table == "plots":  # a plot is a file: made twice, it is one
            rows = [{"file_path": p} for p in sorted({str(r.get("file_path")) for r in rows})]
        if table == "calendar":
            out = []
            for r in rows:
                start, minutes = _moment(r.get("event_start")), _minutes(r.get("duration"))
                if start is None or len(str(r.get("event_start")).strip()) <= 10 or minutes is None:
                    return None  # the calendar file cannot hold it: the store refuses the call
                out.append({**r, "event_start": start.strftime(TIME),
                            "duration": str(int(minutes)) if minutes == int(minutes) else str(minutes)})
            rows = out
        return state_digest(table, rows)


def _minutes(value: Any) -> float | None:
    try:
        minutes = float(str(value))
    except ValueError:
        return None
    return minutes if minutes > 0 else None


# ---- what the instruction mentions ----------------------------------------------------------------
class Mentions:
    """What the instruction names, in its order: people, customers, events, quoted texts, lists,
    statuses, products, boards, metrics, plot types, a day, a period's start and a meeting's length."""

    def __init__(self, instruction: str, tables: dict[str, list[Row] | None], user: str):
        text = instruction or ""
        low = text.lower()
        directory = [r["email_address"].lower() for r in tables.get("directory") or [] if r.get("email_address")]
        self.directory = [a for a in directory if a != user.lower()]
        self.people = _in_order(low, {a: [a, a.split("@")[0].split(".")[0]] for a in self.directory})
        customers = {str(r.get("customer_name")): [str(r.get("customer_name"))] for r in tables.get("crm") or []
                     if r.get("customer_name")}
        self.customers = _in_order(low, customers)
        events = {str(r.get("event_name")): [str(r.get("event_name"))] for r in tables.get("calendar") or []
                  if len(str(r.get("event_name") or "")) > 5}
        self.events = _in_order(low, events)
        self.quoted = [q for q in re.findall(r"'([^']{3,}?)'(?=[\s,.?!]|$)|\"([^\"]{3,})\"", text) for q in q if q]
        self.lists = _in_order(low, {v: [v] for v in LISTS})
        self.statuses = _in_order(low, {v: [v] for v in STATUSES})
        self.products = _in_order(low, {v: [v] for v in PRODUCTS})
        self.boards = _in_order(low.replace("-", " "), {v: [v] for v in BOARDS})
        found, taken = [], low
        for phrase, value in METRICS:
            if phrase in taken:
                found.append((low.find(phrase), value))
                taken = taken.replace(phrase, " ")
        self.metrics = list(dict.fromkeys(v for _pos, v in sorted(found)))
        self.plot_types = _in_order(low, {t: [t] for t in PLOT_TYPES})
        self.overdue = "overdue" in low
        self.since = _since(low)
        self.day = _day_named(low)
        self.minutes = _length(low)

    def person(self, k: int = 0) -> str | None:
        return self.people[k] if len(self.people) > k else None


def _in_order(low: str, names: dict[str, list[str]]) -> list[str]:
    """The keys whose words (any of them) the text names as whole words, in the order it names them."""
    found = []
    for key, words in names.items():
        spots = [m.start() for w in words if w for m in re.finditer(rf"(?<![\w.]){re.escape(w.lower())}(?!\w)", low)]
        if spots:
            found.append((min(spots), key))
    return [k for _pos, k in sorted(found)]


def _since(low: str) -> str:
    """The start of the period an instruction names (a weekday, a month and day, N weeks back), or a week ago."""
    today = NOW.date()
    m = re.search(r"\b(" + "|".join(MONTHS) + r")\s+(\d{1,2})\b", low)
    if m:
        return date(today.year, MONTHS.index(m.group(1)) + 1, int(m.group(2))).isoformat()
    m = re.search(r"\b(\d+)\s+weeks?\b", low)
    if m:
        return (today - timedelta(weeks=int(m.group(1)))).isoformat()
    for k, name in enumerate(WEEKDAYS):
        if name in low:
            back = (today.weekday() - k) % 7 or 7
            return (today - timedelta(days=back)).isoformat()
    return (today - timedelta(days=7)).isoformat()


def _day_named(low: str) -> str:
    """The day ahead an instruction names (tomorrow, a weekday, a month and day), or tomorrow."""
    today = NOW.date()
    m = re.search(r"\b(" + "|".join(MONTHS) + r")\s+(\d{1,2})\b", low)
    if m:
        return date(today.year, MONTHS.index(m.group(1)) + 1, int(m.group(2))).isoformat()
    for k, name in enumerate(WEEKDAYS):
        if re.search(rf"\b(?:on|for|next|this)\s+{name}", low):
            return (today + timedelta(days=(k - today.weekday()) % 7 or 7)).isoformat()
    return (today + timedelta(days=1)).isoformat()


def _length(low: str) -> str:
    """A meeting's length in minutes as the instruction gives it (half an hour, 1.5 hours), else 30."""
    m = re.search(r"(\d+(?:\.\d+)?)[- ]?(minute|min|hour)", low)
    if m:
        minutes = float(m.group(1)) * (60 if m.group(2) == "hour" else 1)
        return str(int(minutes)) if minutes == int(minutes) else str(minutes)
    if re.search(r"\bhalf(?: an)? hour", low):
        return "30"
    return "60" if re.search(r"\ban hour\b", low) else "30"


# ---- the deriver -----------------------------------------------------------------------------------
class WorkbenchDeriver:
    """Derives the mutants of one WorkBench-tool-set task (``derive`` is the entry point)."""

    def __init__(self, task: Any, office: dict[str, dict], gold: Iterable[Any] | None = None, answer: Any = ...):
        self.task = task
        self.user = str(getattr(task, "user", "") or "").lower()
        self.core, self.answer = core_steps(task.gold if gold is None else gold,
                                            getattr(task, "answer", None) if answer is ... else answer)
        self.instruction = str(getattr(task, "instruction", "") or "")
        self.tables = tables_from_state(office, self.user or USER)
        self.replay = Replay(self.tables)
        self.mentions = Mentions(self.instruction, self.tables, self.user)
        self.gold_outcome = self.replay.outcome(self.core)
        self.accepted = self._accepted(getattr(task, "checks", None) or [])
        self.chosen = {str(c.value).strip() for c in getattr(task, "choices", None) or [] if c.value is not None}
        self.chosen_events = {str(c.event).strip().lower() for c in getattr(task, "choices", None) or []
                              if c.event is not None}
        self.touched = self._touched()
        self.out: list[Mutant] = []
        self._wrong_seen: set[tuple] = set()
        self._right_seen: set[str] = set()

    # -- bookkeeping -------------------------------------------------------------------------------
    @staticmethod
    def _accepted(checks: list[Any]) -> dict[int, set[str]]:
        """Per table position in STATE_TABLES: the digests a ``workbench_state`` check accepts."""
        out: dict[int, set[str]] = {}
        for c in checks:
            name = getattr(c, "check", None) or (c.get("check") if isinstance(c, dict) else None)
            args = getattr(c, "args", None) or (c.get("args") if isinstance(c, dict) else {}) or {}
            if name == "workbench_state" and args.get("table") in STATE_TABLES:
                out.setdefault(STATE_TABLES.index(args["table"]), set()).update(args.get("accepted") or [])
        return out

    def _touched(self) -> dict[str, set[str]]:
        """The ids of each table the gold names (its rows are not distractors)."""
        out: dict[str, set[str]] = {t: set() for t in DELETE}
        for step in self.core:
            for key, value in (step.get("args") or {}).items():
                if key in ID_ARGS:
                    out[ID_ARGS[key]].add(str(value))
        return out

    def is_accepted(self, outcome: tuple | None) -> bool:
        """Whether an end state is the gold's, or one the task's ``workbench_state`` checks accept."""
        if outcome is None or self.gold_outcome is None:
            return False
        return all(mine == gold or (k in self.accepted and mine in self.accepted[k])
                   for k, (mine, gold) in enumerate(zip(outcome, self.gold_outcome)))

    def add(self, kind: str, cls: str, name: str, steps: list[dict], keep_reads: bool = False) -> bool:
        """Keep a mutant when its end state proves it what it claims; returns whether it was kept."""
        plays = [s for s in steps if keep_reads or s.get("app") == SYSTEM_APP or not is_read(s, TOOLSET)]
        outcome = self.replay.outcome(plays)
        if outcome is None:
            return False
        if kind == WRONG:
            if self.is_accepted(outcome) or outcome in self._wrong_seen:
                return False  # the gold's outcome, an accepted reading, or tested already
            self._wrong_seen.add(outcome)
        else:
            key = json.dumps(with_switches(plays), sort_keys=True, default=str)
            if not self.is_accepted(outcome) or key in self._right_seen:
                return False
            self._right_seen.add(key)
        self.out.append(Mutant(name=name, cls=cls, kind=kind, actions=with_switches(copy.deepcopy(plays)),
                               answer=self.answer, toolset=TOOLSET))
        return True

    def steps(self) -> list[dict]:
        return copy.deepcopy(self.core)

    def writes(self) -> list[int]:
        return [i for i, s in enumerate(self.core) if not is_read(s, TOOLSET)]

    @staticmethod
    def label(step: dict, index: int) -> str:
        return f"#{index + 1} {step['app']}.{step['action']}"

    def rows(self, table: str) -> list[Row]:
        return list(self.tables.get(table) or [])

    def row(self, table: str, key: Any) -> Row | None:
        id_col = TABLES[table][0]
        return next((r for r in self.rows(table) if r.get(id_col) == str(key)), None)

    def derive(self) -> list[Mutant]:
        if self.gold_outcome is None:
            return []  # the gold itself cannot be replayed: nothing is provable about its mutants
        for part in (self.dropped_and_doubled, self.ids_replaced, self.values_changed, self.updates_beside,
                     self.distractor_deletes, self.writes_added, self.reads_and_switches, self.cases_changed,
                     self.starts_reformatted, self.reordered, self.refused_writes):
            part()
        return self.out

    # -- similar rows ------------------------------------------------------------------------------
    def similar(self, table: str, like: Iterable[Row]) -> list[Row]:
        """The table's rows the gold leaves alone, most like the ``like`` rows first (sharing a person, a
        status, a day), then nearest in time; without ``like`` rows, nearest to now."""
        refs = [r for r in like if r]
        id_col, when = TABLES[table][0], WHEN[table]
        skip = self.touched.get(table, set())
        pool = [r for r in self.rows(table) if str(r.get(id_col)) not in skip]

        def score(row: Row) -> tuple:
            best = (0, float("inf"))
            for ref in refs or [{when: NOW.strftime(TIME)}]:
                same = sum(2 if f == ALIKE[table][0] else 1 for f in ALIKE[table]
                           if ref.get(f) is not None and str(ref.get(f)).lower() == str(row.get(f) or "").lower())
                same += 2 if ref.get(when) and _day(ref.get(when)) == _day(row.get(when)) else 0
                a, b = _moment(ref.get(when)), _moment(row.get(when))
                gap = abs((a - b).total_seconds()) if a and b else float("inf")
                best = max(best, (same, -gap), key=lambda x: (x[0], x[1]))
            return (-best[0], -best[1], str(row.get(id_col)))

        return sorted(pool, key=score)

    def gold_rows(self, table: str) -> list[Row]:
        """Rows of the table the gold names by id, or, for rows it creates, their values."""
        out = [self.row(table, key) for key in sorted(self.touched.get(table, set()))]
        for step in self.core:
            if TABLE_OF.get(step["app"]) == table and (step["app"], step["action"]) in CREATES:
                args = step.get("args") or {}
                out.append({"participant_email": args.get("participant_email"), "event_start": args.get("event_start"),
                            "assigned_to_email": args.get("assigned_to_email"), "status": args.get("status"),
                            "list_name": args.get("list_name"), "board": args.get("board"),
                            "due_date": args.get("due_date"), "sender/recipient": args.get("recipient")})
        return [r for r in out if r]

    def mentioned_rows(self, table: str) -> list[Row]:
        """Rows (or pseudo-rows) of what the instruction names: its people, day, events and customers."""
        m = self.mentions
        rows: list[Row] = [{"participant_email": p, "sender/recipient": p, "assigned_to_email": p} for p in m.people[:1]]
        if table == "calendar":
            names = {e.lower() for e in m.events}
            rows += [r for r in self.rows("calendar") if str(r.get("event_name")).lower() in names][:3]
            rows.append({"event_start": f"{m.day} 09:00:00"})
        if table == "crm":
            rows += self.customers_meant()[:3]
        return rows

    def customers_meant(self) -> list[Row]:
        """The customers the instruction is about: those it names, else those of the status and product
        it names (a proposal for consulting), else its person's."""
        m = self.mentions
        named = [r for c in m.customers for r in self.rows("crm") if r.get("customer_name") == c]
        if named:
            return named
        if m.statuses:
            rows = [r for r in self.rows("crm") if r.get("status") == m.statuses[0]
                    and (not m.products or r.get("product_interest") in m.products)]
            if rows:
                return sorted(rows, key=lambda r: str(r.get("last_contact_date")))
        person = m.person()
        return [r for r in self.rows("crm") if person and str(r.get("assigned_to_email")).lower() == person]

    # -- wrong: steps dropped and doubled ------------------------------------------------------------
    def dropped_and_doubled(self) -> None:
        for i in self.writes():
            step = self.core[i]
            steps = self.steps()
            del steps[i]
            self.add(WRONG, "step-dropped", f"{self.label(step, i)} left out", steps)
            if (step["app"], step["action"]) in CREATES:
                steps = self.steps()
                steps.insert(i + 1, copy.deepcopy(step))
                self.add(WRONG, "create-twice", f"{self.label(step, i)} done twice", steps)

    # -- wrong: another row's id -----------------------------------------------------------------------
    def ids_replaced(self) -> None:
        """Each id a write names swapped for the most similar row the gold leaves alone (two for the
        first such write), up to four in all."""
        made = 0
        for i in self.writes():
            step = self.core[i]
            key = next((k for k in (step.get("args") or {}) if k in ID_ARGS), None)
            if key is None or made >= 4:
                continue
            table, old = ID_ARGS[key], str(step["args"][key])
            original = self.row(table, old)
            if original is None:
                continue
            want = 2 if made == 0 else 1
            for other in self.similar(table, [original])[:12]:
                new = str(other[TABLES[table][0]])
                steps = self.steps()
                steps[i]["args"][key] = new
                if self.add(WRONG, "id-replaced", f"{self.label(step, i)} {key} {old} -> {new}", steps):
                    made += 1
                    want -= 1
                if want <= 0 or made >= 4:
                    break

    # -- wrong: values changed -------------------------------------------------------------------------
    def values_changed(self) -> None:
        for i in self.writes():
            step = self.core[i]
            args = step.get("args") or {}
            if step["action"] in ("update_event", "update_customer", "update_task"):
                self._update_changed(i, step, args)
                continue
            for key, value in args.items():
                if value is None or str(value).strip() in self.chosen:
                    continue
                for cls, new, what in self._changes(step, key, value, {}):
                    self._try(cls, f"{self.label(step, i)} {key} {what}", i, key, new)
            if step["action"] == "reply_email":
                self._reply_elsewhere(i, step)

    def _update_changed(self, i: int, step: dict, args: dict) -> None:
        """An update's new value changed to another plausible value of its field."""
        field, value = args.get("field"), args.get("new_value")
        table = TABLE_OF[step["app"]]
        id_key = next((k for k in args if k in ID_ARGS), None)
        row = self.row(table, args.get(id_key)) if id_key else None
        if value is None or str(value).strip() in self.chosen:
            return
        for cls, new, what in self._changes(step, str(field), value, row or {}):
            self._try(cls, f"{self.label(step, i)} {field} {what}", i, "new_value", new)

    def _try(self, cls: str, name: str, i: int, key: str, candidates: Any) -> None:
        """The first of the candidate values for argument ``key`` of step i that makes a new wrong outcome."""
        for new in candidates if isinstance(candidates, list) else [candidates]:
            if new is None:
                continue
            steps = self.steps()
            steps[i]["args"][key] = new
            if self.add(WRONG, cls, name.replace("{new}", str(new)), steps):
                return

    def _changes(self, step: dict, field: str, value: Any, row: Row) -> Iterator[tuple[str, Any, str]]:
        """(class, candidate values, what) for one written value: WorkBench's choices, dates, times,
        durations, names and addresses each changed their own way."""
        text = str(value)
        old = row.get(field)
        if field in CHOICES:
            pool = CHOICES[field]
            yield "field-value-changed", [_next(pool, text, [old]), _next(pool, _next(pool, text, [old]), [old, text])], \
                f"{text!r} -> {{new}}"
        elif field in DATES:
            yield "number-changed", [_shift_day(text, 1), _shift_day(text, -1)], f"{text} -> {{new}}"
        elif field == "event_start":
            name = (step.get("args") or {}).get("event_name") or row.get("event_name")
            if str(name or "").strip().lower() in self.chosen_events:
                return
            yield "number-changed", [_shift_day(text, 1), _shift_day(text, -1)], f"{text} -> {{new}}"
            moment = _moment(text)
            if moment:
                yield "event-start-shifted", (moment + timedelta(hours=1)).strftime(TIME), f"{text} -> {{new}}"
        elif field == "duration":
            minutes = _minutes(text)
            if minutes:
                longer = minutes + 30
                yield "event-end-shifted", str(int(longer)) if longer == int(longer) else str(longer), \
                    f"{text} -> {{new}} minutes"
        elif field in ("participant_email", "assigned_to_email", "recipient"):
            yield "recipient-replaced", self._addresses(step, field, text, old), f"{text} -> {{new}}"
        elif field in NAMES and not (field == "subject" and text.lower() not in self.instruction.lower()):
            yield "field-value-changed", self._names(NAMES[field], field, text, old), f"{text!r} -> {{new}}"
        elif field == "body":
            for m in standalone_numbers(text)[:1]:
                raw = text[m.start:m.end]
                new = nudged(m.value)
                shown = str(int(new)) if float(new).is_integer() else str(new)
                yield "number-changed", text[:m.start] + shown + text[m.end:], f"{raw.strip()} -> {shown}"

    def _addresses(self, step: dict, field: str, value: str, old: Any) -> list[str]:
        """Other people for an address: those the instruction names first, then the rest in order
        (for a project task, only WorkBench's valid assignees; for a customer, the sales team)."""
        if step["app"] == "project_management":
            pool = sorted({str(r.get("assigned_to_email")).lower() for r in self.rows("tasks") if r.get("assigned_to_email")})
        elif step["app"] == "customer_relationship_manager":
            pool = sorted({str(r.get("assigned_to_email")).lower() for r in self.rows("crm") if r.get("assigned_to_email")})
        else:
            pool = list(self.mentions.directory)
        banned = {value.lower(), str(old or "").lower(), self.user}
        named = [a for a in self.mentions.people if a in pool and a not in banned]
        after = [a for a in (_next(pool, value.lower(), banned),) if a]
        return list(dict.fromkeys(named + after + [a for a in pool if a not in banned]))[:6]

    def _names(self, table: str, field: str, value: str, old: Any) -> list[str]:
        """Other values of the column (the most alike first): another event's, task's, customer's name."""
        pool = {str(r.get(field)) for r in self.rows(table) if r.get(field)}
        pool = [p for p in pool if p.lower() not in (value.lower(), str(old or "").lower())]
        return sorted(pool, key=lambda p: (-difflib.SequenceMatcher(None, p.lower(), value.lower()).ratio(), p))[:4]

    def _reply_elsewhere(self, i: int, step: dict) -> None:
        """A reply sent to someone else: the same subject and body to another address."""
        original = self.row("emails", (step.get("args") or {}).get("email_id"))
        if not original:
            return
        to = str(original.get("sender/recipient") or "").lower()
        for other in self._addresses(step, "recipient", to, None)[:3]:
            steps = self.steps()
            steps[i] = act("email", "send_email", recipient=other, subject=original.get("subject"),
                           body=(step.get("args") or {}).get("body"))
            if self.add(WRONG, "recipient-replaced", f"{self.label(step, i)} sent to {other} instead of {to}", steps):
                return

    # -- wrong: an update done as a new row ----------------------------------------------------------
    def updates_beside(self) -> None:
        """An event update made as a new event beside the old one."""
        for i in self.writes():
            step = self.core[i]
            args = step.get("args") or {}
            if step["action"] != "update_event":
                continue
            row = self.row("calendar", args.get("event_id"))
            if row is None or args.get("field") not in TABLES["calendar"][1][1:]:
                continue
            new = {k: row.get(k) for k in ("event_name", "participant_email", "event_start", "duration")}
            new[str(args["field"])] = args.get("new_value")
            steps = self.steps()
            steps[i] = act("calendar", "create_event", **new)
            self.add(WRONG, "event-beside-update", f"{self.label(step, i)} as a new event beside {args.get('event_id')}", steps)

    # -- wrong: a distractor row deleted ------------------------------------------------------------
    def distractor_deletes(self) -> None:
        """One similar row deleted per table with WorkBench's own delete tool (two in a table the gold
        changes): the most alike row the gold leaves alone."""
        changed = {TABLE_OF.get(self.core[i]["app"]) for i in self.writes()}
        for table, (app, action, key) in DELETE.items():
            like = self.gold_rows(table) or self.mentioned_rows(table)
            want = 2 if table in changed or (not changed and like) else 1
            for row in self.similar(table, like)[:8]:
                rid = str(row[TABLES[table][0]])
                what = row.get("subject") or row.get("event_name") or row.get("customer_name") or row.get("task_name")
                steps = self.steps() + [act(app, action, **{key: rid})]
                if self.add(WRONG, "distractor-deleted", f"+ {app}.{action} {rid} ({what})", steps):
                    want -= 1
                if want <= 0:
                    break

    # -- wrong: a write where nothing is to be done --------------------------------------------------
    def writes_added(self) -> None:
        """For a task whose gold changes nothing: the writes its instruction would ask for if its
        condition held (a plot, a task moved or made, a meeting, a mail, a customer changed)."""
        if self.gold_outcome != self.replay.outcome([]):
            return
        apps = list(getattr(self.task, "apps", None) or [])
        for app in apps:
            for name, step in self._suggested(app):
                self.add(WRONG, "write-added", f"+ {name}", self.steps() + step)

    def _suggested(self, app: str) -> Iterator[tuple[str, list[dict]]]:
        """Writes of one app the instruction would ask for if its condition held, most plausible first."""
        parts = {"analytics": self._plots, "calendar": self._meetings, "email": self._mails,
                 "project_management": self._tasks, "customer_relationship_manager": self._customers}
        if app in parts:
            yield from parts[app]()

    def _plots(self) -> Iterator[tuple[str, list[dict]]]:
        m = self.mentions
        kinds = m.plot_types or ["line"]
        metrics = m.metrics or ["total_visits"]

        def plot(value: str, kind: str, end: str = "2023-11-29") -> dict:
            return act("analytics", "create_plot", time_min=m.since, time_max=end, value_to_plot=value, plot_type=kind)

        for value in metrics[:2]:
            yield f"a {kinds[0]} plot of {value} since {m.since}", [plot(value, kinds[0])]
        if len(metrics) > 1:
            yield "plots of both", [plot(v, kinds[0]) for v in metrics[:2]]
        other = _next(PLOT_TYPES, kinds[0])
        yield f"a {other} plot of {metrics[0]}", [plot(metrics[0], str(other))]
        yield f"a {kinds[0]} plot of {metrics[0]} up to today", [plot(metrics[0], kinds[0], "2023-11-30")]

    def _meetings(self) -> Iterator[tuple[str, list[dict]]]:
        m = self.mentions
        future = [r for r in self.rows("calendar") if str(r.get("event_start")) >= NOW.strftime(TIME)]
        future.sort(key=lambda r: str(r.get("event_start")))
        names = {e.lower() for e in m.events}
        person = m.person()
        for what, rows in ((f"events named {', '.join(m.events[:2])}", [r for r in future if str(r.get("event_name")).lower() in names]),
                           (f"events with {person}", [r for r in future if person and r.get("participant_email") == person]),
                           (f"events on {m.day}", [r for r in future if _day(r.get("event_start")) == m.day])):
            if rows:
                yield f"the first of the {what} deleted", [act("calendar", "delete_event", event_id=rows[0]["event_id"])]
                if len(rows) > 1:
                    yield f"{min(len(rows), 5)} {what} deleted", [act("calendar", "delete_event", event_id=r["event_id"])
                                                                   for r in rows[:5]]
        who = person or self._owner_of_customer() or (m.directory[0] if m.directory else None)
        if who:
            name = m.quoted[0] if m.quoted else f"Catch up with {who.split('.')[0]}"
            yield f"a meeting {name!r} with {who}", [act("calendar", "create_event", event_name=name, participant_email=who,
                                                         event_start=f"{m.day} 09:00:00", duration=m.minutes)]

    def _owner_of_customer(self) -> str | None:
        rows = [r for c in self.mentions.customers for r in self.rows("crm") if r.get("customer_name") == c]
        return str(rows[0]["assigned_to_email"]).lower() if rows and rows[0].get("assigned_to_email") else None

    def _mails(self) -> Iterator[tuple[str, list[dict]]]:
        m = self.mentions
        who = m.person() or self._owner_of_customer() or (m.directory[0] if m.directory else None)
        if not who:
            return
        subject = m.quoted[0] if m.quoted else "Catch up soon?"
        body = m.quoted[1] if len(m.quoted) > 1 else "Following up on this."
        yield f"a mail to {who}", [act("email", "send_email", recipient=who, subject=subject, body=body)]
        inbox = sorted((r for r in self.rows("emails") if str(r.get("sender/recipient")).lower() == who
                        and r.get("inbox/outbox") == "inbox"), key=lambda r: str(r.get("sent_datetime")), reverse=True)
        if inbox:
            yield f"a reply to {inbox[0]['email_id']}", [act("email", "reply_email", email_id=inbox[0]["email_id"], body=body)]
            yield f"{who}'s last email deleted", [act("email", "delete_email", email_id=inbox[0]["email_id"])]
            if len(inbox) > 1:
                yield f"{who}'s last {min(len(inbox), 3)} emails deleted", [
                    act("email", "delete_email", email_id=r["email_id"]) for r in inbox[:3]]

    def _tasks(self) -> Iterator[tuple[str, list[dict]]]:
        m = self.mentions
        person = m.person()
        assignees = sorted({str(r.get("assigned_to_email")).lower() for r in self.rows("tasks") if r.get("assigned_to_email")})
        mine = [r for r in self.rows("tasks") if person and str(r.get("assigned_to_email")).lower() == person]
        if m.overdue:
            mine = [r for r in mine if str(r.get("due_date")) < NOW.date().isoformat()] or mine
        source = [r for r in mine if m.lists and r.get("list_name") == m.lists[0]] or mine
        target = m.lists[-1] if len(m.lists) > 1 else _next(LISTS, m.lists[0] if m.lists else "Backlog")
        moved = [r for r in source if r.get("list_name") != target]
        if moved:
            yield f"task {moved[0]['task_id']} moved to {target}", [
                act("project_management", "update_task", task_id=moved[0]["task_id"], field="list_name", new_value=target)]
            yield f"{len(moved[:6])} tasks moved to {target}", [
                act("project_management", "update_task", task_id=r["task_id"], field="list_name", new_value=target)
                for r in moved[:6]]
        heir = m.person(1) if m.person(1) in assignees else _next(assignees, person or "")
        if source and heir:
            yield f"task {source[0]['task_id']} given to {heir}", [
                act("project_management", "update_task", task_id=source[0]["task_id"], field="assigned_to_email",
                    new_value=heir)]
            yield f"{len(source[:6])} tasks given to {heir}", [
                act("project_management", "update_task", task_id=r["task_id"], field="assigned_to_email", new_value=heir)
                for r in source[:6]]
        assignee = next((p for p in m.people if p in assignees), assignees[0] if assignees else None)
        if assignee:
            name = m.quoted[0] if m.quoted else "Follow up"
            yield f"a task {name!r} for {assignee}", [act("project_management", "create_task", task_name=name,
                                                          assigned_to_email=assignee, list_name=(m.lists or ["Backlog"])[0],
                                                          due_date="2023-12-08", board=(m.boards or ["Front end"])[0])]

    def _customers(self) -> Iterator[tuple[str, list[dict]]]:
        m = self.mentions
        rows = self.customers_meant()
        if not rows:
            return
        first = rows[0]
        status = m.statuses[-1] if m.statuses and m.statuses[-1] != first.get("status") else _next(STATUSES, first.get("status"))
        app = "customer_relationship_manager"
        yield f"customer {first['customer_id']} set to {status}", [
            act(app, "update_customer", customer_id=first["customer_id"], field="status", new_value=status)]
        changed = [r for r in rows[:6] if r.get("status") != status]
        if len(changed) > 1:
            yield f"{len(changed)} customers set to {status}", [
                act(app, "update_customer", customer_id=r["customer_id"], field="status", new_value=status) for r in changed]
        person = m.person()
        if person and str(first.get("assigned_to_email")).lower() != person:
            yield f"customer {first['customer_id']} given to {person}", [
                act(app, "update_customer", customer_id=first["customer_id"], field="assigned_to_email", new_value=person)]
        yield f"customer {first['customer_id']} deleted", [act(app, "delete_customer", customer_id=first["customer_id"])]

    # -- right: reads and switches ---------------------------------------------------------------------
    def _reads_for(self, step: dict) -> list[dict]:
        """WorkBench reads an agent would make before a write: the row it names, the day, the person."""
        app, args = step["app"], step.get("args") or {}
        out = []
        if args.get("event_id"):
            out.append(act("calendar", "get_event_information_by_id", event_id=args["event_id"], field="event_name"))
        if args.get("email_id"):
            out.append(act("email", "get_email_information_by_id", email_id=args["email_id"], field="subject"))
        if args.get("task_id"):
            out.append(act("project_management", "get_task_information_by_id", task_id=args["task_id"],
                           field=args.get("field") if args.get("field") in TABLES["tasks"][1] else "task_name"))
        if args.get("customer_id"):
            row = self.row("crm", args["customer_id"])
            if row and row.get("customer_name"):
                out.append(act("customer_relationship_manager", "search_customers", customer_name=row["customer_name"]))
        if step["action"] == "create_event" and _moment(args.get("event_start")):
            day = _day(args["event_start"])
            out.append(act("calendar", "search_events", time_min=f"{day} 00:00:00", time_max=f"{day} 23:59:59"))
        if step["action"] == "create_task" and args.get("assigned_to_email"):
            out.append(act("project_management", "search_tasks", assigned_to_email=args["assigned_to_email"]))
        if step["action"] == "add_customer" and args.get("customer_name"):
            out.append(act("customer_relationship_manager", "search_customers", customer_name=args["customer_name"]))
        if step["action"] == "create_plot" and args.get("time_min"):
            out.append(act("analytics", "total_visits_count", time_min=args["time_min"], time_max=args.get("time_max")))
        address = args.get("recipient") or args.get("participant_email") or args.get("assigned_to_email")
        if isinstance(address, str) and "@" in address:
            first = address.split("@")[0].split(".")[0]
            out.append(act("company_directory", "find_email_address", name=first))
        return out

    def _instruction_reads(self) -> list[dict]:
        """Reads of what the instruction names, for a task that writes nothing."""
        apps = set(getattr(self.task, "apps", None) or [])
        person = self.mentions.person()
        first = person.split("@")[0].split(".")[0] if person else None
        out = [act("company_directory", "find_email_address", name=first)] if first else []
        if "email" in apps:
            out.append(act("email", "search_emails", query=first or "update"))
        if "calendar" in apps:
            out.append(act("calendar", "search_events", query=first or "", time_min=NOW.strftime(TIME)))
        if "analytics" in apps:
            out.append(act("analytics", "engaged_users_count", time_min=self.mentions.since, time_max="2023-11-29"))
            out.append(act("analytics", "total_visits_count", time_min=self.mentions.since, time_max="2023-11-29"))
        if "customer_relationship_manager" in apps:
            name = self.mentions.customers[0] if self.mentions.customers else None
            out.append(act("customer_relationship_manager", "search_customers",
                           **({"customer_name": name} if name else {"assigned_to_email": person or "@atlas.com"})))
        if "project_management" in apps:
            out.append(act("project_management", "search_tasks",
                           **({"assigned_to_email": person} if person else {"list_name": "Backlog"})))
        return out

    def reads_and_switches(self) -> None:
        steps: list[dict] = []
        for i, step in enumerate(self.core):
            if not is_read(step, TOOLSET):
                steps += self._reads_for(step)
            steps.append(copy.deepcopy(step))
        if not self.writes():
            steps = self._instruction_reads() + steps
        if len(steps) > len(self.core):
            self.add(RIGHT, "reads-added", f"{len(steps) - len(self.core)} reads added", steps, keep_reads=True)
        apps = [a for a in TABLE_OF if a not in ("analytics",)] + ["analytics"]
        out: list[dict] = []
        for step in self.core:
            if is_read(step, TOOLSET):
                continue
            away = next(a for a in apps if a != step["app"])
            out += [_switch(away), _switch(step["app"]), copy.deepcopy(step)]
        if not self.writes():
            own = list(getattr(self.task, "apps", None) or []) or ["email"]
            out = [_switch(own[0]), _switch(next(a for a in apps if a != own[0])), _switch(own[0])]
        self.add(RIGHT, "switch-roundtrips", "a switch_app round-trip before each write step", out, keep_reads=True)

    # -- right: values WorkBench compares without case ------------------------------------------------
    def cases_changed(self) -> None:
        steps, changed = self.steps(), []
        for i in self.writes():
            args = steps[i].get("args") or {}
            keys = [k for k in TEXTS if isinstance(args.get(k), str) and args[k].strip()]
            if args.get("field") in TEXTS and isinstance(args.get("new_value"), str):
                keys.append("new_value")
            for key in keys:
                if key in CASE_SENSITIVE or str(args[key]).strip() in self.chosen:
                    continue
                args[key] = _other_case(args[key])
                changed.append(f"{key} {args[key][:30]!r}")
        if changed:
            self.add(RIGHT, "case-changed", "in another case: " + ", ".join(changed[:3]), steps)

    # -- right: an event's start without its seconds -------------------------------------------------
    def starts_reformatted(self) -> None:
        steps, changed = self.steps(), []
        for i in self.writes():
            args = steps[i].get("args") or {}
            key = "event_start" if "event_start" in args else ("new_value" if args.get("field") == "event_start" else None)
            moment = _moment(args.get(key)) if key else None
            if moment and re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}", str(args[key]).strip()):
                args[key] = moment.strftime("%Y-%m-%d %H:%M")
                changed.append(args[key])
        if changed:
            self.add(RIGHT, "date-reformatted", "event start without seconds: " + ", ".join(changed[:3]), steps)

    # -- right: independent writes in another order ----------------------------------------------------
    def reordered(self) -> None:
        writes = [copy.deepcopy(self.core[i]) for i in self.writes()]
        if len(writes) > 1:
            self.add(RIGHT, "steps-reordered", f"{len(writes)} write steps in reverse order", writes[::-1])

    # -- right: a write WorkBench refuses, beside the gold -----------------------------------------------
    def refused_writes(self) -> None:
        """The slips an agent makes and WorkBench refuses, changing nothing: a status or list in the
        wrong case, a name where an address goes, an id without its leading zeros, a delete repeated."""
        writes = self.writes()
        if writes:
            step, at = self.core[writes[0]], writes[0]
        else:  # nothing to do: a slip on a write the instruction suggests
            step, at = next((s for _name, steps in self._all_suggested() for s in steps), None), len(self.core)
        slip = self._slip(step) if step else None
        if slip:
            steps = self.steps()
            steps.insert(at, slip[1])
            self.add(RIGHT, "refused-write-added", f"+ {slip[0]} (refused)", steps)
        for i in self.writes():
            step = self.core[i]
            if step["action"] in ("delete_event", "delete_email", "delete_customer", "delete_task"):
                steps = self.steps()
                steps.insert(i + 1, copy.deepcopy(step))
                self.add(RIGHT, "refused-write-added", f"{self.label(step, i)} repeated (the row is gone)", steps)
                break

    def _all_suggested(self) -> Iterator[tuple[str, list[dict]]]:
        for app in getattr(self.task, "apps", None) or []:
            yield from self._suggested(app)

    @staticmethod
    def _slip(step: dict) -> tuple[str, dict] | None:
        """The step as an agent's slip that WorkBench refuses: (what, the refused step)."""
        args = dict(step.get("args") or {})
        action = step["action"]
        slip = copy.deepcopy(step)
        slip["args"] = args
        if args.get("field") in ("status", "list_name", "board", "product_interest") and isinstance(args.get("new_value"), str):
            args["new_value"] = args["new_value"].lower()
            return f"{args['field']} {args['new_value']!r}", slip
        for key in ("recipient", "assigned_to_email"):
            if isinstance(args.get(key), str) and "@" in args[key] and action in ("send_email", "forward_email", "create_task"):
                args[key] = args[key].split("@")[0].split(".")[0].title()
                return f"{key} {args[key]!r}", slip
        if action == "create_plot" and isinstance(args.get("value_to_plot"), str):
            args["value_to_plot"] = args["value_to_plot"].replace("_", " ")
            return f"value_to_plot {args['value_to_plot']!r}", slip
        if action == "create_event":
            args.pop("duration", None)
            return "an event without a duration", slip
        if action == "add_customer":
            args.pop("status", None)
            return "a customer without a status", slip
        key = next((k for k in args if k in ID_ARGS), None)
        if key and str(args[key]).lstrip("0") and str(args[key]) != str(args[key]).lstrip("0"):
            args[key] = str(args[key]).lstrip("0")
            return f"{key} {args[key]!r} without its leading zeros", slip
        return None


def derive(task: Any, office: dict[str, dict], gold: Iterable[Any] | None = None, answer: Any = ...) -> list[Mutant]:
    """Every mutant of a WorkBench-tool-set task: ``task`` (tasks.model.Task), its parsed initial office,
    and optionally another gold (actions, answer) than the task's own."""
    return WorkbenchDeriver(task, office, gold, answer).derive()
