"""testbed.diff: item-level changes and side effects against the gold run, over parsed states."""

from __future__ import annotations

import copy

from officesim.testbed.diff import Change, diff_states, side_effects

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


# ---- diff_states ---------------------------------------------------------------------------------
def test_no_change_no_diff():
    assert diff_states(base_state(), base_state()) == []


def test_cell_level_changes():
    before = base_state()
    after = with_total(before)
    after["data/budget.xlsx"]["sheets"]["Budget"][1][1] = 1300
    changes = diff_states(before, after)
    assert [str(c) for c in changes] == [
        "data/budget.xlsx: modified (sheet Budget: B2 1200 -> 1300)",
        "data/budget.xlsx: modified (sheet Budget: A3 empty -> 'Total')",
        "data/budget.xlsx: modified (sheet Budget: B3 empty -> 1200)",
    ]
    assert changes[0] == Change("data/budget.xlsx", "modified", "sheet Budget: B2", "1200 -> 1300", 1200, 1300)


def test_equal_numbers_of_other_types_are_not_a_change():
    before, after = base_state(), base_state()
    after["data/budget.xlsx"]["sheets"]["Budget"][1][1] = 1200.0
    assert diff_states(before, after) == []
    after["data/budget.xlsx"]["sheets"]["Budget"][1][1] = "1200"
    assert len(diff_states(before, after)) == 1


def test_paragraph_changes():
    before, after = base_state(), base_state()
    after["data/notes.docx"]["paragraphs"] = ["Minutes", "Decided: ship", "Next steps"]
    assert [c.describe() for c in diff_states(before, after)] == [
        "paragraph 2 'Decisions' -> 'Decided: ship'",
        "paragraph 3 added: 'Next steps'",
    ]


def test_event_changes_ignore_uids():
    before, after = base_state(), base_state()
    for i, ev in enumerate(after[CAL]["events"]):
        ev["uid"] = f"regenerated-{i}"
    assert diff_states(before, after) == []
    after[CAL]["events"][1]["start"] = "2026-03-11 16:00:00"
    after[CAL]["events"][1]["end"] = "2026-03-11 17:00:00"
    (change,) = diff_states(before, after)
    assert change.item == "event 'Review'"
    assert "start '2026-03-11 14:00:00' -> '2026-03-11 16:00:00'" in change.detail


def test_files_added_and_removed_and_message_headers_ignored():
    before, after = base_state(), base_state()
    del after["data/todo.txt"]
    after["data/new.txt"] = {"kind": "text", "text": "x"}
    after[f"emails/{USER}/msg-1.eml"]["message_id"] = "<other@x>"
    after[f"emails/{USER}/msg-1.eml"]["date"] = "2026-03-10 10:00:00"
    assert [str(c) for c in diff_states(before, after)] == ["data/new.txt: added", "data/todo.txt: removed"]


def test_file_turned_corrupt():
    before, after = base_state(), base_state()
    after["data/notes.docx"] = {"kind": "corrupt", "error": "BadZipFile", "size": 3, "sha256": "ab"}
    (change,) = diff_states(before, after)
    assert change.action == "modified" and "docx -> corrupt" in change.detail


# ---- side effects --------------------------------------------------------------------------------
def test_expected_change_is_no_side_effect():
    before = base_state()
    assert side_effects(before, with_total(before), with_total(before)) == []


def test_unrelated_file_modified_is_a_side_effect():
    before = base_state()
    agent = with_total(before)
    agent["data/revenue.xlsx"]["sheets"]["Revenue"][1][1] = 0
    assert side_effects(before, agent, with_total(before)) == [
        "data/revenue.xlsx: modified (sheet Revenue: B2 50000 -> 0)"]


def test_extra_cell_in_a_file_gold_changed_is_a_side_effect_but_a_wrong_value_is_not():
    before = base_state()
    agent = with_total(before, amount=999)  # wrong total: the checks judge it
    assert side_effects(before, agent, with_total(before)) == []
    agent["data/budget.xlsx"]["sheets"]["Budget"][0][0] = "Line item"
    assert side_effects(before, agent, with_total(before)) == [
        "data/budget.xlsx: modified (sheet Budget: A1 'Item' -> 'Line item')"]


def test_file_changed_differently_from_gold_is_not_a_side_effect():
    before = base_state()
    gold, agent = base_state(), base_state()
    gold["data/notes.docx"]["paragraphs"].append("Owner: Maya")
    agent["data/notes.docx"]["paragraphs"].append("Owner: Bob")
    assert side_effects(before, agent, gold) == []


def test_new_and_deleted_files_are_side_effects():
    before = base_state()
    agent = base_state()
    agent["data/scratch.txt"] = {"kind": "text", "text": "tmp"}
    del agent["data/todo.txt"]
    assert side_effects(before, agent, base_state()) == ["data/scratch.txt: added", "data/todo.txt: removed"]


