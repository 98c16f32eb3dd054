"""Mutants of files and cells: values changed, cells off, similar files, steps dropped or doubled, moves as copies,
distractors deleted; and the right ones: numbers and dates in another form, formulas, steps reordered, reads added."""

from __future__ import annotations

import copy
import difflib
import re
from datetime import date, timedelta
from typing import Any, Callable

from officesim.apps.registry import SYSTEM_APP
from officesim.evaluators.text import collapse, format_number
from officesim.runner.mutants.registry import RIGHT, WRONG
from officesim.runner.mutants.base import (BaseDeriver, _cell_number, copy_not_move, CREATES, date_form_fixed,
                                           depends, effects, _FILE_ARGS, _is_question, _like, _line_at, _MONEY_WORDS,
                                           nudged, _Num, office_path, _READER, _redate, _reform_date, render,
                                           _retime, _shift_date, _Site, _strip_zeros, _sum_formula, _switch,
                                           _year_like, standalone_numbers)


class FileMutants(BaseDeriver):
    # -- wrong: numbers ------------------------------------------------------------------------------
    def numbers_wrong(self) -> None:
        for site in self.number_sites():
            if self.chosen(site):
                continue
            step = self.core[site.index]
            num = _Num(site.value, site.raw)
            whole = site.span is None
            for cls, new in (("number-changed", nudged(site.value, num.decimals)),
                             ("number-distractor", self.office.distractor_number(site.value))):
                if new is None:
                    continue
                steps = self.steps()
                if whole and isinstance(site.text(steps), (int, float)):
                    written = int(new) if float(new).is_integer() and isinstance(site.text(steps), int) else new
                else:
                    written = _like(num, new)
                site.put(steps, written)
                self.add(WRONG, cls, f"{self.label(step, site.index)} {site.raw.strip()} -> {written}", steps)
        for site in self.date_sites():
            if self.chosen(site):
                continue
            steps = self.steps()
            new = _shift_date(site.value)
            written = new.isoformat() if site.span is None else _redate(site.raw, site.value, new)
            site.put(steps, written)
            self.add(WRONG, "number-changed", f"{self.label(self.core[site.index], site.index)} date "
                     f"{site.raw.strip()} -> {written.strip()}", steps)
        for site in self.time_sites():
            new = _retime(site.raw)
            if new is None or self.chosen(site):
                continue
            steps = self.steps()
            site.put(steps, new)
            self.add(WRONG, "number-changed", f"{self.label(self.core[site.index], site.index)} time "
                     f"{site.raw.strip()} -> {new.strip()}", steps)
        for i, step in enumerate(self.core):  # event times
            args = step.get("args") or {}
            if step["app"] != "calendar" or step["action"] not in ("create_event", "update_event"):
                continue
            if self.event_chosen(args):
                continue
            if args.get("time_start") and args.get("time_end") and not self._all_day(args["time_start"]):
                steps = self.steps()
                start = self._moment(args["time_start"])
                end = self._moment(args["time_end"])
                if start and end:
                    steps[i]["args"]["time_start"] = self._fmt(start - timedelta(minutes=30), args["time_start"])
                    self.add(WRONG, "number-changed", f"{self.label(step, i)} starts 30 minutes earlier", steps)


    # -- wrong: cells off ----------------------------------------------------------------------------
    def cells_off(self) -> None:
        for i, step in enumerate(self.core):
            args = step.get("args") or {}
            if step["app"] != "excel" or step["action"] not in ("set_cell", "insert_row", "delete_row", "delete_cell"):
                continue
            label = self.label(step, i)
            if isinstance(args.get("row_idx"), int):
                steps = self.steps()
                steps[i]["args"]["row_idx"] = args["row_idx"] + 1
                self.add(WRONG, "off-row", f"{label} row {args['row_idx']} -> {args['row_idx'] + 1}", steps)
            if isinstance(args.get("column_idx"), int):
                steps = self.steps()
                steps[i]["args"]["column_idx"] = args["column_idx"] + 1
                self.add(WRONG, "off-column", f"{label} column {args['column_idx']} -> {args['column_idx'] + 1}", steps)
            entry = self.office.files.get(office_path(args.get("file_path"))) or {}
            order = entry.get("sheet_order") or list(entry.get("sheets", {}) or {})
            current = args.get("sheet") or (order[0] if order else None)
            others = [s for s in order if s != current]
            if others:
                steps = self.steps()
                steps[i]["args"]["sheet"] = others[0]
                self.add(WRONG, "off-sheet", f"{label} sheet {current!r} -> {others[0]!r}", steps)

    # -- wrong: another file of the same kind --------------------------------------------------------
    def distractor_files(self) -> None:
        known = set(self.office.files)
        swaps: dict[str, str | None] = {}
        for i, step in enumerate(self.core):
            if self.is_read(step) and step["app"] != "shell":
                continue
            args = step.get("args") or {}
            for key in (*_FILE_ARGS, "attachments"):
                values = args.get(key)
                for v in values if isinstance(values, list) else [values]:
                    p = office_path(v) if isinstance(v, str) else ""
                    if p in known and p not in swaps:
                        swaps[p] = self.office.similar_file(p, self.touched)
            if step["app"] == "shell":
                for token in re.findall(r"[\w./-]+", str(args.get("command", ""))):
                    p = office_path(token)
                    if p in known and p not in swaps and not p.startswith(("emails/", "calendar/")):
                        swaps[p] = self.office.similar_file(p, self.touched)
        for path, other in swaps.items():
            if not other:
                continue
            steps = self.steps()
            for step in steps:
                if self.is_read(step) and step["app"] != "shell":
                    continue
                args = step.get("args") or {}
                for key, value in list(args.items()):
                    if isinstance(value, str) and (office_path(value) == path if key in _FILE_ARGS else False):
                        args[key] = other
                    elif key == "attachments" and isinstance(value, list):
                        args[key] = [other if office_path(v) == path else v for v in value]
                    elif key == "command" and isinstance(value, str):
                        args[key] = re.sub(rf"(?<![\w./-])(?:/testbed/)?{re.escape(path)}(?![\w./-])", other, value)
            self.add(WRONG, "distractor-file", f"{path} -> {other}", steps)


    # -- wrong: steps dropped and doubled -------------------------------------------------------------
    def _recreated(self, i: int) -> bool:
        """Whether a later step makes step i's file anyway (word.write_to_file creates a missing file)."""
        step = self.core[i]
        if (step["app"], step["action"]) != ("word", "create_new_file"):
            return False
        path = office_path(step["args"].get("file_path"))
        return any((s["app"], s["action"]) == ("word", "write_to_file") and office_path(s["args"].get("file_path")) == path
                   for s in self.core[i + 1:])

    def dropped_and_doubled(self) -> None:
        for i in self.writes():
            step = self.core[i]
            steps = self.steps()
            del steps[i]
            if not self._recreated(i):
                self.add(WRONG, "step-dropped", f"{self.label(step, i)} left out", steps)
            if (step["app"], step["action"]) in CREATES:
                steps = self.steps()
                steps.insert(i + 1, copy.deepcopy(step))
                self.add(WRONG, "create-twice", f"{self.label(step, i)} done twice", steps)


    # -- wrong: moves as copies ----------------------------------------------------------------------
    def moves(self) -> None:
        for i, step in enumerate(self.core):
            if step["app"] != "shell":
                continue
            command = str((step.get("args") or {}).get("command", ""))
            copied = copy_not_move(command)
            if copied != command:
                steps = self.steps()
                steps[i]["args"]["command"] = copied
                self.add(WRONG, "move-as-copy", f"{self.label(step, i)}: {copied[:80]}", steps)


    # -- wrong: a distractor deleted -----------------------------------------------------------------
    def distractor_deletes(self) -> None:
        touched = self.touched
        files = [p for p in self.office.data_files() if p not in touched]
        written = [office_path(s["args"].get("file_path")) for s in self.core if s["app"] in ("word", "excel")]
        if files:
            target = max(files, key=lambda p: (max((difflib.SequenceMatcher(None, p, w).ratio() for w in written),
                                                   default=0.0), p))
            self.add(WRONG, "distractor-deleted", f"+ rm {target}",
                     self.steps() + [{"app": "shell", "action": "command", "args": {"command": f"rm -f '{target}'"}}])
        shell_touched = self._touched(shell_only=True)
        xlsx = [p for p in written if (self.office.files.get(p) or {}).get("kind") == "xlsx"]
        xlsx += [p for p, e in self.office.files.items() if e.get("kind") == "xlsx" and p not in xlsx and p not in touched]
        for path in dict.fromkeys(xlsx):
            if path in shell_touched:
                continue
            mine = [s for s in self.core if s["app"] == "excel" and office_path(s["args"].get("file_path")) == path]
            gold_rows = {s["args"].get("row_idx") for s in mine}
            name, rows = self.office.sheet_rows(path, None)
            kept = len(rows) - sum(1 for s in mine if s["action"] == "delete_row")  # rows surely there after the gold
            candidates = [r for r in range(min(len(rows), kept), 1, -1)
                          if r not in gold_rows and any(v not in (None, "") for v in rows[r - 1])]
            if candidates:
                self.add(WRONG, "distractor-deleted", f"+ delete row {candidates[0]} of {path}",
                         self.steps() + [{"app": "excel", "action": "delete_row",
                                          "args": {"file_path": path, "row_idx": candidates[0]}}])
                break
        summaries = {str(s["args"].get(k, "")).casefold() for s in self.core if s["app"] == "calendar"
                     for k in ("summary", "new_summary")}
        for path, entry in sorted(self.office.files.items(), key=lambda kv: kv[0] != f"calendar/{self.office.user}.ics"):
            if entry.get("kind") != "ics":
                continue
            events = [ev for ev in entry.get("events") or [] if collapse(ev.get("summary")).casefold() not in summaries]
            if events:
                self.add(WRONG, "distractor-deleted", f"+ delete event {events[0].get('summary')!r} of {entry.get('user')}",
                         self.steps() + [{"app": "calendar", "action": "delete_event",
                                          "args": {"user": entry.get("user"), "summary": events[0].get("summary")}}])
                break
        mails = [p for p, e in self.office.files.items() if e.get("kind") == "eml" and p not in touched
                 and e.get("folder") == "inbox"]
        mails.sort(key=lambda p: (not p.startswith(f"emails/{self.office.user}/"), p))
        if mails:
            self.add(WRONG, "distractor-deleted", f"+ rm {mails[0]}",
                     self.steps() + [{"app": "shell", "action": "command", "args": {"command": f"rm -f '{mails[0]}'"}}])


    # -- right: numbers and dates in another form -----------------------------------------------------
    def _fixed(self, text: str) -> bool:
        """Whether the instruction spells a text out (then its form is not free)."""
        quoted = re.findall(r"'([^']{3,})'|\"([^\"]{3,})\"|‘([^’]{3,})’|“([^”]{3,})”", self.instruction)
        parts = [collapse(next(q for q in group if q)).casefold() for group in quoted]
        line = collapse(text).casefold()
        return any(line and (line == p or (len(line) > 6 and line in p)) for p in parts)

    def _money(self, site: _Site) -> bool:
        num = _Num(site.value, site.raw)
        if num.currency or num.decimals == 2:
            return True
        step = self.core[site.index]
        if site.span is not None:
            text = site.text(self.core)
            return bool(_MONEY_WORDS.search(text[max(0, site.span[0] - 30):site.span[1] + 12]))
        args = step.get("args") or {}
        _name, rows = self.office.sheet_rows(office_path(args.get("file_path")), args.get("sheet"))
        col, row = (args.get("column_idx") or 0) - 1, (args.get("row_idx") or 0) - 1
        context = [rows[0][col] if rows and 0 <= col < len(rows[0]) else "",
                   rows[row][0] if 0 <= row < len(rows) and rows[row] else ""]
        return bool(_MONEY_WORDS.search(" ".join(str(c or "") for c in context)))

    def numbers_right(self) -> None:
        sites = [s for s in self.number_sites() if not _year_like(s.value)
                 and not (s.span is not None and self._fixed(_line_at(s.text(self.core), s.span[0])))]
        currency = self.office.currency()
        styles: list[tuple[str, Callable[[_Site, _Num], str | None]]] = [
            ("thousands separators", lambda s, n: render(s.value, decimals=n.decimals, grouped=not n.grouped,
                                                         currency=n.currency)
                                     if abs(s.value) >= 1000 and s.span is not None else None),  # a cell: number-as-text
            ("trailing zeros", lambda s, n: None if s.span is None else (  # a cell stores 1500.00 as 1500
                                             render(s.value, decimals=2, grouped=n.grouped, currency=n.currency)
                                             if n.decimals == 0 and self._money(s) else
                                             _strip_zeros(n) if n.decimals and n.raw.rstrip().endswith("0") else None)),
            ("currency sign", lambda s, n: (render(s.value, decimals=n.decimals, grouped=n.grouped, currency="")
                                            if n.currency else
                                            render(s.value, decimals=max(n.decimals, 2), grouped=n.grouped,
                                                   currency=currency)
                                            if currency and self._money(s) and s.span is not None else None)),  # a cell: text
        ]
        for style, make in styles:
            steps = self.steps()
            changed = []
            for site in sorted(sites, key=lambda s: (s.index, s.key, -(s.span or (0, 0))[0])):  # right to left in a text
                num = _Num(site.value, site.raw)
                new = make(site, num)
                if new is None or new == site.raw.strip():
                    continue
                site.put(steps, new)
                changed.append(f"{site.raw.strip()} as {new}")
            if changed:
                self.add(RIGHT, "number-reformatted", f"{style}: {', '.join(changed[:3])}"
                         + (f" (+{len(changed) - 3})" if len(changed) > 3 else ""), steps)

    def numbers_as_text(self) -> None:
        """A number the gold writes alone in a cell written as text with thousands separators: a number
        cell is wanted as a number (tasks/FORMAT.md §5)."""
        for site in self.number_sites():
            if site.span is not None or abs(site.value) < 1000 or self.chosen(site):
                continue
            num = _Num(site.value, site.raw)
            steps = self.steps()
            written = render(site.value, decimals=num.decimals, grouped=True)
            site.put(steps, written)
            self.add(WRONG, "number-as-text", f"{self.label(self.core[site.index], site.index)} {site.raw.strip()} "
                     f"as the text {written!r}", steps)

    def dates_right(self) -> None:
        if date_form_fixed(self.instruction):
            return  # the instruction spells out how dates are written: another form is not right
        steps = self.steps()
        changed = []
        for site in sorted(self.date_sites(), key=lambda s: (s.index, s.key, -(s.span or (0, 0))[0])):
            if site.span is not None and self._fixed(_line_at(site.text(self.core), site.span[0])):
                continue
            if site.span is None and self._column_dated(site.index):
                continue  # a cell of a column of ISO dates takes the column's form (another is format-broken)
            new = _reform_date(site.raw.strip() if site.span is None else site.raw, site.value)
            site.put(steps, new)
            changed.append(f"{site.raw.strip()} as {new}")
        if changed:
            self.add(RIGHT, "date-reformatted", ", ".join(changed[:3]) + (f" (+{len(changed) - 3})" if len(changed) > 3 else ""),
                     steps)


    def _column_dated(self, index: int) -> bool:
        """Whether the cell a ``set_cell`` step writes is in a column whose other cells (in the office below
        its header, or written by the gold) hold ISO dates: the column fixes how its dates are written."""
        args = self.core[index].get("args") or {}
        path, c, r = office_path(args.get("file_path")), args.get("column_idx"), args.get("row_idx")
        if not isinstance(c, int) or c < 1:
            return False
        name, rows = self.office.sheet_rows(path, args.get("sheet"))
        values = [row[c - 1] for k, row in enumerate(rows[1:], start=2) if k != r and c <= len(row)]
        for i, step in enumerate(self.core):
            other = step.get("args") or {}
            if i != index and (step["app"], step["action"]) == ("excel", "set_cell") \
                    and office_path(other.get("file_path")) == path and other.get("column_idx") == c \
                    and other.get("row_idx") not in (r, 1) and (other.get("sheet") or name) == (args.get("sheet") or name):
                values.append(other.get("text"))
        return any(isinstance(v, str) and _ISO_DATE.fullmatch(v.strip()[:10]) for v in values if v is not None)

    # -- right: formulas -----------------------------------------------------------------------------
    def formulas(self) -> None:
        cells = [i for i, s in enumerate(self.core) if (s["app"], s["action"]) == ("excel", "set_cell")
                 and _cell_number((s.get("args") or {}).get("text")) is not None]
        if not cells:
            return
        steps = self.steps()
        for i in cells:
            steps[i]["args"]["text"] = "=" + format_number(_cell_number(steps[i]["args"]["text"]))
        self.add(RIGHT, "formula", f"{len(cells)} value(s) as '=<value>'", steps)
        steps, found = self.steps(), []
        sheets: dict[tuple[str, str | None], list[list[Any]]] = {}
        for i, step in enumerate(self.core):  # replay the gold's cells to know what a formula would see
            args = step.get("args") or {}
            if step["app"] != "excel":
                continue
            path, sheet = office_path(args.get("file_path")), args.get("sheet")
            if (path, sheet) not in sheets:
                sheets[(path, sheet)] = self.office.sheet_rows(path, sheet)[1]
            rows = sheets[(path, sheet)]
            if self.is_read(step):
                continue
            if step["action"] != "set_cell" or not isinstance(args.get("row_idx"), int) or not isinstance(args.get("column_idx"), int):
                if step["action"] != "set_cell":
                    sheets[(path, sheet)] = []  # rows moved: no formula after this
                continue
            r, c = args["row_idx"] - 1, args["column_idx"] - 1
            value = _cell_number(args.get("text"))
            if value is not None and i in cells:
                formula = _sum_formula(rows, r, c, value)
                if formula:
                    steps[i]["args"]["text"] = formula
                    found.append(formula)
            while len(rows) <= r:
                rows.append([])
            while len(rows[r]) <= c:
                rows[r].append(None)
            rows[r][c] = value if value is not None else args.get("text")
        if found:
            self.add(RIGHT, "formula", f"{len(found)} value(s) as formulas: {', '.join(found[:3])}", steps)


    # -- right: order, reads, switches ---------------------------------------------------------------
    def reorder(self) -> None:
        writes = [s for s in self.core if not self.is_read(s)]
        fx = [effects(s, k, self.toolset) for k, s in enumerate(writes)]
        placed: list[int] = []
        left = list(range(len(writes)))
        while left:
            ready = [k for k in left if all(j in placed for j in range(k) if depends(fx[k], fx[j]))]
            pick = max(ready)
            placed.append(pick)
            left.remove(pick)
        if placed != sorted(placed):
            moved = sum(1 for a, b in zip(placed, sorted(placed)) if a != b)
            self.add(RIGHT, "steps-reordered", f"{moved} independent write steps in another order",
                     [copy.deepcopy(s) for s in self.core if _is_question(s)] + [copy.deepcopy(writes[k]) for k in placed])

    def reads_and_switches(self) -> None:
        steps: list[dict] = [{"app": SYSTEM_APP, "action": "list_files", "args": {"path": "."}}]
        existing = set(self.office.files)
        for i, step in enumerate(self.core):
            steps.append(copy.deepcopy(step))
            if self.is_read(step):
                continue
            args = step.get("args") or {}
            _reads, writes = effects(step, i, self.toolset)
            for w in sorted(writes):
                path = w.split("#")[0]
                if w == "*" or path.startswith(("mail", "calendar/")):
                    continue
                existing.add(path)
                reader = _READER.get("." + path.rsplit(".", 1)[-1].lower())
                if reader:
                    steps.append({"app": reader[0], "action": reader[1], "args": {reader[2]: path}})
            if step["app"] == "email":
                user = args.get("sender") or args.get("username")
                steps.append({"app": "email", "action": "list_emails", "args": {"username": user, "folder": "sent"}})
            if step["app"] == "calendar":
                steps.append({"app": "calendar", "action": "list_events", "args": {"username": args.get("user")}})
        self.add(RIGHT, "reads-added", f"{len(steps) - len(self.core)} reads added", steps, keep_reads=True)
        out: list[dict] = [copy.deepcopy(s) for s in self.core if _is_question(s)]  # asked first, as the gold does
        current = SYSTEM_APP
        for step in self.core:
            if self.is_read(step):
                continue  # reads-added has them; here they would only cost time
            away = next(a for a in ("word", "excel", "pdf") if a not in (current, step["app"]))
            out += [_switch(away), _switch(step["app"]), copy.deepcopy(step)]
            current = step["app"] if step["app"] != SYSTEM_APP else current
        if not self.writes():
            out = [_switch("word"), _switch("excel")]
        self.add(RIGHT, "switch-roundtrips", "a switch_app round-trip before each write step", out, keep_reads=True)




