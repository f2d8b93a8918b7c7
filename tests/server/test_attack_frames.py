"""WebSocket frames the app never sees as messages are bounded too (server/protocol.py's
``SecureWebSocket``). A message may come in fragments (a first frame, then continuation
frames): uvicorn kept every fragment in a list until the last, and websockets bounds only
their bytes, so a message that never ended, in empty continuation frames, grew the worker
without end (2,000,000 of them, 12 MB on the wire in 3.5 s from one socket, grew it by 21
MB, and the message was still taken at its end). Unsolicited pong frames are ignored by the
protocol, so none took from any budget (a million in a second of the worker's CPU). A text
frame that is not UTF-8 was logged by uvicorn as an error with its traceback, a line for
every such socket. The protocol is driven here on a fake transport (no server process)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import struct
from typing import Any

from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.frames import Close

from bigtop.cli.serve import WS_PROTOCOL
from bigtop.server.protocol import SecureWebSocket
from bigtop.server.settings import Limits
from tests.server.conftest import LogLines
from tests.server.test_attack_logs import Transport as HttpTransport
from tests.server.test_attack_logs import handshake

HANDSHAKE = (b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             b"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
TEXT, BINARY, CONT, PING, PONG = 1, 2, 0, 9, 10


def frame(opcode: int, payload: bytes = b"", fin: bool = True) -> bytes:
    """A client's frame (masked, with a zero mask: the payload as it is)."""
    assert len(payload) < 126
    return struct.pack("!BB", (0x80 if fin else 0) | opcode, 0x80 | len(payload)) \
        + b"\0\0\0\0" + payload


def close_code(out: bytes) -> int | None:
    """The code of the first close frame the server sent in ``out`` (unmasked frames)."""
    frames = out.partition(b"\r\n\r\n")[2]
    while len(frames) >= 2:
        opcode, n = frames[0] & 0x0F, frames[1] & 0x7F
        at = 2
        if n == 126:
            n, at = struct.unpack("!H", frames[2:4])[0], 4
        elif n == 127:
            n, at = struct.unpack("!Q", frames[2:10])[0], 10
        if opcode == 8:
            return Close.parse(frames[at:at + n]).code
        frames = frames[at + n:]
    return None


class Transport(HttpTransport):
    """The fake transport, paused and resumed as a socket's (uvicorn pauses reading while
    a message waits for the app)."""

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def can_write_eof(self) -> bool:
        return True

    def write_eof(self) -> None:
        self.out += b"<EOF>"


class Socket:
    """A SecureWebSocket whose app accepts, then records every message it receives."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []

        async def app(scope: Any, receive: Any, send: Any) -> None:
            await receive()
            await send({"type": "websocket.accept"})
            while True:
                message = await receive()
                self.received.append(message)
                if message["type"] == "websocket.disconnect":
                    return

        self.app = app
        self.transport = Transport()

    async def open(self) -> None:  # in the running loop: the protocol takes it
        config = Config(app=self.app, log_config=None, ws=WS_PROTOCOL, ws_max_size=2000)
        config.load()
        self.protocol = SecureWebSocket(config=config, server_state=ServerState(),
                                        app_state={})
        self.protocol.connection_made(self.transport)
        self.protocol.data_received(HANDSHAKE)
        await self.settle()
        assert self.transport.out.startswith(b"HTTP/1.1 101")

    async def send(self, data: bytes) -> None:
        self.protocol.data_received(data)
        await self.settle()

    async def settle(self) -> None:
        for _ in range(20):
            await asyncio.sleep(0)

    def end(self) -> None:
        self.protocol.connection_lost(None)


def run(scenario: Any) -> Socket:
    sock = Socket()

    async def go() -> None:
        await sock.open()
        try:
            await scenario(sock)
        finally:
            sock.end()
            await sock.settle()

    asyncio.run(go())
    return sock


def test_a_message_in_too_many_fragments_is_refused_without_keeping_them() -> None:
    frames = Limits().ws_max_frames

    async def endless(sock: Socket) -> None:
        await sock.send(frame(TEXT, b'{"type":', fin=False))
        for _ in range(50):  # 5,000 empty fragments, no end
            await sock.send(frame(CONT, fin=False) * 100)
            assert len(sock.protocol.frames) <= frames
        assert close_code(sock.transport.out) == 1009

    sock = run(endless)
    assert [m["type"] for m in sock.received] == ["websocket.disconnect"]
    assert sock.received[0]["code"] == 1009
    assert f"at most {frames} frames" in sock.received[0]["reason"]

    async def within(sock: Socket) -> None:  # a message in as many frames as allowed
        await sock.send(frame(TEXT, b'{"type":', fin=False)
                        + frame(CONT, fin=False) * (frames - 2) + frame(CONT, b'"ping"}'))
        await sock.send(frame(BINARY, b"[", fin=False) + frame(PING, b"between")
                        + frame(CONT, b"]"))

    sock = run(within)
    assert sock.received[:2] == [{"type": "websocket.receive", "text": '{"type":"ping"}'},
                                 {"type": "websocket.receive", "bytes": b"[]"}]
    assert close_code(sock.transport.out) is None


def test_pong_frames_take_from_the_ping_budget() -> None:
    burst = Limits().ws_message_burst

    async def flood(sock: Socket) -> None:
        await sock.send(frame(PONG, b"unasked") * (burst // 2))
        await sock.send(frame(PING, b"fine") * (burst // 2 - 1))
        assert close_code(sock.transport.out) is None  # within the budget: still open
        await sock.send(frame(PONG, b"one too many") * 2)
        assert close_code(sock.transport.out) == 4429

    sock = run(flood)
    assert sock.received[0]["code"] == 4429



def test_a_text_frame_that_is_not_utf8_is_refused_without_a_log_line() -> None:
    logger = logging.getLogger("uvicorn.error")
    seen = LogLines()
    logger.addHandler(seen)

    async def bad(sock: Socket) -> None:
        await sock.send(frame(TEXT, b'{"type": "ping", "x": "\xff"}'))
        assert close_code(sock.transport.out) == 1007

    try:
        with contextlib.ExitStack():
            for _ in range(3):
                sock = run(bad)
                assert sock.received[0]["type"] == "websocket.disconnect"
                assert sock.received[0]["code"] == 1007
    finally:
        logger.removeHandler(seen)
    assert seen.lines == []


def test_a_handshake_websockets_refuses_is_answered_and_closed() -> None:
    """A WebSocket request within ``max_header_bytes`` that websockets' own parser refuses
    (a header line over 8,192 bytes, more than 128 headers) got no answer and was never
    closed: uvicorn acts only on a request parsed, and the HTTP layer's timeout ends at the
    upgrade. It is answered 431 with the security headers, then closed."""
    head = HANDSHAKE[:-2]
    for extra in (b"X-Long: " + b"x" * 9000 + b"\r\n",
                  b"".join(b"X-%d: y\r\n" % i for i in range(130))):
        answer = handshake(head + extra + b"\r\n")
        assert answer.startswith(b"HTTP/1.1 431 "), answer[:100]
        assert b"x-content-type-options: nosniff" in answer.lower()
