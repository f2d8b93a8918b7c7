"""Connections one client address holds in a worker are capped
(``Limits.max_connections_per_client``, server/protocol.py): only ``max_connections`` bound
them, so one address that opened a thousand connections with half-sent requests (0.03 s on
loopback) held every one of them for ``request_timeout_seconds``, and every other client
got 503 meanwhile, again at each round. Counted by the TCP peer before any byte, so a
trusted proxy (which carries everybody) is not counted. Driven on fake transports."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState

from bigtop.cli.serve import WS_PROTOCOL
from bigtop.server import protocol
from bigtop.server.protocol import BoundedHttp, SecureWebSocket
from bigtop.server.settings import Limits
from tests.server.conftest import LogLines
from tests.server.test_attack_frames import Transport as WsTransport

UPGRADE = (b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           b"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")


class Transport(WsTransport):
    def __init__(self, peer: str) -> None:
        super().__init__()
        self.peer = peer
        self.protocol: Any = None

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return (self.peer, 5000) if name == "peername" else super().get_extra_info(name,
                                                                                  default)

    def write(self, data: Any) -> None:
        if self.closed:  # as uvloop's transport does
            raise RuntimeError("unable to perform operation on a closed transport")
        super().write(data)

    def set_protocol(self, protocol: Any) -> None:
        self.protocol = protocol

    def get_protocol(self) -> Any:
        return self.protocol


async def _app(scope: Any, receive: Any, send: Any) -> None:
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        await receive()


@pytest.fixture
def cap(monkeypatch: pytest.MonkeyPatch) -> int:
    limits = Limits(max_connections_per_client=3)
    monkeypatch.setattr(BoundedHttp, "limits", limits)
    monkeypatch.setattr(BoundedHttp, "clients", protocol._Clients(limits, ["10.0.0.1"]))
    return limits.max_connections_per_client


def test_one_address_holds_at_most_its_cap_of_connections(cap: int) -> None:
    async def run() -> None:
        config = Config(app=_app, log_config=None, ws=WS_PROTOCOL)
        config.load()
        state = ServerState()

        def connect(peer: str, data: bytes = b"GET /api/games HTTP/1.1\r\n") \
                -> tuple[BoundedHttp, Transport]:
            p = BoundedHttp(config=config, server_state=state, app_state={})
            t = Transport(peer)
            t.set_protocol(p)
            p.connection_made(t)
            if not t.closed:
                p.data_received(data)  # half a request: held open
            return p, t

        held = [connect("203.0.113.9") for _ in range(cap)]
        assert not any(t.closed for _, t in held)
        _, refused = connect("203.0.113.9")
        assert refused.closed and refused.out.startswith(b"HTTP/1.1 429 ")
        assert b"one address may hold 3 connections at once" in refused.out
        # Another address, and an IPv6 client's other /64, are let in; its own /64 is one.
        for peer in ("198.51.100.7", "2001:db8:1:3::1"):
            assert not connect(peer)[1].closed
        v6 = [connect(f"2001:db8:1:2::{i}")[1] for i in range(1, cap + 2)]
        assert [t.closed for t in v6] == [False] * cap + [True]
        # A trusted proxy carries everybody: not counted.
        assert not any(connect("10.0.0.1")[1].closed for _ in range(cap + 2))
        # One let go: room for one more.
        held[0][0].connection_lost(None)
        again, t = connect("203.0.113.9")
        assert not t.closed
        # A connection that goes on as a WebSocket stays counted until the socket ends.
        again.connection_lost(None)
        _, t = connect("203.0.113.9", UPGRADE)
        await asyncio.sleep(0.05)
        ws = t.get_protocol()
        assert isinstance(ws, SecureWebSocket) and t.out.startswith(b"HTTP/1.1 101")
        assert connect("203.0.113.9")[1].closed
        ws.connection_lost(None)
        await asyncio.sleep(0.05)
        assert not connect("203.0.113.9")[1].closed

    asyncio.run(run())


async def _reads_the_body(scope: Any, receive: Any, send: Any) -> None:
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": 204, "headers": []})
    await send({"type": "http.response.body", "body": b""})


def test_a_body_is_read_only_so_far(cap: int) -> None:
    """What the parser reads of a request's body is bounded (``body_bytes_read``), framing
    and chunk extensions included: a chunk extension without end (no body byte ever, so
    the app's 413 never came) and the rest of a body announced far past the limit (read to
    its end after the app's 413) went on until the request timed out, gigabytes."""
    bound = protocol.body_bytes_read(Limits())
    post = b"POST /x HTTP/1.1\r\nHost: x\r\n"

    async def run() -> None:
        config = Config(app=_reads_the_body, log_config=None)
        config.load()
        state = ServerState()

        async def fed(head: bytes, more: bytes, most: int) -> tuple[int, Transport]:
            p = BoundedHttp(config=config, server_state=state, app_state={})
            t = Transport("203.0.113.9")
            p.connection_made(t)
            p.data_received(head)
            sent = 0
            while not t.closed and sent < most:
                p.data_received(more)
                sent += len(more)
                await asyncio.sleep(0)
            for _ in range(20):  # the app's turn
                await asyncio.sleep(0)
            p.connection_lost(None)
            return sent, t

        piece = b"a" * 65536
        for head in (post + b"Transfer-Encoding: chunked\r\n\r\n5;",  # an endless extension
                     post + b"Content-Length: 1000000000\r\n\r\n"):  # a body far too big
            sent, t = await fed(head, piece, 4 * bound)
            assert t.closed and sent <= bound + len(piece), (head, sent)
            assert t.out.startswith(b"HTTP/1.1 413 "), t.out[:80]
        # A body within the limit in one-byte chunks (six bytes each) is read whole.
        body = b"".join(b"1\r\n%c\r\n" % (97 + i % 26) for i in range(Limits().max_body_bytes))
        sent, t = await fed(post + b"Transfer-Encoding: chunked\r\n\r\n", body + b"0\r\n\r\n",
                            1)
        assert t.out.startswith(b"HTTP/1.1 204 "), t.out[:80]

    asyncio.run(run())


def test_requests_pipelined_ahead_of_their_answers_are_bounded(cap: int) -> None:
    """The parser reads every request of what arrived at once, and uvicorn queued each
    (about 1.2 KB for a request of 29 bytes: 290 KB of them from each of 50 connections that
    never read grew a worker by 200 MB). Past ``max_pipelined_requests`` queued the
    connection ends."""
    ahead = Limits().max_pipelined_requests
    errors = LogLines()
    logging.getLogger("uvicorn.error").addHandler(errors)

    async def run() -> None:
        config = Config(app=_reads_the_body, log_config=None)
        config.load()
        p = BoundedHttp(config=config, server_state=ServerState(), app_state={})
        t = Transport("203.0.113.9")
        p.connection_made(t)
        p.data_received(b"GET /x HTTP/1.1\r\nHost: x\r\n\r\n" * 10_000)
        assert t.closed and len(p.pipeline) <= ahead
        for _ in range(20):  # the first request's app, which finds the connection gone
            await asyncio.sleep(0)
        p.connection_lost(None)
        # As many as allowed are answered, in turn.
        p = BoundedHttp(config=config, server_state=ServerState(), app_state={})
        t = Transport("203.0.113.9")
        p.connection_made(t)
        p.data_received(b"GET /x HTTP/1.1\r\nHost: x\r\n\r\n" * (ahead + 1))
        for _ in range(20 * ahead):
            await asyncio.sleep(0)
        assert not t.closed and t.out.count(b"HTTP/1.1 204 ") == ahead + 1
        p.connection_lost(None)

    try:
        asyncio.run(run())
    finally:
        logging.getLogger("uvicorn.error").removeHandler(errors)
    # Nothing written to the closed connection (uvloop raised, logged as an app's error).
    assert errors.lines == []



def test_a_body_cut_short_by_the_client_leaving_reaches_no_route() -> None:
    """A request whose client left before its body was whole went to its route with what
    had come (a prefix that was JSON on its own: a move, a new identity)."""
    from bigtop.server.app import BodyLimit

    called: list[object] = []

    async def route(scope: Any, receive: Any, send: Any) -> None:
        called.append(await receive())

    async def run() -> None:
        messages = [{"type": "http.request", "body": b'{"version": 3, "index": 0}',
                     "more_body": True}, {"type": "http.disconnect"}]

        async def receive() -> Any:
            return messages.pop(0)

        async def send(message: Any) -> None:
            called.append(message)

        await BodyLimit(route, limit=1000)(
            {"type": "http", "method": "POST", "path": "/api/tables/t/moves",
             "headers": [(b"content-type", b"application/json"),
                         (b"content-length", b"40")]}, receive, send)

    asyncio.run(run())
    assert called == []
