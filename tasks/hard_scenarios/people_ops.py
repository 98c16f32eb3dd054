"""Hard scenarios of people and the directory: probation, reorganisations, contact lists, cover and conflicts."""

from __future__ import annotations
