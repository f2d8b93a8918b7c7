"""So ein Zirkus rule scenarios on hand-written positions. Each test quotes the rulebook
(../shared/seeds/003_97aa81262881367c.txt) or names the ruling (docs/so-ein-zirkus.md)."""

from __future__ import annotations

import json
import random

import pytest

from bigtop.core.errors import IllegalActionError, InvalidStateError, MalformedActionError
from bigtop.core.game import CHANCE, TERMINAL
from bigtop.core.registry import new_game, new_state
from bigtop.games.zirkus import (
    Add,
    BackToStart,
    Move,
    Restart,
    Roll,
    Upend,
    ZirkusBot,
    ZirkusGame,
    ZirkusState,
)
from tests.games.zirkus.helpers import clowns, kinds, load, position


def game(players: int = 4, **opts: object) -> ZirkusGame:
    g = new_game("so-ein-zirkus", players, opts)
    assert isinstance(g, ZirkusGame)
    return g


def start(g: ZirkusGame, seed: int) -> ZirkusState:
    s = g.new_initial_state(seed)
    assert isinstance(s, ZirkusState)
    return s


def moves(state: ZirkusState, clown: int) -> list[str]:
    return [a.steps for a in state.legal_actions() if isinstance(a, Move) and a.clown == clown]


def unchanged_after_illegal(state: ZirkusState, action: object) -> None:
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError):
        state.apply(action)  # type: ignore[arg-type]
    assert json.dumps(state.to_json(), sort_keys=True) == before


# -- set-up and the die -----------------------------------------------------------------------


def test_setup_three_clowns_on_start_unused_colours_in_the_box() -> None:
    # "The three clowns are placed side by side on the three starting squares ... When fewer
    # than four players take part, the balls of the colours not chosen stay in the box"
    s = new_state("so-ein-zirkus", 2, seed=3)
    assert isinstance(s, ZirkusState)
    pos = s.to_json()["position"]
    assert [c["field"] for c in pos["clowns"]] == ["A1", "B1", "C1"]
    assert pos["supply"] == {"red": 3, "yellow": 3, "blue": 0, "green": 0}
    assert pos["colours"] == ["red", "yellow"]
    s.audit()


def test_the_die_is_an_explicit_chance_node_with_six_faces() -> None:
    s = new_state("so-ein-zirkus", 3, seed=1)
    assert s.current_player() == CHANCE
    assert s.legal_actions() == [Roll("red"), Roll("yellow"), Roll("blue"), Roll("green"),
                                 Roll("black"), Roll("white")]
    assert [p for _, p in s.chance_outcomes()] == [1 / 6] * 6


def test_a_turn_is_lost_when_nothing_is_possible() -> None:
    # "If a player can neither move a clown nor add a ball to a clown, that player loses his
    # turn and the next player plays."  Blue is not in a 2-player game at all.
    s = new_state("so-ein-zirkus", 2, seed=1)
    assert "the turn is lost" in s.describe(Roll("blue"))
    s.apply(Roll("blue"))
    assert s.current_player() == CHANCE and s.to_json()["position"]["to_act"] == 1
    assert "the turn is lost" not in s.describe(Roll("red"))


# -- adding a ball ------------------------------------------------------------------------------


def test_add_a_ball_of_the_rolled_colour_to_any_clown_with_room() -> None:
    # "he puts a red ball into one of the clowns, even if he owns only green or yellow balls
    # himself ... Each clown can hold a maximum of three balls at a time."
    g = game(4)
    s = load(g, phase="act", roll="red", to_act=1, turn=1,
             clowns=clowns(("A1", ["blue", "blue", "green"]), ("B2", ["yellow"]), ("C1", [])))
    assert [a for a in s.legal_actions() if isinstance(a, Add)] == [
        Add(1, "red"), Add(2, "red")]
    unchanged_after_illegal(s, Add(0, "red"))
    s.apply(Add(2, "red"))
    assert s.stacks[2] == [0] and s.supply[0] == 2


