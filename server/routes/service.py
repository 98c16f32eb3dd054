"""``/health`` (the one route open without a token) and ``/apps``."""

from __future__ import annotations

from functools import lru_cache

from fastapi import APIRouter

from officesim import apps
from officesim.apps.registry import DEFAULT_TOOLSET, TOOLSETS
from officesim.server.models import AppInfo, Health
from officesim.server.routes.common import ERRORS, VERSION, ApiError

router = APIRouter(tags=["service"])


@lru_cache(maxsize=None)
def _apps_listing(toolset: str) -> list[dict]:
    # the apps (and their file libraries) are imported on the first listing, not with the server
    return [app.describe() for app in apps.TOOLSET_APPS[toolset].values()]


@router.get("/health", response_model=Health)
async def health() -> dict:
    return {"status": "ok", "version": VERSION}


@router.get("/apps", response_model=list[AppInfo], responses=ERRORS)
async def list_apps(toolset: str = DEFAULT_TOOLSET) -> list[dict]:
    """The apps of a tool set (``officebench`` by default; ``workbench`` for WorkBench's tasks) with
    their operations and argument schemas."""
    if toolset not in TOOLSETS:
        raise ApiError(404, "unknown_toolset", f"no tool set '{toolset}'; tool sets are: {', '.join(TOOLSETS)}")
    return _apps_listing(toolset)
