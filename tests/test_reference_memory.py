"""The per-task reference states a server and its workers keep are bounded by bytes (issue 45: memory per
distinct task bounded, flat over a run of the 129 hard tasks): server/grading.py ``_OnceCache`` under a
``_Budget``, server/grade.py ``_REFERENCES`` in a worker. No timings are asserted."""

from __future__ import annotations

import pickle
import threading

import pytest

from officesim.server import grade as grade_module
from officesim.server.grade import GradingJob, GoldRun, Reference, _resolve
from officesim.server.grading import _Budget, _OnceCache

MB = 1 << 20


def _weighed(cache: _OnceCache, key: str, weight: int) -> str:
    return cache.get(key, lambda: f"value of {key}", lambda _v: weight)


def test_past_the_byte_budget_the_least_recently_used_entries_go():
    cache = _OnceCache(limit=100, budget=_Budget(10 * MB))
    for key in ("a", "b", "c"):
        _weighed(cache, key, 3 * MB)
    assert len(cache) == 3 and cache.weight() == 9 * MB
    _weighed(cache, "a", 3 * MB)  # a hit: "a" is now the most recently used, "b" the least
    _weighed(cache, "d", 3 * MB)  # 12 MB > 10 MB: "b" goes
    assert [k for k in "abcd" if cache.has(k)] == ["a", "c", "d"]
    assert cache.weight() == 9 * MB
    _weighed(cache, "e", 5 * MB)  # 14 MB: "c", then "a" go
    assert [k for k in "abcde" if cache.has(k)] == ["d", "e"]
    assert cache.weight() == 8 * MB


