"""Hard scenarios: calendar work."""

from __future__ import annotations
