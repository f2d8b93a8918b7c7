"""Load benchmark of `bigtop serve`: N tables played at once by simulated clients on loopback.

Every table is a two-player SCOUT game between two simulated people (no bots, so no bot
thinking is measured; ``--bot-tables`` adds bots' tables beside them, below). Each person
holds a WebSocket; the one to move waits ``--think`` seconds (default 1: each table makes
about one move a second, so N tables offer N moves a second) and sends the move over its
WebSocket (``--moves http``: as a POST). A move's latency runs from sending it to the
moment *both* clients of the table have the view of the new version. Reported: moves served
per second over the run (both clients had them in it), p50/p99 latency of the moves sent in
it, and the CPU time the servers and this client process spent in it per move served
(figures that do not depend on how busy the machine is; a saturated server also answers,
seconds late, moves sent before the run, so they are counted where the work is done).

The tables start out of step: each table's first move waits a random part of one think
time, so the offered load is N moves a second spread over the second, as N people who sat
down at different times would make it, not N moves in one burst every second (which only
the common start would cause). Only the table's first move: when each client's first move
was shortened, the second person's first move (in SCOUT each player's first turn of a round
is two moves, the hand's way up and then a show, so it came after the warm-up) was a short
turn inside the counted time, half a move more per table on average, and the benchmark
served 3–7% more than N/think. ``--think-max M`` draws each think time from ``--think`` to
M seconds instead (a person, rather than a metronome). Moves sent in the first
``--warmup`` seconds (default: the longest think time, by when every table has moved once)
are played but not counted.

    .venv/bin/python bench/bench_server.py --tables 10 100 1000 --seconds 20
    .venv/bin/python bench/bench_server.py --tables 1000 --think 2 --think-max 10
    .venv/bin/python bench/bench_server.py --tables 100 --db postgresql --workers 2
    .venv/bin/python bench/bench_server.py --requests 1000 --http httptools bounded h11

``--beside boardgame.io`` runs the same load on bigtop and on a boardgame.io 0.50 stand-in
(`bench/boardgameio/`: a two-player card game with SCOUT's turn shape, its server in memory
and with its FlatFile store, and a Node load generator speaking its socket.io protocol;
installed by `make bench-server`), in turn, ``--rounds`` times each, and prints each side's
median row and the ratios bigtop ÷ boardgame.io. Both sides are then played by the same
client, that Node load generator (`load.js --server bigtop` speaks bigtop's WebSocket
protocol as the web front end does): this Python client costs about twice the CPU a move of
the Node one, and at 1,000 tables a second its own event loop fell behind by 50–270 ms
several times a second, which the latencies it measured included (bigtop at 1,000 tables,
the same build, one run each: p50 11.9 ms and p99 195 ms measured by this client, 3.6 ms
and 40 ms by the Node one). ``--client python`` measures bigtop with this client anyway;
``--client node`` uses the Node one without ``--beside``:

    .venv/bin/python bench/bench_server.py --beside boardgame.io --tables 10 100 --seconds 15

``--db postgresql`` starts a throwaway PostgreSQL cluster (Debian's postgresql, as in the
tests) and runs two `bigtop serve` processes on it; the two clients of each table connect to
different workers, so every update crosses LISTEN/NOTIFY. It also reports what the database
did in the counted time per move served: transactions (``pg_stat_database``), and the scans
of each table (index and sequential: a statement's reads and the lookups of its writes) and
the rows they read (``pg_stat_user_tables``). PostgreSQL flushes these counters about once
a second, so a run's edges blur them by about a second's worth.

``--src DIR …`` runs the servers of each source tree in turn (``PYTHONPATH=DIR``, pure
Python), ``--rounds`` times, and prints the medians and their ratios to the first tree: a
change measured beside its base in one session (the base's ``src`` from ``git archive``):

    git archive main src | tar -x -C /tmp/base
    .venv/bin/python bench/bench_server.py --tables 100 --seconds 15 --db postgresql \
        --src /tmp/base/src src --rounds 3

``--bot-tables M`` runs each load alone and then with M more tables beside it where bots
of ``--bot-level`` (default: the default level, medium) play, in turn (``--rounds``; the
next round runs the bots first): a simulated person against a bot (``--bot-seats one``,
the person paced like the others), or bots in both seats (``all``: as fast as the pool
lets them, after ``--bot-delay``). Each bot run reports the people's p50/p99 (and their
medians' ratios to the runs alone), the cores the server and its bot pool used, bot moves
a second, and for every bot move stored in the counted time its wait from the table's
previous move until its own was stored (the database's times), split by the pool's DEBUG
lines (``BOT_LOG``) into queueing and thinking, against the level's budget, and how long
it queued while a move asked for later was already thinking (``behind_ms``):

    .venv/bin/python bench/bench_server.py --tables 200 --bot-tables 200 --think 2 \
        --think-max 10 --seconds 20 --src /tmp/base/src src

Over HTTP at most ``HTTP_IN_FLIGHT`` moves are in flight per server (more wait here): the
HTTP client's connection pool spends time in proportion to queued requests times
connections on every request, so a thousand requests queued at once stall this client while
the server idles (what an earlier version of this benchmark ran into at 1,000 tables).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import itertools
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.server.pg import free_port, new_database, throwaway_cluster
from tests.server.processes import Server

from bigtop.agents.levels import DEFAULT_LEVEL, MOVE_BUDGET_MS

BOARDGAMEIO = Path(__file__).resolve().parent / "boardgameio"
"""The boardgame.io stand-in: its game, server and load generator (Node)."""
SIDES = ("bigtop", "bigtop compressed", "boardgame.io in memory", "boardgame.io FlatFile")
"""What ``--beside boardgame.io`` runs, in turn: bigtop as `bigtop serve` runs by default
(views uncompressed: the same work on the wire as boardgame.io, whose socket.io server does
not compress either), bigtop with ``--ws-compression`` (permessage-deflate, which browsers
and the Node client offer), and boardgame.io's two servers."""
BIGTOP_SIDES = {"bigtop": (), "bigtop compressed": ("--ws-compression",)}
"""The bigtop sides and their `bigtop serve` options."""
FIGURES = ("moves_per_s", "p50_ms", "p99_ms", "server_cpu_ms_per_move")
"""The figures compared (medians of the rounds; ratios bigtop ÷ boardgame.io)."""
DB_FIGURES = ("db_xacts_per_move", "db_scans_per_move", "db_rows_per_move")
"""What the database did per move served (PostgreSQL only)."""

