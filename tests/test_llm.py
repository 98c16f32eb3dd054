"""LLM app against a real local HTTP server speaking the chat-completions protocol."""

from __future__ import annotations

import threading
import time
from http.server import ThreadingHTTPServer

import pytest

from tests._json_http import JsonHandler

ENV = ("OFFICESIM_LLM_BASE_URL", "OFFICESIM_LLM_MODEL", "OFFICESIM_LLM_API_KEY", "OFFICESIM_LLM_TIMEOUT",
       "OPENAI_BASE_URL", "OPENAI_API_KEY")


class _Handler(JsonHandler):
    """Answers with the prompt upper-cased; /fail/ answers 500; /slow/ waits."""

    seen: list = []

    def do_POST(self):
        body = self.read_json()
        _Handler.seen.append((self.path, self.headers.get("Authorization"), body))
        if self.path.startswith("/slow/"):
            time.sleep(2)
        if self.path.startswith("/fail/"):
            self._send(500, {"error": "model overloaded"})
            return
        text = body["messages"][-1]["content"].upper()
        self._send(200, {"choices": [{"message": {"role": "assistant", "content": text}}]})



@pytest.fixture
def server():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    _Handler.seen.clear()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for name in ENV:
        monkeypatch.delenv(name, raising=False)


def test_complete_text(run, server, monkeypatch):
    monkeypatch.setenv("OFFICESIM_LLM_BASE_URL", server + "/v1")
    monkeypatch.setenv("OFFICESIM_LLM_API_KEY", "k-123")
    monkeypatch.setenv("OFFICESIM_LLM_MODEL", "tiny")
    r = run("llm", "complete_text", prompt="summarize this")
    assert r.ok, r.observation
    assert r.observation == "SUMMARIZE THIS" and r.data["model"] == "tiny"
    path, auth, body = _Handler.seen[0]
    assert path == "/v1/chat/completions" and auth == "Bearer k-123"
    assert body["model"] == "tiny" and body["messages"] == [{"role": "user", "content": "summarize this"}]


def test_openai_fallback_variables(run, server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", server + "/v1/")
    r = run("llm", "complete_text", prompt="hi")
    assert r.ok and r.observation == "HI"
    assert _Handler.seen[0][1] is None and _Handler.seen[0][2]["model"] == "gpt-4o-mini"


def test_not_configured(run):
    r = run("llm", "complete_text", prompt="hi")
    assert not r.ok and r.error["code"] == "llm_unavailable"
    assert "OFFICESIM_LLM_BASE_URL" in r.observation


def test_http_error(run, server, monkeypatch):
    monkeypatch.setenv("OFFICESIM_LLM_BASE_URL", server + "/fail")
    r = run("llm", "complete_text", prompt="hi")
    assert not r.ok and r.error["code"] == "llm_unavailable" and "500" in r.observation


def test_timeout(run, server, monkeypatch):
    monkeypatch.setenv("OFFICESIM_LLM_BASE_URL", server + "/slow")
    monkeypatch.setenv("OFFICESIM_LLM_TIMEOUT", "0.3")
    r = run("llm", "complete_text", prompt="hi")
    assert not r.ok and r.error["code"] == "llm_unavailable" and "did not answer" in r.observation


def test_unreachable(run, monkeypatch):
    monkeypatch.setenv("OFFICESIM_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    r = run("llm", "complete_text", prompt="hi")
    assert not r.ok and r.error["code"] == "llm_unavailable"
