"""Every place the agent wrote, read against the office's records: the grading no written text escapes.

A task's checks read the places they name (the mail they expect, the document they check). What an
agent writes elsewhere — a cover mail, a forward's note, a reply, an event's description, an added
paragraph, an answer no check reads — is read here, statement by statement (evaluators/verdicts.py),
against the records of the initial office (evaluators/records.py) and the task's scope: what the
instruction and the gold solution write, today, the agent's own new events, the addressees. A value
the records contradict fails the episode's ``written_truth`` check with a message that names the
statement, what it is about and what the office says; statements that could not be read are counted
(``unread`` in the record and in summary.json).
"""

from __future__ import annotations

import re
import threading
from email.utils import parseaddr
from itertools import islice
from typing import Any, Callable, Iterable, Iterator
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from officesim.evaluators.periods import period_problems
from officesim.evaluators.actions import (Episode, record_words, action_claims, action_problems, claimed_stems,
                                          counted_action_problems, mail_key, sent_count_problems, verb_of)
from officesim.evaluators.claims import (Claim, _per_task, _task_limit, _sentence_at, heading_over, scaled_by_words, added_text, calendar_events, claims_in, directory_of,
                                         content_words, gold_written, greeting_problem, office_memo, register_true_context, same_claim)
from officesim.evaluators.facts import MONTHS, own_text, weekday_conflicts
from officesim.evaluators.text import document_text
from officesim.evaluators.late_counts import late_count_problems
from officesim.evaluators.pairings import pairing_problems
from officesim.evaluators.quiet_spells import quiet_spell_problems
from officesim.evaluators.listed_values import listed_values, swapped_line_problems
from officesim.evaluators.record_counts import Work, changed_rows, counts_office_things, named_rows
from officesim.evaluators.records import FULL_NAME, fold, GENERIC, Records, people_column, fold_words, name_key, as_datetime, build_records, changed_cells, id_key, value_key as value_key_of, written_rows
from officesim.evaluators.roles import addressee_role_problems, given_roles, titled_role_problems
from officesim.evaluators.tenure import anniversary_problems, joined_problems, service_problems
from officesim.evaluators.roles import group_send_problems
from officesim.evaluators.record_counts import each_amount_problems
from officesim.evaluators.months_said import month_problems
from officesim.evaluators.absences import leave_state_problems, off_count_problems, off_day_problems, only_away_problems, written_absences
from officesim.evaluators.state import EvalState
from officesim.evaluators.timing import deadline_problems, office_notice_deadlines
from officesim.evaluators.day_counts import DAY_SPAN, day_count_problems
from officesim.evaluators.consistency import day_total_problems, kind_count_problems
from officesim.evaluators.replies import answered_days, notice_problems, quoted_text, restated_day_problems, restated_range_problems
from officesim.evaluators.statements import cut, items_above, list_sizes
from officesim.evaluators.stated_results import result_problems
from officesim.evaluators.superlatives import (listed_first_problems, order_problems, ranked_lists, row_share_problems,
                                                sorted_claim_problems,
                                                superlative_problems)
from officesim.evaluators.written_tables import direction_problems, moved_figure_problems, percent_problems
from officesim.evaluators.task_sets import (ItemSet, named_total_problems, part_count_problems, part_sizes, only_unpaid_problems, paid_claim_problems, party_count_problems, set_count_problems, set_totals, stated_totals,
                                            task_sets, total_problems)
from officesim.evaluators.text import NUMBER_WORDS
from officesim.evaluators.verdicts import (LIMIT_AFTER, MEASURE, Reading, Scope, said_as_limit, date_after_span, share_of_text, sum_of_sentence, day_count_of_records, event_date_of_named, event_time_on_day, named_in_event, named_with_record, read,
                                          said_as_rate, statements_about, true_of_records, worked_out, counts_named_ids, share_of_named, amount_of_id_before)

SHOWN = 4  # false statements named in a check's message


@dataclass(frozen=True)
class Place:
    """One place the agent wrote: where, its text, the subject it is under, and who it addresses."""

    where: str
    text: str
    subject: str = ""
    neutral: tuple[str, ...] = ()
    attachments: bool | None = None  # a mail: whether it carries any
    to: tuple[str, ...] | None = None  # a mail: whom it is to (its greeting names one of them)
    body: str = ""  # a mail: its own words, greeting first
    attached: int = 0  # a mail: how many files it carries
    key: str | None = None  # a mail: ``mail_key``, the same for every mailbox's copy
    rows: int | None = None  # a mail carrying one workbook: the rows under its first sheet's header
    origin: str | None = None  # a forward: the sender of the message it carries
    quoted: str = ""  # a reply: the message it answers, as it quotes it
    answered: tuple[date, ...] = ()  # a reply: the day of the message it answers


@dataclass
class Truth:
    """What the reading of every written place found."""

    statements: int = 0
    false: list[str] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)


_WORLD_RECORDS: "OrderedDict[str, Records]" = OrderedDict()  # a lived-in office's records, by its stored name
_WORLD_RECORDS_KEPT = 3  # offices: each holds ~10,000 entities, and the tasks of one office share them
_WORLD_LOCK = threading.Lock()


def stored_records(files: dict[str, dict], year: int | None, people: dict[str, str] | None,
                   reference_key: str | None) -> Records:
    """An office's records. A lived-in office (one with a name in the machine's store) has them built
    once per machine, kept in the store, and held once per process for all its tasks (the task's own
    people are not added: its addresses name them); any other office's are built here."""
    if not reference_key:
        return build_records(files, year, people)
    from officesim.testbed import refstore

    key = f"{reference_key}-{year}"
    with _WORLD_LOCK:
        hit = _WORLD_RECORDS.get(key)
        if hit is not None:
            _WORLD_RECORDS.move_to_end(key)
            return hit
    records = refstore.cached("records", key, lambda: build_records(files, year, None))
    with _WORLD_LOCK:
        _WORLD_RECORDS[key] = records
        while len(_WORLD_RECORDS) > _WORLD_RECORDS_KEPT:
            _WORLD_RECORDS.popitem(last=False)
    return records


def records_of(state: EvalState) -> Records | None:
    """The initial office's records (see ``stored_records``) with the sheet rows the episode wrote that
    the office did not hold (``written_rows``); None for a state without an office."""
    if state.before is None:
        return None
    if "records" in state.memo:
        return state.memo["records"]
    before = state.before
    if state.reference_key:
        office = stored_records(before, state.year, None, state.reference_key)
    else:
        office = _per_task(f"records-{state.year}-{sorted(state.people.items())}", (before,),
                           lambda: build_records(before, state.year, state.people))
    written = written_rows(office, before, state.files, state.year)
    state.memo["records"] = office.extended(written) if written else office
    return state.memo["records"]


def involved_keys(state: EvalState) -> frozenset[str]:
    """The keys of the office's entities that the instruction and the gold's text name (with the messages
    its mails forward or quote): what the task is
    about (true context about them is context; about anything else, an item the task did not ask for)."""
    if "involved" not in state.memo:
        records = records_of(state)
        before = state.before or {}
        carried = [str(e.get("body") or "") for p, e in (state.gold or {}).items()  # what the gold forwards or
                   if e.get("kind") == "eml" and p not in before]  # quotes is what the task is about too
        text = "\n".join([state.instruction, *gold_written(state), str(state.gold_answer or ""), *carried])
        state.memo["involved"] = frozenset(records.keys_in(text)) if records is not None else frozenset()
    return state.memo["involved"]


_FORWARD = re.compile(r"(?i)\s*(?:fwd?|fw)\s*:")
_REPLY = re.compile(r"(?i)\s*re\s*:")


def _forwardable(state: EvalState) -> frozenset[str]:
    """The bodies (whitespace folded) of the messages the office held before the episode."""
    if "forwardable" not in state.memo:
        before = state.before or {}
        state.memo["forwardable"] = frozenset(" ".join(own_text(e.get("body") or "").split()) for e in before.values()
                     if isinstance(e, dict) and e.get("kind") == "eml" and (e.get("body") or "").strip())
    return state.memo["forwardable"]


def _attached_rows(state: EvalState, attachments: list) -> int | None:
    """The rows under the header of the one workbook a mail carries (found by its file name among the
    office's files, the episode's own first), or None."""
    if len(attachments) != 1 or not isinstance(attachments[0], dict):
        return None
    name = str(attachments[0].get("filename") or "")
    if not name.lower().endswith((".xlsx", ".xlsm")):
        return None
    found = sorted((not state.written(p), p) for p, e in state.files.items()
                   if p.rsplit("/", 1)[-1] == name and e.get("kind") == "xlsx")
    if not found:
        return None
    book = state.files[found[0][1]]
    sheets = book.get("sheets") or {}
    first = (book.get("sheet_order") or list(sheets))[:1]
    rows = [r for r in (sheets.get(first[0]) if first else None) or [] if any(v not in (None, "") for v in r)]
    return max(len(rows) - 1, 0)


_FORWARDED_FROM = re.compile(r"^-{5,} ?Forwarded message ?-{5,}\s*\nFrom: *(?P<sender>.+)$", re.M)


def forwarded_from(entry: dict) -> str | None:
    """The sender of the message a forward carries (from the header block under its marker)."""
    m = _FORWARDED_FROM.search(str(entry.get("body") or ""))
    if not m:
        return None
    address = parseaddr(m.group("sender").strip())[1].lower()
    return address or None


def places(state: EvalState) -> list[Place]:
    """Every place the agent wrote: new mail (its subject and own words, once however many mailboxes
    hold it), the lines added to documents, new or changed events, the answer."""
    out: list[Place] = []
    seen: set[tuple] = set()
    before = state.before or {}
    originals = _forwardable(state)
    for path, entry in sorted(state.files.items()):
        if not state.written(path):
            continue
        kind = entry.get("kind")
        if kind == "eml" and path not in before:
            # a forward is also the message it carries: the same note on another party's message is another
            # statement ("this one from Alder Street Clinics" on Nettle Cross's message)
            key = (entry.get("from"), entry.get("subject"), own_text(entry.get("body") or ""), forwarded_from(entry))
            if key in seen:
                continue
            seen.add(key)
            people = tuple(str(a).lower() for a in [entry.get("from"), *(entry.get("to") or []),
                                                    *(entry.get("cc") or [])] if a)
            subject, own = str(entry.get("subject") or ""), own_text(entry.get("body") or "")
            if _FORWARD.match(subject) and " ".join(own.split()) in originals:
                own = ""  # a forward that copies the original's body verbatim (no marker) adds no words of its own
            out.append(Place(path, f"{subject}\n{own}", subject, people,
                             bool(entry.get("attachments")), tuple(str(a).lower() for a in entry.get("to") or []),
                             own, len(entry.get("attachments") or []), mail_key(entry),
                             _attached_rows(state, entry.get("attachments") or []), forwarded_from(entry),
                             quoted_text(entry.get("body")) if _REPLY.match(subject) else "",
                             tuple(answered_days(entry.get("body"), state.year)) if _REPLY.match(subject) else ()))
        elif kind in ("docx", "text"):
            out.append(Place(path, added_text(state, path)))
        elif kind == "ics":
            old = [e for e in (before.get(path) or {}).get("events") or []]
            for ev in entry.get("events") or []:
                if ev in old:
                    continue
                text = "\n".join(str(ev.get(k) or "") for k in ("summary", "description") if ev.get(k))
                people = tuple(str(a).lower() for a in ev.get("attendees") or [])
                out.append(Place(f"{path}: event {ev.get('summary')!r}", text, str(ev.get("summary") or ""), people))
    if state.answer:
        out.append(Place("the answer", str(state.answer)))
    return [p for p in out if p.text.strip()]


def scope_of(state: EvalState, place: Place) -> Scope:
    """What any text of the task may state: the instruction's and the gold's values, the agent's own new
    events, today, the user and the place's addressees."""
    if "truth_scope" not in state.memo:
        claims = claims_in(state.instruction, year=state.year, dotted_times=True)
        if state.now is not None:
            claims.append(Claim("number", float(state.now.year), str(state.now.year)))
        texts = [*gold_written(state), str(state.gold_answer or "")]
        written = [c for t in texts for c in claims_in(t, year=state.year, dotted_times=True)]
        records = records_of(state)
        about = [pair for t in texts for pair in statements_about(t, records, state.year, [state.user or ""])] \
            if records is not None else []
        state.memo["truth_scope"] = (claims, written, about)
    office_memo(state)
    given, written, about = state.memo["truth_scope"]
    addresses = [Claim("email", a, a) for a in [state.user or "", *place.neutral] if a]
    if "changed_cells" not in state.memo:
        state.memo["changed_cells"] = changed_cells(state.before or {}, state.gold or {}, state.year) \
            if state.before is not None and state.gold else {}
        state.memo["done_cells"] = changed_cells(state.before or {}, state.files, state.year) \
            if state.before is not None and state.memo["changed_cells"] else {}
    if "given_roles" not in state.memo:
        gold_roles = given_roles(state.before or {}, state.gold or {})
        done_roles = given_roles(state.before or {}, state.files or {})
        state.memo["given_roles"] = {k: gold_roles.get(k, frozenset()) | done_roles.get(k, frozenset())
                                     for k in {*gold_roles, *done_roles}}
    totals = [Claim("number", t, f"{t:.2f}") for t in set_totals_of(state)]
    if "counted_work" not in state.memo:
        state.memo["counted_work"] = work_of(state, [*given, *written])
    if "own_events" not in state.memo:
        state.memo["own_events"] = calendar_events(state.files, state.before)
    return Scope(claims=[*given, *addresses, *totals], events=state.memo["own_events"], written=written, about=about,
                 now=state.now, year=state.year,
                 known=state.memo.get("known_ids"), changed=state.memo["changed_cells"],
                 done=state.memo["done_cells"], roles=state.memo["given_roles"], work=state.memo["counted_work"],
                 texts=(state.instruction, *gold_written(state), str(state.gold_answer or "")),
                 stated_limit=lambda c, text: _stated_with_words(c, text, state))


def work_of(state: EvalState, given: list[Claim]) -> Work:
    """What a count in the agent's text may be of: the rows the episode and the gold changed, the meetings
    the episode booked, the whole numbers the task's and the gold's texts state."""
    before = state.before or {}
    booked = set()  # one meeting, whichever calendars hold it
    for path, entry in (state.gold or {}).items():
        if entry.get("kind") == "ics":
            old = (before.get(path) or {}).get("events") or []
            booked |= {(ev.get("summary"), str(ev.get("start"))) for ev in entry.get("events") or [] if ev not in old}
    events = []
    for ev in made_events(state):
        try:
            day = datetime.fromisoformat(str(ev.get("start") or "")).date()
        except ValueError:
            continue
        events.append((f"{ev.get('summary') or ''} {ev.get('description') or ''}"[:500], day))
    whole = frozenset(int(float(c.value)) for c in given if c.kind == "number" and not c.currency
                      and float(c.value).is_integer() and 0 <= float(c.value) < 10_000)
    return Work(rows_done=changed_rows(before, state.files) if state.before is not None else (),
                rows_gold=changed_rows(before, state.gold or {}) if state.before is not None else (),
                events=tuple(dict.fromkeys(events)), gold_events=len(booked), given=whole,
                named_rows=(named_rows(before, state.files) | named_rows(before, state.gold or {}))
                if state.before is not None else frozenset())


def episode_of(state: EvalState) -> Episode:
    """What the episode did that a sentence may claim: each new mail and whom it went to, an
    attachment, an event, a changed file."""
    did: set[str] = set()
    mails = []
    before = state.before or {}
    user = (state.user or "").lower()
    earlier = frozenset(str(a).lower() for e in before.values() if e.get("kind") == "eml"
                        and str(e.get("from") or "").lower() == user for a in [*(e.get("to") or []), *(e.get("cc") or [])])
    for path, entry in state.files.items():
        if not state.written(path):
            continue
        kind = entry.get("kind")
        if kind == "eml" and path not in before:
            did.add("mail")
            mails.append((mail_key(entry), frozenset(str(a).lower() for a in [*(entry.get("to") or []), *(entry.get("cc") or [])])))
            if entry.get("attachments"):
                did.add("attachment")
        elif kind == "ics":
            did.add("event")
        elif kind != "eml":  # a register or tracker may be a workbook, a document or a text file
            did.add("file")
    forwarded = frozenset(o for p, e in state.files.items() if state.written(p) and e.get("kind") == "eml"
                          and p not in before and (o := forwarded_from(e)))
    # the office's registers, trackers and documents by their own names (not a folder of PDFs, one per item)
    kept = ("xlsx", "docx", "text", "csv")

    def named(path: str, entry: dict) -> str:  # a file's own name and its sheets' names
        return f"{path.rpartition('/')[2]} {' '.join(entry.get('sheet_order') or entry.get('sheets') or [])}"

    records_of_office = [named(p, e) for p, e in {**before, **state.files}.items() if e.get("kind") in kept]
    changed = [named(p, e) for p, e in state.files.items() if state.written(p) and e.get("kind") in kept]
    files = {p: record_words([named(p, e)]) for p, e in {**before, **state.files}.items() if e.get("kind") in kept}
    copied = any(set(str(a).lower() for a in e.get("cc") or []) - {user} for p, e in state.files.items()
                 if state.written(p) and e.get("kind") == "eml" and p not in before)
    addressed = frozenset(str(a).lower() for p, e in state.files.items()
                          if state.written(p) and e.get("kind") == "eml" and p not in before for a in e.get("to") or [])
    forwarded_to = frozenset(str(a).lower() for p, e in state.files.items()
                             if state.written(p) and e.get("kind") == "eml" and p not in before and forwarded_from(e)
                             for a in [*(e.get("to") or []), *(e.get("cc") or [])])
    return Episode(frozenset(did), tuple(dict.fromkeys(mails)), earlier, user.partition("@")[2], forwarded,
                   record_words(records_of_office), record_words(changed),
                   tuple((words, state.written(p) and p in state.files) for p, words in files.items()), copied,
                   addressed, forwarded_to)


def user_events(state: EvalState) -> list[dict]:
    """The events of the user's calendar after the episode."""
    if "user_events" not in state.memo:
        user = (state.user or "").lower()
        state.memo["user_events"] = [ev for p, e in state.files.items() if e.get("kind") == "ics"
                                     and (not user or user.partition("@")[0] in p.lower())
                                     for ev in e.get("events") or []]
    return state.memo["user_events"]


def made_events(state: EvalState) -> list[dict]:
    """The events the episode made or changed (in a calendar it wrote, not among the initial office's)."""
    if "made_events" not in state.memo:
        before, out = state.before or {}, []
        for path, entry in state.files.items():
            if entry.get("kind") != "ics" or not state.written(path):
                continue
            old = (before.get(path) or {}).get("events") or []
            out += [ev for ev in entry.get("events") or [] if ev not in old]
        state.memo["made_events"] = out
    return state.memo["made_events"]


# who a booked meeting is said to be with: "booked for Tuesday at 14:00, with me and Amara Wolff from HR",
# "Sven Rahman will join us"
# "with me and Amara Wolff", "with you, Mei and Talia Rossi": the people before it in the list are named too
_WITH = re.compile(r"(?i)\bwith\s+(?:(?:me|us|you|[a-z]+(?:\s+[a-z]+)?)\s*(?:,\s*(?:and\s+)?|\s+and\s+))*(?:me\s+and\s+|"
                   r"us\s+and\s+|you\s+and\s+)?$")
_WILL_JOIN = re.compile(r"(?i)^\s*(?:\([^)]{0,30}\)\s*|from [A-Z]{2,5}\s+|of [A-Za-z ]{2,20}\s+)?(?:will|is going to)\s+"
                        r"(?:also\s+)?(?:join|attend|be there|sit in|be joining|be attending|be sitting in)\b")
# a sentence that speaks of the meeting the one before it gave: "Arjun Tanaka will be joining us for it as well"
_REFERS_BACK = re.compile(r"(?i)\b(?:for it|to it|in it|at it|the (?:meeting|review|call|session|invite|invitation))\b")


_WITH_SOMEONE = re.compile(r"(?i)\bwith\b|\b(?:will|is going to)\s+(?:also\s+)?(?:join|attend|be there|sit in|be joining|"
                           r"be attending)\b")


