"""Single-app (category 1) word families: meeting notes, contract edits, memo exports, invitations, lists."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    COMPANIES, FIRST, LAST, MONTHS, act, check, day_name, docx, head, next_weekday, now_on_weekday, people, setup,
    switch, weekday_day_month
)
from officesim.tasks.families.registry import family


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text.lower()).strip("_")


@family("meeting-notes-write-up", apps=["word"])
def meeting_notes_write_up(rng: random.Random) -> dict:
    """Write up a client kickoff call's notes, dated and named by today's date, from dictated points."""
    (org, domain), (client, cdomain) = rng.sample(COMPANIES, 2)
    me, owner, pm = people(rng, 3, domain)
    now = now_on_weekday(rng, hour=rng.choice([11, 14, 16]))
    today = now.date()
    next_monday = today + timedelta(days=7 - today.weekday())
    next_call = next_monday + timedelta(days=rng.randrange(0, 5))  # "<weekday> of next week"
    budget = rng.randrange(20, 180, 5) * 1000
    workstream = rng.choice(["data migration", "user training", "reporting dashboards", "single sign-on"])
    path = f"data/notes/{today.isoformat()}-{_slug(client.split()[0])}-kickoff.docx"
    old_day = today - timedelta(days=rng.randint(3, 20))
    facts = [client, f"{budget:,}".replace(",", ""), owner["name"], workstream, next_call.isoformat()]
    lines = [f"Kickoff call with {client} - {today.isoformat()}",
             f"Budget capped at EUR {budget}",
             f"{owner['name']} owns the {workstream}",
             f"{pm['name']} sends the project plan by Friday",
             f"Next call: {next_call.isoformat()}"]
    wrong_date = next_call - timedelta(days=7)
    return {
        **head(me, now),
        "instruction": (f"I just got off the kickoff call with {client}. Please write the notes into a new document "
                        f"data/notes/<today's date as YYYY-MM-DD>-{_slug(client.split()[0])}-kickoff.docx: a title "
                        f"line naming the call and today's date, then one line per point. Points: the budget is capped "
                        f"at EUR {budget}; {owner['name']} owns the {workstream}; {pm['name']} sends the project plan "
                        f"by Friday; next call is {day_name(next_call)} of next week (write it as YYYY-MM-DD)."),
        "office": [
            docx(f"data/notes/{old_day.isoformat()}-weekly-sync.docx",
                 [f"Weekly sync - {old_day.isoformat()}", "Hiring plan approved", "Office move in Q4"]),
            docx("data/notes/template.docx", ["<Meeting> - <date>", "<point>"]),
        ],
        "checks": [
            check("file_exists", file=path),
            # every point's facts and the title's date; not the same weekday of this week for the next call
            check("contains", file=path, text=facts + [today.isoformat(), pm["name"], "project plan", "Friday"],
                  exclude=[wrong_date.isoformat()] if wrong_date != today else None),
            check("contains", file="data/notes/template.docx", text="<Meeting>"),
        ],
        "gold": [
            switch("word"),
            act("word", "write_to_file", file_path=path, contents="\n".join(lines)),
        ],
        "wrong": [
            {"name": "next call dated this week instead of next week", "actions": [
                switch("word"),
                act("word", "write_to_file", file_path=path,
                    contents="\n".join(lines[:-1] + [f"Next call: {wrong_date.isoformat()}"])),
            ]},
            {"name": "file named with yesterday's date", "actions": [
                switch("word"),
                act("word", "write_to_file", file_path=path.replace(today.isoformat(),
                                                                    (today - timedelta(days=1)).isoformat()),
                    contents="\n".join(lines)),
            ]},
            {"name": "the owner of the workstream left out", "actions": [
                switch("word"),
                act("word", "write_to_file", file_path=path, contents="\n".join(lines[:2] + lines[3:])),
            ]},
            {"name": "the project plan point left out", "actions": [
                switch("word"),
                act("word", "write_to_file", file_path=path, contents="\n".join(lines[:3] + lines[4:])),
            ]},
            {"name": "budget with a zero too many", "actions": [
                switch("word"),
                act("word", "write_to_file", file_path=path,
                    contents="\n".join([lines[0], f"Budget capped at EUR {budget * 10}"] + lines[2:])),
            ]},
            {"name": "title without today's date", "actions": [
                switch("word"),
                act("word", "write_to_file", file_path=path,
                    contents="\n".join([f"Kickoff call with {client}"] + lines[1:])),
            ]},
            {"name": "the notes written into the template", "actions": [
                switch("word"),
                act("word", "write_to_file", file_path="data/notes/template.docx", contents="\n".join(lines)),
            ]},
            {"name": "all points on one line", "actions": [
                switch("word"),
                act("word", "write_to_file", file_path=path, contents=lines[0] + "\n" + "; ".join(lines[1:])),
            ]},
        ],
        "right": [
            {"name": "reworded, the title date written out", "actions": [
                switch("word"), act("word", "create_new_file", file_path=path),
                act("word", "write_to_file", file_path=path, contents="\n".join([
                    f"{client} kickoff call, {today.day} {MONTHS[today.month - 1]} {today.year}",
                    f"- Budget: capped at EUR {budget:,}",
                    f"- {workstream.capitalize()}: owned by {owner['name']}",
                    f"- Project plan: {pm['name']} will send it by Friday",
                    f"- Next call: {next_call.isoformat()} ({day_name(next_call)})"]))]},
        ],
    }


_RENAMES = [("Copperleaf Studio Ltd", "Copperleaf Creative Group Ltd"),
            ("Granite Peak Supply Ltd", "Granite Peak Industrial Ltd"),
            ("Tidewater Foods Ltd", "Tidewater Fresh Foods Ltd"),
            ("Northwind Analytics Ltd", "Northwind Data Partners Ltd"),
            ("Bluefin Logistics Ltd", "Bluefin Freight Group Ltd")]


@family("contract-company-rename", apps=["word"])
def contract_company_rename(rng: random.Random) -> dict:
    """Update our company's new legal name in a draft contract, leaving signed contracts untouched."""
    old, new = rng.choice(_RENAMES)
    domain = old.split()[0].lower() + ".test"
    me = people(rng, 1, domain)[0]
    now = now_on_weekday(rng)
    clients = rng.sample([c for c, _ in COMPANIES if c.split()[0] != old.split()[0]], 2)
    client = clients[0]
    fee = rng.randrange(2, 30) * 500
    draft = f"data/contracts/drafts/{_slug(client)}_service_agreement.docx"
    signed = f"data/contracts/signed/{_slug(clients[1])}_service_agreement_{now.year - 1}.docx"

    def agreement(party: str, year: int) -> list:
        return [{"text": "Service Agreement", "style": "Heading 1"},
                f"This agreement is made in {year} between {old} (the Supplier) and {party} (the Client).",
                f"1. {old} will provide the services described in Schedule A.",
                f"2. The Client pays a monthly fee of EUR {fee} within 30 days of invoice.",
                "3. Either party may end this agreement with 60 days' written notice.",
                f"Signed for {old}: ____________________",
                f"Signed for {party}: ____________________"]

    return {
        **head(me, now),
        "instruction": (f"Since the merger our legal name is {new} (it used to be {old}). Please update the draft "
                        f"service agreement for {client} in data/contracts/drafts/ to the new name everywhere. "
                        f"Don't touch the signed contracts - those stay as they were signed."),
        "office": [
            docx(draft, agreement(client, now.year)),
            docx(signed, agreement(clients[1], now.year - 1)),
        ],
        "checks": [
            check("contains", file=draft, text=[new, client, f"EUR {fee}"]),
            check("not_contains", file=draft, text=old),
            check("docx_has_paragraph", file=draft, text=f"Signed for {new}: ____________________"),
            # the name is renamed in place, whole, in every paragraph that had it
            check("docx_has_paragraph", file=draft,
                  text=f"This agreement is made in {now.year} between {new} (the Supplier) and {client} (the Client)."),
            check("docx_has_paragraph", file=draft, text=f"1. {new} will provide the services described in Schedule A."),
            check("contains", file=signed, text=old),
            check("not_contains", file=signed, text=new),
        ],
        "gold": [
            switch("word"),
            act("word", "read_file", file_path=draft),
            act("word", "replace_text", file_path=draft, old_text=old, new_text=new),
        ],
        "wrong": [
            {"name": "signed contract renamed as well", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=draft, old_text=old, new_text=new),
                act("word", "replace_text", file_path=signed, old_text=old, new_text=new),
            ]},
            {"name": "only the signature line changed", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=draft, old_text=f"Signed for {old}",
                    new_text=f"Signed for {new}"),
            ]},
            {"name": "the new name with the old one in brackets", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=draft, old_text=old, new_text=f"{new} (formerly {old})"),
            ]},
            {"name": "the name cut short in clause 1", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=draft, old_text=f"1. {old}", new_text=f"1. {new.split()[0]}"),
                act("word", "replace_text", file_path=draft, old_text=old, new_text=new),
            ]},
            {"name": "the signed contract renamed instead of the draft", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=signed, old_text=old, new_text=new),
            ]},
            {"name": "the new name appended as a note", "actions": [
                switch("word"),
                act("word", "write_to_file", file_path=draft, contents=f"Note: {old} is now called {new}."),
            ]},
        ],
        "right": [
            {"name": "only the changed words replaced", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=draft, old_text=" ".join(old.split()[1:]),
                    new_text=" ".join(new.split()[1:])),
            ]},
            {"name": "one replacement per paragraph", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=f"/testbed/{draft}", old_text=f"Signed for {old}",
                    new_text=f"Signed for {new}"),
                act("word", "replace_text", file_path=draft, old_text=f"1. {old} will",
                    new_text=f"1. {new} will"),
                act("word", "replace_text", file_path=draft, old_text=f"between {old}", new_text=f"between {new}"),
            ]},
        ],
    }


