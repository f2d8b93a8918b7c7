"""Clocks: time controls on tables, the server the only timekeeper. Every error of the clock
spec; the clock starting once every person has arrived; a move's time charged to the
mover's game clock with its increment; a move after the deadline refused; time-outs acted
on by the sweep (a bot plays on, or the seat loses and the game ends there); the clock
state surviving a new app on the same database and shared by two apps (SQLite and
PostgreSQL); with invites and undo: a waiting table's clock starting when it starts (claim or
the host's start), a take-back restarting the clock, a rated table refusing one, a time-out
line naming the person, a rematch keeping the clock. Deadlines here are short
(``min_clock_seconds`` lowered); no test asserts on wall time beyond generous bounds."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bigtop.server import Limits
from bigtop.server.clocks import Clock, time_out_result
from bigtop.server.db import make_engine, migrate
from bigtop.server.master import TableMaster
from bigtop.server.model import SeatSpec, TableSpec
from bigtop.server.settings import Settings
from bigtop.server.storage import SqlStorage
from tests.server.conftest import drawn_seed, make_client
from tests.server.test_api import auth, create, problem, wait_for

QUICK = Limits(min_clock_seconds=0.05)
"""Clocks of a fraction of a second allowed (the tests' own bound)."""
NO_SWEEP = 3600.0
"""A sweep period no test waits for: the sweep runs once as the app starts, then not
again (for what must happen before any sweep acts)."""


def new_player(c: TestClient, name: str) -> str:
    r = c.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    key: str = r.json()["key"]
    return key


def two_people(c: TestClient, clock: dict[str, Any], **body: Any) -> tuple[str, list[str]]:
    """A SCOUT table of two people who have both arrived (their clock runs): its id and
    the two seat tokens."""
    made = create(c, clock=clock, **body)
    tokens = [s["token"] for s in made["seats"]]
    for t in tokens:
        c.get(f"/api/tables/{made['table']}", headers=auth(t))
    return made["table"], tokens


def view_of(c: TestClient, table: str, token: str | None = None) -> dict[str, Any]:
    r = c.get(f"/api/tables/{table}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


# -- the spec -------------------------------------------------------------------------------
@pytest.mark.parametrize(("body", "says"), [
    ({"clock": {}}, "per_move_seconds or game_seconds"),
    ({"clock": {"increment_seconds": 5}}, "per_move_seconds or game_seconds"),
    ({"clock": {"per_move_seconds": 1}}, "per_move_seconds must be 5 to"),
    ({"clock": {"per_move_seconds": 10**9}}, "per_move_seconds must be 5 to"),
    ({"clock": {"per_move_seconds": -60}}, "per_move_seconds must be 5 to"),
    ({"clock": {"game_seconds": 4.5}}, "game_seconds must be 5 to"),
    ({"clock": {"game_seconds": 10**9}}, "game_seconds must be 5 to"),
    ({"clock": {"per_move_seconds": 60, "increment_seconds": 5}}, "give game_seconds too"),
    ({"clock": {"game_seconds": 600, "increment_seconds": -1}}, "increment_seconds must be"),
    ({"clock": {"game_seconds": 600, "increment_seconds": 10**9}},
     "increment_seconds must be"),
    ({"clock": {"per_move_seconds": 60, "per_moves": 5}}, None),
    ({"clock": {"per_move_seconds": "60"}}, None),
    ({"clock": 60}, None),
    ({"clock": {"per_move_seconds": 60}, "on_timeout": "draw"}, None),
])
def test_a_bad_clock_is_refused_and_creates_nothing(client: TestClient, body: dict[str, Any],
                                                    says: str | None) -> None:
    r = client.post("/api/tables", json={"game": "scout", "players": 2, **body})
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    if says is not None:
        assert says in r.json()["detail"]
    assert client.get("/api/lobby").json()["tables"] == []


def test_the_clock_bounds_are_settings(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(min_clock_seconds=1,
                                               max_per_move_seconds=10)) as c:
        ok = c.post("/api/tables", json={"game": "scout", "players": 2,
                                         "clock": {"per_move_seconds": 1}})
        assert ok.status_code == 201, ok.text
        r = c.post("/api/tables", json={"game": "scout", "players": 2,
                                        "clock": {"per_move_seconds": 11}})
        assert "must be 1 to 10 seconds" in problem(r, 422, "invalid")["detail"]
        assert c.get("/api/games").json()["limits"]["max_per_move_seconds"] == 10


def test_clock_arithmetic() -> None:
    both = Clock(per_move=30.0, game=100.0, increment=2.0)
    assert both.allowance(100.0) == 30.0 and both.allowance(12.0) == 12.0
    assert both.allowance(0.0) == 0.0
    assert both.left_after(100.0, used=10.0) == 92.0
    assert both.left_after(5.0, used=10.0) == 2.0  # never below zero, then the increment
    assert Clock(game=100.0).allowance(None) == Clock().allowance(None) == float("inf")
    assert time_out_result([1.0, 2.0, 3.0, 4.0], 3) == {
        "ending": "time", "timed_out": 3, "ranking": [1, 1, 1, 4], "winners": [0, 1, 2],
        "scores": [1.0, 2.0, 3.0, 4.0]}


# -- running --------------------------------------------------------------------------------
def test_the_clock_starts_when_everyone_has_arrived(client: TestClient) -> None:
    made = create(client, clock={"per_move_seconds": 60})
    table, tokens = made["table"], [s["token"] for s in made["seats"]]
    v = view_of(client, table, tokens[0])
    assert v["clock"] == {"per_move_seconds": 60.0, "game_seconds": None,
                          "increment_seconds": 0.0, "on_timeout": "bot"}
    state = v["clock_state"]
    assert state["running"] is None and state["deadline"] is None  # seat 1 not here yet
    assert isinstance(v["now"], float)
    v = view_of(client, table, tokens[1])
    state = v["clock_state"]
    assert state["running"] == v["current_player"]
    assert state["deadline"] - state["turn_started"] == pytest.approx(60.0)
    assert state["turn_started"] <= v["now"] < state["deadline"]
    assert state["left"] == [None, None] and state["timed_out"] == []
    # A table without a clock says so.
    plain = create(client)
    v = view_of(client, plain["table"])
    assert v["clock"] is None and v["clock_state"] is None and v["now"] is None
    listed = {t["table"]: t for t in client.get("/api/lobby").json()["tables"]}
    assert listed[plain["table"]]["clock"] is None and not listed[plain["table"]]["rated"]


def test_a_move_is_charged_to_the_game_clock_with_its_increment(client: TestClient) -> None:
    table, tokens = two_people(client, {"game_seconds": 600, "increment_seconds": 5})
    v = view_of(client, table, tokens[0])
    mover = v["current_player"]
    assert v["clock_state"]["left"] == [600.0, 600.0]
    after = client.post(f"/api/tables/{table}/moves", headers=auth(tokens[mover]),
                        json={"version": v["version"], "index": 0}).json()
    state = after["clock_state"]
    left = state["left"]
    assert 600.0 < left[mover] <= 605.0  # the move took some time, the increment came back
    assert left[1 - mover] == 600.0
    if after["current_player"] == 1 - mover:
        assert state["running"] == 1 - mover
        assert state["deadline"] - state["turn_started"] == pytest.approx(600.0)


def test_a_move_after_the_deadline_is_refused(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=QUICK, sweep_seconds=NO_SWEEP) as c:
        table, tokens = two_people(c, {"per_move_seconds": 0.2})
        v = view_of(c, table, tokens[0])
        time.sleep(0.3)
        r = c.post(f"/api/tables/{table}/moves", headers=auth(tokens[v["current_player"]]),
                   json={"version": v["version"], "index": 0})
        assert "time ran out" in problem(r, 409, "time-ran-out")["detail"]
        assert view_of(c, table)["version"] == v["version"]  # nothing stored


def test_on_time_out_a_bot_plays_the_seat(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=QUICK) as c:
        table, tokens = two_people(c, {"per_move_seconds": 0.3}, takeover_level="random")
        first = view_of(c, table)
        late = first["current_player"]
        v = wait_for(c, table, lambda v: any(e["kind"] == "timeout" for e in v["log"]))
        line = next(e for e in v["log"] if e["kind"] == "timeout")
        assert line["seat"] == late and "ran out of time" in line["text"]
        assert v["seats"][late]["bot_playing"] == "random"
        assert v["clock_state"]["timed_out"][0] == late
        # The bot plays the seat's turn; the other person's clock then runs.
        v = wait_for(c, table, lambda v: v["version"] > first["version"])
        assert v["status"] == "playing"
        # The person comes back (a per-move clock: nothing is spent) and plays again.
        r = c.post(f"/api/tables/{table}/reclaim", headers=auth(tokens[late]))
        assert r.status_code == 200, r.text
        assert r.json()["seats"][late]["bot_playing"] is None


def test_a_spent_game_clock_cannot_be_reclaimed(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=QUICK) as c:
        table, tokens = two_people(c, {"game_seconds": 0.3}, takeover_level="random")
        late = view_of(c, table)["current_player"]
        v = wait_for(c, table, lambda v: v["seats"][late]["bot_playing"] == "random")
        assert v["clock_state"]["left"][late] == 0.0
        r = c.post(f"/api/tables/{table}/reclaim", headers=auth(tokens[late]))
        assert "game clock ran out" in problem(r, 409, "conflict")["detail"]


def test_on_time_out_the_seat_loses(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=QUICK) as c:
        table, tokens = two_people(c, {"per_move_seconds": 0.3}, on_timeout="lose")
        v0 = view_of(c, table)
        late = v0["current_player"]
        v = wait_for(c, table, lambda v: v["status"] == "finished")
        assert v["current_player"] == -4 and v["seed"] is not None
        result = v["result"]
        assert result["ending"] == "time" and result["timed_out"] == late
        assert result["winners"] == [1 - late]
        assert result["ranking"][late] == 2 and result["ranking"][1 - late] == 1
        assert v["clock_state"]["running"] is None and v["clock_state"]["deadline"] is None
        assert [e["seat"] for e in v["log"] if e["kind"] == "timeout"] == [late]
        r = c.post(f"/api/tables/{table}/moves", headers=auth(tokens[late]),
                   json={"version": v["version"], "index": 0})
        problem(r, 409, "game-over")
        # The export of the ended game works (the engine's state as it stopped).
        assert c.get(f"/api/tables/{table}/export").status_code == 200


def test_no_clock_runs_for_a_bot(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "bot", "level": "random"}, {"kind": "human"}],
                  clock={"per_move_seconds": 60})
    table, token = made["table"], made["seats"][1]["token"]
    v = wait_for(client, table, lambda v: v["current_player"] == 1, token)
    state = v["clock_state"]
    assert state["running"] == 1 and state["left"] == [None, None]
    v = client.post(f"/api/tables/{table}/moves", headers=auth(token),
                    json={"version": v["version"], "index": 0}).json()
    if v["current_player"] == 0:
        assert v["clock_state"]["running"] is None


