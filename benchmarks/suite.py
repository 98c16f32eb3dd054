"""The whole suite with the oracle agent through HTTP, evaluation included, at 1, 2 and 4 workers.

Each run is the command a user types, ``officesim eval --agent oracle --workers N``: it starts its
own private server (a cold server: no task's gold replay is cached yet), runs every task through
the HTTP API, evaluates it on the server and writes the run directory. The wall time is the
command's, start-up and task loading included. Templates of the task offices are built once per
machine and reused (the template cache), as for any user after a first run.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import RESULTS, ROOT, print_table, write_result

WORKERS = [int(w) for w in os.environ.get("OFFICESIM_BENCH_WORKERS", "1 2 4").split()]


def run_once(workers: int, out: Path) -> dict:
    cmd = [sys.executable, "-c", "import sys; from runner.cli import main; sys.exit(main())", "eval",
           "--agent", "oracle", "--workers", str(workers), "--out", str(out), "--progress", "off"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU of the eval command, its server and the server's children (tesseract, bwrap): the work
    # itself, whatever else the machine is doing
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0 or not (out / "summary.json").exists():
        raise RuntimeError(f"eval with {workers} workers failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    summary = json.loads((out / "summary.json").read_text())
    if summary.get("errors") or summary["passed"] != summary["total"]:
        # keep the evidence: the run directory is temporary
        records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines() if line.strip()]
        bad = [r for r in records if r.get("error") or not r.get("passed")]
        RESULTS.mkdir(parents=True, exist_ok=True)
        keep = RESULTS / f"suite-w{workers}-failures.jsonl"
        keep.write_text("".join(json.dumps(r) + "\n" for r in bad))
        print(f"  {len(bad)} episode(s) failed or errored with {workers} worker(s), e.g. "
              f"{bad[0]['task_id']}: {bad[0].get('error') or bad[0].get('status')}; all in {keep}", flush=True)
    return {"workers": workers, "wall_s": round(wall, 2), "tasks": summary["total"], "passed": summary["passed"],
            "errors": summary.get("errors", 0), "tasks_per_s": round(summary["total"] / wall, 2),
            "cpu_s": round(cpu, 1)}


def run(bench=None) -> dict:
    rows = []
    with tempfile.TemporaryDirectory(prefix="officesim-bench-suite-") as tmp:
        for workers in WORKERS:
            rows.append(run_once(workers, Path(tmp) / f"w{workers}"))
            print(f"  suite at {workers} worker(s): {rows[-1]['wall_s']} s", flush=True)
    print_table("Whole suite, oracle agent over HTTP, evaluation included",
                ["workers", "tasks", "passed", "wall s", "tasks/s", "CPU s (all processes)"],
                [[r["workers"], r["tasks"], r["passed"], r["wall_s"], r["tasks_per_s"], r["cpu_s"]] for r in rows])
    result = {"runs": rows}
    write_result("suite", result)
    return result


if __name__ == "__main__":
    run()
