"""Group commit on SQLite: moves of several tables queued for the database thread are
stored in one transaction (``SqlStorage.group``, ``DatabaseThread.run_grouped``), each in a
savepoint of its own; nothing of a move is in memory, nor answered, before its commit; a
refused move leaves the others; a failed commit stores none of them and says so to each."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from bigtop.server import errors
from bigtop.server.db import make_engine, migrate
from bigtop.server.master import TableMaster
from bigtop.server.model import TableSpec
from bigtop.server.runtime import DatabaseThread
from bigtop.server.schema import moves
from bigtop.server.settings import Settings
from bigtop.server.storage import SqlStorage


def service(url: str) -> TableMaster:
    engine = make_engine(url)
    migrate(engine)
    return TableMaster(SqlStorage(engine), Settings(db_url=url))


def stored_moves(url: str, table_id: str) -> int:
    with make_engine(url).connect() as conn:
        n: int = conn.execute(select(func.count()).select_from(moves).where(
            moves.c.table_id == table_id)).scalar_one()
    return n


def first_move(svc: TableMaster, table_id: str) -> Any:
    t = svc.load(table_id)
    return svc.play(table_id, t.state.current_player(), t.version, {"index": 0})


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.sqlite3'}"


def test_moves_in_a_group_are_stored_and_remembered_at_its_commit(url: str) -> None:
    svc = service(url)
    ids = [svc.create(TableSpec("scout", 2)).table_id for _ in range(3)]
    before = [svc.load(t).version for t in ids]
    with svc.storage.group():
        done = [first_move(svc, t) for t in ids]
        # Stored in the group's open transaction: not yet in the database for anyone
        # else, nor in this worker's memory (views are made from it).
        assert [stored_moves(url, t) for t in ids] == before
        assert [svc.cached(t).version for t in ids] == before  # type: ignore[union-attr]
    assert [stored_moves(url, t) for t in ids] == [d.version for d in done]
    assert [svc.cached(t) for t in ids] == done
    # A worker reading the database from scratch sees the same tables.
    fresh = service(url)
    assert [fresh.load(t).state for t in ids] == [d.state for d in done]


def test_a_refused_move_in_a_group_leaves_the_others(url: str) -> None:
    svc = service(url)
    a, b = (svc.create(TableSpec("scout", 2)).table_id for _ in range(2))
    ta = svc.load(a)
    with svc.storage.group():
        first_move(svc, b)
        with pytest.raises(errors.StaleVersion):
            svc.play(a, ta.state.current_player(), ta.version + 5, {"index": 0})
        done = svc.play(a, ta.state.current_player(), ta.version, {"index": 0})
        # The same version again, past every check in Python: the database refuses it
        # (its savepoint rolled back), the group's other moves stay.
        work = ta.state.clone()
        action = work.legal_actions()[0]
        work.apply(action)
        with pytest.raises(errors.StaleVersion):
            svc.store(ta, work, [(ta.state.current_player(), action.to_json(), "again")],
                      None)
    assert stored_moves(url, a) == done.version
    assert stored_moves(url, b) == svc.load(b).version == 1
    assert "again" not in [r["text"] for r in svc.move_rows(a)]


def test_another_write_commits_the_group_first(url: str) -> None:
    svc = service(url)
    a = svc.create(TableSpec("scout", 2)).table_id
    with svc.storage.group():
        done = first_move(svc, a)
        # A write transaction of another kind (here a chat message) on this thread: the
        # group's moves are committed first (SQLite has one writer), then it runs.
        svc.post_chat(a, 0, "hello")
        assert stored_moves(url, a) == done.version
        assert svc.cached(a) == done
    assert [m.text for m in svc.chat(a, 0)] == ["hello"]


class FailingCommit:
    """The move path's connection, whose next COMMIT fails (a full disk, say)."""

    def __init__(self, held: Any) -> None:
        self.held = held
        self.driver_connection = self

    def cursor(self) -> Any:
        return self.held.driver_connection.cursor()

    @property
    def in_transaction(self) -> bool:
        return bool(self.held.driver_connection.in_transaction)

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            raise OSError("disk full")
        return self.held.driver_connection.execute(sql, *args)

    def close(self) -> None:
        self.held.close()


