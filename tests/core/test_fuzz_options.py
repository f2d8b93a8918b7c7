"""Every rule option's alternative, in combination, at the fewest and the most players (the
fuzz brief, fourth round): seeded games played by random moves and by the bots of the
``easy`` level (and ``medium`` in the long run), checked as they go.

The option sets of a game and player count are a *pairwise covering*: every two values of
two options (each choice, both sides of a flag, small values that make the limits bite beside
the defaults, every starting seat) meet in at least one set; the defaults are the first set.
At a checked position of a game under a set:

- ``problems()`` is empty (at every fourth position between full checks too);
- the JSON round trip is exact: the loaded state's JSON text equals the state's (key order
  too), it lists the same legal actions, and every seat's and a spectator's observation is
  equal after ``json.loads(json.dumps(...))`` (no tuple, NaN or set in a view);
- ``clone()`` is equal and independent (a move played on the clone leaves the state as it
  was);
- a live state lists an action (at every position), the legal ones tried (all of a short
  list, a sample of a long one) are accepted and leave a sound state; actions listed in
  *other* positions of the game, or in the integer encoding of any set of the covering (a
  borrow where borrowing is off, an upended clown), but not here, are refused with
  :class:`IllegalActionError`, the state unchanged;
- a bot asked for a move leaves the state as it was; the game ends within a bound, its
  scores and ranking agree.

Leaks, at other positions: everything a seat (and a spectator) is told — the leak hunt's
``told`` (observation, text, picture, legal moves with their lines, the move menu), the
observation tensor, the refusals of probe actions — is unchanged when ``resample_hidden``
redraws what that seat cannot see, and the seat's bot, with the same seed, picks the same
move in the redrawn position. The leak hunt's public-text check (a move's public line and
summaries follow from what each other seat sees) and the games' brute-force readings of the
rulebook (``reference_legal``, ``check_effect``) run under the sets too.

``make test`` plays one game per option set, checking every 60th position in full and
hunting leaks at every 120th (some six CPU seconds for the module, compiled). The long run
checks every position, hunts leaks at every 7th and prints how the games ended per option
set (3 games a set: a quarter of an hour, compiled)::

    BIGTOP_FUZZ_OPTIONS=3 .venv/bin/pytest -p no:xdist -s tests/core/test_fuzz_options.py

(games per option set; ``BIGTOP_FUZZ_OPTION_SETS=N`` adds N random combinations per game and
player count beyond the covering ones.)
"""

from __future__ import annotations

import importlib
import json
import os
import random
import zlib
from collections import Counter
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from tests.core.option_cover import axes, option_sets, player_counts
from tests.core.test_fuzz_leaks import probes, public_texts_hunt, told
from tests.games.audit import play_checked as audit_play
from tests.games.audit import refusals
from tests.games.test_teach import RULING_CODE

from bigtop.agents.base import Agent
from bigtop.agents.levels import make_bot
from bigtop.core.actions import Action
from bigtop.core.errors import IllegalActionError
from bigtop.core.game import Game, State
from bigtop.core.registry import game_names, get_game, load_state, new_game
from bigtop.games import teaching
from bigtop.games.scout.rules import ScoutGame, ScoutState
from bigtop.interop.tensors import layout_for

GAMES = game_names()
LONG = int(os.environ.get("BIGTOP_FUZZ_OPTIONS", "0"))
"""Games per option set of the long run (0: ``make test``'s bounded run, one game each)."""
EXTRA_SETS = int(os.environ.get("BIGTOP_FUZZ_OPTION_SETS", "0"))
MAX_STEPS = 20_000
TRIED_LEGAL = 6
"""Legal actions tried on copies at a position (beside the one played)."""
TRIED_ILLEGAL = 6


def cases() -> list[tuple[str, int, int]]:
    """(game, players, index of the option set)."""
    return [(name, n, k) for name in GAMES for n in player_counts(name)
            for k in range(len(option_sets(name, n, EXTRA_SETS)))]


# -- the checks --------------------------------------------------------------------------

def _text(s: State) -> str:
    return json.dumps(s.to_json(), allow_nan=False)


