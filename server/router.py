"""One port, several server processes: each request goes to the process that owns its session.

Why: a server process does HTTP, JSON and its sessions' state machines under one interpreter lock, so
however many workers run its operations (server/pool.py) it cannot use much more than one core.
``officesim serve --processes N`` (default: one per usable core) runs N complete servers
(server/app.py, each with its sessions and its own worker pool) on private Unix sockets, and this
router on the public port.

Routing needs no table. Process ``i`` makes session ids that begin with ``i`` as two hex digits
(``session_id_prefix``, used by server/manager.py), so:

- ``/sessions/{id}`` and everything under it goes to the process the id names (the path as the
  process will see it: percent-decoded, the path of an absolute-form target; ``route_path``);
- ``POST /sessions`` goes round-robin; a process whose share of the session cap is full answers 429
  and the next one is tried, so the cap holds for the server as a whole; a process that cannot be
  reached (it died and is being started again) is passed over, so creations go to live processes;
- ``/mcp`` goes to process 0 (an MCP session and the officesim sessions it starts live there);
- anything else (``/health``, ``/tasks``, ``/apps``, ``/docs``) round-robin;
- ``/health/processes`` the router answers itself: 200 once every process answers, else 503 with
  the processes still starting (``/health`` answers as soon as process 0 does, so that a client can
  begin; a harness that wants the whole capacity waits for this one).

A request for a session of a process that cannot be reached is answered ``session_lost``: its
sessions died with it (runner/serving.py removes their offices and starts it again).

The router speaks HTTP/1.1 with httptools (the parser uvicorn uses). It reads a request's head and
body, writes the request to its own keep-alive connection to the chosen process (one per client
connection and process, so responses come back in order), and passes the response's bytes through
unchanged as they arrive, file downloads and MCP event streams included, pausing the process's side
while the client is slow to read. It never looks into a body; a request costs it a few tens of
microseconds of CPU.

No client can hold it: the URL (``MAX_URL``, 414), the head (``MAX_HEAD``, 431, counted as bytes
arrive, so an endless head is cut off), the body (``MAX_BODY``, 413 from Content-Length before the
body is read, or as a chunked one grows), the bodies buffered over all connections
(``MAX_BUFFERED``, 503), the connections (``max_connections``, 503), the time a head may take to
arrive (``HEAD_TIMEOUT_S``, 408; a new connection's first request must begin within it too) and a
body after it (``BODY_TIMEOUT_S``), and an idle connection (``CLIENT_IDLE_S``) are bounded; at the
connection cap the connection idle the longest is closed for a new one. A refused request is answered
and its connection closed. With a token
the router checks it from the head (401) before reading any body; the processes check it too.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import hmac
import json
import re
import time
from pathlib import Path
from urllib.parse import unquote_to_bytes

import httptools

# Limits (docs/security.md lists them). Every one answers the client with its status and closes the
# connection: what follows on it cannot be trusted.
MAX_URL = 8 << 10  # request target, bytes (414)
MAX_HEAD = 16 << 10  # request line and headers together, bytes (431)
MAX_BODY = 64 << 20  # a request body the router buffers, checked from Content-Length before it is read (413)
MAX_BUFFERED = 256 << 20  # request bodies buffered over all connections together (503 past it)
MAX_CONNECTIONS = 1000  # client connections at once (503 past it); fits the default 1,024 descriptors
HEAD_TIMEOUT_S = 10.0  # a request's line and headers must arrive within this (408): no slowloris
BODY_TIMEOUT_S = 60.0  # ... and its body within this after its headers (408)
MAX_PIPELINED = 16  # requests read ahead of the one in flight before the router stops reading a client
BACKEND_IDLE_S = 20.0  # the router drops an idle connection to a process before the process would (30 s)
CLIENT_IDLE_S = 30.0  # ... and an idle client connection after this long, as a single server does
SWEEP_S = 1.0  # how often the timeouts above are looked at
DOWN_S = 2.0  # a process that could not be reached is passed over this long by requests that may go anywhere
_SESSION = re.compile(rb"^/sessions/([0-9a-fA-F]{2})")
PROCESSES_PATH = b"/health/processes"


def session_id_prefix(index: int) -> str:
    """The first two characters of every session id process ``index`` makes."""
    if not 0 <= index < 256:
        raise ValueError("a server has at most 256 processes")
    return f"{index:02x}"


def route_path(url: bytes) -> bytes:
    """The path a server process will see for ``url``, as uvicorn makes it: the path of an origin- or
    absolute-form target, percent-decoded. Routing goes by this, so an encoded or absolute-form URL of a
    session reaches the process that owns it."""
    try:
        path = httptools.parse_url(url).path or b"/"
    except httptools.HttpParserInvalidURLError:
        path = url.split(b"?", 1)[0]
    return unquote_to_bytes(path)


class _Refused(Exception):
    """A limit was passed while parsing: the answer to send before closing."""

    def __init__(self, answer: bytes):
        super().__init__("refused")
        self.answer = answer


def _error(status: int, reason: str, code: str, message: str, close: bool = True) -> bytes:
    body = ('{"error":{"code":"%s","message":"%s"}}' % (code, message.replace('"', "'"))).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            f"{'connection: close' if close else 'connection: keep-alive'}\r\n\r\n")
    return head.encode() + body


class _Request:
    __slots__ = ("method", "url", "path", "headers", "head_size", "body", "keep_alive", "tried", "started",
                 "head_done", "buffered")

    def __init__(self):
        self.method = b""
        self.url = bytearray()  # grown in place: a long URL costs linear time (and stops at MAX_URL)
        self.path = b""  # route_path(url), once the head is read
        self.headers: list[tuple[bytes, bytes]] = []
        self.head_size = 0  # bytes of its headers as parsed
        self.body = bytearray()
        self.keep_alive = True
        self.tried: set[int] = set()  # processes that answered a session creation with 429
        self.started = time.monotonic()  # its first byte came (HEAD_TIMEOUT_S runs from here)
        self.head_done = 0.0  # when its headers were complete (BODY_TIMEOUT_S runs from here)
        self.buffered = 0  # bytes of its body counted in the router's MAX_BUFFERED

    @property
    def creates_session(self) -> bool:
        return self.method == b"POST" and self.path.rstrip(b"/") == b"/sessions"

    def encode(self) -> bytes:
        """The request as the router sends it on: same method, path and headers, the body with its length."""
        lines = [b"%s %s HTTP/1.1\r\n" % (self.method, self.url)]
        for name, value in self.headers:
            low = name.lower()
            if low in (b"content-length", b"transfer-encoding", b"connection", b"expect", b"keep-alive"):
                continue
            lines.append(b"%s: %s\r\n" % (name, value))
        lines.append(b"content-length: %d\r\n\r\n" % len(self.body))
        return b"".join(lines) + bytes(self.body)


class _Backend(asyncio.Protocol):
    """One keep-alive connection to a server process, owned by one client connection."""

    def __init__(self, client: "_Client", index: int):
        self.client = client
        self.index = index
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.answering = False  # a request was sent and its response is not complete yet
        self.got_bytes = False  # some of that response has been passed on
        self.head_only = False  # the request was HEAD: the response ends with its head
        self.holding: bytearray | None = None  # a creation's answer, held until its status is known
        self.full = False  # ... and it was 429: another process is tried and this answer dropped
        self.keep_alive = True
        self.idle_since = time.monotonic()

    # -- asyncio ------------------------------------------------------------------------------
    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        if not self.answering:  # nothing was asked: a process never speaks first
            self.transport.close()
            return
        if self.holding is not None:
            self.holding += data
        else:
            self.got_bytes = True
            self.client.write(data)
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError:
            self.transport.close()
            self.client.abort()

    def connection_lost(self, exc) -> None:
        self.client.backend_lost(self)

    # -- httptools ----------------------------------------------------------------------------
    def on_headers_complete(self) -> None:
        self.keep_alive = self.parser.should_keep_alive()
        if self.holding is not None:
            if self.parser.get_status_code() == 429:
                self.full = True
            else:
                held, self.holding = bytes(self.holding), None
                self.got_bytes = True
                self.client.write(held)
        if self.head_only:
            self._complete()

    def on_message_complete(self) -> None:
        if not self.head_only:
            self._complete()

    # -- requests -----------------------------------------------------------------------------
    def send(self, request: _Request, hold: bool) -> None:
        self.answering, self.got_bytes, self.keep_alive, self.full = True, False, True, False
        self.head_only = request.method == b"HEAD"
        self.holding = bytearray() if hold else None
        self.transport.write(request.encode())

    def _complete(self) -> None:
        self.answering = False
        self.idle_since = time.monotonic()
        if self.head_only:
            self.parser = httptools.HttpResponseParser(self)
        if not self.keep_alive:
            self.transport.close()
        self.client.response_done(self)


class _Client(asyncio.Protocol):
    """One client connection: parse its requests, forward each in turn, pass the answers back."""

    def __init__(self, router: "Router"):
        self.router = router
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpRequestParser(self)
        self.pending: collections.deque[_Request] = collections.deque()
        self.current: _Request | None = None  # the request being parsed
        self.head_bytes = 0  # bytes received while the current request's head is incomplete
        self.in_flight: tuple[_Request, _Backend] | None = None
        self.backends: dict[int, _Backend] = {}
        self.connecting = False
        self.closing = False
        self.read_done = False  # a request asked to close: nothing after it is read
        self.reading_paused = False
        self.last_active = time.monotonic()  # a request began or an answer ended (not any byte: no slowloris)
        self.requests = 0  # requests begun on this connection

    # -- asyncio ------------------------------------------------------------------------------
    def connection_made(self, transport) -> None:
        self.transport = transport
        if len(self.router.clients) >= self.router.max_connections and not self.router.evict_idle():
            self._refuse(_error(503, "Service Unavailable", "too_many_connections",
                                f"the server has {self.router.max_connections} connections open, its limit, none of "
                                "them idle; try again"))
            return
        self.router.clients.add(self)

    def data_received(self, data: bytes) -> None:
        if self.closing or self.read_done:
            return
        if self.current is None or not self.current.head_done:
            self.head_bytes += len(data)
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            self._refuse(_error(400, "Bad Request", "bad_request", "protocol upgrades are not supported"))
        except httptools.HttpParserError as exc:
            refused = exc.__context__
            if isinstance(refused, _Refused):
                self._refuse(refused.answer)
            elif not self.read_done:  # bytes after a request that closes the connection are ignored
                self._refuse(_error(400, "Bad Request", "bad_request", "malformed HTTP request"))
            return
        if self.current is not None and not self.current.head_done and self.head_bytes > MAX_HEAD:
            self._refuse(_head_too_large())

    def connection_lost(self, exc) -> None:
        self.closing = True
        self.router.clients.discard(self)
        for request in [self.current, *self.pending, *(self.in_flight[:1] if self.in_flight else ())]:
            if request is not None:
                self.router.unbuffer(request)
        for backend in list(self.backends.values()):
            if backend.transport is not None:
                backend.transport.close()
        self.backends.clear()

    def pause_writing(self) -> None:  # the client reads slower than a process answers
        for backend in self.backends.values():
            if backend.transport is not None:
                backend.transport.pause_reading()

    def resume_writing(self) -> None:
        for backend in self.backends.values():
            if backend.transport is not None and not backend.transport.is_closing():
                backend.transport.resume_reading()

    # -- httptools ----------------------------------------------------------------------------
    def on_message_begin(self) -> None:
        self.current = _Request()
        self.requests += 1
        self.last_active = self.current.started

    def on_url(self, url: bytes) -> None:
        request = self.current
        if len(request.url) + len(url) > MAX_URL:
            raise _Refused(_error(414, "URI Too Long", "uri_too_long",
                                  f"the request target is longer than the limit of {MAX_URL:,} bytes"))
        request.url += url

    def on_header(self, name: bytes, value: bytes) -> None:
        request = self.current
        request.head_size += len(name) + len(value) + 4
        if len(request.url) + request.head_size > MAX_HEAD:
            raise _Refused(_head_too_large())
        request.headers.append((name, value))

    def on_headers_complete(self) -> None:
        request = self.current
        request.head_done = time.monotonic()
        self.head_bytes = 0
        request.method = self.parser.get_method()
        request.keep_alive = self.parser.should_keep_alive()
        request.url = bytes(request.url)
        request.path = route_path(request.url)
        length, auth, expect = None, b"", False
        for name, value in request.headers:
            low = name.lower()
            if low == b"content-length":
                length = value
            elif low == b"authorization":
                auth = value
            elif low == b"expect" and value.lower() == b"100-continue":
                expect = True
        if self.router.expected_auth is not None and request.path not in (b"/health", PROCESSES_PATH) \
                and not hmac.compare_digest(auth, self.router.expected_auth):
            raise _Refused(_error(401, "Unauthorized", "unauthorized",
                                  "missing or wrong token: send 'Authorization: Bearer <token>'"))
        if length is not None and length.strip().isdigit() and int(length) > MAX_BODY:
            raise _Refused(_body_too_large())
        idle = self.in_flight is None and not self.pending  # else an interim answer would cut into another
        if idle and expect:
            self.transport.write(b"HTTP/1.1 100 Continue\r\n\r\n")  # the body comes to the router

    def on_body(self, body: bytes) -> None:
        request = self.current
        if len(request.body) + len(body) > MAX_BODY:  # a chunked body: counted as it comes
            raise _Refused(_body_too_large())
        if not self.router.buffer(request, len(body)):
            raise _Refused(_error(503, "Service Unavailable", "busy",
                                  "the server is receiving too many request bodies at once; try again"))
        request.body += body

    def on_message_complete(self) -> None:
        request, self.current = self.current, None
        self.head_bytes = 0
        self.pending.append(request)
        if not request.keep_alive:  # the last request of this connection (RFC 9112 9.6)
            self.read_done = True
            self.transport.pause_reading()
        elif len(self.pending) > MAX_PIPELINED and not self.reading_paused:
            self.reading_paused = True
            self.transport.pause_reading()
        self._next()

    # -- forwarding ---------------------------------------------------------------------------
    def write(self, data: bytes) -> None:
        if not self.closing:
            self.transport.write(data)

    def _next(self) -> None:
        """Send the next read request on, unless one is answering or a connection is being made."""
        if self.in_flight is not None or self.connecting or self.closing or not self.pending:
            return
        if self.reading_paused and not self.read_done and len(self.pending) <= MAX_PIPELINED // 2:
            self.reading_paused = False
            self.transport.resume_reading()
        request = self.pending[0]
        if request.path == PROCESSES_PATH:  # the router's own answer: which processes are starting
            self.pending.popleft()
            self.router.unbuffer(request)
            self._answer(self.router.processes_answer(request.keep_alive), request)
            return
        index = self.router.choose(request)
        backend = self.backends.get(index)
        if backend is None or backend.transport is None or backend.transport.is_closing():
            self.connecting = True
            asyncio.get_running_loop().create_task(self._connect_and_send(index))
            return
        self._send(request, backend)

    def _send(self, request: _Request, backend: _Backend) -> None:
        self.pending.popleft()
        self.in_flight = (request, backend)
        # a creation may be refused by a process whose share of the cap is full: others are tried first
        hold = request.creates_session and len(request.tried) + 1 < len(self.router.sockets)
        backend.send(request, hold)

    async def _connect_and_send(self, index: int) -> None:
        try:
            _transport, backend = await asyncio.get_running_loop().create_unix_connection(
                lambda: _Backend(self, index), self.router.sockets[index])
        except OSError:
            self.connecting = False
            if not self.closing and self.pending:
                self._unreachable(self.pending.popleft(), index)
            return
        self.connecting = False
        if self.closing:
            backend.transport.close()
            return
        self.backends[index] = backend
        if self.pending:
            self._send(self.pending[0], backend)

    def _unreachable(self, request: _Request, index: int, after_sending: bool = False) -> None:
        """Process ``index`` did not answer ``request`` (it is down or restarting). A request that may go
        to any process moves on to the next (a creation even when it was sent: the process that took it
        is gone); a session's request is answered ``session_lost``, since its sessions died with it."""
        self.router.mark_down(index)
        request.tried.add(index)
        session = _SESSION.match(request.path) is not None
        roams = not session and not request.path.startswith(b"/mcp")
        again = not after_sending or request.creates_session or request.method in (b"GET", b"HEAD")
        if roams and again and len(request.tried) < len(self.router.sockets):
            self.pending.appendleft(request)
            self._next()
            return
        self.router.unbuffer(request)
        if session and not after_sending:
            answer = _error(404, "Not Found", "session_lost", f"server process {index}, which held this session, "
                            "stopped; its sessions are lost and their offices removed: start a new session",
                            close=not request.keep_alive)
        elif session:
            answer = _error(502, "Bad Gateway", "session_lost", f"server process {index}, which held this session, "
                            "stopped while it answered; its sessions are lost: start a new session",
                            close=not request.keep_alive)
        else:
            answer = _error(502, "Bad Gateway", "server_unavailable",
                            f"server process {index} is not answering; try again", close=not request.keep_alive)
        self._answer(answer, request)

    def response_done(self, backend: _Backend) -> None:
        request, _ = self.in_flight
        self.in_flight = None
        if not backend.keep_alive:
            self.backends.pop(backend.index, None)
        self.router.mark_up(backend.index)
        self.last_active = time.monotonic()
        if backend.full:  # that process's sessions are at its cap: ask the next one
            request.tried.add(backend.index)
            self.pending.appendleft(request)
            self._next()
            return
        self.router.unbuffer(request)
        if not request.keep_alive:
            self.closing = True
            self.transport.close()
            return
        self._next()

    def backend_lost(self, backend: _Backend) -> None:
        if self.backends.get(backend.index) is backend:
            del self.backends[backend.index]
        if self.in_flight is None or self.in_flight[1] is not backend:
            return
        request, _ = self.in_flight
        self.in_flight = None
        if backend.got_bytes:  # half an answer is on its way to the client: the connection cannot go on
            self.router.unbuffer(request)
            self.abort()
        else:
            self._unreachable(request, backend.index, after_sending=True)

    def _answer(self, data: bytes, request: _Request | None = None) -> None:
        if self.closing:
            return
        self.transport.write(data)
        if request is not None and not request.keep_alive:
            self.closing = True
            self.transport.close()
            return
        self._next()

    def _refuse(self, data: bytes) -> None:
        """Answer an error and close the connection (what follows on it cannot be trusted)."""
        if not self.closing:
            self.closing = True
            self.transport.write(data)
            self.transport.close()

    def abort(self) -> None:
        self.closing = True
        if self.transport is not None:
            self.transport.close()

    def timed_out(self, now: float) -> bytes | None:
        """The 408 to close this connection with when its current request is too slow to arrive."""
        request = self.current
        if request is None:  # a new connection must begin its first request as soon as a head must arrive
            if not self.requests and not self.closing and now - self.last_active > HEAD_TIMEOUT_S:
                return _error(408, "Request Timeout", "request_timeout",
                              f"no request came within {HEAD_TIMEOUT_S:g} s of connecting")
            return None
        if not request.head_done and now - request.started > HEAD_TIMEOUT_S:
            return _error(408, "Request Timeout", "request_timeout",
                          f"the request's headers did not arrive within {HEAD_TIMEOUT_S:g} s")
        if request.head_done and now - request.head_done > BODY_TIMEOUT_S:
            return _error(408, "Request Timeout", "request_timeout",
                          f"the request's body did not arrive within {BODY_TIMEOUT_S:g} s")
        return None


