"""The scenario families rebuild the committed suite exactly, the suite files carry no YAML anchors, and every
family speaks the one vocabulary of tasks/families/_kit.py."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml

from officesim.tasks.build_suite import SEEDS_PER_FAMILY, suite_id, task_yaml
from officesim.tasks.families import FAMILIES
from officesim.tasks.loader import SUITE_DIR, TASK_FILE

FAMILY_DIR = Path(__file__).resolve().parents[1] / "tasks" / "families"
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: the suite is read 300+ times


def committed(task_id: str) -> dict:
    path = SUITE_DIR / task_id / TASK_FILE
    assert path.is_file(), f"{path} is missing: run python -m officesim.tasks.build_suite"
    return yaml.load(path.read_text(encoding="utf-8"), Loader=Loader)


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_family_rebuilds_its_committed_tasks(name):
    for seed in range(1, SEEDS_PER_FAMILY + 1):
        task_id = suite_id(name, seed)
        built = yaml.load(task_yaml(FAMILIES[name].make(seed, task_id, "test")), Loader=Loader)
        assert built == committed(task_id), (f"{task_id}: the family no longer builds the committed task "
                                             f"(run python -m officesim.tasks.build_suite and review the diff)")


def test_suite_holds_exactly_the_family_tasks():
    expected = {suite_id(name, seed) for name in FAMILIES for seed in range(1, SEEDS_PER_FAMILY + 1)}
    present = {p.parent.name for p in SUITE_DIR.glob(f"*/{TASK_FILE}")}
    from_families = {t for t in present if t.rsplit("-", 1)[0] in FAMILIES}
    assert expected <= present, f"missing: {sorted(expected - present)[:10]}"
    assert from_families == expected, f"stale: {sorted(from_families - expected)[:10]}"


def test_no_suite_file_has_a_yaml_anchor_or_alias():
    offenders = []
    for path in sorted(SUITE_DIR.glob(f"*/{TASK_FILE}")):
        for event in yaml.parse(path.read_text(encoding="utf-8"), Loader=Loader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                offenders.append(path.parent.name)
                break
    assert not offenders, f"task files with anchors/aliases: {offenders[:10]}"


def test_task_yaml_writes_a_shared_object_twice_without_anchors():
    shared = {"summary": "Standup", "attendees": ["a@x.test"]}
    text = task_yaml({"office": [{"events": [shared]}, {"events": [shared]}]})
    assert "&" not in text and "*" not in text
    assert yaml.safe_load(text) == {"office": [{"events": [shared]}, {"events": [shared]}]}


def _family_modules() -> list[Path]:
    return sorted(p for p in FAMILY_DIR.glob("*.py") if p.name not in ("__init__.py", "_kit.py", "registry.py"))


def test_families_use_the_kit_vocabulary():
    """Office builders come from the kit (no inline {"type": ...} dicts) and no module redefines a kit name."""
    kit = ast.parse((FAMILY_DIR / "_kit.py").read_text(encoding="utf-8"))
    kit_names = {n.name for n in kit.body if isinstance(n, ast.FunctionDef)}
    problems = []
    for path in _family_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name in kit_names:
                problems.append(f"{path.name}: redefines the kit's {node.name}()")
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict) and any(isinstance(k, ast.Constant) and k.value == "type" for k in node.keys):
                problems.append(f"{path.name}:{node.lineno}: office entry written as a dict, use the kit builder")
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("officesim.tasks.families."):
                if node.module.rsplit(".", 1)[1] not in ("_kit", "registry"):
                    problems.append(f"{path.name}: imports helpers from {node.module}; they belong in _kit")
    assert not problems, "\n".join(problems)
