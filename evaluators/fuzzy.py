"""Fuzzy checks: text that must (not) appear, similarity above a threshold, times within a tolerance,
and files that must (not) exist. They accept the many right ways an agent may phrase or place things.
"""

from __future__ import annotations

import posixpath

from rapidfuzz import fuzz, utils

from officesim.evaluators.exact import events_named, list_events
from officesim.evaluators.registry import CheckResult, Ratio, TimeStr, check
from officesim.evaluators.state import EvalState, calendar_events, find_entry, get_entry, near_names, office_path
from officesim.evaluators.text import as_datetime, as_list, collapse, document_text, norm, show, text_contains


def _closest_passage(needle: str, haystack: str, case_sensitive: bool) -> str:
    """'; closest passage: '...' (81%)' locating the best partial match, for failure messages."""
    a, b = norm(needle, case_sensitive), collapse(haystack)
    if not a or not b:
        return ""
    align = fuzz.partial_ratio_alignment(a, b if case_sensitive else b.casefold())
    if align is None or align.score < 50:
        return ""
    return f"; closest passage: {show(b[align.dest_start:align.dest_end].strip())} ({align.score:.0f}% alike)"


def _preview(text: str, limit: int = 80) -> str:
    flat = collapse(text)
    return "the text is empty" if not flat else f"the text starts {show(flat[:limit])}"


def similarity(a: str, b: str) -> float:
    """Token-set similarity in [0, 1], ignoring case, punctuation and word order/repeats."""
    return fuzz.token_set_ratio(a, b, processor=utils.default_process) / 100.0


@check("contains")
def contains(state: EvalState, *, file: str, text: str | list[str], case_sensitive: bool = False) -> CheckResult:
    """The file's text (``document_text``, whitespace collapsed) contains ``text``; a list means all of them."""
    path = office_path(file)
    body = document_text(get_entry(state, file))
    needles = [str(t) for t in as_list(text)]
    missing = [t for t in needles if not text_contains(body, t, case_sensitive)]
    if not missing:
        return CheckResult.ok(f"{path} contains {', '.join(show(t) for t in needles)}")
    first = missing[0]
    hint = _closest_passage(first, body, case_sensitive) or f"; {_preview(body)}"
    return CheckResult.fail(f"{path}: expected to contain {', '.join(show(t) for t in missing)}, not found{hint}")


@check("not_contains")
def not_contains(state: EvalState, *, file: str, text: str | list[str], case_sensitive: bool = False) -> CheckResult:
    """The file's text contains none of ``text``."""
    path = office_path(file)
    body = document_text(get_entry(state, file))
    present = [str(t) for t in as_list(text) if text_contains(body, str(t), case_sensitive)]
    if not present:
        return CheckResult.ok(f"{path} contains none of {show([str(t) for t in as_list(text)])}")
    flat = collapse(body)
    key = norm(present[0], case_sensitive)
    at = (flat if case_sensitive else flat.casefold()).find(key)
    around = flat[max(0, at - 30): at + len(key) + 30]
    return CheckResult.fail(f"{path}: expected not to contain {', '.join(show(t) for t in present)}, found in {show(around)}")


@check("similar")
def similar(state: EvalState, *, file: str, text: str, threshold: Ratio = 0.85) -> CheckResult:
    """The file's text is similar to ``text``: token-set ratio (ci, punctuation ignored) >= ``threshold``."""
    path = office_path(file)
    body = document_text(get_entry(state, file))
    score = similarity(text, body)
    if score >= threshold:
        return CheckResult.ok(f"{path} is {score:.2f} similar to the expected text (threshold {threshold})")
    return CheckResult.fail(f"{path}: similarity {score:.2f} to {show(text, 60)} is below {threshold}; {_preview(body)}")


def _no_answer(expected: str) -> CheckResult:
    return CheckResult.fail(f"no answer was given; expected one containing {expected}")


