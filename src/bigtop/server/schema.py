"""The database schema (SQLAlchemy Core). Alembic migrations under ``migrations/`` create and
upgrade it; this module is what the code reads and writes.

- ``tables``: one row per table: game, player count, options, seed (and whether its creator
  chose it), settings, status, the number of moves applied (``version``, kept with the log
  in one transaction) and the client address that created it.
- ``seats``: who sits where: a person (with the SHA-256 of their secret token) or a bot.
- ``moves``: the append-only log, one row per applied action (chance outcomes included),
  keyed by ``(table_id, idx)``: that primary key is the unique constraint that makes two
  racing moves for one turn end with exactly one stored.
- ``events``: public notes that are not moves (a bot took over a seat, a player came back).
- ``chat``: what a table's players wrote, oldest first (plain text).
- ``players``: identities without passwords: a name and the SHA-256 of a secret key. A
  person's seat names the identity that sat down there (``seats.player_id``).
- ``ratings``: each identity's rating per game (rated tables).
- ``snapshots``: positions of long games every few moves (replays and rebuilds start there).
- ``rate_buckets``: the per-client rate limits every worker shares (a token bucket per key).
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    false,
    true,
)

metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("listed", Boolean, nullable=False),
    Column("takeover_after", Float, nullable=True),
    Column("takeover_level", String(32), nullable=False),
    Column("status", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    # the default only for rows older than the column (migration 0002 added it so)
    Column("seat_rev", Integer, nullable=False, server_default="0"),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("result", JSON, nullable=True),
    Column("chat_spectators_read", Boolean, nullable=False, server_default=true()),
    Column("rematch_id", String(32), nullable=True),
    Column("bot_waiting_since", Float, nullable=True),
    Column("bot_seconds", Float, nullable=True),
    Column("idle_bucket", Integer, nullable=True),
    Column("seed_chosen", Boolean, nullable=False, server_default=false()),
    Column("creator", String(64), nullable=False, server_default=""),
    Column("clock", JSON, nullable=True),
    Column("on_timeout", String(8), nullable=False, server_default="bot"),
    Column("rated", Boolean, nullable=False, server_default=false()),
    Column("turn_started", Float, nullable=True),
    Column("clock_deadline", Float, nullable=True),
    Column("host_seat", Integer, nullable=True),
    Column("started", Boolean, nullable=False, server_default=true()),
    Column("undo", JSON, nullable=True),
    Column("undos", Integer, nullable=False, server_default="0"),
    Index("ix_tables_status", "status"),
    Index("ix_tables_clock_deadline", "clock_deadline"),
    Index("ix_tables_idle", "idle_bucket"),
    Index("ix_tables_bot_waiting", "bot_waiting_since"),
    Index("ix_tables_creator_status", "creator", "status"),
    Index("ix_tables_status_created", "status", "created_at"),
)
"""``bot_waiting_since``: since when a bot is to move (NULL: a person is, or the game is
over); the sweep finds a bot turn nobody took through its index alone. ``idle_bucket``:
``updated_at`` in 64ths of ``Limits.idle_table_seconds`` (NULL once the table ended),
indexed, so idle tables are found by an index that changes once a bucket rather than with
every move. ``clock``: the time control (NULL: none); ``turn_started`` and
``clock_deadline``: the running clock's turn (NULL: none runs), set in the transaction of
the move that starts the turn; the deadline is indexed, so the sweep finds time-outs through
it alone. ``host_seat``: the creator's seat (the first person's; its holder gets the
invite links again). ``started``: false while a person's seat is empty: nothing is dealt or
rolled, nobody moves."""

seats = Table(
    "seats", metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("kind", String(8), nullable=False),
    Column("level", String(32), nullable=True),
    Column("token_hash", String(64), nullable=True, unique=True),
    Column("claimed", Boolean, nullable=False),
    Column("last_seen", Float, nullable=False),
    Column("bot_playing", String(32), nullable=True),
    Column("player_id", String(32), ForeignKey("players.id", ondelete="SET NULL"),
           nullable=True),
    Column("away_at", Float, nullable=True),
    Column("clock_left", Float, nullable=True),
    Column("invite", String(255), nullable=True),
    Column("here", Boolean, nullable=False, server_default=false()),
    Column("invited", Boolean, nullable=False, server_default=false()),
    PrimaryKeyConstraint("table_id", "seat", name="pk_seats"),
    Index("ix_seats_player", "player_id"),
    Index("ix_seats_away_at", "away_at"),
    Index("ix_seats_here_seen", "here", "last_seen"),
)
"""``away_at``: when a person's seat may be taken over (last seen + the table's
``takeover_after``; NULL: never, or a bot plays it already), indexed for the sweep.
``clock_left``: the person's game clock at the start of the current turn (NULL: none).
``invite``: the name the host gave the person invited to the seat (shown while waiting).
``here``: the person is present (stored when it changes; the sweep finds those gone through
the index on ``(here, last_seen)``). ``invited``: the seat's token is still an invite link's,
derived from the host's secret (so the host can give the link again): the first to open
it exchanges it for a token from the CSPRNG that only they know (migration 0023)."""

moves = Table(
    "moves", metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("idx", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("action", JSON, nullable=False),
    Column("text", Text, nullable=False),
    Column("by_bot", String(32), nullable=True),
    Column("created_at", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "idx", name="pk_moves_table_idx"),
)

events = Table(
    "events", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("at_version", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("text", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    Index("ix_events_table", "table_id", "id"),
)

players = Table(
    "players", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(255), nullable=False),
    Column("key_hash", String(64), nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
)

blocked_players = Table(
    "blocked_players", metadata,
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           primary_key=True),
    Column("key_hash", String(64), nullable=False, unique=True),
    Column("note", Text, nullable=False),
    Column("blocked_at", Float, nullable=False),
)
"""Identities the server's host blocked (``bigtop host block``): the key's hash is kept
here and the player's row holds one no key hashes to (``"!"`` and its id), so the key opens
nothing, on every worker, with no check added to any path that reads keys; unblocking puts
it back."""

chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    Index("ix_chat_table", "table_id", "id"),
)
ratings = Table(
    "ratings", metadata,
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           nullable=False),
    Column("game", String(64), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("ordinal", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    PrimaryKeyConstraint("player_id", "game", name="pk_ratings"),
    Index("ix_ratings_board", "game", "ordinal"),
)
"""Each identity's openskill rating in each game it played rated (``ordinal`` = μ − 3σ,
indexed for the leaderboard); changed in the transaction that records a rated game's end."""

snapshots = Table(
    "snapshots", metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("idx", Integer, nullable=False),
    Column("position", JSON, nullable=False),
    PrimaryKeyConstraint("table_id", "idx", name="pk_snapshots"),
)
"""The position (``State.to_json(with_history=False)``) after ``idx`` moves, every
``Settings.snapshot_every`` moves: a replay or a rebuild starts from the latest one."""

rate_buckets = Table(
    "rate_buckets", metadata,
    Column("bucket", String(128), primary_key=True),
    Column("full_at", Float, nullable=False),
    Index("ix_rate_buckets_full_at", "full_at"),
)
"""A token bucket of a per-client rate limit, shared by every worker (``bucket``: the
limit's name and its key, such as ``"tables 198.51.100.7"``). One number is the whole
bucket: ``full_at``, when it will be full again (each token taken moves it on by one
interval; a token may be taken while it is at most ``burst - 1`` intervals ahead). A full
bucket is the same as none: the sweep deletes rows whose ``full_at`` has passed, through
its index, so the table holds only buckets in use."""
