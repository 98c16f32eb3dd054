"""The one registry of mutant classes: what each class attacks, whether its mutants must fail (wrong) or
pass (right), which tool sets it applies to, and one line saying what it does. The validator's table and
JSON (runner/validate.py), docs/mutation-testing.md and the tests read it from here."""

from __future__ import annotations

from dataclasses import dataclass

WRONG, RIGHT = "wrong", "right"
AUTHORED = "authored"  # the task's own wrong:/right: solutions, counted beside the derived ones
OFFICEBENCH, WORKBENCH = "officebench", "workbench"


@dataclass(frozen=True)
class MutantClass:
    """One class of mutants: ``name`` as the JSON reports it, ``kind`` wrong or right, ``module`` the
    module of this package that derives it (what it attacks), ``toolsets`` the tool sets it applies to."""

    name: str
    kind: str
    module: str
    line: str
    toolsets: tuple[str, ...] = (OFFICEBENCH,)


def _w(name: str, module: str, line: str, toolsets: tuple[str, ...] = (OFFICEBENCH,)) -> MutantClass:
    return MutantClass(name, WRONG, module, line, toolsets)


def _r(name: str, module: str, line: str, toolsets: tuple[str, ...] = (OFFICEBENCH,)) -> MutantClass:
    return MutantClass(name, RIGHT, module, line, toolsets)


