"""Pass rates of a run broken down by app, scenario and split, and the spread of steps, tokens and
scores: the figures summary.json, report.html and compare.html share.

Pure functions over records (like runner/summary.py), so a merged run breaks down as the unsharded one.
"""

from __future__ import annotations

from collections import defaultdict
from math import comb
from statistics import mean, median
from typing import Callable, Iterable

from officesim.evaluators.record import EpisodeRecord


def pass_hat_k(records: Iterable[EpisodeRecord]) -> dict[str, float]:
    """tau-bench's pass^k: the chance that k trials of a task all pass, averaged over tasks."""
    per_task: dict[str, list[bool]] = defaultdict(list)
    for rec in records:
        per_task[rec.task_id].append(rec.passed)
    if not per_task:
        return {}
    n = min(len(v) for v in per_task.values())
    out = {}
    for k in range(1, n + 1):
        vals = [comb(sum(v), k) / comb(len(v), k) for v in per_task.values()]
        out[str(k)] = round(sum(vals) / len(vals), 4)
    return out


UNKNOWN = "unknown"  # records written before scenario and split were recorded
SCORE_BINS = 10  # the score histogram: [0, 0.1), [0.1, 0.2), ..., [0.9, 1.0]


def _rate(passed: int, total: int) -> float:
    return round(passed / total, 4) if total else 0.0


def by_category(rec: EpisodeRecord) -> list[str]:
    return [str(rec.category) if rec.category is not None else UNKNOWN]


def by_app(rec: EpisodeRecord) -> list[str]:
    """A task of several apps counts towards each of them."""
    return list(rec.apps) or [UNKNOWN]


def by_scenario(rec: EpisodeRecord) -> list[str]:
    return [rec.scenario or UNKNOWN]


def by_split(rec: EpisodeRecord) -> list[str]:
    return [rec.split or UNKNOWN]


GROUPINGS: dict[str, Callable[[EpisodeRecord], list[str]]] = {
    "category": by_category, "app": by_app, "scenario": by_scenario, "split": by_split}


def group(records: Iterable[EpisodeRecord], key: Callable[[EpisodeRecord], list[str]]) -> dict[str, list[EpisodeRecord]]:
    out: dict[str, list[EpisodeRecord]] = defaultdict(list)
    for rec in records:
        for name in key(rec):
            out[name].append(rec)
    return dict(sorted(out.items()))


def group_stats(records: list[EpisodeRecord]) -> dict:
    """One group's figures: episodes, tasks, passes, pass rate, and pass^k when tasks ran several trials."""

    passed = sum(r.passed for r in records)
    out = {"total": len(records), "tasks": len({r.task_id for r in records}), "passed": passed,
           "pass_rate": _rate(passed, len(records))}
    if max((r.trial for r in records), default=1) > 1:
        out["pass_hat_k"] = pass_hat_k(records)
    return out


def breakdowns(records: list[EpisodeRecord]) -> dict[str, dict]:
    """summary.json's by_app, by_scenario and by_split (by_category keeps its older, richer shape)."""
    return {f"by_{name}": {k: group_stats(v) for k, v in group(records, GROUPINGS[name]).items()}
            for name in ("app", "scenario", "split")}


def total_tokens(rec: EpisodeRecord) -> int:
    return sum((rec.tokens or {}).get(k, 0) for k in ("prompt", "completion"))


def describe(values: list[float]) -> dict:
    """min, median, mean, 90th percentile (nearest rank) and max; all None for no values."""
    if not values:
        return {"min": None, "median": None, "mean": None, "p90": None, "max": None}
    ordered = sorted(values)
    p90 = ordered[max(0, -(-len(ordered) * 9 // 10) - 1)]
    return {"min": ordered[0], "median": median(ordered), "mean": round(mean(ordered), 3), "p90": p90, "max": ordered[-1]}


def score_histogram(records: Iterable[EpisodeRecord]) -> list[int]:
    """Episodes per score tenth; a score of 1.0 falls in the last bin."""
    counts = [0] * SCORE_BINS
    for rec in records:
        counts[min(SCORE_BINS - 1, int(rec.score * SCORE_BINS + 1e-9))] += 1
    return counts


def distributions(records: list[EpisodeRecord]) -> dict:
    """summary.json's spread of steps and tokens per episode, and its score histogram."""
    return {"steps": describe([r.steps for r in records]), "tokens": describe([total_tokens(r) for r in records]),
            "score_histogram": score_histogram(records)}


def _short(n: int) -> str:
    """12345 -> '12k', 2500000 -> '2.5M': a chart's axis labels stay narrow."""
    if abs(n) >= 1_000_000:
        return f"{n / 1_000_000:.3g}M"
    if abs(n) >= 10_000:
        return f"{n / 1000:.0f}k"
    return str(n)


def histogram(values: list[int], bins: int = 12) -> list[tuple[str, int]]:
    """Integer values in at most ``bins`` equal-width bins, labelled by their range, for a chart."""
    if not values:
        return []
    low, high = min(values), max(values)
    width = max(1, -(-(high - low + 1) // bins))
    counts: dict[int, int] = defaultdict(int)
    for v in values:
        counts[(v - low) // width] += 1
    out = []
    for i in range((high - low) // width + 1):
        start = low + i * width
        label = _short(start) if width == 1 else f"{_short(start)}–{_short(start + width - 1)}"
        out.append((label, counts[i]))
    return out
