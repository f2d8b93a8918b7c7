"""The rulebook's examples, rebuilt from explicit card poses (no randomness). Each test quotes
the sentence it checks."""

from __future__ import annotations

import pytest

from bigtop.games.tricky_landing.options import TrickyLandingOptions
from bigtop.games.tricky_landing.physics import ThrowModel, cards_touch, touches_target_card
from bigtop.games.tricky_landing.tricks import resolve_trick
from tests.games.tricky_landing.helpers import (
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
    play_poses,
    table,
)

OPTS = TrickyLandingOptions()
MODEL = ThrowModel()



def test_the_geometry_of_the_no_trump_example() -> None:
    assert touches_target_card(MODEL, G2) and touches_target_card(MODEL, P5)
    assert not cards_touch(MODEL, G2, P5)
    assert cards_touch(MODEL, BRIDGE, G2) and cards_touch(MODEL, BRIDGE, P5)
    assert not touches_target_card(MODEL, BRIDGE) and not touches_target_card(MODEL, ON_BRIDGE)
    assert cards_touch(MODEL, ON_BRIDGE, BRIDGE) and cards_touch(MODEL, ON_TOP, ON_BRIDGE)


def test_example_the_yellow_3() -> None:
    """"Example: The yellow 3 is the first card touching the target card, so yellow is the
    lead suit of this trick. There is no trump suit in this trick, so the yellow 5 is the
    highest card of the lead suit and wins the trick.\""""
    t = table(("y3", TOP), ("p7", BOTTOM), ("y5", RIGHT))
    res = resolve_trick(t, None, OPTS)
    assert len(res.tricks) == 1 and res.missed == ()
    (trick,) = res.tricks
    assert trick.lead == "y"
    assert [t[w].card for w in trick.winners] == ["y5"]
    # "The winner of the trick takes all the cards touching the target card"
    assert trick.taken == ((0, 1, 2),)


def test_trump_beats_other_suits() -> None:
    """"Example of trump: Yellow is the trump suit, and these two cards are played. The
    yellow 1 beats the pink 6, because the trump suit is stronger.\""""
    t = table(("p6", TOP), ("y1", RIGHT), ("g2", FAR))
    res = resolve_trick(t, "y", OPTS)
    assert [t[w].card for w in res.tricks[0].winners] == ["y1"]
    # "In the trump suit, the card with the highest number wins the trick."
    t = table(("y2", TOP), ("y1", RIGHT), ("y8", BOTTOM), ("b9", LEFT))
    res = resolve_trick(t, "y", OPTS)
    assert [t[w].card for w in res.tricks[0].winners] == ["y8"]


def test_multiple_tricks_on_the_target_card() -> None:
    """"Multiple tricks on the target card: Each set (group) of cards is resolved as a
    separate trick." — "The green 3 is the first card touching the target card in the first
    trick, so green is the lead suit. There is no trump suit, so the green 5 is the highest
    card of the lead suit and wins that trick." — "The yellow 1 is the first card touching
    the target card in the second trick, so yellow is the lead suit of that trick. Since it
    is the only card played in the second trick, the yellow 1 wins that trick.\""""
    t = table(("g3", TOP), ("g5", (0.0, 15.0, 0.0)), ("p9", (5.5, 12.0, 0.0)),
              ("y1", BOTTOM))
    res = resolve_trick(t, None, OPTS)
    assert len(res.tricks) == 2
    first, second = res.tricks
    assert first.members == (0, 1, 2) and first.direct == (0,)
    assert first.lead == "g" and [t[w].card for w in first.winners] == ["g5"]
    assert second.members == (3,) and second.lead == "y"
    assert [t[w].card for w in second.winners] == ["y1"]
    # "Each winner takes all the cards touching the target card in their own trick"
    assert first.taken == ((0, 1, 2),) and second.taken == ((3,),)
    assert res.trick_of == (0, 0, 0, 1)


def test_example_with_no_trump_suit() -> None:
    """"The green 2 and the pink 5 are both the first cards touching the target card. Next,
    the blue 5 and the yellow 7 are touching them, so they form one trick. The yellow 7 is the
    highest-numbered card touching the target cards, so it wins the trick.\""""
    t = table(("g2", G2), ("p5", P5), ("b5", BRIDGE), ("y7", ON_BRIDGE))
    res = resolve_trick(t, None, OPTS)
    (trick,) = res.tricks
    assert trick.direct == (0, 1)
    # "If two or more cards touch the target card separately but are connected to each
    # other through other cards, that trick has no lead suit."
    assert trick.lead is None
    assert [t[w].card for w in trick.winners] == ["y7"]
    assert trick.taken == ((0, 1, 2, 3),)


def test_no_lead_suit_but_trump_still_wins() -> None:
    """"The highest-numbered trump card wins the trick. If no trump card was played, the
    highest-numbered card regardless of suit wins the trick.\""""
    t = table(("g2", G2), ("p5", P5), ("b5", BRIDGE), ("y7", ON_BRIDGE))
    res = resolve_trick(t, "g", OPTS)
    assert [t[w].card for w in res.tricks[0].winners] == ["g2"]


