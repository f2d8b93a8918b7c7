"""`bigtop host …`: the server's host looks after its community, on the server's database
(the running server need not stop): find identities and chat messages, remove messages,
block an identity (its key opens nothing) or lift that, rename one, and close a table. Addresses are
turned away with `bigtop serve --block`. docs/server.md, "Looking after a server", says
what each does to the pages open at the time. Ids are made never to start with "-"; one
that does (made before) goes after ``--``: ``bigtop host close -- -Pq…``."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bigtop.cli._app import _GuardedTyper, app
from bigtop.core.errors import BigtopError
from bigtop.core.extras import require_extra

if TYPE_CHECKING:
    from bigtop.server.master import TableMaster

host_app = _GuardedTyper(no_args_is_help=True, add_completion=False,
                         help="Look after a server's community: find identities and chat, "
                              "remove messages, block or rename an identity, close a table.")
app.add_typer(host_app, name="host",
              short_help="Look after a server's community: find identities and chat, "
                         "remove messages, block or rename an identity, close a table.")

DbOption = Annotated[str | None, typer.Option(
    help="The server's database URL, as given to `bigtop serve --db` (default: SQLite in "
         "the user's data directory).")]
LimitOption = Annotated[int, typer.Option(min=1, max=10_000, help="Lines at most.")]

MAX_NOTE = 500
"""Longest note a host keeps on a blocked identity."""


def _master(db: str | None) -> TableMaster:
    """The table master over the server's database (brought to the newest schema, as
    `bigtop serve` does before it starts)."""
    require_extra("server", what="bigtop host")
    if db is not None and not db.startswith("sqlite"):
        require_extra("postgresql", what="--db postgresql://…")
    from bigtop.server.db import make_engine, migrate, normalise_url
    from bigtop.server.master import TableMaster
    from bigtop.server.settings import Settings, default_db_url
    from bigtop.server.storage import SqlStorage

    url = db or default_db_url()
    normalise_url(url)
    try:
        engine = make_engine(url)
        migrate(engine)
    except Exception as e:  # the database could not be reached or opened
        raise BigtopError(f"cannot open the database: {str(e).splitlines()[0]}") from None
    return TableMaster(SqlStorage(engine), Settings(db_url=url, migrate_on_start=False))


def _when(at: float) -> str:
    return datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _print_rows(rows: list[dict[str, Any]], line: Any, none: str) -> None:
    if not rows:
        typer.echo(none)
    for row in rows:
        typer.echo(line(row))


@host_app.command()
def players(db: DbOption = None,
            name: Annotated[str | None, typer.Option(
                help="Only names holding this (any case).")] = None,
            limit: LimitOption = 50) -> None:
    """List identities, the newest first: id, when made, open seats, blocked, name."""
    rows = _master(db).storage.find_players(name, limit)
    _print_rows(rows, lambda r: "\t".join((
        r["id"], _when(r["created_at"]), f"{r['tables']} open seats",
        "blocked" if r["blocked"] is not None else "-", r["name"])),
        "no identity" + (f" with a name holding {name!r}" if name else ""))


@host_app.command()
def chat(db: DbOption = None,
         table: Annotated[str | None, typer.Option(help="Only this table's.")] = None,
         player: Annotated[str | None, typer.Option(help="Only this identity's.")] = None,
         limit: LimitOption = 50) -> None:
    """List chat messages, the newest first: id, when, table, seat, who, text."""
    rows = _master(db).storage.chat_lines(table, player, limit)
    _print_rows(rows, lambda r: "\t".join((
        str(r["id"]), _when(r["created_at"]), r["table"], f"P{r['seat']}",
        r["name"] or (r["player"] or "-"), r["text"])), "no chat message")


@host_app.command("remove-chat")
def remove_chat(ids: Annotated[list[int] | None, typer.Argument(
                    help="Message ids (from `bigtop host chat`).", show_default=False)] = None,
                db: DbOption = None,
                player: Annotated[str | None, typer.Option(
                    help="Every message written from this identity's seats.")] = None) -> None:
    """Delete chat messages: by id, or every one an identity wrote."""
    if not ids and player is None:
        raise BigtopError("name the messages: their ids, or --player ID")
    if ids and any(i < 1 for i in ids):
        raise BigtopError("a message id is a whole number from 1")
    done = _master(db).storage.remove_chat(ids or [], player)
    typer.echo(f"removed {done} message{'' if done == 1 else 's'}")


@host_app.command()
def block(player: Annotated[str, typer.Argument(help="The identity's id (`bigtop host "
                                                     "players`).")],
          db: DbOption = None,
          note: Annotated[str, typer.Option(help="Why, for the host's own records (never "
                                                 "shown to the player).")] = "") -> None:
    """Block an identity: its player key opens nothing any more (no seat, no new table,
    no chat), nor do its seats' own tokens, on every worker; it is told 403 "blocked".
    Its seats play on with a bot once it is away, as for anyone away."""
    import time

    from bigtop.core.limits import text_problem

    if len(note) > MAX_NOTE:
        raise BigtopError(f"--note: at most {MAX_NOTE} characters, got {len(note)}")
    problem = text_problem(note)
    if problem is not None:
        raise BigtopError(f"--note: {problem}")
    if not _master(db).storage.block_player(player, note.strip(), time.time()):
        raise BigtopError(f"no identity {player!r} to block (or it is blocked already)")
    typer.echo(f"blocked {player}")


@host_app.command()
def unblock(player: Annotated[str, typer.Argument(help="The identity's id.")],
            db: DbOption = None) -> None:
    """Lift a block: the identity's key opens its seats again."""
    if not _master(db).storage.unblock_player(player):
        raise BigtopError(f"identity {player!r} is not blocked")
    typer.echo(f"unblocked {player}")


@host_app.command()
def rename(player: Annotated[str, typer.Argument(help="The identity's id.")],
           name: Annotated[str, typer.Argument(help="Its new name.")],
           db: DbOption = None) -> None:
    """Rename an identity (a name nobody should see): its open tables show the new one."""
    master = _master(db)
    shown = master.name_of(name)  # the server's rule for names (422 → one line)
    if master.storage.player_name(player) is None:
        raise BigtopError(f"no identity {player!r}")
    master.storage.rename_player(player, shown)
    typer.echo(f"renamed {player}: {shown}")


@host_app.command()
def close(table: Annotated[str, typer.Argument(help="The table's id.")],
          db: DbOption = None) -> None:
    """End an open table now (a name or note nobody should see in the lobby, a table
    used to harass): it expires, unplayed from here, and leaves the lobby; its log says
    "The server's host closed this table"."""
    if not _master(db).close_by_host(table):
        raise BigtopError(f"no open table {table!r}")
    typer.echo(f"closed {table}")
