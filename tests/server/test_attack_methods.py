"""A method a path does not answer is a 405 that says which it does (``Allow``, which RFC
9110 requires of every 405): none said so, since the problem answer dropped the header the
framework set, and the static files set none. And the methods counted are the path's own:
an API path whose routes take only other methods (``TRACE /api/tables/ID``) was refused by
the static files that lie under every path, or named only its first route's methods."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import make_client
from tests.server.test_api import auth, create, problem


def test_a_405_says_which_methods_the_path_answers(client: TestClient) -> None:
    allowed = {"/api/games": "GET, HEAD",  # HEAD wherever GET is (server/edge.py)
               "/api/tables": "POST",
               "/api/tables/abc": "GET, HEAD, PATCH",
               "/api/tables/abc/moves": "POST",
               "/api/players/me": "GET, HEAD, PATCH",
               "/openapi.json": "GET, HEAD",
               "/index.html": "GET, HEAD",  # a static file
               "/no-such-file": "GET, HEAD"}
    for path, allow in allowed.items():
        for method in ("TRACE", "OPTIONS", "PUT", "DELETE"):
            r = client.request(method, path)
            problem(r, 405, "http")
            assert r.headers["allow"] == allow, (method, path)


def test_every_answer_with_a_log_holds_every_kind_of_entry(sqlite_url: str) -> None:
    """A view's log line had a kind the answer's model did not know (``resign``, and the
    host's ``closed``): ``POST …/reclaim``, whose answer the framework checks against the
    model, answered 500 at any table someone resigned at or the host closed, its traceback
    logged, and the API description named five kinds of seven."""
    with make_client(sqlite_url) as c:
        made = create(c, seats=[{"kind": "human"}, {"kind": "human"}])
        t, tok = made["table"], made["seats"][0]["token"]
        assert c.post(f"/api/tables/{t}/resign", headers=auth(tok)).status_code == 200
        r = c.post(f"/api/tables/{t}/reclaim", headers=auth(tok))
        assert r.status_code == 200, r.text
        assert "resign" in [e["kind"] for e in r.json()["log"]]
        waiting = create(c, wait=True)
        w, host = waiting["table"], waiting["seats"][0]["token"]
        assert c.post(f"/api/tables/{w}/resign", headers=auth(host)).status_code == 200
        r = c.post(f"/api/tables/{w}/reclaim", headers=auth(host))
        assert r.status_code == 200, r.text
        kinds = c.get("/openapi.json").json()["components"]["schemas"]["LogLine"][
            "properties"]["kind"]["enum"]
        assert {"resign", "closed"} <= set(kinds)
