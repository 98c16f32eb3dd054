"""Evaluate a finished session: checks over the final office, and side effects against the gold run.

The office *before* (parsed from the task's template) and the office *after the gold solution*
(replayed in-process through a ``Session`` on a fresh office, ``all_operations`` mode) depend only on
the task, so each is computed once per task and cached; concurrent sessions of the same task wait
for one computation instead of repeating it. Only the agent's own office is parsed per evaluation.
"""

from __future__ import annotations

import dataclasses
import json
import os
import posixpath
import re
import tempfile
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

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


REFERENCE_TASKS = int(os.environ.get("OFFICESIM_REFERENCE_TASKS") or 24)  # tasks whose references a server keeps


class _OnceCache:
    """A per-key compute-once cache, safe under threads (one computation per key), keeping the ``limit``
    most recently used keys: a server grading many lived-in tasks held ~13 MiB per task for good; a
    task pushed out is read back from the machine's store (testbed/refstore.py) in a fraction of a second."""

    def __init__(self, limit: int | None = None) -> None:
        self._values: "OrderedDict[Any, Any]" = OrderedDict()
        self._locks: dict[Any, threading.Lock] = {}
        self._guard = threading.Lock()
        self._limit = limit or REFERENCE_TASKS

    def get(self, key: Any, compute: Callable[[], Any]) -> Any:
        with self._guard:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            with self._guard:
                if key in self._values:
                    return self._values[key]
            value = compute()
            with self._guard:
                self._values[key] = value
                self._values.move_to_end(key)
                while len(self._values) > self._limit:
                    old, _v = self._values.popitem(last=False)
                    self._locks.pop(old, None)
            return value

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


def reference_key(task: Task) -> str:
    """The name of a task's initial office in the machine's store of reference states: its template
    (named by content), its time zone and the code that parses it."""
    import hashlib

    from officesim.testbed import refstore
    from officesim.testbed.materialise import template_for

    text = f"{template_for(task).name}\0{task.timezone}\0{refstore.code_version()}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _template_digests(task: Task) -> dict:
    """Each template file's size, SHA-256 and inode (testbed/parse.py ``file_digests``), once per machine."""
    from officesim.testbed import refstore
    from officesim.testbed.materialise import template_for
    from officesim.testbed.parse import file_digests

    template = template_for(task)
    return refstore.cached("digests", reference_key(task), lambda: file_digests(template))


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


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, "") or default)
    except ValueError:
        return default


# An evaluation's time limit in a worker: generous, and more for a bigger office (its parsed size);
# read once, at import, like the other limits (docs/security.md lists them).
GRADING_TIME_LIMIT_S = _env_float("OFFICESIM_GRADING_TIME_LIMIT", 120.0)
GRADING_S_PER_MB = _env_float("OFFICESIM_GRADING_S_PER_MB", 10.0)


def grading_time_limit(size_bytes: int) -> float:
    """Seconds an evaluation may take in a worker: the base limit plus some per megabyte of office."""
    return GRADING_TIME_LIMIT_S + GRADING_S_PER_MB * size_bytes / (1 << 20)


@dataclasses.dataclass
class Reference:
    """A task's reference states (initial office, gold run, mail tolerance) pickled once per task, named
    by ``token``: a worker that has read them keeps them for the task's next evaluations."""

    token: str
    data: bytes


@dataclasses.dataclass
class GradingJob:
    """Everything one evaluation reads, picklable: the server sends it to a worker of its pool. The
    agent's office is the initial office's entries (``same``) and the files it changed (``changed``)."""

    task: Task
    root: str
    mode: str
    status: str
    answer: Any
    steps: int
    history: list[dict]
    same: list[str]
    changed: dict[str, dict]
    reference: Reference | None = None  # in a worker
    reference_key: str | None = None  # the initial office's name in the machine's store (testbed/refstore.py)
    before: dict | None = None  # in this process
    gold: GoldRun | None = None
    tolerance: Any = None

    def size(self) -> int:
        """About how many bytes the evaluation reads (what its time limit scales with)."""
        import pickle

        changed = len(pickle.dumps(self.changed, protocol=pickle.HIGHEST_PROTOCOL))
        return changed + (len(self.reference.data) if self.reference is not None else 0)


_REFERENCES: dict[str, tuple] = {}  # in a worker: token -> (before, gold, tolerance), the last few tasks
_KEEP_REFERENCES = 8


