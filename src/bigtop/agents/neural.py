"""Neural policies in numpy: a small policy-and-value network over a game's observation
tensor, the bots that use it, and the weights shipped with the package.

The network reads one seat's **egocentric** view: the game's observation tensor
(:func:`bigtop.interop.tensors.layout_for`) with every per-seat piece rotated so that the
observing seat comes first (the same network then plays every seat), restricted to the
entries that ever varied in its training data (:attr:`Network.columns`) and standardized.
A trunk of fully connected ReLU layers feeds two heads:

- **policy**: one logit per action of the game's fixed action encoding
  (``game.action_to_int``, ``game.num_distinct_actions()``); illegal actions are masked;
- **value**: the seat's points from here to the end of the round (``state.scores()`` at the
  round's end minus now), so ``scores() + value`` values a position as the planner's
  ``evaluate`` does.

The **action policy** (:class:`ActionPolicy`) is the second kind of network: it scores
each legal action from features of what the action moves beside the mover's view
(:func:`action_features_for`: each game declares its own in its capability record, SCOUT's
in ``games/scout/features.py``, Clown 15 Go's in ``games/clown15go/features.py``, So ein
Zirkus's in ``games/zirkus/features.py``), so it need not learn which hand positions hold
a set; the ``neural`` level searches its favourite candidates (:func:`action_profile`).

Inference needs numpy only; training is :mod:`bigtop.train` (``bigtop train GAME``, with
``--teacher`` for the action policy). The weights of each trained table live in
``agents/weights/<game>-<players>p.npz`` (the action policy's in ``…p-actions.npz``) with the
command, seed and training record beside them in a ``.json`` of the same name.

>>> from bigtop.core.registry import new_game
>>> g = new_game("scout", 4, {"rounds": 1})
>>> net = network_for(g)
>>> s = g.new_initial_state(3)
>>> a = NeuralPolicyAgent(net).act(s)
>>> a in s.legal_actions() and a == NeuralPolicyAgent(net).act(s.clone())
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from bigtop.agents.base import Agent
from bigtop.agents.ismcts import SearchProfile
from bigtop.core.actions import Action
from bigtop.core.capabilities import ActionFeatures
from bigtop.core.errors import BigtopError
from bigtop.core.game import Game, State, seat_to_act
from bigtop.core.registry import capabilities, game_names
from bigtop.interop.tensors import layout_for

F32 = npt.NDArray[np.float32]
W = TypeVar("W")
I64 = npt.NDArray[np.int64]

WEIGHTS_DIR = Path(__file__).parent / "weights"
"""The shipped weights (package data)."""

SEAT_PIECES: dict[str, frozenset[str]] = {
    "scout": frozenset({"seat", "to_act", "start", "hands", "hand_sizes", "captured",
                        "scout", "show_token", "turned", "totals", "owner"}),
}
"""Per game, the pieces of its observation tensor indexed by seat first (rotated so that
the observer comes first). A piece of ``players + 1`` entries (SCOUT's ``owner``: the last
one means nobody) rotates its first ``players``. Games not named here keep absolute
seats (their tensor's own seat one-hot tells the network which seat it is)."""


def scout_summary(state: State, player: int) -> list[float]:
    """What SCOUT's rules of thumb read from the seat's own hand and the table, which a small
    network could not easily learn from card one-hots by position: the hand's value
    (``games/scout/bot.py``'s sets measure) and the turned hand's, whether it may still be
    turned, the cards in hand, its longest set and how many sets it has, how many of them
    beat the active set, the longest of those, whether one empties the hand, and the active
    set's size. Only the seat's own cards and public facts: fair."""
    from bigtop.games.scout.bot import _hand_value
    from bigtop.games.scout.rules import ScoutState, _valid_sets

    assert isinstance(state, ScoutState)
    hand = state.hands[player]
    tops = [c[0] for c in hand]
    n = len(tops)
    sets = [(length, strength) for _, length, strength in _valid_sets(tops) if length > 1]
    beat = state.active_strength()
    beating = [length for _, length, strength in _valid_sets(tops) if strength > beat]
    return [_hand_value(tops) / 10.0, _hand_value([c[1] for c in reversed(hand)]) / 10.0,
            0.0 if state.hand_decided[player] else 1.0, float(n),
            float(max((length for length, _ in sets), default=1)), float(len(sets)),
            float(len(beating)), float(max(beating, default=0)),
            1.0 if n and max(beating, default=0) == n else 0.0, float(len(state.active))]


SUMMARIES: dict[str, tuple[int, Callable[[State, int], list[float]]]] = {
    "scout": (10, scout_summary),
}
"""Per game, summary features appended to the observation tensor (their number and the
function): the rules of thumb's own measures of a position, seen by the seat."""


class Encoder:
    """One seat's egocentric view of a state as a float vector (see the module doc)."""

    def __init__(self, game: Game) -> None:
        self.layout = layout_for(game)
        n = game.num_players
        self.players = n
        seated = SEAT_PIECES.get(game.name, frozenset())
        index = np.arange(self.layout.size, dtype=np.int64)
        self.summary = SUMMARIES.get(game.name)
        self.size = self.layout.size + (self.summary[0] if self.summary else 0)
        # perms[p][i]: the entry of p's absolute tensor that is entry i of p's own view.
        self.perms: list[I64] = []
        for p in range(n):
            views = self.layout.views(index)
            parts = []
            for name, _ in self.layout.pieces():
                v = np.asarray(views[name])
                if name in seated and v.shape[0] in (n, n + 1):
                    head = np.roll(v[:n], -p, axis=0)
                    v = np.concatenate([head, v[n:]]) if v.shape[0] == n + 1 else head
                parts.append(v.reshape(-1))
            extra = np.arange(self.layout.size, self.size, dtype=np.int64)
            self.perms.append(np.concatenate([*parts, extra]).astype(np.int64))
        self._flat = np.zeros(self.size, np.float32)
        self._views = self.layout.views(self._flat[:self.layout.size])

    def encode(self, state: State, player: int) -> F32:
        flat = self._flat
        flat[:] = 0.0
        self.layout.fill(state, player, self._views)
        if self.summary is not None:
            flat[self.layout.size:] = self.summary[1](state, player)
        out: F32 = flat[self.perms[player]]
        return out


@dataclass
class Network:
    """A trunk of ReLU layers with a policy head and a value head (see the module doc).

    ``columns``: the encoder's entries the network reads; ``mean``/``scale``: their
    standardization; ``trunk``: ``(W, b)`` per layer; ``policy``/``value``: the heads;
    ``value_scale``: the value head's unit in points; ``meta``: the training record."""

    columns: I64
    mean: F32
    scale: F32
    trunk: list[tuple[F32, F32]]
    policy: tuple[F32, F32]
    value: tuple[F32, F32]
    value_scale: float = 10.0
    meta: dict[str, Any] = field(default_factory=dict)

    def inputs(self, features: F32) -> F32:
        """Standardized network inputs from encoder features (one row per view)."""
        x: F32 = (features[..., self.columns] - self.mean) / self.scale
        return x

    def hidden(self, x: F32) -> F32:
        h = x
        for w, b in self.trunk:
            h = np.maximum(h @ w + b, 0.0)
        return h

    def forward(self, features: F32) -> tuple[F32, F32]:
        """Policy logits ``(B, actions)`` and values in points ``(B,)`` for a batch of
        encoder feature rows ``(B, size)``.

        The standardization is folded into the first layer, which then reads only the
        features that are not zero (a view is mostly zeros: one-hots of a few cards), so a
        forward pass costs little more than the other layers."""
        w1, b1 = self._folded()
        nz = np.flatnonzero(features.any(axis=0))
        nz = nz[nz < len(w1)]  # features after the last column: never read
        h = np.maximum(features[:, nz] @ w1[nz] + b1, 0.0)
        for w, b in self.trunk[1:]:
            h = np.maximum(h @ w + b, 0.0)
        logits: F32 = h @ self.policy[0] + self.policy[1]
        v: F32 = (h @ self.value[0] + self.value[1])[:, 0] * np.float32(self.value_scale)
        return logits, v

    def _folded(self) -> tuple[F32, F32]:
        """The first layer over every encoder feature: ``W / scale`` in the columns' rows
        (zero elsewhere) and the bias less the mean's share."""
        folded: tuple[F32, F32] | None = self.__dict__.get("_fold")
        if folded is None:
            w, b = self.trunk[0]
            size = int(self.columns.max()) + 1 if len(self.columns) else 0
            full = np.zeros((size, w.shape[1]), np.float32)
            full[self.columns] = w / self.scale[:, None]
            folded = (full, (b - (self.mean / self.scale) @ w).astype(np.float32))
            self.__dict__["_fold"] = folded
        return folded

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_fold"}

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        out: dict[str, npt.NDArray[Any]] = {"columns": self.columns, "mean": self.mean,
                                            "scale": self.scale,
                                            "value_scale": np.asarray(self.value_scale, np.float32)}
        for i, (w, b) in enumerate(self.trunk):
            out[f"trunk{i}_w"], out[f"trunk{i}_b"] = w, b
        out["policy_w"], out["policy_b"] = self.policy
        out["value_w"], out["value_b"] = self.value
        return out

    def save(self, path: Path) -> None:
        """The weights to ``path`` (.npz) and :attr:`meta` beside it (.json)."""
        save_weights(path, self.arrays(), self.meta)

    @classmethod
    def from_arrays(cls, a: Any, meta: dict[str, Any] | None = None) -> Network:
        return cls(np.asarray(a["columns"], np.int64), np.asarray(a["mean"], np.float32),
                   np.asarray(a["scale"], np.float32), read_layers(a, "trunk"),
                   (np.asarray(a["policy_w"], np.float32), np.asarray(a["policy_b"], np.float32)),
                   (np.asarray(a["value_w"], np.float32), np.asarray(a["value_b"], np.float32)),
                   float(a["value_scale"]), dict(meta or {}))

    @classmethod
    def load(cls, path: Path) -> Network:
        """Weights saved by :meth:`save` (and their .json record, when there is one)."""
        return load_weights(path, "network weights", cls.from_arrays)


def save_weights(path: Path, arrays: dict[str, npt.NDArray[Any]],
                 meta: dict[str, Any]) -> None:
    """``arrays`` to ``path`` (.npz) and ``meta``, their record, beside it (.json)."""
    write_npz(path, arrays)
    path.with_suffix(".json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")


def load_weights(path: Path, what: str,
                 build: Callable[[Any, dict[str, Any]], W]) -> W:
    """``build(arrays, record)`` from the .npz at ``path`` and its .json record (empty when
    there is none); a clear error naming ``what`` for a missing or unreadable file."""
    if not path.exists():
        raise BigtopError(f"no {what} at {path}")
    try:
        with np.load(path, allow_pickle=False) as a:
            meta_path = path.with_suffix(".json")
            meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
            return build(a, meta)
    except (OSError, ValueError, KeyError) as e:
        raise BigtopError(f"{path}: not {what} ({e})") from None


def read_layers(a: Any, prefix: str) -> list[tuple[F32, F32]]:
    """The dense layers ``{prefix}0_w``, ``{prefix}0_b``, ``{prefix}1_w``, … of ``a``."""
    layers = []
    i = 0
    while f"{prefix}{i}_w" in a:
        layers.append((np.asarray(a[f"{prefix}{i}_w"], np.float32),
                       np.asarray(a[f"{prefix}{i}_b"], np.float32)))
        i += 1
    return layers


def write_npz(path: Path, arrays: dict[str, npt.NDArray[Any]]) -> None:
    """``arrays`` to a compressed .npz at ``path`` (its folder made)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        np.savez_compressed(f, **arrays)  # type: ignore[arg-type]  # (numpy's stub)


def weights_path(game_name: str, players: int) -> Path:
    return WEIGHTS_DIR / f"{game_name}-{players}p.npz"


_LOADED: dict[tuple[str, int], Network] = {}


def network_for(game: Game) -> Network:
    """The shipped network of ``game``'s table (loaded once per process)."""
    key = (game.name, game.num_players)
    net = _LOADED.get(key)
    if net is None:
        path = weights_path(*key)
        if not path.exists():
            raise BigtopError(f"no trained network for {game.name} with {game.num_players} "
                              f"players (tables with one: {', '.join(trained_tables())})")
        net = _LOADED[key] = Network.load(path)
    return net


def trained_tables() -> list[str]:
    """The shipped networks' tables, e.g. ``scout-4p``."""
    return sorted(p.stem for p in WEIGHTS_DIR.glob("*.npz")
                  if not p.stem.endswith(ACTIONS_SUFFIX))


_ENCODERS: dict[Game, Encoder] = {}


def encoder_for(game: Game) -> Encoder:
    enc = _ENCODERS.get(game)
    if enc is None:
        if len(_ENCODERS) > 16:
            _ENCODERS.clear()
        enc = _ENCODERS[game] = Encoder(game)
    return enc


def masked_best(logits: F32, legal: Sequence[int]) -> int:
    """The index into ``legal`` of the highest logit (the first of equals)."""
    return int(np.argmax(logits[np.asarray(legal, np.int64)]))


class NeuralPolicyAgent:
    """Plays the policy head's most likely legal action (a forward pass a move, no search);
    deterministic. ``net``: the game's shipped network when ``None``."""

    name = "policy"

    def __init__(self, net: Network | None = None) -> None:
        self.net = net

    def act(self, state: State) -> Action:
        seat_to_act(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        game = state.game
        net = self.net or network_for(game)
        p = state.current_player()
        logits, _ = net.forward(encoder_for(game).encode(state, p)[None, :])
        return legal[masked_best(logits[0], [game.action_to_int(a) for a in legal])]


class NeuralValue:
    """A search profile's ``evaluate`` from the value head: every seat's ``scores()`` plus
    the points the network expects it to make in the rest of the round, each from that
    seat's own view (one batched forward pass). Picklable (the network is loaded again in
    a worker)."""

    def __init__(self, net: Network | None = None) -> None:
        self.net = net

    def __call__(self, state: State) -> list[float]:
        game = state.game
        scores = state.scores()
        if state.is_terminal():
            return scores
        net = self.net or network_for(game)
        enc = encoder_for(game)
        rows = np.stack([enc.encode(state, q) for q in range(game.num_players)])
        _, v = net.forward(rows)
        return [s + float(x) for s, x in zip(scores, v, strict=True)]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NeuralValue) and other.net is self.net

    def __hash__(self) -> int:
        return id(self.net)


class NeuralCandidates:
    """A search profile's ``candidates``: of the profile's own candidates (all legal
    actions without), the ``top`` the policy head likes best — the network as a prior that
    prunes what the planner tries."""

    def __init__(self, base: Callable[[State], Sequence[Action]] | None, top: int,
                 net: Network | None = None) -> None:
        self.base = base
        self.top = top
        self.net = net

    def __call__(self, state: State) -> Sequence[Action]:
        options = list(self.base(state)) if self.base is not None else state.legal_actions()
        if len(options) <= self.top:
            return options
        game = state.game
        net = self.net or network_for(game)
        logits, _ = net.forward(encoder_for(game).encode(state, state.current_player())[None])
        ranked = np.argsort(-logits[0][[game.action_to_int(a) for a in options]],
                            kind="stable")
        return [options[int(i)] for i in ranked[:self.top]]

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, NeuralCandidates) and other.base is self.base
                and other.top == self.top and other.net is self.net)

    def __hash__(self) -> int:
        return hash((self.top, id(self.net)))


