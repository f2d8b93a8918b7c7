"""Hostile state JSON and hostile arguments, every game (the fuzz brief, part 1): one field of a
real played position replaced by a value of the wrong kind — a bool for an int, huge and
negative numbers, floats, NaN, a long string, deep nesting, a card list doubled or cut, the
same field of another game — must either load as a sound state (``audit()``, an exact JSON
round trip, every seat's view, play on) or be refused with a ``BigtopError`` whose message is
one short line. The same for every public method taking a value from outside.

Bounded like ``tests/core/test_fuzz.py`` (its profiles: derandomized, 25 examples per game
and property in ``make test``; ``BIGTOP_FUZZ=long`` for a long random run).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st
from tests.core.test_fuzz import base_states, check_sound_and_play_out, fuzz

from bigtop.agents.levels import BOT_NAMES, make_bot
from bigtop.core.errors import BigtopError, MalformedActionError
from bigtop.core.game import State
from bigtop.core.perft import perft
from bigtop.core.registry import game_module, game_names, get_game, load_state, new_game
from bigtop.interop.tensors import layout_for

GAMES = game_names()
MAX_MESSAGE = 500
"""A refusal's message: one line, at most this long (it quotes input, which may be huge;
an unknown rule option lists the known ones)."""

HOSTILE: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 2**63 - 1, -(2**63 - 1), 10**6, 0.5, -0.0, "", "x", "0",
    "é" * 60_000, [], {}, [[[[[[[[]]]]]]]], {"a": {"b": {"c": []}}}, [None] * 1000,
)
"""Replacement values within the input limits (beyond them: tests/core/test_hardening.py)."""
BEYOND: tuple[Any, ...] = (float("nan"), float("inf"), 2**63, 10**400, "x" * 70_000,
                           object(), b"x", np.int64(1))
"""Values no JSON parser gives but a caller may pass in a dict: refused by the limits."""


def refused_cleanly(e: BigtopError) -> None:
    message = str(e)
    assert message and "\n" not in message, repr(message)
    assert len(message) <= MAX_MESSAGE, f"{len(message)} characters: {message[:120]}..."


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = []
    items = node.items() if isinstance(node, dict) else enumerate(node) \
        if isinstance(node, list) else ()
    for k, v in items:
        out.append((*path, k))
        out.extend(_paths(v, (*path, k)))
    return out


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        data = data[k]
    return data


@st.composite
def replacements(draw: st.DrawFn, value: Any, foreign: Any) -> Any:
    """A value to put where ``value`` was: a hostile one, a neighbour of the same kind
    (a number off by one, a list doubled, cut or repeated), or one of another game."""
    near: list[Any] = []
    if type(value) is int:
        near += [value + 1, value - 1, -value, float(value), str(value), value == 1, [value]]
    elif type(value) is bool:
        near += [int(value), str(value).lower()]
    elif type(value) is str:
        near += [value.upper(), value + "x", value[:-1], value * 2, [value]]
    elif isinstance(value, list):
        near += [value + value, value[:-1], value[1:], value[::-1], [value]]
        if value:
            near += [[*value, value[0]], [value[0]] * len(value)]
    elif isinstance(value, dict):
        near += [{**value, "extra": 1}, dict(list(value.items())[1:]), [value]]
    pool = [*HOSTILE, *near, *foreign]
    return copy.deepcopy(draw(st.sampled_from(pool)))


@st.composite
def hostile_state(draw: st.DrawFn, name: str) -> Any:
    """A played position of ``name`` as JSON with one to three fields replaced."""
    data = json.loads(draw(st.sampled_from(base_states(name))))
    other = draw(st.sampled_from([g for g in GAMES if g != name]))
    foreign_position = json.loads(base_states(other)[2])["position"]
    foreign = [v for v in foreign_position.values() if not isinstance(v, str)
               or len(v) < 100][:6]
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(data) if p[0] != "history"]
        path = draw(st.sampled_from(paths))
        parent = _at(data, path[:-1])
        parent[path[-1]] = draw(replacements(parent[path[-1]], foreign))
    return data


def load_or_refuse(data: Any, seed: int) -> None:
    try:
        s = load_state(data)
    except BigtopError as e:
        event(f"refused: {type(e).__name__}")
        refused_cleanly(e)
        return
    event("accepted")
    text = json.dumps(s.to_json(), allow_nan=False)
    assert json.dumps(load_state(json.loads(text)).to_json(), allow_nan=False) == text
    check_sound_and_play_out(s, random.Random(seed))


@pytest.mark.parametrize("name", GAMES)
def test_fuzz_hostile_state_fields(name: str) -> None:
    @fuzz
    @given(hostile_state(name), st.integers(0, 2**32))
    def prop(data: Any, seed: int) -> None:
        load_or_refuse(data, seed)

    prop()


EVERY_FIELD_VALUES: tuple[Any, ...] = (None, True, -1, 2**63 - 1, 0.5, "é" * 60_000, [[[[]]]],
                                      {}, float("nan"), "x" * 70_000)


@pytest.mark.parametrize("name", GAMES)
def test_every_field_of_a_position_refuses_each_hostile_value_cleanly(name: str) -> None:
    """Exhaustive over one mid-game position: every field (of a list, its first and last
    element), each of a few hostile values — no sampling."""
    base = json.loads(base_states(name)[2])
    paths = [p for p in _paths(base) if p[0] != "history"
             and all(type(k) is not int or k in (0, len(_at(base, p[:i])) - 1)
                     for i, k in enumerate(p))]
    for path in paths:
        for value in EVERY_FIELD_VALUES:
            data = copy.deepcopy(base)
            _at(data, path[:-1])[path[-1]] = value
            try:
                s = load_state(data)
            except BigtopError as e:
                refused_cleanly(e)
                continue
            s.audit()
            text = json.dumps(s.to_json(), allow_nan=False)
            assert load_state(json.loads(text)) == s, (path, value)


def test_a_long_refused_value_is_quoted_short() -> None:
    """Regression: a refusal quoted the whole input value, e.g. a 60,000-character string
    as SCOUT's seed or a Tricky Landing card, or a whole deck in place of one card
    ('hands[0][0]: a card is [top, bottom], got [['Y9', 'G7', ... 45 cards ...]]')."""
    s = load_state(json.loads(base_states("scout")[2]))
    data = s.to_json()
    deck = [c for hand in data["position"]["hands"] for c in hand]
    data["position"]["hands"][0][0] = deck
    with pytest.raises(BigtopError, match=r"a card is \[top, bottom\], got \[\[") as e:
        load_state(data)
    refused_cleanly(e.value)
    for name in GAMES:
        data = json.loads(base_states(name)[2])
        data["seed"] = "é" * 60_000
        with pytest.raises(BigtopError) as e:
            load_state(data)
        refused_cleanly(e.value)
    t = load_state(json.loads(base_states("tricky-landing")[2]))
    from bigtop.games.tricky_landing.rules import Throw
    with pytest.raises(BigtopError) as e:
        t.apply(Throw(card="y" * 60_000, x=0.0, y=0.0, spin=0.0))
    refused_cleanly(e.value)


# -- every public method given values from outside ---------------------------------------

def _entry_points(s: State, value: Any) -> list[tuple[str, Any]]:
    game = s.game
    name = game.name
    mod = game_module(name)
    legal = s.legal_actions()
    return [
        ("new_game players", lambda: new_game(name, value)),
        ("new_game options", lambda: new_game(name, game.num_players, value)),
        ("an option", lambda: [new_game(name, game.num_players, {k: value}).new_initial_state(1)
                               for k in game.options.to_json()]),
        ("an unknown option", lambda: new_game(name, game.num_players, {"zz": value})),
        ("new_initial_state", lambda: game.new_initial_state(value)),
        ("observation", lambda: s.observation(value)),
        ("render", lambda: s.render(value)),
        ("render_svg", lambda: mod.render_svg(s, player=value)),
        ("resample_hidden seat", lambda: s.resample_hidden(value, 1)),
        ("resample_hidden seed", lambda: s.resample_hidden(0, value)),
        ("describe", lambda: s.describe(value)),
        ("describe seat", lambda: [s.describe(a, value) for a in legal[:1]]),
        ("action_from_json", lambda: game.action_from_json(value)),
        ("action_from_int", lambda: game.action_from_int(value)),
        ("action_to_int", lambda: game.action_to_int(value)),
        ("load_state", lambda: load_state(value)),
        ("state_from_json", lambda: game.state_from_json(value)),
        ("apply", lambda: s.clone().apply(value)),
        ("apply_json", lambda: s.clone().apply_json(value)),
        ("apply_int", lambda: s.clone().apply_int(value)),
        ("apply_listed", lambda: s.clone().apply_listed(value)),
        ("perft", lambda: perft(s, value) if not (type(value) is int and value > 1) else 0),
        ("check_playable", lambda: s.check_playable(value)),
        ("action_from_text", lambda: s.action_from_text(value)),
        ("tensor seat", lambda: layout_for(game).tensor(s, value)),
        ("tensor state", lambda: layout_for(game).floats(value, 0)),
        ("observation_tensor", lambda: [tensor(s, value), tensor(value, 0)]
         if (tensor := getattr(game, "observation_tensor", None)) is not None else None),
        ("make_bot seed", lambda: [make_bot(level, game, 0, value) for level in BOT_NAMES]),
    ]


@pytest.mark.parametrize("name", GAMES)
def test_public_methods_refuse_hostile_values_cleanly(name: str) -> None:
    """Only a clean BigtopError (or an answer) from any public method given any value, and
    the state is unchanged."""
    cls = get_game(name)
    states = [load_state(json.loads(t)) for t in base_states(name)[::5][:3]]
    for s in states:
        before = json.dumps(s.to_json())
        for value in (*HOSTILE, *BEYOND, 2, 3, -2, "0", [0, 0], {"type": "x"}):
            for what, call in _entry_points(s, value):
                try:
                    call()
                except BigtopError as e:
                    refused_cleanly(e)
                except Exception as e:  # pragma: no cover - the failure being tested for
                    raise AssertionError(f"{name} {what}({value!r:.40}): {e!r:.300}") from e
            assert json.dumps(s.to_json()) == before, (cls.name, value)


def test_apply_listed_refuses_what_is_not_listed() -> None:
    """Regression: ``apply_listed(None)`` (or 1, 'x', {}) was appended to the history of a
    SCOUT or Clown 15 Go state (whose ``to_json`` then failed) and raised AssertionError in
    Tricky Landing and So ein Zirkus; an action not taken from the list now goes through
    ``apply``'s checks."""
    junk: object
    for name in GAMES:
        s = next(t for t in map(load_state, map(json.loads, base_states(name)))
                 if not t.is_terminal() and not t.is_chance())
        before = json.dumps(s.to_json())
        for junk in (None, 1, "x", {}):
            with pytest.raises(MalformedActionError):
                s.apply_listed(junk)  # type: ignore[arg-type]
        assert json.dumps(s.to_json()) == before
        legal = s.legal_actions()
        twin = copy.deepcopy(legal[0])  # equal, not the listed object: checked, then applied
        s.apply_listed(twin)
        assert s.history[-1] == legal[0]


