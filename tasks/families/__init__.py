"""Scenario families: seeded generators of tasks. Importing this package registers every family.

Each module in this package defines families with ``@family(...)``; the built-in suite is three
seeds of each family (``python -m officesim.tasks.build_suite``), and ``officesim tasks generate`` draws
further seeds into a train split whose ids never collide with the suite's.
"""

import importlib
import pkgutil

from officesim.tasks.families.registry import FAMILIES, Family, family  # noqa: F401

for _info in pkgutil.iter_modules(__path__):
    if not _info.name.startswith("_") and _info.name != "registry":
        importlib.import_module(f"{__name__}.{_info.name}")
