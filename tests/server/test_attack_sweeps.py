"""Two workers sweep the same database: a table one worker's sweep changed may be gone by
the time it is announced, deleted by the other's (ended past its retention). An expired
table's last change is its last move, so after a long downtime (or with a retention shorter
than the idle and unjoined times) one worker expired a batch of tables while the other
deleted them in the same round (two PostgreSQL apps, retention and unjoined time 0.5 s:
a "sweep failed" error with its traceback every round). The first one gone failed the
whole round: the tables after it were never announced (their sockets kept the old view,
until the table changed again) and the traceback was logged. A table gone meanwhile is
passed over now."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any
from unittest import mock

import pytest
from sqlalchemy import delete

from bigtop.core.errors import BigtopError
from bigtop.server import Limits, Settings
from bigtop.server.schema import tables
from bigtop.server.storage import SqlStorage
from tests.server.conftest import LogLines, make_client, runtime_of
from tests.server.test_api import create


def test_a_table_another_worker_deleted_does_not_fail_the_sweep(sqlite_url: str) -> None:
    lines = LogLines()
    logging.getLogger("bigtop.server").addHandler(lines)
    try:
        with make_client(sqlite_url) as c:
            gone, shown = (create(c, wait=True)["table"] for _ in range(2))
            master = runtime_of(c).master
            storage = master.storage
            assert isinstance(storage, SqlStorage)
            rounds = threading.Event()
            calls = 0

            def sweep() -> list[str]:
                """One round that expires both tables while the other worker deletes
                ``gone``, then rounds with nothing to do."""
                nonlocal calls
                calls += 1
                if calls > 1:
                    rounds.set()
                    return []
                expired = storage.expire_unjoined(time.time() + 1, 10)
                with storage.engine.begin() as conn:
                    conn.execute(delete(tables).where(tables.c.id == gone))
                return sorted(expired, key=lambda t: t != gone)  # the gone one first

            with c.websocket_connect(f"/api/tables/{shown}/ws") as ws:
                assert ws.receive_json()["view"]["status"] == "waiting"
                with mock.patch.object(master, "sweep", side_effect=sweep):
                    assert rounds.wait(30)
                ws.send_json({"type": "ping"})
                seen: list[Any] = []
                while not seen or seen[-1]["type"] != "pong":
                    seen.append(ws.receive_json())
            assert [m["view"]["status"] for m in seen if m["type"] == "view"] == ["expired"]
    finally:
        logging.getLogger("bigtop.server").removeHandler(lines)
    assert not [line for line in lines.lines if "sweep failed" in line]


def test_an_idle_time_too_short_for_postgresql_is_refused_at_start(pg_url: str) -> None:
    """A table's idle bucket is its last change in 64ths of ``idle_table_seconds``, in a
    32-bit INTEGER column on PostgreSQL: below about 54 s (today's time over 2**31, times
    64) every table made answered 500, its traceback logged. Such a setting is refused
    before the server starts; SQLite's integers are 64 bits, and the tests' short idle
    times stay."""
    with pytest.raises(BigtopError, match="idle_table_seconds must be at least 120"):
        Settings(db_url=pg_url, limits=Limits(idle_table_seconds=60.0))
    Settings(db_url=pg_url, limits=Limits(idle_table_seconds=120.0))
    Settings(db_url="sqlite://", limits=Limits(idle_table_seconds=0.3))
    with make_client(pg_url, limits=Limits(idle_table_seconds=120.0)) as c:
        create(c)  # the shortest allowed still fits the column
