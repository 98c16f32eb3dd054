"""Mutation testing of the grading: mutants are derived for every class where it applies, a weak check
lets a wrong mutant survive and the validator says so (exit 1), and --json has its documented shape."""

from __future__ import annotations

import io
import json

import pytest

from officesim.runner.cli import main as cli_main
from officesim.runner.mutants import (AUTHORED, RIGHT, RIGHT_CLASSES, WRONG, WRONG_CLASSES, derive, is_read,
                                      not_applicable, outcome_key, reword)
from officesim.runner.validate import initial_office, main as validate
from officesim.tasks.loader import load_tasks
from tests._api_tasks import ASKING, QUESTION, USER, variant, write_tasks

LENA, OMAR, YARA, KWAME = ("lena.lin@northwind.test", "omar.hart@northwind.test", "yara.chen@northwind.test",
                           "kwame.dubois@northwind.test")


def act(app: str, action: str, **args) -> dict:
    return {"app": app, "action": action, "args": args}


def switch(app: str) -> dict:
    return act("system", "switch_app", target_app=app)


# One office worked on by two tasks: one writes cells, appends to a document and sends a mail with an
# attachment it edited first; the other writes cells, sends the mail, updates an event and creates
# one. Between them (and FILING below) every class of mutant applies.
_OFFICE = [
    {"type": "xlsx", "path": "data/budget.xlsx",
     "sheets": {"Budget": [["Item", "Amount"], ["Rent", 1200], ["Travel", 300]], "Notes": [["Remarks"]]}},
    {"type": "xlsx", "path": "data/budget_2025.xlsx", "sheets": {"Budget": [["Item", "Amount"], ["Rent", 1100]]}},
    {"type": "docx", "path": "data/notes.docx", "paragraphs": ["Budget notes", "Amounts in EUR."]},
    {"type": "docx", "path": "data/notes_2025.docx", "paragraphs": ["Old notes"]},
    {"type": "eml", "user": USER, "folder": "inbox", "id": "msg-1", "from": YARA, "to": [USER],
     "date": "2026-03-09 16:00:00", "subject": "Budget", "body": f"Send it to Lena and Omar, not to Kwame ({KWAME})."},
    {"type": "eml", "user": USER, "folder": "inbox", "id": "msg-2", "from": KWAME, "to": [USER],
     "date": "2026-03-09 17:00:00", "subject": "Lunch", "body": "Lunch on Friday?"},
    {"type": "ics", "user": USER, "events": [
        {"summary": "Budget review", "start": "2026-03-12 10:00:00", "end": "2026-03-12 11:00:00",
         "location": "Room Aspen", "attendees": [USER, LENA]},
        {"summary": "Standup", "start": "2026-03-11 09:00:00", "end": "2026-03-11 09:15:00", "location": "Room Cedar"},
    ]},
]
_CELLS = [
    switch("excel"),
    act("excel", "read_file", file_path="data/budget.xlsx"),
    act("excel", "set_cell", file_path="data/budget.xlsx", row_idx=4, column_idx=1, text="Total"),
    act("excel", "set_cell", file_path="data/budget.xlsx", row_idx=4, column_idx=2, text=1500),
]
_MAIL = [
    switch("email"),
    act("email", "send_email", sender=USER, recipient=[LENA, OMAR], cc=[YARA], subject="Budget total",
        content="Hi Lena and Omar,\nThe total is 1500 EUR.\nThe review is on 2026-03-12 at 10:00.\nBest,\nMaya",
        attachments=["data/budget.xlsx"]),
]
_CHECKS = [
    {"check": "xlsx_cell", "args": {"file": "data/budget.xlsx", "cell": "B4", "value": 1500}},
    {"check": "email_sent", "args": {"sender": USER, "to": [LENA, OMAR], "cc": [YARA],
                                     "body_contains": ["1500", "2026-03-12", "10:00"]}},
]
WORD_WORK = {
    "id": "mut-word-work", "scenario": "mut-word-work", "category": 3, "apps": ["excel", "word", "email"],
    "user": USER, "user_name": "Maya Lin", "now": "2026-03-10 09:00:00",
    "instruction": ("Put the total of the amounts into B4 of data/budget.xlsx, append the total to data/notes.docx "
                    "and mail the budget to Lena Lin and Omar Hart with Yara Chen in cc saying the total and that "
                    "the review is on 2026-03-12 at 10:00."),
    "office": _OFFICE,
    "checks": _CHECKS + [{"check": "contains", "args": {"file": "data/notes.docx", "text": "1500"}}],
    "gold": _CELLS + [switch("word"), act("word", "write_to_file", file_path="data/notes.docx",
                                          contents="Total: 1500 EUR")] + _MAIL,
}
CALENDAR_WORK = {
    "id": "mut-calendar-work", "scenario": "mut-calendar-work", "category": 3, "apps": ["excel", "email", "calendar"],
    "user": USER, "user_name": "Maya Lin", "now": "2026-03-10 09:00:00",
    "instruction": ("Put the total of the amounts into B4 of data/budget.xlsx, mail the budget to Lena Lin and Omar "
                    "Hart with Yara Chen in cc saying the total and that the review is on 2026-03-12 at 10:00, move "
                    "the budget review to Room Birch and book a follow-up on March 13 at 14:00 there."),
    "office": _OFFICE,
    "checks": _CHECKS + [
        {"check": "ics_event", "args": {"user": USER, "summary": "Budget review", "location": "Room Birch"}},
        {"check": "ics_event", "args": {"user": USER, "summary": "Budget follow-up", "start": "2026-03-13 14:00:00"}},
    ],
    "gold": _CELLS + _MAIL + [
        switch("calendar"),
        act("calendar", "update_event", user=USER, summary="Budget review", location="Room Birch"),
        act("calendar", "create_event", user=USER, summary="Budget follow-up", time_start="2026-03-13 14:00:00",
            time_end="2026-03-13 14:30:00", location="Room Birch", attendees=[USER, LENA]),
    ],
}

