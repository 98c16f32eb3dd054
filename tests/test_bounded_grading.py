"""Grading that no text can stall: what the grading reads of written text takes time linear in it, an
evaluation runs in a worker of the pool under a time limit (``grading_timeout`` past it), and an idle
session's expiry grading runs on a thread of its own, never on another session's request.

Timings are compared as growth, never against a fixed tight bound: the machines are loaded. Grading in
this process is measured in CPU seconds of the process (``time.process_time``), which another job on the
machine does not inflate."""

from __future__ import annotations

import random
import shutil
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from officesim.apps.registry import TEXT_LIMITS, TextLimit
from officesim.evaluators.claims import MAX_CLAIMS, MAX_LINE, _PATH, bounded_lines, path_spans
from officesim.evaluators.record import EpisodeRecord
from officesim.server import grade as grade_module
from officesim.server import grading
from officesim.server.app import create_app
from officesim.server.grading import Evaluator
from officesim.server.manager import ServerSettings, SessionManager
from officesim.server.session import Session
from officesim.tasks.loader import SUITE_DIR, load_tasks
from officesim.testbed.materialise import new_office, remove_office
from tests._api_tasks import BUDGET, QUESTION, write_tasks

MAIL_TASK = "client-hours-billing-002"  # the user books hours and mails the amount due: read closed-world
SENDER = "sofia.aziz@silverpine.test"
KB = 1024

# text no person writes, each a shape that once made a pattern or a loop of the grading quadratic
PATHOLOGICAL = {
    "a.a.a": "a.",  # the path pattern tried every start to the end of the run
    "digits": "1",
    "digits and spaces": "1 ",  # a value every two characters: each read against its sentence
    "spaces": " ",
    "punctuation": ".,;:-",
    "lines of numbers": "1\n",
}


def pathological(unit: str, size: int) -> str:
    return "x" + (unit * (size // len(unit) + 1))[:size - 1]


@pytest.fixture(scope="module")
def mail_task():
    return load_tasks(only=[MAIL_TASK])[MAIL_TASK]


@pytest.fixture(scope="module")
def evaluator(tmp_path_factory):
    ev = Evaluator(tmp_path_factory.mktemp("gold"))
    yield ev
    ev.close()


def _sent_mail(task, root: Path) -> Path:
    return next((root / "emails" / SENDER / "sent").glob("*.eml"))


def _grading_cpu(evaluator: Evaluator, task, tmp_path: Path, text: str) -> tuple[float, EpisodeRecord]:
    """CPU seconds of grading a session whose mail, as the gold sends it, goes on with ``text`` (written
    into the sent message's file, as a shell command could: the action's own limit is not what is tested)."""
    office = new_office(task, tmp_path / "sessions")
    try:
        session = Session(task, "all_operations", 50, office)
        for action in task.gold:
            if action.action != "finish_task":
                assert session.step(action.app, action.action, action.args).ok
        with _sent_mail(task, Path(office.root)).open("a", encoding="utf-8") as eml:
            eml.write(text)
        evaluator.gold(task)  # the reference states are computed once per task, not part of what is timed
        start = time.process_time()
        record = evaluator.evaluate(session)
        return time.process_time() - start, record
    finally:
        remove_office(office)


# ---- every pattern and loop linear --------------------------------------------------------------------
def test_paths_are_found_as_the_pattern_finds_them():
    rnd = random.Random(43)
    pieces = ["a", "B", ".", "/", "//", "///", "-", " ", "é", "1", "_", ".pdf", ".XLSX", ".xls", ".docx", ".jpeg",
              ".pdfx", "\n", "x.md"]
    for _ in range(20_000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 30)))
        assert path_spans(text) == [(m.start(), m.end()) for m in _PATH.finditer(text)], text


def test_long_lines_are_read_in_pieces_and_everything_else_as_written():
    text = "Dear Mei,\n\nthe amount due is 495.\n" + "word " * 300 + "\nBest regards"
    assert bounded_lines(text) is text
    long = "x" * 10 + " ".join(["1,500.00"] * 1_000) + "yy" + "z" * (3 * MAX_LINE)
    pieces = bounded_lines(long).split("\n")
    assert max(map(len, pieces)) <= MAX_LINE and len(bounded_lines(long)) >= len(long)
    assert "".join(pieces).replace(" ", "") == long.replace(" ", "")  # only where it is broken changed


