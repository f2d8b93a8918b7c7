"""The OpenSpiel adapter: registration, OpenSpiel's own random_sim_test (with serialization)
for every registered game and player count, serialization and pickling, information states
under resampling, and OpenSpiel's Python MCTS / IS-MCTS bots playing whole games."""

from __future__ import annotations

import importlib.util
import pickle
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")

from bigtop.core.actions import Action  # noqa: E402
from bigtop.core.errors import BigtopError, RuleOptionError  # noqa: E402
from bigtop.core.game import State  # noqa: E402
from bigtop.core.registry import get_game, new_state  # noqa: E402
from bigtop.interop import openspiel as bos  # noqa: E402
from bigtop.interop.common import compact_json, openspiel_name, ranking_returns  # noqa: E402
from tests.interop.interop_cases import (  # noqa: E402
    all_cases,
    case_id,
    issue_games,
    require_registered,
    short_options,
)

CASES = all_cases()


def _load(name: str, n: int, **extra: object) -> bos.BigtopOpenSpielGame:
    game = bos.load(name, players=n, **short_options(name, n), **extra)
    assert isinstance(game, bos.BigtopOpenSpielGame)  # pyspiel hands back the Python game
    return game


def _random_steps(state: bos.BigtopOpenSpielState, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", issue_games())
def test_registered_under_its_openspiel_name(name: str) -> None:
    require_registered(name)
    bos.register_all()
    short = openspiel_name(name)
    assert bos.REGISTERED[name] == short
    assert short in pyspiel.registered_names()
    cls = get_game(name)
    game = pyspiel.load_game(short)
    gt = game.get_type()
    assert (gt.min_num_players, gt.max_num_players) == (cls.min_players, cls.max_players)
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.utility == pyspiel.GameType.Utility.ZERO_SUM
    params = game.get_parameters()
    assert {"players", "seed", "num_seeds"} <= set(params)
    for info in cls.options_type.info():
        assert params[info.name] == info.default, info.name
    # Rule options are game parameters: a changed one reaches the bigtop game.
    state = game.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.CHANCE  # the seed is drawn first
    state.apply_action(3)
    assert state.bigtop_state() == new_state(name, params["players"], seed=3)


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_random_sim_test(case: tuple[str, int]) -> None:
    name, n = case
    game = _load(name, n)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_random_sim_test_with_a_fixed_seed() -> None:
    game = _load("scout", 3, seed=12)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", issue_games())
def test_options_reach_the_bigtop_game(name: str) -> None:
    require_registered(name)
    cls = get_game(name)
    n = cls.min_players
    opts = short_options(name, n)
    game = _load(name, n, seed=5)
    assert game.bigtop_game == cls(n, opts)
    assert game.new_initial_state().bigtop_state() == new_state(name, n, seed=5, options=opts)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(RuleOptionError):
        pyspiel.load_game("bigtop_scout", {"players": 9})
    with pytest.raises(RuleOptionError):
        pyspiel.load_game("bigtop_scout", {"rounds": -1})
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("bigtop_scout", {"colour": 1})
    with pytest.raises(ValueError):
        pyspiel.load_game("bigtop_scout", {"num_seeds": 0})
    state = pyspiel.load_game("bigtop_scout", {"seed": 1}).new_initial_state()
    before = str(state)
    for bad in (state.get_game().num_distinct_actions() - 1,
                state.get_game().num_distinct_actions() + 5):
        with pytest.raises(ValueError):
            state.apply_action(bad)
        assert str(state) == before
    root = pyspiel.load_game("bigtop_scout", {"num_seeds": 10}).new_initial_state()
    assert [a for a, _ in root.chance_outcomes()] == list(range(10))
    with pytest.raises(ValueError):
        root.apply_action(10)


def test_bad_load_arguments_are_bigtop_errors() -> None:
    # bos.load checks what pyspiel's binding would fail on with a TypeError or a
    # RuntimeError ("Unable to cast"): a name that is no string, a value no game string
    # holds, an integer beyond 64 bits. A numpy integer is an integer.
    name: object
    for name in ([], {}, None):
        with pytest.raises(BigtopError, match="unknown game"):
            bos.load(name)  # type: ignore[arg-type]
    for params in ({"players": 10**30}, {"seed": 2**64}, {"seed": np.array([1, 2])},
                   {"rounds": [1]}, {"rounds": None}):
        with pytest.raises(RuleOptionError):
            bos.load("scout", **params)
    # players is typed int; a numpy integer is taken too (what this line checks)
    assert bos.load("scout", players=np.int64(3),  # type: ignore[arg-type]
                    seed=np.int32(4)).num_players() == 3


def test_per_player_skills_through_the_game_string() -> None:
    require_registered("tricky-landing")
    text = "bigtop_tricky_landing(players=3,rounds=1,seed=4,skill_per_player=0.7;1;1.3)"
    game = pyspiel.load_game(text)
    skills = (0.7, 1.0, 1.3)
    assert game.bigtop_game.options.skill == skills
    assert game.new_initial_state().bigtop_state() == new_state(
        "tricky-landing", 3, seed=4, options={"rounds": 1, "skill": skills})
    assert pyspiel.load_game(str(game)).bigtop_game == game.bigtop_game  # the game string
    assert bos.load("tricky-landing", players=3, skill_per_player="0.7;1;1.3").bigtop_game \
        .options.skill == skills
    assert pyspiel.load_game("bigtop_tricky_landing(skill=1.5)").bigtop_game.options.skill == 1.5
    with pytest.raises(RuleOptionError, match="2 skills for 3 players"):
        pyspiel.load_game("bigtop_tricky_landing(players=3,skill_per_player=0.7;1)")
    with pytest.raises(RuleOptionError, match="not both"):
        pyspiel.load_game("bigtop_tricky_landing(players=3,skill=2.0,skill_per_player=1;1;1)")


@pytest.mark.parametrize("name", issue_games())
def test_python_answers_match_openspiel_s_own(name: str) -> None:
    """The adapter answers legal_actions / is_chance_node / is_player_node in Python; the C++
    methods (what C++ callers use) must give the same answers everywhere."""
    require_registered(name)
    n = get_game(name).min_players
    state = _load(name, n, num_seeds=8).new_initial_state()
    rng = random.Random(6)
    for _ in range(60):
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.is_player_node() == pyspiel.State.is_player_node(state)
        assert state.legal_actions_mask() == pyspiel.State.legal_actions_mask(state)
        for p in range(n):
            assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p)
        if state.is_terminal():
            break
        legal = state.legal_actions()
        legal.clear()  # the caller's own copy: the state must not care
        _random_steps(state, rng, 1)