# A shell move and a question: move-as-copy and the answer's classes.
FILING = {
    "id": "mut-filing",
    "scenario": "mut-filing",
    "category": 2,
    "apps": ["shell", "excel"],
    "user": USER,
    "now": "2026-03-10 09:00:00",
    "instruction": "Move data/inbox/scan_01.png into data/filed/, then tell me the rent in data/rent.xlsx.",
    "office": [
        {"type": "image", "path": "data/inbox/scan_01.png", "text": "Scan one"},
        {"type": "image", "path": "data/inbox/scan_02.png", "text": "Scan two"},
        {"type": "xlsx", "path": "data/rent.xlsx", "sheets": {"Rent": [["Month", "Rent"], ["March", 1200], ["April", 1250]]}},
    ],
    "checks": [
        {"check": "file_exists", "args": {"file": "data/filed/scan_01.png"}},
        {"check": "answer_equals", "args": {"value": 1200}},
    ],
    "gold": [
        switch("shell"),
        act("shell", "command", command="mkdir -p data/filed && mv data/inbox/scan_01.png data/filed/"),
        switch("excel"),
        act("excel", "read_file", file_path="data/rent.xlsx"),
    ],
    "answer": 1200,
}

# A mail a check reads closed-world: every written-text class (runner/mutants/text.py) applies to it.
WRITTEN = {
    "id": "mut-written", "scenario": "mut-written", "category": 2, "apps": ["excel", "email"],
    "user": USER, "user_name": "Maya Lin", "now": "2026-03-10 09:00:00",
    "instruction": ("Mail Lena Lin the order total, its purchase order, the invoice count and when the review is, "
                    "with Omar Hart in copy."),
    "office": _OFFICE,
    "checks": [{"check": "email_sent", "args": {"sender": USER, "to": LENA, "cc": [OMAR],
                                                "body_contains": ["7,250,000", "2026-03-12", "10:00", "PO-4521"]}}],
    "gold": [switch("excel"), act("excel", "read_file", file_path="data/budget.xlsx"), switch("email"),
             act("email", "send_email", sender=USER, recipient=LENA, cc=[OMAR], subject="Order",
                 content="Hi Lena,\nThe 3 invoices of PO-4521 total $7,250,000.\n"
                         "The review is on Thursday 2026-03-12 at 10:00.")],
}

