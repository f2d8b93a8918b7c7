"""Random-simulation conformance test run on every registered game (OpenSpiel's
random_sim_test is the model), for every player count and each game's option combinations.

At every step it checks: a live state has at least one legal action; the chosen listed action
applies; a sample of unlisted and malformed actions is rejected with the state unchanged;
the JSON form round-trips and validates (which re-checks conservation of cards and pieces);
``audit()`` holds (conservation, score bookkeeping); the integer encoding round-trips; every
player's observation is unchanged when the others' hidden information is re-sampled, and equal
observations resample equally for the same seed; a loaded position is live (it has a legal
action) or over, and plays on. At the end: replaying (seed, actions) reproduces the state
exactly and scores/ranking agree.
"""

from __future__ import annotations

import json
import random
import zlib

import pytest

from bigtop.core.actions import Action
from bigtop.core.errors import BigtopError, IllegalActionError, MalformedActionError
from bigtop.core.game import CHANCE, Game, State
from bigtop.core.registry import game_names, get_game, new_game

GAMES_PER_CASE = 3
"""Games of each player count under the rulebook's options; each other option combination
(nine cases in ten) plays one game, with a seed of its own, so that the combinations
between them see many deals rather than the same three."""
# Full checks are expensive (JSON, resampling); make them every k-th step of long games.
CHECK_EVERY_MAX_STEPS = 400


def _cases() -> list[tuple[str, int, dict[str, object]]]:
    out = []
    for name in game_names():
        cls = get_game(name)
        for n in range(cls.min_players, cls.max_players + 1):
            for opts in cls.conformance_options(n):
                out.append((name, n, opts))
    return out


def _case_id(case: tuple[str, int, dict[str, object]]) -> str:
    name, n, opts = case
    extra = ",".join(f"{k}={v}" for k, v in sorted(opts.items()))
    return f"{name}-{n}p" + (f"-{extra}" if extra else "")


CASES = _cases()


def _unlisted_actions(game: Game, state: State, rng: random.Random) -> list[Action]:
    legal = state.legal_actions()
    legal_set = set(legal)
    out = []
    for _ in range(8):
        a = game.action_from_int(rng.randrange(game.num_distinct_actions()))
        if a not in legal_set:
            out.append(a)
    return out


def _check_rejections(game: Game, state: State, rng: random.Random) -> None:
    before = json.dumps(state.to_json(), sort_keys=True)
    for a in _unlisted_actions(game, state, rng):
        # Games with continuous actions accept more than they list, but every action of the
        # integer encoding that is not listed is illegal.
        with pytest.raises(IllegalActionError):
            state.apply(a)
    bad: object
    for bad in ({"type": "no-such-move"}, [], "show", {"type": None}, 17):
        with pytest.raises(MalformedActionError):
            state.apply_json(bad)
    with pytest.raises(BigtopError):
        state.apply_int(game.num_distinct_actions())
    assert json.dumps(state.to_json(), sort_keys=True) == before, "rejected action changed state"


def _check_position(game: Game, state: State, rng: random.Random) -> None:
    data = state.to_json()
    text = json.dumps(data)
    loaded = game.state_from_json(json.loads(text))
    assert loaded == state
    assert loaded.legal_actions() == state.legal_actions()
    assert loaded.current_player() == state.current_player()
    state.audit()
    # A loaded position is live with a legal action, or over; and it plays on.
    assert loaded.is_terminal() or loaded.legal_actions(), "loaded a dead position"
    if not loaded.is_terminal():
        legal = loaded.legal_actions()
        loaded.apply(legal[rng.randrange(len(legal))])
        loaded.audit()
    n = game.num_players
    views = [state.observation(p) for p in range(n)]
    public = state.observation(None)
    json.dumps(views)
    json.dumps(public)
    assert "seed" not in public
    for p in range(n):
        for k in range(2):
            other = state.resample_hidden(p, rng.randrange(2**32) + k)
            assert other.observation(p) == views[p], f"observation of P{p} changed on resample"
            assert other.observation(None) == public
            other.audit()
            if state.current_player() == p:
                assert other.legal_actions() == state.legal_actions()
        # The draw may depend only on what p sees and the seed, never on the true hidden
        # information: resampling a resampled state with the same seed gives the same state.
        k = rng.randrange(2**32)
        once = state.resample_hidden(p, k)
        assert once.resample_hidden(p, k) == once, (
            f"resample_hidden(P{p}) depends on the hidden information it replaces "
            "(sort the pool of unseen cards before shuffling)")
        again = state.resample_hidden(p, k)
        assert again == once, "resample_hidden is not deterministic in its seed"
        # Equal observations, equal resamples: a state with other hidden information but
        # the same view of p resamples exactly as this one.
        twin = state.resample_hidden(p, rng.randrange(2**32))
        assert twin.observation(p) == views[p]
        assert twin.resample_hidden(p, k) == once, (
            f"resample_hidden(P{p}) depends on more than observation(P{p}) and the seed")


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_random_games(case: tuple[str, int, dict[str, object]]) -> None:
    name, n, opts = case
    game = new_game(name, n, opts)
    own = zlib.crc32(_case_id(case).encode())
    for g in range(GAMES_PER_CASE if not opts else 1):
        seed = 1000 * g + 7 if not opts else own
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        assert state == game.new_initial_state(seed), "not deterministic from the seed"
        steps = 0
        hidden_differs = False
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal, "live state without legal actions"
            check = steps < 40 or rng.random() < 40 / CHECK_EVERY_MAX_STEPS
            if check:
                _check_position(game, state, rng)
                _check_rejections(game, state, rng)
                if game.has_hidden_information and not hidden_differs:
                    p = rng.randrange(n)
                    hidden_differs = state.resample_hidden(p, steps) != state
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
                action = state.apply_chance()
            else:
                action = legal[rng.randrange(len(legal))]
                assert game.action_from_int(game.action_to_int(action)) == action
                assert game.action_from_json(json.loads(json.dumps(action.to_json()))) == action
                line = state.describe(action)
                assert isinstance(line, str) and line
                state.apply(action)
            steps += 1
            assert steps < 200_000, "game did not end"
        _check_position(game, state, rng)
        assert state.legal_actions() == []
        with pytest.raises(IllegalActionError):
            state.apply(game.action_from_int(0))
        scores = state.scores()
        ranking = state.ranking()
        assert len(scores) == n and len(ranking) == n
        assert min(ranking) == 1 and set(state.winners()) == {
            p for p in range(n) if ranking[p] == 1}
        if game.has_hidden_information:
            assert hidden_differs or steps < 5, "resample_hidden never changed anything"
        # Replay from (seed, actions) reproduces the state.
        replay = game.new_initial_state(seed)
        for a in state.history:
            replay.apply(a)
        assert replay == state
        # A clone is independent of the original.
        clone = state.clone()
        assert clone == state and clone is not state
