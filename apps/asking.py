"""The simulated user behind ``system.ask_user``: a task's scripted replies, matched without an LLM.

A task scripts its user as a list of ``{when, reply, needed}`` entries plus a default reply
(tasks/FORMAT.md §3). A question gets the reply of the first entry whose ``when`` it matches:

- ``when`` as a text is a regular expression, searched in the question ignoring case;
- ``when`` as a list holds words or phrases: the question matches when it contains one of them at a
  word start, ignoring case (``recipient`` matches "Which recipients?").

A question no ``when`` matches is matched by what it names: the first entry one of whose
*candidates* it mentions gets it. An entry's candidates are derived from the task (``candidates``):
the values of its reply and ``guess`` (the options' names, "Parsec Cleaning", "16"), and by kind, any
date or weekday when the reply is about a date ("Is Tuesday the 13th OK?"), any person of the task when
it is about a person ("The sheet was prepared by Tomas Kovac. Should I mail him?"), any of the files it
is about ("Should I retitle sales_east.docx or sales_south.docx?"). No entry matched: the default reply.

The same matching decides, at grading, which of the task's ``needed`` entries the agent's questions
reached (``ask_counts``), so replies and metrics agree; and a needed entry no question reached before
the agent acted on its value fails the episode (``unasked``).
"""

from __future__ import annotations

import posixpath
import re
from typing import Any, Iterable, Mapping, Sequence

DEFAULT_REPLY = "I don't know; use your judgement"
QUESTION_LIMIT = 2_000  # characters a question may have
SETTINGS_KEY = "ask_user"  # OfficeContext.settings[SETTINGS_KEY] = {"replies": [...], "default": str}

_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_FILE = re.compile(r"[\w./-]*\w\.(?:docx?|xlsx?|pdf|txt|csv|md|json|png|jpe?g|gif|zip|tar|gz|pptx?|eml|ics)\b", re.I)
_ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
# A day as people write it in a question: a weekday (Tue, Tuesday), a month with a day number
# ("May 13", "13 Dec"), an ordinal ("the 13th"), a numeric date (13/01, 2026-01-13) or a relative day.
_DAY_WORDS = re.compile(
    r"\b(?:" + "|".join(w[:3] + "(?:" + w[3:] + ")?" for w in _WEEKDAYS) + r")\b\.?"
    r"|\b(?:" + "|".join(m[:3] + "(?:" + m[3:] + ")?" for m in _MONTHS if m != "may") + r")\b\.?"
    r"|\bmay\s+\d{1,2}\b|\b\d{1,2}(?:st|nd|rd|th)?\s+may\b"
    r"|\b\d{1,2}(?:st|nd|rd|th)\b|\b\d{1,2}[/.]\d{1,2}(?:[/.]\d{2,4})?\b|\b\d{4}-\d{2}-\d{2}\b"
    r"|\b(?:today|tomorrow|yesterday|next week|this week)\b", re.I)


def matches(when: str | Sequence[str], question: str) -> bool:
    """Whether ``question`` matches one scripted ``when`` (a regex, or a list of words or phrases)."""
    if isinstance(when, str):
        return re.search(when, question, re.IGNORECASE) is not None
    return any(re.search(r"(?<!\w)" + re.escape(str(w).strip()), question, re.IGNORECASE) for w in when if str(w).strip())


def mentions(candidates: Mapping[str, Any] | None, question: str) -> bool:
    """Whether ``question`` names one of an entry's ``candidates`` (``candidates`` below): one of its
    values or people (whole words, ignoring case), one of its files (by name or stem), or, when the
    entry is about a date, any date or weekday."""
    if not candidates:
        return False
    if candidates.get("dates") and _DAY_WORDS.search(question):
        return True
    if any(_word_in(str(value), question) for value in candidates.get("values", [])):
        return True
    # a name alone only as a name ("Will", "Mark" are words too); a full name or an address in any case
    if any(_word_in(p, question, case=" " in p or "@" in p) for p in candidates.get("people", [])):
        return True
    return any(_word_in(name, question) for path in candidates.get("files", [])
               for name in {posixpath.basename(path), posixpath.splitext(posixpath.basename(path))[0]})


