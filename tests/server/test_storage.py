"""Storage on SQLite and on a real PostgreSQL: migrations (fresh and upgrade), the move log
as the truth across restarts, and racing moves decided by the (table, move index) key."""

from __future__ import annotations

import random
import threading
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import func, insert, select

from bigtop.core.registry import new_game
from bigtop.server import errors
from bigtop.server.db import HEAD, current_revision, head_revision, make_engine, migrate
from bigtop.server.master import TableMaster
from bigtop.server.model import Created, SeatSpec, TableSpec, hash_token
from bigtop.server.schema import moves, seats, tables
from bigtop.server.settings import Settings
from bigtop.server.storage import SeatRefused, SqlStorage
from tests.server.conftest import drawn_seed
from tests.server.pg import new_database


def create(master: TableMaster, spec: TableSpec) -> Created:
    """``master.create(spec)`` with the seed the spec names drawn by the server (no client
    may choose the seed of a table of people)."""
    if spec.seed is None:
        return master.create(spec)
    with drawn_seed(spec.seed):
        return master.create(replace(spec, seed=None))


def service(url: str) -> TableMaster:
    engine = make_engine(url)
    migrate(engine)
    return TableMaster(SqlStorage(engine), Settings(db_url=url))


def test_fresh_database_is_migrated_to_head(db_url: str) -> None:
    assert head_revision() == HEAD  # the quick start-up check knows the newest migration
    engine = make_engine(db_url)
    assert current_revision(engine) is None
    migrate(engine)
    assert current_revision(engine) == head_revision()
    migrate(engine)  # idempotent
    assert current_revision(engine) == head_revision()


def _schema(url: str) -> dict[str, Any]:
    """Every table's columns, keys, foreign keys (with their ON DELETE), indexes and unique
    constraints, as the database reports them."""
    from sqlalchemy import inspect

    engine = make_engine(url)
    with engine.connect() as conn:
        seen = inspect(conn)
        out = {
            name: {
                # by name: a column a script added comes last in its table
                "columns": sorted((c["name"], str(c["type"]), c["nullable"], c.get("default"))
                                  for c in seen.get_columns(name)),
                "primary": seen.get_pk_constraint(name)["constrained_columns"],
                "foreign": sorted((f["constrained_columns"], f["referred_table"],
                                   f["referred_columns"], f["options"].get("ondelete"))
                                  for f in seen.get_foreign_keys(name)),
                "indexes": sorted((i["name"], i["column_names"], bool(i["unique"]))
                                  for i in seen.get_indexes(name)),
                "unique": sorted((u["column_names"]) for u in seen.get_unique_constraints(name)),
            } for name in seen.get_table_names()}
    engine.dispose()
    return out