# -- surviving restarts, shared by workers --------------------------------------------------
def test_the_clock_survives_a_restart(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=QUICK, sweep_seconds=NO_SWEEP) as a:
        table, _ = two_people(a, {"per_move_seconds": 0.5}, on_timeout="lose")
        before = view_of(a, table)["clock_state"]
    assert before["deadline"] is not None
    # A new app on the same database (nothing in memory): the same deadline, and its sweep
    # acts on it.
    with make_client(sqlite_url, limits=QUICK) as b:
        v = view_of(b, table)
        if v["status"] == "playing":
            assert v["clock_state"]["deadline"] == before["deadline"]
        v = wait_for(b, table, lambda v: v["status"] == "finished")
        assert v["result"]["timed_out"] == before["running"]


def test_two_workers_share_one_clock_and_act_once(db_url: str) -> None:
    with make_client(db_url, limits=QUICK) as a, make_client(db_url, limits=QUICK) as b:
        made = create(a, clock={"game_seconds": 30, "increment_seconds": 1},
                      takeover_level="random")
        table, tokens = made["table"], [s["token"] for s in made["seats"]]
        a.get(f"/api/tables/{table}", headers=auth(tokens[0]))
        b.get(f"/api/tables/{table}", headers=auth(tokens[1]))  # the last arrives via B
        va, vb = view_of(a, table), view_of(b, table)
        assert va["clock_state"]["deadline"] == vb["clock_state"]["deadline"] is not None
        mover = va["current_player"]
        moved = b.post(f"/api/tables/{table}/moves", headers=auth(tokens[mover]),
                       json={"version": va["version"], "index": 0}).json()
        # Worker A (which held the table before the move) sees the same clocks.
        va = view_of(a, table)
        assert va["clock_state"] == moved["clock_state"]
        assert 29.0 < va["clock_state"]["left"][mover] <= 31.0


