"""summary.json from results.jsonl: pass rates by category (outcome-centric, and checks-only beside it; for
imported tasks the benchmark's original evaluation too),
side effects, which grading component failed, pass^k, process metrics.

Pure functions over records, so a merged run and an unsharded run summarise identically.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from typing import Any, Iterable

from officesim.evaluators.record import EpisodeRecord
from officesim.runner.breakdown import breakdowns, distributions, pass_hat_k  # noqa: F401  (pass_hat_k: also read from here)
from officesim.runner.published import published

# left out of the process metrics: moving, finishing and asking (asking has its own metrics: ask_metrics)
SYSTEM_OPS = {("system", "switch_app"), ("system", "finish_task"), ("system", "ask_user")}


def _rate(passed: int, total: int) -> float:
    return round(passed / total, 4) if total else 0.0


def _norm_args(args: Any) -> str:
    """Arguments compared as canonical JSON with strings trimmed and lower-cased."""

    def norm(v: Any) -> Any:
        if isinstance(v, str):
            return v.strip().lower()
        if isinstance(v, dict):
            return {k: norm(x) for k, x in v.items() if x is not None}
        if isinstance(v, list):
            return [norm(x) for x in v]
        if isinstance(v, float) and v.is_integer():
            return int(v)
        return v

    return json.dumps(norm(args or {}), sort_keys=True)


def process_counts(trajectory: Iterable[dict], gold: Iterable[dict]) -> dict:
    """Operation selection and argument filling of one episode, measured against the gold trajectory.

    Operations are (app, action) pairs, system switching/finishing left out; matching is by multiset.
    """
    agent_ops = [(s.get("app"), s.get("action"), _norm_args(s.get("args"))) for s in trajectory
                 if (s.get("app"), s.get("action")) not in SYSTEM_OPS]
    gold_ops = [(g["app"], g["action"], _norm_args(g.get("args"))) for g in gold
                if (g["app"], g["action"]) not in SYSTEM_OPS]
    a_ops, g_ops = Counter(o[:2] for o in agent_ops), Counter(o[:2] for o in gold_ops)
    matched = sum((a_ops & g_ops).values())
    args_matched = sum((Counter(agent_ops) & Counter(gold_ops)).values())
    return {"agent_ops": len(agent_ops), "gold_ops": len(gold_ops), "matched_ops": matched, "args_matched": args_matched}


def process_metrics(records: Iterable[EpisodeRecord]) -> dict:
    totals = Counter()
    for rec in records:
        totals.update(rec.process or {})
    return {
        "operation_precision": _rate(totals["matched_ops"], totals["agent_ops"]),
        "operation_recall": _rate(totals["matched_ops"], totals["gold_ops"]),
        "argument_accuracy": _rate(totals["args_matched"], totals["matched_ops"]),
        **{k: totals[k] for k in ("agent_ops", "gold_ops", "matched_ops", "args_matched")},
    }


def ask_metrics(records: Iterable[EpisodeRecord]) -> dict:
    """system.ask_user over the run: questions asked, and ask recall and precision over all episodes
    (needed questions asked / needed; needed questions asked / asked); None where nothing to divide."""
    records = list(records)
    asked, needed, hit = (sum(getattr(r, k) for r in records) for k in ("questions_asked", "questions_needed", "needed_asked"))
    return {"questions_asked": asked, "questions_needed": needed, "needed_asked": hit,
            "ask_recall": _rate(hit, needed) if needed else None, "ask_precision": _rate(hit, asked) if asked else None,
            "episodes_asking": sum(r.questions_asked > 0 for r in records)}


def _checks_only(rec: EpisodeRecord) -> bool:
    """The lenient verdict (checks alone); records written before it existed had only that one."""
    return rec.passed if rec.passed_checks_only is None else rec.passed_checks_only


def _original(records: list[EpisodeRecord]) -> dict:
    """The original evaluation's verdict of imported tasks (evaluators/officebench.py): counted over the
    records that have one; no keys at all when none has."""
    judged = [r for r in records if r.original_passed is not None]
    if not judged:
        return {}
    passed = sum(bool(r.original_passed) for r in judged)
    return {"total_original": len(judged), "passed_original": passed, "pass_rate_original": _rate(passed, len(judged))}


def error_episodes(records: Iterable[EpisodeRecord]) -> list[dict]:
    """The episodes without a verdict, each as task, trial, kind, attempts, error and the failed call."""
    return [{"task_id": r.task_id, "trial": r.trial, "kind": r.error_kind or "infrastructure", "attempts": r.attempts,
             "error": r.error, **({"call": r.error_call.model_dump(mode="json")} if r.error_call else {})}
            for r in sorted(records, key=lambda r: (r.task_id, r.trial)) if r.no_verdict]


def elapsed_s(meta: dict) -> float | None:
    """The run's wall time: as the runner measured it (run.json ``elapsed_s``), else from ``started`` to
    ``finished`` (a merge of shards, a run older than it); None when neither is known."""
    if meta.get("elapsed_s") is not None:
        return meta["elapsed_s"]
    try:
        span = [datetime.strptime(meta[k], "%Y-%m-%dT%H:%M:%S%z") for k in ("started", "finished")]
    except (KeyError, TypeError, ValueError):
        return None
    return round((span[1] - span[0]).total_seconds(), 3)


def _counts(recs: list[EpisodeRecord]) -> dict:
    """A group's episodes, those with a verdict, passes and rates: the rates over the graded episodes only."""
    graded = [r for r in recs if not r.no_verdict]
    passed, lenient = sum(r.passed for r in graded), sum(_checks_only(r) for r in graded)
    return {"total": len(recs), "graded": len(graded), "errors": len(recs) - len(graded), "passed": passed,
            "pass_rate": _rate(passed, len(graded)), "passed_checks_only": lenient,
            "pass_rate_checks_only": _rate(lenient, len(graded))}


