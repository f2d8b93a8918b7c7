"""WS /api/tables/{id}/ws: live views.

The seat token comes in a header, never in the URL: ``Authorization: Bearer TOKEN`` (clients
that can set headers), or, from a browser (which cannot), the subprotocol
``bigtop.token.TOKEN`` offered beside ``bigtop`` (the server answers ``bigtop``, never the
token). ``?token=`` (or ``?key=``…) is refused (error message, then close 4400:
server/edge.py). No token: a spectator.

On connect the server sends ``{"type": "view", "view": …}`` (the log after ``?since=``, or
all of it), then one such message whenever the table changes (its log holds only the new
entries), and ``{"type": "chat", "message": …}`` for each chat message written after it
connected (to spectators only where the host lets them read). A client may send
``{"type": "move", "version": v, "action"|"index"|"id": …}``
(answered by the next view, or ``{"type": "error", "problem": …}``) and
``{"type": "ping"}`` (answered ``{"type": "pong"}``).
"""

from __future__ import annotations

import math
import time
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from bigtop.core.errors import BigtopError
from bigtop.core.limits import MAX_INT, parse_json_limited
from bigtop.server import errors
from bigtop.server.deps import bearer
from bigtop.server.edge import too_many_reads
from bigtop.server.net import ClientCount, SocketBudget, client_address
from bigtop.server.routers.tables import open_table, play
from bigtop.server.runtime import Connection, RateLimiter, Runtime, dumps
from bigtop.server.schemas import MoveIn

router = APIRouter(prefix="/api/tables", tags=["live"])

PROTOCOL = "bigtop"
"""The subprotocol the server answers when a client offers it (a browser must offer one to
carry its token there)."""
TOKEN_PROTOCOL = "bigtop.token."
"""Prefix of the offered subprotocol that carries a seat token."""


def _token(ws: WebSocket, authorization: str | None) -> str | None:
    """The seat token of the handshake: the Authorization header or a subprotocol (a
    ``?token=`` never reaches here: server/edge.py refused it)."""
    offered = [p for p in ws.scope.get("subprotocols", []) if p.startswith(TOKEN_PROTOCOL)]
    if len(offered) > 1:
        raise errors.BadRequest("at most one 'bigtop.token.' subprotocol")
    in_protocol = offered[0][len(TOKEN_PROTOCOL):] if offered else None
    token = bearer(authorization) or in_protocol or None
    if token is not None and len(token) > 128:
        raise errors.BadRequest("a seat token has at most 128 characters")
    return token


@router.websocket("/{table_id}/ws")
async def live(
    ws: WebSocket, table_id: str,
    since: Annotated[int | None, Query(ge=0, le=MAX_INT)] = None,
    authorization: Annotated[str | None, Header()] = None,
) -> None:
    runtime: Runtime = ws.app.state.runtime
    sockets: ClientCount = ws.app.state.sockets
    protocol = PROTOCOL if PROTOCOL in ws.scope.get("subprotocols", []) else None
    client = client_address(ws)
    counted = False
    try:
        token = _token(ws, authorization)
        if not sockets.take(client):
            raise errors.TooManyRequests(
                f"one address may hold at most {sockets.cap} live connections at once")
        counted = True
        loaded, seat = await open_table(runtime, table_id, token)
        conn = Connection(ws, table_id, seat, client,
                          token=token if seat is not None else None)
        # Chat goes out live from here on (what came before: GET .../chat).
        conn.sent_chat = await runtime.db(runtime.master.storage.last_chat_id, table_id)
        runtime.add(conn)
    except errors.Problem as e:  # told in a message, then closed with 4000 + the status
        if counted:
            sockets.give_back(client)
        await ws.accept(subprotocol=protocol)
        await ws.send_json({"type": "error", "problem": e.problem()})
        await ws.close(code=4000 + e.status)
        return
    except BaseException:
        if counted:
            sockets.give_back(client)
        raise
    lim = runtime.limits
    reads: RateLimiter = ws.app.state.reads
    # The socket's own message budget (Limits.ws_messages_per_second, ws_message_burst).
    budget = SocketBudget(lim.ws_messages_per_second, lim.ws_message_burst, time.monotonic())
    try:
        await ws.accept(subprotocol=protocol)
        await runtime.send(conn, runtime.master.cached(table_id) or loaded, since=since,
                           first=True)
        while True:
            raw = await _receive(ws)
            wait = budget.take(time.monotonic())
            if wait:
                await _close(runtime, conn, errors.TooManyRequests(
                    f"one connection may send {lim.ws_message_burst} messages at once and "
                    f"{lim.ws_messages_per_second:g} a second; reconnect in "
                    f"{math.ceil(wait)} s", retry_after=wait), 4429)
                return
            size = len(raw.encode()) if isinstance(raw, str) else len(raw)
            if size > lim.max_ws_message_bytes:
                # Said in a message first, as for every refused message, then closed.
                await _close(runtime, conn, errors.TooLarge(
                    f"a message is at most {lim.max_ws_message_bytes:,} bytes; this one has "
                    f"{size:,}"), 1009)
                return
            if not await _handle(runtime, conn, raw):
                # A refused message did work (parsing, checking) and made an answer: it
                # counts toward the address's read budget (a move counted toward its move
                # rates already), and an address past it is closed.
                wait = reads.take(client)
                if wait:
                    await _close(runtime, conn, too_many_reads(wait, lim), 4429)
                    return
    except WebSocketDisconnect:
        pass
    finally:
        runtime.remove(conn)
        sockets.give_back(client)


