"""Clown 15 Go: turn over cards and lose them on middle rows 1–15 or on the other players'
open piles (rulebook 004_23154701df508698.txt)."""

from bigtop.games.clown15go.bot import Clown15GoBot, heuristic_agent, search_profile
from bigtop.games.clown15go.cards import Deck
from bigtop.games.clown15go.rules import (
    Borrow,
    Clown15GoGame,
    Clown15GoOptions,
    Clown15GoState,
    LayDown,
    NewRow,
    Pass,
    ToOwnPile,
    ToPile,
    ToRow,
    TurnOver,
)

GAME = Clown15GoGame

__all__ = [
    "GAME",
    "Borrow",
    "Clown15GoBot",
    "Clown15GoGame",
    "Clown15GoOptions",
    "Clown15GoState",
    "Deck",
    "LayDown",
    "NewRow",
    "Pass",
    "ToOwnPile",
    "ToPile",
    "ToRow",
    "TurnOver",
    "heuristic_agent",
    "search_profile",
]
