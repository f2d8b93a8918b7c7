"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley and
Whitehouse 2012), for every game on the core API.

Each iteration draws a determinization with ``state.resample_hidden(seat, seed)`` — everything
the searching seat cannot see is redrawn, future chance included — then walks one shared tree
keyed by actions. A child's UCB uses its *availability* count (how often it was legal when its
parent was visited) instead of the parent's visit count, since different determinizations
allow different actions. Rollouts are uniformly random; the reward is a share of the win
(``1/len(winners)`` for each winner), so the agent plays to win whatever the scoring.

>>> from bigtop import new_state
>>> s = new_state("scout", players=3, seed=2, options={"rounds": 1})
>>> agent = ISMCTSAgent(iterations=20, seed=1)
>>> agent.act(s) in s.legal_actions()
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from bigtop.agents.base import play_random
from bigtop.core.actions import Action
from bigtop.core.game import CHANCE, State


@dataclass(eq=False)
class _Node:
    mover: int  # the seat that chose the action leading here
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    children: dict[Action, _Node] = field(default_factory=dict)


def _win_shares(state: State) -> list[float]:
    winners = state.winners()
    share = 1.0 / len(winners)
    return [share if p in winners else 0.0 for p in range(state.game.num_players)]


class ISMCTSAgent:
    """``iterations`` determinized playouts per decision; ``exploration`` is UCB's c."""

    name = "ismcts"

    def __init__(self, iterations: int = 200, exploration: float = 0.7, seed: int = 0,
                 max_rollout: int = 100_000) -> None:
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.iterations = iterations
        self.exploration = exploration
        self.max_rollout = max_rollout
        self._rng = random.Random(seed)

    def act(self, state: State) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        rng = self._rng
        root = _Node(mover=-1)
        for _ in range(self.iterations):
            det = state.resample_hidden(me, rng.getrandbits(63))
            path = [root]
            node = root
            # Selection and expansion.
            while not det.is_terminal():
                if det.current_player() == CHANCE:
                    det.apply_listed(det.sample_chance())
                    continue
                mover = det.current_player()
                options = det.legal_actions()
                untried = [a for a in options if a not in node.children]
                for a in options:
                    child = node.children.get(a)
                    if child is not None:
                        child.available += 1
                if untried:
                    action = untried[rng.randrange(len(untried))]
                    child = _Node(mover=mover, available=1)
                    node.children[action] = child
                    det.apply_listed(action)
                    path.append(child)
                    break
                action = self._select(node, options)
                det.apply_listed(action)
                node = node.children[action]
                path.append(node)
            play_random(det, rng, self.max_rollout)
            shares = _win_shares(det) if det.is_terminal() else [
                1.0 / state.game.num_players] * state.game.num_players
            for n in path:
                n.visits += 1
                if n.mover >= 0:
                    n.reward += shares[n.mover]
        best = max(legal, key=lambda a: (root.children[a].visits if a in root.children else -1))
        return best

    def _select(self, node: _Node, options: list[Action]) -> Action:
        c = self.exploration
        best_action = options[0]
        best_value = -math.inf
        for a in options:
            child = node.children[a]
            value = child.reward / child.visits + c * math.sqrt(
                math.log(child.available) / child.visits)
            if value > best_value:
                best_value = value
                best_action = a
        return best_action
