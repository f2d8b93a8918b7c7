"""One package per game: rules (a pure state machine), data, a heuristic bot, and ``teach``:
the game explained to a newcomer and what each finished round means.

>>> from bigtop.core.registry import new_game
>>> t = teaching("scout")
>>> t.rules_text(new_game("scout", 3)).startswith("SCOUT.")
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from bigtop.core.game import Game, State
from bigtop.core.registry import game_module


@dataclass(frozen=True)
class Teaching:
    """A game's ``teach`` module: ``intro(game)`` (a few lines before the first move),
    ``rules_text(game)`` (the rules in plain words, for this configuration, at 78 columns)
    and ``round_summary(before, after)`` (lines saying how a round, trick or game ended when
    the one action from ``before`` to ``after`` ended it; else no lines)."""

    intro: Callable[[Game], str]
    rules_text: Callable[[Game], str]
    round_summary: Callable[[State, State], list[str]]


def teaching(name: str) -> Teaching:
    """The teaching functions of game ``name`` (an UnknownGameError for no such game)."""
    module = importlib.import_module(game_module(name).__name__ + ".teach")
    return Teaching(module.intro, module.rules_text, module.round_summary)


__all__ = ["Teaching", "teaching"]
