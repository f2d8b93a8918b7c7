"""The generic IS-MCTS agent: legal, fair (decides from the observation only), and strong."""

from __future__ import annotations

import pytest

from bigtop.agents.ismcts import ISMCTSAgent
from bigtop.core.registry import game_names, get_game, new_state
from bigtop.sim.runner import simulate


@pytest.mark.parametrize("name", game_names())
def test_plays_legal_moves_in_every_game(name: str) -> None:
    cls = get_game(name)
    state = new_state(name, cls.min_players, seed=4)
    agent = ISMCTSAgent(iterations=8, seed=1, max_rollout=300)
    for _ in range(6):
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply_chance()
            continue
        action = agent.act(state)
        assert action in state.legal_actions()
        state.apply(action)


def test_decision_depends_only_on_the_observation() -> None:
    """Two states that differ only in what P0 cannot see get the same decision."""
    state = new_state("scout", 3, seed=8, options={"rounds": 1})
    other = state.resample_hidden(0, 99)
    assert other.observation(0) == state.observation(0) and other != state
    a = ISMCTSAgent(iterations=40, seed=5).act(state)
    b = ISMCTSAgent(iterations=40, seed=5).act(other)
    assert a == b


def test_beats_random_at_two_player_scout() -> None:
    run = simulate("scout", 2, 30, seed=11, options={"rounds": 1},
                   agents=["ismcts", "random"])
    low = run.summary()["seats"][0]["win_rate_ci95"][0]
    assert low > 0.5, run.summary()["seats"][0]
