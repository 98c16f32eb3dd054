"""The suite's spread rules (issue: the task suite), checked from the task files themselves."""

from __future__ import annotations

from collections import Counter

import pytest

from officesim.tasks.loader import load_tasks

SPREAD_APPS = ("word", "excel", "pdf", "calendar", "email", "ocr", "shell")


@pytest.fixture(scope="module")
def suite():
    return [t for t in load_tasks().values() if t.split != "hard"]  # the suite's spread rules (the hard split has its own)


def test_at_least_300_tasks_by_category(suite):
    per_category = Counter(t.category for t in suite)
    assert len(suite) >= 300, f"suite has {len(suite)} tasks"
    assert per_category[1] >= 90, per_category
    assert per_category[2] >= 90, per_category
    assert per_category[3] >= 100, per_category


@pytest.mark.parametrize("app", SPREAD_APPS)
def test_every_app_in_at_least_25_tasks(suite, app):
    count = sum(app in t.apps for t in suite)
    assert count >= 25, f"{app} appears in {count} tasks"


def test_scenarios_are_many_and_small(suite):
    per_scenario = Counter(t.scenario for t in suite)
    assert len(per_scenario) >= 100, f"only {len(per_scenario)} scenarios"
    crowded = {s: n for s, n in per_scenario.items() if n > 5}
    assert not crowded, f"scenarios with more than 5 tasks: {crowded}"


def test_question_and_no_action_shares(suite):
    questions = sum(t.answer is not None for t in suite)
    no_action = sum(t.no_action for t in suite)
    assert questions <= 0.20 * len(suite), f"{questions} question tasks of {len(suite)}"
    assert no_action <= 0.15 * len(suite), f"{no_action} no-action tasks of {len(suite)}"


def test_suite_is_the_test_split_and_ids_match_scenarios(suite):
    assert all(t.split == "test" for t in suite)
    assert all(t.id.startswith(t.scenario) for t in suite)


def test_every_task_has_a_wrong_solution_unless_no_action(suite):
    missing = [t.id for t in suite if not t.wrong and not t.no_action]
    assert not missing, f"tasks without a wrong solution: {missing[:10]}"


def test_examples_and_suite_together_use_every_check_and_builder():
    """Every check kind and every builder is exercised by a task that the validator proves."""
    from pathlib import Path

    from officesim.evaluators import CHECKS
    from officesim.tasks.model import Task

    root = Path(__file__).resolve().parent.parent
    tasks = load_tasks([root / "tasks" / "examples"]).values()
    used_checks = {c.check for t in tasks for c in t.checks}
    # checks that only imported benchmarks need are proved by their importers' tests and validation:
    # the OfficeBench overlay names them, the WorkBench importer emits them
    from officesim.tasks.officebench.importer import load_overlay

    overlay = load_overlay()
    used_checks |= {next(iter(c)) if "check" not in c else c["check"] for e in overlay.values()
                    for c in (e.get("checks") or []) + (e.get("add_checks") or [])}
    emitted = (root / "tasks" / "workbench" / "importer.py").read_text(encoding="utf-8")
    used_checks |= {name for name in CHECKS if f'"check": "{name}"' in emitted}
    assert set(CHECKS) - used_checks == set()
    used_builders = {b.type for t in tasks for b in t.office}
    builder_types = {m.model_fields["type"].annotation.__args__[0]
                     for m in Task.model_fields["office"].annotation.__args__[0].__origin__.__args__}
    assert builder_types == {"xlsx", "docx", "pdf", "text", "image", "eml", "ics"}
    assert builder_types - used_builders == set()
    assert any(Path(t.source_dir, "files").is_dir() for t in tasks), "no task uses a real files/ folder"