def test_pettingzoo_reset_refuses_a_seed_that_is_no_integer() -> None:
    """Regression: ``reset(seed=[])`` raised TypeError, ``seed=float('nan')`` a bare
    ValueError, and ``seed=0.5`` or ``True`` were taken as 0 and 1; numpy integers stay
    accepted."""
    pytest.importorskip("pettingzoo")
    from bigtop.interop.pettingzoo import env

    e = env("scout", 3)
    seed: object
    for seed in ([], {}, "x", "7", float("nan"), 0.5, True, -1, 2**63):
        with pytest.raises(BigtopError, match="seed must be an integer"):
            e.reset(seed=seed)  # type: ignore[arg-type]
    e.reset(seed=np.int64(5))  # type: ignore[arg-type]  # typed int; numpy's taken too
    first = e.bigtop_state.to_json()
    e.reset(seed=5)
    assert e.bigtop_state.to_json() == first


@pytest.mark.parametrize("name", GAMES)
def test_new_initial_state_refuses_a_seed_a_state_could_not_keep(name: str) -> None:
    """Regression: ``new_initial_state(-1)``, ``(2**64)``, ``("x")`` made a state whose JSON
    would not load again (the loader checks the seed), and ``(None)`` a TypeError in the
    compiled engines; every seed is now checked where the state is made."""
    game = new_game(name, get_game(name).min_players)
    seed: object
    for seed in (None, -1, 2**63, 2**64, "x", "7", 0.5, True, [], np.int64(3)):
        with pytest.raises(BigtopError, match="seed must be an integer from 0 to"):
            game.new_initial_state(seed)
    s = game.new_initial_state(2**63 - 1)
    assert load_state(json.loads(json.dumps(s.to_json()))) == s
