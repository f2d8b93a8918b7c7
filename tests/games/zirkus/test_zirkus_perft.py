"""Perft: fixed counts of action sequences (chance outcomes expanded, a lost turn goes
straight to the next roll) for documented positions; depth 1 and 2 are worked out by hand
in docs/so-ein-zirkus.md ("Perft")."""

from __future__ import annotations

import pytest

from bigtop.core.perft import perft
from bigtop.core.registry import new_game, new_state
from bigtop.games.zirkus import ZirkusGame
from tests.games.zirkus.helpers import clowns, load


@pytest.mark.parametrize(("players", "counts"), [
    (2, [6, 30, 168, 930]),
    (3, [6, 33, 195, 1167]),
    (4, [6, 36, 216, 1404]),
])
def test_perft_from_the_start(players: int, counts: list[int]) -> None:
    s = new_state("so-ein-zirkus", players, seed=0)
    assert [perft(s, d) for d in range(1, len(counts) + 1)] == counts


def test_perft_on_the_4x10_board() -> None:
    s = new_state("so-ein-zirkus", 2, seed=0, options={"board": "4x10"})
    assert [perft(s, d) for d in range(1, 5)] == [6, 30, 168, 948]


def _mid(options: dict[str, object], clown1: str) -> object:
    g = new_game("so-ein-zirkus", 3, options)
    assert isinstance(g, ZirkusGame)
    return load(g, holes={"A3": "yellow"},
                clowns=clowns(("B4", ["red", "blue"]), (clown1, ["yellow"]),
                              ("C6", ["red", "yellow", "blue"])))


@pytest.mark.parametrize(("options", "clown1", "counts"), [
    ({}, "A2", [6, 69, 402, 3810]),  # the docs' worked example
    ({}, "A4", [6, 63, 360]),
    ({"shoving": "clumsy"}, "A4", [6, 69, 393]),
    ({"lazy_clown": True}, "A4", [6, 87, 528]),
    ({"upside_down": True}, "A4", [6, 65, 374]),
])
def test_perft_mid_game(options: dict[str, object], clown1: str, counts: list[int]) -> None:
    s = _mid(options, clown1)
    assert [perft(s, d) for d in range(1, len(counts) + 1)] == counts  # type: ignore[arg-type]
