"""`bigtop simulate`: many seeded bot games, summarised."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from bigtop.cli._app import OptionArg, app, err, fail, game_options
from bigtop.core.errors import BigtopError
from bigtop.core.registry import new_game
from bigtop.core.rng import check_seed
from bigtop.sim.runner import simulate


@app.command(name="simulate")
def simulate_cmd(
    game: Annotated[str, typer.Argument(help="Game name, see `bigtop games`.")],
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")] = 3,
    games_: Annotated[int, typer.Option("--games", "-n", help="How many games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    option: OptionArg = None,
    agents: Annotated[str, typer.Option(
        help="Comma-separated agent per seat (cycled): random, heuristic, ismcts.")] = "random",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document only.")] = False,
) -> None:
    """Play many seeded bot games; print win rates, scores and game lengths."""
    try:
        opts = game_options(game, option)
        kinds = [a.strip() for a in agents.split(",") if a.strip()]
        new_game(game, players, opts)  # validate before showing a progress bar
        check_seed(seed)
    except BigtopError as e:
        fail(str(e))
        return
    show_progress = sys.stderr.isatty()
    try:
        if show_progress:
            from rich.progress import Progress

            with Progress(console=err, transient=True) as bar:
                task = bar.add_task(f"{game} ×{games_}", total=games_)
                run = simulate(game, players, games_, seed, opts, kinds,
                               progress=lambda i: bar.update(task, completed=i))
        else:
            run = simulate(game, players, games_, seed, opts, kinds)
    except BigtopError as e:
        fail(str(e))
        return
    if as_json:
        typer.echo(json.dumps(run.to_json(), ensure_ascii=False))
        return
    summary = run.summary()
    console = Console()
    table = Table(title=f"{run.game.title}: {summary['games']} games, {players} players, "
                        f"seed {seed}", title_justify="left")
    for col in ("seat", "agent", "win rate", "95% CI", "mean score", "sd", "95% CI of mean"):
        table.add_column(col)
    for s in summary["seats"]:
        table.add_row(
            f"P{s['seat']}", s["agent"], f"{s['win_rate']:.3f}",
            "{:.3f}–{:.3f}".format(*s["win_rate_ci95"]), f"{s['score_mean']:.2f}",
            f"{s['score_sd']:.2f}", "{:.2f}–{:.2f}".format(*s["score_mean_ci95"]))
    console.print(table)
    console.print(f"actions per game: {summary['actions_mean']:.1f} "
                  "(95% CI {:.1f}–{:.1f}); shared wins: {}".format(
                      *summary["actions_mean_ci95"], summary["shared_wins"]))
    k = summary["games"]
    for key, counts in summary["outcomes"].items():
        console.print(f"{key}: " + ", ".join(
            f"{value} {n} ({100 * n / k:.1f}%)" for value, n in counts.items()))
