"""`bigtop serve`: the game server (HTTP + WebSockets) on SQLite or PostgreSQL."""

from __future__ import annotations

import dataclasses
import errno
import os
import socket
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bigtop.cli._app import app, err, fail, seconds_or_rate
from bigtop.core.errors import BigtopError
from bigtop.core.extras import require_extra

if TYPE_CHECKING:
    from bigtop.server.settings import Limits

EVENT_LOOP = "uvloop" if sys.platform != "win32" else "asyncio"
"""uvicorn's event loop, named (not "auto", which would quietly fall back to asyncio's, a
tenth more CPU per move): uvloop, a dependency wherever it exists."""


WS_PROTOCOL = "bigtop.server.protocol:SecureWebSocket"
"""uvicorn's websockets-sansio WebSocket implementation (with the security headers on the
handshakes it refuses: server/protocol.py), named (not "auto", which picked the legacy
``websockets`` one before uvicorn 0.50): it offers permessage-deflate with a 12-bit window
and zlib's memLevel 5, about 32 KB of compressor state a connection, where the legacy one
keeps zlib's defaults (15 bits, memLevel 8: about 256 KB, 0.5 GB at 1,000 tables' 2,000
sockets) and compresses each message with colder caches (docs/benchmarks.md, "Where a
move's time goes"). Clients see the same protocol: browsers and the ``websockets`` client
take the smaller window the server names (RFC 7692)."""


HTTP_PROTOCOL = "bigtop.server.protocol:BoundedHttp"
"""uvicorn's httptools protocol with a bounded request head, a request timeout and a
connection cap (server/protocol.py; the numbers are in server/settings.py)."""


