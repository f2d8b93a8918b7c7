"""Tricky Landing's one action, a throw. Kept out of the rules module, which is compiled where
possible (mypyc does not compile this dataclass)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bigtop.core.actions import Action


@dataclass(frozen=True, slots=True)
class Throw(Action):
    """Throw ``card`` aiming at ``(x, y)`` cm from the target's centre, in the thrower's frame
    (``x`` to the thrower's right, ``y`` away from them), with ``spin`` rev/s.

    >>> Throw("y7", 0.0, 0.0, 3.0).to_json()
    {'type': 'throw', 'card': 'y7', 'x': 0.0, 'y': 0.0, 'spin': 3.0}
    """

    kind: ClassVar[str] = "throw"
    card: str
    x: float
    y: float
    spin: float
