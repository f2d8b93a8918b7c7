"""What a move costs the server, pinned by what it does rather than by time (docs/
benchmarks.md, "Per-move cost, second round"): what it leaves for the garbage collector,
and that the views it sends are the views as they were."""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

from bigtop.server import Limits
from bigtop.server.runtime import Runtime, SeatPart, log_after
from bigtop.server.storage import SqlStorage
from bigtop.server.views import seat_view
from tests.server.conftest import make_client, runtime_of

TABLES = 6


def scout_tables(tmp_path: Path) -> tuple[Runtime, list[str]]:
    """A runtime with ``TABLES`` two-player SCOUT tables, its app's threads stopped again
    (nothing else allocates while a test counts objects)."""
    lifted = Limits(table_burst=1000, max_open_tables_per_client=1000)
    with make_client(f"sqlite:///{tmp_path / 't.sqlite3'}", limits=lifted) as c:
        runtime: Runtime = runtime_of(c)
        ids = [c.post("/api/tables", json={"game": "scout", "players": 2, "listed": False,
                                           "options": {"rounds": 20}}).json()["table"]
               for _ in range(TABLES)]
    return runtime, ids


def move_and_views(runtime: Runtime, table: str) -> list[str]:
    """One move at ``table`` and the update each seat gets, as the WebSocket path makes
    them."""
    master = runtime.master
    loaded = master.cached(table) or master.load(table)
    done = master.play(table, loaded.state.current_player(), loaded.version, {"index": 0},
                       None, loaded)
    new = log_after(done, loaded.version)
    return [runtime.view_text(done, seat, entries=new, log_since=loaded.version)
            for seat in (0, 1)]


def test_a_move_leaves_few_objects_for_the_young_collections(tmp_path: Path) -> None:
    """A young collection walks every container made since the last one that is still
    alive, and what a move kept was mostly its views' seat parts (observation, legal
    actions: dicts and lists, about 100 objects a move with the new position); at 1,000
    tables the young collections were a fifth of the server's CPU. Parts are kept as JSON
    text now: the position and the cache's keys are what is left (37 a move, compiled or
    pure)."""
    runtime, ids = scout_tables(tmp_path)
    for _ in range(2):  # every table moved and viewed once: caches warm
        for t in ids:
            move_and_views(runtime, t)
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    gc.freeze()
    try:
        for _ in range(3):
            for t in ids:
                move_and_views(runtime, t)
        left = len(gc.get_objects())
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()
    assert left / (3 * TABLES) < 60
    kept = runtime._views.values()
    assert kept and all(isinstance(v, str | SeatPart) for v in kept)
    assert any(isinstance(v, SeatPart) for v in kept)


def test_the_views_sent_are_made_of_the_seat_view(tmp_path: Path) -> None:
    """The seat part's JSON text, written into the view as it is, is the seat view's."""
    runtime, ids = scout_tables(tmp_path)
    for t in ids[:2]:
        texts = move_and_views(runtime, t)
        done = runtime.master.cached(t)
        assert done is not None
        for seat, text in enumerate(texts):
            view = json.loads(text)
            plain: dict[str, Any] = json.loads(json.dumps(seat_view(done.state, seat)))
            assert view["observation"] == plain["observation"]
            assert view["legal_actions"] == plain["legal_actions"]
            assert view["current_player"] == plain["current_player"]
            assert runtime.view(done, seat, entries=log_after(done, done.version - 1),
                                log_since=done.version - 1) == view


def test_the_status_is_written_only_by_the_move_that_ends_the_game(tmp_path: Path) -> None:
    """The move path's update sets the table's status only when it changes (SQLite rewrites
    the entries of every index on a column set, changed or not: three hold the status),
    and the move that ends the game still stores it and the result."""
    from sqlalchemy import select

    from bigtop.server.schema import tables
    from bigtop.server.storage.sql import _SQLITE_STORE_VERSION

    assert all(("status = ?" in sql) == key[3] for key, sql in _SQLITE_STORE_VERSION.items())
    lifted = Limits(table_burst=1000, max_open_tables_per_client=1000)
    url = f"sqlite:///{tmp_path / 't.sqlite3'}"
    with make_client(url, limits=lifted) as c:
        made = c.post("/api/tables", json={"game": "scout", "players": 2, "listed": False,
                                           "options": {"rounds": 1}}).json()
        t, tokens = made["table"], [s["token"] for s in made["seats"]]
        runtime: Runtime = runtime_of(c)
        storage = runtime.master.storage
        assert isinstance(storage, SqlStorage)
        status = "playing"
        while status == "playing":
            loaded = runtime.master.cached(t) or runtime.master.load(t)
            seat = loaded.state.current_player()
            r = c.post(f"/api/tables/{t}/moves", json={"version": loaded.version, "index": 0},
                       headers={"Authorization": f"Bearer {tokens[seat]}"})
            assert r.status_code == 200, r.text
            status = r.json()["status"]
            with storage.engine.connect() as conn:
                row = conn.execute(select(tables.c.status, tables.c.result, tables.c.version)
                                   .where(tables.c.id == t)).one()
            assert (row.status, row.version) == (status, r.json()["version"])
        assert status == "finished" and row.result == r.json()["result"]
