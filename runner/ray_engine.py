"""``officesim eval --engine ray``: the episodes of a run played by office actors on a Ray cluster.

Each office (runner/ray_office.py) is an actor holding one officesim server on its own node, so
offices never cross the network; there is one per CPU of every node, or with ``--ray-resource NAME``
one per unit of that custom resource (for clusters where only some nodes should host offices).
Offices are added as nodes join. The driver keeps the run directory exactly as the local engine
does (``EpisodeLog``: results.jsonl, progress, then the summary and report): an episode is recorded
when its record reaches the driver, once per task x trial. An episode whose office dies with its node
is played again by another office (at most ``MAX_LOSSES`` times), so a lost node loses no episode and
duplicates none; a killed driver leaves a run that ``--resume`` completes.

Ray is imported here only, and only when this engine runs: the local engine needs no Ray.
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter, deque
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from rich.console import Console

from officesim.evaluators.record import EpisodeRecord
from officesim.runner.episode import Agent
from officesim.runner.ray_office import Office, agent_factory, forwarded_env
from officesim.runner.play import EpisodeLog, EvalConfig, RunError, wants_suite
from officesim.tasks.model import Task

MAX_LOSSES = 3  # an episode whose office died this often is recorded as an error (--resume plays it again)
STARTUP_FAILURES = 3  # offices dying before their first episode this often in a row: the run stops
POLL_S = 1.0  # how often the driver looks for new capacity while it waits for results

Job = tuple[Task, int]


def import_ray() -> ModuleType:
    """Ray, or a RunError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise RunError("--engine ray needs Ray: pip install 'officesim[ray]'") from None
    return ray


def run_on_ray(agent: Agent, jobs: list[Job], cfg: EvalConfig, console: Console,
               already: list[EpisodeRecord]) -> None:
    """Play ``jobs`` on the cluster at ``cfg.ray_address`` (none: RAY_ADDRESS or a new local Ray).
    ``agent`` is the driver's copy (its name and model); the offices build their own."""
    ray = import_ray()
    if cfg.ray_concurrency < 1:
        raise RunError("--ray-concurrency must be at least 1")
    started_here = False
    if not ray.is_initialized():
        local = cfg.ray_address is None and not os.environ.get("RAY_ADDRESS")
        try:
            ray.init(address=cfg.ray_address, logging_level="ERROR", log_to_driver=False,
                     **({"include_dashboard": False} if local else {}))
        except Exception as exc:  # no cluster at that address, a version mismatch, ...
            where = "a new local Ray" if local else f"the Ray cluster at {cfg.ray_address or os.environ['RAY_ADDRESS']}"
            raise RunError(f"cannot start or join {where}: {_brief(exc)}") from None
        started_here = True
    try:
        with EpisodeLog(cfg, console, already, len(jobs)) as log:
            _Dispatcher(ray, agent, jobs, cfg, log).run()
    finally:
        if started_here:
            ray.shutdown()


@dataclass(eq=False)
class _Slot:
    """One office actor as the driver sees it."""

    handle: Any
    host: str | None = None  # set once the office answers (it is ready)
    inflight: int = 0
    played: int = 0


