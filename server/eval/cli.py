"""The `eval`, `report` and `merge` subcommands of the officesim command line."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from rich.console import Console


def add_subcommands(sub: argparse._SubParsersAction) -> None:
    ev = sub.add_parser("eval", help="evaluate an agent over tasks and write a run directory")
    ev.add_argument("--agent", default="oracle",
                    help="oracle, noop, openai, or an import path pkg.module:Factory (default oracle)")
    ev.add_argument("--model", default=os.environ.get("MODEL") or None, help="model name for LLM agents (env MODEL)")
    ev.add_argument("--tasks", action="append", type=Path, default=[], metavar="DIR",
                    help="evaluate the tasks of this directory instead of the built-in suite (repeatable)")
    ev.add_argument("--task", action="append", default=[], metavar="ID", help="only this task (repeatable)")
    ev.add_argument("--category", type=int, choices=[1, 2, 3])
    ev.add_argument("--server", help="URL of a running officesim server (default: start a private one)")
    ev.add_argument("--token", default=os.environ.get("OFFICESIM_TOKEN"), help="bearer token for --server")
    ev.add_argument("--workers", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    ev.add_argument("--trials", type=int, default=1)
    ev.add_argument("--mode", choices=["switch_app", "all_operations"], default="switch_app")
    ev.add_argument("--max-steps", type=int, default=50)
    ev.add_argument("--out", type=Path, default=Path("runs/latest"))
    ev.add_argument("--resume", action="store_true", help="continue an interrupted run in --out")
    ev.add_argument("--action-format", choices=["tools", "json"], default="tools",
                    help="openai agent: native tool calls, or OfficeBench-style JSON actions in text")
    ev.add_argument("--shard", help="run slice I/N of the selected tasks (0-based I); also OFFICESIM_SHARD "
                                    "or JOB_COMPLETION_INDEX with OFFICESIM_SHARD_TOTAL")
    ev.add_argument("--fail-under", type=float, metavar="RATE", help="exit 1 when the pass rate is below RATE")
    ev.add_argument("--baseline", type=Path, metavar="DIR", help="list tasks that passed in this earlier run and fail now")
    ev.add_argument("--junit", type=Path, metavar="FILE", help="write JUnit XML")
    ev.add_argument("--no-progress", action="store_true")
    ev.set_defaults(func=cmd_eval)

    rp = sub.add_parser("report", help="rebuild summary.json and report.html of a run directory")
    rp.add_argument("run_dir", type=Path)
    rp.set_defaults(func=cmd_report)

    mg = sub.add_parser("merge", help="merge shard run directories into one")
    mg.add_argument("dirs", nargs="+", type=Path)
    mg.add_argument("--out", type=Path, required=True)
    mg.add_argument("--junit", type=Path, metavar="FILE")
    mg.set_defaults(func=cmd_merge)


def _print_summary(console: Console, summary: dict, out: Path) -> None:
    cats = summary["by_category"]
    parts = [f"{name} {cats[c]['passed']}/{cats[c]['total']}" for c, name in (("1", "1-app"), ("2", "2-app"), ("3", "3-app"))
             if cats[c]["total"]]
    console.print(f"passed {summary['passed']}/{summary['total']} (pass rate {summary['pass_rate']:.3f}; "
                  f"{', '.join(parts)}); side-effect rate {summary['side_effect_rate']:.3f}")
    console.print(f"results: {out / 'results.jsonl'}  summary: {out / 'summary.json'}  report: {out / 'report.html'}")


def cmd_eval(args: argparse.Namespace) -> int:
    from server.eval.junit import write_junit
    from server.eval.results import read_results
    from server.eval.runner import EvalConfig, RunError, regressions, run_eval
    from server.eval.shard import parse_shard, shard_from_env
    from tasks.loader import TaskLoadError

    console = Console(stderr=True)
    try:
        shard = parse_shard(args.shard) if args.shard else shard_from_env()
    except ValueError as exc:
        console.print(f"[red]error:[/] {exc}")
        return 2
    cfg = EvalConfig(agent=args.agent, model=args.model, task_dirs=args.tasks, task_ids=args.task,
                     category=args.category, server=args.server, token=args.token, workers=args.workers,
                     trials=args.trials, mode=args.mode, max_steps=args.max_steps, out=args.out, resume=args.resume,
                     shard=shard, agent_options={"action_format": args.action_format} if args.agent == "openai" else {},
                     progress=not args.no_progress and sys.stderr.isatty())
    try:
        summary = run_eval(cfg, console)
    except (RunError, TaskLoadError, ValueError) as exc:
        console.print(f"[red]error:[/] {exc}")
        return 2
    _print_summary(console, summary, args.out)
    if args.junit:
        write_junit(read_results(args.out), args.junit)
        console.print(f"junit: {args.junit}")
    status = 0
    if args.baseline:
        lost = regressions(args.out, args.baseline)
        if lost:
            console.print(f"[red]{len(lost)} task(s) passed in {args.baseline} and fail now:[/] {', '.join(lost)}")
            status = 1
        else:
            console.print(f"no regressions against {args.baseline}")
    if args.fail_under is not None and summary["pass_rate"] < args.fail_under:
        console.print(f"[red]FAIL:[/] pass rate {summary['pass_rate']:.4f} is below --fail-under {args.fail_under}")
        status = 1
    return status


def cmd_report(args: argparse.Namespace) -> int:
    from server.eval.runner import finalize

    if not (args.run_dir / "results.jsonl").exists():
        print(f"error: {args.run_dir} has no results.jsonl", file=sys.stderr)
        return 2
    finalize(args.run_dir)
    print(f"report: {args.run_dir / 'report.html'}")
    return 0


def cmd_merge(args: argparse.Namespace) -> int:
    from server.eval.junit import write_junit
    from server.eval.merge import MergeError, merge_runs
    from server.eval.results import read_results

    console = Console(stderr=True)
    try:
        summary = merge_runs(args.dirs, args.out)
    except MergeError as exc:
        console.print(f"[red]error:[/] {exc}")
        return 2
    if args.junit:
        write_junit(read_results(args.out), args.junit)
    _print_summary(console, summary, args.out)
    return 0
