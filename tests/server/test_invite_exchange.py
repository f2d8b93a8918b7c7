"""An invite link is exchanged for a seat token only its holder knows (POST …/accept): from
then on the host, who can derive the invite token, opens the friend's seat no more (views,
moves, chat, take-backs, WebSockets: refused, and the host's open socket closed); racing
exchanges, a token of one's own answered unchanged, bad input, and the migration that
tells invites from tokens of their own in an old database."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert
from starlette.websockets import WebSocketDisconnect

from bigtop.server import errors
from bigtop.server.db import current_revision, head_revision, make_engine, migrate
from bigtop.server.master import TableMaster
from bigtop.server.model import SeatSpec, TableSpec, hash_token
from bigtop.server.schema import seats, tables
from bigtop.server.settings import Settings
from bigtop.server.storage import SqlStorage
from tests.server.test_api import auth, problem
from tests.server.test_invites import hosted, view
from tests.server.test_rematch import finished_table


def _socket(c: TestClient, table: str, token: str) -> Any:
    return c.websocket_connect(f"/api/tables/{table}/ws",
                               subprotocols=["bigtop", f"bigtop.token.{token}"])


def test_the_host_opens_a_friends_seat_no_more_once_the_friend_accepted(
        client: TestClient) -> None:
    made = hosted(client, None, [{}, {"invite": "Ben"}])
    t, host, invite = made["table"], made["seats"][0]["token"], made["seats"][1]["token"]
    view(client, t, host)  # the host arrives
    url = f"/api/tables/{t}/accept"
    # The host opens Ben's seat with the link first (the seat is claimed, the game starts)
    # and keeps a socket on it; Ben exchanges the link all the same.
    with _socket(client, t, invite) as ws:
        assert ws.receive_json()["view"]["seat"] == 1
        before = view(client, t, invite)
        assert before["seats"][1]["claimed"] and before["status"] == "playing"
        r = client.post(url, json={"token": invite})
        assert r.status_code == 200, r.text
        mine = r.json()["token"]
        assert r.json() == {"table": t, "seat": 1, "token": mine} and mine != invite
        # (A socket left open would answer the ping: no hanging test should that regress.)
        ws.send_json({"type": "ping"})
        while (msg := ws.receive_json())["type"] != "error":  # (views sent before it)
            assert msg["type"] == "view"
        assert msg["problem"]["status"] == 403 and "no longer opens seat 1" in \
            msg["problem"]["detail"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    # The invite token opens nothing now: no view, move, chat, take-back, socket, exchange.
    for r in (client.get(f"/api/tables/{t}", headers=auth(invite)),
              client.get(f"/api/tables/{t}/chat", headers=auth(invite)),
              client.post(f"/api/tables/{t}/chat", json={"text": "hi"}, headers=auth(invite)),
              client.post(f"/api/tables/{t}/undo", headers=auth(invite)),
              client.post(f"/api/tables/{t}/reclaim", headers=auth(invite)),
              client.post(f"/api/tables/{t}/rematch", headers=auth(invite))):
        problem(r, 403, "wrong-token")
    with _socket(client, t, invite) as ws:
        assert ws.receive_json()["problem"]["status"] == 403
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    used = problem(client.post(url, json={"token": invite}), 403, "invite-used")
    assert used["detail"] == ("this invite link was opened already (or its token is no seat "
                              "here); ask the host for the table, or open it where you first "
                              "opened it")
    links = client.get(f"/api/tables/{t}/invites", headers=auth(host)).json()
    assert links["invites"] == [] and links["unavailable"] == []  # Ben's seat is taken
    # On Ben's turn: the invite token does not move for him; his own token does.
    v = view(client, t, host)
    while v["current_player"] != 1:
        r = client.post(f"/api/tables/{t}/moves", json={"version": v["version"], "index": 0},
                        headers=auth(host))
        assert r.status_code == 200, r.text
        v = r.json()
    problem(client.post(f"/api/tables/{t}/moves", json={"version": v["version"], "index": 0},
                        headers=auth(invite)), 403, "wrong-token")
    his = view(client, t, mine)
    assert his["seat"] == 1 and his["legal_actions"] and his["version"] == v["version"]
    r = client.post(f"/api/tables/{t}/moves", json={"version": v["version"], "index": 0},
                    headers=auth(mine))
    assert r.status_code == 200, r.text
    assert client.post(f"/api/tables/{t}/chat", json={"text": "mine"},
                       headers=auth(mine)).status_code == 201
    # The exchanged token is Ben's own: asking again answers it unchanged.
    assert client.post(url, json={"token": mine}).json() == {"table": t, "seat": 1,
                                                             "token": mine}


def test_a_token_of_ones_own_is_answered_unchanged(client: TestClient) -> None:
    """The host's token, a seat taken in the lobby: the page may always ask."""
    made = hosted(client, None, [{}, {}, {}], listed=True)
    t, host = made["table"], made["seats"][0]["token"]
    joined = client.post(f"/api/tables/{t}/join", json={"seat": 1}).json()
    for seat, token in ((0, host), (1, joined["token"]), (0, host)):
        r = client.post(f"/api/tables/{t}/accept", json={"token": token})
        assert r.status_code == 200 and r.json() == {"table": t, "seat": seat, "token": token}
    assert view(client, t, host)["seat"] == 0 and view(client, t, joined["token"])["seat"] == 1
    # The seat still free keeps its invite until someone opens it.
    links = client.get(f"/api/tables/{t}/invites", headers=auth(host)).json()["invites"]
    assert [(i["seat"], i["token"]) for i in links] == [(2, made["seats"][2]["token"])]


