"""The Tricky Landing rulebook (000_236690fdb895d779.txt), sentence by sentence, where no other
test pins the rule: each test quotes the sentence (heading in brackets) and checks the legal
actions or the outcome exactly on a position built from explicit cards and poses."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest

from bigtop.core.registry import load_state, new_state
from bigtop.core.rng import derive_rng
from bigtop.games import teaching
from bigtop.games.tricky_landing.cards import ALL_CARDS, SUITS, deck_for, number_of, suit_of
from bigtop.games.tricky_landing.options import TrickyLandingOptions
from bigtop.games.tricky_landing.physics import to_table, touches_target_card
from bigtop.games.tricky_landing.rules import (
    GRID_AIMS,
    GRID_SPINS,
    Throw,
    TrickyLandingGame,
    TrickyLandingState,
)
from bigtop.games.tricky_landing.tricks import resolve_trick
from tests.games.coverage import named_but_missing
from tests.games.tricky_landing.helpers import (
    ALTERNATIVES,
    BOTTOM,
    BRIDGE,
    FAR,
    FAR2,
    FAR3,
    G2,
    LEFT,
    ON_BRIDGE,
    ON_TOP,
    P5,
    RIGHT,
    TOP,
    arranged,
    finish_round_quickly,
    play_poses,
    table,
)

DOCS = Path(__file__).parents[3] / "docs" / "tricky-landing.md"


def _state(players: int, seed: int = 0, **options: Any) -> TrickyLandingState:
    s = new_state("tricky-landing", players=players, seed=seed, options=options)
    assert isinstance(s, TrickyLandingState)
    return s


# -- Components, Game Setup, Round Setup ------------------------------------------------------

def test_components_fifty_clown_cards() -> None:
    """[Components] "50 clown cards (numbers 1 to 10 in each of 5 suits)\""""
    assert len(ALL_CARDS) == 50 and len(SUITS) == 5
    assert sorted((suit_of(c), number_of(c)) for c in ALL_CARDS) == sorted(
        (s, k) for s in SUITS for k in range(1, 11))


@pytest.mark.parametrize("players,top,hand", [(3, 8, 12), (4, 9, 11), (5, 10, 9), (6, 10, 8)])
def test_cards_by_player_count_dealt_from_the_starting_player_clockwise(
        players: int, top: int, hand: int) -> None:
    """[Game Setup] "3 players: clown cards 1-8 of each suit • 4 players: clown cards 1-9 …
    • 5 players … 1-10 • 6 players … 1-10" — [Round Setup] "The dealer takes the clown cards,
    shuffles them, and deals them face down, starting with the starting player and going
    clockwise." "3 players: 12 cards each • 4 players: 11 … • 5 players: 9 … • 6 players: 8"
    — "Place any remaining cards face down beside the play area to form the discard pile.\""""
    assert set(deck_for(players)) == {f"{s}{k}" for s in SUITS for k in range(1, top + 1)}
    s = _state(players, seed=11)
    cards = list(deck_for(players))
    derive_rng(11, "deal", 0).shuffle(cards)  # the dealer's shuffle
    for q in range(players):
        # Card i of the shuffled deck goes to the i-th player clockwise from the starter.
        assert sorted(s.hands[q]) == sorted(cards[q:players * hand:players])
    assert sorted(s.undealt) == sorted(cards[players * hand:])
    # The leftovers lie face down: nobody sees them, only how many there are.
    for q in (None, *range(players)):
        assert s.observation(q)["undealt"] == len(cards) - players * hand


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_target_lies_in_the_middle_equidistant_from_all_players(players: int) -> None:
    """[Round Setup] "Place the target card in the middle of the play area, equidistant from
    all players." — [How to Play] "places it … about 30 cm away from the target card". The
    target is centred on the origin; the seats lie 30 cm from it, evenly spaced, numbered
    clockwise seen from above (P0 at the bottom, P1 to its left)."""
    g = TrickyLandingGame(players)
    model = g.model
    assert (model.target_width_cm, model.target_length_cm) == (6.3, 8.8)
    assert touches_target_card(model, (0.0, 0.0, 0.0))
    places = [to_table(seat, 0.0, -model.seat_distance_cm) for seat in g.seats]
    for x, y in places:
        assert math.hypot(x, y) == pytest.approx(30.0)
    gaps = {round(math.dist(places[q], places[(q + 1) % players]), 6) for q in range(players)}
    assert len(gaps) == 1  # evenly spaced
    assert places[0][1] == pytest.approx(-30.0) and places[1][0] < 0  # P1 sits left of P0


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_dealer_sits_to_the_starting_players_right(players: int) -> None:
    """[Game Setup] "Give that player the first player card. The player to the right of that
    player is the dealer for the first round." (Seats are numbered clockwise, so the player
    to the right of seat p is seat p - 1.)"""
    s = _state(players)
    assert (s.starter, s.leader, s.current_player()) == (0, 0, 0)
    assert s.dealer == players - 1 == s.observation(None)["dealer"]


