"""Three-app families about records: whiteboard notes, applicants, sales exports, complaints, memberships."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    act, check, days_ago, docx, eml, head, image, iso, pdf, people, setup, sh, switch, text, weekday_month_day,
    workday_from, xlsx
)
from officesim.tasks.families.registry import family


# ---------------------------------------------------------------------------------------------
@family("whiteboard-notes-share", apps=["ocr", "word", "email"])
def whiteboard_notes_share(rng: random.Random) -> dict:
    """Type the decisions from a whiteboard photo into the meeting notes and send them to the attendees."""
    org, domain, (me, *staff), now = setup(rng, 6)
    att = staff[:3]
    topic = rng.choice(["Launch planning", "Office move", "Hiring plan", "Website refresh"])
    launch = workday_from(now, 20)
    cap = rng.randrange(8, 40)
    owner = att[rng.randrange(3)]
    decisions = [f"Launch date {iso(launch)}", f"Budget cap {cap}k", f"Owner {owner['first']}"]
    photo = "data/scans/whiteboard.png"
    notes = f"data/meetings/{iso(now)}_{topic.lower().replace(' ', '_')}.docx"
    paras = [{"text": f"{topic} - {weekday_month_day(now)}", "style": "Heading 1"},
             "Attendees: " + ", ".join(f"{p['name']} ({p['email']})" for p in att), "Discussion: see board."]
    write = lambda ds: act("word", "write_to_file", file_path=notes, contents="Decisions:\n" + "\n".join(ds))
    emails = [p["email"] for p in att]
    mail = lambda to: act("email", "send_email", sender=me["email"], recipient=to, subject=f"{topic} - notes",
                          content="Hi all,\n\nthe notes with today's decisions are attached.\n\n" + me["first"],
                          attachments=[notes])
    return {
        **head(me, now),
        "instruction": (f"I photographed the whiteboard after today's {topic.lower()} meeting ({photo}). Add a line "
                        f"'Decisions:' at the end of {notes}, followed by each decision from the board as its own line, "
                        f"exactly as written there. Then email the notes as an attachment to the attendees listed in the "
                        f"document (all in To)."),
        "office": [image(photo, ["DECISIONS"] + decisions, font_size=30),
                   image("data/scans/old_whiteboard.png", ["IDEAS", "Team photo day", "New plants"], font_size=30),
                   docx(notes, paras),
                   eml(me["email"], "msg-1", staff[3]["email"], "Board photo", "Please wipe the board after use.",
                       days_ago(now, 5, 9))],
        "checks": [check("contains", file=notes, text=["Discussion: see board", "Decisions:", *decisions], ordered=True,
                         exclude=["Team photo day", "New plants"]),
                   *[check("docx_has_paragraph", file=notes, text=line) for line in ["Decisions:", *decisions]],
                   check("email_sent", sender=me["email"], to=emails, attachments=[notes.rsplit("/", 1)[1]])],
        "gold": [switch("ocr"), act("ocr", "recognize_file", file_path=photo), switch("word"),
                 act("word", "read_file", file_path=notes), write(decisions), switch("email"), mail(emails)],
        "wrong": [
            {"name": "copies the old board's notes", "actions": [
                switch("word"), write(["Team photo day", "New plants"]), switch("email"), mail(emails)]},
            {"name": "misses one attendee", "actions": [switch("word"), write(decisions), switch("email"),
                                                        mail(emails[:2])]},
            {"name": "mails the notes before adding the decisions", "actions": [
                switch("email"), mail(emails), switch("word"), write(decisions)]},
            {"name": "also sends them to the colleague who mailed about the board", "actions": [
                switch("word"), write(decisions), switch("email"), mail(emails + [staff[3]["email"]])]},
            {"name": "decisions without the 'Decisions:' line", "actions": [
                switch("word"), act("word", "write_to_file", file_path=notes, contents="\n".join(decisions)),
                switch("email"), mail(emails)]},
            {"name": "one attendee in To, the others in Cc", "actions": [
                switch("word"), write(decisions), switch("email"),
                act("email", "send_email", sender=me["email"], recipient=emails[0], cc=emails[1:],
                    subject=f"{topic} - notes", content="Notes attached.", attachments=[notes])]},
        ],
        "right": [
            {"name": "one line per write, another subject and wording", "actions": [
                switch("word"), *[act("word", "write_to_file", file_path=notes, contents=line)
                                  for line in ["Decisions:", *decisions]],
                switch("email"), act("email", "send_email", sender=me["email"], recipient=list(reversed(emails)),
                                     subject="Meeting notes", content="Attached: today's notes with the decisions.",
                                     attachments=[f"/testbed/{notes}"])]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("candidate-shortlist", apps=["pdf", "excel", "shell"])
def candidate_shortlist(rng: random.Random) -> dict:
    """Screen CVs (PDF) against two criteria, shortlist the fits in a sheet and move the rest to 'declined'."""
    org, domain, (me, _), now = setup(rng, 2)
    role = rng.choice(["Accountant", "Project Coordinator", "Data Engineer", "Facilities Manager"])
    cert = {"Accountant": "ACCA", "Project Coordinator": "PRINCE2", "Data Engineer": "Cloud Associate",
            "Facilities Manager": "IOSH"}[role]
    min_years = rng.choice([3, 4, 5])
    cands = people(rng, 5, "mailbox.test")
    # (years, has certificate): two fit, the others miss one criterion each (one sits just below the bar)
    profiles = [(min_years + 2, True), (min_years, True), (min_years - 1, True), (min_years + 4, False),
                (min_years + 1, False)]
    rng.shuffle(profiles)
    folder = "data/applicants"
    files, office = [], []
    for c, (y, has) in zip(cands, profiles):
        f = f"{folder}/cv_{c['first'].lower()}_{c['name'].split()[1].lower()}.pdf"
        files.append(f)
        lines = [f"Curriculum vitae - {c['name']}", f"Email: {c['email']}", f"Applying for: {role}",
                 f"Experience: {y} years", "Certifications: " + (cert if has else "none"), "Languages: English"]
        office.append(pdf(f, ["\n".join(lines)]))
    fit = sorted((k for k, (y, has) in enumerate(profiles) if y >= min_years and has), key=lambda k: files[k])
    rest = [k for k in range(5) if k not in fit]
    sheet = f"data/hiring/{role.lower().replace(' ', '_')}_shortlist.xlsx"
    office.append(xlsx(sheet, {"Shortlist": [["Name", "Email", "Years"]]}))
    declined = f"{folder}/declined"

    def rows(ks):
        out = []
        for r, k in enumerate(ks, start=2):
            out += [act("excel", "set_cell", file_path=sheet, row_idx=r, column_idx=c, text=v)
                    for c, v in enumerate([cands[k]["name"], cands[k]["email"], profiles[k][0]], start=1)]
        return out

    mv = lambda ks: sh(f"mkdir -p {declined} && mv " + " ".join(files[k] for k in ks) + f" {declined}/")
    near = next(k for k in range(5) if profiles[k][0] == min_years - 1)
    return {
        **head(me, now),
        "instruction": (f"Screen the {role} applications in {folder}/ (one CV PDF each). Shortlist everyone with at "
                        f"least {min_years} years of experience AND the {cert} certification: one row each in {sheet} "
                        f"(name, email, years), in alphabetical order of the CV file names. Move the CVs of everyone "
                        f"else into {declined}/."),
        "office": office,
        "checks": [check("column_values", file=sheet, column="B", values=[cands[k]["email"] for k in fit]),
                   check("column_values", file=sheet, column="C", values=[profiles[k][0] for k in fit]),
                   check("dir_files", dir=declined, names=sorted(files[k].rsplit("/", 1)[1] for k in rest)),
                   *[check("file_exists", file=files[k]) for k in fit]],
        "gold": [switch("pdf"), *[act("pdf", "read_file", pdf_file_path=f) for f in sorted(files)], switch("excel"),
                 *rows(fit), switch("shell"), mv(rest)],
        "wrong": [
            {"name": "lets in the one a year short", "actions": [
                switch("excel"), *rows(sorted(fit + [near], key=lambda k: files[k])), switch("shell"),
                mv([k for k in rest if k != near])]},
            {"name": "ignores the certificate", "actions": [
                switch("excel"), *rows(sorted([k for k in range(5) if profiles[k][0] >= min_years],
                                              key=lambda k: files[k])), switch("shell"), mv([near])]},
            {"name": "copies the declined CVs instead of moving them", "actions": [
                switch("excel"), *rows(fit), switch("shell"),
                sh(f"mkdir -p {declined} && cp " + " ".join(files[k] for k in rest) + f" {declined}/")]},
            {"name": "shortlist in reverse file-name order", "actions": [
                switch("excel"), *rows(list(reversed(fit))), switch("shell"), mv(rest)]},
            {"name": "moves every CV, the shortlisted ones too", "actions": [
                switch("excel"), *rows(fit), switch("shell"), mv(range(5))]},
        ],
        "right": [
            {"name": "rows inserted whole, one move per CV", "actions": [
                switch("excel"), *[act("excel", "insert_row", file_path=sheet, row_idx=r,
                                       values=[cands[k]["name"], cands[k]["email"], str(profiles[k][0])])
                                   for r, k in enumerate(fit, start=2)],
                switch("shell"), sh(f"mkdir -p {declined}"), *[sh(f"mv {files[k]} {declined}/") for k in rest]]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("sales-export-summary", apps=["shell", "excel", "word"])
def sales_export_summary(rng: random.Random) -> dict:
    """Total a month's order export per region with the shell, fill the summary sheet, name the top region."""
    org, domain, (me, _), now = setup(rng, 2)
    regions = rng.sample(["North", "South", "East", "West", "Central"], 4)
    first = now.date().replace(day=1)
    prev_last = first - timedelta(days=1)
    month = prev_last.strftime("%Y-%m")
    lines = ["order_id,date,region,amount"]
    totals = {r: 0 for r in regions}
    for k in range(rng.randrange(25, 40)):
        r = rng.choice(regions)
        amt = rng.randrange(40, 900)
        totals[r] += amt
        lines.append(f"{10000 + k},{month}-{rng.randrange(1, 28):02d},{r},{amt}")
    top = max(regions, key=lambda r: totals[r])
    if sorted(totals.values())[-1] == sorted(totals.values())[-2]:
        totals[top] += 5
        lines.append(f"{10000 + len(lines)},{month}-28,{top},5")
    export = f"data/exports/orders_{month}.csv"
    older = (prev_last.replace(day=1) - timedelta(days=1)).strftime("%Y-%m")
    sheet = "data/reports/regional_sales.xlsx"
    review = f"data/reports/monthly_review_{month}.docx"
    rows = [["Region", "Revenue"]] + [[r, None] for r in regions]
    cmd = f"awk -F, 'NR>1 {{s[$3]+=$4}} END {{for (r in s) print r, s[r]}}' {export}"
    fill = lambda vals: [act("excel", "set_cell", file_path=sheet, row_idx=i, column_idx=2, text=v)
                         for i, v in enumerate(vals, start=2)]
    low = min(regions, key=lambda r: totals[r])
    second = sorted(regions, key=lambda r: totals[r])[-2]
    say = lambda r: act("word", "write_to_file", file_path=review, contents=f"Top region: {r} ({totals[r]})")
    return {
        **head(me, now),
        "instruction": (f"Last month's order export is {export} (columns order_id, date, region, amount). Put each "
                        f"region's total amount in column B of {sheet}, and add the line 'Top region: <region> "
                        f"(<total>)' at the end of {review}."),
        "office": [text(export, "\n".join(lines) + "\n"),
                   text(f"data/exports/orders_{older}.csv", "order_id,date,region,amount\n9001," + older +
                        f"-03,{regions[0]},120\n"),
                   xlsx(sheet, {"Regions": rows}),
                   docx(review, [{"text": f"Monthly review {month}", "style": "Heading 1"}, "Highlights:"])],
        "checks": [check("column_values", file=sheet, column="B", values=[totals[r] for r in regions]),
                   check("contains", file=review, text=["Top region", top, str(totals[top])], ordered=True,
                         exclude=[r for r in regions if r != top])],
        "gold": [switch("shell"), sh(cmd), switch("excel"),
                 act("excel", "read_file", file_path=sheet), *fill([totals[r] for r in regions]), switch("word"),
                 say(top)],
        "wrong": [
            {"name": "names the weakest region", "actions": [switch("excel"), *fill([totals[r] for r in regions]),
                                                             switch("word"), say(low)]},
            {"name": "counts orders instead of summing amounts", "actions": [
                switch("excel"), *fill([sum(1 for l in lines[1:] if l.split(',')[2] == r) for r in regions]),
                switch("word"), say(top)]},
            {"name": "the top region with the runner-up's total", "actions": [
                switch("excel"), *fill([totals[r] for r in regions]), switch("word"),
                act("word", "write_to_file", file_path=review, contents=f"Top region: {top} ({totals[second]})")]},
            {"name": "hedges between the two best regions", "actions": [
                switch("excel"), *fill([totals[r] for r in regions]), switch("word"),
                act("word", "write_to_file", file_path=review,
                    contents=f"Top region: {top} ({totals[top]}) or {second} ({totals[second]})")]},
            {"name": "totals sorted instead of in the sheet's region order", "actions": [
                switch("excel"), *fill(sorted(totals[r] for r in regions)), switch("word"), say(top)]},
            {"name": "totals written as text with thousands separators", "actions": [
                switch("excel"), *fill([f"{totals[r]:,}" for r in regions]), switch("word"), say(top)]},
        ],
        "right": [
            {"name": "the top total with thousands separators and decimals", "actions": [
                switch("excel"), *fill([totals[r] for r in regions]), switch("word"),
                act("word", "write_to_file", file_path=review, contents=f"Top region: {top} ({totals[top]:,.2f})")]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("complaint-case-summary", apps=["email", "shell", "word"])
def complaint_case_summary(rng: random.Random) -> dict:
    """A customer complains by email: find their past tickets in the support export and write a case summary."""
    org, domain, (me, col), now = setup(rng, 2)
    custs = people(rng, 4, "mailbox.test")
    cust = custs[0]
    product = rng.choice(["smart thermostat", "label printer", "standing desk", "coffee machine"])
    lines = ["ticket,customer_email,opened,status,subject"]
    mine, others, open_ = [], [], []
    for k in range(rng.randrange(14, 20)):
        c = custs[0] if k % 4 == 1 else rng.choice(custs[1:])
        tid = f"T-{5000 + k * 7}"
        opened = iso(now - timedelta(days=rng.randrange(5, 200)))
        status = rng.choice(["closed", "closed", "open"])
        lines.append(f"{tid},{c['email']},{opened},{status},{rng.choice(['noise', 'no power', 'delivery', 'refund'])}")
        (mine if c is cust else others).append(tid)
        if c is cust and status == "open":
            open_.append(tid)
    export = "data/support/tickets.csv"
    case = f"data/support/cases/{cust['first'].lower()}_{cust['name'].split()[1].lower()}.docx"
    summary = [f"Case summary: {cust['name']}", f"Customer email: {cust['email']}",
               f"Previous tickets: {len(mine)}", "Ticket ids: " + ", ".join(mine)]
    write = lambda ls: act("word", "write_to_file", file_path=case, contents="\n".join(ls))
    return {
        **head(me, now),
        "instruction": (f"{cust['name']} sent me an angry email about their {product}. Before I call back, write a case "
                        f"summary {case} with the lines 'Case summary: <name>', 'Customer email: <address>', 'Previous "
                        f"tickets: <count>' and 'Ticket ids: <ids separated by comma and space, in file order>', using "
                        f"their tickets in {export}."),
        "office": [text(export, "\n".join(lines) + "\n"),
                   eml(me["email"], "msg-1", cust["email"], f"Third time my {product} fails!",
                       f"Hello,\n\nmy {product} has stopped working AGAIN. I want this fixed this week.\n\n{cust['name']}",
                       days_ago(now, 0, 8, 15)),
                   eml(me["email"], "msg-2", custs[1]["email"], "Thanks", "The replacement works fine, thank you!",
                       days_ago(now, 1, 16))],
        "checks": [check("contains", file=case, text=[f"Case summary: {cust['name']}", cust["email"],
                                                      f"Previous tickets: {len(mine)}", "Ticket ids: " + ", ".join(mine)]),
                   check("not_contains", file=case, text=others)],
        "gold": [switch("email"), act("email", "read_email", username=me["email"], email_id="msg-1"), switch("shell"),
                 sh(f"grep -c '{cust['email']}' {export}; grep '{cust['email']}' {export}"),
                 switch("word"), write(summary)],
        "wrong": [
            {"name": "misses the first ticket", "actions": [switch("word"), write(summary[:2] + [
                f"Previous tickets: {len(mine) - 1}", "Ticket ids: " + ", ".join(mine[1:])])]},
            {"name": "mixes in another customer's tickets", "actions": [switch("word"), write(summary[:2] + [
                f"Previous tickets: {len(mine) + 1}", "Ticket ids: " + ", ".join(mine + others[:1])])]},
            {"name": "ids newest first instead of in file order", "actions": [switch("word"), write(summary[:3] + [
                "Ticket ids: " + ", ".join(reversed(mine))])]},
            {"name": "counts every ticket in the export", "actions": [switch("word"), write(summary[:2] + [
                f"Previous tickets: {len(mine) + len(others)}", summary[3]])]},
            {"name": "only the open tickets", "actions": [switch("word"), write(summary[:2] + [
                f"Previous tickets: {len(open_)}", "Ticket ids: " + ", ".join(open_)])]},
            {"name": "the angry mail's sender name on another customer's case", "actions": [switch("word"), write(
                [f"Case summary: {custs[1]['name']}", f"Customer email: {custs[1]['email']}"] + summary[2:])]},
        ],
        "right": [
            {"name": "one line per write", "actions": [switch("word")] + [write([line]) for line in summary]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("membership-application-entry", apps=["ocr", "excel", "word"])
def membership_application_entry(rng: random.Random) -> dict:
    """Enter a scanned membership application in the register and write the welcome letter from the template."""
    org, domain, (me, _), now = setup(rng, 2)
    club = rng.choice(["Riverside Rowing Club", "Hilltop Chess Society", "Old Town Choir", "Harbour Cycling Club"])
    applicant = people(rng, 1, "mailbox.test")[0]
    tier, fee = rng.choice([("Standard", 60), ("Student", 25), ("Family", 110), ("Senior", 35)])
    scan = "data/scans/application.png"
    reg = "data/members/register.xlsx"
    no = rng.randrange(200, 400)
    rows = [["Member no", "Name", "Email", "Tier", "Joined"]] + [
        [no - 2 + k, p["name"], p["email"], rng.choice(["Standard", "Student"]), iso(now - timedelta(days=30 - k))]
        for k, p in enumerate(people(rng, 2, "mailbox.test"))]
    new_no = no
    letter = f"data/members/letters/welcome_{new_no}.docx"
    lines = ["MEMBERSHIP APPLICATION", club.upper(), f"Name: {applicant['name']}", f"Email: {applicant['email']}",
             f"Tier: {tier}", f"Annual fee: {fee}"]
    text_ = (f"Dear {applicant['first']},\nWelcome to the {club}! Your member number is {new_no}.\n"
             f"Your {tier} membership costs {fee} per year.")
    fill = lambda n, t: [act("excel", "set_cell", file_path=reg, row_idx=4, column_idx=c, text=v)
                         for c, v in enumerate([n, applicant["name"], applicant["email"], t, iso(now)], start=1)]
    wrong_tier = "Student" if tier != "Student" else "Standard"
    write = lambda n: act("word", "write_to_file", file_path=letter.replace(str(new_no), str(n)),
                          contents=text_.replace(str(new_no), str(n)))
    return {
        **head(me, now),
        "instruction": (f"A new {club} membership application was scanned to {scan}. Add the applicant to {reg} as a new "
                        f"row (the next member number after the last one, name, email, tier, today's date as "
                        f"YYYY-MM-DD as the join date), then write {letter.replace(str(new_no), '<member no>')} with a "
                        f"short welcome that greets them by first name and states their member number, tier and "
                        f"annual fee."),
        "office": [image(scan, lines, font_size=30), xlsx(reg, {"Members": rows}),
                   docx("data/members/letters/welcome_example.docx", ["Dear Sam,", "Welcome to the club!"])],
        "free": [letter],
        "checks": [check("xlsx_row", file=reg, row=4, values=[new_no, applicant["name"], applicant["email"], tier,
                                                              iso(now)]),
                   check("contains", file=letter, text=[applicant["first"], str(new_no), tier, str(fee)],
                         exclude=[t for t in ["Standard", "Student", "Family", "Senior"] if t != tier] + [str(new_no - 1)]),
                   check("no_repeats", file=letter)],
        "gold": [switch("ocr"), act("ocr", "recognize_file", file_path=scan), switch("excel"),
                 act("excel", "read_file", file_path=reg), *fill(new_no, tier), switch("word"), write(new_no)],
        "wrong": [
            {"name": "reuses the last member number", "actions": [
                switch("excel"), *fill(new_no - 1, tier), switch("word"), write(new_no - 1)]},
            {"name": "overwrites the last member's row", "actions": [
                switch("excel"), *[act("excel", "set_cell", file_path=reg, row_idx=3, column_idx=c, text=v)
                                   for c, v in enumerate([new_no, applicant["name"], applicant["email"], tier, iso(now)],
                                                         start=1)], switch("word"), write(new_no)]},
            {"name": "a welcome letter without the fee", "actions": [
                switch("excel"), *fill(new_no, tier), switch("word"),
                act("word", "write_to_file", file_path=letter, contents=text_.split("\n", 2)[0] + "\n" +
                    text_.split("\n")[1])]},
            {"name": "the welcome written into the example letter", "actions": [
                switch("excel"), *fill(new_no, tier), switch("word"),
                act("word", "write_to_file", file_path="data/members/letters/welcome_example.docx", contents=text_)]},
            {"name": "the letter names another tier", "actions": [
                switch("excel"), *fill(new_no, tier), switch("word"),
                act("word", "write_to_file", file_path=letter, contents=text_.replace(f"Your {tier}", f"Your {wrong_tier}"))]},
        ],
        "right": [
            {"name": "a longer letter in other words, the fee with a currency sign", "actions": [
                switch("excel"), *fill(new_no, tier), switch("word"),
                act("word", "write_to_file", file_path=letter, contents=(
                    f"Hello {applicant['first']},\n\nwe are delighted to have you at the {club}.\n"
                    f"Member number: {new_no}\nMembership: {tier}\nAnnual fee: ${fee}.00\n\nSee you soon!"))]},
        ],
    }