def test_a_failed_group_commit_stores_and_remembers_none_of_its_moves(url: str) -> None:
    svc = service(url)
    ids = [svc.create(TableSpec("scout", 2)).table_id for _ in range(2)]
    first_move(svc, ids[0])  # the move path's connection is made
    storage: Any = svc.storage
    storage._mover = FailingCommit(storage._mover)
    before = [svc.load(t) for t in ids]
    with pytest.raises(OSError, match="disk full"), storage.group() as group:
        for t in ids:
            first_move(svc, t)
    assert list(group.failed) == [0]
    assert [stored_moves(url, t) for t in ids] == [b.version for b in before]
    assert [svc.cached(t) for t in ids] == before
    storage._mover = storage._mover.held
    assert first_move(svc, ids[1]).version == before[1].version + 1  # and on it goes


class Gate:
    """A database job that holds the thread until opened, so that others queue up."""

    def __init__(self) -> None:
        self.started, self.open = threading.Event(), threading.Event()

    def __call__(self) -> str:
        self.started.set()
        self.open.wait(10)
        return "gate"


def test_keyed_jobs_queued_together_run_in_one_group() -> None:
    groups: list[list[Any]] = []
    ran: list[Any] = []

    class Recording:
        def __init__(self) -> None:
            self.open, self.generation = True, 0
            self.failed: dict[int, BaseException] = {}

        def __enter__(self) -> Recording:
            groups.append([])
            return self

        def __exit__(self, *exc: object) -> None:
            groups[-1].extend(ran)
            ran.clear()

    def job(name: str) -> str:
        ran.append(name)
        return name.upper()

    db = DatabaseThread(group=Recording)
    gate = Gate()

    async def main() -> list[Any]:
        first = asyncio.ensure_future(db.run(gate))
        await asyncio.get_running_loop().run_in_executor(None, gate.started.wait, 10)
        jobs = [asyncio.ensure_future(db.run_grouped(key, job, name)) for key, name in
                [("t1", "a"), ("t2", "b"), ("t1", "c"), (None, "d"), ("t3", "e")]]
        await asyncio.sleep(0.05)  # all of them queued behind the gate
        gate.open.set()
        return await asyncio.gather(first, *jobs)

    try:
        answers = asyncio.run(main())
    finally:
        db.close()
    assert answers == ["gate", "A", "B", "C", "D", "E"]
    # a and b (tables t1, t2) together; c (t1 again) starts anew, alone as d (no key)
    # follows it; e is alone in the queue by then.
    assert groups == [["a", "b"]]
    assert ran == ["c", "d", "e"]


def test_a_failed_commit_is_the_answer_of_each_job_it_lost() -> None:
    class Failing:
        open, generation = True, 0

        def __init__(self) -> None:
            self.failed: dict[int, BaseException] = {}

        def __enter__(self) -> Failing:
            return self

        def __exit__(self, *exc: object) -> None:
            self.failed[0] = OSError("disk full")
            raise self.failed[0]

    db = DatabaseThread(group=Failing)
    gate = Gate()

    async def main() -> list[Any]:
        first = asyncio.ensure_future(db.run(gate))
        await asyncio.get_running_loop().run_in_executor(None, gate.started.wait, 10)
        jobs = [asyncio.ensure_future(db.run_grouped(k, str.upper, k)) for k in "ab"]
        await asyncio.sleep(0.05)
        gate.open.set()
        return await asyncio.gather(first, *jobs, return_exceptions=True)

    try:
        answers = asyncio.run(main())
    finally:
        db.close()
    assert answers[0] == "gate"
    assert [type(a) for a in answers[1:]] == [OSError, OSError]


def test_a_later_job_lets_the_jobs_queued_before_it_go_first() -> None:
    """A bot's move (``run_later``) queued while the thread is busy lets the people's moves
    queued around it go first, at most ``LATER_MOST`` times: it still runs."""
    ran: list[str] = []

    def job(name: str) -> str:
        ran.append(name)
        return name

    db = DatabaseThread()
    gate = Gate()

    async def main() -> list[Any]:
        first = asyncio.ensure_future(db.run(gate))
        await asyncio.get_running_loop().run_in_executor(None, gate.started.wait, 10)
        bot = asyncio.ensure_future(db.run_later(job, "bot"))
        await asyncio.sleep(0.01)
        people = [asyncio.ensure_future(db.run(job, f"p{i}")) for i in range(3)]
        await asyncio.sleep(0.05)  # all of them queued behind the gate
        gate.open.set()
        return await asyncio.gather(first, bot, *people)

    try:
        assert asyncio.run(main()) == ["gate", "bot", "p0", "p1", "p2"]
    finally:
        db.close()
    assert ran == ["p0", "p1", "p2", "bot"]

