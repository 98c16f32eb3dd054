"""OfficeBench's evaluation functions translated into officesim checks (tasks/FORMAT.md §5).

What each original function becomes:

| original | officesim |
|---|---|
| `evaluate_contain` on `data/answer.txt` | `answer_contains` (the finish_task answer) |
| `evaluate_contain`, `doc_type: email` (a mailbox keyword search) | `mailbox_contains` |
| `evaluate_contain` on `calendar/<Name>.ics` (`DTSTART:...` keywords among them) | `event_contains` with `start`/`end` |
| `evaluate_contain` on any other file | `contains` |
| `evaluate_not_contain` | `not_contains`, `mailbox_not_contains`, or the answer's `exclude` |
| `evaluate_file_exist` / `evaluate_file_not_exist` | `file_exists` / `file_not_exists` |
| `evaluate_excel_cell_value` | `xlsx_cell`, one per match |
| `evaluate_excel_cell_comparator` (`lambda x: x in [...]`) | `cell_compare` bounds |
| `evaluate_diff_contain_text` (rows deleted from a workbook) | `not_contains` of the deleted words |
| `evaluate_exact_match` against `reference/` | `xlsx_sheet_equals` with the reference's rows |
| `evaluate_calendar_no_overlap` | `calendar_no_overlap` |

Where a translation cannot be faithful to what the task asks (a check with no file, a time the
calendar app can never write, an exact match that can never pass), the translation says so as a
*correction*; the task's overlay (tasks/officebench/overlay/) then gives the checks that grade it.
"""

from __future__ import annotations

import ast
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from officesim.tasks._confine import SourceError, inside, relative

ANSWER = "data/answer.txt"
_STAMP = re.compile(r"^(?:(DTSTART|DTEND)[:;][^0-9]*)?(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?)?(Z?)$", re.I)
_REFERENCE = "../../../../reference/"


@dataclass
class Correction:
    """One thing the original evaluation (or ground truth) gets wrong, and what the import does about it."""

    cls: str  # a short class name: answer-file, mail-harness, calendar-utc, no-file, exact-pdf, ...
    what: str  # what is wrong
    did: str  # what officesim does

    def as_dict(self) -> dict:
        return {"class": self.cls, "what": self.what, "did": self.did}


@dataclass
class Translation:
    checks: list[dict] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)  # originals with no faithful translation


def office_path(path: str, where: str = "path") -> str:
    """'./data/x.xlsx' -> 'data/x.xlsx'; an absolute path, or one leaving the office, is refused."""
    return str(relative(posixpath.normpath(str(path).strip()), where))


def _check(name: str, **args: Any) -> dict:
    return {"check": name, "args": {k: v for k, v in args.items() if v is not None}}


def _stamp(keyword: str) -> tuple[str | None, str, bool] | None:
    """'DTSTART:20240517T103000' -> ('DTSTART', '2024-05-17 10:30', False); None when not a time stamp."""
    m = _STAMP.match(keyword.strip())
    if not m:
        return None
    which, y, mo, d, hh, mm, _ss, z = m.groups()
    value = f"{y}-{mo}-{d}" + (f" {hh}:{mm}" if hh else "")
    return (which.upper() if which else None), value, bool(z)


def _column(col: int) -> str:
    out = ""
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out


def _cell_value(value: Any) -> Any:
    """An original expected value ('100', '80.5', 'yogurt') as the check value."""
    text = str(value)
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d+", text):
        return float(text)
    return text


def reference_rows(path: Path) -> list[list[Any]]:
    """The first sheet of a reference workbook, as officesim parses it."""
    from officesim.testbed.parse import parse_file

    entry = parse_file(path, path.name)
    if entry.get("kind") != "xlsx":
        raise ValueError(f"{path.name} is not a workbook ({entry.get('kind')})")
    first = entry["sheet_order"][0]
    return entry["sheets"][first]


