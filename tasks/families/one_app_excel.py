"""Single-app (category 1) excel families: gradebooks, inventories, rosters, expense reports, exports."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    MONTHS, act, check, company, head, next_weekday, now_on_weekday, people, setup, switch, text, xlsx
)
from officesim.tasks.families.registry import family


def _letter(score: int) -> str:
    for limit, grade in ((90, "A"), (80, "B"), (70, "C"), (60, "D")):
        if score >= limit:
            return grade
    return "F"


@family("gradebook-letter-grades", apps=["excel"])
def gradebook_letter_grades(rng: random.Random) -> dict:
    """Fill in the letter grade of every student of a class from their final score."""
    _, domain = company(rng)
    me = people(rng, 1, domain)[0]
    students = people(rng, rng.randint(6, 8), domain)
    subject = rng.choice(["Biology", "World History", "Algebra II", "Chemistry", "English Literature", "Physics"])
    period = rng.randint(1, 3)
    other_period = period + 1
    # some scores sit exactly on a grade boundary, the rest anywhere
    scores = rng.sample([90, 80, 70, 60], 2) + [rng.randint(45, 99) for _ in students[2:]]
    rng.shuffle(scores)
    grades = [_letter(s) for s in scores]
    path = f"data/grades/{subject.lower().replace(' ', '_')}_period{period}.xlsx"
    other_path = f"data/grades/{subject.lower().replace(' ', '_')}_period{other_period}.xlsx"
    rows = [["Student", "Final score", "Grade"]] + [[s["name"], sc, None] for s, sc in zip(students, scores)]
    others = people(rng, 5, domain)
    other_rows = [["Student", "Final score", "Grade"]] + [[s["name"], rng.randint(50, 99), None] for s in others]
    gold = [switch("excel"), act("excel", "read_file", file_path=path)]
    gold += [act("excel", "set_cell", file_path=path, row_idx=i + 2, column_idx=3, text=g) for i, g in enumerate(grades)]
    # the plausible slip: treating a boundary score as belonging to the grade below
    strict = []
    for s in scores:
        g = _letter(s - 1) if s in (90, 80, 70, 60) else _letter(s)
        strict.append(g)
    wrong_strict = [switch("excel")] + [act("excel", "set_cell", file_path=path, row_idx=i + 2, column_idx=3, text=g)
                                        for i, g in enumerate(strict)]
    wrong_file = [switch("excel")] + [act("excel", "set_cell", file_path=other_path, row_idx=i + 2, column_idx=3, text=g)
                                      for i, g in enumerate(grades[:5])]
    return {
        **head(me, now_on_weekday(rng, hour=15)),
        "instruction": (f"Report cards go out Friday. Please fill in the Grade column of my period {period} "
                        f"{subject} gradebook ({path}) from the final scores: A for 90 and above, B for 80 to 89, "
                        f"C for 70 to 79, D for 60 to 69 and F below 60."),
        "office": [
            xlsx(path, {"Grades": rows}),
            xlsx(other_path, {"Grades": other_rows}),
        ],
        "checks": [
            check("column_values", file=path, column="C", values=grades),
            check("column_values", file=path, column="B", values=scores),
        ],
        "gold": gold,
        "wrong": [
            {"name": "boundary scores get the lower grade", "actions": wrong_strict},
            {"name": "grades written into the other period's gradebook", "actions": wrong_file},
            {"name": "grades in column D", "actions": [switch("excel")] + [
                act("excel", "set_cell", file_path=path, row_idx=i + 2, column_idx=4, text=g)
                for i, g in enumerate(grades)]},
            {"name": "grades one row up, over the header", "actions": [switch("excel")] + [
                act("excel", "set_cell", file_path=path, row_idx=i + 1, column_idx=3, text=g)
                for i, g in enumerate(grades)]},
            {"name": "the last student left without a grade", "actions": gold[:-1]},
            {"name": "scores overwritten by the grades", "actions": [switch("excel")] + [
                act("excel", "set_cell", file_path=path, row_idx=i + 2, column_idx=2, text=g)
                for i, g in enumerate(grades)]},
        ],
        "right": [
            {"name": "a nested IF formula per student", "actions": [switch("excel")] + [
                act("excel", "set_cell", file_path=path, row_idx=r, column_idx=3,
                    text=f'=IF(B{r}>=90,"A",IF(B{r}>=80,"B",IF(B{r}>=70,"C",IF(B{r}>=60,"D","F"))))')
                for r in range(2, len(grades) + 2)]},
            {"name": "graded from the bottom up", "actions": [switch("excel")] + gold[:1:-1]},
        ],
    }


_STOCK = ["A4 paper (box)", "Ballpoint pens (box)", "Sticky notes (pack)", "Whiteboard markers (set)",
          "Staples (box)", "Envelopes C4 (pack)", "Printer labels (pack)", "Binder clips (box)",
          "Notebooks A5", "Coffee beans (kg)"]


@family("inventory-receive-delivery", apps=["excel"])
def inventory_receive_delivery(rng: random.Random) -> dict:
    """Add a supplier delivery to the stock counts of the office-supplies inventory."""
    _, domain = company(rng)
    me = people(rng, 1, domain)[0]
    supplier = rng.choice(["Granite Peak Supply", "Harbor Office Goods", "Kestrel Stationers"])
    names = rng.sample(_STOCK, 6) + ["Toner cartridge (black)", "Toner cartridge (cyan)"]
    rng.shuffle(names)
    on_hand = [rng.randint(0, 40) for _ in names]
    rows = [["SKU", "Item", "On hand", "Reorder level"]]
    for i, (n, q) in enumerate(zip(names, on_hand)):
        rows.append([f"SUP-{100 + i * 7 + rng.randint(0, 5)}", n, q, rng.choice([5, 10, 15, 20])])
    paper_like = rng.choice([n for n in names if not n.startswith("Toner")])
    r_item = names.index(paper_like) + 2
    r_black = names.index("Toner cartridge (black)") + 2
    r_cyan = names.index("Toner cartridge (cyan)") + 2
    q_item = rng.randrange(6, 40, 2)
    q_black = rng.randint(3, 9)
    new_item = on_hand[r_item - 2] + q_item
    new_black = on_hand[r_black - 2] + q_black
    expected = list(on_hand)
    expected[r_item - 2] = new_item
    expected[r_black - 2] = new_black
    path = "data/inventory/office_supplies.xlsx"
    unit = paper_like.split(" (")[0]
    return {
        **head(me, now_on_weekday(rng, hour=11)),
        "instruction": (f"The {supplier} delivery just arrived: {q_item} of '{paper_like}' and {q_black} black toner "
                        f"cartridges. Please add them to the On hand counts in {path}."),
        "office": [
            xlsx(path, {"Stock": rows}),
            xlsx("data/inventory/kitchen.xlsx", {"Stock": [
                ["SKU", "Item", "On hand", "Reorder level"], ["KIT-01", "Tea bags (box)", rng.randint(2, 20), 5],
                ["KIT-02", "Paper cups (sleeve)", rng.randint(2, 20), 5], ["KIT-03", unit, rng.randint(2, 20), 3]]}),
        ],
        "checks": [
            check("xlsx_cell", file=path, cell=f"C{r_item}", value=new_item),
            check("xlsx_cell", file=path, cell=f"C{r_black}", value=new_black),
            check("column_values", file=path, column="C", values=expected),
        ],
        "gold": [
            switch("excel"),
            act("excel", "read_file", file_path=path),
            act("excel", "set_cell", file_path=path, row_idx=r_item, column_idx=3, text=new_item),
            act("excel", "set_cell", file_path=path, row_idx=r_black, column_idx=3, text=new_black),
        ],
        "wrong": [
            {"name": "counts overwritten with the delivered quantities", "actions": [
                switch("excel"),
                act("excel", "set_cell", file_path=path, row_idx=r_item, column_idx=3, text=q_item),
                act("excel", "set_cell", file_path=path, row_idx=r_black, column_idx=3, text=q_black),
            ]},
            {"name": "toner added to the cyan cartridges", "actions": [
                switch("excel"),
                act("excel", "set_cell", file_path=path, row_idx=r_item, column_idx=3, text=new_item),
                act("excel", "set_cell", file_path=path, row_idx=r_cyan, column_idx=3,
                    text=on_hand[r_cyan - 2] + q_black),
            ]},
            {"name": "delivery counted twice", "actions": [
                switch("excel"),
                act("excel", "set_cell", file_path=path, row_idx=r_item, column_idx=3, text=new_item + q_item),
                act("excel", "set_cell", file_path=path, row_idx=r_black, column_idx=3, text=new_black + q_black),
            ]},
            {"name": "toner forgotten", "actions": [
                switch("excel"),
                act("excel", "set_cell", file_path=path, row_idx=r_item, column_idx=3, text=new_item),
            ]},
            {"name": "delivery entered as new rows at the bottom", "actions": [
                switch("excel"),
                act("excel", "insert_row", file_path=path, row_idx=len(rows) + 1,
                    values=[rows[r_item - 1][0], paper_like, q_item, rows[r_item - 1][3]]),
                act("excel", "insert_row", file_path=path, row_idx=len(rows) + 2,
                    values=[rows[r_black - 1][0], "Toner cartridge (black)", q_black, rows[r_black - 1][3]]),
            ]},
            {"name": "quantities added to the reorder levels", "actions": [
                switch("excel"),
                act("excel", "set_cell", file_path=path, row_idx=r_item, column_idx=4,
                    text=rows[r_item - 1][3] + q_item),
                act("excel", "set_cell", file_path=path, row_idx=r_black, column_idx=4,
                    text=rows[r_black - 1][3] + q_black),
            ]},
        ],
        "right": [
            {"name": "the additions as formulas", "actions": [
                switch("excel"),
                act("excel", "set_cell", file_path=path, row_idx=r_black, column_idx=3,
                    text=f"={on_hand[r_black - 2]}+{q_black}"),
                act("excel", "set_cell", file_path=path, row_idx=r_item, column_idx=3,
                    text=f"={on_hand[r_item - 2]}+{q_item}"),
            ]},
            {"name": "counts written as text with a decimal", "actions": [
                switch("excel"),
                act("excel", "set_cell", file_path=path, row_idx=r_item, column_idx=3, text=f"{new_item}.0"),
                act("excel", "set_cell", file_path=path, row_idx=r_black, column_idx=3, text=f"{new_black}.0"),
            ]},
        ],
    }


@family("roster-add-new-hire", apps=["excel"])
def roster_add_new_hire(rng: random.Random) -> dict:
    """Insert a new hire into the staff roster at the right alphabetical place, starting next Monday."""
    org, domain, (me, *staff), now = setup(rng, 9)
    teams = ["Finance", "Operations", "Sales", "Support", "Engineering"]
    staff.sort(key=lambda p: p["name"].split()[1])
    pos = rng.randint(1, len(staff) - 2)  # never first or last: the right place is inside the table
    hire = staff.pop(pos)
    hire_team = rng.choice(teams)
    start = next_weekday(now, 0)
    rows = [["Last name", "First name", "Email", "Team", "Start date"]]
    for p in staff:
        first, last = p["name"].split()
        d = now.date() - timedelta(days=rng.randint(60, 2000))
        rows.append([last, first, p["email"], rng.choice(teams), d.isoformat()])
    first, last = hire["name"].split()
    new_row = [last, first, hire["email"], hire_team, start.isoformat()]
    row_idx = pos + 2
    path = "data/hr/staff_roster.xlsx"
    return {
        **head(me, now),
        "instruction": (f"{hire['name']} joins the {hire_team} team next Monday (email {hire['email']}). Please add "
                        f"{hire['first']} to the roster in {path}, keeping it sorted by last name, with the start "
                        f"date written like the others (YYYY-MM-DD)."),
        "office": [
            xlsx(path, {"Roster": rows}),
            xlsx("data/hr/contractors.xlsx", {"Contractors": [
                ["Name", "Agency", "Ends"], [people(rng, 1, "kestrel.test")[0]["name"], "Kestrel Staffing",
                                             (now.date() + timedelta(days=90)).isoformat()]]}),
        ],
        "checks": [
            check("xlsx_row", file=path, row=row_idx, values=new_row),
            check("column_sorted", file=path, column="A"),
            check("column_values", file=path, column="C",
                  values=[r[2] for r in rows[1:row_idx - 1]] + [hire["email"]] + [r[2] for r in rows[row_idx - 1:]]),
        ],
        "gold": [
            switch("excel"),
            act("excel", "read_file", file_path=path),
            act("excel", "insert_row", file_path=path, row_idx=row_idx, values=new_row),
        ],
        "wrong": [
            {"name": "appended at the bottom", "actions": [
                switch("excel"),
                act("excel", "insert_row", file_path=path, row_idx=len(rows) + 1, values=new_row),
            ]},
            {"name": "start date is this week's Monday", "actions": [
                switch("excel"),
                act("excel", "insert_row", file_path=path, row_idx=row_idx,
                    values=new_row[:4] + [(start - timedelta(days=7)).isoformat()]),
            ]},
            {"name": "the colleague in that place overwritten", "actions": [switch("excel")] + [
                act("excel", "set_cell", file_path=path, row_idx=row_idx, column_idx=c + 1, text=v)
                for c, v in enumerate(new_row)]},
            {"name": "start date written day first", "actions": [
                switch("excel"),
                act("excel", "insert_row", file_path=path, row_idx=row_idx,
                    values=new_row[:4] + [start.strftime("%d/%m/%Y")]),
            ]},
            {"name": "team left out", "actions": [
                switch("excel"),
                act("excel", "insert_row", file_path=path, row_idx=row_idx, values=new_row[:3] + [None, new_row[4]]),
            ]},
            {"name": "first and last name swapped", "actions": [
                switch("excel"),
                act("excel", "insert_row", file_path=path, row_idx=row_idx, values=[first, last] + new_row[2:]),
            ]},
        ],
        "right": [
            {"name": "an empty row inserted, then filled cell by cell", "actions": [
                switch("excel"), act("excel", "insert_row", file_path=path, row_idx=row_idx)] + [
                act("excel", "set_cell", file_path=path, row_idx=row_idx, column_idx=c + 1, text=v)
                for c, v in reversed(list(enumerate(new_row)))]},
        ],
    }


_EXPENSE_RANGE = {"Travel": (40, 300), "Lodging": (250, 900), "Taxi": (15, 80), "Meals": (20, 180),
                  "Fees": (50, 600), "Personal": (10, 120)}


@family("expense-report-remove-personal", apps=["excel"])
def expense_report_remove_personal(rng: random.Random) -> dict:
    """Take the personal items out of an expense report and correct its total."""
    _, domain, (me,), now = setup(rng, 1)
    monday = now.date() - timedelta(days=now.weekday() + 7)
    week = monday.isocalendar()[1]
    city = rng.choice(["Lisbon", "Rotterdam", "Denver", "Osaka", "Montreal", "Krakow"])
    business = [("Train to " + city, "Travel"), (f"Hotel {city} (3 nights)", "Lodging"), ("Taxi from station", "Taxi"),
                ("Client dinner", "Meals"), ("Conference badge", "Fees"), ("Lunch with supplier", "Meals"),
                ("Airport shuttle", "Taxi")]
    personal = [("Gym day pass", "Personal"), ("Bookstore purchase", "Personal"), ("Souvenirs", "Personal"),
                ("Spa treatment", "Personal")]
    items = rng.sample(business, 5) + rng.sample(personal, 2)
    rng.shuffle(items)
    while items[-1][1] == "Personal" and items[-2][1] == "Personal":  # keep the slip below observable
        rng.shuffle(items)
    lines = []
    for desc, cat in items:
        d = monday + timedelta(days=rng.randint(0, 4))
        low, high = _EXPENSE_RANGE[cat]
        lines.append([d.isoformat(), desc, cat, rng.randrange(low * 100, high * 100) / 100])
    lines.sort(key=lambda r: r[0])
    old_total = round(sum(r[3] for r in lines), 2)
    rows = [["Date", "Description", "Category", "Amount"]] + lines + [[None, "Total", None, old_total]]
    keep = [r for r in lines if r[2] != "Personal"]
    new_total = round(sum(r[3] for r in keep), 2)
    pers_rows = [i + 2 for i, r in enumerate(lines) if r[2] == "Personal"]  # sheet rows, ascending
    path = f"data/expenses/{monday.year}-W{week:02d}.xlsx"
    prev = monday - timedelta(days=7)
    prev_path = f"data/expenses/{prev.year}-W{prev.isocalendar()[1]:02d}.xlsx"
    prev_lines = [[(prev + timedelta(days=i)).isoformat(), d, c,
                   rng.randrange(_EXPENSE_RANGE[c][0] * 100, _EXPENSE_RANGE[c][1] * 100) / 100]
                  for i, (d, c) in enumerate([rng.choice(business), rng.choice(personal), rng.choice(business)])]
    prev_rows = ([["Date", "Description", "Category", "Amount"]] + prev_lines
                 + [[None, "Total", None, round(sum(r[3] for r in prev_lines), 2)]])
    total_row_after = len(keep) + 2
    gold = [switch("excel"), act("excel", "read_file", file_path=path)]
    for r in sorted(pers_rows, reverse=True):
        gold.append(act("excel", "delete_row", file_path=path, row_idx=r))
    gold.append(act("excel", "set_cell", file_path=path, row_idx=total_row_after, column_idx=4, text=new_total))
    slip = [switch("excel")] + [act("excel", "delete_row", file_path=path, row_idx=r) for r in pers_rows]
    slip.append(act("excel", "set_cell", file_path=path, row_idx=total_row_after, column_idx=4, text=new_total))
    return {
        **head(me, now),
        "instruction": (f"Before I submit last week's expense report ({path}), please take out the lines I marked "
                        f"as Personal and correct the total at the bottom."),
        "office": [
            xlsx(path, {"Expenses": rows}),
            xlsx(prev_path, {"Expenses": prev_rows}),
        ],
        "checks": [
            check("column_values", file=path, column="B", values=[r[1] for r in keep] + ["Total"]),
            check("column_values", file=path, column="D", values=[r[3] for r in keep] + [new_total]),
        ],
        "gold": gold,
        "wrong": [
            {"name": "personal lines removed but the old total kept", "actions":
                [switch("excel")] + [act("excel", "delete_row", file_path=path, row_idx=r)
                                     for r in sorted(pers_rows, reverse=True)]},
            {"name": "second deletion uses the row number from before the first one", "actions": slip},
            {"name": "personal lines emptied instead of removed", "actions": [switch("excel")] + [
                act("excel", "delete_cell", file_path=path, row_idx=r, column_idx=c)
                for r in pers_rows for c in range(1, 5)] + [
                act("excel", "set_cell", file_path=path, row_idx=len(lines) + 2, column_idx=4, text=new_total)]},
            {"name": "total still counts one personal line", "actions": gold[:-1] + [
                act("excel", "set_cell", file_path=path, row_idx=total_row_after, column_idx=4,
                    text=round(new_total + lines[pers_rows[0] - 2][3], 2))]},
            {"name": "only one personal line removed", "actions": [
                switch("excel"), act("excel", "delete_row", file_path=path, row_idx=pers_rows[-1]),
                act("excel", "set_cell", file_path=path, row_idx=len(lines) + 1, column_idx=4,
                    text=round(old_total - lines[pers_rows[-1] - 2][3], 2))]},
        ],
        "right": [
            {"name": "the total as a SUM formula", "actions": gold[:-1] + [
                act("excel", "set_cell", file_path=path, row_idx=total_row_after, column_idx=4,
                    text=f"=SUM(D2:D{total_row_after - 1})")]},
        ],
    }


@family("price-list-export-pdf", apps=["excel"])
def price_list_export_pdf(rng: random.Random) -> dict:
    """Export this year's customer price list workbook to PDF for sending out."""
    org, domain, (me,), now = setup(rng, 1)
    year = now.year
    products = rng.sample(["Standing desk", "Ergonomic chair", "Monitor arm", "Desk lamp", "Cable tray",
                           "Footrest", "Whiteboard", "Filing cabinet", "Coat stand", "Acoustic panel"], 6)
    old = {p: rng.randrange(40, 700, 5) for p in products[:5]}
    new = {p: v + rng.randrange(5, 60, 5) for p, v in old.items()}
    new[products[5]] = rng.randrange(40, 700, 5)  # added to the range this year
    header = ["Product", "Unit price (EUR)", "Lead time (days)"]
    rows_new = [header] + [[p, v, rng.randint(3, 21)] for p, v in new.items()]
    rows_old = [header] + [[p, v, rng.randint(3, 21)] for p, v in old.items()]
    src = f"data/pricing/price_list_{year}.xlsx"
    src_old = f"data/pricing/price_list_{year - 1}.xlsx"
    out = f"data/pricing/{org.split()[0].lower()}_price_list_{year}.pdf"
    changed = products[rng.randrange(0, 5)]
    return {
        **head(me, now),
        "instruction": (f"Customers keep asking for our prices. Please export this year's price list workbook "
                        f"(in data/pricing/) to a PDF named {out}."),
        "office": [
            xlsx(src, {"Prices": rows_new}),
            xlsx(src_old, {"Prices": rows_old}),
        ],
        "checks": [
            check("file_exists", file=out),
            check("contains", file=out, text=[products[5], str(new[changed])]),
            check("file_exists", file=src),
        ],
        "gold": [
            switch("excel"),
            act("excel", "convert_to_pdf", excel_file_path=src, pdf_file_path=out),
        ],
        "wrong": [
            {"name": "last year's list exported", "actions": [
                switch("excel"),
                act("excel", "convert_to_pdf", excel_file_path=src_old, pdf_file_path=out),
            ]},
            {"name": "exported to another name", "actions": [
                switch("excel"),
                act("excel", "convert_to_pdf", excel_file_path=src, pdf_file_path=f"data/pricing/price_list_{year}.pdf"),
            ]},
            {"name": "the PDF saved in data/ instead of data/pricing/", "actions": [
                switch("excel"),
                act("excel", "convert_to_pdf", excel_file_path=src, pdf_file_path=out.replace("pricing/", "")),
            ]},
            {"name": "both years exported", "actions": [
                switch("excel"),
                act("excel", "convert_to_pdf", excel_file_path=src, pdf_file_path=out),
                act("excel", "convert_to_pdf", excel_file_path=src_old,
                    pdf_file_path=f"data/pricing/{org.split()[0].lower()}_price_list_{year - 1}.pdf"),
            ]},
        ],
        "right": [
            {"name": "workbook read first, then exported", "actions": [
                switch("excel"), act("excel", "list_sheets", file_path=src),
                act("excel", "read_file", file_path=src),
                act("excel", "convert_to_pdf", excel_file_path=f"/testbed/{src}", pdf_file_path=f"/testbed/{out}"),
            ]},
        ],
    }


