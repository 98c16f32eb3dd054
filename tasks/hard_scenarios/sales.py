"""Hard scenarios: sales."""

from __future__ import annotations