def test_no_add_when_all_balls_of_the_colour_are_in_play() -> None:
    # "if all the red balls have already been put into play, this option is no longer
    # possible."  Red's top ball still lets the red clown move.
    g = game(4)
    s = load(g, phase="act", roll="red", turn=1,
             clowns=clowns(("A1", ["red", "red"]), ("B1", ["red"]), ("C1", [])))
    assert kinds(s) == ["move"] * len(s.legal_actions())


def test_black_or_white_adds_any_colour_in_the_supply() -> None:
    # "If a player has rolled black or white, he may place a ball of the colour of his choice."
    g = game(2)
    s = load(g, phase="act", roll="white", turn=1,
             clowns=clowns(("A1", ["red"]), ("B1", []), ("C1", [])))
    adds = [a for a in s.legal_actions() if isinstance(a, Add)]
    assert {a.colour for a in adds} == {"red", "yellow"}  # blue, green stay in the box
    assert len(adds) == 6


# -- moving a clown -----------------------------------------------------------------------------


def test_move_the_clown_whose_top_ball_matches_the_roll() -> None:
    # "The player may move a clown whose top ball matches the colour that was rolled."
    g = game(4)
    s = load(g, phase="act", roll="blue", turn=1,
             clowns=clowns(("A1", ["blue", "red"]), ("B1", ["red", "blue"]), ("C1", [])))
    assert moves(s, 0) == [] and moves(s, 1) == ["FF", "FL", "FR"]
    unchanged_after_illegal(s, Move(0, "FF"))


def test_black_or_white_moves_any_clown_but_never_an_empty_one() -> None:
    # "A player who rolled black or white may move any clown."  Z1: no balls, no move.
    g = game(4)
    s = load(g, phase="act", roll="white", turn=1,
             clowns=clowns(("A1", ["blue"]), ("B1", ["red"]), ("C1", [])))
    assert moves(s, 0) == ["F"] and moves(s, 1) == ["F"] and moves(s, 2) == []


def test_length_is_the_number_of_balls_and_the_full_move_must_be_made() -> None:
    # "With one ball, the clown moves only one square; with two balls, it moves two squares;
    # and with three balls, it moves three squares. Where possible, the full move must be
    # made."  From A5 with three balls, B6 and A7 taken: A5-A6 is stuck after one step,
    # A5-B5 can only go on to C5-C6.
    g = game(4)
    s = load(g, phase="act", roll="green", turn=1,
             clowns=clowns(("A5", ["green", "red", "green"]), ("B6", []), ("A7", [])))
    assert moves(s, 0) == ["RRF"]
    for short in ("F", "R", "RR", "RF"):
        unchanged_after_illegal(s, Move(0, short))


def test_z2_a_clown_without_a_full_path_does_not_move_unless_the_option() -> None:
    # From A8 (last row) a three-ball clown can go at most A8-B8-C8.
    spec = clowns(("A8", ["red", "red", "blue"]), ("A1", []), ("B1", []))
    s = load(game(4), phase="act", roll="blue", turn=1, clowns=spec)
    assert moves(s, 0) == []
    s = load(game(4, short_move="as-far-as-possible"), phase="act", roll="blue", turn=1,
             clowns=spec)
    assert moves(s, 0) == ["RR"]
    s = load(game(4, lazy_clown=True), phase="act", roll="blue", turn=1, clowns=spec)
    # "Lazy clown: You are not obliged to use all of the movement points."
    assert moves(s, 0) == ["R", "RR"]


def test_no_passing_through_another_clown() -> None:
    # "Only one clown may occupy each square. A square already occupied by another clown may
    # not be passed through."
    g = game(4)
    s = load(g, phase="act", roll="red", turn=1,
             clowns=clowns(("B1", ["red", "red"]), ("B2", []), ("C3", [])))
    assert moves(s, 0) == ["LF", "RF"]
    unchanged_after_illegal(s, Move(0, "FF"))