# A note listing the week's meetings, a copied letter and a dated log row: the pair, list, copy and format
# classes apply to it, and a compound and a full name in the note are written as people do.
LISTED = {
    "id": "mut-listed", "scenario": "mut-listed", "category": 3, "apps": ["calendar", "word", "excel"],
    "user": USER, "user_name": "Maya Lin", "now": "2026-03-10 09:00:00",
    "instruction": ("List this week's budget review and standup with their days in data/note.docx, copy the "
                    "letter into data/copy.docx and log today's desks order in data/log.xlsx."),
    "office": [
        {"type": "ics", "user": USER, "events": [
            {"summary": "Budget review", "start": "2026-03-12 10:00:00", "end": "2026-03-12 11:00:00",
             "attendees": [USER, LENA]},
            {"summary": "Standup", "start": "2026-03-11 09:00:00", "end": "2026-03-11 09:15:00"},
            {"summary": "Design critique", "start": "2026-03-13 14:00:00", "end": "2026-03-13 15:00:00"}]},
        {"type": "docx", "path": "data/note.docx", "paragraphs": ["Week notes", "Meetings:"]},
        {"type": "docx", "path": "data/letter.docx",
         "paragraphs": ["Order 4411", "Chairs: 12 at 149.00", "Desks: 4 at 610.00", "Delivery within 14 days"]},
        {"type": "xlsx", "path": "data/log.xlsx", "sheets": {"Log": [["Date", "Item"], ["2026-03-02", "Chairs"]]}},
    ],
    "checks": [
        {"check": "contains", "args": {"file": "data/note.docx",
                                       "text": ["Budget review", "Standup", "2026-03-12", "2026-03-11"],
                                       "lines": [["Budget review", "2026-03-12"], ["Standup", "2026-03-11"]]}},
        {"check": "contains", "args": {"file": "data/copy.docx", "text": ["149.00", "610.00"]}},
        {"check": "xlsx_cell", "args": {"file": "data/log.xlsx", "cell": "A3", "value": "2026-03-10"}},
    ],
    "gold": [switch("word"),
             act("word", "write_to_file", file_path="data/note.docx",
                 contents="Budget review - Thursday 12 March\nStandup - Wednesday 11 March\n"
                          "Questions on cross-team work go to Lena Lin."),
             act("word", "write_to_file", file_path="data/copy.docx",
                 contents="Order 4411\nChairs: 12 at 149.00\nDesks: 4 at 610.00\nDelivery within 14 days"),
             switch("excel"),
             act("excel", "set_cell", file_path="data/log.xlsx", row_idx=3, column_idx=1, text="2026-03-10"),
             act("excel", "set_cell", file_path="data/log.xlsx", row_idx=3, column_idx=2, text="Desks")],
}


# A mail about items of a table and a forward: the classes that attack the reading against the office's
# records (runner/mutants/records.py) apply to it.
RECORDS = {
    "id": "mut-records", "scenario": "mut-records", "category": 2, "apps": ["excel", "email"],
    "user": USER, "user_name": "Maya Lin", "now": "2026-03-10 09:00:00",
    "instruction": "Mail Lena Lin Acme Tools' open orders from data/orders.xlsx, and forward Kwame's invoice mail "
                   "about INV-2001 to Omar Hart.",
    "office": [
        {"type": "xlsx", "path": "data/orders.xlsx", "sheets": {"Orders": [
            ["Order", "Customer", "Ordered", "Delivered", "Amount"],
            ["SO-1001", "Acme Tools", "2026-03-01", "2026-03-05", 1250.0],
            ["SO-1002", "Birch Supplies", "2026-03-03", "2026-03-08", 830.5],
            ["SO-1003", "Acme Tools", "2026-03-04", "2026-03-09", 2400.0]]}},
        {"type": "eml", "user": USER, "folder": "inbox", "id": "msg-3", "from": KWAME, "to": [USER],
         "date": "2026-03-09 11:00:00", "subject": "Invoice", "body": "Invoice INV-2001 for 400 EUR is attached."},
        {"type": "eml", "user": USER, "folder": "inbox", "id": "msg-4", "from": KWAME, "to": [USER],
         "date": "2026-03-09 15:00:00", "subject": "Invoice", "body": "Second reminder: INV-2002 for 950 EUR is overdue."},
    ],
    "checks": [{"check": "email_sent", "args": {"sender": USER, "to": LENA, "body_contains": ["SO-1001", "SO-1003"]}},
               {"check": "email_sent", "args": {"sender": USER, "to": OMAR}}],
    "gold": [switch("excel"), act("excel", "read_file", file_path="data/orders.xlsx"), switch("email"),
             act("email", "send_email", sender=USER, recipient=LENA, subject="Acme Tools orders",
                 content="Hi Lena,\nTwo orders of Acme Tools are open:\n- SO-1001, ordered on 2026-03-01, £1,250.00\n"
                         "- SO-1003, ordered on 2026-03-04, £2,400.00\nOpen: SO-1001, SO-1003.\nBest,\nMaya"),
             act("email", "forward_email", username=USER, email_id="msg-3", recipient=OMAR,
                 content="Omar, please pay this one.")],
}

def _derived(tmp_path, *tasks: dict) -> dict:
    folder = write_tasks(tmp_path / "tasks", *tasks)
    loaded = load_tasks([folder], include_suite=False)
    return {tid: derive(task, initial_office(task)) for tid, task in loaded.items()}


