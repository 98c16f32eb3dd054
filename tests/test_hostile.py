"""The hostile-input battery: no file and no command can hold the server.

One private server (a real ``officesim serve`` subprocess with its worker pool) serves a task whose
office holds decompression bombs (docx, xlsx, zip, and a docx bomb attached to a mail), a cyclic and
a huge PDF, a million-row sheet, a huge image and deeply nested XML (tests/_hostile.py makes them).
Each hostile action must answer with a clear error within the budget, the server's memory must stay
bounded, and a second session must be answered all along. Then: links out of the office, the disk
quota, a memory-hungry and a forking shell command, grading an office full of bombs, and the
worker pool's own time and memory limits.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime
from pathlib import Path

import psutil
import pytest

from _hostile import HOSTILE_ACTIONS, USER, hostile_task
from officesim.apps import APPS, OfficeContext
from officesim.runner.localserver import LocalServer
from officesim.server.client import OfficeClient
from officesim.server.pool import PoolSettings, WorkerPool
from officesim.testbed.office import Office

TASK = "hostile-office-001"
BUDGET_S = 30.0  # the default time limit of an operation: every answer comes within it
QUOTA_MB = 64
SERVER_MEMORY_LIMIT = 1 << 30  # the whole server (main process and workers) stays under 1 GiB


@pytest.fixture(scope="module")
def tasks(tmp_path_factory) -> Path:
    return hostile_task(tmp_path_factory.mktemp("hostile"))


@pytest.fixture(scope="module")
def server(tasks):
    env = {"OFFICESIM_OFFICE_QUOTA_MB": str(QUOTA_MB), "OFFICESIM_SHELL_MEMORY_MB": "256"}
    with LocalServer([tasks], env=env, include_suite=False) as srv, OfficeClient(srv.url, token=srv.token) as client:
        srv.client = client
        srv.peak = 0
        warm = client.create_session(TASK, mode="all_operations")["session_id"]  # the workers are up
        assert client.act(warm, "word", "read_file", {"file_path": "data/notes.docx"})["ok"]
        client.delete(warm)
        yield srv


def _tree_rss(pid: int) -> int:
    try:
        top = psutil.Process(pid)
        procs = [top, *top.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for p in procs:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


class Watch:
    """While a hostile action runs: the server's peak memory, and a second session's answer times."""

    def __init__(self, server):
        self.server = server
        self.stop = threading.Event()
        self.other = server.client.create_session(TASK, mode="all_operations", max_steps=10_000)["session_id"]
        self.latencies: list[float] = []
        self.failures: list[str] = []

    def _poll(self) -> None:
        while not self.stop.is_set():
            self.server.peak = max(self.server.peak, _tree_rss(self.server.proc.pid))
            time.sleep(0.05)

    def _other(self) -> None:
        i = 0
        while not self.stop.is_set():
            t0 = time.monotonic()
            reply = self.server.client.act(self.other, "system", "list_files", {"path": "data" if i % 2 else "."})
            self.latencies.append(time.monotonic() - t0)
            if not reply["ok"]:
                self.failures.append(reply["observation"])
            i += 1
            time.sleep(0.05)

    def __enter__(self) -> "Watch":
        self.threads = [threading.Thread(target=self._poll, daemon=True), threading.Thread(target=self._other, daemon=True)]
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(timeout=BUDGET_S)
        self.server.client.delete(self.other)
        assert not self.failures, self.failures[:3]
        # Not a speed target (make bench measures those): the other session must not wait for the hostile
        # operation to end, which would take up to its whole budget. Loaded CI machines get slack.
        assert self.latencies and max(self.latencies) < BUDGET_S / 2, f"the other session waited {max(self.latencies):.1f} s"
        assert self.server.peak < SERVER_MEMORY_LIMIT, f"server at {self.server.peak >> 20} MB"


def _act(server, sid, app, action, args) -> tuple[dict, float]:
    t0 = time.monotonic()
    reply = server.client.act(sid, app, action, args)
    return reply, time.monotonic() - t0




@pytest.mark.parametrize("app,action,args,says", HOSTILE_ACTIONS, ids=[f"{a}.{b}:{list(c.values())[0]}" for a, b, c, _ in HOSTILE_ACTIONS])
def test_hostile_file_is_answered_within_budget(server, app, action, args, says):
    sid = server.client.create_session(TASK, mode="all_operations", max_steps=100)["session_id"]
    try:
        with Watch(server):
            reply, took = _act(server, sid, app, action, args)
        assert took < BUDGET_S
        if says is None:
            assert reply["ok"], reply["observation"]
        else:
            assert not reply["ok"]
            assert reply["error"]["code"] in ("resource_limit", "corrupt_file"), reply["error"]
            assert says in reply["observation"], reply["observation"]
            assert "/tmp" not in reply["observation"] and str(server.port) not in reply["observation"]
        # the session goes on
        assert server.client.act(sid, "word", "read_file", {"file_path": "data/notes.docx"})["ok"]
    finally:
        server.client.delete(sid)


def test_grading_an_office_of_bombs_finishes_within_budget(server):
    sid = server.client.create_session(TASK, mode="all_operations", max_steps=100)["session_id"]
    try:
        with Watch(server):
            assert server.client.act(sid, "word", "write_to_file", {"file_path": "data/notes.docx", "contents": "Checked"})["ok"]
            t0 = time.monotonic()
            done = server.client.finish(sid)
            took = time.monotonic() - t0
        assert took < BUDGET_S
        evaluation = done["evaluation"]
        assert evaluation["passed"], evaluation
        assert evaluation["side_effects"] == []
    finally:
        server.client.delete(sid)


def test_links_out_of_the_office_are_listed_and_never_followed(server):
    sid = server.client.create_session(TASK, mode="all_operations", max_steps=100)["session_id"]
    try:
        made = server.client.act(sid, "shell", "command", {"command":
                                 f"ln -s /etc/passwd data/passwd.txt && ln -s / data/root && ln -s /etc/hostname emails/{USER}/msg-20.eml"
                                 " && ln -s notes.docx data/again.docx"})
        assert made["ok"] and "exit code 0" in made["observation"], made["observation"]
        listed = server.client.act(sid, "system", "list_files", {}, include_data=True)
        assert listed["ok"], listed["observation"]
        rows = {r["path"]: r for r in listed["data"]}
        assert rows["data/passwd.txt"]["link"] is None and rows["data/root"]["link"] is None
        assert rows["data/again.docx"]["link"] == "data/notes.docx"
        assert "outside the office" in listed["observation"] and "/tmp" not in listed["observation"]
        for app, action, args in [("word", "read_file", {"file_path": "data/passwd.txt"}),
                                  ("system", "list_files", {"path": "data/root"})]:
            reply = server.client.act(sid, app, action, args)
            assert not reply["ok"] and reply["error"]["code"] == "path_outside_office"
        mails = server.client.act(sid, "email", "list_emails", {"username": USER})
        assert mails["ok"] and "root:" not in mails["observation"]
        with pytest.raises(Exception) as refused:
            server.client.download(sid, "data/passwd.txt")
        assert "403" in str(refused.value) or "outside" in str(refused.value)
        with pytest.raises(Exception) as inside:  # a link inside the office is listed, never opened either
            server.client.download(sid, "data/again.docx")
        assert "404" in str(inside.value)
        again = server.client.act(sid, "word", "read_file", {"file_path": "data/again.docx"})
        assert not again["ok"] and again["error"]["code"] == "path_outside_office"
        files = [f["path"] for f in server.client.files(sid)]
        assert "data/passwd.txt" not in files
    finally:
        server.client.delete(sid)


def test_disk_quota_stops_a_shell_command_and_refuses_writes(server):
    sid = server.client.create_session(TASK, mode="all_operations", max_steps=100)["session_id"]
    try:
        t0 = time.monotonic()
        reply = server.client.act(sid, "shell", "command",
                                  {"command": "for i in $(seq 40); do head -c 8M /dev/zero > data/fill-$i.bin; done"})
        assert time.monotonic() - t0 < BUDGET_S
        assert not reply["ok"] and reply["error"]["code"] == "resource_limit", reply["observation"]
        assert f"disk quota of {QUOTA_MB} MB" in reply["observation"]
        again = server.client.act(sid, "word", "create_new_file", {"file_path": "data/more.docx"})
        assert not again["ok"] and again["error"]["code"] == "resource_limit" and "quota" in again["observation"]
        assert server.client.act(sid, "word", "read_file", {"file_path": "data/notes.docx"})["ok"]  # reading goes on
        cleaned = server.client.act(sid, "shell", "command", {"command": "rm -f data/fill-*.bin"})
        assert cleaned["ok"], cleaned["observation"]
        assert server.client.act(sid, "word", "create_new_file", {"file_path": "data/more.docx"})["ok"]
    finally:
        server.client.delete(sid)


def test_memory_hungry_shell_command_is_stopped(server):
    sid = server.client.create_session(TASK, mode="all_operations", max_steps=100)["session_id"]
    try:
        hog = "perl -e '$x = \"a\" x (120*1024*1024); sleep 8'"
        with Watch(server):
            reply, took = _act(server, sid, "shell", "command", {"command": f"for i in 1 2 3 4; do {hog} & done; wait"})
        assert took < 12
        assert not reply["ok"] and reply["error"]["code"] == "resource_limit", reply["observation"]
        assert "256 MB" in reply["observation"] and "memory" in reply["observation"]
    finally:
        server.client.delete(sid)


def test_forking_shell_command_hits_the_process_limit(server):
    sid = server.client.create_session(TASK, mode="all_operations", max_steps=100)["session_id"]
    try:
        with Watch(server):
            reply, took = _act(server, sid, "shell", "command",
                               {"command": "for i in $(seq 1000); do sleep 30 & done 2>&1 | tail -n 1; wait"})
        assert took < BUDGET_S
        assert "Resource temporarily unavailable" in reply["observation"] or "time limit" in reply["observation"]
        assert server.client.act(sid, "shell", "command", {"command": "echo alive"})["observation"].count("alive") == 2
    finally:
        server.client.delete(sid)


def test_streaming_download_of_a_large_file(server):
    sid = server.client.create_session(TASK, mode="all_operations", max_steps=100)["session_id"]
    try:
        assert server.client.act(sid, "shell", "command", {"command": "head -c 40M /dev/urandom > data/big.bin"})["ok"]
        before = psutil.Process(server.proc.pid).memory_info().rss
        data = server.client.download(sid, "data/big.bin")
        after = psutil.Process(server.proc.pid).memory_info().rss
        assert len(data) == 40 << 20
        assert after - before < 20 << 20, f"the download grew the server by {(after - before) >> 20} MB"
    finally:
        server.client.delete(sid)


# ---- the pool's own budgets ----------------------------------------------------------------------
@pytest.fixture
def ctx(tmp_path) -> OfficeContext:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "a.txt").write_text("hello")
    return OfficeContext(office=Office(tmp_path), user=USER, now=datetime(2026, 3, 10, 9))


def test_time_limit_stops_the_worker_and_the_next_operation_runs(ctx):
    pool = WorkerPool(PoolSettings(workers=1, max_workers=2, time_limits={"shell.command": 1.0})).start()
    try:
        t0 = time.monotonic()
        reply = pool.run_operation(APPS["shell"].operations["command"], ctx, {"command": "sleep 8"})
        assert time.monotonic() - t0 < 4
        assert reply.error["code"] == "resource_limit" and "time limit of 1 s" in reply.observation
        assert pool.replaced == 1
        listed = pool.run_operation(APPS["system"].operations["list_files"], ctx, {})
        assert listed.ok and "data/a.txt" in listed.observation
    finally:
        pool.close()


def test_memory_limit_stops_the_worker(ctx, tmp_path):
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for r in range(1, 20_001):
        sheet.append([f"text {r} " * 20, r, r * 2.5, f"more {r}"])
    book.save(tmp_path / "data" / "wide.xlsx")
    pool = WorkerPool(PoolSettings(workers=1, max_workers=2, memory_mb=60)).start()
    try:
        reply = pool.run_operation(APPS["excel"].operations["read_file"], ctx, {"file_path": "data/wide.xlsx"})
        assert not reply.ok and reply.error["code"] == "resource_limit", reply.observation
        assert "memory limit of 60 MB" in reply.observation
        assert pool.run_operation(APPS["system"].operations["list_files"], ctx, {}).ok
    finally:
        pool.close()


def test_parse_under_budget_marks_the_slow_file_and_parses_the_rest(ctx, tmp_path):
    from openpyxl import Workbook

    book = Workbook()
    for r in range(1, 60_001):
        book.active.append([r, r + 1, r + 2])
    book.save(tmp_path / "data" / "slow.xlsx")
    from officesim.testbed.parse import parse_office

    started = time.monotonic()
    parse_office(tmp_path, "UTC", only=["data/slow.xlsx"])  # what this machine, at this load, takes for it
    slow_s = time.monotonic() - started
    pool = WorkerPool(PoolSettings(workers=1, max_workers=2, time_limit=600)).start()
    try:
        pool.parse_office(tmp_path, "UTC", only=["data/a.txt"])  # the worker is up and has imported its readers
        pool.settings.time_limit = slow_s / 4  # the budget scales with the machine: a quarter of the slow file
        parsed = pool.parse_office(tmp_path, "UTC")
        assert parsed["data/a.txt"] == {"kind": "text", "text": "hello"}
        slow = parsed["data/slow.xlsx"]
        assert slow["kind"] == "corrupt" and slow["reason"] == "too_large" and "time limit" in slow["error"]
    finally:
        pool.close()


def test_only_long_kinds_of_work_grow_the_pool():
    """A worker held long by a read of office files does not start another (a queue of reads waits its
    turn); one held by a command, a program, OCR, an LLM call or a grading does."""
    import time as _time
    from types import SimpleNamespace

    from officesim.server.pool import LONG_S

    pool = WorkerPool(PoolSettings(workers=2, max_workers=8))
    started = _time.monotonic() - LONG_S * 4
    reads = [SimpleNamespace(busy_since=started, long_kind=False) for _ in range(2)]
    pool._all = reads  # two workers, both on a slow read
    assert pool._held_up() == 0
    pool._all = [SimpleNamespace(busy_since=started, long_kind=True), reads[0]]  # one on a sleeping command
    assert pool._held_up() == 1
    pool._all = [SimpleNamespace(busy_since=_time.monotonic(), long_kind=True), reads[0]]  # just begun
    assert pool._held_up() == 0
    shell = APPS["shell"].operations["command"]
    read = APPS["excel"].operations["read_file"]
    assert shell.time_limit is not None and read.time_limit is None  # what run_operation tells them by
