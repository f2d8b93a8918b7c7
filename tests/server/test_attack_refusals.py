"""Refused writes are bounded per client address (server/edge.py): a write the server
refuses (no token, a wrong one, an unknown table, a bad body) did the work of a read (the
table loaded from the database, the body parsed) and took none of the read budget, so an
anonymous client looped ``POST …/start`` (or ``/reclaim``, ``/rematch``, ``/undo``)
as fast as the worker answered: a table load each, without bound (about 150 a second from
one client on the audit's machine). ``POST …/accept`` with a token of one's own, answered
200, was the same unbounded read: it takes a read token now. Clients are
named through the trusted proxy, as in test_limits.py."""

from __future__ import annotations

from unittest import mock

from bigtop.server import Limits
from tests.server.conftest import make_client, runtime_of
from tests.server.test_api import create
from tests.server.test_limits import A, B, by, limited

BOTS = [{"kind": "bot", "level": "random"}] * 2


def test_refused_writes_of_an_address_are_bounded_and_cost_nothing_past_it(
        sqlite_url: str) -> None:
    limits = Limits(reads_per_minute=1, read_burst=5, heavy_read_tokens=1)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits) as c:
        made = create(c, players=3, seats=[{"kind": "human"}, *BOTS])
        t, tok = made["table"], made["seats"][0]["token"]
        master = runtime_of(c).master
        for url in ("start", "reclaim", "rematch", "undo", "start"):  # 5: the burst
            assert c.post(f"/api/tables/{t}/{url}", headers=by(A)).status_code == 401
        with mock.patch.object(master, "load", wraps=master.load) as load:
            for url in ("start", "moves", "accept", "join"):
                body = limited(c.post(f"/api/tables/{t}/{url}", headers=by(A, tok),
                                      json={"version": 0, "index": 0}))
                assert "refused 5 times at once and 1 times a minute" in body["detail"]
                assert body["retry_after"] >= 30
            limited(c.post("/api/tables/nope/start", headers=by(A)))
            assert load.call_count == 0  # past the bound: no table loaded
        # Another address has its own bound; its writes are answered as ever.
        assert c.post(f"/api/tables/{t}/start", headers=by(B)).status_code == 401
        view = c.get(f"/api/tables/{t}", headers=by(B, tok)).json()
        r = c.post(f"/api/tables/{t}/moves", headers=by(B, tok),
                   json={"version": view["version"], "index": 0})
        assert r.status_code == 200, r.text


def test_good_writes_do_not_count_and_a_seat_past_its_rates_is_bounded(
        sqlite_url: str) -> None:
    """A good write takes nothing of the bound; one refused 429 by its route's own rate
    does: the chat and the take-backs load the table (the chat also writes its shared
    bucket) before their rates refuse, so a seat past them was unbounded too."""
    limits = Limits(reads_per_minute=1, read_burst=3, heavy_read_tokens=1, chat_burst=2)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits) as c:
        made = create(c, players=3, seats=[{"kind": "human"}, *BOTS])
        t, tok = made["table"], made["seats"][0]["token"]
        master = runtime_of(c).master
        for text in ("hi", "there"):
            assert c.post(f"/api/tables/{t}/chat", headers=by(A, tok),
                          json={"text": text}).status_code == 201
        for _ in range(3):  # past chat_burst: 429 each, counted
            limited(c.post(f"/api/tables/{t}/chat", headers=by(A, tok), json={"text": "x"}))
        with mock.patch.object(master, "load", wraps=master.load) as load:
            body = limited(c.post(f"/api/tables/{t}/chat", headers=by(A, tok),
                                  json={"text": "x"}))
            assert "may be refused 3 times" in body["detail"]
            assert load.call_count == 0


def test_an_exchange_takes_a_read_token_first(sqlite_url: str) -> None:
    """``POST …/accept`` with a token of one's own is answered 200 without a rate of its
    own (a page asks on every first visit): it loads the table as a view does, so it takes
    a token of the read budget, before the table is loaded."""
    limits = Limits(reads_per_minute=1, read_burst=3, heavy_read_tokens=1)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits) as c:
        made = create(c, players=3, seats=[{"kind": "human"}, *BOTS])
        t, tok = made["table"], made["seats"][0]["token"]
        master = runtime_of(c).master
        for _ in range(3):
            r = c.post(f"/api/tables/{t}/accept", headers=by(A), json={"token": tok})
            assert r.status_code == 200 and r.json()["token"] == tok
        with mock.patch.object(master, "load", wraps=master.load) as load:
            body = limited(c.post(f"/api/tables/{t}/accept", headers=by(A),
                                  json={"token": tok}))
            assert "one address may read 3 times at once" in body["detail"]
            assert load.call_count == 0
        assert c.post(f"/api/tables/{t}/accept", headers=by(B),
                      json={"token": tok}).status_code == 200
