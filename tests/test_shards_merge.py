"""Shards (selection, environment variables), merging shard run directories, and the CI examples."""

from __future__ import annotations

import json
import random
import re
import shlex
import shutil
from pathlib import Path

import pytest
import yaml

from officesim.runner.cli import build_parser, main as cli_main
from officesim.runner.localserver import LocalServer
from officesim.runner.merge import MergeError, merge_runs
from officesim.runner.results import read_results, record_key
from officesim.runner.run import EvalConfig, run_eval
from officesim.runner.shard import parse_shard, select_shard, shard_from_env
from officesim.tasks.model import Task
from tests._eval_tasks import TASK_IDS, TASKS, write_tasks

REPO = Path(__file__).resolve().parent.parent


def many_tasks(count: int = 23) -> list[Task]:
    """count tasks of mixed categories (copies of the small tasks under new ids)."""
    out = []
    for i in range(count):
        raw = json.loads(json.dumps(TASKS[i % len(TASKS)]))
        raw["id"] = f"{raw['id']}-{i:02d}"
        out.append(Task.model_validate(raw))
    return out


@pytest.mark.parametrize("total", range(1, 8))
def test_shards_cover_every_task_once_and_are_balanced(total):
    tasks = many_tasks()
    shards = [select_shard(tasks, i, total) for i in range(total)]
    ids = [t.id for shard in shards for t in shard]
    assert sorted(ids) == sorted(t.id for t in tasks)  # every task, none twice
    sizes = [len(s) for s in shards]
    assert max(sizes) - min(sizes) <= 1
    shuffled = tasks[:]
    random.Random(total).shuffle(shuffled)
    assert [[t.id for t in select_shard(shuffled, i, total)] for i in range(total)] == \
        [[t.id for t in s] for s in shards]  # deterministic, whatever the input order
    if total <= 3:  # each shard gets a share of every category
        for shard in shards:
            assert {t.category for t in shard} == {1, 2, 3}


def test_more_shards_than_tasks_leaves_some_empty():
    tasks = many_tasks(3)
    shards = [select_shard(tasks, i, 5) for i in range(5)]
    assert [len(s) for s in shards] == [1, 1, 1, 0, 0]


@pytest.mark.parametrize("text", ["4/4", "-1/3", "a/b", "1", "1/0", "1/2/3"])
def test_bad_shard_specs_are_refused(text):
    with pytest.raises(ValueError, match="shard"):
        parse_shard(text)


def test_shard_from_environment():
    assert parse_shard("2/5") == (2, 5)
    assert shard_from_env({}) is None
    assert shard_from_env({"OFFICESIM_SHARD": "2/5"}) == (2, 5)
    assert shard_from_env({"JOB_COMPLETION_INDEX": "3", "OFFICESIM_SHARD_TOTAL": "4"}) == (3, 4)
    assert shard_from_env({"JOB_COMPLETION_INDEX": "0", "OFFICESIM_SHARD_TOTAL": "1"}) == (0, 1)
    assert shard_from_env({"OFFICESIM_SHARD": "1/2", "JOB_COMPLETION_INDEX": "3",
                           "OFFICESIM_SHARD_TOTAL": "4"}) == (1, 2)
    with pytest.raises(ValueError, match="OFFICESIM_SHARD_TOTAL"):
        shard_from_env({"JOB_COMPLETION_INDEX": "1"})
    with pytest.raises(ValueError):
        shard_from_env({"JOB_COMPLETION_INDEX": "4", "OFFICESIM_SHARD_TOTAL": "4"})


# ---- merging real runs ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """An unsharded oracle run, its three shards (shard 1 chosen through JOB_COMPLETION_INDEX), a noop shard."""
    tasks = write_tasks(tmp_path_factory.mktemp("tasks"))
    root = tmp_path_factory.mktemp("runs")
    with LocalServer([tasks], include_suite=False) as server:
        def cfg(out: str, **kw) -> EvalConfig:
            return EvalConfig(task_dirs=[tasks], server=server.url, token=server.token, workers=2,
                              out=root / out, progress="off", **kw)

        run_eval(cfg("full", agent="oracle"))
        run_eval(cfg("shard-0", agent="oracle", shard=(0, 3)))
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("JOB_COMPLETION_INDEX", "1")
            mp.setenv("OFFICESIM_SHARD_TOTAL", "3")
            code = cli_main(["eval", "--agent", "oracle", "--tasks", str(tasks), "--server", server.url,
                             f"--token={server.token}", "--out", str(root / "shard-1"), "--progress", "off"])
            assert code == 0
        run_eval(cfg("shard-2", agent="oracle", shard=(2, 3)))
        run_eval(cfg("noop-shard-1", agent="noop", shard=(1, 3)))
    return root


def shard_dirs(runs: Path) -> list[Path]:
    return [runs / f"shard-{i}" for i in range(3)]