def translate(evaluation: list[dict], *, reference_dir: Path | None, testbed_dir: Path | None) -> Translation:
    """The original evaluation of one subtask as officesim checks, with the corrections it needs. A
    malformed item is a SourceError naming it (``evaluation[2].args.file: ...``)."""
    out = Translation()
    answer: tuple[list[str], list[str]] = ([], [])
    for i, item in enumerate(evaluation):
        try:
            _translate_item(item, out, answer, reference_dir, testbed_dir)
        except SourceError as exc:
            raise SourceError(f"evaluation[{i}].{exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise SourceError(f"evaluation[{i}] ({item.get('function') if isinstance(item, dict) else item!r}): "
                              f"malformed ({type(exc).__name__}: {exc})") from None
    return _finish(out, *answer)


def _translate_item(item: dict, out: Translation, answer: tuple[list[str], list[str]],
                    reference_dir: Path | None, testbed_dir: Path | None) -> None:
    answer_text, answer_exclude = answer
    if not isinstance(item, dict) or not isinstance(item.get("args", {}), (dict, type(None))):
        raise SourceError("args: not an object")
    name, args = item.get("function"), dict(item.get("args") or {})
    kind = str(args.get("doc_type", ""))
    if name in ("evaluate_contain", "evaluate_not_contain"):
        negate = name == "evaluate_not_contain"
        keywords = [str(k) for k in args.get("keywords", [])]
        if kind == "email":
            user = str(args.get("username"))
            if negate:
                out.corrections.append(Correction(
                    "missing-mailbox", f"not_contain searches the mailbox of {user}; when {user} has no mail folder "
                                       "(nobody wrote to them, as the instruction wants) the original's fallback loop "
                                       "reads a variable before assigning it and raises, failing the task",
                    "checks no message of theirs states the words (mailbox_not_contains)"))
            out.checks.append(_check("mailbox_not_contains" if negate else "mailbox_contains", user=user, text=keywords))
            return
        path = office_path(args.get("file", ""), "args.file")
        if path == ANSWER:
            (answer_exclude if negate else answer_text).extend(keywords)
            return
        if path.startswith("calendar/") and path.endswith(".ics") and kind == "ics" and not negate:
            out.checks.append(_event_check(path, keywords, out))
            return
        if kind == "xlsx" and not path.endswith((".xlsx", ".xlsm")):
            out.corrections.append(Correction(
                "wrong-reader", f"{name} reads {path} as a workbook (doc_type xlsx): openpyxl cannot open it, "
                                "so the check always fails",
                f"checks what {path} says"))
        out.checks.append(_check("not_contains" if negate else "contains", file=path, text=keywords))
    elif name == "evaluate_file_exist":
        out.checks.append(_check("file_exists", file=office_path(args["file"], "args.file")))
    elif name == "evaluate_file_not_exist":
        out.checks.append(_check("file_not_exists", file=office_path(args["file"], "args.file")))
    elif name == "evaluate_excel_cell_value":
        if "file" not in args:
            out.corrections.append(Correction(
                "no-file", "evaluate_excel_cell_value names no file: the original raises KeyError and the "
                           "task can never pass", "checks the cells of the workbook the instruction names"))
            out.unresolved.append(name)
            return
        path = office_path(args["file"], "args.file")
        for m in args["matches"]:
            cell = f"{_column(int(m['col']))}{int(m['row'])}"
            out.checks.append(_check("xlsx_cell", file=path, cell=cell, value=_cell_value(m["value"])))
    elif name == "evaluate_excel_cell_comparator":
        path = office_path(args["file"], "args.file")
        for m in args["matches"]:
            allowed = _allowed(m.get("comparator", ""))
            cell = f"{_column(int(m['col']))}{int(m['row'])}"
            numbers = [float(a) for a in allowed if re.fullmatch(r"-?\d+(\.\d+)?", str(a))]
            if allowed and len(numbers) == len(allowed):
                out.checks.append(_check("cell_compare", file=path, cell=cell, op=">=", value=_num(min(numbers))))
                out.checks.append(_check("cell_compare", file=path, cell=cell, op="<=", value=_num(max(numbers))))
            else:
                out.unresolved.append(f"{name} {m.get('comparator')}")
    elif name == "evaluate_diff_contain_text":
        path = office_path(args["output_file"], "args.output_file")
        words = [k for k in args.get("keywords", []) if not re.fullmatch(r"[\d.,]+", str(k))]
        out.checks.append(_check("not_contains", file=path, text=words))
    elif name == "evaluate_exact_match":
        _exact(args, out, reference_dir, testbed_dir)
    elif name == "evaluate_calendar_no_overlap":
        out.checks.append(_check("calendar_no_overlap", user=str(args["username"])))
    else:
        out.unresolved.append(str(name))


