"""The HTTP routes, one APIRouter per resource; ``create_app`` (server/app.py) includes them in order.

- ``service``: ``/health``, ``/apps``
- ``tasks``: ``/tasks``, ``/tasks/{task_id}``
- ``sessions``: create, act, finish, read and delete a session
- ``files``: list and download the files of a session's office

Handlers reach the server's ``SessionManager`` through the ``Manager`` dependency (``app.state``).
"""

from officesim.server.routes.files import router as files_router
from officesim.server.routes.service import router as service_router
from officesim.server.routes.sessions import router as sessions_router
from officesim.server.routes.tasks import router as tasks_router

ROUTERS = (service_router, tasks_router, sessions_router, files_router)

__all__ = ["ROUTERS"]
