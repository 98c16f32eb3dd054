"""Example family (the pattern every family follows)."""

from __future__ import annotations

import random

from tasks.families._kit import act, check, company, fmt, now_on_weekday, people, switch
from tasks.families.registry import family


@family("budget-add-total", apps=["excel"])
def budget_add_total(rng: random.Random) -> dict:
    """Sum a budget's amounts and write the total in a new row under the table."""
    org, domain = company(rng)
    me = people(rng, 1, domain)[0]
    items = rng.sample(["Rent", "Payroll", "Software", "Travel", "Catering", "Insurance", "Utilities", "Training"], 5)
    amounts = [rng.randrange(200, 5000, 10) for _ in items]
    total = sum(amounts)
    rows = [["Item", "Amount"]] + [[i, a] for i, a in zip(items, amounts)]
    last = len(rows) + 1
    other = [["Quarter", "Revenue"], ["Q1", rng.randrange(10000, 90000, 100)]]  # distractor
    return {
        "user": me["email"], "user_name": me["name"], "now": fmt(now_on_weekday(rng)),
        "instruction": (f"In data/budget.xlsx, add a row under the budget table with 'Total' in column A "
                        f"and the sum of all amounts in column B."),
        "office": [
            {"type": "xlsx", "path": "data/budget.xlsx", "sheets": {"Budget": rows}},
            {"type": "xlsx", "path": "data/revenue.xlsx", "sheets": {"Revenue": other}},
        ],
        "checks": [
            check("xlsx_cell", file="data/budget.xlsx", cell=f"A{last}", value="Total"),
            check("xlsx_cell", file="data/budget.xlsx", cell=f"B{last}", value=total),
        ],
        "gold": [
            switch("excel"),
            act("excel", "read_file", file_path="data/budget.xlsx"),
            act("excel", "set_cell", file_path="data/budget.xlsx", row_idx=last, column_idx=1, text="Total"),
            act("excel", "set_cell", file_path="data/budget.xlsx", row_idx=last, column_idx=2, text=total),
        ],
        "wrong": [
            {"name": "total leaves out the last item", "actions": [
                switch("excel"),
                act("excel", "set_cell", file_path="data/budget.xlsx", row_idx=last, column_idx=1, text="Total"),
                act("excel", "set_cell", file_path="data/budget.xlsx", row_idx=last, column_idx=2, text=total - amounts[-1]),
            ]},
        ],
    }
