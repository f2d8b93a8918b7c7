"""Regression tests for issue #10 (hardening), one per reproducer: wrong-typed actions, apply
all or nothing, one seat check, dead positions, non-finite and huge numbers, foreign actions,
mixed-key dicts, numpy action numbers, the input limits."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from typing import Any

import numpy as np
import pytest

from bigtop.core.actions import Action
from bigtop.core.errors import (
    BigtopError,
    IllegalActionError,
    InputLimitError,
    InvalidStateError,
    MalformedActionError,
    shown,
)
from bigtop.core.game import State
from bigtop.core.limits import (
    MAX_CONTAINER_LENGTH,
    MAX_DEPTH,
    MAX_HISTORY,
    MAX_JSON_BYTES,
    MAX_STRING_LENGTH,
    check_json_value,
    check_state_payload,
    parse_json_limited,
)
from bigtop.core.registry import game_names, load_state, new_state
from bigtop.games.clown15go.rules import Borrow, ToPile, ToRow
from bigtop.games.scout.rules import Insert, Scout, Show
from bigtop.games.tricky_landing.rules import Throw
from bigtop.games.zirkus.rules import Add, Move, Roll


def snapshot(s: State) -> str:
    return json.dumps(s.to_json(), sort_keys=True)


def played(name: str, players: int, steps: int, seed: int = 1) -> State:
    from bigtop.core.registry import get_game

    players = max(players, get_game(name).min_players)
    s = new_state(name, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        if s.is_chance():
            s.apply_chance()
        else:
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
    return s


# -- actions: exact field types ---------------------------------------------------------------

@pytest.mark.parametrize("build", [
    lambda: ToRow(0.0), lambda: ToPile(3.0), lambda: Borrow(1, 1.0),  # type: ignore[arg-type]
    lambda: Add(0.0, "red"), lambda: Add(False, "red"),  # type: ignore[arg-type]
    lambda: Show(True, 1), lambda: Insert(0, 1),  # type: ignore[arg-type]
    lambda: Add(0, "purple"), lambda: ToRow("x"),  # type: ignore[arg-type]
    lambda: Scout("left", 0), lambda: Move(np.int64(0), "F"),  # type: ignore[arg-type]
    lambda: Roll(1), lambda: Show(10**30, 1),  # type: ignore[arg-type]
    lambda: Throw("g2", float("nan"), 0.0, 3.0), lambda: Throw("g2", 0.0, 10**400, 3.0),
])
def test_wrong_typed_actions_cannot_be_built(build: Any) -> None:
    """Regression: ToRow(0.0) passed the legality check (0.0 == 0) and broke the move half-way
    (a card lost); Show(True, 1) landed in the history and to_json() no longer loaded."""
    with pytest.raises(MalformedActionError, match="must be"):
        build()


def test_a_float_field_takes_an_int_as_its_float() -> None:
    t = Throw("g2", 1, 0, 3)
    assert type(t.x) is float and t == Throw("g2", 1.0, 0.0, 3.0)


def test_apply_is_all_or_nothing_when_the_rules_code_fails() -> None:
    """If a game's _apply raises half-way (an engine bug), the state is restored."""
    for name in game_names():
        played_state = played(name, 3, 5)
        while played_state.is_chance():
            played_state.apply_chance()
        cls = type(played_state)

        # A subclass whose _apply breaks: a compiled (mypyc) class cannot be patched.
        class Broken(cls):  # type: ignore[valid-type,misc]
            failing = True

            def _apply(self, action: Action) -> None:
                super()._apply(action)  # the whole move happens ...
                if Broken.failing:
                    raise TypeError("boom")  # ... and then the code fails

        s = Broken(played_state.game, played_state.seed)
        s._become(played_state)
        before = snapshot(s)
        assert before == snapshot(played_state)
        # An action from outside (here: parsed from JSON, not the listed object itself).
        outside = s.game.action_from_json(s.legal_actions()[0].to_json())
        with pytest.raises(IllegalActionError, match=r"could not be applied.*unchanged"):
            s.apply(outside)
        with pytest.raises(IllegalActionError, match=r"could not be applied.*unchanged"):
            s.apply_json(outside.to_json())
        Broken.failing = False
        assert snapshot(s) == before, name
        s.audit()
        s.apply(s.legal_actions()[0])  # and the state still plays