def test_the_starting_player_is_chosen_by_the_table() -> None:
    """[Game Setup] "The starting player of the first round is the player who was most
    recently fired from a cannon, or is chosen another way (for example, the youngest
    player). Give that player the first player card." Option ``first_player`` (default P0):
    that seat gets the first card of the deal, throws first and holds the first player card;
    the dealer sits to its right, and the next round starts one seat further clockwise."""
    s = _state(4, seed=11, first_player=2)
    assert (s.starter, s.leader, s.current_player(), s.dealer) == (2, 2, 2, 1)
    cards = list(deck_for(4))
    derive_rng(11, "deal", 0).shuffle(cards)
    assert cards[0] in s.hands[2] and cards[1] in s.hands[3] and cards[3] in s.hands[1]
    finish_round_quickly(s)
    play_poses(s, *[(s.hands[(s.leader + i) % 4][0], TOP) for i in range(4)])
    assert (s.round, s.starter, s.leader, s.dealer) == (1, 3, 3, 2)
    assert load_state(s.to_json()) == s
    with pytest.raises(ValueError, match="first_player"):
        _state(3, first_player=3)


def test_players_see_and_sort_only_their_own_hand() -> None:
    """[Round Setup] "Players may look at and sort their own cards. Hands must not be shown to
    other players.\""""
    s = _state(4, seed=2)
    for q in range(4):
        obs = s.observation(q)
        assert obs["hand"] == s.hands[q] == sorted(s.hands[q], key=lambda c: (
            SUITS.index(c[0]), number_of(c)))
        assert obs["hand_sizes"] == [11, 11, 11, 11] and "hands" not in obs
    assert s.observation(None)["hand"] is None


# -- How to Play ------------------------------------------------------------------------------

def test_any_card_may_be_thrown_there_is_no_suit_to_follow() -> None:
    """[How to Play] "each player chooses one card from their hand … Any suit and any number
    may be chosen." With a yellow card already leading on the target, P1 may still throw
    any card of their hand, at every aim and spin of the grid."""
    s = arranged(3, {0: ["y3"], 1: ["y5", "p2", "g8"]})
    play_poses(s, ("y3", TOP))
    legal = s.legal_actions()
    assert {a.card for a in legal if isinstance(a, Throw)} == set(s.hands[1])
    assert len(legal) == len(s.hands[1]) * len(GRID_AIMS) * len(GRID_SPINS)
    s.apply(Throw("p2", 0.0, 0.0, 3.0))  # a pink card on a yellow lead is fine
    assert s.table[-1].card == "p2"


def test_the_trick_ends_when_each_player_has_thrown_one_card() -> None:
    """[How to Play] "Once each player has thrown one card, the trick ends and is resolved.\""""
    s = _state(4, seed=5)
    for k in range(3):
        s.apply(s.legal_actions()[0])
        assert len(s.table) == k + 1 and s.last_table == [] and s.trick == 0
    s.apply(s.legal_actions()[0])
    assert s.table == [] and len(s.last_table) == 4 and s.trick == 1
    assert [c.player for c in s.last_table] == [0, 1, 2, 3]  # landing order = throwing order
    assert [len(h) for h in s.hands] == [10, 10, 10, 10]
    assert s.resolution() is not None


