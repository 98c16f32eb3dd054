"""``/sessions/{session_id}/files``: the files of a session's office, listed and downloaded.

Plain ``def`` handlers: FastAPI runs them in its threadpool, so reading a file never blocks the loop.
"""

from __future__ import annotations

import mimetypes

from fastapi import APIRouter
from starlette.responses import Response

from officesim.apps import OpError
from officesim.server.models import FileInfo
from officesim.server.routes.common import ERRORS, ApiError, Manager, office_or_410, session_or_404

router = APIRouter(tags=["sessions"])


@router.get("/sessions/{session_id}/files", response_model=list[FileInfo], responses=ERRORS)
def list_files(session_id: str, manager: Manager) -> list[dict]:
    session = session_or_404(manager, session_id)
    with session.lock:
        office = office_or_410(manager, session)
        return [{"path": p, "size": (office.root / p).stat().st_size} for p in office.files()]


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
        if not real.is_file():
            raise ApiError(404, "file_not_found", f"no file '{path}' in the office")
        data = real.read_bytes()
    media = mimetypes.guess_type(real.name)[0] or "application/octet-stream"
    return Response(content=data, media_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{_header_safe(real.name)}"'})


def _header_safe(name: str) -> str:
    return "".join(c if 32 <= ord(c) < 127 and c not in '"\\' else "_" for c in name)
