"""A training run: generations of self-play (:mod:`bigtop.train.selfplay`), each followed
by training the network on the latest generations' decisions and measuring it against
fixed yardsticks, with a checkpoint after every generation.

A run lives in one directory: ``config.json`` (what was asked), ``data/gen-NNN.npz`` (each
generation's decisions), ``nets/gen-NNN.npz`` (the network after each generation, with its
record beside it: policies of different ages, for yardsticks), ``checkpoint.npz`` (the
latest network and the optimizer's state), ``progress.json`` (generations done, the curve,
CPU time) and ``curve.png``. Run the same command again to resume an interrupted run:
everything is derived from the seed and the generation, so a resumed run ends with the
same weights as one never interrupted.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bigtop.agents.neural import Encoder, Network, NeuralPolicyAgent, NeuralSearch, write_npz
from bigtop.core.errors import BigtopError
from bigtop.core.rng import derive_seed
from bigtop.sim.stats import wilson_interval
from bigtop.train.learn import Adam, init_network, loss_and_grads, parameters
from bigtop.train.selfplay import Records, Table, play, yardstick_game

Progress = Callable[[str, int, int], None]
"""``progress(what, done, total)``: called as games are played and batches trained."""


SELF_PLAY_SEARCH = NeuralSearch(horizon=2)
"""The self-play planner's use of the network, by default."""


@dataclass(frozen=True)
class Config:
    """A training run's settings (``config.json``); every field has the CLI option of the
    same name."""

    table: Table
    seed: int = 1
    generations: int = 4
    games: int = 100
    """Self-play games per generation."""
    first_games: int = 400
    """Games of the first generation (before there is a network)."""
    samples: int = 4
    """The improvement operator's determinizations a move (0: the game's rollout bot)."""
    first_samples: int = 0
    """The first generation's operator (0: the rollout bot: cheap games for a first value)."""
    search: NeuralSearch = SELF_PLAY_SEARCH
    """How the operator's planner uses the network."""
    hidden: tuple[int, ...] = (128, 64)
    epochs: int = 4
    batch: int = 256
    lr: float = 1e-3
    buffer: int = 3
    """Generations of decisions trained on (the latest)."""
    eval_games: int = 200
    """Games against each yardstick after each generation (0: no curve)."""
    yardsticks: tuple[str, ...] = ("easy", "heuristic")

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["table"]["options"] = dict(self.table.options)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Config:
        t = d["table"]
        table = Table(t["game"], int(t["players"]), tuple(sorted(t["options"].items())))
        rest = {k: v for k, v in d.items() if k not in ("table", "search")}
        rest["hidden"] = tuple(rest["hidden"])
        rest["yardsticks"] = tuple(rest["yardsticks"])
        return cls(table, search=NeuralSearch(**d["search"]), **rest)


@dataclass
class State:
    generations_done: int = 0
    curve: list[dict[str, Any]] = field(default_factory=list)
    cpu_s: float = 0.0
    decisions: int = 0


_NET: Network | None = None  # the current network, in a worker process


def _init_worker(net: Network | None) -> None:
    global _NET
    _NET = net
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play(args: tuple[Any, ...]) -> tuple[Records, float]:
    table, seed, gen, i, samples, how = args
    t = time.process_time()
    return play(table, seed, gen, i, samples, how, _NET), time.process_time() - t


def _mapped(fn: Callable[[tuple[Any, ...]], Any], tasks: list[tuple[Any, ...]],
            net: Network | None, jobs: int) -> Iterator[Any]:
    """``fn`` over ``tasks`` in order, in ``jobs`` worker processes (a fork server: see
    bench/bench_bots.py) or here."""
    if jobs <= 1:
        _init_worker_here(net)
        yield from map(fn, tasks)
        return
    pool = multiprocessing.get_context("forkserver").Pool(jobs, _init_worker, (net,))
    try:
        yield from pool.imap(fn, tasks, chunksize=2)
    finally:
        pool.terminate()
        pool.join()


def _init_worker_here(net: Network | None) -> None:
    global _NET
    _NET = net


