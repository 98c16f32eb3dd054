"""Two-app families around documents: PDFs read, edited and filed; Word memos, quotes and agendas
(pdf + word, pdf + email, pdf + excel, pdf + calendar, excel + word, calendar + word, word + email)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from officesim.tasks.families._kit import (
    FMT, MONTHS, act, at, check, day_month, day_name, docx, ev, fmt, head, hm, ics, iso, next_weekday, other_companies,
    pdf, people, setup, switch, weekday_day_month, workday_after, workday_before, xlsx
)
from officesim.tasks.families.registry import family

STREETS = ["Mill Road", "Quarry Lane", "Harbour Street", "Elm Avenue", "Station Square", "Kiln Way",
           "Orchard Row", "Beacon Hill", "Canal Walk", "Linden Court"]
TOWNS = ["Easton", "Westbury", "Northfleet", "Southmere", "Ashford Vale", "Brookhaven", "Redcliff", "Fairholm"]


@family("certificate-name-fix", apps=["pdf", "word"])
def certificate_name_fix(rng: random.Random) -> dict:
    """Fix a misspelt participant name on a training certificate PDF by converting it to Word and back."""
    org, domain, (me, trainer), now = setup(rng, 2)
    person = people(rng, 1, domain)[0]
    first, last = person["name"].split()
    typo_last = last[:-2] + last[-1] + last[-2] if last[-1] != last[-2] else last + "e"
    wrong_name = f"{first} {typo_last}"
    course = rng.choice(["Fire Safety Awareness", "Manual Handling", "Data Protection Basics", "First Aid at Work",
                         "Forklift Operation"])
    done = now.date() - timedelta(days=rng.randrange(2, 10))
    hours = rng.choice([4, 6, 7, 8])
    text = (f"CERTIFICATE OF COMPLETION\nThis is to certify that\n{wrong_name}\nhas completed the course\n{course}\n"
            f"({hours} hours) on {day_month(done)} {done.year}.\nTrainer: {trainer['name']}\n{org}")
    slug = course.lower().replace(" ", "_")
    src = f"data/training/certificates/{slug}_{typo_last.lower()}.pdf"
    out = f"data/training/certificates/{slug}_{last.lower()}.pdf"
    mid = f"data/training/certificates/{slug}_{last.lower()}.docx"
    other = people(rng, 1, domain)[0]
    other_src = f"data/training/certificates/{slug}_{other['name'].split()[1].lower()}.pdf"
    draft = "data/training/certificate_draft.docx"
    return {
        **head(me, now),
        "instruction": (f"The {course} certificate in data/training/certificates/ misspells {person['name']}'s "
                        f"surname. Please make a corrected certificate with the name spelt '{person['name']}' and save "
                        f"it as {out}. Keep everything else on it the same."),
        "office": [
            pdf(src, [text], title="Certificate"),
            pdf(other_src, [text.replace(wrong_name, other["name"])]),
        ],
        # the Word file the conversion goes through is the agent's scratch file: any name, kept or not
        "free": ["data/*.docx"],
        "checks": [
            check("contains", file=out, text=[person["name"], course, trainer["name"], f"({hours} hours)"],
                  case_sensitive=True),
            check("not_contains", file=out, text=typo_last, case_sensitive=True),
        ],
        "gold": [
            switch("pdf"),
            act("pdf", "read_file", pdf_file_path=src),
            act("pdf", "convert_to_word", pdf_file_path=src, word_file_path=mid),
            switch("word"),
            act("word", "replace_text", file_path=mid, old_text=wrong_name, new_text=person["name"]),
            act("word", "convert_to_pdf", word_file_path=mid, pdf_file_path=out),
        ],
        "wrong": [
            {"name": "converts back without fixing the name",
             "actions": [switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=src, word_file_path=mid),
                         switch("word"), act("word", "convert_to_pdf", word_file_path=mid, pdf_file_path=out)]},
            {"name": "rewrites the certificate with only the name line",
             "actions": [switch("word"), act("word", "write_to_file", file_path=mid,
                                             contents=f"CERTIFICATE OF COMPLETION\n{person['name']}"),
                         act("word", "convert_to_pdf", word_file_path=mid, pdf_file_path=out)]},
            {"name": "fixes the name but saves over the misspelt original",
             "actions": [switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=src, word_file_path=mid),
                         switch("word"), act("word", "replace_text", file_path=mid, old_text=wrong_name,
                                             new_text=person["name"]),
                         act("word", "convert_to_pdf", word_file_path=mid, pdf_file_path=src)]},
            {"name": "corrects the name but drops the trainer line",
             "actions": [switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=src, word_file_path=mid),
                         switch("word"), act("word", "replace_text", file_path=mid, old_text=wrong_name,
                                             new_text=person["name"]),
                         act("word", "replace_text", file_path=mid, old_text=f"Trainer: {trainer['name']}",
                             new_text=""),
                         act("word", "convert_to_pdf", word_file_path=mid, pdf_file_path=out)]},
        ],
        "right": [
            {"name": "only the surname replaced, in a Word file of another name",
             "actions": [switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=src, word_file_path=draft),
                         switch("word"), act("word", "replace_text", file_path=draft, old_text=typo_last,
                                             new_text=last),
                         act("word", "convert_to_pdf", word_file_path=draft, pdf_file_path=out)]},
        ],
    }


@family("per-diem-memo", apps=["pdf", "word"])
def per_diem_memo(rng: random.Random) -> dict:
    """Look up a city's daily allowance in the travel policy PDF and write the trip allowance memo."""
    org, domain, (me, traveller), now = setup(rng, 2)
    cities = rng.sample(["Lisbon", "Krakow", "Bergen", "Valencia", "Ghent", "Tallinn", "Bologna", "Graz",
                         "Cork", "Aarhus"], 6)
    rates = {c: rng.randrange(55, 150, 5) for c in cities}
    while len(set(rates.values())) < len(rates):
        rates = {c: rng.randrange(55, 150, 5) for c in cities}
    city = cities[2]
    neighbour = cities[3]
    days = rng.randrange(2, 6)
    total = rates[city] * days
    depart = workday_after(now.date(), rng.randrange(5, 12))
    policy = [
        f"{org} TRAVEL POLICY\nSection 1. Booking\nBook travel through the travel desk\nat least two weeks ahead.",
        "Section 2. Daily allowance (per day, EUR)\n" + "\n".join(f"{c}: {rates[c]}" for c in cities)
        + "\nOther cities: 60\nThe allowance covers meals and local transport.",
    ]
    memo = f"data/memos/allowance_{traveller['first'].lower()}_{city.lower()}.docx"
    # figures a memo must not state: the other cities' rates and the trip's total at a wrong rate or length
    wrong_figures = [str(v) for v in sorted(({rates[c] for c in cities if c != city}
                                             | {60, rates[neighbour] * days, rates[city] * (days - 1),
                                                rates[city] * (days + 1)}) - {rates[city], total, days})]
    lines = (f"Travel allowance: {traveller['name']}\n"
             f"Destination: {city}\n"
             f"Daily allowance: {rates[city]} EUR\nTotal allowance: {total} EUR")
    return {
        **head(me, now),
        "instruction": (f"{traveller['name']} is going to {city} for {days} days from {weekday_day_month(depart)}. "
                        f"Please write a short memo in a new Word file {memo} with the daily allowance for {city} from "
                        "our travel policy (data/policies/travel_policy.pdf) and the total allowance for the trip."),
        "office": [
            pdf("data/policies/travel_policy.pdf", policy),
            pdf("data/policies/expenses_policy.pdf",
                ["EXPENSES POLICY\nReceipts are needed for every claim\nover 25 EUR."]),
            docx("data/memos/allowance_template_notes.docx",
                 ["Notes for allowance memos", "State destination, dates and amounts."]),
        ],
        # the memo's wording and layout are free: the checks hold its facts
        "free": [memo],
        "checks": [
            check("file_exists", file=memo),
            check("contains", file=memo, text=[city, str(rates[city]), str(total)], exclude=wrong_figures),
            check("no_repeats", file=memo),
        ],
        "gold": [
            switch("pdf"),
            act("pdf", "read_file", pdf_file_path="data/policies/travel_policy.pdf"),
            switch("word"),
            act("word", "create_new_file", file_path=memo),
            act("word", "write_to_file", file_path=memo, contents=lines),
        ],
        "wrong": [
            {"name": "uses the next city's rate from the table",
             "actions": [switch("word"), act("word", "write_to_file", file_path=memo, contents=lines.replace(
                 f"{rates[city]} EUR", f"{rates[neighbour]} EUR").replace(f"{total} EUR", f"{rates[neighbour] * days} EUR"))]},
            {"name": "total for one day fewer",
             "actions": [switch("word"), act("word", "write_to_file", file_path=memo, contents=lines.replace(
                 f"{total} EUR", f"{rates[city] * (days - 1)} EUR"))]},
            {"name": "copies the whole allowance table into the memo",
             "actions": [switch("word"), act("word", "write_to_file", file_path=memo, contents=lines + "\n"
                                             + "\n".join(f"{c}: {rates[c]} EUR per day" for c in cities))]},
            {"name": "total for one day more",
             "actions": [switch("word"), act("word", "write_to_file", file_path=memo, contents=lines.replace(
                 f"{total} EUR", f"{rates[city] * (days + 1)} EUR"))]},
            {"name": "writes the memo into the notes document instead of a new file",
             "actions": [switch("word"), act("word", "write_to_file", file_path="data/memos/allowance_template_notes.docx",
                                             contents=lines)]},
        ],
        "right": [
            {"name": "a two-line memo, amounts with decimals",
             "actions": [switch("word"), act("word", "create_new_file", file_path=memo),
                         act("word", "write_to_file", file_path=memo, contents=(
                             f"Allowance memo - {traveller['name']}, {city} trip ({days} days)\n"
                             f"EUR {rates[city]:.2f} per day x {days} days = EUR {total:,.2f}"))]},
            {"name": "one sentence with the euro sign, file made by writing to it",
             "actions": [switch("word"), act("word", "write_to_file", file_path=memo, contents=(
                 f"{traveller['first']} gets €{rates[city]} a day in {city}, so €{total} for the whole trip."))]},
        ],
    }


