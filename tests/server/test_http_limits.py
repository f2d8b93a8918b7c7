"""HTTP limits of a real `bigtop serve` (uvicorn, httptools with server/protocol.py's
bounds) on loopback: a request head past ``max_header_bytes`` gets 431 at once, a half-sent
request is dropped after ``request_timeout_seconds``, connections past ``max_connections``
are refused with 503, a WebSocket message past ``max_ws_message_bytes`` gets its 413 answer
before the close (1009). Bounded: small limits, a few sockets, every read with a timeout."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets.sync.client
from websockets.exceptions import ConnectionClosed

LIMITS = ("--limit", "max_header_bytes=16384", "--limit", "request_timeout_seconds=2",
          "--limit", "keep_alive_seconds=1", "--limit", "max_connections=6",
          "--limit", "max_ws_message_bytes=1000")
WAIT = 30.0  # the longest any read waits (far above every limit: the test cannot hang)


@pytest.fixture
def server(server_factory: Any, tmp_path: Path) -> Iterator[Any]:
    s = server_factory(f"sqlite:///{tmp_path / 't.sqlite3'}", *LIMITS)
    s.start(timeout=120)
    yield s


def connect(server: Any) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
    return sock


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    out = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            out += chunk
    return out


def test_a_big_request_head_gets_431_and_the_connection_closes(server: Any) -> None:
    with connect(server) as sock:
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 70_000
                     + b"\r\n\r\n")
        answer = read_all(sock)
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert b"16384 bytes" in answer
    # An endless header: the server stops reading and closes after about the limit,
    # however much more comes (here at most 4 MiB is offered).
    with connect(server) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Endless: ")
        sent = 0
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            while sent < 4 << 20:
                sock.sendall(b"b" * 65536)
                sent += 65536
        answer = read_all(sock)
    assert answer.startswith(b"HTTP/1.1 431 ") or answer == b"", answer[:200]
    assert sent < 4 << 20, "the server read 4 MiB of one header"
    # Many headers that are each small add up just the same.
    with connect(server) as sock:
        many = b"".join(b"X-%d: %s\r\n" % (i, b"c" * 100) for i in range(400))
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n")
        assert read_all(sock).startswith(b"HTTP/1.1 431 ")
    # A head within the limit is served as before.
    assert httpx.get(server.base + "/api/games", headers={"x-ok": "d" * 8000}).status_code == 200


def test_a_half_sent_request_is_dropped_after_the_timeout(server: Any) -> None:
    def sent(data: bytes) -> bytes:
        with connect(server) as sock:
            sock.sendall(data)
            return read_all(sock)

    def slowly() -> bytes:
        """One byte at a time, slower than the whole may take (no slowloris)."""
        with connect(server) as sock:
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                for byte in b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: 1234567890\r\n":
                    sock.sendall(bytes([byte]))
                    time.sleep(0.2)
            return read_all(sock)

    # Side by side (five connections of the six allowed): each waits out a timeout.
    with ThreadPoolExecutor(5) as pool:
        half_head = pool.submit(sent, b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
        half_body = pool.submit(sent, b"POST /api/tables HTTP/1.1\r\nHost: x\r\ncontent-type: "
                                      b"application/json\r\ncontent-length: 100\r\n\r\n{\"game\":")
        silent = pool.submit(sent, b"")  # connected, never a byte
        # one whole request, then idle: kept alive a while only
        idle = pool.submit(sent, b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
        slow = pool.submit(slowly)
    assert half_head.result().startswith(b"HTTP/1.1 408 ")
    assert b" 408 " in half_body.result().split(b"\r\n")[0]
    assert silent.result() == b""
    assert idle.result().startswith(b"HTTP/1.1 200 ")
    got = slow.result()
    assert got.startswith(b"HTTP/1.1 408 ") or got == b""
    assert not got.startswith(b"HTTP/1.1 200")


def test_connections_past_the_limit_are_refused(server_factory: Any, tmp_path: Path) -> None:
    # Long timeouts here: the held connections must stay open however slow the machine.
    server = server_factory(f"sqlite:///{tmp_path / 't.sqlite3'}", "--limit",
                            "max_connections=6", "--limit", "keep_alive_seconds=600",
                            "--limit", "request_timeout_seconds=600").start(timeout=120)
    held = [connect(server) for _ in range(6)]
    try:
        # Each held connection is known to the server once it answered on it.
        for sock in held:
            sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
            assert sock.recv(12) == b"HTTP/1.1 200"
        with connect(server) as extra:
            answer = read_all(extra)
        assert answer.startswith(b"HTTP/1.1 503 "), answer[:200]
        assert b"too many connections" in answer
    finally:
        for sock in held:
            sock.close()
    # Room again once they are gone.
    deadline = time.monotonic() + WAIT
    while True:
        try:
            if httpx.get(server.base + "/api/games", timeout=WAIT).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the server never took connections again"
        time.sleep(0.1)


def test_answers_before_the_app_are_problems_with_the_security_headers(server: Any) -> None:
    """Regression: what the HTTP layer answers itself, before the app (a request it cannot
    parse, a head too large, a request too slow, a connection too many), was plain text
    without the security headers every other answer has (no nosniff, no CSP). Now each is
    problem JSON with them, as the app's own errors are."""
    import json

    def answer_to(data: bytes) -> tuple[dict[str, str], dict[str, Any]]:
        with connect(server) as sock:
            sock.sendall(data)
            raw = read_all(sock)
        head, _, body = raw.partition(b"\r\n\r\n")
        headers = dict(line.decode("latin-1").lower().split(": ", 1)
                       for line in head.split(b"\r\n")[1:])
        return headers, json.loads(body)

    for data, status in [(b"FOO /api/games HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                         (b"GET /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: x\r\n\r\n",
                          400),
                         (b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000
                          + b"\r\n\r\n", 431),
                         (b"GET /api/games HTTP/1.1\r\nHost: x\r\n", 408)]:
        headers, problem = answer_to(data)
        assert problem["status"] == status and problem["detail"], problem
        assert problem["type"].startswith("/problems/")
        assert headers["content-type"] == "application/problem+json"
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "deny"
        assert int(headers["content-length"]) > 0


