"""Shared fixtures: a fresh empty office and an operation context on it."""

from __future__ import annotations

from datetime import datetime

import pytest

from officesim.apps import APPS, OfficeContext
from officesim.testbed.office import Office


@pytest.fixture
def office(tmp_path) -> Office:
    root = tmp_path / "office"
    (root / "data").mkdir(parents=True)
    return Office(root)


@pytest.fixture
def ctx(office) -> OfficeContext:
    return OfficeContext(office=office, user="maya.lin@northwind.test", now=datetime(2026, 3, 10, 9, 0))


@pytest.fixture
def run(ctx):
    """run(app, action, **args) -> ActionResult, through the registry (validation included)."""

    def _run(app: str, action: str, **args):
        return APPS[app].operations[action].invoke(ctx, args)

    return _run
