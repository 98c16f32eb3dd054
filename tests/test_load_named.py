"""``eval --task X`` loads only what it needs: the named tasks are parsed from their folders alone (a
broken task elsewhere does not stop them), private servers load those folders alone, and an id not
found by its folder falls back to loading everything, with the usual errors."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from officesim.runner.run import EvalConfig, select_tasks, server_task_dirs
from officesim.tasks.loader import TaskLoadError, load_tasks
from tests.test_loader import GOOD


def write(root: Path, task: dict, folder: str | None = None) -> Path:
    path = root / (folder or task["id"])
    path.mkdir(parents=True)
    (path / "task.yaml").write_text(yaml.safe_dump(task))
    return path


@pytest.fixture
def tasks_dir(tmp_path) -> Path:
    root = tmp_path / "tasks"
    write(root, GOOD)
    write(root, {**GOOD, "id": "tiny-002"})
    write(root, {**GOOD, "id": "broken-001", "category": 9, "checks": [{"check": "no_such_check"}]})
    return root


def test_only_the_named_tasks_are_parsed(tasks_dir):
    with pytest.raises(TaskLoadError):  # everything: the broken task stops the load
        load_tasks([tasks_dir], include_suite=False)
    assert list(load_tasks([tasks_dir], include_suite=False, only=["tiny-002"])) == ["tiny-002"]
    named = load_tasks([tasks_dir], include_suite=False, only=["tiny-001", "tiny-002"])
    assert sorted(named) == ["tiny-001", "tiny-002"] and named["tiny-001"].source_dir == str(tasks_dir / "tiny-001")


def test_an_id_not_found_by_folder_loads_everything(tasks_dir, tmp_path):
    with pytest.raises(TaskLoadError) as err:
        load_tasks([tasks_dir], include_suite=False, only=["tiny-001", "missing"])
    assert "broken-001" in str(err.value)
    other = tmp_path / "other"
    write(other, {**GOOD, "id": "odd-001"}, folder="not-its-id")  # a folder named otherwise: a problem, as always
    with pytest.raises(TaskLoadError, match="differs from its folder name"):
        load_tasks([other], include_suite=False, only=["odd-001"])
    single = tmp_path / "one.yaml"  # a task file given directly is parsed, whatever its name
    single.write_text(yaml.safe_dump({**GOOD, "id": "single-001"}))
    assert list(load_tasks([single], include_suite=False, only=["single-001"])) == ["single-001"]


def test_eval_selects_and_serves_only_the_named_tasks(tasks_dir, tmp_path):
    cfg = EvalConfig(task_dirs=[tasks_dir], task_ids=["tiny-002"], out=tmp_path / "out")
    loaded, selected = select_tasks(cfg)
    assert list(loaded) == ["tiny-002"] and [t.id for t in selected] == ["tiny-002"]
    assert server_task_dirs(cfg, selected) == ([tasks_dir / "tiny-002"], False)
    whole = EvalConfig(task_dirs=[tasks_dir], out=tmp_path / "out")
    assert server_task_dirs(whole, []) == ([tasks_dir], False)
    assert server_task_dirs(EvalConfig(out=tmp_path / "out"), []) == ([], True)


def test_the_suite_by_id(tmp_path):
    cfg = EvalConfig(task_ids=["action-items-mail-001"], out=tmp_path / "out")
    loaded, selected = select_tasks(cfg)
    assert list(loaded) == ["action-items-mail-001"]
    dirs, suite = server_task_dirs(cfg, selected)
    assert not suite and [d.name for d in dirs] == ["action-items-mail-001"]
