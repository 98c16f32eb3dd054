"""report.html: one self-contained page (no external assets, works offline) to read a run.

The figures come from summary.json (runner/summary.py, runner/breakdown.py), the episodes from the
records; the page is runner/templates/report.html.j2. On top, the table in the shape of OfficeBench's
main results (single / two / three apps and overall); then pass-rate charts by category, app,
scenario and split (with pass^k over several trials), the spread of steps, tokens and scores; then
the run's figures as a labelled table (its wall time apart from the summed episode time); then the task
table, filterable, each failed row labelled with what happened (``EpisodeRecord.failure_labels``), each row
opening the task's instruction, the checks, the collateral and missing changes as a diff, the agent's
steps beside the gold's, and the model transcript when the agent recorded one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from officesim.evaluators.record import EpisodeRecord
from officesim.runner.breakdown import SCORE_BINS, GROUPINGS, group, group_stats, histogram, score_histogram, total_tokens
from officesim.runner.diffview import change_diffs, outcome_diffs
from officesim.runner.results import REPORT
from officesim.runner.templating import pct, render_page

CATEGORY_NAMES = {"1": "1 app", "2": "2 apps", "3": "3 apps"}
TRANSCRIPT_CHARS = 6000  # one message's text as shown


def _cell(stats: dict, passed: str, rate: str, total: str) -> dict:
    """One cell: the rate over the episodes with a verdict (``graded``, which excludes the errors; a
    summary older than it: ``total``), and the errors beside it."""
    if total == "total" and "graded" in stats:
        total = "graded"
    return {"rate": pct(stats.get(rate)) if stats.get(total) else "–", "passed": stats.get(passed, 0),
            "total": stats.get(total, 0), "errors": stats.get("errors", 0) if total == "graded" else 0}


def verdict_rows(summary: dict) -> list[dict]:
    """OfficeBench's Table 2 shape: the outcome-centric verdict, checks only, and for imported tasks the
    benchmark's original evaluation."""
    imported = summary.get("pass_rate_original") is not None
    verdicts = ((("Verified: " if imported else "") + "outcome (checks + no side effects)", "passed", "pass_rate", "total"),
                ("checks only", "passed_checks_only", "pass_rate_checks_only", "total"),
                ("original evaluation (OfficeBench's or WorkBench's own rule)", "passed_original", "pass_rate_original",
                 "total_original"))
    cats = summary.get("by_category", {})
    return [{"label": label, "cells": [_cell(cats.get(c, {}), *keys) for c in ("1", "2", "3")],
             "overall": _cell(summary, *keys)}
            for label, *keys in verdicts if summary.get(keys[1]) is not None]


def rate_rows(records: list[EpisodeRecord], name: str, k: int | None) -> list[dict]:
    """One bar per group of a grouping (category, app, scenario, split)."""
    rows = []
    for key, recs in group(records, GROUPINGS[name]).items():
        stats = group_stats(recs)
        hat = (stats.get("pass_hat_k") or {}).get(str(k)) if k else None
        label = CATEGORY_NAMES.get(key, key) if name == "category" else key
        rows.append({"label": label, "rate": stats["pass_rate"], "passed": stats["passed"], "total": stats["total"],
                     "hat": hat})
    return rows


def _text(content: Any) -> str:
    """A message's content as text: a string, or the text parts of a list of parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return "" if content is None else json.dumps(content, ensure_ascii=False)


def transcript_view(messages: list[dict] | None) -> list[dict]:
    """The model's messages as role, text and tool calls (name and arguments)."""
    out = []
    for m in messages or []:
        calls = [f"{(c.get('function') or {}).get('name', '?')}({(c.get('function') or {}).get('arguments', '')})"
                 for c in m.get("tool_calls") or []]
        text = _text(m.get("content"))
        if len(text) > TRANSCRIPT_CHARS:
            text = text[:TRANSCRIPT_CHARS] + f"… ({len(text) - TRANSCRIPT_CHARS} more characters)"
        out.append({"role": str(m.get("role", "?")), "name": m.get("tool_call_id") or m.get("name"), "text": text,
                    "calls": calls})
    return out