def _word_in(value: str, text: str, case: bool = True) -> bool:
    """Whether ``value`` is in ``text`` as whole words (ignoring case unless ``case`` is false)."""
    value = value.strip()
    if not value:
        return False
    pattern = r"(?<![\w@.-])" + re.escape(value) + r"(?![\w@]|[.-]\w)"
    return re.search(pattern, text, re.IGNORECASE if case else 0) is not None


def match_reply(replies: Sequence[Mapping[str, Any]], question: str) -> int | None:
    """The index of the first entry whose ``when`` ``question`` matches, else of the first one whose
    candidates it names, or None."""
    for i, entry in enumerate(replies):
        if matches(entry["when"], question):
            return i
    for i, entry in enumerate(replies):
        if mentions(entry.get("candidates"), question):
            return i
    return None


def reply_to(script: Mapping[str, Any] | None, question: str) -> str:
    """The scripted user's reply to ``question``: the first matching entry's, else the default."""
    script = script or {}
    replies = script.get("replies") or []
    index = match_reply(replies, question)
    return replies[index]["reply"] if index is not None else str(script.get("default") or DEFAULT_REPLY)


# ---- what an entry is about ----------------------------------------------------------------------
def person_names(address: str) -> list[str]:
    """The names an address's owner goes by, from its local part: ``dmitri.novak@x`` -> "Dmitri Novak",
    "Dmitri", "Novak" (an address without a first.last local part gives only itself)."""
    parts = [p for p in re.split(r"[._-]+", address.split("@", 1)[0]) if p.isalpha() and len(p) > 1]
    names = [address]
    if len(parts) >= 2:
        names += [" ".join(p.capitalize() for p in parts), parts[0].capitalize(), parts[-1].capitalize()]
    return names


def candidates(entry: Mapping[str, Any], *, people: Iterable[str] = (), names: Mapping[str, str] | None = None,
               files: Iterable[str] = (), folders: Iterable[str] = (), user: str = "") -> dict[str, list]:
    """The values a question may name to be about ``entry`` (a ``user_replies`` item), derived from the
    entry and what the task knows: ``people`` (every address of the task), ``names`` (name -> address,
    an imported office's people), ``files`` (every office path), ``folders`` (folders the instruction
    names: their files are the options of a "which of the files" entry), ``user`` (never a candidate).

    - ``values``: the reply's and ``guess``'s values as written (a path also by its base name);
    - ``dates``: true when the reply or ``guess`` gives a date: then any date or weekday counts;
    - ``people``: every name and address of the task's people when the entry is about a person (its
      reply or ``guess`` names one), the user aside;
    - ``files``: the office files it is about: a file its reply or ``guess`` names, the files of a
      folder the instruction names, and the files whose name shares a word with a ``guess`` value."""
    names = dict(names or {})
    guess = entry.get("guess") or {}
    literals = [str(v) for pair in guess.items() for v in pair if str(v).strip()]
    text = " ".join([str(entry.get("reply", "")), *literals])
    user = user.lower()
    known = sorted({a.lower() for a in [*people, *names.values(), *_ADDRESS.findall(text)]} - {user, ""})
    person_words = {n: a for a in known for n in person_names(a)}
    person_words.update({n: a.lower() for n, a in names.items() if a.lower() != user})
    about_person = any(_word_in(n, text, case=" " in n or "@" in n) for n in person_words)
    named_files = {m.group(0) for m in _FILE.finditer(text)}
    words = {w.lower() for v in literals for w in re.findall(r"[A-Za-z]{3,}", v)}
    folders = [f.strip("/") + "/" for f in folders if f.strip("/")]
    about_files = sorted({f for f in files
                          if f in named_files or posixpath.basename(f) in named_files
                          or (guess and any(f.startswith(d) for d in folders))
                          or (guess and words & {w.lower() for w in re.findall(r"[A-Za-z]{3,}", posixpath.basename(f))
                                                  if w.lower() not in _EXTENSIONS})})
    values = sorted({*literals, *(posixpath.basename(v) for v in literals if "/" in v)})
    out: dict[str, list] = {"values": values}
    if _ISO.search(text) or _DAY_WORDS.search(str(entry.get("reply", ""))):
        out["dates"] = [True]
    if about_person:
        out["people"] = sorted({n for n, a in person_words.items() if a != user} | set(known))
    if about_files:
        out["files"] = about_files
    return out


