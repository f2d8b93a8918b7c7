"""GET /api/lobby: listed open tables and their free seats (no token needed)."""

from __future__ import annotations

from fastapi import APIRouter

from bigtop.server.deps import RuntimeDep
from bigtop.server.routers.tables import spectator_url
from bigtop.server.runtime import fairness, seat_info
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
            options=m.options, version=m.version, created_at=m.created_at,
            free_seats=[s.seat for s in t.seats if s.kind == "human" and not s.claimed],
            seats=[SeatInfo(**seat_info(s)) for s in t.seats],
            spectator_url=spectator_url(runtime, m.id), **fairness(m)))
    return Lobby(tables=out)
