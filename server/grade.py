"""Grade one ended session from what it left: the pure part of an evaluation, which the server runs in a
worker of its pool (server/worker.py) under a time limit. ``GradingJob`` carries everything it reads
(the agent's changed files, its history, the task's reference states); ``grade`` returns the record.
The reference states themselves (the initial office, the gold run) are made by server/grading.py.
"""

from __future__ import annotations

import dataclasses
import json
import os
import posixpath
import re
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable

from officesim.apps.asking import ask_counts, asked_questions, person_names, unasked
from officesim.evaluators.facts import own_text
from officesim.evaluators.record import EpisodeRecord, task_request
from officesim.tasks.model import Task



TEXT_CHECKS = ("contains", "not_contains")  # checks that read a file's text, an image's by OCR


def with_image_text(files: dict[str, dict], checks: list[Any], root: Path) -> dict[str, dict]:
    """The parsed office with the OCR text of every image a text check names (``contains`` on a
    posted picture): only those, since tesseract costs a second a page; the outcome comparison
    keeps comparing pictures by their digests."""
    from officesim.apps.ocr import image_text
    from officesim.evaluators.state import office_path

    out = dict(files)
    for c in checks:
        if c.check not in TEXT_CHECKS:
            continue
        path = office_path(str(c.args.get("file", "")))
        entry = out.get(path)
        if entry and entry.get("kind") == "image" and "text" not in entry:
            out[path] = {**entry, "text": image_text(root, path)}
    return out


def heads_up_judge(task: Task, before: dict, gold_after: dict) -> Callable[[dict], list[str]]:
    """What is false in a short extra message (evaluators/claims.py, the closed-world rule): each of
    its numbers, dates, times, addresses, ids and people of a kind the gold's own mail states must be
    one the task supports (the gold's mail, the instruction, the office's values), its weekdays must
    agree with their dates and its greeting must name a recipient."""
    from officesim.evaluators.claims import Support, build_directory, closed_world_problems, mail_said, office_sources

    said = [mail_said(e) for p, e in gold_after.items() if e.get("kind") == "eml" and before.get(p) != e]
    year = task.now_dt.year
    cache: dict[str, Any] = {}

    def judge(entry: dict) -> list[str]:
        if "directory" not in cache:  # built when a heads-up is met, once per evaluation
            cache["directory"] = build_directory([*before.values(), *gold_after.values()], task.people, task.user,
                                                 task.user_name)
            cache["sources"] = office_sources(before, year)
        support = Support(expected=said, texts=[task.brief, *said], addresses=[task.user])
        return closed_world_problems(mail_said(entry), support, year=year, now=task.now_dt,
                                     directory=cache["directory"], recipients=[*(entry.get("to") or []),
                                                                               *(entry.get("cc") or [])],
                                     greeted=entry.get("to") or None,
                                     sources=cache["sources"], body=own_text(entry.get("body") or ""),
                                     names=task.brief.lower())

    return judge


@dataclasses.dataclass
class GoldRun:
    """The gold solution's outcome: the final parsed office and any action that failed."""

    after: dict
    failures: list[str]
    status: str
    answer: Any


_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_ACTS_ON_MAIL = ("read_email", "reply_email", "forward_email")


