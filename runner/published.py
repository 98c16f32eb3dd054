"""The ``published`` verdict of a run over imported tasks: what the benchmark's own harness, as its
authors ran it for their paper, gives the run's episodes, over the benchmark's whole denominator, so
a user can put the figure next to the published one (docs/officebench-verified.md,
docs/workbench-verified.md say which figure to cite for what).

Three verdicts sit side by side in summary.json:

- ``pass_rate``: officesim's, on the corrected tasks (outcome-centric);
- ``pass_rate_original``: the benchmark's original checks, re-implemented faithfully, on our harness
  (evaluators/officebench.py, evaluators/workbench_original.py), over the tasks run;
- ``published`` (this module): the upstream harness's behaviour reproduced, over the benchmark's
  full count of tasks.

OfficeBench (300 subtasks, 93 / 95 / 112 by number of apps). On top of the original checks:

- **The mail reader.** ``email_list_emails.list_emails`` lists ``/testbed/emails/<Name>``, the
  container's path, whatever folder ``evaluation.py`` gives it, and ``evaluation.py`` runs on the host
  over the copied output folders, where there is no ``/testbed``: every mailbox it reads is
  "No emails found.". A mail keyword check passes only when all its keywords are in those words;
  a ``not_contain`` on a mailbox passes. A mailbox whose folder is missing still raises (the
  original's fallback loop), as in the original verdict.
- **Mail file names.** OfficeBench's ``send_email`` files a mail as ``emails/<Name>/<subject>.eml`` in
  the sender's and the recipient's folders; officesim files it as ``msg-<n>.eml``. A check of the
  existence of ``emails/<Name>/<X>.eml`` passes when the episode sent a mail with subject X from or to
  Name (Name or its address's local part, as ``send_email`` strips ``@...``).
- **A value its app cannot write.** OfficeBench's ``excel_set_cell`` (the only operation that writes a
  cell) turns a value equal to True (``1``) into an empty cell; a cell check expecting ``1`` fails.
- **The denominator.** Every subtask counts: the two subtasks we exclude (2-39-2, 2-39-3) and any
  subtask the run did not cover count as failures, as ``evaluation.py`` counts a missing output.

WorkBench (690 queries): its ``is_correct`` (the original verdict, evaluators/workbench_original.py)
is the published rule; queries the run did not cover count as failures.

With several trials of a task, a task counts the share of its trials that pass (the expected score of
one trial, as the papers report one).
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from typing import Any, Iterable

from officesim.evaluators.record import EpisodeRecord

OFFICEBENCH_TOTAL = 300
OFFICEBENCH_BY_CATEGORY = {"1": 93, "2": 95, "3": 112}
OFFICEBENCH_EXCLUDED = ("officebench-2-39-2", "officebench-2-39-3")
WORKBENCH_TOTAL = 690
NO_MAIL = "No emails found."  # what the original mail reader lists on a host without /testbed
_MAIL_FILE = re.compile(r"^emails/([^/]+)/([^/]+)\.eml$")


def _benchmark(task_id: str) -> str | None:
    for name in ("officebench", "workbench"):
        if task_id.startswith(f"{name}-"):
            return name
    return None


def _contain_text(content: str, keywords: list) -> bool:
    """OfficeBench's _evaluate_contain_text (lower-cased substrings; commas dropped after a number)."""
    content = content.lower()
    for keyword in keywords:
        keyword = str(keyword).lower()
        try:
            float(keyword)
            content = content.replace(",", "")
        except ValueError:
            pass
        if keyword not in content:
            return False
    return True


def _calls(trajectory: Iterable[dict] | None) -> Iterable[dict]:
    """Every operation an episode ran, a code program's calls included."""
    for step in trajectory or []:
        yield step
        yield from step.get("calls") or []


def _local(name: Any) -> str:
    return str(name).split("@")[0]


