"""evaluators.outcome: every difference from the gold office is a side effect; what legitimately
varies between two correct runs is not."""

from __future__ import annotations

import copy

from officesim.evaluators.outcome import MailTolerance, compare, side_effects
from tests._states import BOB, CAL, CAROL, USER, base_state, event, message, with_total

SENT = f"emails/{USER}/sent"


def test_the_gold_outcome_has_no_side_effect():
    before = base_state()
    assert side_effects(before, with_total(before), with_total(before)) == []


def test_unrelated_file_modified_is_a_side_effect():
    before = base_state()
    agent = with_total(before)
    agent["data/revenue.xlsx"]["sheets"]["Revenue"][1][1] = 0
    (line,) = side_effects(before, agent, with_total(before))
    assert line.startswith("data/revenue.xlsx: differs") and "Revenue!B2 is '0', correct: '50000'" in line


def test_a_wrong_value_where_gold_writes_is_a_difference_but_its_form_is_not():
    before = base_state()
    assert side_effects(before, with_total(before, amount="1,200.00"), with_total(before)) == []
    assert side_effects(before, with_total(before, amount="$1200"), with_total(before)) == []
    (line,) = side_effects(before, with_total(before, amount=1300), with_total(before))
    assert "Budget!B3 is '1300', correct: '1200'" in line


def test_text_cells_compare_without_case_or_spacing():
    before = base_state()
    gold, agent = copy.deepcopy(before), copy.deepcopy(before)
    gold["data/budget.xlsx"]["sheets"]["Budget"].append(["Status", "Approved"])
    agent["data/budget.xlsx"]["sheets"]["Budget"].append(["status ", "APPROVED"])
    assert side_effects(before, agent, gold) == []


def test_a_text_cell_the_gold_leaves_alone_may_not_be_re_cased():
    before = base_state()
    agent = with_total(before)
    agent["data/budget.xlsx"]["sheets"]["Budget"][1][0] = "RENT"
    (line,) = side_effects(before, agent, with_total(before))
    assert "Budget!A2 is 'RENT', re-cased" in line
    agent["data/budget.xlsx"]["sheets"]["Budget"][1][0] = "Rent "
    assert side_effects(before, agent, with_total(before)) == []


def test_new_deleted_and_kept_files():
    before = base_state()
    agent = base_state()
    agent["data/scratch.txt"] = {"kind": "text", "text": "tmp"}
    del agent["data/todo.txt"]
    assert side_effects(before, agent, base_state()) == [
        "data/scratch.txt: extra file (the correct outcome has none)",
        "data/todo.txt: removed (the correct outcome keeps it)"]


def test_copy_instead_of_move_leaves_the_original():
    before = base_state()
    gold = copy.deepcopy(before)
    gold["archive/todo.txt"] = gold.pop("data/todo.txt")
    agent = copy.deepcopy(before)
    agent["archive/todo.txt"] = agent["data/todo.txt"]
    assert side_effects(before, agent, gold) == ["data/todo.txt: still there (the correct outcome removes it)"]


def test_free_paths_are_not_compared():
    before = base_state()
    gold = copy.deepcopy(before)
    gold["out/summary.pdf"] = {"kind": "pdf", "pages": ["Total 1200"]}
    agent = copy.deepcopy(before)
    agent["out/budget-summary.pdf"] = {"kind": "pdf", "pages": ["Total: 1,200"]}
    assert len(side_effects(before, agent, gold)) == 2
    assert side_effects(before, agent, gold, free=["out/*.pdf"]) == []
    assert side_effects(before, agent, gold, free=["out/"]) == []


