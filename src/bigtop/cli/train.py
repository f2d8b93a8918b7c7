"""`bigtop train GAME`: self-play training of a policy-and-value network (the
``bigtop[train]`` extra; docs/bots.md#trained-networks)."""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from bigtop.cli._app import OptionArg, app, err, fail, game_options
from bigtop.core.errors import BigtopError
from bigtop.core.registry import get_game, new_game
from bigtop.core.rng import check_seed


@contextlib.contextmanager
def progress_bars() -> Iterator[Callable[[str, int, int], None]]:
    """A bar on stderr for each stage a training run reports: ``progress(what, done,
    total)`` starts the bar ``what`` the first time and moves it after."""
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err, transient=False) as bar:
        tasks: dict[str, TaskID] = {}

        def progress(what: str, done: int, total: int) -> None:
            if what not in tasks:
                tasks[what] = bar.add_task(what, total=total)
            bar.update(tasks[what], completed=done)

        yield progress


@app.command(name="train")
def train_cmd(
    game: Annotated[str, typer.Argument(help="The game.")],
    out: Annotated[Path, typer.Option("--out", help="The run's directory (run the same "
                                      "command again to resume it).")] = Path("train-run"),
    players: Annotated[int, typer.Option("--players", "-p")] = 4,
    option: OptionArg = None,
    seed: Annotated[int, typer.Option(help="Seeds everything: same seed, same weights.")] = 1,
    generations: Annotated[int, typer.Option(min=1, max=1000)] = 4,
    games: Annotated[int, typer.Option(min=1, max=100_000,
                                       help="Self-play games a generation.")] = 100,
    first_games: Annotated[int, typer.Option(min=1, max=1_000_000,
                                             help="Games of the first generation.")] = 400,
    samples: Annotated[int, typer.Option(min=0, max=1000, help="The self-play planner's "
                                         "determinizations a move (0: the rollout bot).")] = 4,
    first_samples: Annotated[int, typer.Option(min=0, max=1000)] = 0,
    horizon: Annotated[int, typer.Option(min=1, max=1000, help="Rollout moves before the "
                                         "value network (self-play planner).")] = 2,
    hidden: Annotated[str, typer.Option(help="Hidden layer sizes, e.g. 128,64.")] = "128,64",
    epochs: Annotated[int, typer.Option(min=1, max=1000)] = 4,
    batch: Annotated[int, typer.Option(min=1, max=65536)] = 256,
    lr: Annotated[float, typer.Option(min=1e-7, max=1.0)] = 1e-3,
    buffer: Annotated[int, typer.Option(min=1, max=1000)] = 3,
    eval_games: Annotated[int, typer.Option(min=0, max=100_000, help="Games against each "
                                            "yardstick after each generation.")] = 200,
    yardsticks: Annotated[str, typer.Option(help="Bots the curve measures the policy "
                                            "against.")] = "easy,heuristic",
    jobs: Annotated[int, typer.Option(min=1, max=256, help="Worker processes (the same "
                                      "weights with any number).")] = 1,
    weights: Annotated[Path | None, typer.Option(help="Also write the final network "
                                                 "here (.npz, with its .json).")] = None,
    teacher: Annotated[str | None, typer.Option(help="Instead: train the action-scoring "
                                                "policy to play as this bot plays, from "
                                                "--first-games of its games (the games whose "
                                                "capability record declares action "
                                                "features: SCOUT, Clown 15 Go, So ein "
                                                "Zirkus).")] = None,
) -> None:
    """Train a bot's network by self-play (or from a teacher bot's games), with a
    checkpoint after every generation and a plot of its training curve.

    Self-play is expert iteration: the planner with the policy-and-value network inside it
    plays every seat, the network learns its moves and outcomes. With --teacher: train the
    action-scoring policy (each legal action scored from the cards it moves) on a teacher
    bot's games instead, each chunk of games kept as it is played."""
    from bigtop.agents.levels import make_bot
    from bigtop.agents.neural import NeuralSearch
    from bigtop.train import Config, Table, run

    # Everything is checked before the first game: a run can take hours.
    try:
        g = get_game(game)
        opts = game_options(g.name, option)
        n = players
        new_game(g.name, n, opts)  # bad tables fail here
        check_seed(seed)
        sizes = _hidden_sizes(hidden)
        sticks = tuple(y.strip() for y in yardsticks.split(",")) if yardsticks.strip() else ()
        if not all(sticks):  # "easy,,heuristic": not a curve against nobody
            raise BigtopError(f"--yardsticks {yardsticks!r} has an empty name; give names "
                              "like easy,heuristic")
        for y in sticks:
            make_bot(y, new_game(g.name, n, opts), 0, 0)
        if teacher is not None:
            from bigtop.agents.neural import action_features_for

            make_bot(teacher, new_game(g.name, n, opts), 0, 0)
            action_features_for(new_game(g.name, n, opts))
        if out.exists() and not out.is_dir():
            raise BigtopError(f"--out {out}: exists and is not a folder")
        if weights is not None:
            _check_weights(weights)
    except BigtopError as e:
        fail(str(e))
    command = "bigtop train " + shlex.join(sys.argv[2:] if sys.argv[1:2] == ["train"]
                                           else [game])
    if teacher is not None:
        _imitate(g.name, n, opts, teacher, seed, first_games, sizes, epochs, batch, lr,
                 eval_games, sticks, out, weights, command)
        return
    config = Config(Table(g.name, n, tuple(sorted(opts.items()))), seed=seed,
                    generations=generations, games=games, first_games=first_games,
                    samples=samples, first_samples=first_samples,
                    search=NeuralSearch(horizon=horizon), hidden=sizes, epochs=epochs,
                    batch=batch, lr=lr, buffer=buffer, eval_games=eval_games,
                    yardsticks=sticks)
    with progress_bars() as progress:
        net = run(config, out, jobs=jobs, command=command, progress=progress)
    if weights is not None:
        net.save(weights)
    last = net.meta["curve"][-1] if net.meta.get("curve") else {}
    typer.echo(f"{out}: {net.meta['generations']} generations, {net.meta['decisions']} "
               f"decisions, {net.meta['cpu_s']:.0f} CPU s; against the yardsticks "
               + ", ".join(f"{y} {s[0]:.3f}" for y, s in last.get("shares", {}).items()))