# ---- the adversary's file classes: a kept line re-cased, a fixed format broken, a copy altered --------
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_CLOCK = re.compile(r"\d{2}:\d{2}")


class AdversaryFiles(FileMutants):
    def adversary_files(self) -> None:
        self._cases_edited()
        self._cell_formats_broken()
        self._copies_altered()

    def _written_files(self) -> dict[str, list[int]]:
        """Office files (that exist before) the gold writes with excel.set_cell or word.*: path -> steps."""
        out: dict[str, list[int]] = {}
        for i, step in enumerate(self.core):
            if (step["app"], step["action"]) in (("excel", "set_cell"), ("word", "write_to_file"), ("word", "replace_text")):
                path = office_path((step.get("args") or {}).get("file_path"))
                if path in self.office.files:
                    out.setdefault(path, []).append(i)
        return out

    # -- wrong: case-edited --------------------------------------------------------------------------
    def _cases_edited(self) -> None:
        """A line or cell of a file the gold edits, one the gold leaves alone, written in capitals."""
        for path, indices in self._written_files().items():
            entry = self.office.files[path]
            steps = self.steps()
            last = max(indices)
            step = None
            if entry.get("kind") == "xlsx":
                touched = {((s["args"].get("sheet")), s["args"].get("row_idx"), s["args"].get("column_idx"))
                           for s in (self.core[i] for i in indices) if s["action"] == "set_cell"}
                order = entry.get("sheet_order") or list(entry.get("sheets") or {})
                for sheet in order[:1]:
                    rows = entry["sheets"][sheet]
                    for r in range(len(rows) - 1, 0, -1):  # a data row from the bottom: the header may be read
                        cells = [(c, v) for c, v in enumerate(rows[r]) if isinstance(v, str) and re.search(r"[a-z]{3}", v)
                                 and as_text_only(v) and (None, r + 1, c + 1) not in touched
                                 and (sheet, r + 1, c + 1) not in touched]
                        if cells:
                            c, v = cells[0]
                            step = {"app": "excel", "action": "set_cell",
                                    "args": {"file_path": path, "row_idx": r + 1, "column_idx": c + 1, "text": v.upper(),
                                             **({"sheet": sheet} if len(order) > 1 else {})}}
                            break
            elif entry.get("kind") == "docx":
                said = [str((self.core[i].get("args") or {}).get(k) or "") for i in indices
                        for k in ("old_text", "new_text", "contents")]
                paragraphs = [str(p.get("text") if isinstance(p, dict) else p) for p in entry.get("paragraphs") or []]
                kept = [p for p in paragraphs if re.search(r"[a-z]{3}", p) and paragraphs.count(p) == 1
                        and p.upper() != p and not any(t.strip() and (t in p or p.strip() in t) for t in said)]
                if kept:
                    step = {"app": "word", "action": "replace_text",
                            "args": {"file_path": path, "old_text": kept[-1], "new_text": kept[-1].upper()}}
            if step is None:
                continue
            steps.insert(last + 1, step)
            self.add(WRONG, "case-edited", f"{path}: {step['args'].get('old_text') or step['args']['text']!r} "
                     f"re-cased (the gold leaves it alone)", steps)

    # -- wrong: format-broken (cells) ----------------------------------------------------------------
    def _cell_formats_broken(self) -> None:
        """A date or clock time the gold writes in a column of such values, written in another format."""
        for i, step in enumerate(self.core):
            if (step["app"], step["action"]) != ("excel", "set_cell"):
                continue
            args = step.get("args") or {}
            value = str(args.get("text") or "").strip()
            _name, rows = self.office.sheet_rows(office_path(args.get("file_path")), args.get("sheet"))
            c = args.get("column_idx")
            column = [str(r[c - 1]) for r in rows[1:] if isinstance(c, int) and 0 < c <= len(r) and r[c - 1] is not None]
            if _ISO_DATE.fullmatch(value) and sum(bool(_ISO_DATE.fullmatch(v[:10])) for v in column) >= 1:
                y, m, d = value.split("-")
                other = f"{d}/{m}/{y}"
            elif _CLOCK.fullmatch(value) and sum(bool(_CLOCK.fullmatch(v[:5])) for v in column) >= 1:
                h, mi = int(value[:2]), int(value[3:])
                other = f"{h % 12 or 12}.{mi:02d}{'am' if h < 12 else 'pm'}"
            else:
                continue
            steps = self.steps()
            steps[i]["args"]["text"] = other
            self.add(WRONG, "format-broken", f"{self.label(step, i)} {value} as {other!r} (the column's format is "
                     f"{value!r}'s)", steps)

    # -- wrong: conversion-altered -------------------------------------------------------------------
    def _copies_altered(self) -> None:
        """A document the gold writes as a copy of an office document (three or more of its lines) with
        two digits of one copied number transposed."""
        office_lines = {collapse(ln) for _p, t in self.office.texts for ln in t.splitlines() if collapse(ln)}
        for i, step in enumerate(self.core):
            if (step["app"], step["action"]) != ("word", "write_to_file"):
                continue
            text = str((step.get("args") or {}).get("contents") or "")
            lines = text.splitlines()
            copied = [k for k, ln in enumerate(lines) if collapse(ln) and collapse(ln) in office_lines]
            if len(copied) < 3:
                continue
            for k in copied:  # a typist's slip: two digits of a copied number transposed (149.00 as 194.00)
                nums = [m for m in standalone_numbers(lines[k]) if not _year_like(m.value)
                        and _transposed(lines[k][m.start:m.end]) is not None]
                if not nums:
                    continue
                m = nums[-1]
                raw = lines[k][m.start:m.end]
                new = _transposed(raw)
                steps = self.steps()
                changed = lines[:k] + [lines[k][:m.start] + new + lines[k][m.end:]] + lines[k + 1:]
                steps[i]["args"]["contents"] = "\n".join(changed)
                self.add(WRONG, "conversion-altered", f"{self.label(step, i)} copied line {k + 1}: {raw.strip()} -> "
                         f"{new.strip()}", steps)
                break


def _transposed(raw: str) -> str | None:
    """``raw`` with the last two digits of its whole part swapped, None when they are the same."""
    m = re.search(r"(\d)(\d)(?=(?:[.,]\d+)?\D*$)", raw)
    if not m or m.group(1) == m.group(2):
        return None
    return raw[:m.start()] + m.group(2) + m.group(1) + raw[m.end():]


def as_text_only(value: str) -> bool:
    """A cell text that is words, not a number, date, address or code."""
    return not re.search(r"\d|@", value)
