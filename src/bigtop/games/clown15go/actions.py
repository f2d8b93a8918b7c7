"""Clown 15 Go's actions: placing the card in play (a turned card, or with advanced rule 1 the
top of the own open pile), laying it down, turning over, passing (G2 under
``last_card=stays``) and borrowing (advanced rule 3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bigtop.core.actions import Action


@dataclass(frozen=True, slots=True)
class NewRow(Action):
    """Put the card in play (a 1) in the middle: it starts a new row."""

    kind: ClassVar[str] = "new-row"


@dataclass(frozen=True, slots=True)
class ToRow(Action):
    """Put the card in play on middle row ``row`` (0 = oldest row), whose top is one lower."""

    kind: ClassVar[str] = "row"
    row: int


@dataclass(frozen=True, slots=True)
class ToPile(Action):
    """Put the card in play on ``player``'s open pile, whose top is one higher or lower."""

    kind: ClassVar[str] = "pile"
    player: int


@dataclass(frozen=True, slots=True)
class ToOwnPile(Action):
    """Advanced rule 2: put the turned card on your own open pile (top one higher or lower);
    the turn goes on."""

    kind: ClassVar[str] = "own-pile"


@dataclass(frozen=True, slots=True)
class LayDown(Action):
    """Put the turned card face up on your own open pile: your turn is over."""

    kind: ClassVar[str] = "lay-down"


@dataclass(frozen=True, slots=True)
class TurnOver(Action):
    """Stop playing from your open pile and turn over the top card of your closed pile."""

    kind: ClassVar[str] = "turn-over"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Ruling G2: no card can be turned over (closed pile empty, one open card): the turn
    passes."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Borrow(Action):
    """Advanced rule 3: move the top card of ``player``'s open pile onto middle row ``row``
    (``row = -1``: the card is a 1 and starts a new row)."""

    kind: ClassVar[str] = "borrow"
    player: int
    row: int


Clown15GoAction = NewRow | ToRow | ToPile | ToOwnPile | LayDown | TurnOver | Pass | Borrow
