"""The shell app (being written)."""

from apps.registry import App

app = App("shell", "shell")
