"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley and
Whitehouse 2012), for every game on the core API.

Each iteration draws a determinization with ``state.resample_hidden(seat, seed)`` — everything
the searching seat cannot see is redrawn, future chance included — then walks one shared tree
keyed by actions. A child's UCB uses its *availability* count (how often it was legal when its
parent was visited) instead of the parent's visit count, since different determinizations
allow different actions.

Plain (``profile=None``, the ``ismcts`` bot): rollouts are uniformly random to the end of the
game and the reward is a share of the win (``1/len(winners)`` for each winner). A
:class:`SearchProfile` (each game's, in ``games/<g>/bot.py``; the ``medium`` and ``hard``
levels) makes the search stronger: rollouts played by the game's heuristic bot, cut at the
end of the round (scores are then exact for the round, and later rounds are nearly
symmetric), a score-difference reward, and the actions worth searching.

>>> from bigtop import new_state
>>> s = new_state("scout", players=3, seed=2, options={"rounds": 1})
>>> agent = ISMCTSAgent(iterations=20, seed=1)
>>> agent.act(s) in s.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bigtop.agents.base import Agent, play_random
from bigtop.core.actions import Action
from bigtop.core.errors import BigtopError
from bigtop.core.game import CHANCE, Game, State, seat_to_act


@dataclass(frozen=True)
class SearchProfile:
    """How the search plays one game (every field a module-level function, so a bot pickles
    for worker processes).

    - ``rollout``: makes the rollout player of a seat, ``rollout(game, seat) -> Agent``; it
      plays the determinization (so it may read the whole copy); ``None`` = uniformly random.
    - ``epsilon``: share of rollout moves played uniformly at random instead (variety).
    - ``stage``: a number that changes when a round ends; a rollout stops there and the
      state is scored as it stands. ``None`` = play to the end of the game.
    - ``score_scale``: 0 rewards win shares; above 0 the reward of seat ``p`` is
      ``(1 + tanh(m / score_scale)) / 2`` where ``m`` is ``p``'s score minus the mean of the
      others' (a score-difference reward).
      The margin counts from the determinization's scores before the iteration, so points
      won earlier in the game do not saturate the reward.
    - ``against_best``: with a ``score_scale``, ``m`` is the seat's gain minus the best
      gain of the others instead of their mean (a win is beating the best of them, and a
      point given to the leader then costs more than one given to the last).
    - ``candidates``: the actions the tree considers in a state (a subset of the legal
      ones, e.g. a few throws per card); ``None`` = all legal actions.
    - ``horizon``: at most this many rollout steps (then the state is scored as it stands).
    - ``evaluate``: every seat's value of a state for the score-difference reward (e.g.
      points plus likely points soon); ``None`` = ``state.scores()``.
    - ``keep_default``: planner only — play the rollout bot's own move unless another beats
      it by more than this many standard errors of the paired reward differences (0: the
      best mean always wins). Where skill matters little, a few noisy samples would
      otherwise overrule a good heuristic.
    - ``final_stage``: planner only — whether a searched state is in the game's last stage
      (its last round). There the reward of a seat is its value itself against the best
      other seat's (the standing that decides the game), not the gains since the search
      began: a leader guards the lead, a seat behind takes the risk that can win.
      ``None`` = never.
    - ``summary``: one line saying what the search does in this game (``bigtop bots``).
    - ``game``: the name of the game it searches (``levels.search_profile`` sets it); a
      state of another game is refused by name. ``None`` = not checked.
    - ``determinize``: how a determinization is drawn for a seat,
      ``determinize(state, seat, seed)``, from what that seat sees only (e.g. weighting the
      hidden cards by what the others' public moves suggest); ``None`` =
      ``state.resample_hidden(seat, seed)``, every hidden card equally likely anywhere.
    """

    rollout: Callable[[Game, int], Agent] | None = None
    epsilon: float = 0.0
    stage: Callable[[State], int] | None = None
    score_scale: float = 0.0
    candidates: Callable[[State], Sequence[Action]] | None = None
    horizon: int | None = None
    evaluate: Callable[[State], list[float]] | None = None
    against_best: bool = False
    keep_default: float = 0.0
    final_stage: Callable[[State], bool] | None = None
    summary: str = "IS-MCTS"
    game: str | None = field(default=None, compare=False)
    determinize: Callable[[State, int, int], State] | None = None


def determinization(profile: SearchProfile | None, state: State, seat: int, seed: int) -> State:
    """One determinization of ``state`` for ``seat``, drawn as ``profile`` says."""
    if profile is None or profile.determinize is None:
        return state.resample_hidden(seat, seed)
    return profile.determinize(state, seat, seed)


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


