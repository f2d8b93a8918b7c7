"""Races between workers that the writing transaction must decide (PostgreSQL, where two
workers write at once). One identity sits at most once at a table: each claim's UPDATE
guarded that with a NOT EXISTS, but under read committed it cannot see the same identity's
claim of another seat that has not committed yet, so one identity claiming two invites of
one table through two workers at once sat twice (3 races in 10 on two real `bigtop serve`
processes). Here the other worker's claim is a transaction held open at the point where it
has seated the identity and locked the table's row, so the race is the same every run."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import psycopg

from bigtop.server.db import make_engine, migrate
from bigtop.server.errors import Conflict
from bigtop.server.master import TableMaster
from bigtop.server.model import Player, SeatSpec, TableSpec
from bigtop.server.settings import Settings
from bigtop.server.storage import SqlStorage

WAIT = 30.0


def _master(url: str) -> TableMaster:
    migrate(make_engine(url))
    return TableMaster(SqlStorage(make_engine(url)), Settings(db_url=url))


def _behind_a_held_claim(url: str, table_id: str, seat: int, player: Player,
                         write: Callable[[], object]) -> list[object]:
    """``write`` (in a thread) while another transaction has seated ``player`` at ``seat``
    and holds the table's row, as a worker's claim does before it commits; that one commits
    once ``write`` waits on it. Answers what ``write`` returned or raised."""
    out: list[object] = []

    def run() -> None:
        try:
            out.append(write())
        except Exception as e:
            out.append(e)

    with psycopg.connect(url) as other, psycopg.connect(url, autocommit=True) as watch:
        other.execute("UPDATE seats SET player_id = %s, claimed = true "
                      "WHERE table_id = %s AND seat = %s", (player.id, table_id, seat))
        other.execute("UPDATE tables SET seat_rev = seat_rev + 1 WHERE id = %s", (table_id,))
        thread = threading.Thread(target=run)
        thread.start()
        deadline = time.monotonic() + WAIT
        # The write waits on a lock the held transaction has (else it finished first).
        while not watch.execute("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = "
                                "'Lock' AND datname = current_database()").fetchone():
            assert thread.is_alive() and time.monotonic() < deadline, out
            time.sleep(0.01)
        other.commit()
    thread.join(WAIT)
    return out


def test_one_identity_claiming_two_seats_at_once_sits_once(pg_url: str) -> None:
    master = _master(pg_url)
    anna, _ = master.new_player("Anna")
    ben, _ = master.new_player("Ben")
    made = master.create(TableSpec("scout", 3, seats=(
        SeatSpec(), SeatSpec("human", invite="Ben"), SeatSpec("human", invite="Cleo")),
        player_id=anna.id, key="k"))
    out = _behind_a_held_claim(pg_url, made.table_id, 1, ben,
                               lambda: master.claim_seat(made.table_id, made.tokens[2], ben))
    assert len(out) == 1 and isinstance(out[0], Conflict), out
    assert "Ben sits at table" in str(out[0])
    seats = master.load(made.table_id).seats
    assert [s.player_id for s in seats] == [anna.id, ben.id, None]
    assert seats[2].invited  # the refused claim changed nothing


def test_one_identity_joining_while_it_claims_sits_once(pg_url: str) -> None:
    master = _master(pg_url)
    anna, _ = master.new_player("Anna")
    ben, _ = master.new_player("Ben")
    made = master.create(TableSpec("scout", 3, seats=(
        SeatSpec(), SeatSpec("human", invite="Ben"), SeatSpec()), player_id=anna.id,
        key="k", listed=True))
    out = _behind_a_held_claim(pg_url, made.table_id, 1, ben,
                               lambda: master.join(made.table_id, 2, ben))
    assert len(out) == 1 and isinstance(out[0], Conflict), out
    seats = master.load(made.table_id).seats
    assert [s.player_id for s in seats] == [anna.id, ben.id, None]
    assert not seats[2].claimed

