"""Fuzzy checks: text that must (not) appear, similarity above a threshold, times within a tolerance,
and files that must (not) exist. They accept the many right ways an agent may phrase or place things.
"""

from __future__ import annotations

import posixpath
from typing import Any

from officesim.evaluators.exact import events_named, list_events
from officesim.evaluators.claims import added_text, gold_file, gold_kept, written_problems
from officesim.evaluators.facts import Fact, fact_of, find, other_candidates, states, unbound
from openpyxl.utils import get_column_letter
from officesim.evaluators.registry import CheckResult, Ratio, TimeStr, check
from officesim.evaluators.state import (
    EvalState,
    calendar_events,
    find_entry,
    get_entry,
    near_names,
    office_path,
)
from officesim.evaluators.text import (
    as_datetime,
    as_list,
    collapse,
    document_text,
    is_empty,
    norm,
    show,
)
from rapidfuzz import fuzz, utils


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
def contains(state: EvalState, *, file: str, text: Fact | list[Fact | list[Fact]], case_sensitive: bool = False,
             exclude: Fact | list[Fact] | None = None, ordered: bool = False,
             lines: list[list[Fact]] | None = None) -> CheckResult:
    """The file states every ``text`` fact (evaluators/facts.py: numbers, dates and times in any common
    form, other text as whole words, whitespace collapsed) and none of ``exclude`` (the other candidates
    of an enumeration); with ``ordered``, the ``text`` facts appear in the order given. An item that is a
    list is a choice: any one of its facts will do. ``lines``: groups of facts that belong together
    (a meeting and its day): each group is stated within one line or paragraph."""
    path = office_path(file)
    entry = get_entry(state, file)
    body = document_text(entry)
    table = entry.get("kind") == "xlsx"  # a row is one record: its facts are not gathered from the rows around
    apart = unbound(body, lines, case_sensitive=case_sensitive, year=state.year, stretch=not table)
    if apart:
        return CheckResult.fail(f"{path}: expected one line stating {' and '.join(show(str(f)) for f in apart[0])}"
                                f" together, none does{_closest_passage(' '.join(str(f) for f in apart[0]), body, case_sensitive)}")
    needles = [_fact(t) for t in as_list(text)]
    found = [find(body, t, case_sensitive=case_sensitive, year=state.year) for t in needles]
    missing = [t for t, m in zip(needles, found) if m is None]
    if missing:
        first = missing[0]
        hint = _closest_passage(first, body, case_sensitive) or f"; {_preview(body)}"
        return CheckResult.fail(f"{path}: expected to state {', '.join(show(t) for t in missing)}, not found{hint}")
    present = [str(t) for t in as_list(exclude) if states(body, t, case_sensitive=case_sensitive, year=state.year)]
    if present:
        return CheckResult.fail(f"{path} states {', '.join(show(t) for t in needles)} but also "
                                f"{', '.join(show(t) for t in present)}, which it must not")
    if table and state.written(path):
        loose = [f"{name}: {what}" for name, rows in (entry.get("sheets") or {}).items() for what in unlabelled(rows)]
        if loose:
            return CheckResult.fail(f"{path} states {', '.join(show(t) for t in needles)} but {loose[0]}")
    if state.written(path):  # what the agent wrote there is read closed-world (evaluators/claims.py)
        stated = [*needles, *(_fact(f) for group in lines or [] for f in group)]  # a line's facts are stated too
        problems = written_problems(state, added_text(state, path), stated, counterpart=gold_file(state, path),
                                    context=gold_kept(state, path))
        if problems:
            return CheckResult.fail(f"{path} states {', '.join(show(t) for t in needles)} but {'; '.join(problems)}")
    if ordered:
        starts = [m.start for m in found]
        if starts != sorted(starts):
            order = [t for _s, t in sorted(zip(starts, needles))]
            return CheckResult.fail(f"{path}: expected {show(needles)} in that order, found {show(order)}")
    return CheckResult.ok(f"{path} states {', '.join(show(t) for t in needles)}")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def unlabelled(rows: list[list[Any]]) -> list[str]:
    """Columns of a table that hold values under a header row but have no header: a header row (the
    all-text row right above the first row with a number) names its columns, so a value beside them, or a
    header cell left out, puts figures where a reader cannot tell what they are. A table with no header row
    is taken as it is."""
    filled = [r for r in rows if any(not is_empty(v) for v in r)]
    first = next((k for k, r in enumerate(filled) if any(_is_number(v) for v in r)), None)
    if not first or any(not is_empty(v) and not isinstance(v, str) for v in filled[first - 1]):
        return []
    head, below = filled[first - 1], filled[first:]  # a title line above the header row is not the header
    named = {i for i, v in enumerate(head) if not is_empty(v)}
    out = []
    for i in sorted({i for r in below for i, v in enumerate(r) if not is_empty(v)} - named):
        letter = get_column_letter(i + 1)
        out.append(f"column {letter} holds values under no header (the header row names {len(named)} columns)")
    return out