@pytest.fixture(scope="module")
def derived(tmp_path_factory) -> dict:
    return _derived(tmp_path_factory.mktemp("mutants"), WORD_WORK, CALENDAR_WORK, FILING, ASKING, WRITTEN, LISTED,
                    RECORDS)


def _by_class(mutants) -> dict:
    out: dict = {}
    for m in mutants:
        out.setdefault((m.kind, m.cls), []).append(m)
    return out


def test_every_class_is_derived_where_it_applies(derived):
    classes = {(m.kind, m.cls) for ms in derived.values() for m in ms}
    missing = [f"{WRONG} {c}" for c in WRONG_CLASSES if (WRONG, c) not in classes]
    missing += [f"{RIGHT} {c}" for c in RIGHT_CLASSES if (RIGHT, c) not in classes]
    assert not missing, missing


def test_wrong_mutants_change_what_they_say(derived):
    work = _by_class(derived["mut-word-work"])
    cells = [m for m in work[(WRONG, "number-changed")] if "set_cell" in m.name]
    assert any(a["args"].get("text") == 1600 for m in cells for a in m.actions)  # 1500 -> 1600
    assert any(a["args"].get("text") == 1200 for m in work[(WRONG, "number-distractor")] for a in m.actions)
    rows = [a["args"]["row_idx"] for m in work[(WRONG, "off-row")] for a in m.actions if a["action"] == "set_cell"]
    assert 5 in rows
    assert any(a["args"].get("sheet") == "Notes" for m in work[(WRONG, "off-sheet")] for a in m.actions)
    assert any(a["args"].get("file_path") == "data/budget_2025.xlsx" for m in work[(WRONG, "distractor-file")]
               for a in m.actions)
    sends = lambda ms: [a["args"] for m in ms for a in m.actions if a["action"] == "send_email"]  # noqa: E731
    assert any(KWAME in a["recipient"] for a in sends(work[(WRONG, "recipient-replaced")]))
    assert not work.get((WRONG, "cc-instead-of-to"))  # one of two addressees in cc still gets the mail
    swapped = sends(_by_class(derived["mut-written"])[(WRONG, "cc-instead-of-to")])
    assert swapped and all(a["recipient"] == OMAR and a["cc"] == [LENA] for a in swapped)
    assert any(len(a["attachments"]) == 2 for a in sends(work[(WRONG, "extra-attachment")]))
    stale = work[(WRONG, "stale-attachment")][0].actions
    order = [a["action"] for a in stale if a["app"] != "system"]
    assert order.index("send_email") < order.index("set_cell")
    assert len(work[(WRONG, "step-dropped")]) == 4  # each write step in turn
    assert any(a["args"].get("text") == "1,500" for m in work[(WRONG, "number-as-text")] for a in m.actions)
    doubled = [a["action"] for m in work[(WRONG, "create-twice")] for a in m.actions]
    assert doubled.count("send_email") >= 2 and doubled.count("write_to_file") >= 2
    deletes = [a for m in work[(WRONG, "distractor-deleted")] for a in m.actions[-1:]]
    assert {a["action"] for a in deletes} >= {"command", "delete_row", "delete_event"}
    assert all(not is_read(a) or a["app"] == "system" for m in derived["mut-word-work"] if m.kind == WRONG
               for a in m.actions)  # reads change nothing, so wrong mutants leave them out


def test_event_and_answer_mutants(derived):
    cal = _by_class(derived["mut-calendar-work"])
    starts = [a["args"].get("time_start") for m in cal[(WRONG, "event-start-shifted")] for a in m.actions
              if a["action"] == "create_event"]
    assert "2026-03-13 15:00:00" in starts
    assert any(a["args"].get("location") == "Room Aspen" for m in cal[(WRONG, "event-location-shifted")]
               for a in m.actions)
    beside = cal[(WRONG, "event-beside-update")][0].actions
    created = [a["args"] for a in beside if a["action"] == "create_event"]
    assert created[0]["summary"] == "Budget review" and created[0]["location"] == "Room Birch"
    assert created[0]["time_start"] == "2026-03-12 10:00:00"
    filing = _by_class(derived["mut-filing"])
    assert "cp -r data/inbox/scan_01.png" in filing[(WRONG, "move-as-copy")][0].actions[-1]["args"]["command"]
    assert filing[(WRONG, "answer-distractor")][0].answer == "1250"
    assert filing[(WRONG, "answer-hedged")][0].answer == "Either 1200 or 1250"
    assert filing[(WRONG, "number-changed")][0].answer == 1300  # one more in the last significant digit
    assert filing[(RIGHT, "answer-sentence")][0].answer == "The answer is 1200."


