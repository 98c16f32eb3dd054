"""Small tasks written into temporary directories, so API tests do not depend on the suite's content."""

from __future__ import annotations

from pathlib import Path

import yaml

USER = "maya.lin@northwind.test"

BUDGET = {
    "id": "api-budget-note",
    "scenario": "api-budget-note",
    "category": 2,
    "apps": ["excel", "word"],
    "user": USER,
    "user_name": "Maya Lin",
    "now": "2026-03-10 09:00:00",
    "instruction": "Write the total 1500 in B4 of data/budget.xlsx and add 'Total: 1500' to data/notes.docx.",
    "office": [
        {"type": "xlsx", "path": "data/budget.xlsx",
         "sheets": {"Budget": [["Item", "Amount"], ["Rent", 1200], ["Travel", 300]]}},
        {"type": "docx", "path": "data/notes.docx", "paragraphs": ["Budget notes"]},
    ],
    "checks": [
        {"check": "xlsx_cell", "args": {"file": "data/budget.xlsx", "cell": "B4", "value": 1500}},
        {"check": "docx_has_paragraph", "args": {"file": "data/notes.docx", "text": "Total: 1500"}},
    ],
    "gold": [
        {"app": "system", "action": "switch_app", "args": {"target_app": "excel"}},
        {"app": "excel", "action": "set_cell",
         "args": {"file_path": "data/budget.xlsx", "row_idx": 4, "column_idx": 2, "text": 1500}},
        {"app": "system", "action": "switch_app", "args": {"target_app": "word"}},
        {"app": "word", "action": "write_to_file", "args": {"file_path": "data/notes.docx", "contents": "Total: 1500"}},
    ],
    "wrong": [
        {"name": "wrong total", "actions": [
            {"app": "system", "action": "switch_app", "args": {"target_app": "excel"}},
            {"app": "excel", "action": "set_cell",
             "args": {"file_path": "data/budget.xlsx", "row_idx": 4, "column_idx": 2, "text": 1200}},
            {"app": "system", "action": "switch_app", "args": {"target_app": "word"}},
            {"app": "word", "action": "write_to_file", "args": {"file_path": "data/notes.docx", "contents": "Total: 1200"}},
        ]},
    ],
}

QUESTION = {
    "id": "api-question",
    "scenario": "api-question",
    "category": 1,
    "apps": ["excel"],
    "user": USER,
    "now": "2026-03-10 09:00:00",
    "instruction": "How much is the rent in data/budget.xlsx?",
    "office": [{"type": "xlsx", "path": "data/budget.xlsx", "sheets": {"Budget": [["Item", "Amount"], ["Rent", 1200]]}}],
    "checks": [{"check": "answer_equals", "args": {"value": 1200}}],
    "gold": [
        {"app": "system", "action": "switch_app", "args": {"target_app": "excel"}},
        {"app": "excel", "action": "read_file", "args": {"file_path": "data/budget.xlsx"}},
    ],
    "answer": 1200,
    "wrong": [{"name": "wrong number", "actions": [], "answer": 300}],
}


# A task that needs the user's reply (system.ask_user): the discount is nowhere in the office; a note
# offers the discount first asked for, the distractor an agent that guesses would write.
ASKING = {
    "id": "api-ask-discount", "scenario": "api-ask-discount", "category": 1, "apps": ["excel"], "user": USER,
    "now": "2026-03-10 09:00:00",
    "instruction": "Put the discount we agreed with Halden into B2 of data/deal.xlsx.",
    "office": [{"type": "xlsx", "path": "data/deal.xlsx", "sheets": {"Deal": [["Client", "Discount"], ["Halden", None]]}},
               {"type": "text", "path": "data/notes.txt", "content": "Halden first asked for a 10% discount."}],
    "checks": [{"check": "xlsx_cell", "args": {"file": "data/deal.xlsx", "cell": "B2", "value": 12}}],
    "gold": [{"app": "system", "action": "ask_user", "args": {"question": "What discount did we agree with Halden?"}},
             {"app": "system", "action": "switch_app", "args": {"target_app": "excel"}},
             {"app": "excel", "action": "set_cell",
              "args": {"file_path": "data/deal.xlsx", "row_idx": 2, "column_idx": 2, "text": 12}}],
    "user_replies": [
        {"when": ["discount", "percent", "how much"], "reply": "We settled on 12%.", "needed": True, "guess": {"12": 10}},
        {"when": r"\b(deadline|due)\b", "reply": "There is no deadline."},
    ],
}

def write_tasks(directory: Path, *tasks: dict) -> Path:
    """Write each task as <directory>/<id>/task.yaml; returns the directory."""
    for task in tasks:
        folder = Path(directory) / task["id"]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "task.yaml").write_text(yaml.safe_dump(task, sort_keys=False), encoding="utf-8")
    return Path(directory)


def variant(task: dict, **changes) -> dict:
    """A deep-enough copy of a task with some fields replaced."""
    out = yaml.safe_load(yaml.safe_dump(task))
    out.update(changes)
    return out
