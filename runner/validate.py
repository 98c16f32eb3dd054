"""The task validator: proves, task by task and through the real HTTP API, that the ground truth holds.

For every task: the gold solution passes with no side effects and no failing action; finishing at
once fails (unless ``no_action``); every ``wrong`` solution fails and every ``right`` one passes.
With ``mutants`` it also derives the task's mutants from its gold solution (``runner/mutants/``)
and plays each: every wrong mutant must fail and every right mutant must pass.

Solutions are played by the one gold player (``tasks/gold.py``), which appends
``finish_task(answer)`` when they do not end with it. Without a server URL, private servers are
started by the one local-server harness (``runner/localserver.py``): one for a few tasks, for many
one process per core. All the sessions of a task go to the same server, so its template and its
gold replay are made once; mutants are derived while the first sessions play, and each task's are
played as soon as they are derived, together, so that its report comes as soon as it can. The check covers routes, sessions, the state machine and the evaluation exactly as
agents meet them.

A play whose call timed out on the client side (a loaded machine, a world's first build or grading)
says nothing of the task: it is played again in a new session, waiting twice as long each time (at most
``TIMEOUT_ATTEMPTS`` plays), and the output says so (``RETRIED`` lines, the count in the last line);
only then is a mutant called "could not be played". A broken connection is played again once.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TextIO

import httpx

from officesim.runner.localserver import ServerStartError, local_servers
from officesim.runner.derive import derive
from officesim.runner.mutants import AUTHORED, CLASSES, RIGHT, WRONG, Mutant, authored, not_applicable, sample
from officesim.server.client import OfficeClient, OfficeError
from officesim.tasks.gold import gold_actions, play_gold
from officesim.tasks.model import Task

MAX_SESSIONS = 10_000  # the validator's private servers hold as many sessions as its workers open
MIN_WRONG, MIN_RIGHT = 8, 3  # a task with fewer applicable mutants (derived + authored) is listed
SERVER_START_RETRIES = 1  # a private server that does not start is started again this often


@dataclass
class MutantResult:
    """How one mutant (or authored solution) was graded; ``passed`` None when it could not be played;
    ``retries`` says why it was played again, once per extra play."""

    mutant: Mutant
    passed: bool | None
    said: str
    retries: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.passed is (self.mutant.kind == RIGHT)


@dataclass
class TaskReport:
    task_id: str
    problems: list[str] = field(default_factory=list)
    mutants: list[MutantResult] = field(default_factory=list)
    not_applicable: list[str] = field(default_factory=list)
    gold_passed: bool = True
    retries: list[str] = field(default_factory=list)  # why the gold or no-op play was played again

    def all_retries(self) -> list[str]:
        """Every extra play of this task (gold, no-op, mutants), each as ``what: why``."""
        return self.retries + [f"{r.mutant.kind} {r.mutant.cls}:{r.mutant.name}: {why}"
                               for r in self.mutants for why in r.retries]

    @property
    def ok(self) -> bool:
        return not self.problems and all(r.ok for r in self.mutants)

    def count(self, kind: str) -> tuple[int, int]:
        """(mutants of this kind, graded as they should be)."""
        mine = [r for r in self.mutants if r.mutant.kind == kind]
        return len(mine), sum(1 for r in mine if r.ok)


def _failing(evaluation: dict) -> str:
    bad = [f"{c.get('check')}: {c.get('message')}" for c in evaluation.get("checks", []) if not c.get("passed")]
    if evaluation.get("error"):
        bad.append(str(evaluation["error"]))
    return "; ".join(bad) or "no failing check"


def grade_said(evaluation: dict, failures: list[str] = ()) -> str:
    """What a grade said, in one line: the verdict, the failed checks, the side effects."""
    checks = evaluation.get("checks", [])
    good = sum(1 for c in checks if c.get("passed"))
    if evaluation.get("passed"):
        return f"passed ({good}/{len(checks)} checks, no side effect)"
    parts = [f"failed ({good}/{len(checks)} checks)"]
    bad = [f"{c.get('check')}: {c.get('message')}" for c in checks if not c.get("passed")]
    parts += bad
    effects = evaluation.get("side_effects") or []
    if effects:
        parts.append("side effects: " + "; ".join(effects))
    if evaluation.get("error"):
        parts.append(str(evaluation["error"]))
    if failures:
        parts.append("actions failed: " + "; ".join(failures))
    return " | ".join(parts)


def play(client: OfficeClient, task: Task, actions: list[Any], answer: Any) -> tuple[dict, list[str]]:
    """Play a solution in a fresh session; returns the evaluation and the failed actions."""
    steps = gold_actions(actions, answer)
    created = client.create_session(task.id, "switch_app", max(task.step_budget, len(steps) + 1))
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
        except (OfficeError, httpx.HTTPError):  # cleanup only: the play's own outcome (or error) stands
            pass


CONNECTION_ATTEMPTS = 2  # a play whose connection broke is played once more, in a new session
TIMEOUT_ATTEMPTS = 3  # a play whose call timed out is played again, waiting twice as long each time


def _call_of(exc: httpx.HTTPError) -> str:
    """The request an httpx error happened on, and the read timeout in force: ``POST /sessions/x/actions, 120 s``."""
    try:
        request = exc.request
    except RuntimeError:
        return "a request"
    read = (request.extensions.get("timeout") or {}).get("read")
    return f"{request.method} {request.url.path}" + (f", {read:g} s" if isinstance(read, (int, float)) else "")


def play_retrying(client: OfficeClient, task: Task, actions: list[Any], answer: Any,
                  retries: list[str]) -> tuple[dict, list[str]]:
    """``play``, played again in a new session when a call timed out on the client side (up to
    ``TIMEOUT_ATTEMPTS`` plays, each waiting twice as long as the one before) or the connection broke
    (once); each extra play adds a line to ``retries``. The last failure is raised."""
    timeouts = broken = 0
    factor = 1.0
    while True:
        try:
            return play(client if factor == 1.0 else client.with_timeouts(factor), task, actions, answer)
        except httpx.TimeoutException as exc:
            timeouts += 1
            if timeouts >= TIMEOUT_ATTEMPTS:
                raise
            retries.append(f"client timeout ({type(exc).__name__} on {_call_of(exc)}); played again waiting "
                           f"{factor * 2:g}x as long")
            factor *= 2
        except httpx.TransportError as exc:
            broken += 1
            if broken >= CONNECTION_ATTEMPTS:
                raise
            retries.append(f"connection broke ({type(exc).__name__} on {_call_of(exc)}); played again")


def play_mutant(client: OfficeClient, task: Task, mutant: Mutant) -> MutantResult:
    """Play one mutant; an API error, a call that times out or a connection that breaks after the
    plays ``play_retrying`` allows, or a grading that failed (a check crashed) leaves it ungraded (and so
    not as it should be: a crash of the grader never counts as a kill). A timeout or a
    broken connection says nothing about the grade, and every play is a session of its own, so it is
    played again."""
    retries: list[str] = []
    try:
        evaluation, failures = play_retrying(client, task, mutant.actions, mutant.answer, retries)
    except OfficeError as exc:
        return MutantResult(mutant, None, f"API error: {exc}", retries)
    except httpx.TimeoutException as exc:
        return MutantResult(mutant, None, f"client timeout {TIMEOUT_ATTEMPTS} times, the last {type(exc).__name__} on "
                                          f"{_call_of(exc)}", retries)
    except httpx.TransportError as exc:
        return MutantResult(mutant, None, f"connection error: {type(exc).__name__}: {exc}", retries)
    if "error" in (evaluation.get("failed") or []):  # the grader could not grade it: not a kill, not a pass
        return MutantResult(mutant, None, f"not graded: {evaluation.get('error')}", retries)
    return MutantResult(mutant, bool(evaluation.get("passed")), grade_said(evaluation, failures), retries)


def check_task(client: OfficeClient, task: Task) -> TaskReport:
    """Every rule for one task's gold, no-op and authored solutions; each violation is one phrase."""
    report = TaskReport(task.id)
    problems = report.problems
    try:
        gold, failures = play_retrying(client, task, task.gold, task.answer, report.retries)
        if not gold.get("passed"):
            problems.append(f"gold fails ({_failing(gold)})")
        if gold.get("status") not in (None, "finished"):
            problems.append(f"gold ends with status '{gold.get('status')}'")
        if failures:
            problems.append("gold action failed (" + "; ".join(failures) + ")")
        if gold.get("side_effects"):
            problems.append("gold has side effects (" + "; ".join(gold["side_effects"]) + ")")
        report.gold_passed = not problems
        if not task.no_action:
            noop, _ = play_retrying(client, task, [], None, report.retries)
            if noop.get("passed"):
                problems.append(f"doing nothing passes (all {len(noop.get('checks', []))} checks pass)")
        for sol in authored(task):
            result = play_mutant(client, task, sol)
            report.mutants.append(result)
            if result.passed is None:
                problems.append(f"{sol.kind} solution '{sol.name}': {result.said}")
            elif sol.kind == WRONG and result.passed:
                problems.append(f"wrong solution '{sol.name}' passes")
            elif sol.kind == RIGHT and not result.passed:
                problems.append(f"right solution '{sol.name}' fails ({result.said})")
    except OfficeError as exc:
        problems.append(f"API error: {exc}")
        report.gold_passed = False
    except httpx.TimeoutException as exc:  # after TIMEOUT_ATTEMPTS plays: this task is unproven
        problems.append(f"client timeout {TIMEOUT_ATTEMPTS} times, the last {type(exc).__name__} on {_call_of(exc)}")
        report.gold_passed = False
    except httpx.HTTPError as exc:  # the server went away or the connection broke: this task is unproven
        problems.append(f"connection error: {type(exc).__name__}: {exc}")
        report.gold_passed = False
    return report


