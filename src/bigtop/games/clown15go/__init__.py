"""Clown 15 Go: turn over cards and lose them on middle rows 1–15 or on the other players'
open piles (15GO!, Van der Meulen, 2020: the English user guide; readings G1–G5 in
docs/clown-15-go.md)."""

from bigtop.core.capabilities import Capabilities
from bigtop.games.clown15go.bot import (
    Clown15GoBot,
    deep_search_profile,
    easy_agent,
    heuristic_agent,
    search_profile,
)
from bigtop.games.clown15go.cards import Deck
from bigtop.games.clown15go.features import FEATURES, action_features
from bigtop.games.clown15go.render import PICTURES, render_png, render_svg, svg_from_observation
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
from bigtop.games.clown15go.teach import TEACHING
from bigtop.games.clown15go.tensor import Clown15GoLayout

GAME = Clown15GoGame

CAPABILITIES = Capabilities(
    name=Clown15GoGame.name,
    game=Clown15GoGame,
    teaching=TEACHING,
    heuristic_agent=heuristic_agent,
    search_profile=search_profile,
    deep_search_profile=deep_search_profile,
    chance="deals",
    easy_agent=easy_agent,
    observation_tensor=Clown15GoLayout,
    picture=PICTURES,
    action_features=(FEATURES, action_features),
    seat_results=("cards_left",),
)
"""What the game provides, declared once (:mod:`bigtop.core.capabilities`)."""

__all__ = [
    "CAPABILITIES",
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
