"""Clown 15 Go rulebook audit: scenarios for the rules test_rules.py does not pin exactly.
Each test quotes the user guide (004_23154701df508698.txt) or the rulings G1–G5
(shared/rules/clown-15-go.md); docs/clown-15-go.md "Rulebook coverage" maps every rule to
its test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bigtop.core.errors import IllegalActionError
from bigtop.core.registry import new_state
from bigtop.games.clown15go.options import Clown15GoOptions
from bigtop.games.clown15go.rules import (
    Borrow,
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

DOCS = Path(__file__).resolve().parents[3] / "docs" / "clown-15-go.md"
R1_TO_8 = [f"R{i}" for i in range(1, 9)]


def texts(s: Clown15GoState, cards: list[int]) -> list[str]:
    return s.deck.texts(cards)


def test_the_turned_card_is_shown_to_everybody() -> None:
    """"When it's your turn, turn over the top card of your pile. You keep the card with the
    number visible to all players in your hand." It is every seat's and a spectator's."""
    s = new_state("clown-15-go", 3, 2)
    assert isinstance(s, Clown15GoState) and s.pending is not None
    card = s.deck.text(s.pending)
    for viewer in (0, 1, 2, None):
        assert s.observation(viewer)["pending"] == card
    assert card in s.render(None)


@pytest.mark.parametrize("pending,tops,fits", [
    ("R15", ["O14"], [ToPile(1)]),   # 15 is one higher than 14
    ("R14", ["O15"], [ToPile(1)]),   # 14 is one lower than 15
    ("R2", ["O1"], [ToPile(1)]),     # 2 is one higher than 1
    ("R15", ["O1"], [LayDown()]),    # no wrapping round: 15 and 1 are not neighbours
    ("R8", ["O8"], [LayDown()]),     # the same number is not one higher or lower
    ("R8", ["O10"], [LayDown()]),
])
def test_what_goes_on_a_fellow_players_open_pile(pending: str, tops: list[str],
                                                 fits: list[object]) -> None:
    """"Is the number of your card 1 higher or 1 lower than the number that is on one of your
    fellow players on the open pile? Then you can put it there." """
    s = position(closed=[["O3"], []], open=[[], tops], pending=pending, filler=0)
    assert s.legal_actions() == fits


def test_rows_only_take_the_next_number_and_a_fifteen_completes_them() -> None:
    """"In the middle of the table all players make consecutive rows of numbers 1 to 15. On
    the number 1 a 2 is placed, and then a 3 etc, until the number 15 is placed on it. If
    there is a completed series on the table, it can be put away." The later rows move up."""
    full = [f"R{i}" for i in range(1, 15)]
    s = position(closed=[["O3"], ["O9"]], rows=[full, ["O1", "O2"]], pending="R15", filler=1)
    assert s.legal_actions() == [ToRow(0)]
    s.apply(ToRow(0))
    assert texts(s, s.rows[0]) == ["O1", "O2"] and len(s.rows) == 1
    assert texts(s, s.completed[0][1]) == [*full, "R15"] and s.completed[0][0] == 0
    assert s.points == [0, 0]  # no points in the basic game
    assert s.deck.text(s.pending or 0) == "O3" and s.legal_actions() == [ToRow(0)]


def test_the_last_closed_card_placed_the_pile_is_renewed_and_the_turn_goes_on() -> None:
    """"As long as you can place cards with other players or in the middle, you can always
    turn over a new card until you can not continue. Is it your turn and have you used all the
    cards on your closed pile? Then you leave the last card of your open pile facing up and you
    turn the rest over, creating a new pile of closed cards. You can now carry on playing the
    game." Placing the last closed card is not the end of the turn."""
    s = position(closed=[[], ["O14"]], open=[["O3", "O9", "O4"], []], rows=[R1_TO_8],
                 pending="R9", filler=1)
    s.apply(ToRow(0))
    assert s.to_act == 0 and s.phase == "card"
    assert s.deck.text(s.pending or 0) == "O3"  # the first card laid down comes up first
    assert texts(s, s.closed[0]) == ["O9"] and texts(s, s.open_piles[0]) == ["O4"]
    assert s.recycled[0] and s.observation(1)["players"][0]["closed_cards"] == ["O9"]