@check("not_contains")
def not_contains(state: EvalState, *, file: str, text: Fact | list[Fact], case_sensitive: bool = False) -> CheckResult:
    """The file states none of ``text`` (the same fact matching as ``contains``)."""
    path = office_path(file)
    body = document_text(get_entry(state, file))
    hits = [(str(t), find(body, str(t), case_sensitive=case_sensitive, year=state.year)) for t in as_list(text)]
    hits = [(t, m) for t, m in hits if m is not None]
    if not hits:
        return CheckResult.ok(f"{path} states none of {show([str(t) for t in as_list(text)])}")
    t, m = hits[0]
    around = collapse(body[max(0, m.start - 30): m.end + 30])
    return CheckResult.fail(f"{path}: expected not to state {', '.join(show(t) for t, _m in hits)}, found in {show(around)}")


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
def answer_contains(state: EvalState, *, text: Fact | list[Fact | list[Fact]],
                    exclude: Fact | list[Fact] | None = None) -> CheckResult:
    """The finish_task answer states every ``text`` fact (as ``contains`` does) and nothing that hedges:
    no other number, date or time than a numeric/date/time fact expected (figures the instruction
    itself gives aside), and none of ``exclude``. An item that is a list is a choice."""
    needles = [_fact(t) for t in as_list(text)]
    answer = str(state.answer or "")
    if not collapse(answer):
        return _no_answer(", ".join(show(t) for t in needles))
    missing = [t for t in needles if not states(answer, t, year=state.year)]
    if missing:
        return CheckResult.fail(f"the answer lacks {', '.join(show(t) for t in missing)}; found {show(collapse(answer), 200)}")
    hedges = hedged(state, needles) + [str(t) for t in as_list(exclude) if states(answer, t, year=state.year)]
    hedges += written_problems(state, answer, needles, counterpart=[state.gold_answer or ""])
    if hedges:
        return CheckResult.fail(f"the answer {show(collapse(answer), 200)} states {', '.join(show(t) for t in needles)} "
                                f"but also {', '.join(show(h) for h in hedges)}: a hedge, not an answer")
    return CheckResult.ok(f"the answer states {', '.join(show(t) for t in needles)}")


def _fact(item: Any) -> str | list[str]:
    """A fact as checks take it: text, or a list of alternative texts."""
    return [str(x) for x in item] if isinstance(item, (list, tuple)) else str(item)


def hedged(state: EvalState, expected: list[Any]) -> list[str]:
    """Other candidates the answer names beside the expected facts (only for numbers, dates, times)."""
    answer = str(state.answer or "")
    out: list[str] = []
    for e in expected:
        kind = fact_of(e[0] if isinstance(e, list) else e)[0]
        if kind in ("number", "date", "time"):
            others = other_candidates(answer, e, year=state.year, ignore=state.instruction)
            # another expected fact of the same kind is not a hedge
            others = [o for o in others if not any(states(o, x, year=state.year) for x in expected if x is not e)]
            out += [o for o in others if o not in out]
    return out


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
