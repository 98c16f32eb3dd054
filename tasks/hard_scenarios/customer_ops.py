"""Hard scenarios of customers: account reviews, price letters, escalations, minutes and their actions."""

from __future__ import annotations
