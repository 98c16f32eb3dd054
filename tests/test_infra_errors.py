"""Infrastructure faults are not the agent's failures: an episode that ends by one (a timeout, a refused
connection, a server that does not start) is recorded with status ``error`` and the call it failed on,
played again (``--retries``), counted apart in summary.json, the printed summary, the report and JUnit
(``<error>``), and leaves ``eval`` with exit code 3 while errors remain. Timeouts scale with the work;
``validate`` plays a timed-out play again; servers say how their start goes.

Faults are injected by an httpx transport in front of a real server (the request is sent and answered,
then the client is told it timed out, as a client whose read timed out would be).
"""

from __future__ import annotations

import io
import json
import threading
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable

import httpx
import pytest

from officesim.runner import localserver, run as run_module, validate
from officesim.runner.cli import main as cli_main
from officesim.runner.episode import InfrastructureError
from officesim.runner.faults import classify, failed_call, is_infrastructure
from officesim.runner.localserver import LocalServer, ServerStartError, count_task_files, local_servers, start_timeout
from officesim.runner.results import read_results
from officesim.server.client import OfficeClient, OfficeError
from tests import _api_tasks
from tests._eval_tasks import write_tasks

Fault = Callable[[httpx.Request, "FaultyTransport"], bool]


class FaultyTransport(httpx.BaseTransport):
    """A real transport, except that a request matching ``fault`` (at most ``times`` of them; None: every
    one) is answered by the server and then raises httpx.ReadTimeout on the client. It learns which task
    each session plays from the creation answers (``sessions``)."""

    def __init__(self, fault: Fault, times: int | None = 1):
        self.inner = httpx.HTTPTransport()
        self.fault = fault
        self.left = times
        self.raised = 0
        self.sessions: dict[str, str] = {}
        self.lock = threading.Lock()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if request.method == "POST" and request.url.path == "/sessions" and response.status_code == 201:
            response.read()
            created = json.loads(response.content)
            with self.lock:
                self.sessions[created["session_id"]] = created["task"]["id"]
        with self.lock:
            hit = (self.left is None or self.left > 0) and self.fault(request, self)
            if hit:
                self.raised += 1
                if self.left is not None:
                    self.left -= 1
        if hit:
            response.close()
            raise httpx.ReadTimeout("timed out", request=request)
        return response

    def close(self) -> None:
        self.inner.close()

    def task_of(self, request: httpx.Request) -> str | None:
        parts = request.url.path.split("/")
        return self.sessions.get(parts[2]) if len(parts) > 2 and parts[1] == "sessions" else None


def finish_of(task_id: str | None = None) -> Fault:
    """POST /sessions/{id}/finish (of a session of ``task_id``, when given)."""
    return lambda request, t: (request.method == "POST" and request.url.path.endswith("/finish")
                               and (task_id is None or t.task_of(request) == task_id))


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    tasks = write_tasks(tmp_path_factory.mktemp("tasks"))
    _api_tasks.write_tasks(tasks, _api_tasks.QUESTION)
    with LocalServer([tasks], include_suite=False) as server:
        yield {"tasks": tasks, "server": server}


def use_transport(monkeypatch, transport: FaultyTransport) -> None:
    """The eval runner's clients go through ``transport``."""
    def client(cfg, url, token):
        return OfficeClient(url, token=token, timeout=cfg.timeout, session_timeout=cfg.session_timeout,
                            transport=transport)

    monkeypatch.setattr(run_module, "_client", client)


def eval_args(env, out: Path, *tasks: str, extra: tuple[str, ...] = ()) -> list[str]:
    args = ["eval", "--agent", "oracle", "--tasks", str(env["tasks"]), "--server", env["server"].url,
            f"--token={env['server'].token}", "--out", str(out), "--progress", "lines", *extra]
    for task in tasks:
        args += ["--task", task]
    return args


@pytest.fixture(autouse=True)
def no_retry_pause(monkeypatch):
    """Retries without the pause between attempts (the pause is a courtesy to a loaded server)."""
    real = run_module.EvalConfig.__init__

    def init(self, *args, **kwargs):
        real(self, *args, **kwargs)
        self.retry_pause_s = 0.0

    monkeypatch.setattr(run_module.EvalConfig, "__init__", init)


