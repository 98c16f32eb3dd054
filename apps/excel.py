"""The excel app (being written)."""

from apps.registry import App

app = App("excel", "excel")
