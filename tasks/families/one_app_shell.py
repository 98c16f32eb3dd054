"""Single-app (category 1) shell families: tidying folders, archiving logs, extracting log lines,
renaming scans and editing a config file. Commands use bash, coreutils, find, grep, sed, awk, tar, gzip.
"""

from __future__ import annotations

import random
from datetime import date, timedelta

from officesim.tasks.families._kit import (
    COMPANIES, check, docx, head, image, now_on_weekday, pdf, people, setup, sh, switch, text, xlsx
)
from officesim.tasks.families.registry import family


@family("downloads-sort-by-type", apps=["shell"])
def downloads_sort_by_type(rng: random.Random) -> dict:
    """Move the PDFs (whatever the case of the extension) and spreadsheets of a downloads folder into sub-folders."""
    _, domain, (me,), now = setup(rng, 1)
    pdfs = rng.sample(["invoice_march.pdf", "train_tickets.pdf", "warranty.pdf", "floor_plan.pdf",
                       "onboarding_guide.pdf", "tax_form.pdf"], 3)
    upper = f"Scan_{rng.randint(1000, 9999)}.PDF"
    sheets = rng.sample(["budget_draft.xlsx", "headcount.xlsx", "vendor_list.xlsx", "mileage.xlsx"], 2)
    rest_docs = rng.sample(["cover_letter.docx", "agenda.docx", "minutes.docx"], 1)
    rest = rest_docs + ["team_photo.png", "notes.txt", "pdf_links.txt"]
    d = "data/downloads"
    office = [pdf(f"{d}/{p}", [p.replace("_", " ").replace(".pdf", "")]) for p in pdfs]
    office.append(pdf(f"{d}/{upper}", ["Scanned page"]))
    office += [xlsx(f"{d}/{s}", {"Sheet1": [["Item", "Value"], ["a", 1]]})
               for s in sheets]
    office += [docx(f"{d}/{rest_docs[0]}", ["Draft"]),
               image(f"{d}/team_photo.png", "Team day"),
               text(f"{d}/notes.txt", "call the printer company\n"),
               text(f"{d}/pdf_links.txt", "https://docs.example.test/a.pdf\n")]
    all_pdfs = pdfs + [upper]
    gold_cmd = (f"mkdir -p {d}/pdf {d}/sheets && find {d} -maxdepth 1 -type f -iname '*.pdf' "
                f"-exec mv {{}} {d}/pdf/ \\; && mv {d}/*.xlsx {d}/sheets/")
    return {
        **head(me, now),
        "instruction": (f"My {d} folder is a mess. Please move every PDF in it into {d}/pdf and every Excel "
                        f"workbook into {d}/sheets (create the folders). Everything else stays where it is."),
        "office": office,
        "checks": [
            check("dir_files", dir=f"{d}/pdf", names=all_pdfs),
            check("dir_files", dir=f"{d}/sheets", names=sheets),
            check("dir_files", dir=d, names=rest),
        ],
        "gold": [switch("shell"), sh(f"ls -la {d}"), sh(gold_cmd)],
        "wrong": [
            {"name": "the upper-case .PDF scan left behind", "actions": [
                switch("shell"),
                sh(f"mkdir -p {d}/pdf {d}/sheets && mv {d}/*.pdf {d}/pdf/ && mv {d}/*.xlsx {d}/sheets/")]},
            {"name": "the text file with 'pdf' in its name moved too", "actions": [
                switch("shell"),
                sh(f"mkdir -p {d}/pdf {d}/sheets && mv {d}/*[pP][dD][fF]* {d}/pdf/ && mv {d}/*.xlsx {d}/sheets/")]},
            {"name": "copied instead of moved", "actions": [
                switch("shell"),
                sh(f"mkdir -p {d}/pdf {d}/sheets && cp {d}/*.pdf {d}/{upper} {d}/pdf/ && cp {d}/*.xlsx {d}/sheets/")]},
            {"name": "folders named otherwise", "actions": [
                switch("shell"),
                sh(f"mkdir -p {d}/PDFs {d}/Spreadsheets && mv {d}/*.pdf {d}/{upper} {d}/PDFs/ "
                   f"&& mv {d}/*.xlsx {d}/Spreadsheets/")]},
            {"name": "the two kinds filed in each other's folder", "actions": [
                switch("shell"),
                sh(f"mkdir -p {d}/pdf {d}/sheets && mv {d}/*.pdf {d}/{upper} {d}/sheets/ && mv {d}/*.xlsx {d}/pdf/")]},
            {"name": "the Word document filed with the spreadsheets", "actions": [
                switch("shell"),
                sh(f"mkdir -p {d}/pdf {d}/sheets && mv {d}/*.pdf {d}/{upper} {d}/pdf/ "
                   f"&& mv {d}/*.xlsx {d}/*.docx {d}/sheets/")]},
        ],
        "right": [
            {"name": "one mv per file", "actions": [switch("shell"), sh(f"mkdir {d}/pdf {d}/sheets")]
             + [sh(f"mv '{d}/{p}' {d}/pdf/") for p in all_pdfs] + [sh(f"mv {d}/{x} {d}/sheets/{x}") for x in sheets]},
            {"name": "find for both kinds, case-insensitively", "actions": [
                switch("shell"),
                sh(f"cd {d} && mkdir -p pdf sheets && find . -maxdepth 1 -type f -iname '*.pdf' -exec mv -t pdf {{}} + "
                   f"&& find . -maxdepth 1 -type f -iname '*.xlsx' -exec mv -t sheets {{}} +")]},
        ],
    }


