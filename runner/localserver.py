"""Private officesim servers on free local ports: the one harness for ``eval`` and ``validate``
without --server (and for tests and benchmarks that need a live server).

Each server is a child process (``python -m officesim.runner.cli serve``) bound to 127.0.0.1 with
a random token; it is ready when ``/health`` answers, and it is stopped (terminate, then kill) when
its context ends, normally or by an exception, and at interpreter exit as a last resort. A server
also stops by itself when the process that started it dies (a pipe it watches reaches end of file),
so not even ``kill -9`` of ``eval`` leaves servers behind.
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
from typing import Iterator

import httpx

HEALTH_TIMEOUT_S = 120.0  # how long a starting server may take to answer /health
STOP_TIMEOUT_S = 10.0  # how long a terminated server may take to exit before it is killed
PORT_ATTEMPTS = 3  # starts on a fresh port when another process took the chosen one meanwhile

PARENT_FD_ENV = "OFFICESIM_PARENT_FD"  # the read end of the pipe a server watches (runner/cli.py)

_live: set["LocalServer"] = set()
_live_lock = threading.Lock()


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
                 idle_timeout: float | None = None, show_output: bool = False):
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
        if not self.include_suite:
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

    def wait_healthy(self, timeout: float = HEALTH_TIMEOUT_S) -> None:
        """Wait until /health answers; a server that exits at start or never answers raises (and is stopped)."""
        attempts = 1
        deadline = time.monotonic() + timeout
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
                raise RuntimeError(f"the officesim server exited at start:\n{err}")
            try:
                if self.healthy():
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the officesim server did not become healthy within {timeout:.0f} s")

    def healthy(self) -> bool:
        transport = httpx.HTTPTransport(uds=self.uds) if self.uds else None
        with httpx.Client(transport=transport, timeout=1.0) as client:
            return client.get(f"{self.url}/health").status_code == 200

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
                  max_sessions: int | None = None) -> Iterator[list[LocalServer]]:
    """``count`` private servers started side by side; all are stopped when the block ends, however.

    One server runs its Python work under one interpreter lock, so on a machine with several cores
    the runner and the validator spread their work over one server process per core.
    """
    servers = [LocalServer(task_dirs, include_suite=include_suite, max_sessions=max_sessions)
               for _ in range(max(1, count))]
    try:
        for server in servers:
            server.start()
        for server in servers:
            server.wait_healthy()
        yield servers
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.stop()


@atexit.register
def _stop_leftovers() -> None:
    """Servers started without their context ending (e.g. ``start()`` alone) do not outlive the interpreter."""
    with _live_lock:
        leftovers = list(_live)
    for server in leftovers:
        server.stop()
