"""A 1-ply Monte Carlo planner with common random numbers, for every game on the core API.

For each of ``samples`` determinizations (``state.resample_hidden(seat, seed)``: everything
the seat cannot see redrawn, future chance included) every candidate action is applied to a
copy and played on by the game's rollout bots (a :class:`~bigtop.agents.ismcts.SearchProfile`:
to the round's end or a horizon, scored by score difference). All candidates of one sample
share that sample's determinization, its future dice, deals and throws (chance draws from the
state's seed and the move count) and one rollout seed: they are compared under the same luck,
which removes most of the noise of games of chance. The candidate with the best mean reward
is played; ties go to the move the rollout bot itself would make, and with the profile's
``keep_default`` so does a best move that is not clearly better than that one.

>>> from bigtop import new_state
>>> from bigtop.agents.levels import search_profile
>>> s = new_state("so-ein-zirkus", players=2, seed=3)
>>> while s.is_chance():
...     _ = s.apply_chance()
>>> bot = PlannerAgent(samples=4, seed=1, profile=search_profile(s.game))
>>> bot.act(s) in s.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import replace

from bigtop.agents.base import Agent
from bigtop.agents.ismcts import SearchProfile, determinization, playout, values
from bigtop.core.actions import Action
from bigtop.core.errors import BigtopError
from bigtop.core.game import Game, State, seat_to_act


class PlannerAgent:
    """``samples`` determinizations per decision, each playing out every candidate once.

    ``time_limit`` (seconds) also stops sampling once that much time has passed (at least
    one sample is always taken); without it a decision depends only on the observation, the
    seed and ``samples``.
    """

    name = "planner"

    def __init__(self, samples: int, seed: int, profile: SearchProfile,
                 time_limit: float | None = None, max_rollout: int = 100_000) -> None:
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise BigtopError(f"iterations must be a whole number >= 1, got {samples!r}")
        if time_limit is not None and not time_limit > 0:
            raise BigtopError(f"time_limit must be a positive number of seconds, got "
                              f"{time_limit!r}")
        if profile.rollout is None:
            raise BigtopError("the planner needs a profile with a rollout bot")
        self.iterations = samples
        self.profile = profile
        self.time_limit = time_limit
        self.limit = min(max_rollout, profile.horizon or max_rollout)
        self._rng = random.Random(seed)
        self._own: dict[tuple[Game, int], Agent] = {}

    def act(self, state: State) -> Action:
        seat_to_act(state, self.profile.game)
        profile = self.profile
        make = profile.rollout
        assert make is not None
        legal = list(profile.candidates(state)) if profile.candidates else state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        game = state.game
        me = state.current_player()
        # The rollout bot's own choice breaks ties (it reads only what the seat may see).
        # With keep_default it is the move usually played, so it must be that bot's move
        # exactly: one bot per seat across decisions, keeping any memory it has (Clown 15
        # Go's); else a fresh bot.
        if profile.keep_default > 0:
            own = self._own.get((game, me))
            if own is None:
                own = self._own[(game, me)] = make(game, me)
        else:
            own = make(game, me)
        default = own.act(state.clone())
        rewards_of: list[list[float]] = [[] for _ in legal]
        # In the game's last stage the final standing decides: rewards count every seat's
        # value itself against the best other seat's, not the gains from here.
        standing = profile.final_stage is not None and profile.final_stage(state)
        if standing:
            profile = replace(profile, against_best=True)
        deadline = (time.perf_counter() + self.time_limit) if self.time_limit else None
        for k in range(self.iterations):
            if deadline is not None and k and time.perf_counter() > deadline:
                break
            det = determinization(profile, state, me, self._rng.getrandbits(63))
            base = [0.0] * game.num_players if standing else values(det, profile)
            rollout_seed = self._rng.getrandbits(63)
            for i, action in enumerate(legal):
                copy = det.clone()
                copy.apply(action)
                players = [make(game, q) for q in range(game.num_players)]
                rewards = playout(copy, base, profile, players, random.Random(rollout_seed),
                                  self.limit)
                rewards_of[i].append(rewards[me])
        totals = [sum(r) for r in rewards_of]
        best = max(range(len(legal)), key=lambda i: (totals[i], legal[i] == default))
        if profile.keep_default > 0 and default in legal and legal[best] != default:
            d = legal.index(default)
            if not _clearly_better(rewards_of[best], rewards_of[d], profile.keep_default):
                return default
        return legal[best]


def _clearly_better(a: list[float], b: list[float], z: float) -> bool:
    """Whether the paired differences ``a - b`` (same determinizations) have a mean above
    ``z`` standard errors.

    >>> _clearly_better([1.0, 0.9, 1.0], [0.0, 0.1, 0.0], 2.0)
    True
    >>> _clearly_better([1.0, 0.0, 0.6], [0.0, 0.9, 0.5], 1.0)
    False
    """
    n = len(a)
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return mean > 0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > z * math.sqrt(var / n)
