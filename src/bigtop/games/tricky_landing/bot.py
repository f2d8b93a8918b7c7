"""Placeholder; replaced below."""
from __future__ import annotations

from bigtop.agents.base import RandomAgent
from bigtop.core.game import Game


class TrickyLandingBot(RandomAgent):
    name = "tricky-landing-heuristic"


def heuristic_agent(game: Game, seat: int) -> TrickyLandingBot:
    return TrickyLandingBot(seed=seat)
