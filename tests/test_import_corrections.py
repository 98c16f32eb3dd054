"""Every correction the importers record is one of the task itself, and every task graded differently
from the original evaluation says so: walks the tasks imported from ../shared/benchmarks.

- OfficeBench: a task whose checks are not the translation of its original evaluation records a
  correction of its own (the overlay's, or the import's account of the changed checks); every file a
  correction names is one of this task's (its office, its reference files, or one its gold solution
  or checks write), never a sibling's; every check of a file reads one this task has or writes.
- WorkBench: a task whose gold solution, accepted readings or instruction differ from WorkBench's
  ground truth records a correction; every correction names its class, what and why.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

SHARED = Path(__file__).resolve().parents[2] / "shared" / "benchmarks"
OFFICEBENCH, WORKBENCH = SHARED / "officebench", SHARED / "workbench"
FILE_NAME = re.compile(r"[\w./-]*\w\.(?:xlsx|docx|doc|pdf|txt|ics|eml|csv|jpg|jpeg|png)\b")


def _skip_without(path: Path, name: str) -> None:
    if not path.is_dir():
        pytest.skip(f"the {name} snapshot is not at {path} (../shared/benchmarks/{path.name})")


# ---- OfficeBench ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def officebench(tmp_path_factory):
    _skip_without(OFFICEBENCH / "tasks", "OfficeBench")
    from officesim.tasks.officebench.importer import import_officebench

    out = tmp_path_factory.mktemp("officebench")
    report = import_officebench(OFFICEBENCH, out)
    tasks = {tid: yaml.safe_load((out / tid / "task.yaml").read_text()) for tid in report.imported}
    return out, report, tasks


def _translation(task: dict):
    from officesim.tasks.officebench.translate import translate

    folder = OFFICEBENCH / "tasks" / task["origin"]["id"].split("/")[0]
    return translate(task["origin"]["evaluation"], reference_dir=folder / "reference", testbed_dir=folder / "testbed")


def _own_checks(task: dict, translated: list[dict]) -> list[dict]:
    """The task's checks without the no_repeats checks the import adds to every free document."""
    return [c for c in task["checks"] if c["check"] != "no_repeats" or c in translated]


def _task_files(out: Path, task: dict) -> set[str]:
    """Every name a file of this task goes by: its office and reference files, and the paths its gold
    solution and checks name (what it writes), each whole and as a base name."""
    names: set[str] = set()
    for sub in ("files", "reference"):
        root = out / task["id"] / sub
        names |= {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}
    words = json.dumps([task["gold"], task["checks"]])
    names |= set(FILE_NAME.findall(words))
    return names | {Path(n).name for n in names}


def test_every_task_graded_differently_records_a_correction(officebench):
    _out, report, tasks = officebench
    unrecorded = []
    for tid, task in tasks.items():
        translation = _translation(task)
        own = [c for c in report.corrections.get(tid, [])
               if (c["class"], c["what"], c["did"]) not in {(t.cls, t.what, t.did) for t in translation.corrections}]
        if _own_checks(task, translation.checks) != translation.checks and not own:
            unrecorded.append(tid)
    assert not unrecorded, f"checks differ from the original evaluation, no correction recorded: {unrecorded}"


def test_a_changed_check_correction_says_what_each_side_checks(officebench):
    _out, report, tasks = officebench
    changed = {tid: c for tid, cs in report.corrections.items() for c in cs
               if c["class"] in ("stricter-check", "changed-check")}
    assert changed  # the overlay changes checks of tasks without a correction of its own
    for tid, c in changed.items():
        assert c["what"].startswith("the original checks"), (tid, c)
        original = {x["check"] for x in _translation(tasks[tid]).checks}
        assert any(name in c["what"] for name in original), (tid, c)


def test_corrections_name_this_tasks_files(officebench):
    out, report, tasks = officebench
    foreign = []
    for tid, corrections in report.corrections.items():
        names = _task_files(out, tasks[tid])
        for c in corrections:
            for name in FILE_NAME.findall(c["did"]):
                if name not in names and Path(name).name not in names:
                    foreign.append((tid, name, c["did"]))
    assert not foreign, f"a correction names a file this task neither has nor writes: {foreign}"


def test_file_checks_read_this_tasks_files(officebench):
    out, _report, tasks = officebench
    foreign = []
    for tid, task in tasks.items():
        office = {str(p.relative_to(out / tid / "files")) for p in (out / tid / "files").rglob("*") if p.is_file()}
        written = json.dumps(task["gold"])
        written += " ".join(f" calendar/{a['args'].get('user')}.ics" for a in task["gold"] if a["app"] == "calendar")
        for check in task["checks"]:
            path = check["args"].get("file")
            if not path or check["check"] in ("file_not_exists", "not_contains") or path.startswith("emails/"):
                continue  # absent by design, or a mail the office files under its own name
            if path not in office and path not in written and Path(path).name not in written:
                foreign.append((tid, check["check"], path))
    assert not foreign, f"a check reads a file the task neither has nor writes: {foreign}"


def test_every_correction_is_classed_and_explained(officebench):
    from officesim.tasks.officebench.importer import CLASS_NAMES

    _out, report, _tasks = officebench
    for tid, corrections in report.corrections.items():
        for c in corrections:
            assert c["class"] in CLASS_NAMES, (tid, c)
            assert c["what"].strip() and c["did"].strip(), (tid, c)


# ---- WorkBench -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def workbench(tmp_path_factory):
    _skip_without(WORKBENCH / "data", "WorkBench")
    from officesim.tasks.workbench.importer import import_workbench

    out = tmp_path_factory.mktemp("workbench")
    report = import_workbench(WORKBENCH, out)
    tasks = {tid: yaml.safe_load((out / tid / "task.yaml").read_text()) for tid in report.imported}
    return out, report, tasks


def test_workbench_tasks_graded_differently_record_a_correction(workbench):
    from officesim.tasks.workbench.importer import CLASS_NAMES, gold_actions
    from officesim.tasks.workbench.source import parse_call

    _out, report, tasks = workbench
    assert len(tasks) == 690
    differ, unrecorded = 0, []
    for tid, task in tasks.items():
        ground_truth = [parse_call(t) for t in task["origin"]["evaluation"][0]["ground_truth"]]
        graded_differently = task["gold"] != gold_actions(ground_truth) or bool(task.get("right"))
        differ += graded_differently
        if graded_differently and not report.corrections.get(tid):
            unrecorded.append(tid)
        for c in report.corrections.get(tid, []):
            assert c["class"] in CLASS_NAMES and c["what"].strip() and c["did"].strip(), (tid, c)
    assert differ  # the overlay corrects ground truths
    assert not unrecorded, f"graded differently from WorkBench's ground truth, no correction: {unrecorded}"
