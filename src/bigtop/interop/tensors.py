"""Fixed-size observation tensors for learning code (OpenSpiel, PettingZoo).

bigtop observations are JSON objects whose lengths vary (hands grow and shrink), while
OpenSpiel and PettingZoo want one fixed-length float vector per player. A
:class:`TensorLayout` turns ``state.observation(player)`` into named, fixed-shape pieces.
Every layout is computed **from the observation only**, so a tensor can never show what the
player may not see.

Which layout a game gets, first match wins:

1. the game's own: a ``Game`` subclass may define ``observation_tensor_shape()`` (a tuple of
   ints) and ``observation_tensor(state, player)`` (a sequence of floats of that size);
2. a layout registered here for the game's name (:data:`LAYOUTS`; SCOUT's is
   :class:`ScoutLayout`);
3. the generic fallback :class:`HashedJsonLayout`: every leaf of the observation JSON is
   hashed, by its path, into a vector of fixed length (documented in docs/interop.md).

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

import math
import zlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from bigtop.core.game import Game, State

FloatArray = npt.NDArray[np.float32]

#: Size of the generic hashed encoding.
DEFAULT_HASHED_SIZE = 1024


class TensorLayout(ABC):
    """A fixed-shape encoding of one player's observation, as named pieces."""

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


# -- 1. the game's own layout ---------------------------------------------------------------


class GameProvidedLayout(TensorLayout):
    """Wraps a game's own ``observation_tensor_shape()`` / ``observation_tensor()``."""

    bound = 1e6

    def __init__(self, game: Game) -> None:
        self.game = game
        shape = game.observation_tensor_shape()  # type: ignore[attr-defined]
        self.shape: tuple[int, ...] = tuple(int(x) for x in shape)

    def pieces(self) -> list[tuple[str, tuple[int, ...]]]:
        return [("observation", self.shape)]

    def fill(self, state: State, player: int, out: dict[str, FloatArray]) -> None:
        values = self.game.observation_tensor(state, player)  # type: ignore[attr-defined]
        out["observation"][...] = np.asarray(values, np.float32).reshape(self.shape)


# -- 3. the generic fallback --------------------------------------------------------------


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
        if size < 1:
            raise ValueError("the hashed encoding needs a size of at least 1")
        self.hashed_size = size
        self._cache: dict[str, int] = {}  # path -> index; paths repeat from call to call

    def pieces(self) -> list[tuple[str, tuple[int, ...]]]:
        return [("hashed_observation", (self.hashed_size,))]

    def fill(self, state: State, player: int, out: dict[str, FloatArray]) -> None:
        vec = out["hashed_observation"]
        self.encode(state.observation(player), vec)

    def encode(self, obs: object, vec: FloatArray) -> None:
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


def _one_hot(view: FloatArray, index: object) -> None:
    if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < view.shape[0]:
        view[index] = 1.0


def _card(view: FloatArray, card: Sequence[int] | None) -> None:
    """A SCOUT card [top, bottom] as two one-hots of 10 (values 1..10)."""
    if card is not None:
        view[card[0] - 1] = 1.0
        view[10 + card[1] - 1] = 1.0


