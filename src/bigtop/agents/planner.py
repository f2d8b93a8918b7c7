"""A 1-ply Monte Carlo planner with common random numbers, for every game on the core API.

For each of ``samples`` determinizations (``state.resample_hidden(seat, seed)``: everything
the seat cannot see redrawn, future chance included) every candidate action is applied to a
copy and played on by the game's rollout bots (a :class:`~bigtop.agents.ismcts.SearchProfile`:
to the round's end or a horizon, scored by score difference). All candidates of one sample
share that sample's determinization, its future dice, deals and throws (chance draws from the
state's seed and the move count) and one rollout seed: they are compared under the same luck,
which removes most of the noise of games of chance. The candidate with the best mean reward
is played; ties go to the move the rollout bot itself would make.

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

import random
import time

from bigtop.agents.ismcts import SearchProfile, playout, values
from bigtop.core.actions import Action
from bigtop.core.errors import BigtopError
from bigtop.core.game import State


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

    def act(self, state: State) -> Action:
        profile = self.profile
        make = profile.rollout
        assert make is not None
        legal = list(profile.candidates(state)) if profile.candidates else state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        game = state.game
        me = state.current_player()
        # The rollout bot's own choice breaks ties (it reads only what the seat may see).
        default = make(game, me).act(state.clone())
        totals = [0.0] * len(legal)
        deadline = (time.perf_counter() + self.time_limit) if self.time_limit else None
        for k in range(self.iterations):
            if deadline is not None and k and time.perf_counter() > deadline:
                break
            det = state.resample_hidden(me, self._rng.getrandbits(63))
            base = values(det, profile)
            rollout_seed = self._rng.getrandbits(63)
            for i, action in enumerate(legal):
                copy = det.clone()
                copy.apply(action)
                players = [make(game, q) for q in range(game.num_players)]
                rewards = playout(copy, base, profile, players, random.Random(rollout_seed),
                                  self.limit)
                totals[i] += rewards[me]
        best = max(range(len(legal)), key=lambda i: (totals[i], legal[i] == default))
        return legal[best]