# -- one seat check ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("seat", [-1, 3, 99, "0", True, 1.0, np.int64(0)])
def test_every_method_taking_a_seat_checks_it(name: str, seat: object) -> None:
    """Regression: render(-1) showed the last seat's hand, render(3)/render("0") crashed,
    resample_hidden accepted -1/99/"0", SCOUT observation(True) was seat 1."""
    s = played(name, 3, 4)
    before = snapshot(s)
    for call in (lambda: s.render(seat), lambda: s.observation(seat),
                 lambda: s.resample_hidden(seat, 0)):
        with pytest.raises(IllegalActionError, match="no player"):
            call()
    with pytest.raises(IllegalActionError, match="no player"):
        s.resample_hidden(None, 0)
    with pytest.raises(BigtopError, match="seed"):
        s.resample_hidden(0, -5)
    assert snapshot(s) == before


# -- describe / why-illegal of foreign and illegal actions -------------------------------------

@pytest.mark.parametrize("name", game_names())
def test_describe_of_a_foreign_or_illegal_action_is_an_error(name: str) -> None:
    """Regression: Zirkus describe of a SCOUT action raised AssertionError; describe of an
    out-of-range action (replay of a hand-edited history) raised IndexError."""
    s = played(name, 3, 3)
    foreign = Show(0, 1) if name != "scout" else Add(0, "red")
    with pytest.raises(MalformedActionError, match="is not a"):
        s.describe(foreign)
    with pytest.raises(MalformedActionError):
        s.apply(foreign)
    with pytest.raises(MalformedActionError):
        s.describe("show")  # type: ignore[arg-type]
    unlisted = [a for a in s.game.action_table.actions if a not in s.legal_actions()]
    for a in unlisted[:30]:
        with pytest.raises(IllegalActionError):
            s.describe(a)


def test_why_illegal_of_odd_but_well_typed_actions() -> None:
    s = new_state("clown-15-go", 3, seed=2)
    for a in (ToRow(-7), ToRow(10**9), ToPile(-1), Borrow(99, -3)):
        with pytest.raises(IllegalActionError):
            s.apply(a)
    z = new_state("so-ein-zirkus", 2, seed=1)
    z.apply(Roll("red"))
    for b in (Add(7, "red"), Move(-1, "F"), Move(0, "XYZ"), Move(0, "")):
        with pytest.raises(IllegalActionError):
            z.apply(b)


# -- JSON and integer actions -----------------------------------------------------------------

def test_apply_json_with_mixed_keys_is_malformed() -> None:
    """Regression: sorted() of {str, int} keys raised TypeError."""
    s = new_state("scout", 3, seed=0)
    before = snapshot(s)
    for obj in ({"type": "show", "start": 0, "length": 1, 1: 2},
                {1: "x", "type": "pass"}, {None: 1}, {"type": "show", "start": [[[]]],
                                                      "length": 1}):
        with pytest.raises(MalformedActionError):
            s.apply_json(obj)
    deep: Any = 0
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(MalformedActionError):
        s.apply_json({"type": "show", "start": deep, "length": 1})
    assert snapshot(s) == before


def test_apply_int_takes_numpy_integers_and_nothing_else() -> None:
    s = new_state("scout", 3, seed=0)
    i = s.game.action_to_int(s.legal_actions()[0])
    for bad in (float(i), str(i), True, None, np.float64(i), 10**100):
        with pytest.raises(MalformedActionError):
            s.apply_int(bad)
    assert s.apply_int(np.int64(i)) == s.history[-1]
    assert s.game.action_from_int(np.int32(0)) == s.game.action_from_int(0)


# -- loading: dead positions, numbers, limits -------------------------------------------------

