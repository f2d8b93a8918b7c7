"""Real `bigtop serve` processes on free loopback ports, for the server tests and the load
benchmark (`bench/bench_server.py`), apart from the fixtures' module: nothing here imports
the framework's test client."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.server.pg import free_port

BIGTOP = str(Path(sys.executable).with_name("bigtop"))
ONE_CLIENT_MANY_TABLES = ("--limit", "table_burst=100000", "--limit",
                          "max_open_tables_per_client=100000", "--limit",
                          "client_move_burst=100000", "--limit", "client_moves_per_second=100000",
                          "--limit", "max_sockets_per_client=100000",
                          "--limit", "max_connections=100000",
                          "--limit", "max_connections_per_client=100000",
                          "--limit", "max_requests_per_client=100000",
                          "--limit", "read_burst=100000", "--limit", "reads_per_minute=1e9",
                          # every invite link a browser test opens is exchanged: a seat taken
                          "--limit", "join_burst=100000",
                          # and a browser test's names come from one address too (the web
                          # suite in one process made more than the burst of five)
                          "--limit", "new_player_burst=100000")
"""Per-client limits lifted for servers that one test process drives with many tables from
one address (tests/server/test_limits.py tests the limits themselves; the load benchmark
holds two WebSockets a table, all from one address: 2,000 sockets at 1,000 tables, past a
worker's default connection limits (its own, and one address's where that address is no
trusted proxy); each socket's connect takes a read token; with ``--moves http`` its
requests in progress pass ``max_requests_per_client``)."""


class Server:
    """A `bigtop serve` process on a free loopback port."""

    program: tuple[str, ...] = (BIGTOP,)
    """The command before ``serve`` (the load benchmark's ``--bot-tables`` runs one that
    logs each bot move first)."""

    def __init__(self, db: str, log: Path, *extra: str) -> None:
        self.db = db
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 90.0) -> Server:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [*self.program, "serve", "--port", str(self.port), "--db", self.db,
                 "--bot-delay", "0",
                 *ONE_CLIENT_MANY_TABLES,
                 # one bot process (not one a core): less to start and stop on 2 busy cores
                 *(() if "--bot-processes" in self.extra else ("--bot-processes", "1")),
                 *self.extra], stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/api/games", timeout=1.0).status_code == 200:
                    return self
            time.sleep(0.05)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
