"""Workers and sandboxes start with a scrubbed environment: the server's token, an LLM key and the
host's credentials reach neither a worker's environment (``os.environ``, the C library's, the
start-up block ``/proc/<pid>/environ`` shows) nor a shell command or code-mode program; the llm app
still sends its key to its endpoint."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from http.server import ThreadingHTTPServer

import httpx
import psutil
import pytest

from officesim.runner.localserver import LocalServer
from officesim.server.workerenv import worker_environment
from tests._api_tasks import BUDGET, QUESTION, write_tasks
from tests._json_http import JsonHandler

SECRETS = {
    "OFFICESIM_LLM_API_KEY": "sk-officesim-llm-4c1e",
    "OPENAI_API_KEY": "sk-openai-77aa",
    "AWS_SECRET_ACCESS_KEY": "aws-secret-19f3",
    "GITHUB_TOKEN": "ghp-token-5d2b",
    "DB_PASSWORD": "hunter2-db-pass",
    "MY_SERVICE_SECRET": "service-secret-0e0e",
    "HTTPS_PROXY": "http://proxyuser:proxy-pass-8b8b@127.0.0.1:3128",
}
TOKEN = "bearer-token-a9d0c3"  # the server's OFFICESIM_TOKEN
SETTINGS = {"OFFICESIM_WORKER_MEMORY_MB": "900", "TZ": "Europe/Berlin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}


def leaks(text: str) -> list[str]:
    return [value for value in (TOKEN, *SECRETS.values(), "proxy-pass-8b8b") if value in text]


def test_the_allow_list():
    env = worker_environment({"PATH": "/usr/bin", "HOME": "/root", "OFFICESIM_TOKEN": TOKEN, **SECRETS, **SETTINGS,
                              "OFFICESIM_OP_TIME_LIMIT": "30", "DATABASE_URL": "postgres://x", "PYTHONPATH": "/x",
                              "NO_PROXY": "localhost", "SSH_AUTH_SOCK": "/tmp/agent.sock"})
    assert env["PATH"] == "/usr/bin" and env["HOME"] == "/root" and env["OFFICESIM_OP_TIME_LIMIT"] == "30"
    assert {k: env[k] for k in SETTINGS} == SETTINGS and env["NO_PROXY"] == "localhost"
    for name in ("OFFICESIM_TOKEN", "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "DB_PASSWORD", "MY_SERVICE_SECRET",
                 "HTTPS_PROXY", "DATABASE_URL", "PYTHONPATH", "SSH_AUTH_SOCK"):
        assert name not in env, name
    # the llm app's key travels beside the environment, to be taken out of it in the worker
    assert env["OFFICESIM_LLM_API_KEY"] == SECRETS["OFFICESIM_LLM_API_KEY"]
    assert env["OPENAI_API_KEY"] == SECRETS["OPENAI_API_KEY"]


def test_installing_it_leaves_no_secret_anywhere_in_the_process():
    """A process started with the secrets, as the forkserver a worker is forked from is, installs the
    worker environment: none is left in os.environ, posix.environ, the C library's environment, the
    start-up block, or a subprocess; the llm key is with the llm app only."""
    program = """if True:
        import ctypes, json, os, posix, subprocess
        from officesim.apps import llm
        from officesim.server.workerenv import install_environment, worker_environment
        install_environment(worker_environment(os.environ))
        getenv = ctypes.CDLL(None).getenv
        getenv.restype = ctypes.c_char_p
        print(json.dumps({
            "os": dict(os.environ),
            "posix": {k.decode(): v.decode() for k, v in posix.environ.items()},
            "c": {n: (getenv(n.encode()) or b"").decode() for n in %r},
            "proc": open("/proc/self/environ", "rb").read().decode("latin-1"),
            "child": subprocess.run(["env"], capture_output=True, text=True).stdout,
            "llm_key": llm.endpoint()[1],
        }))
    """ % (sorted(SECRETS) + ["OFFICESIM_TOKEN", "TZ"])
    env = {"PATH": os.environ["PATH"], "HOME": "/root", "OFFICESIM_TOKEN": TOKEN, **SECRETS, **SETTINGS,
           "OFFICESIM_LLM_BASE_URL": "http://127.0.0.1:9/v1"}
    done = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=300,
                          cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    for place in ("os", "posix", "c", "proc", "child"):
        assert leaks(json.dumps(seen[place])) == [], place
    assert seen["os"]["TZ"] == "Europe/Berlin" and seen["c"]["TZ"] == "Europe/Berlin"
    assert "TZ=Europe/Berlin" in seen["proc"] and "OFFICESIM_WORKER_MEMORY_MB=900" in seen["child"]
    assert seen["llm_key"] == SECRETS["OFFICESIM_LLM_API_KEY"]


class _Model(JsonHandler):
    seen: list = []

    def do_POST(self):
        self.read_json()
        _Model.seen.append(self.headers.get("Authorization"))
        self._send(200, {"choices": [{"message": {"role": "assistant", "content": "fine"}}]})


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_no_secret_reaches_a_worker_a_command_or_a_program(tmp_path):
    model = ThreadingHTTPServer(("127.0.0.1", 0), _Model)
    threading.Thread(target=model.serve_forever, daemon=True).start()
    tasks = write_tasks(tmp_path / "tasks", BUDGET, QUESTION)
    env = {**SECRETS, "OFFICESIM_LLM_BASE_URL": f"http://127.0.0.1:{model.server_address[1]}/v1"}
    try:
        with LocalServer([tasks], env=env, include_suite=False, token=TOKEN) as srv, \
                httpx.Client(base_url=srv.url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=300) as http:
            def act(sid: str, app: str, action: str, **args) -> dict:
                resp = http.post(f"/sessions/{sid}/actions", json={"app": app, "action": action, "args": args})
                assert resp.status_code == 200, resp.text
                return resp.json()

            sid = http.post("/sessions", json={"task_id": "api-question"}).json()["session_id"]
            act(sid, "system", "switch_app", target_app="shell")
            shell = act(sid, "shell", "command", command="env; cat /proc/self/environ; cat /proc/1/environ; "
                                                         "ls /proc")
            assert shell["ok"] and "PATH=" in shell["observation"], shell["observation"]
            assert leaks(shell["observation"]) == [], shell["observation"]

            act(sid, "system", "switch_app", target_app="llm")
            answer = act(sid, "llm", "complete_text", prompt="Say fine.")
            assert answer["ok"] and "fine" in answer["observation"], answer["observation"]
            assert _Model.seen[-1] == f"Bearer {SECRETS['OFFICESIM_LLM_API_KEY']}"  # the key still reaches the model

            code = http.post("/sessions", json={"task_id": "api-question", "mode": "code"}).json()["session_id"]
            program = ("import os, subprocess\nprint(dict(os.environ))\nprint(open('/proc/self/environ').read())\n"
                       "print(subprocess.run(['env'], capture_output=True, text=True).stdout)")
            ran = act(code, "system", "run_code", code=program)
            assert ran["ok"] and "PATH" in ran["observation"], ran["observation"]
            assert leaks(ran["observation"]) == [], ran["observation"]

            # the workers themselves: their environment as the kernel shows it
            server = psutil.Process(srv.proc.pid)
            forkservers = [p for p in server.children(recursive=True) if "forkserver" in " ".join(p.cmdline())
                           and p.ppid() != 1 and "forkserver" not in " ".join(p.parent().cmdline())]
            workers = [w for f in forkservers for w in f.children()]
            assert workers, "no worker found"
            for worker in workers:
                with open(f"/proc/{worker.pid}/environ", "rb") as block:
                    shown = block.read().decode("latin-1")
                assert leaks(shown) == [] and "PATH=" in shown, worker.pid
    finally:
        model.shutdown()
        model.server_close()
