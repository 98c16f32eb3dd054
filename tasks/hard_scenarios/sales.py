"""Hard scenarios of sales: customer mail left unanswered, customers gone quiet, revenue by region."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta

from officesim.tasks.hard_scenarios._base import (act, check, iso, list_mail, long_date, money, read_mail,
                                                  read_sheet, scenario, send, set_cell, stamp, switch)
from officesim.testbed.worlds.model import Mail, World

ARCHIVE_2025 = "data/sales/archive/orders_2025.xlsx"


def _customer_of(w: World, m: Mail):
    return next(c for c in w.customers if c.email == m.sender)


def _unanswered(w: World, since: date) -> list[Mail]:
    """Customer mails received since ``since`` that no reply of the user answers. A reply ('Re: <subject>'
    to the sender) answers the latest mail of that sender and subject received before it."""
    inbox = sorted([m for m in w.mails if m.folder == "inbox" and m.kind == "customer"], key=lambda m: m.when)
    answered: set[str] = set()
    for r in w.mails:
        if r.folder != "sent" or not r.subject.startswith("Re: "):
            continue
        before = [m for m in inbox if m.subject == r.subject[4:] and m.sender in r.to and m.when < r.when]
        if before:
            answered.add(before[-1].id)
    return [m for m in inbox if m.when.date() >= since and m.id not in answered]


@scenario("customer-mail-followup", ["email", "excel"])
def customer_mail_followup(w: World) -> dict:
    """Find the customer mails of the last four weeks the user never replied to, forward each to the
    customer's account executive and list them in a new tracking sheet (oldest first)."""
    today = w.now.date()
    since = today - timedelta(days=28)
    todo = _unanswered(w, since)
    name = {p.email: p.name for p in w.people}
    sheet = "data/sales/reports/unanswered_customer_mails.xlsx"
    instruction = (
        "I've fallen behind on customer email. Please go through the messages customers sent me in the last four "
        f"weeks (since {long_date(since)}) and find the ones I never replied to — my replies are in my sent folder "
        "as 'Re:' the customer's subject; where a customer wrote twice under the same subject and I replied only "
        "once, that reply counts for their later message. Forward each unanswered one to the customer's account "
        "executive (the customers list says who) asking them to reply to the customer today. Then list them in a "
        "new spreadsheet, unanswered_customer_mails.xlsx in the sales reports folder: a header row Received, "
        "Customer, Subject, Account executive, then one row per message, oldest first, with the date it came in "
        "(as YYYY-MM-DD) and the executive's full name.")
    gold = [switch("email"), list_mail(w, "inbox"), list_mail(w, "sent")]
    gold += [read_mail(w, m.id) for m in todo]
    gold += [switch("excel"), read_sheet(w.paths["customers"]), act("excel", "create_new_file", file_path=sheet)]
    header = ["Received", "Customer", "Subject", "Account executive"]
    gold += [set_cell(sheet, 1, col, v) for col, v in enumerate(header, start=1)]
    checks = [check("xlsx_row", "tracking sheet header", file=sheet, row=1, values=header)]
    forwards = []
    for row, m in enumerate(todo, start=2):
        c = _customer_of(w, m)
        values = [iso(m.when), c.name, m.subject, name[c.manager]]
        gold += [set_cell(sheet, row, col, v) for col, v in enumerate(values, start=1)]
        checks.append(check("xlsx_row", f"listed {m.subject} from {c.name}", file=sheet, row=row, values=values))
        forwards.append(act("email", "forward_email", username=w.user.email, email_id=m.id, recipient=c.manager,
                            content=f"Hi {name[c.manager].split()[0]}, this one from {c.name} is still unanswered. "
                                    f"Could you reply to them today? Thanks, {w.user.first}"))
        checks.append(check("email_sent", f"forwarded {m.subject} from {c.name}", sender=w.user.email,
                            to=[c.manager], subject_contains=m.subject))
    checks.append(check("xlsx_cell", "nothing listed below", file=sheet, cell=f"B{len(todo) + 2}", value=None))
    gold += [switch("email")] + forwards
    return {"instruction": instruction, "gold": gold, "checks": checks}


