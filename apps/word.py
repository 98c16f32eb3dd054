"""The word app: create, read, append to, edit and convert .docx documents (python-docx).

``read_file`` shows every paragraph on its own line (empty paragraphs as empty lines), then each
table as ``Table k:`` followed by one line per row with the cells joined by `` | ``.
``replace_text`` edits the runs in place, so paragraphs keep their style and untouched runs keep
their formatting.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from officesim.apps import _cache
from officesim.testbed import convert
from officesim.apps._files import new_file, read_existing, reported_as_corrupt
from officesim.apps.registry import App, OfficeContext, OpError, Result

app = App("word", "Create, read, write, edit and convert Word (.docx) documents.")

DOCX = (".docx",)
PDF = (".pdf",)


def _open(ctx: OfficeContext, file_path: str) -> tuple[Path, Any]:
    """An existing .docx and its python-docx Document; corrupt files become OpError."""
    real, data = read_existing(ctx, file_path, DOCX, "Word")
    with reported_as_corrupt(file_path):
        return real, convert.open_docx(data)


def _save(ctx: OfficeContext, document: Any, real: Path) -> None:
    """Save into the replacement of the file (Office.replacing), so an error never leaves half a document."""
    with ctx.office.replacing(real) as out:
        document.save(out)


@app.operation(writes=True)
def create_new_file(ctx: OfficeContext, file_path: str) -> Result:
    """Create a new, empty Word document.

    Args:
        file_path: path of the new .docx file in the office; it must not exist yet.
    """
    import docx

    real = new_file(ctx, file_path, DOCX, "Word", overwrite=False)
    _save(ctx, docx.Document(), real)
    return Result(observation=f"Created empty Word document {file_path}.", data={"file_path": file_path})


@app.operation
def read_file(ctx: OfficeContext, file_path: str) -> Result:
    """Read a Word document: its paragraphs in order, then its tables row by row.

    Args:
        file_path: path of the .docx file in the office.
    """
    _real, data = read_existing(ctx, file_path, DOCX, "Word")

    def parse() -> tuple[list[str], list[list[list[str]]]]:
        with reported_as_corrupt(file_path):
            document = convert.open_docx(data)
        return [p.text for p in document.paragraphs], [convert.table_rows(t) for t in document.tables]

    paragraphs, tables = _cache.by_content(data, ("word.read_file",), parse)
    if not any(p.strip() for p in paragraphs) and not tables:
        return Result(observation=f"{file_path} is empty.", data={"paragraphs": paragraphs, "tables": []})
    lines = list(paragraphs)
    for number, rows in enumerate(tables, start=1):
        lines.append(f"Table {number}:")
        lines.extend(" | ".join(c.replace("\n", " ") for c in row) for row in rows)
    return Result(observation="\n".join(lines), data={"paragraphs": paragraphs, "tables": tables})


@app.operation(writes=True)
def write_to_file(ctx: OfficeContext, file_path: str, contents: str) -> Result:
    """Append text to the end of a Word document, one paragraph per line; creates the file if missing.

    Args:
        file_path: path of the .docx file in the office.
        contents: the text to append; each line becomes a paragraph.
    """
    import docx

    real = ctx.office.resolve(file_path)
    if ctx.office.kind(real) != "missing":
        real, document = _open(ctx, file_path)
        created = False
    else:
        real = new_file(ctx, file_path, DOCX, "Word")
        document, created = docx.Document(), True
    lines = contents.replace("\r\n", "\n").replace("\r", "\n").split("\n") if contents else []
    for line in lines:
        document.add_paragraph(convert.clean_xml_text(line))
    _save(ctx, document, real)
    verb = "Created" if created else "Updated"
    return Result(
        observation=f"{verb} {file_path}: appended {len(lines)} paragraph(s).",
        data={"file_path": file_path, "appended": len(lines), "created": created},
    )


@app.operation(writes=True)
def convert_to_pdf(ctx: OfficeContext, word_file_path: str, pdf_file_path: str) -> Result:
    """Convert a Word document (paragraphs and tables) to a PDF file.

    Args:
        word_file_path: path of the .docx file to convert.
        pdf_file_path: path of the .pdf file to write; an existing file is replaced.
    """
    _src, data = read_existing(ctx, word_file_path, DOCX, "Word")
    dst = new_file(ctx, pdf_file_path, PDF, "PDF")
    with reported_as_corrupt(word_file_path):
        ctx.office.write_bytes(dst, convert.docx_to_pdf(data), pdf_file_path)
    return Result(observation=f"Converted {word_file_path} to {pdf_file_path}.",
                  data={"word_file_path": word_file_path, "pdf_file_path": pdf_file_path})


@app.operation(writes=True)
def replace_text(ctx: OfficeContext, file_path: str, old_text: str, new_text: str) -> Result:
    """Replace every occurrence of a text in a Word document's paragraphs and table cells.

    Args:
        file_path: path of the .docx file in the office.
        old_text: the exact text to find (case-sensitive, within one paragraph).
        new_text: the text to put in its place; may be empty to delete it.
    """
    if old_text == "":
        raise OpError("bad_arguments", "old_text must not be empty")
    real, document = _open(ctx, file_path)
    new_clean = convert.clean_xml_text(new_text)
    count = sum(_replace_in_paragraph(p, old_text, new_clean) for p in _all_paragraphs(document))
    if count == 0:
        raise OpError("not_found", f"'{old_text}' does not occur in {file_path}")
    _save(ctx, document, real)
    return Result(
        observation=f"Replaced {count} occurrence(s) of '{old_text}' with '{new_text}' in {file_path}.",
        data={"file_path": file_path, "replacements": count},
    )


def _all_paragraphs(container: Any) -> Iterator[Any]:
    """Body paragraphs, then the paragraphs of every table cell (nested tables included)."""
    yield from container.paragraphs
    for table in container.tables:
        seen: list[Any] = []  # the cell elements themselves: an id() of a dropped proxy can be reused
        for row in table.rows:
            for cell in row.cells:
                if any(cell._tc is tc for tc in seen):
                    continue  # a merged cell appears once per row it spans
                seen.append(cell._tc)
                yield from _all_paragraphs(cell)


def _runs(paragraph: Any) -> list[Any]:
    """The text runs of a paragraph in order, including those inside hyperlinks."""
    runs = []
    for item in paragraph.iter_inner_content():
        runs.extend(item.runs if hasattr(item, "runs") else [item])
    return runs


def _replace_in_paragraph(paragraph: Any, old: str, new: str) -> int:
    """Replace ``old`` across run boundaries; the replacement takes the first matched run's format."""
    runs = _runs(paragraph)
    original = [r.text for r in runs]
    texts = list(original)
    full = "".join(texts)
    starts, offset = [], 0
    for text in texts:
        starts.append(offset)
        offset += len(text)
    hits, pos = [], full.find(old)
    while pos != -1:
        hits.append(pos)
        pos = full.find(old, pos + len(old))
    for hit in reversed(hits):  # right to left, so earlier offsets stay valid
        first, last = _run_at(starts, original, hit), _run_at(starts, original, hit + len(old) - 1)
        head = texts[first][: hit - starts[first]]
        tail = texts[last][hit + len(old) - starts[last]:]
        if first == last:
            texts[first] = head + new + tail
            continue
        texts[first] = head + new
        for k in range(first + 1, last):
            texts[k] = ""
        texts[last] = tail
    for run, old_run_text, text in zip(runs, original, texts):
        if text != old_run_text:
            run.text = text
    return len(hits)


def _run_at(starts: list[int], texts: list[str], position: int) -> int:
    """Index of the non-empty run holding character ``position`` of the paragraph."""
    for index in range(len(texts) - 1, -1, -1):
        if texts[index] and starts[index] <= position:
            return index
    return 0
