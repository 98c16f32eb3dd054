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
from collections import OrderedDict
from dataclasses import dataclass, field

from officesim.evaluators.claims import (Claim, _per_task, calendar_claims, claims_in, gold_written, mail_said,
                                         office_memo, added_text, register_true_context)
from officesim.evaluators.facts import own_text
from officesim.evaluators.records import Records, build_records
from officesim.evaluators.state import EvalState
from officesim.evaluators.verdicts import Reading, Scope, read, statements_about, true_of_records

SHOWN = 4  # false statements named in a check's message


@dataclass(frozen=True)
class Place:
    """One place the agent wrote: where, its text, the subject it is under, and who it addresses."""

    where: str
    text: str
    subject: str = ""
    neutral: tuple[str, ...] = ()
    attachments: bool | None = None  # a mail: whether it carries any


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
    """The initial office's records (see ``stored_records``); None for a state without an office."""
    if state.before is None:
        return None
    before = state.before
    if state.reference_key:
        return stored_records(before, state.year, None, state.reference_key)
    return _per_task(f"records-{state.year}-{sorted(state.people.items())}", (before,),
                     lambda: build_records(before, state.year, state.people))


def involved_keys(state: EvalState) -> frozenset[str]:
    """The keys of the office's entities that the instruction and the gold's text name: what the task is
    about (true context about them is context; about anything else, an item the task did not ask for)."""
    if "involved" not in state.memo:
        records = records_of(state)
        text = "\n".join([state.instruction, *gold_written(state), str(state.gold_answer or "")])
        state.memo["involved"] = frozenset(records.keys_in(text)) if records is not None else frozenset()
    return state.memo["involved"]


def places(state: EvalState) -> list[Place]:
    """Every place the agent wrote: new mail (its subject and own words, once however many mailboxes
    hold it), the lines added to documents, new or changed events, the answer."""
    out: list[Place] = []
    seen: set[tuple] = set()
    before = state.before or {}
    for path, entry in sorted(state.files.items()):
        if not state.written(path):
            continue
        kind = entry.get("kind")
        if kind == "eml" and path not in before:
            key = (entry.get("from"), entry.get("subject"), own_text(entry.get("body") or ""))
            if key in seen:
                continue
            seen.add(key)
            people = tuple(str(a).lower() for a in [entry.get("from"), *(entry.get("to") or []),
                                                    *(entry.get("cc") or [])] if a)
            out.append(Place(path, mail_said(entry), str(entry.get("subject") or ""), people,
                             bool(entry.get("attachments"))))
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
        claims += calendar_claims(state.files, state.before)
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
    return Scope(claims=[*given, *addresses], written=written, about=about, now=state.now, year=state.year,
                 known=state.memo.get("known_ids"))


_I = r"(?:\bI(?:'ve| have)?|\bwe(?:'ve| have)?)\s+(?:just\s+|also\s+|now\s+|already\s+)?"
_ACTIONS = (  # (what the words claim, pattern, what in the office shows it)
    ("attached", re.compile(r"(?i)" + _I + r"attached\b|\bplease find attached\b|\b(?:is|are) attached\b|"
                            r"\battached (?:is|are|you will find|you'll find)\b"), "attachment"),
    ("booked", re.compile(r"(?i)" + _I + r"(?:booked|scheduled|set up|created|added|put|moved|rescheduled)\b[^.\n]{0,40}?"
                          r"\b(?:meeting|event|call|review|session|slot|calendar|invite|invitation|appointment)s?\b"),
     "event"),
    ("recorded", re.compile(r"(?i)" + _I + r"(?:updated|filled in|added|marked|ticked|entered|recorded|logged)\b"
                            r"[^.\n]{0,40}?\b(?:sheet|spreadsheet|workbook|ledger|register|tracker|log)\b"), "sheet"),
    ("sent", re.compile(r"(?i)" + _I + r"(?:sent|emailed|e-mailed|mailed|forwarded|replied)\b"), "mail"),
)
_NOT = re.compile(r"(?i)\b(?:not|n't|never|no|will|shall|going to|can|could|would|should|once|after|when|if)\b")


def _done(state: EvalState) -> set[str]:
    """What the episode did that a sentence may claim: sent mail, an attachment, an event, a sheet change."""
    done: set[str] = set()
    before = state.before or {}
    for path, entry in state.files.items():
        if not state.written(path):
            continue
        kind = entry.get("kind")
        if kind == "eml" and path not in before:
            done.add("mail")
            if entry.get("attachments"):
                done.add("attachment")
        elif kind == "ics":
            done.add("event")
        else:  # a register or tracker may be a workbook, a document or a text file
            done.add("sheet")
    return done


def action_problems(place: Place, state: EvalState, done: set[str]) -> list[str]:
    """Sentences that claim an action the episode did not take ("I've booked the room" with no event made,
    "please find attached" on a message without attachment)."""
    out = []
    for claim, pattern, shows in _ACTIONS:
        for m in pattern.finditer(place.text):
            start = max(place.text.rfind(".", 0, m.start()), place.text.rfind("\n", 0, m.start())) + 1
            if _NOT.search(place.text[start:m.start()] + m.group(0)):
                continue  # a plan, a condition or a negation claims nothing done
            if shows == "attachment" and place.attachments is not None:
                ok = place.attachments
            else:
                ok = shows in done
            if not ok:
                out.append(f"{place.where}: {_shown(place.text, m)} says {claim}, but the episode "
                           f"{'attached nothing to it' if shows == 'attachment' else 'did no such thing'}")
                break
    return out


def _shown(text: str, m: re.Match) -> str:
    return repr(" ".join(text[max(0, m.start() - 20):m.end() + 30].split()))


def written_truth(state: EvalState) -> Truth:
    """The reading of every place the agent wrote (see the module rules)."""
    records = records_of(state)
    truth = Truth()
    if records is None:
        return truth
    done = _done(state)
    for place in places(state):
        truth.false += action_problems(place, state, done)
        reading: Reading = read(place.text, records, scope_of(state, place), subject=place.subject,
                                neutral=[state.user or "", *place.neutral])
        truth.statements += reading.statements
        truth.false += [f"{place.where}: {v.message()}" for v in reading.false]
        truth.unread += [f"{place.where}: {u}" for u in reading.unread]
    return truth


def message(truth: Truth) -> str:
    """The ``written_truth`` check's message: the false statements, or what was read."""
    if truth.false:
        more = f" (and {len(truth.false) - SHOWN} more)" if len(truth.false) > SHOWN else ""
        return "states what the office's records contradict: " + "; ".join(truth.false[:SHOWN]) + more
    return f"{truth.statements} statements read, none contradicted by the office's records; {len(truth.unread)} unread"



def _true_context(state: EvalState):
    """The closed-world reading's test of true context (evaluators/claims.py): a value true of what its
    statement is about, among what the task involves."""
    if state.before is None:
        return None
    records, involved = records_of(state), involved_keys(state)
    return lambda claim, text: true_of_records(claim, text, records, state.year, involved)


register_true_context(_true_context)