@cache
def every_listable_action(name: str, players: int) -> tuple[Action, ...]:
    """The actions of the integer encodings of every option set of the covering for this
    player count: moves of rules that another set turns on (a borrow, an upended clown, a
    turned hand) are probes too."""
    out: set[Action] = set()
    for opts in option_sets(name, players):
        out.update(new_game(name, players, opts).action_table.actions)
    return tuple(sorted(out, key=repr))


def check_position(s: State, seen: set[Action], rng: random.Random) -> list[Action]:
    """Every check of one position (see the module doc); returns its legal actions."""
    trouble = s.problems()
    assert trouble == [], trouble
    text = _text(s)
    # (load_state would make the game afresh, action table and all, every time.)
    loaded = s.game.state_from_json(json.loads(text))
    assert _text(loaded) == text, "the JSON round trip is not exact"
    legal = s.legal_actions()
    assert loaded.legal_actions() == legal
    assert loaded.current_player() == s.current_player()
    n = s.game.num_players
    for p in [None, *range(n)]:
        view = s.observation(p)
        assert json.loads(json.dumps(view, allow_nan=False)) == view, (p, "view round trip")
        assert loaded.observation(p) == view
    if s.is_terminal():
        assert legal == []
        assert _text(load_state(json.loads(text))) == text
        scores, ranking = s.scores(), s.ranking()
        assert len(scores) == n and min(ranking) == 1
        assert set(s.winners()) == {p for p in range(n) if ranking[p] == 1}
        return legal
    assert legal, "a live state lists no action"
    assert len(set(legal)) == len(legal), "an action listed twice"
    # A clone is the state and independent of it.
    twin = s.clone()
    assert twin == s and twin is not s
    if not s.is_chance():
        tried = legal if len(legal) <= TRIED_LEGAL else rng.sample(legal, TRIED_LEGAL)
        for a in tried:
            copy = s.clone()
            copy.apply(a)
            assert not copy.problems(), (a, copy.problems())
        twin.apply(tried[0])
        assert _text(s) == text, "a move on a clone changed the state"
        listed = set(legal)
        others = sorted((a for a in seen if a not in listed), key=repr)
        unlisted = rng.sample(others, min(TRIED_ILLEGAL, len(others)))
        table = every_listable_action(s.game.name, n)
        unlisted += [a for a in rng.sample(table, min(TRIED_ILLEGAL, len(table)))
                     if a not in listed]
        for a in unlisted:
            with pytest.raises(IllegalActionError):
                s.apply(a)
            assert _text(s) == text, ("a refused action changed the state", a)
        seen.update(legal)
    return legal


def end_reasons(s: State) -> list[str]:
    """How a finished game ended, in the game's own words (SCOUT: one per round)."""
    pos: dict[str, Any] = s.to_json()["position"]
    name = s.game.name
    if name == "scout":
        return [str(r["ending"]) for r in pos["round_log"]]
    if name == "clown-15-go":
        return [str(pos["end_reason"])]
    if name == "so-ein-zirkus":
        return [str(g.get("ending")) for g in pos["games"]] or [str(pos["ending"])]
    return [f"{len(pos['round_scores'])} rounds played"]


BOT_LEVELS = ("easy", "medium") if LONG else ("easy",)
"""The bots that move in the games (``make_bot`` levels; the search level in the long run
only: some tens of milliseconds a move)."""


def bots(game: Game, seed: int) -> list[Agent]:
    return [make_bot(BOT_LEVELS[(seed + p) % len(BOT_LEVELS)], game, p, seed)
            for p in range(game.num_players)]