def test_renewing_with_recycle_shuffle() -> None:
    """Option ``recycle=shuffle`` (a house rule): the same cards as *"you leave the last card of
    your open pile facing up and you turn the rest over"*, in an order drawn from the seed."""
    def renew(seed: int) -> Clown15GoState:
        s = position(closed=[["R13"], []], open=[[], ["O3", "O9", "O4", "O6", "O5"]],
                     pending="R12", filler=0, options={"recycle": "shuffle"})
        s.seed = seed
        s.apply(LayDown())
        return s

    orders = set()
    for seed in range(8):
        s = renew(seed)
        assert s.to_act == 1 and texts(s, s.open_piles[1]) == ["O5"]
        drawn = [s.deck.text(s.pending or 0), *reversed(texts(s, s.closed[1]))]
        assert sorted(drawn) == ["O3", "O4", "O6", "O9"]
        orders.add(tuple(drawn))
        assert renew(seed).to_json() == s.to_json()  # deterministic from the seed
    assert len(orders) > 1


def test_g4_a_pile_turned_over_as_it_lay_is_public_and_only_a_shuffled_one_hidden() -> None:
    """Ruling G4 (amended): a closed pile renewed by turning the open pile over as it lies has
    an order everybody saw being laid, so every observation shows it (bottom first: the last
    is turned over next) and resampling keeps it; under ``recycle=shuffle`` the observation
    gives the cards sorted and resampling redraws their order."""
    def renew(recycle: str) -> Clown15GoState:
        s = position(closed=[["R13"], []], open=[[], ["O3", "O9", "O4", "O6", "O5"]],
                     pending="R12", filler=0, options={"recycle": recycle})
        s.apply(LayDown())
        return s

    s = renew("turn-over")
    assert s.to_act == 1 and s.deck.text(s.pending or 0) == "O3"  # first laid, first up
    for p in (None, 0, 1):
        assert s.observation(p)["players"][1]["closed_cards"] == ["O6", "O4", "O9"]
    for seed in range(6):
        r = s.resample_hidden(0, seed)
        assert isinstance(r, Clown15GoState)
        assert texts(r, r.closed[1]) == ["O6", "O4", "O9"]
        assert r.observation(0) == s.observation(0)

    s = renew("shuffle")
    cards = sorted(texts(s, s.closed[1]))
    for p in (None, 0, 1):
        assert s.observation(p)["players"][1]["closed_cards"] == cards
    orders = set()
    for seed in range(12):
        r = s.resample_hidden(0, seed)
        assert isinstance(r, Clown15GoState)
        assert r.observation(0) == s.observation(0) and sorted(texts(r, r.closed[1])) == cards
        orders.add(tuple(texts(r, r.closed[1])))
    assert len(orders) > 1


def test_borrowing_the_last_card_puts_its_owner_out() -> None:
    """Rule 3, "you can also use cards from the open cards of your fellow players", and "You
    win the game if you have lost all your cards": a player whose last card is borrowed has
    lost all their cards — in the basic game they win at once; with the points rule
    (*"The first to lose his cards gets 30 points"*) they score and play goes on."""
    def deal(options: dict[str, object]) -> Clown15GoState:
        return position(3, closed=[["O13"], [], ["O14"]], open=[[], ["R9"], ["R12"]],
                        rows=[R1_TO_8], pending="O2", filler=0, options=options)

    s = deal({"borrowing": True})
    s.apply(Borrow(1, 0))
    assert s.is_terminal() and s.end_reason == "went-out" and s.winners() == [1]
    p = deal({"borrowing": True, "points": True})
    p.apply(Borrow(1, 0))
    assert not p.is_terminal() and p.out_order == [1] and p.points == [0, 30, 0]
    assert p.to_act == 0 and p.phase == "card"  # P0's turn goes on with its turned 2


def test_a_borrowed_one_starts_a_row() -> None:
    """Rule 3 with a 1 on a fellow player's open pile (a card laid down under
    ``placing=voluntary``): *"As soon as the number 1 is turned, it will be placed in the
    middle"* — borrowed, it starts a new row (``row: -1``)."""
    s = position(closed=[["O13"], ["O14"]], open=[[], ["R1"]], pending="O9", filler=0,
                 options={"borrowing": True, "placing": "voluntary"})
    assert Borrow(1, -1) in s.legal_actions()
    s.apply(Borrow(1, -1))
    assert [texts(s, r) for r in s.rows] == [["R1"]] and s.open_piles[1] == []



