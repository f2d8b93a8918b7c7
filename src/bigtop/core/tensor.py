"""Observation tensors: fixed-size float vectors for learning code (the OpenSpiel and
PettingZoo adapters), built from ``state.observation(player)`` only, so a tensor can never
show what the player may not see.

One style for every game (OpenSpiel's observers): a :class:`TensorLayout` names its pieces
and their shapes; the tensor is one flat ``float32`` array and each piece a reshaped numpy
view into it (:meth:`TensorLayout.views`), which the game's ``fill`` writes, piece by piece,
by name. A game declares its layout in its capability record
(:mod:`bigtop.core.capabilities`); its ``tensor.py`` holds it.

>>> class Dice(TensorLayout):  # a toy whose "state" is a die's face
...     def pieces(self):
...         return [("face", (6,)), ("seats", (2, 3))]
...     def fill(self, face, player, out):
...         out["face"][face - 1] = 1.0
...         out["seats"][player, 0] = 1.0
>>> t = Dice().tensor(4, 1)
>>> t.tolist()
[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]
>>> Dice().views(t)["seats"].tolist()
[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]
>>> observer({"player": 2})
2
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from functools import cached_property
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from bigtop.core.errors import BigtopError, IllegalActionError, shown
from bigtop.core.game import Game, State

FloatArray = npt.NDArray[np.float32]
"""The tensor: float32, as learning code takes it."""
FloatView = npt.NDArray[np.floating[Any]]
"""One named piece: a reshaped view into the flat array (float32 for
:meth:`TensorLayout.tensor`, float64 for :meth:`TensorLayout.floats`)."""
Views = Mapping[str, FloatView]
"""The named pieces a layout's ``fill`` writes, zeroed."""
_Scalar = TypeVar("_Scalar", bound=np.generic)


class TensorLayout(ABC):
    """A fixed-shape encoding of one player's observation, as named pieces of one flat
    array."""

    bound: float = 1e6
    """Every entry lies in ``[-bound, bound]`` (PettingZoo's Box bounds)."""

    game: Game | None = None
    """The game (configuration) whose states the layout encodes; None: any (the generic
    hashed encoding). :meth:`tensor` refuses the states of any other."""

    @abstractmethod
    def pieces(self) -> list[tuple[str, tuple[int, ...]]]:
        """The named pieces in order; the flat tensor is their concatenation."""

    @abstractmethod
    def fill(self, state: State, player: int, out: Views) -> None:
        """Write ``player``'s view of ``state`` into ``out`` (zeroed views, one per piece).

        A value computed as a Python float is written as it is, so that the float64 and the
        float32 tensors round it once; a sum of several (a count of cards, each ``1 / K``)
        is added up in Python floats and written once."""

    @cached_property
    def _spans(self) -> list[tuple[str, int, int, tuple[int, ...]]]:
        """Each piece's name, start, end and shape (a layout's pieces are fixed: worked out
        once, not at every tensor)."""
        out = []
        i = 0
        for name, shape in self.pieces():
            n = math.prod(shape)
            out.append((name, i, i + n, shape))
            i += n
        return out

    @property
    def size(self) -> int:
        return self._spans[-1][2] if self._spans else 0

    def views(self, flat: npt.NDArray[_Scalar]) -> dict[str, npt.NDArray[_Scalar]]:
        """Named, reshaped views into ``flat`` (no copies)."""
        return {name: flat[start:end].reshape(shape) for name, start, end, shape in self._spans}

    def tensor(self, state: object, player: object) -> FloatArray:
        """The flat tensor of ``player``'s view of ``state``."""
        self.check(state, player)
        flat = np.zeros(self.size, np.float32)
        self.fill(cast(State, state), cast(int, player), self.views(flat))
        return flat

    def floats(self, state: object, player: object) -> list[float]:
        """The same tensor as Python floats, written in double precision (each entry the
        value ``fill`` computed, before float32 rounds it): ``Game.observation_tensor``."""
        self.check(state, player)
        flat = np.zeros(self.size, np.float64)
        self.fill(cast(State, state), cast(int, player), self.views(flat))
        out: list[float] = flat.tolist()
        return out

    def check(self, state: object, player: object) -> None:
        """Refuse (:class:`BigtopError`) what makes no tensor: a state of another game or
        configuration than :attr:`game` (its pieces are sized for this one), and a player
        that is no seat of the state (:meth:`State.check_seat`; a spectator has no tensor,
        since seats in a tensor are counted from the observer). Checked here, before
        ``fill`` reads the observation, so that bad input is one clear error, never a
        KeyError or IndexError from inside a layout."""
        game = self.game
        if game is not None:
            theirs = getattr(state, "game", None)
            if theirs is not game and not (isinstance(theirs, Game) and theirs == game):
                what = f"a state of {theirs!r}" if isinstance(state, State) else shown(state)
                raise BigtopError(f"this tensor layout encodes the states of {game!r}, "
                                  f"not {what}")
        if isinstance(state, State):
            if player is None:
                raise IllegalActionError(
                    "a spectator has no observation tensor (seats in a tensor are counted "
                    f"from the observer); ask for a player 0..{state.game.num_players - 1}")
            state.check_seat(player, spectator=False)


def observer(obs: Mapping[str, Any]) -> int:
    """The seat whose observation this is; a spectator's view has no tensor, since seats in
    a tensor are counted from the observer."""
    me = obs["player"]
    if isinstance(me, bool) or not isinstance(me, int):
        raise ValueError("the observation tensor needs a player's observation, not a "
                         "spectator's (relative seats are counted from the observer)")
    return me