def _month_days(year: int, month: int) -> list[date]:
    d = date(year, month, 1)
    out = []
    while d.month == month:
        out.append(d)
        d += timedelta(days=1)
    return out


@family("logs-archive-last-month", apps=["shell"])
def logs_archive_last_month(rng: random.Random) -> dict:
    """Pack last month's daily log files into one tar.gz archive and remove the originals."""
    _, domain, (me,), now = setup(rng, 1)
    today = now.date()
    last = today.replace(day=1) - timedelta(days=1)
    service = rng.choice(["billing", "webshop", "intranet", "scheduler"])
    old_days = sorted(rng.sample(_month_days(last.year, last.month), rng.randint(4, 7)))
    new_days = sorted({today} | set(rng.sample(_month_days(today.year, today.month)[: today.day],
                                               min(today.day, rng.randint(1, 3)))))
    before = last.replace(day=1) - timedelta(days=1)
    stamp = f"{last.year}-{last.month:02d}"
    archive = f"data/logs/archive/{service}-{stamp}.tar.gz"

    def log(d: date) -> dict:
        lines = [f"{d.isoformat()} 0{h}:{rng.randint(10, 59)}:00 INFO request served in {rng.randint(20, 400)} ms"
                 for h in sorted(rng.sample(range(0, 10), 3))]
        return text(f"data/logs/{service}-{d.isoformat()}.log", "\n".join(lines) + "\n")

    office = [log(d) for d in old_days + new_days]
    office.append(text(f"data/logs/archive/{service}-{before.year}-{before.month:02d}.txt",
                       f"Logs of {before.year}-{before.month:02d} were archived on the server.\n"))
    old_names = [f"{service}-{d.isoformat()}.log" for d in old_days]
    new_names = [f"{service}-{d.isoformat()}.log" for d in new_days]
    gold_cmd = (f"cd data/logs && tar -czf archive/{service}-{stamp}.tar.gz {service}-{stamp}-*.log "
                f"&& rm {service}-{stamp}-*.log")
    return {
        **head(me, now),
        "instruction": (f"The {service} logs in data/logs are piling up. Please pack all of last month's daily log "
                        f"files into one archive, {archive}, then delete those log files. This month's logs stay."),
        "office": office,
        "checks": [
            check("file_exists", file=archive),
            check("dir_files", dir="data/logs", names=new_names),
        ] + [check("file_not_exists", file=f"data/logs/{n}") for n in old_names[:2]],
        "gold": [switch("shell"), sh("ls data/logs data/logs/archive"), sh(gold_cmd),
                 sh(f"tar -tzf {archive}")],
        "wrong": [
            {"name": "archive made but the originals kept", "actions": [
                switch("shell"),
                sh(f"cd data/logs && tar -czf archive/{service}-{stamp}.tar.gz {service}-{stamp}-*.log")]},
            {"name": "this month's logs deleted too", "actions": [
                switch("shell"),
                sh(f"cd data/logs && tar -czf archive/{service}-{stamp}.tar.gz {service}-{stamp}-*.log "
                   f"&& rm {service}-*.log")]},
            {"name": "the first day left out of the archive, all deleted", "actions": [
                switch("shell"),
                sh(f"cd data/logs && tar -czf archive/{service}-{stamp}.tar.gz {' '.join(old_names[1:])} "
                   f"&& rm {service}-{stamp}-*.log")]},
            {"name": "this month's logs packed into the archive too", "actions": [
                switch("shell"),
                sh(f"cd data/logs && tar -czf archive/{service}-{stamp}.tar.gz {service}-*.log "
                   f"&& rm {service}-{stamp}-*.log")]},
            {"name": "archive named otherwise", "actions": [
                switch("shell"),
                sh(f"cd data/logs && tar -czf archive/{service}-logs-{stamp}.tar.gz {service}-{stamp}-*.log "
                   f"&& rm {service}-{stamp}-*.log")]},
            {"name": "logs moved into the archive folder instead of packed", "actions": [
                switch("shell"),
                sh(f"cd data/logs && mv {service}-{stamp}-*.log archive/ && tar -czf archive/{service}-{stamp}.tar.gz "
                   f"-C archive {' '.join(old_names)}")]},
        ],
        "right": [
            {"name": "packed from the office root with their paths", "actions": [
                switch("shell"),
                sh(f"tar -czf {archive} data/logs/{service}-{stamp}-*.log && rm data/logs/{service}-{stamp}-*.log")]},
            {"name": "tar, then gzip, files listed by name", "actions": [
                switch("shell"),
                sh(f"cd data/logs && tar -cf archive/{service}-{stamp}.tar {' '.join(old_names)} "
                   f"&& gzip archive/{service}-{stamp}.tar && rm {' '.join(old_names)}")]},
        ],
    }