def play_checked(game: Game, seed: int, bot_share: float, check_every: int = 1,
                 leak_every: int = 0) -> tuple[State, int]:
    """A seeded game, each move a bot's (with probability ``bot_share``) or a random legal
    one, every ``check_every``-th position checked in full and every ``leak_every``-th
    (0: none) hunted for leaks. Returns the final state and the number of steps."""
    rng = random.Random(seed)
    # The checks draw from a generator of their own: the game is the same however often
    # it is checked.
    checks = random.Random(seed + 1)
    s = game.new_initial_state(seed)
    players = bots(game, seed)
    seen: set[Action] = set()
    steps = 0
    while True:
        if steps % check_every == 0 or s.is_terminal():
            check_position(s, seen, checks)
        else:
            assert s.legal_actions(), "a live state lists no action"
            if steps % 4 == 0:
                assert s.problems() == [], s.problems()
                if not s.is_chance():
                    seen.update(s.legal_actions())
        if leak_every and steps % leak_every == leak_every // 2 and not s.is_terminal():
            check_leaks(s, checks)
        if s.is_terminal():
            return s, steps
        if s.is_chance():
            s.apply_chance()
        elif rng.random() < bot_share:
            # (The position without the history: with it every move would cost as much as
            # the game so far.)
            before = s.to_json(with_history=False), len(s.history)
            action = players[s.current_player()].act(s)
            assert (s.to_json(with_history=False), len(s.history)) == before, \
                "a bot changed the state it was asked about"
            s.apply(action)
        else:
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
        steps += 1
        assert steps < MAX_STEPS, "the game does not end"


def told_more(s: State, seat: int | None) -> str:
    """:func:`told` and the seat's observation tensor."""
    extra: list[float] = []
    if seat is not None:
        extra = [float(x) for x in layout_for(s.game).tensor(s, seat)]
    return told(s, seat) + json.dumps(extra)


def check_leaks(s: State, rng: random.Random) -> None:
    """What each seat (and a spectator) is told, and what it is refused, unchanged when
    what it cannot see is redrawn."""
    n = s.game.num_players
    for seat in [None, *range(n)]:
        keeper = seat if seat is not None else rng.randrange(n)
        mine = told_more(s, seat)
        tries = probes(s, rng, per_kind=4) if seat == s.current_player() else []
        refused = refusals(s, tries)
        other = s.resample_hidden(keeper, rng.randrange(2**63))
        assert told_more(other, seat) == mine, (seat, "told differs after resampling")
        assert refusals(other, tries) == refused, (seat, "refusals differ after resampling")
        if seat is not None and seat == s.current_player():
            # A bot plays from what its seat sees: the same bot (same seed) picks the same
            # move in a position its seat cannot tell apart.
            for level in BOT_LEVELS:
                seed = rng.randrange(2**32)
                mine_move = make_bot(level, s.game, seat, seed).act(s)
                their_move = make_bot(level, s.game, seat, seed).act(other)
                assert mine_move == their_move, (level, seat, "a bot peeks")


# -- the tests ---------------------------------------------------------------------------

CASES = cases()


def _id(case: tuple[str, int, int]) -> str:
    name, n, k = case
    return f"{name}-{n}p-{k}"


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_every_option_combination_plays_soundly(case: tuple[str, int, int]) -> None:
    name, n, k = case
    opts = option_sets(name, n, EXTRA_SETS)[k]
    game = new_game(name, n, opts)
    own = zlib.crc32(_id(case).encode())
    for g in range(max(1, LONG)):
        seed = own + 7919 * g
        # Bots and random moves alternate between games and mix inside them.
        share = (0.0, 0.5, 1.0)[(k + g) % 3]
        # make test: every 60th position in full, a leak hunt at every 120th (a few CPU
        # seconds for all the sets); the long run: every position, a leak hunt every 7th.
        s, _ = play_checked(game, seed, share, check_every=1 if LONG else 60,
                            leak_every=7 if LONG else 120)
        _ENDINGS[(name, n, k)].update(end_reasons(s))


_ENDINGS: dict[tuple[str, int, int], Counter[str]] = {c: Counter() for c in CASES}


ORACLES = {"scout": "tests.games.scout.test_rulebook_fuzz",
           "clown-15-go": "tests.games.clown15go.test_rulebook_fuzz",
           "so-ein-zirkus": "tests.games.zirkus.test_rulebook_fuzz"}
"""The games' independent readings of the rulebook (``reference_legal``, ``check_effect``),
written for their conformance option sets."""


ORACLE_CASES = [c for c in CASES if c[0] in ORACLES]


