"""Rule scenarios, each quoting the rulebook (004_23154701df508698.txt) or the rulings
(shared/rules/clown-15-go.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bigtop.core.errors import IllegalActionError, RuleOptionError
from bigtop.core.registry import new_game, new_state
from bigtop.games.clown15go.options import Clown15GoOptions
from bigtop.games.clown15go.rules import (
    Borrow,
    Clown15GoGame,
    Clown15GoState,
    LayDown,
    NewRow,
    Pass,
    ToOwnPile,
    ToPile,
    ToRow,
    TurnOver,
)
from tests.games.clown15go.helpers import position

R1_TO_7 = ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]


def test_deal_evenly_into_closed_piles() -> None:
    """"deal the cards evenly to the number of players taking part. So if there are three
    players, then each player gets 40 cards." """
    s = new_state("clown-15-go", 3, seed=5)
    assert isinstance(s, Clown15GoState)
    sizes = [len(p) + len(o) for p, o in zip(s.closed, s.open_piles, strict=True)]
    sizes[s.to_act] += 1  # the card P0 has turned over
    assert sizes == [40, 40, 40]
    two, three = new_game("clown-15-go", 2, {"sets": 4}), new_game("clown-15-go", 3, {"sets": 6})
    assert isinstance(two, Clown15GoGame) and isinstance(three, Clown15GoGame)
    assert len(two.deck.cards) == 60  # "2 ... 60 cards"
    assert len(three.deck.cards) == 90
    odd = new_state("clown-15-go", 4, seed=1, options={"sets": 1})  # 15 cards: 4, 4, 4, 3
    assert isinstance(odd, Clown15GoState)
    assert sorted(odd.cards_left(q) for q in range(4)) == [3, 4, 4, 4]


def test_a_one_starts_a_row() -> None:
    """"As soon as the number 1 is turned, it will be placed in the middle of the table." """
    s = position(closed=[["R9"], ["R10"]], pending="O1", filler=1)
    assert s.legal_actions() == [NewRow()]
    s.apply(NewRow())
    assert s.deck.texts(s.rows[0]) == ["O1"]
    assert s.to_act == 0 and s.deck.text(s.pending or 0) == "R9"  # "turn over a new card"


def test_rows_go_up_by_one() -> None:
    """"all players may place a card on this pile, if the number is 1 higher than the card
    that is there." """
    s = position(closed=[["O9"], ["O12"]], rows=[R1_TO_7, ["O1", "O2"]], pending="O8",
                 filler=1)
    assert s.legal_actions() == [ToRow(0)]
    s.apply(ToRow(0))
    assert s.deck.text(s.rows[0][-1]) == "O8"


def test_fellow_players_open_piles_image_1() -> None:
    """"It is player 1's turn in figure 1. He turns a 6. A 6 may be placed on the open piles on
    both a 5 and a 7. ... this can be done with player 2 and with player 4." """
    s = position(4, closed=[["R14"], [], ["R12"], []], open=[["O3"], ["R5"], ["O10"], ["R7"]],
                 pending="O6", filler=2)
    assert s.legal_actions() == [ToPile(1), ToPile(3)]
    s.apply(ToPile(3))
    assert s.deck.texts(s.open_piles[3]) == ["R7", "O6"]


def test_no_series_on_own_open_pile() -> None:
    """"Note: you can not make series on your own open pile." (basic game)"""
    s = position(closed=[["R14"], ["O14"]], open=[["R5"], ["O11"]], pending="O6", filler=1)
    assert s.legal_actions() == [LayDown()]
    with pytest.raises(IllegalActionError):
        s.apply(ToOwnPile())


def test_fits_nowhere_ends_the_turn() -> None:
    """"You cannot place a card anywhere? Then your turn is over and you put the card in front
    of your closed pile with the number facing up. This will be your open pile." """
    s = position(closed=[["R14"], ["O13"]], pending="O6", filler=1)
    s.apply(LayDown())
    assert s.deck.texts(s.open_piles[0]) == ["O6"]
    assert s.to_act == 1 and s.phase == "card" and s.deck.text(s.pending or 0) == "O13"