HTTP_IN_FLIGHT = 64
"""Moves in flight at once per server over HTTP (the client's pool has as many
connections, so no request queues inside it)."""


class Table:
    """A table and its simulated people: one client for each token (seat ``k`` holds
    ``tokens[k]``; a table against a bot has one)."""

    def __init__(self, table_id: str, tokens: list[str]) -> None:
        self.id = table_id
        self.tokens = tokens
        self.seen = [0] * len(tokens)  # newest version each client has
        self.sent_at: dict[int, float] = {}  # version before the move -> when sent
        self.latencies: list[float] = []
        self.finished = False
        self.errors = 0
        self.served = 0  # moves both clients had in full during the counted time
        self.moved = False  # whether the table's first move was made (see the module's doc)


class Clock:
    """Starts the run once every client is connected (connecting 2,000 sockets takes a
    while and is not what is measured)."""

    def __init__(self, clients: int, seconds: float, warmup: float,
                 cpu: Callable[[], tuple[float, float]],
                 db: Callable[[], dict[str, int]] | None = None,
                 pool: Callable[[], float] | None = None) -> None:
        self.cpu = cpu
        self.cpu0 = self.cpu1 = (0.0, 0.0)
        self.pool = pool
        self.pool0 = self.pool1 = 0.0
        self.epoch0 = self.epoch1 = 0.0
        """The counted time in epoch seconds (as the server stores moves)."""
        self.db = db
        self.db0: dict[str, int] = {}
        self.db1: dict[str, int] = {}
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
        self.epoch0 = time.time()
        if self.pool is not None:
            self.pool0 = self.pool()
        if self.db is not None:
            self.db0 = self.db()

    def _counted(self) -> None:
        """CPU time counts up to the end of the run (not the closing of every socket after
        it)."""
        self.cpu1 = self.cpu()
        self.client_cpu1 = time.process_time()
        self.epoch1 = time.time()
        if self.pool is not None:
            self.pool1 = self.pool()
        if self.db is not None:
            self.db1 = self.db()


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


@dataclass(frozen=True)
class BotLoad:
    """``--bot-tables``: ``tables`` more SCOUT tables where bots of ``level`` play, made
    through the same API as the people's: ``seats="one"``, a simulated person (paced like
    the others) against a bot; ``"all"``, bots in both seats (they play as fast as the
    pool lets them, after the server's ``--bot-delay``)."""

    tables: int
    level: str = DEFAULT_LEVEL
    seats: str = "one"

    async def create(self, api: httpx.AsyncClient) -> Table:
        bot = {"kind": "bot", "level": self.level}
        seats = [bot, bot] if self.seats == "all" else [{"kind": "human"}, bot]
        r = await api.post("/api/tables", json={"game": "scout", "players": 2, "listed": False,
                                                "options": {"rounds": 20}, "seats": seats})
        r.raise_for_status()
        made = r.json()
        return Table(made["table"], [s["token"] for s in made["seats"] if s["token"]])


BOT_LOG = """import logging, sys
handler = logging.FileHandler(sys.argv.pop(1))
handler.setFormatter(logging.Formatter("%(message)s"))
bots = logging.getLogger("bigtop.server.bots")
bots.setLevel(logging.DEBUG)
bots.addHandler(handler)
bots.propagate = False
from bigtop.cli import app
sys.argv[0] = "bigtop"
app()
"""
"""``bigtop serve`` with the bot pool's DEBUG lines (when each bot move reached the pool,
started, came back: server/bots.py) written to the file named first: set up in the server's
process before uvicorn runs it there (each ``bigtop serve`` here is one worker process),
nothing in the server changed for it."""

BOT_LINE = re.compile(r"bot move at (\S+): arrived ([\d.]+) started ([\d.]+) done ([\d.]+)")


class LoggedServer(Server):
    """A `bigtop serve` whose bot pool logs every bot move to ``bot_log``."""

    def __init__(self, db: str, log: Path, bot_log: Path, *extra: str) -> None:
        super().__init__(db, log, *extra)
        self.program = (sys.executable, "-c", BOT_LOG, str(bot_log))