def _hidden_sizes(text: str) -> tuple[int, ...]:
    """``--hidden 128,64`` as layer sizes, each 1 to 4096.

    >>> _hidden_sizes("128, 64")
    (128, 64)
    """
    words = [w.strip() for w in text.split(",") if w.strip()]
    if not all(w.isascii() and w.isdigit() for w in words):  # (int() takes '٣' and '1_0')
        raise BigtopError(f"--hidden takes sizes like 128,64, got {text!r}")
    sizes = tuple(int(w) if len(w) <= 5 else 10**5 for w in words)  # no 5000-digit int()
    if not sizes or min(sizes) < 1 or max(sizes) > 4096:
        raise BigtopError(f"--hidden: sizes from 1 to 4096, got {text!r}")
    return sizes


def _check_weights(path: Path) -> None:
    """``--weights`` must be a file that can be written when the run ends (checked before,
    not after, hours of training)."""
    if path.is_dir():
        raise BigtopError(f"--weights {path}: is a folder; give a file such as net.npz")
    folder = path.parent
    if not folder.is_dir():
        raise BigtopError(f"--weights {path}: no folder {folder}")
    if not os.access(folder, os.W_OK):
        raise BigtopError(f"--weights {path}: {folder} is not writable")


def _imitate(game: str, players: int, opts: dict[str, object], teacher: str, seed: int,
             games: int, hidden: tuple[int, ...], epochs: int, batch: int, lr: float,
             eval_games: int, yardsticks: tuple[str, ...], out: Path, weights: Path | None,
             command: str) -> None:
    """``bigtop train --teacher``: the action policy learned from the teacher's games."""
    from bigtop.train.actions import ImitationConfig, run_imitation
    from bigtop.train.selfplay import Table

    config = ImitationConfig(Table(game, players, tuple(sorted(opts.items()))), teacher,
                             seed=seed, games=games, hidden=hidden, epochs=epochs,
                             batch=batch, lr=lr, eval_games=eval_games,
                             yardsticks=yardsticks)
    with progress_bars() as progress:
        try:
            policy = run_imitation(config, out, command=command, progress=progress)
        except BigtopError as e:
            fail(str(e))
    if weights is not None:
        policy.save(weights)
    fit = policy.meta["fit"]
    typer.echo(f"{out}: {policy.meta['games']} games of {teacher}, {fit['decisions']} "
               f"decisions, teacher-move accuracy {fit.get('held_out_accuracy', 0):.3f} "
               f"held out; alone against the yardsticks "
               + ", ".join(f"{y} {s[0]:.3f}" for y, s in policy.meta["shares"].items()))
