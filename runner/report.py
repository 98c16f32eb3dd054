"""report.html: one self-contained page (no external assets) to read a run.

The top table has the shape of OfficeBench's main results table (single / two / three apps and
overall); below it, one row per task x trial with its trajectory, checks and office changes.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from officesim.evaluators.record import EpisodeRecord
from officesim.runner.results import REPORT

CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3}.pass{color:#17703a;font-weight:600}.fail{color:#b3261e;font-weight:600}
details{margin:2px 0}pre{white-space:pre-wrap;background:#f8f8f8;padding:6px;margin:4px 0;max-height:300px;overflow:auto}
.small{color:#666;font-size:12px}
"""


def _pct(rate: float | None) -> str:
    return "–" if rate is None else f"{100 * rate:.2f}"


def _category_table(summary: dict) -> str:
    """OfficeBench's Table 2 shape: one row for the outcome-centric verdict, one for checks only, and for
    imported tasks one for the benchmark's original evaluation."""
    cats = summary.get("by_category", {})
    imported = summary.get("pass_rate_original") is not None
    head = ("<tr><th>Agent</th><th>Model</th><th>Verdict</th><th>Single App</th><th>Two Apps</th>"
            "<th>Three Apps</th><th>Overall</th></tr>")
    rows = ""
    verdicts = (("Verified: " if imported else "") + "outcome (checks + no side effects)", "passed",
                "pass_rate", "total"), ("checks only", "passed_checks_only", "pass_rate_checks_only", "total"), \
        ("original evaluation (OfficeBench's or WorkBench's own rule)", "passed_original", "pass_rate_original",
         "total_original")
    for label, passed, rate, total in verdicts:
        if summary.get(rate) is None:
            continue
        cells = "".join(
            f"<td>{_pct(cats.get(c, {}).get(rate)) if cats.get(c, {}).get(total) else '–'}"
            f" <span class=small>({cats.get(c, {}).get(passed, 0)}/{cats.get(c, {}).get(total, 0)})</span></td>"
            for c in ("1", "2", "3"))
        rows += (f"<tr><td>{escape(str(summary.get('agent')))}</td><td>{escape(str(summary.get('model') or '–'))}</td>"
                 f"<td>{label}</td>{cells}<td><b>{_pct(summary.get(rate))}</b> "
                 f"<span class=small>({summary.get(passed)}/{summary.get(total)})</span></td></tr>")
    return f"<table>{head}{rows}</table>"


def _kv_table(data: dict) -> str:
    rows = "".join(f"<tr><th>{escape(str(k))}</th><td>{escape(json.dumps(v) if not isinstance(v, str) else v)}</td></tr>"
                   for k, v in data.items())
    return f"<table>{rows}</table>"


def _step(s: dict) -> str:
    """One trajectory step; a question to the user shows as the exchange (question, then reply)."""
    if (s.get("app"), s.get("action")) == ("system", "ask_user") and s.get("ok"):
        question = (s.get("args") or {}).get("question", "")
        return (f"<li><b>Asked the user:</b> {escape(str(question)[:2000])}"
                f"<br><b>Reply:</b> {escape(str(s.get('observation', '')).removeprefix('The user replies: ')[:2000])}</li>")
    if (s.get("app"), s.get("action")) == ("system", "run_code"):  # mode code: the program, then its calls
        calls = "".join(_step(c) for c in s.get("calls") or [])
        return (f"<li><b>Program</b> {'' if s.get('ok') else '<span class=fail>error</span>'}"
                f"<pre>{escape(str((s.get('args') or {}).get('code', ''))[:4000])}</pre>"
                f"<pre>{escape(str(s.get('observation', ''))[:2000])}</pre><b>Calls</b><ol>{calls}</ol></li>")
    return (f"<li><code>{escape(str(s.get('app')))}.{escape(str(s.get('action')))}"
            f"({escape(json.dumps(s.get('args', {}), ensure_ascii=False))})</code> "
            f"{'' if s.get('ok') else '<span class=fail>error</span>'}"
            f"<pre>{escape(str(s.get('observation', ''))[:2000])}</pre></li>")


