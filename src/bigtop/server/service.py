"""Tables as the database keeps them, played through the core API (synchronous; the web
layer calls it from worker threads).

The database is the truth: a table is its game, options, seed and the append-only move log.
Each worker keeps the latest position of the tables it served in memory (an LRU of
``Settings.cached_tables``) and catches up from the log (moves after the version it has)
whenever the table's row says it moved on, so any number of workers can serve one table. A
move is played on the position in memory, without reading the database first, and stored in
one short transaction: its row ``(table, version)`` and the table's new version, the latter
only if the row still has the version, seats and status the position in memory was checked
against. Two moves racing for one turn hit that primary key and exactly one is stored (the
other gets 409 with the current version); a table that changed elsewhere (another worker, a
seat taken over) makes the guarded update miss, and the move is checked again on the table
as it is now.

>>> from bigtop.server.db import make_engine, migrate
>>> from bigtop.server.settings import Settings
>>> engine = make_engine("sqlite://"); migrate(engine)
>>> svc = TableService(engine, Settings(db_url="sqlite://"))
>>> made = svc.create(TableSpec("scout", 2, seed=3, seats=(SeatSpec(), SeatSpec("bot", "random"))))
>>> t = svc.load(made.table_id)
>>> t.version, t.state.current_player(), [s.kind for s in t.seats]
(0, 0, ['human', 'bot'])
>>> t = svc.play(made.table_id, svc.seat_of(t, made.tokens[0]), 0, {"index": 0})
>>> t.version, t.log[0].text.startswith("P0 ")
(1, True)
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError

from bigtop.agents.levels import BOT_NAMES, DEFAULT_LEVEL
from bigtop.core.errors import BigtopError
from bigtop.core.game import CHANCE, State
from bigtop.core.registry import new_game
from bigtop.core.rng import check_seed
from bigtop.games import teaching
from bigtop.server import errors
from bigtop.server.schema import events, moves, seats, tables
from bigtop.server.settings import Settings

PLAYING, FINISHED, EXPIRED = "playing", "finished", "expired"
HUMAN, BOT = "human", "bot"
NOTIFY_CHANNEL = "bigtop_tables"
"""PostgreSQL LISTEN/NOTIFY channel; the payload is the id of a table that changed."""


# The statements of every move and every load, built once: a statement made anew on each
# call costs more in SQLAlchemy (its cache key) than SQLite takes to run it.
_TABLE_ROW = select(tables).where(tables.c.id == bindparam("table_id"))
_EVENTS_AFTER = (select(events).where(events.c.table_id == bindparam("table_id"),
                                      events.c.id > bindparam("after"))
                 .order_by(events.c.id))
_MOVES_FROM = (select(moves).where(moves.c.table_id == bindparam("table_id"),
                                   moves.c.idx >= bindparam("start"))
               .order_by(moves.c.idx))
_INSERT_MOVES = insert(moves)
_STORE_VERSION = update(tables).where(
    tables.c.id == bindparam("table_id"), tables.c.version == bindparam("old_version"),
    tables.c.seat_rev == bindparam("old_seat_rev"), tables.c.status == PLAYING).values(
    version=bindparam("new_version"), updated_at=bindparam("now"),
    status=bindparam("new_status"), result=bindparam("new_result", type_=tables.c.result.type))
"""The table's new version after a move, only if its row is still as the move was checked
against (version, seats, status)."""

# The same two statements for SQLite's own driver (sqlite3), in the order of ``_store_sqlite``'s
# parameters: a move is the server's hottest write, and SQLAlchemy's execution layer (its
# compiled-statement context, bind processors, the begin event) cost more per move than
# SQLite's work. The schema is still the one in ``schema.py``; what this path writes is
# read back through SQLAlchemy (every table rebuilt from its log in the storage tests).
_SQLITE_INSERT_MOVE = ("INSERT INTO moves (table_id, idx, seat, action, text, by_bot, "
                       "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
_SQLITE_STORE_VERSION = ("UPDATE tables SET version = ?, updated_at = ?, status = ?, "
                         "result = ? WHERE id = ? AND version = ? AND seat_rev = ? "
                         f"AND status = '{PLAYING}'")


def hash_token(token: str) -> str:
    """What the database stores of a seat token (SHA-256, hex).

    >>> len(hash_token("x"))
    64
    """
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True)
class SeatSpec:
    """One seat at creation: a person, or a bot of a level from ``BOT_NAMES``."""

    kind: str = HUMAN
    level: str | None = None


@dataclass(frozen=True)
class TableSpec:
    game: str
    players: int
    options: Mapping[str, object] = field(default_factory=dict)
    seed: int | None = None
    seats: tuple[SeatSpec, ...] = ()
    listed: bool = True
    takeover_after: float | None = None
    takeover_level: str = DEFAULT_LEVEL


@dataclass(frozen=True)
class Seat:
    seat: int
    kind: str
    level: str | None
    token_hash: str | None
    claimed: bool
    last_seen: float
    bot_playing: str | None
    """The level of the bot playing for an absent person (takeover), else None."""

    @property
    def bot_level(self) -> str | None:
        """Which bot moves for this seat now (a bot seat, or a taken-over one)."""
        return self.level if self.kind == BOT else self.bot_playing


@dataclass(frozen=True)
class LogEntry:
    """One line of the public log: a move's describe line or an event (takeover, return).
    ``version`` is the table's version after the move (for events: when it happened)."""

    id: str
    kind: str
    version: int
    seat: int
    text: str
    bot: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "version": self.version, "seat": self.seat,
                "text": self.text, "bot": self.bot}


