"""Outcome-centric grading: how the agent's office differs from the office the gold solution makes.

The gold solution's final office is the reference. Every difference between it and the agent's
office, outside the paths the task declares free, is a *side effect* and fails the task (WorkBench's
rule): an extra or missing file, a file left behind where it had to be moved, another workbook's
cells, a duplicate event, an extra recipient or attachment. What legitimately varies between two
correct runs is not compared:

- how a file was written (libraries, zip timestamps, event UIDs, Message-ID and Date headers,
  file stems of sent mail): states are compared as parsed (testbed/parse.py);
- the form of a value: numbers by value (a formula by what it computes), text cells without case or
  extra spaces (a text cell the gold leaves alone keeps its case), dates by the moment they denote, an event's place with or without words around it
  ("Birch" for "Room Birch"); the order of rows a sheet gains (the checks judge an order the
  instruction fixes);
- wording that is free by nature: a mail's subject and body, an event's title and description, the
  words of paragraphs and lines the gold run adds or rewrites. These are judged by the task's
  checks (the facts they must state); here only *how many* such paragraphs there are counts, so
  a duplicated paragraph or a wrong first attempt left beside the right one still fails;
- documents by content: attachments and PDFs by their text (scanned pages and pictures by a
  perceptual digest), archives by their members' names and hashes.

Reading and listing change nothing, and a scratch file created and deleted again leaves no trace,
so neither counts. A new file the gold run does not make counts unless a free path covers it.

Each difference is one of two kinds (``compare``): *collateral*, a change the gold does not make (an
extra or changed file, mail or event), or *missing*, a change of the gold the agent did not make (a
file it did not write, a cell left as it was). Both fail the task; the side-effect rate of a run
counts collateral only, so doing nothing has none.

Mail is compared with the tolerance a reasonable user shares (``MailTolerance``): an unmodified office
file the task reads or writes may be attached besides, the sender may cc themself, and a short extra
message to a person already in the task is no side effect (the checks judge what it says).
Everything here is a pure function of parsed states.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import re
from collections import Counter
from typing import Any, Callable, Iterable, Sequence

from rapidfuzz import fuzz

from officesim.evaluators.claims import VALUE_KINDS, claims_in, same_claim
from officesim.evaluators.facts import own_text
from officesim.evaluators.text import (as_datetime, as_number, as_time_of_day, collapse, document_text, format_value,
                                      is_empty)
from officesim.testbed.parse import digest_distance

State = dict[str, dict]
_MAIL = re.compile(r"^emails/([^/]+)/(?:(sent)/)?[^/]+\.eml$", re.I)
PICTURE_TOLERANCE = 20  # of 256 digest bits: a re-encoded or rescaled picture stays within it
_SHOWN = 4  # item differences shown per file


class Missing(str):
    """A difference that is a change of the gold the agent did not make (the rest are collateral)."""


@dataclasses.dataclass(frozen=True)
class MailTolerance:
    """What a reasonable user accepts beside the mail gold sends (FORMAT §7).

    ``relevant``: office paths of the task's source and result files (the files the gold reads or
    writes, the instruction names); such a file, unmodified, may be attached besides gold's
    attachments. ``involved``: addresses of the people already in the task (gold's recipients are
    always among them; the people the instruction or the office mail the gold acts on involves); a
    short extra message to them alone is no side effect when the gold sends mail itself. The sender
    may always cc themself."""

    relevant: frozenset[str] = frozenset()
    involved: frozenset[str] = frozenset()
    short_messages: bool = False  # whether a short extra message to the people in the task is accepted


STRICT = MailTolerance()
SHORT_MESSAGE_WORDS = 120  # an extra message of at most these many words (its own text) is "short"


@dataclasses.dataclass
class Outcome:
    """How an agent's office differs from gold's: ``collateral`` (changes the gold does not make),
    ``missing`` (gold's changes the agent did not make) and ``side_effects`` (every difference, one
    line per file or message: both kinds together, as the record has always listed them)."""

    side_effects: list[str] = dataclasses.field(default_factory=list)
    collateral: list[str] = dataclasses.field(default_factory=list)
    missing: list[str] = dataclasses.field(default_factory=list)

    def add(self, line: str, missing: bool) -> None:
        self.side_effects.append(line)
        (self.missing if missing else self.collateral).append(line)


def side_effects(before: State, agent: State, gold: State, free: Sequence[str] = (),
                 tolerance: MailTolerance | None = None) -> list[str]:
    """Every way ``agent`` differs from ``gold`` outside the ``free`` path globs, one line per finding."""
    return compare(before, agent, gold, free, tolerance).side_effects


def compare(before: State, agent: State, gold: State, free: Sequence[str] = (),
            tolerance: MailTolerance | None = None, judge: Callable[[dict], list[str]] | None = None) -> Outcome:
    """Every way ``agent`` differs from ``gold`` outside the ``free`` path globs, each said to be
    collateral or missing. ``tolerance``: what may come beside gold's mail (None: the sender's own cc
    only); ``judge``: what is false in a short extra message (its problems; none: it is accepted)."""
    is_free = _free_matcher(free)
    originals = frozenset(e["sha256"] for e in before.values() if e.get("kind") == "image" and e.get("sha256"))
    out = Outcome()
    for path in sorted(set(before) | set(agent) | set(gold)):
        if is_free(path) or (_MAIL.match(path) and path not in before):
            continue  # new mail is matched by content below, whatever its file stem
        b, a, g = before.get(path), agent.get(path), gold.get(path)
        if a is None and g is None:
            continue
        if a is None:
            if b is None:
                out.add(f"{path}: missing (the correct outcome has it)", missing=True)
            else:
                out.add(f"{path}: removed (the correct outcome keeps it)", missing=False)
        elif g is None:
            if b is None:
                out.add(f"{path}: extra file (the correct outcome has none)", missing=False)
            else:
                out.add(f"{path}: still there (the correct outcome removes it)", missing=b == a)
        else:
            problems = entry_differences(b, a, g, originals) + (copy_differences(before, a, g) if b is None else [])
            if not problems:
                continue
            untouched = b is not None and (a == b or not entry_differences(None, a, b, originals))
            lacking = [p for p in problems if untouched or isinstance(p, Missing)]
            extra = [p for p in problems if not (untouched or isinstance(p, Missing))]
            out.side_effects.append(_file_line(path, problems))
            if extra:
                out.collateral.append(_file_line(path, extra))
            if lacking:
                out.missing.append(_file_line(path, lacking))
    _new_mail_differences(before, agent, gold, is_free, tolerance or STRICT, out, judge)
    return out


COPY_LIKENESS = 0.9  # a gold document this alike to a file of the office is a copy or conversion of it
COPY_THRESHOLD = 0.9  # ... and the agent's must be this alike to gold's, stating the same values


def copy_differences(before: State, agent: dict, gold: dict) -> list[str]:
    """A new document the gold makes by copying or converting an office file (a quote retyped, a PDF
    turned into a document) is compared by content: every value it states (numbers, dates, times, ids,
    addresses) and its text, at least ``COPY_THRESHOLD`` alike, so one changed price or line differs."""
    if agent == gold or gold.get("kind") not in ("docx", "text") or agent.get("kind") not in ("docx", "text", "pdf"):
        return []
    wanted = _squash(document_text(gold))
    if len(wanted) < 40 or not any(
            e is not gold and e.get("kind") in ("docx", "text", "pdf")
            and fuzz.ratio(_squash(document_text(e)), wanted) >= COPY_LIKENESS * 100 for e in before.values()):
        return []
    written, values = document_text(agent), claims_in(document_text(gold), year=None, kinds=VALUE_KINDS)
    found = claims_in(written, year=None, kinds=VALUE_KINDS)
    seen: dict[tuple, bool] = {}
    other = next((c for c in found if not _stated_in(c, values, seen)), None)
    distinct = [] if other else _distinct(found)
    lost = None if other else next((v for v in values if not any(same_claim(c, v) for c in distinct)), None)
    if other or lost:
        said = f"states {_shown(other.text)}" if other else f"lacks {_shown(lost.text)}"
        return [f"{said}, unlike the copy the correct outcome makes"]
    likeness = fuzz.ratio(_squash(written), wanted) / 100
    if likeness < COPY_THRESHOLD:
        return [f"is {likeness:.2f} alike to the copy the correct outcome makes (threshold {COPY_THRESHOLD})"]
    return []


def _claim_key(claim: Any) -> tuple:
    return (claim.kind, repr(claim.value), claim.currency, claim.precision, claim.unscaled)


def _stated_in(claim: Any, values: list, seen: dict) -> bool:
    """Whether one of ``values`` states ``claim``, once per distinct claim (a long copy repeats its values)."""
    key = _claim_key(claim)
    if key not in seen:
        seen[key] = any(same_claim(claim, v) for v in values)
    return seen[key]


def _distinct(claims: list) -> list:
    """One claim of each distinct value (what ``same_claim`` reads of it)."""
    return list({_claim_key(c): c for c in claims}.values())


def _file_line(path: str, problems: list[str]) -> str:
    more = f"; and {len(problems) - _SHOWN} more" if len(problems) > _SHOWN else ""
    return f"{path}: differs from the correct outcome ({'; '.join(problems[:_SHOWN])}{more})"


def _free_matcher(free: Sequence[str]) -> Callable[[str], bool]:
    patterns = [p.strip().lstrip("/") for p in free if p and p.strip()]

    def is_free(path: str) -> bool:
        return any(fnmatch.fnmatchcase(path, p) or path.startswith(p.rstrip("/") + "/") for p in patterns)

    return is_free


def free_pattern_matches(pattern: str, paths: Iterable[str]) -> bool:
    """Whether a free-path glob covers any of ``paths`` (task loading uses it to refuse dead patterns)."""
    return any(_free_matcher([pattern])(p) for p in paths)


# ---- values --------------------------------------------------------------------------------------
def same_value(x: Any, y: Any) -> bool:
    """Two cell-like values are the same outcome: numbers by value, dates by moment, times of day as
    times, text without case and extra spaces, empty as empty."""
    if is_empty(x) or is_empty(y):
        return is_empty(x) and is_empty(y)
    nx, ny = as_number(x), as_number(y)
    if nx is not None and ny is not None:
        return abs(nx - ny) <= 1e-6 * max(1.0, abs(nx), abs(ny))
    dx, dy = as_datetime(x), as_datetime(y)
    if dx is not None and dy is not None:
        return dx == dy
    tx, ty = as_time_of_day(x), as_time_of_day(y)
    if tx is not None and ty is not None:  # 8:00, 08:00 and 8:00 AM are one time of day
        return tx == ty
    return collapse(format_value(x)).casefold() == collapse(format_value(y)).casefold()


def _squash(text: Any) -> str:
    """Text with every space removed and case folded: PDF text extraction varies in spacing."""
    return re.sub(r"\s+", "", str(text or "")).casefold()


def _shown(value: Any, limit: int = 40) -> str:
    if is_empty(value):
        return "empty"
    text = format_value(value)
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


# ---- one file ------------------------------------------------------------------------------------
def entry_differences(before: dict | None, agent: dict, gold: dict, originals: frozenset = frozenset()) -> list[str]:
    """How one file of the agent differs from gold's (empty when they are the same outcome).
    ``originals``: digests of the pictures the office started with; a picture that is one of them
    (moved, copied, renamed) must be exactly the one gold has there, not merely look like it."""
    if agent == gold:  # the same parsed file (an untouched table of thousands of rows): nothing to compare
        return []
    kind = gold.get("kind")
    if kind == "image" and agent.get("kind") == "image" and originals & {agent.get("sha256"), gold.get("sha256")}:
        return [] if agent.get("sha256") == gold.get("sha256") else ["another picture (not the original gold has here)"]
    if agent.get("kind") != kind:
        why = f" ({agent.get('error')})" if agent.get("kind") == "corrupt" else ""
        return [f"a {agent.get('kind')} file{why} where the correct outcome has a {kind} file"]
    compare = _COMPARE.get(kind)
    if compare is None:
        return [] if agent.get("sha256") == gold.get("sha256") else ["content differs"]
    return compare(before if (before or {}).get("kind") == kind else None, agent, gold)


def _xlsx(before: dict | None, agent: dict, gold: dict) -> list[str]:
    a_sheets, g_sheets = agent.get("sheets", {}), gold.get("sheets", {})
    b_sheets = (before or {}).get("sheets", {})
    out = [_tag(f"sheet {s!r} missing", s not in b_sheets) for s in g_sheets if s not in a_sheets]
    out += [_tag(f"extra sheet {s!r}", s in b_sheets and a_sheets[s] == b_sheets[s]) for s in a_sheets if s not in g_sheets]
    for name in g_sheets:
        if name not in a_sheets:
            continue
        a_rows, g_rows, b_rows = a_sheets[name], g_sheets[name], b_sheets.get(name, [])
        for r in range(min(len(a_rows), len(g_rows), len(b_rows))):  # a kept cell stands where it stood
            a_row, g_row, b_row = a_rows[r], g_rows[r], b_rows[r]
            out += [f"{name}!{_cell(r, c)} is {_shown(a_row[c])}, re-cased: the correct outcome keeps {_shown(g_row[c])}"
                    for c in range(min(len(a_row), len(g_row), len(b_row))) if _recased(a_row[c], g_row[c], b_row[c])]
        if _rows_in_other_order(b_rows, a_rows, g_rows):
            continue
        for r in range(max(len(a_rows), len(g_rows))):
            a_row, g_row, b_row = _row(a_rows, r), _row(g_rows, r), _row(b_rows, r)
            for c in range(max(len(a_row), len(g_row))):
                x = a_row[c] if c < len(a_row) else None
                y = g_row[c] if c < len(g_row) else None
                if not same_value(x, y):  # a cell the agent left as it was lacks gold's change
                    unchanged = same_value(x, b_row[c] if c < len(b_row) else None)
                    out.append(_tag(f"{name}!{_cell(r, c)} is {_shown(x)}, correct: {_shown(y)}", unchanged))
    return out


def _recased(x: Any, y: Any, before: Any) -> bool:
    """A text cell the gold keeps as it was (``y`` is ``before``) that the agent wrote in another case:
    a text the gold writes may take any case, one it leaves alone may not ("BRIGHTWATER FARMS")."""
    return isinstance(x, str) and isinstance(y, str) and y == before and collapse(x) != collapse(y) \
        and collapse(x).casefold() == collapse(y).casefold()


def _tag(problem: str, missing: bool) -> str:
    return Missing(problem) if missing else problem


def _row(rows: list[list[Any]], r: int) -> list[Any]:
    return rows[r] if r < len(rows) else []


def _same_row(x: list[Any], y: list[Any]) -> bool:
    return all(same_value(x[c] if c < len(x) else None, y[c] if c < len(y) else None)
               for c in range(max(len(x), len(y))))


def _rows_in_other_order(before: list, agent: list, gold: list) -> bool:
    """The agent's sheet is gold's with the rows gold added or rewrote in another order: the rows
    gold keeps from the original stand where they stood, the same places hold data, and the other
    rows are the same multiset (the order of appended rows is the checks' business, when fixed)."""
    kept = {r for r in range(min(len(before), len(gold))) if _same_row(before[r], gold[r])}
    moved_agent, moved_gold = [], []
    for r in range(max(len(agent), len(gold))):
        a, g = _row(agent, r), _row(gold, r)
        if r in kept:
            if not _same_row(a, g):
                return False
        elif _same_row(a, []) != _same_row(g, []):
            return False
        elif not _same_row(g, []):
            moved_agent.append(a)
            moved_gold.append(g)
    for g in moved_gold:
        match = next((i for i, a in enumerate(moved_agent) if _same_row(a, g)), None)
        if match is None:
            return False
        moved_agent.pop(match)
    return not moved_agent


def _cell(row: int, col: int) -> str:
    letters, n = "", col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(65 + rem) + letters
    return f"{letters}{row + 1}"


def _lines_outcome(before: list[str], agent: list[str], gold: list[str], unit: str) -> list[str]:
    """Paragraphs or lines: the ones gold keeps from before must be kept, in gold's order; of the
    ones gold adds or rewrites (free wording), the agent must have as many, without repeats."""
    b, a, g = ([collapse(x) for x in seq if collapse(x)] for seq in (before, agent, gold))
    if a == g:  # a line gold keeps, re-cased, is a changed line
        return []
    pool = Counter(b)
    g_kept, g_added = _split(g, pool)
    a_kept, a_added = _split(a, pool)
    out = []
    if a_kept != g_kept:
        lost = list((Counter(g_kept) - Counter(a_kept)).elements())
        gone = list((Counter(a_kept) - Counter(g_kept)).elements())
        if lost:
            out.append(f"{len(lost)} original {unit}(s) changed or removed, e.g. {_shown(lost[0])}")
        if gone:
            out.append(Missing(f"{len(gone)} original {unit}(s) kept that the correct outcome changes or removes, "
                               f"e.g. {_shown(gone[0])}"))
        if not lost and not gone:
            out.append(f"the original {unit}s are in another order")
    g_new, a_new = len(g_added), len(a_added)
    # One line more than gold writes (a title before a list, one more true sentence) is free wording
    # too, where gold writes any: the checks judge its facts. A line written twice is not.
    if a_new < g_new or a_new > g_new + (1 if g_new else 0):
        out.append(_tag(f"{a_new} new or rewritten {unit}(s), the correct outcome has {g_new}", a_new < g_new))
    else:
        gold_counts = Counter(x.casefold() for x in g_added + g_kept)
        counts = Counter(x.casefold() for x in a_added + a_kept)
        repeats = [x for x, n in counts.items() if n > 1 and n > gold_counts[x]]
        if repeats:
            out.append(f"a new {unit} appears twice: {_shown(repeats[0])}")
    return out


def _split(seq: list[str], pool: Counter) -> tuple[list[str], list[str]]:
    """(kept, new): the items of ``seq`` taken from the original ``pool`` (each at most as often as
    it was there), and the rest."""
    left, kept, new = Counter(pool), [], []
    for x in seq:
        if left[x] > 0:
            left[x] -= 1
            kept.append(x)
        else:
            new.append(x)
    return kept, new


def _docx(before: dict | None, agent: dict, gold: dict) -> list[str]:
    out = _lines_outcome((before or {}).get("paragraphs", []), agent.get("paragraphs", []),
                         gold.get("paragraphs", []), "paragraph")
    a_tables, g_tables = agent.get("tables", []), gold.get("tables", [])
    if len(a_tables) != len(g_tables):
        out.append(f"{len(a_tables)} tables, the correct outcome has {len(g_tables)}")
    for t, (at, gt) in enumerate(zip(a_tables, g_tables), start=1):
        if len(at) != len(gt) or any(len(x) != len(y) for x, y in zip(at, gt)):
            out.append(f"table {t} has another shape")
            continue
        for r, (arow, grow) in enumerate(zip(at, gt), start=1):
            for c, (x, y) in enumerate(zip(arow, grow), start=1):
                if not same_value(x, y):
                    out.append(f"table {t} cell ({r}, {c}) is {_shown(x)}, correct: {_shown(y)}")
    return out


def _text(before: dict | None, agent: dict, gold: dict) -> list[str]:
    return _lines_outcome(str((before or {}).get("text", "")).splitlines(), str(agent.get("text", "")).splitlines(),
                          str(gold.get("text", "")).splitlines(), "line")


def _pdf(before: dict | None, agent: dict, gold: dict) -> list[str]:
    a_pages, g_pages = agent.get("pages", []), gold.get("pages", [])
    if len(a_pages) != len(g_pages):
        return [f"{len(a_pages)} pages, the correct outcome has {len(g_pages)}"]
    a_pics, g_pics = agent.get("page_digests", {}), gold.get("page_digests", {})
    out = []
    for i, (x, y) in enumerate(zip(a_pages, g_pages)):
        if _squash(x) != _squash(y):
            out.append(f"page {i + 1} says something else")
        elif str(i) in g_pics and not _same_picture(a_pics.get(str(i)), g_pics[str(i)]):
            out.append(f"page {i + 1} shows another picture")
    return out


def _same_picture(x: str | None, y: str | None) -> bool:
    return bool(x and y) and digest_distance(x, y) <= PICTURE_TOLERANCE


def _image(before: dict | None, agent: dict, gold: dict) -> list[str]:
    if agent.get("sha256") == gold.get("sha256") or _same_picture(agent.get("digest"), gold.get("digest")):
        return []
    return ["another picture"]


def _archive(before: dict | None, agent: dict, gold: dict) -> list[str]:
    def members(entry: dict) -> Counter:
        return Counter((m["name"].rsplit("/", 1)[-1], m.get("sha256")) for m in entry.get("members", []))

    a, g = members(agent), members(gold)
    out = [f"member {name!r} missing or different" for name, _h in (g - a).elements()]
    out += [f"extra or different member {name!r}" for name, _h in (a - g).elements()]
    return out


def _event_key(ev: dict, owner: str | None = None) -> tuple:
    """What an event is, apart from its free-worded title and description; the calendar's owner
    listed among the attendees or not is the same event."""
    people = frozenset(x.lower() for x in ev.get("attendees") or []) - {(owner or "").lower()}
    return (ev.get("start"), ev.get("end"), bool(ev.get("all_day")), collapse(ev.get("location") or "").casefold(),
            people)


def _event_full(ev: dict, owner: str | None = None) -> tuple:
    return _event_key(ev, owner) + (collapse(ev.get("summary")).casefold(),
                                    collapse(ev.get("description") or "").casefold())


def _ics(before: dict | None, agent: dict, gold: dict) -> list[str]:
    a_events, g_events = list(agent.get("events", [])), list(gold.get("events", []))
    owner = gold.get("user")
    b_full = Counter(_event_full(e, owner) for e in (before or {}).get("events", []))
    # Events the same in every field pair off first.
    a_left = Counter(_event_full(e, owner) for e in a_events)
    g_left = Counter(_event_full(e, owner) for e in g_events)
    common = a_left & g_left
    a_left, g_left = a_left - common, g_left - common
    out = []
    # Left-overs: a gold event that is new or changed may be matched by one whose title or
    # description is worded otherwise; an event gold keeps untouched must be kept as it was.
    a_rest = list(a_left.elements())
    for g_ev in g_left.elements():
        if g_ev in b_full:
            out.append(f"event {g_ev[5]!r} at {g_ev[0]} changed or removed")
            continue
        match = next((x for x in a_rest if x[:3] == g_ev[:3] and x[4] == g_ev[4]
                      and (not g_ev[3] or same_place(x[3], g_ev[3]))), None)  # no place in gold: any is fine
        if match is not None:
            a_rest.remove(match)
        else:
            out.append(Missing(f"no event at {g_ev[0]}-{g_ev[1]}{_where(g_ev)} as in the correct outcome ({g_ev[5]!r})"))
    for a_ev in a_rest:  # an original event the agent left where gold changes or removes it lacks that change
        out.append(_tag(f"extra event {a_ev[5]!r} at {a_ev[0]}-{a_ev[1]}{_where(a_ev)}", a_ev in b_full))
    return out


def same_place(x: str, y: str) -> bool:
    """Two locations name the same place: equal without case, or one is the other with words around
    it ("Birch" and "Room Birch", "Harbour room" and "the Harbour room")."""
    x, y = collapse(x).casefold(), collapse(y).casefold()
    if x == y:
        return True
    if not x or not y:
        return False
    short, long_ = sorted((x, y), key=len)
    return re.search(r"(?<!\w)" + re.escape(short) + r"(?!\w)", long_) is not None


def _where(key: tuple) -> str:
    return f" in {key[3]!r}" if key[3] else ""


def _eml(before: dict | None, agent: dict, gold: dict) -> list[str]:
    """A message that existed before: nothing about it may change (it can only be kept or removed)."""
    out = [f"{f} changed" for f in ("from", "to", "cc", "subject", "in_reply_to") if agent.get(f) != gold.get(f)]
    if collapse(agent.get("body")) != collapse(gold.get("body")):
        out.append("body changed")
    if not _same_attachments(agent, gold):
        out.append("attachments changed")
    return out


_COMPARE: dict[str, Callable[[dict | None, dict, dict], list[str]]] = {
    "xlsx": _xlsx, "docx": _docx, "text": _text, "pdf": _pdf, "image": _image, "archive": _archive,
    "ics": _ics, "eml": _eml,
}


# ---- documents inside messages -------------------------------------------------------------------
def same_document(a: dict, b: dict) -> bool:
    """Two parsed files say exactly the same: a document's every paragraph or line, a sheet's every
    cell, a PDF's every page, a picture by digest."""
    if a.get("sha256") and a.get("sha256") == b.get("sha256"):
        return True
    if a.get("kind") != b.get("kind"):
        return False
    if a.get("kind") in ("docx", "text"):
        def lines(e: dict) -> list[str]:
            seq = e.get("paragraphs") if e.get("kind") == "docx" else str(e.get("text", "")).splitlines()
            return [collapse(x).casefold() for x in seq or [] if collapse(x)]

        if lines(a) != lines(b):
            return False
    return not entry_differences(None, a, b)


def _attachment_docs(entry: dict) -> list[dict]:
    docs = []
    for att in entry.get("attachments") or []:
        content = dict(att.get("content") or {"kind": "binary"})
        content.setdefault("sha256", att.get("sha256"))
        docs.append(content)
    return docs


def _same_attachments(a: dict, b: dict, agent: State | None = None, gold: State | None = None,
                      spare: Sequence[dict] = ()) -> bool:
    """The agent's message carries what gold's does. Where gold attaches a file of its office (as it
    stands at the end), the agent must attach its own final version of that file, whatever its
    wording (the file itself is compared on its own): so a stale copy or a template mailed in place
    of the filled copy differs, while a correct document worded otherwise does not. Other
    attachments must say exactly what gold's say. Beside them, the agent may attach any of ``spare``
    (the task's source and result files as its office has them at the end), unmodified."""
    left = _attachment_docs(a)
    for doc in _attachment_docs(b):
        wanted = doc
        source = _office_source(doc, gold or {})
        if source is not None and agent is not None and source in agent:
            wanted = agent[source]
        match = next((i for i, x in enumerate(left) if same_document(x, wanted)), None)
        if match is None:
            return False
        left.pop(match)
    return all(_is_spare(x, spare) for x in left)


def _is_spare(doc: dict, spare: Sequence[dict]) -> bool:
    return any(doc.get("kind") == s.get("kind") and same_document(doc, s) for s in spare)


def _office_source(doc: dict, state: State) -> str | None:
    """The office file (outside the mailboxes) whose final content an attachment is, if any."""
    return next((path for path, entry in state.items()
                 if not path.startswith("emails/") and entry.get("kind") == doc.get("kind") and same_document(entry, doc)),
                None)


# ---- new mail ------------------------------------------------------------------------------------
def _new_mail(state: State, before: State, is_free: Callable[[str], bool]) -> dict[tuple[str, str], list[dict]]:
    out: dict[tuple[str, str], list[dict]] = {}
    for path, entry in state.items():
        m = _MAIL.match(path)
        if m and path not in before and not is_free(path):
            out.setdefault((m.group(1).lower(), "sent" if m.group(2) else "inbox"), []).append(entry)
    return out


def _same_message(a: dict, b: dict, agent: State | None = None, gold: State | None = None,
                  spare: Sequence[dict] = ()) -> bool:
    """Who sent what to whom: sender, every recipient and cc (the sender cc'ing themself aside), and
    the attachments by content (any of ``spare`` besides). Subject and body wording are free (the
    checks judge the facts they must state)."""
    if a.get("kind") != "eml" or b.get("kind") != "eml":
        return a.get("sha256") == b.get("sha256")
    me = {a.get("from")}
    return (a.get("from") == b.get("from")
            and set(a.get("to") or []) == set(b.get("to") or [])
            and set(a.get("cc") or []) - me == set(b.get("cc") or []) - me
            and _same_attachments(a, b, agent, gold, spare))


_FORWARDED = "---------- Forwarded message ----------"


def _forwarded(entry: dict) -> str:
    """The text of the message a mail forwards (after the forward mark and its header lines), or ''."""
    body = str(entry.get("body") or "")
    at = body.find(_FORWARDED)
    return collapse(body[at + len(_FORWARDED):].partition("\n\n")[2]) if at >= 0 else ""


def _forwards(entry: dict, original: dict) -> bool:
    """Whether ``entry`` forwards the message gold's ``original`` forwards: the same text forwarded, or
    (a mail written anew) that text within its own."""
    theirs = _forwarded(original)
    mine = _forwarded(entry) or collapse(entry.get("body"))
    return fuzz.partial_ratio(theirs[:2_000], mine) >= 90 and (len(mine) >= 0.5 * len(theirs))


def _best_match(g: dict, rest: list[dict], agent: State, gold: State, spare: Sequence[dict]) -> int | None:
    """Which of the agent's new messages stands for gold's ``g``: among those sent to the same people
    with the same files (and, for a forward, forwarding the same message), the one whose words are
    closest to gold's, so that which one matches does not depend on the order they were sent in."""
    # a forward is the message it forwards: its attachments when it has some (compared above), else its text
    forwarded = _forwarded(g) if not g.get("attachments") else ""
    candidates = [i for i, a in enumerate(rest) if _same_message(a, g, agent, gold, spare)
                  and (not forwarded or _forwards(a, g))]
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    said = collapse(f"{g.get('subject') or ''} {own_text(g.get('body') or '')}")
    return max(candidates, key=lambda i: (fuzz.ratio(collapse(f"{rest[i].get('subject') or ''} "
                                                            f"{own_text(rest[i].get('body') or '')}"), said), -i))


def _split_match(g: dict, rest: list[dict], agent: State, gold: State, spare: Sequence[dict]) -> list[int] | None:
    """The agent's messages that together stand for gold's ``g`` sent to several people at once: one
    message (sender, attachments, subject) sent to each of them apart, every one of its people reached and
    nobody else (the checks judge what each says)."""
    people = set(g.get("to") or []) | set(g.get("cc") or [])
    if len(people) < 2 or g.get("kind") != "eml":
        return None
    by_topic: dict[str, list[int]] = {}
    for i, a in enumerate(rest):
        theirs = (set(a.get("to") or []) | set(a.get("cc") or [])) - {a.get("from")}
        if (a.get("kind") == "eml" and a.get("from") == g.get("from") and theirs and theirs <= people
                and _same_attachments(a, g, agent, gold, spare)):
            by_topic.setdefault(_topic(a.get("subject")), []).append(i)
    for parts in by_topic.values():  # one message, under one subject, to each of them
        reached = set().union(*[(set(rest[i].get("to") or []) | set(rest[i].get("cc") or [])) for i in parts])
        if len(parts) >= 2 and people <= reached:
            return parts
    return None


def _message(entry: dict) -> str:
    if entry.get("kind") != "eml":
        return f"an unreadable file ({entry.get('kind')})"
    cc = f" cc {', '.join(entry['cc'])}" if entry.get("cc") else ""
    names = [a.get("filename") for a in entry.get("attachments") or []]
    files = f" with {', '.join(names)}" if names else ""
    return f"to {', '.join(entry.get('to') or []) or 'nobody'}{cc}{files}: {_shown(entry.get('subject'), 50)}"


def _new_mail_differences(before: State, agent: State, gold: State, is_free: Callable[[str], bool],
                          tolerance: MailTolerance, out: Outcome,
                          judge: Callable[[dict], list[str]] | None = None) -> None:
    """New mail, per mailbox folder (sent folders first): each message of gold's must have its match
    in the agent's, and the agent's other messages are extra, unless a reasonable user accepts them
    (``MailTolerance``); a message delivered into an inbox is accepted where its sent copy is."""
    a_new, g_new = _new_mail(agent, before, is_free), _new_mail(gold, before, is_free)
    spare = [agent[p] for p in sorted(tolerance.relevant) if p in agent and not _MAIL.match(p)]
    gold_sent = [m for (_box, folder), msgs in g_new.items() if folder == "sent" for m in msgs]
    people = set(tolerance.involved) | {x for m in gold_sent for x in (m.get("to") or []) + (m.get("cc") or [])}
    accepted: set[tuple] = set()
    for where in sorted(set(a_new) | set(g_new), key=lambda w: (w[1] != "sent", w)):
        mailbox, folder = where
        place = f"emails/{mailbox}/" + ("sent/" if folder == "sent" else "")
        rest = list(a_new.get(where, []))
        subjects = set()
        for g in g_new.get(where, []):
            subjects.add(_topic(g.get("subject")))
            match = _best_match(g, rest, agent, gold, spare)
            split = _split_match(g, rest, agent, gold, spare) if match is None else None
            if match is None and not split and folder != "sent":  # its inbox copy: one part of a split message
                split = [i for i, a in enumerate(rest) if _delivery(a) in accepted and a.get("from") == g.get("from")
                         and set(a.get("to") or []) <= set(g.get("to") or []) | set(g.get("cc") or [])][:1] or None
            if split:  # the same message sent to each of its people apart: none of them misses it
                for i in sorted(split, reverse=True):
                    mine = rest.pop(i)
                    subjects.add(_topic(mine.get("subject")))
                    accepted.add(_delivery(mine))
            elif match is None:
                out.add(f"{place}: no message {_message(g)} as in the correct outcome", missing=True)
            else:
                mine = rest.pop(match)
                subjects.add(_topic(mine.get("subject")))
                accepted.add(_delivery(mine))
        heads_up = folder == "sent" and tolerance.short_messages and bool(gold_sent)
        for a in rest:
            short = heads_up and _short_message(a, people, spare, subjects)
            false = judge(a) if short and judge is not None else []  # a heads-up must be true as well
            if short and not false:
                subjects.add(_topic(a.get("subject")))  # the same heads-up twice is a repeat
                accepted.add(_delivery(a))
            elif false:
                out.add(f"{place}: extra message {_message(a)} ({'; '.join(false)})", missing=False)
            elif folder != "sent" and _delivery(a) in accepted:
                continue  # the inbox copy of a message already accepted
            else:
                out.add(f"{place}: extra message {_message(a)}", missing=False)


def _delivery(entry: dict) -> tuple:
    """What a message's sent copy and its delivered copies share."""
    return (entry.get("from"), frozenset(entry.get("to") or []), frozenset(entry.get("cc") or []),
            collapse(entry.get("subject")), collapse(entry.get("body")))


def _topic(subject: Any) -> str:
    """A subject without reply and forward marks, for telling a repeat from a new message."""
    return re.sub(r"^\s*((re|fwd?|aw|tr)\s*:\s*)+", "", collapse(subject).casefold())


def _short_message(entry: dict, people: set[str], spare: Sequence[dict], subjects: set[str]) -> bool:
    """An extra message a reasonable user accepts: short, to people already in the task only, with
    no attachment but the task's unmodified files, and on another subject than the messages it sits
    beside (the same subject again is a repeat or a first attempt)."""
    if entry.get("kind") != "eml":
        return False
    to = (set(entry.get("to") or []) | set(entry.get("cc") or [])) - {entry.get("from")}
    words = len(own_text(entry.get("body") or "").split())
    return (bool(to) and to <= people and words <= SHORT_MESSAGE_WORDS
            and all(_is_spare(x, spare) for x in _attachment_docs(entry))
            and _topic(entry.get("subject")) not in subjects)