def test_g1_placing_is_forced_when_it_fits() -> None:
    """G1: "A turned card that fits somewhere must be placed (the player chooses where)"."""
    s = position(closed=[["R14"], ["O13"]], rows=[R1_TO_7], pending="O8", filler=1)
    with pytest.raises(IllegalActionError, match="so it must be placed"):
        s.apply(LayDown())
    v = position(closed=[["R14"], ["O13"]], rows=[R1_TO_7], pending="O8", filler=1,
                 options={"placing": "voluntary"})
    assert v.legal_actions() == [ToRow(0), LayDown()]


def test_renewing_the_closed_pile() -> None:
    """"Then you leave the last card of your open pile facing up and you turn the rest over,
    creating a new pile of closed cards." The first card laid down comes up first."""
    s = position(closed=[["R13"], []], open=[[], ["O3", "O9", "O4"]], pending="R12",
                 filler=0)
    s.apply(LayDown())  # P1's turn: closed pile empty
    assert s.to_act == 1 and s.deck.text(s.pending or 0) == "O3"
    assert s.deck.texts(s.closed[1]) == ["O9"] and s.deck.texts(s.open_piles[1]) == ["O4"]
    assert s.recycled[1]


STAYS = {"last_card": "stays"}


def test_g2_single_open_card_passes() -> None:
    """G2's earlier reading (``last_card=stays``): "If your closed pile is empty and your open
    pile holds a single card, you cannot turn a card: your turn passes"."""
    s = position(closed=[["R13"], []], open=[[], ["O9"]], pending="R12", filler=0,
                 options=STAYS)
    s.apply(LayDown())
    assert s.to_act == 1 and s.legal_actions() == [Pass()]
    s.apply(Pass())
    assert s.to_act == 0
    t = position(closed=[["R13"], []], open=[[], ["O9"]], pending="R12", filler=0)
    t.apply(LayDown())
    assert t.deck.text(t.pending or 0) == "O9" and t.open_piles[1] == []


def test_complete_row_is_put_away() -> None:
    """"If there is a completed series on the table, it can be put away." """
    row = [f"R{i}" for i in range(1, 15)]
    s = position(closed=[["O2"], ["O3"]], rows=[row], pending="O15", filler=1)
    s.apply(ToRow(0))
    assert s.rows == [] and len(s.completed) == 1 and s.completed[0][0] == 0


def test_winning_by_having_no_cards() -> None:
    """"You win the game if you have lost all your cards." """
    s = position(closed=[[], ["O14"]], open=[[], ["O5"]], rows=[R1_TO_7], pending="O8",
                 filler=1)
    s.apply(ToRow(0))
    assert s.is_terminal() and s.end_reason == "went-out"
    assert s.winners() == [0] and s.result()["end_reason"] == "went-out"


def test_advanced_1_open_pile_first_image_3() -> None:
    """"He first looks at his open pile. The number 2 can be placed in the middle, and the 8
    can be put on the open pile of player 2. With the 5 he can not do anything. After this,
    player 1 may turn over cards from his closed pile." """
    s = position(2, closed=[["R15"], ["O14"]], open=[["R5", "O8", "O2"], ["R9"]],
                 rows=[["O1"]], filler=1, phase="turn", options={"open_pile_first": True})
    assert s.legal_actions() == [ToRow(0), TurnOver()]
    s.apply(ToRow(0))
    assert s.legal_actions() == [ToPile(1), TurnOver()]
    s.apply(ToPile(1))
    # The 5 fits nowhere: only turning over is left, which happens by itself.
    assert s.phase == "card" and s.deck.text(s.pending or 0) == "R15"


def test_advanced_2_own_pile() -> None:
    """"Do you have a 5 on your open pile and turn a 4 or a 6? Then you can put this card on
    your open pile." The turn goes on."""
    s = position(closed=[["R14"], ["O14"]], open=[["R5"], ["O11"]], pending="O6", filler=1,
                 options={"own_pile": True})
    assert s.legal_actions() == [ToOwnPile()]
    s.apply(ToOwnPile())
    assert s.to_act == 0 and s.deck.text(s.pending or 0) == "R14"


def test_advanced_3_borrowing_image_4() -> None:
    """"On his open pile is a 10. He can now put the 9 of player 2 in the middle, so he can put
    the 10 on it." """
    s = position(4, closed=[[], ["O15"], [], ["R13"]], open=[["O3"], ["R9"], ["O12"], ["R10"]],
                 rows=[["O1", "O2", "R3", "R4", "O5", "O6", "O7", "R8"]], filler=0, to_act=3,
                 phase="turn", options={"open_pile_first": True, "borrowing": True})
    assert Borrow(1, 0) in s.legal_actions() and ToRow(0) not in s.legal_actions()
    s.apply(Borrow(1, 0))
    assert s.legal_actions()[0] == ToRow(0)
    s.apply(ToRow(0))
    assert s.deck.texts(s.rows[0])[-2:] == ["R9", "R10"]


