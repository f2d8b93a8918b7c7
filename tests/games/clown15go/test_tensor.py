"""Clown 15 Go's observation tensor (tensor.py; layout in docs/clown-15-go.md, "Observation
tensor"): fixed size per deck, hand-checked entries on documented positions, computed from
the observation only (unchanged when the closed piles are resampled)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from bigtop.core.errors import BigtopError
from bigtop.core.registry import new_game
from bigtop.games.clown15go.rules import Clown15GoGame, Clown15GoState
from bigtop.games.clown15go.tensor import SEATS, Clown15GoLayout
from bigtop.interop.tensors import layout_for
from tests.conftest import random_game_states
from tests.games.clown15go.helpers import position

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def game(players: int = 2, **opts: object) -> Clown15GoGame:
    g = new_game("clown-15-go", players, opts)
    assert isinstance(g, Clown15GoGame)
    return g


def views(g: Clown15GoGame, t: list[float]) -> dict[str, np.ndarray[Any, Any]]:
    """The named pieces of ``t`` (``Game.observation_tensor``'s list), as the layout's."""
    return Clown15GoLayout(g).views(np.asarray(t))


def start(g: Clown15GoGame, name: str) -> int:
    """Where piece ``name`` starts in the flat tensor."""
    layout = Clown15GoLayout(g)
    return int(layout.views(np.arange(layout.size))[name].flat[0])


def states(g: Clown15GoGame, seed: int, every: int = 5) -> list[Clown15GoState]:
    """Every ``every``-th state of a random game, the last one too."""
    out = random_game_states(g, seed, every)
    assert all(isinstance(s, Clown15GoState) for s in out)
    return [s for s in out if isinstance(s, Clown15GoState)]


def test_size_depends_on_the_deck_only() -> None:
    for players in (2, 3, 5, 8):
        assert game(players).observation_tensor_shape() == (954,)  # 8 sets: 64 + 320 + 570
        assert game(players, sets=2).observation_tensor_shape() == (654,)
        assert game(players, sets=2, points=True, borrowing=True, own_pile=True,
                    open_pile_first=True).observation_tensor_shape() == (654,)
    assert game(2, sets=1).observation_tensor_shape() == (611,)
    assert game(4, sets=26, colours=ALPHABET).observation_tensor_shape() == (2286,)
    # The colour letters do not matter, only how many sets are used.
    assert game(3, sets=3, colours="XYZW").observation_tensor_shape() == (699,)
    for k in (1, 2, 5, 8, 26):
        layout = Clown15GoLayout(game(2, sets=k, colours=ALPHABET))
        assert layout.size == k * k + 40 * k + 570  # the module doc's formula
        assert dict(layout.pieces())["seats"] == (SEATS, 62 + k) == (SEATS, layout.seat_size)


def test_the_adapters_use_the_games_own_layout() -> None:
    g = game(3, sets=3)
    layout = layout_for(g)
    assert isinstance(layout, Clown15GoLayout) and layout.size == 699
    views = layout.views(layout.tensor(g.new_initial_state(5), 1))
    assert views["seats"].shape == (SEATS, 65) and views["rows"].shape == (3, 19)
    s = g.new_initial_state(5)
    want = np.asarray(g.observation_tensor(s, 1), np.float32)
    assert np.array_equal(layout.tensor(s, 1), want)


# The rulebook's image 4 (docs/clown-15-go.md, "State JSON"): P3 to play.
IMAGE4_CLOSED = [["R1", "R2", "R5", "R6", "R7", "R11", "R12", "R14", "R15", "O4", "O8", "O9",
                  "O10", "O11", "O13", "O14"], ["O15"], [], ["R13"]]
IMAGE4_OPEN = [["O3"], ["R9"], ["O12"], ["R10"]]
IMAGE4_ROWS = [["O1", "O2", "R3", "R4", "O5", "O6", "O7", "R8"]]


def image4() -> Clown15GoState:
    return position(4, closed=IMAGE4_CLOSED, open=IMAGE4_OPEN, rows=IMAGE4_ROWS, to_act=3,
                    phase="turn", options={"open_pile_first": True, "borrowing": True})


def test_documented_position_hand_checked() -> None:
    s = image4()
    g = s.game
    t = g.observation_tensor(s, 3)
    assert len(t) == 654
    assert t[0:3] == [1, 0, 0]  # phase turn
    assert t[3:20] == [0] * 17  # no turned card
    # Row 0 (from 20, 18 floats a row) tops at 8; slot 1 is empty; no points rule, so no
    # colour flags.
    assert t[20:38] == [0] * 7 + [1] + [0] * 10
    assert t[38:56] == [0] * 18
    assert t[56 + 7] == 0.5 and sum(t[56:71]) == 0.5  # one row of two possible tops at 8
    # Unseen (from 71, deck order R1..R15, O1..O15): the 18 cards of the closed piles.
    assert sum(t[71:101]) == 18
    assert t[71 + 12] == 1 and t[71 + 15 + 14] == 1  # R13 (P3's), O15 (P1's)
    assert t[71 + 2] == 0 and t[71 + 15 + 2] == 0  # R3 (row), O3 (P0's open pile)
    assert t[101 + 12] == 1.0 and t[101 + 2] == 0  # both 13s unseen, no 3
    # Seats from 116, 64 floats each, relative to P3: seat 0 = P3 (to play).
    me = t[116:180]
    assert me[0:3] == [1, 1, 0]  # present, to act, not out
    assert me[11:15] == pytest.approx([1 / 30, 1 / 30, 2 / 30, 0])
    assert me[15 + 9] == 1 and sum(me[15:30]) == 1  # open top R10: number 10 …
    assert me[30:32] == [1, 0]  # … colour R
    assert me[32 + 9] == 0.5 and sum(me[32:47]) == 0.5  # open pile's numbers
    assert sum(me[47:62]) == 0 and me[62:64] == [0, 0]  # never renewed; no points
    p0 = t[180:244]  # seat 1 = P0: 16 closed, open O3
    assert p0[0:3] == [1, 0, 0] and p0[11] == pytest.approx(16 / 30)
    assert p0[15 + 2] == 1 and p0[30:32] == [0, 1]
    assert t[244 + 15 + 8] == 1 and t[308 + 15 + 11] == 1  # P1's R9, P2's O12
    assert t[308 + 11] == 0 and t[308 + 13] == pytest.approx(1 / 30)  # P2: no closed pile
    assert t[372:628] == [0] * 256  # seats 4–7: a four-player game
    assert t[628:637] == [1, 0, 1, 0, 0, 0, 0, 0, 0]  # open_pile_first, borrowing
    assert t[637:644] == [0, 0, 1, 0, 0, 0, 0]  # four players
    assert t[644:654] == [0] * 10
    # Seen by P0 the seats turn (P3 is seat 3); everything else is the same (G4).
    t0 = g.observation_tensor(s, 0)
    assert t0[116:180] == p0 and t0[308:372] == me
    assert t0[:116] == t[:116] and t0[628:] == t[628:]


def test_after_the_documented_borrow() -> None:
    # docs: "borrow 1 0" (P1's 9 onto the 8), then row 0 takes the 10.
    s = image4()
    s.apply_json({"type": "borrow", "player": 1, "row": 0})
    t = s.game.observation_tensor(s, 3)
    assert t[20 + 8] == 1 and sum(t[20:35]) == 1  # row 0 tops at 9
    assert t[244:247] == [1, 0, 0] and t[244 + 12] == 0  # P1: open pile empty
    assert sum(t[244 + 15:244 + 32]) == 0  # no open top
    assert t[644 + 3] == 1  # placed this turn


def points_position() -> Clown15GoState:
    """Three sets, the points rule: P0 completed the red row (150), P1 went out first (30)."""
    reds = [f"R{i}" for i in range(1, 16)]
    return position(3, closed=[["O3", "O4"], [], ["Y2"]], open=[["O5"], [], ["O6"]],
                    rows=[["O1", "O2", "Y3"], ["Y1"]], options={"sets": 3, "points": True},
                    filler=0, completed=[{"by": 0, "cards": reds}], out_order=[1],
                    points=[150, 30, 0], to_act=2, turns=17, quiet_turns=2)


def test_points_rule_position_hand_checked() -> None:
    s = points_position()
    g = s.game
    assert start(g, "rows") == 21 and start(g, "row_tops") == 21 + 57
    assert start(g, "seats") == 153 and start(g, "options") == 153 + 520
    t = g.observation_tensor(s, 2)
    # Row 0 (O1 O2 Y3): top 3, two colours; row 1 (Y1): top 1, one colour, yellow.
    assert t[21 + 2] == 1 and t[21 + 15] == 0 and sum(t[21 + 16:21 + 19]) == 0
    assert t[40 + 0] == 1 and t[40 + 15] == 1 and t[40 + 16:40 + 19] == [0, 0, 1]
    assert t[59:78] == [0] * 19  # row slot 2 empty
    # Seats relative to P2: seat 0 = P2 (to play), 1 = P0, 2 = P1 (out, first).
    size = 65
    me, p0, p1 = (t[153 + size * i:153 + size * (i + 1)] for i in range(3))
    assert me[0:3] == [1, 1, 0] and me[63:65] == [0, 0]
    assert p0[0:3] == [1, 0, 0] and p0[63] == 1.0 and p0[64] == pytest.approx(1 / 3)
    assert p0[11] == pytest.approx(23 / 45)
    assert p1[0:4] == [1, 0, 1, 1] and sum(p1[3:11]) == 1  # out, place 1 of 8
    assert p1[63] == pytest.approx(30 / 150) and p1[11:14] == [0, 0, 0]
    assert t[673:682] == [0, 0, 0, 1, 0, 0, 0, 0, 0]  # the points rule
    assert t[682:689] == [0, 1, 0, 0, 0, 0, 0]  # three players
    # turns 17/1000, quiet 2/(20 × 2 still in), no passes, completed rows 1/3, not over.
    assert t[689:699] == pytest.approx([17 / 1000, 2 / 40, 0, 0, 0, 1 / 3, 0, 0, 0, 0])


def test_the_turned_card() -> None:
    s = game(2).new_initial_state(3)  # the module doctest: P0 turned Y2
    assert isinstance(s, Clown15GoState)
    t = s.game.observation_tensor(s, 1)
    assert t[0:3] == [0, 1, 0]
    assert t[3:26] == [0, 1] + [0] * 13 + [0, 0, 1, 0, 0, 0, 0, 0]
    assert t[368 + 70 + 1] == 1  # P0, seat 1 for P1, is to act


OPTION_SETS: list[dict[str, object]] = [
    {"sets": 2},
    {"sets": 2, "open_pile_first": True},
    {"sets": 2, "own_pile": True},
    {"sets": 3, "borrowing": True},
    {"sets": 2, "points": True},
    {"sets": 2, "placing": "voluntary", "recycle": "shuffle"},
    {"sets": 1, "last_card": "turned", "points": True, "borrowing": True},
    {"sets": 3, "open_pile_first": True, "own_pile": True, "borrowing": True, "points": True,
     "stall_rounds": 2, "max_turns": 120},
]


def check_well_formed(g: Clown15GoGame, s: Clown15GoState, t: list[float]) -> None:
    """One-hots that must have exactly one entry, and the pieces that mirror the state."""
    n = g.num_players
    k = g.options.sets
    v = views(g, t)
    assert len(t) == Clown15GoLayout(g).size and all(math.isfinite(x) and x >= 0 for x in t)
    assert max(t) <= 1 or g.options.points  # only points/150 can exceed 1
    assert v["phase"].tolist().count(1.0) == 1 and v["phase"].sum() == 1
    assert (v["phase"][2] == 1) == s.is_terminal()
    want = 1 if s.pending is not None else 0
    assert v["pending"][:15].sum() == want and v["pending"][15:].sum() == want
    for i in range(k):
        assert v["rows"][i, :15].sum() == (1 if i < len(s.rows) else 0)
    assert v["row_tops"].sum() == pytest.approx(len(s.rows) / k)
    assert v["unseen"].sum() == len(s.unseen())
    seats = v["seats"]
    assert seats[:, 0].sum() == n  # present
    assert seats[:, 1].sum() == (0 if s.is_terminal() else 1)  # to act
    for seat in seats[:n]:
        assert seat[3:11].sum() == seat[2]  # a going-out place iff out
        has_open = seat[12] > 0
        assert seat[15:30].sum() == seat[30:30 + k].sum() == (1 if has_open else 0)
    assert seats[n:].sum() == 0
    assert v["players"].tolist().count(1.0) == 1 and v["players"][n - 2] == 1
    assert v["progress"][6:10].sum() == (1 if s.is_terminal() else 0)


@pytest.mark.parametrize("players", [2, 3, 5, 8])
@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: "-".join(
    f"{key}={value}" for key, value in o.items()))
def test_random_games_fixed_size_well_formed_and_private(players: int,
                                                         opts: dict[str, object]) -> None:
    g = game(players, **opts)
    for i, s in enumerate(states(g, seed=players * 10 + len(opts))):
        for p in range(players):
            t = g.observation_tensor(s, p)
            check_well_formed(g, s, t)
            if not s.is_terminal():
                other = s.resample_hidden(p, 100 + i)
                assert g.observation_tensor(other, p) == t, "the tensor shows hidden cards"
        assert g.observation_tensor(s.clone(), 0) == g.observation_tensor(s, 0)


def test_option_flags() -> None:
    flags = ["open_pile_first", "own_pile", "borrowing", "points"]
    for i, name in enumerate(flags):
        g = game(2, sets=2, **{name: True})
        t = g.observation_tensor(g.new_initial_state(1), 0)
        assert views(g, t)["options"][:7].tolist() == [1.0 if j == i else 0.0 for j in range(7)]
    for i, (name, value) in enumerate([("placing", "voluntary"), ("recycle", "shuffle"),
                                       ("last_card", "stays")]):
        g = game(2, sets=2, **{name: value})
        t = g.observation_tensor(g.new_initial_state(1), 0)
        assert views(g, t)["options"][:7].tolist() == [
            1.0 if j == 4 + i else 0.0 for j in range(7)]


def test_renewed_piles_are_encoded_by_their_numbers_and_survive_resampling() -> None:
    g = game(2, sets=2, last_card="turned", recycle="shuffle")
    renewed = 0
    for s in states(g, seed=3, every=1):
        if s.is_terminal() or not any(s.recycled):
            continue
        renewed += 1
        t = g.observation_tensor(s, 0)
        for q in range(2):
            got = sum(views(g, t)["seats"][q, 47:62]) * 2  # the renewed pile's numbers
            assert got == pytest.approx(len(s.closed[q]) if s.recycled[q] else 0)
        for seed in range(3):
            assert g.observation_tensor(s.resample_hidden(0, seed), 0) == t
    assert renewed > 0


def test_a_finished_game() -> None:
    g = game(2, sets=2, last_card="turned")
    s = states(g, seed=2)[-1]
    assert s.is_terminal()
    v = views(g, g.observation_tensor(s, 0))
    reasons = ("went-out", "all-out", "stall", "turn-limit")
    assert v["progress"][6 + reasons.index(s.end_reason or "")] == 1
    if s.end_reason == "went-out":
        winner = s.out_order[0]  # P0 is the observer: seats are players
        assert v["seats"][winner, 2:4].tolist() == [1, 1]


def test_a_spectator_has_no_tensor() -> None:
    g = game(2)
    s = g.new_initial_state(1)
    with pytest.raises(BigtopError, match="spectator"):
        Clown15GoLayout(g).tensor(s, None)


@pytest.mark.parametrize(("flag", "options"), [
    (0, {"open_pile_first": True}), (1, {"own_pile": True}), (2, {"borrowing": True}),
    (3, {"points": True}), (4, {"placing": "voluntary"}), (5, {"recycle": "shuffle"}),
    (6, {"last_card": "stays"}), (7, {"borrowing": True, "borrowing_when": "placing"}),
    (8, {"one_on_pile": True})])
def test_every_rule_option_that_changes_play_is_in_the_tensor(
        flag: int, options: dict[str, object]) -> None:
    """Two games that differ in one rule give different tensors: a learner can tell them
    apart (the options block starts after the seats)."""
    g = Clown15GoGame(3, options)
    s = g.new_initial_state(seed=5)
    block = views(g, g.observation_tensor(s, 0))["options"].tolist()
    base = {"borrowing": True} if flag == 7 else {}
    want = [1.0 if i == flag or (base and i == 2) else 0.0 for i in range(9)]
    assert block == want
