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
    ``rules_text(game)`` (the rules in plain words, for this configuration, at 78 columns),
    ``round_summary(before, after)`` (lines saying how a round or game ended when the one
    action from ``before`` to ``after`` ended it; else no lines) and, optionally,
    ``trick_summary`` and ``featured``."""

    intro: Callable[[Game], str]
    rules_text: Callable[[Game], str]
    round_summary: Callable[[State, State], list[str]]
    trick_summary: Callable[[State, State], list[str]]
    """Like ``round_summary`` for a smaller unit inside a round (Tricky Landing's tricks)."""
    featured: Callable[[State], tuple[list[tuple[int, str]], str] | None]
    """Which legal actions a move menu shows, as (index, label), and a line saying how to
    reach the others (Tricky Landing: one throw per card); None: every action, labelled
    by ``describe``."""


def _no_lines(before: State, after: State) -> list[str]:
    return []


def _everything(state: State) -> tuple[list[tuple[int, str]], str] | None:
    return None


def teaching(name: str) -> Teaching:
    """The teaching functions of game ``name`` (an UnknownGameError for no such game)."""
    module = importlib.import_module(game_module(name).__name__ + ".teach")
    return Teaching(module.intro, module.rules_text, module.round_summary,
                    getattr(module, "trick_summary", _no_lines),
                    getattr(module, "featured", _everything))


__all__ = ["Teaching", "teaching"]