def test_deleted_event_is_a_side_effect():
    before = base_state()
    gold = base_state()
    gold[CAL]["events"].append(event("Lunch", "2026-03-12 12:00:00", "2026-03-12 13:00:00", "gold-uid"))
    agent = copy.deepcopy(gold)
    agent[CAL]["events"][-1]["uid"] = "agent-uid"  # same event, another UID: fine
    assert side_effects(before, agent, gold) == []
    agent[CAL]["events"] = [e for e in agent[CAL]["events"] if e["summary"] != "Standup"]
    (line,) = side_effects(before, agent, gold)
    assert line.startswith(f"{CAL}: modified (event 'Standup' removed")


def test_event_gold_moved_and_agent_moved_elsewhere_is_not_a_side_effect():
    before = base_state()
    gold, agent = base_state(), base_state()
    gold[CAL]["events"][1]["start"] = "2026-03-11 16:00:00"
    agent[CAL]["events"][1]["start"] = "2026-03-11 17:00:00"
    assert side_effects(before, agent, gold) == []


def test_differently_stemmed_identical_sent_email_is_no_side_effect():
    before = base_state()
    gold, agent = base_state(), base_state()
    gold[f"emails/{USER}/sent/msg-1.eml"] = message("msg-1", "sent", USER, USER, [BOB], "Budget total",
                                                    message_id="<gold@x>")
    gold[f"emails/{BOB}/msg-1.eml"] = message("msg-1", "inbox", BOB, USER, [BOB], "Budget total", message_id="<gold@x>")
    agent[f"emails/{USER}/sent/msg-7.eml"] = message("msg-7", "sent", USER, USER, [BOB], "budget TOTAL ",
                                                     message_id="<agent@x>", date="2026-03-10 09:07:00")
    agent[f"emails/{BOB}/msg-3.eml"] = message("msg-3", "inbox", BOB, USER, [BOB], "budget TOTAL ",
                                               message_id="<agent@x>", date="2026-03-10 09:07:00")
    assert side_effects(before, agent, gold) == []


def test_extra_email_is_a_side_effect():
    before = base_state()
    gold = base_state()
    gold[f"emails/{USER}/sent/msg-1.eml"] = message("msg-1", "sent", USER, USER, [BOB], "Budget total")
    agent = copy.deepcopy(gold)
    agent[f"emails/{USER}/sent/msg-2.eml"] = message("msg-2", "sent", USER, USER, [CAROL], "FYI")
    assert side_effects(before, agent, gold) == [
        f"emails/{USER}/sent/: extra message (from {USER} to {CAROL}: 'FYI')"]


def test_misdirected_email_reports_the_wrong_inbox_only():
    before = base_state()
    gold, agent = base_state(), base_state()
    gold[f"emails/{USER}/sent/msg-1.eml"] = message("msg-1", "sent", USER, USER, [BOB], "Budget")
    gold[f"emails/{BOB}/msg-1.eml"] = message("msg-1", "inbox", BOB, USER, [BOB], "Budget")
    agent[f"emails/{USER}/sent/msg-1.eml"] = message("msg-1", "sent", USER, USER, [CAROL], "Budget")
    agent[f"emails/{CAROL}/msg-1.eml"] = message("msg-1", "inbox", CAROL, USER, [CAROL], "Budget")
    # The sent folder got one message in both runs (judged by the checks); Carol's inbox did not.
    assert side_effects(before, agent, gold) == [
        f"emails/{CAROL}/: extra message (from {USER} to {CAROL}: 'Budget')"]


def test_changed_existing_message_is_a_side_effect():
    before = base_state()
    agent = base_state()
    agent[f"emails/{USER}/msg-1.eml"]["body"] = "tampered"
    assert side_effects(before, agent, base_state()) == [f"emails/{USER}/msg-1.eml: modified (body changed)"]


def test_long_change_lists_are_brief():
    before = base_state()
    agent = base_state()
    agent["data/revenue.xlsx"]["sheets"]["Revenue"] = [[i, i] for i in range(5)]
    (line,) = side_effects(before, agent, base_state())
    assert line.startswith("data/revenue.xlsx: modified (sheet Revenue: A1 'Quarter' -> 0;")
    assert line.endswith("and 7 more)")


def test_long_paragraph_change_shows_where_it_differs():
    before, after = base_state(), base_state()
    before["data/notes.docx"]["paragraphs"][1] = "This agreement is made in 2025 between Bluefin Logistics Ltd and us."
    after["data/notes.docx"]["paragraphs"][1] = "This agreement is made in 2025 between Bluefin Freight Group Ltd and us."
    (change,) = diff_states(before, after)
    assert "Logistics" in change.detail and "Freight" in change.detail
    assert change.detail.startswith("'...")