# -- Trump Suit, Resolving ------------------------------------------------------------------

def test_each_trick_winner_takes_the_cards_of_their_own_trick() -> None:
    """[Resolving a Trick on the Target Card] "Multiple tricks on the target card: Each set
    (group) of cards is resolved as a separate trick." — "Each winner takes all the cards
    touching the target card in their own trick and places them face down in front of
    themselves.\""""
    s = arranged(4, {0: ["g3"], 1: ["g5"], 2: ["p9"], 3: ["y1"]})
    play_poses(s, ("g3", TOP), ("g5", (0.0, 15.0, 0.0)), ("p9", (5.5, 12.0, 0.0)),
               ("y1", BOTTOM))
    assert s.won == [[], ["g3", "g5", "p9"], [], ["y1"]]
    assert s.penalty == [[], [], [], []] and s.discard == [] and s.trump_card is None


def test_a_shared_trick_in_play_gives_equal_shares_and_discards_the_rest() -> None:
    """[Cards Connected to the Target Card Form One Trick] "If two or more cards share the
    highest number, the trick is shared." — "Each player who won a shared trick takes an
    equal number of cards and places them face down in front of themselves. The remaining
    cards are discarded." Five cards, the blue 7 and the yellow 7 tie: two cards each, one
    discarded."""
    s = arranged(5, {0: ["g2"], 1: ["p5"], 2: ["b7"], 3: ["y7"], 4: ["o3"]})
    play_poses(s, ("g2", G2), ("p5", P5), ("b7", BRIDGE), ("y7", ON_BRIDGE), ("o3", ON_TOP))
    assert [len(w) for w in s.won] == [0, 0, 2, 2, 0]
    assert "b7" in s.won[2] and "y7" in s.won[3] and len(s.discard) == 1
    assert sorted([*s.won[2], *s.won[3], *s.discard]) == ["b7", "g2", "o3", "p5", "y7"]
    s.audit()


def test_t8_face_down_cards_of_a_shared_trick() -> None:
    """[Resolving Face-Down Cards in a Trick] "If there are several winners of a trick, the
    face-down cards are divided equally. Any remaining cards are placed in the discard pile."
    T8 (option ``shared_face_down``): by default every card of the trick is shared out
    together; 'apart' shares the face-up and the face-down cards each on their own. Here the
    face-down green 2, the pink 5, and the tied blue 7 and yellow 7: together two cards
    each; apart one card each (the pink 5 and the green 2 are left over)."""
    t = table(("g2", G2, True), ("p5", P5), ("b7", BRIDGE), ("y7", ON_BRIDGE), players=4)
    together = resolve_trick(t, None, TrickyLandingOptions()).tricks[0]
    assert together.lead is None and together.winners == (2, 3)
    assert together.taken == ((0, 2), (1, 3)) and together.discarded == ()
    apart = resolve_trick(t, None, TrickyLandingOptions(shared_face_down="apart")).tricks[0]
    assert apart.winners == (2, 3) and apart.taken == ((2,), (3,))
    assert apart.discarded == (0, 1)
    # With one winner the option changes nothing: the winner collects every card.
    t = table(("g2", G2, True), ("p5", P5), ("b9", BRIDGE), ("y7", ON_BRIDGE), players=4)
    alone = resolve_trick(t, None, TrickyLandingOptions(shared_face_down="apart")).tricks[0]
    assert alone.winners == (2,) and alone.taken == ((0, 1, 2, 3),)


def test_the_highest_lead_card_wins_not_a_higher_card_of_another_suit() -> None:
    """[Resolving a Trick on the Target Card] "If no trump card was played, the
    highest-ranked card of the lead suit wins the trick." — with a trump suit in force that
    nobody played, a pink 9 does not beat the leading yellow 3's yellow 5."""
    t = table(("y3", TOP), ("p9", BOTTOM), ("y5", RIGHT), ("g8", LEFT), players=4)
    res = resolve_trick(t, "b", TrickyLandingOptions())
    assert res.tricks[0].lead == "y" and res.tricks[0].winners == (2,)


