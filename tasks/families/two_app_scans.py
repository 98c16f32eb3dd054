"""Two-app families around scanned paper read with OCR (ocr + excel, email, calendar, word, shell)."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    act, at, check, day_month, docx, ev, finish, fmt, head, hm, ics, image, iso, other_companies, people,
    setup, sh, switch, weekday_day_month, workday_after, xlsx
)
from officesim.tasks.families.registry import family

@family("meter-reading-log", apps=["ocr", "excel"])
def meter_reading_log(rng: random.Random) -> dict:
    """Log this month's electricity meter reading from the scanned reading card and the usage since last month."""
    org, domain, (me,), now = setup(rng, 1)
    meter = f"E{rng.randrange(100000, 999999)}"
    gas_meter = f"G{rng.randrange(100000, 999999)}"
    months = []
    d = now.date().replace(day=1)
    for _ in range(4):
        d = (d - timedelta(days=1)).replace(day=1)
        months.append(d)
    months.reverse()
    reading = rng.randrange(20000, 60000)
    rows = [["Month", "Reading (kWh)", "Usage (kWh)"]]
    prev = None
    for m in months:
        r = reading
        rows.append([m.strftime("%Y-%m"), r, None if prev is None else r - prev])
        prev = r
        reading += rng.randrange(900, 2400)
    new_reading = reading
    usage = new_reading - prev
    read_day = now.date() - timedelta(days=rng.randrange(0, 3))
    card = (f"METER READING CARD\nSite: {org}\nMeter no: {meter}\nType: Electricity\nDate: {iso(read_day)}\n"
            f"Reading: {new_reading} kWh\nRead by: caretaker")
    gas = (f"METER READING CARD\nSite: {org}\nMeter no: {gas_meter}\nType: Gas\nDate: {iso(read_day)}\n"
           f"Reading: {rng.randrange(3000, 9000)} m3\nRead by: caretaker")
    gas_reading = int(gas.split("Reading: ")[1].split()[0])
    path = "data/facilities/electricity_readings.xlsx"
    n = len(rows) + 1
    month = now.strftime("%Y-%m")
    fill = lambda r, u: [act("excel", "set_cell", file_path=path, row_idx=n, column_idx=c, text=v)  # noqa: E731
                         for c, v in enumerate([month, r, u], start=1)]
    return {
        **head(me, now),
        "instruction": (f"The caretaker scanned this month's meter reading cards into data/scans/. Add a row for "
                        f"{month} to {path} with the electricity reading and the usage since the previous month's "
                        "reading."),
        "office": [
            image("data/scans/reading_card_1.png", gas),
            image("data/scans/reading_card_2.png", card),
            xlsx(path, {"Readings": rows}),
        ],
        "checks": [check("xlsx_row", file=path, row=n, values=[month, new_reading, usage])],
        "gold": [switch("ocr"), act("ocr", "recognize_file", file_path="data/scans/reading_card_1.png"),
                 act("ocr", "recognize_file", file_path="data/scans/reading_card_2.png"),
                 switch("excel"), act("excel", "read_file", file_path=path)] + fill(new_reading, usage),
        "wrong": [
            {"name": "usage measured from the first reading in the sheet",
             "actions": [switch("excel")] + fill(new_reading, new_reading - rows[1][1])},
            {"name": "overwrites last month's row",
             "actions": [switch("excel")] + [act("excel", "set_cell", file_path=path, row_idx=n - 1, column_idx=c, text=v)
                                             for c, v in enumerate([month, new_reading, usage], start=1)]},
            {"name": "takes the gas meter's reading",
             "actions": [switch("excel")] + fill(gas_reading, gas_reading - prev)},
            {"name": "leaves the usage empty", "actions": [switch("excel")] + fill(new_reading, None)[:2]},
            {"name": "usage as a negative difference", "actions": [switch("excel")] + fill(new_reading, -usage)},
            {"name": "the reading written as text with a thousands separator",
             "actions": [switch("excel"), act("excel", "insert_row", file_path=path, row_idx=n,
                                              values=[month, f"{new_reading:,}", usage])]},
        ],
        "right": [
            {"name": "usage as a formula",
             "actions": [switch("excel")] + fill(new_reading, f"=B{n}-B{n - 1}")},
            {"name": "the row inserted at once",
             "actions": [switch("excel"), act("excel", "insert_row", file_path=path, row_idx=n,
                                              values=[month, new_reading, usage])]},
        ],
    }