def bot_waits(moves: list[tuple[str, int, str | None, float]],
              pool_lines: list[tuple[str, float, float, float]],
              window: tuple[float, float], budget_ms: float) -> dict[str, Any]:
    """Every bot move stored in ``window`` (epoch seconds) at the bot tables: the wait from
    when the table became the bot's turn (its previous move stored) until the bot's move
    was stored, and, from the pool's lines (table, arrived, started, done) that fall in it,
    its parts: queueing (reached the pool until a process took it) and thinking (until its
    answer came back); the rest is the worker's (the bot's view, storing, sending).
    ``moves``: (table, index, bot level or None, stored at) of the bot tables' moves.

    >>> moves = [("a", 0, None, 10.0), ("a", 1, "medium", 10.05), ("a", 2, "medium", 10.3),
    ...          ("b", 0, "medium", 10.0), ("b", 1, "medium", 10.4)]
    >>> lines = [("a", 10.01, 10.02, 10.04), ("a", 10.06, 10.2, 10.29),
    ...          ("b", 10.01, 10.3, 10.39)]
    >>> w = bot_waits(moves, lines, (10.0, 11.0), 100.0)
    >>> w["bot_moves"], w["queue_over_budget"], w["wait_over_budget"]
    (3, 0.67, 0.67)
    >>> w["wait_ms"], w["queue_ms"]
    ({'p50': 250.0, 'p99': 400.0, 'max': 400.0}, {'p50': 140.0, 'p99': 290.0, 'max': 290.0})
    >>> w["bot_moves_a_table"]
    {'min': 1, 'median': 1.5, 'max': 2}
    """
    by_table: dict[str, list[tuple[int, str | None, float]]] = {}
    for table_id, idx, by_bot, at in moves:
        by_table.setdefault(table_id, []).append((idx, by_bot, at))
    lines: dict[str, list[tuple[float, float, float]]] = {}
    for table_id, arrived, started, done in pool_lines:
        lines.setdefault(table_id, []).append((arrived, started, done))
    waits, queues, thoughts, rest = [], [], [], []
    counts = []
    every = sum(window[0] <= at <= window[1] for _, _, _, at in moves)
    for table_id, rows in by_table.items():
        rows.sort()
        counted = 0
        for (_, _, before), (_, by_bot, at) in itertools.pairwise(rows):
            if by_bot is None or not window[0] <= at <= window[1]:
                continue
            counted += 1
            waits.append(at - before)
            mine = [x for x in lines.get(table_id, ()) if before - 1e-3 <= x[0] <= at]
            if mine:
                arrived, started, done = mine[-1]
                queues.append(started - arrived)
                thoughts.append(done - started)
                rest.append(at - before - (done - arrived))
        counts.append(counted)

    def spread(xs: list[float]) -> dict[str, float | None]:
        xs = sorted(xs)
        return {"p50": _ms(xs, 0.5), "p99": _ms(xs, 0.99),
                "max": round(1000 * xs[-1], 1) if xs else None}

    budget = budget_ms / 1000
    behind = passed_by_later(pool_lines, window)
    return {"bot_moves": len(waits), "bot_table_moves": every,
            "bot_moves_per_s": round(len(waits) / max(1e-9, window[1] - window[0]), 1),
            "budget_ms": budget_ms, "wait_ms": spread(waits), "queue_ms": spread(queues),
            "think_ms": spread(thoughts), "worker_ms": spread(rest),
            # the share of bot moves that queued (or waited in all) past one move's budget
            "queue_over_budget": round(sum(q > budget for q in queues) / len(queues), 2)
            if queues else None,
            "wait_over_budget": round(sum(w > budget for w in waits) / len(waits), 2)
            if waits else None,
            # how long moves asked for later (at other tables) had been thinking while a
            # move still queued: the goal's "waits behind others", against the budget
            "behind_ms": spread(behind),
            "behind_over_budget": round(sum(b > budget for b in behind) / len(behind), 3)
            if behind else None,
            # bot moves each bot table made in the counted time (a starved table: 0)
            "bot_moves_a_table": {"min": min(counts), "median": statistics.median(counts),
                                  "max": max(counts)} if counts else None}


def passed_by_later(pool_lines: list[tuple[str, float, float, float]],
                    window: tuple[float, float]) -> list[float]:
    """For each bot move the pool started in ``window``: how long before it the first move
    that reached the pool after it had started (0 when none passed it): the time a bot
    waited behind others that asked later.

    >>> lines = [("a", 1.0, 1.5, 1.6), ("b", 1.1, 1.2, 1.3), ("c", 1.2, 1.6, 1.7)]
    >>> [round(x, 3) for x in passed_by_later(lines, (0.0, 9.0))]
    [0.3, 0.0, 0.0]
    """
    ordered = sorted(pool_lines, key=lambda x: x[1])
    first_later = float("inf")  # the earliest start of the moves that arrived later
    out = []
    for _, _, started, _ in reversed(ordered):
        if window[0] <= started <= window[1]:
            out.append(max(0.0, started - first_later))
        first_later = min(first_later, started)
    return out[::-1]


def read_bot_moves(url: str, table_ids: list[str]) -> list[tuple[str, int, str | None, float]]:
    """(table, index, bot level or None, stored at) of every move at ``table_ids``."""
    from sqlalchemy import text

    from bigtop.server.db import make_engine

    wanted = set(table_ids)
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT table_id, idx, by_bot, created_at FROM moves"))
            return [(t, int(i), b, float(at)) for t, i, b, at in rows if t in wanted]
    finally:
        engine.dispose()


