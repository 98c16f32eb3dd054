"""What runs on a Ray node for ``eval --engine ray``: one office, that is a private officesim server on
this node, and the agent, playing the episodes the driver sends.

The server is a ``LocalServer`` child of the actor's process, on the node's loopback: sessions and
their files never cross the network, only the finished ``EpisodeRecord`` does. When the actor's
process dies (its node killed, ``ray.kill``), the server sees its lifeline pipe close and stops.
This module imports no Ray: the driver (runner/ray_engine.py) makes ``Office`` an actor.
"""

from __future__ import annotations

import functools
import os
import socket
import sys
from pathlib import Path
from typing import Callable

from officesim.evaluators.record import EpisodeRecord
from officesim.runner.agents import Agent, NoopAgent, OracleAgent, _import_agent_module, load_agent
from officesim.runner.localserver import PARENT_FD_ENV, LocalServer, ServerStartError
from officesim.server.client import OfficeClient
from officesim.tasks.model import Task

AgentFactory = Callable[[], Agent]

# the driver's settings that the offices' servers see too (not its token nor its lifeline)
_NOT_FORWARDED = {"OFFICESIM_TOKEN", PARENT_FD_ENV}


def forwarded_env(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The driver's OFFICESIM_* settings (limits, sessions) for the servers on the nodes."""
    environ = os.environ if environ is None else environ
    return {k: v for k, v in environ.items() if k.startswith("OFFICESIM_") and k not in _NOT_FORWARDED}


def agent_factory(spec: str, *, tasks: dict[str, Task], model: str | None, options: dict) -> AgentFactory:
    """How a node builds the agent, picklable and independent of the driver's files: the oracle with the
    tasks it plays, the openai agent with its endpoint, a user's class shipped by value with its options."""
    if spec == "oracle":
        return functools.partial(OracleAgent, tasks)
    if spec == "noop":
        return NoopAgent
    if spec == "openai":  # the endpoint and key as the driver sees them: the nodes need no settings of their own
        options = {"base_url": os.environ.get("OPENAI_BASE_URL"), "api_key": os.environ.get("OPENAI_API_KEY"),
                   **options}
        return functools.partial(load_agent, "openai", tasks={}, model=model, options=options)
    module_name, _, attr = spec.rpartition(":")
    module = sys.modules.get(f"officesim_agent_{Path(module_name).stem}") if module_name.endswith(".py") else None
    module = module or _import_agent_module(module_name)
    if not module.__name__.startswith("officesim."):
        # the user's module is not installed on the nodes: its code travels with the pickled class
        from ray import cloudpickle

        cloudpickle.register_pickle_by_value(module)
    kwargs = {**options, **({"model": model} if model is not None else {})}
    return functools.partial(_build_user_agent, getattr(module, attr), kwargs, spec, model)


def _build_user_agent(factory: Callable[..., Agent], kwargs: dict, spec: str, model: str | None) -> Agent:
    agent = factory(**kwargs)
    if not getattr(agent, "name", None):
        agent.name = spec  # type: ignore[attr-defined]
    if not hasattr(agent, "model"):
        agent.model = model  # type: ignore[attr-defined]
    return agent


class Office:
    """One officesim server on this node and the agent that plays episodes on it (a Ray actor)."""

    def __init__(self, make_agent: AgentFactory, task_dirs: list[str], include_suite: bool, env: dict[str, str]):
        self.server = LocalServer([Path(d) for d in task_dirs], env=env, include_suite=include_suite)
        self.server.start()
        self.server.wait_healthy()
        self.client: OfficeClient | None = None  # made at the first episode, with the run's timeouts
        self.agent = make_agent()

    def where(self) -> str:
        """This node as the progress lines name it (the office is ready once this answers)."""
        import ray  # in the actor, Ray is there

        return f"{socket.gethostname()} (node {ray.get_runtime_context().get_node_id()[:12]})"

    def play(self, task: Task, trial: int, cfg) -> EpisodeRecord:
        """One task x trial on this node's server, played again when it ends without a verdict (as the
        local engine does); cfg is the driver's EvalConfig (mode, max_steps, retries, timeouts)."""
        from officesim.runner.play import play_episode

        if self.client is None:
            self.client = OfficeClient(self.server.url, token=self.server.token, timeout=cfg.timeout,
                                       session_timeout=cfg.session_timeout)
        return play_episode(self._pick, self.agent, task, trial, cfg)

    def _pick(self, attempt: int) -> OfficeClient:
        if attempt > 1:
            try:
                restarted = self.server.ensure_running()  # its server died: started again before the retry
            except ServerStartError:  # the attempt meets a refused connection: an error record
                restarted = False
            if restarted and str(self.client._http.base_url).rstrip("/") != self.server.url:
                old, self.client = self.client, OfficeClient(self.server.url, token=self.server.token,
                                                             timeout=self.client.timeout,
                                                             session_timeout=self.client.session_timeout)
                old.close()
        return self.client

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        self.server.stop()
