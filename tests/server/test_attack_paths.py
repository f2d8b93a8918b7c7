"""A path with a NUL character (``%00``) names nothing: PostgreSQL refuses NUL in text, so a
table id holding one made every table route a 500 (its traceback logged), the WebSocket
handshake a plain-text 500, on a PostgreSQL server (SQLite answered 404). The edge answers
404 before any route."""

from __future__ import annotations

from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import make_client


def test_a_nul_in_an_api_path_is_not_found(pg_url: str) -> None:
    with make_client(pg_url) as c:
        for method, path in (("GET", "/api/tables/%00x"), ("GET", "/api/tables/x%00/replay"),
                             ("POST", "/api/tables/%00/join"), ("GET", "/api/ratings/a%00"),
                             ("HEAD", "/api/tables/%00x")):
            r = c.request(method, path, json={} if method == "POST" else None)
            assert r.status_code == 404, (method, path, r.text)
            if method != "HEAD":
                assert r.json()["type"] == "/problems/not-found"
        with c.websocket_connect("/api/tables/%00x/ws") as ws:
            told = ws.receive_json()
            assert told["type"] == "error" and told["problem"]["status"] == 404
            try:
                ws.receive_json()
            except WebSocketDisconnect as closed:
                assert closed.code == 4404