def test_no_diagonal_no_backward_no_revisiting_a_field_in_one_move() -> None:
    # "Clowns may move forward or sideways in any combination, but diagonal movement is not
    # allowed. In addition, a clown may not return, in the same turn, to a square it has
    # already passed or has left during that same turn."
    g = game(4)
    s = load(g, phase="act", roll="red", turn=1,
             clowns=clowns(("B4", ["red", "red"]), ("A1", []), ("C1", [])))
    assert moves(s, 0) == ["FF", "FL", "FR", "LF", "RF"]
    for path in ("LR", "RL", "B", ""):
        unchanged_after_illegal(s, Move(0, path))


def test_the_bottom_ball_drops_and_the_length_does_not_change() -> None:
    # "The length of a clown's movement is not changed when the clown passes over a hole and
    # drops a ball into it. The new length applies only from the clown's next move."
    g = game(4)
    s = load(g, phase="act", roll="blue", turn=1,
             clowns=clowns(("A2", ["red", "blue"]), ("B1", []), ("C1", [])))
    assert "drops red into the 1-point hole at A3" in s.describe(Move(0, "FF"))
    s.apply(Move(0, "FF"))
    pos = s.to_json()["position"]
    assert pos["clowns"][0] == {"field": "A4", "balls": ["blue"]}
    assert pos["holes"]["A3"] == "red"
    assert s.scores() == [1.0, 0.0, 0.0, 0.0]


def test_a_filled_hole_takes_no_ball() -> None:
    g = game(4)
    s = load(g, phase="act", roll="blue", turn=1, holes={"A3": "yellow"},
             clowns=clowns(("A2", ["red", "blue"]), ("B1", []), ("C1", [])))
    s.apply(Move(0, "FF"))
    pos = s.to_json()["position"]
    assert pos["clowns"][0] == {"field": "A4", "balls": ["red", "blue"]}
    assert pos["holes"]["A3"] == "yellow"


def test_two_paths_to_one_field_drop_different_balls() -> None:
    # Z3: the action names the path. B4 -> C5 via C4 (2-point hole) or via B5 (3 points).
    g = game(4)
    s = load(g, phase="act", roll="green", turn=1,
             clowns=clowns(("B4", ["red", "green"]), ("A1", []), ("C1", [])))
    a, b = s.clone(), s.clone()
    a.apply(Move(0, "RF"))
    b.apply(Move(0, "FR"))
    assert a.scores() == [2.0, 0, 0, 0] and b.scores() == [3.0, 0, 0, 0]


def test_z4_stopping_over_a_hole_drops_unless_the_option() -> None:
    # "Clowns may stop above holes."
    spec = clowns(("A2", ["red"]), ("B1", []), ("C1", []))
    s = load(game(4), phase="act", roll="red", turn=1, clowns=spec)
    s.apply(Move(0, "F"))
    assert s.to_json()["position"]["holes"]["A3"] == "red"
    s = load(game(4, drop_on_stop=False), phase="act", roll="red", turn=1, clowns=spec)
    s.apply(Move(0, "F"))
    assert s.to_json()["position"]["holes"]["A3"] is None and s.stacks[0] == [0]


def test_the_game_ends_as_soon_as_the_six_point_hole_is_filled() -> None:
    # "The game ends as soon as a ball falls into the last hole (worth 6 points), even if not
    # all the other holes have been filled."  Z6: the rest of the path is not walked.
    g = game(4)
    s = load(g, phase="act", roll="green", turn=1, holes={"A3": "red"},
             clowns=clowns(("B7", ["yellow", "green"]), ("A1", []), ("C1", [])))
    # The line names the fields the clown walked, not the path's unwalked rest (B7-B8-A8).
    line = s.describe(Move(0, "FL"))
    assert "the game ends" in line and "B7-B8 " in line and "A8" not in line, line
    s.apply(Move(0, "FL"))
    assert s.current_player() == TERMINAL
    assert s.scores() == [1.0, 6.0, 0.0, 0.0] and s.winners() == [1]
    assert s.to_json()["position"]["clowns"][0] == {"field": "B8", "balls": ["green"]}
    assert s.result()["ending"] == "six-hole"
    assert s.legal_actions() == []