@scenario("dormant-customers", ["excel", "email"])
def dormant_customers(w: World) -> dict:
    """Record every customer's last order date in the customers list and tell each account executive which
    of their customers have ordered nothing for a week, copying the Sales Director."""
    today = w.now.date()
    cutoff = today - timedelta(days=7)
    last: dict[str, object] = {}
    for s in w.sales:
        if s.customer not in last or (s.day, s.order) > (last[s.customer].day, last[s.customer].order):
            last[s.customer] = s
    director = w.head_of("Sales")
    name = {p.email: p.name for p in w.people}
    sheet = w.paths["customers"]
    quiet = sorted([c for c in w.customers if last[c.name].day < cutoff], key=lambda c: c.name)
    by_exec: dict[str, list] = defaultdict(list)
    for c in quiet:
        by_exec[c.manager].append(c)
    instruction = (
        "Sales asked me to keep an eye on customers going quiet. In the customers list, add a column 'Last order' "
        "right after the existing ones and fill in, for every customer, the date of their most recent order in "
        f"this year's orders (as YYYY-MM-DD). Then, for the customers with no order in the last seven days (nothing since "
        f"{long_date(cutoff)}), write to their account executive — one mail per executive, listing each of their "
        "quiet customers with the number of their last order — and copy "
        f"{director.first} {director.last}, the {director.role}.")
    gold = [switch("excel"), read_sheet(sheet), read_sheet(w.paths["sales"]), read_sheet(w.paths["directory"]),
            set_cell(sheet, 1, 6, "Last order")]
    checks = [check("xlsx_cell", "column added", file=sheet, cell="F1", value="Last order")]
    for c in w.customers:
        gold.append(set_cell(sheet, c.row, 6, iso(last[c.name].day)))
        if c in quiet:
            checks.append(check("xlsx_cell", f"last order of {c.name}", file=sheet, cell=f"F{c.row}",
                                value=iso(last[c.name].day)))
    checks.append(check("column_values", "every customer's last order", file=sheet, column="F",
                        values=[iso(last[c.name].day) for c in w.customers]))
    checks.append(check("column_values", "the customers left as they were", file=sheet, column="A",
                        values=[c.name for c in w.customers]))
    gold.append(switch("email"))
    for ex in sorted(by_exec):
        cs = by_exec[ex]
        lines = [f"- {c.name}: last order {last[c.name].order}" for c in cs]
        body = (f"Hi {name[ex].split()[0]},\n\nThese customers of yours have placed no order in the last "
                f"seven days:\n" + "\n".join(lines) + f"\n\nCould you get in touch with them?\n\n"
                f"Best,\n{w.user.first}")
        gold.append(send(w, [ex], "Customers with no recent orders", body, cc=[director.email]))
        others = [c.name for c in w.customers if c not in cs]
        checks.append(check("email_sent", f"told {name[ex]}", sender=w.user.email, to=[ex], cc=[director.email],
                            body_contains=[x for c in cs for x in (c.name, last[c.name].order)],
                            body_excludes=others,
                            # "Your other two accounts are fine: Beacon Hill Schools last ordered on 12 November"
                            excludes_unless=["are fine", "is fine", "active", "still ordering", "ordered recently",
                                             "ordering regularly"],
                            lines=[[c.name, last[c.name].order] for c in cs]))
    return {"instruction": instruction, "gold": gold, "checks": checks}


def _previous_month(day: date) -> tuple[date, date]:
    first = date(day.year, day.month, 1)
    end = first - timedelta(days=1)
    return date(end.year, end.month, 1), end


