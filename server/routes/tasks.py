"""``/tasks``: what an agent may know about the tasks (never the gold solution or the checks)."""

from __future__ import annotations

from fastapi import APIRouter, Query

from officesim.server.models import TaskInfo
from officesim.server.routes.common import ERRORS, ApiError, Manager

router = APIRouter(tags=["tasks"])


@router.get("/tasks", response_model=list[TaskInfo], responses=ERRORS)
async def list_tasks(manager: Manager, category: int | None = Query(None), app: str | None = Query(None),
                     split: str | None = Query(None)) -> list[dict]:
    out = []
    for task in manager.tasks.values():
        if category is not None and task.category != category:
            continue
        if app is not None and app not in task.apps:
            continue
        if split is not None and task.split != split:
            continue
        out.append(task.public())
    return out


@router.get("/tasks/{task_id}", response_model=TaskInfo, responses=ERRORS)
async def get_task(task_id: str, manager: Manager) -> dict:
    task = manager.tasks.get(task_id)
    if task is None:
        raise ApiError(404, "unknown_task", f"no task '{task_id}'")
    return task.public()