def anchor(rec: EpisodeRecord) -> str:
    return re.sub(r"[^a-z0-9_-]", "-", f"t-{rec.task_id}-{rec.trial}".lower())


def result_of(rec: EpisodeRecord) -> str:
    """pass, fail (the agent's), or error (no verdict: an infrastructure fault or a failed grading)."""
    return "pass" if rec.passed else "error" if rec.no_verdict else "fail"


def task_view(rec: EpisodeRecord) -> dict:
    words = [rec.task_id, rec.scenario or "", rec.split or "", " ".join(rec.apps), rec.status, " ".join(rec.failure_labels),
             result_of(rec), *(c.check for c in rec.failed_checks)]
    return {"rec": rec, "result": result_of(rec), "anchor": anchor(rec), "search": " ".join(words).lower(),
            "tokens": total_tokens(rec),
            "collateral": outcome_diffs(rec.collateral_effects), "missing": outcome_diffs(rec.missing or []),
            "changes": change_diffs(rec.changes), "transcript": transcript_view(rec.transcript)}


def histograms(records: list[EpisodeRecord]) -> list[dict]:
    tokens = [total_tokens(r) for r in records]
    score_labels = [f"{i / SCORE_BINS:.1f}" for i in range(SCORE_BINS)]
    charts = [
        {"name": "steps", "title": "Steps per episode", "unit": "episodes", "bins": histogram([r.steps for r in records]),
         "empty": "no episodes"},
        {"name": "tokens", "title": "Tokens per episode (prompt + completion)", "unit": "episodes",
         "bins": histogram(tokens) if any(tokens) else [], "empty": "no model tokens recorded (the agent reported none)"},
        {"name": "score", "title": "Score (fraction of checks passed)", "unit": "episodes",
         "bins": list(zip(score_labels, score_histogram(records))), "empty": "no episodes"},
    ]
    return [{**c, "bar_width": bar_width(c["bins"])} for c in charts]


def bar_width(bins: list[tuple[str, int]]) -> int:
    """Wide enough for the longest bin start under its bar (about 6 px a character at 10 px type)."""
    return max([30] + [6 * len(label.split("–")[0]) + 10 for label, _ in bins])


def _rate(summary: dict, rate: str, passed: str, total: str) -> str:
    return f"{pct(summary.get(rate))}% ({summary.get(passed, 0)}/{summary.get(total, 0)})"


def _counts(counts: dict | None) -> str:
    """``{"checks": 5, "missing": 2}`` as "checks 5 · missing 2", the largest first."""
    return " · ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1])) if counts else "none"


def _seconds(s: float | None) -> str:
    if s is None:
        return "–"
    minutes, seconds = divmod(round(s), 60)
    return f"{s:.1f} s" + (f" ({minutes} min {seconds} s)" if minutes else "")


def _spread(d: dict | None) -> str:
    return " · ".join(f"{k} {d[k]}" for k in ("median", "mean", "p90", "max") if k in d) if d else "–"


