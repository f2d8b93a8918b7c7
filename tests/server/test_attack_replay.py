"""A replay's step list grows with the game: past what a view carries (``max_view_log``
entries, 1,000) it is a heavy read (``heavy_read_tokens``), as an export is. It took one read
token whatever its length: a finished So ein Zirkus tournament of 100 games (some 15,000
moves; two people's seats held by one client, 30 moves a second, reach it in minutes)
answered 2 MB in 100–200 ms of the worker's CPU (compiled), the export of the same game,
which takes ten, 17–19 ms: one address's 1,200 reads a minute kept both cores busy. A
replay without its steps (``steps=false``, how the web page steps through one) costs what
its position shows and takes one, as does the replay of a game of ordinary length.
Clients are named through the trusted proxy, as in test_limits.py."""

from __future__ import annotations

import random
from unittest import mock

from bigtop.server import Limits
from tests.server.conftest import make_client, runtime_of
from tests.server.test_api import create
from tests.server.test_limits import A, B, by, limited


def test_a_long_replay_is_a_heavy_read(sqlite_url: str) -> None:
    limits = Limits(max_view_log=10, read_burst=12, reads_per_minute=1, heavy_read_tokens=10)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits) as c:
        long, short = (create(c, game="clown-15-go")["table"] for _ in range(2))
        master, rng = runtime_of(c).master, random.Random(5)
        for table, moves in ((long, 11), (short, 10)):
            t = master.load(table)
            for _ in range(moves):
                t = master.play(table, t.state.current_player(), t.version,
                                {"index": rng.randrange(len(t.state.legal_actions()))})
            assert t.meta.status == "playing"
        for _ in range(2):  # without the steps: one token each
            r = c.get(f"/api/tables/{long}/replay?steps=false", headers=by(A))
            assert r.status_code == 200 and r.json()["steps"] is None
        r = c.get(f"/api/tables/{long}/replay", headers=by(A))  # the ten left
        assert r.status_code == 200 and len(r.json()["steps"]) == 11
        body = limited(c.get(f"/api/tables/{long}/replay?steps=false", headers=by(A)))
        assert "a heavy read, such as the lobby or a picture, counts 10" in body["detail"]
        # Ten steps, what a view carries: one token, twelve times.
        for _ in range(12):
            r = c.get(f"/api/tables/{short}/replay", headers=by(B))
            assert r.status_code == 200 and len(r.json()["steps"]) == 10
        limited(c.get(f"/api/tables/{short}/replay", headers=by(B)))


def test_a_long_replay_past_the_budget_builds_nothing(sqlite_url: str) -> None:
    """The tokens are taken before the steps are made: an address without them gets its
    429 for the price of the table's load."""
    limits = Limits(max_view_log=2, read_burst=10, reads_per_minute=1, heavy_read_tokens=10)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits) as c:
        table = create(c, game="clown-15-go")["table"]
        master = runtime_of(c).master
        t = master.load(table)
        for _ in range(3):
            t = master.play(table, t.state.current_player(), t.version, {"index": 0})
        assert c.get(f"/api/tables/{table}", headers=by(A)).status_code == 200
        with mock.patch("bigtop.server.routers.records.named", side_effect=AssertionError):
            limited(c.get(f"/api/tables/{table}/replay", headers=by(A)))