@dataclass(frozen=True)
class Meta:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    listed: bool
    takeover_after: float | None
    takeover_level: str
    status: str
    version: int
    seat_rev: int
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class Loaded:
    """A table as one worker knows it: read-only (``state`` must not be changed; play on a
    clone)."""

    meta: Meta
    seats: tuple[Seat, ...]
    state: State
    log: tuple[LogEntry, ...]
    last_event: int

    @property
    def version(self) -> int:
        return self.meta.version

    @property
    def table_id(self) -> str:
        return self.meta.id

    def bot_turn(self) -> tuple[int, str] | None:
        """(seat, level) when a bot is to move now."""
        if self.meta.status != PLAYING:
            return None
        p = self.state.current_player()
        if p < 0:
            return None
        level = self.seats[p].bot_level
        return None if level is None else (p, level)


@dataclass(frozen=True)
class Created:
    table_id: str
    tokens: dict[int, str]
    """Seat -> secret token, for the people's seats (shown once, stored hashed)."""


def _now() -> float:
    return time.time()


def _a(word: str) -> str:
    """The article before ``word``.

    >>> _a("easy"), _a("hard")
    ('an', 'a')
    """
    return "an" if word[:1] in "aeiou" else "a"


def log_line(line: str, before: State, after: State) -> str:
    """The public log line of the action from ``before`` to ``after``: its describe line
    (said before it) and what it did once played (a Tricky Landing throw: where the card
    landed, who won the trick), in the words of the game's ``teach`` module."""
    return teaching(after.game.name).played(line, before, after)


def _advance_chance(state: State) -> list[tuple[int, dict[str, Any], str]]:
    """Apply chance outcomes (from the state's seed) until a player is to act; each is
    logged like a move."""
    out = []
    while state.current_player() == CHANCE:
        action = state.sample_chance()
        line = state.describe(action)
        # The position before is needed only where the log says what the luck did.
        before = state.clone() if teaching(state.game.name).tells_outcomes else None
        state.apply(action)
        out.append((CHANCE, action.to_json(),
                    line if before is None else log_line(line, before, state)))
    return out


