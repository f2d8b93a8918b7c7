"""Ratings: rated tables between identities update each person's per-game openskill rating
in the transaction that records the end (the last move, or a loss on time); bots are fixed
anchors; GET /api/ratings/{game} and the ratings in GET /api/players/me; every error."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from bigtop.server import Limits
from bigtop.server.db import make_engine, migrate
from bigtop.server.master import TableMaster
from bigtop.server.model import MoveRecord, Player, SeatSpec, TableSpec
from bigtop.server.ratings import ANCHORS, MU, SIGMA, RatingUpdate
from bigtop.server.settings import Settings
from bigtop.server.storage import Guard, SqlStorage
from tests.server.conftest import drawn_seed, make_client
from tests.server.test_api import auth, problem, wait_for

QUICK = Limits(min_clock_seconds=0.05)


def new_player(c: TestClient, name: str) -> dict[str, Any]:
    r = c.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def rated_table(c: TestClient, key: str, **body: Any) -> dict[str, Any]:
    body = {"game": "scout", "players": 2, "rated": True, **body}
    with drawn_seed(11):
        r = c.post("/api/tables", json=body, headers=auth(key))
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def board(c: TestClient, game: str = "scout") -> dict[str, Any]:
    r = c.get(f"/api/ratings/{game}")
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


# -- errors ---------------------------------------------------------------------------------
def test_a_rated_table_needs_a_player_key(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "scout", "players": 2, "rated": True})
    assert "player key" in problem(r, 401, "player-key-required")["detail"]
    anna = new_player(client, "Anna")
    r = client.post("/api/tables", json={"game": "scout", "players": 2, "rated": True,
                                         "seed": 5, "listed": False,
                                         "seats": [{}, {"kind": "bot", "level": "easy"}]},
                    headers=auth(anna["key"]))
    assert "seed" in problem(r, 422, "invalid")["detail"]
    r = client.post("/api/tables", json={"game": "scout", "players": 2, "rated": "yes"},
                    headers=auth(anna["key"]))
    problem(r, 422, "invalid")
    assert client.get("/api/lobby").json()["tables"] == []  # nothing created


def test_a_rated_seat_is_taken_with_a_player_key(client: TestClient) -> None:
    anna = new_player(client, "Anna")
    table = rated_table(client, anna["key"])["table"]
    r = client.post(f"/api/tables/{table}/join", json={"seat": 1})
    problem(r, 401, "player-key-required")
    view = client.get(f"/api/tables/{table}").json()
    assert not view["seats"][1]["claimed"] and view["rated"] is True
    ben = new_player(client, "Ben")
    r = client.post(f"/api/tables/{table}/join", json={"seat": 1}, headers=auth(ben["key"]))
    assert r.status_code == 200, r.text


def test_an_unknown_game_has_no_leaderboard(client: TestClient) -> None:
    problem(client.get("/api/ratings/chess"), 404, "not-found")
    empty = board(client)
    assert empty["players"] == []
    assert [a["level"] for a in empty["anchors"]] == ["hard", "medium", "easy", "random"]
    hard = empty["anchors"][0]
    assert hard["mu"] == ANCHORS["hard"] and hard["ordinal"] == hard["mu"] - 3 * hard["sigma"]


# -- rating ---------------------------------------------------------------------------------
def test_a_loss_on_time_rates_both_identities(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=QUICK) as c:
        anna, ben = new_player(c, "Anna"), new_player(c, "Ben")
        table = rated_table(c, anna["key"], clock={"per_move_seconds": 0.3},
                            on_timeout="lose")["table"]
        assert c.post(f"/api/tables/{table}/join", json={"seat": 1},
                      headers=auth(ben["key"])).status_code == 200
        v = wait_for(c, table, lambda v: v["status"] == "finished")
        late = v["result"]["timed_out"]
        loser, winner = (anna, ben) if late == 0 else (ben, anna)
        rows = board(c)["players"]
        assert [r["player"] for r in rows] == [winner["id"], loser["id"]]
        assert [r["rank"] for r in rows] == [1, 2]
        assert rows[0]["mu"] > MU > rows[1]["mu"]
        assert all(r["games"] == 1 and r["provisional"] and r["sigma"] < SIGMA for r in rows)
        assert rows[0]["name"] == winner["name"]
        me = c.get("/api/players/me", headers=auth(loser["key"])).json()
        assert me["ratings"] == [{"game": "scout", "mu": rows[1]["mu"],
                                  "sigma": rows[1]["sigma"], "ordinal": rows[1]["ordinal"],
                                  "games": 1, "provisional": True}]
        assert me["tables"][0]["rated"] is True


def test_a_game_played_to_its_end_rates_the_person_against_a_fixed_bot(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(provisional_games=1)) as c:
        anna = new_player(c, "Anna")
        made = rated_table(c, anna["key"], options={"rounds": 1}, listed=False,
                           seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])
        table = made["table"]
        view = c.get(f"/api/tables/{table}", headers=auth(anna["key"])).json()
        while view["status"] == "playing":
            if view["current_player"] == 0 and view["legal_actions"]:
                r = c.post(f"/api/tables/{table}/moves", headers=auth(anna["key"]),
                           json={"version": view["version"], "index": 0})
                assert r.status_code in (200, 409), r.text
            view = wait_for(c, table, lambda v: v["status"] != "playing"
                            or (v["current_player"] == 0 and bool(v["legal_actions"])),
                            anna["key"])
        assert view["status"] == "finished"
        (row,) = board(c)["players"]
        assert row["player"] == anna["id"] and row["games"] == 1
        assert not row["provisional"]  # provisional_games=1
        assert (row["mu"] > MU) == (view["result"]["ranking"][0] == 1)
        # The bot's anchor never moves.
        assert board(c)["anchors"][-1] == {"level": "random", "mu": ANCHORS["random"],
                                           "sigma": 1.0, "ordinal": ANCHORS["random"] - 3.0}


def test_a_seat_held_without_an_identity_leaves_the_game_unrated(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=QUICK) as c:
        anna = new_player(c, "Anna")
        made = rated_table(c, anna["key"], clock={"per_move_seconds": 0.3},
                           on_timeout="lose", listed=False)
        table, invite = made["table"], made["seats"][1]["token"]
        v = c.get(f"/api/tables/{table}", headers=auth(invite)).json()  # a token alone
        assert v["rated"] is False
        wait_for(c, table, lambda v: v["status"] == "finished")
        assert board(c)["players"] == []


@pytest.mark.parametrize("holds", [False, True])
def test_ratings_change_only_in_the_transaction_that_stores_the_end(
        db_url: str, holds: bool) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    storage = SqlStorage(engine)
    master = TableMaster(storage, Settings(db_url=db_url))
    storage.create_player(Player("anna", "Anna", 0.0), "k" * 64)
    made = master.create(TableSpec("scout", 2, seats=(SeatSpec("bot", "random"),
                                                      SeatSpec("bot", "easy"))))
    version = master.load(made.table_id).version
    update = RatingUpdate("scout", (("anna", None), (None, "easy")), (1, 2))
    # A guard that misses (an old version: another move came first) stores nothing, the
    # rating included.
    guard = Guard(version if holds else version + 5, 0, 1, bot="easy")
    stored = storage.append_moves(
        made.table_id, guard, [MoveRecord(version, 1, {"x": 1}, "x")], status="finished",
        result={"ranking": [1, 2]}, now=1.0, rating=update)
    assert stored is holds
    rows = storage.player_ratings("anna")
    if holds:
        assert len(rows) == 1 and rows[0].games == 1 and rows[0].mu > MU
    else:
        assert rows == []
