"""What an agent is given: one ``Episode`` (a session on a task, driven over the API), and the
``Agent`` protocol. Agents import this module; the loader in ``agents`` imports the agents.
"""

from __future__ import annotations

from typing import Any, Protocol


class InfrastructureError(Exception):
    """Raised (or subclassed) by an agent whose own infrastructure failed, e.g. its model endpoint could
    not be reached: the episode is recorded with status ``error`` and played again, not counted as the
    agent's failure (runner/faults.py). Any other exception an agent raises is the agent's error."""


class Episode:
    """One attempt at one task as an agent sees it: the task, the prompt, the tools, and act().

    ``prompt`` (for JSON actions in text), ``tool_prompt`` and ``tools`` (for native tool calling) and
    ``current_app`` are the server's, kept current from each response (they change with switch_app;
    the server sends them only then, and ``tools_version`` names them). ``tools_version`` lets an
    agent notice the change: compare it with the one it last gave the model.
    """

    def __init__(self, client: Any, session: dict):
        self.client = client
        self.session_id: str = session["session_id"]
        self.task: dict = session["task"]
        self.prompt: str = session["prompt"]
        self.tool_prompt: str = session.get("tool_prompt") or self.prompt  # servers before tool_prompt
        self.tools: list[dict] = session["tools"]
        self.tools_version: str | None = session.get("tools_version")
        self.current_app: str = session["current_app"]
        self.mode: str | None = session.get("mode")  # switch_app, all_operations or code
        self.done = False
        self.last: dict | None = None
        self.evaluation: dict | None = None
        self.tokens = {"prompt": 0, "completion": 0}
        self.llm_latency_s = 0.0
        self.llm_calls = 0
        self.transcript: list[dict] | None = None  # the model's messages, when the agent records them

    def act(self, app: str, action: str, args: dict | None = None, *, include_data: bool = False) -> dict:
        """Send one action; returns the API response ({ok, observation, data, error, ...}); ``data``, the
        observation as values (a listing's rows, a sheet's cells), is null unless ``include_data``."""
        asked = {"include_data": True} if include_data else {}  # clients of the older signature work as before
        resp = self.client.act(self.session_id, app, action, args or {}, **asked)
        self._absorb(resp)
        return resp

    def act_raw(self, body: dict) -> dict:
        """Send an action body as given (e.g. the flat OfficeBench form an LLM wrote)."""
        resp = self.client.act_raw(self.session_id, body)
        self._absorb(resp)
        return resp

    def finish(self, answer: Any = None) -> dict:
        resp = self.client.finish(self.session_id, None if answer is None else str(answer))
        self._absorb(resp)
        self.done = True
        return resp

    def record_usage(self, prompt_tokens: int = 0, completion_tokens: int = 0, latency_s: float = 0.0) -> None:
        """Agents that call a model report its token use and latency here; it lands in the record."""
        self.tokens["prompt"] += int(prompt_tokens or 0)
        self.tokens["completion"] += int(completion_tokens or 0)
        self.llm_latency_s += latency_s
        self.llm_calls += 1

    def record_transcript(self, messages: list[dict]) -> None:
        """Agents that talk to a model hand over their message list here (the list itself, so later
        turns appended to it are kept too); it lands in the record and the report shows it."""
        self.transcript = messages

    def _absorb(self, resp: dict) -> None:
        self.last = resp
        self.current_app = resp.get("current_app", self.current_app)
        if resp.get("done"):
            self.done = True
            self.evaluation = resp.get("evaluation") or self.evaluation
            return
        version = resp.get("tools_version")
        if resp.get("tools") is None and version is not None and version != self.tools_version:
            # changed without them in this response (another client acted in between): ask for them
            resp = self.client.get_session(self.session_id, include_tools=True)
        self._take_tools(resp)

    def _take_tools(self, resp: dict) -> None:
        self.tools_version = resp.get("tools_version", self.tools_version)
        if resp.get("tools") is not None:
            self.tools = resp["tools"]
        if resp.get("prompt") is not None:
            self.prompt = resp["prompt"]
        if resp.get("tool_prompt") is not None:
            self.tool_prompt = resp["tool_prompt"]


class Agent(Protocol):
    name: str
    model: str | None

    def solve(self, episode: Episode) -> None: ...
