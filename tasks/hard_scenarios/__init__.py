"""Hard scenarios (the ``hard`` split): long work in lived-in offices, computed from the world's records."""

from officesim.tasks.hard_scenarios._base import SCENARIOS, Scenario, variants  # noqa: F401
from officesim.tasks.hard_scenarios import (approvals, calendar_work, contracts, customer_ops, finance, mail_work,  # noqa: F401
                                            month_end, people_expenses, people_ops, purchasing,
                                            returns, sales)  # (register their scenarios)
