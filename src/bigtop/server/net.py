"""Who is asking: the real client address and scheme of a request, behind trusted proxies.

Every per-client limit keys on :func:`client_address`: the client's address, an IPv6 one
as its network (``Limits.ipv6_prefix``, /64: :func:`limit_key`). The address is the TCP peer, unless
the peer is one of ``Settings.trusted_proxies``: then it is the right-most hop of
``X-Forwarded-For`` that is not itself a trusted proxy (each proxy appends the address it
saw, so everything left of that hop was written by the client and proves nothing). Likewise
``X-Forwarded-Proto`` counts only when a trusted proxy sent it. ``bigtop serve`` turns
uvicorn's own proxy-header handling off, so this module is the one place that reads them.

>>> trusted = trusted_networks(["127.0.0.1", "10.0.0.0/8"])
>>> real_client("203.0.113.9", [b"1.2.3.4"], trusted)  # not a proxy: its header is ignored
'203.0.113.9'
>>> real_client("127.0.0.1", [b"6.6.6.6, 198.51.100.7, 10.1.2.3"], trusted)
'198.51.100.7'
>>> real_client("127.0.0.1", [], trusted)  # a trusted proxy that named nobody
'127.0.0.1'
>>> forwarded_scheme("http", "127.0.0.1", [b"https"], trusted)
'https'
>>> forwarded_scheme("http", "203.0.113.9", [b"https"], trusted)
'http'
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from bigtop.core.errors import BigtopError

if TYPE_CHECKING:
    from starlette.requests import HTTPConnection
    from starlette.types import ASGIApp, Receive, Scope, Send

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

SCOPE_KEY = "bigtop.client"
"""Where :class:`RealClient` leaves the address it worked out in the ASGI scope."""

MAX_HOPS = 32
"""Hops of X-Forwarded-For looked at (a longer chain is cut from the left: the client's end)."""


def trusted_networks(entries: Iterable[str], what: str = "trusted_proxies"
                     ) -> tuple[Network, ...]:
    """The networks of ``Settings.trusted_proxies`` (or of the setting ``what``: addresses
    or CIDR blocks).

    >>> trusted_networks(["::1", "192.168.0.0/16"])
    (IPv6Network('::1/128'), IPv4Network('192.168.0.0/16'))
    >>> trusted_networks(["proxy.example"])
    Traceback (most recent call last):
    ...
    bigtop.core.errors.BigtopError: trusted_proxies: 'proxy.example' is not an IP address or network
    """
    out: list[Network] = []
    for entry in entries:
        try:
            out.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            raise BigtopError(
                f"{what}: {entry!r} is not an IP address or network") from None
    return tuple(out)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # "[2001:db8::1]:443"
        text = text[1:text.index("]")]
    elif text.count(":") == 1:  # "192.0.2.1:443"
        text = text.partition(":")[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    # An IPv4 client seen through an IPv6 socket is the IPv4 client.
    mapped = getattr(ip, "ipv4_mapped", None)
    return mapped if mapped is not None else ip


def _trusted(ip: ipaddress.IPv4Address | ipaddress.IPv6Address | None,
             trusted: Sequence[Network]) -> bool:
    return ip is not None and any(ip.version == n.version and ip in n for n in trusted)


def in_networks(address: str, networks: Sequence[Network]) -> bool:
    """Whether ``address`` lies in one of ``networks`` (an IPv4 client seen through an
    IPv6 socket as itself).

    >>> blocked = trusted_networks(["203.0.113.0/24", "2001:db8::/32"], "blocked")
    >>> in_networks("203.0.113.9", blocked), in_networks("::ffff:203.0.113.9", blocked)
    (True, True)
    >>> in_networks("198.51.100.1", blocked), in_networks("x", blocked)
    (False, False)
    """
    return _trusted(_ip(address), networks)


def is_trusted(peer: str, trusted: Sequence[Network]) -> bool:
    """Whether ``peer`` (an address) is one of the ``trusted`` proxies.

    >>> is_trusted("127.0.0.1", trusted_networks(["127.0.0.1"])), is_trusted("x", ())
    (True, False)
    """
    return _trusted(_ip(peer), trusted)


def real_client(peer: str, forwarded_for: Sequence[bytes], trusted: Sequence[Network]) -> str:
    """The client's address: ``peer`` unless it is a trusted proxy, then the right-most
    untrusted hop of the ``X-Forwarded-For`` header values (all of them, in order). A hop
    that is no IP address means the proxy passed the client's header on unchecked: the last
    trusted hop is answered then (never a string the client chose)."""
    if not _trusted(_ip(peer), trusted):
        return peer
    hops = [h for v in forwarded_for for h in v.decode("latin-1").split(",") if h.strip()]
    last = peer
    for hop in reversed(hops[-MAX_HOPS:]):
        ip = _ip(hop)
        if ip is None:
            return last
        if not _trusted(ip, trusted):
            return str(ip)
        last = str(ip)
    return last


def limit_key(address: str, ipv6_prefix: int = 64) -> str:
    """The key of ``address``'s per-client limits: an IPv4 address as it is, an IPv6 one as
    its network of ``ipv6_prefix`` bits (one subscriber's block: changing the address within
    it gives no fresh allowance); anything else (a test client's name) as it is.

    >>> limit_key("203.0.113.9"), limit_key("::ffff:203.0.113.9")
    ('203.0.113.9', '203.0.113.9')
    >>> limit_key("2001:db8:1:2:aaaa::1"), limit_key("2001:db8:1:2:bbbb::7")
    ('2001:db8:1:2::/64', '2001:db8:1:2::/64')
    >>> limit_key("2001:db8:1:2:aaaa::1", 128), limit_key("testclient")
    ('2001:db8:1:2:aaaa::1/128', 'testclient')
    """
    ip = _ip(address)
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((ip, ipv6_prefix), strict=False))
    return address if ip is None else str(ip)


def forwarded_scheme(scheme: str, peer: str, forwarded_proto: Sequence[bytes],
                     trusted: Sequence[Network]) -> str:
    """``scheme`` ("http"/"ws"), or its secure form when a trusted proxy says the client
    came over HTTPS (the right-most ``X-Forwarded-Proto`` value)."""
    if not forwarded_proto or not _trusted(_ip(peer), trusted):
        return scheme
    said = forwarded_proto[-1].decode("latin-1").split(",")[-1].strip().lower()
    if said == "https":
        return {"http": "https", "ws": "wss"}.get(scheme, scheme)
    if said == "http":
        return {"https": "http", "wss": "ws"}.get(scheme, scheme)
    return scheme


def _headers(scope: Scope, name: bytes) -> list[bytes]:
    return [v for k, v in scope.get("headers", []) if k == name]


def _peer(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else ""


def client_address(conn: HTTPConnection) -> str:
    """The real client of a request or WebSocket (see the module's doc) as the key of every
    per-client limit (:func:`limit_key`: an IPv6 client's network). Worked out once by
    :class:`RealClient`; computed here from the app's settings when that middleware did
    not run."""
    known = conn.scope.get(SCOPE_KEY)
    if isinstance(known, str):
        return known
    settings = getattr(conn.app.state, "settings", None)
    trusted = trusted_networks(settings.trusted_proxies) if settings is not None else ()
    prefix = settings.limits.ipv6_prefix if settings is not None else 64
    return limit_key(real_client(_peer(conn.scope), _headers(conn.scope, b"x-forwarded-for"),
                                 trusted), prefix)


class RealClient:
    """ASGI middleware: puts the real client address in ``scope["client"]`` and
    ``scope[SCOPE_KEY]``, and the scheme a trusted proxy reports in ``scope["scheme"]``, so
    ``request.client`` and ``request.url`` tell the truth everywhere below it."""

    def __init__(self, app: ASGIApp, trusted_proxies: Iterable[str],
                 ipv6_prefix: int = 64) -> None:
        self.app = app
        self.trusted = trusted_networks(trusted_proxies)
        self.ipv6_prefix = ipv6_prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and SCOPE_KEY not in scope:
            peer = _peer(scope)
            address = real_client(peer, _headers(scope, b"x-forwarded-for"), self.trusted)
            scheme = forwarded_scheme(scope.get("scheme", "http"), peer,
                                      _headers(scope, b"x-forwarded-proto"), self.trusted)
            scope = dict(scope)
            scope[SCOPE_KEY] = limit_key(address, self.ipv6_prefix)
            if address != peer:
                scope["client"] = (address, 0)
            scope["scheme"] = scheme
        await self.app(scope, receive, send)


class ClientCount:
    """How many of something (open WebSockets) each client address holds, with a cap.

    >>> c = ClientCount(2)
    >>> c.take("a"), c.take("a"), c.take("a"), c.take("b")
    (True, True, False, True)
    >>> c.give_back("a"); c.take("a")
    True
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.held: dict[str, int] = {}

    def take(self, address: str) -> bool:
        n = self.held.get(address, 0)
        if n >= self.cap:
            return False
        self.held[address] = n + 1
        return True

    def give_back(self, address: str) -> None:
        n = self.held.get(address, 0) - 1
        if n > 0:
            self.held[address] = n
        else:
            self.held.pop(address, None)


class SocketBudget:
    """One connection's token bucket: ``rate`` tokens a second, ``burst`` at once. Two
    floats, no lock and no dict (unlike :class:`~bigtop.server.runtime.RateLimiter`): it is
    taken from for every message of one socket, in the event loop's thread (routers/ws.py:
    the socket's messages; server/protocol.py: its ping frames).

    >>> b = SocketBudget(rate=2.0, burst=2, now=0.0)
    >>> b.take(0.0), b.take(0.0), b.take(0.0)
    (0.0, 0.0, 0.5)
    >>> b.take(0.5)
    0.0
    """

    __slots__ = ("burst", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = self.burst
        self.last = now

    def take(self, now: float) -> float:
        """Take a token: 0.0, or (none taken) the seconds until one is there."""
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1.0:
            return (1.0 - self.tokens) / self.rate
        self.tokens -= 1.0
        return 0.0

