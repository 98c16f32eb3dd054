"""Small tasks for the eval runner tests, written as YAML into temporary directories.

Six tasks over the three categories, one of them a no-action task, so runs are quick and do not
depend on the content of the built-in suite.
"""

from __future__ import annotations

from pathlib import Path

import yaml

USER = "maya.lin@northwind.test"
NOW = "2026-03-10 09:00:00"


def _task(task_id: str, category: int, apps: list[str], instruction: str, office: list, checks: list,
          gold: list, answer=None, no_action: bool = False) -> dict:
    return {"id": task_id, "scenario": task_id.rsplit("-", 1)[0], "category": category, "apps": apps,
            "user": USER, "user_name": "Maya Lin", "now": NOW, "instruction": instruction,
            "office": office, "checks": checks, "gold": gold, "answer": answer, "no_action": no_action}


BUDGET = {"type": "xlsx", "path": "data/budget.xlsx",
          "sheets": {"Budget": [["Item", "Amount"], ["Rent", 1200], ["Travel", 300]]}}
NOTES = {"type": "docx", "path": "data/notes.docx", "paragraphs": ["Budget notes"]}


def _switch(app: str) -> dict:
    return {"app": "system", "action": "switch_app", "args": {"target_app": app}}


def _set_total() -> dict:
    return {"app": "excel", "action": "set_cell",
            "args": {"file_path": "data/budget.xlsx", "row_idx": 4, "column_idx": 2, "text": 1500}}


TASKS = [
    _task("ev-total-001", 1, ["excel"], "Write the total 1500 in B4 of data/budget.xlsx.", [BUDGET],
          [{"check": "xlsx_cell", "args": {"file": "data/budget.xlsx", "cell": "B4", "value": 1500}}],
          [_switch("excel"), _set_total()]),
    _task("ev-rent-001", 1, ["excel"], "How much is the rent in data/budget.xlsx?", [BUDGET],
          [{"check": "answer_equals", "args": {"value": 1200}}],
          [_switch("excel"), {"app": "excel", "action": "read_file", "args": {"file_path": "data/budget.xlsx"}}],
          answer=1200),
    _task("ev-nothing-001", 1, ["excel"], "If B3 of data/budget.xlsx is not 300, set it to 300.", [BUDGET],
          [{"check": "xlsx_cell", "args": {"file": "data/budget.xlsx", "cell": "B3", "value": 300}}],
          [_switch("excel"), {"app": "excel", "action": "read_file", "args": {"file_path": "data/budget.xlsx"}}],
          no_action=True),
    _task("ev-note-001", 2, ["excel", "word"],
          "Write the total 1500 in B4 of data/budget.xlsx and add 'Total: 1500' to data/notes.docx.", [BUDGET, NOTES],
          [{"check": "xlsx_cell", "args": {"file": "data/budget.xlsx", "cell": "B4", "value": 1500}},
           {"check": "docx_has_paragraph", "args": {"file": "data/notes.docx", "text": "Total: 1500"}}],
          [_switch("excel"), _set_total(), _switch("word"),
           {"app": "word", "action": "write_to_file", "args": {"file_path": "data/notes.docx", "contents": "Total: 1500"}}]),
    _task("ev-memo-001", 2, ["excel", "word"], "Add 'Rent: 1200' (the rent in data/budget.xlsx) to data/notes.docx.",
          [BUDGET, NOTES],
          [{"check": "docx_has_paragraph", "args": {"file": "data/notes.docx", "text": "Rent: 1200"}}],
          [_switch("excel"), {"app": "excel", "action": "read_file", "args": {"file_path": "data/budget.xlsx"}},
           _switch("word"),
           {"app": "word", "action": "write_to_file", "args": {"file_path": "data/notes.docx", "contents": "Rent: 1200"}}]),
    _task("ev-review-001", 3, ["excel", "word", "calendar"],
          "Write the total 1500 in B4 of data/budget.xlsx, add 'Total: 1500' to data/notes.docx and book "
          "'Budget review' tomorrow 10:00-10:30.", [BUDGET, NOTES],
          [{"check": "xlsx_cell", "args": {"file": "data/budget.xlsx", "cell": "B4", "value": 1500}},
           {"check": "docx_has_paragraph", "args": {"file": "data/notes.docx", "text": "Total: 1500"}},
           {"check": "ics_event", "args": {"user": USER, "summary": "Budget review", "start": "2026-03-11 10:00:00",
                                           "end": "2026-03-11 10:30:00"}}],
          [_switch("excel"), _set_total(), _switch("word"),
           {"app": "word", "action": "write_to_file", "args": {"file_path": "data/notes.docx", "contents": "Total: 1500"}},
           _switch("calendar"),
           {"app": "calendar", "action": "create_event",
            "args": {"user": USER, "summary": "Budget review", "time_start": "2026-03-11 10:00:00",
                     "time_end": "2026-03-11 10:30:00"}}]),
]

TASK_IDS = sorted(t["id"] for t in TASKS)
NO_ACTION_IDS = sorted(t["id"] for t in TASKS if t["no_action"])


def write_tasks(directory: Path, tasks: list[dict] | None = None) -> Path:
    """Write each task as <directory>/<id>/task.yaml; returns the directory."""
    directory = Path(directory)
    for task in TASKS if tasks is None else tasks:
        folder = directory / task["id"]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "task.yaml").write_text(yaml.safe_dump(task, sort_keys=False), encoding="utf-8")
    return directory