@family("log-errors-yesterday-extract", apps=["shell"])
def log_errors_yesterday_extract(rng: random.Random) -> dict:
    """Extract yesterday's ERROR lines from a service log into a dated report file."""
    _, domain, (me,), now = setup(rng, 1)
    today = now.date()
    yday = today - timedelta(days=1)
    errors = ["payment gateway timeout", "database connection refused", "disk usage above 95%",
              "invoice export failed", "SMTP relay rejected message", "certificate expires in 3 days",
              "queue worker crashed", "login service returned 502"]
    infos = ["nightly backup finished", "user cache refreshed", "report job started", "health check ok"]
    lines, wanted, others = [], [], []
    for d in (yday - timedelta(days=2), yday - timedelta(days=1), yday, today):
        for h in sorted(rng.sample(range(0, 24 if d != today else now.hour), 5 if d != today else min(3, now.hour))):
            lvl = rng.choice(["INFO", "INFO", "WARN", "ERROR", "ERROR"])
            msg = rng.choice(errors if lvl == "ERROR" else infos)
            line = f"{d.isoformat()} {h:02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} {lvl} {msg}"
            lines.append(line)
            if d == yday and lvl == "ERROR":
                wanted.append(line)
            else:
                others.append(line)
    if not wanted:  # yesterday must have at least two errors to report
        for h in (22, 23):
            line = f"{yday.isoformat()} {h}:{rng.randint(10, 59)}:00 ERROR {rng.choice(errors)}"
            lines.append(line)
            wanted.append(line)
    lines.sort()
    log = "data/logs/service.log"
    out = f"data/reports/errors-{yday.isoformat()}.txt"
    wrong_out = f"data/reports/errors-{today.isoformat()}.txt"
    return {
        **head(me, now),
        "instruction": (f"For the incident review I need yesterday's errors: copy every ERROR line from yesterday in "
                        f"{log} into a new file data/reports/errors-<yesterday's date as YYYY-MM-DD>.txt, "
                        f"unchanged and in their original order."),
        "office": [text(log, "\n".join(lines) + "\n"),
                   text("data/reports/README.txt", "Incident review material.\n")],
        "checks": [
            check("contains", file=out, text=wanted, ordered=True),
            check("not_contains", file=out, text=others),
            check("file_exists", file=log),
        ],
        "gold": [switch("shell"), sh(f"tail -n 20 {log}"),
                 sh(f"grep '^{yday.isoformat()} .* ERROR ' {log} > {out}"), sh(f"cat {out}")],
        "wrong": [
            {"name": "every day's errors copied", "actions": [
                switch("shell"), sh(f"grep ' ERROR ' {log} > {out}")]},
            {"name": "file named with today's date", "actions": [
                switch("shell"), sh(f"grep '^{yday.isoformat()} .* ERROR ' {log} > {wrong_out}")]},
            {"name": "all of yesterday's lines copied", "actions": [
                switch("shell"), sh(f"grep '^{yday.isoformat()} ' {log} > {out}")]},
            {"name": "lines in reverse order", "actions": [
                switch("shell"), sh(f"grep '^{yday.isoformat()} .* ERROR ' {log} | tac > {out}")]},
            {"name": "lines sorted by message", "actions": [
                switch("shell"), sh(f"grep '^{yday.isoformat()} .* ERROR ' {log} | sort -k4 -s > {out}")]}
            if [x.split(" ", 3)[3] for x in wanted] != sorted(x.split(" ", 3)[3] for x in wanted) else
            {"name": "the last error left out", "actions": [
                switch("shell"), sh(f"grep '^{yday.isoformat()} .* ERROR ' {log} | head -n -1 > {out}")]},
            {"name": "only the messages copied, without date and time", "actions": [
                switch("shell"), sh(f"grep '^{yday.isoformat()} .* ERROR ' {log} | cut -d' ' -f3- > {out}")]},
            {"name": "errors moved out of the log", "actions": [
                switch("shell"), sh(f"grep '^{yday.isoformat()} .* ERROR ' {log} > {out} && "
                                    f"grep -v '^{yday.isoformat()} .* ERROR ' {log} > /tmp/rest; cat /tmp/rest > {log}")]},
        ],
        "right": [
            {"name": "awk on the date and level fields", "actions": [
                switch("shell"),
                sh(f"awk '$1 == \"{yday.isoformat()}\" && $3 == \"ERROR\"' {log} > {out}")]},
            {"name": "two greps in a pipe", "actions": [
                switch("shell"), sh(f"grep -F '{yday.isoformat()}' /testbed/{log} | grep -w ERROR > /testbed/{out}")]},
        ],
    }