async def _receive(ws: WebSocket) -> str | bytes:
    """The next message, sent as text or as a binary frame (bytes, read as UTF-8 JSON like
    text: ``receive_text`` raised KeyError on a binary frame, which closed the connection
    with no error message)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if isinstance(text, str):
        return text
    data = message.get("bytes")
    return data if isinstance(data, bytes) else b""


async def _close(runtime: Runtime, conn: Connection, p: errors.Problem, code: int) -> None:
    """Tell the client why in an ``error`` message, then close the socket with ``code``."""
    await _tell(runtime, conn, {"type": "error", "problem": p.problem()})
    await conn.ws.close(code=code, reason=p.title)


async def _handle(runtime: Runtime, conn: Connection, raw: str | bytes) -> bool:
    """Act on one message; False: it was refused (and the client told why)."""
    try:
        msg: Any = parse_json_limited(raw, "message")
        if not isinstance(msg, dict):
            raise errors.BadRequest("a message must be a JSON object")
        kind = msg.get("type")
        if kind == "ping":
            if len(msg) != 1:
                # Else a ping carried any JSON, the costliest to parse (thousands of keys:
                # about 2 ms each, a plain ping 2 µs), answered and never refused, so it
                # took nothing of its address's read budget.
                raise errors.BadRequest('a ping has no other field: {"type": "ping"}')
            await _tell(runtime, conn, {"type": "pong"})
            return True
        if kind != "move":
            raise errors.BadRequest("message type must be 'move' or 'ping'")
        if conn.seat is None:
            raise errors.Unauthorized("moving needs a seat token; spectators only watch")
        version = msg.get("version")
        if isinstance(version, bool) or not isinstance(version, int):
            raise errors.BadRequest("a move needs the 'version' it was chosen at")
        # The move's schema, as over HTTP (``POST …/moves``): a field no move has (a
        # "seat", as if to move for another) is refused, never dropped and played.
        try:
            move = MoveIn.model_validate({k: v for k, v in msg.items() if k != "type"})
        except ValidationError as e:
            raise errors.invalid(list(e.errors())) from None
        choice = move.model_dump(exclude_none=True, exclude={"version"})
        # The table as this worker knows it (its WebSocket is kept up to date): the move's
        # transaction checks it against the database.
        loaded = runtime.master.cached(conn.table_id)
        if loaded is None:
            loaded = await runtime.db(runtime.master.load, conn.table_id)
    except BigtopError as e:  # a Problem, or not JSON, or beyond the core's input limits
        await _refuse(runtime, conn, e)
        return False
    try:  # a move: counted toward its seat's and address's move rates (play)
        await play(runtime, loaded, conn.seat, version, choice, conn.client,
                   token=conn.token)
    except BigtopError as e:
        await _refuse(runtime, conn, e)
    return True


async def _refuse(runtime: Runtime, conn: Connection, e: BigtopError) -> None:
    """Tell the client why its message was refused: the problem raised, or (an error of
    the core's) a 400 with its words."""
    p = e if isinstance(e, errors.Problem) else errors.BadRequest(str(e))
    await _tell(runtime, conn, {"type": "error", "problem": p.problem()})


async def _tell(runtime: Runtime, conn: Connection, message: dict[str, Any]) -> None:
    """Answer the client (as ``send_json`` would), waiting at most about
    ``ws_send_seconds`` for it to take the answer: a client that sends without reading is
    dropped (:meth:`Runtime.reply`) rather than holding its handler and its table."""
    await runtime.reply(conn, dumps(message))
