"""Single-app (category 1) email families: replying, forwarding, sending with attachments and cc, notices."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    COMPANIES, MONTHS, act, at, check, day_name, eml, head, iso, month_day, next_weekday, now_on_weekday, pdf, people,
    setup, switch
)
from officesim.tasks.families.registry import family


def _newsletter(user: str, mid: str, when) -> dict:
    return eml(user, mid, "news@officeweekly.test", "Office Weekly: five tips for tidier desks",
               "This week: cable trays, shared drawers and the clean-desk policy.\nUnsubscribe any time.", when,
               attachments=[])


@family("customer-reply-ship-date", apps=["email"])
def customer_reply_ship_date(rng: random.Random) -> dict:
    """Reply to a customer's latest question about an order with the ship date (this Friday)."""
    (org, domain), (cust_org, cdomain) = rng.sample(COMPANIES, 2)
    me, boss = people(rng, 2, domain)
    cust = people(rng, 1, cdomain)[0]
    now = now_on_weekday(rng)
    friday = next_weekday(now, 4)
    new_no, old_no = rng.sample(range(4000, 9999), 2)
    asked = now - timedelta(hours=rng.randint(15, 40))
    mails = [
        eml(me["email"], "msg-1", cust["email"], f"Order {old_no} - invoice copy",
            f"Hello,\ncould you send me a copy of the invoice for order {old_no}?\nThanks, {cust['first']}",
            now - timedelta(days=20), attachments=[]),
        _newsletter(me["email"], "msg-2", now - timedelta(days=3)),
        eml(me["email"], "msg-3", cust["email"], f"Order {new_no} - when will it ship?",
            f"Hi {me['first']},\nwe placed order {new_no} last week. Do you know yet when it will ship? "
            f"We need it for a site opening.\nBest regards,\n{cust['name']}\n{cust_org}", asked, attachments=[]),
        eml(me["email"], "msg-4", boss["email"], "Warehouse closed Monday",
            "Heads up: the warehouse is closed on Monday for the stock count.", asked + timedelta(hours=2),
            attachments=[]),
    ]
    example_month = MONTHS[(friday.month + 5) % 12]
    subject = f"Re: Order {new_no} - when will it ship?"
    week = timedelta(days=7)

    def reply(content: str, mid: str = "msg-3") -> list[dict]:
        return [switch("email"), act("email", "reply_email", username=me["email"], email_id=mid, content=content)]
    return {
        **head(me, now),
        "instruction": (f"{cust['first']} from {cust_org} is asking when their new order ships. Please reply to "
                        f"that email: it ships this Friday (give the weekday and date, written like 'Friday, "
                        f"{example_month} 6') and tracking details follow by email."),
        "office": mails,
        "checks": [
            # the thread by its order number (a reply's subject, or any subject naming the order); the
            # date as a date in any written form, beside the weekday; not the Friday before or after
            check("email_sent", sender=me["email"], to=cust["email"], subject_contains=str(new_no),
                  body_contains=[iso(friday), "Friday", "tracking"],
                  body_excludes=[iso(friday - week), iso(friday + week), str(old_no)]),
            check("email_not_sent", sender=me["email"], to=boss["email"]),
        ],
        "gold": [
            switch("email"),
            act("email", "list_emails", username=me["email"]),
            act("email", "read_email", username=me["email"], email_id="msg-3"),
            act("email", "reply_email", username=me["email"], email_id="msg-3",
                content=(f"Hi {cust['first']},\nyour order ships this Friday, {month_day(friday)}. "
                         f"Tracking details follow by email.\nBest regards,\n{me['name']}")),
        ],
        "wrong": [
            {"name": "replied to the older order's email", "actions": [
                switch("email"),
                act("email", "reply_email", username=me["email"], email_id="msg-1",
                    content=f"Hi {cust['first']},\nyour order ships this Friday, {month_day(friday)}. "
                            f"Tracking details follow by email.")]},
            {"name": "ship date a week late", "actions": [
                switch("email"),
                act("email", "reply_email", username=me["email"], email_id="msg-3",
                    content=(f"Hi {cust['first']},\nyour order ships on Friday, "
                             f"{month_day(friday + timedelta(days=7))}. Tracking details follow by email."))]},
            {"name": "only 'this Friday', no date", "actions": reply(
                f"Hi {cust['first']},\nyour order {new_no} ships this Friday. Tracking details follow by email.")},
            {"name": "tracking details not mentioned", "actions": reply(
                f"Hi {cust['first']},\nyour order {new_no} ships on Friday, {month_day(friday)}.")},
            {"name": "hedged between two Fridays", "actions": reply(
                f"Hi {cust['first']},\nyour order {new_no} ships on Friday, {month_day(friday)}, or Friday, "
                f"{month_day(friday + week)} at the latest. Tracking details follow by email.")},
            {"name": "answer sent to the colleague instead of the customer", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=boss["email"], subject=subject,
                    content=f"Order {new_no} ships on Friday, {month_day(friday)}. Tracking details follow by email.")]},
            {"name": "reply copied to the colleague", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=cust["email"], cc=[boss["email"]],
                    subject=subject,
                    content=f"Order {new_no} ships on Friday, {month_day(friday)}. Tracking details follow by email.")]},
        ],
        "right": [
            {"name": "reworded, the date written day first", "actions": reply(
                f"Dear {cust['first']}, good news: we will ship it on Friday {friday.day} {MONTHS[friday.month - 1]} "
                f"{friday.year}. You will get the tracking details in a separate email.")},
            {"name": "a new mail in the thread's name", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=cust["email"],
                    subject=f"Order {new_no} ships {day_name(friday)}",
                    content=f"Hello {cust['first']}, order {new_no} ships on {day_name(friday)}, "
                            f"{friday.strftime('%d/%m/%Y')}; tracking details follow by email.")]},
        ],
    }


