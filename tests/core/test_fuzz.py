"""Property-based fuzzing of every game's input surface (issue #10), with hypothesis:
``apply_json``, ``apply_int``, hand-built actions and mutated state JSON.

For every input: only :class:`BigtopError` subclasses escape; a rejected action leaves
``to_json()`` byte-identical; an accepted action or state passes ``audit()``, its JSON is
strict (no NaN/Infinity) and round-trips, every seat's observation works, and it plays on to
the end of the game.

``make test`` runs a bounded profile (few examples per property and game, derandomized so
the suite is repeatable). ``BIGTOP_FUZZ=long`` runs a long, random profile::

    BIGTOP_FUZZ=long .venv/bin/pytest -p no:xdist tests/core/test_fuzz.py

(``BIGTOP_FUZZ_EXAMPLES=N`` sets the examples per property and game of that profile, default
2000).
"""

from __future__ import annotations

import copy
import json
import os
import random
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from tests.core.option_cover import option_sets, widest

from bigtop.core.actions import Action, _field_types
from bigtop.core.errors import BigtopError, MalformedActionError
from bigtop.core.game import State
from bigtop.core.registry import game_names, get_game, load_state, new_game

_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("bigtop-bounded", max_examples=25, deadline=None, derandomize=True,
                          database=None, suppress_health_check=_HEALTH)
settings.register_profile(
    "bigtop-long", max_examples=int(os.environ.get("BIGTOP_FUZZ_EXAMPLES", "2000")),
    deadline=None, suppress_health_check=_HEALTH)
PROFILE = "bigtop-long" if os.environ.get("BIGTOP_FUZZ") == "long" else "bigtop-bounded"
fuzz = settings.get_profile(PROFILE)

MAX_PLAY_STEPS = 50_000
GAMES = game_names()


# -- the states fuzzed from ------------------------------------------------------------------

@cache
def base_states(name: str) -> tuple[str, ...]:
    """Positions of a few seeded random games of ``name`` (each player count at its least
    and one more, default options and the first alternative set; then, at the least and
    the most players, the two sets of tests/core/option_cover.py's covering that change
    the most options, every set of it in the long profile), as JSON text."""
    cls = get_game(name)
    out: list[str] = []
    configs = [(n, opts) for n in sorted({cls.min_players,
                                          min(cls.min_players + 1, cls.max_players)})
               for opts in cls.conformance_options(n)[:2]]
    for n in sorted({cls.min_players, cls.max_players}):
        configs += [(n, opts) for opts in (option_sets(name, n) if PROFILE == "bigtop-long"
                                           else widest(name, n, 2))]
    for n, opts in configs:
        game = new_game(name, n, opts)
        for seed in range(2):
            rng = random.Random(seed)
            s = game.new_initial_state(seed)
            step = 0
            while True:
                if step % 7 == 0 or s.is_terminal():
                    out.append(json.dumps(s.to_json()))
                if s.is_terminal() or step > 300:
                    break
                _random_step(s, rng)
                step += 1
    return tuple(out)


def _random_step(s: State, rng: random.Random) -> None:
    if s.is_chance():
        s.apply_chance()
    else:
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])


def _text(s: State) -> str:
    # Key order kept: So ein Zirkus numbers its holes in the board's listed order.
    return json.dumps(s.to_json(), allow_nan=False)


def check_sound_and_play_out(s: State, rng: random.Random) -> None:
    """An accepted state: audit, strict JSON round trip, observations, then play on to the
    end of the game."""
    s.audit()
    assert load_state(json.loads(_text(s))) == s
    for p in [None, *range(s.game.num_players)]:
        json.dumps(s.observation(p), allow_nan=False)
        assert isinstance(s.render(p), str)
    steps = 0
    while not s.is_terminal():
        assert s.legal_actions(), "a live state without a legal action"
        if not s.is_chance():
            a = s.legal_actions()[rng.randrange(len(s.legal_actions()))]
            assert isinstance(s.describe(a), str)
        _random_step(s, rng)
        steps += 1
        assert steps < MAX_PLAY_STEPS, "the game does not end"
    s.audit()
    assert s.legal_actions() == []


