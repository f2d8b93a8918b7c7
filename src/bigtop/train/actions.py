"""Training the action-scoring policy (:class:`~bigtop.agents.neural.ActionPolicy`) to play
as a teacher plays: every decision of the teacher's games (:mod:`.imitate`) is a softmax
over its legal actions' scores, and the loss is the cross-entropy of the teacher's move.

The gradients are by hand (checked against finite differences in ``tests/train``) and the
optimizer is :class:`~bigtop.train.learn.Adam`; the initialization and the minibatch order
are seeded, so the same games and seed give the same weights.

>>> rng = np.random.default_rng(1)
>>> data = Decisions(rng.normal(size=(7, 3)).astype(np.float32), np.array([0, 3, 7]),
...                  np.array([1, 2]))
>>> policy = init_policy(rng, data, hidden=(4,))
>>> loss, grads = loss_and_grads(policy, data, np.array([0, 1]))
>>> sorted(grads) == sorted(policy_parameters(policy)) and loss > 0
True
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bigtop.agents.neural import F32, ActionPolicy, action_features_for
from bigtop.core.rng import derive_seed
from bigtop.train.imitate import TeacherGame, replay
from bigtop.train.selfplay import Table

I64 = npt.NDArray[np.int64]


@dataclass
class Decisions:
    """Decisions as arrays: every legal action's features (``rows``), decision ``d``'s
    actions being ``rows[ptr[d]:ptr[d + 1]]``, and the index among them of the move played
    (``choice``)."""

    rows: F32
    ptr: I64
    choice: I64

    def __len__(self) -> int:
        return len(self.choice)

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        return {"rows": self.rows, "ptr": self.ptr, "choice": self.choice}

    @classmethod
    def from_arrays(cls, a: Any) -> Decisions:
        return cls(np.asarray(a["rows"], np.float32), np.asarray(a["ptr"], np.int64),
                   np.asarray(a["choice"], np.int64))

    def subset(self, ds: npt.NDArray[Any]) -> Decisions:
        """The decisions ``ds`` (in that order)."""
        starts = self.ptr[ds]
        lengths = self.ptr[np.asarray(ds) + 1] - starts
        first = np.repeat(np.cumsum(lengths) - lengths, lengths)
        at = np.repeat(starts, lengths) + np.arange(int(lengths.sum())) - first
        ptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        return Decisions(self.rows[at], ptr, self.choice[ds])


def decisions(table: Table, games: list[TeacherGame]) -> Decisions:
    """Every decision of ``games`` with more than one legal action."""
    game = table.new_game()
    _, features = action_features_for(game)
    rows: list[list[float]] = []
    ptr = [0]
    choice: list[int] = []
    for g in games:
        for state, move in replay(table, g):
            legal = state.legal_actions()
            if len(legal) < 2:
                continue
            ints = [game.action_to_int(a) for a in legal]
            rows.extend(features(state, legal))
            ptr.append(len(rows))
            choice.append(ints.index(move))
    return Decisions(np.asarray(rows, np.float32).reshape(len(rows), -1),
                     np.asarray(ptr, np.int64), np.asarray(choice, np.int64))


def init_policy(rng: np.random.Generator, data: Decisions,
                hidden: tuple[int, ...]) -> ActionPolicy:
    """He-initialized ReLU layers over the data's standardized features, a small output."""
    mean = data.rows.mean(axis=0).astype(np.float32)
    scale = np.maximum(data.rows.std(axis=0), 0.05).astype(np.float32)
    sizes = [data.rows.shape[1], *hidden]
    layers = [((rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32),
               np.zeros(b, np.float32)) for a, b in itertools.pairwise(sizes)]
    out = ((rng.standard_normal((sizes[-1], 1)) * 0.01).astype(np.float32),
           np.zeros(1, np.float32))
    return ActionPolicy(mean, scale, layers, out)


def policy_parameters(policy: ActionPolicy) -> dict[str, F32]:
    """The trainable arrays by name (views: updating them updates the policy)."""
    out: dict[str, F32] = {}
    for i, (w, b) in enumerate(policy.layers):
        out[f"layer{i}_w"], out[f"layer{i}_b"] = w, b
    out["out_w"], out["out_b"] = policy.out
    return out


def loss_and_grads(policy: ActionPolicy, data: Decisions, ds: npt.NDArray[Any],
                   weight_decay: float = 1e-4) -> tuple[float, dict[str, F32]]:
    """The mean cross-entropy of the teacher's moves over the decisions ``ds`` and its
    gradient."""
    batch = data.subset(ds)
    n = len(batch)
    starts = batch.ptr[:-1]
    lengths = np.diff(batch.ptr)
    seg = np.repeat(np.arange(n), lengths)
    h: F32 = (batch.rows - policy.mean) / policy.scale
    acts = [h]
    for w, b in policy.layers:
        h = np.maximum(h @ w + b, 0.0)
        acts.append(h)
    s: F32 = (h @ policy.out[0] + policy.out[1])[:, 0]
    top = np.maximum.reduceat(s, starts)
    e = np.exp(s - top[seg])
    z = np.add.reduceat(e, starts)
    probs = e / z[seg]
    chosen = starts + batch.choice
    loss = float(-np.mean(np.log(probs[chosen] + 1e-12)))
    diff = probs.copy()
    diff[chosen] -= 1.0
    d_s: F32 = (diff / n).astype(np.float32)[:, None]
    grads: dict[str, F32] = {"out_w": h.T @ d_s, "out_b": d_s.sum(axis=0)}
    dh = d_s @ policy.out[0].T
    for i in range(len(policy.layers) - 1, -1, -1):
        dz = dh * (acts[i + 1] > 0)
        w = policy.layers[i][0]
        grads[f"layer{i}_w"] = acts[i].T @ dz + weight_decay * w
        grads[f"layer{i}_b"] = dz.sum(axis=0)
        if i:
            dh = dz @ w.T
    return loss, {k: g.astype(np.float32) for k, g in grads.items()}


