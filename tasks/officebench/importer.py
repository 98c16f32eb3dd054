"""Import OfficeBench's 300 subtasks as officesim tasks: `officesim import officebench`.

One task per subtask ``tasks/<cat>-<n>/subtasks/<k>.json``, id ``officebench-<cat>-<n>-<k>``:

- the office is the subtask's ``testbed/`` copied as real files (the task's ``files/``); ``reference/``
  is copied beside it for the original evaluation;
- ``now`` from the subtask's date and time, the user and every person the task names (its mailbox
  folders, calendars, mail recipients) as ``people`` (``Bob: bob@example.com``), so agents may name
  them by first name (apps/people.py);
- the original evaluation kept verbatim (``origin``, run for the original score) and translated into
  officesim checks (translate.py);
- our own content from the overlay (``overlay/<cat>-<n>.yaml``, keyed by subtask): the gold solution,
  the answer, corrected or added checks, free paths, wrong and right solutions, notes, the corrections
  made and why, or the reason a subtask is excluded;
- the category is OfficeBench's (so pass rates compare with published ones by category); the apps
  are those the gold solution uses, completed from the instruction's words up to that category. A
  few OfficeBench tasks need fewer apps than their category says (a question on one image).

A subtask without a gold solution yet is *pending*: not written (``--include-pending`` writes it,
unproven, tagged ``pending``). Every written task is meant to pass ``officesim validate``.
"""

from __future__ import annotations

import fnmatch
import json
import re
import shutil
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from officesim.tasks._confine import SourceError, check_tree, copy_tree, inside, install, read_source_text, staging
from officesim.tasks.officebench.translate import Correction, translate
from officesim.tasks._clone import clone_pinned

PINNED_COMMIT = "4434746ed44f03373031c89eb7677ffedd1ee6e4"
REPOSITORY = "https://github.com/zlwang-cs/OfficeBench"
OVERLAY_DIR = Path(__file__).resolve().parent / "overlay"
REPORT_FILE = "officebench-import.json"
DOMAIN = "example.com"  # OfficeBench's send_email writes <name>@example.com

_APP_WORDS = [  # instruction words that name an app, to complete the apps up to the category
    ("excel", r"excel|xlsx|spreadsheet|workbook"),
    ("word", r"\bword\b|docx|\bdoc\b"),
    ("pdf", r"\bpdf"),
    ("calendar", r"calendar|\.ics\b|\bevents?\b|schedule"),
    ("email", r"e-?mails?\b|\.eml\b"),
    ("ocr", r"\bocr\b|image|\.jpg|\.png|scan|handwritten|card"),
    ("shell", r"folder|rename|director|\bmove\b|duplicate|delete|\.txt\b"),
]


@dataclass
class Subtask:
    cat: int
    n: int
    k: int
    folder: Path  # tasks/<cat>-<n>
    config: dict
    path: Path | None = None  # tasks/<cat>-<n>/subtasks/<k>.json

    @property
    def key(self) -> str:
        return f"{self.cat}-{self.n}/{self.k}"

    @property
    def id(self) -> str:
        return f"officebench-{self.cat}-{self.n}-{self.k}"


@dataclass
class ImportReport:
    source: Path
    out: Path
    imported: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    excluded: dict[str, str] = field(default_factory=dict)
    corrections: dict[str, list[dict]] = field(default_factory=dict)
    problems: dict[str, list[str]] = field(default_factory=dict)
    total: int = 0

    def as_dict(self) -> dict:
        return {"source": str(self.source), "commit": PINNED_COMMIT, "total": self.total,
                "imported": self.imported, "pending": self.pending, "excluded": self.excluded,
                "corrections": self.corrections, "problems": self.problems}

    def correction_counts(self) -> Counter:
        return Counter(c["class"] for cs in self.corrections.values() for c in cs)

    def text(self) -> str:
        lines = [f"OfficeBench {PINNED_COMMIT[:7]} from {self.source}: {self.total} subtasks",
                 f"imported {len(self.imported)} task(s) into {self.out} (each with our gold solution)"]
        corrected = [i for i in self.imported if self.corrections.get(i)]
        counts = self.correction_counts()
        lines.append(f"corrected {len(corrected)} of them: "
                     + (", ".join(f"{n} {c}" for c, n in counts.most_common()) or "none"))
        for task_id in corrected:
            for c in self.corrections[task_id]:
                lines.append(f"  {task_id} [{c['class']}] {c['what']} -> {c['did']}")
        lines.append(f"excluded {len(self.excluded)}" + (":" if self.excluded else ""))
        lines += [f"  {task_id}: {reason}" for task_id, reason in self.excluded.items()]
        if self.pending:
            shown = " ".join(self.pending[:8]) + (" ..." if len(self.pending) > 8 else "")
            lines.append(f"pending {len(self.pending)} (no gold solution yet; not written unless --include-pending; "
                         f"all listed in {REPORT_FILE}): {shown}")
        for task_id, problems in self.problems.items():
            lines += [f"  problem {task_id}: {p}" for p in problems]
        return "\n".join(lines)