def attendee_problems(text: str, state: EvalState) -> list[str]:
    """A person a sentence says a meeting the episode booked is with ("with me and Amara Wolff") who is
    not among that meeting's attendees: the meeting is the one of the day or time the sentence gives."""
    events = made_events(state)
    if not events:
        return []
    directory = directory_of(state)
    user = (state.user or "").lower()
    out = []
    last: set = set()  # the days and times the sentence before gave
    for sentence in _SENTENCE_BREAK.split(text)[:2_000]:
        said = {c.value for c in claims_in(sentence, year=state.year, kinds=("date", "time"))}
        before, last = last, said
        if not _WITH_SOMEONE.search(sentence):
            continue  # only a sentence that says whom a meeting is with is read for names
        people = directory.persons_in(sentence)
        if not people:
            continue
        if not said and _REFERS_BACK.search(sentence):
            said = before
        if not said:
            continue
        meetings = [ev for ev in events if said & {c.value for c in claims_in(
            f"{ev.get('start') or ''}", year=state.year, kinds=("date", "time"))}]
        if not meetings:
            continue
        invited = {str(a).lower() for ev in meetings for a in ev.get("attendees") or []} | {user}
        for m, address in people:
            with_them = _WITH.search(sentence[max(0, m.start - 60):m.start]) or _WILL_JOIN.match(sentence[m.end:])
            if with_them and address.lower() not in invited:
                out.append(f"{' '.join(sentence.split())[:90]!r} says the meeting is with {m.value}, who is not "
                           "invited to it")
    return out


def _times_of(ev: dict, year: int | None) -> frozenset:
    return frozenset(c.value for c in claims_in(f"{ev.get('start') or ''} {ev.get('end') or ''}", year=year,
                                                 kinds=("time",)))


def new_event_days(state: EvalState) -> frozenset:
    """The days the events the episode made or changed start or end on."""
    if "event_days" not in state.memo:
        state.memo["event_days"] = frozenset(
            c.value for ev in made_events(state)
            for c in claims_in(f"{ev.get('start') or ''} {ev.get('end') or ''}", year=state.year, kinds=("date",))
            if isinstance(c.value, date))
    return state.memo["event_days"]


def new_event_times(state: EvalState) -> frozenset:
    """The start and end times of the events the episode made or changed (what "I've booked 9:00-10:00"
    may say)."""
    if "event_times" not in state.memo:
        state.memo["event_times"] = frozenset(t for ev in made_events(state) for t in _times_of(ev, state.year))
    return state.memo["event_times"]


_TODAY_SAID = re.compile(r"(?i)\b(?:today|now|as of|as at|this morning)\b[,:]?\s*(?:[A-Za-z]+,?\s+)?$")
_EVENT_WORDS = re.compile(r"(?i)\b(?:meeting|call|review|session|slot|invite|invitation|booked|booking|calendar|event|"
                          r"appointment|catch-?up|welcome|interview|workshop)s?\b")


def _made_titled(state: EvalState) -> list[tuple[dict, str, frozenset[str]]]:
    """The events the episode made or changed, each with its title and the keys its title names."""
    records = records_of(state)
    return [(ev, title, frozenset(k for k in (records.keys_in(title) if records is not None else ()) if "@" not in k))
            for ev in made_events(state) for title in [str(ev.get("summary") or "")]]


def new_events(state: EvalState) -> list[tuple[str, frozenset, frozenset[str]]]:
    """The events the episode made or changed: (title, its start and end times, the keys its title names)."""
    if "new_events" not in state.memo:
        state.memo["new_events"] = [(title, _times_of(ev, state.year), keys) for ev, title, keys in _made_titled(state)]
    return state.memo["new_events"]


# a length the instruction replaces: "make them all 45 minutes rather than an hour"
_SUPERSEDED = re.compile(r"(?i)\b(?:rather than|instead of|not|no longer|no more than|rather than the)\s+$")


