"""The core API: registry, options, actions, errors, ranking."""

from __future__ import annotations

import json

import pytest

import bigtop
from bigtop.core.errors import (
    BigtopError,
    IllegalActionError,
    InvalidStateError,
    MalformedActionError,
    RuleOptionError,
    UnknownGameError,
)
from bigtop.core.game import Game, State, places
from bigtop.core.options import parse_option_pairs
from bigtop.core.registry import game_names, get_game, list_games, load_state, new_game
from bigtop.core.rng import derive_rng, derive_seed
from bigtop.games.scout.options import ScoutOptions


def test_errors_are_value_errors() -> None:
    for cls in (IllegalActionError, InvalidStateError, MalformedActionError, RuleOptionError,
                UnknownGameError):
        assert issubclass(cls, BigtopError) and issubclass(cls, ValueError)


def test_registry_lists_games_with_player_counts_and_options() -> None:
    names = game_names()
    assert "scout" in names
    infos = {g.name: g for g in list_games()}
    assert infos["scout"].min_players == 2 and infos["scout"].max_players == 5
    opt = {o.name: o for o in infos["scout"].options}
    assert opt["hand_turn"].default == "before-first-action"
    assert opt["hand_turn"].quote and "kääntää" in opt["hand_turn"].quote
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        get_game("chess")
    # A name from JSON may be any value: one that is no string is unknown too, not a
    # TypeError from the lookup (verify_export passes the export's "game" field on).
    for name in (["scout"], {"scout": 1}, None, 3):
        with pytest.raises(UnknownGameError, match="unknown game"):
            get_game(name)  # type: ignore[arg-type]


def test_options_are_validated() -> None:
    options = new_game("scout", 3, {"rounds": "2"}).options
    assert isinstance(options, ScoutOptions) and options.rounds == 2
    with pytest.raises(RuleOptionError, match="unknown rule option 'colour'"):
        new_game("scout", 3, {"colour": "red"})
    with pytest.raises(RuleOptionError, match="must be one of"):
        new_game("scout", 3, {"hand_turn": "sometimes"})
    with pytest.raises(RuleOptionError, match="whole number"):
        new_game("scout", 3, {"rounds": "many"})
    with pytest.raises(RuleOptionError, match="at most 20"):
        new_game("scout", 3, {"rounds": 99})
    with pytest.raises(RuleOptionError, match="2 to 5 players"):
        new_game("scout", 1)
    with pytest.raises(RuleOptionError, match="KEY=VALUE"):
        parse_option_pairs(["rounds"])
    assert parse_option_pairs(["rounds = 3"]) == {"rounds": "3"}
    with pytest.raises(RuleOptionError, match="'rounds' is given twice"):
        parse_option_pairs(["rounds=2", "hand_turn=off", "rounds=3"])


@pytest.mark.parametrize("text", ["\u0663", "1_0", "3.0", "0x3", "9" * 5000])
def test_a_whole_number_option_takes_ascii_digits_only(text: str) -> None:
    with pytest.raises(RuleOptionError, match="whole number"):
        new_game("scout", 3, {"rounds": text})


@pytest.mark.parametrize("text", ["\u0663", "1_0", "0x1", "nan", "-inf", "1e"])
def test_a_number_option_takes_a_plain_decimal(text: str) -> None:
    with pytest.raises(RuleOptionError, match="finite number"):
        new_game("tricky-landing", 3, {"skill": text})


def test_numbers_as_people_type_them() -> None:
    def option(name: str, key: str, text: str) -> object:
        return getattr(new_game(name, 3, {key: text}).options, key)

    assert option("scout", "rounds", " +2") == 2
    assert option("tricky-landing", "skill", ".5") == 0.5
    assert option("tricky-landing", "skill", "1e-1") == 0.1


def test_seed_is_validated() -> None:
    with pytest.raises(BigtopError, match="seed"):
        bigtop.new_state("scout", 3, seed=-1)
    with pytest.raises(BigtopError, match="seed"):
        bigtop.new_state("scout", 3, seed="1")  # type: ignore[arg-type]


def test_determinism_and_counter_based_rng() -> None:
    a = bigtop.new_state("scout", 4, seed=123)
    b = bigtop.new_state("scout", 4, seed=123)
    c = bigtop.new_state("scout", 4, seed=124)
    assert a == b and a != c
    assert derive_rng(1, "x", 2).random() == derive_rng(1, "x", 2).random()
    assert derive_seed(1, "x") != derive_seed(1, "y")


