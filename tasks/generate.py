"""Draw further tasks from a family into a train split whose ids never collide with the suite's.

Suite tasks are ``<family>-NNN`` from seeds 1..N; generated tasks are
``<family>-train-s<seed>-<i>`` drawn from a different random stream, so a training split is
disjoint from the test suite by id and by content.
"""

from __future__ import annotations

from pathlib import Path

from officesim.tasks.build_suite import dump_task
from officesim.tasks.families import FAMILIES
from officesim.tasks.loader import load_tasks


def generate(family: str, seed: int, count: int, out: Path) -> list[Path]:
    if family not in FAMILIES:
        raise ValueError(f"unknown family '{family}'; families: {', '.join(sorted(FAMILIES))}")
    if count < 1:
        raise ValueError("count must be at least 1")
    suite_ids = set(load_tasks())
    fam = FAMILIES[family]
    paths = []
    for i in range(1, count + 1):
        task_id = f"{family}-train-s{seed}-{i:03d}"
        if task_id in suite_ids:
            raise ValueError(f"generated id {task_id} collides with the suite")
        task = fam.make(f"train:{seed}:{i}", task_id, "train")
        paths.append(dump_task(task, Path(out) / task_id))
    return paths