@family("invoice-forward-to-payables", apps=["email"])
def invoice_forward_to_payables(rng: random.Random) -> dict:
    """Forward last week's supplier invoice (with its PDF) to accounts payable, not the older paid one."""
    (org, domain), (vendor, vdomain) = rng.sample(COMPANIES, 2)
    me = people(rng, 1, domain)[0]
    billing = f"billing@{vdomain}"
    ap = f"payables@{domain}"
    now = now_on_weekday(rng)
    last_week = now - timedelta(days=now.weekday() + 7 - rng.randint(0, 4))
    month_ago = now - timedelta(days=rng.randint(30, 40))
    n_new, n_old = rng.randint(1200, 1999), rng.randint(1000, 1199)
    amt_new, amt_old = rng.randrange(400, 9000, 5), rng.randrange(400, 9000, 5)
    f_new, f_old = f"data/invoices/INV-{n_new}.pdf", f"data/invoices/INV-{n_old}.pdf"
    other_vendor = rng.choice([c for c, _ in COMPANIES if c not in (vendor, org)])
    office = [
        pdf(f_old, [f"{vendor}\nInvoice INV-{n_old}\nTotal due: EUR {amt_old}"]),
        pdf(f_new, [f"{vendor}\nInvoice INV-{n_new}\nTotal due: EUR {amt_new}"]),
        eml(me["email"], "msg-1", billing, f"{vendor} invoice INV-{n_old}",
            f"Please find attached invoice INV-{n_old} (EUR {amt_old}).", at(month_ago.date(), 10),
            attachments=[f_old]),
        eml(me["email"], "msg-2", ap, f"Paid: INV-{n_old}", f"INV-{n_old} from {vendor} has been paid.",
            at(month_ago.date(), 10) + timedelta(days=9), attachments=[]),
        eml(me["email"], "msg-3", f"accounts@{other_vendor.split()[0].lower()}.test", f"{other_vendor} statement",
            "Your monthly statement is ready.", at(last_week.date(), 9), attachments=[]),
        eml(me["email"], "msg-4", billing, f"{vendor} invoice INV-{n_new}",
            f"Please find attached invoice INV-{n_new} (EUR {amt_new}).", at(last_week.date(), 15),
            attachments=[f_new]),
        _newsletter(me["email"], "msg-5", now - timedelta(days=1)),
    ]
    return {
        **head(me, now),
        "instruction": (f"Please forward last week's invoice from {vendor} to accounts payable ({ap}) so it gets "
                        f"paid on time."),
        "office": office,
        "checks": [
            # the invoice itself is the fact (its content is compared too); the subject is free
            check("email_sent", sender=me["email"], to=ap, attachments=[f"INV-{n_new}.pdf"]),
            check("email_not_sent", sender=me["email"], to=ap, subject_contains=f"INV-{n_old}"),
        ],
        "gold": [
            switch("email"),
            act("email", "list_emails", username=me["email"]),
            act("email", "forward_email", username=me["email"], email_id="msg-4", recipient=ap,
                content="For payment, please."),
        ],
        "wrong": [
            {"name": "the older, already paid invoice forwarded", "actions": [
                switch("email"),
                act("email", "forward_email", username=me["email"], email_id="msg-1", recipient=ap)]},
            {"name": "new mail without the invoice attached", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=ap, subject=f"Invoice INV-{n_new}",
                    content=f"Please pay {vendor} invoice INV-{n_new}, EUR {amt_new}.")]},
            {"name": "both invoices forwarded", "actions": [
                switch("email"),
                act("email", "forward_email", username=me["email"], email_id="msg-4", recipient=ap),
                act("email", "forward_email", username=me["email"], email_id="msg-1", recipient=ap)]},
            {"name": "forwarded back to the supplier's billing address", "actions": [
                switch("email"),
                act("email", "forward_email", username=me["email"], email_id="msg-4", recipient=billing)]},
            {"name": "new mail with both invoice PDFs attached", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=ap, subject=f"Invoice INV-{n_new}",
                    content=f"Please pay {vendor} invoice INV-{n_new}.", attachments=[f_new, f_old])]},
            {"name": "forwarded to payables and the supplier together", "actions": [
                switch("email"),
                act("email", "forward_email", username=me["email"], email_id="msg-4", recipient=[ap, billing])]},
        ],
        "right": [
            {"name": "a new mail with the invoice attached and its own subject", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=ap, subject=f"{vendor} - please pay",
                    content=f"Hi, please pay the attached {vendor} invoice (EUR {amt_new}).", attachments=[f_new])]},
            {"name": "forwarded without a note", "actions": [
                switch("email"),
                act("email", "forward_email", username=me["email"], email_id="msg-4", recipient=ap)]},
        ],
    }