@pytest.mark.parametrize("name", issue_games())
def test_serialization_pickle_and_clone(name: str) -> None:
    require_registered(name)
    n = get_game(name).min_players
    game = _load(name, n)
    state = game.new_initial_state()
    _random_steps(state, random.Random(2), 25)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(state2) == str(state)
    assert state2.bigtop_state() == state.bigtop_state()
    assert state2.history() == state.history()
    state3 = pickle.loads(pickle.dumps(state))
    assert str(state3) == str(state)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    clone = state.clone()
    assert str(clone) == str(state)
    if not clone.is_terminal():
        _random_steps(clone, random.Random(3), 3)
        assert str(clone) != str(state), "a clone shares the bigtop state"


@pytest.mark.parametrize("name", issue_games())
def test_observations_and_resampling(name: str) -> None:
    require_registered(name)
    n = get_game(name).min_players
    game = _load(name, n)
    for steps in (15, 8, 4, 2):  # a live decision node, some way into the game
        state = game.new_initial_state()
        _random_steps(state, random.Random(4), steps)
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        if not state.is_terminal():
            break
    assert not state.is_terminal()
    bt: State = state.bigtop_state()
    p = state.current_player()
    assert state.observation_string(p) == compact_json(bt.observation(p))
    assert state.information_state_string(p).startswith(state.observation_string(p))
    assert len(state.observation_tensor(p)) == game.observation_tensor_size()
    assert len(state.information_state_tensor(p)) == game.information_state_tensor_size()
    sampler = bos.seeded_resampler(9)
    for _ in range(3):
        other = sampler(state, p)
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.observation_tensor(p) == state.observation_tensor(p)
        assert other.legal_actions() == state.legal_actions()
        other.bigtop_state().audit()
        for q in range(n):
            if q != p:
                assert "own actions: []" in other.information_state_string(q)


