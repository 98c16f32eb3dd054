"""Evaluators: small pure checks over the parsed office (tasks/FORMAT.md §5) and the session record (§6).

Three kinds of checks, one registry:

- **exact** (``evaluators/exact.py``): a named thing is what it must be — an xlsx cell or row, a docx
  paragraph or table cell, the PDF text, a calendar event, a sent or received message, the answer.
  "Exact" still applies the shared normalisation (``evaluators/text.py``): whitespace collapsed,
  numbers and dates compared by value.
- **fuzzy** (``evaluators/fuzzy.py``): text that must or must not appear, similarity above a threshold,
  an event time within a tolerance, files that must (not) exist — for outcomes with many right phrasings.
- **search** (``evaluators/search.py``): one message of a person's mailbox, or one event of their
  calendar, states given facts (OfficeBench's keyword searches, made strict on facts).
- **predicates** (``evaluators/predicates.py``): execution-based properties computed over the state
  (no calendar overlap, a slot common to several people, a sorted column, a cell above a bound) —
  for tasks with more than one correct outcome.

Every check is ``fn(state: EvalState, *, <args>) -> CheckResult(passed, message)`` registered with
``@check("name")``; its signature is its argument schema. ``run_check`` never raises: missing
files, wrong kinds, corrupt files and bad arguments all fail with a message that says what was
expected and what was found. A check as run is a ``CheckRecord``; ``evaluate`` grades a task's
checks into an ``EpisodeRecord`` (``record.py``), the one record of an episode.
"""

# The names below are read on first use (PEP 562), so that a process that needs only the record
# (the server's routes, the runner) does not import every check and its file libraries (~0.8 s at start).
# The checks register on first use of the registry (``load_checks``).
_WHERE = {
    "CheckRecord": "record", "EpisodeRecord": "record",
    "CHECKS": "registry", "CheckResult": "registry", "CheckSpec": "registry", "check": "registry",
    "evaluate": "registry", "run_check": "registry", "run_checks": "registry", "validate_check": "registry",
    "CheckError": "state", "EvalState": "state",
    "document_text": "text", "values_equal": "text",
}


def load_checks() -> dict:
    """Every check, registered (the registry's ``CHECKS``): the check modules register themselves with
    @check when imported, and are imported here on first use rather than with the package, so a process
    that only reads records does not pay for them."""
    from officesim.evaluators import combine, exact, fuzzy, predicates, search, workbench  # noqa: F401
    from officesim.evaluators.registry import CHECKS

    return CHECKS


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'officesim.evaluators' has no attribute {name!r}")
    import importlib
    source = importlib.import_module(f"officesim.evaluators.{module}")
    if module == "registry":
        load_checks()
    value = getattr(source, name)
    globals()[name] = value
    return value


__all__ = [
    "CHECKS",
    "CheckError",
    "CheckRecord",
    "CheckResult",
    "CheckSpec",
    "EpisodeRecord",
    "EvalState",
    "check",
    "document_text",
    "evaluate",
    "run_check",
    "run_checks",
    "validate_check",
    "values_equal",
]
