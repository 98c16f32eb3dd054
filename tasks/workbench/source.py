"""Reading a WorkBench checkout: its sandbox tables (data/processed/*.csv, the directory) and its
queries with their ground-truth calls (data/processed/queries_and_answers/*.csv)."""

from __future__ import annotations

import ast
import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from officesim.apps.workbench_core import TABLES
from officesim.tasks._confine import SourceError, inside, open_source

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
_PLAIN_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # an email_id names a file: emails/<user>/<email_id>.eml
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
    for rel in list(TABLE_FILES.values()) + [DIRECTORY_FILE] + [f"{QUERY_DIR}/{f}" for f in DOMAIN_FILES.values()]:
        inside(source / rel, source, rel)  # a link out of the checkout is not read
    return source


def _rows(source: Path, rel: str) -> list[dict]:
    """The rows of one CSV file; a file that is not CSV text, or a row with more fields than the header,
    is a SourceError naming the file and the line."""
    try:
        with io.TextIOWrapper(open_source(source / rel, source, rel), encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            rows = []
            for row in reader:
                if None in row:
                    raise SourceError(f"{rel}: line {reader.line_num}: more fields than the header has")
                rows.append(row)
            return [{"__fields__": reader.fieldnames or []}] + rows
    except (csv.Error, UnicodeDecodeError) as exc:
        raise SourceError(f"{rel}: not readable as CSV ({exc})") from None


def load_tables(source: Path) -> dict[str, list[dict]]:
    """The sandbox as WorkBench reads it (``dtype=str``; an empty field is None, pandas' NaN)."""
    source = check_source(source)
    tables: dict[str, list[dict]] = {}
    for table, rel in TABLE_FILES.items():
        header, *rows = _rows(source, rel)
        expected = set(TABLES[table][1])
        if set(header["__fields__"]) != expected:
            raise SourceError(f"{rel}: columns {header['__fields__']}, expected {sorted(expected)}")
        tables[table] = [{k: (v if v != "" else None) for k, v in row.items()} for row in rows]
    for n, row in enumerate(tables["emails"], start=2):
        if not _PLAIN_ID.fullmatch(str(row.get("email_id") or "")):
            raise SourceError(f"{TABLE_FILES['emails']}: row {n}: field 'email_id' {row.get('email_id')!r} "
                              "is not a plain id (letters, digits, '-', '_')")
    try:
        with io.TextIOWrapper(open_source(source / DIRECTORY_FILE, source, DIRECTORY_FILE), encoding="utf-8",
                              newline="") as fh:
            tables["directory"] = [{"email_address": row[0]} for row in csv.reader(fh) if row and row[0].strip()]
    except (csv.Error, UnicodeDecodeError) as exc:
        raise SourceError(f"{DIRECTORY_FILE}: not readable as CSV ({exc})") from None
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
        rel = f"{QUERY_DIR}/{name}"
        header, *rows = _rows(source, rel)
        missing = [c for c in ("query", "answer", "base_template", "chosen_template", "domains")
                   if c not in header["__fields__"]]
        if missing:
            raise SourceError(f"{rel}: no column {missing[0]!r}")
        for n, row in enumerate(rows, start=1):
            field = "answer"
            try:
                answer = ast.literal_eval(row["answer"] or "")
                if not isinstance(answer, list) or not all(isinstance(c, str) for c in answer):
                    raise ValueError("not a list of call texts")
                answer = [parse_call(c) for c in answer]
                field = "domains"
                domains = ast.literal_eval(row["domains"] or "")
                if not isinstance(domains, (list, tuple)):
                    raise ValueError("not a list")
                if not isinstance(row["query"], str) or not row["query"].strip():
                    field = "query"
                    raise ValueError("empty")
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError) as exc:
                raise SourceError(f"{rel}: query {n} (line {n + 1}): field {field!r}: {exc}") from None
            out.append(Query(domain, n, row["query"], answer, row["base_template"] or "", row["chosen_template"] or "",
                             [str(d) for d in domains]))
    return out
