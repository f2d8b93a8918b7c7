"""The sweep and every periodic task touch only what is due: with many open tables where
people are to move (and bots sit), a sweep reads no table, and a bot turn nobody took is
found through an index without loading any other table (counted: statements and loads);
full rate-limit buckets are forgotten through their index, buckets in use kept."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event, select, update

from bigtop.server.db import make_engine, migrate
from bigtop.server.master import TableMaster
from bigtop.server.model import SeatSpec, TableSpec
from bigtop.server.schema import rate_buckets, seats
from bigtop.server.settings import Settings
from bigtop.server.storage import SqlStorage

OPEN = 60


class Counted:
    """A new worker on the database, counting its statements and table loads."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        self.master = TableMaster(SqlStorage(self.engine),
                                  Settings(db_url=url, bot_stuck_seconds=0.0))
        self.statements = 0
        self.loads: list[str] = []
        event.listen(self.engine, "before_cursor_execute", self._statement)
        load = self.master.load

        def counting_load(table_id: str) -> Any:
            self.loads.append(table_id)
            return load(table_id)

        self.master.load = counting_load  # type: ignore[method-assign]

    def _statement(self, *_args: Any) -> None:
        self.statements += 1

    @contextmanager
    def counting(self) -> Iterator[None]:
        self.statements, self.loads = 0, []
        yield


def test_the_sweep_touches_only_what_is_due(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    creator = TableMaster(SqlStorage(engine), Settings(db_url=db_url))
    people_first = (SeatSpec(), SeatSpec("bot", "random"))
    idle = [creator.create(TableSpec("scout", 2, seats=people_first,
                                     takeover_after=3600.0)).table_id for _ in range(OPEN)]
    # A bot to move that nobody moved (its server restarted before it could).
    stuck = creator.create(TableSpec("scout", 2,
                                     seats=(SeatSpec("bot", "random"), SeatSpec()))).table_id
    worker = Counted(db_url)
    with worker.counting():
        assert worker.master.tables_waiting_for_bots() == [stuck]
    assert worker.loads == [stuck]  # not one of the other open bot tables
    assert worker.statements <= 8
    with worker.counting():
        assert worker.master.sweep() == []
    # eight queries (and BEGINs): clocks run out, absent seats, idle, unjoined, gone quiet
    # and ended tables, full rate-limit buckets, identities nobody used (nothing written:
    # none is due)
    assert worker.loads == [] and worker.statements <= 16
    # One person has been away longer than their table allows: only that table changes.
    away = idle[7]
    with engine.connect() as conn:
        conn.execute(update(seats).where(seats.c.table_id == away, seats.c.seat == 0)
                     .values(away_at=0.0))
        conn.commit()
    with worker.counting():
        assert worker.master.sweep() == [away]
    assert worker.loads == [away]
    assert worker.master.load(away).seats[0].bot_playing == "medium"
    # The taken-over seat is to move: its bot is due too; nothing else is read.
    with worker.counting():
        assert sorted(worker.master.tables_waiting_for_bots()) == sorted([away, stuck])
    assert sorted(worker.loads) == sorted([away, stuck])
    with worker.counting():
        assert worker.master.sweep() == []
    assert worker.loads == []


def test_presence_and_reclaim_keep_the_takeover_time(db_url: str) -> None:
    """``away_at`` follows the person: seen (in a sweep's presence batch) moves it on;
    taken over clears it; reclaimed sets it again."""
    engine = make_engine(db_url)
    migrate(engine)
    master = TableMaster(SqlStorage(engine), Settings(db_url=db_url))
    table = master.create(TableSpec("scout", 2, takeover_after=60.0)).table_id

    def away_at() -> list[Any]:
        with engine.connect() as conn:
            return [r[0] for r in conn.execute(
                seats.select().with_only_columns(seats.c.away_at)
                .where(seats.c.table_id == table).order_by(seats.c.seat))]

    first = away_at()
    assert all(a is not None for a in first)
    master.mark_present({(table, 0): first[0] + 1000.0})
    assert away_at()[0] == first[0] + 1060.0 and away_at()[1] == first[1]  # +60 s
    assert master.seat_event(table, 1, "takeover", "away", "easy", only_if="absent")
    assert away_at()[1] is None
    master.reclaim(table, 1)
    assert away_at()[1] is not None


def test_the_sweep_forgets_full_rate_buckets_only(db_url: str) -> None:
    """A shared rate-limit bucket full again is the same as none: the sweep deletes it (the
    table holds only buckets in use), and keeps one that is not full yet."""
    engine = make_engine(db_url)
    migrate(engine)
    master = TableMaster(SqlStorage(engine), Settings(db_url=db_url))
    now = time.time()
    master.storage.take_token("chat address 198.51.100.1", now - 100.0, 1.0, 5)  # full again
    master.storage.take_token("tables 198.51.100.1", now, 1 / 3600, 10)  # full in an hour
    master.sweep()
    with engine.connect() as conn:
        left = [r[0] for r in conn.execute(select(rate_buckets.c.bucket))]
    assert left == ["tables 198.51.100.1"]
