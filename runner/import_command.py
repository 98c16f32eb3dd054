"""``officesim import officebench|workbench [--source DIR] --out DIR``: a benchmark's tasks as officesim
tasks (tasks/officebench/importer.py, tasks/workbench/importer.py), with a report of what was imported,
corrected and excluded. A source that cannot be imported (tasks/_confine.py: a path outside the source
or --out, a malformed file) is one error line and exit status 2, with --out left as it was."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_subcommands(sub: argparse._SubParsersAction) -> None:
    imp = sub.add_parser("import", help="import a benchmark's tasks (officebench, workbench)")
    imp_sub = imp.add_subparsers(dest="benchmark", metavar="BENCHMARK")
    ob = imp_sub.add_parser("officebench", help="OfficeBench's 300 subtasks, with our gold solutions and corrections")
    ob.add_argument("--source", type=Path, default=None, metavar="DIR",
                    help="an OfficeBench checkout (default: clone the pinned commit, when the network allows)")
    ob.add_argument("--out", type=Path, required=True, metavar="DIR", help="where to write the task folders")
    ob.add_argument("--task", action="append", default=[], metavar="ID",
                    help="only this subtask (officebench-1-4-0 or 1-4/0); repeatable")
    ob.add_argument("--include-pending", action="store_true",
                    help="also write subtasks that have no gold solution yet (tagged pending; they cannot be validated)")
    ob.set_defaults(func=cmd_import_officebench)
    wb = imp_sub.add_parser("workbench", help="WorkBench's 690 queries on its five domains, end-state graded")
    wb.add_argument("--source", type=Path, default=None, metavar="DIR",
                    help="a WorkBench checkout (default: clone the pinned commit, when the network allows)")
    wb.add_argument("--out", type=Path, required=True, metavar="DIR", help="where to write the task folders")
    wb.add_argument("--task", action="append", default=[], metavar="ID",
                    help="only this query (workbench-calendar-3); repeatable")
    wb.set_defaults(func=cmd_import_workbench)
    imp.set_defaults(func=lambda args: (imp.print_help(), 2)[1])


def cmd_import_officebench(args: argparse.Namespace) -> int:
    from officesim.tasks.officebench.importer import fetch_source, import_officebench

    try:
        source = args.source or fetch_source()
        report = import_officebench(source, args.out, include_pending=args.include_pending, only=args.task or None)
    except (OSError, RuntimeError, ValueError) as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)  # one line, naming the file and field
        return 2
    print(report.text())
    return 0


def cmd_import_workbench(args: argparse.Namespace) -> int:
    from officesim.tasks.workbench.importer import fetch_source, import_workbench

    try:
        source = args.source or fetch_source()
        report = import_workbench(source, args.out, only=args.task or None)
    except (OSError, RuntimeError, ValueError) as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)  # one line, naming the file and field
        return 2
    print(report.text())
    return 0