def read_pool_lines(path: Path) -> list[tuple[str, float, float, float]]:
    """The bot pool's lines (:data:`BOT_LOG`): (table, arrived, started, done)."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        m = BOT_LINE.search(line)
        if m:
            out.append((m[1], float(m[2]), float(m[3]), float(m[4])))
    return out


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (its bot pool), from /proc."""
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            out += [int(c) for c in (task / "children").read_text().split()]
    return out


def _pools_cpu(servers: list[Server]) -> float:
    """User + system CPU of the servers' children (their bot pools) so far."""
    total = 0.0
    for s in servers:
        assert s.proc is not None
        for child in _children(s.proc.pid):
            with contextlib.suppress(OSError):
                total += _cpu_seconds(child)[0]
    return total


@contextlib.asynccontextmanager
async def open_socket(base: str, table: Table, seat: int) -> AsyncIterator[Any]:
    """The WebSocket of ``seat`` at ``table``, authenticated as that seat: how the token
    travels is said here only (a header, never the URL)."""
    url = base.replace("http", "ws", 1) + f"/api/tables/{table.id}/ws"
    auth = {"authorization": f"Bearer {table.tokens[seat]}"}
    async with websockets.connect(url, max_size=2**22, open_timeout=600,
                                  additional_headers=auth) as ws:
        yield ws


async def client(table: Table, seat: int, base: str, mover: Mover, clock: Clock,
                 think: Callable[[], float]) -> None:
    async with open_socket(base, table, seat) as ws:
        await clock.connected()
        deadline = clock.deadline
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
                if not table.moved:  # out of step with the other tables (see the module's doc)
                    pause *= random.random()
                    table.moved = True
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
              cpu: Callable[[], tuple[float, float]],
              db: Callable[[], dict[str, int]] | None = None,
              bots: BotLoad | None = None,
              pool: Callable[[], float] | None = None) -> dict[str, Any]:
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
    bot_tables = [] if bots is None else [await bots.create(apis[0]) for _ in range(bots.tables)]
    clock = Clock(sum(len(t.tokens) for t in tables + bot_tables), seconds, warmup, cpu, db,
                  pool)
    await asyncio.gather(*(client(t, seat, bases[seat % len(bases)],
                                  movers[seat % len(movers)], clock, think)
                           for t in tables + bot_tables for seat in range(len(t.tokens))))
    elapsed = clock.seconds
    cpu_used = clock.cpu1[0] - clock.cpu0[0]
    system = clock.cpu1[1] - clock.cpu0[1]
    client_cpu = clock.client_cpu1 - clock.client_cpu0
    for api in apis:
        await api.aclose()
    lat = sorted(x for t in tables for x in t.latencies)
    moves = len(lat)
    served = sum(t.served for t in tables)
    db_figures: dict[str, Any] = {}
    if db is not None:
        per = {k: (clock.db1[k] - clock.db0.get(k, 0)) / max(1, served) for k in clock.db1}
        db_figures = {
            "db_xacts_per_move": round(per.pop("xacts"), 2),
            "db_scans_per_move": round(sum(v for k, v in per.items()
                                           if k.startswith("scans ")), 2),
            "db_rows_per_move": round(sum(v for k, v in per.items()
                                          if k.startswith("rows ")), 1),
            "db_per_move": {k: round(v, 2) for k, v in sorted(per.items()) if v}}
    bot_figures: dict[str, Any] = {}
    if bots is not None:
        beside = sorted(x for t in bot_tables for x in t.latencies)
        bot_figures = {
            "bot_tables": bots.tables, "bot_level": bots.level, "bot_seats": bots.seats,
            # the people at the tables against a bot: from their move to its view
            "bot_table_people_p50_ms": _ms(beside, 0.5),
            "bot_table_people_p99_ms": _ms(beside, 0.99),
            "pool_cores": round((clock.pool1 - clock.pool0) / elapsed, 2),
            "server_cores": round(cpu_used / elapsed, 2),
            "_bot_table_ids": [t.id for t in bot_tables], "_server_cpu_s": cpu_used,
            "_window": (clock.epoch0, clock.epoch1)}
    return {"tables": n, "seconds": round(elapsed, 1), "moves": moves, **db_figures,
            **bot_figures,
            "moves_per_s": round(served / elapsed, 1),
            "refused": sum(t.errors for t in tables),
            "p50_ms": _ms(lat, 0.5), "p99_ms": _ms(lat, 0.99),
            # CPU the servers (and this client) spent during the counted time per move
            # served in it (also the moves sent before it, which a saturated server
            # answers seconds late): figures that do not depend on how busy the machine was
            "server_cpu_ms_per_move": round(1000 * cpu_used / max(1, served), 3),
            "client_cpu_ms_per_move": round(1000 * client_cpu / max(1, served), 3),
            # the part of the servers' CPU spent in the kernel (sockets, wake-ups)
            "server_system_share": round(system / cpu_used, 2) if cpu_used else None}


def _ms(sorted_seconds: list[float], q: float) -> float | None:
    """The ``q`` quantile of sorted seconds, in milliseconds (the median for 0.5; None of
    none).

    >>> _ms([0.001, 0.002, 0.004], 0.5), _ms([0.001, 0.002, 0.004], 0.99), _ms([], 0.5)
    (2.0, 4.0, None)
    """
    if not sorted_seconds:
        return None
    if q == 0.5:
        return round(1000 * statistics.median(sorted_seconds), 1)
    return round(1000 * sorted_seconds[min(len(sorted_seconds) - 1,
                                           int(q * len(sorted_seconds)))], 1)