def initial_office(task: Task) -> dict[str, dict]:
    """The task's parsed initial office, from its cached template (built when missing)."""
    from officesim.testbed.materialise import template_for
    from officesim.testbed.parse import parse_office

    return parse_office(template_for(task), task.timezone)


def validate_tasks(tasks: dict[str, Task], *, servers: list[tuple[str, str | None]], workers: int = 4,
                   mutants: bool = False, sample_size: int | None = None,
                   on_report: Callable[[TaskReport], None] | None = None) -> list[TaskReport]:
    """Check every task (in parallel) on the given ``[(url, token)]`` servers; task i goes to server
    i mod n; reports in task-id order. With ``mutants``, each task's derived mutants are played too (at
    most ``sample_size`` of each class per task, when given: ``mutants.sample``). ``on_report`` is
    called with each task's report as soon as all its sessions are done, so a long run shows progress
    and a cut-off run still leaves what it found."""
    ordered = [tasks[k] for k in sorted(tasks)]
    clients = [OfficeClient(url, token=token) for url, token in servers]
    try:
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            jobs = {t.id: pool.submit(check_task, clients[i % len(clients)], t) for i, t in enumerate(ordered)}
            derived: dict[str, list[Future]] = {t.id: [] for t in ordered}
            absent: dict[str, list[str]] = {}
            broken: dict[str, str] = {}
            reports: dict[str, TaskReport] = {}
            settled = threading.Condition()

            def assemble(task: Task) -> TaskReport:
                report = jobs[task.id].result()
                report.not_applicable = absent.get(task.id, [])
                if task.id in broken:
                    report.problems.append(broken[task.id])
                results = [f.result() for f in derived[task.id]]
                if report.gold_passed:  # against a failing gold a mutant's grade means nothing
                    report.mutants += results
                elif results:
                    report.problems.append(f"{len(results)} mutant(s) not judged: the gold does not pass")
                return report

            def watch(task: Task) -> None:
                """Report ``task`` once its check and all its mutants are done (from whichever thread
                finishes the last of them; at once when they already are)."""
                futures = [jobs[task.id], *derived[task.id]]
                left = [len(futures)]

                def one_done(_future: Future) -> None:
                    with settled:
                        left[0] -= 1
                        if left[0]:
                            return
                        try:
                            reports[task.id] = assemble(task)
                        except Exception as exc:  # a callback's error would otherwise be lost
                            reports[task.id] = TaskReport(task.id, [f"could not be validated: {type(exc).__name__}: {exc}"])
                        if on_report is not None:
                            on_report(reports[task.id])
                        settled.notify_all()

                for future in futures:
                    future.add_done_callback(one_done)

            for i, task in enumerate(ordered):
                if mutants:  # derived here while the first sessions play
                    try:
                        found = sample(derive(task, initial_office(task)), sample_size)
                    except Exception as exc:  # a deriver bug must not hide the other tasks' results
                        broken[task.id] = f"mutants could not be derived: {type(exc).__name__}: {exc}"
                        found = []
                    else:
                        absent[task.id] = not_applicable(found)
                    # played as soon as derived, a task's mutants together (its report comes as soon as
                    # it can), the longest first
                    for mutant in sorted(found, key=lambda m: -len(m.actions)):
                        derived[task.id].append(pool.submit(play_mutant, clients[i % len(clients)], task, mutant))
                watch(task)
            with settled:  # every task reported (a future is done a moment before its callbacks run)
                settled.wait_for(lambda: len(reports) == len(ordered))
            return [reports[t.id] for t in ordered]
    finally:
        for client in clients:
            client.close()


