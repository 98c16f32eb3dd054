"""Run an agent over tasks through the HTTP API, in parallel, with trials, shards and resume.

The runner owns scheduling and bookkeeping only: agents act through ``Episode``; the server
evaluates; records go to results.jsonl as soon as each episode ends.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from contextlib import ExitStack, contextmanager
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Callable

from rich.console import Console

from officesim.evaluators.record import EpisodeRecord
from officesim.server.client import OfficeClient
from officesim.runner.agents import Agent, load_agent, now_iso
from officesim.runner.dockerserver import docker_image
from officesim.runner.localserver import LocalServer, ServerStartError, local_servers
from officesim.runner.play import (EpisodeLog, EvalConfig, RunError, play_episode, run_episode,  # noqa: F401  (re-exported)
                                   start_failure_record, wants_suite)
from officesim.runner.runlock import RunDirBusy, run_dir_lock
from officesim.runner.results import (RUN_META, SUMMARY, read_json, read_results, record_key,
                                 rewrite_clean, write_json)
from officesim.runner.shard import select_shard
from officesim.runner.summary import summarize
from officesim.tasks.loader import TASK_FILE, load_tasks
from officesim.tasks.model import Task


def select_tasks(cfg: EvalConfig) -> tuple[dict[str, Task], list[Task]]:
    """All loaded tasks and the selected ones (by --tasks dirs, --task ids, --category), before sharding."""
    # --tasks DIR evaluates those tasks *instead of* the built-in suite (which is then not even
    # loaded: quicker, and a suite being edited cannot break a run of one's own tasks); --with-suite
    # keeps the suite beside them.
    all_tasks = load_tasks(cfg.task_dirs, include_suite=wants_suite(cfg), only=cfg.task_ids or None)
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
    return list(cfg.task_dirs), wants_suite(cfg)


def suite_fingerprint(tasks: list[Task]) -> str:
    """Identifies a selection of tasks by ids and content, so merges refuse different suites."""
    digest = hashlib.sha256()
    for task in sorted(tasks, key=lambda t: t.id):
        digest.update(task.model_dump_json(exclude={"source_dir"}).encode())
    return digest.hexdigest()[:16]


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
        meta["elapsed_s"] = old.get("elapsed_s") or 0.0  # the earlier invocations' wall time; this one's is added
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
    clock = time.monotonic()  # the run's wall time (elapsed_s), beside the episodes' summed times
    console = console or Console(stderr=True)
    if cfg.engine not in ("local", "ray"):
        raise RunError(f"unknown engine {cfg.engine!r}: local or ray")
    if cfg.engine == "ray" and cfg.server:
        raise RunError("--engine ray runs offices on the cluster's nodes; --server applies to the local engine only")
    all_tasks, selected = select_tasks(cfg)
    image = docker_image(cfg.server)
    docker = _docker_engine() if image else None  # before the run directory is touched: no engine, no run
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
    elif image:  # --server docker[:IMAGE]: the image started for this run, removed however it ends
        with _docker_server(cfg, image, docker, selected, console) as server, \
                _client(cfg, server.url, server.token) as client:
            _run_jobs([client], agent, jobs, cfg, console, already=kept)
    elif cfg.server:
        with _client(cfg, cfg.server, cfg.token) as client:
            _run_jobs([client], agent, jobs, cfg, console, already=kept)
    else:
        count = cfg.servers or default_local_servers(cfg.workers)
        dirs, suite = server_task_dirs(cfg, selected)
        with ExitStack() as stack:
            try:
                servers = stack.enter_context(local_servers(
                    count, dirs, include_suite=suite, timeout=cfg.start_timeout, retries=cfg.retries,
                    progress=None if _progress_off(cfg) else lambda text: console.print(text, highlight=False,
                                                                                         markup=False)))
            except ServerStartError as exc:  # every episode is an infrastructure error: recorded, exit 3
                with EpisodeLog(cfg, console, kept, len(jobs)) as log:
                    log.say(f"the private servers did not start after {cfg.retries + 1} attempt(s): {exc}")
                    for task, trial in jobs:
                        log.add(start_failure_record(task, trial, agent, cfg, exc, cfg.retries + 1))
            else:
                _run_jobs(_LocalClients(servers, cfg, stack), agent, jobs, cfg, console, already=kept)
    meta["finished"] = now_iso()
    meta["elapsed_s"] = round((meta.get("elapsed_s") or 0.0) + time.monotonic() - clock, 3)
    write_json(cfg.out / RUN_META, meta)
    return finalize(cfg.out)


def _docker_engine():
    from officesim.runner.dockerserver import DockerUnavailable, connect

    try:
        return connect()
    except DockerUnavailable as exc:
        raise RunError(str(exc)) from None


@contextmanager
def _docker_server(cfg: EvalConfig, image: str, engine, selected: list[Task], console: Console):
    """The officesim image serving the selected tasks (runner/dockerserver.py); a container that does not
    start is a RunError (exit 2) with the end of its log."""
    from officesim.runner.dockerserver import DockerServer, DockerServerError

    dirs, suite = server_task_dirs(cfg, selected)
    say = None if _progress_off(cfg) else lambda text: console.print(text, highlight=False, markup=False)
    server = DockerServer(image, dirs, suite, client=engine, token=cfg.token, timeout=cfg.start_timeout, progress=say)
    try:
        server.__enter__()
    except DockerServerError as exc:
        raise RunError(str(exc)) from None
    try:
        yield server
    finally:
        server.__exit__(None, None, None)


def _progress_off(cfg: EvalConfig) -> bool:
    return cfg.progress in (False, "off", None)


def _client(cfg: EvalConfig, url: str, token: str | None) -> OfficeClient:
    return OfficeClient(url, token=token, timeout=cfg.timeout, session_timeout=cfg.session_timeout)


class _LocalClients:
    """The clients of the private servers, for ``_run_jobs``: attempt n of episode i goes to server
    (i + n - 1) mod count, so a retry moves to another server when there are several, and a server
    whose process died is started again before a retry is sent to it."""

    def __init__(self, servers: list[LocalServer], cfg: EvalConfig, stack: ExitStack):
        self.servers = servers
        self.cfg = cfg
        self.stack = stack
        self.clients = [stack.enter_context(_client(cfg, s.url, s.token)) for s in servers]
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.clients)

    def pick(self, index: int, attempt: int) -> OfficeClient:
        i = (index + attempt - 1) % len(self.clients)
        if attempt > 1:
            server = self.servers[i]
            try:
                restarted = server.ensure_running()
            except ServerStartError:  # the attempt meets a refused connection: an error record, not a crash
                restarted = False
            if restarted:
                with self._lock:  # a new port, maybe: a new client (the old one is closed with the stack)
                    if str(self.clients[i]._http.base_url).rstrip("/") != server.url:
                        self.clients[i] = self.stack.enter_context(_client(self.cfg, server.url, server.token))
        return self.clients[i]


def default_local_servers(workers: int) -> int:
    """One private server per core the workers can keep busy (at most 4)."""
    return max(1, min(workers, os.cpu_count() or 1, 4))


def _run_jobs(clients: list[OfficeClient] | _LocalClients, agent: Agent, jobs: list, cfg: EvalConfig,
              console: Console, already: list[EpisodeRecord]) -> None:
    """Run the episodes on a thread pool; episode i talks to server i mod len(clients) (its retries to the
    next servers: ``_LocalClients``); an episode without a verdict is played again (``play_episode``)."""
    if isinstance(clients, list):
        fixed = clients

        def pick_for(index: int, attempt: int) -> OfficeClient:
            return fixed[(index + attempt - 1) % len(fixed)]
    else:
        pick_for = clients.pick

    with EpisodeLog(cfg, console, already, len(jobs)) as log:

        def one(index: int, job) -> None:
            task, trial = job
            log.add(play_episode(lambda attempt: pick_for(index, attempt), agent, task, trial, cfg,
                                 on_retry=log.retrying))

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
    """Tasks that passed (every trial) in the baseline and fail (any trial) now. An episode without a
    verdict (status "error") says nothing either way: it is left out (the errors fail the run apart)."""
    def by_task(records: list[EpisodeRecord]) -> dict[str, bool]:
        out: dict[str, bool] = {}
        for rec in records:
            if not rec.no_verdict:
                out[rec.task_id] = out.get(rec.task_id, True) and rec.passed
        return out

    now, before = by_task(read_results(run_dir)), by_task(read_results(baseline_dir))
    return sorted(t for t, ok in before.items() if ok and t in now and not now[t])
