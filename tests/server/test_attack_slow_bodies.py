"""Requests in progress per client address (``Limits.max_requests_per_client``). Behind a
proxy every connection is the proxy's, so ``max_connections_per_client`` counts none of a
client's, and Caddy (docs/deploy.md) streams a request's body on as it comes: one address
sending a thousand slow bodies through it held the worker's ``max_connections`` for the
request timeout (15 s), again and again, and every other client got 503 meanwhile. Past
its share of requests in progress an address is answered 429 at once (the problem, with
the security headers), before the route reads anything, while another address is served.
The requests are driven through the app on its own event loop, their bodies held back as a
slow client's are; clients are named through the trusted proxy, as in test_limits.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx

from bigtop.server import Limits
from tests.server.conftest import make_client
from tests.server.test_headers import has_security_headers
from tests.server.test_limits import A, B, by


def test_slow_bodies_of_one_address_take_only_its_share(sqlite_url: str) -> None:
    with make_client(sqlite_url, peer="127.0.0.1",
                     limits=Limits(max_requests_per_client=2)) as c:
        transport = httpx.ASGITransport(app=c.app, client=("127.0.0.1", 50000))

        async def drive() -> tuple[list[int], list[httpx.Response]]:
            let_go = asyncio.Event()

            async def slow_body() -> AsyncIterator[bytes]:
                yield b'{"game": "scout",'
                await let_go.wait()
                yield b' "players": 2}'

            async with httpx.AsyncClient(transport=transport, base_url="http://bigtop") as h:
                slow = [asyncio.create_task(h.post(
                    "/api/tables", content=slow_body(),
                    headers={**by(A), "content-type": "application/json"}))
                    for _ in range(2)]
                await asyncio.sleep(0.2)  # both began, their bodies half sent
                assert not any(t.done() for t in slow)
                refused = await h.get("/api/games", headers=by(A))
                other = await h.get("/api/games", headers=by(B))
                let_go.set()
                done = [r.status_code for r in await asyncio.gather(*slow)]
                again = await h.get("/api/games", headers=by(A))
            return done, [refused, other, again]

        assert c.portal is not None
        done, (refused, other, again) = c.portal.call(drive)
        assert refused.status_code == 429, refused.text
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert "2 requests in progress at once" in refused.json()["detail"]
        assert int(refused.headers["retry-after"]) >= 1
        has_security_headers(refused)
        assert other.status_code == 200
        assert done == [201, 201]  # the slow ones were served whole
        assert again.status_code == 200  # their share came back