SCOUT_DEAD_INSERT: dict[str, Any] = {
    "game": "scout", "players": 3, "seed": 1,
    "options": {"hand_turn": "before-first-action", "scout_last_card": "empties-table",
                "exemption": "unbeaten-set", "rounds": 0},
    "position": {
        "round": 0, "to_act": 1, "phase": "insert",
        "hands": [[[2, 5], [7, 2], [5, 6], [9, 8], [7, 9], [2, 4], [3, 9], [3, 6], [9, 6],
                   [4, 8], [4, 5]], [[1, 3]],
                  [[7, 8], [8, 3], [7, 5], [4, 3], [1, 4], [4, 6], [7, 6], [3, 7], [5, 9],
                   [1, 6], [9, 4], [1, 7]]],
        "known": [[False] * 11, [False], [False] * 12],
        "active": [[8, 6], [8, 2], [8, 1]], "active_owner": 0,
        "captured": [[], [], [[4, 7], [2, 3], [5, 8], [1, 9], [2, 6], [5, 3], [9, 2], [1, 2]]],
        "scout_tokens": [1, 0, 0], "show_tokens": [True, False, True],
        "hand_decided": [True, True, True], "pending": {"card": [5, 1], "and_show": True},
        "unused": [], "totals": [0, 0, 0], "round_scores": [], "round_log": [],
        "finished": False}}


def test_a_live_position_without_a_legal_action_does_not_load() -> None:
    """Regression: SCOUT phase insert with pending.and_show where no insertion allows a Show
    loaded with an empty legal list."""
    with pytest.raises(InvalidStateError, match="no legal action"):
        load_state(copy.deepcopy(SCOUT_DEAD_INSERT))
    alive = copy.deepcopy(SCOUT_DEAD_INSERT)
    alive["position"]["pending"]["and_show"] = False
    alive["position"]["show_tokens"][1] = True
    assert load_state(alive).legal_actions()


@pytest.mark.parametrize("value", [float("inf"), float("nan"), 10**400, -(2**63) - 5])
def test_non_finite_and_huge_numbers_do_not_load(value: object) -> None:
    """Regression: inf/NaN in a history and 10**400 in a Tricky Landing throw loaded (then
    OverflowError, and JSON written back was not strict)."""
    s = played("tricky-landing", 3, 3)
    data = s.to_json()
    data["history"][0]["x"] = value
    with pytest.raises(BigtopError):
        load_state(data)
    data = s.to_json()
    data["seed"] = value
    with pytest.raises(BigtopError):
        load_state(data)


@pytest.mark.parametrize("name", game_names())
def test_an_integer_too_long_to_print_is_refused_with_a_bigtop_error(name: str) -> None:
    """Regression (fuzzing): an integer of over 4,300 digits given from Python (JSON text
    cannot carry one) made the refusal's message itself fail: ``repr`` raises ValueError
    ("Exceeds the limit ... for integer string conversion"), which escaped as that."""
    huge = 10**5000
    s = new_state(name, 2 if name != "tricky-landing" else 3, seed=1)
    kept = s.to_json()
    for call in (lambda: s.game.action_from_json(huge), lambda: s.game.action_from_int(huge),
                 lambda: s.apply_json({"type": huge}), lambda: s.apply_json([huge]),
                 lambda: s.observation(huge), lambda: s.resample_hidden(0, huge),
                 lambda: s.game.new_initial_state(huge), lambda: s.game.state_from_json(huge),
                 lambda: load_state({**kept, "players": huge})):
        with pytest.raises(BigtopError) as e:
            call()
        assert len(str(e.value)) < 500
    assert s.to_json() == kept


@pytest.mark.parametrize("name", game_names())
def test_a_typed_move_that_is_no_text_is_malformed(name: str) -> None:
    """Regression (fuzzing): the compiled games' action_from_text raised TypeError ("str
    object expected") for anything but a string, the pure Python ones AttributeError."""
    s = new_state(name, 2 if name != "tricky-landing" else 3, seed=1)
    for text in (None, 5, b"pass", ["pass"], {"type": "pass"}):
        with pytest.raises(MalformedActionError, match="a typed move must be text"):
            s.action_from_text(text)