def test_the_line_of_a_move_that_ends_a_game_of_a_series_names_only_its_own_pushes() -> None:
    """Found by the option-combination fuzz (tests/core/test_fuzz_options.py): when the
    series went on, the line compared the clowns with the next game's set-up and said that
    every clown off its start field had been pushed there; with secret clowns whether the
    series goes on can hang on the hidden colours, so the line told them."""
    holes = {"A3": "red"}
    spec = clowns(("B7", ["yellow", "green"]), ("A1", []), ("C3", []))
    series: dict[str, object] = {"tournament": "games", "tournament_games": 2}
    for opts in ({}, series, {**series, "shoving": "shove"}):
        s = load(game(4, **opts), phase="act", roll="green", turn=1, holes=holes, clowns=spec)
        line = s.describe(Move(0, "FL"))
        assert line == "P0 moves clown 0 B7-B8 (drops yellow into the 6-point hole at B8; " \
            "the game ends)", (opts, line)
    # A push on the way is named, series or not (Z6: the push and the step are one motion).
    spec = clowns(("A7", ["yellow", "green"]), ("B8", []), ("C3", []))
    shove: dict[str, object] = {"shoving": "shove"}
    for opts in (shove, {**series, **shove}):
        s = load(game(4, **opts), phase="act", roll="green", turn=1, holes=holes, clowns=spec)
        assert s.describe(Move(0, "FR")) == "P0 moves clown 0 A7-A8-B8 (pushes clown 1 to " \
            "C8; drops yellow into the 6-point hole at B8; the game ends)", opts


# -- black ----------------------------------------------------------------------------------------


def test_black_sends_a_clown_back_to_a_free_start_field_keeping_its_balls() -> None:
    # "if a player rolls black, he may bring a clown back to one of the starting squares."
    g = game(4)
    s = load(g, phase="act", roll="black", turn=1,
             clowns=clowns(("B6", ["red"]), ("B1", []), ("C5", ["blue"])))
    backs = [a for a in s.legal_actions() if isinstance(a, BackToStart)]
    assert backs == [BackToStart(0, "A1"), BackToStart(0, "C1"), BackToStart(2, "A1"),
                     BackToStart(2, "C1")]  # Z8: clown 1 is on a start field already
    s.apply(BackToStart(2, "A1"))
    assert s.to_json()["position"]["clowns"][2] == {"field": "A1", "balls": ["blue"]}
    assert not any(isinstance(a, Upend) for a in backs)


def test_upside_down_moves_the_bottom_ball_to_the_top_on_black() -> None:
    # "If a player rolls black, he may choose to move the bottom ball of a clown upward"
    spec = clowns(("B6", ["red", "blue", "green"]), ("B1", ["red"]), ("C5", []))
    s = load(game(4), phase="act", roll="black", turn=1, clowns=spec)
    assert "upend" not in kinds(s)
    s = load(game(4, upside_down=True), phase="act", roll="black", turn=1, clowns=spec)
    assert [a for a in s.legal_actions() if isinstance(a, Upend)] == [Upend(0)]  # Z17: 2+
    s.apply(Upend(0))
    assert s.stacks[0] == [2, 3, 0]
    t = load(game(4, upside_down=True), phase="act", roll="white", turn=1, clowns=spec)
    assert "upend" not in kinds(t)


# -- shoving and clumsy clown ---------------------------------------------------------------------


def test_shoving_pushes_one_clown_one_field_never_off_the_board() -> None:
    # "may also push another clown with the clown he is moving. However, a clown may not be
    # pushed beyond the edge of the board."
    spec = clowns(("B2", ["red"]), ("B3", ["blue", "yellow"]), ("C2", []))
    assert moves(load(game(4), phase="act", roll="red", turn=1, clowns=spec), 0) == ["L"]
    s = load(game(4, shoving="shove"), phase="act", roll="red", turn=1, clowns=spec)
    assert moves(s, 0) == ["F", "L"]  # C2's clown would go off the board: not with "shove"
    s.apply(Move(0, "F"))
    pos = s.to_json()["position"]
    assert [c["field"] for c in pos["clowns"]] == ["B3", "B4", "C2"]
    # Z15: no chains (two clowns in a row), and one push per move.
    spec2 = clowns(("B2", ["red", "red"]), ("B3", []), ("B4", []))
    t = load(game(4, shoving="shove"), phase="act", roll="red", turn=1, clowns=spec2)
    assert "FF" not in moves(t, 0) and "F" not in [p[:1] for p in moves(t, 0)]


