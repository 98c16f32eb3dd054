"""Mailbox checks: what a person's mail says, whoever sent it and whichever folder holds it.

OfficeBench judges mail by searching everything in a person's mailbox for keywords
(``evaluate_contain`` with ``doc_type: email``). These checks are that judgement made strict on
facts: one message (its subject and its own text, a quoted original left out) must state every fact,
the way ``contains`` reads a document (evaluators/facts.py), so keywords scattered over several
messages, or found only in a quoted original, do not count.
"""

from __future__ import annotations

from typing import Any

from officesim.evaluators.facts import own_text, states
from officesim.evaluators.registry import CheckResult, check
from officesim.evaluators.state import EvalState
from officesim.evaluators.text import as_list, collapse, show


def _messages(state: EvalState, user: str) -> list[tuple[str, dict]]:
    """(path, entry) of every message in ``user``'s mailbox, inbox and sent folder, by path."""
    who = user.strip().lower()
    return sorted((path, e) for path, e in state.files.items()
                  if e.get("kind") == "eml" and str(e.get("mailbox") or "").lower() == who)


def _said(entry: dict) -> str:
    return f"{entry.get('subject') or ''}\n{own_text(entry.get('body') or '')}"


def _facts(text: Any) -> list[Any]:
    return [[str(x) for x in t] if isinstance(t, (list, tuple)) else str(t) for t in as_list(text)]


@check("mailbox_contains")
def mailbox_contains(state: EvalState, *, user: str, text: str | list[str | list[str]],
                     exclude: str | list[str] | None = None) -> CheckResult:
    """Some message in ``user``'s mailbox (inbox or sent) states, in its subject and own text, every
    ``text`` fact (as ``contains`` reads facts; an item that is a list is a choice) and none of
    ``exclude``."""
    who = user.strip().lower()
    needles = _facts(text)
    messages = _messages(state, user)
    if not messages:
        return CheckResult.fail(f"the mailbox of {who} is empty; expected a message stating {show(needles)}")
    best: tuple[int, str, list, list] | None = None
    for path, entry in messages:
        said = _said(entry)
        missing = [t for t in needles if not states(said, t, year=state.year)]
        present = [str(t) for t in as_list(exclude) if states(said, t, year=state.year)]
        if not missing and not present:
            return CheckResult.ok(f"{path} states {', '.join(show(t) for t in needles)}")
        score = len(missing) + len(present)
        if best is None or score < best[0]:
            best = (score, path, missing, present)
    _score, path, missing, present = best
    why = []
    if missing:
        why.append(f"lacks {', '.join(show(t) for t in missing)}")
    if present:
        why.append(f"also states {', '.join(show(t) for t in present)}, which it must not")
    return CheckResult.fail(f"no message in the mailbox of {who} states {show(needles)}"
                            + (f" and none of {show([str(t) for t in as_list(exclude)])}" if exclude else "")
                            + f"; the closest, {path}, {' and '.join(why)}")


@check("mailbox_not_contains")
def mailbox_not_contains(state: EvalState, *, user: str, text: str | list[str]) -> CheckResult:
    """No message in ``user``'s mailbox (inbox or sent) states any of ``text`` in its subject or own text."""
    who = user.strip().lower()
    needles = [str(t) for t in as_list(text)]
    for path, entry in _messages(state, user):
        said = _said(entry)
        hits = [t for t in needles if states(said, t, year=state.year)]
        if hits:
            return CheckResult.fail(f"{path} states {', '.join(show(t) for t in hits)}; no message to or from "
                                    f"{who} may ({show(collapse(said), 100)})")
    return CheckResult.ok(f"no message in the mailbox of {who} states any of {show(needles)}")
