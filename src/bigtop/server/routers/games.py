"""GET /api/games: what can be played, with options, defaults, docs, the rules and bot
levels; GET /api/tables/{id}/rules: the rules as one table's options play them."""

from __future__ import annotations

import dataclasses
from functools import cache

from fastapi import APIRouter

from bigtop.agents.levels import ABOUT, ALIASES, BOT_NAMES, DEFAULT_LEVEL
from bigtop.core.game import Game
from bigtop.core.registry import list_games, new_game
from bigtop.games import teaching
from bigtop.server.deps import RuntimeDep
from bigtop.server.runtime import has_picture
from bigtop.server.schemas import BotLevelDoc, GameDoc, Games, OptionDoc, TableRules

router = APIRouter(prefix="/api", tags=["games"])


def rules_of(game: Game) -> list[str]:
    """The engine's rules text for ``game`` (its options, its player count): one paragraph
    a line, ``* `` starting a bullet, as ``bigtop play`` shows them without the line about
    typing moves.

    >>> rules_of(new_game("scout", 3))[1]
    'On your turn do one of:'
    """
    return teaching(game.name).rules(game)


@cache
def default_rules(name: str, players: int) -> tuple[str, ...]:
    """The rules of game ``name`` with its default options (they never change)."""
    return tuple(rules_of(new_game(name, players)))


@router.get("/games", response_model=Games)
def games(runtime: RuntimeDep) -> Games:
    """Every game: player range, rule options (type, default, allowed values, meaning, the
    rulebook sentence a ruling follows), the rules text for the default options, whether it
    has a picture; the bot levels (each in a few words; the yardsticks marked); the server's
    limits."""
    return Games(
        games=[GameDoc(
            name=g.name, title=g.title, min_players=g.min_players, max_players=g.max_players,
            options=[OptionDoc(name=o.name, type=o.type, default=o.default, doc=o.doc,
                               choices=list(o.choices) if o.choices else None,
                               minimum=o.minimum, maximum=o.maximum, quote=o.quote)
                     for o in g.options],
            picture=has_picture(g.name),
            rules=list(default_rules(g.name, g.min_players))) for g in list_games()],
        bot_levels=list(BOT_NAMES),
        bot_level_docs=[BotLevelDoc(name=n, about=ABOUT[n], yardstick=n in ALIASES)
                        for n in BOT_NAMES],
        default_bot_level=DEFAULT_LEVEL,
        limits=dataclasses.asdict(runtime.limits))


@router.get("/tables/{table_id}/rules", response_model=TableRules, tags=["tables"],
            responses={404: {"description": "No such table",
                             "content": {"application/problem+json": {}}}})
async def table_rules(table_id: str, runtime: RuntimeDep) -> TableRules:
    """The rules as this table's options and player count play them (the engine's own
    text, public: no token needed) and the game's notes on this configuration. They never
    change during a game, so a client reads them once (they are not part of the views)."""
    loaded = await runtime.db(runtime.master.load, table_id)
    m, game = loaded.meta, loaded.state.game
    return TableRules(table=m.id, game=m.game, title=game.title, players=m.players,
                      options=m.options, rules=rules_of(game), notes=game.notes())
