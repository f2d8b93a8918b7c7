"""What each read endpoint costs the server, so the per-address read budget
(``Limits.reads_per_minute``, ``read_burst``; server/edge.py) can charge the heavy ones more.

Through FastAPI's test client (the app in this process, no network), on one SQLite file:
``--tables`` listed SCOUT tables (the lobby lists them all, at most ``max_lobby_tables``), a
finished SCOUT game (replay, export), and So ein Zirkus on its largest board (26 x 99
fields: its picture is the largest the server draws), each endpoint asked ``--n`` times in
turn with the others, round after round. Printed: the median milliseconds of each and its
ratio to the plain view of a table (``GET /api/tables/{id}``), the reference measured in
the same rounds. The picture is asked at a new version each time (``uncached``: what the
first request of each move costs) and at the same one (``cached``).

    nice -n 10 .venv/bin/python bench/bench_reads.py
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fastapi.testclient import TestClient

from bigtop.server import Limits, Settings, create_app

LIFTED = Limits(table_burst=100_000, max_open_tables_per_client=100_000,
                client_move_burst=100_000, client_moves_per_second=100_000.0,
                join_burst=100_000, reads_per_minute=1e9, read_burst=10**9)
"""Every per-client limit out of the way: one client asks everything."""


def big_board() -> str:
    """So ein Zirkus's largest board (26 x 99), as the ``board`` option's JSON text."""
    holes = {f"{chr(65 + c)}{r}": 1 + (c + r) % 5 for c in range(0, 26, 3)
             for r in range(3, 99, 7)}
    holes["Z99"] = 6
    return json.dumps({"name": "big", "columns": 26, "rows": 99,
                       "start": ["A1", "B1", "C1", "D1", "E1"], "holes": holes})


def run(tables: int, n: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        s = Settings(db_url=f"sqlite:///{tmp}/t.sqlite3", limits=LIFTED, bot_processes=0,
                     sweep_seconds=60.0)
        with TestClient(create_app(s)) as c:
            bots = [{"kind": "bot", "level": "random"}]
            for _ in range(tables):
                c.post("/api/tables", json={"game": "scout", "players": 2, "listed": True})
            done = c.post("/api/tables", json={"game": "scout", "players": 2,
                                                "seats": bots * 2}).json()["table"]
            while (ended := c.get(f"/api/tables/{done}").json())["status"] != "finished":
                time.sleep(0.05)
            middle = ended["version"] // 2  # a random game may be short: a step inside it
            made = c.post("/api/tables", json={
                "game": "so-ein-zirkus", "players": 2, "options": {"board": big_board()},
                "seats": [{"kind": "human"}, *bots]}).json()
            assert "table" in made, made
            zirkus = made["table"]
            seat = {"authorization": f"Bearer {made['seats'][0]['token']}"}
            view = c.get(f"/api/tables/{zirkus}", headers=seat).json()
            size = len(c.get(f"/api/tables/{zirkus}/picture.svg").content)

            def uncached() -> None:
                # A move first (not timed), so the picture is of a version never drawn.
                v = c.get(f"/api/tables/{zirkus}", headers=seat).json()
                if v["legal_actions"]:
                    c.post(f"/api/tables/{zirkus}/moves", headers=seat,
                           json={"version": v["version"], "index": 0})

            asks: dict[str, tuple[str, Callable[[], None] | None]] = {
                "view": (f"/api/tables/{done}", None),
                "games": ("/api/games", None),
                "rules": (f"/api/tables/{done}/rules", None),
                "chat": (f"/api/tables/{done}/chat", None),
                "lobby": ("/api/lobby", None),
                "replay": (f"/api/tables/{done}/replay", None),
                "replay?at": (f"/api/tables/{done}/replay?at={middle}", None),
                "replay?at, no steps": (f"/api/tables/{done}/replay?at={middle}&steps=false",
                                        None),
                "export": (f"/api/tables/{done}/export", None),
                "ratings": ("/api/ratings/scout", None),
                "picture cached": (f"/api/tables/{zirkus}/picture.svg", None),
                "picture uncached": (f"/api/tables/{zirkus}/picture.svg", uncached),
                "static index": ("/", None),
            }
            times: dict[str, list[float]] = {k: [] for k in asks}
            for _ in range(rounds):
                for name, (url, before) in asks.items():
                    for _ in range(n):
                        if before is not None:
                            before()
                        t0 = time.perf_counter()
                        r = c.get(url)
                        times[name].append(time.perf_counter() - t0)
                        assert r.status_code == 200, (name, r.status_code, r.text[:200])
            ref = statistics.median(times["view"])
            print(f"{tables} listed tables; the Zirkus picture at {view['version']}: "
                  f"{size:,} bytes")
            print(f"{'endpoint':18} {'ms':>8} {'÷ view':>7}")
            for name, got in times.items():
                med = statistics.median(got)
                print(f"{name:18} {med * 1000:8.2f} {med / ref:7.1f}")


def main(argv: list[str] | None = None) -> Any:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--n", type=int, default=10)
    p.add_argument("--rounds", type=int, default=3)
    a = p.parse_args(argv)
    run(a.tables, a.n, a.rounds)


if __name__ == "__main__":
    main()
