"""A method a path does not answer is a 405 that says which it does (``Allow``, which RFC
9110 requires of every 405): none said so, since the problem answer dropped the header the
framework set, and the static files set none. And the methods counted are the path's own:
an API path whose routes take only other methods (``TRACE /api/tables/ID``) was refused by
the static files that lie under every path, or named only its first route's methods."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.test_api import problem


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