COMPARED = ("total", "passed", "pass_rate", "by_category", "side_effect_rate", "process", "statuses", "agent",
            "model", "suite", "trials")


def test_environment_shard_selection(runs):
    meta = json.loads((runs / "shard-1" / "run.json").read_text())
    assert meta["shard"] == [1, 3]
    tasks = [Task.model_validate(t) for t in TASKS]
    assert meta["task_ids"] == [t.id for t in select_shard(tasks, 1, 3)]
    assert sorted(r.task_id for r in read_results(runs / "shard-1")) == sorted(meta["task_ids"])


def test_merged_shards_equal_the_unsharded_run(runs, tmp_path):
    sizes = [len(read_results(d)) for d in shard_dirs(runs)]
    assert sizes == [2, 2, 2]
    merged = merge_runs(shard_dirs(runs), tmp_path / "merged")
    full = json.loads((runs / "full" / "summary.json").read_text())
    assert {k: merged[k] for k in COMPARED} == {k: full[k] for k in COMPARED}
    assert merged["total"] == len(TASK_IDS) and merged["pass_rate"] == 1.0
    keys = [record_key(r) for r in read_results(tmp_path / "merged")]
    assert sorted(keys) == sorted(record_key(r) for r in read_results(runs / "full"))
    assert json.loads((tmp_path / "merged" / "summary.json").read_text()) == merged
    # every record survives the merge as written (read as an EpisodeRecord and written back)
    shard_lines = [line for d in shard_dirs(runs) for line in (d / "results.jsonl").read_text("utf-8").splitlines()]
    assert sorted((tmp_path / "merged" / "results.jsonl").read_text("utf-8").splitlines()) == sorted(shard_lines)
    html = (tmp_path / "merged" / "report.html").read_text()
    assert all(t in html for t in TASK_IDS)
    meta = json.loads((tmp_path / "merged" / "run.json").read_text())
    assert meta["shard"] is None and sorted(meta["task_ids"]) == TASK_IDS and len(meta["merged_from"]) == 3


def test_merge_cli_gates_and_junit(runs, tmp_path, capsys):
    dirs = [str(d) for d in shard_dirs(runs)]
    assert cli_main(["merge", *dirs, "--out", str(tmp_path / "a"), "--fail-under", "0.5",
                     "--junit", str(tmp_path / "a.xml")]) == 0
    assert "passed 6/6" in capsys.readouterr().err
    assert (tmp_path / "a.xml").read_text().count("<testcase ") == len(TASK_IDS)
    assert cli_main(["merge", *dirs, "--out", str(tmp_path / "b"), "--fail-under", "1.01"]) == 1
    assert "below --fail-under 1.01" in capsys.readouterr().err


def test_merge_refuses_mixed_agents(runs, tmp_path, capsys):
    dirs = [runs / "shard-0", runs / "noop-shard-1", runs / "shard-2"]
    with pytest.raises(MergeError, match="different agent.*oracle.*noop"):
        merge_runs(dirs, tmp_path / "m")
    assert cli_main(["merge", *map(str, dirs), "--out", str(tmp_path / "m")]) == 2
    err = capsys.readouterr().err
    assert "refusing to merge runs with different agent" in err
    assert not (tmp_path / "m" / "results.jsonl").exists()


def test_merge_refuses_different_suites(runs, tmp_path):
    other = tmp_path / "shard-2"
    shutil.copytree(runs / "shard-2", other)
    meta = json.loads((other / "run.json").read_text())
    meta["suite"] = "0123456789abcdef"
    (other / "run.json").write_text(json.dumps(meta))
    with pytest.raises(MergeError, match="different suite"):
        merge_runs([runs / "shard-0", runs / "shard-1", other], tmp_path / "m")


def test_merge_reports_a_missing_shard(runs, tmp_path):
    with pytest.raises(MergeError) as info:
        merge_runs([runs / "shard-0", runs / "shard-2"], tmp_path / "m")
    message = str(info.value)
    assert "missing shard(s) 1/3" in message
    missing = [t.id for t in select_shard([Task.model_validate(t) for t in TASKS], 1, 3)]
    assert all(task_id in message for task_id in missing)


def test_merge_refuses_shards_of_different_splits(runs, tmp_path):
    other = tmp_path / "shard-2-of-4"
    shutil.copytree(runs / "shard-2", other)
    meta = json.loads((other / "run.json").read_text())
    meta["shard"] = [2, 4]
    (other / "run.json").write_text(json.dumps(meta))
    with pytest.raises(MergeError, match="different splits"):
        merge_runs([runs / "shard-0", runs / "shard-1", other], tmp_path / "m")


