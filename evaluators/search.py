"""Search checks: one message of a person's mailbox, or one event of their calendar, states the facts.

OfficeBench judges mail and calendars by searching a whole mailbox listing or a raw .ics file for
keywords (``evaluate_contain`` with ``doc_type: email`` or ``ics``, ``DTSTART:20240517T103000``
among them). These checks are that judgement made strict on facts: one message (its subject and its
own text, a quoted original left out) or one event (its summary, location and description, and its
start and end as moments) must state every fact, the way ``contains`` reads a document
(evaluators/facts.py), so keywords scattered over several messages or events do not count.
"""

from __future__ import annotations

import posixpath
import re
from datetime import time as dtime
from typing import Any

from officesim.evaluators.claims import gold_mail, gold_written, mail_said, negated, written_problems
from officesim.evaluators.facts import own_text, states
from officesim.evaluators.registry import CheckResult, check
from officesim.evaluators.exact import attachment_names, list_events, stated_plainly
from officesim.evaluators.state import EvalState, calendar_events, mailbox
from officesim.evaluators.text import as_datetime, as_list, collapse, show


def _messages(state: EvalState, user: str) -> list[tuple[str, dict]]:
    """(path, entry) of every message in ``user``'s mailbox, inbox and sent folder, by path."""
    who = user.strip().lower()
    return sorted((path, e) for path, e in state.files.items()
                  if e.get("kind") == "eml" and str(e.get("mailbox") or "").lower() == who)


def _names(files: list[str]) -> set[str]:
    return {posixpath.basename(str(a).strip()).lower() for a in files}


def _facts(text: Any) -> list[Any]:
    return [[str(x) for x in t] if isinstance(t, (list, tuple)) else str(t) for t in as_list(text)]


@check("mailbox_contains")
def mailbox_contains(state: EvalState, *, user: str, text: str | list[str | list[str]],
                     exclude: str | list[str] | None = None, attachments: list[str] | None = None,
                     may_attach: list[str] | None = None, once: bool = False) -> CheckResult:
    """Some message in ``user``'s mailbox (inbox or sent) states, in its subject and own text, every
    ``text`` fact (as ``contains`` reads facts; an item that is a list is a choice) and none of
    ``exclude``; with ``attachments``, it carries exactly those files (by name, none when empty), and
    any of ``may_attach`` besides (a file a reader may defensibly add, like the source of the text);
    with ``once``, exactly one message does (the same mail twice is a wrong outcome)."""
    who = user.strip().lower()
    needles = _facts(text)
    messages = _messages(state, user)
    if not messages:
        return CheckResult.fail(f"the mailbox of {who} is empty; expected a message stating {show(needles)}")
    wanted_files = None if attachments is None else _names(attachments)
    optional = _names(may_attach or [])
    best: tuple[int, str, list, list, list] | None = None
    matches: list[str] = []
    for path, entry in messages:
        said = mail_said(entry)
        missing = [t for t in needles if not states(said, t, year=state.year)]
        present = [str(t) for t in as_list(exclude) if states(said, t, year=state.year)]
        if not missing and not present and state.written(path):  # what the agent wrote is read closed-world
            present += written_problems(state, said, needles, counterpart=gold_mail(state, who),
                                        recipients=[*(entry.get("to") or []), *(entry.get("cc") or [])],
                                        greeted=entry.get("to") or None, body=own_text(entry.get("body")))
        carried = attachment_names(entry)
        files = ([f"carries {sorted(carried) or 'no attachment'}, expected {sorted(wanted_files) or 'none'}"]
                 if wanted_files is not None and not wanted_files <= carried <= wanted_files | optional else [])
        if not missing and not present and not files:
            matches.append(path)
            continue
        score = len(missing) + len(present) + len(files)
        if best is None or score < best[0]:
            best = (score, path, missing, present, files)
    if matches and (not once or len(matches) == 1):
        return CheckResult.ok(f"{matches[0]} states {', '.join(show(t) for t in needles)}")
    if matches:
        return CheckResult.fail(f"{len(matches)} messages in the mailbox of {who} state {show(needles)} "
                                f"({', '.join(matches)}); exactly one should")
    _score, path, missing, present, files = best
    why = list(files)
    if missing:
        why.append(f"lacks {', '.join(show(t) for t in missing)}")
    if present:
        why.append(f"{', '.join(t if ' ' in t else show(t) for t in present)}, which it must not")
    return CheckResult.fail(f"no message in the mailbox of {who} states {show(needles)}"
                            + (f" and none of {show([str(t) for t in as_list(exclude)])}" if exclude else "")
                            + f"; the closest, {path}, {' and '.join(why)}")


