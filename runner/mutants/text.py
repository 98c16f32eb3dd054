"""Mutants of written text and the answer: the answer replaced by or hedged with a distractor, given in a
sentence; and, where a check reads a mail, document or answer closed-world (evaluators/claims.py), a second
value beside an expected fact, a hedge, a self-correction, a negation, a weekday that disagrees with its
date, a greeting to someone else; times, dates, numbers, amounts and identifiers written as people do."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from officesim.evaluators.claims import (GROUP_GREETINGS, Claim, build_directory, claims_in, negated, office_sources,
                                        same_claim)
from officesim.evaluators.facts import IDENTIFIER, Mention, dates_in, fact_of, find, times_in
from officesim.evaluators.text import as_number, collapse
from officesim.runner.mutants.base import (_ADDRESS, _BODY_ARGS, _MONEY_WORDS, _MONTHS, _TEXT_ARGS, _WEEKDAYS,
                                           BaseDeriver, _date_mentions, _like, _line_at, _listed, _minutes, _Num,
                                           _retime, _year_like, date_form_fixed, nudged, office_path,
                                           standalone_numbers)
from officesim.runner.mutants.registry import RIGHT, WRONG


class TextMutants(BaseDeriver):
    # -- wrong: the answer ---------------------------------------------------------------------------
    def answer_distractor(self) -> str | None:
        answer = self.answer
        if answer is None or isinstance(answer, (list, dict)):
            return None
        text = collapse(answer)
        number = as_number(answer) if not isinstance(answer, bool) else None
        if number is not None:
            other = self.office.distractor_number(number)
            return None if other is None else _like(_Num(number, str(answer)), other)
        if _ADDRESS.fullmatch(text):
            return self.office.other_address([text, self.task.user], like=text)
        if re.fullmatch(r"\d{1,2}:\d{2}(:\d{2})?", text):
            times = sorted({f"{m.value.hour:02d}:{m.value.minute:02d}" for m in times_in(self.office.all_text)})
            mine = text[:5].zfill(5)
            others = [t for t in times if t != mine]
            return min(others, key=lambda t: abs(_minutes(t) - _minutes(mine))) if others else None
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            days = sorted({m.value for m in dates_in(self.office.all_text, self.year) if isinstance(m.value, date)})
            d = date.fromisoformat(text)
            others = [x for x in days if x != d]
            return min(others, key=lambda x: (abs((x - d).days), x)).isoformat() if others else None
        return self._text_distractor(text)

    def _text_distractor(self, text: str) -> str | None:
        low = text.casefold()
        for entry in self.office.files.values():  # a sibling in the same spreadsheet column
            for rows in (entry.get("sheets") or {}).values() if entry.get("kind") == "xlsx" else []:
                for r, row in enumerate(rows):
                    for c, v in enumerate(row):
                        if collapse(v).casefold() == low:
                            column = [collapse(rows[k][c]) for k in range(1, len(rows)) if c < len(rows[k])]
                            others = [x for x in column if x and x.casefold() != low and as_number(x) is None]
                            if others:
                                return min(others, key=lambda x: abs(column.index(x) + 1 - r))
        for entry in self.office.files.values():  # another event of the same calendar
            if entry.get("kind") == "ics":
                names = [collapse(ev.get("summary")) for ev in entry.get("events") or []]
                if low in [n.casefold() for n in names]:
                    others = [n for n in names if n and n.casefold() != low]
                    if others:
                        return others[0]
        shape = re.sub(r"\d", r"\\d", re.sub(r"[A-Z]", "[A-Z]", re.escape(text)))
        if re.search(r"\d", text) and re.search(r"[A-Za-z]", text):  # a code: another of the same shape
            others = sorted({m for m in re.findall(rf"(?<![\w-]){shape}(?![\w-])", self.office.all_text) if m != text})
            if others:
                return others[0]
        for line in self.office.all_text.splitlines():  # the same label on another line
            at = line.casefold().find(low)
            prefix = line[:at].strip() if at > 0 else ""
            if len(prefix) < 3:
                continue
            for other in self.office.all_text.splitlines():
                if other.strip().casefold().startswith(prefix.casefold()):
                    rest = collapse(other.strip()[len(prefix):]).strip(" :-")
                    if rest and rest.casefold() != low and low not in rest.casefold():
                        return rest
        return None

    def answers_wrong(self) -> None:
        if self.answer is None:
            return
        steps = self.steps()
        number = as_number(self.answer) if not isinstance(self.answer, (bool, list, dict)) else None
        if number is not None:
            num = _Num(number, str(self.answer))
            new = nudged(number, num.decimals)
            value = _like(num, new) if isinstance(self.answer, str) else (int(new) if float(new).is_integer() else new)
            self.add(WRONG, "number-changed", f"answer {self.answer} -> {value}", steps, answer=value)
        elif isinstance(self.answer, str) and re.fullmatch(r"\d{1,2}:\d{2}", self.answer.strip()):
            new = _retime(self.answer.strip())
            if new:
                self.add(WRONG, "number-changed", f"answer {self.answer} -> {new}", steps, answer=new)
        other = self.answer_distractor()
        if other is not None:
            self.add(WRONG, "answer-distractor", f"answer {self.answer!r} -> {other!r}", steps, answer=other)
            hedge = f"Either {self.answer} or {other}"
            self.add(WRONG, "answer-hedged", f"answer {hedge!r}", steps, answer=hedge)


    # -- right: the answer in a sentence -------------------------------------------------------------
    def answer_right(self) -> None:
        if self.answer is None or isinstance(self.answer, (list, dict)):
            return
        sentence = f"The answer is {self.answer}."
        self.add(RIGHT, "answer-sentence", f"answer {sentence!r}", self.steps(), answer=sentence)



# ---- the closed world of written text (evaluators/claims.py; tasks/FORMAT.md §5) ---------------------
# checks that read a place closed-world, and the arguments that hold its expected facts
_MAIL_CHECKS = {"email_sent": ("body_contains", "lines"), "mailbox_contains": ("text",)}
_FILE_CHECKS = {"contains": ("text", "lines")}
_ANSWER_CHECKS = {"answer_contains": ("text",)}
_WEEKDAY_WORD = re.compile(r"(?i)\b(mon|tue|wed|thu|fri|sat|sun)(day|sday|nesday|rsday|urday)?\b")
_NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]
_PER_CLASS = 2  # at most this many mutants of one written-text class per task


def _facts(value: Any) -> list[Any]:
    out: list[Any] = []
    for item in value if isinstance(value, (list, tuple)) else [value]:
        if isinstance(item, (list, tuple)):
            out += _facts(item)
        elif item is not None and item != "":
            out.append(item)
    return out


@dataclass
class _Place:
    """A text the gold writes that a check reads closed-world: step ``index``'s argument ``key`` (or the
    answer, ``index`` None), and the facts that check expects there."""

    index: int | None
    key: str
    facts: list[Any]

    def text(self, steps: list[dict], answer: Any) -> str:
        return str(answer) if self.index is None else str(steps[self.index]["args"].get(self.key) or "")

    def put(self, steps: list[dict], answer: Any, new: str) -> Any:
        """Writes ``new`` in ``steps``; returns the answer to play."""
        if self.index is None:
            return new
        steps[self.index]["args"][self.key] = new
        return answer



class WrittenMutants(BaseDeriver):
    """Mutants of what the gold writes in mail, documents and the answer, where a check reads it
    closed-world: wrong ones state a second value, hedge, correct themselves, negate, swap a person or
    a weekday; right ones write times, dates, numbers, amounts and identifiers as people do."""

    # -- where the gold writes text a check reads ------------------------------------------------------
    def places(self) -> list[_Place]:
        if hasattr(self, "_places"):
            return self._places
        checks = [(c.check, c.args or {}) for c in getattr(self.task, "checks", None) or []]
        out: list[_Place] = []
        mail_facts = [f for name, args in checks if name in _MAIL_CHECKS for k in _MAIL_CHECKS[name]
                      for f in _facts(args.get(k))]
        for i, step in enumerate(self.core):
            op = (step["app"], step["action"])
            args = step.get("args") or {}
            if op in _BODY_ARGS and any(name in _MAIL_CHECKS for name, _a in checks):
                out.append(_Place(i, _BODY_ARGS[op], mail_facts))
            elif op == ("word", "write_to_file"):
                path = office_path(args.get("file_path"))
                facts = [f for name, a in checks if name in _FILE_CHECKS and office_path(a.get("file")) == path
                         for k in _FILE_CHECKS[name] for f in _facts(a.get(k))]
                if any(name in _FILE_CHECKS and office_path(a.get("file")) == path for name, a in checks):
                    out.append(_Place(i, "contents", facts))
        if isinstance(self.answer, str) and any(name in _ANSWER_CHECKS for name, _a in checks):
            out.append(_Place(None, "answer", [f for name, a in checks if name in _ANSWER_CHECKS
                                               for k in _ANSWER_CHECKS[name] for f in _facts(a.get(k))]))
        self._places = out
        return out

    def supported(self) -> list[Claim]:
        """What any text may state: the instruction's values and everything the gold writes."""
        if not hasattr(self, "_supported"):
            texts = [self.instruction, str(self.answer or "")]
            for step in self.core:
                for key in _TEXT_ARGS.get((step["app"], step["action"]), ()):
                    texts.append(str((step.get("args") or {}).get(key) or ""))
                texts += [str(v) for v in (step.get("args") or {}).values() if isinstance(v, (str, int, float))]
            self._supported = [c for t in texts for c in claims_in(t, year=self.year, dotted_times=True)]
        return self._supported

    def sources(self) -> list[tuple[Claim, set[str], int]]:
        if not hasattr(self, "_sources"):
            self._sources = office_sources(self.office.files, self.year)
        return self._sources

    def _is_supported(self, claim: Claim) -> bool:
        """Whether something in the task supports ``claim`` (remembered by what decides it: an
        office states the same values many times over)."""
        key = (claim.kind, claim.value, claim.precision, claim.currency, claim.unscaled)
        known = self.__dict__.setdefault("_supported_by", {})
        if key not in known:
            known[key] = any(same_claim(claim, s) or same_claim(s, claim) for s in self.supported())
        return known[key]

    def distractor(self, kind: str, value: Any, raw: str) -> str | None:
        """Another value of ``kind`` the office states, in a unit (row, event, line) apart from ``value``'s,
        that nothing in the task supports, written like ``raw``; None when there is none."""
        mine = Claim(kind, value, raw)
        units = {u for c, _w, u in self.sources() if same_claim(mine, c)}
        pool: dict[Any, Claim] = {}
        for c, _w, u in self.sources():
            if c.kind != kind or u in units or same_claim(c, mine) or c.value in pool:
                continue
            if kind == "date" and not isinstance(c.value, date):
                continue
            if kind == "number" and (_year_like(c.value) != _year_like(value) or (c.value < 0) != (value < 0)):
                continue
            if self._is_supported(c):
                continue
            pool[c.value] = c
        if not pool:
            return None
        if kind == "number":
            best = min(pool, key=lambda v: (abs(math.log10(abs(v) + 1e-9) - math.log10(abs(value) + 1e-9)),
                                            abs(v - value), v))
            return _like(_Num(value, raw), best)
        if kind == "date":
            best = min(pool, key=lambda d: (abs((d - value).days), d))
            return f"{best.day} {_MONTHS[best.month - 1]} {best.year}"
        if kind == "time":
            best = min(pool, key=lambda t: (abs(t.hour * 60 + t.minute - value.hour * 60 - value.minute), t))
            return f"{best.hour:02d}:{best.minute:02d}"
        return None

    def fact_sites(self) -> list[tuple[_Place, Any, Mention, str]]:
        """(place, fact, where the gold states it, its kind) for each expected number, date or time the
        gold's text states once."""
        out = []
        for place in self.places():
            text = place.text(self.core, self.answer)
            for fact in place.facts:
                kind, _value = fact_of(fact)
                if kind not in ("number", "date", "time"):
                    continue
                m = find(text, fact, year=self.year)
                if m is None or any(o[2].start == m.start and o[0] is place for o in out):
                    continue
                out.append((place, fact, m, kind))
        return out

    def _edit(self, cls: str, place: _Place, start: int, end: int, new: str, what: str) -> None:
        steps = self.steps()
        text = place.text(steps, self.answer)
        answer = place.put(steps, self.answer, text[:start] + new + text[end:])
        where = "answer" if place.index is None else self.label(self.core[place.index], place.index)
        self.add(WRONG if cls in WRONG_TEXT else RIGHT, cls, f"{where}: {what}", steps, answer)

    # -- wrong ---------------------------------------------------------------------------------------
    def text_wrong(self) -> None:
        made: dict[str, int] = {}

        def room(cls: str) -> bool:
            return made.get(cls, 0) < _PER_CLASS

        for place, fact, m, kind in self.fact_sites():
            text = place.text(self.core, self.answer)
            raw = text[m.start:m.end]
            value = fact_of(fact)[1]
            if kind == "number":
                value = m.value
            other = self.distractor(kind, value, raw.strip())
            if other is not None:
                for cls, new in (("text-contradiction", f"{raw} ({other} by the other count)"),
                                 ("text-hedged", f"{raw}, or {other}"),
                                 ("text-hedged", f"between {raw} and {other}"),
                                 ("text-self-corrected", f"{other}, correction, {raw}"),
                                 ("text-self-corrected", f"{raw}, correction, {other}")):
                    if room(cls):
                        made[cls] = made.get(cls, 0) + 1
                        self._edit(cls, place, m.start, m.end, new, f"{raw.strip()} as {new!r}")
            line = _line_at(text, m.start)
            if room("text-negated") and not negated(line) and place.index is not None:
                made["text-negated"] = made.get("text-negated", 0) + 1
                self._edit("text-negated", place, m.start, m.start, "not ", f"'not {raw.strip()}'")
        for place in self.places():
            text = place.text(self.core, self.answer)
            for m in dates_in(text, self.year):
                wd = next(iter(reversed(list(_WEEKDAY_WORD.finditer(text, max(0, m.start - 12), m.end)))), None)
                if not wd or not isinstance(m.value, date) or not room("weekday-mismatch"):
                    continue
                wrong = _WEEKDAYS[(m.value.weekday() + 1) % 7]
                new = wrong if wd.group(2) else wrong[:3]
                new = new if wd.group(0)[0].isupper() else new.lower()
                made["weekday-mismatch"] = made.get("weekday-mismatch", 0) + 1
                self._edit("weekday-mismatch", place, wd.start(), wd.end(), new, f"{wd.group(0)} as {new}")
            self._swap_greeting(place, text, made)

    def _swap_greeting(self, place: _Place, text: str, made: dict[str, int]) -> None:
        if place.index is None or made.get("text-entity-swapped", 0) >= _PER_CLASS:
            return
        step = self.core[place.index]
        args = step.get("args") or {}
        if step["action"] == "reply_email":
            original = self._message(args.get("username"), args.get("email_id")) or {}
            to = [str(original.get("from") or "").lower()]
        else:
            to = [str(a).lower() for a in _listed(args.get("recipient")) + _listed(args.get("cc"))]
        first = next((ln for ln in text.splitlines() if ln.strip()), "")
        m = _GREETING_NAME.match(first)
        if not m:
            return
        directory = build_directory(self.office.files.values(), getattr(self.task, "people", None), self.task.user)
        named = m["name"].split()[0]
        mine = {(p.first or "").casefold() for a in to for p in [directory.people.get(a)] if p}
        if named.casefold() not in mine:
            return
        others = sorted({p.first for p in directory.people.values() if p.first and p.address not in to
                         and p.address != str(self.task.user).lower() and p.first.casefold() not in mine
                         and len(directory.named(p.first)) == 1 and p.first.isalpha()
                         and p.first.casefold() not in GROUP_GREETINGS})  # "Hi All" greets a group (a list's name)
        if not others:
            return
        made["text-entity-swapped"] = made.get("text-entity-swapped", 0) + 1
        start = text.find(first) + m.start("name")
        self._edit("text-entity-swapped", place, start, start + len(named), others[0],
                   f"greets {others[0]} instead of {named}")

    # -- right ---------------------------------------------------------------------------------------
    def text_right(self) -> None:
        fixed_dates = date_form_fixed(self.instruction)
        for cls, make in (("time-reformatted", self._time_forms), ("number-in-words", self._number_words),
                          ("amount-scaled", self._scaled), ("identifier-reformatted", self._ids),
                          ("date-reformatted-natural", None if fixed_dates else self._natural_dates)):
            if make is None:
                continue
            steps, answer, changed = self.steps(), self.answer, []
            for place in self.places():
                text = place.text(steps, answer)
                edits = [e for e in make(text) if not self._fixed(_line_at(text, e[0]))]
                for start, end, new in sorted(edits, reverse=True):
                    changed.append(f"{text[start:end].strip()} as {new}")
                    text = text[:start] + new + text[end:]
                answer = place.put(steps, answer, text)
            if changed:
                self.add(RIGHT, cls, ", ".join(changed[:3]) + (f" (+{len(changed) - 3})" if len(changed) > 3 else ""),
                         steps, answer)

    def _time_forms(self, text: str) -> list[tuple[int, int, str]]:
        if re.search(r"\bHH:?MM\b", self.instruction):
            return []
        out = []
        for m in times_in(text):
            raw = text[m.start:m.end]
            if not re.fullmatch(r"\d{1,2}:\d{2}", raw.strip()):
                continue
            h, mi = m.value.hour, m.value.minute
            out.append((m.start, m.end, f"{h % 12 or 12}{'' if not mi else f':{mi:02d}'}{'am' if h < 12 else 'pm'}"))
        return out

    def _number_words(self, text: str) -> list[tuple[int, int, str]]:
        out, names = [], self.named_spans(text)
        for m in standalone_numbers(text):
            if any(a <= m.start < b for a, b in names):
                continue  # "Paper A4 (5 reams)" is a product's name: "five reams" names no product
            raw = text[m.start:m.end]
            after = text[m.end:m.end + 30]
            before = text[max(0, m.start - 12):m.start]
            if not re.fullmatch(r"\d{1,2}", raw) or not 2 <= m.value <= 20 or not re.match(r" [a-z]{3,}", after):
                continue
            if re.search(r"#\s?$|[$€£]\s?$|\b(?:no|number|room|team|week|q|day|item|step|floor|level|building|phase|"
                         r"unit|table|line|row|column|version|v|midterm|round|gate|desk|lab)\.?\s$", before, re.I):
                continue
            if re.match(r" (?:am|pm|percent|per|of|and|to|or)\b", after) or _MONEY_WORDS.search(after[:12]):
                continue
            out.append((m.start, m.end, _NUMBER_WORDS[int(m.value)]))
        return out

    def _scaled(self, text: str) -> list[tuple[int, int, str]]:
        out = []
        for m in standalone_numbers(text):
            raw = text[m.start:m.end].strip()
            if abs(m.value) < 1e6 or not re.fullmatch(r"[$€£]?\d{1,3}(,\d{3})+|[$€£]?\d{7,}", raw):
                continue
            millions = m.value / 1e6
            if round(millions, 3) != millions:
                continue
            cur = _Num(m.value, raw).currency
            out.append((m.start, m.end, f"{cur}{millions:,.3f}".rstrip("0").rstrip(".") + " million"))
        return out

    def _ids(self, text: str) -> list[tuple[int, int, str]]:
        out = []
        for m in IDENTIFIER.finditer(text):
            sep = m.group(0)[len(m["prefix"]):len(m.group(0)) - len(m["digits"])]
            if sep != "-" or not m["prefix"].isupper() or len(m["prefix"]) < 2 or not m["digits"].isdigit() \
                    or len(m["digits"]) < 3 or (m.start() and text[m.start() - 1].isalnum()):
                continue
            out.append((m.start(), m.end(), f"{m['prefix']} {m['digits']}"))
        return out

    def _natural_dates(self, text: str) -> list[tuple[int, int, str]]:
        out = []
        for m in _date_mentions(text, self.year):
            raw = text[m.start:m.end]
            if m.value.year != self.year or not re.search(str(m.value.year), raw):
                continue
            out.append((m.start, m.end, f"{m.value.day} {_MONTHS[m.value.month - 1][:3]}"))
        return out


