"""Hard scenarios: mail work."""

from __future__ import annotations