def test_bad_exchanges_are_refused_and_change_nothing(client: TestClient) -> None:
    made = hosted(client, None, [{}, {"invite": "Ben"}])
    t, host, invite = made["table"], made["seats"][0]["token"], made["seats"][1]["token"]
    url = f"/api/tables/{t}/accept"
    for bad in ({}, {"token": 5}, {"token": ""}, {"token": "x" * 129},
                {"token": invite, "seat": 1}, [invite]):
        problem(client.post(url, json=bad), 422, "invalid")
    problem(client.post(url), 422, "invalid")  # no body at all
    problem(client.post(f"{url}?token={invite}", json={"token": invite}), 400, "token-in-url")
    problem(client.post("/api/tables/nope/accept", json={"token": invite}), 404, "not-found")
    problem(client.post(url, json={"token": "x" * 22}), 403, "invite-used")
    problem(client.post(url, json={"token": host + "x"}), 403, "invite-used")
    # Nothing changed: Ben's seat is free, its link still offered, its token unexchanged.
    v = view(client, t, host)
    assert not v["seats"][1]["claimed"] and v["waiting_for"] == [{"seat": 1, "name": "Ben"}]
    links = client.get(f"/api/tables/{t}/invites", headers=auth(host)).json()["invites"]
    assert [(i["seat"], i["token"]) for i in links] == [(1, invite)]
    r = client.post(url, json={"token": invite})
    assert r.status_code == 200 and r.json()["token"] != invite


def test_racing_exchanges_of_one_invite_one_wins(db_url: str) -> None:
    """Two workers exchange one invite at once: exactly one gets a token, the other is
    refused, and the seat opens to the winner's token alone (SQLite and PostgreSQL)."""
    migrate(make_engine(db_url))
    masters = [TableMaster(SqlStorage(make_engine(db_url)), Settings(db_url=db_url))
               for _ in range(2)]
    made = masters[0].create(TableSpec("scout", 2, seats=(SeatSpec(), SeatSpec(invite="Ben"))))
    t, invite = made.table_id, made.tokens[1]
    masters[0].touch(t, 0, made.tokens[0])  # the host is there: Ben's arrival starts it
    for m in masters:
        m.load(t)  # both hold the table with the invite
    barrier = threading.Barrier(2)
    outcome: list[Any] = []

    def accept(m: TableMaster) -> None:
        barrier.wait()
        try:
            outcome.append(m.accept_invite(t, invite))
        except errors.Problem as e:
            outcome.append(e)

    threads = [threading.Thread(target=accept, args=(m,)) for m in masters]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    won = [o for o in outcome if isinstance(o, tuple)]
    lost = [o for o in outcome if isinstance(o, errors.InviteUsed)]
    assert len(won) == 1 and len(lost) == 1, outcome
    seat, token = won[0]
    after = masters[1].load(t).seats[1]
    assert seat == 1 and after.token_hash == hash_token(token) and not after.invited
    assert after.claimed and masters[0].load(t).meta.started
    with pytest.raises(errors.Forbidden):
        masters[0].seat_of(masters[0].load(t), invite)