def _finish(out: Translation, answer_text: list[str], answer_exclude: list[str]) -> Translation:
    if any(c["check"] == "mailbox_contains" for c in out.checks):
        out.corrections.append(Correction(
            "mail-harness", "the mailbox search reads /testbed/emails/<user> (the container's path) whatever "
                            "folder it is given: run over an output folder it finds no mail, so the check fails "
                            "even for a correct solution",
            "searches the mailbox of the office being graded (mailbox_contains)"))
    if answer_text or answer_exclude:
        out.corrections.insert(0, Correction(
            "answer-file", "the answer is read from data/answer.txt, where OfficeBench's finish_task writes it",
            "checks the finish_task answer" + (" (not_contain keywords as exclusions)" if answer_exclude else "")))
        out.checks.insert(0, _check("answer_contains", text=answer_text or None, exclude=answer_exclude or None))
    return out


def _num(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def _allowed(source: str) -> list:
    m = re.fullmatch(r"\s*lambda\s+x\s*:\s*x\s+in\s+(\[.*\])\s*", str(source))
    return list(ast.literal_eval(m.group(1))) if m else []


def _event_check(path: str, keywords: list[str], out: Translation) -> dict:
    """A calendar keyword search as one event: its words, and DTSTART/DTEND keywords as its times."""
    user = posixpath.splitext(posixpath.basename(path))[0]
    words, start, end = [], None, None
    for keyword in keywords:
        stamp = _stamp(keyword)
        if stamp is None:
            word = re.sub(r"^(SUMMARY|LOCATION|DESCRIPTION)[:;]", "", keyword, flags=re.I).strip()
            words.append(word)
            continue
        which, value, utc = stamp
        if utc:
            out.corrections.append(Correction(
                "calendar-utc", f"the keyword {keyword} is a UTC time ('Z'), which calendar.create_event never "
                                "writes (it writes the office's local time): the check can never pass",
                f"checks the event {'ends' if which == 'DTEND' else 'starts'} at {value} (the office is on UTC)"))
        if which == "DTEND":
            end = value
        else:
            start = value
    return _check("event_contains", user=user, text=words or None, start=start, end=end)


def _exact(args: dict, out: Translation, reference_dir: Path | None, testbed_dir: Path | None) -> None:
    result, expected, kind = office_path(args["result_file"], "args.result_file"), str(args["expected_file"]), args.get("doc_type")
    if posixpath.isabs(expected.strip()) or expected.strip()[1:2] == ":":
        raise SourceError(f"args.expected_file: absolute path {expected!r} refused")
    if kind != "xlsx":
        out.corrections.append(Correction(
            "exact-objects", f"evaluate_exact_match of {kind} files compares lists of page/paragraph objects, "
                             "which are never equal: the check can never pass",
            f"judges {result} by the checks and the outcome comparison"))
        out.checks.append(_check("file_exists", file=result))
        return
    norm = posixpath.normpath(expected)
    source = None
    if norm.startswith(_REFERENCE) and reference_dir is not None:
        source = reference_dir / norm[len(_REFERENCE):]
    elif not norm.startswith("..") and testbed_dir is not None:
        source = testbed_dir / norm
    if source is not None:  # the reference must be the subtask's own file, not one a link leads to
        inside(source, (reference_dir or testbed_dir).parent, "args.expected_file")
    if source is None or not source.is_file():
        out.corrections.append(Correction(
            "missing-reference", f"the reference file {expected} does not exist: the check can never pass",
            f"checks {result} against the sheet the instruction asks for"))
        out.unresolved.append("evaluate_exact_match")
        return
    out.checks.append(_check("xlsx_sheet_equals", file=result, rows=reference_rows(source)))
