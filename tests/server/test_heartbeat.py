"""The sweep's heartbeat (``Runtime._heartbeat``): which present people's sightings it stores
and when. A seat with an open WebSocket or a request since the last sweep is present; it is
stored at every sweep where a bot may take over absent seats, elsewhere once every third of
``presence_seconds``; a seat marked away while its socket is open is marked here again."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from typing import Any

import pytest

from bigtop.server.db import make_engine, migrate
from bigtop.server.master import TableMaster
from bigtop.server.model import TableSpec
from bigtop.server.runtime import Connection, Runtime
from bigtop.server.settings import Settings
from bigtop.server.storage import SqlStorage


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def worker(url: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Runtime, list[Any], list[Any]]:
    """A worker whose presence writes and arrivals are recorded, not stored."""
    engine = make_engine(url)
    migrate(engine)
    settings = Settings(db_url=url, presence_seconds=30.0)
    master = TableMaster(SqlStorage(engine), settings)
    written: list[dict[tuple[str, int], float]] = []
    arrivals: list[tuple[str, int]] = []
    monkeypatch.setattr(master, "mark_present", lambda present: written.append(dict(present)))
    monkeypatch.setattr(master, "arrive", lambda t, s: arrivals.append((t, s)))
    return Runtime(master, settings), written, arrivals


def here(runtime: Runtime, table_id: str, *present: int) -> None:
    """Let the worker know ``table_id`` with exactly the seats ``present`` marked here."""
    loaded = runtime.master.load(table_id)
    seats = tuple(dataclasses.replace(s, here=s.seat in present) for s in loaded.seats)
    runtime.master._cache[table_id] = dataclasses.replace(loaded, seats=seats)


def test_sightings_are_stored_when_due(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    runtime, written, arrivals = worker(sqlite_url, monkeypatch)
    plain = runtime.master.create(TableSpec("scout", 2)).table_id
    watched = runtime.master.create(TableSpec("scout", 2, takeover_after=60.0)).table_id
    for t in (plain, watched):
        here(runtime, t, 0, 1)
        # Seat 0 open in two tabs, and a spectator (no seat: never stored).
        runtime.connections[t] = {Connection(None, t, 0), Connection(None, t, 0),  # type: ignore[arg-type]
                                  Connection(None, t, None)}  # type: ignore[arg-type]
    clock = Clock(1000.0)
    monkeypatch.setattr(time, "time", clock)

    def sweep(at: float) -> dict[tuple[str, int], float]:
        clock.now = at
        before = len(written)
        asyncio.run(runtime._heartbeat())
        return written[-1] if len(written) > before else {}

    assert sweep(1000.0) == {(plain, 0): 1000.0, (watched, 0): 1000.0}
    # Two seconds on: only where a bot may take over (every sweep); elsewhere a third of
    # presence_seconds (10 s) must pass.
    assert sweep(1002.0) == {(watched, 0): 1002.0}
    kept = runtime._stored_seen
    assert sweep(1009.0) == {(watched, 0): 1009.0}
    assert sweep(1010.5) == {(plain, 0): 1010.5, (watched, 0): 1010.5}
    # The map of stored sightings is not rebuilt while the people in it are present.
    assert runtime._stored_seen is kept
    # A request from the plain table's other seat since the last sweep: stored at its time.
    runtime._present[(plain, 1)] = 1011.0
    assert sweep(1012.0) == {(plain, 1): 1011.0, (watched, 0): 1012.0}
    assert sweep(1014.0) == {(watched, 0): 1014.0}  # stored once, then not due
    assert arrivals == []


def test_a_connected_seat_marked_away_arrives_again(sqlite_url: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    runtime, written, arrivals = worker(sqlite_url, monkeypatch)
    table = runtime.master.create(TableSpec("scout", 2)).table_id
    here(runtime, table, 1)  # another worker's sweep marked seat 0 away
    runtime.connections[table] = {Connection(None, table, 0), Connection(None, table, 0),  # type: ignore[arg-type]
                                  Connection(None, table, 1)}  # type: ignore[arg-type]
    asyncio.run(runtime._heartbeat())
    assert arrivals == [(table, 0)]  # once, though open in two tabs
    assert set(written[-1]) == {(table, 0), (table, 1)}


def test_sightings_are_forgotten_once_their_people_are_gone(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    runtime, written, _ = worker(sqlite_url, monkeypatch)
    table = runtime.master.create(TableSpec("scout", 2)).table_id
    here(runtime, table, 0, 1)
    clock = Clock(1000.0)
    monkeypatch.setattr(time, "time", clock)
    # More people than the map's slack (1,024), all at tables like this one.
    ids = [f"{table}-{i}" for i in range(1500)]
    for t in ids:
        runtime.master._cache[t] = runtime.master._cache[table]
        runtime.connections[t] = {Connection(None, t, 0)}  # type: ignore[arg-type]
    asyncio.run(runtime._heartbeat())
    assert len(written[-1]) == len(runtime._stored_seen) == 1500
    kept = runtime._stored_seen
    clock.now = 1002.0  # nobody due: nothing written, and nothing forgotten or rebuilt
    asyncio.run(runtime._heartbeat())
    assert len(written) == 1 and runtime._stored_seen is kept and len(kept) == 1500
    runtime.connections.clear()
    clock.now = 1020.0  # past a third of presence_seconds, and nobody present any more
    asyncio.run(runtime._heartbeat())
    assert runtime._stored_seen == {}
