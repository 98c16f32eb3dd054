"""One-app families where the instruction leaves out what only the user knows (the agreed figure, the
recipient, the day, which of two files): the right outcome needs system.ask_user, and a guess from the
office's distractors fails (tasks/FORMAT.md §4, asking the user). One family states everything: a
question there is recorded, never needed."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    act, ask, at, check, days_ago, docx, eml, ev, fmt, head, ics, iso, outsider, setup, switch, weekday_day_month,
    workday_from, xlsx
)
from officesim.tasks.families.registry import family


def _deals(rng: random.Random):
    """A deal sheet: clients with the discount each asked for; the target's agreed value is elsewhere."""
    clients = rng.sample(["Halden Freight", "Marlow Textiles", "Quayside Dental", "Brightwater Farms", "Ostrava Tools",
                          "Kestrel Media"], 4)
    asked = [rng.choice([8, 10, 12, 15, 18, 20]) for _ in clients]
    target = rng.randrange(len(clients))
    agreed = asked[target] - rng.choice([2, 3, 4, 5])
    rows = [["Client", "Asked (%)", "Agreed (%)"]] + [[c, a, None] for c, a in zip(clients, asked)]
    return clients, asked, target, agreed, rows


@family("ask-agreed-discount", apps=["excel"])
def ask_agreed_discount(rng: random.Random) -> dict:
    """Fill in the discount agreed with one client; only the user knows it (the sheet has what was asked)."""
    org, domain, (me,), now = setup(rng, 1)
    clients, asked, t, agreed, rows = _deals(rng)
    path = "data/sales/discounts.xlsx"
    row = t + 2
    put = lambda v: act("excel", "set_cell", file_path=path, row_idx=row, column_idx=3, text=v)  # noqa: E731
    return {
        **head(me, now),
        "instruction": (f"I closed the negotiation with {clients[t]} yesterday. Please fill in the discount we "
                        f"agreed on in the Agreed (%) column of {path}."),
        "office": [xlsx(path, {"Discounts": rows})],
        "checks": [check("xlsx_cell", file=path, cell=f"C{row}", value=agreed)]
                  + [check("xlsx_cell", file=path, cell=f"C{i + 2}", value=None) for i in range(len(clients)) if i != t],
        "gold": [ask(f"What discount did we agree with {clients[t]}?"), switch("excel"),
                 act("excel", "read_file", file_path=path), put(agreed)],
        "user_replies": [
            {"when": ["discount", "agree", "percent", "%", "how much", "figure", "rate"],
             "reply": f"We settled on {agreed}% with {clients[t]}.", "needed": True, "guess": {str(agreed): asked[t]}},
        ],
        "wrong": [{"name": "the discount the client asked for", "actions": [switch("excel"), put(asked[t])]}],
    }


@family("given-agreed-discount", apps=["excel"])
def given_agreed_discount(rng: random.Random) -> dict:
    """Fill in the discount agreed with one client, the instruction stating it (a question is unneeded)."""
    org, domain, (me,), now = setup(rng, 1)
    clients, asked, t, agreed, rows = _deals(rng)
    path = "data/sales/discounts.xlsx"
    row = t + 2
    put = lambda v: act("excel", "set_cell", file_path=path, row_idx=row, column_idx=3, text=v)  # noqa: E731
    return {
        **head(me, now),
        "instruction": (f"I closed the negotiation with {clients[t]} yesterday at a {agreed}% discount. Please fill "
                        f"it in in the Agreed (%) column of {path}."),
        "office": [xlsx(path, {"Discounts": rows})],
        "checks": [check("xlsx_cell", file=path, cell=f"C{row}", value=agreed)]
                  + [check("xlsx_cell", file=path, cell=f"C{i + 2}", value=None) for i in range(len(clients)) if i != t],
        "gold": [switch("excel"), act("excel", "read_file", file_path=path), put(agreed)],
        "user_replies": [{"when": ["discount", "agree", "percent", "%"], "reply": f"Yes, {agreed}% as I said."}],
        "wrong": [{"name": "the discount the client asked for", "actions": [switch("excel"), put(asked[t])]},
                  {"name": "written over the asked discount", "actions": [switch("excel"), act(
                      "excel", "set_cell", file_path=path, row_idx=row, column_idx=2, text=agreed)]}],
        "right": [{"name": "asked anyway, then filled in", "actions": [
            ask(f"Is it {agreed}% for {clients[t]}?"), switch("excel"), put(agreed)]}],
    }


