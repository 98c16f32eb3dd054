"""Single-app (category 1) pdf families: picking and converting the right PDF, receipts to PDF, reading a lease."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    COMPANIES, MONTHS, act, check, finish, head, image, now_on_weekday, pdf, people, setup, switch, text
)
from officesim.tasks.families.registry import family


@family("quote-cheapest-to-word", apps=["pdf"])
def quote_cheapest_to_word(rng: random.Random) -> dict:
    """Compare three supplier quotes (PDF) and convert the cheapest one to Word for editing."""
    _, domain, (me,), now = setup(rng, 1)
    item = rng.choice([("office chairs", "Ergonomic office chair"), ("laptops", "14-inch business laptop"),
                       ("standing desks", "Electric standing desk"), ("monitors", "27-inch monitor")])
    qty = rng.randint(8, 40)
    vendors = rng.sample(["Kestrel Stationers", "Marlow Furniture", "Alder Office Works", "Pinecrest Supplies",
                          "Fernwood Trading", "Harbor Office Goods"], 3)
    prices = rng.sample(range(90, 900, 7), 3)
    files = [f"data/quotes/quote_{v.split()[0].lower()}.pdf" for v in vendors]
    office = []
    for v, p, f in zip(vendors, prices, files):
        total = p * qty
        office.append(pdf(f, [
            f"{v}\nQuotation for {me['name']}\nItem: {item[1]}\nQuantity: {qty}\nUnit price: EUR {p}\n"
            f"Total: EUR {total}\nValid for 30 days",
            "Terms: payment within 30 days. Delivery in 2 to 3 weeks."]))
    office.append(pdf("data/quotes/old/quote_2019_cleaning.pdf", ["Tidewater Cleaning\nQuotation\nTotal: EUR 80"]))
    best = min(range(3), key=lambda i: prices[i])
    worst = max(range(3), key=lambda i: prices[i])
    out = "data/quotes/selected_quote.docx"
    return {
        **head(me, now),
        "instruction": (f"We have three quotes for the {qty} {item[0]} in data/quotes/. Please convert the cheapest "
                        f"one to a Word document at {out} so I can add our purchase terms."),
        "office": office,
        "checks": [
            check("file_exists", file=out),
            check("contains", file=out, text=[vendors[best], f"EUR {prices[best] * qty}"]),
            check("not_contains", file=out, text=[vendors[i] for i in range(3) if i != best]),
        ],
        "gold": [switch("pdf")] + [act("pdf", "read_file", pdf_file_path=f) for f in files]
                + [act("pdf", "convert_to_word", pdf_file_path=files[best], word_file_path=out)],
        "wrong": [
            {"name": "the most expensive quote converted", "actions": [
                switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=files[worst], word_file_path=out)]},
            {"name": "the first quote converted without comparing", "actions": [
                switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=files[0 if best else 1],
                                   word_file_path=out)]},
            {"name": "the middle quote converted", "actions": [
                switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=files[3 - best - worst], word_file_path=out)]},
            {"name": "the cheapest converted under another name", "actions": [
                switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=files[best],
                                   word_file_path="data/quotes/cheapest_quote.docx")]},
            {"name": "every quote converted, the cheapest to the asked name", "actions": [switch("pdf")] + [
                act("pdf", "convert_to_word", pdf_file_path=f, word_file_path=out if i == best else f[:-4] + ".docx")
                for i, f in enumerate(files)]},
        ],
        "right": [
            {"name": "office paths in the /testbed form", "actions": [
                switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=f"/testbed/{files[best]}",
                                   word_file_path=f"/testbed/{out}")]},
            {"name": "another quote converted first, then overwritten by the cheapest", "actions": [
                switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=files[worst], word_file_path=out),
                act("pdf", "convert_to_word", pdf_file_path=files[best], word_file_path=out)]},
        ],
    }


@family("receipt-photos-to-pdf", apps=["pdf"])
def receipt_photos_to_pdf(rng: random.Random) -> dict:
    """Turn yesterday's receipt photos into PDFs named by date and kind for the expense system."""
    _, domain, (me,), now = setup(rng, 1)
    yday = (now - timedelta(days=1)).date()
    kinds = rng.sample(["taxi", "hotel", "parking", "train", "dinner"], 2)
    nums = rng.sample(range(4000, 9999), 3)
    imgs = [f"data/receipts/incoming/IMG_{n}.png" for n in nums]
    office = [image(imgs[0], f"{kinds[0].upper()} RECEIPT\n{yday.isoformat()}\nEUR {rng.randint(12, 90)}.00"),
              image(imgs[1], f"{kinds[1].upper()} RECEIPT\n{yday.isoformat()}\nEUR {rng.randint(40, 300)}.00"),
              image(imgs[2], "Whiteboard photo\nSprint goals"),
              text("data/receipts/README.txt", "Expense system naming: YYYY-MM-DD-<kind>.pdf in data/receipts/\n")]
    outs = [f"data/receipts/{yday.isoformat()}-{k}.pdf" for k in kinds]
    today_outs = [f"data/receipts/{now.date().isoformat()}-{k}.pdf" for k in kinds]
    return {
        **head(me, now),
        "instruction": (f"I photographed two receipts from yesterday's trip: {imgs[0]} is the {kinds[0]} and "
                        f"{imgs[1]} is the {kinds[1]}. The expense system only takes PDFs - please make one PDF per "
                        f"receipt in data/receipts/, named by the receipt's date and kind like "
                        f"2026-01-31-{kinds[0]}.pdf. Keep the photos."),
        "office": office,
        "checks": [check("pdf_page_count", file=o, count=1) for o in outs] + [
            check("file_exists", file=imgs[0]), check("file_exists", file=imgs[1]),
            check("dir_files", dir="data/receipts", names=[o.split("/")[-1] for o in outs] + ["README.txt"]),
        ],
        "gold": [switch("pdf")] + [act("pdf", "image_to_pdf", image_file_path=i, pdf_file_path=o)
                                   for i, o in zip(imgs, outs)],
        "wrong": [
            {"name": "named with today's date", "actions": [switch("pdf")] + [
                act("pdf", "image_to_pdf", image_file_path=i, pdf_file_path=o) for i, o in zip(imgs, today_outs)]},
            {"name": "only the first receipt converted", "actions": [
                switch("pdf"), act("pdf", "image_to_pdf", image_file_path=imgs[0], pdf_file_path=outs[0])]},
            {"name": "the kinds swapped in the names", "actions": [switch("pdf")] + [
                act("pdf", "image_to_pdf", image_file_path=i, pdf_file_path=o) for i, o in zip(imgs, outs[::-1])]},
            {"name": "the whiteboard photo converted too", "actions": [switch("pdf")] + [
                act("pdf", "image_to_pdf", image_file_path=i, pdf_file_path=o) for i, o in zip(imgs, outs)] + [
                act("pdf", "image_to_pdf", image_file_path=imgs[2], pdf_file_path=f"data/receipts/{yday.isoformat()}-whiteboard.pdf")]},
            {"name": "PDFs left in the incoming folder", "actions": [switch("pdf")] + [
                act("pdf", "image_to_pdf", image_file_path=i, pdf_file_path=o.replace("receipts/", "receipts/incoming/"))
                for i, o in zip(imgs, outs)]},
        ],
        "right": [
            {"name": "the second receipt first", "actions": [switch("pdf")] + [
                act("pdf", "image_to_pdf", image_file_path=f"/testbed/{i}", pdf_file_path=o)
                for i, o in reversed(list(zip(imgs, outs)))]},
        ],
    }


