"""What the others' moves this round say (``bench/scout_inference.py``): the round rebuilt as it
began for a drawn deal is, for the true deal, exactly the deal that was dealt (every player
count, several rounds, hands turned or not); the others' moves score finite for every
determinization and best for the true deal more often than not; the weighed draw reads only
what the seat sees and does not depend on which search asked before."""

from __future__ import annotations

import math
import random
from typing import cast

import pytest
from bench.scout_inference import Scorer, inferred, move_likelihood, round_start

from bigtop.agents.levels import make_bot
from bigtop.agents.neural import action_policy_for
from bigtop.core.registry import new_game
from bigtop.games.scout.bot import resample_believed
from bigtop.games.scout.rules import ScoutState


def _played(players: int, seed: int, options: dict[str, object],
            moves: int) -> tuple[ScoutState, list[list[tuple[int, int]]]]:
    """A game of random moves stopped mid-round, and the hands its round was dealt."""
    game = new_game("scout", players, options)
    state = game.new_initial_state(seed)
    assert isinstance(state, ScoutState)
    rng = random.Random(seed)
    dealt = [list(h) for h in state.hands]
    for _ in range(moves):
        if state.is_terminal():
            break
        before = state.round
        state.apply(rng.choice(state.legal_actions()))
        if state.round != before:
            dealt = [list(h) for h in state.hands]
    return state, dealt


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("options", [{}, {"hand_turn": "any-turn-once"},
                                     {"hand_turn": "off", "scout_last_card": "forbidden"}])
def test_the_true_deal_is_rebuilt_exactly(players: int, options: dict[str, object]) -> None:
    for seed in range(6):
        # Into the second round or beyond, and early in one.
        for moves in (7, 45, 90):
            state, dealt = _played(players, seed, options, moves)
            if state.is_terminal():
                continue
            begun = round_start(state, state)
            assert begun is not None
            replay, start = begun
            assert replay.hands == dealt
            for action in state.history[start:]:
                replay.apply(next(a for a in replay.legal_actions() if a == action))
            # The same position (its seed, which deals later rounds, is the probe's own).
            assert replay.to_json()["position"] == state.to_json()["position"]


def _scorer() -> Scorer:
    policy = action_policy_for(new_game("scout", 4))
    return lambda s, legal: policy.score_actions(s, legal).tolist()


def _midround(seed: int) -> ScoutState:
    """A four-player round of easy bots some moves in (the first seed from ``seed`` whose
    round is still going)."""
    game = new_game("scout", 4, {"rounds": 1})
    while True:
        state = game.new_initial_state(seed)
        bots = [make_bot("easy", game, q, seed + q) for q in range(4)]
        for _ in range(16):
            state.apply(bots[state.current_player()].act(state))
            if state.is_terminal():
                break
        if not state.is_terminal():
            assert isinstance(state, ScoutState)
            return state
        seed += 1000


def test_the_others_moves_score_the_true_deal_above_drawn_ones() -> None:
    scorer = _scorer()
    above = 0
    for seed in range(6):
        state = _midround(seed)
        truth, chosen = move_likelihood(state, state, 0, scorer)
        assert chosen > 0 and math.isfinite(truth)
        drawn = [move_likelihood(state, cast(ScoutState, resample_believed(state, 0, k)), 0,
                                 scorer)[0] for k in range(8)]
        assert all(math.isfinite(x) for x in drawn)
        above += sum(truth > x for x in drawn)
    assert above > 0.75 * 6 * 8


def test_the_weighed_draw_reads_only_the_seats_view() -> None:
    determinize = inferred(resample_believed, _scorer)
    for seed in range(3):
        state = _midround(seed)
        other = cast(ScoutState, state.resample_hidden(0, 99))  # same view, other cards
        assert other.hands[0] == state.hands[0] and other.hands[1:] != state.hands[1:]
        mine = [determinize(state, 0, k).to_json() for k in range(5)]
        theirs = [determinize(other, 0, k).to_json() for k in range(5)]
        assert mine == theirs
        # Asked first about another seat's decision, it draws the same again.
        determinize(state, 1, 3)
        assert [determinize(state, 0, k).to_json() for k in range(5)] == mine