@check("mailbox_not_contains")
def mailbox_not_contains(state: EvalState, *, user: str, text: str | list[str]) -> CheckResult:
    """No message in ``user``'s mailbox (inbox or sent) states any of ``text`` in its subject or own text."""
    who = user.strip().lower()
    needles = [str(t) for t in as_list(text)]
    for path, entry in _messages(state, user):
        said = mail_said(entry)
        hits = [t for t in needles if stated_plainly(said, t, year=state.year)]  # not an item set aside
        if hits:
            return CheckResult.fail(f"{path} states {', '.join(show(t) for t in hits)}; no message to or from "
                                    f"{who} may ({show(collapse(said), 100)})")
    return CheckResult.ok(f"no message in the mailbox of {who} states any of {show(needles)}")


def _moment_or_day(value: str | None, name: str) -> tuple[str, Any] | None:
    """("day", date) for '2024-06-19', ("clock", time) for '09:00', ("moment", datetime) for a date and
    time, None when not given."""
    if value is None:
        return None
    text = str(value).strip()
    clock = re.fullmatch(r"([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?", text)
    if clock:
        return "clock", dtime(int(clock.group(1)), int(clock.group(2)), int(clock.group(3) or 0))
    if len(text) == 10:
        moment = as_datetime(text)
        if moment is not None:
            return "day", moment.date()
    moment = as_datetime(text)
    if moment is None:
        raise ValueError(f"{name} {text!r} is neither a date nor a time")
    return "moment", moment


def _at(event: dict, key: str, wanted: tuple[str, Any] | None, timezone: str) -> bool:
    if wanted is None:
        return True
    found = as_datetime(event.get(key), timezone)
    if found is None:
        return False
    kind, value = wanted
    if kind == "clock":
        return found.time() == value
    return found.date() == value if kind == "day" else found == value


def _minutes(event: dict, timezone: str) -> float | None:
    start, end = as_datetime(event.get("start"), timezone), as_datetime(event.get("end"), timezone)
    return None if start is None or end is None or event.get("all_day") else (end - start).total_seconds() / 60


@check("event_contains")
def event_contains(state: EvalState, *, user: str, text: str | list[str | list[str]] | None = None,
                   start: str | list[str] | None = None, end: str | None = None, minutes: int | None = None) -> CheckResult:
    """Some event of ``user``'s calendar states every ``text`` fact in its summary, location or
    description (an item that is a list is a choice), starts at ``start`` and ends at ``end`` when
    given (a date and time compares as a moment, a date, ``2024-06-19``, as the day the event starts or
    ends, a time of day, ``09:00``, as the clock time on any day; a list of starts is a choice), and
    lasts ``minutes`` when given."""
    who = f"calendar of {user.strip().lower()}"
    needles = _facts(text) if text is not None else []
    try:
        starts = [_moment_or_day(s, "start") for s in start] if isinstance(start, list) else [_moment_or_day(start, "start")]
        when = {"end": _moment_or_day(end, "end")}
    except ValueError as exc:
        return CheckResult.fail(f"{who}: {exc}")
    events = calendar_events(state, user)
    wanted = show(needles) + "".join(f", {k} {v}" for k, v in (("start", start), ("end", end), ("minutes", minutes))
                                     if v)
    false = ""
    for event in events:
        said = event_text(event)
        if all(states(said, t, year=state.year) for t in needles) and \
                any(_at(event, "start", s, state.timezone) for s in starts) and _at(event, "end", when["end"], state.timezone) and \
                (minutes is None or _minutes(event, state.timezone) == minutes):
            problems = _event_problems(state, user, event, needles)
            if not problems:
                return CheckResult.ok(f"{who}: event {show(event.get('summary'))} at {event.get('start')} states {wanted}")
            false = false or f"; event {show(event.get('summary'))} {'; '.join(problems)}"
    return CheckResult.fail(f"{who}: no event states {wanted}{false} ({list_events(events)})")