def test_load_state_validates_the_envelope() -> None:
    s = bigtop.new_state("scout", 3, seed=5)
    data = s.to_json()
    assert load_state(json.loads(json.dumps(data))) == s
    for broken, message in [
        ({**data, "game": "chess"}, "unknown game"),
        ({**data, "players": "3"}, "players"),
        ({**data, "seed": -4}, "seed"),
        ({**data, "position": []}, "position"),
        ({**data, "history": [{"type": "fly"}]}, "unknown action type"),
        ([], "JSON object"),
        # A misspelt field would otherwise be dropped without a word (the seed, say).
        ({**data, "sed": 5}, "unknown state field 'sed'"),
        ({**data, "Seed": 5, "zz": 1}, "unknown state fields 'Seed', 'zz'"),
    ]:
        with pytest.raises(BigtopError, match=message):
            load_state(broken)
    with pytest.raises(InvalidStateError, match="options differ"):
        new_game("scout", 3, {"rounds": 2}).state_from_json(data)


def test_action_json_and_integer_encoding() -> None:
    s = bigtop.new_state("scout", 3, seed=5)
    game = s.game
    for a in s.legal_actions():
        assert game.action_from_json(a.to_json()) == a
        assert game.action_from_int(game.action_to_int(a)) == a
    assert len({game.action_to_int(game.action_from_int(i))
                for i in range(game.num_distinct_actions())}) == game.num_distinct_actions()
    with pytest.raises(MalformedActionError, match="action number"):
        s.apply_int(10**6)
    with pytest.raises(MalformedActionError, match="must be int"):
        s.apply_json({"type": "show", "start": True, "length": 1})


def test_places_share_ties() -> None:
    assert places([3, 5, 5, 1]) == [3, 1, 1, 4]
    assert places([2, 2]) == [1, 1]


def test_describe_gives_a_line_per_action() -> None:
    s = bigtop.new_state("scout", 3, seed=5)
    lines = {s.describe(a) for a in s.legal_actions()}
    assert len(lines) == len(s.legal_actions())
    assert all(line.startswith("P0 ") for line in lines)


@pytest.mark.parametrize("name", game_names())
def test_a_seat_is_told_its_own_moves_in_the_second_person(name: str) -> None:
    """The web table's move buttons and `bigtop play`'s menu list a seat's options as told
    to that seat: "You show …", "You throw the yellow 2 …", never the log's "P0 shows …"
    naming the seat to itself; everybody else, and the public log, hear "P0 shows …"."""
    import random
    import re

    from bigtop.server.views import seat_view

    cls = get_game(name)
    for players in (cls.min_players, cls.max_players):
        s = bigtop.new_state(name, players, seed=11)
        rng = random.Random(players)
        for _ in range(60):
            if s.is_terminal():
                break
            p = s.current_player()
            if p < 0:
                s.apply_chance()
                continue
            legal = s.legal_actions()
            told = {i["text"] for i in seat_view(s, p)["legal_actions"]}
            assert told == {s.describe(a, p) for a in legal}
            for a in legal[::7]:
                mine = s.describe(a, p)
                assert mine.startswith("You "), mine
                assert f"P{p}" not in re.findall(r"P\d+", mine), mine
                assert not re.search(r"\b(their|P\d+ \w+s)\b", mine.split(" (")[0]), mine
                public = s.describe(a)
                assert public.startswith(f"P{p} "), public
                for q in range(players):
                    if q != p:
                        assert s.describe(a, q).startswith(f"P{p} ")
            s.apply(rng.choice(legal))


@pytest.mark.parametrize("name", game_names())
def test_legal_action_numbers_are_the_listed_actions_numbers(name: str) -> None:
    """legal_action_numbers (what OpenSpiel and PettingZoo list; Tricky Landing builds it its
    own way) is the sorted action numbers of legal_actions, at every step of random play."""
    import random

    cls = get_game(name)
    for n in (cls.min_players, cls.max_players):
        state = new_game(name, n, {}).new_initial_state(3)
        rng = random.Random(n)
        for _ in range(150):
            legal = state.legal_actions()
            expected = sorted(state.game.action_to_int(a) for a in legal)
            assert state.legal_action_numbers() == expected
            if state.is_terminal():
                break
            state.apply(legal[rng.randrange(len(legal))])


def test_isinstance_against_one_game_class_leaves_the_others_right() -> None:
    """Every Game and State class keeps its own ABC caches, compiled (mypyc) or not: the
    compiled ones shared abc.ABC's, so a "no" from ``isinstance(s, Game)`` or from another
    game's state class was cached for all of them and ``isinstance(s, State)`` said no too."""
    states = [bigtop.new_state(name, players=get_game(name).min_players, seed=1)
              for name in game_names()]
    classes: list[type] = [Game, State, *(type(s) for s in states),
                           *(type(s.game) for s in states)]
    for cls in classes:
        assert "_abc_impl" in vars(cls), cls
    for s in states:
        for cls in classes:  # every "no" first, then the "yes"es must still hold
            isinstance(s, cls)
            isinstance(s.game, cls)
    for s in states:
        assert isinstance(s, State) and isinstance(s, type(s)) and not isinstance(s, Game)
        assert isinstance(s.game, Game) and isinstance(s.game, type(s.game))
        assert not isinstance(s.game, State)
        assert [type(t) for t in states if isinstance(s, type(t))] == [type(s)]
