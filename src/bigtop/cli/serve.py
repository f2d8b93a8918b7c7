"""`bigtop serve`: the game server (HTTP + WebSockets) on SQLite or PostgreSQL."""

from __future__ import annotations

import dataclasses
import errno
import os
import socket
import sys
from typing import Annotated

import typer

from bigtop.cli._app import app, err, fail, seconds_or_rate
from bigtop.core.errors import BigtopError
from bigtop.core.extras import require_extra

EVENT_LOOP = "uvloop" if sys.platform != "win32" else "asyncio"
"""uvicorn's event loop, named (not "auto", which would quietly fall back to asyncio's, a
tenth more CPU per move): uvloop, a dependency wherever it exists."""


def port_is_free(host: str, port: int) -> None:
    """Refuse a port another program listens on, in words, before the database is touched
    (uvicorn would print its own ERROR line after our address line and exit). Other bind
    problems (an IPv6 or unknown host) are left to uvicorn's own message."""
    try:
        socket.create_server((host, port)).close()  # SO_REUSEADDR, as uvicorn binds
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            raise BigtopError(f"port {port} on {host} is in use (another bigtop serve?): stop "
                              f"it, or choose another port: --port {port + 1} (make PORT="
                              f"{port + 1} run)") from None


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(
        help="Database URL: sqlite:///PATH or postgresql://USER@HOST/DB "
             "(default: SQLite in the user's data directory).")] = None,
    workers: Annotated[int, typer.Option(
        help="Server processes (more than one needs PostgreSQL).")] = 1,
    bot_processes: Annotated[int, typer.Option(
        "--bot-processes", help="Processes in each worker's bot pool.")] = 1,
    bot_delay: Annotated[float, typer.Option(
        "--bot-delay", help="Seconds a bot waits before moving (so people can follow).")
    ] = 0.5,
    moves_per_second: Annotated[float | None, typer.Option(
        "--moves-per-second", help="Moves a second per seat (default: see docs/server.md).")
    ] = None,
) -> None:
    """Serve tables: JSON API under /api, live updates over WebSockets, docs at /docs."""
    require_extra("server", what="bigtop serve")
    if EVENT_LOOP == "uvloop":
        require_extra("server", "uvloop", what="bigtop serve")
    if db is not None and not db.startswith("sqlite"):
        require_extra("postgresql", what="--db postgresql://…")
    import uvicorn

    from bigtop.server.db import make_engine, migrate, normalise_url
    from bigtop.server.settings import ENV_SETTINGS, Limits, Settings, default_db_url

    try:
        url = db or default_db_url()
        normalise_url(url)
        if not 0 < port < 65536:
            raise BigtopError(f"--port must be 1..65535, got {port}")
        port_is_free(host, port)
        if workers < 1 or bot_processes < 1:
            raise BigtopError("--workers and --bot-processes must be at least 1")
        seconds_or_rate("--bot-delay", bot_delay, zero=True)
        limits = Limits()
        if moves_per_second is not None:
            seconds_or_rate("--moves-per-second", moves_per_second, zero=False)
            limits = dataclasses.replace(limits, moves_per_second=moves_per_second)
        settings = Settings(db_url=url, limits=limits, bot_processes=bot_processes,
                            bot_delay_seconds=bot_delay, migrate_on_start=False)
        if workers > 1 and not settings.is_postgresql:
            raise BigtopError("--workers above 1 needs --db postgresql://… "
                              "(SQLite serves one process)")
        engine = make_engine(url)
        migrate(engine)  # once, before any worker starts
        engine.dispose()
    except BigtopError as e:
        fail(str(e))
        return
    except Exception as e:  # the database could not be reached or opened
        fail(f"cannot open the database: {str(e).splitlines()[0]}")
        return
    os.environ[ENV_SETTINGS] = settings.to_env()
    err.print(f"bigtop server on http://{host}:{port} (API docs at /docs), database {url}")
    uvicorn.run("bigtop.server.app:app_from_env", factory=True, host=host, port=port,
                workers=workers, ws_max_size=settings.limits.max_ws_message_bytes,
                log_level="warning", loop=EVENT_LOOP, http="httptools")