def score_rewards(scores: Sequence[float], scale: float,
                  against_best: bool = False) -> list[float]:
    """Each seat's reward in [0, 1] from its score minus the mean of the others' scores
    (``against_best``: minus the best of the others' scores).

    >>> [round(r, 3) for r in score_rewards([10.0, 4.0, 4.0], 6.0)]
    [0.881, 0.269, 0.269]
    >>> [round(r, 3) for r in score_rewards([10.0, 4.0, 1.0], 6.0, against_best=True)]
    [0.881, 0.119, 0.047]
    """
    n = len(scores)
    total = sum(scores)
    out = []
    for i, s in enumerate(scores):
        if against_best:
            margin = s - max(x for k, x in enumerate(scores) if k != i)
        else:
            margin = s - (total - s) / (n - 1)
        out.append(0.5 + 0.5 * math.tanh(margin / scale))
    return out


def values(state: State, profile: SearchProfile | None) -> list[float]:
    """Every seat's value of ``state`` under ``profile`` (its ``evaluate``, else the scores)."""
    evaluate = profile.evaluate if profile else None
    return evaluate(state) if evaluate is not None else state.scores()


def playout(det: State, base: list[float], profile: SearchProfile, players: list[Agent],
            rng: random.Random, limit: int) -> list[float]:
    """Play the determinization on with ``players`` (one per seat; a share ``epsilon`` of
    moves at random), to the end of the round with a ``stage``, the end of the game, or
    ``limit`` steps, and return every seat's reward: the score-difference reward of the
    gains over ``base`` with a ``score_scale``, else win shares (even shares when cut)."""
    stage = profile.stage
    start = stage(det) if stage is not None else 0
    eps = profile.epsilon
    steps = 0
    while not det.is_terminal() and steps < limit:
        if stage is not None and stage(det) != start:
            break
        p = det.current_player()
        if p == CHANCE:
            det.apply_chance()
        elif eps and rng.random() < eps:
            legal = det.legal_actions()
            det.apply(legal[rng.randrange(len(legal))])
        else:
            det.apply(players[p].act(det))
        steps += 1
    if profile.score_scale > 0:
        gains = [s - b for s, b in zip(values(det, profile), base, strict=True)]
        return score_rewards(gains, profile.score_scale, profile.against_best)
    if det.is_terminal():
        return _win_shares(det)
    n = det.game.num_players
    return [1.0 / n] * n


class ISMCTSAgent:
    """``iterations`` determinized playouts per decision; ``exploration`` is UCB's c.

    ``time_limit`` (seconds, for interactive play) also stops the search once that much time
    has passed; without it a decision depends only on the observation, the seed and the
    iteration budget.
    """

    name = "ismcts"

    def __init__(self, iterations: int = 200, exploration: float = 0.7, seed: int = 0,
                 max_rollout: int = 100_000, profile: SearchProfile | None = None,
                 time_limit: float | None = None) -> None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise BigtopError(f"iterations must be a whole number >= 1, got {iterations!r}")
        if time_limit is not None and not time_limit > 0:
            raise BigtopError(f"time_limit must be a positive number of seconds, got "
                              f"{time_limit!r}")
        self.iterations = iterations
        self.exploration = exploration
        self.max_rollout = max_rollout
        self.profile = profile
        self.time_limit = time_limit
        self._rng = random.Random(seed)
        self._players: dict[Game, list[Agent]] = {}

    def _rollout_players(self, game: Game) -> list[Agent] | None:
        make = self.profile.rollout if self.profile else None
        if make is None:
            return None
        players = self._players.get(game)
        if players is None:
            players = [make(game, q) for q in range(game.num_players)]
            self._players = {game: players}
        return players

    def _options(self, state: State) -> Sequence[Action]:
        pick = self.profile.candidates if self.profile else None
        return pick(state) if pick is not None else state.legal_actions()

    def act(self, state: State) -> Action:
        seat_to_act(state, self.profile.game if self.profile else None)
        legal = self._options(state)
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        rng = self._rng
        root = _Node(mover=-1)
        players = self._rollout_players(state.game)
        deadline = (time.perf_counter() + self.time_limit) if self.time_limit else None
        for i in range(self.iterations):
            if deadline is not None and i and time.perf_counter() > deadline:
                break
            det = determinization(self.profile, state, me, rng.getrandbits(63))
            base = self._values(det)
            path = [root]
            node = root
            # Selection and expansion.
            while not det.is_terminal():
                if det.current_player() == CHANCE:
                    det.apply_listed(det.sample_chance())
                    continue
                mover = det.current_player()
                options = self._options(det)
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
            shares = self._playout(det, base, players, rng)
            for n in path:
                n.visits += 1
                if n.mover >= 0:
                    n.reward += shares[n.mover]
        return max(legal, key=lambda a: (root.children[a].visits if a in root.children else -1))

    def _playout(self, det: State, base: list[float], players: list[Agent] | None,
                 rng: random.Random) -> list[float]:
        limit = self.max_rollout
        if self.profile is not None and self.profile.horizon is not None:
            limit = min(limit, self.profile.horizon)
        if players is None or self.profile is None:
            play_random(det, rng, limit)
            if det.is_terminal():
                return _win_shares(det)
            n = det.game.num_players
            return [1.0 / n] * n
        return playout(det, base, self.profile, players, rng, limit)

    def _values(self, state: State) -> list[float]:
        return values(state, self.profile)

    def _select(self, node: _Node, options: Sequence[Action]) -> Action:
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