def test_a_websocket_message_over_the_limit_is_answered_413_then_closed(server: Any) -> None:
    """uvicorn reads messages up to twice ``max_ws_message_bytes`` (``Limits.ws_max_size``),
    so one past the limit reaches the server, which answers the documented 413 ``error``
    message, then closes 1009; past uvicorn's own bound it closes 1009 unanswered."""
    made = httpx.post(server.base + "/api/tables", json={"game": "scout", "players": 2},
                      timeout=WAIT).json()
    url = server.base.replace("http", "ws", 1) + f"/api/tables/{made['table']}/ws"

    def answers(message: str) -> tuple[list[dict[str, Any]], int | None]:
        """What the server sends after ``message`` until it closes, and its close code."""
        got: list[dict[str, Any]] = []
        with websockets.sync.client.connect(url, open_timeout=WAIT) as ws:
            json.loads(ws.recv(timeout=WAIT))  # the view
            ws.send(message)
            try:
                while True:
                    got.append(json.loads(ws.recv(timeout=WAIT)))
            except ConnectionClosed as e:
                return got, e.rcvd.code if e.rcvd is not None else None
        raise AssertionError("unreachable")

    got, code = answers(json.dumps({"type": "ping", "pad": "x" * 1200}))  # 1,227 bytes
    assert [m["problem"]["status"] for m in got] == [413] and code == 1009
    assert "at most 1,000 bytes; this one has 1,227" in got[0]["problem"]["detail"]
    got, code = answers("y" * 2001)  # past uvicorn's bound (2,000 bytes)
    assert got == [] and code == 1009
    with websockets.sync.client.connect(url, open_timeout=WAIT) as ws:  # within: served
        json.loads(ws.recv(timeout=WAIT))
        ws.send(json.dumps({"type": "move", "version": 0, "pad": "z" * 900}))
        told = json.loads(ws.recv(timeout=WAIT))  # read and refused as any message
        assert told["type"] == "error" and told["problem"]["status"] == 401
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=WAIT)) == {"type": "pong"}


def test_ping_frames_have_a_budget_of_their_own(server: Any) -> None:
    """The protocol answers a ping frame with a pong itself (the app never sees it): pings
    within ``ws_message_burst`` are answered and the socket stays; a flood past it closes
    the socket with 4429, as too many messages do."""
    made = httpx.post(server.base + "/api/tables", json={"game": "scout", "players": 2},
                      timeout=WAIT).json()
    url = server.base.replace("http", "ws", 1) + f"/api/tables/{made['table']}/ws"
    with websockets.sync.client.connect(url, open_timeout=WAIT) as ws:
        json.loads(ws.recv(timeout=WAIT))  # the view
        for i in range(10):
            assert ws.ping(f"fine {i}".encode()).wait(WAIT)
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=WAIT)) == {"type": "pong"}  # still served
    with websockets.sync.client.connect(url, open_timeout=WAIT) as ws:
        json.loads(ws.recv(timeout=WAIT))
        with pytest.raises(ConnectionClosed) as closed:
            for i in range(1000):
                ws.ping(f"flood {i}".encode())
            ws.recv(timeout=WAIT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        assert "pings at once" in closed.value.rcvd.reason
