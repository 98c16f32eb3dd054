"""Import WorkBench's 690 queries as officesim tasks: ``officesim import workbench``.

One task per query (row ``n`` of ``queries_and_answers/<domain>_queries_and_answers.csv``), id
``workbench-<domain>-<n>`` with domain ``analytics``, ``calendar``, ``crm``, ``email``, ``multi`` or ``pm``:

- every task starts from the same office, WorkBench's sandbox written once as real files into
  ``<out>/_office`` (apps/workbench_store.py) and named by each task's ``office_from``, so all 690
  share one template;
- the ``workbench`` tool set (WorkBench's own tools), WorkBench's simulated now (Thursday 2023-11-30
  00:00) and its user, Sam (``sam@atlas.com``);
- the gold solution is WorkBench's ground-truth calls converted mechanically (``calendar.delete_event.
  func(event_id="00000256")`` -> ``calendar.delete_event {event_id: "00000256"}``, with the switch_app
  steps a session needs between apps); a query whose ground truth is no call is ``no_action``;
- grading is the end state: the gold's end state is computed by replaying the calls on WorkBench's
  tables (apps/workbench_core.py), and ``workbench_rows`` checks state each row it adds, changes or
  removes; the outcome comparison fails any other change;
- the ground truth verbatim in ``origin`` (WorkBench's own verdict replays it, evaluators/workbench_original.py).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from officesim.apps.workbench_core import NOW, STATE_TABLES, TABLES, USER, MemoryStore, Row, call
from officesim.apps.workbench_store import write_office
from officesim.tasks.workbench.source import Call, Query, check_source, load_queries, load_tables

PINNED_COMMIT = "42f1b6dc18986f47701ca83de2d63dd4f95c59a0"
REPOSITORY = "https://github.com/olly-styles/WorkBench"
OFFICE_DIR = "_office"
REPORT_FILE = "workbench-import.json"
USER_NAME = "Sam"
APP_OF_DOMAIN = {"crm": "customer_relationship_manager", "customer_relationship_manager": "customer_relationship_manager",
                 "pm": "project_management", "project_management": "project_management", "email": "email",
                 "calendar": "calendar", "analytics": "analytics"}
APP_ORDER = ("email", "calendar", "analytics", "customer_relationship_manager", "project_management")


@dataclass
class ImportReport:
    source: Path
    out: Path
    imported: list[str] = field(default_factory=list)
    no_action: list[str] = field(default_factory=list)
    corrections: dict[str, list[dict]] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"source": str(self.source), "out": str(self.out), "imported": len(self.imported),
                "no_action": self.no_action, "corrections": self.corrections}

    def text(self) -> str:
        return (f"imported {len(self.imported)} WorkBench tasks into {self.out} "
                f"({len(self.no_action)} need no action, {len(self.corrections)} corrected); "
                f"report: {self.out / REPORT_FILE}")


# ---- the source ----------------------------------------------------------------------------------
def fetch_source(dest: Path | None = None) -> Path:
    """Clone WorkBench at the pinned commit (needs git and the network); returns the checkout."""
    dest = Path(dest or Path(tempfile.gettempdir()) / f"workbench-{PINNED_COMMIT[:7]}")
    if (dest / "data" / "processed").is_dir():
        return dest
    tmp = Path(tempfile.mkdtemp(prefix="workbench-clone-"))
    try:
        subprocess.run(["git", "clone", "--quiet", "--no-checkout", REPOSITORY, str(tmp / "repo")], check=True,
                       capture_output=True, timeout=300)
        subprocess.run(["git", "-C", str(tmp / "repo"), "checkout", "--quiet", PINNED_COMMIT], check=True,
                       capture_output=True, timeout=300)
        shutil.move(str(tmp / "repo"), str(dest))
    except (OSError, subprocess.SubprocessError) as exc:
        raise RuntimeError(f"could not clone {REPOSITORY} at {PINNED_COMMIT[:7]} ({exc}); "
                           "give a checkout with --source DIR") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return dest


# ---- gold end state ------------------------------------------------------------------------------
def replay(tables: dict[str, list[Row]], calls: list[Call]) -> MemoryStore:
    """WorkBench's tables after ``calls`` (a failing call changes nothing, as in WorkBench's replay)."""
    store = MemoryStore(tables)
    for c in calls:
        try:
            call(store, c.tool, c.args)
        except Exception:  # WorkBench's execute_actions_and_reset_state skips a call that raises
            continue
    return store


def expectations(before: dict[str, list[Row]], after: MemoryStore) -> list[dict]:
    """One ``workbench_rows`` check per table the calls change: the rows added or changed, the ids removed."""
    checks = []
    for table in STATE_TABLES:
        id_col, columns = TABLES[table]
        old = {r[id_col]: r for r in before.get(table, [])}
        new = {r[id_col]: r for r in after.rows(table)}
        absent = [key for key in old if key not in new]
        present = []
        for key, row in new.items():
            if key in old and all(old[key].get(c) == row.get(c) for c in columns):
                continue
            shown = {c: row.get(c) for c in columns}
            if table == "emails" and key not in old:
                shown.pop("email_id")  # a new email's id follows the order of sending: not compared
            present.append(shown)
        if present or absent:
            args: dict[str, Any] = {"table": table}
            if present:
                args["present"] = present
            if absent:
                args["absent"] = absent
            checks.append({"check": "workbench_rows", "args": args})
    return checks


def gold_actions(calls: list[Call]) -> list[dict]:
    """The calls as session actions, with a switch_app before each change of app."""
    out, current = [], "system"
    for c in calls:
        if c.app != current:
            out.append({"app": "system", "action": "switch_app", "args": {"target_app": c.app}})
            current = c.app
        out.append({"app": c.app, "action": c.action, "args": dict(c.args)})
    return out


def apps_of(query: Query, calls: list[Call]) -> list[str]:
    named = {APP_OF_DOMAIN[d] for d in query.domains if d in APP_OF_DOMAIN} | {c.app for c in calls}
    return [a for a in APP_ORDER if a in named] + sorted(named - set(APP_ORDER))


# ---- one task ------------------------------------------------------------------------------------
def build_task(query: Query, tables: dict[str, list[Row]], calls: list[Call] | None = None) -> dict:
    """The task of one query (``calls``: the gold to use, WorkBench's ground truth by default)."""
    calls = query.answer if calls is None else calls
    after = replay(tables, calls)
    checks = expectations(tables, after)
    apps = apps_of(query, calls)
    no_action = not checks
    if no_action:  # nothing changes: the outcome comparison judges; the check states the table is intact
        checks = [{"check": "workbench_rows", "args": {"table": _first_table(apps)}}]
    return {
        "id": query.id,
        "scenario": f"workbench-{query.domain}-{_slug(query.base_template)}",
        "category": min(3, len(apps)),
        "toolset": "workbench",
        "apps": apps,
        "user": USER,
        "user_name": USER_NAME,
        "now": NOW.strftime("%Y-%m-%d %H:%M:%S"),
        "timezone": "UTC",
        "instruction": query.query,
        "office_from": f"../{OFFICE_DIR}",
        "checks": checks,
        "gold": gold_actions(calls),
        "no_action": no_action,
        "tags": ["workbench", f"workbench-{query.domain}"] + (["no-action"] if no_action else []),
        "origin": {"benchmark": "workbench", "id": f"{query.domain}/{query.n}",
                   "evaluation": [{"ground_truth": [c.text for c in query.answer],
                                   "template": query.base_template, "domains": query.domains}]},
    }


def _first_table(apps: list[str]) -> str:
    table_of = {"email": "emails", "calendar": "calendar", "analytics": "plots",
                "customer_relationship_manager": "crm", "project_management": "tasks"}
    return next((table_of[a] for a in apps if a in table_of), "emails")


def _slug(template: str) -> str:
    import hashlib

    return hashlib.sha1(template.encode()).hexdigest()[:8]


def _dump(task: dict) -> str:
    class Dumper(yaml.SafeDumper):
        pass

    def text(dumper, value):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None)

    Dumper.add_representer(str, text)
    return yaml.dump(task, Dumper=Dumper, sort_keys=False, allow_unicode=True, width=110)


