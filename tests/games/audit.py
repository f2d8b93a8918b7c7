"""The rulebook audits' shared driver: random legal play checked against a game's own
independent reading of the rules after every move (tests/games/*/test_rulebook_fuzz.py)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

from bigtop.core.game import State

S = TypeVar("S", bound=State)


def play_checked(state: S, rng: random.Random, reference: Callable[[S], set[Any]],
                 effect: Callable[[S, Any, S], None]) -> int:
    """Play ``state`` to its end with random legal moves. Before each move the legal actions
    must be non-empty, listed once each and equal ``reference(state)``; after it ``audit()``
    must hold and ``effect(before, action, after)`` must accept what the move did. Returns
    the number of moves."""
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "a live state offers no action"
        assert set(legal) == reference(state), state.to_json()
        assert len(set(legal)) == len(legal), "an action is listed twice"
        before = state.clone()
        action = legal[rng.randrange(len(legal))]
        state.apply(action)
        state.audit()
        effect(before, action, state)  # type: ignore[arg-type]
        steps += 1
    return steps