class _Dispatcher:
    """Hands jobs to ready offices, collects records, replaces lost offices and replays their jobs."""

    def __init__(self, ray: ModuleType, agent: Agent, jobs: list[Job], cfg: EvalConfig, log: EpisodeLog):
        self.ray = ray
        self.agent = agent
        self.cfg = cfg
        self.log = log
        self.pending: deque[Job] = deque(jobs)
        self.losses: Counter[tuple[str, int]] = Counter()
        self.recorded: set[tuple[str, int]] = set()
        self.slots: list[_Slot] = []
        self.starting: dict[Any, _Slot] = {}  # ready ref -> office not yet answering
        self.inflight: dict[Any, tuple[_Slot, Job]] = {}  # episode ref -> office and job
        self.startup_failures = 0
        self.resource = cfg.ray_resource or "CPU"
        self.per_office = cfg.ray_concurrency + 1  # one queued beyond those playing: no idle gap between episodes
        tasks = {task.id: task for task, _ in jobs}
        placement = ({"num_cpus": 0, "resources": {cfg.ray_resource: 1}} if cfg.ray_resource else {"num_cpus": 1})
        self.actor_class = ray.remote(max_restarts=0, max_task_retries=0, max_concurrency=cfg.ray_concurrency,
                                      **placement)(Office)
        factory = agent_factory(cfg.agent, tasks=tasks, model=cfg.model, options=cfg.agent_options)
        self.agent_ref = ray.put(factory)  # shipped once, built once per office
        self.office_args = ([str(d) for d in cfg.task_dirs], wants_suite(cfg), forwarded_env())
        self.last_grow = 0.0
        self.waiting_said = False

    def run(self) -> None:
        try:
            while self.pending or self.inflight:
                self._grow()
                self._dispatch()
                refs = [*self.inflight, *self.starting]
                if not refs:
                    time.sleep(POLL_S)
                    continue
                ready, _ = self.ray.wait(refs, num_returns=1, timeout=POLL_S)
                for ref in ready:
                    if ref in self.starting:
                        self._office_ready(ref)
                    else:
                        self._episode_done(ref)
        finally:
            for slot in self.slots:
                self._kill(slot)

    # -- offices -------------------------------------------------------------------------------------
    def _capacity(self) -> int:
        return int(self.ray.cluster_resources().get(self.resource, 0))

    def _grow(self) -> None:
        """One office per unit of the resource on the live nodes; new nodes get offices as they join."""
        now = time.monotonic()
        if now - self.last_grow < POLL_S:
            return
        self.last_grow = now
        wanted = min(self._capacity(), len(self.pending) + len(self.inflight))
        while len(self.slots) < wanted:
            slot = _Slot(self.actor_class.remote(self.agent_ref, *self.office_args))
            self.slots.append(slot)
            self.starting[slot.handle.where.remote()] = slot
        if not self.slots and not self.waiting_said:
            self.log.say(f"waiting for a Ray node with {self.resource} to host offices")
            self.waiting_said = True

    def _office_ready(self, ref: Any) -> None:
        slot = self.starting.pop(ref)
        try:
            slot.host = self.ray.get(ref)
        except self.ray.exceptions.RayError as exc:
            self._lose(slot, exc)
            return
        self.log.say(f"office ready on {slot.host}")

    def _lose(self, slot: _Slot, exc: BaseException) -> None:
        """An office died (its node, its process): forget it; its jobs come back through their refs."""
        if slot not in self.slots:
            return
        self.slots.remove(slot)
        self._kill(slot)
        self.last_grow = 0.0  # replace it at once if the cluster still has room
        if getattr(exc, "actor_init_failed", False):  # its server or agent could not start, not a lost node
            self.startup_failures += 1
            if self.startup_failures >= STARTUP_FAILURES:
                raise RunError(f"offices on the Ray cluster fail to start: {_brief(exc)}")
        self.log.say(f"office on {slot.host or 'a starting node'} lost: {_brief(exc)}")

    def _kill(self, slot: _Slot) -> None:
        try:
            self.ray.kill(slot.handle)
        except Exception:  # already gone with its node
            pass

    # -- episodes ------------------------------------------------------------------------------------
    def _dispatch(self) -> None:
        """Fill the ready offices up to ``per_office`` episodes each, the least busy first."""
        while self.pending:
            ready = [s for s in self.slots if s.host is not None and s.inflight < self.per_office]
            if not ready:
                return
            slot = min(ready, key=lambda s: s.inflight)
            job = self.pending.popleft()
            slot.inflight += 1
            self.inflight[slot.handle.play.remote(job[0], job[1], self.cfg)] = (slot, job)

    def _episode_done(self, ref: Any) -> None:
        slot, (task, trial) = self.inflight.pop(ref)
        slot.inflight -= 1
        exceptions = self.ray.exceptions
        try:
            record = self.ray.get(ref)
        except exceptions.RayTaskError as exc:  # the office's own code failed: this episode's error
            record = self._error_record(task, trial, f"office error: {_brief(exc)}")
        except exceptions.RayError as exc:  # the office is gone: the episode runs again elsewhere
            self._lose(slot, exc)
            key = (task.id, trial)
            self.losses[key] += 1
            if self.losses[key] < MAX_LOSSES:
                self.pending.appendleft((task, trial))
                self.log.say(f"{task.id} trial {trial}: its office was lost; it runs again")
                return
            record = self._error_record(task, trial, f"its office was lost {MAX_LOSSES} times: {_brief(exc)}")
        else:
            slot.played += 1
            self.startup_failures = 0
        self._record(record)

    def _record(self, record: EpisodeRecord) -> None:
        key = (record.task_id, record.trial)
        if key in self.recorded:  # never twice, whatever reached the driver
            return
        self.recorded.add(key)
        self.log.add(record)

    def _error_record(self, task: Task, trial: int, error: str) -> EpisodeRecord:
        return EpisodeRecord.ungraded(task.id, "error", error, error_kind="infrastructure", category=task.category,
                                      apps=task.apps, trial=trial,
                                      agent=self.agent.name, model=getattr(self.agent, "model", None),
                                      mode=self.cfg.mode, tokens={"prompt": 0, "completion": 0})


def _brief(exc: BaseException) -> str:
    """The first and last lines of a Ray error, which otherwise carries whole tracebacks."""
    lines = [line.strip() for line in re.sub(r"\x1b\[[0-9;]*m", "", str(exc)).splitlines() if line.strip()]
    text = " ... ".join(dict.fromkeys([lines[0], lines[-1]])) if lines else ""
    return f"{type(exc).__name__}: {text}"[:400]