def test_merge_detects_duplicated_results(runs, tmp_path):
    copy = tmp_path / "shard-0-again"
    shutil.copytree(runs / "shard-0", copy)
    with pytest.raises(MergeError, match=r"shard\(s\) given twice: 0/3.*duplicated result"):
        merge_runs([*shard_dirs(runs), copy], tmp_path / "m")
    with pytest.raises(MergeError, match="duplicated result"):  # an unsharded run and a shard overlap
        merge_runs([runs / "full", runs / "shard-1"], tmp_path / "m2")
    with pytest.raises(MergeError, match="not a run directory"):
        merge_runs([runs / "shard-0", tmp_path / "nothing"], tmp_path / "m3")


# ---- the CI examples --------------------------------------------------------------------------

def expand(command: str, values: dict) -> list[str]:
    """A shell-ish command line with ${{ matrix.x }}, ${VAR} and $VAR filled in, split into words."""
    command = re.sub(r"\$\{\{\s*matrix\.(\w+)\s*\}\}", lambda m: str(values[m.group(1)]), command)
    command = re.sub(r"\$\{?(\w+)\}?", lambda m: str(values[m.group(1)]), command)
    return shlex.split(command)


def officesim_args(words: list[str]) -> list[str]:
    words = [w for w in words if w != "exec"]
    assert words[0] == "officesim"
    return words[1:]


def test_github_actions_example():
    workflow = yaml.safe_load((REPO / "examples" / "github-actions.yml").read_text())
    assert workflow.get("on", workflow.get(True))  # YAML 1.1 reads the key `on` as true
    env = workflow["env"]
    shards = workflow["jobs"]["eval"]["strategy"]["matrix"]["shard"]
    assert shards == list(range(int(env["SHARDS"])))
    eval_steps = workflow["jobs"]["eval"]["steps"]
    (run_step,) = [s for s in eval_steps if "officesim eval" in str(s.get("run", ""))]
    parser = build_parser()
    seen = set()
    for shard in shards:
        args = parser.parse_args(officesim_args(expand(run_step["run"], {**env, "shard": shard})))
        assert args.command == "eval" and parse_shard(args.shard) == (shard, len(shards))
        assert args.junit and str(args.out) in str(args.junit)
        seen.add(str(args.out))
    assert len(seen) == len(shards)  # one run directory per shard
    (upload,) = [s for s in eval_steps if str(s.get("uses", "")).startswith("actions/upload-artifact")]
    merge = workflow["jobs"]["merge"]
    assert merge["needs"] == "eval"
    (download,) = [s for s in merge["steps"] if str(s.get("uses", "")).startswith("actions/download-artifact")]
    assert upload["with"]["name"].startswith(download["with"]["pattern"].rstrip("*"))
    (merge_step,) = [s for s in merge["steps"] if "officesim merge" in str(s.get("run", ""))]
    args = parser.parse_args(officesim_args(expand(merge_step["run"], env)))
    assert args.command == "merge" and args.fail_under == float(env["FAIL_UNDER"])
    assert all(str(d).startswith(download["with"]["path"]) for d in args.dirs)


def test_kubernetes_indexed_job_example():
    docs = list(yaml.safe_load_all((REPO / "examples" / "k8s-indexed-job.yaml").read_text()))
    jobs = {d["metadata"]["name"]: d for d in docs if d["kind"] == "Job"}
    (claim,) = [d for d in docs if d["kind"] == "PersistentVolumeClaim"]
    job = jobs["officesim-eval"]["spec"]
    assert job["completionMode"] == "Indexed" and job["parallelism"] >= 1
    pod = job["template"]["spec"]
    (container,) = pod["containers"]
    assert container["image"] == "officesim:latest"
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert int(env["OFFICESIM_SHARD_TOTAL"]) == job["completions"]
    assert pod["volumes"][0]["persistentVolumeClaim"]["claimName"] == claim["metadata"]["name"]
    mount = container["volumeMounts"][0]["mountPath"]
    parser = build_parser()
    outs = set()
    for index in range(job["completions"]):
        variables = {**env, "JOB_COMPLETION_INDEX": index}
        args = parser.parse_args(officesim_args(expand(container["args"][0], variables)))
        assert args.command == "eval" and args.shard is None and args.resume
        assert shard_from_env({k: str(v) for k, v in variables.items()}) == (index, job["completions"])
        assert str(args.out).startswith(mount)
        outs.add(str(args.out))
    assert len(outs) == job["completions"]
    merge = jobs["officesim-merge"]["spec"]["template"]["spec"]
    args = parser.parse_args(officesim_args(expand(merge["containers"][0]["args"][0], {})))
    assert args.command == "merge" and args.fail_under is not None
    assert merge["volumes"][0]["persistentVolumeClaim"]["claimName"] == claim["metadata"]["name"]
    labels = {d["metadata"]["name"]: d["metadata"]["labels"]["officesim/step"] for d in docs}
    assert labels == {"officesim-results": "eval", "officesim-eval": "eval", "officesim-merge": "merge"}
