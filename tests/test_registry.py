"""apps/registry.py: schemas, tools and prompt lines derived from one function; errors as observations."""

from __future__ import annotations

import pytest

from officesim.apps import APPS
from officesim.apps.registry import App, OfficeContext, OpError, Result, resolve_operation

demo = App("demo", "A demo app.")


@demo.operation
def set_value(ctx: OfficeContext, file_path: str, row_idx: int, text: str | int | None = None,
              tags: list[str] | None = None) -> Result:
    """Set a value in a file.

    More details that are not part of the first paragraph.

    Args:
        file_path: path of the file in the office.
        row_idx: the row, starting at 1;
            continued on a second line.
        text: what to write.
        tags: labels to attach.
    """
    return Result(observation=f"set {row_idx}", data={"row": row_idx, "text": text})


@demo.operation
def explode(ctx: OfficeContext) -> Result:
    """Fail unexpectedly."""
    raise KeyError("boom")


@demo.operation
def refuse(ctx: OfficeContext) -> Result:
    """Fail the way operations should."""
    raise OpError("not_found", "nothing here")


@demo.operation
def plain(ctx: OfficeContext) -> Result:
    """Return something that is not a Result."""
    return {"x": 1}


OP = demo.operations["set_value"]


def test_schema_from_signature_and_docstring():
    schema = OP.json_schema()
    assert schema["required"] == ["file_path", "row_idx"]
    props = schema["properties"]
    assert props["file_path"] == {"type": "string", "description": "path of the file in the office."}
    assert props["row_idx"]["type"] == "integer"
    assert props["row_idx"]["description"] == "the row, starting at 1; continued on a second line."
    assert props["tags"]["default"] is None
    assert schema["additionalProperties"] is False
    assert OP.description.startswith("Set a value in a file.")


def test_openai_tool_and_prompt_line():
    tool = OP.openai_tool()
    assert tool["type"] == "function"
    assert tool["function"]["name"] == "demo_set_value"
    assert tool["function"]["description"].startswith("[demo] Set a value in a file.")
    assert tool["function"]["parameters"] == OP.json_schema()
    line = OP.prompt_line()
    assert line == ('{"app": "demo", "action": "set_value", "file_path": ..., "row_idx": ..., "text": ..., '
                    '"tags": ...}: Set a value in a file. Optional: text, tags.')


def test_valid_call():
    r = OP.invoke(OfficeContext(office=None), {"file_path": "a", "row_idx": 3})
    assert r.ok and r.observation == "set 3" and r.data == {"row": 3, "text": None}


@pytest.mark.parametrize("args, needle", [
    ({"row_idx": 1}, "missing argument 'file_path'"),
    ({"file_path": "a", "row_idx": 1, "colour": "red"}, "unexpected argument 'colour'"),
    ({"file_path": "a", "row_idx": "three"}, "argument 'row_idx'"),
    ({"file_path": "a", "row_idx": 1, "tags": "x"}, "argument 'tags'"),
])
def test_bad_arguments_name_the_field(args, needle):
    r = OP.invoke(OfficeContext(office=None), args)
    assert not r.ok and r.error["code"] == "bad_arguments"
    assert needle in r.error["message"]
    assert "(expected: file_path, row_idx, text, tags)" in r.error["message"]
    assert r.observation == "Error: " + r.error["message"]


def test_arguments_must_be_an_object():
    r = OP.invoke(OfficeContext(office=None), ["a", 1])
    assert not r.ok and r.error["code"] == "bad_arguments"


def test_errors_become_observations():
    r = demo.operations["explode"].invoke(OfficeContext(office=None), {})
    assert not r.ok and r.error["code"] == "internal_error" and "KeyError" in r.observation
    r = demo.operations["refuse"].invoke(OfficeContext(office=None), {})
    assert not r.ok and r.error == {"code": "not_found", "message": "nothing here"}
    r = demo.operations["plain"].invoke(OfficeContext(office=None), {})
    assert r.ok and r.data == {"x": 1}


def test_resolve_operation():
    apps = {"demo": demo}
    assert resolve_operation(apps, "demo", "set_value") is OP
    with pytest.raises(OpError) as info:
        resolve_operation(apps, "nope", "x")
    assert info.value.code == "unknown_app"
    with pytest.raises(OpError) as info:
        resolve_operation(apps, "demo", "nope")
    assert info.value.code == "unknown_action" and "set_value" in info.value.message


MINE = {  # FORMAT.md section 2
    "calendar": {
        "create_event": "user summary time_start time_end location description attendees",
        "delete_event": "user summary",
        "list_events": "username",
        "update_event": "user summary new_summary time_start time_end location description attendees",
    },
    "email": {
        "list_emails": "username folder page page_size show_all",
        "search_emails": "username folder sender subject text since until page page_size",
        "read_email": "username email_id",
        "send_email": "sender recipient subject content cc attachments",
        "forward_email": "username email_id recipient content",
        "reply_email": "username email_id content",
    },
    "ocr": {"recognize_file": "file_path"},
    "llm": {"complete_text": "prompt"},
    "shell": {"command": "command"},
}


@pytest.mark.parametrize("app", sorted(MINE))
def test_contract_operations_documented(app):
    """Names as in FORMAT.md section 2, and every argument described for the model."""
    ops = APPS[app].operations
    assert set(ops) == set(MINE[app])
    for op in ops.values():
        assert [p.name for p in op.params] == MINE[app][op.name].split()
        props = op.json_schema()["properties"]
        assert all(p.get("description") for p in props.values()), (op.name, props)
