"""uvicorn's httptools protocol with the limits it lacks: request head size, time to send a
request, and open connections per worker (``Limits.max_header_bytes``,
``request_timeout_seconds``, ``max_connections``; ``bigtop serve`` names this class).

httptools (llhttp) parses any amount of header: a 64 MiB header cost 8 s of CPU and held the
memory. Here the head is counted as it arrives, in raw bytes while it is incomplete and in
parsed bytes (URL, names, values) as the parser reports them; past the limit the client gets
431 and the connection closes. A request must arrive whole (head and body) within the
timeout from its first byte, and a new connection must start one within it: otherwise 408
(or a plain close when nothing came) — a half-sent request no longer holds a socket forever.
uvicorn's own keep-alive timeout closes idle connections between requests. A connection
past ``max_connections`` is answered 503 at once and closed (WebSockets count too).

Kept on httptools rather than h11 (which bounds its buffer but answers 400 and parses in
Python): the checks are a counter and one timer per request (bench/bench_server.py --http
compares; docs/benchmarks.md has the figures).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import Sequence
from typing import Any

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame
from websockets.http11 import Response

from bigtop.server.headers import SECURITY_HEADERS
from bigtop.server.net import ClientCount, SocketBudget, is_trusted, limit_key, trusted_networks
from bigtop.server.settings import ENV_SETTINGS, Limits, Settings


def _settings() -> Settings | None:
    # uvicorn builds the protocol from an import string in every worker: the settings come
    # the way the app's do, through the environment `bigtop serve` sets.
    return Settings.from_env() if os.environ.get(ENV_SETTINGS) else None


def _limits() -> Limits:
    settings = _settings()
    return Limits() if settings is None else settings.limits


class _Clients:
    """The connections each client address holds in this worker
    (``Limits.max_connections_per_client``), by TCP peer; trusted proxies not counted."""

    def __init__(self, limits: Limits, trusted: Sequence[str]) -> None:
        self.limits = limits
        self.trusted = trusted_networks(trusted)
        self.held = ClientCount(limits.max_connections_per_client)

    def take(self, transport: asyncio.BaseTransport) -> str | bool | None:
        """The key a new connection is counted under (None: not counted), or False: that
        address holds its cap already."""
        peer = transport.get_extra_info("peername")
        host = peer[0] if isinstance(peer, tuple) and peer else None
        if not isinstance(host, str) or not host or is_trusted(host, self.trusted):
            return None
        key = limit_key(host, self.limits.ipv6_prefix)
        return key if self.held.take(key) else False


def _clients() -> _Clients:
    if BoundedHttp.clients is None:
        settings = _settings()
        BoundedHttp.clients = _Clients(
            Limits() if settings is None else settings.limits,
            Settings.trusted_proxies if settings is None else settings.trusted_proxies)
    return BoundedHttp.clients


def _response(status: bytes, text: str, slug: str) -> bytes:
    """An answer of the HTTP layer itself (before the app), then the connection closes: a
    problem (RFC 9457) with the security headers, as the app's own errors are."""
    code, _, title = status.decode().partition(" ")
    body = json.dumps({"type": f"/problems/{slug}", "title": title, "status": int(code),
                       "detail": text}).encode()
    head = [b"HTTP/1.1 " + status, b"content-type: application/problem+json",
            b"content-length: " + str(len(body)).encode(), b"connection: close",
            *(name + b": " + value for name, value in SECURITY_HEADERS)]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


class _HeadTooLarge(Exception):
    pass


class _TooManyAhead(Exception):
    """More requests pipelined than ``Limits.max_pipelined_requests``."""


def body_bytes_read(limits: Limits) -> int:
    """The most raw bytes read of one request's body before the connection is closed
    (413): room for a body of ``max_body_bytes`` sent in one-byte chunks (6 bytes each:
    ``1\r\nx\r\n``) and its trailers.

    >>> body_bytes_read(Limits())
    540672
    """
    return 8 * limits.max_body_bytes + limits.max_header_bytes


