"""Where the officesim sessions of an Inspect run live: a given server, or one private server per
process, started on first use and stopped when the process ends (runner/localserver.py)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from officesim.runner.localserver import LocalServer
from officesim.server.client import OfficeClient

_private: dict[tuple, LocalServer] = {}
_lock = threading.Lock()


def office_client(server: str | None, task_dirs: list[str] | None = None, include_suite: bool = True) -> OfficeClient:
    """A client of ``server`` (token from OFFICESIM_TOKEN), or of this process's private server
    loading ``task_dirs`` (and the built-in suite); blocking: call it from a thread."""
    if server:
        return OfficeClient(server.rstrip("/"), token=os.environ.get("OFFICESIM_TOKEN") or None, timeout=600)
    key = (tuple(task_dirs or ()), include_suite)
    with _lock:
        live = _private.get(key)
        if live is None or not live.running:
            live = _private[key] = LocalServer([Path(d) for d in task_dirs or []], include_suite=include_suite)
            live.start()
            live.wait_healthy()
    return OfficeClient(live.url, token=live.token, timeout=600)
