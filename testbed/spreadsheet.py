"""The values of formula cells: what a spreadsheet program would show, not the formula text.

openpyxl writes formulas without results, so a workbook an agent saved with ``=SUM(D2:D6)`` carries
no number for graders to read. Here every formula cell gets its value: the result the file caches
(saved by a spreadsheet program) when there is one, else the result of the ``formulas`` engine
(a maintained Excel formula interpreter). A formula the engine cannot evaluate (an unknown function,
a circular reference) gets a ``FormulaProblem`` saying so, so graders can report it.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
import threading
from dataclasses import dataclass
from typing import Any

# The engine draws progress bars on stderr while it compiles a workbook; a server has no terminal.
os.environ.setdefault("TQDM_DISABLE", "1")

_ENGINE_LOCK = threading.Lock()  # the engine keeps module-level state while compiling
_REF = re.compile(r"^'?\[[^\]]*\](?P<sheet>.+?)'?!(?P<cell>\$?[A-Z]{1,3}\$?\d+)$", re.I)


@dataclass(frozen=True)
class FormulaProblem:
    """A formula whose value could not be computed, and why."""

    formula: str
    reason: str

    def __str__(self) -> str:
        return f"{self.formula} could not be evaluated: {self.reason}"


def formula_cells(workbook) -> dict[tuple[str, int, int], str]:
    """(sheet, row, col) -> formula text for every formula cell of an openpyxl workbook (1-based)."""
    out = {}
    for ws in workbook.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                value = cell.value
                text = getattr(value, "text", value)  # array formulas carry their text in .text
                if isinstance(text, str) and text.startswith("="):
                    out[(ws.title, cell.row, cell.column)] = text
    return out


def formula_values(data: bytes, formulas: dict[tuple[str, int, int], str] | None = None) -> dict[tuple[str, int, int], Any]:
    """(sheet, row, col) -> value for every formula cell of the xlsx ``data``.

    A value is a plain scalar, or a ``FormulaProblem`` when neither the file nor the engine gives one.
    """
    import openpyxl

    if formulas is None:
        formulas = formula_cells(openpyxl.load_workbook(io.BytesIO(data), data_only=False))
    if not formulas:
        return {}
    cached = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    values: dict[tuple[str, int, int], Any] = {}
    missing = []
    for key in formulas:
        sheet, row, col = key
        value = cached[sheet].cell(row, col).value if sheet in cached.sheetnames else None
        if value is None:
            missing.append(key)
        else:
            values[key] = value
    if missing:
        computed = _compute(data)
        for key in missing:
            value = computed.get(key, FormulaProblem(formulas[key], _why_missing(formulas[key], computed)))
            if isinstance(value, FormulaProblem) and not value.formula:
                value = FormulaProblem(formulas[key], value.reason)
            values[key] = value
    return values


def _why_missing(formula: str, computed: dict) -> str:
    if "__error__" in computed:
        return computed["__error__"]
    return "a circular reference or a reference the engine cannot follow"


def _compute(data: bytes) -> dict:
    """Evaluate every formula of the workbook with the engine: (sheet, row, col) -> value."""
    try:
        import formulas
    except ImportError:  # pragma: no cover - a dependency of the package
        return {"__error__": "no formula engine is installed"}
    from openpyxl.utils.cell import coordinate_from_string, column_index_from_string

    out: dict = {}
    with tempfile.TemporaryDirectory(prefix="officesim-xlsx-") as tmp:
        path = os.path.join(tmp, "book.xlsx")
        with open(path, "wb") as fh:
            fh.write(data)
        try:
            with _ENGINE_LOCK:
                model = formulas.ExcelModel().loads(path).finish()
                solution = model.calculate()
        except Exception as exc:  # the engine rejected the workbook as a whole
            return {"__error__": f"the formula engine failed ({type(exc).__name__}: {str(exc)[:120]})"}
    names = _sheet_names(data)
    for ref, ranged in solution.items():
        m = _REF.match(str(ref))
        if not m:
            continue
        sheet = names.get(m.group("sheet").upper(), m.group("sheet"))
        letters, row = coordinate_from_string(m.group("cell").replace("$", ""))
        value = getattr(ranged, "value", ranged)
        try:
            value = value[0][0] if hasattr(value, "__getitem__") and not isinstance(value, str) else value
        except (IndexError, TypeError):
            continue
        out[(sheet, row, column_index_from_string(letters))] = _plain(value)
    return out


def _sheet_names(data: bytes) -> dict[str, str]:
    """The engine upper-cases sheet names; map them back to the workbook's own spelling."""
    import openpyxl

    wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    try:
        return {name.upper(): name for name in wb.sheetnames}
    finally:
        wb.close()


def _plain(value: Any) -> Any:
    """Engine values (numpy scalars, Excel error objects) as plain Python values."""
    if type(value).__module__.startswith("formulas"):  # XlError (#NAME?, #DIV/0!, ...) and the like
        text = str(value)
        if text.startswith("#"):
            return FormulaProblem("", f"the formula gives the error {text}")
        return text
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        try:
            value = value.item()
        except (ValueError, TypeError):
            pass
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return int(value)  # a spreadsheet has one number type; 6.0 from =A1*3 is shown as 6
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return str(value)
