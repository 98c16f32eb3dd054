"""Three-app families about documents and files: contracts, incidents, scans, policies, onboarding, CVs."""

from __future__ import annotations

import random
from datetime import timedelta

from officesim.tasks.families._kit import (
    act, check, days_ago, docx, eml, head, image, iso, outsider, pdf, people, setup, sh, switch, text,
    weekday_month_day, workday_from
)
from officesim.tasks.families.registry import family


# ---------------------------------------------------------------------------------------------
@family("contract-term-amend", apps=["pdf", "word", "email"])
def contract_term_amend(rng: random.Random) -> dict:
    """Amend one clause of a PDF contract as legal asks (PDF -> Word -> PDF) and send the new version back."""
    org, domain, (me, legal, col), now = setup(rng, 3)
    client = rng.choice(["Pinecrest Dental", "Marlow Freight", "Halcyon Hotels", "Quill & Co", "Brightwater Farms"])
    slug = client.split()[0].lower()
    old_days, new_days = rng.choice([(30, 45), (30, 60), (14, 30)])
    notice = old_days  # the termination clause uses the same number on purpose
    src = f"data/contracts/{slug}_service_agreement.pdf"
    v2_doc = f"data/contracts/{slug}_service_agreement_v2.docx"
    v2 = f"data/contracts/{slug}_service_agreement_v2.pdf"
    pay_old = f"Invoices are payable within {old_days} days."
    pay_new = f"Invoices are payable within {new_days} days."
    term = f"Either party may terminate on {notice} days notice."
    page1 = "\n".join(["Service Agreement", f"between {org} and {client}", "1. Services",
                       "The provider delivers the services in Annex A.", "2. Fees", "Fees are listed in Annex B.",
                       pay_old, "3. Term", "The agreement runs for twelve months.", term])
    page2 = "\n".join(["4. Confidentiality", "Both parties keep the terms confidential.", "5. Law",
                       "This agreement is governed by local law."])

    def edit(old, new, doc=v2_doc, outs=(v2,)):
        steps = [switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=src, word_file_path=doc), switch("word")]
        if old is not None:
            steps.append(act("word", "replace_text", file_path=doc, old_text=old, new_text=new))
        return steps + [act("word", "convert_to_pdf", word_file_path=doc, pdf_file_path=o) for o in outs]

    def mail(to=legal["email"], files=(v2,)):
        return act("email", "send_email", sender=me["email"], recipient=to,
                   subject=f"Re: {client} agreement - payment terms",
                   content=f"Hi {legal['first']},\n\nhere is the updated agreement with {new_days}-day payment terms."
                           f"\n\n{me['first']}", attachments=list(files))

    send = mail()
    fix = (f"within {old_days} days", f"within {new_days} days")
    return {
        **head(me, now),
        "instruction": (f"Please do what {legal['name']} asks in the email about the {client} agreement ({src})."),
        "office": [pdf(src, [page1, page2]),
                   eml(me["email"], "msg-1", col["email"], f"{client} kickoff", "Kickoff is confirmed for next month.",
                       days_ago(now, 4, 11)),
                   eml(me["email"], "msg-2", legal["email"], f"{client} agreement - payment terms",
                       f"Hi {me['first']},\n\n{client} accepted our offer on one condition: invoices are payable "
                       f"within {new_days} days instead of {old_days}. Nothing else changes (the termination notice "
                       f"stays as it is). Could you update {src}, save the new version as {v2} and send it back to "
                       f"me as an attachment?\n\nThanks,\n{legal['first']}", days_ago(now, 0, 8, 40))],
        # the Word file the conversion goes through is the agent's scratch file: any name, kept or not
        "free": ["data/*.docx"],
        "checks": [check("contains", file=v2, text=[pay_new, term, client]),
                   check("not_contains", file=v2, text=pay_old),
                   check("contains", file=src, text=pay_old),
                   check("email_sent", sender=me["email"], to=legal["email"], attachments=[v2.rsplit("/", 1)[1]])],
        "gold": [switch("email"), act("email", "read_email", username=me["email"], email_id="msg-2"),
                 *edit(*fix), switch("email"), send],
        "wrong": [
            {"name": "changes every occurrence of the number of days", "actions": [
                *edit(f"{old_days} days", f"{new_days} days"), switch("email"), send]},
            {"name": "edits the PDF but never sends it", "actions": edit(*fix)},
            {"name": "saves the new version over the original as well", "actions": [
                *edit(*fix, outs=(v2, src)), switch("email"), send]},
            {"name": "makes the new version but attaches the original agreement", "actions": [
                *edit(*fix), switch("email"), mail(files=(src,))]},
            {"name": "sends the Word file instead of the PDF", "actions": [
                *edit(*fix), switch("email"), mail(files=(v2_doc,))]},
            {"name": "saves the agreement as v2 without changing it", "actions": [
                *edit(None, None), switch("email"), send]},
            {"name": "sends it to the colleague of the kickoff mail", "actions": [
                *edit(*fix), switch("email"), mail(to=col["email"])]},
        ],
        "right": [
            {"name": "the whole sentence replaced in a Word file of another name, a new mail of its own wording",
             "actions": [*edit(pay_old, pay_new, doc=f"data/contracts/{slug}_draft.docx"), switch("email"),
                         act("email", "send_email", sender=me["email"], recipient=legal["email"],
                             subject=f"{client} agreement v2",
                             content=f"{legal['first']} - attached is the version with the new payment terms "
                                     f"({new_days} days).", attachments=[v2])]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("incident-log-report", apps=["shell", "pdf", "word"])
def incident_log_report(rng: random.Random) -> dict:
    """Count yesterday's errors in the service log and fill in the PDF incident form (via Word, back to PDF)."""
    org, domain, (me, _), now = setup(rng, 2)
    services = rng.sample(["payments", "search", "auth", "catalog", "orders", "notify"], 4)
    top = services[0]
    logs = {}
    for back in (2, 1, 0):
        d = now.date() - timedelta(days=back)
        lines, errors = [], {s: 0 for s in services}
        weights = {s: (6 if (s == top and back == 1) else 1) for s in services}
        if back == 2:
            weights[services[1]] = 6
        for k in range(rng.randrange(40, 60)):
            s = rng.choices(services, weights=[weights[x] for x in services])[0]
            lvl = rng.choices(["INFO", "WARN", "ERROR"], weights=[5, 2, 3])[0]
            if lvl == "ERROR":
                errors[s] += 1
            lines.append(f"{iso(d)} {8 + k // 6:02d}:{(k * 7) % 60:02d}:{k % 60:02d} {lvl} {s} "
                         + {"INFO": "request ok", "WARN": "slow response", "ERROR": "upstream timeout"}[lvl])
        if back == 1:  # make sure the most affected service is unambiguous
            extra = max(errors[s] for s in services if s != top) - errors[top] + 2
            for k in range(max(extra, 0)):
                lines.append(f"{iso(d)} 17:{k:02d}:00 ERROR {top} upstream timeout")
                errors[top] += 1
        logs[back] = (lines, errors)
    y = now.date() - timedelta(days=1)
    y_errors = logs[1][1]
    n_err = sum(y_errors.values())
    t_errors = sum(logs[0][1].values())
    form = "data/forms/incident_form.pdf"
    out_doc, out_pdf = f"data/reports/incident_{iso(y)}.docx", f"data/reports/incident_{iso(y)}.pdf"
    form_text = "Incident report\nService: API platform\nPrepared by the on-call engineer\nFindings:"
    add = lambda n, s, d=y: act("word", "write_to_file", file_path=out_doc,
                                contents=f"Date: {iso(d)}\nErrors: {n}\nMost affected service: {s}")
    log = lambda b: f"data/logs/api-{iso(now.date() - timedelta(days=b))}.log"
    cmd = (f"grep -c ' ERROR ' {log(1)}; grep ' ERROR ' {log(1)} | awk '{{print $4}}' | sort | uniq -c | sort -rn")
    to_word = [switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=form, word_file_path=out_doc), switch("word")]
    to_pdf = act("word", "convert_to_pdf", word_file_path=out_doc, pdf_file_path=out_pdf)
    return {
        **head(me, now),
        "instruction": (f"Write up yesterday's API incident. Our incident form is {form}: convert it to a Word document "
                        f"{out_doc}, add at the end the lines 'Date: <YYYY-MM-DD>', 'Errors: <number of ERROR lines "
                        f"in yesterday's log>' and 'Most affected service: <service with the most ERROR lines>', then "
                        f"save it as {out_pdf}. The logs are in data/logs/, one file per day."),
        "office": [pdf(form, [form_text]), *[text(log(b), "\n".join(logs[b][0]) + "\n") for b in (2, 1, 0)]],
        "checks": [*[check("contains", file=f, text=["Incident report", f"Date: {iso(y)}", f"Errors: {n_err}",
                                                     f"Most affected service: {top}"], ordered=True)
                     for f in (out_pdf, out_doc)]],
        "gold": [switch("shell"), sh(cmd), switch("pdf"),
                 act("pdf", "convert_to_word", pdf_file_path=form, word_file_path=out_doc), switch("word"),
                 add(n_err, top), act("word", "convert_to_pdf", word_file_path=out_doc, pdf_file_path=out_pdf)],
        "wrong": [
            {"name": "counts today's log", "actions": [
                *to_word, add(t_errors, max(logs[0][1], key=logs[0][1].get)), to_pdf]},
            {"name": "fills the Word file but never makes the PDF", "actions": [*to_word, add(n_err, top)]},
            {"name": "yesterday's figures under today's date", "actions": [*to_word, add(n_err, top, now.date()), to_pdf]},
            {"name": "counts the log of the day before yesterday", "actions": [
                *to_word, add(sum(logs[2][1].values()), max(logs[2][1], key=logs[2][1].get)), to_pdf]},
            {"name": "counts the ERROR lines of all three logs", "actions": [
                *to_word, add(sum(sum(logs[b][1].values()) for b in logs), top), to_pdf]},
            {"name": "makes the PDF before adding the lines", "actions": [*to_word, to_pdf, add(n_err, top)]},
        ],
        "right": [
            {"name": "one line at a time, the service in capitals", "actions": [
                *to_word, *[act("word", "write_to_file", file_path=out_doc, contents=line)
                            for line in (f"Date: {iso(y)}", f"Errors: {n_err}", f"Most affected service: {top.upper()}")],
                to_pdf]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("delivery-shortfall-claim", apps=["ocr", "pdf", "email"])
def delivery_shortfall_claim(rng: random.Random) -> dict:
    """Compare a scanned delivery note with the purchase order PDF and claim the missing items from the supplier."""
    org, domain, (me, col), now = setup(rng, 2)
    sup_org, sup_domain, (rep,) = outsider(rng, domain)
    items = rng.sample(["Paper A4", "Toner", "Folders", "Pens", "Envelopes", "Tape", "Labels", "Staples"], 5)
    ordered = [rng.randrange(5, 40) for _ in items]
    short_k = sorted(rng.sample(range(5), 2))
    delivered = [q - rng.randrange(1, q) if k in short_k else q for k, q in enumerate(ordered)]
    po = f"PO-{rng.randrange(3000, 9000)}"
    po_pdf = f"data/purchasing/{po}.pdf"
    scan = "data/scans/delivery_note.png"
    po_text = f"Purchase order {po}\nSupplier: {sup_org}\n" + "\n".join(f"{i}: {q}" for i, q in zip(items, ordered))
    lines = ["DELIVERY NOTE", sup_org, f"Ref {po}"] + [f"{i}: {q}" for i, q in zip(items, delivered)] + ["Received OK"]
    missing = [f"{items[k]}: {ordered[k] - delivered[k]}" for k in short_k]

    def mail(ms, to=rep["email"], subject=f"Missing items on {po}"):
        return act("email", "send_email", sender=me["email"], recipient=to, subject=subject,
                   content=f"Hello {rep['first']},\n\nthe delivery for {po} was short. Still missing:\n"
                           + "\n".join(ms) + f"\n\nPlease send them as soon as possible.\n\n{me['name']}")

    # what a wrong list would say: a short item's delivered or ordered count, a complete item at all
    wrong_lines = [f"{items[k]}: {q}" for k in short_k for q in (delivered[k], ordered[k])]
    wrong_lines += [f"{items[k]}: {q}" for k in range(5) if k not in short_k for q in (0, ordered[k])]
    wrong_lines = [w for w in dict.fromkeys(wrong_lines) if w not in missing]

    return {
        **head(me, now),
        "instruction": (f"Today's delivery from {sup_org} came with the delivery note scanned at {scan}. Compare it with "
                        f"our order {po_pdf} and email {rep['name']} ({rep['email']}) with subject 'Missing items on "
                        f"{po}', listing each short item as a line '<item>: <quantity still missing>'."),
        "office": [image(scan, lines, font_size=30), pdf(po_pdf, [po_text]),
                   pdf("data/purchasing/PO-older.pdf", [f"Purchase order PO-1200\nSupplier: {sup_org}\nChairs: 4"]),
                   eml(me["email"], "msg-1", rep["email"], f"Dispatch of {po}", "Your order is on its way.",
                       days_ago(now, 1, 15))],
        "checks": [check("email_sent", sender=me["email"], to=rep["email"], subject_contains=f"Missing items on {po}",
                         body_contains=missing, body_excludes=wrong_lines)],
        "gold": [switch("ocr"), act("ocr", "recognize_file", file_path=scan), switch("pdf"),
                 act("pdf", "read_file", pdf_file_path=po_pdf), switch("email"), mail(missing)],
        "wrong": [
            {"name": "lists delivered quantities instead of what is missing", "actions": [
                switch("email"), mail([f"{items[k]}: {delivered[k]}" for k in short_k])]},
            {"name": "only the first shortfall", "actions": [switch("email"), mail(missing[:1])]},
            {"name": "lists every ordered item with what is missing, zeros too", "actions": [
                switch("email"), mail([f"{i}: {o - d}" for i, o, d in zip(items, ordered, delivered)])]},
            {"name": "each short item with the ordered and the delivered count", "actions": [
                switch("email"), mail(missing + [f"{items[k]}: {ordered[k]} ordered" for k in short_k])]},
            {"name": "another subject", "actions": [switch("email"), mail(missing, subject=f"Delivery {po}")]},
            {"name": "sends the claim to my colleague", "actions": [switch("email"), mail(missing, to=col["email"])]},
            {"name": "the claim, and a second mail with only the first item", "actions": [
                switch("email"), mail(missing), mail(missing[:1])]},
        ],
        "right": [
            {"name": "a reply-style subject and a bulleted list", "actions": [switch("email"), act(
                "email", "send_email", sender=me["email"], recipient=rep["email"], subject=f"RE: Missing items on {po}",
                content=f"Hi {rep['first']}, we are still waiting for:\n" + "\n".join(f"- {m}" for m in missing)
                        + "\nThanks!")]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("scan-to-pdf-filing", apps=["ocr", "pdf", "shell"])
def scan_to_pdf_filing(rng: random.Random) -> dict:
    """Identify which scanned page is which client's signed form, save it as a named PDF, tidy the scans."""
    org, domain, (me, _), now = setup(rng, 2)
    clients = rng.sample(["Pinecrest Dental", "Marlow Freight", "Halcyon Hotels", "Quill Books", "Brightwater Farms",
                          "Kestrel Labs"], 3)
    target = clients[0]
    kinds = ["NDA", "DATA SHARING FORM", "NDA"]
    order = [0, 1, 2]
    rng.shuffle(order)
    scans = {}
    for pos, k in enumerate(order, start=1):
        scans[k] = f"data/scans/scan_{pos:02d}.png"
    office = [image(scans[k], [kinds[k], f"Client: {clients[k]}", f"Signed {iso(now - timedelta(days=1))}",
                               "Signature: on file"], font_size=30) for k in range(3)]
    office.append(text("data/contracts/signed/README.txt", "Signed contracts, one PDF per client.\n"))
    slug = target.split()[0].lower()
    out = f"data/contracts/signed/{slug}_nda.pdf"
    processed = "data/scans/processed"
    move = lambda f: sh(f"mkdir -p {processed} && mv {f} {processed}/")
    conv = lambda f: act("pdf", "image_to_pdf", image_file_path=f, pdf_file_path=out)
    name = scans[0].rsplit("/", 1)[1]
    return {
        **head(me, now),
        "instruction": (f"Yesterday's scans are in data/scans/. One of them is the signed NDA from {target}: save it as "
                        f"a PDF at {out}, then move that scan (only that one) into {processed}/."),
        "office": office,
        "checks": [check("file_exists", file=out), check("dir_files", dir=processed, names=[name]),
                   check("file_not_exists", file=scans[0]),
                   check("file_exists", file=scans[1]), check("file_exists", file=scans[2])],
        "gold": [switch("ocr"), *[act("ocr", "recognize_file", file_path=scans[k]) for k in range(3)], switch("pdf"),
                 conv(scans[0]), switch("shell"), move(scans[0])],
        "wrong": [
            {"name": "files the other client's NDA", "actions": [switch("pdf"), conv(scans[2]), switch("shell"),
                                                                 move(scans[2])]},
            {"name": "moves every scan", "actions": [switch("pdf"), conv(scans[0]), switch("shell"),
                                                     move("data/scans/scan_*.png")]},
            {"name": "files the other client's NDA, moves the right scan", "actions": [
                switch("pdf"), conv(scans[2]), switch("shell"), move(scans[0])]},
            {"name": "files the data sharing form", "actions": [
                switch("pdf"), conv(scans[1]), switch("shell"), move(scans[1])]},
            {"name": "copies the scan instead of moving it", "actions": [
                switch("pdf"), conv(scans[0]), switch("shell"), sh(f"mkdir -p {processed} && cp {scans[0]} {processed}/")]},
            {"name": "moves the scan but makes no PDF", "actions": [switch("shell"), move(scans[0])]},
            {"name": "moves the scan in under another name", "actions": [
                switch("pdf"), conv(scans[0]), switch("shell"), sh(f"mkdir -p {processed} && mv {scans[0]} "
                                                                   f"{processed}/{slug}_nda.png")]},
        ],
        "right": [
            {"name": "moves the scan first, makes the PDF from the moved file", "actions": [
                switch("shell"), sh(f"mkdir {processed}; mv {scans[0]} {processed}/{name}"), switch("pdf"),
                act("pdf", "image_to_pdf", image_file_path=f"{processed}/{name}", pdf_file_path=out)]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("scan-transcribe-archive", apps=["ocr", "word", "shell"])
def scan_transcribe_archive(rng: random.Random) -> dict:
    """Transcribe a scanned handwritten-style notice board into a document, then archive the scans as tar.gz."""
    board = rng.choice(["Kitchen rota", "Parking rules", "Fire drill plan", "Quiet hours"])
    org, domain, (me, *staff), now = setup(rng, 4)
    facts = {
        "Kitchen rota": ["Monday: {a}", "Wednesday: {b}", "Friday: {c}"],
        "Parking rules": ["Bay 1: {a}", "Bay 2: {b}", "Visitors: bay 3"],
        "Fire drill plan": ["Warden floor 1: {a}", "Warden floor 2: {b}", "Meet at car park"],
        "Quiet hours": ["Mornings until 11", "Ask {a} for the key", "Call {b} for issues"],
    }[board]
    lines = [l.format(a=staff[0]["first"], b=staff[1]["first"], c=staff[2]["first"]) for l in facts]
    folder = f"data/scans/{board.lower().replace(' ', '_')}"
    imgs = [f"{folder}/photo_1.png", f"{folder}/photo_2.png"]
    doc = f"data/notices/{board.lower().replace(' ', '_')}.docx"
    tarball = f"data/archive/{board.lower().replace(' ', '_')}_scans.tar.gz"
    office = [image(imgs[0], [board.upper()] + lines[:2], font_size=30),
              image(imgs[1], lines[2:] + [f"Updated {iso(now)}"], font_size=30),
              image("data/scans/other/poster.png", ["YOGA CLASS", "Thursdays 6pm"], font_size=30)]
    poster = ["YOGA CLASS", "Thursdays 6pm"]
    write = lambda ls: act("word", "write_to_file", file_path=doc, contents="\n".join(ls))
    tar = sh(f"mkdir -p data/archive && tar -czf {tarball} -C data/scans "
             f"{folder.rsplit('/', 1)[1]} && rm -r {folder}")
    return {
        **head(me, now),
        "instruction": (f"The photos of the '{board}' board are in {folder}/ (two images, in order). Type the notice "
                        f"into a new document {doc}: the title '{board}' on the first line, then each line of the notice "
                        f"as its own paragraph, in order. Then pack that scan folder into {tarball} and delete the "
                        f"folder."),
        "office": office,
        # the board's 'Updated <date>' footer may or may not be typed as a line of the notice: the document's
        # layout is judged by the checks (each line a paragraph, in order, nothing from the other poster)
        "free": [doc],
        "checks": [check("contains", file=doc, text=[board] + lines, ordered=True, exclude=poster),
                   check("docx_has_paragraph", file=doc, text=board),
                   *[check("docx_has_paragraph", file=doc, text=line, case_sensitive=False) for line in lines],
                   check("file_exists", file=tarball), check("file_not_exists", file=imgs[0]),
                   check("file_not_exists", file=imgs[1]),
                   check("file_exists", file="data/scans/other/poster.png"), check("no_repeats", file=doc)],
        "gold": [switch("ocr"), *[act("ocr", "recognize_file", file_path=i) for i in imgs], switch("word"),
                 write([board] + lines), switch("shell"), tar],
        "wrong": [
            {"name": "transcribes only the first photo", "actions": [switch("word"), write([board] + lines[:2]),
                                                                   switch("shell"), tar]},
            {"name": "archives but keeps the scans", "actions": [
                switch("word"), write([board] + lines), switch("shell"),
                sh(f"mkdir -p data/archive && tar -czf {tarball} {folder}")]},
            {"name": "the notice as one paragraph", "actions": [
                switch("word"), act("word", "write_to_file", file_path=doc, contents=" ".join([board] + lines)),
                switch("shell"), tar]},
            {"name": "the second photo typed before the first", "actions": [
                switch("word"), write([board] + lines[2:] + lines[:2]), switch("shell"), tar]},
            {"name": "archives every scan folder, the poster too", "actions": [
                switch("word"), write([board] + lines), switch("shell"),
                sh(f"mkdir -p data/archive && tar -czf {tarball} -C data scans && rm -r {folder}")]},
            {"name": "deletes the photos without archiving them", "actions": [
                switch("word"), write([board] + lines), switch("shell"), sh(f"rm -r {folder}")]},
            {"name": "archives only the first photo", "actions": [
                switch("word"), write([board] + lines), switch("shell"),
                sh(f"mkdir -p data/archive && tar -czf {tarball} -C {folder} photo_1.png && rm -r {folder}")]},
        ],
        "right": [
            {"name": "the footer typed as well, the archive made with full paths", "actions": [
                switch("word"), write([board] + lines + [f"Updated {iso(now)}"]), switch("shell"),
                sh(f"mkdir -p data/archive && tar -czf {tarball} {folder} && rm -rf {folder}")]},
            {"name": "the lines as a bulleted list", "actions": [
                switch("word"), write([board] + [f"- {line}" for line in lines]), switch("shell"), tar]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("policy-publish-update", apps=["shell", "pdf", "word"])
def policy_publish_update(rng: random.Random) -> dict:
    """Archive the published policy PDF with a date stamp, then publish a new version with an added rule."""
    org, domain, (me, _), now = setup(rng, 2)
    policy, rule = rng.choice([
        ("travel_policy", "Rail is preferred over flights for trips under 500 km."),
        ("remote_work_policy", "Core hours for meetings are 10:00 to 15:00."),
        ("expense_policy", "Receipts must be submitted within 30 days."),
        ("equipment_policy", "Laptops are replaced every four years."),
    ])
    title = policy.replace("_", " ").title()
    pub = f"data/policies/{policy}.pdf"
    arch = f"data/policies/archive/{policy}_{iso(now)}.pdf"
    work = f"data/policies/drafts/{policy}.docx"
    rules = {"travel_policy": ["Book travel through the portal.", "Economy class for flights under 6 hours."],
             "remote_work_policy": ["Staff may work remotely up to three days a week.", "Keep your status up to date."],
             "expense_policy": ["Expenses need a manager's approval.", "Alcohol is not reimbursed."],
             "equipment_policy": ["Equipment stays the property of the company.", "Report losses within a day."]}[policy]
    body = f"{title}\n" + "\n".join(f"{k}. {r}" for k, r in enumerate(rules, start=1))
    new_line = f"{len(rules) + 1}. {rule}"
    steps = lambda: [switch("pdf"), act("pdf", "convert_to_word", pdf_file_path=pub, word_file_path=work),
                     switch("word"), act("word", "write_to_file", file_path=work, contents=new_line),
                     act("word", "convert_to_pdf", word_file_path=work, pdf_file_path=pub)]
    archive = sh(f"mkdir -p data/policies/archive && cp {pub} {arch}")
    return {
        **head(me, now),
        "instruction": (f"HR approved a new rule for the {title}: '{new_line}'. First keep the currently published "
                        f"{pub} as {arch}, then publish the new version at {pub} with that rule added as the last line "
                        f"(you can edit it as a Word document in data/policies/drafts/)."),
        "office": [pdf(pub, [body]), pdf(f"data/policies/archive/{policy}_2025-01-15.pdf", [f"{title}\n1. {rules[0]}"]),
                   text("data/policies/README.txt", "Published policies live here; old versions go to archive/.\n")],
        # the Word file the new version is edited in is the agent's scratch file: any name, kept or not
        "free": ["data/policies/drafts/*"],
        "checks": [check("contains", file=pub, text=[title] + rules + [new_line], ordered=True),
                   check("contains", file=arch, text=rules), check("not_contains", file=arch, text=rule)],
        "gold": [switch("shell"), archive, *steps()],
        "wrong": [
            {"name": "archives after publishing (old version lost)", "actions": [*steps(), switch("shell"), archive]},
            {"name": "publishes without archiving", "actions": steps()},
            {"name": "moves the published version to the archive, publishes nothing", "actions": [
                switch("shell"), sh(f"mkdir -p data/policies/archive && mv {pub} {arch}")]},
            {"name": "adds the rule without its number", "actions": [
                switch("shell"), archive, *[a if a["action"] != "write_to_file" else {**a, "args": {**a["args"],
                                            "contents": rule}} for a in steps()]]},
            {"name": "adds the rule in the Word draft but never publishes it", "actions": [
                switch("shell"), archive, *steps()[:-1]]},
            {"name": "archives over the 2025 version instead of a dated copy", "actions": [
                switch("shell"), sh(f"cp {pub} data/policies/archive/{policy}_2025-01-15.pdf"), *steps()]},
        ],
        "right": [
            {"name": "moves the published file to the archive and publishes from the archived copy", "actions": [
                switch("shell"), sh(f"mkdir -p data/policies/archive && mv {pub} {arch}"), switch("pdf"),
                act("pdf", "convert_to_word", pdf_file_path=arch, word_file_path="data/policies/drafts/new.docx"),
                switch("word"), act("word", "write_to_file", file_path="data/policies/drafts/new.docx",
                                    contents=new_line),
                act("word", "convert_to_pdf", word_file_path="data/policies/drafts/new.docx", pdf_file_path=pub)]},
        ],
    }


# ---------------------------------------------------------------------------------------------
@family("onboarding-packet", apps=["shell", "word", "email"])
def onboarding_packet(rng: random.Random) -> dict:
    """Copy the onboarding template folder for a new hire, personalise the welcome letter and mail it."""
    org, domain, (me, hire, buddy, col), now = setup(rng, 4)
    personal = people(rng, 1, "mailbox.test")[0]
    start = workday_from(now, 5)
    if start.weekday() != 0:
        start = start + timedelta(days=(7 - start.weekday()) % 7)
    folder = f"data/onboarding/{hire['first'].lower()}_{hire['name'].split()[1].lower()}"
    tmpl = "data/templates/onboarding"
    letter = f"{folder}/welcome_letter.docx"
    paras = ["Welcome to " + org + "!", "Dear {NAME},", "We are glad you are joining us on {START_DATE}.",
             "Your onboarding buddy is {BUDDY}; they will meet you at reception at 9:00.", "See you soon!"]
    reps = [("{NAME}", hire["first"]), ("{START_DATE}", weekday_month_day(start)), ("{BUDDY}", buddy["name"])]
    copy = sh(f"mkdir -p data/onboarding && cp -r {tmpl} {folder} && ls {folder}")
    fill = [act("word", "replace_text", file_path=letter, old_text=o, new_text=n) for o, n in reps]
    send = lambda to: act("email", "send_email", sender=me["email"], recipient=to, subject=f"Welcome to {org}",
                          content=f"Dear {hire['first']},\n\nplease find your welcome letter attached. See you "
                                  f"soon!\n\n{me['name']}", attachments=[letter])
    return {
        **head(me, now),
        "instruction": (f"{hire['name']} starts on {weekday_month_day(start)}; {buddy['name']} will be the onboarding "
                        f"buddy. Copy the template folder {tmpl}/ to {folder}/, fill in the placeholders in the copied "
                        f"welcome_letter.docx ({{NAME}} = first name, {{START_DATE}} written like "
                        f"'{weekday_month_day(start)}', {{BUDDY}} = the buddy's full name), and email the letter as an "
                        f"attachment to {hire['first']}'s personal address, which is in HR's email to me."),
        "office": [docx(f"{tmpl}/welcome_letter.docx", paras), text(f"{tmpl}/checklist.txt",
                                                                   "laptop\nbadge\nwelcome lunch\n"),
                   eml(me["email"], "msg-1", col["email"], f"New starter: {hire['name']}",
                       f"Hi {me['first']},\n\n{hire['name']} signed! Until the start date please use the personal "
                       f"address {personal['email']}.\n\nHR", days_ago(now, 2, 10)),
                   eml(me["email"], "msg-2", buddy["email"], "Buddy", "Happy to be a buddy again.",
                       days_ago(now, 1, 12))],
        "checks": [check("contains", file=letter,
                         text=[f"Dear {hire['first']},", weekday_month_day(start), buddy["name"]]),
                   check("not_contains", file=letter, text=["{NAME}", "{START_DATE}", "{BUDDY}"]),
                   check("contains", file=f"{tmpl}/welcome_letter.docx", text="{NAME}"),
                   check("file_exists", file=f"{folder}/checklist.txt"),
                   check("email_sent", sender=me["email"], to=personal["email"], attachments=["welcome_letter.docx"])],
        "gold": [switch("email"), act("email", "read_email", username=me["email"], email_id="msg-1"), switch("shell"),
                 copy, switch("word"), *fill, switch("email"), send(personal["email"])],
        "wrong": [
            {"name": "sends to the future work address", "actions": [
                switch("shell"), copy, switch("word"), *fill, switch("email"), send(hire["email"])]},
            {"name": "fills in the template itself", "actions": [
                switch("word"), *[act("word", "replace_text", file_path=f"{tmpl}/welcome_letter.docx", old_text=o,
                                      new_text=n) for o, n in reps],
                switch("shell"), copy, switch("email"), send(personal["email"])]},
            {"name": "copies only the letter, not the checklist", "actions": [
                switch("shell"), sh(f"mkdir -p {folder} && cp {tmpl}/welcome_letter.docx {folder}/"), switch("word"),
                *fill, switch("email"), send(personal["email"])]},
            {"name": "sends the copied letter without filling it in", "actions": [
                switch("shell"), copy, switch("email"), send(personal["email"])]},
            {"name": "the start date as YYYY-MM-DD", "actions": [
                switch("shell"), copy, switch("word"),
                *[act("word", "replace_text", file_path=letter, old_text=o, new_text=iso(start) if o == "{START_DATE}"
                      else n) for o, n in reps], switch("email"), send(personal["email"])]},
            {"name": "the buddy's first name only", "actions": [
                switch("shell"), copy, switch("word"),
                *[act("word", "replace_text", file_path=letter, old_text=o, new_text=buddy["first"] if o == "{BUDDY}"
                      else n) for o, n in reps], switch("email"), send(personal["email"])]},
            {"name": "sends it to the personal and the work address", "actions": [
                switch("shell"), copy, switch("word"), *fill, switch("email"),
                send([personal["email"], hire["email"]])]},
        ],
        "right": [
            {"name": "files copied one by one, whole lines replaced, another subject and wording", "actions": [
                switch("shell"), sh(f"mkdir -p {folder} && for f in {tmpl}/*; do cp \"$f\" {folder}/; done"),
                switch("word"),
                act("word", "replace_text", file_path=letter, old_text="Dear {NAME},", new_text=f"Dear {hire['first']},"),
                act("word", "replace_text", file_path=letter, old_text="on {START_DATE}.",
                    new_text=f"on {weekday_month_day(start)}."),
                act("word", "replace_text", file_path=letter, old_text="{BUDDY};", new_text=f"{buddy['name']};"),
                switch("email"),
                act("email", "send_email", sender=me["email"], recipient=personal["email"],
                    subject="Your first day", content=f"Hi {hire['first']}, your welcome letter is attached.",
                    attachments=[letter])]},
        ],
    }
