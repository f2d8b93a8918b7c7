"""`bigtop bots`: the bot levels of every game, their budgets and what they are."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from bigtop.agents.levels import level_infos
from bigtop.cli._app import app, fail
from bigtop.core.errors import BigtopError
from bigtop.core.registry import game_names, get_game


@app.command()
def bots(
    game: Annotated[str | None, typer.Argument(help="Only this game.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the bot levels (random < easy < medium < hard) and the older bot names per game,
    with their search budgets and time per move."""
    try:
        names = [get_game(game).name] if game is not None else game_names()
    except BigtopError as e:
        fail(str(e))
        return
    if as_json:
        typer.echo(json.dumps({g: [asdict(i) for i in level_infos(g)] for g in names},
                              indent=2, ensure_ascii=False))
        return
    console = Console()
    for g in names:
        table = Table(title=f"{get_game(g).title} ({g})", title_justify="left")
        table.add_column("bot")
        table.add_column("what it is")
        table.add_column("iterations", justify="right")
        table.add_column("ms/move at most", justify="right")
        for i in level_infos(g):
            table.add_row(i.name, i.summary, "" if i.iterations is None else str(i.iterations),
                          "" if i.budget_ms is None else f"{i.budget_ms:g}")
        console.print(table)
