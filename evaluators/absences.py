"""Who is off on a day: "Luca Iyer and Priya Rossi are already off on 30 December 2026".

A sentence that names people by full name and says they are off (on leave, away, out) on a day is false of a
person the records give absences to (rows with a first and a last day under labels that say so) none of which
covers that day. People with no such rows are not judged; a plan, a condition or a denial is not read. Pure
functions of the records.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Iterable

from officesim.evaluators.claims import claims_in
from officesim.evaluators.records import FULL_NAME, Records, name_key
from officesim.evaluators.text import NUMBER_WORDS

_OFF = re.compile(r"(?i)\b(?:are|is|were|was)\s+(?:already\s+|both\s+|also\s+)*(?:off|on (?:annual )?leave|away|out of "
                  r"(?:the )?office|absent)\s+(?:on|for)\s+")
_NOT_READ = re.compile(r"(?i)\b(?:not|n't|if|unless|would|will|might|may|could|should|never|no one|nobody)\b")
_FIRST_LABEL = re.compile(r"(?i)\b(?:start|from\b|first|begin)")
_LAST_LABEL = re.compile(r"(?i)\b(?:end|to\b|until|last|finish)")
MAX_ROWS = 40  # absences of one person read
_ABSENCE_TABLE = re.compile(r"(?i)leave|absen|holiday|time.?off|pto|vacation|rota|out.?of.?office")


_CALLED_OFF = re.compile(r"(?i)^(?:withdrawn|cancell?ed|declined|rejected|refused|revoked)$")
_NOT_YET = re.compile(r"(?i)^(?:pending|requested|submitted|awaiting.*|draft|tentative|provisional)$")


def _rows(records: Records, person: str) -> list[tuple[date, date, tuple[str, ...]]]:
    """A person's absence rows: each a row of an absence table with one first and one last day, with its states."""
    out = []
    for i in records.by_key.get(person, ())[:MAX_ROWS * 5]:
        if not _ABSENCE_TABLE.search(records.entities[i].collection):
            continue  # an employment or a contract runs from a first to a last day too
        days = [(label, a.value) for label, a in records.entities[i].values("date") if isinstance(a.value, date)]
        first = [d for label, d in days if _FIRST_LABEL.search(label)]
        last = [d for label, d in days if _LAST_LABEL.search(label) and not _FIRST_LABEL.search(label)]
        if len(first) == 1 and len(last) == 1 and first[0] <= last[0]:
            out.append((first[0], last[0], tuple(v.strip() for _l, v in records.entities[i].states)))
    return out


def _spans(records: Records, person: str, settled: bool = False) -> list[tuple[date, date]]:
    """A person's absences, but those withdrawn or declined; ``settled``: only those approved (not pending
    either), the ones that count as "already off"."""
    return [(a, b) for a, b, states in _rows(records, person)
            if not any(_CALLED_OFF.match(v) or (settled and _NOT_YET.match(v)) for v in states)]


def _day_after(text: str, at: int, year: int | None) -> date | None:
    """The day written right after a phrase ("… are off on Tuesday 8 December")."""
    return next((c.value for c in claims_in(text[at:at + 40], year=year, kinds=("date",)) if isinstance(c.value, date)),
                None)


# "Nadia Ito … is on approved annual leave on 8-9 December", "she has a pending leave request for 7 December"
_HAS_LEAVE = re.compile(r"(?i)\b(?:is|was|are|were|has|had|have)\s+(?:already\s+|also\s+)?(?:on\s+)?(?:a\s+|an\s+|some\s+)?"
                        r"(?:(?P<state>approved|pending|confirmed|requested|booked|unapproved)\s+)?(?:annual\s+)?"
                        r"(?:leave|holiday|time off)(?:\s+request(?:ed)?)?\s+(?:on|for|from)\s+")
_APPROVED = re.compile(r"(?i)^(?:approved|confirmed|booked|authori[sz]ed|agreed)$")
_PRONOUN = re.compile(r"(?i)(?:^|[\s,;(])(?:she|he|they)\s*$")


def leave_state_problems(text: str, records: Records, year: int | None, people: Iterable[str] = ()) -> list[str]:
    """Leave said of a person on a day, approved or pending ("Nadia Ito … is on approved annual leave on 8-9
    December", "she has a pending leave request for 7 December"), where none of their absence rows covers the
    day, or those that cover it are in another state. People with no absence rows are not judged."""
    people = list(people)
    out = []
    for m in _HAS_LEAVE.finditer(text):
        start = max(text.rfind(". ", 0, m.start()) + 2, text.rfind("\n", 0, m.start()) + 1, 0)
        subject = text[start:m.start()]
        if _NOT_READ.search(subject) or re.search(r"(?i)\b(?:no|not|n't)\b", m.group(0)):
            continue
        day = _day_after(text, m.end(), year)
        if not day:
            continue
        named = _named(subject, people, records)
        if not named and _PRONOUN.search(subject):
            before = list(FULL_NAME.finditer(text, max(0, m.start() - 200), m.start()))
            named = [(before[-1].group(0), name_key(before[-1].group(0)))] if before else []
        for shown, key in named[-1:]:  # the one nearest the verb is its subject ("Rosa's leave: Nadia Ito, who …, is")
            rows = _rows(records, key)
            if not rows:
                continue
            cover = [states for a, b, states in rows if a <= day <= b]
            said = (m.group("state") or "").lower()
            if not cover:
                out.append(f"{' '.join(text[start:m.end() + 20].split())!r} gives {shown} leave on {day.isoformat()}, "
                           f"but none of their absences covers it")
            elif said and all(states for states in cover) and not any(
                    (_APPROVED.match(said) and any(_APPROVED.match(v) for v in states)) or
                    (not _APPROVED.match(said) and any(_NOT_YET.match(v) for v in states)) for states in cover):
                out.append(f"{' '.join(text[start:m.end() + 20].split())!r} calls {shown}'s leave on "
                           f"{day.isoformat()} {said}, but the records give it {', '.join(cover[0])}")
    return out