def test_advanced_4_points_and_one_colour_rows() -> None:
    """"If you are the player who completes the series in the middle with the number 15, and
    all cards have the same colour, you get 150 points." Otherwise 15."""
    red = [f"R{i}" for i in range(1, 15)]
    s = position(closed=[["O3"], ["O4"]], rows=[red], pending="R15", filler=1,
                 options={"points": True})
    s.apply(ToRow(0))
    assert s.points == [150, 0]
    mixed = ["O1", *red[1:]]
    t = position(closed=[["O3"], ["O4"]], rows=[mixed], pending="R15", filler=1,
                 options={"points": True})
    t.apply(ToRow(0))
    assert t.points == [15, 0]


def test_advanced_4_play_on_after_the_first_goes_out() -> None:
    """"The first to lose his cards gets 30 points, the second player who loses his cards 25
    points" and "you do not stop when the first player has already played all his cards"."""
    s = position(3, closed=[[], ["O13"], ["O14"]], open=[[], ["R12"], ["R13"]],
                 rows=[R1_TO_7], pending="O8", filler=2, options={"points": True})
    s.apply(ToRow(0))
    assert not s.is_terminal() and s.out_order == [0] and s.points[0] == 30
    assert s.to_act == 1


def test_g3_whole_round_of_passes_ends_the_game() -> None:
    """G3: the game ends when a whole round passes with no card placed but on own open piles;
    when everybody passes the position can never change, so it ends at once."""
    s = position(2, closed=[["R13"], []], open=[[], ["O9"]], pending="R12", filler=0,
                 options=STAYS)
    s.apply(LayDown())   # P0's turn: nothing placed
    s.apply(Pass())      # P1 stuck
    assert not s.is_terminal()
    s.apply(LayDown())   # P0 lays down again (R12 did not fit; next card the same story)
    assert s.to_act == 1 and s.legal_actions() == [Pass()]
    literal = position(2, closed=[["R13"], ["O14"]], pending="R12", filler=0,
                       options={"stall_rounds": 1})
    literal.apply(LayDown())
    literal.apply(LayDown())
    assert literal.is_terminal() and literal.end_reason == "stall"
    assert literal.result()["end_reason"] == "stall"


def test_g3_default_is_twenty_quiet_rounds() -> None:
    """G3 (amended): the default is 20 whole rounds of turns with nothing placed but on the
    players' own open piles; the quiet count runs per turn, so with 2 players still in the
    game ends after 40 quiet turns, not before."""
    assert Clown15GoOptions().stall_rounds == 20
    options = new_game("clown-15-go", 2).options
    assert isinstance(options, Clown15GoOptions) and options.stall_rounds == 20
    s = position(2, closed=[["R13"], ["O14"]], pending="R12", filler=0,
                 quiet_turns=39, turns=39)
    s.apply(LayDown())  # the 40th quiet turn: 20 rounds of 2 players
    assert s.is_terminal() and s.end_reason == "stall"
    s = position(2, closed=[["R13"], ["O14"]], pending="R12", filler=0,
                 quiet_turns=38, turns=38)
    s.apply(LayDown())
    assert not s.is_terminal()


def test_g3_turn_cap() -> None:
    """G3 (amended): "or after `max_turns` turns; players are ranked by fewest cards left"."""
    s = new_state("clown-15-go", 3, seed=2, options={"max_turns": 4})
    assert isinstance(s, Clown15GoState)
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    assert s.end_reason == "turn-limit" and s.turns == 4
    left = [s.cards_left(q) for q in range(3)]
    assert s.ranking() == [1 + sum(x < y for x in left) for y in left]


def test_g3_own_pile_loop_ends_the_turn() -> None:
    """With advanced rule 2 a player could renew and re-place the same cards forever: a
    turn that goes through the renewed pile placing only on the own pile ends."""
    s = position(2, closed=[[], ["O14", "O13"]], open=[["R5"], ["O11"]], pending="R6",
                 options={"own_pile": True}, filler=1)
    s.apply(ToOwnPile())          # open R5 R6, closed empty: renew -> R5 comes up
    assert s.deck.text(s.pending or 0) == "R5"
    s.apply(ToOwnPile())          # open R6 R5: a second renewal would loop
    assert s.to_act == 1


