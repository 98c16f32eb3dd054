"""64 concurrent sessions on one server: the same work done by 64 clients at once and by one client
one action at a time, and a check that no session sees another's files.

Both measures play the same 64 sessions' actions, so they do the same work (the first read of each
session's marker parses a new document in whichever worker takes it, some 10-20 ms of CPU; a
comparison of 64 sessions against one long session would charge those parses to one side only).
One client plays them one action at a time, round-robin over the sessions (its throughput is bounded
by one request's latency); 64 clients, one thread and one connection per session, play them at once.
The ratio shows whether the server uses its cores. The CPU time is that of the server and all its
processes (worker pool, and the processes of a multi-process server, server/router.py).

Every session (with its own keep-alive connection, ``LeanConnection``: the load generator shares the
cores with the server, so it is the cheapest client there is) writes a marker document with a unique
token before the clock starts, then alternates system.list_files, the file listing of the API
(GET .../files) and word.read_file of its marker. Every listing must hold exactly one marker, its
own, and every read must return its own token; any other outcome counts as cross-talk.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

import psutil
from common import (BENCH_TASK, Bench, LeanConnection, print_table, private_server, server_or_new, summary_ms,
                    tree_cpu_seconds, write_result)

SESSIONS = 64
ROUNDS = 10  # rounds of (list_files, GET files, read_file) per session
WRK_SECONDS = 10
WRK_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "concurrency_wrk.lua")


class _Player:
    """One session on its own connection, with its marker written."""

    def __init__(self, b: Bench, index: int):
        self.b = b
        self.index = index
        self.token = f"marker-{index}-{secrets.token_hex(8)}"
        self.marker = f"data/marker-{index}.docx"
        self.problems: list[str] = []
        self.times: list[float] = []
        self.sid = b.client.create_session(BENCH_TASK, mode="all_operations", max_steps=10_000)["session_id"]
        self.conn = LeanConnection(b.url, b.server.token)
        resp = self.conn.act(self.sid, "word", "write_to_file", {"file_path": self.marker, "contents": self.token})
        if not resp["ok"]:
            self.problems.append(f"session {index}: writing its marker failed: {resp['observation']}")

    def round(self) -> None:
        """list_files, GET files, read_file; each timed, each checked for another session's marker."""
        t0 = time.perf_counter()
        listed = self.conn.act(self.sid, "system", "list_files", {}, include="data")["data"]
        t1 = time.perf_counter()
        files = [f["path"] for f in self.conn.files(self.sid)]
        t2 = time.perf_counter()
        read = self.conn.act(self.sid, "word", "read_file", {"file_path": self.marker})
        t3 = time.perf_counter()
        self.times += [t1 - t0, t2 - t1, t3 - t2]
        for where, paths in (("list_files", [r["path"] for r in listed]), ("GET files", files)):
            markers = [p for p in paths if "marker-" in p]
            if markers != [self.marker]:
                self.problems.append(f"session {self.index}: {where} shows markers {markers}, expected only {self.marker}")
        if self.token not in read["observation"] or "marker-" in read["observation"].replace(self.token, ""):
            self.problems.append(f"session {self.index}: read_file of its marker did not return only its own token")

    def close(self) -> None:
        self.conn.close()
        self.b.client.delete(self.sid)


def _measure(b: Bench, sessions: int, rounds: int, clients: int) -> dict:
    """``sessions`` sessions, ``rounds`` rounds each, played by one client (round-robin, one action at a
    time) or by one client per session at once: wall time, CPU of the server's processes and the client's."""
    with ThreadPoolExecutor(max_workers=min(sessions, 16)) as setup:
        players = list(setup.map(lambda i: _Player(b, i), range(sessions)))
    try:
        me = psutil.Process()
        c0, m0, t0 = tree_cpu_seconds(b.pid), sum(me.cpu_times()[:2]), time.perf_counter()
        if clients == 1:
            for _ in range(rounds):
                for player in players:
                    player.round()
        else:
            def play(player: _Player) -> None:
                for _ in range(rounds):
                    player.round()

            with ThreadPoolExecutor(max_workers=sessions) as pool:
                list(pool.map(play, players))
        wall = time.perf_counter() - t0
        cpu = tree_cpu_seconds(b.pid) - c0
        client_cpu = sum(me.cpu_times()[:2]) - m0
    finally:
        for player in players:
            player.close()
    times = [t for p in players for t in p.times]
    problems = [msg for p in players for msg in p.problems]
    return {"sessions": sessions, "clients": clients, "actions": len(times), "wall_s": round(wall, 3),
            "actions_per_s": round(len(times) / wall, 1), "server_cpu_s": round(cpu, 2),
            "client_cpu_s": round(client_cpu, 2),
            "latency": summary_ms(times), "cross_talk": len(problems), "problems": problems[:20]}


