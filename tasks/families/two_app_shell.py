"""Two-app families where the shell does the file work (shell + excel, email, word, pdf, calendar)."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    act, at, check, ev, fmt, head, hm, ics, iso, other_companies, pdf, people, setup, sh, switch, text,
    weekday_day_month, workday_after, workday_before, xlsx
)
from officesim.tasks.families.registry import family


@family("paid-invoices-filing", apps=["excel", "shell"])
def paid_invoices_filing(rng: random.Random) -> dict:
    """Move the PDFs of invoices the register marks as paid from the incoming folder to the paid folder."""
    org, domain, (me,), now = setup(rng, 1)
    sups = other_companies(rng, domain, 4)
    base = rng.randrange(4000, 4800)
    rows = [["Invoice", "Supplier", "Amount", "Status", "Paid on"]]
    n = 6
    paid_idx = set(rng.sample(range(n), 3))
    files, paid, unpaid = [], [], []
    for k in range(n):
        inv = f"INV-{base + 3 * k}"
        sup = sups[k % 4][0]
        st = "Paid" if k in paid_idx else rng.choice(["Open", "Disputed", "Open"])
        rows.append([inv, sup, rng.randrange(100, 6000, 5), st, iso(now - timedelta(days=rng.randrange(2, 20))) if st == "Paid" else None])
        fname = f"{inv}.pdf"
        files.append(pdf(f"data/invoices/incoming/{fname}", [f"{sup}\nINVOICE {inv}\nThank you for your business."]))
        (paid if st == "Paid" else unpaid).append(fname)
    reg = "data/invoices/register.xlsx"
    inc, dst = "data/invoices/incoming", "data/invoices/paid"
    mv = lambda names: f"mkdir -p {dst} && mv " + " ".join(f"{inc}/{x}" for x in names) + f" {dst}/"  # noqa: E731
    return {
        **head(me, now),
        "instruction": (f"Tidy up {inc}/: move the PDF of every invoice marked Paid in {reg} into {dst}/ "
                        "(create it if needed). The others stay where they are."),
        "office": [xlsx(reg, {"Register": rows})] + files,
        "checks": [check("dir_files", dir=dst, names=sorted(paid)), check("dir_files", dir=inc, names=sorted(unpaid))],
        "gold": [switch("excel"), act("excel", "read_file", file_path=reg), switch("shell"),
                 sh(f"ls {inc}"), sh(mv(paid))],
        "wrong": [
            {"name": "moves everything", "actions": [switch("shell"), sh(mv(paid + unpaid))]},
            {"name": "misses one paid invoice", "actions": [switch("shell"), sh(mv(paid[:-1]))]},
            {"name": "copies the paid ones instead of moving them",
             "actions": [switch("shell"), sh(mv(paid).replace(" && mv ", " && cp "))]},
            {"name": "moves the unpaid ones instead", "actions": [switch("shell"), sh(mv(unpaid))]},
            {"name": "moves the paid ones and deletes the rest",
             "actions": [switch("shell"), sh(mv(paid)), sh("rm " + " ".join(f"{inc}/{x}" for x in unpaid))]},
        ],
        "right": [
            {"name": "one move per file, absolute paths",
             "actions": [switch("shell"), sh(f"mkdir -p /testbed/{dst}")]
                        + [sh(f"mv /testbed/{inc}/{x} /testbed/{dst}/{x}") for x in paid]},
        ],
    }


@family("optin-announcement-mail", apps=["shell", "email"])
def optin_announcement_mail(rng: random.Random) -> dict:
    """Announce a branch opening to the customers of one region who opted in to news, from the CRM export."""
    org, domain, (me,), now = setup(rng, 1)
    region = rng.choice(["North", "Coast", "Valley", "Central"])
    others = [r for r in ["North", "Coast", "Valley", "Central", "Lakes"] if r != region]
    customers = []
    pool = people(rng, 12, "mail.test")
    plan = [(region, "yes")] * 3 + [(region, "no")] * 2 + [(rng.choice(others), "yes") for _ in range(4)] + \
           [(rng.choice(others), rng.choice(["yes", "no"])) for _ in range(3)]
    rng.shuffle(plan)
    for p, (r, opt) in zip(pool, plan):
        customers.append((p["name"], p["email"], r, opt))
    targets = [c[1] for c in customers if c[2] == region and c[3] == "yes"]
    no_news = [c[1] for c in customers if c[2] == region and c[3] == "no"]
    csv = "name,email,region,newsletter\n" + "".join(f"{n},{e},{r},{o}\n" for n, e, r, o in customers)
    opening = workday_after(now.date(), rng.randrange(8, 15))
    town = rng.choice(["Fairholm", "Brookhaven", "Redcliff", "Easton"])
    body = (f"Dear customer,\n\nWe're opening our new {town} branch on {weekday_day_month(opening)}. Come and "
            f"visit us for coffee and a look around.\n\nThe team at {org}")
    send = lambda to: act("email", "send_email", sender=me["email"], recipient=to,  # noqa: E731
                          subject=f"Our new {town} branch opens {weekday_day_month(opening)}", content=body)
    return {
        **head(me, now),
        "instruction": (f"Please email the announcement of our new {town} branch (opening "
                        f"{weekday_day_month(opening)}) to our customers in the {region} region who said yes to the "
                        "newsletter. The customer export is data/crm/customers.csv. Send one email with all of them as "
                        "recipients."),
        "office": [text("data/crm/customers.csv", csv),
                   text("data/crm/unsubscribed_2025.csv", f"email\n{no_news[0]}\n")],
        "checks": [check("email_sent", sender=me["email"], to=targets, body_contains=[town, iso(opening)]),
                   check("email_not_sent", sender=me["email"], to=no_news[0])],
        "gold": [switch("shell"),
                 sh(f"awk -F, '$3 == \"{region}\" && $4 == \"yes\" {{print $2}}' data/crm/customers.csv"),
                 switch("email"), send(targets)],
        "wrong": [
            {"name": "includes the region's customers who said no",
             "actions": [switch("email"), send(targets + no_news)]},
            {"name": "leaves one opted-in customer out", "actions": [switch("email"), send(targets[:-1])]},
            {"name": "one email per customer instead of one to all",
             "actions": [switch("email")] + [send(t) for t in targets]},
            {"name": "announces the opening a week late", "actions": [switch("email"), act(
                "email", "send_email", sender=me["email"], recipient=targets, subject=f"Our new {town} branch",
                content=body.replace(weekday_day_month(opening), weekday_day_month(opening + timedelta(days=7))))]},
            {"name": "every customer who said yes, whatever the region",
             "actions": [switch("email"), send([c[1] for c in customers if c[3] == "yes"])]},
        ],
        "right": [
            {"name": "another subject and wording, the date in figures", "actions": [switch("email"), act(
                "email", "send_email", sender=me["email"], recipient=list(reversed(targets)),
                subject=f"{town} branch opening",
                content=f"Hello! {org} opens a new branch in {town} on {opening.strftime('%d/%m/%Y')}. "
                        "We hope to see you there.")]},
        ],
    }


@family("my-action-items-collect", apps=["shell", "word"])
def my_action_items_collect(rng: random.Random) -> dict:
    """Gather the user's action items from a folder of plain-text meeting notes into a Word checklist."""
    org, domain, folks, now = setup(rng, 4)
    me = folks[0]
    inits = {p["email"]: p["first"][0] + p["name"].split()[1][0] for p in folks}
    if len(set(inits.values())) < 4:
        inits = {p["email"]: p["first"][:2].upper() + p["name"].split()[1][0] for p in folks}
    mine_tag = inits[me["email"]]
    pool = ["renew the domain name", "order new badges", "write the release notes", "ask legal about the NDA",
            "book the team offsite", "clean up the shared drive", "send the survey link", "update the org chart",
            "archive last year's tickets", "check the fire extinguisher dates", "fix the projector cable",
            "reply to the auditors", "plan the summer rota", "draft the job advert"]
    rng.shuffle(pool)
    files, mine, theirs = [], [], []
    k = 0
    for f in range(3):
        d = workday_before(now.date(), 3 - f)
        lines = [f"Meeting notes {iso(d)}", "Discussed status of open projects.", ""]
        for j in range(4):
            who = folks[0] if (f + j) % 3 == 0 else folks[1 + (f + j) % 3]
            item = pool[k]
            k += 1
            lines.append(f"ACTION {inits[who['email']]}: {item}")
            (mine if who is me else theirs).append(item)
        lines.append("Next meeting in one week.")
        files.append(text(f"data/notes/{iso(d)}.txt", "\n".join(lines) + "\n"))
    doc = "data/my_actions.docx"
    return {
        **head(me, now),
        "instruction": (f"The meeting notes in data/notes/ mark action items as 'ACTION <initials>: ...'; mine are "
                        f"'ACTION {mine_tag}'. Put all my action items into a new Word document {doc}, one item per "
                        "paragraph, without the 'ACTION' prefix."),
        "office": files + [text("data/notes/README.txt", "One file per meeting.\n")],
        "checks": [check("docx_has_paragraph", file=doc, text=i, case_sensitive=False) for i in mine]
                  + [check("not_contains", file=doc, text=theirs)],
        "gold": [switch("shell"), sh(f"grep -h '^ACTION {mine_tag}:' data/notes/*.txt"),
                 switch("word"), act("word", "create_new_file", file_path=doc),
                 act("word", "write_to_file", file_path=doc, contents="\n".join(mine))],
        "wrong": [
            {"name": "only the latest meeting's items",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc, contents="\n".join(
                 mine[-1:]))]},
            {"name": "every action item of every person",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc, contents="\n".join(mine + theirs))]},
            {"name": "keeps the 'ACTION <initials>:' prefix",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc,
                                             contents="\n".join(f"ACTION {mine_tag}: {i}" for i in mine))]},
            {"name": "all items in one paragraph",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc, contents="; ".join(mine))]},
            {"name": "misses one of my items",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc, contents="\n".join(mine[1:]))]},
            {"name": "a colleague's item in place of one of mine",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc,
                                             contents="\n".join(mine[:-1] + theirs[:1]))]},
        ],
        "right": [
            {"name": "capitalised bullet points in another order",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc, contents="\n".join(
                 f"- {i[0].upper()}{i[1:]}." for i in reversed(mine)))]},
        ],
    }