@pytest.mark.parametrize(("name", "players", "pile"), [
    ("clown-15-go", 3, "closed"), ("scout", 5, "hands"), ("tricky-landing", 6, "hands")])
def test_a_position_with_many_faults_is_refused_in_one_short_line(name: str, players: int,
                                                                  pile: str) -> None:
    """Regression (long fuzzing run): a Clown 15 Go position whose closed pile was doubled
    was refused with every duplicate card named, twice: 618 characters. The message lists
    the first few problems and counts the rest."""
    s = new_state(name, players, seed=1)
    while s.is_chance():
        s.apply_chance()
    data = s.to_json()
    for key in (pile, "known"):  # (SCOUT's "known" runs beside the hands)
        piles = data["position"].get(key, [])
        for i in range(1, len(piles)):  # every seat holds seat 0's cards too
            piles[i] = piles[i] + piles[0]
    with pytest.raises(InvalidStateError) as e:
        load_state(data)
    message = str(e.value)
    assert len(message) <= 500 and "\n" not in message, message
    assert "card" in message and ("twice" in message or "times" in message), message


def test_shown_cuts_what_repr_cannot_print() -> None:
    assert shown(10**5000) == "<an integer of 5001 digits>"
    assert shown(-(10**5000)) == "<an integer of 5001 digits>"
    assert shown([1, 10**5000]) == "[1, <an integer of 5001 digits>]"
    # An object whose own repr prints the integer (a dataclass holding it): reprlib names it.
    assert shown(Boxed(10**5000)).startswith("<Boxed instance at ")


@dataclasses.dataclass
class Boxed:
    value: int


def test_limits_parse() -> None:
    assert parse_json_limited('{"a": [1, -2, 3.5e3, true, null, "x"]}') == {
        "a": [1, -2, 3500.0, True, None, "x"]}
    for text, message in [
        ("[" * 100_000 + "]" * 100_000, "nested deeper"),
        ("1" * 5000, "out of range"),
        (str(2**63), "out of range"),
        ("[1e400]", "too large"),
        ('{"x": Infinity}', "finite numbers only"),
        ('{"a": 1, "a": 2}', "appears twice"),
        ('{"type": "move", "a": 1, "a": 2}', "appears twice"),
        # Half of a UTF-16 pair is no text (it cannot be written as UTF-8), in a value or a
        # key, alone or beside the other half's wrong kind.
        ('{"a": "x\\ud800"}', "surrogate"),
        ('{"\\uDFFF": 1}', "surrogate"),
        ('["\\udc00\\ud800"]', "surrogate"),
        # Past the length a short text cannot reach, checked after the parse.
        (json.dumps(["x" * (MAX_STRING_LENGTH + 1)]), "characters"),
        (json.dumps([0] * (MAX_CONTAINER_LENGTH + 1)), "elements"),
        ("{", "not JSON"),
        (" " * (MAX_JSON_BYTES + 1), "bytes; at most"),
    ]:
        with pytest.raises(InputLimitError, match=message):
            parse_json_limited(text)
    with pytest.raises(InputLimitError, match="not UTF-8"):
        parse_json_limited(b'{"a": "\xe9"}')
    assert parse_json_limited('["\\ud83c\\udfaa"]') == ["\U0001f3aa"]  # a whole pair
    # Brackets inside strings do not count towards the depth.
    assert parse_json_limited(json.dumps(["[" * 1000])) == ["[" * 1000]
    nested: Any = []
    for _ in range(MAX_DEPTH - 1):
        nested = [nested]
    assert parse_json_limited(json.dumps(nested)) == nested


def test_limits_check_values_in_memory() -> None:
    deep: Any = []
    for _ in range(200_000):
        deep = [deep]
    for bad in (deep, {1: 2}, [object()], [float("nan")], {"a": "x" * 100_000}, [2**64],
                list(range(200_000))):
        with pytest.raises(InputLimitError):
            check_json_value(bad)
    with pytest.raises(InputLimitError, match="history"):
        check_state_payload({"history": [0] * (MAX_HISTORY + 1)})
    s = played("scout", 3, 10)
    check_state_payload(s.to_json())
    data = s.to_json()
    data["position"]["deep"] = deep
    with pytest.raises(InputLimitError, match="nested deeper"):
        load_state(data)