def _day(cell: object) -> date | None:
    if isinstance(cell, datetime):
        return cell.date()
    if isinstance(cell, date):
        return cell
    if isinstance(cell, str) and len(cell) <= 20:
        found = [c.value for c in claims_in(cell, year=None, kinds=("date",)) if isinstance(c.value, date)]
        return found[0] if len(found) == 1 else None
    return None


def written_absences(before: dict[str, dict], after: dict[str, dict]) -> dict[str, list[tuple[date, date]]]:
    """The absences the episode wrote (rows it added or changed with a first and a last day), by person."""
    out: dict[str, list[tuple[date, date]]] = {}
    for path, entry in after.items():
        old = before.get(path)
        if entry.get("kind") != "xlsx" or old == entry:
            continue
        for sheet, rows in (entry.get("sheets") or {}).items():
            if not rows or not _ABSENCE_TABLE.search(f"{path}#{sheet}"):
                continue
            header = ["" if c is None else str(c) for c in rows[0]]
            first = [j for j, h in enumerate(header) if _FIRST_LABEL.search(h)]
            last = [j for j, h in enumerate(header) if _LAST_LABEL.search(h) and not _FIRST_LABEL.search(h)]
            if len(first) != 1 or len(last) != 1:
                continue
            held = {tuple(r) for r in (((old or {}).get("sheets") or {}).get(sheet) or [])}
            for row in rows[1:MAX_WRITTEN]:
                if tuple(row) in held:
                    continue
                a, b = (_day(row[j]) if j < len(row) else None for j in (first[0], last[0]))
                if a and b and a <= b:
                    for cell in row:
                        if isinstance(cell, str) and FULL_NAME.fullmatch(cell.strip()):
                            out.setdefault(name_key(cell), []).append((a, b))
    return out


MAX_WRITTEN = 5_000  # rows of one written sheet read


_FIRST_NAME = re.compile(r"\b[A-Z][a-z]+(?:-[A-Z][a-z]+)?\b")


def _named(subject: str, people: Iterable[str], records: Records) -> list[tuple[str, str]]:
    """The people a subject names: by full name, or by a first name only one of ``people`` (name keys) with
    absences in the records has ("Rafael and Mira are both already on annual leave"). Each as (as written, name
    key)."""
    out = [(n.group(0), name_key(n.group(0))) for n in FULL_NAME.finditer(subject)]
    taken = [n.span() for n in FULL_NAME.finditer(subject)]
    firsts: dict[str, list[str]] = {}
    for key in people:
        firsts.setdefault(key.partition(" ")[0], []).append(key)
    for w in _FIRST_NAME.finditer(subject):
        if any(a <= w.start() < b for a, b in taken):
            continue
        found = [k for k in firsts.get(name_key(w.group(0)), []) if _spans(records, k)]
        if len(found) == 1:
            out.append((w.group(0), found[0]))
    return out


def off_day_problems(text: str, records: Records, year: int | None,
                     written: dict[str, list[tuple[date, date]]] | None = None,
                     people: Iterable[str] = ()) -> list[str]:
    """People said to be off on a day that none of their absences covers; ``written``: the absences the
    episode wrote (a leave it has just recorded is not in the records); ``people``: the name keys of the
    directory, whose first names name them where only one has it."""
    written = written or {}
    people = list(people)
    out = []
    for m in _OFF.finditer(text):
        dot = text.rfind(". ", 0, m.start())
        start = max(dot + 2 if dot >= 0 else 0, text.rfind("\n", 0, m.start()) + 1)
        subject = text[start:m.start()]
        if _NOT_READ.search(subject) or _NOT_READ.search(m.group(0)):
            continue
        day = _day_after(text, m.end(), year)
        if not day:
            continue
        for shown, key in _named(subject, people, records):
            spans = _spans(records, key) + written.get(key, [])
            if (spans or _rows(records, key)) and not any(a <= day <= b for a, b in spans):
                out.append(f"{' '.join(text[start:m.end() + 20].split())!r} says {shown} is off on "
                           f"{day.isoformat()}, but their absences in the records run "
                           f"{', '.join(f'{a.isoformat()} to {b.isoformat()}' for a, b in spans[:4]) or 'nowhere (withdrawn or declined)'}")
    return out


