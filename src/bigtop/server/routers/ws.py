"""WS /api/tables/{id}/ws: live views.

On connect the server sends ``{"type": "view", "view": …}`` (the log after ``?since=``, or
all of it), then one such message whenever the table changes (its log holds only the new
entries). A client may send ``{"type": "move", "version": v, "action"|"index"|"id": …}``
(answered by the next view, or ``{"type": "error", "problem": …}``) and
``{"type": "ping"}`` (answered ``{"type": "pong"}``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect

from bigtop.core.errors import BigtopError
from bigtop.core.limits import parse_json_limited
from bigtop.server import errors
from bigtop.server.routers.tables import open_table, play
from bigtop.server.runtime import Connection, Runtime

router = APIRouter(prefix="/api/tables", tags=["live"])


@router.websocket("/{table_id}/ws")
async def live(
    ws: WebSocket, table_id: str,
    token: Annotated[str | None, Query(max_length=128)] = None,
    since: Annotated[int | None, Query(ge=0)] = None,
) -> None:
    runtime: Runtime = ws.app.state.runtime
    try:
        loaded, seat = await open_table(runtime, table_id, token)
        conn = Connection(ws, table_id, seat, token=token if seat is not None else None)
        runtime.add(conn)
    except errors.Problem as e:  # told in a message, then closed with 4000 + the status
        await ws.accept()
        await ws.send_json({"type": "error", "problem": e.problem()})
        await ws.close(code=4000 + e.status)
        return
    try:
        await ws.accept()
        await runtime.send(conn, runtime.master.cached(table_id) or loaded, since=since,
                           first=True)
        while True:
            raw = await _receive(ws)
            size = len(raw.encode()) if isinstance(raw, str) else len(raw)
            if size > runtime.limits.max_ws_message_bytes:
                # Said in a message first, as for every refused message, then closed.
                limit = runtime.limits.max_ws_message_bytes
                await ws.send_json({"type": "error", "problem": errors.TooLarge(
                    f"a message is at most {limit:,} bytes; this one has {size:,}").problem()})
                await ws.close(code=1009, reason="message too large")
                return
            await _handle(runtime, conn, raw)
    except WebSocketDisconnect:
        pass
    finally:
        runtime.remove(conn)


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


async def _handle(runtime: Runtime, conn: Connection, raw: str | bytes) -> None:
    try:
        msg: Any = parse_json_limited(raw, "message")
        if not isinstance(msg, dict):
            raise errors.BadRequest("a message must be a JSON object")
        kind = msg.get("type")
        if kind == "ping":
            await conn.ws.send_json({"type": "pong"})
            return
        if kind != "move":
            raise errors.BadRequest("message type must be 'move' or 'ping'")
        if conn.seat is None:
            raise errors.Unauthorized("moving needs a seat token; spectators only watch")
        version = msg.get("version")
        if isinstance(version, bool) or not isinstance(version, int):
            raise errors.BadRequest("a move needs the 'version' it was chosen at")
        choice = {k: v for k, v in msg.items() if k not in ("type", "version")}
        # The table as this worker knows it (its WebSocket is kept up to date): the move's
        # transaction checks it against the database.
        loaded = runtime.master.cached(conn.table_id)
        if loaded is None:
            loaded = await runtime.db(runtime.master.load, conn.table_id)
        await play(runtime, loaded, conn.seat, version, choice, key=id(conn),
                   token=conn.token)
    except errors.Problem as e:
        await conn.ws.send_json({"type": "error", "problem": e.problem()})
    except BigtopError as e:  # not JSON, or beyond the core's input limits
        await conn.ws.send_json({"type": "error", "problem": errors.BadRequest(
            str(e)).problem()})
