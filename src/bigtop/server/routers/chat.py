"""A table's chat: its players write (seat token or player key), spectators read where the
host lets them; live over the table's WebSocket (``{"type": "chat", "message": …}``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from bigtop.core.limits import MAX_INT
from bigtop.server import errors
from bigtop.server.deps import RuntimeDep, TokenDep
from bigtop.server.net import client_address
from bigtop.server.routers.tables import open_table
from bigtop.server.runtime import chat_json
from bigtop.server.schemas import Chat, ChatIn, ChatMessage

router = APIRouter(prefix="/api/tables", tags=["chat"])

PROBLEMS: dict[int | str, dict[str, Any]] = {
    code: {"description": text, "content": {"application/problem+json": {}}}
    for code, text in [(400, "Malformed request"),
                       (401, "No seat token (writing; reading where spectators may not)"),
                       (403, "Wrong token"), (404, "No such table"),
                       (409, "The table's chat is full"), (413, "Body too large"),
                       (422, "Empty, too long or not plain text"),
                       (429, "Too many messages from this seat or address")]}


@router.get("/{table_id}/chat", response_model=Chat, responses=PROBLEMS)
async def read_chat(
    table_id: str, runtime: RuntimeDep, token: TokenDep,
    after: Annotated[int, Query(ge=0, le=MAX_INT, description="Only messages after this id.")] = 0,
) -> Chat:
    """The table's chat, oldest first (at most ``max_chat_page`` after ``after``). Players
    always read it; spectators where the table lets them (``chat_spectators_read``)."""
    loaded, seat = await open_table(runtime, table_id, token)
    if seat is None and not loaded.meta.chat_spectators_read:
        raise errors.Unauthorized("this table's chat is for its players: send your seat token")
    messages = await runtime.db(runtime.master.chat, table_id, after)
    return Chat(table=table_id,
                messages=[ChatMessage(**chat_json(loaded, m)) for m in messages])


@router.post("/{table_id}/chat", status_code=201, response_model=ChatMessage,
             responses=PROBLEMS)
async def write_chat(table_id: str, body: ChatIn, request: Request, runtime: RuntimeDep,
                     token: TokenDep) -> ChatMessage:
    """Write to the table's chat as your seat (plain text, never markup). Every live
    connection of the table gets it at once."""
    loaded, seat = await open_table(runtime, table_id, token)
    if seat is None:
        raise errors.Unauthorized("writing in the chat needs a seat token; spectators read")
    limits = runtime.limits
    for key in (f"seat {table_id} {seat}", f"address {client_address(request)}"):
        await runtime.chat_limit.check(key, f"at most {limits.chat_per_minute:g} chat "
                                            "messages a minute per seat and per address")
    # The token is checked again in the transaction that stores the message: one revoked
    # since open_table (another worker, a seat taken over) stores nothing (403).
    stored = await runtime.db(runtime.master.post_chat, table_id, seat, body.text, token)
    await runtime.send_chat(table_id, loaded)
    return ChatMessage(**chat_json(loaded, stored))