@family("board-report-send-cc", apps=["email"])
def board_report_send_cc(rng: random.Random) -> dict:
    """Send the final report PDF to two board members with the manager in cc (not the draft)."""
    _, domain, (me, manager, m1, m2, m3), now = setup(rng, 5)
    q = (now.month - 1) // 3  # the quarter that just ended (Q4 of last year in Q1)
    quarter = f"Q{q}" if q else "Q4"
    year = now.year if q else now.year - 1
    final = f"data/reports/{quarter}_{year}_board_report.pdf"
    draft = f"data/reports/{quarter}_{year}_board_report_DRAFT.pdf"
    revenue = rng.randrange(800, 4000) * 1000
    meeting = next_weekday(now, 3) + timedelta(days=7)
    office = [
        pdf(draft, [f"{quarter} {year} board report - DRAFT\nRevenue: TBC"]),
        pdf(final, [f"{quarter} {year} board report\nRevenue: EUR {revenue}", "Outlook and risks"]),
        eml(me["email"], "msg-1", manager["email"], f"{quarter} board pack",
            f"When the report is final, send it to {m1['name']} ({m1['email']}) and {m2['name']} "
            f"({m2['email']}) and cc me. {m3['first']} gets it later with the full pack.", now - timedelta(hours=20),
            to=[me["email"]], attachments=[]),
    ]
    subject = f"{quarter} {year} board report"

    def send(to: list[str], cc, files: list[str], day=meeting, iso_date: bool = False) -> list[dict]:
        when = iso(day) if iso_date else f"{day_name(day)} {month_day(day)}"
        return [switch("email"), act("email", "send_email", sender=me["email"], recipient=to, subject=subject,
                                     content=f"Please find the report attached; the board meets on {when}.",
                                     cc=cc, attachments=files)]

    return {
        **head(me, now),
        "instruction": (f"The {quarter} board report is final. Send it ({final}) to the two board members "
                        f"{manager['first']} named in the email about the board pack, with {manager['first']} in cc. "
                        f"Subject '{subject}'; mention that the board meets on {day_name(meeting)} "
                        f"{month_day(meeting)}."),
        "office": office,
        "checks": [
            check("email_sent", sender=me["email"], to=[m1["email"], m2["email"]], cc=[manager["email"]],
                  subject=subject, attachments=[final.split("/")[-1]],
                  body_contains=[meeting.strftime("%Y-%m-%d")],
                  body_excludes=[iso(meeting - timedelta(days=7)), iso(meeting + timedelta(days=7))]),
            check("email_not_sent", sender=me["email"], to=m3["email"]),
        ],
        "gold": [
            switch("email"),
            act("email", "read_email", username=me["email"], email_id="msg-1"),
            act("email", "send_email", sender=me["email"], recipient=[m1["email"], m2["email"]], subject=subject,
                content=(f"Dear {m1['first']} and {m2['first']},\nplease find attached the {quarter} {year} board "
                         f"report ahead of the board meeting on {day_name(meeting)} {month_day(meeting)}.\n"
                         f"Kind regards,\n{me['name']}"),
                cc=[manager["email"]], attachments=[final]),
        ],
        "wrong": [
            {"name": "the draft attached", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=[m1["email"], m2["email"]],
                    subject=subject, content=f"Board report attached; the board meets {month_day(meeting)}.",
                    cc=[manager["email"]], attachments=[draft])]},
            {"name": "manager in to instead of cc", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"],
                    recipient=[m1["email"], m2["email"], manager["email"]], subject=subject,
                    content=f"Board report attached; the board meets {month_day(meeting)}.",
                    attachments=[final])]},
            {"name": "the third board member included", "actions": send(
                [m1["email"], m2["email"], m3["email"]], [manager["email"]], [final])},
            {"name": "manager not in cc", "actions": send([m1["email"], m2["email"]], None, [final])},
            {"name": "draft attached beside the final report", "actions": send(
                [m1["email"], m2["email"]], [manager["email"]], [final, draft])},
            {"name": "meeting date a week early", "actions": send(
                [m1["email"], m2["email"]], [manager["email"]], [final], meeting - timedelta(days=7))},
            {"name": "one mail per board member", "actions": [switch("email")] + [
                x for m in (m1, m2) for x in send([m["email"]], [manager["email"]], [final])[1:]]},
        ],
        "right": [
            {"name": "reworded, the date written out with its year", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=[m2["email"], m1["email"]],
                    subject=subject.upper(), cc=[manager["email"]], attachments=[final],
                    content=(f"Hello both, here is the final report. The board meets on {meeting.day} "
                             f"{MONTHS[meeting.month - 1]} {meeting.year}."))]},
            {"name": "the date written as YYYY-MM-DD", "actions": send(
                [m1["email"], m2["email"]], [manager["email"]], [final], iso_date=True)},
        ],
    }


