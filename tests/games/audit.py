"""The rulebook audits' shared pieces: random legal play checked against a game's own
independent reading of the rules after every move (tests/games/*/test_rulebook_fuzz.py), and
what a seat is told when it tries actions (tests/games/*/test_rulebook_leaks.py)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

from bigtop.core.actions import Action
from bigtop.core.errors import BigtopError
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


def refusals(state: State, probes: list[Action]) -> list[str]:
    """The engine's message for every probe ``state`` refuses ('-' for one it accepts; each
    probe is tried on a copy, so ``state`` is unchanged)."""
    out = []
    for a in probes:
        try:
            state.clone().apply(a)
            out.append("-")
        except BigtopError as e:
            out.append(str(e))
    return out
