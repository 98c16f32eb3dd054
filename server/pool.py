"""Operations run in a pool of worker processes, each under a time and a memory budget.

Why processes: an operation is Python (and C libraries) working on a file the agent may have made
hostile. In the server's own process it could only be waited for: a thread cannot be stopped, and all
of them share one interpreter lock and one heap. In a worker process it can be stopped (the process
group is killed), its memory is capped (``RLIMIT_AS``, see server/worker.py), and N workers use N
cores. The server process keeps what is cheap and must be shared: HTTP, the sessions and their
state machine (server/session.py), and the two operations that touch no file (``inline`` ones:
``switch_app``, ``finish_task``).

Dispatch is stateless: any idle worker takes any request. Everything an operation needs travels with
it (app, action, arguments, the office's path, user, simulated now, settings: about 300 bytes),
because a session's state lives in the server and its files on disk; a worker keeps nothing between
requests but caches keyed by file *content* (apps/_cache.py, testbed/parse.py, the OCR cache), which
any worker can fill and use. Session-affine dispatch would add nothing those caches do not already
give, and would let one slow session stall the others pinned to its worker. Idle workers are taken
last-in first-out, so at low load one or two warm workers serve everything and their caches stay hot.

Sizing: ``workers`` (default: the cores this process may use) are started with the server and kept.
When every worker is busy and some are held by a long request of a kind that may block or work long
(on it for more than ``LONG_S``: OCR, a shell command sleeping, a program, an LLM call, a grading; never a
read or write of office files, however slow), one more is forked for each so held, up to
``max_workers`` (default 4 per core, at least 8); a queue of quick requests just waits its turn, as
more workers than cores would only add cold caches. A worker beyond ``workers`` idle for
``RETIRE_AFTER_S`` exits. Workers are forked from a forkserver that has imported
every file library, so a new one is ready in milliseconds.

Budgets, per request: a time limit (``time_limit``, default 30 s; an operation may declare a longer one,
e.g. OCR 60 s, and ``time_limits`` overrides any by name), and a memory limit (``memory_mb``, default
1024 MB of address space beyond the worker's start-up size). On a breach the worker is killed with
its process group, the agent gets a ``resource_limit`` observation saying which limit and how much,
the session goes on, and a new worker takes the dead one's place; other sessions' requests run on
other workers meanwhile. Parsing the office for grading goes through the same pool, one file at a
time with a fresh time budget each: a file that cannot be parsed in budget becomes
``{"kind": "corrupt", "reason": "too_large"}`` and the rest of the office is parsed on.

``close()`` (server shutdown) kills every worker at once, so a stuck operation never holds up SIGTERM.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import socket
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from multiprocessing import reduction, spawn
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any, Callable

from officesim.apps.registry import ActionResult, OfficeContext, Operation
from officesim.server.cores import usable_cores
from officesim.server.workerenv import worker_environment

DEFAULT_TIME_LIMIT_S = 30.0
DEFAULT_MEMORY_MB = 1024
GROW_AFTER_S = 0.05  # a request waits this long for a busy pool before another worker may be started
LONG_S = 0.25  # ... and only when a worker has been on one request this long (a queue of quick ones waits)
RETIRE_AFTER_S = 60.0  # an extra worker idle this long exits
DEFAULT_RECYCLE_MB = 512  # a worker whose own memory passes this is replaced (its caches start again); a lived-in office adds ~85 MiB
RECYCLE_CHECK_EVERY = 16  # requests between two reads of a worker's memory (and after every long one)
MEMORY_EXIT = 3  # a worker exits with this after a MemoryError (server/worker.py)
SANDBOX_MARGIN_S = 30.0  # a code program's worker gets the program's time limit plus this (as the shell: 10 + 30 s)
_PRELOAD = ["officesim.server.worker"]
_forkserver_lock = threading.Lock()


def parse_time_limits(text: str | None) -> dict[str, float]:
    """``"ocr.recognize_file=90, shell.command=20"`` -> {"ocr.recognize_file": 90.0, ...}."""
    out: dict[str, float] = {}
    for item in (text or "").replace(";", ",").split(","):
        if "=" in item:
            name, _, value = item.partition("=")
            try:
                out[name.strip()] = float(value)
            except ValueError:
                raise ValueError(f"time limit for {name.strip()!r} is not a number: {value!r}") from None
    return out


@dataclass
class PoolSettings:
    """The knobs of a pool (ServerSettings carries them; docs/security.md lists them)."""

    workers: int = 0  # kept running; 0 = one per usable core
    max_workers: int = 0  # grown to when all are busy; 0 = max(8, 4 per core)
    time_limit: float = DEFAULT_TIME_LIMIT_S
    time_limits: dict[str, float] = field(default_factory=dict)  # "app.action" -> seconds
    memory_mb: int = DEFAULT_MEMORY_MB  # per worker, beyond its start-up size; 0 = no cap
    quota_bytes: int = 0  # disk quota of an office; 0 = none
    recycle_mb: int = DEFAULT_RECYCLE_MB  # a worker's private memory past which it is replaced; 0 = never

    def resolved(self) -> "PoolSettings":
        cores = usable_cores()
        workers = self.workers or cores
        return PoolSettings(workers=workers, max_workers=max(workers, self.max_workers or max(8, 4 * cores)),
                            time_limit=self.time_limit, time_limits=dict(self.time_limits),
                            memory_mb=self.memory_mb, quota_bytes=self.quota_bytes, recycle_mb=self.recycle_mb)


class PoolClosed(Exception):
    """The pool was closed (the server is stopping)."""


class Breach(Exception):
    """A request passed its time or memory budget, or its worker died; the worker is gone."""

    def __init__(self, what: str, message: str):
        super().__init__(message)
        self.what = what  # "time", "memory", "crash" (or "busy": no program slot came free in time)
        self.message = message


class _Worker:
    __slots__ = ("proc", "conn", "pid", "idle_since", "busy_since", "killed", "long_kind", "requests")

    def __init__(self, proc, conn):
        self.proc = proc
        self.conn = conn
        self.pid = proc.pid
        self.idle_since = time.monotonic()
        self.busy_since = 0.0  # when its current request started (0: idle)
        self.killed = False
        self.long_kind = False  # its request is of a kind that may hold it long (see WorkerPool._held_up)
        self.requests = 0  # answered so far


class WorkerPool:
    """Worker processes that run operations and parse offices under budgets; thread-safe."""

    def __init__(self, settings: PoolSettings | None = None):
        self.settings = (settings or PoolSettings()).resolved()
        self._cond = threading.Condition()
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._starting = 0
        self._closed = False
        self.replaced = 0  # workers killed for a breach or found dead (for tests and stats)
        self.recycled = 0  # workers replaced because their memory passed recycle_mb
        # code programs hold a worker while their calls need others: they may take the workers beyond the
        # kept ones, never all of them
        self.program_slots = max(1, self.settings.max_workers - self.settings.workers)
        self._programs = threading.BoundedSemaphore(self.program_slots)

    # -- public ----------------------------------------------------------------------------------
    def start(self) -> "WorkerPool":
        """Start the kept workers now (otherwise they start with the first request)."""
        for _ in range(self.settings.workers - len(self._all) - self._starting):
            worker = self._spawn_counted()
            if worker is None:
                break
            self._release(worker)  # at once: a request waiting for the first worker takes it
        return self

    def time_limit_for(self, op: Operation) -> float:
        name = f"{op.app}.{op.name}"
        if name in self.settings.time_limits:
            return self.settings.time_limits[name]
        return max(self.settings.time_limit, op.time_limit or 0.0)

    def run_operation(self, op: Operation, ctx: OfficeContext, args: Any) -> ActionResult:
        """Run ``op`` on ``ctx``'s office in a worker (inline operations here); never raises."""
        if op.inline:
            return op.invoke(ctx, args)
        limit = self.time_limit_for(op)
        request = ("op", op.qualified_app, op.name, args, str(ctx.office.root), ctx.user, ctx.now,
                   {k: v for k, v in ctx.settings.items() if k != "office_quota_bytes"}, self.settings.quota_bytes)
        try:  # an operation that declares a time limit of its own (shell, OCR, LLM) may hold a worker long
            return self._call(request, limit, long_kind=op.time_limit is not None)
        except Breach as exc:
            return ActionResult.failure("resource_limit", f"{op.app}.{op.name}: {exc.message}")
        except PoolClosed:
            return ActionResult.failure("internal_error", "the server is shutting down; the operation did not complete")

    def run_sandboxed(self, root: str | os.PathLike, command: str, mode: str | None, limits: Any,
                      pass_fds: tuple[int, ...] = ()) -> Any:
        """A code program (server/code.py): ``command`` in the shell sandbox, run by a worker like any
        operation, so it counts against the pool's workers and dies with its worker at the time limit
        (the program's own limit plus ``SANDBOX_MARGIN_S`` to lend and return the office). ``pass_fds``
        (the program's channel to its session) are handed to the worker over its socket. At most
        ``program_slots`` programs run at once, so workers are always left for the calls they make.
        Returns the ``SandboxResult``; raises ``SandboxError`` (it could not start), ``Breach``, or
        ``PoolClosed``."""
        from officesim.testbed.sandbox import SandboxError

        limit = float(limits.timeout) + SANDBOX_MARGIN_S
        if not self._programs.acquire(timeout=limit):
            raise Breach("busy", f"{self.program_slots} programs are already running in this server process; "
                                 "try again when one has ended")
        try:
            reply = self._call(("code", str(root), command, mode, limits, len(pass_fds)), limit, pass_fds=pass_fds,
                               long_kind=True)
        finally:
            self._programs.release()
        if isinstance(reply, str):
            raise SandboxError(reply)
        return reply

    def parse_office(self, root: str | os.PathLike, timezone: str = "UTC", only: list[str] | None = None
                     ) -> dict[str, dict]:
        """``testbed.parse.parse_office`` under the budget: each file gets the time limit; a file
        that passes it (or the memory limit) becomes a ``too_large`` entry and parsing goes on."""
        from officesim.testbed.parse import office_files, too_large_entry

        base = Path(root)
        pending = office_files(base)
        if only is not None:
            wanted = set(only)
            pending = [rel for rel in pending if rel in wanted]
        if not pending:
            return {}
        out: dict[str, dict] = {}
        while pending:
            got: dict[str, dict] = {}
            try:
                self._call(("parse", str(base), pending, timezone), self.settings.time_limit,
                           on_entry=lambda rel, entry: got.__setitem__(rel, entry))
                out.update(got)
                break
            except Breach as exc:
                out.update(got)
                done = len(got)
                stuck = pending[done]
                size = (base / stuck).stat().st_size if (base / stuck).exists() else 0
                out[stuck] = too_large_entry(f"parsing it passed a limit: {exc.message}", size)
                pending = pending[done + 1:]
        return dict(sorted(out.items()))

    def grade(self, job: Any, limit: float) -> Any:
        """An evaluation (server/grading.py ``GradingJob``) in a worker under ``limit`` seconds: the
        ``EpisodeRecord``; raises ``Breach`` past the time or memory limit (the worker is killed and
        replaced, the server goes on), ``PoolClosed`` when the server stops."""
        return self._call(("grade", job), limit, long_kind=True)

    def close(self) -> None:
        """Kill every worker now; requests in flight answer that the server is shutting down."""
        with self._cond:
            self._closed = True
            workers = list(self._all)
            self._idle.clear()
            self._cond.notify_all()
        for worker in workers:
            self._kill(worker)
        for worker in workers:
            worker.proc.join(timeout=2)

    def pids(self) -> list[int]:
        with self._cond:
            return [w.pid for w in self._all]

    @property
    def closed(self) -> bool:
        return self._closed

    # -- one request -----------------------------------------------------------------------------
    def _call(self, request: tuple, limit: float, on_entry: Callable[[str, dict], None] | None = None,
              pass_fds: tuple[int, ...] = (), long_kind: bool = False) -> Any:
        worker = self._acquire(long_kind)
        healthy = False
        try:
            try:
                worker.conn.send(request)
                if pass_fds:  # right behind the request, as SCM_RIGHTS on the worker's socket
                    with socket.fromfd(worker.conn.fileno(), socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                        reduction.sendfds(sock, list(pass_fds))
            except (OSError, ValueError):
                raise self._died(worker) from None
            deadline = time.monotonic() + limit
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self._kill(worker)
                    raise Breach("time", f"stopped after the time limit of {limit:g} s")
                ready = wait([worker.conn, worker.proc.sentinel], timeout=remaining)
                if not ready:
                    continue
                if worker.conn in ready or worker.conn.poll():
                    try:
                        reply = worker.conn.recv()
                    except (EOFError, OSError):
                        raise self._died(worker) from None
                    kind = reply[0]
                    if kind == "done":
                        healthy = True
                        return reply[1]
                    if kind == "entry":
                        on_entry(reply[1], reply[2])
                        deadline = time.monotonic() + limit  # every file gets the whole budget
                        continue
                    if kind == "memory":
                        self._kill(worker)
                        raise Breach("memory", f"stopped at the memory limit of {self.settings.memory_mb} MB")
                    raise RuntimeError(f"worker answered {reply!r}")
                raise self._died(worker)
        finally:
            if healthy:
                self._release(worker, answered=True)
            else:
                self._discard(worker)

    def _died(self, worker: _Worker) -> Exception:
        """What to report for a worker found dead in the middle of a request: what is known, the
        signal or exit code, that the server did not stop it, and the memory limit in force, never a
        guessed cause. (The limit the server enforces, ``RLIMIT_AS``, is reported by the worker itself
        as a MemoryError, answered as "memory" in ``_call``; a SIGKILL from elsewhere may be the
        kernel's out-of-memory killer or any process allowed to signal it, which cannot be told
        apart from here.)"""
        worker.proc.join(timeout=1)
        if self._closed:
            return PoolClosed()
        code = worker.proc.exitcode
        limit = f"; its memory limit is {self.settings.memory_mb} MB" if self.settings.memory_mb > 0 else ""
        if code is not None and code < 0:
            number = -code
            name = signal.Signals(number).name if number in {s.value for s in signal.Signals} else f"signal {number}"
            return Breach("crash", f"the worker running it was killed by {name} (not by the server{limit})")
        if code is None:
            return Breach("crash", f"the worker running it stopped answering (not by the server{limit})")
        if code == MEMORY_EXIT:  # the worker's own report of its MemoryError did not get through
            return Breach("memory", f"stopped at the memory limit of {self.settings.memory_mb} MB")
        return Breach("crash", f"the worker running it exited unexpectedly with exit code {code} (not by the "
                               f"server{limit})")

    # -- workers ---------------------------------------------------------------------------------
    def _acquire(self, long_kind: bool = False) -> _Worker:
        since = time.monotonic()
        with self._cond:
            while True:
                if self._closed:
                    raise PoolClosed()
                if self._idle:
                    worker = self._idle.pop()
                    worker.busy_since = time.monotonic()
                    worker.long_kind = long_kind
                    return worker
                count = len(self._all) + self._starting
                if count < self.settings.max_workers and (
                        count < self.settings.workers or
                        (time.monotonic() - since >= GROW_AFTER_S and self._held_up() >= 1)):
                    self._starting += 1
                    break
                self._cond.wait(GROW_AFTER_S if count < self.settings.max_workers else 1.0)
        worker = self._spawn_started()
        if worker is None:
            raise PoolClosed()
        worker.busy_since = time.monotonic()
        worker.long_kind = long_kind
        return worker

    def _held_up(self) -> int:
        """How many workers are held by a long request of a kind that blocks or works long (a command
        sleeping, a program, an LLM call, OCR, a grading): only those are made up for with extra workers.
        Reading and writing office files never grows the pool, however slow a read is: a queue of reads
        just waits its turn, since more workers than cores only add cold caches and more slow reads (32
        sessions reading lived-in offices grew a pool from 2 to 16 workers that way) (call with the lock held)."""
        now = time.monotonic()
        long = sum(1 for w in self._all if w.busy_since and w.long_kind and now - w.busy_since > LONG_S)
        return long - (len(self._all) + self._starting - self.settings.workers)

    def _spawn_counted(self) -> _Worker | None:
        with self._cond:
            if self._closed:
                return None
            self._starting += 1
        return self._spawn_started()

    def _spawn_started(self) -> _Worker | None:
        """Start a worker (``_starting`` was counted by the caller)."""
        try:
            worker = _start_worker(self.settings.memory_mb)
        except BaseException:
            with self._cond:
                self._starting -= 1
                self._cond.notify_all()
            raise
        with self._cond:
            self._starting -= 1
            if self._closed:
                closed = True
            else:
                closed = False
                self._all.add(worker)
        if closed:
            self._kill(worker)
            return None
        return worker

    def _too_big(self, worker: _Worker, answered: bool) -> bool:
        """Whether a worker's own memory passed ``recycle_mb``: read after every long request and every
        ``RECYCLE_CHECK_EVERY`` others (a read of /proc costs ~0.1 ms)."""
        if not answered:
            return False
        worker.requests += 1
        if not self.settings.recycle_mb or not (worker.long_kind or worker.requests % RECYCLE_CHECK_EVERY == 0):
            return False
        return private_bytes(worker.pid) > self.settings.recycle_mb << 20

    def _release(self, worker: _Worker, answered: bool = False) -> None:
        """Give a worker back (``answered``: after a request of its own); retire or recycle it if due."""
        retire = None
        refill = False
        too_big = self._too_big(worker, answered)
        with self._cond:
            if self._closed or worker not in self._all:
                retire = worker
            elif too_big:  # its caches are bounded one by one; together they would grow it past the budget
                self._all.discard(worker)
                self.recycled += 1
                retire = worker
                refill = len(self._all) + self._starting < self.settings.workers
                if refill:
                    self._starting += 1
            else:
                worker.idle_since = time.monotonic()
                worker.busy_since = 0.0
                self._idle.append(worker)
                oldest = self._idle[0]
                if len(self._all) > self.settings.workers and oldest is not worker and \
                        worker.idle_since - oldest.idle_since > RETIRE_AFTER_S:
                    self._idle.pop(0)
                    self._all.discard(oldest)
                    retire = oldest
                self._cond.notify()
        if retire is not None:
            threading.Thread(target=_retire, args=(retire,), name="officesim-pool-retire", daemon=True).start()
        if refill:
            threading.Thread(target=self._refill, name="officesim-pool-refill", daemon=True).start()

    def _discard(self, worker: _Worker) -> None:
        """A worker that breached or died: gone for good; a kept one is replaced in the background."""
        self._kill(worker)
        with self._cond:
            self._all.discard(worker)
            self.replaced += 1
            refill = not self._closed and len(self._all) + self._starting < self.settings.workers
            if refill:
                self._starting += 1
            self._cond.notify_all()
        worker.proc.join(timeout=2)
        if refill:
            threading.Thread(target=self._refill, name="officesim-pool-refill", daemon=True).start()

    def _refill(self) -> None:
        try:
            worker = self._spawn_started()
        except Exception:
            return
        if worker is not None:
            self._release(worker)

    def _kill(self, worker: _Worker) -> None:
        worker.killed = True
        for kill in (lambda: os.killpg(worker.pid, signal.SIGKILL), lambda: os.kill(worker.pid, signal.SIGKILL)):
            try:
                kill()
            except (ProcessLookupError, PermissionError, OSError):
                pass


def _context():
    ctx = multiprocessing.get_context("forkserver")
    with _forkserver_lock:
        ctx.set_forkserver_preload(_PRELOAD)
    return ctx


def _worker_entry(conn, env: dict, memory_bytes: int) -> None:
    """The target of a worker process (server/worker.py is imported there, not in the server)."""
    from officesim.server.worker import main

    main(conn, env, memory_bytes)


_keeper: "queue.Queue[Future] | None" = None


def _ensure_forkserver() -> None:
    """Start (or restart) the forkserver from one thread that lives as long as the process.

    The forkserver asks to be killed when its parent dies (server/worker.py), and the kernel counts
    the parent's *thread* that started it: started from a request's thread, it would die with that
    thread. So every start goes through this keeper thread."""
    global _keeper
    with _forkserver_lock:
        if _keeper is None:
            _keeper = queue.Queue()
            threading.Thread(target=_keep_forkserver, args=(_keeper,), name="officesim-forkserver-keeper",
                             daemon=True).start()
        requests = _keeper
    done: Future = Future()
    requests.put(done)
    done.result()


def _keep_forkserver(requests: "queue.Queue[Future]") -> None:
    from multiprocessing import forkserver

    while True:
        done = requests.get()
        try:
            _context()
            forkserver.ensure_running()
            done.set_result(None)
        except BaseException as exc:  # reported to the thread that asked
            done.set_exception(exc)


def _start_worker(memory_mb: int) -> _Worker:
    _ensure_forkserver()
    ctx = _context()
    parent, child = ctx.Pipe(duplex=True)
    # an allow-listed environment: no token or secret reaches a worker (server/workerenv.py)
    env = worker_environment(os.environ)
    proc = ctx.Process(target=_worker_entry, args=(child, env, memory_mb << 20), daemon=True,
                       name="officesim-worker")
    with _forkserver_lock:  # the forkserver starts once, on the first worker
        original = spawn.get_preparation_data
        spawn.get_preparation_data = _without_main(original)
        try:
            proc.start()
        finally:
            spawn.get_preparation_data = original
    child.close()
    return _Worker(proc, parent)


def _without_main(get_preparation_data):
    """A worker needs nothing of the server's ``__main__`` (its target lives in this module), and
    multiprocessing would otherwise run the main script again in every worker (a user's script
    that starts a server at import would start one per worker)."""
    def prepare(name):
        data = get_preparation_data(name)
        data.pop("init_main_from_path", None)
        data.pop("init_main_from_name", None)
        return data

    return prepare


def private_bytes(pid: int) -> int:
    """A process's own memory (private pages, clean and dirty; not the pages it shares with the
    forkserver it was forked from); 0 when it cannot be read."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as fh:
            text = fh.read()
    except OSError:
        return 0
    total = 0
    for line in text.splitlines():
        if line.startswith((b"Private_Clean:", b"Private_Dirty:")):
            total += int(line.split()[1]) << 10
    return total


def _retire(worker: _Worker) -> None:
    """Let an idle worker exit on its own (end of its pipe), then make sure of it."""
    try:
        worker.conn.close()
    except OSError:
        pass
    worker.proc.join(timeout=2)
    if worker.proc.exitcode is None:
        worker.killed = True
        try:
            os.killpg(worker.pid, signal.SIGKILL)
        except OSError:
            pass
