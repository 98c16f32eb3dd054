"""The office applications. ``APPS`` maps an app name to its ``App`` (see ``registry``); ``TOOLSET_APPS``
does the same for every tool set (``officebench``'s is ``APPS``)."""

from importlib import import_module
from threading import RLock

from officesim.apps.registry import (APP_NAMES, DEFAULT_MODE, DEFAULT_TOOLSET, MODES, OFFICE_APPS, SYSTEM_APP,
                                     TOOLSET_MODULES, TOOLSETS, App, ActionResult, OfficeContext, OpError, Result,
                                     resolve_operation)

# One module per app, named as the app: officesim.apps.excel defines ``app = App("excel", ...)``. They are
# imported when ``APPS`` or ``TOOLSET_APPS`` is first used, not with the package: a command that needs only
# the registry's names (``MODES`` for the command line's choices) does not load every app's libraries.
_lock = RLock()  # an app that asks for APPS while the apps are imported gets them from the same thread


def _built() -> dict[str, dict[str, App]]:
    with _lock:
        if "TOOLSET_APPS" not in globals():
            import_module("officesim.testbed.guards")  # the file libraries' limits, before any app opens a file
            apps = {name: import_module(f"officesim.apps.{name}").app for name in APP_NAMES}
            globals()["TOOLSET_APPS"] = {
                toolset: apps if toolset == DEFAULT_TOOLSET else {
                    name: import_module(f"officesim.apps.{TOOLSET_MODULES.get((toolset, name), name)}").app
                    for name in names}
                for toolset, names in TOOLSETS.items()}
            globals()["APPS"] = apps
    return globals()["TOOLSET_APPS"]


def __getattr__(name: str):
    if name in ("APPS", "TOOLSET_APPS"):
        _built()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def apps_for(toolset: str = DEFAULT_TOOLSET) -> dict[str, App]:
    """The apps of a tool set, by name; raises OpError('unknown_app') for an unknown tool set."""
    toolsets = _built()
    if toolset not in toolsets:
        raise OpError("unknown_app", f"unknown tool set '{toolset}'; tool sets are: {', '.join(toolsets)}")
    return toolsets[toolset]


def find_operation(qualified_app: str, action: str):
    """The operation a worker runs: ``qualified_app`` is ``Operation.qualified_app`` (``toolset:app``
    outside the default tool set)."""
    toolset, _, app = qualified_app.rpartition(":")
    return apps_for(toolset or DEFAULT_TOOLSET)[app].operations[action]


__all__ = ["APPS", "APP_NAMES", "DEFAULT_MODE", "DEFAULT_TOOLSET", "MODES", "OFFICE_APPS", "SYSTEM_APP",
           "TOOLSETS", "TOOLSET_APPS", "App", "ActionResult", "OfficeContext", "OpError", "Result", "apps_for",
           "find_operation", "resolve_operation"]
