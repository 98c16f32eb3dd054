"""The excel app: read, edit and convert .xlsx workbooks (openpyxl), several sheets included.

Observations follow OfficeBench: after a one-line header naming the sheet (and the other sheets),
one line per cell of the used range, ``(row, col): value``, with ``[Empty Cell]`` for blanks. The
used range always starts at A1, so the coordinates are the real ones.

Choices worth knowing:
- ``sheet=None`` means the first worksheet (the same sheet the parsed office state lists first).
- Numbers: a JSON number is stored as a number. A string is stored as a number only when it is a
  plain decimal: an optional ``-``, digits without a superfluous leading zero, an optional
  fractional part (``"1200"``, ``"-3.5"``, ``"0.25"``). Everything else stays text, so identifiers
  survive exactly: ``"007"``, ``"+1 555 0100"``, ``"1,200"`` (thousands separators are
  locale-dependent), ``"1e5"``, and integers of more than 15 digits (Excel would round them).
- A text starting with ``=`` is stored as a formula; ``read_file`` shows the formula as written and,
  when the file carries one (saved by Excel), the value Excel last computed for it.
- Dates are shown as ``YYYY-MM-DD`` (with the time when it is not midnight), booleans as TRUE/FALSE.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from officesim.apps import _cache
from officesim.testbed import convert
from officesim.testbed.spreadsheet import FormulaProblem, formula_values
from officesim.apps._files import new_file, read_existing, reported_as_corrupt
from officesim.apps.registry import App, OfficeContext, OpError, Result

app = App("excel", "Read, edit and convert Excel (.xlsx) workbooks with one or more sheets.")

XLSX = (".xlsx",)
PDF = (".pdf",)
MAX_ROW = 1_048_576
MAX_COL = 16_384
MAX_TEXT = 32_767  # Excel's limit for one cell
WINDOW_BYTES = 24_000  # what read_file shows when no rows are asked for (a 2,114-row sheet was 207 KB at once)
_PLAIN_NUMBER = re.compile(r"-?(0|[1-9]\d*)(\.\d+)?")
_BAD_SHEET_CHARS = re.compile(r"[\[\]:*?/\\]")

CellValue = str | int | float | None


# -- helpers -------------------------------------------------------------------------------------

def coerce_value(text: CellValue) -> CellValue:
    """The value to store for ``text``: numbers for JSON numbers and plain decimal strings."""
    if isinstance(text, float) and not math.isfinite(text):
        raise OpError("bad_arguments", f"{text} is not a number a spreadsheet can store")
    if text is None or isinstance(text, (int, float)):
        return text
    if len(text) > MAX_TEXT:
        raise OpError("bad_arguments", f"a cell holds at most {MAX_TEXT} characters (got {len(text)})")
    stripped = text.strip()
    if _PLAIN_NUMBER.fullmatch(stripped):
        if "." in stripped:
            return float(stripped)
        if len(stripped.lstrip("-")) <= 15:
            return int(stripped)
    return convert.clean_xml_text(text)


def _open(ctx: OfficeContext, file_path: str) -> tuple[Path, Any]:
    """An existing .xlsx and its openpyxl workbook; unreadable files become OpError."""
    real, data = read_existing(ctx, file_path, XLSX, "Excel")
    with reported_as_corrupt(file_path):
        return real, convert.open_xlsx(data)


def _save(ctx: OfficeContext, workbook: Any, real: Path) -> None:
    """Save into the replacement of the file (Office.replacing), so an error never leaves half a workbook."""
    with ctx.office.replacing(real) as out:
        workbook.save(out)


def _names(workbook: Any) -> list[str]:
    return [ws.title for ws in workbook.worksheets]


def _sheet(workbook: Any, sheet: str | None) -> Any:
    """The named worksheet (exact name, else a unique case-insensitive match), or the first one."""
    sheets = workbook.worksheets
    if not sheets:
        raise OpError("unknown_sheet", "the workbook has no worksheets")
    if sheet is None:
        return sheets[0]
    exact = [ws for ws in sheets if ws.title == sheet]
    loose = [ws for ws in sheets if ws.title.lower() == sheet.strip().lower()]
    if exact or len(loose) == 1:
        return (exact or loose)[0]
    listing = ", ".join(f"'{n}'" for n in _names(workbook))
    raise OpError("unknown_sheet", f"no sheet named '{sheet}'; the sheets are: {listing}")


def _check_row(row_idx: int) -> None:
    if not 1 <= row_idx <= MAX_ROW:
        raise OpError("out_of_range", f"row_idx {row_idx} is out of range (rows are 1 to {MAX_ROW})")


def _check_cell(row_idx: int, column_idx: int) -> None:
    _check_row(row_idx)
    if not 1 <= column_idx <= MAX_COL:
        raise OpError("out_of_range", f"column_idx {column_idx} is out of range (columns are 1 to {MAX_COL})")


def _json_value(value: Any) -> Any:
    """A cell value as JSON-able data: numbers, strings and booleans as is, dates as ISO text."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return convert.display_value(value)


