"""Load and validate task files; report every problem with its file and field, not just the first.

A task lives in ``<dir>/<task_id>/task.yaml`` (optionally with a ``files/`` folder). ``load_tasks``
reads the built-in suite plus any extra directories (a directory of task folders, one task folder,
or one YAML file).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import pickle
import tempfile
import threading
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

import yaml
from pydantic import ValidationError

from officesim.tasks.model import Task
from officesim.testbed import pickles

SUITE_DIR = Path(__file__).resolve().parent / "suite"
HARD_DIR = Path(__file__).resolve().parent / "hard"  # the hard split: long tasks in lived-in offices
TASK_FILE = "task.yaml"

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class TaskLoadError(Exception):
    """Raised with every problem found, one ``file: field: message`` line each."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s) in task files:\n" + "\n".join(problems))


def task_files(directory: Path) -> list[Path]:
    """Every task file under a directory (task folders one level down), a task folder, or a file."""
    directory = Path(directory)
    if directory.is_file():
        return [directory]
    if (directory / TASK_FILE).is_file():
        return [directory / TASK_FILE]
    if not directory.is_dir():
        raise TaskLoadError([f"{directory}: no such task directory"])
    return sorted(p for p in directory.glob(f"*/{TASK_FILE}"))


def _field(loc: Iterable) -> str:
    parts = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        else:
            parts.append(("." if parts else "") + str(item))
    return "".join(parts) or "(task)"


class _YamlIndex:
    """What YAML made of each task file, kept as JSON by the file's SHA-256 (one file per machine, beside
    the templates): building Python objects from YAML costs about 14 ms a task file even with libyaml's
    C parser (6.6 s for the 483 files of the suite and the hard split, most of a server's start), loading
    the JSON of all of them about 0.2 s. A file whose bytes change has another digest, so it is parsed
    again; the index is rewritten (atomically) only when something was parsed."""

    VERSION = 1
    MAX_ENTRIES = 20_000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[str, str] | None = None
        self._dirty = False
        self._used: set[str] = set()

    def _path(self) -> Path:
        from officesim.testbed.materialise import cache_root

        return cache_root() / f"task-index-v{self.VERSION}.json"

    def _load(self) -> dict[str, str]:
        if self._entries is None:
            try:
                self._entries = json.loads(self._path().read_text(encoding="utf-8"))
                if not isinstance(self._entries, dict):
                    self._entries = {}
            except (OSError, ValueError):
                self._entries = {}
        return self._entries

    def raw(self, text: str) -> Any:
        """The YAML of ``text`` as Python objects, from the index when it holds them."""
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        with self._lock:
            hit = self._load().get(digest)
            self._used.add(digest)
        if isinstance(hit, str):
            return json.loads(hit, object_hook=_from_json)  # fresh objects: a caller may change them
        raw = yaml.load(text, Loader=_Loader)
        try:
            kept = json.dumps(raw, default=_to_json)
        except (TypeError, ValueError):
            return raw  # something JSON cannot hold: parsed each time
        with self._lock:
            self._load()[digest] = kept
            self._dirty = True
        return raw

    def save(self) -> None:
        """Write the index when it gained entries (a failure to write only costs the next start time)."""
        with self._lock:
            if not self._dirty or self._entries is None:
                return
            if len(self._entries) > self.MAX_ENTRIES:  # old versions of edited files: keep what was used
                self._entries = {k: v for k, v in self._entries.items() if k in self._used}
            try:
                target = self._path()
                fd, tmp = tempfile.mkstemp(prefix=".task-index-", dir=target.parent)
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    json.dump(self._entries, out)
                os.replace(tmp, target)
                self._dirty = False
            except OSError:
                pass


def _to_json(value: Any) -> Any:
    if isinstance(value, _dt.datetime):
        return {"__datetime__": value.isoformat()}
    if isinstance(value, _dt.date):
        return {"__date__": value.isoformat()}
    raise TypeError(f"{type(value).__name__} is not JSON")


def _from_json(value: dict) -> Any:
    if len(value) == 1:
        if "__datetime__" in value:
            return _dt.datetime.fromisoformat(value["__datetime__"])
        if "__date__" in value:
            return _dt.date.fromisoformat(value["__date__"])
    return value


_INDEX = _YamlIndex()


def parse_task_file(path: Path, data: bytes | None = None) -> tuple[Task | None, list[str]]:
    """Parse one task file (``data``: its bytes, when already read); returns the task (or None) and the
    problems found."""
    try:
        text = (path.read_bytes() if data is None else data).decode("utf-8")
        raw = _INDEX.raw(text)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        return None, [f"{path}: cannot read YAML: {exc}"]
    if not isinstance(raw, dict):
        return None, [f"{path}: a task file must hold a mapping of fields"]
    try:
        task = Task.model_validate(raw)
    except ValidationError as exc:
        return None, [f"{path}: {_field(e['loc'])}: {e['msg']}" for e in exc.errors()]
    problems = _check_problems(task, path)
    if path.name == TASK_FILE and path.parent.name != task.id:
        problems.append(f"{path}: id: '{task.id}' differs from its folder name '{path.parent.name}'")
    task.source_dir = str(path.parent)
    return task, problems


