"""``eval --engine ray`` on a local Ray cluster of a head and two worker nodes (ray.cluster_utils).

The offices run on the worker nodes (the head has no CPU to give). A worker node killed mid-run
loses no episode and duplicates none; a driver killed with SIGKILL leaves a run directory that
``--resume`` completes. Skipped when Ray is not installed (``make install`` installs it).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'officesim[ray]' (make install does)")
from ray.cluster_utils import Cluster  # noqa: E402

from officesim.runner.results import read_results, record_key  # noqa: E402
from officesim.tasks.loader import load_tasks  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
TASK_COUNT = 32
DEADLINE_S = 600  # a generous bound for a loaded machine, so a broken run fails instead of hanging


def suite_task_ids(count: int = TASK_COUNT) -> list[str]:
    """A spread of suite tasks over every category (OCR tasks and the hard split left out: the slowest)."""
    tasks = {k: t for k, t in load_tasks([], include_suite=True).items() if t.split != "hard"}
    ids = sorted(t.id for t in tasks.values() if "ocr" not in t.apps and t.split != "hard")
    step = max(1, len(ids) // count)
    return ids[::step][:count]


@pytest.fixture(scope="module")
def cluster():
    # log_to_driver off and no dashboard: the nodes are the test's, their output is not
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
    workers = [c.add_node(num_cpus=1) for _ in range(2)]
    c.wait_for_nodes()
    yield c, workers
    c.shutdown()


def start_eval(address: str, task_ids: list[str], out: Path, log: Path, *extra: str) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "officesim.runner.cli", "eval", "--engine", "ray", "--ray-address", address,
           "--agent", "oracle", "--out", str(out), "--progress", "lines", *extra]
    for task_id in task_ids:
        cmd += ["--task", task_id]
    with log.open("ab") as fh:
        return subprocess.Popen(cmd, cwd=REPO, stdout=fh, stderr=fh)


def wait_for(proc: subprocess.Popen, log: Path, what: str, condition) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        assert proc.poll() is None, f"eval ended before {what}:\n{log.read_text()[-4000:]}"
        assert time.monotonic() < deadline, f"eval never reached {what}:\n{log.read_text()[-4000:]}"
        time.sleep(0.1)


def finish(proc: subprocess.Popen, log: Path) -> None:
    try:
        proc.wait(timeout=DEADLINE_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    assert proc.returncode == 0, log.read_text()[-4000:]


def assert_complete(out: Path, task_ids: list[str]) -> None:
    """Every task exactly once, passed, and the summary built from those records."""
    records = read_results(out)
    keys = Counter(record_key(r) for r in records)
    assert sorted(keys) == sorted((t, 1) for t in task_ids)
    assert set(keys.values()) == {1}
    failed = [(r.task_id, r.error or r.failed) for r in records if not r.passed]
    assert not failed
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["total"], summary["passed"], summary["errors"]) == (len(task_ids), len(task_ids), 0)
    assert (out / "report.html").exists()


def test_a_worker_node_killed_mid_run_loses_no_episode(cluster, tmp_path):
    c, workers = cluster
    task_ids = suite_task_ids()
    assert len(task_ids) >= 30
    out, log = tmp_path / "run", tmp_path / "eval.log"
    proc = start_eval(c.address, task_ids, out, log)
    try:
        doomed = workers[1]
        wait_for(proc, log, "six records and an office on the second worker node",
                 lambda: len(read_results(out)) >= 6 and f"(node {doomed.node_id[:12]})" in log.read_text())
        c.remove_node(doomed)  # its office has an episode playing and one queued
        finish(proc, log)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = log.read_text()
    assert "lost" in text and "runs again" in text, text[-4000:]  # the lost node's episodes were replayed
    assert_complete(out, task_ids)
    meta = json.loads((out / "run.json").read_text())
    assert meta["agent"] == "oracle" and meta["finished"]


def test_resume_after_the_driver_is_killed_completes_the_rest(cluster, tmp_path):
    c, _ = cluster
    c.add_node(num_cpus=1)  # back to two worker nodes (the first test removed one)
    c.wait_for_nodes()
    task_ids = suite_task_ids()
    out, log = tmp_path / "run", tmp_path / "eval.log"
    proc = start_eval(c.address, task_ids, out, log)
    try:
        wait_for(proc, log, "four records", lambda: len(read_results(out)) >= 4)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    before = (out / "results.jsonl").read_text().splitlines()
    assert 4 <= len(before) < len(task_ids)
    assert not (out / "summary.json").exists()

    resumed = start_eval(c.address, task_ids, out, log, "--resume")
    finish(resumed, log)
    assert f"resuming: {len(before)} of {len(task_ids)} episode(s) already done" in log.read_text()
    lines = (out / "results.jsonl").read_text().splitlines()
    assert lines[: len(before)] == before  # what the killed driver recorded is kept, not played again
    assert_complete(out, task_ids)


def test_offices_only_on_the_nodes_with_the_resource(cluster, tmp_path):
    c, _ = cluster
    marked = c.add_node(num_cpus=1, resources={"office": 1})
    c.wait_for_nodes()
    try:
        task_ids = suite_task_ids()[:3]
        out, log = tmp_path / "run", tmp_path / "eval.log"
        finish(start_eval(c.address, task_ids, out, log, "--ray-resource", "office"), log)
        nodes = re.findall(r"office ready on .*\(node (\w+)\)", log.read_text())
        assert nodes and set(nodes) == {marked.node_id[:12]}, log.read_text()[-4000:]  # not the nodes without it
        assert_complete(out, task_ids)
    finally:
        c.remove_node(marked)


SHIPPED_AGENT = """
class ShippedAgent:
    name = "shipped"

    def __init__(self, greeting="hi", model=None):
        self.greeting = greeting
        self.model = model

    def solve(self, episode):
        episode.finish(self.greeting)
