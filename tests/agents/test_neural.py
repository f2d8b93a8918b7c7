"""The trained networks: the shipped weights load and carry the command that made them,
inference is deterministic and fair (only the seat's own view), and bounded sequential
matches place the action policy and the ``neural`` level (docs/bots.md#trained-networks)."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from bigtop.agents.base import play_random
from bigtop.agents.levels import (
    BUDGETS,
    NEURAL,
    TRAINED_BUDGETS,
    budget_for,
    make_bot,
    search_profile,
)
from bigtop.agents.neural import (
    ActionCandidates,
    ActionPolicy,
    ActionPolicyAgent,
    Encoder,
    NeuralPolicyAgent,
    NeuralValue,
    action_features_for,
    action_policy_for,
    network_for,
    trained_tables,
    weights_path,
)
from bigtop.agents.planner import PlannerAgent
from bigtop.core.errors import BigtopError
from bigtop.core.game import Game
from bigtop.core.registry import new_game, new_state
from bigtop.games.clown15go.bot import distinct_places
from bigtop.games.scout.bot import last_round
from bigtop.sim.stats import SequentialTest


def test_the_shipped_weights_load_with_their_record() -> None:
    assert "scout-4p" in trained_tables()
    net = network_for(new_game("scout", 4))
    assert net.meta["command"].startswith("bigtop train scout") and "seed" in net.meta
    assert weights_path("scout", 4).with_suffix(".json").exists()
    assert net.trunk[0][0].shape[0] == len(net.columns) == len(net.mean)
    assert net.policy[0].shape[1] == new_game("scout", 4).num_distinct_actions()
    policy = action_policy_for(new_game("scout", 4))
    assert policy.meta["command"].startswith("bigtop train scout")
    assert "--teacher medium" in policy.meta["command"] and policy.meta["seed"] == 1
    assert policy.mean.shape == policy.scale.shape == (policy.layers[0][0].shape[0],)


def test_inference_is_deterministic_and_reads_only_the_seats_view() -> None:
    game = new_game("scout", 4, {"rounds": 1})
    state = new_state("scout", 4, seed=11, options={"rounds": 1})
    play_random(state, random.Random(2), 9)
    p = state.current_player()
    other = state.resample_hidden(p, 99)
    assert other.observation(p) == state.observation(p) and other.to_json() != state.to_json()
    enc = Encoder(game)
    net = network_for(game)
    a = net.forward(enc.encode(state, p)[None])
    b = net.forward(enc.encode(other, p)[None])
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert NeuralPolicyAgent().act(state) == NeuralPolicyAgent().act(other)
    legal = state.legal_actions()
    scores = action_policy_for(game).score_actions(state, legal)
    assert np.array_equal(scores, action_policy_for(game).score_actions(other, legal))
    assert ActionPolicyAgent().act(state) == ActionPolicyAgent().act(other)
    assert NeuralValue()(state) == NeuralValue()(state.clone())
    # neural, and the four-player levels that search with the action policy (hard: 96
    # determinizations, about a tenth of a second here).
    for name in ("neural", "medium", "hard"):
        bot = make_bot(name, game, p, 3)
        assert bot.act(state) == make_bot(name, game, p, 3).act(other), name
        assert pickle.loads(pickle.dumps(bot)).act(state) == bot.act(state), name


def test_the_five_player_action_policy_loads_and_reads_only_the_seats_view() -> None:
    """The five-player policy (learned from the plain medium's games) carries its record,
    scores a position from the mover's view only, and ``neural`` plays with it; the
    five-player levels stay the plain searches."""
    game = new_game("scout", 5, {"rounds": 1})
    policy = action_policy_for(game)
    assert policy.meta["command"].startswith("bigtop train scout -p 5")
    assert "--teacher medium-plain" in policy.meta["command"] and policy.meta["seed"] == 1
    state = new_state("scout", 5, seed=12, options={"rounds": 1})
    play_random(state, random.Random(3), 11)
    p = state.current_player()
    other = state.resample_hidden(p, 5)
    assert other.observation(p) == state.observation(p) and other.to_json() != state.to_json()
    legal = state.legal_actions()
    assert np.array_equal(policy.score_actions(state, legal), policy.score_actions(other, legal))
    bot = make_bot("neural", game, p, 3)
    assert bot.act(state) == make_bot("neural", game, p, 3).act(other)
    medium = make_bot("medium", game, p, 3)
    assert isinstance(medium, PlannerAgent) and medium.profile == search_profile(game)


def shipped_from_medium(game: Game) -> ActionPolicy:
    """The table's shipped action policy, checked to carry the record of what made it:
    ``bigtop train`` on the plain medium's games, seed 1, and its features' width."""
    policy = action_policy_for(game)
    assert policy.meta["command"].startswith(f"bigtop train {game.name} -p {game.num_players}")
    assert "--teacher medium-plain" in policy.meta["command"] and policy.meta["seed"] == 1
    assert policy.mean.shape == (action_features_for(game)[0],)
    return policy


def test_clown_15_gos_action_policy_loads_and_reads_only_the_seats_view() -> None:
    """Clown 15 Go's two-player policy (learned from the plain medium's games) carries its
    record, scores a decision from what the mover sees only, and ``neural`` plays with it,
    deterministically; the table's levels stay the plain searches (docs/bots.md)."""
    game = new_game("clown-15-go", 2)
    policy = shipped_from_medium(game)
    state = game.new_initial_state(21)
    rng = random.Random(4)
    while len({str(a) for a in distinct_places(state)}) < 2:
        state.apply(rng.choice(state.legal_actions()))
    p = state.current_player()
    other = state.resample_hidden(p, 17)
    assert other.observation(p) == state.observation(p) and other.to_json() != state.to_json()
    legal = state.legal_actions()
    scores = policy.score_actions(state, legal)
    assert np.array_equal(scores, policy.score_actions(other, legal))
    assert np.array_equal(scores, policy.score_actions(state.clone(), legal))
    assert ActionPolicyAgent().act(state) == ActionPolicyAgent().act(other)
    bot = make_bot("neural", game, p, 3)
    # Pickled before it plays: a bot that has played keeps the game, and a compiled
    # Clown15GoGame does not unpickle (the pure one does).
    copy = pickle.loads(pickle.dumps(make_bot("neural", game, p, 3)))
    assert bot.act(state) == make_bot("neural", game, p, 3).act(other) == copy.act(state)
    four = action_policy_for(new_game("clown-15-go", 4))
    assert four.meta["command"].startswith("bigtop train clown-15-go -p 4")
    assert budget_for(game) == BUDGETS["clown-15-go"]
    with pytest.raises(BigtopError, match="no trained network for clown-15-go with 3"):
        make_bot("neural", new_game("clown-15-go", 3), 0, 1)