# -- eval -------------------------------------------------------------------------------------------
def test_a_timeout_once_is_played_again_and_passes(env, tmp_path, monkeypatch, capsys):
    transport = FaultyTransport(finish_of(), times=1)
    use_transport(monkeypatch, transport)
    out = tmp_path / "run"
    code = cli_main(eval_args(env, out, "ev-total-001", extra=("--junit", str(tmp_path / "junit.xml"))))
    err = capsys.readouterr().err
    assert code == 0, err
    assert transport.raised == 1
    (rec,) = read_results(out)
    assert rec.passed and rec.status == "finished" and rec.error is None
    assert rec.attempts == 2 and len(rec.retried_errors) == 1
    assert "ReadTimeout" in rec.retried_errors[0] and "/finish" in rec.retried_errors[0]
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["errors"], summary["retried"], summary["passed"], summary["pass_rate"]) == (0, 1, 1, 1.0)
    assert "retry ev-total-001 (attempt 2 of 2): infrastructure error in agent: ReadTimeout" in err
    assert "1 episode(s) were played again after an infrastructure error" in err and "ERROR:" not in err
    suite = ET.parse(tmp_path / "junit.xml").getroot().find("testsuite")
    assert (suite.get("failures"), suite.get("errors")) == ("0", "0")


def test_a_timeout_that_stays_is_an_error_apart_and_exits_3(env, tmp_path, monkeypatch, capsys):
    transport = FaultyTransport(finish_of("ev-total-001"), times=None)
    use_transport(monkeypatch, transport)
    out, junit = tmp_path / "run", tmp_path / "junit.xml"
    code = cli_main(eval_args(env, out, "ev-total-001", "ev-rent-001",
                              extra=("--junit", str(junit), "--session-timeout", "321", "--fail-under", "0.9")))
    err = capsys.readouterr().err
    assert code == 3, err  # the run is incomplete; the one graded episode passed, so the gate alone would pass
    assert transport.raised == 2  # played twice (--retries 1 by default)
    records = {r.task_id: r for r in read_results(out)}
    bad = records["ev-total-001"]
    assert bad.status == "error" and bad.error_kind == "infrastructure" and not bad.passed
    assert bad.attempts == 2 and len(bad.retried_errors) == 1
    call = bad.error_call
    assert (call.phase, call.method, call.exception) == ("agent", "POST", "ReadTimeout")
    assert call.path.startswith("/sessions/") and call.path.endswith("/finish")
    assert call.timeout_s == 321  # the session timeout given on the command line, not a fixed 120 s
    assert call.site.startswith("tasks/gold.py:") and call.site.endswith("in play_gold")  # who made the call
    assert "in run_episode" in bad.error_traceback and "ReadTimeout" in bad.error_traceback  # the whole traceback
    assert bad.error.startswith("infrastructure error in agent: ReadTimeout") and "timeout 321 s" in bad.error
    assert records["ev-rent-001"].passed

    summary = json.loads((out / "summary.json").read_text())
    assert (summary["total"], summary["graded"], summary["errors"], summary["passed"]) == (2, 1, 1, 1)
    assert summary["pass_rate"] == 1.0  # the error is not a failure of the agent
    assert summary["by_category"]["1"]["errors"] == 1 and summary["by_category"]["1"]["pass_rate"] == 1.0
    assert summary["failed_components"] == {}
    assert [e["task_id"] for e in summary["error_episodes"]] == ["ev-total-001"]
    assert summary["error_episodes"][0]["call"]["method"] == "POST"
    assert "passed 1/1 (pass rate 1.000" in err and "1 error(s) not graded" in err
    assert "ERROR: 1 episode(s) ended without a verdict" in err and "exits 3" in err

    suite = ET.parse(junit).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "0", "1")
    case = next(c for c in suite.findall("testcase") if c.get("name") == "ev-total-001")
    assert case.find("failure") is None and case.find("error") is not None
    assert "call: POST /sessions/" in case.find("error").text and "called from: tasks/gold.py" in case.find("error").text

    page = (out / "report.html").read_text()
    assert "Errors: 1 episode(s) without a verdict" in page and "<option value=error>error</option>" in page
    assert 'data-result="error"' in page and "called from" in page

    # --resume plays the error again (and only it); without the fault it passes and eval exits 0
    use_transport(monkeypatch, FaultyTransport(finish_of(), times=0))
    code = cli_main(eval_args(env, out, "ev-total-001", "ev-rent-001", extra=("--resume",)))
    err = capsys.readouterr().err
    assert code == 0, err
    assert all(r.passed for r in read_results(out)) and len(read_results(out)) == 2
    assert json.loads((out / "summary.json").read_text())["errors"] == 0


