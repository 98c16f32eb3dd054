"""system.ask_user through the real API: the scripted user answers by pattern, a task that needs the
reply fails when the agent guesses, an unneeded question is recorded but not failed, and the ask
metrics reach the record, the summary and the report."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from officesim.apps.asking import DEFAULT_REPLY, ask_counts, match_reply, matches, reply_to
from officesim.evaluators.record import EpisodeRecord
from officesim.runner.report import render
from officesim.runner.summary import process_counts, summarize
from officesim.server.app import create_app
from officesim.server.manager import ServerSettings
from officesim.tasks.model import Task
from tests._api_tasks import ASKING, BUDGET, variant, write_tasks

def _set(value: int) -> dict:
    return {"app": "excel", "action": "set_cell",
            "args": {"file_path": "data/deal.xlsx", "row_idx": 2, "column_idx": 2, "text": value}}


DISCOUNT = ASKING
ASK = DISCOUNT["gold"][0]


@pytest.fixture
def client(tmp_path):
    tasks = write_tasks(tmp_path / "tasks", DISCOUNT, BUDGET)
    cfg = ServerSettings(include_suite=False, sessions_dir=tmp_path / "sessions")
    with TestClient(create_app([tasks], cfg)) as c:
        yield c


def _play(client, task_id: str, actions: list[dict]) -> tuple[list[dict], dict]:
    r = client.post("/sessions", json={"task_id": task_id})
    assert r.status_code == 201, r.text
    sid, out = r.json()["session_id"], []
    for a in actions + [{"app": "system", "action": "finish_task", "args": {}}]:
        r = client.post(f"/sessions/{sid}/actions", json=a, params={"include": "data"})
        assert r.status_code == 200, r.text
        out.append(r.json())
    return out, out[-1]["evaluation"]


def test_matching_words_regex_and_default():
    script = DISCOUNT["user_replies"]
    assert matches(["discount"], "Which DISCOUNTS apply?") and not matches(["count"], "Which discount?")
    assert matches(r"\bdue\b", "When is it due?") and not matches(r"\bdue\b", "the residue")
    assert match_reply(script, "How much should I put?") == 0 and match_reply(script, "What is the deadline?") == 1
    assert reply_to({"replies": script}, "Who is Halden?") == DEFAULT_REPLY
    assert reply_to({"replies": script, "default": "No idea."}, "Who is Halden?") == "No idea."
    assert ask_counts(script, ["discount?", "discount again?", "deadline?"]) == {
        "questions_asked": 3, "questions_needed": 1, "needed_asked": 1}


def test_scripted_user_answers_by_pattern_in_every_app(client):
    steps, _ = _play(client, "api-ask-discount", [
        ASK, {"app": "system", "action": "switch_app", "args": {"target_app": "excel"}},
        {"app": "system", "action": "ask_user", "args": {"question": "Is there a deadline?"}},
        {"app": "system", "action": "ask_user", "args": {"question": "Should I email anyone?"}},
        {"app": "system", "action": "ask_user", "args": {"question": "  "}},
    ])
    assert steps[0]["ok"] and steps[0]["observation"] == "The user replies: We settled on 12%."
    assert steps[0]["data"] == {"question": ASK["args"]["question"], "reply": "We settled on 12%."}
    assert steps[2]["ok"] and steps[2]["current_app"] == "excel" and steps[2]["observation"].endswith("There is no deadline.")
    assert steps[3]["observation"] == f"The user replies: {DEFAULT_REPLY}"
    assert not steps[4]["ok"] and steps[4]["error"]["code"] == "bad_arguments"


def test_gold_that_asks_passes_with_full_ask_metrics(client):
    _, ev = _play(client, "api-ask-discount", DISCOUNT["gold"])
    assert ev["passed"] and ev["questions_asked"] == 1 and ev["ask_recall"] == 1.0 and ev["ask_precision"] == 1.0


def test_guessing_the_distractor_fails(client):
    _, ev = _play(client, "api-ask-discount", [DISCOUNT["gold"][1], _set(10)])
    assert not ev["passed"] and "checks" in ev["failed"]
    assert ev["questions_asked"] == 0 and ev["ask_recall"] == 0.0 and ev["ask_precision"] is None


def test_repeated_and_off_topic_questions_lower_precision(client):
    again = {"app": "system", "action": "ask_user", "args": {"question": "Sorry, how much discount again?"}}
    off = {"app": "system", "action": "ask_user", "args": {"question": "Is there a deadline?"}}
    _, ev = _play(client, "api-ask-discount", [ASK, again, off] + DISCOUNT["gold"][1:])
    assert ev["passed"] and ev["questions_asked"] == 3 and ev["ask_recall"] == 1.0 and ev["ask_precision"] == pytest.approx(0.3333)


def test_unneeded_question_is_recorded_not_failed(client):
    ask = {"app": "system", "action": "ask_user", "args": {"question": "Which cell?"}}
    steps, ev = _play(client, "api-budget-note", [ask] + BUDGET["gold"])
    assert steps[0]["observation"] == f"The user replies: {DEFAULT_REPLY}"
    assert ev["passed"] and ev["questions_asked"] == 1 and ev["ask_recall"] is None and ev["ask_precision"] == 0.0


def test_task_file_rejects_bad_scripts():
    with pytest.raises(ValidationError, match="regular expression"):
        Task.model_validate(variant(DISCOUNT, user_replies=[{"when": "(unclosed", "reply": "x"}]))
    with pytest.raises(ValidationError, match="no gold system.ask_user question matches"):
        Task.model_validate(variant(DISCOUNT, gold=DISCOUNT["gold"][1:]))
    with pytest.raises(ValidationError, match="lists no word"):
        Task.model_validate(variant(DISCOUNT, user_replies=[{"when": [" "], "reply": "x"}]))
    assert Task.model_validate(DISCOUNT).default_reply == DEFAULT_REPLY


def test_summary_and_report_show_the_asking(client):
    steps, ev = _play(client, "api-ask-discount", DISCOUNT["gold"])
    history = [{"app": a["app"], "action": a["action"], "args": a["args"], "ok": s["ok"], "observation": s["observation"]}
               for a, s in zip(DISCOUNT["gold"], steps)]
    asked = EpisodeRecord.model_validate({**ev, "category": 1, "trajectory": history})
    _, guess = _play(client, "api-ask-discount", [DISCOUNT["gold"][1], _set(10)])
    guessed = EpisodeRecord.model_validate({**guess, "category": 1})
    assert EpisodeRecord.model_validate_json(asked.to_line()).ask_recall == 1.0  # a results line reads back
    summary = summarize([asked, guessed], {})
    assert summary["ask"] == {"questions_asked": 1, "questions_needed": 2, "needed_asked": 1, "ask_recall": 0.5,
                              "ask_precision": 1.0, "episodes_asking": 1}
    assert process_counts(history, DISCOUNT["gold"])["agent_ops"] == 1  # the question is not an office operation
    page = render([asked, guessed], summary)
    assert "<b>Asked the user:</b> What discount did we agree with Halden?<br><b>Reply:</b> We settled on 12%." in page


def test_guessing_mutant_drops_the_question_and_writes_the_distractor(tmp_path):
    from officesim.runner.mutants import WRONG, derive
    from officesim.runner.validate import initial_office
    from officesim.tasks.loader import load_tasks

    task = load_tasks([write_tasks(tmp_path / "t", ASKING)], include_suite=False)["api-ask-discount"]
    guessed = [m for m in derive(task, initial_office(task)) if m.cls == "guessed-not-asked"]
    assert len(guessed) == 1 and guessed[0].kind == WRONG
    assert not any(a["action"] == "ask_user" for a in guessed[0].actions)
    assert [a["args"]["text"] for a in guessed[0].actions if a["action"] == "set_cell"] == [10]


# ---- the asking rule: a needed reply must be asked for before acting on it -----------------------------
def _ask(question: str) -> dict:
    return {"app": "system", "action": "ask_user", "args": {"question": question}}


def test_a_lucky_guess_without_asking_fails_on_asking(client):
    _, ev = _play(client, "api-ask-discount", DISCOUNT["gold"][1:])  # writes the right 12 without asking
    assert not ev["passed"] and ev["failed"] == ["asking"] and ev["passed_checks_only"]
    assert ev["side_effects"] == [] and "user_replies[0] is needed" in ev["asking"][0]
    assert "no question asked the user" in ev["asking"][0]


def test_asking_after_acting_on_the_value_fails(client):
    _, ev = _play(client, "api-ask-discount", DISCOUNT["gold"][1:] + [ASK])
    assert not ev["passed"] and ev["failed"] == ["asking"]
    assert "wrote its value '12' (excel.set_cell) before asking" in ev["asking"][0]


def test_reading_before_asking_is_fine_and_the_question_may_name_the_options(client):
    read = {"app": "excel", "action": "read_file", "args": {"file_path": "data/deal.xlsx"}}
    named = _ask("Halden first asked for 10%. Should I enter 10?")  # no topic word: the option's value reaches it
    steps, ev = _play(client, "api-ask-discount", [DISCOUNT["gold"][1], read, named, _set(12)])
    assert steps[2]["observation"] == "The user replies: We settled on 12%."
    assert ev["passed"] and ev["asking"] == [] and ev["needed_asked"] == 1


def test_unasked_reads_the_order_of_steps_and_program_calls():
    from officesim.apps.asking import unasked

    replies = [{"when": ["discount"], "reply": "12%.", "needed": True, "guess": {"12": 10}},
               {"when": ["deadline"], "reply": "None."}]
    writes = lambda app, action: action == "set_cell"  # noqa: E731
    cell = {"app": "excel", "action": "set_cell", "args": {"text": "12"}, "ok": True}
    other = {"app": "excel", "action": "set_cell", "args": {"text": "Halden"}, "ok": True}
    asked = {"app": "system", "action": "ask_user", "args": {"question": "Which discount?"}, "ok": True}
    finish = {"app": "system", "action": "finish_task", "args": {"answer": "12"}, "ok": True}
    assert unasked(replies, [asked, cell], writes) == []
    assert unasked(replies, [other, asked, cell], writes) == []  # a write without the value is not acting on it
    assert "before asking" in unasked(replies, [cell, asked], writes)[0]
    assert "before asking" in unasked(replies, [finish, asked], writes)[0]
    assert "no question" in unasked(replies, [cell], writes)[0]
    failed_ask = dict(asked, ok=False)
    assert "no question" in unasked(replies, [failed_ask, cell], writes)[0]
    program = {"app": "system", "action": "run_code", "args": {"code": "..."}, "ok": True, "calls": [cell, asked]}
    assert "before asking" in unasked(replies, [program], writes)[0]
    assert unasked([dict(replies[0], needed=False)], [cell], writes) == []  # an unneeded reply stays a metric


def _suite_task(task_id: str) -> Task:
    import yaml
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "tasks" / "suite" / task_id / "task.yaml"
    return Task.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("task_id, question, expected", [
    ("ask-appointment-day-001", "Is Tuesday the 13th OK?", "It's on Thursday 10 December."),
    ("ask-appointment-day-001", "Shall I put it on Dec 8?", "It's on Thursday 10 December."),
    ("ask-which-report-title-001", "Should I retitle sales_east.docx or sales_south.docx?", "The South one."),
    ("ask-budget-memo-owner-001", "The sheet was prepared by Tomas Kovac. Should I mail him?",
     "Chloe Hart owns it: chloe.hart@orchidlane.test."),
    ("ask-which-invoice-ledger-001", "Shall I enter Kiln & Co?", "The one from Parsec Cleaning."),
    ("ask-which-invoice-ledger-001", "parsec_invoice.pdf or kiln_invoice.pdf?", "The one from Parsec Cleaning."),
    ("ask-contract-recipient-001", "Should I mail elena.haddad@copperleaf.test?",
     "Send it to Dmitri Novak; Dmitri is handling the contract now."),
])
def test_natural_questions_naming_the_options_get_the_reply(task_id, question, expected):
    script = _suite_task(task_id).user_script()
    assert reply_to(script, question) == expected
    assert ask_counts(script["replies"], [question])["needed_asked"] == 1


def test_questions_naming_nothing_of_the_task_get_the_default():
    script = _suite_task("ask-budget-memo-owner-001").user_script()
    assert reply_to(script, "Will it be fine if I use bold?") == DEFAULT_REPLY  # "Will" is no person here
    script = _suite_task("ask-which-report-title-001").user_script()
    assert reply_to(script, "Should I retitle a.docx?") == DEFAULT_REPLY
    script = _suite_task("ask-agreed-discount-001").user_script()
    assert reply_to(script, "Is Tuesday OK?") == DEFAULT_REPLY  # a day is no candidate of a discount


def test_candidates_are_derived_from_the_reply_and_the_task():
    from officesim.apps.asking import candidates

    entry = {"when": ["who"], "reply": "Send it to Dana Ortiz.", "guess": {"dana.ortiz@x.test": "eli.moss@x.test"}}
    found = candidates(entry, people=["dana.ortiz@x.test", "eli.moss@x.test", "me@x.test", "rob.fenn@x.test"],
                       files=["data/a.xlsx"], user="me@x.test")
    assert {"Dana Ortiz", "Eli", "Rob Fenn", "rob.fenn@x.test"} <= set(found["people"]) and "me@x.test" not in found["people"]
    assert "dates" not in found and "files" not in found
    day = candidates({"when": ["day"], "reply": "Thursday 12 March."})
    assert day == {"values": [], "dates": [True]}
    files = candidates({"when": ["which"], "reply": "The South one.", "guess": {"South": "East"}},
                       files=["data/r/sales_south.docx", "data/r/sales_east.docx", "data/other.xlsx"],
                       folders=["data/r"])
    assert files["files"] == ["data/r/sales_east.docx", "data/r/sales_south.docx"]


def test_right_mutants_ask_before_they_write(tmp_path):
    from officesim.runner.mutants import RIGHT, derive
    from officesim.runner.validate import initial_office
    from officesim.tasks.loader import load_tasks

    two_writes = variant(ASKING, gold=ASKING["gold"] + [
        {"app": "excel", "action": "set_cell", "args": {"file_path": "data/deal.xlsx", "row_idx": 3, "column_idx": 1,
                                                        "text": "agreed"}}],
        checks=ASKING["checks"] + [{"check": "xlsx_cell", "args": {"file": "data/deal.xlsx", "cell": "A3", "value": "agreed"}}])
    task = load_tasks([write_tasks(tmp_path / "t", two_writes)], include_suite=False)["api-ask-discount"]
    right = [m for m in derive(task, initial_office(task)) if m.kind == RIGHT]
    assert {"steps-reordered", "switch-roundtrips", "formula"} <= {m.cls for m in right}
    for m in right:
        acts = [a for a in m.actions if a["action"] != "switch_app"]
        assert acts[0]["action"] == "ask_user" or m.cls == "reads-added" and acts[1]["action"] == "ask_user", m
