"""Security headers on every response, and the API docs from vendored assets only."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from bigtop.server.headers import CSP
from tests.server.conftest import make_client

EXPECTED = {"content-security-policy": CSP, "x-frame-options": "DENY",
            "x-content-type-options": "nosniff", "referrer-policy": "no-referrer"}


def has_security_headers(r: object) -> None:
    headers = r.headers  # type: ignore[attr-defined]
    for name, value in EXPECTED.items():
        assert headers.get(name) == value, (name, headers.get(name))


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    made = client.post("/api/tables", json={"game": "scout", "players": 2}).json()
    for r in (client.get("/api/games"), client.get(f"/api/tables/{made['table']}"),
              client.get("/api/tables/nope"),                         # 404 problem
              client.post("/api/tables", content=b"x" * 70_000,
                          headers={"content-type": "application/json"}),  # 413 (BodyLimit)
              client.post("/api/tables", json={"game": "chess"}),     # 422
              client.get(f"/api/tables/{made['table']}?token=x"),     # 400
              client.get("/"), client.get("/table.html"), client.get("/js/api.js"),
              client.get("/docs"), client.get("/docs/assets/swagger-ui.css"),
              client.get("/openapi.json"), client.get("/no/such/page")):
        has_security_headers(r)
    assert "frame-ancestors 'none'" in CSP and "'unsafe-inline'" not in CSP
    assert re.search(r"script-src 'self'(;|$)", CSP)


def test_the_api_docs_load_nothing_from_another_host(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    sources = [s for s in re.findall(r'(?:src|href)="([^"]+)"', page.text)
               if s != "data:,"]  # the empty icon: no request for /favicon.ico
    assert sources and all(s.startswith("/docs/assets/") for s in sources), sources
    assert "<script>" not in page.text  # no inline script: every script is a file
    for s in sources:
        assert client.get(s).status_code == 200, s
    assert client.get("/redoc").status_code == 404  # FastAPI's CDN pages are off
    bundle = client.get("/docs/assets/swagger-ui-bundle.js").text
    assert "cdn.jsdelivr" not in page.text + bundle[:2000]


def test_the_api_docs_can_be_turned_off(sqlite_url: str) -> None:
    with make_client(sqlite_url, api_docs=False) as c:
        assert c.get("/docs").status_code == 404
        assert c.get("/openapi.json").status_code == 200


def test_hsts_only_over_https(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        assert "strict-transport-security" not in c.get("/api/games").headers
        secure = c.get("https://testserver/api/games")
        assert secure.headers["strict-transport-security"] == "max-age=31536000"
    with make_client(sqlite_url, hsts_seconds=0) as c:
        assert "strict-transport-security" not in c.get("https://testserver/api/games").headers


def test_an_unhandled_error_answers_500_with_the_security_headers(sqlite_url: str) -> None:
    """Starlette's ServerErrorMiddleware answers an unhandled exception's 500 itself, outside
    every middleware added with ``add_middleware``: that 500 had none of the headers."""
    from fastapi.routing import APIRoute

    from bigtop.server import Settings, create_app

    app = create_app(Settings(db_url=sqlite_url, bot_processes=0))

    async def boom() -> None:
        raise RuntimeError("a bug")

    app.router.routes.insert(0, APIRoute("/api/boom", boom))  # before the static mount
    with TestClient(app, raise_server_exceptions=False, client=("127.0.0.1", 50000)) as c:
        r = c.get("/api/boom")
        assert r.status_code == 500
        assert r.json()["title"] == "Internal error" and "a bug" not in r.text
        has_security_headers(r)
        secure = c.get("/api/boom", headers={"x-forwarded-proto": "https"})  # via the proxy
        assert secure.status_code == 500
        has_security_headers(secure)
        assert secure.headers["strict-transport-security"] == "max-age=31536000"


def test_api_answers_are_not_stored_by_caches(client: TestClient) -> None:
    """A seat's view holds its hidden hand, the host's invite list every friend's token: an
    API answer says ``Cache-Control: no-store`` (none said anything, so a browser's disk
    cache, or a proxy's, could keep them, for whoever uses the machine next). A picture
    keeps its own caching (ETag, ``private`` for a seat's), static files theirs."""
    anna = client.post("/api/players", json={"name": "Anna"}).json()
    made = client.post("/api/tables", json={"game": "scout", "players": 3},
                       headers={"authorization": f"Bearer {anna['key']}"}).json()
    t, tok = made["table"], made["seats"][0]["token"]
    seat = {"authorization": f"Bearer {tok}"}
    join = client.post(f"/api/tables/{t}/join")
    assert join.status_code == 200
    for r in (client.get(f"/api/tables/{t}", headers=seat),
              client.get(f"/api/tables/{t}/invites", headers=seat),
              client.get("/api/players/me", headers={"authorization": f"Bearer {anna['key']}"}),
              join, client.get("/api/tables/nope"), client.head(f"/api/tables/{t}")):
        assert r.status_code in (200, 404), r.text
        assert r.headers.get("cache-control") == "no-store", (r.url, r.headers)
        has_security_headers(r)
    started = client.post("/api/tables", json={"game": "scout", "players": 2}).json()
    picture = client.get(f"/api/tables/{started['table']}/picture.svg", headers={
        "authorization": f"Bearer {started['seats'][0]['token']}"})
    assert picture.status_code == 200
    assert picture.headers["cache-control"] == "private, no-cache"
    assert "no-store" not in client.get("/js/api.js").headers.get("cache-control", "")
