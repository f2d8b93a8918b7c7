"""The real client address and scheme (server/net.py): the peer, or the right-most
untrusted X-Forwarded-For hop and X-Forwarded-Proto only from a trusted proxy."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocket

from bigtop.core.errors import BigtopError
from bigtop.server.net import RealClient, client_address, real_client, trusted_networks
from bigtop.server.settings import Limits, Settings

PROXY = ("10.0.0.5", 40000)
STRANGER = ("203.0.113.9", 40000)


async def who(request: Request) -> JSONResponse:
    return JSONResponse({"address": client_address(request), "scheme": request.url.scheme,
                         "client": request.client.host if request.client else None})


async def who_ws(ws: WebSocket) -> None:
    await ws.accept()
    await ws.send_json({"address": client_address(ws), "scheme": ws.url.scheme})
    await ws.close()


def client(peer: tuple[str, int], trusted: tuple[str, ...] = ("10.0.0.0/24",),
           middleware: bool = True) -> TestClient:
    app: Any = Starlette(routes=[Route("/who", who), WebSocketRoute("/ws", who_ws)])
    app.state.settings = Settings(db_url="sqlite://", trusted_proxies=trusted)
    if middleware:
        app.add_middleware(RealClient, trusted_proxies=trusted)
    return TestClient(app, client=peer)


@pytest.mark.parametrize("middleware", [True, False])
def test_a_stranger_cannot_name_another_address(middleware: bool) -> None:
    c = client(STRANGER, middleware=middleware)
    r = c.get("/who", headers={"x-forwarded-for": "1.2.3.4", "x-forwarded-proto": "https"})
    assert r.json()["address"] == "203.0.113.9"
    assert r.json()["scheme"] == "http"


@pytest.mark.parametrize("middleware", [True, False])
def test_a_trusted_proxy_names_the_right_most_untrusted_hop(middleware: bool) -> None:
    c = client(PROXY, middleware=middleware)
    # The client wrote "6.6.6.6" itself; the first proxy (10.0.0.7, trusted) saw 198.51.100.7.
    r = c.get("/who", headers={"x-forwarded-for": "6.6.6.6, 198.51.100.7, 10.0.0.7"})
    assert r.json()["address"] == "198.51.100.7"
    # Several header lines are one list, in order.
    r = c.get("/who", headers=[("x-forwarded-for", "6.6.6.6"),
                               ("x-forwarded-for", "198.51.100.8")])
    assert r.json()["address"] == "198.51.100.8"


def test_the_middleware_sets_client_and_scheme_for_everything_below() -> None:
    c = client(PROXY)
    r = c.get("/who", headers={"x-forwarded-for": "198.51.100.7", "x-forwarded-proto": "https"})
    assert r.json() == {"address": "198.51.100.7", "scheme": "https", "client": "198.51.100.7"}
    with c.websocket_connect("/ws", headers={"x-forwarded-for": "198.51.100.7",
                                             "x-forwarded-proto": "https"}) as ws:
        assert ws.receive_json() == {"address": "198.51.100.7", "scheme": "wss"}


def test_odd_headers_never_become_the_address() -> None:
    c = client(PROXY)
    # Garbage where the proxy's hop should be: the proxy itself is the client then.
    assert c.get("/who", headers={"x-forwarded-for": "1.2.3.4, evil"}).json()["address"] \
        == "10.0.0.5"
    assert c.get("/who").json()["address"] == "10.0.0.5"
    assert c.get("/who", headers={"x-forwarded-for": " , "}).json()["address"] == "10.0.0.5"
    # Ports and brackets are the proxy's notation, not part of the address.
    r = c.get("/who", headers={"x-forwarded-for": "[2001:db8::1]:443"}).json()
    assert r["client"] == "2001:db8::1" and r["address"] == "2001:db8::/64"
    assert c.get("/who", headers={"x-forwarded-for": "192.0.2.1:9"}).json()["address"] \
        == "192.0.2.1"
    # Only "https"/"http" change the scheme.
    assert c.get("/who", headers={"x-forwarded-proto": "gopher"}).json()["scheme"] == "http"


@pytest.mark.parametrize("middleware", [True, False])
def test_an_ipv6_client_is_keyed_by_its_network(middleware: bool) -> None:
    """A client with a whole /64 (a home line, a rented server) cannot take a fresh
    allowance with each of its addresses: every address of it is one key; another /64 is
    another client. ``Limits.ipv6_prefix`` sets the network's size."""
    c = client(PROXY, middleware=middleware)
    keys = {c.get("/who", headers={"x-forwarded-for": a}).json()["address"]
            for a in ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe")}
    assert keys == {"2001:db8:1:2::/64"}
    assert c.get("/who", headers={"x-forwarded-for": "2001:db8:1:3::1"}).json()["address"] \
        == "2001:db8:1:3::/64"
    assert client(("2001:db8:7:7::9", 1), middleware=middleware).get("/who").json()[
        "address"] == "2001:db8:7:7::/64"  # a peer, no proxy
    with pytest.raises(BigtopError, match="ipv6_prefix"):
        Limits(ipv6_prefix=0)


def test_nobody_trusted_and_ipv4_mapped_peers() -> None:
    assert client(PROXY, trusted=()).get(
        "/who", headers={"x-forwarded-for": "1.2.3.4"}).json()["address"] == "10.0.0.5"
    nets = trusted_networks(["127.0.0.1"])
    assert real_client("::ffff:127.0.0.1", [b"198.51.100.1"], nets) == "198.51.100.1"


def test_the_default_trusts_only_this_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    s = Settings(db_url="sqlite://")
    assert s.trusted_proxies == ("127.0.0.1", "::1")
    with pytest.raises(BigtopError, match="not an IP address"):
        Settings(db_url="sqlite://", trusted_proxies=("proxy.example",))
    # The settings travel to uvicorn's workers as JSON and come back the same.
    monkeypatch.setenv("BIGTOP_SERVER_SETTINGS", Settings(
        db_url="sqlite://", trusted_proxies=("10.0.0.0/8",)).to_env())
    assert Settings.from_env().trusted_proxies == ("10.0.0.0/8",)