def try_apply(s: State, apply: Any, rng: random.Random) -> None:
    """Run ``apply`` (one input); it either raises a BigtopError and changes nothing, or the
    state is sound and plays to the end."""
    before = _text(s)
    try:
        apply()
    except BigtopError as e:
        event(f"rejected: {type(e).__name__}")
        assert _text(s) == before, "a rejected action changed the state"
        return
    event("accepted")
    check_sound_and_play_out(s, rng)


# -- values: junk and near misses ------------------------------------------------------------

JUNK = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6)
    | st.sampled_from([10**400, -(2**63), 2**63, float("inf"), float("nan"), "", "0", "[/x]",
                       "²", np.int64(1), np.float64(0.5), b"x", object()]),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner)
    | st.dictionaries(st.text(max_size=3) | st.integers(), inner, max_size=3),
    max_leaves=5)


@cache
def field_values(name: str, players: int) -> dict[type[Action], dict[str, tuple[Any, ...]]]:
    """Per action class and field: every value the game's own actions use (near misses are
    made from these)."""
    game = new_game(name, players)
    out: dict[type[Action], dict[str, set[Any]]] = {}
    for a in game.action_table.actions:
        fields = out.setdefault(type(a), {f: set() for f, _ in _field_types(type(a))})
        for f in fields:
            fields[f].add(getattr(a, f))
    for cls in game.action_types:
        out.setdefault(cls, {f: set() for f, _ in _field_types(cls)})
    return {c: {f: tuple(sorted(v, key=repr)) for f, v in fs.items()} for c, fs in out.items()}


