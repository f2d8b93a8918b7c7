"""SCOUT's actions: Show, Scout (with ``and_show`` for Scout & Show), Insert, TurnHand and
Pass. Kept out of the rules module, which is compiled where possible (mypyc does not compile
these dataclasses)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from bigtop.core.actions import Action


@dataclass(frozen=True, slots=True)
class Show(Action):
    """Play ``length`` adjacent cards starting at hand position ``start`` (0 = leftmost)."""

    kind: ClassVar[str] = "show"
    start: int
    length: int


@dataclass(frozen=True, slots=True)
class Scout(Action):
    """Take the card at one end of the active set; ``and_show`` spends the Scout & Show token."""

    kind: ClassVar[str] = "scout"
    end: Literal["left", "right"]
    and_show: bool


@dataclass(frozen=True, slots=True)
class Insert(Action):
    """Put the scouted card into the hand before position ``position`` (0 = far left,
    len(hand) = far right), turned to its other number if ``flip``."""

    kind: ClassVar[str] = "insert"
    position: int
    flip: bool


@dataclass(frozen=True, slots=True)
class TurnHand(Action):
    """Turn the whole hand upside down: every card flips, the order reverses (ruling S1)."""

    kind: ClassVar[str] = "turn-hand"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Only when neither Show nor Scout is possible (ruling S5)."""

    kind: ClassVar[str] = "pass"