def test_docx_prose_is_free_but_duplicates_and_collateral_are_not():
    before = base_state()
    gold = copy.deepcopy(before)
    gold["data/notes.docx"]["paragraphs"].append("Owner: Maya")
    worded = copy.deepcopy(before)
    worded["data/notes.docx"]["paragraphs"].append("Maya owns it")
    assert side_effects(before, worded, gold) == []
    more = copy.deepcopy(worded)  # one line more than gold writes: free wording (the checks judge its facts)
    more["data/notes.docx"]["paragraphs"].append("Bob was the owner until March")
    assert side_effects(before, more, gold) == []
    twice = copy.deepcopy(more)
    twice["data/notes.docx"]["paragraphs"].append("Owner: Bob")
    (line,) = side_effects(before, twice, gold)
    assert "3 new or rewritten paragraph(s), the correct outcome has 1" in line
    repeated = copy.deepcopy(worded)
    repeated["data/notes.docx"]["paragraphs"].append("Maya owns it")
    (line,) = side_effects(before, repeated, gold)
    assert "appears twice: 'maya owns it'" in line
    collateral = copy.deepcopy(worded)
    collateral["data/notes.docx"]["paragraphs"][0] = "Minutes (draft)"
    (line,) = side_effects(before, collateral, gold)
    assert "original paragraph(s) changed or removed" in line
    reordered = copy.deepcopy(gold)
    reordered["data/notes.docx"]["paragraphs"][:2] = ["Decisions", "Minutes"]
    (line,) = side_effects(before, reordered, gold)
    assert "another order" in line


def test_appended_lines_repeated_fail():
    before = base_state()
    gold = copy.deepcopy(before)
    gold["data/todo.txt"]["text"] = "one\ntwo\nthree\nfour\n"
    agent = copy.deepcopy(before)
    agent["data/todo.txt"]["text"] = "one\ntwo\nthree\nthree\n"
    (line,) = side_effects(before, agent, gold)
    assert "appears twice" in line


def test_duplicate_event_and_unmoved_original_fail():
    before = base_state()
    gold = copy.deepcopy(before)
    gold[CAL]["events"][1]["start"] = "2026-03-11 16:00:00"
    gold[CAL]["events"][1]["end"] = "2026-03-11 17:00:00"
    moved = copy.deepcopy(gold)
    moved[CAL]["events"][1]["uid"] = "another"
    moved[CAL]["events"][1]["summary"] = "Design review"  # the title of a moved event may be reworded
    assert side_effects(before, moved, gold) == []
    beside = copy.deepcopy(before)  # a second event created instead of moving the first
    beside[CAL]["events"].append(event("Review", "2026-03-11 16:00:00", "2026-03-11 17:00:00", "new"))
    (line,) = side_effects(before, beside, gold)
    assert "extra event 'review' at 2026-03-11 14:00:00" in line
    twice = copy.deepcopy(gold)
    twice[CAL]["events"].append(copy.deepcopy(gold[CAL]["events"][1]))
    (line,) = side_effects(before, twice, gold)
    assert "extra event" in line


def test_event_end_and_location_count():
    before = base_state()
    gold = copy.deepcopy(before)
    gold[CAL]["events"].append(dict(event("Lunch", "2026-03-12 12:00:00", "2026-03-12 13:00:00", "g"), location="Room 4"))
    for field, value in (("end", "2026-03-12 12:30:00"), ("location", "Room 5"), ("attendees", [BOB])):
        agent = copy.deepcopy(gold)
        agent[CAL]["events"][-1][field] = value
        assert side_effects(before, agent, gold), field
    agent = copy.deepcopy(gold)
    agent[CAL]["events"][-1]["location"] = " room 4"
    assert side_effects(before, agent, gold) == []


def test_renaming_an_untouched_event_is_collateral():
    before = base_state()
    agent = copy.deepcopy(before)
    agent[CAL]["events"][0]["summary"] = "Daily standup"
    assert any("'standup'" in line for line in side_effects(before, agent, before))


def _sent(state, to, subject="Budget", cc=(), attachments=(), stem="msg-1"):
    state[f"{SENT}/{stem}.eml"] = dict(message(stem, "sent", USER, USER, to, subject, cc=cc),
                                       attachments=list(attachments))


