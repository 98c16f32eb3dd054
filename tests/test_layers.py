"""The house's floors, read from the code's own import statements: every package imports only
downward, and no module imports itself back through others (no cycles)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Lowest floor first. A package may import from its own floor and the floors below it.
FLOORS = ["testbed", "apps", "evaluators", "tasks", "server", "runner", "inspect"]
# A floor whose folder is named otherwise (officesim.inspect: a folder `inspect/` would shadow the
# standard library's module on a path that holds the repository root).
FOLDERS = {floor: floor for floor in FLOORS} | {"inspect": "inspect_ai_task"}


def _modules() -> dict[str, Path]:
    out = {}
    for floor in FLOORS:
        for path in (ROOT / FOLDERS[floor]).rglob("*.py"):
            if "suite" in path.relative_to(ROOT).parts:
                continue
            parts = [floor] + list(path.relative_to(ROOT / FOLDERS[floor]).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out["officesim." + ".".join(parts)] = path
    return out


def _imports(path: Path, module: str) -> set[str]:
    """Every officesim module named by an import statement in the file (at any depth, lazy ones too)."""
    found = set()
    tree = ast.parse(path.read_text(), str(path))
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("officesim."))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                name = f"{base}.{node.module}" if node.module else base
            else:
                name = node.module or ""
            if name.startswith("officesim."):
                found.add(name)
                found.update(f"{name}.{a.name}" for a in node.names)
    return found


def _graph() -> dict[str, set[str]]:
    """Computed in a fresh interpreter: CPython 3.11's ast.parse can fail with 'AST constructor recursion
    depth mismatch' in a process where another test already hit a RecursionError."""
    code = ("import json, sys; sys.path.insert(0, %r); import test_layers as t; "
            "print(json.dumps({k: sorted(v) for k, v in t._graph_here().items()}))" % str(Path(__file__).parent))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return {k: set(v) for k, v in json.loads(out).items()}


def _graph_here() -> dict[str, set[str]]:
    mods = _modules()
    graph = {}
    for mod, path in mods.items():
        targets = set()
        for name in _imports(path, mod):
            while name and name not in mods:
                name = name.rpartition(".")[0]
            if name and name != mod:
                targets.add(name)
        graph[mod] = targets
    return graph


def _floor(module: str) -> int:
    return FLOORS.index(module.split(".")[1])


def test_packages_import_only_downward():
    upward = [f"{m} -> {t}" for m, ts in _graph().items() for t in ts if _floor(t) > _floor(m)]
    assert not upward, "imports up a floor:\n" + "\n".join(sorted(upward))


def test_no_import_cycles():
    graph = _graph()
    # A package's __init__ importing its own submodules is how a package exposes them, not a cycle.
    def edges(m: str) -> set[str]:
        return {t for t in graph[m] if not (graph.get(t) is not None and m.startswith(t + ".") and t != m)}

    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(edges(m)):
            if state.get(t) == 1:
                cycles.append(stack[stack.index(t):] + [t])
            elif t not in state:
                visit(t, stack)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_namespace_is_the_only_top_level_name():
    """Code imports the product as officesim.*, never by its folder names (which would collide with users')."""
    bad = []
    for path in list(ROOT.glob("*/**/*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] in (".venv", "runs", ".git") or "suite" in rel.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            bad += [f"{rel}: {n}" for n in names if n.split(".")[0] in FOLDERS.values()]
    assert not bad, "\n".join(bad)
