"""An LLM agent for any OpenAI-compatible chat-completions endpoint, written on httpx.

The model gets exactly the prompt and tools the server gives the session (server/session.py renders
them). Two ways to act: native tool calling with the session's ``tool_prompt`` and current ``tools``
(default), or ``action_format="json"`` with the session's ``prompt``, which lists the allowed actions
(or ``action_format="code"``, for sessions in mode code: one Python program per turn, run as
system.run_code):
the model writes one OfficeBench-style JSON action in text, for models without tool calling. Either
way a reply that is not a usable action becomes a malformed step (sent to the server, which counts
it and says what was wrong) instead of a crash. Retries with exponential backoff on 429, 5xx and
network errors; token use and latency are recorded per step.

An endpoint that cannot be reached after the retries (network errors, timeouts, 408/409/429/5xx, and
401/403/404: a wrong address or key) raises ``ModelUnavailable``, an ``InfrastructureError``: the episode
is recorded with status ``error`` and played again, not counted as the agent's failure. An endpoint that
refuses the request the agent built (400, 413, 422: a conversation too long for the model, a malformed
body) raises a plain ``LLMError``: the agent's failure.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from typing import Any

import httpx

from officesim.apps import DEFAULT_TOOLSET
from officesim.apps.toolnames import split_tool_name
from officesim.runner.episode import Episode, InfrastructureError
from officesim.server.session import ACTION_FORMATS

RETRY_STATUS = {408, 409, 429, 500, 502, 503, 504}
UNREACHABLE_STATUS = {401, 403, 404, 405}  # the address or the key is wrong: no model was reached


class LLMError(Exception):
    """The endpoint refused the request the agent built (the agent's failure); ``method`` and ``path``
    name the call."""

    method = "POST"

    def __init__(self, message: str, host: str | None = None, path: str = "/chat/completions"):
        super().__init__(message)
        self.host = host
        self.path = path


class ModelUnavailable(LLMError, InfrastructureError):
    """The model endpoint could not be reached or kept failing after the retries: an infrastructure
    error of the episode (runner/faults.py), not the agent's."""


class ChatClient:
    """POST /chat/completions with retries and backoff."""

    def __init__(self, base_url: str, api_key: str | None, timeout: float = 120.0,
                 max_retries: int = 5, backoff_s: float = 1.0):
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.http = httpx.Client(base_url=base_url.rstrip("/"), headers=headers, timeout=timeout)
        self.max_retries = max_retries
        self.backoff_s = backoff_s

    def complete(self, body: dict) -> dict:
        last = ""
        last_exc: Exception | None = None
        host = self.http.base_url.netloc.decode(errors="replace")
        path = self.http.base_url.path.rstrip("/") + "/chat/completions"
        for attempt in range(self.max_retries + 1):
            try:
                resp = self.http.post("/chat/completions", json=body)
            except httpx.HTTPError as exc:
                last = f"{type(exc).__name__}: {exc}"
                last_exc = exc
            else:
                last_exc = None
                if resp.status_code == 200:
                    try:
                        return resp.json()
                    except ValueError:
                        last = f"the endpoint answered 200 with a body that is not JSON: {resp.text[:200]!r}"
                elif resp.status_code in RETRY_STATUS:
                    last = f"HTTP {resp.status_code}: {resp.text[:200]}"
                elif resp.status_code in UNREACHABLE_STATUS:
                    raise ModelUnavailable(f"HTTP {resp.status_code} from the model endpoint (its address or key is "
                                           f"wrong?): {resp.text[:500]}", host, path)
                else:
                    raise LLMError(f"HTTP {resp.status_code} from the model endpoint: {resp.text[:500]}", host, path)
                if attempt < self.max_retries:
                    time.sleep(self._delay(attempt, resp))
                continue
            if attempt < self.max_retries:
                time.sleep(self._delay(attempt, None))
        raise ModelUnavailable(f"model endpoint failed after {self.max_retries + 1} attempts: {last}", host, path) from last_exc

    def _delay(self, attempt: int, resp: httpx.Response | None) -> float:
        retry_after = resp.headers.get("retry-after") if resp is not None else None
        if retry_after:
            try:
                return min(float(retry_after), 60.0)
            except ValueError:
                pass
        return self.backoff_s * (2 ** attempt) * (0.5 + random.random() / 2)

    def close(self) -> None:
        self.http.close()


def prompt_update(old: str, new: str) -> str:
    """What a changed prompt says that the one the model has does not: its new lines (where the
    session is now, the actions now listed). Sent as a message, so the first message never changes."""
    seen = set(old.splitlines())
    added = [line for line in new.splitlines() if line.strip() and line not in seen]
    return ("Update: " + "\n".join(added)) if added else ""


def extract_json_object(text: str) -> dict | None:
    """The first balanced {...} in text that parses as a JSON object (code fences allowed)."""
    start = text.find("{")
    while start != -1:
        depth, in_str, escape = 0, False, False
        for i in range(start, len(text)):
            ch = text[i]
            if in_str:
                escape = (not escape) and ch == "\\"
                if ch == '"' and not escape:
                    in_str = False
                continue
            if ch == '"':
                in_str = True
            elif ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    try:
                        obj = json.loads(text[start:i + 1])
                    except ValueError:
                        break
                    return obj if isinstance(obj, dict) else None
        start = text.find("{", start + 1)
    return None


def extract_program(text: str) -> str | None:
    """The program of a reply: its first fenced block (```python or plain ```), else None."""
    m = re.search(r"```(?:python|py)?[ \t]*\n(.*?)```", text or "", re.S)
    return m.group(1) if m and m.group(1).strip() else None


class OpenAIAgent:
    """Chat-completions agent: native tool calls (default) or JSON actions in text."""

    name = "openai"

    def __init__(self, model: str | None = None, action_format: str = "tools", base_url: str | None = None,
                 api_key: str | None = None, temperature: float = 0.0, max_retries: int = 5, backoff_s: float = 1.0):
        self.model = model or os.environ.get("MODEL") or os.environ.get("OPENAI_MODEL")
        if not self.model:
            raise ValueError("the openai agent needs a model: pass --model or set MODEL")
        if action_format not in (*ACTION_FORMATS, "code"):
            raise ValueError(f"action_format must be one of {', '.join(ACTION_FORMATS)}, code, not '{action_format}'")
        self.action_format = action_format
        self.temperature = temperature
        self.chat = ChatClient(base_url or os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1"),
                               api_key or os.environ.get("OPENAI_API_KEY"), max_retries=max_retries, backoff_s=backoff_s)

    # -- the loop ----------------------------------------------------------------------------------
    def solve(self, episode: Episode) -> None:
        """Talk to the model with the server's prompt and tools, one action per reply.

        The conversation opens with the session's prompt (``tool_prompt`` with ``tools`` for tool
        calling, ``prompt`` with its listing of actions for JSON) and that message never changes, so
        an endpoint's prompt cache keeps the whole conversation's prefix. When the allowed actions
        change (switch_app) the request's ``tools`` become the new ones and what the new prompt says
        anew (``prompt_update``) follows as a message.
        """
        shown = self._prompt(episode)
        messages: list[dict[str, Any]] = [{"role": "user", "content": shown}]
        episode.record_transcript(messages)
        guard = 0
        while not episode.done and guard < 500:
            guard += 1
            body = {"model": self.model, "messages": messages, "temperature": self.temperature}
            if self.action_format == "tools":
                body["tools"] = episode.tools
                body["tool_choice"] = "auto"
            started = time.perf_counter()
            reply = self.chat.complete(body)
            usage = reply.get("usage") or {}
            episode.record_usage(usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0),
                                 time.perf_counter() - started)
            message = ((reply.get("choices") or [{}])[0] or {}).get("message") or {}
            if self.action_format == "tools":
                self._tools_turn(episode, messages, message)
            elif self.action_format == "code":
                self._code_turn(episode, messages, message)
            else:
                self._json_turn(episode, messages, message)
            if not episode.done and self._prompt(episode) != shown:
                update = prompt_update(shown, self._prompt(episode))
                shown = self._prompt(episode)
                if update and self.action_format != "tools" and messages[-1]["role"] == "user":
                    messages[-1]["content"] += "\n\n" + update  # the turns keep alternating
                elif update:
                    messages.append({"role": "user", "content": update})

    def _prompt(self, episode: Episode) -> str:
        return episode.tool_prompt if self.action_format == "tools" else episode.prompt

    def _tools_turn(self, episode: Episode, messages: list[dict], message: dict) -> None:
        calls = message.get("tool_calls") or []
        messages.append({"role": "assistant", "content": message.get("content"), **({"tool_calls": calls} if calls else {})})
        if not calls:
            resp = self._malformed(episode, "the reply called no tool", message.get("content"))
            messages.append({"role": "user", "content": resp})
            return
        for call in calls:
            fn = call.get("function") or {}
            app, action = self._resolve(episode, fn.get("name", ""))
            raw = fn.get("arguments") or "{}"
            try:
                args = json.loads(raw) if isinstance(raw, str) else raw
                if not isinstance(args, dict):
                    raise ValueError("arguments are not a JSON object")
            except ValueError as exc:
                text = self._malformed(episode, f"the arguments of {fn.get('name')} are not valid JSON ({exc})", raw,
                                       app=app, action=action)
            else:
                text = self._observe(episode.act(app, action, args))
            messages.append({"role": "tool", "tool_call_id": call.get("id", ""), "content": text})
            if episode.done:
                return

    def _json_turn(self, episode: Episode, messages: list[dict], message: dict) -> None:
        content = message.get("content") or ""
        messages.append({"role": "assistant", "content": content})
        action = extract_json_object(content)
        if action is None or "app" not in action or "action" not in action:
            text = self._malformed(episode, "the reply holds no JSON action with 'app' and 'action'", content)
        else:
            text = self._observe(episode.act_raw(action))
        messages.append({"role": "user", "content": f"Observation: {text}"})

    def _code_turn(self, episode: Episode, messages: list[dict], message: dict) -> None:
        """``code``: the model writes one program per turn (a session in mode code runs it as system.run_code)."""
        content = message.get("content") or ""
        messages.append({"role": "assistant", "content": content})
        code = extract_program(content)
        if code is None:
            text = self._malformed(episode, "the reply holds no ```python program", content)
        else:
            text = self._observe(episode.act("system", "run_code", {"code": code}))
        messages.append({"role": "user", "content": f"Observation: {text}"})

    @staticmethod
    def _resolve(episode: Episode, name: str) -> tuple[str | None, str]:
        """A tool name as (app, operation), by the tool set of the episode's task."""
        return split_tool_name(name, episode.task.get("toolset") or DEFAULT_TOOLSET)

    @staticmethod
    def _observe(resp: dict) -> str:
        if resp.get("done"):
            return f"{resp.get('observation', '')}\nThe session has ended ({resp.get('status')})."
        return str(resp.get("observation", ""))

    @staticmethod
    def _malformed(episode: Episode, reason: str, raw: Any, app: str | None = "", action: str = "") -> str:
        """Count a malformed reply as a step on the server, and tell the model what was wrong."""
        body = {"app": app or "(none)", "action": action or "(none)", "args": {"malformed_reply": str(raw)[:1000]}}
        resp = episode.act_raw(body)
        return f"Malformed action: {reason}. {resp.get('observation', '')}"