@family("invoice-pdf-to-payables", apps=["pdf", "email"])
def invoice_pdf_to_payables(rng: random.Random) -> dict:
    """Find one supplier's invoice among scanned-in PDFs and send it to accounts payable with its details."""
    org, domain, (me,), now = setup(rng, 1)
    sups = other_companies(rng, domain, 3)
    ap = f"payables@{domain}"
    files = rng.sample(range(101, 140), 3)
    invs = []
    for (name, sdom), n in zip(sups, files):
        no = f"{name.split()[0][:3].upper()}-{rng.randrange(10000, 99999)}"
        amount = f"{rng.randrange(300, 9000)}.{rng.randrange(0, 100):02d}"
        due = now + timedelta(days=rng.randrange(10, 30))
        path = f"data/inbox_scans/document_{n}.pdf"
        text = (f"{name.upper()}\nINVOICE\nInvoice number: {no}\nBill to: {org}\nDate: {iso(now - timedelta(days=3))}\n"
                f"Consulting services\nTotal due: {amount} EUR\nPayment due by: {iso(due)}")
        invs.append({"supplier": name, "no": no, "amount": amount, "path": path, "text": text})
    target = invs[1]
    # the other invoices' numbers and totals: a message naming them is about the wrong invoice (or all of them)
    others = [i[k] for i in (invs[0], invs[2]) for k in ("no", "amount") if float(i["amount"]) != float(target["amount"])
              or k == "no"]
    note = f"data/inbox_scans/document_{files[2] + 1}.pdf"
    body = lambda i: (f"Hello,\n\nPlease process the attached invoice {i['no']} from {i['supplier']}, total due "  # noqa: E731
                      f"{i['amount']} EUR.\n\nThanks,\n{me['first']}")
    send = lambda i: act("email", "send_email", sender=me["email"], recipient=ap,  # noqa: E731
                         subject=f"Invoice {i['no']} for payment", content=body(i), attachments=[i["path"]])
    return {
        **head(me, now),
        "instruction": (f"The invoice from {target['supplier']} is one of the PDFs in data/inbox_scans/. Send it to "
                        f"accounts payable ({ap}) as an attachment, with its invoice number and total in the message."),
        "office": [pdf(i["path"], [i["text"]]) for i in invs]
                  + [pdf(note,
                         [f"DELIVERY NOTE\nFrom {target['supplier']}\n12 boxes delivered\nNo payment needed"])],
        "checks": [
            check("email_sent", sender=me["email"], to=ap, body_contains=[target["no"], target["amount"]],
                  body_excludes=others, attachments=[target["path"].rsplit("/", 1)[1]]),
            check("email_not_sent", sender=me["email"], subject_contains=invs[0]["no"]),
        ],
        "gold": [
            switch("pdf"),
        ] + [act("pdf", "read_file", pdf_file_path=i["path"]) for i in invs[:2]] + [
            switch("email"),
            send(target),
        ],
        "wrong": [
            {"name": "attaches another supplier's invoice", "actions": [switch("email"), send(invs[0])]},
            {"name": "right details but no attachment",
             "actions": [switch("email"), act("email", "send_email", sender=me["email"], recipient=ap,
                                              subject=f"Invoice {target['no']}", content=body(target))]},
            {"name": "attaches the same supplier's delivery note",
             "actions": [switch("email"), act("email", "send_email", sender=me["email"], recipient=ap,
                                              subject=f"Invoice {target['no']} for payment", content=body(target),
                                              attachments=[note])]},
            {"name": "gives the invoice number but not the total",
             "actions": [switch("email"), act("email", "send_email", sender=me["email"], recipient=ap,
                                              subject=f"Invoice {target['no']} for payment",
                                              content=f"Hello,\n\nPlease process the attached invoice {target['no']} "
                                                      f"from {target['supplier']}.\n\nThanks,\n{me['first']}",
                                              attachments=[target["path"]])]},
            {"name": "lists every scanned invoice in the message",
             "actions": [switch("email"), act("email", "send_email", sender=me["email"], recipient=ap,
                                              subject="Invoices for payment", attachments=[target["path"]],
                                              content="\n".join(f"{i['supplier']}: invoice {i['no']}, {i['amount']} EUR"
                                                                for i in invs))]},
            {"name": "the right mail, plus one for another supplier's invoice",
             "actions": [switch("email"), send(target), send(invs[2])]},
        ],
        "right": [
            {"name": "another subject, the total with a thousands separator and the euro sign",
             "actions": [switch("email"), act("email", "send_email", sender=me["email"], recipient=ap,
                                              subject=f"{target['supplier']} invoice", attachments=[target["path"]],
                                              content=f"Hi team, attached is {target['supplier']}'s invoice no. "
                                                      f"{target['no']} - amount due €{float(target['amount']):,.2f}. "
                                                      f"Best, {me['first']}")]},
        ],
    }


