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
from typing import Callable

from officesim.runner.episode import Agent, Episode
from officesim.tasks.gold import play_gold
from officesim.tasks.model import Task


class OracleAgent:
    """Plays each task's gold solution: proves the suite, the API and the evaluators end to end."""

    name = "oracle"
    model = None

    def __init__(self, tasks: dict[str, Task]):
        self.tasks = tasks

    def solve(self, episode: Episode) -> None:
        task = self.tasks[episode.task["id"]]
        if episode.mode == "code":  # the gold as one program (server/code.py)
            from officesim.server.code import render_program

            episode.act("system", "run_code", {"code": render_program(task.gold, task.answer)})
            if not episode.done:
                episode.finish(task.answer)
            return
        play_gold(task.gold, task.answer, episode.act, episode.finish)


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
        from officesim.runner.openai_agent import OpenAIAgent

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
