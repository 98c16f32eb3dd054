"""The `eval`, `report` and `merge` subcommands of the officesim command line."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from officesim.apps.registry import DEFAULT_MODE, MODES
from officesim.runner.cli import TASKS_HELP, add_suite_options, wants_suite

if TYPE_CHECKING:  # rich is imported by the commands that print, not by every command's parser
    from rich.console import Console


def add_subcommands(sub: argparse._SubParsersAction) -> None:
    ev = sub.add_parser("eval", help="evaluate an agent over tasks and write a run directory")
    ev.add_argument("--agent", default="oracle",
                    help="oracle, noop, openai, or an import path pkg.module:Factory (default oracle)")
    ev.add_argument("--model", default=os.environ.get("MODEL") or None, help="model name for LLM agents (env MODEL)")
    ev.add_argument("--tasks", action="append", type=Path, default=[], metavar="DIR", help=TASKS_HELP)
    add_suite_options(ev)
    ev.add_argument("--task", action="append", default=[], metavar="ID", help="only this task (repeatable)")
    ev.add_argument("--category", type=int, choices=[1, 2, 3, 4, 5])
    ev.add_argument("--split", choices=["test", "train", "hard"], default=None,
                    help="only tasks of this split (default: every split but hard; docs/hard-split.md)")
    ev.add_argument("--server", metavar="URL|docker[:IMAGE]",
                    help="URL of a running officesim server, or docker[:IMAGE]: start the officesim image (default "
                         "env OFFICESIM_IMAGE, else officesim:latest; pulled when absent) in Docker for this run and "
                         "remove it after (docs/docker.md); default: start private server processes")
    ev.add_argument("--token", default=os.environ.get("OFFICESIM_TOKEN"),
                    help="bearer token for --server (with docker: the container's; default a random one)")
    ev.add_argument("--workers", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    ev.add_argument("--servers", type=int, default=0, metavar="N",
                    help="without --server: private server processes to spread episodes over (default: one per core in use)")
    ev.add_argument("--trials", type=int, default=1)
    ev.add_argument("--mode", choices=MODES, default=DEFAULT_MODE)
    ev.add_argument("--max-steps", type=int, default=None,
                    help="the step limit of every episode (default: each task's own: 50, more for long tasks)")
    ev.add_argument("--out", type=Path, default=Path("runs/latest"))
    ev.add_argument("--resume", action="store_true", help="continue an interrupted run in --out")
    ev.add_argument("--overwrite", action="store_true", help="discard earlier results in --out and start afresh")
    ev.add_argument("--wait", action="store_true",
                    help="when another eval is running on --out, wait for it to finish instead of refusing")
    ev.add_argument("--action-format", choices=["tools", "json", "code"], default=None,
                    help="openai agent: native tool calls (default), OfficeBench-style JSON actions in text, or "
                         "code: one Python program per turn (sessions in mode code)")
    ev.add_argument("--agent-option", action="append", default=[], metavar="KEY=VALUE",
                    help="keyword argument for the agent's constructor (VALUE read as JSON when it parses, "
                         "else as text), e.g. temperature=0.2 or max_retries=8; repeatable")
    ev.add_argument("--shard", help="run slice I/N of the selected tasks (0-based I); also OFFICESIM_SHARD "
                                    "or JOB_COMPLETION_INDEX with OFFICESIM_SHARD_TOTAL")
    ev.add_argument("--retries", type=int, default=1, metavar="N",
                    help="play an episode that ended by an infrastructure fault (server unreachable, timeout, lost "
                         "server or worker, model endpoint unreachable) or whose grading failed again, up to N times "
                         "(default 1); errors left after them exit 3")
    ev.add_argument("--timeout", type=float, default=None, metavar="S",
                    help="seconds an action may take before it is an infrastructure error (default: env "
                         "OFFICESIM_HTTP_TIMEOUT, else 120)")
    ev.add_argument("--session-timeout", type=float, default=None, metavar="S",
                    help="seconds creating a session (a world's first build) or finishing it (grading) may take "
                         "(default: env OFFICESIM_SESSION_TIMEOUT, else 600)")
    ev.add_argument("--start-timeout", type=float, default=None, metavar="S",
                    help="seconds a private server may take to start (default: env OFFICESIM_START_TIMEOUT, else "
                         "scaled by the tasks it loads, the servers starting and the load average)")
    _add_ray_options(ev)
    _add_gate_options(ev)
    ev.add_argument("--junit", type=Path, metavar="FILE", help="write JUnit XML (one testcase per task x trial)")
    ev.add_argument("--progress", choices=["bar", "lines", "off"], default=None,
                    help="a live bar (default on a terminal) or one line per finished task (default otherwise)")
    ev.add_argument("--no-progress", action="store_true", help="the same as --progress off")
    ev.set_defaults(func=cmd_eval)

    rp = sub.add_parser("report", help="rebuild summary.json and report.html of a run directory, or with --compare "
                                       "compare two runs task by task")
    rp.add_argument("run_dir", type=Path, nargs="?")
    rp.add_argument("--compare", nargs=2, type=Path, metavar=("RUN_A", "RUN_B"),
                    help="write compare.html and compare.json: run B against run A, paired by task (docs/report.md)")
    rp.add_argument("--out", type=Path, default=None, metavar="DIR", help="with --compare: where to write (default: RUN_B)")
    rp.set_defaults(func=cmd_report)

    mg = sub.add_parser("merge", help="merge shard run directories into one")
    mg.add_argument("dirs", nargs="+", type=Path)
    mg.add_argument("--out", type=Path, required=True)
    mg.add_argument("--junit", type=Path, metavar="FILE", help="write JUnit XML of the merged results")
    _add_gate_options(mg)
    mg.set_defaults(func=cmd_merge)


def _add_ray_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", choices=["local", "ray"], default="local",
                        help="local: private servers and threads on this machine (default); ray: offices on the "
                             "nodes of a Ray cluster (pip install 'officesim[ray]'; docs/ray.md)")
    parser.add_argument("--ray-address", metavar="ADDR", default=None,
                        help="with --engine ray: the cluster to join (auto: the one running here; default: "
                             "RAY_ADDRESS, else a new local Ray)")
    parser.add_argument("--ray-resource", metavar="NAME", default=None,
                        help="with --engine ray: host offices only on nodes with this custom resource, one per unit "
                             "(default: one office per CPU of every node)")
    parser.add_argument("--ray-concurrency", type=int, default=1, metavar="N",
                        help="with --engine ray: episodes in flight per office (default 1; more for agents that "
                             "wait on a remote model)")


def _add_gate_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fail-under", type=float, metavar="RATE",
                        help="exit 1 when the pass rate (0..1) is below RATE")
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="compare with an earlier run directory; exit 1 if a task that passed there fails now")


EXIT_OK, EXIT_GATE, EXIT_USAGE, EXIT_ERRORS = 0, 1, 2, 3  # docs/ci.md


def _graded(stats: dict) -> int:
    """Episodes with a verdict (summaries older than the field: all of them)."""
    return stats.get("graded", stats.get("total", 0))


def _print_summary(console: Console, summary: dict, out: Path) -> None:
    cats = summary["by_category"]
    parts = [f"{name} {cats[c]['passed']}/{_graded(cats[c])}" for c, name in (("1", "1-app"), ("2", "2-app"), ("3", "3-app"))
             if _graded(cats[c])]
    line = (f"passed {summary['passed']}/{_graded(summary)} (pass rate {summary['pass_rate']:.3f}"
            f"{'; ' + ', '.join(parts) if parts else ''}); checks only: passed {summary.get('passed_checks_only', 0)}"
            f" (pass rate {summary.get('pass_rate_checks_only', 0.0):.3f}); side-effect rate {summary['side_effect_rate']:.3f}"
            f" (gold changes missing: {summary.get('missing_rate', 0.0):.3f})")
    tokens = summary.get("tokens") or {}
    if tokens.get("prompt") or tokens.get("completion"):
        line += f"; tokens {tokens.get('prompt', 0)} in / {tokens.get('completion', 0)} out"
    if summary.get("errors"):
        line += f"; {summary['errors']} error(s) not graded"
    _say(console, line)
    if summary.get("agent_errors"):
        _say(console, f"{summary['agent_errors']} episode(s) failed because the agent raised an error (counted as "
                      "failures; see \"error\" in results.jsonl)")
    if summary.get("retried"):
        _say(console, f"{summary['retried']} episode(s) were played again after an infrastructure error")
    if summary.get("errors"):
        listed = summary.get("error_episodes") or []
        shown = "; ".join(f"{e['task_id']}{'' if e.get('trial', 1) == 1 else ' trial ' + str(e['trial'])}: {e.get('error')}"
                          for e in listed[:5])
        more = f"; ... {len(listed) - 5} more" if len(listed) > 5 else ""
        _say(console, f"ERROR: {summary['errors']} episode(s) ended without a verdict (an infrastructure fault or a "
                      f"failed grading, after their retries); they are not in the pass rate, and eval exits "
                      f"{EXIT_ERRORS}; --resume plays them again. {shown}{more}")
    _say(console, f"results: {out / 'results.jsonl'}  summary: {out / 'summary.json'}  report: {out / 'report.html'}")


def _error(console: Console, message: object) -> None:
    from rich.markup import escape

    console.print(f"[red]error:[/] {escape(str(message))}", soft_wrap=True)


def _say(console: Console, text: str) -> None:
    """One plain line: no markup, no highlighting, no wrapping (paths stay copyable in CI logs)."""
    console.print(text, markup=False, highlight=False, soft_wrap=True)


def _parse_options(items: list[str]) -> dict:
    import json

    options = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--agent-option wants KEY=VALUE, got '{item}'")
        try:
            options[key.strip()] = json.loads(value)
        except ValueError:
            options[key.strip()] = value
    return options


def _gate(console: Console, args: argparse.Namespace, summary: dict) -> int:
    """--baseline and --fail-under: 1 when the run should fail the build, else 0."""
    from officesim.runner.results import read_results
    from officesim.runner.run import regressions

    status = 0
    if args.baseline:
        if not read_results(args.baseline):
            console.print(f"[red]error:[/] --baseline {args.baseline} holds no results.jsonl records")
            return 2
        lost = regressions(args.out, args.baseline)
        if lost:
            console.print(f"[red]REGRESSION:[/] {len(lost)} task(s) passed in {args.baseline} and fail now: "
                          f"{', '.join(lost)}", soft_wrap=True)
            status = 1
        else:
            _say(console, f"no regressions against {args.baseline}")
    if args.fail_under is not None and summary["pass_rate"] < args.fail_under:
        console.print(f"[red]FAIL:[/] pass rate {summary['pass_rate']:.4f} is below --fail-under {args.fail_under} "
                      f"({summary['passed']}/{_graded(summary)} passed)", soft_wrap=True)
        status = 1
    return status


def cmd_eval(args: argparse.Namespace) -> int:
    from officesim.runner.run import EvalConfig, RunError, run_eval
    from officesim.runner.runlock import RunDirBusy, run_dir_lock
    from officesim.runner.shard import parse_shard, shard_from_env
    from officesim.tasks.loader import TaskLoadError

    from rich.console import Console

    console = Console(stderr=True)
    try:
        shard = parse_shard(args.shard) if args.shard else shard_from_env()
        options = _parse_options(args.agent_option)
        include_suite = wants_suite(args)
    except ValueError as exc:
        _error(console, exc)
        return 2
    if args.action_format:
        if args.agent != "openai":
            console.print("[red]error:[/] --action-format applies to --agent openai only")
            return 2
        options["action_format"] = args.action_format
        if args.action_format == "code":  # the model writes programs: sessions in mode code
            if args.mode not in (DEFAULT_MODE, "code"):
                console.print("[red]error:[/] --action-format code runs sessions in mode code, not --mode " + args.mode)
                return 2
            args.mode = "code"
    progress = "off" if args.no_progress else args.progress or ("bar" if sys.stderr.isatty() else "lines")
    if args.overwrite and args.resume:
        console.print("[red]error:[/] --overwrite and --resume exclude each other")
        return 2
    if args.baseline and not (args.baseline / "results.jsonl").exists():
        _error(console, f"--baseline {args.baseline} is not a run directory (no results.jsonl)")
        return 2
    if shard:
        _say(console, f"shard {shard[0]}/{shard[1]}")
    if args.retries < 0:
        _error(console, "--retries must be 0 or more")
        return 2
    for flag, value in (("--timeout", args.timeout), ("--session-timeout", args.session_timeout),
                        ("--start-timeout", args.start_timeout)):
        if value is not None and value <= 0:
            _error(console, f"{flag} must be a positive number of seconds")
            return 2
    cfg = EvalConfig(agent=args.agent, model=args.model, task_dirs=args.tasks, include_suite=include_suite, task_ids=args.task,
                     category=args.category, split=args.split, server=args.server, token=args.token, workers=args.workers, servers=args.servers,
                     trials=args.trials, mode=args.mode, max_steps=args.max_steps, out=args.out, resume=args.resume,
                     shard=shard, agent_options=options, progress=progress, wait_for_lock=args.wait,
                     engine=args.engine, ray_address=args.ray_address, ray_resource=args.ray_resource,
                     ray_concurrency=args.ray_concurrency, retries=args.retries, timeout=args.timeout,
                     session_timeout=args.session_timeout, start_timeout=args.start_timeout)
    try:  # --out stays locked from clearing it to the summary (runner/runlock.py)
        with run_dir_lock(args.out, wait=args.wait, on_wait=lambda why: _say(console, why)):
            if args.overwrite:
                _clear_run_dir(args.out)
            summary = run_eval(cfg, console)
    except RunDirBusy as exc:
        _error(console, exc)
        return 2
    except (RunError, TaskLoadError, ValueError) as exc:
        _error(console, exc)
        return 2
    return _conclude(console, args, summary)


def _conclude(console: Console, args: argparse.Namespace, summary: dict) -> int:
    """What eval and merge do once a run directory is complete: print, write JUnit, apply the gates.
    The exit code: 3 when episodes without a verdict remain (whatever the gates say: the run is
    incomplete, never a weaker agent), else 1 when a gate failed, else 0."""
    from officesim.runner.junit import write_junit
    from officesim.runner.results import read_results

    _print_summary(console, summary, args.out)
    if args.junit:
        write_junit(read_results(args.out), args.junit)
        _say(console, f"junit: {args.junit}")
    gated = _gate(console, args, summary)
    if gated == EXIT_USAGE:
        return gated
    return EXIT_ERRORS if summary.get("errors") else gated


def _clear_run_dir(out: Path) -> None:
    from officesim.runner.results import REPORT, RESULTS, RUN_META, SUMMARY

    for name in (RESULTS, RUN_META, SUMMARY, REPORT):
        (out / name).unlink(missing_ok=True)


def cmd_report(args: argparse.Namespace) -> int:
    from officesim.runner.run import finalize

    if args.compare:
        return _compare(args)
    if args.run_dir is None or args.out is not None:
        print("error: give a run directory, or --compare RUN_A RUN_B [--out DIR]", file=sys.stderr)
        return 2
    if not (args.run_dir / "results.jsonl").exists():
        print(f"error: {args.run_dir} has no results.jsonl", file=sys.stderr)
        return 2
    finalize(args.run_dir)
    print(f"report: {args.run_dir / 'report.html'}")
    return 0


def _compare(args: argparse.Namespace) -> int:
    from officesim.runner.compare import COMPARE_HTML, COMPARE_JSON, CompareError, headline, write_compare

    if args.run_dir is not None:
        print("error: --compare takes the two run directories itself; leave out RUN_DIR", file=sys.stderr)
        return 2
    run_a, run_b = args.compare
    out = args.out or run_b
    try:
        data = write_compare(run_a, run_b, out)
    except CompareError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(headline(data))
    print(f"compare: {out / COMPARE_HTML}  {out / COMPARE_JSON}")
    return 0


def cmd_merge(args: argparse.Namespace) -> int:
    from officesim.runner.merge import MergeError, merge_runs

    from rich.console import Console

    console = Console(stderr=True)
    try:
        summary = merge_runs(args.dirs, args.out)
    except MergeError as exc:
        _error(console, exc)
        return 2
    return _conclude(console, args, summary)
