"""Playing a task's gold solution (or any list of actions): the one player for every caller.

The grader replays the gold in-process through a ``Session`` (for the reference office), the
validator over HTTP (to prove the gold passes), and the oracle agent through an ``Episode``. Each
hands ``play_gold`` a ``step(app, action, args)`` callable (and optionally a ``finish(answer)``
callable); the player expands the actions (``gold_actions``), plays them in order, stops when the
session ends early, and returns what failed, each failure named by its 1-based action index.

A step's result may be an API response dict or an object with the same attributes (the session's
``StepResult``): ``ok``, ``observation``, ``done`` and ``status`` are read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from officesim.apps.registry import SYSTEM_APP

FINISH = "finish_task"

Step = Callable[[str, str, dict], Any]
Finish = Callable[[Any], Any]


def gold_actions(actions: Iterable[Any], answer: Any) -> list[dict]:
    """Actions as dicts, with finish_task(answer) appended when they do not end with it."""
    out = [a.model_dump() if hasattr(a, "model_dump") else dict(a) for a in actions]
    if not out or (out[-1].get("app"), out[-1].get("action")) != (SYSTEM_APP, FINISH):
        out.append({"app": SYSTEM_APP, "action": FINISH, "args": {"answer": answer}})
    return out


@dataclass(frozen=True)
class GoldFailure:
    """One thing that went wrong while playing: action ``index`` (1-based) failed, or the session
    ended after it with actions still to play (``ended``)."""

    index: int
    app: str
    action: str
    message: str
    ended: bool = False

    def __str__(self) -> str:
        if self.ended:
            return self.message
        return f"action {self.index} {self.app}.{self.action}: {self.message}"


def _read(result: Any) -> tuple[bool, str, bool, Any]:
    """(ok, observation, done, status) of a step result: a response dict or a StepResult."""
    if isinstance(result, dict):
        get = result.get
    else:
        def get(name: str, default: Any = None) -> Any:
            return getattr(result, name, default)
    return bool(get("ok", False)), str(get("observation", "") or ""), bool(get("done", False)), get("status")


def play_gold(actions: Iterable[Any], answer: Any, step: Step, finish: Finish | None = None) -> list[GoldFailure]:
    """Play ``gold_actions(actions, answer)`` through ``step``; returns the failures, in order.

    ``finish_task`` goes to ``finish(answer)`` when given (its ``answer`` argument, None when
    absent, as the API reads it), else through ``step`` like any action. Playing stops when a
    step reports the session done before the last action.
    """
    steps = gold_actions(actions, answer)
    failures: list[GoldFailure] = []
    for i, act in enumerate(steps, 1):
        app, action, args = act.get("app"), act.get("action"), act.get("args") or {}
        if finish is not None and (app, action) == (SYSTEM_APP, FINISH):
            result = finish(args.get("answer"))
        else:
            result = step(app, action, args)
        ok, observation, done, status = _read(result)
        if not ok:
            failures.append(GoldFailure(i, app, action, observation))
        if done and i < len(steps):
            failures.append(GoldFailure(i, app, action, f"session ended ({status}) after action {i} of {len(steps)}",
                                        ended=True))
            break
    return failures