def test_a_pushed_clown_drops_its_bottom_ball_into_an_empty_hole() -> None:
    g = game(4, shoving="shove")
    s = load(g, phase="act", roll="red", turn=1,
             clowns=clowns(("A1", ["red"]), ("A2", ["green", "blue"]), ("C1", [])))
    s.apply(Move(0, "F"))
    pos = s.to_json()["position"]
    assert pos["holes"]["A3"] == "green" and pos["clowns"][1] == {"field": "A3",
                                                                    "balls": ["blue"]}


def test_z10_a_ball_added_to_a_clown_over_an_empty_hole_falls_in() -> None:
    g = game(4, shoving="shove")
    s = load(g, phase="act", roll="red", turn=1,
             clowns=clowns(("A1", ["red"]), ("A2", []), ("C1", [])))
    s.apply(Move(0, "F"))  # the empty clown 1 is pushed onto the empty 1-point hole A3
    s.apply(Roll("white"))
    assert "falls into the 1-point hole" in s.describe(Add(1, "yellow"))
    s.apply(Add(1, "yellow"))
    assert s.to_json()["position"]["holes"]["A3"] == "yellow" and s.stacks[1] == []


def test_clumsy_clown_pushes_off_the_board_and_the_mover_chooses_a_start_field() -> None:
    # "a player may push the other clowns beyond the edge of the board. The ejected clown
    # returns to play on a starting square without any balls. The balls are available again."
    spec = clowns(("B6", ["red"]), ("C6", ["blue", "green"]), ("A1", []))
    g = game(4, shoving="clumsy")
    s = load(g, phase="act", roll="red", turn=1, clowns=spec)
    assert moves(s, 0) == ["F", "L", "R"]
    s.apply(Move(0, "R"))
    assert s.current_player() == 0 and s.legal_actions() == [Restart("B1"), Restart("C1")]
    assert s.to_json()["position"]["clowns"][1] == {"field": None, "balls": []}
    assert s.supply[2] == 3 and s.supply[3] == 3
    unchanged_after_illegal(s, Restart("A1"))
    s.apply(Restart("C1"))
    assert s.current_player() == CHANCE and s.clown_field[1] == 2
    s.audit()


# -- secret clown, tournament, safety rules --------------------------------------------------------


def test_secret_clown_hides_the_colours_until_the_end() -> None:
    # "Players keep their colour secret until the end of the game." Z11: all four colours.
    g = game(2, secret_clown=True)
    s = start(g, 5)
    assert s.to_json()["position"]["supply"] == {c: 3 for c in ("red", "yellow", "blue",
                                                                "green")}
    mine = s.observation(0)["colours"]
    assert mine[0] is not None and mine[1] is None
    assert s.observation(None)["colours"] == [None, None]
    seen: set[tuple[int, ...]] = set()
    for k in range(40):
        r = s.resample_hidden(0, k)
        assert isinstance(r, ZirkusState)
        seen.add(tuple(r.colours))
    assert len(seen) == 3 and all(c[0] == s.colours[0] for c in seen)
    rng = random.Random(1)
    while not s.is_terminal():
        if s.is_chance():
            s.apply_chance()
        else:
            s.apply(rng.choice(s.legal_actions()))
    assert None not in s.observation(1)["colours"]


def _play_series(s: ZirkusState, rng: random.Random) -> list[int]:
    """Play a series out at random; the starting player of each game."""
    starters = []
    while not s.is_terminal():
        if s.is_chance():
            if s.turn == 0:
                starters.append(s.to_act)
            s.apply_chance()
        else:
            s.apply(rng.choice(s.legal_actions()))
    return starters


