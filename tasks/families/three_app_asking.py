"""Three-app families where the instruction leaves out what only the user knows (the budget owner, which
of two offered dates, which contract): the right outcome needs system.ask_user, and a guess from the
office's distractors fails (tasks/FORMAT.md §4, asking the user). One family states everything."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    act, ask, at, check, days_ago, docx, eml, ev, fmt, head, ics, iso, outsider, pdf, people, setup, switch,
    weekday_day_month, workday_from, xlsx
)
from officesim.tasks.families.registry import family


def _budget_memo(rng: random.Random, given: bool) -> dict:
    org, domain, (me,), now = setup(rng, 1)
    owner, preparer = people(rng, 2, domain)
    team = rng.choice(["Marketing", "Facilities", "Research", "Support", "Logistics"])
    path, memo = f"data/budget_{team.lower()}.xlsx", "data/budget_memo.docx"
    items = rng.sample(["Events", "Licences", "Equipment", "Contractors", "Travel", "Training"], 4)
    amounts = [rng.randrange(1000, 20000, 50) for _ in items]
    total = sum(amounts)
    rows = [["Item", "Amount"]] + [[i, a] for i, a in zip(items, amounts)] + [["Prepared by", preparer["email"]]]
    line = f"{team} budget total: {total}"
    subject = f"{team} budget memo"
    mail = lambda p: act("email", "send_email", sender=me["email"], recipient=p["email"], subject=subject,  # noqa: E731
                         content=f"Hello {p['first']},\n\nThe {team} budget memo is attached; the total is {total}."
                                 f"\n\n{me['name']}", attachments=[memo])
    who = f"the budget owner, {owner['name']} ({owner['email']})" if given else "the budget's owner"
    task = {
        **head(me, now),
        "instruction": (f"Add up the amounts in {path}, add the line '{team} budget total: <total>' to {memo}, and "
                        f"email the memo to {who} with the subject '{subject}'."),
        "office": [xlsx(path, {"Budget": rows}), docx(memo, [f"{team} budget memo", "Prepared for the quarterly review."])],
        "checks": [check("contains", file=memo, text=[f"{team} budget memo", "Prepared for the quarterly review.", total],
                         lines=[[f"{team} budget total", total]]),
                   check("no_repeats", file=memo),
                   check("email_sent", sender=me["email"], to=owner["email"], subject=subject, body_contains=[total],
                         attachments=["budget_memo.docx"]),
                   check("email_not_sent", sender=me["email"], to=preparer["email"])],
        "gold": [switch("excel"), act("excel", "read_file", file_path=path), switch("word"),
                 act("word", "write_to_file", file_path=memo, contents=line), switch("email"), mail(owner)],
        "wrong": [{"name": "mailed to the sheet's preparer", "actions": [
            switch("word"), act("word", "write_to_file", file_path=memo, contents=line), switch("email"), mail(preparer)]},
            {"name": "total without the last item", "actions": [
                switch("word"), act("word", "write_to_file", file_path=memo, contents=line.replace(str(total), str(total - amounts[-1]))),
                switch("email"), mail(owner)]}],
    }
    if given:
        task["user_replies"] = [{"when": ["who", "owner"], "reply": f"{owner['name']}, as I wrote."}]
    else:
        task["gold"] = [ask(f"Who owns the {team} budget, and at which address should I send the memo?")] + task["gold"]
        task["user_replies"] = [
            {"when": ["who", "owner", "owns", "address", "send"], "reply": f"{owner['name']} owns it: {owner['email']}.",
             "needed": True, "guess": {owner["email"]: preparer["email"], owner["first"]: preparer["first"]}},
        ]
    return task


@family("ask-budget-memo-owner", apps=["excel", "word", "email"])
def ask_budget_memo_owner(rng: random.Random) -> dict:
    """Total a budget into a memo and mail it to 'the budget's owner', whom only the user names."""
    return _budget_memo(rng, given=False)


@family("given-budget-memo-owner", apps=["excel", "word", "email"])
def given_budget_memo_owner(rng: random.Random) -> dict:
    """Total a budget into a memo and mail it to the named owner (everything given)."""
    return _budget_memo(rng, given=True)