@check("answer_contains")
def answer_contains(state: EvalState, *, text: str | list[str]) -> CheckResult:
    """The finish_task answer contains ``text`` (ci, whitespace collapsed); a list means all of them."""
    needles = [str(t) for t in as_list(text)]
    if not collapse(state.answer):
        return _no_answer(", ".join(show(t) for t in needles))
    missing = [t for t in needles if not text_contains(str(state.answer), t)]
    if not missing:
        return CheckResult.ok(f"the answer contains {', '.join(show(t) for t in needles)}")
    return CheckResult.fail(f"the answer lacks {', '.join(show(t) for t in missing)}; found {show(collapse(state.answer), 200)}")


@check("answer_similar")
def answer_similar(state: EvalState, *, text: str, threshold: Ratio = 0.85) -> CheckResult:
    """The finish_task answer is similar to ``text``: token-set ratio (ci) >= ``threshold``."""
    if not collapse(state.answer):
        return CheckResult.fail(f"no answer was given; expected one similar to {show(text)}")
    score = similarity(text, str(state.answer))
    if score >= threshold:
        return CheckResult.ok(f"the answer is {score:.2f} similar to {show(text)} (threshold {threshold})")
    return CheckResult.fail(
        f"the answer {show(collapse(state.answer), 200)} is {score:.2f} similar to {show(text)}, below {threshold}"
    )


@check("event_time_near")
def event_time_near(
    state: EvalState, *, user: str, summary: str, start: TimeStr, tolerance_minutes: float = 15
) -> CheckResult:
    """An event titled ``summary`` (ci) starts within ``tolerance_minutes`` of ``start``."""
    events = calendar_events(state, user)
    named = events_named(events, summary)
    who = f"calendar of {user.strip().lower()}"
    if not named:
        return CheckResult.fail(f"{who}: no event {show(summary)} ({list_events(events)})")
    want = as_datetime(start, state.timezone)
    offsets = [
        (abs((t - want).total_seconds()) / 60, e)
        for e in named
        if (t := as_datetime(e.get("start"), state.timezone)) is not None
    ]
    if not offsets:
        return CheckResult.fail(f"{who}: event {show(summary)} has no readable start time")
    minutes, event = min(offsets, key=lambda x: x[0])
    if minutes <= tolerance_minutes:
        return CheckResult.ok(f"{who}: {show(summary)} starts {event.get('start')}, {minutes:g} min from {start}")
    return CheckResult.fail(
        f"{who}: {show(summary)} starts {event.get('start')}, {minutes:g} min from the expected {start} "
        f"(tolerance {tolerance_minutes:g} min)"
    )


@check("file_exists")
def file_exists(state: EvalState, *, file: str) -> CheckResult:
    """A file exists at ``file`` (any kind, even one that could not be parsed)."""
    path = office_path(file)
    entry = find_entry(state, path)
    if entry is not None:
        return CheckResult.ok(f"{path} exists ({entry.get('kind')})")
    return CheckResult.fail(f"{path}: file not found{near_names(state, path)}")


@check("file_not_exists")
def file_not_exists(state: EvalState, *, file: str) -> CheckResult:
    """No file exists at ``file``."""
    path = office_path(file)
    entry = find_entry(state, path)
    if entry is None:
        return CheckResult.ok(f"{path} does not exist")
    return CheckResult.fail(f"{path}: expected no such file, found a {entry.get('kind')} file")


@check("dir_files")
def dir_files(state: EvalState, *, dir: str, names: list[str]) -> CheckResult:
    """The set of file names directly in ``dir`` equals ``names`` (sub-folders' files not counted)."""
    folder = office_path(dir)
    found = {posixpath.basename(p) for p in state.files if posixpath.dirname(p) == folder}
    wanted = {str(n).strip() for n in names}
    if found == wanted:
        return CheckResult.ok(f"{folder or '.'}/ holds exactly {sorted(found)}")
    parts = []
    if wanted - found:
        parts.append(f"missing {sorted(wanted - found)}")
    if found - wanted:
        parts.append(f"unexpected {sorted(found - wanted)}")
    return CheckResult.fail(f"{folder or '.'}/: expected {sorted(wanted)}, found {sorted(found)} ({'; '.join(parts)})")
