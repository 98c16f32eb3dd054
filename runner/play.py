"""One episode and its bookkeeping, shared by every engine: the run's settings (``EvalConfig``), playing
one task x trial through the API into its record (``run_episode``), and the driver's log of finished
episodes (``EpisodeLog``: results.jsonl and progress). The local engine (runner/run.py) and the Ray
engine (runner/ray_engine.py) both build on it.
"""

from __future__ import annotations

import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from officesim.apps.registry import DEFAULT_MODE
from officesim.evaluators.record import EpisodeRecord
from officesim.runner.agents import Agent, Episode
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


class RunError(Exception):
    """A run that cannot start (bad selection, incompatible resume, ...); message for the user."""


def run_episode(client: OfficeClient, agent: Agent, task: Task, trial: int, cfg: EvalConfig) -> EpisodeRecord:
    """One task x trial: create a session, let the agent act, finish, collect the evaluation."""
    started = time.perf_counter()
    error = None
    error_trace = None
    episode = None
    session_id = None
    try:
        session = client.create_session(task.id, mode=cfg.mode, max_steps=cfg.max_steps)
        session_id = session["session_id"]
        episode = Episode(client, session)
        try:
            agent.solve(episode)
        except Exception as exc:  # an agent bug is this episode's failure, not the run's
            error = f"agent error: {type(exc).__name__}: {exc}"
            error_trace = traceback.format_exc(limit=-8)
        if not episode.done:
            episode.finish(None)
        state = client.get_session(session_id)
    except Exception as exc:
        error = error or f"{type(exc).__name__}: {exc}"
        state = {}
    finally:
        if session_id:
            try:
                client.delete(session_id)
            except Exception:
                pass
    evaluation = state.get("evaluation") or (episode.evaluation if episode else None)
    graded = None
    if evaluation:
        try:
            graded = EpisodeRecord.model_validate(evaluation)
            error = error or graded.error  # the server could not evaluate the session
        except ValueError as exc:  # a server of another version: this episode's error, not the run's
            error = error or f"the server's evaluation is not a record: {exc}"
    if graded is None:  # no evaluation: the episode failed before the session ended
        graded = EpisodeRecord.ungraded(task.id, "error" if error else state.get("status", "error"), error)
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
        "error_traceback": error_trace,
        "trajectory": history,
        "scenario": task.scenario,
        "split": task.split,
        "difficulty": difficulty(task),
        "gold": [a.model_dump() for a in task.gold],
        "transcript": episode.transcript if episode else None,
    })


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
    results.jsonl (ResultsWriter) and to the progress bar or the progress lines; a context manager."""

    def __init__(self, cfg: EvalConfig, console: Console, already: list[EpisodeRecord], todo: int):
        self.cfg = cfg
        self.console = console
        self.mode = _progress_mode(cfg.progress)
        self.counts = {"passed": sum(r.passed for r in already)}
        self.counts["failed"] = len(already) - self.counts["passed"]
        self.total = todo + len(already)
        self._already = len(already)
        self._width = len(str(self.total))
        self._lock = threading.Lock()
        self._writer: ResultsWriter | None = None
        columns = [TextColumn("[bold]eval[/]"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("[green]{task.fields[passed]} passed[/] [red]{task.fields[failed]} failed[/]"),
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

    def add(self, record: EpisodeRecord) -> None:
        """Write one finished episode's record and count it (thread-safe)."""
        self._writer.write(record)
        with self._lock:
            self.counts["passed" if record.passed else "failed"] += 1
            self._progress.update(self._bar, advance=1, **self.counts)
            if self.mode == "lines":
                done = self.counts["passed"] + self.counts["failed"]
                verdict = "pass" if record.passed else ("ERROR" if record.status == "error" else "fail")
                trial_note = f" trial {record.trial}" if self.cfg.trials > 1 else ""
                self.console.print(f"[{done:>{self._width}}/{self.total}] {verdict:5} {record.task_id}{trial_note} "
                                   f"({record.status}, {record.steps} step{'' if record.steps == 1 else 's'}, "
                                   f"{record.wall_time_s:.1f} s)"
                                   + (f" {record.error}" if record.error else ""),
                                   highlight=False, markup=False, soft_wrap=True)