@family("stock-below-reorder", apps=["ocr", "excel"])
def stock_below_reorder(rng: random.Random) -> dict:
    """Question: which item on the scanned stock count is below its reorder level in the workbook?"""
    org, domain, (me,), now = setup(rng, 1)
    items = rng.sample(["Pallet wrap", "Cable ties", "Printer paper", "Box cutters", "Bubble wrap", "Tape guns",
                        "Gloves", "Label rolls", "Hi-vis vests", "Zip bags"], 6)
    levels = {i: rng.randrange(10, 60, 5) for i in items}
    low = items[rng.randrange(6)]
    counts = {}
    for i in items:
        counts[i] = levels[i] - rng.randrange(2, 8) if i == low else levels[i] + rng.randrange(3, 40)
    # the smallest count belongs to an item whose reorder level is smaller still (the tempting wrong answer)
    decoy = next(i for i in items if i != low)
    levels[decoy] = 5
    counts[decoy] = rng.randrange(6, 9)
    if counts[low] <= counts[decoy]:
        counts[low] = counts[decoy] + rng.randrange(2, 6)
        levels[low] = counts[low] + rng.randrange(3, 10)
    scan = f"STOCK COUNT {day_month(now)}\nAisle 4 - counted by night shift\n" + "\n".join(
        f"{i}: {counts[i]}" for i in items)
    rows = [["Item", "Reorder level", "Supplier"]] + [[i, levels[i], rng.choice(["Packwell", "Storeline", "Boxmart"])]
                                                      for i in sorted(items)]
    return {
        **head(me, now),
        "instruction": ("This morning's stock count sheet was scanned to data/warehouse/count_today.png. Which item on "
                        "it is below its reorder level in data/warehouse/reorder_levels.xlsx? Answer with the item name."),
        "office": [
            image("data/warehouse/count_today.png", scan),
            xlsx("data/warehouse/reorder_levels.xlsx", {"Levels": rows}),
        ],
        "answer": low,
        "checks": [check("answer_equals", value=low, exclude=[i for i in items if i != low])],
        "gold": [switch("ocr"), act("ocr", "recognize_file", file_path="data/warehouse/count_today.png"),
                 switch("excel"), act("excel", "read_file", file_path="data/warehouse/reorder_levels.xlsx"), finish(low)],
        "wrong": [
            {"name": "the item with the smallest count", "actions": [finish(decoy)], "answer": decoy},
            {"name": "hedges between two items", "actions": [], "answer": f"{low} or {decoy}"},
            {"name": "lists every item of the count", "actions": [], "answer": ", ".join(items)},
            {"name": "the item with the highest reorder level",
             "actions": [], "answer": max((i for i in items if i != low), key=lambda i: levels[i])},
            {"name": "answers with the count instead of the item", "actions": [], "answer": str(counts[low])},
        ],
        "right": [
            {"name": "a sentence with the figures", "actions": [],
             "answer": f"{low} is below its reorder level: {counts[low]} counted, reorder level {levels[low]}."},
            {"name": "the name in lower case", "actions": [], "answer": low.lower()},
        ],
    }


