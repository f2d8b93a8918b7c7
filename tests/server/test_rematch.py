"""Rematch after the end: the same people and bots, a new seed, seats rotated; each caller
learns only their own new seat token; one rematch per table, also when two ask at once."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import update

from bigtop.core.verify import seed_commitment
from bigtop.games.tricky_landing.options import PERSON_SKILL, TrickyLandingOptions
from bigtop.server.db import make_engine, migrate
from bigtop.server.master import TableMaster
from bigtop.server.model import SeatSpec, TableSpec
from bigtop.server.schema import tables
from bigtop.server.settings import Settings
from bigtop.server.storage import SqlStorage
from tests.server.test_api import auth, problem, wait_for


def test_rematch_over_http(client: TestClient) -> None:
    anna = client.post("/api/players", json={"name": "Anna"}).json()
    made = client.post("/api/tables", json={
        "game": "scout", "players": 2, "options": {"rounds": 1},
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]},
        headers=auth(anna["key"])).json()
    t, tok = made["table"], made["seats"][0]["token"]
    problem(client.post(f"/api/tables/{t}/rematch", headers=auth(tok)), 409, "conflict")
    while True:
        v = wait_for(client, t, lambda v: v["status"] != "playing" or v["legal_actions"],
                     token=tok)
        if v["status"] != "playing":
            break
        client.post(f"/api/tables/{t}/moves", json={"version": v["version"], "index": 0},
                    headers=auth(tok))
    assert v["rematch"] is None
    problem(client.post(f"/api/tables/{t}/rematch"), 401, "seat-token-required")
    problem(client.post(f"/api/tables/{t}/rematch", headers=auth("nope")), 403, "wrong-token")
    problem(client.post("/api/tables/nope/rematch", headers=auth(tok)), 404, "not-found")
    r = client.post(f"/api/tables/{t}/rematch", headers=auth(tok))
    assert r.status_code == 200, r.text
    again = r.json()
    assert again["seat"] == 1 and again["token"] and again["token"] != tok
    assert again["token"] in again["invite_url"]
    new = again["table"]
    assert client.post(f"/api/tables/{t}/rematch", headers=auth(tok)).json() == again
    by_key = client.post(f"/api/tables/{t}/rematch", headers=auth(anna["key"])).json()
    assert (by_key["table"], by_key["seat"], by_key["token"]) == (new, 1, None)
    assert client.get(f"/api/tables/{t}").json()["rematch"] == new
    view = client.get(f"/api/tables/{new}", headers=auth(again["token"])).json()
    assert view["seat"] == 1 and view["status"] == "playing"
    assert [(s["kind"], s["level"], s["name"]) for s in view["seats"]] == [
        ("bot", "random", None), ("human", None, "Anna")]
    assert client.get(f"/api/tables/{new}", headers=auth(anna["key"])).json()["seat"] == 1
    problem(client.get(f"/api/tables/{new}", headers=auth(tok)), 403, "wrong-token")
    me = client.get("/api/players/me", headers=auth(anna["key"])).json()
    assert {x["table"] for x in me["tables"]} == {t, new}


def finished_table(master: TableMaster, spec: TableSpec) -> tuple[str, dict[int, str]]:
    made = master.create(spec)
    storage = master.storage
    assert isinstance(storage, SqlStorage)
    with storage.engine.connect() as conn:  # over as far as a rematch cares
        conn.execute(update(tables).where(tables.c.id == made.table_id)
                     .values(status="finished", seat_rev=tables.c.seat_rev + 1))
        conn.commit()
    return made.table_id, made.tokens


def test_rematch_rotates_seats_and_tells_each_only_their_token(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    master = TableMaster(SqlStorage(engine), Settings(db_url=db_url))
    other = TableMaster(SqlStorage(engine), Settings(db_url=db_url))  # a second worker
    anna, _ = master.new_player("Anna")
    spec = TableSpec("scout", 3, seats=(SeatSpec(), SeatSpec("bot", "easy"), SeatSpec()),
                     player_id=anna.id, listed=False, takeover_after=60.0)
    old_id, tokens = finished_table(master, spec)
    old = master.load(old_id)
    stale = other.load(old_id)
    new_id, seat2, tok2 = master.rematch(old_id, 2, tokens[2])
    assert seat2 == 1 and tok2 is not None
    new = master.load(new_id)
    assert new.meta.seed != old.meta.seed and new.meta.status == "playing"
    # Drawn by the server, committed as at any table (fair seeds).
    assert not new.meta.seed_chosen
    assert new.meta.seed_commitment == seed_commitment(new_id, new.meta.seed)
    assert (new.meta.listed, new.meta.takeover_after) == (False, 60.0)
    # Seat k sits at k - 1: old 1 (bot) at 0, old 2 at 1, old 0 (Anna) at 2.
    assert [(s.kind, s.level, s.player_id) for s in new.seats] == [
        ("bot", "easy", None), ("human", None, None), ("human", None, anna.id)]
    assert all(s.claimed for s in new.seats)  # nobody else may join the rematch
    assert master.seat_of(new, tok2) == 1
    # Anna's seat has no token yet: only she can get it (from her own old token).
    assert new.seats[2].token_hash is None
    first, second = master.rematch(old_id, 0, tokens[0]), master.rematch(old_id, 0, tokens[0])
    assert first == second and first[:2] == (new_id, 2)  # the same answer each time
    new = master.load(new_id)
    tok0 = first[2]
    assert tok0 is not None and master.seat_of(new, tok0) == 2 and tok0 != tok2
    # A second worker that did not hear of the rematch links to the same table.
    assert stale.meta.rematch_id is None
    raced = other.create(TableSpec("scout", 3, seats=spec.seats), rematch_of=stale)
    assert raced.table_id == new_id and raced.tokens == {}
    assert other.load(old_id).meta.rematch_id == new_id


def test_a_person_throws_by_hand_and_keeps_that_skill_in_the_rematch(db_url: str) -> None:
    """Tricky Landing on the server: a person's seat gets the hand-thrown skill (their flick
    is their own precision), a bot's the default, unless the creator set ``skill``; a rematch
    rotates every per-player option with the seats."""
    engine = make_engine(db_url)
    migrate(engine)
    master = TableMaster(SqlStorage(engine), Settings(db_url=db_url))
    seats = (SeatSpec(), SeatSpec("bot", "easy"), SeatSpec("bot", "random"))
    made = master.create(TableSpec("tricky-landing", 3, seats=seats, listed=False))
    assert master.load(made.table_id).meta.options["skill"] == [PERSON_SKILL, 0.8, 0.8]
    chosen = master.create(TableSpec("tricky-landing", 3, {"skill": 1.5}, seats=seats))
    assert master.load(chosen.table_id).meta.options["skill"] == 1.5
    bots = master.create(TableSpec("tricky-landing", 3, seats=(SeatSpec("bot", "easy"),) * 3))
    assert master.load(bots.table_id).meta.options["skill"] == 0.8
    old_id, tokens = finished_table(master, TableSpec(
        "tricky-landing", 3, {"skill": [1.0, 2.0, 3.0]}, seats=seats, listed=False))
    new_id, seat, _ = master.rematch(old_id, 0, tokens[0])
    new = master.load(new_id)
    assert seat == 2 and [s.kind for s in new.seats] == ["bot", "bot", "human"]
    assert new.meta.options["skill"] == [2.0, 3.0, 1.0]
    options = new.state.game.options
    assert isinstance(options, TrickyLandingOptions) and options.skill_of(2) == 1.0
