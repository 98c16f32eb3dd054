"""The office differences of a record (``collateral``, ``missing``, ``changes``) as rows a reader can
scan: per file, what is where on each side (a cell, a paragraph, a mail field, an event).

The record keeps them as the sentences evaluators/outcome.py and the office diff write; this reads
those sentences back and leaves any it does not know as a note, so nothing is ever dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_DIFFERS = re.compile(r"^differs from the correct outcome \((?P<body>.*)\)$", re.S)
_MODIFIED = re.compile(r"^modified \((?P<body>.*)\)$", re.S)
_IS_CORRECT = re.compile(r"^(?P<where>.+?) is (?P<left>.+), correct: (?P<right>.+)$", re.S)
_ARROW = re.compile(r"^(?P<where>.*?)(?P<left>'[^']*'|\([^)]*\)|\S+) -> (?P<right>.+)$", re.S)
_EXTRA = re.compile(r"^(?:extra|new) (?P<what>.+)$", re.S)
_NO = re.compile(r"^no (?P<what>.+?)(?: as in the correct outcome(?P<tail>.*))?$", re.S)


@dataclass
class Row:
    """One difference: where, and what the left and right sides hold (None: that side has nothing)."""

    where: str
    left: str | None = None
    right: str | None = None
    note: str | None = None  # a sentence not read into sides
    # a message's fields (to, cc, attachments, subject) on each side, for mail rows that name one
    left_fields: list[tuple[str, str]] | None = None
    right_fields: list[tuple[str, str]] | None = None


@dataclass
class FileDiff:
    path: str
    kind: str  # cells, paragraphs, mail, events or file: how the report lays its rows out
    rows: list[Row] = field(default_factory=list)
    sentences: list[str] = field(default_factory=list)  # as recorded, shown on hover


_MESSAGE = re.compile(r"^to (?P<to>.+?)(?: cc (?P<cc>.+?))?(?: with (?P<attachments>.+?))?: (?P<subject>'.*'|\".*\"|\S.*?)"
                      r"(?P<rest> \(.*\))?$", re.S)


def mail_fields(text: str | None) -> list[tuple[str, str]] | None:
    """'to a@x cc b@x with f.pdf: 'Subject'' (evaluators/outcome.py's message) as its fields; None if not one."""
    m = _MESSAGE.match(text or "")
    if not m:
        return None
    return [(name, m[name]) for name in ("to", "cc", "attachments", "subject") if m[name]]


def kind_of(path: str) -> str:
    low = path.lower()
    if low.endswith((".xlsx", ".xls", ".csv")):
        return "cells"
    if low.endswith((".docx", ".txt", ".md", ".pdf")):
        return "paragraphs"
    if low.endswith(".ics") or low.startswith("calendar/"):
        return "events"
    if low.endswith(".eml") or low.startswith("emails/"):
        return "mail"
    return "file"


def split_top(body: str, sep: str = "; ") -> list[str]:
    """Split on ``sep`` outside quotes and brackets (a quoted value may hold it)."""
    parts, depth, quote, start = [], 0, None, 0
    i = 0
    while i < len(body):
        ch = body[i]
        if quote:
            if ch == quote and (i + 1 == len(body) or not body[i + 1].isalnum()):
                quote = None
        elif ch in "'\"" and (i == 0 or not body[i - 1].isalnum()):
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif body.startswith(sep, i) and depth == 0:
            parts.append(body[start:i])
            start = i + len(sep)
            i += len(sep) - 1
        i += 1
    parts.append(body[start:])
    return [p for p in (p.strip() for p in parts) if p]


def _outcome_row(problem: str) -> Row:
    """One problem against the correct outcome: left is the agent's office, right the correct one."""
    if m := _IS_CORRECT.match(problem):
        return Row(m["where"], m["left"], m["right"])
    if m := _NO.match(problem):
        noun, _, rest = (m["what"] + (m["tail"] or "")).partition(" ")
        return Row(noun, None, rest)
    if m := _EXTRA.match(problem):
        noun, _, rest = m["what"].partition(" ")
        return Row(noun, rest, None)
    if problem.startswith("missing (the correct outcome has it)"):
        return Row("file", None, "the file")
    if problem.startswith("removed (the correct outcome keeps it)"):
        return Row("file", None, "the file")
    if problem.startswith("extra file"):
        return Row("file", "the file", None)
    if problem.startswith("still there"):
        return Row("file", "the file", None)
    return Row("", note=problem)


def _change_row(problem: str) -> Row:
    """One change made to the office: left is before, right after."""
    if m := _ARROW.match(problem):
        where = m["where"].strip().rstrip(":").strip()
        return Row(where, None if m["left"] == "empty" else m["left"], None if m["right"] == "empty" else m["right"])
    if problem == "added":
        return Row("file", None, "added")
    if problem == "removed":
        return Row("file", "the file", None)
    return Row("", note=problem)


def _path_and_rest(line: str) -> tuple[str, str]:
    path, sep, rest = line.partition(": ")
    return (path, rest) if sep else ("", line)


def outcome_diffs(lines: list[str]) -> list[FileDiff]:
    """Collateral or missing sentences, grouped by file: the agent's office (left) against the correct one."""
    return _grouped(lines, _outcome_rows)


def change_diffs(lines: list[str]) -> list[FileDiff]:
    """The office's changes, grouped by file: before (left) and after (right)."""
    return _grouped(lines, _change_rows)


def _outcome_rows(rest: str) -> list[Row]:
    m = _DIFFERS.match(rest)
    return [_outcome_row(p) for p in split_top(m["body"])] if m else [_outcome_row(rest)]


def _change_rows(rest: str) -> list[Row]:
    m = _MODIFIED.match(rest)
    if m:
        rows = []
        for part in split_top(m["body"]):
            prefix, sep, items = part.partition(": ")
            if sep and prefix.startswith("sheet "):  # "sheet Budget: A9 empty -> 'Total', B9 ..."
                rows += [_change_row(f"{prefix[6:]}!{item}") for item in _split_commas(items)]
            elif sep and " changed" in prefix:  # "event 'X' changed: start 'a' -> 'b', end ..."
                rows += [_change_row(f"{prefix.replace(' changed', '')} {item}") for item in _split_commas(items)]
            else:
                rows.append(_change_row(part))
        return rows
    if rest.startswith("added (") and rest.endswith(")"):
        return [Row("file", None, rest[7:-1])]
    return [_change_row(rest)]


def _split_commas(text: str) -> list[str]:
    """"A9 empty -> 'Total', B9 empty -> 29100": one item per 'X -> Y' (a value may hold commas)."""
    items: list[str] = []
    for part in split_top(text, ", "):
        if items and " -> " not in part:
            items[-1] += ", " + part
        else:
            items.append(part)
    return items


def _grouped(lines: list[str], rows_of) -> list[FileDiff]:
    files: dict[str, FileDiff] = {}
    for line in lines:
        path, rest = _path_and_rest(line)
        diff = files.setdefault(path, FileDiff(path, kind_of(path)))
        rows = rows_of(rest)
        if diff.kind == "mail":
            for row in rows:
                row.left_fields, row.right_fields = mail_fields(row.left), mail_fields(row.right)
        diff.rows += rows
        diff.sentences.append(line)
    return list(files.values())