def test_a_fresh_database_made_at_once_equals_the_migration_scripts(
        db_url: str, tmp_path: Any, request: pytest.FixtureRequest) -> None:
    """A fresh database is made from ``schema.metadata`` in one step (db.migrate); the
    scripts, run one by one, give the same tables, columns, keys and indexes, and Alembic
    finds nothing in the metadata that either lacks."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from bigtop.server.schema import metadata

    scripted = (f"sqlite:///{tmp_path / 'scripted.sqlite3'}" if db_url.startswith("sqlite")
                else new_database(request.getfixturevalue("pg_cluster")))
    for url, revision in ((scripted, HEAD),  # the revision named: every script runs
                          (db_url, "head")):  # "head" on an empty database: made at once
        engine = make_engine(url)
        migrate(engine, revision)
        assert current_revision(engine) == HEAD
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            assert compare_metadata(context, metadata) == []
        engine.dispose()
    made, replayed = _schema(db_url), _schema(scripted)
    assert set(made) == set(replayed)
    for name in made:
        for part in made[name]:
            assert made[name][part] == replayed[name][part], (name, part)


def test_old_database_is_upgraded_keeping_its_tables(db_url: str) -> None:
    """A table with seats and a move, as the first schema wrote it, is whole after every
    migration (on SQLite a batch migration's copy-and-drop of ``tables`` cascaded to every
    seat and move while foreign keys were on: the upgrade emptied them)."""
    engine = make_engine(db_url)
    migrate(engine, "0001")
    first = new_game("scout", 2).new_initial_state(3)
    action = first.legal_actions()[0]
    line = first.describe(action)
    with engine.connect().execution_options(write=True) as conn:
        conn.execute(insert(tables).values(
            id="old", game="scout", players=2, options={}, seed=3, listed=True,
            takeover_after=None, takeover_level="easy", status="playing", version=1,
            created_at=0.0, updated_at=0.0, result=None))
        conn.execute(insert(seats), [
            {"table_id": "old", "seat": k, "kind": "human", "level": None,
             "token_hash": f"{k:064x}", "claimed": True, "last_seen": 0.0,
             "bot_playing": None} for k in range(2)])
        conn.execute(insert(moves).values(table_id="old", idx=0, seat=0,
                                          action=action.to_json(), text=line, by_bot=None,
                                          created_at=0.0))
        conn.commit()
    migrate(engine)
    assert current_revision(engine) == head_revision()
    with engine.connect() as conn:
        row = conn.execute(select(tables).where(tables.c.id == "old")).mappings().one()
        assert conn.execute(select(func.count()).select_from(seats)).scalar_one() == 2
    assert row["seat_rev"] == 0 and row["game"] == "scout"
    old = service(db_url).load("old")
    first.apply(action)
    assert old.version == 1 and old.state == first and [e.text for e in old.log] == [line]
    assert [s.token_hash for s in old.seats] == [f"{k:064x}" for k in range(2)]
    with engine.connect() as conn:  # foreign keys are on again after the migration
        if conn.dialect.name == "sqlite":
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar_one() == 1


def test_log_is_the_truth_after_a_restart(db_url: str) -> None:
    svc = service(db_url)
    made = create(svc, TableSpec("so-ein-zirkus", 3, seed=4))
    rng = random.Random(1)
    t = svc.load(made.table_id)
    for _ in range(30):
        if t.state.is_terminal():
            break
        seat = t.state.current_player()
        t = svc.play(made.table_id, seat, t.version,
                     {"index": rng.randrange(len(t.state.legal_actions()))})
    # a new worker on the same database: rebuilt from seed and log alone
    fresh = service(db_url).load(made.table_id)
    assert fresh.state == t.state and fresh.version == t.version
    assert [e.text for e in fresh.log] == [e.text for e in t.log]
    replay = new_game("so-ein-zirkus", 3).new_initial_state(4)
    for row in svc.move_rows(made.table_id):
        replay.apply_json(row["action"])
    assert replay == fresh.state
    with make_engine(db_url).connect() as conn:
        n = conn.execute(select(func.count()).select_from(moves).where(
            moves.c.table_id == made.table_id)).scalar_one()
    assert n == fresh.version  # chance outcomes (die rolls) are logged as moves too


def test_two_workers_share_a_table(db_url: str) -> None:
    a, b = service(db_url), service(db_url)
    made = create(a, TableSpec("scout", 2, seed=9))
    ta = a.load(made.table_id)
    ta = a.play(made.table_id, 0, 0, {"index": 0})
    tb = b.load(made.table_id)
    assert tb.state == ta.state
    seat = tb.state.current_player()
    tb = b.play(made.table_id, seat, tb.version, {"index": 0})
    assert a.load(made.table_id).state == tb.state  # a caught up from the log


def test_the_unique_key_refuses_a_second_move_for_one_version(db_url: str) -> None:
    svc = service(db_url)
    made = create(svc, TableSpec("scout", 2, seed=2))
    t = svc.load(made.table_id)
    work = t.state.clone()
    action = work.legal_actions()[0]
    work.apply(action)
    row = [(0, action.to_json(), "first")]
    svc.store(t, work, row, None)
    # the same version again, past every check in Python: the database refuses it
    with pytest.raises(errors.StaleVersion) as e:
        svc.store(t, work, row, None)
    assert e.value.extra["version"] == 1
    assert [r["text"] for r in svc.move_rows(made.table_id)] == ["first"]


def test_racing_moves_exactly_one_wins(db_url: str) -> None:
    svcs = [service(db_url), service(db_url)]  # two workers, each with its own memory
    made = create(svcs[0], TableSpec("clown-15-go", 2, seed=5,
                                    seats=(SeatSpec(), SeatSpec())))
    table = made.table_id
    for rounds in range(15):
        t = svcs[0].load(table)
        if t.state.is_terminal():
            break
        svcs[1].load(table)
        seat = t.state.current_player()
        barrier = threading.Barrier(2)
        results: list[Any] = [None, None]

        def go(i: int, version: int = t.version, seat: int = seat,
               barrier: threading.Barrier = barrier, results: list[Any] = results) -> None:
            barrier.wait()
            try:
                results[i] = svcs[i].play(table, seat, version, {"index": 0}).version
            except errors.StaleVersion as e:
                results[i] = e

        threads = [threading.Thread(target=go, args=(i,)) for i in range(2)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        wins = [r for r in results if isinstance(r, int)]
        losses = [r for r in results if isinstance(r, errors.StaleVersion)]
        assert len(wins) == 1 and len(losses) == 1, (rounds, results)
        assert losses[0].extra["version"] == wins[0]
        rows = svcs[0].move_rows(table)
        assert [r["idx"] for r in rows] == list(range(len(rows)))


def test_a_position_in_memory_behind_the_database_is_checked_against_it(db_url: str) -> None:
    """A worker plays on the position it holds without reading the database first; a
    table another worker moved on or changed (a bot took a seat) is caught by the move's
    transaction and the move is judged on the table as it is now."""
    a, b = service(db_url), service(db_url)
    made = create(a, TableSpec("scout", 2, seed=11, takeover_after=5.0))
    table = made.table_id

    def step(svc: TableMaster, version: int, bot: str | None = None) -> Any:
        seat = svc.load(table).state.current_player()
        return svc.play(table, seat, version, {"index": 0}, bot)

    step(a, 0)  # a holds version 1
    mover = a.cached(table).state.current_player()  # type: ignore[union-attr]
    step(b, 1)  # b moves on: version 2, a does not know
    assert a.cached(table).version == 1  # type: ignore[union-attr]
    with pytest.raises(errors.StaleVersion) as e:  # the same turn again, through a: taken
        a.play(table, mover, 1, {"index": 0})
    assert e.value.extra["version"] == 2
    seat = b.cached(table).state.current_player()  # type: ignore[union-attr]
    t = a.play(table, seat, 2, {"index": 0})  # the version the client saw: a catches up
    assert t.version == 3 and t.state == b.load(table).state
    # b lets a bot play the seat to move (its person is away); a thinks the person plays it
    seat = t.state.current_player()
    assert b.seat_event(table, seat, "takeover", "away", "easy",
                         only_if="absent") is not None
    assert a.cached(table).seats[seat].bot_playing is None  # type: ignore[union-attr]
    with pytest.raises(errors.Conflict, match=f"bot plays seat {seat}"):
        a.play(table, seat, 3, {"index": 0})
    assert [r["idx"] for r in a.move_rows(table)] == [0, 1, 2]  # nothing stored
    assert a.play(table, seat, 3, {"index": 0}, bot="easy").version == 4  # the bot may


def test_positions_in_memory_are_bounded_and_rebuilt_from_the_log(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    svc = TableMaster(SqlStorage(engine), Settings(db_url=db_url, cached_tables=2))
    ids = [create(svc, TableSpec("scout", 2, seed=s)).table_id for s in range(3)]
    played = {i: svc.play(i, 0, 0, {"index": 0}).state for i in ids}
    assert svc.cached(ids[0]) is None and svc.cached(ids[2]) is not None  # oldest dropped
    seat = played[ids[0]].current_player()
    again = svc.play(ids[0], seat, 1, {"index": 0})  # rebuilt from the log, then played
    assert again.version == 2 and again.state.history[:1] == played[ids[0]].history


def test_a_shared_token_bucket_gives_its_burst_once_to_racing_workers(db_url: str) -> None:
    """Eight threads of two workers (two engines) take 40 tokens of one bucket at once:
    exactly its burst is taken; a full bucket is forgotten by the sweep, one in use kept."""
    workers = [service(db_url).storage for _ in range(2)]
    now = 1000.0
    taken: list[float] = []
    barrier = threading.Barrier(8)

    def go(storage: Any) -> None:
        barrier.wait()
        for _ in range(5):
            taken.append(storage.take_token("tables 198.51.100.1", now, 0.001, 7))

    threads = [threading.Thread(target=go, args=(workers[i % 2],)) for i in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(taken)[:8] == [0.0] * 7 + [pytest.approx(1000.0)]  # the 8th: 1/rate
    assert workers[1].take_token("tables 198.51.100.2", now, 0.001, 7) == 0.0  # its own
    # The next token of the first is there 1,000 s later (then one is taken), the second
    # bucket is full 1,000 s later, the first 8,000 s later.
    assert workers[1].take_token("tables 198.51.100.1", now + 999.0, 0.001, 7) == \
        pytest.approx(1.0)
    assert workers[0].forget_full_buckets(now + 999.0, 100) == 0
    assert workers[0].forget_full_buckets(now + 1001.0, 100) == 1
    assert workers[1].take_token("tables 198.51.100.1", now + 1001.0, 0.001, 7) == 0.0
    assert workers[0].forget_full_buckets(now + 7999.0, 100) == 0
    assert workers[0].forget_full_buckets(now + 8001.0, 100) == 1


def test_a_connection_the_database_dropped_is_replaced(pg_url: str) -> None:
    """The move and the read go through psycopg on the pool's connections: one whose
    backend is gone fails that once and is thrown away, and the next move is stored."""
    from sqlalchemy import text

    svc = service(pg_url)
    made = create(svc, TableSpec("scout", 2, seed=3))
    table = made.table_id
    t = svc.play(table, 0, 0, {"index": 0})
    engine = svc.storage.engine  # type: ignore[attr-defined]
    with make_engine(pg_url).connect() as other:  # every backend of the pool dropped
        other.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                           "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
    failed = 0
    for _ in range(engine.pool.size() + 2):
        try:
            t = svc.play(table, t.state.current_player(), t.version, {"index": 0})
            break
        except Exception:  # the dropped connection: this move is refused, nothing stored
            failed += 1
            t = svc.load(table)
    assert failed <= 1 and t.version == 2  # only the move that met it
    assert [r["idx"] for r in svc.move_rows(table)] == [0, 1]


def test_a_seat_is_opened_in_the_writing_transaction_by_its_token_or_key(db_url: str) -> None:
    """Chat, a reclaim and the host's start, given the hash of the secret the person acts
    with, store only if it still opens their seat (its token, or the player key of the
    identity sitting there) as their own transaction finds it; else SeatRefused, nothing
    stored."""
    master = service(db_url)
    storage = master.storage
    anna, key = master.new_player("Anna")
    made = master.create(TableSpec("scout", 3, takeover_after=60.0, player_id=anna.id,
                                   key=key))
    t, tokens = made.table_id, made.tokens
    wrong = hash_token(tokens[1])  # a seat's token, not seat 0's
    with pytest.raises(SeatRefused):
        storage.add_chat(t, 0, "hi", 1.0, 10, secret_hash=wrong)
    assert storage.chat_after(t, 0, 10) == []
    assert storage.add_chat(t, 0, "by key", 1.0, 10, secret_hash=hash_token(key))
    assert storage.add_chat(t, 0, "by token", 1.0, 10, secret_hash=hash_token(tokens[0]))
    assert storage.set_bot_playing(t, 0, "easy", only_if="absent", kind="takeover",
                                   text="away", now=1.0)
    with pytest.raises(SeatRefused):
        storage.set_bot_playing(t, 0, None, only_if="taken", kind="reclaim", text="back",
                                now=1.0, secret_hash=wrong)
    assert master.load(t).seats[0].bot_playing == "easy"
    assert storage.set_bot_playing(t, 0, None, only_if="taken", kind="reclaim", text="back",
                                   now=1.0, secret_hash=hash_token(key))
    assert not master.load(t).meta.started  # seats 1 and 2 wait for their people
    with pytest.raises(SeatRefused):
        master.storage.start_table(t, {1: "easy", 2: "easy"}, [], bot_waiting=False, now=1.0,
                                   idle_bucket=0, host=(0, wrong))
    assert not master.load(t).meta.started
    assert [s.kind for s in master.load(t).seats] == ["human"] * 3
    assert master.start(t, 0, "easy", key).meta.started  # the key opens the host seat