def test_a_fault_in_the_runners_own_call_names_it(env, tmp_path, monkeypatch, capsys):
    create = lambda request, t: request.method == "POST" and request.url.path == "/sessions"  # noqa: E731
    transport = FaultyTransport(create, times=None)
    use_transport(monkeypatch, transport)
    out = tmp_path / "run"
    code = cli_main(eval_args(env, out, "ev-rent-001", extra=("--retries", "0")))
    assert code == 3, capsys.readouterr().err
    assert transport.raised == 1  # --retries 0: played once
    (rec,) = read_results(out)
    assert rec.status == "error" and rec.attempts == 1 and rec.retried_errors is None
    assert (rec.error_call.phase, rec.error_call.path) == ("create_session", "/sessions")
    assert rec.error_call.site.startswith("runner/play.py:") and rec.error_call.site.endswith("in run_episode")


def test_a_server_that_does_not_start_is_retried_then_every_episode_is_an_error(env, tmp_path, monkeypatch, capsys):
    starts: list[LocalServer] = []
    monkeypatch.setattr(LocalServer, "start", lambda self: starts.append(self) or self)

    def never(self, timeout=None):
        raise ServerStartError(f"the officesim server did not become healthy within {timeout:.0f} s")

    monkeypatch.setattr(LocalServer, "wait_healthy", never)
    out = tmp_path / "run"
    code = cli_main(["eval", "--agent", "oracle", "--tasks", str(env["tasks"]), "--task", "ev-total-001",
                     "--task", "ev-rent-001", "--servers", "1", "--out", str(out), "--progress", "lines",
                     "--start-timeout", "77", "--junit", str(tmp_path / "junit.xml")])
    err = capsys.readouterr().err
    assert code == 3, err
    assert len(starts) == 2  # started, then once more (--retries 1)
    assert "starting 1 private server (limit 77 s" in err and "starting it again (attempt 2 of 2)" in err
    records = read_results(out)
    assert sorted(r.task_id for r in records) == ["ev-rent-001", "ev-total-001"]
    for rec in records:
        assert rec.status == "error" and rec.error_kind == "infrastructure" and rec.error_call.phase == "start_server"
        assert "within 77 s" in rec.error and rec.attempts == 2
        assert rec.instruction and rec.failure_labels == ["error"]  # a record without a verdict still says what was asked
    assert ET.parse(tmp_path / "junit.xml").getroot().get("errors") == "2"


def test_merge_of_runs_with_errors_exits_3(tmp_path, capsys):
    from officesim.evaluators import EpisodeRecord
    from officesim.runner.results import rewrite_clean, write_json

    run_dir = tmp_path / "shard"
    run_dir.mkdir()
    good = EpisodeRecord(task_id="a", category=1, passed=True, score=1.0, status="finished")
    lost = EpisodeRecord.ungraded("b", "error", "infrastructure error in agent: ConnectError: refused", category=1,
                                  error_kind="infrastructure")
    rewrite_clean(run_dir, [good, lost])
    write_json(run_dir / "run.json", {"agent": "x", "model": None, "suite": "s", "mode": "switch_app", "trials": 1,
                                      "task_ids": ["a", "b"]})
    assert cli_main(["merge", str(run_dir), "--out", str(tmp_path / "merged")]) == 3
    summary = json.loads((tmp_path / "merged" / "summary.json").read_text())
    assert (summary["passed"], summary["graded"], summary["errors"], summary["pass_rate"]) == (1, 1, 1, 1.0)
    assert "ERROR: 1 episode(s)" in capsys.readouterr().err


# -- which exceptions are infrastructure -------------------------------------------------------------
class APIConnectionError(Exception):
    """Named as the openai SDK's error is, in a module named as the SDK is."""