def port_is_free(host: str, port: int) -> None:
    """Refuse, in words and before the database is touched, an address this machine cannot
    listen on: a port another program listens on, a host name that does not resolve, an
    address that is not this machine's (uvicorn would print its own ERROR lines after our
    address line, with the database already made)."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                    flags=socket.AI_PASSIVE)[0][0]
    except (socket.gaierror, UnicodeError) as e:  # UnicodeError: a label IDNA refuses
        raise BigtopError(f"--host {host!r}: {getattr(e, 'strerror', None) or e}") from None
    try:
        # SO_REUSEADDR, as uvicorn binds; the family of the address (an IPv6 one too).
        socket.create_server((host, port), family=family).close()
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            raise BigtopError(f"port {port} on {host} is in use (another bigtop serve?): stop "
                              f"it, or choose another port: --port {port + 1} (make PORT="
                              f"{port + 1} run)") from None
        raise BigtopError(f"cannot listen on {host} port {port}: {e.strerror or e}") from None


def limit_overrides(pairs: list[str]) -> Limits:
    """The default :class:`Limits` with ``NAME=NUMBER`` pairs applied (checked: a known
    name, a finite number above 0, a whole number where the limit is one).

    >>> limit_overrides(["max_connections=5", "request_timeout_seconds=0.5"]).max_connections
    5
    >>> limit_overrides(["max_conections=5"])
    Traceback (most recent call last):
    ...
    bigtop.core.errors.BigtopError: --limit: no limit 'max_conections' (see docs/server.md)
    """
    from bigtop.server.settings import Limits

    defaults = Limits()
    changes: dict[str, Any] = {}
    for pair in pairs:
        name, _, raw = pair.partition("=")
        name = name.strip()
        if name not in {f.name for f in dataclasses.fields(defaults)}:  # not a property
            raise BigtopError(f"--limit: no limit {name!r} (see docs/server.md)")
        try:
            value = float(raw)
        except ValueError:
            raise BigtopError(f"--limit {name}: {raw!r} is not a number") from None
        seconds_or_rate(f"--limit {name}", value, zero=False)
        if isinstance(getattr(defaults, name), int):
            if value != int(value):
                raise BigtopError(f"--limit {name} must be a whole number, got {raw}")
            changes[name] = int(value)
        else:
            changes[name] = value
    return dataclasses.replace(defaults, **changes)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(
        help="Database URL: sqlite:///PATH or postgresql://USER@HOST/DB "
             "(default: SQLite in the user's data directory).")] = None,
    workers: Annotated[int, typer.Option(
        help="Server processes (more than one needs PostgreSQL).")] = 1,
    bot_processes: Annotated[int | None, typer.Option(
        "--bot-processes", help="Processes in each worker's bot pool (default: the "
                                "machine's cores shared by the workers).")] = None,
    bot_delay: Annotated[float, typer.Option(
        "--bot-delay", help="Seconds a bot waits before moving (so people can follow).")
    ] = 0.5,
    moves_per_second: Annotated[float | None, typer.Option(
        "--moves-per-second", help="Moves a second per seat (default: see docs/server.md).")
    ] = None,
    trusted_proxy: Annotated[list[str] | None, typer.Option(
        "--trusted-proxy", help="Address or network (CIDR) of a reverse proxy whose "
        "X-Forwarded-For/-Proto are believed; repeat for several (default: 127.0.0.1 and "
        "::1; 'none': nobody).")] = None,
    block: Annotated[list[str] | None, typer.Option(
        "--block", help="Address or network (CIDR) to turn away: every request from a "
        "client there is refused 403 (behind a proxy: the real client); repeatable.")
    ] = None,
    http: Annotated[str, typer.Option(
        "--http", hidden=True, help="HTTP protocol: bounded (default), or uvicorn's own "
        "httptools or h11 WITHOUT the head/time/connection limits (bench_server.py compares "
        "them).")] = "bounded",
    limit: Annotated[list[str] | None, typer.Option(
        "--limit", help="NAME=NUMBER: any limit of bigtop.server.settings.Limits, e.g. "
        "--limit max_connections=5000 (docs/server.md lists them); repeatable.")] = None,
    ws_compression: Annotated[bool, typer.Option(
        "--ws-compression/--no-ws-compression",
        help="Compress WebSocket messages (permessage-deflate) where the browser offers it: "
             "views about a tenth of their size, for a fifth to a third of the server's CPU "
             "a move; off by default (docs/server.md says why).")] = False,
) -> None:
    """Serve tables: JSON API under /api, live updates over WebSockets, docs at /docs."""
    require_extra("server", what="bigtop serve")
    if EVENT_LOOP == "uvloop":
        require_extra("server", "uvloop", what="bigtop serve")
    if db is not None and not db.startswith("sqlite"):
        require_extra("postgresql", what="--db postgresql://…")
    import uvicorn

    from bigtop.server.db import make_engine, migrate, normalise_url
    from bigtop.server.settings import ENV_SETTINGS, Settings, default_db_url

    try:
        url = db or default_db_url()
        normalise_url(url)
        if not 0 < port < 65536:
            raise BigtopError(f"--port must be 1..65535, got {port}")
        port_is_free(host, port)
        if http not in ("bounded", "httptools", "h11"):
            raise BigtopError(f"--http must be bounded, httptools or h11, got {http!r}")
        if workers < 1 or (bot_processes is not None and bot_processes < 1):
            raise BigtopError("--workers and --bot-processes must be at least 1")
        seconds_or_rate("--bot-delay", bot_delay, zero=True)
        limits = limit_overrides(limit or [])
        if moves_per_second is not None:
            seconds_or_rate("--moves-per-second", moves_per_second, zero=False)
            limits = dataclasses.replace(limits, moves_per_second=moves_per_second)
        proxies: tuple[str, ...] = Settings.trusted_proxies
        if trusted_proxy:
            proxies = () if trusted_proxy == ["none"] else tuple(trusted_proxy)
        if bot_processes is None:
            bot_processes = max(1, (os.cpu_count() or 1) // workers)
        settings = Settings(db_url=url, limits=limits, bot_processes=bot_processes,
                            bot_delay_seconds=bot_delay, migrate_on_start=False,
                            trusted_proxies=proxies, blocked=tuple(block or ()))
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
    limits = settings.limits
    # proxy_headers off: server/net.py alone reads X-Forwarded-* (from trusted proxies);
    # the HTTP protocol is httptools' with the head, time and connection limits added.
    uvicorn.run("bigtop.server.app:app_from_env", factory=True, host=host, port=port,
                workers=workers, ws_max_size=limits.ws_max_size,
                log_level="warning", loop=EVENT_LOOP, ws=WS_PROTOCOL,
                ws_per_message_deflate=ws_compression,
                http=HTTP_PROTOCOL if http == "bounded" else http,
                proxy_headers=False, timeout_keep_alive=limits.keep_alive_seconds,
                backlog=min(2048, limits.max_connections))