@family("bank-statement-reconcile", apps=["pdf", "excel"])
def bank_statement_reconcile(rng: random.Random) -> dict:
    """Mark receivables as paid when the bank statement PDF shows the full payment."""
    org, domain, (me,), now = setup(rng, 1)
    clients = other_companies(rng, domain, 5)
    base = rng.randrange(2000, 2600)
    rows = [["Invoice", "Client", "Amount", "Status"]]
    amounts = []
    for k, (name, _) in enumerate(clients):
        amt = rng.randrange(500, 7000, 10)
        amounts.append(amt)
        rows.append([f"INV-{base + k}", name, amt, "Open"])
    idx = rng.sample(range(5), 3)
    full, partial = idx[:2], idx[2]
    month = (now.replace(day=1) - timedelta(days=1))
    lines = [f"NORDBANK  Account statement {MONTHS[month.month - 1]} {month.year}", "Date  Reference  Amount"]
    entries = []
    for i in full:
        entries.append((rng.randrange(2, 27), f"INV-{base + i} {clients[i][0]}", amounts[i]))
    entries.append((rng.randrange(2, 27), f"INV-{base + partial} {clients[partial][0]}", amounts[partial] // 2))
    entries.append((rng.randrange(2, 27), "Office rent", -rng.randrange(1500, 4000, 100)))
    entries.append((rng.randrange(2, 27), "Card fees", -rng.randrange(10, 60)))
    entries.sort()
    for d, ref, amt in entries:
        lines.append(f"{month.year}-{month.month:02d}-{d:02d}  {ref}  {amt:+d}")
    path = "data/finance/receivables.xlsx"
    return {
        **head(me, now),
        "instruction": (f"Please reconcile {path} against last month's bank statement "
                        f"(data/finance/statement_{month.year}-{month.month:02d}.pdf): set the Status of every invoice "
                        "that was paid in full to 'Paid'. Leave the others as they are."),
        "office": [
            xlsx(path, {"Receivables": rows}),
            pdf(f"data/finance/statement_{month.year}-{month.month:02d}.pdf", ["\n".join(lines)]),
        ],
        "checks": [check("xlsx_cell", file=path, cell=f"D{i + 2}", value="Paid") for i in full]
                  + [check("xlsx_cell", file=path, cell=f"D{partial + 2}", value="Open")],
        "gold": [
            switch("pdf"),
            act("pdf", "read_file", pdf_file_path=f"data/finance/statement_{month.year}-{month.month:02d}.pdf"),
            switch("excel"),
            act("excel", "read_file", file_path=path),
        ] + [act("excel", "set_cell", file_path=path, row_idx=i + 2, column_idx=4, text="Paid") for i in full],
        "wrong": [
            {"name": "also marks the partly paid invoice",
             "actions": [switch("excel")] + [act("excel", "set_cell", file_path=path, row_idx=i + 2, column_idx=4,
                                                 text="Paid") for i in idx]},
            {"name": "marks the row below each paid invoice (header miscount)",
             "actions": [switch("excel")] + [act("excel", "set_cell", file_path=path, row_idx=i + 3, column_idx=4,
                                                 text="Paid") for i in full]},
            {"name": "marks only the first paid invoice",
             "actions": [switch("excel"), act("excel", "set_cell", file_path=path, row_idx=full[0] + 2, column_idx=4,
                                              text="Paid")]},
            {"name": "writes Paid into the Amount column",
             "actions": [switch("excel")] + [act("excel", "set_cell", file_path=path, row_idx=i + 2, column_idx=3,
                                                 text="Paid") for i in full]},
            {"name": "marks the paid invoices and the partial one as 'Part paid'",
             "actions": [switch("excel")] + [act("excel", "set_cell", file_path=path, row_idx=i + 2, column_idx=4,
                                                 text="Paid") for i in full]
                        + [act("excel", "set_cell", file_path=path, row_idx=partial + 2, column_idx=4, text="Part paid")]},
        ],
        "right": [
            {"name": "the invoices marked in the other order, with a stray space typed",
             "actions": [switch("excel"), act("excel", "read_file", file_path=path)]
                        + [act("excel", "set_cell", file_path=path, row_idx=i + 2, column_idx=4, text="Paid ")
                           for i in reversed(full)]},
        ],
    }


@family("conference-sessions-calendar", apps=["pdf", "calendar"])
def conference_sessions_calendar(rng: random.Random) -> dict:
    """Put the sessions a colleague presents at a conference (from the programme PDF) in the calendar."""
    org, domain, folks, now = setup(rng, 5)
    me, speaker = folks[0], folks[1]
    others = folks[2:]
    ext = [people(rng, 1, d)[0] for _, d in other_companies(rng, domain, 3)]
    conf = rng.choice(["Logistics Forum", "Data in Practice", "Retail Futures", "Health Ops Summit", "Open Ledger Days"])
    day = next_weekday(now, rng.choice([1, 2, 3]))
    titles = rng.sample(["Forecasting with small data", "Warehouse robots in practice", "Pricing experiments",
                         "Lessons from a failed migration", "Green last-mile delivery", "Dashboards people read",
                         "Hiring analysts", "Cleaning messy spreadsheets", "Contracts that scale"], 6)
    rooms = ["Hall A", "Hall B", "Room 3", "Room 5"]
    slots = [(9, 30), (10, 30), (11, 30), (13, 30), (14, 30), (15, 30)]
    presenters = [speaker, ext[0], speaker, others[0], ext[1], ext[2]]
    rng.shuffle(presenters)
    sess = []
    lines = [f"{conf.upper()} - PROGRAMME", f"{weekday_day_month(day)} {day.year}"]
    for (h, m), t, p in zip(slots, titles, presenters):
        room = rng.choice(rooms)
        s, e = at(day, h, m), at(day, h, m) + timedelta(minutes=45)
        lines.append(f"{hm(s)}-{hm(e)}  {room}  {t} ({p['name']})")
        sess.append((t, s, e, room, p))
    mine = [x for x in sess if x[4] is speaker]
    other = next(x for x in sess if x[4] is not speaker)
    create = lambda x: act("calendar", "create_event", user=me["email"], summary=x[0], time_start=fmt(x[1]),  # noqa: E731
                           time_end=fmt(x[2]), location=x[3])
    path = f"data/events/{conf.lower().replace(' ', '_')}_programme.pdf"
    return {
        **head(me, now),
        "instruction": (f"I'm going to {conf} on {weekday_day_month(day)} to support {speaker['name']}. Add the "
                        f"sessions {speaker['first']} presents to my calendar, using the session title as the event "
                        f"title and the room as location. The programme is {path}."),
        "office": [
            pdf(path, ["\n".join(lines)]),
            ics(me["email"], [
                ev("Travel to " + conf, at(day, 7, 30), at(day, 9)),
                ev("Weekly report", at(workday_after(day, 1), 9), at(workday_after(day, 1), 10))]),
        ],
        "checks": [check("ics_event", user=me["email"], summary=x[0], start=fmt(x[1]), end=fmt(x[2]), location=x[3])
                   for x in mine] + [check("ics_event_count", user=me["email"], count=2 + len(mine))],
        "gold": [switch("pdf"), act("pdf", "read_file", pdf_file_path=path), switch("calendar")]
                + [create(x) for x in mine],
        "wrong": [
            {"name": "adds someone else's session", "actions": [switch("calendar"), create(mine[0]), create(other)]},
            {"name": "books each session as a full hour instead of 45 minutes",
             "actions": [switch("calendar")] + [create((x[0], x[1], x[1] + timedelta(hours=1), x[3], x[4])) for x in mine]},
            {"name": "puts the room in the title instead of the location",
             "actions": [switch("calendar")] + [act("calendar", "create_event", user=me["email"],
                                                    summary=f"{x[0]} ({x[3]})", time_start=fmt(x[1]),
                                                    time_end=fmt(x[2])) for x in mine]},
            {"name": "uses the speaker's name as the event title",
             "actions": [switch("calendar")] + [act("calendar", "create_event", user=me["email"],
                                                    summary=f"{speaker['name']} presents", time_start=fmt(x[1]),
                                                    time_end=fmt(x[2]), location=x[3]) for x in mine]},
            {"name": "adds each session twice",
             "actions": [switch("calendar")] + [create(x) for x in mine] + [create(x) for x in mine]},
            {"name": "invites the speaker to each session",
             "actions": [switch("calendar")] + [act("calendar", "create_event", user=me["email"], summary=x[0],
                                                    time_start=fmt(x[1]), time_end=fmt(x[2]), location=x[3],
                                                    attendees=[speaker["email"]]) for x in mine]},
        ],
        "right": [
            {"name": "titles and rooms in lower case, with a description",
             "actions": [switch("calendar")] + [act("calendar", "create_event", user=me["email"], summary=x[0].lower(),
                                                    time_start=fmt(x[1]), time_end=fmt(x[2]), location=x[3].lower(),
                                                    description=f"{conf}: {speaker['name']} presents")
                                                for x in reversed(mine)]},
        ],
    }


@family("registration-forms-to-sheet", apps=["pdf", "excel"])
def registration_forms_to_sheet(rng: random.Random) -> dict:
    """Copy new workshop registration forms (PDFs) into the attendee workbook."""
    org, domain, folks, now = setup(rng, 6)
    me = folks[0]
    depts = ["Finance", "Operations", "Sales", "IT", "Legal", "Facilities"]
    sessions = ["Morning", "Afternoon"]
    workshop = rng.choice(["Excel for planners", "Writing clear reports", "First aid basics", "Negotiation skills"])
    regs = [[p["name"], p["email"], rng.choice(depts), rng.choice(sessions)] for p in folks[1:6]]
    old, new = regs[:2], regs[2:]
    forms = []
    for k, r in enumerate(new):
        path = f"data/registrations/form_{rng.randrange(100, 999)}{k}.pdf"
        forms.append(path)
        txt = (f"WORKSHOP REGISTRATION\n{workshop}\nName: {r[0]}\nEmail: {r[1]}\nDepartment: {r[2]}\n"
               f"Session: {r[3]}\nSigned: {r[0]}")
        forms_entry = pdf(path, [txt])
        new[k] = r + [forms_entry]
    sheet = "data/registrations/attendees.xlsx"
    rows = [["Name", "Email", "Department", "Session"]] + old
    return {
        **head(me, now),
        "instruction": (f"Three new registration forms for the '{workshop}' workshop came in as PDFs in "
                        f"data/registrations/. Add each registrant as a new row at the bottom of {sheet} "
                        "(name, email, department, session)."),
        "office": [xlsx(sheet, {"Attendees": rows})] + [r[4] for r in new]
                  + [pdf("data/registrations/README.pdf",
                         ["Registration process\nForms go to the coordinator.\nMax 20 people per session."])],
        # the new rows may come in any order (the forms have none), which a cell-by-cell comparison with
        # the gold workbook cannot accept: the checks judge the whole sheet instead
        "free": [sheet],
        "checks": [check("xlsx_row", file=sheet, row=1, values=rows[0])]
                  + [check("xlsx_row", file=sheet, row=k + 2, values=r) for k, r in enumerate(old)]
                  + [check("xlsx_row", file=sheet, values=r[:4]) for r in new]
                  + [check("cell_compare", file=sheet, cell=f"A{4 + k}", op="!=", value=None) for k in range(len(new))]
                  + [check("xlsx_row", file=sheet, row=4 + len(new), values=[]),
                     check("xlsx_row", file=sheet, row=5 + len(new), values=[]),
                     check("xlsx_sheet_exists", file=sheet, sheet="Attendees")],
        "gold": [switch("pdf")] + [act("pdf", "read_file", pdf_file_path=r[4]["path"]) for r in new]
                + [switch("excel"), act("excel", "read_file", file_path=sheet)]
                + [act("excel", "set_cell", file_path=sheet, row_idx=4 + k, column_idx=c + 1, text=v)
                   for k, r in enumerate(new) for c, v in enumerate(r[:4])],
        "wrong": [
            {"name": "overwrites the existing rows",
             "actions": [switch("excel")] + [act("excel", "set_cell", file_path=sheet, row_idx=2 + k, column_idx=c + 1,
                                                 text=v) for k, r in enumerate(new) for c, v in enumerate(r[:4])]},
            {"name": "forgets the last form",
             "actions": [switch("excel")] + [act("excel", "set_cell", file_path=sheet, row_idx=4 + k, column_idx=c + 1,
                                                 text=v) for k, r in enumerate(new[:2]) for c, v in enumerate(r[:4])]},
            {"name": "adds the rows below a blank line",
             "actions": [switch("excel")] + [act("excel", "set_cell", file_path=sheet, row_idx=5 + k, column_idx=c + 1,
                                                 text=v) for k, r in enumerate(new) for c, v in enumerate(r[:4])]},
            {"name": "department and session swapped",
             "actions": [switch("excel")] + [act("excel", "set_cell", file_path=sheet, row_idx=4 + k, column_idx=c + 1,
                                                 text=v) for k, r in enumerate(new)
                                             for c, v in enumerate([r[0], r[1], r[3], r[2]])]},
            {"name": "adds the first form twice",
             "actions": [switch("excel")] + [act("excel", "set_cell", file_path=sheet, row_idx=4 + k, column_idx=c + 1,
                                                 text=v) for k, r in enumerate(new + new[:1])
                                             for c, v in enumerate(r[:4])]},
            {"name": "adds the rows and a note beside them",
             "actions": [switch("excel")] + [act("excel", "set_cell", file_path=sheet, row_idx=4 + k, column_idx=c + 1,
                                                 text=v) for k, r in enumerate(new) for c, v in enumerate(r[:4])]
                        + [act("excel", "set_cell", file_path=sheet, row_idx=4, column_idx=5, text="new")]},
        ],
        "right": [
            {"name": "the forms in file-name order",
             "actions": [switch("excel")] + [act("excel", "set_cell", file_path=sheet, row_idx=4 + k, column_idx=c + 1,
                                                 text=v) for k, r in enumerate(sorted(new, key=lambda r: r[4]["path"]))
                                             for c, v in enumerate(r[:4])]},
            {"name": "each row inserted whole under the existing ones",
             "actions": [switch("excel")] + [act("excel", "insert_row", file_path=sheet, row_idx=4, values=r[:4])
                                             for r in new]},
        ],
    }


@family("exam-resit-list", apps=["excel", "word"])
def exam_resit_list(rng: random.Random) -> dict:
    """From the grade book, list the students below the final-exam pass mark in the resit notice."""
    org = rng.choice(["Silverpine Schools", "Brookhaven College", "Redcliff Academy"])
    domain = {"Silverpine Schools": "silverpine.test", "Brookhaven College": "brookhaven.test",
              "Redcliff Academy": "redcliff.test"}[org]
    folks = people(rng, 13, domain)
    me, students = folks[0], folks[1:]
    now = setup(rng, 1)[3]
    subject = rng.choice(["Chemistry", "Economics", "History", "Statistics", "Biology"])
    pass_mark = rng.choice([50, 55, 60])
    rows = [["Student", "Coursework", "Midterm", "Final exam"]]
    fails, passes, mid_fails = [], [], []
    for k, s in enumerate(students):
        if k < 3:
            final = rng.randrange(pass_mark - 25, pass_mark)
        else:
            final = rng.randrange(pass_mark, 96)
        mid = rng.randrange(pass_mark - 20, pass_mark) if k in (3, 4) else rng.randrange(pass_mark, 95)
        rows.append([s["name"], rng.randrange(45, 98), mid, final])
        (fails if final < pass_mark else passes).append(s["name"])
        if mid < pass_mark:
            mid_fails.append(s["name"])
    body = rows[1:]
    rng.shuffle(body)
    rows = rows[:1] + body
    doc = f"data/{subject.lower()}/resit_notice.docx"
    intro = [f"{subject} resit examination", "The following students are invited to the resit:"]
    gold_lines = "\n".join(sorted(fails))
    return {
        **head(me, now),
        "instruction": (f"The {subject} resit notice {doc} needs its list of names: add one paragraph per student "
                        f"whose Final exam mark in data/{subject.lower()}/grades.xlsx is below the pass mark of "
                        f"{pass_mark}."),
        "office": [
            xlsx(f"data/{subject.lower()}/grades.xlsx", {"Grades": rows}),
            docx(doc, [{"text": intro[0], "style": "Heading 1"}, intro[1]]),
            docx(f"data/{subject.lower()}/syllabus.docx",
                 [f"{subject} syllabus", "Assessment: coursework 30%, midterm 20%, final exam 50%."]),
        ],
        # one new paragraph per student is held by the outcome (how many paragraphs are added); their
        # wording is free (a name may come with its mark), so the names are checked as facts
        "checks": [check("contains", file=doc, text=fails, exclude=passes),
                   check("docx_has_paragraph", file=doc, text=intro[1])],
        "gold": [
            switch("excel"),
            act("excel", "read_file", file_path=f"data/{subject.lower()}/grades.xlsx"),
            switch("word"),
            act("word", "read_file", file_path=doc),
            act("word", "write_to_file", file_path=doc, contents=gold_lines),
        ],
        "wrong": [
            {"name": "uses the midterm column",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc, contents="\n".join(mid_fails))]},
            {"name": "includes a student exactly at or above the pass mark",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc,
                                             contents="\n".join(sorted(fails) + [passes[0]]))]},
            {"name": "all the names in one paragraph",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc, contents=", ".join(sorted(fails)))]},
            {"name": "lists every student with a pass or fail",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc, contents="\n".join(
                 f"{r[0]}: {'resit' if r[0] in fails else 'passed'}" for r in rows[1:]))]},
            {"name": "writes the list into the syllabus",
             "actions": [switch("word"), act("word", "write_to_file", file_path=f"data/{subject.lower()}/syllabus.docx",
                                             contents=gold_lines)]},
        ],
        "right": [
            {"name": "a bulleted list with each student's mark, in the workbook's order",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc, contents="\n".join(
                 f"- {r[0]} ({r[3]})" for r in rows[1:] if r[0] in fails))]},
        ],
    }


