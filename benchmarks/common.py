"""Shared helpers of the benchmarks: percentiles, the table printer, results JSON, the private server.

Every benchmark is a plain script (``python benchmarks/<name>.py``) with a ``run(server)`` function
that ``run_all.py`` calls on a shared server. Numbers are wall-clock times taken on the client side
of a real HTTP connection to a server subprocess, so they include routing, JSON and the loopback.
"""

from __future__ import annotations

import http.client
import json
import os
import platform
import statistics
import sys
import time
import urllib.parse
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402

from officesim.server.client import OfficeClient  # noqa: E402
from officesim.runner.localserver import LocalServer  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
TASKS_DIR = ROOT / "benchmarks" / "tasks"  # the bench-office task (one small file of each kind)
BENCH_TASK = "bench-office"
BENCH_USER = "bench.user@northwind.test"


# -- numbers ---------------------------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation between closest ranks."""
    if not values:
        return float("nan")
    data = sorted(values)
    pos = (len(data) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def summary_ms(seconds: list[float]) -> dict:
    """p50/p95/p99/mean in milliseconds of a list of durations in seconds."""
    ms = [s * 1000.0 for s in seconds]
    return {"n": len(ms), "p50_ms": round(percentile(ms, 50), 3), "p95_ms": round(percentile(ms, 95), 3),
            "p99_ms": round(percentile(ms, 99), 3), "mean_ms": round(statistics.fmean(ms), 3) if ms else None}


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


# -- the machine -------------------------------------------------------------------------------------
def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine() -> dict:
    return {"nproc": os.cpu_count(), "cpu": cpu_model(), "python": platform.python_version(),
            "platform": platform.platform(), "loadavg": loadavg()}


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MiB (VmRSS of /proc/<pid>/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024.0, 1)
    raise RuntimeError(f"no VmRSS for pid {pid}")


def servers_rss_mb(pid: int) -> float:
    """Resident memory of the server's own processes, MiB: the one process of a single-process server,
    or the router and its server processes (``officesim serve --processes N``), without workers."""
    import psutil

    try:
        top = psutil.Process(pid)
        procs = [top, *(c for c in top.children() if "officesim.runner.cli" in " ".join(c.cmdline()))]
        return round(sum(p.memory_info().rss for p in procs) / (1 << 20), 1)
    except psutil.Error:
        return 0.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the server has used so far: its own process and its live worker
    processes (operations run in workers, server/pool.py)."""
    return tree_cpu_seconds(pid)


def _tree_mb(pid: int, bytes_of) -> float:
    """``bytes_of(process)`` summed over a process and all its descendants, MiB (a process gone meanwhile
    counts 0)."""
    import psutil

    try:
        top = psutil.Process(pid)
        procs = [top, *top.children(recursive=True)]
    except psutil.Error:
        return 0.0
    total = 0
    for p in procs:
        try:
            total += bytes_of(p)
        except (psutil.Error, AttributeError):
            pass
    return round(total / (1 << 20), 1)


def tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and all its descendants (the server and its workers), MiB."""
    return _tree_mb(pid, lambda p: p.memory_info().rss)


def tree_pss_mb(pid: int) -> float:
    """Proportional memory of a process and all its descendants, MiB: each page shared by k processes
    counts 1/k in each (workers share the pages of the forkserver they were forked from, which RSS
    counts once per worker). What the tree really takes from the machine."""
    return _tree_mb(pid, lambda p: p.memory_full_info().pss)


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its live descendants (workers included)."""
    import psutil

    try:
        top = psutil.Process(pid)
        procs = [top, *top.children(recursive=True)]
    except psutil.Error:
        return 0.0
    total = 0.0
    for p in procs:
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.Error:
            pass
    return total


# -- output ----------------------------------------------------------------------------------------
def print_table(title: str, headers: list[str], rows: list[list[object]]) -> None:
    cells = [[_fmt(c) for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
    line = "  ".join("-" * w for w in widths)
    print(f"\n{title}  (load average {' '.join(str(x) for x in loadavg())})")
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths)))
    print(line)
    for row in cells:
        print("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))))
    sys.stdout.flush()


def _fmt(value: object) -> str:
    if isinstance(value, float):
        if value != value:
            return "-"
        return f"{value:.1f}" if abs(value) >= 100 else f"{value:.2f}"
    return str(value)


def write_result(name: str, data: dict) -> Path:
    """benchmarks/results/<name>.json with the machine and load average beside the numbers."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    payload = {"benchmark": name, "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "machine": machine(), **data}
    path.write_text(json.dumps(payload, indent=2) + "\n")
    return path


# -- the server ------------------------------------------------------------------------------------
class Bench:
    """A private server subprocess (its pid for memory readings) and a keep-alive client."""

    def __init__(self, server: LocalServer, client: OfficeClient):
        self.server = server
        self.client = client

    @property
    def pid(self) -> int:
        return self.server.proc.pid

    @property
    def url(self) -> str:
        return self.server.url


class LeanConnection:
    """One keep-alive connection (the standard library's ``http.client``) that acts in sessions.

    The load generator of the throughput benchmarks: it shares the machine's cores with the server,
    so it should cost as little as it can. httpx, under ``OfficeClient``, spends about as much CPU on
    a request as the server does; this spends a fraction, and the numbers measure the server."""

    def __init__(self, url: str, token: str | None):
        parsed = urllib.parse.urlsplit(url)
        self._conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=120)
        self._headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}

    def _call(self, method: str, path: str, body: dict | None = None):
        payload = None if body is None else orjson.dumps(body)
        self._conn.request(method, path, body=payload, headers=self._headers)
        response = self._conn.getresponse()
        data = response.read()
        if response.status >= 400:
            raise RuntimeError(f"{method} {path}: {response.status} {data[:300]!r}")
        return orjson.loads(data)

    def act(self, session_id: str, app: str, action: str, arguments: dict, include: str | None = None) -> dict:
        """One action; ``include``: the action's ?include= (``data``: the result as values too)."""
        query = f"?include={include}" if include else ""
        return self._call("POST", f"/sessions/{session_id}/actions{query}", {"app": app, "action": action, "args": arguments})

    def files(self, session_id: str) -> list[dict]:
        return self._call("GET", f"/sessions/{session_id}/files")

    def close(self) -> None:
        self._conn.close()


@contextmanager
def private_server(env: dict | None = None, processes: int = 0) -> Iterator[Bench]:
    """``officesim serve`` on a free port (suite + the bench task), quiet logs, a client to it; with
    ``processes`` 0 as a user gets it (one server process per core behind the router), or with that many."""
    env = {"OFFICESIM_MAX_SESSIONS": "512", **(env or {})}
    with LocalServer([TASKS_DIR], env=env, include_suite=True, processes=processes) as server:
        with OfficeClient(server.url, token=server.token) as client:
            yield Bench(server, client)


@contextmanager
def server_or_new(bench: Bench | None) -> Iterator[Bench]:
    if bench is not None:
        yield bench
    else:
        with private_server() as fresh:
            yield fresh
