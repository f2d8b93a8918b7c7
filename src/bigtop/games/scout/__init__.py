"""SCOUT: a climbing card game with a fixed hand order (rulebook 001_df8c940f20f01f9a.txt)."""

from bigtop.games.scout.bot import ScoutBot, heuristic_agent, search_profile
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
    "ScoutState",
    "Show",
    "TurnHand",
    "heuristic_agent",
    "search_profile",
]
