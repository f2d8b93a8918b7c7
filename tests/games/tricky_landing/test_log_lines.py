"""What a Tricky Landing log says once a throw has landed: where the card came to rest (on
the target, touching a card of the trick, off it) and, after a trick's last throw, who won
it; a face-down card named to its thrower only."""

from __future__ import annotations

import random
import re

import pytest

from bigtop.core.registry import new_state
from bigtop.games import teaching
from bigtop.games.tricky_landing.cards import card_name
from bigtop.games.tricky_landing.rules import Throw, TrickyLandingState
from tests.games.tricky_landing.helpers import FAR3, TOP, arranged

TEACH = teaching("tricky-landing")


def _place(s: TrickyLandingState, card: str, pose: tuple[float, float, float],
           down: bool = False) -> tuple[TrickyLandingState, TrickyLandingState]:
    before = s.clone()
    s.place_from_hand(card, *pose, down)
    return before, s.clone()


def test_each_landing_and_the_trick_in_words() -> None:
    s = arranged(3, {0: ["y3"], 1: ["y5"], 2: ["b6"]})
    on = _place(s, "y3", TOP)
    assert TEACH.outcome(*on, None) == "the yellow 3 lands face up on the target"
    assert TEACH.trick_result(*on, None) == ""  # the trick goes on
    # 7 cm above P0's card: touching it, not the target.
    linked = _place(s, "y5", (0.0, 15.0, 0.0))
    assert TEACH.outcome(*linked, None) == (
        "the yellow 5 lands face up touching P0's card, joining the trick")
    assert TEACH.outcome(*linked, 0) == (
        "the yellow 5 lands face up touching your card, joining the trick")
    miss = _place(s, "b6", FAR3)
    assert TEACH.outcome(*miss, None) == "the blue 6 misses the target, landing face up"
    assert TEACH.outcome(*miss, 2) == "it misses the target, landing face up"
    assert TEACH.trick_result(*miss, None) == (
        "P1 wins the trick (2 cards); P2's missed blue 6 is the new trump card")
    assert TEACH.trick_result(*miss, 1) == (
        "you win the trick (2 cards); P2's missed blue 6 is the new trump card")
    assert TEACH.trick_result(*miss, 2) == (
        "P1 wins the trick (2 cards); your missed blue 6 is the new trump card")
    assert TEACH.played("P2 throws a card", *miss) == (
        "P2 throws a card: the blue 6 misses the target, landing face up; P1 wins the trick "
        "(2 cards); P2's missed blue 6 is the new trump card")


def test_a_face_down_card_is_named_to_its_thrower_only() -> None:
    s = arranged(3, {0: ["y3"], 1: ["y5"], 2: ["b6"]})
    down = _place(s, "y3", TOP, down=True)
    assert TEACH.outcome(*down, None) == "it lands face down on the target"
    assert TEACH.outcome(*down, 1) == TEACH.outcome(*down, 2) == TEACH.outcome(*down, None)
    # The thrower's own line names the card once, in the describe part.
    assert TEACH.played("You throw the yellow 3 at 8 cm beyond the target's centre with no spin",
                        *down, 0) \
        == "You throw the yellow 3 at 8 cm beyond the target's centre with no spin: it lands " \
        "face down on the target"
    _place(s, "y5", FAR3)
    last = _place(s, "b6", (0.0, -20.0, 0.0))
    # Every card on the target lies face down: nobody wins it; two misses, kept face up.
    assert TEACH.trick_result(*last, None) == (
        "nobody wins the trick: every card in it lies face down (1 card discarded); P1 keeps "
        "their missed yellow 5 face up (−2); P2 keeps their missed blue 6 face up (−2)")


@pytest.mark.parametrize(("players", "options"), [
    (3, {"rounds": 2}),
    (4, {"rounds": 1, "face_down_cards": "discarded", "several_misses": "discarded"}),
    (6, {"rounds": 1, "ties": "first-landed", "face_down_miss": "discarded"}),
])
def test_every_throw_of_a_game_says_where_it_landed(players: int,
                                                    options: dict[str, object]) -> None:
    """Real throws to the end of the game (the round's last trick too, whose table the next
    deal clears): every public line says where its card landed, and every trick's last one
    who won; no face-down card is named but to its thrower."""
    s = new_state("tricky-landing", players, seed=players, options=options)
    assert isinstance(s, TrickyLandingState)
    rng = random.Random(players)
    ended = 0
    while not s.is_terminal():
        legal = s.legal_actions()
        throw = rng.choice(legal)
        assert isinstance(throw, Throw)
        p = s.current_player()
        public, mine = s.describe(throw), s.describe(throw, p)
        landing = s.landing_of(throw)
        before = s.clone()
        s.apply(throw)
        line = TEACH.played(public, before, s)
        told = TEACH.played(mine, before, s, p)
        face = "face down" if landing.face_down else "face up"
        assert line.startswith(f"{public}: ") and face in line, line
        assert re.search(r": (the \w+ \d+|it) (lands|misses)", line), line
        assert card_name(throw.card) in told, told
        if landing.face_down:
            assert card_name(throw.card) not in line.split("; ")[0], line
            for q in range(players):
                if q != p:
                    assert card_name(throw.card) not in TEACH.outcome(before, s, q)
        if (s.round, s.trick) != (before.round, before.trick) or s.is_terminal():
            ended += 1
            result = TEACH.trick_result(before, s, None)
            assert re.search(r"(wins|share) (the|a) trick|nobody wins|no card touches",
                             result), result
            assert line.endswith(result)
        else:
            assert TEACH.trick_result(before, s, None) == ""
    assert ended == s.game.rounds * s.game.hand_size