@family("orders-csv-to-dashboard", apps=["shell", "excel"])
def orders_csv_to_dashboard(rng: random.Random) -> dict:
    """Count yesterday's orders and their revenue from the exported CSV and enter them in the dashboard."""
    org, domain, (me,), now = setup(rng, 1, weekdays=(1, 2, 3))
    y = (now - timedelta(days=1)).date()
    regions = ["North", "South", "East", "West"]
    def export(d, n):  # noqa: E306
        rows, rev = ["order_id,date,region,amount"], 0.0
        for i in range(n):
            amt = rng.randrange(1500, 40000) / 100
            rev += amt
            rows.append(f"{d.strftime('%y%m%d')}{i:03d},{iso(d)},{rng.choice(regions)},{amt:.2f}")
        return "\n".join(rows) + "\n", round(rev, 2)
    n = rng.randrange(14, 30)
    csv_y, rev_y = export(y, n)
    d0 = y - timedelta(days=1)
    csv_0, rev_0 = export(d0, rng.randrange(10, 30))
    dash = "data/reports/sales_dashboard.xlsx"
    monday = y - timedelta(days=y.weekday())
    rows = [["Date", "Orders", "Revenue"]]
    row_of = {}
    for i in range(5):
        d = monday + timedelta(days=i)
        if d < d0:
            rows.append([iso(d), rng.randrange(10, 30), round(rng.randrange(200000, 900000) / 100, 2)])
        elif d == d0:
            rows.append([iso(d), csv_0.count("\n") - 1, rev_0])
        else:
            rows.append([iso(d), None, None])
        row_of[d] = len(rows)
    r = row_of[y]
    fill = lambda cnt, rev: [act("excel", "set_cell", file_path=dash, row_idx=r, column_idx=2, text=cnt),  # noqa: E731
                             act("excel", "set_cell", file_path=dash, row_idx=r, column_idx=3, text=rev)]
    return {
        **head(me, now),
        "instruction": (f"The shop exports each day's orders to data/exports/orders_<date>.csv. Fill in yesterday's row "
                        f"of {dash}: the number of orders and the total revenue (sum of the amount column)."),
        "office": [
            text(f"data/exports/orders_{iso(y)}.csv", csv_y),
            text(f"data/exports/orders_{iso(d0)}.csv", csv_0),
            xlsx(dash, {"Week": rows}),
        ],
        "checks": [check("xlsx_cell", file=dash, cell=f"B{r}", value=n),
                   check("cell_compare", file=dash, cell=f"C{r}", op=">=", value=round(rev_y - 0.01, 2)),
                   check("cell_compare", file=dash, cell=f"C{r}", op="<=", value=round(rev_y + 0.01, 2))],
        "gold": [switch("shell"),
                 sh(f"tail -n +2 data/exports/orders_{iso(y)}.csv | wc -l"),
                 sh(f"awk -F, 'NR>1 {{s+=$4}} END {{printf \"%.2f\\n\", s}}' data/exports/orders_{iso(y)}.csv"),
                 switch("excel"), act("excel", "read_file", file_path=dash)] + fill(n, rev_y),
        "wrong": [
            {"name": "counts the header line as an order", "actions": [switch("excel")] + fill(n + 1, rev_y)},
            {"name": "uses the day before yesterday's export",
             "actions": [switch("excel")] + fill(csv_0.count("\n") - 1, rev_0)},
            {"name": "yesterday's figures in today's row",
             "actions": [switch("excel")] + [act("excel", "set_cell", file_path=dash, row_idx=r + 1, column_idx=2, text=n),
                                             act("excel", "set_cell", file_path=dash, row_idx=r + 1, column_idx=3,
                                                 text=rev_y)]},
            {"name": "the right count with the day before's revenue", "actions": [switch("excel")] + fill(n, rev_0)},
            {"name": "revenue without the last order", "actions": [switch("excel")] + fill(
                n, round(rev_y - float(csv_y.strip().rsplit(",", 1)[1]), 2))},
            {"name": "revenue written as text with a currency sign and thousands separator",
             "actions": [switch("excel")] + fill(n, f"${rev_y:,.2f}")},
        ],
        "right": [
            {"name": "count and revenue written as formulas",
             "actions": [switch("excel")] + fill(f"={n}", f"={rev_y}")},
        ],
    }


