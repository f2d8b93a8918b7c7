"""The bot ladder: every level is fair (decides from its seat's observation only),
deterministic for a seed and an iteration budget, picklable, and ordered."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bigtop.agents.base import Agent, RandomAgent, play_game, play_random
from bigtop.agents.ismcts import SearchProfile, playout
from bigtop.agents.levels import (
    ABOUT,
    ALIASES,
    BOT_NAMES,
    BUDGETS,
    LEVELS,
    level_infos,
    make_bot,
    search_profile,
)
from bigtop.agents.planner import PlannerAgent
from bigtop.core.actions import Action
from bigtop.core.errors import BigtopError
from bigtop.core.game import State
from bigtop.core.registry import capabilities, game_names, get_game, new_game, new_state
from bigtop.games.scout.bot import last_round
from bigtop.games.scout.rules import ScoutState

# Small tables of every game, one or two rounds, for quick games.
TABLES: dict[str, tuple[int, dict[str, object]]] = {
    "scout": (3, {"rounds": 1}),
    "tricky-landing": (3, {"rounds": 1}),
    "so-ein-zirkus": (2, {}),
    "clown-15-go": (2, {"last_card": "turned"}),
}


def _midgame(name: str, seed: int, steps: int) -> State:
    """A state some random moves into a game, with a player (not chance) to move."""
    players, options = TABLES[name]
    state = new_state(name, players, seed=seed, options=options)
    play_random(state, random.Random(seed), steps)
    while state.is_chance():
        state.apply_chance()
    assert not state.is_terminal()
    return state


def test_tables_cover_every_game() -> None:
    assert set(TABLES) == set(game_names()) == set(BUDGETS)


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("level", BOT_NAMES)
def test_decision_depends_only_on_the_observation(name: str, level: str) -> None:
    """Two states that differ only in what the mover cannot see (hidden cards, the seed and
    with it every future die roll, throw and deal) get the same decision from every bot."""
    for k, steps in enumerate((3, 11)):
        state = _midgame(name, seed=40 + k, steps=steps)
        p = state.current_player()
        other = state.resample_hidden(p, 1234 + k)
        assert other.observation(p) == state.observation(p)
        assert other.to_json() != state.to_json()
        a = make_bot(level, state.game, p, seed=9).act(state)
        b = make_bot(level, other.game, p, seed=9).act(other)
        assert a == b, (name, level, steps)
        assert a in state.legal_actions()


@pytest.mark.parametrize("name", game_names())
def test_search_levels_are_deterministic_for_a_seed_and_budget(name: str) -> None:
    def moves(seed: int) -> list[Action]:
        state = _midgame(name, seed=5, steps=2)
        bot = make_bot("medium", state.game, state.current_player(), seed, iterations=12)
        out = []
        for _ in range(3):
            while state.is_chance():
                state.apply_chance()
            if state.is_terminal():
                break
            action = bot.act(state)
            out.append(action)
            state.apply(action)
        return out

    assert moves(3) == moves(3)


def test_time_limit_stops_a_search() -> None:
    """A budget no search could finish ends at the time limit with a legal move."""
    state = _midgame("scout", seed=2, steps=0)
    bot = make_bot("hard", state.game, state.current_player(), 1, iterations=10**9,
                   time_limit=0.05)
    assert bot.act(state) in state.legal_actions()


def test_bad_bot_arguments_are_refused() -> None:
    g = new_game("scout", 3)
    with pytest.raises(BigtopError, match="does not search"):
        make_bot("easy", g, 0, 0, iterations=5)
    with pytest.raises(BigtopError, match="time_limit"):
        make_bot("random", g, 0, 0, time_limit=1.0)
    with pytest.raises(BigtopError, match="time_limit must be"):
        make_bot("hard", g, 0, 0, time_limit=0.0)
    with pytest.raises(BigtopError, match="iterations must be"):
        make_bot("hard", g, 0, 0, iterations=0)


@pytest.mark.parametrize("level", BOT_NAMES)
def test_a_bot_seed_that_is_no_seed_is_refused(level: str) -> None:
    """make_bot takes a seed as new_initial_state does (check_seed: a whole number
    0..2**63-1), for every level alike: before, the compiled random bot raised mypyc's
    TypeError for None, 0.5 or a numpy integer, a searching one Python's random.Random
    TypeError for a numpy integer or a list and played on with a float, True or -1."""
    g = new_game("scout", 3)
    for seed in (None, True, -1, 2**63, 0.5, "3", np.int64(3), [1]):
        with pytest.raises(BigtopError, match="seed must be"):
            make_bot(level, g, 0, seed)  # type: ignore[arg-type]
    assert make_bot(level, g, 0, 2**63 - 1) is not None


_PICKLE_CHECK = """
import pickle, random
from bigtop.agents.levels import BOT_NAMES, SEARCH_BOTS, make_bot
from bigtop.core.registry import game_names
from tests.agents.test_levels import _midgame
for name in game_names():
    state = _midgame(name, seed=7, steps=4)
    p = state.current_player()
    for level in BOT_NAMES:
        extra = {"iterations": 10} if level in SEARCH_BOTS else {}
        bot = make_bot(level, state.game, p, 3, **extra)
        copy = pickle.loads(pickle.dumps(bot))
        assert copy.act(state.clone()) == bot.act(state.clone()), (name, level)
