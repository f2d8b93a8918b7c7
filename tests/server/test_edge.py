"""The server's edges for strangers: the read budget per client address, the picture's
cache and ETag, each WebSocket's message budget, no secret in any URL, HEAD like GET
(server/edge.py, routers/tables.py, routers/ws.py). Clients are named through the trusted
proxy, as in test_limits.py."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from bigtop.server import Limits
from bigtop.server.edge import SECRET_PARAMS
from tests.server.conftest import make_client, runtime_of
from tests.server.test_api import auth, create, problem, wait_for
from tests.server.test_limits import A, B, by, limited

BOTS = [{"kind": "bot", "level": "random"}] * 2


def move(c: TestClient, table: str, token: str, address: str = A) -> None:
    """The seat of ``token`` plays its first legal action."""
    view = c.get(f"/api/tables/{table}", headers=by(address, token)).json()
    r = c.post(f"/api/tables/{table}/moves", headers=by(address, token),
               json={"version": view["version"], "index": 0})
    assert r.status_code == 200, r.text


# -- the read budget ------------------------------------------------------------------------
def test_reads_per_address_are_bounded_and_heavy_ones_cost_more(
        sqlite_url: str, tmp_path: Path) -> None:
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "index.html").write_text("<!doctype html><title>t</title>")
    limits = Limits(reads_per_minute=1, read_burst=5, heavy_read_tokens=3)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits,
                     static_dir=str(tmp_path / "web")) as c:
        made = create(c, seats=[{"kind": "human"}, {"kind": "human"}])
        t, tok = made["table"], made["seats"][0]["token"]
        for _ in range(5):
            assert c.get(f"/api/tables/{t}", headers=by(A)).status_code == 200
        body = limited(c.get(f"/api/tables/{t}", headers=by(A)))
        assert "one address may read 5 times at once and 1 times a minute" in body["detail"]
        assert body["retry_after"] >= 30  # a token a minute
        head = c.head(f"/api/tables/{t}", headers=by(A))  # HEAD is a read too
        assert head.status_code == 429 and int(head.headers["retry-after"]) >= 30
        # Writes take no read tokens (they have rates of their own): A still moves.
        view = c.get(f"/api/tables/{t}", headers=by(B, tok)).json()
        r = c.post(f"/api/tables/{t}/moves", headers=by(A, tok),
                   json={"version": view["version"], "index": 0})
        assert r.status_code == 200
        # Static files are not counted; a WebSocket connect is (refused like every socket).
        assert c.get("/", headers=by(A)).status_code == 200
        with c.websocket_connect(f"/api/tables/{t}/ws", headers=by(A)) as ws:
            assert ws.receive_json()["problem"]["status"] == 429
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4429
        # Another address has its own budget: B spent one token above; a heavy read takes 3.
        assert c.get("/api/lobby", headers=by(B)).status_code == 200
        limited(c.get("/api/lobby", headers=by(B)))  # 1 token left, 3 needed
        assert c.get(f"/api/tables/{t}", headers=by(B)).status_code == 200


def test_heavy_read_tokens_cannot_exceed_the_burst() -> None:
    with pytest.raises(Exception, match="heavy_read_tokens may be at most read_burst"):
        Limits(read_burst=5, heavy_read_tokens=6)


# -- the picture ----------------------------------------------------------------------------
def test_the_picture_is_drawn_once_a_version_and_revalidates_with_304(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with make_client(sqlite_url, peer="127.0.0.1") as c:
        made = create(c, seats=[{"kind": "human"}, {"kind": "human"}])
        t, toks = made["table"], [s["token"] for s in made["seats"]]
        pictures = runtime_of(c).pictures
        drawn: list[Any] = []
        put = pictures.put

        def recording(key: Any, value: Any, size: int) -> None:
            drawn.append(key)
            put(key, value, size)

        monkeypatch.setattr(pictures, "put", recording)
        url = f"/api/tables/{t}/picture.svg"
        first = c.get(url)
        assert first.status_code == 200 and first.headers["content-type"] == "image/svg+xml"
        etag = first.headers["etag"]
        assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
        assert first.headers["cache-control"] == "public, no-cache"
        assert first.headers["vary"] == "Authorization"
        again = c.get(url)
        assert again.content == first.content and len(drawn) == 1  # kept, not drawn again
        same = c.get(url, headers={"if-none-match": etag})
        assert same.status_code == 304 and same.content == b""
        assert same.headers["etag"] == etag
        assert c.get(url, headers={"if-none-match": f'"other", W/{etag}'}).status_code == 304
        seat = c.get(url, headers=auth(toks[0]))
        assert seat.headers["cache-control"] == "private, no-cache"
        assert seat.headers["etag"] != etag and len(drawn) == 2
        move(c, t, toks[0])  # seat 0 turns its hand (or not): its own picture changes
        changed = c.get(url, headers={**auth(toks[0]), "if-none-match": seat.headers["etag"]})
        assert changed.status_code == 200 and changed.headers["etag"] != seat.headers["etag"]
        assert len(drawn) == 3
        # The spectators' picture of the new version is drawn, and is the same as before
        # (the choice is hidden): the same ETag, so a 304.
        assert c.get(url, headers={"if-none-match": etag}).status_code == 304


def test_a_seat_s_picture_is_never_served_to_another_seat_or_a_spectator(
        sqlite_url: str) -> None:
    """SCOUT hides each hand: seat 0's picture (kept first) must not answer a spectator or
    seat 1, and each is what a worker with nothing kept draws."""
    with make_client(sqlite_url, peer="127.0.0.1") as c:
        made = create(c, seats=[{"kind": "human"}, {"kind": "human"}])
        t, toks = made["table"], [s["token"] for s in made["seats"]]
        url = f"/api/tables/{t}/picture.svg"
        asks: list[dict[str, str]] = [auth(toks[0]), {}, auth(toks[1])]
        kept = [c.get(url, headers=h).content for h in asks]
        assert len(set(kept)) == 3  # three different pictures
        runtime_of(c).pictures.clear()
        assert [c.get(url, headers=h).content for h in reversed(asks)] == kept[::-1]


def test_the_picture_cache_is_bounded_and_a_finished_picture_is_kept_by_browsers(
        sqlite_url: str) -> None:
    limits = Limits(picture_cache_entries=2)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits) as c:
        made = create(c, seats=[{"kind": "human"}, {"kind": "human"}])
        t, toks = made["table"], [s["token"] for s in made["seats"]]
        for h in ({}, auth(toks[0]), auth(toks[1])):
            assert c.get(f"/api/tables/{t}/picture.svg", headers=h).status_code == 200
        assert len(runtime_of(c).pictures) == 2
        done = create(c, seats=BOTS)["table"]
        wait_for(c, done, lambda v: v["status"] == "finished")
        r = c.get(f"/api/tables/{done}/picture.svg")
        assert r.headers["cache-control"] == "public, max-age=3600"


# -- each WebSocket's message budget -----------------------------------------------------------
def test_a_websocket_past_its_message_budget_is_told_and_closed(sqlite_url: str) -> None:
    limits = Limits(ws_messages_per_second=0.01, ws_message_burst=3)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits) as c:
        t = create(c)["table"]
        with c.websocket_connect(f"/api/tables/{t}/ws", headers=by(A)) as ws:
            ws.receive_json()  # the view
            for _ in range(3):
                ws.send_json({"type": "ping"})
                assert ws.receive_json() == {"type": "pong"}
            ws.send_json({"type": "ping"})
            p = ws.receive_json()["problem"]
            assert p["status"] == 429 and "one connection may send 3 messages" in p["detail"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4429
        with c.websocket_connect(f"/api/tables/{t}/ws", headers=by(A)) as ws:  # a new one
            ws.receive_json()
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}


def test_refused_websocket_messages_count_toward_the_address(sqlite_url: str) -> None:
    """A refused message did work (parsed, checked, answered): it takes a read token of its
    address; an address out of them is closed. Pings and moves take none."""
    limits = Limits(reads_per_minute=1, read_burst=4, heavy_read_tokens=1)
    with make_client(sqlite_url, peer="127.0.0.1", limits=limits) as c:
        t = create(c)["table"]
        with c.websocket_connect(f"/api/tables/{t}/ws", headers=by(A)) as ws:  # 1 token
            ws.receive_json()
            for _ in range(5):
                ws.send_json({"type": "ping"})
                assert ws.receive_json() == {"type": "pong"}
            for text in ("nope", '{"type": "dance"}', "[]"):  # 3 tokens: none left
                ws.send_text(text)
                assert ws.receive_json()["problem"]["status"] == 400
            ws.send_text("nope")
            assert ws.receive_json()["problem"]["status"] == 400
            assert ws.receive_json()["problem"]["status"] == 429
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4429
        assert c.get(f"/api/tables/{t}", headers=by(B)).status_code == 200


# -- no secret in a URL, HEAD like GET, over every route -------------------------------------
def routes(client: TestClient) -> list[Any]:
    """Every route of the app, those of its included routers too (FastAPI lists an
    included router as one entry)."""
    out: list[Any] = []
    for r in client.app.routes:  # type: ignore[attr-defined]
        inner = getattr(r, "original_router", None)
        out.extend(inner.routes if inner is not None else [r])
    return out


def route_url(path: str, table: str) -> str:
    """``path`` with its parameters filled: the table, a game, anything else."""
    return re.sub(r"\{(\w+)\}", lambda m: {"table_id": table, "game": "scout"}.get(
        m.group(1), "x"), path)


def test_no_route_takes_a_secret_in_its_url(client: TestClient) -> None:
    """``?token=``, ``?key=`` and the like are refused on every API route and WebSocket,
    whatever the method, before the route runs (nothing changes)."""
    made = create(client)
    t, tok = made["table"], made["seats"][0]["token"]
    api = [r for r in routes(client) if getattr(r, "path", "").startswith("/api")]
    assert len(api) > 20
    names = [*sorted(SECRET_PARAMS), "Token", "KEY"]
    for n, route in enumerate(api):
        url = route_url(route.path, t) + f"?since=0&{names[n % len(names)]}={tok}"
        if isinstance(route, APIWebSocketRoute):
            with client.websocket_connect(url) as ws:
                assert ws.receive_json()["problem"]["type"] == "/problems/token-in-url"
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == 4400
            continue
        assert isinstance(route, APIRoute) and route.methods is not None
        for method in route.methods:
            r = client.request(method, url, json={} if method != "GET" else None)
            body = problem(r, 400, "token-in-url")
            assert "Authorization: Bearer" in body["detail"], (method, url)
    assert client.get(f"/api/tables/{t}").json()["version"] == 0


def test_head_answers_every_api_get_route_like_get_without_a_body(client: TestClient) -> None:
    t = create(client)["table"]  # waiting for its people: it does not change
    gets = [r for r in routes(client)
            if isinstance(r, APIRoute) and r.methods is not None and "GET" in r.methods]
    assert len(gets) > 10
    for route in gets:
        url = route_url(route.path, t)
        got, head = client.get(url), client.head(url)
        assert head.status_code == got.status_code, (url, head.status_code, got.status_code)
        assert head.content == b""
        assert head.headers["content-type"] == got.headers["content-type"]
        assert head.headers["content-length"] == got.headers["content-length"]
    for url in ("/openapi.json", "/docs"):
        assert client.head(url).status_code == 200


def test_a_get_s_body_is_not_parsed(client: TestClient) -> None:
    """No route reads a GET's body, so the JSON checks do not run on it (a 64 KB body of
    keys took 5 ms to parse, 2.6 read tokens' worth, for nothing): answered as without it.
    A POST with the same body is refused (400, too deep)."""
    deep = b"[" * 5000 + b"]" * 5000
    headers = {"content-type": "application/json"}
    r = client.request("GET", "/api/games", content=deep, headers=headers)
    assert r.status_code == 200, r.text
    r = client.request("POST", "/api/players", content=deep, headers=headers)
    assert r.status_code == 400 and "deep" in r.text, r.text
