"""The live sessions of one server: creation under a cap, lookup, deletion and idle expiry.

Kept apart from the routes so the rules (cap, expiry, office clean-up) are plain Python that tests
and the HTTP layer share. Every method is thread-safe: route handlers run in a threadpool.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from officesim.server.grading import Evaluator
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
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


RETAIN_MIN_S = 60.0  # an ended session's record stays readable at least this long after its office goes


class CapacityError(Exception):
    """The live-session cap is reached."""


class SessionManager:
    """Owns every session of a server and the offices on disk."""

    def __init__(self, tasks: dict[str, Task], settings: ServerSettings):
        self.tasks = tasks
        self.settings = settings
        self._own_dir = settings.sessions_dir is None
        self.root = Path(settings.sessions_dir or tempfile.mkdtemp(prefix="officesim-sessions-"))
        self.root.mkdir(parents=True, exist_ok=True)
        self.evaluator = Evaluator(self.root / "_gold", settings.op_settings)
        self._sessions: dict[str, Session] = {}
        # sessions whose office is gone (kept a while for reading): id -> monotonic removal time
        self._removed: dict[str, float] = {}
        self._lock = threading.Lock()
        self._pending = 0
        self._last_sweep = 0.0

    # -- lifecycle -------------------------------------------------------------------------------
    def create(self, task: Task, mode: str, max_steps: int) -> Session:
        """A new session on a fresh office; raises CapacityError at the cap."""
        from officesim.testbed.materialise import new_office, remove_office

        self.sweep_if_due()
        with self._lock:
            live = sum(1 for s in self._sessions.values() if not s.done) + self._pending
            if live >= self.settings.max_sessions:
                raise CapacityError(
                    f"the server already runs {live} live sessions (cap {self.settings.max_sessions}); "
                    f"finish or delete a session, or try again later")
            self._pending += 1
        office = None
        try:
            office = new_office(task, self.root)
            session = Session(task, mode, max_steps, office, evaluate=self.evaluator.evaluate,
                              settings=self.settings.op_settings)
            with self._lock:
                self._sessions[session.id] = session
            self.evaluator.prefetch(task)
            return session
        except BaseException:
            if office is not None:
                remove_office(office)
            raise
        finally:
            with self._lock:
                self._pending -= 1

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
        interval = min(1.0, self.settings.idle_timeout / 4)
        now = time.monotonic()
        if now - self._last_sweep >= interval:
            self._last_sweep = now
            self.sweep()

    def sweep(self) -> list[str]:
        """Expire idle active sessions (evaluated, office removed); forget long-ended ones."""
        timeout = self.settings.idle_timeout
        retain = max(timeout, RETAIN_MIN_S)
        now = time.monotonic()
        with self._lock:
            stale = [sid for sid, at in self._removed.items() if now - at >= retain]
            for sid in stale:
                self._sessions.pop(sid, None)
                del self._removed[sid]
            candidates = [s for s in self._sessions.values()
                          if s.id not in self._removed and now - s.last_active >= timeout]
        expired = []
        for session in candidates:
            if not session.lock.acquire(blocking=False):
                continue  # busy right now, so not idle
            try:
                if time.monotonic() - session.last_active < timeout:
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
        """Remove every office (server shutdown)."""
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
