"""JUnit XML so CI systems show per-task results natively: one testcase per task x trial."""

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


def junit_xml(records: list[EpisodeRecord], suite_name: str = "officesim") -> ET.ElementTree:
    failures = sum(not r.passed for r in records)
    root = ET.Element("testsuites", name=suite_name, tests=str(len(records)), failures=str(failures))
    suite = ET.SubElement(root, "testsuite", name=suite_name, tests=str(len(records)), failures=str(failures),
                          time=f"{sum(r.wall_time_s or 0 for r in records):.3f}")
    for rec in sorted(records, key=lambda r: (r.category or 0, r.task_id, r.trial)):
        name = rec.task_id if rec.trial == 1 else f"{rec.task_id} [trial {rec.trial}]"
        case = ET.SubElement(suite, "testcase", classname=f"category_{rec.category}", name=_safe(name),
                             time=f"{rec.wall_time_s or 0:.3f}")
        if not rec.passed:
            failed = rec.failed_checks
            lines = [f"check {c.check}: {c.message}" for c in failed]
            lines += [f"side effect: {s}" for s in rec.side_effects]
            lines += [f"asking: {s}" for s in rec.asking]
            if rec.error:
                lines.append(f"error: {rec.error}")
            message = f"status {rec.status}, score {rec.score:.2f}, {len(failed)} failed check(s)"
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