_EXTENSIONS = {"doc", "docx", "xls", "xlsx", "pdf", "txt", "csv", "json", "png", "jpg", "jpeg", "zip", "eml", "ics"}


# ---- grading -------------------------------------------------------------------------------------
def ask_counts(replies: Sequence[Mapping[str, Any]], questions: Iterable[str]) -> dict[str, int]:
    """How an episode's questions relate to the task's needed entries: ``questions_asked``,
    ``questions_needed`` (needed entries in the script) and ``needed_asked`` (needed entries that at
    least one question matched; asking the same thing twice counts once)."""
    questions = list(questions)
    needed = {i for i, e in enumerate(replies) if e.get("needed")}
    reached = {match_reply(replies, q) for q in questions} & needed
    return {"questions_asked": len(questions), "questions_needed": len(needed), "needed_asked": len(reached)}


def _steps(history: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """A session's actions in the order they ran: a code program's calls in place of its step."""
    out = []
    for h in history:
        calls = h.get("calls")
        out.extend(calls if calls else [h])
    return out


def asked_questions(history: Iterable[Mapping[str, Any]]) -> list[str]:
    """The questions of a session's history (its steps as the API shows them, and the calls of its
    programs in mode code) that got a reply."""
    return [str((h.get("args") or {}).get("question", "")).strip() for h in _steps(history)
            if h.get("app") == "system" and h.get("action") == "ask_user" and h.get("ok")]


def unasked(replies: Sequence[Mapping[str, Any]], history: Iterable[Mapping[str, Any]],
            writes: Any = None, states: Any = None) -> list[str]:
    """Why the asking failed, one line per ``needed`` entry: no question of the session reached it, or
    the agent acted on the reply's value before one did. Acting is a step that changes the office
    (``writes(app, action)`` says which do) or the finish answer, whose arguments state one of the
    values the gold writes from the reply (its ``guess`` keys; ``states(text, value)`` decides, as the
    checks' facts do). An entry without ``guess`` only needs to have been asked."""
    steps = [h for h in _steps(history) if h.get("ok")]
    out = []
    for i, entry in enumerate(replies):
        if not entry.get("needed"):
            continue
        asked = next((k for k, h in enumerate(steps) if h.get("app") == "system" and h.get("action") == "ask_user"
                      and match_reply(replies, str((h.get("args") or {}).get("question", ""))) == i), None)
        reply = entry.get("reply", "")
        if asked is None:
            out.append(f"user_replies[{i}] is needed (the right outcome depends on the user's reply {reply!r}), "
                       "but no question asked the user for it")
            continue
        values = [str(v) for v in (entry.get("guess") or {})]
        for k, h in enumerate(steps[:asked]):
            finishing = h.get("app") == "system" and h.get("action") == "finish_task"
            if not finishing and not (writes and writes(h.get("app"), h.get("action"))):
                continue
            text = _arg_text(h.get("args"))
            value = next((v for v in values if (states(text, v) if states else v.lower() in text.lower())), None)
            if value is not None:
                out.append(f"user_replies[{i}] is needed, but the agent wrote its value {value!r} "
                           f"({h.get('app')}.{h.get('action')}) before asking the user (reply {reply!r})")
                break
    return out


def _arg_text(args: Any) -> str:
    if isinstance(args, Mapping):
        return "\n".join(_arg_text(v) for v in args.values())
    if isinstance(args, (list, tuple)):
        return "\n".join(_arg_text(v) for v in args)
    return "" if args is None else str(args)