def _resolve(job: GradingJob) -> tuple[dict, GoldRun, Any]:
    if job.reference is None:
        return job.before, job.gold, job.tolerance
    import pickle

    refs = _REFERENCES.pop(job.reference.token, None) or pickle.loads(job.reference.data)
    _REFERENCES[job.reference.token] = refs  # the same objects each time: the per-task caches of claims.py hold
    while len(_REFERENCES) > _KEEP_REFERENCES:
        _REFERENCES.pop(next(iter(_REFERENCES)))
    return refs


def _slim(history: list[dict]) -> list[dict]:
    """A session's history without its observations (grading reads the actions, never what they showed)."""
    def slim(step: dict) -> dict:
        out = {k: v for k, v in step.items() if k != "observation"}
        if isinstance(out.get("calls"), list):
            out["calls"] = [slim(c) if isinstance(c, dict) else c for c in out["calls"]]
        return out
    return [slim(h) for h in history]


def _text(answer: Any) -> str | None:
    return None if answer is None else str(answer)


def grade(job: GradingJob) -> EpisodeRecord:
    """The record (tasks/FORMAT.md §6) of one ended session: its checks, side effects and changes."""
    from officesim.evaluators import EvalState, evaluate
    from officesim.evaluators.outcome import compare
    from officesim.testbed.diff import diff_states

    task = job.task
    before, gold, tolerance = _resolve(job)
    after = dict(sorted({**{rel: before[rel] for rel in job.same}, **job.changed}.items()))
    outcome = compare(before, after, gold.after, task.free, tolerance, heads_up_judge(task, before, gold.after))
    state = EvalState(files=with_image_text(after, task.checks, Path(job.root)),
                      answer=job.answer, timezone=task.timezone, now=task.now_dt,
                      instruction=task.brief, before=before, gold=gold.after,
                      gold_answer=None if gold.answer is None else str(gold.answer), user=task.user,
                      user_name=task.user_name, people=dict(task.people), pictures_hold_ids=task.world is None,
                      reference_key=job.reference_key)
    replies = task.user_script()["replies"] if task.user_replies else []
    record = evaluate(task.checks, state, task_id=task.id, mode=job.mode, status=job.status,
                      side_effects=outcome.side_effects, collateral=outcome.collateral, missing=outcome.missing,
                      asking=asking(task, replies, job.history), steps=job.steps,
                      changes=[str(c) for c in diff_states(before, after)])  # the office diff, for reports
    asked = ask_counts(replies, asked_questions(job.history))
    record = record.model_copy(update=asked)  # system.ask_user: questions asked, ask recall and precision
    if task.origin is not None and task.origin.evaluation:
        record.original_passed, record.original_checks = original(task, Path(job.root), job.answer, job.status,
                                                                  job.history)
    return record


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


def run_job(job: GradingJob) -> EpisodeRecord | str:
    """A worker's side of an evaluation: the record, or why grading raised (as text)."""
    try:
        return grade(job)
    except MemoryError:
        raise  # the worker reports it and is replaced
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


def original(task: Task, root: Path, answer: Any, status: str, history: list[dict]) -> tuple[bool, list]:
    """An imported task's verdict under its benchmark's original evaluation (evaluators/officebench.py),
    over the session's office, the initial office and the task's reference files."""
    from officesim.evaluators.officebench import Testbed, evaluate_original
    from officesim.testbed.materialise import template_for

    if task.origin.benchmark == "workbench":  # WorkBench's rule replays the calls (evaluators/workbench_original.py)
        return workbench_original(task, history)
    reference = Path(task.source_dir) / "reference" if task.source_dir else None
    testbed = Testbed(root=root, before=template_for(task), reference=reference,
                      answer=answer, finished=status == "finished")
    return evaluate_original(task.origin.evaluation, testbed)


