"""``/sessions/{session_id}/files``: the files of a session's office, listed and downloaded.

The listing runs on a request thread (``in_thread``) and the download's handler in FastAPI's threadpool,
so reading a file never blocks the loop.
Downloads stream the file in chunks from a descriptor opened (and checked) under the session lock,
so a 250 MB file costs no more memory than a small one.
"""

from __future__ import annotations

import mimetypes
import os
from pathlib import Path

from fastapi import APIRouter
from starlette.responses import StreamingResponse

from officesim.apps import OpError
from officesim.server.models import FileInfo
from officesim.testbed import safefs
from officesim.server.routes.common import (ERRORS, ApiError, FastJSON, Manager, in_thread, office_or_410,
                                            session_or_404)

router = APIRouter(tags=["sessions"])
CHUNK = 256 * 1024


@router.get("/sessions/{session_id}/files", response_model=list[FileInfo], responses=ERRORS)
async def list_files(session_id: str, manager: Manager):
    def work() -> list[dict]:
        session = session_or_404(manager, session_id)
        with session.lock:
            office = office_or_410(manager, session)
            return [{"path": p, "size": os.stat(office.root / p, follow_symlinks=False).st_size} for p in office.files()]

    return FastJSON(await in_thread(work))


@router.get("/sessions/{session_id}/files/{path:path}",
            responses={**ERRORS, 200: {"content": {"application/octet-stream": {}}}})
def download(session_id: str, path: str, manager: Manager):
    session = session_or_404(manager, session_id)
    with session.lock:
        office = office_or_410(manager, session)
        try:
            real = office.resolve(path)
        except OpError as exc:
            status = 403 if exc.code == "path_outside_office" else 400
            raise ApiError(status, exc.code, exc.message) from None
        fd = _open_inside(office.root, real)
        if fd is None:
            raise ApiError(404, "file_not_found", f"no file '{path}' in the office")
    size = os.fstat(fd).st_size
    media = mimetypes.guess_type(real.name)[0] or "application/octet-stream"
    return StreamingResponse(_chunks(fd), media_type=media, headers={
        "Content-Disposition": f'attachment; filename="{_header_safe(real.name)}"', "Content-Length": str(size)})


def _open_inside(root: Path, real: Path) -> int | None:
    """An fd of the regular file ``real``, opened once beneath the office root without following any
    link (testbed/safefs.py) and checked on the descriptor; None when it is no such file."""
    try:
        fd = safefs.open_beneath(root, real.relative_to(root).as_posix(), os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError):
        return None
    try:
        safefs.fstat_regular(fd, real.name)
        return fd
    except OSError:
        os.close(fd)
        return None


def _chunks(fd: int):
    """The file in 256 KB chunks (Starlette iterates this in its threadpool): memory stays flat."""
    try:
        while chunk := os.read(fd, CHUNK):
            yield chunk
    finally:
        os.close(fd)


def _header_safe(name: str) -> str:
    return "".join(c if 32 <= ord(c) < 127 and c not in '"\\' else "_" for c in name)
