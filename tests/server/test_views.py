"""server/views.py: the legal actions a seat is told carry each action's exact JSON, made
once per distinct action where that is exact (not for actions with float fields)."""

from __future__ import annotations

import json
import random

import pytest

from bigtop import new_state
from bigtop.games.scout.actions import Show
from bigtop.games.tricky_landing.actions import Throw
from bigtop.server import views
from bigtop.server.views import action_json, legal_action_items


@pytest.mark.parametrize("game, players", [("scout", 3), ("clown-15-go", 3),
                                           ("so-ein-zirkus", 2), ("tricky-landing", 3)])
def test_items_carry_each_actions_own_json(game: str, players: int) -> None:
    state = new_state(game, players=players, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.current_player()
        items = legal_action_items(state, seat)
        actions = state.legal_actions()
        assert [i["action"] for i in items] == [a.to_json() for a in actions]
        # the same text once written (a cached dict is never a different action's)
        assert [json.dumps(i["action"]) for i in items] == [json.dumps(a.to_json())
                                                             for a in actions]
        state.apply(rng.choice(actions))


def test_json_made_once_per_distinct_action() -> None:
    first = action_json(Show(start=1, length=2))
    assert action_json(Show(start=1, length=2)) is first
    assert action_json(Show(start=1, length=3)) == {"type": "show", "start": 1, "length": 3}


def test_float_actions_are_written_from_themselves() -> None:
    """0.0 == -0.0, so a kept JSON would write one throw as the other."""
    assert Throw("y7", 0.0, 0.0, 3.0) == Throw("y7", -0.0, 0.0, 3.0)
    assert action_json(Throw("y7", 0.0, 0.0, 3.0))["x"] == 0.0
    assert json.dumps(action_json(Throw("y7", -0.0, 0.0, 3.0))) == json.dumps(
        {"type": "throw", "card": "y7", "x": -0.0, "y": 0.0, "spin": 3.0})


def test_the_kept_json_is_bounded() -> None:
    for start in range(views.ACTION_JSON_CACHE + 100):
        action_json(Show(start=start, length=1))
    assert views._kept_json.cache_info().currsize <= views.ACTION_JSON_CACHE