@family("lease-rent-after-addendum", apps=["pdf"])
def lease_rent_after_addendum(rng: random.Random) -> dict:
    """Read a lease and its later addendum and say what monthly rent applies from a given month."""
    org, domain = rng.choice(COMPANIES)
    landlord = rng.choice(["Quayside Estates", "Lindenhof Property", "Harbor Lane Management",
                           "Birchmoor Real Estate"])
    me = people(rng, 1, domain)[0]
    now = now_on_weekday(rng)
    rent = rng.randrange(2500, 9000, 50)
    pct = rng.choice([3, 4, 5, 6])
    new_rent = round(rent * (100 + pct) / 100)
    change = (now.date().replace(day=1) + timedelta(days=40)).replace(day=1)  # first day of next month
    signed = now.year - rng.randint(2, 4)
    parking = rng.randrange(100, 400, 25)
    lease = [f"Office lease agreement\nLandlord: {landlord}\nTenant: {org}\nSigned {signed}",
             f"1. Premises: third floor, 420 square metres.\n2. Monthly rent: EUR {rent}, due on the first day.\n"
             f"3. Parking: EUR {parking} per month for six spaces.",
             "4. Notice: three months to the end of a quarter.\n5. Deposit: three monthly rents."]
    addendum = [f"Addendum 1 to the office lease\nLandlord: {landlord}\nTenant: {org}",
                f"Following indexation the monthly rent is EUR {new_rent} from 1 {MONTHS[change.month - 1]} "
                f"{change.year}.\nAll other terms, including parking, stay unchanged."]
    return {
        **head(me, now),
        "instruction": (f"For next month's payment run: what monthly rent (without parking) do we owe "
                        f"{landlord} for the office from next month on? The lease and its addendum are in "
                        f"data/legal/. Answer with the number in euros only."),
        "office": [
            pdf("data/legal/office_lease.pdf", lease),
            pdf("data/legal/office_lease_addendum_1.pdf", addendum),
            pdf("data/legal/cleaning_contract.pdf",
                [f"Cleaning contract\nMonthly fee: EUR {rng.randrange(300, 900, 10)}"]),
        ],
        "answer": new_rent,
        "checks": [check("answer_equals", value=new_rent)],
        "gold": [switch("pdf"), act("pdf", "read_file", pdf_file_path="data/legal/office_lease.pdf"),
                 act("pdf", "read_file", pdf_file_path="data/legal/office_lease_addendum_1.pdf"), finish(new_rent)],
        "wrong": [
            {"name": "rent from the original lease", "answer": rent, "actions": [
                switch("pdf"), act("pdf", "read_file", pdf_file_path="data/legal/office_lease.pdf")]},
            {"name": "new rent plus parking", "answer": new_rent + parking, "actions": [
                switch("pdf"), act("pdf", "read_file", pdf_file_path="data/legal/office_lease_addendum_1.pdf")]},
            {"name": "hedged between the old and the new rent", "answer": f"{new_rent} (previously {rent})",
             "actions": [switch("pdf"), act("pdf", "read_file", pdf_file_path="data/legal/office_lease.pdf")]},
            {"name": "the yearly rent", "answer": new_rent * 12, "actions": [
                switch("pdf"), act("pdf", "read_file", pdf_file_path="data/legal/office_lease_addendum_1.pdf")]},
        ],
        "right": [
            {"name": "with thousands separator and cents", "answer": f"EUR {new_rent:,}.00", "actions": [
                switch("pdf"), act("pdf", "read_file", pdf_file_path="data/legal/office_lease_addendum_1.pdf")]},
            {"name": "a sentence naming the start date", "answer":
                f"From 1 {MONTHS[change.month - 1]} {change.year} the rent is {new_rent} euros a month.", "actions": [
                switch("pdf"), act("pdf", "read_file", pdf_file_path="data/legal/office_lease_addendum_1.pdf")]},
        ],
    }


