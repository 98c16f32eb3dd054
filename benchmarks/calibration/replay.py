"""Replay a round's outcomes through the API and tally them: wrong outcomes that pass, right ones that fail.

    python benchmarks/calibration/replay.py ROUND_DIR LABEL

For each ROUND_DIR/TASK_ID/outcomes.yaml (``wrong:`` / ``right:``, as in a task file) the task file is
copied with those solutions into ROUND_DIR/run_LABEL/, ``officesim validate`` plays them on private
servers, and ROUND_DIR/tally_LABEL.txt gets one line per graded-wrongly outcome and the figures."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import yaml

from officesim.tasks.loader import HARD_DIR

_WRONG = re.compile(r"wrong solution '(?P<name>.*?)' passes")
_RIGHT = re.compile(r"right solution '(?P<name>.*?)' fails \(")


def stage(root: Path, label: str) -> tuple[Path, dict[str, tuple[int, int]]]:
    """The run directory of task copies, and (wrong, right) outcome counts per task."""
    run = root / f"run_{label}"
    counts = {}
    for outcomes in sorted(root.glob("*/outcomes.yaml")):
        task_id = outcomes.parent.name
        written = yaml.safe_load(outcomes.read_text(encoding="utf-8")) or {}
        task = yaml.safe_load((HARD_DIR / task_id / "task.yaml").read_text(encoding="utf-8"))
        task["wrong"], task["right"] = written.get("wrong") or [], written.get("right") or []
        counts[task_id] = (len(task["wrong"]), len(task["right"]))
        (run / task_id).mkdir(parents=True, exist_ok=True)
        (run / task_id / "task.yaml").write_text(yaml.safe_dump(task, sort_keys=False, allow_unicode=True, width=120),
                                                 encoding="utf-8")
    return run, counts


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root, label = Path(argv[0]), argv[1]
    run, counts = stage(root, label)
    officesim = str(Path(sys.executable).parent / "officesim")  # the venv's command, beside its python
    done = subprocess.run([officesim, "validate", "--tasks", str(run), "--split", "hard", "--quiet"],
                          capture_output=True, text=True)
    lines, passed_wrong, failed_right = [], 0, 0
    for line in done.stdout.splitlines():
        if line.startswith("FAIL "):
            task_id = line[5:].partition(": ")[0]
            for m in _WRONG.finditer(line):
                passed_wrong += 1
                lines.append(f"WRONG PASSES {task_id}: {m['name']}")
            for m in _RIGHT.finditer(line):
                failed_right += 1
                lines.append(f"RIGHT FAILS  {task_id}: {m['name']}")
    wrong = sum(w for w, _ in counts.values())
    right = sum(r for _, r in counts.values())
    lines.append(f"{label}: {passed_wrong}/{wrong} wrong pass, {failed_right}/{right} right fail, {len(counts)} tasks")
    (root / f"tally_{label}.txt").write_text("\n".join(lines) + "\n" + done.stdout + done.stderr, encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
