"""``eval --engine ray`` on one machine: episodes per second with 1, 2 and 3 Ray nodes, and the cost
per episode against the local engine.

Nodes are made with ``ray.cluster_utils.Cluster``, one CPU each, so each hosts one office (one
officesim server); the oracle plays the same suite tasks (OCR tasks left out) in every run. The
rate is taken over the steady part of a run (first record to last: Ray's and the offices' start-up
are reported apart). The overhead per episode compares one office on Ray with one local server and
one worker (the local engine, ``--workers 1 --servers 1``): both play one episode at a time. Each
record's ``wall_time_s`` is the episode itself (session, agent, grading); with one office the interval
between records less that is what the engine adds (dispatch, shipping the task and the record, writing it), so the
difference between the two engines does not depend on how fast the server happened to be.
On a machine of 2 cores a third node adds no core: the figures show what the nodes share.
OFFICESIM_BENCH_RAY_TASKS sets how many tasks (default 40).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from common import print_table, write_result

from officesim.runner import run as run_module
from officesim.runner.results import read_results
from officesim.runner.run import EvalConfig, run_eval
from officesim.tasks.loader import load_tasks

TASKS = int(os.environ.get("OFFICESIM_BENCH_RAY_TASKS", "40"))
NODES = [1, 2, 3]


def task_ids(count: int = TASKS) -> list[str]:
    """A spread of suite tasks over every category, the same in every run."""
    tasks = load_tasks([], include_suite=True)
    ids = sorted(t.id for t in tasks.values() if "ocr" not in t.apps and t.split != "hard")
    step = max(1, len(ids) // count)
    return ids[::step][:count]


def timed_run(cfg: EvalConfig) -> dict:
    """Run cfg, noting when each record reaches the run directory."""
    stamps: list[float] = []
    add = run_module.EpisodeLog.add

    def stamped(self, record) -> None:
        add(self, record)
        stamps.append(time.perf_counter())

    run_module.EpisodeLog.add = stamped
    try:
        start = time.perf_counter()
        summary = run_eval(cfg)
        wall = time.perf_counter() - start
    finally:
        run_module.EpisodeLog.add = add
    if summary["passed"] != summary["total"]:
        raise RuntimeError(f"{cfg.engine}: {summary['total'] - summary['passed']} episode(s) failed in {cfg.out}")
    steady = stamps[-1] - stamps[0]
    interval = steady / (len(stamps) - 1)
    # the episodes that ended within the steady part: all but the first to end (results.jsonl is in that order)
    records = read_results(cfg.out)[1:]
    in_episode = sum(r.wall_time_s or 0.0 for r in records) / len(records)
    return {"episodes": len(stamps), "wall_s": round(wall, 2), "startup_s": round(stamps[0] - start, 2),
            "episodes_per_s": round(1 / interval, 3), "s_per_episode": round(interval, 4),
            "episode_s": round(in_episode, 4), "engine_ms_per_episode": round((interval - in_episode) * 1000, 1)}


def run(bench=None) -> dict | None:
    try:
        import ray
        from ray.cluster_utils import Cluster
    except ImportError:
        print("Ray engine benchmark skipped: Ray is not installed (pip install 'officesim[ray]')")
        return None
    ids = task_ids()
    rows = []
    with tempfile.TemporaryDirectory(prefix="officesim-bench-ray-") as tmp:
        # a first, untimed run builds the task offices' templates (a machine's first run does), so that
        # every timed run finds them built
        run_eval(EvalConfig(agent="oracle", task_ids=ids, workers=2, out=Path(tmp) / "warm-up", progress="off"))
        local = timed_run(EvalConfig(agent="oracle", task_ids=ids, workers=1, servers=1, out=Path(tmp) / "local",
                                     progress="off"))
        print(f"  local engine, 1 server, 1 worker: {local['episodes_per_s']} episodes/s", flush=True)
        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
        try:
            ray.init(address=cluster.address, logging_level="ERROR", log_to_driver=False)
            for nodes in NODES:
                while len(cluster.list_all_nodes()) < nodes:
                    cluster.add_node(num_cpus=1)
                cluster.wait_for_nodes()
                result = timed_run(EvalConfig(agent="oracle", task_ids=ids, engine="ray", out=Path(tmp) / f"ray{nodes}",
                                              progress="off"))
                rows.append({"nodes": nodes, **result})
                print(f"  ray engine, {nodes} node(s): {result['episodes_per_s']} episodes/s", flush=True)
        finally:
            ray.shutdown()
            cluster.shutdown()
    one = rows[0]
    overhead_ms = round(one["engine_ms_per_episode"] - local["engine_ms_per_episode"], 1)
    print_table(f"Ray engine, oracle agent over {len(ids)} suite tasks (one office per node, {os.cpu_count()} cores)",
                ["engine", "offices", "episodes/s", "s between records", "s in episode", "start-up s", "wall s"],
                [[f"{name}", offices, r["episodes_per_s"], r["s_per_episode"], r["episode_s"], r["startup_s"], r["wall_s"]]
                 for name, offices, r in [("local", 1, local),
                                          *[(f"ray, {r['nodes']} node(s)", r["nodes"], r) for r in rows]]])
    print(f"engine time per episode (between records, less the episode): local {local['engine_ms_per_episode']} ms, "
          f"one office on Ray {one['engine_ms_per_episode']} ms; Ray's overhead per episode: {overhead_ms} ms")
    result = {"tasks": len(ids), "local": local, "ray": rows, "overhead_per_episode_ms": overhead_ms}
    write_result("ray_engine", result)
    return result


if __name__ == "__main__":
    run()
