"""Grading through the real API, one test per class of grading error: a wrong outcome of the class
fails, a right outcome of the class passes. Outcome-centric: checks AND no difference from the gold
office outside the task's free paths; the checks-only result is kept beside it."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from officesim.server.app import create_app
from officesim.server.manager import ServerSettings
from tests._api_tasks import write_tasks

USER = "maya.lin@northwind.test"
BOB = "bob.hart@northwind.test"
CAROL = "carol.lund@northwind.test"


def sw(app: str) -> dict:
    return {"app": "system", "action": "switch_app", "args": {"target_app": app}}


def do(app: str, action: str, **args) -> dict:
    return {"app": app, "action": action, "args": args}


def task(id_: str, apps: list[str], instruction: str, office: list, checks: list, gold: list, **extra) -> dict:
    return {"id": id_, "scenario": id_, "category": len(apps), "apps": apps, "user": USER, "user_name": "Maya Lin",
            "now": "2026-04-13 09:00:00", "instruction": instruction, "office": office, "checks": checks,
            "gold": gold, **extra}


def xlsx(path, rows, sheet="Sheet1"):
    return {"type": "xlsx", "path": path, "sheets": {sheet: rows}}


def eml(msg_id, sender, subject, body, attachments=()):
    return {"type": "eml", "user": USER, "id": msg_id, "from": sender, "to": [USER], "date": "2026-04-12 16:00:00",
            "subject": subject, "body": body, "attachments": list(attachments)}


def check(name, **args):
    return {"check": name, "args": args}


TOTAL = task(
    "g-total", ["excel"], "Write the total of the amounts in data/budget.xlsx in cell B4.",
    [xlsx("data/budget.xlsx", [["Item", "Amount"], ["Rent", 1200], ["Travel", 300]]),
     xlsx("data/other.xlsx", [["Item", "Amount"], ["Fees", 80]])],
    [check("xlsx_cell", file="data/budget.xlsx", cell="B4", value=1500)],
    [sw("excel"), do("excel", "set_cell", file_path="data/budget.xlsx", row_idx=4, column_idx=2, text=1500)])

ARCHIVE = task(
    "g-archive", ["shell"], "Move data/report.txt into the folder archive/.",
    [{"type": "text", "path": "data/report.txt", "content": "Q1 report\n"},
     {"type": "text", "path": "data/keep.txt", "content": "keep me\n"}],
    [check("file_exists", file="archive/report.txt")],
    [sw("shell"), do("shell", "command", command="mkdir -p archive && mv data/report.txt archive/")])

REMIND = task(
    "g-remind", ["email"], f"Bob has not paid invoice INV-2041 (3,750.00 USD, due 2026-04-10). "
                          f"Email him ({BOB}) a reminder with the invoice number, the amount and the due date.",
    [eml("msg-1", CAROL, "Invoice INV-2040 paid", "Paid in full: 1,200.00 USD.")],
    [check("email_sent", sender=USER, to=BOB, body_contains=["INV-2041", "3750", "2026-04-10"])],
    [sw("email"), do("email", "send_email", sender=USER, recipient=BOB, subject="Reminder: invoice INV-2041",
                     content="Invoice INV-2041 for 3,750.00 USD was due on 2026-04-10. Please pay it.")])

REPLY = task(
    "g-reply", ["email"], "Bob asks when the water comes back. Reply to him: it comes back at 14:30.",
    [eml("msg-1", BOB, "Water", "The water is off from 09:00. When does it come back? 14:30 or later?")],
    [check("email_sent", sender=USER, to=BOB, body_contains=["14:30"])],
    [sw("email"), do("email", "reply_email", username=USER, email_id="msg-1", content="It comes back at 14:30.")])

MOVE_EVENT = task(
    "g-move-event", ["calendar"], "Move my 'Design review' on 2026-04-14 to 16:00-17:00 the same day, in Room 4.",
    [{"type": "ics", "user": USER, "events": [
        {"summary": "Design review", "start": "2026-04-14 10:00:00", "end": "2026-04-14 11:00:00", "location": "Room 2"},
        {"summary": "Standup", "start": "2026-04-14 09:00:00", "end": "2026-04-14 09:15:00"}]}],
    [check("ics_event", user=USER, summary="Design review", start="2026-04-14 16:00:00")],
    [sw("calendar"), do("calendar", "update_event", user=USER, summary="Design review",
                        time_start="2026-04-14 16:00:00", time_end="2026-04-14 17:00:00", location="Room 4")])

TEAM = task(
    "g-team", ["word"], "In data/team.docx, add a paragraph listing the two people of the Finance team "
                       "(see data/roster.docx).",
    [{"type": "docx", "path": "data/roster.docx", "paragraphs": ["Ana Ruiz - Finance", "Ben Okafor - Sales",
                                                                 "Cleo Park - Finance", "Dev Shah - Legal"]},
     {"type": "docx", "path": "data/team.docx", "paragraphs": ["Team notes"]}],
    [check("contains", file="data/team.docx", text=["Ana Ruiz", "Cleo Park"], exclude=["Ben Okafor", "Dev Shah"])],
    [sw("word"), do("word", "write_to_file", file_path="data/team.docx", contents="Finance: Ana Ruiz, Cleo Park")])

PRICE = task(
    "g-price", ["excel"], "What does the Harbor room cost per day in data/rooms.xlsx? Answer with the price.",
    [xlsx("data/rooms.xlsx", [["Room", "Price"], ["Harbor", 42.40], ["Summit", 41.10]])],
    [check("answer_equals", value=42.40)],
    [sw("excel"), do("excel", "read_file", file_path="data/rooms.xlsx")], answer="42.40")

SEND_DOC = task(
    "g-send-doc", ["word", "email"], f"Add the line 'Approved' to data/plan.docx, then email the plan to {BOB}.",
    [{"type": "docx", "path": "data/plan.docx", "paragraphs": ["Plan", "Budget 1500"]},
     {"type": "pdf", "path": "data/invoice.pdf", "pages": ["Invoice INV-9 paid"]}],
    [check("docx_has_paragraph", file="data/plan.docx", text="Approved"),
     check("email_sent", sender=USER, to=BOB, attachments=["plan.docx"])],
    [sw("word"), do("word", "write_to_file", file_path="data/plan.docx", contents="Approved"),
     sw("email"), do("email", "send_email", sender=USER, recipient=BOB, subject="The plan", content="Attached.",
                     attachments=["data/plan.docx"])])

ZIP = task(
    "g-zip", ["shell"], "Pack data/a.txt and data/b.txt into out/both.zip.",
    [{"type": "text", "path": "data/a.txt", "content": "alpha\n"}, {"type": "text", "path": "data/b.txt", "content": "beta\n"},
     {"type": "text", "path": "data/c.txt", "content": "gamma\n"}],
    [check("file_exists", file="out/both.zip")],
    [sw("shell"), do("shell", "command",
                     command="mkdir -p out && python3 -c \"import zipfile; z=zipfile.ZipFile('out/both.zip','w'); "
                             "z.write('data/a.txt','a.txt'); z.write('data/b.txt','b.txt'); z.close()\"")])

SCAN = task(
    "g-scan", ["pdf"], "Turn the photo data/receipt.png into data/receipt.pdf.",
    [{"type": "image", "path": "data/receipt.png", "text": "RECEIPT\nTotal 18.20"},
     {"type": "image", "path": "data/other.png", "text": "PARKING\nZone B 4h\nPaid 7.00"}],
    [check("file_exists", file="data/receipt.pdf")],
    [sw("pdf"), do("pdf", "image_to_pdf", image_file_path="data/receipt.png", pdf_file_path="data/receipt.pdf")])

FREE_NAME = task(
    "g-free-name", ["word"], "Save data/memo.docx as a PDF in out/ (any file name).",
    [{"type": "docx", "path": "data/memo.docx", "paragraphs": ["Memo", "Office closed Friday"]}],
    [check("dir_files", dir="out", names=["memo.pdf"])],
    [sw("word"), do("word", "convert_to_pdf", word_file_path="data/memo.docx", pdf_file_path="out/memo.pdf")],
    free=["out/*.pdf"])

STEPS = task(
    "g-steps", ["word"], "Add the steps PLAN, BUILD and SHIP to data/steps.docx, one paragraph each, in this order "
                        "and in capitals.",
    [{"type": "docx", "path": "data/steps.docx", "paragraphs": ["Release steps"]}],
    [check("contains", file="data/steps.docx", text=["PLAN", "BUILD", "SHIP"], ordered=True, case_sensitive=True)],
    [sw("word"), do("word", "write_to_file", file_path="data/steps.docx", contents="PLAN\nBUILD\nSHIP")])

RENAME = task(
    "g-rename", ["shell"], "data/scan_1.png and data/scan_2.png are an invoice and a receipt. Rename them by what "
                          "they show to data/invoice.png and data/receipt.png.",
    [{"type": "image", "path": "data/scan_1.png", "text": "RECEIPT\nCoffee 3.20\nThank you"},
     {"type": "image", "path": "data/scan_2.png", "text": "INVOICE INV-77\nConsulting\n1,200.00 EUR due"}],
    [check("file_exists", file="data/invoice.png"), check("file_exists", file="data/receipt.png")],
    [sw("shell"), do("shell", "command", command="mv data/scan_2.png data/invoice.png && mv data/scan_1.png data/receipt.png")])

POST = task(
    "g-post", ["shell"], "Post the picnic flyer: copy the picture that announces the picnic to data/post.png.",
    [{"type": "image", "path": "data/flyer_a.png", "text": "Team picnic on Friday at Lakeside Park"},
     {"type": "image", "path": "data/flyer_b.png", "text": "Quarterly audit meeting in Room 4"}],
    [check("contains", file="data/post.png", text=["picnic", "Lakeside"])],
    [sw("shell"), do("shell", "command", command="cp data/flyer_a.png data/post.png")], free=["data/post.png"])

REPORT = task(
    "g-report", ["excel", "email"], f"Carol Lund asked for the budget total. Write the total of the amounts in "
                                    f"data/budget.xlsx in B4 and email it to Bob ({BOB}).",
    [xlsx("data/budget.xlsx", [["Item", "Amount"], ["Rent", 1200], ["Travel", 300]]),
     xlsx("data/other.xlsx", [["Item", "Amount"], ["Fees", 80]]),
     eml("msg-1", CAROL, "Budget", "Could you send Bob the budget total?")],
    [check("xlsx_cell", file="data/budget.xlsx", cell="B4", value=1500),
     check("email_sent", sender=USER, to=BOB, body_contains=["1500"])],
    [sw("excel"), do("excel", "set_cell", file_path="data/budget.xlsx", row_idx=4, column_idx=2, text=1500),
     sw("email"), do("email", "send_email", sender=USER, recipient=BOB, subject="Budget total",
                     content="The budget total is 1500.")])

TASKS = [TOTAL, ARCHIVE, REMIND, REPLY, MOVE_EVENT, TEAM, PRICE, SEND_DOC, ZIP, SCAN, FREE_NAME, STEPS, RENAME, POST,
         REPORT]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    tasks = write_tasks(tmp_path_factory.mktemp("grading-tasks"), *TASKS)
    cfg = ServerSettings(include_suite=False, sessions_dir=tmp_path_factory.mktemp("sessions"))
    with TestClient(create_app([tasks], cfg)) as c:
        yield c


def play(client, task_id: str, actions: list[dict], answer=None, mode="all_operations") -> dict:
    r = client.post("/sessions", json={"task_id": task_id, "mode": mode})
    assert r.status_code == 201, r.text
    sid = r.json()["session_id"]
    for a in actions:
        if a["app"] == "system" and a["action"] == "switch_app":
            continue
        body = client.post(f"/sessions/{sid}/actions", json=a).json()
        assert body["ok"], (a, body["observation"])
    ev = client.post(f"/sessions/{sid}/finish", json={"answer": answer}).json()["evaluation"]
    client.delete(f"/sessions/{sid}")
    return ev


def passes(client, t: dict, actions: list[dict], answer=None) -> dict:
    ev = play(client, t["id"], actions, answer)
    assert ev["passed"], ev
    return ev


def fails(client, t: dict, actions: list[dict], answer=None, *, component: str | None = None) -> dict:
    ev = play(client, t["id"], actions, answer)
    assert not ev["passed"], ev
    if component:
        assert component in ev["failed"], ev
    return ev


def cell(path, row, col, value):
    return do("excel", "set_cell", file_path=path, row_idx=row, column_idx=col, text=value)


# ---- wrong outcomes that used to pass ------------------------------------------------------------
def test_gold_passes_with_no_side_effects_and_doing_nothing_fails(client):
    for t in TASKS:
        ev = play(client, t["id"], t["gold"], t.get("answer"))
        assert ev["passed"] and ev["side_effects"] == [], (t["id"], ev)
        nothing = play(client, t["id"], [])
        assert not nothing["passed"], t["id"]
        # doing nothing changes nothing: what it lacks is missing, never collateral
        assert nothing["collateral"] == [] and nothing["missing"] == nothing["side_effects"], (t["id"], nothing)


def test_collateral_damage_in_another_workbook_fails(client):
    ev = fails(client, TOTAL, TOTAL["gold"] + [cell("data/other.xlsx", 2, 2, 0)], component="side_effects")
    assert ev["passed_checks_only"]  # the lenient, checks-only grade still passes: both are reported
    assert any("data/other.xlsx" in s for s in ev["side_effects"])
    fails(client, TOTAL, TOTAL["gold"] + [do("excel", "delete_row", file_path="data/other.xlsx", row_idx=2)])


def test_copy_instead_of_move_fails(client):
    copy = do("shell", "command", command="mkdir -p archive && cp data/report.txt archive/")
    ev = fails(client, ARCHIVE, [copy], component="side_effects")
    assert any("data/report.txt: still there" in s for s in ev["side_effects"])
    fails(client, ARCHIVE, ARCHIVE["gold"] + [do("shell", "command", command="rm data/keep.txt")])
    scratch = do("shell", "command", command="echo tmp > data/scratch.txt && rm data/scratch.txt")
    passes(client, ARCHIVE, ARCHIVE["gold"] + [scratch])  # a scratch file gone again leaves no trace


def _send(to=BOB, content="Invoice INV-2041 for 3,750.00 USD was due on 2026-04-10.", cc=None, attachments=None,
          subject="Reminder: invoice INV-2041"):
    args = dict(sender=USER, recipient=to, subject=subject, content=content)
    if cc:
        args["cc"] = cc
    if attachments:
        args["attachments"] = attachments
    return do("email", "send_email", **args)


def test_extra_mail_recipient_or_cc_fails(client):
    fails(client, REMIND, REMIND["gold"] + [_send(to=CAROL)], component="side_effects")
    fails(client, REMIND, [_send(to=[BOB, CAROL])])
    fails(client, REMIND, [_send(cc=[CAROL])], component="side_effects")
    fails(client, REMIND, REMIND["gold"] * 2, component="side_effects")


def test_a_fact_is_the_value_not_a_token(client):
    fails(client, REMIND, [_send(content="Invoice INV-2041 for 3,570.00 USD was due on 2026-04-10.")])
    fails(client, REMIND, [_send(content="Invoice INV-2041 for 3,750.00 USD was due on 2026-04-11.")])
    fails(client, REMIND, [_send(content="Invoice INV-20410 for 3,750.00 USD was due on 2026-04-10.")])
    # The same facts in other common forms, other words, another subject: right.
    passes(client, REMIND, [_send(content="Hi Bob, a reminder: INV-2041 ($3750) was due Friday 10 April.",
                                  subject="Payment reminder")])


def test_a_replys_quoted_original_is_not_the_reply(client):
    reply = do("email", "reply_email", username=USER, email_id="msg-1", content="I will check and let you know.")
    ev = fails(client, REPLY, [reply], component="checks")
    assert "does not state '14:30'" in str(ev["checks"])
    passes(client, REPLY, [do("email", "reply_email", username=USER, email_id="msg-1", content="Back at 2:30 pm.")])


def test_second_event_instead_of_moving_fails(client):
    create = do("calendar", "create_event", user=USER, summary="Design review", time_start="2026-04-14 16:00:00",
                time_end="2026-04-14 17:00:00", location="Room 4")
    ev = fails(client, MOVE_EVENT, [create], component="side_effects")
    assert any("extra event" in s for s in ev["side_effects"])
    for field, value in (("time_end", "2026-04-14 18:00:00"), ("location", "Room 2")):
        args = dict(MOVE_EVENT["gold"][1]["args"], **{field: value})
        fails(client, MOVE_EVENT, [do("calendar", "update_event", **args)], component="side_effects")
    passes(client, MOVE_EVENT, [do("calendar", "delete_event", user=USER, summary="Design review"),
                                dict(create, args=dict(create["args"], location="room 4"))])


def test_enumeration_needs_none_of_the_others(client):
    write = lambda text: [do("word", "write_to_file", file_path="data/team.docx", contents=text)]  # noqa: E731
    fails(client, TEAM, write("Ana Ruiz, Ben Okafor, Cleo Park, Dev Shah"), component="checks")
    passes(client, TEAM, write("- Cleo Park and Ana Ruiz (Finance)"))
    twice = write("Finance: Ana Ruiz, Cleo Park") * 2
    fails(client, TEAM, twice, component="side_effects")  # a paragraph appended twice


def test_hedged_answers_fail_and_sentences_pass(client):
    fails(client, PRICE, PRICE["gold"], answer="Either 41.10 or 42.40")
    fails(client, PRICE, PRICE["gold"], answer="41.10")
    passes(client, PRICE, PRICE["gold"], answer="The Harbor room costs $42.4 per day.")
    passes(client, PRICE, PRICE["gold"], answer="42.4")


def test_attachments_by_content(client):
    stale = [sw("email"), _send(subject="The plan", content="Attached.", attachments=["data/plan.docx"]),
             sw("word"), do("word", "write_to_file", file_path="data/plan.docx", contents="Approved")]
    ev = fails(client, SEND_DOC, stale, component="side_effects")  # mailed before the edit
    assert ev["passed_checks_only"]
    extra = SEND_DOC["gold"][:3] + [_send(subject="The plan", content="Attached.",
                                          attachments=["data/plan.docx", "data/invoice.pdf"])]
    fails(client, SEND_DOC, extra, component="side_effects")


def test_archive_members_are_compared(client):
    wrong = do("shell", "command", command="mkdir -p out && python3 -c \"import zipfile; z=zipfile.ZipFile("
                                           "'out/both.zip','w'); z.write('data/a.txt','a.txt'); "
                                           "z.write('data/c.txt','b.txt'); z.close()\"")
    fails(client, ZIP, [wrong], component="side_effects")
    right = do("shell", "command", command="mkdir -p out && cd data && python3 -m zipfile -c ../out/both.zip b.txt a.txt")
    passes(client, ZIP, [right])


def test_a_pdf_from_the_wrong_photo_fails(client):
    wrong = do("pdf", "image_to_pdf", image_file_path="data/other.png", pdf_file_path="data/receipt.pdf")
    fails(client, SCAN, [wrong], component="side_effects")


def test_formula_and_number_forms_count_by_value(client):
    passes(client, TOTAL, [cell("data/budget.xlsx", 4, 2, "=SUM(B2:B3)")])
    passes(client, TOTAL, [cell("data/budget.xlsx", 4, 2, "1500.00")])
    fails(client, TOTAL, [cell("data/budget.xlsx", 4, 2, "=SUM(B2:B2)")])
    fails(client, TOTAL, [cell("data/budget.xlsx", 5, 2, 1500)])  # one row off


def test_order_and_case_the_instruction_fixes(client):
    write = lambda text: [do("word", "write_to_file", file_path="data/steps.docx", contents=text)]  # noqa: E731
    fails(client, STEPS, write("SHIP\nBUILD\nPLAN"), component="checks")
    fails(client, STEPS, write("Plan\nBuild\nShip"), component="checks")
    passes(client, STEPS, write("1. PLAN\n2. BUILD\n3. SHIP"))


def test_scans_swapped_while_renaming_fail(client):
    swapped = do("shell", "command", command="mv data/scan_1.png data/invoice.png && mv data/scan_2.png data/receipt.png")
    ev = fails(client, RENAME, [swapped], component="side_effects")
    assert any("another picture" in s for s in ev["side_effects"])


def test_free_paths_allow_any_file_name(client):
    convert = do("word", "convert_to_pdf", word_file_path="data/memo.docx", pdf_file_path="out/memo-final.pdf")
    ev = play(client, FREE_NAME["id"], [convert])
    assert ev["side_effects"] == [] and not ev["passed"]  # the free part is judged by the checks alone


def test_the_record_says_which_component_failed(client):
    ev = play(client, TOTAL["id"], [])
    assert set(ev["failed"]) == {"checks", "side_effects"} and not ev["passed_checks_only"]
    ev = play(client, TOTAL["id"], TOTAL["gold"])
    assert ev["failed"] == [] and ev["passed_checks_only"]


def test_a_picture_is_read_by_ocr_when_a_check_names_it(client):
    # the path is free, so only the check can tell the picnic flyer from the audit notice (or a blank picture)
    wrong = do("shell", "command", command="cp data/flyer_b.png data/post.png")
    ev = fails(client, POST, [wrong], component="checks")
    assert ev["side_effects"] == []


# ---- mail as a reasonable user reads it ------------------------------------------------------------
def _report(**kw) -> dict:
    args = dict(sender=USER, recipient=BOB, subject="Budget total", content="The budget total is 1500.")
    args.update(kw)
    return do("email", "send_email", **args)


def test_cc_to_oneself_and_the_updated_sheet_attached_pass(client):
    write = REPORT["gold"][1]
    passes(client, REPORT, [write, _report(cc=[USER])])
    passes(client, REPORT, [write, _report(attachments=["data/budget.xlsx"])])
    ev = fails(client, REPORT, [_report(attachments=["data/budget.xlsx"]), write], component="side_effects")
    assert any("no message" in x for x in ev["missing"]) and any("extra message" in x for x in ev["collateral"])
    fails(client, REPORT, [write, _report(attachments=["data/other.xlsx"])], component="side_effects")
    fails(client, REPORT, [write, _report(cc=[CAROL, USER])], component="side_effects")


def test_a_short_heads_up_to_a_person_in_the_task_passes(client):
    gold = REPORT["gold"]
    heads_up = _report(recipient=CAROL, subject="Budget total sent", content="I sent Bob the budget total (1500).")
    passes(client, REPORT, gold + [heads_up])
    passes(client, REPORT, gold + [_report(subject="Sheet updated", content="B4 of the sheet holds it too.")])
    outsider = _report(recipient="dana.ross@elsewhere.test", subject="FYI", content="Budget done.")
    fails(client, REPORT, gold + [outsider], component="side_effects")
    fails(client, REPORT, gold + [_report()], component="side_effects")  # the same mail twice
    fails(client, REPORT, [gold[1], heads_up], component="side_effects")  # no stand-in for gold's mail
    false = _report(recipient=CAROL, subject="Budget total sent", content="I sent Bob the budget total (1300).")
    ev = fails(client, REPORT, gold + [false], component="side_effects")  # a heads-up must be true too
    assert any("1300" in x for x in ev["collateral"]), ev["collateral"]
    wrong_name = _report(recipient=CAROL, subject="Budget total sent", content="Dear Bob,\nI sent you the total (1500).")
    fails(client, REPORT, gold + [wrong_name], component="side_effects")


def test_mail_tolerance_names_the_tasks_files_and_people():
    from officesim.server.grading import mail_tolerance
    from officesim.tasks.model import Task

    t = Task.model_validate(REPORT)
    before = {"data/budget.xlsx": {"kind": "xlsx"}, "data/other.xlsx": {"kind": "xlsx"},
              f"emails/{USER}/msg-1.eml": {"kind": "eml", "from": CAROL, "to": [USER], "cc": []}}
    tolerance = mail_tolerance(t, before, before)
    assert tolerance.relevant == {"data/budget.xlsx"} and tolerance.short_messages
    assert tolerance.involved == {BOB, CAROL}  # by address, and by full name from the office's mail
    assert not mail_tolerance(t.model_copy(update={"toolset": "workbench"}), before, before).short_messages
