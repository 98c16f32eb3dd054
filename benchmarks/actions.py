"""Action latency over HTTP (p50/p95/p99) and, in the same run, the process-per-action baseline.

The measured actions run round-robin on the bench-office task (benchmarks/tasks), so no two
consecutive actions of a session are identical and stagnation never ends it: switch_app alternates
between two apps in a switch_app-mode session, the app operations run in an all_operations session.
Repeated reads of an unchanged file are the common case; "just changed" reads a sheet that set_cell
rewrote a moment before, the worst case. Besides wall time on the client, the server's CPU time
per call (from /proc/<pid>/stat) is reported: it does not depend on how busy the machine is.

The baseline is what a process-per-action design pays before any container overhead: a fresh
``python -c`` that imports openpyxl and reads the same small sheet (the same cells excel.read_file
shows), timed from spawn to exit.
"""

from __future__ import annotations

import subprocess
import sys
import time

from common import (BENCH_TASK, BENCH_USER, Bench, cpu_seconds, print_table, server_or_new, summary_ms,
                    timed, write_result)

ROUNDS = 200  # samples per action
BASELINE_RUNS = 20
XLSX = "data/small.xlsx"
LEDGER = "data/ledger.xlsx"

BASELINE_CODE = (
    "import sys, openpyxl\n"
    "wb = openpyxl.load_workbook(sys.argv[1])\n"
    "ws = wb.worksheets[0]\n"
    "print('\\n'.join(f'({c.row}, {c.column}): {c.value}' for row in ws.iter_rows() for c in row))\n"
)


def measure_actions(bench: Bench, rounds: int = ROUNDS) -> tuple[dict[str, list[float]], dict[str, float]]:
    """Wall time of every call per action, and the server's mean CPU time per call (ms)."""
    client = bench.client
    ops = client.create_session(BENCH_TASK, mode="all_operations", max_steps=10_000)["session_id"]
    sw = client.create_session(BENCH_TASK, mode="switch_app", max_steps=10_000)["session_id"]
    cases = [
        ("system.switch_app", sw, "system", "switch_app", lambda i: {"target_app": "excel" if i % 2 else "word"}),
        ("excel.read_file", ops, "excel", "read_file", lambda i: {"file_path": XLSX}),
        ("word.read_file", ops, "word", "read_file", lambda i: {"file_path": "data/notes.docx"}),
        ("calendar.list_events", ops, "calendar", "list_events", lambda i: {"username": BENCH_USER}),
        ("email.list_emails", ops, "email", "list_emails", lambda i: {"username": BENCH_USER}),
        ("excel.set_cell", ops, "excel", "set_cell",
         lambda i: {"file_path": LEDGER, "row_idx": 5, "column_idx": 2, "text": i}),
        # the sheet set_cell just changed: nothing about it can have been seen before
        ("excel.read_file (just changed)", ops, "excel", "read_file", lambda i: {"file_path": LEDGER}),
    ]
    times: dict[str, list[float]] = {name: [] for name, *_ in cases}
    cpu: dict[str, float] = {name: 0.0 for name, *_ in cases}
    for i in range(rounds + 5):  # the first 5 rounds warm caches and connections
        for name, sid, app, action, args in cases:
            a = args(i)

            def call() -> None:
                resp = client.act(sid, app, action, a)
                if not resp["ok"]:
                    raise RuntimeError(f"{name} failed: {resp['observation']}")

            before = cpu_seconds(bench.pid)
            elapsed = timed(call)
            used = cpu_seconds(bench.pid) - before
            if i >= 5:
                times[name].append(elapsed)
                cpu[name] += used
    for sid in (ops, sw):
        client.delete(sid)
    # CPU time is counted in clock ticks (10 ms): per call it is coarse, summed over rounds it is not
    return times, {name: round(total * 1000.0 / rounds, 2) for name, total in cpu.items()}


def baseline_xlsx(bench: Bench, runs: int = BASELINE_RUNS) -> list[float]:
    """Spawn-to-exit of a fresh Python that imports openpyxl and reads the bench xlsx."""
    client = bench.client
    sid = client.create_session(BENCH_TASK, mode="all_operations")["session_id"]
    data = client.download(sid, XLSX)
    client.delete(sid)
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "small.xlsx"
        path.write_bytes(data)
        out = []
        for i in range(runs + 1):
            start = time.perf_counter()
            proc = subprocess.run([sys.executable, "-c", BASELINE_CODE, str(path)], capture_output=True, text=True)
            elapsed = time.perf_counter() - start
            if proc.returncode != 0 or "(2, 2): 12" not in proc.stdout:
                raise RuntimeError(f"baseline process failed: {proc.stderr[-500:]}")
            if i:  # the first spawn warms the page cache
                out.append(elapsed)
    return out


def run(bench: Bench | None = None) -> dict:
    with server_or_new(bench) as b:
        times, cpu = measure_actions(b)
        actions = {name: {**summary_ms(t), "server_cpu_ms": cpu[name]} for name, t in times.items()}
        base = summary_ms(baseline_xlsx(b))
    read_p50 = actions["excel.read_file"]["p50_ms"]
    ratio = round(base["p50_ms"] / read_p50, 1) if read_p50 else None
    rows = [[name, s["n"], s["p50_ms"], s["p95_ms"], s["p99_ms"], s["server_cpu_ms"]] for name, s in actions.items()]
    rows.append(["baseline: new process + openpyxl read", base["n"], base["p50_ms"], base["p95_ms"], base["p99_ms"], "-"])
    print_table("Action latency over HTTP (ms)", ["action", "n", "p50", "p95", "p99", "server CPU/call"], rows)
    print(f"baseline p50 / excel.read_file p50 = {ratio}x (target >= 40x)")
    result = {"actions": actions, "baseline_process_per_action": base, "speedup_vs_baseline": ratio}
    write_result("actions", result)
    return result


if __name__ == "__main__":
    run()