# -- hidden information -----------------------------------------------------------------------

def test_scout_observation_shows_the_captured_cards() -> None:
    """Regression: SCOUT observation(p) omitted which cards were captured (public: each set
    was shown face up first) while resample_hidden used them, so two states with identical
    observations resampled differently."""
    from tests.games.scout.helpers import position

    a = position(3, hands=[[(6, 1), (2, 5), (9, 3)], [(4, 2), (8, 3)], [(2, 7)]],
                 active=[(6, 2), (7, 3)], owner=2, filler=2)
    data = a.to_json()
    pos = data["position"]
    # b: P1's unseen 4/2 and a captured card trade places; P0 sees the same counts.
    pos["hands"][1][0], pos["captured"][2][0] = pos["captured"][2][0], pos["hands"][1][0]
    b = load_state(data)
    assert a.observation(0)["captured"] == b.observation(0)["captured"]
    assert a.observation(0) != b.observation(0)
    assert b.observation(0)["captured_cards"][2][0] == [4, 2]
    # Equal observations resample alike, whatever the true hidden cards.
    twin = a.resample_hidden(0, 5)
    assert twin.observation(0) == a.observation(0)
    assert twin.resample_hidden(0, 9) == a.resample_hidden(0, 9)


# -- interop ----------------------------------------------------------------------------------

def test_pettingzoo_step_none_on_a_live_agent_and_numpy_actions() -> None:
    """Regression: step(None) on a live agent raised TypeError; numpy integers (what RL code
    passes) are action numbers; a float is not (int(3.7) used to play action 3)."""
    from bigtop.interop.pettingzoo import env

    e = env("scout", players=3, rounds=1)
    e.reset(seed=8)
    state = e.bigtop_state
    before = snapshot(state)
    legal = sorted(e.game.action_to_int(a) for a in state.legal_actions())
    for bad in (None, float(legal[0]) + 0.5, "0", np.float32(legal[0])):
        with pytest.raises(MalformedActionError):
            e.step(bad)
        assert snapshot(state) == before
    e.step(np.int64(legal[0]))
    assert len(state.history) == 1


def test_mixed_keys_in_options_found_by_fuzzing() -> None:
    """Found by the fuzz test: options {"": None, 0: None} in a state raised TypeError from
    sorted() before the input limits were checked."""
    data = new_state("so-ein-zirkus", 2, seed=0).to_json()
    data["options"] = {"": None, 0: None}
    with pytest.raises(InputLimitError, match="not a string"):
        load_state(data)
    from bigtop.core.errors import RuleOptionError
    from bigtop.core.registry import new_game

    with pytest.raises(RuleOptionError, match="unknown rule option"):
        new_game("scout", 3, {"": None, 0: None})  # type: ignore[dict-item]


@pytest.mark.parametrize("name", game_names())
def test_states_load_whatever_the_key_order(name: str) -> None:
    """JSON objects are unordered: a store that sorts keys (PostgreSQL jsonb, sort_keys) must
    not break loading. So ein Zirkus numbers its holes in board order, which sorted keys
    changed ("recorded on board 'default', which differs from the game's board 'default'")."""
    opts = {"tournament": "games", "tournament_games": 2} if name == "so-ein-zirkus" else {}
    from bigtop.core.registry import get_game, new_game

    game = new_game(name, get_game(name).min_players, opts)
    s = game.new_initial_state(3)
    rng = random.Random(3)
    while not s.is_terminal():
        if s.is_chance():
            s.apply_chance()
        else:
            s.apply(s.legal_actions()[rng.randrange(len(s.legal_actions()))])
        if len(s.history) % 50 == 0 or s.is_terminal():
            assert load_state(json.loads(json.dumps(s.to_json(), sort_keys=True))) == s