@pytest.mark.parametrize("unit", PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
def test_grading_a_pathological_mail_grows_linearly(mail_task, evaluator, tmp_path, unit):
    small, _ = _grading_cpu(evaluator, mail_task, tmp_path, "\n" + pathological(unit, 32 * KB))
    large, record = _grading_cpu(evaluator, mail_task, tmp_path, "\n" + pathological(unit, 256 * KB))
    # eight times the text: linear work takes about eight times as long, quadratic work 64 times
    assert large < 24 * max(small, 0.05), f"32 KB: {small:.2f} s, 256 KB: {large:.2f} s of CPU"
    assert record.checks and record.failed != ["error"]  # graded, whatever the verdict


def test_a_text_of_more_values_than_the_grading_reads_fails_closed(mail_task, evaluator, tmp_path):
    _, record = _grading_cpu(evaluator, mail_task, tmp_path, "\n" + pathological("7 ", 4 * MAX_CLAIMS))
    mail = next(c for c in record.checks if c.check == "email_sent")
    assert not mail.passed and f"more than the {MAX_CLAIMS:,}" in mail.message


def test_a_one_megabyte_answer_is_graded_within_bounds_under_a_raised_limit(tmp_path, evaluator, monkeypatch):
    """Refused at the action by default (tests/test_text_limits.py); admitted under a raised limit, it is
    graded in time that grows with it linearly."""
    monkeypatch.setitem(TEXT_LIMITS, "answer", TextLimit("the final answer", 2 << 20, "OFFICESIM_MAX_ANSWER_KB"))
    task = load_tasks([write_tasks(tmp_path / "tasks", QUESTION)], include_suite=False)["api-question"]

    def cpu(size: int) -> tuple[float, EpisodeRecord]:
        office = new_office(task, tmp_path / "sessions")
        try:
            evaluator.gold(task)
            session = Session(task, "all_operations", 5, office, evaluate=evaluator.evaluate)
            start = time.process_time()
            result = session.finish("The rent is 1200.\n" + pathological("a.1 ", size))
            return time.process_time() - start, result.evaluation
        finally:
            remove_office(office)

    (small, _), (large, record) = cpu(128 * KB), cpu(1 << 20)
    assert record is not None and record.checks and record.failed != ["error"], record
    assert large < 24 * max(small, 0.05), f"128 KB: {small:.2f} s, 1 MB: {large:.2f} s of CPU"


# ---- the server: grading in a worker, under a time limit -------------------------------------------------
@pytest.fixture
def server(tmp_path):
    tasks = write_tasks(tmp_path / "tasks", BUDGET, QUESTION)
    shutil.copytree(SUITE_DIR / MAIL_TASK, tasks / MAIL_TASK)
    cfg = ServerSettings(sessions_dir=tmp_path / "sessions", include_suite=False)
    with TestClient(create_app([tasks], cfg)) as client:
        yield client


def _act(client: TestClient, sid: str, app: str, action: str, args: dict) -> dict:
    r = client.post(f"/sessions/{sid}/actions", json={"app": app, "action": action, "args": args})
    assert r.status_code == 200, r.text
    return r.json()


def test_another_session_answers_at_once_while_a_pathological_mail_is_graded(server, mail_task):
    manager = server.app.state.manager
    mailer = server.post("/sessions", json={"task_id": MAIL_TASK, "mode": "all_operations"}).json()["session_id"]
    other = server.post("/sessions", json={"task_id": "api-budget-note", "mode": "all_operations",
                                           "max_steps": 10_000}).json()["session_id"]
    assert _act(server, other, "excel", "read_file", {"file_path": "data/budget.xlsx"})["ok"]  # a warm worker
    # a 1 MB answer is refused at the action, not found at grading
    refused = _act(server, mailer, "system", "finish_task", {"answer": "495 " + pathological("a.", 1 << 20)})
    assert refused["error"]["code"] == "resource_limit" and not refused["done"]
    for action in mail_task.gold:
        assert _act(server, mailer, action.app, action.action, action.args)["ok"]
    root = Path(manager.get(mailer).office.root)
    with _sent_mail(mail_task, root).open("a", encoding="utf-8") as eml:  # 256 KB a shell could write
        eml.write("\n" + pathological("a.", 256 * KB))

    done: dict = {}
    finisher = threading.Thread(target=lambda: done.update(server.post(f"/sessions/{mailer}/finish", json={}).json()))
    finisher.start()
    during = 0
    try:
        while True:
            rows = {"start_row": 1 + during % 2}  # not the same action again and again (that ends a session)
            assert _act(server, other, "excel", "read_file", {"file_path": "data/budget.xlsx", **rows})["ok"]
            if not finisher.is_alive():
                break
            during += 1
            finisher.join(0.05)
    finally:
        finisher.join()
    # ordering, not seconds (a loaded machine is slow at everything): actions of the other session were
    # answered one after another while the grading still ran; had grading held the server, the first
    # action sent after the finish arrived would have been answered only once the grading was over
    assert during >= 2, f"only {during} action(s) of another session answered while a mail was graded"
    assert done["done"] and done["evaluation"] is not None and "grading_timeout" not in done["evaluation"]["failed"]


def test_grading_past_its_time_limit_fails_with_grading_timeout_and_the_server_goes_on(server, monkeypatch):
    first = server.post("/sessions", json={"task_id": "api-question"}).json()["session_id"]
    monkeypatch.setattr(grade_module, "GRADING_TIME_LIMIT_S", 0.0)  # computed in the server: no worker can make it
    monkeypatch.setattr(grade_module, "GRADING_S_PER_MB", 0.0)
    body = server.post(f"/sessions/{first}/finish", json={"answer": "1200"}).json()
    evaluation = body["evaluation"]
    assert body["done"] and evaluation["failed"] == ["grading_timeout"] and not evaluation["passed"]
    assert "time limit" in evaluation["error"] and "OFFICESIM_GRADING_TIME_LIMIT" in evaluation["error"]
    monkeypatch.undo()
    second = server.post("/sessions", json={"task_id": "api-question"}).json()["session_id"]
    assert server.post(f"/sessions/{second}/finish", json={"answer": "1200"}).json()["evaluation"]["passed"]


def test_the_time_limit_grows_with_the_office():
    assert grading.grading_time_limit(0) == grade_module.GRADING_TIME_LIMIT_S
    assert grading.grading_time_limit(10 << 20) == pytest.approx(grade_module.GRADING_TIME_LIMIT_S
                                                                 + 10 * grade_module.GRADING_S_PER_MB)


# ---- expiry grading off the request's thread --------------------------------------------------------------
def test_an_idle_sessions_expiry_grading_never_runs_on_another_sessions_request(tmp_path, monkeypatch):
    tasks = load_tasks([write_tasks(tmp_path / "tasks", BUDGET, QUESTION)], include_suite=False)
    manager = SessionManager(tasks, ServerSettings(sessions_dir=tmp_path / "sessions", idle_timeout=0.2,
                                                   include_suite=False))
    started, release, returned, graded_on = threading.Event(), threading.Event(), threading.Event(), []

    def slow_grading(session: Session) -> EpisodeRecord:
        graded_on.append(threading.current_thread().name)
        started.set()
        release.wait(600)
        returned.set()
        return EpisodeRecord.ungraded(session.task.id, session.status, None)

    try:
        monkeypatch.setattr(manager.evaluator, "evaluate", slow_grading)
        idle = manager.create(tasks["api-question"], "switch_app", 10)
        monkeypatch.undo()
        busy = manager.create(tasks["api-budget-note"], "switch_app", 10)
        while not started.is_set():  # each lookup of the busy session is a request that may start a sweep
            busy.last_active = time.monotonic()
            assert manager.get(busy.id) is busy
            assert not returned.is_set()  # ordering, not seconds: no lookup waited for a grading to end
            started.wait(0.05)
        assert graded_on and graded_on[0] == "officesim-expiry"  # the sweep's own thread
        assert manager.get(busy.id) is busy  # answers while the expiry grading still runs
        assert not returned.is_set() and idle.evaluation is None
    finally:
        manager.delete(busy.id)  # never expired and graded for real while the test waits
        release.set()
        for _ in range(600):
            if idle.evaluation is not None:
                break
            time.sleep(0.05)
        manager.close()
    assert idle.status == "expired" and idle.evaluation is not None