@family("quote-letter-fill", apps=["excel", "word"])
def quote_letter_fill(rng: random.Random) -> dict:
    """Fill the placeholders of a drafted price quote from the product catalogue."""
    org, domain, (me,), now = setup(rng, 1)
    client, cdom = other_companies(rng, domain, 1)[0]
    contact = people(rng, 1, cdom)[0]
    products = rng.sample(["Ergonomic chair", "Standing desk", "Monitor arm", "Desk lamp", "Filing cabinet",
                           "Whiteboard 120cm", "Footrest", "Cable tray", "Acoustic panel"], 6)
    prices = rng.sample(range(15, 90), 6)
    cat = [["Code", "Product", "Unit price"]] + [[f"P-{300 + k * 7}", p, pr] for k, (p, pr) in enumerate(zip(products, prices))]
    t = rng.randrange(1, 5)
    product, price = products[t], prices[t]
    qty = rng.randrange(3, 11)
    total = qty * price
    wrong_price = prices[t + 1]
    doc = f"data/sales/quote_{client.split()[0].lower()}.docx"
    paras = [f"Quotation for {client}", f"Dear {contact['name']},",
             f"Thank you for your enquiry. We are pleased to quote for {qty} x {product}.",
             "Unit price: [UNIT PRICE] EUR", "Total: [TOTAL] EUR", "This quote is valid for 30 days.",
             f"Kind regards, {me['name']}, {org}"]
    # numbers the filled quote states anyway (quantity, "120cm", "valid for 30 days") are no candidates
    stated = {qty, 30} | ({120} if "120" in product else set())
    wrong_figures = [str(v) for v in sorted({p for p in prices if p != price} | {qty * p for p in prices if p != price}
                                            | {total - price, total + price}) if v not in stated | {price, total}]
    # the unit price after its label and before the total's (so not swapped): possible when neither figure
    # appears earlier in the quote
    ordered = price not in stated and total not in stated
    fill = lambda u, tot: [act("word", "replace_text", file_path=doc, old_text="[UNIT PRICE]", new_text=str(u)),  # noqa: E731
                           act("word", "replace_text", file_path=doc, old_text="[TOTAL]", new_text=str(tot))]
    return {
        **head(me, now),
        "instruction": (f"Please finish the quote for {client} in {doc}: fill in the unit price and the total "
                        "where the placeholders are, using the price list data/sales/catalogue.xlsx."),
        "office": [
            xlsx("data/sales/catalogue.xlsx", {"Catalogue": cat}),
            docx(doc, paras),
            docx("data/sales/quote_template.docx",
                 ["Quotation for [CLIENT]", "Unit price: [UNIT PRICE] EUR", "Total: [TOTAL] EUR"]),
        ],
        "checks": [
            check("contains", file=doc, text=[str(price), str(total)], exclude=wrong_figures),
            check("not_contains", file=doc, text=["[UNIT PRICE]", "[TOTAL]"]),
        ] + ([check("contains", file=doc, text=["Unit price", str(price), "Total", str(total)], ordered=True)]
             if ordered else []),
        "gold": [
            switch("word"),
            act("word", "read_file", file_path=doc),
            switch("excel"),
            act("excel", "read_file", file_path="data/sales/catalogue.xlsx"),
            switch("word"),
        ] + fill(price, total),
        "wrong": [
            {"name": "takes the price of the next product in the list",
             "actions": [switch("word")] + fill(wrong_price, qty * wrong_price)},
            {"name": "total for one unit fewer", "actions": [switch("word")] + fill(price, total - price)},
            {"name": "fills the blank quote template instead of the client's quote",
             "actions": [switch("word")] + [act("word", "replace_text", file_path="data/sales/quote_template.docx",
                                                old_text=o, new_text=str(n))
                                            for o, n in (("[UNIT PRICE]", price), ("[TOTAL]", total))]},
            {"name": "fills the unit price only",
             "actions": [switch("word")] + fill(price, total)[:1]},
        ] + ([{"name": "unit price and total swapped", "actions": [switch("word")] + fill(total, price)}]
             if ordered else []),
        "right": [
            {"name": "the two lines rewritten with decimals and the currency first",
             "actions": [switch("word"),
                         act("word", "replace_text", file_path=doc, old_text="Unit price: [UNIT PRICE] EUR",
                             new_text=f"Unit price: EUR {price:.2f}"),
                         act("word", "replace_text", file_path=doc, old_text="Total: [TOTAL] EUR",
                             new_text=f"Total: EUR {total:,.2f} ({qty} x {price})")]},
        ],
    }


