"""``/sessions``: start a session on a task, act, finish, read it, delete it.

The routes that act are async and hand their work to a request thread themselves: one thread hop per
request (a lookup may run due expiries, which evaluate and remove offices), and the body is returned
as built (its shape is the declared response_model, which stays for the OpenAPI schema) instead of
being validated again.
"""

from __future__ import annotations

from typing import Annotated, Callable, Literal

from fastapi import APIRouter, Body, Query

from officesim.server.manager import CapacityError
from officesim.server.models import (
    ActionRequest, ActionResponse, CreateSession, Deleted, FinishRequest, SessionCreated, SessionInfo,
)
from officesim.server.routes.common import ERRORS, ApiError, FastJSON, Manager, in_thread, session_or_404
from officesim.server.session import Session, SessionEnded, StepResult

router = APIRouter(tags=["sessions"])


# ``?include=tools``: the tools and prompts in this response even when they did not change
Include = Annotated[Literal["tools"] | None, Query(
    description="'tools': add tools, prompt and tool_prompt to the response (else they come only when they "
                "change; compare tools_version)")]


# ``?include=data`` on an action: the operation's result as data (a listing's rows, a sheet's cells, a
# command's exit code) beside the observation, which says the same in text; else data is null
ActionInclude = Annotated[Literal["tools", "data", "tools,data", "data,tools"] | None, Query(
    description="'tools': add tools, prompt and tool_prompt to the response (else they come only when they "
                "change; compare tools_version); 'data': the operation's result as data too (else null: the "
                "observation says it); both: 'tools,data'")]


def _run_step(session: Session, fn: Callable[[], StepResult], include: bool = False, data: bool = False) -> dict:
    """One step as the action response: the step's result (its data only when asked), the
    ``tools_version`` of the state it left, and that state's tools and prompts when they changed (or
    when asked)."""
    try:
        result = fn()
    except SessionEnded as exc:
        raise ApiError(409, "session_ended", str(exc)) from None
    out = result.to_dict(data=data)
    out.update(session.parts_after(result, include))
    return out


@router.post("/sessions", status_code=201, response_model=SessionCreated, responses=ERRORS)
async def create_session(body: CreateSession, manager: Manager):
    def work() -> dict:
        task = manager.tasks.get(body.task_id)
        if task is None:
            raise ApiError(404, "unknown_task", f"no task '{body.task_id}'")
        try:
            session = manager.create(task, body.mode, body.max_steps or task.step_budget)
        except CapacityError as exc:
            raise ApiError(429, "too_many_sessions", str(exc)) from None
        return {
            "session_id": session.id, "task": task.public(), "mode": session.mode,
            "max_steps": session.max_steps, "status": session.status,
            "current_app": session.current_app, "step": session.step_count,
            **session.state_parts(),
        }

    return FastJSON(await in_thread(work), status_code=201)


@router.post("/sessions/{session_id}/actions", response_model=ActionResponse, responses=ERRORS)
async def act(session_id: str, body: ActionRequest, manager: Manager, include: ActionInclude = None):
    """Run one action. ``tools``, ``prompt`` and ``tool_prompt`` come only when the action changed them
    (a switch of app) or with ``?include=tools``; ``tools_version`` comes always; ``data`` is null
    unless ``?include=data`` asks for it (the observation says the same in text)."""
    asked = set((include or "").split(","))

    def work() -> dict:
        session = session_or_404(manager, session_id)
        return _run_step(session, lambda: session.step(body.app, body.action, body.arguments()), "tools" in asked,
                         data="data" in asked)

    return FastJSON(await in_thread(work))


@router.post("/sessions/{session_id}/finish", response_model=ActionResponse, responses=ERRORS)
async def finish(session_id: str, manager: Manager, body: FinishRequest | None = Body(None)):
    """End the session (as finish_task); the response carries the evaluation, never the tools."""
    answer = body.answer if body is not None else None

    def work() -> dict:
        session = session_or_404(manager, session_id)
        return _run_step(session, lambda: session.finish(answer))

    return FastJSON(await in_thread(work))


@router.get("/sessions/{session_id}", response_model=SessionInfo, responses=ERRORS)
async def get_session(session_id: str, manager: Manager, include: Include = None):
    """The session and its history; with ``?include=tools`` the tools and prompts of where it is now
    (a client that lost track of them asks here without acting)."""
    def work() -> dict:
        session = session_or_404(manager, session_id)
        if session.lock.acquire(blocking=False):
            try:
                out = session.snapshot()
                out.update(session.state_parts() if include == "tools" else
                           {"tools_version": session.tools_version()})
            finally:
                session.lock.release()
        else:  # an action is running: answer at once with the session as of its last completed step
            out = _snapshot_while_busy(session)
        out["office_available"] = manager.has_office(session.id)
        return out

    return FastJSON(await in_thread(work))


def _snapshot_while_busy(session: Session) -> dict:
    """``Session.snapshot`` without waiting for the session's lock, which a running action holds (a
    program or a slow operation may hold it for tens of seconds): the history first, the step it
    has reached counted from it, so the two agree."""
    history = list(session.history)
    return {
        "session_id": session.id, "task_id": session.task.id, "mode": session.mode,
        "status": session.status, "current_app": session.current_app, "step": len(history),
        "max_steps": session.max_steps, "done": session.done, "answer": session.answer,
        "history": history, "evaluation": None if session.evaluation is None else session.evaluation.api_dict(),
    }


@router.delete("/sessions/{session_id}", response_model=Deleted, responses=ERRORS)
def delete_session(session_id: str, manager: Manager) -> dict:
    try:
        manager.delete(session_id)
    except KeyError:
        raise ApiError(404, "unknown_session", f"no session '{session_id}'") from None
    return {"session_id": session_id, "deleted": True}