def self_play(config: Config, gen: int, net: Network | None, jobs: int,
              progress: Progress) -> tuple[Records, float]:
    """A generation's games and the CPU seconds they took."""
    first = gen == 0
    n = config.first_games if first else config.games
    samples = config.first_samples if first else config.samples
    tasks = [(config.table, config.seed, gen, i, samples, config.search) for i in range(n)]
    parts = []
    cpu = 0.0
    for k, (r, seconds) in enumerate(_mapped(_play, tasks, net, jobs), 1):
        parts.append(r)
        cpu += seconds
        progress(f"generation {gen + 1}: self-play games", k, n)
    return Records.join(parts), cpu


def standardization(data: Records, size: int) -> tuple[np.ndarray[Any, Any], ...]:
    """The features that vary in ``data`` and their mean and scale (the standard
    deviation, at least 0.25 so that a rare one-hot does not dominate)."""
    rows = len(data)
    s1 = np.bincount(data.idx, weights=data.val, minlength=size)
    s2 = np.bincount(data.idx, weights=data.val.astype(np.float64) ** 2, minlength=size)
    mean = s1 / rows
    var = np.maximum(s2 / rows - mean ** 2, 0.0)
    columns = np.flatnonzero(var > 1e-9)
    return (columns, mean[columns].astype(np.float32),
            np.maximum(np.sqrt(var[columns]), 0.25).astype(np.float32))


