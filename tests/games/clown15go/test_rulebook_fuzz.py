"""Clown 15 Go fuzz against an independent reading of the rulebook (004_23154701df508698.txt)
and the rulings (shared/rules/clown-15-go.md): random legal play from many seeds under every
conformance option set; after every move ``audit()`` holds, the engine's legal actions equal
what the rules allow, and the move did what the rulebook says.

The oracle works on card numbers 1–15 and shares no code with the engine's generators."""

from __future__ import annotations

import random

import pytest

from bigtop.core.registry import new_state
from bigtop.games.clown15go.cards import number
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
from tests.games.audit import play_checked


def places(s: Clown15GoState, card: int, own: bool) -> set[object]:
    """Where ``card`` may go: "As soon as the number 1 is turned, it will be placed in the
    middle" (G5); "if the number is 1 higher than the card that is there" (rows); "1 higher or
    1 lower than the number that is on one of your fellow players on the open pile"; advanced
    rule 2 (``own``): the own open pile, 1 higher or lower."""
    o = s.game.options
    v = number(card)
    p = s.to_act
    out: set[object] = set()
    if v == 1:
        out.add(NewRow())
    else:
        out |= {ToRow(i) for i, row in enumerate(s.rows) if number(row[-1]) == v - 1}
    if v != 1 or o.one_on_pile:
        for q, pile in enumerate(s.open_piles):
            if q != p and pile and abs(number(pile[-1]) - v) == 1:
                out.add(ToPile(q))
        if own and s.open_piles[p] and abs(number(s.open_piles[p][-1]) - v) == 1:
            out.add(ToOwnPile())
    return out


def borrows(s: Clown15GoState, in_play: int | None) -> set[object]:
    """Advanced rule 3: "you can also use cards from the open cards of your fellow players"
    in the middle; ``borrowing_when=placing``: only a card the card in play then goes on."""
    o = s.game.options
    out: set[object] = set()
    if not o.borrowing:
        return out
    for q, pile in enumerate(s.open_piles):
        if q == s.to_act or not pile:
            continue
        v = number(pile[-1])
        if o.borrowing_when == "placing" and (in_play is None or number(in_play) != v + 1):
            continue
        if v == 1:
            out.add(Borrow(q, -1))
        out |= {Borrow(q, i) for i, row in enumerate(s.rows) if number(row[-1]) == v - 1}
    return out


def reference_legal(s: Clown15GoState) -> set[object]:
    o = s.game.options
    p = s.to_act
    if s.phase == "card":
        assert s.pending is not None
        out = places(s, s.pending, o.own_pile)
        # G1: "You cannot place a card anywhere? Then your turn is over and you put the card
        # in front of your closed pile" (placing=voluntary: always allowed).
        lay = o.placing == "voluntary" or not out
        out |= borrows(s, s.pending)
        if lay:
            out.add(LayDown())
        return out
    assert s.phase == "turn"
    out = set()
    top = s.open_piles[p][-1] if s.open_piles[p] else None
    if o.open_pile_first and top is not None:  # advanced rule 1
        out |= places(s, top, False)
    out |= borrows(s, top if o.open_pile_first else None)
    # G2: with last_card=stays a single open card cannot be turned over.
    keep = 1 if o.last_card == "stays" else 0
    can_turn = bool(s.closed[p]) or len(s.open_piles[p]) > keep
    out.add(TurnOver() if can_turn else Pass())
    return out


def check_effect(before: Clown15GoState, action: object, after: Clown15GoState) -> None:
    p = before.to_act
    n = before.game.num_players
    if isinstance(action, LayDown):
        # "you put the card in front of your closed pile with the number facing up. This
        # will be your open pile. Now it is the next player's turn."
        assert after.open_piles[p][-1] == before.pending
        if after.phase != "over":
            assert after.to_act != p or n - len(after.out_order) == 1
    elif isinstance(action, ToPile):
        assert after.open_piles[action.player][-1] == before.card_in_play()
    elif isinstance(action, ToRow | NewRow):
        card = before.card_in_play()
        assert card is not None
        in_rows = any(row[-1] == card for row in after.rows)
        completed = any(c[-1] == card for _, c in after.completed)
        assert in_rows or completed
        if isinstance(action, NewRow):
            assert number(card) == 1 and [card] in after.rows
    elif isinstance(action, Borrow):
        card = before.open_piles[action.player][-1]
        assert after.open_piles[action.player] == before.open_piles[action.player][:-1]
        assert any(row[-1] == card for row in after.rows) or any(
            c[-1] == card for _, c in after.completed)
    # "As long as you can place cards ... you can always turn over a new card": after a
    # placement of the turned card the same player turns over the top of the closed pile.
    # (With it empty, renewing decides: G2 and G3's own-pile loop rule may end the turn.)
    if (isinstance(action, ToRow | NewRow | ToPile | ToOwnPile) and before.phase == "card"
            and after.phase != "over" and before.closed[p]):
        assert after.to_act == p and after.phase == "card"
        assert after.pending == before.closed[p][-1]
    # Nobody else's closed pile changes on p's turn (the next player's first card is turned
    # over by itself when the turn passes).
    for q in range(n):
        if q not in (p, after.to_act):
            assert after.closed[q] == before.closed[q]


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_random_play_matches_the_reference_and_audits(players: int) -> None:
    """Every conformance option set (all 16 combinations of the advanced rules and the
    rulings' alternatives), four seeded random games each, checked after every move."""
    steps = 0
    cases = [(k, options, seed) for k, options in enumerate(
        Clown15GoGame.conformance_options(players)) for seed in range(4)]
    for k, options, seed in cases:
        s = new_state("clown-15-go", players, 7 * k + 1000 * seed + players,
                      {"max_turns": 150, **options})
        assert isinstance(s, Clown15GoState)
        rng = random.Random(k * 10 + seed)
        steps += play_checked(s, rng, reference_legal, check_effect)
        assert s.end_reason in ("went-out", "all-out", "stall", "turn-limit")
    assert steps > 2000
