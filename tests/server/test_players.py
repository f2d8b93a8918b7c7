"""Players (identities without passwords): creating, renaming, my tables, a key that opens
its seats on any device, names in views; every error (on SQLite through the ASGI app; the
storage on PostgreSQL too)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from bigtop.server import Limits
from bigtop.server.db import make_engine, migrate
from bigtop.server.master import TableMaster
from bigtop.server.model import MoveRecord, SeatSpec, TableSpec, hash_token
from bigtop.server.settings import Settings
from bigtop.server.storage import Guard, SqlStorage
from tests.server.conftest import drawn_seed, make_client
from tests.server.test_api import auth, create, problem, wait_for


def new_player(c: TestClient, name: str = "Anna") -> dict[str, Any]:
    r = c.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def test_create_a_player_and_see_yourself(client: TestClient) -> None:
    anna = new_player(client, "  Anna <b>x</b> ")
    assert set(anna) == {"id", "name", "key"}
    assert anna["name"] == "Anna <b>x</b>"  # trimmed, kept as plain text (never markup)
    assert len(anna["key"]) == 22  # 128 bits
    me = client.get("/api/players/me", headers=auth(anna["key"])).json()
    assert me == {"id": anna["id"], "name": anna["name"], "tables": [], "ratings": []}
    ben = new_player(client, "Anna <b>x</b>")  # names need not be unique; ids and keys are
    assert ben["id"] != anna["id"] and ben["key"] != anna["key"]


def test_the_key_is_stored_hashed(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        anna = new_player(c)
    engine = make_engine(sqlite_url)
    with engine.connect() as conn:
        dump = "\n".join(conn.connection.driver_connection.iterdump())  # type: ignore[union-attr]
    assert anna["key"] not in dump and anna["id"] in dump


@pytest.mark.parametrize("name, why", [
    ("", "empty"), ("   ", "empty"), ("x" * 33, "at most 32"),
    ("A\nB", "control"), ("A\tB", "control"), ("A\u202eB", "control"), ("A\x00", "control"),
])
def test_bad_names_are_refused(client: TestClient, name: str, why: str) -> None:
    body = problem(client.post("/api/players", json={"name": name}), 422, "invalid")
    assert why in body["detail"]


def test_malformed_bodies_are_refused(client: TestClient) -> None:
    problem(client.post("/api/players", json={}), 422, "invalid")
    problem(client.post("/api/players", json={"name": 5}), 422, "invalid")
    problem(client.post("/api/players", json={"name": "A", "admin": True}), 422, "invalid")
    problem(client.post("/api/players", content=b"{", headers={
        "content-type": "application/json"}), 400, "bad-request")


def test_a_name_fits_the_configured_bound(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(max_name_chars=3)) as c:
        assert new_player(c, "Ann")["name"] == "Ann"
        problem(c.post("/api/players", json={"name": "Anna"}), 422, "invalid")


def test_me_needs_a_known_key(client: TestClient) -> None:
    problem(client.get("/api/players/me"), 401, "player-key-required")
    problem(client.get("/api/players/me", headers=auth("nope")), 401, "player-key-required")
    problem(client.get("/api/players/me", headers={"authorization": "Basic eA=="}), 401,
            "player-key-required")
    problem(client.patch("/api/players/me", json={"name": "X"}, headers=auth("nope")), 401,
            "player-key-required")
    anna = new_player(client)
    problem(client.get("/api/players/me?token=" + anna["key"]), 400, "token-in-url")


def test_rename(client: TestClient) -> None:
    anna = new_player(client)
    r = client.patch("/api/players/me", json={"name": " Anne "}, headers=auth(anna["key"]))
    assert r.status_code == 200 and r.json() == {"id": anna["id"], "name": "Anne"}
    assert client.get("/api/players/me", headers=auth(anna["key"])).json()["name"] == "Anne"
    problem(client.patch("/api/players/me", json={"name": "x" * 40},
                         headers=auth(anna["key"])), 422, "invalid")
    problem(client.patch("/api/players/me", json={"name": "A\x07"},
                         headers=auth(anna["key"])), 422, "invalid")
    assert client.get("/api/players/me", headers=auth(anna["key"])).json()["name"] == "Anne"


def test_renames_are_rate_limited_per_client_address(sqlite_url: str) -> None:
    """Regression: ``PATCH /api/players/me`` had no rate: one key renamed as fast as it
    could send, each rename a write to every open table its identity sits at and a new view
    to every socket there. Now it is bounded like a host's listing changes."""
    limits = Limits(renames_per_hour=0.001, rename_burst=2)
    with make_client(sqlite_url, limits=limits) as c:
        anna = new_player(c)
        # A table where she sits, so a rename has something to change.
        assert c.post("/api/tables", json={"game": "scout", "players": 2},
                      headers=auth(anna["key"])).status_code == 201
        for name in ("Anne", "Annie"):
            r = c.patch("/api/players/me", json={"name": name}, headers=auth(anna["key"]))
            assert r.status_code == 200, r.text
        # A bad name costs nothing (refused before the rate is counted).
        problem(c.patch("/api/players/me", json={"name": ""}, headers=auth(anna["key"])),
                422, "invalid")
        refused = problem(c.patch("/api/players/me", json={"name": "Ann"},
                                  headers=auth(anna["key"])), 429, "rate-limited")
        assert refused["retry_after"] >= 1
        assert c.get("/api/players/me", headers=auth(anna["key"])).json()["name"] == "Annie"
        # Another address has its own allowance (for another identity: an identity has
        # the same allowance of its own, test_attack_repeats.py).
        other = TestClient(c.app, client=("203.0.113.5", 4000))
        ben = new_player(other)
        assert other.patch("/api/players/me", json={"name": "Ben"},
                           headers=auth(ben["key"])).status_code == 200
    assert Limits().rename_burst > 0 and Limits().renames_per_hour > 0