def train(net: Network, adam: Adam, data: Records, config: Config, gen: int, size: int,
          progress: Progress) -> dict[str, float]:
    """``config.epochs`` passes over ``data`` in seeded random order; the mean losses of
    the last pass."""
    rng = np.random.default_rng(derive_seed(config.seed, "train", gen))
    column_of = np.full(size, -1, np.int64)
    column_of[net.columns] = np.arange(len(net.columns))
    actions = net.policy[0].shape[1]
    params = parameters(net)
    n = len(data)
    batches = max(1, n // config.batch)
    adam.lr = config.lr
    sums = {"policy": 0.0, "value": 0.0}
    for epoch in range(config.epochs):
        order = rng.permutation(n)
        sums = {"policy": 0.0, "value": 0.0}
        for b in range(batches):
            rows = order[b * config.batch:(b + 1) * config.batch]
            x = _dense_inputs(data, rows, net, column_of)
            loss, grads = loss_and_grads(net, x, data.legal_mask(rows, actions),
                                         data.action[rows], data.value[rows])
            adam.update(params, grads)
            for k in sums:
                sums[k] += loss[k]
            progress(f"generation {gen + 1}: training", epoch * batches + b + 1,
                     config.epochs * batches)
    return {k: v / batches for k, v in sums.items()}


def _dense_inputs(data: Records, rows: np.ndarray[Any, Any], net: Network,
                  column_of: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    x = data.dense(rows, len(net.columns), column_of)
    out: np.ndarray[Any, Any] = (x - net.mean) / net.scale
    return out


def _eval_game(args: tuple[Any, ...]) -> tuple[float, float]:
    t = time.process_time()
    table, seed, yardstick, k = args
    share = yardstick_game(table, seed, yardstick, k, NeuralPolicyAgent(_NET))
    return share, time.process_time() - t


def evaluate(net: Network, config: Config, jobs: int,
             progress: Progress) -> tuple[dict[str, list[float]], float]:
    """The policy network's win share (one of it, the rest the yardstick, seats rotating;
    the same deals every generation) against each yardstick, with its 95% interval; and the
    CPU seconds of the games."""
    out = {}
    cpu = 0.0
    for y in config.yardsticks:
        tasks = [(config.table, config.seed, y, k) for k in range(config.eval_games)]
        total = 0.0
        for k, (share, seconds) in enumerate(_mapped(_eval_game, tasks, net, jobs), 1):
            total += share
            cpu += seconds
            progress(f"policy against {y}", k, config.eval_games)
        lo, hi = wilson_interval(total, config.eval_games)
        out[y] = [total / config.eval_games, lo, hi]
    return out, cpu


def run(config: Config, out: Path, *, jobs: int = 1, command: str = "",
        progress: Progress | None = None, stop_after: int | None = None) -> Network:
    """Train (or resume training) in ``out``; returns the final network, also saved as
    ``out/final.npz`` with its record (the command, the seed, the settings, the curve).
    ``stop_after``: stop after that many generations of this call (a test's interrupt)."""
    progress = progress or (lambda what, done, total: None)
    out.mkdir(parents=True, exist_ok=True)
    cfg_path = out / "config.json"
    if cfg_path.exists():
        old = json.loads(cfg_path.read_text())
        if old != json.loads(json.dumps(config.to_json())):
            raise BigtopError(f"{out} holds a run with other settings; resume it with the "
                              f"same options or train into another directory")
    else:
        cfg_path.write_text(json.dumps(config.to_json(), indent=2) + "\n")
    prog_path = out / "progress.json"
    st = State(**json.loads(prog_path.read_text())) if prog_path.exists() else State()
    game = config.table.new_game()
    size = Encoder(game).size
    net: Network | None = None
    adam = Adam(lr=config.lr)
    if st.generations_done:
        with np.load(out / "checkpoint.npz", allow_pickle=False) as a:
            net = Network.from_arrays(a)
            adam.load(a)
    t0 = time.process_time()
    end = config.generations
    if stop_after is not None:
        end = min(end, st.generations_done + stop_after)
    for gen in range(st.generations_done, end):
        data_path = out / "data" / f"gen-{gen:03d}.npz"
        data, play_cpu = self_play(config, gen, net, jobs, progress)
        write_npz(data_path, data.arrays())
        if net is None:
            columns, mean, scale = standardization(data, size)
            net = init_network(np.random.default_rng(derive_seed(config.seed, "init")),
                               columns, mean, scale, config.hidden,
                               game.num_distinct_actions())
        parts = []
        for g in range(max(0, gen - config.buffer + 1), gen + 1):
            with np.load(out / "data" / f"gen-{g:03d}.npz", allow_pickle=False) as a:
                parts.append(Records.from_arrays(a))
        losses = train(net, adam, Records.join(parts), config, gen, size, progress)
        shares, eval_cpu = (evaluate(net, config, jobs, progress) if config.eval_games
                            else ({}, 0.0))
        # This process's CPU, and with workers theirs (each game times itself).
        st.cpu_s += time.process_time() - t0 + (play_cpu + eval_cpu if jobs > 1 else 0.0)
        t0 = time.process_time()
        st.decisions += len(data)
        st.generations_done = gen + 1
        st.curve.append({"generation": gen + 1, "decisions": st.decisions,
                         "cpu_s": round(st.cpu_s, 1), "loss": losses, "shares": shares})
        net.meta = _record(config, st, command)
        net.save(out / "nets" / f"gen-{gen:03d}.npz")
        write_npz(out / "checkpoint.npz", net.arrays() | adam.arrays())
        prog_path.write_text(json.dumps(asdict(st), indent=1) + "\n")
    if net is None:
        raise BigtopError("no generation was trained")
    net.meta = _record(config, st, command)
    if st.generations_done == config.generations:
        net.save(out / "final.npz")
        if config.eval_games:
            with contextlib.suppress(ImportError):  # no matplotlib: the curve is in the JSON
                plot_curve(st.curve, config, out / "curve.png")
    return net


def _record(config: Config, st: State, command: str) -> dict[str, Any]:
    return {"command": command, "seed": config.seed, "config": config.to_json(),
            "generations": st.generations_done, "decisions": st.decisions,
            "cpu_s": round(st.cpu_s, 1), "curve": st.curve,
            "python": sys.version.split()[0], "numpy": np.__version__}


def plot_curve(curve: Sequence[dict[str, Any]], config: Config, path: Path) -> None:
    """The policy network's win share against each yardstick, generation by generation."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    xs = [c["cpu_s"] / 60 for c in curve]
    for y in config.yardsticks:
        pts = [c["shares"][y] for c in curve]
        ax.errorbar(xs, [p[0] for p in pts], yerr=[[max(p[0] - p[1], 0.0) for p in pts],
                                                  [max(p[2] - p[0], 0.0) for p in pts]],
                    marker="o", capsize=3, label=f"policy alone vs 3 × {y}")
    ax.axhline(1 / config.table.players, color="#c44", linestyle="--", linewidth=1,
               label="fair share")
    ax.set_xlabel("training CPU minutes")
    ax.set_ylabel(f"win share ({config.eval_games} games)")
    ax.set_title(f"{config.table.game}, {config.table.players} players: "
                 f"seed {config.seed}", fontsize=9)
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
