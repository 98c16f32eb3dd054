"""Reading a WorkBench checkout: its sandbox tables (data/processed/*.csv, the directory) and its
queries with their ground-truth calls (data/processed/queries_and_answers/*.csv)."""

from __future__ import annotations

import ast
import csv
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from officesim.apps.workbench_core import TABLES

TABLE_FILES = {
    "emails": "data/processed/emails.csv",
    "calendar": "data/processed/calendar_events.csv",
    "analytics": "data/processed/analytics_data.csv",
    "crm": "data/processed/customer_relationship_manager_data.csv",
    "tasks": "data/processed/project_tasks.csv",
}
DIRECTORY_FILE = "data/raw/email_addresses.csv"
QUERY_DIR = "data/processed/queries_and_answers"
# WorkBench's query files, in the order tasks are numbered; the id's domain word
DOMAIN_FILES = {
    "analytics": "analytics_queries_and_answers.csv",
    "calendar": "calendar_queries_and_answers.csv",
    "crm": "customer_relationship_manager_queries_and_answers.csv",
    "email": "email_queries_and_answers.csv",
    "multi": "multi_domain_queries_and_answers.csv",
    "pm": "project_management_queries_and_answers.csv",
}
_CALL = re.compile(r"^\s*([a-z_]+)\.([a-z_]+)\.func\((.*)\)\s*$", re.S)


@dataclass(frozen=True)
class Call:
    """One ground-truth call, ``calendar.delete_event.func(event_id="00000256")``."""

    tool: str  # "calendar.delete_event"
    args: dict[str, Any]
    text: str  # as WorkBench wrote it

    @property
    def app(self) -> str:
        return self.tool.split(".", 1)[0]

    @property
    def action(self) -> str:
        return self.tool.split(".", 1)[1]


@dataclass(frozen=True)
class Query:
    domain: str  # the id's domain word (DOMAIN_FILES)
    n: int  # 1-based row number in its file
    query: str
    answer: list[Call]
    base_template: str
    chosen_template: str
    domains: list[str]

    @property
    def id(self) -> str:
        return f"workbench-{self.domain}-{self.n}"


def check_source(source: Path) -> Path:
    source = Path(source)
    missing = [p for p in list(TABLE_FILES.values()) + [DIRECTORY_FILE] + [f"{QUERY_DIR}/{f}" for f in DOMAIN_FILES.values()]
               if not (source / p).is_file()]
    if missing:
        raise ValueError(f"{source} is not a WorkBench checkout: missing {', '.join(missing[:3])}")
    return source


def load_tables(source: Path) -> dict[str, list[dict]]:
    """The sandbox as WorkBench reads it (``dtype=str``; an empty field is None, pandas' NaN)."""
    source = check_source(source)
    tables: dict[str, list[dict]] = {}
    for table, rel in TABLE_FILES.items():
        with open(source / rel, newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            expected = set(TABLES[table][1])
            if set(reader.fieldnames or []) != expected:
                raise ValueError(f"{rel}: columns {reader.fieldnames}, expected {sorted(expected)}")
            tables[table] = [{k: (v if v != "" else None) for k, v in row.items()} for row in reader]
    with open(source / DIRECTORY_FILE, newline="", encoding="utf-8") as fh:
        tables["directory"] = [{"email_address": row[0]} for row in csv.reader(fh) if row and row[0].strip()]
    tables["plots"] = []
    return tables


def parse_call(text: str) -> Call:
    """A ground-truth call string as a tool and keyword arguments (Python syntax, literals only)."""
    m = _CALL.match(text)
    if not m:
        raise ValueError(f"not a WorkBench call: {text!r}")
    node = ast.parse(f"f({m.group(3)})", mode="eval").body
    if node.args:
        raise ValueError(f"positional arguments in {text!r}")
    args = {kw.arg: ast.literal_eval(kw.value) for kw in node.keywords}
    return Call(f"{m.group(1)}.{m.group(2)}", args, text)


def load_queries(source: Path) -> list[Query]:
    """Every query of every domain file, numbered from 1 within its file."""
    source = check_source(source)
    out = []
    for domain, name in DOMAIN_FILES.items():
        with open(source / QUERY_DIR / name, newline="", encoding="utf-8") as fh:
            for n, row in enumerate(csv.DictReader(fh), start=1):
                answer = [parse_call(c) for c in ast.literal_eval(row["answer"])]
                out.append(Query(domain, n, row["query"], answer, row["base_template"], row["chosen_template"],
                                 list(ast.literal_eval(row["domains"]))))
    return out
