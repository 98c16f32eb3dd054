"""Mutants of asking the user (``system.ask_user``; tasks/FORMAT.md §4): a needed reply guessed instead of asked."""

from __future__ import annotations

import re

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



class QuestionsReworded(AskingMutants):
    def questions_reworded(self) -> None:
        """Each of the gold's questions to the user that a needed reply answers, asked in plain words that
        name the options (the gold's value and the one a guess would use) instead of the scripted keywords."""
        from officesim.apps.asking import matches
        from officesim.runner.mutants.registry import RIGHT

        replies = [r for r in getattr(self.task, "user_replies", None) or [] if r.needed and r.guess]
        steps = self.steps()
        changed = []
        for step in steps:
            if (step.get("app"), step.get("action")) != (SYSTEM_APP, "ask_user"):
                continue
            question = str((step.get("args") or {}).get("question") or "")
            reply = next((r for r in replies if matches(r.when, question)), None)
            if reply is None:
                continue
            pairs = sorted(((str(k), str(v)) for k, v in reply.guess.items()),
                           key=lambda p: (bool(re.fullmatch(r"[\d\s:-]+", p[0])), -len(p[0])))
            right, guessed = pairs[0]
            new = f"Is it {guessed}, or {right}?"
            step["args"] = {**(step.get("args") or {}), "question": new}
            changed.append(f"{question!r} as {new!r}")
        if changed:
            self.add(RIGHT, "question-reworded", "; ".join(changed), steps)