class ScoutLayout(TensorLayout):
    """SCOUT's observation tensor (n players, H = the largest possible hand = n × hand size).

    ========== ============ ===============================================================
    piece      shape        meaning
    ========== ============ ===============================================================
    seat       (n,)         one-hot: the observing player
    to_act     (n,)         one-hot: the player to act (all zero when the game is over)
    start      (n,)         one-hot: the round's starting player
    phase      (3,)         one-hot: turn / insert (a scouted card to place) / show (after
                            Scout & Show)
    progress   (3,)         round index (0-based), rounds to play, 1 if the game is over
    hands      (n, H, 21)   per player and hand position: top number one-hot (1..10), bottom
                            number one-hot, then 1 if a card is there but its face is hidden
                            (another player's card never scouted from the table)
    hand_sizes (n,)         cards in each hand
    active     (H, 20)      the active set, left to right: top and bottom one-hots
    owner      (n + 1,)     one-hot: the active set's owner; the last entry = no active set
    captured   (n,)         captured cards per player (this round)
    scout      (n,)         scout tokens per player (this round)
    show_token (n,)         1 if that player's Scout & Show token is unused
    turned     (n,)         1 if that player's chance to turn the hand is used or gone
    pending    (20,)        the scouted card waiting to be inserted (top, bottom one-hots)
    unused     (1,)         cards left out of the deal
    totals     (n,)         total scores so far
    ========== ============ ===============================================================

    Seats are absolute (player 0 is entry 0), as in the bigtop observation.
    """

    bound = 1000.0

    def __init__(self, game: Game) -> None:
        self.n = game.num_players
        self.max_hand: int = game.max_hand  # type: ignore[attr-defined]

    def pieces(self) -> list[tuple[str, tuple[int, ...]]]:
        n, h = self.n, self.max_hand
        return [
            ("seat", (n,)), ("to_act", (n,)), ("start", (n,)), ("phase", (3,)),
            ("progress", (3,)), ("hands", (n, h, 21)), ("hand_sizes", (n,)),
            ("active", (h, 20)), ("owner", (n + 1,)), ("captured", (n,)), ("scout", (n,)),
            ("show_token", (n,)), ("turned", (n,)), ("pending", (20,)), ("unused", (1,)),
            ("totals", (n,)),
        ]

    def fill(self, state: State, player: int, out: dict[str, FloatArray]) -> None:
        obs = state.observation(player)
        _one_hot(out["seat"], obs["player"])
        _one_hot(out["to_act"], obs["to_act"])
        _one_hot(out["start"], obs["start_player"])
        phase = ("turn", "insert", "show").index(obs["phase"])
        out["phase"][phase] = 1.0
        out["progress"][:] = (obs["round"], obs["rounds"], 1.0 if obs["finished"] else 0.0)
        hands = out["hands"]
        for q, hand in enumerate(obs["hands"]):
            for i, card in enumerate(hand):
                if card is None:
                    hands[q, i, 20] = 1.0
                else:
                    _card(hands[q, i], card)
        out["hand_sizes"][:] = obs["hand_sizes"]
        for i, card in enumerate(obs["active"]):
            _card(out["active"][i], card)
        owner = obs["active_owner"]
        out["owner"][self.n if owner is None else owner] = 1.0
        out["captured"][:] = obs["captured"]
        out["scout"][:] = obs["scout_tokens"]
        out["show_token"][:] = [1.0 if t else 0.0 for t in obs["show_tokens"]]
        out["turned"][:] = [1.0 if t else 0.0 for t in obs["hand_decided"]]
        _card(out["pending"], obs["pending"])
        out["unused"][0] = obs["unused"]
        out["totals"][:] = obs["totals"]


#: Per-game layouts, by registry name. Games may instead define their own (see module doc).
LAYOUTS: dict[str, Callable[[Game], TensorLayout]] = {
    "scout": ScoutLayout,
}


def layout_for(game: Game) -> TensorLayout:
    """The tensor layout for ``game`` (see the module docstring for the order of choice)."""
    if callable(getattr(game, "observation_tensor_shape", None)) and callable(
            getattr(game, "observation_tensor", None)):
        return GameProvidedLayout(game)
    factory = LAYOUTS.get(game.name)
    if factory is not None:
        return factory(game)
    return HashedJsonLayout()


def layout_kind(game: Game) -> str:
    """``"game"``, ``"registered"`` or ``"hashed"``: where the game's layout comes from."""
    layout = layout_for(game)
    if isinstance(layout, GameProvidedLayout):
        return "game"
    if isinstance(layout, HashedJsonLayout):
        return "hashed"
    return "registered"