@family("leave-handover-note", apps=["calendar", "word"])
def leave_handover_note(rng: random.Random) -> dict:
    """Before going on leave, list next week's meetings in the handover note so a colleague can cover them."""
    org, domain, folks, now = setup(rng, 4)
    me, cover = folks[0], folks[1]
    monday = now.date() + timedelta(days=7 - now.weekday())
    names = rng.sample(["Supplier review", "Hiring panel", "Budget check-in", "Client call: " + other_companies(rng, domain, 1)[0][0],
                        "Design critique", "Quarterly planning", "Safety walk", "Data quality review", "Launch rehearsal",
                        "Training: data privacy"], 7)
    days = sorted(rng.sample(range(5), 3))
    nxt = []
    for d, n in zip(days, names[:3]):
        s = at(monday + timedelta(days=d), rng.choice([9, 10, 11, 14, 15]), rng.choice([0, 30]))
        nxt.append(ev(n, s, s + timedelta(minutes=rng.choice([30, 60])), attendees=[folks[2]["email"]]))
    this_week = [ev(names[3], at(now.date(), 14), at(now.date(), 15)),
                 ev(names[4], at(workday_after(now.date(), 1) if now.weekday() < 4 else now.date(), 10),
                    at(workday_after(now.date(), 1) if now.weekday() < 4 else now.date(), 11))]
    after = [ev(names[5], at(monday + timedelta(days=7 + days[0]), 10), at(monday + timedelta(days=7 + days[0]), 11))]
    leave = [ev("Annual leave", at(monday, 8), at(monday + timedelta(days=4), 18))]
    doc = f"data/handover/handover_{iso(monday)}.docx"
    line = lambda e: f"{e['summary']} - {weekday_day_month(datetime.strptime(e['start'], FMT))}"  # noqa: E731
    intro = [{"text": f"Handover: {me['name']}, week of {day_month(monday)}", "style": "Heading 1"},
             f"Covering: {cover['name']}", "Meetings to cover:"]
    return {
        **head(me, now),
        "instruction": (f"I'm on leave next week and {cover['first']} covers for me. In my handover note {doc}, add "
                        "one paragraph under 'Meetings to cover:' for each meeting in my calendar next week, giving "
                        "its title and its day."),
        "office": [
            ics(me["email"], this_week + leave + nxt + after),
            docx(doc, intro),
        ],
        # each meeting with its day as a date (any common form) on its line; the other meetings' titles
        # must not be there
        "checks": [check("contains", file=doc, text=[e["summary"] for e in nxt] + [iso(monday + timedelta(days=d))
                                                                                   for d in days],
                         exclude=[e["summary"] for e in this_week + leave + after],
                         lines=[[e["summary"], e["start"][:10]] for e in nxt]),
                   check("docx_has_paragraph", file=doc, text=f"Covering: {cover['name']}")],
        "gold": [
            switch("calendar"),
            act("calendar", "list_events", username=me["email"]),
            switch("word"),
            act("word", "read_file", file_path=doc),
            act("word", "write_to_file", file_path=doc, contents="\n".join(line(e) for e in nxt)),
        ],
        "wrong": [
            {"name": "lists this week's meetings",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc,
                                             contents="\n".join(line(e) for e in this_week))]},
            {"name": "misses next week's last meeting",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc,
                                             contents="\n".join(line(e) for e in nxt[:2]))]},
            {"name": "next week's meetings with this week's dates",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc, contents="\n".join(
                 f"{e['summary']} - {weekday_day_month(datetime.strptime(e['start'], FMT) - timedelta(days=7))}"
                 for e in nxt))]},
            {"name": "lists every meeting in the calendar",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc,
                                             contents="\n".join(line(e) for e in this_week + nxt + after))]},
            {"name": "adds the annual leave as a meeting to cover",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc,
                                             contents="\n".join(line(e) for e in leave + nxt))]},
            {"name": "writes the meetings into a new document",
             "actions": [switch("word"), act("word", "write_to_file", file_path=f"data/handover/meetings_{iso(monday)}.docx",
                                             contents="\n".join(line(e) for e in nxt))]},
        ],
        "right": [
            {"name": "date first, as the calendar shows it",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc, contents="\n".join(
                 f"{e['start'][:10]}: {e['summary']}" for e in nxt))]},
            {"name": "bullets with the day as month and day, latest first",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc, contents="\n".join(
                 f"- {e['summary']} ({datetime.strptime(e['start'], FMT).strftime('%A, %B %-d')})"
                 for e in reversed(nxt)))]},
        ],
    }


