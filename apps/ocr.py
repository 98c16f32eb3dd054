"""The ocr app (being written)."""

from apps.registry import App

app = App("ocr", "ocr")
