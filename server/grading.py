"""Evaluate a finished session: checks over the final office, and side effects against the gold run.

The office *before* (parsed from the task's template) and the office *after the gold solution*
(replayed in-process through a ``Session`` on a fresh office, ``all_operations`` mode) depend only on
the task, so each is computed once per task and cached; concurrent sessions of the same task wait
for one computation instead of repeating it. Only the agent's own office is parsed per evaluation.
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

from officesim.evaluators.record import EpisodeRecord
from officesim.server.session import Session
from officesim.tasks.gold import gold_actions, play_gold
from officesim.server.grade import (GRADING_S_PER_MB, GRADING_TIME_LIMIT_S, GoldRun, GradingJob,  # noqa: F401
                                    Reference, _slim, _text, grade, grading_time_limit, mail_tolerance, run_job)
from officesim.tasks.model import Task


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