class PolicyRollout:
    """A search profile's ``rollout``: the policy head plays every seat of a rollout (the
    others' likely moves)."""

    def __init__(self, net: Network | None = None) -> None:
        self.net = net

    def __call__(self, game: Game, seat: int) -> NeuralPolicyAgent:
        return NeuralPolicyAgent(self.net)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PolicyRollout) and other.net is self.net

    def __hash__(self) -> int:
        return id(self.net)


@dataclass(frozen=True)
class NeuralSearch:
    """How the planner uses the network: rollouts of ``horizon`` moves (the game's rollout
    bot, or the policy head with ``policy_rollouts``), then the value head; with ``top``
    only the policy's ``top`` favourite candidates are tried."""

    horizon: int = 2
    top: int | None = None
    policy_rollouts: bool = False


def neural_profile(base: SearchProfile, how: NeuralSearch,
                   net: Network | None = None) -> SearchProfile:
    """``base`` (the game's search profile) with the network in it as ``how`` says.

    >>> from bigtop.core.registry import new_game
    >>> from bigtop.agents.levels import search_profile
    >>> p = neural_profile(search_profile(new_game("scout", 4)), NeuralSearch(horizon=3))
    >>> p.horizon, isinstance(p.evaluate, NeuralValue)
    (3, True)
    """
    if how.horizon < 1:
        raise BigtopError(f"the horizon must be at least 1 move, got {how.horizon}")
    profile = replace(base, evaluate=NeuralValue(net), horizon=how.horizon,
                      summary=(f"{'policy' if how.policy_rollouts else 'rule-of-thumb'} "
                               f"rollouts for {how.horizon} moves, then the value network"
                               + (f"; the policy network's {how.top} favourite moves"
                                  if how.top else "")))
    if how.top is not None:
        profile = replace(profile, candidates=NeuralCandidates(base.candidates, how.top, net))
    if how.policy_rollouts:
        profile = replace(profile, rollout=PolicyRollout(net))
    return profile