BOTH = (OFFICEBENCH, WORKBENCH)
CLASSES: tuple[MutantClass, ...] = (
    # ---- wrong ------------------------------------------------------------------------------------
    _w("number-changed", "files", "a number, date or time the gold writes (cell, text, event time, answer) changed to "
       "another plausible value", BOTH),
    _w("number-distractor", "files", "a number the gold writes replaced by another number present in the office"),
    _w("off-row", "files", "a cell written one row off"),
    _w("off-column", "files", "a cell written one column off"),
    _w("off-sheet", "files", "a cell written on another sheet of the workbook"),
    _w("distractor-file", "files", "a file the gold writes, reads from or attaches swapped for a similar file of the "
       "same kind"),
    _w("recipient-replaced", "mail", "a recipient (or attendee) replaced by another address from the office", BOTH),
    _w("recipient-joined", "mail", "another address from the office added to the recipients (or attendees)"),
    _w("recipient-dropped", "mail", "one of several recipients (or attendees) left out"),
    _w("cc-instead-of-to", "mail", "a mail's one addressee put in cc, and its copy-reader in to"),
    _w("extra-attachment", "mail", "an office file the gold never touches attached as well"),
    _w("stale-attachment", "mail", "a file attached before the gold's edits to it"),
    _w("step-dropped", "files", "one write step of the gold left out (each in turn)", BOTH),
    _w("create-twice", "files", "a step that creates something (mail, event, paragraph, row) done twice", BOTH),
    _w("move-as-copy", "files", "a move done as a copy (the original left behind)"),
    _w("distractor-deleted", "files", "a distractor item (file, row, event, mail) deleted as well", BOTH),
    _w("event-start-shifted", "events", "an event the gold creates or updates moved an hour later", BOTH),
    _w("event-end-shifted", "events", "an event the gold creates or updates ending half an hour later", BOTH),
    _w("event-location-shifted", "events", "an event the gold creates or updates in another place from the office"),
    _w("event-beside-update", "events", "a new event created beside the one the gold updates", BOTH),
    _w("answer-distractor", "text", "the answer replaced by a distractor value from the office"),
    _w("answer-hedged", "text", "the answer hedged with a distractor value"),
    _w("guessed-not-asked", "asking", "the gold without its system.ask_user questions, a needed reply's value replaced "
       "by the guess the task names (the distractor an agent that does not ask would use)"),
    _w("text-contradiction", "text", "a second value of an expected fact's kind from the office beside it ('15:00 "
       "(09:45 by the other count)')"),
    _w("text-hedged", "text", "an expected fact hedged with a value from the office ('X, or Y', 'between X and Y')"),
    _w("text-self-corrected", "text", "an expected fact and a value from the office as a self-correction ('Y, "
       "correction, X' in both orders)"),
    _w("text-negated", "text", "a required statement negated ('not X')"),
    _w("text-entity-swapped", "text", "a mail's greeting naming another person of the office than its recipient"),
    _w("weekday-mismatch", "text", "a weekday written next to a date changed to another day"),
    _w("number-as-text", "files", "a number the gold writes in a cell written as text with thousands separators "
       "('1,500')"),
    _w("pair-unbound", "text", "paired facts re-paired: two lines' values swapped ('Planning - 17 June', 'Training - "
       "16 June'), two events booked with each other's times"),
    _w("list-extended", "text", "an enumeration of the office's items (events, a table's rows) with one more item "
       "of the same list, written like its neighbour"),
    _w("conversion-altered", "files", "a document the gold writes as a copy of an office document with two digits of "
       "one copied number transposed ('149.00' as '194.00')"),
    _w("format-broken", "files", "a date or time the gold writes in a column of such values written in another "
       "format ('27/07/2026', '9.30am')"),
    _w("case-edited", "files", "a cell or paragraph of a file the gold edits, one the gold leaves alone, re-cased"),
    _w("record-other-item", "records", "a value the gold writes about an item of a table (a row it names) replaced by "
       "the same attribute of another item of that table"),
    _w("record-wrong-column", "records", "where the words before a value name its attribute ('ordered on'), the value "
       "replaced by another attribute of the same item (its delivery date)"),
    _w("false-remark", "records", "a remark appended to a text the gold writes, about an item it names, with another "
       "item's value ('For the record, SO-1001 Ordered: 3 September 2026.')"),
    _w("count-off", "records", "a heading's count of the items listed under it one more ('Three invoices:' over two)"),
    _w("forward-other-message", "records", "a forward of another message of the mailbox under the same subject"),
    _w("listed-count-off", "records", "'these N items:' written before a list of identifiers, N one more than the "
       "list holds"),
    _w("action-claimed", "records", "a mail that says it was also forwarded to someone of the office the episode "
       "never mails ('I have also forwarded this to Anton Lund.')"),
    _w("id-replaced", "workbench", "an id a write names (event, email, customer, task) swapped for a similar row of "
       "the same table", (WORKBENCH,)),
    _w("field-value-changed", "workbench", "a value a write sets (status, list, board, metric, plot type, name) "
       "changed to another value of its column", (WORKBENCH,)),
    _w("write-added", "workbench", "for a task that needs no change, a write its instruction would ask for if its "
       "condition held", (WORKBENCH,)),
    # ---- right ------------------------------------------------------------------------------------
    _r("number-reformatted", "files", "numbers with or without thousands separators, trailing zeros or a currency sign"),
    _r("date-reformatted", "files", "dates written in another common form (where the instruction does not fix one)",
       BOTH),
    _r("body-reworded", "mail", "a mail body with the same facts in other words and another order"),
    _r("subject-changed", "mail", "a mail subject the instruction does not fix worded otherwise"),
    _r("formula", "files", "a formula computing the value in place of the value"),
    _r("answer-sentence", "text", "the answer given as a short sentence around the gold answer"),
    _r("steps-reordered", "files", "independent gold steps in another order", BOTH),
    _r("reads-added", "files", "reads and listings added", BOTH),
    _r("switch-roundtrips", "files", "switch_app round-trips added before the write steps", BOTH),
    _r("time-reformatted", "text", "a clock time in a mail, document or answer written as people do (10am, 2:30pm)"),
    _r("date-reformatted-natural", "text", "a date of the task's year written without it, as '15 Jan' (where the "
       "instruction does not fix the form)"),
    _r("number-in-words", "text", "a small count written in words ('five students')"),
    _r("amount-scaled", "text", "an amount of millions written with the scale word ('7,192 million')"),
    _r("identifier-reformatted", "text", "an identifier written with a space for its hyphen ('PO 1234')"),
    _r("greeting-signoff", "mail", "a greeting and sign-off around the gold's mail, with trailing blank lines"),
    _r("source-attached", "mail", "a file the task reads (and leaves as it is) attached to the mail, where the "
       "instruction does not name the file to send"),
    _r("cc-self", "mail", "the user copying themself in on the gold's mail"),
    _r("hyphenation", "text", "a compound written with a hyphen or a space ('fleet-tracking', 'fleet tracking')"),
    _r("name-order", "text", "a person's full name written 'Last, First'"),
    _r("summary-extra-line", "text", "a mail with one more true line (where its facts come from, an offer to answer "
       "questions)"),
    _r("title-line", "text", "a title line opening a mail body (its subject) or a new document (its file name)"),
    _r("record-true-context", "records", "a remark appended to a text the gold writes, about an item it names, with "
       "that item's own value of another attribute from the office's records"),
    _r("record-worked-out", "records", "a line adding up two amounts the text states ('Together, £120.00 and "
       "£80.50 come to £200.50.')"),
    _r("question-reworded", "asking", "each needed question to the user asked in plain words naming the options "
       "('Is it Tuesday 24 November, or Wednesday 25 November?') instead of the scripted keywords"),
    _r("case-changed", "workbench", "a text WorkBench compares without case (a name, subject, body) written in "
       "another case", (WORKBENCH,)),
    _r("refused-write-added", "workbench", "a write WorkBench refuses beside the gold (a status in the wrong case, a "
       "name for an address, a delete repeated): it changes nothing", (WORKBENCH,)),
)
BY_NAME: dict[tuple[str, str], MutantClass] = {(c.kind, c.name): c for c in CLASSES}


def classes(kind: str | None = None, toolset: str | None = None) -> list[MutantClass]:
    """The registered classes, of one kind and/or one tool set, in registry order."""
    return [c for c in CLASSES if kind in (None, c.kind) and toolset in (None, *c.toolsets)]


# the views earlier callers read: the default tool set's classes, the classes only WorkBench's tasks
# have, and, per tool set other than the default, every class that applies to it
WRONG_CLASSES: dict[str, str] = {c.name: c.line for c in CLASSES if c.kind == WRONG and OFFICEBENCH in c.toolsets}
RIGHT_CLASSES: dict[str, str] = {c.name: c.line for c in CLASSES if c.kind == RIGHT and OFFICEBENCH in c.toolsets}
WORKBENCH_WRONG_CLASSES: dict[str, str] = {c.name: c.line for c in CLASSES if c.kind == WRONG and c.toolsets == (WORKBENCH,)}
WORKBENCH_RIGHT_CLASSES: dict[str, str] = {c.name: c.line for c in CLASSES if c.kind == RIGHT and c.toolsets == (WORKBENCH,)}
TOOLSET_CLASSES: dict[str, tuple[str, ...]] = {WORKBENCH: tuple(c.name for c in CLASSES if WORKBENCH in c.toolsets)}
