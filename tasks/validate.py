"""The task validator: proves, task by task and through the real HTTP API, that the ground truth holds.

For every task: the gold solution passes with no side effects and no failing action; finishing at
once fails (unless ``no_action``); every ``wrong`` solution fails. Solutions get
``finish_task(answer)`` appended when they do not end with it. Without a server URL, a server is
started in a background thread on a free local port, so the check covers routes, sessions, the
state machine and the evaluation exactly as agents meet them.
"""

from __future__ import annotations

import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, TextIO

from server.client import OfficeClient, OfficeError
from server.session import DEFAULT_MAX_STEPS, gold_actions
from tasks.model import Task


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

    from server.app import create_app
    from server.manager import ServerSettings

    settings = ServerSettings(token=token, max_sessions=10_000)
    app = create_app(settings=settings, tasks=tasks)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on"))
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
    return report


def validate_tasks(tasks: dict[str, Task], *, workers: int = 4, server_url: str | None = None,
                   token: str | None = None) -> list[TaskReport]:
    """Check every task (in parallel); reports in task-id order."""
    ordered = [tasks[k] for k in sorted(tasks)]

    def run(url: str) -> list[TaskReport]:
        with OfficeClient(url, token=token) as client:
            with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
                return list(pool.map(lambda t: check_task(client, t), ordered))

    if server_url:
        return run(server_url)
    with local_server(tasks, token=token) as url:
        return run(url)


def main(task_dirs: list[str] | None = None, task_ids: list[str] | None = None, workers: int = 4,
         server_url: str | None = None, token: str | None = None, include_suite: bool = True,
         out: TextIO | None = None) -> int:
    """Validate and print one line per failing task and a summary; 0 when every task holds."""
    from tasks.loader import TaskLoadError, load_tasks

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
    reports = validate_tasks(tasks, workers=workers, server_url=server_url, token=token)
    failed = [r for r in reports if not r.ok]
    for report in failed:
        print(f"FAIL {report.task_id}: " + " | ".join(report.problems), file=out)
    elapsed = time.monotonic() - started
    print(f"validated {len(reports)} task(s): {len(reports) - len(failed)} ok, {len(failed)} failing "
          f"({elapsed:.1f}s)", file=out)
    return 1 if failed else 0
