"""The openai agent against a fake OpenAI-compatible endpoint served by this test module.

The fake answers POST /chat/completions from a script (one entry per request: a reply body, or an
HTTP error status) and keeps every request it received, so a test can check both what the agent
sent and what the runner recorded.
"""

from __future__ import annotations

import json
import threading
from http.server import ThreadingHTTPServer

import pytest

from tests._eval_tasks import USER, write_tasks
from tests._json_http import JsonHandler
from officesim.runner.cli import main as cli_main
from officesim.runner.localserver import LocalServer
from officesim.runner.openai_agent import extract_json_object, prompt_update
from officesim.runner.results import read_results
from officesim.runner.run import EvalConfig, run_eval
from officesim.server.client import OfficeClient

TASK = "ev-total-001"  # switch to excel, set B4 to 1500, finish
MODEL = "fake-model-1"


class FakeOpenAI:
    """A scripted chat-completions endpoint on a free local port."""

    def __init__(self):
        self.script: list = []
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        fake = self

        class Handler(JsonHandler):
            def do_POST(self):  # noqa: N802
                body = self.read_json()
                with fake.lock:
                    fake.requests.append({"path": self.path, "body": body,
                                          "authorization": self.headers.get("Authorization")})
                    step = fake.script.pop(0) if fake.script else 500
                if isinstance(step, int):
                    self._send(step, {"error": {"message": f"scripted status {step}"}})
                elif self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                else:
                    self._send(200, step)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def start(self) -> "FakeOpenAI":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def load(self, *steps) -> None:
        with self.lock:
            self.script = list(steps)
            self.requests = []


def _usage(prompt: int, completion: int) -> dict:
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def tool_reply(name: str, arguments, prompt: int = 100, completion: int = 10) -> dict:
    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": "chatcmpl-1", "object": "chat.completion", "model": MODEL,
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": None,
                "tool_calls": [{"id": f"call-{name}", "type": "function",
                                "function": {"name": name, "arguments": args}}]}}],
            "usage": _usage(prompt, completion)}


def text_reply(content: str, prompt: int = 100, completion: int = 10) -> dict:
    return {"id": "chatcmpl-2", "object": "chat.completion", "model": MODEL,
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
            "usage": _usage(prompt, completion)}


SET_B4 = {"file_path": "data/budget.xlsx", "row_idx": 4, "column_idx": 2, "text": "1500"}


def solving_tool_replies() -> list[dict]:
    return [tool_reply("system_switch_app", {"target_app": "excel"}, 100, 10),
            tool_reply("excel_set_cell", SET_B4, 120, 20),
            tool_reply("system_finish_task", {}, 140, 5)]


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    tasks = write_tasks(tmp_path_factory.mktemp("tasks"))
    fake = FakeOpenAI().start()
    with LocalServer([tasks], include_suite=False) as server:
        yield {"tasks": tasks, "server": server, "fake": fake}
    fake.stop()


def server_says(env, *actions) -> list[dict]:
    """What the server gives a fresh session on TASK: the creation response, then each action's."""
    with OfficeClient(env["server"].url, env["server"].token) as client:
        created = client.create_session(TASK)
        try:
            return [created, *(client.act(created["session_id"], *a) for a in actions)]
        finally:
            client.delete(created["session_id"])


SWITCH_TO_EXCEL = ("system", "switch_app", {"target_app": "excel"})


