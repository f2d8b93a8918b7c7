"""SCOUT's deck: 45 cards, one for every pair {a, b} with 1 <= a < b <= 10.

A card in play is a tuple ``(top, bottom)``: only ``top`` counts; flipping swaps them.

>>> len(deck_for(5)), len(deck_for(4)), len(deck_for(3)), len(deck_for(2))
(45, 44, 36, 44)
>>> HAND_SIZE[3]
12
"""

from __future__ import annotations

Card = tuple[int, int]

FULL_DECK: tuple[Card, ...] = tuple((a, b) for a in range(1, 11) for b in range(a + 1, 11))

# Rulebook (001_…, setup): "5 pelaajaa: mitään ei poisteta. 2 tai 4: kortti jossa on 9 ja 10
# poistetaan. 3: kortit joissa on numero 10, poistetaan."
_REMOVED: dict[int, frozenset[Card]] = {
    2: frozenset({(9, 10)}),
    3: frozenset((a, 10) for a in range(1, 10)),
    4: frozenset({(9, 10)}),
    5: frozenset(),
}

# "5 pelaajaa: jokaiselle 9 korttia. 4: 11. 3: 12. 2: 11."
HAND_SIZE = {2: 11, 3: 12, 4: 11, 5: 9}


def deck_for(players: int) -> tuple[Card, ...]:
    """The cards in play for ``players`` players, each as (low, high)."""
    removed = _REMOVED[players]
    return tuple(c for c in FULL_DECK if c not in removed)


def canonical(card: Card) -> Card:
    """The card's identity regardless of orientation."""
    a, b = card
    return (a, b) if a < b else (b, a)


def show_card(card: Card) -> str:
    """``7/3``: top number first."""
    return f"{card[0]}/{card[1]}"