@family("car-park-closure-notice", apps=["ocr", "email"])
def car_park_closure_notice(rng: random.Random) -> dict:
    """Tell the team when the car park is closed, from the scanned building-management notice."""
    org, domain, (me,), now = setup(rng, 1)
    team = f"team-{rng.choice(['ops', 'finance', 'studio', 'support'])}@{domain}"
    d1 = workday_after(now.date(), rng.randrange(2, 6))
    d2 = workday_after(d1, rng.randrange(1, 3))
    h1, h2 = rng.choice([6, 7, 8]), rng.choice([15, 16, 17])
    alt = rng.choice(["the Station Road garage", "the retail park", "the sports centre car park"])
    closure = (f"NOTICE TO ALL TENANTS\nThe car park will be closed\non {weekday_day_month(d1)}\n"
               f"from {h1}:00 to {h2}:00\nfor resurfacing works.\nPlease park at {alt}.\nBuilding management")
    alarm = (f"NOTICE TO ALL TENANTS\nThe fire alarm will be tested\non {weekday_day_month(d2)}\nfrom 10:00 to 11:00.\n"
             "No need to leave the building.\nBuilding management")
    scans = {"closure": f"data/notices/scan_{rng.randrange(100, 500)}.png",
             "alarm": f"data/notices/scan_{rng.randrange(500, 900)}.png"}
    body = lambda d, a, b: (f"Hi all,\n\nHeads-up from building management: the car park is closed on "  # noqa: E731
                            f"{weekday_day_month(d)} from {a}:00 to {b}:00. Please park at {alt} instead.\n\n"
                            f"{me['first']}")
    mail = lambda text, to=team: act("email", "send_email", sender=me["email"], recipient=to,  # noqa: E731
                                     subject="Car park closed", content=text)
    return {
        **head(me, now),
        "instruction": ("Building management's notice about the car park closure was scanned into data/notices/ "
                        f"(together with another notice). Email my team at {team} which day the car park is closed, "
                        "the hours, and where to park instead."),
        "office": [
            image(scans["closure"], closure),
            image(scans["alarm"], alarm),
        ],
        "checks": [check("email_sent", sender=me["email"], to=team,
                         body_contains=[d1.isoformat(), f"{h1:02d}:00", f"{h2:02d}:00", alt.replace("the ", "")],
                         body_excludes=[d2.isoformat()])],
        "gold": [switch("ocr"), act("ocr", "recognize_file", file_path=scans["closure"]),
                 act("ocr", "recognize_file", file_path=scans["alarm"]),
                 switch("email"), mail(body(d1, h1, h2))],
        "wrong": [
            {"name": "gives the fire alarm test's day",
             "actions": [switch("email"), mail(body(d2, 10, 11))]},
            {"name": "sends it to me instead of the team",
             "actions": [switch("email"), mail(body(d1, h1, h2), me["email"])]},
            {"name": "the closure day with the fire alarm test's hours",
             "actions": [switch("email"), mail(body(d1, 10, 11))]},
            {"name": "leaves out where to park",
             "actions": [switch("email"), mail(f"Hi all,\n\nthe car park is closed on {weekday_day_month(d1)} from "
                                               f"{h1}:00 to {h2}:00.\n\n{me['first']}")]},
            {"name": "passes on both notices",
             "actions": [switch("email"), mail(body(d1, h1, h2) + f"\n\nAlso: the fire alarm will be tested on "
                                               f"{weekday_day_month(d2)}.")]},
            {"name": "one mail for the closure, a second one for the fire alarm",
             "actions": [switch("email"), mail(body(d1, h1, h2)), mail(body(d2, 10, 11))]},
        ],
        "right": [
            {"name": "reworded, with the date in figures and the hours as am/pm", "actions": [switch("email"), act(
                "email", "send_email", sender=me["email"], recipient=team, subject="Parking",
                content=f"Team - no parking on site on {d1.strftime('%d/%m/%Y')}, {h1} am to {h2 - 12} pm "
                        f"(resurfacing). Use {alt} that day.")]},
        ],
    }