def _task_row(rec: EpisodeRecord) -> str:
    verdict = '<span class=pass>pass</span>' if rec.passed else '<span class=fail>fail</span>'
    if rec.failed:
        verdict += f"<br><small>failed: {escape(', '.join(rec.failed))}</small>"
    if rec.passed_checks_only is not None and rec.passed_checks_only != rec.passed:
        verdict += "<br><small>checks only: pass</small>" if rec.passed_checks_only else "<br><small>checks only: fail</small>"
    if rec.original_passed is not None:
        verdict += f"<br><small>original evaluation: {'pass' if rec.original_passed else 'fail'}</small>"
    steps = "".join(_step(s) for s in rec.trajectory or [])
    checks = "".join(
        f"<li>{'✔' if c.passed else '✘'} <code>{escape(c.check)}</code> {escape(c.message)}</li>"
        for c in rec.checks)
    side = "".join(f"<li>{escape(s)}</li>" for s in rec.collateral_effects) or "<li>none</li>"
    side += "</ul><b>Missing (the correct outcome's changes not made)</b><ul>"
    side += "".join(f"<li>{escape(s)}</li>" for s in rec.missing or []) or "<li>none</li>"
    if rec.asking:
        side += "</ul><b>Asking</b><ul>" + "".join(f"<li>{escape(s)}</li>" for s in rec.asking)
    if rec.original_passed is not None:
        original = "".join(f"<li>{'✔' if c.passed else '✘'} <code>{escape(c.check)}</code> "
                           f"<code>{escape(json.dumps(c.args, ensure_ascii=False)[:300])}</code> {escape(c.message)}</li>"
                           for c in rec.original_checks)
        side += f"</ul><b>Original evaluation</b><ul>{original}"
    changes = "".join(f"<li>{escape(c)}</li>" for c in rec.changes)
    changes = f"<b>Office changes</b><ul>{changes}</ul>" if changes else ""  # only when the server reports them
    error = f"<p class=fail>{escape(rec.error)}</p>" if rec.error else ""
    return (
        f"<tr><td>{escape(rec.task_id)}</td><td>{rec.category}</td><td>{escape(', '.join(rec.apps))}</td>"
        f"<td>{rec.trial}</td><td>{verdict}</td><td>{rec.score:.2f}</td><td>{escape(rec.status)}</td>"
        f"<td>{rec.steps}</td><td>{len(rec.collateral_effects)}</td><td>"
        f"<details><summary>details</summary>{error}<b>Checks</b><ul>{checks}</ul>"
        f"<b>Side effects (changes the correct outcome does not make)</b><ul>{side}</ul>"
        f"{changes}<b>Answer</b> <code>{escape(str(rec.answer))}</code>"
        f"<b>Trajectory</b><ol>{steps}</ol></details></td></tr>")


def render(records: list[EpisodeRecord], summary: dict) -> str:
    rows = "".join(_task_row(r) for r in sorted(records, key=lambda r: (r.task_id, r.trial)))
    extras = {k: summary.get(k) for k in ("pass_rate", "pass_rate_checks_only", "pass_rate_original", "failed_components",
                                           "side_effect_rate", "missing_rate", "pass_hat_k", "process", "ask", "statuses", "tokens",
                                           "mode", "trials", "started", "finished", "suite")}
    return (
        "<!doctype html><html><head><meta charset=utf-8><title>officesim report</title>"
        f"<style>{CSS}</style></head><body><h1>officesim evaluation</h1>"
        f"<h2>Pass rate (%) by category</h2>{_category_table(summary)}<h2>Run</h2>{_kv_table(extras)}"
        "<h2>Tasks</h2><table><tr><th>task</th><th>cat.</th><th>apps</th><th>trial</th><th>result</th><th>score</th>"
        f"<th>status</th><th>steps</th><th>side eff.</th><th></th></tr>{rows}</table></body></html>")


def write_report(run_dir: Path, records: list[EpisodeRecord], summary: dict) -> Path:
    path = Path(run_dir) / REPORT
    path.write_text(render(records, summary), encoding="utf-8")
    return path