def test_creating_players_is_rate_limited_per_client_address(sqlite_url: str) -> None:
    limits = Limits(new_players_per_hour=0.001, new_player_burst=2)
    with make_client(sqlite_url, limits=limits) as c:
        new_player(c)
        new_player(c)
        problem(c.post("/api/players", json={"name": "C"}), 429, "rate-limited")
        # Another address has its own allowance.
        other = TestClient(c.app, client=("203.0.113.5", 4000))
        assert other.post("/api/players", json={"name": "D"}).status_code == 201
        problem(c.post("/api/players", json={"name": "E"}), 429, "rate-limited")


def test_a_table_created_with_a_key_seats_its_creator_and_names_the_seat(
        client: TestClient) -> None:
    anna = new_player(client)
    r = client.post("/api/tables", json={"game": "scout", "players": 2, "seats": [
        {"kind": "bot", "level": "random"}, {"kind": "human"}]}, headers=auth(anna["key"]))
    assert r.status_code == 201, r.text
    made = r.json()
    t = made["table"]
    view = client.get(f"/api/tables/{t}").json()
    assert [s["name"] for s in view["seats"]] == [None, "Anna"]
    # The key opens the creator's seat (another device has no seat token): her view.
    mine = client.get(f"/api/tables/{t}", headers=auth(anna["key"])).json()
    assert mine["seat"] == 1
    assert mine == client.get(f"/api/tables/{t}", headers=auth(made["seats"][1]["token"])).json()
    # A rename shows at once at her open tables.
    client.patch("/api/players/me", json={"name": "Anne"}, headers=auth(anna["key"]))
    assert client.get(f"/api/tables/{t}").json()["seats"][1]["name"] == "Anne"


def test_creating_with_an_unknown_key_is_refused(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "scout", "players": 2},
                    headers=auth("unknown"))
    problem(r, 401, "player-key-required")
    assert client.get("/api/lobby").json()["tables"] == []


def test_joining_with_a_key(client: TestClient) -> None:
    anna, ben = new_player(client), new_player(client, "Ben")
    with drawn_seed(1):  # a seed no client may choose at a table with people
        # Started at once ("wait": false): the seat's turn is checked below, not the wait.
        made = client.post("/api/tables", json={"game": "scout", "players": 3, "wait": False},
                           headers=auth(anna["key"])).json()
    t = made["table"]
    problem(client.post(f"/api/tables/{t}/join", headers=auth(anna["key"])), 409, "conflict")
    problem(client.post(f"/api/tables/{t}/join", headers=auth("nope")), 401,
            "player-key-required")
    joined = client.post(f"/api/tables/{t}/join", headers=auth(ben["key"]))
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    problem(client.post(f"/api/tables/{t}/join", headers=auth(ben["key"])), 409, "conflict")
    assert [s["name"] for s in client.get(f"/api/tables/{t}").json()["seats"]] == [
        "Anna", "Ben", None]
    # Ben's key is his seat, and only his: Anna's key is not Ben's seat.
    assert client.get(f"/api/tables/{t}", headers=auth(ben["key"])).json()["seat"] == 1
    r = client.post(f"/api/tables/{t}/moves", json={"version": 0, "index": 0},
                    headers=auth(ben["key"]))
    problem(r, 409, "not-your-turn")
    # A key of nobody at this table is refused like a wrong seat token.
    carl = new_player(client, "Carl")
    problem(client.get(f"/api/tables/{t}", headers=auth(carl["key"])), 403, "wrong-token")