def test_so_ein_zirkuss_action_policy_loads_reads_only_the_seats_view_and_plays() -> None:
    """So ein Zirkus's two-player policy (learned from the plain medium's games) carries its
    record and scores a decision from what the mover sees only: the future rolls (the
    state's seed) redrawn, the scores stay. ``neural`` decides the same on both, and it and
    the policy alone play a full game legally; the table's levels stay the plain searches
    (docs/bots.md)."""
    game = new_game("so-ein-zirkus", 2)
    policy = shipped_from_medium(game)
    state = game.new_initial_state(5)
    rng = random.Random(6)
    while state.is_chance() or len(state.legal_actions()) < 4:
        if state.is_chance():
            state.apply_chance()
        else:
            state.apply(rng.choice(state.legal_actions()))
    p = state.current_player()
    other = state.resample_hidden(p, 17)
    assert other.observation(p) == state.observation(p) and other.seed != state.seed
    legal = state.legal_actions()
    scores = policy.score_actions(state, legal)
    assert len(set(scores.tolist())) > 1
    assert np.array_equal(scores, policy.score_actions(other, legal))
    assert np.array_equal(scores, policy.score_actions(state.clone(), legal))
    assert ActionPolicyAgent().act(state) == ActionPolicyAgent().act(other)
    assert make_bot("neural", game, p, 3).act(state) == make_bot("neural", game, p, 3).act(other)
    # A whole game, neural against the policy alone: every move legal, a winner at the end.
    full = game.new_initial_state(8)
    bots = [make_bot("neural", game, 0, 1), ActionPolicyAgent()]
    while not full.is_terminal():
        if full.is_chance():
            full.apply_chance()
            continue
        move = bots[full.current_player()].act(full)
        assert move in full.legal_actions()
        full.apply(move)
    assert full.winners()
    assert budget_for(game) == BUDGETS["so-ein-zirkus"]
    with pytest.raises(BigtopError, match="no trained network for so-ein-zirkus with 3"):
        make_bot("neural", new_game("so-ein-zirkus", 3), 0, 1)


