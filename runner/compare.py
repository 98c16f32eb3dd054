"""Two runs of the same tasks compared task by task: compare.json and compare.html.

Tasks are paired by id (a merged run of shards pairs like the unsharded one); a task's outcome in a
run is passed when every trial passed (as ``--baseline`` counts it), and its rate the share of trials
passed. Flips are the tasks whose outcome differs. Whether B differs from A is judged on the paired
outcomes by the exact McNemar test (the discordant pairs against a fair coin), with a 95% paired
confidence interval for the change in pass rate; per category, app, scenario and split as well.
compare.html shows each task's instruction, and a flipped task's two runs side by side (``flip_views``).
"""

from __future__ import annotations

import math
import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean

from officesim.evaluators.record import EpisodeRecord
from officesim.runner.breakdown import GROUPINGS, total_tokens
from officesim.runner.results import REPORT, RUN_META, read_json, read_results, write_json
from officesim.runner.templating import render_page

COMPARE_JSON = "compare.json"
COMPARE_HTML = "compare.html"
FLIPS_SHOWN = 15  # flips listed before the rest fold away
COST_LABELS = {"wall_time_s": "episode time, summed (s)"}  # not the runs' wall time: episodes run side by side
Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


class CompareError(Exception):
    """Two directories that cannot be compared; the message says why."""


def mcnemar_exact(gained: int, lost: int) -> float:
    """The two-sided exact McNemar p-value: under no difference each discordant pair is a fair coin,
    so min(gained, lost) follows Binomial(gained + lost, 1/2). 1.0 when there is no discordant pair."""
    n = gained + lost
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(gained, lost) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def p_text(p: float) -> str:
    """A p-value as read: ``p < 0.001`` when tiny (never "p = 0"), else ``p = 0.03088``."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.4g}"


def paired_interval(diffs: list[float]) -> tuple[float, float] | None:
    """A 95% confidence interval (normal approximation) of the mean of paired differences, clipped to
    [-1, 1]; None for fewer than two pairs. Rough for few tasks: the McNemar test is the one to read."""
    n = len(diffs)
    if n < 2:
        return None
    m = mean(diffs)
    sd = math.sqrt(sum((d - m) ** 2 for d in diffs) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return round(max(-1.0, m - half), 4), round(min(1.0, m + half), 4)  # a change of pass rate lies in [-1, 1]


@dataclass
class TaskOutcome:
    """One task's trials in one run."""

    records: list[EpisodeRecord] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.records)

    @property
    def rate(self) -> float:
        return sum(r.passed for r in self.records) / len(self.records)

    def figures(self) -> dict:
        recs = self.records
        return {"passed": self.passed, "rate": round(self.rate, 4), "trials": len(recs),
                "score": round(mean(r.score for r in recs), 4), "steps": round(mean(r.steps for r in recs), 2),
                "tokens": round(mean(total_tokens(r) for r in recs), 1),
                "failed": sorted({c for r in recs for c in r.failure_labels}),  # what happened, as the report says
                "failed_checks": sorted({f"{c.check}: {c.message}" for r in recs for c in r.failed_checks})[:10],
                "status": sorted({r.status for r in recs})}


def by_task(records: list[EpisodeRecord]) -> dict[str, TaskOutcome]:
    out: dict[str, TaskOutcome] = defaultdict(TaskOutcome)
    for rec in sorted(records, key=lambda r: (r.task_id, r.trial)):
        out[rec.task_id].records.append(rec)
    return dict(out)


def change(a: bool, b: bool) -> str:
    return {(False, True): "gained", (True, False): "lost", (True, True): "both_pass", (False, False): "both_fail"}[(a, b)]


def paired_stats(pairs: list[tuple[TaskOutcome, TaskOutcome]]) -> dict:
    """Pass rates of A and B over paired tasks, the change, its interval and the McNemar test."""
    gained = sum(not a.passed and b.passed for a, b in pairs)
    lost = sum(a.passed and not b.passed for a, b in pairs)
    a_rate = mean(a.rate for a, _ in pairs) if pairs else 0.0
    b_rate = mean(b.rate for _, b in pairs) if pairs else 0.0
    interval = paired_interval([b.rate - a.rate for a, b in pairs])
    return {"tasks": len(pairs), "a_pass_rate": round(a_rate, 4), "b_pass_rate": round(b_rate, 4),
            "delta": round(b_rate - a_rate, 4), "ci95": list(interval) if interval else None,
            "gained": gained, "lost": lost, "mcnemar_p": float(f"{mcnemar_exact(gained, lost):.4g}")}


