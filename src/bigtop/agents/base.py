"""Agents choose actions through the core API only.

An agent is given the live state but, to play fair, may use only what its seat can see:
``state.observation(seat)``, ``state.legal_actions()`` and ``state.describe``. Search agents
must first call ``state.resample_hidden(seat, seed)`` and search the copy.

>>> from bigtop import new_state
>>> s = new_state("scout", players=2, seed=1)
>>> a = RandomAgent(seed=5)
>>> a.act(s) in s.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from bigtop.core.actions import Action
from bigtop.core.errors import BigtopError
from bigtop.core.game import CHANCE, State, seat_to_act
from bigtop.core.rng import randbelow


class Agent(Protocol):
    name: str

    def act(self, state: State) -> Action:
        """The action to play in ``state`` (the agent's seat is ``state.current_player()``)."""
        ...


class RandomAgent:
    """Uniformly random legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def act(self, state: State) -> Action:
        seat_to_act(state)
        legal = state.legal_actions()
        return legal[randbelow(self._rng, len(legal))]


def random_step(state: State, rng: random.Random) -> Action:
    """Apply one random step: a chance outcome drawn from the state's seed, or a uniformly
    random legal action. Returns the action applied."""
    if state.current_player() == CHANCE:
        action = state.sample_chance()
    else:
        legal = state.legal_actions()
        action = legal[randbelow(rng, len(legal))]
    state.apply_listed(action)  # taken from the state's own lists: no second check
    return action


def play_random(state: State, rng: random.Random, max_actions: int | None = None) -> int:
    """Random steps until the game ends or ``max_actions`` were applied; returns how many.

    >>> from bigtop import new_state
    >>> s = new_state("scout", players=2, seed=1)
    >>> play_random(s, random.Random(0)) > 0 and s.is_terminal()
    True
    """
    steps = 0
    while not state.is_terminal() and (max_actions is None or steps < max_actions):
        random_step(state, rng)
        steps += 1
    return steps


def play_game(state: State, agents: Sequence[Agent], max_actions: int = 1_000_000) -> list[int]:
    """Play ``state`` to the end with one agent per seat (chance from the state's seed);
    returns the number of decisions each seat made."""
    decisions = [0] * state.game.num_players
    steps = 0
    while not state.is_terminal():
        p = state.current_player()
        if p == CHANCE:
            state.apply_chance()
        else:
            state.apply(agents[p].act(state))
            decisions[p] += 1
        steps += 1
        if steps > max_actions:
            raise BigtopError(f"game did not end within {max_actions} actions")
    return decisions