def _cpu_seconds(pid: int) -> tuple[float, float]:
    """User + system CPU time of a process so far, and the system part (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick, int(fields[12]) / tick


def _servers_cpu(servers: list[Server]) -> tuple[float, float]:
    """:func:`_cpu_seconds` of all the servers together."""
    times = []
    for s in servers:
        assert s.proc is not None
        times.append(_cpu_seconds(s.proc.pid))
    return sum(t for t, _ in times), sum(k for _, k in times)


def _db_counts(url: str) -> dict[str, int]:
    """The database's transactions so far, and each table's scans and the rows they read
    (``"scans moves"``, ``"rows moves"``…)."""
    import psycopg
    from sqlalchemy import make_url

    conninfo = make_url(url).set(drivername="postgresql").render_as_string(
        hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        xacts = conn.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database "
            "WHERE datname = current_database()").fetchone()
        assert xacts is not None
        out = {"xacts": int(xacts[0])}
        for name, scans, rows in conn.execute(
                "SELECT relname, coalesce(seq_scan, 0) + coalesce(idx_scan, 0), "
                "coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) "
                "FROM pg_stat_user_tables"):
            out["scans " + name], out["rows " + name] = int(scans), int(rows)
    return out


def per_request(protocols: list[str], requests: int, rounds: int, tmp: Path) -> None:
    """Server CPU per plain GET of a table view on one keep-alive connection, for each HTTP
    protocol in turn (``rounds`` times, alternating), and the medians' ratios to the first:
    what the protocol's own checks cost, apart from WebSockets and moves."""
    cpu: dict[str, list[float]] = {h: [] for h in protocols}
    for r in range(rounds):
        for http in protocols:
            server = Server(f"sqlite:///{tmp}/requests-{http}-{r}.sqlite3",
                            tmp / f"requests-{http}.log", "--http", http).start(timeout=120)
            try:
                with httpx.Client(base_url=server.base, timeout=60.0) as c:
                    table = c.post("/api/tables", json={"game": "scout", "players": 2}).json()
                    path = f"/api/tables/{table['table']}"
                    for _ in range(50):  # warm up
                        c.get(path)
                    assert server.proc is not None
                    before = _cpu_seconds(server.proc.pid)[0]
                    for _ in range(requests):
                        c.get(path).raise_for_status()
                    used = _cpu_seconds(server.proc.pid)[0] - before
                    cpu[http].append(used / requests * 1e6)
            finally:
                server.stop()
    ref = statistics.median(cpu[protocols[0]])
    for http, values in cpu.items():
        print(json.dumps({"http": http, "requests": requests, "rounds": rounds,
                          "server_cpu_us_per_get": [round(v) for v in values],
                          "median_us": round(statistics.median(values)),
                          "ratio_to_" + protocols[0]: round(statistics.median(values) / ref, 3),
                          "load_average": round(os.getloadavg()[0], 1)}), flush=True)


def run_bigtop(n: int, seconds: float, warmup: float, think: Callable[[], float],
               moves_over: str, db: str, workers: int, logs: Path,
               http: str, bots: BotLoad | None = None,
               server_args: tuple[str, ...] = (),
               node: tuple[float, float] | None = None) -> dict[str, Any]:
    """One run on bigtop: ``workers`` `bigtop serve` processes on ``db``, speaking ``http``
    (``bots``: with bot tables beside the people's, each bot move's wait read afterwards
    from the database and the pool's lines). ``node``: played by the Node load generator
    (``--client node``; the think times from and to), not this process."""
    name = f"{n}-{0 if bots is None else bots.tables}-{time.monotonic_ns()}"
    extra = ("--moves-per-second", "1000", "--http", http, *server_args)
    servers = [LoggedServer(db, logs / f"server-{name}-{w}.log", logs / f"bots-{name}-{w}.log",
                            *extra) if bots is not None
               else Server(db, logs / f"server-{name}-{w}.log", *extra)
               for w in range(workers)]
    try:
        for s in servers:
            s.start(timeout=120)
        if node is not None:
            return node_load("bigtop", servers[0].base, n, seconds, warmup, *node,
                             functools.partial(_servers_cpu, servers))
        out = asyncio.run(run([s.base for s in servers], n, seconds, warmup, think,
                              moves_over, functools.partial(_servers_cpu, servers),
                              functools.partial(_db_counts, db)
                              if db.startswith("postgresql") else None, bots,
                              functools.partial(_pools_cpu, servers)))
    finally:
        for s in servers:
            s.stop()
    if bots is not None:
        ids, window = out.pop("_bot_table_ids"), out.pop("_window")
        lines = [x for w in range(workers)
                 for x in read_pool_lines(logs / f"bots-{name}-{w}.log")]
        out.update(bot_waits(read_bot_moves(db, ids), lines, window,
                             MOVE_BUDGET_MS.get(bots.level, 0.0)))
        # the servers' CPU per move of any table (the people's, the bot tables' both)
        moves = out["moves_per_s"] * out["seconds"] + out.pop("bot_table_moves")
        out["server_cpu_ms_per_any_move"] = round(1000 * out.pop("_server_cpu_s")
                                                  / max(1.0, moves), 3)
    else:
        out["server_cpu_ms_per_any_move"] = out["server_cpu_ms_per_move"]
    return out


