"""The llm app (being written)."""

from apps.registry import App

app = App("llm", "llm")
