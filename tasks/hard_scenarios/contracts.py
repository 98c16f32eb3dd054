"""Hard scenarios: contracts."""

from __future__ import annotations
