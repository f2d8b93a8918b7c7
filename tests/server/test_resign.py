"""Resigning: a person gives up (``POST /api/tables/{id}/resign``). The game ends there, the
one who resigned places last and everyone else shares first (a rated table rates it so);
the host of a table still waiting for people closes it so, unplayed. Either way the table
stops counting among its creator's open tables, so a person who left many games unfinished
is never locked out of making new ones. Every refusal changes nothing; the write is guarded
by the table's version and seat revision on every worker (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from bigtop.server import Limits
from bigtop.server.ratings import MU
from tests.server.conftest import make_client
from tests.server.test_api import auth, create, problem
from tests.server.test_clocks import view_of
from tests.server.test_ratings import board, new_player, rated_table
from tests.server.test_undo import move


def resign(c: TestClient, table: str, token: str) -> dict[str, Any]:
    r = c.post(f"/api/tables/{table}/resign", headers=auth(token))
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_resigning_against_bots_ends_the_game_with_the_person_last(client: TestClient) -> None:
    made = create(client, players=3, seats=[{}, {"kind": "bot", "level": "random"},
                                             {"kind": "bot", "level": "random"}])
    t, tok = made["table"], made["seats"][0]["token"]
    move(client, t, tok)
    v = resign(client, t, tok)
    assert v["status"] == "finished" and v["seed"] is not None  # the seed is revealed
    result = v["result"]
    assert result["ending"] == "resigned" and result["resigned"] == 0
    assert result["ranking"] == [3, 1, 1] and result["winners"] == [1, 2]
    assert v["log"][-1]["kind"] == "resign"
    assert v["log"][-1]["text"] == "P0 resigned and places last: the game ends"
    # A spectator sees the same end; nothing more can be played or resigned.
    public = view_of(client, t)
    assert public["status"] == "finished" and public["result"] == result
    problem(client.post(f"/api/tables/{t}/moves", headers=auth(tok),
                        json={"version": v["version"], "index": 0}), 409, "game-over")
    problem(client.post(f"/api/tables/{t}/resign", headers=auth(tok)), 409, "game-over")
    assert view_of(client, t)["version"] == v["version"]
    # The replay and the export of the game as it stopped still work.
    assert client.get(f"/api/tables/{t}/replay").status_code == 200
    assert client.get(f"/api/tables/{t}/export").status_code == 200


def test_a_resigned_table_no_longer_counts_as_open(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(max_open_tables_per_client=1)) as c:
        bots = [{}, {"kind": "bot", "level": "random"}]
        first = create(c, seats=bots)
        r = c.post("/api/tables", json={"game": "scout", "players": 2, "seats": bots})
        assert "open tables" in problem(r, 429, "rate-limited")["detail"]
        resign(c, first["table"], first["seats"][0]["token"])
        create(c, seats=bots)  # room again


def test_refusals_change_nothing(client: TestClient) -> None:
    made = create(client)  # two people
    t, anna, ben = made["table"], made["seats"][0]["token"], made["seats"][1]["token"]
    for tok in (anna, ben):
        client.get(f"/api/tables/{t}", headers=auth(tok))
    before = view_of(client, t)
    url = f"/api/tables/{t}/resign"
    problem(client.post(url), 401, "seat-token-required")
    problem(client.post(url, headers=auth("x" * 22)), 403, "wrong-token")
    problem(client.post("/api/tables/nope/resign", headers=auth(anna)), 404, "not-found")
    after = view_of(client, t)
    assert after["version"] == before["version"] and after["status"] == "playing"
    assert after["log"] == before["log"]
    # Either person may resign; the other then wins alone.
    v = resign(client, t, ben)
    assert v["result"]["ranking"] == [1, 2] and v["result"]["winners"] == [0]
    problem(client.post(url, headers=auth(anna)), 409, "game-over")


def test_only_the_host_closes_a_waiting_table(client: TestClient) -> None:
    anna = client.post("/api/players", json={"name": "Anna"}).json()
    ben = client.post("/api/players", json={"name": "Ben"}).json()
    r = client.post("/api/tables", json={"game": "scout", "players": 3,
                                         "seats": [{}, {"invite": "Ben"}, {"invite": "Cid"}]},
                    headers=auth(anna["key"]))
    assert r.status_code == 201, r.text
    made = r.json()
    t = made["table"]
    claimed = client.post(f"/api/tables/{t}/claim", json={"token": made["seats"][1]["token"]},
                          headers=auth(ben["key"]))
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["status"] == "waiting"  # Cid has not come
    problem(client.post(f"/api/tables/{t}/resign", headers=auth(ben["key"])), 403, "not-host")
    assert view_of(client, t)["status"] == "waiting"
    v = resign(client, t, anna["key"])
    assert v["status"] == "expired" and v["result"] is None
    assert v["log"][-1]["text"] == "Anna closed the table before the game started"
    # Cid's invite now opens a closed table: nothing to sit down to.
    cid = client.post("/api/players", json={"name": "Cid"}).json()
    r = client.post(f"/api/tables/{t}/claim", json={"token": made["seats"][2]["token"]},
                    headers=auth(cid["key"]))
    assert r.status_code == 409, r.text


def test_a_rated_resignation_rates_both_identities(client: TestClient) -> None:
    anna, ben = new_player(client, "Anna"), new_player(client, "Ben")
    table = rated_table(client, anna["key"])["table"]
    assert client.post(f"/api/tables/{table}/join", json={"seat": 1},
                       headers=auth(ben["key"])).status_code == 200
    keys = {0: anna["key"], 1: ben["key"]}
    movers: set[int] = set()
    while movers != {0, 1}:  # each has moved (turning a hand is a move of one's own turn)
        view = client.get(f"/api/tables/{table}").json()
        movers.add(view["current_player"])
        move(client, table, keys[view["current_player"]])
    resign(client, table, anna["key"])
    rows = board(client)["players"]
    assert [r["player"] for r in rows] == [ben["id"], anna["id"]]
    assert rows[0]["mu"] > MU > rows[1]["mu"]
    assert all(r["games"] == 1 for r in rows)


def test_a_stale_worker_cannot_resign_over_a_newer_move(db_url: str) -> None:
    with make_client(db_url) as a, make_client(db_url) as b:
        made = create(a)
        t, tokens = made["table"], [s["token"] for s in made["seats"]]
        for tok in tokens:
            a.get(f"/api/tables/{t}", headers=auth(tok))
        b.get(f"/api/tables/{t}", headers=auth(tokens[0]))  # B holds the table too
        mover = view_of(a, t)["current_player"]
        move(a, t, tokens[mover])
        # B hears of the move (NOTIFY, or its next load) and resigns on the new version.
        v = resign(b, t, tokens[1 - mover])
        assert v["status"] == "finished" and v["result"]["resigned"] == 1 - mover
        assert view_of(a, t)["result"] == v["result"]
        assert [e["kind"] for e in v["log"]].count("move") == 1


def test_a_rated_game_given_up_before_everyone_moved_is_not_rated(client: TestClient) -> None:
    """Else two identities of one person traded wins at once (resign, rematch, resign)."""
    anna, ben = new_player(client, "Anna"), new_player(client, "Ben")
    table = rated_table(client, anna["key"])["table"]
    assert client.post(f"/api/tables/{table}/join", json={"seat": 1},
                       headers=auth(ben["key"])).status_code == 200
    v = resign(client, table, ben["key"])
    assert v["status"] == "finished" and v["result"]["resigned"] == 1
    assert v["log"][-1]["text"].endswith("(unrated: not everyone had moved)")
    assert board(client)["players"] == []
