"""/openapi.json (what /docs and /redoc show): the finish response's `evaluation` is typed, its schema
is exactly what the server sends, and the description points MCP clients at /mcp."""

from __future__ import annotations

import jsonschema
import pytest
from fastapi.testclient import TestClient

from officesim.evaluators.record import RUNNER_FIELDS, EpisodeRecord
from officesim.server.app import create_app
from officesim.server.manager import ServerSettings
from tests._api_tasks import BUDGET, QUESTION, write_tasks


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    tasks = write_tasks(tmp_path_factory.mktemp("tasks"), BUDGET, QUESTION)
    cfg = ServerSettings(include_suite=False, sessions_dir=tmp_path_factory.mktemp("sessions"))
    with TestClient(create_app([tasks], cfg)) as c:
        yield c


@pytest.fixture(scope="module")
def spec(client):
    return client.get("/openapi.json").json()


def _resolve(spec: dict, node: dict) -> dict:
    """The schema a property points at: through anyOf [X, null] and $refs."""
    for option in node.get("anyOf", [node]):
        if "$ref" in option:
            target = spec["components"]["schemas"][option["$ref"].rsplit("/", 1)[1]]
            return _resolve(spec, target) if "$ref" in target else target
    raise AssertionError(f"untyped: {node}")


def test_the_evaluation_is_typed_in_finish_and_session_responses(spec):
    finish = spec["paths"]["/sessions/{session_id}/finish"]["post"]["responses"]["200"]
    action_response = _resolve(spec, finish["content"]["application/json"]["schema"])
    evaluation = _resolve(spec, action_response["properties"]["evaluation"])
    session = _resolve(spec, spec["paths"]["/sessions/{session_id}"]["get"]["responses"]["200"]
                       ["content"]["application/json"]["schema"])
    assert _resolve(spec, session["properties"]["evaluation"]) == evaluation
    props = evaluation["properties"]
    # the record's fields the API shows, the computed counts, never a field only the runner fills
    assert {"passed", "passed_checks_only", "failed", "score", "status", "checks", "side_effects", "collateral",
            "missing", "asking", "checks_passed", "checks_total"} <= set(props)
    assert not set(props) & RUNNER_FIELDS
    assert set(EpisodeRecord.model_fields) - RUNNER_FIELDS <= set(props)
    check = _resolve(spec, props["checks"]["items"])
    assert {"check", "args", "passed", "message"} <= set(check["properties"])
    assert {"task_id", "passed", "score", "status"} <= set(evaluation["required"])


def test_a_real_evaluation_matches_its_schema(client, spec):
    sid = client.post("/sessions", json={"task_id": "api-question"}).json()["session_id"]
    finished = client.post(f"/sessions/{sid}/finish", json={"answer": "1200"}).json()
    evaluation = finished["evaluation"]
    assert evaluation["passed"] is True and evaluation["checks_total"] == 1
    schema = {**_resolve(spec, {"$ref": "#/components/schemas/Evaluation"}),
              "components": spec["components"], "additionalProperties": False}
    schema = jsonschema.validators.validator_for(schema)(schema)
    # every key the server sends is declared (additionalProperties false), with its declared type
    for evaluation_sent in (evaluation, client.get(f"/sessions/{sid}").json()["evaluation"]):
        errors = [e.message for e in schema.iter_errors(evaluation_sent)]
        assert not errors, errors
    client.delete(f"/sessions/{sid}")


def test_the_description_mentions_mcp(spec):
    description = spec["info"]["description"]
    assert "/mcp" in description and "MCP" in description
    assert "Evaluation" in description
