"""testbed.diff: item-level changes between two parsed states (what reports show)."""

from __future__ import annotations


from officesim.testbed.diff import Change, diff_states

from tests._states import CAL, USER, base_state, with_total

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


def test_long_paragraph_change_shows_where_it_differs():
    before, after = base_state(), base_state()
    before["data/notes.docx"]["paragraphs"][1] = "This agreement is made in 2025 between Bluefin Logistics Ltd and us."
    after["data/notes.docx"]["paragraphs"][1] = "This agreement is made in 2025 between Bluefin Freight Group Ltd and us."
    (change,) = diff_states(before, after)
    assert "Logistics" in change.detail and "Freight" in change.detail
    assert change.detail.startswith("'...")


def test_two_events_of_one_title_and_time_one_without_a_place_compare_and_sort():
    from datetime import datetime

    from officesim.testbed.diff import same

    start, end = datetime(2026, 12, 1, 10, 0), datetime(2026, 12, 1, 10, 30)
    old = {"kind": "ics", "user": "a@x.test", "events": [
        {"summary": "Supplier call", "start": start, "end": end, "location": "Room 2", "attendees": []}]}
    new = {"kind": "ics", "user": "a@x.test", "events": [
        *old["events"], {"summary": "Supplier call", "start": start, "end": end, "location": None, "attendees": []}]}
    assert not same(old, new)  # the new event beside the old one is a change, not a crash
    assert same(new, {**new, "events": list(reversed(new["events"]))})
