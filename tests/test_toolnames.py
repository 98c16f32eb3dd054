"""The one tool-name resolver (apps/toolnames.py): every name a session offers, in every tool set and
mode, and every function of code mode resolves to its (app, operation); the server, MCP, the openai
agent and the Inspect solver all use it."""

from __future__ import annotations

import re

import pytest

from officesim.apps import MODES, TOOLSETS, apps_for
from officesim.apps.toolnames import resolve_tool_name, split_tool_name
from officesim.server.code import api_listing
from officesim.server.session import tools_for


@pytest.mark.parametrize("toolset", list(TOOLSETS))
@pytest.mark.parametrize("mode", MODES)
def test_every_offered_tool_name_resolves_to_its_operation(toolset, mode):
    apps = apps_for(toolset)
    seen = 0
    for current in apps:
        for tool in tools_for(mode, current, toolset):
            name = tool["function"]["name"]
            app, action = resolve_tool_name(name, toolset)
            assert apps[app].operations[action].openai_tool() == tool, name
            assert tool["function"]["description"].startswith(f"[{app}]")
            assert split_tool_name(name, toolset) == (app, action)
            seen += 1
    assert seen


@pytest.mark.parametrize("toolset", list(TOOLSETS))
def test_code_mode_function_names_resolve(toolset):
    names = [line.split("(", 1)[0] for line in api_listing(toolset).splitlines()]
    assert names
    for name in names:
        app, _, action = name.partition(".")
        assert resolve_tool_name(name, toolset) == (app, action)


def test_app_names_with_underscores():
    assert resolve_tool_name("customer_relationship_manager_search_customers", "workbench") == (
        "customer_relationship_manager", "search_customers")
    assert resolve_tool_name("project_management_create_task", "workbench") == ("project_management", "create_task")
    assert resolve_tool_name("company_directory_find_email_address", "workbench") == (
        "company_directory", "find_email_address")
    # an operation of another tool set is no operation here
    assert resolve_tool_name("excel_set_cell", "workbench") is None
    assert resolve_tool_name("excel_set_cell") == ("excel", "set_cell")


def test_unknown_names_keep_what_the_session_can_name():
    assert resolve_tool_name("excel_no_such_thing") is None and resolve_tool_name(None) is None
    assert split_tool_name("excel_no_such_thing") == ("excel", "no_such_thing")  # unknown_action of excel
    assert split_tool_name("customer_relationship_manager_nope", "workbench") == ("customer_relationship_manager", "nope")
    assert split_tool_name("nonsense") == ("nonsense", "")  # unknown_app naming the tool
    assert split_tool_name("excel_set_cell", "a-newer-tool-set") == (None, "excel_set_cell")  # the server resolves


def test_every_client_uses_the_one_resolver():
    from pathlib import Path

    import officesim.apps.toolnames as toolnames

    root = Path(__file__).resolve().parents[1]
    users = ["server/session.py", "server/mcp.py", "runner/openai_agent.py", "inspect_ai_task/solver.py"]
    for path in users:
        text = (root / path).read_text()
        assert "officesim.apps.toolnames import" in text, path
        assert not re.search(r"""partition\(["']_["']\)|def \w*split_tool_name""", text), path
    assert toolnames.split_tool_name.__module__ == "officesim.apps.toolnames"