def event_text(event: dict) -> str:
    return "\n".join(str(event.get(k) or "") for k in ("summary", "location", "description"))


def _event_problems(state: EvalState, user: str, event: dict, needles: list[Any]) -> list[str]:
    """The closed-world reading of an event the agent made or changed (an unchanged one is the office's)."""
    mine = [e for e in _before_events(state, user)]
    if state.before is not None and event in mine:
        return []
    gold = [event_text(e) for e in _events_of(state.gold or {}, user) if e not in mine] or gold_written(state)
    problems = written_problems(state, event_text(event), needles, counterpart=gold)
    # an event is one statement: a description that calls it off says so of the whole event
    if any(negated(line) for line in event_text(event).splitlines()[1:]) and \
            not any(negated(line) for t in [*gold, state.instruction] for line in str(t).splitlines()):
        problems.append(f"is called off in its own words ({show(collapse(event_text(event)), 90)}), which the gold's is not")
    return problems


def _before_events(state: EvalState, user: str) -> list[dict]:
    return _events_of(state.before or {}, user)


def _events_of(files: dict[str, dict], user: str) -> list[dict]:
    path = f"calendar/{user.strip().lower()}.ics"
    same = [e for p, e in files.items() if p.casefold() == path.casefold() and e.get("kind") == "ics"]
    return [ev for e in same for ev in e.get("events") or []]


@check("same_time")
def same_time(state: EvalState, *, users: list[str], text: str | list[str | list[str]]) -> CheckResult:
    """Each user's calendar holds exactly one event stating every ``text`` fact (summary, location or
    description), and all of them start and end at the same moments: one meeting shared by several
    people whose title and hour the instruction leaves open, so an event moved for one of them, or
    booked twice, fails."""
    needles = _facts(text)
    if not users:
        return CheckResult.fail("same_time needs at least one user")
    slots: dict[str, tuple[Any, Any]] = {}
    for user in users:
        who = user.strip().lower()
        events = calendar_events(state, who)
        found = [e for e in events if all(states("\n".join(str(e.get(k) or "") for k in ("summary", "location", "description")),
                                                 t, year=state.year) for t in needles)]
        if len(found) != 1:
            return CheckResult.fail(f"calendar of {who}: {len(found)} events state {show(needles)}, expected one "
                                    f"({list_events(events)})")
        slots[who] = (as_datetime(found[0].get("start"), state.timezone), as_datetime(found[0].get("end"), state.timezone))
    if len(set(slots.values())) > 1:
        shown = "; ".join(f"{u}: {a} - {b}" for u, (a, b) in slots.items())
        return CheckResult.fail(f"the events stating {show(needles)} are not at one time ({shown})")
    (start, end), = set(slots.values())
    return CheckResult.ok(f"{len(slots)} calendars hold one event stating {show(needles)}, all {start} - {end}")


def _stating(events: list[dict], needles: list[Any], year: int | None) -> list[dict]:
    return [e for e in events if all(states("\n".join(str(e.get(k) or "") for k in ("summary", "location", "description")),
                                            t, year=year) for t in needles)]


def _addressed(entry: dict, user: str) -> bool:
    """The message names ``user`` (an address, or a first name as an address's local part) in To."""
    who = user.strip().lower()
    return any(str(a).strip().lower() == who or str(a).strip().lower().split("@")[0] == who for a in entry.get("to") or [])


def _event_details(event: dict, timezone: str) -> list[str]:
    start, end = as_datetime(event.get("start"), timezone), as_datetime(event.get("end"), timezone)
    if start is None:
        return []
    if event.get("all_day"):
        return [start.date().isoformat()]
    return [start.date().isoformat(), start.strftime("%H:%M")] + ([end.strftime("%H:%M")] if end is not None else [])