WRONG_TEXT = {"text-contradiction", "text-hedged", "text-self-corrected", "text-negated", "text-entity-swapped",
              "weekday-mismatch"}
_GREETING_NAME = re.compile(r"^\s*(?i:dear|hi|hello|hey|good (?:morning|afternoon|evening))\b[ \t,]*"
                            r"(?P<name>[A-Z][a-z'’\-]+(?:[ \t]+[A-Z][a-z'’\-]+)?)")


# ---- the adversary's written-text classes: pairs and lists; and text as people write it ------------
_HYPHENATED = re.compile(r"(?<![\w@./-])([a-z]{3,})-([a-z]{3,})(?![\w@-])")
_STEM_WORDS = re.compile(r"[A-Za-z]{3,}")


def _groups(value: Any) -> list[list[Any]]:
    """The ``lines`` groups of a check: each a list of facts one line must state together."""
    return [list(g) for g in value or [] if isinstance(g, (list, tuple)) and len(g) >= 2]


class AdversaryWritten(WrittenMutants):
    """Wrong: paired facts re-paired, an enumeration extended with another item of the office. Right:
    hyphenation, names in 'Last, First' order, one more true line, a title line."""

    def adversary_text(self) -> None:
        self._pairs_unbound()
        self._lists_extended()
        self._people_write()

    # -- wrong: pair-unbound ---------------------------------------------------------------------------
    def _line_groups(self) -> list[list[Any]]:
        checks = [(c.check, c.args or {}) for c in getattr(self.task, "checks", None) or []]
        return [g for name, args in checks if name in (*_MAIL_CHECKS, *_FILE_CHECKS) for g in _groups(args.get("lines"))]

    def _pairs_unbound(self) -> None:
        """Two lines' paired facts swapped ("Planning - 17 June", "Training - 16 June"): each fact still
        stated, none with its partner."""
        groups = self._line_groups()
        made = 0
        for place in self.places():
            text = place.text(self.core, self.answer)
            spots = []  # (group, value fact, its mention) for groups the text states on one line
            for g in groups:
                found = [(f, find(text, f, year=self.year)) for f in g]
                if any(m is None for _f, m in found):
                    continue
                values = [(f, m) for f, m in found if fact_of(f)[0] in ("number", "date", "time", "datetime")]
                if values:
                    spots.append((g, *values[-1]))
            for (g1, f1, m1), (g2, f2, m2) in zip(spots, spots[1:]):
                if made >= _PER_CLASS or fact_of(f1)[0] != fact_of(f2)[0] or _line_at(text, m1.start) == _line_at(text, m2.start):
                    continue
                a, b = sorted([m1, m2], key=lambda m: m.start)
                new = text[:a.start] + text[b.start:b.end] + text[a.end:b.start] + text[a.start:a.end] + text[b.end:]
                steps = self.steps()
                answer = place.put(steps, self.answer, new)
                where = "answer" if place.index is None else self.label(self.core[place.index], place.index)
                made += 1
                self.add(WRONG, "pair-unbound", f"{where}: {text[a.start:a.end].strip()} and "
                         f"{text[b.start:b.end].strip()} swapped between {g1[0]!r} and {g2[0]!r}", steps, answer)

    # -- wrong: list-extended --------------------------------------------------------------------------
    def _items(self) -> dict[str, tuple[str, list[dict]]]:
        """Every item name of the office's lists (an event's title, a text cell of a table column), lower
        case, with its list (calendar or sheet column) and the list's items: {name: (list key, items)},
        each item {"name", "date"/"time" or "cells"}."""
        if hasattr(self, "_item_index"):
            return self._item_index
        out: dict[str, tuple[str, list[dict]]] = {}
        for path, entry in self.office.files.items():
            if entry.get("kind") == "ics":
                items = []
                for ev in entry.get("events") or []:
                    start = EventMoment.of(ev.get("start"))
                    if collapse(ev.get("summary")) and start:
                        items.append({"name": collapse(ev.get("summary")), "start": start})
                for item in items:
                    out.setdefault(item["name"].casefold(), (path, items))
            elif entry.get("kind") == "xlsx":
                for sheet, rows in (entry.get("sheets") or {}).items():
                    body = rows[_header_row(rows) + 1:]  # below the header, not a title row above it
                    for c in range(max((len(r) for r in rows), default=0)):
                        items = [{"name": collapse(r[c]), "cells": r} for r in body
                                 if c < len(r) and isinstance(r[c], str) and collapse(r[c]) and as_number(r[c]) is None]
                        if len(items) < 3:
                            continue
                        for item in items:
                            out.setdefault(item["name"].casefold(), (f"{path}#{sheet}#{c}", items))
        self._item_index = out
        return out

    def _lists_extended(self) -> None:
        """An enumeration of the office's items (two or more lines, each naming one) with one more line:
        the next item of the same list that the gold leaves out, written like its neighbour."""
        items = self._items()
        expected = {str(f).casefold() for p in self.places() for f in p.facts if isinstance(f, str)}
        made = 0
        for place in self.places():
            text = place.text(self.core, self.answer)
            lines = text.splitlines()
            named: dict[str, list[tuple[int, dict]]] = {}
            for k, line in enumerate(lines):
                for name, (key, members) in items.items():
                    if name in expected and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", line, re.I):
                        member = next(m for m in members if m["name"].casefold() == name)
                        named.setdefault(key, []).append((k, member))
            for key, hits in named.items():
                rows = {k for k, _m in hits}
                if len(rows) < 2 or made >= _PER_CLASS:
                    continue
                members = items[hits[0][1]["name"].casefold()][1]
                low = text.casefold()
                extra = next((m for m in members if m["name"].casefold() not in expected
                              and m["name"].casefold() not in low and len(m["name"]) >= 3), None)
                if extra is None:
                    continue
                k, like = hits[-1]
                line = self._like_line(lines[k], like, extra)
                if line is None:
                    continue
                new = "\n".join(lines[:k + 1] + [line] + lines[k + 1:])
                steps = self.steps()
                answer = place.put(steps, self.answer, new)
                where = "answer" if place.index is None else self.label(self.core[place.index], place.index)
                made += 1
                self.add(WRONG, "list-extended", f"{where}: + {line.strip()!r}", steps, answer)

    def _like_line(self, line: str, like: dict, extra: dict) -> str | None:
        """``line`` about item ``like`` rewritten about item ``extra``: its name, and its date and time or
        its row's values, put in."""
        at = re.search(rf"(?<!\w){re.escape(like['name'])}(?!\w)", line, re.I)
        if not at:
            return None
        edits = [(at.start(), at.end(), extra["name"])]
        if "start" in like:
            for m in dates_in(line, self.year):
                if isinstance(m.value, date) and not (m.end <= at.start() or m.start >= at.end()):
                    continue
                if isinstance(m.value, date):
                    d = extra["start"].date()
                    raw = line[m.start:m.end]
                    day = f"{_WEEKDAYS[d.weekday()]} " if _WEEKDAY_WORD.search(raw) else ""
                    edits.append((m.start, m.end, f"{day}{d.day} {_MONTHS[d.month - 1]}" + ("" if day else f" {d.year}")))
            for m in times_in(line):
                t = extra["start"]
                edits.append((m.start, m.end, f"{t.hour:02d}:{t.minute:02d}"))
        else:
            for m in standalone_numbers(line):
                for c, cell in enumerate(like["cells"]):
                    if isinstance(cell, (int, float)) and abs(float(cell) - m.value) < 1e-9 and c < len(extra["cells"]) \
                            and isinstance(extra["cells"][c], (int, float)):
                        edits.append((m.start, m.end, _like(_Num(m.value, line[m.start:m.end]), float(extra["cells"][c]))))
                        break
        edits = sorted({(s, e): (s, e, t) for s, e, t in edits}.values(), reverse=True)
        for (s, e, t), nxt in zip(edits, [*edits[1:], None]):
            if nxt is not None and nxt[1] > s:
                return None  # overlapping edits: no clean line
        for s, e, t in edits:
            line = line[:s] + t + line[e:]
        return line

    # -- right: as people write ------------------------------------------------------------------------
    def _people_write(self) -> None:
        for cls, make in (("hyphenation", self._hyphens), ("name-order", self._names_reversed)):
            steps, answer, changed = self.steps(), self.answer, []
            for place in self.places():
                text = place.text(steps, answer)
                edits = [e for e in make(text, place) if not self._fixed(_line_at(text, e[0]))]
                for start, end, new in sorted(edits, reverse=True):
                    changed.append(f"{text[start:end].strip()} as {new}")
                    text = text[:start] + new + text[end:]
                answer = place.put(steps, answer, text)
            if changed:
                self.add(RIGHT, cls, ", ".join(changed[:3]) + (f" (+{len(changed) - 3})" if len(changed) > 3 else ""),
                         steps, answer)
        for place in self.places():
            if place.index is None:
                continue
            step = self.core[place.index]
            text = place.text(self.core, self.answer)
            if not text.strip() or self._fixed(text):
                continue
            label = self.label(step, place.index)
            if (step["app"], step["action"]) in _BODY_ARGS:
                extra = self._true_line()
                lines = text.rstrip("\n").splitlines()
                cut = next((k for k in range(len(lines) - 1, 0, -1) if _SIGN_OFF.match(lines[k])), None)
                if cut is None:  # no sign-off: the line goes before the closing name, or at the end
                    cut = len(lines) - 1 if len(lines) > 2 and len(lines[-1].split()) <= 3 and not re.search(r"\d", lines[-1]) \
                        else len(lines)
                new = "\n".join(lines[:cut] + ([""] if cut and lines[cut - 1].strip() else []) + [extra, ""] + lines[cut:])
                steps = self.steps()
                place.put(steps, self.answer, new)
                self.add(RIGHT, "summary-extra-line", f"{label} + {extra!r}", steps)
                subject = str((step.get("args") or {}).get("subject") or "").strip()
                if subject and not re.search(r"\d", subject):
                    steps = self.steps()
                    place.put(steps, self.answer, f"{subject}\n\n{text}")
                    self.add(RIGHT, "title-line", f"{label} body opened by the title {subject!r}", steps)
            elif step["action"] == "write_to_file" and office_path((step.get("args") or {}).get("file_path")) \
                    not in self.office.files and not self._printed_later(place.index):
                stem = office_path(step["args"]["file_path"]).rsplit("/", 1)[-1].rsplit(".", 1)[0]
                title = " ".join(w.capitalize() for w in _STEM_WORDS.findall(stem.replace("_", " ")))
                if title and title.casefold() not in text.casefold():  # a title the text has is not a new line
                    steps = self.steps()
                    place.put(steps, self.answer, f"{title}\n\n{text}")
                    self.add(RIGHT, "title-line", f"{label} opened by the title {title!r}", steps)

    def _printed_later(self, index: int) -> bool:
        """Whether a later step converts the file step ``index`` writes (to a PDF, a picture): a title line
        changes that copy, which is compared page by page."""
        path = office_path((self.core[index].get("args") or {}).get("file_path"))
        return any("convert" in s["action"] or (s["app"] == "shell" and path.rsplit("/", 1)[-1] in
                                                str((s.get("args") or {}).get("command") or ""))
                   for s in self.core[index + 1:])

    def _true_line(self) -> str:
        """One more true line: where the facts came from, or an offer to answer questions."""
        source = next((office_path(s["args"].get(k)) for s in self.core if self.is_read(s)
                       for k in ("file_path",) if (s.get("args") or {}).get(k)
                       and office_path(s["args"].get(k)) in self.office.data_files()), None)
        return f"(Taken from {source}.)" if source else "Let me know if anything is unclear."

    def _hyphens(self, text: str, place: _Place) -> list[tuple[int, int, str]]:
        out = []
        for m in _HYPHENATED.finditer(text):
            out.append((m.start(), m.end(), f"{m.group(1)} {m.group(2)}"))
        for fact in place.facts:
            if not isinstance(fact, str) or not re.fullmatch(r"[a-z]{3,} [a-z]{3,}", fact.strip()):
                continue
            m = re.search(rf"(?<![\w-]){re.escape(fact.strip())}(?![\w-])", text)
            if m and not any(s <= m.start() < e for s, e, _n in out):
                out.append((m.start(), m.end(), fact.strip().replace(" ", "-")))
        return out

    def _names_reversed(self, text: str, place: _Place) -> list[tuple[int, int, str]]:
        directory = build_directory(self.office.files.values(), getattr(self.task, "people", None), self.task.user)
        first_line = next((k for k, ln in enumerate(text.splitlines()) if ln.strip()), 0)
        start_body = sum(len(ln) + 1 for ln in text.splitlines()[:first_line + 1])
        out = []
        for mention, _address in directory.persons_in(text):
            raw = text[mention.start:mention.end]
            parts = raw.split()
            if mention.start < start_body or len(parts) != 2 or "," in raw:
                continue
            if any(s < mention.end and mention.start < e for s, e, _n in out):
                continue
            out.append((mention.start, mention.end, f"{parts[1]}, {parts[0]}"))
        return out


_SIGN_OFF = re.compile(r"^\s*(best|kind regards|regards|warm regards|thanks|thank you|cheers|many thanks|"
                       r"best wishes|all the best|sincerely)\b[\w ]{0,12}[,.!]?\s*$", re.I)


class EventMoment:
    @staticmethod
    def of(value: Any):
        from datetime import datetime
        try:
            return datetime.fromisoformat(str(value).strip())
        except ValueError:
            return None


def _header_row(rows: list[list]) -> int:
    """The index of a sheet's header row: the first row with two or more filled cells (a title row
    above it, one cell wide, is not the header); 0 when there is none."""
    return next((k for k, r in enumerate(rows) if sum(v is not None and str(v).strip() != "" for v in r) >= 2), 0)