# ---- the source ----------------------------------------------------------------------------------
def fetch_source(dest: Path | None = None) -> Path:
    """Clone OfficeBench at the pinned commit (needs git and the network); returns the checkout."""
    return clone_pinned(REPOSITORY, PINNED_COMMIT, "officebench", "tasks", dest)


def subtasks(source: Path) -> list[Subtask]:
    """Every subtask of a checkout, in OfficeBench's order (category, task number, subtask). A subtask
    file or folder that a link leads out of the checkout, malformed JSON or a missing or mistyped field
    is a SourceError naming the file and the field."""
    root = Path(source) / "tasks"
    if not root.is_dir():
        raise FileNotFoundError(f"{source} has no tasks/ folder: not an OfficeBench checkout")
    out = []
    for path in root.glob("*/subtasks/*.json"):
        m = re.fullmatch(r"(\d+)-(\d+)", path.parent.parent.name)
        if not m or not path.stem.isdigit():
            continue
        inside(path.parent.parent, source, str(path.parent.parent))
        try:  # a link out of the source or a hard link is refused (on the open file)
            config = json.loads(read_source_text(path, source, str(path)))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise SourceError(f"{path}: malformed JSON ({exc})") from None
        check_config(config, path)
        out.append(Subtask(int(m.group(1)), int(m.group(2)), int(path.stem), path.parent.parent, config, path))
    return sorted(out, key=lambda s: (s.cat, s.n, s.k))


def check_config(config: Any, path: Path) -> None:
    """The fields of a subtask file the import relies on, each of the type it must have."""
    if not isinstance(config, dict):
        raise SourceError(f"{path}: not a JSON object")
    for key in ("task", "username", "date", "time"):
        if not isinstance(config.get(key), str) or not config[key].strip():
            raise SourceError(f"{path}: field {key!r} missing or not a text")
    if not _person_like(config["username"]):
        raise SourceError(f"{path}: field 'username' {config['username']!r} is not a name")
    try:
        _now(config)
    except ValueError:
        raise SourceError(f"{path}: fields 'date' and 'time' {config['date']!r} {config['time']!r} "
                          "are not a date (YYYY-MM-DD) and a time (H:MM AM)") from None
    evaluation = config.get("evaluation", [])
    if not isinstance(evaluation, list):
        raise SourceError(f"{path}: field 'evaluation' is not a list")
    for i, item in enumerate(evaluation):
        if not isinstance(item, dict) or not isinstance(item.get("function"), str) \
                or not isinstance(item.get("args", {}), (dict, type(None))):
            raise SourceError(f"{path}: field 'evaluation[{i}]' is not an object with a function and its args")


