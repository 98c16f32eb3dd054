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
        r = client.post(f"/sessions/{sid}/actions", json=a)
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