def _shown(value: Any) -> str:
    """A cell value on one observation line: blanks as [Empty Cell], line breaks as \\n."""
    if value is None or value == "":
        return "[Empty Cell]"
    return convert.display_value(value).replace("\r", "").replace("\n", "\\n")


def _cell_ref(row_idx: int, column_idx: int) -> str:
    from openpyxl.utils import get_column_letter

    return f"{get_column_letter(column_idx)}{row_idx}"


# -- operations ----------------------------------------------------------------------------------

@app.operation(writes=True)
def create_new_file(ctx: OfficeContext, file_path: str) -> Result:
    """Create a new Excel workbook with one empty sheet named Sheet1.

    Args:
        file_path: path of the new .xlsx file in the office; it must not exist yet.
    """
    import openpyxl

    real = new_file(ctx, file_path, XLSX, "Excel", overwrite=False)
    workbook = openpyxl.Workbook()
    workbook.active.title = "Sheet1"
    _save(ctx, workbook, real)
    return Result(observation=f"Created Excel workbook {file_path} with sheet 'Sheet1'.",
                  data={"file_path": file_path, "sheets": ["Sheet1"]})


@app.operation
def read_file(ctx: OfficeContext, file_path: str, sheet: str | None = None, start_row: int | None = None,
              end_row: int | None = None) -> Result:
    """Read one sheet of an Excel file as lines of (row, col): value, [Empty Cell] for blanks.

    Args:
        file_path: path of the .xlsx file in the office.
        sheet: name of the sheet to read; the first sheet when omitted.
        start_row: first row to show (1-based); a long sheet can be read in parts. Default: the first.
        end_row: last row to show (inclusive). Default: the last, or, when neither is given, the rows
            that fit about 24 KB of text (the header says how to read on). The data holds the rows shown
            (``first_row`` is the number of the first, ``total_rows`` the sheet's).
    """
    if start_row is not None and start_row < 1 or end_row is not None and end_row < 1:
        raise OpError("bad_arguments", "start_row and end_row count from 1")
    if start_row is not None and end_row is not None and end_row < start_row:
        raise OpError("bad_arguments", f"end_row {end_row} is before start_row {start_row}")
    _real, data = read_existing(ctx, file_path, XLSX, "Excel")

    def parse() -> tuple[str, list[str], list[list[Any]], dict]:
        with reported_as_corrupt(file_path):
            workbook = convert.open_xlsx(data)
        ws = _sheet(workbook, sheet)
        rows = convert.used_rows(ws)
        return ws.title, _names(workbook), rows, _formula_values(data, ws.title, rows)

    title, names, rows, cached = _cache.by_content(data, ("excel.read_file", sheet), parse)
    others = [n for n in names if n != title]
    header = f"Sheet '{title}' of {file_path}"
    header += f" ({len(rows)} rows x {len(rows[0]) if rows else 0} columns)"
    header += f"; other sheets: {', '.join(others)}" if others else "; no other sheets"
    first, last = start_row or 1, min(end_row or len(rows), len(rows))
    screenful = start_row is None and end_row is None  # a long sheet is shown a screenful at a time
    body: list[str] = []
    size = 0
    for r, row in enumerate(rows[first - 1:last], start=first):
        cells = []
        for c, v in enumerate(row, start=1):
            extra = ""
            if (r, c) in cached:
                value = cached[(r, c)]
                extra = f" ({value})" if isinstance(value, FormulaProblem) else f" (value: {_shown(value)})"
            cells.append(f"({r}, {c}): {_shown(v)}{extra}")
        row_size = sum(len(x) + 1 for x in cells)
        if screenful and body and size + row_size > WINDOW_BYTES:
            last = r - 1
            break
        body += cells
        size += row_size
    if (first, last) != (1, len(rows)):
        header += f"; showing rows {first} to {last}" if first <= last else f"; no rows from {first} on"
        if screenful:
            header += f" (read on with start_row={last + 1}, or give end_row={len(rows)} for every row)"
    lines = [header] + (["[The sheet is empty]"] if not rows else []) + body
    data = {"sheet": title, "sheets": names, "total_rows": len(rows), "first_row": first,
            "rows": [[_json_value(v) for v in row] for row in rows[first - 1:last]]}  # the window only
    return Result(observation="\n".join(lines), data=data)


def _formula_values(data: bytes, title: str, rows: list[list[Any]]) -> dict[tuple[int, int], Any]:
    """For formula cells of the sheet, the value they compute (cached by the file, else computed)."""
    if not any(isinstance(v, str) and v.startswith("=") for row in rows for v in row):
        return {}
    try:
        values = formula_values(data)
    except Exception:  # an unreadable workbook was already reported by the read itself
        return {}
    return {(r, c): v for (sheet, r, c), v in values.items() if sheet == title}


