"""The HTTP layer's warnings about requests it refused are bounded (server/protocol.py): a
line for each request that was no HTTP (``Invalid HTTP request received.``) or asked for an
upgrade other than a WebSocket (``Unsupported upgrade request.``) let any client write as
many log lines as it could open connections: 6,800 a second from one client on loopback
(the audit's two busy cores), 280 KB of log a second. And the WebSocket handshakes refused
before the app answers carry the security headers like every other answer. The protocols
are driven here on a fake transport (no server process to start)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any
from unittest import mock

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState

from bigtop.cli.serve import WS_PROTOCOL
from bigtop.server import protocol
from bigtop.server.headers import SECURITY_HEADERS
from bigtop.server.protocol import BoundedHttp, SecureWebSocket
from tests.server.conftest import LogLines

GARBAGE = b"GARBAGE\r\n\r\n"
H2C = b"GET /api/games HTTP/1.1\r\nHost: x\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n"


class Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.out = b""
        self.closed = False

    def write(self, data: Any) -> None:
        self.out += bytes(data)

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("203.0.113.9", 5000),
                "sockname": ("127.0.0.1", 8000)}.get(name, default)


async def _app(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 204, "headers": []})
    await send({"type": "http.response.body", "body": b""})


def feed(requests: list[bytes]) -> list[bytes]:
    """Each request on a connection of its own; the answers (up to the status line)."""

    async def run() -> list[bytes]:
        config = Config(app=_app, log_config=None)
        config.load()
        state = ServerState()
        out = []
        for data in requests:
            p = BoundedHttp(config=config, server_state=state, app_state={})
            t = Transport()
            p.connection_made(t)
            p.data_received(data)
            await asyncio.sleep(0)
            p.connection_lost(None)
            out.append(t.out.partition(b"\r\n")[0])
        return out

    return asyncio.run(run())


@pytest.fixture(autouse=True)
def _fresh_bound() -> None:
    protocol.REFUSALS_LOG.reset()



def test_a_flood_of_bad_requests_writes_one_line_a_minute() -> None:
    logger = logging.getLogger("uvicorn.error")  # uvicorn's own (it may not propagate)
    seen = LogLines()
    clock = [1000.0]
    with mock.patch.object(protocol.REFUSALS_LOG, "clock", lambda: clock[0]), \
            contextlib.ExitStack() as done:
        logger.addHandler(seen)
        done.callback(logger.removeHandler, seen)
        answers = feed([GARBAGE] * 40 + [H2C] * 10)
        assert answers[:40] == [b"HTTP/1.1 400 Bad Request"] * 40  # each still answered
        assert seen.lines == ["Invalid HTTP request received."]
        clock[0] += protocol.REFUSALS_LOG_SECONDS + 1
        feed([H2C])
    assert seen.lines[1:] == [
        "Unsupported upgrade request. (49 more requests refused since the last such line: "
        "no HTTP, or an upgrade other than a WebSocket)"]


# -- the WebSocket handshakes refused ---------------------------------------------------------
async def _no_socket_here(scope: Any, receive: Any, send: Any) -> None:
    await receive()
    await send({"type": "websocket.close", "code": 1000})  # refused before accepting: 403


def handshake(request: bytes) -> bytes:
    """What the WebSocket protocol answers ``request`` (its app closes before accepting)."""

    async def run() -> bytes:
        config = Config(app=_no_socket_here, log_config=None, ws=WS_PROTOCOL)
        config.load()
        p = SecureWebSocket(config=config, server_state=ServerState(), app_state={})
        t = Transport()
        p.connection_made(t)
        p.data_received(request)
        for _ in range(20):
            if t.closed:
                break
            await asyncio.sleep(0.01)
        p.connection_lost(None)
        return t.out

    return asyncio.run(run())


def test_refused_websocket_handshakes_carry_the_security_headers() -> None:
    head = (b"GET /api/nope HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n")
    key = b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    for request, status in ((head + b"\r\n", b"400"), (head + key + b"\r\n", b"403")):
        answer = handshake(request).lower()
        assert answer.startswith(b"http/1.1 " + status), answer[:100]
        for name, value in SECURITY_HEADERS:
            assert name + b": " + value.lower() in answer, name
