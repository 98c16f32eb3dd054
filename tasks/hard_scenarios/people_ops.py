"""Hard scenarios of people and the directory: probation, reorganisations, contact lists, cover and conflicts."""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta

from officesim.tasks.hard_scenarios._base import (act, check, create_event, iso, last_week, list_events, list_mail,
                                                  long_date, read_doc, read_mail, read_sheet, scenario, send, set_cell,
                                                  stamp, switch, trigger_mail)
from officesim.testbed.worlds.model import Person, World

T = "%Y-%m-%d %H:%M:%S"


def _at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute))


def _reports(w: World) -> list[Person]:
    return [p for p in w.people if p.manager == w.user.email]


def _directory_rows(w: World) -> list[list]:
    """The staff directory's rows as the world writes them (header first)."""
    return [list(r) for r in next(f for f in w.files if f["path"] == w.paths["directory"])["sheets"]["Staff"]]


def _leave_rows(w: World) -> list[list]:
    """The leave record's rows as the world writes them (header first), for a scenario to add to."""
    return [list(r) for r in next(f for f in w.files if f["path"] == w.paths["leave"])["sheets"]["Leave"]]


# ---- 1. contact details gathered from the mail ----------------------------------------------------
@scenario("phone-list-corrections", ["email", "excel", "word"])
def phone_list_corrections(w: World) -> dict:
    """Colleagues mailed changes to their contact details over two weeks (one corrects their own first mail,
    one passes on a colleague's new number, one asks about a number that is already right, one is in another
    team): bring the staff directory and the team's Word phone list up to date with the changes people sent
    about themselves, ask the colleague to confirm the passed-on one, and reply to everyone who wrote."""
    rng = random.Random(f"world:{w.name}:phone-list")
    me = w.user
    today = w.now.date()
    ops = w.team("Operations")
    pool = [p for p in ops if p.email != me.email and p.email != me.manager]
    assert len({p.phone for p in ops}) == len(ops)
    a, b, c, f, g, h = rng.sample(pool, 6)
    e = rng.choice([p for p in w.people if p.team in ("Sales", "Marketing") and p.manager])
    numbers = iter(rng.sample(range(100, 1000), 5))
    fresh = lambda: f"+44 7700 900{next(numbers)}"  # noqa: E731
    a_new, b_first, b_new, e_new, g_new = fresh(), fresh(), fresh(), fresh(), fresh()
    c_loc = "Head office" if c.location == "Warehouse" else "Warehouse"
    doc = "data/operations/operations_phone_list.docx"
    table = [["Name", "Phone"]] + [[p.name, p.phone] for p in ops]
    office: list[dict] = [{"type": "docx", "path": doc, "paragraphs": [
        "Operations team — phone list", f"Kept by {me.name}. Tell {me.first} when your number changes."],
        "tables": [table]}]
    sign = "\n\nThanks,\n"
    mails = [  # (id, person, days ago, hour, subject, body)
        ("msg-950", a, 12, (9, 41), "New number",
         f"Hi {me.first},\n\nMy desk phone has gone with the move to the new handsets — my number is now {a_new}. "
         f"Could you update the directory and our team list?{sign}{a.first}"),
        ("msg-951", b, 11, (14, 5), "Phone number change",
         f"Hi {me.first},\n\nI've got a new work mobile: {b_first}. Please change it wherever you keep it."
         f"{sign}{b.first}"),
        ("msg-952", c, 9, (10, 17), "My location",
         f"Hi {me.first},\n\nFrom this week I'm based at the {c_loc.lower()} for good, no longer at the "
         f"{c.location.lower()}. Could you change my location in the staff directory?{sign}{c.first}"),
        ("msg-953", e, 8, (16, 30), "Directory update",
         f"Hi {me.first},\n\nI hear you look after the staff directory these days — my phone number has changed to "
         f"{e_new}. Would you mind updating it?{sign}{e.first}"),
        ("msg-954", f, 6, (11, 52), f"{g.first}'s number",
         f"Hi {me.first},\n\nFYI I think {g.name}'s number has changed — I saw {g_new} on a delivery note, could "
         f"you put that in the list?{sign}{f.first}"),
        ("msg-955", h, 5, (15, 8), "Is my number right?",
         f"Hi {me.first},\n\nJust checking: is my number in the team list {h.phone}? That's the right one."
         f"{sign}{h.first}"),
        ("msg-956", b, 3, (8, 55), "Re: Phone number change",
         f"Hi {me.first},\n\nSorry, I gave you the wrong number last week — the mobile is {b_new}, not {b_first}. "
         f"{sign}{b.first}"),
    ]
    for mid, p, ago, (hh, mm), subject, body in mails:
        office.append(trigger_mail(w, p.email, _at(today - timedelta(days=ago), hh, mm), subject, body, mail_id=mid))
    directory = w.paths["directory"]
    instruction = (
        "Over the last two weeks people have been mailing me changes to their contact details. Could you go through "
        "those mails and bring the staff directory up to date, and our team phone list too (the Word document in the "
        "operations folder) for anyone on it? Only take changes people sent about themselves: if someone passes on a "
        "change for a colleague, change nothing for that colleague and email the colleague asking them to confirm "
        "it to me. Reply to each person who wrote to say what you've done, or that nothing needed changing.")
    gold = [switch("email"), list_mail(w)] + [read_mail(w, m[0]) for m in mails]
    gold += [switch("excel"), read_sheet(directory), switch("word"), read_doc(doc)]
    gold += [switch("excel"), set_cell(directory, a.row, 7, a_new), set_cell(directory, b.row, 7, b_new),
             set_cell(directory, c.row, 6, c_loc), set_cell(directory, e.row, 7, e_new)]
    gold += [switch("word"), act("word", "replace_text", file_path=doc, old_text=a.phone, new_text=a_new),
             act("word", "replace_text", file_path=doc, old_text=b.phone, new_text=b_new)]
    checks = [
        check("xlsx_cell", f"{a.first}'s number in the directory", file=directory, cell=f"G{a.row}", value=a_new),
        check("xlsx_cell", f"{b.first}'s corrected number in the directory", file=directory, cell=f"G{b.row}",
              value=b_new),
        check("xlsx_cell", f"{c.first}'s location", file=directory, cell=f"F{c.row}", value=c_loc),
        check("xlsx_cell", f"{e.first} (another team) in the directory", file=directory, cell=f"G{e.row}",
              value=e_new),
        check("xlsx_cell", f"{g.first}'s number left until confirmed", file=directory, cell=f"G{g.row}",
              value=g.phone),
        check("xlsx_cell", f"{h.first}'s number unchanged", file=directory, cell=f"G{h.row}", value=h.phone),
        check("docx_table_cell", f"{a.first}'s number in the team list", file=doc, table=1,
              row=ops.index(a) + 2, col=2, value=a_new),
        check("docx_table_cell", f"{b.first}'s corrected number in the team list", file=doc, table=1,
              row=ops.index(b) + 2, col=2, value=b_new),
        check("docx_table_cell", f"{g.first} left in the team list", file=doc, table=1, row=ops.index(g) + 2,
              col=2, value=g.phone),
        check("not_contains", f"{e.first} not added to the team list", file=doc, text=[e_new, e.name]),
    ]
    replies = [
        ("msg-950", a, f"Done: your number is now {a_new} in the staff directory and in our team phone list.",
         [a_new], []),
        ("msg-956", b, f"Done: I've put your mobile {b_new} in the staff directory and in our team phone list.",
         [b_new], [b_first]),
        ("msg-952", c, f"Done: the staff directory now has you at the {c_loc.lower()}.", [c_loc], []),
        ("msg-953", e, f"Done: your number in the staff directory is now {e_new}.", [e_new], []),
        ("msg-954", f, f"Thanks — I've asked {g.first} to confirm the new number before I change anything.",
         [g.first], []),
        ("msg-955", h, "Yes, that's the number we have, in the staff directory and in the team list, so nothing "
                       "needed changing.", [], []),
    ]
    gold.append(switch("email"))
    for mid, p, text, facts, excludes in replies:
        gold.append(act("email", "reply_email", username=me.email, email_id=mid,
                        content=f"Hi {p.first},\n\n{text}\n\nBest,\n{me.first}"))
        args = {"body_contains": facts} if facts else {}
        if excludes:
            args["body_excludes"] = excludes
        checks.append(check("email_sent", f"replied to {p.first}", sender=me.email, to=[p.email], **args))
    gold.append(send(w, [g.email], "Your phone number",
                     f"Hi {g.first},\n\n{f.first} mentioned your number may have changed to {g_new}. Could you "
                     f"confirm to me whether that's right before I update the staff directory and our team phone "
                     f"list?\n\nThanks,\n{me.first}"))
    checks.append(check("email_sent", f"asked {g.first} to confirm", sender=me.email, to=[g.email],
                        body_contains=[g_new]))
    return {"instruction": instruction, "office": office, "gold": gold, "checks": checks}


