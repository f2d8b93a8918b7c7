"""Shared fixtures and helpers."""

from __future__ import annotations

import random

from bigtop.core.game import CHANCE, State


def play_random(state: State, rng: random.Random, max_steps: int = 100_000) -> State:
    """Play random legal actions (chance from the state's own seed) to the end."""
    steps = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_chance()
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        steps += 1
        assert steps < max_steps, "game did not end"
    return state