def _graded_wrongly(res: MutantResult) -> str:
    """What went wrong with a mutant: it could not be played, a wrong one passed, a right one failed."""
    return "UNGRADED" if res.passed is None else "SURVIVED" if res.mutant.kind == WRONG else "REJECTED"


def progress_line(report: TaskReport, done: int, total: int) -> str:
    """One line for a finished task: ``[done/total] id ok|FAIL`` with its mutant counts and what went
    wrong (survivors and rejected right mutants by name)."""
    w, k = report.count(WRONG)
    n, p = report.count(RIGHT)
    line = f"[{done}/{total}] {report.task_id} {'ok' if report.ok else 'FAIL'}"
    if report.mutants:
        line += f" (wrong {k}/{w} killed, right {p}/{n} passed)"
    retried = report.all_retries()
    if retried:
        line += f" [{len(retried)} play(s) retried after a client timeout or a broken connection]"
    wrongly = [f"{_graded_wrongly(res)} {res.mutant.cls}:{res.mutant.name}" for res in report.mutants if not res.ok]
    if report.problems or wrongly:
        line += ": " + " | ".join(report.problems + wrongly)
    return line


def default_servers(task_count: int, mutants: bool = False) -> int:
    """One private server for a few tasks; one process per core (up to 4) for many."""
    return 1 if task_count <= 20 and not mutants else max(1, min(os.cpu_count() or 1, 4))