@family("print-previews-from-pdfs", apps=["shell", "pdf"])
def print_previews_from_pdfs(rng: random.Random) -> dict:
    """Find every flyer PDF in a nested marketing folder and make a PNG of each for the print shop."""
    org, domain, (me,), now = setup(rng, 1)
    campaigns = rng.sample(["spring_sale", "open_day", "charity_run", "new_branch", "loyalty_card"], 3)
    flyers = [f"data/marketing/{campaigns[0]}/flyer.pdf",
              f"data/marketing/{campaigns[1]}/final/flyer_{rng.choice(['a5', 'a4'])}.pdf",
              f"data/marketing/{campaigns[2]}/drafts/v{rng.randrange(2, 5)}/flyer.pdf"]
    others = [f"data/marketing/{campaigns[0]}/budget.pdf", f"data/marketing/{campaigns[1]}/brief.pdf"]
    out = "data/print_shop"
    target = lambda p: f"{out}/{p.split('/')[2]}.png"  # noqa: E731
    office = [pdf(p, [f"{p.split('/')[2].replace('_', ' ').upper()}\nCome and see us!"])
              for p in flyers]
    office += [pdf(p, ["Internal document, not for print."]) for p in others]
    return {
        **head(me, now),
        "instruction": ("The print shop wants PNG images of our flyers. Every flyer is a PDF whose file name starts "
                        "with 'flyer', somewhere under data/marketing/ (the campaign folders are nested). Make one PNG "
                        f"per flyer in {out}/, named after its campaign folder, e.g. {out}/{campaigns[0]}.png."),
        "office": office,
        "checks": [check("dir_files", dir=out, names=sorted([target(p).rsplit("/", 1)[1] for p in flyers]))]
                  + [check("file_exists", file=target(p)) for p in flyers],
        "gold": [switch("shell"), sh("find data/marketing -name 'flyer*.pdf'"),
                 sh(f"mkdir -p {out}"), switch("pdf")]
                + [act("pdf", "convert_to_image", pdf_file_path=p, image_file_path=target(p)) for p in flyers],
        "wrong": [
            {"name": "misses the flyer nested in the drafts folder",
             "actions": [switch("shell"), sh(f"mkdir -p {out}"), switch("pdf")]
                        + [act("pdf", "convert_to_image", pdf_file_path=p, image_file_path=target(p)) for p in flyers[:2]]},
            {"name": "converts every PDF, internal documents too",
             "actions": [switch("shell"), sh(f"mkdir -p {out}"), switch("pdf")]
                        + [act("pdf", "convert_to_image", pdf_file_path=p,
                               image_file_path=f"{out}/{p.split('/')[2]}_{p.rsplit('/', 1)[1][:-4]}.png")
                           for p in flyers + others]},
            {"name": "named after the PDF files instead of the campaigns",
             "actions": [switch("shell"), sh(f"mkdir -p {out}"), switch("pdf")]
                        + [act("pdf", "convert_to_image", pdf_file_path=p,
                               image_file_path=f"{out}/{p.rsplit('/', 1)[1][:-4]}.png") for p in flyers]},
            {"name": "the drafts flyer named after its version folder",
             "actions": [switch("shell"), sh(f"mkdir -p {out}"), switch("pdf")]
                        + [act("pdf", "convert_to_image", pdf_file_path=p,
                               image_file_path=target(p) if "/drafts/" not in p else f"{out}/{p.split('/')[-2]}.png")
                           for p in flyers]},
            {"name": "the PNGs left beside the PDFs",
             "actions": [switch("pdf")] + [act("pdf", "convert_to_image", pdf_file_path=p, image_file_path=p[:-4] + ".png")
                                           for p in flyers]},
        ],
        "right": [
            {"name": "first page named explicitly, flyers in another order, absolute paths",
             "actions": [switch("pdf")] + [act("pdf", "convert_to_image", pdf_file_path=f"/testbed/{p}",
                                               image_file_path=f"/testbed/{target(p)}", page=1)
                                           for p in reversed(flyers)]},
        ],
    }


