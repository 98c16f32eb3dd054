"""testbed.materialise: templates are built once per task content and copied per session."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from officesim.tasks.model import Task
from officesim.testbed import materialise
from officesim.testbed.materialise import new_office, remove_office, template_for
from officesim.testbed.parse import parse_office

USER = "maya.lin@northwind.test"


def make_task(amount: int = 1200, task_id: str = "mat-001") -> Task:
    return Task.model_validate({
        "id": task_id, "scenario": "mat", "category": 1, "apps": ["excel"], "user": USER,
        "now": "2026-03-10 09:00:00", "instruction": "x",
        "office": [{"type": "xlsx", "path": "data/budget.xlsx", "sheets": {"Budget": [["Rent", amount]]}},
                   {"type": "text", "path": "data/notes.txt", "content": "hello"}],
        "checks": [{"check": "file_exists", "args": {"file": "data/budget.xlsx"}}], "gold": [],
    })


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("OFFICESIM_CACHE", str(root))
    return root


@pytest.fixture
def count_builds(monkeypatch) -> list:
    calls = []
    real = materialise.build_office

    def counting(task, dest, source=None):
        calls.append(task.id)
        return real(task, dest, source)

    monkeypatch.setattr(materialise, "build_office", counting)
    return calls


def test_template_is_built_once_and_reused(cache, count_builds):
    task = make_task()
    first = template_for(task)
    again = template_for(make_task())
    assert first == again
    assert count_builds == ["mat-001"]
    assert first.parent == cache
    assert (first / "data/budget.xlsx").is_file()
    assert not [p for p in cache.iterdir() if p.name.startswith(".build-")]


def test_changed_task_content_gets_a_new_template(count_builds):
    a, b = template_for(make_task(1200)), template_for(make_task(1300))
    assert a != b
    assert len(count_builds) == 2
    assert parse_office(b)["data/budget.xlsx"]["sheets"]["Budget"] == [["Rent", 1300]]


def test_sessions_are_private_copies(tmp_path):
    task = make_task()
    one = new_office(task, tmp_path / "sessions")
    two = new_office(task, tmp_path / "sessions")
    assert one.root != two.root
    assert parse_office(one.root) == parse_office(template_for(task))
    (one.root / "data/notes.txt").write_text("changed by the agent")
    assert (two.root / "data/notes.txt").read_text() == "hello"
    assert (template_for(task) / "data/notes.txt").read_text() == "hello"
    assert (one.root / f"emails/{USER}").is_dir()


def test_remove_office_deletes_the_session_not_the_template(tmp_path):
    task = make_task()
    office = new_office(task, tmp_path / "sessions")
    remove_office(office)
    assert not office.root.exists()
    assert template_for(task).is_dir()


def test_remove_office_refuses_a_template():
    from officesim.testbed.office import Office

    template = template_for(make_task())
    with pytest.raises(ValueError):
        remove_office(Office(template))
    assert template.is_dir()


def test_concurrent_first_use_yields_one_complete_template(cache, tmp_path):
    task = make_task(task_id="mat-race")
    results, errors = [], []

    def worker():
        try:
            office = new_office(task, tmp_path / "sessions")
            results.append(parse_office(office.root)["data/budget.xlsx"]["sheets"])
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert results == [{"Budget": [["Rent", 1200]]}] * 6
    templates = [p for p in cache.iterdir() if p.name.startswith("mat-race-")]
    assert len(templates) == 1
    assert not [p for p in cache.iterdir() if p.name.startswith(".build-")]
    assert len(list((tmp_path / "sessions").iterdir())) == 6


def test_a_linked_office_keeps_its_writes_from_the_template(tmp_path):
    """A linked session (a world's thousand files) shares the template's files until it writes: an
    operation replaces the file; a sandboxed command first gets private copies of them all."""
    from officesim.apps.excel import app as excel
    from officesim.apps.registry import OfficeContext
    from officesim.testbed.materialise import _link_tree
    from officesim.testbed.office import Office, own_files
    from officesim.testbed.sandbox import run_command

    template = template_for(make_task())
    session = tmp_path / "session"
    _link_tree(template, session)
    assert (session / "data/notes.txt").stat().st_ino == (template / "data/notes.txt").stat().st_ino

    ctx = OfficeContext(office=Office(session), user=USER)
    result = excel.operations["set_cell"].invoke(ctx, {"file_path": "data/budget.xlsx", "row_idx": 1, "column_idx": 2,
                                                       "text": 999})
    assert result.ok, result.observation
    assert parse_office(template)["data/budget.xlsx"]["sheets"]["Budget"][0][1] == 1200
    assert parse_office(session)["data/budget.xlsx"]["sheets"]["Budget"][0][1] == 999

    out = run_command(session, "echo more >> data/notes.txt", "unsafe")
    assert out.exit_code == 0, out
    assert (template / "data/notes.txt").read_text() == "hello"
    assert (session / "data/notes.txt").read_text() == "hellomore\n"
    assert own_files(session) == 0  # nothing left shared
