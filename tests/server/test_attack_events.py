"""A table's events (take-backs, takeovers, reclaims, time-outs) are bounded
(``Limits.max_table_events``) like its moves and its chat. A take-back deletes its moves
but logs an event, so a client holding both seats of a table moved, asked for the
take-back and accepted it, on and on, at the move rates: the table stayed at version 0 and
never idled, its log grew without end (5,000 cycles: a view of 560 KB made in 15 ms and
sent on every change, since events of one version all come in every view whatever
``max_view_log`` says, and each cycle slower than the last as the table was read whole
again: 175 s for the 5,000), and so did its rows and every worker's copy. A seat
reclaimed each time a bot took it over (``takeover_after`` of a second) did the same."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from bigtop.server import Limits
from bigtop.server.schema import events
from bigtop.server.storage import SqlStorage
from tests.server.conftest import make_client, runtime_of
from tests.server.test_api import auth, create, problem

LIMIT = Limits(max_table_events=3)


def stored_events(c: TestClient, table: str) -> int:
    storage = runtime_of(c).master.storage
    assert isinstance(storage, SqlStorage)
    with storage.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(events)
                                .where(events.c.table_id == table)).scalar_one())


def move_and_take_back(c: TestClient, t: str, tokens: list[str]) -> tuple[int, int]:
    """The seat to move moves; answers it and the other seat."""
    v = c.get(f"/api/tables/{t}", headers=auth(tokens[0])).json()
    p = v["current_player"]
    r = c.post(f"/api/tables/{t}/moves", json={"version": v["version"], "index": 0},
               headers=auth(tokens[p]))
    assert r.status_code == 200, r.text
    return p, 1 - p


def test_take_backs_stop_at_the_tables_events(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=LIMIT) as c:
        made = create(c)
        t, tokens = made["table"], [s["token"] for s in made["seats"]]
        for _ in range(3):
            p, other = move_and_take_back(c, t, tokens)
            assert c.post(f"/api/tables/{t}/undo", headers=auth(tokens[p])).status_code == 200
            r = c.post(f"/api/tables/{t}/undo/accept", headers=auth(tokens[other]))
            assert r.status_code == 200, r.text
            assert r.json()["version"] == 0
        p, other = move_and_take_back(c, t, tokens)
        body = problem(c.post(f"/api/tables/{t}/undo", headers=auth(tokens[p])), 409,
                       "conflict")
        assert "3 take-backs and seat changes, its limit" in body["detail"]
        assert stored_events(c, t) == 3
        view = c.get(f"/api/tables/{t}", headers=auth(tokens[p])).json()
        assert view["version"] == 1 and view["undo"] is None  # nothing asked


def test_reclaims_stop_at_the_tables_events(sqlite_url: str) -> None:
    """Past the bound the bot that took a seat over plays it on: a takeover needs no
    request of the person's, each further one a reclaim."""
    with make_client(sqlite_url, limits=LIMIT) as c:
        made = create(c, takeover_after=60)
        t, token = made["table"], made["seats"][1]["token"]
        master = runtime_of(c).master
        assert master.seat_event(t, 1, "takeover", "P1 is away", "random",
                                 only_if="absent") is not None
        r = c.post(f"/api/tables/{t}/reclaim", headers=auth(token))
        assert r.status_code == 200 and r.json()["seats"][1]["bot_playing"] is None
        # The third event, a takeover: the server's, never refused (the game goes on).
        assert master.seat_event(t, 1, "takeover", "P1 is away", "random",
                                 only_if="absent") is not None
        body = problem(c.post(f"/api/tables/{t}/reclaim", headers=auth(token)), 409,
                       "conflict")
        assert "3 take-backs and seat changes, its limit: the bot plays on" in body["detail"]
        assert stored_events(c, t) == 3
        view = c.get(f"/api/tables/{t}", headers=auth(token)).json()
        assert view["seats"][1]["bot_playing"] == "random"