@pytest.fixture
def run(env, tmp_path, monkeypatch):
    """run(action_format=..., **agent_options) -> the single record of one openai episode on TASK."""
    monkeypatch.setenv("OPENAI_BASE_URL", env["fake"].url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-123")

    def _run(action_format: str = "tools", **options) -> dict:
        out = tmp_path / f"run-{action_format}-{len(list(tmp_path.iterdir()))}"
        cfg = EvalConfig(agent="openai", model=MODEL, task_dirs=[env["tasks"]], task_ids=[TASK],
                         server=env["server"].url, token=env["server"].token, workers=1, out=out,
                         agent_options={"action_format": action_format, "backoff_s": 0.001, **options},
                         progress="off", retry_pause_s=0.0)
        summary = run_eval(cfg)
        records = read_results(out)
        assert len(records) == 1 and summary["total"] == 1
        return records[0].model_dump()

    return _run


def test_scripted_tool_calls_pass_with_tokens(env, run):
    env["fake"].load(*solving_tool_replies())
    rec = run("tools")
    assert rec["passed"] is True, rec["checks"]
    assert rec["status"] == "finished"
    assert rec["agent"] == "openai" and rec["model"] == MODEL
    assert rec["tokens"] == {"prompt": 360, "completion": 35}
    assert rec["llm_calls"] == 3
    assert rec["steps"] == 3
    assert [(s["app"], s["action"]) for s in rec["trajectory"]] == [
        ("system", "switch_app"), ("excel", "set_cell"), ("system", "finish_task")]
    assert [c["check"] for c in rec["checks"]] == ["xlsx_cell"] and rec["checks"][0]["passed"]
    assert rec["error"] is None

    requests = env["fake"].requests
    assert len(requests) == 3
    first, second = requests[0]["body"], requests[1]["body"]
    assert requests[0]["authorization"] == "Bearer sk-test-123"
    assert first["model"] == MODEL
    # the agent sends exactly the server's tool prompt and tools, and follows them when they change:
    # the first message stays as it was (an endpoint's prompt cache keeps the prefix), the new tools go
    # in the request and what the new prompt says anew follows the tool results as a message
    created, switched = server_says(env, SWITCH_TO_EXCEL)
    assert first["messages"] == [{"role": "user", "content": created["tool_prompt"]}]
    assert first["tools"] == created["tools"]
    assert second["messages"][0] == first["messages"][0]
    assert requests[2]["body"]["messages"][0] == first["messages"][0]
    assert second["tools"] == switched["tools"]
    assert [m["role"] for m in second["messages"]] == ["user", "assistant", "tool", "user"]
    update = second["messages"][-1]["content"]
    assert update == prompt_update(created["tool_prompt"], switched["tool_prompt"])
    assert "You are in the 'excel' app" in update and "Write the total" not in update  # not the whole prompt again
    # the third request extends the second: nothing sent before is rewritten
    assert requests[2]["body"]["messages"][:4] == second["messages"]
    prompt = first["messages"][0]["content"]
    assert USER in prompt and "2026-03-10" in prompt and "data/budget.xlsx" in prompt
    assert "Available actions" not in prompt  # the tools carry the actions
    first_tools = {t["function"]["name"] for t in first["tools"]}
    second_tools = {t["function"]["name"] for t in second["tools"]}
    assert "system_switch_app" in first_tools and "excel_set_cell" not in first_tools
    assert "excel_set_cell" in second_tools  # the tools follow the current app
    tool_msgs = [m for m in second["messages"] if m["role"] == "tool"]
    assert tool_msgs and tool_msgs[-1]["tool_call_id"] == "call-system_switch_app"
    assert "excel" in tool_msgs[-1]["content"]


def test_json_action_format_passes(env, run):
    env["fake"].load(
        text_reply('I will open the spreadsheet app.\n```json\n{"app": "system", "action": "switch_app", '
                   '"target_app": "excel"}\n```', 50, 7),
        text_reply(json.dumps({"app": "excel", "action": "set_cell", **SET_B4}), 60, 8),
        text_reply('Done. {"app": "system", "action": "finish_task"}', 70, 9))
    rec = run("json")
    assert rec["passed"] is True, rec["checks"]
    assert rec["tokens"] == {"prompt": 180, "completion": 24}
    assert [s["ok"] for s in rec["trajectory"]] == [True, True, True]
    bodies = [r["body"] for r in env["fake"].requests]
    assert all("tools" not in b for b in bodies)
    # the conversation opens with the server's prompt, whose listing follows the current app
    created, switched = server_says(env, SWITCH_TO_EXCEL)
    assert bodies[0]["messages"] == [{"role": "user", "content": created["prompt"]}]
    assert '"action": "switch_app"' in created["prompt"] and '"action": "set_cell"' not in created["prompt"]
    assert bodies[1]["messages"][0] == bodies[0]["messages"][0]  # the first message never changes
    assert '"action": "set_cell"' in switched["prompt"]
    assert [m["role"] for m in bodies[1]["messages"]] == ["user", "assistant", "user"]
    # the new listing follows the observation in the same message, so the turns keep alternating
    observed = bodies[1]["messages"][2]["content"]
    assert observed.startswith("Observation: ") and '"action": "set_cell"' in observed
    assert observed.endswith(prompt_update(created["prompt"], switched["prompt"]))
    # the listing is never repeated in the history: observations follow as they are
    assert bodies[2]["messages"][0] == bodies[1]["messages"][0]
    assert all(m["content"].startswith("Observation: ") for m in bodies[2]["messages"][2::2])
    assert all("Available actions" not in m["content"] for m in bodies[2]["messages"][1:])


def test_garbage_tool_replies_are_malformed_steps(env, run):
    env["fake"].load(
        text_reply("I am not sure what to do."),                    # no tool call at all
        tool_reply("excel_set_cell", '{"file_path": "data/bud'),    # arguments are not JSON
        tool_reply("system_switch_app", '["excel"]'),               # arguments are not an object
        *solving_tool_replies())
    rec = run("tools")
    steps = rec["trajectory"]
    assert len(steps) == 6 and rec["steps"] == 6
    assert [s["ok"] for s in steps] == [False, False, False, True, True, True]
    assert all("malformed_reply" in s["args"] for s in steps[:3])
    assert rec["error"] is None and rec["status"] == "finished"
    assert rec["passed"] is True  # recovered after being told what was wrong
    # the model was told, in the conversation, that its reply was malformed
    later = env["fake"].requests[1]["body"]["messages"]
    assert any("Malformed action" in (m.get("content") or "") for m in later)


def test_garbage_json_replies_are_malformed_steps(env, run):
    env["fake"].load(
        text_reply("Sure! I'll update the budget now."),            # text without JSON
        text_reply('{"app": "excel", "action": "set_cell", "file_path": '),  # torn JSON
        text_reply('{"thought": "no action here"}'),               # JSON without app/action
        text_reply('{"app": "system", "action": "finish_task"}'))
    rec = run("json")
    assert [s["ok"] for s in rec["trajectory"]] == [False, False, False, True]
    assert rec["status"] == "finished" and rec["steps"] == 4
    assert rec["passed"] is False and rec["error"] is None
    assert rec["checks"] and not rec["checks"][0]["passed"]


def test_429_and_500_are_retried(env, run):
    env["fake"].load(429, 500, solving_tool_replies()[0], 503, *solving_tool_replies()[1:])
    rec = run("tools", max_retries=3)
    assert rec["passed"] is True
    assert len(env["fake"].requests) == 6
    assert rec["llm_calls"] == 3  # only the answered requests count as calls
    assert rec["tokens"] == {"prompt": 360, "completion": 35}


def test_endpoint_that_keeps_failing_is_an_infrastructure_error_not_a_failure(env, run):
    """The model endpoint unreachable is not the agent's judgement: status error, played again, apart."""
    env["fake"].load(500, 500, 500)  # then the fake answers 500 to everything
    rec = run("tools", max_retries=2)
    assert len(env["fake"].requests) == 6  # 3 requests per attempt, the episode played twice (--retries 1)
    assert rec["passed"] is False and rec["status"] == "error" and rec["error_kind"] == "infrastructure"
    assert "ModelUnavailable" in rec["error"] and "after 3 attempts" in rec["error"]
    assert rec["attempts"] == 2 and "ModelUnavailable" in rec["retried_errors"][0]
    call = rec["error_call"]
    assert (call["method"], call["path"], call["phase"]) == ("POST", "/v1/chat/completions", "agent")
    assert call["host"] == env["fake"].url.split("/")[2] and call["site"].startswith("runner/openai_agent.py:")
    assert rec["checks"] == []  # no verdict


def test_endpoint_that_refuses_the_request_is_the_agents_failure(env, run):
    """A 400 (e.g. a conversation too long for the model) answers the request the agent built: its failure."""
    env["fake"].load(400)
    rec = run("tools", max_retries=2)
    assert len(env["fake"].requests) == 1  # neither retried by the client nor played again
    assert rec["status"] == "finished" and rec["error_kind"] == "agent" and rec["attempts"] == 1
    assert rec["error"].startswith("agent error: LLMError: HTTP 400")
    assert rec["checks"] and rec["checks"][0]["passed"] is False  # graded as it stood


def test_cli_openai_json_with_agent_options(env, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_BASE_URL", env["fake"].url)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    env["fake"].load(500, text_reply('{"app": "system", "action": "switch_app", "target_app": "excel"}', 11, 1),
                     text_reply(json.dumps({"app": "excel", "action": "set_cell", **SET_B4}), 12, 2),
                     text_reply('{"app": "system", "action": "finish_task"}', 13, 3))
    out = tmp_path / "run"
    code = cli_main(["eval", "--agent", "openai", "--model", MODEL, "--action-format", "json",
                     "--agent-option", "backoff_s=0.001", "--agent-option", "temperature=0.5",
                     "--tasks", str(env["tasks"]), "--task", TASK, "--server", env["server"].url,
                     f"--token={env['server'].token}", "--out", str(out), "--progress", "off", "--fail-under", "1"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "passed 1/1" in err and "tokens 36 in / 6 out" in err
    assert [r["body"]["temperature"] for r in env["fake"].requests[1:]] == [0.5, 0.5, 0.5]
    assert env["fake"].requests[0]["authorization"] is None
    summary = json.loads((out / "summary.json").read_text())
    assert summary["tokens"] == {"prompt": 36, "completion": 6} and summary["model"] == MODEL


def test_helpers():
    assert prompt_update("a\nb", "a\nc\n\nd") == "Update: c\nd"
    assert prompt_update("a\nb", "b\na") == ""
    assert extract_json_object('x {"a": "}{", "b": {"c": 1}} y {"d": 2}') == {"a": "}{", "b": {"c": 1}}
    assert extract_json_object("no json here") is None
    assert extract_json_object('{"broken": } then {"ok": true}') == {"ok": True}


def test_code_action_format_writes_programs(env, tmp_path, monkeypatch):
    """--action-format code: sessions in mode code, one program per reply, a reply without one malformed."""
    monkeypatch.setenv("OPENAI_BASE_URL", env["fake"].url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-123")
    program = ("Here is the program:\n```python\nsystem.switch_app(target_app='excel')\n"
               "print(excel.set_cell(file_path='data/budget.xlsx', row_idx=4, column_idx=2, text='1500'))\n```")
    env["fake"].load(text_reply(program), text_reply("I am done."), text_reply("```\nsystem.finish_task()\n```"))
    cfg = EvalConfig(agent="openai", model=MODEL, task_dirs=[env["tasks"]], task_ids=[TASK], mode="code",
                     server=env["server"].url, token=env["server"].token, workers=1, out=tmp_path / "code",
                     agent_options={"action_format": "code", "backoff_s": 0.001}, progress="off")
    run_eval(cfg)
    rec = read_results(tmp_path / "code")[0].model_dump()
    assert rec["passed"] is True and rec["mode"] == "code", rec["checks"]
    steps = rec["trajectory"]
    assert [(s["action"], s["ok"]) for s in steps] == [("run_code", True), ("(none)", False), ("run_code", True)]
    assert [c["action"] for c in steps[0]["calls"]] == ["switch_app", "set_cell"]
    first = env["fake"].requests[0]["body"]
    assert "tools" not in first and "```python" in first["messages"][0]["content"]


def test_oracle_in_code_mode_plays_the_gold_as_one_program(env, tmp_path):
    cfg = EvalConfig(agent="oracle", task_dirs=[env["tasks"]], task_ids=[TASK], mode="code",
                     server=env["server"].url, token=env["server"].token, workers=1, out=tmp_path / "oracle",
                     progress="off")
    summary = run_eval(cfg)
    rec = read_results(tmp_path / "oracle")[0]
    assert summary["passed"] == 1 and rec.steps == 1 and rec.trajectory[0]["action"] == "run_code"


# ---- WorkBench's tools: app names with underscores ----------------------------------------------------
WB_TASK = "wb-crm-won-001"
CRM = "customer_relationship_manager"


def write_workbench_task(root):
    """A task in WorkBench's tool set on a small WorkBench office: mark one customer as won."""
    import yaml

    from officesim.apps.workbench_store import write_office
    from tests.test_workbench_apps import USER as WB_USER
    from tests.test_workbench_apps import tables

    write_office(root / "office", tables(), WB_USER)
    task = {"id": WB_TASK, "scenario": "wb-crm-won", "category": 1, "toolset": "workbench", "apps": [CRM],
            "user": WB_USER, "now": "2023-11-30 09:00:00", "office_from": "../../office",
            "instruction": "Taylor Jackson has become a customer: set their status to Won.",
            "checks": [{"check": "workbench_rows",
                        "args": {"table": "crm", "present": [{"customer_id": "00000189", "status": "Won"}]}}],
            "gold": [{"app": "system", "action": "switch_app", "args": {"target_app": CRM}},
                     {"app": CRM, "action": "update_customer",
                      "args": {"customer_id": "00000189", "field": "status", "new_value": "Won"}}]}
    (root / "tasks" / WB_TASK).mkdir(parents=True)
    (root / "tasks" / WB_TASK / "task.yaml").write_text(yaml.safe_dump(task, sort_keys=False))
    return root / "tasks"


def test_openai_agent_solves_a_workbench_task(env, tmp_path, monkeypatch):
    """Tool names such as customer_relationship_manager_update_customer reach their app (never 'customer')."""
    monkeypatch.setenv("OPENAI_BASE_URL", env["fake"].url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-123")
    tasks = write_workbench_task(tmp_path)
    env["fake"].load(tool_reply("system_switch_app", {"target_app": CRM}),
                     tool_reply(f"{CRM}_search_customers", {"customer_name": "taylor"}),
                     tool_reply(f"{CRM}_update_customer", {"customer_id": "00000189", "field": "status",
                                                           "new_value": "Won"}),
                     tool_reply("system_finish_task", {}))
    with LocalServer([tasks], include_suite=False) as server:
        cfg = EvalConfig(agent="openai", model=MODEL, task_dirs=[tasks], task_ids=[WB_TASK], server=server.url,
                         token=server.token, workers=1, out=tmp_path / "wb", progress="off",
                         agent_options={"backoff_s": 0.001})
        summary = run_eval(cfg)
    rec = read_results(tmp_path / "wb")[0].model_dump()
    assert [(s["app"], s["action"], s["ok"]) for s in rec["trajectory"]] == [
        ("system", "switch_app", True), (CRM, "search_customers", True), (CRM, "update_customer", True),
        ("system", "finish_task", True)], rec["error"]
    assert "Taylor Jackson" in rec["trajectory"][1]["observation"]
    assert rec["passed"] is True and summary["passed"] == 1, rec["checks"]
    offered = {t["function"]["name"] for t in env["fake"].requests[1]["body"]["tools"]}
    assert f"{CRM}_update_customer" in offered  # the tools followed the switch