def test_a_borrowed_fifteen_scores_for_the_borrower() -> None:
    """Rules 3 and 4: "If you are the player who completes the series in the middle (with the
    number 15) you get 15 points ... and all cards have the same colour, you get 150 points."
    Borrowed from a fellow player's open pile, the 15 is placed by the borrower."""
    red = [f"R{i}" for i in range(1, 15)]
    s = position(closed=[["O13"], ["O14"]], open=[[], ["R15"]], rows=[red], pending="O9",
                 filler=0, options={"borrowing": True, "points": True})
    s.apply(Borrow(1, 0))
    assert s.completed[0][0] == 0 and s.points == [150, 0] and s.rows == []

def test_points_for_going_out_30_25_20_15_and_the_turn_order_skips_who_is_out() -> None:
    """"The first to lose his cards gets 30 points, the second player who loses his cards 25
    points, the third 20 etc." and "You also carry on playing until all the cards are
    finished": the fourth out scores 15; players who are out take no more turns."""
    s = position(5, closed=[[], [], [], [], ["O13", "O14"]], open=[[], [], [], [], ["R12"]],
                 rows=[R1_TO_8], pending="R9", filler=4, out_order=[1, 2, 3],
                 options={"points": True})
    assert s.points == [0, 30, 25, 20, 0]
    s.apply(ToRow(0))
    assert s.out_order == [1, 2, 3, 0] and s.points == [15, 30, 25, 20, 0]
    assert s.to_act == 4 and not s.is_terminal()
    assert s.ranking() == [4, 1, 2, 3, 5]  # by points: 30, 25, 20, 15, 0


def test_points_at_eight_players_the_last_places_score_nothing_and_the_last_one_out_ends_it(
) -> None:
    """Eight players, the most: "the first to lose his cards gets 30 points, the second ...
    25 points, the third 20 etc." reaches 0 for the seventh and stays there for the eighth
    (never below 0). The last player left plays on alone ("until all the cards are finished")
    and, going out, ends the game; completing a one-colour row still scores 150."""
    s = position(8, closed=[[], [], [], [], [], [], [], ["R15"]],
                 open=[[] for _ in range(8)], rows=[[f"R{i}" for i in range(1, 14)]],
                 pending="R14", to_act=6, out_order=[0, 1, 2, 3, 4, 5],
                 options={"points": True, "sets": 1})
    assert s.points == [30, 25, 20, 15, 10, 5, 0, 0]
    s.apply(ToRow(0))  # P6's last card: out seventh, 30 - 6 x 5 = 0 points
    assert s.out_order[-1] == 6 and s.points[6] == 0 and not s.is_terminal()
    assert s.to_act == 7 and s.observation(7)["pending"] == "R15"  # alone, P7 turns over
    s.apply(ToRow(0))  # the 15 completes the red row (150) and empties P7's piles
    assert s.is_terminal() and s.end_reason == "all-out"
    assert s.points == [30, 25, 20, 15, 10, 5, 0, 150]
    assert s.completed == [(7, s.deck.parse_list([f"R{i}" for i in range(1, 16)], "row"))]
    assert s.ranking() == [2, 3, 4, 5, 6, 7, 8, 1]


def test_basic_game_ranking_after_someone_goes_out() -> None:
    """"You win the game if you have lost all your cards." The others are placed by the cards
    they still hold, fewest first, ties sharing a place (ruling G3's order)."""
    s = position(3, closed=[[], ["O13", "O14"], ["O12"]], open=[[], ["R12"], ["R13"]],
                 rows=[R1_TO_8], pending="R9", filler=2)
    s.apply(ToRow(0))
    left = [s.cards_left(q) for q in range(3)]
    assert s.is_terminal() and left[:2] == [0, 3] and left[2] > 3 and s.winners() == [0]
    assert s.ranking() == [1, 2, 3]
    assert s.scores() == [-float(x) for x in left]