def test_sent_mail_wording_is_free_recipients_are_not():
    before = base_state()
    gold = copy.deepcopy(before)
    _sent(gold, [BOB], "Budget total")
    agent = copy.deepcopy(before)
    _sent(agent, [BOB], "The total you asked for", stem="msg-9")
    assert side_effects(before, agent, gold) == []
    for kwargs in ({"to": [CAROL]}, {"to": [BOB, CAROL]}, {"to": [BOB], "cc": [CAROL]}):
        agent = copy.deepcopy(before)
        _sent(agent, **kwargs)
        assert side_effects(before, agent, gold), kwargs
    extra = copy.deepcopy(gold)
    _sent(extra, [CAROL], "Reminder", stem="msg-2")
    assert side_effects(before, extra, gold) == [f"{SENT}/: extra message to {CAROL}: 'Reminder'"]


def _attachment(name, content, sha):
    return {"filename": name, "size": 10, "sha256": sha, "content": dict(content, sha256=sha)}


def test_attachments_compare_by_content():
    before = base_state()
    edited = {"kind": "docx", "paragraphs": ["Minutes", "Decisions", "Approved"], "tables": []}
    original = {"kind": "docx", "paragraphs": ["Minutes", "Decisions"], "tables": []}
    gold = copy.deepcopy(before)
    _sent(gold, [BOB], attachments=[_attachment("notes.docx", edited, "aaa")])
    same_words = copy.deepcopy(before)  # written by another library: other bytes, same document
    _sent(same_words, [BOB], attachments=[_attachment("notes.docx", edited, "bbb")])
    assert side_effects(before, same_words, gold) == []
    stale = copy.deepcopy(before)  # mailed before the edit
    _sent(stale, [BOB], attachments=[_attachment("notes.docx", original, "ccc")])
    assert side_effects(before, stale, gold)
    extra = copy.deepcopy(before)
    _sent(extra, [BOB], attachments=[_attachment("notes.docx", edited, "aaa"),
                                     _attachment("invoice.pdf", {"kind": "pdf", "pages": ["x"]}, "ddd")])
    assert side_effects(before, extra, gold)


def test_archive_members_are_looked_into():
    before = base_state()
    gold = copy.deepcopy(before)
    gold["out/all.zip"] = {"kind": "archive", "members": [{"name": "a.pdf", "sha256": "1"}, {"name": "b.pdf", "sha256": "2"}]}
    agent = copy.deepcopy(before)
    agent["out/all.zip"] = {"kind": "archive", "members": [{"name": "docs/a.pdf", "sha256": "1"},
                                                           {"name": "b.pdf", "sha256": "9"}]}
    (line,) = side_effects(before, agent, gold)
    assert "'b.pdf'" in line


def test_pictures_and_scanned_pages_compare_by_digest():
    before = base_state()
    a = "f" * 64 + ":" + "f" * 64
    near = "f" * 62 + "00:" + "f" * 63 + "0"  # 8 and 4 bits off
    far = "0" * 64 + ":" + "f" * 64
    gold = dict(before, **{"out/scan.pdf": {"kind": "pdf", "pages": [""], "page_digests": {"0": a}}})
    assert side_effects(before, dict(before, **{"out/scan.pdf": {"kind": "pdf", "pages": [""], "page_digests": {"0": near}}}), gold) == []
    assert side_effects(before, dict(before, **{"out/scan.pdf": {"kind": "pdf", "pages": [""], "page_digests": {"0": far}}}), gold)


def test_formula_counts_by_its_value():
    before = base_state()
    gold = with_total(before, amount=1200)
    agent = with_total(before, amount=1200)  # parse puts the computed value in the cell
    agent["data/budget.xlsx"]["formulas"] = {"Budget!B3": "=SUM(B2:B2)"}
    assert side_effects(before, agent, gold) == []


