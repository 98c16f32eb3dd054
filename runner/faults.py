"""Telling an infrastructure fault from the agent's own failure, and naming the call it happened on.

An episode that ends by an exception ends either by an **infrastructure fault**, which says nothing of
the agent (the officesim server or the agent's model endpoint could not be reached, timed out, was lost,
refused for capacity or answered a server error), or by the **agent's own error** (its code raised).
The first is recorded with status ``error``, played again and counted apart; the second is the agent's
failure, as it always was. ``classify`` decides; ``failed_call`` says which request it was and where
in our code (or the agent's) it was made.

What counts as infrastructure, in the exception or the chain of its explicit causes (``raise ... from``):

- ``InfrastructureError`` (runner/episode.py), which an agent raises (or subclasses) to say so, as the
  openai agent does when its model endpoint cannot be reached (``ModelUnavailable``);
- any ``httpx.TransportError``: a timeout, a refused or broken connection, a protocol error, whether on
  the way to the officesim server or to the agent's model endpoint;
- an ``OfficeError`` with HTTP status 5xx or 429 (the server failed, is full or overloaded) or the code
  ``session_lost`` (the server process holding the session died);
- the openai SDK's connection, timeout, rate-limit and server errors (matched by name, the SDK is not
  imported).

Anything else an agent raises is the agent's error.
"""

from __future__ import annotations

import sysconfig
import traceback
from pathlib import Path
from types import TracebackType
from typing import Iterator

import httpx

from officesim.evaluators.record import ErrorKind, FailedCall
from officesim.runner.episode import InfrastructureError
from officesim.server.client import OfficeError

INFRASTRUCTURE: ErrorKind = "infrastructure"
GRADING: ErrorKind = "grading"
AGENT: ErrorKind = "agent"

INFRA_CODES = frozenset({"session_lost", "too_many_sessions", "too_many_connections", "busy"})
# the openai SDK's errors of reaching the endpoint (not of the request the agent built)
_OPENAI_FAULTS = frozenset({"APIConnectionError", "APITimeoutError", "RateLimitError", "InternalServerError"})
TRACEBACK_CHARS = 32_000  # a longer traceback keeps its beginning and its end

_PACKAGE_DIR = Path(__file__).resolve().parent.parent  # officesim's root
# frames that only carry a call: the HTTP client's, the Episode's act/finish, the standard library's
_PLUMBING = (str(_PACKAGE_DIR / "server" / "client.py"), str(_PACKAGE_DIR / "runner" / "episode.py"))
_LIBRARY_DIRS = tuple({sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib")})
_LIBRARY_PACKAGES = ("httpx", "httpcore", "h11", "h2", "anyio", "sniffio", "certifi", "openai")


def causes(exc: BaseException) -> Iterator[BaseException]:
    """The exception and its explicit causes (``raise ... from``), outermost first; no cycles."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__


def is_infrastructure(exc: BaseException) -> bool:
    """Whether an exception is an infrastructure fault (module docstring), not the agent's error."""
    for one in causes(exc):
        if isinstance(one, InfrastructureError):
            return True
        if isinstance(one, httpx.TransportError):
            return True
        if isinstance(one, OfficeError) and (one.status >= 500 or one.status == 429 or one.code in INFRA_CODES):
            return True
        if type(one).__module__.split(".")[0] == "openai" and type(one).__name__ in _OPENAI_FAULTS:
            return True
    return False


def classify(exc: BaseException) -> ErrorKind:
    return INFRASTRUCTURE if is_infrastructure(exc) else AGENT


def _library(filename: str) -> bool:
    path = str(Path(filename).resolve()) if filename and not filename.startswith("<") else filename
    if path.startswith(_PLUMBING):
        return True
    if any(f"{sep}{name}{sep}" in path for name in _LIBRARY_PACKAGES for sep in ("/", "\\")):
        return True
    return any(path.startswith(d) for d in _LIBRARY_DIRS) and "site-packages" not in path


def _shown(filename: str) -> str:
    """A file as a record names it: relative to officesim's root (``runner/play.py``) when inside it,
    else as given."""
    try:
        return Path(filename).resolve().relative_to(_PACKAGE_DIR).as_posix()
    except ValueError:
        return filename


def call_site(tb: TracebackType | None) -> str | None:
    """The innermost frame of a traceback outside the plumbing (httpx and any transport plugged into it,
    the standard library, the client, the Episode's wrappers): the code that made the failing call, as
    ``file:line in function``."""
    frames = list(traceback.walk_tb(tb)) if tb is not None else []
    for frame, lineno in reversed(frames):
        code = frame.f_code
        if _library(code.co_filename) or isinstance(frame.f_locals.get("self"), httpx.BaseTransport):
            continue
        return f"{_shown(code.co_filename)}:{lineno} in {code.co_name}"
    return None


def _request_of(exc: BaseException) -> httpx.Request | None:
    try:
        return exc.request  # type: ignore[attr-defined]  # httpx's RequestError; raises when unset
    except (AttributeError, RuntimeError):
        return None


def failed_call(exc: BaseException, phase: str) -> FailedCall:
    """Which call an exception ended an episode on: the request of the first exception of the chain that
    names one (httpx's ``request``, an ``OfficeError``'s or ``ModelUnavailable``'s method and path), the
    read timeout in force, the outermost exception's type and message, and the call site."""
    method = path = host = None
    timeout = None
    for one in causes(exc):
        request = _request_of(one)
        if request is not None:
            method, path, host = request.method, request.url.path, request.url.netloc.decode(errors="replace")
            read = (request.extensions.get("timeout") or {}).get("read")
            timeout = float(read) if isinstance(read, (int, float)) else None
            break
        if getattr(one, "method", None) and getattr(one, "path", None):
            method, path = str(one.method), str(one.path)
            host = getattr(one, "host", None)
            break
    # the call site is where the failing call was made: the innermost traceback that reaches our code
    site = None
    for one in causes(exc):
        site = call_site(one.__traceback__) or site
    return FailedCall(phase=phase, method=method, path=path, host=host, exception=type(exc).__name__,
                      message=str(exc)[:1000], timeout_s=timeout, site=site)


def describe(exc: BaseException, call: FailedCall | None = None) -> str:
    """``Type: message`` and, when known, the request it happened on: ``[POST /sessions/x/finish, 120 s]``."""
    text = f"{type(exc).__name__}: {exc}".rstrip(": ")
    if call is not None and call.method:
        timeout = f", timeout {call.timeout_s:g} s" if call.timeout_s and isinstance(exc, httpx.TimeoutException) else ""
        text += f" [{call.method} {call.path}{timeout}]"
    return text


def full_traceback(exc: BaseException) -> str:
    """The whole traceback with its causes (not its innermost frames only); a very long one keeps its
    beginning and end."""
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    if len(text) > TRACEBACK_CHARS:
        half = TRACEBACK_CHARS // 2
        text = f"{text[:half]}\n... ({len(text) - TRACEBACK_CHARS} characters left out) ...\n{text[-half:]}"
    return text


__all__ = ["AGENT", "GRADING", "INFRASTRUCTURE", "InfrastructureError", "call_site", "causes", "classify",
           "describe", "failed_call", "full_traceback", "is_infrastructure"]