def test_scouts_four_player_medium_is_neural() -> None:
    """At SCOUT's four-player table ``medium`` is ``neural`` (``TRAINED_BUDGETS``), and
    ``hard`` the plain search; every other table, and ``medium-plain``/``hard-plain`` at
    this one, play the plain searches of ``BUDGETS``."""
    four, three = new_game("scout", 4, {"rounds": 1}), new_game("scout", 3, {"rounds": 1})
    trained, plain = TRAINED_BUDGETS[("scout", 4)], BUDGETS["scout"]
    assert trained.medium == NEURAL and budget_for(three) == plain
    medium = make_bot("medium", four, 0, 1)
    assert isinstance(medium, PlannerAgent) and medium.iterations == NEURAL.iterations
    assert isinstance(medium.profile.candidates, ActionCandidates)
    assert medium.profile.candidates.top == NEURAL.top
    assert medium.profile.final_stage is last_round  # hard's deep profile
    for level in ("medium", "hard"):
        old = make_bot(f"{level}-plain", four, 0, 1)
        assert isinstance(old, PlannerAgent)
        assert old.profile == search_profile(four, getattr(plain, level).depth)
        assert old.iterations == getattr(plain, level).iterations
        other = make_bot(level, three, 0, 1)
        assert isinstance(other, PlannerAgent)
        assert not isinstance(other.profile.candidates, ActionCandidates)
    hard = make_bot("hard", four, 0, 1)
    assert isinstance(hard, PlannerAgent) and hard.iterations == plain.hard.iterations
    assert hard.profile == search_profile(four, "deep")


def test_the_egocentric_view_puts_the_observer_first() -> None:
    game = new_game("scout", 4)
    state = game.new_initial_state(4)
    enc = Encoder(game)
    views = [enc.layout.views(enc.encode(state, q)) for q in range(4)]
    for q, v in enumerate(views):
        assert v["seat"].tolist() == [1.0, 0.0, 0.0, 0.0]
        assert v["to_act"].tolist() == np.roll([1.0, 0, 0, 0], -q).tolist()  # P0 to act


def test_a_table_without_weights_is_refused_by_name() -> None:
    with pytest.raises(BigtopError, match="no trained network for scout with 3 players"):
        make_bot("neural", new_game("scout", 3), 0, 1)


def _sequential(a: str, b: str, max_rounds: int, look: int) -> tuple[str | None, float, int]:
    """One ``a`` against three ``b`` in single four-player SCOUT rounds, the seat rotating,
    until the sequential test decides or ``max_rounds``: (decision, share, rounds). ``a``
    may be ``action-policy``, the shipped action policy alone."""
    game = new_game("scout", 4, {"rounds": 1})
    test = SequentialTest(fair=0.25, max_trials=max_rounds, look_every=look)
    total = 0.0
    for i in range(max_rounds):
        seat = i % 4
        bots = [make_bot(b, game, q, 7919 * i + q) for q in range(4)]
        bots[seat] = (ActionPolicyAgent() if a == "action-policy"
                      else make_bot(a, game, seat, 7919 * i + seat))
        state = game.new_initial_state(50_000 + i)
        while not state.is_terminal():
            state.apply(bots[state.current_player()].act(state))
        winners = state.winners()
        total += 1 / len(winners) if seat in winners else 0.0
        decision = test.decide(total, i + 1)
        if decision:
            return decision, total / (i + 1), i + 1
    return None, total / max_rounds, max_rounds


@pytest.mark.slow
def test_the_action_policy_alone_beats_easy_in_a_bounded_match() -> None:
    """The action policy alone (no search, a fraction of a millisecond a move) must be
    decided *stronger* than three ``easy`` — the rule of thumb it starts from — within 200
    single rounds (a look every 20)."""
    decision, share, rounds = _sequential("action-policy", "easy", 200, 20)
    assert decision == "stronger", (share, rounds)


@pytest.mark.slow
def test_neural_beats_easy_in_a_bounded_match() -> None:
    """The sequential test must decide ``neural`` *stronger* than three ``easy`` within 80
    single rounds (a look every 20)."""
    decision, share, rounds = _sequential("neural", "easy", 80, 20)
    assert decision == "stronger", (share, rounds)


@pytest.mark.slow
def test_neural_beats_medium_in_a_bounded_match() -> None:
    """Against three of the plain ``medium`` (``medium-plain``: the default level at every
    table but this one, which ``neural`` replaced here) the sequential test must decide
    ``neural`` *stronger* within 1,000 single rounds (a look every 20). It decides at 400
    (0.325 of them; about 46 CPU seconds with the compiled bots, docs/bots.md has the long
    matches): a difference of a few hundredths takes hundreds of rounds to be sure of."""
    decision, share, rounds = _sequential("neural", "medium-plain", 1000, 20)
    assert decision == "stronger", (share, rounds)
