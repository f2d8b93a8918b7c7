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
from typing import Protocol

from bigtop.core.actions import Action
from bigtop.core.game import State


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
        legal = state.legal_actions()
        return legal[self._rng.randrange(len(legal))]
