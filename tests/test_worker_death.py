"""A worker that dies in the middle of a request is reported by what is known: the signal (or exit
code), that the server did not stop it, and the memory limit in force, never a guessed cause such as
"out of memory" for any SIGKILL. (A breach of the memory limit the server sets is reported by the
worker itself and answered as such: tests/test_hostile.py::test_memory_limit_stops_the_worker.)"""

from __future__ import annotations

import os
import shutil
import signal
import threading
import time
from datetime import datetime

import psutil
import pytest

from officesim.apps import APPS, OfficeContext
from officesim.server.pool import PoolSettings, WorkerPool
from officesim.testbed.office import Office

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")


@pytest.fixture
def ctx(tmp_path) -> OfficeContext:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "a.txt").write_text("hello")
    return OfficeContext(office=Office(tmp_path), user="maya.lin@northwind.test", now=datetime(2026, 3, 10, 9, 0))


def kill_mid_request(pool: WorkerPool, ctx: OfficeContext, sig: int):
    """Start a command that sleeps in the pool's one worker, send the worker ``sig`` once the command
    runs, and return the request's reply."""
    replies = []
    thread = threading.Thread(target=lambda: replies.append(pool.run_operation(
        APPS["shell"].operations["command"], ctx, {"command": "sleep 120"})))
    thread.start()
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "the command never started in the worker"
        pids = pool.pids()
        if pids and any(p.name() == "sleep" for p in psutil.Process(pids[0]).children(recursive=True)):
            break
        time.sleep(0.05)
    os.kill(pids[0], sig)
    thread.join(timeout=120)
    assert replies, "the request did not come back after its worker died"
    return replies[0]


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGSEGV, signal.SIGUSR1])
def test_the_message_names_the_signal_and_the_limit_not_a_cause(ctx, sig):
    pool = WorkerPool(PoolSettings(workers=1, max_workers=1, memory_mb=700,
                                   time_limits={"shell.command": 300})).start()
    try:
        reply = kill_mid_request(pool, ctx, sig)
        assert not reply.ok and reply.error["code"] == "resource_limit"
        name = signal.Signals(sig).name
        assert f"killed by {name} (not by the server; its memory limit is 700 MB)" in reply.observation, \
            reply.observation
        assert "out of memory" not in reply.observation and "by the system" not in reply.observation
        assert pool.replaced == 1
        assert pool.run_operation(APPS["system"].operations["list_files"], ctx, {}).ok  # a new worker took over
    finally:
        pool.close()


def test_without_a_memory_limit_none_is_named(ctx):
    pool = WorkerPool(PoolSettings(workers=1, max_workers=1, memory_mb=0, time_limits={"shell.command": 300})).start()
    try:
        reply = kill_mid_request(pool, ctx, signal.SIGKILL)
        assert "killed by SIGKILL (not by the server)" in reply.observation, reply.observation
        assert "memory" not in reply.observation
    finally:
        pool.close()
