"""Fixed-size observation tensors for learning code (OpenSpiel, PettingZoo).

bigtop observations are JSON objects whose lengths vary (hands grow and shrink), while
OpenSpiel and PettingZoo want one fixed-length float vector per player. A
:class:`~bigtop.core.tensor.TensorLayout` turns ``state.observation(player)`` into named,
fixed-shape pieces, numpy views into one flat array. Every layout is computed **from the
observation only**, so a tensor can never show what the player may not see.

A game's layout is the one its capability record declares (``observation_tensor``: each
game's ``tensor.py``, e.g. :class:`bigtop.games.scout.tensor.ScoutLayout`); a game that
declares none gets the generic :class:`HashedJsonLayout`: every leaf of the observation
JSON is hashed, by its path, into a vector of fixed length (documented in docs/interop.md).

>>> from bigtop import new_state
>>> s = new_state("scout", players=3, seed=1)
>>> layout = layout_for(s.game)
>>> type(layout).__name__, layout.size
('ScoutLayout', 3046)
>>> t = layout.tensor(s, 0)
>>> t.shape, float(t[:3].sum())   # "seat" is a one-hot of the observing player
((3046,), 1.0)
>>> HashedJsonLayout(64).tensor(s, 1).shape
(64,)
"""

from __future__ import annotations

import zlib

import numpy as np

from bigtop.core.errors import BigtopError, shown
from bigtop.core.game import Game, State
from bigtop.core.registry import capabilities
from bigtop.core.tensor import FloatArray, FloatView, TensorLayout, Views

__all__ = ["DEFAULT_HASHED_SIZE", "FloatArray", "HashedJsonLayout", "TensorLayout", "layout_for"]

#: Size of the generic hashed encoding.
DEFAULT_HASHED_SIZE = 1024


# -- the generic fallback ------------------------------------------------------------------


def _bucket(text: str, size: int) -> int:
    # crc32, not hash(): stable across processes and PYTHONHASHSEED.
    return zlib.crc32(text.encode()) % size


class HashedJsonLayout(TensorLayout):
    """Generic encoding of any observation JSON into ``size`` floats ("feature hashing").

    The JSON is walked depth-first; each leaf has a path such as ``hands/1/3/0``. A number
    (or bool, as 0/1) at path ``P`` is added at index ``crc32(P) % size``; a string ``s`` or a
    null adds 1 at ``crc32(P + "=" + s)`` (``"=null"``). Distinct leaves may collide (their
    values add up); the sum is clipped to ``[-bound, bound]``. Good enough to train on a game
    nobody wrote a layout for, but a real layout (see :class:`ScoutLayout`) is better.
    """

    bound = 1e6

    def __init__(self, size: int = DEFAULT_HASHED_SIZE) -> None:
        if type(size) is not int or size < 1:
            raise BigtopError(f"the hashed encoding needs a whole size of at least 1, "
                              f"got {shown(size)}")
        self.hashed_size = size
        self._cache: dict[str, int] = {}  # path -> index; paths repeat from call to call

    def pieces(self) -> list[tuple[str, tuple[int, ...]]]:
        return [("hashed_observation", (self.hashed_size,))]

    def check(self, state: object, player: object) -> None:
        """As :meth:`TensorLayout.check`, for a state of any game (it has no game of its
        own): anything that is no state is refused too."""
        if not isinstance(state, State):
            raise BigtopError(f"the hashed encoding reads a state's observation, not "
                              f"{shown(state)}")
        super().check(state, player)

    def fill(self, state: State, player: int, out: Views) -> None:
        vec = out["hashed_observation"]
        self.encode(state.observation(player), vec)

    def encode(self, obs: object, vec: FloatView) -> None:
        """Add the hashed leaves of ``obs`` into ``vec`` (then clip)."""
        acc: dict[int, float] = {}
        self._walk("", obs, acc)
        for i, x in acc.items():
            vec[i] += x
        np.clip(vec, -self.bound, self.bound, out=vec)

    def _index(self, key: str) -> int:
        i = self._cache.get(key)
        if i is None:
            i = self._cache[key] = _bucket(key, self.hashed_size)
        return i

    def _walk(self, path: str, v: object, acc: dict[int, float]) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                self._walk(f"{path}/{k}", x, acc)
        elif isinstance(v, list | tuple):
            for i, x in enumerate(v):
                self._walk(f"{path}/{i}", x, acc)
        else:
            if isinstance(v, bool):
                key, x = path, 1.0 if v else 0.0
            elif isinstance(v, int | float):
                key, x = path, float(v)
            elif v is None:
                key, x = path + "=null", 1.0
            else:
                key, x = f"{path}={v}", 1.0
            i = self._index(key)
            acc[i] = acc.get(i, 0.0) + x


# -- 2. layouts registered per game -------------------------------------------------------


def layout_for(game: Game) -> TensorLayout:
    """The tensor layout for ``game``: the one its capability record declares, else the
    generic :class:`HashedJsonLayout`."""
    if not isinstance(game, Game):
        raise BigtopError(f"a tensor layout is made for a game (bigtop.new_game), not "
                          f"{shown(game)}")
    make = capabilities(game.name).observation_tensor
    return HashedJsonLayout() if make is None else make(game)
