"""Private officesim servers on free local ports: the one harness for ``eval`` and ``validate``
without --server (and for tests and benchmarks that need a live server).

Each server is a child process (``python -m officesim.runner.cli serve``) bound to 127.0.0.1 with
a random token; it is ready when ``/health`` answers, and it is stopped (terminate, then kill) when
its context ends, normally or by an exception, and at interpreter exit as a last resort. A server
also stops by itself when the process that started it dies (a pipe it watches reaches end of file),
so not even ``kill -9`` of ``eval`` leaves servers behind.

How long a starting server may take to answer ``/health`` scales with what it does and what it
shares the machine with (``start_timeout``): a base for importing the server, a share per task file
it loads, multiplied by the contention (the load average plus the servers starting, per usable core).
``OFFICESIM_START_TIMEOUT`` (seconds) or an explicit ``timeout`` overrides it. ``local_servers`` says
how the start goes while it waits (``progress``) and starts a server that failed again (``retries``).
"""

from __future__ import annotations

import atexit
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

if TYPE_CHECKING:  # imported where a health poll needs it: `officesim serve` starts its processes first
    import httpx

from officesim.server.cores import usable_cores

# How long a starting server may take to answer /health (start_timeout): importing the server and its
# apps, plus each task file it loads, times the contention of the machine; within these bounds.
START_BASE_S = 30.0
START_PER_TASK_S = 0.15  # measured ~0.06 s per task file on a quiet core (483 files in 27.5 s), with margin
START_MIN_S, START_MAX_S = 60.0, 1800.0
START_TIMEOUT_ENV = "OFFICESIM_START_TIMEOUT"  # seconds, overriding the computed limit
PROGRESS_EVERY_S = 10.0  # how often local_servers says it is still waiting
STOP_TIMEOUT_S = 10.0  # how long a terminated server may take to exit before it is killed
PORT_ATTEMPTS = 3  # starts on a fresh port when another process took the chosen one meanwhile

PARENT_FD_ENV = "OFFICESIM_PARENT_FD"  # the read end of the pipe a server watches (runner/cli.py)

_live: set["LocalServer"] = set()
_live_lock = threading.Lock()


class ServerStartError(RuntimeError):
    """A private server exited at start or did not answer /health within its limit (and was stopped)."""


