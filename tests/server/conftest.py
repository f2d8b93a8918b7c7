"""Fixtures of the server tests: apps on a fresh SQLite file, a throwaway PostgreSQL cluster
(Debian's postgresql, run as an unprivileged user in a temporary directory), and real
`bigtop serve` processes on free loopback ports."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from bigtop.server import Limits, Settings, create_app
from bigtop.server.runtime import Runtime
from tests.server.pg import new_database, throwaway_cluster
from tests.server.processes import BIGTOP, ONE_CLIENT_MANY_TABLES, Server

__all__ = ["BIGTOP", "ONE_CLIENT_MANY_TABLES", "Server", "drawn_seed", "make_client",
           "runtime_of"]

@contextlib.contextmanager
def drawn_seed(seed: int) -> Iterator[None]:
    """Make the server's CSPRNG draw ``seed`` (in this process): tests that replay a table
    with people at it on their own need to know its seed, which no client may choose."""
    with mock.patch("bigtop.server.master.draw_seed", return_value=seed):
        yield


def make_client(db_url: str, *, peer: str = "testclient", **settings: Any) -> TestClient:
    """A test client of an app on ``db_url``. ``peer``: the TCP peer the app sees (a
    trusted proxy such as 127.0.0.1 may name other clients in ``X-Forwarded-For``)."""
    limits = settings.pop("limits", Limits())
    # Bots in a thread of this process: no pool process to start and stop in every test
    # (real servers, test_processes.py and test_bots.py's hard cut use processes).
    settings.setdefault("bot_processes", 0)
    s = Settings(db_url=db_url, limits=limits, sweep_seconds=settings.pop("sweep_seconds", 0.1),
                 **settings)
    # On uvloop, as `bigtop serve` runs (the server's code must not depend on asyncio's
    # own loop).
    return TestClient(create_app(s), backend_options={"use_uvloop": True},
                      client=(peer, 50000))


def runtime_of(client: TestClient) -> Runtime:
    """The runtime (table master, bots, caches) of a test client's app, typed: to the type
    checker ``client.app`` is any ASGI app, and ``app.state`` holds anything."""
    app = client.app
    assert isinstance(app, FastAPI)
    runtime = app.state.runtime
    assert isinstance(runtime, Runtime)
    return runtime


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.sqlite3'}"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url) as c:
        yield c


# -- PostgreSQL ------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[str]:
    """A PostgreSQL server on a unix socket in a temporary directory (one per test process);
    yields a URL template with ``{db}``."""
    with throwaway_cluster() as url:
        yield url


@pytest.fixture
def pg_url(pg_cluster: str) -> str:
    """A fresh, empty database on the throwaway cluster."""
    return new_database(pg_cluster)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each storage test runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    url: str = request.getfixturevalue("pg_url")
    return url


# -- real server processes -------------------------------------------------------------------
@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Any]:
    started: list[Server] = []

    def make(db: str, *extra: str) -> Server:
        s = Server(db, tmp_path / f"server-{len(started)}.log", *extra)
        started.append(s)
        return s

    yield make
    for s in started:
        s.stop()


class LogLines(logging.Handler):
    """Collects the messages of WARNING and above (add it to a logger, read ``lines``)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())
