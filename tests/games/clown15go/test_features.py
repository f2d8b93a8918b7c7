"""Clown 15 Go's action features (``games/clown15go/features.py``): one row per legal action,
declared in the game's capability record, and fair: a position that differs only in what
the mover cannot see (the order of closed piles dealt at the start) gives the same rows,
while a renewed pile's public order (ruling G4) is read."""

from __future__ import annotations

import random

import pytest

from bigtop.agents.neural import action_features_for
from bigtop.core.errors import BigtopError
from bigtop.core.registry import capabilities, new_game
from bigtop.games.clown15go.features import (
    ACTION_COLUMNS,
    FEATURES,
    FIRST_OF_EQUAL,
    KNOWN_RUN,
    LOOK_AHEAD,
    action_features,
)
from bigtop.games.clown15go.rules import Clown15GoGame, Clown15GoState, ToPile, ToRow
from tests.games.clown15go.helpers import position


def _table(p0_closed: list[str], p1_closed: list[str], recycled: bool,
           both: bool = False) -> Clown15GoState:
    # P0 places R5: on row 0 or row 1 (both top 4: equal rows) or on P1's open R6.
    return position(closed=[p0_closed, p1_closed], open=[["O15"], ["R6"]],
                    rows=[["R1", "R2", "R3", "R4"], ["O1", "O2", "O3", "O4"]],
                    pending="R5", recycled=[recycled, both], filler=1)


def test_the_game_declares_its_features_and_others_are_refused_by_name() -> None:
    game = new_game("clown-15-go", 2)
    assert action_features_for(game) == (FEATURES, action_features)
    assert capabilities("clown-15-go").action_features == (FEATURES, action_features)
    with pytest.raises(BigtopError, match="no action features for tricky-landing"):
        action_features_for(new_game("tricky-landing", 3))


def test_each_action_is_described_and_equal_rows_stand_for_one() -> None:
    s = _table(["O9", "O5"], ["R7"], recycled=False)
    legal = s.legal_actions()
    assert legal == [ToRow(0), ToRow(1), ToPile(1)]
    rows = action_features(s, legal)
    assert [len(r) for r in rows] == [FEATURES] * 3
    assert [r[FIRST_OF_EQUAL] for r in rows] == [1.0, 0.0, 0.0]
    assert sum(r[ACTION_COLUMNS - 2] for r in rows) == 1.0  # one easy choice
    assert rows[0][ACTION_COLUMNS:] == rows[2][ACTION_COLUMNS:]  # the same context


def test_hidden_orders_are_not_read_but_a_renewed_piles_order_is() -> None:
    # Dealt piles: which card comes next is hidden from everybody (G4).
    a = _table(["O9", "O5"], ["R7", "R8"], recycled=False)
    b = _table(["O5", "O9"], ["R8", "R7"], recycled=False)
    assert a.to_json() != b.to_json()
    assert action_features(a, a.legal_actions()) == action_features(b, b.legal_actions())
    # A pile renewed by turning the open pile over: its order is public, and read. With O5
    # next, R5 on row 0 lets O5 follow on row 1; with O9 next, nothing follows.
    known = _table(["O9", "O5"], ["R7", "R8"], recycled=True)
    other = _table(["O5", "O9"], ["R7", "R8"], recycled=True)
    run_known = [r[KNOWN_RUN] for r in action_features(known, known.legal_actions())]
    run_other = [r[KNOWN_RUN] for r in action_features(other, other.legal_actions())]
    assert run_known[0] > 0 and run_other[0] == 0
    # The easy bots' playout only once no pile's order is hidden (here P1's is dealt).
    assert all(r[LOOK_AHEAD + 1] == 0.0 for r in action_features(known, known.legal_actions()))
    open_all = _table(["O9", "O5"], ["R7", "R8"], recycled=True, both=True)
    rows = action_features(open_all, open_all.legal_actions())
    assert all(r[LOOK_AHEAD + 1] == 1.0 for r in rows) and rows[0][LOOK_AHEAD] != 0.0


@pytest.mark.parametrize("players", [2, 4])
def test_features_never_read_hidden_cards(players: int) -> None:
    """Along random games with every advanced rule's options (small decks), the rows of
    each decision are the same in the state with every hidden card redrawn."""
    rng = random.Random(players)
    decisions = 0
    for opts in Clown15GoGame.conformance_options(players):
        game = new_game("clown-15-go", players, opts)
        state = game.new_initial_state(rng.getrandbits(32))
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) > 1:
                p = state.current_player()
                other = state.resample_hidden(p, rng.getrandbits(32))
                assert other.observation(p) == state.observation(p)
                assert action_features(other, legal) == action_features(state, legal), opts
                decisions += 1
            state.apply(rng.choice(legal))
    assert decisions > 20