def test_the_line_of_a_card_on_the_own_pile_says_whether_the_turn_goes_on() -> None:
    """Found by the option-combination fuzz (tests/core/test_fuzz_options.py): the line said
    "and goes on" also where nothing can be turned over next (G3's loop rule above, or no
    closed pile and a single open card to renew), so the turn is over."""
    s = position(2, closed=[[], ["O14", "O13"]], open=[["R5"], ["O11"]], pending="R6",
                 options={"own_pile": True}, filler=1)
    assert s.describe(ToOwnPile()) == "P0 puts R6 on their own open pile and goes on"
    assert s.describe(ToOwnPile(), 0) == "You put R6 on your own open pile and go on"
    s.apply(ToOwnPile())
    assert s.describe(ToOwnPile()) == "P0 puts R5 on their own open pile; their turn is over"
    assert s.describe(ToOwnPile(), 0) == "You put R5 on your own open pile; your turn is over"
    s.apply(ToOwnPile())
    assert s.to_act == 1


def test_bad_options_and_actions_are_rejected() -> None:
    with pytest.raises(RuleOptionError):
        new_game("clown-15-go", 2, {"sets": 9})
    with pytest.raises(RuleOptionError):
        new_game("clown-15-go", 2, {"colours": "RRG", "sets": 3})
    with pytest.raises(RuleOptionError):
        new_game("clown-15-go", 9)
    s = new_state("clown-15-go", 2, seed=3)
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply(TurnOver())
    with pytest.raises(IllegalActionError):
        s.apply(ToRow(5))
    assert s.to_json() == before


def test_basic_game_ends_by_g3_in_practice() -> None:
    """The documented finding: under G2's earlier reading (``last_card=stays``) nobody who
    ever laid a card down can go out, so the basic game ends by G3 with one stuck card each
    (docs/clown-15-go.md)."""
    s = new_state("clown-15-go", 3, seed=4, options=STAYS)
    while not s.is_terminal():
        s.apply(s.legal_actions()[-1])
    assert isinstance(s, Clown15GoState) and s.end_reason == "stall"


@pytest.mark.parametrize("players", [2, 4])
def test_g2_an_open_pile_never_empties_in_the_basic_game(players: int) -> None:
    """Why the basic game under ``last_card=stays`` cannot be won (docs/clown-15-go.md, G3):
    renewing *"you leave the last card of your open pile facing up"* and G2 passes on a single
    open card, and only advanced rules 1 and 3 take a card from an open pile. So once a player
    has laid a card down, their open pile is never empty again and they never go out; every
    game ends by G3."""
    rng = random.Random(players)
    for seed in range(12):
        s = new_state("clown-15-go", players, seed=seed, options=STAYS)
        assert isinstance(s, Clown15GoState)
        laid: set[int] = set()
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
            laid |= {q for q in range(players) if s.open_piles[q]}
            assert all(s.open_piles[q] for q in laid)
        assert s.end_reason in ("stall", "turn-limit") and not s.out_order
        assert len(laid) == players


def test_conformance_covers_every_advanced_rule_combination() -> None:
    from bigtop.games.clown15go import GAME

    keys = ("open_pile_first", "own_pile", "borrowing", "points")
    for n in range(2, 7):
        combos = {tuple(bool(o.get(k, False)) for k in keys) for o in GAME.conformance_options(n)}
        assert len(combos) == 16
        for o in GAME.conformance_options(n):
            new_game("clown-15-go", n, o)  # every combination is a valid game


def test_g2_revised_the_last_open_card_is_turned_over() -> None:
    """G2 (revised): "Is it your turn and have you used all the cards on your closed pile?
    Then you leave the last card of your open pile facing up and you turn the rest over ...
    You can now carry on playing the game." A single open card becomes the new closed pile
    (default); ``last_card=stays`` keeps the earlier reading."""
    s = position(closed=[["R13"], []], open=[[], ["O9"]], pending="R12", filler=0)
    assert s.game.options.last_card == "turned"
    s.apply(LayDown())
    assert s.to_act == 1 and s.deck.text(s.pending or 0) == "O9" and s.open_piles[1] == []
    # and the basic game is won by going out (random play, a few seeds)
    for seed in range(4):
        g = new_state("clown-15-go", 3, seed=seed)
        rng = random.Random(seed)
        while not g.is_terminal():
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
        assert isinstance(g, Clown15GoState) and g.end_reason == "went-out"