def summarize(records: list[EpisodeRecord], meta: dict) -> dict:
    """summary.json. Episodes without a verdict (status "error": an infrastructure fault or a failed
    grading, after their retries) are counted apart (``errors``, ``error_episodes``) and left out of every
    figure of the agent: ``pass_rate`` is passed / graded, where graded = total - errors; a failure is
    always the agent's. ``agent_errors`` counts the graded episodes whose agent raised (failures)."""
    graded = [r for r in records if not r.no_verdict]
    by_cat: dict[str, dict] = {}
    for cat in ("1", "2", "3"):
        recs = [r for r in records if str(r.category) == cat]
        mine = [r for r in recs if not r.no_verdict]
        by_cat[cat] = {**_counts(recs), **_original(mine),
                       **({"pass_hat_k": pass_hat_k(mine)} if max((r.trial for r in mine), default=1) > 1 else {})}
    trials = max((r.trial for r in records), default=1)
    summary = {
        **_counts(records),  # total, graded, errors, passed, pass_rate, passed_checks_only, pass_rate_checks_only
        **_original(graded),  # imported tasks: total_original, passed_original, pass_rate_original
        **({"published": pub} if (pub := published(graded)) else {}),  # runner/published.py
        "by_category": by_cat,
        # what went wrong, as the labels say it (EpisodeRecord.failure_labels: checks, collateral, missing, asking, error)
        "failed_components": dict(Counter(c for r in graded for c in r.failure_labels)),
        # changes the gold does not make (collateral); the gold's changes left undone are the missing rate
        "side_effect_rate": _rate(sum(bool(r.collateral_effects) for r in graded), len(graded)),
        "missing_rate": _rate(sum(bool(r.missing) for r in graded), len(graded)),
        "pass_hat_k": pass_hat_k(graded) if trials > 1 else None,
        # what the agent wrote that the reading against the office's records could not bind or read
        # (evaluators/truth.py): not graded, so counted where a reader sees it
        "unread_statements": sum(r.unread or 0 for r in graded),
        "episodes_with_unread": sum(bool(r.unread) for r in graded),
        **breakdowns(graded),  # by_app, by_scenario, by_split (runner/breakdown.py)
        "distributions": distributions(graded),
        "process": process_metrics(graded),
        "ask": ask_metrics(graded),
        "statuses": dict(Counter(r.status for r in records)),
        "agent_errors": sum(bool(r.error) for r in graded),  # the agent raised (or old records' errors): failures
        "retried": sum(r.attempts > 1 for r in records),  # episodes played more than once
        "error_episodes": error_episodes(records),
        "tokens": {
            "prompt": sum((r.tokens or {}).get("prompt", 0) for r in records),
            "completion": sum((r.tokens or {}).get("completion", 0) for r in records),
        },
        "elapsed_s": elapsed_s(meta),  # the run's wall time
        "wall_time_s": round(sum(r.wall_time_s or 0.0 for r in records), 3),  # the episodes' times, summed
        "trials": trials,
        "agent": meta.get("agent"),
        "model": meta.get("model"),
        "mode": meta.get("mode"),
        "suite": meta.get("suite"),
        "started": meta.get("started"),
        "finished": meta.get("finished"),
    }
    return summary