REFUSALS_LOG_SECONDS = 60.0
"""At most one log line a minute (each worker) about requests this layer refused as no
HTTP or as an upgrade to something other than a WebSocket: one line each (uvicorn's) let
any client write as many lines as it could open connections (6,800 a second on loopback,
tests/server/test_attack_logs.py). The line says how many were left out."""


class _LogBound:
    """One warning per ``seconds`` at most; the ones left out are counted into the next."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.clock = time.monotonic
        self.reset()

    def reset(self) -> None:
        self.last: float | None = None
        self.left_out = 0

    def warn(self, logger: logging.Logger, line: str) -> None:
        now = self.clock()
        if self.last is not None and now - self.last < self.seconds:
            self.left_out += 1
            return
        if self.left_out:
            line += (f" ({self.left_out} more requests refused since the last such line: "
                     "no HTTP, or an upgrade other than a WebSocket)")
        self.last, self.left_out = now, 0
        logger.warning(line)


REFUSALS_LOG = _LogBound(REFUSALS_LOG_SECONDS)


class BoundedHttp(HttpToolsProtocol):
    """The httptools protocol with a bounded head, a request timeout and a connection cap."""

    limits: Limits | None = None  # read once per process
    clients: _Clients | None = None  # this worker's connections per client address

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if BoundedHttp.limits is None:
            BoundedHttp.limits = _limits()
        self.bounds: Limits = BoundedHttp.limits
        self._client: str | None = None  # the address this connection is counted under
        self._in_head = True
        self._head_bytes = 0  # raw bytes while the head is incomplete
        self._head_parsed = 0  # URL, names and values the parser reported
        self._began = False  # a byte of the current request has come
        self._body_raw = 0  # raw bytes since the head was complete (framing included)
        self._open_cycles: list[RequestResponseCycle] = []
        self._timer: asyncio.TimerHandle | None = None
        self._refused = False

    # -- connection ------------------------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if len(self.connections) >= self.bounds.max_connections:
            self._refused = True
            self.transport = transport
            transport.write(_response(b"503 Service Unavailable",
                                      "too many connections; try again in a few seconds",
                                      "unavailable"))
            transport.close()
            return
        client = _clients().take(transport)
        if client is False:
            self._refused = True
            self.transport = transport
            cap = self.bounds.max_connections_per_client
            transport.write(_response(b"429 Too Many Requests",
                                      f"one address may hold {cap} connections at once; "
                                      "close some first", "rate-limited"))
            transport.close()
            return
        self._client = client if isinstance(client, str) else None
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._refused:
            return
        self._give_back()
        super().connection_lost(exc)

    def _give_back(self) -> None:
        if self._client is not None:
            _clients().held.give_back(self._client)
            self._client = None

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        # The connection goes on as a WebSocket (this protocol hears no more of it): the
        # WebSocket protocol gives the address's count back when it ends.
        taken_over = self.transport.get_protocol()
        if isinstance(taken_over, SecureWebSocket) and taken_over.client_key is None:
            taken_over.client_key, self._client = self._client, None
        else:
            self._give_back()

    def data_received(self, data: bytes) -> None:
        if self._refused or self.transport.is_closing():
            return
        self._unset_keepalive_if_required()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            self._disarm()  # the WebSocket protocol takes the connection over
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return
        except httptools.HttpParserError as e:
            if isinstance(e.__context__, _HeadTooLarge) or isinstance(e, _HeadTooLarge):
                self._too_large()
            elif isinstance(e.__context__, _TooManyAhead):
                # No answer can go out of turn: the connection ends (the requests queued
                # unanswered), as for a client that does not read.
                self._close()
            else:
                REFUSALS_LOG.warn(self.logger, "Invalid HTTP request received.")
                self.send_400_response("Invalid HTTP request received.")
            return
        if self._in_head and self._began:
            self._head_bytes += len(data)
            if self._head_bytes > self.bounds.max_header_bytes:
                self._too_large()
        elif self._began:
            # The body's raw bytes, its chunks' framing and extensions included: the app
            # refuses a body past max_body_bytes (413), but the parser went on reading
            # what followed to the announced end (a Content-Length of 10^9: 1 GB read after
            # the 413), and a chunk extension without end is no body at all (2.3 GB in 8 s,
            # a quarter of a core, until the request timed out).
            self._body_raw += len(data)
            if self._body_raw > body_bytes_read(self.bounds):
                self._body_too_large()

    def _unsupported_upgrade_warning(self) -> None:
        # uvicorn's line (bounded); its second, about a missing WebSocket library, never
        # applies: `bigtop serve` names the WebSocket protocol.
        REFUSALS_LOG.warn(self.logger, "Unsupported upgrade request.")

    def send_400_response(self, msg: str) -> None:
        """A request the parser refused (uvicorn's own answer was plain text without the
        security headers)."""
        self.transport.write(_response(b"400 Bad Request", msg, "bad-request"))
        self._close()

    # -- parser callbacks ------------------------------------------------------------------
    def on_message_begin(self) -> None:
        if len(self.pipeline) >= self.bounds.max_pipelined_requests:
            raise _TooManyAhead
        super().on_message_begin()
        self._in_head, self._began = True, True
        self._head_bytes = self._head_parsed = self._body_raw = 0
        if self._timer is None:
            self._arm()

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head = False
        super().on_headers_complete()
        # This connection's requests not answered yet (one running, the rest pipelined):
        # what _close tells.
        self._open_cycles = [c for c in self._open_cycles if not c.response_complete]
        self._open_cycles.append(self.cycle)

    def on_message_complete(self) -> None:
        self._disarm()
        self._began = False
        super().on_message_complete()

    # -- limits ----------------------------------------------------------------------------
    def _count(self, n: int) -> None:
        self._head_parsed += n
        if self._head_parsed > self.bounds.max_header_bytes:
            raise _HeadTooLarge

    def _too_large(self) -> None:
        self._disarm()
        self.transport.write(_response(
            b"431 Request Header Fields Too Large",
            f"the request line and headers are limited to {self.bounds.max_header_bytes} "
            "bytes", "too-large"))
        self._close()

    def _body_too_large(self) -> None:
        self._disarm()
        started = self.cycle is not None and getattr(self.cycle, "response_started", False)
        if not started:
            self.transport.write(_response(
                b"413 Content Too Large",
                f"request bodies are limited to {self.bounds.max_body_bytes} bytes",
                "too-large"))
        self._close()

    def _close(self) -> None:
        """End the connection here, and tell the request in progress as uvicorn does when a
        connection is lost, so that its app writes nothing more: uvloop's transport raises
        on a write after close, and each such request was logged as an internal error with
        two tracebacks (50 connections ended for pipelining too much: 100 of them)."""
        self._disarm()
        for cycle in self._open_cycles:
            if not cycle.response_complete:
                cycle.disconnected = True
                cycle.message_event.set()
        self.transport.close()

    def _arm(self) -> None:
        self._disarm()
        self._timer = self.loop.call_later(self.bounds.request_timeout_seconds, self._timed_out)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _timed_out(self) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        started = self.cycle is not None and getattr(self.cycle, "response_started", False)
        if self._began and not started:
            self.transport.write(_response(
                b"408 Request Timeout",
                f"a request must arrive whole within {self.bounds.request_timeout_seconds:g} s",
                "request-timeout"))
        self._close()


class SecureWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio WebSocket protocol (``bigtop serve`` names this class),
    whose answers to a handshake it refuses carry the security headers too: a malformed
    one (400), one for a path with no WebSocket route (403), one whose app failed (500) had
    none (tests/server/test_attack_logs.py). The frames the app never sees as messages are
    bounded too (tests/server/test_attack_frames.py): ping frames, which the protocol
    answers with a pong itself, and unsolicited pong frames, which it ignores, take from a
    budget of their own at the rate and burst of a socket's messages
    (``ws_messages_per_second``, ``ws_message_burst``): past it the socket is closed with
    4429, as for too many messages. A message in more than ``ws_max_frames`` frames closes
    the socket (1009) before its fragments are kept, and a text message that is not UTF-8
    closes it (1007) without uvicorn's error line and traceback."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if BoundedHttp.limits is None:
            BoundedHttp.limits = _limits()
        self._max_frames = BoundedHttp.limits.ws_max_frames
        self.client_key: str | None = None  # counted as the HTTP connection it was
        self._pings = SocketBudget(BoundedHttp.limits.ws_messages_per_second,
                                   BoundedHttp.limits.ws_message_burst, time.monotonic())
        send_response = self.conn.send_response

        def with_headers(response: Response) -> None:
            if response.status_code != 101:
                for name, value in SECURITY_HEADERS:
                    response.headers[name.decode()] = value.decode()
            send_response(response)

        self.conn.send_response = with_headers  # type: ignore[method-assign]

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if not self.handshake_initiated and self.conn.handshake_exc is not None:
            # websockets refused the request before it was one (a header line over its
            # 8,192 bytes, more than 128 headers: within max_header_bytes, so the HTTP
            # layer let them by): uvicorn acts only on a request parsed, so the refusal
            # (431) was never sent, and the connection stayed open, past every timeout
            # (the HTTP layer's ended at the upgrade), until the client left.
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.client_key is not None:
            _clients().held.give_back(self.client_key)
            self.client_key = None
        super().connection_lost(exc)

    def handle_ping(self) -> None:
        if self.close_sent:
            return  # closing: no more pongs
        if self._control_frame():
            super().handle_ping()  # the pong the protocol queued

    def handle_pong(self, event: Frame) -> None:
        if not self.close_sent and self._control_frame():
            super().handle_pong(event)

    def _control_frame(self) -> bool:
        """Take a ping or pong frame from the budget; False: past it, the socket closing."""
        if not self._pings.take(time.monotonic()):
            return True
        self._close(4429, f"at most {self._pings.burst:g} pings at once and "
                          f"{self._pings.rate:g} a second")
        return False

    def handle_cont(self, event: Frame) -> None:
        if self.close_sent:
            return  # closing: nothing more is kept
        if len(self.frames) >= self._max_frames:
            self.frames = []
            self._close(1009, f"a message comes in at most {self._max_frames} frames")
            return
        super().handle_cont(event)

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            # Checked before uvicorn decodes it again: ASCII (a move, a ping) is UTF-8, and
            # bytes.isascii costs far less than a second decode of every message.
            data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
            try:
                if not data.isascii():
                    data.decode()
            except UnicodeDecodeError:
                # uvicorn logged this as an error with a traceback, a line for every such
                # socket; it is the client's error, told by the close code.
                self.frames = []
                self._close(1007, "a text message must be UTF-8")
                return
        super().send_receive_event_to_app()

    def _close(self, code: int, reason: str) -> None:
        """Close as websockets does on a protocol error: the app is told, the close frame
        and the end of the stream go out after what is owed, and what the client still
        sends is discarded unparsed until it closes, or close_timeout. (A closing handshake
        kept parsing it, about 600,000 frames a second; closing the socket at once threw
        the close frame away under a client still sending, the kernel's reset.)"""
        if self.transport.is_closing():
            return
        self.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
        self.conn.fail(code, reason)
        self.transport.write(b"".join(self.conn.data_to_send()))
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.close_sent = True
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()
        self.close_timer = self.loop.call_later(self.close_timeout, self.transport.close)
