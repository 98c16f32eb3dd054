"""Hostile files, made on the spot: decompression bombs, huge and cyclic PDFs, a million-row sheet, a huge
image, deeply nested XML, and a task whose office holds them all.

Each is small on disk (at most a few MB) and just past the limit it tests, and is built by writing the
container formats directly (zip members streamed through zlib at its fastest level, PNG rows through
one compressor, PDF objects by hand), so the battery stays quick. tests/test_hostile.py plays them against a server; the memory
benchmark (benchmarks/hostile.py) plays them too.
"""

from __future__ import annotations

import base64
import struct
import zipfile
import zlib
from pathlib import Path

import yaml

USER = "maya.lin@northwind.test"
MB = 1 << 20

DOCX_TYPES = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
              b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
              b'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
              b'<Default Extension="xml" ContentType="application/xml"/>'
              b'<Override PartName="/word/document.xml" '
              b'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
              b'</Types>')
DOCX_RELS = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
             b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
             b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
             b'Target="word/document.xml"/></Relationships>')
W = b'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _stream_member(zf: zipfile.ZipFile, name: str, head: bytes, filler: bytes, total: int, tail: bytes) -> None:
    """A member of ``total`` bytes: head, filler repeated, tail (never all in memory)."""
    info = zipfile.ZipInfo(name)
    info.compress_type = zipfile.ZIP_DEFLATED
    info._compresslevel = 1  # the fastest: these members are one byte repeated
    with zf.open(info, "w", force_zip64=True) as out:
        out.write(head)
        chunk = filler * (MB // len(filler))
        left = total - len(head) - len(tail)
        while left > 0:
            piece = chunk[:left]
            out.write(piece)
            left -= len(piece)
        out.write(tail)


def docx_bomb(path: Path, inflated: int = 210 * MB) -> Path:
    """A .docx of a few hundred KB whose document.xml inflates to ``inflated`` bytes."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        zf.writestr("[Content_Types].xml", DOCX_TYPES)
        zf.writestr("_rels/.rels", DOCX_RELS)
        _stream_member(zf, "word/document.xml", b'<w:document ' + W + b'><w:body><w:p><w:r><w:t>',
                       b"A", inflated, b"</w:t></w:r></w:p></w:body></w:document>")
    return path


def xlsx_ratio_bomb(path: Path, inflated: int = 24 * MB) -> Path:
    """An .xlsx under the total inflated limit whose one sheet compresses about a thousand times."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        zf.writestr("[Content_Types].xml", b"<Types/>")
        _stream_member(zf, "xl/worksheets/sheet1.xml", b"<worksheet><sheetData>", b" ", inflated,
                       b"</sheetData></worksheet>")
    return path


def zip_bomb(path: Path, inflated: int = 210 * MB) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        _stream_member(zf, "zeros.bin", b"", b"\0", inflated, b"")
    return path


def million_rows(path: Path, rows: int = 1_000_000) -> Path:
    """A real workbook (openpyxl opens it) with ``rows`` rows of two cells."""
    ct = (b'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
          b'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
          b'<Default Extension="xml" ContentType="application/xml"/>'
          b'<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
          b'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
          b'</Types>')
    rels = (b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
            b'</Relationships>')
    wb = (b'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
          b'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
          b'<sheet name="Big" sheetId="1" r:id="rId1"/></sheets></workbook>')
    wb_rels = (b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
               b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
               b'</Relationships>')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        zf.writestr("[Content_Types].xml", ct)
        zf.writestr("_rels/.rels", rels)
        zf.writestr("xl/workbook.xml", wb)
        zf.writestr("xl/_rels/workbook.xml.rels", wb_rels)
        info = zipfile.ZipInfo("xl/worksheets/sheet1.xml")
        info.compress_type = zipfile.ZIP_DEFLATED
        info._compresslevel = 1
        with zf.open(info, "w", force_zip64=True) as out:
            out.write(b'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>')
            step = 10_000
            for start in range(1, rows + 1, step):
                out.write(b"".join(b'<row r="%d"><c r="A%d"><v>%d</v></c><c r="B%d"><v>1</v></c></row>' % (i, i, i, i)
                                   for i in range(start, min(rows, start + step - 1) + 1)))
            out.write(b"</sheetData></worksheet>")
    return path


def deep_docx(path: Path, depth: int = 100_000) -> Path:
    """A .docx whose body nests ``depth`` elements."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", DOCX_TYPES)
        zf.writestr("_rels/.rels", DOCX_RELS)
        zf.writestr("word/document.xml", b'<w:document ' + W + b'><w:body>' + b"<w:p>" * depth
                    + b"</w:p>" * depth + b"</w:body></w:document>")
    return path


def huge_png(path: Path, side: int = 12_000) -> Path:
    """A grey ``side`` x ``side`` PNG (144 M pixels at the default) of a few hundred KB."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    engine = zlib.compressobj(1)
    row = b"\0" * (side + 1)  # filter byte + one byte per pixel
    parts = [engine.compress(row * 256) for _ in range(side // 256)]
    parts.append(engine.compress(row * (side % 256)))
    parts.append(engine.flush())
    with open(path, "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n")
        out.write(chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)))
        out.write(chunk(b"IDAT", b"".join(parts)))
        out.write(chunk(b"IEND", b""))
    return path


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF from object bodies (object i+1 = objects[i]) with a correct xref table; root is 1."""
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def cyclic_pdf(path: Path) -> Path:
    """A page tree whose /Kids lead back to itself."""
    path.write_bytes(_pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>",
        b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 3 0 R] /Count 1 >>",
    ]))
    return path


def huge_pdf(path: Path, inflated: int = 24 * MB) -> Path:
    """One enormous page (200,000 points a side) whose content stream inflates to ``inflated`` bytes."""
    engine = zlib.compressobj(1)
    chunk = b" " * MB
    data = b"".join(engine.compress(chunk) for _ in range(inflated // MB)) + engine.flush()
    stream = b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream"
    path.write_bytes(_pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200000 200000] /Contents 4 0 R >>",
        stream,
    ]))
    return path


def eml_with_bomb(path: Path, attachment: Path, sender: str = "bob@northwind.test", to: str = USER) -> Path:
    """A mail carrying ``attachment`` (a bomb) as a base64 part."""
    payload = base64.encodebytes(attachment.read_bytes()).decode()
    path.write_text(
        f"From: {sender}\nTo: {to}\nSubject: Quarterly figures\nDate: Mon, 09 Mar 2026 10:00:00 +0000\n"
        f"Message-ID: <bomb@northwind.test>\nMIME-Version: 1.0\n"
        f'Content-Type: multipart/mixed; boundary="XX"\n\n--XX\nContent-Type: text/plain\n\nSee attached.\n'
        f"--XX\nContent-Type: application/vnd.openxmlformats-officedocument.wordprocessingml.document\n"
        f'Content-Transfer-Encoding: base64\nContent-Disposition: attachment; filename="{attachment.name}"\n\n'
        f"{payload}--XX--\n")
    return path


HOSTILE_FILES = {
    "data/bomb.docx": "docx", "data/ratio.xlsx": "xlsx", "data/archive.zip": "zip", "data/rows.xlsx": "rows",
    "data/deep.docx": "deep", "data/huge.png": "png", "data/cyclic.pdf": "cyclic", "data/huge.pdf": "hugepdf",
    f"emails/{USER}/msg-9.eml": "eml",
}


def hostile_task(root: Path, task_id: str = "hostile-office-001") -> Path:
    """A task directory (under ``root``) whose office holds every hostile file beside a normal note."""
    folder = root / task_id
    data = folder / "files" / "data"
    data.mkdir(parents=True, exist_ok=True)
    docx_bomb(data / "bomb.docx")
    xlsx_ratio_bomb(data / "ratio.xlsx")
    zip_bomb(data / "archive.zip")
    million_rows(data / "rows.xlsx")
    deep_docx(data / "deep.docx")
    huge_png(data / "huge.png")
    cyclic_pdf(data / "cyclic.pdf")
    huge_pdf(data / "huge.pdf")
    mailbox = folder / "files" / "emails" / USER
    mailbox.mkdir(parents=True, exist_ok=True)
    eml_with_bomb(mailbox / "msg-9.eml", data / "bomb.docx")
    task = {
        "id": task_id, "scenario": task_id.rsplit("-", 1)[0], "category": 1, "apps": ["word"], "user": USER,
        "user_name": "Maya Lin", "now": "2026-03-10 09:00:00",
        "instruction": "Add the line 'Checked' to data/notes.docx.",
        "office": [{"type": "docx", "path": "data/notes.docx", "paragraphs": ["Notes"]}],
        "checks": [{"check": "docx_has_paragraph", "args": {"file": "data/notes.docx", "text": "Checked"}}],
        "gold": [{"app": "system", "action": "switch_app", "args": {"target_app": "word"}},
                 {"app": "word", "action": "write_to_file", "args": {"file_path": "data/notes.docx", "contents": "Checked"}}],
    }
    (folder / "task.yaml").write_text(yaml.safe_dump(task, sort_keys=False))
    return root


# (app, action, arguments, what the error says, or None when the action must succeed)
HOSTILE_ACTIONS = [
    ("word", "read_file", {"file_path": "data/bomb.docx"}, "inflates to 210 MB"),
    ("word", "convert_to_pdf", {"word_file_path": "data/bomb.docx", "pdf_file_path": "data/out.pdf"}, "inflates to 210 MB"),
    ("excel", "read_file", {"file_path": "data/ratio.xlsx"}, "times"),
    ("excel", "read_file", {"file_path": "data/rows.xlsx"}, "limit"),
    ("excel", "convert_to_pdf", {"excel_file_path": "data/rows.xlsx", "pdf_file_path": "data/rows.pdf"}, "limit"),
    ("word", "read_file", {"file_path": "data/deep.docx"}, "depth"),
    ("ocr", "recognize_file", {"file_path": "data/huge.png"}, "pixels"),
    ("pdf", "image_to_pdf", {"image_file_path": "data/huge.png", "pdf_file_path": "data/huge-image.pdf"}, "pixels"),
    ("pdf", "read_file", {"pdf_file_path": "data/cyclic.pdf"}, "cyclic"),
    ("pdf", "convert_to_image", {"pdf_file_path": "data/cyclic.pdf", "image_file_path": "data/c.png"}, ""),
    ("pdf", "convert_to_image", {"pdf_file_path": "data/huge.pdf", "image_file_path": "data/h.png"}, "limit"),
    ("ocr", "recognize_file", {"file_path": "data/huge.pdf"}, "pixels"),
    ("email", "read_email", {"username": USER, "email_id": "msg-9"}, None),  # the bomb stays an attachment
]