def _check_problems(task: Task, path: Path) -> list[str]:
    """Unknown check names and bad check arguments, found at load time rather than at evaluation."""
    try:
        from officesim.evaluators import validate_check
    except ImportError:  # the evaluator library is optional for loading alone
        return []
    problems = []
    for i, chk in enumerate(task.checks):
        for problem in validate_check(chk.check, chk.args):
            problems.append(f"{path}: checks[{i}] ({chk.check}): {problem}")
    return problems


def _named_files(source: Path, ids: set[str]) -> list[Path]:
    """The files of the tasks ``ids`` in a source, found by folder name (a task's folder is named as its
    id): a run of a few tasks parses a few files, not the suite."""
    source = Path(source)
    if source.is_file() or (source / TASK_FILE).is_file():
        return task_files(source)
    return [source / i / TASK_FILE for i in sorted(ids)
            if "/" not in i and not i.startswith(".") and (source / i / TASK_FILE).is_file()]


CACHED_FROM = 32  # task files: from this many on, a load is kept whole in the machine's store


class TaskTable(Mapping[str, Task]):
    """Tasks by id. A task read from the machine's store stays pickled until it is first asked for (a
    server answers /health before it has built 483 tasks of ~50 models each; a session builds its own
    in about a millisecond), then it is kept."""

    def __init__(self, entries: dict[str, "Task | bytes"]):
        self._entries = entries

    def __getitem__(self, task_id: str) -> Task:
        entry = self._entries[task_id]
        if isinstance(entry, bytes):  # two threads may both build it: either result is the same task
            entry = self._entries[task_id] = pickles.loads(entry)
        return entry

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, task_id: object) -> bool:
        return task_id in self._entries

    def __repr__(self) -> str:
        return f"TaskTable({len(self)} tasks)"


_Parsed = tuple["str | None", "Task | bytes | None", list[str]]  # id, the task (or its pickle), problems


def _parse(path: Path, data: bytes | None = None) -> _Parsed:
    task, problems = parse_task_file(path, data)
    return (task.id if task is not None else None), task, problems


def _parse_files(files: list[Path]) -> list[_Parsed]:
    """Each file parsed and validated (``parse_task_file``). A load of many files is kept whole in the
    machine's store of reference states (testbed/refstore.py: a private folder, pickles), named by every
    file's path and bytes and the code's source: validating the 483 task files of the suite and the hard
    split (and importing the evaluators to check their checks) was most of a server's start, and every
    server process, ``eval`` and ``validate`` repeated it on the same files."""
    if len(files) < CACHED_FROM:
        return [_parse(path) for path in files]
    from officesim.testbed import refstore

    data: list[bytes | None] = []
    digest = hashlib.sha256(refstore.code_version().encode())
    for path in files:
        try:
            data.append(path.read_bytes())
        except OSError:
            data.append(None)
        digest.update(b"\0" + os.path.abspath(path).encode() + b"\0"
                      + (hashlib.sha256(data[-1]).digest() if data[-1] is not None else b"-"))
    if any(blob is None for blob in data):  # a file that cannot be read is reported, never kept
        return [_parse(path, blob) for path, blob in zip(files, data)]
    name = digest.hexdigest()[:32]
    kept = refstore.load("tasks", name)
    if kept is not None:
        return kept
    parsed = [_parse(path, blob) for path, blob in zip(files, data)]
    refstore.store("tasks", name, [(i, pickle.dumps(t, protocol=pickle.HIGHEST_PROTOCOL) if t is not None else None, p)
                                   for i, t, p in parsed])
    return parsed


def load_tasks(dirs: Iterable[Path] | None = None, include_suite: bool = True,
               only: Iterable[str] | None = None) -> TaskTable:
    """All tasks of the suite (unless excluded) and of ``dirs``, by id; raises TaskLoadError.

    ``only``: the tasks of these ids (others may come along), parsed from their folders alone; when one
    is not found so, everything is loaded (a task file named otherwise, and the errors, as without it).
    """
    dirs = list(dirs or [])
    wanted = set(only) if only is not None else None
    built_in = [d for d in (SUITE_DIR, HARD_DIR) if d.is_dir()] if include_suite else []
    sources = built_in + [Path(d) for d in dirs]
    tasks: dict[str, Task | bytes] = {}
    where: dict[str, Path] = {}
    problems: list[str] = []
    files: list[Path] = []
    for source in sources:
        try:
            files += task_files(source) if wanted is None else _named_files(source, wanted)
        except TaskLoadError as exc:
            problems.extend(exc.problems)
    for path, (task_id, task, found) in zip(files, _parse_files(files)):
        problems.extend(found)
        if task_id is None or task is None:
            continue
        if task_id in tasks:
            problems.append(f"{path}: id: '{task_id}' is also defined in {where[task_id]}")
            continue
        tasks[task_id] = task
        where[task_id] = path
    _INDEX.save()
    if wanted is not None and not wanted <= set(tasks):
        return load_tasks(dirs, include_suite)
    if problems:
        raise TaskLoadError(problems)
    return TaskTable(tasks)