"""

BUILD_ON_A_NODE = ("import pickle, sys; make = pickle.loads(sys.stdin.buffer.read()); agent = make(); "
                   "print(agent.name, agent.model, getattr(agent, 'greeting', None), "
                   "getattr(getattr(agent, 'chat', None), 'http', None) and agent.chat.http.base_url)")


def build_elsewhere(factory, tmp_path: Path, env: dict[str, str]) -> str:
    """Build the agent from its pickled factory in another process, in another folder, as a node does."""
    from ray import cloudpickle

    elsewhere = tmp_path / "node"
    elsewhere.mkdir()
    res = subprocess.run([sys.executable, "-c", BUILD_ON_A_NODE], input=cloudpickle.dumps(factory), cwd=elsewhere,
                         env=env, capture_output=True, check=True)
    return res.stdout.decode().strip()


def test_a_user_agent_class_travels_by_value(tmp_path, monkeypatch):
    from officesim.runner.ray_office import agent_factory

    agent_file = tmp_path / "shipped_agent.py"
    agent_file.write_text(SHIPPED_AGENT)
    factory = agent_factory(f"{agent_file}:ShippedAgent", tasks={}, model="m1", options={"greeting": "hello"})
    agent_file.unlink()  # a node has no copy of the file
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    assert build_elsewhere(factory, tmp_path, env) == "shipped m1 hello None"


def test_the_openai_agent_travels_with_the_drivers_endpoint(tmp_path, monkeypatch):
    from officesim.runner.ray_office import agent_factory

    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-driver")
    factory = agent_factory("openai", tasks={}, model="gpt-x", options={"temperature": 0.5})
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}  # the node has no settings
    assert build_elsewhere(factory, tmp_path, env) == "openai gpt-x None http://127.0.0.1:9/v1/"


def test_the_local_engine_does_not_import_ray():
    code = ("import sys; from officesim.runner import run, cli, eval_command; "
            "cli.build_parser(); print('ray' in sys.modules)")
    res = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert res.stdout.strip() == "False"
