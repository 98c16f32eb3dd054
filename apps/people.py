"""The people of an office: who a name or an address given by an agent stands for.

officesim's own offices key mailboxes and calendars by email address. Offices imported from
OfficeBench key them by first name (``emails/Bob/``, ``calendar/Bob.ics``) and OfficeBench agents
name people by first name (``send_email(sender="Alice", recipient="Bob")``). A task may therefore
list its people (``people: {Bob: bob@example.com}``, session setting ``people``); then a person may
be named by name or by address, case aside, and both lead to the same mailbox and calendar:

- ``person_key`` is the name of a person's mailbox folder and calendar file: the person's name as the
  task lists it; an address whose local part is a person's name is that person (OfficeBench files
  mail to ``bob@anywhere`` under ``emails/Bob/``); anything else is kept as given (the office's
  lookup ignores case, testbed/office.py);
- ``person_address`` is the address written into mail headers and attendee lists for a listed
  person; the apps refuse a bare name nobody in the office has.

Without ``people`` nothing changes: users are addresses, as in officesim's own suite.
"""

from __future__ import annotations

from email.utils import parseaddr

from officesim.apps.registry import OfficeContext


def people(ctx: OfficeContext) -> dict[str, str]:
    """The office's people: name -> address (empty for officesim's own offices)."""
    found = ctx.settings.get("people") if ctx.settings else None
    return dict(found) if isinstance(found, dict) else {}


def _bare(text: str) -> str:
    """'Bob <bob@x.test>' -> 'bob@x.test'; anything else trimmed."""
    text = str(text).strip()
    if "<" in text and text.endswith(">"):
        return parseaddr(text)[1].strip() or text
    return text


def find_person(ctx: OfficeContext, who: str) -> str | None:
    """The listed person (their name) that ``who`` names: by name or address, case aside; an address
    whose local part is a listed name is that person."""
    known = people(ctx)
    if not known:
        return None
    text = _bare(who).casefold()
    for name, addr in known.items():
        if text in (name.casefold(), str(addr).casefold()):
            return name
    if "@" in text:
        local = text.split("@", 1)[0]
        for name in known:
            if local == name.casefold():
                return name
    return None


def person_key(ctx: OfficeContext, who: str) -> str:
    """The name of ``who``'s mailbox folder and calendar file (see the module docstring)."""
    name = find_person(ctx, who)
    return name if name is not None else _bare(who)


def person_address(ctx: OfficeContext, who: str) -> str | None:
    """A listed person's email address (lower case), None when ``who`` names nobody listed."""
    name = find_person(ctx, who)
    return None if name is None else str(people(ctx)[name]).strip().lower()


def unknown_hint(ctx: OfficeContext) -> str:
    """' (the people of this office: Alice, Bob)' for error messages, '' without people."""
    known = people(ctx)
    return f" (the people of this office: {', '.join(sorted(known))})" if known else ""
