"""The llm app: ask a language model to write or transform text.

The endpoint is any OpenAI-compatible server, configured by environment variables:
``OFFICESIM_LLM_BASE_URL`` (else ``OPENAI_BASE_URL``; with only an API key set, the OpenAI API),
``OFFICESIM_LLM_API_KEY`` (else ``OPENAI_API_KEY``), ``OFFICESIM_LLM_MODEL`` (default
``gpt-4o-mini``) and ``OFFICESIM_LLM_TIMEOUT`` (seconds, default 60). In a worker process the key and
the ``OPENAI_*`` fallbacks are not in the environment (server/workerenv.py keeps secrets out of it, so
no subprocess or sandbox inherits them): the worker hands them here (``keep_settings``).
"""

from __future__ import annotations

import os

import httpx

from officesim.apps.registry import App, OfficeContext, OpError, Result

app = App("llm", "Ask a language model to write, summarize or transform text.")

DEFAULT_MODEL = "gpt-4o-mini"
OPENAI_URL = "https://api.openai.com/v1"


_kept: dict[str, str] = {}  # settings kept out of a worker's environment (server/workerenv.py)


def keep_settings(values: dict[str, str]) -> None:
    """The llm settings a worker keeps out of its environment (its key), read as if they were in it."""
    _kept.clear()
    _kept.update(values)


def _setting(name: str) -> str | None:
    return os.environ.get(name) or _kept.get(name)


def endpoint() -> tuple[str, str | None, str, float]:
    """(base URL, API key, model, timeout) from the environment, or llm_unavailable."""
    key = _setting("OFFICESIM_LLM_API_KEY") or _setting("OPENAI_API_KEY") or None
    base = _setting("OFFICESIM_LLM_BASE_URL") or _setting("OPENAI_BASE_URL") or (OPENAI_URL if key else "")
    if not base:
        raise OpError("llm_unavailable", "no LLM endpoint is configured: set OFFICESIM_LLM_BASE_URL "
                      "(an OpenAI-compatible URL ending in /v1) and, if it needs one, OFFICESIM_LLM_API_KEY; "
                      "OPENAI_BASE_URL / OPENAI_API_KEY are used as fallbacks")
    model = os.environ.get("OFFICESIM_LLM_MODEL") or DEFAULT_MODEL
    try:
        timeout = float(os.environ.get("OFFICESIM_LLM_TIMEOUT") or 60)
    except ValueError:
        timeout = 60.0
    return base.rstrip("/"), key, model, timeout


def _ask(prompt: str) -> tuple[str, str]:
    """POST one chat completion; every failure becomes llm_unavailable with the reason."""
    base, key, model, timeout = endpoint()
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    payload = {"model": model, "messages": [{"role": "user", "content": prompt}]}
    try:
        resp = httpx.post(f"{base}/chat/completions", json=payload, headers=headers, timeout=timeout)
    except httpx.TimeoutException:
        raise OpError("llm_unavailable", f"the LLM endpoint {base} did not answer within {timeout:g} s") from None
    except httpx.HTTPError as exc:
        raise OpError("llm_unavailable", f"the LLM endpoint {base} could not be reached: {exc}") from None
    if resp.status_code >= 400:
        raise OpError("llm_unavailable", f"the LLM endpoint answered HTTP {resp.status_code}: {resp.text[:300]}")
    try:
        return resp.json()["choices"][0]["message"]["content"] or "", model
    except (ValueError, KeyError, IndexError, TypeError):
        raise OpError("llm_unavailable", f"the LLM endpoint gave an unexpected answer: {resp.text[:300]}") from None


@app.operation(time_limit=90)  # the endpoint may take OFFICESIM_LLM_TIMEOUT (60 s) to answer
def complete_text(ctx: OfficeContext, prompt: str) -> Result:
    """Send a prompt to a language model and return its answer.

    Args:
        prompt: the full instruction and text for the model.
    """
    if not prompt.strip():
        raise OpError("bad_arguments", "argument 'prompt': the prompt is empty")
    text, model = _ask(prompt)
    return Result(observation=text, data={"text": text, "model": model})
