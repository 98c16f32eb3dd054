"""``/health`` (the one route open without a token) and ``/apps``."""

from __future__ import annotations

from functools import lru_cache

from fastapi import APIRouter

from officesim.apps import APPS
from officesim.server.models import AppInfo, Health
from officesim.server.routes.common import ERRORS, VERSION

router = APIRouter(tags=["service"])


@lru_cache(maxsize=1)
def _apps_listing() -> list[dict]:
    return [app.describe() for app in APPS.values()]


@router.get("/health", response_model=Health)
async def health() -> dict:
    return {"status": "ok", "version": VERSION}


@router.get("/apps", response_model=list[AppInfo], responses=ERRORS)
async def list_apps() -> list[dict]:
    return _apps_listing()
