"""A worker whose own memory passes ``recycle_mb`` is replaced after its request (server/pool.py):
the server's memory stays bounded however many offices its workers' caches have seen."""

from __future__ import annotations

import os
from datetime import datetime

import pytest

from officesim.apps import APPS, OfficeContext
from officesim.server.pool import RECYCLE_CHECK_EVERY, PoolSettings, WorkerPool, private_bytes
from officesim.testbed.office import Office


@pytest.fixture
def ctx(tmp_path) -> OfficeContext:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "a.txt").write_text("hello")
    return OfficeContext(office=Office(tmp_path), user="maya.lin@northwind.test", now=datetime(2026, 3, 10, 9, 0))


def test_private_bytes_reads_this_process_and_not_a_missing_one():
    mine = private_bytes(os.getpid())
    assert mine > 1 << 20  # a Python process holds megabytes of its own
    assert private_bytes(2 ** 22 + 12345) == 0  # no such process: 0, not an error


def _list(pool: WorkerPool, ctx: OfficeContext) -> None:
    reply = pool.run_operation(APPS["system"].operations["list_files"], ctx, {})
    assert reply.ok, reply.observation


def test_a_worker_past_the_budget_is_replaced_and_the_pool_goes_on(ctx):
    pool = WorkerPool(PoolSettings(workers=1, max_workers=1, recycle_mb=1)).start()  # every worker is past 1 MiB
    try:
        first = set(pool.pids())
        for _ in range(RECYCLE_CHECK_EVERY - 1):
            _list(pool, ctx)
        assert pool.recycled == 0 and set(pool.pids()) == first  # memory is read every RECYCLE_CHECK_EVERY requests
        _list(pool, ctx)
        assert pool.recycled == 1
        _list(pool, ctx)  # a new worker answers
        assert pool.pids() and set(pool.pids()) != first
        assert pool.replaced == 0  # a recycling is not a breach
    finally:
        pool.close()


def test_a_worker_within_the_budget_is_kept(ctx):
    pool = WorkerPool(PoolSettings(workers=1, max_workers=1, recycle_mb=64 << 10)).start()  # 64 GiB
    try:
        first = set(pool.pids())
        for _ in range(2 * RECYCLE_CHECK_EVERY):
            _list(pool, ctx)
        assert pool.recycled == 0 and set(pool.pids()) == first
    finally:
        pool.close()
