"""Sentences that say the writer did something, against what the episode did.

"I've booked the room", "I have forwarded it to the Head of Finance", "Circulated to the attendees",
"we have already deducted £41.21": each claims an action done. An office action (a mail to someone, an
attachment, an event, a change to a file) must be one the episode took; a mail said to go to a named
person must have gone to them. An action the office cannot show at all (an order put on hold, a
shipment upgraded, a refund made) is true only where the task's own words say it was done, in the
instruction or in a completed claim of the gold, or where the records of what the statement names say
so; else it is a claim of work nobody did. Plans, conditions, questions and negations claim nothing
("I will book", "once it is paid", "I have not sent").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable

from officesim.evaluators.text import NUMBER_WORDS

# (the stem that names the claim, what in the office shows it, its past forms)
_VERBS: tuple[tuple[str, str, str], ...] = (
    ("attach", "attachment", r"attached"),
    ("send", "mail", r"sent|(?:dropped|did drop) (?:[\w'’-]+ ){1,5}?(?:a |an )?(?:short |quick |brief )?(?:note|line|message|e-?mail|mail)\b|did (?:send|e-?mail)|e-?mailed|mailed|forwarded|copied|cc'?d|circulated|shared|passed(?: it| this| them)? on|"
                     r"notified|informed|told|asked|escalated|contacted|written to|wrote to|reached out to|replied|"
                     r"let (?:[\w-]+ ){1,5}know|passed (?:it |this |them |the [\w-]+ |these [\w-]+ ){0,1}(?:on )?to|(?:been|got|gotten) in touch with|checked with|confirmed with|"
                     r"discussed (?:[\w-]+ ){0,2}with"),
    ("book", "event", r"booked|scheduled|rescheduled|set up|arranged|organi[sz]ed|invited|moved|cancell?ed|"
                      r"blocked (?:(?:it|this|them|that|the (?:day|days|dates?|time)) )?(?:out )?(?:in|into|on) (?:the |your |our |my |their |his |her )?"
                      r"(?:[\w'’-]+ ){0,2}(?:calendars?|diary|diaries)\b|"
                      r"blocked (?:out )?(?:the |an? |\d{1,2}\b|some |time|tomorrow|today|your|my|our|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b)|"
                      r"(?:put|added|entered|pencil+ed|set|placed|created) (?:it |this |them |that |(?:an? |the )?(?:[\w-]+ ){0,2}?"
                      r"(?:reminders?|holds?|placeholders?|entr(?:y|ies)|events?|blocks?|invites?) )?(?:in|into|on|to) "
                      r"(?:the |your |our |my |each |every |their |his |her )?(?:[\w'’-]+ ){0,2}"
                      r"(?:calendars?|diary|diaries)\b|pencil+ed in|"
                      r"added (?:you|him|her|them|[\w-]+(?: [\w-]+)?) (?:to|into) (?:the |our |your |their |his |her |this |that )?"
                      r"(?:[\w'’-]+ ){0,3}?(?:meetings?|weekly|call|invites?|invitations?|events?|sessions?|stand-?ups?|"
                      r"briefings?|catch-?ups?|intros?)\b(?! (?:log|sheet|list|file|tracker|register|notes?|document|folder)\b)"),
    ("record", "file", r"updated|amended|corrected|changed|recorded|logged|entered|filled in|ticked|saved|filed|marked|flagged|"
                       r"put (?:[\w'’-]+ ){0,4}?in(?:to)? (?:the |our |your )?(?:\w+ ){0,2}"
                       r"(?:sheet|spreadsheet|workbook|ledger|register|tracker|directory|record)s?\b|"
                       # "I've also noted Joel Ito's departure date in his directory entry"
                       r"noted (?:[\w'’-]+ ){0,5}?in(?:to)? (?:the |our |your |his |her |their )?(?:\w+ ){0,2}"
                       r"(?:sheet|spreadsheet|workbook|ledger|register|tracker|directory|record|entry|row)s?\b|"
                       r"added (?:[\w'’-]+ ){0,4}?to (?:the |our |your )?(?:\w+ ){0,2}"
                       r"(?:sheet|spreadsheet|workbook|ledger|register|tracker|log|list|directory|file|document|record)s?"),
    ("outside", "outside", r"put (?:[\w-]+ ){0,4}on hold|placed (?:[\w-]+ ){0,4}on hold|held(?! (?:[\w'’-]+ ){0,3}back\b)|expedited|upgraded|"
                           r"refunded|deducted|credited|reimbursed|paid|transferred|dispatched|shipped|ordered|"
                           r"reordered|raised|issued|processed|cancelled (?:the |your )?(?:order|invoice|payment)s?|"
                           r"blocked|suspended|closed|reopened|called|phoned|rang|rung|spoken to|spoke to|chased|fixed|resolved|"
                           r"spoken with|spoke with|talked (?:to|with)|briefed|met with|consulted|"
                           r"had a (?:quick )?(?:word|chat|call|meeting|conversation) with|"
                           r"walked (?:[\w'’-]+ ){1,4}through|gone through (?:[\w'’-]+ ){0,4}with|went through (?:[\w'’-]+ ){0,4}with"),
)
_FORMS = "|".join(f"(?P<{stem}>{forms})" for stem, _s, forms in _VERBS)
_SHOWS = {stem: shows for stem, shows, _f in _VERBS}

# "I've", "we have already", "I just", "we also", "it has been"; or a note line that starts with a mail's
# or a booking's verb and says to or for whom ("Circulated to the attendees.", "Callback booked for 18 June.")
_CLAIM = re.compile(
    r"(?i)(?:\b(?:I|we)(?:'ve| have| had)?(?:\s+(?:just|also|now|already|since|today|then|personally))*\s+"
    r"|\b(?:has|have) (?:now |already |also |just )?been\s+)(?:" + _FORMS + r")\b")
_ALSO = re.compile(r"(?i)(?:,\s*|\s+and\s+|,\s*and\s+)(?:also\s+|then\s+)?(?:" + _FORMS + r")\b")
_NOTE = re.compile(
    r"(?im)^[ \t]*(?:[-*•–]\s*)?(?:[A-Z][a-z]+\s+){0,2}?(?:(?P<send>" + _VERBS[1][2] + r")|(?P<book>" + _VERBS[2][2] +
    r"))\s+(?:to|with|for|on|at)\b")
# what says this message carries a file, in the words of a cover note
_ENCLOSED = re.compile(r"(?i)\b(?P<attach>please find (?:attached|enclosed)|(?:attached|enclosed) (?:is|are|please find|you'll find|"
                       r"you will find)|(?:is|are) (?:attached|enclosed)|I (?:attach|enclose)|attached (?:herewith|here))\b")
_NOT = re.compile(r"(?i)\b(?:not|n't|never|no|none|nothing|neither|nor|nobody|will|shall|going to|can|could|would|should|may|might|must|once|after|"
                  r"when|if|unless|until|before|whether|please|need|needs|to be|ask you|asked you|let me|let us|"
                  r"let's|want|wants|hope|plan|planning|about to)\b|\?")

# "Mei was chased", "the team leads were informed": a mail said sent, in the passive
_PASSIVE_SEND = re.compile(r"(?i)(?<!\bI )(?<!\bwe )\b(?:was|were)\s+(?:also\s+|already\s+|then\s+|duly\s+)?"
                           r"(?P<send>chased|informed|told|notified|e-?mailed|contacted|copied in|cc'?d|reminded|asked|"
                           r"referred|escalated|sent)\b(?!\s+by\b)")
# "The letters have gone out to every customer …, including Alder Street Clinics": mails said sent, to whom
_GONE_TO = re.compile(r"(?i)\b(?:have|has)\s+(?:now\s+|all\s+|already\s+|also\s+)*(?P<send>gone out|gone|been sent(?: out)?)\s+"
                      r"(?=to\b)|\b(?P<send2>went out)\s+(?=to\b)")
# "it is being reviewed by our Sales Director, Ines Nair": the writer referred it to them, so a mail went to them
_REFERRED = re.compile(r"(?i)\b(?:is|are)\s+(?:now\s+)?being\s+(?P<send>reviewed|looked at|considered|handled|assessed|"
                       r"decided|checked)(?=\s+by\s+(?!me\b|us\b|myself\b))")
# "Tracker updated.", "Payroll and IT records updated.": a short line whose subject is the record
_RECORDED_NOTE = re.compile(
    r"(?im)(?:^|(?<=[.;!]\s))[ \t]*(?:[-*•–]\s*)?(?:[\w&'’-]+\s+){1,6}?(?:(?:has|have)\s+(?:now\s+|also\s+|just\s+)?"
    r"been\s+|(?:is|are)\s+(?:now\s+)?|now\s+)?(?P<record>updated|amended|corrected|recorded|logged)(?=\s*(?:[.;!]|$))")
_NOT_ENCLOSED = re.compile(r"(?i)\b(?:not|n't|never|no|will|shall|once|when|if|unless)\b|\?")


# the object of the verb is nothing: "changed nothing", "sent no reminders", "told no one", "booked none of them"
_NONE_DONE = re.compile(r"(?i)\s+(?:them\s+)?(?:nothing|none|no one|no-one|nobody|no(?![.\d])|neither)\b")
_CLAUSE_BREAK = re.compile(r"(?i)[;:]|,\s*(?:so|and so|and then|and|but|as|since|because|which)\b")
# what a booking verb schedules when it is a payment, not an event: "scheduled for payment this Friday"
_PAYMENT = re.compile(r"(?i)\b(?:for|to be)\s+(?:payment|paid|refund(?:ed)?|transfer(?:red)?)\b|\bpayments?\b")


@dataclass(frozen=True)
class ActionClaim:
    """One claim of a done action: its words, what shows it, and the sentence it stands in."""

    stem: str
    shows: str
    words: str
    sentence: str
    start: int


_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")  # not the dot of "£10,382.84" or "budget_2026.xlsx"
SENTENCE_REACH = 2_000  # characters read back for a sentence's start: bounded work on a long line


def _sentence(text: str, start: int, end: int) -> tuple[int, str]:
    back = max(0, start - SENTENCE_REACH)
    lo = max([back, *(m.end() for m in _SENTENCE_END.finditer(text, back, start))]) if start else 0
    after = _SENTENCE_END.search(text, end)
    return lo, text[lo:after.start() if after else len(text)]


_FLAGGED_TO = re.compile(r"(?i)\s+(?:it\s+|this\s+|them\s+|that\s+)?(?:separately|up\b|to\s+(?!the\s+(?:sheet|ledger|register|file)))")


def _claim_of(stem: str, m: re.Match, text: str, sentence: str) -> ActionClaim:
    """The claim a verb makes; "flagged separately", "flagged it to Ines" is said to someone, not marked in a record."""
    if re.fullmatch(r"(?i)flagged", m.group(stem) or "") and _FLAGGED_TO.match(text, m.end()):
        return ActionClaim("send", "mail", m.group(stem), sentence.strip(), m.start())
    return ActionClaim(stem, _SHOWS[stem], m.group(stem), sentence.strip(), m.start())


def action_claims(text: str) -> list[ActionClaim]:
    """Every sentence of ``text`` that says its writer did something (see the module rules)."""
    out = []
    for m in [*_CLAIM.finditer(text), *_NOTE.finditer(text), *_ENCLOSED.finditer(text), *_RECORDED_NOTE.finditer(text),
              *_PASSIVE_SEND.finditer(text), *_REFERRED.finditer(text), *_GONE_TO.finditer(text)]:
        if m.re is _GONE_TO:
            lo, sentence = _sentence(text, m.start(), m.end())
            clause = max((b.end() for b in _CLAUSE_BREAK.finditer(text, lo, m.start())), default=lo)
            if not _NOT.search(text[clause:m.end()]):
                out.append(ActionClaim("send", "mail", m.group("send") or m.group("send2"), sentence.strip(), m.start()))
            continue
        stem = next(s for s in _SHOWS if m.groupdict().get(s))
        lo, sentence = _sentence(text, m.start(), m.end())
        if stem == "outside" and re.match(r"(?i)we\s+(?!'ve|have|had)", m.group(0)):
            continue  # "we ordered 21", "we paid it on 3 May": the firm's history, which the records hold
        plan = _NOT if m.re is not _ENCLOSED else _NOT_ENCLOSED  # "please find attached" is no request
        # a plan, a condition or a negation of the claim's own clause ("nothing was open, so I emailed
        # Pablo" claims the mail; "if it's paid, I've sent a receipt" does not)
        clause = max((b.end() for b in _CLAUSE_BREAK.finditer(text, lo, m.start())), default=lo)
        if plan.search(text[clause:m.start()] + m.group(0)):
            continue
        if _NONE_DONE.match(text, m.end()):
            continue  # "I've changed nothing", "we've sent no reminders": a negation after the verb claims nothing
        if re.match(r"(?i)\s+by\s+(?!me\b|us\b|myself\b)", text[m.end():m.end() + 16]) and re.search(
                r"(?i)\bbeen\b", m.group(0)):
            continue  # "14 have already been chased by the supplier": someone else's doing, not this writer's
        if m.re is _RECORDED_NOTE and re.search(r"(?i)\b(?:last|previously|was|were|had|by)\b", m.group(0)):
            continue  # "The register was last updated", "recorded by Anna": a state, not this writer's work
        if m.re is _NOTE and (not m.group(0).lstrip(" \t-*•–")[:1].isupper()
                              or text[m.end():m.end() + 2].lstrip().startswith(":")):
            continue  # a note line starts with a capital and is no "Sent to: Anna" label
        out.append(_claim_of(stem, m, text, sentence))
        if m.re is _CLAIM:  # "I've told each of them, put you in their reviews and forwarded you the mails"
            end = lo + len(sentence)
            for more in _ALSO.finditer(text, m.end(), end):
                also = next(s for s in _SHOWS if more.groupdict().get(s))
                out.append(_claim_of(also, more, text, sentence))
    return sorted(out, key=lambda c: c.start)


@dataclass(frozen=True)
class Episode:
    """What the episode did that a sentence may claim."""

    did: frozenset[str]  # "mail", "attachment", "event", "file"
    mails: tuple[tuple[str, frozenset[str]], ...]  # each new mail (by ``mail_key``), whom it went to (to and cc)
    mailed_before: frozenset[str] = frozenset()  # whom the user's mail in the initial office went to
    home: str = ""  # the user's mail domain: a customer or a supplier is written to outside it
    forwarded: frozenset[str] = frozenset()  # the senders of the messages the episode forwarded
    record_words: frozenset[str] = frozenset()  # the words of the office's file and sheet names ("ledger")
    changed_words: frozenset[str] = frozenset()  # those of the files the episode changed
    # each register, tracker or document of the office by the words of its name, and whether it changed
    records: tuple[tuple[frozenset[str], bool], ...] = ()
    copied: bool = False  # whether any mail of the episode copied someone in
    addressed: frozenset[str] | None = None  # whom a new mail was addressed to (its To); None: not known
    forwarded_to: frozenset[str] | None = None  # whom the episode's forwards went to; None: not known


def mail_key(entry: dict) -> str:
    """One message however many mailboxes hold a copy of it: its sender, subject and text."""
    return f"{entry.get('from')}\0{entry.get('subject')}\0{entry.get('body')}"


def claimed_stems(texts: Iterable[str]) -> set[str]:
    """The words of every action the given texts claim done (the gold's own claims are the task's)."""
    return {verb_of(c) for t in texts for c in action_claims(t)}


_PARTICLES = {"to", "with", "through", "know", "in", "on", "up", "out", "about"}


def verb_of(claim: ActionClaim) -> str:
    """The verb a claim turns on ("put the orders on hold" is "hold", "spoken to" is "spoken", "had a
    call with" is "call")."""
    words = claim.words.lower().split()
    if words[-1] not in _PARTICLES:
        return words[-1]
    while len(words) > 1 and words[-1] in _PARTICLES:
        words.pop()
    return words[-1] if words[0] == "had" else words[0]


# a mail's verb said of a call or a meeting ("I've already told Bruno by phone"): nothing this office does
_SPOKEN = re.compile(r"(?i)\b(?:by (?:tele)?phone|on the (?:tele)?phone|over the (?:tele)?phone|in person|"
                     r"face[- ]to[- ]face|on a call|on the call|(?:at|in|during) (?:the|this|our|today's|yesterday's|"
                     r"this (?:morning|afternoon)'s|(?:mon|tues|wednes|thurs|fri)day's) (?:[\w-]+ )?(?:meeting|call|"
                     r"stand-?up|huddle|catch-?up))\b")


# when a sentence says a mail was sent before the episode ("Already sent to Anton yesterday"); "already"
# alone is no date: a user's earlier mail to a party does not show what this sentence says was sent
# "copied HR", "copied in Joel", "cc'd your manager": someone copied in (not "copied the figures into")
_COPY = re.compile(r"(?i)\b(?:copied|cc'?e?d)$")
_COPIED_IN = re.compile(r"\s+(?:in\b|[A-Z]|(?i:(?:your|our|my|his|her|their)\s+(?:manager|line manager|boss|colleague|team|head)))")
_COPY_PART = re.compile(r"(?i)\b(?:with\b.{0,40}?\bin (?:copy|cc)|in copy|cc'?d?|copying|copied)\b")
# a mail verb that says whom the mail was written to, not whom it was copied to
_WRITTEN_TO = re.compile(r"(?i)(?:e-?mailed|mailed|written to|wrote to|reached out to|contacted|asked|told|informed|"
                         r"notified|replied)$")
_EARLIER = re.compile(r"(?i)\b(?:yesterday|earlier|previously|ago|last (?:week|month|\w+day)|"
                      r"on (?:mon|tues|wednes|thurs|fri|satur|sun)day|\d{1,2}(?:st|nd|rd|th)? (?:jan|feb|mar|apr|may|"
                      r"jun|jul|aug|sep|oct|nov|dec)\w*|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w* \d{1,2})\b")

_OUTSIDE_PARTY = re.compile(r"(?i)(?:(?:each|every|all|both|some|any|one|two|three|several|many|most)\s+of\s+)?"
                            r"(?:(?:the|our|this|that|each|every|both|all|all the)\s+)?"
                            r"(?:customers?|clients?|suppliers?|vendors?)\b")


def action_problems(text: str, where: str, episode: Episode, *, attachments: bool | None,
                    recipients_named: Callable[[str], set[str]], allowed: set[str],
                    recorded: Callable[[str, str], bool | None], this: str | None = None,
                    parties_named: Callable[[str], set[str]] | None = None,
                    people_named: Callable[[str], list[frozenset[str]]] | None = None) -> list[str]:
    """The claims of ``text`` (written at ``where``) that the episode does not show. ``recipients_named``
    gives the addresses of whom a sentence names; ``allowed`` the verbs the task itself says were done;
    ``recorded(sentence, verb)`` whether the office's records of what the sentence names state the verb
(False where they leave its column empty, None where they say nothing of it).
    A mail said sent to someone named must have gone to them; said sent to nobody named ("I've asked the
    warehouse"), it must be another mail than this one, unless it is sent to "you" or this message
    carries what it sends. ``people_named`` gives, per person a sentence names, the addresses that person
    may be (a first name several people share is any of them)."""
    out = []
    for claim in action_claims(text):
        verb = verb_of(claim)
        if claim.shows == "mail" and _SPOKEN.search(claim.sentence):
            claim = ActionClaim(claim.stem, "outside", claim.words, claim.sentence, claim.start)
        elif claim.shows == "outside" and verb in ("chased", "reminded") and recipients_named(_object(claim)):
            claim = ActionClaim("send", "mail", claim.words, claim.sentence, claim.start)  # "I've chased Dmitri and Mei"
        elif claim.shows == "event" and _PAYMENT.search(_object(claim)):  # "scheduled for payment on Friday"
            claim = ActionClaim("outside", "outside", claim.words, claim.sentence, claim.start)
        if claim.shows == "attachment":
            ok = attachments if attachments is not None else "attachment" in episode.did
        elif claim.shows == "mail" and not episode.copied and _COPIED_IN.match(
                claim.sentence, max(claim.sentence.find(claim.words), 0) + len(claim.words)) and _COPY.search(claim.words):
            ok = False  # "I've copied HR so they can update your balance", and no mail copied anyone in
        elif claim.shows == "mail":
            named = recipients_named(_clause(claim))
            after = claim.sentence[claim.sentence.find(claim.words) + len(claim.words):].lstrip()
            # each person the claim's own words name must have had a mail ("I've chased Dmitri and Mei")
            whom = recipients_named(_object(claim))
            reached = {a for _w, to in episode.mails for a in to}
            # one group of addresses per person named: a first name several people share is anyone of them
            groups = people_named(_object(claim)) if people_named is not None else [frozenset({a}) for a in whom]
            # "I've emailed Maya": a mail addressed to her, not a copy of a letter to one of her customers;
            # whom the object names as copied in ("asked to cancel it, with Chloe in copy") may be a copy
            direct = people_named(_COPY_PART.split(_object(claim))[0]) \
                if people_named is not None and episode.addressed is not None and _WRITTEN_TO.match(verb) else []
            # "before the episode" is said in the claim's own clause, not by another clause's day ("…, and I've
            # booked a meeting on Wednesday 21 October")
            earlier = _EARLIER.search(_clause(claim)) is not None
            if whom and any(not (g & reached) for g in groups) and not earlier:
                ok = False
            elif direct and any(not (g & episode.addressed) for g in direct) and not earlier:
                ok = False
            elif named:  # sent in this episode, or before it ("Already sent to Anton yesterday")
                ok = any(named & to for _w, to in episode.mails) or (
                    bool(named & episode.mailed_before) and earlier)
            elif re.match(r"(?i)(?:you|it to you|them to you|this|these|the attached|below)\b", after) or (
                    attachments and not _WRITTEN_TO.search(claim.words) and not re.search(r"(?i)\bto$", claim.words)
                    # "I've already sent them written notice": to a third party, not what this mail attaches
                    and not re.match(r"(?i)(?:them|him|her|the\s+(?:supplier|customer|client|vendor)s?)\b(?!\s+to\s+you)", after)):  # "sent the list", attached here; not "written
                # to each of the six suppliers", whom the attachment does not reach
                ok = bool(episode.mails)
                to_this = {a for w, to in episode.mails if w == this for a in to}
                if ok and verb == "forwarded" and re.match(r"(?i)you\b", after) and to_this and \
                        episode.forwarded_to is not None:
                    # "I've forwarded you their recent emails": a forward that went to whom this mail is to
                    ok = bool(to_this & episode.forwarded_to)
            elif episode.home and _OUTSIDE_PARTY.match(after):  # "I've contacted the customer"
                ok = any(w != (this or where) and any(a.partition("@")[2] != episode.home for a in to)
                         for w, to in episode.mails)
            else:
                ok = any(w != (this or where) for w, _to in episode.mails)
            if ok and verb_of(claim) == "forwarded" and parties_named is not None:
                # "forwarded you Upland Outdoor's emails": a party named beside the forward, not whom it went
                # to, must be whom a forwarded message came from
                recipients = {a for _w, to in episode.mails for a in to}
                sources = parties_named(_clause(claim)) - recipients
                # a first name alone ("forwarded Anton's two delivery questions") is any sender of that name
                firsts = {w.casefold() for w in re.findall(r"\b[A-Z][a-z]{2,}\b", _clause(claim))}
                ok = not sources or bool(sources & episode.forwarded) or bool(
                    {a.partition("@")[2] for a in sources} & {a.partition("@")[2] for a in episode.forwarded}) or any(
                    re.split(r"[._-]", a.partition("@")[0])[0] in firsts for a in episode.forwarded)
        elif claim.shows == "outside":  # what the records of the item say wins; else what the task says was done
            said = recorded(claim.sentence, verb)
            ok = said if said is not None else verb in allowed
        elif claim.shows == "file" and _CALENDAR.search(claim.sentence):  # "I've updated the calendar entry"
            ok = "event" in episode.did or "file" in episode.did
        else:
            ok = claim.shows in episode.did
            if claim.shows == "file":
                ok = ok and not record_named_unchanged(claim.sentence, episode)
                ok = ok and (verb in allowed or not outside_record_named(claim.sentence, episode))
        if not ok:
            what = {"attachment": "attached nothing to it", "mail": "sent no such mail",
                    "outside": "cannot do that in this office, and neither the task nor the records say it was done"}
            out.append(f"{where}: {_shown(claim.sentence)} claims an action done, but the episode "
                       f"{what.get(claim.shows, 'did no such thing')}")
    return out


_GENERIC_PATH_WORDS = frozenset({"data", "docs", "doc", "documents", "files", "file", "archive", "archived", "old", "new",
                                 "copy", "final", "draft", "sheet", "sheets", "workbook", "xlsx", "docx", "pdf", "txt",
                                 "csv", "the", "and", "for", "of", "list", "log", "inbox", "sent", "mail", "calendar"})
# records that stand outside any office's files: "payroll", "the HR system", "the CRM"
_OUTSIDE_RECORD = re.compile(r"(?:\b(?:payroll|CRM|ERP|HRIS|SAP|Xero|Sage|QuickBooks|NetSuite|Salesforce)\b|(?-i:\bIT\b)|"
                             r"\b(?:HR|finance|accounts|booking|ticketing|helpdesk|(?-i:IT)) (?:system|portal|database|platform)s?\b)",
                             re.I)  # "IT" in capitals only: "I've logged it" names no IT system


def record_words(names: Iterable[str]) -> frozenset[str]:
    """The words that name a set of records: of their file names (not folders) and sheet names, singular
    ("ledger_2026.xlsx" gives "ledger"), without words every office uses."""
    return frozenset(w for name in names for w in _singular(name) if w not in _GENERIC_PATH_WORDS)


_RECORD_NOUN = re.compile(r"(?i)\b((?:[a-z&'’-]+\s+){0,2})(sheet|spreadsheet|workbook|tracker|register|ledger|log|list|"
                          r"rota|records?|directory|database|file)s?\b")


def _singular(words: str) -> set[str]:
    return {w[:-1] if w.endswith("s") and not w.endswith("ss") else w for w in re.findall(r"[a-z]{3,}", words.lower())}


# a file named as written: "budget_2026.xlsx", "budget_2026" (a sentence may end at its dot)
_FILE_NAMED = re.compile(r"\b([A-Za-z][\w-]*)\.(?:xlsx|xlsm|docx|pdf|csv|txt)\b|\b([A-Za-z]+_[\w-]*\d[\w-]*)\b")


def record_named_unchanged(sentence: str, episode: Episode) -> bool:
    """A claim of a record changed that names the office's records ("I've updated the budget sheet") where
    none of the records it names is one the episode changed. A record is named by the two words before a
    record's noun ("the budget sheet", "the leave tracker") or by a noun only one record has ("the
    ledger"); a bare "the tracker" or "the register", which people say of any register, names none but
    shows a changed one."""
    for stem in (a or b for a, b in _FILE_NAMED.findall(sentence)):  # "I have also updated budget_2026.xlsx": that file
        words = _singular(stem) - _GENERIC_PATH_WORDS
        files = [changed for own, changed in episode.records if words and words <= own]
        if files and not any(files):
            return True
    found = list(_RECORD_NOUN.finditer(sentence))
    named = _singular(" ".join(m.group(1) + (m.group(2) if m.group(2).lower() in ("ledger", "rota") else "")
                               for m in found)) & episode.record_words
    # the records whose names hold every word it names ("the supplier review log": supplier_review_log.xlsx,
    # whatever other file shares one of its words, like supplier_spend_ranking.xlsx)
    holders = [changed for words, changed in episode.records if named and named <= words]
    if holders:
        return not any(holders)
    said = named | _singular(" ".join(m.group(2) for m in found))
    return bool(named) and not (said & episode.changed_words)


def outside_record_named(sentence: str, episode: Episode) -> bool:
    """A claim of a record changed that names a record no office file holds ("payroll and IT records
    updated"): the agent cannot have changed it."""
    for m in _OUTSIDE_RECORD.finditer(sentence):
        if m.group(0).split()[0].lower() not in episode.record_words:
            return True
    return False


def _clause(claim: ActionClaim) -> str:
    """The claim's own clause: from the clause break before its verb to the end of what the verb governs
    ("Both contacts were introduced, you're on the invite instead of Dmitri, and I've forwarded you the
    messages" names no one the forward went to)."""
    at = max(claim.sentence.find(claim.words), 0)
    lo = max((b.end() for b in _CLAUSE_BREAK.finditer(claim.sentence, 0, at)), default=0)
    return claim.sentence[lo:at] + _object(claim)


def _object(claim: ActionClaim) -> str:
    """The words a claim's verb governs: from the verb to the end of its clause ("chased Dmitri and Mei
    about their actions", not "... but Asha already knew")."""
    at = claim.sentence.find(claim.words)
    rest = claim.sentence[at:] if at >= 0 else claim.sentence
    rest = re.split(r"(?i)[;:]|,\s*(?:but|as|since|because|who|which|so)\b|\s(?:but|because|since|although|while)\s|"
                    r"(?:,\s*|,?\s+and\s+)(?:I|we|you|they|he|she)(?:'[a-z]+|’[a-z]+)?\s", rest)[0]  # "and you're on both invites"
    # whom it replaces is not whom it went to ("swapped you in instead of Dmitri")
    return re.sub(r"(?i)\b(?:instead of|rather than|in place of|on behalf of|from)\s+(?:[A-Z][\w'’-]*\s*){1,3}", " ", rest)


_CALENDAR = re.compile(r"(?i)\b(?:calendars?|diary|diaries|invitations?|invites?|events?|meetings?|appointments?|"
                       r"bookings?|entry|entries|slots?)\b")

_DONE = (r"booked|scheduled|sent|e-?mailed|held|put on hold|placed on hold|added|entered|recorded|logged|updated|"
         r"marked|approved|rejected|declined|forwarded|answered|replied to|created|flagged|moved|cancell?ed|filled in|"
         r"invited|notified|contacted|corrected|fixed|paid|refunded|deleted|removed|archived")
_NUMBER = r"\d{1,3}|" + "|".join(w for w in NUMBER_WORDS if w != "zero")
_WORDS = NUMBER_WORDS
# "I've held 5 invoices", "Booked four reviews", "we found and added 5 missing lines"
_COUNTED_DONE = re.compile(
    r"(?i)(?:\b(?:I|we)(?:'ve| have| had)?(?:\s+(?:just|also|now|already|then|found and|checked and))*\s+|"
    r"(?:^|(?<=[.;:!]\s)|(?<=\n))\s*(?:[-*•]\s*)?|"
    # the last of the writer's verbs: "I've told each of them, put you in their reviews and forwarded you the 4
    # messages" (read only where the sentence's subject is I or we)
    r"(?P<joined>(?:,|\band)\s+))"
    r"(?P<verb>" + _DONE + r")\s+(?:(?:you|him|her|them|us|me)\s+)?(?:all\s+|the\s+|all the\s+)?(?P<n>" + _NUMBER
    + r")\s+(?:[a-z'’-]+\s+){0,3}?(?P<noun>[a-z]{3,}s)\b")
# "All five probation reviews are booked", "6 invoices have been put on hold"
_COUNTED_PASSIVE = re.compile(
    r"(?i)(?<![\w.,£$€/:-])(?P<n>" + _NUMBER + r")\s+(?:[a-z'’-]+\s+){0,3}?(?P<noun>[a-z]{3,}s)\s+"
    r"(?:are now|are|were|have (?:now |all )?been|has been|now)\s+(?:all\s+)?(?P<verb>" + _DONE + r")\b")
# "one of nine reviews I've booked", "the 6 invoices we held"
_COUNTED_RELATIVE = re.compile(
    r"(?i)(?<![\w.,£$€/:-])(?P<n>" + _NUMBER + r")\s+(?:(?!of\b)[a-z'’-]+\s+){0,3}?(?P<noun>[a-z]{3,}s)\s+(?:that\s+|which\s+)?"
    r"(?:I|we)(?:'ve|’ve| have| had)?\s+(?:just\s+|now\s+|already\s+|also\s+)?(?P<verb>" + _DONE + r")\b"
    r"(?<!paid)(?<!refunded)(?<!approved)(?<!rejected)(?<!declined)")  # "the 114 invoices we paid in Q3": the firm's history
# a count of whom or what for, after the verb: "I have booked the probation reviews for the other three people",
# "The letters have gone out to 10 customers"
_COUNTED_FOR = re.compile(
    r"(?i)\b(?:(?P<book>booked|scheduled|arranged|set up)|(?P<send>sent|gone out|went out|e-?mailed|mailed|written))"
    r"\s+(?:[a-z'’-]+\s+){0,6}?(?:to|for|with)\s+(?:all\s+|the\s+|all the\s+|each of the\s+)?(?P<other>other\s+)?"
    r"(?P<n>" + _NUMBER + r")\s+(?:[a-z'’-]+\s+){0,2}?(?P<noun>[a-z]{3,}s|people|staff)\b")
_HISTORY_AFTER = re.compile(r"(?i)\s+(?:after|before|late|on time|early|during|between|within|more than|less than|"
                            r"over|under|in (?:q[1-4]|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*|20\d\d|the))\b")
_PERIOD_BEFORE = re.compile(r"(?i)\b(?:(?:in|during|over|throughout|across)\s+(?:the\s+)?(?:q[1-4]|"
                            r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*|20\d\d|(?:first|second|third|"
                            r"fourth|last|past) (?:quarter|half|year|month)s?)|so far this (?:year|quarter)|this year)\b")
# nouns of whom mail goes to: a count of them is of recipients
_WHOM = re.compile(r"(?i)customers|clients|suppliers|vendors|people|persons|staff|colleagues|owners|managers|recipients|"
                   r"members|employees|parties|teams|executives|directors|contacts|holders|newcomers|starters|"
                   r"approvers|leads|heads|accounts|companies|firms|partners|tenants|landlords|candidates")
_SENT_TO = r"(?i)sent|e-?mailed|notified|contacted|invited|answered|replied to|forwarded"
_UNITS = re.compile(r"(?i)days|weeks|months|years|hours|minutes|nights|times|percent|pounds|euros|dollars")


def counted_action_problems(text: str, counts: frozenset[float], booked: frozenset[int] | None = None,
                            addressed: tuple[int, int] | None = None) -> list[str]:
    """A count of what the writer says was done ("I held 5 invoices", "Booked four reviews") that is not
    how many of anything the episode did (``counts``: the rows it changed, the cells it set to each
    value, the mails it sent and whom to, the events it made); a plan or a negation claims nothing.
    A count of whom or what a booking or a mail was for ("booked the reviews for the other three
    people", "gone out to 10 customers", "a meeting booked for the four newcomers") is one of ``booked``
    (the events made, the people they invite, those one event invites; "the other three": one less is said
    too) or how many people mails were addressed to (``addressed``: all of them, and those
    outside the user's domain, which customers and suppliers are)."""
    out = []
    for m in _COUNTED_FOR.finditer(text):
        word = m.group("n").lower()
        n = int(word) if word.isdigit() else _WORDS[word]
        if m.group("book"):
            done = set(booked or ())
        else:
            done = {addressed[1]} if addressed and _OUTSIDE_NOUN.match(m.group("noun")) else set(addressed or ())
            done -= {0}
        if not done or n < 2 or _UNITS.fullmatch(m.group("noun")):
            continue
        if m.group("send") and not _WHOM.fullmatch(m.group("noun")):
            continue  # "sent chasers to Aiko and Zoe for the two overdue ones": what the mails are about, not whom
        at, sentence = _sentence(text, m.start(), m.end())
        if _NOT.search(sentence[:max(0, m.start() - at)]) or _EARLIER.search(sentence) or _NOT_SAID_HERE.search(
                text, m.start(), m.end()):
            continue
        if n not in done and not (m.group("other") and n + 1 in done):
            out.append(f"{_shown(sentence)} counts {m.group('n')} {m.group('noun')}, but the episode "
                       f"{'booked' if m.group('book') else 'wrote to'} {' or '.join(map(str, sorted(done)))}")
    for pattern in (_COUNTED_DONE, _COUNTED_PASSIVE, _COUNTED_RELATIVE):
        for m in pattern.finditer(text):
            word = m.group("n").lower()
            n = int(word) if word.isdigit() else _WORDS[word]
            # what was booked is counted by the events made ("one of nine reviews I've booked" of ten)
            made = set(booked or ()) if m.group("verb").lower() in _BOOKED and booked \
                and not re.search(r"(?i)\b(?:other|remaining|more|further|additional|first|last|next)\b", m.group(0)) else None
            if n < 2 or _UNITS.fullmatch(m.group("noun")) or (n in made if made is not None else float(n) in counts):
                continue
            if addressed and _WHOM.fullmatch(m.group("noun")) and re.fullmatch(_SENT_TO, m.group("verb")) \
                    and n in {k for k in addressed if k}:
                continue  # "12 customers have been sent a letter": whom the mails went to
            at, sentence = _sentence(text, m.start(), m.end())
            if m.groupdict().get("joined") and not re.match(r"(?i)\s*(?:(?:so|and|also|then|today|now),?\s+)?(?:I|we)\b",
                                                           sentence):
                continue  # "Ana replied, and sent 3 invoices": another's doing
            after = _HISTORY_AFTER.match(text, m.end())
            if pattern is _COUNTED_PASSIVE and after and (m.group("verb").lower() in ("paid", "refunded")
                                                          or after.group(0).split()[0].lower() not in ("late", "early", "on")):
                continue  # "31 invoices were paid after their due date in Q3": the firm's history, not this work
            if after and m.group("verb").lower() in ("paid", "refunded"):
                continue  # "We paid 100 supplier invoices in July–September": likewise
            if _NOT.search(sentence[:max(0, m.start() - at)]) or _EARLIER.search(sentence):
                continue  # a plan, a negation, or what was done before the episode ("sent 2 reminders last week")
            if _PERIOD_BEFORE.search(sentence[:max(0, m.start() - at)]):
                continue  # "In Q3 we paid 118 supplier invoices": the firm's history over a period, not this work
            out.append(f"{_shown(sentence)} says {m.group('n')} {m.group('noun')} {m.group('verb').lower()}, but the "
                       "episode changed, sent or booked no such number of things")
    return out


# "All 13 letters have gone out", "the 12 reminders were sent": mails said gone, however the sentence is built
_MAILS_GONE = re.compile(
    r"(?i)(?<![\w.,£$€/:-])(?P<n>" + _NUMBER + r")\s+(?:[a-z'’-]+\s+){0,2}?(?P<noun>letters|e-?mails|mails|messages|reminders|"
    r"chasers|notices|notes|invitations|replies|intros|introductions)\s+(?:have|has|were|are)?\s*(?:now\s+|all\s+|just\s+|"
    r"already\s+)*(?:gone out|gone|went out|been sent(?: out)?|sent(?: out)?|out)\b")


def sent_count_problems(text: str, counts: frozenset[int]) -> list[str]:
    """A count of mails said gone ("All 13 letters have gone out") that is not how many other mails the
    episode sent (``counts``: all of them but the one the text is in, those to another domain, each
    subject's)."""
    out = []
    for m in _MAILS_GONE.finditer(text):
        word = m.group("n").lower()
        n = int(word) if word.isdigit() else _WORDS[word]
        at, sentence = _sentence(text, m.start(), m.end())
        if n < 2 or not counts or _NOT.search(sentence[:max(0, m.start() - at)]) or _EARLIER.search(sentence):
            continue
        if n not in counts:
            out.append(f"{_shown(sentence)} says {m.group('n')} {m.group('noun')} went, but the episode sent "
                       f"{' or '.join(map(str, sorted(counts)))}")
    return out


_BOOKED = frozenset({"booked", "scheduled", "arranged", "set up"})
_OUTSIDE_NOUN = re.compile(r"(?i)(?:customers|suppliers|clients|vendors|companies|contacts|partners)$")
_NOT_SAID_HERE = re.compile(r"(?i)\b(?:not|n't|never|no)\b")


def _shown(sentence: str) -> str:
    words = " ".join(sentence.split())
    return repr(words if len(words) <= 90 else words[:87] + "…")
