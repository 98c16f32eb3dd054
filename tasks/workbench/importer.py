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
  steps a session needs between apps); a query whose ground truth is no call is ``no_action``, and so is
  one with several accepted readings when one of them changes nothing;
- grading is the end state: the gold's end state is computed by replaying the calls on WorkBench's
  tables (apps/workbench_core.py), and ``workbench_rows`` checks state each row it adds, changes or
  removes; the outcome comparison fails any other change;
- the ground truth verbatim in ``origin`` (WorkBench's own verdict replays it, evaluators/workbench_original.py).
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from officesim.apps.workbench_core import NOW, STATE_TABLES, TABLES, USER, MemoryStore, Row, call
from officesim.apps.workbench_store import SHEETS, calendar_path, write_office
from officesim.evaluators.workbench import state_digest
from officesim.evaluators.workbench_original import FrameStore, NOT_LOWERED
from officesim.tasks.workbench.source import Call, Query, check_source, load_queries, load_tables, parse_call
from officesim.tasks._clone import clone_pinned
from officesim.tasks._confine import SourceError, inside, install, staging
from officesim.apps.workbench_store import email_path
from officesim.tasks.workbench.source import DOMAIN_FILES, QUERY_DIR

PINNED_COMMIT = "42f1b6dc18986f47701ca83de2d63dd4f95c59a0"
REPOSITORY = "https://github.com/olly-styles/WorkBench"
OFFICE_DIR = "_office"
REPORT_FILE = "workbench-import.json"
OVERLAY_FILE = Path(__file__).resolve().parent / "overlay.yaml"
YESTERDAY, TODAY = "2023-11-29", "2023-11-30"
# Where each table lives in the office: freed (FORMAT §7) when a task accepts several end states of it.
TABLE_PATHS = {"emails": f"emails/{USER}/*", "calendar": calendar_path(USER), "plots": "plots/*",
               "crm": SHEETS["crm"][0], "tasks": SHEETS["tasks"][0]}
CLASS_NAMES = {
    "wrong-ground-truth": "the ground truth does not do what the query asks",
    "ambiguous": "the query has several defensible readings; each is accepted",
    "plot-end-date": "a plot up to now ('since' a date, 'the last N weeks'): WorkBench expects it to end yesterday; ending today is accepted too",
    "write-order": "independent writes in another order: WorkBench's ordered table comparison fails them; accepted",
}
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
        by_class = {cls: sum(1 for cs in self.corrections.values() if any(c["class"] == cls for c in cs))
                    for cls in CLASS_NAMES}
        shown = ", ".join(f"{n} {cls}" for cls, n in by_class.items() if n)
        return (f"imported {len(self.imported)} WorkBench tasks into {self.out} "
                f"({len(self.no_action)} need no action, {len(self.corrections)} corrected"
                f"{': ' + shown if shown else ''}); report: {self.out / REPORT_FILE}")


# ---- the source ----------------------------------------------------------------------------------
def fetch_source(dest: Path | None = None) -> Path:
    """Clone WorkBench at the pinned commit (needs git and the network); returns the checkout."""
    return clone_pinned(REPOSITORY, PINNED_COMMIT, "workbench", "data/processed", dest)


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


# ---- corrections ---------------------------------------------------------------------------------
def load_overlay(path: Path = OVERLAY_FILE) -> dict[str, dict]:
    """Our corrections by task id (overlay.yaml): class, what WorkBench expects, what we do, and a
    corrected ``gold`` and/or other accepted readings (``accept``), as WorkBench call strings."""
    if not Path(path).is_file():
        return {}
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    for task_id, entry in data.items():
        if entry.get("class") not in CLASS_NAMES:
            raise ValueError(f"{path}: {task_id}: class must be one of {sorted(CLASS_NAMES)}")
    return data


# A query whose plot runs up to now without naming its end: "since <date>", "(over) the last N weeks",
# "more than 5% lower than <date>? If so, plot it" (but not "than it was the previous Monday", a closed period).
OPEN_END = re.compile(r"\bsince\b|\blast \d+ weeks\b|% (?:higher|lower) than (?!it was the previous)", re.I)


def plot_end_readings(query: Query, calls: list[Call]) -> list[list[Call]]:
    """Plots up to now ('since <date>', 'the last N weeks') end yesterday in WorkBench's ground truth; a
    plot ending today (the query does not say) is the same request."""
    if not OPEN_END.search(query.query) or not any(
            c.tool == "analytics.create_plot" and c.args.get("time_max") == YESTERDAY for c in calls):
        return []
    moved = [Call(c.tool, {**c.args, "time_max": TODAY}, c.text) if c.tool == "analytics.create_plot"
             and c.args.get("time_max") == YESTERDAY else c for c in calls]
    return [moved]


def _frames_equal(tables: dict[str, list[Row]], a: list[Call], b: list[Call]) -> bool:
    """WorkBench's verdict on two call lists (evaluators/workbench_original.py)."""
    from officesim.evaluators.workbench_original import replay as frame_replay

    x = frame_replay(tables, [(c.tool, c.args) for c in a])
    y = frame_replay(tables, [(c.tool, c.args) for c in b])
    def low(t, frame):
        return [(label, tuple(v.lower() if isinstance(v, str) and col not in NOT_LOWERED else v
                              for col, v in ((col, r.get(col)) for col in TABLES[t][1]))) for label, r in frame]
    return all(low(t, x.frames[t]) == low(t, y.frames[t]) for t in STATE_TABLES)


def order_matters(tables: dict[str, list[Row]], calls: list[Call]) -> bool:
    """The ground truth's writes in reverse order reach the same end state for officesim and not for
    WorkBench (its tables are compared row by row in order, with their index labels)."""
    if len(calls) < 2:
        return False
    reverse = list(reversed(calls))
    ours = _digests(tables, calls) == _digests(tables, reverse)
    return ours and not _frames_equal(tables, calls, reverse)


def _digests(tables: dict[str, list[Row]], calls: list[Call]) -> dict[str, str]:
    after = replay(tables, calls)
    return {t: state_digest(t, after.rows(t)) for t in STATE_TABLES}


# ---- one task ------------------------------------------------------------------------------------
def build_task(query: Query, tables: dict[str, list[Row]], correction: dict | None = None) -> tuple[dict, list[dict]]:
    """The task of one query, and the corrections made (the overlay's, and those found by rule)."""
    correction = correction or {}
    corrections = []
    calls = [parse_call(t) for t in correction["gold"]] if "gold" in correction else query.answer
    readings = [calls] + [[parse_call(t) for t in reading] for reading in correction.get("accept", [])]
    if correction:
        corrections.append({k: correction[k] for k in ("class", "what", "did") if k in correction})
    by_rule = plot_end_readings(query, calls)
    if by_rule:
        readings += by_rule
        corrections.append({"class": "plot-end-date", "what": f"the plot ends {YESTERDAY} (yesterday)",
                            "did": f"accepted ending {YESTERDAY} or {TODAY} (today)"})
    if order_matters(tables, query.answer):
        corrections.append({"class": "write-order", "what": "the ground truth's writes in its order (tables compared row by row)",
                            "did": "the same writes in any order (the same end state)"})
    after = replay(tables, calls)
    checks = expectations(tables, after)
    apps = apps_of(query, [c for r in readings for c in r])
    no_action = not checks and len(readings) == 1
    free, right = [], []
    if len(readings) > 1:  # several end states: their tables are judged whole by workbench_state
        digests = [_digests(tables, r) for r in readings]
        base = _digests(tables, [])
        no_action = base in digests  # one accepted reading changes nothing: doing nothing is right
        varied = [t for t in STATE_TABLES if any(d[t] != base[t] for d in digests)]
        checks = [c for c in checks if c["args"]["table"] not in varied]
        for t in varied:
            checks.append({"check": "workbench_state", "args": {"table": t, "accepted": list(dict.fromkeys(d[t] for d in digests))}})
            free.append(TABLE_PATHS[t])
        right = [{"name": f"reading {i}", "actions": gold_actions(r)} for i, r in enumerate(readings[1:], start=2)]
    if not checks:  # nothing changes: the outcome comparison judges; the check states the table is intact
        checks = [{"check": "workbench_rows", "args": {"table": _first_table(apps)}}]
    task = {
        "id": query.id,
        "scenario": f"workbench-{query.domain}-{_slug(query.base_template)}",
        "category": min(3, len(apps)),
        "toolset": "workbench",
        "apps": apps,
        "user": USER,
        "user_name": USER_NAME,
        "now": NOW.strftime("%Y-%m-%d %H:%M:%S"),
        "timezone": "UTC",
        "instruction": correction.get("instruction", query.query),
        "office_from": f"../{OFFICE_DIR}",
        "checks": checks,
        "gold": gold_actions(calls),
        "no_action": no_action,
        "free": free,
        "right": right,
        "tags": ["workbench", f"workbench-{query.domain}"] + (["no-action"] if no_action else [])
                + [f"corrected-{c['class']}" for c in corrections],
        "origin": {"benchmark": "workbench", "id": f"{query.domain}/{query.n}",
                   "evaluation": [{"ground_truth": [c.text for c in query.answer],
                                   "template": query.base_template, "domains": query.domains}]},
    }
    return task, corrections


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
def import_workbench(source: Path, out: Path, *, only: list[str] | None = None,
                     overlay: dict[str, dict] | None = None) -> ImportReport:
    """Write the shared office and one task folder per query into ``out``.

    Everything is built in a temporary folder inside ``out`` and moved into place only when every
    query was read: a source that cannot be imported (SourceError, one line naming the file and the
    field) leaves ``out`` as it was; nothing is written outside ``out``."""
    source, out = check_source(Path(source)), Path(out)
    overlay = load_overlay() if overlay is None else overlay
    tables = load_tables(source)
    queries = load_queries(source)
    report = ImportReport(source=source, out=out)
    built: list[tuple[str, dict]] = []
    for query in queries:
        if only and query.id not in only:
            continue
        try:
            task, corrections = build_task(query, tables, overlay.get(query.id))
        except SourceError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise SourceError(f"{QUERY_DIR}/{DOMAIN_FILES[query.domain]}: query {query.n}: field 'answer': "
                              f"the ground truth cannot be replayed ({type(exc).__name__}: {exc})") from None
        if corrections:
            report.corrections[query.id] = corrections
        built.append((query.id, task))
        report.imported.append(query.id)
        if task["no_action"]:
            report.no_action.append(query.id)
    with staging(out, "workbench-import") as tmp:
        office = tmp / OFFICE_DIR
        for row in tables["emails"]:  # every file the office gets stays in it (ids are checked plain, too)
            inside(office / email_path(USER, row), office, f"email_id {row['email_id']!r}")
        write_office(office, tables, USER)
        for task_id, task in built:
            (tmp / task_id).mkdir()
            (tmp / task_id / "task.yaml").write_text(_dump(task), encoding="utf-8")
        (tmp / REPORT_FILE).write_text(json.dumps(report.as_dict(), indent=1) + "\n", encoding="utf-8")
        install(office, out, OFFICE_DIR)
        for task_id, _task in built:
            install(tmp / task_id, out, task_id)
        if not only:  # a full import: folders of an earlier import that this one did not write go
            written = set(report.imported)
            for stale in out.glob("workbench-*"):
                if stale.is_dir() and not stale.is_symlink() and stale.name not in written \
                        and (stale / "task.yaml").is_file():
                    shutil.rmtree(stale)
        install(tmp / REPORT_FILE, out, REPORT_FILE)
    return report


def corrections_markdown(report: ImportReport) -> str:
    """The correction table of docs/workbench-verified.md: counts by class, then one row per corrected task."""
    from collections import Counter

    counts = Counter(c["class"] for cs in report.corrections.values() for c in cs)
    lines = ["| class | what | tasks |", "|---|---|---|"]
    lines += [f"| `{cls}` | {CLASS_NAMES[cls]} | {n} |" for cls, n in sorted(counts.items())]
    lines += ["", "| task | class | what WorkBench expects | what officesim accepts |", "|---|---|---|---|"]
    for task_id in sorted(report.corrections, key=_order):
        for c in report.corrections[task_id]:
            what, did = (str(c.get(k, "")).replace("|", "\\|").replace("\n", " ") for k in ("what", "did"))
            lines.append(f"| {task_id.removeprefix('workbench-')} | `{c['class']}` | {what} | {did} |")
    return "\n".join(lines) + "\n"


def _order(task_id: str) -> tuple:
    domain, _, n = task_id.removeprefix("workbench-").rpartition("-")
    return domain, int(n)