def _cost(records: list[EpisodeRecord]) -> dict:
    n = len(records) or 1
    return {"tokens_prompt": sum((r.tokens or {}).get("prompt", 0) for r in records),
            "tokens_completion": sum((r.tokens or {}).get("completion", 0) for r in records),
            "tokens_per_episode": round(sum(total_tokens(r) for r in records) / n, 1),
            "steps_per_episode": round(sum(r.steps for r in records) / n, 2),
            "llm_calls": sum(r.llm_calls for r in records),
            "wall_time_s": round(sum(r.wall_time_s or 0.0 for r in records), 3)}


def cost_deltas(a: list[EpisodeRecord], b: list[EpisodeRecord]) -> dict:
    """Cost and effort of each run over the paired tasks, and B minus A."""
    ca, cb = _cost(a), _cost(b)
    return {k: {"a": ca[k], "b": cb[k], "delta": round(cb[k] - ca[k], 3)} for k in ca}


def _describe(run_dir: Path, records: list[EpisodeRecord]) -> dict:
    meta = read_json(run_dir / RUN_META) if (run_dir / RUN_META).exists() else {}
    return {"run": str(run_dir), "agent": meta.get("agent") or (records[0].agent if records else None),
            "model": meta.get("model"), "mode": meta.get("mode"), "trials": meta.get("trials"),
            "suite": meta.get("suite"), "episodes": len(records), "tasks": len({r.task_id for r in records}),
            "passed": sum(r.passed for r in records)}


def compare_records(a: list[EpisodeRecord], b: list[EpisodeRecord]) -> dict:
    """compare.json's figures (without the runs' descriptions) from two runs' records. Episodes without a
    verdict (status "error") are left out: a task with none graded in a run is not paired, and is listed
    in ``errors_in_a`` / ``errors_in_b``."""
    errors_a = sorted({r.task_id for r in a if r.no_verdict})
    errors_b = sorted({r.task_id for r in b if r.no_verdict})
    a = [r for r in a if not r.no_verdict]
    b = [r for r in b if not r.no_verdict]
    ta, tb = by_task(a), by_task(b)
    paired_ids = sorted(set(ta) & set(tb))
    pairs = {t: (ta[t], tb[t]) for t in paired_ids}
    groups = {}
    for name, key in GROUPINGS.items():
        grouped: dict[str, list[str]] = defaultdict(list)
        for t in paired_ids:
            for g in key(tb[t].records[0]):
                grouped[g].append(t)
        groups[f"by_{name}"] = {g: paired_stats([pairs[t] for t in ids]) for g, ids in sorted(grouped.items())}
    tasks = []
    for t in paired_ids:
        first = tb[t].records[0]
        tasks.append({"task_id": t, "category": first.category, "apps": first.apps, "scenario": first.scenario,
                      "split": first.split, **request(ta[t].records + tb[t].records),
                      "change": change(ta[t].passed, tb[t].passed), "a": ta[t].figures(), "b": tb[t].figures()})
    paired_a = [r for t in paired_ids for r in ta[t].records]
    paired_b = [r for t in paired_ids for r in tb[t].records]
    return {
        "paired_tasks": len(paired_ids),
        "only_in_a": sorted(set(ta) - set(tb)),
        "only_in_b": sorted(set(tb) - set(ta)),
        "errors_in_a": errors_a,  # tasks with an episode without a verdict (left out of the pairing)
        "errors_in_b": errors_b,
        "flips": {"gained": [x["task_id"] for x in tasks if x["change"] == "gained"],
                  "lost": [x["task_id"] for x in tasks if x["change"] == "lost"]},
        "overall": paired_stats(list(pairs.values())),
        **groups,
        "cost": cost_deltas(paired_a, paired_b),
        "tasks": tasks,
    }


def request(records: list[EpisodeRecord]) -> dict:
    """What the task asked (instruction, dialogue, scripted replies) from the first record that has it."""
    rec = next((r for r in records if r.instruction is not None), None)
    return {k: getattr(rec, k) if rec else None for k in ("instruction", "dialogue", "user_replies")}


