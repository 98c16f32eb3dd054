"""An LLM agent for any OpenAI-compatible chat-completions endpoint, written on httpx.

Two ways to act: native tool calling with the session's current ``tools`` (default), or
``action_format="json"``: the model writes one OfficeBench-style JSON action in text, for models
without tool calling. Either way a reply that is not a usable action becomes a malformed step
(sent to the server, which counts it and says what was wrong) instead of a crash. Retries with
exponential backoff on 429, 5xx and network errors; token use and latency are recorded per step.
"""

from __future__ import annotations

import json
import os
import random
import time
from typing import Any

import httpx

from officesim.runner.episode import Episode
from officesim.testbed.specs import TIME_FORMAT

RETRY_STATUS = {408, 409, 429, 500, 502, 503, 504}

SYSTEM_TEMPLATE = """You are an office assistant working for {user_name} <{user}>.
Current date and time: {now} ({weekday}), time zone {timezone}.
You work in a simulated office through applications: {apps}. The task needs: {task_apps}.
You can only use the actions of the current application; use system.switch_app to change application.
Files are at paths relative to the office root, e.g. data/report.docx. Your email address and calendar
user is {user}. When the task is complete, call system.finish_task (give the answer there if the task
asks a question). Act one step at a time and read each observation."""

JSON_INSTRUCTIONS = """Reply with exactly one action as a JSON object and nothing else, in the form
{"app": "<app>", "action": "<action>", "<argument>": <value>, ...}
The actions available now are:
"""


class LLMError(Exception):
    """The endpoint kept failing after the retries."""


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
        for attempt in range(self.max_retries + 1):
            try:
                resp = self.http.post("/chat/completions", json=body)
            except httpx.HTTPError as exc:
                last = f"{type(exc).__name__}: {exc}"
            else:
                if resp.status_code == 200:
                    try:
                        return resp.json()
                    except ValueError:
                        last = f"the endpoint answered 200 with a body that is not JSON: {resp.text[:200]!r}"
                elif resp.status_code in RETRY_STATUS:
                    last = f"HTTP {resp.status_code}: {resp.text[:200]}"
                else:
                    raise LLMError(f"HTTP {resp.status_code} from the model endpoint: {resp.text[:500]}")
                if attempt < self.max_retries:
                    time.sleep(self._delay(attempt, resp))
                continue
            if attempt < self.max_retries:
                time.sleep(self._delay(attempt, None))
        raise LLMError(f"model endpoint failed after {self.max_retries + 1} attempts: {last}")

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


def split_tool_name(name: str) -> tuple[str, str]:
    """'excel_read_file' -> ('excel', 'read_file'): app names have no underscore."""
    app, _, action = (name or "").partition("_")
    return app, action


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


def tools_as_text(tools: list[dict]) -> str:
    """The current tools as OfficeBench-style JSON action lines (for the JSON action format)."""
    lines = []
    for tool in tools:
        fn = tool["function"]
        app, action = split_tool_name(fn["name"])
        args = "".join(f', "{p}": ...' for p in fn.get("parameters", {}).get("properties", {}))
        desc = fn.get("description", "").split("\n")[0]
        lines.append(f'{{"app": "{app}", "action": "{action}"{args}}}  {desc}')
    return "\n".join(lines)


class OpenAIAgent:
    """Chat-completions agent: native tool calls (default) or JSON actions in text."""

    name = "openai"

    def __init__(self, model: str | None = None, action_format: str = "tools", base_url: str | None = None,
                 api_key: str | None = None, temperature: float = 0.0, max_retries: int = 5, backoff_s: float = 1.0):
        self.model = model or os.environ.get("MODEL") or os.environ.get("OPENAI_MODEL")
        if not self.model:
            raise ValueError("the openai agent needs a model: pass --model or set MODEL")
        if action_format not in ("tools", "json"):
            raise ValueError("action_format must be 'tools' or 'json'")
        self.action_format = action_format
        self.temperature = temperature
        self.chat = ChatClient(base_url or os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1"),
                               api_key or os.environ.get("OPENAI_API_KEY"), max_retries=max_retries, backoff_s=backoff_s)

    # -- prompts -----------------------------------------------------------------------------------
    def system_prompt(self, episode: Episode) -> str:
        from datetime import datetime

        task = episode.task
        now = datetime.strptime(task["now"], TIME_FORMAT)
        return SYSTEM_TEMPLATE.format(
            user_name=task.get("user_name") or task["user"], user=task["user"], now=task["now"],
            weekday=now.strftime("%A"), timezone=task.get("timezone", "UTC"),
            apps="system, word, excel, pdf, calendar, email, ocr, llm, shell", task_apps=", ".join(task.get("apps", [])))

    def _json_prompt(self, episode: Episode) -> str:
        return JSON_INSTRUCTIONS + tools_as_text(episode.tools) + f"\nCurrent application: {episode.current_app}"

    # -- the loop ----------------------------------------------------------------------------------
    def solve(self, episode: Episode) -> None:
        system = self.system_prompt(episode)
        if self.action_format == "json":
            system += "\n\n" + JSON_INSTRUCTIONS.split("\n")[0]
        messages: list[dict[str, Any]] = [{"role": "system", "content": system},
                                          {"role": "user", "content": f"Task: {episode.task['instruction']}"}]
        guard = 0
        listed: tuple = ()
        while not episode.done and guard < 500:
            guard += 1
            if self.action_format == "json":
                # list the allowed actions when they change (first turn, after switch_app), not every
                # turn: the conversation is resent whole, so repeating the list would multiply its cost
                names = tuple(t["function"]["name"] for t in episode.tools)
                if names != listed:
                    messages[-1]["content"] += "\n\n" + self._json_prompt(episode)
                    listed = names
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
            else:
                self._json_turn(episode, messages, message)

    def _tools_turn(self, episode: Episode, messages: list[dict], message: dict) -> None:
        calls = message.get("tool_calls") or []
        messages.append({"role": "assistant", "content": message.get("content"), **({"tool_calls": calls} if calls else {})})
        if not calls:
            resp = self._malformed(episode, "the reply called no tool", message.get("content"))
            messages.append({"role": "user", "content": resp})
            return
        for call in calls:
            fn = call.get("function") or {}
            app, action = split_tool_name(fn.get("name", ""))
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

    @staticmethod
    def _observe(resp: dict) -> str:
        if resp.get("done"):
            return f"{resp.get('observation', '')}\nThe session has ended ({resp.get('status')})."
        return str(resp.get("observation", ""))

    @staticmethod
    def _malformed(episode: Episode, reason: str, raw: Any, app: str = "", action: str = "") -> str:
        """Count a malformed reply as a step on the server, and tell the model what was wrong."""
        body = {"app": app or "(none)", "action": action or "(none)", "args": {"malformed_reply": str(raw)[:1000]}}
        resp = episode.act_raw(body)
        return f"Malformed action: {reason}. {resp.get('observation', '')}"