@app.operation(writes=True)
def set_cell(ctx: OfficeContext, file_path: str, row_idx: int, column_idx: int,
             text: str | int | float | None, sheet: str | None = None) -> Result:
    """Set the value of one cell. Plain numbers (1200, "-3.5") are stored as numbers; "007" stays text.

    Args:
        file_path: path of the .xlsx file in the office.
        row_idx: row number, starting at 1.
        column_idx: column number, starting at 1 (A is 1).
        text: the new value: a number or a text; a text starting with = is a formula; null empties the cell.
        sheet: name of the sheet; the first sheet when omitted.
    """
    _check_cell(row_idx, column_idx)
    real, workbook = _open(ctx, file_path)
    ws = _sheet(workbook, sheet)
    value = coerce_value(text)
    ws.cell(row=row_idx, column=column_idx).value = value
    _save(ctx, workbook, real)
    ref = _cell_ref(row_idx, column_idx)
    return Result(
        observation=f"Set ({row_idx}, {column_idx}) [{ref}] of sheet '{ws.title}' to {_shown(value)}.",
        data={"sheet": ws.title, "cell": ref, "value": _json_value(value)},
    )


@app.operation(writes=True)
def delete_cell(ctx: OfficeContext, file_path: str, row_idx: int, column_idx: int,
                sheet: str | None = None) -> Result:
    """Empty one cell (the cells around it do not move).

    Args:
        file_path: path of the .xlsx file in the office.
        row_idx: row number, starting at 1.
        column_idx: column number, starting at 1 (A is 1).
        sheet: name of the sheet; the first sheet when omitted.
    """
    _check_cell(row_idx, column_idx)
    real, workbook = _open(ctx, file_path)
    ws = _sheet(workbook, sheet)
    ref = _cell_ref(row_idx, column_idx)
    in_range = row_idx <= ws.max_row and column_idx <= ws.max_column
    old = ws.cell(row=row_idx, column=column_idx).value if in_range else None
    if old is None:
        return Result(observation=f"({row_idx}, {column_idx}) [{ref}] of sheet '{ws.title}' was already empty.",
                      data={"sheet": ws.title, "cell": ref, "old_value": None})
    ws.cell(row=row_idx, column=column_idx).value = None
    _save(ctx, workbook, real)
    return Result(observation=f"Emptied ({row_idx}, {column_idx}) [{ref}] of sheet '{ws.title}' (was {_shown(old)}).",
                  data={"sheet": ws.title, "cell": ref, "old_value": _json_value(old)})


@app.operation(writes=True)
def convert_to_pdf(ctx: OfficeContext, excel_file_path: str, pdf_file_path: str) -> Result:
    """Convert an Excel workbook (every sheet, under its name) to a PDF file.

    Args:
        excel_file_path: path of the .xlsx file to convert.
        pdf_file_path: path of the .pdf file to write; an existing file is replaced.
    """
    _src, data = read_existing(ctx, excel_file_path, XLSX, "Excel")
    dst = new_file(ctx, pdf_file_path, PDF, "PDF")
    with reported_as_corrupt(excel_file_path):
        ctx.office.write_bytes(dst, convert.xlsx_to_pdf(data), pdf_file_path)
    return Result(observation=f"Converted {excel_file_path} to {pdf_file_path}.",
                  data={"excel_file_path": excel_file_path, "pdf_file_path": pdf_file_path})


@app.operation
def list_sheets(ctx: OfficeContext, file_path: str) -> Result:
    """List the sheets of an Excel workbook with the size of each one's used range.

    Args:
        file_path: path of the .xlsx file in the office.
    """
    _real, workbook = _open(ctx, file_path)
    data = []
    for ws in workbook.worksheets:
        rows = convert.used_rows(ws)
        data.append({"sheet": ws.title, "rows": len(rows), "columns": len(rows[0]) if rows else 0})
    lines = [f"{i}. {d['sheet']} ({d['rows']} rows x {d['columns']} columns)" for i, d in enumerate(data, 1)]
    return Result(observation=f"Sheets of {file_path}:\n" + "\n".join(lines), data=data)


