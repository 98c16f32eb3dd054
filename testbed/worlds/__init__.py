"""Lived-in offices ("worlds"): a company's office generated over months, shared by many hard tasks.

``world(name)`` gives the records a task computes its gold from; ``world_folder(name)`` the office
built from them (cached, built once per machine and code version). A task names its world with
``world: <name>``; its office is the world's folder, then the task's own builders on top.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from pathlib import Path

from officesim.testbed.worlds.model import World

# name -> (company, domain, now, people)
WORLDS: dict[str, tuple[str, str, datetime, int]] = {
    "harbourline": ("Harbourline Supplies", "harbourline.test", datetime(2026, 11, 16, 9, 0), 84),
    "fernhill": ("Fernhill Outfitters", "fernhill.test", datetime(2026, 10, 19, 9, 0), 62),
    "stonegate": ("Stonegate Office Group", "stonegate.test", datetime(2026, 12, 7, 9, 0), 118),
}


@lru_cache(maxsize=None)
def world(name: str) -> World:
    """The world's records (generated once per process)."""
    if name not in WORLDS:
        raise KeyError(f"unknown world {name!r}; worlds are {sorted(WORLDS)}")
    from officesim.testbed.worlds.generate import generate

    company, domain, now, size = WORLDS[name]
    return generate(name, company=company, domain=domain, now=now, size=size)


def world_folder(name: str, cache: Path) -> Path:
    """The world's built office, a folder in ``cache`` (the template cache), built now if missing."""
    from officesim.testbed.worlds.build import built_world

    return built_world(name, cache)
