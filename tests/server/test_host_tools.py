"""Looking after a server (`bigtop host …`, `bigtop serve --block`): the host finds
identities and chat, removes messages, blocks an identity (its key opens nothing: no seat,
no table, no chat, on every worker) and lifts it, closes a table, and turns addresses away.
Each against a running app on the same database (SQLite and PostgreSQL); every bad input is
one line and exit code 2, nothing changed."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from bigtop.cli import app
from bigtop.server import Limits
from tests.server.conftest import make_client
from tests.server.test_api import auth, problem
from tests.server.test_players import new_player

runner = CliRunner()


def host(db: str, *args: str, code: int = 0) -> str:
    res = runner.invoke(app, ["host", args[0], "--db", db, *args[1:]])
    assert res.exit_code == code, res.output
    if code:
        assert res.output.startswith("error: ") and res.output.count("\n") == 1, res.output
    return str(res.output)


def chat_texts(c: TestClient, table: str) -> list[str]:
    r = c.get(f"/api/tables/{table}/chat")
    assert r.status_code == 200, r.text
    return [m["text"] for m in r.json()["messages"]]


def seated(c: TestClient, key: str) -> dict[str, Any]:
    """A table of two people where the identity of ``key`` hosts (seat 0, its key opens
    it) beside a seat token's person."""
    r = c.post("/api/tables", json={"game": "scout", "players": 2, "host_seat": 0},
               headers=auth(key))
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def test_find_and_remove_chat(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        anna, ben = new_player(c, "Anna"), new_player(c, "Ben Troll")
        made = seated(c, anna["key"])
        t = made["table"]
        assert c.post(f"/api/tables/{t}/join", json={"seat": 1},
                      headers=auth(ben["key"])).status_code == 200
        for key, text in ((anna["key"], "hello"), (ben["key"], "rude 1"),
                          (ben["key"], "rude 2"), (anna["key"], "bye")):
            r = c.post(f"/api/tables/{t}/chat", json={"text": text}, headers=auth(key))
            assert r.status_code == 201, r.text
        listed = host(sqlite_url, "players", "--name", "TROLL").splitlines()
        assert len(listed) == 1 and listed[0].startswith(ben["id"] + "\t")
        assert listed[0].endswith("\t1 open seats\t-\tBen Troll")
        lines = host(sqlite_url, "chat", "--table", t).splitlines()
        assert [line.split("\t")[-1] for line in lines] == ["bye", "rude 2", "rude 1", "hello"]
        assert lines[1].split("\t")[3:5] == ["P1", "Ben Troll"]
        first = lines[0].split("\t")[0]  # "bye", by id
        assert host(sqlite_url, "remove-chat", first) == "removed 1 message\n"
        assert host(sqlite_url, "remove-chat", "--player", ben["id"]) == "removed 2 messages\n"
        assert chat_texts(c, t) == ["hello"]
        assert host(sqlite_url, "chat", "--player", ben["id"]) == "no chat message\n"
        # Bad input: one line, nothing removed.
        host(sqlite_url, "remove-chat", code=2)
        host(sqlite_url, "remove-chat", "0", code=2)
        assert chat_texts(c, t) == ["hello"]


def test_a_blocked_identity_opens_nothing_until_unblocked(db_url: str) -> None:
    with make_client(db_url) as a, make_client(db_url) as b:
        anna, ben = new_player(a, "Anna"), new_player(a, "Ben")
        made = seated(a, ben["key"])
        t = made["table"]
        assert a.get(f"/api/tables/{t}", headers=auth(ben["key"])).json()["seat"] == 0
        assert host(db_url, "block", ben["id"], "--note", "spam in chat") == \
            f"blocked {ben['id']}\n"
        host(db_url, "block", ben["id"], code=2)  # blocked already
        # On both workers (B has never seen the table; A held it in memory).
        for c in (a, b):
            problem(c.get("/api/players/me", headers=auth(ben["key"])), 403, "blocked")
            problem(c.post("/api/tables", json={"game": "scout", "players": 2},
                           headers=auth(ben["key"])), 403, "blocked")
            problem(c.post(f"/api/tables/{t}/chat", json={"text": "x"},
                           headers=auth(ben["key"])), 403, "wrong-token")
            problem(c.get(f"/api/tables/{t}", headers=auth(ben["key"])), 403, "wrong-token")
        assert "spam" not in a.get("/api/players/me", headers=auth(ben["key"])).text
        assert host(db_url, "players", "--name", "ben").split("\t")[3] == "blocked"
        # A name nobody should see, changed by the host (the rule for names holds).
        said = host(db_url, "rename", ben["id"], "  Player 7 ")
        assert said == f"renamed {ben['id']}: Player 7\n"
        host(db_url, "rename", ben["id"], "x" * 33, code=2)
        host(db_url, "rename", "nobody", "Y", code=2)
        assert a.get(f"/api/tables/{t}").json()["seats"][0]["name"] == "Player 7"
        assert a.get("/api/players/me", headers=auth(anna["key"])).status_code == 200
        assert host(db_url, "unblock", ben["id"]) == f"unblocked {ben['id']}\n"
        host(db_url, "unblock", ben["id"], code=2)
        for c in (a, b):
            assert c.get("/api/players/me", headers=auth(ben["key"])).status_code == 200
            assert c.get(f"/api/tables/{t}", headers=auth(ben["key"])).json()["seat"] == 0
        # Bad input: no such identity; a note with a line break.
        host(db_url, "block", "nobody", code=2)
        host(db_url, "block", anna["id"], "--note", "a\nb", code=2)
        assert a.get("/api/players/me", headers=auth(anna["key"])).status_code == 200


def test_the_host_closes_a_table(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        r = c.post("/api/tables", json={"game": "scout", "players": 3, "listed": True,
                                        "seats": [{}, {}, {"kind": "bot", "level": "random"}]})
        assert r.status_code == 201, r.text
        t, token = r.json()["table"], r.json()["seats"][0]["token"]
        assert t in [e["table"] for e in c.get("/api/lobby").json()["tables"]]
        assert host(sqlite_url, "close", t) == f"closed {t}\n"
        host(sqlite_url, "close", t, code=2)  # not open any more
        host(sqlite_url, "close", "nope", code=2)
        # Ids never start with "-" now; one made before goes after "--".
        assert host(sqlite_url, "close", "--", "-Pnope", code=2) == \
            "error: no open table '-Pnope'\n"
        view = c.get(f"/api/tables/{t}", headers=auth(token)).json()
        assert view["status"] == "expired" and view["result"] is None
        closed = [e for e in view["log"] if e["kind"] == "closed"]
        assert [e["text"] for e in closed] == ["The server's host closed this table"]
        assert t not in [e["table"] for e in c.get("/api/lobby").json()["tables"]]
        problem(c.post(f"/api/tables/{t}/resign", headers=auth(token)), 409, "game-over")


def test_a_blocked_address_is_turned_away(sqlite_url: str) -> None:
    with make_client(sqlite_url, peer="127.0.0.1",
                     blocked=("203.0.113.0/24", "2001:db8::/32")) as c:
        away = {"x-forwarded-for": "203.0.113.7"}
        for r in (c.get("/api/games", headers=away), c.get("/", headers=away),
                  c.post("/api/players", json={"name": "X"}, headers=away),
                  c.get("/api/games", headers={"x-forwarded-for": "2001:db8:1::5"})):
            body = problem(r, 403, "blocked")
            assert "blocked by the server's host" in body["detail"]
            assert "content-security-policy" in r.headers
        with c.websocket_connect("/api/lobby/ws", headers=away) as ws:
            assert ws.receive_json()["problem"]["type"] == "/problems/blocked"
        # Everyone else, and the proxy itself, is served.
        assert c.get("/api/games", headers={"x-forwarded-for": "198.51.100.1"}).status_code \
            == 200
        assert c.get("/api/games").status_code == 200


def test_the_sweep_forgets_identities_nobody_used(db_url: str) -> None:
    """``unused_player_seconds`` after it was made, an identity that sits at no table and
    has no rating is deleted (one address could make 60 an hour, kept forever); one that
    sits somewhere, or that the host blocked, stays."""
    import time

    with make_client(db_url, limits=Limits(unused_player_seconds=1.0)) as c:
        idle, seated_one, blocked = (new_player(c, n) for n in ("Idle", "Sits", "Troll"))
        seated(c, seated_one["key"])
        host(db_url, "block", blocked["id"])
        time.sleep(1.5)  # the sweep runs every 0.1 s here
        fresh = new_player(c, "Fresh")
        problem(c.get("/api/players/me", headers=auth(idle["key"])), 401, "player-key-required")
        for kept in (seated_one, fresh):
            assert c.get("/api/players/me", headers=auth(kept["key"])).status_code == 200
        problem(c.get("/api/players/me", headers=auth(blocked["key"])), 403, "blocked")