def test_written_text_mutants(derived):
    mail = _by_class(derived["mut-written"])

    def bodies(cls: str, kind: str = WRONG) -> list[str]:
        return [a["args"]["content"] for m in mail[(kind, cls)] for a in m.actions if a["action"] == "send_email"]

    assert any("Friday 2026-03-12" in b for b in bodies("weekday-mismatch"))
    assert all(not b.startswith("Hi Lena") for b in bodies("text-entity-swapped"))
    assert any("10am" in b for b in bodies("time-reformatted", RIGHT))
    assert any("three invoices" in b for b in bodies("number-in-words", RIGHT))
    assert any("$7.25 million" in b for b in bodies("amount-scaled", RIGHT))
    assert any("PO 4521" in b for b in bodies("identifier-reformatted", RIGHT))
    assert any("12 Mar " in b for b in bodies("date-reformatted-natural", RIGHT))
    sends = [a["args"] for m in mail[(RIGHT, "source-attached")] for a in m.actions if a["action"] == "send_email"]
    assert any("data/budget.xlsx" in (a.get("attachments") or []) for a in sends)
    assert mail[(RIGHT, "cc-self")]  # the user copied in
    assert any("by the other count" in b for b in bodies("text-contradiction"))
    assert any(", or " in b or "between " in b for b in bodies("text-hedged"))
    assert any("correction" in b for b in bodies("text-self-corrected"))
    assert any("not " in b for b in bodies("text-negated"))
    assert bodies("greeting-signoff", RIGHT)[0].startswith("Hello,\n\nHi Lena")

def test_pair_list_copy_format_and_case_mutants(derived):
    listed = _by_class(derived["mut-listed"])

    def written(cls: str, path: str, kind: str = WRONG) -> list[str]:
        return [a["args"]["contents"] for m in listed[(kind, cls)] for a in m.actions
                if a["action"] == "write_to_file" and a["args"]["file_path"] == path]

    assert "Budget review - Wednesday 11 March\nStandup - Thursday 12 March" in written("pair-unbound", "data/note.docx")[0]
    assert "Design critique - Friday 13 March" in written("list-extended", "data/note.docx")[0].splitlines()
    assert "Chairs: 12 at 194.00" in written("conversion-altered", "data/copy.docx")[0]
    cells = [a["args"].get("text") for m in listed[(WRONG, "format-broken")] for a in m.actions if a["action"] == "set_cell"]
    assert "10/03/2026" in cells
    recased = [a["args"] for m in listed[(WRONG, "case-edited")] for a in m.actions[-1:]]
    assert {"file_path": "data/log.xlsx", "row_idx": 2, "column_idx": 2, "text": "CHAIRS"} in recased
    assert any("cross team" in t for t in written("hyphenation", "data/note.docx", RIGHT))
    assert any("Lin, Lena" in t for t in written("name-order", "data/note.docx", RIGHT))
    assert written("title-line", "data/copy.docx", RIGHT)[0].startswith("Copy\n\nOrder 4411")
    mail = _by_class(derived["mut-written"])
    bodies = [a["args"]["content"] for m in mail[(RIGHT, "summary-extra-line")] for a in m.actions
              if a["action"] == "send_email"]
    assert "(Taken from data/budget.xlsx.)" in bodies[0]
    asked = [a["args"]["question"] for m in _by_class(derived[ASKING["id"]])[(RIGHT, "question-reworded")]
             for a in m.actions if a["action"] == "ask_user"]
    assert asked and asked[0].startswith("Is it ")


def test_right_mutants_keep_the_outcome(derived):
    work = _by_class(derived["mut-word-work"])
    texts = [a["args"].get("text") for m in work[(RIGHT, "formula")] for a in m.actions if a["action"] == "set_cell"]
    assert "=1500" in texts and "=SUM(B2:B3)" in texts
    reformatted = [a["args"] for m in work[(RIGHT, "number-reformatted")] for a in m.actions]
    assert not any(a.get("text") == "1,500" for a in reformatted)  # a cell's number as text is wrong
    assert not any(str(a.get("text", "")).startswith("€") for a in reformatted)  # so is one with a currency sign
    assert any("€1500.00" in str(a.get("content", "")) for a in reformatted)
    dated = [a["args"]["content"] for m in work[(RIGHT, "date-reformatted")] for a in m.actions if a["action"] == "send_email"]
    assert "12 March 2026" in dated[0]
    body = [a["args"]["content"] for m in work[(RIGHT, "body-reworded")] for a in m.actions if a["action"] == "send_email"][0]
    assert "1500" in body and "2026-03-12" in body and "10:00" in body and body.startswith("Hello Lena and Omar,")
    subject = [a["args"]["subject"] for m in work[(RIGHT, "subject-changed")] for a in m.actions if a["action"] == "send_email"]
    assert subject == ["FYI: Budget total"]
    reordered = [a["action"] for a in work[(RIGHT, "steps-reordered")][0].actions if a["app"] != "system"]
    assert reordered.index("write_to_file") < reordered.index("set_cell")  # independent of the cells
    assert reordered.index("send_email") > max(i for i, a in enumerate(reordered) if a == "set_cell")  # attaches them
    reads = [a for a in work[(RIGHT, "reads-added")][0].actions if is_read(a) and a["app"] != "system"]
    assert len(reads) >= 3
    trips = work[(RIGHT, "switch-roundtrips")][0].actions
    for k, step in enumerate(trips):  # each write step comes right after a switch away and one back
        if not is_read(step):
            away, back = trips[k - 2], trips[k - 1]
            assert away["action"] == back["action"] == "switch_app"
            assert back["args"]["target_app"] == step["app"] != away["args"]["target_app"]