def _wrk(b: Bench, players: list[_Player], connections: int) -> dict:
    """``wrk`` (a C load generator, so the client costs next to nothing) over ``connections`` keep-alive
    connections for WRK_SECONDS, every request acting in one of the players' sessions in turn."""
    threads = min(connections, 2)
    args = [a for p in players for a in (p.sid, p.marker)]
    env = {**os.environ, "OFFICESIM_TOKEN": b.server.token or ""}
    out = subprocess.run(["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{WRK_SECONDS}s", "--latency",
                          "-s", WRK_SCRIPT, b.url, "--", *args], capture_output=True, text=True, env=env, timeout=120)
    line = re.search(r"OFFICESIM requests=(\d+) failed=(\d+) non2xx=(\d+) p50_us=(\d+) p95_us=(\d+)", out.stdout)
    if out.returncode != 0 or line is None:
        raise RuntimeError(f"wrk failed ({out.returncode}): {out.stderr[-500:] or out.stdout[-500:]}")
    requests, failed, non2xx, p50, p95 = (int(g) for g in line.groups())
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out.stdout)
    return {"connections": connections, "threads": threads, "seconds": WRK_SECONDS, "requests": requests,
            "failed": failed + non2xx, "requests_per_s": float(rps.group(1)) if rps else round(requests / WRK_SECONDS, 1),
            "p50_ms": round(p50 / 1000, 2), "p95_ms": round(p95 / 1000, 2)}


def wrk_ratio(b: Bench, sessions: int = SESSIONS) -> dict | None:
    """The concurrency figure measured with ``wrk``: ``sessions`` connections at once ÷ one connection,
    both over the same ``sessions`` sessions and the same mix of actions. None when wrk is not installed."""
    if shutil.which("wrk") is None:
        return None
    with ThreadPoolExecutor(max_workers=min(sessions, 16)) as setup:
        players = list(setup.map(lambda i: _Player(b, i), range(sessions)))
    try:
        _wrk(b, players[:4], 1)  # warm
        c0 = tree_cpu_seconds(b.pid)
        one = _wrk(b, players, 1)
        c1 = tree_cpu_seconds(b.pid)
        many = _wrk(b, players, sessions)
        c2 = tree_cpu_seconds(b.pid)
    finally:
        for player in players:
            player.close()
    one["server_cpu_s"], many["server_cpu_s"] = round(c1 - c0, 2), round(c2 - c1, 2)
    return {"one_connection": one, "many_connections": many,
            "speedup_vs_one_client": round(many["requests_per_s"] / one["requests_per_s"], 2)}


def run(bench: Bench | None = None, sessions: int = SESSIONS, rounds: int = ROUNDS) -> dict:
    """The same ``sessions`` sessions' work played by one client, then by ``sessions`` clients at once, on
    the server as users get it (one server process per core behind the router); then the same two on a
    single-process server (``--processes 1``), so what the extra processes bring shows apart from the ratio."""
    with server_or_new(bench) as b:
        _measure(b, 4, 5, 1)  # warm: workers and connections
        one = _measure(b, sessions, rounds, 1)
        result = _measure(b, sessions, rounds, sessions)
        wrk = wrk_ratio(b, sessions)
    with private_server(processes=1) as single_server:
        _measure(single_server, 4, 5, 1)
        single_one = _measure(single_server, sessions, rounds, 1)
        single = _measure(single_server, sessions, rounds, sessions)
    keys = ("actions", "wall_s", "actions_per_s", "server_cpu_s", "client_cpu_s", "latency")
    result["one_client"] = {k: one[k] for k in keys}
    result["speedup_vs_one_client"] = round(result["actions_per_s"] / one["actions_per_s"], 2)
    result["wrk"] = wrk
    result["single_process"] = {"one_client": {k: single_one[k] for k in keys}, "many_clients": {k: single[k] for k in keys},
                                "speedup_vs_one_client": round(single["actions_per_s"] / single_one["actions_per_s"], 2)}
    problems = result["problems"] + one["problems"] + single["problems"] + single_one["problems"]
    result["cross_talk"] += one["cross_talk"] + single["cross_talk"] + single_one["cross_talk"]
    rows = [("one per core", 1, one), ("one per core", sessions, result), ("1", 1, single_one), ("1", sessions, single)]
    print_table(f"{sessions} sessions: one client vs {sessions} clients at once",
                ["server processes", "clients", "actions", "wall s", "actions/s", "p50 ms", "p95 ms", "server CPU s",
                 "client CPU s", "cross-talk"],
                [[procs, n, r["actions"], r["wall_s"], r["actions_per_s"], r["latency"]["p50_ms"], r["latency"]["p95_ms"],
                  r["server_cpu_s"], r["client_cpu_s"], "none" if not r["cross_talk"] else f"{r['cross_talk']} PROBLEMS"]
                 for procs, n, r in rows])
    print(f"  {sessions} clients / one client: {result['speedup_vs_one_client']}x "
          f"(single process: {result['single_process']['speedup_vs_one_client']}x)")
    if wrk is None:
        print("  wrk is not installed (apt-get install wrk): the C load generator's figure is not measured")
    else:
        print_table(f"wrk, {WRK_SECONDS} s each: one connection vs {sessions} at once (same {sessions} sessions)",
                    ["connections", "requests", "requests/s", "p50 ms", "p95 ms", "server CPU s", "failed"],
                    [[r["connections"], r["requests"], r["requests_per_s"], r["p50_ms"], r["p95_ms"], r["server_cpu_s"],
                      r["failed"]] for r in (wrk["one_connection"], wrk["many_connections"])])
        print(f"  wrk: {sessions} connections / one: {wrk['speedup_vs_one_client']}x")
    for p in problems[:5]:
        print("  " + p)
    write_result("concurrency", result)
    return result


if __name__ == "__main__":
    run()
