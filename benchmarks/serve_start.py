"""How long ``officesim serve`` takes to answer ``/health``, with 2 server processes and with 1.

Why: a user's first contact with the service is starting it, and a harness (tests, eval, CI) waits for
it. It once took 119 s under load. Target: <= 3 s on a quiet machine, whatever the number of tasks.
Each round starts the command line as a user types it, polls /health every 20 ms with the standard
library's ``http.client`` (cheap: the poll must not take a core from the processes it waits for) and
stops the server; the first round after a code change rebuilds the machine's task store and is
reported apart.
"""

from __future__ import annotations

import http.client
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import loadavg, print_table, write_result

from officesim.runner.localserver import free_port

ROUNDS = 5
TARGET_S = 3.0
LIMIT_S = 300.0  # a round that takes longer is a failure of the benchmark, reported as such


def _answers(port: int) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1.0)
    try:
        conn.request("GET", "/health")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


def start_once(processes: int) -> float:
    """Seconds from launching ``officesim serve --processes N`` until /health answers."""
    port = free_port()
    command = [str(Path(sys.executable).with_name("officesim")), "serve", "--port", str(port),
               "--processes", str(processes), "--log-level", "warning"]
    began = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        while not _answers(port):
            if proc.poll() is not None:
                raise SystemExit(f"officesim serve exited at start (code {proc.returncode})")
            if time.perf_counter() - began > LIMIT_S:
                raise SystemExit(f"officesim serve did not answer /health within {LIMIT_S:.0f} s")
            time.sleep(0.02)
        return time.perf_counter() - began
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def run(rounds: int = ROUNDS) -> dict:
    load_before = loadavg()
    first = start_once(2)  # builds the machine's task store after a change of the code or the tasks
    result: dict = {"first_round_s": round(first, 2), "target_s": TARGET_S, "load_before": load_before}
    for processes in (2, 1):
        times = [start_once(processes) for _ in range(rounds)]
        result[f"processes_{processes}"] = {"p50_s": round(statistics.median(times), 2), "max_s": round(max(times), 2),
                                            "runs_s": [round(t, 2) for t in times]}
    result["load_after"] = loadavg()
    print_table("officesim serve: seconds to answer /health",
                ["first round (store built if needed)", "2 processes p50 / max", "1 process p50 / max"],
                [[result["first_round_s"], f"{result['processes_2']['p50_s']} / {result['processes_2']['max_s']}",
                  f"{result['processes_1']['p50_s']} / {result['processes_1']['max_s']}"]])
    write_result("serve_start", result)
    return result


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else ROUNDS)