@family("fire-drill-notice-wardens", apps=["email"])
def fire_drill_notice_wardens(rng: random.Random) -> dict:
    """Send a fire drill notice to every floor warden listed in a colleague's email."""
    _, domain = rng.choice(COMPANIES)
    me, hr, *wardens = people(rng, 7, domain)
    wardens, bystander = wardens[:4], wardens[4]
    now = now_on_weekday(rng)
    wd = now.weekday()
    this_week = wd < 2  # Monday/Tuesday: this week's Thursday; later: next week's
    drill_day = now.date() + timedelta(days=(3 - wd) if this_week else (10 - wd))
    when = iso(drill_day)
    minute = rng.choice(["00", "15", "30"])
    hour = rng.choice([10, 11, 14])
    point = rng.choice(["the north car park", "the bicycle shelter", "the bus stop on Quay Street",
                        "the lawn behind building B"])
    listing = "\n".join(f"- Floor {i + 1}: {w['name']} <{w['email']}>" for i, w in enumerate(wardens))
    office = [
        eml(me["email"], "msg-1", hr["email"], "Floor wardens for this year",
            f"Hi {me['first']},\nthe floor wardens this year are:\n{listing}\n{bystander['name']} is first aider "
            f"but not a warden.\nThanks,\n{hr['first']}", now - timedelta(days=1, hours=3), attachments=[]),
        eml(me["email"], "msg-2", bystander["email"], "First aid kit", "The first aid kit on floor 2 needs plasters.",
            now - timedelta(days=2), attachments=[]),
        _newsletter(me["email"], "msg-3", now - timedelta(hours=5)),
    ]
    emails = [w["email"] for w in wardens]
    content = (f"Hello,\nthe fire drill takes place on {day_name(drill_day)} {when} at {hour}:{minute}. "
               f"The meeting point is {point}. Please make sure your floor is cleared.\nThanks,\n{me['name']}")
    return {
        **head(me, now),
        "instruction": (f"Please email the fire drill notice to all the floor wardens {hr['first']} listed in "
                        f"yesterday's email (one email, all of them in To). Subject 'Fire drill'. The drill is "
                        f"{day_name(drill_day)} {'this' if this_week else 'next'} "
                        f"week at {hour}:{minute} (write the date as YYYY-MM-DD) and the meeting point is {point}."),
        "office": office,
        "checks": [
            check("email_sent", sender=me["email"], to=emails, subject="Fire drill",
                  body_contains=[when, f"{hour}:{minute}", point],
                  body_excludes=[iso(drill_day - timedelta(days=7)), iso(drill_day + timedelta(days=7))]),
            check("email_not_sent", sender=me["email"], to=bystander["email"]),
        ],
        "gold": [
            switch("email"),
            act("email", "read_email", username=me["email"], email_id="msg-1"),
            act("email", "send_email", sender=me["email"], recipient=emails, subject="Fire drill", content=content),
        ],
        "wrong": [
            {"name": "last warden on the list left out", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=emails[:-1], subject="Fire drill",
                    content=content)]},
            {"name": "first aider added as a warden", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=emails + [bystander["email"]],
                    subject="Fire drill", content=content)]},
            {"name": "date a week off", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=emails, subject="Fire drill",
                    content=content.replace(when, (drill_day + timedelta(days=7)).isoformat()))]},
            {"name": "one email per warden", "actions": [switch("email")] + [
                act("email", "send_email", sender=me["email"], recipient=e, subject="Fire drill", content=content)
                for e in emails]},
            {"name": "first aider in cc", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=emails, subject="Fire drill",
                    content=content, cc=[bystander["email"]])]},
            {"name": "meeting point left out", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=emails, subject="Fire drill",
                    content=content.replace(f" The meeting point is {point}.", ""))]},
            {"name": "time an hour off", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=emails, subject="Fire drill",
                    content=content.replace(f"{hour}:{minute}", f"{hour + 1}:{minute}"))]},
            {"name": "HR colleague put in To with the wardens", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=emails + [hr["email"]],
                    subject="Fire drill", content=content)]},
        ],
        "right": [
            {"name": "reworded, wardens in another order, 12-hour time", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=emails[::-1], subject="FIRE DRILL",
                    content=(f"Dear floor wardens,\nplease gather at {point} after clearing your floor. Drill: "
                             f"{when}, {hour % 12 or 12}:{minute} {'am' if hour < 12 else 'pm'}.\n{me['first']}"))]},
        ],
    }