# -- the action-scoring policy ------------------------------------------------------------

ACTIONS_SUFFIX = "-actions"
"""The action policy of a table is shipped as ``<game>-<players>p-actions.npz``."""

def action_features_for(game: Game) -> ActionFeatures:
    """The game's action features (their number and the function): each legal action
    described by what it moves, beside the mover's view of the position, as the game's
    capability record declares them (``action_features``: SCOUT's in
    ``games/scout/features.py``, Clown 15 Go's in ``games/clown15go/features.py``, So ein
    Zirkus's in ``games/zirkus/features.py``)."""
    declared = capabilities(game.name).action_features
    if declared is None:
        have = [name for name in game_names() if capabilities(name).action_features]
        raise BigtopError(f"no action features for {game.name} (games with them: "
                          f"{', '.join(have)})")
    return declared


@dataclass
class ActionPolicy:
    """Scores each legal action from its features (:func:`action_features_for`): the
    standardized row through ReLU layers to one number; the policy is the softmax of the
    scores over the legal actions. One network scores every action of every kind, so what
    it learns of one Show holds for every Show of that shape, wherever it lies in the hand.

    ``mean``/``scale``: the features' standardization; ``layers``: ``(W, b)`` per ReLU layer;
    ``out``: the score's ``(w, b)``; ``meta``: the training record."""

    mean: F32
    scale: F32
    layers: list[tuple[F32, F32]]
    out: tuple[F32, F32]
    meta: dict[str, Any] = field(default_factory=dict)

    def scores(self, rows: F32) -> F32:
        """One score per row of features ``(R, features)``."""
        h: F32 = (rows - self.mean) / self.scale
        for w, b in self.layers:
            h = np.maximum(h @ w + b, 0.0)
        s: F32 = (h @ self.out[0] + self.out[1])[:, 0]
        return s

    def score_actions(self, state: State, legal: Sequence[Action]) -> F32:
        rows = action_features_for(state.game)[1](state, legal)
        return self.scores(np.asarray(rows, np.float32))

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        out: dict[str, npt.NDArray[Any]] = {"mean": self.mean, "scale": self.scale}
        for i, (w, b) in enumerate(self.layers):
            out[f"layer{i}_w"], out[f"layer{i}_b"] = w, b
        out["out_w"], out["out_b"] = self.out
        return out

    def save(self, path: Path) -> None:
        """The weights to ``path`` (.npz) and :attr:`meta` beside it (.json)."""
        save_weights(path, self.arrays(), self.meta)

    @classmethod
    def from_arrays(cls, a: Any, meta: dict[str, Any] | None = None) -> ActionPolicy:
        return cls(np.asarray(a["mean"], np.float32), np.asarray(a["scale"], np.float32),
                   read_layers(a, "layer"), (np.asarray(a["out_w"], np.float32),
                            np.asarray(a["out_b"], np.float32)), dict(meta or {}))

    @classmethod
    def load(cls, path: Path) -> ActionPolicy:
        """Weights saved by :meth:`save` (and their .json record, when there is one)."""
        return load_weights(path, "action policy weights", cls.from_arrays)


