"""Write the built-in suite (tasks/suite/) from the scenario families.

Each family contributes ``SEEDS_PER_FAMILY`` tasks with ids ``<family>-001``, ``-002``, ...
Run ``python -m officesim.tasks.build_suite`` after changing a family; ``--family`` limits it to some.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import yaml

from officesim.tasks.families import FAMILIES
from officesim.tasks.loader import SUITE_DIR, TASK_FILE

SEEDS_PER_FAMILY = 3


def suite_id(family: str, seed: int) -> str:
    return f"{family}-{seed:03d}"


class _TaskDumper(yaml.SafeDumper):
    """Writes an object reached twice in full each time: task files never carry anchors (&id001) or aliases."""

    def ignore_aliases(self, data) -> bool:
        return True


def task_yaml(task: dict) -> str:
    """One task dict as the readable YAML text of its task file."""
    return yaml.dump(task, Dumper=_TaskDumper, sort_keys=False, allow_unicode=True, width=110,
                     default_flow_style=None)


def dump_task(task: dict, folder: Path) -> Path:
    """Write one task dict as a readable YAML file in its own folder."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / TASK_FILE
    path.write_text(task_yaml(task), encoding="utf-8")
    return path


def build(families: list[str] | None = None, out: Path = SUITE_DIR) -> list[Path]:
    names = families or sorted(FAMILIES)
    unknown = [n for n in names if n not in FAMILIES]
    if unknown:
        raise SystemExit(f"unknown families: {', '.join(unknown)}")
    written = []
    for name in names:
        fam = FAMILIES[name]
        for stale in out.glob(f"{name}-[0-9][0-9][0-9]"):
            shutil.rmtree(stale)
        for seed in range(1, SEEDS_PER_FAMILY + 1):
            task_id = suite_id(name, seed)
            written.append(dump_task(fam.make(seed, task_id, "test"), out / task_id))
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--family", action="append", help="only these families (repeatable)")
    parser.add_argument("--out", type=Path, default=SUITE_DIR)
    args = parser.parse_args(argv)
    paths = build(args.family, args.out)
    print(f"wrote {len(paths)} tasks to {args.out}")


if __name__ == "__main__":
    main()
