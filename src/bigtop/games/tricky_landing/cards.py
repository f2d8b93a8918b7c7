"""Tricky Landing's clown cards: 5 suits, numbers 1–10, fewer numbers with fewer players.

A card is written as its suit letter and number: ``"y7"`` is the yellow 7. The rulebook names
yellow, pink, green and blue; the fifth suit's colour is not named, so it is called orange
(``o``) here.

>>> len(deck_for(3)), len(deck_for(4)), len(deck_for(5)), len(deck_for(6))
(40, 45, 50, 50)
>>> HAND_SIZE[4], leftover(4)
(11, 1)
>>> suit_of("g10"), number_of("g10"), card_name("g10")
('g', 10, 'green 10')
"""

from __future__ import annotations

SUITS: tuple[str, ...] = ("y", "p", "g", "b", "o")
SUIT_NAMES: dict[str, str] = {
    "y": "yellow", "p": "pink", "g": "green", "b": "blue", "o": "orange"}

# Rulebook, Game Setup: "3 players: clown cards 1-8 of each suit; 4 players: 1-9; 5 and 6
# players: 1-10".
TOP_NUMBER: dict[int, int] = {3: 8, 4: 9, 5: 10, 6: 10}
# Rulebook, Round Setup: "3 players: 12 cards each; 4: 11; 5: 9; 6: 8".
HAND_SIZE: dict[int, int] = {3: 12, 4: 11, 5: 9, 6: 8}

ALL_CARDS: tuple[str, ...] = tuple(f"{s}{n}" for s in SUITS for n in range(1, 11))
_SUIT = {c: c[0] for c in ALL_CARDS}
_NUMBER = {c: int(c[1:]) for c in ALL_CARDS}
_RANK = {c: i for i, c in enumerate(ALL_CARDS)}  # ALL_CARDS runs suit by suit, low to high


def deck_for(players: int) -> tuple[str, ...]:
    """The cards in play for ``players`` players, suit by suit, low to high."""
    top = TOP_NUMBER[players]
    return tuple(c for c in ALL_CARDS if _NUMBER[c] <= top)


def leftover(players: int) -> int:
    """Cards left over after the deal (they start the discard pile face down)."""
    return len(deck_for(players)) - players * HAND_SIZE[players]


def suit_of(card: str) -> str:
    return _SUIT[card]


def number_of(card: str) -> int:
    return _NUMBER[card]


def is_card(card: object) -> bool:
    return isinstance(card, str) and card in _SUIT


def card_name(card: str) -> str:
    """``"y3"`` → ``"yellow 3"``."""
    return f"{SUIT_NAMES[_SUIT[card]]} {_NUMBER[card]}"


def sort_key(card: str) -> int:
    """Hand order: by suit (yellow, pink, green, blue, orange), then by number.

    >>> sorted(["b2", "y9", "y10", "p1"], key=sort_key)
    ['y9', 'y10', 'p1', 'b2']
    """
    return _RANK[card]