def test_a_time_out_is_acted_on_once_by_racing_workers(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    settings = Settings(db_url=db_url, limits=QUICK)
    master = TableMaster(SqlStorage(engine), settings)
    other = TableMaster(SqlStorage(make_engine(db_url)), settings)
    made = master.create(TableSpec("scout", 2, seats=(SeatSpec(), SeatSpec()),
                                   clock={"per_move_seconds": 0.1}, on_timeout="lose"))
    for seat, token in made.tokens.items():
        master.touch(made.table_id, seat, token)
    other.load(made.table_id)  # both workers hold the table
    time.sleep(0.2)
    assert master.time_out(made.table_id) is True
    assert other.time_out(made.table_id) is False  # acted on once
    events = [e for e in other.load(made.table_id).log if e.kind == "timeout"]
    assert len(events) == 1


def test_the_sweep_reads_only_the_clocks_due(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    migrate(engine)
    master = TableMaster(SqlStorage(engine), Settings(db_url=sqlite_url, limits=QUICK))
    ids = []
    for per_move in (3600.0, 3600.0, 0.1):
        made = master.create(TableSpec("scout", 2, clock={"per_move_seconds": per_move}))
        for seat, token in made.tokens.items():
            master.touch(made.table_id, seat, token)
        ids.append(made.table_id)
    time.sleep(0.2)
    assert master.storage.clocks_due(time.time(), 10) == [ids[2]]
    assert master.sweep() == [ids[2]]
    assert master.storage.clocks_due(time.time(), 10) == []


def test_a_takeover_stops_the_clock_and_charges_the_time_used(sqlite_url: str) -> None:
    limits = Limits(min_clock_seconds=0.05, min_takeover_seconds=0.1)
    with make_client(sqlite_url, limits=limits) as c:
        table, _ = two_people(c, {"game_seconds": 600}, takeover_after=0.3,
                              takeover_level="random")
        away = view_of(c, table)["current_player"]
        # Nobody comes back: the absent person's bot takes the seat on its turn.
        v = wait_for(c, table, lambda v: v["seats"][away]["bot_playing"] == "random")
        assert 0.0 < v["clock_state"]["left"][away] < 600.0  # the time used until then
        assert any(e["kind"] == "takeover" for e in v["log"])
        assert not any(e["kind"] == "timeout" for e in v["log"])


# -- with invites, waiting tables, names and undo -------------------------------------------
def invited(c: TestClient, clock: dict[str, Any], **body: Any) -> tuple[str, dict[str, Any],
                                                                       dict[str, Any]]:
    """A clocked SCOUT table Anna (player key) made for herself and Ben (invited by name):
    it waits for him. Its id, Anna and Ben (players with their keys), Ben's invite token
    under ``"invite"``."""
    anna = c.post("/api/players", json={"name": "Anna"}).json()
    ben = c.post("/api/players", json={"name": "Ben"}).json()
    r = c.post("/api/tables", json={"game": "scout", "players": 2, "clock": clock,
                                    "seats": [{}, {"invite": "Ben"}], **body},
               headers=auth(anna["key"]))
    assert r.status_code == 201, r.text
    made = r.json()
    return made["table"], anna, {**ben, "invite": made["seats"][1]["token"]}


def claim(c: TestClient, table: str, who: dict[str, Any]) -> dict[str, Any]:
    r = c.post(f"/api/tables/{table}/claim", json={"token": who["invite"]},
               headers=auth(who["key"]))
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_waiting_tables_clock_starts_when_it_starts(client: TestClient) -> None:
    table, anna, ben = invited(client, {"per_move_seconds": 60})
    v = view_of(client, table, anna["key"])
    assert v["status"] == "waiting" and v["clock_state"]["running"] is None
    assert v["clock_state"]["deadline"] is None
    # Ben's claim starts the table: the first turn's clock runs at once (not from the first
    # move), for whoever is to move.
    before = time.time()
    v = claim(client, table, ben)
    assert v["status"] == "playing"
    state = v["clock_state"]
    assert state["running"] == v["current_player"] >= 0
    assert before <= state["turn_started"] <= v["now"]
    assert state["deadline"] - state["turn_started"] == pytest.approx(60.0)


def test_a_table_the_host_starts_with_bots_starts_its_clock(client: TestClient) -> None:
    anna = client.post("/api/players", json={"name": "Anna"}).json()
    # Seed 3: Anna's (a person's) turn first once it is dealt.
    with drawn_seed(3):
        made = client.post("/api/tables", json={
            "game": "scout", "players": 2, "clock": {"per_move_seconds": 60},
            "seats": [{}, {"invite": "Ben"}]}, headers=auth(anna["key"])).json()
    table = made["table"]
    assert view_of(client, table)["clock_state"]["running"] is None
    r = client.post(f"/api/tables/{table}/start", json={"level": "random"},
                    headers=auth(anna["key"]))
    assert r.status_code == 200, r.text
    v = r.json()
    assert v["status"] == "playing" and v["current_player"] == 0
    assert v["clock_state"]["running"] == 0 and v["clock_state"]["deadline"] is not None


def test_a_take_back_restarts_the_clock_for_the_seat_to_move(client: TestClient) -> None:
    table, tokens = two_people(client, {"per_move_seconds": 60})
    v = view_of(client, table, tokens[0])
    mover = v["current_player"]
    after = v
    while after["current_player"] == mover:  # (SCOUT's first choice may be the hand's side)
        v = after
        after = client.post(f"/api/tables/{table}/moves", headers=auth(tokens[mover]),
                            json={"version": v["version"], "index": 0}).json()
    other = 1 - mover
    assert after["current_player"] == other
    ran = after["clock_state"]
    assert ran["running"] == other
    r = client.post(f"/api/tables/{table}/undo", headers=auth(tokens[mover]))
    assert r.status_code == 200, r.text
    before = time.time()
    r = client.post(f"/api/tables/{table}/undo/accept", headers=auth(tokens[other]))
    assert r.status_code == 200, r.text
    back = r.json()
    assert back["version"] == v["version"] and back["current_player"] == mover
    state = back["clock_state"]
    # The mover's turn again, on a fresh clock (not the other seat's undone deadline).
    assert state["running"] == mover
    assert state["turn_started"] >= before > ran["turn_started"]
    assert state["deadline"] - state["turn_started"] == pytest.approx(60.0)


def test_a_rated_table_refuses_a_take_back(client: TestClient) -> None:
    anna = client.post("/api/players", json={"name": "Anna"}).json()
    made = client.post("/api/tables", json={
        "game": "scout", "players": 2, "rated": True,
        "seats": [{}, {"kind": "bot", "level": "random"}]}, headers=auth(anna["key"])).json()
    table = made["table"]
    v = wait_for(client, table, lambda v: v["current_player"] == 0, anna["key"])
    r = client.post(f"/api/tables/{table}/moves", headers=auth(anna["key"]),
                    json={"version": v["version"], "index": 0})
    assert r.status_code == 200, r.text
    moved = r.json()["version"]
    r = client.post(f"/api/tables/{table}/undo", headers=auth(anna["key"]))
    assert "rated" in problem(r, 409, "conflict")["detail"]
    after = view_of(client, table, anna["key"])
    assert after["version"] >= moved and after["undos"] == 0 and after["undo"] is None


def test_a_time_out_line_names_the_person(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=QUICK) as c:
        table, _, ben = invited(c, {"per_move_seconds": 0.3}, takeover_level="random")
        late = claim(c, table, ben)["current_player"]
        name = ["Anna", "Ben"][late]
        v = wait_for(c, table, lambda v: any(e["kind"] == "timeout" for e in v["log"]))
        line = next(e for e in v["log"] if e["kind"] == "timeout")
        assert line["text"] == (f"{name} ran out of time: a random bot plays for them "
                                "until they come back")


def test_a_rematch_keeps_the_clock_and_names(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=QUICK) as c:
        table, anna, ben = invited(c, {"per_move_seconds": 0.3}, on_timeout="lose")
        claim(c, table, ben)
        old = wait_for(c, table, lambda v: v["status"] == "finished")
        r = c.post(f"/api/tables/{table}/rematch", headers=auth(anna["key"]))
        assert r.status_code == 200, r.text
        again = r.json()["table"]
        v = view_of(c, again, anna["key"])
        assert v["clock"] == old["clock"] and v["names"] == ["Ben", "Anna"]  # rotated
        # Everyone is seated at once: the first turn's clock runs from the rematch's creation
        # (or, on a slow machine, has run out already).
        if v["status"] == "playing":
            state = v["clock_state"]
            assert state["running"] == v["current_player"] >= 0
            assert state["deadline"] - state["turn_started"] == pytest.approx(0.3)
        else:
            assert v["result"]["ending"] == "time"