def near(values: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    """Values of a field: the game's own, numbers next to them, other types, junk."""
    opts: list[st.SearchStrategy[Any]] = [st.integers(-3, 12), JUNK]
    if values:
        opts.insert(0, st.sampled_from(values))
        ints = [v for v in values if type(v) is int]
        if ints:
            opts.append(st.sampled_from(ints).map(float))
            opts.append(st.sampled_from(ints).map(lambda v: v + 1))
        strs = [v for v in values if type(v) is str]
        if strs:
            opts.append(st.sampled_from(strs).map(str.upper))
            opts.append(st.sampled_from(strs).map(lambda v: v[:-1] or "?"))
    opts.append(st.floats(-60, 60))
    return st.one_of(opts)


@st.composite
def hand_built(draw: st.DrawFn, state: State) -> tuple[type[Action], dict[str, Any]]:
    """An action class and constructor arguments: a legal action's (so that accepted moves
    are fuzzed too), a legal action with one field changed, a combination of the game's own
    field values, or near misses and junk in every field."""
    fv = field_values(state.game.name, state.game.num_players)
    mode = draw(st.integers(0, 3))
    legal = state.legal_actions()
    if mode <= 1 and legal:
        a = draw(st.sampled_from(legal))
        cls = type(a)
        kwargs = {f: getattr(a, f) for f, _ in _field_types(cls)}
        if mode == 1 and kwargs:
            f = draw(st.sampled_from(sorted(kwargs)))
            kwargs[f] = draw(near(fv[cls][f]))
        return cls, kwargs
    cls = draw(st.sampled_from(sorted(fv, key=lambda c: c.kind)))
    if mode == 2:
        return cls, {f: draw(st.sampled_from(v)) if v else draw(JUNK)
                     for f, v in fv[cls].items()}
    return cls, {f: draw(near(vals)) for f, vals in fv[cls].items()}


@st.composite
def state_and_rng(draw: st.DrawFn, name: str) -> tuple[State, random.Random]:
    text = draw(st.sampled_from(base_states(name)))
    return load_state(json.loads(text)), random.Random(draw(st.integers(0, 2**32)))


# -- the properties ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_fuzz_apply_json(name: str) -> None:
    @fuzz
    @given(st.data())
    def prop(data: st.DataObject) -> None:
        s, rng = data.draw(state_and_rng(name))
        cls, kwargs = data.draw(hand_built(s))
        obj: Any = {"type": cls.kind, **kwargs}
        shape = data.draw(st.integers(0, 5))
        if shape == 1 and kwargs:
            obj.pop(data.draw(st.sampled_from(sorted(kwargs))))  # a field missing
        elif shape == 2:
            obj[data.draw(st.text(max_size=3) | st.integers() | st.none())] = data.draw(JUNK)
        elif shape == 3:
            obj = data.draw(JUNK)
        elif shape == 4:
            obj["type"] = data.draw(JUNK)
        try_apply(s, lambda: s.apply_json(obj), rng)

    prop()


@pytest.mark.parametrize("name", GAMES)
def test_fuzz_apply_int(name: str) -> None:
    @fuzz
    @given(st.data())
    def prop(data: st.DataObject) -> None:
        s, rng = data.draw(state_and_rng(name))
        n = s.game.num_distinct_actions()
        table = s.game.action_table.index
        listed = [table[a] for a in s.legal_actions() if a in table] or [0]
        index = data.draw(st.sampled_from(listed) | st.sampled_from(listed).map(np.int64)
                          | st.integers(-2, n + 2) | st.integers(0, n - 1).map(np.int64)
                          | st.integers(0, n - 1).map(np.int32)
                          | st.integers(0, n - 1).map(float) | JUNK)
        try_apply(s, lambda: s.apply_int(index), rng)

    prop()


@pytest.mark.parametrize("name", GAMES)
def test_fuzz_hand_built_actions(name: str) -> None:
    @fuzz
    @given(st.data())
    def prop(data: st.DataObject) -> None:
        s, rng = data.draw(state_and_rng(name))
        cls, kwargs = data.draw(hand_built(s))
        try:
            action = cls(**kwargs)
        except MalformedActionError:
            return
        except TypeError as e:  # pragma: no cover - only a wrong keyword could do this
            raise AssertionError(f"constructing {cls.kind} raised {e!r}") from e
        # A built action has exactly its declared types: it survives JSON.
        assert s.game.action_from_json(json.loads(json.dumps(action.to_json(),
                                                             allow_nan=False))) == action
        before = _text(s)
        try:
            line = s.describe(action)
            assert isinstance(line, str) and line
        except BigtopError:
            pass
        assert _text(s) == before, "describe changed the state"
        try_apply(s, lambda: s.apply(action), rng)

    prop()


@st.composite
def mutated(draw: st.DrawFn, name: str) -> Any:
    """A state's JSON with one to three mutations: a leaf replaced (by a neighbour, another
    type or junk), a key dropped or added, a list element dropped, repeated or swapped."""
    data = json.loads(draw(st.sampled_from(base_states(name))))
    for _ in range(draw(st.integers(1, 3))):
        paths: list[tuple[Any, Any]] = []
        stack: list[Any] = [data]
        while stack:
            node = stack.pop()
            keys = list(node) if isinstance(node, dict) else range(len(node))
            for k in keys:
                paths.append((node, k))
                if isinstance(node[k], dict | list) and node[k] is not None:
                    stack.append(node[k])
        if not paths:
            break
        parent, key = draw(st.sampled_from(paths))
        value = parent[key]
        kind = draw(st.integers(0, 6))
        if kind == 0 and type(value) is int:
            parent[key] = value + draw(st.sampled_from([-2, -1, 1, 2, 10**6, -(10**6)]))
        elif kind == 1 and type(value) is bool:
            parent[key] = not value
        elif kind == 2 and isinstance(parent, dict):
            del parent[key]
        elif kind == 3 and isinstance(value, list) and value:
            i = draw(st.integers(0, len(value) - 1))
            op = draw(st.integers(0, 2))
            if op == 0:
                value.pop(i)
            elif op == 1:
                value.insert(i, value[i])
            else:
                j = draw(st.integers(0, len(value) - 1))
                value[i], value[j] = value[j], value[i]
        elif kind == 4 and isinstance(parent, dict):
            parent[draw(st.text(max_size=4))] = draw(JUNK)
        elif kind == 5:
            # Another value of the same document (a card, a seat, a field name elsewhere).
            other_parent, other_key = draw(st.sampled_from(paths))
            parent[key] = copy.deepcopy(other_parent[other_key])
        else:
            parent[key] = draw(JUNK | st.integers(-3, 12))
    return data


@pytest.mark.parametrize("name", GAMES)
def test_fuzz_mutated_states(name: str) -> None:
    @fuzz
    @given(mutated(name), st.integers(0, 2**32))
    def prop(data: Any, seed: int) -> None:
        try:
            s = load_state(data)
        except BigtopError as e:
            event(f"rejected: {type(e).__name__}")
            return
        event("accepted")
        check_sound_and_play_out(s, random.Random(seed))

    prop()


def test_the_profiles_are_bounded_by_default() -> None:
    if PROFILE == "bigtop-bounded":
        assert fuzz.max_examples <= 25 and fuzz.derandomize

