"""Server memory over a run of the hard split: the oracle (the gold, runner/agents.py) plays every hard task
once against ONE server, and the resident memory of the server's own processes (the router and its server
processes) and of its whole process tree (with the workers) is read after every few tasks.

Why: a server keeps each task's reference states (the parsed initial office, the gold's office, the mail
tolerance, their pickle for the workers: server/grading.py) and a worker keeps the last few it graded
(server/grade.py); a lived-in task's are ~10 MiB, and a server grading the 129 hard tasks grew ~13 MiB per
distinct task and never gave it back. Target (issue: lived-in offices at suite speed): memory per distinct task
bounded, flat over a 129-task run: the slope over the second half of the run near 0 MiB per task.

The first run on a machine (or after a change to the code that computes reference states) builds the machine's
store of them (testbed/refstore.py): it is much slower, and says so in the result (``store_built``).

    python benchmarks/hard_memory.py                 # all 129 hard tasks, one episode at a time
    python benchmarks/hard_memory.py --tasks 60 --parallel 2 --every 5
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import psutil

from common import print_table, server_or_new, servers_rss_mb, tree_pss_mb, tree_rss_mb, write_result

from officesim.runner.agents import OracleAgent
from officesim.runner.play import EvalConfig, play_episode
from officesim.server.client import OfficeClient
from officesim.tasks.loader import load_tasks

MARKS = (10, 25, 50, 75, 100, 129)
EVERY = 5
SLOPE_TARGET_MB = 1.0  # MiB per task over the second half of the run: "flat" allows noise, not a task's references


def slope(points: list[tuple[int, float]]) -> float | None:
    """Least-squares MiB per task through (tasks done, RSS) points."""
    if len(points) < 2:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return None if den == 0 else round(sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den, 3)


def _sample(pid: int, done: int, started: float) -> dict:
    """RSS of the server's own processes and of its whole tree, and how many processes the tree holds (the
    pool starts extra workers for gradings and retires them idle: the tree's figure moves with their number)."""
    try:
        processes = 1 + len(psutil.Process(pid).children(recursive=True))
    except psutil.Error:
        processes = 0
    return {"tasks": done, "servers_rss_mb": servers_rss_mb(pid), "tree_rss_mb": tree_rss_mb(pid),
            "tree_pss_mb": tree_pss_mb(pid), "processes": processes, "elapsed_s": round(time.perf_counter() - started, 1)}


def _result(samples: list[dict], count: int, parallel: int, passed: int, failed: list[str], started: float,
            complete: bool) -> dict:
    done = samples[-1]["tasks"] if samples else 0
    half = [s for s in samples if s["tasks"] >= done / 2] if samples else []
    at = {m: next((s for s in samples if s["tasks"] >= m), None) for m in (*MARKS, done) if m <= done}
    return {"tasks": count, "done": done, "parallel": parallel, "passed": passed, "failed": failed,
            "complete": complete, "wall_s": round(time.perf_counter() - started, 1),
            "samples": samples,
            "at": {str(m): {"servers_rss_mb": s["servers_rss_mb"], "tree_rss_mb": s["tree_rss_mb"],
                            "tree_pss_mb": s["tree_pss_mb"]}
                   for m, s in at.items() if s is not None},
            "slope_second_half_mb_per_task": {
                "servers": slope([(s["tasks"], s["servers_rss_mb"]) for s in half]),
                "tree": slope([(s["tasks"], s["tree_rss_mb"]) for s in half]),
                "tree_pss": slope([(s["tasks"], s["tree_pss_mb"]) for s in half])},
            "slope_target_mb_per_task": SLOPE_TARGET_MB}


def run(bench=None, tasks: int | None = None, parallel: int = 1, every: int = EVERY) -> dict:
    loaded = load_tasks()
    hard = sorted((t for t in loaded.values() if t.split == "hard"), key=lambda t: t.id)
    chosen = hard[:tasks] if tasks else hard
    count = len(chosen)
    points = sorted({*range(every, count + 1, every), *(m for m in MARKS if m <= count), count})
    agent = OracleAgent(loaded)
    cfg = EvalConfig(split="hard", retries=1)
    lock = threading.Lock()
    samples: list[dict] = []
    failed: list[str] = []
    passed = 0
    done = 0
    started = time.perf_counter()
    with server_or_new(bench) as b:
        samples.append(_sample(b.pid, 0, started))
        local = threading.local()

        def client() -> OfficeClient:
            if getattr(local, "client", None) is None:
                local.client = OfficeClient(b.url, token=b.server.token)
            return local.client

        def play(task) -> None:
            nonlocal passed, done
            record = play_episode(lambda _attempt: client(), agent, task, 0, cfg)
            with lock:
                done += 1
                if record.passed:
                    passed += 1
                else:
                    failed.append(f"{task.id}: {record.error or ', '.join(record.failed or [])}"[:300])
                if done in points:
                    sample = _sample(b.pid, done, started)
                    samples.append(sample)
                    print(f"  {done:4d} tasks  servers {sample['servers_rss_mb']:8.1f} MiB  tree {sample['tree_rss_mb']:8.1f}"
                          f" MiB (proportional {sample['tree_pss_mb']:8.1f}) in {sample['processes']} processes  {sample['elapsed_s']:7.0f} s  ({passed} passed)",
                          flush=True)
                    # a run cut short still leaves its figures
                    write_result("hard_memory", _result(samples, count, parallel, passed, failed, started, False))

        with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
            list(pool.map(play, chosen))
    result = _result(samples, count, parallel, passed, failed, started, True)
    marks = [m for m in (*MARKS, count) if m <= count]
    marks = sorted(set(marks))
    rows = []
    for label, field, key in (("server processes (and router)", "servers_rss_mb", "servers"),
                              ("with its workers", "tree_rss_mb", "tree"),
                              ("with its workers, proportional (PSS)", "tree_pss_mb", "tree_pss")):
        rows.append([label, samples[0][field],
                     *(result["at"].get(str(m), {}).get(field, float("nan")) for m in marks),
                     result["slope_second_half_mb_per_task"][key]])
    print_table(f"Server memory over {count} hard tasks, oracle, {parallel} at a time (RSS, MiB; "
                f"{passed}/{count} passed, {result['wall_s']:.0f} s)",
                ["", "start", *(f"{m} tasks" for m in marks), "MiB/task, 2nd half"], rows)
    write_result("hard_memory", result)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=None, help="the first N hard tasks (by id); default all")
    parser.add_argument("--parallel", type=int, default=1, choices=(1, 2), help="episodes in flight (default 1)")
    parser.add_argument("--every", type=int, default=EVERY, help=f"read memory after every K tasks (default {EVERY})")
    args = parser.parse_args(argv)
    out = run(tasks=args.tasks, parallel=args.parallel, every=args.every)
    tree = out["slope_second_half_mb_per_task"]["tree"]
    return 0 if tree is not None and tree <= SLOPE_TARGET_MB else 1


if __name__ == "__main__":
    sys.exit(main())
