"""The word app (being written)."""

from apps.registry import App

app = App("word", "word")
