"""Invites that work: an invited table stays out of the lobby, the host gets every unclaimed
seat's link again, nothing is dealt before every person arrived (or the host starts with
bots), an invite claimed by an identity, presence here / away, names in every line, the
final summary; every error (on SQLite through the ASGI app; the guarded writes on
PostgreSQL too)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bigtop.server import Limits
from bigtop.server.db import make_engine, migrate
from bigtop.server.master import TableMaster, invite_token
from bigtop.server.model import Player, SeatSpec, TableSpec
from bigtop.server.settings import Settings
from bigtop.server.storage import SqlStorage
from tests.server.conftest import drawn_seed, make_client
from tests.server.test_api import auth, problem, wait_for
from tests.server.test_players import new_player


def hosted(c: TestClient, key: str | None, seats: list[dict[str, Any]], game: str = "scout",
           seed: int = 7, **body: Any) -> dict[str, Any]:
    """A table made by the holder of ``key`` (None: anonymously)."""
    with drawn_seed(seed):
        r = c.post("/api/tables", json={"game": game, "players": len(seats), "seats": seats,
                                        **body}, headers=auth(key) if key else {})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def view(c: TestClient, table: str, secret: str | None = None) -> dict[str, Any]:
    r = c.get(f"/api/tables/{table}", headers=auth(secret) if secret else {})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def lobby_ids(c: TestClient) -> set[str]:
    return {t["table"] for t in c.get("/api/lobby").json()["tables"]}


def test_an_invited_table_is_unlisted_and_deals_nothing_until_everyone_arrived(
        client: TestClient) -> None:
    anna, ben = new_player(client, "Anna"), new_player(client, "Ben")
    made = hosted(client, anna["key"], [{}, {"invite": "Ben"}], game="so-ein-zirkus")
    t = made["table"]
    assert t not in lobby_ids(client)  # no stranger takes Ben's seat
    mine = view(client, t, anna["key"])
    assert mine["status"] == "waiting" and mine["listed"] is False
    assert mine["observation"] is None and mine["legal_actions"] == [] and mine["log"] == []
    assert mine["picture"] is None and mine["version"] == 0 and mine["host_seat"] == 0
    assert mine["waiting_for"] == [{"seat": 1, "name": "Ben"}]
    assert mine["seats"][1]["invite"] == "Ben" and mine["names"] == ["Anna", "Ben"]
    body = problem(client.post(f"/api/tables/{t}/moves", json={"version": 0, "index": 0},
                               headers=auth(anna["key"])), 409, "waiting")
    assert "waiting for Ben to join" in body["detail"] and body["version"] == 0
    problem(client.get(f"/api/tables/{t}/picture.svg", headers=auth(anna["key"])), 409,
            "waiting")
    problem(client.get(f"/api/tables/{t}/replay?at=0", headers=auth(anna["key"])), 409,
            "waiting")
    me = client.get("/api/players/me", headers=auth(anna["key"])).json()["tables"][0]
    assert me["status"] == "waiting" and me["state"] == "waiting"
    # Ben opens his link with his key: the game starts; what it deals and rolls is what the
    # same seed deals at a table that started at once.
    claimed = client.post(f"/api/tables/{t}/claim", json={"token": made["seats"][1]["token"]},
                          headers=auth(ben["key"]))
    assert claimed.status_code == 200, claimed.text
    his = claimed.json()
    assert his["seat"] == 1 and his["status"] == "playing" and his["observation"] is not None
    assert his["waiting_for"] == [] and his["seats"][1]["name"] == "Ben"
    at_once = hosted(client, None, [{}, {}], game="so-ein-zirkus", wait=False)
    ref = view(client, at_once["table"], at_once["seats"][1]["token"])
    assert his["version"] == ref["version"] and his["observation"] == ref["observation"]
    assert len(his["log"]) == len(ref["log"])
    # Listed on request; a table without invites and without a key starts at once.
    listed = hosted(client, anna["key"], [{}, {"invite": "Ben"}], listed=True)
    assert listed["table"] in lobby_ids(client)
    plain = hosted(client, None, [{}, {}])
    assert view(client, plain["table"])["status"] == "playing"
    assert plain["table"] in lobby_ids(client)


def test_the_host_gets_every_unclaimed_invite_link_again(client: TestClient) -> None:
    anna, ben = new_player(client, "Anna"), new_player(client, "Ben")
    made = hosted(client, anna["key"], [{}, {"invite": "Ben"}, {"invite": "Cleo"}])
    t, host_token = made["table"], made["seats"][0]["token"]
    assert host_token == invite_token(anna["key"], t, 0)  # the key alone finds them again
    by_key = client.get(f"/api/tables/{t}/invites", headers=auth(anna["key"])).json()
    by_token = client.get(f"/api/tables/{t}/invites", headers=auth(host_token)).json()
    assert by_key == by_token
    assert [(i["seat"], i["invite"], i["token"], i["invite_url"]) for i in by_key["invites"]] == [
        (s["seat"], name, s["token"], s["invite_url"])
        for s, name in zip(made["seats"][1:], ("Ben", "Cleo"), strict=True)]
    client.post(f"/api/tables/{t}/claim", json={"token": made["seats"][1]["token"]},
                headers=auth(ben["key"]))
    left = client.get(f"/api/tables/{t}/invites", headers=auth(anna["key"])).json()
    assert [i["seat"] for i in left["invites"]] == [2]
    # Only the host.
    problem(client.get(f"/api/tables/{t}/invites", headers=auth(ben["key"])), 403, "not-host")
    problem(client.get(f"/api/tables/{t}/invites", headers=auth(made["seats"][2]["token"])),
            403, "not-host")
    problem(client.get(f"/api/tables/{t}/invites"), 401, "seat-token-required")
    problem(client.get(f"/api/tables/{t}/invites", headers=auth("x" * 22)), 403, "wrong-token")
    problem(client.get("/api/tables/nope/invites", headers=auth(anna["key"])), 404, "not-found")
    # An anonymous host (seat 0's token) too; a seat whose token a lobby join replaced is no
    # invite any more.
    anon = hosted(client, None, [{}, {}, {}], listed=True)
    joined = client.post(f"/api/tables/{anon['table']}/join", json={"seat": 1}).json()
    links = client.get(f"/api/tables/{anon['table']}/invites",
                       headers=auth(anon["seats"][0]["token"])).json()["invites"]
    assert [(i["seat"], i["token"]) for i in links] == [(2, anon["seats"][2]["token"])]
    assert joined["token"] not in str(links)


def test_the_creator_may_sit_elsewhere(client: TestClient) -> None:
    anna = new_player(client, "Anna")
    made = hosted(client, anna["key"], [{"invite": "Ben"}, {"kind": "bot", "level": "easy"},
                                        {}], host_seat=2)
    t = made["table"]
    mine = view(client, t, anna["key"])
    assert mine["seat"] == 2 and mine["host_seat"] == 2 and mine["names"][2] == "Anna"
    assert mine["waiting_for"] == [{"seat": 0, "name": "Ben"}]
    links = client.get(f"/api/tables/{t}/invites", headers=auth(anna["key"])).json()
    assert [i["seat"] for i in links["invites"]] == [0]
    for bad in (1, 3, -1):
        r = client.post("/api/tables", json={"game": "scout", "players": 3, "host_seat": bad,
                                             "seats": [{}, {"kind": "bot", "level": "easy"},
                                                       {}]})
        assert "host_seat must be a person's seat: 0, 2" in problem(r, 422, "invalid")["detail"]


def test_an_invite_claimed_by_an_identity_and_every_refusal(client: TestClient) -> None:
    anna, ben, cleo = (new_player(client, n) for n in ("Anna", "Ben", "Cleo"))
    made = hosted(client, anna["key"], [{}, {"invite": "Ben"}, {"invite": "Cleo"}])
    t = made["table"]
    ben_token, cleo_token = made["seats"][1]["token"], made["seats"][2]["token"]
    url = f"/api/tables/{t}/claim"
    problem(client.post(url, json={"token": ben_token}), 401, "player-key-required")
    problem(client.post(url, json={"token": ben_token}, headers=auth("x" * 22)), 401,
            "player-key-required")
    problem(client.post(url, json={"token": "x" * 22}, headers=auth(ben["key"])), 403,
            "wrong-token")
    problem(client.post("/api/tables/nope/claim", json={"token": ben_token},
                        headers=auth(ben["key"])), 404, "not-found")
    for bad in ({}, {"token": 5}, {"token": ben_token, "seat": 1}):
        problem(client.post(url, json=bad, headers=auth(ben["key"])), 422, "invalid")
    first = client.post(url, json={"token": ben_token}, headers=auth(ben["key"]))
    assert first.status_code == 200 and first.json()["seat"] == 1
    assert first.json()["status"] == "waiting"  # Cleo is still to come
    # The claim ended the invite: its token (which Anna can derive) opens nothing now, not
    # even a second claim; Ben's key opens his seat on any device.
    problem(client.post(url, json={"token": ben_token}, headers=auth(ben["key"])), 403,
            "wrong-token")
    problem(client.get(f"/api/tables/{t}", headers=auth(ben_token)), 403, "wrong-token")
    assert view(client, t, ben["key"])["seat"] == 1
    # A second seat for one identity; another person's seat (the host's own).
    mine = client.post(f"/api/tables/{t}/accept", json={"token": cleo_token}).json()["token"]
    problem(client.post(url, json={"token": mine}, headers=auth(ben["key"])), 409,
            "conflict")
    problem(client.post(url, json={"token": made["seats"][0]["token"]},
                        headers=auth(cleo["key"])), 409, "conflict")
    # Cleo exchanged her invite first: her own token, claimed, keeps opening her seat.
    done = client.post(url, json={"token": mine}, headers=auth(cleo["key"])).json()
    assert done["status"] == "playing" and done["names"] == ["Anna", "Ben", "Cleo"]
    assert view(client, t, mine)["seat"] == 2 and view(client, t, cleo["key"])["seat"] == 2
    assert {e["table"] for e in client.get("/api/players/me", headers=auth(cleo["key"]))
            .json()["tables"]} == {t}


def test_the_host_starts_with_bots_in_the_empty_seats(client: TestClient) -> None:
    anna, ben = new_player(client, "Anna"), new_player(client, "Ben")
    made = hosted(client, anna["key"], [{}, {"invite": "Ben"}, {"invite": "Cleo"}])
    t = made["table"]
    client.post(f"/api/tables/{t}/claim", json={"token": made["seats"][1]["token"]},
                headers=auth(ben["key"]))
    url = f"/api/tables/{t}/start"
    problem(client.post(url, json={"level": "easy"}), 401, "seat-token-required")
    problem(client.post(url, json={"level": "easy"}, headers=auth(ben["key"])), 403,
            "not-host")
    problem(client.post(url, json={"level": "champion"}, headers=auth(anna["key"])), 422,
            "invalid")
    problem(client.post(url, json={"level": "easy", "x": 1}, headers=auth(anna["key"])), 422,
            "invalid")
    problem(client.post("/api/tables/nope/start", headers=auth(anna["key"])), 404,
            "not-found")
    r = client.post(url, json={"level": "random"}, headers=auth(anna["key"]))
    assert r.status_code == 200, r.text
    started = r.json()
    assert started["status"] == "playing" and started["waiting_for"] == []
    assert started["seats"][2]["kind"] == "bot" and started["seats"][2]["level"] == "random"
    assert started["seats"][2]["invite"] is None and started["names"][2] == "P2"
    problem(client.post(url, headers=auth(anna["key"])), 409, "conflict")
    # Cleo's link is no seat any more; the bot moves when its turn comes.
    problem(client.get(f"/api/tables/{t}", headers=auth(made["seats"][2]["token"])), 403,
            "wrong-token")
    for _ in range(6):
        v = view(client, t, anna["key"])
        if v["current_player"] == 2:
            wait_for(client, t, lambda v: v["current_player"] != 2)
            break
        mover = (anna, ben)[v["current_player"]]["key"]
        client.post(f"/api/tables/{t}/moves", json={"version": v["version"], "index": 0},
                    headers=auth(mover))
    assert any(e["bot"] == "random" for e in view(client, t)["log"])
    # An anonymous waiting table ("wait": true) starts with its host's token alone.
    # (Seat 1 arrives by asking; seat 2 never comes.)
    anon = hosted(client, None, [{}, {}, {}], wait=True)
    assert view(client, anon["table"], anon["seats"][0]["token"])["status"] == "waiting"
    problem(client.post(f"/api/tables/{anon['table']}/start",
                        headers=auth(anon["seats"][1]["token"])), 403, "not-host")
    r = client.post(f"/api/tables/{anon['table']}/start",
                    headers=auth(anon["seats"][0]["token"]))
    assert r.status_code == 200, r.text
    assert [s["kind"] for s in r.json()["seats"]] == ["human", "human", "bot"]
    assert r.json()["seats"][2]["level"] == "medium"


@pytest.mark.parametrize("seats, why", [
    ([{}, {"invite": ""}], "empty"), ([{}, {"invite": "x" * 33}], "at most 32"),
    ([{}, {"invite": "A\nB"}], "control"), ([{}, {"invite": "A\u202eB"}], "control"),
    ([{}, {"kind": "bot", "level": "easy", "invite": "Ben"}], "only a person's seat"),
])
def test_bad_invites_are_refused(client: TestClient, seats: list[dict[str, Any]],
                                 why: str) -> None:
    r = client.post("/api/tables", json={"game": "scout", "players": 2, "seats": seats})
    assert why in problem(r, 422, "invalid")["detail"]


def test_presence_shows_here_and_away(sqlite_url: str) -> None:
    with make_client(sqlite_url, presence_seconds=0.6) as c:
        anna, ben = new_player(c, "Anna"), new_player(c, "Ben")
        made = hosted(c, anna["key"], [{}, {"invite": "Ben"}])
        t = made["table"]
        first = view(c, t, anna["key"])["seats"]
        assert [s["presence"] for s in first] == ["here", "away"]
        c.post(f"/api/tables/{t}/claim", json={"token": made["seats"][1]["token"]},
               headers=auth(ben["key"]))
        assert view(c, t, ben["key"])["seats"][1]["presence"] == "here"
        # Anna goes quiet: the sweep marks her away while Ben, on a WebSocket, stays here.
        with c.websocket_connect(f"/api/tables/{t}/ws",
                                 subprotocols=["bigtop", f"bigtop.token.{ben['key']}"]) as ws:
            ws.receive_json()
            gone = wait_for(c, t, lambda v: v["seats"][0]["presence"] == "away")
            assert gone["seats"][1]["presence"] == "here"
            while True:  # the socket is told of it
                msg = ws.receive_json()
                if msg["type"] == "view" and msg["view"]["seats"][0]["presence"] == "away":
                    break
            assert view(c, t, anna["key"])["seats"][0]["presence"] == "here"  # back
            assert view(c, t)["seats"][0]["presence"] == "here"
        bots = hosted(c, None, [{}, {"kind": "bot", "level": "easy"}])
        assert view(c, bots["table"])["seats"][1]["presence"] is None


def test_names_in_every_line_and_the_final_summary(client: TestClient) -> None:
    anna = new_player(client, "Anna")
    made = hosted(client, anna["key"], [{}, {"kind": "bot", "level": "random"}],
                  options={"rounds": 2})
    t = made["table"]
    v = view(client, t, anna["key"])
    assert v["status"] == "playing"  # the only person is the creator
    while v["status"] == "playing":
        if v["legal_actions"]:
            assert all("P0" not in a["text"] for a in v["legal_actions"])
            client.post(f"/api/tables/{t}/moves", json={"version": v["version"], "index": 0},
                        headers=auth(anna["key"]))
        v = wait_for(client, t, lambda w: w["status"] != "playing" or bool(w["legal_actions"]),
                     anna["key"])
    assert v["status"] == "finished"
    mine = [e["text"] for e in v["log"] if e["kind"] == "move" and e["seat"] == 0]
    theirs = [e["text"] for e in v["log"] if e["kind"] == "move" and e["seat"] == 1]
    assert mine and all(line.startswith("Anna ") for line in mine)
    assert theirs and all(line.startswith("P1 ") for line in theirs)
    assert not any("P0" in e["text"] for e in v["log"])
    summary = v["summary"]
    rounds = v["result"]["round_scores"]
    assert summary["rounds"] == len(rounds) == 2
    assert [(p["seat"], p["name"], p["rounds"], p["total"], p["place"])
            for p in summary["players"]] == [
        (k, ("Anna", "P1")[k], [r[k] for r in rounds], v["result"]["scores"][k],
         v["result"]["ranking"][k]) for k in range(2)]
    replay = client.get(f"/api/tables/{t}/replay").json()
    assert replay["names"] == ["Anna", "P1"] and replay["summary"] == summary
    assert {s["name"] for s in replay["steps"]} <= {"Anna", "P1", None}
    assert [s["text"] for s in replay["steps"]] == [e["text"] for e in v["log"]
                                                    if e["kind"] == "move"]


def test_claims_race_on_two_workers(db_url: str) -> None:
    """Two identities claim one invite through two masters (workers) at once: exactly one
    gets it, in the transaction that changes the seat (SQLite and PostgreSQL)."""
    engine = make_engine(db_url)
    migrate(engine)
    masters = [TableMaster(SqlStorage(make_engine(db_url)), Settings(db_url=db_url))
               for _ in range(2)]
    people = []
    for name in ("Ben", "Cleo", "Anna"):
        player, _ = masters[0].new_player(name)
        people.append(player)
    made = masters[0].create(TableSpec("scout", 3, seats=(SeatSpec(), SeatSpec("human",
                                                          invite="Ben"), SeatSpec()),
                                       player_id=people[2].id, key="k"))
    for m in masters:
        m.load(made.table_id)  # both hold the table as it was
    token = made.tokens[1]
    outcome: list[str] = []

    def claim(m: TableMaster, who: Player) -> None:
        try:
            m.claim_seat(made.table_id, token, who)
            outcome.append(who.name)
        except Exception as e:
            outcome.append(type(e).__name__)

    threads = [threading.Thread(target=claim, args=(m, p))
               for m, p in zip(masters, people[:2], strict=True)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    # The loser finds the seat taken (409), or, read after the winner's claim ended the
    # invite, its token opening nothing (403).
    winner = [o for o in outcome if o in ("Ben", "Cleo")]
    assert len(winner) == 1 and [o for o in outcome if o not in winner] in (
        ["Conflict"], ["Forbidden"]), outcome
    seat = masters[1].load(made.table_id).seats[1]
    assert seat.name == winner[0] and not seat.invited


def test_the_last_seat_taken_from_the_lobby_starts_the_bots(sqlite_url: str) -> None:
    """A waiting table whose bot moves first starts moving as soon as the last person
    joins from the lobby (not at the sweep's stuck-bot check, switched off here)."""
    with make_client(sqlite_url, bot_stuck_seconds=3600.0) as c:
        made = hosted(c, None, [{"kind": "bot", "level": "random"}, {}, {}], wait=True)
        t = made["table"]
        assert view(c, t, made["seats"][1]["token"])["status"] == "waiting"  # the host
        assert view(c, t)["host_seat"] == 1 and t in lobby_ids(c)
        joined = c.post(f"/api/tables/{t}/join", json={}).json()
        assert joined["seat"] == 2
        moved = wait_for(c, t, lambda v: v["version"] > 0)
        assert moved["status"] == "playing" and moved["log"][0]["bot"] == "random"


def test_claims_and_take_backs_are_rate_limited(sqlite_url: str) -> None:
    """Claiming and exchanging an invite count as taking a seat (per client address), refused
    or not; every take-back step as a move of the seat."""
    # A slow refill: on a loaded machine the take-backs may be seconds apart.
    with make_client(sqlite_url, limits=Limits(join_burst=2, move_burst=3,
                                               moves_per_second=0.001)) as c:
        anna, ben = new_player(c, "Anna"), new_player(c, "Ben")
        made = hosted(c, anna["key"], [{}, {"invite": "Ben"}])
        url = f"/api/tables/{made['table']}/claim"
        invite = {"token": made["seats"][1]["token"]}
        assert c.post(url, json=invite, headers=auth(ben["key"])).status_code == 200
        accept = f"/api/tables/{made['table']}/accept"
        problem(c.post(accept, json=invite), 403, "invite-used")  # the claim ended it
        for r in (c.post(url, json=invite, headers=auth(ben["key"])),
                  c.post(accept, json=invite)):
            assert "retry_after" in problem(r, 429, "rate-limited")
        # A token of one's own is answered without taking a seat: not counted.
        host = {"token": made["seats"][0]["token"]}
        assert c.post(accept, json=host).json() == {"table": made["table"], "seat": 0,
                                                    **host}
        undo = f"/api/tables/{made['table']}/undo"
        codes = [c.post(undo, headers=auth(anna["key"])).status_code for _ in range(4)]
        assert codes[:3] == [409] * 3 and codes[3] == 429


def test_start_and_presence_are_stored_on_both_databases(db_url: str) -> None:
    """The host's start (bots in the empty seats, the opening roll drawn only then) and
    presence kept in the database (SQLite and PostgreSQL)."""
    engine = make_engine(db_url)
    migrate(engine)
    master = TableMaster(SqlStorage(engine), Settings(db_url=db_url))
    made = master.create(TableSpec("so-ein-zirkus", 3, seats=(
        SeatSpec(), SeatSpec(invite="Ben"), SeatSpec()), wait=True))
    t = made.table_id
    waiting = master.load(t)
    assert not waiting.meta.started and waiting.version == 0
    assert [s.seat for s in waiting.waiting_for] == [1, 2]  # the creator holds the host's
    master.touch(t, 0, made.tokens[0])  # the host arrives
    with pytest.raises(Exception, match="only the host"):
        master.start(t, 1, "easy")
    started = master.start(t, 0, "easy")
    assert started.meta.started and started.version >= 1  # the opening roll, drawn now
    assert [(s.kind, s.level) for s in started.seats] == [
        ("human", None), ("bot", "easy"), ("bot", "easy")]
    assert started.seats[0].here and started.waiting_for == []
    assert master.storage.mark_gone(time.time() + 1.0, 10) == [t]
    assert not master.load(t).seats[0].here
    assert master.arrive(t, 0) is not None and master.load(t).seats[0].here
    assert master.arrive(t, 0) is None  # no change, nothing announced