def test_tournament_plays_a_series_and_adds_up_the_points() -> None:
    # "Play several games and keep track of the points scored."
    g = game(3, tournament="games", tournament_games=3)
    s = start(g, 2)
    starters = _play_series(s, random.Random(2))
    games = s.result()["games"]
    assert len(games) == 3 and starters[:3] == [0, 1, 2]  # Z9
    assert s.scores() == [float(sum(r["scores"][p] for r in games)) for p in range(3)]
    t = game(2, tournament="score", tournament_score=15).new_initial_state(1)
    while not t.is_terminal():
        if t.is_chance():
            t.apply_chance()
        else:
            t.apply(random.Random(len(t.history)).choice(t.legal_actions()))
    assert max(t.scores()) >= 15


def test_turn_limit_ends_a_game_scored_as_it_stands() -> None:
    g = game(2, turn_limit=3)
    s = start(g, 1)
    while not s.is_terminal():
        if s.is_chance():
            s.apply_chance()
        else:
            s.apply(s.legal_actions()[0])
    assert s.result()["ending"] == "turn-limit" and s.games[0]["turns"] == 3


def test_z14_the_game_ends_when_no_ball_can_reach_the_six_hole() -> None:
    g = game(2, drop_on_stop=False)
    # Red/yellow: five balls in holes, the last yellow one alone in a clown: it can only
    # ever stop, never pass, so nothing can drop any more.
    holes = {"A3": "red", "C4": "red", "B5": "red", "A6": "yellow", "C7": "yellow"}
    with pytest.raises(InvalidStateError, match=r"no ball can reach|game is over"):
        load(g, holes=holes, clowns=clowns(("A1", ["yellow"]), ("B1", []), ("C1", [])))
    holes.pop("C7")
    s = load(g, phase="act", roll="yellow", turn=1, holes=holes,
             clowns=clowns(("A1", ["yellow", "yellow"]), ("B1", []), ("C1", [])))
    s.apply(Move(0, "FF"))  # passes A2, stops on A3 (filled): nothing drops; fine
    assert not s.is_terminal()


# -- JSON, validation, text ---------------------------------------------------------------


@pytest.mark.parametrize(("pos", "message"), [
    ({"clowns": clowns(("A1", []), ("A1", []), ("C1", []))}, "same field"),
    ({"clowns": clowns(("A1", []), ("B1", []))}, "must list 3 clowns"),
    ({"clowns": clowns(("A1", ["red"] * 4), ("B1", []), ("C1", []))}, "at most 3"),
    ({"clowns": clowns(("A1", ["red", "red"]), ("B1", ["red", "red"]), ("C1", []))},
     "4 red balls"),
    ({"clowns": clowns(("D1", []), ("B1", []), ("C1", []))}, "not a field"),
    ({"clowns": clowns(("A1", ["blue"]), ("B1", []), ("C1", []))}, "blue is not in play"),
    ({"clowns": clowns(("A2", ["red"]), ("B1", []), ("C1", [])), "holes": {"B8": "red"}},
     "6-point hole is filled"),
    ({"clowns": clowns(("A3", ["red"]), ("B1", []), ("C1", []))}, "over an empty hole"),
    ({"clowns": clowns(("A1", []), ("B1", []), ("C1", [])), "phase": "act", "roll": "blue",
      "turn": 1}, "turn would have been lost"),
    ({"clowns": clowns(("A1", []), ("B1", []), ("C1", [])), "supply": {"red": 2}},
     "supply must give"),
    ({"clowns": clowns(("A1", []), ("B1", []), ("C1", [])), "colours": ["yellow", "red"]},
     "seats own red, yellow"),
    ({"clowns": clowns(("A1", []), ("B1", []), ("C1", [])), "to_act": 2}, "to_act"),
    ({"clowns": clowns(("A1", []), ("B1", []), ("C1", [])), "totals": [3, 0]}, "totals"),
    ({"clowns": clowns(("A1", []), ("B1", []), ("C1", [])), "phase": "act"}, "rolled face"),
    ({"clowns": clowns(("A1", []), ("B1", []), ("C1", [])), "holes": {"A4": "red"}},
     "holes must map"),
    ({"clowns": clowns(("A1", []), ("B1", []), ("C1", [])), "colour": "red"},
     "unknown position key"),
])
def test_inconsistent_positions_are_refused(pos: dict[str, object], message: str) -> None:
    g = game(2)
    with pytest.raises(InvalidStateError, match=message):
        g.state_from_json(position(g, **pos))