@family("maintenance-slots-calendar", apps=["shell", "calendar"])
def maintenance_slots_calendar(rng: random.Random) -> dict:
    """Block the calendar for next week's maintenance visits to the user's floor, from a plain-text schedule."""
    org, domain, (me,), now = setup(rng, 1)
    floor = rng.randrange(2, 7)
    monday = now.date() + timedelta(days=7 - now.weekday())
    works = ["Window cleaning", "Carpet shampoo", "Air filter change", "Fire alarm test", "Network cabling",
             "Desk repairs"]
    entries, mine = [], []
    used = set()
    for k in range(8):
        d = monday + timedelta(days=rng.randrange(5))
        h = rng.choice([8, 9, 10, 13, 14, 15])
        fl = floor if k < 2 else rng.choice([f for f in range(1, 8) if f != floor])
        w = rng.choice(works)
        if (d, h) in used or (k < 2 and any(m[0] == w for m in mine)):
            w = works[k % len(works)]
            h = [8, 9, 10, 13, 14, 15][k % 6]
        used.add((d, h))
        e = (w, at(d, h), at(d, h + 1), fl)
        entries.append(e)
        if fl == floor:
            mine.append(e)
    entries.sort(key=lambda x: (x[1], x[3]))
    txt = "Facilities schedule - week of " + iso(monday) + "\n" + "\n".join(
        f"{iso(s)} {hm(s)}-{hm(e)} | Floor {f} | {w}" for w, s, e, f in entries) + "\n"
    old = f"Facilities schedule - week of {iso(monday - timedelta(days=7))}\n{iso(monday - timedelta(days=5))} 09:00-10:00 | Floor {floor} | Window cleaning\n"
    create = lambda x: act("calendar", "create_event", user=me["email"], summary=x[0], time_start=fmt(x[1]),  # noqa: E731
                           time_end=fmt(x[2]))
    other = next(x for x in entries if x[3] != floor)
    existing = [ev("Team lunch", at(monday, 12), at(monday, 13))]
    grep = f"grep '| Floor {floor} |' data/facilities/schedule_{iso(monday)}.txt"
    return {
        **head(me, now),
        "instruction": (f"I sit on floor {floor}. The facilities schedule for next week is "
                        f"data/facilities/schedule_{iso(monday)}.txt. Add every job planned on my floor to my calendar "
                        "with the job as the title and its start and end time, so I can plan around it."),
        "office": [text(f"data/facilities/schedule_{iso(monday)}.txt", txt),
                   text(f"data/facilities/schedule_{iso(monday - timedelta(days=7))}.txt", old),
                   ics(me["email"], existing)],
        "checks": [check("ics_event", user=me["email"], summary=x[0], start=fmt(x[1]), end=fmt(x[2])) for x in mine]
                  + [check("ics_event_count", user=me["email"], count=1 + len(mine))],
        "gold": [switch("shell"), sh(grep), switch("calendar")] + [create(x) for x in mine],
        "wrong": [
            {"name": "adds a job from another floor too",
             "actions": [switch("calendar")] + [create(x) for x in mine + [other]]},
            {"name": "adds only the first job", "actions": [switch("calendar"), create(mine[0])]},
            {"name": "adds last week's job on my floor too", "actions": [switch("calendar")] + [create(x) for x in mine] + [
                create(("Window cleaning", at(monday - timedelta(days=5), 9), at(monday - timedelta(days=5), 10), floor))]},
            {"name": "adds every job twice", "actions": [switch("calendar")] + [create(x) for x in mine + mine]},
            {"name": "a generic title instead of the job",
             "actions": [switch("calendar")] + [create(("Maintenance",) + x[1:]) for x in mine]},
        ],
        "right": [
            {"name": "titles in lower case, in another order",
             "actions": [switch("calendar")] + [create((x[0].lower(),) + x[1:]) for x in reversed(mine)]},
        ],
    }


