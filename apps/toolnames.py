"""Tool names to (app, operation): the one resolver for the server, MCP, the openai agent and Inspect.

A tool is named ``<app>_<operation>`` (``excel_set_cell``); code mode's functions and OfficeBench's
listings write ``<app>.<operation>`` (``excel.set_cell``). App names may hold underscores (WorkBench's
``customer_relationship_manager_search_customers``), so a name is never split at its first ``_``: it
is looked up among the names its tool set offers. Everything above the apps imports this one module.
"""

from __future__ import annotations

from functools import lru_cache

from officesim.apps import apps_for
from officesim.apps.registry import DEFAULT_TOOLSET, TOOLSETS


@lru_cache(maxsize=None)
def _names(toolset: str) -> dict[str, tuple[str, str]]:
    """Every name an operation of the tool set goes by, in both spellings."""
    out: dict[str, tuple[str, str]] = {}
    for app_name, app in apps_for(toolset).items():
        for op in app.operations.values():
            out[op.tool_name] = out[f"{app_name}.{op.name}"] = (app_name, op.name)
    return out


def resolve_tool_name(name: object, toolset: str = DEFAULT_TOOLSET) -> tuple[str, str] | None:
    """``excel_set_cell`` or ``excel.set_cell`` -> ("excel", "set_cell"); None when no operation of the
    tool set has that name (an unknown tool set raises OpError, as ``apps_for`` does)."""
    return _names(toolset).get(name) if isinstance(name, str) else None


def split_tool_name(name: str, toolset: str = DEFAULT_TOOLSET) -> tuple[str | None, str]:
    """Like ``resolve_tool_name``, but always a pair to send to a session: a name no operation has
    keeps the app it begins with, if any (the session then answers ``unknown_action`` of that app),
    else it is all app (``unknown_app`` naming the tool), so the error says what is wrong. A tool set
    this installation does not know (a newer server's) gives (None, name): the server resolves it."""
    if toolset not in TOOLSETS:
        return None, name
    found = resolve_tool_name(name, toolset)
    if found is not None:
        return found
    name = name if isinstance(name, str) else ""
    for app in sorted(apps_for(toolset), key=len, reverse=True):
        for sep in ("_", "."):
            if name.startswith(app + sep):
                return app, name[len(app) + 1:]
    return name, ""
