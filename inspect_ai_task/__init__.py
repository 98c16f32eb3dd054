"""officesim in Inspect AI (``pip install officesim[inspect]``): the ``office`` task over the
officesim tasks, the ``office_agent`` solver that gives a model the session's tools, and the
``office_scorer`` that reports officesim's evaluation.

Installed as ``officesim.inspect`` (the folder is named otherwise so that it never shadows the
standard library's ``inspect`` on a path that holds the repository root). Inspect finds the task
as ``officesim/office`` through the ``inspect_ai`` entry point (``_registry``).
"""

from officesim.inspect.scorer import office_scorer
from officesim.inspect.solver import office_agent
from officesim.inspect.task import office, office_dataset

__all__ = ["office", "office_agent", "office_dataset", "office_scorer"]
