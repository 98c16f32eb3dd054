"""The task loader reports every problem with its file and field, not just the first."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from officesim.tasks.families import FAMILIES
from officesim.tasks.generate import generate
from officesim.tasks.loader import TaskLoadError, load_tasks

GOOD = {
    "id": "tiny-001",
    "scenario": "tiny",
    "category": 1,
    "apps": ["excel"],
    "user": "maya.lin@northwind.test",
    "now": "2026-03-10 09:00:00",
    "instruction": "Put 5 in A1 of data/t.xlsx.",
    "office": [{"type": "xlsx", "path": "data/t.xlsx", "sheets": {"S": [["x"]]}}],
    "checks": [{"check": "xlsx_cell", "args": {"file": "data/t.xlsx", "cell": "A1", "value": 5}}],
    "gold": [{"app": "system", "action": "switch_app", "args": {"target_app": "excel"}},
             {"app": "excel", "action": "set_cell",
              "args": {"file_path": "data/t.xlsx", "row_idx": 1, "column_idx": 1, "text": 5}}],
}


def write(root: Path, task: dict) -> Path:
    folder = root / task["id"]
    folder.mkdir(parents=True)
    (folder / "task.yaml").write_text(yaml.safe_dump(task))
    return folder


def test_good_task_loads(tmp_path):
    write(tmp_path, GOOD)
    tasks = load_tasks([tmp_path], include_suite=False)
    assert list(tasks) == ["tiny-001"]
    assert tasks["tiny-001"].source_dir.endswith("tiny-001")


def test_every_problem_is_reported_with_file_and_field(tmp_path):
    bad = dict(GOOD, category=2, now="tomorrow", office=[{"type": "xlsx", "path": "data/t.xlsx"}])
    write(tmp_path, bad)
    broken = dict(GOOD, id="other-001", apps=["typewriter"])
    write(tmp_path, broken)
    with pytest.raises(TaskLoadError) as err:
        load_tasks([tmp_path], include_suite=False)
    text = "\n".join(err.value.problems)
    assert "tiny-001/task.yaml: now" in text
    assert "office[0]" in text and "sheets" in text
    assert "other-001/task.yaml: apps" in text and "typewriter" in text
    assert len(err.value.problems) >= 3


def test_category_must_match_apps(tmp_path):
    write(tmp_path, dict(GOOD, category=2))
    with pytest.raises(TaskLoadError, match="category 2 but 1 apps"):
        load_tasks([tmp_path], include_suite=False)


def test_folder_name_must_be_the_id(tmp_path):
    folder = write(tmp_path, GOOD)
    folder.rename(tmp_path / "renamed")
    with pytest.raises(TaskLoadError, match="differs from its folder name"):
        load_tasks([tmp_path], include_suite=False)


def test_duplicate_ids_and_bad_yaml(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    write(a, GOOD)
    write(b, GOOD)
    (b / "broken").mkdir()
    (b / "broken" / "task.yaml").write_text("id: [unclosed\n")
    with pytest.raises(TaskLoadError) as err:
        load_tasks([a, b], include_suite=False)
    text = "\n".join(err.value.problems)
    assert "also defined in" in text
    assert "cannot read YAML" in text


def test_answer_requires_an_answer_check(tmp_path):
    write(tmp_path, dict(GOOD, answer="5"))
    with pytest.raises(TaskLoadError, match="no answer_"):
        load_tasks([tmp_path], include_suite=False)


def test_generated_train_tasks_load_and_never_collide(tmp_path):
    name = sorted(FAMILIES)[0]
    paths = generate(name, seed=7, count=3, out=tmp_path)
    tasks = load_tasks([tmp_path], include_suite=True)
    generated = [t for t in tasks.values() if t.split == "train"]
    assert len(paths) == 3 and len(generated) == 3
    assert all("-train-s7-" in t.id for t in generated)
    # a different seed gives different content
    again = generate(name, seed=8, count=1, out=tmp_path / "other")
    strip = lambda path: {k: v for k, v in yaml.safe_load(path.read_text()).items() if k != "id"}  # noqa: E731
    assert strip(again[0]) != strip(paths[0])


def test_task_files_parsed_once_per_machine_by_content(tmp_path, monkeypatch):
    """The YAML of a task file is kept as JSON by its digest: a second process start parses no YAML, an
    edited file is parsed again, and dates survive the round trip."""
    import yaml as _yaml

    from officesim.tasks import loader

    monkeypatch.setenv("OFFICESIM_CACHE", str(tmp_path / "cache"))
    text = "id: t1\nwhen: 2026-03-02\nat: 2026-03-02 09:30:00\nlist: [1, two, {three: 3.5}]\n"
    first = loader._YamlIndex()
    raw = first.raw(text)
    first.save()
    calls = []
    original = _yaml.load
    monkeypatch.setattr(loader.yaml, "load", lambda *a, **k: calls.append(1) or original(*a, **k))
    again = loader._YamlIndex()  # as a new process would
    assert again.raw(text) == raw and calls == []
    assert again.raw(text) is not again.raw(text)  # fresh objects each time
    import datetime as dt
    assert raw["when"] == dt.date(2026, 3, 2) and raw["at"] == dt.datetime(2026, 3, 2, 9, 30)
    edited = again.raw(text.replace("t1", "t2"))
    assert edited["id"] == "t2" and calls == [1]