@family("action-items-mail", apps=["word", "email"])
def action_items_mail(rng: random.Random) -> dict:
    """Send one colleague the action items assigned to them in yesterday's meeting notes."""
    org, domain, folks, now = setup(rng, 4)
    me, target, other, third = folks
    y = workday_before(now.date(), 1)
    project = rng.choice(["Harbour", "Summit", "Lantern", "Meridian", "Quartz"])
    pool = ["send the revised budget to finance", "book the venue for the launch", "update the risk register",
            "draft the customer FAQ", "check the supplier's insurance certificate", "collect quotes for printing",
            "set up the shared project folder", "review the test plan", "confirm the delivery dates",
            "prepare slides for the steering group"]
    items = rng.sample(pool, 5)
    assign = [target, other, target, third, other]
    dd = weekday_day_month(workday_after(now.date(), 3))
    notes = [f"{project} project sync - {weekday_day_month(y)}",
             "Attendees: " + ", ".join(p["name"] for p in (me, other, third)) + f"; apologies: {target['name']}",
             "Notes", "Timeline is on track; launch date unchanged.", "Action items"]
    actions = [f"{p['first']}: {it} (by {dd})" for p, it in zip(assign, items)]
    mine = [it for p, it in zip(assign, items) if p is target]
    theirs = [it for p, it in zip(assign, items) if p is other]
    doc = f"data/meetings/{iso(y)}_{project.lower()}_sync.docx"
    when = "yesterday's" if (now.date() - y).days == 1 else f"last {day_name(y)}'s"
    body = lambda its: (f"Hi,\n\nFrom {when} {project} sync, your action items are:\n"  # noqa: E731
                        + "\n".join(f"- {i}" for i in its) + f"\n\nThanks,\n{me['first']}")
    send = lambda to, its: act("email", "send_email", sender=me["email"], recipient=to,  # noqa: E731
                               subject=f"Your action items from the {project} sync", content=body(its))
    done_item = rng.choice([p for p in pool if p not in items])  # last week's item, already done
    return {
        **head(me, now),
        "instruction": (f"{target['name']} missed {when} {project} sync. Email {target['first']} "
                        f"({target['email']}) the action items assigned to them in the meeting notes in data/meetings/."),
        "office": [
            docx(doc, [{"text": notes[0], "style": "Heading 1"}] + notes[1:4]
                 + [{"text": notes[4], "style": "Heading 2"}] + actions),
            docx(f"data/meetings/{iso(y - timedelta(days=7))}_{project.lower()}_sync.docx",
                 [f"{project} project sync", "Action items", f"{target['first']}: {done_item} (done)"]),
        ],
        "checks": [check("email_sent", sender=me["email"], to=target["email"], body_contains=mine,
                         body_excludes=[it for it in items if it not in mine] + [done_item]),
                   check("email_not_sent", sender=me["email"], to=other["email"])],
        "gold": [
            switch("word"),
            act("word", "read_file", file_path=doc),
            switch("email"),
            send(target["email"], mine),
        ],
        "wrong": [
            {"name": "sends another colleague's items", "actions": [switch("email"), send(target["email"], theirs)]},
            {"name": "misses one of the two items", "actions": [switch("email"), send(target["email"], mine[:1])]},
            {"name": "sends every action item of the meeting", "actions": [switch("email"), send(target["email"], items)]},
            {"name": "adds last week's item that is already done",
             "actions": [switch("email"), send(target["email"], mine + [done_item])]},
            {"name": "copies another attendee in",
             "actions": [switch("email"), act("email", "send_email", sender=me["email"], recipient=target["email"],
                                              cc=[other["email"]], subject=f"Your action items from the {project} sync",
                                              content=body(mine))]},
            {"name": "sends the items to the whole meeting",
             "actions": [switch("email"), send([p["email"] for p in folks[1:]], mine)]},
        ],
        "right": [
            {"name": "reworded, items capitalised with their deadline",
             "actions": [switch("email"), act("email", "send_email", sender=me["email"], recipient=target["email"],
                                              subject=f"{project} sync follow-up",
                                              content=f"Hello {target['first']}, you have {len(mine)} actions from the "
                                                      f"sync: " + "; ".join(f"{i[0].upper()}{i[1:]} (due {dd})"
                                                                            for i in mine) + f". Cheers, {me['first']}")]},
        ],
    }