# ---- 2. a reorganisation announced by mail, corrected by a later one -----------------------------
def _busy(w: World) -> list[tuple[datetime, datetime]]:
    return [(e.start, e.end) for e in w.events]


def _free(busy: list[tuple[datetime, datetime]], start: datetime, end: datetime) -> bool:
    return all(not (s < end and start < e) for s, e in busy)


@scenario("reorg-directory-update", ["email", "excel", "calendar"])
def reorg_directory_update(w: World) -> dict:
    """The Head of People announces a reorganisation (the Purchasing Assistants join the user's team under a
    new title, one Warehouse Lead is promoted and the others report to them); a later mail keeps one assistant
    in Purchasing and renames the promoted title. Update the directory (team, role, manager), tell each person
    whose entry changes, book a welcome meeting for the newcomers and confirm to HR."""
    me = w.user
    today = w.now.date()
    hop = w.head_of("People")
    eff = today + timedelta(days=14 + (7 - today.weekday()) % 7)  # a Monday two to three weeks ahead
    assistants = [p for p in w.people if p.role == "Purchasing Assistant"]
    staying = assistants[len(assistants) // 2]
    movers = [p for p in assistants if p is not staying]
    leads = [p for p in _reports(w) if p.role == "Warehouse Lead"]
    boss, others = leads[0], leads[1:]
    title_first, title = "Warehouse Manager", "Warehouse Supervisor"
    new_role = "Logistics Assistant"
    m1 = trigger_mail(
        w, hop.email, _at(today - timedelta(days=8), 16, 20), f"Reorganisation from {long_date(eff)}",
        f"Hi {me.first},\n\nAs discussed at the leadership meeting, these changes take effect on {eff:%A} "
        f"{long_date(eff)}:\n"
        f"1. The Purchasing Assistants move from Purchasing to Operations, with the title {new_role}, reporting to "
        f"you.\n"
        f"2. {boss.name} becomes {title_first}, and the other Warehouse Leads report to {boss.first} from then on.\n\n"
        f"Could you update the staff directory for all of this (team, role and manager) and let each person whose "
        f"entry changes know?\n\nThanks,\n{hop.first}\n{hop.role}", mail_id="msg-960")
    m2 = trigger_mail(
        w, hop.email, _at(today - timedelta(days=3), 11, 4), "Re: Reorganisation — two changes",
        f"Hi {me.first},\n\nTwo changes to my mail of last week: {staying.name} stays in Purchasing after all — "
        f"{staying.first} leaves us in the new year, so no point moving. And {boss.first}'s new title is {title}, "
        f"not {title_first}: that's what the grading committee agreed. Everything else stands.\n\n"
        f"Best,\n{hop.first}", mail_id="msg-961")
    directory = w.paths["directory"]
    instruction = (
        f"{hop.first} has mailed me about the reorganisation. Please do our part: update the staff directory as the "
        "reorganisation says (team, role and manager), and send each person whose entry changes one email telling "
        "them what changes and from when. Then book a one-hour 'Welcome to Operations' meeting for everyone joining "
        "my team, on their first day with us: the first hour from 9:00, starting on the hour, that's free in my "
        f"calendar, finished by 17:00, inviting them. Reply to {hop.first} when it's done.")
    rows = _directory_rows(w)
    gold = [switch("email"), list_mail(w), read_mail(w, "msg-960"), read_mail(w, "msg-961"), switch("excel"),
            read_sheet(directory)]
    checks = []
    for p in movers:
        gold += [set_cell(directory, p.row, 3, "Operations"), set_cell(directory, p.row, 4, new_role),
                 set_cell(directory, p.row, 5, me.name)]
        values = rows[p.row - 1][:2] + ["Operations", new_role, me.name] + rows[p.row - 1][5:]
        checks.append(check("xlsx_row", f"{p.name} moved to Operations", file=directory, row=p.row, values=values))
    gold.append(set_cell(directory, boss.row, 4, title))
    checks.append(check("xlsx_cell", f"{boss.name} is {title}", file=directory, cell=f"D{boss.row}", value=title))
    for p in others:
        gold.append(set_cell(directory, p.row, 5, boss.name))
        checks.append(check("xlsx_cell", f"{p.name} reports to {boss.first}", file=directory, cell=f"E{p.row}",
                            value=boss.name))
    checks.append(check("xlsx_row", f"{staying.name} stays in Purchasing", file=directory, row=staying.row,
                        values=rows[staying.row - 1]))
    checks.append(check("xlsx_cell", f"{boss.name} keeps {me.first} as manager", file=directory,
                        cell=f"E{boss.row}", value=me.name))
    gold.append(switch("email"))
    when = f"{eff:%A} {long_date(eff)}"
    for p in movers:
        gold.append(send(w, [p.email], "Your move to Operations",
                         f"Hi {p.first},\n\nFrom {when} you join the Operations team as {new_role}, reporting to me. "
                         f"Welcome aboard!\n\nBest,\n{me.first}"))
        checks.append(check("email_sent", f"told {p.name}", sender=me.email, to=[p.email],
                            body_contains=["Operations", new_role, iso(eff)]))
    gold.append(send(w, [boss.email], "Your new role",
                     f"Hi {boss.first},\n\nCongratulations: from {when} you are {title}, and the other Warehouse "
                     f"Leads will report to you.\n\nBest,\n{me.first}"))
    checks.append(check("email_sent", f"told {boss.name}", sender=me.email, to=[boss.email],
                        body_contains=[title, iso(eff)], body_excludes=[title_first]))
    for p in others:
        gold.append(send(w, [p.email], "Your new manager",
                         f"Hi {p.first},\n\nFrom {when} you report to {boss.name}, who becomes {title}.\n\n"
                         f"Best,\n{me.first}"))
        checks.append(check("email_sent", f"told {p.name}", sender=me.email, to=[p.email],
                            body_contains=[boss.name, iso(eff)]))
    checks.append(check("email_not_sent", f"nothing to {staying.name}", sender=me.email, to=[staying.email]))
    busy = _busy(w)
    slot = next(_at(eff, h) for h in range(9, 17) if _free(busy, _at(eff, h), _at(eff, h + 1)))
    gold += [switch("calendar"), list_events(w),
             create_event(w, "Welcome to Operations", slot, slot + timedelta(hours=1),
                          attendees=[p.email for p in movers])]
    checks.append(check("ics_event", "welcome meeting booked", user=me.email, summary="Welcome to Operations",
                        start=stamp(slot), end=stamp(slot + timedelta(hours=1)), attendees=[p.email for p in movers]))
    gold += [switch("email"), act("email", "reply_email", username=me.email, email_id="msg-961",
                                  content=f"Hi {hop.first},\n\nDone: the staff directory is updated, everyone "
                                          f"affected has been told, and the newcomers have a welcome meeting on "
                                          f"their first day.\n\nBest,\n{me.first}")]
    checks.append(check("email_sent", f"confirmed to {hop.first}", sender=me.email, to=[hop.email]))
    return {"instruction": instruction, "office": [m1, m2], "gold": gold, "checks": checks}


# ---- 3. cover for the team's absences, one arranged cover clashing with pending leave ------------
@scenario("leave-cover-rota", ["excel", "email", "calendar"])
def leave_cover_rota(w: World) -> dict:
    """The director and the user agree over several days how the team's absences in the next three weeks
    are covered (the next colleague of the same role in directory order who is free; later: pending leave
    counts as away, and one absence is covered by a volunteer). The volunteer has pending leave on one of
    its days: that absence is reported, not covered. Log the covers, mail each cover, block the calendar."""
    me = w.user
    today = w.now.date()
    director = w.person(me.manager)
    reports = _reports(w)
    lc = [p for p in reports if p.role == "Logistics Coordinator"]
    wl = [p for p in reports if p.role == "Warehouse Lead"]
    m1 = today + timedelta(days=7 - today.weekday())
    last = m1 + timedelta(days=18)
    p1, p3, p2, p4 = lc[0], lc[1], wl[0], wl[-1]
    volunteer = lc[-1] if lc[-1] is not p1 else lc[1]
    added = [  # (person, start, end, type, status)
        (p1, m1, m1 + timedelta(days=2), "Annual leave", "Approved"),
        (p2, m1 + timedelta(days=3), m1 + timedelta(days=3), "Training", "Approved"),
        (p3, m1 + timedelta(days=8), m1 + timedelta(days=11), "Annual leave", "Approved"),
        (p1, m1 + timedelta(days=9), m1 + timedelta(days=10), "Annual leave", "Withdrawn"),
        (p4, m1 + timedelta(days=14), m1 + timedelta(days=15), "Annual leave", "Approved"),
        (volunteer, m1 + timedelta(days=15), m1 + timedelta(days=16), "Annual leave", "Pending"),
    ]
    sheet = w.paths["leave"]
    rows = _leave_rows(w)
    rows += [[p.name, p.email, iso(s), iso(e), kind, status] for p, s, e, kind, status in added]
    office = [{"type": "xlsx", "path": sheet, "sheets": {"Leave": rows}}]
    leave = [(l.person, l.start, l.end, l.kind, l.status) for l in w.leave] + \
            [(p.email, s, e, kind, status) for p, s, e, kind, status in added]
    emails = {p.email for p in reports}
    absences = sorted([(who, s, e) for who, s, e, kind, status in leave
                       if who in emails and status == "Approved" and kind in ("Annual leave", "Training")
                       and m1 <= s <= last], key=lambda x: (x[1], w.person(x[0]).row))

    def away(email: str, s: date, e: date) -> bool:
        return any(who == email and status in ("Approved", "Pending") and st <= e and s <= en
                   for who, st, en, _k, status in leave)

    covers: list[tuple[Person, date, date, Person]] = []
    unable = []
    for who, s, e in absences:
        p = w.person(who)
        if p is p4 and s == added[4][1]:
            if away(volunteer.email, s, e) or any(c is volunteer and cs <= e and s <= ce for _a, cs, ce, c in covers):
                unable.append((p, s, e))
            else:
                covers.append((p, s, e, volunteer))
            continue
        same = [r for r in reports if r.role == p.role]
        i = same.index(p)
        order = same[i + 1:] + same[:i]
        pick = next((c for c in order if not away(c.email, s, e)
                     and not any(cv is c and cs <= e and s <= ce for _a, cs, ce, cv in covers)), None)
        if pick is None:
            unable.append((p, s, e))
        else:
            covers.append((p, s, e, pick))
    assert unable and unable[0][0] is p4 and len(covers) >= 3
    ago = lambda d, h, m: _at(today - timedelta(days=d), h, m).strftime(T)  # noqa: E731
    log = "data/operations/cover_rota.xlsx"
    dialogue = [
        {"speaker": director.name, "at": ago(5, 9, 48),
         "text": f"{me.first}, can you sort out cover for your team's absences in the three weeks from Monday "
                 f"{long_date(m1)} to Friday {long_date(last)}? Every approved annual leave or training of your "
                 "direct reports that starts in those weeks needs a cover: the next of your reports after them in "
                 "the staff directory with the same role (back to the top of the list when you reach the bottom), "
                 "skipping anyone who is away on any day of it or already covering someone on one of those days. "
                 "Take the absences in order of their first day. Away means approved leave of any type in the leave "
                 "sheet."},
        {"speaker": me.name, "at": ago(5, 10, 2), "text": "Sure. Where do you want it written down?"},
        {"speaker": director.name, "at": ago(5, 10, 9),
         "text": "A new sheet, cover_rota.xlsx in the operations data folder: columns Absent, From, To, Cover "
                 "(full names, dates as YYYY-MM-DD), header in row 1, one row per absence in the order you took "
                 "them. Email each cover person the dates, copying the person who's away, and put each cover in "
                 "your calendar as 'Cover: <cover> for <absent>' from 9:00 on the first day to 17:30 on the last, "
                 "no invitations."},
        {"speaker": director.name, "at": ago(3, 12, 31),
         "text": "Unrelated: are you coming to the team lunch on Friday? I need numbers by tomorrow."},
        {"speaker": me.name, "at": ago(3, 12, 40), "text": "Yes, put me down for the veggie option."},
        {"speaker": director.name, "at": ago(1, 17, 12),
         "text": f"Two changes on the cover. {volunteer.name} offered to cover {p4.name}'s leave from "
                 f"{long_date(added[4][1])}, so use {volunteer.first} for that one instead of the rota — and if "
                 f"that doesn't work, don't hand it to anyone else, just tell me. And count pending leave as away "
                 "too: I don't want someone covering while their own request might still go through."},
    ]
    instruction = ("Could you set up the cover for the team now, as the director and I agreed above? If an absence "
                   "can't be covered under those rules, leave it out of the sheet and tell me which one and why.")
    gold = [switch("excel"), read_sheet(w.paths["directory"]), read_sheet(sheet),
            act("excel", "create_new_file", file_path=log)]
    table = [["Absent", "From", "To", "Cover"]] + [[p.name, iso(s), iso(e), c.name] for p, s, e, c in covers]
    checks = []
    for r, values in enumerate(table, start=1):
        for k, v in enumerate(values):
            gold.append(set_cell(log, r, k + 1, v))
            checks.append(check("xlsx_cell", f"rota row {r}" if k == 0 and r > 1 else None, file=log,
                                cell=f"{'ABCD'[k]}{r}", value=v))
    checks.append(check("xlsx_cell", "nothing more in the rota", file=log, cell=f"A{len(table) + 1}", value=None))
    gold.append(switch("email"))
    for p, s, e, c in covers:
        span = long_date(s) if s == e else f"{long_date(s)} to {long_date(e)}"
        gold.append(send(w, [c.email], f"Cover for {p.first}",
                         f"Hi {c.first},\n\nCould you cover for {p.name} while {p.first} is away, {span}? "
                         f"Thanks!\n\nBest,\n{me.first}", cc=[p.email]))
        checks.append(check("email_sent", f"{c.first} asked to cover {p.first} from {iso(s)}", sender=me.email,
                            to=[c.email], cc=[p.email], body_contains=[p.name, iso(s), iso(e)]))
    gold += [switch("calendar"), list_events(w)]
    for p, s, e, c in covers:
        gold.append(create_event(w, f"Cover: {c.name} for {p.name}", _at(s, 9), _at(e, 17, 30)))
        checks.append(check("ics_event", f"cover of {p.first} from {iso(s)} in the calendar", user=me.email,
                            summary=f"Cover: {c.name} for {p.name}", start=stamp(_at(s, 9)),
                            end=stamp(_at(e, 17, 30))))
    for p, s, e in unable:
        checks.append(check("ics_no_event", f"no cover booked for {p.first}", user=me.email,
                            summary=f"Cover: {volunteer.name} for {p.name}"))
    p, s, e = unable[0]
    answer = (f"I couldn't cover {p.name}'s leave: {volunteer.name}, who offered to cover it, has pending leave "
              "during it, so I left it out of the rota and asked nobody else.")
    checks.append(check("answer_contains", "reported the clash", text=[p.name, volunteer.name]))
    gold.append(act("system", "finish_task", answer=answer))
    return {"instruction": instruction, "dialogue": dialogue, "office": office, "gold": gold, "checks": checks,
            "answer": answer}


def _new_names(rng: random.Random, w: World, n: int) -> list[tuple[str, str]]:
    """``n`` invented people, first names unlike anyone's in the world and each other's."""
    from officesim.testbed.worlds import vocab

    firsts = {p.first for p in w.people}
    names = [(f, l) for f in vocab.FIRST for l in vocab.LAST if f not in firsts]
    rng.shuffle(names)
    out: list[tuple[str, str]] = []
    for f, l in names:
        if all(f != o[0] for o in out):
            out.append((f, l))
        if len(out) == n:
            return out
    raise ValueError("not enough names")


# ---- 4. onboarding buddies under the buddy guidance ---------------------------------------------
@scenario("onboarding-buddies", ["email", "word", "excel", "calendar"])
def onboarding_buddies(w: World) -> dict:
    """Three starters join the user's team (one's first day moved by a later mail): pick each a buddy under
    the buddy guidance in force (same role, two years' service, not away in the first week, one starter a
    month each, the longest-serving; a draft with looser rules is a distractor), fix the start date in the
    directory and the onboarding tracker, record the buddies, book a welcome with each, mail the buddies and
    report to HR."""
    rng = random.Random(f"world:{w.name}:onboarding-buddies")
    me = w.user
    today = w.now.date()
    hop = w.head_of("People")
    reports = _reports(w)
    names = _new_names(rng, w, 3)
    m = today + timedelta(days=14 + (7 - today.weekday()) % 7)
    roles = ["Logistics Coordinator", "Warehouse Lead", "Logistics Coordinator"]
    firsts_day = [m, m + timedelta(days=7), m + timedelta(days=14)]
    moved_to = m + timedelta(days=14)
    starters = []
    for (f, l), role, day in zip(names, roles, firsts_day):
        starters.append(dict(name=f"{f} {l}", first=f, email=f"{f.lower()}.{l.lower()}@{w.domain}", role=role,
                             day=day, phone=f"+44 20 7946 {rng.randrange(1000, 9999)}",
                             location=rng.choice(["Head office", "Warehouse"])))
    s2 = starters[1]
    old_day, s2["day"] = s2["day"], moved_to
    # the longest-serving Warehouse Lead is away in the week the second starter now starts (not the old one)
    wl_top = min([p for p in reports if p.role == "Warehouse Lead"], key=lambda p: p.start)
    lc_top = min([p for p in reports if p.role == "Logistics Coordinator"], key=lambda p: p.start)
    added = [(wl_top, moved_to + timedelta(days=2), moved_to + timedelta(days=3), "Annual leave", "Approved"),
             (lc_top, m + timedelta(days=1), m + timedelta(days=2), "Annual leave", "Withdrawn")]
    leave_sheet = w.paths["leave"]
    leave_rows = _leave_rows(w)
    leave_rows += [[p.name, p.email, iso(s), iso(e), k, st] for p, s, e, k, st in added]
    leave = [(l.person, l.start, l.end, l.status) for l in w.leave] + [(p.email, s, e, st) for p, s, e, _k, st in added]

    def away(email: str, s: date, e: date) -> bool:
        return any(who == email and st in ("Approved", "Pending") and a <= e and s <= b for who, a, b, st in leave)

    buddies: list[Person | None] = []
    for st in starters:
        day = st["day"]
        week_end = day + timedelta(days=4)
        two_years = date(day.year - 2, day.month, min(day.day, 28))
        ok = [p for p in reports if p.role == st["role"] and p.start <= two_years and not away(p.email, day, week_end)
              and not any(b is p and abs((o["day"] - day).days) < 28 for o, b in zip(starters, buddies))]
        buddies.append(min(ok, key=lambda p: p.start) if ok else None)
    assert all(buddies) and buddies[1] is not wl_top
    directory = w.paths["directory"]
    d_rows = _directory_rows(w)
    d_rows += [[st["name"], st["email"], "Operations", st["role"], me.name, st["location"], st["phone"],
                iso(old_day if st is s2 else st["day"])] for st in starters]
    tracker = "data/people/onboarding_tracker.xlsx"
    earlier_people = [p for p in w.people if p.team in ("Sales", "Finance", "Marketing")][:3]
    t_rows = [["Name", "Team", "Role", "Start date", "Buddy"],
              [earlier_people[0].name, "Sales", earlier_people[0].role, "2026-03-02", earlier_people[1].name],
              [earlier_people[2].name, earlier_people[2].team, earlier_people[2].role, "2026-06-15",
               w.team(earlier_people[2].team)[1].name]]
    t_rows += [[st["name"], "Operations", st["role"], iso(old_day if st is s2 else st["day"]), None]
               for st in starters]
    guide = "data/people/onboarding_buddy_guide.docx"
    office = [
        {"type": "xlsx", "path": directory, "sheets": {"Staff": d_rows}},
        {"type": "xlsx", "path": leave_sheet, "sheets": {"Leave": leave_rows}},
        {"type": "xlsx", "path": tracker, "sheets": {"Starters": t_rows}},
        {"type": "docx", "path": guide, "paragraphs": [
            f"{w.company} — Onboarding buddies (in force from 1 March 2026)",
            "1. Every new starter has a buddy for their first month.",
            "2. The buddy works in the starter's team, in the same role, and has been with the company at least "
            "two years on the starter's first day (by the start date in the staff directory).",
            "3. The buddy is not on leave, approved or pending, on any of the starter's first five working days.",
            "4. Nobody is buddy to two starters whose first days are less than four weeks apart.",
            "5. Of the colleagues who qualify, the one who has been with the company longest is the buddy.",
            "6. The line manager records the buddy in the onboarding tracker and tells People."]},
        {"type": "docx", "path": "data/people/drafts/onboarding_buddy_guide_v2_DRAFT.docx", "paragraphs": [
            f"DRAFT — {w.company} — Onboarding buddies v2 (for comments, not in force)",
            "2. The buddy may be anyone in the starter's team who has been with the company at least one year.",
            "5. Managers pick the buddy they think fits best."]},
        trigger_mail(w, hop.email, _at(today - timedelta(days=9), 10, 26), "New starters in Operations",
                     f"Hi {me.first},\n\nThree new starters join your team:\n"
                     + "\n".join(f"- {st['name']}, {st['role']}, from {(old_day if st is s2 else st['day']):%A} "
                                 f"{long_date(old_day if st is s2 else st['day'])}" for st in starters)
                     + "\n\nThey're in the staff directory and the onboarding tracker now. Could you find each a "
                       "buddy as the buddy guidance says?\n\nThanks,\n" + hop.first, mail_id="msg-970"),
        trigger_mail(w, hop.email, _at(today - timedelta(days=2), 15, 48), f"{s2['name']}: new start date",
                     f"Hi {me.first},\n\n{s2['first']}'s notice period turned out longer, so the first day moves from "
                     f"{long_date(old_day)} to {moved_to:%A} {long_date(moved_to)}. I haven't changed the directory "
                     f"or the tracker yet — could you?\n\nBest,\n{hop.first}", mail_id="msg-971"),
    ]
    instruction = (
        f"{hop.first} wrote about the new starters joining my team. Could you sort out their buddies as our buddy "
        "guidance says? Make sure the directory and the onboarding tracker have the right start dates, and put each "
        "buddy's full name in the tracker. Book a 30-minute 'Welcome: <starter's full name>' in my calendar on each "
        "starter's first day, at the first free half hour from 9:30 (on the hour or half past, finished by 17:00; "
        "take the starters in the tracker's order), inviting the starter and their buddy. Email each buddy who they're looking after and from when, and reply "
        f"to {hop.first} with the buddies.")
    gold = [switch("email"), list_mail(w), read_mail(w, "msg-970"), read_mail(w, "msg-971"), switch("word"),
            read_doc(guide), switch("excel"), read_sheet(directory), read_sheet(leave_sheet), read_sheet(tracker)]
    s2_row = len(w.people) + 3
    gold += [set_cell(directory, s2_row, 8, iso(moved_to))]
    checks = [check("xlsx_cell", f"{s2['first']}'s start date in the directory", file=directory, cell=f"H{s2_row}",
                    value=iso(moved_to))]
    for k, (st, b) in enumerate(zip(starters, buddies)):
        r = 4 + k
        if st is s2:
            gold.append(set_cell(tracker, r, 4, iso(moved_to)))
        gold.append(set_cell(tracker, r, 5, b.name))
        checks.append(check("xlsx_row", f"{st['first']}'s buddy is {b.first}", file=tracker, row=r,
                            values=[st["name"], "Operations", st["role"], iso(st["day"]), b.name]))
    busy = _busy(w)
    gold += [switch("calendar"), list_events(w)]
    for st, b in zip(starters, buddies):
        slot = _at(st["day"], 9, 30)
        while not _free(busy, slot, slot + timedelta(minutes=30)):
            slot += timedelta(minutes=30)
        assert slot.hour < 17
        busy.append((slot, slot + timedelta(minutes=30)))
        gold.append(create_event(w, f"Welcome: {st['name']}", slot, slot + timedelta(minutes=30),
                                 attendees=[st["email"], b.email]))
        checks.append(check("ics_event", f"welcome for {st['first']}", user=me.email, summary=f"Welcome: {st['name']}",
                            start=stamp(slot), end=stamp(slot + timedelta(minutes=30)),
                            attendees=[st["email"], b.email]))
    gold.append(switch("email"))
    for st, b in zip(starters, buddies):
        gold.append(send(w, [b.email], "Onboarding buddy",
                         f"Hi {b.first},\n\nYou're the onboarding buddy of {st['name']}, who joins us on "
                         f"{st['day']:%A} {long_date(st['day'])}. Thanks for looking after "
                         f"{st['first']}!\n\nBest,\n{me.first}"))
        checks.append(check("email_sent", f"told {b.first}", sender=me.email, to=[b.email],
                            body_contains=[st["name"], iso(st["day"])], lines=[[st["name"], iso(st["day"])]]))
    gold.append(act("email", "reply_email", username=me.email, email_id="msg-971",
                    content=f"Hi {hop.first},\n\nDone — start date fixed, and the buddies are:\n"
                            + "\n".join(f"- {st['name']}: {b.name}" for st, b in zip(starters, buddies))
                            + f"\n\nBest,\n{me.first}"))
    checks.append(check("email_sent", f"buddies reported to {hop.first}", sender=me.email, to=[hop.email],
                        body_contains=[b.name for b in buddies],
                        lines=[[st["name"], b.name] for st, b in zip(starters, buddies)]))
    return {"instruction": instruction, "office": office, "gold": gold, "checks": checks}


# ---- 5. probation reviews before the six-month date ------------------------------------------------
def _months_before(day: date, months: int) -> date:
    y, m = divmod(day.month - 1 - months, 12)
    return date(day.year + y, m + 1, day.day)


@scenario("probation-reviews", ["excel", "calendar", "email"])
def probation_reviews(w: World) -> dict:
    """The HR business partner and the user agree over several days how the probation reviews of the user's
    recent hires are booked (before each six-month date, afternoons, around the user's diary and the person's
    leave; later: an hour long, and another HR partner invited). One hire is on leave for the whole window:
    report it to HR instead of booking late. Log the bookings in the probation tracker, mail each hire."""
    rng = random.Random(f"world:{w.name}:probation-reviews")
    me = w.user
    today = w.now.date()
    hr = [p for p in w.people if p.role == "HR Business Partner"]
    hrbp, hrbp2 = hr[0], hr[1]
    offsets = [4, 9, 13, 18, 23, 41]
    roles = ["Logistics Coordinator", "Warehouse Lead", "Logistics Coordinator", "Logistics Coordinator",
             "Warehouse Lead", "Warehouse Lead"]
    hires = []
    for (f, l), k, role in zip(_new_names(rng, w, len(offsets)), offsets, roles):
        six = today + timedelta(days=k)
        while six.day > 28:
            six += timedelta(days=1)
        hires.append(dict(name=f"{f} {l}", first=f, email=f"{f.lower()}.{l.lower()}@{w.domain}", role=role,
                          six=six, start=_months_before(six, 6), phone=f"+44 20 7946 {rng.randrange(1000, 9999)}",
                          location=rng.choice(["Head office", "Warehouse"])))
    blocked, partial = hires[3], hires[1]
    due = [h for h in hires if today < h["six"] <= today + timedelta(days=28)]
    added = [(blocked, blocked["six"] - timedelta(days=16), blocked["six"] + timedelta(days=1), "Annual leave",
              "Approved"),
             (partial, partial["six"] - timedelta(days=8), partial["six"] - timedelta(days=6), "Annual leave",
              "Pending"),
             (hires[2], hires[2]["six"] - timedelta(days=10), hires[2]["six"] - timedelta(days=9), "Annual leave",
              "Withdrawn")]
    directory = w.paths["directory"]
    d_rows = _directory_rows(w) + [[h["name"], h["email"], "Operations", h["role"], me.name, h["location"],
                                    h["phone"], iso(h["start"])] for h in hires]
    leave_sheet = w.paths["leave"]
    leave_rows = _leave_rows(w)
    leave_rows += [[h["name"], h["email"], iso(s), iso(e), k, st] for h, s, e, k, st in added]
    away = {h["email"]: [(s, e) for hh, s, e, _k, st in added if hh is h and st in ("Approved", "Pending")]
            for h in hires}
    tracker = "data/people/probation_tracker.xlsx"
    old = [p for p in w.people if p.team in ("Purchasing", "IT")][:2]
    t_rows = [["Name", "Team", "Start date", "Review date", "Review time", "Outcome"],
              [old[0].name, old[0].team, "2025-09-01", "2026-02-23", "15:00", "Passed"],
              [old[1].name, old[1].team, "2025-11-03", "2026-04-27", "14:30", "Passed"]]
    t_rows += [[h["name"], "Operations", iso(h["start"]), None, None, None] for h in hires]
    office = [{"type": "xlsx", "path": directory, "sheets": {"Staff": d_rows}},
              {"type": "xlsx", "path": leave_sheet, "sheets": {"Leave": leave_rows}},
              {"type": "xlsx", "path": tracker, "sheets": {"Probation": t_rows}}]
    def book(first_day: date) -> tuple[dict[str, datetime], list[dict]]:
        """Each due hire's earliest free slot from ``first_day`` on (the user's diary and the slots booked
        before it), and the hires that cannot fit before their six-month date."""
        busy = _busy(w)
        booked: dict[str, datetime] = {}
        unable = []
        for h in due:
            slot = None
            day = max(first_day, h["six"] - timedelta(days=14))
            while slot is None and day < h["six"]:
                if day.weekday() < 5 and not any(s <= day <= e for s, e in away[h["email"]]):
                    slot = next((_at(day, 14) + timedelta(minutes=30 * k) for k in range(5)
                                 if _at(day, 14) + timedelta(minutes=30 * k) > w.now
                                 and _free(busy, _at(day, 14) + timedelta(minutes=30 * k),
                                           _at(day, 15) + timedelta(minutes=30 * k))), None)
                day += timedelta(days=1)
            if slot is None:
                unable.append(h)
            else:
                booked[h["email"]] = slot
                busy.append((slot, slot + timedelta(hours=1)))
        return booked, unable

    # "the earliest such slot" from tomorrow (the gold), or from this afternoon, which nothing rules out
    booked, unable = book(today + timedelta(days=1))
    same_day, unable_same_day = book(today)
    assert unable_same_day == unable
    assert unable == [blocked] and len(booked) == len(due) - 1
    ago = lambda d, hh, mm: _at(today - timedelta(days=d), hh, mm).strftime(T)  # noqa: E731
    dialogue = [
        {"speaker": hrbp.name, "at": ago(6, 10, 5),
         "text": f"Hi {me.first}, probation reviews are coming up in your team. Everyone reporting to you whose six "
                 "months (counted from their start date in the staff directory) are up in the next four weeks needs "
                 "a review before that date. Could you book them? 45 minutes each, in your calendar, within the two "
                 "weeks before their six-month date, in the afternoon: starting at 14:00 or on a later hour or half "
                 "hour, finished by 17:00. Give each the earliest such slot that's free in your calendar (counting "
                 "the ones you've booked) on a weekday they aren't on leave — approved or pending leave counts. "
                 "Title them 'Probation review: <full name>' and invite them and me."},
        {"speaker": me.name, "at": ago(6, 10, 21), "text": "Will do. And if someone can't fit in before the date?"},
        {"speaker": hrbp.name, "at": ago(6, 10, 30),
         "text": "Then don't book it late — email me who it is and I'll extend their probation. Oh, and fill in the "
                 "review date and time in the probation tracker as you go."},
        {"speaker": hrbp.name, "at": ago(4, 13, 12), "text": "Off topic: the new coffee machine on floor 2 is great."},
        {"speaker": me.name, "at": ago(4, 13, 30), "text": "Finally!"},
        {"speaker": hrbp.name, "at": ago(1, 16, 44),
         "text": f"Two updates: we've moved probation reviews to one hour, not 45 minutes. And I'm off from "
                 f"tomorrow, so invite {hrbp2.name} instead of me, and send {hrbp2.first} the email about anyone "
                 "who can't fit."},
    ]
    instruction = ("Could you book the probation reviews now, as the HR business partner and I discussed above, and "
                   "then send each person a short email with their review's day and time?")
    gold = [switch("excel"), read_sheet(directory), read_sheet(leave_sheet), read_sheet(tracker),
            switch("calendar"), list_events(w)]
    def book_steps(slots: dict[str, datetime]) -> list[dict]:
        """The events, the tracker's cells and each hire's mail of one reading's bookings."""
        out = [create_event(w, f"Probation review: {h['name']}", slots[h["email"]],
                            slots[h["email"]] + timedelta(hours=1), attendees=[h["email"], hrbp2.email])
               for h in due if h["email"] in slots]
        out.append(switch("excel"))
        for k, h in enumerate(hires):
            if h["email"] in slots:
                s = slots[h["email"]]
                out += [set_cell(tracker, 4 + k, 4, iso(s)), set_cell(tracker, 4 + k, 5, s.strftime("%H:%M"))]
        out.append(switch("email"))
        for h in due:
            if h["email"] in slots:
                s = slots[h["email"]]
                out.append(send(w, [h["email"]], "Your probation review",
                                f"Hi {h['first']},\n\nYour probation review is booked for {s:%A} "
                                f"{long_date(s.date())} at {s:%H:%M}.\n\nBest,\n{me.first}"))
        return out

    reads = list(gold)
    gold += book_steps(booked)

    def bookings(slots: dict[str, datetime]) -> list[dict]:
        """What one reading's bookings leave: the events, the tracker's rows, each hire's mail."""
        out = []
        for h in due:
            if h["email"] in slots:
                s = slots[h["email"]]
                out.append(check("ics_event", f"review of {h['name']} booked", user=me.email,
                                 summary=f"Probation review: {h['name']}", start=stamp(s),
                                 end=stamp(s + timedelta(hours=1)), attendees=[h["email"], hrbp2.email]))
        for k, h in enumerate(hires):
            if h["email"] in slots:
                s = slots[h["email"]]
                out.append(check("xlsx_row", f"{h['name']} in the tracker", file=tracker, row=4 + k,
                                 values=[h["name"], "Operations", iso(h["start"]), iso(s), s.strftime("%H:%M")]))
        for h in due:
            if h["email"] in slots:
                s = slots[h["email"]]
                out.append(check("email_sent", f"told {h['first']}", sender=me.email, to=[h["email"]],
                                 body_contains=[iso(s), s.strftime("%H:%M")], lines=[[iso(s), s.strftime("%H:%M")]]))
        return out

    checks = bookings(booked) if same_day == booked else [
        check("any_of", "booked the reviews", readings=[bookings(booked), bookings(same_day)])]
    # both readings book the same reviews: one event each, none twice
    checks.append(check("ics_event_count", "each review booked once", user=me.email,
                        count=len(w.events) + len(booked)))
    for h in hires:
        if h not in due or h in unable:
            checks.append(check("ics_no_event", f"no review for {h['name']}", user=me.email,
                                summary=f"Probation review: {h['name']}"))
    for k, h in enumerate(hires):
        if h["email"] not in booked:
            checks.append(check("xlsx_row", f"{h['name']} left open in the tracker", file=tracker, row=4 + k,
                                values=[h["name"], "Operations", iso(h["start"])]))
    tell_hr = send(w, [hrbp2.email], "Probation review that can't be held in time",
                   f"Hi {hrbp2.first},\n\nI couldn't fit {blocked['name']}'s probation review before "
                   f"{blocked['first']}'s six-month date: {blocked['first']} is on leave for the whole two weeks "
                   f"before it. Could you extend the probation?\n\nThanks,\n{me.first}")
    gold.append(tell_hr)
    checks.append(check("email_sent", f"told {hrbp2.first} about {blocked['name']}", sender=me.email,
                        to=[hrbp2.email], body_contains=[blocked["name"]],
                        body_excludes=[h["name"] for h in due if h is not blocked],
                        excludes_unless=["booked", "scheduled", "arranged"]))
    checks.append(check("email_not_sent", f"nothing to {hrbp.first}", sender=me.email, to=[hrbp.email]))
    # the readings' checks judge the diary's reviews and the tracker; the outcome is compared beyond them
    free = [] if same_day == booked else [tracker, f"calendar/{me.email}.ics"]
    right = [] if same_day == booked else [{"name": "booked from this afternoon on, which nothing rules out",
                                             "actions": reads + book_steps(same_day) + [tell_hr]}]
    return {"instruction": instruction, "dialogue": dialogue, "office": office, "gold": gold, "checks": checks,
            "free": free, "right": right}


# ---- a move that only works if everyone can come --------------------------------------------------
# Who of the team cannot come on the new day, per world (approved leave or a training day); in one world
# nobody, so the move goes ahead: the agent must check, not assume either way.
_PLANNING_CLASH = {"fernhill": "Annual leave", "harbourline": None, "stonegate": "Training"}


@scenario("planning-day-move", ["calendar", "excel", "email"])
def planning_day_move(w: World) -> dict:
    """Over a few days the director asks to move the team's planning day to next Thursday, "only if your
    whole team can be there", and names the new venue. The leave records decide: where one of the team
    is away that day (approved annual leave, a training day; a withdrawn request, leave that ends the day
    before or starts the day after do not count) nothing moves, nobody is mailed, and the user is told who
    and why; where everyone is in, the day moves (same hours, the new venue) and the team is told."""
    me, today = w.user, w.now.date()
    director = w.person(me.manager)
    team = sorted(_reports(w), key=lambda p: p.row)
    monday = today + timedelta(days=7 - today.weekday())
    thu = monday + timedelta(days=3)
    day = monday + timedelta(days=8)  # the planned day: Tuesday of the week after
    hours = (time(9, 30), time(16, 30))
    old_venue, new_venue = "Harbour Suite, Quayside Hotel", "Riverside Room, The Old Mill"
    summary = "Team planning day"
    clash_kind = _PLANNING_CLASH[w.name]
    added = [(team[1], thu, thu + timedelta(days=1), "Annual leave", "Withdrawn"),
             (team[2], thu - timedelta(days=3), thu - timedelta(days=1), "Annual leave", "Approved"),
             (team[3], thu + timedelta(days=1), thu + timedelta(days=4), "Annual leave", "Approved")]
    if clash_kind == "Annual leave":
        added.append((team[0], thu - timedelta(days=1), thu + timedelta(days=1), clash_kind, "Approved"))
    elif clash_kind:
        added.append((team[-1], thu, thu, clash_kind, "Approved"))
    sheet = w.paths["leave"]
    rows = _leave_rows(w)
    rows += [[p.name, p.email, iso(s), iso(e), kind, status] for p, s, e, kind, status in added]
    rows[1:] = sorted(rows[1:], key=lambda r: r[2])  # in the order of their first day, like the rest
    leave = [(l.person, l.start, l.end, l.kind, l.status) for l in w.leave] + \
            [(p.email, s, e, kind, status) for p, s, e, kind, status in added]
    on_thu = [(who, s, e, kind, status) for who, s, e, kind, status in leave
              if who in {p.email for p in [me, *team]} and s <= thu <= e]
    away = [(w.person(who), s, e, kind) for who, s, e, kind, status in on_thu if status == "Approved"]
    assert not [x for x in on_thu if x[4] == "Pending"] and all(p is not me for p, *_ in away)
    assert len(away) == (1 if clash_kind else 0), away
    attendees = [me.email, *(p.email for p in team)]
    office = [{"type": "xlsx", "path": sheet, "sheets": {"Leave": rows}},
              {"type": "ics", "user": me.email, "events": [
                  {"summary": summary, "start": stamp(datetime.combine(day, hours[0])),
                   "end": stamp(datetime.combine(day, hours[1])), "location": old_venue,
                   "description": "Plans and budget for next year, whole team.", "attendees": attendees}]}]
    at = last_week(w)
    dialogue = [
        {"speaker": director.name, "at": at(1, 9, 12),
         "text": f"Hi {me.first}, bad news: the {old_venue} has cancelled on us for your team planning day on "
                 f"{long_date(day)}. Could we move it to Thursday {long_date(thu)} instead, same hours? Only worth "
                 "doing if your whole team can be there though, there's no point with people missing."},
        {"speaker": me.name, "at": at(1, 9, 25),
         "text": "Thursday works for me, I'll shift my own meetings. I'll check the team before we commit."},
        {"speaker": director.name, "at": at(2, 16, 40), "text": "Unrelated: are you coming to the quiz night on Friday?"},
        {"speaker": me.name, "at": at(2, 16, 44), "text": "Yes, count me in. Our team name is still a secret."},
        {"speaker": director.name, "at": at(3, 11, 5),
         "text": f"On the venue: if Thursday goes ahead, we can have the {new_venue}. Use that one."},
    ]
    instruction = (f"Could you sort out moving the team planning day now, as {director.first} and I discussed, "
                   "and let the team know? If it can't work, don't change anything, just tell me why.")
    gold = [switch("calendar"), list_events(w), switch("excel"), read_sheet(w.paths["directory"]),
            read_sheet(sheet)]
    checks = []
    if away:
        p, s, e, kind = away[0]
        what = "on annual leave" if kind == "Annual leave" else "on a training day"
        span = f"from {long_date(s)} to {long_date(e)}" if s != e else f"on {long_date(s)}"
        answer = (f"I haven't moved the planning day: {p.name} is {what} {span}, so the whole team can't be "
                  f"there on Thursday {long_date(thu)}. It stays on {long_date(day)} for now.")
        gold.append(act("system", "finish_task", answer=answer))
        checks += [check("ics_event", "planning day left as it was", user=me.email, summary=summary,
                         start=stamp(datetime.combine(day, hours[0])), end=stamp(datetime.combine(day, hours[1])),
                         location=old_venue, attendees=attendees),
                   check("ics_event_count", user=me.email, count=len(w.events) + 1),
                   check("email_not_sent", "nobody mailed", sender=me.email),
                   # who (a date here would make every other date of the report a hedge)
                   check("answer_contains", f"told {p.name} is away", text=[p.name])]
        return {"instruction": instruction, "dialogue": dialogue, "office": office, "gold": gold, "checks": checks,
                "answer": answer}
    start, end = datetime.combine(thu, hours[0]), datetime.combine(thu, hours[1])
    gold += [switch("calendar"), act("calendar", "update_event", user=me.email, summary=summary,
                                     time_start=stamp(start), time_end=stamp(end), location=new_venue),
             switch("email"),
             send(w, [p.email for p in team], "Team planning day moves to Thursday",
                  f"Hi all,\n\nThe team planning day moves to Thursday {long_date(thu)}, same hours "
                  f"({start:%H:%M} to {end:%H:%M}), at the {new_venue}. The calendar invitation is updated.\n\n"
                  f"Best,\n{me.first}")]
    checks += [check("ics_event", "planning day moved", user=me.email, summary=summary, start=stamp(start),
                     end=stamp(end), location=new_venue, attendees=attendees),
               check("ics_event_count", user=me.email, count=len(w.events) + 1)]
    facts = [iso(thu), start.strftime("%H:%M"), "Riverside Room"]
    for p in team:  # one mail to the team, or one each
        checks.append(check("any_of", f"told {p.name}", readings=[
            [check("email_sent", sender=me.email, to=[q.email for q in team], body_contains=facts)],
            [check("email_sent", sender=me.email, to=[p.email], body_contains=facts)]]))
    return {"instruction": instruction, "dialogue": dialogue, "office": office, "gold": gold, "checks": checks}
