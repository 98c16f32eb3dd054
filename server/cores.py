"""How many cores this process may use: the default count of server processes and of kept workers.

Apart from server/pool.py so the router process (runner/serving.py) can ask without loading the apps."""

from __future__ import annotations

import os


def usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)
