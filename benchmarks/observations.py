"""What an agent must hold per step in a lived-in office: the oracle plays the gold of a spread of hard
tasks in-process (a Session on its linked office, no HTTP) and the size of every observation is recorded.

Why: a lived-in office holds about a thousand files and an inbox of hundreds of messages; a listing that
returns all of them at once (a 643-message inbox was 402 KB, ~35k tokens) is more than an agent with an
ordinary context window can hold. Mail, files and sheets page like the applications people use
(list_emails 30 a page, list_files 200 entries a page, a sheet window's rows only). Targets (issue: lived-in
offices at suite speed): median observation <= 4 KB, largest <= 32 KB. Reported: median, p90 and the
largest observation, with the action that produced it.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

from common import percentile, print_table, write_result

from officesim.server.session import Session
from officesim.tasks.gold import gold_actions
from officesim.tasks.loader import load_tasks
from officesim.testbed.materialise import new_office, remove_office

TASKS = 12  # one task per scenario at most, spread over the sorted hard split
MEDIAN_TARGET = 4096
MAX_TARGET = 32768


def sample_hard(count: int = TASKS) -> list:
    """One task of each of ``count`` scenarios spread over the hard split."""
    by_scenario: dict[str, object] = {}
    for _id, task in sorted(load_tasks().items()):
        if task.split == "hard":
            by_scenario.setdefault(task.scenario, task)
    tasks = list(by_scenario.values())
    stride = max(1, len(tasks) // count)
    return tasks[::stride][:count]


def run(count: int = TASKS) -> dict:
    sizes: list[int] = []
    largest = (0, "")
    with tempfile.TemporaryDirectory(prefix="officesim-obs-") as where:
        for task in sample_hard(count):
            office = new_office(task, Path(where))
            try:
                session = Session(task, "all_operations", max_steps=1000, office=office)
                for act in gold_actions(task.gold, task.answer):
                    if act["action"] == "finish_task":
                        continue
                    result = session.step(act["app"], act["action"], act.get("args") or {})
                    size = len(result.observation.encode("utf-8"))
                    sizes.append(size)
                    if size > largest[0]:
                        largest = (size, f"{task.id}: {act['app']}.{act['action']}")
            finally:
                remove_office(office)
    median = statistics.median(sizes) if sizes else 0
    p90 = percentile(sizes, 90) if sizes else 0
    print_table("Observations of hard gold runs (bytes)", ["steps", "median", "p90", "largest", "of"],
                [[len(sizes), median, p90, largest[0], largest[1]]])
    result = {"steps": len(sizes), "median_bytes": median, "p90_bytes": p90, "max_bytes": largest[0],
              "max_action": largest[1], "median_target": MEDIAN_TARGET, "max_target": MAX_TARGET}
    write_result("observations", result)
    return result


if __name__ == "__main__":
    out = run(int(sys.argv[1]) if len(sys.argv) > 1 else TASKS)
    sys.exit(0 if out["median_bytes"] <= MEDIAN_TARGET and out["max_bytes"] <= MAX_TARGET else 1)
