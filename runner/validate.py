"""The task validator: proves, task by task and through the real HTTP API, that the ground truth holds.

For every task: the gold solution passes with no side effects and no failing action; finishing at
once fails (unless ``no_action``); every ``wrong`` solution fails. Solutions get
``finish_task(answer)`` appended when they do not end with it. Without a server URL, local servers
are started on free ports (one in a background thread for a few tasks; for many, one child process
per core, since one Python process runs its operations on one core at a time), so the check covers
routes, sessions, the state machine and the evaluation exactly as agents meet them.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, TextIO

import httpx

from officesim.server.client import OfficeClient, OfficeError
from officesim.server.session import DEFAULT_MAX_STEPS, gold_actions
from officesim.tasks.model import Task


@dataclass
class TaskReport:
    task_id: str
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@contextmanager
def local_server(tasks: dict[str, Task], token: str | None = None) -> Iterator[str]:
    """Serve ``tasks`` with uvicorn on a free 127.0.0.1 port in a thread; yields the base URL."""
    import uvicorn

    from officesim.server.app import KEEP_ALIVE_S, create_app
    from officesim.server.manager import ServerSettings

    settings = ServerSettings(token=token, max_sessions=10_000)
    app = create_app(settings=settings, tasks=tasks)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                                           timeout_keep_alive=KEEP_ALIVE_S))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="officesim-validate", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the local officesim server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def _failing(evaluation: dict) -> str:
    bad = [f"{c.get('check')}: {c.get('message')}" for c in evaluation.get("checks", []) if not c.get("passed")]
    if evaluation.get("error"):
        bad.append(str(evaluation["error"]))
    return "; ".join(bad) or "no failing check"


def play(client: OfficeClient, task: Task, actions: list[Any], answer: Any) -> tuple[dict, list[str]]:
    """Play a solution in a fresh session; returns the evaluation and the failed actions."""
    steps = gold_actions(actions, answer)
    created = client.create_session(task.id, "switch_app", max(DEFAULT_MAX_STEPS, len(steps) + 1))
    sid = created["session_id"]
    failures: list[str] = []
    try:
        result: dict = {}
        for i, act in enumerate(steps, 1):
            result = client.act(sid, act.get("app"), act.get("action"), act.get("args") or {})
            if not result["ok"]:
                failures.append(f"action {i} {act.get('app')}.{act.get('action')}: {result['observation']}")
            if result["done"] and i < len(steps):
                failures.append(f"session ended ({result['status']}) after action {i} of {len(steps)}")
                break
        evaluation = result.get("evaluation") or client.get_session(sid).get("evaluation") or {}
        return evaluation, failures
    finally:
        try:
            client.delete(sid)
        except OfficeError:
            pass


def check_task(client: OfficeClient, task: Task) -> TaskReport:
    """Every rule for one task; the report lists each violation as one phrase."""
    report = TaskReport(task.id)
    problems = report.problems
    try:
        gold, failures = play(client, task, task.gold, task.answer)
        if not gold.get("passed"):
            problems.append(f"gold fails ({_failing(gold)})")
        if gold.get("status") not in (None, "finished"):
            problems.append(f"gold ends with status '{gold.get('status')}'")
        if failures:
            problems.append("gold action failed (" + "; ".join(failures) + ")")
        if gold.get("side_effects"):
            problems.append("gold has side effects (" + "; ".join(gold["side_effects"]) + ")")
        if not task.no_action:
            noop, _ = play(client, task, [], None)
            if noop.get("passed"):
                problems.append(f"doing nothing passes (all {len(noop.get('checks', []))} checks pass)")
        for wrong in task.wrong:
            result, _ = play(client, task, wrong.actions, wrong.answer)
            if result.get("passed"):
                problems.append(f"wrong solution '{wrong.name}' passes")
    except OfficeError as exc:
        problems.append(f"API error: {exc}")
    except httpx.HTTPError as exc:  # the server went away or the connection broke: this task is unproven
        problems.append(f"connection error: {type(exc).__name__}: {exc}")
    return report


@contextmanager
def server_processes(count: int, task_dirs: list[str], include_suite: bool) -> Iterator[list[tuple[str, str]]]:
    """``count`` servers in child processes (one interpreter each, so they use every core).

    Yields ``[(url, token)]``; each server loads the same task directories and gets a random token.
    """
    procs: list[subprocess.Popen] = []
    servers: list[tuple[str, str]] = []
    try:
        for _ in range(count):
            port, token = _free_port(), secrets.token_urlsafe(16)
            cmd = [sys.executable, "-m", "officesim.runner.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                   "--log-level", "warning", "--max-sessions", "10000"]
            for d in task_dirs:
                cmd += ["--tasks", str(d)]
            if not include_suite:
                cmd.append("--no-suite")
            env = {**os.environ, "OFFICESIM_TOKEN": token}
            root = str(Path(__file__).resolve().parent.parent)
            env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
            procs.append(subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
            servers.append((f"http://127.0.0.1:{port}", token))
        for proc, (url, token) in zip(procs, servers):
            _wait_healthy(proc, url)
        yield servers
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_healthy(proc: subprocess.Popen, url: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    with OfficeClient(url) as probe:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                err = proc.stderr.read().decode(errors="replace")[-2000:] if proc.stderr else ""
                raise RuntimeError(f"a validation server exited at start:\n{err}")
            try:
                probe.health()
                return
            except (OfficeError, httpx.HTTPError):
                time.sleep(0.05)
    raise RuntimeError(f"a validation server did not answer within {timeout:.0f} s")


def validate_tasks(tasks: dict[str, Task], *, workers: int = 4, servers: list[tuple[str, str | None]] | None = None
                   ) -> list[TaskReport]:
    """Check every task (in parallel); task i goes to server i mod n; reports in task-id order.

    Without ``servers``, one server runs in a background thread of this process.
    """
    ordered = [tasks[k] for k in sorted(tasks)]
    if not servers:
        with local_server(tasks) as url:
            return validate_tasks(tasks, workers=workers, servers=[(url, None)])
    clients = [OfficeClient(url, token=token) for url, token in servers]
    try:
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            jobs = [pool.submit(check_task, clients[i % len(clients)], t) for i, t in enumerate(ordered)]
            return [job.result() for job in jobs]
    finally:
        for client in clients:
            client.close()


def default_servers(task_count: int) -> int:
    """One in-process server for a few tasks; one process per core (up to 4) for many."""
    return 1 if task_count <= 20 else max(1, min(os.cpu_count() or 1, 4))


def main(task_dirs: list[str] | None = None, task_ids: list[str] | None = None, workers: int = 4,
         server_url: str | None = None, token: str | None = None, include_suite: bool = True,
         out: TextIO | None = None, servers: int | None = None) -> int:
    """Validate and print one line per failing task and a summary; 0 when every task holds."""
    from officesim.tasks.loader import TaskLoadError, load_tasks

    out = out or sys.stdout
    started = time.monotonic()
    try:
        tasks = load_tasks([Path(d) for d in task_dirs or []], include_suite=include_suite)
    except TaskLoadError as exc:
        for problem in exc.problems:
            print(f"LOAD {problem}", file=out)
        print(f"{len(exc.problems)} task file problem(s); nothing validated", file=out)
        return 2
    if task_ids:
        missing = [t for t in task_ids if t not in tasks]
        if missing:
            print(f"unknown task id(s): {', '.join(missing)}", file=out)
            return 2
        tasks = {t: tasks[t] for t in task_ids}
    if not tasks:
        print("no tasks to validate", file=out)
        return 2
    count = servers or default_servers(len(tasks))
    if server_url:
        reports = validate_tasks(tasks, workers=workers, servers=[(server_url, token)])
    elif count > 1:
        with server_processes(count, list(task_dirs or []), include_suite) as urls:
            reports = validate_tasks(tasks, workers=workers, servers=urls)
    else:
        reports = validate_tasks(tasks, workers=workers)
    failed = [r for r in reports if not r.ok]
    for report in failed:
        print(f"FAIL {report.task_id}: " + " | ".join(report.problems), file=out)
    elapsed = time.monotonic() - started
    print(f"validated {len(reports)} task(s): {len(reports) - len(failed)} ok, {len(failed)} failing "
          f"({elapsed:.1f}s)", file=out)
    return 1 if failed else 0
