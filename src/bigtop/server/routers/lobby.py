"""GET /api/lobby: listed open tables and their free seats (no token needed)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from bigtop.server.deps import RuntimeDep
from bigtop.server.routers.tables import spectator_url
from bigtop.server.runtime import fairness, seat_info, terms
from bigtop.server.schemas import Lobby, LobbyTable, SeatInfo

router = APIRouter(prefix="/api", tags=["lobby"])


@router.get("/lobby", response_model=Lobby)
async def lobby(runtime: RuntimeDep) -> Lobby:
    """Open tables anyone may join (``listed``), newest first, with their free seats."""
    out = []
    for t in await runtime.db(runtime.master.lobby):
        m = t.meta
        out.append(LobbyTable(
            table=m.id, game=m.game, title=t.state.game.title, players=m.players,
            options=summary(m.options, runtime.limits.lobby_text_chars), version=m.version,
            created_at=m.created_at,
            free_seats=[s.seat for s in t.seats if s.kind == "human" and not s.claimed],
            seats=[SeatInfo(**seat_info(s)) for s in t.seats],
            spectator_url=spectator_url(runtime, m.id), **fairness(m), **terms(t)))
    return Lobby(tables=out)


def summary(value: Any, chars: int) -> Any:
    """``value`` with every text longer than ``chars`` cut there and ended with "…" (the
    lobby lists many tables: free text such as a board's note is in each table's own view,
    whole, not copied into every lobby entry).

    >>> summary({"board": "x" * 5, "rounds": 3, "list": ["abcdef"]}, 3)
    {'board': 'xx…', 'rounds': 3, 'list': ['ab…']}
    """
    if isinstance(value, str):
        return value if len(value) <= chars else value[:chars - 1] + "…"
    if isinstance(value, dict):
        return {k: summary(v, chars) for k, v in value.items()}
    if isinstance(value, list):
        return [summary(v, chars) for v in value]
    return value
