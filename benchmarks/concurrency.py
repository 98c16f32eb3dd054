"""64 concurrent sessions on one server: actions per second against one client alone, and a check
that no session sees another's files.

One client alone runs the same loop in one session first (its throughput is bounded by one request's
latency), then 64 sessions run at once; the ratio shows whether the server uses its cores (operations
run in worker processes, server/pool.py). The CPU time is that of the server and all its workers.

Every session (one thread each, with its own keep-alive connection, ``LeanConnection``: the load
generator shares the cores with the server, so it is the cheapest client there is) writes a marker document with a
unique token, then alternates system.list_files, the file listing of the API (GET .../files) and
word.read_file of its marker. Every listing must hold exactly one marker, its own, and every read
must return its own token; any other outcome counts as cross-talk.
"""

from __future__ import annotations

import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import psutil
from common import (BENCH_TASK, Bench, LeanConnection, print_table, server_or_new, summary_ms, tree_cpu_seconds,
                    write_result)

SESSIONS = 64
ROUNDS = 10  # rounds of (list_files, GET files, read_file) per session


def _one(b: Bench, index: int, start: threading.Barrier, rounds: int) -> dict:
    token = f"marker-{index}-{secrets.token_hex(8)}"
    marker = f"data/marker-{index}.docx"
    problems: list[str] = []
    times: list[float] = []
    sid = b.client.create_session(BENCH_TASK, mode="all_operations", max_steps=10_000)["session_id"]
    client = LeanConnection(b.url, b.server.token)
    try:
        resp = client.act(sid, "word", "write_to_file", {"file_path": marker, "contents": token})
        if not resp["ok"]:
            problems.append(f"session {index}: writing its marker failed: {resp['observation']}")
        start.wait()
        for _ in range(rounds):
            t0 = time.perf_counter()
            listed = client.act(sid, "system", "list_files", {})["data"]
            t1 = time.perf_counter()
            files = [f["path"] for f in client.files(sid)]
            t2 = time.perf_counter()
            read = client.act(sid, "word", "read_file", {"file_path": marker})
            t3 = time.perf_counter()
            times += [t1 - t0, t2 - t1, t3 - t2]
            for where, paths in (("list_files", [r["path"] for r in listed]), ("GET files", files)):
                markers = [p for p in paths if "marker-" in p]
                if markers != [marker]:
                    problems.append(f"session {index}: {where} shows markers {markers}, expected only {marker}")
            if token not in read["observation"] or "marker-" in read["observation"].replace(token, ""):
                problems.append(f"session {index}: read_file of its marker did not return only its own token")
    finally:
        client.close()
        b.client.delete(sid)
    return {"times": times, "problems": problems}


def _measure(b: Bench, sessions: int, rounds: int) -> dict:
    """``sessions`` sessions at once, each ``rounds`` rounds: wall time, CPU of the server's processes."""
    start = threading.Barrier(sessions + 1)
    with ThreadPoolExecutor(max_workers=sessions) as pool:
        futures = [pool.submit(_one, b, i, start, rounds) for i in range(sessions)]
        start.wait(timeout=600)  # every session is live and has written its marker
        me = psutil.Process()
        c0, m0, t0 = tree_cpu_seconds(b.pid), sum(me.cpu_times()[:2]), time.perf_counter()
        outcomes = [f.result() for f in futures]
        wall = time.perf_counter() - t0
        cpu = tree_cpu_seconds(b.pid) - c0
        client_cpu = sum(me.cpu_times()[:2]) - m0
    times = [t for o in outcomes for t in o["times"]]
    problems = [p for o in outcomes for p in o["problems"]]
    return {"sessions": sessions, "actions": len(times), "wall_s": round(wall, 3),
            "actions_per_s": round(len(times) / wall, 1), "server_cpu_s": round(cpu, 2),
            "client_cpu_s": round(client_cpu, 2),
            "latency": summary_ms(times), "cross_talk": len(problems), "problems": problems[:20]}


def run(bench: Bench | None = None, sessions: int = SESSIONS, rounds: int = ROUNDS) -> dict:
    """One client alone (one session, the same loop), then ``sessions`` at once on the same server."""
    with server_or_new(bench) as b:
        _measure(b, 1, 20)  # warm: workers' caches and the connection
        one = _measure(b, 1, sessions * rounds // 4)
        result = _measure(b, sessions, rounds)
    result["one_client"] = {k: one[k] for k in ("actions", "wall_s", "actions_per_s", "server_cpu_s", "client_cpu_s",
                                                "latency")}
    result["speedup_vs_one_client"] = round(result["actions_per_s"] / one["actions_per_s"], 2)
    problems = result["problems"] + one["problems"]
    result["cross_talk"] += one["cross_talk"]
    print_table(f"{sessions} concurrent sessions vs one client",
                ["clients", "actions", "wall s", "actions/s", "p50 ms", "p95 ms", "server CPU s", "client CPU s",
                 "cross-talk"],
                [[n, r["actions"], r["wall_s"], r["actions_per_s"], r["latency"]["p50_ms"], r["latency"]["p95_ms"],
                  r["server_cpu_s"], r["client_cpu_s"], "none" if not r["cross_talk"] else f"{r['cross_talk']} PROBLEMS"]
                 for n, r in ((1, one), (sessions, result))])
    print(f"  {sessions} sessions / one client: {result['speedup_vs_one_client']}x")
    for p in problems[:5]:
        print("  " + p)
    write_result("concurrency", result)
    return result


if __name__ == "__main__":
    run()
