"""The agent interface, the reference agents (oracle, noop), and loading a user's agent by import path.

An agent gets an ``Episode`` (one session on one task) and acts through it until it finishes::

    class MyAgent:
        name = "mine"
        model = None
        def solve(self, episode: Episode) -> None:
            episode.act("system", "switch_app", {"target_app": "excel"})
            ...
            episode.finish("answer, if the task asks a question")

The runner finishes the session itself if the agent returns without doing so.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Protocol

from tasks.model import Task


class Episode:
    """One attempt at one task as an agent sees it: the task, the prompt, the tools, and act()."""

    def __init__(self, client: Any, session: dict):
        self.client = client
        self.session_id: str = session["session_id"]
        self.task: dict = session["task"]
        self.prompt: str = session["prompt"]
        self.tools: list[dict] = session["tools"]
        self.current_app: str = session["current_app"]
        self.done = False
        self.last: dict | None = None
        self.evaluation: dict | None = None
        self.tokens = {"prompt": 0, "completion": 0}
        self.llm_latency_s = 0.0
        self.llm_calls = 0

    def act(self, app: str, action: str, args: dict | None = None) -> dict:
        """Send one action; returns the API response ({ok, observation, data, error, ...})."""
        resp = self.client.act(self.session_id, app, action, args or {})
        self._absorb(resp)
        return resp

    def act_raw(self, body: dict) -> dict:
        """Send an action body as given (e.g. the flat OfficeBench form an LLM wrote)."""
        resp = self.client.act_raw(self.session_id, body)
        self._absorb(resp)
        return resp

    def finish(self, answer: Any = None) -> dict:
        resp = self.client.finish(self.session_id, None if answer is None else str(answer))
        self._absorb(resp)
        self.done = True
        return resp

    def record_usage(self, prompt_tokens: int = 0, completion_tokens: int = 0, latency_s: float = 0.0) -> None:
        """Agents that call a model report its token use and latency here; it lands in the record."""
        self.tokens["prompt"] += int(prompt_tokens or 0)
        self.tokens["completion"] += int(completion_tokens or 0)
        self.llm_latency_s += latency_s
        self.llm_calls += 1

    def _absorb(self, resp: dict) -> None:
        self.last = resp
        self.current_app = resp.get("current_app", self.current_app)
        if resp.get("tools") is not None:
            self.tools = resp["tools"]
        if resp.get("done"):
            self.done = True
            self.evaluation = resp.get("evaluation") or self.evaluation


class Agent(Protocol):
    name: str
    model: str | None

    def solve(self, episode: Episode) -> None: ...


class OracleAgent:
    """Plays each task's gold solution: proves the suite, the API and the evaluators end to end."""

    name = "oracle"
    model = None

    def __init__(self, tasks: dict[str, Task]):
        self.tasks = tasks

    def solve(self, episode: Episode) -> None:
        task = self.tasks[episode.task["id"]]
        for action in task.gold:
            if episode.done:
                return
            if action.app == "system" and action.action == "finish_task":
                episode.finish(action.args.get("answer", task.answer))
                return
            episode.act(action.app, action.action, action.args)
        if not episode.done:
            episode.finish(task.answer)


class NoopAgent:
    """Finishes at once: a task that passes under this agent checks nothing (unless no_action)."""

    name = "noop"
    model = None

    def solve(self, episode: Episode) -> None:
        episode.finish(None)


def load_agent(spec: str, *, tasks: dict[str, Task], model: str | None = None, options: dict | None = None) -> Agent:
    """Build an agent from a name (oracle, noop, openai), an import path ``pkg.module:Factory``
    (modules under the current directory are found) or a file path ``path/to/agent.py:Factory``.

    A factory (usually the agent class) is called with the options as keyword arguments, plus
    ``model=`` when a model is given.
    """
    options = options or {}
    if spec in ("oracle", "noop") and options:
        raise ValueError(f"the {spec} agent takes no options (got {', '.join(sorted(options))})")
    if spec == "oracle":
        return OracleAgent(tasks)
    if spec == "noop":
        return NoopAgent()
    if spec == "openai":
        from server.eval.openai_agent import OpenAIAgent

        return OpenAIAgent(model=model, **options)
    if ":" not in spec:
        raise ValueError(f"unknown agent '{spec}': use oracle, noop, openai, an import path like mypkg.agent:MyAgent "
                         "or a file like my_agent.py:MyAgent")
    module_name, _, attr = spec.rpartition(":")
    try:
        factory: Callable[..., Agent] = getattr(_import_agent_module(module_name), attr)
    except (ImportError, AttributeError, OSError) as exc:
        raise ValueError(f"cannot load agent '{spec}': {exc}") from exc
    kwargs = {**options, **({"model": model} if model is not None else {})}
    try:
        agent = factory(**kwargs)
    except TypeError as exc:
        raise ValueError(f"cannot create agent '{spec}' with {sorted(kwargs) or 'no arguments'}: {exc}") from exc
    if not callable(getattr(agent, "solve", None)):
        raise ValueError(f"agent '{spec}' has no solve(episode) method")
    if not getattr(agent, "name", None):
        agent.name = spec  # type: ignore[attr-defined]
    if not hasattr(agent, "model"):
        agent.model = model  # type: ignore[attr-defined]
    return agent


def _import_agent_module(name: str) -> ModuleType:
    """A module by dotted name (the current directory is importable, as with ``python -m``) or a .py file."""
    if name.endswith(".py"):
        path = Path(name).resolve()
        if not path.is_file():
            raise ImportError(f"no file {name}")
        spec = importlib.util.spec_from_file_location(f"officesim_agent_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.append(cwd)
    return importlib.import_module(name)


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")