def test_points_ranking_most_points_then_fewest_cards() -> None:
    """"Everyone counts their points at the end of the game. The player with the most points
    wins!" Equal points: fewer cards left places higher (the project's tie-break)."""
    full = {"by": 0, "cards": [f"R{i}" for i in range(1, 16)]}
    s = position(3, closed=[["O1"], ["O13", "O14"], ["O12"]], completed=[full],
                 filler=2, phase="turn", options={"points": True, "sets": 2})
    assert s.points == [150, 0, 0]
    assert s.ranking()[0] == 1
    assert s.cards_left(1) < s.cards_left(2) and s.ranking()[1:] == [2, 3]


def test_rule_1_a_one_on_top_of_the_open_pile_goes_to_the_middle() -> None:
    """Rule 1, "you can first see if you can lose the card from your open pile", and G5's "As
    soon as the number 1 is turned, it will be placed in the middle": a 1 that lies on top of
    the own open pile (laid down under ``placing=voluntary``) may start a row, and only that."""
    s = position(closed=[["O13"], ["O14"]], open=[["R1"], ["O2"]], filler=0, phase="turn",
                 options={"open_pile_first": True, "placing": "voluntary"})
    assert s.legal_actions() == [NewRow(), TurnOver()]


def test_rule_1_with_an_empty_open_pile_a_placement_is_refused_in_words() -> None:
    """Rule 1 plays "the card from your open pile" before turning over; with rule 3 the turn
    can start with a choice (a borrow) while that pile is empty. A placement typed then has no
    card to place, and the refusal says so instead of naming a card "?"."""
    s = position(2, closed=[["R13"], ["O14"]], open=[[], ["O3"]], rows=[["R1", "R2"]],
                 filler=0, options={"open_pile_first": True, "borrowing": True})
    assert s.phase == "turn" and s.legal_actions() == [Borrow(1, 0), TurnOver()]
    for action in (ToRow(0), NewRow(), ToPile(1)):
        with pytest.raises(IllegalActionError) as refused:
            s.apply(action)
        why = str(refused.value)
        assert "?" not in why and "open pile is empty" in why, why


def test_rule_2_the_own_pile_is_one_place_among_the_others() -> None:
    """Rule 2: "you can also place it on your own open pile, if this card is 1 higher or lower
    than the card that is there" — beside the middle and the fellow players' piles."""
    s = position(closed=[["O13"], ["O14"]], open=[["R5"], ["O7"]], rows=[["O1", "O2", "O3",
                                                                          "O4", "O5"]],
                 pending="O6", filler=0, options={"own_pile": True})
    assert s.legal_actions() == [ToRow(0), ToPile(1), ToOwnPile()]


@pytest.mark.parametrize(("pending", "placing", "told"), [
    ("R5", "forced", "you have a turned card: place it"),  # fits on P1's 4: must be placed
    ("R9", "forced", "you have a turned card: lay it down"),  # fits nowhere
    ("R5", "voluntary", "you have a turned card: place it or lay it down"),
])
def test_turning_over_again_is_refused_with_what_the_turned_card_allows(
        pending: str, placing: str, told: str) -> None:
    """"You cannot place a card anywhere? Then your turn is over and you put the card in front
    of your closed pile" (G1: a card that fits must be placed): with a turned card in hand a
    player may not turn another; the refusal says what may be done with it, under G1 and its
    option ``placing=voluntary``."""
    s = position(2, closed=[["R13"], ["O14"]], open=[[], ["O4"]], pending=pending, filler=0,
                 options={"placing": placing})
    for action in (TurnOver(), Pass()):
        with pytest.raises(IllegalActionError) as refused:
            s.apply(action)
        assert str(refused.value) == told


def test_rule_2_a_card_that_does_not_fit_the_own_pile_is_refused_in_words() -> None:
    """Rule 2: "you can also place it on your own open pile, if this card is 1 higher or lower
    than the card that is there". A card that is not, or an own open pile with no card, is
    refused with the reason, as for another player's open pile."""
    s = position(2, closed=[["R13"], ["O14"]], open=[["O9"], []], pending="R5", filler=0,
                 options={"own_pile": True})
    assert s.legal_actions() == [LayDown()]
    with pytest.raises(IllegalActionError, match="R5 does not go on your own open pile's O9: "
                       "it must be one higher or lower"):
        s.apply(ToOwnPile())
    empty = position(2, closed=[["R13"], ["O14"]], open=[[], ["O9"]], pending="R5", filler=0,
                     options={"own_pile": True})
    with pytest.raises(IllegalActionError, match="your own open pile is empty"):
        empty.apply(ToOwnPile())


