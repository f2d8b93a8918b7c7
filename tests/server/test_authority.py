"""Authority on every worker: a seat token is checked in the transaction that stores the
move, so a token revoked through one worker fails at once through another, whatever the
other still holds in memory (two app instances, each with its own memory, on one database:
SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from bigtop.server.model import hash_token, new_token
from bigtop.server.schema import seats
from tests.server.conftest import make_client, runtime_of


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def test_a_revoked_token_fails_on_every_worker_at_once(db_url: str) -> None:
    with make_client(db_url) as a, make_client(db_url) as b:
        made = a.post("/api/tables", json={"game": "scout", "players": 2}).json()
        table, tokens = made["table"], [s["token"] for s in made["seats"]]
        # Seat 0 moves through worker A: A holds the table, seat 1 still unclaimed (the
        # friend's invite link, never used).
        view: dict[str, Any] = a.get(f"/api/tables/{table}", headers=bearer(tokens[0])).json()
        while view["current_player"] == 0:
            view = a.post(f"/api/tables/{table}/moves", headers=bearer(tokens[0]),
                          json={"version": view["version"], "index": 0}).json()
        version = view["version"]
        assert view["current_player"] == 1 and not view["seats"][1]["claimed"]
        # A stranger takes seat 1 through worker B: the friend's token is revoked.
        joined = b.post(f"/api/tables/{table}/join", json={"seat": 1})
        assert joined.status_code == 200, joined.text
        stranger = joined.json()["token"]
        # The friend's old token through worker A, whose memory still has the old seats:
        # refused, nothing stored, no view of seat 1's hand.
        r = a.post(f"/api/tables/{table}/moves", headers=bearer(tokens[1]),
                   json={"version": version, "index": 0})
        assert r.status_code == 403, r.text
        assert "observation" not in r.json()
        assert b.get(f"/api/tables/{table}").json()["version"] == version
        assert a.get(f"/api/tables/{table}", headers=bearer(tokens[1])).status_code == 403
        with a.websocket_connect(f"/api/tables/{table}/ws",
                                 headers=bearer(tokens[1])) as ws:
            assert ws.receive_json()["problem"]["status"] == 403
        # The seat's new holder moves through A.
        r = a.post(f"/api/tables/{table}/moves", headers=bearer(stranger),
                   json={"version": version, "index": 0})
        assert r.status_code == 200, r.text
        assert b.get(f"/api/tables/{table}").json()["version"] > version


def test_a_revoked_token_cannot_claim_presence(db_url: str) -> None:
    """The friend's old token does not mark the new holder present (nor claim the seat)
    through a worker that still holds the old seats."""
    with make_client(db_url) as a, make_client(db_url) as b:
        made = a.post("/api/tables", json={"game": "scout", "players": 2}).json()
        table, tokens = made["table"], [s["token"] for s in made["seats"]]
        a.get(f"/api/tables/{table}", headers=bearer(tokens[0]))  # A holds the table
        assert b.post(f"/api/tables/{table}/join", json={"seat": 1}).status_code == 200
        master = runtime_of(a).master
        assert master.touch(table, 1, tokens[1]) is None


# -- the rest of what a seat does, checked at write time --------------------------------------
# A seat's token can change hands between the router's check (open_table) and the write: a
# stranger takes a free seat, the host's start gives an empty seat to a bot, or (what these
# tests do, deterministically, whichever way it came) the seat gets a new token. Each test
# revokes the token right after the router's check, by wrapping the call that follows it, and
# expects a refusal and nothing changed.

def reinvite(master: Any, table: str, seat: int) -> str:
    """Give ``seat`` a new token, as a seat change every worker hears of (the seat revision
    moves on): the old token no longer opens it. Returns the new token."""
    storage = master.storage
    token = new_token()
    with storage._write() as conn:
        conn.execute(update(seats).where(seats.c.table_id == table, seats.c.seat == seat)
                     .values(token_hash=hash_token(token)))
        storage._seats_changed(conn, table)
        conn.commit()
    return token


def revoke_before(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, master: Any,
                  table: str, seat: int, when: Any = None) -> list[str]:
    """Make ``owner.name`` (a master's or storage's method) first revoke ``seat``'s token
    (once, where ``when(*args, **kwargs)`` holds), then do what it does. The list gets the
    seat's new token."""
    original = getattr(owner, name)
    done: list[str] = []

    def revoking(*args: Any, **kwargs: Any) -> Any:
        if not done and (when is None or when(*args, **kwargs)):
            done.append(reinvite(master, table, seat))
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, revoking)
    return done


