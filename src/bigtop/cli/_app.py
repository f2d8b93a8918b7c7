"""The Typer application and what every command shares: the error console, ``--option``
and the one way a command fails (a one-line message on stderr, exit code 2)."""

from __future__ import annotations

from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.text import Text

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Play, simulate and study Tricky Landing, SCOUT, So ein Zirkus and Clown 15 Go.",
)
err = Console(stderr=True, soft_wrap=True)

OptionArg = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="Rule option KEY=VALUE (repeatable); see `bigtop games`."),
]


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with code 2 (the message is shown as it
    is, never read as markup: it may quote what the user typed)."""
    err.print(Text.assemble(("error:", "bold red"), " ", message))
    raise typer.Exit(2)