# -- Cards Not Touching the Target Card -------------------------------------------------------

def test_the_trump_holds_until_the_next_single_miss() -> None:
    """[Cards Not Touching the Target Card] "The trump suit can be changed by the next single
    card that does not touch the target card, during a later trick." — a trick without a
    miss, or with several misses, leaves the trump card where it is; "That one card is placed
    beside the play area, where all players can see it.\""""
    s = arranged(3, {0: ["y3", "y4", "y6", "y8"], 1: ["b5", "g4", "g6", "g7"],
                     2: ["p1", "p2", "p3", "o1"]})
    play_poses(s, ("y3", TOP), ("b5", FAR), ("p1", RIGHT))  # P0 leads: the blue 5 misses alone
    assert (s.trump_card, s.trump_suit) == ("b5", "b")
    for q in (None, 0, 1, 2):
        assert s.observation(q)["trump_card"] == "b5"
    play_poses(s, ("g4", TOP), ("p2", RIGHT), ("y4", BOTTOM))  # P1 leads: nobody misses
    assert s.trump_card == "b5"
    play_poses(s, ("p3", FAR), ("y6", FAR2), ("g6", TOP))  # P2 leads: two misses
    assert s.trump_card == "b5" and s.penalty == [["y6"], [], ["p3"]]
    play_poses(s, ("y8", TOP), ("g7", RIGHT), ("o1", FAR3))  # P0 leads: one miss again
    assert (s.trump_card, s.trump_suit) == ("o1", "o") and "b5" in s.discard
    s.audit()


def test_a_lone_miss_in_the_rounds_last_trick_scores_nothing() -> None:
    """[Cards Not Touching the Target Card] "That one card is placed beside the play area"
    (not in front of its thrower, so [End of Round] neither "1 point for each face-down
    card" nor "-2 points for each face-up card" counts it); the next round starts from
    "Round Setup" with all cards collected, so without trump (T6 default)."""
    s = _state(3, seed=3)
    finish_round_quickly(s)
    before = [len(w) for w in s.won]
    leader = s.leader
    first, second, third = (s.hands[(leader + i) % 3][0] for i in range(3))
    play_poses(s, (first, TOP), (second, RIGHT), (third, FAR))
    lone = (leader + 2) % 3
    assert s.round == 1 and s.round_piles[0][lone] == [before[lone], 0]
    assert s.round_scores[0][lone] == before[lone]
    assert s.trump_card is None and s.trump_suit is None


# -- End of Round, End of Game -------------------------------------------------------------

def test_a_new_round_collects_every_card_and_deals_again() -> None:
    """[End of Round] "The round ends when all players have played all of their cards." —
    "The dealer collects all clown cards, including the discard pile, and follows "Round
    Setup" to prepare the next round." — "The turn order moves clockwise, and the next
    player leads the first trick of the next round. The player to the right of that leading
    player becomes the dealer of the next round.\""""
    s = _state(4, seed=8)
    finish_round_quickly(s)
    s.discard.append(s.won[0].pop())  # something in the discard pile too
    leader = s.leader
    play_poses(s, *[(s.hands[(leader + i) % 4][0], FAR if i < 2 else TOP) for i in range(4)])
    assert s.round == 1 and s.trick == 0 and len(s.round_scores) == 1
    assert (s.starter, s.leader, s.dealer) == (1, 1, 0)
    assert [len(h) for h in s.hands] == [11, 11, 11, 11] and len(s.undealt) == 1
    assert s.won == s.penalty == [[], [], [], []] and s.discard == [] and s.trump_card is None
    assert sorted(c for h in [*s.hands, s.undealt] for c in h) == sorted(s.game.deck)
    s.audit()


