"""What two of the server's bounds cost, each beside a reference run in the same process.

**Shared rate limits** (``--part buckets``): a table created and its free seat joined
through the app (FastAPI's test client, one SQLite file or a throwaway PostgreSQL cluster),
with the per-client buckets of creating and joining kept in the database (shared by every
worker, as the server runs) and, as the reference, in the worker's memory (as they were
before): two apps at once, each on a database of its own, a create + join on each in turn.
Printed: the median milliseconds per create + join of each, their ratio, and what one
bucket statement takes alone.

**The view cache** (``--part views``): the views of a SCOUT game, move after move, for
each seat and a spectator, as ``Runtime.view_text`` makes a move's update (the first time: the seat
part and the text made and kept; again: taken from the cache), beside the reference, the
engine's work a view needs anyway (``seat_view`` and its JSON, nothing kept). Printed:
microseconds a view and the ratios to the reference; and how many bytes a kept seat part
takes in memory per byte of its JSON (tracemalloc), which ``runtime.PART_WEIGHT``
charged it (a kept part is JSON text now; the weight charges a finished game's result in
it, kept as values).

    nice -n 10 .venv/bin/python bench/bench_limits.py
    nice -n 10 .venv/bin/python bench/bench_limits.py --part buckets --db postgresql
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bigtop.server import Limits, Settings
from bigtop.server.db import make_engine, migrate
from bigtop.server.master import TableMaster
from bigtop.server.model import Loaded, TableSpec
from bigtop.server.runtime import Runtime, dumps, json_size
from bigtop.server.storage import SqlStorage
from bigtop.server.views import seat_view


# -- the view cache ---------------------------------------------------------------------------
def game_positions(master: TableMaster, moves: int) -> list[Loaded]:
    """A two-person SCOUT table after each of its first ``moves`` moves (index 0 each time)."""
    table = master.create(TableSpec(game="scout", players=2)).table_id
    out = [master.load(table)]
    while len(out) <= moves and out[-1].meta.status == "playing":
        now = out[-1]
        seat = now.state.current_player()
        out.append(master.play(table, seat, now.version, {"index": 0}))
    return out


def time_views(moves: int) -> dict[str, float]:
    """Median µs of a view made (miss), taken again (hit), and the reference."""
    settings = Settings(db_url="sqlite://", bot_processes=0)
    engine = make_engine(settings.db_url)
    migrate(engine)
    master = TableMaster(SqlStorage(engine), settings)
    runtime = Runtime(master, settings)
    miss, hit, ref = [], [], []
    for loaded in game_positions(master, moves):
        since = loaded.version - 1  # a move's update (a whole log is never kept)
        for seat in (0, 1, None):
            t0 = time.perf_counter()
            made = runtime.view_text(loaded, seat, since)
            t1 = time.perf_counter()
            again = runtime.view_text(loaded, seat, since)
            t2 = time.perf_counter()
            dumps({"part": seat_view(loaded.state, seat, may_move=True)})
            t3 = time.perf_counter()
            assert made is again
            miss.append(t1 - t0)
            hit.append(t2 - t1)
            ref.append(t3 - t2)
    return {k: 1e6 * statistics.median(v) for k, v in
            (("miss", miss), ("hit", hit), ("reference", ref))}


def part_weight(moves: int) -> float:
    """Bytes the seat parts of a game's positions take in memory (tracemalloc, shared
    objects counted once) per byte of their JSON."""
    settings = Settings(db_url="sqlite://", bot_processes=0)
    engine = make_engine(settings.db_url)
    migrate(engine)
    master = TableMaster(SqlStorage(engine), settings)
    positions = game_positions(master, moves)
    for loaded in positions:  # actions' JSON is kept across views: made before counting
        seat_view(loaded.state, 0, may_move=True)
        seat_view(loaded.state, 1, may_move=True)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    parts = [seat_view(p.state, seat, may_move=True) for p in positions for seat in (0, 1, None)]
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return grown / sum(json_size(p) for p in parts)


# -- shared rate limits -----------------------------------------------------------------------
class MemoryBuckets:
    """The reference: a shared limiter's interface on a bucket in this worker's memory."""

    def __init__(self, rate: float, burst: int) -> None:
        from bigtop.server.runtime import RateLimiter

        self.memory = RateLimiter(rate, burst)

    async def check(self, key: str, what: str) -> None:
        self.memory.check(key, what)


def create_and_join(urls: tuple[str, str], n: int) -> tuple[list[float], list[float]]:
    """Seconds per create + join through two apps at once, one with shared buckets (on
    ``urls[0]``), one with buckets in memory (``urls[1]``), in turn, ``n`` times each: the
    machine's ups and downs fall on both alike."""
    from fastapi.testclient import TestClient

    from bigtop.server import create_app

    lots = Limits(table_burst=10**6, join_burst=10**6, max_open_tables_per_client=10**6)
    apps = [create_app(Settings(db_url=url, limits=lots, bot_processes=0)) for url in urls]
    times: tuple[list[float], list[float]] = ([], [])
    with TestClient(apps[0]) as shared, TestClient(apps[1]) as memory:
        runtime = apps[1].state.runtime
        runtime.creates = MemoryBuckets(lots.tables_per_hour / 3600, lots.table_burst)
        runtime.joins = MemoryBuckets(lots.joins_per_hour / 3600, lots.join_burst)
        for i in range(n + 5):
            for k in ((0, 1) if i % 2 else (1, 0)):
                c = (shared, memory)[k]
                t0 = time.perf_counter()
                t = c.post("/api/tables", json={"game": "scout", "players": 2}).json()["table"]
                assert c.post(f"/api/tables/{t}/join").status_code == 200
                if i >= 5:  # the first few warm up
                    times[k].append(time.perf_counter() - t0)
    return times


