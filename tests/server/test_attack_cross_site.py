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
from unittest import mock

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from bigtop.server import Limits
from tests.server.conftest import make_client, runtime_of
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


def test_a_read_for_another_sites_page_is_refused_before_any_work(
        sqlite_url: str) -> None:
    """Another site's page may have the API read without asking (``fetch`` with ``mode:
    "no-cors"``, a ``<script src>``, a prefetch, an ``<iframe>``, an ``<img>``) but never
    see the answer, which no CORS header lets it read and no frame of another site shows
    (``frame-ancestors 'none'``): the only effect was the server's work, from each
    visitor's own address, so no per-address budget held the page's visitors together.
    The lobby, the heaviest read (about 29 ms, 15 views), cost 40 at once and 2 a second
    for each visitor while the page was open. Such a read is refused before any work and
    takes nothing of the visitor's budget; a link followed from another site (the window's
    navigation) and a picture shown there (an image) are served, as are the server's own
    pages and clients that are no browser."""
    # The budget is what the reads served below take (1 + 2 + 2): the refused took none.
    limits = Limits(reads_per_minute=1, read_burst=5, heavy_read_tokens=2)
    with make_client(sqlite_url, limits=limits) as c:
        t = create(c)["table"]
        storage = runtime_of(c).master.storage
        with mock.patch.object(storage, "lobby_ids", wraps=storage.lobby_ids) as lobby:
            for mode, dest in (("no-cors", "empty"), ("cors", "empty"), ("no-cors", "script"),
                               ("no-cors", "image"), ("navigate", "iframe"),
                               ("no-cors", "object")):
                for path in ("/api/lobby", f"/api/tables/{t}"):
                    for _ in range(3):  # past the burst, were they counted
                        body = problem(c.get(path, headers={
                            "sec-fetch-site": "cross-site", "sec-fetch-mode": mode,
                            "sec-fetch-dest": dest}), 403, "cross-site")
                        assert "another site" in body["detail"]
            assert lobby.call_count == 0
        navigate = {"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate",
                    "sec-fetch-dest": "document"}
        assert c.get(f"/api/tables/{t}", headers=navigate).status_code == 200
        image = {"sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors",
                 "sec-fetch-dest": "image"}
        assert c.get(f"/api/tables/{t}/picture.svg", headers=image).status_code == 200
        assert c.get("/api/lobby", headers={"sec-fetch-site": "same-origin",
                                            "sec-fetch-mode": "cors"}).status_code == 200