def test_g5_a_turned_one_goes_to_the_middle() -> None:
    """G5: "As soon as the number 1 is turned, it will be placed in the middle of the table."
    A 1 does not go on another player's open 2, unless ``one_on_pile`` allows it."""
    s = position(closed=[["R9"], ["R10"]], open=[[], ["O2"]], pending="R1", filler=1)
    assert s.legal_actions() == [NewRow()]
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="it goes to the middle and starts a new row"):
        s.apply(ToPile(1))
    assert s.to_json() == before
    t = position(closed=[["R9"], ["R10"]], open=[[], ["O2"]], pending="R1", filler=1,
                 options={"one_on_pile": True})
    assert t.legal_actions() == [NewRow(), ToPile(1)]
    t.apply(ToPile(1))
    assert t.deck.texts(t.open_piles[1]) == ["O2", "R1"]


def test_advanced_3_borrowing_only_while_placing_in_the_middle() -> None:
    """Rule 3: "If you put in the middle during your turn, you can also use cards from the open
    cards of your fellow players." Image 4 (player 4 puts the 9 of player 2 in the middle "so he
    can put the 10 on it") plays his own open-pile 10, which needs rule 1 too. With
    ``borrowing_when=placing`` a borrow is allowed only when the card in play then goes on it."""
    image4: dict[str, Any] = dict(
        closed=[[], ["O15"], [], ["R13"]], open=[["O3"], ["R9"], ["O12"], ["R10"]],
        rows=[["O1", "O2", "R3", "R4", "O5", "O6", "O7", "R8"]], filler=0, to_act=3,
        phase="turn")
    rule13 = {"open_pile_first": True, "borrowing": True}
    s = position(4, **image4, options={**rule13, "borrowing_when": "placing"})
    assert [a for a in s.legal_actions() if isinstance(a, Borrow)] == [Borrow(1, 0)]
    assert Borrow(1, 0) in position(4, **image4, options=rule13).legal_actions()
    s.apply(Borrow(1, 0))
    s.apply(ToRow(0))
    assert s.deck.texts(s.rows[0])[-2:] == ["R9", "R10"]
    # Without rule 1 the 10 is not in play at the start of the turn: nothing to borrow for.
    only3 = position(4, **image4, options={"borrowing": True,
                                           "borrowing_when": "placing"})
    assert only3.legal_actions() == [TurnOver()]
    assert Borrow(1, 0) in position(4, **image4, options={"borrowing": True}
                                    ).legal_actions()
    # While a turned card is in play: only the borrow it then goes on.
    c = position(3, closed=[["R14"], ["O13"], ["O14"]], open=[[], ["R9"], ["R4"]],
                 rows=[R1_TO_7[:3], ["O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8"]],
                 pending="O10", filler=1, options={"borrowing": True,
                                                   "borrowing_when": "placing"})
    assert [a for a in c.legal_actions() if isinstance(a, Borrow)] == [Borrow(1, 1)]
    anytime = position(3, closed=[["R14"], ["O13"], ["O14"]], open=[[], ["R9"], ["R4"]],
                       rows=[R1_TO_7[:3], ["O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8"]],
                       pending="O10", filler=1, options={"borrowing": True})
    assert Borrow(2, 0) in anytime.legal_actions()
    with pytest.raises(IllegalActionError, match="borrowing_when"):
        c.apply(Borrow(2, 0))


def test_first_player_is_a_choice() -> None:
    """"Determine which player can start first." The option ``first_player`` (default P0)
    travels in the options JSON."""
    from bigtop import load_state

    s = new_state("clown-15-go", 3, seed=5, options={"first_player": 2})
    assert isinstance(s, Clown15GoState)
    assert s.current_player() == 2 and sum(s.cards_left(q) for q in range(3)) == 120
    assert load_state(s.to_json()) == s
    assert new_state("clown-15-go", 3, seed=5).current_player() == 0
    with pytest.raises(RuleOptionError, match="first_player"):
        new_game("clown-15-go", 3, {"first_player": 3})