def test_a_rematch_token_is_ones_own_unless_it_derives_from_an_invite(db_url: str) -> None:
    migrate(make_engine(db_url))
    master = TableMaster(SqlStorage(make_engine(db_url)), Settings(db_url=db_url))
    old, tokens = finished_table(master, TableSpec("scout", 3, seats=(
        SeatSpec(), SeatSpec(invite="Ben"), SeatSpec(invite="Cleo"))))
    _, ben = master.accept_invite(old, tokens[1])  # Ben exchanged his; Cleo never did
    new, host_seat, host_token = master.rematch(old, 0, tokens[0])
    _, ben_seat, ben_token = master.rematch(old, 1, ben)
    _, cleo_seat, cleo_token = master.rematch(old, 2, tokens[2])
    assert host_token and ben_token and cleo_token
    assert master.accept_invite(new, host_token) == (host_seat, host_token)
    assert master.accept_invite(new, ben_token) == (ben_seat, ben_token)
    # Cleo's derives from her invite, which the host can derive: an invite still.
    seat, own = master.accept_invite(new, cleo_token)
    assert seat == cleo_seat and own != cleo_token
    with pytest.raises(errors.InviteUsed):
        master.accept_invite(new, cleo_token)


def test_an_old_database_tells_invites_from_tokens_of_their_own(db_url: str) -> None:
    """Upgraded from 0022: at a table with a host seat every other person's token is an
    invite (the host can derive it); the host's, a bot's seat, a seat without a token yet,
    and every seat of a table older than host seats are not."""
    engine = make_engine(db_url)
    migrate(engine, "0022")
    row = {"game": "scout", "options": {}, "seed": 3, "listed": False,
           "takeover_after": None, "takeover_level": "easy", "status": "playing",
           "version": 0, "created_at": 0.0, "updated_at": 0.0, "result": None}
    kinds = {"hosted": ["human", "human", "bot", "human"], "older": ["human", "human"]}
    with engine.connect().execution_options(write=True) as conn:
        conn.execute(insert(tables).values(id="hosted", players=4, host_seat=0, **row))
        conn.execute(insert(tables).values(id="older", players=2, **row))
        conn.execute(insert(seats), [
            {"table_id": t, "seat": k, "kind": kind, "level": "easy" if kind == "bot" else None,
             "token_hash": hash_token(f"{t}{k}") if kind == "human" and k < 3 else None,
             "claimed": k == 0, "last_seen": 0.0, "bot_playing": None}
            for t, ks in kinds.items() for k, kind in enumerate(ks)])
        conn.commit()
    migrate(engine)
    assert current_revision(engine) == head_revision()
    master = TableMaster(SqlStorage(engine), Settings(db_url=db_url))
    assert [s.invited for s in master.load("hosted").seats] == [False, True, False, False]
    assert [s.invited for s in master.load("older").seats] == [False, False]
    assert master.accept_invite("hosted", "hosted0") == (0, "hosted0")
    assert master.accept_invite("older", "older1") == (1, "older1")
    seat, own = master.accept_invite("hosted", "hosted1")
    assert seat == 1 and own != "hosted1" and master.load("hosted").seats[1].claimed


def test_a_socket_on_another_worker_is_closed_at_the_exchange(pg_url: str) -> None:
    """The host's socket on Ben's seat is held by worker A; Ben exchanges the link through
    worker B: A hears of it (NOTIFY) and closes the socket."""
    from tests.server.conftest import make_client

    with make_client(pg_url) as a, make_client(pg_url) as b:
        made = hosted(a, None, [{}, {"invite": "Ben"}])
        t, invite = made["table"], made["seats"][1]["token"]
        view(a, t, made["seats"][0]["token"])
        with _socket(a, t, invite) as ws:
            assert ws.receive_json()["view"]["seat"] == 1
            r = b.post(f"/api/tables/{t}/accept", json={"token": invite})
            assert r.status_code == 200 and r.json()["token"] != invite
            for _ in range(200):  # pinged until A has heard (a pong: not yet)
                ws.send_json({"type": "ping"})
                while (msg := ws.receive_json())["type"] == "view":
                    pass
                if msg["type"] == "error":
                    break
                assert msg["type"] == "pong"
                time.sleep(0.05)
            assert msg["type"] == "error" and msg["problem"]["status"] == 403
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4403
