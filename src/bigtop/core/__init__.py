"""The game-agnostic core: the Game/State protocol, actions, rule options, RNG and errors."""

from bigtop.core.actions import Action
from bigtop.core.errors import (
    BigtopError,
    IllegalActionError,
    InvalidStateError,
    MalformedActionError,
    RuleOptionError,
    UnknownGameError,
)
from bigtop.core.game import CHANCE, TERMINAL, Game, State
from bigtop.core.options import RuleOptions, option

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "BigtopError",
    "Game",
    "IllegalActionError",
    "InvalidStateError",
    "MalformedActionError",
    "RuleOptionError",
    "RuleOptions",
    "State",
    "UnknownGameError",
    "option",
]