def test_every_option_is_documented_with_its_default() -> None:
    """docs/clown-15-go.md's option table lists every rule option with the code's default, and
    every option but the G3 cap says which sentence of the rulebook (or the rulings) it
    follows."""
    text = DOCS.read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| `(\w+)` \| `?([^`|]*?)`? \|", text, flags=re.M))
    names = {i.name for i in Clown15GoOptions.info()}
    assert names <= set(table)
    for info in Clown15GoOptions.info():
        default = str(info.default).lower() if isinstance(info.default, bool) else str(
            info.default)
        assert table[info.name] == default, info.name
        assert info.quote, info.name


def test_a_hand_written_position_without_to_act_follows_the_turn_order() -> None:
    """*"Determine which player can start first. This game is played in the clockwise
    direction."*: a hand-written position that leaves out ``to_act`` gives the turn to the
    player that order makes (option first_player, then one seat per finished turn), so the
    turned card of a first turn under first_player=2 is P2's, and after four turns P0 plays."""
    opts = {"first_player": 2}
    first = position(3, closed=[[], ["R7"], ["O7"]], pending="R4", filler=0, options=opts)
    assert first.to_act == 2 and first.cards_left(2) == 2
    later = position(3, closed=[[], ["R7"], ["O7"]], pending="R4", filler=0, options=opts,
                     turns=4)
    assert later.to_act == 0
    given = position(3, closed=[[], ["R7"], ["O7"]], pending="R4", filler=0, options=opts,
                     to_act=1)
    assert given.to_act == 1


def test_g3_options_quote_the_amended_ruling() -> None:
    """G3 (amended): *"The game ends when `stall_rounds` whole rounds of turns pass with no card
    placed anywhere but on the players' own open piles (default 20 …), at once when a whole
    round consists of G2 passes, or after `max_turns` turns; players are ranked by fewest
    cards left."* The two options' quotes (what ``bigtop games`` and the docs table show)
    quote these words, not the superseded one-round sentence, which reads as stall_rounds=1
    while the default is 20."""
    quotes = {i.name: i.quote for i in Clown15GoOptions.info()}
    assert quotes["stall_rounds"] == (
        "The game ends when `stall_rounds` whole rounds of turns pass with no card placed "
        "anywhere but on the players' own open piles")
    assert quotes["max_turns"] == ("or after `max_turns` turns; players are ranked by fewest "
                                   "cards left")
    text = " ".join(DOCS.read_text(encoding="utf-8").split())
    for name in ("stall_rounds", "max_turns"):
        assert f'G3 (amended) — *"{quotes[name]}"*' in text, name
    assert "If a whole round of turns passes" not in text


def test_every_colour_of_the_default_box_is_drawn_in_its_colour() -> None:
    """"you can try to make a series in one color": the pictures must tell the colours apart,
    so each letter of the default box has its own face colour (violet ``V`` was drawn grey)."""
    from bigtop.games.clown15go.cards import COLOUR_NAMES, DEFAULT_COLOURS
    from bigtop.games.clown15go.render import COLOURS

    assert set(DEFAULT_COLOURS) <= set(COLOURS) and set(DEFAULT_COLOURS) <= set(COLOUR_NAMES)
    assert len({COLOURS[c] for c in DEFAULT_COLOURS}) == len(DEFAULT_COLOURS)
    js = (DOCS.parents[1] / "src" / "bigtop" / "web" / "static" / "js" / "games"
          / "clown15go.js").read_text(encoding="utf-8")
    for letter in DEFAULT_COLOURS:  # the web page's colour and name tables too
        assert len(re.findall(rf"\b{letter}: \"", js)) == 2, letter


def test_the_rulebook_coverage_table_names_tests_that_exist() -> None:
    """The docs' *Rulebook coverage* checklist stays true: every test it names is defined in
    this directory."""
    from tests.games.coverage import named_but_missing

    count, missing = named_but_missing(DOCS, Path(__file__).parent)
    assert count > 30 and missing == []
