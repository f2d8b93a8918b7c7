"""`bigtop simulate`: many seeded bot games on every core, summarised per seat and per bot."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from bigtop.cli._app import OptionArg, app, fail, game_options
from bigtop.cli._lab import (
    AgentsArg,
    BotsArg,
    JsonArg,
    OutArg,
    PlayersArg,
    RayArg,
    RotateArg,
    SeedArg,
    WorkersArg,
    emit,
    play_and_write,
    print_footer,
    print_rates,
    resolve_bots,
    workers_or_default,
)
from bigtop.core.errors import BigtopError
from bigtop.core.limits import MAX_GAMES
from bigtop.core.registry import new_game
from bigtop.core.rng import check_seed
from bigtop.sim.runner import check_games, check_rotation, seat_lineup, simulate


@app.command(name="simulate")
def simulate_cmd(
    game: Annotated[str, typer.Argument(help="Game name, see `bigtop games`.")],
    players: PlayersArg = 3,
    games_: Annotated[int, typer.Option(
        "--games", "-n", help=f"How many games (at most {MAX_GAMES:,}).")] = 100,
    seed: SeedArg = 0,
    option: OptionArg = None,
    bots: BotsArg = None,
    rotate: RotateArg = False,
    workers: WorkersArg = None,
    ray: RayArg = None,
    out: OutArg = None,
    as_json: JsonArg = False,
    agents: AgentsArg = None,
) -> None:
    """Play many seeded bot games; print win rates, scores and places per seat and per bot,
    game lengths and how games ended, with 95% intervals."""
    try:
        opts = game_options(game, option)
        given = resolve_bots(bots, agents)
        g = new_game(game, players, opts)  # validate everything before a progress bar
        check_seed(seed)
        check_games(games_, "--games")
        seat_lineup(given, players)
        if rotate:
            check_rotation(games_, g.num_players)
        n_workers = workers_or_default(workers, ray)
        from bigtop.sim.output import write_run

        run, doc = play_and_write(
            f"{game} ×{games_}", games_, out, lambda progress: simulate(
                game, players, games_, seed, opts, given, progress, rotate=rotate,
                workers=n_workers, ray_address=ray, keep_states=out is not None),
            lambda r: len(r.records), write_run)
    except BigtopError as e:
        fail(str(e))

    def report(console: Console) -> None:
        summary = doc["summary"]
        cycled = f" (cycled from {','.join(run.given)})" if summary["cycled"] else ""
        console.print(f"[bold]{run.game.title}[/]: {summary['games']} games, {players} "
                      f"players, seed {seed}")
        console.print(f"line-up P0…P{players - 1}: {', '.join(run.bots)}{cycled}"
                      + (f"; rotated: {summary['deals']} deals × {players} seatings"
                         if rotate else ""))
        print_rates(console, summary)
        print_footer(console, summary)

    emit(doc, as_json, run.interrupted, out, report)
