"""A task's reference states are kept on disk once per machine (testbed/refstore.py): a new process
finds them, a change of task, template or code names another entry, and nothing is loaded from a folder
another user could write to."""

from __future__ import annotations

import os

import pytest

from officesim.testbed import refstore


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("OFFICESIM_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "refs"


def test_a_value_is_computed_once_and_found_by_its_name(store):
    calls = []
    first = refstore.cached("before", "abc", lambda: calls.append(1) or {"data/x.txt": {"kind": "text"}})
    again = refstore.cached("before", "abc", lambda: calls.append(1) or {})
    other = refstore.cached("before", "abd", lambda: calls.append(1) or {"other": True})
    assert first == again == {"data/x.txt": {"kind": "text"}} and other == {"other": True} and calls == [1, 1]
    assert sorted(p.name for p in store.iterdir()) == ["before-abc.pickle", "before-abd.pickle"]


def test_nothing_is_loaded_from_a_folder_others_may_write(store):
    refstore.store("gold", "k", {"v": 1})
    assert refstore.load("gold", "k") == {"v": 1}
    os.chmod(store, 0o777)
    assert refstore.load("gold", "k") is None  # a pickle runs code when loaded: not from a shared folder
    os.chmod(store, 0o700)
    os.chmod(store / "gold-k.pickle", 0o666)
    assert refstore.load("gold", "k") is None
    os.chmod(store / "gold-k.pickle", 0o600)
    (store / "gold-k.pickle").write_bytes(b"not a pickle")
    assert refstore.load("gold", "k") is None


def test_the_oldest_go_past_the_byte_budget(store):
    for n in range(5):
        refstore.store("x", str(n), b"y" * 1000)
        os.utime(store / f"x-{n}.pickle", (1000 + n, 1000 + n))
    assert refstore.prune(store, budget=2500) == 3
    assert sorted(p.name for p in store.iterdir()) == ["x-3.pickle", "x-4.pickle"]


def test_a_new_evaluator_reads_the_initial_office_from_the_store(store, tmp_path, monkeypatch):
    from officesim.server.grading import Evaluator, reference_key
    from officesim.tasks.loader import load_tasks

    from pathlib import Path

    examples = Path(__file__).resolve().parent.parent / "tasks" / "examples"
    task = load_tasks([examples], include_suite=False, only=["example-minutes-edit"])["example-minutes-edit"]
    first = Evaluator(tmp_path / "s1").before(task)
    import officesim.testbed.parse as parse

    monkeypatch.setattr(parse, "parse_office", lambda *a, **k: pytest.fail("parsed again"))
    assert Evaluator(tmp_path / "s2").before(task) == first
    assert (store / f"before-{reference_key(task)}.pickle").is_file()
    digest = refstore.task_digest(task, tmp_path / "t")
    changed = task.model_copy(update={"answer": "something else"})
    assert refstore.task_digest(changed, tmp_path / "t") != digest  # the gold run of another task


def test_a_file_another_process_prunes_meanwhile_is_skipped_not_raised(store, monkeypatch):
    """Two processes pruning one store: a file listed by one and removed by the other before it is
    looked at is no error (it failed six hard tasks' gold runs as 'FileNotFoundError' under load)."""
    refstore.cached("before", "one", lambda: {"x": 1})
    refstore.cached("before", "two", lambda: {"x": 2})
    real = os.scandir

    def listing_then_gone(folder):
        entries = list(real(folder))
        for entry in entries:
            if entry.name.endswith("one.pickle"):
                os.unlink(entry.path)  # the other process got there first
        return iter(entries)

    monkeypatch.setattr(refstore.os, "scandir", listing_then_gone)
    assert refstore.prune(store, budget=0) >= 1  # "two" removed, "one" skipped
    assert refstore.cached("before", "one", lambda: {"x": 3}) == {"x": 3}
