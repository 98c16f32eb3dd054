"""Drive one officesim session over the HTTP API with httpx: the shape of an agent in any language.

Start a server (``officesim serve --port 8000``, or the Docker image), then::

    python examples/http_agent.py --server http://127.0.0.1:8000 --task <task id>

When the server has ``OFFICESIM_TOKEN`` set, pass the same token (``--token`` or the environment).
Instead of asking a model, the script plays three fixed steps: list the files, read the first
spreadsheet, finish. A real agent loops: send ``prompt`` (or ``tool_prompt`` with ``tools``, the OpenAI tool
schemas of the actions allowed now) to a model, post the action it picks, feed back ``observation``
until ``done``. A reply carries ``tools``, ``prompt`` and ``tool_prompt`` only when the action changed
them (a switch of app; ``?include=tools`` asks for them), and always their ``tools_version``
(docs/api.md).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys

import httpx


def main() -> int:
    parser = argparse.ArgumentParser(description="Play one officesim session over HTTP.")
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", default=os.environ.get("OFFICESIM_TOKEN"))
    parser.add_argument("--task", help="task id (default: the first task the server lists)")
    args = parser.parse_args()

    headers = {"Authorization": f"Bearer {args.token}"} if args.token else {}
    with httpx.Client(base_url=args.server, headers=headers, timeout=60) as http:
        task_id = args.task or http.get("/tasks").raise_for_status().json()[0]["id"]
        session = http.post("/sessions", json={"task_id": task_id}).raise_for_status().json()
        sid = session["session_id"]
        tools = session["tools"]  # what a model would be offered now
        print(f"task {task_id}: {session['task']['instruction']}")

        def act(app: str, action: str, **arguments) -> dict:
            nonlocal tools
            body = {"app": app, "action": action, "args": arguments}
            reply = http.post(f"/sessions/{sid}/actions", json=body).raise_for_status().json()
            if "tools" in reply:  # the action changed them (switch_app): keep the new ones
                tools = reply["tools"]
            print(f"{reply['step']:>2} {app}.{action} ok={reply['ok']} ({len(tools)} tools): "
                  f"{reply['observation'][:100]!r}")
            return reply

        files = act("system", "list_files", path="data")  # one "path (size)" line per file
        sheets = re.findall(r"^(.+?\.xlsx) \(", files["observation"] or "", re.M)
        if sheets:
            act("system", "switch_app", target_app="excel")
            act("excel", "read_file", file_path=sheets[0])
        # finish_task ends the session; the reply carries the evaluation
        final = http.post(f"/sessions/{sid}/finish", json={"answer": None}).raise_for_status().json()
        http.delete(f"/sessions/{sid}")
    evaluation = final["evaluation"]
    print(json.dumps({k: evaluation.get(k) for k in ("task_id", "passed", "score", "status", "steps",
                                                     "checks", "side_effects")}, indent=2))
    return 0 if evaluation.get("passed") else 1


if __name__ == "__main__":
    sys.exit(main())