print("ok")
"""


def test_every_bot_pickles_and_plays_the_same_after() -> None:
    """Worker processes get bots by pickling: a copy plays exactly like the original. (In a
    fresh interpreter: doctest collection in this one may import game modules twice.)"""
    root = Path(__file__).parents[2]
    out = subprocess.run([sys.executable, "-c", _PICKLE_CHECK], cwd=root, capture_output=True,
                         text=True, timeout=300, check=False)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_level_infos_list_the_ladder_then_the_aliases() -> None:
    for name in game_names():
        infos = level_infos(name)
        assert tuple(i.name for i in infos) == BOT_NAMES
        assert [i.iterations for i in infos[2:4]] == [BUDGETS[name].medium.iterations,
                                                      BUDGETS[name].hard.iterations]
        # Each in a player's words (what the lobby shows), the yardsticks marked apart.
        assert [(i.name, i.about) for i in infos] == list(ABOUT.items())
        assert [i.name for i in infos if i.yardstick] == list(ALIASES)


# The tables of the quick samples below: those of docs/bots.md (bench/bench_bots.py SETUPS),
# but SCOUT in single rounds (a quarter of the time). SCOUT's hard against medium shows
# only in full games and only over dozens of them (12 seeded games: 3 CPU minutes, a third
# of make test's budget): bench/bench_bots.py measures it, with a confidence interval.
LADDER_TABLES: dict[str, tuple[int, dict[str, object]]] = {
    "scout": (4, {"rounds": 1}),
    "tricky-landing": (3, {"rounds": 1}),
    "so-ein-zirkus": (2, {}),
    "clown-15-go": (2, {"last_card": "turned"}),
}


def _share(name: str, a: str, b: str, games: int, seed: int,
           options: dict[str, object] | None = None) -> float:
    """A's win share with one A and the rest B, A's seat rotating (at the ladder's table,
    or with other rule ``options``)."""
    players, table_options = LADDER_TABLES[name]
    options = table_options if options is None else options
    game = new_game(name, players, options)
    total = 0.0
    for i in range(games):
        seat = i % players
        bots = [make_bot(a if q == seat else b, game, q, 100 * i + q + seed)
                for q in range(players)]
        state = game.new_initial_state(seed * 1000 + i)
        play_game(state, bots)
        winners = state.winners()
        total += 1 / len(winners) if seat in winners else 0.0
    return total / games


# Clown 15 Go's basic game is mostly luck (easy takes about 0.58 of two-player games against
# random play, the first bot 0.54), so it needs more games; they are quick.
EASY_SAMPLES: dict[str, tuple[int, float]] = {"clown-15-go": (400, 0.55)}


@pytest.mark.parametrize("name", game_names())
def test_easy_beats_random(name: str) -> None:
    players = LADDER_TABLES[name][0]
    games, bar = EASY_SAMPLES.get(name, (16, 1.2 / players))
    assert _share(name, "easy", "random", games, seed=1) > bar


# The ladder's established steps (docs/bots.md), with enough games that the measured
# margins show on a seeded sample. Not here, three steps established with too small a
# margin for a quick sample: Clown 15 Go hard over medium (0.513 of 10,000 games), Clown 15
# Go medium over easy (0.532 of 2,600 games; 0.500 of 120 here) and Tricky
# Landing hard over medium (0.408 of 500; 0.229 of 24 here). SCOUT's hard over medium is
# checked in full games below: in single rounds its margin (about 0.32 against 0.25) does
# not show in a quick sample (0.25 of 24 and of 48 seeded rounds). SCOUT's medium at this
# table (four players) is `neural` since issue #26's third round (levels.TRAINED_BUDGETS).
LADDER_CLAIMS: list[tuple[str, str, str, int]] = [
    ("scout", "medium", "easy", 40),
    ("so-ein-zirkus", "medium", "easy", 16),
    ("so-ein-zirkus", "hard", "medium", 8),
    ("tricky-landing", "medium", "easy", 30),
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "a", "b", "games"), LADDER_CLAIMS)
def test_ladder_order_on_a_small_sample(name: str, a: str, b: str, games: int) -> None:
    """A search level takes more than its fair share against the level below (a small
    seeded sample; docs/bots.md has the significant figures)."""
    players = LADDER_TABLES[name][0]
    assert _share(name, a, b, games, seed=2) > 1 / players


def test_levels_are_weakest_first() -> None:
    assert LEVELS == ("random", "easy", "medium", "hard")
    assert isinstance(make_bot("random", new_game("scout", 2), 0, 1), RandomAgent)
    assert isinstance(make_bot("hard", new_game("scout", 2), 0, 1), PlannerAgent)
    assert get_game("scout").min_players == 2


def test_deep_levels_search_with_the_games_deep_profile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name, budget in BUDGETS.items():
        for search in (budget.medium, budget.hard):
            game = new_game(name, get_game(name).min_players)
            profile = search_profile(game, search.depth)
            bot = make_bot("hard" if search is budget.hard else "medium", game, 0, 1)
            assert getattr(bot, "profile", None) == profile, (name, search)
    assert BUDGETS["tricky-landing"].hard.depth == "deep"
    assert BUDGETS["scout"].hard.depth == "deep"
    # Every game declares both profiles in its capability record, and the levels use them.
    record = capabilities("clown-15-go")
    assert search_profile(new_game("clown-15-go", 2), "deep") == record.deep_search_profile(
        new_game("clown-15-go", 2))


def test_scout_hard_plays_the_last_round_for_the_final_standing() -> None:
    """SCOUT's deep profile (``hard``) is the standard one whose game's last round (a
    one-round game's only one) is played for the final standing, nothing else changed."""
    for rounds in (1, 4):
        game = new_game("scout", 4, {"rounds": rounds})
        standard, deep = search_profile(game), search_profile(game, "deep")
        assert deep.final_stage is last_round and standard.final_stage is None
        assert replace(deep, final_stage=None, summary=standard.summary) == standard
    assert BUDGETS["scout"].hard.iterations > BUDGETS["scout"].medium.iterations


def test_the_planner_plays_the_last_round_for_the_final_standing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``final_stage`` the planner's rollouts of the game's last round are valued from
    nothing (every seat's value itself, the standing) against the best other seat; in
    earlier rounds from the position's values (the gains) against the others' mean."""
    import bigtop.agents.planner as planner

    seen: list[tuple[list[float], bool]] = []
    real = playout  # what the planner calls (it imports it from the search module)

    def recording(det: State, base: list[float], profile: SearchProfile, players: list[Agent],
                  rng: random.Random, limit: int) -> list[float]:
        seen.append((list(base), profile.against_best))
        return real(det, base, profile, players, rng, limit)

    monkeypatch.setattr(planner, "playout", recording)
    full = new_game("scout", 4)
    profile = search_profile(full, "deep")
    state = full.new_initial_state(5)
    assert isinstance(state, ScoutState)
    for stage in ("earlier", "last"):
        while last_round(state) != (stage == "last") or len(
                profile.candidates(state)) < 2:  # type: ignore[misc]
            state.apply(state.legal_actions()[-1])
        seen.clear()
        action = PlannerAgent(3, 1, profile).act(state)
        assert action in state.legal_actions() and len(seen) >= 6
        if stage == "last":
            assert all(base == [0.0] * 4 and best for base, best in seen)
            assert any(state.totals)  # the earlier rounds' points are in the standing
        else:
            assert all(base != [0.0] * 4 and not best for base, best in seen)


@pytest.mark.parametrize("name", game_names())
def test_every_level_refuses_a_finished_game_a_chance_node_and_another_games_state(
        name: str) -> None:
    """A bot asked to act where nobody decides (the game over, or chance to act) or in
    another game's state says so (BigtopError) instead of failing inside its search
    (IndexError, AssertionError, or no error at all)."""
    cls = get_game(name)
    n = cls.min_players
    s = new_game(name, n, cls.conformance_options(n)[0]).new_initial_state(7)
    rng = random.Random(7)
    chance = None
    while not s.is_terminal():
        if s.is_chance() and chance is None:
            chance = s.clone()
        s.apply_chance() if s.is_chance() else s.apply(rng.choice(s.legal_actions()))
    other = new_state("scout" if name != "scout" else "clown-15-go", players=2, seed=1)
    for level in ("random", "easy", "medium", "hard"):
        bot = make_bot(level, s.game, 0, 1)
        for state, says in ((s, "is over"), (other, "not"), (chance, "chance acts")):
            if state is None or (level == "random" and state is other):
                continue  # the random bot plays any game: it was made for none
            with pytest.raises(BigtopError, match=says):
                bot.act(state)