_POLICIES: dict[tuple[str, int], ActionPolicy] = {}


def action_policy_for(game: Game) -> ActionPolicy:
    """The shipped action policy of ``game``'s table (loaded once per process)."""
    key = (game.name, game.num_players)
    policy = _POLICIES.get(key)
    if policy is None:
        path = WEIGHTS_DIR / f"{game.name}-{game.num_players}p{ACTIONS_SUFFIX}.npz"
        if not path.exists():
            have = sorted(p.stem.removesuffix(ACTIONS_SUFFIX)
                          for p in WEIGHTS_DIR.glob(f"*{ACTIONS_SUFFIX}.npz"))
            raise BigtopError(f"no trained network for {game.name} with {game.num_players} "
                              f"players (tables with one: {', '.join(have)})")
        policy = _POLICIES[key] = ActionPolicy.load(path)
    return policy


class ActionPolicyAgent:
    """Plays the action policy's best-scored legal action (no search); deterministic.
    ``policy``: the table's shipped one when ``None``."""

    name = "action-policy"

    def __init__(self, policy: ActionPolicy | None = None) -> None:
        self.policy = policy

    def act(self, state: State) -> Action:
        seat_to_act(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        policy = self.policy or action_policy_for(state.game)
        return legal[int(np.argmax(policy.score_actions(state, legal)))]


class ActionRollout:
    """A search profile's ``rollout``: the action policy plays every seat of a rollout (a
    model of how the others play learned from a stronger player's moves); with ``first``,
    only each seat's first ``first`` moves of a rollout (the replies to the searched move),
    the profile's own rollout bot ``base`` the rest (a policy move costs several of the
    rule of thumb's)."""

    def __init__(self, policy: ActionPolicy | None = None, first: int | None = None,
                 base: Callable[[Game, int], Agent] | None = None) -> None:
        if first is not None and base is None:
            raise BigtopError("a rollout policy for the first moves only needs a base bot")
        self.policy = policy
        self.first = first
        self.base = base

    def __call__(self, game: Game, seat: int) -> Agent:
        if self.first is None or self.base is None:
            return ActionPolicyAgent(self.policy)
        return _FirstMoves(ActionPolicyAgent(self.policy), self.first, self.base(game, seat))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, ActionRollout) and other.policy is self.policy
                and other.first == self.first and other.base is self.base)

    def __hash__(self) -> int:
        return hash((id(self.policy), self.first))


