"""The router's limits, over raw sockets (server/router.py): URL length (414), head size (431), body size
from Content-Length before the body is read (413), the token checked from the head (401), a cap on
connections (503), a header-read timeout (408: no slowloris); session URLs are routed after
normalising them (percent-encoding, absolute form); a request that closes the connection is answered
even when more bytes follow it."""

from __future__ import annotations

import socket
import time

import pytest

from officesim.runner.localserver import LocalServer
from officesim.server.client import OfficeClient
from officesim.server.router import HEAD_TIMEOUT_S, MAX_BODY, MAX_HEAD, MAX_URL
from tests._eval_tasks import TASK_IDS, write_tasks

CONNECTIONS = 12  # the cap the server under test is started with (OFFICESIM_MAX_CONNECTIONS)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tasks = write_tasks(tmp_path_factory.mktemp("tasks"))
    with LocalServer([tasks], include_suite=False, processes=2,
                     env={"OFFICESIM_MAX_CONNECTIONS": str(CONNECTIONS)}) as srv:
        yield srv


def connect(server) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    return sock


def read_all(sock: socket.socket) -> bytes:
    """Everything the router sends until it closes the connection."""
    out = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        out += chunk
    return out


def read_response(sock: socket.socket) -> bytes:
    """One whole response (head and Content-Length body) of a connection that stays open."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, "the connection closed before a response"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def send_quietly(sock: socket.socket, data: bytes) -> bool:
    """Send what the router still reads; False once it has closed the connection."""
    try:
        sock.sendall(data)
        return True
    except (BrokenPipeError, ConnectionResetError):
        return False


def auth(server) -> bytes:
    return f"Authorization: Bearer {server.token}\r\n".encode()


def status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def test_a_long_url_is_refused_414_without_being_read_whole(server):
    with connect(server) as sock:
        sock.sendall(b"GET /tasks?q=")
        sent = 0
        while sent < 64 << 20 and send_quietly(sock, b"a" * 65536):  # the router closes long before 64 MB
            sent += 65536
        answer = read_all(sock)
    assert status(answer) == 414 and b"uri_too_long" in answer
    assert sent < 64 << 20


def test_a_url_just_under_the_limit_is_served(server):
    with connect(server) as sock:
        target = b"/tasks?q=" + b"a" * (MAX_URL - 200)
        sock.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: x\r\n" + auth(server) + b"Connection: close\r\n\r\n")
        assert status(read_all(sock)) == 200


def test_large_headers_are_refused_431(server):
    with connect(server) as sock:  # in one piece
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * (MAX_HEAD + 10) + b"\r\n\r\n")
        answer = read_all(sock)
    assert status(answer) == 431 and b"headers_too_large" in answer
    with connect(server) as sock:  # many small headers, never ending
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        for i in range(100_000):
            if not send_quietly(sock, b"X-H%d: v\r\n" % i * 100):
                break
        answer = read_all(sock)
    assert status(answer) == 431


def test_an_oversize_body_is_refused_413_from_its_content_length(server):
    with connect(server) as sock:  # nothing of the body is sent: the answer comes from the head alone
        sock.sendall(b"POST /sessions HTTP/1.1\r\nHost: x\r\n" + auth(server) +
                     b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % (MAX_BODY + 1))
        answer = read_all(sock)
    assert status(answer) == 413 and b"too_large" in answer


def test_the_token_is_checked_before_the_body_is_read(server):
    with connect(server) as sock:
        sock.sendall(b"POST /sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n")
        answer = read_all(sock)
    assert status(answer) == 401 and b"unauthorized" in answer
    with connect(server) as sock:  # /health needs none
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert status(read_all(sock)) == 200


def test_a_slow_head_is_closed_408(server):
    """One byte a second never completes the head: the router closes the connection at its timeout."""
    with connect(server) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        closed = False
        for _ in range(int(HEAD_TIMEOUT_S) * 4):  # bounded: well past the timeout
            if not send_quietly(sock, b"X"):
                closed = True
                break
            sock.settimeout(1.0)
            try:
                answer = sock.recv(4096)
            except socket.timeout:
                continue
            closed = True
            break
        sock.settimeout(30)
        assert closed
        assert status(answer + read_all(sock)) == 408


def test_at_the_connection_cap_an_idle_connection_makes_room(server):
    """Idle keep-alive connections at the cap: a new client is served and the longest idle one closed."""
    held = []
    try:
        for _ in range(CONNECTIONS):
            sock = connect(server)
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")  # keep-alive: each holds its connection
            assert status(read_response(sock)) == 200
            held.append(sock)
        with connect(server) as extra:
            extra.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert status(read_all(extra)) == 200
        assert read_all(held[0]) == b""  # the first (idle the longest) was closed for it
    finally:
        for sock in held:
            sock.close()


def test_the_connection_cap_refuses_503_when_no_connection_is_idle(server):
    held = []
    try:
        for _ in range(CONNECTIONS):  # each in the middle of a request's head: none idle
            sock = connect(server)
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
            held.append(sock)
        for _ in range(100):  # the router has seen all of them begin (each sent bytes before it counts)
            with connect(server) as extra:
                answer = read_all(extra)
            if answer and status(answer) == 503:
                break
        assert status(answer) == 503 and b"too_many_connections" in answer
    finally:
        for sock in held:
            sock.close()
    for _ in range(100):  # the router sees the closed connections go
        with connect(server) as sock:
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = read_all(sock)
            if answer and status(answer) == 200:
                break
        time.sleep(0.1)
    else:
        pytest.fail("the router never took connections again")


def test_session_urls_reach_their_process_percent_encoded_or_absolute(server):
    with OfficeClient(server.url, token=server.token) as client:
        sids = {}
        while len(sids) < 2:
            sid = client.create_session(TASK_IDS[0], mode="all_operations")["session_id"]
            sids.setdefault(sid[:2], sid)
        try:
            for sid in sids.values():
                encoded = "".join(f"%{ord(c):02x}" for c in sid[:4]) + sid[4:]
                for target in (f"/sessions/{encoded}", f"http://127.0.0.1:{server.port}/sessions/{sid}",
                               f"/sessions/{sid[:2]}%{ord(sid[2]):02X}{sid[3:]}"):
                    for _ in range(4):  # more than the processes: never to the wrong one by chance
                        with connect(server) as sock:
                            sock.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\n".encode() + auth(server) +
                                         b"Connection: close\r\n\r\n")
                            answer = read_all(sock)
                        assert status(answer) == 200, (target, answer[:300])
                        assert sid.encode() in answer
        finally:
            for sid in sids.values():
                client.delete(sid)


def test_a_request_that_closes_is_answered_though_more_bytes_follow(server):
    with connect(server) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /health HTTP/1.1\r\n\r\n"
                     b"garbage after it")
        answer = read_all(sock)
    assert status(answer) == 200 and answer.count(b"HTTP/1.1 ") == 1


def test_a_connection_that_sends_nothing_is_closed_408(server):
    with connect(server) as sock:
        sock.settimeout(HEAD_TIMEOUT_S * 6)  # bounded: the router closes it at its head timeout
        answer = read_all(sock)
    assert status(answer) == 408 and b"no request came" in answer
