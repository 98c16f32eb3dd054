"""Evaluate a finished session: checks over the final office, and side effects against the gold run.

The office *before* (parsed from the task's template) and the office *after the gold solution*
(replayed in-process through a ``Session`` on a fresh office, ``all_operations`` mode) depend only on
the task, so each is computed once per task and cached; concurrent sessions of the same task wait
for one computation instead of repeating it. Only the agent's own office is parsed per evaluation.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

import json
import posixpath
import re

from officesim.apps.asking import ask_counts, asked_questions, person_names, unasked
from officesim.evaluators.facts import own_text
from officesim.evaluators.record import EpisodeRecord
from officesim.server.session import Session
from officesim.tasks.gold import gold_actions, play_gold
from officesim.tasks.model import Task



TEXT_CHECKS = ("contains", "not_contains")  # checks that read a file's text, an image's by OCR


def with_image_text(files: dict[str, dict], checks: list[Any], root: Path) -> dict[str, dict]:
    """The parsed office with the OCR text of every image a text check names (``contains`` on a
    posted picture): only those, since tesseract costs a second a page; the outcome comparison
    keeps comparing pictures by their digests."""
    from officesim.apps.ocr import image_text
    from officesim.evaluators.state import office_path

    out = dict(files)
    for c in checks:
        if c.check not in TEXT_CHECKS:
            continue
        path = office_path(str(c.args.get("file", "")))
        entry = out.get(path)
        if entry and entry.get("kind") == "image" and "text" not in entry:
            out[path] = {**entry, "text": image_text(root, path)}
    return out


def heads_up_judge(task: Task, before: dict, gold_after: dict) -> Callable[[dict], list[str]]:
    """What is false in a short extra message (evaluators/claims.py, the closed-world rule): each of
    its numbers, dates, times, addresses, ids and people of a kind the gold's own mail states must be
    one the task supports (the gold's mail, the instruction, the office's values), its weekdays must
    agree with their dates and its greeting must name a recipient."""
    from officesim.evaluators.claims import Support, build_directory, closed_world_problems, mail_said, office_sources

    said = [mail_said(e) for p, e in gold_after.items() if e.get("kind") == "eml" and before.get(p) != e]
    year = task.now_dt.year
    cache: dict[str, Any] = {}

    def judge(entry: dict) -> list[str]:
        if "directory" not in cache:  # built when a heads-up is met, once per evaluation
            cache["directory"] = build_directory([*before.values(), *gold_after.values()], task.people, task.user,
                                                 task.user_name)
            cache["sources"] = office_sources(before, year)
        support = Support(expected=said, texts=[task.brief, *said], addresses=[task.user])
        return closed_world_problems(mail_said(entry), support, year=year, now=task.now_dt,
                                     directory=cache["directory"], recipients=[*(entry.get("to") or []),
                                                                               *(entry.get("cc") or [])],
                                     sources=cache["sources"], body=own_text(entry.get("body") or ""),
                                     names=task.brief.lower())

    return judge


class _OnceCache:
    """A per-key compute-once cache, safe under threads (one computation per key)."""

    def __init__(self) -> None:
        self._values: dict[Any, Any] = {}
        self._locks: dict[Any, threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, key: Any, compute: Callable[[], Any]) -> Any:
        if key in self._values:
            return self._values[key]
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._values:
                self._values[key] = compute()
            return self._values[key]

    def has(self, key: Any) -> bool:
        return key in self._values


@dataclasses.dataclass
class GoldRun:
    """The gold solution's outcome: the final parsed office and any action that failed."""

    after: dict
    failures: list[str]
    status: str
    answer: Any


def _key(task: Task) -> tuple:
    return (task.id, task.source_dir)


_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_ACTS_ON_MAIL = ("read_email", "reply_email", "forward_email")