@pytest.mark.parametrize("case", ORACLE_CASES, ids=[_id(c) for c in ORACLE_CASES])
def test_the_rulebook_readings_hold_under_the_combinations(case: tuple[str, int, int]) -> None:
    """Random legal play under a covering set, checked against the game's own brute-force
    reading of the rules after every move (legal actions and each move's effect)."""
    name, n, k = case
    oracle = importlib.import_module(ORACLES[name])
    game = new_game(name, n, option_sets(name, n, EXTRA_SETS)[k])
    own = zlib.crc32(_id(case).encode())
    for g in range(max(1, LONG)):
        s = game.new_initial_state(own + g)
        audit_play(s, random.Random(own + g), oracle.reference_legal, oracle.check_effect)
        assert s.is_terminal()


PUBLIC_CASES = CASES if LONG else [c for c in CASES if c[2] % 5 == 1]


@pytest.mark.parametrize("case", PUBLIC_CASES, ids=[_id(c) for c in PUBLIC_CASES])
def test_public_texts_follow_from_what_each_seat_sees(case: tuple[str, int, int]) -> None:
    """The leak hunt's public describe lines and round and trick summaries (a function of
    each other seat's views before and after the move) under the combinations; make test:
    every fifth set."""
    name, n, k = case
    public_texts_hunt(name, n, seed=zlib.crc32(_id(case).encode()), every=1 if LONG else 5,
                      widest=40 if LONG else 8,
                      options=option_sets(name, n, EXTRA_SETS)[k])


def test_the_rules_fit_the_screen_under_every_set() -> None:
    """tests/games/test_teach.py's bounds (22 lines of rules, 4 of introduction, 78
    columns, no ruling code) for every set of the covering, not a dozen chosen ones."""
    for name in GAMES:
        lesson = teaching(name)
        for n in player_counts(name):
            for opts in option_sets(name, n, EXTRA_SETS):
                game = new_game(name, n, opts)
                for text, most in ((lesson.rules_text(game), 22), (lesson.intro(game), 4)):
                    lines = text.splitlines()
                    assert 0 < len(lines) <= most, (name, n, opts, text)
                    assert all(len(line) <= 78 for line in lines), (name, n, opts, text)
                    # (Clown 15 Go's cards of other colour letters are written like Z7.)
                    if "colours" not in opts:
                        assert not RULING_CODE.search(text), (name, n, opts, text)


def test_every_option_value_is_in_some_set() -> None:
    """The covering holds every value of every axis (a pair the game refuses may be missing,
    a single value never)."""
    for name in GAMES:
        for n in player_counts(name):
            sets = option_sets(name, n)
            defaults = {i.name: i.default for i in get_game(name).options_type.info()}
            for key, values in axes(name, n).items():
                used = {json.dumps(o.get(key, defaults[key])) for o in sets}
                assert used >= {json.dumps(v) for v in values}, (name, n, key)


def test_the_illegal_probe_can_fail() -> None:
    """The check refuses a state that takes a move it does not list (a SCOUT that lets any
    move through), with probes from another position and from the action encoding."""

    class Lax(ScoutState):
        def _is_legal(self, action: Action) -> bool:
            return True

    game = new_game("scout", 2)
    assert isinstance(game, ScoutGame)
    honest = game.new_initial_state(1)
    for seen in (set(game.new_initial_state(2).legal_actions()), set()):
        lax = Lax(game, 1)
        lax._deal()
        assert lax == honest
        check_position(honest, set(seen), random.Random(0))
        with pytest.raises(pytest.fail.Exception, match="DID NOT RAISE"):
            check_position(lax, set(seen), random.Random(0))


def iter_endings() -> Iterator[str]:
    for (name, n, k), counts in sorted(_ENDINGS.items()):
        if counts:
            opts = option_sets(name, n, EXTRA_SETS)[k]
            said = ", ".join(f"{why} {c}" for why, c in sorted(counts.items()))
            yield f"{name} {n}p {json.dumps(opts, default=list)}: {said}"


def test_zz_report_how_the_games_ended() -> None:
    """With ``-s`` in a long run: the table of end reasons per option set."""
    if LONG:
        print("\n" + "\n".join(iter_endings()))
