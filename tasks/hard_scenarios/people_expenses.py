"""Hard scenarios: people expenses."""

from __future__ import annotations
