"""A module-level name is bound once: a second `_IN_ALL = …` further down a long module silently replaces
the first for every function that reads it (a heading's "two in all" count then raised IndexError in CI)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ["testbed", "apps", "evaluators", "tasks", "server", "runner", "inspect_ai_task", "benchmarks"]


def _bound_twice(tree: ast.Module) -> list[str]:
    names: Counter[str] = Counter()
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] += 1
    return sorted(n for n, k in names.items() if k > 1 and n != "__all__")


def test_the_guard_sees_a_second_binding():
    assert _bound_twice(ast.parse("A = 1\ndef f(): return A\nA = 2\n")) == ["A"]
    assert _bound_twice(ast.parse("A = 1\ndef f():\n    A = 2\n")) == []


def test_no_module_binds_a_name_twice():
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            twice = _bound_twice(ast.parse(path.read_text(), str(path)))
            if twice:
                found[str(path.relative_to(ROOT))] = twice
    assert found == {}, f"names bound twice at module level (the later silently wins): {found}"
