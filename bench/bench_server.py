"""Load benchmark of `bigtop serve`: N tables played at once by simulated clients on loopback.

Every table is a two-player SCOUT game between two simulated people (no bots, so no bot
thinking is measured). Each person holds a WebSocket; the one to move waits ``--think``
seconds (default 1: each table makes about one move a second, so N tables offer N moves a
second) and sends the move over its WebSocket (``--moves http``: as a POST). A move's
latency runs from sending it to the moment *both* clients of the table have the view of the
new version. Reported: moves served per second over the run (both clients had them in it),
p50/p99 latency of the moves sent in it, and the CPU time the servers and this client
process spent in it per move served (figures that do not depend on how busy the machine
is; a saturated server also answers, seconds late, moves sent before the run, so they are
counted where the work is done).

The tables start out of step: each table's first move waits a random part of one think
time, so the offered load is N moves a second spread over the second, as N people who sat
down at different times would make it, not N moves in one burst every second (which only
the common start would cause). ``--think-max M`` draws each think time from ``--think`` to
M seconds instead (a person, rather than a metronome). Moves sent in the first
``--warmup`` seconds (default: the longest think time, by when every table has moved once)
are played but not counted.

    .venv/bin/python bench/bench_server.py --tables 10 100 1000 --seconds 20
    .venv/bin/python bench/bench_server.py --tables 1000 --think 2 --think-max 10
    .venv/bin/python bench/bench_server.py --tables 100 --db postgresql --workers 2

``--db postgresql`` starts a throwaway PostgreSQL cluster (Debian's postgresql, as in the
tests) and runs two `bigtop serve` processes on it; the two clients of each table connect to
different workers, so every update crosses LISTEN/NOTIFY.

Over HTTP at most ``HTTP_IN_FLIGHT`` moves are in flight per server (more wait here): the
HTTP client's connection pool spends time in proportion to queued requests times
connections on every request, so a thousand requests queued at once stall this client while
the server idles (what an earlier version of this benchmark ran into at 1,000 tables).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.server.conftest import Server
from tests.server.pg import new_database, throwaway_cluster

HTTP_IN_FLIGHT = 64
"""Moves in flight at once per server over HTTP (the client's pool has as many
connections, so no request queues inside it)."""


class Table:
    def __init__(self, table_id: str, tokens: list[str]) -> None:
        self.id = table_id
        self.tokens = tokens
        self.seen = [0, 0]  # newest version each client has
        self.sent_at: dict[int, float] = {}  # version before the move -> when sent
        self.latencies: list[float] = []
        self.finished = False
        self.errors = 0
        self.served = 0  # moves both clients had in full during the counted time


class Clock:
    """Starts the run once every client is connected (connecting 2,000 sockets takes a
    while and is not what is measured)."""

    def __init__(self, clients: int, seconds: float, warmup: float,
                 cpu: Callable[[], tuple[float, float]]) -> None:
        self.cpu = cpu
        self.cpu0 = self.cpu1 = (0.0, 0.0)
        self.client_cpu0 = self.client_cpu1 = 0.0
        self.waiting = clients
        self.seconds = seconds
        self.warmup = warmup
        self.go = asyncio.Event()
        self.start = self.counted_from = self.deadline = 0.0

    async def connected(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.start = time.monotonic()
            self.counted_from = self.start + self.warmup
            self.deadline = self.counted_from + self.seconds
            self.go.set()
            loop = asyncio.get_running_loop()
            loop.call_later(self.warmup, self._counting)
            loop.call_later(self.warmup + self.seconds, self._counted)
        await self.go.wait()

    def _counting(self) -> None:
        """CPU time counts from the end of the warm-up."""
        self.cpu0 = self.cpu()
        self.client_cpu0 = time.process_time()

    def _counted(self) -> None:
        """CPU time counts up to the end of the run (not the closing of every socket after
        it)."""
        self.cpu1 = self.cpu()
        self.client_cpu1 = time.process_time()


class Mover:
    """How a client sends its move: over its WebSocket, or as an HTTP POST (at most
    ``HTTP_IN_FLIGHT`` at once per server)."""

    def __init__(self, api: httpx.AsyncClient | None) -> None:
        self.api = api
        self.slots = asyncio.Semaphore(HTTP_IN_FLIGHT)

    async def send(self, ws: Any, table: Table, seat: int, version: int) -> bool:
        """Send one move; False if the server refused it."""
        if self.api is None:
            await ws.send(json.dumps({"type": "move", "version": version, "index": 0}))
            return True  # a refusal comes back as an error message
        async with self.slots:
            r = await self.api.post(f"/api/tables/{table.id}/moves",
                                    json={"version": version, "index": 0},
                                    headers={"authorization": f"Bearer {table.tokens[seat]}"})
        return r.status_code == 200


async def client(table: Table, seat: int, base: str, mover: Mover, clock: Clock,
                 think: Callable[[], float]) -> None:
    url = base.replace("http", "ws", 1) + f"/api/tables/{table.id}/ws"
    auth = {"authorization": f"Bearer {table.tokens[seat]}"}
    async with websockets.connect(url, max_size=2**22, open_timeout=600,
                                  additional_headers=auth) as ws:
        await clock.connected()
        deadline = clock.deadline
        first = True
        while time.monotonic() < deadline and not table.finished:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline -
                                                                   time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            if msg["type"] != "view":
                table.errors += 1  # a refused move: nothing else would make this table move
                table.finished = True
                break
            view = msg["view"]
            v = view["version"]
            table.seen[seat] = max(table.seen[seat], v)
            if min(table.seen) >= v and (v - 1) in table.sent_at:
                sent = table.sent_at.pop(v - 1)
                now = time.monotonic()
                if sent >= clock.counted_from:
                    table.latencies.append(now - sent)
                if clock.counted_from <= now <= deadline:
                    table.served += 1
            if view["status"] != "playing":
                table.finished = True
                break
            if view["legal_actions"] and v not in table.sent_at:
                pause = think()
                if first:  # out of step with the other tables (see the module's doc)
                    pause *= random.random()
                    first = False
                if pause:  # a person looks before moving (not past the end of the run)
                    await asyncio.sleep(min(pause, max(0.0, deadline - time.monotonic())))
                if time.monotonic() >= deadline:
                    break
                table.sent_at[v] = time.monotonic()
                if not await mover.send(ws, table, seat, v):
                    table.errors += 1
                    table.sent_at.pop(v, None)
                    table.finished = True  # nothing else would make this table move


async def run(bases: list[str], n: int, seconds: float, warmup: float,
              think: Callable[[], float], moves_over: str,
              cpu: Callable[[], tuple[float, float]]
              ) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=HTTP_IN_FLIGHT,
                          max_keepalive_connections=HTTP_IN_FLIGHT)
    apis = [httpx.AsyncClient(base_url=b, timeout=120.0, limits=limits) for b in bases]
    movers = [Mover(api if moves_over == "http" else None) for api in apis]
    tables = []
    for _ in range(n):
        r = await apis[0].post("/api/tables", json={"game": "scout", "players": 2,
                                                    "listed": False,
                                                    "options": {"rounds": 20}})
        made = r.json()
        tables.append(Table(made["table"], [s["token"] for s in made["seats"]]))
    clock = Clock(2 * n, seconds, warmup, cpu)
    await asyncio.gather(*(client(t, seat, bases[seat % len(bases)],
                                  movers[seat % len(movers)], clock, think)
                           for t in tables for seat in (0, 1)))
    elapsed = clock.seconds
    cpu_used = clock.cpu1[0] - clock.cpu0[0]
    system = clock.cpu1[1] - clock.cpu0[1]
    client_cpu = clock.client_cpu1 - clock.client_cpu0
    for api in apis:
        await api.aclose()
    lat = sorted(x for t in tables for x in t.latencies)
    moves = len(lat)
    served = sum(t.served for t in tables)
    return {"tables": n, "seconds": round(elapsed, 1), "moves": moves,
            "moves_per_s": round(served / elapsed, 1),
            "refused": sum(t.errors for t in tables),
            "p50_ms": round(1000 * statistics.median(lat), 1) if lat else None,
            "p99_ms": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 1)
            if lat else None,
            # CPU the servers (and this client) spent during the counted time per move
            # served in it (also the moves sent before it, which a saturated server
            # answers seconds late): figures that do not depend on how busy the machine was
            "server_cpu_ms_per_move": round(1000 * cpu_used / max(1, served), 3),
            "client_cpu_ms_per_move": round(1000 * client_cpu / max(1, served), 3),
            # the part of the servers' CPU spent in the kernel (sockets, wake-ups)
            "server_system_share": round(system / cpu_used, 2) if cpu_used else None}


def _cpu_seconds(server: Server) -> tuple[float, float]:
    """User + system CPU time of a server process so far, and the system part (Linux
    /proc)."""
    assert server.proc is not None
    fields = Path(f"/proc/{server.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick, int(fields[12]) / tick


def _servers_cpu(servers: list[Server]) -> tuple[float, float]:
    """:func:`_cpu_seconds` of all the servers together."""
    times = [_cpu_seconds(s) for s in servers]
    return sum(t for t, _ in times), sum(k for _, k in times)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, nargs="+", default=[10, 100, 1000])
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--think", type=float, default=1.0,
                   help="seconds a simulated person waits before each move (0: flat out)")
    p.add_argument("--think-max", type=float, default=None,
                   help="draw each think time from --think to this many seconds")
    p.add_argument("--warmup", type=float, default=None,
                   help="seconds played before moves count (default: the longest think)")
    p.add_argument("--moves", choices=("ws", "http"), default="ws",
                   help="send moves over the WebSocket (default) or as HTTP POSTs")
    p.add_argument("--http", nargs="+", choices=("bounded", "httptools", "h11"),
                   default=["bounded"],
                   help="the servers' HTTP protocol: bounded (bigtop serve's: httptools with "
                        "head, time and connection limits), or uvicorn's own without them; "
                        "several: run each in turn, and print the ratios to the first")
    p.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    p.add_argument("--workers", type=int, default=None,
                   help="server processes (default: 1 on SQLite, 2 on PostgreSQL)")
    args = p.parse_args()
    workers = args.workers or (2 if args.db == "postgresql" else 1)
    rng = random.Random(12)
    low, high = args.think, args.think if args.think_max is None else args.think_max
    random.seed(12)

    def think() -> float:
        return low if high == low else rng.uniform(low, high)

    results: dict[int, dict[str, Any]] = {}
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        cluster = stack.enter_context(throwaway_cluster()) if args.db == "postgresql" else None
        for n, http in ((n, h) for n in args.tables for h in args.http):
            db = new_database(cluster) if cluster else \
                f"sqlite:///{tmp}/bench-{n}-{http}.sqlite3"
            servers = [Server(db, tmp / f"server-{n}-{w}.log", "--moves-per-second", "1000",
                              "--http", http)
                       for w in range(workers)]
            for s in servers:
                s.start(timeout=120)
            try:
                warmup = high if args.warmup is None else args.warmup
                out = asyncio.run(run([s.base for s in servers], n, args.seconds, warmup,
                                      think, args.moves,
                                      functools.partial(_servers_cpu, servers)))
            finally:
                for s in servers:
                    s.stop()
            out.update(think_s=[low, high] if high != low else low, moves_over=args.moves,
                       db=args.db, workers=workers, http=http,
                       load_average=round(os.getloadavg()[0], 1))
            if http != args.http[0]:  # beside the first protocol's run at this size
                ref = results[n]
                out["ratio_to_" + args.http[0]] = {
                    k: round(out[k] / ref[k], 3) if ref.get(k) else None
                    for k in ("moves_per_s", "p50_ms", "p99_ms", "server_cpu_ms_per_move")}
            else:
                results[n] = out
            print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
