"""What a server's start does not repeat or carry: task files validated once per machine, the apps and the
MCP SDK left unimported by what does not use them, one HTTP client for all of a start's health polls, and
a router that sends nothing to a process still starting."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import yaml

from officesim.server.router import Router
from officesim.tasks import loader

from tests.test_loader import GOOD, write


def _many(root: Path, count: int) -> None:
    for i in range(count):
        task = copy.deepcopy(GOOD)
        task["id"] = f"tiny-{i:03d}"
        write(root, task)


def test_a_large_load_is_validated_once_per_machine_and_again_when_a_file_changes(tmp_path, monkeypatch):
    monkeypatch.setenv("OFFICESIM_CACHE", str(tmp_path / "cache"))
    (tmp_path / "cache").mkdir(mode=0o700)
    _many(tmp_path / "tasks", loader.CACHED_FROM)
    parsed = []
    real = loader.parse_task_file
    monkeypatch.setattr(loader, "parse_task_file", lambda path, data=None: parsed.append(path) or real(path, data))

    first = loader.load_tasks([tmp_path / "tasks"], include_suite=False)
    assert len(parsed) == loader.CACHED_FROM and len(first) == loader.CACHED_FROM
    parsed.clear()
    again = loader.load_tasks([tmp_path / "tasks"], include_suite=False)
    assert parsed == []  # read from the machine's store
    assert again["tiny-007"].instruction == GOOD["instruction"]
    assert again["tiny-007"].source_dir == str(tmp_path / "tasks" / "tiny-007")

    changed = tmp_path / "tasks" / "tiny-007" / "task.yaml"
    task = yaml.safe_load(changed.read_text())
    task["instruction"] = "Put 6 in A1 of data/t.xlsx."
    changed.write_text(yaml.safe_dump(task))
    fresh = loader.load_tasks([tmp_path / "tasks"], include_suite=False)
    assert len(parsed) == loader.CACHED_FROM  # another digest: parsed again
    assert fresh["tiny-007"].instruction == "Put 6 in A1 of data/t.xlsx."


def test_a_bad_file_in_a_large_load_is_reported_from_the_store_too(tmp_path, monkeypatch):
    monkeypatch.setenv("OFFICESIM_CACHE", str(tmp_path / "cache"))
    (tmp_path / "cache").mkdir(mode=0o700)
    _many(tmp_path / "tasks", loader.CACHED_FROM)
    (tmp_path / "tasks" / "tiny-003" / "task.yaml").write_text("id: [unclosed\n")
    for _ in range(2):
        try:
            loader.load_tasks([tmp_path / "tasks"], include_suite=False)
        except loader.TaskLoadError as exc:
            assert any("tiny-003" in p and "cannot read YAML" in p for p in exc.problems)
        else:
            raise AssertionError("a broken task file must be reported")


def test_the_command_line_loads_no_app_no_printer_and_no_mcp_to_build_its_parser():
    code = ("import sys, officesim.runner.cli as c; c.build_parser(); "
            "print(sorted(m for m in ('officesim.apps.excel', 'rich.console', 'pypdf', 'mcp') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_server_app_does_not_import_the_mcp_sdk_before_it_serves():
    code = ("import sys; from officesim.server.app import create_app; "
            "print('mcp' in sys.modules, 'mcp_types' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False False"


def test_the_apps_are_built_on_first_use_and_once():
    code = ("import sys, officesim.apps as a; before = 'officesim.apps.excel' in sys.modules; "
            "x = a.APPS; y = a.apps_for(); print(before, 'officesim.apps.excel' in sys.modules, x is y, "
            "'officesim.testbed.guards' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True", "True", "True"]  # the file limits are set before any app runs


def test_a_start_polls_health_through_one_client(monkeypatch, tmp_path):
    from officesim.runner import localserver

    made = []

    class Proc:
        def poll(self):
            return None

    server = localserver.LocalServer([], include_suite=False, token="")
    server.proc = Proc()
    answers = iter([False, False, False, True])
    real = server._health_client
    monkeypatch.setattr(server, "_health_client", lambda: made.append(1) or real())
    monkeypatch.setattr(server, "healthy", lambda client=None: next(answers))
    server.wait_healthy(timeout=60)
    assert made == [1]


def test_the_router_sends_nothing_to_a_process_still_starting():
    class Request:
        path = b"/tasks"
        tried: set = set()

    router = Router(["/tmp/a.sock", "/tmp/b.sock"])
    router.mark_starting(1)
    assert {router.choose(Request()) for _ in range(6)} == {0}
    router.mark_up(1)
    assert {router.choose(Request()) for _ in range(6)} == {0, 1}


def test_the_router_says_which_processes_are_still_starting():
    """/health answers once process 0 does; /health/processes (what the harness waits for when it starts
    several processes, runner/localserver.py) only once every process does."""
    import json

    router = Router(["/tmp/a.sock", "/tmp/b.sock", "/tmp/c.sock"])
    router.mark_starting(1)
    router.mark_starting(2)
    router.mark_down(0)  # a moment's failure is not a start
    head, body = router.processes_answer(keep_alive=True).split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 503") and json.loads(body)["starting"] == [1, 2]
    router.mark_up(1)
    router.mark_up(2)
    head, body = router.processes_answer(keep_alive=False).split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 200") and b"connection: close" in head
    assert json.loads(body) == {"status": "ok", "processes": 3, "starting": []}
