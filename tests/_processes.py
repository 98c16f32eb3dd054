"""Processes a test started, and whether they are gone: for the tests of servers that must stop."""

from __future__ import annotations

import time

import psutil


def descendants(pid: int) -> list[int]:
    try:
        return [p.pid for p in psutil.Process(pid).children(recursive=True)]
    except psutil.Error:
        return []


def alive(pids: list[int]) -> list[str]:
    """The command lines of those still running (zombies count as gone)."""
    out = []
    for pid in pids:
        try:
            proc = psutil.Process(pid)
            if proc.status() != psutil.STATUS_ZOMBIE:
                out.append(" ".join(proc.cmdline())[:120])
        except psutil.Error:
            pass
    return out


def gone(pids: list[int], within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not alive(pids):
            return True
        time.sleep(0.1)
    return False