def _head_too_large() -> bytes:
    return _error(431, "Request Header Fields Too Large", "headers_too_large",
                  f"the request's line and headers are larger than the limit of {MAX_HEAD:,} bytes")


def _body_too_large() -> bytes:
    return _error(413, "Content Too Large", "too_large",
                  f"the request body is larger than the limit of {MAX_BODY >> 20} MB")


class Router:
    """Routes the HTTP requests of one public socket to the server processes behind ``sockets``.

    ``token``: the servers' token; with one, a request without it is answered 401 here, from its head,
    before any of its body is read. ``max_connections``: client connections at once (env
    ``OFFICESIM_MAX_CONNECTIONS`` in ``officesim serve``)."""

    def __init__(self, sockets: list[str | Path], token: str | None = None, max_connections: int = MAX_CONNECTIONS):
        self.sockets = [str(s) for s in sockets]
        self.max_connections = max_connections
        self.clients: set[_Client] = set()
        self.expected_auth = f"Bearer {token}".encode() if token else None
        self.buffered = 0  # bytes of request bodies held, over all connections
        self.down: dict[int, float] = {}  # process -> when it last failed to answer (skipped for a while)
        self._round = itertools.cycle(range(len(self.sockets)))

    def choose(self, request: _Request) -> int:
        """The process a request goes to (see the module's docstring)."""
        match = _SESSION.match(request.path)
        if match:
            index = int(match.group(1), 16)
            return index if index < len(self.sockets) else 0  # an id no process made: 0 answers 404
        if request.path.startswith(b"/mcp"):
            return 0
        now = time.monotonic()
        fallback = None
        for _ in range(len(self.sockets)):
            index = next(self._round)
            if index in request.tried:
                continue
            if now - self.down.get(index, -DOWN_S) < DOWN_S:  # failed a moment ago: others first
                fallback = index if fallback is None else fallback
                continue
            return index
        return fallback if fallback is not None else 0

    def evict_idle(self) -> bool:
        """At the connection cap: close the connection idle the longest (between two requests, nothing
        on its way), so that held keep-alive connections never lock new clients out; False when none is."""
        idle = [c for c in self.clients
                if c.current is None and c.in_flight is None and not c.pending and not c.connecting and not c.closing]
        if not idle:
            return False
        oldest = min(idle, key=lambda c: c.last_active)
        oldest.abort()
        self.clients.discard(oldest)
        return True

    def mark_down(self, index: int) -> None:
        self.down[index] = time.monotonic()

    def mark_starting(self, index: int) -> None:
        """Pass process ``index`` over until ``mark_up``: it is starting (a request goes to it only
        when no other process is there)."""
        self.down[index] = float("inf")

    def starting(self) -> list[int]:
        """The processes marked starting (``mark_starting``) and not yet up."""
        return sorted(i for i, since in self.down.items() if since == float("inf"))

    def processes_answer(self, keep_alive: bool) -> bytes:
        """``/health/processes``: 200 when every process is up, else 503 naming those starting."""
        starting = self.starting()
        body = json.dumps({"status": "starting" if starting else "ok", "processes": len(self.sockets),
                           "starting": starting}).encode()
        status = "503 Service Unavailable" if starting else "200 OK"
        head = (f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
                f"{'connection: keep-alive' if keep_alive else 'connection: close'}\r\n\r\n")
        return head.encode() + body

    def mark_up(self, index: int) -> None:
        if self.down:
            self.down.pop(index, None)

    def buffer(self, request: _Request, size: int) -> bool:
        """Count ``size`` more bytes of ``request``'s body; False past MAX_BUFFERED."""
        if self.buffered + size > MAX_BUFFERED:
            return False
        self.buffered += size
        request.buffered += size
        return True

    def unbuffer(self, request: _Request) -> None:
        self.buffered -= request.buffered
        request.buffered = 0

    def protocol(self) -> _Client:
        return _Client(self)

    def sweep(self) -> None:
        """Close connections whose request is too slow to arrive (408), idle client connections, and
        idle connections to the processes."""
        now = time.monotonic()
        for client in list(self.clients):
            late = client.timed_out(now)
            if late is not None:
                client._refuse(late)
                continue
            idle = client.current is None and client.in_flight is None and not client.pending and not client.connecting
            if idle and now - client.last_active > CLIENT_IDLE_S:
                client.abort()
                continue
            for index, backend in list(client.backends.items()):
                if not backend.answering and now - backend.idle_since > BACKEND_IDLE_S:
                    client.backends.pop(index, None)
                    backend.transport.close()

    async def serve(self, host: str, port: int, stop: asyncio.Event, ready=None) -> None:
        """Accept connections on ``host:port`` until ``stop`` is set."""
        server = await asyncio.get_running_loop().create_server(self.protocol, host, port, reuse_address=True,
                                                                backlog=1024)
        if ready is not None:
            ready()
        try:
            while not stop.is_set():
                try:
                    await asyncio.wait_for(stop.wait(), timeout=SWEEP_S)
                except asyncio.TimeoutError:
                    self.sweep()
        finally:
            server.close()
            for client in list(self.clients):
                client.abort()