@family("ask-visit-date-booking", apps=["email", "calendar", "word"])
def ask_visit_date_booking(rng: random.Random) -> dict:
    """A supplier offers two dates for a site visit; book the one the user prefers, log it, confirm by mail."""
    org, domain, (me,), now = setup(rng, 1, weekdays=(0, 1))
    firm, fdomain, (host,) = outsider(rng, domain, 1)
    first, second = workday_from(now, 2), workday_from(now, 4)
    chosen, guess = (second, first) if rng.random() < 0.5 else (first, second)
    hour = 11
    log = "data/site_visits.docx"
    summary = f"Site visit {firm}"
    entry = lambda d: f"{iso(d)}: site visit at {firm} with {host['name']}"  # noqa: E731
    create = lambda d: act("calendar", "create_event", user=me["email"], summary=summary,  # noqa: E731
                           time_start=fmt(at(d, hour)), time_end=fmt(at(d, hour) + timedelta(hours=2)),
                           attendees=[host["email"]])
    reply = lambda d: act("email", "reply_email", username=me["email"], email_id="msg-1",  # noqa: E731
                          content=f"Hello {host['first']},\n\n{weekday_day_month(d)} at 11:00 suits us; see you then.\n\n"
                                  f"{me['name']}")
    start = at(chosen, hour)
    return {
        **head(me, now),
        "instruction": (f"{host['name']} of {firm} offered two dates for our site visit. Book it in my calendar as "
                        f"'{summary}' from 11:00 to 13:00 with {host['first']} as attendee, add the line "
                        f"'<YYYY-MM-DD>: site visit at {firm} with {host['name']}' to {log}, and reply to "
                        f"{host['first']}'s email confirming the date."),
        "office": [
            eml(me["email"], "msg-1", host["email"], "Site visit dates", f"Hello {me['first']},\n\nWe can host your "
                f"visit on {weekday_day_month(first)} or on {weekday_day_month(second)}, at 11:00. Which do you "
                f"prefer?\n\n{host['name']}\n{firm}", days_ago(now, 1, 16)),
            ics(me["email"], [ev("Team standup", at(workday_from(now, d), 9, 30), 15) for d in (1, 2, 3, 4)]),
            docx(log, ["Site visits"]),
        ],
        "checks": [check("ics_event", user=me["email"], summary=summary, start=fmt(start),
                         end=fmt(start + timedelta(hours=2)), attendees=[host["email"]]),
                   check("docx_paragraphs_equal", file=log, paragraphs=["Site visits", entry(chosen)]),
                   check("email_sent", sender=me["email"], to=host["email"], body_contains=[iso(chosen), "11:00"],
                         body_excludes=[iso(guess)])],
        "gold": [ask(f"{host['name']} offers {weekday_day_month(first)} or {weekday_day_month(second)} for the site "
                     f"visit; which date do you prefer?"),
                 switch("email"), act("email", "read_email", username=me["email"], email_id="msg-1"),
                 switch("calendar"), create(chosen), switch("word"),
                 act("word", "write_to_file", file_path=log, contents=entry(chosen)), switch("email"), reply(chosen)],
        "user_replies": [
            {"when": ["which", "date", "day", "prefer", "when"], "reply": f"{weekday_day_month(chosen)} is better for me.",
             "needed": True, "guess": {iso(chosen): iso(guess), weekday_day_month(chosen): weekday_day_month(guess)}},
        ],
        "wrong": [{"name": "the other date", "actions": [
            switch("calendar"), create(guess), switch("word"),
            act("word", "write_to_file", file_path=log, contents=entry(guess)), switch("email"), reply(guess)]},
            {"name": "booked, not logged", "actions": [switch("calendar"), create(chosen), switch("email"), reply(chosen)]}],
    }


@family("ask-renewal-contract-value", apps=["pdf", "excel", "email"])
def ask_renewal_contract_value(rng: random.Random) -> dict:
    """Two contracts are up for renewal; record the value of the one the user renews and tell finance."""
    org, domain, (me, fin), now = setup(rng, 2)
    vendors = rng.sample(["Quill Analytics", "Ridge Hosting", "Sable Facilities", "Tern Logistics", "Umber Legal"], 2)
    values = rng.sample(range(12000, 90000, 500), 2)
    t = rng.randrange(2)
    paths = [f"data/contracts/{v.split()[0].lower()}_contract.pdf" for v in vendors]
    sheet = "data/finance/renewals.xlsx"
    office = [pdf(p, [f"SERVICE CONTRACT\n{v} and {org}\nTerm: 12 months\nAnnual value: {val}\n"
                      f"Renewal notice: 30 days"]) for p, v, val in zip(paths, vendors, values)]
    office.append(xlsx(sheet, {"Renewals": [["Vendor", "Annual value"], [None, None]]}))
    subject = "Contract renewal"
    mail = lambda i: act("email", "send_email", sender=me["email"], recipient=fin["email"], subject=subject,  # noqa: E731
                         content=f"Hi {fin['first']},\n\nWe are renewing the {vendors[i]} contract; its annual value is "
                                 f"{values[i]}.\n\n{me['first']}")
    rows = lambda i: [act("excel", "set_cell", file_path=sheet, row_idx=2, column_idx=1, text=vendors[i]),  # noqa: E731
                      act("excel", "set_cell", file_path=sheet, row_idx=2, column_idx=2, text=values[i])]
    return {
        **head(me, now),
        "instruction": (f"We renew one of the two contracts in data/contracts/. Write its vendor in A2 and its annual "
                        f"value in B2 of {sheet}, and email both to {fin['name']} ({fin['email']}) with the subject "
                        f"'{subject}'."),
        "office": office,
        "checks": [check("xlsx_row", file=sheet, row=2, values=[vendors[t], values[t]]),
                   check("email_sent", sender=me["email"], to=fin["email"], subject=subject,
                         body_contains=[vendors[t], values[t]], body_excludes=[vendors[1 - t], values[1 - t]])],
        "gold": [ask("Which of the two contracts are we renewing?"), switch("pdf"),
                 act("pdf", "read_file", pdf_file_path=paths[t]), switch("excel"), *rows(t), switch("email"), mail(t)],
        "user_replies": [
            {"when": ["which", "contract", "renew", "vendor", *[v.split()[0] for v in vendors]],
             "reply": f"The {vendors[t]} one.", "needed": True,
             "guess": {vendors[t]: vendors[1 - t], str(values[t]): values[1 - t]}},
        ],
        "wrong": [{"name": "the other contract", "actions": [switch("excel"), *rows(1 - t), switch("email"), mail(1 - t)]},
                  {"name": "recorded, not mailed", "actions": [switch("excel"), *rows(t)]}],
    }
