"""Deterministic, balanced shards: every task in exactly one shard for any N.

Tasks are ordered by (category, id) and dealt round-robin, so each shard gets the same number of
tasks (±1) and a similar mix of one-, two- and three-app tasks. Shard indices are 0-based, as
Kubernetes' ``JOB_COMPLETION_INDEX`` is.
"""

from __future__ import annotations

import os
from typing import Sequence

from officesim.tasks.model import Task


def parse_shard(text: str) -> tuple[int, int]:
    """'I/N' -> (I, N) with 0 <= I < N."""
    try:
        index_text, total_text = text.split("/")
        index, total = int(index_text), int(total_text)
    except ValueError:
        raise ValueError(f"shard must look like I/N (e.g. 0/4), got '{text}'") from None
    if total < 1 or not 0 <= index < total:
        raise ValueError(f"shard {text}: need 0 <= I < N (indices are 0-based)")
    return index, total


def shard_from_env(env: dict | None = None) -> tuple[int, int] | None:
    """OFFICESIM_SHARD=I/N, or JOB_COMPLETION_INDEX (Kubernetes Indexed Job) with OFFICESIM_SHARD_TOTAL."""
    env = os.environ if env is None else env
    if env.get("OFFICESIM_SHARD"):
        return parse_shard(env["OFFICESIM_SHARD"])
    if env.get("JOB_COMPLETION_INDEX") is not None and env.get("JOB_COMPLETION_INDEX") != "":
        total = env.get("OFFICESIM_SHARD_TOTAL")
        if not total:
            raise ValueError("JOB_COMPLETION_INDEX is set but OFFICESIM_SHARD_TOTAL (the number of shards) is not")
        return parse_shard(f"{env['JOB_COMPLETION_INDEX']}/{total}")
    return None


def select_shard(tasks: Sequence[Task], index: int, total: int) -> list[Task]:
    ordered = sorted(tasks, key=lambda t: (t.category, t.id))
    return [t for i, t in enumerate(ordered) if i % total == index]