def test_appended_rows_in_another_order_are_the_same_outcome():
    before = base_state()
    gold = copy.deepcopy(before)
    gold["data/budget.xlsx"]["sheets"]["Budget"] += [["Travel", 300], ["Fees", 80]]
    agent = copy.deepcopy(before)
    agent["data/budget.xlsx"]["sheets"]["Budget"] += [["Fees", 80], ["Travel", 300]]
    assert side_effects(before, agent, gold) == []
    gap = copy.deepcopy(before)  # a blank row before them is another sheet
    gap["data/budget.xlsx"]["sheets"]["Budget"] += [[None, None], ["Fees", 80], ["Travel", 300]]
    assert side_effects(before, gap, gold)
    mixed = copy.deepcopy(before)  # values moved between rows are not rows in another order
    mixed["data/budget.xlsx"]["sheets"]["Budget"] += [["Travel", 80], ["Fees", 300]]
    assert side_effects(before, mixed, gold)
    moved_original = copy.deepcopy(gold)  # an original row must stay where it stood
    rows = moved_original["data/budget.xlsx"]["sheets"]["Budget"]
    rows[1], rows[2] = rows[2], rows[1]
    assert side_effects(before, moved_original, gold)


def test_a_place_named_with_words_around_it():
    before = base_state()
    gold = copy.deepcopy(before)
    gold[CAL]["events"].append(dict(event("Sync", "2026-03-12 12:00:00", "2026-03-12 13:00:00", "g"), location="Room Birch"))
    agent = copy.deepcopy(gold)
    agent[CAL]["events"][-1]["location"] = "birch"
    assert side_effects(before, agent, gold) == []
    agent[CAL]["events"][-1]["location"] = "Room Birchwood"
    assert side_effects(before, agent, gold)


def test_the_calendar_owner_among_the_attendees_is_the_same_event():
    before = base_state()
    gold = copy.deepcopy(before)
    gold[CAL]["events"].append(dict(event("Sync", "2026-03-12 12:00:00", "2026-03-12 13:00:00", "g"), attendees=[BOB]))
    agent = copy.deepcopy(gold)
    agent[CAL]["events"][-1]["attendees"] = [BOB, USER.upper()]
    assert side_effects(before, agent, gold) == []


def test_an_original_picture_moved_must_be_the_very_file():
    before = base_state()
    digest = "f" * 64 + ":" + "f" * 64
    before["scans/a.png"] = {"kind": "image", "sha256": "aaa", "digest": digest}
    before["scans/b.png"] = {"kind": "image", "sha256": "bbb", "digest": digest}  # looks alike: page 1 and 2
    gold = {k: v for k, v in before.items() if not k.startswith("scans/")}
    gold["out/page1.png"], gold["out/page2.png"] = before["scans/a.png"], before["scans/b.png"]
    swapped = {k: v for k, v in before.items() if not k.startswith("scans/")}
    swapped["out/page1.png"], swapped["out/page2.png"] = before["scans/b.png"], before["scans/a.png"]
    assert len(side_effects(before, swapped, gold)) == 2
    assert side_effects(before, dict(gold), gold) == []


# ---- collateral and missing ----------------------------------------------------------------------
def test_doing_nothing_is_missing_never_collateral():
    before = base_state()
    gold = with_total(before)
    gold[CAL]["events"].append(event("Sync", "2026-03-12 12:00:00", "2026-03-12 13:00:00", "g"))
    gold["out/summary.txt"] = {"kind": "text", "text": "Total 1200\n"}
    gold["data/todo.txt"]["text"] = "one\ntwo\nthree\n"
    del gold["data/notes.docx"]
    _sent(gold, [BOB], "Budget total")
    gold[f"emails/{BOB}/msg-7.eml"] = message("msg-7", "inbox", BOB, USER, [BOB], "Budget total")
    noop = compare(before, copy.deepcopy(before), gold)
    assert noop.collateral == [] and len(noop.missing) == len(noop.side_effects) == 7
    assert "data/notes.docx: still there (the correct outcome removes it)" in noop.missing


