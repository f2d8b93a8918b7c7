"""Clown 15 Go's deck: sets of the numbers 1–15, one set per colour (rulings: 8 colours).

A card is an ``int`` code ``colour * 15 + (number - 1)``: fast to compare and to store.
Its text (and JSON) form is the colour letter followed by the number, e.g. ``"R7"``.

>>> deck = Deck("ROYGBVKW", 8)
>>> len(deck.cards)
120
>>> deck.text(deck.parse("G15")), number(deck.parse("G15")), deck.colour_name(deck.parse("G1"))
('G15', 15, 'green')
>>> Deck("ROYG", 4).parse("W3")
Traceback (most recent call last):
...
bigtop.core.errors.InvalidStateError: 'W3' is not a card of this deck (colours ROYG, numbers 1-15)
"""

from __future__ import annotations

from bigtop.core.errors import InvalidStateError, shown

HIGHEST = 15
"""Every set runs from 1 to 15 ("You start with the number 1 ... up till 15")."""

DEFAULT_COLOURS = "ROYGBVKW"
"""The default box: 8 colours (no source gives the real colours; see the rulings). Violet is
``V``, not ``P``, so that a card never reads like a seat (``P2 lays P2``)."""

COLOUR_NAMES = {
    "R": "red", "O": "orange", "Y": "yellow", "G": "green", "B": "blue", "V": "violet",
    "K": "black", "W": "white", "P": "purple",
}


def number(card: int) -> int:
    """The card's number, 1..15."""
    return card % HIGHEST + 1


def colour(card: int) -> int:
    """The card's colour index (position of its letter in the deck's colours)."""
    return card // HIGHEST


class Deck:
    """The cards in play: the first ``sets`` colours of ``colours``, each a set 1–15."""

    def __init__(self, colours: str, sets: int) -> None:
        self.colours = colours[:sets]
        self.cards: tuple[int, ...] = tuple(range(sets * HIGHEST))
        self._texts = [f"{self.colours[colour(c)]}{number(c)}" for c in self.cards]
        self._codes = {t: c for c, t in enumerate(self._texts)}

    def text(self, card: int) -> str:
        return self._texts[card]

    def texts(self, cards: list[int]) -> list[str]:
        t = self._texts
        return [t[c] for c in cards]

    def colour_name(self, card: int) -> str:
        letter = self.colours[colour(card)]
        return COLOUR_NAMES.get(letter, letter)

    def parse(self, obj: object) -> int:
        """A card from its text form; InvalidStateError for anything else."""
        code = self._codes.get(obj) if isinstance(obj, str) else None
        if code is None:
            raise InvalidStateError(
                f"{shown(obj)} is not a card of this deck (colours {self.colours}, numbers 1-15)")
        return code

    def parse_list(self, obj: object, where: str) -> list[int]:
        if not isinstance(obj, list):
            raise InvalidStateError(f"{where} must be a list of cards like \"R7\"")
        try:
            return [self.parse(x) for x in obj]
        except InvalidStateError as e:
            raise InvalidStateError(f"{where}: {e}") from None