def test_classes_that_do_not_apply_are_named(derived):
    absent = not_applicable(derived["mut-filing"])
    assert "move-as-copy" not in absent and "event-start-shifted" in absent and "formula" in absent


def test_a_mutant_with_the_gold_outcome_is_not_derived(tmp_path):
    # a cell written one row off and later overwritten by the gold is the cell left out: derived once
    same = outcome_key([act("excel", "set_cell", file_path="x.xlsx", row_idx=3, column_idx=1, text=1),
                        act("excel", "set_cell", file_path="x.xlsx", row_idx=3, column_idx=1, text=2)], None)
    assert same == outcome_key([act("excel", "set_cell", file_path="x.xlsx", row_idx=3, column_idx=1, text=2)], None)
    mutants = _derived(tmp_path, variant(QUESTION))["api-question"]
    gold = outcome_key([], QUESTION["answer"])
    assert all(outcome_key(m.actions, m.answer) != gold for m in mutants if m.kind == WRONG)


def test_moves_and_creates_that_change_nothing_are_left_out():
    from officesim.runner.mutants import copy_not_move, shell_writes

    assert copy_not_move("mkdir -p a && mv a/x.png b/ && ls b") == "mkdir -p a && cp -r a/x.png b/ && ls b"
    assert copy_not_move("tar -czf a.tgz logs && rm -r logs") == "tar -czf a.tgz logs"
    same = "mv site/logo.png old/logo.png && cp new/logo.png site/logo.png"  # the source is written again
    assert copy_not_move(same) == same
    assert not shell_writes("mkdir -p data/out") and not shell_writes("awk '$3 > 5' data/x.csv")
    assert shell_writes("grep ERROR log.txt > data/errors.txt")


def test_reword_keeps_the_facts():
    body = "Hi Ann,\nThe total is 1500.\nPlease review by Friday.\nBest,\nMaya"
    new = reword(body, "Send Ann the total.")
    assert "1500" in new and "Friday" in new and "Maya" in new and new.startswith("Hello Ann,")
    assert new.index("Friday") < new.index("1500")  # another order


# ---- through the API ---------------------------------------------------------------------------------
WEAK = {
    "id": "weak-mail-check",
    "scenario": "weak-mail-check",
    "category": 1,
    "apps": ["email"],
    "user": USER,
    "now": "2026-03-10 09:00:00",
    "instruction": f"Tell Lena Lin ({LENA}) that the budget total is 1500.",
    "office": [{"type": "eml", "user": USER, "folder": "inbox", "id": "msg-1", "from": LENA, "to": [USER],
                "date": "2026-03-09 16:00:00", "subject": "Budget", "body": "What is the total? Last year it was 1100."}],
    # deliberately weak: the body's number is never checked (a count on a line of its own has no place the
    # gold fills: evaluators/claims.py reads it against nothing), and mail wording is free in the outcome
    "checks": [{"check": "email_sent", "args": {"sender": USER, "to": LENA}}],
    "gold": [switch("email"), act("email", "send_email", sender=USER, recipient=LENA, subject="Budget total",
                                  content="Hi Lena,\nBudget total, as asked:\n1500\nMaya")],
}


def test_weak_check_lets_a_wrong_mutant_survive_and_is_reported(tmp_path):
    folder = write_tasks(tmp_path / "tasks", WEAK)
    out = io.StringIO()
    target = tmp_path / "mutants.json"
    code = validate([str(folder)], include_suite=False, out=out, mutants=True, json_out=str(target), workers=2)
    text = out.getvalue()
    assert code == 1, text
    survivor = next(line for line in text.splitlines() if line.startswith("SURVIVED weak-mail-check"))
    assert "[wrong number-changed]" in survivor or "[wrong number-distractor]" in survivor
    assert "passed (1/1 checks, no side effect)" in survivor
    assert any(line.startswith("N/A weak-mail-check:") and "formula" in line for line in text.splitlines())
    assert any(line.startswith("FEW weak-mail-check") for line in text.splitlines())
    summary = json.loads(target.read_text())
    task = summary["per_task"]["weak-mail-check"]
    assert task["killed"] < task["wrong"]
    assert text.splitlines()[-2].startswith("mutants of 1 task(s):")


