"""Writes that may change nothing and are answered 200 all the same take a token of the
address's read budget, as an exchange does (test_attack_refusals.py), and write nothing
when there is nothing to write. A rematch asked again by the same seat (the answer is the
same each time) and a reclaim of a seat no bot plays took no rate and no read token and
were no refusal, so one client looped them without bound: a repeated rematch rewrote the
asker's new seat with the token it held already and moved the new table's seat revision
on each time (a write transaction, a NOTIFY, and every socket at the new table, on every
worker, sent a new view; about 210 asks a second from one client through the test
client), a reclaim with no bot to send away ran a write transaction and built a view
(about 160 a second). Clients are named through the trusted proxy, as in test_limits.py."""

from __future__ import annotations

from unittest import mock

from bigtop.server import Limits
from tests.server.conftest import make_client, runtime_of
from tests.server.test_attack_rematch import VS_BOT, finish
from tests.server.test_limits import A, B, C, by, limited

BOTS = [{"kind": "bot", "level": "random"}] * 2
READS = Limits(reads_per_minute=1, read_burst=4, heavy_read_tokens=1)


def test_a_rematch_asked_again_writes_nothing_and_takes_a_read_token(sqlite_url: str) -> None:
    with make_client(sqlite_url, peer="127.0.0.1", limits=READS) as c:
        made = c.post("/api/tables", json=VS_BOT, headers=by(A)).json()
        table, token = made["table"], made["seats"][0]["token"]
        finish(c, table)
        url = f"/api/tables/{table}/rematch"
        first = c.post(url, headers=by(A, token))  # the read budget's first token
        assert first.status_code == 200, first.text
        master = runtime_of(c).master
        rev = master.load(first.json()["table"]).meta.seat_rev
        for _ in range(3):  # the rest of the burst: the same answer each time
            assert c.post(url, headers=by(A, token)).json() == first.json()
        # Nothing changed at the new table: no seat revision, so no new view for anyone.
        assert master.load(first.json()["table"]).meta.seat_rev == rev
        with mock.patch.object(master, "load", wraps=master.load) as load:
            body = limited(c.post(url, headers=by(A, token)))
            assert "one address may read 4 times at once" in body["detail"]
            assert load.call_count == 0  # refused before any table is loaded
        # Another address has its own budget; the new seat's token is still answered.
        assert c.post(url, headers=by(B, token)).json() == first.json()


def test_a_reclaim_with_no_bot_to_send_away_writes_nothing_and_takes_a_read_token(
        sqlite_url: str) -> None:
    with make_client(sqlite_url, peer="127.0.0.1", limits=READS) as c:
        made = c.post("/api/tables", headers=by(A), json={
            "game": "scout", "players": 3, "seats": [{"kind": "human"}, *BOTS]}).json()
        table, token = made["table"], made["seats"][0]["token"]
        url = f"/api/tables/{table}/reclaim"
        master = runtime_of(c).master
        write = mock.patch.object(master.storage, "set_bot_playing",
                                  wraps=master.storage.set_bot_playing)
        with write as set_bot_playing:
            for _ in range(READS.read_burst):
                r = c.post(url, headers=by(A, token))
                assert r.status_code == 200, r.text
                assert r.json()["seats"][0]["bot_playing"] is None
            assert set_bot_playing.call_count == 0  # no bot there: nothing to write
            body = limited(c.post(url, headers=by(A, token)))
            assert "one address may read 4 times at once" in body["detail"]
        assert c.post(url, headers=by(B, token)).status_code == 200


def test_one_identity_renamed_from_many_addresses_is_bounded(sqlite_url: str) -> None:
    """Renames were bounded per address only, so one identity's key used from many
    addresses (a botnet's) renamed it ``rename_burst`` times at once from each, every rename
    a write of every open table the identity sits at and a new view to every socket there
    (other people's too, at the tables it joined). The identity has the same allowance of
    its own, whatever the addresses; another identity from the same address has its own."""
    limits = Limits(renames_per_hour=0.001, rename_burst=2)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits) as c:
        anna, ben = (c.post("/api/players", json={"name": n}, headers=by(A)).json()
                     for n in ("Anna", "Ben"))
        for address, name in ((A, "Anne"), (B, "Annie")):
            r = c.patch("/api/players/me", json={"name": name}, headers=by(address, anna["key"]))
            assert r.status_code == 200, r.text
        body = limited(c.patch("/api/players/me", json={"name": "Ann"},
                               headers=by(C, anna["key"])))
        assert "one identity may be renamed 2 times at once" in body["detail"]
        assert c.get("/api/players/me", headers=by(C, anna["key"])).json()["name"] == "Annie"
        r = c.patch("/api/players/me", json={"name": "Benny"}, headers=by(C, ben["key"]))
        assert r.status_code == 200, r.text
