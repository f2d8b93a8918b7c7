"""Engines and migrations: SQLite (the default, in the user's data directory) or PostgreSQL.

SQLite runs in WAL mode with ``synchronous=NORMAL``: a committed transaction survives the
process being killed at any instant (kill -9); write transactions start with ``BEGIN
IMMEDIATE`` so two writers queue instead of failing. PostgreSQL is reached with psycopg 3.

>>> engine = make_engine("sqlite:///:memory:")
>>> migrate(engine)
>>> current_revision(engine) == head_revision()
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import Connection
from sqlalchemy.pool import StaticPool

from bigtop.core.errors import BigtopError

MIGRATIONS = Path(__file__).with_name("migrations")
_PG_MIGRATION_LOCK = 7_252_012  # pg_advisory_lock key: workers starting at once migrate once


def normalise_url(url: str) -> str:
    """``postgresql://…`` means psycopg 3; SQLite URLs pass unchanged.

    >>> normalise_url("postgresql://u@h/db")
    'postgresql+psycopg://u@h/db'
    >>> normalise_url("mysql://x")
    Traceback (most recent call last):
    ...
    bigtop.core.errors.BigtopError: --db must be sqlite:///PATH or postgresql://..., got 'mysql://x'
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    if url.startswith(("postgresql+psycopg://", "sqlite://")):
        return url
    raise BigtopError(f"--db must be sqlite:///PATH or postgresql://..., got {url!r}")


def make_engine(url: str) -> Engine:
    """An engine for ``url`` with the settings above."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        memory = url in ("sqlite://", "sqlite:///:memory:")
        kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
        if memory:
            kwargs["poolclass"] = StaticPool
        else:
            path = url.removeprefix("sqlite:///")
            if path and not Path(path).parent.exists():
                raise BigtopError(f"no directory {Path(path).parent} for the database")
        engine = create_engine(url, **kwargs)

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None  # we issue BEGIN ourselves (below)
            cur = dbapi_conn.cursor()
            if not memory:
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Connection) -> None:
            immediate = conn.get_execution_options().get("write", False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

        return engine
    # No pre-ping: it would add a round trip to every checkout; a connection lost with a
    # PostgreSQL restart fails once and the pool replaces it.
    return create_engine(url, pool_size=10, max_overflow=20)


def _alembic_config(connection: Connection) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


HEAD = "0024"
"""The newest migration (a test checks it against the scripts): a database already there
starts without loading Alembic at all, which makes restarts quicker."""


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` (a fresh one is created, an old one upgraded).

    An empty database is created at the head in one step, from ``schema.metadata``, and
    stamped with ``HEAD``: what the migration scripts build, without replaying all of them
    (a tenth of the time; tests/server/test_storage.py checks both give the same schema).
    """
    if revision == "head" and _stored_revision(engine) == HEAD:
        return
    with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            # A batch migration copies a table, drops the old one and renames the copy:
            # with foreign keys on, that drop deleted every seat, move, event and chat line
            # of every table (ON DELETE CASCADE). Off while migrating (SQLite ignores the
            # pragma inside a transaction: set before the first).
            _foreign_keys(conn, False)
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _PG_MIGRATION_LOCK})
            conn.commit()
        try:
            if revision == "head" and _empty(conn):
                _create_at_head(conn)
            else:
                from alembic import command

                command.upgrade(_alembic_config(conn), revision)
            conn.commit()
        finally:
            if sqlite:
                conn.rollback()
                _foreign_keys(conn, True)
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _PG_MIGRATION_LOCK})
                conn.commit()


def _tables(conn: Connection) -> list[str]:
    from sqlalchemy import inspect

    return inspect(conn).get_table_names()


def _empty(conn: Connection) -> bool:
    """No table at all (not even Alembic's): a database never migrated."""
    empty = not _tables(conn)
    conn.rollback()  # the creation begins a transaction of its own (a write one on SQLite)
    return empty


def _create_at_head(conn: Connection) -> None:
    """Today's schema and Alembic's record of it, in one transaction: a worker starting
    beside this one waits for it (PostgreSQL's advisory lock, SQLite's ``BEGIN
    IMMEDIATE``) and then finds it made."""
    from bigtop.server.schema import metadata

    conn.execution_options(write=True)
    if _tables(conn):  # another process made it meanwhile
        return
    metadata.create_all(conn)
    # Alembic's own version table, as ``alembic stamp`` makes it.
    conn.execute(text("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL, "
                      "CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num))"))
    conn.execute(text("INSERT INTO alembic_version (version_num) VALUES (:v)"), {"v": HEAD})


def _foreign_keys(conn: Connection, on: bool) -> None:
    """Turn SQLite's foreign keys on or off for this connection (outside a transaction)."""
    raw: Any = conn.connection.driver_connection
    raw.execute(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")


def _stored_revision(engine: Engine) -> str | None:
    from sqlalchemy.exc import DBAPIError

    try:
        with engine.connect() as conn:
            row = conn.execute(text("SELECT version_num FROM alembic_version")).first()
    except DBAPIError:  # no such table: a fresh database
        return None
    return None if row is None else str(row[0])


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        rev: str | None = MigrationContext.configure(conn).get_current_revision()
        return rev


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    with make_engine("sqlite://").connect() as conn:
        head = ScriptDirectory.from_config(_alembic_config(conn)).get_current_head()
    assert head is not None
    return head
