"""The email app (being written)."""

from apps.registry import App

app = App("email", "email")
