"""A rematch makes a table, and the asking address is its creator: it counts toward that
address's rate of new tables (``tables_per_hour``, ``table_burst``) like ``POST
/api/tables``, and among its open tables. It took nothing, so a
client chained rematches past that rate: a person against a bot at a table with a
five-second clock and ``"on_timeout": "lose"`` is finished by the sweep without a move, its
rematch likewise, and so on: twenty such chains (the open tables one address may hold) make
about three tables a second, some ten thousand an hour against the rate's thirty, each kept
``finished_table_seconds`` (30 days) with its rows. Clients are named
through the trusted proxy, as in test_limits.py."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from bigtop.server import Limits
from bigtop.server.schema import tables
from bigtop.server.storage import SqlStorage
from tests.server.conftest import make_client, runtime_of
from tests.server.test_limits import A, B, by, limited

VS_BOT = {"game": "scout", "players": 2, "options": {"rounds": 1},
          "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]}


def finish(c: TestClient, table: str) -> None:
    """End ``table`` as a loss on time would, as far as a rematch cares (its row says so)."""
    storage = runtime_of(c).master.storage
    assert isinstance(storage, SqlStorage)
    with storage.engine.begin() as conn:
        conn.execute(update(tables).where(tables.c.id == table)
                     .values(status="finished", seat_rev=tables.c.seat_rev + 1))


def stored_tables(c: TestClient) -> int:
    storage = runtime_of(c).master.storage
    assert isinstance(storage, SqlStorage)
    with storage.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(tables)).scalar_one())


def test_a_chain_of_rematches_counts_toward_the_rate_of_new_tables(sqlite_url: str) -> None:
    limits = Limits(table_burst=3, tables_per_hour=1)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits) as c:
        made = c.post("/api/tables", json=VS_BOT, headers=by(A)).json()
        table, token = made["table"], made["seats"][0]["token"]
        for _ in range(2):  # the burst's other two tables, made as rematches
            finish(c, table)
            r = c.post(f"/api/tables/{table}/rematch", headers=by(A, token))
            assert r.status_code == 200, r.text
            # Asking again answers the same table: no new one, nothing taken.
            assert c.post(f"/api/tables/{table}/rematch", headers=by(A, token)).json() \
                == r.json()
            table, token = r.json()["table"], r.json()["token"]
        finish(c, table)
        before = stored_tables(c)
        body = limited(c.post(f"/api/tables/{table}/rematch", headers=by(A, token)))
        assert "one address may create 3 tables at once" in body["detail"]
        assert stored_tables(c) == before  # nothing made
        assert c.get(f"/api/tables/{table}", headers=by(A)).json()["rematch"] is None
        limited(c.post("/api/tables", json=VS_BOT, headers=by(A)))  # the same rate
        # Another address has its own: its rematch of the same table is made.
        r = c.post(f"/api/tables/{table}/rematch", headers=by(B, token))
        assert r.status_code == 200, r.text
        assert stored_tables(c) == before + 1


def test_a_rematch_counts_among_the_open_tables_of_whoever_asked(sqlite_url: str) -> None:
    """The rematch counted among the old creator's open tables, whoever asked: a stranger
    who sat at a host's tables (from the lobby) and asked for the rematch of each, which
    nobody then played (every seat claimed: open until it idles, seven days), filled the
    host's ``max_open_tables_per_client`` and kept the host from making tables."""
    with make_client(sqlite_url, peer="127.0.0.1",
                     limits=Limits(max_open_tables_per_client=1)) as c:
        made = c.post("/api/tables", json={"game": "scout", "players": 2},
                      headers=by(A)).json()
        finish(c, made["table"])
        stranger = made["seats"][1]["token"]
        r = c.post(f"/api/tables/{made['table']}/rematch", headers=by(B, stranger))
        assert r.status_code == 200, r.text
        assert c.post("/api/tables", json=VS_BOT, headers=by(A)).status_code == 201
        body = limited(c.post("/api/tables", json=VS_BOT, headers=by(B)))
        assert "this address has 1 open tables, its limit" in body["detail"]
