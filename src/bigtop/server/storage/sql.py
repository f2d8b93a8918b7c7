"""The storage on SQLAlchemy (SQLite or PostgreSQL), with the ``sqlite3`` driver itself for
the hottest write.

A move is one short transaction: its rows (the ``(table, idx)`` primary key refuses a turn
already taken) and the table's new version, the latter only if the row still has the
version, seat revision and status the move was checked against. Everything is committed
before the caller hears of it; on PostgreSQL each change is announced with ``pg_notify`` in
the same transaction, so other workers hear only of committed changes.

>>> from bigtop.server.db import make_engine, migrate
>>> engine = make_engine("sqlite://"); migrate(engine)
>>> SqlStorage(engine).read("nope", None, 0) is None
True
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from sqlalchemy import (
    Connection,
    Engine,
    Float,
    and_,
    bindparam,
    case,
    delete,
    exists,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from bigtop.server.model import (
    BOT,
    EXPIRED,
    FINISHED,
    HUMAN,
    PLAYING,
    ChatRecord,
    EventRecord,
    Meta,
    MoveRecord,
    Player,
    Seat,
)
from bigtop.server.ratings import RatingUpdate, ordinal
from bigtop.server.schema import (
    blocked_players,
    chat,
    events,
    moves,
    players,
    rate_buckets,
    ratings,
    seats,
    snapshots,
    tables,
)
from bigtop.server.storage.base import (
    ClockUpdate,
    Full,
    Guard,
    Known,
    RatingRow,
    SeatRefused,
    Stored,
    TurnTaken,
)

NOTIFY_CHANNEL = "bigtop_tables"
"""PostgreSQL LISTEN/NOTIFY channel; the payload is the id of a table that changed and its
row as committed (``"ID VERSION SEAT_REV UNDOS STATUS"``, :func:`parse_note`), or
``CHAT_NOTE`` and that id for a new chat message."""
CHAT_NOTE = "chat "

# The row as the change left it, read in the change's transaction: a worker that holds the
# table at exactly this row (the one that made the change, usually) need not read it again.
_NOTIFY = text("SELECT pg_notify(:c, CAST(:p AS text) || coalesce((SELECT ' ' || version"
               " || ' ' || seat_rev || ' ' || undos || ' ' || status FROM tables"
               " WHERE id = :p), ''))")


@dataclass(frozen=True)
class Note:
    """A change heard on :data:`NOTIFY_CHANNEL`: the table, whether it is a chat message,
    and the table's row as committed (None: a payload of the table's id alone, as workers
    before this one send, or a table deleted meanwhile)."""

    table_id: str
    chat: bool = False
    row: tuple[int, int, int, str] | None = None
    """(version, seat_rev, undos, status)."""


def parse_note(payload: str) -> Note:
    """What a NOTIFY payload says (old payloads, the table's id alone, still understood).

    >>> parse_note("T1 12 3 0 playing")
    Note(table_id='T1', chat=False, row=(12, 3, 0, 'playing'))
    >>> parse_note("T1"), parse_note("chat T1")
    (Note(table_id='T1', chat=False, row=None), Note(table_id='T1', chat=True, row=None))
    """
    if payload.startswith(CHAT_NOTE):
        return Note(payload[len(CHAT_NOTE):], chat=True)
    parts = payload.split(" ")
    if len(parts) == 5 and all(p.isdigit() for p in parts[1:4]):
        return Note(parts[0], row=(int(parts[1]), int(parts[2]), int(parts[3]), parts[4]))
    return Note(payload)

# The statements of every move and every load, built once: a statement made anew on each
# call costs more in SQLAlchemy (its cache key) than SQLite takes to run it.
_TABLE_ROW = select(tables).where(tables.c.id == bindparam("table_id"))
_EVENTS_AFTER = (select(events).where(events.c.table_id == bindparam("table_id"),
                                      events.c.id > bindparam("after"))
                 .order_by(events.c.id))
_MOVES_FROM = (select(moves).where(moves.c.table_id == bindparam("table_id"),
                                   moves.c.idx >= bindparam("start"))
               .order_by(moves.c.idx))
_LAST_SNAPSHOT = (select(snapshots.c.idx, snapshots.c.position)
                  .where(snapshots.c.table_id == bindparam("table_id"))
                  .order_by(snapshots.c.idx.desc()).limit(1))
_INSERT_MOVES = insert(moves)
_SEAT = (seats.c.table_id == bindparam("table_id"), seats.c.seat == bindparam("seat"))


def _opens_seat(secret_hash: Any) -> Any:
    """The seat opens to the secret with this hash: its token, or the player key of the
    identity sitting there (a player key opens its seat on any device)."""
    return or_(seats.c.token_hash == secret_hash, seats.c.player_id.in_(
        select(players.c.id).where(players.c.key_hash == secret_hash).scalar_subquery()))


def _check_opens(conn: Connection, table_id: str, seat: int, secret_hash: str) -> None:
    """In the caller's write transaction, before it changes anything: :class:`SeatRefused`
    unless ``seat`` is a person's seat that still opens to the secret with ``secret_hash``
    (:func:`_opens_seat`). The seat's row stays locked until the transaction ends (``FOR
    UPDATE`` on PostgreSQL; SQLite has one writer), so no change of who holds the seat (a
    new token, an identity, a bot in it) commits between this check and the write."""
    if conn.execute(select(seats.c.seat).where(
            seats.c.table_id == table_id, seats.c.seat == seat, seats.c.kind == HUMAN,
            _opens_seat(secret_hash)).with_for_update()).first() is None:
        raise SeatRefused(f"seat {seat} of table {table_id} does not open to that secret")


_HOLDER_MOVES = exists().where(*_SEAT, seats.c.kind == HUMAN, seats.c.bot_playing.is_(None),
                               _opens_seat(bindparam("token_hash")))
"""The person with this token (or player key) still holds the seat, and no bot plays for
them."""
_BOT_MOVES = exists().where(*_SEAT, or_(
    and_(seats.c.kind == BOT, seats.c.level == bindparam("bot")),
    seats.c.bot_playing == bindparam("bot")))
"""A bot of this level still plays the seat."""


def _store_version(bot: bool, waiting: bool, bucket: bool) -> Any:
    values: dict[str, Any] = {
        "version": bindparam("new_version"), "updated_at": bindparam("now"),
        "status": bindparam("new_status"),
        "result": bindparam("new_result", type_=tables.c.result.type)}
    # Indexed columns are set only when they change (most moves change neither): an index
    # entry rewritten on every move cost a fifth of a move's CPU on SQLite (measured).
    if waiting:
        values["bot_waiting_since"] = bindparam("waiting",
                                                type_=tables.c.bot_waiting_since.type)
    if bucket:
        values["idle_bucket"] = bindparam("bucket", type_=tables.c.idle_bucket.type)
    return update(tables).where(
        tables.c.id == bindparam("table_id"), tables.c.version == bindparam("old_version"),
        tables.c.seat_rev == bindparam("old_seat_rev"), tables.c.status == PLAYING,
        _BOT_MOVES if bot else _HOLDER_MOVES).values(**values)


_VARIANTS = [(bot, waiting, bucket) for bot in (False, True) for waiting in (False, True)
             for bucket in (False, True)]
_STORE_VERSION = {v: _store_version(*v) for v in _VARIANTS}
"""The table's new version after a move (keyed by: a bot moves, ``bot_waiting_since`` and
``idle_bucket`` change), only if its row is still as the move was checked against
(version, seats, status) and the mover still plays the seat."""

# The same two statements for SQLite's own driver (sqlite3), in the order of ``_store_sqlite``'s
# parameters: a move is the server's hottest write, and SQLAlchemy's execution layer (its
# compiled-statement context, bind processors, the begin event) cost more per move than
# SQLite's work. The schema is still the one in ``schema.py``; what this path writes is
# read back through SQLAlchemy (every table rebuilt from its log in the storage tests).
_SQLITE_INSERT_MOVE = ("INSERT INTO moves (table_id, idx, seat, action, text, by_bot, "
                       "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
_SQLITE_HOLDER = {False: f"kind = '{HUMAN}' AND bot_playing IS NULL AND (token_hash = ? OR "
                        "player_id IN (SELECT id FROM players WHERE key_hash = ?))",
                  True: f"((kind = '{BOT}' AND level = ?) OR bot_playing = ?)"}
_SQLITE_STORE_VERSION = {(bot, waiting, bucket, ends): (
    "UPDATE tables SET version = ?, updated_at = ?, result = ?"
    # The status only where the move ends the game (or the table): SQLite rewrites the
    # entries of every index on a column the statement sets, changed or not, and three
    # indexes hold the status.
    + (", status = ?" if ends else "")
    + (", bot_waiting_since = ?" if waiting else "") + (", idle_bucket = ?" if bucket else "")
    + f" WHERE id = ? AND version = ? AND seat_rev = ? AND status = '{PLAYING}' AND EXISTS "
    "(SELECT 1 FROM seats WHERE table_id = tables.id AND seat = ? AND "
    + _SQLITE_HOLDER[bot] + ")") for bot, waiting, bucket in _VARIANTS for ends in (False, True)}

_AWAY_AT: Any = bindparam("at", type_=seats.c.away_at.type) + (select(tables.c.takeover_after)
                              .where(tables.c.id == seats.c.table_id).scalar_subquery())
"""A seat's ``away_at`` when its person was seen at ``at``: NULL at a table without a
takeover time (NULL plus a number is NULL)."""
_SQLITE_INSERT_SNAPSHOT = "INSERT INTO snapshots (table_id, idx, position) VALUES (?, ?, ?)"
_SQLITE_GAME_OVER = ("UPDATE seats SET away_at = NULL WHERE table_id = ?",
                     "UPDATE tables SET idle_bucket = NULL, bot_waiting_since = NULL "
                     "WHERE id = ?")


def _pg(statement: str) -> str:
    """One of the ``sqlite3`` path's statements with PostgreSQL's placeholders (psycopg's)."""
    return statement.replace("?", "%s")


class _MoveStatements(NamedTuple):
    """A move's statements for one database's own driver (``_store_statements``)."""

    insert_move: str
    store_version: dict[tuple[bool, bool, bool, bool], str]
    insert_snapshot: str
    game_over: tuple[str, ...]
    placeholders: Callable[[str], str]
    """Applied to the clock's statements (``_sqlite_clock`` writes SQLite's)."""


_SQLITE_MOVE = _MoveStatements(_SQLITE_INSERT_MOVE, _SQLITE_STORE_VERSION,
                               _SQLITE_INSERT_SNAPSHOT, _SQLITE_GAME_OVER, str)
# The same statements for PostgreSQL's driver (psycopg): its placeholders, and the JSON
# columns' values cast from text. A statement through SQLAlchemy cost about as much CPU as
# its round trip to the database.
_PG_MOVE = _MoveStatements(
    _pg(_SQLITE_INSERT_MOVE.replace("?, ?, ?, ?", "?, ?, ?, CAST(? AS json)", 1)),
    {key: _pg(sql.replace("result = ?", "result = CAST(? AS json)"))
     for key, sql in _SQLITE_STORE_VERSION.items()},
    _pg(_SQLITE_INSERT_SNAPSHOT.replace("?)", "CAST(? AS json))")),
    tuple(_pg(sql) for sql in _SQLITE_GAME_OVER), _pg)


def _give_back(raw: Any) -> None:
    """Return a pooled connection used through its driver: one the database dropped is
    thrown away, as SQLAlchemy does with a connection it saw fail."""
    if raw.driver_connection is not None and raw.driver_connection.broken:
        raw.invalidate()
    raw.close()


def _dict_row() -> Any:
    """psycopg's row factory of dicts (imported only where PostgreSQL is used)."""
    from psycopg.rows import dict_row
    return dict_row


def _sqlite_clock(table_id: str, clock: ClockUpdate) -> list[tuple[str, tuple[Any, ...]]]:
    """``SqlStorage._set_clock``'s statements for the ``sqlite3`` path of a move."""
    out: list[tuple[str, tuple[Any, ...]]] = [(
        "UPDATE tables SET turn_started = ?, clock_deadline = ? WHERE id = ?",
        (clock.turn_started, clock.deadline, table_id))]
    if clock.seat is not None:
        out.append(("UPDATE seats SET clock_left = ? WHERE table_id = ? AND seat = ?",
                    (clock.left, table_id, clock.seat)))
    return out


def _take_token(dialect: str) -> Any:
    """The one statement that takes a token of a shared bucket (schema.rate_buckets): a new
    bucket is stored one interval (``step``) ahead of ``now``; an existing one moves on by
    one interval from ``now`` or from where it was ahead, only if it was at most ``latest``
    (``now`` + ``burst - 1`` intervals); the new ``full_at`` is returned, no row: refused.
    An upsert: on PostgreSQL it locks the row, so racing takes from any worker queue on
    it and each sees the one before (SQLite has one writer at a time anyway)."""
    insert_ = postgresql.insert if dialect == "postgresql" else sqlite.insert
    b = rate_buckets.c
    now = bindparam("now", type_=Float)
    return (insert_(rate_buckets)
            .values(bucket=bindparam("bucket"), full_at=now + bindparam("step", type_=Float))
            .on_conflict_do_update(
                index_elements=[b.bucket],
                set_={"full_at": case((b.full_at > now, b.full_at), else_=now)
                      + bindparam("step", type_=Float)},
                where=b.full_at <= bindparam("latest", type_=Float))
            .returning(b.full_at))


_TAKE_TOKEN = {d: _take_token(d) for d in ("postgresql", "sqlite")}
_NO_FLUSH = text("SET LOCAL synchronous_commit = off")
_BUCKET_AHEAD = select(rate_buckets.c.full_at).where(rate_buckets.c.bucket == bindparam("bucket"))

_META_FIELDS = tuple(Meta.__dataclass_fields__)
_SEAT_FIELDS = tuple(Seat.__dataclass_fields__)
_SEAT_COLUMNS = tuple(c.name for c in seats.c if c.name in _SEAT_FIELDS)
"""What of a :class:`Seat` is stored in its row (its identity's name and key hash are read
from ``players`` with it; ``away_at`` is the storage's own)."""
_SEATS_OF = (select(seats, players.c.name, players.c.key_hash.label("player_key_hash"))
             .outerjoin(players, players.c.id == seats.c.player_id)
             .where(seats.c.table_id == bindparam("table_id")).order_by(seats.c.seat))


@dataclass
class Group:
    """A group of moves stored in one transaction (:meth:`SqlStorage.group`)."""

    thread: int
    """The thread whose moves join it."""
    open: bool = False
    """Whether its transaction is begun and not yet committed."""
    generation: int = 0
    """How many times it committed: a move stored at generation g is committed once this
    is past g."""
    waiting: list[Callable[[], Any]] = field(default_factory=list)
    """What runs after the next commit (:meth:`SqlStorage.after_commit`)."""
    failed: dict[int, BaseException] = field(default_factory=dict)
    """The generations whose commit failed (nothing of their moves is stored), and why."""


_SPENT = case((seats.c.clock_left.is_(None), None), else_=0.0)
"""A seat's game clock, spent (a table without a game clock keeps none)."""


class SqlStorage:
    """:class:`bigtop.server.storage.Storage` on one SQLAlchemy engine (thread-safe)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.dialect: str = engine.dialect.name
        self._pg = self.dialect == "postgresql"
        self._pg_compiled: dict[int, tuple[str, dict[str, Any]]] = {}
        self._sqlite = self.dialect == "sqlite"
        self._sqlite_writer: Any = (threading.Lock() if self._sqlite
                                    else contextlib.nullcontext())
        self._mover: Any = None
        """The pool's connection that SQLite's move path keeps checked out (see
        :meth:`_store_sqlite`); used under ``_sqlite_writer``."""
        self._group: Group | None = None
        """The open group of moves (:meth:`group`), or None."""

    def close(self) -> None:
        """Give back the connection the move path keeps (before the engine is disposed)."""
        with self._sqlite_writer:
            if self._mover is not None:
                self._mover.close()
                self._mover = None

    # -- transactions -------------------------------------------------------------------
    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """A connection for one write transaction. On SQLite (one writer at a time anyway)
        this worker's writers queue on a lock instead of in SQLite's busy handler, which
        sleeps up to 100 ms between tries. Correctness does not depend on it: the database's
        keys decide races, also between processes."""
        self._commit_group()  # its transaction holds SQLite's write lock
        with self._sqlite_writer, self.engine.connect().execution_options(write=True) as conn:
            yield conn

    @contextmanager
    def group(self) -> Iterator[Group]:
        """Store the moves of this thread's :meth:`append_moves` calls inside the block in
        one SQLite transaction (group commit: one ``BEGIN`` and ``COMMIT`` for several
        tables' moves, each move in a savepoint of its own, so a refused one leaves the
        others), committed when the block ends, or earlier when this thread needs another
        write transaction. What depends on a move being stored waits for that commit:
        :meth:`after_commit`. If the commit fails, the block raises and nothing of the
        moves since the last commit is stored (``Group.generation`` tells them apart).
        Elsewhere (PostgreSQL) the block changes nothing."""
        if not self._sqlite or self._group is not None:
            yield Group(threading.get_ident())
            return
        group = self._group = Group(threading.get_ident())
        try:
            yield group
        except BaseException:
            self._commit_group()
            raise
        finally:
            self._group = None
        self._commit_group(group)

    def after_commit(self, fn: Callable[[], Any]) -> bool:
        """Run ``fn`` once the move just stored by this thread is committed: True when it
        waits for its group's commit, False (``fn`` not run) when it is committed already."""
        group = self._group
        if group is None or not group.open or group.thread != threading.get_ident():
            return False
        group.waiting.append(fn)
        return True

    def _commit_group(self, group: Group | None = None) -> None:
        """Commit this thread's open group transaction, if any, then run what waited for
        it; a failed commit rolls back, and the next moves start a new transaction."""
        group = group or self._group
        if group is None or not group.open or group.thread != threading.get_ident():
            return
        waiting, group.waiting = group.waiting, []
        group.open = False
        generation = group.generation
        group.generation += 1
        driver: sqlite3.Connection = self._mover.driver_connection
        try:
            driver.execute("COMMIT")
        except BaseException as e:
            group.failed[generation] = e
            if driver.in_transaction:
                driver.execute("ROLLBACK")
            raise
        finally:
            self._sqlite_writer.release()
        for fn in waiting:
            fn()

    def _notify(self, conn: Connection, table_id: str) -> None:
        # Delivered at commit, so other workers never hear of an uncommitted move.
        if self._pg:
            conn.execute(_NOTIFY, {"c": NOTIFY_CHANNEL, "p": table_id})

    def _arrived(self, conn: Connection, done: int, table_id: str, now: float,
                 player_id: str | None = None) -> bool:
        """The end of a write that seats somebody at ``now`` (``done``: the rows its one
        guarded UPDATE changed): stored and announced if it took, else nothing (False).
        ``player_id``: the identity seated, at most once a table. The UPDATE's guard alone
        cannot see a claim of another seat by the same identity that has not committed
        (PostgreSQL's read committed: two workers each seated it, one seat each). So it is
        counted again here, after :meth:`_seats_changed` locked the table's row (every
        arrival at the table queues there), in a statement that sees what committed
        before."""
        if done != 1:
            return False
        self._seats_changed(conn, table_id, arrived=now)
        if player_id is not None and conn.execute(
                select(func.count()).select_from(seats).where(
                    seats.c.table_id == table_id, seats.c.player_id == player_id)
                ).scalar_one() != 1:
            conn.rollback()
            return False
        conn.commit()
        return True

    def _seats_changed(self, conn: Connection, table_id: str,
                       arrived: float | None = None) -> None:
        """A seat changed hands or state: every worker's cached seats of the table are
        stale (seat_rev), and they hear of it at commit. ``arrived``: a person took their
        seat then: if that may start something, the table is due for the bot sweep (an
        earlier due time kept), which does it should this worker die first."""
        values: dict[str, Any] = {"seat_rev": tables.c.seat_rev + 1}
        if arrived is not None and self._arrival_starts(conn, table_id):
            values["bot_waiting_since"] = func.coalesce(tables.c.bot_waiting_since, arrived)
        conn.execute(update(tables).where(tables.c.id == table_id).values(**values))
        self._notify(conn, table_id)

    @staticmethod
    def _arrival_starts(conn: Connection, table_id: str) -> bool:
        """Whether a person's arrival may start something at the table: the game (it
        waits for people) or the turn's clock (a clocked table whose clock does not run:
        none runs before every person has arrived). Else the sweep is not given the table:
        a script's tables start at once, and marking their arrivals had the sweep read and
        write each again (1,000 tables: sweeps of 200 that each held the database
        thread, and every move waiting on it, for hundreds of milliseconds). Read in the
        arrival's transaction (the row locked on PostgreSQL)."""
        started, clock, turn_started = conn.execute(
            select(tables.c.started, tables.c.clock, tables.c.turn_started)
            .where(tables.c.id == table_id).with_for_update()).one()
        return not started or (clock is not None and turn_started is None)

    # -- creating -------------------------------------------------------------------------
    def create_table(self, meta: Meta, seat_list: Sequence[Seat],
                     opening: Sequence[MoveRecord], *, result: Any, bot_waiting: bool,
                     idle_bucket: int, max_open: int, max_open_per_creator: int,
                     rematch_of: str | None = None,
                     asker: tuple[int, str] | None = None) -> bool:
        with self._write() as conn:
            if rematch_of is not None and asker is not None:
                _check_opens(conn, rematch_of, *asker)
            if meta.creator:  # a client's (the master's own callers name nobody)
                if self._pg:  # creators of one address queue here: two cannot both pass
                    conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:c))"),
                                 {"c": "bigtop-create:" + meta.creator})
                mine = conn.execute(select(func.count()).select_from(tables).where(
                    tables.c.creator == meta.creator, tables.c.status == PLAYING)
                ).scalar_one()
                if mine >= max_open_per_creator:
                    raise Full(mine, meta.creator)
            open_tables = conn.execute(select(func.count()).select_from(tables).where(
                tables.c.status == PLAYING)).scalar_one()
            if open_tables >= max_open:
                raise Full(open_tables)
            if rematch_of is not None:
                # One rematch per table: whoever links it first creates it.
                if conn.execute(update(tables).where(
                        tables.c.id == rematch_of, tables.c.rematch_id.is_(None))
                        .values(rematch_id=meta.id, seat_rev=tables.c.seat_rev + 1)
                        ).rowcount != 1:
                    conn.rollback()
                    return False
                self._notify(conn, rematch_of)
            conn.execute(insert(tables).values(
                **{k: getattr(meta, k) for k in _META_FIELDS}, result=result,
                bot_waiting_since=meta.created_at if bot_waiting else None,
                idle_bucket=idle_bucket if meta.status == PLAYING else None))
            away = meta.takeover_after if meta.status == PLAYING else None
            conn.execute(insert(seats), [
                {"table_id": meta.id, **{k: getattr(s, k) for k in _SEAT_COLUMNS},
                 "away_at": s.last_seen + away if away is not None and s.kind == HUMAN
                 else None}
                for s in seat_list])
            if opening:
                conn.execute(insert(moves), [
                    {"table_id": meta.id, "idx": m.idx, "seat": m.seat, "action": m.action,
                     "text": m.text, "by_bot": m.by_bot, "created_at": meta.created_at}
                    for m in opening])
            conn.commit()
            return True

    # -- reading --------------------------------------------------------------------------
    def read(self, table_id: str, known: Known | None, from_move: int) -> Stored | None:
        if self._pg:
            # A move heard from another worker is read here: its statements through psycopg
            # itself (the same statements, compiled once; the same Python values back).
            raw = self.engine.raw_connection()
            try:
                driver: Any = raw.driver_connection
                with driver.cursor(row_factory=_dict_row()) as cur:
                    def rows(statement: Any, params: dict[str, Any]) -> list[Any]:
                        sql_, fixed = self._pg_sql(statement)
                        cur.execute(sql_, {**fixed, **params})
                        found: list[Any] = cur.fetchall()
                        return found

                    stored = self._read(rows, table_id, known, from_move)
                driver.rollback()
                return stored
            finally:
                _give_back(raw)
        with self.engine.connect() as conn:
            return self._read(lambda statement, params: conn.execute(statement, params)
                              .mappings().all(), table_id, known, from_move)

    def _pg_sql(self, statement: Any) -> tuple[str, dict[str, Any]]:
        """``statement`` compiled for PostgreSQL (named placeholders) and the values of the
        parameters it fixes itself (a LIMIT), kept."""
        kept = self._pg_compiled.get(id(statement))
        if kept is None:
            compiled = statement.compile(dialect=self.engine.dialect)
            kept = self._pg_compiled[id(statement)] = (str(compiled), {
                k: v for k, v in compiled.params.items() if v is not None})
        return kept

    def _read(self, rows: Callable[[Any, dict[str, Any]], Sequence[Any]], table_id: str,
              known: Known | None, from_move: int) -> Stored | None:
        """:meth:`read` with ``rows(statement, params)`` running each statement."""
        found = rows(_TABLE_ROW, {"table_id": table_id})
        if not found:
            return None
        row = found[0]
        meta = Meta(**{k: row[k] for k in _META_FIELDS})
        if known is not None and (known.version, known.seat_rev, known.status) == (
                meta.version, meta.seat_rev, meta.status):
            return Stored(meta, None, (), (), unchanged=True)
        seat_list: tuple[Seat, ...] | None = None
        # A clocked table's moves change the mover's game clock, kept with the seat.
        if known is None or known.seat_rev != meta.seat_rev or (
                meta.clock is not None and known.version != meta.version):
            seat_list = tuple(Seat(**{k: r[k] for k in _SEAT_FIELDS})
                              for r in rows(_SEATS_OF, {"table_id": table_id}))
        # Events first, then moves: every event read was stored after the moves it
        # follows. Each is stored in a transaction that moves the seat revision on, so
        # a table whose seats are as known has none new (a move crossing workers reads
        # the row and its moves only).
        evs: tuple[EventRecord, ...] = ()
        if known is None or known.seat_rev != meta.seat_rev:
            after = 0 if known is None else known.last_event
            evs = tuple(
                EventRecord(e["id"], e["at_version"], e["seat"], e["kind"], e["text"])
                for e in rows(_EVENTS_AFTER, {"table_id": table_id, "after": after}))
        mvs = tuple(MoveRecord(m["idx"], m["seat"], m["action"], m["text"], m["by_bot"])
                    for m in rows(_MOVES_FROM, {"table_id": table_id,
                                                "start": from_move}))
        snap = None
        if known is None and from_move == 0:
            last = rows(_LAST_SNAPSHOT, {"table_id": table_id})
            snap = None if not last else (last[0]["idx"], last[0]["position"])
        return Stored(meta, seat_list, evs, mvs, snapshot=snap)

    def snapshot_at_most(self, table_id: str, idx: int) -> tuple[int, Any] | None:
        with self.engine.connect() as conn:
            found = conn.execute(
                select(snapshots.c.idx, snapshots.c.position)
                .where(snapshots.c.table_id == table_id, snapshots.c.idx <= idx)
                .order_by(snapshots.c.idx.desc()).limit(1)).first()
        return None if found is None else (found[0], found[1])

    def move_records(self, table_id: str) -> list[MoveRecord]:
        with self.engine.connect() as conn:
            return [MoveRecord(r.idx, r.seat, r.action, r.text, r.by_bot) for r in conn.execute(
                select(moves.c.idx, moves.c.seat, moves.c.action, moves.c.text, moves.c.by_bot)
                .where(moves.c.table_id == table_id).order_by(moves.c.idx))]

    def lobby_ids(self, limit: int) -> list[str]:
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(
                select(tables.c.id).join(seats, seats.c.table_id == tables.c.id)
                .where(tables.c.status == PLAYING, tables.c.listed.is_(True),
                       seats.c.kind == HUMAN, seats.c.claimed.is_(False))
                .group_by(tables.c.id, tables.c.created_at)
                .order_by(tables.c.created_at.desc())
                .limit(limit))]

    def open_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(select(tables.c.id).where(
                tables.c.status == PLAYING))]

    # -- moving ---------------------------------------------------------------------------
    def append_moves(self, table_id: str, guard: Guard, moves_: Sequence[MoveRecord], *,
                     status: str, result: Any, now: float, bot_waiting: bool | None = None,
                     idle_bucket: int | None = None, snapshot: Any = None,
                     clock: ClockUpdate | None = None,
                     rating: RatingUpdate | None = None) -> bool:
        new_version = guard.version + len(moves_)
        waiting = now if bot_waiting else None
        variant = (guard.bot is not None, bot_waiting is not None, idle_bucket is not None)
        try:
            # The end of a rated game takes SQLAlchemy's path on SQLite too (it reads and
            # writes ratings; rare).
            if (self._sqlite or self._pg) and rating is None:
                ends = status != PLAYING
                store = self._store_sqlite if self._sqlite else self._store_pg
                return store(
                    [(table_id, m.idx, m.seat, json.dumps(m.action), m.text, m.by_bot, now)
                     for m in moves_],
                    (*variant, ends),
                    (new_version, now, "null" if result is None else json.dumps(result),
                     *((status,) if ends else ()),
                     *((waiting,) if variant[1] else ()),
                     *((idle_bucket,) if variant[2] else ()), table_id,
                     guard.version, guard.seat_rev, guard.seat,
                     *((guard.token_hash,) * 2 if guard.bot is None else (guard.bot,) * 2)),
                    None if snapshot is None else (table_id, new_version, json.dumps(snapshot)),
                    table_id if status != PLAYING else None,
                    [] if clock is None else _sqlite_clock(table_id, clock))
            with self._write() as conn:
                conn.execute(_INSERT_MOVES, [
                    {"table_id": table_id, "idx": m.idx, "seat": m.seat, "action": m.action,
                     "text": m.text, "by_bot": m.by_bot, "created_at": now} for m in moves_])
                guarded = conn.execute(_STORE_VERSION[variant], {
                    "table_id": table_id, "old_version": guard.version,
                    "old_seat_rev": guard.seat_rev, "new_version": new_version, "now": now,
                    "new_status": status, "new_result": result, "seat": guard.seat,
                    "token_hash": guard.token_hash, "bot": guard.bot,
                    "waiting": waiting, "bucket": idle_bucket}).rowcount
                if guarded != 1:
                    conn.rollback()
                    return False
                if snapshot is not None:
                    conn.execute(insert(snapshots).values(table_id=table_id, idx=new_version,
                                                          position=snapshot))
                if status != PLAYING:  # a table that ended is due for nothing
                    conn.execute(update(seats).where(seats.c.table_id == table_id)
                                 .values(away_at=None))
                    conn.execute(update(tables).where(tables.c.id == table_id)
                                 .values(idle_bucket=None, bot_waiting_since=None))
                if clock is not None:
                    self._set_clock(conn, table_id, clock)
                if rating is not None:
                    self._rate(conn, rating, now)
                self._notify(conn, table_id)
                conn.commit()
                return True
        except (IntegrityError, sqlite3.IntegrityError):
            raise TurnTaken(table_id) from None

    def _store_sqlite(self, move_rows: list[tuple[Any, ...]],
                      variant: tuple[bool, bool, bool, bool],
                      version: tuple[Any, ...], snapshot: tuple[Any, ...] | None,
                      ended: str | None, clock: list[tuple[str, tuple[Any, ...]]]) -> bool:
        """:meth:`append_moves`'s transaction on SQLite, through its own driver: the move
        rows (``_SQLITE_INSERT_MOVE``; sqlite3.IntegrityError when the turn is taken) and
        the guarded new version (``_SQLITE_STORE_VERSION``), committed only if the guard
        held. JSON is written as SQLAlchemy's JSON type writes it (``json.dumps``; None is
        ``null``), so either path reads what the other wrote."""
        group = self._group
        if group is not None and group.thread == threading.get_ident():
            return self._store_in_group(group, move_rows, variant, version, snapshot, ended,
                                        clock)
        with self._sqlite_writer:
            cur = self._mover_cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                guarded = self._store_statements(cur, move_rows, variant, version, snapshot,
                                                 ended, clock)
                cur.execute("COMMIT" if guarded else "ROLLBACK")
            except BaseException:
                if cur.connection.in_transaction:
                    cur.execute("ROLLBACK")
                raise
            return guarded

    def _store_pg(self, move_rows: list[tuple[Any, ...]],
                  variant: tuple[bool, bool, bool, bool],
                  version: tuple[Any, ...], snapshot: tuple[Any, ...] | None,
                  ended: str | None, clock: list[tuple[str, tuple[Any, ...]]]) -> bool:
        """:meth:`_store_sqlite` on PostgreSQL: the same statements through psycopg on a
        connection of the engine's pool, then the NOTIFY, committed only if the guard held
        (the transaction psycopg opens at the first statement); a unique violation (the
        turn taken by another worker) raises ``IntegrityError`` as SQLAlchemy's would."""
        import psycopg

        table_id = move_rows[0][0]
        raw = self.engine.raw_connection()
        try:
            driver: psycopg.Connection[Any] = raw.driver_connection  # type: ignore[assignment]
            try:
                with driver.cursor() as cur:
                    if not self._store_statements(cur, move_rows, variant, version,
                                                  snapshot, ended, clock, _PG_MOVE):
                        driver.rollback()
                        return False
                    # Delivered at commit; the payload carries the row as committed.
                    notify, _ = self._pg_sql(_NOTIFY)
                    cur.execute(notify, {"c": NOTIFY_CHANNEL, "p": table_id})
                driver.commit()
                return True
            except psycopg.IntegrityError as e:
                driver.rollback()
                raise IntegrityError(None, None, e) from e
            except BaseException:
                with contextlib.suppress(Exception):  # the error that came is the one to tell
                    driver.rollback()
                raise
        finally:
            _give_back(raw)

    def _mover_cursor(self) -> sqlite3.Cursor:
        """A cursor of the move path's connection (under ``_sqlite_writer``): one connection
        kept for this path, since the pool's checkout and return (its events, the reset on
        return) cost a move about as much as SQLite's BEGIN and the two statements."""
        if self._mover is None:
            self._mover = self.engine.raw_connection()
        driver: sqlite3.Connection = self._mover.driver_connection
        return driver.cursor()

    @staticmethod
    def _store_statements(cur: Any, move_rows: list[tuple[Any, ...]],
                          variant: tuple[bool, bool, bool, bool], version: tuple[Any, ...],
                          snapshot: tuple[Any, ...] | None, ended: str | None,
                          clock: list[tuple[str, tuple[Any, ...]]],
                          sql: _MoveStatements = _SQLITE_MOVE) -> bool:
        """The statements of a move, in a transaction the caller opened, through the
        database's own driver (``cur``: a cursor of ``sqlite3`` or psycopg); whether the
        guard held (if not, the caller undoes the rows)."""
        # One row or a few, each its own statement: psycopg's executemany enters pipeline
        # mode, more round trips than it saves here.
        for row in move_rows:
            cur.execute(sql.insert_move, row)
        cur.execute(sql.store_version[variant], version)
        if cur.rowcount != 1:
            return False
        if snapshot is not None:
            cur.execute(sql.insert_snapshot, snapshot)
        if ended is not None:
            for statement in sql.game_over:
                cur.execute(statement, (ended,))
        for statement, params in clock:
            cur.execute(sql.placeholders(statement), params)
        return True

    def _store_in_group(self, group: Group, move_rows: list[tuple[Any, ...]],
                        variant: tuple[bool, bool, bool, bool], version: tuple[Any, ...],
                        snapshot: tuple[Any, ...] | None, ended: str | None,
                        clock: list[tuple[str, tuple[Any, ...]]]) -> bool:
        """:meth:`_store_sqlite` inside the group's transaction (begun by its first move,
        which takes ``_sqlite_writer`` until the commit): the move in a savepoint, released
        if its guard held, else rolled back to (as is a move whose rows were refused)."""
        if not group.open:
            self._sqlite_writer.acquire()
            try:
                cur = self._mover_cursor()
                cur.execute("BEGIN IMMEDIATE")
            except BaseException:
                self._sqlite_writer.release()
                raise
            group.open = True
        else:
            cur = self._mover_cursor()
        cur.execute("SAVEPOINT move")
        try:
            guarded = self._store_statements(cur, move_rows, variant, version, snapshot,
                                             ended, clock)
        except BaseException:
            cur.execute("ROLLBACK TO move")
            cur.execute("RELEASE move")
            raise
        if not guarded:
            cur.execute("ROLLBACK TO move")
        cur.execute("RELEASE move")
        return guarded

    # -- seats ----------------------------------------------------------------------------
    def claim(self, table_id: str, seat: int, token_hash: str, now: float) -> bool | None:
        with self._write() as conn:
            row = conn.execute(select(seats.c.claimed, seats.c.here).where(
                seats.c.table_id == table_id, seats.c.seat == seat,
                _opens_seat(token_hash))).first()
            if row is None:
                return None
            conn.execute(update(seats).where(seats.c.table_id == table_id,
                                             seats.c.seat == seat)
                         .values(last_seen=now, claimed=True, here=True, away_at=_AWAY_AT),
                         {"at": now})
            # A person marked away who comes back is shown here again on every worker (a
            # seat change, like their first arrival); a sighting of one here changes none.
            changed = not (row[0] and row[1])
            if changed:
                self._seats_changed(conn, table_id, arrived=now)
            conn.commit()
            return changed

    def mark_present(self, present: Mapping[tuple[str, int], float]) -> None:
        with self._write() as conn:
            conn.execute(update(seats).where(
                seats.c.table_id == bindparam("t"), seats.c.seat == bindparam("s"),
                seats.c.last_seen < bindparam("at"), seats.c.bot_playing.is_(None))
                .values(last_seen=bindparam("at"), away_at=_AWAY_AT),
                [{"t": t, "s": p, "at": at} for (t, p), at in present.items()])
            conn.commit()

    def set_seat_token(self, table_id: str, seat: int, token_hash: str, *,
                       opened_by: tuple[str, int, str] | None = None,
                       invite: bool = False) -> bool:
        with self._write() as conn:
            if opened_by is not None:
                _check_opens(conn, *opened_by)
            done = conn.execute(update(seats).where(
                seats.c.table_id == table_id, seats.c.seat == seat, seats.c.kind == HUMAN,
                seats.c.token_hash.is_(None) | (seats.c.token_hash == token_hash))
                .values(token_hash=token_hash, invited=invite)).rowcount
            if done == 1:
                self._seats_changed(conn, table_id)
            conn.commit()
            return done == 1

    def take_free_seat(self, table_id: str, seat: int, token_hash: str, now: float,
                       player_id: str | None = None) -> bool:
        with self._write() as conn:
            cond = [seats.c.table_id == table_id, seats.c.seat == seat, seats.c.kind == HUMAN,
                    seats.c.claimed.is_(False)]
            if player_id is not None:  # one seat per identity and table
                other = aliased(seats)
                cond.append(~exists().where(other.c.table_id == table_id,
                                            other.c.player_id == player_id))
            done = conn.execute(update(seats).where(*cond).values(
                token_hash=token_hash, claimed=True, last_seen=now, away_at=_AWAY_AT,
                # Whoever took it from the lobby is not the person invited there; the
                # token is theirs alone (new_token), no invite.
                player_id=player_id, invite=None, invited=False), {"at": now}).rowcount
            return self._arrived(conn, done, table_id, now, player_id)

    def set_seat_player(self, table_id: str, seat: int, token_hash: str, player_id: str,
                        now: float, *, new_token_hash: str | None = None) -> bool:
        with self._write() as conn:
            other = aliased(seats)
            cond = [seats.c.table_id == table_id, seats.c.seat == seat, seats.c.kind == HUMAN,
                    seats.c.token_hash == token_hash, seats.c.player_id.is_(None),
                    ~exists().where(other.c.table_id == table_id,
                                    other.c.player_id == player_id)]
            values: dict[str, Any] = {"player_id": player_id, "claimed": True,
                                      "last_seen": now, "away_at": _AWAY_AT}
            if new_token_hash is not None:  # the invite ends here
                cond.append(seats.c.invited.is_(True))
                values.update(token_hash=new_token_hash, invited=False)
            done = conn.execute(update(seats).where(*cond).values(**values),
                                {"at": now}).rowcount
            return self._arrived(conn, done, table_id, now, player_id)

    def exchange_invite(self, table_id: str, seat: int, invite_hash: str, token_hash: str,
                        now: float) -> bool:
        with self._write() as conn:
            # One guarded statement: of two racing exchanges of one invite, the second finds
            # the token changed and changes nothing.
            done = conn.execute(update(seats).where(
                seats.c.table_id == table_id, seats.c.seat == seat, seats.c.kind == HUMAN,
                seats.c.token_hash == invite_hash, seats.c.invited.is_(True))
                .values(token_hash=token_hash, invited=False, claimed=True, here=True,
                        last_seen=now, away_at=_AWAY_AT), {"at": now}).rowcount
            return self._arrived(conn, done, table_id, now)

    def start_table(self, table_id: str, bots: Mapping[int, str],
                    opening: Sequence[MoveRecord], *, bot_waiting: bool, now: float,
                    idle_bucket: int, clock: ClockUpdate | None = None,
                    host: tuple[int, str] | None = None) -> bool:
        with self._write() as conn:
            if host is not None:
                _check_opens(conn, table_id, *host)
            for k, level in bots.items():  # one by one: every driver counts each row
                if conn.execute(update(seats).where(
                        seats.c.table_id == table_id, seats.c.seat == k,
                        seats.c.kind == HUMAN, seats.c.claimed.is_(False))
                        .values(kind=BOT, level=level, token_hash=None, claimed=True,
                                invite=None, invited=False, away_at=None)).rowcount != 1:
                    conn.rollback()
                    return False
            empty = conn.execute(select(func.count()).select_from(seats).where(
                seats.c.table_id == table_id, seats.c.kind == HUMAN,
                seats.c.claimed.is_(False))).scalar_one()
            if empty or conn.execute(update(tables).where(
                    tables.c.id == table_id, tables.c.started.is_(False),
                    tables.c.status == PLAYING, tables.c.version == 0)
                    .values(started=True, version=len(opening), seat_rev=tables.c.seat_rev + 1,
                            updated_at=now, idle_bucket=idle_bucket,
                            bot_waiting_since=now if bot_waiting else None)).rowcount != 1:
                conn.rollback()
                return False
            # The people's seats count as seen now: nobody is taken over for the wait.
            conn.execute(update(seats).where(seats.c.table_id == table_id,
                                             seats.c.kind == HUMAN)
                         .values(last_seen=now, away_at=_AWAY_AT), {"at": now})
            if opening:
                conn.execute(insert(moves), [
                    {"table_id": table_id, "idx": m.idx, "seat": m.seat, "action": m.action,
                     "text": m.text, "by_bot": m.by_bot, "created_at": now} for m in opening])
            if clock is not None:
                self._set_clock(conn, table_id, clock)
            self._notify(conn, table_id)
            conn.commit()
            return True

    def set_listed(self, table_id: str, seat: int, secret_hash: str, listed: bool) -> bool:
        with self._write() as conn:
            cond = [tables.c.id == table_id, tables.c.status == PLAYING,
                    tables.c.host_seat == seat,
                    exists().where(seats.c.table_id == table_id, seats.c.seat == seat,
                                   seats.c.kind == HUMAN, _opens_seat(secret_hash))]
            if listed:  # the fairness rule: a chosen seed only where nobody else sits
                cond.append(tables.c.seed_chosen.is_(False))
            done = conn.execute(update(tables).where(*cond).values(listed=listed)).rowcount
            if done == 1:
                self._seats_changed(conn, table_id)
            conn.commit()
            return done == 1

    def set_undo(self, table_id: str, version: int, seat_rev: int,
                 undo: dict[str, Any] | None) -> bool:
        with self._write() as conn:
            done = conn.execute(update(tables).where(
                tables.c.id == table_id, tables.c.version == version,
                tables.c.seat_rev == seat_rev, tables.c.status == PLAYING)
                .values(undo=undo, seat_rev=tables.c.seat_rev + 1)).rowcount
            if done:
                self._notify(conn, table_id)
            conn.commit()
            return done == 1

    def take_back(self, table_id: str, version: int, seat_rev: int, to: int, *, seat: int,
                  text: str, now: float, bot_waiting: bool,
                  clock: ClockUpdate | None = None) -> bool:
        with self._write() as conn:
            if conn.execute(update(tables).where(
                    tables.c.id == table_id, tables.c.version == version,
                    tables.c.seat_rev == seat_rev, tables.c.status == PLAYING)
                    .values(version=to, undo=None, undos=tables.c.undos + 1,
                            seat_rev=tables.c.seat_rev + 1, updated_at=now,
                            bot_waiting_since=now if bot_waiting else None)).rowcount != 1:
                conn.rollback()
                return False
            conn.execute(delete(moves).where(moves.c.table_id == table_id, moves.c.idx >= to))
            conn.execute(delete(snapshots).where(snapshots.c.table_id == table_id,
                                                 snapshots.c.idx > to))
            conn.execute(insert(events).values(table_id=table_id, at_version=to, seat=seat,
                                               kind="undo", text=text, created_at=now))
            if clock is not None:
                self._set_clock(conn, table_id, clock)
            self._notify(conn, table_id)
            conn.commit()
            return True

    def set_here(self, table_id: str, seat: int, now: float) -> bool:
        with self._write() as conn:
            done = conn.execute(update(seats).where(
                seats.c.table_id == table_id, seats.c.seat == seat, seats.c.kind == HUMAN,
                seats.c.here.is_(False)).values(here=True, last_seen=now, away_at=_AWAY_AT),
                {"at": now}).rowcount
            if done:
                self._seats_changed(conn, table_id)
            conn.commit()
            return done == 1

    def mark_gone(self, seen_before: float, limit: int) -> list[str]:
        # Through the index on (here, last_seen): only the seats that went quiet are read.
        with self.engine.connect() as conn:
            rows = conn.execute(select(seats.c.table_id, seats.c.seat).where(
                seats.c.here.is_(True), seats.c.last_seen < seen_before)
                .order_by(seats.c.last_seen).limit(limit)).all()
        changed: list[str] = []
        for table_id, seat in rows:
            with self._write() as conn:
                if conn.execute(update(seats).where(
                        seats.c.table_id == table_id, seats.c.seat == seat,
                        seats.c.here.is_(True), seats.c.last_seen < seen_before)
                        .values(here=False)).rowcount:
                    self._seats_changed(conn, table_id)
                    if table_id not in changed:
                        changed.append(table_id)
                conn.commit()
        return changed

    def set_bot_playing(self, table_id: str, seat: int, bot_playing: str | None, *,
                        only_if: str | None, kind: str, text: str, now: float,
                        secret_hash: str | None = None) -> bool:
        with self._write() as conn:
            if secret_hash is not None:
                _check_opens(conn, table_id, seat, secret_hash)
            cond = [seats.c.table_id == table_id, seats.c.seat == seat, seats.c.kind == HUMAN]
            if only_if == "absent":
                cond.append(seats.c.bot_playing.is_(None))
            elif only_if == "taken":
                cond.append(seats.c.bot_playing.is_not(None))
            values: dict[str, Any] = {"bot_playing": bot_playing, "away_at": None}
            if bot_playing is None:
                values.update(last_seen=now, away_at=_AWAY_AT)
            if conn.execute(update(seats).where(*cond).values(**values),
                            {"at": now}).rowcount != 1:
                return False
            # Updating the table row first orders this event after every committed move.
            # Who plays a seat changed: the next sweep looks whether a bot is to move.
            version = conn.execute(update(tables).where(tables.c.id == table_id)
                                   .values(seat_rev=tables.c.seat_rev + 1,
                                           bot_waiting_since=now)
                                   .returning(tables.c.version)).scalar_one()
            conn.execute(insert(events).values(table_id=table_id, at_version=version,
                                               seat=seat, kind=kind, text=text,
                                               created_at=now))
            self._notify(conn, table_id)
            conn.commit()
            return True

    # -- clocks ---------------------------------------------------------------------------
    @staticmethod
    def _set_clock(conn: Connection, table_id: str, clock: ClockUpdate) -> None:
        conn.execute(update(tables).where(tables.c.id == table_id).values(
            turn_started=clock.turn_started, clock_deadline=clock.deadline))
        if clock.seat is not None:
            conn.execute(update(seats).where(seats.c.table_id == table_id,
                                             seats.c.seat == clock.seat)
                         .values(clock_left=clock.left))

    def set_clock(self, table_id: str, version: int, seat_rev: int,
                  clock: ClockUpdate) -> bool:
        with self._write() as conn:
            if conn.execute(update(tables).where(
                    tables.c.id == table_id, tables.c.version == version,
                    tables.c.seat_rev == seat_rev, tables.c.status == PLAYING)
                    .values(seat_rev=tables.c.seat_rev + 1)).rowcount != 1:
                conn.rollback()
                return False
            self._set_clock(conn, table_id, clock)
            self._notify(conn, table_id)
            conn.commit()
            return True

    def time_out(self, table_id: str, version: int, seat_rev: int, seat: int, *, now: float,
                 text: str, level: str | None, result: Any,
                 rating: RatingUpdate | None) -> bool:
        with self._write() as conn:
            if level is None:  # the game ends here
                if not self._end_early(conn, table_id, version, seat_rev, seat, now=now,
                                       kind="timeout", text=text, status=FINISHED,
                                       result=result, rating=rating,
                                       due=tables.c.clock_deadline <= now):
                    return False
                conn.execute(update(seats).where(seats.c.table_id == table_id,
                                                 seats.c.seat == seat)
                             .values(clock_left=_SPENT))
                conn.commit()
                return True
            if conn.execute(update(tables).where(
                    tables.c.id == table_id, tables.c.version == version,
                    tables.c.seat_rev == seat_rev, tables.c.status == PLAYING,
                    tables.c.clock_deadline <= now).values(
                        seat_rev=tables.c.seat_rev + 1, turn_started=None,
                        clock_deadline=None, bot_waiting_since=now)).rowcount != 1:
                conn.rollback()
                return False
            # The bot is to move now; the seat's game clock is spent.
            conn.execute(update(seats).where(seats.c.table_id == table_id,
                                             seats.c.seat == seat)
                         .values(clock_left=_SPENT, away_at=None, bot_playing=level))
            conn.execute(insert(events).values(table_id=table_id, at_version=version,
                                               seat=seat, kind="timeout", text=text,
                                               created_at=now))
            self._notify(conn, table_id)
            conn.commit()
            return True

    def resign(self, table_id: str, version: int, seat_rev: int, seat: int, *, now: float,
               text: str, result: Any, rating: RatingUpdate | None) -> bool:
        with self._write() as conn:
            if not self._end_early(conn, table_id, version, seat_rev, seat, now=now,
                                   kind="resign", text=text,
                                   status=EXPIRED if result is None else FINISHED,
                                   result=result, rating=rating, due=None):
                return False
            conn.commit()
            return True

    def _end_early(self, conn: Connection, table_id: str, version: int, seat_rev: int,
                   seat: int, *, now: float, kind: str, text: str, status: str,
                   result: Any, rating: RatingUpdate | None, due: Any) -> bool:
        """End the open table before its game did (a seat lost on time, or resigned), in
        the caller's transaction, if its row still has this version and seat revision (and
        ``due`` holds, where given): ``status`` with ``result``, the clock and any take-back
        asked for cleared, nobody away, a public event. The caller commits (False: rolled
        back, nothing changed)."""
        cond = [tables.c.id == table_id, tables.c.version == version,
                tables.c.seat_rev == seat_rev, tables.c.status == PLAYING]
        if due is not None:
            cond.append(due)
        if conn.execute(update(tables).where(*cond).values(
                seat_rev=tables.c.seat_rev + 1, turn_started=None, clock_deadline=None,
                status=status, result=result, undo=None, updated_at=now, idle_bucket=None,
                bot_waiting_since=None)).rowcount != 1:
            conn.rollback()
            return False
        conn.execute(update(seats).where(seats.c.table_id == table_id).values(away_at=None))
        conn.execute(insert(events).values(table_id=table_id, at_version=version, seat=seat,
                                           kind=kind, text=text, created_at=now))
        if rating is not None:
            self._rate(conn, rating, now)
        self._notify(conn, table_id)
        return True

    def clocks_due(self, now: float, limit: int) -> list[str]:
        # Through the index on clock_deadline: only tables that are due are read.
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(
                select(tables.c.id).where(tables.c.clock_deadline < now,
                                          tables.c.status == PLAYING)
                .order_by(tables.c.clock_deadline).limit(limit))]

    # -- ratings --------------------------------------------------------------------------
    def _rate(self, conn: Connection, update_: RatingUpdate, now: float) -> None:
        """Change the ratings of a rated game's people, inside the caller's transaction:
        each one's row is locked (PostgreSQL) or the database is (SQLite: the transaction
        holds its write lock), so two games ending at once both count."""
        ids = sorted(set(update_.players))
        if not ids:
            return
        from bigtop.server.ratings import MU, SIGMA

        new_rows = [{"player_id": p, "game": update_.game, "mu": MU, "sigma": SIGMA,
                     "ordinal": ordinal(MU, SIGMA), "games": 0, "updated_at": now}
                    for p in ids]
        if self._pg:
            from sqlalchemy.dialects.postgresql import insert as pg_insert

            conn.execute(pg_insert(ratings).values(new_rows).on_conflict_do_nothing())
        else:
            from sqlalchemy.dialects.sqlite import insert as sqlite_insert

            conn.execute(sqlite_insert(ratings).values(new_rows).on_conflict_do_nothing())
        query = select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma).where(
            ratings.c.game == update_.game, ratings.c.player_id.in_(ids))
        if self._pg:
            query = query.order_by(ratings.c.player_id).with_for_update()
        current = {r.player_id: (r.mu, r.sigma) for r in conn.execute(query)}
        for player_id, (mu, sigma) in update_.rate(current).items():
            conn.execute(update(ratings).where(ratings.c.player_id == player_id,
                                               ratings.c.game == update_.game)
                         .values(mu=mu, sigma=sigma, ordinal=ordinal(mu, sigma),
                                 games=ratings.c.games + 1, updated_at=now))

    def leaderboard(self, game: str, limit: int) -> list[RatingRow]:
        with self.engine.connect() as conn:
            return [RatingRow(r.player_id, r.name, game, r.mu, r.sigma, r.games)
                    for r in conn.execute(
                        select(ratings.c.player_id, players.c.name, ratings.c.mu,
                               ratings.c.sigma, ratings.c.games)
                        .join(players, players.c.id == ratings.c.player_id)
                        .where(ratings.c.game == game)
                        .order_by(ratings.c.ordinal.desc(), ratings.c.player_id)
                        .limit(limit))]

    def player_ratings(self, player_id: str) -> list[RatingRow]:
        with self.engine.connect() as conn:
            return [RatingRow(player_id, r.name, r.game, r.mu, r.sigma, r.games)
                    for r in conn.execute(
                        select(players.c.name, ratings.c.game, ratings.c.mu,
                               ratings.c.sigma, ratings.c.games)
                        .join(players, players.c.id == ratings.c.player_id)
                        .where(ratings.c.player_id == player_id)
                        .order_by(ratings.c.game))]

    # -- chat -------------------------------------------------------------------------------
    def add_chat(self, table_id: str, seat: int, text_: str, now: float,
                 max_count: int, secret_hash: str | None = None) -> ChatRecord | None:
        with self._write() as conn:
            if secret_hash is not None:
                _check_opens(conn, table_id, seat, secret_hash)
            count = conn.execute(select(func.count()).select_from(chat).where(
                chat.c.table_id == table_id)).scalar_one()
            if count >= max_count:
                return None
            new_id = conn.execute(insert(chat).values(
                table_id=table_id, seat=seat, text=text_, created_at=now)
                .returning(chat.c.id)).scalar_one()
            if self._pg:
                conn.execute(text("SELECT pg_notify(:c, :p)"),
                             {"c": NOTIFY_CHANNEL, "p": CHAT_NOTE + table_id})
            conn.commit()
        return ChatRecord(new_id, seat, text_, now)

    def last_chat_id(self, table_id: str) -> int:
        with self.engine.connect() as conn:
            last = conn.execute(select(func.max(chat.c.id)).where(
                chat.c.table_id == table_id)).scalar_one()
        return 0 if last is None else int(last)

    def chat_after(self, table_id: str, after: int, limit: int) -> list[ChatRecord]:
        with self.engine.connect() as conn:
            return [ChatRecord(r.id, r.seat, r.text, r.created_at) for r in conn.execute(
                select(chat.c.id, chat.c.seat, chat.c.text, chat.c.created_at)
                .where(chat.c.table_id == table_id, chat.c.id > after)
                .order_by(chat.c.id).limit(limit))]

    # -- players --------------------------------------------------------------------------
    def create_player(self, player: Player, key_hash: str) -> None:
        with self._write() as conn:
            conn.execute(insert(players).values(id=player.id, name=player.name,
                                                key_hash=key_hash,
                                                created_at=player.created_at))
            conn.commit()

    def player_by_key(self, key_hash: str) -> Player | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(players.c.id, players.c.name, players.c.created_at)
                               .where(players.c.key_hash == key_hash)).first()
        return None if row is None else Player(row.id, row.name, row.created_at)

    # -- the host's tools ---------------------------------------------------------------------
    def find_players(self, name: str | None, limit: int) -> list[dict[str, Any]]:
        open_seats = (select(func.count()).select_from(seats.join(tables))
                      .where(seats.c.player_id == players.c.id,
                             tables.c.status == PLAYING).scalar_subquery())
        query = (select(players.c.id, players.c.name, players.c.created_at,
                        blocked_players.c.note, open_seats.label("open_seats"))
                 .select_from(players.outerjoin(blocked_players))
                 .order_by(players.c.created_at.desc(), players.c.id).limit(limit))
        if name:
            query = query.where(func.lower(players.c.name).contains(name.lower(),
                                                                    autoescape=True))
        with self.engine.connect() as conn:
            return [{"id": r.id, "name": r.name, "created_at": r.created_at,
                     "blocked": r.note, "tables": r.open_seats}
                    for r in conn.execute(query)]

    def player_name(self, player_id: str) -> str | None:
        with self.engine.connect() as conn:
            name: str | None = conn.execute(select(players.c.name).where(
                players.c.id == player_id)).scalar()
        return name

    def chat_lines(self, table_id: str | None, player_id: str | None,
                   limit: int) -> list[dict[str, Any]]:
        query = (select(chat.c.id, chat.c.table_id, chat.c.seat, chat.c.text,
                        chat.c.created_at, seats.c.player_id, players.c.name)
                 .select_from(chat.outerjoin(seats, (seats.c.table_id == chat.c.table_id)
                                             & (seats.c.seat == chat.c.seat))
                              .outerjoin(players, players.c.id == seats.c.player_id))
                 .order_by(chat.c.id.desc()).limit(limit))
        if table_id is not None:
            query = query.where(chat.c.table_id == table_id)
        if player_id is not None:
            query = query.where(seats.c.player_id == player_id)
        with self.engine.connect() as conn:
            return [{"id": r.id, "table": r.table_id, "seat": r.seat, "player": r.player_id,
                     "name": r.name, "text": r.text, "created_at": r.created_at}
                    for r in conn.execute(query)]

    def remove_chat(self, ids: Sequence[int], player_id: str | None) -> int:
        with self._write() as conn:
            done = 0
            if ids:
                done += conn.execute(delete(chat).where(chat.c.id.in_(list(ids)))).rowcount
            if player_id is not None:
                theirs = select(seats.c.table_id).where(
                    seats.c.table_id == chat.c.table_id, seats.c.seat == chat.c.seat,
                    seats.c.player_id == player_id)
                done += conn.execute(delete(chat).where(theirs.exists())).rowcount
            conn.commit()
            return done

    def block_player(self, player_id: str, note: str, now: float) -> bool:
        with self._write() as conn:
            row = conn.execute(select(players.c.key_hash).where(
                players.c.id == player_id)).first()
            if row is None or row.key_hash.startswith("!"):
                conn.rollback()
                return False
            conn.execute(insert(blocked_players).values(
                player_id=player_id, key_hash=row.key_hash, note=note, blocked_at=now))
            # A hash no key has (hex digits only): the key opens no seat, makes nothing.
            conn.execute(update(players).where(players.c.id == player_id)
                         .values(key_hash="!" + player_id))
            self._player_seats_changed(conn, player_id)
            conn.commit()
            return True

    def unblock_player(self, player_id: str) -> bool:
        with self._write() as conn:
            row = conn.execute(select(blocked_players.c.key_hash).where(
                blocked_players.c.player_id == player_id)).first()
            if row is None:
                conn.rollback()
                return False
            conn.execute(delete(blocked_players).where(
                blocked_players.c.player_id == player_id))
            conn.execute(update(players).where(players.c.id == player_id)
                         .values(key_hash=row.key_hash))
            self._player_seats_changed(conn, player_id)
            conn.commit()
            return True

    def _player_seats_changed(self, conn: Connection, player_id: str) -> None:
        """Every open table where the identity sits is read afresh by every worker (its
        seat revision moves on: a table a worker keeps in memory holds the key's hash)."""
        where = [tables.c.status == PLAYING, tables.c.id.in_(
            select(seats.c.table_id).where(seats.c.player_id == player_id))]
        ids = [r[0] for r in conn.execute(select(tables.c.id).where(*where))]
        if ids:
            conn.execute(update(tables).where(tables.c.id.in_(ids))
                         .values(seat_rev=tables.c.seat_rev + 1))
            for table_id in ids:
                self._notify(conn, table_id)

    def blocked_note(self, key_hash: str) -> str | None:
        with self.engine.connect() as conn:
            note: str | None = conn.execute(select(blocked_players.c.note).where(
                blocked_players.c.key_hash == key_hash)).scalar()
        return note

    def close_table(self, table_id: str, now: float, text: str) -> bool:
        with self._write() as conn:
            row = conn.execute(select(tables.c.version, tables.c.seat_rev).where(
                tables.c.id == table_id, tables.c.status == PLAYING)).first()
            if row is None or not self._end_early(
                    conn, table_id, row.version, row.seat_rev, -1, now=now, kind="closed",
                    text=text, status=EXPIRED, result=None, rating=None, due=None):
                conn.rollback()
                return False
            conn.commit()
            return True

    def rename_player(self, player_id: str, name: str) -> list[str]:
        with self._write() as conn:
            conn.execute(update(players).where(players.c.id == player_id).values(name=name))
            # The open tables where the identity sits show the new name: their seats changed.
            changed = [r[0] for r in conn.execute(
                update(tables).where(tables.c.status == PLAYING, tables.c.id.in_(
                    select(seats.c.table_id).where(seats.c.player_id == player_id)))
                .values(seat_rev=tables.c.seat_rev + 1).returning(tables.c.id))]
            for table_id in changed:
                self._notify(conn, table_id)
            conn.commit()
        return changed

    def player_seats(self, player_id: str, limit: int) -> list[tuple[str, int]]:
        with self.engine.connect() as conn:
            return [(r[0], r[1]) for r in conn.execute(
                select(seats.c.table_id, seats.c.seat)
                .join(tables, tables.c.id == seats.c.table_id)
                .where(seats.c.player_id == player_id)
                .order_by(tables.c.updated_at.desc(), tables.c.id).limit(limit))]

    # -- shared rate limits ---------------------------------------------------------------
    def take_token(self, bucket: str, now: float, rate: float, burst: int) -> float:
        step = 1.0 / rate
        latest = now + (burst - 1) * step
        with self._write() as conn:
            if self._pg:
                # A bucket is not worth a disk flush: its commit does not wait for one (a
                # crash may forget the last few tokens taken; every other commit still
                # waits). The flush was most of its time: 2.7 ms a take, 0.7 ms without
                # (bench/bench_limits.py).
                conn.execute(_NO_FLUSH)
            taken = conn.execute(_TAKE_TOKEN[self.dialect], {
                "bucket": bucket, "now": now, "step": step, "latest": latest}).first()
            ahead = None if taken is not None else conn.execute(
                _BUCKET_AHEAD, {"bucket": bucket}).scalar()
            conn.commit()
        if taken is not None:
            return 0.0
        # Refused: the next token is there when the bucket is no more than ``latest``
        # ahead. (A bucket deleted meanwhile was full: try again at once.)
        return max(float(ahead) - latest, 1e-3) if ahead is not None else 1e-3

    def forget_full_buckets(self, now: float, limit: int) -> int:
        # Through the index on full_at: only full buckets are read, and written only if
        # there are any (checked again as they are deleted: a take may have come between).
        b = rate_buckets.c
        with self.engine.connect() as conn:
            full = [r[0] for r in conn.execute(select(b.bucket).where(b.full_at < now)
                                               .order_by(b.full_at).limit(limit))]
        if not full:
            return 0
        with self._write() as conn:
            n: int = conn.execute(delete(rate_buckets).where(
                b.bucket.in_(full), b.full_at < now)).rowcount
            conn.commit()
        return n

    # -- periodic -------------------------------------------------------------------------
    def expire_idle(self, before: float, bucket_seconds: float, limit: int) -> list[str]:
        # Through the index on (status, idle_bucket): only tables idle since an older bucket
        # than ``before``'s are read; one whose bucket is stale (set before migration 0005)
        # gets its own and is not read again.
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables.c.id, tables.c.updated_at).where(
                tables.c.idle_bucket < int(before // bucket_seconds),
                tables.c.status == PLAYING)
                .order_by(tables.c.idle_bucket).limit(limit)).all()
        stale = [(t, u) for t, u in rows if u >= before]
        if stale:
            with self._write() as conn:
                conn.execute(update(tables).where(tables.c.id == bindparam("t"))
                             .values(idle_bucket=bindparam("b")),
                             [{"t": t, "b": int(u // bucket_seconds)} for t, u in stale])
                conn.commit()
        return self._expire([t for t, u in rows if u < before], tables.c.updated_at < before)

    def expire_unjoined(self, created_before: float, limit: int) -> list[str]:
        unjoined = (select(seats.c.table_id).where(
            seats.c.table_id == tables.c.id, seats.c.kind == HUMAN,
            seats.c.claimed.is_(False)).exists())
        with self.engine.connect() as conn:
            ids = [r[0] for r in conn.execute(select(tables.c.id).where(
                tables.c.status == PLAYING, tables.c.created_at < created_before, unjoined)
                .order_by(tables.c.created_at).limit(limit))]
        return self._expire(ids, tables.c.created_at < created_before, unjoined)

    def delete_ended(self, before: float, limit: int) -> list[str]:
        # Through the (status, updated_at) index: only tables that are due are read.
        with self.engine.connect() as conn:
            ids = [r[0] for r in conn.execute(select(tables.c.id).where(
                tables.c.status.in_((FINISHED, EXPIRED)), tables.c.updated_at < before)
                .order_by(tables.c.updated_at).limit(limit))]
        if ids:
            with self._write() as conn:
                for child in (moves, seats, events, snapshots, chat):
                    conn.execute(delete(child).where(child.c.table_id.in_(ids)))
                conn.execute(delete(tables).where(tables.c.id.in_(ids)))
                conn.commit()
        return ids

    def _expire(self, table_ids: Sequence[str], *still: Any) -> list[str]:
        """Expire each open table of ``table_ids`` whose row still meets ``still`` (one
        short transaction each, so the database thread is never held long)."""
        changed = []
        for table_id in table_ids:
            with self._write() as conn:
                n = conn.execute(update(tables).where(
                    tables.c.id == table_id, tables.c.status == PLAYING, *still)
                    .values(status=EXPIRED, seat_rev=tables.c.seat_rev + 1,
                            bot_waiting_since=None, idle_bucket=None)).rowcount
                if n:
                    conn.execute(update(seats).where(seats.c.table_id == table_id)
                                 .values(away_at=None))
                    self._notify(conn, table_id)
                conn.commit()
            if n:
                changed.append(table_id)
        return changed

    def absent_seats(self, now: float, limit: int) -> list[tuple[str, str, int]]:
        # Through the index on away_at: only seats that are due are read.
        with self.engine.connect() as conn:
            return [(r[0], r[1], r[2]) for r in conn.execute(
                select(tables.c.id, tables.c.takeover_level, seats.c.seat)
                .join(seats, seats.c.table_id == tables.c.id)
                .where(seats.c.away_at < now, seats.c.bot_playing.is_(None),
                       seats.c.kind == HUMAN, tables.c.status == PLAYING,
                       tables.c.started.is_(True))
                .order_by(seats.c.away_at).limit(limit))]

    def bots_waiting(self, before: float, limit: int) -> list[str]:
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(
                select(tables.c.id).where(tables.c.bot_waiting_since < before)
                .order_by(tables.c.bot_waiting_since).limit(limit))]

    def not_waiting(self, table_id: str, version: int, seat_rev: int) -> None:
        with self._write() as conn:
            conn.execute(update(tables).where(
                tables.c.id == table_id, tables.c.version == version,
                tables.c.seat_rev == seat_rev).values(bot_waiting_since=None))
            conn.commit()

    # -- other workers --------------------------------------------------------------------
    def listen(self, stop: threading.Event, heard: Callable[[str], None]) -> None:
        if not self._pg:
            return
        import logging

        import psycopg

        log = logging.getLogger("bigtop.server")
        url = self.engine.url.set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
        while not stop.is_set():
            try:
                with psycopg.connect(conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    while not stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            heard(note.payload)
            except Exception:
                if not stop.is_set():
                    log.exception("LISTEN connection lost; reconnecting")
                    stop.wait(1.0)