@scenario("region-revenue-month", ["excel", "email"])
def region_revenue_month(w: World) -> dict:
    """Over a few days the Sales Director asks for last month's revenue per region in a new sheet, then
    adds the same month of 2025 from the archive and changes who receives it."""
    director = w.head_of("Sales")
    fin = w.head_of("Finance")
    today = w.now.date()
    start, end = _previous_month(today)
    month = f"{start:%B}"
    cur = [s for s in w.sales if start <= s.day <= end]
    regions = sorted({s.region for s in w.sales})
    archive = next(f for f in w.files if f["path"] == ARCHIVE_2025)["sheets"]["Orders"][1:]
    old = [r for r in archive if r[1][:7] == f"2025-{start.month:02d}"]
    sheet = f"data/sales/reports/revenue_by_region_{start:%Y-%m}.xlsx"
    rows = []
    for r in regions:
        n = sum(1 for s in cur if s.region == r)
        rev = round(sum(s.total for s in cur if s.region == r), 2)
        prev = round(sum(x[7] for x in old if x[3] == r), 2)
        rows.append([r, n, rev, prev, round(rev - prev, 2)])
    total = ["Total", len(cur), round(sum(x[2] for x in rows), 2), round(sum(x[3] for x in rows), 2)]
    total.append(round(total[2] - total[3], 2))
    rows.append(total)
    monday = datetime.combine(today - timedelta(days=today.weekday() + 7), datetime.min.time())
    t = lambda d, h, m: stamp(monday + timedelta(days=d, hours=h, minutes=m))  # noqa: E731
    dialogue = [
        {"speaker": director.name, "at": t(0, 9, 14),
         "text": f"Hi {w.user.first}, could you make me a small sheet of {month}'s revenue per region? Orders and "
                 "revenue for each region, straight from this year's orders. A new file in the sales reports "
                 f"folder, revenue_by_region_{start:%Y-%m}.xlsx, and mail it to me."},
        {"speaker": w.user.name, "at": t(0, 9, 40), "text": "Will do. Regions in alphabetical order, a total at the bottom?"},
        {"speaker": director.name, "at": t(0, 9, 52),
         "text": "Yes. Columns Region, Orders, Revenue, one row per region and a Total row."},
        {"speaker": director.name, "at": t(1, 12, 30), "text": "Did you see the new coffee machine on floor 2? Finally."},
        {"speaker": director.name, "at": t(2, 16, 5),
         "text": f"One more thing for the region sheet: add two columns after Revenue — '{month} 2025', the same "
                 "region's revenue in the same month last year from the 2025 archive, and 'Difference' (this year "
                 "minus last year)."},
        {"speaker": director.name, "at": t(3, 10, 48),
         "text": f"Change of plan on who gets it: send it to {fin.name} ({fin.role}) rather than me, and copy me. "
                 "In the mail, say the total revenue and which region sold most."},
    ]
    best = max(rows[:-1], key=lambda x: x[2])
    instruction = "Could you do the region revenue sheet now? Everything we agreed is in the messages above."
    header = ["Region", "Orders", "Revenue", f"{month} 2025", "Difference"]
    gold = [switch("excel"), read_sheet(w.paths["sales"]), read_sheet(ARCHIVE_2025), read_sheet(w.paths["directory"]),
            act("excel", "create_new_file", file_path=sheet)]
    gold += [set_cell(sheet, 1, col, v) for col, v in enumerate(header, start=1)]
    checks = [check("xlsx_row", "header", file=sheet, row=1, values=header)]
    for i, r in enumerate(rows, start=2):
        gold += [set_cell(sheet, i, col, v) for col, v in enumerate(r, start=1)]
        checks.append(check("xlsx_row", f"row {r[0]}", file=sheet, row=i, values=r))
    body = (f"Hi {fin.first},\n\nAttached is {month}'s revenue by region: {money(total[2])} in all. {best[0]} "
            f"sold most.\n\nBest,\n{w.user.first}")
    gold += [switch("email"), send(w, [fin.email], f"Revenue by region, {month} {start.year}", body,
                                   cc=[director.email], attachments=[sheet])]
    checks.append(check("email_sent", "mailed to finance, director copied", sender=w.user.email, to=[fin.email],
                        cc=[director.email], attachments=[sheet.rsplit("/", 1)[1]],
                        body_contains=[money(total[2]), best[0]]))
    return {"instruction": instruction, "dialogue": dialogue, "gold": gold, "checks": checks}


