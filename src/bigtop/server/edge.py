"""What every request to the API passes first, whatever its route: no secret in the URL,
the address's read budget and bound on refused writes, and HEAD answered like GET; and
every HTTP request, the API's or not: the address's bound on requests in progress.

- **Requests in progress per client address** (``Limits.max_requests_per_client``, in the
  worker's memory): one more is answered 429 at once. Behind a trusted proxy the
  connections are the proxy's (server/protocol.py's cap per address counts none of a
  client's), and a proxy that passes a body on as it comes (Caddy) let one address's
  slow bodies hold every connection of the worker.

- **No secret in a URL.** A query parameter named like a secret (:data:`SECRET_PARAMS`:
  ``token``, ``key``…) is refused on every ``/api`` route and WebSocket, before any route
  runs: a URL is kept in histories, referrers and proxy logs. HTTP: 400
  ``token-in-url``; a WebSocket: that ``error`` message, then close 4400.
- **A read budget per client address** (``Limits.reads_per_minute``, ``read_burst``,
  token buckets in the worker's memory, keyed by :func:`~bigtop.server.net.client_address`):
  every GET or HEAD of the API and every WebSocket connect takes one token, a heavy read
  (:data:`HEAVY`: the lobby, a picture, an export, a leaderboard, a player's own tables)
  ``heavy_read_tokens``. Past it: 429 with ``Retry-After`` (a WebSocket: that ``error``
  message, then close 4429). Writes (moves included) take none: they have rates of their
  own, and the move path pays one string comparison here. Static files (the web page) are
  not counted: they are files served as they are, cacheable, and bounded by the
  connection and request limits like everything else.
- **Refused writes per client address**, in a bucket of the same size: an API write
  answered 4xx (a 429 of a route's own rate too) takes a token after the fact;
  an address with none left gets 429 for every write before any route runs. A refusal did a
  read's work (a table loaded to find the token opens no seat there) and took no read token:
  ``POST …/start`` without a token was an unbounded read, and so was a seat's chat or
  take-back past its rate (the table loaded before the rate refused it).
- **No write or WebSocket from another site's page**: an API write or WebSocket the
  browser marks as another site's (``Sec-Fetch-Site: cross-site``, ``same-site``) is
  refused, 403 ``cross-site`` (a WebSocket: that ``error`` message, close 4403), before
  any route. ``POST …/join`` needs no token and no body: a page of any site had each of
  its visitors take a lobby seat (a "simple" request, sent without asking), from the
  visitor's own address, its token in an answer nobody could read; and its visitors'
  sockets held a table's spectator slots.
- **HEAD** on an API route is answered as GET would be, without the body (FastAPI's routes
  answered it 405; Starlette's static files answer HEAD themselves).

>>> read_cost("/api/lobby", 10), read_cost("/api/tables/abc/picture.svg", 10)
(10, 10)
>>> read_cost("/api/tables/abc", 10), read_cost("/api/tables/abc/chat", 10)
(1, 1)
>>> secret_param(b"since=3&Token=x")
'Token'
>>> secret_param(b"since=3") is None
True
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl

from fastapi.responses import JSONResponse

from bigtop.server import errors
from bigtop.server.net import SCOPE_KEY, ClientCount, Network, in_networks
from bigtop.server.runtime import RateLimiter

if TYPE_CHECKING:
    from collections.abc import Sequence

    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    from bigtop.server.settings import Limits

PROBLEM_JSON = "application/problem+json"

SECRET_PARAMS = frozenset({
    "token", "key", "player_key", "seat_token", "access_token", "api_key", "apikey",
    "auth", "authorization", "bearer", "secret", "password"})
"""Query parameter names (compared in lower case) refused on every API route: each would
put a seat token or player key (or something like them) where logs keep it."""

TOKEN_IN_URL = ("a secret in the URL is refused (it would be kept in histories, referrers "
                "and proxy logs): send a seat token or player key as 'Authorization: "
                "Bearer TOKEN' (WebSockets: that header, or the subprotocol "
                "'bigtop.token.TOKEN' beside 'bigtop')")

HEAVY = re.compile(r"/api/(lobby|ratings/[^/]+|players/me|tables/[^/]+/(picture\.svg|export))/?")
"""The reads that cost ten times a view and more, or may (bench/bench_reads.py,
docs/server.md): the lobby (up to ``max_lobby_tables`` tables), a picture not yet kept, a
player's own tables (up to ``max_my_tables``), a leaderboard (``max_leaderboard`` rows), an
export (the whole game). A replay costs one or two views' work at a game of ordinary length
and is stepped through move by move (``?at=``): one token here; one whose step list is
longer than a view's log takes the rest of a heavy read in its route (routers/records.py),
which knows the game's length."""