@family("board-minutes-last-month-to-word", apps=["pdf"])
def board_minutes_last_month_to_word(rng: random.Random) -> dict:
    """Convert last month's board minutes PDF (one of several months) to Word as a starting point."""
    org, domain, (me, chair), now = setup(rng, 2)
    last = now.date().replace(day=1) - timedelta(days=1)
    months = []
    d = now.date().replace(day=1)
    for _ in range(3):
        d = (d - timedelta(days=1)).replace(day=1)
        months.append(d)
    topics = rng.sample(["office move", "hiring freeze", "new CRM system", "pricing review", "audit findings",
                         "charity partnership", "security training"], 3)
    office = []
    for m, topic in zip(months, topics):
        office.append(pdf(f"data/minutes/board_{m.year}-{m.month:02d}.pdf", [
            f"{org}\nBoard meeting minutes\n{MONTHS[m.month - 1]} {m.year}\nChair: {chair['name']}",
            f"Main item: {topic}\nDecision: approved\nNext meeting in four weeks"]))
    out = f"data/minutes/board_{now.year}-{now.month:02d}_draft.docx"
    src = f"data/minutes/board_{last.year}-{last.month:02d}.pdf"
    two_ago = f"data/minutes/board_{months[1].year}-{months[1].month:02d}.pdf"
    return {
        **head(me, now),
        "instruction": (f"I'm drafting this month's board minutes. Please convert last month's minutes (in "
                        f"data/minutes/) to Word at {out}, so I can reuse their structure."),
        "office": office,
        "checks": [
            check("file_exists", file=out),
            check("contains", file=out, text=[f"{MONTHS[last.month - 1]} {last.year}", topics[0]]),
        ],
        "gold": [switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=src, word_file_path=out)],
        "wrong": [
            {"name": "minutes from two months ago converted", "actions": [
                switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=two_ago, word_file_path=out)]},
            {"name": "saved under last month's name", "actions": [
                switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=src,
                                   word_file_path=f"data/minutes/board_{last.year}-{last.month:02d}_draft.docx")]},
            {"name": "three months ago converted", "actions": [
                switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=f"data/minutes/board_{months[2].year}-"
                                   f"{months[2].month:02d}.pdf", word_file_path=out)]},
            {"name": "the two latest months both converted", "actions": [
                switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=src, word_file_path=out),
                act("pdf", "convert_to_word", pdf_file_path=two_ago, word_file_path=two_ago[:-4] + ".docx")]},
            {"name": "saved in data/ instead of data/minutes/", "actions": [
                switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=src, word_file_path=out.replace("minutes/", ""))]},
        ],
        "right": [
            {"name": "office paths in the /testbed form", "actions": [
                switch("pdf"), act("pdf", "read_file", pdf_file_path=src),
                act("pdf", "convert_to_word", pdf_file_path=f"/testbed/{src}", word_file_path=f"/testbed/{out}")]},
        ],
    }
