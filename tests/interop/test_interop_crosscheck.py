"""Cross-check: one seeded sequence of actions played in lockstep through bigtop itself,
the OpenSpiel adapter and the PettingZoo adapter gives the same legal actions at every step
and the same scores and returns at the end, for every registered game and player count."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from bigtop.core.registry import new_state  # noqa: E402
from bigtop.interop import openspiel as bos  # noqa: E402
from bigtop.interop.common import ranking_returns  # noqa: E402
from bigtop.interop.pettingzoo import env  # noqa: E402
from tests.interop.interop_cases import all_cases, case_id, short_options  # noqa: E402

CASES = all_cases()


def _crosscheck(name: str, n: int, seed: int, draw_seed_by_chance: bool) -> list[float]:
    opts = short_options(name, n)
    rng = random.Random(seed * 7919 + n)
    bt = new_state(name, n, seed=seed, options=opts)
    game = bt.game
    if draw_seed_by_chance:
        os_game = bos.load(name, players=n, **opts)
        os_state = os_game.new_initial_state()
        assert os_state.is_chance_node()
        os_state.apply_action(seed)  # the seed chance node: outcome = bigtop seed
    else:
        os_game = bos.load(name, players=n, seed=seed, **opts)
        os_state = os_game.new_initial_state()
    pz = env(name, players=n, render_mode=None, **opts)
    pz.reset(seed=seed)
    steps = 0
    while not bt.is_terminal():
        if bt.is_chance():
            action = bt.apply_chance()  # the engine's own draw from its seed
            assert os_state.is_chance_node()
            os_state.apply_action(game.action_to_int(action))
            # PettingZoo resolves chance inside step(), from the same seed.
            continue
        p = bt.current_player()
        legal = sorted(game.action_to_int(a) for a in bt.legal_actions())
        assert os_state.current_player() == p
        assert os_state.legal_actions() == legal
        assert pz.agent_selection == f"player_{p}"
        mask = pz.observe(pz.agent_selection)["action_mask"]
        assert np.flatnonzero(mask).tolist() == legal
        choice = legal[rng.randrange(len(legal))]
        bt.apply_int(choice)
        os_state.apply_action(choice)
        pz.step(choice)
        steps += 1
        if steps % 25 == 0:
            assert os_state.bigtop_state() == bt
            if not bt.is_chance():  # PettingZoo has already rolled the die
                assert pz.bigtop_state == bt
    assert os_state.is_terminal() and pz.bigtop_state.is_terminal()
    scores = bt.scores()
    assert os_state.bigtop_state().scores() == scores
    assert pz.bigtop_state.scores() == scores
    returns = ranking_returns(bt.ranking())
    assert os_state.returns() == returns
    pz_totals = dict.fromkeys(pz.possible_agents, 0.0)
    for agent in pz.agent_iter():
        _, reward, terminated, _, _ = pz.last()
        pz_totals[agent] += reward
        assert terminated
        pz.step(None)
    assert [pz_totals[f"player_{p}"] for p in range(n)] == returns
    return scores


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_same_actions_same_scores(case: tuple[str, int]) -> None:
    name, n = case
    _crosscheck(name, n, seed=31, draw_seed_by_chance=False)


@pytest.mark.parametrize("case", CASES[:1] + CASES[-1:], ids=[case_id(c) for c in
                                                           CASES[:1] + CASES[-1:]])
def test_seed_drawn_by_the_chance_node(case: tuple[str, int]) -> None:
    name, n = case
    _crosscheck(name, n, seed=77, draw_seed_by_chance=True)