@check("mail_states_event")
def mail_states_event(state: EvalState, *, user: str, text: str | list[str | list[str]]) -> CheckResult:
    """``user``'s calendar holds an event stating every ``text`` fact, and some message in their
    mailbox states those facts with the event's own day, start and end: a mail that must give "the
    same details as the calendar event", whose time the instruction leaves open."""
    who = user.strip().lower()
    needles = _facts(text)
    events = _stating(calendar_events(state, user), needles, state.year)
    if not events:
        return CheckResult.fail(f"the calendar of {who} has no event stating {show(needles)}")
    messages = _messages(state, user)
    false = ""
    for event in events:
        details = _event_details(event, state.timezone)
        if not details:
            continue
        for path, entry in messages:
            said = mail_said(entry)
            if all(states(said, t, year=state.year) for t in [*needles, *details]):
                problems = _written_mail(state, path, entry, [*needles, *details])
                if not problems:
                    return CheckResult.ok(f"{path} states the event {show(event.get('summary'))}: {', '.join(details)}")
                false = false or f"; {path} {'; '.join(problems)}"
    return CheckResult.fail(f"no message in the mailbox of {who} states {show(needles)} with the day and times of "
                            f"their event ({list_events(events)}){false}")


def _written_mail(state: EvalState, path: str, entry: dict, facts: list[Any]) -> list[str]:
    """The closed-world reading (evaluators/claims.py) of a message the agent wrote (none of one it did not)."""
    if not state.written(path):
        return []
    return written_problems(state, mail_said(entry), facts, counterpart=gold_mail(state, entry.get("from")),
                            recipients=[*(entry.get("to") or []), *(entry.get("cc") or [])],
                            greeted=entry.get("to") or None, body=own_text(entry.get("body")))


@check("pairs_meet")
def pairs_meet(state: EvalState, *, users: list[str], partners: list[str], text: str | list[str | list[str]]) -> CheckResult:
    """Each of ``users`` is paired with one of ``partners`` (any pairing; each partner in one pair at
    most): the two calendars hold one event stating every ``text`` fact, at the same start and end, and
    each of the two received, in To, exactly one message stating those facts with that event's day and
    times. A partner outside the pairs holds no such event and received no such message."""
    needles = _facts(text)
    slot: dict[str, tuple] = {}
    problems: list[str] = []
    for person in [*users, *partners]:
        events = _stating(calendar_events(state, person), needles, state.year)
        who = person.strip().lower()
        if len(events) > 1 or (person in users and not events):
            problems.append(f"{who} has {len(events)} events stating {show(needles)}, expected one")
            continue
        said = [(p, e) for p, e in mailbox(state, person, "inbox") if all(states(mail_said(e), t, year=state.year) for t in needles)]
        if not events:
            if said:
                problems.append(f"{who} is in no pair but received {said[0][0]}")
            continue
        event = events[0]
        details = _event_details(event, state.timezone)
        told = [p for p, e in said if _addressed(e, person) and all(states(mail_said(e), t, year=state.year) for t in details)
                and not _written_mail(state, p, e, [*needles, *details])]
        if len(said) != 1 or len(told) != 1:
            problems.append(f"{who} received {len(said)} message(s) stating {show(needles)}, {len(told)} of them "
                            f"addressed to them with the event's {', '.join(details)}; expected exactly one")
            continue
        slot[person] = (event.get("start"), event.get("end"))
    if problems:
        return CheckResult.fail("; ".join(problems))
    matched: dict[str, str] = {}

    def place(user: str, seen: set[str]) -> bool:
        for partner in partners:
            if partner in slot and partner not in seen and slot[partner] == slot[user]:
                seen.add(partner)
                if partner not in matched or place(matched[partner], seen):
                    matched[partner] = user
                    return True
        return False

    unpaired = [u for u in users if not place(u, set())]
    extra = [p for p in partners if p in slot and p not in matched]
    if unpaired or extra:
        return CheckResult.fail(f"no pairing at the same times: {', '.join(unpaired) or 'everyone'} unpaired"
                                + (f"; {', '.join(extra)} hold an event outside any pair" if extra else ""))
    return CheckResult.ok("pairs " + ", ".join(f"{u}+{p}" for p, u in sorted(matched.items(), key=lambda kv: kv[1])))
