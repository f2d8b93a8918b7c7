"""A table's chat: players write, spectators read (the host's choice), live over the
WebSocket; every error (on SQLite through the ASGI app; the storage on PostgreSQL too)."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from bigtop.server import Limits
from bigtop.server.db import make_engine, migrate
from bigtop.server.master import TableMaster
from bigtop.server.model import TableSpec
from bigtop.server.schema import chat, tables
from bigtop.server.settings import Settings
from bigtop.server.storage import SqlStorage
from tests.server.conftest import make_client
from tests.server.test_api import auth, create, problem


def say(c: TestClient, table: str, token: str, text: str) -> Any:
    return c.post(f"/api/tables/{table}/chat", json={"text": text}, headers=auth(token))


def test_players_write_and_everyone_reads(client: TestClient) -> None:
    anna = client.post("/api/players", json={"name": "Anna"}).json()
    made = client.post("/api/tables", json={"game": "scout", "players": 2},
                       headers=auth(anna["key"])).json()
    t, tok0, tok1 = made["table"], made["seats"][0]["token"], made["seats"][1]["token"]
    assert client.get(f"/api/tables/{t}/chat").json() == {"table": t, "messages": []}
    r = say(client, t, tok0, "  hello <script>alert(1)</script> ")
    assert r.status_code == 201, r.text
    first = r.json()
    assert set(first) == {"id", "seat", "name", "text", "at"}
    assert (first["seat"], first["name"]) == (0, "Anna")
    assert first["text"] == "hello <script>alert(1)</script>"  # plain text, kept as written
    second = say(client, t, anna["key"], "the key writes for her seat too").json()
    third = say(client, t, tok1, "hi").json()
    assert third["seat"] == 1 and third["name"] is None
    assert first["id"] < second["id"] < third["id"]
    for headers in ({}, auth(tok0), auth(tok1)):
        got = client.get(f"/api/tables/{t}/chat", headers=headers).json()["messages"]
        assert got == [first, second, third]
    after = client.get(f"/api/tables/{t}/chat?after={first['id']}").json()["messages"]
    assert after == [second, third]
    assert client.get(f"/api/tables/{t}").json()["chat_spectators_read"] is True


def test_chat_errors(client: TestClient) -> None:
    made = create(client)
    t, tok = made["table"], made["seats"][0]["token"]
    problem(client.post(f"/api/tables/{t}/chat", json={"text": "x"}), 401,
            "seat-token-required")
    problem(say(client, t, "not-a-seat", "x"), 403, "wrong-token")
    problem(say(client, "nope", tok, "x"), 404, "not-found")
    problem(client.get("/api/tables/nope/chat"), 404, "not-found")
    other = create(client)
    problem(say(client, other["table"], tok, "x"), 403, "wrong-token")  # another table's
    for text, why in [("", "empty"), ("   ", "empty"), ("x" * 501, "at most 500"),
                      ("a\nb", "control"), ("a\u202eb", "control")]:
        assert why in problem(say(client, t, tok, text), 422, "invalid")["detail"]
    problem(client.post(f"/api/tables/{t}/chat", json={"text": 5}, headers=auth(tok)), 422,
            "invalid")
    problem(client.post(f"/api/tables/{t}/chat", json={"text": "x", "seat": 1},
                        headers=auth(tok)), 422, "invalid")
    problem(client.post(f"/api/tables/{t}/chat", json={}, headers=auth(tok)), 422, "invalid")
    problem(client.get(f"/api/tables/{t}/chat?token={tok}"), 400, "token-in-url")
    problem(client.get(f"/api/tables/{t}/chat?after=-1"), 422, "invalid")
    assert client.get(f"/api/tables/{t}/chat").json()["messages"] == []  # nothing stored


def test_the_host_keeps_the_chat_from_spectators(client: TestClient) -> None:
    made = create(client, chat_spectators_read=False)
    t, tok0, tok1 = made["table"], made["seats"][0]["token"], made["seats"][1]["token"]
    assert client.get(f"/api/tables/{t}").json()["chat_spectators_read"] is False
    problem(client.get(f"/api/tables/{t}/chat"), 401, "seat-token-required")
    client.get(f"/api/tables/{t}", headers=auth(tok0))  # seat 0 claimed before the sockets
    with client.websocket_connect(f"/api/tables/{t}/ws", headers=auth(tok1)) as ws1, \
            client.websocket_connect(f"/api/tables/{t}/ws") as spectator:
        assert ws1.receive_json()["type"] == "view"
        assert spectator.receive_json()["type"] == "view"
        msg = say(client, t, tok0, "players only").json()
        assert ws1.receive_json() == {"type": "chat", "message": msg}
        spectator.send_json({"type": "ping"})  # the next thing it hears is the pong
        assert spectator.receive_json() == {"type": "pong"}
    assert client.get(f"/api/tables/{t}/chat", headers=auth(tok1)).json()["messages"] == [msg]


def test_chat_is_live_on_every_socket_of_the_table_once(client: TestClient) -> None:
    made = create(client)
    t, tok0 = made["table"], made["seats"][0]["token"]
    old = say(client, t, tok0, "before anyone watched").json()
    other = create(client)
    with client.websocket_connect(f"/api/tables/{t}/ws", headers=auth(tok0)) as ws0, \
            client.websocket_connect(f"/api/tables/{t}/ws") as spectator, \
            client.websocket_connect(f"/api/tables/{other['table']}/ws") as elsewhere:
        for ws in (ws0, spectator, elsewhere):
            assert ws.receive_json()["type"] == "view"
        msg = say(client, t, tok0, "hi all").json()
        assert msg["id"] > old["id"]
        for ws in (ws0, spectator):
            assert ws.receive_json() == {"type": "chat", "message": msg}
            ws.send_json({"type": "ping"})  # nothing else came (the old message, twice)
            assert ws.receive_json() == {"type": "pong"}
        elsewhere.send_json({"type": "ping"})
        assert elsewhere.receive_json() == {"type": "pong"}


def test_chat_rate_per_seat_and_per_address(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(chat_per_minute=0.001, chat_burst=2)) as c:
        made = create(c)
        t, tok0, tok1 = made["table"], made["seats"][0]["token"], made["seats"][1]["token"]
        far = TestClient(c.app, client=("203.0.113.7", 4000))
        assert [say(c, t, tok0, "x").status_code for _ in range(2)] == [201, 201]
        problem(say(c, t, tok0, "x"), 429, "rate-limited")
        problem(say(far, t, tok0, "x"), 429, "rate-limited")  # the seat's limit, anywhere
        # Seat 1 from this address: the address's allowance is spent.
        problem(say(c, t, tok1, "x"), 429, "rate-limited")
        # Seat 1 from another address writes.
        assert say(far, t, tok1, "x").status_code == 201
        assert len(c.get(f"/api/tables/{t}/chat").json()["messages"]) == 3


def test_chat_count_and_page_are_bounded(sqlite_url: str) -> None:
    limits = Limits(max_chat_messages=3, max_chat_page=2)
    with make_client(sqlite_url, limits=limits) as c:
        made = create(c)
        t, tok = made["table"], made["seats"][0]["token"]
        ids = [say(c, t, tok, f"m{i}").json()["id"] for i in range(3)]
        problem(say(c, t, tok, "one too many"), 409, "conflict")
        page = c.get(f"/api/tables/{t}/chat").json()["messages"]
        assert [m["id"] for m in page] == ids[:2]
        rest = c.get(f"/api/tables/{t}/chat?after={ids[1]}").json()["messages"]
        assert [m["text"] for m in rest] == ["m2"]
        # Another table has its own count.
        other = create(c)
        assert say(c, other["table"], other["seats"][0]["token"], "x").status_code == 201


def test_chat_on_each_storage(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    master = TableMaster(SqlStorage(engine), Settings(db_url=db_url))
    made = master.create(TableSpec("scout", 2, chat_spectators_read=False))
    assert master.load(made.table_id).meta.chat_spectators_read is False
    assert master.storage.last_chat_id(made.table_id) == 0
    a = master.post_chat(made.table_id, 0, " é <b> ")
    b = master.post_chat(made.table_id, 1, "two")
    assert a.text == "é <b>" and b.id > a.id
    assert master.storage.last_chat_id(made.table_id) == b.id
    assert master.chat(made.table_id, 0) == [a, b]
    assert master.chat(made.table_id, a.id) == [b]
    assert master.create(TableSpec("scout", 2)).table_id != made.table_id
    # An ended table past its retention goes with its chat.
    with engine.connect() as conn:
        conn.execute(update(tables).where(tables.c.id == made.table_id)
                     .values(status="finished"))
        conn.commit()
    assert master.storage.delete_ended(time.time() + 1, 10) == [made.table_id]
    assert master.chat(made.table_id, 0) == []
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(chat)).scalar_one() == 0
