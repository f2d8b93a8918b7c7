"""Observation tensors: fixed size, finite, within bounds, and computed from what the player
may see only (unchanged when the others' hidden information is resampled)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sized

import numpy as np
import pytest

from bigtop.agents.base import random_step
from bigtop.core import registry
from bigtop.core.errors import BigtopError
from bigtop.core.game import Game, State
from bigtop.core.registry import capabilities, game_names, new_state
from bigtop.core.tensor import TensorLayout
from bigtop.games.scout.tensor import ScoutLayout
from bigtop.interop.tensors import HashedJsonLayout, layout_for
from tests.interop.interop_cases import all_cases, case_id, short_game

CASES = all_cases()


def _positions(game: Game, seed: int, count: int = 12) -> list[State]:
    """Some states along a random game, the final one included."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    out = [state.clone()]
    steps = 0
    while not state.is_terminal():
        random_step(state, rng)
        steps += 1
        if rng.random() < 0.1 and len(out) < count:
            out.append(state.clone())
    out.append(state)
    return out


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_tensor_shape_bounds_and_privacy(case: tuple[str, int]) -> None:
    name, n = case
    game = short_game(name, n)
    layout = layout_for(game)
    assert layout.size == sum(int(np.prod(s)) for _, s in layout.pieces())
    for i, state in enumerate(_positions(game, seed=11)):
        for p in range(n):
            t = layout.tensor(state, p)
            assert t.shape == (layout.size,) and t.dtype == np.float32
            assert np.isfinite(t).all()
            assert np.abs(t).max() <= layout.bound
            if not state.is_terminal():
                other = state.resample_hidden(p, 1000 + i)
                assert np.array_equal(layout.tensor(other, p), t), "tensor shows hidden info"
        # Deterministic: same state, same tensor.
        assert np.array_equal(layout.tensor(state.clone(), 0), layout.tensor(state, 0))


def test_every_game_declares_a_layout_of_named_views() -> None:
    """One tensor style: each game's record declares its layout, whose pieces are named
    views into the one flat array the adapters get."""
    for name in game_names():
        make = capabilities(name).observation_tensor
        assert make is not None, name
        state = new_state(name, 3, seed=2)
        layout = layout_for(state.game)
        assert type(layout) is make and isinstance(layout, TensorLayout)
        flat = layout.tensor(state, 0)
        views = layout.views(flat)
        assert list(views) == [n for n, _ in layout.pieces()]
        for view in views.values():
            assert np.shares_memory(view, flat)
        assert sum(v.size for v in views.values()) == flat.size


def test_scout_layout_encodes_own_hand_and_hides_others() -> None:
    state = new_state("scout", players=3, seed=4)
    layout = layout_for(state.game)
    assert isinstance(layout, ScoutLayout)
    flat = layout.tensor(state, 1)
    views = layout.views(flat)
    obs = state.observation(1)
    hand = obs["hands"][1]
    for i, (top, bottom) in enumerate(hand):
        assert views["hands"][1, i, top - 1] == 1 and views["hands"][1, i, 10 + bottom - 1] == 1
        assert views["hands"][1, i, :20].sum() == 2
    # The other players' cards are present but hidden: only the "hidden" flag is set.
    for q in (0, 2):
        k = len(obs["hands"][q])
        assert views["hands"][q, :k, 20].sum() == k
        assert views["hands"][q, :, :20].sum() == 0
    assert views["seat"].tolist() == [0, 1, 0]
    assert views["to_act"].tolist() == [1, 0, 0]
    assert views["owner"].tolist() == [0, 0, 0, 1]  # no active set yet
    assert views["hand_sizes"].tolist() == [12, 12, 12]


def test_hashed_layout_is_stable_and_sensitive() -> None:
    layout = HashedJsonLayout(256)
    a = np.zeros(256, np.float32)
    b = np.zeros(256, np.float32)
    layout.encode({"x": [1, 2], "s": "red", "n": None, "b": True}, a)
    layout.encode({"x": [1, 2], "s": "red", "n": None, "b": True}, b)
    assert np.array_equal(a, b) and a.sum() == 1 + 2 + 1 + 1 + 1
    c = np.zeros(256, np.float32)
    layout.encode({"x": [1, 2], "s": "blue", "n": None, "b": True}, c)
    assert not np.array_equal(a, c)
    with pytest.raises(ValueError):
        HashedJsonLayout(0)


def test_hashed_fallback_for_games_without_a_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_state("scout", 2).game
    plain = dataclasses.replace(capabilities("scout"), observation_tensor=None)
    monkeypatch.setitem(registry._RECORDS, "scout", plain)
    assert isinstance(layout_for(game), HashedJsonLayout)


@pytest.mark.parametrize("name", game_names())
def test_a_tensor_of_no_seat_or_of_another_game_s_state_is_a_clear_refusal(name: str) -> None:
    """The layout's ``tensor`` and ``floats`` and the game's ``observation_tensor`` take a
    state of their own game and one of its seats, as ``observation`` does (State.check_seat:
    True is not seat 1, "0" not seat 0, a numpy integer no seat); anything else is a
    BigtopError, never a TypeError, KeyError or IndexError from inside the layout, nor a
    tensor: a spectator has none (seats are counted from the observer), a SCOUT layout for
    two players makes none of a three-player deal. Compiled and pure alike."""
    cls = registry.get_game(name)
    n = cls.min_players
    game = registry.new_game(name, n)
    state = game.new_initial_state(1)
    bigger = registry.new_game(name, n + 1).new_initial_state(1)
    stranger = new_state("scout" if name != "scout" else "clown-15-go", players=3, seed=1)
    layout = layout_for(game)
    makers: list[Callable[[object, object], Sized]] = [layout.tensor, layout.floats]
    listed = getattr(game, "observation_tensor", None)  # Game's own list (not SCOUT's)
    if listed is not None:
        makers.append(listed)
    for make in makers:
        for seat in (None, -1, n, True, 1.0, "0", np.int64(0)):
            with pytest.raises(BigtopError, match=r"player|seat|spectator"):
                make(state, seat)
        for other in (bigger, stranger, "a state", None):
            with pytest.raises(BigtopError, match="state"):
                make(other, 0)
        assert len(make(state, n - 1)) == layout.size


def test_the_layout_lookup_and_the_hashed_encoding_refuse_bad_arguments() -> None:
    """``layout_for`` takes a game, ``HashedJsonLayout`` a whole size of at least 1 and a
    state of any game with one of its seats: anything else a BigtopError (it was an
    AttributeError or a TypeError from inside)."""
    for game in (None, "scout", 3):
        with pytest.raises(BigtopError, match="game"):
            layout_for(game)  # type: ignore[arg-type]
    for size in (0, -1, 2.5, "x", None, True):
        with pytest.raises(BigtopError, match="size"):
            HashedJsonLayout(size)  # type: ignore[arg-type]
    hashed = HashedJsonLayout(16)
    state = new_state("scout", players=3, seed=1)
    for other in ("a state", None, 3):
        with pytest.raises(BigtopError, match="state"):
            hashed.tensor(other, 0)
    with pytest.raises(BigtopError, match="spectator"):
        hashed.tensor(state, None)
    assert hashed.tensor(state, 2).shape == (16,)