def accuracy(policy: ActionPolicy, data: Decisions, top: int = 1) -> float:
    """How often the teacher's move is among the policy's ``top`` best-scored actions (the
    first of equals first)."""
    s = policy.scores(data.rows)
    hits = 0
    for d in range(len(data)):
        lo, hi = data.ptr[d], data.ptr[d + 1]
        ranked = np.argsort(-s[lo:hi], kind="stable")
        hits += int(data.choice[d] in ranked[:top])
    return hits / max(len(data), 1)


def fit(data: Decisions, seed: int, hidden: tuple[int, ...], epochs: int, batch: int = 256,
        lr: float = 1e-3, held_out: float = 0.1,
        progress: Any = None) -> tuple[ActionPolicy, dict[str, float]]:
    """A policy fitted to ``data`` (all but a seeded ``held_out`` share of its decisions),
    and its record: the losses and the teacher-move accuracy on both parts."""
    from bigtop.train.learn import Adam

    rng = np.random.default_rng(derive_seed(seed, "actions"))
    order = rng.permutation(len(data))
    cut = int(len(data) * held_out)
    test, train = np.sort(order[:cut]), order[cut:]
    policy = init_policy(np.random.default_rng(derive_seed(seed, "actions-init")),
                         data.subset(train), hidden)
    adam = Adam(lr=lr)
    params = policy_parameters(policy)
    batches = max(1, len(train) // batch)
    loss = 0.0
    for epoch in range(epochs):
        rng.shuffle(train)
        total = 0.0
        for b in range(batches):
            value, grads = loss_and_grads(policy, data, train[b * batch:(b + 1) * batch])
            adam.update(params, grads)
            total += value
            if progress is not None:
                progress("training the action policy", epoch * batches + b + 1,
                         epochs * batches)
        loss = total / batches
    record = {"decisions": len(data), "train_loss": round(loss, 4)}
    if cut:
        held = data.subset(test)
        record["held_out_loss"] = round(loss_and_grads(policy, held, np.arange(cut))[0], 4)
        record["held_out_accuracy"] = round(accuracy(policy, held), 4)
        record["held_out_top3"] = round(accuracy(policy, held, 3), 4)
    return policy, record


@dataclass(frozen=True)
class ImitationConfig:
    """An imitation run's settings (``config.json``; ``bigtop train GAME --teacher NAME``)."""

    table: Table
    teacher: str
    seed: int = 1
    games: int = 400
    hidden: tuple[int, ...] = (64, 32)
    epochs: int = 12
    batch: int = 256
    lr: float = 1e-3
    eval_games: int = 200
    yardsticks: tuple[str, ...] = ("easy", "heuristic")

    def to_json(self) -> dict[str, Any]:
        from dataclasses import asdict

        d = asdict(self)
        d["table"]["options"] = dict(self.table.options)
        return d


def evaluate_policy(policy: ActionPolicy, table: Table, seed: int, yardstick: str,
                    games: int) -> list[float]:
    """The policy alone (no search) in one seat against three of ``yardstick``, the seat
    rotating, the same deals as the first network's curve (``bigtop.train.run``): its win
    share and the share's 95% interval."""
    from bigtop.agents.neural import ActionPolicyAgent
    from bigtop.sim.stats import wilson_interval
    from bigtop.train.selfplay import yardstick_game

    agent = ActionPolicyAgent(policy)
    total = sum(yardstick_game(table, seed, yardstick, k, agent) for k in range(games))
    lo, hi = wilson_interval(total, games)
    return [total / games, lo, hi]


def run_imitation(config: ImitationConfig, out: Path, *, command: str = "",
                  progress: Any = None) -> ActionPolicy:
    """Play (or resume playing) the teacher's games in ``out``, fit the action policy to
    them and measure it alone against the yardsticks; the policy is saved as
    ``out/final.npz`` with its record (the command, the seed, the settings, the fit, the
    shares, the CPU seconds) beside it."""
    import json
    import sys
    import time

    from bigtop.core.errors import BigtopError
    from bigtop.train.imitate import play_chunks

    out.mkdir(parents=True, exist_ok=True)
    cfg_path = out / "config.json"
    wanted = json.loads(json.dumps(config.to_json()))
    if cfg_path.exists():
        old = json.loads(cfg_path.read_text())
        # More games extend a run; anything else would mix two runs' games.
        if {k: v for k, v in old.items() if k != "games"} != {
                k: v for k, v in wanted.items() if k != "games"}:
            raise BigtopError(f"{out} holds a run with other settings; resume it with the "
                              f"same options or train into another directory")
    cfg_path.write_text(json.dumps(wanted, indent=2) + "\n")
    games = play_chunks(out, config.table, config.teacher, config.seed, config.games,
                        progress)
    t = time.process_time()
    data = decisions(config.table, games)
    policy, record = fit(data, config.seed, config.hidden, config.epochs, config.batch,
                         config.lr, progress=progress)
    shares = {y: evaluate_policy(policy, config.table, config.seed, y, config.eval_games)
              for y in config.yardsticks} if config.eval_games else {}
    policy.meta = {"command": command, "seed": config.seed, "config": wanted,
                   "teacher": config.teacher, "games": len(games), "fit": record,
                   "shares": shares,
                   "teacher_cpu_s": round(sum(g.cpu_s for g in games), 1),
                   "fit_cpu_s": round(time.process_time() - t, 1),
                   "python": sys.version.split()[0], "numpy": np.__version__}
    policy.save(out / "final.npz")
    return policy