def test_the_shared_trick() -> None:
    """"If two or more cards share the highest number, the trick is shared." — "Each player
    who won a shared trick takes an equal number of cards and places them face down in front
    of themselves. The remaining cards are discarded.\""""
    t = table(("g2", G2), ("p5", P5), ("b7", BRIDGE), ("y7", ON_BRIDGE), ("o3", ON_TOP),
              players=5)
    res = resolve_trick(t, None, OPTS)
    (trick,) = res.tricks
    assert trick.lead is None
    assert [t[w].card for w in trick.winners] == ["b7", "y7"]
    # Five cards, two winners: two each (their own card first), one discarded.
    assert [len(x) for x in trick.taken] == [2, 2] and len(trick.discarded) == 1
    assert 2 in trick.taken[0] and 3 in trick.taken[1]
    assert sorted([*trick.taken[0], *trick.taken[1], *trick.discarded]) == [0, 1, 2, 3, 4]


def test_shared_trick_alternative_first_landed() -> None:
    t = table(("g2", G2), ("p5", P5), ("b7", BRIDGE), ("y7", ON_BRIDGE), ("o3", ON_TOP),
              players=5)
    res = resolve_trick(t, None, TrickyLandingOptions(ties="first-landed"))
    assert res.tricks[0].winners == (2,) and res.tricks[0].taken == ((0, 1, 2, 3, 4),)


def test_one_miss_sets_the_trump() -> None:
    """"Example: In this example, only the blue 5 is a card that does not touch the target
    card. This card is placed beside the play area, and blue becomes the trump suit" — and
    "Any existing trump card from play is moved to the discard pile and replaced.\""""
    s = arranged(3, {0: ["y3", "g4"], 1: ["y5", "b2"], 2: ["b5", "g1"]})
    assert s.trump_card is None  # "The first trick has no trump suit."
    play_poses(s, ("y3", TOP), ("y5", RIGHT), ("b5", FAR))
    assert s.trump_card == "b5" and s.trump_suit == "b"
    assert s.won[1] == ["y3", "y5"]  # the yellow 5 wins the yellow trick
    s.audit()
    # Next trick (P1 leads): the green 1 alone misses and replaces the blue 5.
    play_poses(s, ("b2", TOP), ("g1", FAR), ("g4", RIGHT))
    assert s.trump_card == "g1" and s.trump_suit == "g"
    assert "b5" in s.discard
    # Blue was trump during this trick ("for the next trick"), so the blue 2 wins it.
    assert s.won[1][-2:] == ["b2", "g4"]
    s.audit()


def test_two_misses_are_kept_face_up() -> None:
    """"The player who played the blue 5 takes this card and places it face up in front of
    themselves." — "The player who played the yellow 7 takes this card and places it face up
    in front of themselves.\""""
    s = arranged(3, {0: ["b5"], 1: ["y7"], 2: ["g8"]})
    play_poses(s, ("b5", FAR), ("y7", FAR2), ("g8", TOP))
    assert s.penalty[0] == ["b5"] and s.penalty[1] == ["y7"]
    assert s.trump_card is None  # several misses set no trump
    assert s.won[2] == ["g8"]
    s.audit()
    res = s.resolution()
    assert res is not None and res.kept_face_up == (0, 1) and res.new_trump is None


def test_several_misses_alternative_discards_them() -> None:
    s = arranged(3, {0: ["b5"], 1: ["y7"], 2: ["g8"]}, options={"several_misses": "discarded"})
    play_poses(s, ("b5", FAR), ("y7", FAR2), ("g8", TOP))
    assert s.penalty == [[], [], []] and sorted(s.discard) == ["b5", "y7"]


def test_all_cards_missing() -> None:
    """"Cards Not Touching the Target Card: If a player's clown card does not touch the target
    card, that card does not contribute to the trick.\""""
    s = arranged(3, {0: ["b5"], 1: ["y7"], 2: ["g8"]})
    play_poses(s, ("b5", FAR), ("y7", FAR2), ("g8", FAR3))
    assert s.penalty == [["b5"], ["y7"], ["g8"]] and s.won == [[], [], []]


def test_all_face_down() -> None:
    """"If every card played in a trick is face down, all of the cards are discarded. No
    player receives any card, and the trick ends.\""""
    t = table(("y3", TOP, True), ("p7", BOTTOM, True), ("y5", RIGHT, True))
    res = resolve_trick(t, None, OPTS)
    assert res.tricks[0].winners == () and res.tricks[0].discarded == (0, 1, 2)
    s = arranged(3, {0: ["y3"], 1: ["p7"], 2: ["y5"]})
    play_poses(s, ("y3", TOP, True), ("p7", BOTTOM, True), ("y5", RIGHT, True))
    assert s.won == [[], [], []] and sorted(s.discard) == ["p7", "y3", "y5"]
    # Nobody saw them: they stay secret to their throwers.
    assert s.hidden == {"y3": 0, "p7": 1, "y5": 2}
    assert s.observation(1)["discard"] == [None, "p7", None]