def test_changes_gold_does_not_make_are_collateral():
    before = base_state()
    gold = with_total(before)
    agent = with_total(before)
    agent["data/revenue.xlsx"]["sheets"]["Revenue"][1][1] = 0
    agent["data/scratch.txt"] = {"kind": "text", "text": "tmp"}
    del agent["data/todo.txt"]
    agent[CAL]["events"].append(event("Extra", "2026-03-12 12:00:00", "2026-03-12 13:00:00", "x"))
    _sent(agent, [CAROL], "Hello")
    out = compare(before, agent, gold)
    assert out.missing == [] and len(out.collateral) == len(out.side_effects) == 5


def test_a_cell_left_as_it_was_is_missing_a_wrong_value_collateral():
    before = base_state()
    before["data/budget.xlsx"]["sheets"]["Budget"].append(["Total", None])
    gold = copy.deepcopy(before)
    gold["data/budget.xlsx"]["sheets"]["Budget"][2][1] = 1200
    gold["data/budget.xlsx"]["sheets"]["Budget"][1][0] = "Rent (paid)"
    half = copy.deepcopy(before)
    half["data/budget.xlsx"]["sheets"]["Budget"][2][1] = 1200  # one of gold's two cells written
    out = compare(before, half, gold)
    assert out.collateral == [] and len(out.missing) == 1 and "Budget!A2 is 'Rent'" in out.missing[0]
    wrong = copy.deepcopy(half)
    wrong["data/budget.xlsx"]["sheets"]["Budget"][2][1] = 1300
    out = compare(before, wrong, gold)
    (c,), (m,) = out.collateral, out.missing  # one file, split by kind; side_effects keeps one line
    assert "B3 is '1300'" in c and "A2" not in c and "A2 is 'Rent'" in m
    assert len(out.side_effects) == 1 and "B3" in out.side_effects[0] and "A2" in out.side_effects[0]


# ---- one line more than gold -----------------------------------------------------------------------
def test_a_title_line_before_a_list_is_not_a_side_effect_a_repeat_is():
    before = base_state()
    gold = copy.deepcopy(before)
    gold["out/list.txt"] = {"kind": "text", "text": "Rent 1200\nTravel 300\n"}
    titled = copy.deepcopy(before)
    titled["out/list.txt"] = {"kind": "text", "text": "Budget items\n\nRent 1200\nTravel 300\n"}
    assert side_effects(before, titled, gold) == []
    repeated = copy.deepcopy(before)
    repeated["out/list.txt"] = {"kind": "text", "text": "Rent 1200\nTravel 300\nRent 1200\n"}
    assert side_effects(before, repeated, gold)
    two_more = copy.deepcopy(before)
    two_more["out/list.txt"] = {"kind": "text", "text": "Budget\nItems\nRent 1200\nTravel 300\n"}
    assert side_effects(before, two_more, gold)
    untouched = copy.deepcopy(before)  # a file gold leaves alone gets no line
    untouched["data/todo.txt"]["text"] = "one\ntwo\nthree\n"
    assert side_effects(before, untouched, before)
    again = copy.deepcopy(before)  # an original line written again is a repeat
    again["data/todo.txt"]["text"] = "one\ntwo\nthree\none\n"
    gold_todo = copy.deepcopy(before)
    gold_todo["data/todo.txt"]["text"] = "one\ntwo\nthree\n"
    assert side_effects(before, again, gold_todo)


# ---- mail a reasonable user accepts -------------------------------------------------------------
def _mail(state, to, subject="Budget", *, cc=(), attachments=(), stem="msg-1", body="Hello", sender=USER):
    """A message sent by ``sender`` as send_email writes it: the sent copy and one per recipient."""
    state[f"emails/{sender}/sent/{stem}.eml"] = dict(message(stem, "sent", sender, sender, to, subject, cc=cc, body=body),
                                                    attachments=list(attachments))
    for who in [*to, *cc]:
        state[f"emails/{who}/{stem}-{subject}.eml"] = dict(message(stem, "inbox", who, sender, to, subject, cc=cc,
                                                                   body=body), attachments=list(attachments))


TOTALS = {"kind": "xlsx", "sheets": {"Budget": [["Item", "Amount"], ["Rent", 1200], ["Total", 1200]]},
          "sheet_order": ["Budget"]}


