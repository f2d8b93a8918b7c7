"""Helpers shared by the games' observation tensors (fixed-size float vectors for the
OpenSpiel and PettingZoo adapters, built from ``state.observation(player)`` only).

>>> layout({"phase": 3, "seats": 8})
{'phase': (0, 3), 'seats': (3, 8)}
>>> observer({"player": 2})
2
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def layout(sizes: Mapping[str, int]) -> dict[str, tuple[int, int]]:
    """Each named piece's (start, size) in the flat tensor, in the given order."""
    out: dict[str, tuple[int, int]] = {}
    at = 0
    for name, size in sizes.items():
        out[name] = (at, size)
        at += size
    return out


def observer(obs: Mapping[str, Any]) -> int:
    """The seat whose observation this is; a spectator's view has no tensor, since seats in
    a tensor are counted from the observer."""
    me = obs["player"]
    if isinstance(me, bool) or not isinstance(me, int):
        raise ValueError("the observation tensor needs a player's observation, not a "
                         "spectator's (relative seats are counted from the observer)")
    return me
