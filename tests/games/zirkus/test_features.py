"""So ein Zirkus's action features (``games/zirkus/features.py``): one row per legal action,
declared in the game's capability record, and fair: what a seat cannot see — the future
die rolls (the state's seed) and, with secret clown, the others' colours — never changes
a row."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from bigtop.agents.neural import action_features_for
from bigtop.core.registry import capabilities, new_game
from bigtop.games.zirkus.features import (
    ACTION_COLUMNS,
    ENDS,
    FEATURES,
    FIRST_OF_SAME,
    KIND_COLUMNS,
    LOOK_AHEAD,
    action_features,
)
from bigtop.games.zirkus.rules import Move, ZirkusGame, ZirkusState
from tests.games.zirkus.helpers import clowns, load

_EMPTY = {"A3": None, "C4": None, "B5": None, "A6": None, "C7": None, "B8": None}


def _race(**options: Any) -> ZirkusState:
    """P0 (red) rolled white: clown 0 (red, on A2) can drop its ball into the 1-point hole,
    clown 1 (red, on B7) into the 6-point hole (the game's end: red wins 6 to 0), clown 2
    (yellow, on C6) hands yellow the 5-point hole."""
    game = new_game("so-ein-zirkus", 2, options)
    assert isinstance(game, ZirkusGame)
    return load(game, to_act=0, phase="act", roll="white", turn=9, colours=["red", "yellow"],
                clowns=clowns(("A2", ["red"]), ("B7", ["red"]), ("C6", ["yellow"])),
                holes=dict(_EMPTY))


def test_the_game_declares_its_features() -> None:
    game = new_game("so-ein-zirkus", 2)
    assert action_features_for(game) == (FEATURES, action_features)
    assert capabilities("so-ein-zirkus").action_features == (FEATURES, action_features)


def test_each_action_says_what_it_drops_and_whether_it_ends_the_game() -> None:
    s = _race()
    legal = s.legal_actions()
    rows = dict(zip(legal, action_features(s, legal), strict=True))
    assert all(len(r) == FEATURES for r in rows.values())
    c = KIND_COLUMNS
    own_hole = rows[Move(0, "F")]  # red into the 1-point hole
    assert own_hole[c + 8] == pytest.approx(1 / 6) and own_hole[c + 9] == 0.0
    rival_hole = rows[Move(2, "F")]  # yellow into the 5-point hole
    assert rival_hole[c + 8] == 0.0 and rival_hole[c + 9] == pytest.approx(5 / 6)
    win = rows[Move(1, "F")]  # red into the 6-point hole: the end, won
    assert win[ENDS] == 1.0 and win[ENDS + 1] == 1.0
    assert all(r[ENDS] == 0.0 for a, r in rows.items() if a != Move(1, "F"))
    # The rule of thumb takes the win, and scores every other action below it.
    assert win[ACTION_COLUMNS - 3] == win[ACTION_COLUMNS - 2] == 1.0
    assert win[ACTION_COLUMNS - 1] == 0.0
    assert all(r[ACTION_COLUMNS - 1] < 0 for a, r in rows.items() if a != Move(1, "F"))
    # Every position here is a different one, and the playouts were played.
    assert all(r[FIRST_OF_SAME] == 1.0 and r[LOOK_AHEAD + 1] == 1.0 for r in rows.values())
    assert win[LOOK_AHEAD] > rival_hole[LOOK_AHEAD]
    contexts = {tuple(r[ACTION_COLUMNS:]) for r in rows.values()}
    assert len(contexts) == 1  # the same position in every row


def test_paths_to_the_same_position_are_marked_alike() -> None:
    # Three balls on B2 (red on top, rolled red): FFR and FRF both drop the bottom yellow
    # into C4 and end there, FLF and LFF both drop it into A3 and end on A4.
    game = new_game("so-ein-zirkus", 2)
    assert isinstance(game, ZirkusGame)
    s = load(game, to_act=0, phase="act", roll="red", turn=5, colours=["red", "yellow"],
             clowns=clowns(("B2", ["yellow", "yellow", "red"]), ("A1", []), ("C1", [])),
             holes=dict(_EMPTY))
    legal = s.legal_actions()
    rows = dict(zip(legal, action_features(s, legal), strict=True))
    ends: dict[tuple[object, ...], list[Move]] = {}
    for a in legal:
        if isinstance(a, Move):
            after = s.clone()
            after.apply(a)
            key = (tuple(after.clown_field), tuple(after.hole_ball))
            ends.setdefault(key, []).append(a)
    alike = [moves for moves in ends.values() if len(moves) > 1]
    assert alike, "the position should have two paths to one position"
    for moves in alike:
        assert [rows[m][FIRST_OF_SAME] for m in moves] == [1.0] + [0.0] * (len(moves) - 1)
        assert all(rows[m][FIRST_OF_SAME + 1] > 0 for m in moves)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rows_are_finite_and_deterministic_along_random_games(players: int) -> None:
    rng = random.Random(players)
    decisions = 0
    for opts in ({}, {"shoving": "clumsy", "upside_down": True, "lazy_clown": True}):
        state = new_game("so-ein-zirkus", players, opts).new_initial_state(players)
        while not state.is_terminal() and decisions < 60 * players:
            if state.is_chance():
                state.apply_chance()
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.5:
                rows = action_features(state, legal)
                assert len(rows) == len(legal)
                assert all(len(r) == FEATURES and all(map(math.isfinite, r)) for r in rows)
                assert action_features(state.clone(), legal) == rows
                decisions += 1
            state.apply(rng.choice(legal))
    assert decisions > 20


@pytest.mark.parametrize("options", [{}, {"secret_clown": True},
                                     {"secret_clown": True, "tournament": "games",
                                      "tournament_games": 2}])
def test_features_never_read_hidden_things(options: dict[str, object]) -> None:
    """Along random games, each decision's rows are the same in the state with every hidden
    thing redrawn: the future rolls (the seed) and, with secret clown, the others'
    colours."""
    rng = random.Random(len(options))
    decisions = 0
    for players in (2, 3):
        state = new_game("so-ein-zirkus", players, options).new_initial_state(players + 7)
        while not state.is_terminal() and decisions < 40 * players:
            if state.is_chance():
                state.apply_chance()
                continue
            legal = state.legal_actions()
            if len(legal) > 1:
                p = state.current_player()
                other = state.resample_hidden(p, rng.getrandbits(32))
                assert other.observation(p) == state.observation(p)
                assert other.seed != state.seed
                assert action_features(other, legal) == action_features(state, legal)
                decisions += 1
            state.apply(rng.choice(legal))
    assert decisions > 40


def test_with_secret_clown_a_rivals_colour_is_not_read() -> None:
    """The same table with the other seat's colour swapped (unknown to P0 under secret
    clown) gives the same rows; without secret clown it is public, and read."""
    rows = {}
    for secret in (False, True):
        for rival in ("yellow", "blue"):
            s = _race(secret_clown=secret)
            s.colours = [0, 1 if rival == "yellow" else 2]
            rows[secret, rival] = action_features(s, s.legal_actions())
    assert rows[True, "yellow"] == rows[True, "blue"]
    assert rows[False, "yellow"] != rows[False, "blue"]
