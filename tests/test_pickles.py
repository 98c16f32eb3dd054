"""testbed/pickles.py: loads pause the cyclic collector and resume it as it was; a worker's loads are frozen."""

from __future__ import annotations

import gc
import io
import pickle
import threading

import pytest

from officesim.testbed import pickles


@pytest.fixture(autouse=True)
def _restore():
    enabled, freeze = gc.isenabled(), pickles._freeze
    yield
    pickles._freeze = freeze
    gc.unfreeze()
    gc.enable() if enabled else gc.disable()


SEEN: list[bool] = []


class Probe:
    """Says, as it is unpickled, whether the collector is on."""

    def __setstate__(self, state):  # runs inside the load
        SEEN.append(gc.isenabled())


def test_a_load_pauses_the_collector_and_resumes_it_as_it_was():
    seen = SEEN
    seen.clear()
    probe = Probe()
    probe.x = 1  # a state to set
    data = pickle.dumps([probe, {"a": (1, 2)}])
    gc.enable()
    value = pickles.loads(data)
    assert seen == [False] and gc.isenabled() and value[1] == {"a": (1, 2)}
    gc.disable()
    assert pickles.load(io.BytesIO(data))[1] == {"a": (1, 2)}
    assert seen == [False, False] and not gc.isenabled()  # off before, off after


def test_a_failed_load_resumes_the_collector():
    gc.enable()
    with pytest.raises(Exception):
        pickles.loads(b"not a pickle")
    assert gc.isenabled()


def test_overlapping_loads_resume_it_once_the_last_ends():
    gc.enable()
    inside, release = threading.Event(), threading.Event()

    def hold():
        with pickles.collector_paused():
            inside.set()
            release.wait(30)

    thread = threading.Thread(target=hold)
    thread.start()
    inside.wait(30)
    assert pickles.loads(pickle.dumps([1])) == [1]
    assert not gc.isenabled()  # the other load is still running
    release.set()
    thread.join(30)
    assert gc.isenabled()


def test_a_worker_freezes_what_its_kept_loads_leave_and_nothing_else():
    gc.unfreeze()
    pickles._freeze = False
    pickles.loads(pickle.dumps([[i] for i in range(100)]), kept=True)
    assert gc.get_freeze_count() == 0  # not a worker
    pickles.freeze_loaded()
    pickles.loads(pickle.dumps([[i] for i in range(100)]))
    assert gc.get_freeze_count() == 0  # a passing value (a cached parse for one read)
    kept = pickles.loads(pickle.dumps([[i] for i in range(100)]), kept=True)
    assert gc.get_freeze_count() >= len(kept)
    gc.unfreeze()
    with pickles.collector_paused():  # a kept load nested in another load freezes once both end
        kept = pickles.load(io.BytesIO(pickle.dumps([[i] for i in range(100)])), kept=True)
        assert gc.get_freeze_count() == 0
    assert gc.get_freeze_count() >= len(kept)
    gc.unfreeze()
    pickles.loads(pickle.dumps([1]))  # the window ended: the next plain load freezes nothing
    assert gc.get_freeze_count() == 0
