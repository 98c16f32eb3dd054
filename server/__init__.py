"""The HTTP service: sessions, the switch_app state machine, evaluation, client and CLI."""

__version__ = "0.1.0"