def _play_with_bots(name: str, seed: int) -> bos.BigtopOpenSpielState:
    n = get_game(name).min_players
    game = _load(name, n)
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots: dict[int, Any] = {}  # OpenSpiel's bots (untyped)
    if game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION:
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=6, random_state=rs,
                               allow_inconsistent_action_sets=True)
        bot.set_resampler(bos.seeded_resampler(seed))
        bots[0] = bot
    bots[1] = mcts.MCTSBot(game, uct_c=2.0, max_simulations=6, evaluator=evaluator,
                           random_state=rs)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
            continue
        p = state.current_player()
        action = bots[p].step(state) if p in bots else int(rs.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


@pytest.mark.parametrize("name", issue_games())
def test_openspiel_bots_play_complete_games(name: str) -> None:
    require_registered(name)
    state = _play_with_bots(name, seed=1)
    returns = state.returns()
    bt = state.bigtop_state()
    assert bt.is_terminal()
    assert returns == ranking_returns(bt.ranking())
    assert abs(sum(returns)) < 1e-9 and all(-1 <= r <= 1 for r in returns)


def test_returns_follow_the_ranking() -> None:
    assert ranking_returns([1, 2]) == [1.0, -1.0]
    assert ranking_returns([1, 1]) == [0.0, 0.0]
    assert ranking_returns([2, 1, 3]) == [0.0, 1.0, -1.0]


def test_ismcts_example_runs() -> None:
    path = Path(__file__).parents[2] / "examples" / "openspiel_ismcts.py"
    spec = importlib.util.spec_from_file_location("openspiel_ismcts_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    returns = module.run("scout", players=2, simulations=4, seed=1, rounds=1)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("name", issue_games())
def test_rl_environment_plays_a_game(name: str) -> None:
    """OpenSpiel's RL environment (what its DQN/PPO agents use) runs the game."""
    require_registered(name)
    rl_environment = pytest.importorskip("open_spiel.python.rl_environment")
    game = _load(name, get_game(name).min_players)
    env = rl_environment.Environment(game, seed=3)
    ts = env.reset()
    rng = np.random.default_rng(3)
    while not ts.last():
        p = ts.observations["current_player"]
        legal = ts.observations["legal_actions"][p]
        assert len(ts.observations["info_state"][p]) == game.information_state_tensor_size()
        ts = env.step([int(rng.choice(legal))])
    assert abs(sum(ts.rewards)) < 1e-9


def test_outcome_sampling_mccfr_runs() -> None:
    os_mccfr = pytest.importorskip("open_spiel.python.algorithms.outcome_sampling_mccfr")
    solver = os_mccfr.OutcomeSamplingSolver(_load("scout", 2))
    for _ in range(2):
        solver.iteration()
    assert solver.average_policy() is not None


def test_an_unlisted_action_is_checked_by_the_engine() -> None:
    """Listed numbers skip the engine's second look-up; any other number must still be
    refused, whether or not the legal list was asked for, and change nothing."""
    game = _load("scout", 3, seed=4)
    for ask_first in (False, True):
        state = game.new_initial_state()
        legal = state.legal_actions() if ask_first else pyspiel.State.legal_actions(state)
        illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
        before = (str(state), state.history())
        with pytest.raises(ValueError):
            state.apply_action(illegal)
        assert (str(state), state.history()) == before
        state.apply_action(legal[-1])
        assert state.history() == [legal[-1]]


def test_a_game_s_own_chance_probabilities_reach_openspiel() -> None:
    """The core's chance outcomes (its legal list, 1/n each) are answered from the legal
    numbers; a game that weights its outcomes (here a loaded die) gets its own."""
    require_registered("so-ein-zirkus")
    game = _load("so-ein-zirkus", 2, seed=3)
    state = game.new_initial_state()
    while not state.is_chance_node():
        _random_steps(state, random.Random(1), 1)
    bt = state.bigtop_state()
    assert state.chance_outcomes() == sorted(
        (bt.game.action_to_int(a), p) for a, p in bt.chance_outcomes())

    class Loaded(type(bt)):  # type: ignore[misc]  # a compiled class cannot be patched
        def chance_outcomes(self) -> list[tuple[Action, float]]:
            outcomes = super().chance_outcomes()
            weights = [i + 1.0 for i in range(len(outcomes))]
            return [(a, w / sum(weights)) for (a, _), w in zip(outcomes, weights, strict=True)]

    loaded = Loaded(bt.game, bt.seed)
    loaded._become(bt)
    state._bt = bos._Holder(loaded, [[] for _ in range(2)])
    expected = sorted((bt.game.action_to_int(a), p) for a, p in loaded.chance_outcomes())
    assert state.chance_outcomes() == expected
    assert state.legal_actions() == [a for a, _ in expected]
    assert state.legal_actions() == pyspiel.State.legal_actions(state)
    outcome = expected[-1][0]
    state.apply_action(outcome)
    assert loaded.history[-1] == bt.game.action_from_int(outcome)


def test_the_benchmark_s_floor_game_is_a_valid_openspiel_game() -> None:
    """bench_games.py measures pyspiel's per-step floor with a game that does no work: it
    must be a real game (OpenSpiel's own checks, 200 moves a game) for the floor to count."""
    from bench import bench_games

    bench_games.register_floor_game()
    bench_games.register_floor_game()  # idempotent
    game = pyspiel.load_game(bench_games.FLOOR_GAME)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    assert bench_games.spiel_loop(game)(0) == bench_games.FLOOR_MOVES
    # The bound: engine step / (engine step + floor step), from the rates.
    own: dict[str, object] = {"per_s": 1_000_000.0}
    floor: dict[str, object] = {"per_s": 500_000.0}
    assert bench_games.adapter_bound(own, floor).strip() == "0.33"
    assert bench_games.adapter_bound(None, floor).strip() == ""


def test_a_step_calls_back_into_python_only_from_apply_action(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python loop's questions are answered in Python; OpenSpiel's C++ apply_action makes
    the only two calls back (current_player for the history, then _apply_action)."""
    from bench.bench_games import spiel_loop

    calls: dict[str, int] = {}
    cls = bos.BigtopOpenSpielState
    for name in ("current_player", "_legal_actions", "_apply_action", "is_terminal",
                 "chance_outcomes", "legal_actions", "is_chance_node"):
        method = getattr(cls, name)

        def counted(*args: object, _method: object = method, _name: str = name) -> object:
            calls[_name] = calls.get(_name, 0) + 1
            return _method(*args)  # type: ignore[operator]

        monkeypatch.setattr(cls, name, counted)
    steps = spiel_loop(_load("so-ein-zirkus", 3, num_seeds=8))(0)
    assert steps > 50 and "_legal_actions" not in calls
    assert calls["current_player"] == calls["_apply_action"] == steps
    assert calls["is_chance_node"] == steps and calls["is_terminal"] == steps + 1
    assert calls["legal_actions"] + calls["chance_outcomes"] == steps
    assert calls["chance_outcomes"] > 10  # the seed and the die


def test_the_seed_node_hands_out_copies() -> None:
    game = _load("scout", 3, num_seeds=5)
    state = game.new_initial_state()
    state.chance_outcomes().clear()  # the caller's own list
    state.legal_actions().clear()
    assert state.chance_outcomes() == [(s, 0.2) for s in range(5)]
    assert state.legal_actions() == pyspiel.State.legal_actions(state) == list(range(5))
    assert game.new_initial_state().chance_outcomes() == [(s, 0.2) for s in range(5)]
