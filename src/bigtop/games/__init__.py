"""One package per game: rules (a pure state machine), data, a heuristic bot, and ``teach``:
the game explained to a newcomer and what each finished round means.

>>> from bigtop.core.registry import new_game
>>> t = teaching("scout")
>>> t.rules_text(new_game("scout", 3)).startswith("SCOUT.")
True
>>> t.rules(new_game("scout", 3))[1]
'On your turn do one of:'
"""

from __future__ import annotations

from bigtop.core.registry import capabilities
from bigtop.core.teaching import Teaching


def teaching(name: str) -> Teaching:
    """The teaching functions of game ``name`` (an UnknownGameError for no such game), as its
    capability record declares them: one shared, immutable :class:`Teaching` a game."""
    return capabilities(name).teaching


__all__ = ["Teaching", "teaching"]
