"""The interop adapters under the rule option combinations of tests/core/test_fuzz_options.py
(the fuzz brief, fourth round): the other interop tests play each game under its quickest
options only.

For each game at its fewest and most players and each option set tried: OpenSpiel's own
``random_sim_test`` (with serialization) on the game loaded with those options as
parameters, information states unchanged by ``resample_from_infostate``; PettingZoo's
``api_test`` and ``seed_test``, then a whole game through the AEC loop in which unlisted,
out-of-range and malformed actions are refused, the state unchanged.

``make test`` tries two sets per game and player count (the one changing the most options
and the next of the covering); ``BIGTOP_FUZZ_OPTIONS=N`` (the long run) tries every set.
"""

from __future__ import annotations

import json
import random
import zlib

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from bigtop.core.errors import BigtopError, IllegalActionError  # noqa: E402
from bigtop.interop import openspiel as bos  # noqa: E402
from bigtop.interop.pettingzoo import BigtopEnv, env  # noqa: E402
from tests.core.option_cover import option_sets, player_counts  # noqa: E402
from tests.core.test_fuzz_options import EXTRA_SETS, GAMES, LONG  # noqa: E402

pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning")


def _chosen(name: str, n: int) -> list[int]:
    sets = option_sets(name, n, EXTRA_SETS)
    if LONG:
        return list(range(len(sets)))
    widest = max(range(len(sets)), key=lambda k: (len(sets[k]), -k))
    return sorted({widest, 1 if widest != 1 else 2})


CASES = [(name, n, k) for name in GAMES for n in player_counts(name) for k in _chosen(name, n)]


def _id(case: tuple[str, int, int]) -> str:
    return f"{case[0]}-{case[1]}p-{case[2]}"


def _openspiel_params(opts: dict[str, object]) -> dict[str, object]:
    """Rule options as OpenSpiel game parameters: a per-player value (Tricky Landing's
    ``skill`` as a list) goes in its ``_per_player`` parameter, ``;``-separated."""
    out: dict[str, object] = {}
    for key, value in opts.items():
        if isinstance(value, tuple):
            out[key + bos.PER_PLAYER_SUFFIX] = ";".join(map(str, value))
        else:
            out[key] = value
    return out


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_openspiel_under_the_options(case: tuple[str, int, int]) -> None:
    name, n, k = case
    opts = option_sets(name, n, EXTRA_SETS)[k]
    seed = zlib.crc32(_id(case).encode()) % 10_000
    game = bos.load(name, players=n, seed=seed, **_openspiel_params(opts))
    assert game.bigtop_game.options == game.bigtop_class.options_type.from_mapping(opts)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    # Information states under resampling, a few positions into a game.
    rng = random.Random(seed)
    state = game.new_initial_state()
    sampler = bos.seeded_resampler(seed)
    steps = 0
    while not state.is_terminal() and steps < 400:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        p = state.current_player()
        if steps % 13 == 0:
            other = sampler(state, p)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.observation_tensor(p) == state.observation_tensor(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.legal_actions() == state.legal_actions()
        legal = state.legal_actions()
        if steps % 17 == 0:
            before = (str(state), state.history())
            illegal = next((a for a in range(game.num_distinct_actions())
                            if a not in set(legal)), None)
            if illegal is not None:
                with pytest.raises(ValueError):
                    state.apply_action(illegal)
            with pytest.raises(ValueError):
                state.apply_action(game.num_distinct_actions())
            assert (str(state), state.history()) == before
        state.apply_action(rng.choice(legal))
        steps += 1


def _env(name: str, n: int, opts: dict[str, object], render_mode: str | None = None
         ) -> BigtopEnv:
    return env(name, players=n, render_mode=render_mode, **opts)


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_pettingzoo_under_the_options(case: tuple[str, int, int]) -> None:
    name, n, k = case
    opts = option_sets(name, n, EXTRA_SETS)[k]
    api_test(_env(name, n, opts, render_mode="ansi"), num_cycles=15)
    seed_test(lambda: _env(name, n, opts), num_cycles=15)
    e = _env(name, n, opts)
    seed = zlib.crc32(_id(case).encode()) % 10_000
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    nda = e.game.num_distinct_actions()
    for step, agent in enumerate(e.agent_iter()):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        assert e.observation_space(agent).contains(obs)
        mask = obs["action_mask"]
        assert mask.any(), "a live agent with no legal action"
        if step % 11 == 0:
            state = e.bigtop_state
            before = json.dumps(state.to_json())
            unlisted = np.flatnonzero(mask == 0)
            bad: object
            for bad in [*unlisted[:1].tolist(), -1, nda, 2**70, 0.5, "1", [0]]:
                with pytest.raises(BigtopError) as refused:
                    e.step(bad)
                if bad in unlisted[:1].tolist():
                    assert refused.type is IllegalActionError
                assert json.dumps(state.to_json()) == before and e.agent_selection == agent
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert e.bigtop_state.is_terminal()
