"""The FastAPI application: ``create_app(settings)``.

JSON API under ``/api``, OpenAPI docs at ``/docs`` (vendored Swagger UI), the web front end
(if built) at ``/``. Every response carries the security headers of server/headers.py.
On start the database is migrated (created fresh, or upgraded) and the worker's runtime
(bot pool, sweeper, PostgreSQL listener) starts; on stop it ends.

>>> from bigtop.server.settings import Settings
>>> app = create_app(Settings(db_url="sqlite://"))
>>> sorted(p for p in app.openapi()["paths"] if p.startswith("/api/lobby"))
['/api/lobby']
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import (
    RequestValidationError,
    WebSocketRequestValidationError,
)
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bigtop import __version__
from bigtop.core.errors import BigtopError, InputLimitError
from bigtop.core.limits import parse_json_limited
from bigtop.server import errors
from bigtop.server.db import make_engine, migrate
from bigtop.server.edge import Edge, problem_response
from bigtop.server.headers import DOCS_PAGE, SWAGGER, SecurityHeaders
from bigtop.server.master import TableMaster
from bigtop.server.net import ClientCount, RealClient, trusted_networks
from bigtop.server.routers import (
    chat,
    games,
    lobby,
    players,
    ratings,
    records,
    tables,
    ws,
)
from bigtop.server.runtime import RateLimiter, Runtime
from bigtop.server.settings import Settings
from bigtop.server.storage import SqlStorage

log = logging.getLogger("bigtop.server")
STATIC = Path(__file__).resolve().parent.parent / "web" / "static"


class BodyLimit:
    """Refuse request bodies over the limit (413) before the app reads them, whether or not
    the client announced a Content-Length."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = errors.TooLarge(f"request bodies are limited to {self.limit} bytes")
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await problem_response(too_large)(scope, receive, send)
                return
        # Read the whole body first (at most the limit), then hand it on: a body that
        # streams past the limit without a Content-Length is refused just the same.
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                # The client left before its body was whole: nothing of it is acted on (a
                # prefix that was JSON on its own, a move say, went to the route).
                return
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await problem_response(too_large)(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body.strip() and _is_json(scope) and scope.get("method") not in _NO_BODY:
            # The core's limits for anything from outside: depth, sizes, numbers, no NaN,
            # no key twice (the framework's parser would accept all of those). A GET's body
            # is read by no route: parsing it would only cost (5 ms for 64 KB of keys, the
            # price of a read token spent 2.6 times over).
            try:
                parse_json_limited(body, "request body")
            except InputLimitError as e:  # also: not JSON at all
                await problem_response(errors.BadRequest(str(e)))(scope, receive, send)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)




_NO_BODY = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods whose body no route reads."""


def _is_json(scope: Scope) -> bool:
    for name, value in scope.get("headers", []):
        if name == b"content-type":
            return b"json" in value.lower()
    return False


class BigtopApp(FastAPI):
    """FastAPI with three layers outside all of its own: the real client address and scheme
    (server/net.py), the security headers (server/headers.py), then what every API request
    passes first (server/edge.py: no secret in the URL, the read budget, HEAD). Middleware
    added with ``add_middleware`` runs inside Starlette's ``ServerErrorMiddleware``, which
    answers an unhandled exception's 500 itself, straight to the server: a 500 had none of
    the headers. Outside it every response has them."""

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bigtop_settings = settings
        self.reads = RateLimiter(settings.limits.reads_per_minute / 60.0,
                                 settings.limits.read_burst)
        """The read budget of each client address (server/edge.py), in this worker."""

    def build_middleware_stack(self) -> ASGIApp:
        s = self.bigtop_settings
        # Everything inside the headers sees the real client address and scheme (HSTS
        # only over HTTPS as the proxy reports it).
        edge = Edge(super().build_middleware_stack(), self.reads, s.limits,
                    blocked=trusted_networks(s.blocked, "blocked"))
        return RealClient(SecurityHeaders(edge, hsts_seconds=s.hsts_seconds),
                          trusted_proxies=s.trusted_proxies,
                          ipv6_prefix=s.limits.ipv6_prefix)


def create_app(settings: Settings) -> FastAPI:
    """The bigtop server for ``settings`` (the database is migrated when it starts)."""
    engine = make_engine(settings.db_url)
    storage = SqlStorage(engine)
    master = TableMaster(storage, settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.migrate_on_start:
            await anyio.to_thread.run_sync(migrate, engine)
        runtime = Runtime(master, settings)
        app.state.runtime = runtime
        await runtime.start()
        try:
            yield
        finally:
            await runtime.stop()
            storage.close()
            engine.dispose()

    # FastAPI's own /docs and /redoc pages load their scripts from a CDN with an inline
    # script: ours below serves the vendored Swagger UI instead.
    app = BigtopApp(settings, title="bigtop server", version=__version__, lifespan=lifespan,
                    docs_url=None, redoc_url=None,
                    description="Tables, seats and live play of the bigtop games. "
                                "See docs/server.md.")

    @app.exception_handler(errors.Problem)
    async def _problem(_r: Request, exc: errors.Problem) -> JSONResponse:
        return problem_response(exc)

    @app.exception_handler(BigtopError)
    async def _engine(_r: Request, exc: BigtopError) -> JSONResponse:
        return problem_response(errors.Unprocessable(str(exc)))

    @app.exception_handler(RequestValidationError)
    async def _invalid(_r: Request, exc: RequestValidationError) -> JSONResponse:
        return problem_response(errors.invalid(list(exc.errors())))

    @app.exception_handler(WebSocketRequestValidationError)
    async def _invalid_socket(socket: WebSocket, exc: WebSocketRequestValidationError) -> None:
        # A WebSocket's query that is no good (``?since=-1``): told like every refused
        # socket (routers/ws.py), an ``error`` message, then close 4000 + the status
        # (FastAPI's own handler refused the handshake with a bare HTTP 403).
        p = errors.invalid(list(exc.errors()))
        offered = socket.scope.get("subprotocols", [])
        await socket.accept(subprotocol=ws.PROTOCOL if ws.PROTOCOL in offered else None)
        await socket.send_json({"type": "error", "problem": p.problem()})
        await socket.close(code=4000 + p.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_r: Request, exc: StarletteHTTPException) -> JSONResponse:
        p = errors.Problem(str(exc.detail))
        p.status, p.title, p.slug = exc.status_code, str(exc.detail), "http"
        return problem_response(p)

    @app.exception_handler(Exception)
    async def _crash(_r: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error")
        p = errors.Problem("internal server error (logged)")
        p.status, p.title, p.slug = 500, "Internal error", "internal"
        return problem_response(p)

    for module in (games, lobby, players, tables, chat, records, ratings, ws):
        app.include_router(module.router)

    if settings.api_docs:
        @app.get("/docs", include_in_schema=False)
        async def _docs() -> HTMLResponse:
            return HTMLResponse(DOCS_PAGE)

        app.mount("/docs/assets", StaticFiles(directory=SWAGGER), name="api-docs")

    static = Path(settings.static_dir) if settings.static_dir else STATIC
    if (static / "index.html").exists():
        app.mount("/", StaticFiles(directory=static, html=True), name="web")

    app.state.settings = settings
    app.state.sockets = ClientCount(settings.limits.max_sockets_per_client)
    app.state.reads = app.reads
    app.add_middleware(BodyLimit, limit=settings.limits.max_body_bytes)
    return app


def app_from_env() -> FastAPI:
    """The app for uvicorn's workers (``bigtop serve --workers N``), settings from the
    environment."""
    return create_app(Settings.from_env())
