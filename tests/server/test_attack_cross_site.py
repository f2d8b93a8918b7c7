"""A write to the API, or a WebSocket, from another site's page is refused (403
``cross-site``): the browser says where a request comes from (``Sec-Fetch-Site``), and no
page of another site has any business writing here. ``POST …/join`` needs no token and no
body, so it is a "simple" request a page of any site may send without asking (a form, or
``fetch`` with ``mode: "no-cors"``): every visitor of such a page took a lobby seat, its
token in an answer nobody could read, the table started with a ghost in it, each from the
visitor's own address, so no per-address rate held it. A request with no such header
(scripts, the benchmark) or from the server's own pages is served as before."""

from __future__ import annotations

import contextlib

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from bigtop.server import Limits
from tests.server.conftest import make_client
from tests.server.test_api import create, problem


def test_a_write_from_another_sites_page_is_refused(client: TestClient) -> None:
    t = create(client, wait=True)["table"]
    lobby = {x["table"]: x["free_seats"] for x in client.get("/api/lobby").json()["tables"]}
    assert lobby[t] == [1]
    for site in ("cross-site", "same-site", "Cross-Site"):
        body = problem(client.post(f"/api/tables/{t}/join", content=b"", headers={
            "content-type": "text/plain", "sec-fetch-site": site,
            "origin": "https://elsewhere.example"}), 403, "cross-site")
        assert "another site" in body["detail"]
    problem(client.post("/api/tables", json={"game": "scout", "players": 2},
                        headers={"sec-fetch-site": "cross-site"}), 403, "cross-site")
    view = client.get(f"/api/tables/{t}").json()
    assert view["status"] == "waiting" and view["waiting_for"][0]["seat"] == 1
    # Reads are public (a spectator link opened from anywhere); the server's own pages
    # and clients that are no browser write as before.
    assert client.get(f"/api/tables/{t}", headers={"sec-fetch-site": "cross-site"}) \
        .status_code == 200
    r = client.post(f"/api/tables/{t}/join", headers={"sec-fetch-site": "same-origin"})
    assert r.status_code == 200, r.text
    assert client.post("/api/players", json={"name": "Anna"}).status_code == 201


def test_a_socket_from_another_sites_page_is_refused(sqlite_url: str) -> None:
    """A page of any site may open WebSockets (no preflight guards them): its visitors,
    each from an address of their own, held the spectator slots of a table
    (``max_connections_per_table``), or of every table in the lobby, while the page was
    open, and real spectators were refused (4503)."""
    with make_client(sqlite_url, limits=Limits(max_connections_per_table=2)) as c:
        t = create(c)["table"]
        with c.websocket_connect(f"/api/tables/{t}/ws",
                                 headers={"sec-fetch-site": "cross-site"}) as ws:
            refused = ws.receive_json()
            assert refused["type"] == "error"
            assert refused["problem"]["type"] == "/problems/cross-site"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4403
        with contextlib.ExitStack() as held:  # the slots are the real spectators'
            for site in ("same-origin", None):
                ws = held.enter_context(c.websocket_connect(
                    f"/api/tables/{t}/ws", headers={"sec-fetch-site": site} if site else {}))
                assert ws.receive_json()["type"] == "view"
