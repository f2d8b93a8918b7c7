"""So ein Zirkus's observation tensor (tensor.py; layout in docs/so-ein-zirkus.md,
"Observation tensor"): fixed size per board, hand-checked entries on documented positions,
computed from the observation only (unchanged when hidden information is resampled)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bigtop.core.errors import BigtopError
from bigtop.core.registry import new_game
from bigtop.games.zirkus import ZirkusGame, ZirkusState, read_board_file
from bigtop.games.zirkus.tensor import ZirkusLayout
from bigtop.interop.tensors import layout_for
from tests.conftest import random_game_states
from tests.games.zirkus.helpers import clowns, load

BOARD_FILE = read_board_file(str(Path(__file__).parent / "boards" / "board-4x10.json"))


def game(players: int = 3, **opts: object) -> ZirkusGame:
    g = new_game("so-ein-zirkus", players, opts)
    assert isinstance(g, ZirkusGame)
    return g


def views(g: ZirkusGame, t: list[float]) -> dict[str, np.ndarray[Any, Any]]:
    """The named pieces of ``t`` (``Game.observation_tensor``'s list), as the layout's."""
    return ZirkusLayout(g).views(np.asarray(t))


def states(g: ZirkusGame, seed: int, every: int = 7) -> list[ZirkusState]:
    """Every ``every``-th state of a random game, the last one too."""
    out = random_game_states(g, seed, every)
    assert all(isinstance(s, ZirkusState) for s in out)
    return [s for s in out if isinstance(s, ZirkusState)]


def test_size_depends_on_the_board_only() -> None:
    for players in (2, 3, 4):
        assert game(players).observation_tensor_shape() == (234,)  # 3 (24 + 22) + 6 * 6 + 60
        assert game(players, board="4x10").observation_tensor_shape() == (300,)  # 40 f, 9 holes
        assert game(players, board=BOARD_FILE, secret_clown=True,
                    tournament="score").observation_tensor_shape() == (300,)
    for g in (game(4), game(4, board="4x10")):  # 3 (F + 22) + 6 H + 60, the module doc's
        assert ZirkusLayout(g).size == 3 * (g.board.size + 22) + 6 * len(g.board.holes) + 60


def test_the_adapters_use_the_games_own_layout() -> None:
    g = game(2)
    layout = layout_for(g)
    assert isinstance(layout, ZirkusLayout) and layout.size == 234
    views = layout.views(layout.tensor(g.new_initial_state(5), 1))
    assert views["clowns"].shape == (3, 46) and views["seats"].shape == (4, 8)
    s = g.new_initial_state(5)
    want = np.asarray(g.observation_tensor(s, 1), np.float32)
    assert np.array_equal(layout.tensor(s, 1), want)


# The position of docs/so-ein-zirkus.md ("State JSON"), after P1 rolled black; seen by P2.
DOC_CLOWNS = clowns(("B4", ["red", "blue"]), ("A2", ["yellow"]), ("C6", ["red", "yellow", "blue"]))
DOC_HOLES = {"A3": "yellow", "C4": None, "B5": None, "A6": None, "C7": None, "B8": None}


def test_documented_position_hand_checked() -> None:
    g = game(3)
    s = load(g, to_act=1, phase="act", roll="black", turn=5, colours=["red", "yellow", "blue"],
             clowns=DOC_CLOWNS, holes=DOC_HOLES)
    t = g.observation_tensor(s, 2)
    assert len(t) == 234
    ones = {i for i, x in enumerate(t) if x == 1.0}
    # Clown 0 on B4 (field 3 * 1 + 1 = 10) holds red, blue: slot 0 red (25), slot 1 blue
    # (25 + 4 + 2), top blue (37 + 2), two balls (41 + 2), can move (45).
    assert {10, 25, 31, 39, 43, 45} <= ones
    assert sum(t[0:46]) == 6
    # Clown 1 on A2 (field 3), clown 2 on C6 (field 17) with three balls (44).
    assert t[46 + 3] == 1 and t[46 + 41 + 1] == 1
    assert t[92 + 17] == 1 and t[92 + 44] == 1 and t[92 + 24] == 0
    # Holes from 138, six floats each: A3 holds yellow (138 + 2), worth 1/6; B8 is empty.
    assert t[140] == 1 and t[143] == pytest.approx(1 / 6)
    assert t[138 + 30] == 1 and t[173] == 1.0
    # Supply (174): red 1, yellow 0, blue 1, green 0 (out of play), in thirds.
    assert t[174:178] == pytest.approx([1 / 3, 0, 1 / 3, 0])
    assert t[178:182] == [1, 1, 1, 0]  # colours in play
    assert t[182:186] == pytest.approx([0, 1 / 21, 0, 0])  # yellow's 1 point of 21
    assert t[186:190] == [0, 1, 0, 0]  # phase: act on the roll
    assert t[190:196] == [0, 0, 0, 0, 1, 0]  # rolled black
    # Seats relative to P2: seat 0 = P2 (blue), seat 1 = P0 (red), seat 2 = P1 (yellow, to
    # move, 1 point); seat 3 is empty.
    assert t[196:204] == [0, 0, 0, 1, 0, 0, 0, 0]
    assert t[204:212] == [0, 1, 0, 0, 0, 0, 0, 0]
    assert t[212:220] == pytest.approx([1, 0, 1, 0, 0, 0, 1 / 21, 0])
    assert t[220:228] == [0] * 8
    assert t[228:234] == pytest.approx([5 / 1000, 0, 0, 0, 1, 0])
    # Seen by P0, the seats turn: P0 is seat 0, P1 (to move) seat 1.
    t0 = g.observation_tensor(s, 0)
    assert t0[196:198] == [0, 1] and t0[204] == 1 and t0[205] == 0
    assert t0[:196] == t[:196] and t0[228:] == t[228:]


def test_secret_colours_are_hidden_and_resampling_changes_nothing() -> None:
    g = game(3, secret_clown=True)
    s = load(g, to_act=0, phase="roll", colours=["green", "red", "blue"], clowns=DOC_CLOWNS,
             holes=DOC_HOLES)
    t = g.observation_tensor(s, 1)
    assert t[178:182] == [1, 1, 1, 1]  # Z11: all four colours in play
    assert t[186:190] == [1, 0, 0, 0] and t[190:196] == [0] * 6  # the die is still to roll
    assert t[196:204] == [0, 1, 0, 0, 0, 0, 0, 0]  # seat 0 = P1: red, seen
    # P2 (seat 1) and P0 (seat 2, to roll): colour hidden, points unknown (0) although yellow
    # has a point on the board.
    assert t[204:212] == [0, 0, 0, 0, 0, 1, 0, 0]
    assert t[212:220] == [1, 0, 0, 0, 0, 1, 0, 0]
    changed = 0
    for seed in range(12):
        other = s.resample_hidden(1, seed)
        assert isinstance(other, ZirkusState)
        changed += other.colours != s.colours
        assert g.observation_tensor(other, 1) == t
    assert changed > 0, "resampling never redrew the hidden colours"


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("opts", [
    {}, {"secret_clown": True}, {"board": "4x10", "secret_clown": True},
    {"board": BOARD_FILE, "shoving": "clumsy", "tournament": "games", "tournament_games": 2},
    {"secret_clown": True, "tournament": "score", "tournament_score": 12},
], ids=["default", "secret", "4x10-secret", "file-clumsy-games", "secret-score"])
def test_random_games_fixed_size_well_formed_and_private(players: int,
                                                         opts: dict[str, object]) -> None:
    g = game(players, **opts)
    size = g.observation_tensor_shape()[0]
    fields = g.board.size
    for i, s in enumerate(states(g, seed=players * 10 + len(opts))):
        for p in range(players):
            t = g.observation_tensor(s, p)
            assert len(t) == size and all(math.isfinite(x) and x >= 0 for x in t)
            v = views(g, t)
            for clown in v["clowns"]:  # each clown on exactly one field or off the board
                assert clown[:fields + 1].sum() == 1
                assert clown[fields + 17:fields + 21].sum() == 1  # ball count
            assert v["holes"].sum() == pytest.approx(len(g.board.holes) + sum(g.hole_value) / 6)
            assert v["phase"].sum() == 1
            assert (v["phase"][3] == 1) == s.is_terminal()
            seats = v["seats"]
            assert seats[0, 1:6].tolist().count(1.0) == 1  # the observer's own colour is known
            if not s.is_terminal():
                assert g.observation_tensor(s.resample_hidden(p, 100 + i), p) == t
                assert seats[:, 0].sum() == 1  # one player to move
        assert g.observation_tensor(s.clone(), 0) == g.observation_tensor(s, 0)


def test_finished_series_totals_and_progress() -> None:
    g = game(2, tournament="games", tournament_games=2, secret_clown=True)
    s = states(g, seed=4)[-1]
    assert s.is_terminal()
    v = views(g, g.observation_tensor(s, 0))
    obs = s.observation(0)
    for q in range(2):  # colours revealed at the end; totals in 21sts; nobody to move
        seat = v["seats"][q]
        assert seat[0] == 0 and seat[5] == 0 and sum(seat[1:5]) == 1
        assert seat[7] == pytest.approx(obs["totals"][q] / 21)
    assert v["progress"][1] == 1.0  # two of two games played


def test_clown_pushed_off_the_board() -> None:
    g = game(2, shoving="clumsy")
    s = load(g, to_act=0, phase="restart", roll="red", turn=3, ejected=2,
             clowns=clowns(("B3", ["red"]), ("A2", []), (None, [])))
    t = g.observation_tensor(s, 0)
    assert t[92 + 24] == 1 and sum(t[92:92 + 24]) == 0 and t[92 + 41] == 1  # off, no balls
    assert t[186:190] == [0, 0, 1, 0] and t[190:196] == [1, 0, 0, 0, 0, 0]


def test_a_spectator_has_no_tensor() -> None:
    g = game(2)
    s = g.new_initial_state(1)
    with pytest.raises(BigtopError, match="spectator"):
        ZirkusLayout(g).tensor(s, None)
