"""The compiled draws ``randbelow`` and ``shuffle`` must equal ``Random.randrange`` and
``Random.shuffle`` draw for draw (else seeded random games, deals and IS-MCTS trees would
change with them)."""

from __future__ import annotations

import random

import pytest

from bigtop.agents.base import RandomAgent, play_random
from bigtop.core.errors import BigtopError
from bigtop.core.registry import new_game
from bigtop.core.rng import randbelow, shuffle


def test_randbelow_is_randrange() -> None:
    ours, theirs = random.Random(11), random.Random(11)
    sizes = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 100, 255, 256, 257, 1000, 2**31 + 1]
    for _ in range(50):
        for n in sizes:
            assert randbelow(ours, n) == theirs.randrange(n), n
    assert ours.random() == theirs.random()  # the generators are in the same state after


def test_shuffle_is_random_shuffle() -> None:
    for size in (0, 1, 2, 3, 10, 45, 110):
        ours, theirs = random.Random(size), random.Random(size)
        for _ in range(20):
            a, b = list(range(size)), list(range(size))
            shuffle(ours, a)
            theirs.shuffle(b)
            assert a == b, size
        assert ours.random() == theirs.random()


def test_random_agent_picks_as_randrange_would() -> None:
    state = new_game("scout", 3).new_initial_state(4)
    legal = state.legal_actions()
    expected = random.Random(9)
    agent = RandomAgent(seed=9)
    for _ in range(20):
        assert agent.act(state) is legal[expected.randrange(len(legal))]


def test_randbelow_of_nothing_is_an_error_not_an_endless_loop() -> None:
    """Regression (fuzzing): randbelow(rng, 0) drew 0 bits for ever (0 >= 0), so the random
    bot asked to act in a finished game hung."""
    for n in (0, -3):
        with pytest.raises(BigtopError, match="no number below"):
            randbelow(random.Random(1), n)


def test_the_random_bot_asked_to_act_in_a_finished_game_is_refused() -> None:
    s = new_game("scout", 2).new_initial_state(1)
    play_random(s, random.Random(1))
    assert s.is_terminal()
    with pytest.raises(BigtopError, match="game is over"):
        RandomAgent(1).act(s)
