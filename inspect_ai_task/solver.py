"""The solver: one officesim session per sample, the model calling the session's tools.

Each turn the model gets exactly the tools the session allows now (the registry's OpenAI tools; an
action response carries them when the action changed them), so ``switch_app`` keeps its meaning:
after a switch the next turn offers the new app's tools, and what the new prompt says anew follows
as a message (the first message stays as it was). Tool names resolve to (app, operation) by the one
resolver (apps/toolnames.py). Tool results are the observations; a refused action is a
tool error with the HTTP code. The session's evaluation is kept in the sample's metadata for
``office_scorer``.
"""

from __future__ import annotations

from typing import Any

import anyio.to_thread
from inspect_ai.model import ChatMessageTool, ChatMessageUser, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolCallError, ToolInfo, ToolParams

from officesim.apps import DEFAULT_TOOLSET
from officesim.apps.toolnames import split_tool_name
from officesim.inspect.server import office_client
from officesim.runner.openai_agent import prompt_update

EVALUATION_KEY = "officesim_evaluation"
SESSION_KEY = "officesim_session_id"
NO_TOOL_CALL = "Call exactly one of the tools (system_finish_task when the task is done)."


def tool_infos(openai_tools: list[dict]) -> list[ToolInfo]:
    """The session's OpenAI tools as Inspect's tool specifications (same names, texts, schemas)."""
    return [ToolInfo(name=t["function"]["name"], description=t["function"]["description"],
                     parameters=ToolParams.model_validate(t["function"]["parameters"])) for t in openai_tools]


def _tool_message(call: Any, response: dict) -> ChatMessageTool:
    error = None
    if not response.get("ok"):
        code = (response.get("error") or {}).get("code", "error")
        error = ToolCallError("unknown", f"{code}: {(response.get('error') or {}).get('message', '')}")
    return ChatMessageTool(content=str(response.get("observation") or ""), tool_call_id=call.id,
                           function=call.function, error=error)


@solver
def office_agent(server: str | None = None, tasks_dir: str | list[str] | None = None, include_suite: bool = True,
                 mode: str | None = None, max_steps: int | None = None, max_turns: int | None = None) -> Solver:
    """Play one officesim session per sample with the model under evaluation.

    Args:
        server: URL of a running officesim server (token from OFFICESIM_TOKEN); default: a private one.
        tasks_dir: task directories the private server loads beside the built-in suite.
        include_suite: whether the private server loads the built-in suite.
        mode: switch_app (default) or all_operations.
        max_steps: the session's step limit (the server ends the session there); default: the task's own.
        max_turns: model turns before the session is finished as it stands (default: max_steps).
    """
    dirs = [tasks_dir] if isinstance(tasks_dir, str) else list(tasks_dir or [])

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        client = await anyio.to_thread.run_sync(lambda: office_client(server, dirs, include_suite))
        try:
            task_id = (state.metadata or {}).get("task_id", state.sample_id)
            created = await anyio.to_thread.run_sync(lambda: client.create_session(str(task_id), mode, max_steps))
            session_id = created["session_id"]
            state.metadata[SESSION_KEY] = session_id
            state.messages = [ChatMessageUser(content=created["tool_prompt"])]
            tools, prompt, last = created["tools"], created["tool_prompt"], {}
            toolset = created["task"].get("toolset") or DEFAULT_TOOLSET
            model = get_model()
            for _ in range(max_turns or created["max_steps"]):
                output = await model.generate(state.messages, tools=tool_infos(tools))
                state.output = output
                state.messages.append(output.message)
                calls = output.message.tool_calls or []
                if not calls:
                    state.messages.append(ChatMessageUser(content=NO_TOOL_CALL))
                    continue
                for call in calls:
                    args = call.arguments if isinstance(call.arguments, dict) else {}
                    app, action = split_tool_name(call.function, toolset)
                    last = await anyio.to_thread.run_sync(lambda: client.act(session_id, app, action, args))
                    state.messages.append(_tool_message(call, last))
                    tools = last.get("tools") or tools
                    if last.get("done"):
                        break
                if last.get("done"):
                    break
                if last.get("tool_prompt") and last["tool_prompt"] != prompt:
                    if update := prompt_update(prompt, last["tool_prompt"]):
                        state.messages.append(ChatMessageUser(content=update))
                    prompt = last["tool_prompt"]
            if not last.get("done"):  # out of turns: the office is graded as it stands
                last = await anyio.to_thread.run_sync(lambda: client.finish(session_id))
            state.metadata[EVALUATION_KEY] = last.get("evaluation")
            return state
        finally:
            client.close()

    return solve