@family("ask-contract-recipient", apps=["email"])
def ask_contract_recipient(rng: random.Random) -> dict:
    """Tell a client company the contract is countersigned; two of its people wrote, the user says which."""
    org, domain, (me,), now = setup(rng, 1)
    client, cdomain, (a, b) = outsider(rng, domain, 2)
    right, other = (a, b) if rng.random() < 0.5 else (b, a)
    subject = "Contract countersigned"
    body = (f"Hello {right['first']},\n\nThe contract between {client} and {org} is countersigned on our side "
            f"today. Thank you for your help.\n\nBest regards,\n{me['name']}")
    send = lambda p, text: act("email", "send_email", sender=me["email"], recipient=p["email"],  # noqa: E731
                               subject=subject, content=text)
    return {
        **head(me, now),
        "instruction": (f"Email our contact at {client} that the contract is countersigned on our side today, "
                        f"with the subject '{subject}'."),
        "office": [
            eml(me["email"], "msg-1", a["email"], "Contract draft", f"Hi {me['first']},\n\nHere are our comments on "
                f"the draft.\n\n{a['name']}\n{client}", days_ago(now, 6, 10)),
            eml(me["email"], "msg-2", b["email"], "Contract: signature", f"Hi {me['first']},\n\nWe signed the "
                f"contract on our side; please countersign.\n\n{b['name']}\n{client}", days_ago(now, 2, 15)),
        ],
        "checks": [check("email_sent", sender=me["email"], to=right["email"], subject=subject,
                         body_contains=["countersigned"]),
                   check("email_not_sent", sender=me["email"], to=other["email"])],
        "gold": [ask(f"Two people at {client} wrote about the contract ({a['name']} and {b['name']}); which one "
                     f"should I send it to?"),
                 switch("email"), act("email", "list_emails", username=me["email"]), send(right, body)],
        "user_replies": [
            {"when": ["who", "which", "contact", "recipient", "send it to", "address", a["first"], b["first"]],
             "reply": f"Send it to {right['name']}; {right['first']} is handling the contract now.", "needed": True,
             "guess": {right["email"]: other["email"], right["first"]: other["first"]}},
        ],
        "wrong": [{"name": "the other contact", "actions": [switch("email"),
                                                            send(other, body.replace(right["first"], other["first"]))]},
                  {"name": "both contacts", "actions": [switch("email"), act(
                      "email", "send_email", sender=me["email"], recipient=[a["email"], b["email"]], subject=subject,
                      content=body)]}],
        "right": [{"name": "asked in other words", "actions": [
            ask(f"Who is our contact for the {client} contract?"), switch("email"), send(right, body)]}],
    }


@family("ask-appointment-day", apps=["calendar"])
def ask_appointment_day(rng: random.Random) -> dict:
    """Put an appointment in the calendar at a given hour; the day is only the user's to say."""
    org, domain, (me,), now = setup(rng, 1, weekdays=(0, 1))
    kind = rng.choice(["Dentist", "Optician", "Physiotherapy", "Car service"])
    hour = rng.choice([8, 15, 16, 17])
    day = workday_from(now, rng.choice([2, 3]))
    guess = (now + timedelta(days=1)).date()
    start = at(day, hour)
    existing = [ev("Team standup", at(workday_from(now, d), 9, 30), 15) for d in (1, 2, 3)]
    create = lambda d: act("calendar", "create_event", user=me["email"], summary=kind,  # noqa: E731
                           time_start=fmt(at(d, hour)), time_end=fmt(at(d, hour) + timedelta(minutes=45)))
    return {
        **head(me, now),
        "instruction": (f"Please add my '{kind}' appointment to my calendar: {hour}:00, 45 minutes. I forgot to "
                        f"write down which day it is."),
        "office": [ics(me["email"], existing)],
        "checks": [check("ics_event", user=me["email"], summary=kind, start=fmt(start),
                         end=fmt(start + timedelta(minutes=45))),
                   check("ics_event_count", user=me["email"], count=len(existing) + 1)],
        "gold": [ask(f"Which day is the {kind.lower()} appointment?"), switch("calendar"), create(day)],
        "user_replies": [
            {"when": ["day", "date", "when", "which"], "reply": f"It's on {weekday_day_month(day)}.", "needed": True,
             "guess": {iso(day): iso(guess)}},
        ],
        "wrong": [{"name": "tomorrow", "actions": [switch("calendar"), create(guess)]}],
        "right": [{"name": "asked in other words", "actions": [
            ask("When is it?"), switch("calendar"), create(day)]}],
    }


@family("ask-which-report-title", apps=["word"])
def ask_which_report_title(rng: random.Random) -> dict:
    """Retitle one of two regional reports with the same title; the user says which region."""
    org, domain, (me,), now = setup(rng, 1)
    regions = rng.sample(["North", "South", "East", "West", "Central"], 2)
    target, other = regions
    title = f"{org} regional sales report"
    quarter = rng.choice(["Q1", "Q2", "Q3"])
    new = f"{target} region: {quarter} sales report"
    paths = {r: f"data/reports/sales_{r.lower()}.docx" for r in regions}
    office = [docx(paths[r], [title, f"Region: {r}", f"Sales rose in {quarter} across the {r.lower()} stores."])
              for r in sorted(regions)]
    retitle = lambda r: act("word", "replace_text", file_path=paths[r], old_text=title,  # noqa: E731
                            new_text=new.replace(target, r))
    return {
        **head(me, now),
        "instruction": (f"One of the regional reports in data/reports/ goes to the board: change its title line "
                        f"'{title}' to '<Region> region: {quarter} sales report' with its region's name."),
        "office": office,
        "checks": [check("docx_paragraphs_equal", file=paths[target],
                         paragraphs=[new, f"Region: {target}", f"Sales rose in {quarter} across the {target.lower()} stores."]),
                   check("docx_has_paragraph", file=paths[other], text=title)],
        "gold": [ask("Which regional report goes to the board?"), switch("word"), retitle(target)],
        "user_replies": [
            {"when": ["which", "region", "report", "board", "file"], "reply": f"The {target} one.", "needed": True,
             "guess": {paths[target]: paths[other], target: other}},
        ],
        "wrong": [{"name": "the other region's report", "actions": [switch("word"), retitle(other)]},
                  {"name": "both reports", "actions": [switch("word"), retitle(target), retitle(other)]},
                  {"name": "the other region's name in the title", "actions": [switch("word"), act(
                      "word", "replace_text", file_path=paths[target], old_text=title, new_text=new.replace(target, other))]},
                  {"name": "the title left as the placeholder", "actions": [switch("word"), act(
                      "word", "replace_text", file_path=paths[target], old_text=title,
                      new_text=f"<Region> region: {quarter} sales report")]}],
        "right": [{"name": "asked in other words", "actions": [
            ask("Which region is the board report for?"), switch("word"), retitle(target)]}],
    }