@family("contract-scans-rename", apps=["shell"])
def contract_scans_rename(rng: random.Random) -> dict:
    """Rename a scanner's 'Scan 001.PNG' files to the <client>-contract-p001.png naming convention."""
    (_, domain), (client, _) = rng.sample(COMPANIES, 2)
    me = people(rng, 1, domain)[0]
    now = now_on_weekday(rng)
    slug = client.split()[0].lower()
    n = rng.randint(3, 6)
    d = f"data/scans/{slug}"
    olds = [f"Scan {i:03d}.PNG" for i in range(1, n + 1)]
    news = [f"{slug}-contract-p{i:03d}.png" for i in range(1, n + 1)]
    office = [image(f"{d}/{o}", f"{client}\nService contract\nPage {i}")
              for i, o in enumerate(olds, 1)]
    office.append(text(f"{d}/notes.txt", "Originals are in the red folder.\n"))
    office.append(image("data/scans/other/Scan 001.PNG", "Parking permit"))
    gold_cmd = (f"cd '{d}' && for f in Scan*.PNG; do n=${{f#Scan }}; n=${{n%.PNG}}; "
                f"mv \"$f\" \"{slug}-contract-p$n.png\"; done")
    return {
        **head(me, now),
        "instruction": (f"The scanner saved the {client} contract pages in {d} as 'Scan 001.PNG', 'Scan 002.PNG' "
                        f"and so on. Please rename them to our convention: {slug}-contract-p001.png, "
                        f"{slug}-contract-p002.png, ... (same page numbers, lower-case .png). Leave other folders "
                        f"alone."),
        "office": office,
        "checks": [
            check("dir_files", dir=d, names=news + ["notes.txt"]),
            check("file_exists", file="data/scans/other/Scan 001.PNG"),
        ],
        "gold": [switch("shell"), sh(f"ls '{d}'"), sh(gold_cmd), sh(f"ls '{d}'")],
        "wrong": [
            {"name": "extension left in upper case", "actions": [
                switch("shell"),
                sh(f"cd '{d}' && for f in Scan*.PNG; do n=${{f#Scan }}; mv \"$f\" \"{slug}-contract-p$n\"; done")]},
            {"name": "pages numbered without leading zeros", "actions": [
                switch("shell"),
                sh(f"cd '{d}' && i=1; for f in Scan*.PNG; do mv \"$f\" \"{slug}-contract-p$i.png\"; "
                   f"i=$((i+1)); done")]},
            {"name": "the other folder's scan renamed too", "actions": [
                switch("shell"), sh(gold_cmd),
                sh(f"mv 'data/scans/other/Scan 001.PNG' 'data/scans/other/{slug}-contract-p001.png'")]},
            {"name": "copied instead of renamed", "actions": [switch("shell")] + [
                sh(f"cd '{d}' && cp '{o}' '{nw}'") for o, nw in zip(olds, news)]},
            {"name": "renamed without the client prefix", "actions": [switch("shell")] + [
                sh(f"cd '{d}' && mv '{o}' '{nw.removeprefix(slug + '-')}'") for o, nw in zip(olds, news)]},
            {"name": "the old extension kept inside the name", "actions": [switch("shell")] + [
                sh(f"cd '{d}' && mv '{o}' '{nw[:-4]}.PNG.png'") for o, nw in zip(olds, news)]},
        ],
        "right": [
            {"name": "one mv per page", "actions": [switch("shell")] + [
                sh(f"mv '{d}/{o}' {d}/{nw}") for o, nw in reversed(list(zip(olds, news)))]},
        ],
    }


