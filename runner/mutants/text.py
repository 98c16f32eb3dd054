"""Mutants of written text and the answer: the answer replaced by or hedged with a distractor, given in a sentence."""

from __future__ import annotations

import re
from datetime import date

from officesim.evaluators.facts import dates_in, times_in
from officesim.evaluators.text import as_number, collapse
from officesim.runner.mutants.registry import RIGHT, WRONG
from officesim.runner.mutants.base import (_ADDRESS, BaseDeriver, _like, _minutes, nudged, _Num, _retime)


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

