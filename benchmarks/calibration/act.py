"""Run actions of an app on a task's fresh office and print what each returned, as an agent sees it:
how a helper writing outcomes reads the office without seeing the task file or the grader.

    python benchmarks/calibration/act.py TASK_ID APP ACTION '{"arg": "value"}' [APP ACTION ARGS ...]

Every call starts from the initial office; nothing is kept between calls."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from officesim.server.session import Session
from officesim.tasks.loader import load_tasks
from officesim.testbed.materialise import new_office, remove_office


def main(argv: list[str]) -> int:
    if len(argv) < 4 or (len(argv) - 1) % 3:
        print(__doc__, file=sys.stderr)
        return 2
    task = load_tasks(only=[argv[0]])[argv[0]]
    calls = [argv[i:i + 3] for i in range(1, len(argv), 3)]
    with tempfile.TemporaryDirectory() as tmp:
        office = new_office(task, Path(tmp))
        try:
            session = Session(task, "all_operations", len(calls) + 5, office)
            for app, action, args in calls:
                result = session.step(app, action, json.loads(args))
                print(f"== {app}.{action} {args} -> {'ok' if result.ok else 'ERROR'}\n{result.observation}\n")
        finally:
            remove_office(office)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