def ungraded(reports: list[TaskReport], kind: str | None = None) -> int:
    """Mutants (of ``kind``, or all) that could not be played: neither survived/rejected nor killed/passed."""
    return sum(1 for r in reports for res in r.mutants if res.passed is None and kind in (None, res.mutant.kind))


def mutation_summary(reports: list[TaskReport]) -> dict:
    """The JSON summary of a mutation run (the shape ``--json`` writes)."""
    per_task = {}
    for r in reports:
        w, k = r.count(WRONG)
        n, p = r.count(RIGHT)
        per_task[r.task_id] = {"wrong": w, "killed": k, "right": n, "passed": p}
    return {"tasks": len(reports),
            "wrong_mutants": sum(v["wrong"] for v in per_task.values()),
            "wrong_killed": sum(v["killed"] for v in per_task.values()),
            "right_mutants": sum(v["right"] for v in per_task.values()),
            "right_passed": sum(v["passed"] for v in per_task.values()),
            "ungraded": ungraded(reports),  # in neither count
            "retried_plays": sum(len(r.all_retries()) for r in reports),  # extra plays after a timeout or broken connection
            "per_task": per_task,
            "per_class": class_table(reports, every=True)}


def class_table(reports: list[TaskReport], *, every: bool = False) -> dict[str, dict[str, Any]]:
    """Per mutant class (``"<kind> <class>"``): how many were derived and how many were graded as they
    should be. With ``every``, each registered class is listed, one that gave no mutant with 0 and a note
    saying so (it applies to none of the tasks run)."""
    table: dict[str, Counter] = {}
    for r in reports:
        for res in r.mutants:
            row = table.setdefault(f"{res.mutant.kind} {res.mutant.cls}", Counter())
            row["mutants"] += 1
            row["ok"] += res.ok
    order = [f"{c.kind} {c.name}" for c in CLASSES if c.kind == WRONG] + [f"{WRONG} {AUTHORED}"]
    order += [f"{c.kind} {c.name}" for c in CLASSES if c.kind == RIGHT] + [f"{RIGHT} {AUTHORED}"]
    order += sorted(k for k in table if k not in order)  # a class no list names is still counted
    out: dict[str, dict[str, Any]] = {}
    for k in order:
        if k in table:
            out[k] = {"mutants": table[k]["mutants"], "ok": table[k]["ok"]}
        elif every:
            out[k] = {"mutants": 0, "ok": 0, "note": "applies to none of the tasks run"}
    return out


