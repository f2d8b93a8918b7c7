"""SCOUT: a climbing card game with a fixed hand order (Oink Games; the Finnish edition's
rulebook, readings S1–S7 in docs/scout.md)."""

from bigtop.games.scout.bot import (
    ScoutBot,
    ScoutPlanner,
    deep_search_profile,
    easy_agent,
    heuristic_agent,
    search_profile,
)
from bigtop.games.scout.render import render_png, render_svg, svg_from_observation
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

GAME = ScoutGame

__all__ = [
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
