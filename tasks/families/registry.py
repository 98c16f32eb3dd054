"""The family registry: a family is a function ``(rng) -> task dict`` plus its scenario metadata."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

FAMILIES: dict[str, "Family"] = {}


@dataclass
class Family:
    name: str  # also the scenario key of every task it makes
    category: int
    apps: list[str]
    build: Callable[[random.Random], dict]
    description: str

    def make(self, seed: int | str, task_id: str, split: str) -> dict:
        """One task from one seed: the builder's dict plus id, scenario, category, apps, split."""
        task = self.build(random.Random(f"{self.name}:{seed}"))
        head = {"id": task_id, "scenario": self.name, "category": self.category, "apps": list(self.apps), "split": split}
        return {**head, **{k: v for k, v in task.items() if k not in head}}


def family(name: str, apps: list[str]) -> Callable:
    """Register a scenario family; ``category`` is the number of apps."""

    def register(fn: Callable[[random.Random], dict]) -> Callable[[random.Random], dict]:
        if name in FAMILIES:
            raise ValueError(f"family '{name}' is defined twice")
        FAMILIES[name] = Family(name, len(apps), list(apps), fn, (fn.__doc__ or "").strip())
        return fn

    return register