APIConnectionError.__module__ = "openai._exceptions"


def test_classification():
    request = httpx.Request("POST", "http://127.0.0.1:9/sessions/abc/actions")
    assert is_infrastructure(httpx.ConnectError("refused", request=request))
    assert is_infrastructure(httpx.ReadTimeout("timed out", request=request))
    assert is_infrastructure(OfficeError(503, "busy", "full"))
    assert is_infrastructure(OfficeError(502, "session_lost", "the process died"))
    assert is_infrastructure(OfficeError(429, "too_many_sessions", "cap"))
    assert is_infrastructure(type("ModelDown", (InfrastructureError,), {})("no model"))
    assert is_infrastructure(APIConnectionError("sdk"))
    assert not is_infrastructure(OfficeError(404, "unknown_task", "no task"))
    assert not is_infrastructure(RuntimeError("the agent's bug"))
    assert classify(ValueError("bad json")) == "agent"
    try:  # the agent wrapped the fault (raise ... from): still infrastructure
        try:
            raise httpx.ReadTimeout("timed out", request=request)
        except httpx.ReadTimeout as exc:
            raise RuntimeError("my agent failed") from exc
    except RuntimeError as wrapped:
        assert classify(wrapped) == "infrastructure"
        call = failed_call(wrapped, "agent")
        assert (call.method, call.path, call.host, call.exception) == ("POST", "/sessions/abc/actions", "127.0.0.1:9",
                                                                        "RuntimeError")
        assert call.site.startswith("tests/test_infra_errors.py:")


def test_the_client_waits_longer_for_what_does_more_work(monkeypatch):
    """Actions wait the action timeout; creating and finishing a session (a world's first build, grading)
    the session timeout; each from the environment or the constructor."""
    seen: dict[str, float] = {}

    def handler(request: httpx.Request) -> httpx.Response:
        seen[f"{request.method} {request.url.path}"] = request.extensions["timeout"]["read"]
        return httpx.Response(200, json={"session_id": "s", "done": False})

    monkeypatch.setenv("OFFICESIM_HTTP_TIMEOUT", "45")
    monkeypatch.delenv("OFFICESIM_SESSION_TIMEOUT", raising=False)
    with OfficeClient("http://x", transport=httpx.MockTransport(handler)) as client:
        client.create_session("t")
        client.act("s", "excel", "read_file", {})
        client.act("s", "system", "finish_task", {})
        client.finish("s")
        client.get_session("s")
        slower = client.with_timeouts(2)
        slower.act("s", "word", "read_file", {})
    assert seen["POST /sessions"] == 600 and seen["POST /sessions/s/finish"] == 600
    assert seen["GET /sessions/s"] == 45
    assert seen["POST /sessions/s/actions"] == 90  # the last: read_file through the view waiting twice as long
    monkeypatch.setenv("OFFICESIM_SESSION_TIMEOUT", "900")
    assert OfficeClient("http://x", timeout=30).session_timeout == 900
    assert OfficeClient("http://x", timeout=30, session_timeout=50).session_timeout == 50


# -- starting servers ---------------------------------------------------------------------------------
def test_the_start_limit_scales_with_tasks_servers_cores_and_load(monkeypatch, tmp_path):
    monkeypatch.delenv(localserver.START_TIMEOUT_ENV, raising=False)
    quiet = start_timeout(483, servers=1, cores=2, load=0.0)
    assert quiet == pytest.approx(localserver.START_BASE_S + localserver.START_PER_TASK_S * 483, abs=0.1)
    assert start_timeout(2000, cores=2, load=0.0) > quiet > start_timeout(10, cores=2, load=0.0)
    loaded = start_timeout(483, servers=2, cores=2, load=17.0)  # the load of the 119 s start
    assert loaded == pytest.approx(quiet * (17 + 2) / 2, abs=1) and loaded > 119
    assert start_timeout(483, servers=2, cores=16, load=17.0) < loaded  # more cores, less contention
    assert start_timeout(0, cores=64, load=0.0) == localserver.START_MIN_S
    assert start_timeout(100_000, cores=1, load=50.0) == localserver.START_MAX_S
    monkeypatch.setenv(localserver.START_TIMEOUT_ENV, "42")
    assert start_timeout(483, cores=2, load=17.0) == 42
    monkeypatch.setenv(localserver.START_TIMEOUT_ENV, "soon")
    with pytest.raises(ValueError, match=localserver.START_TIMEOUT_ENV):
        start_timeout(1)
    folder = write_tasks(tmp_path / "tasks")
    assert count_task_files([folder], include_suite=False) == 6
    assert count_task_files([folder / "ev-total-001"], include_suite=False) == 1
    assert count_task_files([folder], include_suite=True) > 6


