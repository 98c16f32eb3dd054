"""The pdf app (being written)."""

from apps.registry import App

app = App("pdf", "pdf")
