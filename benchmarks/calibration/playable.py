"""Check a helper's outcomes.yaml before a replay: it parses, holds the asked numbers of wrong and right
outcomes, and every action of each plays without an error on a fresh office. It says nothing of grades.

    python benchmarks/calibration/playable.py ROUND_DIR/TASK_ID"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import yaml

from officesim.server.session import Session
from officesim.tasks.gold import gold_actions
from officesim.tasks.loader import load_tasks
from officesim.testbed.materialise import new_office, remove_office


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    folder = Path(argv[0])
    task = load_tasks(only=[folder.name])[folder.name]
    written = yaml.safe_load((folder / "outcomes.yaml").read_text(encoding="utf-8")) or {}
    bad = 0
    for kind in ("wrong", "right"):
        items = written.get(kind) or []
        print(f"{len(items)} {kind} outcome(s)")
        for item in items:
            steps = gold_actions(item.get("actions") or [], item.get("answer"))
            with tempfile.TemporaryDirectory() as tmp:
                office = new_office(task, Path(tmp))
                try:
                    session = Session(task, "all_operations", len(steps) + 5, office)
                    for i, act in enumerate(steps, 1):
                        if act["action"] == "finish_task":
                            break
                        result = session.step(act["app"], act["action"], act.get("args") or {})
                        if not result.ok:
                            bad += 1
                            print(f"  {kind} '{item.get('name')}': action {i} {act['app']}.{act['action']} failed: "
                                  f"{result.observation[:300]}")
                finally:
                    remove_office(office)
    print("all actions play" if not bad else f"{bad} action(s) failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