# ---- the import ----------------------------------------------------------------------------------
def import_workbench(source: Path, out: Path, *, only: list[str] | None = None) -> ImportReport:
    """Write the shared office and one task folder per query into ``out``."""
    source, out = check_source(Path(source)), Path(out)
    tables = load_tables(source)
    queries = load_queries(source)
    report = ImportReport(source=source, out=out)
    out.mkdir(parents=True, exist_ok=True)
    office = out / OFFICE_DIR
    if office.exists():
        shutil.rmtree(office)
    tmp = out / f".{OFFICE_DIR}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    write_office(tmp, tables, USER)
    tmp.rename(office)
    for query in queries:
        if only and query.id not in only:
            continue
        task = build_task(query, tables)
        dest = out / query.id
        dest.mkdir(exist_ok=True)
        (dest / "task.yaml").write_text(_dump(task), encoding="utf-8")
        report.imported.append(query.id)
        if task["no_action"]:
            report.no_action.append(query.id)
    if not only:  # a full import: folders of an earlier import that this one did not write go
        for stale in out.glob("workbench-*"):
            if stale.is_dir() and stale.name not in set(report.imported) and (stale / "task.yaml").is_file():
                shutil.rmtree(stale)
    (out / REPORT_FILE).write_text(json.dumps(report.as_dict(), indent=1) + "\n", encoding="utf-8")
    return report
