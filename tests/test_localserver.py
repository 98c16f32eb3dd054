"""The one local-server harness: the validator and the eval runner start their private servers
through it, and no server outlives the run that started it (normal end, exception, interpreter exit)."""

from __future__ import annotations

import io
import socket
from pathlib import Path

import httpx
import pytest

from officesim.runner import localserver, run, validate
from officesim.runner.localserver import LocalServer
from officesim.runner.run import EvalConfig, run_eval
from tests._api_tasks import QUESTION, variant, write_tasks

PACKAGES = ("testbed", "apps", "evaluators", "tasks", "server", "runner", "inspect_ai_task")
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def task_dir(tmp_path_factory):
    return write_tasks(tmp_path_factory.mktemp("tasks"), QUESTION)


@pytest.fixture
def started(monkeypatch) -> list[LocalServer]:
    """Every LocalServer started during the test, whoever starts it."""
    seen: list[LocalServer] = []
    real_start = LocalServer.start

    def spy(self):
        seen.append(self)
        return real_start(self)

    monkeypatch.setattr(LocalServer, "start", spy)
    return seen


def _stopped(servers: list[LocalServer]) -> bool:
    return all(not s.running and s.proc.returncode is not None for s in servers) and not (set(servers) & localserver._live)


def test_validate_and_runner_share_the_harness():
    assert validate.local_servers is localserver.local_servers
    assert run.local_servers is localserver.local_servers


def test_no_other_module_launches_a_server():
    """Only the harness starts ``officesim serve``; only the CLI runs uvicorn."""
    launchers, uvicorn_users = [], []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            rel = path.relative_to(ROOT).as_posix()
            if '"serve"' in text and "subprocess" in text:
                launchers.append(rel)
            if "uvicorn.run(" in text or "uvicorn.Server(" in text:
                uvicorn_users.append(rel)
    assert launchers == ["runner/localserver.py"]
    assert uvicorn_users == ["runner/cli.py"]


def test_validate_starts_its_servers_through_the_harness_and_stops_them(task_dir, started):
    out = io.StringIO()
    assert validate.main([str(task_dir)], include_suite=False, out=out) == 0, out.getvalue()
    assert len(started) == 1 and started[0].max_sessions == validate.MAX_SESSIONS
    assert _stopped(started)


def test_runner_starts_its_servers_through_the_harness_and_stops_them(task_dir, tmp_path, started):
    summary = run_eval(EvalConfig(agent="oracle", task_dirs=[task_dir], out=tmp_path / "run", progress="off",
                                  servers=2, workers=2))
    assert summary["passed"] == summary["total"] == 1
    assert len(started) == 2 and _stopped(started)


def test_runner_stops_its_servers_when_it_fails(task_dir, tmp_path, started, monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(run, "_run_jobs", boom)
    with pytest.raises(RuntimeError, match="boom"):
        run_eval(EvalConfig(agent="noop", task_dirs=[task_dir], out=tmp_path / "run", progress="off", servers=1))
    assert len(started) == 1 and _stopped(started)


def test_server_that_exits_at_start_reports_its_error(tmp_path):
    folder = write_tasks(tmp_path / "bad", variant(QUESTION, id="bad-task", category=3))
    server = LocalServer([folder], include_suite=False)
    with pytest.raises(RuntimeError, match="exited at start") as err:
        server.__enter__()
    assert "category" in str(err.value)
    assert _stopped([server])


def test_a_taken_port_is_retried(task_dir):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        server = LocalServer([task_dir], include_suite=False, token="tok")
        server.port = taken.getsockname()[1]
        with server:
            assert server.port != taken.getsockname()[1]
            assert httpx.get(f"{server.url}/health").status_code == 200
            assert httpx.get(f"{server.url}/tasks").status_code == 401
            assert httpx.get(f"{server.url}/tasks", headers={"Authorization": "Bearer tok"}).status_code == 200
    assert _stopped([server])


def test_servers_left_running_stop_at_exit(task_dir):
    server = LocalServer([task_dir], include_suite=False).start()
    server.wait_healthy()
    assert server in localserver._live and server.running
    localserver._stop_leftovers()
    assert _stopped([server])