@family("business-card-followup", apps=["ocr", "email"])
def business_card_followup(rng: random.Random) -> dict:
    """Follow up with a contact met at a trade fair, using the address on their scanned business card."""
    org, domain, (me,), now = setup(rng, 1)
    fair_cos = rng.sample([("Riverbend Components", "riverbend.test"), ("Oakmoor Tools", "oakmoor.test"),
                           ("Saltmarsh Media", "saltmarsh.test"), ("Kestrel Freight", "kestrel.test"),
                           ("Pinecrest Labs", "pinecrest.test")], 3)
    cards = []
    for k, (co, cdom) in enumerate(fair_cos):
        p = people(rng, 1, cdom)[0]
        role = rng.choice(["Procurement Lead", "Head of Operations", "Buyer", "Partnerships Manager"])
        path = f"data/cards/card_{k + 1:02d}.png"
        cards.append({"p": p, "co": co, "path": path,
                      "text": f"{p['name']}\n{role}\n{co}\n{p['email']}\nTel 0{rng.randrange(100, 999)} {rng.randrange(100000, 999999)}"})
    target, other = cards[1], cards[0]
    product = rng.choice(["our packaging catalogue", "the fleet tracking demo", "our spring price list",
                          "the pilot programme"])
    body = lambda c: (f"Dear {c['p']['first']},\n\nIt was good to meet you at the trade fair. As promised, I'm "  # noqa: E731
                      f"following up about {product}. Would a short call next week suit you?\n\nBest regards,\n"
                      f"{me['name']}\n{org}")
    send = lambda c: act("email", "send_email", sender=me["email"], recipient=c["p"]["email"],  # noqa: E731
                         subject="Great to meet you at the fair", content=body(c))
    topic = {"our packaging catalogue": "packaging", "the fleet tracking demo": "fleet tracking",
             "our spring price list": "price list", "the pilot programme": "pilot"}[product]
    return {
        **head(me, now),
        "instruction": (f"I met {target['p']['first']} from {target['co']} at the trade fair last week; the business "
                        "cards I collected are scanned in data/cards/. Send a short follow-up email about "
                        f"{product} to the address on the card."),
        "office": [image(c["path"], c["text"]) for c in cards],
        "checks": [check("email_sent", sender=me["email"], to=target["p"]["email"], body_contains=topic),
                   check("email_not_sent", sender=me["email"], to=other["p"]["email"])],
        "gold": [switch("ocr")] + [act("ocr", "recognize_file", file_path=c["path"]) for c in cards[:2]]
                + [switch("email"), send(target)],
        "wrong": [
            {"name": "writes to the person on another card", "actions": [switch("email"), send(other)]},
            {"name": "guesses the address from our own domain",
             "actions": [switch("email"), act("email", "send_email", sender=me["email"],
                                              recipient=target["p"]["email"].split("@")[0] + "@" + domain,
                                              subject="Great to meet you at the fair", content=body(target))]},
            {"name": "a follow-up that never mentions what it is about",
             "actions": [switch("email"), act("email", "send_email", sender=me["email"], recipient=target["p"]["email"],
                                              subject="Great to meet you", content=f"Dear {target['p']['first']},\n\n"
                                              f"It was good to meet you at the trade fair.\n\n{me['name']}")]},
            {"name": "one mail to everyone whose card was scanned",
             "actions": [switch("email"), act("email", "send_email", sender=me["email"],
                                              recipient=[c["p"]["email"] for c in cards],
                                              subject="Great to meet you at the fair", content=body(target))]},
            {"name": "the right mail, and a copy to the other contact",
             "actions": [switch("email"), send(target), send(other)]},
        ],
        "right": [
            {"name": "another subject and wording", "actions": [switch("email"), act(
                "email", "send_email", sender=me["email"], recipient=target["p"]["email"],
                subject=f"{target['co']} - following up",
                content=f"Hello {target['p']['first']}, thanks for the chat at the fair. Here is the follow-up on "
                        f"{product} I promised; are you free for a call next week? {me['first']}")]},
        ],
    }


@family("fire-drill-flyer", apps=["ocr", "calendar"])
def fire_drill_flyer(rng: random.Random) -> dict:
    """Put the fire drill announced on a scanned flyer into the calendar."""
    org, domain, (me,), now = setup(rng, 1)
    d = workday_after(now.date(), rng.randrange(3, 8))
    d2 = workday_after(d, rng.randrange(1, 4))
    h, m = rng.choice([(10, 30), (11, 0), (14, 0), (15, 30), (9, 45)])
    start = at(d, h, m)
    end = start + timedelta(minutes=rng.choice([20, 30]))
    spot = rng.choice(["car park B", "the front lawn", "Gate 2", "the side car park"])
    flyer = (f"FIRE DRILL\n{weekday_day_month(d)}\n{hm(start)} to {hm(end)}\n"
             f"When the alarm sounds, leave by\nthe nearest exit and go to\n{spot}.\nFire wardens wear yellow vests.")
    course = (f"FIRST AID COURSE\n{weekday_day_month(d2)}\n13:00 to 16:00\nMeeting room 2\nSign up at reception")
    create = lambda s, e: act("calendar", "create_event", user=me["email"], summary="Fire drill",  # noqa: E731
                              time_start=fmt(s), time_end=fmt(e))
    events = [ev("Supplier call", at(d, 9), at(d, 9, 30)), ev("Report writing", at(d, 16), at(d, 17))]
    return {
        **head(me, now),
        "instruction": ("Facilities left two flyers on my desk; I scanned them into data/scans/. Put the fire drill "
                        "in my calendar as 'Fire drill' with the start and end time from its flyer."),
        "office": [
            image("data/scans/flyer_1.png", course),
            image("data/scans/flyer_2.png", flyer),
            ics(me["email"], events),
        ],
        "checks": [check("ics_event", user=me["email"], summary="Fire drill", start=fmt(start), end=fmt(end))],
        "gold": [switch("ocr"), act("ocr", "recognize_file", file_path="data/scans/flyer_1.png"),
                 act("ocr", "recognize_file", file_path="data/scans/flyer_2.png"),
                 switch("calendar"), create(start, end)],
        "wrong": [
            {"name": "uses the first aid course's day and time",
             "actions": [switch("calendar"), create(at(d2, 13), at(d2, 16))]},
            {"name": "default one-hour slot instead of the flyer's end time",
             "actions": [switch("calendar"), create(start, start + timedelta(hours=1))]},
            {"name": "the drill's time on the first aid course's day",
             "actions": [switch("calendar"), create(at(d2, h, m), at(d2, end.hour, end.minute))]},
            {"name": "enters the drill twice", "actions": [switch("calendar"), create(start, end), create(start, end)]},
            {"name": "titled after the assembly point instead of 'Fire drill'",
             "actions": [switch("calendar"), act("calendar", "create_event", user=me["email"],
                                                 summary=f"Assemble at {spot}", time_start=fmt(start),
                                                 time_end=fmt(end))]},
        ],
        "right": [
            {"name": "title in lower case, with a description",
             "actions": [switch("calendar"), act("calendar", "create_event", user=me["email"], summary="fire drill",
                                                 time_start=fmt(start), time_end=fmt(end),
                                                 description=f"Leave by the nearest exit and go to {spot}.")]},
            {"name": "created with a one-hour default, then the end corrected",
             "actions": [switch("calendar"), create(start, start + timedelta(hours=1)),
                         act("calendar", "update_event", user=me["email"], summary="Fire drill", time_end=fmt(end))]},
        ],
    }