def test_json_shape_and_a_sound_task(tmp_path):
    question = variant(QUESTION, right=[{"name": "answer with the unit", "actions": [], "answer": "1200 EUR"}],
                       office=[{"type": "xlsx", "path": "data/budget.xlsx",
                                "sheets": {"Budget": [["Item", "Amount"], ["Rent", 1200], ["Travel", 300]]}}])
    folder = write_tasks(tmp_path / "tasks", question)
    target = tmp_path / "out.json"
    code = cli_main(["validate", "--no-suite", "--tasks", str(folder), "--mutants", "--json", str(target)])
    summary = json.loads(target.read_text())
    assert set(summary) == {"tasks", "wrong_mutants", "wrong_killed", "right_mutants", "right_passed", "ungraded",
                            "retried_plays", "per_task", "per_class"}
    assert sum(v["mutants"] for v in summary["per_class"].values()) == summary["wrong_mutants"] + summary["right_mutants"]
    assert all(v["ok"] == v["mutants"] for v in summary["per_class"].values())
    assert summary["ungraded"] == 0
    assert summary["tasks"] == 1 and set(summary["per_task"]) == {"api-question"}
    row = summary["per_task"]["api-question"]
    assert set(row) == {"wrong", "killed", "right", "passed"}
    assert all(isinstance(v, int) for v in row.values())
    assert row["wrong"] == summary["wrong_mutants"] and row["right"] == summary["right_mutants"]
    assert row["killed"] == row["wrong"] >= 4 and row["passed"] == row["right"] >= 4  # incl. the authored ones
    assert code == 0


def test_a_failing_right_solution_fails_validation(tmp_path):
    wrongly_right = variant(QUESTION, id="bad-right", right=[{"name": "not the rent", "actions": [], "answer": 300}])
    out = io.StringIO()
    code = validate([str(write_tasks(tmp_path / "tasks", wrongly_right))], include_suite=False, out=out)
    assert code == 1 and "right solution 'not the rent' fails" in out.getvalue()


def test_authored_solutions_count_as_mutants(tmp_path):
    from officesim.runner.mutants import authored

    task = load_tasks([write_tasks(tmp_path / "t", variant(QUESTION, right=[{"name": "r", "actions": [],
                                                                              "answer": 1200}]))],
                      include_suite=False)["api-question"]
    kinds = [(m.kind, m.cls) for m in authored(task)]
    assert kinds == [(WRONG, AUTHORED), (RIGHT, AUTHORED)]


def test_no_date_reformatted_where_the_instruction_fixes_the_form(tmp_path):
    from officesim.runner.mutants import date_form_fixed

    for fixed in ("add the week-of date as YYYY-MM-DD", "the title line 'Agenda for <weekday, month day>'",
                  "each decision as its own line, exactly as written there", "written like 'Friday, November 6'",
                  "the date in DD/MM/YYYY form"):
        assert date_form_fixed(fixed), fixed
    assert not date_form_fixed(WORD_WORK["instruction"]) and not date_form_fixed("written like a letter")
    task = {**WORD_WORK, "id": "mut-iso", "scenario": "mut-iso",
            "instruction": WORD_WORK["instruction"] + " Write dates as YYYY-MM-DD."}
    classes = {(m.kind, m.cls) for m in _derived(tmp_path, task)["mut-iso"]}
    assert (RIGHT, "date-reformatted") not in classes and (RIGHT, "number-reformatted") in classes


def test_the_calendar_owner_is_never_the_joined_attendee(tmp_path):
    task = {"id": "mut-owner", "scenario": "mut-owner", "category": 1, "apps": ["calendar"], "user": USER,
            "now": "2026-03-10 09:00:00",
            "instruction": "Book 'Sync' on March 12 at 10:00 for an hour in Lena's calendar with me as attendee.",
            "office": [{"type": "ics", "user": USER, "events": []}, {"type": "ics", "user": LENA, "events": []}],
            "checks": [{"check": "ics_event", "args": {"user": LENA, "summary": "Sync", "start": "2026-03-12 10:00:00"}}],
            "gold": [switch("calendar"),
                     act("calendar", "create_event", user=LENA, summary="Sync", time_start="2026-03-12 10:00:00",
                         time_end="2026-03-12 11:00:00", attendees=[USER])]}
    mutants = _derived(tmp_path, task)["mut-owner"]
    attendees = [a["args"]["attendees"] for m in mutants if m.cls in ("recipient-joined", "recipient-replaced")
                 for a in m.actions if a["action"] == "create_event"]
    assert all(LENA not in people for people in attendees)