_MEMOS = {
    "parking": ("Parking", ["From {d} the visitor spaces are on level {a}.",
                            "Staff permits must be renewed by the end of the month.",
                            "Bicycles go in the cage by the {b} entrance."]),
    "kitchen": ("Kitchen rota", ["Each team cleans the kitchen for one week, starting with {t}.",
                                 "The dishwasher runs at {a}:00 every afternoon.",
                                 "Label food in the fridge; it is cleared on {b}s."]),
    "access": ("Building access", ["New badges are issued at reception from {d}.",
                                   "The side door on level {a} stays locked after 19:00.",
                                   "Report lost badges to {t} the same day."]),
}


@family("memo-latest-version-pdf", apps=["word"])
def memo_latest_version_pdf(rng: random.Random) -> dict:
    """Find the latest version among memo drafts and convert it to PDF for posting."""
    _, domain, (me, facilities), now = setup(rng, 2)
    key = rng.choice(list(_MEMOS))
    title, body = _MEMOS[key]
    start = next_weekday(now, 0)
    teams = ["Finance", "Sales", "Support", "Design", "Engineering"]
    v1 = {"d": start.isoformat(), "a": rng.randint(1, 3), "b": rng.choice(["north", "east", "Monday"]),
          "t": rng.choice(teams)}
    v2 = dict(v1)
    v2["a"] = v1["a"] + rng.randint(1, 3)  # the figure the revision changed
    v2["t"] = rng.choice([t for t in teams if t != v1["t"]])
    n_latest = rng.choice([2, 3])
    versions = [v1] + [v2] * (n_latest - 1)

    def paragraphs(v: dict, n: int) -> list:
        return [{"text": f"{title} - memo", "style": "Heading 1"}, f"Version {n}, prepared by {facilities['name']}"] + \
               [line.format(**v) for line in body]

    office = []
    for n, v in enumerate(versions, 1):
        office.append(docx(f"data/memos/{key}_memo_v{n}.docx", paragraphs(v, n)))
    other = rng.choice([k for k in _MEMOS if k != key])
    o_title, o_body = _MEMOS[other]
    office.append(docx(f"data/memos/{other}_memo_v1.docx",
                       [f"{o_title} - memo", "Version 1"] + [line.format(**v1) for line in o_body]))
    latest = f"data/memos/{key}_memo_v{n_latest}.docx"
    out = f"data/memos/{key}_memo.pdf"
    changed = next(line for line in body if "{a}" in line)
    new_line, old_line = changed.format(**v2), changed.format(**v1)
    return {
        **head(me, now),
        "instruction": (f"{facilities['first']} revised the {title.lower()} memo. Please convert the latest version "
                        f"in data/memos/ to a PDF at {out} so I can post it on the noticeboard."),
        "office": office,
        "checks": [
            check("file_exists", file=out),
            check("contains", file=out, text=[title, new_line, f"Version {n_latest}"]),
            check("not_contains", file=out, text=[old_line, "Version 1,"]),
        ],
        "gold": [
            switch("word"),
            act("word", "read_file", file_path=latest),
            act("word", "convert_to_pdf", word_file_path=latest, pdf_file_path=out),
        ],
        "wrong": [
            {"name": "first version converted", "actions": [
                switch("word"),
                act("word", "convert_to_pdf", word_file_path=f"data/memos/{key}_memo_v1.docx", pdf_file_path=out),
            ]},
            {"name": "the other memo converted", "actions": [
                switch("word"),
                act("word", "convert_to_pdf", word_file_path=f"data/memos/{other}_memo_v1.docx", pdf_file_path=out),
            ]},
            {"name": "the latest version exported under its own name", "actions": [
                switch("word"),
                act("word", "convert_to_pdf", word_file_path=latest, pdf_file_path=latest[:-5] + ".pdf"),
            ]},
            {"name": "saved in data/ instead of data/memos/", "actions": [
                switch("word"), act("word", "convert_to_pdf", word_file_path=latest, pdf_file_path=f"data/{key}_memo.pdf")]},
            {"name": "every version exported", "actions": [switch("word")] + [
                act("word", "convert_to_pdf", word_file_path=f"data/memos/{key}_memo_v{n}.docx",
                    pdf_file_path=out if n == n_latest else f"data/memos/{key}_memo_v{n}.pdf")
                for n in range(1, n_latest + 1)]},
        ] + ([{"name": "the version before the latest converted", "actions": [
                switch("word"),
                act("word", "convert_to_pdf", word_file_path=f"data/memos/{key}_memo_v2.docx", pdf_file_path=out)]}]
             if n_latest == 3 else []),
        "right": [
            {"name": "office paths in the /testbed form", "actions": [
                switch("word"),
                act("word", "convert_to_pdf", word_file_path=f"/testbed/{latest}", pdf_file_path=f"/testbed/{out}"),
            ]},
        ],
    }


