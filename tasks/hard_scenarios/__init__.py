"""Hard scenarios (the ``hard`` split): long work in lived-in offices, computed from the world's records."""

from officesim.tasks.hard_scenarios._base import SCENARIOS, Scenario, variants  # noqa: F401
from officesim.tasks.hard_scenarios import (calendar_work, contracts, finance, mail_work,  # noqa: F401
                                            people_expenses, purchasing, sales)  # (register their scenarios)
