"""SCOUT: a climbing card game with a fixed hand order (Oink Games; the Finnish edition's
rulebook, readings S1–S7 in docs/scout.md)."""

from bigtop.core.capabilities import Capabilities
from bigtop.games.scout.bot import (
    ScoutBot,
    ScoutPlanner,
    deep_search_profile,
    easy_agent,
    heuristic_agent,
    search_profile,
)
from bigtop.games.scout.features import FEATURES, action_features
from bigtop.games.scout.render import PICTURES, render_png, render_svg, svg_from_observation
from bigtop.games.scout.rules import (
    Insert,
    Pass,
    Scout,
    ScoutGame,
    ScoutOptions,
    ScoutState,
    Show,
    TurnHand,
)
from bigtop.games.scout.teach import TEACHING
from bigtop.games.scout.tensor import ScoutLayout

GAME = ScoutGame

CAPABILITIES = Capabilities(
    name=ScoutGame.name,
    game=ScoutGame,
    teaching=TEACHING,
    heuristic_agent=heuristic_agent,
    search_profile=search_profile,
    deep_search_profile=deep_search_profile,
    chance="deals",
    easy_agent=easy_agent,
    observation_tensor=ScoutLayout,
    picture=PICTURES,
    action_features=(FEATURES, action_features),
)
"""What the game provides, declared once (:mod:`bigtop.core.capabilities`)."""

__all__ = [
    "CAPABILITIES",
    "GAME",
    "Insert",
    "Pass",
    "Scout",
    "ScoutBot",
    "ScoutGame",
    "ScoutOptions",
    "ScoutPlanner",
    "ScoutState",
    "Show",
    "TurnHand",
    "deep_search_profile",
    "easy_agent",
    "heuristic_agent",
    "render_png",
    "render_svg",
    "search_profile",
    "svg_from_observation",
]
