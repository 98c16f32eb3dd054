"""Mutants of asking the user (``system.ask_user``; tasks/FORMAT.md §4): a needed reply guessed instead of asked."""

from __future__ import annotations

from officesim.apps.registry import SYSTEM_APP
from officesim.runner.mutants.registry import WRONG
from officesim.runner.mutants.base import (BaseDeriver, _guessed)


class AskingMutants(BaseDeriver):
    # -- wrong: guessing instead of asking (system.ask_user; tasks/FORMAT.md §4) ------------------------
    def guessed_not_asked(self) -> None:
        """For each needed reply with a ``guess``: the gold's steps without its questions, each value the
        reply gave replaced by the guess (strings by substring, other values when equal)."""
        for k, reply in enumerate(getattr(self.task, "user_replies", None) or []):
            if not reply.needed or not reply.guess:
                continue
            steps = [s for s in self.steps() if (s.get("app"), s.get("action")) != (SYSTEM_APP, "ask_user")]
            for step in steps:
                step["args"] = {key: _guessed(v, reply.guess) for key, v in (step.get("args") or {}).items()}
            answer = _guessed(self.answer, reply.guess)
            self.add(WRONG, "guessed-not-asked", f"user_replies[{k}] not asked, guessed "
                     f"{', '.join(map(str, reply.guess.values()))}", steps, answer)

