"""Perft: count the action sequences of a given length from a position (chess engines' test
of a move generator). Chance nodes expand every outcome. A terminal state counts as one leaf.

>>> from bigtop import new_state
>>> perft(new_state("scout", players=3, seed=1), 1) == len(new_state("scout", 3, 1).legal_actions())
True
"""

from __future__ import annotations

from bigtop.core.game import State


def perft(state: State, depth: int) -> int:
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def perft_divide(state: State, depth: int) -> dict[str, int]:
    """Perft per first action, keyed by the action's JSON (for finding a generator bug)."""
    import json

    out = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        out[json.dumps(action.to_json())] = perft(child, depth - 1)
    return out