@family("signed-quote-already-sent", apps=["email"])
def signed_quote_already_sent(rng: random.Random) -> dict:
    """Make sure a colleague has the signed quote; it was already sent yesterday, so nothing is sent."""
    (org, domain), (vendor, vdomain) = rng.sample(COMPANIES, 2)
    me, colleague = people(rng, 2, domain)
    sales = people(rng, 1, vdomain)[0]
    now = now_on_weekday(rng)
    qno = f"Q-{rng.randint(200, 899)}"
    quote = f"data/quotes/{vendor.split()[0].lower()}_{qno}_signed.pdf"
    sent_at = now - timedelta(days=1, hours=rng.randint(0, 5))
    office = [
        pdf(quote, [f"{vendor}\nQuote {qno}\nSigned for {org}: {me['name']}"]),
        eml(me["email"], "msg-1", sales["email"], f"Signed quote {qno}",
            f"Hi {me['first']},\nattached is the countersigned quote {qno}.\n{sales['name']}",
            sent_at - timedelta(hours=4), attachments=[quote]),
        eml(me["email"], "msg-2", me["email"], f"Signed quote {qno} from {vendor}",
            f"Hi {colleague['first']},\nhere is the signed quote from {vendor} for your files.\n{me['first']}", sent_at,
            to=[colleague["email"]], folder="sent", attachments=[quote]),
        _newsletter(me["email"], "msg-3", now - timedelta(hours=2)),
    ]
    return {
        **head(me, now),
        "instruction": (f"{colleague['name']} needs the signed quote {qno} from {vendor} for the purchase order. "
                        f"Please forward it to {colleague['first']} ({colleague['email']}) - unless I already sent it "
                        f"to {colleague['first']}; I don't want to spam."),
        "office": office,
        "no_action": True,
        "checks": [
            check("email_not_sent", sender=me["email"], to=colleague["email"], subject_contains="Fwd"),
            check("email_sent", sender=me["email"], to=colleague["email"], subject=f"Signed quote {qno} from {vendor}",
                  earlier=True),  # the mail sent before stays
        ],
        "gold": [
            switch("email"),
            act("email", "list_emails", username=me["email"], folder="sent"),
        ],
        "wrong": [
            {"name": "forwarded again", "actions": [
                switch("email"),
                act("email", "forward_email", username=me["email"], email_id="msg-1", recipient=colleague["email"])]},
            {"name": "re-sent as a new mail with the quote attached", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=colleague["email"],
                    subject=f"Quote {qno}", content="Here it is again.", attachments=[quote])]},
            {"name": "a note to the colleague that it was sent already", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=colleague["email"],
                    subject=f"Signed quote {qno}", content="I sent you the signed quote yesterday - check your inbox.")]},
            {"name": "forwarded to the salesperson instead", "actions": [
                switch("email"),
                act("email", "forward_email", username=me["email"], email_id="msg-1", recipient=sales["email"])]},
            {"name": "the newsletter forwarded to the colleague by mistake", "actions": [
                switch("email"),
                act("email", "forward_email", username=me["email"], email_id="msg-3", recipient=colleague["email"])]},
            {"name": "sent again to the salesperson with the colleague in cc", "actions": [
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=sales["email"], cc=[colleague["email"]],
                    subject=f"Signed quote {qno}", content="Signed quote attached.", attachments=[quote])]},
            {"name": "a reply to the salesperson asking for the quote again", "actions": [
                switch("email"),
                act("email", "reply_email", username=me["email"], email_id="msg-1",
                    content=f"Could you send quote {qno} to {colleague['first']} as well?")]},
        ],
        "right": [
            {"name": "both folders checked, nothing sent", "actions": [
                switch("email"), act("email", "list_emails", username=me["email"]),
                act("email", "list_emails", username=me["email"], folder="sent"),
                act("email", "read_email", username=me["email"], email_id="msg-1")],
             "answer": f"Already sent to {colleague['first']} yesterday; nothing sent again."},
        ],
    }
