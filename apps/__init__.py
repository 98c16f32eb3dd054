"""The office applications. ``APPS`` maps an app name to its ``App`` (see ``registry``); ``TOOLSET_APPS``
does the same for every tool set (``officebench``'s is ``APPS``)."""

from importlib import import_module

from officesim.apps.registry import (APP_NAMES, DEFAULT_MODE, DEFAULT_TOOLSET, MODES, OFFICE_APPS, SYSTEM_APP,
                                     TOOLSET_MODULES, TOOLSETS, App, ActionResult, OfficeContext, OpError, Result,
                                     resolve_operation)

# One module per app, named as the app: officesim.apps.excel defines ``app = App("excel", ...)``.
APPS: dict[str, App] = {name: import_module(f"officesim.apps.{name}").app for name in APP_NAMES}
TOOLSET_APPS: dict[str, dict[str, App]] = {
    toolset: APPS if toolset == DEFAULT_TOOLSET else {
        name: import_module(f"officesim.apps.{TOOLSET_MODULES.get((toolset, name), name)}").app for name in names}
    for toolset, names in TOOLSETS.items()
}


def apps_for(toolset: str = DEFAULT_TOOLSET) -> dict[str, App]:
    """The apps of a tool set, by name; raises OpError('unknown_app') for an unknown tool set."""
    if toolset not in TOOLSET_APPS:
        raise OpError("unknown_app", f"unknown tool set '{toolset}'; tool sets are: {', '.join(TOOLSET_APPS)}")
    return TOOLSET_APPS[toolset]


def find_operation(qualified_app: str, action: str):
    """The operation a worker runs: ``qualified_app`` is ``Operation.qualified_app`` (``toolset:app``
    outside the default tool set)."""
    toolset, _, app = qualified_app.rpartition(":")
    return apps_for(toolset or DEFAULT_TOOLSET)[app].operations[action]


__all__ = ["APPS", "APP_NAMES", "DEFAULT_MODE", "DEFAULT_TOOLSET", "MODES", "OFFICE_APPS", "SYSTEM_APP",
           "TOOLSETS", "TOOLSET_APPS", "App", "ActionResult", "OfficeContext", "OpError", "Result", "apps_for",
           "find_operation", "resolve_operation"]