def test_my_tables_your_turn_waiting_finished(client: TestClient) -> None:
    anna = new_player(client)
    key = auth(anna["key"])
    bots = [{"kind": "human"}, {"kind": "bot", "level": "random"}]

    def table(seed: int, **extra: Any) -> str:
        with drawn_seed(seed):  # a seed no client may choose at a listed table
            r = client.post("/api/tables", json={"game": "scout", "players": 2, "seats": bots,
                                                 **extra}, headers=key)
        assert r.status_code == 201, r.text
        return str(r.json()["table"])

    old_turn = table(seed=1)
    finished = table(seed=2, options={"rounds": 1})  # played out below
    new_turn = table(seed=3)
    other = create(client)["table"]  # not hers: never listed
    while True:  # the finished table: one round against the bot
        v = wait_for(client, finished, lambda v: v["status"] != "playing"
                     or v["legal_actions"], token=anna["key"])
        if v["status"] != "playing":
            break
        client.post(f"/api/tables/{finished}/moves", json={
            "version": v["version"], "index": 0}, headers=key)
    # A waiting table: Anna moved; the other person is to move.
    with drawn_seed(5):
        r = client.post("/api/tables", json={"game": "scout", "players": 2, "wait": False,
                                             "seats": [{"kind": "human"}, {"kind": "human"}]},
                        headers=key)
    waiting = r.json()["table"]
    while (v := client.get(f"/api/tables/{waiting}", headers=key).json())["legal_actions"]:
        client.post(f"/api/tables/{waiting}/moves", json={"version": v["version"], "index": 0},
                    headers=key)
    assert v["current_player"] == 1
    me = client.get("/api/players/me", headers=key).json()
    got = [(t["table"], t["state"]) for t in me["tables"]]
    assert got[:2] == [(new_turn, "your_turn"), (old_turn, "your_turn")]
    assert got[2:] == [(waiting, "waiting"), (finished, "finished")]
    assert other not in {t for t, _ in got}
    entry = me["tables"][0]
    assert entry["seat"] == 0 and entry["status"] == "playing"
    assert entry["seats"][0]["name"] == "Anna"
    assert me["tables"][3]["status"] == "finished"


def test_my_tables_are_bounded(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(max_my_tables=2)) as c:
        anna = new_player(c)
        made = [c.post("/api/tables", json={"game": "scout", "players": 2},
                       headers=auth(anna["key"])).json()["table"] for _ in range(3)]
        got = [t["table"] for t in c.get("/api/players/me",
                                         headers=auth(anna["key"])).json()["tables"]]
        assert got == made[:0:-1]


def test_players_on_each_storage(db_url: str) -> None:
    """The storage's part on SQLite and PostgreSQL: identities, seats, renames, my tables."""
    engine = make_engine(db_url)
    migrate(engine)
    master = TableMaster(SqlStorage(engine), Settings(db_url=db_url))
    anna, key = master.new_player("Anna")
    assert master.player(key) == anna
    made = master.create(TableSpec("scout", 2, player_id=anna.id,
                                   seats=(SeatSpec(), SeatSpec())))
    t = master.load(made.table_id)
    assert [s.name for s in t.seats] == ["Anna", None]
    assert master.seat_of(t, key) == 0
    ben, _ = master.new_player("Ben")
    assert master.join(made.table_id, None, ben)[0] == 1
    renamed, changed = master.rename(ben, "Benno")
    assert changed == [made.table_id] and renamed.name == "Benno"
    assert [s.name for s in master.load(made.table_id).seats] == ["Anna", "Benno"]
    assert [(x.table_id, seat) for x, seat in master.player_tables(ben)] == [
        (made.table_id, 1)]
    # A second seat at one table for one identity is refused in the storage too.
    other = master.create(TableSpec("scout", 3, player_id=anna.id))
    token = "x" * 22
    assert master.storage.take_free_seat(other.table_id, 1, hash_token(token), 0.0, anna.id) \
        is False
    assert master.storage.take_free_seat(other.table_id, 1, hash_token(token), 0.0, ben.id)


def test_a_move_by_player_key_is_checked_in_the_storing_transaction(db_url: str) -> None:
    """The key opens its identity's seat for moves too, and the transaction that stores a
    move checks it (the guarded UPDATE accepts the seat's token or its identity's key)."""
    engine = make_engine(db_url)
    migrate(engine)
    master = TableMaster(SqlStorage(engine), Settings(db_url=db_url))
    anna, key = master.new_player("Anna")
    made = master.create(TableSpec("scout", 2, player_id=anna.id,
                                   seats=(SeatSpec(), SeatSpec()), wait=False))
    t = made.table_id
    while (loaded := master.load(t)).state.current_player() != 0:
        master.play(t, 1, loaded.version, {"index": 0}, token=made.tokens[1])
    done = master.play(t, 0, loaded.version, {"index": 0}, token=key)
    assert done.version > loaded.version
    assert master.load(t).version == done.version
    # A secret that is neither the seat's token nor its identity's key: nothing stored.
    later = master.load(t)
    nobody = Guard(later.version, later.meta.seat_rev, 1, token_hash=hash_token("x" * 22))
    assert master.storage.append_moves(
        t, nobody, [MoveRecord(later.version, 1, {"x": 1}, "x")], status="playing",
        result=None, now=0.0) is False
    assert master.load(t).version == later.version
