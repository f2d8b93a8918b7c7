"""The host's controls after creating a table: listing it in the lobby or taking it out
(``PATCH /api/tables/{id}``), on one worker and on two; the invite links of a table made
before they could be given again."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import insert

from bigtop.server import Limits
from bigtop.server.db import make_engine, migrate
from bigtop.server.model import hash_token, new_token
from bigtop.server.schema import seats, tables
from tests.server.conftest import make_client
from tests.server.test_api import auth, problem, wait_for
from tests.server.test_invites import hosted, lobby_ids, view
from tests.server.test_players import new_player


def listing(c: TestClient, table: str, secret: str | None, body: Any) -> Any:
    return c.patch(f"/api/tables/{table}", json=body,
                   headers=auth(secret) if secret else {})


def test_the_host_lists_an_invited_table_and_takes_it_out(client: TestClient) -> None:
    anna, ben = new_player(client, "Anna"), new_player(client, "Ben")
    made = hosted(client, anna["key"], [{}, {"invite": "Ben"}, {}])
    t, host_token = made["table"], made["seats"][0]["token"]
    assert t not in lobby_ids(client)  # an invited seat: unlisted unless the host lists it
    r = listing(client, t, anna["key"], {"listed": True})  # by the host's player key
    assert r.status_code == 200, r.text
    assert r.json()["listed"] is True and r.json()["seat"] == 0
    assert t in lobby_ids(client)
    assert view(client, t)["listed"] is True  # spectators see it too
    # A stranger takes the free seat from the lobby; the invited one stays Ben's to claim.
    joined = client.post(f"/api/tables/{t}/join", json={"seat": 2})
    assert joined.status_code == 200, joined.text
    r = listing(client, t, host_token, {"listed": False})  # by the host's seat token
    assert r.status_code == 200, r.text
    assert r.json()["listed"] is False and t not in lobby_ids(client)
    problem(client.post(f"/api/tables/{t}/join", json={"seat": 1}), 403, "wrong-token")
    again = listing(client, t, host_token, {"listed": False})  # the same twice: fine
    assert again.status_code == 200 and again.json()["listed"] is False
    claimed = client.post(f"/api/tables/{t}/claim", json={"token": made["seats"][1]["token"]},
                          headers=auth(ben["key"]))
    assert claimed.status_code == 200, claimed.text


def test_only_the_host_lists_and_bad_bodies_are_refused(client: TestClient) -> None:
    anna, ben = new_player(client, "Anna"), new_player(client, "Ben")
    made = hosted(client, anna["key"], [{}, {"invite": "Ben"}])
    t = made["table"]
    # Ben's page exchanges his link for a token of his own, then claims the seat with it.
    his = client.post(f"/api/tables/{t}/accept",
                      json={"token": made["seats"][1]["token"]}).json()["token"]
    client.post(f"/api/tables/{t}/claim", json={"token": his}, headers=auth(ben["key"]))
    before = view(client, t, anna["key"])
    for secret in (ben["key"], his):
        problem(listing(client, t, secret, {"listed": True}), 403, "not-host")
    problem(listing(client, t, "x" * 22, {"listed": True}), 403, "wrong-token")
    problem(listing(client, t, None, {"listed": True}), 401, "seat-token-required")
    problem(listing(client, "nope", anna["key"], {"listed": True}), 404, "not-found")
    for body in ({}, {"listed": "yes"}, {"listed": 1}, {"listed": True, "seed": 3}, [True]):
        problem(listing(client, t, anna["key"], body), 422, "invalid")
    r = client.patch(f"/api/tables/{t}", content=b"{", headers={
        **auth(anna["key"]), "content-type": "application/json"})
    problem(r, 400, "bad-request")
    after = view(client, t, anna["key"])
    assert after["listed"] is False and after["version"] == before["version"]
    assert t not in lobby_ids(client)


def test_a_chosen_seed_or_a_finished_table_is_not_listed(client: TestClient) -> None:
    # A chosen seed at a table of one person's seat (the creator's) and a bot: listing it
    # would let a stranger play a game whose hands the creator knows.
    anna = new_player(client, "Anna")
    r = client.post("/api/tables", json={"game": "scout", "players": 2, "seed": 5,
                                          "listed": False,
                                          "seats": [{}, {"kind": "bot", "level": "random"}]},
                    headers=auth(anna["key"]))
    assert r.status_code == 201, r.text
    t = r.json()["table"]
    body = problem(listing(client, t, anna["key"], {"listed": True}), 422, "invalid")
    assert "seed was chosen" in body["detail"]
    assert view(client, t)["listed"] is False and t not in lobby_ids(client)
    assert listing(client, t, anna["key"], {"listed": False}).status_code == 200
    # A finished table: a one-round game of SCOUT against a random bot, played out.
    made = hosted(client, anna["key"], [{}, {"kind": "bot", "level": "random"}],
                  options={"rounds": 1})
    t, tok = made["table"], made["seats"][0]["token"]
    while (v := wait_for(client, t, lambda v: v["status"] != "playing" or v["legal_actions"],
                         token=tok))["status"] == "playing":
        client.post(f"/api/tables/{t}/moves", json={"version": v["version"], "index": 0},
                    headers=auth(tok))
    body = problem(listing(client, t, anna["key"], {"listed": True}), 409, "game-over")
    assert "finished" in body["detail"]


def test_listing_is_rate_limited_per_address_on_every_worker(sqlite_url: str) -> None:
    """The burst reached through one app (worker) is refused by another on the same
    database: the buckets are shared."""
    limits = Limits(host_change_burst=2)
    with make_client(sqlite_url, limits=limits) as one, \
            make_client(sqlite_url, limits=limits) as two:
        anna = new_player(one, "Anna")
        t = hosted(one, anna["key"], [{}, {"invite": "Ben"}])["table"]
        for listed in (True, False):
            assert listing(one, t, anna["key"], {"listed": listed}).status_code == 200
        r = listing(two, t, anna["key"], {"listed": True})
        body = problem(r, 429, "rate-limited")
        assert "change its tables 2 times at once" in body["detail"]
        assert int(r.headers["retry-after"]) >= 1
        assert view(one, t)["listed"] is False


def test_the_lobby_and_live_views_of_another_worker_follow(pg_url: str) -> None:
    """Listed through one worker: the other's lobby shows it and its WebSocket clients get
    the new view (LISTEN/NOTIFY, as for every seat change)."""
    with make_client(pg_url) as one, make_client(pg_url) as two:
        anna = new_player(one, "Anna")
        t = hosted(one, anna["key"], [{}, {"invite": "Ben"}])["table"]
        with two.websocket_connect(f"/api/tables/{t}/ws") as ws:
            first = ws.receive_json()
            assert first["type"] == "view" and first["view"]["listed"] is False
            assert listing(one, t, anna["key"], {"listed": True}).status_code == 200
            while not (got := ws.receive_json())["view"]["listed"]:
                assert got["type"] == "view"
            assert t in lobby_ids(two)
            assert listing(one, t, anna["key"], {"listed": False}).status_code == 200
            while (got := ws.receive_json())["view"]["listed"]:
                assert got["type"] == "view"
            assert t not in lobby_ids(two)


def test_invites_of_a_table_made_before_they_could_be_given_again(sqlite_url: str) -> None:
    """A table as the schema before migration 0010 wrote it (no host seat, every seat's
    token drawn at random, only its hash kept): its free seats' links cannot be derived
    again, and the answer says so instead of an empty list or a refusal."""
    engine = make_engine(sqlite_url)
    migrate(engine, "0009")
    tokens = [new_token() for _ in range(3)]
    now = time.time()  # made just now: not expired as unjoined by the first sweep
    with engine.connect().execution_options(write=True) as conn:
        conn.execute(insert(tables).values(
            id="old", game="scout", players=3, options={}, seed=3, listed=True,
            takeover_after=None, takeover_level="medium", status="playing", version=0,
            seat_rev=0, created_at=now, updated_at=now, result=None))
        conn.execute(insert(seats), [
            {"table_id": "old", "seat": k, "kind": "human", "level": None,
             "token_hash": hash_token(tok), "claimed": k == 0, "last_seen": now,
             "bot_playing": None} for k, tok in enumerate(tokens)])
        conn.commit()
    migrate(engine)  # upgraded to today's schema, the row as it was
    engine.dispose()
    with make_client(sqlite_url) as c:
        assert view(c, "old", tokens[0])["host_seat"] is None
        for tok in tokens[:2]:  # any person seated there may ask: it has no host
            r = c.get("/api/tables/old/invites", headers=auth(tok))
            assert r.status_code == 200, r.text
            got = r.json()
            assert got["invites"] == [] and got["unavailable"] == [1, 2] if tok == tokens[0] \
                else got["unavailable"] == [2]
        assert "P2 is free" in got["note"] and "made before" in got["note"]
        assert tokens[2] not in r.text
        problem(c.get("/api/tables/old/invites"), 401, "seat-token-required")
        # Its links from the creation still work; the lobby lists it as before.
        assert "old" in lobby_ids(c)
        assert view(c, "old", tokens[2])["seat"] == 2
        done = c.get("/api/tables/old/invites", headers=auth(tokens[0])).json()
        assert done == {"table": "old", "invites": [], "unavailable": [], "note": None}
    # A table of today has every free seat's link and no note.
    with make_client(sqlite_url) as c:
        anna = new_player(c, "Anna")
        t = hosted(c, anna["key"], [{}, {"invite": "Ben"}])["table"]
        now = c.get(f"/api/tables/{t}/invites", headers=auth(anna["key"])).json()
        assert [i["seat"] for i in now["invites"]] == [1]
        assert now["unavailable"] == [] and now["note"] is None


def test_a_stranger_from_the_lobby_is_not_called_by_the_invite_name(
        client: TestClient) -> None:
    """The host lists a table whose free seat waits for Ben; a stranger takes it from the
    lobby: that seat is no longer Ben's and is not called Ben (it was, in every view)."""
    anna = new_player(client, "Anna")
    made = hosted(client, anna["key"], [{}, {"invite": "Ben"}])
    t = made["table"]
    assert listing(client, t, anna["key"], {"listed": True}).status_code == 200
    joined = client.post(f"/api/tables/{t}/join").json()
    assert joined["seat"] == 1
    seen = view(client, t, joined["token"])
    assert seen["seats"][1]["invite"] is None and seen["names"] == ["Anna", "P1"]
    assert seen["status"] == "playing"


def test_a_rematch_keeps_the_invite_names(sqlite_url: str) -> None:
    """A friend who plays by their invite link alone (no identity) is still called by the
    name they were invited by at the rematch (they were "P0" there)."""
    with make_client(sqlite_url) as c:
        made = hosted(c, None, [{}, {"invite": "Ben"}], options={"rounds": 1})
        t, tokens = made["table"], [s["token"] for s in made["seats"]]
        for tok in tokens:
            view(c, t, tok)  # both arrived: the game starts
        while (v := view(c, t))["status"] == "playing":
            p = v["current_player"]
            r = c.post(f"/api/tables/{t}/moves", json={"version": v["version"], "index": 0},
                       headers=auth(tokens[p]))
            assert r.status_code == 200, r.text
        again = c.post(f"/api/tables/{t}/rematch", headers=auth(tokens[1])).json()
        assert again["seat"] == 0  # seats rotated: Ben sits at seat 0 now
        assert view(c, again["table"])["names"] == ["Ben", "P1"]