def print_mutation_report(reports: list[TaskReport], out: TextIO) -> None:
    """Classes that did not apply, tasks short of mutants, every mutant graded wrongly, per-class figures."""
    for r in reports:
        if r.not_applicable:
            print(f"N/A {r.task_id}: {', '.join(r.not_applicable)}", file=out)
    for r in reports:
        w, _k = r.count(WRONG)
        n, _p = r.count(RIGHT)
        if w < MIN_WRONG or n < MIN_RIGHT:
            print(f"FEW {r.task_id}: {w} wrong, {n} right (want >= {MIN_WRONG} wrong, >= {MIN_RIGHT} right)", file=out)
    for name, row in class_table(reports).items():
        kind, cls = name.split(" ", 1)
        verb = "killed" if kind == WRONG else "passed"
        print(f"CLASS {kind:5} {cls:24} {row['mutants']:5} {verb} {row.get('ok', 0)}", file=out)
    for r in reports:
        for res in r.mutants:
            if res.ok:
                continue
            what = _graded_wrongly(res)
            print(f"{what} {r.task_id} [{res.mutant.kind} {res.mutant.cls}] {res.mutant.name}: {res.said}", file=out)


def main(task_dirs: list[str] | None = None, task_ids: list[str] | None = None, workers: int = 4,
         server_url: str | None = None, token: str | None = None, include_suite: bool = True,
         out: TextIO | None = None, servers: int | None = None, mutants: bool = False,
         json_out: str | None = None, split: str | None = None, sample_size: int | None = None,
         progress: TextIO | None = None) -> int:
    """Validate and print one line per failing task (and per mutant graded wrongly) and a summary;
    0 when every task holds. Like ``eval``, the hard split is validated when asked for (``split``) or
    named (``task_ids``). With ``progress``, one line per task is written there as it finishes."""
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
    elif split is not None:
        tasks = {k: t for k, t in tasks.items() if t.split == split}
    else:
        tasks = {k: t for k, t in tasks.items() if t.split != "hard"}
    if not tasks:
        print("no tasks to validate", file=out)
        return 2
    count = servers or default_servers(len(tasks), mutants)
    finished: list[TaskReport] = []

    def report_progress(report: TaskReport) -> None:
        finished.append(report)
        if progress is not None:
            print(progress_line(report, len(finished), len(tasks)), file=progress, flush=True)

    if server_url:
        reports = validate_tasks(tasks, workers=workers, servers=[(server_url, token)], mutants=mutants,
                                 sample_size=sample_size, on_report=report_progress)
    else:
        def starting(text: str) -> None:
            print(text, file=progress, flush=True)

        try:
            with local_servers(count, [Path(d) for d in task_dirs or []], include_suite, max_sessions=MAX_SESSIONS,
                               retries=SERVER_START_RETRIES,
                               progress=starting if progress is not None else None) as local:
                reports = validate_tasks(tasks, workers=workers, servers=[(s.url, s.token) for s in local],
                                         mutants=mutants, sample_size=sample_size, on_report=report_progress)
        except ServerStartError as exc:
            print(f"ERROR: the private servers did not start after {SERVER_START_RETRIES + 1} attempt(s); nothing "
                  f"validated: {exc}", file=out)
            return 3
    failed = [r for r in reports if r.problems]
    for report in failed:
        print(f"FAIL {report.task_id}: " + " | ".join(report.problems), file=out)
    retried = [(r.task_id, why) for r in reports for why in r.all_retries()]
    for task_id, why in retried:
        print(f"RETRIED {task_id}: {why}", file=out)
    elapsed = time.monotonic() - started
    if mutants:
        print_mutation_report(reports, out)
        summary = mutation_summary(reports)
        if json_out:
            Path(json_out).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        few = sum(1 for v in summary["per_task"].values() if v["wrong"] < MIN_WRONG or v["right"] < MIN_RIGHT)
        print(f"mutants of {summary['tasks']} task(s): {summary['wrong_mutants']} wrong, {summary['wrong_killed']} killed, "
              f"{summary['wrong_mutants'] - summary['wrong_killed'] - ungraded(reports, WRONG)} survived; "
              f"{summary['right_mutants']} right, {summary['right_passed']} passed, "
              f"{summary['right_mutants'] - summary['right_passed'] - ungraded(reports, RIGHT)} rejected; "
              f"{summary['ungraded']} could not be played; "
              f"{few} task(s) with fewer than {MIN_WRONG} wrong or {MIN_RIGHT} right", file=out)
    bad = [r for r in reports if not r.ok]
    print(f"validated {len(reports)} task(s): {len(reports) - len(bad)} ok, {len(bad)} failing "
          f"({elapsed:.1f}s)" + (f"; {len(retried)} play(s) retried after a client timeout or a broken connection"
                                  if retried else ""), file=out)
    return 1 if bad else 0