def node_load(server: str, url: str, n: int, seconds: float, warmup: float, think: float,
              think_max: float, cpu: Callable[[], tuple[float, float]]) -> dict[str, Any]:
    """One run of the Node load generator (`bench/boardgameio/load.js`) against ``server``
    ("bigtop" or "boardgameio") at ``url``; the server's CPU (``cpu``) is read when it says
    the counted time starts and ends."""
    load = subprocess.Popen(
        ["node", "load.js", "--server", server, "--url", url, "--tables", str(n),
         "--seconds", str(seconds), "--think", str(think), "--think-max", str(think_max),
         "--warmup", str(warmup)],
        cwd=BOARDGAMEIO, env={**os.environ, "NODE_ENV": "production"},
        stdout=subprocess.PIPE, text=True)
    try:
        assert load.stdout is not None
        cpu0 = cpu1 = (0.0, 0.0)
        out: dict[str, Any] = {}
        for line in load.stdout:
            if line.startswith("counting"):
                cpu0 = cpu()
            elif line.startswith("counted"):
                cpu1 = cpu()
            elif line.startswith("{"):
                out = json.loads(line)
        if load.wait(timeout=60) != 0 or not out:
            raise RuntimeError(f"the Node load generator failed against {server}")
    finally:
        if load.poll() is None:
            load.terminate()
            load.wait(10)
    used, system = cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]
    served = out["moves_per_s"] * seconds
    out.update(server_cpu_ms_per_move=round(1000 * used / max(1.0, served), 3),
               server_system_share=round(system / used, 2) if used else None,
               client="node")
    return out


def _need_node_modules() -> None:
    if not (BOARDGAMEIO / "node_modules").is_dir():
        raise SystemExit("bench/boardgameio/node_modules is missing: run `make bench-server` "
                         "(it installs boardgame.io from bench/boardgameio/package-lock.json)")


def run_boardgameio(store: str, n: int, seconds: float, warmup: float, think: float,
                    think_max: float, tmp: Path) -> dict[str, Any]:
    """One run on the boardgame.io stand-in (``store``: "memory" or "flatfile"): its server
    and the Node load generator, two Node processes."""
    _need_node_modules()
    port = free_port()
    env = {**os.environ, "NODE_ENV": "production"}  # as deployed: no development checks
    data = tmp / f"flatfile-{n}-{time.monotonic_ns()}"
    with open(tmp / f"boardgameio-{store}-{n}.log", "ab") as log:
        server = subprocess.Popen(["node", "server.js", str(port), store, str(data)],
                                  cwd=BOARDGAMEIO, env=env, stdout=subprocess.PIPE, stderr=log)
    try:
        assert server.stdout is not None
        if not server.stdout.readline().startswith(b"ready"):
            raise RuntimeError(f"the boardgame.io server did not start (see {log.name})")
        return node_load("boardgameio", f"http://127.0.0.1:{port}", n, seconds, warmup,
                         think, think_max, functools.partial(_cpu_seconds, server.pid))
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(10)


def in_turn(round_index: int) -> tuple[str, ...]:
    """The sides in the order a round runs them: each round starts with the next side, so
    none always runs first (or just after another's load)."""
    k = round_index % len(SIDES)
    return SIDES[k:] + SIDES[:k]


def medians(rows: list[dict[str, Any]]) -> dict[str, float | None]:
    """Each figure's median over the rounds (None where no round had one).

    >>> medians([{"p50_ms": 2.0, "moves_per_s": 9}, {"p50_ms": 4.0, "moves_per_s": 10},
    ...          {"p50_ms": None, "moves_per_s": 11}])["p50_ms"]
    3.0
    """
    out: dict[str, float | None] = {}
    for key in FIGURES:
        values = [r[key] for r in rows if r.get(key) is not None]
        out[key] = round(statistics.median(values), 3) if values else None
    return out


def ratios(ours: dict[str, float | None], theirs: dict[str, float | None]
           ) -> dict[str, float | None]:
    """bigtop ÷ the other side, figure by figure (moves/s: above 1 is better; latency and
    CPU: below 1 is better).

    >>> ratios({"moves_per_s": 100, "p50_ms": 2.0, "p99_ms": 9.0, "server_cpu_ms_per_move": 1},
    ...        {"moves_per_s": 50, "p50_ms": 4.0, "p99_ms": 0, "server_cpu_ms_per_move": None})
    {'moves_per_s': 2.0, 'p50_ms': 0.5, 'p99_ms': None, 'server_cpu_ms_per_move': None}
    """
    out: dict[str, float | None] = {}
    for key in FIGURES:
        a, b = ours.get(key), theirs.get(key)
        out[key] = round(a / b, 2) if a is not None and b else None
    return out


