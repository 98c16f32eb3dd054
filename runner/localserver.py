"""Start a private officesim server in the background on a free local port (for ``eval`` without --server)."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LocalServer:
    """A server subprocess bound to 127.0.0.1 with a random token; a context manager."""

    def __init__(self, task_dirs: list[Path] | None = None, env: dict | None = None, include_suite: bool = True):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.token = secrets.token_urlsafe(16)
        self.task_dirs = [str(d) for d in task_dirs or []]
        self.env = env or {}
        self.include_suite = include_suite
        self.proc: subprocess.Popen | None = None

    def start(self) -> "LocalServer":
        """Launch the process without waiting for it (several can then start side by side)."""
        cmd = [sys.executable, "-c", "from runner.cli import main; main()", "serve",
               "--host", "127.0.0.1", "--port", str(self.port)]
        for d in self.task_dirs:
            cmd += ["--tasks", d]
        if not self.include_suite:
            cmd.append("--no-suite")
        env = {**os.environ, **self.env, "OFFICESIM_TOKEN": self.token}
        self.proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        return self

    def __enter__(self) -> "LocalServer":
        self.start()
        self._wait_healthy()
        return self

    def _wait_healthy(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace")[-2000:]
                raise RuntimeError(f"the officesim server exited at start:\n{err}")
            try:
                if httpx.get(f"{self.url}/health", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.__exit__(None, None, None)
        raise RuntimeError(f"the officesim server did not become healthy within {timeout:.0f} s")

    def __exit__(self, *exc) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@contextmanager
def local_servers(count: int, task_dirs: list[Path] | None = None, include_suite: bool = True) -> Iterator[list[LocalServer]]:
    """``count`` private servers started side by side.

    One server runs its Python work under one interpreter lock, so on a machine with several cores
    the runner spreads episodes over one server process per core.
    """
    servers = [LocalServer(task_dirs, include_suite=include_suite) for _ in range(max(1, count))]
    try:
        for server in servers:
            server.start()
        for server in servers:
            server._wait_healthy()
        yield servers
    finally:
        for server in servers:
            server.__exit__(None, None, None)