@family("invitation-date-change", apps=["word"])
def invitation_date_change(rng: random.Random) -> dict:
    """Move a party invitation's date one week earlier everywhere it appears in the document."""
    org, domain, (me, host), now = setup(rng, 2)
    event = rng.choice(["Summer party", "Team offsite", "Anniversary dinner", "Charity quiz night"])
    venue = rng.choice(["the Boathouse", "Harbour Hall", "the rooftop terrace", "Lindenhof Gardens"])
    old = next_weekday(now, 4) + timedelta(days=14)
    new = old - timedelta(days=7)
    hour = rng.choice([17, 18, 19])
    rsvp_old = old - timedelta(days=5)
    lunch = old + timedelta(days=rng.choice([3, 4, 6]))
    path = f"data/events/{_slug(event)}_invitation.docx"
    old_s, new_s, rsvp_s, lunch_s, late_s = (weekday_day_month(d, year=True)
                                             for d in (old, new, rsvp_old, lunch, old + timedelta(days=7)))
    paras = [{"text": f"{event} {old.year}", "style": "Heading 1"},
             f"Dear colleagues, {org} invites you to our {event.lower()} at {venue}.",
             f"Date: {old_s}, from {hour}:00",
             f"We look forward to seeing you on {old_s}!",
             f"Please reply to {host['name']} by {rsvp_s}."]
    return {
        **head(me, now),
        "instruction": (f"Good news: {venue} had a cancellation, so the {event.lower()} moves one week earlier, "
                        f"same time. Please update the date everywhere in {path} (write it the same way as it is "
                        f"written now). The RSVP deadline stays as it is."),
        "office": [
            docx(path, paras),
            docx("data/events/client_lunch_invitation.docx",
                 [f"Client lunch {old.year}", f"Date: {lunch_s}, from 12:00"]),
        ],
        "checks": [
            check("docx_has_paragraph", file=path, text=f"Date: {new_s}, from {hour}:00"),
            check("docx_has_paragraph", file=path, text=f"We look forward to seeing you on {new_s}!"),
            check("docx_has_paragraph", file=path, text=f"Please reply to {host['name']} by {rsvp_s}."),
            check("not_contains", file=path, text=old_s),
            check("contains", file="data/events/client_lunch_invitation.docx", text=lunch_s),
        ],
        "gold": [
            switch("word"),
            act("word", "read_file", file_path=path),
            act("word", "replace_text", file_path=path, old_text=old_s, new_text=new_s),
        ],
        "wrong": [
            {"name": "moved one week later", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=path, old_text=old_s, new_text=late_s),
            ]},
            {"name": "only the Date line changed", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=path, old_text=f"Date: {old_s}", new_text=f"Date: {new_s}"),
            ]},
            {"name": "the RSVP deadline moved a week earlier too", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=path, old_text=old_s, new_text=new_s),
                act("word", "replace_text", file_path=path, old_text=rsvp_s,
                    new_text=weekday_day_month(rsvp_old - timedelta(days=7), year=True)),
            ]},
            {"name": "the date written in another form", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=path, old_text=old_s, new_text=new.isoformat()),
            ]},
            {"name": "the client lunch invitation changed too", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=path, old_text=old_s, new_text=new_s),
                act("word", "replace_text", file_path="data/events/client_lunch_invitation.docx", old_text=lunch_s,
                    new_text=weekday_day_month(lunch - timedelta(days=7), year=True)),
            ]},
            {"name": "the time changed with the date", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=path, old_text=f"{old_s}, from {hour}:00",
                    new_text=f"{new_s}, from {hour - 1}:00"),
                act("word", "replace_text", file_path=path, old_text=old_s, new_text=new_s),
            ]},
        ],
        "right": [
            {"name": "each sentence rewritten in turn", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=path, old_text=f"seeing you on {old_s}",
                    new_text=f"seeing you on {new_s}"),
                act("word", "replace_text", file_path=path, old_text=f"Date: {old_s}, from {hour}:00",
                    new_text=f"Date: {new_s}, from {hour}:00"),
            ]},
        ],
    }