class _FirstMoves:
    """``head`` for this seat's first ``count`` decisions, then ``tail``."""

    name = "first-moves"

    def __init__(self, head: Agent, count: int, tail: Agent) -> None:
        self.head = head
        self.left = count
        self.tail = tail

    def act(self, state: State) -> Action:
        if self.left > 0:
            self.left -= 1
            return self.head.act(state)
        return self.tail.act(state)


class ActionCandidates:
    """A search profile's ``candidates``: of the profile's own candidates (all legal actions
    without), the ``top`` the action policy scores best — the policy as a prior that prunes
    what the planner tries."""

    def __init__(self, base: Callable[[State], Sequence[Action]] | None, top: int,
                 policy: ActionPolicy | None = None) -> None:
        self.base = base
        self.top = top
        self.policy = policy

    def __call__(self, state: State) -> Sequence[Action]:
        options = list(self.base(state)) if self.base is not None else state.legal_actions()
        if len(options) <= self.top:
            return options
        policy = self.policy or action_policy_for(state.game)
        # Scored among all legal actions, as in training (some features rank an action
        # among the others), then ranked among the candidates.
        legal = state.legal_actions()
        score = dict(zip(legal, policy.score_actions(state, legal).tolist(), strict=True))
        ranked = sorted(range(len(options)), key=lambda i: -score[options[i]])
        return [options[i] for i in ranked[:self.top]]

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, ActionCandidates) and other.base is self.base
                and other.top == self.top and other.policy is self.policy)

    def __hash__(self) -> int:
        return hash((self.top, id(self.policy)))


def action_profile(base: SearchProfile, top: int | None = None, first: int | None = None,
                   policy: ActionPolicy | None = None) -> SearchProfile:
    """``base`` (the game's search profile) with the action policy in it: with ``top``, a
    prior that keeps only the policy's ``top`` favourite candidates; with ``first``, the
    model of the others' replies (each seat's first ``first`` moves of every rollout).

    >>> from bigtop.core.registry import new_game
    >>> from bigtop.agents.levels import search_profile
    >>> p = action_profile(search_profile(new_game("scout", 4)), top=3)
    >>> isinstance(p.candidates, ActionCandidates), p.summary.endswith("favourite moves")
    (True, True)
    """
    if top is not None and top < 1:
        raise BigtopError(f"the policy must keep at least 1 candidate, got {top}")
    profile = base
    words = []
    if top is not None:
        profile = replace(profile, candidates=ActionCandidates(base.candidates, top, policy))
        words.append(f"the action policy's {top} favourite moves")
    if first is not None:
        profile = replace(profile, rollout=ActionRollout(policy, first, base.rollout))
        words.insert(0, f"the action policy's replies ({first} a seat)")
    return replace(profile, summary=f"{base.summary}; " + ", ".join(words))