def test_local_servers_say_how_the_start_goes(monkeypatch, tmp_path):
    """While servers start, the progress hears the limit, how long it has waited, and the end."""
    lines: list[str] = []
    ticked = threading.Event()

    def progress(text: str) -> None:
        lines.append(text)
        if "… (" in text:
            ticked.set()

    monkeypatch.setattr(LocalServer, "start", lambda self: self)
    limits: list[float] = []

    def healthy_after_a_tick(self, timeout=None):
        limits.append(timeout)
        assert ticked.wait(120), lines

    monkeypatch.setattr(LocalServer, "wait_healthy", healthy_after_a_tick)
    with local_servers(2, [write_tasks(tmp_path / "tasks")], include_suite=False, progress=progress, every=0.05,
                       timeout=99) as servers:
        assert len(servers) == 2
    assert limits == [99, 99]
    assert lines[0].startswith("starting 2 private servers (limit 99 s; load average ")
    assert any(l.startswith("starting 2 private servers… (") and "of 2 ready)" in l for l in lines), lines
    assert lines[-1].startswith("2 private servers ready (")


def test_serve_says_where_it_listens_and_a_dead_server_is_started_again(env):
    server = env["server"]
    said = server._stderr_tail(20_000)
    assert f"officesim serve: starting on http://127.0.0.1:{server.port}" in said
    assert f"officesim serving on http://127.0.0.1:{server.port} (ready " in said
    server.proc.kill()
    server.proc.wait()
    assert not server.running
    assert server.ensure_running() is True and server.running
    assert server.ensure_running() is False  # alive: left alone
    assert httpx.get(f"{server.url}/health").status_code == 200


# -- validate ------------------------------------------------------------------------------------------
def use_validate_transport(monkeypatch, transport: FaultyTransport) -> None:
    monkeypatch.setattr(validate, "OfficeClient", lambda url, token=None: OfficeClient(url, token=token,
                                                                                        transport=transport))


def finish_task_with(answer) -> Fault:
    """The finish_task action (as the validator plays it) with this answer."""
    def hit(request: httpx.Request, _t: FaultyTransport) -> bool:
        if not (request.method == "POST" and request.url.path.endswith("/actions")):
            return False
        body = json.loads(request.content)
        return body.get("action") == "finish_task" and (body.get("args") or {}).get("answer") == answer

    return hit


def run_validate(env) -> tuple[int, str]:
    out = io.StringIO()
    code = validate.main([str(env["tasks"])], ["api-question"], include_suite=False, out=out,
                         server_url=env["server"].url, token=env["server"].token)
    return code, out.getvalue()


def test_validate_plays_a_timed_out_play_again_and_says_so(env, monkeypatch):
    transport = FaultyTransport(finish_task_with(1200), times=1)  # the gold's finish, once
    use_validate_transport(monkeypatch, transport)
    code, text = run_validate(env)
    assert code == 0, text
    assert transport.raised == 1
    assert "RETRIED api-question: client timeout (ReadTimeout on POST /sessions/" in text
    assert "played again waiting 2x as long" in text and "1 play(s) retried after a client timeout" in text


def test_validate_calls_a_mutant_unplayable_only_after_its_retries(env, monkeypatch):
    transport = FaultyTransport(finish_task_with(300), times=None)  # the wrong solution's finish, always
    use_validate_transport(monkeypatch, transport)
    code, text = run_validate(env)
    assert code == 1, text
    assert transport.raised == validate.TIMEOUT_ATTEMPTS
    assert f"wrong solution 'wrong number': client timeout {validate.TIMEOUT_ATTEMPTS} times" in text
    assert text.count("RETRIED api-question") == validate.TIMEOUT_ATTEMPTS - 1
    assert "waiting 4x as long" in text  # the second retry waited twice as long as the first