def test_values_the_gold_chose_freely_get_no_mutant(tmp_path):
    task = {"id": "mut-choice", "scenario": "mut-choice", "category": 1, "apps": ["calendar"], "user": USER,
            "now": "2026-03-10 09:00:00",
            "instruction": "Book a one-hour 'Sync' in Lena's calendar on March 12, any time that day.",
            "office": [{"type": "ics", "user": LENA, "events": []}],
            "checks": [{"check": "ics_event", "args": {"user": LENA, "summary": "Sync"}}],
            "gold": [switch("calendar"),
                     act("calendar", "create_event", user=LENA, summary="Sync", time_start="2026-03-12 10:00:00",
                         time_end="2026-03-12 11:00:00")]}
    shifted = {"event-start-shifted", "event-end-shifted", "number-changed"}
    before = {m.cls for m in _derived(tmp_path / "a", task)["mut-choice"]}
    assert shifted <= before
    chosen = {**task, "choices": [{"event": "Sync", "why": "the instruction leaves the hour open"}]}
    after = {m.cls for m in _derived(tmp_path / "b", chosen)["mut-choice"]}
    assert not (shifted & after)
    end_open = {**task, "choices": [{"event": "Sync", "end_only": True, "why": "only the start is given"}]}
    classes = {m.cls for m in _derived(tmp_path / "d", end_open)["mut-choice"]}
    assert "event-start-shifted" in classes and "event-end-shifted" not in classes
    with pytest.raises(Exception, match="exactly one of value or event"):
        _derived(tmp_path / "c", {**task, "choices": [{"why": "nothing named"}]})


def test_date_reformatted_keeps_a_dated_columns_form(derived, tmp_path):
    """A cell in a column of ISO dates takes the column's form: another form is format-broken's wrong
    outcome, so date-reformatted leaves such a cell alone (and still rewrites a date in text)."""
    listed = _by_class(derived["mut-listed"])
    dated = listed[(RIGHT, "date-reformatted")]
    cells = [a["args"]["text"] for m in dated for a in m.actions if a["action"] == "set_cell"]
    assert cells and all(t == "2026-03-10" for t in cells if t != "Desks")
    assert any("Thursday 12 March 2026" in a["args"]["contents"] for m in dated for a in m.actions
               if a["action"] == "write_to_file")
    # a column the office leaves without dates, written once by the gold: its date may take another form
    free = {**LISTED, "id": "mut-listed-free", "scenario": "mut-listed-free",
            "office": [e if e.get("path") != "data/log.xlsx" else
                       {"type": "xlsx", "path": "data/log.xlsx", "sheets": {"Log": [["Date", "Item"], ["", "Chairs"]]}}
                       for e in LISTED["office"]]}
    ms = _by_class(_derived(tmp_path, free)["mut-listed-free"])
    assert "10 March 2026" in [a["args"]["text"] for m in ms[(RIGHT, "date-reformatted")] for a in m.actions
                               if a["action"] == "set_cell"]


def test_a_phone_numbers_digits_are_no_amounts():
    from officesim.evaluators.facts import phone_spans

    text = "Bruno: +44 7700 900852; Ada: 020 7946 0018; 12 chairs at 1,500"
    assert [text[a:b] for a, b in phone_spans(text)] == ["+44 7700 900852", "020 7946 0018"]


def test_the_readme_and_the_docs_list_every_registered_class():
    """The README's mutation section and docs/mutation-testing.md give each class of the registry its one
    line, and list no class the registry does not have."""
    import re
    from pathlib import Path

    from officesim.runner.mutants.registry import CLASSES

    root = Path(__file__).resolve().parents[1]
    section = (root / "README.md").read_text(encoding="utf-8").split("## Mutation testing", 1)[1].split("\n## ", 1)[0]
    docs = (root / "docs" / "mutation-testing.md").read_text(encoding="utf-8")
    for text in (section, docs):
        listed = set(re.findall(r"^- `(wrong|right) ([\w-]+)`", text, re.M))
        assert listed == {(c.kind, c.name) for c in CLASSES}
        for c in CLASSES:
            assert f"`{c.kind} {c.name}`" in text and c.line in " ".join(text.split()), c.name