@family("latest-report-send", apps=["shell", "email"])
def latest_report_send(rng: random.Random) -> dict:
    """Find the most recent weekly report among many files and mail it to the manager as an attachment."""
    org, domain, (me, boss), now = setup(rng, 2)
    fridays = []
    d = now.date() - timedelta(days=(now.weekday() - 4) % 7 or 7)
    for _ in range(5):
        fridays.append(d)
        d -= timedelta(days=7)
    office = []
    for f in fridays:
        office.append(pdf(f"data/reports/weekly/weekly_report_{iso(f)}.pdf",
                          [f"Weekly report\nWeek ending {iso(f)}\nAll projects on track."]))
    office.append(pdf(f"data/reports/monthly/monthly_report_{iso(fridays[0] - timedelta(days=2))}.pdf",
                      ["Monthly report"]))
    rng.shuffle(office)
    latest = f"weekly_report_{iso(fridays[0])}.pdf"
    monthly = f"data/reports/monthly/monthly_report_{iso(fridays[0] - timedelta(days=2))}.pdf"
    send = lambda name: act("email", "send_email", sender=me["email"], recipient=boss["email"],  # noqa: E731
                            subject="Latest weekly report", content=f"Hi {boss['first']},\n\nAttached is the latest "
                            f"weekly report.\n\n{me['first']}", attachments=[f"data/reports/weekly/{name}"])
    return {
        **head(me, now),
        "instruction": (f"Please email the most recent weekly report from data/reports/weekly/ to {boss['name']} "
                        f"({boss['email']}) as an attachment."),
        "office": office,
        "checks": [check("email_sent", sender=me["email"], to=boss["email"], attachments=[latest]),
                   check("email_not_sent", sender=me["email"], to=boss["email"], subject_contains="monthly")],
        "gold": [switch("shell"), sh("ls data/reports/weekly | sort | tail -n 1"),
                 switch("email"), send(latest)],
        "wrong": [
            {"name": "attaches the oldest report (sorted the wrong way)",
             "actions": [switch("email"), send(f"weekly_report_{iso(fridays[-1])}.pdf")]},
            {"name": "attaches the week before", "actions": [switch("email"), send(f"weekly_report_{iso(fridays[1])}.pdf")]},
            {"name": "attaches the monthly report as well", "actions": [switch("email"), act(
                "email", "send_email", sender=me["email"], recipient=boss["email"], subject="Latest reports",
                content="Attached.", attachments=[f"data/reports/weekly/{latest}", monthly])]},
            {"name": "mentions the report but attaches nothing", "actions": [switch("email"), act(
                "email", "send_email", sender=me["email"], recipient=boss["email"], subject="Latest weekly report",
                content=f"The latest weekly report is {latest}.")]},
        ],
        "right": [
            {"name": "copies me in", "actions": [switch("email"), act(
                "email", "send_email", sender=me["email"], recipient=boss["email"], cc=[me["email"]],
                subject="Latest weekly report", content="Attached.", attachments=[f"data/reports/weekly/{latest}"])]},
            {"name": "another subject and wording, an absolute attachment path", "actions": [switch("email"), act(
                "email", "send_email", sender=me["email"], recipient=boss["email"],
                subject=f"Weekly report {iso(fridays[0])}", content="Here it is.",
                attachments=[f"/testbed/data/reports/weekly/{latest}"])]},
        ],
    }
