"""The live sessions of one server: creation under a cap, lookup, deletion, idle expiry, and the
removal of ended sessions' offices after a grace period; the worker pool their operations run in.

Kept apart from the routes so the rules (cap, expiry, office clean-up) are plain Python that tests
and the HTTP layer share. Every method is thread-safe: route handlers run in a threadpool.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from officesim.server.grading import Evaluator
from officesim.server.pool import (DEFAULT_MEMORY_MB, DEFAULT_RECYCLE_MB, DEFAULT_TIME_LIMIT_S, PoolSettings, WorkerPool,
                                   parse_time_limits)
from officesim.server.router import session_id_prefix
from officesim.server.session import Session
from officesim.tasks.model import Task


@dataclass
class ServerSettings:
    """Knobs of one server; defaults come from the environment where it makes sense."""

    sessions_dir: Path | None = None  # env OFFICESIM_SESSIONS_DIR, else a temporary directory
    idle_timeout: float = 1800.0  # seconds without an action before a session expires
    max_sessions: int = 256  # live (active) sessions at once; more answers 429
    token: str | None = None  # env OFFICESIM_TOKEN: Bearer token required on every route but /health
    include_suite: bool = True  # load the built-in suite beside --tasks directories
    op_settings: dict = field(default_factory=dict)  # passed to operations (shell_mode, ...)
    # How operations run (server/pool.py; docs/security.md lists every limit):
    workers: int = 0  # env OFFICESIM_WORKERS: worker processes kept; 0 = one per usable core
    max_workers: int = 0  # env OFFICESIM_MAX_WORKERS: grown to when all are busy; 0 = max(8, 4 per core)
    op_time_limit: float = DEFAULT_TIME_LIMIT_S  # env OFFICESIM_OP_TIME_LIMIT: seconds per operation
    op_time_limits: dict = field(default_factory=dict)  # env OFFICESIM_OP_TIME_LIMITS="ocr.recognize_file=90,..."
    worker_memory_mb: int = DEFAULT_MEMORY_MB  # env OFFICESIM_WORKER_MEMORY_MB: per worker; 0 = no cap
    worker_recycle_mb: int = DEFAULT_RECYCLE_MB  # env OFFICESIM_WORKER_RECYCLE_MB: a worker past this own memory is replaced; 0 = never
    office_quota_mb: float = 512  # env OFFICESIM_OFFICE_QUOTA_MB: disk quota of one office; 0 = none
    finished_grace: float = 60.0  # env OFFICESIM_FINISHED_GRACE: seconds an ended session keeps its office
    process_index: int | None = None  # one process of a multi-process server: its ids say so (server/router.py)
    process_count: int = 1  # ... of that many: it holds its share of max_sessions (the shares add up to it)

    @property
    def session_cap(self) -> int:
        """The live sessions this process takes: ``max_sessions``, or its share among ``process_count``."""
        index = self.process_index or 0
        return self.max_sessions // self.process_count + (index < self.max_sessions % self.process_count)

    @classmethod
    def from_env(cls, **overrides) -> "ServerSettings":
        env = os.environ
        values: dict = {
            "sessions_dir": Path(env["OFFICESIM_SESSIONS_DIR"]) if env.get("OFFICESIM_SESSIONS_DIR") else None,
            "token": env.get("OFFICESIM_TOKEN") or None,
        }
        if env.get("OFFICESIM_IDLE_TIMEOUT"):
            values["idle_timeout"] = float(env["OFFICESIM_IDLE_TIMEOUT"])
        if env.get("OFFICESIM_MAX_SESSIONS"):
            values["max_sessions"] = int(env["OFFICESIM_MAX_SESSIONS"])
        for key, name, kind in (("workers", "OFFICESIM_WORKERS", int), ("max_workers", "OFFICESIM_MAX_WORKERS", int),
                                ("op_time_limit", "OFFICESIM_OP_TIME_LIMIT", float),
                                ("worker_memory_mb", "OFFICESIM_WORKER_MEMORY_MB", int),
                                ("worker_recycle_mb", "OFFICESIM_WORKER_RECYCLE_MB", int),
                                ("office_quota_mb", "OFFICESIM_OFFICE_QUOTA_MB", float),
                                ("finished_grace", "OFFICESIM_FINISHED_GRACE", float)):
            if env.get(name):
                values[key] = kind(env[name])
        if env.get("OFFICESIM_OP_TIME_LIMITS"):
            values["op_time_limits"] = parse_time_limits(env["OFFICESIM_OP_TIME_LIMITS"])
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def pool_settings(self) -> PoolSettings:
        return PoolSettings(workers=self.workers, max_workers=self.max_workers, time_limit=self.op_time_limit,
                            time_limits=dict(self.op_time_limits), memory_mb=self.worker_memory_mb,
                            quota_bytes=int(self.office_quota_mb * (1 << 20)), recycle_mb=self.worker_recycle_mb)


RETAIN_MIN_S = 60.0  # an ended session's record stays readable at least this long after its office goes


class CapacityError(Exception):
    """The live-session cap is reached."""


class Hold:
    """One slot of the live-session cap held by an MCP connection for as long as it is open
    (``SessionManager.hold``): the sessions it starts run in that slot, so a connection counts once
    whether or not it has a task, and HTTP sessions and MCP connections share one cap."""

    __slots__ = ("sessions", "released")

    def __init__(self) -> None:
        self.sessions: set[str] = set()  # ids of the sessions started in this slot
        self.released = False


class SessionManager:
    """Owns every session of a server and the offices on disk."""

    def __init__(self, tasks: dict[str, Task], settings: ServerSettings):
        self.tasks = tasks
        self.settings = settings
        self._own_dir = settings.sessions_dir is None
        self.root = Path(settings.sessions_dir or tempfile.mkdtemp(prefix="officesim-sessions-"))
        self.root.mkdir(parents=True, exist_ok=True)
        self.pool = WorkerPool(settings.pool_settings())  # workers start with the server or the first request
        self.evaluator = Evaluator(self.root / "_gold", settings.op_settings)
        self.evaluator.parse_office = self.pool.parse_office
        self.evaluator.run_operation = self.pool.run_operation
        self.evaluator.run_grading = self.pool.grade  # each evaluation in a worker, under a time limit
        self._sessions: dict[str, Session] = {}
        # sessions whose office is gone (kept a while for reading): id -> monotonic removal time
        self._removed: dict[str, float] = {}
        self._lock = threading.Lock()
        self._pending = 0
        self._holds: set[Hold] = set()  # MCP connections open, one slot each (server/mcp.py)
        self._last_sweep = 0.0
        self._sweeping = False  # a sweep that sweep_if_due started is running

    # -- lifecycle -------------------------------------------------------------------------------
    def _live(self) -> int:
        """Live sessions, sessions being made, and open MCP connections; a session started in a
        connection's slot counts once, as that connection (call with the lock held)."""
        held = set().union(*(h.sessions for h in self._holds)) if self._holds else ()
        return sum(1 for s in self._sessions.values() if not s.done and s.id not in held) + self._pending \
            + len(self._holds)

    def _check_room(self) -> None:
        live = self._live()
        if live >= self.settings.session_cap:
            raise CapacityError(
                f"the server already runs {self.settings.max_sessions if self.settings.process_count > 1 else live} "
                f"live sessions and MCP connections (cap {self.settings.max_sessions}, HTTP and MCP together); "
                "finish or delete a session, close an MCP connection, or try again later")

    def check_room(self) -> None:
        """Raise CapacityError when a new session or MCP connection would pass the cap now."""
        with self._lock:
            self._check_room()

    def hold(self) -> Hold:
        """A slot of the cap for an MCP connection, until ``release``; raises CapacityError at the cap."""
        self.sweep_if_due()
        with self._lock:
            self._check_room()
            hold = Hold()
            self._holds.add(hold)
            return hold

    def release(self, hold: Hold) -> None:
        """The connection closed: its slot is free; a session it started that is still live now
        counts on its own (until it ends or expires)."""
        with self._lock:
            hold.released = True
            self._holds.discard(hold)

    def create(self, task: Task, mode: str, max_steps: int, hold: Hold | None = None) -> Session:
        """A new session on a fresh office; raises CapacityError at the cap. With the ``hold`` of an
        open MCP connection it runs in that connection's slot (no further room needed)."""
        from officesim.testbed.materialise import new_office, remove_office

        self.sweep_if_due()
        with self._lock:
            in_slot = hold is not None and not hold.released
            if not in_slot:
                self._check_room()
                self._pending += 1
        office = None
        try:
            office = new_office(task, self.root)
            # the quota rides in the session's settings for code programs (server/code.py); operations
            # get the pool's own in their worker
            settings = {**self.settings.op_settings, "office_quota_bytes": self.pool.settings.quota_bytes}
            session = Session(task, mode, max_steps, office, session_id=self.new_session_id(),
                              evaluate=self.evaluator.evaluate, settings=settings,
                              run_operation=self.pool.run_operation)
            session.run_sandboxed = self.pool.run_sandboxed  # code programs run in a worker (server/code.py)
            with self._lock:
                self._sessions[session.id] = session
                if in_slot:
                    hold.sessions.add(session.id)
            self.evaluator.prefetch(task)
            return session
        except BaseException:
            if office is not None:
                remove_office(office)
            raise
        finally:
            if not in_slot:
                with self._lock:
                    self._pending -= 1

    def new_session_id(self) -> str:
        """32 hex digits; in one process of several, the first two name the process (the router's route)."""
        sid = uuid.uuid4().hex
        if self.settings.process_index is None:
            return sid
        return session_id_prefix(self.settings.process_index) + sid[2:]

    def get(self, session_id: str) -> Session:
        """The session (KeyError when unknown); lookups also run due expiries."""
        self.sweep_if_due()
        with self._lock:
            return self._sessions[session_id]

    def has_office(self, session_id: str) -> bool:
        with self._lock:
            return session_id in self._sessions and session_id not in self._removed

    def delete(self, session_id: str) -> None:
        """Drop a session and remove its office (KeyError when unknown)."""
        with self._lock:
            session = self._sessions.pop(session_id)
            gone = self._removed.pop(session_id, None) is not None
        if not gone:
            with session.lock:
                self._remove_office(session)

    # -- expiry ----------------------------------------------------------------------------------
    def sweep_if_due(self) -> None:
        """Start a sweep when one is due, on a thread of its own: an idle session's expiry grading never
        runs on a request's thread (it held that request, another session's, for the whole grading)."""
        interval = min(1.0, self.settings.idle_timeout / 4)
        now = time.monotonic()
        with self._lock:
            if now - self._last_sweep < interval or self._sweeping:
                return
            self._last_sweep, self._sweeping = now, True
        threading.Thread(target=self._sweep_in_background, name="officesim-expiry", daemon=True).start()

    def _sweep_in_background(self) -> None:
        try:
            self.sweep()
        except Exception:  # the next due sweep tries again; one bad office must not stop expiry
            pass
        finally:
            with self._lock:
                self._sweeping = False

    def _finished_long_ago(self, session: Session) -> bool:
        """An ended session past the grace period: its office goes (its record stays readable)."""
        return session.done and session.ended_at is not None and \
            time.time() - session.ended_at >= self.settings.finished_grace

    def sweep(self) -> list[str]:
        """Expire idle active sessions (evaluated, office removed); remove the offices of sessions
        ended more than ``finished_grace`` ago; forget long-ended ones."""
        timeout = self.settings.idle_timeout
        retain = max(timeout, RETAIN_MIN_S)
        now = time.monotonic()
        with self._lock:
            stale = [sid for sid, at in self._removed.items() if now - at >= retain]
            for sid in stale:
                self._sessions.pop(sid, None)
                del self._removed[sid]
            candidates = [s for s in self._sessions.values()
                          if s.id not in self._removed and (now - s.last_active >= timeout or self._finished_long_ago(s))]
        expired = []
        for session in candidates:
            if not session.lock.acquire(blocking=False):
                continue  # busy right now, so not idle
            try:
                if time.monotonic() - session.last_active < timeout and not self._finished_long_ago(session):
                    continue
                if session.expire():
                    expired.append(session.id)
                with self._lock:
                    if session.id not in self._sessions or session.id in self._removed:
                        continue  # deleted meanwhile
                    self._removed[session.id] = time.monotonic()
                self._remove_office(session)
            finally:
                session.lock.release()
        return expired

    def close(self) -> None:
        """Stop the workers, then remove every office (server shutdown)."""
        self.pool.close()
        self.evaluator.close()
        with self._lock:
            sessions = list(self._sessions.values())
            self._sessions.clear()
            self._removed.clear()
        for session in sessions:
            self._remove_office(session)
        if self._own_dir:
            shutil.rmtree(self.root, ignore_errors=True)

    @staticmethod
    def _remove_office(session: Session) -> None:
        from officesim.testbed.materialise import remove_office

        if session.office is not None:
            remove_office(session.office)