@family("mailer-config-smtp-change", apps=["shell"])
def mailer_config_smtp_change(rng: random.Random) -> dict:
    """Change the SMTP host and port in an ini file without touching the IMAP section's host."""
    _, domain, (me,), now = setup(rng, 1)
    old_smtp = f"smtp{rng.randint(1, 3)}.{domain}"
    new_smtp = rng.choice(["mail-out", "relay", "smtp-new"]) + f".{domain}"
    imap = f"imap.{domain}"
    old_port = rng.choice([25, 465])
    new_port = 587
    ini = (f"# mailer settings for the invoicing service\n[smtp]\nhost = {old_smtp}\nport = {old_port}\n"
           f"user = invoices@{domain}\ntls = yes\n\n[imap]\nhost = {imap}\nport = 993\nfolder = INBOX\n\n"
           f"[retry]\nattempts = {rng.randint(3, 6)}\nport = 0\n")
    path = "data/config/mailer.ini"
    backup = "data/config/mailer.ini.example"
    gold_cmd = (f"sed -i '/^\\[smtp\\]/,/^\\[/ {{ s/^host = .*/host = {new_smtp}/; s/^port = .*/port = {new_port}/ }}' "
                f"{path}")
    return {
        **head(me, now),
        "instruction": (f"IT moved our outgoing mail server. In {path}, set the SMTP host to {new_smtp} and the SMTP "
                        f"port to {new_port}. The other sections must stay exactly as they are, and don't touch "
                        f"{backup}."),
        "office": [text(path, ini),
                   text(backup, ini)],
        "checks": [
            # the new host and port inside the [smtp] section (before [imap]), however the lines are spaced
            check("contains", file=path, text=["[smtp]", new_smtp, str(new_port), f"invoices@{domain}", "[imap]"],
                  ordered=True),
            check("contains", file=path, text=[f"[imap] host = {imap} port = 993", "[retry]", "port = 0"]),
            check("not_contains", file=path, text=old_smtp),
            check("contains", file=backup, text=f"[smtp] host = {old_smtp} port = {old_port}"),
        ],
        "gold": [switch("shell"), sh(f"cat {path}"), sh(gold_cmd), sh(f"cat {path}")],
        "wrong": [
            {"name": "every host and port line changed", "actions": [
                switch("shell"),
                sh(f"sed -i 's/^host = .*/host = {new_smtp}/; s/^port = .*/port = {new_port}/' {path}")]},
            {"name": "only the host changed", "actions": [
                switch("shell"), sh(f"sed -i 's/^host = {old_smtp}/host = {new_smtp}/' {path}")]},
            {"name": "the example file changed too", "actions": [
                switch("shell"), sh(gold_cmd), sh(gold_cmd.replace(path, backup))]},
            {"name": "a new [smtp] section appended, the old one left", "actions": [
                switch("shell"), sh(f"printf '\\n[smtp]\\nhost = {new_smtp}\\nport = {new_port}\\n' >> {path}")]},
            {"name": "the file rewritten with the SMTP section only", "actions": [
                switch("shell"),
                sh(f"printf '[smtp]\\nhost = {new_smtp}\\nport = {new_port}\\nuser = invoices@{domain}\\ntls = yes\\n' "
                   f"> {path}")]},
            {"name": "the IMAP port changed as well", "actions": [
                switch("shell"), sh(gold_cmd), sh(f"sed -i 's/^port = 993/port = {new_port}/' {path}")]},
        ],
        "right": [
            {"name": "lines written without spaces around '='", "actions": [
                switch("shell"),
                sh(f"sed -i '/^\\[smtp\\]/,/^\\[/ {{ s/^host = .*/host={new_smtp}/; s/^port = .*/port={new_port}/ }}' "
                   f"{path}")]},
            {"name": "edited with awk through a temporary file", "actions": [
                switch("shell"),
                sh(f"awk '/^\\[/{{s=$0}} s==\"[smtp]\" && /^host =/{{$0=\"host = {new_smtp}\"}} "
                   f"s==\"[smtp]\" && /^port =/{{$0=\"port = {new_port}\"}} {{print}}' {path} > /tmp/m.ini "
                   f"&& cat /tmp/m.ini > {path}")]},
        ],
    }
