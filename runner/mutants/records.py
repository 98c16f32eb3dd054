"""Mutants that attack the reading of written text against the office's records (evaluators/verdicts.py).

From each text the gold writes — in any place, read by a check or not (a mail, a forward's note, a reply,
a document, an event's description, the answer) — statements that name an item of the office are found
(``records.Binder``), with the values of that item they state. Then:

- wrong ``record-other-item``: a value of an item replaced by the same attribute of another item of the
  same table ("SO-1001 ordered 1 Sep" → "3 Sep", SO-1002's date);
- wrong ``record-wrong-column``: where the words before a value name its attribute ("ordered on"), the
  value replaced by another attribute of the same item (its delivery date);
- wrong ``false-remark``: a remark appended to the text about an item it names, with another item's
  value ("For the record, SO-1001 Ordered: 3 Sep 2026."): text no check of the place expects;
- wrong ``count-off``: a heading's count of the items under it one more;
- wrong ``forward-other-message``: a forward of another message under the same subject;
- wrong ``listed-count-off``: "these N items:" before a list of identifiers, N one more than they are;
- wrong ``action-claimed``: a mail that says it was also forwarded to someone of the office the
  episode never mails;
- right ``record-true-context``: the same remark with the item's own value of that attribute;
- right ``record-worked-out``: a line adding up two amounts the text states.

A value the task's scope supports (the instruction's, the gold's elsewhere) is never the replacement.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from officesim.evaluators.claims import Claim, claims_in, same_claim
from officesim.evaluators.records import Records, label_words
from officesim.evaluators.truth import stored_records
from officesim.evaluators.statements import cut, items_under
from officesim.evaluators.text import NUMBER_WORDS as _NUMBER_WORDS
from officesim.evaluators.verdicts import _COUNT, Binder, _gap_words, _values
from officesim.runner.mutants.base import RIGHT, WRONG, _TEXT_ARGS
from officesim.runner.mutants.registry import BY_NAME

_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]
_PER_CLASS = 2
_ROW = re.compile(r"#(?:table|[^#/]+)$")  # a sheet's or a document table's rows


def _written(claim: Claim, like: str) -> str:
    """``claim``'s value written in the form of ``like`` where it can be (an amount with its currency sign
    and two decimals; a date as '3 September 2026')."""
    v = claim.value
    if claim.kind == "date" and isinstance(v, (date, datetime)):
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", like.strip()):
            return v.strftime("%Y-%m-%d")
        return f"{v.day} {_MONTHS[v.month - 1]} {v.year}"
    if claim.kind == "number":
        sign = next((ch for ch in like if ch in "£$€"), "")
        decimals = 2 if re.search(r"\.\d\d\b", like) else 0
        x = abs(float(v))
        return f"{sign}{x:,.{decimals}f}" if ("," in like or x < 1000) else f"{sign}{x:.{decimals}f}"
    return claim.text


class RecordMutants:
    """Mixed into the deriver (officebench.Deriver): uses its ``core``, ``office``, ``task``, ``year``,
    ``steps``, ``add``, ``label`` and ``supported``."""

    def _records(self) -> Records:
        if not hasattr(self, "_office_records"):
            key = None
            if getattr(self.task, "world", None):  # a lived-in office: its records are the grading's, stored
                from officesim.server.grading import reference_key

                key = reference_key(self.task)
            self._office_records = stored_records(self.office.files, self.year, getattr(self.task, "people", None), key)
        return self._office_records

    def _written_places(self) -> list[tuple[int | None, str]]:
        """(step index or None for the answer, argument) of every text the gold writes."""
        out: list[tuple[int | None, str]] = []
        for i, step in enumerate(self.core):
            for key in _TEXT_ARGS.get((step["app"], step["action"]), ()):
                if key != "text" and isinstance((step.get("args") or {}).get(key), str):
                    out.append((i, key))
        if isinstance(self.answer, str) and self.answer.strip():
            out.append((None, "answer"))
        return out

    def _text(self, steps: list[dict], index: int | None, key: str) -> str:
        return str(self.answer) if index is None else str(steps[index]["args"].get(key) or "")

    def _put(self, cls: str, index: int | None, key: str, new: str, what: str) -> None:
        steps = self.steps()
        answer = self.answer
        if index is None:
            answer = new
        else:
            steps[index]["args"][key] = new
        where = "answer" if index is None else self.label(self.core[index], index)
        kind = WRONG if (WRONG, cls) in BY_NAME else RIGHT
        self.add(kind, cls, f"{where}: {what}", steps, answer)

    def _scoped(self, claim: Claim) -> bool:
        return self._is_supported(claim)  # text.WrittenMutants: remembered per value

    # -- the sites: a value of an item a statement names ---------------------------------------------
    def _sites(self) -> list[tuple[int | None, str, Any, Claim, str, Any]]:
        """(place, statement, value as written in the text, its attribute label, the item) for values the
        gold states of a table row it names."""
        if not hasattr(self, "_record_sites"):
            self._record_sites = self._find_sites()
        return self._record_sites

    def _find_sites(self) -> list[tuple[int | None, str, Any, Claim, str, Any]]:
        records = self._records()
        binder = Binder(records, [self.office.user])
        out = []
        for index, key in self._written_places():
            text = self._text(self.core, index, key)
            for st in cut(text):
                entities, spans = binder.bind(st.text)
                rows = [e for e in entities if _ROW.search(records.entities[e].collection)]
                if len(rows) != 1:
                    continue
                entity = records.entities[rows[0]]
                for c in _values(st, spans, self.year):
                    label = next((l for l, a in entity.attributes if a.kind == c.kind and l and same_claim(c, a)), None)
                    if label is None:
                        continue
                    absolute = Claim(c.kind, c.value, c.text, c.precision, c.currency, st.start + c.start,
                                     st.start + c.end, c.unscaled)
                    out.append((index, key, st, absolute, label, rows[0]))
        return out

    def records_wrong(self) -> None:
        records = self._records()
        made: dict[str, int] = {}
        for index, key, st, c, label, row in self._sites():
            entity = records.entities[row]
            text = self._text(self.core, index, key)
            raw = text[c.start:c.end]
            # another item of the same table, the same attribute
            if made.get("record-other-item", 0) < _PER_CLASS:
                other = self._rival(entity, label, c)
                if other is not None:
                    new = _written(other, raw)
                    made["record-other-item"] = made.get("record-other-item", 0) + 1
                    self._put("record-other-item", index, key, text[:c.start] + new + text[c.end:],
                              f"{raw!r} as {new!r} (another item's {label})")
            # another attribute of the same item, where the words before it name this one
            local = Claim(c.kind, c.value, c.text, c.precision, c.currency, c.start - st.start, c.end - st.start)
            if made.get("record-wrong-column", 0) < _PER_CLASS and _gap_words(local, st) & label_words(label):
                other = next((a for l, a in entity.attributes if a.kind == c.kind and l != label
                              and not same_claim(a, c) and not self._scoped(a)
                              and not (_gap_words(local, st) & label_words(l))), None)
                if other is not None:
                    new = _written(other, raw)
                    made["record-wrong-column"] = made.get("record-wrong-column", 0) + 1
                    self._put("record-wrong-column", index, key, text[:c.start] + new + text[c.end:],
                              f"{raw!r} as {new!r} (the item's other {c.kind})")
        self._remarks(made)
        self._counts_off(made)
        self._listed_counts_off(made)
        self._actions_claimed(made)
        self._worked_out(made)

    def _rival(self, entity: Any, label: str, c: Claim) -> Claim | None:
        if not hasattr(self, "_collections"):
            self._collections: dict[str, list] = {}
            for e in self._records().entities:
                self._collections.setdefault(e.collection, []).append(e)
        for other in self._collections.get(entity.collection, []):
            if other is entity:
                continue
            value = next((a for l, a in other.attributes if l == label and a.kind == c.kind), None)
            if value is not None and not same_claim(value, c) and not self._scoped(value) \
                    and not any(same_claim(value, a) for _l, a in entity.attributes):
                return value
        return None

    def _remarks(self, made: dict[str, int]) -> None:
        """A remark about an item the text names: another item's value (wrong), its own (right)."""
        records = self._records()
        done = set()
        for index, key, st, c, label, row in self._sites():
            if (index, key) in done:
                continue
            entity = records.entities[row]
            name = next((k for k in entity.keys if k.startswith("#")), None)
            written_key = next((cl.text for cl in claims_in(st.text, year=self.year, kinds=("id",))), None)
            if name is None or written_key is None:
                continue
            text = self._text(self.core, index, key).rstrip("\n")
            own = next(((l, a) for l, a in entity.attributes if a.kind in ("date", "number") and l and l != label
                        and not self._scoped(a) and _remarkable(a)), None)
            if own is None:
                continue
            l2, value = own
            rival = self._rival(entity, l2, value)
            done.add((index, key))
            true_line = f"For the record, {written_key} {l2}: {_written(value, value.text)}."
            self._put("record-true-context", index, key, f"{text}\n\n{true_line}\n", f"+ {true_line!r}")
            if rival is not None and made.get("false-remark", 0) < _PER_CLASS:
                made["false-remark"] = made.get("false-remark", 0) + 1
                false_line = f"For the record, {written_key} {l2}: {_written(rival, value.text)}."
                self._put("false-remark", index, key, f"{text}\n\n{false_line}\n", f"+ {false_line!r}")

    def _counts_off(self, made: dict[str, int]) -> None:
        for index, key in self._written_places():
            text = self._text(self.core, index, key)
            statements = cut(text)
            for i, st in enumerate(statements):
                if st.form != "heading" or made.get("count-off", 0) >= _PER_CLASS:
                    continue
                m = _COUNT.search(st.text)
                if not m or not items_under(statements, i):
                    continue
                word = m.group(1)
                n = _NUMBER_WORDS.get(word.lower(), None)
                n = int(word) if n is None else n
                more = str(n + 1) if word.isdigit() else next((w for w, k in _NUMBER_WORDS.items() if k == n + 1), None)
                if more is None:
                    continue
                if word[:1].isupper():
                    more = more.capitalize()
                at = st.start + m.start(1)
                made["count-off"] = made.get("count-off", 0) + 1
                self._put("count-off", index, key, text[:at] + more + text[at + len(word):], f"{word!r} as {more!r}")

    def _listed_counts_off(self, made: dict[str, int]) -> None:
        """A count one more than the identifiers a statement lists, written before them."""
        for index, key in self._written_places():
            text = self._text(self.core, index, key)
            for st in cut(text):
                ids = claims_in(st.text, year=self.year, kinds=("id",))
                if len({str(c.value) for c in ids}) < 2 or made.get("listed-count-off", 0) >= _PER_CLASS:
                    continue
                n = len({str(c.value) for c in ids}) + 1
                word = next((w for w, k in _NUMBER_WORDS.items() if k == n), str(n))
                at = st.start + ids[0].start
                made["listed-count-off"] = made.get("listed-count-off", 0) + 1
                self._put("listed-count-off", index, key, f"{text[:at]}these {word} items: {text[at:]}",
                          f"'these {word} items:' before {len(ids)} identifiers")
                break

    def _actions_claimed(self, made: dict[str, int]) -> None:
        """A mail that says it was also forwarded to someone of the office the episode never mails."""
        mailed = {str(a).lower() for step in self.core for k in ("recipients", "to", "cc", "recipient")
                  for a in _as_list((step.get("args") or {}).get(k))}
        for step in self.core:  # a reply goes to the sender of what it answers
            if step["action"] == "reply_email":
                wanted = str((step.get("args") or {}).get("email_id") or "")
                mailed |= {str(e.get("from") or "").lower() for p, e in self.office.files.items()
                           if e.get("kind") == "eml" and p.rsplit("/", 1)[-1].rsplit(".", 1)[0] == wanted}
        user = str(self.office.user or "").lower()
        people = sorted({str(a).lower() for e in self.office.files.values() if e.get("kind") == "eml"
                         for a in [e.get("from"), *(e.get("to") or [])] if a and "." in str(a).partition("@")[0]})
        names = {a.partition("@")[0] for a in mailed}  # one person may have two addresses
        other = next((a for a in people if a not in mailed and a != user and a.partition("@")[0] not in names), None)
        if other is None:
            return
        name = " ".join(w.capitalize() for w in re.split(r"[._]", other.partition("@")[0]) if w.isalpha())
        for index, key in self._written_places():
            step = self.core[index] if index is not None else None
            if step is None or step["app"] != "email" or made.get("action-claimed", 0) >= _PER_CLASS:
                continue
            text = self._text(self.core, index, key).rstrip("\n")
            made["action-claimed"] = made.get("action-claimed", 0) + 1
            line = f"I have also forwarded this to {name}."
            self._put("action-claimed", index, key, f"{text}\n\n{line}\n", f"+ {line!r} (no mail to {other})")

    def _worked_out(self, made: dict[str, int]) -> None:
        """A line that adds up two amounts the text states."""
        for index, key in self._written_places():
            text = self._text(self.core, index, key)
            amounts = [c for c in claims_in(text, year=self.year, kinds=("number",))
                       if (c.currency or re.search(r"\.\d\d$", c.text)) and float(c.value) > 0]
            if len(amounts) < 2 or made.get("record-worked-out", 0) >= 1:
                continue
            a, b = amounts[0], amounts[1]
            if f"{float(a.value) + float(b.value):g}" in self._excluded():
                continue  # the sum is a value the task says must not be written (a wrong total)
            sign = a.currency and next((ch for ch in a.text if ch in "£$€"), "") or ""
            total = f"{sign}{float(a.value) + float(b.value):,.2f}"
            line = f"Together, {a.text.strip()} and {b.text.strip()} come to {total}."
            made["record-worked-out"] = 1
            self._put("record-worked-out", index, key, f"{text.rstrip()}\n\n{line}\n", f"+ {line!r}")

    def _excluded(self) -> str:
        """Every value a check of the task says must not be written, as one text."""
        out = []
        for check in getattr(self.task, "checks", None) or []:
            args = check.get("args", {}) if isinstance(check, dict) else getattr(check, "args", {}) or {}
            out += [str(v) for k, v in args.items() if "exclude" in k or k == "text" and "not" in str(
                check.get("check", "") if isinstance(check, dict) else getattr(check, "check", ""))]
        return "\n".join(out)

    def forwards_wrong(self) -> None:
        """A forward of another message of the same mailbox under the same subject."""
        for i, step in enumerate(self.core):
            if (step["app"], step["action"]) != ("email", "forward_email"):
                continue
            args = step.get("args") or {}
            user, wanted = str(args.get("username") or "").lower(), str(args.get("email_id") or "")
            mails = {p.rsplit("/", 1)[-1].rsplit(".", 1)[0]: e for p, e in self.office.files.items()
                     if e.get("kind") == "eml" and p.startswith(f"emails/{user}/")}
            if wanted not in mails:
                continue
            topic = _topic(mails[wanted].get("subject"))
            other = next((k for k, e in sorted(mails.items()) if k != wanted and _topic(e.get("subject")) == topic
                          and (e.get("body") or "").strip() != (mails[wanted].get("body") or "").strip()), None)
            if other is None or self.__dict__.setdefault("_forwards_made", 0) >= _PER_CLASS:
                continue
            self._forwards_made += 1
            steps = self.steps()
            steps[i]["args"]["email_id"] = other
            self.add(WRONG, "forward-other-message", f"{self.label(step, i)}: forwards {other} instead of {wanted}",
                     steps)


def _as_list(value: Any) -> list:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def _topic(subject: Any) -> str:
    return re.sub(r"^\s*((re|fwd?|aw|tr)\s*:\s*)+", "", " ".join(str(subject or "").split()).casefold())


def _remarkable(claim: Claim) -> bool:
    """A value a remark can state unambiguously: a full date, or an amount that is not a small count."""
    if claim.kind == "date":
        return isinstance(claim.value, (date, datetime))
    return abs(float(claim.value)) >= 100 or not float(claim.value).is_integer()
