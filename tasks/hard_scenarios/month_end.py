"""Hard scenarios of month-end close: reconciliations, accruals, duplicates, credit notes, reforecasts."""

from __future__ import annotations
