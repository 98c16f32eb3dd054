"""Hostile use of the surfaces around the operations: code mode, the sandbox, the router, a crashed
server process, MCP. Played against ``officesim serve --processes 2`` (the router in front) with an
office quota of 64 MB; each case prints what it measured and whether the limit held. Part of the
hostile-inputs benchmark (benchmarks/hostile.py runs it after the hostile files).

Cases, each bounded in count and time and sent only to the loopback:

- code mode: one file past the quota, many files past it, 20 programs at once (how many sandboxes run
  together), reading the session while a program runs;
- the sandbox: ``unshare -Ur`` (a nested user namespace);
- the router: a 64 MB URL, 64 MB of headers, a 1 GB Content-Length, an unauthenticated 64 MB body,
  1,100 slowloris connections (how long another client is refused), session URLs percent-encoded and
  in absolute form (misrouted count), a ``Connection: close`` request followed by more bytes;
- MCP: 300 bare ``initialize`` calls (accepted, refused, memory of the process), five concurrent
  ``start_task`` on one connection, the stdio relay fed a 5 MB line and garbage;
- over-long file and user names on every operation that takes one;
- last, kill -9 of one server process: failed creations, the dead process's sessions, its offices.
"""

from __future__ import annotations

import json
import os
import resource
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from common import ROOT, print_table, tree_rss_mb, write_result

sys.path.insert(0, str(ROOT / "tests"))
from _eval_tasks import TASK_IDS, write_tasks  # noqa: E402

import httpx  # noqa: E402
import psutil  # noqa: E402

from officesim.runner.localserver import LocalServer  # noqa: E402
from officesim.server.client import OfficeClient  # noqa: E402
from officesim.server.router import HEAD_TIMEOUT_S  # noqa: E402

QUOTA_MB = 64
MAX_SESSIONS = 64
MB = 1 << 20


class Cases:
    def __init__(self):
        self.rows: list[dict] = []

    def add(self, case: str, limit: str, measured: str, held: bool, seconds: float | None = None) -> None:
        self.rows.append({"case": case, "limit": limit, "measured": measured, "held": bool(held),
                          "seconds": None if seconds is None else round(seconds, 2)})

    @property
    def failures(self) -> int:
        return sum(1 for r in self.rows if not r["held"])


def _status(answer: bytes) -> int:
    try:
        return int(answer.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return 0


def _read_all(sock: socket.socket) -> bytes:
    out = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, socket.timeout):
            break
        if not chunk:
            break
        out += chunk
    return out