def test_face_down_cards_go_to_the_winner() -> None:
    """"Cards that were played face down during a trick do not compete for the chance to win
    the trick. The winner of the trick collects these cards and places them in front of
    themselves.\""""
    t = table(("y8", TOP, True), ("y3", RIGHT), ("p7", BOTTOM))
    res = resolve_trick(t, None, OPTS)
    (trick,) = res.tricks
    # The face-down yellow 8 neither sets the lead nor wins: the yellow 3 leads and wins.
    assert trick.lead == "y" and trick.winners == (1,)
    assert trick.taken == ((0, 1, 2),)
    alt = resolve_trick(t, None, TrickyLandingOptions(face_down_cards="discarded"))
    assert alt.tricks[0].taken == ((1, 2),) and alt.tricks[0].discarded == (0,)
    alt = resolve_trick(t, None, TrickyLandingOptions(face_down_lead="no-lead"))
    assert alt.tricks[0].lead is None and alt.tricks[0].winners == (2,)  # pink 7 highest


def test_face_down_cards_divided_equally_when_shared() -> None:
    """"If there are several winners of a trick, the face-down cards are divided equally.
    Any remaining cards are placed in the discard pile.\""""
    t = table(("g2", G2), ("p5", P5), ("b7", BRIDGE), ("y7", ON_BRIDGE), ("o9", ON_TOP, True),
              players=5)
    res = resolve_trick(t, None, OPTS)
    (trick,) = res.tricks
    assert trick.winners == (2, 3)  # the face-down orange 9 does not compete
    assert [len(x) for x in trick.taken] == [2, 2] and len(trick.discarded) == 1


def test_single_face_down_miss_still_names_the_trump() -> None:
    """T7: "A missed card that lands face down still names its suit when it becomes the trump
    card.\""""
    t = table(("y3", TOP), ("y5", RIGHT), ("b5", FAR, True))
    assert resolve_trick(t, None, OPTS).new_trump == 2
    alt = resolve_trick(t, None, TrickyLandingOptions(face_down_miss="discarded"))
    assert alt.new_trump is None and alt.missed_discarded == (2,)
    s = arranged(3, {0: ["y3"], 1: ["y5"], 2: ["b5"]})
    play_poses(s, ("y3", TOP), ("y5", RIGHT), ("b5", FAR, True))
    assert s.trump_card == "b5" and "b5" not in s.hidden  # turned face up: public


def test_a_card_touching_only_a_missed_card_also_misses() -> None:
    """"A card that touches the target card directly, or touches it through another clown
    card, is part of the trick." — so two cards touching each other away from the target
    both miss."""
    t = table(("y3", TOP), ("b5", FAR), ("g6", (0.0, -24.0, 0.0)))
    res = resolve_trick(t, None, OPTS)
    assert res.missed == (1, 2) and res.kept_face_up == (1, 2)


@pytest.mark.parametrize("rule,lead", [("linked-directly", None), ("all-pairs-touch", None),
                                       ("first-toucher", "g")])
def test_lead_suit_rule_options(rule: str, lead: str | None) -> None:
    t = table(("g2", G2), ("p5", P5), ("b5", BRIDGE), ("y7", ON_BRIDGE))
    res = resolve_trick(t, None, TrickyLandingOptions(lead_suit=rule))
    assert res.tricks[0].lead == lead


def test_all_pairs_touch_differs_on_a_chain() -> None:
    # Three direct touchers in a chain: linked directly, but the ends do not touch.
    t = table(("y3", (-4.0, 8.0, 0.0)), ("p9", (2.0, 8.0, 0.0)), ("y5", RIGHT))
    assert all(touches_target_card(MODEL, c.pose) for c in t[:2])
    assert touches_target_card(MODEL, t[2].pose)
    assert not cards_touch(MODEL, t[0].pose, t[2].pose)
    assert resolve_trick(t, None, OPTS).tricks[0].lead == "y"
    alt = resolve_trick(t, None, TrickyLandingOptions(lead_suit="all-pairs-touch"))
    assert alt.tricks[0].lead is None and alt.tricks[0].winners == (1,)


def test_touch_tolerance() -> None:
    """Two cards touch when their rectangles overlap or come within 1 mm (the default)."""
    near = table(("y3", (0.0, 8.85, 0.0)), ("y5", FAR), ("y6", FAR2))  # 0.5 mm gap
    far = table(("y3", (0.0, 8.95, 0.0)), ("y5", FAR), ("y6", FAR2))  # 1.5 mm gap
    assert resolve_trick(near, None, OPTS).trick_of[0] == 0
    assert resolve_trick(far, None, OPTS).trick_of[0] == -1
    wide = TrickyLandingOptions(touch_tolerance_mm=2.0)
    assert resolve_trick(far, None, wide).trick_of[0] == 0