@scenario("product-quarter-compare", ["excel", "email"])
def product_quarter_compare(w: World) -> dict:
    """Over a few days the Marketing Director asks for units sold per product in the last full quarter
    against the same quarter of 2025 (the archive), then drops one product and changes the recipient."""
    mkt = w.head_of("Marketing")
    director = w.head_of("Sales")
    today = w.now.date()
    q = (today.month - 1) // 3
    start, end = date(today.year, 3 * (q - 1) + 1, 1), date(today.year, 3 * q + 1, 1) - timedelta(days=1)
    archive = next(f for f in w.files if f["path"] == ARCHIVE_2025)["sheets"]["Orders"][1:]
    units: dict[str, int] = defaultdict(int)
    old: dict[str, int] = defaultdict(int)
    for s in w.sales:
        if start <= s.day <= end:
            units[s.product] += s.qty
    for r in archive:
        if (int(r[1][5:7]) - 1) // 3 + 1 == q:
            old[r[4]] += int(r[5])
    products = sorted({s.product for s in w.sales})
    dropped = "Coffee Machine"
    kept = sorted([p for p in products if p != dropped], key=lambda p: (-units[p], p))
    best_now = kept[0]
    best_old = sorted(kept, key=lambda p: (-old[p], p))[0]
    sheet = f"data/sales/reports/product_units_Q{q}.xlsx"
    monday = datetime.combine(today - timedelta(days=today.weekday() + 7), datetime.min.time())
    t = lambda d, h, m: stamp(monday + timedelta(days=d, hours=h, minutes=m))  # noqa: E731
    dialogue = [
        {"speaker": mkt.name, "at": t(0, 10, 3),
         "text": f"Hi {w.user.first}! For the campaign review I need to see how our products sold in Q{q} compared "
                 f"with Q{q} last year. Units, not revenue. This year's orders, and the 2025 archive for last year."},
        {"speaker": w.user.name, "at": t(0, 10, 21), "text": "Sure. A spreadsheet?"},
        {"speaker": mkt.name, "at": t(0, 10, 34),
         "text": f"Yes: a new file product_units_Q{q}.xlsx in the sales reports folder. Columns Product, "
                 f"Units Q{q} {today.year}, Units Q{q} 2025, Change (this year minus last year). Every product, "
                 "the best seller this year at the top, then down; where two sold the same, alphabetical. Mail it "
                 "to me when it's done."},
        {"speaker": mkt.name, "at": t(1, 15, 12), "text": "Are you coming to the quiz night on Thursday? We need a fourth."},
        {"speaker": w.user.name, "at": t(1, 15, 30), "text": "Count me in!"},
        {"speaker": mkt.name, "at": t(3, 9, 48),
         "text": f"About the product sheet: leave the {dropped} out altogether, it was a one-off promotion. And send "
                 f"it to {director.name} ({director.role}) instead of me — copy me. In the mail, name this year's "
                 "best seller and last year's."},
    ]
    instruction = "Please finish the product sheet as we discussed above."
    header = ["Product", f"Units Q{q} {today.year}", f"Units Q{q} 2025", "Change"]
    gold = [switch("excel"), read_sheet(w.paths["sales"]), read_sheet(ARCHIVE_2025), read_sheet(w.paths["directory"]),
            act("excel", "create_new_file", file_path=sheet)]
    gold += [set_cell(sheet, 1, col, v) for col, v in enumerate(header, start=1)]
    checks = [check("xlsx_row", "header", file=sheet, row=1, values=header)]
    for i, p in enumerate(kept, start=2):
        values = [p, units[p], old[p], units[p] - old[p]]
        gold += [set_cell(sheet, i, col, v) for col, v in enumerate(values, start=1)]
        checks.append(check("xlsx_row", f"row {i}: {p}", file=sheet, row=i, values=values))
    checks.append(check("xlsx_cell", f"no row below, no {dropped}", file=sheet, cell=f"A{len(kept) + 2}", value=None))
    body = (f"Hi {director.first},\n\nAttached are the units sold per product in Q{q} {today.year} against Q{q} 2025 "
            f"(without the {dropped}). Best seller this year: {best_now}; last year: {best_old}.\n\n"
            f"Best,\n{w.user.first}")
    gold += [switch("email"), send(w, [director.email], f"Units per product, Q{q} {today.year} vs Q{q} 2025", body,
                                   cc=[mkt.email], attachments=[sheet])]
    checks.append(check("email_sent", "sent to the sales director, marketing copied", sender=w.user.email,
                        to=[director.email], cc=[mkt.email], attachments=[sheet.rsplit("/", 1)[1]],
                        body_contains=[best_now, best_old]))
    return {"instruction": instruction, "dialogue": dialogue, "gold": gold, "checks": checks}