@family("sales-tracker-new-month", apps=["excel"])
def sales_tracker_new_month(rng: random.Random) -> dict:
    """Start next month's sheet in a monthly sales tracker, named and headed like the others."""
    _, domain, (me,), now = setup(rng, 1)
    header = rng.choice([["Date", "Customer", "Product", "Units", "Revenue"],
                         ["Date", "Account", "Sales rep", "Deal", "Amount"],
                         ["Order no.", "Date", "Customer", "Region", "Total"]])
    customers = rng.sample(["Bluefin Logistics", "Tidewater Foods", "Copperleaf Studio", "Lumen Harbor Health",
                            "Orchid Lane Legal", "Silverpine Schools"], 3)
    sheets = {}
    for back in (2, 1, 0):
        m = (now.month - 1 - back) % 12
        y = now.year - (1 if now.month - 1 - back < 0 else 0)
        name = f"{MONTHS[m]} {y}"
        body = []
        for c in customers[: rng.randint(1, 3)]:
            day = f"{y}-{m + 1:02d}-{rng.randint(1, 28):02d}"
            cells = {"Date": day, "Customer": c, "Account": c, "Product": rng.choice(["Starter", "Pro", "Suite"]),
                     "Units": rng.randint(1, 40), "Revenue": rng.randrange(500, 20000, 50), "Sales rep": me["name"],
                     "Deal": rng.choice(["Renewal", "New", "Upsell"]), "Amount": rng.randrange(500, 20000, 50),
                     "Order no.": f"SO-{rng.randint(1000, 9999)}", "Region": rng.choice(["North", "South", "West"]),
                     "Total": rng.randrange(500, 20000, 50)}
            body.append([cells[h] for h in header])
        sheets[name] = [header] + body
    nm = now.month % 12
    ny = now.year + (1 if now.month == 12 else 0)
    new_name = f"{MONTHS[nm]} {ny}"
    path = "data/sales/monthly_tracker.xlsx"
    gold = [switch("excel"), act("excel", "list_sheets", file_path=path),
            act("excel", "read_file", file_path=path, sheet=list(sheets)[-1]),
            act("excel", "add_sheet", file_path=path, sheet=new_name)]
    gold += [act("excel", "set_cell", file_path=path, row_idx=1, column_idx=i + 1, text=h, sheet=new_name)
             for i, h in enumerate(header)]
    short = f"{ny}-{nm + 1:02d}"  # a plausible but different naming
    after = f"{MONTHS[(nm + 1) % 12]} {ny + (1 if nm == 11 else 0)}"
    return {
        **head(me, now),
        "instruction": (f"Can you set up next month's tab in {path}? Add a sheet named the same way as the "
                        f"existing month sheets, with the same header row and no data yet."),
        "office": [
            xlsx(path, sheets),
            text("data/sales/README.txt", "One sheet per month. Enter each closed deal on the day it is signed.\n"),
        ],
        "checks": [
            check("xlsx_sheet_exists", file=path, sheet=new_name),
            check("xlsx_sheet_equals", file=path, sheet=new_name, rows=[header]),
        ] + [check("xlsx_sheet_equals", file=path, sheet=n, rows=r) for n, r in sheets.items()],
        "gold": gold,
        "wrong": [
            {"name": "sheet named YYYY-MM unlike the others", "actions": [
                switch("excel"), act("excel", "add_sheet", file_path=path, sheet=short)] + [
                act("excel", "set_cell", file_path=path, row_idx=1, column_idx=i + 1, text=h, sheet=short)
                for i, h in enumerate(header)]},
            {"name": "header row missing its last column", "actions": gold[:-1]},
            {"name": "last month's rows copied into the new sheet", "actions": gold + [
                act("excel", "set_cell", file_path=path, row_idx=r + 2, column_idx=c + 1, text=v, sheet=new_name)
                for r, row in enumerate(sheets[list(sheets)[-1]][1:]) for c, v in enumerate(row)]},
            {"name": "sheet named by the month only", "actions": [
                switch("excel"), act("excel", "add_sheet", file_path=path, sheet=MONTHS[nm])] + [
                act("excel", "set_cell", file_path=path, row_idx=1, column_idx=i + 1, text=h, sheet=MONTHS[nm])
                for i, h in enumerate(header)]},
            {"name": "sheet for the month after next", "actions": [
                switch("excel"), act("excel", "add_sheet", file_path=path, sheet=after)] + [
                act("excel", "set_cell", file_path=path, row_idx=1, column_idx=i + 1, text=h, sheet=after)
                for i, h in enumerate(header)]},
            {"name": "header written into this month's sheet, new sheet left empty", "actions": [
                switch("excel"), act("excel", "add_sheet", file_path=path, sheet=new_name)] + [
                act("excel", "set_cell", file_path=path, row_idx=1, column_idx=i + 1, text=h.upper(),
                    sheet=list(sheets)[-1]) for i, h in enumerate(header)]},
        ],
        "right": [
            {"name": "header written right to left", "actions": gold[:4] + gold[:3:-1]},
        ],
    }
