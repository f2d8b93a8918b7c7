"""`bigtop games [GAME]`: the games, their player counts and rule options."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from bigtop.cli._app import app, fail
from bigtop.core.errors import BigtopError
from bigtop.core.options import OptionInfo
from bigtop.core.registry import GameInfo, get_game, list_games


def _values(o: OptionInfo) -> str:
    if o.choices:
        return " | ".join(map(str, o.choices))
    lo = "" if o.minimum is None else f"{o.minimum:g}"
    hi = "" if o.maximum is None else f"{o.maximum:g}"
    return f"{o.type} {lo}..{hi}" if (lo or hi) else o.type


def _default(o: OptionInfo) -> str:
    if isinstance(o.default, bool):
        return str(o.default).lower()
    return str(o.default)


def _table(g: GameInfo) -> Table:
    """Two columns, so the meaning keeps most of an 80-column screen: the option with its
    default and values under it, then what it means."""
    table = Table(title=Text(f"{g.title}  ({g.name}, {g.min_players}–{g.max_players} players)"),
                  title_justify="left", show_lines=True, expand=True)
    table.add_column("option, default, values", ratio=1, overflow="fold")
    table.add_column("meaning", ratio=2)
    for o in g.options:
        cell = Text(o.name, style="bold")
        cell.append(f"\ndefault {_default(o)}\n")
        cell.append(_values(o), style="dim")
        table.add_row(cell, Text(o.doc))
    return table


@app.command()
def games(
    game: Annotated[str | None, typer.Argument(
        help="Show only this game, e.g. scout.", show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the games, their player counts and rule options (or one game's)."""
    infos = list_games()
    if game is not None:
        try:
            get_game(game)
        except BigtopError as e:
            fail(str(e))
        infos = [g for g in infos if g.name == game]
    if as_json:
        out = [{
            "name": g.name, "title": g.title, "min_players": g.min_players,
            "max_players": g.max_players,
            "options": [{"name": o.name, "type": o.type, "default": o.default, "doc": o.doc,
                         "choices": list(o.choices) if o.choices else None,
                         "minimum": o.minimum, "maximum": o.maximum, "quote": o.quote}
                        for o in g.options],
            "provides": g.provides,
        } for g in infos]
        typer.echo(json.dumps(out if game is None else out[0], indent=2, ensure_ascii=False))
        return
    console = Console(highlight=False)
    for g in infos:
        console.print(_table(g))
    if game is None:
        console.print(Text("`bigtop games NAME` shows one game; `bigtop play NAME` plays it.",
                           style="dim"))
