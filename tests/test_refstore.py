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


def test_the_office_text_and_its_identifiers_are_stored_by_what_they_are_read_from(store):
    """A lived-in office's text and identifiers (claims.office_memo) come from the store, named by the
    initial office, the instruction, the gold's answer and what the gold wrote: a change of any is a new name."""
    from officesim.evaluators import EvalState
    from officesim.evaluators import claims

    before = {"data/a.txt": {"kind": "text", "text": "Invoice INV-2231 is open."}}

    def memo(answer: str, key: str | None = "world1") -> EvalState:
        state = EvalState(files=before, before=before, gold=before, instruction="Check INV-2231.",
                          gold_answer=answer, reference_key=key)
        claims.office_memo(state)
        return state

    first = memo("INV-2231")
    assert "INV2231" in first.memo["known_ids"][0] and "inv-2231 is open" in first.memo["names"]
    names = sorted(p.name.split("-")[0] for p in store.iterdir())
    assert names.count("text") == 1 and names.count("ids") == 1
    memo("INV-2231 and INV-9")  # another gold answer: another entry
    assert sorted(p.name.split("-")[0] for p in store.iterdir()).count("ids") == 2
    no_key = memo("INV-2231", key=None)  # an office not in the store is read, not stored
    assert no_key.memo["known_ids"] == first.memo["known_ids"]
    assert sorted(p.name.split("-")[0] for p in store.iterdir()).count("ids") == 2
