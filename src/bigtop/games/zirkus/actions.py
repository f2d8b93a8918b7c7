"""So ein Zirkus's vocabulary and actions: the colours and die faces, the step letters of a
path, the phases of a turn, and the actions Roll (the die, a chance outcome), Add, Move,
BackToStart, Upend and Restart."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final, Literal

from bigtop.core.actions import Action

COLOURS = ("red", "yellow", "blue", "green")
FACES = (*COLOURS, "black", "white")
# Final: the compiled rules inline these numbers (a plain constant costs a look-up per use).
BLACK: Final = 4
WHITE: Final = 5
BALLS_PER_COLOUR: Final = 3
CLOWN_CAPACITY: Final = 3
STEPS: Final = "FLR"
"""Step letters: F = forward (away from the start edge), L = towards column A, R = away from
column A. There is no backward step (the rulebook: "Clowns may move forward or sideways")."""

ColourName = Literal["red", "yellow", "blue", "green"]
FaceName = Literal["red", "yellow", "blue", "green", "black", "white"]

PHASES = ("roll", "act", "restart")
"""A state's phases: waiting for the die, for the player's action, for a Restart (clumsy
clown)."""


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """A chance outcome: the die shows ``face``."""

    kind: ClassVar[str] = "roll"
    face: FaceName


@dataclass(frozen=True, slots=True)
class Add(Action):
    """Put a ball of ``colour`` on top of the stack in ``clown`` (0..2)."""

    kind: ClassVar[str] = "add"
    clown: int
    colour: ColourName


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move ``clown`` along ``steps``, one letter per field: F forward, L towards column A,
    R away from it (ruling Z3: the path, not only the end field)."""

    kind: ClassVar[str] = "move"
    clown: int
    steps: str


@dataclass(frozen=True, slots=True)
class BackToStart(Action):
    """On black: put ``clown`` back on the free start ``field`` (it keeps its balls)."""

    kind: ClassVar[str] = "back-to-start"
    clown: int
    field: str


@dataclass(frozen=True, slots=True)
class Upend(Action):
    """Upside-down variant, on black: the bottom ball of ``clown`` goes on top."""

    kind: ClassVar[str] = "upend"
    clown: int


@dataclass(frozen=True, slots=True)
class Restart(Action):
    """Clumsy-clown variant: the mover puts the clown pushed off the board on start ``field``."""

    kind: ClassVar[str] = "restart"
    field: str