@app.operation(writes=True)
def insert_row(ctx: OfficeContext, file_path: str, row_idx: int,
               values: list[str | int | float | None] | None = None, sheet: str | None = None) -> Result:
    """Insert a row before row row_idx (the rows below move down), optionally filled with values.

    Args:
        file_path: path of the .xlsx file in the office.
        row_idx: number the new row will have, starting at 1; one past the last row appends.
        values: the new row's cells from column 1 on; numbers are stored as numbers as in set_cell.
        sheet: name of the sheet; the first sheet when omitted.
    """
    _check_row(row_idx)
    values = values or []
    if len(values) > MAX_COL:
        raise OpError("out_of_range", f"a row holds at most {MAX_COL} values")
    real, workbook = _open(ctx, file_path)
    ws = _sheet(workbook, sheet)
    ws.insert_rows(row_idx)
    stored = [coerce_value(v) for v in values]
    for column, value in enumerate(stored, start=1):
        ws.cell(row=row_idx, column=column).value = value
    _save(ctx, workbook, real)
    shown = " | ".join(_shown(v) for v in stored) if stored else "empty"
    return Result(observation=f"Inserted row {row_idx} in sheet '{ws.title}': {shown}.",
                  data={"sheet": ws.title, "row": row_idx, "values": [_json_value(v) for v in stored]})


MAX_TABLE_CELLS = 100_000  # cells write_rows writes in one call


@app.operation(writes=True)
def write_rows(ctx: OfficeContext, file_path: str, rows: list[list[str | int | float | None]], row_idx: int = 1,
               sheet: str | None = None) -> Result:
    """Write a table in one step: each row's values from column 1 on, from row row_idx down,
    replacing the cells written (the rows are not inserted). A None value leaves its cell empty.

    Args:
        file_path: path of the .xlsx file in the office.
        rows: the table, one list of values per row; numbers are stored as numbers as in set_cell.
        row_idx: the row the first row of the table goes to, starting at 1.
        sheet: name of the sheet; the first sheet when omitted.
    """
    _check_row(row_idx)
    if row_idx + len(rows) - 1 > MAX_ROW:
        raise OpError("out_of_range", f"the table's last row would be past row {MAX_ROW}")
    if any(len(r) > MAX_COL for r in rows):
        raise OpError("out_of_range", f"a row holds at most {MAX_COL} values")
    if sum(len(r) for r in rows) > MAX_TABLE_CELLS:
        raise OpError("resource_limit", f"write_rows writes at most {MAX_TABLE_CELLS} cells in one call")
    stored = [[coerce_value(v) for v in r] for r in rows]
    real, workbook = _open(ctx, file_path)
    ws = _sheet(workbook, sheet)
    for i, values in enumerate(stored):
        for column, value in enumerate(values, start=1):
            ws.cell(row=row_idx + i, column=column).value = value
    _save(ctx, workbook, real)
    return Result(observation=f"Wrote {len(stored)} row(s) to sheet '{ws.title}' from row {row_idx}.",
                  data={"sheet": ws.title, "row": row_idx, "rows": len(stored)})


@app.operation(writes=True)
def delete_row(ctx: OfficeContext, file_path: str, row_idx: int, sheet: str | None = None) -> Result:
    """Delete row row_idx; the rows below move up.

    Args:
        file_path: path of the .xlsx file in the office.
        row_idx: number of the row to delete, starting at 1.
        sheet: name of the sheet; the first sheet when omitted.
    """
    _check_row(row_idx)
    real, workbook = _open(ctx, file_path)
    ws = _sheet(workbook, sheet)
    used = len(convert.used_rows(ws))
    if row_idx > used:
        raise OpError("out_of_range", f"row {row_idx} is past the last used row ({used}) of sheet '{ws.title}'")
    removed = [c.value for c in ws[row_idx]]
    ws.delete_rows(row_idx)
    _save(ctx, workbook, real)
    shown = " | ".join(_shown(v) for v in removed)
    return Result(observation=f"Deleted row {row_idx} of sheet '{ws.title}' (was: {shown}).",
                  data={"sheet": ws.title, "row": row_idx, "values": [_json_value(v) for v in removed]})


@app.operation(writes=True)
def add_sheet(ctx: OfficeContext, file_path: str, sheet: str) -> Result:
    """Add an empty sheet at the end of an Excel workbook.

    Args:
        file_path: path of the .xlsx file in the office.
        sheet: name of the new sheet (at most 31 characters, none of [ ] : * ? / \\).
    """
    name = sheet.strip()
    if not name or len(name) > 31 or _BAD_SHEET_CHARS.search(name) or name.startswith("'") or name.endswith("'"):
        raise OpError("bad_arguments", f"'{sheet}' is not a valid sheet name (1-31 characters, none of [ ] : * ? / \\)")
    real, workbook = _open(ctx, file_path)
    if name.lower() in (n.lower() for n in workbook.sheetnames):
        raise OpError("bad_arguments", f"the workbook already has a sheet named '{name}'")
    workbook.create_sheet(title=name)
    _save(ctx, workbook, real)
    return Result(observation=f"Added sheet '{name}' to {file_path}; sheets: {', '.join(_names(workbook))}.",
                  data={"sheet": name, "sheets": _names(workbook)})
