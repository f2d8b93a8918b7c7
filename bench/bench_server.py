"""Load benchmark of `bigtop serve`: N tables played at once by simulated clients on loopback.

Every table is a two-player SCOUT game between two simulated people (no bots, so no bot
thinking is measured). Each person holds a WebSocket; the one to move sends the move over
HTTP as soon as its view says so. A move's latency runs from sending the request to the
moment *both* clients of the table have the view of the new version. Reported: moves per
second over the run and the p50/p99 latency.

    .venv/bin/python bench/bench_server.py --tables 10 100 1000 --seconds 20
    .venv/bin/python bench/bench_server.py --tables 100 --db postgresql --workers 2

``--db postgresql`` starts a throwaway PostgreSQL cluster (Debian's postgresql, as in the
tests) and runs two `bigtop serve` processes on it; the two clients of each table connect to
different workers, so every update crosses LISTEN/NOTIFY.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.server.conftest import Server
from tests.server.pg import new_database, throwaway_cluster


class Table:
    def __init__(self, table_id: str, tokens: list[str]) -> None:
        self.id = table_id
        self.tokens = tokens
        self.version = 0
        self.seen = [0, 0]  # newest version each client has
        self.sent_at: dict[int, float] = {}  # version before the move -> when sent
        self.latencies: list[float] = []
        self.moves = 0
        self.finished = False
        self.errors = 0


async def client(table: Table, seat: int, base: str, api: httpx.AsyncClient,
                 deadline: float) -> None:
    url = base.replace("http", "ws", 1) + f"/api/tables/{table.id}/ws?token={table.tokens[seat]}"
    async with websockets.connect(url, max_size=2**22, open_timeout=60) as ws:
        while time.monotonic() < deadline and not table.finished:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline -
                                                                   time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            if msg["type"] != "view":
                continue
            view = msg["view"]
            v = view["version"]
            table.seen[seat] = max(table.seen[seat], v)
            if min(table.seen) >= v and (v - 1) in table.sent_at:
                table.latencies.append(time.monotonic() - table.sent_at.pop(v - 1))
                table.moves += 1
            if view["status"] != "playing":
                table.finished = True
                break
            if view["legal_actions"] and v not in table.sent_at:
                table.sent_at[v] = time.monotonic()
                r = await api.post(f"/api/tables/{table.id}/moves",
                                   json={"version": v, "index": 0},
                                   headers={"authorization": f"Bearer {table.tokens[seat]}"})
                if r.status_code != 200:
                    table.errors += 1
                    table.sent_at.pop(v, None)
                    table.finished = True  # nothing else would make this table move


async def run(bases: list[str], n: int, seconds: float) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=256, max_keepalive_connections=256)
    apis = [httpx.AsyncClient(base_url=b, timeout=120.0, limits=limits) for b in bases]
    tables = []
    for i in range(n):
        r = await apis[0].post("/api/tables", json={"game": "scout", "players": 2,
                                                    "seed": i, "listed": False,
                                                    "options": {"rounds": 20}})
        made = r.json()
        tables.append(Table(made["table"], [s["token"] for s in made["seats"]]))
    start = time.monotonic()
    deadline = start + seconds
    await asyncio.gather(*(client(t, seat, bases[seat % len(bases)],
                                  apis[seat % len(apis)], deadline)
                           for t in tables for seat in (0, 1)))
    elapsed = time.monotonic() - start
    for api in apis:
        await api.aclose()
    lat = sorted(x for t in tables for x in t.latencies)
    moves = len(lat)
    return {"tables": n, "seconds": round(elapsed, 1), "moves": moves,
            "moves_per_s": round(moves / elapsed, 1),
            "refused": sum(t.errors for t in tables),
            "p50_ms": round(1000 * statistics.median(lat), 1) if lat else None,
            "p99_ms": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 1)
            if lat else None}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, nargs="+", default=[10, 100, 1000])
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    p.add_argument("--workers", type=int, default=None,
                   help="server processes (default: 1 on SQLite, 2 on PostgreSQL)")
    args = p.parse_args()
    workers = args.workers or (2 if args.db == "postgresql" else 1)
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        cluster = stack.enter_context(throwaway_cluster()) if args.db == "postgresql" else None
        for n in args.tables:
            db = new_database(cluster) if cluster else f"sqlite:///{tmp}/bench-{n}.sqlite3"
            servers = [Server(db, tmp / f"server-{n}-{w}.log", "--moves-per-second", "1000")
                       for w in range(workers)]
            for s in servers:
                s.start(timeout=120)
            try:
                out = asyncio.run(run([s.base for s in servers], n, args.seconds))
            finally:
                for s in servers:
                    s.stop()
            out.update(db=args.db, workers=workers)
            print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
