"""The So ein Zirkus rulebook (003_97aa81262881367c.txt), sentence by sentence, where
test_zirkus_rules.py does not pin the rule yet: each test quotes the sentence (heading in
brackets) and checks the legal actions or the outcome exactly on a hand-written position."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bigtop.core.errors import IllegalActionError
from bigtop.core.game import CHANCE, TERMINAL
from bigtop.core.registry import new_game
from bigtop.games import teaching
from bigtop.games.zirkus import (
    Add,
    BackToStart,
    Move,
    Roll,
    ZirkusGame,
    ZirkusOptions,
    ZirkusState,
)
from bigtop.games.zirkus.actions import ColourName
from bigtop.games.zirkus.board import load_board
from tests.games.coverage import named_but_missing
from tests.games.zirkus.helpers import clowns, kinds, load

DOCS = Path(__file__).parents[3] / "docs" / "so-ein-zirkus.md"


def game(players: int = 4, **opts: object) -> ZirkusGame:
    g = new_game("so-ein-zirkus", players, opts)
    assert isinstance(g, ZirkusGame)
    return g


def test_the_default_board_follows_the_published_facts() -> None:
    """[Setup] "The three clowns are placed side by side on the three starting squares at the
    end of the game board." — [Object of the Game] "the number of points for that hole. This
    number is shown by the stars below each hole." Published facts (rulings): 3 × 8 fields,
    six holes worth 1 to 6, farther holes worth more, the 6-point hole the last."""
    b = load_board("default")
    assert (b.columns, b.rows) == (3, 8)
    assert [b.field_name(f) for f in b.start] == ["A1", "B1", "C1"]
    assert sorted(v for _, v in b.holes) == [1, 2, 3, 4, 5, 6]
    rows = [f // b.columns for f, _ in sorted(b.holes, key=lambda h: h[1])]
    assert rows == sorted(rows) and rows[-1] == b.rows - 1  # the 6 lies on the far row
    s = game(3).new_initial_state(0)
    assert isinstance(s, ZirkusState)
    assert [b.field_name(f) for f in s.clown_field] == ["A1", "B1", "C1"]
    assert s.stacks == [[], [], []] and s.current_player() == CHANCE


@pytest.mark.parametrize("players,seats", [
    (2, "P0 plays red, P1 yellow; blue and green stay in the box."),
    (3, "P0 plays red, P1 yellow, P2 blue; green stays in the box."),
    (4, "P0 plays red, P1 yellow, P2 blue, P3 green.")])
def test_the_rules_text_names_only_this_tables_colours(players: int, seats: str) -> None:
    """[Setup] "Each player chooses a colour and takes the three balls of that colour. When
    fewer than four players take part, the balls of the colours not chosen stay in the box"
    — the rules a player reads (`rules` in `bigtop play`) name this table's seats only.
    (Regression: a three-player game was told "P3 green".)"""
    text = " ".join(teaching("so-ein-zirkus").rules_text(game(players)).split())
    assert seats in text


WORDY = {"shoving": "clumsy", "upside_down": True, "tournament": "games", "secret_clown": True,
         "short_move": "as-far-as-possible"}


@pytest.mark.parametrize("options", [*ZirkusGame.conformance_options(2), WORDY])
def test_the_rules_text_follows_the_options_and_fits_the_screen(options: dict[str, object]
                                                                ) -> None:
    """[Optional Rules] Shoving: "may also push another clown with the clown he is moving.
    However, a clown may not be pushed beyond the edge of the board." — Clumsy clown: "The
    ejected clown returns to play on a starting square without any balls." The rules text
    tells the pushing rule in force (it said "never onto or past another clown" with
    shoving on), within 22 lines of 78 columns."""
    text = teaching("so-ein-zirkus").rules_text(game(2, **options))
    lines = text.splitlines()
    assert len(lines) <= 22 and all(len(line) <= 78 for line in lines)
    flat = " ".join(text.split())
    shoving = options.get("shoving", "off")
    assert ("never onto or past another clown" in flat) == (shoving == "off")
    assert ("not off the board" in flat) == (shoving == "shove")
    assert ("restarts empty on a start field" in flat) == (shoving == "clumsy")


@pytest.mark.parametrize("action", [Add(0, "red"), Move(1, "F")])
def test_a_turn_is_one_roll_and_one_action_then_the_next_player(action: Add | Move) -> None:
    """[Course of Play] "On his turn, the player rolls the coloured die. Afterwards, he either
    adds a ball of the colour that was rolled, or moves a clown. Then it is the next player's
    turn." — [Moving a Clown] "A player may move only one clown per turn, even if several of
    them have a ball of the rolled colour on top.\""""
    g = game(3)
    s = load(g, phase="act", roll="red", to_act=2, turn=4,
             clowns=clowns(("A1", []), ("B1", ["red"]), ("C1", ["red"])))
    assert {a.kind for a in s.legal_actions()} == {"add", "move"}
    s.apply(action)
    # The next player (clockwise, after the last seat the first) rolls; nothing else is legal.
    assert s.current_player() == CHANCE and s.to_act == 0 and s.turn == 4
    assert kinds(s) == ["roll"] * 6
    with pytest.raises(IllegalActionError):
        s.apply(Move(2, "F"))
    s.apply(Roll("red"))
    assert s.to_act == 0 and s.turn == 5


@pytest.mark.parametrize("face", ["red", "yellow", "blue", "green", "white"])
def test_only_black_brings_a_clown_back_to_start(face: str) -> None:
    """[Moving a Clown] "Normally, clowns do not move backwards; however, if a player rolls
    black, he may bring a clown back to one of the starting squares." — on any other face no
    clown goes back, not even with white, which otherwise counts as black."""
    spec = clowns(("B6", ["red", "yellow", "blue"]), ("C5", ["green", "red"]), ("A1", []))
    s = load(game(4), phase="act", roll=face, turn=1, clowns=spec)
    assert "back-to-start" not in kinds(s)
    with pytest.raises(IllegalActionError, match="only black"):
        s.apply(BackToStart(0, "B1"))
    t = load(game(4), phase="act", roll="black", turn=1, clowns=spec)
    assert [(a.clown, a.field) for a in t.legal_actions() if isinstance(a, BackToStart)] == [
        (0, "B1"), (0, "C1"), (1, "B1"), (1, "C1")]  # "Only one clown may occupy each square"


def test_the_new_length_applies_from_the_clowns_next_move() -> None:
    """[Special Cases] "The length of a clown's movement is not changed when the clown passes
    over a hole and drops a ball into it. The new length applies only from the clown's next
    move." Three balls from B4: the 3-point hole B5 takes the bottom ball on the first step,
    the clown still goes three fields; its next move is two fields long."""
    g = game(4)
    s = load(g, phase="act", roll="green", turn=1,
             clowns=clowns(("B4", ["red", "yellow", "green"]), ("A1", []), ("C1", [])))
    assert "FFL" in [a.steps for a in s.legal_actions() if isinstance(a, Move)]
    s.apply(Move(0, "FFL"))
    pos = s.to_json()["position"]
    assert pos["clowns"][0] == {"field": "A6", "balls": ["green"]}  # A6 (4 points) took yellow
    assert pos["holes"]["B5"] == "red" and pos["holes"]["A6"] == "yellow"
    t = load(g, phase="act", roll="green", turn=1,
             clowns=clowns(("B6", ["yellow", "green"]), ("A1", []), ("C1", [])))
    assert all(len(a.steps) == 2 for a in t.legal_actions() if isinstance(a, Move))


def test_a_dropped_ball_scores_for_the_owner_of_its_colour() -> None:
    """[Object of the Game] "When a player's ball falls into a hole, that player receives the
    number of points for that hole." P2 (blue) moves a clown whose bottom ball is red: the
    red player P0 gets the 2 points, not the mover."""
    g = game(3)
    s = load(g, phase="act", roll="blue", to_act=2, turn=3,
             clowns=clowns(("C3", ["red", "blue"]), ("A1", []), ("B1", [])))
    s.apply(Move(0, "FF"))
    assert s.to_json()["position"]["holes"]["C4"] == "red"
    assert s.scores() == [2.0, 0.0, 0.0]


def test_most_points_wins_and_equal_points_share_the_win() -> None:
    """[Calculating the Winner] "Each player adds up the points of the balls of his colour.
    The winner is the player with the most points." Red holds 1 + 2 + 3, then yellow drops
    into the 6-point hole: 6 points each, both win (ties share first place)."""
    g = game(3)
    s = load(g, phase="act", roll="yellow", to_act=2, turn=9,
             holes={"A3": "red", "C4": "red", "B5": "red"},
             clowns=clowns(("B7", ["yellow"]), ("A1", []), ("C1", [])))
    s.apply(Move(0, "F"))
    assert s.current_player() == TERMINAL and s.result()["ending"] == "six-hole"
    assert s.scores() == [6.0, 6.0, 0.0] and s.winners() == [0, 1]
    assert s.ranking() == [1, 1, 3]


def test_a_ball_of_a_colour_nobody_drew_scores_for_nobody() -> None:
    """[Optional Rules] Secret clown: "If there are fewer than four players, the undrawn cards
    are set aside without being revealed. At the end of the game, each player shows his
    colour and then totals his points as in the normal game." (Z11: all four colours are in
    play.) Two players hold blue and green; the red ball in the 6-point hole counts for
    nobody."""
    g = game(2, secret_clown=True)
    s = load(g, phase="act", roll="red", to_act=0, turn=9, colours=["blue", "green"],
             holes={"C4": "blue"}, clowns=clowns(("B7", ["red"]), ("A1", []), ("C1", [])))
    s.apply(Move(0, "F"))
    assert s.is_terminal() and s.scores() == [2.0, 0.0] and s.winners() == [0]
    assert s.observation(1)["colours"] == ["blue", "green"]  # shown at the end


def test_a_clown_over_an_empty_hole_may_stop_there_with_its_last_ball() -> None:
    """[Special Cases] "Clowns may stop above holes." A one-ball clown stops on the empty
    5-point hole C7: its ball drops (Z4) and the empty clown stands over the filled hole; it
    cannot move again until it gets a ball (Z1)."""
    g = game(4)
    s = load(g, phase="act", roll="green", turn=1,
             clowns=clowns(("C6", ["green"]), ("A1", []), ("B1", [])))
    s.apply(Move(0, "F"))
    assert s.to_json()["position"]["clowns"][0] == {"field": "C7", "balls": []}
    assert s.scores() == [0.0, 0.0, 0.0, 5.0]
    s.apply(Roll("white"))
    assert not any(isinstance(a, Move) and a.clown == 0 for a in s.legal_actions())


def test_every_rule_option_is_documented_with_its_default() -> None:
    """Each option is in the options table of docs/so-ein-zirkus.md with its default; every
    ruling with alternatives and every variant quotes the sentence of the rulebook it reads."""
    text = DOCS.read_text()
    for info in ZirkusOptions.info():
        default = str(info.default).lower() if isinstance(info.default, bool) else info.default
        assert re.search(rf"\| `{info.name}` \| `{re.escape(str(default))}`", text), info.name
        if info.choices is not None or isinstance(info.default, bool):
            assert info.quote and info.doc, info.name


def test_the_rulebook_coverage_table_names_tests_that_exist() -> None:
    """The docs' *Rulebook coverage* checklist stays true: every test it names is defined in
    this directory."""
    count, missing = named_but_missing(DOCS, Path(__file__).parent)
    assert count > 20 and missing == []


# -- second audit (2026-12-01) ----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("face", ["red", "yellow", "blue", "green"])
def test_a_roll_of_a_colour_nobody_plays_loses_the_turn(players: int, face: ColourName
                                                       ) -> None:
    """[Setup] "When fewer than four players take part, the balls of the colours not chosen
    stay in the box" — [Adding a Ball] "if all the red balls have already been put into play,
    this option is no longer possible" — [Special Cases] "If a player can neither move a
    clown nor add a ball to a clown, that player loses his turn and the next player plays."
    At the start a played colour offers one add per clown; a colour in the box nothing, so
    the next player rolls at once."""
    s = game(players).new_initial_state(0)
    assert isinstance(s, ZirkusState)
    played = ["red", "yellow", "blue", "green"][:players]
    s.apply(Roll(face))
    if face in played:
        assert s.legal_actions() == [Add(k, face) for k in range(3)] and s.to_act == 0
    else:
        assert s.current_player() == CHANCE and s.to_act == 1 and s.turn == 1


def test_a_turn_is_lost_when_the_only_clown_of_the_colour_has_no_full_move() -> None:
    """[Moving a Clown] "Where possible, the full move must be made." (Z2) — [Special Cases]
    "If a player can neither move a clown nor add a ball to a clown, that player loses his
    turn and the next player plays." Every blue ball is in play (two in clown 0, one in a
    hole), and clown 0, blue on top with three balls on the last row, has no path of three
    fields: blue loses the turn. With ``short_move=as-far-as-possible`` it moves two."""
    spec = clowns(("A8", ["blue", "red", "blue"]), ("B1", []), ("C1", []))
    s = load(game(4), to_act=2, turn=5, holes={"A3": "blue"}, clowns=spec)
    s.apply(Roll("blue"))
    assert s.current_player() == CHANCE and s.to_act == 3 and s.turn == 6
    t = load(game(4, short_move="as-far-as-possible"), to_act=2, turn=5, holes={"A3": "blue"},
             clowns=spec)
    t.apply(Roll("blue"))
    assert t.legal_actions() == [Move(0, "RR")]


def test_black_and_white_offer_every_colour_every_clown_and_black_the_start() -> None:
    """[Adding a Ball] "If a player has rolled black or white, he may place a ball of the
    colour of his choice." — [Moving a Clown] "A player who rolled black or white may move
    any clown." — "if a player rolls black, he may bring a clown back to one of the starting
    squares. Only one clown may occupy each square." Two players (red, yellow): the whole
    list, in the documented order."""
    spec = clowns(("B4", ["red"]), ("A1", []), ("C1", ["yellow"]))
    white = load(game(2), phase="act", roll="white", turn=3, clowns=spec)
    common = [Add(0, "red"), Add(0, "yellow"), Add(1, "red"), Add(1, "yellow"),
              Add(2, "red"), Add(2, "yellow"), Move(0, "F"), Move(0, "L"), Move(0, "R"),
              Move(2, "F"), Move(2, "L")]
    assert white.legal_actions() == common
    black = load(game(2), phase="act", roll="black", turn=3, clowns=spec)
    assert black.legal_actions() == [*common, BackToStart(0, "B1")]  # B1: the free one


def test_a_clown_pushed_into_the_six_point_hole_ends_the_game_with_the_mover_moved() -> None:
    """[Optional Rules] Shoving: "may also push another clown with the clown he is moving."
    — [End of the Game] "The game ends as soon as a ball falls into the last hole". Clown 0
    steps B6-B7 and pushes clown 1 onto the 6-point hole B8, where its yellow ball drops:
    the game ends with both clowns where the push put them (the engine used to leave the
    mover on B6 when the pushed clown's drop ended the game)."""
    g = game(2, shoving="shove")
    s = load(g, phase="act", roll="red", turn=3,
             clowns=clowns(("B6", ["red"]), ("B7", ["yellow"]), ("C1", [])))
    assert "pushes clown 1 to B8" in s.describe(Move(0, "F"))
    s.apply(Move(0, "F"))
    assert s.current_player() == TERMINAL and s.result()["ending"] == "six-hole"
    assert s.scores() == [0.0, 6.0]
    assert s.to_json()["position"]["clowns"][:2] == [{"field": "B7", "balls": ["red"]},
                                                     {"field": "B8", "balls": []}]


def test_z10_a_ball_added_over_the_empty_six_point_hole_falls_in_and_ends_the_game() -> None:
    """Z10 with [End of the Game] "The game ends as soon as a ball falls into the last hole
    (worth 6 points)": an empty clown pushed onto B8 is a hollow tube over the empty hole;
    the yellow ball put into it falls through and the game is over at once."""
    g = game(2, shoving="shove")
    s = load(g, phase="act", roll="white", turn=3,
             clowns=clowns(("B8", []), ("A1", ["red"]), ("C1", [])))
    s.apply(Add(0, "yellow"))
    assert s.current_player() == TERMINAL and s.result()["ending"] == "six-hole"
    assert s.scores() == [0.0, 6.0] and s.stacks[0] == []


def test_an_empty_clown_over_an_empty_hole_needs_a_push() -> None:
    """Z10's hollow tube over an empty hole arises only from a push: a clown that walks onto
    a hole holds a ball there (it drops at most one per field, and a move is never longer
    than its balls), and start fields hold no holes. Without shoving such a position is
    refused; with it, it loads."""
    from bigtop.core.errors import InvalidStateError

    spec = clowns(("A3", []), ("A1", ["red"]), ("C1", []))
    for options in [{}, {"drop_on_stop": False}, {"lazy_clown": True}]:
        with pytest.raises(InvalidStateError, match="only a push"):
            load(game(2, **options), clowns=spec)
    for shoving in ["shove", "clumsy"]:
        assert load(game(2, shoving=shoving), clowns=spec).stacks[0] == []


def test_clumsy_an_ejected_clown_goes_to_the_only_free_start_field_at_once() -> None:
    """[Optional Rules] Clumsy clown: "The ejected clown returns to play on a starting square
    without any balls. The balls are available again." (Z16: the mover chooses the field,
    without a choice when only one is free.) Clown 0 steps B1-C1 and pushes clown 1 off the
    right edge; A1 is taken, so clown 1 stands on B1 at once, empty, and the next player
    rolls."""
    g = game(2, shoving="clumsy")
    s = load(g, phase="act", roll="red", turn=3,
             clowns=clowns(("B1", ["red"]), ("C1", ["yellow", "red"]), ("A1", [])))
    assert "R" in [a.steps for a in s.legal_actions() if isinstance(a, Move) and a.clown == 0]
    s.apply(Move(0, "R"))
    assert s.current_player() == CHANCE and s.to_act == 1
    assert s.to_json()["position"]["clowns"] == [{"field": "C1", "balls": ["red"]},
                                                 {"field": "B1", "balls": []},
                                                 {"field": "A1", "balls": []}]
    assert s.supply[:2] == [2, 3]


def test_a_hand_written_position_without_to_act_follows_the_turn_order() -> None:
    """Setup: *"The first player, chosen by lot, takes the coloured die."* (Z9: option
    first_player; the start passes clockwise each game of a series), then each roll is one
    turn and play passes on. A hand-written position that leaves out ``to_act`` gives the die
    to the player that order makes: P2 at the start under first_player=2, P0 after four rolls,
    P1 while acting on the third roll, and P0 at the start of a series' second game."""
    start = clowns(("A1", []), ("B1", []), ("C1", []))
    g = game(3, first_player=2)
    assert load(g, clowns=start).to_act == 2
    assert load(g, clowns=start, turn=4).to_act == 0
    assert load(g, clowns=start, turn=3, phase="act", roll="red").to_act == 1
    series = game(3, first_player=2, tournament="games")
    record = {"scores": [0, 0, 0], "colours": ["red", "yellow", "blue"], "ending": "turn-limit",
              "turns": 1000, "holes": {f: None for f in ("A3", "C4", "B5", "A6", "C7", "B8")}}
    assert load(series, clowns=start, games=[record]).to_act == 0
    assert load(g, clowns=start, to_act=1).to_act == 1  # as given


def test_a_position_waiting_for_a_restart_is_refused_where_none_could_wait() -> None:
    """Only clumsy clown pushes a clown off the board (shoving: *"a clown may not be pushed
    beyond the edge of the board"*), and the mover chooses its start field only when there is
    a choice (Z16: with one free start field it goes there at once). A position in phase
    'restart' is refused without the variant or with one free start field; with two it
    waits for the mover."""
    from bigtop.core.errors import InvalidStateError

    waiting = {"phase": "restart", "roll": "red", "turn": 3, "ejected": 2}
    two_free = clowns(("A2", ["red"]), ("B1", []), (None, []))
    for options in [{}, {"shoving": "shove"}]:
        with pytest.raises(InvalidStateError, match="only clumsy clown"):
            load(game(2, **options), clowns=two_free, **waiting)
    with pytest.raises(InvalidStateError, match="goes there at once"):
        load(game(2, shoving="clumsy"), clowns=clowns(("A1", ["red"]), ("B1", []), (None, [])),
             **waiting)
    s = load(game(2, shoving="clumsy"), clowns=two_free, **waiting)
    assert [str(a) for a in s.legal_actions()] == ["Restart(field='A1')", "Restart(field='C1')"]


def test_the_line_of_a_clumsy_push_says_off_the_board() -> None:
    """Clumsy clown: "a player may push the other clowns beyond the edge of the board". The
    log line says the pushed clown goes off the board (it said "to off the board"), to the
    mover and to everyone else; a push on the board still names the field."""
    g = game(2, shoving="clumsy")
    s = load(g, phase="act", roll="red", turn=3,
             clowns=clowns(("B6", ["red"]), ("C6", ["yellow"]), ("C1", [])))
    assert s.describe(Move(0, "R"), 0) == "You move clown 0 B6-C6 (pushes clown 1 off the board)"
    assert s.describe(Move(0, "R"), 1) == "P0 moves clown 0 B6-C6 (pushes clown 1 off the board)"
    on_board = load(g, phase="act", roll="red", turn=3,
                    clowns=clowns(("A2", ["red"]), ("B2", ["yellow"]), ("C1", [])))
    assert "(pushes clown 1 to C2)" in on_board.describe(Move(0, "R"), 0)


@pytest.mark.parametrize(("options", "told", "untold"), [
    ({}, ["exactly as long as the clown's 2 balls", "never passes through a clown"],
     ["1 to 2"]),
    ({"lazy_clown": True}, ["1 to 2 steps"], ["exactly as long"]),
    ({"short_move": "as-far-as-possible"}, ["as long as the clown's 2 balls, or as far as it "
                                            "can go"], ["exactly as long"]),
    ({"shoving": "shove"}, ["pushes at most one clown one field, onto a free field on the "
                            "board"], ["never passes through a clown"]),
    ({"shoving": "clumsy"}, ["pushes at most one clown one field, off the board too"],
     ["never passes through a clown"]),
])
def test_a_refused_move_states_the_move_rules_in_play(options: dict[str, object],
                                                      told: list[str],
                                                      untold: list[str]) -> None:
    """[Moving a Clown] "Where possible, the full move must be made" and "A square already
    occupied by another clown may not be passed through" are the basic rules; the variants
    change them: lazy clown ("You are not obliged to use all of the movement points"), Z2's
    alternative, shoving and clumsy clown ("may also push another clown"). A refused path
    names the rules of this game, not always the basic ones."""
    s = load(game(2, **options), phase="act", roll="red", turn=1,
             clowns=clowns(("B4", ["red", "red"]), ("A1", []), ("C1", [])))
    with pytest.raises(IllegalActionError) as refused:
        s.apply(Move(0, "FFF"))  # three steps for a clown of two balls: refused by all
    why = str(refused.value)
    assert all(words in why for words in told), why
    assert not any(words in why for words in untold), why