def test_the_sender_may_cc_themself():
    before = base_state()
    gold = copy.deepcopy(before)
    _mail(gold, [BOB], "Budget total")
    agent = copy.deepcopy(before)
    _mail(agent, [BOB], "The total", cc=[USER])  # also lands in the user's own inbox
    assert side_effects(before, agent, gold) == []
    other = copy.deepcopy(before)
    _mail(other, [BOB], "The total", cc=[CAROL])
    assert side_effects(before, other, gold)


def test_an_unmodified_task_file_may_be_attached_a_changed_one_not():
    before = base_state()
    gold = with_total(before)
    _mail(gold, [BOB], "Budget total")
    tolerance = MailTolerance(relevant=frozenset({"data/budget.xlsx"}))
    agent = with_total(before)
    _mail(agent, [BOB], "Budget total", attachments=[_attachment("budget.xlsx", TOTALS, "s1")])
    assert side_effects(before, agent, gold, tolerance=tolerance) == []
    assert side_effects(before, agent, gold)  # without the task's files named, an attachment is extra
    stale = with_total(before)  # the sheet as it was before the total
    _mail(stale, [BOB], "Budget total", attachments=[_attachment("budget.xlsx", base_state()["data/budget.xlsx"], "s2")])
    assert side_effects(before, stale, gold, tolerance=tolerance)
    other = with_total(before)  # a file the task is not about
    _mail(other, [BOB], "Budget total", attachments=[_attachment("revenue.xlsx", before["data/revenue.xlsx"], "s3")])
    assert side_effects(before, other, gold, tolerance=tolerance)


def test_a_short_extra_message_to_a_person_in_the_task():
    before = base_state()
    gold = copy.deepcopy(before)
    _mail(gold, [BOB], "Budget total", body="The total is 1200.")
    tolerance = MailTolerance(involved=frozenset({CAROL}), short_messages=True)
    agent = copy.deepcopy(gold)
    _mail(agent, [CAROL], "Heads-up", stem="msg-2", body="I sent Bob the budget total.")
    assert side_effects(before, agent, gold, tolerance=tolerance) == []
    to_bob = copy.deepcopy(gold)  # gold's own recipient is in the task
    _mail(to_bob, [BOB], "Sheet updated", stem="msg-2", body="The sheet is updated too.")
    assert side_effects(before, to_bob, gold, tolerance=tolerance) == []
    assert side_effects(before, agent, gold)  # strict: an extra message
    outsider = copy.deepcopy(gold)
    _mail(outsider, ["dana.ross@elsewhere.test"], "Heads-up", stem="msg-2", body="Budget is done.")
    assert side_effects(before, outsider, gold, tolerance=tolerance)
    repeat = copy.deepcopy(gold)  # the same mail again (or a first attempt) is no heads-up
    _mail(repeat, [BOB], "Re: budget total", stem="msg-2", body="The total is 1300.")
    assert side_effects(before, repeat, gold, tolerance=tolerance)
    long = copy.deepcopy(gold)
    _mail(long, [CAROL], "Heads-up", stem="msg-2", body="word " * 300)
    assert side_effects(before, long, gold, tolerance=tolerance)
    nothing_sent = copy.deepcopy(before)  # where gold sends nothing, any message is extra
    _mail(nothing_sent, [CAROL], "Heads-up", stem="msg-2", body="Nothing to do.")
    assert side_effects(before, nothing_sent, before, tolerance=tolerance)
    missing = copy.deepcopy(before)  # a heads-up does not stand in for gold's message
    _mail(missing, [CAROL], "Heads-up", stem="msg-2", body="I sent Bob the budget total.")
    assert side_effects(before, missing, gold, tolerance=tolerance)