def run_rows(summary: dict) -> list[tuple[str, str]]:
    """The Run section: summary.json's figures as labelled, readable rows (the JSON keeps them all).
    The run's wall time and the episodes' summed times are two rows: episodes run side by side."""
    s, graded = summary, summary.get("graded", summary.get("total", 0))
    proc, ask, pub = s.get("process") or {}, s.get("ask") or {}, s.get("published") or {}
    dist, tokens = s.get("distributions") or {}, s.get("tokens") or {}
    rows = [("pass rate (outcome)", _rate(s, "pass_rate", "passed", "graded" if "graded" in s else "total")),
            ("pass rate (checks only)", _rate(s, "pass_rate_checks_only", "passed_checks_only",
                                              "graded" if "graded" in s else "total")),
            ("pass rate (original evaluation)", _rate(s, "pass_rate_original", "passed_original", "total_original")
             if s.get("pass_rate_original") is not None else None),
            *((f"published verdict ({name})", f"{pct(v.get('pass_rate'))}% ({v.get('passed')}/{v.get('total')}; "
               f"{v.get('tasks_run')} task(s) run)") for name, v in pub.items()),
            ("pass^k", " · ".join(f"pass^{k} {pct(v)}%" for k, v in s["pass_hat_k"].items()) if s.get("pass_hat_k") else None),
            ("failures, by what happened", _counts(s.get("failed_components"))),
            ("collateral (side-effect rate)", f"{pct(s.get('side_effect_rate'))}% of {graded} graded episode(s)"),
            ("missing (gold changes not made)", f"{pct(s.get('missing_rate'))}% of {graded} graded episode(s)"),
            ("errors", f"{s.get('errors', 0)} without a verdict · {s.get('agent_errors', 0)} agent error(s) · "
                       f"{s.get('retried', 0)} played again"),
            ("statuses", _counts(s.get("statuses"))),
            ("process (against the gold)", f"operation precision {proc.get('operation_precision', '–')} · recall "
             f"{proc.get('operation_recall', '–')} · argument accuracy {proc.get('argument_accuracy', '–')}" if proc else None),
            ("asking", f"{ask.get('questions_asked', 0)} question(s) asked, {ask.get('questions_needed', 0)} needed · "
                       f"recall {ask.get('ask_recall') if ask.get('ask_recall') is not None else '–'} · precision "
                       f"{ask.get('ask_precision') if ask.get('ask_precision') is not None else '–'}" if ask else None),
            ("tokens", f"prompt {tokens.get('prompt', 0)} · completion {tokens.get('completion', 0)}"),
            ("steps per episode", _spread(dist.get("steps"))),
            ("tokens per episode", _spread(dist.get("tokens"))),
            ("wall time (elapsed)", _seconds(s.get("elapsed_s"))),
            ("episode time (summed)", f"{_seconds(s.get('wall_time_s'))} over {s.get('total', 0)} episode(s), "
                                      "which may run side by side"),
            ("mode · trials", f"{s.get('mode') or '–'} · {s.get('trials') or 1}"),
            ("started – finished", f"{s.get('started') or '–'} – {s.get('finished') or '–'}"),
            ("suite (fingerprint)", s.get("suite"))]
    return [(label, value) for label, value in rows if value is not None]


def render(records: list[EpisodeRecord], summary: dict) -> str:
    """The page, from the records and the summary computed from them."""
    records = sorted(records, key=lambda r: (r.task_id, r.trial))
    trials = max((r.trial for r in records), default=1)
    k = trials if trials > 1 else None
    graded = [r for r in records if not r.no_verdict]  # the charts are the agent's: errors left out
    errors = [task_view(r) for r in records if r.no_verdict]
    charts = [{"name": n, "title": t, "rows": rate_rows(graded, n, k)}
              for n, t in (("category", "category"), ("app", "app"), ("scenario", "family (scenario)"), ("split", "split"))]
    filters = [{"field": "category", "options": sorted({str(r.category) if r.category is not None else "unknown"
                                                        for r in records})},
               {"field": "app", "options": sorted({a for r in records for a in r.apps})},
               {"field": "split", "options": sorted({r.split or "unknown" for r in records})},
               {"field": "status", "options": sorted({r.status for r in records})}]
    summary = {**{"agent": None, "model": None, "mode": None, "total": len(records), "trials": trials,
                  "started": None, "finished": None}, **summary}
    return render_page("report.html.j2", s=summary, verdicts=verdict_rows(summary), rate_charts=charts,
                       histograms=histograms(graded), k=k, run_rows=run_rows(summary), filters=filters,
                       tasks=[task_view(r) for r in records], errors=errors)


def write_report(run_dir: Path, records: list[EpisodeRecord], summary: dict) -> Path:
    path = Path(run_dir) / REPORT
    path.write_text(render(records, summary), encoding="utf-8")
    return path
