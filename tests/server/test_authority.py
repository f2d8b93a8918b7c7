"""Authority on every worker: a seat token is checked in the transaction that stores the
move, so a token revoked through one worker fails at once through another, whatever the
other still holds in memory (two app instances, each with its own memory, on one database:
SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

from tests.server.conftest import make_client


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
        master = a.app.state.runtime.master  # type: ignore[attr-defined]
        assert master.touch(table, 1, tokens[1]) is None
