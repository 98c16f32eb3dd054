"""The task validator: proves, task by task and through the real HTTP API, that the ground truth holds.

For every task: the gold solution passes with no side effects and no failing action; finishing at
once fails (unless ``no_action``); every ``wrong`` solution fails. Solutions are played by the one
gold player (``tasks/gold.py``), which appends ``finish_task(answer)`` when they do not end with it.
Without a server URL, private servers are started by the one local-server harness
(``runner/localserver.py``): one for a few tasks, for many one process per core (one Python process
runs its operations on one core at a time). The check covers routes, sessions, the state machine
and the evaluation exactly as agents meet them.
"""

from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import httpx

from officesim.runner.localserver import local_servers
from officesim.server.client import OfficeClient, OfficeError
from officesim.server.session import DEFAULT_MAX_STEPS
from officesim.tasks.gold import gold_actions, play_gold
from officesim.tasks.model import Task

MAX_SESSIONS = 10_000  # the validator's private servers hold as many sessions as its workers open


@dataclass
class TaskReport:
    task_id: str
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


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
    responses: list[dict] = []

    def step(app: str, action: str, args: dict) -> dict:
        responses.append(client.act(sid, app, action, args))
        return responses[-1]

    try:
        failures = [str(f) for f in play_gold(steps, answer, step)]
        last = responses[-1] if responses else {}
        evaluation = last.get("evaluation") or client.get_session(sid).get("evaluation") or {}
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


def validate_tasks(tasks: dict[str, Task], *, servers: list[tuple[str, str | None]], workers: int = 4
                   ) -> list[TaskReport]:
    """Check every task (in parallel) on the given ``[(url, token)]`` servers; task i goes to server
    i mod n; reports in task-id order."""
    ordered = [tasks[k] for k in sorted(tasks)]
    clients = [OfficeClient(url, token=token) for url, token in servers]
    try:
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            jobs = [pool.submit(check_task, clients[i % len(clients)], t) for i, t in enumerate(ordered)]
            return [job.result() for job in jobs]
    finally:
        for client in clients:
            client.close()


def default_servers(task_count: int) -> int:
    """One private server for a few tasks; one process per core (up to 4) for many."""
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
    else:
        with local_servers(count, [Path(d) for d in task_dirs or []], include_suite,
                           max_sessions=MAX_SESSIONS) as local:
            reports = validate_tasks(tasks, workers=workers, servers=[(s.url, s.token) for s in local])
    failed = [r for r in reports if not r.ok]
    for report in failed:
        print(f"FAIL {report.task_id}: " + " | ".join(report.problems), file=out)
    elapsed = time.monotonic() - started
    print(f"validated {len(reports)} task(s): {len(reports) - len(failed)} ok, {len(failed)} failing "
          f"({elapsed:.1f}s)", file=out)
    return 1 if failed else 0