def load_overlay(directory: Path = OVERLAY_DIR) -> dict[str, dict]:
    """Overlay entries by subtask key ('1-4/0'); files are ``<cat>-<n>.yaml`` mapping subtask -> entry."""
    out: dict[str, dict] = {}
    for path in sorted(Path(directory).glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for k, entry in data.items():
            out[f"{path.stem}/{k}"] = entry or {}
    return out


# ---- building one task ---------------------------------------------------------------------------
def expand_actions(items: list[Any]) -> list[dict]:
    """Overlay actions ({app, action, args}, ``{"excel.set_cell": {...}}`` or ``"system.paste"``) as API
    actions, with ``switch_app`` inserted where the app changes."""
    out, current = [], "system"
    for item in items or []:
        if isinstance(item, dict) and "app" in item:
            act = {"app": item["app"], "action": item["action"], "args": dict(item.get("args") or {})}
        elif isinstance(item, dict) and len(item) == 1:
            (key, args), = item.items()
            app, action = key.split(".", 1)
            act = {"app": app, "action": action, "args": dict(args or {})}
        elif isinstance(item, str):
            app, action = item.split(".", 1)
            act = {"app": app, "action": action, "args": {}}
        else:
            raise ValueError(f"not an action: {item!r}")
        if act["app"] != "system" and act["app"] != current:
            out.append({"app": "system", "action": "switch_app", "args": {"target_app": act["app"]}})
            current = act["app"]
        if act["action"] == "switch_app":
            current = str(act["args"].get("target_app"))
        out.append(act)
    return out


def _checks(items: list[Any]) -> list[dict]:
    """Overlay checks: ``{check, args}`` or ``{"xlsx_cell": {...}}``."""
    out = []
    for item in items or []:
        if "check" in item:
            out.append({"check": item["check"], "args": dict(item.get("args") or {})})
        else:
            (name, args), = item.items()
            out.append({"check": name, "args": dict(args or {})})
    return out


def _now(config: dict) -> str:
    moment = datetime.strptime(f"{config['date']} {config['time']}", "%Y-%m-%d %I:%M %p")
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def _person_like(name: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z][A-Za-z0-9.]*", name))


def people_of(sub: Subtask, extra: dict | None = None, known: set[str] = frozenset()) -> dict[str, str]:
    """The user, every mailbox the evaluation searches, every capitalised calendar it names, the
    testbed's mailbox folders and calendars, and any ``known`` name (a person of another subtask) the
    instruction names, as ``{Name: name@example.com}``."""
    names = [sub.config["username"]]
    names += sorted(n for n in known if re.search(rf"\b{re.escape(n)}\b", sub.config["task"]))
    for item in sub.config.get("evaluation", []):
        args = item.get("args") or {}
        if args.get("doc_type") == "email" or item.get("function") == "evaluate_calendar_no_overlap":
            names.append(str(args.get("username")))
        for key in ("file", "result_file"):
            m = re.fullmatch(r"(?:\./)?calendar/([^/]+)\.ics", str(args.get(key, "")))
            if m and m.group(1)[:1].isupper():
                names.append(m.group(1))
    testbed = sub.folder / "testbed"
    names += sorted(p.name for p in (testbed / "emails").glob("*") if p.is_dir())
    names += sorted(p.stem for p in (testbed / "calendar").glob("*.ics") if p.stem[:1].isupper())
    people: dict[str, str] = {}
    for name in names:
        if _person_like(name) and name.casefold() not in {n.casefold() for n in people}:
            people[name] = f"{name.lower()}@{DOMAIN}"
    if isinstance(extra, list):  # the overlay may name further people (found in the task's files) by name
        extra = {name: f"{name.lower()}@{DOMAIN}" for name in extra}
    people.update(extra or {})
    return people


def infer_apps(gold: list[dict], instruction: str, category: int) -> list[str]:
    """The apps the gold solution uses, completed from the instruction's words up to ``category``."""
    apps: list[str] = []
    for act in gold:
        if act["app"] != "system" and act["app"] not in apps:
            apps.append(act["app"])
    text = instruction.lower()
    found = sorted((m.start(), app) for app, pattern in _APP_WORDS for m in [re.search(pattern, text)] if m)
    for _pos, app in found:
        if len(apps) >= category:
            break
        if app not in apps:
            apps.append(app)
    return apps


def build_task(sub: Subtask, entry: dict, known: set[str] = frozenset()) -> tuple[dict, list[Correction], list[str]]:
    """The task dict of one subtask with its overlay entry, the corrections, and problems found."""
    config = sub.config
    try:
        translation = translate(config.get("evaluation", []), reference_dir=sub.folder / "reference",
                                testbed_dir=sub.folder / "testbed")
    except SourceError as exc:
        raise SourceError(f"{sub.path or sub.folder}: field {exc}") from None
    problems = []
    gold = expand_actions(entry.get("gold", []))
    people = people_of(sub, entry.get("people"), known)
    name = config["username"]
    checks = _checks(entry["checks"]) if "checks" in entry else translation.checks
    checks = checks + _checks(entry.get("add_checks", []))
    if translation.unresolved and "checks" not in entry:
        problems.append(f"no faithful translation for {', '.join(translation.unresolved)} (the overlay must give checks)")
    apps = infer_apps(gold, str(entry.get("instruction", config["task"])), sub.cat)
    if not apps:
        problems.append("no app: the gold solution uses none and the instruction names none")
    corrections = [_as_checked(c, checks) for c in translation.corrections] + [
        Correction(c["class"], c["what"], c["did"]) for c in entry.get("corrections", [])]
    if checks != translation.checks and not entry.get("corrections"):
        corrections.append(checks_changed(translation.checks, checks))
    task: dict[str, Any] = {
        "id": sub.id,
        "scenario": f"officebench-{sub.cat}-{sub.n}",
        "category": sub.cat,  # OfficeBench's, so results compare by category (the apps may be fewer)
        "apps": apps,
        "user": people.get(name, f"{name.lower()}@{DOMAIN}"),
        "user_name": name,
        "now": _now(config),
        "instruction": str(entry.get("instruction", config["task"])).strip(),
        "people": people,
        "origin": {"benchmark": "officebench", "id": sub.key, "evaluation": config.get("evaluation", [])},
        "checks": checks,
        "gold": gold,
    }
    for key in ("answer", "no_action", "free", "choices"):
        if key in entry:
            task[key] = entry[key]
    task["checks"] = checks + _no_repeats_checks(gold, entry.get("free", []), checks)
    for key in ("wrong", "right"):
        if entry.get(key):
            task[key] = [{"name": w["name"], "actions": expand_actions(w.get("actions", [])),
                          **({"answer": w["answer"]} if "answer" in w else {})} for w in entry[key]]
    task["tags"] = ["officebench"] + (["corrected"] if corrections else [])
    return task, corrections, problems


_FILE_NAME = re.compile(r"[\w./-]*\w\.(?:xlsx|docx|doc|pdf|txt|ics|eml|csv|jpg|jpeg|png)\b")


def _as_checked(correction: Correction, checks: list[dict]) -> Correction:
    """A translation's correction as the task's checks carry it out: one whose remedy names a file no
    check reads (the overlay's checks read another, e.g. the file the task really has) says so."""
    used = {str(c["args"].get("file", "")) for c in checks}
    named = _FILE_NAME.findall(correction.did)
    if named and not any(n in used for n in named):
        return Correction(correction.cls, correction.what,
                          f"the task's own checks judge it ({', '.join(sorted(used - {''})) or 'no file'}), "
                          "as the task's other corrections say")
    return correction


def _describe(check: dict) -> str:
    """A check in a few words: its name and its arguments (long lists cut)."""
    def short(v: Any) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(short(x) for x in v[:6]) + (", ..." if len(v) > 6 else "") + "]"
        text = str(v)
        return text if len(text) <= 60 else text[:57] + "..."
    return f"{check['check']}(" + ", ".join(f"{k}={short(v)}" for k, v in check["args"].items()) + ")"


def checks_changed(original: list[dict], ours: list[dict]) -> Correction:
    """The correction recorded for checks the overlay changes without a correction of its own: what the
    original checks and what officesim checks instead, so every task graded differently says how."""
    dropped = [c for c in original if c not in ours]
    added = [c for c in ours if c not in original]
    kept = [c for c in original if c in ours]
    cls = "stricter-check" if all(_within(d, added) for d in dropped) else "changed-check"

    def listed(checks: list[dict]) -> str:
        return "; ".join(_describe(c) for c in checks[:4]) + (f"; and {len(checks) - 4} more" if len(checks) > 4 else "")

    if dropped:
        what = f"the original checks {listed(dropped)}" + (f" (besides {listed(kept)})" if kept else "")
        did = f"checks {listed(added)} instead" if added else "no longer checks it (the other checks and the outcome comparison judge)"
    else:
        what = f"the original checks only {listed(original) or 'nothing'}"
        did = f"also checks {listed(added)}"
    return Correction(cls, what, did)


def _within(dropped: dict, added: list[dict]) -> bool:
    """Whether an added check of the same kind, on the same file or person, takes the dropped one's place
    with its expectations kept (an answer that must also exclude, a cell with its row)."""
    key = lambda c: (c["check"], c["args"].get("file"), c["args"].get("user"))
    for a in added:
        if key(a) == key(dropped) and all(a["args"].get(k) == v for k, v in dropped["args"].items()):
            return True
    return False


def _no_repeats_checks(gold: list[dict], free: list[str], checks: list[dict]) -> list[dict]:
    """A ``no_repeats`` check for every document the gold writes with ``word.write_to_file`` into a free
    path, unless the gold's own text repeats a line (one letter per student): the outcome comparison
    leaves a free file's text to the checks, and a text written twice beside itself is a wrong outcome
    whatever the layout."""
    lines: dict[str, list[str]] = {}
    for a in gold:
        if a["app"] == "word" and a["action"] == "write_to_file":
            text = str(a["args"].get("contents", ""))
            lines.setdefault(str(a["args"].get("file_path", "")), []).extend(
                x.strip().lower() for x in text.splitlines() if x.strip())
    present = {str(c["args"].get("file", "")) for c in checks if c["check"] == "no_repeats"}
    return [{"check": "no_repeats", "args": {"file": path}} for path, written in lines.items()
            if path and path not in present and len(set(written)) == len(written)
            and any(fnmatch.fnmatchcase(path, g) for g in free)]


CLASS_NAMES = {  # the classes of correction, as docs/officebench-verified.md's table names them
    "mail-harness": "the mail reader reads the container's /testbed, not the graded folder",
    "missing-mailbox": "a mailbox search on a person without mail raises",
    "answer-file": "the answer is read from data/answer.txt",
    "calendar-utc": "a UTC calendar time the calendar app never writes",
    "arithmetic": "an expected value is arithmetically wrong",
    "wrong-expected": "an expected value or reference is wrong for the task's own files",
    "other-file": "a check reads a file the task does not name",
    "file-name": "a check reads a misspelt or miscased file name",
    "no-file": "a cell check names no file",
    "missing-reference": "a reference file that does not exist",
    "exact-objects": "an exact match that compares objects and can never pass",
    "wrong-reader": "a file read with the wrong reader",
    "unwritable-path": "a file no app can write where it is expected",
    "unwritable-value": "an expected value the original app cannot write",
    "mail-file-name": "a mail expected under OfficeBench's file name",
    "do-nothing-passes": "the unchanged office passes",
    "file-only": "only a file's existence is checked",
    "weak-check": "a check too weak for the instruction",
    "trivial-keyword": "a keyword found trivially (a digit, 'no' in 'not')",
    "substring-keyword": "a keyword matched as a substring",
    "format-keyword": "a keyword that fixes a format the instruction does not",
    "typo": "a typo in an expected value",
    "swapped-keywords": "the checks of two subtasks swapped",
    "contradicts-instruction": "a check that contradicts the instruction",
    "ambiguous": "an ambiguous instruction",
    "ambiguous-date": "an ambiguous date with one accepted day",
    "unstated-headers": "headers the instruction never states",
    "data-missing": "the task's files lack what the instruction asks for",
    "stricter-check": "the original's checks kept, more checked (a wrong answer named too, the rest of the file)",
    "changed-check": "checks of the original replaced by ones the instruction supports",
}


def corrections_markdown(report: ImportReport) -> str:
    """The tables of docs/officebench-verified.md: corrections counted by class, then every correction and exclusion by task."""
    counts = report.correction_counts()
    tasks = {c: len({t for t, cs in report.corrections.items() if any(x["class"] == c for x in cs)}) for c in counts}
    lines = ["| class | what | corrections | tasks |", "|---|---|---|---|"]
    for cls, n in counts.most_common():
        lines.append(f"| `{cls}` | {CLASS_NAMES.get(cls, '')} | {n} | {tasks[cls]} |")
    lines += ["", "| task | class | what the original evaluation or ground truth gets wrong | what officesim does |",
              "|---|---|---|---|"]
    def cell(text: str) -> str:
        return str(text).replace("|", "\\|").replace("\n", " ")
    for task_id, cs in report.corrections.items():
        for c in cs:
            lines.append(f"| {task_id.removeprefix('officebench-')} | `{c['class']}` | {cell(c['what'])} | {cell(c['did'])} |")
    for task_id, reason in report.excluded.items():
        lines.append(f"| {task_id.removeprefix('officebench-')} | excluded | {cell(reason)} | not imported |")
    return "\n".join(lines) + "\n"


def _dump(task: dict) -> str:
    class Dumper(yaml.SafeDumper):
        pass

    def text(dumper, value):  # multi-line strings as blocks, the rest as usual
        style = "|" if "\n" in value else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Dumper.add_representer(str, text)
    return yaml.dump(task, Dumper=Dumper, sort_keys=False, allow_unicode=True, width=110)


def import_officebench(source: Path, out: Path, *, overlay: dict[str, dict] | None = None,
                       include_pending: bool = False, only: list[str] | None = None) -> ImportReport:
    """Write one task folder per subtask into ``out`` and report what was imported, corrected, excluded.

    Everything is built in a temporary folder inside ``out`` and moved into place only when every
    subtask was read: a source that cannot be imported (SourceError) leaves ``out`` as it was. Nothing
    is read through a link leading out of the source, nor written outside ``out``."""
    source, out = Path(source), Path(out)
    overlay = load_overlay() if overlay is None else overlay
    report = ImportReport(source=source, out=out)
    everything = subtasks(source)
    known = {name for sub in everything for name in people_of(sub) if name[:1].isupper()}
    built: list[tuple[Subtask, dict]] = []
    for sub in everything:
        if only and sub.id not in only and sub.key not in only:
            continue
        report.total += 1
        entry = overlay.get(sub.key, {})
        if entry.get("exclude"):
            report.excluded[sub.id] = str(entry["exclude"]).strip()
            continue
        if not entry.get("gold") and not entry.get("no_action"):
            report.pending.append(sub.id)
            if not include_pending:
                continue
        task, corrections, problems = build_task(sub, entry, known)
        if sub.id in report.pending:
            task["tags"].append("pending")
        built.append((sub, task))
        if sub.id not in report.pending:
            report.imported.append(sub.id)
        if corrections:
            report.corrections[sub.id] = [c.as_dict() for c in corrections]
        if problems:
            report.problems[sub.id] = problems
    with staging(out, "officebench-import") as tmp:
        for sub, task in built:
            _write(sub, task, tmp / sub.id, source)
        (tmp / REPORT_FILE).write_text(json.dumps(report.as_dict(), indent=1) + "\n", encoding="utf-8")
        for sub, _task in built:  # every folder is complete: now they take their places
            install(tmp / sub.id, out, sub.id)
        if not only:  # a full import: task folders of an earlier import that this one did not write go
            written = {sub.id for sub, _ in built}
            for stale in out.glob("officebench-*"):
                if stale.is_dir() and not stale.is_symlink() and stale.name not in written \
                        and (stale / "task.yaml").is_file():
                    shutil.rmtree(stale)
        install(tmp / REPORT_FILE, out, REPORT_FILE)
    return report


def _write(sub: Subtask, task: dict, dest: Path, source: Path) -> None:
    """One task folder: the subtask's testbed and reference as real files (checked first: no link out
    of the source, no link to a folder, no special file), and task.yaml."""
    dest.mkdir(parents=True)
    for name, target in (("testbed", "files"), ("reference", "reference")):
        folder = sub.folder / name
        if folder.is_dir() or folder.is_symlink():
            check_tree(folder, source, f"{sub.folder.name}/{name}")
            # contents only (a read-only checkout gives writable offices), each file checked as it is opened
            copy_tree(folder, dest / target, source, f"{sub.folder.name}/{name}")
    (dest / "task.yaml").write_text(_dump(task), encoding="utf-8")