def test_the_entry_just_computed_stays_even_alone_past_the_budget():
    cache = _OnceCache(limit=100, budget=_Budget(1 * MB))
    _weighed(cache, "small", MB // 2)
    assert _weighed(cache, "huge", 5 * MB) == "value of huge"
    assert not cache.has("small") and cache.has("huge")
    calls = []
    assert cache.get("huge", lambda: calls.append(1)) == "value of huge"  # kept: not computed again
    assert calls == []


def test_the_caches_of_one_budget_evict_each_others_least_recently_used():
    budget = _Budget(10 * MB)
    before, blobs = _OnceCache(limit=100, budget=budget), _OnceCache(limit=100, budget=budget)
    _weighed(before, "t1", 4 * MB)
    _weighed(blobs, "t1", 2 * MB)
    _weighed(before, "t2", 4 * MB)  # 10 MB: at the budget, nothing goes
    assert before.has("t1") and blobs.has("t1") and before.has("t2")
    _weighed(blobs, "t2", 2 * MB)  # 12 MB: the oldest entry of either, before's "t1", goes
    assert not before.has("t1") and blobs.has("t1") and before.has("t2") and blobs.has("t2")
    assert budget.total == 8 * MB == before.weight() + blobs.weight()


def test_the_count_limit_still_holds_for_weightless_entries():
    cache = _OnceCache(limit=3, budget=_Budget(100 * MB))
    for key in "abcde":
        cache.get(key, lambda: key)
    assert [k for k in "abcde" if cache.has(k)] == ["c", "d", "e"]


def test_one_computation_per_key_under_threads():
    cache = _OnceCache(limit=10, budget=_Budget(100 * MB))
    calls = []
    gate = threading.Barrier(8)

    def compute():
        calls.append(1)
        return object()

    def worker(out):
        gate.wait()
        out.append(cache.get("k", compute, lambda _v: MB))

    results: list = []
    threads = [threading.Thread(target=worker, args=(results,)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and len({id(r) for r in results}) == 1


def test_the_stored_pickle_size_weighs_a_reference_state(tmp_path, monkeypatch):
    from officesim.testbed import refstore

    monkeypatch.setenv("OFFICESIM_CACHE", str(tmp_path))
    assert refstore.stored_size("before", "nothing-here") is None
    refstore.store("before", "abc", {"f.txt": {"kind": "text", "text": "x" * 5000}})
    size = refstore.stored_size("before", "abc")
    assert size == (tmp_path / "refs" / "before-abc.pickle").stat().st_size and size > 5000


# -- in a worker -----------------------------------------------------------------------------------------
def _job(token: str, payload_bytes: int) -> tuple[GradingJob, tuple]:
    refs = ({"f": {"kind": "text", "text": "x" * payload_bytes, "token": token}}, GoldRun(after={}, failures=[], status="finished",
                                                                            answer=None), None)
    reference = Reference(token=token, data=pickle.dumps(refs, protocol=pickle.HIGHEST_PROTOCOL))
    job = GradingJob(task=None, root="", mode="all_operations", status="finished", answer=None, steps=0,  # type: ignore[arg-type]
                     history=[], same=[], changed={}, reference=reference)
    return job, refs


@pytest.fixture
def worker_references(monkeypatch):
    monkeypatch.setattr(grade_module, "_REFERENCES", type(grade_module._REFERENCES)())
    monkeypatch.setattr(grade_module, "KEEP_REFERENCES", 100)
    monkeypatch.setattr(grade_module, "WORKER_REFERENCE_BYTES", 3 * MB + MB // 2)  # three pickles of ~1 MB
    return grade_module


def test_a_worker_keeps_references_by_the_bytes_of_their_pickles(worker_references):
    jobs = {t: _job(t, MB)[0] for t in "abcd"}  # each pickle ~1 MB
    first = _resolve(jobs["a"])
    assert _resolve(jobs["a"]) is first  # kept: the same objects for the task's next evaluation
    for t in "bc":
        _resolve(jobs[t])
    _resolve(jobs["a"])  # "a" used again: "b" is the least recently used
    _resolve(jobs["d"])  # ~4 MB > 3.5 MB: "b" goes
    assert list(worker_references._REFERENCES) == ["c", "a", "d"]
    big = _job("e", 8 * MB)[0]
    _resolve(big)  # alone past the budget: kept, every other goes
    assert list(worker_references._REFERENCES) == ["e"]


def test_a_worker_drops_what_the_evaluators_derived_from_references_it_let_go(worker_references):
    from officesim.evaluators import claims

    kept_job = _job("kept", 2 * MB)[0]
    gone_job = _job("gone", 2 * MB)[0]
    gone = _resolve(gone_job)
    claims._per_task("test-derived", (gone[0], gone[1].after), lambda: "derived from gone")
    kept_value = claims._per_task("test-derived-other", ({"other": 1},), lambda: "unrelated")
    assert any(k[0] == "test-derived" for k in claims._SHARED)
    _resolve(kept_job)  # ~4 MB > 3.5 MB: "gone" goes, and what was derived from it
    assert list(worker_references._REFERENCES) == ["kept"]
    assert not any(k[0] == "test-derived" for k in claims._SHARED)
    assert any(k[0] == "test-derived-other" for k in claims._SHARED) and kept_value == "unrelated"


def test_the_mail_listing_cache_is_bounded_by_the_text_it_holds(monkeypatch):
    """apps/email.py remembers listed messages by their identity; what it holds stays under
    OFFICESIM_MAIL_LIST_MB however many inboxes a worker lists, the least recently listed going first."""
    from officesim.apps import email as email_app

    email_app.forget_listings()
    monkeypatch.setattr(email_app, "_SEEN_BYTES", 64 * 1024)
    try:
        for i in range(200):  # 200 messages of ~1 KB: about three times the budget
            email_app._remember(("ident", i), ({"subject": f"s{i}", "body": "x" * 1000}, float(i)))
            if i == 190:  # ~40 entries fit: 165 is still held, and a hit moves it to the recent end
                assert email_app._list_entry(None, None, ("ident", 165))[1] == 165.0
        assert email_app._seen_size <= 64 * 1024
        assert email_app._seen_size == sum(email_app._SEEN_WEIGHT.values())
        kept = [i for _tag, i in email_app._SEEN]
        assert 199 in kept and 0 not in kept and 165 in kept and 150 not in kept
        assert 40 <= len(kept) <= 64
    finally:
        email_app.forget_listings()
