"""Parsed office states for tests of the diff and the outcome comparison (FORMAT §3 shapes)."""

from __future__ import annotations

import copy

USER = "maya.lin@northwind.test"
BOB = "bob.hart@northwind.test"
CAROL = "carol.lund@northwind.test"
CAL = f"calendar/{USER}.ics"


def xlsx(rows, sheet="Budget"):
    return {"kind": "xlsx", "sheets": {sheet: rows}, "sheet_order": [sheet]}


def event(summary, start, end, uid):
    return {"uid": uid, "summary": summary, "start": start, "end": end, "all_day": False,
            "location": None, "description": None, "attendees": []}


def message(path_id, folder, mailbox, sender, to, subject, *, cc=(), message_id="<1@x>",
            date="2026-03-10 09:05:00", body="Hello"):
    return {"kind": "eml", "mailbox": mailbox, "folder": folder, "id": path_id, "from": sender, "to": list(to),
            "cc": list(cc), "subject": subject, "date": date, "message_id": message_id, "in_reply_to": None,
            "body": body, "attachments": []}


def base_state() -> dict:
    return {
        "data/budget.xlsx": xlsx([["Item", "Amount"], ["Rent", 1200]]),
        "data/revenue.xlsx": xlsx([["Quarter", "Revenue"], ["Q1", 50000]], sheet="Revenue"),
        "data/notes.docx": {"kind": "docx", "paragraphs": ["Minutes", "Decisions"], "tables": []},
        "data/todo.txt": {"kind": "text", "text": "one\ntwo\n"},
        CAL: {"kind": "ics", "user": USER, "events": [
            event("Standup", "2026-03-10 09:30:00", "2026-03-10 09:45:00", "u1"),
            event("Review", "2026-03-11 14:00:00", "2026-03-11 15:00:00", "u2"),
        ]},
        f"emails/{USER}/msg-1.eml": message("msg-1", "inbox", USER, BOB, [USER], "Budget"),
    }


def with_total(state: dict, amount=1200) -> dict:
    out = copy.deepcopy(state)
    out["data/budget.xlsx"]["sheets"]["Budget"].append(["Total", amount])
    return out
