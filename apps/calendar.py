"""The calendar app (being written)."""

from apps.registry import App

app = App("calendar", "calendar")
