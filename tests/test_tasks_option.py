"""`--tasks` means the same in every command: the tasks of those directories instead of the built-in
suite, unless `--with-suite` keeps the suite beside them (eval, validate, serve, tasks list, mcp)."""

from __future__ import annotations

from pathlib import Path

import pytest

import officesim.runner.cli as cli
import officesim.runner.eval_command as eval_command
import officesim.runner.validate as validate_module
from officesim.runner.localserver import LocalServer
from officesim.runner.play import EvalConfig, wants_suite
from officesim.runner.run import select_tasks, server_task_dirs

EXAMPLES = Path(__file__).resolve().parent.parent / "tasks" / "examples"

# (arguments after the command, whether the built-in suite is loaded)
CASES = [
    ([], True),
    (["--tasks", "some/dir"], False),
    (["--tasks", "some/dir", "--with-suite"], True),
    (["--tasks", "a", "--tasks", "b"], False),
    (["--no-suite", "--tasks", "some/dir"], False),
]


@pytest.mark.parametrize("extra,suite", CASES)
def test_validate_and_serve_and_list_agree(monkeypatch, extra, suite):
    seen = {}

    def record(key, value, result):
        seen[key] = value
        return result

    monkeypatch.setattr(validate_module, "main", lambda *a, **kw: record("validate", kw["include_suite"], 0))
    assert cli.main(["validate", *extra]) == 0
    assert seen["validate"] is suite

    import officesim.tasks.loader as loader

    monkeypatch.setattr(loader, "load_tasks", lambda dirs, include_suite=True, **kw: record("list", include_suite, {}))
    assert cli.main(["tasks", "list", *extra]) == 0
    assert seen["list"] is suite

    import officesim.server.app as app_module

    def fake_create_app(dirs, settings):
        seen["serve"] = settings.include_suite
        raise SystemExit(0)  # never serve

    monkeypatch.setattr(app_module, "create_app", fake_create_app)
    with pytest.raises(SystemExit):
        cli.main(["serve", "--processes", "1", *extra])
    assert seen["serve"] is suite


@pytest.mark.parametrize("extra,suite", CASES)
def test_eval_agrees(monkeypatch, tmp_path, extra, suite):
    import officesim.runner.run as run_module

    seen = {}

    def fake_run_eval(cfg, console=None):
        seen["suite"] = wants_suite(cfg)
        return {"passed": 0, "total": 0, "pass_rate": 0.0, "side_effect_rate": 0.0, "by_category": {}}

    monkeypatch.setattr(run_module, "run_eval", fake_run_eval)
    monkeypatch.setattr(eval_command, "_conclude", lambda console, args, summary: 0)
    assert cli.main(["eval", "--out", str(tmp_path / "run"), *extra]) == 0
    assert seen["suite"] is suite


@pytest.mark.parametrize("command", [["validate"], ["tasks", "list"], ["serve"], ["eval"]])
def test_with_suite_and_no_suite_exclude_each_other(command, capsys):
    assert cli.main([*command, "--tasks", "x", "--with-suite", "--no-suite"]) == 2
    assert "--with-suite and --no-suite exclude each other" in capsys.readouterr().err


def test_select_tasks_replaces_unless_with_suite():
    only = EvalConfig(task_dirs=[EXAMPLES])
    tasks, selected = select_tasks(only)
    assert tasks and all(Path(t.source_dir).parent == EXAMPLES for t in tasks.values())
    assert server_task_dirs(only, selected) == ([EXAMPLES], False)
    both = EvalConfig(task_dirs=[EXAMPLES], include_suite=True, task_ids=["budget-add-total-001", "example-price-sort"])
    tasks, selected = select_tasks(both)
    assert [t.id for t in selected] == ["budget-add-total-001", "example-price-sort"]


def test_private_servers_are_told_the_same():
    assert "--with-suite" in LocalServer([EXAMPLES], include_suite=True).command()
    alone = LocalServer([EXAMPLES], include_suite=False).command()
    assert "--no-suite" in alone and "--with-suite" not in alone
    suite = LocalServer(include_suite=True).command()
    assert "--with-suite" not in suite and "--no-suite" not in suite
