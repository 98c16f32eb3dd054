"""The project's build backend: setuptools' own, less one notice (pyproject.toml names it).

``pip install -e .`` installs the top-level folders as ``officesim.<folder>`` (docs/layout.md), which
setuptools does with an import hook; for that it always prints an "Editable installation" notice (a
warning of its class InformationOnly, some ten lines) that folders named like the package in the
working directory could shadow it. The project has no such folder, so the notice is left out here;
every other message, warnings included, is setuptools' unchanged.
"""

from __future__ import annotations

import warnings

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403  (every hook, as setuptools has it)
from setuptools.warnings import InformationOnly


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Editable installation", category=InformationOnly)
        return _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
