"""Single-app (category 1) ocr families: read a scanned notice, receipt or card and answer a question.

In a one-app task OCR can only answer questions, so every family here is a question task. Scans are
rendered as clean black-on-white text with short lines and plain words so tesseract reads them.
"""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    act, check, day_month, finish, head, image, num, people, setup, switch, weekday_day_month
)
from officesim.tasks.families.registry import family


@family("parcel-card-pickup-place", apps=["ocr"])
def parcel_card_pickup_place(rng: random.Random) -> dict:
    """Read a missed-delivery card and say where the parcel can be collected."""
    _, domain, (me,), now = setup(rng, 1)
    places = rng.sample(["North Gate Desk", "Harbour Kiosk", "Mill Road Depot", "Station Locker Hall",
                         "Elm Street Post Office", "Riverside Service Point"], 2)
    sender = rng.choice(["Kestrel Stationers", "Harbor Office Goods", "Fernwood Books", "Alder Print"])
    by = now.date() + timedelta(days=rng.randint(5, 9))
    ref = f"{rng.randint(1000, 9999)} {rng.randint(1000, 9999)}"
    card = (f"SORRY WE MISSED YOU\nParcel from: {sender}\nFor: {me['name']}\nCollect at: {places[0]}\n"
            f"Open 8:00 to 18:00\nCollect by: {day_month(by)}\nReference: {ref}")
    old = now.date() - timedelta(days=rng.randint(20, 60))
    old_card = (f"SORRY WE MISSED YOU\nParcel from: Office Weekly\nFor: {me['name']}\nCollect at: {places[1]}\n"
                f"Collect by: {day_month(old)}\nCOLLECTED")
    path = "data/scans/delivery_card_today.png"
    return {
        **head(me, now),
        "instruction": (f"The courier left a card this morning; I scanned it to {path}. Where do I have to go to "
                        f"collect the parcel? Just tell me the place."),
        "office": [image(path, card, font_size=30),
                   image("data/scans/delivery_card_old.png", old_card, font_size=30)],
        "answer": places[0],
        # the place, not the old card's place beside it
        "checks": [check("answer_contains", text=places[0].split()[:2], exclude=[places[1]])],
        "gold": [switch("ocr"), act("ocr", "recognize_file", file_path=path), finish(places[0])],
        "wrong": [
            {"name": "place from the old, collected card", "answer": places[1], "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path="data/scans/delivery_card_old.png")]},
            {"name": "the sender given instead of the place", "answer": sender, "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path=path)]},
            {"name": "both cards' places named", "answer": f"{places[0]} or {places[1]}", "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path=path)]},
            {"name": "the reference number given", "answer": ref, "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path=path)]},
            {"name": "the opening hours given", "answer": "Open 8:00 to 18:00", "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path=path)]},
        ],
        "right": [
            {"name": "a sentence with the opening hours", "answer":
                f"You can pick it up at the {places[0]} (open 8:00 to 18:00).", "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path=path)]},
            {"name": "the place in lower case", "answer": places[0].lower(), "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path=path)]},
        ],
    }


@family("receipt-scan-total", apps=["ocr"])
def receipt_scan_total(rng: random.Random) -> dict:
    """Find the scanned receipt of one shop among several and report its total (tip included)."""
    _, domain, (me,), now = setup(rng, 1)
    shops = rng.sample([("Blue Door Bistro", ["Soup of the day", "Grilled fish", "Sparkling water", "Espresso"]),
                        ("Corner Deli", ["Club sandwich", "Green salad", "Lemonade", "Brownie"]),
                        ("Quay Street Taxi", ["Fare", "Waiting time", "Luggage"]),
                        ("Oak and Ivy Pub", ["Burger", "Fries", "Cider", "Apple pie"])], 3)
    files, totals, texts = [], [], []
    for i, (shop, items) in enumerate(shops):
        lines = [(it, rng.randrange(250, 3800, 10) / 100) for it in items[: rng.randint(2, len(items))]]
        sub = round(sum(p for _, p in lines), 2)
        tip = round(rng.choice([2, 3, 4, 5]) + rng.choice([0, 0.5]), 2)
        total = round(sub + tip, 2)
        body = "\n".join(f"{it}  {p:.2f}" for it, p in lines)
        text = (f"{shop.upper()}\nReceipt no. {rng.randint(100, 999)}\n{body}\nSubtotal  {sub:.2f}\n"
                f"Tip  {tip:.2f}\nTOTAL EUR  {total:.2f}\nThank you!")
        texts.append(text)
        files.append(f"data/scans/scan_{rng.randint(10, 99)}{i}.png")
        totals.append((shop, sub, total))
    target = rng.randrange(0, 3)
    shop, sub, total = totals[target]
    return {
        **head(me, now),
        "instruction": (f"For my expense claim: what was the total, tip included, on the {shop} receipt? It's one "
                        f"of the scans in data/scans/ ({', '.join(files)}). Just the amount in euros, please."),
        "office": [image(f, t, font_size=30) for f, t in zip(files, texts)],
        "answer": f"{total:.2f}",
        "checks": [check("answer_contains", text=f"{total:.2f}")],
        "gold": [switch("ocr")] + [act("ocr", "recognize_file", file_path=f) for f in files[: target + 1]]
                + [finish(f"{total:.2f}")],
        "wrong": [
            {"name": "subtotal without the tip", "answer": f"{sub:.2f}", "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path=files[target])]},
            {"name": "total of another receipt", "answer": f"{totals[(target + 1) % 3][2]:.2f}", "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path=files[(target + 1) % 3])]},
            {"name": "hedged between subtotal and total", "answer": f"{sub:.2f} or {total:.2f}", "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path=files[target])]},
            {"name": "every receipt's total listed", "answer": ", ".join(f"{t:.2f}" for _, _, t in totals),
             "actions": [switch("ocr")] + [act("ocr", "recognize_file", file_path=f) for f in files]},
            {"name": "the tip only", "answer": f"{round(total - sub, 2):.2f}", "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path=files[target])]},
        ],
        "right": [
            {"name": "with a currency sign, trailing zero dropped", "answer": f"€{num(total)}", "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path=files[target])]},
            {"name": "a sentence", "answer": f"The {shop} receipt came to EUR {total:.2f} in total.", "actions": [
                switch("ocr")] + [act("ocr", "recognize_file", file_path=f) for f in files]},
        ],
    }


@family("building-notice-water-back", apps=["ocr"])
def building_notice_water_back(rng: random.Random) -> dict:
    """Read the landlord's scanned maintenance notices and say when the water comes back on one day."""
    _, domain, (me,), now = setup(rng, 1)
    day = now.date() + timedelta(days=rng.randint(1, 3))
    start = rng.choice([7, 8, 9])
    back = start + rng.randint(2, 5)
    back_min = rng.choice(["00", "30"])
    lift_day = day + timedelta(days=rng.randint(5, 8))
    lift_back = rng.choice([11, 12, 15, 16])
    landlord = rng.choice(["Quayside Estates", "Lindenhof Property", "Harbor Lane Management"])
    water = (f"NOTICE TO ALL TENANTS\nWater supply works\n{weekday_day_month(day)}\n"
             f"Water off from {start:02d}:00\nWater back on at {back:02d}:{back_min}\nToilets on floor 1 stay open\n"
             f"{landlord}")
    lift = (f"NOTICE TO ALL TENANTS\nLift inspection\n{weekday_day_month(lift_day)}\n"
            f"Lift out of service from 08:00\nBack in service at {lift_back:02d}:00\n{landlord}")
    answer = f"{back:02d}:{back_min}"
    return {
        **head(me, now),
        "instruction": (f"{landlord} put two notices in the lobby; I scanned them to data/scans/notice_1.png and "
                        f"data/scans/notice_2.png. On the day of the water works, at what time does the water come "
                        f"back on? Answer as HH:MM (24-hour)."),
        "office": [image("data/scans/notice_1.png", lift, font_size=30),
                   image("data/scans/notice_2.png", water, font_size=30)],
        "answer": answer,
        "checks": [check("answer_contains", text=answer)],
        "gold": [switch("ocr"), act("ocr", "recognize_file", file_path="data/scans/notice_1.png"),
                 act("ocr", "recognize_file", file_path="data/scans/notice_2.png"), finish(answer)],
        "wrong": [
            {"name": "time the water goes off", "answer": f"{start:02d}:00", "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path="data/scans/notice_2.png")]},
            {"name": "time from the lift notice", "answer": f"{lift_back:02d}:00", "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path="data/scans/notice_1.png")]},
            {"name": "both times of the water works given", "answer": f"{start:02d}:00 - {answer}", "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path="data/scans/notice_2.png")]},
            {"name": "hedged with the lift time", "answer": f"{answer} (or {lift_back:02d}:00)", "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path="data/scans/notice_2.png")]},
            {"name": "the day of the works instead of the time", "answer": weekday_day_month(day), "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path="data/scans/notice_2.png")]},
        ],
        "right": [
            {"name": "a sentence", "answer": f"The water is back on at {answer}.", "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path="data/scans/notice_2.png")]},
        ],
    }


@family("business-card-email", apps=["ocr"])
def business_card_email(rng: random.Random) -> dict:
    """Read the right one of two scanned business cards and give that person's email address."""
    _, domain, (me,), now = setup(rng, 1)
    firms = rng.sample([("Kestrel Stationers", "kestrel"), ("Fernwood Books", "fernwood"),
                        ("Alder Print Works", "alderprint"), ("Marlow Furniture", "marlow"),
                        ("Pinecrest Catering", "pinecrest")], 2)
    roles = rng.sample(["Sales Manager", "Account Director", "Head of Purchasing", "Event Planner"], 2)
    cards, contacts = [], []
    for (firm, slug), role in zip(firms, roles):
        p = people(rng, 1, f"{slug}.test")[0]
        phone = f"+1 555 {rng.randint(100, 999)} {rng.randint(1000, 9999)}"
        cards.append(f"{p['name']}\n{role}\n{firm}\n{phone}\n{p['email']}")
        contacts.append(p)
    met = rng.choice(["at the trade fair", "at the supplier day", "at the conference last week"])
    files = ["data/scans/card_1.png", "data/scans/card_2.png"]
    target = rng.randrange(0, 2)
    who = contacts[target]
    return {
        **head(me, now),
        "instruction": (f"I met someone from {firms[target][0]} {met} and scanned the business cards I got to "
                        f"{files[0]} and {files[1]}. What is the email address of the person from "
                        f"{firms[target][0]}?"),
        "office": [image(f, c, font_size=30) for f, c in zip(files, cards)],
        "answer": who["email"],
        "checks": [check("answer_contains", text=who["email"], exclude=[contacts[1 - target]["email"]])],
        "gold": [switch("ocr")] + [act("ocr", "recognize_file", file_path=f) for f in files[: target + 1]]
                + [finish(who["email"])],
        "wrong": [
            {"name": "the other card's address", "answer": contacts[1 - target]["email"], "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path=files[1 - target])]},
            {"name": "address guessed from the company name", "answer":
                f"{who['first'].lower()}@{firms[target][1]}.test", "actions": [switch("ocr")]},
            {"name": "both cards' addresses", "answer": f"{contacts[0]['email']}, {contacts[1]['email']}",
             "actions": [switch("ocr")] + [act("ocr", "recognize_file", file_path=f) for f in files]},
            {"name": "the name instead of the address", "answer": who["name"], "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path=files[target])]},
            {"name": "the phone number instead of the address", "answer": cards[target].split("\n")[3], "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path=files[target])]},
            {"name": "the person's name at the other card's domain", "answer":
                f"{who['email'].split('@')[0]}@{firms[1 - target][1]}.test", "actions": [
                switch("ocr")] + [act("ocr", "recognize_file", file_path=f) for f in files]},
        ],
        "right": [
            {"name": "a sentence", "answer": f"{who['name']} of {firms[target][0]}: {who['email']}", "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path=files[target])]},
            {"name": "the address in capitals", "answer": who["email"].upper(), "actions": [
                switch("ocr"), act("ocr", "recognize_file", file_path=files[target])]},
        ],
    }