def event_durations(state: EvalState) -> tuple[frozenset[int], frozenset[int]]:
    """How many minutes the events the episode made last, and the lengths in minutes the instruction and
    the gold's texts give (what a mail may say of the meetings booked)."""
    if "event_durations" not in state.memo:
        made = set()
        for ev in made_events(state):
            start, end = as_datetime(ev.get("start")), as_datetime(ev.get("end"))
            if isinstance(start, datetime) and isinstance(end, datetime) and end > start:
                made.add(int((end - start).total_seconds() // 60))
        texts = [state.instruction, *gold_written(state), str(state.gold_answer or "")]
        said = [(t, m) for t in texts for m in _MINUTES.finditer(t)]
        # a length the instruction later replaces ("make them all 45 minutes rather than an hour") is no
        # longer one the meetings have, wherever else it was said
        replaced = {_minutes(m) for t, m in said if _SUPERSEDED.search(t[max(0, m.start() - 20):m.start()])}
        given = {_minutes(m) for _t, m in said} - replaced
        state.memo["event_durations"] = (frozenset(made), frozenset(given))
    return state.memo["event_durations"]


def event_starts(state: EvalState) -> dict[str, frozenset]:
    """The start times of the events the episode made or changed, by title."""
    out: dict[str, set] = {}
    for ev in made_events(state):
        start = as_datetime(ev.get("start"))
        if isinstance(start, datetime):
            out.setdefault(str(ev.get("summary") or ""), set()).add(start.time().replace(second=0, microsecond=0))
    return {k: frozenset(v) for k, v in out.items()}


# "at 10:00" is when a meeting starts, unless the words before say it ends then
_AT_START = re.compile(r"(?i)\bat\s*$")
_ENDS_BEFORE = re.compile(r"(?i)\b(?:until|till|end\w*|finish\w*|by|before|to|through)\b[^,;.]{0,20}$|[-–—]\s*$")


def event_time_problems(text: str, events: list[tuple[str, frozenset, frozenset[str]]], records: Records,
                        starts: dict[str, frozenset] | None = None) -> list[str]:
    """A time said of an event the episode made that is neither its start nor its end ("His welcome
    meeting is at 09:30" where the welcome event made is 11:00-11:30). The event is the one the sentence
    names (or, where the text names one event only, the one its title's first word names); a sentence
    about several events, or with no word of a meeting, is left alone."""
    if not events:
        return []
    mentioned = [ev for ev in events if ev[2] and ev[2] & set(records.keys_in(text))]
    out = []
    at = 0
    for sentence in _SENTENCE_BREAK.split(text):
        at = max(text.find(sentence, at), 0)
        times = claims_in(sentence, year=None, kinds=("time",))
        # a list item under "The five reviews are booked:" speaks of meetings through its heading
        line_end = text.find("\n", at)
        if not times or not (_EVENT_WORDS.search(sentence) or _EVENT_WORDS.search(
                heading_over(text, len(text) if line_end < 0 else line_end) or "")):
            continue
        keys = set(records.keys_in(sentence))
        named = [ev for ev in events if ev[2] and ev[2] & keys]
        if not named and len(mentioned) == 1:
            head = re.match(r"\s*([A-Za-z]+)", mentioned[0][0].split(":")[0])
            if head and re.search(rf"(?i)\b{re.escape(head.group(1))}\b", sentence):
                named = mentioned
        if len(named) != 1 or not named[0][1]:
            continue
        title, own, _keys = named[0]
        begins = (starts or {}).get(title)
        if begins and any(_AT_START.search(sentence[max(0, t.start - 4):t.start]) and
                          not _ENDS_BEFORE.search(sentence[max(0, t.start - 30):t.start - 3]) and t.value not in begins
                          for t in times) and not any(t.value in begins for t in times):
            out.append(f"{' '.join(sentence.split())[:90]!r} gives {times[0].text.strip()} as when {title!r} starts, but "
                       f"the event the episode made starts at {', '.join(sorted(t.strftime('%H:%M') for t in begins))}")
            continue
        if not any(t.value in own for t in times):
            out.append(f"{' '.join(sentence.split())[:90]!r} gives {times[0].text.strip()} for {title!r}, but the event "
                       f"the episode made is at {', '.join(sorted(t.strftime('%H:%M') for t in own))}")
    return out


def new_event_dates(state: EvalState) -> list[tuple[str, frozenset, frozenset[str]]]:
    """The events the episode made or changed: (title, the days it starts and ends on, the keys its title
    names)."""
    if "new_event_dates" not in state.memo:
        state.memo["new_event_dates"] = [
            (title, frozenset(c.value for c in claims_in(f"{ev.get('start') or ''} {ev.get('end') or ''}",
                                                         year=state.year, kinds=("date",)) if isinstance(c.value, date)),
             keys) for ev, title, keys in _made_titled(state)]
    return state.memo["new_event_dates"]


_AWAY_WORDS = re.compile(r"(?i)\b(?:away|leave|off|holiday|absent|out of (?:the )?office)\b")
_CLAUSE_SPLIT = re.compile(r"(?i);|,\s+(?:and|but|then|while|so|which|as)\b|\s+(?:and|but|then)\s+(?=(?:\w+\s+){0,2}"
                           r"(?:finish|end|start|begin|close|follow|move|run)\w*\b)|\s[-–—]\s")


def event_day_problems(text: str, events: list[tuple[str, frozenset, frozenset[str]]], records: Records,
                       year: int | None) -> list[str]:
    """A date said of an event the episode made that is not its day ("finish with Beacon Hill Schools on
    Thursday 26 November" where that review was booked on the 27th, a table row of the bookings): read per
    clause that names exactly one of the events and speaks of meetings (itself, or the heading it stands
    under); a clause that proposes, moves or bounds a date is left alone."""
    if not events:
        return []
    out = []
    for st in cut(text[:20_000]):
        over = heading_over(text, st.end) or ""
        meeting = _EVENT_WORDS.search(st.text) or _EVENT_WORDS.search(over) or _EVENT_WORDS.search(text[:st.start])
        if not meeting:
            continue
        at = 0
        for clause in _CLAUSE_SPLIT.split(st.text) if st.form != "item" else [st.text]:
            at += 1
            days = [c for c in claims_in(clause, year=year, kinds=("date",)) if isinstance(c.value, date)]
            if not days or _DATE_OPEN.search(clause) or _AWAY_WORDS.search(clause):
                continue
            keys = set(records.keys_in(clause))
            named = [ev for ev in events if ev[2] and ev[2] & keys and ev[1]]
            if len(named) != 1 or any(not ev[2] & keys for ev in named):
                continue
            title, own, _keys = named[0]
            if not any(d.value in own for d in days):
                out.append(f"{' '.join(clause.split())[:100]!r} gives {days[0].text.strip()} for {title!r}, but the "
                           f"event the episode made is on {', '.join(sorted(d.isoformat() for d in own))}")
    return list(dict.fromkeys(out))


# what, between an event's title and a time, makes the time another thing's ("after Operations weekly,
# Luca's intro at 11:30") or a change ("Operations weekly moves to 11:00")
_NOT_ITS_TIME = re.compile(r"(?i)\b(?:after|before|then|until|till|once|following|intro\w*|welcome|slot|booked|book|"
                           r"rebook\w*|mov\w*|instead|new|now|with|your|his|her|their|my|next|free|available|"
                           r"reschedul\w*|could|would|shall|and|or|but)\b|[;?]")


def office_event_time_problems(text: str, records: Records, year: int | None,
                               made: list[tuple[str, frozenset, frozenset[str]]] = ()) -> list[str]:
    """A time given, right after its title, to an event of the office that is at no such time
    ("Operations weekly, 11:00-12:00 in the Harbour Room" where every Operations weekly is 10:00-11:00):
    the event is named by its title, the time follows within a few words with nothing between that makes
    it another thing's or a change; a range is read as a start and an end (``made``: the events the
    episode made or moved, whose times count too)."""
    out = []
    for sentence in _SENTENCE_BREAK.split(text):
        times = claims_in(sentence, year=year, kinds=("time",))
        if not times:
            continue
        for key, (start, end) in records.keys_in(sentence).items():
            events = [records.entities[i] for i in records.by_key.get(key, ()) if records.entities[i].collection == "event"]
            starts = {a.value for e in events for label, a in e.attributes if label == "start" and a.kind == "time"}
            ends = {a.value for e in events for label, a in e.attributes if label == "end" and a.kind == "time"}
            if not starts:
                continue
            moved = {t for _title, at, keys in made if key in keys for t in at}
            after = [t for t in times if t.start >= end]
            if not after or after[0].start - end > 45:
                continue
            gap = sentence[end:after[0].start]
            if _NOT_ITS_TIME.search(gap) or records.keys_in(gap):
                continue
            ranged = len(after) > 1 and re.fullmatch(r"\s*(?:-|–|—|to|until)\s*", sentence[after[0].end:after[1].start])
            if ranged:
                wrong = not (after[0].value in starts | moved and after[1].value in ends | moved)
            else:
                wrong = after[0].value not in starts | ends | moved
            if wrong:
                said = sentence[after[0].start:after[1].end if ranged else after[0].end]
                out.append(f"{' '.join(sentence.split())[:90]!r} gives {said.strip()} for {sentence[start:end]!r}, but the "
                           f"office's {sentence[start:end]!r} is at {', '.join(sorted(t.strftime('%H:%M') for t in starts)[:3])}"
                           f"-{', '.join(sorted(t.strftime('%H:%M') for t in ends)[:3])}")
    return out


_MINUTES = re.compile(r"(?i)\b(?:(\d{1,3})[ -]?(?:min|mins|minutes?)|(\d(?:\.5)?)[ -]?(?:hours?|hrs?)|"
                      r"(half[ -]an[ -]hour|half-hour)|((?:an|one|a full|a whole)[ -]hour))\b")


def _minutes(m: re.Match) -> int:
    """The minutes a ``_MINUTES`` match says: "45 minutes", "1.5 hours", "half an hour", "an hour"."""
    return int(m.group(1)) if m.group(1) else int(float(m.group(2)) * 60) if m.group(2) else 30 if m.group(3) else 60


_BOOKING = re.compile(r"(?i)\b(?:book\w*|schedul\w*|set up|arranged|invit\w*|blocked|put in)\b")


def event_lengths(events: list[dict]) -> dict[str, set[int]]:
    """Each title's lengths in minutes, of the calendar's events (what "our 45-minute Budget check-in" is)."""
    out: dict[str, set[int]] = {}
    for ev in events:
        start, end = as_datetime(ev.get("start")), as_datetime(ev.get("end"))
        title = str(ev.get("summary") or "").strip().lower()
        if title and isinstance(start, datetime) and isinstance(end, datetime) and end > start:
            out.setdefault(title, set()).add(int((end - start).total_seconds() // 60))
    return out


_ROOM = re.compile(r"\b(?:in|at)\s+(?:the\s+)?(?P<room>(?:[A-Z][\w'’-]*\s+){1,3}(?:Room|Suite|Hall|Boardroom|Lab|Studio|Lounge))\b")


def event_room_problems(text: str, events: list[dict], year: int | None) -> list[str]:
    """A room given to a meeting of the calendar that is not where it is ("our Site walk on Thursday 10
    December at 13:00 (meeting in the Anchor Room)" where it is in the Harbour Room): the meeting named by its
    title in the sentence, on the day the sentence gives where it repeats."""
    if not events:
        return []
    out = []
    for sentence in _SENTENCE_BREAK.split(text):
        rooms = list(_ROOM.finditer(sentence))
        if not rooms:
            continue
        lower = sentence.lower()
        named = [ev for ev in events if (t := str(ev.get("summary") or "").strip().lower()) and len(t) >= 4
                 and re.search(rf"\b{re.escape(t)}\b", lower)]
        if not named or len({str(ev.get("summary")).strip().lower() for ev in named}) != 1:
            continue
        days = {c.value for c in claims_in(sentence, year=year, kinds=("date",)) if isinstance(c.value, date)}
        on_day = [ev for ev in named if isinstance(as_datetime(ev.get("start")), datetime)
                  and as_datetime(ev.get("start")).date() in days] or named
        places = {fold(str(ev.get("location") or "")).strip() for ev in on_day} - {""}
        if not places:
            continue
        for m in rooms:
            room = fold(m.group("room")).strip()
            if not any(room in p or p in room for p in places):
                out.append(f"{' '.join(sentence.split())[:100]!r} puts {on_day[0].get('summary')!r} in {m.group('room')}, "
                           f"but the calendar has it in {', '.join(sorted(str(ev.get('location')) for ev in on_day))[:80]}")
    return list(dict.fromkeys(out))


def booked_duration_problems(text: str, events: list[tuple[str, frozenset, frozenset[str]]],
                             durations: frozenset[int], allowed: frozenset[int],
                             lengths: dict[str, set[int]] | None = None) -> list[str]:
    """A length given to the meetings the episode booked that none of them lasts ("your intro meetings,
    45 minutes each" where each intro made is 30 minutes): said in a sentence that books or names them
    (a word of their titles); ``allowed``: lengths the instruction and the gold's texts give."""
    if not durations:
        return []
    words = {w.lower() for title, _t, _k in events for w in re.findall(r"[A-Za-z]{4,}", title)}
    out = []
    for sentence in _SENTENCE_BREAK.split(text):
        for m in _MINUTES.finditer(sentence):
            minutes = _minutes(m)
            if minutes in durations or minutes in allowed:
                continue
            if any(minutes in own and title in sentence.lower() for title, own in (lengths or {}).items()):
                continue  # "our 45-minute Budget check-in": the length of a meeting the calendar holds
            said = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", sentence)}
            if not (_BOOKING.search(sentence) or said & words):
                continue
            out.append(f"{' '.join(sentence.split())[:90]!r} gives the meetings booked {m.group(0)}, but the events "
                       f"the episode made last {', '.join(f'{d} minutes' for d in sorted(durations)[:4])}")
    return out


# a date proposed, moved or asked about rather than stated as the meeting's
_DATE_OPEN = re.compile(r"(?i)\b(?:moved?|moving|reschedul\w*|instead|new|propose\w*|suggest\w*|could|would|can|shall|"
                        r"let's|how about|what about|free|available|until|by|before|after|since|if)\b|\?")


_OTHER_CLAUSE = re.compile(r"(?i),\s*(?:and|but|then|so)\b|;")
_MESSAGE_DATED = re.compile(r"(?i)\s*(?:e-?mails?|mails?|messages?|notes?|letters?|replies|reply|reminders?)\b")


def event_date_problems(text: str, people: Iterable[str], events: list[dict], records: Records,
                        year: int | None) -> list[str]:
    """A day (or a start time) said of a meeting that is not its own ("ahead of our quarterly call on
    Monday 23 November" in the mail to Saltmarsh's manager, where the calendar's "Quarterly call:
    Saltmarsh Cleaning" is on 24 November; "- Upland Outdoor: account review Wednesday 23 December at
    14:00" where it starts at 15:30). The meeting is the one event of the user's calendar that shares a
    meeting word with the sentence and whose title names a party the sentence names, else is the
    addressees' (one of them is invited, or its title names a party whose records carry one of their
    addresses); a sentence that names several such events, or proposes or moves a day, is left alone."""
    people = {p.lower() for p in people}
    if not events:
        return []
    theirs, titled = [], []
    for ev in events:
        title = str(ev.get("summary") or "")
        start = as_datetime(ev.get("start"))
        if not isinstance(start, datetime):
            continue
        parts = {**records.keys_in(title), **records.keys_in(title.rpartition(":")[2])}  # "Account review: Upland"
        parties = {key for key in parts if not key.startswith("#") and "@" not in key}
        if parties:
            titled.append((title, start, parties))
        if not people:
            continue
        invited = people & {str(a).lower() for a in ev.get("attendees") or []}
        named = {k for key in parties for i in [*records.by_key.get(key, ())[:50], *records.masters(key)]
                 for k in records.entities[i].keys if "@" in k}
        if invited or people & named:
            theirs.append((title, start, bool(people & named)))
    if any(by_party for *_x, by_party in theirs):
        theirs = [t for t in theirs if t[2]]  # the party's own meeting before one the colleague is invited to
    out = []
    for sentence in _SENTENCE_BREAK.split(text):
        dates = [c for c in claims_in(sentence, year=year, kinds=("date",)) if isinstance(c.value, date)]
        if not dates:
            continue
        here = {k for k in records.keys_in(sentence) if not k.startswith("#") and "@" not in k} if titled else set()
        by_name = [(t, d, True) for t, d, parties in titled if parties & here]
        for m in _EVENT_WORDS.finditer(sentence):
            # the day written right after the meeting's word ("our quarterly call on Monday 23 November")
            said = [c for c in dates if 0 <= c.start - m.end() <= 40]
            if not said or _DATE_OPEN.search(sentence[max(0, m.start() - 30):said[0].end + 12]):
                continue
            if _OTHER_CLAUSE.search(sentence, m.end(), said[0].start) or _MESSAGE_DATED.match(sentence, said[0].end):
                continue  # "swapped you in on the review invite, and forwarded Aiko Roth's 4 November email"
            if _TODAY_SAID.search(sentence, max(m.end(), said[0].start - 20), said[0].start):
                continue  # "the agenda for next week's call (day counts as of today, 16 November)": today's date
            word = m.group(0).casefold().rstrip("s")
            about = [t for t in (by_name or theirs) if word in {w.casefold().rstrip("s") for w in _EVENT_WORDS.findall(t[0])}]
            if not about or len({d.date() for _t, d, _p in about}) != 1:
                continue
            title, start, _p = about[0]
            if said[0].value != start.date():
                out.append(f"{' '.join(sentence.split())[:90]!r} gives {said[0].text.strip()} for {title!r}, "
                           f"which the calendar has on {start:%A %d %B %Y}")
            elif len(about) == 1:
                at = _TIME_AT.match(sentence, said[0].end)
                told = claims_in(at.group(1), year=year, kinds=("time",)) if at else []
                if told and isinstance(told[0].value, time) and told[0].value != start.time().replace(second=0):
                    out.append(f"{' '.join(sentence.split())[:90]!r} gives {told[0].text.strip()} for {title!r}, "
                               f"which the calendar has at {start:%H:%M}")
            break
    return out


_TIME_AT = re.compile(r"(?i),?\s*(?:at|from)\s+(\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?)")


def booked_time_problems(text: str, times: frozenset, days: frozenset = frozenset(), year: int | None = None) -> list[str]:
    """A booking claimed at a time (or on a day) none of the episode's new events starts or ends at ("I've
    blocked tomorrow 14:00-15:00" where the event made is 9:00-10:00; "I've pencilled in a review for
    Monday 9 November" where none was made that day)."""
    if not times:
        return []
    out = []
    for claim in action_claims(text):
        if claim.shows != "event":
            continue
        at = claim.sentence.find(claim.words)
        after = claim.sentence[at + len(claim.words):] if at >= 0 else ""
        said = claims_in(after, year=None, kinds=("time",))
        if said and not any(c.value in times for c in said):  # "moved the 14:00 call to 9:00" names both
            out.append(f"{claim.sentence.strip()[:90]!r} claims a booking at {said[0].text.strip()}, but no event "
                       "the episode made starts or ends then")
            continue
        on = [c for c in claims_in(after, year=year, kinds=("date",)) if isinstance(c.value, date)]
        if days and on and not any(c.value in days for c in on):
            out.append(f"{claim.sentence.strip()[:90]!r} claims a booking on {on[0].text.strip()}, but no event "
                       "the episode made is on that day")
    return out


_CONTACT_COLUMN = re.compile(r"(?i)\b(?:manager|contact|owner|rep|representative|person|name|lead|account)\b")
_TEAM_COLUMN = re.compile(r"(?i)^(?:team|department|dept)$")
# whom a passive claim of a mail names before its verb: "Finance was asked to hold the unpaid invoices"
_PASSIVE_WHOM = re.compile(r"(?i)\s+(?:team\s+)?(?:was|were|has been|have been)\s+(?:also\s+|already\s+|then\s+)?"
                           r"(?:asked|told|informed|notified|e-?mailed|contacted|copied|cc'?e?d|chased|reminded|sent)\b")
_COPIED_BEFORE = re.compile(r"(?i)\b(?:copied|cc'?e?d)\s+(?:in\s+)?(?:the\s+)?$")
_TO_WHOM = re.compile(r"\b(?i:to|with|contacted|emailed|told|informed|notified|asked|sent|given|gave|mailed|"
                      r"served|wrote)\s+(?i:the\s+)?"
                      r"(?:[A-Z][\w&'’.-]*\s+){0,5}(?:(?:and|&|,)\s+(?:[A-Z][\w&'’.-]*\s+){0,5})*$")


# a sentence's first word that names no one: "All owners have been emailed" is not the All-staff list
_DETERMINERS = frozenset({"all", "every", "each", "both", "the", "this", "these", "those", "our", "your", "any", "some",
                          "most", "everyone", "everybody"})


def _claim_checks(state: EvalState, records: Records):
    """What an action claim is read against: whom a sentence names (their addresses in the records),
    the verbs the task says were done, and whether the office's text about what a sentence names
    states the verb."""
    if "action_scope" not in state.memo:
        texts = [state.instruction, *gold_written(state), str(state.gold_answer or "")]
        state.memo["action_scope"] = claimed_stems(texts) | set(re.findall(r"[a-z]+", state.instruction.lower()))
    office_memo(state)
    names: str = state.memo["names"]
    # what the episode recorded: the files it changed (an invoice marked "Held" in the register)
    changed = "\n".join(document_text(e) for p, e in state.files.items()
                        if state.written(p) and e.get("kind") != "eml").casefold()

    directory = directory_of(state)
    home = (state.user or "").partition("@")[2] or "\0"

    def contacts(sentence: str) -> dict[str, frozenset[str]]:
        # a contact's full name the records give beside an address ("Esme Lin", a supplier's account
        # manager): that address, and her first name is no one else's here
        out = {}
        for key in records.keys_in(sentence):
            if " " not in key or key.startswith("#") or "@" in key or len(key.split()) > 3:
                continue
            rows = [records.entities[i] for i in records.by_key.get(key, ())[:4]]
            if rows and all(any(own == key and _CONTACT_COLUMN.search(label) for label, own in e.names) for e in rows):
                addresses = frozenset(k for e in rows for k in e.keys if "@" in k)
                if addresses:
                    out[key] = addresses
        return out

    def people_named(sentence: str) -> list[frozenset[str]]:
        found = contacts(sentence)
        groups = [frozenset({address}) for _m, address in directory.persons_in(sentence)] + list(found.values())
        covered = {w for k in found for w in k.split()} | {
            w.casefold() for m, _a in directory.persons_in(sentence) for w in str(m.value).split()}
        for w in dict.fromkeys(re.findall(r"\b[A-Z][a-z]{2,}\b", sentence)):
            if w.casefold() not in covered and (people := frozenset(p.address for p in directory.named(w))):
                groups.append(people)
        return groups

    def named(sentence: str, anywhere: bool = False) -> set[str]:
        # full names first ("Mei Lovell" is not Mei Lund); a first name alone names whoever has it
        found = contacts(sentence)
        covered = {w for k in found for w in k.split()}
        out: set[str] = {address for _m, address in directory.persons_in(sentence)} or \
            {p.address for w in re.findall(r"\b[A-Z][a-z]{2,}\b", sentence) if w.casefold() not in covered
             and w.casefold() not in _DETERMINERS for p in directory.named(w)}
        out |= {a for addresses in found.values() for a in addresses}
        for key, (start, _end) in records.keys_in(sentence).items():
            if key.startswith("#") or "@" in key:
                out.add(key) if "@" in key else None
                continue
            # a person it names; a thing it names only where it is whom something went to ("sent notices to
            # Yarrow Energy"), not what was sent ("sent the Acme Tools figures to finance")
            to_it = anywhere or _TO_WHOM.search(sentence[max(0, start - 80):start]) is not None
            for i in records.named(key):
                if records.entities[i].collection == "person":
                    out |= {k for k in records.entities[i].keys if "@" in k}
            if to_it:  # a party named in many mails: the addresses its rows carry (its contacts)
                out |= {k for i in records.by_key.get(key, [])[:500] for k in records.entities[i].keys
                        if "@" in k and not k.endswith("@" + home) and records.entities[i].collection != "mail"}
            if to_it or _PASSIVE_WHOM.match(sentence, _end) or _COPIED_BEFORE.search(sentence[max(0, start - 30):start]):
                # a team of the office ("Finance was asked to hold them", "I've copied HR"): its people
                out |= {k for i in records.by_key.get(key, [])[:500] for k in records.entities[i].keys if "@" in k
                        and any(_TEAM_COLUMN.search(label) and own == key for label, own in records.entities[i].names)}
        return out

    # the gold's claims of actions done, each with the identifiers its sentence (else its message) names
    gold_claims = [(c, {k for k in records.keys_in(c.sentence) if k.startswith("#")}
                    or {k for k in records.keys_in(t) if k.startswith("#")})
                   for t in [*gold_written(state), str(state.gold_answer or "")] for c in action_claims(t)]

    def recorded(sentence: str, verb: str) -> bool | None:
        stem = verb[:4]
        # "EU-2608-0270 and UF-2608-0285 have already been paid": each item the sentence names before the
        # verb has a value under a column of that name (a Paid date)
        at = sentence.find(verb)
        ids = [k for k in records.keys_in(sentence[:at] if at > 0 else sentence) if k.startswith("#")] or \
            [k for k in records.keys_in(sentence) if k.startswith("#")]
        if ids and all(any(stem in label.casefold() for i in records.named(k)
                           for label, _a in records.entities[i].attributes) for k in ids):
            return True
        # "(I raised this one myself)": the item's row names the user under a column of that verb ("Raised by")
        me = name_key(state.user_name or "")
        if me and ids and re.search(r"\bI\b", sentence) and _BY_WHOM_VERB.search(verb) and all(
                any(own == me and _BY_WHOM.search(label) for i in records.named(k) for label, own in records.entities[i].names)
                for k in ids):
            return True
        # the task says it was done of other items only ("we refunded £150.00 on 6 October" of SO-71904), not
        # of the one this sentence names
        elsewhere = [named_ids for c, named_ids in gold_claims if verb_of(c)[:4] == stem]
        if ids and elsewhere and all(e and not e & set(ids) for e in elsewhere):
            return False
        # the row of an item it names has that column empty: its record says it is not done ("I have already
        # refunded £867.00" on a return whose "Refunded on" is blank)
        if any(stem in label.casefold() for k in ids for i in records.named(k)
               for label in records.labels(records.entities[i].collection)):
            return False
        for key, (start, end) in records.keys_in(sentence).items():
            word = sentence[start:end].casefold()
            # a name ("ergonomic chair") stands in too many places; an item's identifier on a line of the
            # office's text, or of a file the episode wrote, that says the verb ("SO-71904 ... refunded")
            reach = 200 if key.startswith("#") else 0
            done = re.compile(rf"(?i)\b{re.escape(verb.split()[0].casefold())}\b")
            for text in (names, changed):
                at = text.find(word)
                for _ in range(20):
                    if at < 0:
                        break
                    if reach:  # within its own paragraph: the next message's "we have refunded" is another's
                        lo = max(0, at - reach, text.rfind("\n\n", max(0, at - reach), at))
                        hi = text.find("\n\n", at, at + reach)
                        hi = at + reach if hi < 0 else hi
                    else:  # its own line, at most 400 characters around it
                        lo, hi = text.rfind("\n", max(0, at - 400), at) + 1, text.find("\n", at, at + 400)
                        lo, hi = max(lo, at - 400), at + 400 if hi < 0 else hi
                    if done.search(text, lo, hi):  # "refunded", not a customer's "could you refund it"
                        return True
                    at = text.find(word, at + 1)
        return None  # the records say nothing of it

    return named, state.memo["action_scope"], recorded, people_named


_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|\n")  # the sentences of a mail's counts and notes

_ATTACHED_COUNT = re.compile(
    r"(?i)(?<![\w.,£$€])(?P<n>\d{1,3}|" + "|".join(NUMBER_WORDS) + r")\s+(?:[a-z'’-]+\s+){0,3}?(?P<noun>[a-z]{3,}s)\b")


def attached_counts(text: str, attached: int, rows: int | None = None) -> list[str]:
    """A sentence that counts the files it says are attached ("Attached are the seven invoices") over
    another number than the message carries (or than the rows of the one workbook it carries)."""
    out = []
    if not attached:
        return out
    for sentence in _SENTENCE_BREAK.split(text):
        for m in _ATTACHED_COUNT.finditer(sentence):
            # what is attached: "attached are the 7 invoices", "I attach 7 invoices", "7 invoices are attached"
            lead = re.search(r"(?i)\battach(?:ed|ing)?\b((?:\s+(?:are|is|you'll find|you will find|here|all|the|"
                             r"our|my|both|please find))*)\s*$", sentence[:m.start()])
            trail = re.match(r"(?i)\s+(?:are|is|were|have been|has been)?\s*attached\b", sentence[m.end():])
            if not (lead or trail) or MEASURE.match(" " + m.group("noun")):
                continue
            n = m.group("n").lower()
            n = NUMBER_WORDS[n] if n in NUMBER_WORDS else int(n)
            if n != attached and n != rows:
                out.append(f"{' '.join(sentence.split())!r} counts {n} {m.group('noun')} attached, but the message "
                           f"carries {attached} file(s)")
    return out


_THIS_MESSAGE = re.compile(r"(?i)\b(?:this|below|here|forward(?:ed|ing)?|attached|enclosed)\b")
_OTHER_MESSAGE = re.compile(r"(?i)\b(?:other|another|separately|next|earlier|previous|later)\b")


def forward_note_problems(note: str, origin: str, named: Callable[..., set[str]]) -> list[str]:
    """A forward's note that says whom the message is from ("this one from Upland Outdoor") where the
    message it carries came from another party (neither that person nor that organisation's domain)."""
    out = []
    for sentence in _SENTENCE_BREAK.split(note):
        if not _THIS_MESSAGE.search(sentence) or _OTHER_MESSAGE.search(sentence):
            continue  # "the other, from Dovetail Joinery, follows separately" is not about this one
        for m in re.finditer(r"(?i)\b(?:from|by)\s+(?:the\s+)?", sentence):
            rest = sentence[m.end():]
            party = re.match(r"(?:[A-Z][\w&'’.-]*)(?:\s+[A-Z][\w&'’.-]*){0,4}", rest)
            if not party:
                continue
            addresses = named(party.group(0), True)
            if addresses and origin not in addresses and \
                    origin.partition("@")[2] not in {a.partition("@")[2] for a in addresses}:
                out.append(f"{' '.join(sentence.split())!r} says the forwarded message is from {party.group(0)}, "
                           f"but it is from {origin}")
    return out


_LIST_OF = re.compile(r"(?i)\b(?:list|table|sheet|spreadsheet|workbook|summary|register|overview|file) (?:(?:of|with|showing)|"
                      # "the attached sheet lists all 16 products"
                      r"(?:lists|shows|covers|has|holds|contains|includes|gives)(?= (?:all|every one of)\b)) "
                      r"(?:the |all |all the |every one of the |these |those )?(?P<n>\d{1,3}|[a-z]+) (?P<noun>[a-z]+s)\b")


def listed_rows(text: str, rows: int | None) -> list[str]:
    """A sentence about the attached workbook that counts its items ("Attached is the list of the four
    contracts") over another number of rows than the workbook holds."""
    if rows is None:
        return []
    out = []
    for sentence in _SENTENCE_BREAK.split(text):
        if not re.search(r"(?i)\battach", sentence):
            continue
        for m in _LIST_OF.finditer(sentence):
            n = m.group("n").lower()
            n = NUMBER_WORDS.get(n) if not n.isdigit() else int(n)
            if n is not None and n != rows and not MEASURE.match(" " + m.group("noun")):
                out.append(f"{' '.join(sentence.split())!r} counts {n} {m.group('noun')}, but the attached workbook "
                           f"lists {rows}")
    return out


# where a sentence turns from what it says was recorded to what it says was left ("... and left PO-4789 open")
_CONTRAST = re.compile(r"(?i)\b(?:but|except|while|whereas|left|leaving|kept|apart from|other than|not|no|none|"
                       r"unchanged|untouched|still|instead)\b|;")


def _changed_sheet_rows(state: EvalState) -> Iterator[list]:
    """The rows the episode added or changed in the workbooks it wrote."""
    before = state.before or {}
    for path, entry in state.files.items():
        if entry.get("kind") != "xlsx" or not state.written(path):
            continue
        for name, rows in (entry.get("sheets") or {}).items():
            old = {tuple(r) for r in (((before.get(path) or {}).get("sheets") or {}).get(name) or [])}
            yield from (row for row in rows if tuple(row) not in old)


def changed_row_ids(state: EvalState) -> frozenset[str]:
    """The identifiers (``id_key``) in the sheet rows the episode added or changed, and in the lines it
    added to documents."""
    if "changed_row_ids" not in state.memo:
        found: set[str] = set()
        for row in _changed_sheet_rows(state):
            found |= {id_key(c.value) for cell in row if isinstance(cell, str)
                      for c in claims_in(cell, year=None, kinds=("id",))}
        for path, entry in state.files.items():  # a register kept as a document or a text file
            if entry.get("kind") not in ("xlsx", "eml", "ics", "image") and state.written(path):
                found |= {id_key(c.value) for c in claims_in(added_text(state, path)[:200_000], year=None, kinds=("id",))}
        state.memo["changed_row_ids"] = frozenset(found)
    return state.memo["changed_row_ids"]


# who did an item's first step, by its row ("Requested by": the user): "I raised this one myself"
_BY_WHOM_VERB = re.compile(r"(?i)^(?:raised|requested|placed|ordered|submitted|created|issued)$")
_BY_WHOM = re.compile(r"(?i)\b(?:by|owner|requester|raised|placed|created)\b")


def recorded_row_problems(text: str, state: EvalState, records: Records, to: tuple[str, ...] | None = None) -> list[str]:
    """A sentence that says an item was recorded ("I also marked PO-4789 as delivered") where the item's
    row in a workbook is one the episode did not change (every workbook row it names, up to a turn to
    what was left: "... and left PO-4789 open")."""
    out = []
    changed = None
    for claim in action_claims(text):
        if claim.shows != "file":
            continue
        at = claim.sentence.find(claim.words)
        after = claim.sentence[at + len(claim.words):] if at >= 0 else ""
        turn = _CONTRAST.search(after)
        after = after[:turn.start()] if turn else after
        said = [(key, after[start:end]) for key, (start, end) in records.keys_in(after).items()]
        if not said and " in " in claim.words:  # "noted Joel Ito's departure date in his directory entry"
            said = [(key, claim.words[start:end]) for key, (start, end) in records.keys_in(claim.words).items()]
        if not said:  # "I've updated Ada's number": the one person of the sheets with that first name
            said = [(key, m.group(1)) for m in _FIRST_NAME_OF.finditer(after[:60])
                    for key in [_by_first_name(records).get(m.group(1).casefold())] if key][:1]
        if not said and to and len(to) == 1 and re.search(r"(?i)(?<!thank )\byou(?:r)?\b", claim.sentence[:max(claim.sentence.find(claim.words), 0)]):
            # "your number has already been changed in the directory": the row of the one written to
            said = [(key, key.title()) for i in records.by_key.get(to[0], ())[:GENERIC]
                    for label, key in records.entities[i].names if label.casefold() in ("name", "full name", "employee")][:1]
            after = claim.sentence  # the record it names may stand before the verb ("The directory had ... so I've updated it")
        if not said and _THEIR.match(after):  # "I've marked his probation as extended": whom it points back to
            at_text = text.find(claim.sentence)
            earlier = text[max(0, at_text - 300):at_text] if at_text > 0 else ""
            said = [(key, earlier[start:end]) for key, (start, end) in records.keys_in(earlier).items()
                    if not key.startswith("#") and records.named(key)
                    and all(records.entities[i].collection != "person" for i in records.named(key))][-1:]
        for key, shown in said:
            rows = [i for i in records.named(key) if records.entities[i].collection.rpartition("#")[0].endswith((".xlsx", ".xlsm"))
                    and (key.startswith("#") or any(own == key for _l, own in records.entities[i].names))]
            if not rows or (not key.startswith("#") and not _RECORD_OF.search(claim.words + after)):
                continue  # a name is read only where the sentence names the record ("in the probation tracker")
            changed = changed_row_keys(state, records) if changed is None else changed
            if key not in changed:
                row = next((i for i in rows if state.written(records.entities[i].collection.rpartition("#")[0])), rows[0])
                out.append(f"{claim.sentence.strip()[:90]!r} says {shown} was {claim.words.lower()}, but "
                           f"the episode changed no row of it ({records.entities[row].name})")
    return out


# a line that heads a list of what the writer changed: "These recharges ... are now added:", "Updated rows:"
_DONE_HEADING = re.compile(r"(?i)\b(?:added|updated|amended|corrected|recorded|logged|entered|marked|flagged|changed|"
                           r"fixed|held|put on hold|placed on hold|inserted|booked in|transferred|reassigned|moved|"
                           r"handed over|now yours|are yours|taking over|take over|passed to|picking up|pick up)\b[^\n]*:\s*$")
_NOT_DONE = re.compile(r"(?i)\b(?:not|n't|never|will|would|should|need|needs|to be|yet to|left|still|already (?:in|there|had))\b")
_LIST_LINE = re.compile(r"^\s*(?:[-*•–]|\d{1,2}[.)])\s+\S")
LISTED_DONE = 50  # items read under one heading: bounded work


def listed_done_problems(text: str, state: EvalState, records: Records) -> list[str]:
    """An item listed under a heading that says the writer changed what it lists ("These recharges were
    missing and are now added:" over "- RENT-11-110") where the episode changed or added no row naming it,
    though it did change rows of other items of that list."""
    out: list[str] = []
    lines = text.splitlines()
    for n, line in enumerate(lines):
        if not _DONE_HEADING.search(line) or _NOT_DONE.search(line):
            continue
        items = []
        body = lines[n + 1:n + 1 + LISTED_DONE]
        while body and not body[0].strip():
            body = body[1:]
        table = bool(body) and body[0].count("|") >= 1 and not _LIST_LINE.match(body[0])
        for k, item in enumerate(body):
            if table:  # a table under the heading: its rows after the header line
                if item.count("|") < 1:
                    break
                if k == 0:
                    continue
            elif not _LIST_LINE.match(item):
                break
            keys = list(records.keys_in(item))
            # an item named by its identifier, else by the first name of a sheet row it gives
            ids = [k for k in keys if k.startswith("#")] or [k for k in keys if "@" not in k and any(
                records.entities[i].collection.rpartition("#")[0].endswith((".xlsx", ".xlsm")) for i in records.named(k))][:1]
            if ids:
                items.append((ids[0], item.strip()))
        if len(items) < 2:
            continue
        changed = changed_row_keys(state, records)
        if not any(key in changed for key, _i in items):
            continue
        for key, item in items:
            rows = [i for i in records.named(key) if records.entities[i].collection.rpartition("#")[0].endswith((".xlsx", ".xlsm"))]
            if rows and key not in changed:
                out.append(f"{item[:90]!r} is listed under {line.strip()[:60]!r}, but the episode changed no row "
                           f"of it ({records.entities[rows[0]].name})")
                break
    return out


# a number to reach the writer on: "ring me on +44 20 7946 2953", "my number is ...", "my direct line: ..."
_MY_NUMBER = re.compile(r"(?i)\b(?:(?:call|ring|phone|reach|text|contact|get me)\s+(?:me|us)|my\s+(?:direct\s+|mobile\s+|phone\s+|work\s+)?"
                        r"(?:number|line|phone|mobile|extension))\b[^.\n]{0,25}$")


def own_phone_problems(text: str, user: str, records: Records) -> list[str]:
    """A phone number given as the writer's own ("ring me on ...") that is not the one the office lists
    for the user (when it lists one)."""
    own = {value_key_of(c) for i in records.by_key.get(user.lower(), ())[:GENERIC] for _l, c in records.entities[i].values("phone")}
    if not own:
        return []
    out = []
    for c in claims_in(text, year=None, kinds=("phone",)):
        if _MY_NUMBER.search(text[max(0, c.start - 60):c.start]) and value_key_of(c) not in own:
            out.append(f"{_sentence_of(text, c.start)!r} gives {c.text} as the writer's number, but the office lists "
                       f"{user}'s as another")
    return out


def _sentence_of_span(text: str, at: int) -> str:
    found = _sentence_at(text, at)
    return found[2] if found else text[max(0, at - 60):at + 30]


def _record_dated(sentence: str, day: date, records: Records) -> bool:
    """Whether an item the sentence names by identifier has that day among its values."""
    for key in records.keys_in(sentence):
        if key.startswith("#"):
            for i in records.by_key.get(key, ())[:GENERIC]:
                if any(c.value == day for _l, c in records.entities[i].values("date")):
                    return True
    return False


def _sentence_of(text: str, at: int) -> str:
    return " ".join(_sentence_of_span(text, at).split())[:90]


# the day of a message the one written to sent: "Thanks for your correction on Thursday 3 December"
_YOUR_MESSAGE = re.compile(r"(?i)\byour\s+(?:(?:last|latest|earlier|first|recent|second)\s+)?(?:e-?mails?|messages?|mails?|notes?|"
                           r"corrections?|requests?|repl(?:y|ies)|letters?|quer(?:y|ies)|questions?)"
                           # "your request reached me on 12 October", "your email arrived on …"
                           r"(?:\s+(?:reached|got to|arrived|came(?:\s+in)?|landed|was sent)(?:\s+(?:me|us|here|in))?)?"
                           r"\s+(?:of|on|from|dated|sent on)\s+$")


def your_message_day_problems(body: str, to: tuple[str, ...], state: EvalState,
                              records: Records | None = None) -> list[str]:
    """A day given to a message of the one a mail is written to ("your correction on Thursday 3
    December") on which the office holds no message from them, though it holds some. A day a record the
    sentence names gives is the record's ("your earlier request reached us on 20 November 2026, and the £360.00
    … from order SO-72559 was refunded", where the refunds log's row of SO-72559 was requested on 20 November):
    a request made before the mails the office holds."""
    if len(to) != 1:
        return []
    days = {d for e in (state.before or {}).values() if e.get("kind") == "eml"
            and str(e.get("from") or "").lower() == to[0] and isinstance(d := _sent_on(e), date)}
    if not days:
        return []
    out = []
    for c in claims_in(body, year=state.year, kinds=("date",)):
        if isinstance(c.value, date) and _YOUR_MESSAGE.search(body[max(0, c.start - 60):c.start]) and c.value not in days:
            if records is not None and _record_dated(_sentence_of_span(body, c.start), c.value, records):
                continue
            out.append(f"{_sentence_of(body, c.start)!r} dates a message of {to[0]} {c.text}, but none of theirs is of that day "
                       f"({', '.join(d.isoformat() for d in sorted(days)[-3:])})")
    return out


_FIRST_NAME_OF = re.compile(r"\b([A-Z][a-z]{2,})(?:'s|’s)\s")


def _by_first_name(records: Records) -> dict[str, str]:
    """First name -> the one person a sheet's column of names holds with it (names shared are left out)."""
    found = records.__dict__.get("_by_first_name")
    if found is None:
        from officesim.evaluators.roles import NAME_COLUMN
        people: dict[str, set[str]] = {}
        for e in records.entities:
            if e.collection.rpartition("#")[0].endswith((".xlsx", ".xlsm")):
                for label, key in e.names:
                    if NAME_COLUMN.match(label) and " " in key:
                        people.setdefault(key.split()[0], set()).add(key)
        found = records.__dict__["_by_first_name"] = {k: next(iter(v)) for k, v in people.items() if len(v) == 1}
    return found


_YOU_AWAY = re.compile(r"(?i)\byou(?:'re|’re| are| were| will be|'ll be|’ll be)\s+(?:still\s+|also\s+)?(?:on\s+(?:annual\s+|sick\s+)?leave|away|off|"
                       r"out of (?:the )?office|on holiday)\b")
_PERIOD_END = re.compile(r"(?i)^(?:from|to|start|end|first day|last day|until|begins?|ends?)\b|\b(?:from|to|start|end)$")
_MONTH_WORD = re.compile(r"(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\d{1,2}[/.-]\d{1,2}|\d{4}-\d\d")


def addressee_away_problems(body: str, to: tuple[str, ...], records: Records, year: int | None) -> list[str]:
    """A day the one written to is said to be away ("I couldn't do Monday the 14th as you're on leave that
    day") that none of their periods in the office's sheets covers (a withdrawn or rejected request is
    none), though the sheets hold periods of theirs. A day written without its month ("Monday the 14th")
    is in the month the mail's other dates give."""
    if len(to) != 1 or not _YOU_AWAY.search(body):
        return []
    names = {key for i in records.by_key.get(to[0], ())[:GENERIC] for label, key in records.entities[i].names
             if label.casefold() in ("name", "full name", "employee")}
    if len(names) != 1:
        return []
    periods = []
    for i in records.by_key.get(next(iter(names)), ())[:GENERIC * 5]:
        e = records.entities[i]
        days = sorted({a.value for label, a in e.values("date") if isinstance(a.value, date) and not isinstance(a.value, datetime)
                       and _PERIOD_END.search(label or "")})  # a period's ends: "From" and "To", "Start" and "End"
        if len(days) == 2 and e.states and not any(re.search(r"(?i)withdrawn|rejected|declined|cancel", v) for _l, v in e.states):
            periods.append((days[0], days[1]))
    if not periods:
        return []
    full = [c.value for c in claims_in(body, year=year, kinds=("date",)) if isinstance(c.value, date)
            and _MONTH_WORD.search(c.text)]
    out = []
    for m in _YOU_AWAY.finditer(body):
        found = _sentence_at(body, m.start())
        if found is None:
            continue
        for c in claims_in(found[2], year=year, kinds=("date",)):
            if not isinstance(c.value, date):
                continue
            day = c.value
            if not _MONTH_WORD.search(c.text):  # "Monday the 14th": the month of the mail's own dates
                months = {(d.year, d.month) for d in full}
                if len(months) != 1:
                    continue
                y, mo = next(iter(months))
                try:
                    day = date(y, mo, c.value.day)
                except ValueError:
                    continue
            if not any(a <= day <= b for a, b in periods):
                out.append(f"{_sentence_of(body, m.start())!r} says {to[0]} is away on {day.isoformat()}, but none of "
                           f"their periods covers it ({', '.join(f'{a.isoformat()} to {b.isoformat()}' for a, b in periods[:3])})")
    return out


# "I've also added you to our Operations weekly", "added all four of them to the Operations weekly meeting"
_ADDED_TO = re.compile(r"(?i)\badded\s+(?:[\w'’-]+\s+){0,4}?(?:to|into)\s+(?:the\s+|our\s+|your\s+|my\s+)?"
                       r"(?P<title>[A-Z0-9][\w'’&-]*(?:\s+[A-Za-z0-9][\w'’&-]*){0,4})")
_NOT_ADDED = re.compile(r"(?i)\b(?:not|n't|will|would|could|should|shall|can|if|please|may)\b")


def added_to_event_problems(text: str, state: EvalState) -> list[str]:
    """A claim that people were added to a meeting the office already holds ("added you to our Operations
    weekly") where the episode changed no event of that title: a new event of its own is no invitation
    to the existing one."""
    before = [ev for p, e in (state.before or {}).items() if e.get("kind") == "ics" for ev in e.get("events") or []]
    if not before:
        return []
    out = []
    for m in _ADDED_TO.finditer(text):
        found = _sentence_at(text, m.start())
        clause = text[found[0]:m.start()] if found else ""
        if _NOT_ADDED.search(clause + m.group(0)[:m.group(0).find(m.group("title"))]):
            continue
        words = [w.casefold() for w in re.findall(r"[A-Za-z0-9]+", m.group("title"))]
        titled = [ev for ev in before if _title_starts(str(ev.get("summary") or ""), words)]
        if not titled:
            continue  # not a meeting of the office: the sheet, a list, a new event
        summaries = {str(ev.get("summary") or "").casefold() for ev in titled}
        if not any(str(ev.get("summary") or "").casefold() in summaries for ev in made_events(state)):
            out.append(f"{_sentence_of(text, m.start())!r} says people were added to {titled[0].get('summary')!r}, but the "
                       "episode changed no event of that title")
    return out


def _title_starts(summary: str, words: list[str]) -> bool:
    """Whether a meeting's title is the words a sentence gives it (all of its words, in order, at the
    start of what follows "added ... to"): "Operations weekly" in "our Operations weekly (Mondays 10:00)"."""
    own = [w.casefold() for w in re.findall(r"[A-Za-z0-9]+", summary)]
    return bool(own) and len(own) >= 2 and words[:len(own)] == own


# where the one written to is said to be: "You'll be based at our head office", "you're in the Warehouse team"
_YOU_BASED = re.compile(r"(?i)\byou(?:'ll|’ll| will| are|'re|’re)\s+(?:be\s+)?(?:based|located|working|sitting|in)\s+"
                        r"(?:at|in|from|with)?\s*(?:the\s+|our\s+)?(?P<what>[A-Za-z][A-Za-z &'-]{2,30})")


def addressee_category_problems(body: str, to: tuple[str, ...], records: Records) -> list[str]:
    """A value of a column of few values (a location, a team) said of the one written to ("You'll be based
    at our head office") where their row holds another value of that column ("Location": Warehouse)."""
    if len(to) != 1:
        return []
    rows = [records.entities[i] for i in records.by_key.get(to[0], ())[:GENERIC] if records.entities[i].words]
    out = []
    for m in _YOU_BASED.finditer(body):
        said = fold_words(m.group("what"))
        for e in rows:
            for label, own in e.words:
                values = records.categories.get((e.collection, label)) or frozenset()
                hit = next((v for v in values if said == v or said.startswith(v + " ")), None)
                if hit and hit != fold_words(own):
                    out.append(f"{_sentence_of(body, m.start())!r} says {to[0]} is {hit}, but their {label!r} is {own!r}")
                    return out
    return out


# "the calendar was completely free that week", "My afternoon is otherwise free", "Hugo's calendar was free"
_FREE = re.compile(r"(?i)\b(?P<what>calendar|diary|afternoon|morning|day|week|schedule)\b[^.;\n]{0,30}?\b(?:is|was|were|are)\s+"
                   r"(?:completely\s+|otherwise\s+|entirely\s+|totally\s+|fully\s+|still\s+|all\s+)?(?:free|clear|empty)\b")
_EXCEPT = re.compile(r"(?i)\b(?:apart from|except|other than|besides|but for|save for)\b")
_NOT_FREE = re.compile(r"(?i)\b(?:not|n't|never|if|whether|apart from|except|but for|besides)\b")


def free_calendar_problems(text: str, state: EvalState) -> list[str]:
    """A day, morning, afternoon or week of the user's calendar said to be free where the office's calendar
    holds a meeting then (the day: of the sentence, else of the one before it)."""
    events = [ev for p, e in (state.before or {}).items() if e.get("kind") == "ics"
              and (not state.user or state.user.partition("@")[0].lower() in p.lower()) for ev in e.get("events") or []]
    if not events:
        return []
    out = []
    for m in _FREE.finditer(text):
        found = _sentence_at(text, m.start())
        if found is None or _NOT_FREE.search(found[2][:m.end() - found[0]]) or _EXCEPT.search(found[2][m.end() - found[0]:]):
            continue  # "not free", "if it is free"; "free apart from the Operations weekly"
        days = [c.value for c in claims_in(found[2], year=state.year, kinds=("date",)) if isinstance(c.value, date)]
        what = m.group("what").lower()
        span_word = re.search(r"(?i)\b(week|afternoon|morning)\b", found[2][m.end() - found[0]:][:30])
        if what in ("calendar", "diary", "schedule") and span_word:  # "My calendar was completely free that week"
            what = span_word.group(1).lower()
        if not days:  # "My afternoon is otherwise free": the day the sentence before gives
            before = text[max(0, found[0] - 300):found[0]].split("\n\n")[-1]
            days = [c.value for c in claims_in(before, year=state.year, kinds=("date",)) if isinstance(c.value, date)][-1:]
        if not days:  # "My diary was clear that day, so they run back to back": the day of what the episode booked
            made = {d.date() for ev in made_events(state) for d in [as_datetime(ev.get("start"))] if isinstance(d, datetime)}
            weeks = {d - timedelta(days=d.weekday()) for d in made}
            days = sorted(made)[:1] if len(made) == 1 or (what == "week" and len(weeks) == 1) else []
        if len(days) != 1:
            continue
        day = days[0]
        first, last = (day - timedelta(days=day.weekday()), day + timedelta(days=6 - day.weekday())) if what == "week" else (day, day)
        for ev in events:
            start = as_datetime(ev.get("start"))
            if not isinstance(start, datetime) or not first <= start.date() <= last:
                continue
            if (what == "afternoon" and start.hour < 12) or (what == "morning" and start.hour >= 12):
                continue
            out.append(f"{_sentence_of(text, m.start())!r} says the {what} is free, but the calendar holds "
                       f"{ev.get('summary')!r} on {start:%Y-%m-%d %H:%M}")
            break
    return out


# "I have also invited you to the 9:00 reminder in the calendar on 2 December", "added Omar Nair to it"
_INVITED = re.compile(r"(?i)\b(?:invited|added|included)\s+(?P<who>you|[A-Z][a-z]+\s+[A-Z][a-z]+)\s+(?:to|into|on|in)\b"
                      # "Sofia Rahman from HR will join us", "Ines Petrov will also attend"
                      r"|\b(?P<joins>(?-i:[A-Z][a-z]+\s+[A-Z][a-z]+))(?:\s+(?:from|of)\s+(?:the\s+)?[\w&-]+(?:\s+team)?)?"
                      r"\s+will\s+(?:also\s+)?(?:join|attend|sit in|be there)\b")


def invited_problems(body: str, to: tuple[str, ...], state: EvalState, records: Records) -> list[str]:
    """A person said to be invited to a meeting of a day (and time) the sentence gives, where the events of
    that day and time in the calendars after the episode invite nobody by their address."""
    out = []
    events = [ev for p, e in state.files.items() if e.get("kind") == "ics" for ev in e.get("events") or []]
    for m in _INVITED.finditer(body):
        found = _sentence_at(body, m.start())
        if found is None or _NOT_ADDED.search(found[2][:m.start() - found[0]]):
            continue
        who = m.group("who") or m.group("joins")
        if who.lower() == "you":
            addresses = set(to[:1]) if len(to) == 1 else set()
        else:
            addresses = {k for i in records.by_key.get(name_key(who), ())[:GENERIC] for k in records.entities[i].keys if "@" in k}
        if not addresses:
            continue
        days = [c.value for c in claims_in(found[2], year=state.year, kinds=("date",)) if isinstance(c.value, date)]
        times = [c.value for c in claims_in(found[2], year=state.year, kinds=("time",)) if isinstance(c.value, time)]
        if not days and m.group("joins") and found[0] >= 2:  # "… booked for Tuesday 20 October at 14:00. Sofia
            before = _sentence_at(body, found[0] - 2)         # Rahman from HR will join us": the meeting before
            said = before[2] if before else ""
            days = [c.value for c in claims_in(said, year=state.year, kinds=("date",)) if isinstance(c.value, date)]
            times = [c.value for c in claims_in(said, year=state.year, kinds=("time",)) if isinstance(c.value, time)]
        if len(days) != 1:
            continue
        then = []
        for ev in events:
            start = as_datetime(ev.get("start"))
            if isinstance(start, datetime) and start.date() == days[0] and (not times or start.time().replace(second=0) in times):
                then.append(ev)
        if then and not any(addresses & {str(a).lower() for a in ev.get("attendees") or []} for ev in then):
            out.append(f"{_sentence_of(body, m.start())!r} says {to[0] if who.lower() == 'you' else who} was invited, "
                       f"but no event then invites them "
                       f"({then[0].get('summary')!r})")
    return out


_PERSON = r"[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?"
_PEOPLE = rf"{_PERSON}(?:\s*,\s*{_PERSON})*(?:,?\s+and\s+{_PERSON})?"
# a list of invitees: "with Asha, Aiko, Elena, Nina and Rosa invited", "Invitees: Asha, Aiko and Nina",
# "I've invited Asha, Aiko and Nina"
_INVITEES = re.compile(rf"(?:\bwith\s+(?P<a>{_PEOPLE})\s+(?:all\s+)?invited\b|\b(?:[Ii]nvitees|[Ii]nvited)\s*(?::|are|were)?\s*"
                       rf"(?P<b>{_PEOPLE})\b|(?P<c>{_PEOPLE})\s+(?:are|were|have been|all)\s+(?:all\s+)?invited\b)")


def invitee_list_problems(text: str, state: EvalState, records: Records) -> list[str]:
    """A person listed as invited to the meeting the episode made ("with Asha, Aiko, Elena, Nina and Rosa
    invited") whom none of the events it made or changed invites: a first name is one of the invited where
    an invitee has it."""
    before = {(str(ev.get("summary")), str(ev.get("start"))): ev for e in (state.before or {}).values()
              if e.get("kind") == "ics" for ev in e.get("events") or []}
    made = [ev for e in state.files.values() if e.get("kind") == "ics" for ev in e.get("events") or []
            if before.get((str(ev.get("summary")), str(ev.get("start")))) != ev]
    if not made:
        return []
    invited = {str(a).lower() for ev in made for a in ev.get("attendees") or []}
    firsts = {a.partition("@")[0].split(".")[0] for a in invited}
    me = (state.user_name or "").split()[:1]
    out = []
    for m in _INVITEES.finditer(text):
        listed = m.group("a") or m.group("b") or m.group("c")
        for person in re.split(r"\s*,\s*|,?\s+and\s+", listed):
            words = person.split()
            if not words or words[0].lower() in firsts or words[0] in me or words[0].lower() in ("you", "me", "everyone", "all"):
                continue
            key = name_key(person)
            addresses = {k for i in records.by_key.get(key, ())[:GENERIC] for k in records.entities[i].keys if "@" in k}
            if len(words) >= 2 and addresses & invited:
                continue
            # a name of the office: a full name it knows, or a first name of one of its people
            known = addresses or (len(words) == 1 and words[0].lower() in _first_names(records))
            if known:
                out.append(f"{_sentence_of(text, m.start())!r} lists {person} as invited, but no event the episode "
                           f"made invites them")
                break
    return out


def _first_names(records: Records) -> frozenset[str]:
    cached = records.__dict__.get("_first_names")
    if cached is None:
        cached = frozenset(k.partition("@")[0].split(".")[0] for e in records.entities for k in e.keys
                           if "@" in k and "." in k.partition("@")[0])
        records.__dict__["_first_names"] = cached
    return cached


_VERSUS = re.compile(r"(?i)[£$€]?\s?(?P<a>\d[\d,]*(?:\.\d+)?)\s*(?P<ka>k\b)?\s+(?:vs\.?|versus|against)\s+(?:a\s+|the\s+|its\s+)?[£$€]?\s?"
                     r"(?P<b>\d[\d,]*(?:\.\d+)?)(?P<kb>k\b)?")
_ABOVE = re.compile(r"(?i)\b(?:more than|higher than|greater than|over (?:its|their|the)|above|exceed\w*|overspen\w*|beyond|"
                    r"in excess of|over budget|over contract)\b")
_BELOW = re.compile(r"(?i)\b(?:less than|lower than|under|below|within|short of)\b")


VERSUS_READ = 100  # "A vs B" pairs read in one text
VERSUS_REACH = 300  # characters before a pair where the claim it is under stands


_VERSUS_WORD = re.compile(r"(?i)\b(?:vs\.?|versus|against)\s")
VERSUS_SPAN = 60  # characters either side of the word a pair's figures stand in


def _versus_pairs(text: str) -> Iterator[re.Match]:
    """Each "A vs B" pair, found from its middle word and read in a bounded window around it: the pair's
    pattern tried at every digit of a long run of digits would be quadratic in the run."""
    for word in _VERSUS_WORD.finditer(text):
        lo = max(0, word.start() - VERSUS_SPAN)
        m = next((m for m in _VERSUS.finditer(text, lo, min(len(text), word.end() + VERSUS_SPAN))
                  if m.start() < word.start() < m.end()), None)
        if m is not None:
            yield m


def versus_problems(text: str) -> list[str]:
    """Pairs written "A vs B" under a sentence that says the first exceeds the second ("three have invoiced
    more than their contract's value: ... Umber Freight (£87,195.22 vs £101,000)") where it does not, or
    the other way round."""
    out = []
    for m in islice(_versus_pairs(text), VERSUS_READ):  # bounded work on a pathological mail
        found = _sentence_at(text, m.start())
        if found is None:
            continue
        lo, _hi, sentence = found
        head = sentence[max(0, m.start() - lo - VERSUS_REACH):m.start() - lo]
        above, below = list(_ABOVE.finditer(head)), list(_BELOW.finditer(head))
        if bool(above) == bool(below) or re.search(r"(?i)\b(?:not|n't|never|no|neither|nor)\b", head):
            continue  # no claim, or both said (a mixed list), or a denial
        a = float(m.group("a").replace(",", "")) * (1000 if m.group("ka") else 1)
        b = float(m.group("b").replace(",", "")) * (1000 if m.group("kb") else 1)
        if (above and a <= b) or (below and a > b):
            out.append(f"{' '.join(sentence.split())[:90]!r} gives {m.group(0).strip()} where it says the first is "
                       f"{'above' if above else 'below'} the second")
    return out


_FORWARDED = re.compile(r"(?i)\b(?:I've|I have|I|we've|we have)\s+(?:also\s+|now\s+|already\s+)?forwarded\b")


def forwarded_items_problems(text: str, state: EvalState, records: Records) -> list[str]:
    """An item said to be in what the writer forwarded ("I've forwarded you both of Aiko Roth's emails,
    about SO-71851 and SO-71873") that none of the messages the episode forwarded mentions."""
    if not _FORWARDED.search(text):
        return []
    before = state.before or {}
    forwarded = [e for p, e in state.files.items() if e.get("kind") == "eml" and p not in before
                 and (_FORWARD.match(str(e.get("subject") or "")) or forwarded_from(e))]
    if not forwarded:
        return []
    carried = {k for e in forwarded for k in records.keys_in(f"{e.get('subject') or ''}\n{e.get('body') or ''}")
               if k.startswith("#")}
    out = []
    for m in _FORWARDED.finditer(text):
        found = _sentence_at(text, m.start())
        if found is None:
            continue
        lo, _hi, sentence = found
        after = sentence[m.end() - lo:]
        for key, (a, b) in records.keys_in(after).items():
            mailed = any(records.entities[i].collection in ("mail",) or records.entities[i].collection.endswith("#mail")
                         or records.entities[i].name.endswith(".eml") for i in records.named(key))
            if key.startswith("#") and mailed and key not in carried:
                out.append(f"{' '.join(sentence.split())[:90]!r} says {after[a:b]} was forwarded, but no message the "
                           f"episode forwarded mentions it")
                break
    return out


_WILL_ATTEND = re.compile(r"\b(?P<who>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+(?:will|['’]ll|is going to)\s+(?:still\s+|also\s+)?"
                          r"(?:join|attend|be at|be in|come to|sit in on|take part in)\b")


def attendance_problems(text: str, state: EvalState, records: Records) -> list[str]:
    """Someone said to attend a meeting of a day the sentence gives ("Aiko will still join your account
    review on Wednesday 2 December") whom the calendar's events of that day, once the episode is done,
    do not invite."""
    events = [ev for e in state.files.values() if e.get("kind") == "ics" for ev in e.get("events") or []]
    out = []
    for m in _WILL_ATTEND.finditer(text):
        found = _sentence_at(text, m.start())
        if found is None or re.search(r"(?i)\b(?:not|n't|no longer|if|unless)\b", found[2]):
            continue
        days = {c.value for c in claims_in(found[2], year=state.year, kinds=("date",)) if isinstance(c.value, date)}
        if len(days) != 1:
            continue
        then = [ev for ev in events if isinstance(as_datetime(ev.get("start")), datetime)
                and as_datetime(ev.get("start")).date() in days]
        words = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", found[2])}
        then = [ev for ev in then if words & {w.lower() for w in re.findall(r"[A-Za-z]{4,}", str(ev.get("summary") or ""))}] or then
        if len(then) != 1:
            continue
        who = m.group("who")
        first = who.split()[0].lower()
        if first in ("you", "we", "they", "she", "he", "it", "i") or (state.user_name or "").lower().startswith(first):
            continue
        invited = {str(a).lower() for a in then[0].get("attendees") or []}
        if first in {a.partition("@")[0].split(".")[0] for a in invited}:
            continue
        if first in _first_names(records):
            out.append(f"{' '.join(found[2].split())[:90]!r} says {who} will attend, but {then[0].get('summary')!r} "
                       f"does not invite them once the episode is done")
    return out


_MONTH_NUMBER = {m: n for n, m in enumerate(("january", "february", "march", "april", "may", "june", "july", "august",
                                             "september", "october", "november", "december"), 1)}
_MONTH = r"(?:" + "|".join(_MONTH_NUMBER) + r"|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)"
# "Q3 is April to June 2026", "Q3 2026 (July–September)"
_DAY_OF = r"(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?)?"  # "1 August to 31 October"
_QUARTER_SPAN = re.compile(rf"(?i)\bQ(?P<q>[1-4])(?:\s+(?:of\s+)?(?:FY\s*)?20\d\d)?(?:\s*(?:[(:,–—-]\s*|\s+(?:is|was|covers|=|runs from|being)\s+)"
                           # "Q3 2026 budget review (April to June 2026)"
                           r"|(?:\s+[A-Za-z]+){1,3}\s*\(\s*)"
                           rf"(?:the\s+months\s+)?{_DAY_OF}(?P<a>{_MONTH})\w*(?:\s+20\d\d)?\s*(?:to|-|–|—|through|until|and)\s*{_DAY_OF}(?P<b>{_MONTH})\w*")


def _month(word: str) -> int:
    word = word.lower()
    return next(n for m, n in _MONTH_NUMBER.items() if m.startswith(word[:3]))


def quarter_span_problems(text: str) -> list[str]:
    """A quarter given months that are not its own ("Q3 is April to June 2026"): a calendar quarter, or one
    of a year that starts in April."""
    out = []
    for m in _QUARTER_SPAN.finditer(text):
        q, a, b = int(m.group("q")), _month(m.group("a")), _month(m.group("b"))
        spans = {(3 * q - 2, 3 * q), ((3 * q + 1) % 12 or 12, (3 * q + 3) % 12 or 12)}
        if (a, b) not in spans:
            out.append(f"{m.group(0)!r} gives Q{q} the months {m.group('a')} to {m.group('b')}, which are not Q{q}'s")
    return out


_FILE_NAME = re.compile(r"(?i)\b[\w-]+\.(?:xlsx|xlsm|docx|pdf|csv|txt|md)\b")
_IN_FOLDER = re.compile(r"(?i)\b(?:in|into|to|under)\s+(?:the\s+|our\s+|your\s+)?(?P<words>[a-z][\w -]{1,40}?)\s+folder\b")


def folder_problems(text: str, state: EvalState) -> list[str]:
    """A file the episode wrote said to be in a folder ("open_actions.xlsx, which I've saved alongside the
    minutes in the sales minutes folder") whose words its path does not hold (data/sales/reports)."""
    before = state.before or {}
    written = {p.rpartition("/")[2].lower(): p for p, e in state.files.items() if p not in before or before.get(p) != e}
    out = []
    for m in _FILE_NAME.finditer(text):
        path = written.get(m.group(0).lower())
        if path is None:
            continue
        found = _sentence_at(text, m.start())
        if found is None:
            continue
        lo, _hi, sentence = found
        place = _IN_FOLDER.search(sentence, m.end() - lo)
        if not place or place.start() - (m.end() - lo) > 80:
            continue
        parts = {w.lower().rstrip("s") for w in re.split(r"[/_.\-]", path.rpartition("/")[0]) if w}
        said = {w.lower().rstrip("s") for w in re.findall(r"[A-Za-z]{3,}", place.group("words"))} - {"the", "our", "your", "new"}
        if "folders" not in state.memo:
            state.memo["folders"] = {w.lower().rstrip("s") for p in state.files for w in re.split(r"[/_.\-]", p.rpartition("/")[0]) if w}
        # a word of another folder of the office: "the sales minutes folder" for data/sales/reports
        if said and (said - parts) & state.memo["folders"]:
            out.append(f"{' '.join(sentence.split())[:90]!r} puts {m.group(0)} in the {place.group('words')} folder, "
                       f"but the episode wrote it at {path}")
    return out


# "I've booked the Anchor Room for us": a room the events the episode made must name
_ROOM_BOOKED = re.compile(r"(?i)\b(?:booked|reserved|got|secured)\s+(?:us\s+)?(?:the|a)\s+(?P<room>(?:[A-Z][a-z]+\s+){1,2}(?:Room|Suite|Hall))\b")
# "I've invited each cover person to their cover event": an invitation of the events the episode made
_I_INVITED = re.compile(r"(?i)\b(?:I've|I have|we've|we have|I)\s+(?:also\s+|now\s+|already\s+)?(?:invited|sent (?:an? )?invit\w+ to)\b")
# "With your twelve years here", "you've been with us for 12 years"
_YOUR_YEARS = re.compile(r"(?i)\b(?:your\s+(?P<a>\d{1,2}|" + "|".join(NUMBER_WORDS) + r")\s+years?\s+(?:here|with us|at\s+\w+|in the team|on the team)"
                         r"|you(?:'ve| have)\s+been\s+(?:here|with us|at\s+\w+)\s+(?:for\s+)?(?P<b>\d{1,2}|" + "|".join(NUMBER_WORDS) + r")\s+years?)\b")


def booking_detail_problems(text: str, to: tuple[str, ...] | None, state: EvalState, records: Records) -> list[str]:
    """Details a mail gives of what the episode booked that its events do not hold: a room booked ("I've
    booked the Anchor Room for us") no event made names; people invited where no event made invites anyone
    but the user; and the years the one written to has been with the firm ("your twelve years here")
    against their start date."""
    out = []
    made = made_events(state)
    user = (state.user or "").lower()
    for m in _ROOM_BOOKED.finditer(text):
        room = m.group("room").casefold()
        if made and not any(room in f"{ev.get('location') or ''} {ev.get('summary') or ''} {ev.get('description') or ''}".casefold()
                            for ev in made):
            out.append(f"{_sentence_of(text, m.start())!r} says {m.group('room')} was booked, but no event the episode "
                       "made names it")
    for m in _I_INVITED.finditer(text):
        found = _sentence_at(text, m.start())
        if found is None or _NOT_ADDED.search(found[2][:m.start() - found[0]]):
            continue
        if made and not any({str(a).lower() for a in ev.get("attendees") or []} - {user} for ev in made):
            out.append(f"{_sentence_of(text, m.start())!r} says people were invited, but no event the episode made "
                       "invites anyone")
            break
    if to and len(to) == 1 and state.now is not None:
        starts = {a.value for i in records.by_key.get(to[0], ())[:GENERIC] for label, a in records.entities[i].values("date")
                  if re.search(r"(?i)start|join", label or "") and isinstance(a.value, date)}
        for m in _YOUR_YEARS.finditer(text):
            word = (m.group("a") or m.group("b")).lower()
            n = int(word) if word.isdigit() else NUMBER_WORDS.get(word)
            years = [(state.now.date() - d).days / 365.25 for d in starts]
            if n and years and not any(int(y) <= n <= round(y) + (1 if y % 1 > 0.9 else 0) for y in years):
                out.append(f"{_sentence_of(text, m.start())!r} gives {to[0]} {n} years with the firm, but they started "
                           f"{', '.join(d.isoformat() for d in sorted(starts))}")
    return out


# "you join the Operations team as Logistics Assistant, reporting to Noor Tanaka", "you'll report to me"
_MANAGER_COLUMN = re.compile(r"(?i)^(?:manager|line manager|reports? to|supervisor)$")


def _managers(files: dict[str, dict]) -> dict[str, str]:
    """Each person's manager by the sheets of ``files`` with a name (or address) and a manager column:
    name key and address -> the manager's name key."""
    return {who: name_key(boss) for who, boss in people_column(
        files, _MANAGER_COLUMN.match, ("name", "employee", "full name", "email", "e-mail"), MAX_WRITTEN).items()}


_NAMES = r"[A-Z][a-z]+\s+[A-Z][a-z]+(?:\s*(?:,|and|&)\s*[A-Z][a-z]+\s+[A-Z][a-z]+)*"
# whom someone reports to: "you'll report to Noor Tanaka", "reporting to me", "Rosa Tanaka and Keiko Lambert
# will report to you", "Your new manager will be Noor Tanaka"
_REPORTING = re.compile(r"(?:(?P<who>\b[Yy]ou|" + _NAMES + r")(?:['’]ll)?\s+(?:(?:will|would|now|also|still|then|directly|"
                        r"from then on|going forward)\s+)*(?:reports?|reporting)|(?<![Yy]ou )\b(?P<bare>reporting))\s+"
                        r"(?:directly\s+)?to\s+(?P<boss>me\b|you\b|[A-Z][a-z]+\s+[A-Z][a-z]+)"
                        r"|\b(?P<poss>[Yy]our|" + r"[A-Z][a-z]+\s+[A-Z][a-z]+['’]s)\s+(?:new\s+)?(?:line\s+)?manager\s+"
                        r"(?:will\s+be|is|becomes|would\s+be|:)\s+(?P<boss2>me\b|[A-Z][a-z]+\s+[A-Z][a-z]+)")


# "Mira Iyer, who becomes Warehouse Supervisor and will herself report to Noor Tanaka": said of the person named
# last before it
_REPORTING_PRONOUN = re.compile(r"\b(?:[Ss]he|[Hh]e|[Hh]erself|[Hh]imself)\s+(?:(?:will|would|now|also|still|then|"
                                r"directly|herself|himself|in turn)\s+)*(?:reports?|reporting)\s+(?:directly\s+)?to\s+"
                                r"(?P<boss>me\b|you\b|[A-Z][a-z]+\s+[A-Z][a-z]+)")


def reports_to_problems(body: str, to: tuple[str, ...], state: EvalState) -> list[str]:
    """Whom someone is said to report to ("you'll report to Noor Tanaka", "Rosa Tanaka and Keiko Lambert
    will report to you", "Your new manager will be Noor Tanaka") against the manager their row gives once
    the episode is done, or before it (a reorganisation changes it); "you" is the one written to."""
    if "managers" not in state.memo:
        state.memo["managers"] = (_managers(state.before or {}), _managers(state.files))
    before, after = state.memo["managers"]
    if not after:
        return []
    me = name_key(state.user_name or "")
    you = to[0] if to and len(to) == 1 else None
    out = []
    matches = sorted([*_REPORTING.finditer(body), *_REPORTING_PRONOUN.finditer(body)], key=lambda m: m.start())
    for m in matches:
        found = _sentence_at(body, m.start())
        if found is None:
            continue
        lo, _hi, sentence = found
        clause = sentence[:m.start() - lo]
        if re.search(r"(?i)\b(?:not|n't|no longer|never|if|unless|until|used to|previously|formerly|currently)\b",
                     clause[-40:] + m.group(0)):
            continue
        pronoun = m.re is _REPORTING_PRONOUN
        boss = m.group("boss") if pronoun else (m.group("boss") or m.group("boss2"))
        if boss.lower() == "you":
            boss_key = next((k for k, v in _people_of(state).items() if v == you), None) if you else None
        else:
            boss_key = me if boss.lower() == "me" else name_key(boss)
        if pronoun:  # "she", "herself": the person named last before it in the sentence
            people = [k for k in (name_key(n.group(0)) for n in FULL_NAME.finditer(clause)) if k in after or k in before][-1:]
        else:
            who = m.group("who") or (m.group("poss") or "")
            if m.group("bare"):  # "..., reporting to me": said of the one written to, where the sentence says "you"
                if not re.search(r"(?i)\byou\b", clause + m.group(0)):
                    continue
                who = "you"
            who = re.sub(r"['’]s$", "", who)
            if who.lower() in ("you", "your"):
                if not you:
                    continue
                people = [you]
            else:
                people = [name_key(p) for p in re.split(r"\s*(?:,|\band\b|&)\s*", who) if p.strip()]
        for person in people:
            held = {after.get(person), before.get(person)} - {None}
            if held and boss_key and boss_key not in held:
                out.append(f"{' '.join(sentence.split())[:90]!r} says {person} reports to {boss}, but their row gives "
                           f"{', '.join(sorted(h.title() for h in held))}")
                break
    return out


def _people_of(state: EvalState) -> dict[str, str]:
    """Name key -> address, from the sheets' rows that give both."""
    if "people_of" not in state.memo:
        state.memo["people_of"] = {who: address.lower() for who, address in people_column(
            state.files, lambda h: h.lower() in ("email", "e-mail"), ("name",), MAX_WRITTEN).items()}
    return state.memo["people_of"]


MAX_WRITTEN = 5_000  # rows of a sheet read for one person's manager


# one item said paid: "Note it was already paid on 5 December", "ZC-2611-0444 has been paid"
_ONE_PAID = re.compile(r"(?i)\b(?:was|is|has been|have been|were|got|already)\s+(?:already\s+|been\s+|fully\s+|now\s+)*"
                       r"(?:paid|settled)\b(?!\s+(?:for|by|to|out|in advance of|before))")


def one_paid_problems(text: str, state: EvalState, records: Records) -> list[str]:
    """An invoice said to have been paid ("Note it was already paid on 5 December") whose row in a table
    with a Paid column leaves that column empty, where the episode did not change that row: the item is the
    identifier nearest before the words in their sentence."""
    out = []
    for m in _ONE_PAID.finditer(text):
        found = _sentence_at(text, m.start())
        if found is None:
            continue
        lo, _hi, sentence = found
        before = sentence[:m.start() - lo]
        if re.search(r"(?i)\b(?:not|n't|never|no longer|will|would|once|if|until|unless|when|should|must|yet to|"
                     r"before|after|so that|can|could|may|might|to be)\b|\?", before[-60:] + m.group(0)):
            continue
        ids = [(at, key) for key, (at, _e) in records.keys_in(before).items() if key.startswith("#")]
        if ids:
            key = max(ids)[1]
        elif re.search(r"(?i)\bit\b", before):  # "Note it was already paid": the subject of the sentence before
            previous = _sentence_at(text, lo - 2) if lo >= 2 else None
            ids = [(at, key) for key, (at, _e) in records.keys_in(previous[2]).items() if key.startswith("#")] \
                if previous is not None else []
            if not ids:
                continue
            key = min(ids)[1]
        else:
            continue
        unpaid = _unpaid_after(state, key)
        if unpaid:
            out.append(f"{' '.join(sentence.split())[:90]!r} says {key.lstrip('#')} was paid, but its row "
                       f"({unpaid}) has no payment date once the episode is done")
    return out


# "Every one of those invoices has already been paid", "all of Redfern's invoices are paid"
_ALL_PAID = re.compile(r"(?i)\b(?:every\s+one\s+of|each\s+of|all(?:\s+of)?)\s+(?:(?:those|these|the|their|its|our|them)\s+)?"
                       r"(?:[A-Z][\w&'’-]*(?:\s+[A-Z][\w&'’-]*){0,3}\s+)?(?:invoices|bills)?\s*(?:has|have|had|were|was|is|are)\s+"
                       r"(?:already\s+|now\s+|all\s+|been\s+|fully\s+)*(?:paid|settled)\b")


def all_paid_problems(text: str, state: EvalState, records: Records) -> list[str]:
    """A party's invoices said to be all paid ("Redfern IT Services has invoiced us £69,010.17 … Every one of
    those invoices has already been paid") where rows of that party in a table with a Paid column, dated in the
    task's year, leave it empty once the episode is done: the party is named in the sentence or the one before."""
    out = []
    for m in _ALL_PAID.finditer(text):
        found = _sentence_at(text, m.start())
        if found is None or re.search(r"(?i)\b(?:not|n't|if|once|until|unless|when|will|would|should)\b",
                                      found[2][:m.end() - found[0]]):
            continue
        keys = [k for k in records.keys_in(found[2]) if not k.startswith("#")]
        if not keys and found[0] >= 2:
            before = _sentence_at(text, found[0] - 2)
            keys = [k for k in records.keys_in(before[2]) if not k.startswith("#")] if before else []
        if len(keys) != 1:
            continue
        unpaid = [where for where, row, is_paid in _paid_rows(state)
                  if any(isinstance(c, str) and name_key(c) == keys[0] for c in row)
                  and (not state.year or any(str(state.year) in str(c) for c in row)) and not is_paid]
        if unpaid:
            out.append(f"{' '.join(found[2].split())[:90]!r} says all of {keys[0].title()}'s invoices are paid, but "
                       f"{len(unpaid)} of its rows have no payment date ({unpaid[0]}{', …' if len(unpaid) > 1 else ''})")
    return out


def _unpaid_after(state: EvalState, key: str) -> str | None:
    """Where the office after the episode holds ``key``'s row with an empty Paid column (and no row of it
    with one filled in), or None."""
    found = None
    for where, row, is_paid in _paid_rows(state):
        if not any(isinstance(c, str) and id_key(c) == key for c in row):
            continue
        if is_paid:
            return None  # paid in one of its rows
        found = where
    return found


def _paid_rows(state: EvalState):
    """Every row of the workbooks after the episode under a header with a Paid column: (where, row, whether
    that column is filled in)."""
    from officesim.evaluators.task_sets import _PAID_LABEL

    for path, entry in state.files.items():
        if entry.get("kind") != "xlsx":
            continue
        for sheet, rows in (entry.get("sheets") or {}).items():
            header = [str(c or "") for c in (rows[0] if rows else [])]
            paid = [k for k, h in enumerate(header) if _PAID_LABEL.search(h)]
            if not paid:
                continue
            for r, row in enumerate(rows[1:MAX_WRITTEN], 2):
                yield f"{path}, {sheet} row {r}", row, any(k < len(row) and row[k] not in (None, "") for k in paid)


def _own_keys(state: EvalState, place: Any, records: Records) -> list[str]:
    """The name keys of the writer and of whom a text is written to (by the directory rows of their addresses)."""
    keys = [name_key(state.user_name or "")]
    for address in (place.to or ())[:4]:
        for i in records.by_key.get(address.lower(), ())[:GENERIC]:
            keys += [k for k in records.entities[i].keys if " " in k and "@" not in k and not k.startswith("#")]
    return [k for k in dict.fromkeys(keys) if k]


def _teams(files: dict[str, dict]) -> dict[str, str]:
    """Each person's team by the sheets of ``files`` that have a name and a team column: name key -> team."""
    return people_column(files, _TEAM_COLUMN.search, limit=MAX_WRITTEN)


# a person's team said after their name: "Aiko Amari has moved across to our Purchasing team", "Elena moves
# from the Finance team", "Nina, who is in the Sales team"
_IN_TEAM = re.compile(r"(?i)\b(?:in|to|from|of|into|joins?|joined|joining|with)\s+(?:the\s+|our\s+|your\s+|their\s+)?"
                      r"(?P<team>[A-Z][\w&-]*(?:\s+[A-Z][\w&-]*)?)\s+(?:team|department|dept)\b|"
                      # "who sits in Marketing under Zoe", "works in Finance"
                      r"\b(?:sits?|sitting|works?|working|is|are|was|were)\s+in\s+(?:the\s+)?(?P<team2>[A-Z][\w&-]*)\b"
                      r"(?!\s+(?:team|department|dept|office|building|room)\b)")
TEAM_REACH = 60  # characters after a name that its team may stand in


def team_problems(text: str, state: EvalState, records: Records, to: tuple[str, ...] | None = None) -> list[str]:
    """A team said of a person ("Aiko Amari has moved across to our Purchasing team") that is neither
    their team in the office's directory nor the one the episode gave them (a reorganisation)."""
    if "teams" not in state.memo:
        state.memo["teams"] = (_teams(state.before or {}), _teams(state.files))
    before, after = state.memo["teams"]
    if not before:
        return []
    known = {fold_words(t) for t in [*before.values(), *after.values()]}
    out = []
    found = records.keys_in(text)
    spans = sorted((lo, hi, key) for key, (lo, hi) in found.items() if key in before)
    if to and len(to) == 1:  # "you move from the Finance team": the one written to
        you = next((k for k, v in _people_of(state).items() if v == to[0]), None)
        if you in before:
            spans = sorted([*spans, *((m.start(), m.end(), you) for m in re.finditer(r"\b[Yy]ou\b", text))])
    for n, (lo, hi, key) in enumerate(spans):
        stop = min([hi + TEAM_REACH, *(l for l, _h, _k in spans[n + 1:])])
        for m in _IN_TEAM.finditer(text, hi, stop):
            said = fold_words(m.group("team") or m.group("team2"))
            if said not in known or _CLAUSE_STOP.search(text, hi, m.start()) or ")" in text[hi:m.start()] \
                    or re.search(r"(?i)\b(?:except|excluding|apart from|other than|but not|not|besides|unlike)\W*$",
                                 text[max(0, lo - 20):lo]):
                continue  # "the four assistants (excluding Joel Ito) now sit in Operations": said of others
            if said in {fold_words(before.get(key, "")), fold_words(after.get(key, ""))}:
                continue
            if re.search(r"(?i)\b(?:not|never|n't|no longer|instead of|rather than)\b", text[max(hi, m.start() - 25):m.start()]):
                continue
            out.append(f"{_sentence_of(text, m.start())!r} puts {text[lo:hi]} in the {m.group('team') or m.group('team2')} team, but the "
                       f"office's directory gives {before.get(key)}" + (f" (and the episode {after.get(key)})"
                                                                        if after.get(key) not in (None, before.get(key)) else ""))
            break
    return out


_CLAUSE_STOP = re.compile(r"[.;!?\n]|,\s*(?:and|but|while|whereas)\b")


_THEIR = re.compile(r"(?i)\s*(?:his|her|their|them|him)\b")
_RECORD_OF = re.compile(r"(?i)\b(?:tracker|register|sheet|spreadsheet|workbook|log|list|rota|ledger|directory|records?)\b")


def changed_row_keys(state: EvalState, records: Records) -> frozenset[str]:
    """The identifiers of ``changed_row_ids`` and the names (record keys) in the sheet rows the episode
    added or changed: "I've marked Omar Kaur's probation as extended in the tracker" must change his row."""
    if "changed_row_keys" not in state.memo:
        found: set[str] = set(changed_row_ids(state))
        for row in islice(_changed_sheet_rows(state), 20_000):
            found |= set(records.keys_in(" | ".join(str(c) for c in row if c is not None)))
        state.memo["changed_row_keys"] = frozenset(found)
    return state.memo["changed_row_keys"]


# "they have written to us twice", "has been chasing us - five times now", "sent us 3 reminders"
_CONTACTED = re.compile(r"(?i)\b(?:wr[io]te|written|writing|chas\w*|asked|contacted|e-?mailed|mailed|complained|"
                        r"followed up|been in touch|got in touch|sent|reminded|nudged|messag\w*)\b")
_TIMES = re.compile(r"(?i)(?<![\w.,£$€/-])(?:(?P<n>\d{1,2}|" + "|".join(NUMBER_WORDS) + r")\s+(?:[a-z-]+\s+)?"
                    r"(?P<noun>times|messages|mails|e-?mails|chasers|reminders|follow-?ups)|(?P<word>once|twice|thrice))\b")


_THRESHOLD_BEFORE = re.compile(r"(?i)\b(?:reached|reach|reaching|hit|at least|more than|over|under|fewer than|less than|"
                               r"up to|no more than|a minimum of)\s+$")
_TOTAL_AFTER = re.compile(r"(?i)\s*(?:or more|or over|plus|\+|between|across|among|in total|in all|together|combined|"
                          r"altogether|all told)\b")
_WINDOW = re.compile(r"(?i)\b(?:recent(?:ly)?|latest|last|past|this (?:week|month|quarter|year)|so far|lately|"
                     r"within|in the (?:last|past))\b")


def _sent_on(entry: dict):
    when = as_datetime(entry.get("date"))
    return when.date() if hasattr(when, "date") and callable(when.date) else when


_NAME = r"[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?"
# "Vera Brandt is copied", "I've copied in Felix", "cc'ing Ines": who this very mail is said to copy
_COPIED = re.compile(r"\b(?P<a>" + _NAME + r")\s+(?:is|has been|was|will be)\s+(?:also\s+)?(?:[Cc]opied|[Cc][Cc]'?e?d|"
                     r"in copy|on copy|in [Cc][Cc]|on [Cc][Cc])\b(?!\s+(?:on|in)\s+(?:the|your|his|her|their|my|a)\b)|"
                     r"\b(?:I've|I have|I'm|I am|I)\s+(?:also\s+)?(?:[Cc]opied|[Cc]opying|[Cc][Cc]'?e?d|cc'ing)\s+(?:in\s+)?"
                     r"(?:(?:my|our)\s+(?:colleague|manager|teammate|team-mate|boss)\s+)?"
                     r"(?P<b>" + _NAME + r")\b(?!\s+(?:on|in)\s+(?:the|your|his|her|their|a)\b)")


def greeted_name_problems(body: str, to: Iterable[str], records: Records) -> list[str]:
    """A greeting by full name ("Dear Teo Moreau,") that the office's records give an address which is none of
    the mail's recipients: that person is someone else (Teo Moreau is Saltmarsh's, the mail goes to Driftwood's
    Teo Fischer)."""
    first = next((line for line in str(body or "").splitlines() if line.strip()), "")
    m = _FULL_GREETING.match(first)
    if not m:
        return []
    rows = records.by_key.get(name_key(m.group("name")), ())[:20]
    theirs = {k for i in rows for k in records.entities[i].keys if "@" in k}
    mine = {a.lower() for a in to}
    first_name, last_name = m.group("name").lower().split()
    if any(first_name in a.partition("@")[0] and last_name in a.partition("@")[0] for a in mine):
        return []  # "Dear Ines Nair," to ines.nair@: hers, whatever rows name her beside others' addresses
    if theirs and not theirs & mine:
        return [f"greets {m.group('name')}, whom the office gives as {', '.join(sorted(theirs)[:3])}, but the mail "
                f"goes to {', '.join(sorted(mine))}"]
    return []


_FULL_GREETING = re.compile(r"^\s*(?:[Dd]ear|[Hh]i|[Hh]ello|[Hh]ey|[Gg]ood (?:morning|afternoon))[ \t,]+"
                            r"(?P<name>[A-Z][a-z]+[ \t]+[A-Z][a-z]+)[ \t]*[,!:]")


def copied_problems(body: str, people: Iterable[str], directory) -> list[str]:
    """A person this mail says it copies ("Vera Brandt is copied and joins the call") who is none of its
    sender and recipients: another mail's copy is said with "on the" or "in your" and is not read."""
    if directory is None:
        return []
    here = {p.lower() for p in people}
    out = []
    for m in _COPIED.finditer(body):
        name = m.group("a") or m.group("b")
        words = name.split()
        if words[0] in ("You", "It", "This", "That", "Everyone", "Everybody", "All", "The", "He", "She", "They", "We"):
            continue
        found = [p for p in directory.named(words[0]) if (p.first or "").casefold() == words[0].casefold()
                 and (len(words) == 1 or (p.last or "").casefold() == words[1].casefold())]
        if found and not any(p.address.lower() in here for p in found):
            out.append(f"{' '.join(m.group(0).split())!r} says this mail copies {name}, but it goes to "
                       f"{', '.join(sorted(here))}")
    return out


# "I've copied each contract owner on this email", "the owners are copied in here", "cc'ing the team"
_COPIES_SOMEONE = re.compile(r"(?i)\b(?:(?:I've|I have|I)\s+(?:also\s+)?(?:copied|cc'?e?d|cc'ing|copying)\s+(?:in\s+)?"
                             r"(?!you\b|myself\b)[\w'’ ]{2,60}?\s+(?:on|in(?:to)?)\s+(?:this|here)\b|"
                             r"\b(?:are|is|have been|has been)\s+(?:also\s+)?(?:copied|cc'?e?d)\s+(?:on|in(?:to)?)\s+"
                             r"(?:this|here)\b)")


def copied_nobody_problems(body: str, people: Iterable[str], to: Iterable[str]) -> list[str]:
    """A mail that says it copies someone ("I've copied each contract owner on this email") but goes to its
    recipients only, with no one in copy."""
    to = {a.lower() for a in to}
    others = {p.lower() for p in people} - to
    if len(others) > 1:  # the sender and someone in copy
        return []
    out = []
    for m in _COPIES_SOMEONE.finditer(body):
        found = _sentence_at(body, m.start())
        if found and re.search(r"(?i)\b(?:not|n't|if|will|would|should)\b", found[2][:m.start() - found[0]]):
            continue
        out.append(f"{' '.join(m.group(0).split())!r} says this mail copies someone, but it goes to "
                   f"{', '.join(sorted(to))} with no one in copy")
    return out


_MONTH_YEAR = re.compile(r"(?i)\b(" + "|".join(MONTHS) + r")\s+(20\d\d)\b")
# a report's period: "the sheet for August 2026", "covering September 2026", a subject "Revenue by region, August 2026"
_PERIOD_OF = re.compile(r"(?i)(?:\b(?:for|covers?|covering|of)\s+(?:the\s+month\s+of\s+)?|^[^\n]*,\s*)$")


def task_months(state: EvalState) -> frozenset[tuple[int, int]]:
    """The (year, month) pairs the instruction and the gold's own words and file names give: the periods the
    task is about. Once per state."""
    if "task_months" not in state.memo:
        texts = [state.instruction or "", *gold_written(state), str(state.gold_answer or "")]
        found = {(int(m.group(2)), MONTHS.index(m.group(1).lower()) + 1) for t in texts
                 for m in _MONTH_YEAR.finditer(t)}
        for path in set(state.gold or {}) - set(state.before or {}):
            found |= {(int(y), int(mo)) for y, mo in re.findall(r"(20\d\d)-(0[1-9]|1[0-2])(?!\d)", path)}
        state.memo["task_months"] = frozenset(found)
    return state.memo["task_months"]


def period_month_problems(text: str, months: frozenset[tuple[int, int]]) -> list[str]:
    """A month said as the period of what the text sends ("the revenue-by-region sheet for August 2026") that is
    none of the task's months, where the task gives months of that year: the report is of September."""
    if not months:
        return []
    out = []
    for m in _MONTH_YEAR.finditer(text):
        said = (int(m.group(2)), MONTHS.index(m.group(1).lower()) + 1)
        if said in months or said[0] not in {y for y, _m in months} or \
                re.match(r"(?i)\s*(?:-|–|—|to|until|through|and)\s", text[m.end():m.end() + 10]):
            continue  # "covering July 2026 to September 2026": the start of a range
        line_start = text.rfind("\n", 0, m.start()) + 1
        if _PERIOD_OF.search(text[max(line_start, m.start() - 40):m.start()]):
            out.append(f"{' '.join(text[line_start:m.end()].split())[-90:]!r} gives {m.group(0)} as the period, but "
                       f"the task is about {', '.join(f'{MONTHS[mo - 1].title()} {y}' for y, mo in sorted(months))}")
    return out


def contacted_on(claim: Claim, text: str, records: Records, addressed: Iterable[str] = ()) -> bool:
    """Whether a date said with a verb of writing ("you reminded us about it on 10 May", "Amara wrote on 10
    October") is a day a mail was sent from or to a party the text names or is written to."""
    at = _sentence_at(text, claim.start)
    if at is None or not isinstance(claim.value, date) or not _CONTACTED.search(at[2]):
        return False
    from officesim.evaluators.records import _parties_by_domain
    spelled = _parties_by_domain(records)
    named = {k for k in records.keys_in(text) if not k.startswith("#")} | {a.lower() for a in addressed}
    by_day = records.__dict__.get("_mails_by_day")
    if by_day is None:  # once per records: each day, the mails sent on it
        by_day = {}
        for e in records.entities:
            if e.collection == "mail":
                for day in {a.value for label, a in e.attributes if label == "sent" and isinstance(a.value, date)}:
                    by_day.setdefault(day, []).append(e)
        records.__dict__["_mails_by_day"] = by_day
    value = claim.value.date() if isinstance(claim.value, datetime) else claim.value
    cited = {k for k in records.keys_in(at[2]) if k.startswith("#")}
    for e in by_day.get(value, ()):
        if cited & set(e.keys):
            return True  # the mail of that day about the item the sentence names
        for label, a in e.attributes:
            if label in ("from", "to") and a.kind == "email":
                address = str(a.value).lower()
                domain = address.partition("@")[2].rpartition(".")[0]
                if address in named or spelled.get(domain) in named:
                    return True
    return False


def contact_count_problems(text: str, state: EvalState, records: Records) -> list[str]:
    """A count of the messages a party sent ("they have written to us twice", "chasing us - five times
    now") that is not how many the office holds from that party: in all, or since a date the statement,
    the instruction or the dialogue gives."""
    before = state.before or {}
    home = (state.user or "").partition("@")[2]
    out = []
    for sentence in _SENTENCE_BREAK.split(text):
        m = _TIMES.search(sentence)
        if not m or not _CONTACTED.search(sentence) or _WINDOW.search(sentence):
            continue  # "six recent messages", "in the last four weeks": a window the text does not date
        if _THRESHOLD_BEFORE.search(sentence, max(0, m.start() - 25), m.start()) or _TOTAL_AFTER.match(sentence, m.end()):
            continue  # "only three customers reached three messages", "11 messages between the three": no one party's count
        word = (m.group("n") or m.group("word") or "").lower()
        n = {"once": 1, "twice": 2, "thrice": 3}.get(word) or (NUMBER_WORDS.get(word) if not word.isdigit() else int(word))
        if not n:
            continue
        parties: set[str] = set()
        named = records.keys_in(sentence)
        before_count = {k: at for k, at in named.items() if at[1] <= m.start()}
        for key in before_count or named:  # who wrote: the parties named before the count, if any
            if key.startswith("#") or key in {(state.user or "").lower()}:
                continue
            for i in records.by_key.get(key, ())[:200]:
                parties |= {k.partition("@")[2] for k in records.entities[i].keys if "@" in k}
        parties -= {home, ""}
        if not parties or len(parties) > 3:
            continue  # nobody outside named, or a name many parties share
        sent = {}
        for entry in before.values():
            if entry.get("kind") == "eml" and str(entry.get("from") or "").lower().partition("@")[2] in parties:
                sent[(entry.get("from"), entry.get("subject"), str(entry.get("date")))] = _sent_on(entry)
        if not sent:
            continue
        since = [c.value for t in (sentence, state.instruction)
                 for c in claims_in(str(t), year=state.year, kinds=("date",)) if isinstance(c.value, date)]
        if not since:  # a log the text itself dates ("26 October 2026: Oakmere Libraries ..."): since its first day
            since = [min(dated)] if (dated := [c.value for c in claims_in(text[:20000], year=state.year, kinds=("date",))
                                               if isinstance(c.value, date) and not isinstance(c.value, datetime)]) else []

        def fits(days: list) -> set[int]:
            return {len(days)} | {sum(1 for d in days if isinstance(d, date) and d >= s) for s in since} \
                | {sum(1 for d in days if isinstance(d, date) and d > s) for s in since}

        each = [[d for (sender, _s, _d), d in sent.items() if str(sender).lower().partition("@")[2] == p] for p in parties]
        if len(each) > 1 and all(n in fits(days) for days in each):
            continue  # "Oakmere and Gull Point wrote three times each"
        if n not in fits(list(sent.values())):
            out.append(f"{' '.join(sentence.split())[:90]!r} counts {m.group(0)}, but the office holds "
                       f"{len(sent)} message(s) from them")
    return out


_POLICY_FILE = re.compile(r"(?i)polic|handbook|guideline|guidance|rules|procedure")
_POLICY_WORD = re.compile(r"(?i)\b(?:polic(?:y|ies)|handbook|guidelines?|guidance|rules?|procedures?)\b")
_DURATION = re.compile(r"(?i)(?<![\w.,£$€])(?P<n>\d{1,3}|" + "|".join(NUMBER_WORDS) +
                       r")(?:\s*-\s*|\s+)(?P<unit>(?:working |business |calendar )?(?:days?|weeks?|months?))\b")
_IN_DAYS = {"d": 1, "w": 7, "m": 30}
# a duration measured between two moments, not a rule: "33 days later", "12 days ago", "45 days old"
_MEASURED_SPAN = re.compile(r"(?i)[\s,]*(?:later|ago|since|old|late|overdue|earlier|"
                            r"away|left|remaining|to go|in arrears|off|of (?:\w+ )?leave)\b")
# another clause between a duration and the policy it would be said of: "that is three days, and the policy asks..."
_CLAUSE_BETWEEN = re.compile(r"(?i)[;:]|,\s*(?:and|but|so|while|whereas|which)\b|\.\s")


# "policy:" as a label gives the policy's value after it: "Notice: 22 days (policy: two weeks)"
_POLICY_LABEL = re.compile(r"(?i)polic(?:y|ies)\s*:")


def _durations(text: str, near: list[int] | None = None) -> set[tuple[int, bool]]:
    """The durations a text states, in days, each with whether it counts working days (only those
    within ``POLICY_REACH`` characters of one of the positions ``near``, when given)."""
    out = set()
    for m in _DURATION.finditer(text):
        if near is not None and not any(m.start() - POLICY_REACH <= at <= m.end() + POLICY_REACH
                                        and not _CLAUSE_BETWEEN.search(text, min(at, m.end()), max(at, m.start()))
                                        and not (at > m.start() and _POLICY_LABEL.match(text, at))
                                        for at in near):
            continue
        if near is not None and _MEASURED_SPAN.match(text, m.end()):
            continue
        word = m.group("n").lower()
        n = int(word) if word.isdigit() else NUMBER_WORDS[word]
        unit = m.group("unit").lower()
        out.add((n * _IN_DAYS[unit.split()[-1][0]], unit.startswith(("working", "business"))))
    return out


POLICY_REACH = 30  # characters between a duration and the word "policy" for the one to be the other's


_HEADCOUNT = re.compile(r"(?i)(?<![\w.,£$€])(?P<n>\d{1,2}|" + "|".join(NUMBER_WORDS) + r")\s+(?:[a-z'’-]+\s+){0,2}?"
                        r"(?:people|persons?|members?|colleagues?|employees?|staff)\b")


# what a policy is said to allow, up to the number of people: "the leave policy allows only one person"
_POLICY_ALLOWS = re.compile(r"(?i)\bpolic(?:y|ies)\s+(?:only\s+)?(?:allows?|permits?|lets|sets|limits?|caps?|says|"
                            r"requires?)\b[^,;:.\n]{0,40}?\b(?:\d{1,2}|" + "|".join(NUMBER_WORDS) + r")\s+"
                            r"(?:[a-z'’-]+\s+){0,2}?(?:people|persons?|members?|colleagues?|employees?|staff)\b")


def _headcounts(text: str) -> set[int]:
    """The numbers of people a text states ("no more than two members of one team", "only one person")."""
    out = set()
    for m in _HEADCOUNT.finditer(text):
        word = m.group("n").lower()
        out.add(int(word) if word.isdigit() else NUMBER_WORDS[word])
    return out


def policy_problems(text: str, state: EvalState) -> list[str]:
    """A duration a sentence says a policy sets ("the three weeks' notice the policy asks for") that no
    policy of the office states (in days, weeks or months; 5 working days are a week); likewise a number
    of people it says a policy allows ("the policy allows only one person off on any day")."""
    if "policy_durations" not in state.memo:
        said: set[tuple[int, bool]] = set()
        heads: set[int] = set()
        for path, entry in (state.before or {}).items():
            if entry.get("kind") in ("docx", "pdf", "text") and _POLICY_FILE.search(path.rsplit("/", 1)[-1]):
                said |= _durations(document_text(entry)[:500_000])
                heads |= _headcounts(document_text(entry)[:500_000])
        state.memo["policy_durations"] = said
        state.memo["policy_headcounts"] = heads
    said, heads = state.memo["policy_durations"], state.memo["policy_headcounts"]
    out = []
    if heads:
        for sentence in _SENTENCE_BREAK.split(text):
            wrong = sorted({n for m in _POLICY_ALLOWS.finditer(sentence) for n in _headcounts(m.group(0))} - heads)
            if wrong:
                out.append(f"{' '.join(sentence.split())[:90]!r} says a policy allows {wrong[0]} people, which no "
                           "policy of the office states")
    if not said:
        return out
    days = {d for d, _w in said} | {d // 5 * 7 for d, working in said if working and d % 5 == 0} | \
        {d // 7 * 5 for d, _w in said if d % 7 == 0}
    for sentence in _SENTENCE_BREAK.split(text):
        # an aside in brackets is read apart from the words around it: "Notice: 24 days (policy minimum two
        # weeks)" gives the policy's two weeks, not 24 days
        asides = [m.span() for m in re.finditer(r"\([^()\n]*\)", sentence)]
        outside = sentence
        for a, b in asides:
            outside = outside[:a] + " " * (b - a) + outside[b:]
        for part in [outside, *(" " * a + sentence[a:b] + " " * (len(sentence) - b) for a, b in asides)]:
            near = [m.start() for m in _POLICY_WORD.finditer(part)]
            if not near:
                continue
            wrong = [n for n, _working in _durations(part, near) if n not in days]  # "the three weeks' notice the
            if wrong:  # policy asks for"
                out.append(f"{' '.join(sentence.split())[:90]!r} says a policy sets {wrong[0]} days, which no policy of "
                           "the office states")
                break
    return out


def other_party_items(place: Place, records: Records, gold_text: str, user: str = "") -> list[str]:
    """Items a mail names that belong to another party than the one it goes to: an order of another
    customer in a mail to this one. An item belongs to a party when its record carries the party's
    address or full name; a table whose items carry no party's key says nothing of whose they are."""
    if not place.to or not user or all(a.partition("@")[2] == user.partition("@")[2] for a in place.to):
        return []  # a mail to colleagues may discuss anyone's items: only an outside party's is guarded
    theirs: set[str] = set(place.to)
    for address in place.to:
        for i in records.named(address):
            theirs |= {k for k in records.entities[i].keys if "@" in k or (" " in k and not k.startswith("#"))}
    out = []
    for key, (start, end) in records.keys_in(place.text).items():
        if not key.startswith("#") or key[1:].lower() in gold_text:
            continue
        items = records.named(key)
        if not items or any(theirs & set(records.entities[i].keys) for i in items):
            continue
        tables = {records.entities[i].collection for i in items}
        owners = [j for k in theirs for j in records.named(k) if records.entities[j].collection in tables]
        if owners:
            out.append(f"{place.where}: names {place.text[start:end]!r}, which the office's records give to another "
                       f"party than the one this message goes to ({records.entities[items[0]].name})")
    return out


def _task_day_counts(state: EvalState) -> frozenset[int]:
    """Day counts the instruction, the dialogue and the gold's texts give: the task's own rules."""
    if "task_day_counts" not in state.memo:
        texts = "\n".join([state.instruction, *gold_written(state), str(state.gold_answer or "")])
        state.memo["task_day_counts"] = frozenset(
            int(w) if w.isdigit() else NUMBER_WORDS[w.lower()] for w in (m.group("n") for m in DAY_SPAN.finditer(texts)))
    return state.memo["task_day_counts"]


_NOT_THIS_ONE = re.compile(r"(?i)\b(?:not|n't|rather than|instead of|other|another|than|nor|neither|unlike|"
                           r"confus\w*|mix\w*|namesake|same name)\b")


def namesake_problems(text: str, task_text: str, records: Records) -> list[str]:
    """A colleague named where the task's own words (its instruction, the gold's texts) name another person
    of the same first name ("rebook it with Rafael Sousa" where the cover is Rafael Lindqvist): the two were
    mixed up. A clause that sets the two apart ("not Rafael Sousa") is not read."""
    said, task = fold(text), fold(task_text)
    people = {k for e in records.entities if e.collection == "person" for k in e.keys
              if "@" not in k and len(k.split()) == 2}
    by_first: dict[str, set[str]] = {}
    for k in people:
        by_first.setdefault(k.split()[0], set()).add(k)
    out = []
    for name in sorted(people):
        first = name.split()[0]
        if len(by_first[first]) < 2 or re.search(rf"\b{re.escape(name)}\b", task):
            continue
        for m in re.finditer(rf"\b{re.escape(name)}\b", said):
            clause = said[max(0, m.start() - 60):m.end() + 40]
            if _NOT_THIS_ONE.search(clause):
                continue
            meant = sorted(o for o in by_first[first] if o != name and re.search(rf"\b{re.escape(o)}\b", task))
            if meant:
                out.append(f"names {name.title()}, but the task's work is with {', '.join(n.title() for n in meant)}")
                break
    return out


def written_truth(state: EvalState) -> Truth:
    """The reading of every place the agent wrote (see the module rules)."""
    records = records_of(state)
    truth = Truth()
    if records is None:
        return truth
    episode = episode_of(state)
    named, allowed, recorded, people_named = _claim_checks(state, records)
    directory = directory_of(state)
    gold_ids = re.sub(r"[^0-9a-z\n ]", "", "\n".join([state.instruction, *gold_written(state),
                                                       str(state.gold_answer or "")]).lower())
    sets, given = task_sets_of(state, records)
    before = state.before or {}
    listed = _per_task("listed-values", (before,), lambda: listed_values(before))
    task_day_texts = "\n".join([state.instruction, *gold_written(state), str(state.gold_answer or "")])
    given = given | state_counts(state) | added_rows(state)
    parts = part_sizes(state.before or {}, state.gold or {}) if state.gold is not None else {}
    if "ranked_lists" not in state.memo:
        state.memo["ranked_lists"] = ranked_lists(state.before or {}, state.gold or {}) if state.gold is not None else []
    lists = state.memo["ranked_lists"]
    task_texts = (state.instruction, *gold_written(state), str(state.gold_answer or ""))
    for place in places(state):
        truth.false += action_problems(place.text, place.where, episode, attachments=place.attachments,
                                       recipients_named=named, allowed=allowed, recorded=recorded, this=place.key,
                                       parties_named=lambda sentence: named(sentence, True), people_named=people_named)
        truth.false += [f"{place.where}: {w}" for w in period_problems(place.text, task_texts)]
        truth.false += [f"{place.where}: {w}" for w in part_count_problems(place.text, parts, given)]
        truth.false += [f"{place.where}: {w}" for w in listed_first_problems(place.text, state.year)]
        truth.false += [f"{place.where}: {w}" for w in attendee_problems(place.text, state)]
        truth.false += [f"{place.where}: {w}" for w in counted_action_problems(place.text, episode_counts(state),
                                                                               *episode_reach(state, episode))]
        truth.false += [f"{place.where}: {w}" for w in sent_count_problems(place.text, other_mail_counts(state, place.key))]
        truth.false += [f"{place.where}: {w}" for w in booked_time_problems(place.text, new_event_times(state),
                                                                                  new_event_days(state), state.year)]
        truth.false += [f"{place.where}: {w}" for w in recorded_row_problems(place.text, state, records, place.to)]
        truth.false += [f"{place.where}: {w}" for w in listed_done_problems(place.text, state, records)]
        truth.false += [f"{place.where}: {w}" for w in added_to_event_problems(place.text, state)]
        truth.false += [f"{place.where}: {w}" for w in free_calendar_problems(place.text, state)]
        truth.false += [f"{place.where}: {w}" for w in booking_detail_problems(place.text, place.to, state, records)]
        if state.user:
            truth.false += [f"{place.where}: {w}" for w in own_phone_problems(place.text, state.user, records)]
        truth.false += [f"{place.where}: {w}" for w in event_time_problems(place.text, new_events(state), records,
                                                                          event_starts(state))]
        truth.false += [f"{place.where}: {w}" for w in office_event_time_problems(place.text, records, state.year,
                                                                                  new_events(state))]
        truth.false += [f"{place.where}: {w}" for w in event_room_problems(place.text, user_events(state), state.year)]
        truth.false += [f"{place.where}: {w}" for w in event_day_problems(place.text, new_event_dates(state),
                                                                          records, state.year)]
        truth.false += [f"{place.where}: {w}" for w in booked_duration_problems(place.text, new_events(state),
                                                                                *event_durations(state),
                                                                                event_lengths(user_events(state)))]
        if place.to is not None:
            truth.false += [f"{place.where}: {w}" for w in event_date_problems(
                place.body, [a for a in place.neutral if a != (state.user or "").lower()], user_events(state),
                records, state.year)]
        truth.false += [f"{place.where}: {w}" for w in policy_problems(place.text, state)]
        truth.false += [f"{place.where}: {w}" for w in contact_count_problems(place.text, state, records)]
        truth.false += [f"{place.where}: {w}" for w in set_count_problems(place.text, sets, records, given)]
        truth.false += [f"{place.where}: {w}" for w in party_count_problems(place.text, records, state.year)]
        truth.false += [f"{place.where}: {w}" for w in kind_count_problems(place.text)]
        truth.false += [f"{place.where}: {w}" for w in named_total_problems(place.text, records, state.year)]
        truth.false += [f"{place.where}: {w}" for w in paid_claim_problems(place.text, records, state.year)]
        truth.false += [f"{place.where}: {w}" for w in only_unpaid_problems(place.text, records, state.year)]
        truth.false += [f"{place.where}: {w}" for w in day_total_problems(place.text, state.year)]
        scope = scope_of(state, place)
        stated = [*scope.claims, *scope.written]  # what the task states: a total may be one of them
        every, gaps = stated_totals_of(state)  # the sums of what the gold states: further totals, not a set
        totals = set_totals_of(state)
        truth.false += [f"{place.where}: {w}" for w in total_problems(
            place.text, totals | every if totals else totals, lambda c: any(same_claim(c, s) for s in stated),
            records, state.year, gaps)]
        truth.false += [f"{place.where}: {w}" for w in superlative_problems(place.text, lists, state.year)]
        truth.false += [f"{place.where}: {w}" for w in order_problems(place.text, lists)]
        if "written_lists" not in state.memo:
            state.memo["written_lists"] = ranked_lists(state.before or {}, state.files)
        truth.false += [f"{place.where}: {w}" for w in sorted_claim_problems(place.text, state.memo["written_lists"])]
        truth.false += [f"{place.where}: {w}" for w in row_share_problems(place.text, state.memo["written_lists"])]
        truth.false += [f"{place.where}: {w}" for w in moved_figure_problems(place.text, lists)]
        truth.false += [f"{place.where}: {w}" for w in percent_problems(place.text, lists)]
        truth.false += [f"{place.where}: {w}" for w in result_problems(place.text, state.year)]
        truth.false += [f"{place.where}: {w}" for w in group_send_problems(
            place.text, records, frozenset(a for _w, to in episode.mails for a in to))]
        truth.false += [f"{place.where}: {w}" for w in each_amount_problems(place.text, state.before or {}, state.files)]
        truth.false += [f"{place.where}: {w}" for w in service_problems(place.text, records,
                                                                        state.now.date() if state.now else None)]
        truth.false += [f"{place.where}: {w}" for w in anniversary_problems(place.text, records,
                                                                            state.now.date() if state.now else None, state.year)]
        truth.false += [f"{place.where}: {w}" for w in namesake_problems(place.text, "\n".join(task_texts), records)]
        truth.false += [f"{place.where}: {w}" for w in direction_problems(place.text, lists)]
        if state.now is not None:
            truth.false += [f"{place.where}: {w}" for w in deadline_problems(place.text, records, state.now.date())]
        if place.origin:
            truth.false += [f"{place.where}: {w}" for w in forward_note_problems(place.body, place.origin, named)]
        if place.quoted:
            truth.false += [f"{place.where}: {w}" for w in restated_range_problems(place.body, place.quoted, state.year)]
            truth.false += [f"{place.where}: {w}" for w in restated_day_problems(place.body, place.quoted, state.year)]
            truth.false += [f"{place.where}: {w}" for w in notice_problems(place.body, place.quoted, list(place.answered),
                                                                            state.year)]
        if place.to is not None:
            truth.false += [f"{place.where}: {w}" for w in your_message_day_problems(place.body, place.to, state, records)]
            truth.false += [f"{place.where}: {w}" for w in addressee_away_problems(place.body, place.to, records, state.year)]
            truth.false += [f"{place.where}: {w}" for w in addressee_category_problems(place.body, place.to, records)]
            truth.false += [f"{place.where}: {w}" for w in invited_problems(place.body, place.to, state, records)]
            truth.false += [f"{place.where}: {w}" for w in reports_to_problems(place.body, place.to, state)]
            truth.false += [f"{place.where}: {w}" for w in joined_problems(place.body, list(place.to), records)]
            truth.false += [f"{place.where}: {role!r} is said of {person}, whose role the office gives as {held}"
                            for role, person, held in addressee_role_problems(place.body, list(place.to), records,
                                                                              state.memo.get("given_roles"))]
            truth.false += [f"{place.where}: {role!r} is said of {person} as their role, but the office gives {held}"
                            for role, person, held in titled_role_problems(place.body, list(place.to),
                                                                           list(place.neutral), records,
                                                                           state.memo.get("given_roles"))]
            truth.false += [f"{place.where}: {w}" for w in copied_problems(place.body, place.neutral, directory)]
            truth.false += [f"{place.where}: {w}" for w in copied_nobody_problems(place.body, place.neutral, place.to)]
            truth.false += [f"{place.where}: {w}" for w in greeted_name_problems(place.body, place.to, records)]
            greeting = greeting_problem(place.body, place.to, directory, copied=place.neutral)
            if greeting:
                truth.false.append(f"{place.where}: {greeting}")
        truth.false += [f"{place.where}: {w}" for w in team_problems(place.text, state, records, place.to)]
        truth.false += [f"{place.where}: {w}" for w in one_paid_problems(place.text, state, records)]
        truth.false += [f"{place.where}: {w}" for w in all_paid_problems(place.text, state, records)]
        truth.false += [f"{place.where}: {w}" for w in invitee_list_problems(place.text, state, records)]
        truth.false += [f"{place.where}: {w}" for w in versus_problems(place.text)]
        truth.false += [f"{place.where}: {w}" for w in swapped_line_problems(place.text, listed, state.year)]
        truth.false += [f"{place.where}: {w}" for w in late_count_problems(place.text, records, state.year)]
        truth.false += [f"{place.where}: {w}" for w in pairing_problems(place.text, records)]
        truth.false += [f"{place.where}: {w}" for w in quiet_spell_problems(place.text, records,
                                                                            state.now.date() if state.now else None)]
        truth.false += [f"{place.where}: {w}" for w in day_count_problems(
            place.text, records, today=state.now.date() if state.now else None, addressed=place.to or (),
            given=_task_day_counts(state), year=state.year, answered=place.answered, given_texts=task_day_texts)]
        truth.false += [f"{place.where}: {w}" for w in month_problems(place.text, records)]
        truth.false += [f"{place.where}: {w}" for w in forwarded_items_problems(place.text, state, records)]
        truth.false += [f"{place.where}: {w}" for w in attendance_problems(place.text, state, records)]
        truth.false += [f"{place.where}: {w}" for w in quarter_span_problems(place.text)]
        truth.false += [f"{place.where}: {w}" for w in period_month_problems(place.text, task_months(state))]
        if "written_absences" not in state.memo:
            state.memo["written_absences"] = written_absences(state.before or {}, state.files)
        if "teams_after" not in state.memo:
            state.memo["teams_after"] = _teams(state.files)
        truth.false += [f"{place.where}: {w}" for w in off_day_problems(place.text, records, state.year,
                                                                         state.memo["written_absences"],
                                                                         state.memo["teams_after"])]
        truth.false += [f"{place.where}: {w}" for w in leave_state_problems(place.text, records, state.year,
                                                                             state.memo["teams_after"])]
        truth.false += [f"{place.where}: {w}" for w in off_count_problems(
            place.text, records, state.memo["teams_after"], _own_keys(state, place, records), state.year,
            state.memo["written_absences"])]
        truth.false += [f"{place.where}: {w}" for w in only_away_problems(place.text, records, state.memo["teams_after"],
                                                                           state.year, state.memo["written_absences"],
                                                                           place.quoted)]
        truth.false += [f"{place.where}: {w}" for w in folder_problems(place.text, state)]
        truth.false += [f"{place.where}: {w}" for w in weekday_conflicts(place.text, state.year)]
        if place.to is not None:
            truth.false += [f"{place.where}: {w}" for w in attached_counts(place.text, place.attached, place.rows)]
            truth.false += [f"{place.where}: {w}" for w in listed_rows(place.text, place.rows)]
            truth.false += other_party_items(place, records, gold_ids, (state.user or "").lower())
        reading: Reading = read(place.text, records, scope, subject=place.subject,
                                neutral=[state.user or "", *place.neutral],
                                addressee=place.to[0] if place.to and len(place.to) == 1 else "")
        truth.statements += reading.statements
        truth.false += [f"{place.where}: {v.message()}" for v in reading.false]
        truth.unread += [f"{place.where}: {u}" for u in reading.unread]
    return truth


def set_totals_of(state: EvalState) -> frozenset[float]:
    """``task_sets.set_totals`` of the gold, once per state."""
    if "set_totals" not in state.memo:
        records = records_of(state)
        state.memo["set_totals"] = set_totals(state.before or {}, state.gold or {}, records) \
            if state.gold is not None and records is not None else frozenset()
    return state.memo["set_totals"]


def stated_totals_of(state: EvalState) -> tuple[frozenset[float], frozenset[float]]:
    """``task_sets.stated_totals`` of the gold's own texts, once per state."""
    if "stated_totals" not in state.memo:
        state.memo["stated_totals"] = stated_totals(gold_written(state), state.year)
    return state.memo["stated_totals"]


def added_rows(state: EvalState) -> frozenset[int]:
    """How many rows the gold added to each sheet it changed (rows inserted among the others included):
    "the ledger was missing a month for four teams", where the task's answer is four new lines."""
    if "added_rows" not in state.memo:
        counts: set[int] = set()
        for path, entry in (state.gold or {}).items():
            old = (state.before or {}).get(path)
            if entry.get("kind") != "xlsx" or old is None or old == entry:
                continue
            for name, rows in (entry.get("sheets") or {}).items():
                held = Counter(tuple(map(str, r)) for r in ((old.get("sheets") or {}).get(name) or [])[1:])
                counts.add(sum((Counter(tuple(map(str, r)) for r in rows[1:]) - held).values()))
        state.memo["added_rows"] = frozenset(counts - {0})
    return state.memo["added_rows"]


def state_counts(state: EvalState) -> frozenset[int]:
    """How many rows of each sheet the episode wrote hold each value of a column of few values, as the
    episode left it: what "42 orders remain Open" counts after the agent marked the delivered ones."""
    if "state_counts" not in state.memo:
        counts: set[int] = set()
        for path, entry in state.files.items():
            if entry.get("kind") != "xlsx" or not state.written(path):
                continue
            for rows in (entry.get("sheets") or {}).values():
                body = [r for r in rows[1:MAX_ROWS_COUNTED] if any(v not in (None, "") for v in r)]
                for j in range(max((len(r) for r in body), default=0)):
                    values = Counter(str(r[j]).strip().casefold() for r in body if j < len(r) and r[j] not in (None, ""))
                    if 2 <= len(body) and 1 <= len(values) <= 12:
                        counts |= set(values.values())
        state.memo["state_counts"] = frozenset(counts)
    return state.memo["state_counts"]


MAX_ROWS_COUNTED = 20_000  # rows of one sheet whose values are counted


def task_sets_of(state: EvalState, records: Records) -> tuple[list[ItemSet], frozenset[int]]:
    """The sets the gold defines (evaluators/task_sets.py) and the whole numbers the instruction, the
    dialogue and the gold's texts give: what a count in any written place is read against."""
    if "task_sets" not in state.memo:
        sets = task_sets(state.before or {}, state.gold or {}, records) if state.gold is not None else []
        texts = [state.instruction, *gold_written(state), str(state.gold_answer or "")]
        given = {int(c.value) for t in texts for c in claims_in(t, year=state.year, kinds=("number",))
                 if float(c.value).is_integer() and 0 <= c.value < 1000}
        given |= {NUMBER_WORDS[w] for t in texts for w in re.findall(r"[a-z]+", t.lower()) if w in NUMBER_WORDS}
        state.memo["task_sets"] = (sets, frozenset(given))
    return state.memo["task_sets"]


def message(truth: Truth) -> str:
    """The ``written_truth`` check's message: the false statements, or what was read."""
    if truth.false:
        more = f" (and {len(truth.false) - SHOWN} more)" if len(truth.false) > SHOWN else ""
        return "states what the office's records contradict: " + "; ".join(truth.false[:SHOWN]) + more
    return f"{truth.statements} statements read, none contradicted by the office's records; {len(truth.unread)} unread"



_OTHER_EVENT = re.compile(r"(?i)\b(?:raised|moved|reassigned|assigned|opened|created|added|logged|sent|received|placed|"
                          r"ordered|started|joined|agreed|signed|issued|dated|submitted|discussed|minuted|handed)\b"
                          r"[^,;.\n]{0,25}$")


def _true_context(state: EvalState):
    """The closed-world reading's test of true context (evaluators/claims.py): a value true of what its
    statement is about, among what the task involves."""
    if state.before is None:
        return None
    records, involved, counts = records_of(state), involved_keys(state), gold_counts(state)
    totals = set_totals_of(state) | stated_totals_of(state)[0]
    directory = directory_of(state)

    def _addressed(text: str) -> list[str]:
        # whom a greeting names by a first name only ("Hi Aiko,"): the few people of that name
        greeting = re.search(r"(?im)^\s*(?:hi|hello|dear|hey|good (?:morning|afternoon))\s+([A-Z][a-z]+)\b", text[:400])
        people = directory.named(greeting.group(1)) if greeting else []
        return [p.address for p in people] if len(people) <= 3 else []

    def true_context(claim: Claim, text: str, beside: bool = False) -> bool:
        if beside and claim.kind != "person":  # beside an expected fact: an alternative to it, unless a
            # reading makes it something else (a person is read by what the sentence says of them)
            return (claim.kind == "date" and date_after_span(claim, text, records, _addressed(text), state.now.date() if state.now else None)) or (
                # "at 10am - the 9:00 slot wasn't free as I already have a meeting until 9:45": the calendar's
                claim.kind == "time" and event_time_on_day(claim, text, records, state.year)) or (
                share_of_text(claim, text, state.year) or sum_of_sentence(claim, text, state.year)) or (
                # "the £741.77 credited is 20% of invoice VS-2606-0210 (£3,708.87)": a share of the item it
                # names, and that item's own amount after its identifier; neither is an alternative to the fact
                share_of_named(claim, text, records, state.year) is True) or (
                amount_of_id_before(claim, text, records)) or (
                claim.kind == "number" and bool(claim.currency) and worked_out(claim, text, state.year)) or (
                claim.kind == "number" and bool(claim.currency) and said_as_rate(text, claim)
                and true_of_records(claim, text, records, state.year, None)) or (
                claim.kind == "number" and bool(claim.currency) and said_as_limit(claim, text)
                and _stated_with_words(claim, text, state)) or (
                claim.kind == "number" and day_count_of_records(claim, text, records, _addressed(text), state.year)) or (
                claim.kind == "number" and counts_named_ids(claim, text, records)) or (
                # "only Alder Street Clinics, Dovetail Joinery and Marigold Care Homes reached three": parties the
                # task is about, listed beside the one expected, not offered instead of it
                claim.kind == "org" and bool(set(records.keys_in(claim.text)) & involved)
                and not _INSTEAD.search((_sentence_at(text, claim.start) or (0, 0, ""))[2])) or (
                claim.kind == "date" and state.now is not None and period_bound(claim, text, state.now.date())) or (
                # a date of another event of the item, said as such: "Raised on 15 September, moved to you on
                # 29 September, due 22 September": the minutes it was raised in, not another due date
                claim.kind == "date" and _OTHER_EVENT.search(text, max(0, claim.start - 40), claim.start) is not None
                and true_of_records(claim, text, records, state.year, involved))
        if claim.kind == "number" and not claim.currency and claim.value in counts and (
                float(claim.value) > 1 or _COUNTED.match(text, claim.end)):
            return True  # a count of one of the task's sets; "1 open order and 2 overdue invoices" too
        if claim.kind == "number" and bool(claim.currency) and said_as_limit(claim, text) and _stated_with_words(claim, text, state):
            return True  # "above the £165.00 nightly cap": the policy's line for that city
        if claim.kind == "number" and claim.currency and any(abs(abs(float(claim.value)) - t) <= 0.011 for t in totals):
            return True  # a total of the task's items ("the 14 chased come to £41,716.66")
        if claim.kind == "person" and named_with_record(claim, text, records, state.year):
            return True
        if claim.kind == "date" and event_date_of_named(claim, text, records):
            return True
        if claim.kind in ("org", "person") and named_in_event(claim, text, records, state.year):
            return True  # "the 9:00 slot was taken by the Kestrel Paper Co call"
        if claim.kind == "org" and set(records.keys_in(claim.text)) & involved:
            return True  # a party the task is about, named in another of its mails ("only Alder, Dovetail and
            # Marigold reached three messages"); what is said of it is read by the verdicts
        if claim.kind == "date" and _NOTICE_WORD.search((_sentence_at(text, claim.start) or (0, 0, ""))[2]) \
                and claim.value in office_notice_deadlines(records):
            return True  # "three more had notice deadlines that passed on 1 September": their end less notice
        if claim.kind == "date" and date_after_span(claim, text, records, _addressed(text), state.now.date() if state.now else None):
            return True  # "coming up to six months with us on 1 November": their start date, six months on
        if claim.kind == "number" and day_count_of_records(claim, text, records, _addressed(text), state.year):
            return True  # "only 8 days before": the request's arrival and the leave's first day
        if claim.kind == "number" and not claim.currency and _ALL_OF.search(text, max(0, claim.start - 16), claim.start) \
                and items_above(text, claim.start) == claim.value:
            return True  # "... for all three", after a list of three
        if claim.kind == "number" and not claim.currency and float(claim.value).is_integer() and (
                _ALL_OF.search(text, max(0, claim.start - 16), claim.start) or _LIST_WORD.match(text, claim.end)) \
                and int(claim.value) in list_sizes(text):
            return True  # "I'll deal with the four above", "these 4 still have 'Waiting for you':" and a list of four
        if claim.kind == "number" and (share_of_text(claim, text, state.year) or sum_of_sentence(claim, text, state.year)):
            return True  # "Zoe Novak 2 (33%)" of six; "… Vera Chen 1 and Zoe Novak 2 — 6 in all"
        if counts_office_things(claim, text, records):
            return True  # "invoiced by all fourteen suppliers this year": the names under the Supplier column
        if claim.kind == "number" and counts_named_ids(claim, text, records):
            return True  # "Total overdue: £786.00 across 1 invoice" under the one invoice it lists
        if claim.kind == "date" and contacted_on(claim, text, records, _addressed(text)):
            return True  # "(you reminded us about it on 10 May)": the day that party's mail was sent
        if claim.kind == "number" and scaled_by_words(claim, text, state.instruction, state.year):
            return True  # "1.5x the annual value", "just under its £87,750.00 line" (1.5 x £58,500.00) where
            # the instruction says "one and a half times"
        if claim.kind == "date" and state.now is not None and period_bound(claim, text, state.now.date()):
            return True  # "the current quarter (1 October – 31 December 2026)"
        return true_of_records(claim, text, records, state.year, involved)
    return true_context


# an amount named as a limit ("under the £60.00 daily meals limit", "above the £160.00 Lisbon cap"): a rule
# the decision is measured by, not an alternative to the decided amount


def _stated_with_words(claim: Claim, text: str, state: EvalState) -> bool:
    """Whether a line of the office states the value with the words that say what the limit is of ("the
    £60.00 daily meals limit" and the policy's "Meals: £60.00 per day"; not "the £185.00 Hamburg cap"
    where £185.00 is Dublin's line)."""
    office_memo(state)
    after = LIMIT_AFTER.match(text, claim.end)
    said = text[claim.end:after.end()] if after else text[max(0, claim.start - 40):claim.start]
    words = content_words(said) - _LIMIT_WORDS  # what the limit is of: "daily meals", "Hamburg"
    if not words:  # "the lower £30,000 threshold": the one limit the task itself sets ("make the threshold £30,000")
        brief = state.instruction or ""
        if _task_limit(claim, text, brief, state.year):
            return True
        # "It is above the £165.00 nightly cap" after "EXP-1127 (Rotterdam hotel, …)": a source line that states
        # the value beside a word of the text's own sentence and the one before it
        at = _sentence_at(text, claim.start)
        near = content_words(text[max(0, (at[0] if at else claim.start) - 200):claim.end + 60]) - _LIMIT_WORDS
        return any(same_claim(claim, v) and near & around for v, around, _u in state.memo["sources"])
    return any(same_claim(claim, v) and words <= around for v, around, _u in state.memo["sources"])


_COUNTED = re.compile(r"\s+(?:[a-z]+\s+){0,2}[a-z]{3,}(?<!s)\s+(?:and|,|\+)\s+\d")  # "1 open order and 2 …"
_INSTEAD = re.compile(r"(?i)\b(?:or|instead|rather|either|maybe|perhaps|possibly|not sure)\b")
_NOTICE_WORD = re.compile(r"(?i)\b(?:notice|deadlines?)\b")
_LIMIT_WORDS = frozenset({"limit", "cap", "allowance", "maximum", "ceiling", "threshold", "under", "within", "above",
                          "over", "below", "approved", "full", "daily", "nightly", "weekly", "monthly", "yearly",
                          "annual"})


_LIST_WORD = re.compile(r"(?i)\s+(?:above|below|listed|here|in (?:all|total))\b")
_ALL_OF = re.compile(r"(?i)\b(?:all|each of the|each of these|both|the|these|those)\s+$")
_PERIOD = re.compile(r"(?i)\b(?:(?P<quarter>quarter|Q[1-4])|(?P<month>month)|(?P<year>year|YTD))\b")


def period_bound(claim: Claim, text: str, today: date) -> bool:
    """Whether a date is the first or last day of the quarter, month or year its sentence names, around
    today ("in the current quarter (1 October – 31 December 2026)", "since the start of the year, 1 January")."""
    if not isinstance(claim.value, date) or isinstance(claim.value, datetime):
        return False
    at = _sentence_at(text, claim.start)
    if at is None:
        return False
    for m in _PERIOD.finditer(at[2]):
        for year in (today.year - 1, today.year, today.year + 1):
            if m.group("year"):
                bounds = {date(year, 1, 1), date(year, 12, 31)}
            elif m.group("month"):
                bounds = {date(year, mo, 1) for mo in range(1, 13)} | {
                    date(year + mo // 12, mo % 12 + 1, 1) - timedelta(days=1) for mo in range(1, 13)}
            else:
                bounds = {date(year, mo, 1) for mo in (1, 4, 7, 10)} | {
                    date(year + (mo + 2) // 12, (mo + 2) % 12 + 1, 1) - timedelta(days=1) for mo in (1, 4, 7, 10)}
            if claim.value in bounds and abs((claim.value - today).days) <= 400:
                return True
    return False


def gold_counts(state: EvalState) -> frozenset[float]:
    """How many of each thing the gold solution did (``change_counts``). An agent that did the same may
    say so ("31 payments marked Cleared")."""
    if "gold_counts" not in state.memo:
        state.memo["gold_counts"] = change_counts(state.before or {}, state.gold or {})
    return state.memo["gold_counts"]


def episode_counts(state: EvalState) -> frozenset[float]:
    """How many of each thing the episode did: what "I held 6 invoices" or "Booked four reviews" counts."""
    if "episode_counts" not in state.memo:
        state.memo["episode_counts"] = change_counts(state.before or {}, state.files or {})
    return state.memo["episode_counts"]


def other_mail_counts(state: EvalState, key: str | None) -> frozenset[int]:
    """How many mails the episode sent besides the one keyed ``key`` (the text that counts them): all of them,
    those to another domain, and those of each subject."""
    if "new_mails" not in state.memo:
        before, mails = state.before or {}, {}
        for path, entry in sorted((state.files or {}).items()):
            if entry.get("kind") == "eml" and path not in before:
                mails.setdefault(mail_key(entry), (str(entry.get("subject") or "").strip().lower(),
                                                   {str(a).lower() for a in [*(entry.get("to") or [])]}))
        state.memo["new_mails"] = mails
    mails = {k: v for k, v in state.memo["new_mails"].items() if k != key}
    home = (state.user or "").lower().partition("@")[2]
    outside = sum(1 for _s, to in mails.values() if home and any(not a.endswith("@" + home) for a in to))
    subjects = Counter(subject for subject, _to in mails.values())
    return frozenset({len(mails), outside, *subjects.values()}) - {0}


def episode_reach(state: EvalState, episode: Episode) -> tuple[frozenset[int], tuple[int, int]]:
    """How many events the episode made (and how many people they invite, all and each), and how many
    people its new mails were addressed to (their To), all and those outside the user's domain: what
    "booked for the other three", "a meeting booked for the four newcomers" and "gone out to 10 customers"
    count."""
    user = (state.user or "").lower()
    home = user.partition("@")[2]
    invited = [{str(a).lower() for a in ev.get("attendees") or []} - {user} for ev in made_events(state)]
    events = frozenset({len(invited), len(set().union(*invited)) if invited else 0, *map(len, invited)}) - {0}
    addressed = episode.addressed or frozenset()
    outside = {a for a in addressed if home and not a.endswith("@" + home)}
    return events, (len(addressed), len(outside))


def change_counts(before: dict[str, dict], after: dict[str, dict]) -> frozenset[float]:
    """How many of each thing an outcome changed from ``before``: the rows it changed in each sheet (and
    the cells it set to each value), the messages it sent and whom they went to, the events it made."""
    counts: set[float] = set()
    mails, events, recipients = set(), 0, set()
    for path, entry in after.items():
        old = before.get(path)
        if old == entry:
            continue
        kind = entry.get("kind")
        if kind == "xlsx":
            for name, rows in (entry.get("sheets") or {}).items():
                was = ((old or {}).get("sheets") or {}).get(name) or []
                changed = [i for i, row in enumerate(rows)  # the header row is not an item
                           if i > 0 and (i >= len(was) or was[i] != row)]
                counts.add(float(len(changed)))
                values = Counter(str(v) for i in changed for j, v in enumerate(rows[i])  # "31 marked Cleared"
                                 if v not in (None, "") and (i >= len(was) or j >= len(was[i]) or was[i][j] != v))
                counts |= {float(n) for n in values.values()}
        elif kind == "eml" and old is None:
            if mail_key(entry) not in mails:
                recipients |= {str(a).lower() for a in entry.get("to") or []}
            mails.add(mail_key(entry))
        elif kind == "ics":
            events += sum(1 for ev in entry.get("events") or [] if ev not in ((old or {}).get("events") or []))
    counts |= {float(len(mails)), float(events), float(len(recipients))}
    return frozenset(counts - {0.0})


register_true_context(_true_context)
