"""Perft: count the action sequences of a given length from a position (chess engines' test
of a move generator). Chance nodes expand every outcome. A terminal state counts as one leaf.

>>> from bigtop import new_state
>>> perft(new_state("scout", players=3, seed=1), 1) == len(new_state("scout", 3, 1).legal_actions())
True
"""

from __future__ import annotations

import json

from bigtop.core.errors import BigtopError, shown
from bigtop.core.game import State


def _check_depth(depth: object) -> int:
    # A negative depth never reached 0 (a RecursionError), None a TypeError.
    if type(depth) is not int or depth < 0:
        raise BigtopError(f"perft depth must be a whole number >= 0, got {shown(depth)}")
    return depth


def perft(state: State, depth: int) -> int:
    """The number of action sequences of length ``depth`` from ``state`` (a sequence ending
    early at the game's end counts once).

    >>> from bigtop import new_state
    >>> perft(new_state("scout", players=3, seed=1), -1)
    Traceback (most recent call last):
    ...
    bigtop.core.errors.BigtopError: perft depth must be a whole number >= 0, got -1
    """
    return _perft(state, _check_depth(depth))


def _perft(state: State, depth: int) -> int:
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        total += _perft(child, depth - 1)
    return total


def perft_divide(state: State, depth: int) -> dict[str, int]:
    """Perft per first action, keyed by the action's JSON (for finding a generator bug)."""
    if _check_depth(depth) == 0:
        return {}
    out = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        out[json.dumps(action.to_json())] = _perft(child, depth - 1)
    return out
