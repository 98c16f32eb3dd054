"""Two-app families where the instruction leaves out what only the user knows (who gets the mail, the
day, which of two invoices, who covers): the right outcome needs system.ask_user, and a guess from the
office's distractors fails (tasks/FORMAT.md §4, asking the user). One family states everything."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    act, ask, at, check, days_ago, docx, eml, ev, fmt, head, ics, iso, outsider, pdf, people, setup, switch,
    weekday_day_month, workday_from, xlsx
)
from officesim.tasks.families.registry import family


def _expenses(rng: random.Random):
    items = rng.sample(["Travel", "Hotel", "Meals", "Software", "Printing", "Training", "Taxi", "Postage"], 5)
    amounts = [rng.randrange(40, 900) for _ in items]
    return [["Item", "Amount"]] + [[i, a] for i, a in zip(items, amounts)], sum(amounts)


def _total_mail(rng: random.Random, given: bool) -> dict:
    org, domain, (me,), now = setup(rng, 1)
    firm, fdomain, (a, b) = outsider(rng, domain, 2)
    right, other = (a, b) if rng.random() < 0.5 else (b, a)
    month = now.strftime("%B")
    path = f"data/finance/expenses_{month.lower()}.xlsx"
    rows, total = _expenses(rng)
    subject = f"{month} expenses total"
    body = f"Hello {right['first']},\n\nThe {month} expenses total is {total}.\n\nBest regards,\n{me['name']}"
    send = lambda p, text: act("email", "send_email", sender=me["email"], recipient=p["email"],  # noqa: E731
                               subject=subject, content=text)
    who = f"{right['name']} at {firm}" if given else f"our accountant at {firm}"
    task = {
        **head(me, now),
        "instruction": (f"Add up the Amount column of {path} and email the total to {who}, with the subject "
                        f"'{subject}'."),
        "office": [
            xlsx(path, {"Expenses": rows}),
            eml(me["email"], "msg-1", a["email"], "Year-end closing", f"Hi {me['first']},\n\nI will prepare the "
                f"year-end closing for {org}.\n\n{a['name']}\n{firm}", days_ago(now, 9, 11)),
            eml(me["email"], "msg-2", b["email"], "Monthly figures", f"Hi {me['first']},\n\nSend me the monthly "
                f"figures whenever they are ready.\n\n{b['name']}\n{firm}", days_ago(now, 3, 14)),
        ],
        "checks": [check("email_sent", sender=me["email"], to=right["email"], subject=subject, body_contains=[total]),
                   check("email_not_sent", sender=me["email"], to=other["email"])],
        "gold": [switch("excel"), act("excel", "read_file", file_path=path), switch("email"),
                 act("email", "list_emails", username=me["email"]), send(right, body)],
        "wrong": [{"name": "the other accountant", "actions": [switch("email"),
                                                               send(other, body.replace(right["first"], other["first"]))]},
                  {"name": "a total without the last row", "actions": [switch("email"), send(
                      right, body.replace(str(total), str(total - rows[-1][1])))]}],
    }
    if given:
        task["user_replies"] = [{"when": ["who", "which", "accountant"], "reply": f"{right['name']}, as I said."}]
    else:
        task["gold"] = [ask(f"Two people at {firm} have written to you ({a['name']} and {b['name']}); which one is "
                            f"the accountant to send the total to?")] + task["gold"]
        task["user_replies"] = [
            {"when": ["who", "which", "accountant", "recipient", "send", a["first"], b["first"]],
             "reply": f"{right['name']} does our monthly figures.", "needed": True,
             "guess": {right["email"]: other["email"], right["first"]: other["first"]}},
        ]
    return task


@family("ask-total-recipient", apps=["excel", "email"])
def ask_total_recipient(rng: random.Random) -> dict:
    """Email a sheet's total to 'our accountant' at a firm where two people wrote; the user says which."""
    return _total_mail(rng, given=False)


@family("given-total-recipient", apps=["excel", "email"])
def given_total_recipient(rng: random.Random) -> dict:
    """Email a sheet's total to a named accountant (everything given: a question is unneeded)."""
    return _total_mail(rng, given=True)