def test_json_round_trip_and_hand_written_position_defaults() -> None:
    g = game(3)
    s = load(g, clowns=clowns(("A2", ["red", "blue"]), ("B1", []), ("C1", [])))
    assert s.supply == [2, 3, 2, 0] and s.current_player() == CHANCE
    assert g.state_from_json(json.loads(json.dumps(s.to_json()))) == s
    s.audit()


def test_text_actions_and_render() -> None:
    g = game(2)
    s = load(g, phase="act", roll="black", turn=1,
             clowns=clowns(("B4", ["red", "yellow"]), ("B1", []), ("C1", [])))
    assert s.action_from_text("move 0 ff") == Move(0, "FF")
    assert s.action_from_text("add 1 red") == Add(1, "red")
    assert s.action_from_text("back 0 a1") == BackToStart(0, "A1")
    assert s.action_from_text("upend 2") == Upend(2)
    with pytest.raises(MalformedActionError):
        s.action_from_text("jump 3")
    with pytest.raises(MalformedActionError):
        s.action_from_text("add 1 purple")
    text = s.render(0)
    assert "[0:RY]" in text and "(6)" in text and "P0 (you): red" in text


def test_the_heuristic_bot_plays_legal_moves_and_sees_only_its_colour() -> None:
    g = game(3, secret_clown=True)
    s = g.new_initial_state(9)
    bots = [ZirkusBot(p) for p in range(3)]
    while not s.is_terminal():
        if s.is_chance():
            s.apply_chance()
        else:
            a = bots[s.current_player()].act(s)
            assert a in s.legal_actions()
            s.apply(a)


def test_a_series_state_round_trips_between_games_and_bad_finishes_are_refused() -> None:
    g = game(2, tournament="games", tournament_games=2, secret_clown=True)
    s = start(g, 4)
    rng = random.Random(4)
    while not s.games:
        if s.is_chance():
            s.apply_chance()
        else:
            s.apply(rng.choice(s.legal_actions()))
    assert not s.is_terminal() and s.turn == 0 and len(s.games) == 1
    back = g.state_from_json(json.loads(json.dumps(s.to_json())))
    assert back == s and back.legal_actions() == s.legal_actions()
    # The finished game's colours are public now; the new game's are not.
    obs = s.observation(0)
    assert None not in obs["games"][0]["colours"] and obs["colours"][1] is None
    data = s.to_json()
    data["position"]["finished"] = True
    with pytest.raises(InvalidStateError, match="finished position"):
        g.state_from_json(data)
    data = s.to_json()
    data["position"]["games"][0]["scores"] = [99, 0]
    with pytest.raises(InvalidStateError, match="scores must be"):
        g.state_from_json(data)


def test_observation_of_a_stranger_is_refused() -> None:
    s = new_state("so-ein-zirkus", 2, seed=0)
    with pytest.raises(IllegalActionError):
        s.observation(2)
    with pytest.raises(IllegalActionError):
        s.resample_hidden(-1, 0)
    assert "seed" not in s.observation(None)


def test_z9_first_player_chosen_by_lot() -> None:
    """"The first player, chosen by lot, takes the coloured die." The lot is the option
    ``first_player`` (default seat 0); in a tournament the start passes clockwise from it."""
    from bigtop import load_state

    assert start(game(3), 1).to_act == 0
    g = game(3, first_player=2, tournament="games", tournament_games=3)
    s = start(g, 2)
    assert s.to_act == 2 and load_state(s.to_json()) == s
    assert _play_series(s, random.Random(2))[:3] == [2, 0, 1]
    with pytest.raises(ValueError, match="first_player"):
        game(2, first_player=2)
