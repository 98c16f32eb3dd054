"""One port, several server processes: each request goes to the process that owns its session.

Why: a server process does HTTP, JSON and its sessions' state machines under one interpreter lock, so
however many workers run its operations (server/pool.py) it cannot use much more than one core.
``officesim serve --processes N`` (default: one per usable core) runs N complete servers
(server/app.py, each with its sessions and its own worker pool) on private Unix sockets, and this
router on the public port.

Routing needs no table. Process ``i`` makes session ids that begin with ``i`` as two hex digits
(``session_id_prefix``, used by server/manager.py), so:

- ``/sessions/{id}`` and everything under it goes to the process the id names;
- ``POST /sessions`` goes round-robin; a process whose share of the session cap is full answers 429
  and the next one is tried, so the cap holds for the server as a whole;
- ``/mcp`` goes to process 0 (an MCP session and the officesim sessions it starts live there);
- anything else (``/health``, ``/tasks``, ``/apps``, ``/docs``) round-robin.

The router speaks HTTP/1.1 with httptools (the parser uvicorn uses). It reads a request's head and
body (up to ``MAX_BODY``), writes the request to its own keep-alive connection to the chosen process
(one per client connection and process, so responses come back in order), and passes the response's
bytes through unchanged as they arrive, file downloads and MCP event streams included, pausing the
process's side while the client is slow to read. It never looks into a body; a request costs it a
few tens of microseconds of CPU. Authentication stays with the server processes (the token is theirs).
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import re
import time
from pathlib import Path

import httptools

MAX_BODY = 64 << 20  # a request body the router buffers at most (the API's bodies are small JSON)
MAX_PIPELINED = 16  # requests read ahead of the one in flight before the router stops reading a client
BACKEND_IDLE_S = 20.0  # the router drops an idle connection to a process before the process would (30 s)
CLIENT_IDLE_S = 30.0  # ... and an idle client connection after this long, as a single server does
_SESSION = re.compile(rb"^/sessions/([0-9a-fA-F]{2})")


def session_id_prefix(index: int) -> str:
    """The first two characters of every session id process ``index`` makes."""
    if not 0 <= index < 256:
        raise ValueError("a server has at most 256 processes")
    return f"{index:02x}"


def _error(status: int, reason: str, code: str, message: str, close: bool = True) -> bytes:
    body = ('{"error":{"code":"%s","message":"%s"}}' % (code, message.replace('"', "'"))).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            f"{'connection: close' if close else 'connection: keep-alive'}\r\n\r\n")
    return head.encode() + body


class _Request:
    __slots__ = ("method", "url", "headers", "body", "keep_alive", "too_large", "tried")

    def __init__(self):
        self.method = b""
        self.url = b""
        self.headers: list[tuple[bytes, bytes]] = []
        self.body = bytearray()
        self.keep_alive = True
        self.too_large = False
        self.tried: set[int] = set()  # processes that answered a session creation with 429

    @property
    def creates_session(self) -> bool:
        return self.method == b"POST" and self.url.split(b"?", 1)[0].rstrip(b"/") == b"/sessions"

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
        self.in_flight: tuple[_Request, _Backend] | None = None
        self.backends: dict[int, _Backend] = {}
        self.connecting = False
        self.closing = False
        self.reading_paused = False
        self.last_active = time.monotonic()

    # -- asyncio ------------------------------------------------------------------------------
    def connection_made(self, transport) -> None:
        self.transport = transport
        self.router.clients.add(self)

    def data_received(self, data: bytes) -> None:
        self.last_active = time.monotonic()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            self._refuse(_error(400, "Bad Request", "bad_request", "protocol upgrades are not supported"))
        except httptools.HttpParserError:
            self._refuse(_error(400, "Bad Request", "bad_request", "malformed HTTP request"))

    def connection_lost(self, exc) -> None:
        self.closing = True
        self.router.clients.discard(self)
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

    def on_url(self, url: bytes) -> None:
        self.current.url += url

    def on_header(self, name: bytes, value: bytes) -> None:
        self.current.headers.append((name, value))

    def on_headers_complete(self) -> None:
        request = self.current
        request.method = self.parser.get_method()
        request.keep_alive = self.parser.should_keep_alive()
        idle = self.in_flight is None and not self.pending  # else an interim answer would cut into another
        for name, value in request.headers:
            if idle and name.lower() == b"expect" and value.lower() == b"100-continue":
                self.transport.write(b"HTTP/1.1 100 Continue\r\n\r\n")  # the body comes to the router

    def on_body(self, body: bytes) -> None:
        request = self.current
        if not request.too_large:
            if len(request.body) + len(body) > MAX_BODY:
                request.too_large = True
                request.body = bytearray()
            else:
                request.body += body

    def on_message_complete(self) -> None:
        self.pending.append(self.current)
        self.current = None
        if len(self.pending) > MAX_PIPELINED and not self.reading_paused:
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
        if self.reading_paused and len(self.pending) <= MAX_PIPELINED // 2:
            self.reading_paused = False
            self.transport.resume_reading()
        request = self.pending[0]
        if request.too_large:
            self.pending.popleft()
            self._refuse(_error(413, "Content Too Large", "too_large",
                                f"the request body is larger than the limit of {MAX_BODY >> 20} MB"))
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
                self.pending.popleft()
                self._answer(_error(502, "Bad Gateway", "server_unavailable",
                                    f"server process {index} is not answering; try again", close=False))
            return
        self.connecting = False
        if self.closing:
            backend.transport.close()
            return
        self.backends[index] = backend
        if self.pending:
            self._send(self.pending[0], backend)

    def response_done(self, backend: _Backend) -> None:
        request, _ = self.in_flight
        self.in_flight = None
        if not backend.keep_alive:
            self.backends.pop(backend.index, None)
        if not request.keep_alive:
            self.closing = True
            self.transport.close()
            return
        self.last_active = time.monotonic()
        if backend.full:  # that process's sessions are at its cap: ask the next one
            request.tried.add(backend.index)
            self.pending.appendleft(request)
        self._next()

    def backend_lost(self, backend: _Backend) -> None:
        if self.backends.get(backend.index) is backend:
            del self.backends[backend.index]
        if self.in_flight is None or self.in_flight[1] is not backend:
            return
        self.in_flight = None
        if backend.got_bytes:  # half an answer is on its way to the client: the connection cannot go on
            self.abort()
        else:
            self._answer(_error(502, "Bad Gateway", "server_unavailable",
                                f"server process {backend.index} closed the connection without an answer",
                                close=False))

    def _answer(self, data: bytes) -> None:
        if self.closing:
            return
        self.transport.write(data)
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


class Router:
    """Routes the HTTP requests of one public socket to the server processes behind ``sockets``."""

    def __init__(self, sockets: list[str | Path]):
        self.sockets = [str(s) for s in sockets]
        self.clients: set[_Client] = set()
        self._round = itertools.cycle(range(len(self.sockets)))

    def choose(self, request: _Request) -> int:
        """The process a request goes to (see the module's docstring)."""
        url = request.url
        match = _SESSION.match(url)
        if match:
            index = int(match.group(1), 16)
            return index if index < len(self.sockets) else 0  # an id no process made: 0 answers 404
        if url.startswith(b"/mcp"):
            return 0
        for _ in range(len(self.sockets)):
            index = next(self._round)
            if index not in request.tried:
                return index
        return 0

    def protocol(self) -> _Client:
        return _Client(self)

    def sweep(self) -> None:
        """Close idle client connections and idle connections to the processes."""
        now = time.monotonic()
        for client in list(self.clients):
            idle = client.in_flight is None and not client.pending and not client.connecting
            if idle and now - client.last_active > CLIENT_IDLE_S:
                client.abort()
                continue
            for index, backend in list(client.backends.items()):
                if not backend.answering and now - backend.idle_since > BACKEND_IDLE_S:
                    client.backends.pop(index, None)
                    backend.transport.close()

    async def serve(self, host: str, port: int, stop: asyncio.Event, ready=None) -> None:
        """Accept connections on ``host:port`` until ``stop`` is set."""
        server = await asyncio.get_running_loop().create_server(self.protocol, host, port, reuse_address=True)
        if ready is not None:
            ready()
        try:
            while not stop.is_set():
                try:
                    await asyncio.wait_for(stop.wait(), timeout=5.0)
                except asyncio.TimeoutError:
                    self.sweep()
        finally:
            server.close()
            for client in list(self.clients):
                client.abort()
