"""The eval runner end to end on small tasks: records, summary, report, resume, gates, custom agents."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from officesim.evaluators import EpisodeRecord
from officesim.runner.cli import main as cli_main
from officesim.runner.agents import load_agent
from officesim.runner.localserver import LocalServer
from officesim.runner.results import read_results, record_key
from officesim.runner.run import EvalConfig, RunError, run_eval
from tests._eval_tasks import NO_ACTION_IDS, TASK_IDS, TASKS, write_tasks

REPO = Path(__file__).resolve().parent.parent
GOLD_LEN = {t["id"]: len(t["gold"]) for t in TASKS}


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    tasks = write_tasks(tmp_path_factory.mktemp("tasks"))
    with LocalServer([tasks], include_suite=False) as server:
        yield {"tasks": tasks, "server": server, "root": tmp_path_factory.mktemp("runs")}


def config(env, out: Path, **kw) -> EvalConfig:
    base = dict(task_dirs=[env["tasks"]], server=env["server"].url, token=env["server"].token, workers=2,
                out=out, progress="off")
    return EvalConfig(**{**base, **kw})


def server_args(env) -> list[str]:
    # --token=VALUE: a random token may start with "-", which argparse would take for an option
    return ["--tasks", str(env["tasks"]), "--server", env["server"].url, f"--token={env['server'].token}",
            "--progress", "off"]


@pytest.fixture(scope="module")
def oracle_run(env) -> Path:
    out = env["root"] / "oracle"
    run_eval(config(env, out, agent="oracle"))
    return out


@pytest.fixture(scope="module")
def noop_run(env) -> Path:
    out = env["root"] / "noop"
    run_eval(config(env, out, agent="noop"))
    return out


def recompute(records: list[EpisodeRecord]) -> dict:
    """The summary fields that must follow from results.jsonl, computed independently here."""
    out = {"total": len(records), "passed": sum(r.passed for r in records), "by_category": {}}
    for cat in ("1", "2", "3"):
        recs = [r for r in records if str(r.category) == cat]
        out["by_category"][cat] = {"total": len(recs), "passed": sum(r.passed for r in recs)}
    return out


def assert_summary_matches(run_dir: Path) -> dict:
    records = read_results(run_dir)
    summary = json.loads((run_dir / "summary.json").read_text())
    expected = recompute(records)
    assert summary["total"] == expected["total"]
    assert summary["passed"] == expected["passed"]
    assert summary["pass_rate"] == pytest.approx(expected["passed"] / expected["total"], abs=1e-4)
    for cat, want in expected["by_category"].items():
        got = summary["by_category"][cat]
        assert (got["total"], got["passed"]) == (want["total"], want["passed"]), cat
    assert summary["statuses"] == dict(Counter(r.status for r in records))
    return summary


def test_oracle_passes_every_task_with_real_checks(oracle_run):
    records = read_results(oracle_run)
    assert sorted(r.task_id for r in records) == TASK_IDS
    for rec in records:
        assert rec.passed is True, (rec.task_id, rec.checks, rec.error)
        assert rec.status == "finished" and rec.score == 1.0
        assert rec.checks and all(c.passed and c.message for c in rec.checks)
        assert rec.side_effects == []
        assert rec.steps == GOLD_LEN[rec.task_id] + 1 == len(rec.trajectory)
        assert rec.trajectory[-1]["action"] == "finish_task"
        assert rec.tokens == {"prompt": 0, "completion": 0}
        assert rec.agent == "oracle" and rec.trial == 1 and rec.error is None
        assert rec.wall_time_s > 0
    by_id = {r.task_id: r for r in records}
    assert by_id["ev-rent-001"].answer == "1200"
    assert by_id["ev-review-001"].category == 3 and by_id["ev-review-001"].apps == ["excel", "word", "calendar"]
    assert len(by_id["ev-review-001"].checks) == 3
    summary = assert_summary_matches(oracle_run)
    assert summary["pass_rate"] == 1.0
    assert summary["side_effect_rate"] == 0.0
    assert summary["pass_hat_k"] is None and summary["trials"] == 1
    assert summary["process"]["operation_precision"] == 1.0 and summary["process"]["operation_recall"] == 1.0
    assert summary["process"]["argument_accuracy"] == 1.0
    assert summary["agent"] == "oracle" and summary["started"] and summary["finished"]
    meta = json.loads((oracle_run / "run.json").read_text())
    assert summary["elapsed_s"] == meta["elapsed_s"] > 0  # the run's wall time, measured apart from the episodes'


RESULTS_FIELDS = ["task_id", "category", "apps", "trial", "agent", "model", "mode", "passed", "score", "status",
                  "checks", "side_effects", "changes", "answer", "steps", "tokens", "llm_calls", "llm_latency_s",
                  "wall_time_s", "process", "error", "trajectory"]


def test_results_lines_are_episode_records(oracle_run):
    lines = (oracle_run / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(TASK_IDS)
    for line in lines:
        fields = list(json.loads(line))
        assert set(RESULTS_FIELDS) <= set(fields) and "checks_total" not in fields and "error_traceback" not in fields
        rec = EpisodeRecord.model_validate_json(line)
        assert rec.to_line() == line and rec.mode == "switch_app"
        assert rec.process == {"agent_ops": rec.process["gold_ops"], "gold_ops": rec.process["gold_ops"],
                               "matched_ops": rec.process["gold_ops"], "args_matched": rec.process["gold_ops"]}


def test_noop_passes_at_most_the_no_action_tasks(noop_run):
    records = read_results(noop_run)
    summary = assert_summary_matches(noop_run)
    # (pass_rate is rounded to 4 places, so compare the counts)
    assert summary["passed"] / summary["total"] <= len(NO_ACTION_IDS) / len(TASK_IDS)
    assert sorted(r.task_id for r in records if r.passed) == NO_ACTION_IDS
    for rec in records:
        assert rec.steps == 1 and rec.status == "finished"
        if not rec.passed:
            assert any(not c.passed for c in rec.checks)
            assert rec.score < 1.0
            assert "checks" in rec.failure_labels and "collateral" not in rec.failure_labels  # noop changes nothing
            assert ("missing" in rec.failure_labels) == bool(rec.missing)
    assert "side_effects" not in summary["failed_components"] and summary["side_effect_rate"] == 0.0
    assert summary["process"]["operation_recall"] == 0.0


def test_report_lists_every_task_and_is_rebuilt(oracle_run, capsys):
    report = oracle_run / "report.html"
    html = report.read_text()
    assert all(task_id in html for task_id in TASK_IDS)
    assert "Single App" in html and "Three Apps" in html
    report.unlink()
    (oracle_run / "summary.json").unlink()
    assert cli_main(["report", str(oracle_run)]) == 0
    rebuilt = report.read_text()
    assert all(task_id in rebuilt for task_id in TASK_IDS)
    assert json.loads((oracle_run / "summary.json").read_text())["passed"] == len(TASK_IDS)
    assert cli_main(["report", str(oracle_run / "nowhere")]) == 2


def test_records_carry_the_task_and_compare_pairs_real_runs(oracle_run, noop_run, tmp_path):
    from officesim.runner.compare import compare_runs

    by_id = {t["id"]: t for t in TASKS}
    for rec in read_results(oracle_run):
        assert rec.scenario == by_id[rec.task_id]["scenario"] and rec.split == "test"
        assert [(g["app"], g["action"]) for g in rec.gold] == [(g["app"], g["action"]) for g in by_id[rec.task_id]["gold"]]
        assert rec.transcript is None  # the oracle calls no model
        assert rec.instruction == by_id[rec.task_id]["instruction"]  # what the task asked, for the report
    data = compare_runs(noop_run, oracle_run)
    assert data["flips"] == {"gained": sorted(set(TASK_IDS) - set(NO_ACTION_IDS)), "lost": []}
    assert sorted(t["task_id"] for t in data["tasks"] if t["change"] == "both_pass") == NO_ACTION_IDS
    assert data["overall"]["gained"] == len(TASK_IDS) - len(NO_ACTION_IDS) and data["overall"]["b_pass_rate"] == 1.0
    assert data["cost"]["steps_per_episode"]["delta"] > 0  # the oracle acts; noop finishes at once
    summary = json.loads((oracle_run / "summary.json").read_text())
    assert sum(v["tasks"] for v in summary["by_scenario"].values()) == len(TASK_IDS)
    assert set(summary["by_app"]) == {a for t in TASKS for a in t["apps"]}


def test_fail_under_exits_non_zero_below_the_rate(env, tmp_path, capsys):
    out = tmp_path / "gate"
    subset = ["--task", "ev-total-001", "--task", "ev-note-001"]
    assert cli_main(["eval", "--agent", "oracle", *subset, *server_args(env), "--out", str(out),
                     "--fail-under", "0.5"]) == 0
    assert "passed 2/2" in capsys.readouterr().err
    # resuming a finished run runs nothing again and applies the gate to the same results
    assert cli_main(["eval", "--agent", "oracle", *subset, *server_args(env), "--out", str(out),
                     "--resume", "--fail-under", "1.01"]) == 1
    err = capsys.readouterr().err
    assert "below --fail-under 1.01" in err
    assert len(read_results(out)) == 2
    # a run directory that holds results is not silently reused
    assert cli_main(["eval", "--agent", "oracle", *subset, *server_args(env), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--resume" in err and "--overwrite" in err


def test_baseline_lists_regressions(env, oracle_run, noop_run, tmp_path, capsys):
    noop_copy = tmp_path / "noop"
    shutil.copytree(noop_run, noop_copy)
    code = cli_main(["eval", "--agent", "noop", *server_args(env), "--out", str(noop_copy), "--resume",
                     "--baseline", str(oracle_run)])
    err = capsys.readouterr().err
    assert code == 1
    regressed = sorted(set(TASK_IDS) - set(NO_ACTION_IDS))
    assert f"{len(regressed)} task(s) passed in" in err
    for task_id in regressed:
        assert task_id in err
    assert NO_ACTION_IDS[0] not in err.split("fail now:")[1]
    # the other way round nothing regressed
    oracle_copy = tmp_path / "oracle"
    shutil.copytree(oracle_run, oracle_copy)
    assert cli_main(["eval", "--agent", "oracle", *server_args(env), "--out", str(oracle_copy), "--resume",
                     "--baseline", str(noop_run)]) == 0
    assert "no regressions" in capsys.readouterr().err
    assert cli_main(["eval", "--agent", "noop", *server_args(env), "--out", str(tmp_path / "x"),
                     "--baseline", str(tmp_path / "missing")]) == 2


GATED_AGENT = '''
import os, pathlib, time

class GatedAgent:
    """Answers 1200 and finishes; from its third episode on it waits until the gate opens."""
    name = "gated"
    model = None

    def __init__(self):
        self.started = 0

    def solve(self, episode):
        gate = pathlib.Path(os.environ["EVAL_TEST_GATE"])
        self.started += 1
        if self.started >= 3:
            (gate / "blocked").touch()
            while not (gate / "open").exists():
                time.sleep(0.05)
        episode.finish("1200")
'''


def test_resume_after_kill_9_keeps_one_record_per_task(env, tmp_path, monkeypatch):
    agent_file = tmp_path / "gated_agent.py"
    agent_file.write_text(GATED_AGENT)
    gate = tmp_path / "gate"
    gate.mkdir()
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "officesim.runner.cli", "eval", "--agent", f"{agent_file}:GatedAgent", "--workers", "1",
           *server_args(env), "--out", str(out)]
    proc = subprocess.Popen(cmd, cwd=REPO, env={**os.environ, "EVAL_TEST_GATE": str(gate)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 300  # a generous bound for a loaded machine, not a timing assertion
        while not (gate / "blocked").exists():
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "the eval subprocess never reached its third episode"
            time.sleep(0.1)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    before = (out / "results.jsonl").read_text().splitlines()
    assert len(before) == 2  # two episodes finished; the third was in flight
    assert not (out / "summary.json").exists()
    with (out / "results.jsonl").open("a") as fh:  # and a torn write on top
        fh.write(before[0][: len(before[0]) // 2])

    (gate / "open").touch()
    monkeypatch.setenv("EVAL_TEST_GATE", str(gate))
    with pytest.raises(RunError, match="--resume"):
        run_eval(config(env, out, agent=f"{agent_file}:GatedAgent", workers=1))
    with pytest.raises(RunError, match="agent"):
        run_eval(config(env, out, agent="noop", resume=True))
    summary = run_eval(config(env, out, agent=f"{agent_file}:GatedAgent", workers=2, resume=True))

    records = read_results(out)
    keys = Counter(record_key(r) for r in records)
    assert sorted(keys) == [(t, 1) for t in TASK_IDS]
    assert set(keys.values()) == {1}
    lines = (out / "results.jsonl").read_text().splitlines()
    assert lines[:2] == before  # finished results survive untouched
    assert all(json.loads(line) for line in lines)  # the torn line is gone
    assert summary == assert_summary_matches(out)
    assert summary["agent"] == "gated"
    passed = sorted(r.task_id for r in records if r.passed)
    assert passed == sorted(["ev-rent-001", *NO_ACTION_IDS])


BROKEN_AGENT = '''
class BrokenAgent:
    name = "broken"

    def solve(self, episode):
        episode.act("system", "switch_app", {"target_app": "excel"})
        raise RuntimeError("boom in the agent")
'''


def test_agent_exception_is_an_episode_error(env, tmp_path):
    agent_file = tmp_path / "broken_agent.py"
    agent_file.write_text(BROKEN_AGENT)
    out = tmp_path / "run"
    summary = run_eval(config(env, out, agent=f"{agent_file}:BrokenAgent", task_ids=["ev-total-001", "ev-rent-001"]))
    records = read_results(out)
    # the agent's own bug is its failure (graded, in the pass rate), not an infrastructure error
    assert len(records) == 2 and summary["agent_errors"] == 2 and summary["errors"] == 0 and summary["passed"] == 0
    assert summary["graded"] == 2 and summary["pass_rate"] == 0.0
    for rec in records:
        assert rec.error == "agent error: RuntimeError: boom in the agent" and rec.error_kind == "agent"
        assert "boom in the agent" in rec.error_traceback
        assert "in run_episode" in rec.error_traceback  # the whole traceback, its outermost frame too
        assert rec.error_call.site.endswith("in solve") and "broken_agent.py" in rec.error_call.site
        assert rec.status == "finished" and rec.steps == 2  # the runner finished the session
        assert rec.attempts == 1 and rec.retried_errors is None  # an agent error is not played again
        assert rec.model is None


TALKING_AGENT = '''
class TalkingAgent:
    name = "talking"

    def solve(self, episode):
        messages = [{"role": "user", "content": episode.tool_prompt[:40]}]
        episode.record_transcript(messages)
        messages.append({"role": "assistant", "content": "Nothing to do, I finish."})  # kept: the list itself is held
        episode.finish(None)
'''


def test_a_recorded_transcript_lands_in_the_record_and_the_report(env, tmp_path):
    agent_file = tmp_path / "talking_agent.py"
    agent_file.write_text(TALKING_AGENT)
    out = tmp_path / "talk"
    run_eval(config(env, out, agent=f"{agent_file}:TalkingAgent", task_ids=["ev-total-001"]))
    (rec,) = read_results(out)
    assert [m["role"] for m in rec.transcript] == ["user", "assistant"]
    assert rec.transcript[1]["content"] == "Nothing to do, I finish."
    assert "Model transcript (2 messages)" in (out / "report.html").read_text()


def test_custom_agent_by_import_path(env, tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    out = tmp_path / "mine"
    run_eval(config(env, out, agent="examples.my_agent:MyAgent", agent_options={"max_reads": 1},
                    model="my-model", task_ids=["ev-note-001"]))
    (rec,) = read_results(out)
    assert rec.agent == "my-agent" and rec.model == "my-model"
    assert [(s["app"], s["action"]) for s in rec.trajectory] == [
        ("system", "list_files"), ("system", "switch_app"), ("excel", "read_file"), ("system", "finish_task")]
    assert rec.passed is False and rec.error is None
    agent = load_agent("examples/my_agent.py:MyAgent", tasks={}, options={"max_reads": 2})
    assert agent.name == "my-agent" and agent.max_reads == 2
    with pytest.raises(ValueError, match="cannot load agent"):
        load_agent("examples.nothing_here:Agent", tasks={})
    with pytest.raises(ValueError, match="unknown agent"):
        load_agent("gpt5", tasks={})
    with pytest.raises(ValueError, match="cannot create agent"):
        load_agent("examples.my_agent:MyAgent", tasks={}, options={"colour": "red"})


def test_my_agent_example_loads_from_a_subprocess_with_pythonpath(env, tmp_path):
    out = tmp_path / "sub"
    result = subprocess.run([sys.executable, "-m", "officesim.runner.cli", "eval", "--agent", "examples.my_agent:MyAgent",
                             "--task", "ev-total-001", *server_args(env), "--out", str(out)],
                            cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "passed 0/1" in result.stderr
    assert read_results(out)[0].agent == "my-agent"


def test_http_agent_example(env):
    result = subprocess.run([sys.executable, str(REPO / "examples" / "http_agent.py"), "--server", env["server"].url,
                             f"--token={env['server'].token}", "--task", "ev-total-001"],
                            capture_output=True, text=True)
    assert result.returncode == 1, result.stderr  # it only looks around, so the task fails
    assert "excel.read_file ok=True" in result.stdout
    evaluation = json.loads(result.stdout[result.stdout.index("{"):])
    assert evaluation["task_id"] == "ev-total-001" and evaluation["passed"] is False
    assert evaluation["checks"][0]["check"] == "xlsx_cell"


def test_private_servers_share_the_episodes(env, tmp_path, monkeypatch):
    """Without --server the runner starts its own servers and spreads episodes over all of them."""
    import officesim.runner.play as play_module

    used: list[str] = []
    real_run_episode = play_module.run_episode

    def spy(client, *args, **kwargs):
        used.append(str(client._http.base_url))
        return real_run_episode(client, *args, **kwargs)

    monkeypatch.setattr(play_module, "run_episode", spy)
    summary = run_eval(config(env, tmp_path / "two", agent="oracle", server=None, token=None, servers=2, workers=2))
    assert summary["total"] == len(TASK_IDS) and summary["passed"] == len(TASK_IDS)
    assert len(set(used)) == 2, used
    assert env["server"].url not in used