def read_pair(run_a: Path, run_b: Path) -> tuple[list[EpisodeRecord], list[EpisodeRecord]]:
    """The records of both runs; CompareError when one holds none."""
    records = []
    for d in (Path(run_a), Path(run_b)):
        recs = read_results(d)
        if not recs:
            raise CompareError(f"{d} holds no results (no results.jsonl records)")
        records.append(recs)
    return records[0], records[1]


def compare_runs(run_a: Path, run_b: Path,
                 records: tuple[list[EpisodeRecord], list[EpisodeRecord]] | None = None) -> dict:
    """compare.json's content for two run directories (a merged one included); ``records``: theirs, if read."""
    run_a, run_b = Path(run_a), Path(run_b)
    records = records or read_pair(run_a, run_b)
    out = {"a": _describe(run_a, records[0]), "b": _describe(run_b, records[1]), **compare_records(*records)}
    if out["paired_tasks"] == 0:
        raise CompareError(f"{run_a} and {run_b} have no task in common")
    return out


def report_links(data: dict, out: Path) -> dict[str, str | None]:
    """Each run's report.html relative to ``out`` (the page links a task to its rows there), or None."""
    links = {}
    for side in ("a", "b"):
        report = Path(data[side]["run"]) / REPORT
        links[side] = Path(os.path.relpath(report.resolve(), Path(out).resolve())).as_posix() if report.exists() else None
    return links


def shown_episode(records: list[EpisodeRecord]) -> EpisodeRecord:
    """The trial that shows a run's side of a flip: its first failed trial, else its first."""
    return next((r for r in records if not r.passed), records[0])


def flip_views(data: dict, a: list[EpisodeRecord], b: list[EpisodeRecord]) -> dict[str, dict]:
    """Each flipped task's two runs side by side, for compare.html (not compare.json: the records have it):
    per side the episode's view as the report shows it (runner/report.py ``task_view``)."""
    from officesim.runner.report import task_view

    sides = (by_task([r for r in a if not r.no_verdict]), by_task([r for r in b if not r.no_verdict]))
    flipped = data["flips"]["gained"] + data["flips"]["lost"]
    return {t: {name: task_view(shown_episode(side[t].records)) for name, side in zip("ab", sides)} for t in flipped}


def render(data: dict, links: dict[str, str | None] | None = None, flips: dict[str, dict] | None = None) -> str:
    """compare.html from compare.json's content; ``flips``: the side-by-side views of flipped tasks."""
    from officesim.runner.report import CATEGORY_NAMES, anchor

    def rows(grouping: str) -> list[dict]:
        return [{"label": CATEGORY_NAMES.get(k, k) if grouping == "by_category" else k, "a": v["a_pass_rate"],
                 "b": v["b_pass_rate"], "delta": v["delta"], **v} for k, v in data[grouping].items()]

    charts = [{"name": g, "title": t, "rows": rows(g)} for g, t in
              (("by_category", "category"), ("by_app", "app"), ("by_scenario", "family (scenario)"), ("by_split", "split"))]
    return render_page("compare.html.j2", d=data, charts=charts, changes=["gained", "lost", "both_pass", "both_fail"],
                       links=links or {"a": None, "b": None}, flips=flips or {}, flips_shown=FLIPS_SHOWN, cost_labels=COST_LABELS,
                       p_text=p_text,
                       report_anchor=lambda task_id: anchor(EpisodeRecord(task_id=task_id, passed=False, score=0, status="")))


def write_compare(run_a: Path, run_b: Path, out: Path) -> dict:
    """Write compare.json and compare.html into ``out``; returns compare.json's content."""
    records = read_pair(run_a, run_b)
    data = compare_runs(run_a, run_b, records)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    write_json(out / COMPARE_JSON, data)
    page = render(data, report_links(data, out), flip_views(data, *records))
    (out / COMPARE_HTML).write_text(page, encoding="utf-8")
    return data


def headline(data: dict) -> str:
    """One line for the terminal: the change of pass rate, the flips and the test."""
    o = data["overall"]
    return (f"{data['paired_tasks']} paired task(s): A {100 * o['a_pass_rate']:.1f}% -> B {100 * o['b_pass_rate']:.1f}% "
            f"({100 * o['delta']:+.1f} points; {o['gained']} gained, {o['lost']} lost; exact McNemar {p_text(o['mcnemar_p'])})")