@family("scanned-letter-transcribe", apps=["ocr", "word"])
def scanned_letter_transcribe(rng: random.Random) -> dict:
    """Type a scanned customer complaint letter into a Word document for the case file."""
    org, domain, (me,), now = setup(rng, 1)
    writers = people(rng, 2, "mail.test")
    ref = f"CX-{rng.randrange(10000, 99999)}"
    product = rng.choice(["kettle", "desk fan", "toaster", "blender", "heater"])
    sent = now - timedelta(days=rng.randrange(4, 9))
    letter = (f"{writers[0]['name']}\n{rng.randrange(2, 80)} Willow Street\n{day_month(sent)} {sent.year}\n"
              f"Dear Sir or Madam,\nMy order {ref} arrived on time,\nbut the {product} does not switch on.\n"
              "I would like a replacement\nor a full refund.\nYours faithfully,\n" + writers[0]["name"])
    other_ref = f"CX-{rng.randrange(10000, 99999)}"
    thanks = (f"{writers[1]['name']}\nDear team,\nThank you for the quick delivery\nof order {other_ref}.\n"
              "Everything works well.\nKind regards,\n" + writers[1]["name"])
    doc = f"data/cases/{ref}_letter.docx"
    lines = "\n".join(letter.split("\n"))
    street = letter.split("\n")[1]
    return {
        **head(me, now),
        "instruction": ("Two customer letters were scanned into data/post/. Type the complaint one into a new Word "
                        "document data/cases/<order number>_letter.docx (the order number is in the letter, e.g. "
                        "CX-12345_letter.docx) so it can go into the case file; one paragraph per line is fine."),
        "office": [
            image("data/post/letter_a.png", thanks),
            image("data/post/letter_b.png", letter),
            docx("data/cases/README.docx", ["One document per case, named by order number."]),
        ],
        "free": [doc],
        "checks": [
            check("file_exists", file=doc),
            check("contains", file=doc, ordered=True,
                  text=[writers[0]["name"], street, sent.date().isoformat(), "Dear Sir or Madam", ref, "arrived on time",
                        product, "does not switch on", "replacement", "full refund", "Yours faithfully"],
                  exclude=[writers[1]["name"], other_ref, "quick delivery"]),
            check("no_repeats", file=doc, block=2),
        ],
        "gold": [switch("ocr"), act("ocr", "recognize_file", file_path="data/post/letter_a.png"),
                 act("ocr", "recognize_file", file_path="data/post/letter_b.png"),
                 switch("word"), act("word", "create_new_file", file_path=doc),
                 act("word", "write_to_file", file_path=doc, contents=lines)],
        "wrong": [
            {"name": "types the thank-you letter under the complaint's name",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc, contents=thanks)]},
            {"name": "files it under the other letter's order number",
             "actions": [switch("word"), act("word", "write_to_file", file_path=f"data/cases/{other_ref}_letter.docx",
                                             contents=lines)]},
            {"name": "types both letters into the case document",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc, contents=lines + "\n" + thanks)]},
            {"name": "a one-line summary instead of the letter",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc,
                                             contents=f"{writers[0]['name']}: order {ref}, {product} does not switch "
                                                      "on; wants a replacement or a full refund.")]},
            {"name": "the right document, plus a copy under a second name",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc, contents=lines),
                         act("word", "write_to_file", file_path="data/cases/complaint_letter.docx", contents=lines)]},
        ],
        "right": [
            {"name": "the letter in a few paragraphs instead of one per line",
             "actions": [switch("word"), act("word", "write_to_file", file_path=doc, contents="\n".join([
                 " ".join(letter.split("\n")[:3]), "Dear Sir or Madam,",
                 " ".join(letter.split("\n")[4:8]), "Yours faithfully,", writers[0]["name"]]))]},
        ],
    }