def mail_tolerance(task: Task, before: dict, gold_after: dict):
    """What a reasonable user accepts beside the mail the gold sends (evaluators/outcome.py,
    ``MailTolerance``; FORMAT §7): the task's source and result files (an office file the gold's
    arguments or the instruction name) may be attached unmodified; a short extra message may go to
    the people already in the task (gold's recipients, the people the instruction names by address or
    full name, the senders and recipients of the office messages the gold reads, replies to or
    forwards). Tasks of the workbench tool set keep WorkBench's rule: nothing extra."""
    from officesim.evaluators.outcome import STRICT, MailTolerance

    if task.toolset == "workbench":
        return STRICT
    named = json.dumps([a.args for a in task.gold], default=str, ensure_ascii=False) + "\n" + task.brief
    relevant = frozenset(
        p for p in set(before) | set(gold_after)
        if not p.startswith(("emails/", "calendar/")) and (p in named or posixpath.basename(p) in named))
    mails = [e for e in before.values() if e.get("kind") == "eml"]
    addresses = {x for e in mails for x in [e.get("from"), *(e.get("to") or []), *(e.get("cc") or [])]}
    addresses |= {x for e in before.values() if e.get("kind") == "ics" for ev in e.get("events") or []
                  for x in ev.get("attendees") or []}
    addresses |= {a.lower() for a in task.people.values()}
    involved = {a.lower() for a in _ADDRESS.findall(task.brief)}
    involved |= {a for a in addresses if a and any(  # named by address or full name
        re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", task.brief, re.IGNORECASE) for n in person_names(a)[:2])}
    involved |= {task.people[n].lower() for n in task.people
                 if re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", task.brief)}
    read = {str(a.args.get("email_id")) for a in task.gold if a.action in _ACTS_ON_MAIL and a.args.get("email_id")}
    for path, e in before.items():
        if e.get("kind") == "eml" and posixpath.splitext(posixpath.basename(path))[0] in read:
            involved |= {e.get("from"), *(e.get("to") or []), *(e.get("cc") or [])}
    involved.discard(None)
    return MailTolerance(relevant=relevant, involved=frozenset(involved), short_messages=True)


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, "") or default)
    except ValueError:
        return default


# An evaluation's time limit in a worker: generous, and more for a bigger office (its parsed size);
# read once, at import, like the other limits (docs/security.md lists them).
GRADING_TIME_LIMIT_S = _env_float("OFFICESIM_GRADING_TIME_LIMIT", 120.0)
GRADING_S_PER_MB = _env_float("OFFICESIM_GRADING_S_PER_MB", 10.0)


def grading_time_limit(size_bytes: int) -> float:
    """Seconds an evaluation may take in a worker: the base limit plus some per megabyte of office."""
    return GRADING_TIME_LIMIT_S + GRADING_S_PER_MB * size_bytes / (1 << 20)


@dataclasses.dataclass
class Reference:
    """A task's reference states (initial office, gold run, mail tolerance) pickled once per task, named
    by ``token``: a worker that has read them keeps them for the task's next evaluations."""

    token: str
    data: bytes


@dataclasses.dataclass
class GradingJob:
    """Everything one evaluation reads, picklable: the server sends it to a worker of its pool. The
    agent's office is the initial office's entries (``same``) and the files it changed (``changed``)."""

    task: Task
    root: str
    mode: str
    status: str
    answer: Any
    steps: int
    history: list[dict]
    same: list[str]
    changed: dict[str, dict]
    reference: Reference | None = None  # in a worker
    reference_key: str | None = None  # the initial office's name in the machine's store (testbed/refstore.py)
    before: dict | None = None  # in this process
    gold: GoldRun | None = None
    tolerance: Any = None

    def size(self) -> int:
        """About how many bytes the evaluation reads (what its time limit scales with)."""
        import pickle

        changed = len(pickle.dumps(self.changed, protocol=pickle.HIGHEST_PROTOCOL))
        return changed + (len(self.reference.data) if self.reference is not None else 0)


def _env_int(name: str, default: int) -> int:
    try:
        return int(float(os.environ.get(name, "") or default))
    except ValueError:
        return default


# In a worker: token -> (before, gold, tolerance) and the bytes of their pickle, the most recently used last. A
# worker keeps the references of its last few tasks, at most WORKER_REFERENCE_BYTES of them (the pickles' bytes:
# 16 MiB is ~6 lived-in tasks, whose objects take ~4.5 times that) and KEEP_REFERENCES tasks.
_REFERENCES: "OrderedDict[str, tuple[tuple, int]]" = OrderedDict()
KEEP_REFERENCES = _env_int("OFFICESIM_WORKER_REFERENCE_TASKS", 8)
WORKER_REFERENCE_BYTES = _env_int("OFFICESIM_WORKER_REFERENCE_MB", 16) << 20


def _resolve(job: GradingJob) -> tuple[dict, GoldRun, Any]:
    if job.reference is None:
        return job.before, job.gold, job.tolerance
    from officesim.testbed import pickles

    token = job.reference.token
    hit = _REFERENCES.pop(token, None)
    refs, weight = hit if hit is not None else (pickles.loads(job.reference.data, kept=True), len(job.reference.data))
    _REFERENCES[token] = (refs, weight)  # the same objects each time: the per-task caches of claims.py hold
    total = sum(w for _r, w in _REFERENCES.values())
    while len(_REFERENCES) > 1 and (len(_REFERENCES) > KEEP_REFERENCES or total > WORKER_REFERENCE_BYTES):
        _old, (gone, w) = _REFERENCES.popitem(last=False)  # never the task being graded (the last)
        total -= w
        _forget_derived(gone)
    return refs


def _forget_derived(refs: tuple) -> None:
    """Drop what the evaluators derived from a task's references that the worker no longer keeps: their
    per-task values (evaluators/claims.py ``_per_task``: the office's values, text, identifiers, ~50 MiB for a
    lived-in task) hold the reference objects themselves, so they would keep them alive."""
    from officesim.evaluators.claims import forget_task

    forget_task(refs[0], getattr(refs[1], "after", None))


def _slim(history: list[dict]) -> list[dict]:
    """A session's history without its observations (grading reads the actions, never what they showed)."""
    def slim(step: dict) -> dict:
        out = {k: v for k, v in step.items() if k != "observation"}
        if isinstance(out.get("calls"), list):
            out["calls"] = [slim(c) if isinstance(c, dict) else c for c in out["calls"]]
        return out
    return [slim(h) for h in history]


def _text(answer: Any) -> str | None:
    return None if answer is None else str(answer)


def grade(job: GradingJob) -> EpisodeRecord:
    """The record (tasks/FORMAT.md §6) of one ended session: its checks, side effects and changes."""
    from officesim.evaluators import EvalState, evaluate
    from officesim.evaluators.outcome import compare
    from officesim.testbed.diff import diff_states

    task = job.task
    before, gold, tolerance = _resolve(job)
    after = dict(sorted({**{rel: before[rel] for rel in job.same}, **job.changed}.items()))
    outcome = compare(before, after, gold.after, task.free, tolerance, heads_up_judge(task, before, gold.after))
    state = EvalState(files=with_image_text(after, task.checks, Path(job.root)),
                      answer=job.answer, timezone=task.timezone, now=task.now_dt,
                      instruction=task.brief, before=before, gold=gold.after,
                      gold_answer=None if gold.answer is None else str(gold.answer), user=task.user,
                      user_name=task.user_name, people=dict(task.people), pictures_hold_ids=task.world is None,
                      reference_key=job.reference_key)
    replies = task.user_script()["replies"] if task.user_replies else []
    record = evaluate(task.checks, state, task_id=task.id, mode=job.mode, status=job.status,
                      side_effects=outcome.side_effects, collateral=outcome.collateral, missing=outcome.missing,
                      asking=asking(task, replies, job.history), steps=job.steps,
                      changes=[str(c) for c in diff_states(before, after)])  # the office diff, for reports
    asked = ask_counts(replies, asked_questions(job.history))
    record = record.model_copy(update={**asked, **task_request(task)})  # the asking's counts; what the task asked
    if task.origin is not None and task.origin.evaluation:
        record.original_passed, record.original_checks = original(task, Path(job.root), job.answer, job.status,
                                                                  job.history)
    return record


def asking(task: Task, replies: list[dict], history: list[dict]) -> list[str]:
    """Why the asking failed (apps/asking.py ``unasked``): a needed reply no question reached before
    the agent wrote its value (an operation that writes, or the finish answer)."""
    if not any(r.get("needed") for r in replies):
        return []
    from officesim.apps import apps_for
    from officesim.apps.registry import resolve_operation
    from officesim.evaluators.facts import states

    apps = apps_for(task.toolset)

    def writes(app: str, action: str) -> bool:
        try:
            return resolve_operation(apps, app, action).writes
        except Exception:  # an unknown operation changed nothing
            return False

    year = task.now_dt.year
    return unasked(replies, history, writes=writes, states=lambda text, value: states(text, value, year=year))


def run_job(job: GradingJob) -> EpisodeRecord | str:
    """A worker's side of an evaluation: the record, or why grading raised (as text)."""
    try:
        return grade(job)
    except MemoryError:
        raise  # the worker reports it and is replaced
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


def original(task: Task, root: Path, answer: Any, status: str, history: list[dict]) -> tuple[bool, list]:
    """An imported task's verdict under its benchmark's original evaluation (evaluators/officebench.py),
    over the session's office, the initial office and the task's reference files."""
    from officesim.evaluators.officebench import Testbed, evaluate_original
    from officesim.testbed.materialise import template_for

    if task.origin.benchmark == "workbench":  # WorkBench's rule replays the calls (evaluators/workbench_original.py)
        return workbench_original(task, history)
    reference = Path(task.source_dir) / "reference" if task.source_dir else None
    testbed = Testbed(root=root, before=template_for(task), reference=reference,
                      answer=answer, finished=status == "finished")
    return evaluate_original(task.origin.evaluation, testbed)


def workbench_original(task: Task, history: list[dict]) -> tuple[bool, list]:
    """WorkBench's verdict: the agent's calls and the ground truth replayed on the initial office's tables."""
    from officesim.apps import OfficeContext
    from officesim.apps.workbench_core import STATE_TABLES
    from officesim.apps.workbench_store import OfficeStore
    from officesim.evaluators.workbench_original import evaluate_original
    from officesim.testbed.materialise import template_for
    from officesim.testbed.office import Office

    initial = OfficeStore(OfficeContext(office=Office(template_for(task)), user=task.user))
    tables = {name: initial.rows(name) for name in STATE_TABLES if name != "plots"}
    return evaluate_original(task.origin.evaluation, tables, history)