def test_compare_and_baseline_leave_errors_out(tmp_path):
    """An error in run B is neither a lost task in `report --compare` nor a regression for --baseline."""
    from officesim.evaluators import EpisodeRecord
    from officesim.runner.compare import compare_records
    from officesim.runner.results import rewrite_clean
    from officesim.runner.run import regressions

    def rec(task_id: str, passed: bool) -> EpisodeRecord:
        return EpisodeRecord(task_id=task_id, category=1, passed=passed, score=float(passed), status="finished")

    a = [rec("t1", True), rec("t2", True)]
    b = [rec("t1", False), EpisodeRecord.ungraded("t2", "error", "infrastructure error in agent: ReadTimeout",
                                                   category=1, error_kind="infrastructure")]
    data = compare_records(a, b)
    assert data["errors_in_b"] == ["t2"] and data["errors_in_a"] == []
    assert data["flips"]["lost"] == ["t1"] and data["paired_tasks"] == 1
    for name, records in (("a", a), ("b", b)):
        (tmp_path / name).mkdir()
        rewrite_clean(tmp_path / name, records)
    assert regressions(tmp_path / "b", tmp_path / "a") == ["t1"]


# -- without a server: a stub client ---------------------------------------------------------------------
class StubClient:
    """Answers like a server whose grading fails (``evaluation`` carries the error)."""

    def __init__(self, evaluation: dict):
        self.evaluation = evaluation
        self.deleted: list[str] = []

    def create_session(self, task_id, mode=None, max_steps=None):
        return {"session_id": f"s{len(self.deleted)}", "task": {"id": task_id}, "prompt": "p", "tools": [],
                "current_app": "system"}

    def finish(self, session_id, answer=None):
        return {"done": True, "status": "finished", "evaluation": self.evaluation}

    def get_session(self, session_id, include_tools=False, timeout=None):
        return {"status": "finished", "step": 1, "history": [], "evaluation": self.evaluation}

    def delete(self, session_id, timeout=None):
        self.deleted.append(session_id)
        return {}


def test_a_failed_grading_has_no_verdict_and_is_played_again(env):
    from officesim.evaluators import EpisodeRecord
    from officesim.runner.agents import NoopAgent
    from officesim.runner.play import EvalConfig, play_episode
    from officesim.tasks.loader import load_tasks

    task = load_tasks([env["tasks"]], include_suite=False)["ev-total-001"]
    broken = EpisodeRecord.ungraded(task.id, "finished", "evaluation failed: Breach: the worker running it was "
                                                         "killed by SIGKILL (not by the server)").api_dict()
    client = StubClient(broken)
    retried: list[int] = []
    rec = play_episode(lambda attempt: client, NoopAgent(), task, 1, EvalConfig(retries=2, retry_pause_s=0.0),
                       on_retry=lambda record, attempt: retried.append(attempt))
    assert rec.status == "error" and rec.error_kind == "grading" and not rec.passed
    assert rec.error.startswith("grading error: evaluation failed: Breach")
    assert rec.attempts == 3 and retried == [1, 2] and len(client.deleted) == 3


def test_a_dead_private_server_is_started_again_before_a_retry_on_it(monkeypatch):
    from officesim.runner.play import EvalConfig
    from officesim.runner.run import _LocalClients
    from contextlib import ExitStack

    class Server:
        def __init__(self, port: int, running: bool):
            self.url, self.token, self.running, self.revived = f"http://127.0.0.1:{port}", None, running, 0

        def ensure_running(self) -> bool:
            if self.running:
                return False
            self.running, self.revived = True, self.revived + 1
            return True

    servers = [Server(1, True), Server(2, False)]
    with ExitStack() as stack:
        clients = _LocalClients(servers, EvalConfig(), stack)
        assert clients.pick(0, 1) is clients.clients[0] and servers[1].revived == 0  # a first attempt: no check
        assert clients.pick(0, 2) is clients.clients[1]  # the retry moves to the next server...
        assert servers[1].revived == 1 and servers[1].running  # ...started again first, as it had died
        assert clients.pick(1, 2) is clients.clients[0] and servers[0].revived == 0
