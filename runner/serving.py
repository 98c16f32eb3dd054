"""``officesim serve`` on several processes: N complete servers on private Unix sockets, the router
(server/router.py) on the public port.

The processes are started through the one harness (runner/localserver.py), each as
``officesim serve --uds SOCKET --process-index I --processes 1``, and the router listens once the
first (which holds ``/mcp``) answers /health, so a client that sees /health answered can use the
server; requests go to each other process from when it answers too. Each process
holds its share of the session cap (ServerSettings.session_cap: the shares add up to the cap, and
the router moves a creation on to the next process when one is full) and of the kept workers (unless
``OFFICESIM_WORKERS`` says how many per process), and its own sessions directory (``process-I`` under
``OFFICESIM_SESSIONS_DIR``, or under a private temporary directory).

A process that dies is started again: its sessions are lost (the router answers them ``session_lost``
while it is down) and its offices removed; the others go on, and new sessions go to the live processes.
SIGTERM or SIGINT stop the router and then the processes, which stop within seconds whatever they run
(runner/cli.py); the processes also stop by themselves when this one is gone, even after kill -9.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from officesim.runner.localserver import LocalServer, watch_parent
from officesim.server.cores import usable_cores

if TYPE_CHECKING:
    from officesim.server.router import Router

RESTART_PAUSE_S = 1.0  # between a process's death and its restart, so a process that cannot start does not spin


def processes_wanted(requested: int | None) -> int:
    """``--processes``, else ``OFFICESIM_PROCESSES``, else one per usable core; 0 means that too."""
    if requested is None and os.environ.get("OFFICESIM_PROCESSES"):
        requested = int(os.environ["OFFICESIM_PROCESSES"])
    if not requested:
        requested = usable_cores()
    return max(1, min(256, requested))


def serve_processes(*, processes: int, host: str, port: int, task_dirs: list[str], include_suite: bool,
                    idle_timeout: float | None, max_sessions: int | None, workers: int | None,
                    log_level: str) -> int:
    """Run the router and ``processes`` server processes until SIGTERM/SIGINT; the exit code."""
    per_process_workers = workers or (int(os.environ["OFFICESIM_WORKERS"]) if os.environ.get("OFFICESIM_WORKERS")
                                      else max(1, usable_cores() // processes))
    sockets_dir = Path(tempfile.mkdtemp(prefix="officesim-serve-"))  # 0700: only this user reaches the processes
    # every process keeps its offices in a directory of its own, known here, so that the offices of a
    # process that died are removed before it starts again, and all of them when the server stops
    sessions_root = Path(os.environ.get("OFFICESIM_SESSIONS_DIR") or sockets_dir / "sessions")
    _raise_open_files()

    def make(index: int) -> LocalServer:
        env = {"OFFICESIM_WORKERS": str(per_process_workers),
               "OFFICESIM_SESSIONS_DIR": str(sessions_dir(sessions_root, index))}
        return LocalServer([Path(d) for d in task_dirs], env=env, include_suite=include_suite, token="",
                           max_sessions=max_sessions, log_level=log_level, uds=str(sockets_dir / f"{index}.sock"),
                           process_index=index, process_count=processes, idle_timeout=idle_timeout,
                           show_output=True)

    servers = [make(i) for i in range(processes)]
    stopping = threading.Event()
    try:
        for server in servers:
            server.start()
        try:  # process 0 holds /mcp: the router listens once it answers, the others join when they do
            servers[0].wait_healthy(servers[0].health_limit(servers=processes))
        except RuntimeError as exc:
            print(f"officesim serve: server process 0 did not start: {exc}", file=sys.stderr)
            return 2
        from officesim.server.router import MAX_CONNECTIONS, Router  # after the processes started: they need the cores

        router = Router([s.uds for s in servers], token=os.environ.get("OFFICESIM_TOKEN") or None,
                        max_connections=int(os.environ.get("OFFICESIM_MAX_CONNECTIONS") or MAX_CONNECTIONS))
        for index in range(1, processes):
            router.mark_starting(index)
        threading.Thread(target=_join_when_healthy, args=(servers, router, processes, stopping, make, sessions_root),
                         name="officesim-starting", daemon=True).start()
        _run_router(router, host, port, processes, log_level, stopping)
        return 0
    finally:
        stopping.set()
        for server in servers:
            server.terminate()
        for server in servers:
            server.stop()
        for index in range(processes):
            shutil.rmtree(sessions_dir(sessions_root, index), ignore_errors=True)
        shutil.rmtree(sockets_dir, ignore_errors=True)


def sessions_dir(root: Path, index: int) -> Path:
    """Where process ``index`` keeps its offices."""
    return root / f"process-{index}"


def _raise_open_files() -> None:
    """The router holds a descriptor per client connection and per connection to a process: take the
    hard limit of open files (the router's connection cap, server/router.py, stays below the default)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 1 << 16), hard))
        except (ValueError, OSError):
            pass


def _join_when_healthy(servers: list[LocalServer], router: Router, processes: int, stopping: threading.Event,
                       make, sessions_root: Path) -> None:
    """Send requests to each process past the first once it answers /health; then watch them all
    (``_keep_alive``). A process that does not start is started again by the watch."""
    for index, server in enumerate(servers[1:], start=1):
        try:
            server.wait_healthy(server.health_limit(servers=processes))
        except RuntimeError as exc:
            if not stopping.is_set():
                print(f"officesim serve: server process {index} did not start: {exc}; starting it again",
                      file=sys.stderr)
            continue
        router.mark_up(index)
    _keep_alive(servers, make, stopping, sessions_root, router)


def _keep_alive(servers: list[LocalServer], make, stopping: threading.Event, sessions_root: Path,
                router: Router) -> None:
    """Start again any process that died (while the server is not stopping); the router passes it over
    until it answers again."""
    while not stopping.wait(0.5):
        for i, server in enumerate(servers):
            if server.running or stopping.is_set():
                continue
            print(f"officesim serve: server process {i} exited (code {server.proc.returncode}); starting it again",
                  file=sys.stderr)
            server.stop()
            # its sessions are lost (the router answers session_lost for them meanwhile): their offices go
            shutil.rmtree(sessions_dir(sessions_root, i), ignore_errors=True)
            router.mark_starting(i)
            time.sleep(RESTART_PAUSE_S)
            fresh = make(i)
            fresh.start()
            try:
                fresh.wait_healthy()
                router.mark_up(i)
            except RuntimeError as exc:
                print(f"officesim serve: server process {i} did not start again: {exc}", file=sys.stderr)
            servers[i] = fresh


def _run_router(router: Router, host: str, port: int, processes: int, log_level: str,
                stopping: threading.Event) -> None:
    try:
        import uvloop
        loop = uvloop.new_event_loop()
    except ImportError:  # uvloop is optional (not on Windows)
        loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    stop = asyncio.Event()

    def on_signal() -> None:  # Ctrl-C reaches the server processes too: none is started again
        stopping.set()
        stop.set()

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, on_signal)
    watch_parent()  # its SIGTERM reaches the handler above

    def ready() -> None:  # whatever the log level: where it listens is what a user needs first
        print(f"officesim serving on http://{host}:{port} with {processes} server processes", file=sys.stderr,
              flush=True)

    try:
        loop.run_until_complete(router.serve(host, port, stop, ready))
    finally:
        loop.close()