def mail_tolerance(task: Task, before: dict, gold_after: dict):
    """What a reasonable user accepts beside the mail the gold sends (evaluators/outcome.py,
    ``MailTolerance``; FORMAT §7): the task's source and result files (an office file the gold's
    arguments or the instruction name) may be attached unmodified; a short extra message may go to
    the people already in the task (gold's recipients, the people the instruction names by address or
    full name, the senders and recipients of the office messages the gold reads, replies to or
    forwards). Tasks of the workbench tool set keep WorkBench's rule: nothing extra."""
    from officesim.evaluators.outcome import STRICT, MailTolerance

    if task.toolset == "workbench":
        return STRICT
    named = json.dumps([a.args for a in task.gold], default=str, ensure_ascii=False) + "\n" + task.brief
    relevant = frozenset(
        p for p in set(before) | set(gold_after)
        if not p.startswith(("emails/", "calendar/")) and (p in named or posixpath.basename(p) in named))
    mails = [e for e in before.values() if e.get("kind") == "eml"]
    addresses = {x for e in mails for x in [e.get("from"), *(e.get("to") or []), *(e.get("cc") or [])]}
    addresses |= {x for e in before.values() if e.get("kind") == "ics" for ev in e.get("events") or []
                  for x in ev.get("attendees") or []}
    addresses |= {a.lower() for a in task.people.values()}
    involved = {a.lower() for a in _ADDRESS.findall(task.brief)}
    involved |= {a for a in addresses if a and any(  # named by address or full name
        re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", task.brief, re.IGNORECASE) for n in person_names(a)[:2])}
    involved |= {task.people[n].lower() for n in task.people
                 if re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", task.brief)}
    read = {str(a.args.get("email_id")) for a in task.gold if a.action in _ACTS_ON_MAIL and a.args.get("email_id")}
    for path, e in before.items():
        if e.get("kind") == "eml" and posixpath.splitext(posixpath.basename(path))[0] in read:
            involved |= {e.get("from"), *(e.get("to") or []), *(e.get("cc") or [])}
    involved.discard(None)
    return MailTolerance(relevant=relevant, involved=frozenset(involved), short_messages=True)


class Evaluator:
    """Evaluates sessions of tasks; holds the per-task caches of the before and gold states."""

    def __init__(self, sessions_dir: str | Path | None = None, settings: dict | None = None):
        self.sessions_dir = Path(sessions_dir or tempfile.mkdtemp(prefix="officesim-gold-"))
        self.settings = dict(settings or {})
        self._before = _OnceCache()
        self._gold = _OnceCache()
        self._tolerance = _OnceCache()
        self._digests = _OnceCache()  # per task: each template file's size and SHA-256
        self._prefetch = ThreadPoolExecutor(max_workers=1, thread_name_prefix="officesim-gold")
        self._queued: set[tuple] = set()
        self._queued_lock = threading.Lock()
        # Set by the server (server/pool.py): parse offices and run the gold replay's operations in its
        # workers, under their time and memory budget; left None, both run in this process.
        self.parse_office: Callable[[Path, str], dict] | None = None
        self.run_operation: Callable | None = None

    # -- per-task reference states ---------------------------------------------------------------
    def before(self, task: Task) -> dict:
        """The parsed initial office of a task (from its cached template)."""
        from officesim.testbed.materialise import template_for
        from officesim.testbed.parse import parse_office

        parse = self.parse_office or parse_office
        return self._before.get(_key(task), lambda: parse(template_for(task), task.timezone))

    def gold(self, task: Task) -> GoldRun:
        """The gold solution replayed on a fresh office, once per task."""
        return self._gold.get(_key(task), lambda: self._replay_gold(task))

    def prefetch(self, task: Task) -> None:
        """Start computing a task's reference states in the background (when a session starts),
        so its first evaluation does not wait for the whole gold replay."""
        key = _key(task)
        if self._gold.has(key):
            return
        with self._queued_lock:
            if key in self._queued:
                return
            self._queued.add(key)

        def work() -> None:
            try:
                self.before(task)
                self.gold(task)
            except Exception:  # the evaluation that needs it will retry and report the error
                pass

        self._prefetch.submit(work)

    def _replay_gold(self, task: Task) -> GoldRun:
        from officesim.testbed.materialise import new_office, remove_office
        from officesim.testbed.parse import parse_office

        actions = gold_actions(task.gold, task.answer)
        office = new_office(task, self.sessions_dir)
        try:
            session = Session(task, "all_operations", max_steps=len(actions) + 1, office=office,
                              settings=self.settings, run_operation=self.run_operation)
            failures = [str(f) for f in play_gold(actions, task.answer, session.step)]
            after = (self.parse_office or parse_office)(office.root, task.timezone)
            return GoldRun(after=after, failures=failures, status=session.status, answer=session.answer)
        finally:
            remove_office(office)

    def _parse_after(self, task: Task, root: Path) -> dict:
        """The parsed office of a session: a file whose bytes are the template's is the initial office's
        entry; only the others are parsed (under the budget). A lived-in office holds a thousand files
        of which an episode changes a few."""
        from officesim.testbed.materialise import template_for
        from officesim.testbed.parse import file_digests, file_sha256, office_files, parse_office

        before = self.before(task)
        known = self._digests.get(_key(task), lambda: file_digests(template_for(task)))
        same: dict[str, dict] = {}
        changed: list[str] = []
        for rel in office_files(root):
            was = known.get(rel)
            path = root / rel
            try:
                st = os.stat(path, follow_symlinks=False) if was and rel in before else None
                if st is not None and (st.st_dev, st.st_ino) == was[2]:  # the template's own file, linked
                    same[rel] = before[rel]
                    continue
                if st is not None and st.st_size == was[0]:
                    if file_sha256(path, root=root) == was[1]:
                        same[rel] = before[rel]
                        continue
            except OSError:
                pass
            changed.append(rel)
        parsed = (self.parse_office or parse_office)(root, task.timezone, only=changed) if changed else {}
        return dict(sorted({**same, **parsed}.items()))

    # -- one session -----------------------------------------------------------------------------
    def evaluate(self, session: Session) -> EpisodeRecord:
        """The record (tasks/FORMAT.md §6) of an ended session: its checks, side effects and changes."""
        from officesim.evaluators import EvalState, evaluate
        from officesim.evaluators.outcome import compare
        from officesim.testbed.diff import diff_states
        from officesim.testbed.parse import parse_office

        task = session.task
        after = self._parse_after(task, Path(session.office.root))
        before, gold = self.before(task), self.gold(task)
        tolerance = self._tolerance.get(_key(task), lambda: mail_tolerance(task, before, gold.after))
        outcome = compare(before, after, gold.after, task.free, tolerance, heads_up_judge(task, before, gold.after))
        state = EvalState(files=with_image_text(after, task.checks, Path(session.office.root)),
                          answer=session.answer, timezone=task.timezone, now=task.now_dt,
                          instruction=task.brief, before=self.before(task), gold=gold.after,
                          gold_answer=None if gold.answer is None else str(gold.answer), user=task.user,
                          user_name=task.user_name, people=dict(task.people), pictures_hold_ids=task.world is None)
        replies = task.user_script()["replies"] if task.user_replies else []
        record = evaluate(task.checks, state, task_id=task.id, mode=session.mode, status=session.status,
                          side_effects=outcome.side_effects, collateral=outcome.collateral, missing=outcome.missing,
                          asking=self.asking(task, replies, session.history), steps=session.step_count,
                          changes=[str(c) for c in diff_states(before, after)])  # the office diff, for reports
        asked = ask_counts(replies, asked_questions(session.history))
        record = record.model_copy(update=asked)  # system.ask_user: questions asked, ask recall and precision
        if task.origin is not None and task.origin.evaluation:
            record.original_passed, record.original_checks = self.original(task, session)
        return record

    @staticmethod
    def asking(task: Task, replies: list[dict], history: list[dict]) -> list[str]:
        """Why the asking failed (apps/asking.py ``unasked``): a needed reply no question reached before
        the agent wrote its value (an operation that writes, or the finish answer)."""
        if not any(r.get("needed") for r in replies):
            return []
        from officesim.apps import apps_for
        from officesim.apps.registry import resolve_operation
        from officesim.evaluators.facts import states

        apps = apps_for(task.toolset)

        def writes(app: str, action: str) -> bool:
            try:
                return resolve_operation(apps, app, action).writes
            except Exception:  # an unknown operation changed nothing
                return False

        year = task.now_dt.year
        return unasked(replies, history, writes=writes, states=lambda text, value: states(text, value, year=year))

    def original(self, task: Task, session: Session) -> tuple[bool, list]:
        """An imported task's verdict under its benchmark's original evaluation (evaluators/officebench.py),
        over the session's office, the initial office and the task's reference files."""
        from officesim.evaluators.officebench import Testbed, evaluate_original
        from officesim.testbed.materialise import template_for

        if task.origin.benchmark == "workbench":  # WorkBench's rule replays the calls (evaluators/workbench_original.py)
            return self.workbench_original(task, session)
        reference = Path(task.source_dir) / "reference" if task.source_dir else None
        testbed = Testbed(root=Path(session.office.root), before=template_for(task), reference=reference,
                          answer=session.answer, finished=session.status == "finished")
        return evaluate_original(task.origin.evaluation, testbed)

    def workbench_original(self, task: Task, session: Session) -> tuple[bool, list]:
        """WorkBench's verdict: the agent's calls and the ground truth replayed on the initial office's tables."""
        from officesim.apps import OfficeContext
        from officesim.apps.workbench_core import STATE_TABLES
        from officesim.apps.workbench_store import OfficeStore
        from officesim.evaluators.workbench_original import evaluate_original
        from officesim.testbed.materialise import template_for
        from officesim.testbed.office import Office

        initial = OfficeStore(OfficeContext(office=Office(template_for(task)), user=task.user))
        tables = {name: initial.rows(name) for name in STATE_TABLES if name != "plots"}
        return evaluate_original(task.origin.evaluation, tables, session.history)

    def close(self) -> None:
        self._prefetch.shutdown(wait=False, cancel_futures=True)