API = "/api/"
PAGES = (API, "/docs", "/openapi.json")
"""What this layer looks at: the API, and where HEAD is answered as GET besides it (the
static files answer it themselves)."""


def read_cost(path: str, heavy: int) -> int:
    """The read tokens a GET of ``path`` takes: ``heavy`` for a heavy read, else 1."""
    return heavy if HEAVY.fullmatch(path) else 1


def secret_param(query: bytes) -> str | None:
    """The first query parameter of ``query`` named like a secret (None: none)."""
    for name, _ in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        if name.strip().lower() in SECRET_PARAMS:
            return name
    return None


def problem_response(p: errors.Problem) -> JSONResponse:
    """A problem as the HTTP answer (RFC 9457), with ``Retry-After`` for a 429."""
    headers = p.headers if isinstance(p, errors.TooManyRequests) else None
    return JSONResponse(p.problem(), status_code=p.status, media_type=PROBLEM_JSON,
                        headers=headers)


async def refuse_socket(scope: Scope, receive: Receive, send: Send, p: errors.Problem) -> None:
    """Refuse a WebSocket as the server refuses every one (routers/ws.py): accepted, told
    in an ``error`` message, closed with 4000 + the status."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    accept: dict[str, object] = {"type": "websocket.accept"}
    if "bigtop" in scope.get("subprotocols", []):
        accept["subprotocol"] = "bigtop"
    await send(accept)
    await send({"type": "websocket.send",
                "text": json.dumps({"type": "error", "problem": p.problem()})})
    await send({"type": "websocket.close", "code": 4000 + p.status})


def too_many_reads(wait: float, limits: Limits) -> errors.TooManyRequests:
    return _past_budget("read", f"a heavy read, such as the lobby or a picture, counts "
                                f"{limits.heavy_read_tokens}", wait, limits)


def too_many_refusals(wait: float, limits: Limits) -> errors.TooManyRequests:
    return _past_budget("be refused", "a write with no token or a wrong one, to no table, or "
                                      "not valid", wait, limits)


def _past_budget(what: str, counted: str, wait: float,
                 limits: Limits) -> errors.TooManyRequests:
    """The 429 of a client address past a budget the size of the read budget's."""
    return errors.TooManyRequests(
        f"one address may {what} {limits.read_burst} times at once and "
        f"{limits.reads_per_minute:g} times a minute ({counted}); try again in "
        f"{max(1, round(wait))} s", retry_after=wait)