# "three of the team are already on annual leave on 8 December", "two people are off on Tuesday 8 December"
_SO_MANY_OFF = re.compile(r"(?i)\b(?P<n>\d{1,2}|" + "|".join(NUMBER_WORDS) + r")\s+(?:of\s+(?:the|our|my|your)\s+team|"
                          r"(?:people|colleagues|team members|members of (?:the|our|my|your) team))\s+(?:are|were|will be)\s+"
                          r"(?:already\s+|also\s+)*(?:off|on (?:annual )?leave|away|out|absent)\s+(?:on|for)\s+")


def off_count_problems(text: str, records: Records, teams: dict[str, str], own: Iterable[str], year: int | None,
                       written: dict[str, list[tuple[date, date]]] | None = None) -> list[str]:
    """A count of a team said to be off on a day ("three of the team are already on annual leave on 8 December")
    that is not how many of the team of the writer or the reader (``own``: their name keys) have an approved
    absence that covers it, with those the episode recorded."""
    written = written or {}
    out = []
    for m in _SO_MANY_OFF.finditer(text):
        start = max(text.rfind(". ", 0, m.start()) + 1, text.rfind("\n", 0, m.start()) + 1)
        if _NOT_READ.search(text[start:m.start()]):
            continue
        word = m.group("n").lower()
        n = int(word) if word.isdigit() else NUMBER_WORDS.get(word)
        day = _day_after(text, m.end(), year)
        own_teams = {teams[k] for k in own if k in teams}
        if not n or not day or not own_teams:
            continue
        counts = {}
        for team in own_teams:
            members = [p for p, t in teams.items() if t == team]
            counts[team] = sorted(p for p in members
                                  if any(a <= day <= b for a, b in _spans(records, p, settled=True) + written.get(p, [])))
        if all(len(off) != n for off in counts.values()):
            team, off = next(iter(counts.items()))
            out.append(f"{' '.join(m.group(0).split())!r} {day.isoformat()}: {len(off)} of {team} have an approved "
                       f"absence that day ({', '.join(p.title() for p in off[:5]) or 'none'}), not {n}")
    return out


# "she'll be the only one from Operations away that week", "the only person in Finance off on 9 November"
_ONLY_AWAY = re.compile(r"(?i)\bonly\s+(?:one|person|member|colleague)\s+(?:from|in|of)\s+(?:the\s+)?"
                        r"(?P<team>[A-Z][\w&-]*)(?:\s+team)?\s+(?:who\s+(?:is|will\s+be)\s+|to\s+be\s+|is\s+|will\s+be\s+)?"
                        r"(?:away|off|on\s+leave|out)\b(?P<when>[^.\n]{0,40})")


def _week(day: date) -> tuple[date, date]:
    from datetime import timedelta

    monday = day - timedelta(days=day.weekday())
    return monday, monday + timedelta(days=6)


def only_away_problems(text: str, records: Records, teams: dict[str, str], year: int | None,
                       written: dict[str, list[tuple[date, date]]] | None = None, quoted: str = "") -> list[str]:
    """Someone said to be the only one of their team away over a period ("that week", a range the sentence
    or the one before gives, else the request a reply answers: ``quoted``) where the absences of two or more
    of that team's people overlap it."""
    written = written or {}
    out = []
    for m in _ONLY_AWAY.finditer(text):
        dot = max(text.rfind(". ", 0, m.start()), text.rfind("\n", 0, m.start()))
        sentence = text[dot + 1:text.find(".", m.end()) if "." in text[m.end():] else len(text)]
        if re.search(r"(?i)\b(?:if|unless|not|n't|would)\b", text[dot + 1:m.start()]):
            continue
        days = [c.value for c in claims_in(sentence, year=year, kinds=("date",)) if isinstance(c.value, date)]
        if not days and dot > 0:  # "… 9–11 November. You'll be the only one from Operations away that week."
            before = text[max(text.rfind(". ", 0, dot - 1), text.rfind("\n", 0, dot - 1)) + 1:dot]
            days = [c.value for c in claims_in(before, year=year, kinds=("date",)) if isinstance(c.value, date)]
        if not days and quoted:  # "Approved — you'll be the only one from Operations away that week"
            days = [c.value for c in claims_in(quoted[:2000], year=year, kinds=("date",)) if isinstance(c.value, date)]
        if not days:
            continue
        first, last = min(days), max(days)
        if re.search(r"(?i)\bweek\b", m.group("when")):
            first, last = _week(first)[0], _week(last)[1]
        team = m.group("team").casefold()
        members = [p for p, t in teams.items() if t.casefold() == team]
        away = sorted(p for p in members
                      if any(a <= last and first <= b for a, b in _spans(records, p) + written.get(p, [])))
        if len(away) >= 2:
            out.append(f"{' '.join(m.group(0).split())!r} says one of {m.group('team')} is away from "
                       f"{first.isoformat()} to {last.isoformat()}, but {len(away)} of its people are: "
                       f"{', '.join(p.title() for p in away[:4])}")
    return out
