"""Clown 15 Go: turn over cards and lose them on middle rows 1–15 or on the other players'
open piles (15GO!, Van der Meulen, 2020: the English user guide; readings G1–G5 in
docs/clown-15-go.md)."""

from bigtop.games.clown15go.bot import (
    Clown15GoBot,
    deep_search_profile,
    easy_agent,
    heuristic_agent,
    search_profile,
)
from bigtop.games.clown15go.cards import Deck
from bigtop.games.clown15go.render import render_png, render_svg, svg_from_observation
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
    "deep_search_profile",
    "easy_agent",
    "heuristic_agent",
    "render_png",
    "render_svg",
    "search_profile",
    "svg_from_observation",
]