def _stream(port: int, head: bytes, filler: bytes, total: int) -> tuple[int, int, float]:
    """Send ``head`` then ``filler`` up to ``total`` bytes until the router closes; (status, sent, seconds)."""
    t0 = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(head)
        sent = 0
        chunk = filler * (65536 // len(filler))
        try:
            while sent < total:
                sock.sendall(chunk)
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = _read_all(sock)
    return _status(answer), sent, time.perf_counter() - t0


def run() -> dict:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    cases = Cases()
    with tempfile.TemporaryDirectory() as tmp:
        tasks = write_tasks(Path(tmp) / "tasks")
        sessions_root = Path(tmp) / "sessions"
        env = {"OFFICESIM_OFFICE_QUOTA_MB": str(QUOTA_MB), "OFFICESIM_SESSIONS_DIR": str(sessions_root)}
        with LocalServer([tasks], include_suite=False, processes=2, max_sessions=MAX_SESSIONS, env=env) as server, \
                OfficeClient(server.url, token=server.token) as client:
            _code_mode(server, client, cases, sessions_root)
            _sandbox(client, cases)
            _router(server, client, cases)
            _mcp(server, cases)
            _names(client, cases)
            _crash(server, client, cases, sessions_root)
    print_table("Hostile use of code mode, the sandbox, the router, MCP", ["case", "limit", "measured", "seconds", "held"],
                [[r["case"], r["limit"], r["measured"], "-" if r["seconds"] is None else r["seconds"],
                  "yes" if r["held"] else "NO"] for r in cases.rows])
    print(f"  failures: {cases.failures} of {len(cases.rows)} cases")
    result = {"cases": cases.rows, "failures": cases.failures}
    write_result("hostile_surfaces", result)
    return result


def _code_session(client: OfficeClient) -> str:
    return client.create_session(TASK_IDS[0], mode="code")["session_id"]


def _program(client: OfficeClient, sid: str, code: str) -> dict:
    return client.act(sid, "system", "run_code", {"code": code})


def _code_mode(server, client, cases: Cases, sessions_root: Path) -> None:
    sid = _code_session(client)
    t0 = time.perf_counter()
    one = _program(client, sid, "try:\n    with open('data/big.bin', 'wb') as f:\n        for _ in range(64):\n"
                                "            f.write(b'x' * (16 << 20))\nexcept OSError as e:\n    print('refused', e.errno)\n")
    took = time.perf_counter() - t0
    size = sum(f["size"] for f in client.files(sid)) / MB
    how = "EFBIG in the program" if "refused 27" in one["observation"] else (one.get("error") or {}).get("code") or "written"
    cases.add("code: one 1 GB file", f"quota {QUOTA_MB} MB", f"{how}, office {size:.0f} MB",
              how != "written" and size <= QUOTA_MB + 1, took)
    client.delete(sid)

    sid = _code_session(client)
    t0 = time.perf_counter()
    many = _program(client, sid, "for i in range(128):\n    open(f'data/p{i}.bin', 'wb').write(b'x' * (8 << 20))\n")
    took = time.perf_counter() - t0
    size = sum(f["size"] for f in client.files(sid)) / MB
    code = (many.get("error") or {}).get("code") or "ok"
    cases.add("code: 128 files of 8 MB", f"quota {QUOTA_MB} MB", f"{code}, office {size:.0f} MB "
              f"(overshoot {max(0.0, size - QUOTA_MB):.0f} MB in one 0.1 s look)", code == "resource_limit", took)
    client.delete(sid)

    # 20 programs at once, each sleeping 3 s: how many sandboxes run together
    sids = [_code_session(client) for _ in range(20)]
    marker = "officesim-bench-program"
    peak = {"n": 0}
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            n = sum(1 for p in psutil.process_iter(["cmdline"])  # the programs' Python, not their wrappers
                    if (p.info["cmdline"] or [""])[0] == "python3" and marker in " ".join(p.info["cmdline"]))
            peak["n"] = max(peak["n"], n)
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    answers: list[dict] = []

    def play(sid: str) -> None:
        with OfficeClient(server.url, token=server.token) as c:
            answers.append(_program(c, sid, f"# {marker}\nimport time\ntime.sleep(3)\nprint('done')"))

    t0 = time.perf_counter()
    threads = [threading.Thread(target=play, args=(s,)) for s in sids]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    took = time.perf_counter() - t0
    stop.set()
    sampler.join()
    slots = 2 * 7  # two processes, max_workers 8 - 1 kept worker each (server/pool.py program_slots)
    ok = sum(1 for a in answers if a.get("ok"))
    cases.add("code: 20 programs at once", f"<= {slots} at once (in the pools)", f"{peak['n']} at once, {ok}/20 ran",
              0 < peak["n"] <= slots and ok == 20, took)

    # reading the session while its program runs
    sid = sids[0]
    done = threading.Event()

    def long_program() -> None:
        with OfficeClient(server.url, token=server.token) as c:
            _program(c, sid, "import time\ntime.sleep(5)")
        done.set()

    threading.Thread(target=long_program, daemon=True).start()
    time.sleep(1.0)
    t0 = time.perf_counter()
    seen = client.get_session(sid)
    took = time.perf_counter() - t0
    cases.add("GET /sessions/{id} while a 5 s program runs", "answers at once", f"answered in {took:.2f} s",
              not done.is_set() and seen["session_id"] == sid, took)
    done.wait(60)
    for s in sids:
        client.delete(s)


def _sandbox(client, cases: Cases) -> None:
    sid = client.create_session(TASK_IDS[0], mode="all_operations")["session_id"]
    for command in ("unshare -Ur true", "unshare -Urnm true"):
        reply = client.act(sid, "shell", "command", {"command": f"{command}; echo rc=$?"})
        made = "rc=0" in reply["observation"]
        cases.add(f"shell: {command}", "no nested user namespace", "created" if made else "refused", not made)
    client.delete(sid)


def _router(server, client, cases: Cases) -> None:
    port = server.port
    auth = f"Authorization: Bearer {server.token}\r\n".encode()
    status, sent, took = _stream(port, b"GET /tasks?q=", b"a", 64 * MB)
    cases.add("router: 64 MB URL", "414 at 8 KB", f"{status} after {sent / 1024:.0f} KB sent", status == 414, took)
    status, sent, took = _stream(port, b"GET /health HTTP/1.1\r\nHost: x\r\n", b"X-H: vvvvvvvvvvvvvvvvvvvv\r\n", 64 * MB)
    cases.add("router: 64 MB of headers", "431 at 16 KB", f"{status} after {sent / 1024:.0f} KB sent", status == 431, took)
    head = b"POST /sessions HTTP/1.1\r\nHost: x\r\n" + auth + b"Content-Length: %d\r\n\r\n" % (1 << 30)
    status, sent, took = _stream(port, head, b"{", 0)
    cases.add("router: Content-Length 1 GB", "413 before the body", f"{status}", status == 413, took)
    status, sent, took = _stream(port, b"POST /sessions HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % (64 * MB),
                                 b"x", 64 * MB)
    cases.add("router: 64 MB body without the token", "401 before the body", f"{status} after {sent / MB:.1f} MB sent",
              status == 401 and sent < 8 * MB, took)

    # slowloris: 1,100 connections, each a byte at a time into its head
    before = tree_rss_mb(server.proc.pid)
    slow = []
    for _ in range(1100):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
            slow.append(s)
        except OSError:
            break
    t0 = time.perf_counter()
    refused_for = None
    while time.perf_counter() - t0 < HEAD_TIMEOUT_S * 4:
        for s in slow[:50]:
            try:
                s.send(b"X")
            except OSError:
                pass
        try:
            r = httpx.get(f"{server.url}/health", timeout=5)
            if r.status_code == 200:
                refused_for = time.perf_counter() - t0
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    closed = 0
    for s in slow:
        s.setblocking(False)
        try:
            closed += s.recv(4096).startswith(b"HTTP/1.1 408") or 0
        except OSError:
            pass
        s.close()
    cases.add("router: 1,100 slowloris connections", f"closed at {HEAD_TIMEOUT_S:g} s (408)",
              f"another client refused for {refused_for:.1f} s; {closed} answered 408; router+servers "
              f"{before:.0f} -> {tree_rss_mb(server.proc.pid):.0f} MiB" if refused_for is not None else "never served",
              refused_for is not None and refused_for <= HEAD_TIMEOUT_S + 3, refused_for)

    # session URLs, encoded and absolute
    sids = {}
    while len(sids) < 2:
        sid = client.create_session(TASK_IDS[0], mode="all_operations")["session_id"]
        sids.setdefault(sid[:2], sid)
    wrong = 0
    total = 0
    t0 = time.perf_counter()
    for sid in sids.values():
        targets = ["/sessions/" + "".join(f"%{ord(c):02x}" for c in sid), f"http://127.0.0.1:{port}/sessions/{sid}",
                   f"/sessions/{sid[:2]}%{ord(sid[2]):02X}{sid[3:]}"]
        for target in targets * 34:
            with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
                s.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\n".encode() + auth + b"Connection: close\r\n\r\n")
                answer = _read_all(s)
            total += 1
            wrong += _status(answer) != 200
    cases.add("router: session URLs percent-encoded / absolute-form", "all reach their process",
              f"{wrong} of {total} misrouted", wrong == 0, time.perf_counter() - t0)
    for sid in sids.values():
        client.delete(sid)
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /health HTTP/1.1\r\n\r\nmore")
        answer = _read_all(s)
    cases.add("router: Connection: close, then more bytes", "answered, then closed", f"{_status(answer)}",
              _status(answer) == 200)


def _mcp(server, cases: Cases) -> None:
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "b", "version": "0"}}}
    headers = {"Authorization": f"Bearer {server.token}", "Accept": "application/json, text/event-stream"}
    process0 = next(p for p in psutil.Process(server.proc.pid).children()
                    if "--process-index" in p.cmdline() and p.cmdline()[p.cmdline().index("--process-index") + 1] == "0")
    before = process0.memory_info().rss / MB
    counts = {200: 0, 503: 0}
    opened = []
    t0 = time.perf_counter()
    with httpx.Client(timeout=30) as http:
        for _ in range(300):
            r = http.post(f"{server.url}/mcp", json=init, headers=headers)
            counts[r.status_code] = counts.get(r.status_code, 0) + 1
            if r.status_code == 200:
                opened.append(r.headers["mcp-session-id"])
        after = process0.memory_info().rss / MB
        for sid in opened:
            http.delete(f"{server.url}/mcp", headers={**headers, "mcp-session-id": sid})
    cases.add("MCP: 300 bare initialize", f"at most --max-sessions ({MAX_SESSIONS})",
              f"{counts.get(200, 0)} accepted, {counts.get(503, 0)} refused (503); process 0 {before:.0f} -> {after:.0f} MB",
              counts.get(200, 0) <= MAX_SESSIONS, time.perf_counter() - t0)

    import anyio
    from _mcp_play import Notes, http_client

    async def starts() -> list:
        async with http_client(server, Notes()) as c:
            results = []

            async def one():
                results.append(await c.call_tool("start_task", {"task_id": TASK_IDS[0]}))

            async with anyio.create_task_group() as group:
                for _ in range(5):
                    group.start_soon(one)
            await c.call_tool("system_finish_task", {})
            return results

    started = sum(1 for r in anyio.run(starts) if not r.is_error)
    cases.add("MCP: 5 concurrent start_task on one connection", "one session", f"{started} started", started == 1)

    env = {"OFFICESIM_TOKEN": server.token, "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    proc = subprocess.Popen([sys.executable, "-m", "officesim.runner.cli", "mcp", "--server", server.url],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    try:
        proc.stdin.write(b"garbage\n[1]\n" + b'{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":"' + b"y" * (5 * MB)
                         + b'"}}\n' + json.dumps(init).encode() + b"\n")
        proc.stdin.flush()
        answers = []
        for _ in range(4):
            if not select.select([proc.stdout], [], [], 60)[0]:
                break
            answers.append(json.loads(proc.stdout.readline()))
    finally:
        proc.stdin.close()
        proc.terminate()
        proc.wait(30)
    codes = [a.get("error", {}).get("code") for a in answers[:3]]
    held = codes == [-32700, -32600, -32600] and len(answers) == 4 and "result" in answers[3]
    cases.add("MCP stdio relay: garbage, a batch, a 5 MB line, then initialize", "errors, then goes on",
              f"{codes} then {'initialized' if len(answers) == 4 and 'result' in answers[3] else 'nothing'}", held)


def _names(client, cases: Cases) -> None:
    from officesim.apps import apps_for

    sid = client.create_session(TASK_IDS[0], mode="all_operations", max_steps=1000)["session_id"]
    long = "n" * 300
    tried, internal = 0, 0
    for app_name, app in apps_for("officebench").items():
        if app_name in ("shell", "llm"):
            continue
        for op in app.operations.values():
            names = [p.name for p in op.params if "path" in p.name or p.name in ("user", "username")]
            for name in names:
                args = {p.name: 1 if "idx" in p.name else "x" for p in op.params if p.default is p.empty}
                args[name] = long if "user" in name else f"data/{long}.docx"
                reply = client.act(sid, app_name, op.name, args)
                tried += 1
                internal += (reply.get("error") or {}).get("code") == "internal_error"
    client.delete(sid)
    cases.add("over-long file and user names", "bad_arguments", f"{internal} internal_error of {tried} calls",
              internal == 0 and tried > 0)


def _crash(server, client, cases: Cases, sessions_root: Path) -> None:
    sids = {}
    while len(sids) < 2:
        sid = client.create_session(TASK_IDS[0], mode="all_operations")["session_id"]
        sids.setdefault(sid[:2], sid)
    its_offices = [p for p in (sessions_root / "process-1").iterdir() if p.name != "_gold"]
    victim = next(p for p in psutil.Process(server.proc.pid).children()
                  if "--process-index" in p.cmdline() and p.cmdline()[p.cmdline().index("--process-index") + 1] == "1")
    victim.kill()
    victim.wait(10)
    t0 = time.perf_counter()
    failed, made, lost, other = 0, [], 0, 0
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {server.token}"}, timeout=30) as http:
        while time.perf_counter() - t0 < 10:
            r = http.post("/sessions", json={"task_id": TASK_IDS[0]})
            if r.status_code == 201:
                made.append(r.json()["session_id"])
            else:
                failed += 1
            g = http.get(f"/sessions/{sids['01']}")
            code = g.json().get("error", {}).get("code") if g.status_code != 200 else "ok"
            lost += code == "session_lost"
            other += code not in ("session_lost", "unknown_session")
            time.sleep(0.2)
        for sid in made:
            http.delete(f"/sessions/{sid}")
    left = [p for p in its_offices if p.exists()]
    ok_other = client.act(sids["00"], "system", "list_files", {})["ok"]
    cases.add("kill -9 of one server process", "costs its own sessions only",
              f"{failed} of {failed + len(made)} creations failed; dead session: {lost} session_lost, {other} other; "
              f"other process's session {'goes on' if ok_other else 'broken'}; {len(left)} of its {len(its_offices)} "
              f"offices left", failed == 0 and other == 0 and ok_other and not left and its_offices,
              time.perf_counter() - t0)


if __name__ == "__main__":
    sys.exit(1 if run()["failures"] else 0)