def _finished(won: list[int], players: int = 3) -> TrickyLandingState:
    """A finished one-round game in which player q won ``won[q]`` cards (all face down)."""
    deck = list(deck_for(players))
    piles, at = [], 0
    for k in won:
        piles.append(deck[at:at + k])
        at += k
    hand = {3: 12, 4: 11, 5: 9, 6: 8}[players]
    data = {"game": "tricky-landing", "players": players, "seed": 0,
            "options": {"rounds": 1},
            "position": {"round": 1, "trick": hand, "finished": True,
                         "hands": [[] for _ in range(players)], "won": piles,
                         "discard": deck[at:players * hand], "undealt": deck[players * hand:],
                         "round_scores": [won], "round_piles": [[[k, 0] for k in won]],
                         "totals": won}}
    s = load_state(data)
    assert isinstance(s, TrickyLandingState)
    return s


def test_the_highest_total_wins_and_ties_share_the_victory() -> None:
    """[End of Game] "After 3 rounds, add up each player's round scores. The player with the
    highest total score wins. If players are tied, they share the victory.\""""
    s = _finished([13, 13, 10])
    assert s.is_terminal() and s.winners() == [0, 1] and s.ranking() == [1, 1, 3]
    assert s.result()["winners"] == [0, 1]
    s = _finished([10, 14, 12])
    assert s.winners() == [1] and s.ranking() == [3, 1, 2]
    assert s.legal_actions() == []


def test_scores_add_up_over_the_rounds() -> None:
    """[End of Round] "Record each player's score, then prepare for the next round." —
    [End of Game] "After 3 rounds, add up each player's round scores." A played game: each
    round's score is its face-down cards minus twice its face-up cards, the totals their
    sum."""
    s = _state(3, seed=21)
    while not s.is_terminal():
        s.apply(s.legal_actions()[(len(s.history) * 7) % len(s.legal_actions())])
    assert len(s.round_scores) == 3 and s.round == 3
    for r in range(3):
        assert s.round_scores[r] == [d - 2 * u for d, u in s.round_piles[r]]
    assert s.totals == [sum(r[q] for r in s.round_scores) for q in range(3)]
    assert s.scores() == [float(t) for t in s.totals]


# -- Rule options --------------------------------------------------------------------------

def test_every_rule_option_is_documented_with_its_default() -> None:
    """Each option is in the options table of docs/tricky-landing.md with its default; every
    ruling with alternatives says which sentence of the rulebook it reads."""
    text = DOCS.read_text()
    for info in TrickyLandingOptions.info():
        assert f"`{info.name}`" in text, info.name
        if info.choices is not None:
            assert info.quote and info.doc, info.name
            assert re.search(rf"`{info.name}` \| `{re.escape(str(info.default))}`", text), \
                info.name


def test_the_rulebook_coverage_table_names_tests_that_exist() -> None:
    """The docs' *Rulebook coverage* checklist stays true: every test it names is defined in
    this directory."""
    count, missing = named_but_missing(DOCS, Path(__file__).parent)
    assert count > 20 and missing == []


@pytest.mark.parametrize("k", range(len(ALTERNATIVES)))
def test_the_rules_text_follows_the_options(k: int) -> None:
    """The rules a player reads (`rules` in `bigtop play`) are those of this configuration
    and fit the screen: [Cards Connected to the Target Card Form One Trick] "that trick has
    no lead suit" is told with the lead-suit rule in force, and the face-down rules follow
    their options."""
    options = ALTERNATIVES[k]
    text = teaching("tricky-landing").rules_text(TrickyLandingGame(4, options))
    lines = text.splitlines()
    assert len(lines) <= 22 and all(len(line) <= 78 for line in lines)
    flat = " ".join(text.split())
    rule = options.get("lead_suit", "linked-directly")
    assert ("there is no lead suit" in flat) == (rule != "first-toucher")
    assert ("linked only through other cards" in flat) == (rule == "linked-directly")
    collected = options.get("face_down_cards", "to-winners") == "to-winners"
    assert ("the winner collects them too" in flat) == collected
    assert ("Face-down cards never win and are discarded" in flat) == (not collected)
    named = options.get("face_down_miss", "names-suit") == "names-suit"
    assert ("landed face down is discarded instead" in flat) == (not named)