@family("ask-review-date-invite", apps=["calendar", "email"])
def ask_review_date_invite(rng: random.Random) -> dict:
    """Set up a review with a colleague at a given hour and mail them the date; the day is the user's."""
    org, domain, (me, mate), now = setup(rng, 2, weekdays=(0, 1))
    project = rng.choice(["Atlas", "Beacon", "Harbor", "Juniper", "Meridian"])
    summary = f"{project} review"
    hour = rng.choice([10, 11, 14, 15])
    day = workday_from(now, rng.choice([2, 3]))
    guess = workday_from(now, 1)
    create = lambda d: act("calendar", "create_event", user=me["email"], summary=summary,  # noqa: E731
                           time_start=fmt(at(d, hour)), time_end=fmt(at(d, hour) + timedelta(hours=1)),
                           attendees=[mate["email"]])
    body = (f"Hi {mate['first']},\n\nThe {summary} is on {weekday_day_month(day)} at {hour}:00 for one hour.\n\n"
            f"{me['first']}")
    mail = lambda text: act("email", "send_email", sender=me["email"], recipient=mate["email"],  # noqa: E731
                            subject=summary, content=text)
    start = at(day, hour)
    return {
        **head(me, now),
        "instruction": (f"Set up a one-hour '{summary}' with {mate['name']} ({mate['email']}) at {hour}:00 in my "
                        f"calendar, and email {mate['first']} the date, with the subject '{summary}'."),
        "office": [ics(me["email"], [ev("Team standup", at(workday_from(now, d), 9, 30), 15) for d in (1, 2, 3)])],
        "checks": [check("ics_event", user=me["email"], summary=summary, start=fmt(start),
                         end=fmt(start + timedelta(hours=1)), attendees=[mate["email"]]),
                   check("email_sent", sender=me["email"], to=mate["email"], subject=summary,
                         body_contains=[iso(day), f"{hour}:00"], body_excludes=[iso(guess)])],
        "gold": [ask(f"Which day should the {summary} be?"), switch("calendar"), create(day), switch("email"),
                 mail(body)],
        "user_replies": [
            {"when": ["day", "date", "when", "which"], "reply": f"Make it {weekday_day_month(day)}.", "needed": True,
             "guess": {iso(day): iso(guess), weekday_day_month(day): weekday_day_month(guess)}},
        ],
        "wrong": [{"name": "tomorrow", "actions": [switch("calendar"), create(guess), switch("email"),
                                                   mail(body.replace(weekday_day_month(day), weekday_day_month(guess)))]},
                  {"name": "the mail without the date", "actions": [switch("calendar"), create(day), switch("email"),
                                                                    mail(f"Hi {mate['first']},\n\nSee you at the review.")]}],
    }


