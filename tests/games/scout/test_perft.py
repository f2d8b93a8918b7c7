"""Perft: fixed counts of legal action sequences for documented SCOUT positions
(tests/games/scout/perft.json; the two hand-written ones are worked out in docs/scout.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bigtop.core.perft import perft
from bigtop.core.registry import new_state
from bigtop.games.scout.rules import Scout, Show, TurnHand
from tests.games.scout.helpers import position

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "perft.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_perft(case: dict[str, Any]) -> None:
    if "seed" in case:
        state = new_state("scout", case["players"], case["seed"])
    else:
        state = position(case["players"], hands=[[tuple(c) for c in h] for h in case["hands"]],
                         active=[tuple(c) for c in case["active"]], owner=case["owner"])
    depth = len(case["counts"]) if len(case["counts"]) < 4 else 3  # depth 4 is slow-ish
    assert [perft(state, d) for d in range(1, depth + 1)] == case["counts"][:depth]


def test_documented_depth_one_lists() -> None:
    """The depth-1 lists spelled out in docs/scout.md."""
    s = position(3, hands=[[(5, 1), (5, 2), (6, 3), (7, 4)], [(4, 2)], [(2, 8)]])
    assert s.legal_actions() == [TurnHand(), Show(0, 1), Show(0, 2), Show(1, 1), Show(1, 2),
                                 Show(1, 3), Show(2, 1), Show(2, 2), Show(3, 1)]
    t = position(3, hands=[[(6, 1), (2, 5), (9, 3)], [(4, 2), (8, 3)], [(2, 7)]],
                 active=[(6, 2), (7, 3)], owner=2)
    assert t.legal_actions() == [TurnHand(), Scout("left", False), Scout("right", False),
                                 Scout("left", True), Scout("right", True)]


def test_integer_encoding_sizes_in_docs() -> None:
    """docs/scout.md states the encoding sizes per player count."""
    from bigtop.core.registry import new_game

    assert [new_game("scout", n).num_distinct_actions() for n in (2, 3, 4, 5)] == [
        305, 746, 1086, 1133]


def test_perft_divide_splits_the_count_by_first_action() -> None:
    from bigtop.core.perft import perft_divide

    state = new_state("scout", 3, 1)
    parts = perft_divide(state, 2)
    assert len(parts) == len(state.legal_actions())
    assert sum(parts.values()) == perft(state, 2) == 140
