"""The mutants of any task, by its tool set (runner/mutants/): the one entry point the validator calls."""

from __future__ import annotations

from officesim.runner.mutants import Mutant, derive

__all__ = ["Mutant", "derive"]
