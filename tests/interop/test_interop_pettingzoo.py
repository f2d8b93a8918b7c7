"""The PettingZoo adapter: PettingZoo's own API and seed tests for every registered game
and player count, reproducible resets, action masks, rewards, text rendering."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test

from bigtop.core.errors import BigtopError, IllegalActionError
from bigtop.core.registry import get_game, new_state
from bigtop.interop.common import ranking_returns
from bigtop.interop.pettingzoo import BigtopEnv, env
from tests.interop.interop_cases import (
    all_cases,
    case_id,
    issue_games,
    require_registered,
    short_options,
)

CASES = all_cases()
# PettingZoo's api_test warns about every Dict observation space (as for its own classic
# games, which also carry "action_mask" this way).
pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning")


def _env(name: str, n: int, render_mode: str | None = None) -> BigtopEnv:
    return env(name, players=n, render_mode=render_mode, **short_options(name, n))


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_pettingzoo_api_and_seed_tests(case: tuple[str, int]) -> None:
    name, n = case
    api_test(_env(name, n, render_mode="ansi"), num_cycles=40)
    seed_test(lambda: _env(name, n), num_cycles=40)


def _play(e: BigtopEnv, seed: int) -> tuple[list[int], dict[str, float]]:
    """A full random game through the AEC loop; returns the actions and total rewards."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    actions: list[int] = []
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            action = None
        else:
            assert obs["action_mask"].any()
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            actions.append(action)
        e.step(action)
    return actions, totals


@pytest.mark.parametrize("name", issue_games())
def test_a_whole_game_pays_the_ranking_returns(name: str) -> None:
    require_registered(name)
    n = get_game(name).min_players
    e = _env(name, n)
    actions, totals = _play(e, seed=21)
    assert e.agents == []
    state = e.bigtop_state
    assert state.is_terminal()
    expected = ranking_returns(state.ranking())
    assert [totals[f"player_{p}"] for p in range(n)] == expected
    # Same seed, same game; the bigtop state is bigtop's own game from that seed.
    assert _play(_env(name, n), seed=21)[0] == actions
    fresh = new_state(name, n, seed=21, options=short_options(name, n))
    assert e.game == fresh.game


@pytest.mark.parametrize("name", issue_games())
def test_reset_is_reproducible(name: str) -> None:
    require_registered(name)
    n = get_game(name).min_players
    a, b = _env(name, n), _env(name, n)
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.bigtop_state == b.bigtop_state
    assert a.bigtop_state.seed == 5
    # reset() without a seed continues the generator seeded by reset(seed=...).
    a.reset()
    b.reset()
    assert a.bigtop_state == b.bigtop_state and a.bigtop_state.seed != 5


def test_masks_observations_and_illegal_actions() -> None:
    e = env("scout", players=3, rounds=1)
    e.reset(seed=8)
    state = e.bigtop_state
    mover = e.agent_selection
    assert mover == f"player_{state.current_player()}"
    obs = e.observe(mover)
    legal = sorted(e.game.action_to_int(a) for a in state.legal_actions())
    assert np.flatnonzero(obs["action_mask"]).tolist() == legal
    for other in e.agents:
        if other != mover:
            assert not e.observe(other)["action_mask"].any()
    assert e.observation_space(mover).contains(obs)
    illegal = next(i for i in range(e.game.num_distinct_actions()) if i not in legal)
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    assert json.dumps(state.to_json()) == before and e.agent_selection == mover


def test_text_rendering(capsys: pytest.CaptureFixture[str]) -> None:
    e = env("scout", players=2, render_mode="ansi", rounds=1)
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and text == e.bigtop_state.render(None)
    h = env("scout", players=2, render_mode="human", rounds=1)
    h.reset(seed=1)
    assert h.render() is None
    assert capsys.readouterr().out.strip() == text.strip()
    with pytest.raises(ValueError):
        env("scout", players=2, render_mode="rgb_array")


def test_default_player_count_and_bad_options() -> None:
    assert env("scout").game.num_players == get_game("scout").min_players
    with pytest.raises(ValueError):
        env("scout", players=2, rounds=-3)
    with pytest.raises(ValueError):
        env("no-such-game")
    e = env("scout", players=2)
    for bad in (-1, 2**63):
        with pytest.raises(ValueError):
            e.reset(seed=bad)


def test_unknown_agents_and_render_modes_are_bigtop_errors() -> None:
    e = env("scout", players=2)
    e.reset(seed=1)
    agent: object
    for agent in ("player_9", "", None, [], np.int64(0)):
        for method in (e.observe, e.observation_space, e.action_space):
            with pytest.raises(BigtopError, match="no agent"):
                method(agent)  # type: ignore[arg-type]  # typed str; the check under test
    mode: object
    for mode in (np.array([1, 2]), [], "rgb_array"):
        with pytest.raises(BigtopError, match="render_mode"):
            env("scout", players=2, render_mode=mode)  # type: ignore[arg-type]  # as above


def test_random_policy_example_runs() -> None:
    path = Path(__file__).parents[2] / "examples" / "pettingzoo_random.py"
    spec = importlib.util.spec_from_file_location("pettingzoo_random_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    run = module.run
    rng = random.Random(0)
    for name in issue_games():
        if name in [c[0] for c in CASES]:
            result = run(name, seed=rng.randrange(1000), **short_options(
                name, get_game(name).min_players))
            assert set(result) == {"steps", "rewards", "scores"}


def test_works_under_pettingzoos_standard_wrappers() -> None:
    from pettingzoo.utils import wrappers

    wrapped = wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(
        env("scout", players=3, rounds=1, render_mode="ansi")))
    api_test(wrapped, num_cycles=30)
