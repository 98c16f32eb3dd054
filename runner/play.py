"""One episode and its bookkeeping, shared by every engine: the run's settings (``EvalConfig``), playing
one task x trial through the API into its record (``run_episode``), and the driver's log of finished
episodes (``EpisodeLog``: results.jsonl and progress). The local engine (runner/run.py) and the Ray
engine (runner/ray_engine.py) both build on it.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from officesim.apps.registry import DEFAULT_MODE
from officesim.evaluators.record import NO_VERDICT, EpisodeRecord, task_request
from officesim.runner.agents import Agent, Episode
from officesim.runner.faults import (AGENT, GRADING, INFRASTRUCTURE, describe, failed_call, full_traceback,
                                     is_infrastructure)
from officesim.runner.results import ResultsWriter
from officesim.runner.summary import process_counts
from officesim.server.client import OfficeClient
from officesim.tasks.difficulty import difficulty
from officesim.tasks.model import Task


@dataclass
class EvalConfig:
    agent: str = "oracle"
    model: str | None = None
    task_dirs: list[Path] = field(default_factory=list)
    # the built-in suite beside task_dirs (--with-suite); None: only when there are no task_dirs
    include_suite: bool | None = None
    task_ids: list[str] = field(default_factory=list)
    category: int | None = None
    server: str | None = None
    token: str | None = None
    workers: int = 1
    servers: int = 0  # private servers to start without --server; 0 = one per core the workers use
    trials: int = 1
    mode: str = DEFAULT_MODE
    max_steps: int | None = None  # None: each task's own step limit (50, more for long tasks)
    out: Path = Path("runs/latest")
    resume: bool = False
    shard: tuple[int, int] | None = None
    agent_options: dict = field(default_factory=dict)
    # "bar" (a live rich bar, for terminals), "lines" (one line per finished episode, for CI logs)
    # or "off"; True/False mean "bar"/"off".
    progress: str | bool = "bar"
    wait_for_lock: bool = False  # another run holds --out: wait for it (else refuse; runner/runlock.py)
    split: str | None = None  # only tasks of this split; None: every split but hard
    engine: str = "local"  # "local": servers and threads here; "ray": offices on a Ray cluster (runner/ray_engine.py)
    ray_address: str | None = None  # None: RAY_ADDRESS or a new local Ray; "auto": the running cluster
    ray_resource: str | None = None  # offices only on nodes with this custom resource, one per unit (else one per CPU)
    ray_concurrency: int = 1  # episodes in flight per office on Ray
    # An episode that ends without a verdict (an infrastructure fault, a failed grading) is played again
    # this often, after retry_pause_s x attempt seconds (runner/faults.py, play_episode).
    retries: int = 1
    retry_pause_s: float = 2.0
    timeout: float | None = None  # seconds an action may take (None: OFFICESIM_HTTP_TIMEOUT, else 120)
    session_timeout: float | None = None  # seconds creating or finishing a session may take (None: 600)
    start_timeout: float | None = None  # seconds a private server may take to start (None: scaled, localserver)


CLEANUP_TIMEOUT_S = 10.0  # reading and deleting the session of an episode that ended by a fault


def wants_suite(cfg: EvalConfig) -> bool:
    """Whether a run loads the built-in suite: --tasks replaces it unless --with-suite."""
    return (not cfg.task_dirs) if cfg.include_suite is None else cfg.include_suite


class RunError(Exception):
    """A run that cannot start (bad selection, incompatible resume, ...); message for the user."""


def run_episode(client: OfficeClient, agent: Agent, task: Task, trial: int, cfg: EvalConfig) -> EpisodeRecord:
    """One task x trial, played once: create a session, let the agent act, finish, collect the evaluation.

    How it can end (runner/faults.py tells the kinds apart):

    - graded: the server's verdict, as the agent earned it;
    - the agent's own error (its code raised): the session is finished and graded as it stands, and the
      record is a failure with ``error_kind`` "agent";
    - an infrastructure fault (the server or the agent's model endpoint unreachable, a timeout, a lost
      server or worker, a refusal for capacity), in the agent's calls or the runner's: status "error",
      ``error_kind`` "infrastructure", no verdict;
    - the server could not grade the ended session: status "error", ``error_kind`` "grading".

    An exception records the call it happened on (``error_call``) and its whole traceback.
    """
    started = time.perf_counter()
    episode: Episode | None = None
    session_id = None
    state: dict = {}
    phase = "create_session"
    agent_exc: BaseException | None = None
    fault: BaseException | None = None
    try:
        session = client.create_session(task.id, mode=cfg.mode, max_steps=cfg.max_steps)
        session_id = session["session_id"]
        episode = Episode(client, session)
        phase = "agent"
        try:
            agent.solve(episode)
        except Exception as exc:
            if is_infrastructure(exc):
                raise
            agent_exc = exc  # an agent bug is this episode's failure, not the run's: it is graded as it stands
        phase = "finish"
        if not episode.done:
            episode.finish(None)
        phase = "collect"
        state = client.get_session(session_id)
    except Exception as exc:  # the runner's own calls failed, or an infrastructure fault reached the agent
        fault = exc
        if session_id and phase in ("agent", "finish"):
            state = _best_effort(lambda: client.get_session(session_id, timeout=CLEANUP_TIMEOUT_S)) or {}
    finally:
        if session_id:
            _best_effort(lambda: client.delete(session_id, timeout=CLEANUP_TIMEOUT_S))

    kind: str | None = None
    error = call = trace = None
    graded = None
    if fault is not None:
        kind, call, trace = INFRASTRUCTURE, failed_call(fault, phase), full_traceback(fault)
        error = f"infrastructure error in {phase}: {describe(fault, call)}"
    else:
        if agent_exc is not None:
            kind, call, trace = AGENT, failed_call(agent_exc, "agent"), full_traceback(agent_exc)
            error = f"agent error: {type(agent_exc).__name__}: {agent_exc}"
        evaluation = state.get("evaluation") or (episode.evaluation if episode else None)
        try:
            graded = EpisodeRecord.model_validate(evaluation) if evaluation else None
        except ValueError as exc:  # a server of another version
            graded, grading_error = None, f"the server's evaluation is not a record: {exc}"
        else:
            grading_error = (graded.error if graded is not None
                             else f"the session ended ({state.get('status')}) without an evaluation")
        if grading_error:  # the server could not grade the session: no verdict either
            graded = None
            kind = GRADING
            error = f"grading error: {grading_error}" + (f" (after {error})" if error else "")
    if graded is None:  # no verdict: the episode failed before or while the session was graded
        graded = EpisodeRecord.ungraded(task.id, NO_VERDICT, error)
    history = state.get("history", [])
    return graded.model_copy(update={
        "task_id": task.id,
        "category": task.category,
        "apps": task.apps,
        "trial": trial,
        "agent": agent.name,
        "model": getattr(agent, "model", None),
        "mode": cfg.mode,
        "passed": graded.passed and error is None,
        "steps": state.get("step", graded.steps),
        "tokens": dict(episode.tokens) if episode else {"prompt": 0, "completion": 0},
        "llm_calls": episode.llm_calls if episode else 0,
        "llm_latency_s": round(episode.llm_latency_s, 3) if episode else 0.0,
        "wall_time_s": round(time.perf_counter() - started, 3),
        "process": process_counts(history, [a.model_dump() for a in task.gold]),
        "error": error,
        "error_kind": kind,
        "error_call": call,
        "error_traceback": trace,
        "trajectory": history,
        "scenario": task.scenario,
        "split": task.split,
        "difficulty": difficulty(task),
        "gold": [a.model_dump() for a in task.gold],
        "transcript": episode.transcript if episode else None,
        **task_request(task),  # a record without a verdict too
    })


def _best_effort(call: Callable[[], dict]) -> dict | None:
    """A cleanup call whose failure changes nothing (the server may be the very thing that failed)."""
    try:
        return call()
    except Exception:
        return None


def play_episode(pick: Callable[[int], OfficeClient], agent: Agent, task: Task, trial: int, cfg: EvalConfig,
                 on_retry: Callable[[EpisodeRecord, int], None] | None = None) -> EpisodeRecord:
    """One task x trial, played again (in a new session, after a pause) while it ends without a verdict
    (an infrastructure fault or a failed grading), at most ``cfg.retries`` times. ``pick(attempt)`` gives
    the client of each attempt (the local engine moves a retry to another server); ``on_retry(record,
    attempt)`` hears of each failed attempt that is played again. The record says how many attempts it
    took (``attempts``) and what the earlier ones ended by (``retried_errors``)."""
    earlier: list[str] = []
    attempt = 1
    while True:
        record = run_episode(pick(attempt), agent, task, trial, cfg)
        if not record.no_verdict or attempt > max(0, cfg.retries):
            break
        earlier.append(record.error or "no verdict")
        if on_retry is not None:
            on_retry(record, attempt)
        time.sleep(max(0.0, cfg.retry_pause_s) * attempt)
        attempt += 1
    return record.model_copy(update={"attempts": attempt, "retried_errors": earlier or None})


def start_failure_record(task: Task, trial: int, agent: Agent, cfg: EvalConfig, exc: BaseException,
                         attempts: int) -> EpisodeRecord:
    """The record of an episode that could not be played because its server did not start."""
    call = failed_call(exc, "start_server")
    return EpisodeRecord.ungraded(
        task.id, NO_VERDICT, f"infrastructure error in start_server: {type(exc).__name__}: {exc}",
        error_kind=INFRASTRUCTURE, error_call=call, category=task.category, apps=task.apps, trial=trial,
        agent=agent.name, model=getattr(agent, "model", None), mode=cfg.mode, tokens={"prompt": 0, "completion": 0},
        scenario=task.scenario, split=task.split, attempts=attempts, **task_request(task))


def _progress_mode(value: str | bool) -> str:
    if value is True:
        return "bar"
    if value is False or value is None:
        return "off"
    if value not in ("bar", "lines", "off"):
        raise ValueError(f"progress must be bar, lines or off, not {value!r}")
    return value


class EpisodeLog:
    """The driver's side of finished episodes, whichever engine ran them: each record goes to
    results.jsonl (ResultsWriter) and to the progress bar or the progress lines; a context manager.
    Episodes without a verdict (status "error") are counted apart from the agent's failures."""

    def __init__(self, cfg: EvalConfig, console: Console, already: list[EpisodeRecord], todo: int):
        self.cfg = cfg
        self.console = console
        self.mode = _progress_mode(cfg.progress)
        self.counts = {"passed": sum(r.passed for r in already), "errors": sum(r.no_verdict for r in already)}
        self.counts["failed"] = len(already) - self.counts["passed"] - self.counts["errors"]
        self.total = todo + len(already)
        self._already = len(already)
        self._width = len(str(self.total))
        self._lock = threading.Lock()
        self._writer: ResultsWriter | None = None
        columns = [TextColumn("[bold]eval[/]"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("[green]{task.fields[passed]} passed[/] [red]{task.fields[failed]} failed[/]"
                              " [yellow]{task.fields[errors]} errors[/]"),
                   TimeElapsedColumn()]
        self._progress = Progress(*columns, console=console, disable=self.mode != "bar")
        self._bar = None

    def __enter__(self) -> "EpisodeLog":
        self._writer = ResultsWriter(self.cfg.out)
        if self.mode == "lines" and self._already:
            self.say(f"resuming: {self._already} of {self.total} episode(s) already done")
        self._progress.__enter__()
        self._bar = self._progress.add_task("eval", total=self.total, completed=self._already, **self.counts)
        return self

    def __exit__(self, *exc) -> None:
        try:
            self._progress.__exit__(*exc)
        finally:
            self._writer.close()

    def say(self, text: str) -> None:
        """One plain line (in lines mode; above the bar in bar mode)."""
        if self.mode != "off":
            self.console.print(text, highlight=False, markup=False, soft_wrap=True)

    def retrying(self, record: EpisodeRecord, attempt: int) -> None:
        """An attempt ended without a verdict and the episode is played again (``play_episode``'s on_retry)."""
        trial_note = f" trial {record.trial}" if self.cfg.trials > 1 else ""
        self.say(f"retry {record.task_id}{trial_note} (attempt {attempt + 1} of {self.cfg.retries + 1}): {record.error}")

    def add(self, record: EpisodeRecord) -> None:
        """Write one finished episode's record and count it (thread-safe)."""
        self._writer.write(record)
        with self._lock:
            self.counts["passed" if record.passed else "errors" if record.no_verdict else "failed"] += 1
            self._progress.update(self._bar, advance=1, **self.counts)
            if self.mode == "lines":
                done = sum(self.counts.values())
                verdict = "pass" if record.passed else ("ERROR" if record.no_verdict else "fail")
                trial_note = f" trial {record.trial}" if self.cfg.trials > 1 else ""
                tries = f", {record.attempts} attempts" if record.attempts > 1 else ""
                self.console.print(f"[{done:>{self._width}}/{self.total}] {verdict:5} {record.task_id}{trial_note} "
                                   f"({record.status}, {record.steps} step{'' if record.steps == 1 else 's'}, "
                                   f"{record.wall_time_s or 0.0:.1f} s{tries})"
                                   + (f" {record.error}" if record.error else ""),
                                   highlight=False, markup=False, soft_wrap=True)