def report(load: str, figures: dict[str, dict[str, float | None]]) -> str:
    """The comparison of one load as a Markdown table: each side's medians, then each bigtop
    side ÷ each boardgame.io server.

    >>> print(report("10 tables, think 1 s", {
    ...     "bigtop": {"moves_per_s": 10.0, "p50_ms": 2.0, "p99_ms": 6.0,
    ...                "server_cpu_ms_per_move": 1.5},
    ...     "boardgame.io in memory": {"moves_per_s": 10.0, "p50_ms": 4.0, "p99_ms": 12.0,
    ...                                "server_cpu_ms_per_move": 3.0}}))
    | 10 tables, think 1 s | moves/s served | p50 ms | p99 ms | server CPU ms a move |
    |---|---|---|---|---|
    | bigtop | 10 | 2 | 6 | 1.5 |
    | boardgame.io in memory | 10 | 4 | 12 | 3 |
    | bigtop ÷ boardgame.io in memory | 1 | 0.5 | 0.5 | 0.5 |
    """
    def cell(x: float | None) -> str:
        return "–" if x is None else f"{x:g}"

    lines = [f"| {load} | moves/s served | p50 ms | p99 ms | server CPU ms a move |",
             "|---|---|---|---|---|"]
    for side, row in figures.items():
        lines.append(f"| {side} | " + " | ".join(cell(row[k]) for k in FIGURES) + " |")
    for ours, mine in figures.items():
        if ours not in BIGTOP_SIDES:
            continue
        for side, row in figures.items():
            if side not in BIGTOP_SIDES:
                r = ratios(mine, row)
                lines.append(f"| {ours} ÷ {side} | " + " | ".join(cell(r[k]) for k in FIGURES)
                             + " |")
    return "\n".join(lines)


@contextlib.contextmanager
def _environment_kept(*names: str) -> Iterator[None]:
    """The environment variables ``names`` as they were once the block ends (``--src``
    points the servers it starts at each tree in turn through them)."""
    saved = {k: os.environ.get(k) for k in names}
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _pure(args: argparse.Namespace) -> None:
    """``--src``: the trees' servers run pure Python (``BIGTOP_PURE=1``: a tree's compiled
    modules may be missing or stale), or with ``--compiled`` each tree's own compiled
    modules where they are built (copy them into a tree that has none)."""
    if args.compiled:
        os.environ.pop("BIGTOP_PURE", None)
    else:
        os.environ["BIGTOP_PURE"] = "1"


def beside_sources(sources: list[str], n: int, args: argparse.Namespace, warmup: float,
                   think: Callable[[], float], workers: int, cluster: str | None,
                   tmp: Path) -> None:
    """``--src``: the same load on the servers of each source tree, in turn (the first
    tree leads one round, the next the next), and the medians' ratios to the first."""
    rows: dict[str, list[dict[str, Any]]] = {src: [] for src in sources}
    with _environment_kept("PYTHONPATH", "BIGTOP_PURE"):
        for r in range(args.rounds):
            for src in sources[r % len(sources):] + sources[:r % len(sources)]:
                os.environ["PYTHONPATH"] = str(Path(src).resolve())
                _pure(args)
                db = (new_database(cluster) if cluster
                      else f"sqlite:///{tmp}/bench-{n}-{r}-{len(rows[src])}.sqlite3")
                out = run_bigtop(n, args.seconds, warmup, think, args.moves, db, workers,
                                 tmp, args.http[0],
                                 node=(args.think, args.think_max or args.think)
                                 if args.client == "node" else None)
                out.update(src=src, round=r + 1, db=args.db, workers=workers,
                           load_average=round(os.getloadavg()[0], 1))
                print(json.dumps(out), flush=True)
                rows[src].append(out)
    figures = FIGURES + (DB_FIGURES if cluster else ())
    ref = sources[0]
    for src in sources:
        med = {k: statistics.median(row[k] for row in rows[src]) for k in figures}
        base = {k: statistics.median(row[k] for row in rows[ref]) for k in figures}
        print(json.dumps({"tables": n, "src": src, "rounds": args.rounds, "median": med,
                          "ratio_to_" + ref: {k: round(med[k] / base[k], 3) if base[k]
                                              else None for k in figures}}), flush=True)


BESIDE_BOTS = ("p50_ms", "p99_ms", "server_cpu_ms_per_any_move")
"""The people's figures compared with and without bot tables."""


