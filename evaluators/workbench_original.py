"""WorkBench's own verdict (its src/evals/utils.py ``is_correct``), re-implemented faithfully, flaws included.

WorkBench replays the agent's calls and the ground-truth calls, each on fresh tables, and calls a
task correct when the five state tables (calendar, emails, plots, project tasks, customers) are
``DataFrame.equals`` after lower-casing every column but ``status``, ``list_name`` and ``board``.
What that means, kept here on purpose (docs/workbench-verified.md lists the tasks it decides wrongly):

- every call is replayed from its text form ``tool.func(k="v", ...)``: each value becomes text, and a
  call whose value holds a double quote fails to ``eval`` and is skipped, as is one that raises;
- row order and index labels count: two independent writes in the other order (two plots, two
  forwards) make unequal tables; ``pd.concat`` gives a created event the label 0; ``add_customer`` and
  ``create_task`` relabel their table; ``send_email`` writes the row labelled ``len(EMAILS)``, which
  after a deletion is an existing email, overwritten;
- the fresh tables are the task's initial office, read back as WorkBench's tables.
"""

from __future__ import annotations

from typing import Any

from officesim.apps.workbench_core import STATE_TABLES, TABLES, TOOLS, Row, call
from officesim.evaluators.record import CheckRecord

NOT_LOWERED = ("status", "list_name", "board")  # WorkBench's fields_not_to_convert


class FrameStore:
    """WorkBench's DataFrames: rows with their index labels, changed the way each tool changes them."""

    def __init__(self, tables: dict[str, list[Row]]):
        self.frames: dict[str, list[tuple[int, Row]]] = {
            name: list(enumerate(dict(r) for r in rows)) for name, rows in tables.items()}
        self.frames["plots"] = []  # PLOTS_DATA starts empty

    def rows(self, table: str) -> list[Row]:
        return [r for _label, r in self.frames[table]]

    def add(self, table: str, row: Row) -> None:
        row = {c: row.get(c) for c in TABLES[table][1]}
        frame = self.frames[table]
        if table in ("emails", "plots"):  # DF.loc[len(DF)] = [...]: that label, overwritten if it exists
            label = len(frame)
            for i, (existing, _r) in enumerate(frame):
                if existing == label:
                    frame[i] = (label, row)
                    return
            frame.append((label, row))
        elif table == "calendar":  # pd.concat([DF, new]): the new row keeps its own label 0
            frame.append((0, row))
        else:  # pd.concat([DF, new], ignore_index=True): every row relabelled
            rows = [r for _l, r in frame] + [row]
            self.frames[table] = list(enumerate(rows))

    def delete(self, table: str, key: str) -> None:
        id_col = TABLES[table][0]
        self.frames[table] = [(label, r) for label, r in self.frames[table] if r.get(id_col) != key]

    def update(self, table: str, key: str, field: str, value: Any) -> None:
        id_col = TABLES[table][0]
        for _label, r in self.frames[table]:
            if r.get(id_col) == key:
                r[field] = value


def call_text(tool: str, args: dict) -> str:
    """WorkBench's convert_agent_action_to_function_call."""
    return tool + ".func(" + ", ".join(f'{k}="{v}"' for k, v in args.items()) + ")"


def predicted_calls(history: list[dict]) -> list[tuple[str, dict]]:
    """The agent's calls of WorkBench tools, in order (system steps are officesim's, not WorkBench's)."""
    out = []
    for step in history:
        tool = f"{step.get('app')}.{step.get('action')}"
        if step.get("app") != "system":
            out.append((tool, dict(step.get("args") or {}) if isinstance(step.get("args"), dict) else {}))
    return out


def replay(initial: dict[str, list[Row]], calls: list[tuple[str, dict]]) -> FrameStore:
    """Each call as WorkBench's ``eval`` runs it; one that cannot be evaluated or raises is skipped."""
    store = FrameStore(initial)
    for tool, args in calls:
        if tool not in TOOLS or any('"' in str(v) or str(v).endswith("\\") for v in args.values()):
            continue  # NameError / SyntaxError in eval: skipped
        try:
            call(store, tool, {k: str(v) for k, v in args.items()})
        except Exception:
            continue
    return store


def _lowered(table: str, frame: list[tuple[int, Row]]) -> list[tuple[int, tuple]]:
    columns = TABLES[table][1]
    return [(label, tuple(v.lower() if isinstance(v, str) and c not in NOT_LOWERED else v
                          for c, v in ((c, r.get(c)) for c in columns)))
            for label, r in frame]


def parse_ground_truth(texts: list[str]) -> list[tuple[str, dict]]:
    """Ground-truth call strings as (tool, arguments); one that does not parse stays, to be skipped."""
    import ast
    import re

    out = []
    for text in texts:
        m = re.match(r"^\s*([a-z_]+\.[a-z_]+)\.func\((.*)\)\s*$", text, re.S)
        try:
            node = ast.parse(f"f({m.group(2)})", mode="eval").body if m else None
            args = {kw.arg: ast.literal_eval(kw.value) for kw in node.keywords} if node else None
        except (SyntaxError, ValueError):
            args = None
        out.append((m.group(1), args) if m and args is not None else ("<unparsable>", {}))
    return out


def evaluate_original(evaluation: list[dict], initial: dict[str, list[Row]],
                      history: list[dict]) -> tuple[bool, list[CheckRecord]]:
    """WorkBench's is_correct: (passed, one record per state table compared)."""
    truth = parse_ground_truth(list((evaluation[0] if evaluation else {}).get("ground_truth", [])))
    predicted = replay(initial, predicted_calls(history))
    expected = replay(initial, truth)
    records = []
    for table in STATE_TABLES:
        a, b = _lowered(table, predicted.frames[table]), _lowered(table, expected.frames[table])
        same = a == b
        if same:
            message = f"equal ({len(a)} rows)"
        elif sorted(r for _l, r in a) == sorted(r for _l, r in b):
            message = "the same rows in another order or with other index labels"
        else:
            message = f"{len(set(r for _l, r in a) ^ set(r for _l, r in b))} row(s) differ"
        records.append(CheckRecord(check="workbench_table_equals", args={"table": table}, passed=same,
                                   message=message))
    return all(r.passed for r in records), records
