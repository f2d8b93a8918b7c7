"""`bigtop games`: the games, their player counts and rule options."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from bigtop.cli._app import app
from bigtop.core.registry import list_games


@app.command()
def games(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the games, their player counts and rule options."""
    infos = list_games()
    if as_json:
        out = [{
            "name": g.name, "title": g.title, "min_players": g.min_players,
            "max_players": g.max_players,
            "options": [{"name": o.name, "type": o.type, "default": o.default, "doc": o.doc,
                         "choices": list(o.choices) if o.choices else None,
                         "minimum": o.minimum, "maximum": o.maximum, "quote": o.quote}
                        for o in g.options],
        } for g in infos]
        typer.echo(json.dumps(out, indent=2, ensure_ascii=False))
        return
    console = Console()
    for g in infos:
        table = Table(title=f"{g.title}  ({g.name}, {g.min_players}–{g.max_players} players)",
                      title_justify="left", show_lines=False)
        table.add_column("option")
        table.add_column("default")
        table.add_column("values")
        table.add_column("meaning")
        for o in g.options:
            if o.choices:
                values = " | ".join(map(str, o.choices))
            else:
                lo = "" if o.minimum is None else f"{o.minimum:g}"
                hi = "" if o.maximum is None else f"{o.maximum:g}"
                values = f"{o.type} {lo}..{hi}" if (lo or hi) else o.type
            # Text, not markup: a doc may quote a rule with [brackets].
            table.add_row(*(Text(t) for t in (o.name, str(o.default), values, o.doc)))
        console.print(table)
