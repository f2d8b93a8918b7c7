"""Tricky Landing: a dexterity trick-taking game where a thrown card's landing decides
everything (the Tricky Landing rulebook, English edition; readings T1–T10 in
docs/tricky-landing.md)."""

from bigtop.core.capabilities import Capabilities
from bigtop.games.tricky_landing.bot import (
    TrickyLandingBot,
    deep_search_profile,
    easy_agent,
    heuristic_agent,
    search_profile,
)
from bigtop.games.tricky_landing.options import PERSON_SKILL, TrickyLandingOptions
from bigtop.games.tricky_landing.physics import (
    Pose,
    ThrowModel,
    ThrowSample,
    seat_angle,
    simulate_throws,
    throw_once,
    touches_target,
)
from bigtop.games.tricky_landing.render import PICTURES, render_png, render_svg
from bigtop.games.tricky_landing.rules import (
    GRID_AIMS,
    GRID_SPINS,
    SPINS,
    Throw,
    TrickyLandingGame,
    TrickyLandingState,
)
from bigtop.games.tricky_landing.teach import TEACHING
from bigtop.games.tricky_landing.tensor import TrickyLandingLayout
from bigtop.games.tricky_landing.tricks import Landing, Resolution, Trick, resolve_trick

GAME = TrickyLandingGame

CAPABILITIES = Capabilities(
    name=TrickyLandingGame.name,
    game=TrickyLandingGame,
    teaching=TEACHING,
    heuristic_agent=heuristic_agent,
    search_profile=search_profile,
    deep_search_profile=deep_search_profile,
    chance="throws",
    easy_agent=easy_agent,
    observation_tensor=TrickyLandingLayout,
    picture=PICTURES,
    person_options=(("skill", PERSON_SKILL),),
)
"""What the game provides, declared once (:mod:`bigtop.core.capabilities`)."""

__all__ = [
    "CAPABILITIES",
    "GAME",
    "GRID_AIMS",
    "GRID_SPINS",
    "SPINS",
    "Landing",
    "Pose",
    "Resolution",
    "Throw",
    "ThrowModel",
    "ThrowSample",
    "Trick",
    "TrickyLandingBot",
    "TrickyLandingGame",
    "TrickyLandingOptions",
    "TrickyLandingState",
    "deep_search_profile",
    "easy_agent",
    "heuristic_agent",
    "render_png",
    "render_svg",
    "resolve_trick",
    "search_profile",
    "seat_angle",
    "simulate_throws",
    "throw_once",
    "touches_target",
]
