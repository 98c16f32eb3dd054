"""The simulated user behind ``system.ask_user``: a task's scripted replies, matched without an LLM.

A task scripts its user as a list of ``{when, reply, needed}`` entries plus a default reply
(tasks/FORMAT.md §3). A question gets the reply of the first entry whose ``when`` it matches:

- ``when`` as a text is a regular expression, searched in the question ignoring case;
- ``when`` as a list holds words or phrases: the question matches when it contains one of them at a
  word start, ignoring case (``recipient`` matches "Which recipients?").

No entry matched: the default reply. The same matching decides, at grading, which of the task's
``needed`` entries the agent's questions reached (``ask_counts``), so replies and metrics agree.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping, Sequence

DEFAULT_REPLY = "I don't know; use your judgement"
QUESTION_LIMIT = 2_000  # characters a question may have
SETTINGS_KEY = "ask_user"  # OfficeContext.settings[SETTINGS_KEY] = {"replies": [...], "default": str}


def matches(when: str | Sequence[str], question: str) -> bool:
    """Whether ``question`` matches one scripted ``when`` (a regex, or a list of words or phrases)."""
    if isinstance(when, str):
        return re.search(when, question, re.IGNORECASE) is not None
    return any(re.search(r"(?<!\w)" + re.escape(str(w).strip()), question, re.IGNORECASE) for w in when if str(w).strip())


def match_reply(replies: Sequence[Mapping[str, Any]], question: str) -> int | None:
    """The index of the first entry ``question`` matches, or None."""
    for i, entry in enumerate(replies):
        if matches(entry["when"], question):
            return i
    return None


def reply_to(script: Mapping[str, Any] | None, question: str) -> str:
    """The scripted user's reply to ``question``: the first matching entry's, else the default."""
    script = script or {}
    replies = script.get("replies") or []
    index = match_reply(replies, question)
    return replies[index]["reply"] if index is not None else str(script.get("default") or DEFAULT_REPLY)


def ask_counts(replies: Sequence[Mapping[str, Any]], questions: Iterable[str]) -> dict[str, int]:
    """How an episode's questions relate to the task's needed entries: ``questions_asked``,
    ``questions_needed`` (needed entries in the script) and ``needed_asked`` (needed entries that at
    least one question matched; asking the same thing twice counts once)."""
    questions = list(questions)
    needed = {i for i, e in enumerate(replies) if e.get("needed")}
    reached = {match_reply(replies, q) for q in questions} & needed
    return {"questions_asked": len(questions), "questions_needed": len(needed), "needed_asked": len(reached)}


def asked_questions(history: Iterable[Mapping[str, Any]]) -> list[str]:
    """The questions of a session's history (its steps as the API shows them, and the calls of its
    programs in mode code) that got a reply."""
    steps = [c for h in history for c in [h, *(h.get("calls") or [])]]  # a code program's calls too
    return [str((h.get("args") or {}).get("question", "")).strip() for h in steps
            if h.get("app") == "system" and h.get("action") == "ask_user" and h.get("ok")]
