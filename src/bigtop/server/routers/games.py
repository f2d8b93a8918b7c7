"""GET /api/games: what can be played, with options, defaults, docs and bot levels."""

from __future__ import annotations

import dataclasses

from fastapi import APIRouter

from bigtop.agents.levels import BOT_NAMES
from bigtop.core.registry import list_games
from bigtop.server.deps import RuntimeDep
from bigtop.server.runtime import has_picture
from bigtop.server.schemas import GameDoc, Games, OptionDoc

router = APIRouter(prefix="/api", tags=["games"])


@router.get("/games", response_model=Games)
def games(runtime: RuntimeDep) -> Games:
    """Every game: player range, rule options (type, default, allowed values, meaning, the
    rulebook sentence a ruling follows), whether it has a picture; the bot levels; the
    server's limits."""
    return Games(
        games=[GameDoc(
            name=g.name, title=g.title, min_players=g.min_players, max_players=g.max_players,
            options=[OptionDoc(name=o.name, type=o.type, default=o.default, doc=o.doc,
                               choices=list(o.choices) if o.choices else None,
                               minimum=o.minimum, maximum=o.maximum, quote=o.quote)
                     for o in g.options],
            picture=has_picture(g.name)) for g in list_games()],
        bot_levels=list(BOT_NAMES),
        limits=dataclasses.asdict(runtime.limits))