@family("ask-which-invoice-ledger", apps=["pdf", "excel"])
def ask_which_invoice_ledger(rng: random.Random) -> dict:
    """Enter the amount of the approved one of two supplier invoices; the user says which supplier."""
    org, domain, (me,), now = setup(rng, 1)
    vendors = rng.sample(["Kiln & Co", "Parsec Cleaning", "Velvet Catering", "Anvil Security", "Lumo Printing"], 2)
    amounts = rng.sample(range(900, 6000, 10), 2)
    target = rng.randrange(2)
    paths = [f"data/invoices/{v.split()[0].lower().strip('&')}_invoice.pdf" for v in vendors]
    ledger = "data/finance/approvals.xlsx"
    put = lambda v: act("excel", "set_cell", file_path=ledger, row_idx=2, column_idx=2, text=v)  # noqa: E731
    office = [pdf(p, [f"INVOICE\n{v}\nBill to: {org}\nDate: {iso(now.date() - timedelta(days=5 + i))}\n"
                      f"Total due: {a}"]) for i, (p, v, a) in enumerate(zip(paths, vendors, amounts))]
    office.append(xlsx(ledger, {"Approvals": [["Approved invoice", "Amount"], [None, None]]}))
    return {
        **head(me, now),
        "instruction": (f"I approved one of the two supplier invoices in data/invoices/. Enter its total due in B2 of "
                        f"{ledger} and the supplier's name in A2."),
        "office": office,
        "checks": [check("xlsx_row", file=ledger, row=2, values=[vendors[target], amounts[target]])],
        "gold": [ask("Which of the two supplier invoices did you approve?"), switch("pdf"),
                 act("pdf", "read_file", pdf_file_path=paths[target]), switch("excel"),
                 act("excel", "set_cell", file_path=ledger, row_idx=2, column_idx=1, text=vendors[target]),
                 put(amounts[target])],
        "user_replies": [
            {"when": ["which", "invoice", "approve", "supplier", "vendor", *[v.split()[0] for v in vendors]],
             "reply": f"The one from {vendors[target]}.", "needed": True,
             "guess": {vendors[target]: vendors[1 - target], str(amounts[target]): amounts[1 - target]}},
        ],
        "wrong": [{"name": "the other invoice", "actions": [
            switch("excel"), act("excel", "set_cell", file_path=ledger, row_idx=2, column_idx=1, text=vendors[1 - target]),
            put(amounts[1 - target])]},
            {"name": "the right supplier, the other amount", "actions": [
                switch("excel"), act("excel", "set_cell", file_path=ledger, row_idx=2, column_idx=1, text=vendors[target]),
                put(amounts[1 - target])]}],
    }


@family("ask-handover-cover", apps=["word", "email"])
def ask_handover_cover(rng: random.Random) -> dict:
    """Name who covers next week in the handover note and mail it to them; the user says who agreed."""
    org, domain, (me,), now = setup(rng, 1)
    a, b, c = people(rng, 3, domain)
    right, other = (a, b) if rng.random() < 0.5 else (b, a)
    path = "data/handover.docx"
    paras = ["Handover notes", f"Open items: the {rng.choice(['supplier audit', 'budget review', 'office move'])} and "
             f"the weekly report.", f"Possible cover: {a['name']} ({a['email']}) or {b['name']} ({b['email']})."]
    line = f"Covering: {right['name']}"
    write = lambda p: act("word", "write_to_file", file_path=path, contents=f"Covering: {p['name']}")  # noqa: E731
    subject = "Handover for next week"
    mail = lambda p: act("email", "send_email", sender=me["email"], recipient=p["email"], subject=subject,  # noqa: E731
                         content=f"Hi {p['first']},\n\nThanks for covering next week; the handover notes are "
                                 f"attached.\n\n{me['first']}", attachments=[path])
    return {
        **head(me, now),
        "instruction": (f"I am away next week. Add a last line 'Covering: <full name>' to {path} with the colleague "
                        f"who covers for me, then email them the file with the subject '{subject}'."),
        "office": [docx(path, paras),
                   eml(me["email"], "msg-1", c["email"], "Next week", f"Hi {me['first']},\n\nEnjoy your week off!\n\n"
                       f"{c['first']}", days_ago(now, 1, 17))],
        "checks": [check("docx_paragraphs_equal", file=path, paragraphs=paras + [line]),
                   check("email_sent", sender=me["email"], to=right["email"], subject=subject, attachments=["handover.docx"]),
                   check("email_not_sent", sender=me["email"], to=other["email"])],
        "gold": [ask(f"Who is covering for you next week, {a['name']} or {b['name']}?"), switch("word"),
                 write(right), switch("email"), mail(right)],
        "user_replies": [
            {"when": ["who", "cover", "which", a["first"], b["first"]], "reply": f"{right['first']} agreed to cover.",
             "needed": True, "guess": {right["name"]: other["name"], right["email"]: other["email"],
                                       right["first"]: other["first"]}},
        ],
        "wrong": [{"name": "the other colleague", "actions": [switch("word"), write(other), switch("email"), mail(other)]},
                  {"name": "mailed without the line", "actions": [switch("email"), mail(right)]}],
    }