@family("scan-file-by-content", apps=["ocr", "shell"])
def scan_file_by_content(rng: random.Random) -> dict:
    """Find which numbered scan is a supplier's invoice and file it under a name with its invoice number."""
    org, domain, (me,), now = setup(rng, 1)
    (sup, _), (sup2, _) = other_companies(rng, domain, 2)
    no = f"{rng.randrange(100, 999)}-{rng.randrange(1000, 9999)}"
    kinds = [
        f"{sup.upper()}\nINVOICE\nInvoice no: {no}\nTotal due: {rng.randrange(200, 5000)}.00\nPay within 30 days",
        f"{sup.upper()}\nDELIVERY NOTE\n14 cartons received\nSigned at the loading dock",
        f"{sup2.upper()}\nINVOICE\nInvoice no: {rng.randrange(100, 999)}-{rng.randrange(1000, 9999)}\n"
        f"Total due: {rng.randrange(200, 5000)}.00",
        "VISITOR LOG\nMonday: 3 visitors\nTuesday: 5 visitors",
    ]
    order = list(range(4))
    rng.shuffle(order)
    names = [f"scan_{rng.randrange(1000, 1999) + 10 * k}.png" for k in range(4)]
    files = {kinds_i: f"data/scans/{names[pos]}" for pos, kinds_i in enumerate(order)}
    slug = sup.split()[0].lower()
    target = f"data/finance/invoices/{slug}_{no}.png"
    wrong_src = files[1]
    other_no = kinds[2].split("Invoice no: ")[1].split()[0]
    return {
        **head(me, now),
        "instruction": (f"One of the scans in data/scans/ is an invoice from {sup}. Move it (don't copy) into "
                        f"data/finance/invoices/ and name it {slug}_<invoice number>.png, e.g. {slug}_123-4567.png."),
        "office": [image(files[i], kinds[i]) for i in range(4)],
        "checks": [
            check("file_exists", file=target),
            check("file_not_exists", file=files[0]),
            check("dir_files", dir="data/scans", names=sorted(f.rsplit("/", 1)[1] for i, f in files.items() if i != 0)),
        ],
        "gold": [switch("ocr")] + [act("ocr", "recognize_file", file_path=files[i]) for i in order]
                + [switch("shell"), sh(f"mkdir -p data/finance/invoices && mv {files[0]} {target}")],
        "wrong": [
            {"name": "moves the same supplier's delivery note",
             "actions": [switch("shell"), sh(f"mkdir -p data/finance/invoices && mv {wrong_src} {target}")]},
            {"name": "copies instead of moving",
             "actions": [switch("shell"), sh(f"mkdir -p data/finance/invoices && cp {files[0]} {target}")]},
            {"name": "files the other supplier's invoice under its own number",
             "actions": [switch("shell"), sh(f"mkdir -p data/finance/invoices && mv {files[2]} "
                                             f"data/finance/invoices/{slug}_{other_no}.png")]},
            {"name": "the right scan named with the other invoice's number",
             "actions": [switch("shell"), sh(f"mkdir -p data/finance/invoices && mv {files[0]} "
                                             f"data/finance/invoices/{slug}_{other_no}.png")]},
            {"name": "moved into data/finance/ instead of the invoices folder",
             "actions": [switch("shell"), sh(f"mkdir -p data/finance && mv {files[0]} data/finance/{slug}_{no}.png")]},
            {"name": "named by the invoice number alone",
             "actions": [switch("shell"), sh(f"mkdir -p data/finance/invoices && mv {files[0]} data/finance/invoices/{no}.png")]},
        ],
        "right": [
            {"name": "copied, then the original removed",
             "actions": [switch("shell"), sh("mkdir -p data/finance/invoices"), sh(f"cp {files[0]} {target}"),
                         sh(f"rm {files[0]}")]},
        ],
    }