def two_people(c: TestClient, **body: Any) -> tuple[str, list[str], Any]:
    made = c.post("/api/tables", json={"game": "scout", "players": 2, **body}).json()
    return (made["table"], [s["token"] for s in made["seats"]],
            runtime_of(c).master)


def test_chat_from_a_token_revoked_before_the_write_is_not_stored(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with make_client(db_url) as c:
        table, tokens, master = two_people(c)
        url = f"/api/tables/{table}/chat"
        assert c.post(url, json={"text": "hi"}, headers=bearer(tokens[1])).status_code == 201
        # Revoked after every check the router and the master make, just before the
        # storage's transaction: that transaction refuses it.
        revoked = revoke_before(monkeypatch, master.storage, "add_chat", master, table, 1)
        r = c.post(url, json={"text": "still me?"}, headers=bearer(tokens[1]))
        assert r.status_code == 403 and r.json()["type"] == "/problems/wrong-token", r.text
        assert revoked
        texts = [m["text"] for m in c.get(url, headers=bearer(tokens[0])).json()["messages"]]
        assert texts == ["hi"]
        # The seat's new token writes.
        assert c.post(url, json={"text": "me"}, headers=bearer(revoked[0])).status_code == 201


def _moved_once(c: TestClient, table: str, token: str) -> dict[str, Any]:
    view: dict[str, Any] = c.get(f"/api/tables/{table}", headers=bearer(token)).json()
    while view["current_player"] == 0:
        view = c.post(f"/api/tables/{table}/moves", headers=bearer(token),
                      json={"version": view["version"], "index": 0}).json()
    return view


def test_a_take_back_asked_with_a_token_revoked_before_the_write_changes_nothing(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with make_client(db_url) as c:
        table, tokens, master = two_people(c)
        version = _moved_once(c, table, tokens[0])["version"]
        # Revoked after the router's check, before the master loads the table whose seat
        # revision guards the write.
        revoked = revoke_before(monkeypatch, master, "ask_undo", master, table, 0)
        r = c.post(f"/api/tables/{table}/undo", headers=bearer(tokens[0]))
        assert r.status_code == 403 and r.json()["type"] == "/problems/wrong-token", r.text
        view = c.get(f"/api/tables/{table}", headers=bearer(tokens[1])).json()
        assert revoked and view["undo"] is None and view["version"] == version


def test_a_take_back_accepted_with_a_token_revoked_before_the_write_changes_nothing(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with make_client(db_url) as c:
        table, tokens, master = two_people(c)
        version = _moved_once(c, table, tokens[0])["version"]
        r = c.post(f"/api/tables/{table}/undo", headers=bearer(tokens[0]))
        assert r.status_code == 200 and r.json()["undo"]["waiting_for"] == [1], r.text
        revoked = revoke_before(monkeypatch, master, "answer_undo", master, table, 1)
        r = c.post(f"/api/tables/{table}/undo/accept", headers=bearer(tokens[1]))
        assert r.status_code == 403 and r.json()["type"] == "/problems/wrong-token", r.text
        view = c.get(f"/api/tables/{table}", headers=bearer(tokens[0])).json()
        assert revoked and view["version"] == version  # nothing taken back
        assert view["undo"]["accepted"] == [] and view["undo"]["waiting_for"] == [1]


def test_a_token_revoked_after_the_take_backs_load_misses_its_guard(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the take-backs rely on: a revocation after the master's load (the token was
    checked against it) moves the seat revision on, and the write's guard misses."""
    with make_client(db_url) as c:
        table, tokens, master = two_people(c)
        version = _moved_once(c, table, tokens[0])["version"]
        revoke_before(monkeypatch, master.storage, "set_undo", master, table, 0)
        r = c.post(f"/api/tables/{table}/undo", headers=bearer(tokens[0]))
        assert r.status_code == 409, r.text
        view = c.get(f"/api/tables/{table}", headers=bearer(tokens[1])).json()
        assert view["undo"] is None and view["version"] == version


def test_a_seat_reclaimed_with_a_token_revoked_before_the_write_stays_the_bots(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with make_client(db_url) as c:
        table, tokens, master = two_people(c, takeover_after=60.0)
        assert master.seat_event(table, 1, "takeover", "P1 is away", "easy",
                                 only_if="absent") is not None
        revoked = revoke_before(monkeypatch, master.storage, "set_bot_playing", master, table,
                                1, when=lambda *a, **k: k.get("only_if") == "taken")
        r = c.post(f"/api/tables/{table}/reclaim", headers=bearer(tokens[1]))
        assert r.status_code == 403 and r.json()["type"] == "/problems/wrong-token", r.text
        view = c.get(f"/api/tables/{table}", headers=bearer(tokens[0])).json()
        assert revoked and view["seats"][1]["bot_playing"] == "easy"
        r = c.post(f"/api/tables/{table}/reclaim", headers=bearer(revoked[0]))
        assert r.status_code == 200 and r.json()["seats"][1]["bot_playing"] is None, r.text


def test_a_start_with_a_host_token_revoked_before_the_write_starts_nothing(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with make_client(db_url) as c:
        table, tokens, master = two_people(c, wait=True)
        assert c.get(f"/api/tables/{table}",
                     headers=bearer(tokens[0])).json()["status"] == "waiting"
        revoked = revoke_before(monkeypatch, master.storage, "start_table", master, table, 0,
                                when=lambda _t, bots, *a, **k: bool(bots))
        r = c.post(f"/api/tables/{table}/start", headers=bearer(tokens[0]))
        assert r.status_code == 403 and r.json()["type"] == "/problems/wrong-token", r.text
        view = c.get(f"/api/tables/{table}").json()
        assert revoked and view["status"] == "waiting"
        assert [s["kind"] for s in view["seats"]] == ["human", "human"]
        r = c.post(f"/api/tables/{table}/start", headers=bearer(revoked[0]))
        assert r.status_code == 200 and r.json()["status"] == "playing", r.text


def _finished(master: Any, table: str) -> None:
    """The table over, as far as a rematch cares (seen by every worker: the seat revision
    moves on)."""
    from bigtop.server.schema import tables
    with master.storage._write() as conn:
        conn.execute(update(tables).where(tables.c.id == table)
                     .values(status="finished", seat_rev=tables.c.seat_rev + 1))
        conn.commit()


@pytest.mark.parametrize("when", ["create_table", "set_seat_token"])
def test_a_rematch_asked_with_a_token_revoked_before_the_write_gives_nothing(
        db_url: str, monkeypatch: pytest.MonkeyPatch, when: str) -> None:
    """Revoked before the transaction that makes the new table (nothing made) or before the
    one that gives the asker's new seat its token (the new table stands, made by a holder
    then, but the old token gets no seat there)."""
    with make_client(db_url) as c:
        table, tokens, master = two_people(c)
        _finished(master, table)
        revoked = revoke_before(monkeypatch, master.storage, when, master, table, 1)
        r = c.post(f"/api/tables/{table}/rematch", headers=bearer(tokens[1]))
        assert r.status_code == 403 and r.json()["type"] == "/problems/wrong-token", r.text
        assert revoked
        rematch = c.get(f"/api/tables/{table}").json()["rematch"]
        if when == "create_table":
            assert rematch is None
        else:
            assert rematch is not None
            assert master.load(rematch).seats[0].token_hash is None  # old seat 1's
        # The seat's holder now gets the rematch, and their seat's token there.
        r = c.post(f"/api/tables/{table}/rematch", headers=bearer(revoked[0]))
        assert r.status_code == 200 and r.json()["token"], r.text
        assert master.load(r.json()["table"]).seats[0].token_hash == hash_token(
            r.json()["token"])


def test_the_master_refuses_a_rematch_by_a_token_of_another_seat(db_url: str) -> None:
    """The master checks the token itself (a caller that skipped the router's check)."""
    with make_client(db_url) as c:
        table, tokens, master = two_people(c)
        _finished(master, table)
        with pytest.raises(Exception, match="not a seat"):
            master.rematch(table, 0, tokens[1])
        assert master.load(table).meta.rematch_id is None