def workbench_original(task: Task, history: list[dict]) -> tuple[bool, list]:
    """WorkBench's verdict: the agent's calls and the ground truth replayed on the initial office's tables."""
    from officesim.apps import OfficeContext
    from officesim.apps.workbench_core import STATE_TABLES
    from officesim.apps.workbench_store import OfficeStore
    from officesim.evaluators.workbench_original import evaluate_original
    from officesim.testbed.materialise import template_for
    from officesim.testbed.office import Office

    initial = OfficeStore(OfficeContext(office=Office(template_for(task)), user=task.user))
    tables = {name: initial.rows(name) for name in STATE_TABLES if name != "plots"}
    return evaluate_original(task.origin.evaluation, tables, history)


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
        # Set by the server too: grade a job in a worker under a time limit (seconds); raises the pool's
        # Breach past it. Left None, grading runs in this process.
        self.run_grading: Callable[[GradingJob, float], EpisodeRecord] | None = None
        self._blobs = _OnceCache()  # per task: its reference states, pickled for the workers

    # -- per-task reference states ---------------------------------------------------------------
    def before(self, task: Task) -> dict:
        """The parsed initial office of a task (from its cached template; parsed once per machine,
        testbed/refstore.py)."""
        from officesim.testbed import refstore
        from officesim.testbed.materialise import template_for
        from officesim.testbed.parse import parse_office

        parse = self.parse_office or parse_office

        def compute() -> dict:
            template = template_for(task)
            return refstore.cached("before", reference_key(task), lambda: parse(template, task.timezone))

        return self._before.get(_key(task), compute)

    def gold(self, task: Task) -> GoldRun:
        """The gold solution replayed on a fresh office, once per task (and machine: testbed/refstore.py)."""
        from officesim.testbed import refstore
        from officesim.testbed.materialise import template_for

        def compute() -> GoldRun:
            digest = refstore.task_digest(task, template_for(task), str(self.settings))
            run = refstore.load("gold", digest)
            if isinstance(run, GoldRun):
                return run
            run = self._replay_gold(task)
            if not run.failures:  # a failed replay (a worker lost, a limit) is tried again next time
                refstore.store("gold", digest, run)
            return run

        return self._gold.get(_key(task), compute)

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
        before = self.before(task)
        same, parsed = self._parse_changed(task, root)
        return dict(sorted({**{rel: before[rel] for rel in same}, **parsed}.items()))

    def _parse_changed(self, task: Task, root: Path) -> tuple[list[str], dict[str, dict]]:
        """The files of a session's office whose bytes are the template's (their entry is the initial
        office's), and the others, parsed."""
        from officesim.testbed.parse import file_sha256, office_files, parse_office

        before = self.before(task)
        known = self._digests.get(_key(task), lambda: _template_digests(task))
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
        return list(same), parsed

    # -- one session -----------------------------------------------------------------------------
    def evaluate(self, session: Session) -> EpisodeRecord:
        """The record (tasks/FORMAT.md §6) of an ended session: its checks, side effects and changes.

        With ``run_grading`` set (the server: its worker pool), the grading runs in a worker under
        ``grading_time_limit``; past it the record fails with ``grading_timeout`` and the server goes on."""
        task = session.task
        same, changed = self._parse_changed(task, Path(session.office.root))
        job = GradingJob(task=task, root=str(session.office.root), mode=session.mode, status=session.status,
                         answer=session.answer, steps=session.step_count, history=_slim(session.history),
                         same=same, changed=changed, reference_key=reference_key(task))
        if self.run_grading is None:
            job.before, job.gold, job.tolerance = self._references(task)
            return grade(job)
        job.reference = self._reference(task)
        limit = grading_time_limit(job.size())
        try:
            record = self.run_grading(job, limit)
        except Exception as exc:  # the pool's Breach (time, memory, a dead worker) or its closing
            timed_out = getattr(exc, "what", None) == "time"
            return EpisodeRecord(
                task_id=task.id, passed=False, passed_checks_only=False, score=0.0, status=session.status,
                failed=["grading_timeout" if timed_out else "error"], mode=session.mode, answer=_text(session.answer),
                steps=session.step_count,
                error=(f"grading passed its time limit of {limit:g} s (OFFICESIM_GRADING_TIME_LIMIT, "
                       f"OFFICESIM_GRADING_S_PER_MB) and was stopped" if timed_out
                       else f"grading failed: {getattr(exc, 'message', None) or f'{type(exc).__name__}: {exc}'}"))
        if isinstance(record, str):  # grading raised in the worker: the session records why (Session._end)
            raise RuntimeError(record)
        return record

    def _references(self, task: Task) -> tuple[dict, GoldRun, Any]:
        before, gold = self.before(task), self.gold(task)
        return before, gold, self._tolerance.get(_key(task), lambda: mail_tolerance(task, before, gold.after))

    def _reference(self, task: Task) -> Reference:
        """A task's reference states for a worker, pickled once per task."""
        import pickle
        import uuid

        return self._blobs.get(_key(task), lambda: Reference(
            token=uuid.uuid4().hex, data=pickle.dumps(self._references(task), protocol=pickle.HIGHEST_PROTOCOL)))

    def close(self) -> None:
        self._prefetch.shutdown(wait=False, cancel_futures=True)
