"""Observation tensors: fixed-size float vectors for learning code (the OpenSpiel and
PettingZoo adapters), built from ``state.observation(player)`` only, so a tensor can never
show what the player may not see.

One style for every game (OpenSpiel's observers): a :class:`TensorLayout` names its pieces
and their shapes; the tensor is one flat ``float32`` array and each piece a reshaped numpy
view into it (:meth:`TensorLayout.views`), which a game's ``fill`` writes. A game declares its
layout in its capability record (:mod:`bigtop.core.capabilities`); its ``tensor.py`` holds it.

>>> layout({"phase": 3, "seats": 8})
{'phase': (0, 3), 'seats': (3, 8)}
>>> observer({"player": 2})
2
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from bigtop.core.game import State

FloatArray = npt.NDArray[np.float32]


class TensorLayout(ABC):
    """A fixed-shape encoding of one player's observation, as named pieces of one flat
    array."""

    bound: float = 1e6
    """Every entry lies in ``[-bound, bound]`` (PettingZoo's Box bounds)."""

    @abstractmethod
    def pieces(self) -> list[tuple[str, tuple[int, ...]]]:
        """The named pieces in order; the flat tensor is their concatenation."""

    @abstractmethod
    def fill(self, state: State, player: int, out: dict[str, FloatArray]) -> None:
        """Write ``player``'s view of ``state`` into ``out`` (zeroed views, one per piece)."""

    @property
    def size(self) -> int:
        return sum(math.prod(shape) for _, shape in self.pieces())

    def views(self, flat: FloatArray) -> dict[str, FloatArray]:
        """Named, reshaped views into ``flat`` (no copies)."""
        out: dict[str, FloatArray] = {}
        i = 0
        for name, shape in self.pieces():
            n = math.prod(shape)
            out[name] = flat[i:i + n].reshape(shape)
            i += n
        return out

    def tensor(self, state: State, player: int) -> FloatArray:
        """The flat tensor of ``player``'s view of ``state``."""
        flat = np.zeros(self.size, np.float32)
        self.fill(state, player, self.views(flat))
        return flat


class FlatLayout(TensorLayout):
    """A layout whose game computes the whole tensor at fixed offsets (``values(obs)``, one
    float per entry, in piece order), each named piece a view of its stretch: ``sizes`` gives
    every piece's length in order, ``shapes`` the shape of those that are tables (seats ×
    features), so that they read as such."""

    def __init__(self, sizes: Mapping[str, int], shapes: Mapping[str, tuple[int, ...]],
                 bound: float = 1e6) -> None:
        self._pieces = [(name, shapes.get(name, (size,))) for name, size in sizes.items()]
        for name, shape in self._pieces:
            if math.prod(shape) != sizes[name]:
                raise ValueError(f"piece {name}: shape {shape} does not hold {sizes[name]}")
        self.bound = bound

    def pieces(self) -> list[tuple[str, tuple[int, ...]]]:
        return list(self._pieces)

    @abstractmethod
    def values(self, obs: dict[str, Any]) -> list[float]:
        """The tensor of the observation ``obs``, flat, as Python floats."""

    def fill(self, state: State, player: int, out: dict[str, FloatArray]) -> None:
        flat = np.asarray(self.values(state.observation(player)), np.float32)
        at = 0
        for name, shape in self._pieces:
            n = math.prod(shape)
            out[name][...] = flat[at:at + n].reshape(shape)
            at += n


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