class Edge:
    """ASGI middleware of the module's rules, inside :class:`~bigtop.server.net
    .RealClient` (the address it keys on) and the security headers (its answers carry
    them)."""

    def __init__(self, app: ASGIApp, reads: RateLimiter, limits: Limits,
                 refusals: RateLimiter | None = None,
                 blocked: Sequence[Network] = ()) -> None:
        self.app = app
        self.blocked = tuple(blocked)
        """The networks the host turned away (``Settings.blocked``)."""
        self.reads = reads
        self.limits = limits
        self.refusals = refusals if refusals is not None else RateLimiter(
            reads.rate, reads.burst)
        """The refused writes of each client address (a bucket like the read budget's)."""
        self.in_progress = ClientCount(limits.max_requests_per_client)
        """The HTTP requests each client address has in progress (``Limits
        .max_requests_per_client``)."""

    def _counting_refusals(self, key: str, send: Send) -> Send:
        """``send``, taking a token of ``key``'s refusals when the answer is a refusal (any
        4xx: a 429 too, as a route may load the table, or write a shared bucket, before
        its rate refuses)."""

        async def counting(message: Message) -> None:
            if message["type"] == "http.response.start" and 400 <= message["status"] < 500:
                self.refusals.take(key)
            await send(message)

        return counting

    def _take(self, scope: Scope, cost: int) -> float:
        return self.reads.take(scope.get(SCOPE_KEY) or "", cost=cost)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.blocked and scope["type"] in ("http", "websocket") \
                and in_networks((scope.get("client") or ("",))[0], self.blocked):
            turned = errors.Blocked("this address is blocked by the server's host")
            if scope["type"] == "http":
                await problem_response(turned)(scope, receive, send)
            else:
                await refuse_socket(scope, receive, send, turned)
            return
        if scope["type"] != "http":
            await self._pass(scope, receive, send)
            return
        # Every request is counted while it is in progress, a body still coming included:
        # behind a proxy its connection is the proxy's, which the HTTP layer's cap per
        # address (server/protocol.py) does not count.
        key = scope.get(SCOPE_KEY) or ""
        if not self.in_progress.take(key):
            await problem_response(errors.TooManyRequests(
                f"one address may have {self.in_progress.cap} requests in progress at once; "
                "try again once one is answered", retry_after=1.0))(scope, receive, send)
            return
        try:
            await self._pass(scope, receive, send)
        finally:
            self.in_progress.give_back(key)

    async def _pass(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind in ("http", "websocket") and "\x00" in scope["path"] \
                and scope["path"].startswith(API):
            # No table, game or route has a NUL, and PostgreSQL refuses one in text: a
            # table id holding one was a 500 there, its traceback logged.
            nothing = errors.NotFound("no such path: it holds a NUL character (%00)")
            if kind == "http":
                send = _headers_only(send) if scope["method"] == "HEAD" else send
                await problem_response(nothing)(scope, receive, send)
            else:
                await refuse_socket(scope, receive, send, nothing)
            return
        if kind == "http":
            path: str = scope["path"]
            if not path.startswith(PAGES):
                await self.app(scope, receive, send)
                return
            method = scope["method"]
            if scope.get("query_string") and path.startswith(API) \
                    and secret_param(scope["query_string"]) is not None:
                await problem_response(errors.TokenInUrl(TOKEN_IN_URL))(scope, receive, send)
                return
            if method not in ("GET", "HEAD"):  # writes: their own rates
                if not path.startswith(API):
                    await self.app(scope, receive, send)
                    return
                key = scope.get(SCOPE_KEY) or ""
                wait = self.refusals.wait(key)
                if wait:
                    await problem_response(too_many_refusals(wait, self.limits))(
                        scope, receive, send)
                    return
                send = self._counting_refusals(key, send)
                if _from_another_site(scope):
                    await problem_response(errors.CrossSite(CROSS_SITE))(scope, receive, send)
                    return
                await self.app(scope, receive, send)
                return
            if path.startswith(API):
                wait = self._take(scope, read_cost(path, self.limits.heavy_read_tokens))
                if wait:
                    await problem_response(too_many_reads(wait, self.limits))(
                        scope, receive, send)
                    return
            if method == "HEAD":
                await self.app({**scope, "method": "GET"}, receive, _headers_only(send))
                return
        elif kind == "websocket" and scope["path"].startswith(API):
            if scope.get("query_string") and secret_param(scope["query_string"]) is not None:
                await refuse_socket(scope, receive, send, errors.TokenInUrl(TOKEN_IN_URL))
                return
            if _from_another_site(scope):  # its visitors held a table's spectator slots
                await refuse_socket(scope, receive, send, errors.CrossSite(CROSS_SITE))
                return
            wait = self._take(scope, 1)
            if wait:
                await refuse_socket(scope, receive, send, too_many_reads(wait, self.limits))
                return
        await self.app(scope, receive, send)


CROSS_SITE = ("a write or live connection from another site's page is refused (its "
              "browser said so: Sec-Fetch-Site); use this site's pages, or a client that "
              "is no browser")


def _from_another_site(scope: Scope) -> bool:
    """Whether the browser says the request comes from another site's page
    (``Sec-Fetch-Site: cross-site`` or ``same-site``, a sibling host). A request without
    the header (a script, an older browser) is not refused: the tokens in headers guard
    every write but a join, which needs none."""
    for name, value in scope.get("headers", []):
        if name == b"sec-fetch-site":
            return value.strip().lower() in (b"cross-site", b"same-site")
    return False


def _headers_only(send: Send) -> Send:
    """``send`` with every body left out (the headers, Content-Length included, as GET's)."""

    async def headers_only(message: Message) -> None:
        if message["type"] == "http.response.body":
            message = {"type": "http.response.body", "body": b"",
                       "more_body": message.get("more_body", False)}
        await send(message)

    return headers_only