def load_average() -> float:
    """The 1-minute load average (0 where the system has none)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return 0.0


def start_timeout(tasks: int, servers: int = 1, cores: int | None = None, load: float | None = None) -> float:
    """Seconds a server loading ``tasks`` task files may take to answer /health while ``servers`` start
    side by side on ``cores`` usable cores under ``load`` (default: this machine's): ``START_BASE_S +
    START_PER_TASK_S x tasks``, times the contention ``max(1, (load + servers) / cores)``, within
    ``START_MIN_S`` and ``START_MAX_S``. ``OFFICESIM_START_TIMEOUT`` overrides it."""
    override = os.environ.get(START_TIMEOUT_ENV)
    if override:
        try:
            value = float(override)
        except ValueError:
            raise ValueError(f"{START_TIMEOUT_ENV} must be a number of seconds, not {override!r}") from None
        if value <= 0:
            raise ValueError(f"{START_TIMEOUT_ENV} must be positive, not {value}")
        return value
    cores = max(1, cores or usable_cores())
    load = load_average() if load is None else max(0.0, load)
    contention = max(1.0, (load + max(1, servers)) / cores)
    return round(min(START_MAX_S, max(START_MIN_S, (START_BASE_S + START_PER_TASK_S * max(0, tasks)) * contention)), 1)


def count_task_files(task_dirs: list[Path] | list[str] | None, include_suite: bool) -> int:
    """How many task files a server given these directories (and the suite) loads; cheap (no parsing)."""
    from officesim.tasks.loader import HARD_DIR, SUITE_DIR, TASK_FILE

    dirs = [Path(d) for d in task_dirs or []] + ([SUITE_DIR, HARD_DIR] if include_suite else [])
    count = 0
    for d in dirs:
        if d.is_file() or (d / TASK_FILE).is_file():
            count += 1
        elif d.is_dir():
            count += sum(1 for _ in d.glob(f"*/{TASK_FILE}"))
    return count


def watch_parent() -> None:
    """In a server started with ``OFFICESIM_PARENT_FD``: send this process SIGTERM (the server's way to
    stop) once that pipe reaches end of file, that is once the process that started it is gone."""
    fd = os.environ.pop(PARENT_FD_ENV, None)
    if not fd:
        return
    try:
        fd_number = int(fd)
        os.set_inheritable(fd_number, False)  # workers and shell commands do not keep it open
    except (ValueError, OSError):
        return

    def watch() -> None:
        try:
            while os.read(fd_number, 1):
                pass
        except OSError:
            pass
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="officesim-parent-watch", daemon=True).start()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LocalServer:
    """A server subprocess bound to 127.0.0.1 with a token (random unless given); a context manager."""

    def __init__(self, task_dirs: list[Path] | None = None, env: dict | None = None, include_suite: bool = True,
                 *, token: str | None = None, max_sessions: int | None = None, log_level: str = "warning",
                 processes: int = 1, uds: str | None = None, process_index: int | None = None, process_count: int = 1,
                 idle_timeout: float | None = None, show_output: bool = False, start_timeout: float | None = None):
        # processes: 1 unless asked, since eval and validate spread their work over servers themselves;
        # uds + process_index: one process of a multi-process server (runner/cli.py, server/router.py)
        self.processes = processes
        self.uds = uds
        self.process_index = process_index
        self.process_count = process_count
        self.idle_timeout = idle_timeout
        self.show_output = show_output  # stderr to this process's stderr instead of a file read on failure
        self.port = 0 if uds else free_port()
        self.token = secrets.token_urlsafe(16) if token is None else token  # "": none (or the environment's)
        self.task_dirs = [str(d) for d in task_dirs or []]
        self.env = env or {}
        self.include_suite = include_suite
        self.max_sessions = max_sessions
        self.log_level = log_level
        self.proc: subprocess.Popen | None = None
        self._stderr = None
        self._lifeline: int | None = None  # write end of the pipe whose end of file stops the server
        self.start_timeout = start_timeout  # seconds to answer /health; None: computed (start_timeout())
        self._restart_lock = threading.Lock()

    @property
    def url(self) -> str:
        return "http://officesim" if self.uds else f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        cmd = [sys.executable, "-m", "officesim.runner.cli", "serve", "--log-level", self.log_level,
               "--processes", str(self.processes)]
        if self.uds:
            cmd += ["--uds", self.uds, "--process-index", str(self.process_index or 0),
                    "--process-count", str(self.process_count)]
        else:
            cmd += ["--host", "127.0.0.1", "--port", str(self.port)]
        if self.max_sessions is not None:
            cmd += ["--max-sessions", str(self.max_sessions)]
        if self.idle_timeout is not None:
            cmd += ["--idle-timeout", str(self.idle_timeout)]
        for d in self.task_dirs:
            cmd += ["--tasks", d]
        if self.include_suite and self.task_dirs:  # --tasks alone replaces the suite
            cmd.append("--with-suite")
        elif not self.include_suite:
            cmd.append("--no-suite")
        return cmd

    def start(self) -> "LocalServer":
        """Launch the process without waiting for it (several can then start side by side)."""
        env = {**os.environ, **self.env}
        if self.token:
            env["OFFICESIM_TOKEN"] = self.token
        # stderr goes to a file, not a pipe: nobody reads it while the server runs, and a full pipe would block it
        self._stderr = None if self.show_output else tempfile.TemporaryFile()
        with _live_lock:
            _live.add(self)
        # The server holds the read end of a pipe and stops when it reads end of file, which happens
        # when this process is gone however it ends (kill -9 included): a private server never outlives
        # the eval or validate that started it.
        read_end, self._lifeline = os.pipe()
        env[PARENT_FD_ENV] = str(read_end)
        try:
            self.proc = subprocess.Popen(self.command(), env=env, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=self._stderr, pass_fds=(read_end,))
        finally:
            os.close(read_end)
        return self

    def health_limit(self, servers: int = 1) -> float:
        """Seconds this server may take to answer /health: its own ``start_timeout``, else computed from
        the task files it loads, the servers starting beside it and the machine's load (``start_timeout``)."""
        if self.start_timeout is not None:
            return self.start_timeout
        return start_timeout(count_task_files(self.task_dirs, self.include_suite), servers=max(servers, self.processes))

    def wait_healthy(self, timeout: float | None = None) -> None:
        """Wait until /health answers; a server that exits at start or does not answer within ``timeout``
        (None: ``health_limit()``) raises ServerStartError (and is stopped)."""
        import httpx

        timeout = self.health_limit() if timeout is None else timeout
        attempts = 1
        deadline = time.monotonic() + timeout
        with self._health_client() as client:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    err = self._stderr_tail()
                    if "address already in use" in err.lower() and attempts < PORT_ATTEMPTS:
                        attempts += 1
                        self.stop()
                        self.port = free_port()
                        self.start()
                        continue
                    self.stop()
                    raise ServerStartError(f"the officesim server exited at start:\n{err}")
                try:
                    if self.healthy(client):
                        return
                except httpx.HTTPError:
                    pass
                time.sleep(0.05)
        self.stop()
        raise ServerStartError(f"the officesim server did not become healthy within {timeout:.0f} s "
                               f"(load average {load_average():.1f} on {usable_cores()} core(s); "
                               f"{START_TIMEOUT_ENV} sets the limit)")

    def ensure_running(self, timeout: float | None = None) -> bool:
        """Start the server again if its process is gone (its port kept when free); True when it was
        restarted. Thread-safe: callers that find it dead together restart it once."""
        with self._restart_lock:
            if self.running:
                return False
            self.stop()
            self.start()
            self.wait_healthy(timeout)
            return True

    def healthy(self, client: httpx.Client | None = None) -> bool:
        """Whether /health answers now (through ``client``, else a client made for this one call)."""
        # several processes behind the router: /health answers once process 0 does, but the harness
        # (tests, eval, validate) wants the whole capacity, so it waits until every process answers
        path = "/health/processes" if self.processes > 1 and not self.uds else "/health"
        if client is not None:
            return client.get(f"{self.url}{path}").status_code == 200
        with self._health_client() as client:
            return client.get(f"{self.url}{path}").status_code == 200

    def _health_client(self) -> httpx.Client:
        # one client for all the polls of a start: a new one per poll built a TLS context each time
        # (~50 ms of CPU), so the waiting parent took a core from the servers it waited for
        import httpx

        transport = httpx.HTTPTransport(uds=self.uds, verify=False) if self.uds else None
        return httpx.Client(transport=transport, timeout=1.0, verify=False)

    def _stderr_tail(self, limit: int = 2000) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")[-limit:]

    def terminate(self) -> None:
        """Ask the process to stop, without waiting (``stop`` waits)."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()

    def stop(self) -> None:
        """Stop the process (terminate, kill after STOP_TIMEOUT_S) and release its files; idempotent."""
        if self.proc:
            self.terminate()
            try:
                self.proc.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
        if self._lifeline is not None:
            os.close(self._lifeline)
            self._lifeline = None
        with _live_lock:
            _live.discard(self)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def __enter__(self) -> "LocalServer":
        self.start()
        self.wait_healthy()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


@contextmanager
def local_servers(count: int, task_dirs: list[Path] | None = None, include_suite: bool = True, *,
                  max_sessions: int | None = None, timeout: float | None = None, retries: int = 0,
                  progress: Callable[[str], None] | None = None,
                  every: float = PROGRESS_EVERY_S) -> Iterator[list[LocalServer]]:
    """``count`` private servers started side by side; all are stopped when the block ends, however.

    One server runs its Python work under one interpreter lock, so on a machine with several cores
    the runner and the validator spread their work over one server process per core. Each may take
    ``timeout`` seconds to answer /health (None: ``start_timeout`` for its tasks, the servers starting
    together and the load); one that fails is started again up to ``retries`` times before
    ServerStartError. ``progress`` hears what happens: the limit, every ``every`` seconds how long it
    has waited, each retry, and the end.
    """
    count = max(1, count)
    limit = timeout if timeout is not None else start_timeout(count_task_files(task_dirs, include_suite), servers=count)
    servers = [LocalServer(task_dirs, include_suite=include_suite, max_sessions=max_sessions, start_timeout=limit)
               for _ in range(count)]
    say = progress or (lambda _text: None)
    started = time.monotonic()
    ready = [0]
    what = f"{count} private server{'s' if count > 1 else ''}"
    try:
        for server in servers:
            server.start()
        say(f"starting {what} (limit {limit:.0f} s; load average {load_average():.1f} on {usable_cores()} core(s))…")
        with _Ticker(lambda: say(f"starting {what}… ({time.monotonic() - started:.0f} s, {ready[0]} of {count} ready)"),
                     every if progress else 0):
            for server in servers:
                for attempt in range(1, max(0, retries) + 2):
                    try:
                        server.wait_healthy(limit)
                        break
                    except ServerStartError as exc:
                        if attempt > max(0, retries):
                            raise
                        say(f"a private server did not start ({str(exc).splitlines()[0]}); starting it again "
                            f"(attempt {attempt + 1} of {retries + 1})")
                        server.start()
                ready[0] += 1
        say(f"{what} ready ({time.monotonic() - started:.0f} s)")
        yield servers
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.stop()


class _Ticker:
    """Calls ``tick`` every ``every`` seconds from a thread while the block runs (never when ``every`` is 0)."""

    def __init__(self, tick: Callable[[], None], every: float):
        self.tick = tick
        self.every = every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.tick()

    def __enter__(self) -> "_Ticker":
        if self.every > 0:
            self._thread = threading.Thread(target=self._run, name="officesim-start-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


@atexit.register
def _stop_leftovers() -> None:
    """Servers started without their context ending (e.g. ``start()`` alone) do not outlive the interpreter."""
    with _live_lock:
        leftovers = list(_live)
    for server in leftovers:
        server.stop()