def beside_bots(n: int, args: argparse.Namespace, warmup: float, think: Callable[[], float],
                workers: int, cluster: str | None, tmp: Path) -> None:
    """``--bot-tables``: the ``n`` people's tables alone and with the bot tables beside them,
    in turn (``--rounds`` of each; the first round runs them alone first, the next with
    bots first), and the people's medians with bots ÷ without; with ``--src``, each tree's
    servers so (the trees in turn within a round)."""
    bots = BotLoad(args.bot_tables, args.bot_level, args.bot_seats)
    processes = args.bot_processes or max(1, (os.cpu_count() or 1) // workers)
    server_args = ("--bot-processes", str(processes), "--bot-delay", str(args.bot_delay))
    sources: list[str | None] = list(args.src or [None])
    rows: dict[tuple[str | None, bool], list[dict[str, Any]]] = {}
    with _environment_kept("PYTHONPATH", "BIGTOP_PURE"):
        for r in range(args.rounds):
            for src in sources[r % len(sources):] + sources[:r % len(sources)]:
                if src is not None:
                    os.environ["PYTHONPATH"] = str(Path(src).resolve())
                    _pure(args)
                for with_bots in ((False, True) if r % 2 == 0 else (True, False)):
                    db = (new_database(cluster) if cluster
                          else f"sqlite:///{tmp}/bench-{n}-{time.monotonic_ns()}.sqlite3")
                    out = run_bigtop(n, args.seconds, warmup, think, args.moves, db, workers,
                                     tmp, args.http[0], bots if with_bots else None,
                                     server_args)
                    out.update(src=src, round=r + 1, db=args.db, workers=workers,
                               bot_processes=processes,
                               load_average=round(os.getloadavg()[0], 1))
                    print(json.dumps(out), flush=True)
                    rows.setdefault((src, with_bots), []).append(out)
    for src in sources:
        alone = {k: statistics.median(x[k] for x in rows[src, False]) for k in BESIDE_BOTS}
        beside = {k: statistics.median(x[k] for x in rows[src, True]) for k in BESIDE_BOTS}
        print(json.dumps({"tables": n, "bot_tables": bots.tables, "bot_level": bots.level,
                          "bot_seats": bots.seats, "src": src, "rounds": args.rounds,
                          "alone": alone, "beside_bots": beside,
                          "ratio": {k: round(beside[k] / alone[k], 3) if alone[k] else None
                                    for k in BESIDE_BOTS}}), flush=True)


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
    p.add_argument("--requests", type=int, default=0,
                   help="instead of tables: server CPU per plain GET, this many requests a "
                        "round, for each --http protocol (3 rounds, alternating)")
    p.add_argument("--beside", choices=("boardgame.io",), default=None,
                   help="run the same load on boardgame.io's servers too, in turn")
    p.add_argument("--rounds", type=int, default=2,
                   help="with --beside or --src: runs of each per load (medians reported)")
    p.add_argument("--src", nargs="+", default=None,
                   help="run the servers of each of these source trees in turn "
                        "(PYTHONPATH, pure Python); ratios to the first")
    p.add_argument("--compiled", action="store_true",
                   help="with --src: each tree's compiled modules where built, not pure")
    p.add_argument("--bot-tables", type=int, default=0,
                   help="run each load alone and with this many bot tables beside it, in turn")
    p.add_argument("--bot-level", default=DEFAULT_LEVEL, help="the bot tables' level")
    p.add_argument("--bot-seats", choices=("one", "all"), default="one",
                   help="bot tables: a person against a bot (one), or bots only (all)")
    p.add_argument("--bot-processes", type=int, default=None,
                   help="with --bot-tables: each server's bot pool (default: bigtop serve's, "
                        "the cores shared by the workers)")
    p.add_argument("--bot-delay", type=float, default=0.0,
                   help="with --bot-tables: the servers' --bot-delay (seconds)")
    p.add_argument("--client", choices=("python", "node"), default=None,
                   help="what plays bigtop's tables: this process (python; the default), or "
                        "the Node load generator that plays boardgame.io's (node; the "
                        "default with --beside: both servers measured by the same client)")
    args = p.parse_args()
    if args.client is None:
        args.client = "node" if args.beside else "python"
    if args.client == "node":
        if args.bot_tables or args.moves != "ws" or (args.workers or 1) != 1 \
                or args.db != "sqlite" or len(args.http) > 1 or args.requests:
            p.error("--client node plays people's tables over WebSockets on one SQLite "
                    "worker (no --bot-tables, --moves http, --workers, --db postgresql, "
                    "several --http or --requests)")
        _need_node_modules()
    if args.requests:
        with tempfile.TemporaryDirectory() as scratch:
            per_request(args.http, args.requests, 3, Path(scratch))
        return
    workers = args.workers or (2 if args.db == "postgresql" else 1)
    rng = random.Random(12)
    low, high = args.think, args.think if args.think_max is None else args.think_max
    warmup = high if args.warmup is None else args.warmup
    random.seed(12)

    def think() -> float:
        return low if high == low else rng.uniform(low, high)

    node = (low, high) if args.client == "node" else None

    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        cluster = stack.enter_context(throwaway_cluster()) if args.db == "postgresql" else None
        if args.bot_tables:
            for n in args.tables:
                beside_bots(n, args, warmup, think, workers, cluster, tmp)
            return
        if args.src:
            for n in args.tables:
                beside_sources(args.src, n, args, warmup, think, workers, cluster, tmp)
            return
        for n in args.tables:
            runs: dict[str, list[dict[str, Any]]] = {}
            for r in range(args.rounds if args.beside else 1):
                sides = in_turn(r) if args.beside else SIDES[:1]
                for side in sides:
                    if side not in BIGTOP_SIDES:
                        store = "memory" if side.endswith("memory") else "flatfile"
                        outs = [run_boardgameio(store, n, args.seconds, warmup, low, high, tmp)]
                    else:
                        outs = []
                        for http in args.http:  # each HTTP protocol beside the first
                            db = (new_database(cluster) if cluster
                                  else f"sqlite:///{tmp}/bench-{n}-{r}-{http}.sqlite3")
                            out = run_bigtop(n, args.seconds, warmup, think, args.moves, db,
                                             workers, tmp, http,
                                             server_args=BIGTOP_SIDES[side], node=node)
                            out.update(moves_over=args.moves, db=args.db, workers=workers,
                                       http=http)
                            if http != args.http[0]:
                                ref = outs[0]
                                out["ratio_to_" + args.http[0]] = {
                                    k: round(out[k] / ref[k], 3) if ref.get(k) else None
                                    for k in ("moves_per_s", "p50_ms", "p99_ms",
                                              "server_cpu_ms_per_move")}
                            outs.append(out)
                    for out in outs:
                        out.update(side=side, round=r + 1, think_s=[low, high] if high != low
                                   else low, load_average=round(os.getloadavg()[0], 1))
                        print(json.dumps(out), flush=True)
                    runs.setdefault(side, []).append(outs[0])
            if args.beside:
                think_said = f"think {low:g}–{high:g} s" if high != low else f"think {low:g} s"
                print(report(f"{n:,} tables, {think_said}",
                             {side: medians(rows) for side, rows in runs.items()}) + "\n",
                      flush=True)


if __name__ == "__main__":
    main()
