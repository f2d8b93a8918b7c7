"""A write to the API from another site's page is refused (403 ``cross-site``): the
browser says where a request comes from (``Sec-Fetch-Site``), and no page of another site
has any business writing here. ``POST …/join`` needs no token and no body, so it is a
"simple" request a page of any site may send without asking (a form, or ``fetch`` with
``mode: "no-cors"``): every visitor of such a page took a lobby seat, its token in an
answer nobody could read, the table started with a ghost in it, each from the visitor's own
address, so no per-address rate held it. A request with no such header (scripts, the
benchmark) or from the server's own pages is served as before."""

from __future__ import annotations

from fastapi.testclient import TestClient

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