def test_a_heads_up_the_judge_finds_false_is_extra():
    before = base_state()
    gold = copy.deepcopy(before)
    _mail(gold, [BOB], "Budget total", body="The total is 1200.")
    tolerance = MailTolerance(involved=frozenset({CAROL}), short_messages=True)
    agent = copy.deepcopy(gold)
    _mail(agent, [CAROL], "Heads-up", stem="msg-2", body="The total is 1300.")
    judge = lambda entry: ["also states '1300'"] if "1300" in entry["body"] else []  # noqa: E731
    out = compare(before, agent, gold, tolerance=tolerance, judge=judge)
    assert out.collateral == [f"{SENT}/: extra message to {CAROL}: 'Heads-up' (also states '1300')",
                              f"emails/{CAROL}/: extra message to {CAROL}: 'Heads-up'"]
    assert compare(before, agent, gold, tolerance=tolerance).side_effects == []


# ---- which message stands for gold's: by content, whatever the order ------------------------------
FWD = "---------- Forwarded message ----------"


def _forward(original: str, note: str = "FYI") -> str:
    return f"{note}\n\n{FWD}\nFrom: {CAROL}\nDate: 2026-04-12\nSubject: Invoice\nTo: {USER}\n\n{original}"


def test_forwarding_another_message_under_the_same_subject_fails():
    before = base_state()
    gold = copy.deepcopy(before)
    _mail(gold, [BOB], "Fwd: Invoice", body=_forward("Invoice INV-1001 for 400 EUR is attached."))
    wrong = copy.deepcopy(before)
    _mail(wrong, [BOB], "Fwd: Invoice", body=_forward("Invoice INV-1002 for 950 EUR, second reminder."))
    assert side_effects(before, wrong, gold)
    right = copy.deepcopy(before)
    _mail(right, [BOB], "Fwd: Invoice", body=_forward("Invoice INV-1001 for 400 EUR is attached.", "Bob, see below."))
    assert side_effects(before, right, gold) == []
    retyped = copy.deepcopy(before)  # written anew with the original's text in it
    _mail(retyped, [BOB], "Invoice", body="Bob, below.\n\nInvoice INV-1001 for 400 EUR is attached.")
    assert side_effects(before, retyped, gold) == []


def test_the_same_extra_message_counts_the_same_sent_first_or_last():
    tolerance = MailTolerance(involved=frozenset({BOB}), short_messages=True)
    before = base_state()
    gold = copy.deepcopy(before)
    report = "The budget total is 1,200 for rent.\n" + "It covers every line of the sheet as of today. " * 8
    _mail(gold, [BOB], "Budget total", body=report)
    verdicts = []
    for order in ((("Budget total", report, "msg-1"), ("Quick note", "Numbers coming shortly.", "msg-2")),
                  (("Quick note", "Numbers coming shortly.", "msg-1"), ("Budget total", report, "msg-2"))):
        agent = copy.deepcopy(before)
        for subject, body, stem in order:
            _mail(agent, [BOB], subject, body=body, stem=stem)
        verdicts.append(compare(before, agent, gold, (), tolerance).side_effects)
    assert verdicts[0] == verdicts[1] == []


def test_one_message_to_several_may_be_sent_to_each_of_them_apart():
    """Gold mails Bob and Carol at once; the same message sent to each apart reaches both and misses
    nothing. Reaching only one of them, or someone else too, still differs."""
    before = base_state()
    gold = copy.deepcopy(before)
    _mail(gold, [BOB, CAROL], "Planning day moves")
    apart = copy.deepcopy(before)
    _mail(apart, [BOB], "Planning day moved to Thursday", stem="msg-1")
    _mail(apart, [CAROL], "Planning day moved to Thursday", stem="msg-2")
    assert side_effects(before, apart, gold) == []
    one = copy.deepcopy(before)
    _mail(one, [BOB], "Planning day moved to Thursday", stem="msg-1")
    assert side_effects(before, one, gold)
    other = copy.deepcopy(before)
    _mail(other, [BOB], "Planning day moved to Thursday", stem="msg-1")
    _mail(other, ["dave.roe@northwind.test"], "Planning day moved to Thursday", stem="msg-2")
    assert side_effects(before, other, gold)
