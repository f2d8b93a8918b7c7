"""A heuristic SCOUT player that uses only its own observation.

- Turn the hand if the turned hand holds stronger sets.
- Show when it can: the longest set that beats the active set, the weakest of those (keep
  strong sets for later); but go out whenever the whole hand can be shown.
- Otherwise Scout the end card that fits best, and insert it where it makes the strongest hand.
"""

from __future__ import annotations

import random

from bigtop.agents.ismcts import SearchProfile
from bigtop.core.actions import Action
from bigtop.core.game import Game, State
from bigtop.games.scout.rules import Insert, Scout, ScoutState, Show, TurnHand

_RUN_VALUE = [sum((n - k + 1) * k * k for k in range(2, n + 1)) for n in range(64)]
"""Index n: the summed length² of the multi-card sets inside a maximal run of n cards."""


def _hand_value(tops: list[int]) -> int:
    """How good a hand is: the sum over its valid multi-card sets of length² (sets that
    could be shown later). Each set lies in one maximal run of equal steps (0, +1 or −1), so
    the runs are summed in one pass.

    >>> from bigtop.games.scout.rules import _valid_sets
    >>> tops = [3, 4, 5, 5, 9]
    >>> _hand_value(tops) == sum(n * n for _, n, _ in _valid_sets(tops) if n > 1)
    True
    """
    total = 0
    n = len(tops)
    i = 0
    while i < n - 1:
        step = tops[i + 1] - tops[i]
        if step < -1 or step > 1:
            i += 1
            continue
        j = i + 1
        while j + 1 < n and tops[j + 1] - tops[j] == step:
            j += 1
        total += _RUN_VALUE[j - i + 1]
        i = j
    return total


class ScoutBot:
    name = "scout-heuristic"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def act(self, state: State) -> Action:
        assert isinstance(state, ScoutState)
        legal = state.legal_actions()
        p = state.current_player()
        tops = [c[0] for c in state.hands[p]]
        if any(isinstance(a, TurnHand) for a in legal):
            turned = [c[1] for c in reversed(state.hands[p])]
            if _hand_value(turned) > _hand_value(tops):
                return state.game.turn_hand
        shows = [a for a in legal if isinstance(a, Show)]
        if shows:
            out = [a for a in shows if a.length == len(tops)]
            if out:
                return out[0]
            longest = max(a.length for a in shows)
            best = [a for a in shows if a.length == longest]
            # Among the longest, play the weakest (lowest first top number).
            return min(best, key=lambda a: min(tops[a.start:a.start + a.length]))
        inserts = [a for a in legal if isinstance(a, Insert)]
        if inserts:
            card = state.pending
            assert card is not None

            def score(a: Insert) -> int:
                t = list(tops)
                t.insert(a.position, card[1] if a.flip else card[0])
                return _hand_value(t)

            scores = [score(a) for a in inserts]
            best_score = max(scores)
            return self._rng.choice([a for a, v in zip(inserts, scores, strict=True)
                                     if v == best_score])
        scouts = [a for a in legal if isinstance(a, Scout)]
        if scouts:
            # Prefer a plain scout of the end card whose numbers fit the hand best.
            def fit(a: Scout) -> int:
                card = state.active[0] if a.end == "left" else state.active[-1]
                return max(_hand_value([*tops, v]) for v in card) - (5 if a.and_show else 0)

            return max(scouts, key=fit)
        return legal[0]


def heuristic_agent(game: Game, seat: int) -> ScoutBot:
    return ScoutBot(seed=seat)


def _rollout_player(game: Game, seat: int) -> ScoutBot:
    return ScoutBot(seed=seat)


def round_number(state: State) -> int:
    """The round being played (the search's rollouts stop when it changes)."""
    assert isinstance(state, ScoutState)
    return state.round


SEARCH = SearchProfile(rollout=_rollout_player, epsilon=0.1, stage=round_number,
                       score_scale=6.0,
                       summary=("heuristic rollouts to the round's end, "
                                "score-difference reward"))
"""IS-MCTS in SCOUT: heuristic rollouts to the end of the round, score-difference reward."""


def search_profile(game: Game) -> SearchProfile:
    return SEARCH
