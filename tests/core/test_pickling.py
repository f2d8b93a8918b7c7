"""Games, positions and bots pickle and deep-copy, compiled or not: worker processes, Ray
tasks and reinforcement-learning wrappers copy them. A compiled (mypyc) class cannot be
made without its constructor, which Python's default way of unpickling skips, so every
compiled engine failed here before ``Game.__reduce__`` and ``State.__reduce__``."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable

import pytest
from tests.conftest import random_game_states

from bigtop.agents.base import random_step
from bigtop.agents.levels import make_bot
from bigtop.core.game import State
from bigtop.core.registry import game_names, get_game, new_game

TABLES = [(name, players) for name in game_names()
          for players in sorted({get_game(name).min_players, get_game(name).max_players})]


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_positions_pickle_and_deep_copy_and_play_on_alike(name: str, players: int) -> None:
    game = new_game(name, players)
    assert pickle.loads(pickle.dumps(game)) == game == copy.deepcopy(game)
    for original in random_game_states(game, seed=5, every=7):
        twins: tuple[Callable[[State], State], ...] = (
            lambda s: pickle.loads(pickle.dumps(s)), copy.deepcopy)
        for twin_of in twins:
            state = original.clone()
            twin = twin_of(state)
            assert twin == state and twin.to_json() == state.to_json()
            assert twin is not state and twin.history is not state.history
            a, b = random.Random(3), random.Random(3)
            for _ in range(5):  # the copy plays on as the original does, on its own
                if state.is_terminal():
                    break
                random_step(state, a)
                random_step(twin, b)
            assert twin == state


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("level", ["easy", "medium"])
def test_a_bot_that_has_played_pickles(name: str, level: str) -> None:
    game = new_game(name, get_game(name).min_players)
    state = game.new_initial_state(2)
    while state.is_chance():
        state.apply_chance()
    bot = make_bot(level, game, state.current_player(), 4,
                   time_limit=0.02 if level == "medium" else None)
    bot.act(state)  # a bot that has played holds the game and what it learnt
    again = pickle.loads(pickle.dumps(bot))
    assert again.act(state) in state.legal_actions()
