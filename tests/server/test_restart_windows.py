"""A worker killed between two of its transactions: what the second would have done is done
anyway. A waiting table's start and its first clock are one transaction; the last person's
arrival (stored before the start follows) marks the table for the sweep, which starts it
and its clock if the worker that stored the arrival died first (SQLite and PostgreSQL)."""

from __future__ import annotations

from unittest import mock

from bigtop.server.db import make_engine, migrate
from bigtop.server.master import TableMaster
from bigtop.server.model import Created, SeatSpec, TableSpec, hash_token
from bigtop.server.settings import Settings
from bigtop.server.storage import SqlStorage

CLOCK = {"per_move_seconds": 3600}


def worker(url: str) -> TableMaster:
    return TableMaster(SqlStorage(make_engine(url)), Settings(db_url=url, bot_stuck_seconds=0.0))


def waiting_table(db_url: str) -> tuple[TableMaster, Created]:
    """A clocked table of Anna's waiting for Ben, on a fresh database."""
    migrate(make_engine(db_url))
    master = worker(db_url)
    anna, _ = master.new_player("Anna")
    made = master.create(TableSpec("scout", 2, seats=(SeatSpec(), SeatSpec(invite="Ben")),
                                   player_id=anna.id, key="k", clock=CLOCK))
    return master, made


def test_the_hosts_start_and_its_first_clock_are_one_write(db_url: str) -> None:
    master, made = waiting_table(db_url)
    # The worker dies right after the start's transaction (nothing after it runs).
    with mock.patch.object(TableMaster, "sync_clock", lambda self, loaded: loaded):
        master.start(made.table_id, 0, "random")
    t = worker(db_url).load(made.table_id)
    assert t.meta.started and t.state.current_player() == 0  # Anna, a person, to move
    assert t.meta.turn_started is not None and t.meta.clock_deadline is not None


def test_the_last_arrival_starts_the_table_and_its_clock_after_a_crash(db_url: str) -> None:
    master, made = waiting_table(db_url)
    # Ben's arrival is stored; the worker dies before it starts the table.
    assert master.storage.claim(made.table_id, 1, hash_token(made.tokens[1]), 1.0) is True
    other = worker(db_url)
    assert not other.load(made.table_id).meta.started
    assert other.tables_waiting_for_bots() == []  # no bot to move, but the table was seen
    t = other.load(made.table_id)
    assert t.meta.started and t.version == 0 and t.state.current_player() == 0
    assert t.meta.clock_deadline is not None  # Anna's clock runs
    assert other.storage.bots_waiting(1e12, 10) == []  # looked at once, not every sweep


def test_an_arrival_at_a_started_table_starts_its_clock_after_a_crash(db_url: str) -> None:
    """A table that started at once (no wait) with a person's seat still empty: the clock
    starts when that person arrives, also if the worker died after storing the arrival."""
    migrate(make_engine(db_url))
    master = worker(db_url)
    made = master.create(TableSpec("scout", 2, wait=False, clock=CLOCK))
    for seat in (0, 1):
        assert master.storage.claim(made.table_id, seat, hash_token(made.tokens[seat]), 1.0)
    other = worker(db_url)
    assert other.load(made.table_id).meta.clock_deadline is None
    assert other.tables_waiting_for_bots() == []
    assert other.load(made.table_id).meta.clock_deadline is not None


def test_an_arrival_that_starts_nothing_leaves_the_sweep_nothing(db_url: str) -> None:
    """A started table without a clock (a script's) starts nothing when its people arrive,
    nor does a clocked one whose clock runs: the sweep is not given the table to look at
    (it read and wrote each such table again; at 1,000 tables, seconds of the database
    thread in which no move was stored)."""
    migrate(make_engine(db_url))
    master = worker(db_url)
    made = master.create(TableSpec("scout", 2, wait=False))
    for seat in (0, 1):
        assert master.storage.claim(made.table_id, seat, hash_token(made.tokens[seat]), 1.0)
    assert master.storage.bots_waiting(1e12, 10) == []
    clocked = master.create(TableSpec("scout", 2, wait=False, clock=CLOCK))
    for seat in (0, 1):
        master.touch(clocked.table_id, seat, clocked.tokens[seat])
    assert master.load(clocked.table_id).meta.clock_deadline is not None
    # The arrivals started the clock: looked at once by the sweep, as designed.
    assert master.tables_waiting_for_bots() == []
    assert master.storage.bots_waiting(1e12, 10) == []
    # Ben opens his link as an identity: the seat was his already, the clock runs.
    ben, _ = master.new_player("Ben")
    master.claim_seat(clocked.table_id, clocked.tokens[1], ben)
    assert master.load(clocked.table_id).seats[1].player_id == ben.id
    assert master.storage.bots_waiting(1e12, 10) == []