def upstream_mail_files(trajectory: Iterable[dict] | None) -> set[str]:
    """The mail files OfficeBench's send_email would have written for the episode's sent mails:
    ``emails/<sender>/<subject>.eml`` and ``emails/<recipient>/<subject>.eml``."""
    files = set()
    for call in _calls(trajectory):
        if call.get("app") != "email" or call.get("action") != "send_email" or not call.get("ok"):
            continue
        args = call.get("args") or {}
        subject = str(args.get("subject", ""))
        recipients = args.get("recipient") or args.get("recipients") or []
        recipients = recipients if isinstance(recipients, list) else [recipients]
        for person in [args.get("sender")] + recipients:
            if person:
                files.add(f"emails/{_local(person)}/{subject}.eml")
    return files


def officebench_check(check: Any, trajectory: list[dict] | None) -> bool:
    """One original function's published result, from its result on our harness (a CheckRecord)."""
    name, args = check.check, dict(check.args or {})
    raised = str(check.message).startswith("raised")
    if name in ("evaluate_contain", "evaluate_not_contain") and args.get("doc_type") == "email":
        if raised:  # the mailbox folder is missing: the original's fallback loop raises
            return False
        found = _contain_text(NO_MAIL, list(args.get("keywords") or []))
        return not found if name == "evaluate_not_contain" else found
    if name in ("evaluate_file_exist", "evaluate_file_not_exist"):
        path = posixpath.normpath(str(args.get("file", "")).strip())
        if _MAIL_FILE.match(path):  # there here (its result says so), or sent under that name there
            here = check.passed if name == "evaluate_file_exist" else not check.passed
            exists = bool(here) or path in upstream_mail_files(trajectory)
            return not exists if name == "evaluate_file_not_exist" else exists
    if name == "evaluate_excel_cell_value" and any(str(m.get("value")) in ("1", "True")
                                                   for m in args.get("matches") or []):
        return False  # excel_set_cell writes a value equal to True as an empty cell
    return bool(check.passed)


def officebench_verdict(record: EpisodeRecord) -> bool:
    """An episode's published OfficeBench verdict: every original function passes under the upstream
    harness (an episode without the original evaluation fails)."""
    if record.original_passed is None or not record.original_checks:
        return False
    return all(officebench_check(c, record.trajectory) for c in record.original_checks)


def _per_task(records: list[EpisodeRecord], verdict) -> dict[str, float]:
    """Each task's share of trials that pass under ``verdict``."""
    trials: dict[str, list[bool]] = defaultdict(list)
    for rec in records:
        trials[rec.task_id].append(bool(verdict(rec)))
    return {task: sum(v) / len(v) for task, v in trials.items()}


def _figures(passed: float, total: int) -> dict:
    passed = round(passed, 4)
    return {"passed": int(passed) if float(passed).is_integer() else passed, "total": total,
            "pass_rate": round(passed / total, 4) if total else 0.0}


def published(records: Iterable[EpisodeRecord]) -> dict:
    """The published verdict of every benchmark whose tasks the run holds: ``{"officebench": {...},
    "workbench": {...}}`` with passed, total (the benchmark's full count), pass_rate, the tasks run and
    not run, and for OfficeBench the figures by number of apps; ``{}`` when no imported task ran."""
    by_bench: dict[str, list[EpisodeRecord]] = defaultdict(list)
    for rec in records:
        bench = _benchmark(rec.task_id)
        if bench:
            by_bench[bench].append(rec)
    out: dict[str, dict] = {}
    if by_bench.get("officebench"):
        recs = by_bench["officebench"]
        scores = _per_task(recs, officebench_verdict)
        category = {rec.task_id: str(rec.category) for rec in recs}
        out["officebench"] = {
            **_figures(sum(scores.values()), OFFICEBENCH_TOTAL),
            "tasks_run": len(scores), "not_run": OFFICEBENCH_TOTAL - len(scores),
            "excluded": list(OFFICEBENCH_EXCLUDED),
            "by_category": {cat: _figures(sum(s for t, s in scores.items() if category[t] == cat), n)
                            for cat, n in OFFICEBENCH_BY_CATEGORY.items()},
        }
    if by_bench.get("workbench"):
        scores = _per_task(by_bench["workbench"], lambda r: bool(r.original_passed))
        out["workbench"] = {**_figures(sum(scores.values()), WORKBENCH_TOTAL),
                            "tasks_run": len(scores), "not_run": WORKBENCH_TOTAL - len(scores)}
    return out
