"""Write the hard split (tasks/hard/) from the hard scenarios, one task per scenario and world.

Run ``python -m officesim.tasks.build_hard`` after changing a scenario or a world; ``--scenario``
limits it to some.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from officesim.tasks.build_suite import dump_task
from officesim.tasks.hard_scenarios import SCENARIOS, variants
from officesim.tasks.loader import HARD_DIR


def build(names: list[str] | None = None, out: Path = HARD_DIR) -> list[Path]:
    names = names or sorted(SCENARIOS)
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        raise SystemExit(f"unknown scenarios: {', '.join(unknown)}")
    written = []
    for name in names:
        for stale in out.glob(f"hard-{name}-*"):
            shutil.rmtree(stale)
        for world_name in variants():
            task = SCENARIOS[name].make(world_name)
            written.append(dump_task(task, out / task["id"]))
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenario", action="append", help="only these scenarios (repeatable)")
    parser.add_argument("--out", type=Path, default=HARD_DIR)
    args = parser.parse_args(argv)
    paths = build(args.scenario, args.out)
    print(f"wrote {len(paths)} tasks to {args.out}")


if __name__ == "__main__":
    main()
