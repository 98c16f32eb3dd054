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


REFERENCE_TASKS = int(os.environ.get("OFFICESIM_REFERENCE_TASKS") or 24)  # tasks whose references a cache keeps
# The bytes a server process keeps of tasks' reference states, all its caches together (the least recently used
# go first): 256 MiB holds ~17 lived-in tasks (~15 MiB each: initial office ~6, gold office ~6, their pickle for
# the workers ~3), more than a process has in flight, and every suite task; a task pushed out is read back from
# the machine's store (testbed/refstore.py) in a fraction of a second. Measured: benchmarks/hard_memory.py.
REFERENCE_BYTES = int(float(os.environ.get("OFFICESIM_REFERENCE_MB") or 256) * (1 << 20))
# A parsed office unpickled takes ~4.5 times its pickle's bytes (measured on lived-in offices: a 1.36 MiB
# pickle of an initial office is 6.2 MiB of objects): a stored state weighs its file's size times this.
PICKLE_TO_MEMORY = 4.5


class _Budget:
    """The byte budget several ``_OnceCache``s share: one lock and one order of use over all their entries, so
    the least recently used entry of any of them goes first once their weights together pass ``limit``."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = REFERENCE_BYTES if limit is None else limit
        self.lock = threading.Lock()
        self.used: "OrderedDict[tuple[_OnceCache, Any], int]" = OrderedDict()  # (cache, key) -> weight, oldest first
        self.total = 0

    def touch(self, cache: "_OnceCache", key: Any) -> None:  # under self.lock
        if (cache, key) in self.used:
            self.used.move_to_end((cache, key))

    def add(self, cache: "_OnceCache", key: Any, weight: int) -> None:
        """Count an entry just stored, then drop the least recently used others while the total passes the
        limit; never the entry just stored, even if it alone passes it (under self.lock)."""
        self.total += weight - self.used.pop((cache, key), 0)
        self.used[(cache, key)] = weight
        while self.total > self.limit and len(self.used) > 1:
            (owner, old), w = next(iter(self.used.items()))
            if (owner, old) == (cache, key):
                break
            self.forget(owner, old)
            owner._drop(old)

    def forget(self, cache: "_OnceCache", key: Any) -> None:  # under self.lock
        self.total -= self.used.pop((cache, key), 0)


class _OnceCache:
    """A per-key compute-once cache, safe under threads (one computation per key), bounded by bytes: each entry
    weighs ``weigh(value)`` bytes (an estimate, cheap: a pickle's length, a stored file's size), and past the
    ``budget`` (shared with the other caches of an ``Evaluator``) the least recently used entries go; at most
    ``limit`` entries besides. A server grading many lived-in tasks held ~13 MiB per task for good; a task
    pushed out is read back from the machine's store (testbed/refstore.py) in a fraction of a second."""

    def __init__(self, limit: int | None = None, budget: _Budget | None = None,
                 weigh: Callable[[Any], int] | None = None) -> None:
        self._values: "OrderedDict[Any, Any]" = OrderedDict()
        self._locks: dict[Any, threading.Lock] = {}
        self._budget = budget or _Budget()
        self._guard = self._budget.lock
        self._limit = limit or REFERENCE_TASKS
        self._weigh = weigh

    def get(self, key: Any, compute: Callable[[], Any], weigh: Callable[[Any], int] | None = None) -> Any:
        """The value of ``key``, computed once; ``weigh`` (else the cache's own) gives its weight in bytes."""
        with self._guard:
            if key in self._values:
                self._values.move_to_end(key)
                self._budget.touch(self, key)
                return self._values[key]
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            with self._guard:
                if key in self._values:
                    self._budget.touch(self, key)
                    return self._values[key]
            value = compute()
            weigh = weigh or self._weigh
            weight = max(0, int(weigh(value))) if weigh is not None else 0
            with self._guard:
                self._values[key] = value
                self._values.move_to_end(key)
                self._budget.add(self, key, weight)
                while len(self._values) > self._limit:
                    old = next(iter(self._values))
                    self._budget.forget(self, old)
                    self._drop(old)
            return value

    def _drop(self, key: Any) -> None:  # under self._guard
        self._values.pop(key, None)
        self._locks.pop(key, None)

    def has(self, key: Any) -> bool:
        return key in self._values

    def __len__(self) -> int:
        return len(self._values)

    def weight(self) -> int:
        """The bytes its entries weigh together."""
        with self._guard:
            return sum(w for (cache, _k), w in self._budget.used.items() if cache is self)


def _pickled_size(value: Any) -> int:
    """The bytes of a value's pickle: the weight of a reference state the store did not keep (rare: a store
    that cannot be written), computed once with the state, whose parsing costs far more."""
    import pickle

    try:
        return len(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:
        return 0


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
        # One byte budget (REFERENCE_BYTES) over all the per-task caches below, least recently used first
        self._budget = _Budget()
        self._before = _OnceCache(budget=self._budget)  # weighed by their stored pickles (testbed/refstore.py)
        self._gold = _OnceCache(budget=self._budget)
        self._tolerance = _OnceCache(budget=self._budget)  # a few sets of paths and addresses: by count alone
        # per task: each template file's size, SHA-256 and inode (~300 bytes a file)
        self._digests = _OnceCache(budget=self._budget, weigh=lambda known: 300 * len(known))
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
        self._blobs = _OnceCache(budget=self._budget, weigh=lambda ref: len(ref.data))  # per task: its
        # reference states, pickled for the workers

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

        def weigh(before: dict) -> int:
            return int(PICKLE_TO_MEMORY * (refstore.stored_size("before", reference_key(task)) or _pickled_size(before)))

        return self._before.get(_key(task), compute, weigh)

    def gold(self, task: Task) -> GoldRun:
        """The gold solution replayed on a fresh office, once per task (and machine: testbed/refstore.py)."""
        from officesim.testbed import refstore
        from officesim.testbed.materialise import template_for

        named: list[str] = []

        def digest() -> str:  # computed once, and only when the cache misses
            if not named:
                named.append(refstore.task_digest(task, template_for(task), str(self.settings)))
            return named[0]

        def compute() -> GoldRun:
            run = refstore.load("gold", digest())
            if isinstance(run, GoldRun):
                return run
            run = self._replay_gold(task)
            if not run.failures:  # a failed replay (a worker lost, a limit) is tried again next time
                refstore.store("gold", digest(), run)
            return run

        def weigh(run: GoldRun) -> int:
            return int(PICKLE_TO_MEMORY * (refstore.stored_size("gold", digest()) or _pickled_size(run)))

        return self._gold.get(_key(task), compute, weigh)

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
            finally:  # a task whose references the budget later let go is fetched again by its next session
                with self._queued_lock:
                    self._queued.discard(key)

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
