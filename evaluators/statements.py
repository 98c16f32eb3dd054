"""What an agent wrote, cut into statements: the units a verdict binds to one thing of the office.

A written text (a mail's subject and body, a forward's note, a reply, a document's added lines, an
event's title and description, an answer) is cut line by line into

- ``item``: a list item ("- IL-2609-0309 (Ironvale Logistics)", "2. Budget review"), a table row
  ("2026-09-30 | Account service charge | 22.40"), or a line right under a heading, marked or not;
- ``heading``: a line that ends with a colon and heads the items under it ("Not yet shown by the bank:");
- ``label``: a short ``label: value`` line ("Order date: 14 September");
- ``sentence``: every other line, split into sentences (sentencex); a parenthetical stays in its
  sentence, so it is bound with it.

Each statement knows the heading it stands under (``head``), so an item that names nothing itself is
read as being about what its heading is about. Cutting is pure and linear in the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from officesim.evaluators.claims import sentences

_ITEM = re.compile(r"^(\s*)(?:[-*•–·]|\(?\d{1,2}[.)]|[a-z][.)])\s+")
_RULE = re.compile(r"\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?")
_YEARS = re.compile(r"\b(?:19|20)\d\d\b")  # a column may be named by its year ("Invoiced 2026")
_LABEL = re.compile(r"^\s*[A-Za-z][A-Za-z /&()'’.-]{0,40}:\s+\S")


@dataclass(frozen=True)
class Statement:
    """One unit of written text: where it stands, its form, and the heading it stands under."""

    start: int
    end: int
    text: str
    form: str  # item | heading | label | sentence
    head: int | None = None  # index (in the list ``cut`` returns) of its heading
    indent: int = 0


def _is_row(line: str) -> bool:
    return line.count(" | ") >= 1 or line.strip().count("\t") >= 1


def cut(text: str) -> list[Statement]:
    """The statements of ``text``, in order."""
    out: list[Statement] = []
    head: int | None = None
    offset = 0
    blank = False
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        start, end = offset, offset + len(body)
        offset += len(line)
        if not body.strip():
            blank = True
            continue
        item = _ITEM.match(body)
        # a plain line right under a heading, or under plain lines that are its items; not a sentence after
        # marked items or table rows ("- PO-1 ...\n- PO-2 ...\nThe others were left as they were.")
        follows = not blank and out and head is not None and (
            out[-1].form == "heading" or (out[-1].form == "item" and out[-1].head == head
                                          and not _ITEM.match(out[-1].text) and not _is_row(out[-1].text)))
        if item or _is_row(body) or (follows and not body.rstrip().endswith(":")):
            # an item: marked, a table row, or a line right under a heading ("Four orders:\nSO-1 ...")
            indent = len(item.group(1)) if item else 0
            out.append(Statement(start, end, body, "item", head, indent))
            blank = False
            continue
        if body.rstrip().endswith(":"):
            out.append(Statement(start, end, body, "heading", None))
            head = len(out) - 1
            blank = False
            continue
        if blank or not (out and out[-1].form == "item"):
            head = None  # a paragraph after the list ends it
        blank = False
        if _LABEL.match(body) and len(body) <= 120:
            out.append(Statement(start, end, body, "label", head))
            continue
        for s, e, sentence in sentences(body):
            for cs, ce, clause in _clauses(sentence):
                out.append(Statement(start + s + cs, start + s + ce, clause, "sentence", head))
    return out


# a clause about the items a sentence does not name: "… YE-2608-0256 (paid 27 Sep); the other six were all paid
# 8 days late" says nothing of YE-2608-0256
_OTHERS_TURN = re.compile(r"(?i);\s+(?=(?:and |but |while )?(?:the (?:other|rest|remaining)\b|all the others\b|"
                          r"(?:everything|everyone|anything|all) else\b))")


def about_others(sentence: str, at: int) -> bool:
    """Whether the position ``at`` of ``sentence`` stands in a clause about the others ("…; the other six were
    all paid 8 days late")."""
    return any(m.end() <= at for m in _OTHERS_TURN.finditer(sentence))


# a clause after a semicolon with a subject of its own: "IT has the largest overspend, … over its £62,500 budget;
# Operations is over by £8,622.34" says its figures of Operations, the ones before of IT
_NEW_SUBJECT = re.compile(r";\s+(?=(?:and |but |while )?[A-Z][\w&'’.-]*(?:\s+(?:[A-Z][\w&'’.-]*|&|of|and))*\s+"
                          r"(?:\([^)]{1,30}\)\s+)?(?:both\s+|all\s+|each\s+|also\s+)?"
                          r"(?:is|was|are|were|has|had|came|comes|spent|invoiced|billed|owes|stands|ran|runs|expires?|ends?|"
                          r"renews?|falls?|starts?)\b)")


def _clauses(sentence: str) -> list[tuple[int, int, str]]:
    """A sentence as its clauses: one, unless a clause after a semicolon speaks of the others or of a subject
    of its own."""
    out, at = [], 0
    turns = sorted([*_OTHERS_TURN.finditer(sentence), *_NEW_SUBJECT.finditer(sentence)], key=lambda m: m.start())
    for m in turns:
        if m.start() < at:
            continue
        out.append((at, m.start(), sentence[at:m.start()]))
        at = m.end()
    out.append((at, len(sentence), sentence[at:]))
    return out


def items_under(statements: list[Statement], heading: int) -> list[Statement]:
    """The items a heading heads, at the indent of its first item (sub-items are not counted)."""
    items = [s for s in statements if s.form == "item" and s.head == heading
             and not _RULE.fullmatch(s.text.strip())]  # a markdown table's |---|---| line
    ruled = [s for s in statements if s.head == heading and _RULE.fullmatch(s.text.strip())]
    if len(items) >= 2 and _is_row(items[0].text) and _is_row(items[1].text) and (
            (ruled and ruled[0].start > items[0].start and ruled[0].start < items[1].start)  # "| Product | Q3 2026 |"
            or (not any(ch.isdigit() for ch in _YEARS.sub("", items[0].text)) and any(ch.isdigit() for ch in items[1].text))):
        items = items[1:]  # a table's header row ("Ref | Party | Invoiced 2026") names columns, not an item
    if not items:
        return []
    indent = items[0].indent
    return [s for s in items if s.indent == indent]


def table_under(statements: list[Statement], heading: int) -> tuple[list[str], list[list[str]]] | None:
    """The table a heading heads, as its header cells and its rows' cells ("By supplier:" over "| Supplier |
    Invoices | Amount |" and its rows), or None where no table of two or more rows stands under it."""
    lines = [s.text for s in statements if s.form == "item" and s.head == heading and not _RULE.fullmatch(s.text.strip())]
    if len(lines) < 3 or not all(_is_row(line) for line in lines):
        return None

    def cells(line: str) -> list[str]:
        parts = line.split("\t") if "\t" in line.strip() else line.strip().strip("|").split("|")
        return [p.strip() for p in parts]

    return cells(lines[0]), [cells(line) for line in lines[1:]]


_ITEM_LINE = re.compile(r"^\s*(?:[-*•–]|\d{1,2}[.)])\s+\S")


def items_above(text: str, pos: int) -> int:
    """How many items the list nearest above ``pos`` holds (its lines starting "-", "•" or "1."), with at
    most one blank line between it and the line of ``pos``: what "for all three" after the list counts."""
    lines = text[:pos].splitlines()[:-1]  # the lines before the one ``pos`` stands on
    while lines and not lines[-1].strip():
        lines.pop()
    n = 0
    while lines and _ITEM_LINE.match(lines[-1]):
        n += 1
        lines.pop()
    return n


# a line of a list: a bullet or a number, or an item's identifier before its details ("#5119 — Teams room
# display", "Ticket 5124: New laptop ready", "A144 (Nadia, 17 November)")
_LISTED_LINE = re.compile(r"^\s*(?:[-*•–]|\d{1,2}[.)]|[A-Za-z]{0,8}[ -]?#?\d[\w-]*\s*(?::|—|–|-|\()|#\d+\b)\s*\S")


def list_sizes(text: str) -> set[int]:
    """The sizes of the lists ``text`` writes (runs of two or more list lines, read with and without the
    blank lines between items): what "the four above" or "these 4 still have ...:" count."""
    sizes: set[int] = set()
    for gaps in (True, False):
        run = 0
        for line in [*text.splitlines()[:MAX_LIST_LINES], "end"]:
            if _LISTED_LINE.match(line):
                run += 1
            elif line.strip() or not gaps:
                if run >= 2:
                    sizes.add(run)
                run = 0
    return sizes


MAX_LIST_LINES = 2_000  # lines of a text read for its lists


def span_gap(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Characters between two spans of one text (0 when they touch or overlap): how near a value stands to
    the name it may be said of."""
    return max(b[0] - a[1], a[0] - b[1], 0)
