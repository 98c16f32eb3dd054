"""JUnit XML so CI systems show per-task results natively: one testcase per task x trial.

A failed episode is a ``<failure>`` (the agent's), its message naming the report's failure labels
(checks, collateral, missing, asking, error) and its text each failed check and difference; an episode without a verdict (status "error": an
infrastructure fault or a failed grading, after its retries) is an ``<error>``, counted in ``errors``
and not in ``failures``, as JUnit tells a test that could not run from one that failed."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from officesim.evaluators.record import EpisodeRecord

# Characters XML 1.0 cannot carry at all (ElementTree would write them and produce a file no parser
# reads); they can reach a check message from an office file's content.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _safe(text: object) -> str:
    return _NOT_XML.sub("\ufffd", str(text))


TRACEBACK_TAIL = 4000  # characters of an error's traceback in its <error> element


def _error_text(rec: EpisodeRecord) -> str:
    """An error episode's message: the error, the call it ended on, the earlier attempts, the traceback's end."""
    lines = [f"error: {rec.error}"] if rec.error else []
    call = rec.error_call
    if call is not None:
        where = f"{call.method} {call.path}" if call.method else "no request"
        timeout = f", timeout {call.timeout_s:g} s" if call.timeout_s else ""
        lines.append(f"call: {where} ({call.phase}{timeout}) {call.exception}: {call.message}")
        if call.site:
            lines.append(f"called from: {call.site}")
    lines += [f"earlier attempt: {e}" for e in rec.retried_errors or []]
    if rec.error_traceback:
        lines.append(rec.error_traceback[-TRACEBACK_TAIL:])
    return "\n".join(lines)


def junit_xml(records: list[EpisodeRecord], suite_name: str = "officesim") -> ET.ElementTree:
    errors = sum(r.no_verdict for r in records)
    failures = sum(not r.passed and not r.no_verdict for r in records)
    counts = {"tests": str(len(records)), "failures": str(failures), "errors": str(errors)}
    root = ET.Element("testsuites", name=suite_name, **counts)
    suite = ET.SubElement(root, "testsuite", name=suite_name, **counts,
                          time=f"{sum(r.wall_time_s or 0 for r in records):.3f}")
    for rec in sorted(records, key=lambda r: (r.category or 0, r.task_id, r.trial)):
        name = rec.task_id if rec.trial == 1 else f"{rec.task_id} [trial {rec.trial}]"
        case = ET.SubElement(suite, "testcase", classname=f"category_{rec.category}", name=_safe(name),
                             time=f"{rec.wall_time_s or 0:.3f}")
        if rec.no_verdict:
            kind = rec.error_kind or "infrastructure"
            attempts = f" (after {rec.attempts} attempts)" if rec.attempts > 1 else ""
            error = ET.SubElement(case, "error", message=_safe(f"{rec.error or kind + ' error'}"[:480] + attempts),
                                  type=f"officesim.{kind.capitalize()}Error")
            error.text = _safe(_error_text(rec))
        elif not rec.passed:
            failed = rec.failed_checks
            lines = [f"check {c.check}: {c.message}" for c in failed]
            lines += [f"collateral: {s}" for s in rec.collateral_effects]  # the report's labels, as the rates count
            lines += [f"missing: {s}" for s in rec.missing or []]
            lines += [f"asking: {s}" for s in rec.asking]
            if rec.error:
                lines.append(f"error: {rec.error}")
            message = (f"status {rec.status}, score {rec.score:.2f}, {len(failed)} failed check(s); "
                       f"failed: {', '.join(rec.failure_labels)}")
            fail = ET.SubElement(case, "failure", message=message, type="officesim.TaskFailed")
            fail.text = _safe("\n".join(lines))
        elif rec.side_effects:
            ET.SubElement(case, "system-out").text = _safe("\n".join(f"side effect: {s}" for s in rec.side_effects))
    return ET.ElementTree(root)


def write_junit(records: list[EpisodeRecord], path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tree = junit_xml(records)
    ET.indent(tree)
    tree.write(path, encoding="utf-8", xml_declaration=True)
    return path