class TableService:
    """Create, load and play tables on one database (thread-safe)."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        self.settings = settings
        self.limits = settings.limits
        self._cache: OrderedDict[str, Loaded] = OrderedDict()  # least recently used first
        self._lock = threading.Lock()
        self._pg = engine.dialect.name == "postgresql"
        self._sqlite = engine.dialect.name == "sqlite"
        self._sqlite_writer: Any = (threading.Lock() if engine.dialect.name == "sqlite"
                                    else contextlib.nullcontext())

    # -- transactions -------------------------------------------------------------------
    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """A connection for one write transaction. On SQLite (one writer at a time anyway)
        this worker's writers queue on a lock instead of in SQLite's busy handler, which
        sleeps up to 100 ms between tries. Correctness does not depend on it: the database's
        keys decide races, also between processes."""
        with self._sqlite_writer, self.engine.connect().execution_options(write=True) as conn:
            yield conn

    def _notify(self, conn: Connection, table_id: str) -> None:
        # Delivered at commit, so other workers never hear of an uncommitted move.
        if self._pg:
            conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": NOTIFY_CHANNEL, "p": table_id})

    # -- creating -------------------------------------------------------------------------
    def create(self, spec: TableSpec) -> Created:
        """Validate ``spec`` through the core and store a new table (with any opening chance
        outcomes in its log)."""
        if not isinstance(spec.options, Mapping):
            raise errors.Unprocessable("options must be an object")
        try:
            game = new_game(spec.game, spec.players, spec.options)
            seed = secrets.randbits(63) if spec.seed is None else check_seed(spec.seed)
        except BigtopError as e:
            raise errors.Unprocessable(str(e)) from None
        seat_specs = spec.seats or tuple(SeatSpec() for _ in range(spec.players))
        if len(seat_specs) != spec.players:
            raise errors.Unprocessable(
                f"{len(seat_specs)} seats given for {spec.players} players")
        for i, s in enumerate(seat_specs):
            if s.kind == BOT:
                if s.level not in BOT_NAMES:
                    raise errors.Unprocessable(
                        f"seat {i}: unknown bot level {s.level!r}; levels: {', '.join(BOT_NAMES)}")
            elif s.kind != HUMAN:
                raise errors.Unprocessable(f"seat {i}: kind must be 'human' or 'bot'")
            elif s.level is not None:
                raise errors.Unprocessable(f"seat {i}: a person's seat has no bot level")
        if spec.takeover_level not in BOT_NAMES:
            raise errors.Unprocessable(
                f"unknown takeover level {spec.takeover_level!r}; levels: {', '.join(BOT_NAMES)}")
        if spec.takeover_after is not None and not (
                self.limits.min_takeover_seconds <= spec.takeover_after
                <= self.limits.max_takeover_seconds):
            raise errors.Unprocessable(
                f"takeover_after must be {self.limits.min_takeover_seconds:g} to "
                f"{self.limits.max_takeover_seconds:g} seconds")
        state = game.new_initial_state(seed)
        opening = _advance_chance(state)
        table_id = secrets.token_urlsafe(9)
        tokens = {i: new_token() for i, s in enumerate(seat_specs) if s.kind == HUMAN}
        now = _now()
        with self._write() as conn:
            open_tables = conn.execute(select(func.count()).select_from(tables).where(
                tables.c.status == PLAYING)).scalar_one()
            if open_tables >= self.limits.max_open_tables:
                raise errors.Unavailable(
                    f"the server has {open_tables} open tables, its limit; try later")
            conn.execute(insert(tables).values(
                id=table_id, game=game.name, players=game.num_players,
                options=game.options.to_json(), seed=seed, listed=spec.listed,
                takeover_after=spec.takeover_after, takeover_level=spec.takeover_level,
                status=FINISHED if state.is_terminal() else PLAYING, version=len(opening),
                seat_rev=0, created_at=now, updated_at=now,
                result=state.result() if state.is_terminal() else None))
            conn.execute(insert(seats), [
                {"table_id": table_id, "seat": i, "kind": s.kind, "level": s.level,
                 "token_hash": hash_token(tokens[i]) if i in tokens else None,
                 "claimed": s.kind == BOT, "last_seen": now, "bot_playing": None}
                for i, s in enumerate(seat_specs)])
            if opening:
                conn.execute(insert(moves), [
                    {"table_id": table_id, "idx": i, "seat": p, "action": a, "text": line,
                     "by_bot": None, "created_at": now}
                    for i, (p, a, line) in enumerate(opening)])
            conn.commit()
        return Created(table_id, tokens)

    # -- loading --------------------------------------------------------------------------
    def cached(self, table_id: str) -> Loaded | None:
        """The table as this worker last knew it (None: not in memory). It may be behind
        the database when another worker moved; :meth:`play` copes with that."""
        with self._lock:
            hit = self._cache.get(table_id)
            if hit is not None:
                self._cache.move_to_end(table_id)
            return hit

    def _remember(self, loaded: Loaded) -> Loaded:
        with self._lock:
            old = self._cache.get(loaded.table_id)
            if old is None or (loaded.version, loaded.meta.seat_rev, loaded.last_event) >= (
                    old.version, old.meta.seat_rev, old.last_event):
                old = self._cache[loaded.table_id] = loaded
            self._cache.move_to_end(loaded.table_id)
            while len(self._cache) > self.settings.cached_tables:
                self._cache.popitem(last=False)  # rebuilt from the log when asked again
            return old

    def load(self, table_id: str) -> Loaded:
        """The table as the database has it now (from memory plus whatever the log added)."""
        with self.engine.connect() as conn:
            loaded = self._refresh(conn, table_id)
        return self._remember(loaded)

    def _refresh(self, conn: Connection, table_id: str) -> Loaded:
        row = conn.execute(_TABLE_ROW, {"table_id": table_id}).mappings().first()
        if row is None:
            raise errors.NotFound(f"no table {table_id!r}")
        meta = Meta(**{k: row[k] for k in Meta.__dataclass_fields__})
        have = self.cached(table_id)
        if have is not None and (have.version, have.meta.seat_rev, have.meta.status) == (
                meta.version, meta.seat_rev, meta.status):
            return have
        if have is None:
            game = new_game(meta.game, meta.players, meta.options)
            state = game.new_initial_state(meta.seed)
            log: list[LogEntry] = []
            last_event = 0
        else:
            state = have.state.clone()
            log = list(have.log)
            last_event = have.last_event
        if have is None or have.meta.seat_rev != meta.seat_rev:
            seat_rows = conn.execute(select(seats).where(seats.c.table_id == table_id)
                                     .order_by(seats.c.seat)).mappings().all()
            seat_list = tuple(Seat(**{k: r[k] for k in Seat.__dataclass_fields__})
                              for r in seat_rows)
        else:
            seat_list = have.seats
        # Events first, then moves: every event read was stored after the moves it follows.
        for ev in conn.execute(_EVENTS_AFTER, {"table_id": table_id,
                                               "after": last_event}).mappings():
            log.append(LogEntry(f"e{ev['id']}", ev["kind"], ev["at_version"], ev["seat"],
                                ev["text"]))
            last_event = ev["id"]
        start = len(state.history)
        for mv in conn.execute(_MOVES_FROM, {"table_id": table_id,
                                             "start": start}).mappings():
            if mv["idx"] != len(state.history):
                raise BigtopError(f"table {table_id}: move {mv['idx']} missing from the log")
            state.apply_json(mv["action"])
            log.append(LogEntry(f"m{mv['idx']}", "move", mv["idx"] + 1, mv["seat"], mv["text"],
                                mv["by_bot"]))
        meta = replace(meta, version=len(state.history))
        return Loaded(meta, seat_list, state, tuple(log), last_event)

    # -- seats and tokens -----------------------------------------------------------------
    def seat_of(self, loaded: Loaded, token: str | None) -> int | None:
        """The seat a token opens (None: no token, a spectator); a token of no seat at this
        table is refused."""
        if token is None or token == "":
            return None
        digest = hash_token(token)
        for s in loaded.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return s.seat
        raise errors.Forbidden(f"that token is not a seat at table {loaded.table_id}")

    def touch(self, table_id: str, seat: int) -> Loaded | None:
        """Mark ``seat`` present now (and claimed). Returns the new table when that changed
        what others see (the seat was unclaimed), else None."""
        now = _now()
        with self._write() as conn:
            row = conn.execute(select(seats.c.claimed).where(
                seats.c.table_id == table_id, seats.c.seat == seat)).first()
            if row is None:
                return None
            conn.execute(update(seats).where(seats.c.table_id == table_id,
                                             seats.c.seat == seat)
                         .values(last_seen=now, claimed=True))
            if not row[0]:
                conn.execute(update(tables).where(tables.c.id == table_id)
                             .values(seat_rev=tables.c.seat_rev + 1))
                self._notify(conn, table_id)
            conn.commit()
            if row[0]:
                return None
            loaded = self._refresh(conn, table_id)
        return self._remember(loaded)

    def mark_present(self, present: Mapping[tuple[str, int], float]) -> None:
        """Store when these (table, seat) people were last seen, in one transaction."""
        with self._write() as conn:
            conn.execute(update(seats).where(
                seats.c.table_id == bindparam("t"), seats.c.seat == bindparam("s"),
                seats.c.last_seen < bindparam("at")).values(last_seen=bindparam("at")),
                [{"t": t, "s": p, "at": at} for (t, p), at in present.items()])
            conn.commit()

    def join(self, table_id: str, seat: int | None) -> tuple[int, str]:
        """Take a free person's seat of a listed table: a fresh token (the old invite link of
        that seat stops working)."""
        loaded = self.load(table_id)
        if loaded.meta.status != PLAYING:
            raise errors.GameOver(f"table {table_id} is {loaded.meta.status}")
        if not loaded.meta.listed:
            raise errors.Forbidden(f"table {table_id} is private: ask for an invite link")
        free = [s.seat for s in loaded.seats if s.kind == HUMAN and not s.claimed]
        if seat is None:
            if not free:
                raise errors.Conflict(f"table {table_id} has no free seat")
            seat = free[0]
        if not 0 <= seat < loaded.meta.players:
            raise errors.Unprocessable(f"seat must be 0..{loaded.meta.players - 1}")
        token = new_token()
        with self._write() as conn:
            done = conn.execute(update(seats).where(
                seats.c.table_id == table_id, seats.c.seat == seat, seats.c.kind == HUMAN,
                seats.c.claimed.is_(False)).values(
                    token_hash=hash_token(token), claimed=True, last_seen=_now())).rowcount
            if done != 1:
                raise errors.Conflict(f"seat {seat} of table {table_id} is not free")
            conn.execute(update(tables).where(tables.c.id == table_id)
                         .values(seat_rev=tables.c.seat_rev + 1))
            self._notify(conn, table_id)
            conn.commit()
        self.load(table_id)
        return seat, token

    def _seat_event(self, table_id: str, seat: int, kind: str, line: str,
                    bot_playing: str | None, *, only_if: str | None) -> Loaded | None:
        """Set who plays a person's seat and log it publicly. ``only_if`` guards the change
        (``"absent"``: no bot yet; ``"taken"``: a bot plays it) so two workers do it once."""
        now = _now()
        with self._write() as conn:
            cond = [seats.c.table_id == table_id, seats.c.seat == seat, seats.c.kind == HUMAN]
            if only_if == "absent":
                cond.append(seats.c.bot_playing.is_(None))
            elif only_if == "taken":
                cond.append(seats.c.bot_playing.is_not(None))
            values: dict[str, Any] = {"bot_playing": bot_playing}
            if bot_playing is None:
                values["last_seen"] = now
            if conn.execute(update(seats).where(*cond).values(**values)).rowcount != 1:
                return None
            # Updating the table row first orders this event after every committed move.
            version = conn.execute(update(tables).where(tables.c.id == table_id)
                                   .values(seat_rev=tables.c.seat_rev + 1)
                                   .returning(tables.c.version)).scalar_one()
            conn.execute(insert(events).values(table_id=table_id, at_version=version,
                                               seat=seat, kind=kind, text=line,
                                               created_at=now))
            self._notify(conn, table_id)
            conn.commit()
            loaded = self._refresh(conn, table_id)
        return self._remember(loaded)

    def reclaim(self, table_id: str, seat: int) -> Loaded:
        """The person of ``seat`` takes it back from the bot playing for them."""
        loaded = self._seat_event(table_id, seat, "reclaim", f"P{seat} is back and plays again",
                                  None, only_if="taken")
        return loaded if loaded is not None else self.load(table_id)

    def sweep(self) -> list[str]:
        """Bots take over absent seats whose table allows it; idle tables expire. Returns
        the ids of tables that changed."""
        now = _now()
        changed: list[str] = []
        with self.engine.connect() as conn:
            idle = [r[0] for r in conn.execute(select(tables.c.id).where(
                tables.c.status == PLAYING,
                tables.c.updated_at < now - self.limits.idle_table_seconds))]
            absent = conn.execute(
                select(tables.c.id, tables.c.takeover_level, seats.c.seat)
                .join(seats, seats.c.table_id == tables.c.id)
                .where(tables.c.status == PLAYING, tables.c.takeover_after.is_not(None),
                       seats.c.kind == HUMAN, seats.c.bot_playing.is_(None),
                       seats.c.last_seen < now - tables.c.takeover_after)).all()
        for table_id in idle:
            with self._write() as conn:
                n = conn.execute(update(tables).where(
                    tables.c.id == table_id, tables.c.status == PLAYING,
                    tables.c.updated_at < now - self.limits.idle_table_seconds)
                    .values(status=EXPIRED, seat_rev=tables.c.seat_rev + 1)).rowcount
                if n:
                    self._notify(conn, table_id)
                conn.commit()
            if n:
                changed.append(table_id)
        for table_id, level, seat in absent:
            if self._seat_event(table_id, seat, "takeover",
                                f"P{seat} is away: {_a(level)} {level} bot plays for them "
                                "until they come back", level, only_if="absent") is not None:
                changed.append(table_id)
        return changed

    def tables_waiting_for_bots(self) -> list[str]:
        """Open tables where a bot is to move (after a restart, or a worker that died)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables.c.id).where(tables.c.status == PLAYING)
                                .join(seats, seats.c.table_id == tables.c.id)
                                .where((seats.c.kind == BOT) | seats.c.bot_playing.is_not(None))
                                .distinct()).all()
        out = []
        for (table_id,) in rows:
            if self.load(table_id).bot_turn() is not None:
                out.append(table_id)
        return out

    # -- playing --------------------------------------------------------------------------
    def play(self, table_id: str, seat: int | None, version: int, choice: Mapping[str, Any],
             bot: str | None = None, loaded: Loaded | None = None) -> Loaded:
        """Apply one action of ``seat`` to the table at ``version`` and store it (with the
        chance outcomes that follow) before returning. ``choice`` is ``{"action": JSON}``,
        ``{"index": i}`` (in the legal-action list) or ``{"id": n}`` (integer encoding).
        ``bot`` names the bot level moving for the seat (None: the person). ``loaded`` is
        the table as the caller knows it (else this worker's memory, else the database).
        The database is not read first: the transaction that stores the move decides (see
        the module's doc). A position in memory that is behind the client's version is
        brought up to date first."""
        fresh = False
        if loaded is None:
            loaded = self.cached(table_id)
        if loaded is None or version > loaded.version:  # moves this worker has not heard of
            loaded, fresh = self.load(table_id), True
        for _ in range(3):  # the table changed under us only so often (seats, expiry)
            try:
                done = self._play(loaded, seat, version, choice, bot)
            except errors.Problem:
                if fresh:
                    raise
                done = None  # memory may be behind the database: ask it before refusing
            if done is not None:
                return done
            loaded, fresh = self.load(table_id), True
        raise errors.Conflict(f"table {table_id} keeps changing; try again",
                              version=loaded.version)

    def _play(self, loaded: Loaded, seat: int | None, version: int, choice: Mapping[str, Any],
              bot: str | None) -> Loaded | None:
        """:meth:`play` on ``loaded``; None when the table's row no longer matches it."""
        table_id = loaded.table_id
        if seat is None:
            raise errors.Unauthorized("moving needs a seat token; spectators only watch")
        if loaded.meta.status == EXPIRED:
            raise errors.Gone(f"table {table_id} expired after being idle")
        state = loaded.state
        if loaded.meta.status == FINISHED or state.is_terminal():
            raise errors.GameOver("the game is over; no more moves")
        if version != loaded.version:
            raise errors.StaleVersion(loaded.version, version)
        if state.current_player() != seat:
            raise errors.NotYourTurn(
                f"it is P{state.current_player()}'s turn, not P{seat}'s", version=loaded.version)
        playing = loaded.seats[seat].bot_level
        if bot is None and playing is not None:
            raise errors.Conflict(
                f"a {playing} bot plays seat {seat}; reclaim the seat first",
                version=loaded.version)
        if bot is not None and playing != bot:
            raise errors.Conflict(f"no {bot} bot plays seat {seat} now",
                                  version=loaded.version)
        work = state.clone()
        action = self._choose(work, choice)
        try:
            line = work.describe(action)  # public: what every seat may know of the move
            work.apply(action)
        except BigtopError as e:
            raise errors.IllegalMove(str(e), version=loaded.version) from None
        # ``state`` (the table's, never changed) is the position before the move.
        rows = [(seat, action.to_json(), log_line(line, state, work)), *_advance_chance(work)]
        return self._store(loaded, work, rows, bot)

    def _store_sqlite(self, move_rows: list[tuple[Any, ...]], version: tuple[Any, ...]) -> bool:
        """:meth:`_store`'s transaction on SQLite, through its own driver: the move rows
        (``_SQLITE_INSERT_MOVE``; sqlite3.IntegrityError when the turn is taken) and the
        guarded new version (``_SQLITE_STORE_VERSION``), committed only if the guard held.
        JSON is written as SQLAlchemy's JSON type writes it (``json.dumps``; None is
        ``null``), so either path reads what the other wrote."""
        with self._sqlite_writer:
            raw = self.engine.raw_connection()
            driver: sqlite3.Connection = raw.driver_connection  # type: ignore[assignment]
            try:
                cur = driver.cursor()
                cur.execute("BEGIN IMMEDIATE")
                try:
                    cur.executemany(_SQLITE_INSERT_MOVE, move_rows)
                    cur.execute(_SQLITE_STORE_VERSION, version)
                    guarded = cur.rowcount == 1
                    cur.execute("COMMIT" if guarded else "ROLLBACK")
                except BaseException:
                    if driver.in_transaction:
                        cur.execute("ROLLBACK")
                    raise
                return guarded
            finally:
                raw.close()

    @staticmethod
    def _choose(state: State, choice: Mapping[str, Any]) -> Any:
        keys = [k for k in ("action", "index", "id") if k in choice]
        if len(keys) != 1:
            raise errors.Unprocessable("give exactly one of 'action', 'index' or 'id'")
        key = keys[0]
        value = choice[key]
        try:
            if key == "action":
                return state.game.action_from_json(value)
            if isinstance(value, bool) or not isinstance(value, int):
                raise errors.Unprocessable(f"{key!r} must be a whole number")
            if key == "index":
                legal = state.legal_actions()
                if not 0 <= value < len(legal):
                    raise errors.IllegalMove(
                        f"index {value} is not a legal action now (0..{len(legal) - 1})")
                return legal[value]
            return state.game.action_from_int(value)
        except errors.Problem:
            raise
        except (BigtopError, IndexError, KeyError, TypeError) as e:
            raise errors.IllegalMove(str(e) or f"{value!r} is not an action") from None

    def _store(self, loaded: Loaded, work: State, rows: list[tuple[int, Any, str]],
               bot: str | None) -> Loaded | None:
        """One transaction: the move rows (the unique key refuses a version already taken)
        and the table's new version, guarded by what ``loaded`` was checked against (its
        seats and status); None (nothing stored) when that guard misses."""
        table_id = loaded.table_id
        start = loaded.version
        now = _now()
        terminal = work.is_terminal()
        status = FINISHED if terminal else PLAYING
        result = work.result() if terminal else None
        try:
            if self._sqlite:
                stored = self._store_sqlite(
                    [(table_id, start + i, p, json.dumps(a), line, bot if i == 0 else None, now)
                     for i, (p, a, line) in enumerate(rows)],
                    (start + len(rows), now, status, json.dumps(result), table_id, start,
                     loaded.meta.seat_rev))
                if not stored:
                    return None
            else:
                with self._write() as conn:
                    conn.execute(_INSERT_MOVES, [
                        {"table_id": table_id, "idx": start + i, "seat": p, "action": a,
                         "text": line, "by_bot": bot if i == 0 else None, "created_at": now}
                        for i, (p, a, line) in enumerate(rows)])
                    guarded = conn.execute(_STORE_VERSION, {
                        "table_id": table_id, "old_version": start,
                        "old_seat_rev": loaded.meta.seat_rev,
                        "new_version": start + len(rows), "now": now, "new_status": status,
                        "new_result": result}).rowcount
                    if guarded != 1:
                        conn.rollback()
                        return None
                    self._notify(conn, table_id)
                    conn.commit()
        except (IntegrityError, sqlite3.IntegrityError):
            # Another request stored a move for this version first.
            current = self.load(table_id).version
            raise errors.StaleVersion(current, start) from None
        log = list(loaded.log)
        for i, (p, _a, line) in enumerate(rows):
            log.append(LogEntry(f"m{start + i}", "move", start + i + 1, p, line,
                                bot if i == 0 else None))
        meta = replace(loaded.meta, version=start + len(rows), updated_at=now,
                       status=FINISHED if terminal else PLAYING)
        return self._remember(Loaded(meta, loaded.seats, work, tuple(log), loaded.last_event))

    # -- records --------------------------------------------------------------------------
    def move_rows(self, table_id: str) -> list[dict[str, Any]]:
        """The stored log of a table, oldest first (seat, action JSON, describe line)."""
        with self.engine.connect() as conn:
            return [dict(r) for r in conn.execute(
                select(moves.c.idx, moves.c.seat, moves.c.action, moves.c.text, moves.c.by_bot)
                .where(moves.c.table_id == table_id).order_by(moves.c.idx)).mappings()]

    def lobby(self) -> list[Loaded]:
        """Listed open tables with a free person's seat, newest first."""
        with self.engine.connect() as conn:
            ids = [r[0] for r in conn.execute(
                select(tables.c.id).join(seats, seats.c.table_id == tables.c.id)
                .where(tables.c.status == PLAYING, tables.c.listed.is_(True),
                       seats.c.kind == HUMAN, seats.c.claimed.is_(False))
                .group_by(tables.c.id, tables.c.created_at)
                .order_by(tables.c.created_at.desc())
                .limit(self.limits.max_lobby_tables))]
        return [self.load(i) for i in ids]

    def all_open(self) -> Iterable[str]:
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(select(tables.c.id).where(
                tables.c.status == PLAYING))]
