"""Example family (the pattern every family follows): a function of a seeded rng returning a task dict.

Everything that varies comes from ``rng``; dates are computed from the task's simulated ``now``.
"""

from __future__ import annotations

import random

from officesim.tasks.families._kit import act, check, company, head, now_on_weekday, people, switch, xlsx
from officesim.tasks.families.registry import family

_BUDGET_ITEMS = ["Rent", "Payroll", "Software licences", "Travel", "Catering", "Insurance", "Utilities",
                 "Training", "Marketing", "Office supplies", "Equipment", "Consulting"]


@family("budget-add-total", apps=["excel"])
def budget_add_total(rng: random.Random) -> dict:
    """Sum a department budget's amounts and write the total in a new row under the table."""
    org, domain = company(rng)
    me, boss = people(rng, 2, domain)
    dept = rng.choice(["Marketing", "Operations", "Facilities", "Research", "Customer Success"])
    quarter = rng.choice(["Q1", "Q2", "Q3", "Q4"])
    items = rng.sample(_BUDGET_ITEMS, rng.randint(5, 8))
    amounts = [rng.randrange(200, 9000, 10) for _ in items]
    total = sum(amounts)
    rows = [["Item", "Amount"]] + [[i, a] for i, a in zip(items, amounts)]
    last = len(rows) + 1
    path = f"data/budgets/{dept.lower().replace(' ', '_')}_{quarter.lower()}.xlsx"
    other_dept = rng.choice([d for d in ["Sales", "Legal", "IT", "Finance"]])
    other_items = rng.sample(_BUDGET_ITEMS, 4)
    other = [["Item", "Amount"]] + [[i, rng.randrange(200, 9000, 10)] for i in other_items]
    other_path = f"data/budgets/{other_dept.lower()}_{quarter.lower()}.xlsx"

    def put(file: str, row: int, col: int, value) -> list[dict]:
        return [act("excel", "set_cell", file_path=file, row_idx=row, column_idx=col, text="Total"),
                act("excel", "set_cell", file_path=file, row_idx=row, column_idx=col + 1, text=value)]

    return {
        **head(me, now_on_weekday(rng)),
        "instruction": (f"{boss['first']} needs the {dept} {quarter} budget finished today. In {path}, add a row "
                        f"right under the last line item with 'Total' in column A and the sum of all the amounts "
                        f"in column B."),
        "office": [
            xlsx(path, {"Budget": rows}),
            xlsx(f"data/budgets/{other_dept.lower()}_{quarter.lower()}.xlsx", {"Budget": other}),
        ],
        "checks": [
            check("xlsx_cell", file=path, cell=f"A{last}", value="Total"),
            check("xlsx_cell", file=path, cell=f"B{last}", value=total),
            check("column_values", file=path, column="B", values=amounts + [total]),
        ],
        "gold": [
            switch("excel"),
            act("excel", "read_file", file_path=path),
            act("excel", "set_cell", file_path=path, row_idx=last, column_idx=1, text="Total"),
            act("excel", "set_cell", file_path=path, row_idx=last, column_idx=2, text=total),
        ],
        "wrong": [
            {"name": "total leaves out the last item", "actions": [
                switch("excel"),
                act("excel", "set_cell", file_path=path, row_idx=last, column_idx=1, text="Total"),
                act("excel", "set_cell", file_path=path, row_idx=last, column_idx=2, text=total - amounts[-1]),
            ]},
            {"name": "total overwrites the last item's row", "actions": [
                switch("excel"),
                act("excel", "set_cell", file_path=path, row_idx=last - 1, column_idx=1, text="Total"),
                act("excel", "set_cell", file_path=path, row_idx=last - 1, column_idx=2, text=total),
            ]},
            {"name": "total written into the other department's budget", "actions": [switch("excel")]
             + put(other_path, last, 1, total)},
            {"name": "total one row too low, a blank row left", "actions": [switch("excel")] + put(path, last + 1, 1, total)},
            {"name": "total one column to the right", "actions": [switch("excel")] + put(path, last, 2, total)},
            {"name": "sum without the first item", "actions": [switch("excel")] + put(path, last, 1, total - amounts[0])},
            {"name": "total without its label", "actions": [
                switch("excel"), act("excel", "set_cell", file_path=path, row_idx=last, column_idx=2, text=total)]},
        ],
        "right": [
            {"name": "a SUM formula", "actions": [switch("excel")] + put(path, last, 1, f"=SUM(B2:B{last - 1})")},
            {"name": "amount first, then the label", "actions": [switch("excel")] + put(path, last, 1, total)[::-1]},
        ],
    }
