"""A bounded property-based run over /openapi.json: no request the schema allows may cause a 5xx."""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from officesim.server.app import create_app
from officesim.server.manager import ServerSettings
from tests._api_tasks import BUDGET, QUESTION, write_tasks

_TASKS = write_tasks(Path(tempfile.mkdtemp(prefix="officesim-schema-tasks-")), BUDGET, QUESTION)
_APP = create_app([_TASKS], ServerSettings(include_suite=False, max_sessions=64))
schema = schemathesis.openapi.from_asgi("/openapi.json", _APP)


@schema.parametrize()
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_no_server_errors(case):
    response = case.call()
    case.validate_response(response, checks=(not_a_server_error,))
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        body = response.json()
        assert set(body["error"]) >= {"code", "message"}, body
