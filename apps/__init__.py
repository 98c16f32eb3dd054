"""The nine office applications. ``APPS`` maps an app name to its ``App`` (see ``registry``)."""

from importlib import import_module

from officesim.apps.registry import (APP_NAMES, DEFAULT_MODE, MODES, OFFICE_APPS, SYSTEM_APP, App, ActionResult,
                                     OfficeContext, OpError, Result, resolve_operation)

# One module per app, named as the app: officesim.apps.excel defines ``app = App("excel", ...)``.
APPS: dict[str, App] = {name: import_module(f"officesim.apps.{name}").app for name in APP_NAMES}

__all__ = ["APPS", "APP_NAMES", "DEFAULT_MODE", "MODES", "OFFICE_APPS", "SYSTEM_APP", "App", "ActionResult",
           "OfficeContext", "OpError", "Result", "resolve_operation"]
