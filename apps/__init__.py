"""The nine office applications. ``APPS`` maps an app name to its ``App`` (see ``registry``)."""

from apps.registry import App, ActionResult, OfficeContext, OpError, Result, resolve_operation

from apps import calendar, email, excel, llm, ocr, pdf, shell, system, word  # noqa: E402

APPS: dict[str, App] = {
    module.app.name: module.app
    for module in (system, word, excel, pdf, calendar, email, ocr, llm, shell)
}

__all__ = ["APPS", "App", "ActionResult", "OfficeContext", "OpError", "Result", "resolve_operation"]
