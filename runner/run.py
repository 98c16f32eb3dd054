"""Run an agent over tasks through the HTTP API, in parallel, with trials, shards and resume.

The runner owns scheduling and bookkeeping only: agents act through ``Episode``; the server
evaluates; records go to results.jsonl as soon as each episode ends.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
import traceback
from contextlib import ExitStack
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from officesim.apps.registry import DEFAULT_MODE
from officesim.evaluators.record import EpisodeRecord
from officesim.server.client import OfficeClient
from officesim.runner.agents import Agent, Episode, load_agent, now_iso
from officesim.runner.localserver import local_servers
from officesim.runner.runlock import RunDirBusy, run_dir_lock
from officesim.runner.results import (RUN_META, SUMMARY, ResultsWriter, read_json, read_results, record_key,
                                 rewrite_clean, write_json)
from officesim.runner.shard import select_shard
from officesim.runner.summary import process_counts, summarize
from officesim.tasks.difficulty import difficulty
from officesim.tasks.loader import TASK_FILE, load_tasks
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
    max_steps: int = 50
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


def select_tasks(cfg: EvalConfig) -> tuple[dict[str, Task], list[Task]]:
    """All loaded tasks and the selected ones (by --tasks dirs, --task ids, --category), before sharding."""
    # --tasks DIR evaluates those tasks *instead of* the built-in suite (which is then not even
    # loaded: quicker, and a suite being edited cannot break a run of one's own tasks).
    all_tasks = load_tasks(cfg.task_dirs, include_suite=not cfg.task_dirs, only=cfg.task_ids or None)
    pool = list(all_tasks.values())
    if cfg.task_ids:
        unknown = [i for i in cfg.task_ids if i not in all_tasks]
        if unknown:
            raise RunError(f"unknown task ids: {', '.join(unknown)}")
        wanted = set(cfg.task_ids)
        pool = [t for t in pool if t.id in wanted]
    if cfg.split is not None:
        pool = [t for t in pool if t.split == cfg.split]
    elif not cfg.task_ids:  # the hard split runs when asked for (--split hard) or named (--task)
        pool = [t for t in pool if t.split != "hard"]
    if cfg.category is not None:
        pool = [t for t in pool if t.category == cfg.category]
    if not pool:
        raise RunError("no tasks selected")
    return all_tasks, sorted(pool, key=lambda t: t.id)


def server_task_dirs(cfg: EvalConfig, selected: list[Task]) -> tuple[list[Path], bool]:
    """What private servers load (task dirs, whether the suite): with ``--task``, the folders of the
    selected tasks alone, so a server starts without parsing the suite; else ``--tasks`` or the suite."""
    folders = [Path(t.source_dir) for t in selected if t.source_dir]
    if cfg.task_ids and len(folders) == len(selected) and all(
            f.name == t.id and (f / TASK_FILE).is_file() for f, t in zip(folders, selected)):
        return folders, False
    return list(cfg.task_dirs), not cfg.task_dirs


def suite_fingerprint(tasks: list[Task]) -> str:
    """Identifies a selection of tasks by ids and content, so merges refuse different suites."""
    digest = hashlib.sha256()
    for task in sorted(tasks, key=lambda t: t.id):
        digest.update(task.model_dump_json(exclude={"source_dir"}).encode())
    return digest.hexdigest()[:16]


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


def _prepare_run_dir(cfg: EvalConfig, meta: dict) -> list[EpisodeRecord]:
    """Create the run directory, or on --resume check it matches and return the records to keep.

    On resume, results.jsonl is rewritten with one record per wanted task x trial: a torn last
    line, duplicates, records of tasks no longer selected and records of episodes that ended in an
    infrastructure error (status "error": no evaluation) are dropped; the latter run again.
    """
    cfg.out.mkdir(parents=True, exist_ok=True)
    existing = read_results(cfg.out)
    meta_path = cfg.out / RUN_META
    if existing and not cfg.resume:
        raise RunError(f"{cfg.out} already holds results; pass --resume to continue it, --overwrite to start it afresh, or choose another --out")
    if cfg.resume and meta_path.exists():
        old = read_json(meta_path)
        for key in ("agent", "model", "mode", "suite", "shard"):
            if old.get(key) != meta.get(key):
                raise RunError(f"cannot resume {cfg.out}: it was run with {key}={old.get(key)!r}, now {meta.get(key)!r}")
        meta["started"] = old.get("started", meta["started"])
    wanted = {(t, k) for t in meta["task_ids"] for k in range(1, cfg.trials + 1)}
    kept, seen = [], set()
    for rec in existing:
        key = record_key(rec)
        if key in wanted and key not in seen and rec.status != "error":
            kept.append(rec)
            seen.add(key)
    rewrite_clean(cfg.out, kept)
    write_json(meta_path, meta)
    return kept


def run_eval(cfg: EvalConfig, console: Console | None = None) -> dict:
    """Run the evaluation described by cfg; returns summary.json's content. The run directory is
    locked for the whole run: a second run on it refuses (RunError naming the running process)."""
    try:
        with run_dir_lock(cfg.out, wait=cfg.wait_for_lock,
                          on_wait=lambda why: (console or Console(stderr=True)).print(why, highlight=False)):
            return _run_eval(cfg, console)
    except RunDirBusy as exc:
        raise RunError(str(exc)) from None


def _run_eval(cfg: EvalConfig, console: Console | None = None) -> dict:
    console = console or Console(stderr=True)
    if cfg.engine not in ("local", "ray"):
        raise RunError(f"unknown engine {cfg.engine!r}: local or ray")
    if cfg.engine == "ray" and cfg.server:
        raise RunError("--engine ray runs offices on the cluster's nodes; --server applies to the local engine only")
    all_tasks, selected = select_tasks(cfg)
    fingerprint = suite_fingerprint(selected)
    selection = [t.id for t in selected]
    if cfg.shard:
        selected = select_shard(selected, *cfg.shard)
    agent = load_agent(cfg.agent, tasks=all_tasks, model=cfg.model, options=cfg.agent_options)
    meta = {
        "agent": agent.name, "model": getattr(agent, "model", None), "mode": cfg.mode,
        "max_steps": cfg.max_steps, "trials": cfg.trials,
        "suite": fingerprint, "shard": list(cfg.shard) if cfg.shard else None,
        "task_ids": [t.id for t in selected], "selection": selection, "started": now_iso(),
    }
    kept = _prepare_run_dir(cfg, meta)
    done = {record_key(r) for r in kept}
    jobs = [(t, k) for t in selected for k in range(1, cfg.trials + 1) if (t.id, k) not in done]

    if not jobs:
        pass  # everything was already done (a resume of a finished run): just summarise again
    elif cfg.engine == "ray":
        from officesim.runner.ray_engine import run_on_ray

        run_on_ray(agent, jobs, cfg, console, already=kept)
    elif cfg.server:
        with OfficeClient(cfg.server, token=cfg.token) as client:
            _run_jobs([client], agent, jobs, cfg, console, already=kept)
    else:
        count = cfg.servers or default_local_servers(cfg.workers)
        dirs, suite = server_task_dirs(cfg, selected)
        with local_servers(count, dirs, include_suite=suite) as servers, ExitStack() as stack:
            clients = [stack.enter_context(OfficeClient(s.url, token=s.token)) for s in servers]
            _run_jobs(clients, agent, jobs, cfg, console, already=kept)
    meta["finished"] = now_iso()
    write_json(cfg.out / RUN_META, meta)
    return finalize(cfg.out)


def _progress_mode(value: str | bool) -> str:
    if value is True:
        return "bar"
    if value is False or value is None:
        return "off"
    if value not in ("bar", "lines", "off"):
        raise ValueError(f"progress must be bar, lines or off, not {value!r}")
    return value


def default_local_servers(workers: int) -> int:
    """One private server per core the workers can keep busy (at most 4)."""
    return max(1, min(workers, os.cpu_count() or 1, 4))


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


def _run_jobs(clients: list[OfficeClient], agent: Agent, jobs: list, cfg: EvalConfig, console: Console,
              already: list[EpisodeRecord]) -> None:
    """Run the episodes on a thread pool; episode i talks to server i mod len(clients)."""
    with EpisodeLog(cfg, console, already, len(jobs)) as log:

        def one(index: int, job) -> None:
            task, trial = job
            log.add(run_episode(clients[index % len(clients)], agent, task, trial, cfg))

        pool = ThreadPoolExecutor(max_workers=max(1, cfg.workers))
        try:
            for fut in as_completed([pool.submit(one, i, j) for i, j in enumerate(jobs)]):
                fut.result()
        except BaseException:
            # Ctrl-C or a bookkeeping failure: start nothing new; episodes in flight still finish
            # and are written, so --resume picks up exactly where this stopped.
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        finally:
            pool.shutdown(wait=True)


def finalize(run_dir: Path, write_report: Callable | None = None) -> dict:
    """Write summary.json and report.html from results.jsonl (also used by `report` and `merge`)."""
    from officesim.runner.report import write_report as default_report

    records = read_results(run_dir)
    meta = read_json(run_dir / RUN_META) if (run_dir / RUN_META).exists() else {}
    summary = summarize(records, meta)
    write_json(run_dir / SUMMARY, summary)
    (write_report or default_report)(run_dir, records, summary)
    return summary


def regressions(run_dir: Path, baseline_dir: Path) -> list[str]:
    """Tasks that passed (every trial) in the baseline and fail (any trial) now."""
    def by_task(records: list[EpisodeRecord]) -> dict[str, bool]:
        out: dict[str, bool] = {}
        for rec in records:
            out[rec.task_id] = out.get(rec.task_id, True) and rec.passed
        return out

    now, before = by_task(read_results(run_dir)), by_task(read_results(baseline_dir))
    return sorted(t for t, ok in before.items() if ok and t in now and not now[t])