@family("phone-list-replace-leaver", apps=["word"])
def phone_list_replace_leaver(rng: random.Random) -> dict:
    """Replace a departed colleague with their successor in the office phone list (two people share a first name)."""
    _, domain, (me,), now = setup(rng, 1)
    depts = ["Accounts", "Sales", "Reception", "IT", "HR", "Legal", "Facilities"]
    twin_first = rng.choice(FIRST)
    firsts = rng.sample([f for f in FIRST if f != twin_first], 6)
    lasts = rng.sample(LAST, 9)
    dept_a, dept_b = rng.sample(depts, 2)
    staff = [(f"{twin_first} {lasts[0]}", dept_a), (f"{twin_first} {lasts[1]}", dept_b)]
    staff += [(f"{f} {l}", rng.choice(depts)) for f, l in zip(firsts[:5], lasts[2:7])]
    rng.shuffle(staff)
    exts = rng.sample(range(200, 299), len(staff))
    lines = [f"{n} | {d} | ext. {e}" for (n, d), e in zip(staff, exts)]
    leaver = f"{twin_first} {lasts[0]}"
    other = f"{twin_first} {lasts[1]}"
    successor = f"{firsts[5]} {lasts[7]}"
    ext = exts[[n for n, _ in staff].index(leaver)]
    path = "data/admin/phone_list.docx"
    return {
        **head(me, now),
        "instruction": (f"{twin_first} from {dept_a} left last Friday; {successor} took over the job and keeps "
                        f"the same extension. Please update the office phone list ({path}) accordingly."),
        "office": [
            docx(path, [{"text": "Office phone list", "style": "Heading 1"}] + lines),
            docx("data/admin/emergency_contacts.docx",
                 ["Emergency contacts", f"First aid: {other}", f"Fire warden: {leaver}"]),
        ],
        "checks": [
            check("contains", file=path, text=[f"{successor} | {dept_a} | ext. {ext}", other]),
            check("not_contains", file=path, text=leaver),
            check("contains", file="data/admin/emergency_contacts.docx", text=leaver),
        ],
        "gold": [
            switch("word"),
            act("word", "read_file", file_path=path),
            act("word", "replace_text", file_path=path, old_text=leaver, new_text=successor),
        ],
        "wrong": [
            {"name": "the other colleague with the same first name replaced", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=path, old_text=other, new_text=successor),
            ]},
            {"name": "successor appended but the leaver kept", "actions": [
                switch("word"),
                act("word", "write_to_file", file_path=path, contents=f"{successor} | {dept_a} | ext. {ext}"),
            ]},
            {"name": "both colleagues with that first name replaced", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=path, old_text=leaver, new_text=successor),
                act("word", "replace_text", file_path=path, old_text=other, new_text=successor),
            ]},
            {"name": "the emergency contacts changed too", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=path, old_text=leaver, new_text=successor),
                act("word", "replace_text", file_path="data/admin/emergency_contacts.docx", old_text=leaver,
                    new_text=successor),
            ]},
            {"name": "the successor given a new extension", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=path, old_text=f"{leaver} | {dept_a} | ext. {ext}",
                    new_text=f"{successor} | {dept_a} | ext. {ext + 1 if ext < 298 else ext - 1}"),
            ]},
            {"name": "only the first name changed", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=path, old_text=leaver,
                    new_text=f"{successor.split()[0]} {lasts[0]}"),
            ]},
        ],
        "right": [
            {"name": "the whole line replaced", "actions": [
                switch("word"),
                act("word", "replace_text", file_path=path, old_text=f"{leaver} | {dept_a} | ext. {ext}",
                    new_text=f"{successor} | {dept_a} | ext. {ext}"),
            ]},
        ],
    }
