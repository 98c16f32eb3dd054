"""A minimal custom agent for ``officesim eval``.

Run it over the suite (from the repository root, or with this folder's parent on PYTHONPATH)::

    officesim eval --agent examples.my_agent:MyAgent --out runs/mine
    officesim eval --agent examples/my_agent.py:MyAgent --agent-option max_reads=1 --out runs/mine

The runner builds the agent once, calling the class with ``model=`` (when ``--model`` is given)
and each ``--agent-option KEY=VALUE`` as keyword arguments, then calls ``solve(episode)`` once per
task x trial, possibly from several threads at once (``--workers``): keep per-task state local.

An ``Episode`` gives you:
  episode.task          the task as the API shows it (id, instruction, user, now, apps, ...)
  episode.prompt        an OfficeBench-style prompt with the actions allowed right now (JSON actions in text)
  episode.tool_prompt   the same prompt without the listing, for a model given episode.tools to call
  episode.tools         the allowed actions as OpenAI tool schemas (they change after switch_app)
  episode.tools_version names the tools and prompts: compare it with the last one you gave the model
  episode.current_app   where the session is
  episode.act(app, action, args) -> {"ok", "observation", "data", "error", "done", "status", ...}
  episode.finish(answer=None)
  episode.record_usage(prompt_tokens, completion_tokens, latency_s)   # lands in results.jsonl
  episode.record_transcript(messages)   # the model's messages (OpenAI chat form): results.jsonl's
                                        # "transcript", shown in report.html under the task's row
  episode.done          True once the session has ended (finish, step limit, stagnation)

If solve() returns without finishing, the runner finishes the session; if it raises, the episode is
recorded as failed with the error, and the run goes on.
"""

from __future__ import annotations

import json
import re


class MyAgent:
    name = "my-agent"

    def __init__(self, model: str | None = None, max_reads: int = 3):
        self.model = model  # recorded in results.jsonl and summary.json
        self.max_reads = max_reads

    def solve(self, episode) -> None:
        # This placeholder looks around and stops; a real agent would send episode.prompt (or
        # episode.tool_prompt and episode.tools) to a model and loop on its replies.
        #
        # The transcript: hand over the message list once, at the start, and append to it; the runner
        # reads it when the episode ends. A real agent appends the model's replies (with their
        # tool_calls) and the observations it sends back; this one writes down what it did in the
        # same form, so report.html shows a transcript for it too.
        messages = [{"role": "user", "content": episode.tool_prompt}]
        episode.record_transcript(messages)

        def act(app: str, action: str, args: dict) -> dict:
            call_id = f"call_{len(messages)}"
            messages.append({"role": "assistant", "content": None, "tool_calls": [
                {"id": call_id, "type": "function",
                 "function": {"name": f"{app}_{action}", "arguments": json.dumps(args)}}]})
            reply = episode.act(app, action, args)
            messages.append({"role": "tool", "tool_call_id": call_id, "content": reply["observation"]})
            return reply

        # Read the listing's text, as a model would: one "path (size)" line per file.
        listing = act("system", "list_files", {"path": "data"})
        paths = re.findall(r"^(.+?\.(?:docx|xlsx)) \(", listing["observation"] or "", re.M)
        for path in paths[: self.max_reads]:
            app = "word" if path.endswith(".docx") else "excel"
            if episode.current_app != app:
                act("system", "switch_app", {"target_app": app})
            act(app, "read_file", {"file_path": path})
            if episode.done:
                return
        messages.append({"role": "assistant", "content": "I have read the files and stop here."})
        episode.finish(None)