def time_take(db_url: str, n: int) -> float:
    """µs one shared bucket statement takes alone (its own transaction)."""
    engine = make_engine(db_url)
    migrate(engine)
    storage = SqlStorage(engine)
    t0 = time.perf_counter()
    for i in range(n):
        storage.take_token(f"bench {i % 50}", time.time(), 1e6, 10**6)
    took = (time.perf_counter() - t0) / n
    engine.dispose()
    return 1e6 * took


def run_buckets(db: str, rounds: int, n: int) -> None:
    from tests.server.pg import new_database, throwaway_cluster

    def urls(make: Callable[[], str]) -> None:
        shared: list[float] = []
        memory: list[float] = []
        for _ in range(rounds):
            got = create_and_join((make(), make()), n)
            shared.extend(got[0])
            memory.extend(got[1])
        s, m = 1e3 * statistics.median(shared), 1e3 * statistics.median(memory)
        print(f"create + join ({db}): shared buckets {s:.2f} ms, in memory {m:.2f} ms, "
              f"shared ÷ memory {s / m:.3f}; one bucket statement {time_take(make(), 200):.0f} µs")

    if db == "postgresql":
        with throwaway_cluster() as cluster:
            urls(lambda: new_database(cluster))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            count = iter(range(10**6))
            urls(lambda: f"sqlite:///{tmp}/bench-{next(count)}.sqlite3")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    p.add_argument("--part", choices=("buckets", "views", "both"), default="both")
    p.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--n", type=int, default=40, help="creates + joins a round")
    p.add_argument("--moves", type=int, default=150, help="moves of the viewed game")
    a = p.parse_args()
    if a.part in ("views", "both"):
        rows: list[dict[str, Any]] = [time_views(a.moves) for _ in range(a.rounds)]
        f = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
        print(f"views: made {f['miss']:.1f} µs, again {f['hit']:.1f} µs, reference "
              f"{f['reference']:.1f} µs; made ÷ reference {f['miss'] / f['reference']:.2f}, "
              f"again ÷ reference {f['hit'] / f['reference']:.3f}")
        print(f"a seat part takes {part_weight(a.moves):.2f} bytes in memory per byte "
              "of its JSON")
    if a.part in ("buckets", "both"):
        run_buckets(a.db, a.rounds, a.n)


if __name__ == "__main__":
    main()
