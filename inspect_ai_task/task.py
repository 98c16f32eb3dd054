"""The ``office`` task: officesim tasks as Inspect samples (filters: ids, category, tasks dir)."""

from __future__ import annotations

from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample

from officesim.inspect.scorer import office_scorer
from officesim.inspect.solver import office_agent
from officesim.tasks.loader import load_tasks


def _ids(value: str | list[str] | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return [str(v) for v in value]


def office_dataset(ids: str | list[str] | None = None, category: int | None = None,
                   tasks_dir: str | list[str] | None = None, include_suite: bool = True,
                   split: str | None = None) -> MemoryDataset:
    """One sample per selected task (id, instruction, category, apps); unknown ids are an error. As with
    ``officesim eval``, the hard split is in when asked for (``split="hard"``) or named by id."""
    dirs = [tasks_dir] if isinstance(tasks_dir, str) else list(tasks_dir or [])
    tasks = load_tasks([Path(d) for d in dirs], include_suite=include_suite)
    wanted = _ids(ids)
    missing = [i for i in wanted if i not in tasks]
    if missing:
        raise ValueError(f"no task {', '.join(repr(m) for m in missing)} (see `officesim tasks list`)")
    chosen = [tasks[i] for i in (wanted or sorted(tasks))]
    if split is not None:
        chosen = [t for t in chosen if t.split == split]
    elif not wanted:
        chosen = [t for t in chosen if t.split != "hard"]
    if category is not None:
        chosen = [t for t in chosen if t.category == int(category)]
    if not chosen:
        raise ValueError("no task matches the filters")
    return MemoryDataset([Sample(input=t.brief, id=t.id,
                                 metadata={"task_id": t.id, "category": t.category, "apps": list(t.apps)})
                          for t in chosen], name="officesim")


@task
def office(ids: str | list[str] | None = None, category: int | None = None, tasks_dir: str | list[str] | None = None,
           include_suite: bool = True, server: str | None = None, mode: str | None = None,
           max_steps: int | None = None, split: str | None = None) -> Task:
    """officesim tasks played through a session's tools and graded by officesim.

    Args:
        ids: task ids (a list, or text separated by commas); default every task.
        category: only tasks of this category (1, 2 or 3).
        tasks_dir: task directories beside the built-in suite.
        include_suite: whether the built-in suite is included.
        server: URL of a running officesim server (token from OFFICESIM_TOKEN); default: a private one.
        mode: switch_app (default) or all_operations.
        max_steps: the session's step limit; default: each task's own (50, more for long tasks).
        split: only tasks of this split ("hard": long tasks in lived-in offices); default every split but hard.
    """
    return Task(dataset=office_dataset(ids, category, tasks_dir, include_suite, split),
                solver=office_agent(server=server, tasks_dir=tasks_dir, include_suite=include_suite,
                                    mode=mode, max_steps=max_steps),
                scorer=office_scorer())
