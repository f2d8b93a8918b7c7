"""Shared cases for the interop tests: every registered game and player count.

Games come from the registry, so a game registered later is covered without editing these
tests. ``short_options`` picks the quickest rule options a game allows (e.g. one SCOUT
round) to keep the interop tests well under three minutes.
"""

from __future__ import annotations

import pytest

from bigtop.core.errors import BigtopError
from bigtop.core.game import Game
from bigtop.core.registry import game_names, get_game, new_game
from bigtop.interop.common import GAMES

# Candidates tried in order; the first the game accepts for that player count is used.
_SHORT: dict[str, list[dict[str, object]]] = {
    "scout": [{"rounds": 1}],
    "clown-15-go": [{"sets": 2}, {"sets": 3}, {"sets": 4}],
    "so-ein-zirkus": [{}],
    "tricky-landing": [{"rounds": 1}],
}


def short_options(name: str, players: int) -> dict[str, object]:
    for opts in [*_SHORT.get(name, []), {}]:
        try:
            new_game(name, players, opts)
        except BigtopError:
            continue
        return dict(opts)
    raise AssertionError(f"{name} accepts no options for {players} players")


def short_game(name: str, players: int) -> Game:
    return new_game(name, players, short_options(name, players))


def all_cases() -> list[tuple[str, int]]:
    """(game, players) for every registered game and every player count it supports."""
    out: list[tuple[str, int]] = []
    for name in game_names():
        cls = get_game(name)
        out.extend((name, n) for n in range(cls.min_players, cls.max_players + 1))
    return out


def edge_cases() -> list[tuple[str, int]]:
    """(game, players) for the fewest and the most players of each game."""
    out: list[tuple[str, int]] = []
    for name in game_names():
        cls = get_game(name)
        out.extend(sorted({(name, cls.min_players), (name, cls.max_players)}))
    return out


def case_id(case: tuple[str, int]) -> str:
    return f"{case[0]}-{case[1]}p"


def issue_games() -> list[str]:
    """The issue's four games; a missing one is reported as skipped by the tests using it."""
    return list(GAMES)


def require_registered(name: str) -> None:
    if name not in game_names():
        pytest.skip(f"{name!r} is not in the bigtop registry yet")
